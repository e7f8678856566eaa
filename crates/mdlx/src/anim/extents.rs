//! Extents recomputed from what the model draws: the game culls and selects a model by
//! them, so one that is too small makes a unit vanish at the screen's edge or unclickable.
//!
//! - A geoset's sequence extent bounds its vertices as the sequence poses them, sampled at
//!   its start, its end, every key time inside it, and every 10 ms between (at most 2,000
//!   moments a sequence; at 1/30 s, fast spins and bursts overshot the boxes by up to 6.5%
//!   of the model's size between samples, at 10 ms by under 1%), counting a geoset only
//!   where it shows (its alpha above 0);
//!   a geoset that never shows in a sequence is given its rest-pose box there.
//! - A geoset's extent bounds its rest-pose vertices and every sequence extent of its own,
//!   as the game's models have it; a sequence's extent, every geoset's for it; the model's,
//!   every geoset's.
//! - The radius: for a geoset at rest, the farthest vertex from the box's middle (what the
//!   game's models hold: `Orc_Exp`'s first geoset stores 136.472, its farthest vertex is
//!   136.47 from the middle); for the posed and merged boxes, half the box's diagonal,
//!   which holds every point of the box.

use super::mesh::posed_geoset;
use super::{Clock, Skeleton};
use crate::model::visit::{visit_tracks, Owner, TrackVisitor};
use crate::model::{Extent, Model, Track, Tracks};
use std::collections::BTreeSet;

/// The most moments a sequence is posed at.
const MOST_SAMPLES: usize = 2000;

/// The step between moments where keys are far apart: 100 a second.
const STEP_MS: f64 = 10.0;

/// A growing box.
#[derive(Clone, Copy)]
struct Bounds {
    lo: [f32; 3],
    hi: [f32; 3],
}

impl Bounds {
    const EMPTY: Bounds = Bounds {
        lo: [f32::INFINITY; 3],
        hi: [f32::NEG_INFINITY; 3],
    };

    fn add(&mut self, p: [f32; 3]) {
        if p.iter().all(|x| x.is_finite()) {
            self.lo = [0, 1, 2].map(|i| self.lo[i].min(p[i]));
            self.hi = [0, 1, 2].map(|i| self.hi[i].max(p[i]));
        }
    }

    fn merge(&mut self, b: &Bounds) {
        if !b.is_empty() {
            self.add(b.lo);
            self.add(b.hi);
        }
    }

    fn is_empty(&self) -> bool {
        self.lo[0] > self.hi[0]
    }

    fn of(e: &Extent) -> Bounds {
        let mut b = Bounds::EMPTY;
        if (0..3).all(|i| e.min[i] <= e.max[i]) {
            b.add(e.min);
            b.add(e.max);
        }
        b
    }

    /// As an extent whose radius is half the diagonal.
    fn extent(&self) -> Extent {
        if self.is_empty() {
            return Extent::default();
        }
        let d: f32 = (0..3).map(|i| (self.hi[i] - self.lo[i]).powi(2)).sum();
        Extent {
            radius: d.sqrt() / 2.0,
            min: self.lo,
            max: self.hi,
        }
    }
}

/// The rest-pose extent of some points: their box, and the farthest from its middle.
pub(crate) fn rest_extent(points: &[[f32; 3]]) -> Extent {
    let mut b = Bounds::EMPTY;
    points.iter().for_each(|p| b.add(*p));
    if b.is_empty() {
        return Extent::default();
    }
    let mid: [f32; 3] = [0, 1, 2].map(|i| (b.lo[i] + b.hi[i]) / 2.0);
    let far = (points.iter())
        .filter(|p| p.iter().all(|x| x.is_finite()))
        .map(|p| (0..3).map(|i| (p[i] - mid[i]).powi(2)).sum::<f32>())
        .fold(0.0f32, f32::max);
    Extent {
        radius: far.sqrt(),
        min: b.lo,
        max: b.hi,
    }
}

/// Every key time of the tracks that follow the sequences.
struct KeyTimes(BTreeSet<i64>);

