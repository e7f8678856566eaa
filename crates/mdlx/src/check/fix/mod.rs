//! The safe repairs of `mdlx check --fix`: changes that make a model smaller or tidier
//! and cannot change how it looks or moves.
//!
//! | rule | repair |
//! |---|---|
//! | `unsorted-keys` | a track's keys put in time order (a stable sort: keys at one time keep their order) |
//! | `duplicate-key` | of several keys at one time, all but the last stored removed: the one the sampler uses ([`crate::anim::sample::sorted_keys`]) |
//! | `redundant-key` | a key its neighbours reproduce removed (see below) |
//! | `unused-material`, `unused-texture`, `unused-texture-animation`, `unused-global-sequence` | a record no index refers to removed, every reference to the others renumbered |
//! | `stale-extent` | every extent recomputed from the model's poses ([`crate::anim::recompute_extents`]) |
//! | `missing-portrait-camera` | with the `render` feature: a portrait camera added, on the head at the opening of `Portrait` ([`crate::render::icon::place_portrait_camera`]; a camera moves no node, so the pose check is unaffected) |
//! | `sequence-extent-count` | a version 800 geoset without one extent per sequence given one: the geoset's own extent for each (extents bound what the game culls and selects, so one that holds the whole geoset changes nothing it draws) |
//!
//! **Redundant keys.** A key goes when the track's value with and without it is the same,
//! within a tenth of the tolerance, at its time and half way to each neighbour, and:
//! - the keys before and after it (after earlier removals) lie in every window it lies in
//!   (every sequence interval holding its time, or its global sequence), and it lies in one:
//!   the first and last key of a window and a key alone in one stay;
//! - step tracks (and integer tracks, which always step): its value is the previous key's;
//! - linear tracks: its value is the straight line (slerp for rotations) between its
//!   neighbours;
//! - Hermite and Bezier tracks: only where the curve is flat: the three values are equal
//!   and the tangents on both sides hold the curve there (0 for a Hermite float or vector,
//!   whose tangents are slopes; the value itself otherwise). Unknown interpolations, and
//!   tracks on a global sequence the model does not have, keep every key. Event tracks
//!   (`KEVT`) are not touched: their times are events, not samples.
//!
//! **Conservative references.** When any reference of a kind names no record (out of range),
//! no record of that kind is removed: renumbering could make it name another record.
//!
//! **The pose check.** [`fix`] then samples the original and the fixed model and refuses
//! (with [`FixError::PoseChanged`]) if anything differs by more than the tolerance
//! (relative to `max(1, |value|)`; translations of node matrices relative to the model's
//! size, the largest pivot coordinate). It samples every sequence at its start, its end
//! and every distinct time of an original key inside it, and the global sequences at every
//! distinct key time of their tracks; at each it compares every node's world matrix, every
//! geoset's alpha, colour and layer alpha ([`crate::anim::geoset_alphas`]), and the value of
//! every track of every record that stays (texture ids through the renumbering).
//! Rotations are compared as rotations: normalised, `q` and `-q` alike.

mod keys;
mod pose;
#[cfg(test)]
mod tests;

use crate::model::usage::{self, Owner, RefKind, TrackVisitor, Usage};
use crate::model::{AnyTrack, Model, Track, Tracks};
use keys::{KeyFixer, Value};
use pose::compare;
use std::fmt;

/// How [`fix`] works.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixOptions {
    /// The largest change of any sampled value the pose check accepts, relative to
    /// `max(1, |value|)`. A key is redundant when removing it changes its track by at most
    /// a tenth of this.
    pub tolerance: f32,
}

impl Default for FixOptions {
    fn default() -> Self {
        FixOptions { tolerance: 1e-5 }
    }
}

/// One repair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixAction {
    /// The id of the check rule whose finding this repairs (`redundant-key`, ...).
    pub rule: &'static str,
    /// What was repaired, by the original model's field names: `bones[4].tracks.KGRT`,
    /// `textures[3]`.
    pub path: String,
    /// What was done.
    pub message: String,
}

/// A repaired model.
#[derive(Clone, Debug, PartialEq)]
pub struct Fixed {
    /// The model after every repair.
    pub model: Model,
    /// The repairs, in the order they were made.
    pub actions: Vec<FixAction>,
    /// How many moments the pose check compared (0 when nothing was repaired).
    pub poses_checked: usize,
}

