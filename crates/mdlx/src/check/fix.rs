//! The safe repairs of `mdlx check --fix`: changes that make a model smaller or tidier
//! and cannot change how it looks or moves.
//!
//! | rule | repair |
//! |---|---|
//! | `unsorted-keys` | a track's keys put in time order (a stable sort: keys at one time keep their order) |
//! | `duplicate-key` | of several keys at one time, all but the last stored removed: the one the sampler uses ([`crate::anim::sample::sorted_keys`]) |
//! | `redundant-key` | a key its neighbours reproduce removed (see below) |
//! | `unused-material`, `unused-texture`, `unused-texture-animation`, `unused-global-sequence` | a record no index refers to removed, every reference to the others renumbered |
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

use super::usage::{self, Owner, RefKind, TrackVisitor, TrackVisitorMut, Usage};
use crate::anim::math::{qnormalize, Quat, Vec3};
use crate::anim::sample::{sample_keys, sorted_keys, AnimTime, Clock, TrackValue, Window};
use crate::anim::{geoset_alphas, Skeleton};
use crate::format::track::KMTF;
use crate::model::{AnyTrack, Interpolation, Key, Model, Track, Tracks};
use std::borrow::Cow;
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

/// Redundant keys may change their track by this share of the tolerance: the rest is left
/// for what a change becomes through the node hierarchy.
const DETECT_SHARE: f32 = 0.1;

/// A run of removed keys between two kept ones is checked as a whole against the straight
/// line that replaces it; runs longer than this end (the next key stays) unless every key
/// of the run equals the first, so that the check stays linear in the keys.
const MAX_RUN: usize = 32;

/// Repairs `model` (see the module docs), checks that the repaired model poses as the
/// original does, and returns it with what was done.
pub fn fix(model: &Model, opts: &FixOptions) -> Result<Fixed, FixError> {
    let mut m = model.clone();
    let mut keys = KeyFixer {
        windows: Windows::of(model),
        tolerance: opts.tolerance * DETECT_SHARE,
        actions: Vec::new(),
    };
    usage::visit_tracks_mut(&mut m, &mut keys);
    let mut actions = keys.actions;
    let maps = remove_unused(&mut m, &mut actions);
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
        let mut keys = KeyFixer {
            windows: Windows::of(model),
            tolerance: FixOptions::default().tolerance * DETECT_SHARE,
            actions: Vec::new(),
        };
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
        Redundancy(KeyFixer {
            windows: Windows::of(model),
            tolerance: FixOptions::default().tolerance * DETECT_SHARE,
            actions: Vec::new(),
        })
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

/// The windows a track's keys are read in.
struct Windows {
    /// Every sequence's interval (only those that run forwards).
    sequences: Vec<(i64, i64)>,
    /// Global sequence lengths.
    globals: Vec<u32>,
}

impl Windows {
    fn of(model: &Model) -> Windows {
        Windows {
            sequences: (model.sequences.iter())
                .map(|s| (i64::from(s.interval[0]), i64::from(s.interval[1])))
                .filter(|(a, b)| a <= b)
                .collect(),
            globals: model.global_sequences.clone(),
        }
    }

    /// The windows of a track with this global sequence id (none: it is never sampled).
    fn of_track(&self, global_sequence_id: i32) -> Cow<'_, [(i64, i64)]> {
        if global_sequence_id < 0 {
            return Cow::Borrowed(&self.sequences);
        }
        match self.globals.get(global_sequence_id as usize) {
            Some(0) => Cow::Owned(vec![(i64::MIN, i64::MAX)]),
            Some(&n) => Cow::Owned(vec![(0, i64::from(n))]),
            None => Cow::Owned(Vec::new()),
        }
    }
}

/// A value a track holds, as the fixer and the pose check compare it.
trait Value: TrackValue + PartialEq + fmt::Debug {
    /// Integer tracks: every interpolation steps.
    const STEPS: bool = false;
    /// How far apart `a` and `b` are, relative to `max(1, |a|)`.
    fn difference(a: Self, b: Self) -> f32;
    /// Whether `tangent`, next to a key of value `v`, keeps the curve flat there.
    fn flat_tangent(v: Self, tangent: Self, interpolation: Interpolation, tol: f32) -> bool;
}

fn rel(a: f32, b: f32) -> f32 {
    if a == b || (a.is_nan() && b.is_nan()) {
        0.0
    } else {
        let d = (a - b).abs() / a.abs().max(1.0);
        if d.is_nan() {
            f32::INFINITY
        } else {
            d
        }
    }
}

impl Value for f32 {
    fn difference(a: f32, b: f32) -> f32 {
        rel(a, b)
    }
    fn flat_tangent(v: f32, t: f32, i: Interpolation, tol: f32) -> bool {
        let flat = if i == Interpolation::Hermite { 0.0 } else { v };
        rel(flat, t) <= tol
    }
}

