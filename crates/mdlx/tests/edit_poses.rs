//! Transforms and sequence edits (`mdlx::edit`) over every Warcraft III model of the
//! corpus, proved by posing (with `mdlx::anim`, at times between keys, in up to six
//! sequences a model):
//! - scaled by 2.5, turned 90 and 37 degrees about Z, mirrored across Y, moved: every
//!   posed vertex is where the motion takes the original's;
//! - a sequence reversed poses at `t` as the original at its length minus `t`; stretched
//!   by 2, at `2t` as the original at `t`; duplicated, the copy as the original; deleted,
//!   every other sequence as before (and after each of these edits the untouched
//!   sequences pose as before); geoset alphas alike;
//! - each edited model has no `check` error its source lacked, and is written as MDX for
//!   the peers (mdx-m3-viewer, war3-model, the `wc3` crate), which must read every output
//!   whose source they read.
//!
//! Positions agree within 1e-4 of the model's size (the diagonal of its vertices' box).

mod common;

use mdlx::anim::{geoset_alphas, posed_geosets, AnimTime, Clock, Skeleton};
use mdlx::edit::{apply, Axis, Edit, SequenceEdit, Transform};
use mdlx::Model;

use std::path::{Path, PathBuf};

const TOLERANCE: f64 = 1e-4;

fn errors(m: &mdlx::Model) -> std::collections::BTreeSet<String> {
    common::findings(m, &[])
}

/// Posed positions (every geoset, concatenated) and geoset alphas of sequence `seq` at
/// `t` ms, with the global clock held at 0.
fn posed(m: &Model, seq: usize, t: f64) -> (Vec<[f32; 3]>, Vec<f32>) {
    let skeleton = Skeleton::new(m);
    let at = AnimTime {
        sequence: Some(seq),
        elapsed_ms: t,
        global_ms: 0.0,
    };
    let clock = Clock::new(m, at);
    let pose = skeleton.pose_at(&clock, None);
    let positions = posed_geosets(m, &skeleton, &pose, &clock)
        .into_iter()
        .flat_map(|g| g.positions)
        .collect();
    let alphas = (0..m.geosets.len())
        .map(|i| geoset_alphas(m, &clock, i).0)
        .collect();
    (positions, alphas)
}

/// The worst distance between two poses, or `None` when they differ in shape or alpha.
fn worst(a: &(Vec<[f32; 3]>, Vec<f32>), b: &(Vec<[f32; 3]>, Vec<f32>)) -> Option<f64> {
    if a.0.len() != b.0.len() || a.1.len() != b.1.len() {
        return None;
    }
    if a.1.iter().zip(&b.1).any(|(x, y)| (x - y).abs() > 1e-4) {
        return None;
    }
    let mut w = 0.0f64;
    for (p, q) in a.0.iter().zip(&b.0) {
        if p.iter().chain(q).any(|x| !x.is_finite()) {
            continue;
        }
        let d: f64 = (0..3)
            .map(|k| (f64::from(p[k]) - f64::from(q[k])).powi(2))
            .sum::<f64>()
            .sqrt();
        w = w.max(d);
    }
    Some(w)
}

/// Times inside a sequence of length `len`, off every whole millisecond (no key falls on
/// them, so a stepped track is never read on the instant it changes).
fn times(len: f64) -> [f64; 3] {
    [0.13, 0.5, 0.87].map(|f| ((f * len).floor() + 0.37).min(len - 0.63))
}

struct Outcome {
    failures: Vec<String>,
    new_errors: Vec<String>,
    written: Vec<(PathBuf, usize)>,
    proofs: usize,
    refused: usize,
    /// Poses off because a turn met uneven scaling (which the report says).
    uneven: Vec<String>,
}

