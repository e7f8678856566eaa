//! `mdlx edit INPUT OUTPUT OPERATION...`: a model, a folder of models, a map or a model in
//! a map, edited by the library's operations ([`mdlx::edit`]) in the order given.
//!
//! Every change is said on stderr (`hero.mdx: textures[0]: a -> b`). An operation that
//! cannot be done (a path too long for its field; a `--texture-rename` whose old path no
//! model has) is an error naming it, and nothing is written. A model the operations leave
//! as it was keeps its bytes.

use crate::cli::EditArgs;
use crate::{files, Ctx, Usage};
use anyhow::{bail, Context, Result};
use mdlx::edit::{Edit, PathEdit, Report};
use mdlx::Format;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// One model edited: its new bytes (its old ones when nothing changed) and the report.
struct Edited {
    bytes: Vec<u8>,
    report: Report,
    /// For each operation, whether it changed anything in this model.
    hit: Vec<bool>,
}

/// The format a model is written in: the output's extension, else the input's format.
fn format_for(output: &Path, data: &[u8]) -> Result<Format> {
    if files::has_ext(output, &["mdl"]) {
        Ok(Format::Mdl)
    } else if files::has_ext(output, &["mdx"]) {
        Ok(Format::Mdx)
    } else {
        match Format::detect(data) {
            f @ (Format::Mdx | Format::Mdl) => Ok(f),
            _ => Err(Usage(format!(
                "{}: give the output an .mdx or .mdl extension",
                output.display()
            ))
            .into()),
        }
    }
}

fn edit_one(ctx: &Ctx, input: &Path, output: &Path, ops: &[Edit]) -> Result<Edited> {
    let data = files::read(input)?;
    let format = format_for(output, &data)?;
    let loaded = mdlx::read(&data, &crate::input::read_options(ctx, input))
        .map_err(|e| anyhow::anyhow!("{}: {e}", files::shown(input)))?;
    let mut model = loaded.model;
    let mut report = Report::default();
    let mut hit = Vec::with_capacity(ops.len());
    for op in ops {
        let r = mdlx::edit::apply(&mut model, op);
        hit.push(!r.changed.is_empty());
        report.extend(r);
    }
    if let Some(why) = report.refused.first() {
        bail!("{}: {why} (nothing written)", files::shown(input));
    }
    let bytes = if report.changed.is_empty() && Format::detect(&data) == format {
        data
    } else {
        mdlx::write(&model, format, &mdlx::WriteOptions::default())
            .map_err(|e| anyhow::anyhow!("{}: {e}", files::shown(input)))?
            .bytes
    };
    Ok(Edited { bytes, report, hit })
}

/// A rename no model matched: the user named a path that is not there.
fn check_renames(ops: &[Edit], hit: &[bool], what: &str) -> Result<()> {
    for (op, hit) in ops.iter().zip(hit) {
        if let (Edit::Textures(PathEdit::Rename(pairs)), false) = (op, hit) {
            let old = pairs.first().map_or("", |p| p.0.as_str());
            bail!("--texture-rename {old}: no texture of {what} has that path (nothing written)");
        }
    }
    Ok(())
}

fn say(shown: &str, report: &Report) {
    for line in &report.changed {
        eprintln!("{shown}: {line}");
    }
}

/// `mdlx edit`.
pub(crate) fn run(ctx: &Ctx, args: &EditArgs, ops: &[Edit]) -> Result<ExitCode> {
    let input = args.input.as_path();
    if crate::archive::split(input).is_none() && crate::archive::is_archive(input) {
        return map(ctx, args, ops);
    }
    let pairs: Vec<(PathBuf, PathBuf)> = if input.is_dir() {
        let found = files::find(
            &[input.to_path_buf()],
            &["mdx", "mdl"],
            std::slice::from_ref(&args.output),
        )?;
        found
            .into_iter()
            .map(|f| {
                let rel = f.strip_prefix(input).unwrap_or(&f).to_path_buf();
                (f, args.output.join(rel))
            })
            .collect()
    } else {
        vec![(input.to_path_buf(), args.output.clone())]
    };
    let mut edited = Vec::with_capacity(pairs.len());
    let mut hit = vec![false; ops.len()];
    for (from, to) in &pairs {
        let e = edit_one(ctx, from, to, ops)?;
        for (h, e) in hit.iter_mut().zip(&e.hit) {
            *h |= e;
        }
        edited.push(e);
    }
    check_renames(ops, &hit, &files::shown(input))?;
    let mut changed = 0;
    for ((from, to), e) in pairs.iter().zip(&edited) {
        say(&files::shown(from), &e.report);
        changed += usize::from(!e.report.changed.is_empty());
        if !args.dry_run {
            if let Some(dir) = to.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot make {}", dir.display()))?;
            }
            files::write(to, &e.bytes, from)?;
        }
    }
    eprintln!(
        "{} model(s), {changed} changed{}",
        pairs.len(),
        if args.dry_run {
            " (dry run: nothing written)"
        } else {
            ""
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// Every model of a map edited and put back into a new map.
fn map(ctx: &Ctx, args: &EditArgs, ops: &[Edit]) -> Result<ExitCode> {
    let input = args.input.as_path();
    let archive = crate::archive::open(input)?;
    let members = crate::archive::members(input, &["mdx", "mdl"])?;
    let mut edits = mdlx::mpq::Edits::default();
    let mut hit = vec![false; ops.len()];
    let mut changed = Vec::new();
    for member in &members {
        let e = edit_one(ctx, member, member, ops)?;
        for (h, e) in hit.iter_mut().zip(&e.hit) {
            *h |= e;
        }
        if !e.report.changed.is_empty() {
            let (_, inner) = crate::archive::split(member).expect("a member");
            changed.push((files::shown(member), e.report));
            edits.put.push((inner, e.bytes));
        }
    }
    check_renames(ops, &hit, &files::shown(input))?;
    for (shown, report) in &changed {
        say(shown, report);
    }
    eprintln!(
        "{} model(s) in {}, {} changed{}",
        members.len(),
        input.display(),
        changed.len(),
        if args.dry_run {
            " (dry run: nothing written)"
        } else {
            ""
        }
    );
    if !args.dry_run {
        let done = archive
            .rewrite(&edits)
            .with_context(|| format!("{}", input.display()))?;
        files::write(&args.output, &done.bytes, input)?;
    }
    Ok(ExitCode::SUCCESS)
}