impl Value for Vec3 {
    fn difference(a: Vec3, b: Vec3) -> f32 {
        (0..3).map(|k| rel(a[k], b[k])).fold(0.0, f32::max)
    }
    fn flat_tangent(v: Vec3, t: Vec3, i: Interpolation, tol: f32) -> bool {
        (0..3).all(|k| f32::flat_tangent(v[k], t[k], i, tol))
    }
}

impl Value for Quat {
    /// As rotations: both normalised, `q` and `-q` the same.
    fn difference(a: Quat, b: Quat) -> f32 {
        let (a, b) = (qnormalize(a), qnormalize(b));
        let same = (0..4).map(|k| rel(a[k], b[k])).fold(0.0, f32::max);
        let opposite = (0..4).map(|k| rel(a[k], -b[k])).fold(0.0, f32::max);
        same.min(opposite)
    }
    /// Rotation splines are squads through the tangents as control points: flat when
    /// they are the value, as stored.
    fn flat_tangent(v: Quat, t: Quat, _: Interpolation, tol: f32) -> bool {
        (0..4).all(|k| rel(v[k], t[k]) <= tol)
    }
}

impl Value for u32 {
    const STEPS: bool = true;
    fn difference(a: u32, b: u32) -> f32 {
        if a == b {
            0.0
        } else {
            f32::INFINITY
        }
    }
    fn flat_tangent(_: u32, _: u32, _: Interpolation, _: f32) -> bool {
        true
    }
}

/// Sorts, removes duplicate and redundant keys of every track it is shown.
struct KeyFixer {
    windows: Windows,
    /// The largest change a redundant key's removal may make.
    tolerance: f32,
    actions: Vec<FixAction>,
}

impl TrackVisitorMut for KeyFixer {
    fn tracks(&mut self, _: Owner, at: &dyn Fn() -> String, tracks: &mut Tracks) {
        for a in &mut tracks.0 {
            let path = || format!("{}.tracks.{}", at(), a.tag);
            match &mut a.track {
                AnyTrack::Float(t) => self.fix_track(t, &path),
                AnyTrack::Vector3(t) => self.fix_track(t, &path),
                AnyTrack::Quaternion(t) => self.fix_track(t, &path),
                AnyTrack::Integer(t) => self.fix_track(t, &path),
            }
        }
    }

    fn slot(&mut self, _: Owner, at: &dyn Fn() -> String, track: &mut Track<u32>) {
        self.fix_track(track, at);
    }
}

/// Up to eight times, as `a, b, c ms` (and how many more).
fn times(t: impl Iterator<Item = i32>) -> String {
    let all: Vec<i32> = t.collect();
    let mut s = (all.iter().take(8))
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    s.push_str(" ms");
    if all.len() > 8 {
        s.push_str(&format!(" and {} more", all.len() - 8));
    }
    s
}

fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

impl KeyFixer {
    fn act(&mut self, rule: &'static str, path: &dyn Fn() -> String, message: String) {
        self.actions.push(FixAction {
            rule,
            path: path(),
            message,
        });
    }

    fn fix_track<T: Value>(&mut self, track: &mut Track<T>, path: &dyn Fn() -> String) {
        let keys = &mut track.keys;
        if keys.windows(2).any(|w| w[0].time > w[1].time) {
            keys.sort_by_key(|k| k.time);
            let message = format!("{} put in time order", plural(keys.len(), "key"));
            self.act("unsorted-keys", path, message);
        }
        if keys.windows(2).any(|w| w[0].time == w[1].time) {
            let mut gone = Vec::new();
            let mut kept: Vec<Key<T>> = Vec::with_capacity(keys.len());
            for k in keys.drain(..) {
                match kept.last_mut() {
                    Some(last) if last.time == k.time => {
                        gone.push(k.time);
                        *last = k;
                    }
                    _ => kept.push(k),
                }
            }
            *keys = kept;
            let message = format!(
                "removed {} at {} where a later stored key has the same time (the sampler \
                 uses the last)",
                plural(gone.len(), "key"),
                times(gone.iter().copied())
            );
            self.act("duplicate-key", path, message);
        }
        // Removing keys can leave others that the keys around them now give back: thin
        // again until nothing changes (a few passes; the pose check still compares with
        // the original).
        let mut gone_times = Vec::new();
        for _ in 0..8 {
            let removed = self.redundant(track);
            if removed.is_empty() {
                break;
            }
            gone_times.extend(removed.iter().map(|&i| track.keys[i].time));
            let mut i = 0;
            let mut r = removed.iter().peekable();
            track.keys.retain(|_| {
                i += 1;
                if r.peek() == Some(&&(i - 1)) {
                    r.next();
                    false
                } else {
                    true
                }
            });
        }
        if !gone_times.is_empty() {
            gone_times.sort_unstable();
            let message = format!(
                "removed {} at {} that the keys around give back",
                plural(gone_times.len(), "key"),
                times(gone_times.iter().copied()),
            );
            self.act("redundant-key", path, message);
        }
    }

