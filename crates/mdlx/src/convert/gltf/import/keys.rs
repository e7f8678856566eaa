//! Keys on whole milliseconds from glTF channels: where keys go, what the glTF curve
//! is between them, and the small value helpers the tracks use.

use super::*;

/// One glTF animation channel, read.
pub(super) struct GChannel {
    pub(super) property: Property,
    pub(super) interp: GInterp,
    /// Seconds.
    pub(super) times: Vec<f32>,
    /// Components per key: 3 or 4, times 3 for CUBICSPLINE (in, value, out).
    pub(super) values: Vec<f32>,
}

/// Whether every key of `c` equals the node's rest value for its property.
pub(super) fn restates_rest(c: &GChannel, rest: &(Vec3, Quat, Vec3)) -> bool {
    let stride = if c.interp == GInterp::CubicSpline {
        3
    } else {
        1
    };
    let comps = if c.property == Property::Rotation {
        4
    } else {
        3
    };
    let n = c.times.len();
    (0..n).all(|k| {
        let o = (k * stride + stride / 2) * comps;
        let v = &c.values[o..o + comps];
        if stride == 3 {
            // Tangents must be zero too.
            let a = &c.values[k * 3 * comps..k * 3 * comps + comps];
            let b = &c.values[(k * 3 + 2) * comps..(k * 3 + 2) * comps + comps];
            if a.iter().chain(b).any(|x| x.abs() > 1e-7) {
                return false;
            }
        }
        match c.property {
            Property::Translation => {
                (0..3).all(|i| (v[i] - rest.0[i]).abs() <= 1e-6 * rest.0[i].abs().max(1.0))
            }
            Property::Rotation => qdist([v[0], v[1], v[2], v[3]], rest.1) <= 1e-6,
            _ => (0..3).all(|i| (v[i] - rest.2[i]).abs() <= 1e-6 * rest.2[i].abs().max(1.0)),
        }
    })
}

/// How far apart two rotations are: 1 - |cos| of the half angle, 0 when equal.
pub(super) fn qdist(a: Quat, b: Quat) -> f32 {
    // The largest component difference of the two as unit quaternions of one hemisphere
    // (about half the angle between them). Not `1 - |a . b|`: that is 1e-6 already at
    // 0.003 radians, and in single precision it cannot tell rotations 7e-4 radians apart.
    let a = qnormalize(a);
    let b = qnormalize(b);
    let s = if crate::anim::math::qdot(a, b) < 0.0 {
        -1.0
    } else {
        1.0
    };
    (0..4).map(|k| (a[k] - s * b[k]).abs()).fold(0.0, f32::max)
}

/// Keys in time order; of keys at one millisecond the last added wins (sequences may be
/// laid out in any order, and may share keys where their intervals overlap).
pub(super) fn sorted<T: Copy>(mut keys: Vec<Key<T>>) -> Vec<Key<T>> {
    keys.sort_by_key(|k| k.time);
    let mut out: Vec<Key<T>> = Vec::with_capacity(keys.len());
    for k in keys {
        match out.last_mut() {
            Some(last) if last.time == k.time => *last = k,
            _ => out.push(k),
        }
    }
    out
}

/// Whether the rotation `q` maps the axes onto axes (so a per-axis scale stays one).
pub(super) fn axis_aligned(q: Quat) -> bool {
    let m = trs_about([0.0; 3], q, [1.0; 3], [0.0; 3]);
    [0, 4, 8].iter().all(|&c| {
        let col = [m[c], m[c + 1], m[c + 2]];
        col.iter().filter(|x| x.abs() > 1e-5).count() == 1
    })
}

/// The diagonal of `R diag(s) R⁻¹`: a scale along the rotated axes, seen per model axis.
pub(super) fn rotated_scale_diagonal(r: Quat, s: Vec3) -> Vec3 {
    let m = trs_about([0.0; 3], r, [1.0; 3], [0.0; 3]);
    // (R S Rᵀ)_ii = sum_k R_ik² s_k
    [0, 1, 2].map(|i| (0..3).map(|k| m[k * 4 + i] * m[k * 4 + i] * s[k]).sum())
}

