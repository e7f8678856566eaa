//! `mdlx convert IN OUT`: one file, or every model under a folder.
//!
//! The input format is told by the content. The output format is `--to`, or else OUT's
//! extension. Every output is written beside its target and renamed into place, so a
//! target is either its old self or the whole new file; an input is never written over.
//!
//! A folder conversion (`mdlx convert DIR OUTDIR --to mdl`) mirrors DIR's tree under
//! OUTDIR, converts files in parallel, shows a progress bar when stderr is a terminal,
//! goes on past files that fail, lists every failure at the end and exits 1 if any failed.

use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    /// Binary MDX.
    Mdx,
    /// MDL text.
    Mdl,
    /// Wavefront OBJ of the posed, skinned, visible mesh.
    Obj,
    /// Milkshape 3D ASCII (`.txt`).
    Ms3d,
    /// A WoW alpha-family MDX of this version (1300, 1400 or 1500).
    Alpha(u32),
}

impl To {
    /// The format named on the command line (`--to`).
    pub fn parse(name: &str) -> Result<To> {
        match name.to_ascii_lowercase().as_str() {
            "mdx" => Ok(To::Mdx),
            "mdl" => Ok(To::Mdl),
            "obj" => Ok(To::Obj),
            "ms3d" | "txt" => Ok(To::Ms3d),
            "alpha1300" => Ok(To::Alpha(1300)),
            "alpha1400" => Ok(To::Alpha(1400)),
            "alpha1500" => Ok(To::Alpha(1500)),
            _ => bail!(
                "unknown output format {name:?} (supported: mdx, mdl, obj, ms3d, alpha1300, alpha1400, alpha1500)"
            ),
        }
    }

    /// The format an output path's extension names.
    fn from_path(path: &Path) -> Result<To> {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("mdx") => Ok(To::Mdx),
            Some(e) if e.eq_ignore_ascii_case("mdl") => Ok(To::Mdl),
            Some(e) if e.eq_ignore_ascii_case("obj") => Ok(To::Obj),
            Some(e) if e.eq_ignore_ascii_case("txt") => Ok(To::Ms3d),
            _ => bail!(
                "{}: unsupported output format (supported: .mdx, .mdl, .obj, .txt for Milkshape, or name one with --to)",
                path.display()
            ),
        }
    }

    fn extension(self) -> &'static str {
        match self {
            To::Mdx => "mdx",
            To::Mdl => "mdl",
            To::Obj => "obj",
            To::Ms3d => "txt",
            To::Alpha(_) => "mdx",
        }
    }
}

/// How to write: MDL strictness, and the moment an OBJ shows.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Write only standard MDL (no `MdlxExtension` block).
    pub strict_mdl: bool,
    /// With `strict_mdl`: write anyway, listing what was lost.
    pub allow_lossy: bool,
    /// OBJ: the sequence and time to pose; Milkshape output: the one sequence to write.
    pub moment: super::pose::Moment,
    /// Milkshape: frames per second, and (input) the frame ranges that become sequences.
    pub fps: f32,
    /// Milkshape input: `Name=first-last[!]` ranges, as given on the command line.
    pub ranges: Option<String>,
}

