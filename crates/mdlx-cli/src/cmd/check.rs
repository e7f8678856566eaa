//! `mdlx check PATH...`: the rules of [`mdlx::check`] over files and folders, printed for
//! people, as JSON lines or as SARIF 2.1.0; `--fix` writes the safe repairs.

use super::check_print::{list_rules, print_human, print_json, print_sarif};
use crate::files;
use crate::Ctx;
use anyhow::{anyhow, bail, Context, Result};
use mdlx::check::{Classification, Finding, Kind, Rule, Severity, SourceMap};
use rayon::prelude::*;
use serde_json::Value;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The verb's options.
pub(crate) struct Options {
    /// human, json or sarif.
    pub format: String,
    /// warnings or infos: fail on those too.
    pub deny: Option<String>,
    /// Rule ids to silence.
    pub allow: Vec<String>,
    /// A settings file.
    pub config: Option<PathBuf>,
    /// Check every file as this kind instead of the kind found for it.
    pub kind: Option<Kind>,
    /// Folders to look for textures in.
    pub textures: Vec<PathBuf>,
    /// List the rules.
    pub rules: bool,
    /// Write the safe repairs.
    pub fix: bool,
    /// Over the input.
    pub in_place: bool,
    /// Or here.
    pub output: Option<PathBuf>,
}

/// The settings file looked for in the current folder.
const CONFIG: &str = "mdlx-check.toml";

/// What one file gave.
pub(super) struct Checked {
    pub file: PathBuf,
    pub outcome: Result<Vec<Finding>, String>,
    /// What the model was checked as (None when it could not be read).
    pub kind: Option<AsKind>,
    /// What --fix did, for people.
    pub fixed: Vec<String>,
}

/// The kind a model was checked as, and why.
pub(super) struct AsKind {
    pub kind: Kind,
    /// `--kind` or what [`mdlx::check::classify`] said.
    pub why: String,
}

/// Settings: from the file, then the command line.
struct Settings {
    allow: Vec<&'static Rule>,
    deny: Severity,
}

/// Reads the settings file: a TOML file of two keys, `allow = ["rule", ...]` and
/// `deny = "warnings"` (or `"infos"`), with `#` comments. Both values are also JSON, which
/// is how they are read; anything else is refused with its line.
fn read_config(path: &Path) -> Result<(Vec<String>, Option<String>)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let (mut allow, mut deny) = (Vec::new(), None);
    // An array may run over several lines: join lines until the brackets balance.
    let mut pending = String::new();
    let mut start = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() && pending.is_empty() {
            continue;
        }
        if pending.is_empty() {
            start = n + 1;
        }
        pending.push_str(line);
        pending.push(' ');
        if pending.matches('[').count() > pending.matches(']').count() {
            continue;
        }
        let entry = std::mem::take(&mut pending);
        let bad = || {
            anyhow!(
                "{}:{start}: expected `allow = [\"rule\", ...]` or `deny = \"warnings\"`",
                path.display()
            )
        };
        let (key, value) = entry.split_once('=').ok_or_else(bad)?;
        // TOML allows a comma after an array's last item; JSON does not.
        let mut value = value.trim().to_owned();
        if let Some(head) = value.strip_suffix(']') {
            value = format!("{}]", head.trim_end().trim_end_matches(','));
        }
        let value: Value = serde_json::from_str(&value).map_err(|_| bad())?;
        match (key.trim(), value) {
            ("allow", Value::Array(v)) => {
                for x in v {
                    allow.push(x.as_str().ok_or_else(bad)?.to_owned());
                }
            }
            ("deny", Value::String(s)) => deny = Some(s),
            _ => return Err(bad()),
        }
    }
    if !pending.trim().is_empty() {
        bail!("{}:{start}: an array is not closed", path.display());
    }
    Ok((allow, deny))
}

