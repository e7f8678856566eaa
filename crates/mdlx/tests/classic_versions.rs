//! The conversion for the classic client (`convert::to_classic`, what `mdlx convert
//! --version 800` runs on a 900+ model) over the corpus:
//!
//! - **A classic model taken to a Reforged version and back is itself.** Every corpus MDX
//!   of version 800 taken to 1800 (`Model::to_version`) and down by `to_classic` gives the
//!   original bytes; every 1100 MDX taken to 1800 and back to 1100 too (the CLI's other
//!   path). Among them models whose textures are TGA files (`R1_wall4.mdx` names
//!   `Ruins1.tga`, which its map ships): a TGA is a texture the classic client reads, and
//!   keeps its name.
//! - **Sequences laid apart pose as they did.** Every Reforged corpus MDX with a sequence
//!   added over the middle third of each of its own (nested, as a music model lays `Song 1`
//!   inside `Stand 3`), and every corpus model whose sequences overlap
//!   in time or are out of time order, as a Reforged model (its own if it is one; else
//!   taken to 1000 with its matrix groups as skin weights, the Reforged form of the same
//!   skinning, so that the conversion has Reforged content to convert; a model without
//!   geosets has none and goes down as it is), converted: no check
//!   error (by rule) more often than in the source, and every node (matched by kind and
//!   index) at the start, the end, every key time and half way between key times of every
//!   sequence's old interval poses as the source did (within 1e-5 of the model's size).

mod common;

use mdlx::anim::{Clock, Skeleton};
use mdlx::convert::classic::{to_classic, ClassicOptions};
use mdlx::model::{AnyTrack, Model};
use std::collections::{BTreeMap, BTreeSet};

/// Corpus MDX files that `Model::to_version(1800)` refuses, with the reason (reported by
/// `tests/versions.rs`; nothing here is for the classic conversion to repair).
const CANNOT_GO_UP: &[(&str, &str)] = &[
    (
        "theguywhodoesntcare__TheScourgeSlayer__map.w3x__models__hook1.mdx",
        "two-byte skin values (1400+ form) in a 1000 file: refused by to_version",
    ),
    (
        "theguywhodoesntcare__TheScourgeSlayer__map.w3x__models__invulnerable2.mdx",
        "two-byte skin values (1400+ form) in a 1000 file: refused by to_version",
    ),
];

