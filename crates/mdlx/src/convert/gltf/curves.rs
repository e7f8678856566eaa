//! Keyframe curves: a Warcraft III track, seen through one sequence, as the keys of a glTF
//! animation sampler (step, linear or cubic Hermite), with exact conversions where glTF has
//! the same curve and a bounded resampling where it does not.
//!
//! Times here are milliseconds from the start of the animation (`f64`); cubic keys carry
//! their derivatives per second, which is what glTF's CUBICSPLINE tangents are. A curve
//! always covers the whole animation: it has a key at 0 and one at its length.

use crate::anim::math::{qdot, qnormalize, slerp, Quat, Vec3};
use crate::anim::sample::{sample_keys, sorted_keys, TrackValue, Window};
use crate::model::{Interpolation, Key, Track};

/// How a curve's keys are joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Interp {
    /// Each key holds until the next.
    Step,
    /// Straight lines (slerp for rotations).
    Linear,
    /// Cubic Hermite with derivatives per second.
    Cubic,
}

/// One key. `d_in` and `d_out` are derivatives per second (cubic curves only).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CKey<T> {
    /// Milliseconds from the animation's start.
    pub(crate) t: f64,
    /// The value.
    pub(crate) v: T,
    /// Derivative arriving at the key.
    pub(crate) d_in: T,
    /// Derivative leaving the key.
    pub(crate) d_out: T,
}

/// Keys and how they are joined.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Curve<T> {
    /// How the keys are joined.
    pub(crate) interp: Interp,
    /// In time order; the first at 0, the last at the animation's length.
    pub(crate) keys: Vec<CKey<T>>,
}

/// Values that curves carry: the track values, with the arithmetic cubic curves need.
pub(crate) trait Value: TrackValue + PartialEq {
    /// The zero of the value's space.
    fn zero() -> Self;
    /// `a + b * s`.
    fn add_scaled(a: Self, b: Self, s: f32) -> Self;
    /// The value as a rotation, for rotations.
    fn as_quat(self) -> Option<Quat> {
        None
    }
}

impl Value for f32 {
    fn zero() -> f32 {
        0.0
    }
    fn add_scaled(a: f32, b: f32, s: f32) -> f32 {
        a + b * s
    }
}

impl Value for Vec3 {
    fn zero() -> Vec3 {
        [0.0; 3]
    }
    fn add_scaled(a: Vec3, b: Vec3, s: f32) -> Vec3 {
        [0, 1, 2].map(|i| a[i] + b[i] * s)
    }
}

impl Value for Quat {
    fn zero() -> Quat {
        [0.0; 4]
    }
    fn add_scaled(a: Quat, b: Quat, s: f32) -> Quat {
        [0, 1, 2, 3].map(|i| a[i] + b[i] * s)
    }
    fn as_quat(self) -> Option<Quat> {
        Some(self)
    }
}

/// The largest angle (radians) by which a resampled rotation may leave the game's spline:
/// Hermite and Bezier rotations are sampled until slerp between neighbouring samples stays
/// within this of the spline a quarter, half and three quarters along every piece (see
/// [`sample_points`]).
pub(crate) const ROTATION_TOLERANCE: f32 = 1e-4;
/// The most pieces one key interval of a curve is cut into when sampled evenly
/// ([`linearize`], [`densify`]).
pub(crate) const MAX_STEPS: usize = 256;
/// Rotation splines are halved at most this many times per key interval (to 2^-16 of it).
pub(crate) const MAX_DEPTH: u32 = 16;

/// What building a curve noticed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Notes {
    /// The largest angle (radians) a resampled rotation leaves the spline by at the checked
    /// points.
    pub(crate) rotation_error: f32,
    /// Places where a rotation spline jumps (see [`sample_points`]).
    pub(crate) rotation_jumps: usize,
    /// A global sequence's cycles were cut short at the key limit.
    pub(crate) truncated: bool,
    /// Keys global sequences may still be repeated into, over the whole export (a
    /// global sequence of 1 ms under a sequence of days would otherwise make billions).
    pub(crate) cycle_keys_left: usize,
}