/// Why [`fix`] gave no model.
#[derive(Clone, Debug, PartialEq)]
pub enum FixError {
    /// The repaired model poses differently from the original: a bug in a repair. The model
    /// is not returned.
    PoseChanged {
        /// The sequence's name (or `global sequences` when sampling the global clock).
        sequence: String,
        /// The time, in the model's milliseconds (on the global clock for global
        /// sequences).
        time_ms: i32,
        /// What differed: a track (`bones[2].tracks.KGRT`), a node's world matrix
        /// (`bones[2] world matrix`) or a geoset's alpha or colour.
        what: String,
        /// The difference, relative to `max(1, |value|)` (infinite when one side has a
        /// value and the other none).
        difference: f32,
    },
    /// The repaired model's tracks no longer pair with the original's: a bug in a repair.
    Mismatch {
        /// What did not pair.
        what: String,
    },
}

impl fmt::Display for FixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixError::PoseChanged {
                sequence,
                time_ms,
                what,
                difference,
            } => write!(
                f,
                "the repairs would change the pose: {what} differs by {difference} in \
                 {sequence} at {time_ms} ms; nothing was repaired"
            ),
            FixError::Mismatch { what } => write!(
                f,
                "the repaired model's tracks do not pair with the original's ({what}); \
                 nothing was repaired"
            ),
        }
    }
}

impl std::error::Error for FixError {}

/// Repairs `model` (see the module docs), checks that the repaired model poses as the
/// original does, and returns it with what was done.
pub fn fix(model: &Model, opts: &FixOptions) -> Result<Fixed, FixError> {
    let mut m = model.clone();
    let mut keys = KeyFixer::new(model, opts.tolerance);
    usage::visit_tracks_mut(&mut m, &mut keys);
    let mut actions = keys.actions;
    let maps = remove_unused(&mut m, &mut actions);
    sequence_extents(&mut m, &mut actions);
    stale_extents(&mut m, &mut actions);
    #[cfg(feature = "render")]
    portrait_camera(&mut m, &mut actions);
    let poses_checked = if actions.is_empty() {
        0
    } else {
        compare(model, &m, &maps, opts.tolerance)?
    };
    Ok(Fixed {
        model: m,
        actions,
        poses_checked,
    })
}

/// Drops every key `--fix` finds redundant (with the keys it sorts and the duplicates it
/// drops) from every track of `model`, pass after pass until none is left; returns how
/// many keys went. No pose check: the redundancy test itself bounds the change.
pub(crate) fn thin(model: &mut Model) -> usize {
    let mut total = 0;
    for _ in 0..16 {
        let before = key_count(model);
        let mut keys = KeyFixer::new(model, FixOptions::default().tolerance);
        usage::visit_tracks_mut(model, &mut keys);
        let after = key_count(model);
        total += before - after;
        if after == before {
            break;
        }
    }
    total
}

/// How many keys the tracks of `model` hold (events not counted).
fn key_count(model: &Model) -> usize {
    struct Count(usize);
    impl<'m> TrackVisitor<'m> for Count {
        fn tracks(&mut self, _: Owner, _: &dyn Fn() -> String, tracks: &'m Tracks) {
            for a in tracks.iter() {
                self.0 += match &a.track {
                    AnyTrack::Float(t) => t.keys.len(),
                    AnyTrack::Vector3(t) => t.keys.len(),
                    AnyTrack::Quaternion(t) => t.keys.len(),
                    AnyTrack::Integer(t) => t.keys.len(),
                };
            }
        }
        fn slot(&mut self, _: Owner, _: &dyn Fn() -> String, track: &'m Track<u32>) {
            self.0 += track.keys.len();
        }
    }
    let mut c = Count(0);
    usage::visit_tracks(model, &mut c);
    c.0
}

/// Which keys `--fix` would drop as redundant, for the `redundant-key` rule: the check
/// flags exactly what the fixer removes.
pub(crate) struct Redundancy(KeyFixer);

impl Redundancy {
    /// For the tracks of `model`, at the default tolerance.
    pub(crate) fn new(model: &Model) -> Redundancy {
        Redundancy(KeyFixer::new(model, FixOptions::default().tolerance))
    }