/// A motion: its name, the edit, and where it takes a point.
type Motion = (&'static str, Transform, fn([f32; 3]) -> [f32; 3]);

/// The motions.
fn motions() -> Vec<Motion> {
    vec![
        ("scale 2.5", Transform::Scale(2.5), |p| p.map(|x| x * 2.5)),
        (
            "rotate z 90",
            Transform::Rotate {
                axis: Axis::Z,
                degrees: 90.0,
            },
            |p| [-p[1], p[0], p[2]],
        ),
        (
            "rotate z 37",
            Transform::Rotate {
                axis: Axis::Z,
                degrees: 37.0,
            },
            |p| {
                let (s, c) = 37f64.to_radians().sin_cos();
                let (x, y) = (f64::from(p[0]), f64::from(p[1]));
                [(c * x - s * y) as f32, (s * x + c * y) as f32, p[2]]
            },
        ),
        ("mirror y", Transform::Mirror(Axis::Y), |p| {
            [p[0], -p[1], p[2]]
        }),
        ("translate", Transform::Translate([10.0, -20.0, 5.0]), |p| {
            [p[0] + 10.0, p[1] - 20.0, p[2] + 5.0]
        }),
    ]
}

fn prove_motions(label: &str, src: &Model, size: f64, out: &mut Outcome) {
    let seqs = src.sequences.len().min(6);
    for (name, t, f) in motions() {
        let mut m = src.clone();
        let report = apply(&mut m, &Edit::Transform(t));
        assert!(
            report.refused.is_empty(),
            "{label}: {name}: {:?}",
            report.refused
        );
        let uneven = report.changed.iter().any(|l| l.contains("uneven"));
        for s in 0..seqs {
            let len = f64::from(src.sequences[s].length());
            if len < 2.0 {
                continue;
            }
            for t in times(len) {
                let (p0, a0) = posed(src, s, t);
                let want = (p0.iter().map(|&p| f(p)).collect(), a0);
                let got = posed(&m, s, t);
                let scale = if name == "scale 2.5" { 2.5 } else { 1.0 };
                match worst(&want, &got) {
                    Some(w) if w <= TOLERANCE * size * scale => out.proofs += 1,
                    _ if uneven => out.uneven.push(format!("{label}: {name}")),
                    w => out.failures.push(format!(
                        "{label}: {name}: sequence {s} at {t:.2}: worst {w:?} (size {size:.1})"
                    )),
                }
            }
        }
        new_errors(label, name, src, &m, out);
    }
}

fn new_errors(label: &str, name: &str, src: &Model, m: &Model, out: &mut Outcome) {
    let before = errors(src);
    for e in errors(m).difference(&before) {
        out.new_errors.push(format!("{label}: {name}: {e}"));
    }
}

/// Each sequence edit, and how the edited model's sequence `j` at `t` is the source's:
/// `(source sequence, source time)`, or `None` when nothing of the source matches.
type Expect = Box<dyn Fn(usize, f64) -> Option<(usize, f64)>>;

fn sequence_edits(src: &Model) -> Vec<(&'static str, SequenceEdit, Expect)> {
    let n = src.sequences.len();
    let mut v: Vec<(&'static str, SequenceEdit, Expect)> = Vec::new();
    let len = |i: usize| f64::from(src.sequences[i].length());
    let l0 = len(0);
    v.push((
        "reverse",
        SequenceEdit::Reverse("0".into()),
        Box::new(move |j, t| Some((j, if j == 0 { l0 - t } else { t }))),
    ));
    let k = n.min(2) - 1;
    v.push((
        "stretch x2",
        SequenceEdit::Stretch {
            which: k.to_string(),
            factor: 2.0,
        },
        Box::new(move |j, t| Some((j, if j == k { t / 2.0 } else { t }))),
    ));
    v.push((
        "duplicate",
        SequenceEdit::Duplicate {
            which: "0".into(),
            name: "Copy of the first".into(),
        },
        Box::new(move |j, t| Some((if j == n { 0 } else { j }, t))),
    ));
    let last = n - 1;
    v.push((
        "move last to first",
        SequenceEdit::Move {
            which: last.to_string(),
            to: 0,
        },
        Box::new(move |j, t| Some((if j == 0 { last } else { j - 1 }, t))),
    ));
    // A sequence whose going leaves no check error: none the game needs (Stand, Death).
    let needed = |i: usize| {
        let name = src.sequences[i].name.text().to_ascii_lowercase();
        name.starts_with("stand") || name.starts_with("death")
    };
    let Some(d) = (0..n).map(|k| (n / 2 + k) % n).find(|&i| !needed(i)) else {
        return v;
    };
    v.push((
        "delete",
        SequenceEdit::Delete(d.to_string()),
        Box::new(move |j, t| Some((if j >= d { j + 1 } else { j }, t))),
    ));
    v
}

fn prove_sequences(label: &str, src: &Model, size: f64, out: &mut Outcome) {
    if src.sequences.is_empty() {
        return;
    }
    for (name, e, expect) in sequence_edits(src) {
        let mut m = src.clone();
        let report = apply(&mut m, &Edit::Sequence(e));
        if !report.refused.is_empty() {
            // Only a sequence that runs backwards (it plays nothing) may be refused.
            assert!(
                report.refused.iter().all(|r| r.contains("runs backwards")),
                "{label}: {name}: {:?}",
                report.refused
            );
            out.refused += 1;
            continue;
        }
        for j in 0..m.sequences.len().min(7) {
            let len = f64::from(m.sequences[j].length());
            if len < 2.0 {
                continue;
            }
            for t in times(len) {
                let Some((s, ts)) = expect(j, t) else {
                    continue;
                };
                match worst(&posed(src, s, ts), &posed(&m, j, t)) {
                    Some(w) if w <= TOLERANCE * size => out.proofs += 1,
                    w => out.failures.push(format!(
                        "{label}: {name}: sequence {j} at {t:.2} (source {s} at {ts:.2}): worst {w:?} (size {size:.1})"
                    )),
                }
            }
        }
        new_errors(label, name, src, &m, out);
    }
}

/// Everything each edit of one model must show; its outputs written into `dir`.
fn one(label: &str, src: &Model, dir: &Path, index: usize) -> Outcome {
    let mut out = Outcome {
        failures: Vec::new(),
        new_errors: Vec::new(),
        written: Vec::new(),
        proofs: 0,
        refused: 0,
        uneven: Vec::new(),
    };
    let size = common::judges::model_size(src);
    prove_motions(label, src, size, &mut out);
    prove_sequences(label, src, size, &mut out);
    // For the peers: all the motions in one model, and all the sequence edits in another.
    let mut moved = src.clone();
    for (_, t, _) in motions() {
        apply(&mut moved, &Edit::Transform(t));
    }
    let mut seqs = src.clone();
    if !src.sequences.is_empty() {
        for (_, e, _) in sequence_edits(src) {
            apply(&mut seqs, &Edit::Sequence(e));
        }
    }
    for (kind, m) in [("moved", &moved), ("sequences", &seqs)] {
        let path = dir.join(format!("{index:04}-{kind}.mdx"));
        let bytes = mdlx::write(m, mdlx::Format::Mdx, &mdlx::WriteOptions::default())
            .unwrap_or_else(|e| panic!("{label}: {kind}: {e}"))
            .bytes;
        std::fs::write(&path, bytes).unwrap();
        out.written.push((path, index));
    }
    out
}

#[test]
fn transforms_and_sequence_edits_pose_as_they_say() {
    let dir = common::judges::out_dir("edit-poses");
    let srcdir = dir.join("sources");
    std::fs::create_dir_all(&srcdir).unwrap();
    let outdir = dir.join("edited");
    std::fs::create_dir_all(&outdir).unwrap();
    let results: Vec<Outcome> = common::over_models(|i, row, data, model| {
        if row.format == "mdx" {
            std::fs::write(srcdir.join(format!("{i:04}.mdx")), data).unwrap();
        }
        Some(one(&row.local_path, &model, &outdir, i))
    });
    let failures: Vec<&String> = results.iter().flat_map(|r| &r.failures).collect();
    let new_errors: Vec<&String> = results.iter().flat_map(|r| &r.new_errors).collect();
    let proofs: usize = results.iter().map(|r| r.proofs).sum();
    let refused: usize = results.iter().map(|r| r.refused).sum();
    let written: Vec<&(PathBuf, usize)> = results.iter().flat_map(|r| &r.written).collect();
    println!(
        "edit_poses: {} models, {proofs} poses proved, {} failed, {} new check errors, {} outputs written, {refused} edits refused (a sequence that runs backwards)",
        results.len(),
        failures.len(),
        new_errors.len(),
        written.len()
    );
    let mut uneven: Vec<&String> = results.iter().flat_map(|r| &r.uneven).collect();
    uneven.dedup();
    println!(
        "edit_poses: {} model(s) off after a turn, each reported as uneven scaling: {uneven:?}",
        uneven.len()
    );
    for f in failures.iter().take(30) {
        println!("  pose: {f}");
    }
    for e in new_errors.iter().take(30) {
        println!("  new error: {e}");
    }
    let written: Vec<(PathBuf, usize)> = written.into_iter().cloned().collect();
    common::judges::peers_read(&srcdir, &outdir, &written, "edit_poses");
    assert!(results.len() > 600, "{}", results.len());
    assert!(failures.is_empty() && new_errors.is_empty());
}