    /// The indices of the redundant keys of a track whose keys are in time order, one per
    /// time.
    fn redundant<T: Value>(&self, track: &Track<T>) -> Vec<usize> {
        let keys = &track.keys;
        let i = track.interpolation;
        let splines = matches!(i, Interpolation::Hermite | Interpolation::Bezier);
        if keys.len() < 3
            || !(T::STEPS || splines || i == Interpolation::None || i == Interpolation::Linear)
        {
            return Vec::new();
        }
        let splines = splines && !T::STEPS;
        let windows = self.windows.of_track(track.global_sequence_id);
        let tol = self.tolerance;
        let mut removed = Vec::new();
        let mut p = 0; // the last key kept
        let mut run_equal = true; // every key removed since p equals it
        for k in 1..keys.len() - 1 {
            let n = k + 1;
            let (kp, kk, kn) = (&keys[p], &keys[k], &keys[n]);
            let t = i64::from(kk.time);
            let mut inside = windows.iter().filter(|(lo, hi)| *lo <= t && t <= *hi);
            let framed = inside.clone().next().is_some()
                && inside.all(|(lo, hi)| *lo <= i64::from(kp.time) && i64::from(kn.time) <= *hi);
            let equal = kk.value == kp.value && kn.value == kp.value;
            let flat = !splines
                || (T::difference(kp.value, kk.value) <= tol
                    && T::difference(kp.value, kn.value) <= tol
                    && T::flat_tangent(kp.value, kp.out_tan, i, tol)
                    && T::flat_tangent(kp.value, kk.in_tan, i, tol)
                    && T::flat_tangent(kp.value, kk.out_tan, i, tol)
                    && T::flat_tangent(kp.value, kn.in_tan, i, tol));
            let run = k - p - 1;
            let whole = !(equal && run_equal);
            let ok = framed
                && flat
                && (!whole || run < MAX_RUN)
                && reproduced(keys, p, n, if whole { p + 1 } else { k }, i, tol);
            if ok {
                removed.push(k);
                run_equal &= kk.value == kp.value;
            } else {
                p = k;
                run_equal = true;
            }
        }
        removed
    }
}

/// Whether the keys `p..=n`, sampled at the times of keys `from..n` and half way between
/// each two keys from `from - 1` on, give what keys `p` and `n` alone give, within `tol`.
fn reproduced<T: Value>(
    keys: &[Key<T>],
    p: usize,
    n: usize,
    from: usize,
    i: Interpolation,
    tol: f32,
) -> bool {
    let all = &keys[p..=n];
    let ends = [keys[p], keys[n]];
    let at = |frame: f64| {
        let w = Window {
            frame,
            lo: i64::MIN,
            hi: i64::MAX,
        };
        match (sample_keys(all, i, w), sample_keys(&ends, i, w)) {
            (Some(a), Some(b)) => T::difference(a, b) <= tol,
            _ => false,
        }
    };
    (from..n).all(|k| at(f64::from(keys[k].time)))
        && (from - 1..n).all(|k| at((f64::from(keys[k].time) + f64::from(keys[k + 1].time)) / 2.0))
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

/// A track ready to sample many times.
struct Prepared<'m, T: Clone> {
    keys: Cow<'m, [Key<T>]>,
    interpolation: Interpolation,
    global_sequence_id: i32,
}

impl<'m, T: Value> Prepared<'m, T> {
    fn new(t: &'m Track<T>) -> Self {
        Prepared {
            keys: sorted_keys(t),
            interpolation: t.interpolation,
            global_sequence_id: t.global_sequence_id,
        }
    }

    fn sample(&self, clock: &Clock) -> Option<T> {
        let w = clock.window(self.global_sequence_id)?;
        sample_keys(&self.keys, self.interpolation, w)
    }
}

