//! Keys of one interpolation rewritten in another that draws the same curve, so that keys
//! from two tracks can share one: linear keys become Hermite or Bezier keys whose tangents
//! keep each segment straight; Hermite and Bezier keys of numbers trade slopes for control
//! points (`c = p ± m / 3`); rotations, which blend Hermite and Bezier alike, only change
//! the label. Stepped keys cannot be drawn exactly by a curve: each is held by one more key
//! a millisecond before the next, so the value changes within that millisecond, not at once.

use crate::model::{Interpolation, Key, Track};

/// How much shape an interpolation draws: step, line, curve.
fn rank(i: Interpolation) -> u8 {
    match i {
        Interpolation::Linear => 1,
        Interpolation::Hermite | Interpolation::Bezier => 2,
        Interpolation::None | Interpolation::Other(_) => 0,
    }
}

/// The interpolation two tracks' keys can share: the one that draws more (of Hermite and
/// Bezier, `first`'s).
pub(crate) fn common(first: Interpolation, second: Interpolation) -> Interpolation {
    if rank(second) > rank(first) {
        second
    } else if rank(first) == 0 {
        Interpolation::None
    } else {
        first
    }
}

/// A value whose keys can change interpolation.
pub(crate) trait Lift: Copy {
    /// The tangents (in, out) that keep the segments on either side of `cur` straight.
    fn straight(
        prev: Option<Self>,
        cur: Self,
        next: Option<Self>,
        to: Interpolation,
    ) -> (Self, Self);
    /// Hermite tangents (in, out) of the key at `p` as Bezier control points, or back.
    fn to_bezier(p: Self, tangents: (Self, Self), from_hermite: bool) -> (Self, Self);
}

fn combine<const N: usize>(a: [f32; N], b: [f32; N], f: impl Fn(f32, f32) -> f32) -> [f32; N] {
    std::array::from_fn(|i| f(a[i], b[i]))
}

macro_rules! numeric_lift {
    ($t:ty, $wrap:expr, $unwrap:expr) => {
        impl Lift for $t {
            fn straight(
                prev: Option<Self>,
                cur: Self,
                next: Option<Self>,
                to: Interpolation,
            ) -> (Self, Self) {
                let (w, u) = ($wrap, $unwrap);
                let c = w(cur);
                let before = prev.map_or(c, |p| combine(c, w(p), |a, b| a - b));
                let after = next.map_or(c, |n| combine(w(n), c, |a, b| a - b));
                let (before, after) = if prev.is_none() {
                    (combine(c, c, |_, _| 0.0), after)
                } else {
                    (before, after)
                };
                let after = if next.is_none() {
                    combine(c, c, |_, _| 0.0)
                } else {
                    after
                };
                if to == Interpolation::Bezier {
                    (
                        u(combine(c, before, |a, d| a - d / 3.0)),
                        u(combine(c, after, |a, d| a + d / 3.0)),
                    )
                } else {
                    (u(before), u(after))
                }
            }
            fn to_bezier(p: Self, (i, o): (Self, Self), from_hermite: bool) -> (Self, Self) {
                let (w, u) = ($wrap, $unwrap);
                let p = w(p);
                if from_hermite {
                    (
                        u(combine(p, w(i), |a, m| a - m / 3.0)),
                        u(combine(p, w(o), |a, m| a + m / 3.0)),
                    )
                } else {
                    (
                        u(combine(p, w(i), |a, c| 3.0 * (a - c))),
                        u(combine(w(o), p, |c, a| 3.0 * (c - a))),
                    )
                }
            }
        }
    };
}

numeric_lift!(f32, |x: f32| [x], |a: [f32; 1]| a[0]);
numeric_lift!([f32; 3], |x: [f32; 3]| x, |a: [f32; 3]| a);

impl Lift for [f32; 4] {
    fn straight(_: Option<Self>, cur: Self, _: Option<Self>, _: Interpolation) -> (Self, Self) {
        (cur, cur)
    }
    fn to_bezier(_: Self, tangents: (Self, Self), _: bool) -> (Self, Self) {
        tangents
    }
}

impl Lift for u32 {
    fn straight(_: Option<Self>, cur: Self, _: Option<Self>, _: Interpolation) -> (Self, Self) {
        (cur, cur)
    }
    fn to_bezier(_: Self, tangents: (Self, Self), _: bool) -> (Self, Self) {
        tangents
    }
}

/// Rewrites `t`'s keys in interpolation `to` (see the module docs); rotations blend
/// Hermite and Bezier alike, so between those only the label changes.
pub(crate) fn lift<T: Lift>(t: &mut Track<T>, to: Interpolation, rotation: bool) {
    let from = t.interpolation;
    if from == to {
        return;
    }
    if rank(from) == 0 && rank(to) > 0 {
        let mut held = Vec::with_capacity(t.keys.len() * 2);
        for (k, next) in t
            .keys
            .iter()
            .zip(t.keys.iter().skip(1).map(Some).chain([None]))
        {
            held.push(Key::at(k.time, k.value));
            if let Some(n) = next.filter(|n| n.time > k.time + 1) {
                held.push(Key::at(n.time - 1, k.value));
            }
        }
        t.keys = held;
        t.interpolation = Interpolation::Linear;
        lift(t, to, rotation);
        return;
    }
    match (rank(from), rank(to)) {
        (1, 2) => {
            let values: Vec<T> = t.keys.iter().map(|k| k.value).collect();
            for (i, k) in t.keys.iter_mut().enumerate() {
                let prev = i.checked_sub(1).map(|j| values[j]);
                let next = values.get(i + 1).copied();
                (k.in_tan, k.out_tan) = T::straight(prev, k.value, next, to);
            }
        }
        (2, 2) if !rotation => {
            for k in &mut t.keys {
                let from_hermite = from == Interpolation::Hermite;
                (k.in_tan, k.out_tan) = T::to_bezier(k.value, (k.in_tan, k.out_tan), from_hermite);
            }
        }
        _ => {}
    }
    t.interpolation = to;
}