#[test]
fn classic_and_1100_models_come_back_from_1800_byte_identical() {
    let (mut n, mut tga) = ([0usize; 2], 0usize);
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    for row in common::manifest() {
        if row.format != "mdx" || !(row.version == 800 || row.version == 1100) {
            continue;
        }
        let path = common::corpus_dir().join(&row.local_path);
        let name = common::name(&path);
        let data = std::fs::read(&path).unwrap();
        let Ok(src) = mdlx::mdx::from_bytes(&data) else {
            continue; // the alpha family shares numbers with Reforged
        };
        let up = match src.to_version(1800) {
            Ok((m, _)) => m,
            Err(e) => {
                skipped.push(format!("{name}: {e}"));
                continue;
            }
        };
        let down = if src.version == 800 {
            to_classic(&up, &ClassicOptions::default()).map(|c| c.model)
        } else {
            up.to_version(src.version).map(|(m, _)| m)
        };
        let back = match down.and_then(|m| mdlx::mdx::to_bytes(&m).map_err(|e| e.to_string())) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        n[usize::from(src.version == 1100)] += 1;
        if back != data {
            let at = back.iter().zip(&data).position(|(a, b)| a != b);
            failures.push(format!(
                "{name}: {} bytes back for {}, first difference at {at:?}",
                back.len(),
                data.len()
            ));
            continue;
        }
        if src
            .textures
            .iter()
            .any(|t| t.path.text().to_ascii_lowercase().ends_with(".tga"))
        {
            tga += 1;
        }
    }
    println!(
        "800 -> 1800 -> 800 (to_classic): {} files; 1100 -> 1800 -> 1100: {} files; {} of them with TGA textures; {} failed",
        n[0],
        n[1],
        tga,
        failures.len()
    );
    for s in &skipped {
        println!("not taken up: {s}");
    }
    assert!(
        n[0] >= 470 && n[1] >= 30,
        "the corpus's 800 and 1100 MDX files: {n:?}"
    );
    assert!(tga >= 4, "TGA-textured models among them: {tga}");
    assert!(skipped.len() <= CANNOT_GO_UP.len(), "{skipped:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `model` as a Reforged model of the same skinning: version 1000, each vertex's matrix
/// group as skin weights (the group's bones, 255 shared out among them).
fn as_reforged(model: &Model) -> Model {
    let (mut m, _) = model.to_version(1000).unwrap();
    for g in &mut m.geosets {
        let sizes = g.matrix_group_sizes.clone();
        let mut start = Vec::with_capacity(sizes.len());
        let mut at = 0u32;
        for &s in &sizes {
            start.push(at);
            at = at.saturating_add(s);
        }
        let mut skin = Vec::with_capacity(g.vertices.len() * 8);
        for v in 0..g.vertices.len() {
            let group = g.vertex_groups.get(v).map_or(0, |&k| usize::from(k));
            let (first, count) = (
                start.get(group).copied().unwrap_or(0),
                sizes.get(group).copied().unwrap_or(0).min(4),
            );
            let mut idx = [0u16; 4];
            let mut w = [0u16; 4];
            for k in 0..count {
                idx[k as usize] = u16::try_from(first + k).unwrap_or(0);
                w[k as usize] = (255 / count + u32::from(k < 255 % count)) as u16;
            }
            skin.extend(idx);
            skin.extend(w);
        }
        g.skin = Some(skin);
    }
    m
}

/// Per track of every node, the key times inside `[a, b]` (sequence tracks only).
fn key_times(m: &Model, [a, b]: [u32; 2]) -> BTreeSet<u32> {
    let mut out = BTreeSet::from([a, b]);
    for n in m.nodes() {
        for t in n.tracks.iter() {
            let times: Vec<i32> = match &t.track {
                AnyTrack::Float(t) if t.global_sequence_id < 0 => {
                    t.keys.iter().map(|k| k.time).collect()
                }
                AnyTrack::Vector3(t) if t.global_sequence_id < 0 => {
                    t.keys.iter().map(|k| k.time).collect()
                }
                AnyTrack::Quaternion(t) if t.global_sequence_id < 0 => {
                    t.keys.iter().map(|k| k.time).collect()
                }
                _ => Vec::new(),
            };
            out.extend(
                times
                    .into_iter()
                    .filter_map(|t| u32::try_from(t).ok())
                    .filter(|t| (a..=b).contains(t)),
            );
        }
    }
    out
}

/// The largest difference between the two models' node matrices (nodes matched by kind and
/// index) over sequence `s`'s old interval `[a, b]` in `src`, at its key times and half
/// way between them; translations relative to `size`.
fn pose_difference(src: &Model, dst: &Model, s: usize, size: f64) -> f64 {
    let [a, b] = src.sequences[s].interval;
    let times: Vec<u32> = key_times(src, [a, b]).into_iter().collect();
    let mut moments: Vec<f64> = times.iter().map(|&t| f64::from(t - a)).collect();
    moments.extend(
        times
            .windows(2)
            .map(|w| (f64::from(w[0] - a) + f64::from(w[1] - a)) / 2.0),
    );
    let (ks, kd) = (Skeleton::new(src), Skeleton::new(dst));
    let index = |k: &Skeleton| -> BTreeMap<(String, usize), usize> {
        k.nodes
            .iter()
            .enumerate()
            .map(|(i, n)| ((format!("{:?}", n.kind), n.index), i))
            .collect()
    };
    let (is, id) = (index(&ks), index(&kd));
    let mut worst = 0.0f64;
    for e in moments {
        let (ps, pd) = (
            ks.pose_at(&Clock::unwrapped(src, s, e), None),
            kd.pose_at(&Clock::unwrapped(dst, s, e), None),
        );
        for (key, &i) in &is {
            let Some(&j) = id.get(key) else { continue };
            let (x, y) = (ps.nodes[i].world, pd.nodes[j].world);
            for k in 0..16 {
                let scale = if (12..15).contains(&k) { size } else { 1.0 };
                let d = f64::from(x[k] - y[k]).abs() / scale;
                if d.is_finite() {
                    worst = worst.max(d);
                }
            }
        }
    }
    worst
}

fn overlap(m: &Model) -> bool {
    m.sequences.iter().enumerate().any(|(i, s)| {
        m.sequences[..i]
            .iter()
            .any(|o| s.interval[0] == o.interval[0] || s.interval[0] < o.interval[1])
    })
}

fn errors(m: &Model) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for f in mdlx::check::check(m) {
        if f.severity() == mdlx::check::Severity::Error {
            *out.entry(f.rule.id).or_default() += 1;
        }
    }
    out
}

/// `model` with, for each sequence of at least 30 ms, a sequence over its middle third
/// added after the others (as a music or emote model lays a short `Song 1` inside a long
/// `Stand 3`): none of its tracks has a key where the new sequence starts unless one
/// happens to lie there.
fn with_nested(model: &Model) -> Model {
    let mut m = model.clone();
    for s in &model.sequences {
        let [a, b] = s.interval;
        let third = b.saturating_sub(a) / 3;
        if third < 10 {
            continue;
        }
        let mut inner = s.clone();
        inner.name.set(&format!("{} inner", s.name.text()));
        inner.interval = [a + third, b - third];
        m.sequences.push(inner);
    }
    for g in &mut m.geosets {
        if !g.sequence_extents.is_empty() {
            g.sequence_extents.resize(m.sequences.len(), g.extent);
        }
    }
    m
}

/// The sources: every corpus model whose sequences overlap or are out of order, and every
/// Reforged corpus MDX with nested sequences added ([`with_nested`]), each as a Reforged
/// model ([`as_reforged`] for a classic one). `None` for a file that is neither.
fn laid_apart_source(row: &common::ManifestRow) -> Option<(String, Model)> {
    let path = common::corpus_dir().join(&row.local_path);
    let data = std::fs::read(&path).unwrap();
    let model = match row.format.as_str() {
        "mdx" => mdlx::mdx::from_bytes(&data).map_err(|e| e.to_string()),
        "mdl" => mdlx::mdl::from_bytes(&data).map_err(|e| e.to_string()),
        _ => return None,
    };
    let model = model
        .ok()
        .filter(|m| mdlx::model::is_known_version(m.version))?;
    let name = common::name(&path);
    if overlap(&model) {
        let src = if model.version >= 900 {
            model
        } else {
            as_reforged(&model)
        };
        return Some((name, src));
    }
    (row.format == "mdx" && model.version >= 900)
        .then(|| (format!("{name} (nested)"), with_nested(&model)))
}

#[test]
fn overlapping_sequences_laid_apart_pose_as_before_with_no_new_error() {
    let (mut files, mut nested) = (0usize, 0usize);
    let mut moved = 0usize;
    let mut classic = Vec::new();
    let (mut worst, mut worst_name) = (0.0f64, String::new());
    let mut failures = Vec::new();
    for row in common::manifest() {
        let Some((name, src)) = laid_apart_source(&row) else {
            continue;
        };
        if src.to_version(800).is_ok_and(|(_, lost)| lost.is_empty()) {
            // No Reforged content (no geoset to give skin weights): goes down as it is.
            classic.push(name);
            continue;
        }
        let out = match to_classic(&src, &ClassicOptions::default()) {
            Ok(o) => o.model,
            Err(e) => {
                failures.push(format!("{name}: refused: {e}"));
                continue;
            }
        };
        files += 1;
        nested += usize::from(name.ends_with("(nested)"));
        let (before, after) = (errors(&src), errors(&out));
        for (rule, &n) in &after {
            let had = before.get(rule).copied().unwrap_or(0);
            if n > had {
                failures.push(format!("{name}: {} new {rule} errors", n - had));
            }
        }
        let size = common::judges::model_size(&src);
        for s in 0..src.sequences.len() {
            if src.sequences[s].interval == out.sequences[s].interval {
                continue;
            }
            moved += 1;
            let d = pose_difference(&src, &out, s, size);
            if d > worst {
                (worst, worst_name) = (d, format!("{name} {:?}", src.sequences[s].name.text()));
            }
            if d > 1e-5 {
                failures.push(format!(
                    "{name}: sequence {s} {:?} poses {d} away from the source",
                    src.sequences[s].name.text()
                ));
            }
        }
    }
    println!(
        "models laid apart: {files} ({nested} of them Reforged models with nested sequences added); sequences moved: {moved}; worst node difference {worst:e} ({worst_name}); {} failures",
        failures.len()
    );
    println!("without Reforged content, so not laid apart: {classic:?}");
    assert!(
        files >= 70 && nested >= 50,
        "models laid apart: {files}, {nested} nested"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
