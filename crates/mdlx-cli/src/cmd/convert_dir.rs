//! `mdlx convert DIR OUTDIR --to FORMAT`: every input under a folder.
//!
//! DIR's tree is mirrored under OUTDIR; files convert in parallel, with a progress bar when
//! stderr is a terminal; files that fail are listed at the end (exit 1 if any did). Every
//! target is planned before anything is written, so two inputs that would make one output
//! (`X.mdx` beside `X.mdl`) are settled first: one converts, the other is skipped.

use super::convert_file::{convert_file, is_texture, outcome_json, Options, To};
use crate::files;
use crate::report;
use crate::Ctx;
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use serde_json::json;
use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The rank of an input's kind when two inputs would make the same output (the table's
/// [`mdlx::formats::FormatInfo::rank`]: MDX first, what the game loads, then MDL, then
/// Milkshape, then glTF; .glb before .gltf by name).
fn preference(path: &Path) -> u8 {
    (path.extension().and_then(|e| e.to_str()))
        .and_then(mdlx::formats::by_extension)
        .map_or(3, |f| f.rank)
}

/// What happens to one input of a folder conversion.
enum Plan {
    /// Convert it to this target.
    Convert(PathBuf),
    /// Leave it: another input makes the same output (that input's path).
    Skip(PathBuf),
}

/// Converts every model under `dir` into the same tree under `out_dir`.
pub(crate) fn run_dir(
    ctx: &Ctx,
    dir: &Path,
    out_dir: &Path,
    to: To,
    opts: &Options,
) -> Result<ExitCode> {
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    // The output folder may sit inside the input folder: never convert our own outputs.
    // Each format takes the inputs the table names (textures for a texture, models else).
    let mut inputs = files::find(&[dir.to_path_buf()], to.takes, &[out_dir.to_path_buf()])?;
    // A .txt file takes part only if it is Milkshape.
    inputs.retain(|p| !files::has_ext(p, &["txt"]) || files::is_milkshape(p));
    if inputs.is_empty() {
        let what: Vec<String> = (to.takes.iter())
            .map(|e| mdlx::formats::extension_phrase(e))
            .collect();
        bail!(
            "no {} files under {}",
            mdlx::formats::or_list(&what),
            dir.display()
        );
    }
    let jobs = plan(dir, out_dir, &inputs, to);
    let bar = Progress::new(jobs.len());
    let outcomes: Vec<(Status, serde_json::Value)> = jobs
        .par_iter()
        .map(|(input, plan)| {
            let outcome = convert_one(ctx, input, plan, to, opts, &bar);
            bar.inc();
            outcome
        })
        .collect();
    bar.finish();

    if opts.json {
        let mut out = std::io::stdout().lock();
        for (_, v) in &outcomes {
            writeln!(out, "{v}")?;
        }
    }
    Ok(summarize(&jobs, &outcomes, out_dir, to, opts))
}

/// Every input's plan: inputs that would land on one output (X.mdx and X.mdl converted to
/// MDL) are settled before anything is written.
fn plan<'a>(dir: &Path, out_dir: &Path, inputs: &'a [PathBuf], to: To) -> Vec<(&'a Path, Plan)> {
    let mut claims: HashMap<PathBuf, &Path> = HashMap::new();
    for input in inputs {
        let target = target_of(dir, out_dir, input, to);
        match claims.get(&target) {
            Some(first) if (preference(first), *first) <= (preference(input), input.as_path()) => {}
            _ => {
                claims.insert(target, input);
            }
        }
    }
    inputs
        .iter()
        .map(|input| {
            let target = target_of(dir, out_dir, input, to);
            let winner = claims[&target];
            let plan = if winner == input.as_path() {
                Plan::Convert(target)
            } else {
                Plan::Skip(winner.to_path_buf())
            };
            (input.as_path(), plan)
        })
        .collect()
}

