//! Team colour and hero glow (`mdlx::edit::team_colour`, `hero_glow`) over every classic
//! (800) corpus model:
//! - the glow's bone is the model's last bone and every later node moves up one object
//!   id: every geoset that was there poses as before (up to three sequences, two moments
//!   each, within 1e-4 of the size), and the glow's vertices stay where they are put;
//! - team colour under material 0's texture: one more layer, a replaceable-1 texture
//!   opaque under a blending one;
//! - no `check` error the source lacked (nor a stale extent: the glow grows the bounds), and the peers (mdx-m3-viewer, war3-model, the
//!   `wc3` crate) read every result whose source they read.

mod common;

use mdlx::anim::{posed_geosets, AnimTime, Clock, Skeleton};
use mdlx::edit::{apply, Edit};
use mdlx::Model;

use std::path::{Path, PathBuf};

fn errors(m: &mdlx::Model) -> std::collections::BTreeSet<String> {
    common::findings(m, &["stale-extent"])
}

fn posed(m: &Model, s: usize, t: f64) -> Vec<Vec<[f32; 3]>> {
    let skeleton = Skeleton::new(m);
    let at = AnimTime {
        sequence: Some(s),
        elapsed_ms: t,
        global_ms: 0.0,
    };
    let clock = Clock::new(m, at);
    let pose = skeleton.pose_at(&clock, None);
    posed_geosets(m, &skeleton, &pose, &clock)
        .into_iter()
        .map(|g| g.positions)
        .collect()
}

fn far(a: &[[f32; 3]], b: &[[f32; 3]]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(p, q)| {
            (0..3)
                .map(|k| f64::from((p[k] - q[k]).abs()))
                .fold(0.0, f64::max)
        })
        .fold(0.0, f64::max)
}

#[derive(Default)]
struct Outcome {
    glowed: bool,
    coloured: bool,
    proofs: usize,
    failures: Vec<String>,
    written: Option<(PathBuf, usize)>,
}

fn one(i: usize, label: &str, src: &Model, srcdir: &Path, outdir: &Path, data: &[u8]) -> Outcome {
    let mut out = Outcome::default();
    let mut m = src.clone();
    let tc = apply(&mut m, &Edit::TeamColour(0));
    out.coloured = tc.refused.is_empty();
    let glow = apply(&mut m, &Edit::HeroGlow);
    out.glowed = glow.refused.is_empty();
    if out.coloured {
        let l = &m.materials[0].layers;
        let id = |k: usize| m.textures[l[k].texture_id as usize].replaceable_id;
        if l.len() != src.materials[0].layers.len() + 1
            || id(0) != 1
            || l[0].filter_mode != 0
            || l[1].filter_mode == 0
        {
            out.failures
                .push(format!("{label}: team colour layers {l:?}"));
        }
    }
    let size = common::judges::model_size(src);
    for s in 0..src.sequences.len().min(3) {
        let len = f64::from(src.sequences[s].length());
        for t in [0.3 * len, 0.7 * len]
            .map(|t| t.floor() + 0.37)
            .into_iter()
            .filter(|&t| t < len)
        {
            let (a, b) = (posed(src, s, t), posed(&m, s, t));
            for (g, (x, y)) in a.iter().zip(&b).enumerate() {
                let d = far(x, y);
                if d <= 1e-4 * size || !d.is_finite() {
                    out.proofs += 1;
                } else {
                    out.failures.push(format!(
                        "{label}: geoset {g}, sequence {s} at {t}: moved {d}"
                    ));
                }
            }
            if out.glowed {
                let glow = b.last().unwrap();
                if far(glow, &m.geosets.last().unwrap().vertices) > 1e-4 {
                    out.failures
                        .push(format!("{label}: the glow moves in sequence {s}"));
                }
            }
        }
    }
    for e in errors(&m).difference(&errors(src)) {
        out.failures.push(format!("{label}: new check error {e}"));
    }
    if out.glowed || out.coloured {
        out.written = Some(common::judges::write_pair(srcdir, outdir, i, data, &m));
    }
    out
}

#[test]
fn team_colour_and_glow_on_every_classic_model() {
    let dir = common::judges::out_dir("edit-team");
    let (srcdir, outdir) = (dir.join("sources"), dir.join("out"));
    std::fs::create_dir_all(&srcdir).unwrap();
    std::fs::create_dir_all(&outdir).unwrap();
    let results = common::over_models(|i, row, data, m| {
        (m.version == 800 && row.format == "mdx")
            .then(|| one(i, &row.local_path, &m, &srcdir, &outdir, data))
    });
    let glowed = results.iter().filter(|r| r.glowed).count();
    let coloured = results.iter().filter(|r| r.coloured).count();
    let proofs: usize = results.iter().map(|r| r.proofs).sum();
    let failures: Vec<&String> = results.iter().flat_map(|r| &r.failures).collect();
    println!(
        "edit_team: {} classic MDX models: {glowed} given a glow (the rest glow already or have no bones), {coloured} a team colour on material 0 (the rest have one, or no material); {proofs} geoset poses as before, {} failures",
        results.len(),
        failures.len()
    );
    for f in failures.iter().take(20) {
        println!("  {f}");
    }
    let written: Vec<&(PathBuf, usize)> =
        results.iter().filter_map(|r| r.written.as_ref()).collect();
    let written: Vec<(PathBuf, usize)> = written.into_iter().cloned().collect();
    common::judges::peers_read(&srcdir, &outdir, &written, "edit_team");
    assert!(glowed > 300, "{glowed}");
    assert!(failures.is_empty());
}
