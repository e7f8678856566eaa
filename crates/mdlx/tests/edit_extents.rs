//! Recomputed extents (`mdlx::anim::recompute_extents`) over every Warcraft III corpus
//! model, judged by posing with `mdlx::anim` at moments the recomputation did not sample
//! (every 233 ms from 11.1 ms, off its 10 ms steps, in up to six sequences):
//! - each geoset's sequence extent holds every vertex the geoset draws in that sequence
//!   (within 1% of the model's size: extremes between samples), and its own extent, the
//!   sequence's and the model's hold that too;
//! - at rest, each geoset's extent and the model's hold every vertex exactly, so
//!   `check`'s `stale-extent` finds nothing afterwards, and no other check error is new.

mod common;

use mdlx::anim::{posed_geosets, Clock, Skeleton};
use mdlx::model::{Extent, Model};

fn errors(m: &mdlx::Model) -> std::collections::BTreeSet<String> {
    common::findings(m, &["stale-extent"])
}

/// How far `p` lies outside `e` (0 inside).
fn outside(e: &Extent, p: [f32; 3]) -> f64 {
    (0..3)
        .map(|k| f64::from((e.min[k] - p[k]).max(p[k] - e.max[k]).max(0.0)))
        .fold(0.0, f64::max)
}

struct Outcome {
    label: String,
    /// The worst excess of a posed vertex over its extents, as a fraction of the size.
    worst: f64,
    moments: usize,
    stale_before: bool,
    new_errors: Vec<String>,
}

fn one(label: &str, src: &Model) -> Outcome {
    let mut m = src.clone();
    mdlx::anim::recompute_extents(&mut m);
    let size = common::judges::model_size(src);
    let stale_before = errors(src).contains("stale-extent");
    let before = errors(src);
    let new_errors = errors(&m).difference(&before).cloned().collect();
    let skeleton = Skeleton::new(&m);
    let (mut worst, mut moments) = (0.0f64, 0usize);
    for s in 0..m.sequences.len().min(6) {
        let len = f64::from(m.sequences[s].length());
        let mut t = 1000.0 / 90.0;
        while t < len {
            let clock = Clock::unwrapped(&m, s, t);
            let pose = skeleton.pose_at(&clock, None);
            for g in posed_geosets(&m, &skeleton, &pose, &clock) {
                if !g.visible {
                    continue;
                }
                let geoset = &m.geosets[g.index];
                let boxes = [
                    &geoset.sequence_extents[s],
                    &geoset.extent,
                    &m.sequences[s].extent,
                    &m.info.extent,
                ];
                for p in &g.positions {
                    for e in boxes {
                        worst = worst.max(outside(e, *p) / size);
                    }
                }
            }
            moments += 1;
            t += 1000.0 / 30.0 * 7.0;
        }
    }
    Outcome {
        label: label.to_string(),
        worst,
        moments,
        stale_before,
        new_errors,
    }
}

#[test]
fn recomputed_extents_hold_every_drawn_vertex() {
    let results = common::over_models(|_, row, _, model| Some(one(&row.local_path, &model)));
    let moments: usize = results.iter().map(|r| r.moments).sum();
    let stale = results.iter().filter(|r| r.stale_before).count();
    let mut by_worst: Vec<&Outcome> = results.iter().collect();
    by_worst.sort_by(|a, b| b.worst.total_cmp(&a.worst));
    let over = results.iter().filter(|r| r.worst > 1e-2).count();
    println!(
        "edit_extents: {} models ({stale} with a stale extent before), {moments} posed moments off the sampled ones; worst excess {:.2e} of the size ({}); {over} over 1%",
        results.len(),
        by_worst[0].worst,
        by_worst[0].label
    );
    for r in by_worst.iter().take(5) {
        println!("  {:.2e}  {}", r.worst, r.label);
    }
    let new: Vec<String> = (results.iter())
        .flat_map(|r| {
            r.new_errors
                .iter()
                .map(move |e| format!("{}: {e}", r.label))
        })
        .collect();
    for e in &new {
        println!("  new: {e}");
    }
    assert!(results.len() > 600);
    assert!(new.is_empty(), "{} new findings", new.len());
    assert_eq!(
        over, 0,
        "extents that miss drawn vertices by over 1% of the size"
    );
}