/// One input of the folder: skipped (another input makes its output, or it is of the
/// other kind) or converted; what to tell goes above the progress bar.
fn convert_one(
    ctx: &Ctx,
    input: &Path,
    plan: &Plan,
    to: To,
    opts: &Options,
    bar: &Progress,
) -> (Status, serde_json::Value) {
    let shown = input.display().to_string();
    let skip = |reason: String, kind: Skip, mut v: serde_json::Value| {
        if !ctx.quiet {
            bar.println(&format!("mdlx: {shown}: {reason}"));
        }
        v["reason"] = json!(reason);
        (Status::Skipped(kind), v)
    };
    let target = match plan {
        Plan::Skip(winner) => {
            let reason = format!(
                "skipped: {} beside it makes the same output (MDX is preferred over MDL, MDL over Milkshape, Milkshape over glTF)",
                winner.display()
            );
            let v = json!({"input": shown, "status": "skipped", "reason": "", "converted_instead": winner.display().to_string()});
            return skip(reason, Skip::SameOutput, v);
        }
        Plan::Convert(target) => target,
    };
    if let Some(what) = other_kind(input, to) {
        let v = json!({"input": shown, "status": "skipped", "reason": ""});
        return skip(format!("skipped: {what}"), Skip::OtherKind, v);
    }
    let result = target
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .with_context(|| format!("cannot create the folder of {}", target.display()))
        .and_then(|()| convert_file(ctx, input, target, to, opts));
    let v = outcome_json(input, target, to, &result);
    match result {
        Ok(done) => {
            if !ctx.quiet {
                report::print_notes(&shown, &done.notes, &mut |l| bar.println(l));
            }
            (Status::Converted(done.missing_textures), v)
        }
        Err(e) => {
            bar.println(&format!("mdlx: failed: {shown}"));
            (Status::Failed(format!("{e:#}")), v)
        }
    }
}

/// The end of a folder conversion on stderr: how many converted and skipped, the textures
/// not found, the files that failed (exit status 1 if any did).
fn summarize(
    jobs: &[(&Path, Plan)],
    outcomes: &[(Status, serde_json::Value)],
    out_dir: &Path,
    to: To,
    opts: &Options,
) -> ExitCode {
    let skipped_as = |kind: Skip| {
        outcomes
            .iter()
            .filter(|(s, _)| matches!(s, Status::Skipped(k) if *k == kind))
            .count()
    };
    let (same_output, other_kind) = (skipped_as(Skip::SameOutput), skipped_as(Skip::OtherKind));
    let skipped = same_output + other_kind;
    let failures: Vec<(&Path, &str)> = jobs
        .iter()
        .zip(outcomes)
        .filter_map(|((input, _), (s, _))| match s {
            Status::Failed(e) => Some((*input, e.as_str())),
            _ => None,
        })
        .collect();
    let done = jobs.len() - failures.len() - skipped;
    let skipped_text = skipped_summary(same_output, other_kind, to);
    eprintln!(
        "mdlx: converted {done} of {} file(s) to {} under {}{skipped_text}",
        jobs.len(),
        to.name,
        out_dir.display()
    );
    let missing: Vec<&[String]> = (outcomes.iter())
        .filter_map(|(s, _)| match s {
            Status::Converted(m) if !m.is_empty() => Some(m.as_slice()),
            _ => None,
        })
        .collect();
    if let Some(line) = missing_summary(&missing, done, opts) {
        eprintln!("{line}");
    }
    if failures.is_empty() {
        return ExitCode::SUCCESS;
    }
    eprintln!("mdlx: {} file(s) failed:", failures.len());
    for (path, err) in &failures {
        // Most errors already start with the input's name; say it once.
        let shown = path.display().to_string();
        let err = err
            .strip_prefix(&shown)
            .and_then(|e| e.strip_prefix(": "))
            .unwrap_or(err);
        eprintln!("  {shown}: {}", err.replace('\n', "\n    "));
    }
    ExitCode::from(1)
}

/// How one input of a folder conversion ended.
enum Status {
    /// Converted; for glTF output, the texture paths that were not found.
    Converted(Vec<String>),
    Skipped(Skip),
    Failed(String),
}