impl Notes {
    /// Notes with a budget of `cycle_keys` keys for repeated global sequences.
    pub(crate) fn with_budget(cycle_keys: usize) -> Notes {
        Notes {
            cycle_keys_left: cycle_keys,
            ..Notes::default()
        }
    }
}

/// A curve with the same value from 0 to `len`.
pub(crate) fn constant<T: Value>(v: T, len: f64) -> Curve<T> {
    let key = |t| CKey {
        t,
        v,
        d_in: T::zero(),
        d_out: T::zero(),
    };
    let keys = if len > 0.0 {
        vec![key(0.0), key(len)]
    } else {
        vec![key(0.0)]
    };
    Curve {
        interp: Interp::Linear,
        keys,
    }
}

/// `track` as it plays over a sequence with this `interval`: its own keys inside the
/// interval (or, on a global sequence, its cycles repeated from 0), held before the first
/// and after the last, `fallback` when no key applies. `max_keys` bounds the keys a global
/// sequence may repeat into.
pub(crate) fn track_curve<T: Value>(
    track: &Track<T>,
    interval: [u32; 2],
    globals: &[u32],
    fallback: T,
    max_keys: usize,
    notes: &mut Notes,
) -> Curve<T> {
    let (start, end) = (i64::from(interval[0]), i64::from(interval[1]));
    let len = (end - start).max(0) as f64;
    let keys = sorted_keys(track);
    let Ok(global) = usize::try_from(track.global_sequence_id) else {
        return piece(&keys, track.interpolation, start, end, notes)
            .unwrap_or_else(|| constant(fallback, len));
    };
    let Some(&cycle) = globals.get(global) else {
        return constant(fallback, len);
    };
    if cycle == 0 {
        // A global sequence of length 0 stands still at 0 and may use any key.
        let w = Window {
            frame: 0.0,
            lo: i64::MIN,
            hi: i64::MAX,
        };
        let v = sample_keys(&keys, track.interpolation, w).unwrap_or(fallback);
        return constant(v, len);
    }
    let Some(one) = piece(&keys, track.interpolation, 0, i64::from(cycle), notes) else {
        return constant(fallback, len);
    };
    repeat(&one, f64::from(cycle), len, max_keys, notes)
}

/// The cycles of `one` (which covers `0..=cycle`) laid end to end from 0 to `len`. Where a
/// cycle ends, the next one's first key comes at the same time: [`seconds`] moves the
/// earlier of the two just before it.
fn repeat<T: Value>(
    one: &Curve<T>,
    cycle: f64,
    len: f64,
    max_keys: usize,
    notes: &mut Notes,
) -> Curve<T> {
    let mut keys = Vec::new();
    let mut k = 0u64;
    'cycles: loop {
        let base = k as f64 * cycle;
        if base > len {
            break;
        }
        for key in &one.keys {
            let t = base + key.t;
            if t < len {
                keys.push(CKey { t, ..*key });
            } else if t == len && key.t >= cycle {
                // The animation ends where a cycle does: its last value comes just before
                // the end, and the next cycle's first value is the one at the end (the
                // global clock has wrapped).
                keys.push(CKey {
                    t,
                    d_out: T::zero(),
                    ..*key
                });
            } else {
                if t > len {
                    // Cut the cycle at the end of the animation.
                    let (v, d) = eval(one, len - base);
                    keys.push(CKey {
                        t: len,
                        v,
                        d_in: d,
                        d_out: T::zero(),
                    });
                } else {
                    keys.push(CKey {
                        t,
                        d_out: T::zero(),
                        ..*key
                    });
                }
                break 'cycles;
            }
        }
        if keys.len() > max_keys.min(notes.cycle_keys_left) {
            notes.truncated = true;
            let last = *keys.last().expect("a cycle has keys");
            if last.t < len {
                keys.push(CKey {
                    t: len,
                    d_in: T::zero(),
                    d_out: T::zero(),
                    ..last
                });
            }
            break;
        }
        k += 1;
    }
    notes.cycle_keys_left = notes.cycle_keys_left.saturating_sub(keys.len());
    Curve {
        interp: one.interp,
        keys,
    }
}

