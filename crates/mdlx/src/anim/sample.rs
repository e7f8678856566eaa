//! Sampling one track at one time: which keys apply, and how values between them are found.
//!
//! # The rules (chosen to match the game where it is known; see `anim` for the reasons)
//! - A track is read on one clock: its global sequence's if it has one, else the playing
//!   sequence's. Only keys inside that clock's interval apply (both ends included).
//! - Keys are taken in time order whatever order the file stores them in; of several keys
//!   at one time, the last stored wins.
//! - No key in the interval: the static value applies (also when no sequence plays, or the
//!   track names a global sequence the model does not have).
//! - One key: its value, at every time. On a key's time: that key's value, as stored.
//! - Before the first key or after the last one: that key's value holds.
//! - Between two keys, the earlier key's interpolation: step holds the earlier value;
//!   linear is a straight line (spherical for rotations); Hermite and Bezier are the cubic
//!   curves through the stored tangents (rotations: [`super::math::squad`]).
//!   Integer tracks always step. Unknown interpolation numbers step.

use super::math::{qnormalize, slerp, squad, Quat, Vec3};
use crate::model::{Interpolation, Key, Model, Track};
use std::borrow::Cow;

/// A value a track holds, and how it is interpolated.
pub trait TrackValue: Copy {
    /// Straight-line interpolation (`t` from 0 to 1).
    fn lerp(a: Self, b: Self, t: f32) -> Self;
    /// The Hermite curve from `a` (leaving with `a_out`) to `b` (arriving with `b_in`).
    fn hermite(a: Self, a_out: Self, b_in: Self, b: Self, t: f32) -> Self;
    /// The Bezier curve with control points `a`, `a_out`, `b_in`, `b`.
    fn bezier(a: Self, a_out: Self, b_in: Self, b: Self, t: f32) -> Self;
}

fn hermite1(a: f32, a_out: f32, b_in: f32, b: f32, t: f32) -> f32 {
    let t2 = t * t;
    let t3 = t2 * t;
    (2.0 * t3 - 3.0 * t2 + 1.0) * a
        + (t3 - 2.0 * t2 + t) * a_out
        + (t3 - t2) * b_in
        + (3.0 * t2 - 2.0 * t3) * b
}

fn bezier1(a: f32, a_out: f32, b_in: f32, b: f32, t: f32) -> f32 {
    let s = 1.0 - t;
    s * s * s * a + 3.0 * s * s * t * a_out + 3.0 * s * t * t * b_in + t * t * t * b
}

impl TrackValue for f32 {
    fn lerp(a: f32, b: f32, t: f32) -> f32 {
        a + (b - a) * t
    }
    fn hermite(a: f32, a_out: f32, b_in: f32, b: f32, t: f32) -> f32 {
        hermite1(a, a_out, b_in, b, t)
    }
    fn bezier(a: f32, a_out: f32, b_in: f32, b: f32, t: f32) -> f32 {
        bezier1(a, a_out, b_in, b, t)
    }
}

impl TrackValue for Vec3 {
    fn lerp(a: Vec3, b: Vec3, t: f32) -> Vec3 {
        [0, 1, 2].map(|i| f32::lerp(a[i], b[i], t))
    }
    fn hermite(a: Vec3, a_out: Vec3, b_in: Vec3, b: Vec3, t: f32) -> Vec3 {
        [0, 1, 2].map(|i| hermite1(a[i], a_out[i], b_in[i], b[i], t))
    }
    fn bezier(a: Vec3, a_out: Vec3, b_in: Vec3, b: Vec3, t: f32) -> Vec3 {
        [0, 1, 2].map(|i| bezier1(a[i], a_out[i], b_in[i], b[i], t))
    }
}