/// Why an input of a folder conversion was left alone.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Skip {
    /// Another input makes the same output.
    SameOutput,
    /// The input is not of the kind the output format takes (a model named `.blp` in a
    /// conversion to PNG, a texture named `.mdx` in one to MDL).
    OtherKind,
}

/// The summary's words for skipped inputs: `, 2 skipped (not textures)`.
fn skipped_summary(same_output: usize, other_kind: usize, to: To) -> String {
    let mut parts = Vec::new();
    if same_output > 0 {
        parts.push(format!("{same_output} skipped"));
    }
    if other_kind > 0 {
        let kind = if is_texture(to) {
            "not textures"
        } else {
            "not models"
        };
        parts.push(format!("{other_kind} skipped ({kind})"));
    }
    parts.iter().map(|p| format!(", {p}")).collect()
}

/// Why `input` is not of the kind a conversion to `to` takes, if it is not: a model among
/// textures, or a texture among models. Unreadable or unrecognised content is no other
/// kind: converting it fails and says why.
fn other_kind(input: &Path, to: To) -> Option<String> {
    let content = mdlx::identify(&files::head(input)?);
    let texture = matches!(&content, mdlx::Content::NotAModel(like) if like.is_texture());
    if is_texture(to) {
        let format = content.format()?;
        Some(format!(
            "this is a model ({}), not a texture; {} output takes textures",
            format.short_name().to_ascii_uppercase(),
            to.name.to_ascii_uppercase()
        ))
    } else if texture {
        let mdlx::Content::NotAModel(like) = content else {
            return None;
        };
        Some(format!(
            "this is {like}, not a model; {} output takes models",
            to.name.to_ascii_uppercase()
        ))
    } else {
        None
    }
}

/// The end of a folder's glTF export when textures were not found: how many, in how many
/// models, the paths missed most often, where they were looked for, and `--textures`.
fn missing_summary(missing: &[&[String]], converted: usize, opts: &Options) -> Option<String> {
    if missing.is_empty() {
        return None;
    }
    let mut by_path: HashMap<&str, usize> = HashMap::new();
    for path in missing.iter().flat_map(|m| m.iter()) {
        *by_path.entry(path).or_default() += 1;
    }
    let total: usize = missing.iter().map(|m| m.len()).sum();
    let mut common: Vec<(&str, usize)> = by_path.iter().map(|(p, n)| (*p, *n)).collect();
    common.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let most: Vec<String> = (common.iter().take(3))
        .map(|(p, n)| format!("{p} in {n}"))
        .collect();
    let looked = if opts.textures.is_empty() {
        "each model's own folder".to_string()
    } else {
        let given: Vec<String> = opts
            .textures
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        format!("each model's own folder and {}", given.join(", "))
    };
    Some(format!(
        "mdlx: {total} texture(s) not found in {} of {converted} model(s) ({} different paths; most often {}); looked under {looked}; give --textures DIR (a folder with the game's textures, e.g. extracted from its archives) to embed them",
        missing.len(),
        by_path.len(),
        most.join(", ")
    ))
}

/// Where an input under `dir` goes under `out_dir`.
fn target_of(dir: &Path, out_dir: &Path, input: &Path, to: To) -> PathBuf {
    let rel = crate::archive::relative(input)
        .unwrap_or_else(|| input.strip_prefix(dir).unwrap_or(input).to_path_buf());
    out_dir.join(rel).with_extension(to.extensions[0])
}

/// A progress bar on stderr when it is a terminal; nothing otherwise.
pub(crate) struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    pub(crate) fn new(len: usize) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = indicatif::ProgressBar::new(len as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} files, {elapsed} elapsed, {eta} left",
        ) {
            bar.set_style(style);
        }
        Progress(Some(bar))
    }

    pub(crate) fn inc(&self) {
        if let Some(b) = &self.0 {
            b.inc(1);
        }
    }

    /// Prints a line above the bar (or plainly when there is no bar).
    pub(crate) fn println(&self, line: &str) {
        match &self.0 {
            Some(b) => b.println(line),
            None => eprintln!("{line}"),
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}