/// The keys of `keys` (time-ordered, distinct times) inside `lo..=hi`, as a curve from 0
/// to `hi - lo`, or `None` when no key lies inside.
fn piece<T: Value>(
    keys: &[Key<T>],
    interpolation: Interpolation,
    lo: i64,
    hi: i64,
    notes: &mut Notes,
) -> Option<Curve<T>> {
    let first = keys.partition_point(|k| i64::from(k.time) < lo);
    let end = keys.partition_point(|k| i64::from(k.time) <= hi);
    let ks = keys.get(first..end).filter(|k| !k.is_empty())?;
    let span = (hi - lo) as f64;
    let at = |k: &Key<T>| (i64::from(k.time) - lo) as f64;
    let interp = match interpolation {
        Interpolation::Linear => Interp::Linear,
        Interpolation::Hermite | Interpolation::Bezier => Interp::Cubic,
        Interpolation::None | Interpolation::Other(_) => Interp::Step,
    };
    let zero = T::zero();
    let mut out: Vec<CKey<T>> = Vec::with_capacity(ks.len() + 2);
    let hold = |t: f64, v: T| CKey {
        t,
        v,
        d_in: zero,
        d_out: zero,
    };
    if at(&ks[0]) > 0.0 {
        out.push(hold(0.0, ks[0].value));
    }
    if interp == Interp::Cubic && ks[0].value.as_quat().is_some() {
        // The game's rotation spline is not glTF's: sample it.
        out.push(hold(at(&ks[0]), ks[0].value));
        for w in ks.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            let spline = |u: f32| T::hermite(a.value, a.out_tan, b.in_tan, b.value, u);
            let (points, _, jumps) = sample_points(&spline);
            notes.rotation_jumps += jumps;
            let (ta, tb) = (at(a), at(b));
            let inner = points.iter().filter(|&&u| u < 1.0).map(|&u| f64::from(u));
            let kept = whole_ms(ta, tb, inner);
            // The error of the samples as kept (on whole milliseconds), jumps aside.
            let us: Vec<f32> = std::iter::once(0.0)
                .chain(kept.iter().map(|&(_, u)| u as f32))
                .chain(std::iter::once(1.0))
                .collect();
            let err = slerp_error(&spline, &us, jumps > 0);
            notes.rotation_error = notes.rotation_error.max(err);
            for (t, u) in kept {
                out.push(hold(t, spline(u as f32)));
            }
            out.push(hold(tb, b.value));
        }
        if at(&ks[ks.len() - 1]) < span {
            out.push(hold(span, ks[ks.len() - 1].value));
        }
        return Some(Curve {
            interp: Interp::Linear,
            keys: out,
        });
    }
    // Derivatives per second, over a segment of `ms`. Hermite: the stored tangent is the
    // derivative over the unit interval. Bezier: the inner control point `c`; the
    // derivative is 3 (c - p) leaving a key and 3 (p - c) arriving.
    let bezier = interpolation == Interpolation::Bezier;
    let per_second = |tan: T, ms: f64| {
        let s = if bezier { 3.0 } else { 1.0 };
        T::add_scaled(zero, tan, (s * 1000.0 / ms) as f32)
    };
    for (i, k) in ks.iter().enumerate() {
        let (mut d_in, mut d_out) = (zero, zero);
        if interp == Interp::Cubic {
            if i > 0 {
                let tan = if bezier {
                    T::add_scaled(k.value, k.in_tan, -1.0)
                } else {
                    k.in_tan
                };
                d_in = per_second(tan, at(k) - at(&ks[i - 1]));
            }
            if i + 1 < ks.len() {
                let tan = if bezier {
                    T::add_scaled(k.out_tan, k.value, -1.0)
                } else {
                    k.out_tan
                };
                d_out = per_second(tan, at(&ks[i + 1]) - at(k));
            }
        }
        out.push(CKey {
            t: at(k),
            v: k.value,
            d_in,
            d_out,
        });
    }
    if at(&ks[ks.len() - 1]) < span {
        out.push(hold(span, ks[ks.len() - 1].value));
    }
    Some(Curve { interp, keys: out })
}