fn settings(opts: &Options) -> Result<Settings> {
    let config = match &opts.config {
        Some(p) => Some(p.clone()),
        None => Some(PathBuf::from(CONFIG)).filter(|p| p.is_file()),
    };
    let (mut allow, mut deny) = match &config {
        Some(p) => read_config(p)?,
        None => (Vec::new(), None),
    };
    allow.extend(opts.allow.iter().cloned());
    if opts.deny.is_some() {
        deny = opts.deny.clone();
    }
    let allow = allow
        .iter()
        .map(|id| {
            mdlx::check::rules::find(id).ok_or_else(|| {
                crate::usage(format!("no rule `{id}` (mdlx check --rules lists them)"))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let deny = match deny.as_deref() {
        None => Severity::Error,
        Some("warnings") => Severity::Warning,
        Some("infos") => Severity::Info,
        Some(other) => {
            return Err(crate::usage(format!(
                "deny = \"{other}\": expected \"warnings\" or \"infos\""
            )))
        }
    };
    Ok(Settings { allow, deny })
}

/// The model files under the paths: files as given, folders walked for .mdx, .mdl and
/// Milkshape .txt.
fn inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if files::is_container(p) {
            let exts = files::model_extensions();
            let mut found = files::find(std::slice::from_ref(p), &exts, &[])?;
            found.retain(|f| !files::has_ext(f, &["txt"]) || files::is_milkshape(f));
            if found.is_empty() {
                let what: Vec<String> = exts
                    .iter()
                    .map(|e| mdlx::formats::extension_phrase(e))
                    .collect();
                bail!(
                    "no {} files under {}",
                    mdlx::formats::or_list(&what),
                    p.display()
                );
            }
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn check_one(ctx: &Ctx, file: &Path, opts: &Options, s: &Settings) -> Checked {
    let mut fixed = Vec::new();
    let mut kind = None;
    let outcome = (|| -> Result<Vec<Finding>> {
        let data = files::read(file)?;
        let read_opts = super::read_options(ctx, file);
        let d = super::decode(&data, file, &read_opts)?;
        let (model, data) = if opts.fix {
            let (model, bytes, done) = fix(file, &data, &d, opts)?;
            fixed = done;
            (model, bytes)
        } else {
            (d.model, data)
        };
        let as_kind = match opts.kind {
            Some(k) => AsKind {
                kind: k,
                why: "as --kind says".into(),
            },
            None => {
                let Classification { kind, why, .. } =
                    mdlx::check::classify(&model, file.to_str().filter(|_| !files::is_stdio(file)));
                AsKind { kind, why }
            }
        };
        let mut findings = mdlx::check::check_as(&model, as_kind.kind);
        kind = Some(as_kind);
        let dirs = crate::archive::texture_places(file, &opts.textures);
        findings.extend(mdlx::check::check_textures(&model, dirs));
        let map = match d.source {
            mdlx::Source::Mdx { .. } => Some(SourceMap::mdx(&data)),
            mdlx::Source::Mdl { .. } => Some(SourceMap::mdl(&data)),
            _ => None,
        };
        if let Some(map) = map {
            map.locate(&mut findings);
        }
        findings.retain(|f| !s.allow.iter().any(|a| std::ptr::eq(*a, f.rule)));
        Ok(findings)
    })();
    Checked {
        file: file.to_path_buf(),
        outcome: outcome.map_err(|e| format!("{e:#}")),
        kind,
        fixed,
    }
}

/// Repairs the model and writes it in the input's format (to --output, or over the input
/// with --in-place when anything changed); returns the fixed model, the bytes it is now
/// stored as (what later findings are located in), and what was done.
fn fix(
    file: &Path,
    data: &[u8],
    d: &super::Decoded,
    opts: &Options,
) -> Result<(mdlx::Model, Vec<u8>, Vec<String>)> {
    let mdl = match d.source {
        mdlx::Source::Mdx { .. } => false,
        mdlx::Source::Mdl { .. } => true,
        _ => bail!(
            "--fix writes MDX and MDL; this is {}: convert it first",
            d.described
        ),
    };
    let fixed = mdlx::check::fix::fix(&d.model, &mdlx::check::fix::FixOptions::default())
        .map_err(|e| anyhow!("not fixed: {e}"))?;
    let mut done: Vec<String> = fixed
        .actions
        .iter()
        .map(|a| format!("{} {}: {}", a.rule, a.path, a.message))
        .collect();
    let bytes = if fixed.actions.is_empty() {
        data.to_vec()
    } else if mdl {
        mdlx::mdl::to_bytes(&fixed.model)
    } else {
        mdlx::mdx::to_bytes(&fixed.model)
            .map_err(|e| anyhow!("cannot write the fixed model: {e}"))?
    };
    match (&opts.output, opts.in_place) {
        (Some(out), _) => {
            files::write(out, &bytes, file)?;
        }
        (None, true) if !fixed.actions.is_empty() => {
            if files::is_stdio(file) {
                bail!("--in-place needs a file, not standard input");
            }
            // The input is the target here, on purpose: written whole or not at all.
            files::write(file, &bytes, Path::new("-"))?;
        }
        _ => {}
    }
    if !fixed.actions.is_empty() {
        done.push(format!(
            "the fixed model poses as the original at {}; {} -> {}",
            crate::text::count(fixed.poses_checked, "moment", "moments"),
            crate::text::count(data.len(), "byte", "bytes"),
            bytes.len()
        ));
    }
    Ok((fixed.model, bytes, done))
}

pub(crate) fn run(ctx: &Ctx, paths: &[PathBuf], opts: &Options) -> Result<ExitCode> {
    if opts.rules {
        return list_rules(&opts.format);
    }
    let s = settings(opts)?;
    let inputs = inputs(paths)?;
    if opts.fix && !opts.in_place && opts.output.is_none() {
        return Err(crate::usage("--fix needs --output FILE or --in-place"));
    }
    if opts.output.is_some() && inputs.len() != 1 {
        return Err(crate::usage(
            "--output takes one input file; use --in-place for several",
        ));
    }
    let results: Vec<Checked> = inputs
        .par_iter()
        .map(|f| check_one(ctx, f, opts, &s))
        .collect();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match opts.format.as_str() {
        "json" => print_json(&mut out, &results)?,
        "sarif" => print_sarif(&mut out, &results)?,
        _ => print_human(
            &mut out,
            &results,
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        )?,
    }
    out.flush()?;
    let failed = results.iter().any(|r| match &r.outcome {
        Err(_) => true,
        Ok(f) => f.iter().any(|f| f.severity() >= s.deny),
    });
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

impl From<&crate::cli::CheckArgs> for Options {
    fn from(a: &crate::cli::CheckArgs) -> Self {
        Options {
            format: if a.json {
                "json".into()
            } else {
                a.format.clone()
            },
            deny: a.deny.clone(),
            allow: a.allow.clone(),
            config: a.config.clone(),
            kind: a.kind.as_deref().and_then(mdlx::check::Kind::from_name),
            textures: a.textures.clone(),
            rules: a.rules,
            fix: a.fix,
            in_place: a.in_place,
            output: a.output.clone(),
        }
    }
}