/// A channel's value at `t` seconds, as glTF interpolates it (rotations normalised).
pub(super) fn channel_at(c: &GChannel, t: f32) -> [f32; 4] {
    let n = c.times.len();
    let comps = if c.property == Property::Rotation {
        4
    } else {
        3
    };
    let stride = if c.interp == GInterp::CubicSpline {
        3
    } else {
        1
    };
    let get = |k: usize, part: usize| -> [f32; 4] {
        let o = (k * stride + part) * comps;
        let mut v = [0.0; 4];
        v[..comps].copy_from_slice(&c.values[o..o + comps]);
        v
    };
    let norm = |v: [f32; 4]| if comps == 4 { qnormalize(v) } else { v };
    if n == 1 || t <= c.times[0] {
        return norm(get(0, stride / 2));
    }
    if t >= c.times[n - 1] {
        return norm(get(n - 1, stride / 2));
    }
    let k = c
        .times
        .partition_point(|&x| x <= t)
        .saturating_sub(1)
        .min(n - 2);
    let (t0, t1) = (c.times[k], c.times[k + 1]);
    let dt = t1 - t0;
    let s = if dt > 0.0 { (t - t0) / dt } else { 0.0 };
    match c.interp {
        GInterp::Step => norm(get(k, 0)),
        GInterp::Linear => {
            let (a, b) = (get(k, 0), get(k + 1, 0));
            if comps == 4 {
                qnormalize(crate::anim::math::slerp(qnormalize(a), qnormalize(b), s))
            } else {
                [0, 1, 2, 3].map(|i| a[i] + (b[i] - a[i]) * s)
            }
        }
        GInterp::CubicSpline => {
            let [h00, h10, h01, h11] = super::super::curves::hermite_basis(s);
            let (v0, b0, a1, v1) = (get(k, 1), get(k, 2), get(k + 1, 0), get(k + 1, 1));
            norm(
                [0, 1, 2, 3]
                    .map(|i| h00 * v0[i] + h10 * dt * b0[i] + h01 * v1[i] + h11 * dt * a1[i]),
            )
        }
    }
}

/// The whole milliseconds (from the animation's start) a channel is keyed at in the
/// model, each with the glTF key it is (`None`: the curve's value there). A key on a
/// whole millisecond stays itself; a key between two (a file keyed at 30 per second)
/// becomes the curve's values on both (a CUBICSPLINE key is rounded to the nearer, to
/// keep its tangents); two keys that fall on one millisecond (a jump kept as two keys
/// a hair apart) become keys on it and the next; more (keys sampled densely) become the
/// curve's values at that millisecond and the one before, which is what the curve is at
/// whole milliseconds.
pub(super) fn moments(times: &[f32], cubic: bool) -> Vec<(i64, Option<usize>)> {
    let mut buckets: Vec<(i64, Vec<usize>)> = Vec::new();
    for (k, &t) in times.iter().enumerate() {
        let m = (f64::from(t) * 1000.0).round() as i64;
        match buckets.last_mut() {
            Some((b, ks)) if *b == m => ks.push(k),
            _ => buckets.push((m, vec![k])),
        }
    }
    let mut out: Vec<(i64, Option<usize>)> = Vec::with_capacity(buckets.len());
    let push = |out: &mut Vec<(i64, Option<usize>)>, p: (i64, Option<usize>)| match out.last() {
        Some(l) if l.0 >= p.0 => {}
        _ => out.push(p),
    };
    for (b, (m, ks)) in buckets.iter().enumerate() {
        let m = *m;
        if ks.len() == 1 {
            let exact = (f64::from(times[ks[0]]) * 1000.0 - m as f64).abs() < 1e-3;
            if exact || cubic {
                push(&mut out, (m, Some(ks[0])));
            } else {
                // Between two milliseconds: the curve on both, so the model is exact on
                // every whole millisecond (its corner falls between them).
                let f = (f64::from(times[ks[0]]) * 1000.0).floor() as i64;
                push(&mut out, (f, None));
                push(&mut out, (f.saturating_add(1), None));
            }
            continue;
        }
        // Two keys on one millisecond: a jump (a global sequence's cycles laid end to end
        // meet so; the game, wrapping its clock, is still on the earlier key there). The
        // later key moves a millisecond on when that is free, so both keep their values
        // and tangents.
        if ks.len() == 2 && buckets.get(b + 1).is_none_or(|n| n.0 > m + 1) {
            push(&mut out, (m, Some(ks[0])));
            push(&mut out, (m.saturating_add(1), Some(ks[1])));
            continue;
        }
        if m > 0 {
            push(&mut out, (m - 1, None));
        }
        // The value at m: the last key at or before m exactly, else the curve.
        let exact = ks
            .iter()
            .rev()
            .find(|&&k| (f64::from(times[k]) * 1000.0 - m as f64).abs() < 1e-3);
        out.push((
            m,
            exact
                .copied()
                .filter(|&k| k == *ks.last().expect("two keys")),
        ));
    }
    out
}

