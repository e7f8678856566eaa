//! `mdlx convert IN OUT`: one file, or every model under a folder.
//!
//! The input format is told by the content. The output format is `--to`, or else OUT's
//! extension, both looked up in the library's table ([`mdlx::formats`]). Every output is
//! written beside its target and renamed into place, so a target is either its old self
//! or the whole new file; an input is never written over.
//!
//! One file is [`super::convert_file`]; a folder (`mdlx convert DIR OUTDIR --to mdl`) is
//! [`super::convert_dir`], which converts each of its files the same way.

use super::convert_file::{convert_file, outcome_json, Options, To};
use crate::files;
use crate::{usage, Ctx};
use anyhow::{bail, Result};
use mdlx::formats::{self, FORMATS};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The format named on the command line (`--to`).
fn parse(name: &str) -> Result<To> {
    match formats::by_name(name) {
        Some(to) if to.write => Ok(to),
        _ => bail!(
            "unknown output format {name:?} (supported: {})",
            crate::cli::format_names().join(", ")
        ),
    }
}

/// The format an output path's extension names.
fn from_path(path: &Path) -> Result<To> {
    if let Some(to) = formats::for_path(path) {
        return Ok(to);
    }
    let mut models = Vec::new();
    let mut textures = Vec::new();
    let mut seen = Vec::new();
    for f in FORMATS.iter().filter(|f| f.write) {
        let ext = f.extensions[0];
        // The first row of an extension is the one its files are written as.
        if seen.contains(&ext) {
            continue;
        }
        seen.push(ext);
        let phrase = if f.name == ext {
            format!(".{ext}")
        } else {
            format!(".{ext} for {}", f.noun)
        };
        let list = if super::convert_file::is_texture(f) {
            &mut textures
        } else {
            &mut models
        };
        list.push(phrase);
    }
    bail!(
        "{}: unsupported output format (supported: {}, {} for textures, or name one with --to)",
        path.display(),
        models.join(", "),
        formats::or_list(&textures)
    )
}

/// Runs the verb.
pub(crate) fn run(
    ctx: &Ctx,
    input: &Path,
    output: &Path,
    to: Option<&str>,
    opts: &Options,
) -> Result<ExitCode> {
    let to = to
        .map(parse)
        .transpose()
        .map_err(|e| usage(e.to_string()))?;
    if opts.json && files::is_stdio(output) {
        return Err(usage(
            "--json and the output `-` would both use standard output; name an output file",
        ));
    }
    if files::is_container(input) {
        let Some(to) = to else {
            return Err(usage(format!(
                "converting a folder needs --to FORMAT ({})",
                crate::cli::format_names().join(", ")
            )));
        };
        if files::is_stdio(output) {
            return Err(usage(
                "a folder converts into a folder, not to standard output",
            ));
        }
        let opts = Options {
            in_folder: true,
            ..opts.clone()
        };
        return super::convert_dir::run_dir(ctx, input, output, to, &opts);
    }
    let into_folder;
    let output = match output_in_folder(input, output, to) {
        Ok(Some(inside)) => {
            into_folder = inside;
            into_folder.as_path()
        }
        Ok(None) => output,
        Err(e) => return Err(usage(e.to_string())),
    };
    let to = match to {
        Some(t) => t,
        None if files::is_stdio(output) => {
            return Err(usage("writing to standard output (`-`) needs --to FORMAT"))
        }
        None => from_path(output).map_err(|e| usage(e.to_string()))?,
    };
    let result = convert_file(ctx, input, output, to, opts);
    let shown_in = files::shown(input);
    if opts.json {
        let v = outcome_json(input, output, to, &result);
        println!("{v}");
    }
    match result {
        Ok(done) => {
            ctx.print_notes(&shown_in, &done.notes);
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(e),
    }
}

/// One file converted to an output that is an existing folder: with `--to`, the file goes
/// into the folder under its own name with the format's extension (as `cp FILE DIR` does);
/// without it the format is unknown, and the error says so and what to do. `None`: the
/// output is no folder.
fn output_in_folder(input: &Path, output: &Path, to: Option<To>) -> Result<Option<PathBuf>> {
    if files::is_stdio(output) || !output.is_dir() {
        return Ok(None);
    }
    let stem = super::stem(input);
    let stem = if stem.is_empty() { "model" } else { &stem };
    match to {
        Some(to) => Ok(Some(output.join(format!("{stem}.{}", to.extensions[0])))),
        None => bail!(
            "the output {} is a folder: give --to FORMAT to write {stem}.FORMAT into it (e.g. --to mdl writes {}), or name the output file",
            output.display(),
            output.join(format!("{stem}.mdl")).display()
        ),
    }
}