/// Runs the verb.
pub fn run(input: &Path, output: &Path, to: Option<&str>, opts: Options) -> Result<ExitCode> {
    let to = to.map(To::parse).transpose()?;
    if !(opts.fps.is_finite() && opts.fps > 0.0) {
        bail!("--fps must be a positive number of frames per second");
    }
    if input.is_dir() {
        let Some(to) = to else {
            bail!("converting a folder needs --to FORMAT (mdx, mdl, obj or ms3d)");
        };
        return run_dir(input, output, to, &opts);
    }
    let to = match to {
        Some(t) => t,
        None => To::from_path(output)?,
    };
    for note in convert_file(input, output, to, &opts)? {
        eprintln!("{note}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Converts one file; returns the notes to show (losses written anyway).
fn convert_file(input: &Path, output: &Path, to: To, opts: &Options) -> Result<Vec<String>> {
    let data = crate::files::read(input)?;
    let rate = mdlx::convert::ms3d::FrameRate { fps: opts.fps };
    if to == To::Ms3d && mdlx::Format::detect(&data) == mdlx::Format::Ms3d {
        // Milkshape to Milkshape: the document as read, in the strict form.
        let doc = super::read_ms3d(&data, input)?;
        let bytes = mdlx::ms3d::to_vec(&doc).map_err(|e| anyhow::anyhow!("{e}"))?;
        crate::files::write_atomic(output, &bytes, input)?;
        return Ok(Vec::new());
    }
    let ranges = match &opts.ranges {
        Some(text) => mdlx::convert::ms3d::FrameRange::parse_list(text)
            .map_err(|e| anyhow::anyhow!("--frames: {e}"))?,
        None => Vec::new(),
    };
    let ms3d_in = mdlx::convert::ms3d::ToModelOptions {
        rate,
        ranges,
        name: String::new(),
    };
    let super::Decoded {
        model, mut notes, ..
    } = super::decode_detailed(&data, input, &ms3d_in)?;
    let bytes = match to {
        To::Ms3d => {
            let sequence = opts
                .moment
                .sequence
                .as_deref()
                .map(|s| super::pose::find_sequence(&model, s))
                .transpose()?;
            let (doc, losses) = mdlx::convert::ms3d::to_ms3d(
                &model,
                &mdlx::convert::ms3d::ToMs3dOptions { rate, sequence },
            );
            notes.extend(
                losses
                    .iter()
                    .map(|l| format!("mdlx: {}: Milkshape cannot hold: {l}", input.display())),
            );
            mdlx::ms3d::to_vec(&doc).map_err(|e| anyhow::anyhow!("{}: {e}", input.display()))?
        }
        To::Mdx => mdlx::mdx::to_bytes(&model)?,
        To::Alpha(version) => {
            let (alpha, losses) = mdlx::alpha::AlphaModel::from_model(&model, version);
            notes.extend(losses.iter().map(|l| {
                format!(
                    "mdlx: {}: the WoW alpha family cannot hold: {l}",
                    input.display()
                )
            }));
            mdlx::alpha::to_bytes(&alpha)?
        }
        To::Mdl => {
            let written = mdlx::mdl::write(
                &model,
                mdlx::mdl::WriteOptions {
                    strict: opts.strict_mdl,
                },
            );
            let losses: Vec<String> = written
                .losses
                .iter()
                .map(|l| {
                    format!(
                        "{}: standard MDL cannot hold {}: {}",
                        input.display(),
                        l.what,
                        l.detail
                    )
                })
                .collect();
            if !losses.is_empty() && !opts.allow_lossy {
                bail!(
                    "{}\n{} thing(s) would be lost in strictly standard MDL; nothing written (use --allow-lossy to write anyway, or drop --strict-mdl to keep them in an MdlxExtension block)",
                    losses.join("\n"),
                    losses.len()
                );
            }
            notes.extend(losses.into_iter().map(|l| format!("mdlx: {l}")));
            written.text
        }
        To::Obj => {
            let posed = super::pose::pose_model(&model, &opts.moment)?;
            let title = format!("{}: {}", input.display(), posed.title);
            let (text, report) = mdlx::obj::write(&model, &posed.geosets, &title);
            if report.geosets_hidden > 0 {
                notes.push(format!(
                    "mdlx: {}: {} geoset(s) hidden at this moment, not written",
                    input.display(),
                    report.geosets_hidden
                ));
            }
            if report.groups_skipped + report.faces_skipped > 0 {
                notes.push(format!(
                    "mdlx: {}: skipped {} face group(s) of unsupported primitive types and {} face(s) naming missing vertices",
                    input.display(),
                    report.groups_skipped,
                    report.faces_skipped
                ));
            }
            if posed.pose.billboards_ignored > 0 {
                notes.push(format!(
                    "mdlx: {}: {} billboarded node(s) left unturned (give --view X,Y,Z)",
                    input.display(),
                    posed.pose.billboards_ignored
                ));
            }
            text.into_bytes()
        }
    };
    crate::files::write_atomic(output, &bytes, input)?;
    Ok(notes)
}

/// Converts every model under `dir` into the same tree under `out_dir`.
fn run_dir(dir: &Path, out_dir: &Path, to: To, opts: &Options) -> Result<ExitCode> {
    let mut inputs = crate::files::find(&[dir.to_path_buf()], &["mdx", "mdl", "txt"])?;
    // A .txt file takes part only if it is Milkshape.
    inputs.retain(|p| !crate::files::has_ext(p, &["txt"]) || is_milkshape(p));
    if inputs.is_empty() {
        bail!(
            "no .mdx, .mdl or Milkshape .txt files under {}",
            dir.display()
        );
    }
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;

    // Plan every target first, so two inputs that would land on one output (a.mdx and
    // a.mdl converted to MDL) are caught before anything is written.
    let mut first_claim: HashMap<PathBuf, &Path> = HashMap::new();
    let mut jobs: Vec<(&Path, PathBuf, Option<String>)> = Vec::with_capacity(inputs.len());
    for input in &inputs {
        let rel = input.strip_prefix(dir).unwrap_or(input);
        let target = out_dir.join(rel).with_extension(to.extension());
        let clash = match first_claim.get(&target) {
            Some(first) => Some(format!(
                "would write {} which {} also converts to; skipped",
                target.display(),
                first.display()
            )),
            None => {
                first_claim.insert(target.clone(), input);
                None
            }
        };
        jobs.push((input, target, clash));
    }

    let bar = Progress::new(jobs.len());
    let failures: Mutex<Vec<(PathBuf, String)>> = Mutex::new(Vec::new());
    jobs.par_iter().for_each(|(input, target, clash)| {
        let result = match clash {
            Some(msg) => Err(anyhow::anyhow!("{msg}")),
            None => target
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .with_context(|| format!("cannot create the folder of {}", target.display()))
                .and_then(|()| convert_file(input, target, to, opts)),
        };
        match result {
            Ok(notes) => {
                for n in notes {
                    bar.println(&n);
                }
            }
            Err(e) => {
                bar.println(&format!("mdlx: failed: {}", input.display()));
                failures
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push((input.to_path_buf(), format!("{e:#}")));
            }
        }
        bar.inc();
    });
    bar.finish();

    let mut failures = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    failures.sort();
    let done = jobs.len() - failures.len();
    eprintln!(
        "mdlx: converted {done} of {} file(s) to {} under {}",
        jobs.len(),
        to.extension(),
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
fn is_milkshape(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(64 << 10).read_to_end(&mut head))
        .is_ok()
        && mdlx::Format::detect(&head) == mdlx::Format::Ms3d
}