/// The times (ms) `ta + (tb - ta) * u` of the fractions `us`, each on the nearest whole
/// millisecond strictly between `ta` and `tb` (a time that rounds onto an end or onto the
/// time before it is left out), with the fraction of the interval it is at.
///
/// Every key the export adds between the model's keys (sampled splines, linear steps,
/// the baked grid) lies on a whole millisecond: the game's unit, so that an import (which
/// keys whole milliseconds) holds the glTF's curve exactly, and a model read back from the
/// glTF poses as the glTF does at every time an editor samples it.
pub(crate) fn whole_ms(ta: f64, tb: f64, us: impl IntoIterator<Item = f64>) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut last = ta;
    for u in us {
        let t = (ta + (tb - ta) * u).round();
        if t > last && t < tb {
            out.push((t, (t - ta) / (tb - ta)));
            last = t;
        }
    }
    out
}

/// The largest angle between `spline` and slerp between its values at `us` (0 to 1, in
/// order), checked a quarter, half and three quarters along each piece; with `jumps`, the
/// pieces where the spline itself jumps (more than 10 times the tolerance off) are left
/// out, as [`sample_points`] counts them apart.
fn slerp_error<T: Value>(spline: &dyn Fn(f32) -> T, us: &[f32], jumps: bool) -> f32 {
    let q = |u: f32| spline(u).as_quat().unwrap_or([0.0, 0.0, 0.0, 1.0]);
    let mut worst = 0.0f32;
    for w in us.windows(2) {
        let (u0, u1) = (w[0], w[1]);
        let (q0, q1) = (q(u0), q(u1));
        let err = [0.25f32, 0.5, 0.75]
            .iter()
            .map(|&f| angle(q(u0 + (u1 - u0) * f), qnormalize(slerp(q0, q1, f))))
            .fold(0.0f32, f32::max);
        if !(jumps && err > 10.0 * ROTATION_TOLERANCE) {
            worst = worst.max(err);
        }
    }
    worst
}

/// Where to sample `spline` over 0..1 so that slerp between neighbouring samples stays
/// within [`ROTATION_TOLERANCE`] of it (checked a quarter, half and three quarters along
/// each piece): pieces are halved where they stray, down to 2^-[`MAX_DEPTH`] of the
/// interval. A piece that still strays there holds a jump of the spline itself (its inner
/// slerps take the other way round when two quaternions cross 90 degrees apart); it is
/// left as a straight line that short, and counted. Returns the sample points (after 0,
/// ending with 1), the largest error left outside jumps, and the jumps.
pub(crate) fn sample_points<T: Value>(spline: &dyn Fn(f32) -> T) -> (Vec<f32>, f32, usize) {
    let q = |u: f32| spline(u).as_quat().unwrap_or([0.0, 0.0, 0.0, 1.0]);
    let mut out = Vec::new();
    let (mut worst, mut jumps) = (0.0f32, 0usize);
    // Depth-first over (u0, u1, depth), left pieces first.
    let mut stack = vec![(0.0f32, 1.0f32, 0u32)];
    while let Some((u0, u1, depth)) = stack.pop() {
        let (q0, q1) = (q(u0), q(u1));
        let err = [0.25f32, 0.5, 0.75]
            .iter()
            .map(|&f| angle(q(u0 + (u1 - u0) * f), qnormalize(slerp(q0, q1, f))))
            .fold(0.0f32, f32::max);
        if err <= ROTATION_TOLERANCE {
            out.push(u1);
        } else if depth >= MAX_DEPTH {
            out.push(u1);
            jumps += 1;
            continue;
        } else {
            let um = 0.5 * (u0 + u1);
            stack.push((um, u1, depth + 1));
            stack.push((u0, um, depth + 1));
            continue;
        }
        worst = worst.max(err);
    }
    (out, worst, jumps)
}