/// Normals recomputed at 60 degrees over every corpus model: each of unit length, no new
/// check error; how far they lie from the normals the models' exporters stored (a figure,
/// not a bound: exporters smooth by their own groups).
#[test]
fn recomputed_normals_over_the_corpus() {
    let results = common::over_models(|_, row, _, src| {
        let mut m = src.clone();
        let report = mdlx::edit::recompute_normals(&mut m, 60.0);
        assert!(report.refused.is_empty());
        let mut angles = Vec::new();
        let mut bad = Vec::new();
        for (g, (a, b)) in m.geosets.iter().zip(&src.geosets).enumerate() {
            for (i, (n, o)) in a.normals.iter().zip(&b.normals).enumerate() {
                let len = n.iter().map(|x| x * x).sum::<f32>().sqrt();
                if (len - 1.0).abs() > 1e-4 {
                    bad.push(format!(
                        "{}: geosets[{g}].normals[{i}] {n:?}",
                        row.local_path
                    ));
                }
                let lo = o.iter().map(|x| x * x).sum::<f32>().sqrt();
                if lo > 0.5 && lo.is_finite() {
                    let c = (0..3).map(|k| n[k] * o[k]).sum::<f32>() / lo;
                    angles.push(c.clamp(-1.0, 1.0).acos().to_degrees());
                }
            }
        }
        let before = errors(&src);
        bad.extend(
            errors(&m)
                .difference(&before)
                .map(|e| format!("{}: new {e}", row.local_path)),
        );
        Some((angles, bad))
    });
    let mut angles: Vec<f32> = results.iter().flat_map(|r| r.0.iter().copied()).collect();
    angles.sort_by(f32::total_cmp);
    let bad: Vec<&String> = results.iter().flat_map(|r| &r.1).collect();
    let at = |q: f64| angles[((angles.len() - 1) as f64 * q) as usize];
    println!(
        "edit_normals: {} models, {} normals recomputed at 60 degrees; against the stored ones: median {:.2}, 90th percentile {:.2}, 99th {:.2} degrees; {} not unit or new errors",
        results.len(),
        angles.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        bad.len()
    );
    for b in bad.iter().take(10) {
        println!("  {b}");
    }
    assert!(bad.is_empty());
}

/// Corners judged, geosets left, failures, vertices before and after.
type FlatOutcome = (usize, usize, Vec<String>, usize, usize);

/// Flat shading (`mdlx::edit::split_normals` at 0 degrees) over every corpus model: the
/// triangles draw what they drew (each corner at its old position, with its old bone
/// binding, skin weights and texture coordinates), each corner's normal is its face's
/// (faces without area aside), and no `check` error or stale extent is new. A geoset the
/// report says it left is as it was.
#[test]
fn flat_shading_over_the_corpus() {
    let results = common::over_models(|_, row, _, src| {
        let mut m = src.clone();
        let report = mdlx::edit::split_normals(&mut m, 0.0);
        assert!(report.refused.is_empty());
        let mut bad = Vec::new();
        let (mut corners, mut left) = (0usize, 0usize);
        // The geosets the report says it left must be as they were.
        let said: Vec<usize> = (report.changed.iter())
            .filter(|l| l.contains(": left as it is ("))
            .filter_map(|l| l.strip_prefix("geoset ")?.split(':').next()?.parse().ok())
            .collect();
        for (g, (a, b)) in m.geosets.iter().zip(&src.geosets).enumerate() {
            if said.contains(&g) {
                left += 1;
                if a != b {
                    bad.push(format!(
                        "{}: geosets[{g}] said left, changed",
                        row.local_path
                    ));
                }
                continue;
            }
            let (ta, tb) = (a.triangles().0, b.triangles().0);
            for (x, y) in ta.iter().zip(&tb) {
                let (x, y) = (x.map(usize::from), y.map(usize::from));
                let p = y.map(|v| b.vertices[v]);
                let f = mdlx::anim::math::cross(
                    mdlx::anim::math::sub(p[1], p[0]),
                    mdlx::anim::math::sub(p[2], p[0]),
                );
                let area = mdlx::anim::math::dot(f, f).sqrt();
                for k in 0..3 {
                    let same = a.vertices[x[k]] == b.vertices[y[k]]
                        && a.vertex_groups.get(x[k]) == b.vertex_groups.get(y[k])
                        && (a.uv_sets.iter().zip(&b.uv_sets)).all(|(u, v)| u[x[k]] == v[y[k]])
                        && (a.skin.as_ref().zip(b.skin.as_ref()))
                            .is_none_or(|(s, t)| s[x[k] * 8..][..8] == t[y[k] * 8..][..8]);
                    let n = a.normals[x[k]];
                    let flat = !(area > 1e-6 && area.is_finite())
                        || mdlx::anim::math::dot(n, f) / area >= 1.0 - 1e-5;
                    if same && flat {
                        corners += 1;
                    } else {
                        bad.push(format!(
                            "{}: geosets[{g}] corner {k} of {y:?}: same {same}, flat {flat} ({} area {area})",
                            row.local_path,
                            mdlx::anim::math::dot(n, f) / area
                        ));
                    }
                }
            }
        }
        let before = errors(&src);
        bad.extend(
            errors(&m)
                .difference(&before)
                .map(|e| format!("{}: new {e}", row.local_path)),
        );
        let vertices = |m: &Model| m.geosets.iter().map(|g| g.vertices.len()).sum::<usize>();
        Some((corners, left, bad, vertices(&src), vertices(&m)))
    });
    let bad: Vec<&String> = results.iter().flat_map(|r| &r.2).collect();
    let sum = |f: fn(&FlatOutcome) -> usize| results.iter().map(f).sum::<usize>();
    println!(
        "edit_hard_edges: {} models made flat: {} triangle corners where they were with their face's normal, {} geosets left as they were (point or line groups, faces naming missing vertices, or past the vertices an SD geoset holds); vertices {} -> {}; {} failures",
        results.len(),
        sum(|r| r.0),
        sum(|r| r.1),
        sum(|r| r.3),
        sum(|r| r.4),
        bad.len()
    );
    for b in bad.iter().take(10) {
        println!("  {b}");
    }
    assert!(bad.is_empty());
}
