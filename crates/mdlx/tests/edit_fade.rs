//! Birth and Death made from the Stand (`mdlx::edit::fade`) over every Warcraft III corpus
//! model with geosets: a Death where the model has none, else a Birth, 1000 ms long.
//! Judged by posing with `mdlx::anim`:
//! - in the new sequence every vertex is where the Stand's opening puts it (within 1e-4 of
//!   the size), and each geoset's alpha runs in a straight line from what it shows there
//!   to 0 (or from 0 up), within 1e-4 (stepped tracks: within one 1/30 s step);
//! - the model's other sequences pose and show as before (up to three, two moments each);
//! - no `check` error the source lacked; the peers read every result whose source they read.

mod common;

use mdlx::anim::{geoset_alphas, posed_geosets, AnimTime, Clock, Skeleton};
use mdlx::edit::{fade, Fade};
use mdlx::Model;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn errors(m: &mdlx::Model) -> std::collections::BTreeSet<String> {
    common::findings(m, &[])
}

/// Posed vertices and geoset alphas of sequence `s` at `t` (global clock at 0).
fn look(m: &Model, s: usize, t: f64) -> (Vec<[f32; 3]>, Vec<f32>) {
    let skeleton = Skeleton::new(m);
    let at = AnimTime {
        sequence: Some(s),
        elapsed_ms: t,
        global_ms: 0.0,
    };
    let clock = Clock::new(m, at);
    let pose = skeleton.pose_at(&clock, None);
    let p = (posed_geosets(m, &skeleton, &pose, &clock).into_iter())
        .flat_map(|g| g.positions)
        .collect();
    let a = (0..m.geosets.len())
        .map(|g| geoset_alphas(m, &clock, g).0)
        .collect();
    (p, a)
}

fn far(a: &[[f32; 3]], b: &[[f32; 3]]) -> f64 {
    (a.iter().zip(b))
        .map(|(p, q)| {
            (0..3)
                .map(|k| f64::from((p[k] - q[k]).abs()))
                .fold(0.0, f64::max)
        })
        .filter(|d| d.is_finite())
        .fold(0.0, f64::max)
}

fn stand(m: &Model) -> Option<usize> {
    (m.sequences.iter())
        .position(|s| s.name.text().to_ascii_lowercase().starts_with("stand"))
        .or((!m.sequences.is_empty()).then_some(0))
}

fn one(
    i: usize,
    label: &str,
    src: &Model,
    data: &[u8],
    dirs: &(PathBuf, PathBuf),
) -> (usize, Vec<String>, Option<(PathBuf, usize)>) {
    let has = |n: &str| {
        src.sequences
            .iter()
            .any(|s| s.name.text().eq_ignore_ascii_case(n))
    };
    let kind = if has("death") {
        Fade::Birth
    } else {
        Fade::Death
    };
    if kind == Fade::Birth && has("birth") || src.geosets.is_empty() {
        return (0, Vec::new(), None);
    }
    let mut m = src.clone();
    let report = fade(&mut m, kind, 1000);
    assert!(report.refused.is_empty(), "{label}: {:?}", report.refused);
    // Geosets the fade says it left alone (an alpha on a global sequence).
    let left: BTreeSet<usize> = (report.changed.iter())
        .filter(|l| l.ends_with("not faded"))
        .filter_map(|l| l.strip_prefix("geoset ")?.split(':').next()?.parse().ok())
        .collect();
    let (mut proofs, mut bad) = (0, Vec::new());
    let size = common::judges::model_size(src);
    let new = m.sequences.len() - 1;
    let reference = stand(src).map(|r| look(src, r, 0.0));
    for t in [250.37, 750.37] {
        let (p, a) = look(&m, new, t);
        if let Some((p0, a0)) = &reference {
            let d = far(&p, p0);
            if d > 1e-4 * size {
                bad.push(format!(
                    "{label}: at {t} a vertex is {d} from the Stand's opening"
                ));
            }
            for (g, (x, shown)) in (a.iter().zip(a0).enumerate()).filter(|(g, _)| !left.contains(g))
            {
                let f = (t / 1000.0) as f32;
                let want = if kind == Fade::Birth {
                    shown * f
                } else {
                    shown * (1.0 - f)
                };
                // A stepped alpha moves in 1/30 s steps.
                if (x - want).abs() > 1e-4 + shown.abs() * 0.034 {
                    bad.push(format!(
                        "{label}: geoset {g} at {t}: alpha {x}, want {want}"
                    ));
                } else {
                    proofs += 1;
                }
            }
        }
        for s in 0..src.sequences.len().min(3) {
            let len = f64::from(src.sequences[s].length());
            let t = (len * t / 1000.0).floor() + 0.37;
            if t >= len {
                continue;
            }
            let (before, after) = (look(src, s, t), look(&m, s, t));
            let d = far(&before.0, &after.0);
            let da = before
                .1
                .iter()
                .zip(&after.1)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f32::max);
            if d > 1e-4 * size || da > 1e-4 {
                bad.push(format!(
                    "{label}: sequence {s} at {t} changed: {d}, alpha {da}"
                ));
            } else {
                proofs += 1;
            }
        }
    }
    // A Stand the source lacks is not the fade's to add.
    let lacks_stand =
        !(src.sequences.iter()).any(|s| s.name.text().to_ascii_lowercase().starts_with("stand"));
    bad.extend(
        (errors(&m).difference(&errors(src)))
            .filter(|e| !(lacks_stand && e.as_str() == "missing-stand-sequence"))
            .map(|e| format!("{label}: new {e}")),
    );
    let written = (data[..4] == *b"MDLX").then(|| {
        std::fs::write(dirs.0.join(format!("{i:04}.mdx")), data).unwrap();
        let path = dirs.1.join(format!("{i:04}.mdx"));
        let bytes = mdlx::write(&m, mdlx::Format::Mdx, &mdlx::WriteOptions::default())
            .unwrap()
            .bytes;
        std::fs::write(&path, bytes).unwrap();
        (path, i)
    });
    (proofs, bad, written)
}

#[test]
fn birth_and_death_fade_from_the_stand() {
    let dir = common::judges::out_dir("edit-fade");
    let dirs = (dir.join("sources"), dir.join("out"));
    std::fs::create_dir_all(&dirs.0).unwrap();
    std::fs::create_dir_all(&dirs.1).unwrap();
    let results =
        common::over_models(|i, row, data, m| Some(one(i, &row.local_path, &m, data, &dirs)));
    let proofs: usize = results.iter().map(|r| r.0).sum();
    let bad: Vec<&String> = results.iter().flat_map(|r| &r.1).collect();
    let written: Vec<(PathBuf, usize)> = results.iter().filter_map(|r| r.2.clone()).collect();
    let made = results
        .iter()
        .filter(|r| r.0 > 0 || !r.1.is_empty())
        .count();
    println!(
        "edit_fade: {} models, {made} given a Birth or Death; {proofs} moments as they should be, {} not",
        results.len(),
        bad.len()
    );
    for b in bad.iter().take(20) {
        println!("  {b}");
    }
    common::judges::peers_read(&dirs.0, &dirs.1, &written, "edit_fade");
    assert!(made > 350, "{made}");
    assert!(bad.is_empty());
}
