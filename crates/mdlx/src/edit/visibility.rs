//! Geoset visibility taken from the source of a transfer (see [`super::transfer`]).
//!
//! Geosets have no names, so each of the target's pairs with the source geoset that
//! follows most of the same bones (its bones paired as the transfer pairs them; ties go to
//! the first). In each transferred sequence, a paired geoset shows as its source geoset
//! shows: the source's alpha keys of that sequence (or its static alpha, where it has no
//! keys there) replace the held Stand value. A geoset that pairs with none holds its
//! Stand visibility, as it would without this; the report lists the pairs and the rest.

use super::Report;
use crate::anim::sample::{sample_keys, sorted_keys, Window};
use crate::model::{Animation, AnyTrack, Key, Model, Node, Track};
use crate::spec::track::KGAO;
use std::collections::{BTreeSet, HashMap};

/// The node indices (in [`Model::nodes`] order) each geoset of `m` follows.
fn followed(m: &Model) -> Vec<BTreeSet<usize>> {
    let index: HashMap<u32, usize> = (m.nodes().enumerate())
        .map(|(i, n): (usize, &Node)| (n.object_id, i))
        .collect();
    (m.geosets.iter())
        .map(|g| {
            (g.matrix_indices.iter())
                .filter_map(|id| index.get(id).copied())
                .collect()
        })
        .collect()
}

/// For each target geoset, the source geoset it pairs with.
fn pair_geosets(target: &Model, source: &Model, pairs: &[Option<usize>]) -> Vec<Option<usize>> {
    let (t, s) = (followed(target), followed(source));
    t.iter()
        .map(|bones| {
            let mapped: BTreeSet<usize> = bones.iter().filter_map(|&b| pairs[b]).collect();
            let best = (s.iter().enumerate())
                .map(|(j, sb)| (sb.intersection(&mapped).count(), j))
                .filter(|&(n, _)| n > 0)
                .max_by_key(|&(n, j)| (n, std::cmp::Reverse(j)));
            best.map(|(_, j)| j)
        })
        .collect()
}

/// The alpha keys the source geoset `j` reads in `[from[0], from[1]]`, moved to `start`
/// (its static alpha at `start` where it has none there).
fn alpha_keys(source: &Model, j: usize, from: [i64; 2], start: i64) -> Track<f32> {
    let ga = (source.geoset_animations.iter()).find(|a| a.geoset_id == j as i32);
    let alpha = ga.map_or(1.0, |a| a.alpha);
    let track = ga.and_then(|a| a.tracks.float(KGAO));
    let mut out = Track {
        interpolation: track.map_or(crate::model::Interpolation::None, |t| t.interpolation),
        global_sequence_id: -1,
        keys: Vec::new(),
    };
    if let Some(t) = track.filter(|t| t.global_sequence_id < 0) {
        let sorted = sorted_keys(t);
        out.keys = (sorted.iter())
            .filter(|k| (from[0]..=from[1]).contains(&i64::from(k.time)))
            .map(|k| Key {
                time: (i64::from(k.time) - from[0] + start) as i32,
                ..*k
            })
            .collect();
        if out.keys.is_empty() {
            let w = Window {
                frame: from[0] as f64,
                lo: from[0],
                hi: from[1],
            };
            let v = sample_keys(&sorted, t.interpolation, w).unwrap_or(alpha);
            out.keys.push(Key::at(start as i32, v));
        }
    } else {
        out.keys.push(Key::at(start as i32, alpha));
    }
    out
}

/// Target geosets show in the new sequences (`placed`: source interval, new start) as
/// their paired source geosets do; `pairs` pairs target nodes with source nodes.
pub(super) fn take_visibility(
    model: &mut Model,
    source: &Model,
    pairs: &[Option<usize>],
    placed: &[([i64; 2], i64)],
    report: &mut Report,
) {
    let geosets = pair_geosets(model, source, pairs);
    let starts: BTreeSet<i64> = placed.iter().map(|p| p.1).collect();
    let (mut said, mut unpaired) = (Vec::new(), Vec::new());
    let mut stepped = false;
    for (g, j) in geosets.iter().enumerate() {
        let Some(j) = *j else {
            unpaired.push(g.to_string());
            continue;
        };
        let ga = super::fade::geoset_animation(model, g);
        if !ga.tracks.0.iter().any(|a| a.tag == KGAO) {
            ga.tracks.0.push(Animation {
                tag: KGAO,
                track: AnyTrack::Float(Track {
                    interpolation: crate::model::Interpolation::None,
                    global_sequence_id: -1,
                    keys: Vec::new(),
                }),
            });
        }
        let Some(AnyTrack::Float(t)) = (ga.tracks.0.iter_mut())
            .find(|a| a.tag == KGAO)
            .map(|a| &mut a.track)
        else {
            continue;
        };
        if t.global_sequence_id >= 0 {
            unpaired.push(format!("{g} (its alpha runs on a global sequence)"));
            continue;
        }
        // The held Stand value goes; the source's keys come.
        t.keys.retain(|k| !starts.contains(&i64::from(k.time)));
        for &(from, start) in placed {
            stepped |= super::transfer::append(t, alpha_keys(source, j, from, start), false, false);
        }
        said.push(format!("{g}<-{j}"));
    }
    if !said.is_empty() {
        report.changed.push(format!(
            "geosets showing as the source's (target<-source): {}",
            said.join(", ")
        ));
    }
    if stepped {
        report.changed.push(
            "geoset alphas step in one model and not the other: each stepped key held by another 1 ms before the next".into(),
        );
    }
    if !unpaired.is_empty() {
        report.changed.push(format!(
            "geosets holding their Stand visibility (no source geoset follows their bones): {}",
            unpaired.join(", ")
        ));
    }
}