enum AnyPrepared<'m> {
    Float(Prepared<'m, f32>),
    Vector3(Prepared<'m, Vec3>),
    Quaternion(Prepared<'m, Quat>),
    /// `true`: the values are texture ids.
    Integer(Prepared<'m, u32>, bool),
}

impl AnyPrepared<'_> {
    fn kind(&self) -> u8 {
        match self {
            AnyPrepared::Float(_) => 0,
            AnyPrepared::Vector3(_) => 1,
            AnyPrepared::Quaternion(_) => 2,
            AnyPrepared::Integer(..) => 3,
        }
    }

    fn global_sequence_id(&self) -> i32 {
        match self {
            AnyPrepared::Float(t) => t.global_sequence_id,
            AnyPrepared::Vector3(t) => t.global_sequence_id,
            AnyPrepared::Quaternion(t) => t.global_sequence_id,
            AnyPrepared::Integer(t, _) => t.global_sequence_id,
        }
    }

    fn times(&self) -> Vec<i32> {
        fn t<T: Clone>(p: &Prepared<T>) -> Vec<i32> {
            p.keys.iter().map(|k| k.time).collect()
        }
        match self {
            AnyPrepared::Float(p) => t(p),
            AnyPrepared::Vector3(p) => t(p),
            AnyPrepared::Quaternion(p) => t(p),
            AnyPrepared::Integer(p, _) => t(p),
        }
    }
}

/// Collects the tracks of a model, leaving out those of removed records.
struct Collect<'m, 'a> {
    maps: Option<&'a Maps>,
    tracks: Vec<(String, AnyPrepared<'m>)>,
}

impl Collect<'_, '_> {
    fn kept(&self, owner: Owner) -> bool {
        let gone = |map: &Option<Vec<Option<usize>>>, i: usize| {
            map.as_ref().is_some_and(|m| m.get(i) == Some(&None))
        };
        match (self.maps, owner) {
            (Some(maps), Owner::Material(i)) => !gone(&maps.materials, i),
            (Some(maps), Owner::TextureAnimation(i)) => !gone(&maps.texture_animations, i),
            _ => true,
        }
    }
}

impl<'m> TrackVisitor<'m> for Collect<'m, '_> {
    fn tracks(&mut self, owner: Owner, at: &dyn Fn() -> String, tracks: &'m Tracks) {
        if !self.kept(owner) {
            return;
        }
        for a in tracks.iter() {
            let p = match &a.track {
                AnyTrack::Float(t) => AnyPrepared::Float(Prepared::new(t)),
                AnyTrack::Vector3(t) => AnyPrepared::Vector3(Prepared::new(t)),
                AnyTrack::Quaternion(t) => AnyPrepared::Quaternion(Prepared::new(t)),
                AnyTrack::Integer(t) => AnyPrepared::Integer(Prepared::new(t), a.tag == KMTF),
            };
            let path = if self.maps.is_some() {
                format!("{}.tracks.{}", at(), a.tag)
            } else {
                String::new()
            };
            self.tracks.push((path, p));
        }
    }

    fn slot(&mut self, owner: Owner, at: &dyn Fn() -> String, track: &'m Track<u32>) {
        if self.kept(owner) {
            let path = if self.maps.is_some() {
                at()
            } else {
                String::new()
            };
            self.tracks
                .push((path, AnyPrepared::Integer(Prepared::new(track), true)));
        }
    }
}

/// Where the comparison is: the sequence and time, for reports.
struct Moment<'a> {
    sequence: &'a str,
    time_ms: i64,
}

impl Moment<'_> {
    fn check(
        &self,
        what: impl FnOnce() -> String,
        difference: f32,
        tol: f32,
    ) -> Result<(), FixError> {
        if difference <= tol {
            return Ok(());
        }
        Err(FixError::PoseChanged {
            sequence: self.sequence.to_string(),
            time_ms: self.time_ms.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
            what: what(),
            difference,
        })
    }
}

/// Compares `orig` and `fixed` (made from it by the repairs, with `maps` the records
/// removed) at every moment the module docs list; returns how many moments.
fn compare(orig: &Model, fixed: &Model, maps: &Maps, tol: f32) -> Result<usize, FixError> {
    let mut a = Collect {
        maps: Some(maps),
        tracks: Vec::new(),
    };
    usage::visit_tracks(orig, &mut a);
    let mut b = Collect {
        maps: None,
        tracks: Vec::new(),
    };
    usage::visit_tracks(fixed, &mut b);
    if a.tracks.len() != b.tracks.len() {
        return Err(FixError::Mismatch {
            what: format!("{} tracks, then {}", a.tracks.len(), b.tracks.len()),
        });
    }
    if let Some(((path, _), _)) =
        (a.tracks.iter().zip(&b.tracks)).find(|((_, x), (_, y))| x.kind() != y.kind())
    {
        return Err(FixError::Mismatch { what: path.clone() });
    }
    if orig.sequences != fixed.sequences
        || orig.geosets.len() != fixed.geosets.len()
        || orig.node_count() != fixed.node_count()
    {
        return Err(FixError::Mismatch {
            what: "sequences, geosets or nodes".into(),
        });
    }
    let pairs: Vec<(&str, &AnyPrepared, &AnyPrepared)> = (a.tracks.iter().zip(&b.tracks))
        .map(|((path, x), (_, y))| (path.as_str(), x, y))
        .collect();
    let cmp = Comparer {
        orig,
        fixed,
        skeletons: (Skeleton::new(orig), Skeleton::new(fixed)),
        pairs,
        textures: maps.textures.as_deref(),
        size: (orig.pivot_points.iter().flatten())
            .map(|c| c.abs())
            .filter(|c| c.is_finite())
            .fold(1.0, f32::max),
        tol,
    };

    // Times: of keys on the sequence clock, and of keys on each global sequence.
    let mut seq_times = Vec::new();
    let mut global_times = vec![0i64];
    for (_, p) in &a.tracks {
        let gs = p.global_sequence_id();
        if gs < 0 {
            seq_times.extend(p.times().into_iter().map(i64::from));
        } else if let Some(&len) = orig.global_sequences.get(gs as usize) {
            global_times.extend(
                (p.times().into_iter().map(i64::from))
                    .filter(|&t| len == 0 || (0..=i64::from(len)).contains(&t)),
            );
        }
    }
    seq_times.sort_unstable();
    seq_times.dedup();
    global_times.sort_unstable();
    global_times.dedup();

    let mut moments = 0;
    for (s, seq) in orig.sequences.iter().enumerate() {
        let (lo, hi) = (i64::from(seq.interval[0]), i64::from(seq.interval[1]));
        let first = seq_times.partition_point(|&t| t < lo);
        let last = seq_times.partition_point(|&t| t <= hi);
        let inner = seq_times.get(first..last.max(first)).unwrap_or(&[]);
        let name = seq.name.text();
        let mut times: Vec<i64> = std::iter::once(lo).chain(inner.iter().copied()).collect();
        if hi > lo {
            times.push(hi);
        }
        times.dedup();
        for t in times {
            let elapsed = (t - lo) as f64;
            let at = Moment {
                sequence: &name,
                time_ms: t,
            };
            cmp.at(
                &Clock::unwrapped(orig, s, elapsed),
                &Clock::unwrapped(fixed, s, elapsed),
                &at,
            )?;
            moments += 1;
        }
    }
    if !orig.global_sequences.is_empty() {
        for t in global_times {
            let when = AnimTime {
                sequence: None,
                elapsed_ms: 0.0,
                global_ms: t as f64,
            };
            let at = Moment {
                sequence: "global sequences",
                time_ms: t,
            };
            cmp.at(&Clock::new(orig, when), &Clock::new(fixed, when), &at)?;
            moments += 1;
        }
    }
    Ok(moments)
}

struct Comparer<'m> {
    orig: &'m Model,
    fixed: &'m Model,
    skeletons: (Skeleton<'m>, Skeleton<'m>),
    pairs: Vec<(&'m str, &'m AnyPrepared<'m>, &'m AnyPrepared<'m>)>,
    /// Old texture index to new, when textures were removed.
    textures: Option<&'m [Option<usize>]>,
    /// The model's size: node matrix translations are compared relative to it.
    size: f32,
    tol: f32,
}

fn sampled<T: Value>(a: &Prepared<T>, b: &Prepared<T>, ca: &Clock, cb: &Clock) -> f32 {
    match (a.sample(ca), b.sample(cb)) {
        (Some(x), Some(y)) => T::difference(x, y),
        (None, None) => 0.0,
        _ => f32::INFINITY,
    }
}

impl Comparer<'_> {
    fn at(&self, ca: &Clock, cb: &Clock, at: &Moment) -> Result<(), FixError> {
        let tol = self.tol;
        let (sa, sb) = &self.skeletons;
        let (pa, pb) = (sa.pose_at(ca, None), sb.pose_at(cb, None));
        for (i, (x, y)) in pa.nodes.iter().zip(&pb.nodes).enumerate() {
            let d = (0..16)
                .map(|k| {
                    let (u, v) = (x.world[k], y.world[k]);
                    if (12..15).contains(&k) {
                        rel(u / self.size, v / self.size)
                    } else {
                        rel(u, v)
                    }
                })
                .fold(0.0, f32::max);
            let n = &sa.nodes[i];
            at.check(
                || format!("{}[{}] world matrix", kind_field(n.kind.name()), n.index),
                d,
                tol,
            )?;
        }
        for g in 0..self.orig.geosets.len() {
            let (x, y) = (
                geoset_alphas(self.orig, ca, g),
                geoset_alphas(self.fixed, cb, g),
            );
            at.check(|| format!("geosets[{g}] alpha"), rel(x.0, y.0), tol)?;
            at.check(
                || format!("geosets[{g}] colour"),
                Vec3::difference(x.1, y.1),
                tol,
            )?;
            at.check(|| format!("geosets[{g}] layer alpha"), rel(x.2, y.2), tol)?;
        }
        for (path, a, b) in &self.pairs {
            let d = match (a, b) {
                (AnyPrepared::Float(a), AnyPrepared::Float(b)) => sampled(a, b, ca, cb),
                (AnyPrepared::Vector3(a), AnyPrepared::Vector3(b)) => sampled(a, b, ca, cb),
                (AnyPrepared::Quaternion(a), AnyPrepared::Quaternion(b)) => sampled(a, b, ca, cb),
                (AnyPrepared::Integer(a, texture), AnyPrepared::Integer(b, _)) => {
                    let renumber = |v: u32| match (texture, self.textures) {
                        (true, Some(map)) => match map.get(v as usize) {
                            Some(Some(new)) => Some(*new as u32),
                            Some(None) => None,
                            None => Some(v),
                        },
                        _ => Some(v),
                    };
                    match (a.sample(ca).map(renumber), b.sample(cb)) {
                        (Some(x), Some(y)) if x == Some(y) => 0.0,
                        (None, None) => 0.0,
                        _ => f32::INFINITY,
                    }
                }
                _ => f32::INFINITY,
            };
            at.check(|| path.to_string(), d, tol)?;
        }
        Ok(())
    }
}

