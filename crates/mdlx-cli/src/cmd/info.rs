//! `mdlx info FILE... [--json]`: version and family, counts, sequences, textures, lights
//! and cameras (with the fields of their version only).
//!
//! Several files are shown in the order given, separated by a blank line (text) or one
//! JSON object per line. A file that cannot be read is reported (on stderr, and as an
//! object with an `error` in JSON) and the others are still shown; the exit status is 1 if
//! any failed.

use crate::files;
use crate::report::{f32_json, f32s_json, Note};
use crate::Ctx;
use anyhow::Result;
use mdlx::model::Light;
use mdlx::spec::version as ver;
use mdlx::Model;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Runs the verb. A folder stands for every model and texture under it, as `check` and
/// `convert` walk folders.
pub(crate) fn run(ctx: &Ctx, paths: &[PathBuf], as_json: bool) -> Result<ExitCode> {
    let walked = expand_folders(paths)?;
    let paths = walked.as_slice();
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

/// The files `paths` stand for: a file as given, a folder as every model (MDX, MDL,
/// Milkshape `.txt`, glTF) and texture (BLP, DDS, TGA, PNG) under it, sorted. A folder
/// with none of these is an error that says what was looked for.
fn expand_folders(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    const EXTS: &[&str] = &[
        "mdx", "mdl", "txt", "glb", "gltf", "blp", "dds", "tga", "png",
    ];
    let mut out = Vec::new();
    for p in paths {
        if !files::is_container(p) {
            out.push(p.clone());
            continue;
        }
        let mut found = files::find(std::slice::from_ref(p), EXTS, &[])?;
        found.retain(|f| !files::has_ext(f, &["txt"]) || files::is_milkshape(f));
        if found.is_empty() {
            anyhow::bail!(
                "no models or textures (.mdx, .mdl, Milkshape .txt, .glb, .gltf, .blp, .dds, .tga, .png) under the folder {}",
                p.display()
            );
        }
        out.extend(found);
    }
    Ok(out)
}

/// The name of a texture's replaceable id: what the game puts there (team colour, a
/// tileset's trees or cliff), as Warcraft III readers map the ids to
/// `ReplaceableTextures` folders; the ids are those the check module's
/// unknown-replaceable-id rule accepts (1, 2, 11, 21, 31 to 37).
pub(crate) fn replaceable_name(id: u32) -> Option<&'static str> {
    Some(match id {
        1 => "Team Color",
        2 => "Team Glow",
        11 => "Cliff",
        21 => "Cursor",
        31 => "Lordaeron Tree",
        32 => "Ashenvale Tree",
        33 => "Barrens Tree",
        34 => "Northrend Tree",
        35 => "Mushroom Tree",
        36 => "Ruins Tree",
        37 => "Outland Mushroom Tree",
        _ => return None,
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
        "lights": m.lights.iter().map(|l| light_json(m.version, l)).collect::<Vec<_>>(),
        "cameras": m.cameras.iter().map(|c| json!({
            "name": c.name.text(),
            "field_of_view": f32_json(c.field_of_view),
            "near_clip": f32_json(c.near_clip),
            "far_clip": f32_json(c.far_clip),
            "layout": c.layout_for(m.version),
            "animated": tags(&c.tracks),
        })).collect::<Vec<_>>(),
        "unknown_chunks": unknown_by_tag(m)
            .into_iter()
            .map(|(tag, n)| (tag, json!(n)))
            .collect::<serde_json::Map<_, _>>(),
        "opaque_bytes": m.opaque_bytes(),
    })
}

/// The light's type as its MDL word, in lower case.
fn light_type(l: &Light) -> String {
    mdlx::model::light_type::NAMES
        .get(l.light_type as usize)
        .map_or_else(|| format!("type {}", l.light_type), |t| t.to_lowercase())
}

/// The tags of a record's tracks, in file order.
fn tags(t: &mdlx::model::Tracks) -> Vec<String> {
    t.iter().map(|a| a.tag.text()).collect()
}

/// A light, with the fields of its version only.
fn light_json(version: u32, l: &Light) -> serde_json::Value {
    let mut j = json!({
        "name": l.node.name.text(),
        "type": light_type(l),
        "attenuation": [f32_json(l.attenuation_start), f32_json(l.attenuation_end)],
        "color": f32s_json(&[l.color[2], l.color[1], l.color[0]]),
        "intensity": f32_json(l.intensity),
        "ambient_color": f32s_json(&[l.ambient_color[2], l.ambient_color[1], l.ambient_color[0]]),
        "ambient_intensity": f32_json(l.ambient_intensity),
        "animated": tags(&l.tracks),
    });
    if version >= ver::LIGHT_SHADOW {
        j["shadow_intensity"] = f32_json(l.shadow_intensity);
    }
    if version >= ver::LIGHT_SHADOW_CASTING {
        j["shadow_casting"] = json!(l.shadow_casting);
        j["shadow_range"] = json!([f32_json(l.shadow_start), f32_json(l.shadow_end)]);
    }
    if version >= ver::LIGHT_FALLOFF {
        j["falloff"] = json!({
            "quadratic": f32_json(l.quadratic_falloff),
            "linear": f32_json(l.linear_falloff),
            "damping": f32_json(l.damping),
        });
    }
    j
}

/// A light on one line: the fields of its version only (colors red first).
fn light_line(version: u32, l: &Light) -> String {
    let mut s = format!(
        "{:<24} {:<15} intensity {}, attenuation {}..{}",
        l.node.name.text(),
        light_type(l),
        l.intensity,
        l.attenuation_start,
        l.attenuation_end
    );
    if version >= ver::LIGHT_SHADOW {
        s += &format!(", shadow intensity {}", l.shadow_intensity);
    }
    if version >= ver::LIGHT_SHADOW_CASTING {
        match l.shadow_casting {
            0 => s += ", casts no shadow",
            1 => s += ", casts shadows",
            n => s += &format!(", shadow casting {n}"),
        }
        s += &format!(" ({}..{})", l.shadow_start, l.shadow_end);
    }
    if version >= ver::LIGHT_FALLOFF {
        s += &format!(
            ", falloff quadratic {} linear {} damping {}",
            l.quadratic_falloff, l.linear_falloff, l.damping
        );
    }
    let t = tags(&l.tracks);
    if !t.is_empty() {
        s += &format!(", animated {}", t.join(" "));
    }
    s
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
                id => match replaceable_name(id) {
                    Some(name) => writeln!(
                        out,
                        "  {i:>3}  ({name}, replaceable id {id}) {}",
                        t.path.text()
                    )?,
                    None => writeln!(
                        out,
                        "  {i:>3}  (replaceable id {id}, none the game fills) {}",
                        t.path.text()
                    )?,
                },
            }
        }
    }
    if !m.lights.is_empty() {
        writeln!(out, "lights")?;
        for (i, l) in m.lights.iter().enumerate() {
            writeln!(out, "  {i:>3}  {}", light_line(m.version, l))?;
        }
    }
    if !m.cameras.is_empty() {
        writeln!(out, "cameras")?;
        for (i, c) in m.cameras.iter().enumerate() {
            let t = tags(&c.tracks);
            let animated = if t.is_empty() {
                String::new()
            } else {
                format!(", animated {}", t.join(" "))
            };
            let layout = match c.layout {
                Some(n) => format!(", layout {n}"),
                None => String::new(),
            };
            writeln!(
                out,
                "  {i:>3}  {:<24} field of view {}, clip {}..{}{layout}{animated}",
                c.name.text(),
                c.field_of_view,
                c.near_clip,
                c.far_clip
            )?;
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
