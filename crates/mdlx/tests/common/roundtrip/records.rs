//! The record rows of the round-trip comparison: sequences, global sequences, materials
//! and textures, texture and geoset animations, check errors.

use super::geometry::Matching;
use super::{same_but_node, Row};
use mdlx::model::{Layer, Model};
use std::collections::BTreeMap;

fn close(a: f32, b: f32) -> bool {
    (f64::from(a) - f64::from(b)).abs() <= 1e-4 * f64::from(a.abs().max(1.0))
}

pub(crate) fn sequences_row(src: &Model, back: &Model) -> Row {
    let mut row = Row::default();
    if src.sequences.len() != back.sequences.len() {
        row.add(format!(
            "{} sequences -> {}",
            src.sequences.len(),
            back.sequences.len()
        ));
    }
    for (i, (a, b)) in src.sequences.iter().zip(&back.sequences).enumerate() {
        let what = format!("sequence {i} {:?}", a.name.text());
        if a.name.text_bytes() != b.name.text_bytes() {
            row.add(format!("{what} came back as {:?}", b.name.text()));
            continue;
        }
        if a.interval != b.interval {
            row.add(format!("{what}: {:?} -> {:?}", a.interval, b.interval));
        }
        if a.flags != b.flags {
            row.add(format!("{what}: flags {} -> {}", a.flags, b.flags));
        }
        if !close(a.rarity, b.rarity) || !close(a.move_speed, b.move_speed) {
            row.add(format!("{what}: rarity or move speed"));
        }
        let (e, f) = (&a.extent, &b.extent);
        let extent_same = close(e.radius, f.radius)
            && (0..3).all(|k| close(e.min[k], f.min[k]) && close(e.max[k], f.max[k]));
        if !extent_same {
            row.add(format!("{what}: extent"));
        }
    }
    row
}

pub(crate) fn globals_row(src: &Model, back: &Model) -> Row {
    let mut row = Row::default();
    if src.global_sequences != back.global_sequences {
        row.add(format!(
            "{:?} -> {:?}",
            src.global_sequences, back.global_sequences
        ));
    }
    row
}

/// A texture as (path, replaceable id), or None for an id that names none.
fn texture(m: &Model, id: i32) -> Option<(String, u32)> {
    let t = m.textures.get(usize::try_from(id).ok()?)?;
    Some((t.path.text().into_owned(), t.replaceable_id))
}

/// The layer with its texture ids replaced by nothing, and its textures.
fn layer_parts(m: &Model, l: &Layer) -> (Layer, Vec<Option<(String, u32)>>) {
    let mut plain = l.clone();
    let mut textures = vec![texture(m, l.texture_id)];
    plain.texture_id = -1;
    for s in &mut plain.texture_slots {
        textures.push(texture(m, s.texture_id));
        s.texture_id = -1;
    }
    (plain, textures)
}

pub(crate) fn materials_row(src: &Model, back: &Model) -> Row {
    let mut row = Row::default();
    if src.materials.len() != back.materials.len() {
        row.add(format!(
            "{} materials -> {}",
            src.materials.len(),
            back.materials.len()
        ));
    }
    for (i, (a, b)) in src.materials.iter().zip(&back.materials).enumerate() {
        let head = (a.priority_plane, a.flags, a.shader.text_bytes());
        if head != (b.priority_plane, b.flags, b.shader.text_bytes()) {
            row.add(format!("material {i}: priority, flags or shader"));
        }
        if a.layers.len() != b.layers.len() {
            row.add(format!(
                "material {i}: {} layers -> {}",
                a.layers.len(),
                b.layers.len()
            ));
        }
        for (k, (la, lb)) in a.layers.iter().zip(&b.layers).enumerate() {
            let (pa, ta) = layer_parts(src, la);
            let (pb, tb) = layer_parts(back, lb);
            if ta != tb {
                row.add(format!("material {i} layer {k}: textures {ta:?} -> {tb:?}"));
            } else if pa != pb {
                row.add(format!("material {i} layer {k}: its fields differ"));
            }
        }
    }
    let list = |m: &Model| {
        let mut v: Vec<(String, u32)> = m
            .textures
            .iter()
            .map(|t| (t.path.text().into_owned(), t.replaceable_id))
            .collect();
        v.sort();
        v
    };
    let (la, lb) = (list(src), list(back));
    if la != lb {
        let lost: Vec<_> = la.iter().filter(|t| !lb.contains(t)).take(3).collect();
        row.add(format!(
            "textures {} -> {} (lost {lost:?})",
            la.len(),
            lb.len()
        ));
    }
    row
}

pub(crate) fn texture_anims_row(src: &Model, back: &Model) -> Row {
    let mut row = Row::default();
    if src.texture_animations != back.texture_animations {
        row.add(format!(
            "{} texture animations -> {} (or their tracks differ)",
            src.texture_animations.len(),
            back.texture_animations.len()
        ));
    }
    row
}

/// Geoset animations: one for the same source geoset (through the vertex matching), equal
/// but for the geoset id.
pub(crate) fn geoset_anims_row(src: &Model, back: &Model, m: &Matching) -> Row {
    let mut row = Row::default();
    if src.geoset_animations.len() != back.geoset_animations.len() {
        row.add(format!(
            "{} geoset animations -> {}",
            src.geoset_animations.len(),
            back.geoset_animations.len()
        ));
    }
    // The back geoset animations by the source geoset they animate; each matched once.
    let mut by_src: BTreeMap<usize, Vec<&mdlx::model::GeosetAnimation>> = BTreeMap::new();
    for ga in &back.geoset_animations {
        let g = usize::try_from(ga.geoset_id).ok();
        if let Some(s) = g.and_then(|g| m.geoset_of.get(g).copied().flatten()) {
            by_src.entry(s).or_default().push(ga);
        }
    }
    for (i, ga) in src.geoset_animations.iter().enumerate() {
        let Some(g) = usize::try_from(ga.geoset_id).ok() else {
            continue;
        };
        if !m.exported.contains(&g) {
            continue;
        }
        let list = by_src.entry(g).or_default();
        match list
            .iter()
            .position(|b| same_but_node(ga, *b, |r| r.geoset_id = 0))
        {
            Some(k) => {
                list.remove(k);
            }
            None if list.is_empty() => {
                row.add(format!("geoset animation {i} (geoset {g}) missing"))
            }
            None => row.add(format!("geoset animation {i} (geoset {g}) differs")),
        }
    }
    row
}

/// Error counts by rule.
fn errors(m: &Model) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for f in mdlx::check::check(m) {
        if f.severity() == mdlx::check::Severity::Error {
            *out.entry(f.rule.id).or_default() += 1;
        }
    }
    out
}

pub(crate) fn check_row(src: &Model, back: &Model) -> Row {
    let mut row = Row::default();
    let before = errors(src);
    for (rule, n) in errors(back) {
        let had = before.get(rule).copied().unwrap_or(0);
        if n > had {
            row.add(format!("{} new {rule}", n - had));
        }
    }
    row
}