impl<'m> TrackVisitor<'m> for KeyTimes {
    fn tracks(&mut self, _: Owner, _: &dyn Fn() -> String, tracks: &'m Tracks) {
        for a in tracks.iter() {
            let times: Vec<(i32, i32)> = match &a.track {
                crate::model::AnyTrack::Float(t) => times(t),
                crate::model::AnyTrack::Vector3(t) => times(t),
                crate::model::AnyTrack::Quaternion(t) => times(t),
                crate::model::AnyTrack::Integer(t) => times(t),
            };
            for (g, time) in times {
                if g < 0 {
                    self.0.insert(i64::from(time));
                }
            }
        }
    }
    fn slot(&mut self, _: Owner, _: &dyn Fn() -> String, _: &'m Track<u32>) {}
}

fn times<T>(t: &Track<T>) -> Vec<(i32, i32)> {
    t.keys
        .iter()
        .map(|k| (t.global_sequence_id, k.time))
        .collect()
}

/// The moments sequence `s` is posed at, in ms since its start.
fn moments(model: &Model, s: usize, keys: &BTreeSet<i64>) -> Vec<f64> {
    let [start, end] = model.sequences[s].interval.map(i64::from);
    if end < start {
        return vec![0.0];
    }
    let mut at: BTreeSet<i64> = keys.range(start..=end).map(|t| t - start).collect();
    at.insert(0);
    at.insert(end - start);
    let mut t = 0.0;
    let mut out: Vec<f64> = at.into_iter().map(|t| t as f64).collect();
    while t < (end - start) as f64 {
        out.push(t);
        t += STEP_MS;
    }
    out.sort_by(f64::total_cmp);
    out.dedup();
    if out.len() > MOST_SAMPLES {
        let step = out.len() as f64 / MOST_SAMPLES as f64;
        out = (0..MOST_SAMPLES)
            .map(|i| out[(i as f64 * step) as usize])
            .chain(out.last().copied())
            .collect();
    }
    out
}

/// The box of each geoset of `which` over the poses of sequence `s` (empty where it never
/// shows), by index into `which`.
fn sequence_bounds(
    model: &Model,
    skeleton: &Skeleton,
    s: usize,
    keys: &BTreeSet<i64>,
    which: &std::ops::Range<usize>,
) -> Vec<Bounds> {
    let mut out = vec![Bounds::EMPTY; which.len()];
    for t in moments(model, s, keys) {
        let clock = Clock::unwrapped(model, s, t);
        let pose = skeleton.pose_at(&clock, None);
        for i in which.clone() {
            let g = posed_geoset(model, skeleton, &pose, &clock, i);
            if g.visible {
                g.positions
                    .iter()
                    .for_each(|p| out[i - which.start].add(*p));
            }
        }
    }
    out
}

/// The model's extent, each sequence's, and each geoset's with its sequence extents.
type Extents = (Extent, Vec<Extent>, Vec<(Extent, Vec<Extent>)>);

/// Every extent of `model`, to tell whether any changed.
fn every_extent(model: &Model) -> Extents {
    (
        model.info.extent,
        model.sequences.iter().map(|s| s.extent).collect(),
        (model.geosets.iter())
            .map(|g| (g.extent, g.sequence_extents.clone()))
            .collect(),
    )
}

/// Recomputes every extent of `model` (see the module docs); whether any changed.
pub fn recompute_extents(model: &mut Model) -> bool {
    let before = every_extent(model);
    let all = 0..model.geosets.len();
    recompute(model, all, false);
    every_extent(model) != before
}

/// Recomputes the extents of the geosets from `first` on (as [`recompute_extents`] does)
/// and grows the model's and each sequence's to hold them, leaving the other geosets' as
/// they are: for geosets just added (see [`crate::edit::merge`]).
pub(crate) fn grow_extents(model: &mut Model, first: usize) {
    let which = first.min(model.geosets.len())..model.geosets.len();
    recompute(model, which, true);
}

/// Recomputes the extents of the geosets `which`; the model's and the sequences' are
/// made anew from every geoset's, or (`grow`) grown to hold those of `which`.
fn recompute(model: &mut Model, which: std::ops::Range<usize>, grow: bool) {
    let rest: Vec<Extent> = (model.geosets[which.clone()].iter())
        .map(|g| rest_extent(&g.vertices))
        .collect();
    let mut keys = KeyTimes(BTreeSet::new());
    visit_tracks(model, &mut keys);
    let per_sequence: Vec<Vec<Bounds>> = {
        let skeleton = Skeleton::new(model);
        (0..model.sequences.len())
            .map(|s| sequence_bounds(model, &skeleton, s, &keys.0, &which))
            .collect()
    };
    let start = which.start;
    for (k, g) in model.geosets[which].iter_mut().enumerate() {
        let mut all = Bounds::of(&rest[k]);
        g.sequence_extents = per_sequence
            .iter()
            .map(|b| {
                let b = if b[k].is_empty() {
                    Bounds::of(&rest[k])
                } else {
                    b[k]
                };
                all.merge(&b);
                b.extent()
            })
            .collect();
        g.extent = if all.is_empty() || per_sequence.is_empty() {
            rest[k]
        } else {
            all.extent()
        };
    }
    let from = if grow { start } else { 0 };
    let mut whole = if grow {
        Bounds::of(&model.info.extent)
    } else {
        Bounds::EMPTY
    };
    let mut seq_whole: Vec<Bounds> = (model.sequences.iter())
        .map(|s| {
            if grow {
                Bounds::of(&s.extent)
            } else {
                Bounds::EMPTY
            }
        })
        .collect();
    for g in &model.geosets[from..] {
        for (s, e) in g.sequence_extents.iter().enumerate().take(seq_whole.len()) {
            seq_whole[s].merge(&Bounds::of(e));
        }
        whole.merge(&Bounds::of(&g.extent));
    }
    for (s, b) in model.sequences.iter_mut().zip(&seq_whole) {
        s.extent = b.extent();
    }
    model.info.extent = whole.extent();
}