/// `c` with its cubic segments sampled into straight lines, each segment cut into as many
/// steps (at most [`MAX_STEPS`]) as keep the lines within `tolerance` of the curve a
/// quarter, half and three quarters along every step. For viewers that do not read glTF's
/// cubic tangents (Blender 3.4 replaces them with its own handles). Returns the curve and
/// the largest distance left at the points checked.
pub(crate) fn linearize(c: &Curve<Vec3>, tolerance: f32) -> (Curve<Vec3>, f32) {
    if c.interp != Interp::Cubic {
        return (c.clone(), 0.0);
    }
    let dist = |a: Vec3, b: Vec3| {
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
    };
    let mut keys = Vec::with_capacity(c.keys.len());
    let mut worst = 0.0f32;
    let flat = |t: f64, v: Vec3| CKey {
        t,
        v,
        d_in: [0.0; 3],
        d_out: [0.0; 3],
    };
    for w in c.keys.windows(2) {
        let (a, b) = (w[0], w[1]);
        keys.push(flat(a.t, a.v));
        let at = |u: f64| eval(c, a.t + (b.t - a.t) * u).0;
        let mut steps = 1usize;
        let err = loop {
            let mut e = 0.0f32;
            for j in 0..steps {
                let (u0, u1) = (j as f64 / steps as f64, (j + 1) as f64 / steps as f64);
                let (p0, p1) = (at(u0), at(u1));
                for f in [0.25f32, 0.5, 0.75] {
                    let on = at(u0 + (u1 - u0) * f64::from(f));
                    e = e.max(dist(on, Vec3::lerp(p0, p1, f)));
                }
            }
            if e.is_nan() || e <= tolerance || steps >= MAX_STEPS {
                break e;
            }
            steps *= 2;
        };
        worst = worst.max(err);
        let inner = (1..steps).map(|j| j as f64 / steps as f64);
        for (t, u) in whole_ms(a.t, b.t, inner) {
            keys.push(flat(t, at(u)));
        }
    }
    if let Some(last) = c.keys.last() {
        keys.push(flat(last.t, last.v));
    }
    (
        Curve {
            interp: Interp::Linear,
            keys,
        },
        worst,
    )
}

/// `c` (linear rotations) with keys added between keys more than `max_angle` apart, so
/// that a viewer that blends rotations component by component (Blender) stays close to
/// slerp. Step curves are returned as they are.
pub(crate) fn densify(c: &Curve<Quat>, max_angle: f32) -> Curve<Quat> {
    if c.interp != Interp::Linear {
        return c.clone();
    }
    let mut keys = Vec::with_capacity(c.keys.len());
    for w in c.keys.windows(2) {
        let (a, b) = (w[0], w[1]);
        keys.push(a);
        let steps = ((angle(a.v, b.v) / max_angle).ceil() as usize).clamp(1, MAX_STEPS);
        let inner = (1..steps).map(|j| j as f64 / steps as f64);
        for (t, u) in whole_ms(a.t, b.t, inner) {
            keys.push(CKey {
                t,
                v: Quat::lerp(a.v, b.v, u as f32),
                ..a
            });
        }
    }
    if let Some(last) = c.keys.last() {
        keys.push(*last);
    }
    Curve {
        interp: Interp::Linear,
        keys,
    }
}

/// The angle between two rotations, in radians (from the chord between the unit
/// quaternions, which keeps its precision for small angles where `acos` of the dot
/// product does not).
pub(crate) fn angle(a: Quat, b: Quat) -> f32 {
    let (a, b) = (qnormalize(a), qnormalize(b));
    let sign = if qdot(a, b) < 0.0 { -1.0 } else { 1.0 };
    let d2: f64 = (0..4)
        .map(|i| {
            let d = f64::from(a[i]) - sign * f64::from(b[i]);
            d * d
        })
        .sum();
    (4.0 * (d2.sqrt() / 2.0).min(1.0).asin()) as f32
}