/// Moments for a CUBICSPLINE rotation: `pts` and, between them, whole milliseconds
/// halving each interval until slerp between neighbours stays within
/// [`ROTATION_TOLERANCE`] of glTF's curve at the quarter points (down to 1 ms apart).
/// The largest error left is added to `error`.
pub(super) fn refine_rotation(
    c: &GChannel,
    pts: &[(i64, Option<usize>)],
    error: &mut f32,
) -> Vec<(i64, Option<usize>)> {
    let q = |ms: f64| channel_at(c, (ms / 1000.0) as f32);
    let mut out = Vec::with_capacity(pts.len() * 2);
    for (i, &p) in pts.iter().enumerate() {
        out.push(p);
        let Some(&next) = pts.get(i + 1) else { break };
        let mut stack = vec![(p.0, next.0)];
        let mut inner = Vec::new();
        while let Some((a, b)) = stack.pop() {
            let (qa, qb) = (q(a as f64), q(b as f64));
            let worst = [0.25f64, 0.5, 0.75]
                .iter()
                .map(|&f| {
                    let t = a as f64 + (b - a) as f64 * f;
                    angle_between(crate::anim::math::slerp(qa, qb, f as f32), q(t))
                })
                .fold(0.0f32, f32::max);
            if worst <= ROTATION_TOLERANCE || b - a < 2 {
                *error = error.max(worst);
                continue;
            }
            let m = (a + b) / 2;
            inner.push(m);
            stack.push((m, b));
            stack.push((a, m));
        }
        inner.sort_unstable();
        out.extend(inner.into_iter().map(|m| (m, None)));
    }
    out
}

pub(super) fn angle_between(a: Quat, b: Quat) -> f32 {
    let d = crate::anim::math::qdot(qnormalize(a), qnormalize(b))
        .abs()
        .min(1.0);
    2.0 * d.acos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_on_whole_milliseconds_stay_and_keys_between_are_keyed_on_both_sides() {
        assert_eq!(
            moments(&[0.0, 0.5, 1.0], false),
            vec![(0, Some(0)), (500, Some(1)), (1000, Some(2))]
        );
        // 30 keys a second: 33.33 ms lies between 33 and 34.
        assert_eq!(
            moments(&[0.0, 1.0 / 30.0], false),
            vec![(0, Some(0)), (33, None), (34, None)]
        );
        // A cubic key is rounded, to keep its tangents.
        assert_eq!(
            moments(&[0.0, 1.0 / 30.0], true),
            vec![(0, Some(0)), (33, Some(1))]
        );
        // A jump kept as two keys a hair apart: on the millisecond and the next.
        assert_eq!(
            moments(&[0.5, 0.999_999_9, 1.0], false),
            vec![(500, Some(0)), (1000, Some(1)), (1001, Some(2))]
        );
    }

    #[test]
    fn a_step_channel_between_milliseconds_takes_effect_on_the_next_one() {
        let c = GChannel {
            property: Property::Translation,
            interp: GInterp::Step,
            times: vec![0.0, 0.0105],
            values: vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
        };
        assert_eq!(channel_at(&c, 0.010)[0], 0.0);
        assert_eq!(channel_at(&c, 0.011)[0], 1.0);
    }
}