/// Rotations: `[x, y, z, w]` quaternions. Stored values and tangents are normalised before
/// they are blended, and the result after: many files store them rounded to a length near
/// 0.998, which means the same rotation; see the module docs of [`crate::anim`].
impl TrackValue for Quat {
    fn lerp(a: Quat, b: Quat, t: f32) -> Quat {
        qnormalize(slerp(qnormalize(a), qnormalize(b), t))
    }
    fn hermite(a: Quat, a_out: Quat, b_in: Quat, b: Quat, t: f32) -> Quat {
        let n = qnormalize;
        n(squad(n(a), n(a_out), n(b_in), n(b), t))
    }
    fn bezier(a: Quat, a_out: Quat, b_in: Quat, b: Quat, t: f32) -> Quat {
        Self::hermite(a, a_out, b_in, b, t)
    }
}

/// Integers (texture ids) never blend: every interpolation holds the earlier key.
impl TrackValue for u32 {
    fn lerp(a: u32, _: u32, _: f32) -> u32 {
        a
    }
    fn hermite(a: u32, _: u32, _: u32, _: u32, _: f32) -> u32 {
        a
    }
    fn bezier(a: u32, _: u32, _: u32, _: u32, _: f32) -> u32 {
        a
    }
}

/// When to sample a model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnimTime {
    /// The playing sequence (an index into [`Model::sequences`]), or `None`: then tracks
    /// that follow sequences give their static values.
    pub sequence: Option<usize>,
    /// Milliseconds since the sequence started. A looping sequence wraps at its length; a
    /// non-looping one (flag 1) stops at its end. Negative times count back from the end
    /// (looping) or clamp to the start.
    pub elapsed_ms: f64,
    /// Milliseconds on the global clock, which global sequences wrap at their own lengths.
    /// The game starts it when the model appears; [`AnimTime::new`] sets it to `elapsed_ms`.
    pub global_ms: f64,
}

impl AnimTime {
    /// `elapsed_ms` into `sequence`, with the global clock at the same time.
    pub fn new(sequence: Option<usize>, elapsed_ms: f64) -> AnimTime {
        AnimTime {
            sequence,
            elapsed_ms,
            global_ms: elapsed_ms,
        }
    }
}

/// The time on a track's clock and the keys it may use: `lo <= key time <= hi`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// The time on the track's clock, in the same units as key times.
    pub frame: f64,
    /// First key time that applies.
    pub lo: i64,
    /// Last key time that applies.
    pub hi: i64,
}

/// The clocks of a model at one [`AnimTime`]: turns a track's global sequence id into the
/// [`Window`] its keys are read in.
#[derive(Clone, Debug)]
pub struct Clock<'m> {
    sequence: Option<Window>,
    global_ms: f64,
    globals: &'m [u32],
}

