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

fn errors(m: &Model) -> std::collections::BTreeSet<String> {
    mdlx::check::check(m)
        .into_iter()
        .filter(|f| f.severity == mdlx::check::Severity::Error || f.rule.id == "stale-extent")
        .map(|f| f.rule.id.to_string())
        .collect()
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
