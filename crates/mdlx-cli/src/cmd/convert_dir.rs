//! `mdlx convert DIR OUTDIR --to FORMAT`: every input under a folder.
//!
//! DIR's tree is mirrored under OUTDIR; files convert in parallel, with a progress bar when
//! stderr is a terminal; files that fail are listed at the end (exit 1 if any did). Every
//! target is planned before anything is written, so two inputs that would make one output
//! (`X.mdx` beside `X.mdl`) are settled first: one converts, the other is skipped.

use super::convert::{convert_file, outcome_json, Options, To};
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
                    (Status::Skipped, v)
                }
                Plan::Convert(target) => {
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
                            (Status::Converted, v)
                        }
                        Err(e) => {
                            bar.println(&format!("mdlx: failed: {shown}"));
                            (Status::Failed(format!("{e:#}")), v)
                        }
                    }
                }
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
    let skipped = outcomes
        .iter()
        .filter(|(s, _)| matches!(s, Status::Skipped))
        .count();
    let failures: Vec<(&Path, &str)> = jobs
        .iter()
        .zip(&outcomes)
        .filter_map(|((input, _), (s, _))| match s {
            Status::Failed(e) => Some((*input, e.as_str())),
            _ => None,
        })
        .collect();
    let done = jobs.len() - failures.len() - skipped;
    let skipped_text = if skipped > 0 {
        format!(", {skipped} skipped")
    } else {
        String::new()
    };
    eprintln!(
        "mdlx: converted {done} of {} file(s) to {} under {}{skipped_text}",
        jobs.len(),
        to.name(),
        out_dir.display()
    );
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
    Converted,
    Skipped,
    Failed(String),
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

/// Whether the file's first few kilobytes read as Milkshape.
pub fn is_milkshape(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(64 << 10).read_to_end(&mut head))
        .is_ok()
        && mdlx::Format::detect(&head) == mdlx::Format::Ms3d
}
