//! `mdlx info FILE [--json]`: version and family, counts, sequences, textures.

use anyhow::Result;
use mdlx::Model;
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Runs the verb.
pub fn run(file: &Path, as_json: bool) -> Result<ExitCode> {
    let data = crate::files::read(file)?;
    let d = super::decode_detailed(&data, file, &Default::default())?;
    for n in &d.notes {
        eprintln!("{n}");
    }
    let mut out = std::io::stdout().lock();
    if as_json {
        let mut v = to_json(&d.model, file);
        v["format"] = json!(d.format);
        v["source"] = json!(d.source);
        serde_json::to_writer_pretty(&mut out, &v)?;
        writeln!(out)?;
    } else {
        write_text(&mut out, &d.model, file, &d.source)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn to_json(m: &Model, file: &Path) -> serde_json::Value {
    let counts: serde_json::Map<String, serde_json::Value> = m
        .counts()
        .entries
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    json!({
        "file": file.display().to_string(),
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
            "move_speed": s.move_speed,
            "rarity": s.rarity,
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

fn write_text(out: &mut impl Write, m: &Model, file: &Path, source: &str) -> std::io::Result<()> {
    writeln!(out, "{}", file.display())?;
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