impl<'m> Clock<'m> {
    /// The clocks of `model` at `at`.
    pub fn new(model: &'m Model, at: AnimTime) -> Clock<'m> {
        let sequence = at.sequence.and_then(|i| model.sequences.get(i)).map(|s| {
            let length = f64::from(s.length());
            let elapsed = if length == 0.0 {
                0.0
            } else if s.is_looping() {
                at.elapsed_ms.rem_euclid(length)
            } else {
                at.elapsed_ms.clamp(0.0, length)
            };
            sequence_window(s, elapsed)
        });
        Clock {
            sequence,
            global_ms: at.global_ms,
            globals: &model.global_sequences,
        }
    }

    /// The clocks of `model` `elapsed_ms` into sequence `sequence`, clamped to the
    /// sequence's interval but never wrapped: at the sequence's length this is its last
    /// frame, where [`Clock::new`] would wrap a looping sequence back to its first. The
    /// global clock reads `elapsed_ms`. This is the time line of an exported animation
    /// (see [`crate::convert::gltf`]), which ends on the sequence's last frame.
    pub fn unwrapped(model: &'m Model, sequence: usize, elapsed_ms: f64) -> Clock<'m> {
        let window = model
            .sequences
            .get(sequence)
            .map(|s| sequence_window(s, elapsed_ms.clamp(0.0, f64::from(s.length()))));
        Clock {
            sequence: window,
            global_ms: elapsed_ms,
            globals: &model.global_sequences,
        }
    }

    /// The window of a track with this global sequence id (-1: none), or `None` when the
    /// track gives its static value (no sequence playing, or no such global sequence).
    pub fn window(&self, global_sequence_id: i32) -> Option<Window> {
        if global_sequence_id < 0 {
            return self.sequence;
        }
        let length = *self.globals.get(global_sequence_id as usize)?;
        if length == 0 {
            // A global sequence of length 0 stands still at 0 and may use any key.
            return Some(Window {
                frame: 0.0,
                lo: i64::MIN,
                hi: i64::MAX,
            });
        }
        Some(Window {
            frame: self.global_ms.rem_euclid(f64::from(length)),
            lo: 0,
            hi: i64::from(length),
        })
    }

    /// The value of `track` now, or `fallback` (the static value) when no key applies.
    pub fn sample<T: TrackValue>(&self, track: Option<&Track<T>>, fallback: T) -> T {
        match track {
            Some(t) => self
                .window(t.global_sequence_id)
                .and_then(|w| sample_keys(&sorted_keys(t), t.interpolation, w))
                .unwrap_or(fallback),
            None => fallback,
        }
    }
}

/// The window of sequence `s`, `elapsed` ms (already wrapped or clamped) into it.
fn sequence_window(s: &crate::model::Sequence, elapsed: f64) -> Window {
    let (start, end) = (i64::from(s.interval[0]), i64::from(s.interval[1]));
    Window {
        frame: start as f64 + elapsed,
        lo: start,
        hi: end,
    }
}

/// The keys of `track` in time order, one per time (the last stored of equal times).
/// Borrows when the file already has them so.
pub fn sorted_keys<T: Copy>(track: &Track<T>) -> Cow<'_, [Key<T>]> {
    if track.keys.windows(2).all(|w| w[0].time < w[1].time) {
        return Cow::Borrowed(&track.keys);
    }
    let mut keys = track.keys.clone();
    keys.sort_by_key(|k| k.time); // stable: equal times keep file order
    let mut out: Vec<Key<T>> = Vec::with_capacity(keys.len());
    for k in keys {
        match out.last_mut() {
            Some(last) if last.time == k.time => *last = k,
            _ => out.push(k),
        }
    }
    Cow::Owned(out)
}

/// The value of time-ordered, distinct-time `keys` in `window`, or `None` when no key lies
/// inside it.
pub fn sample_keys<T: TrackValue>(
    keys: &[Key<T>],
    interpolation: Interpolation,
    window: Window,
) -> Option<T> {
    let first = keys.partition_point(|k| i64::from(k.time) < window.lo);
    let end = keys.partition_point(|k| i64::from(k.time) <= window.hi);
    let keys = keys.get(first..end).filter(|k| !k.is_empty())?;
    let f = window.frame;
    // Index of the first key after f.
    let next = keys.partition_point(|k| f64::from(k.time) <= f);
    if next == 0 {
        return Some(keys[0].value);
    }
    if next == keys.len() {
        return Some(keys[next - 1].value);
    }
    let (a, b) = (&keys[next - 1], &keys[next]);
    if f == f64::from(a.time) {
        // On a key: its value as stored.
        return Some(a.value);
    }
    let t = ((f - f64::from(a.time)) / (f64::from(b.time) - f64::from(a.time))) as f32;
    Some(match interpolation {
        Interpolation::Linear => T::lerp(a.value, b.value, t),
        Interpolation::Hermite => T::hermite(a.value, a.out_tan, b.in_tan, b.value, t),
        Interpolation::Bezier => T::bezier(a.value, a.out_tan, b.in_tan, b.value, t),
        Interpolation::None | Interpolation::Other(_) => a.value,
    })
}