/// The value and derivative (per second) of `c` at `t` ms.
pub(crate) fn eval<T: Value>(c: &Curve<T>, t: f64) -> (T, T) {
    let keys = &c.keys;
    let next = keys.partition_point(|k| k.t <= t);
    if next == 0 {
        return (keys[0].v, T::zero());
    }
    if next == keys.len() {
        return (keys[next - 1].v, T::zero());
    }
    let (a, b) = (&keys[next - 1], &keys[next]);
    let span = b.t - a.t;
    let u = ((t - a.t) / span) as f32;
    let dt = (span / 1000.0) as f32;
    match c.interp {
        Interp::Step => (a.v, T::zero()),
        Interp::Linear => (T::lerp(a.v, b.v, u), T::zero()),
        Interp::Cubic => {
            let [h00, h10, h01, h11] = hermite_basis(u);
            let u2 = u * u;
            let z = T::zero();
            let v = T::add_scaled(
                T::add_scaled(
                    T::add_scaled(T::add_scaled(z, a.v, h00), a.d_out, h10 * dt),
                    b.v,
                    h01,
                ),
                b.d_in,
                h11 * dt,
            );
            // d/dt = (dp/du) / dt.
            let g00 = 6.0 * u2 - 6.0 * u;
            let g10 = 3.0 * u2 - 4.0 * u + 1.0;
            let g01 = -6.0 * u2 + 6.0 * u;
            let g11 = 3.0 * u2 - 2.0 * u;
            let d = T::add_scaled(
                T::add_scaled(
                    T::add_scaled(T::add_scaled(z, a.v, g00 / dt), a.d_out, g10),
                    b.v,
                    g01 / dt,
                ),
                b.d_in,
                g11,
            );
            (v, d)
        }
    }
}

/// The key times of `c` as glTF input seconds, strictly increasing: where two keys fall on
/// the same `f32` (a cycle's end and the next cycle's start), the earlier one moves to the
/// `f32` just before, or is dropped when there is no room.
pub(crate) fn seconds<T: Copy>(keys: &[CKey<T>]) -> (Vec<f32>, Vec<usize>) {
    let mut times: Vec<f32> = Vec::with_capacity(keys.len());
    let mut kept: Vec<usize> = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        let t = (k.t / 1000.0) as f32;
        while let Some(&last) = times.last() {
            if last < t {
                break;
            }
            let before = prev_f32(t);
            let room = times.len() < 2 || times[times.len() - 2] < before;
            if room && before >= 0.0 {
                *times.last_mut().expect("checked") = before;
                break;
            }
            times.pop();
            kept.pop();
        }
        times.push(t);
        kept.push(i);
    }
    (times, kept)
}

/// The largest `f32` below `x` (for `x > 0`).
fn prev_f32(x: f32) -> f32 {
    if x > 0.0 {
        f32::from_bits(x.to_bits() - 1)
    } else {
        -f32::MIN_POSITIVE
    }
}

