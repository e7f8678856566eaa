//! `mdlx convert DIR OUTDIR --to FORMAT`: every input under a folder.
//!
//! DIR's tree is mirrored under OUTDIR; files convert in parallel, with a progress bar when
//! stderr is a terminal; files that fail are listed at the end (exit 1 if any did). Every
//! target is planned before anything is written, so two inputs that would make one output
//! (`X.mdx` beside `X.mdl`) are settled first: one converts, the other is skipped.

use super::convert::{convert_file, outcome_json, Options, To};
use crate::files;
use crate::report;
use crate::report::Note;
use crate::Ctx;
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use serde_json::json;
use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The rank of an input's kind when two inputs would make the same output: MDX first
/// (what the game loads), then MDL, then Milkshape, then glTF (.glb before .gltf by name).
fn preference(path: &Path) -> u8 {
    if files::has_ext(path, &["mdx"]) {
        0
    } else if files::has_ext(path, &["mdl"]) {
        1
    } else if files::has_ext(path, &["txt"]) {
        2
    } else {
        3
    }
}

/// What happens to one input of a folder conversion.
enum Plan {
    /// Convert it to this target.
    Convert(PathBuf),
    /// Leave it: another input makes the same output (that input's path).
    Skip(PathBuf),
}

/// Converts every model under `dir` into the same tree under `out_dir`.
pub fn run_dir(ctx: &Ctx, dir: &Path, out_dir: &Path, to: To, opts: &Options) -> Result<ExitCode> {
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    // The output folder may sit inside the input folder: never convert our own outputs.
    // PNG output takes the textures, every other format the models.
    let exts: &[&str] = if to == To::Png {
        &["blp", "dds", "tga"]
    } else if matches!(to, To::Tga | To::Dds) {
        // Not the output's own kind: re-encoding it as itself only costs.
        match to {
            To::Tga => &["blp", "dds", "png"],
            _ => &["blp", "tga", "png"],
        }
    } else if to == To::Blp {
        // Not .blp: re-encoding a BLP as BLP only loses quality.
        &["png", "tga", "dds"]
    } else if matches!(to, To::Glb | To::Gltf) {
        // Not glTF: it converts to Warcraft III models, not to glTF again.
        &["mdx", "mdl", "txt"]
    } else {
        &["mdx", "mdl", "txt", "glb", "gltf"]
    };
    let mut inputs = files::find(&[dir.to_path_buf()], exts, &[out_dir.to_path_buf()])?;
    // A .txt file takes part only if it is Milkshape.
    inputs.retain(|p| !files::has_ext(p, &["txt"]) || is_milkshape(p));
    if inputs.is_empty() {
        let what = if to == To::Png {
            ".blp, .dds or .tga"
        } else if to == To::Tga {
            ".blp, .dds or .png"
        } else if to == To::Dds {
            ".blp, .tga or .png"
        } else if to == To::Blp {
            ".png, .tga or .dds"
        } else if matches!(to, To::Glb | To::Gltf) {
            ".mdx, .mdl or Milkshape .txt"
        } else {
            ".mdx, .mdl, Milkshape .txt, .glb or .gltf"
        };
        bail!("no {what} files under {}", dir.display());
    }

    // Plan every target first: inputs that would land on one output (X.mdx and X.mdl
    // converted to MDL) are settled before anything is written.
    let mut claims: HashMap<PathBuf, &Path> = HashMap::new();
    for input in &inputs {
        let target = target_of(dir, out_dir, input, to);
        match claims.get(&target) {
            Some(first) if (preference(first), *first) <= (preference(input), input.as_path()) => {}
            _ => {
                claims.insert(target, input);
            }
        }
    }
    let jobs: Vec<(&Path, Plan)> = inputs
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
        .collect();

    let bar = Progress::new(jobs.len());
    let outcomes: Vec<(Status, serde_json::Value)> = jobs
        .par_iter()
        .map(|(input, plan)| {
            let shown = input.display().to_string();
            let outcome = match plan {
                Plan::Skip(winner) => {
                    let reason = format!(
                        "skipped: {} beside it makes the same output (MDX is preferred over MDL, MDL over Milkshape, Milkshape over glTF)",
                        winner.display()
                    );
                    if !ctx.quiet {
                        bar.println(&format!("mdlx: {shown}: {reason}"));
                    }
                    let v = json!({"input": shown, "status": "skipped", "reason": reason, "converted_instead": winner.display().to_string()});
                    (Status::Skipped(Skip::SameOutput), v)
                }
                Plan::Convert(target) => match other_kind(input, to) {
                    Some(what) => {
                    let reason = format!("skipped: {what}");
                    if !ctx.quiet {
                        bar.println(&format!("mdlx: {shown}: {reason}"));
                    }
                    let v = json!({"input": shown, "status": "skipped", "reason": reason});
                    (Status::Skipped(Skip::OtherKind), v)
                }
                None => {
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
                },
            };
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
        .zip(&outcomes)
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
        to.name(),
        out_dir.display()
    );
    let missing: Vec<&[String]> = (outcomes.iter())
        .filter_map(|(s, _)| match s {
            Status::Converted(m) if !m.is_empty() => Some(m.as_slice()),
            _ => None,
        })
        .collect();
    if let Some(line) = missing_summary(&missing, jobs.len() - failures.len() - skipped, opts) {
        eprintln!("{line}");
    }
    if failures.is_empty() {
        return Ok(ExitCode::SUCCESS);
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
    Ok(ExitCode::from(1))
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
        let kind = if is_texture_format(to) {
            "not textures"
        } else {
            "not models"
        };
        parts.push(format!("{other_kind} skipped ({kind})"));
    }
    parts.iter().map(|p| format!(", {p}")).collect()
}

/// Whether `to` is a texture's format.
fn is_texture_format(to: To) -> bool {
    matches!(to, To::Png | To::Blp | To::Tga | To::Dds)
}

/// Why `input` is not of the kind a conversion to `to` takes, if it is not: a model among
/// textures, or a texture among models. Unreadable or unrecognised content is no other
/// kind: converting it fails and says why.
fn other_kind(input: &Path, to: To) -> Option<String> {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(input)
        .and_then(|f| f.take(64 << 10).read_to_end(&mut head))
        .ok()?;
    let content = mdlx::identify(&head);
    let texture = matches!(&content, mdlx::Content::NotAModel(like) if like.is_texture());
    if is_texture_format(to) {
        let format = content.format()?;
        Some(format!(
            "this is a model ({}), not a texture; {} output takes textures",
            format.short_name().to_ascii_uppercase(),
            to.name().to_ascii_uppercase()
        ))
    } else if texture {
        let mdlx::Content::NotAModel(like) = content else {
            return None;
        };
        Some(format!(
            "this is {like}, not a model; {} output takes models",
            to.name().to_ascii_uppercase()
        ))
    } else {
        None
    }
}

/// The paths of `missing` textures ([`mdlx::gltf::Export::missing_textures`]) that were
/// not found, not those that failed to decode or that the game supplies.
pub fn not_found(missing: &[(String, String)]) -> Vec<String> {
    (missing.iter())
        .filter(|(_, why)| why == "not found")
        .map(|(path, _)| path.clone())
        .collect()
}

/// One file's glTF export: where the `missing` textures were looked for (`dirs`, the last
/// `given` of them from `--textures`), and how to give more.
pub fn where_looked(missing: &[String], dirs: &[PathBuf], given: usize) -> Option<Note> {
    if missing.is_empty() {
        return None;
    }
    let own = dirs.len().saturating_sub(given);
    let listed: Vec<String> = (dirs.iter().enumerate())
        .map(|(i, d)| {
            let whose = if i < own {
                "the model's folder"
            } else {
                "--textures"
            };
            format!("{} ({whose})", d.display())
        })
        .collect();
    Some(Note::info(
        "textures",
        format!(
            "{} texture(s) not found; looked for each path, and then its file name (a .blp also as .dds, .tga or .png), under {}; give --textures DIR (a folder with the game's textures, e.g. extracted from its archives) to embed them",
            missing.len(),
            listed.join(", ")
        ),
    ))
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
    let rel = input.strip_prefix(dir).unwrap_or(input);
    out_dir.join(rel).with_extension(to.extension())
}

/// A progress bar on stderr when it is a terminal; nothing otherwise.
struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    fn new(len: usize) -> Progress {
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

    fn inc(&self) {
        if let Some(b) = &self.0 {
            b.inc(1);
        }
    }

    /// Prints a line above the bar (or plainly when there is no bar).
    fn println(&self, line: &str) {
        match &self.0 {
            Some(b) => b.println(line),
            None => eprintln!("{line}"),
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

/// One file converted to an output that is an existing folder: with `--to`, the file goes
/// into the folder under its own name with the format's extension (as `cp FILE DIR` does);
/// without it the format is unknown, and the error says so and what to do. `None`: the
/// output is no folder.
pub fn output_in_folder(input: &Path, output: &Path, to: Option<To>) -> Result<Option<PathBuf>> {
    if files::is_stdio(output) || !output.is_dir() {
        return Ok(None);
    }
    let stem = super::stem(input);
    let stem = if stem.is_empty() { "model" } else { &stem };
    match to {
        Some(to) => Ok(Some(output.join(format!("{stem}.{}", to.extension())))),
        None => bail!(
            "the output {} is a folder: give --to FORMAT to write {stem}.FORMAT into it (e.g. --to mdl writes {}), or name the output file",
            output.display(),
            output.join(format!("{stem}.mdl")).display()
        ),
    }
}

/// Whether the file's first few kilobytes read as Milkshape.
pub fn is_milkshape(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(64 << 10).read_to_end(&mut head))
        .is_ok()
        && mdlx::Format::detect(&head) == mdlx::Format::Ms3d
}
