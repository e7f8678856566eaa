//! `mdlx info FILE... [--json]`: version and family, counts, sequences, textures.
//!
//! Several files are shown in the order given, separated by a blank line (text) or one
//! JSON object per line. A file that cannot be read is reported (on stderr, and as an
//! object with an `error` in JSON) and the others are still shown; the exit status is 1 if
//! any failed.

use crate::files;
use crate::report::{f32_json, f32s_json, Note};
use crate::Ctx;
use anyhow::Result;
use mdlx::Model;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Runs the verb.
pub fn run(ctx: &Ctx, paths: &[PathBuf], as_json: bool) -> Result<ExitCode> {
    let mut failed = 0;
    for (i, file) in paths.iter().enumerate() {
        let shown = files::shown(file);
        match describe(ctx, file, as_json, i > 0) {
            Ok(()) => {}
            Err(e) if paths.len() == 1 => return Err(e),
            Err(e) => {
                if crate::is_broken_pipe(&e) {
                    return Err(e);
                }
                failed += 1;
                eprintln!("mdlx: error: {e:#}");
                if as_json {
                    let v = json!({"file": shown, "error": format!("{e:#}")});
                    writeln!(std::io::stdout().lock(), "{v}")?;
                }
            }
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Shows one file.
fn describe(ctx: &Ctx, file: &Path, as_json: bool, blank_first: bool) -> Result<()> {
    let shown = files::shown(file);
    let data = files::read(file)?;
    if super::texture::is_texture(&data) {
        if blank_first && !as_json {
            writeln!(std::io::stdout().lock())?;
        }
        return super::texture::info(&mut std::io::stdout().lock(), &data, file, as_json);
    }
    let d = super::decode(&data, file, &super::read_options(ctx, file))?;
    ctx.print_notes(&shown, &d.notes);
    let mut out = std::io::stdout().lock();
    if as_json {
        let mut v = to_json(&d.model, &shown);
        // The file's own version and family; a converted input (WoW alpha, Milkshape) is
        // described by the model it became under `model_version`.
        // glTF has no version or family of its own here, and is always converted.
        v["format"] = json!(d.source.short_name());
        v["version"] = json!(d.source.version());
        v["family"] = json!(d.source.family().map(|f| f.name()));
        v["model_version"] = json!(d.model.version);
        v["converted"] = json!(d.source.is_converted());
        v["source"] = json!(d.described);
        v["notes"] = d.notes.iter().map(Note::to_json).collect();
        writeln!(out, "{v}")?;
    } else {
        if blank_first {
            writeln!(out)?;
        }
        write_text(&mut out, &d.model, &shown, &d.described)?;
    }
    Ok(())
}

fn to_json(m: &Model, file: &str) -> serde_json::Value {
    let counts: serde_json::Map<String, serde_json::Value> = m
        .counts()
        .entries
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    json!({
        "file": file,
        "format": "mdx",
        "version": m.version,
        "family": m.family().name(),
        "name": m.info.name.text(),
        "counts": counts,
        "sequences": m.sequences.iter().map(|s| json!({
            "name": s.name.text(),
            "start": s.interval[0],
            "end": s.interval[1],
            "looping": s.flags & mdlx::model::SEQUENCE_NON_LOOPING == 0,
            "move_speed": f32_json(s.move_speed),
            "rarity": f32_json(s.rarity),
            "extent": {
                "radius": f32_json(s.extent.radius),
                "min": f32s_json(&s.extent.min),
                "max": f32s_json(&s.extent.max),
            },
        })).collect::<Vec<_>>(),
        "global_sequences": m.global_sequences,
        "textures": m.textures.iter().map(|t| json!({
            "path": t.path.text(),
            "replaceable_id": t.replaceable_id,
        })).collect::<Vec<_>>(),
        "unknown_chunks": unknown_by_tag(m)
            .into_iter()
            .map(|(tag, n)| (tag, json!(n)))
            .collect::<serde_json::Map<_, _>>(),
        "opaque_bytes": m.opaque_bytes(),
    })
}

fn write_text(out: &mut impl Write, m: &Model, file: &str, source: &str) -> std::io::Result<()> {
    writeln!(out, "{file}")?;
    writeln!(out, "  format   {source}")?;
    writeln!(out, "  name     {}", m.info.name.text())?;
    writeln!(out, "counts")?;
    for (name, n) in m.counts().entries.iter().filter(|(_, n)| *n > 0) {
        writeln!(out, "  {name:<20} {n}")?;
    }
    if !m.sequences.is_empty() {
        writeln!(out, "sequences")?;
        for (i, s) in m.sequences.iter().enumerate() {
            let looping = if s.flags & mdlx::model::SEQUENCE_NON_LOOPING != 0 {
                "  non-looping"
            } else {
                ""
            };
            writeln!(
                out,
                "  {i:>3}  {:<28} {:>7} .. {:<7}{looping}",
                s.name.text(),
                s.interval[0],
                s.interval[1]
            )?;
        }
    }
    if !m.global_sequences.is_empty() {
        writeln!(out, "global sequences")?;
        for (i, d) in m.global_sequences.iter().enumerate() {
            writeln!(out, "  {i:>3}  {d} ms")?;
        }
    }
    if !m.textures.is_empty() {
        writeln!(out, "textures")?;
        for (i, t) in m.textures.iter().enumerate() {
            match t.replaceable_id {
                0 => writeln!(out, "  {i:>3}  {}", t.path.text())?,
                id => writeln!(out, "  {i:>3}  (replaceable id {id}) {}", t.path.text())?,
            }
        }
    }
    if !m.unknown_chunks.is_empty() {
        let tags: Vec<String> = unknown_by_tag(m)
            .into_iter()
            .map(|(tag, n)| if n == 1 { tag } else { format!("{tag} x{n}") })
            .collect();
        writeln!(out, "kept unknown chunks: {}", tags.join(", "))?;
    }
    Ok(())
}

/// The unknown chunks kept, counted by tag (a file may hold thousands of one kind).
fn unknown_by_tag(m: &Model) -> std::collections::BTreeMap<String, usize> {
    let mut by_tag: std::collections::BTreeMap<mdlx::model::Tag, usize> = Default::default();
    for u in &m.unknown_chunks {
        *by_tag.entry(u.tag).or_default() += 1;
    }
    by_tag.into_iter().map(|(t, n)| (t.text(), n)).collect()
}
