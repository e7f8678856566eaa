//! Emitters stopped at the end of a sequence (`SequenceEdit::StopEmitters`) in every
//! Warcraft III corpus model that has an emitter, for each of its sequences in turn (those
//! refused, whose last frame another sequence shares, are counted). Judged by sampling the
//! visibility tracks with `mdlx::anim` (not by what the edit says of itself):
//! - on the last frame of each stopped sequence, every emitter is invisible (but those
//!   whose visibility runs on a global sequence, which the edit leaves);
//! - 1 ms before it, and at two moments between keys of every sequence, every emitter's
//!   visibility is what it was (a curved visibility, which the report names, is judged
//!   only outside its stopped sequence);
//! - no `check` error the source lacked; the peers (mdx-m3-viewer, war3-model, the `wc3`
//!   crate) read every result whose source they read.

mod common;

use mdlx::anim::Clock;
use mdlx::edit::{sequences, SequenceEdit};
use mdlx::model::{Interpolation, Tracks};
use mdlx::spec::track::{KP2V, KPEV, KPPV, KRVS};
use mdlx::Model;

use std::path::{Path, PathBuf};

fn errors(m: &mdlx::Model) -> std::collections::BTreeSet<String> {
    common::findings(m, &[])
}

/// Each emitter's visibility tracks and tag.
fn emitters(m: &Model) -> Vec<(&Tracks, mdlx::spec::Tag)> {
    let mut v: Vec<(&Tracks, mdlx::spec::Tag)> = Vec::new();
    v.extend(m.particle_emitters.iter().map(|e| (&e.tracks, KPEV)));
    v.extend(m.particle_emitters2.iter().map(|e| (&e.tracks, KP2V)));
    v.extend(m.ribbon_emitters.iter().map(|e| (&e.tracks, KRVS)));
    v.extend(m.popcorn_emitters.iter().map(|e| (&e.tracks, KPPV)));
    v
}

/// Every emitter's visibility `t` ms into sequence `s` (the last frame at its length).
fn visibility(m: &Model, s: usize, t: f64) -> Vec<f32> {
    let clock = Clock::unwrapped(m, s, t);
    (emitters(m).into_iter())
        .map(|(tracks, tag)| clock.sample(tracks.float(tag), 1.0))
        .collect()
}

/// Per emitter: its visibility runs on a global sequence; it is curved.
fn kinds(m: &Model) -> Vec<(bool, bool)> {
    (emitters(m).into_iter())
        .map(|(tracks, tag)| {
            tracks.float(tag).map_or((false, false), |t| {
                let curved = matches!(
                    t.interpolation,
                    Interpolation::Hermite | Interpolation::Bezier
                );
                (t.global_sequence_id >= 0, curved)
            })
        })
        .collect()
}

#[derive(Default)]
struct Outcome {
    stopped: usize,
    refused: usize,
    ends: usize,
    before: usize,
    failures: Vec<String>,
    written: Option<(PathBuf, usize)>,
}

fn one(i: usize, label: &str, src: &Model, srcdir: &Path, outdir: &Path, data: &[u8]) -> Outcome {
    let mut out = Outcome::default();
    let mut m = src.clone();
    let mut stopped = Vec::new();
    for s in 0..src.sequences.len() {
        // Named as the edit finds it: by name (any case), else by index.
        let name = src.sequences[s].name.text().into_owned();
        let Some(which) = [name, s.to_string()]
            .into_iter()
            .find(|w| src.find_sequence(w).ok() == Some(s))
        else {
            continue;
        };
        let r = sequences(&mut m, &SequenceEdit::StopEmitters(which));
        if r.refused.is_empty() {
            stopped.push(s);
        } else {
            out.refused += 1;
        }
    }
    out.stopped = stopped.len();
    let kinds = kinds(src);
    for s in 0..src.sequences.len() {
        let len = f64::from(src.sequences[s].length());
        let mut moments: Vec<f64> = [0.3 * len, 0.7 * len]
            .map(|t| t.floor() + 0.37)
            .into_iter()
            .filter(|&t| t < len - 1.0)
            .collect();
        let here = stopped.contains(&s);
        if here && len >= 1.0 {
            moments.push(len - 1.0);
        }
        for t in moments {
            let (a, b) = (visibility(src, s, t), visibility(&m, s, t));
            for (e, (x, y)) in a.iter().zip(&b).enumerate() {
                if here && kinds[e].1 {
                    continue;
                }
                if (x - y).abs() <= 1e-6 {
                    out.before += 1;
                } else {
                    out.failures.push(format!(
                        "{label}: emitter {e}, sequence {s} at {t}: {x} -> {y}"
                    ));
                }
            }
        }
        if here {
            for (e, v) in visibility(&m, s, len).into_iter().enumerate() {
                if kinds[e].0 {
                    continue;
                }
                if v <= 0.0 {
                    out.ends += 1;
                } else {
                    out.failures.push(format!(
                        "{label}: emitter {e} visible ({v}) at the end of {s}"
                    ));
                }
            }
        }
    }
    for e in errors(&m).difference(&errors(src)) {
        out.failures.push(format!("{label}: new check error {e}"));
    }
    if out.stopped > 0 {
        out.written = Some(common::judges::write_pair(srcdir, outdir, i, data, &m));
    }
    out
}

#[test]
fn emitters_stop_at_the_end_of_every_sequence() {
    let dir = common::judges::out_dir("edit-emitters");
    let (srcdir, outdir) = (dir.join("sources"), dir.join("out"));
    std::fs::create_dir_all(&srcdir).unwrap();
    std::fs::create_dir_all(&outdir).unwrap();
    let results = common::over_models(|i, row, data, m| {
        let has = !emitters(&m).is_empty() && !m.sequences.is_empty();
        (has && row.format == "mdx").then(|| one(i, &row.local_path, &m, &srcdir, &outdir, data))
    });
    let sum = |f: fn(&Outcome) -> usize| results.iter().map(f).sum::<usize>();
    let failures: Vec<&String> = results.iter().flat_map(|r| &r.failures).collect();
    println!(
        "edit_emitters: {} MDX models with emitters: {} sequences stopped ({} refused: their last frame is another's); {} emitters invisible on the last frame, {} visibilities as before, {} failures",
        results.len(),
        sum(|r| r.stopped),
        sum(|r| r.refused),
        sum(|r| r.ends),
        sum(|r| r.before),
        failures.len()
    );
    for f in failures.iter().take(20) {
        println!("  {f}");
    }
    let written: Vec<(PathBuf, usize)> = results.iter().filter_map(|r| r.written.clone()).collect();
    common::judges::peers_read(&srcdir, &outdir, &written, "edit_emitters");
    assert!(results.len() > 100, "{}", results.len());
    assert!(failures.is_empty());
}
