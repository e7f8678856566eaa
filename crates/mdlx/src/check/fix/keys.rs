//! Which keys go: the windows a track is read in, how values compare, and the fixer that
//! sorts keys, drops duplicates and drops the keys its neighbours reproduce.

use super::FixAction;
use crate::anim::math::{qnormalize, Quat, Vec3};
use crate::anim::sample::{sample_keys, TrackValue, Window};
use crate::model::usage::{Owner, TrackVisitorMut};
use crate::model::{AnyTrack, Interpolation, Key, Model, Track, Tracks};
use std::borrow::Cow;
use std::fmt;

/// Redundant keys may change their track by this share of the tolerance: the rest is left
/// for what a change becomes through the node hierarchy.
const DETECT_SHARE: f32 = 0.1;

/// A run of removed keys between two kept ones is checked as a whole against the straight
/// line that replaces it; runs longer than this end (the next key stays) unless every key
/// of the run equals the first, so that the check stays linear in the keys.
const MAX_RUN: usize = 32;

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
pub(super) trait Value: TrackValue + PartialEq + fmt::Debug {
    /// Integer tracks: every interpolation steps.
    const STEPS: bool = false;
    /// How far apart `a` and `b` are, relative to `max(1, |a|)`.
    fn difference(a: Self, b: Self) -> f32;
    /// Whether `tangent`, next to a key of value `v`, keeps the curve flat there.
    fn flat_tangent(v: Self, tangent: Self, interpolation: Interpolation, tol: f32) -> bool;
    /// Whether players may disagree on the way from `a` to `b` (see the quaternion's).
    fn ambiguous(_a: Self, _b: Self) -> bool {
        false
    }
}

pub(super) fn rel(a: f32, b: f32) -> f32 {
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
    /// More than 120 degrees of turn apart: near half a turn, which way a slerp goes hangs
    /// on the sign of a dot product near 0, and players break that tie differently (three.js
    /// and this crate's sampler do, on a corpus model spinning in quarter turns). A key
    /// between two such keys is never redundant.
    fn ambiguous(a: Quat, b: Quat) -> bool {
        let (a, b) = (qnormalize(a), qnormalize(b));
        let dot: f32 = (0..4).map(|k| a[k] * b[k]).sum();
        dot.is_nan() || dot.abs() < 0.5
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
pub(super) struct KeyFixer {
    windows: Windows,
    /// The largest change a redundant key's removal may make.
    tolerance: f32,
    pub(super) actions: Vec<FixAction>,
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
    /// A fixer for the tracks of `model` that drops keys whose removal changes their track
    /// by at most a share of `tolerance`.
    pub(super) fn new(model: &Model, tolerance: f32) -> KeyFixer {
        KeyFixer {
            windows: Windows::of(model),
            tolerance: tolerance * DETECT_SHARE,
            actions: Vec::new(),
        }
    }

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
    pub(super) fn redundant<T: Value>(&self, track: &Track<T>) -> Vec<usize> {
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
                && !T::ambiguous(kp.value, kn.value)
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