/// The model's field for a node kind's name (`Bone` -> `bones`).
fn kind_field(name: &str) -> &'static str {
    match name {
        "Bone" => "bones",
        "Light" => "lights",
        "Helper" => "helpers",
        "Attachment" => "attachments",
        "ParticleEmitter" => "particle_emitters",
        "ParticleEmitter2" => "particle_emitters2",
        "PopcornEmitter" => "popcorn_emitters",
        "RibbonEmitter" => "ribbon_emitters",
        "EventObject" => "event_objects",
        _ => "collision_shapes",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::track::{KGAO, KGRT, KGTR, KMTA};
    use crate::model::{
        Animation, Bone, EventObject, EventTrack, FixedString, Geoset, GeosetAnimation, Layer,
        Material, Sequence, Texture, TextureAnimation,
    };

    fn key<T: Copy>(time: i32, value: T) -> Key<T> {
        Key::at(time, value)
    }

    fn track<T: Copy>(interpolation: Interpolation, keys: &[(i32, T)]) -> Track<T> {
        Track {
            interpolation,
            global_sequence_id: -1,
            keys: keys.iter().map(|&(t, v)| key(t, v)).collect(),
        }
    }

    /// Sequences [0, 1000] and [2000, 3000]; one bone with `tracks`; one geoset on one
    /// material with one texture.
    fn model(tracks: Vec<Animation>) -> Model {
        let seq = |name: &str, a, b| Sequence {
            name: FixedString::from_field(name.as_bytes()),
            interval: [a, b],
            ..Sequence::default()
        };
        let mut bone = Bone::default();
        bone.node.tracks = Tracks(tracks);
        Model {
            version: 800,
            sequences: vec![seq("Stand", 0, 1000), seq("Walk", 2000, 3000)],
            textures: vec![Texture::default()],
            materials: vec![Material {
                layers: vec![Layer {
                    alpha: 1.0,
                    texture_animation_id: -1,
                    ..Layer::default()
                }],
                ..Material::default()
            }],
            geosets: vec![Geoset::default()],
            bones: vec![bone],
            pivot_points: vec![[0.0; 3]],
            ..Model::default()
        }
    }

    fn translation(interpolation: Interpolation, keys: &[(i32, f32)]) -> Animation {
        let keys: Vec<(i32, Vec3)> = keys.iter().map(|&(t, x)| (t, [x, 0.0, 0.0])).collect();
        Animation {
            tag: KGTR,
            track: AnyTrack::Vector3(track(interpolation, &keys)),
        }
    }

    fn fixed(m: &Model) -> Fixed {
        fix(m, &FixOptions::default()).unwrap()
    }

    fn times_of(m: &Model) -> Vec<i32> {
        let t = m.bones[0].node.tracks.vector3(KGTR).unwrap();
        t.keys.iter().map(|k| k.time).collect()
    }

    fn rules(f: &Fixed) -> Vec<(&'static str, &str)> {
        f.actions
            .iter()
            .map(|a| (a.rule, a.path.as_str()))
            .collect()
    }

    const NONE: Interpolation = Interpolation::None;
    const LINEAR: Interpolation = Interpolation::Linear;

    #[test]
    fn keys_out_of_order_are_sorted_and_ordered_ones_left_alone() {
        let m = model(vec![translation(
            NONE,
            &[(500, 2.0), (0, 1.0), (1000, 3.0)],
        )]);
        let f = fixed(&m);
        assert_eq!(rules(&f), [("unsorted-keys", "bones[0].node.tracks.KGTR")]);
        assert_eq!(times_of(&f.model), [0, 500, 1000]);
        assert!(f.poses_checked > 0);
        let m = model(vec![translation(
            NONE,
            &[(0, 1.0), (500, 2.0), (1000, 3.0)],
        )]);
        assert_eq!(fixed(&m).actions, []);
    }

    #[test]
    fn of_keys_at_one_time_the_last_stored_stays() {
        let m = model(vec![translation(
            NONE,
            &[(0, 1.0), (500, 2.0), (500, 5.0), (1000, 3.0)],
        )]);
        let f = fixed(&m);
        assert_eq!(rules(&f), [("duplicate-key", "bones[0].node.tracks.KGTR")]);
        let t = f.model.bones[0].node.tracks.vector3(KGTR).unwrap();
        assert_eq!(t.keys[1], key(500, [5.0, 0.0, 0.0]));
        assert_eq!(t.keys.len(), 3);
        // Unsorted with a duplicate: sorting keeps the file order of equal times.
        let m = model(vec![translation(
            NONE,
            &[(500, 2.0), (0, 1.0), (500, 5.0), (1000, 3.0)],
        )]);
        let f = fixed(&m);
        assert_eq!(f.actions.len(), 2);
        assert_eq!(
            f.model.bones[0].node.tracks.vector3(KGTR).unwrap().keys[1].value[0],
            5.0
        );
    }

    #[test]
    fn a_step_key_equal_to_the_one_before_goes() {
        let m = model(vec![translation(
            NONE,
            &[(0, 1.0), (300, 1.0), (600, 1.0), (800, 2.0), (1000, 2.0)],
        )]);
        let f = fixed(&m);
        assert_eq!(rules(&f), [("redundant-key", "bones[0].node.tracks.KGTR")]);
        // 1000 is the window's last key: it stays although it repeats 800.
        assert_eq!(times_of(&f.model), [0, 800, 1000]);
        let m = model(vec![translation(
            NONE,
            &[(0, 1.0), (300, 2.0), (1000, 1.0)],
        )]);
        assert_eq!(fixed(&m).actions, []);
    }

    #[test]
    fn a_linear_key_on_the_line_goes_one_off_it_stays() {
        let on = [(0, 0.0), (250, 1.0), (500, 2.0), (750, 3.0), (1000, 4.0)];
        let f = fixed(&model(vec![translation(LINEAR, &on)]));
        assert_eq!(times_of(&f.model), [0, 1000]);
        assert!(f.actions[0].message.contains("3 keys at 250, 500, 750 ms"));
        let off = [(0, 0.0), (500, 2.5), (1000, 4.0)];
        assert_eq!(fixed(&model(vec![translation(LINEAR, &off)])).actions, []);
    }

    #[test]
    fn a_rotation_on_the_slerp_between_its_neighbours_goes() {
        let q = |deg: f32| {
            let (s, c) = (deg.to_radians() / 2.0).sin_cos();
            [0.0, 0.0, s, c]
        };
        let rot = |keys: &[(i32, Quat)]| Animation {
            tag: KGRT,
            track: AnyTrack::Quaternion(track(LINEAR, keys)),
        };
        let f = fixed(&model(vec![rot(&[
            (0, q(0.0)),
            (500, q(45.0)),
            (1000, q(90.0)),
        ])]));
        assert_eq!(rules(&f), [("redundant-key", "bones[0].node.tracks.KGRT")]);
        let f = fixed(&model(vec![rot(&[
            (0, q(0.0)),
            (500, q(50.0)),
            (1000, q(90.0)),
        ])]));
        assert_eq!(f.actions, []);
    }

    #[test]
    fn a_spline_key_goes_only_where_the_curve_is_flat() {
        let hermite = |tan: f32| {
            let mut t = track(
                Interpolation::Hermite,
                &[(0, 1.0f32), (500, 1.0), (1000, 1.0)],
            );
            for k in &mut t.keys {
                k.in_tan = tan;
                k.out_tan = tan;
            }
            Animation {
                tag: KGAO,
                track: AnyTrack::Float(t),
            }
        };
        let with_geoa = |a: Animation| {
            let mut m = model(Vec::new());
            let mut ga = GeosetAnimation::default();
            ga.tracks.0.push(a);
            m.geoset_animations.push(ga);
            m
        };
        // Hermite tangents are slopes: flat at 0.
        let f = fixed(&with_geoa(hermite(0.0)));
        assert_eq!(
            rules(&f),
            [("redundant-key", "geoset_animations[0].tracks.KGAO")]
        );
        // Equal values and tangents, but a slope of 1: the curve bulges; every key stays.
        assert_eq!(fixed(&with_geoa(hermite(1.0))).actions, []);
    }

    #[test]
    fn the_first_and_last_key_of_a_window_and_a_lone_key_stay() {
        // Step keys, all equal: 1000 ends Stand, 2000 starts Walk, 1500 lies in no window;
        // only 2500, inside Walk between 2000 and 3000, goes.
        let keys = [
            (0, 1.0),
            (1000, 1.0),
            (1500, 1.0),
            (2000, 1.0),
            (2500, 1.0),
            (3000, 1.0),
        ];
        let f = fixed(&model(vec![translation(NONE, &keys)]));
        assert_eq!(times_of(&f.model), [0, 1000, 1500, 2000, 3000]);
        // A key alone in its window (and the only one of a track) stays.
        let f = fixed(&model(vec![translation(
            NONE,
            &[(0, 1.0), (2500, 1.0), (5000, 1.0)],
        )]));
        assert_eq!(f.actions, []);
        // A key in two overlapping windows stays unless both hold its neighbours.
        let mut m = model(vec![translation(
            NONE,
            &[(0, 1.0), (500, 1.0), (1000, 1.0)],
        )]);
        m.sequences[1].interval = [500, 3000];
        assert_eq!(fixed(&m).actions, []);
    }

    #[test]
    fn global_sequence_tracks_use_their_own_window() {
        let mut a = translation(NONE, &[(0, 1.0), (100, 1.0), (200, 1.0), (300, 1.0)]);
        if let AnyTrack::Vector3(t) = &mut a.track {
            t.global_sequence_id = 0;
        }
        let mut m = model(vec![a]);
        m.global_sequences = vec![200];
        let f = fixed(&m);
        // 100 goes; 200 ends the global sequence; 300 lies outside it.
        assert_eq!(times_of(&f.model), [0, 200, 300]);
        // On a global sequence the model does not have, no key is ever read: all stay.
        m.global_sequences.clear();
        let f = fixed(&m);
        assert!(f.actions.iter().all(|a| a.rule != "redundant-key"));
    }

    #[test]
    fn event_tracks_are_left_alone() {
        let mut m = model(Vec::new());
        m.event_objects.push(EventObject {
            track: Some(EventTrack {
                global_sequence_id: -1,
                times: vec![500, 100, 100, 200],
            }),
            ..EventObject::default()
        });
        m.pivot_points.push([0.0; 3]);
        let f = fixed(&m);
        assert_eq!(f.actions, []);
        assert_eq!(f.model, m);
    }

    #[test]
    fn unused_records_go_and_references_are_renumbered() {
        let mut m = model(Vec::new());
        m.textures.insert(0, Texture::default()); // texture 0 unused; the layer's is now 1
        m.materials[0].layers[0].texture_id = 1;
        m.materials.insert(0, Material::default()); // material 0 unused
        m.geosets[0].material_id = 1;
        m.texture_animations = vec![TextureAnimation::default(); 2];
        m.materials[1].layers[0].texture_animation_id = 1;
        m.global_sequences = vec![100, 200];
        m.materials[1].layers[0].tracks.0.push(Animation {
            tag: KMTA,
            track: AnyTrack::Float(Track {
                interpolation: NONE,
                global_sequence_id: 1,
                keys: vec![key(0, 0.5)],
            }),
        });
        let f = fixed(&m);
        assert_eq!(
            rules(&f),
            [
                ("unused-material", "materials[0]"),
                ("unused-texture", "textures[0]"),
                ("unused-texture-animation", "texture_animations[0]"),
                ("unused-global-sequence", "global_sequences[0]"),
            ]
        );
        let l = &f.model.materials[0].layers[0];
        assert_eq!((l.texture_id, l.texture_animation_id), (0, 0));
        assert_eq!(f.model.geosets[0].material_id, 0);
        assert_eq!(f.model.global_sequences, [200]);
        assert_eq!(l.tracks.float(KMTA).unwrap().global_sequence_id, 0);
        // Everything used: nothing to do.
        assert_eq!(fixed(&f.model).actions, []);
    }

    #[test]
    fn what_only_a_removed_record_used_goes_too_and_says_so() {
        let mut m = model(Vec::new());
        m.textures.push(Texture::default());
        m.materials.push(Material {
            layers: vec![Layer {
                texture_id: 1,
                texture_animation_id: -1,
                ..Layer::default()
            }],
            ..Material::default()
        });
        let f = fixed(&m);
        assert_eq!(
            rules(&f),
            [
                ("unused-material", "materials[1]"),
                ("unused-texture", "textures[1]")
            ]
        );
        assert!(f.actions[1].message.contains("only records removed"));
    }

    #[test]
    fn an_out_of_range_reference_keeps_every_record_of_its_kind() {
        let mut m = model(Vec::new());
        m.textures.push(Texture::default()); // unused
        m.materials[0].layers[0].texture_id = 5; // names no texture
        let f = fixed(&m);
        assert_eq!(f.actions, []);
        // Texture animations have a "none" (-1); other negative values are out of range.
        let mut m = model(Vec::new());
        m.texture_animations.push(TextureAnimation::default());
        m.materials[0].layers[0].texture_animation_id = -2;
        assert_eq!(fixed(&m).actions, []);
        m.materials[0].layers[0].texture_animation_id = -1;
        assert_eq!(fixed(&m).actions.len(), 1);
    }

    #[test]
    fn a_change_of_pose_is_caught() {
        let m = model(vec![translation(
            LINEAR,
            &[(0, 0.0), (500, 1.0), (1000, 4.0)],
        )]);
        // A repair that wrongly dropped the middle key.
        let mut wrong = m.clone();
        if let AnyTrack::Vector3(t) = &mut wrong.bones[0].node.tracks.0[0].track {
            t.keys.remove(1);
        }
        let e = compare(&m, &wrong, &Maps::default(), 1e-5).unwrap_err();
        assert_eq!(
            e,
            FixError::PoseChanged {
                sequence: "Stand".into(),
                time_ms: 500,
                what: "bones[0] world matrix".into(),
                difference: 1.0,
            }
        );
        assert!(e
            .to_string()
            .contains("bones[0] world matrix differs by 1 in Stand at 500 ms"));
        // A track no pose reads (a light's intensity would do; here a layer's alpha on a
        // material no geoset uses) is compared too.
        let mut m = model(Vec::new());
        m.geosets.clear();
        m.materials[0].layers[0].tracks.0.push(Animation {
            tag: KMTA,
            track: AnyTrack::Float(track(LINEAR, &[(0, 0.0), (500, 0.5), (1000, 1.0)])),
        });
        let mut wrong = m.clone();
        if let AnyTrack::Float(t) = &mut wrong.materials[0].layers[0].tracks.0[0].track {
            t.keys[1].value = 0.6;
        }
        match compare(&m, &wrong, &Maps::default(), 1e-5) {
            Err(FixError::PoseChanged { what, time_ms, .. }) => {
                assert_eq!(
                    (what.as_str(), time_ms),
                    ("materials[0].layers[0].tracks.KMTA", 500)
                );
            }
            other => panic!("{other:?}"),
        }
        // The same model compares equal, at every key time and the sequences' ends.
        assert_eq!(compare(&m, &m, &Maps::default(), 1e-5), Ok(5));
    }
}