/// glTF's cubic Hermite basis at `u` (0 to 1 across a key interval): the weights of the
/// start value, the start's out-tangent (times the interval), the end value and the
/// end's in-tangent (times the interval).
pub(crate) fn hermite_basis(u: f32) -> [f32; 4] {
    let (u2, u3) = (u * u, u * u * u);
    [
        2.0 * u3 - 3.0 * u2 + 1.0,
        u3 - 2.0 * u2 + u,
        -2.0 * u3 + 3.0 * u2,
        u3 - u2,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::sample::sample_keys;

    fn key<T: Copy>(time: i32, value: T, in_tan: T, out_tan: T) -> Key<T> {
        Key {
            time,
            value,
            in_tan,
            out_tan,
        }
    }

    /// The cubic conversion gives the game's Hermite and Bezier curves exactly (to f32
    /// rounding), on uneven key spacing and inside a sequence that starts late.
    #[test]
    fn cubic_matches_the_game_curves() {
        for interpolation in [Interpolation::Hermite, Interpolation::Bezier] {
            let track = Track {
                interpolation,
                global_sequence_id: -1,
                keys: vec![
                    key(900, [9.0, 9.0, 9.0], [0.0; 3], [0.0; 3]), // outside: ignored
                    key(1000, [0.0, 1.0, 2.0], [1.0, 0.0, -1.0], [3.0, -2.0, 0.5]),
                    key(1100, [4.0, -1.0, 0.0], [0.5, 0.5, 0.5], [-2.0, 1.0, 1.0]),
                    key(1400, [1.0, 1.0, 1.0], [2.0, 2.0, -3.0], [0.0; 3]),
                ],
            };
            let mut notes = Notes::with_budget(1_000_000);
            let c = track_curve(&track, [1000, 1500], &[], [0.0; 3], 1000, &mut notes);
            assert_eq!(c.interp, Interp::Cubic);
            assert_eq!(c.keys.first().unwrap().t, 0.0);
            assert_eq!(c.keys.last().unwrap().t, 500.0);
            for ms in (0..=500).step_by(7) {
                let w = Window {
                    frame: f64::from(1000 + ms),
                    lo: 1000,
                    hi: 1500,
                };
                let want = sample_keys(&track.keys, interpolation, w).unwrap();
                let (got, _) = eval(&c, f64::from(ms));
                for i in 0..3 {
                    assert!(
                        (got[i] - want[i]).abs() < 1e-4,
                        "{interpolation:?} {ms}: {got:?} {want:?}"
                    );
                }
            }
        }
    }

    /// Global sequences repeat on their own clock, and the value at a cycle's end is the
    /// next cycle's first.
    #[test]
    fn global_sequences_repeat_and_cut() {
        let track = Track {
            interpolation: Interpolation::Linear,
            global_sequence_id: 0,
            keys: vec![key(0, 0.0f32, 0.0, 0.0), key(300, 3.0, 0.0, 0.0)],
        };
        let mut notes = Notes::with_budget(1_000_000);
        let c = track_curve(&track, [5000, 5700], &[400], 0.0, 1000, &mut notes);
        // 0..300 ramps, 300..400 holds 3, then again; cut at 700 (300 into cycle 2).
        let v = |t| eval(&c, t).0;
        assert_eq!(v(150.0), 1.5);
        assert_eq!(v(350.0), 3.0);
        assert_eq!(v(550.0), 1.5);
        assert_eq!(v(700.0), 3.0);
        let (times, kept) = seconds(&c.keys);
        assert!(times.windows(2).all(|w| w[0] < w[1]));
        // The seam at 400 ms: 3 just before, 0 at it.
        let at = times.iter().position(|&t| t == 0.4).unwrap();
        assert_eq!(c.keys[kept[at]].v, 0.0);
        assert_eq!(c.keys[kept[at - 1]].v, 3.0);
        assert!(times[at - 1] < 0.4 && times[at - 1] > 0.3999);
    }

    /// An animation that ends where a global cycle ends shows the next cycle's first value
    /// at its end, as the game's clock (wrapped to 0) does.
    #[test]
    fn an_animation_ending_on_a_cycle_end_shows_the_wrapped_value() {
        let track = Track {
            interpolation: Interpolation::Linear,
            global_sequence_id: 0,
            keys: vec![key(0, 0.0f32, 0.0, 0.0), key(500, 5.0, 0.0, 0.0)],
        };
        let mut notes = Notes::with_budget(1_000_000);
        let c = track_curve(&track, [0, 1000], &[500], 0.0, 1000, &mut notes);
        let (times, kept) = seconds(&c.keys);
        assert_eq!(*times.last().unwrap(), 1.0);
        assert_eq!(c.keys[*kept.last().unwrap()].v, 0.0);
        assert_eq!(c.keys[kept[kept.len() - 2]].v, 5.0);
    }

    /// A rotation spline is sampled until it stays within the tolerance.
    #[test]
    fn rotation_splines_are_resampled_within_tolerance() {
        let q = |a: f32| [0.0, 0.0, (a / 2.0).sin(), (a / 2.0).cos()];
        let track = Track {
            interpolation: Interpolation::Hermite,
            global_sequence_id: -1,
            keys: vec![
                key(0, q(0.0), q(0.0), q(0.6)),
                key(1000, q(2.5), q(1.4), q(2.5)),
            ],
        };
        let mut notes = Notes::with_budget(1_000_000);
        let c = track_curve(
            &track,
            [0, 1000],
            &[],
            [0.0, 0.0, 0.0, 1.0],
            1000,
            &mut notes,
        );
        assert_eq!(c.interp, Interp::Linear);
        assert!(c.keys.len() > 4);
        assert!(notes.rotation_error <= ROTATION_TOLERANCE);
        for ms in 0..=1000 {
            let w = Window {
                frame: f64::from(ms),
                lo: 0,
                hi: 1000,
            };
            let want = sample_keys(&track.keys, Interpolation::Hermite, w).unwrap();
            let got = eval(&c, f64::from(ms)).0;
            assert!(angle(got, want) < 2.0 * ROTATION_TOLERANCE, "{ms}");
        }
    }
}