    /// The indices of the keys the fixer would drop from `track` as redundant, after it
    /// has put the keys in order and dropped duplicates (as `--fix` does first).
    pub(crate) fn keys(&self, track: &AnyTrack) -> Vec<usize> {
        fn one<T: Value>(r: &KeyFixer, t: &Track<T>) -> Vec<usize> {
            if t.keys.windows(2).all(|w| w[0].time < w[1].time) {
                return r.redundant(t);
            }
            // In order, the last stored of each time kept (the sampler's choice), with
            // each key's index in the track.
            let mut order: Vec<usize> = (0..t.keys.len()).collect();
            order.sort_by_key(|&i| t.keys[i].time);
            let mut kept: Vec<usize> = Vec::with_capacity(order.len());
            for i in order {
                match kept.last_mut() {
                    Some(last) if t.keys[*last].time == t.keys[i].time => *last = i,
                    _ => kept.push(i),
                }
            }
            let clean = Track {
                interpolation: t.interpolation,
                global_sequence_id: t.global_sequence_id,
                keys: kept.iter().map(|&i| t.keys[i]).collect(),
            };
            r.redundant(&clean).into_iter().map(|k| kept[k]).collect()
        }
        match track {
            AnyTrack::Float(t) => one(&self.0, t),
            AnyTrack::Vector3(t) => one(&self.0, t),
            AnyTrack::Quaternion(t) => one(&self.0, t),
            AnyTrack::Integer(t) => one(&self.0, t),
        }
    }
}

/// Gives every geoset of a version 800 model one extent per sequence (Magos fails to read
/// a classic geoset without): the geoset's own, for each.
fn sequence_extents(m: &mut Model, actions: &mut Vec<FixAction>) {
    if m.version != crate::spec::version::CLASSIC {
        return;
    }
    let n = m.sequences.len();
    for (i, g) in m.geosets.iter_mut().enumerate() {
        if g.sequence_extents.len() != n {
            actions.push(FixAction {
                rule: "sequence-extent-count",
                path: format!("geosets[{i}].sequence_extents"),
                message: format!(
                    "{} extents for {n} sequences: each sequence given the geoset's own extent",
                    g.sequence_extents.len()
                ),
            });
            g.sequence_extents = vec![g.extent; n];
        }
    }
}

/// Extents that do not hold their vertices: every extent recomputed from the poses
/// ([`crate::anim::recompute_extents`]); what the model draws does not change.
fn stale_extents(m: &mut Model, actions: &mut Vec<FixAction>) {
    let stale = super::geometry::stale_extents(m);
    if stale.is_empty() {
        return;
    }
    let first = stale[0].0.path.clone();
    crate::anim::recompute_extents(m);
    let e = m.info.extent;
    actions.push(FixAction {
        rule: "stale-extent",
        path: first,
        message: format!(
            "{} extent(s) did not hold their vertices: every extent recomputed from the poses (the model's now {:?} to {:?})",
            stale.len(),
            e.min,
            e.max
        ),
    });
}

/// A portrait (a model with a sequence whose name's first word is Portrait) without a
/// camera gets one on its head (with the `render` feature, which frames it).
#[cfg(feature = "render")]
fn portrait_camera(m: &mut Model, actions: &mut Vec<FixAction>) {
    let portrait =
        (m.sequences.iter()).any(|s| super::anim::sequence_word(&s.name.text()) == "portrait");
    if !portrait || !m.cameras.is_empty() {
        return;
    }
    let view = crate::render::icon::PortraitView::default();
    if let Ok(message) = crate::render::icon::place_portrait_camera(m, &view) {
        actions.push(FixAction {
            rule: "missing-portrait-camera",
            path: "cameras".into(),
            message,
        });
    }
}

/// Old index to new, per kind of record removed.
#[derive(Clone, Debug, Default)]
struct Maps {
    textures: Option<Vec<Option<usize>>>,
    materials: Option<Vec<Option<usize>>>,
    texture_animations: Option<Vec<Option<usize>>>,
}

/// Removes unreferenced materials, then textures, texture animations and global sequences
/// (so that what only a removed record referred to goes too).
fn remove_unused(m: &mut Model, actions: &mut Vec<FixAction>) -> Maps {
    let before = Usage::of(m);
    let mut maps = Maps::default();
    for kind in RefKind::ALL {
        let usage = Usage::of(m);
        if usage.invalid(kind).next().is_some() {
            continue;
        }
        let mut drop = vec![false; kind.len(m)];
        for i in usage.unused(kind) {
            drop[i] = true;
        }
        if !drop.contains(&true) {
            continue;
        }
        let Ok(map) = usage::remove(m, kind, &drop) else {
            continue;
        };
        for (i, _) in drop.iter().enumerate().filter(|(_, &d)| d) {
            let message = if before.counts(kind)[i] > 0 {
                "removed: only records removed as unused referred to it"
            } else {
                "removed: nothing refers to it"
            };
            actions.push(FixAction {
                rule: kind.unused_rule(),
                path: format!("{}[{i}]", kind.field()),
                message: message.into(),
            });
        }
        match kind {
            RefKind::Texture => maps.textures = Some(map),
            RefKind::Material => maps.materials = Some(map),
            RefKind::TextureAnimation => maps.texture_animations = Some(map),
            RefKind::GlobalSequence => {}
        }
    }
    maps
}
