//! One node's transform tracks over one sequence's interval, taken from the glTF's keys.

use crate::anim::math::{qnormalize, slerp};
use crate::model::{Animation, AnyTrack, Interpolation, Key, Track, Tracks};
use crate::spec::track::{KGRT, KGSC, KGTR};

/// The values of the transform tracks: translations and scalings, rotations.
trait Value: Copy {
    /// The value of no motion.
    fn rest(tag: crate::spec::Tag) -> Self;
    /// The straight line from `a` to `b` at `t`.
    fn between(a: Self, b: Self, t: f32) -> Self;
    /// How far apart two values are.
    fn distance(a: Self, b: Self) -> f32;
    /// The tangents that make the curve through `prev`, `v`, `next` straight on both sides
    /// in `interpolation` (Hermite: slopes over the key interval; Bezier: control points a
    /// third of the way; rotations: the inner control points of the squad spline, which
    /// make it a slerp when they are the keys themselves).
    fn straight(prev: Self, v: Self, next: Self, interpolation: Interpolation) -> (Self, Self);
}

impl Value for [f32; 3] {
    fn rest(tag: crate::spec::Tag) -> Self {
        if tag == KGSC {
            [1.0; 3]
        } else {
            [0.0; 3]
        }
    }
    fn between(a: Self, b: Self, t: f32) -> Self {
        [0, 1, 2].map(|k| a[k] + (b[k] - a[k]) * t)
    }
    fn distance(a: Self, b: Self) -> f32 {
        (0..3).map(|k| (a[k] - b[k]).abs()).fold(0.0, f32::max)
    }
    fn straight(prev: Self, v: Self, next: Self, interpolation: Interpolation) -> (Self, Self) {
        match interpolation {
            Interpolation::Hermite => (
                [0, 1, 2].map(|k| v[k] - prev[k]),
                [0, 1, 2].map(|k| next[k] - v[k]),
            ),
            Interpolation::Bezier => (
                [0, 1, 2].map(|k| v[k] - (v[k] - prev[k]) / 3.0),
                [0, 1, 2].map(|k| v[k] + (next[k] - v[k]) / 3.0),
            ),
            _ => (v, v),
        }
    }
}

impl Value for [f32; 4] {
    fn rest(_: crate::spec::Tag) -> Self {
        [0.0, 0.0, 0.0, 1.0]
    }
    fn between(a: Self, b: Self, t: f32) -> Self {
        qnormalize(slerp(qnormalize(a), qnormalize(b), t))
    }
    fn distance(a: Self, b: Self) -> f32 {
        let (a, b) = (qnormalize(a), qnormalize(b));
        let d = (0..4).map(|k| a[k] * b[k]).sum::<f32>().abs().min(1.0);
        2.0 * d.acos()
    }
    fn straight(_: Self, v: Self, _: Self, _: Interpolation) -> (Self, Self) {
        (v, v)
    }
}

/// Keys of `keys` (in time order) that a straight line between the kept keys around them
/// gives back within `tol`, removed; the first and the last stay.
fn thin<T: Value>(keys: Vec<Key<T>>, tol: f32) -> Vec<Key<T>> {
    if keys.len() < 3 {
        return keys;
    }
    let mut out: Vec<Key<T>> = vec![keys[0]];
    for i in 1..keys.len() - 1 {
        let (a, k, b) = (out[out.len() - 1], keys[i], keys[i + 1]);
        let span = (b.time - a.time) as f32;
        let t = if span > 0.0 {
            (k.time - a.time) as f32 / span
        } else {
            0.0
        };
        if T::distance(T::between(a.value, b.value, t), k.value) > tol {
            out.push(k);
        }
    }
    out.push(keys[keys.len() - 1]);
    out
}

/// How the glTF's keys of one track go into the result.
struct Window {
    /// The fresh model's interval of the sequence.
    from: [u32; 2],
    /// The result's interval of the sequence.
    to: [u32; 2],
    /// How far a thinned-out key may be from the line (model units for translations,
    /// radians for rotations, factors for scalings).
    tol: f32,
}

fn one<T: Value>(
    out: &mut Tracks,
    tag: crate::spec::Tag,
    fresh: Option<&Track<T>>,
    w: &Window,
    get: fn(&mut AnyTrack) -> Option<&mut Track<T>>,
    make: fn(Track<T>) -> AnyTrack,
) {
    let shift = i64::from(w.to[0]) - i64::from(w.from[0]);
    let mut keys: Vec<Key<T>> = fresh
        .map(|t| {
            let mut k: Vec<Key<T>> = t
                .keys
                .iter()
                .filter(|k| {
                    (i64::from(w.from[0])..=i64::from(w.from[1])).contains(&i64::from(k.time))
                })
                .map(|k| Key {
                    time: (i64::from(k.time) + shift).clamp(0, i64::from(i32::MAX)) as i32,
                    ..*k
                })
                .filter(|k| i64::from(k.time) <= i64::from(w.to[1]))
                .collect();
            k.sort_by_key(|k| k.time);
            k
        })
        .unwrap_or_default();
    let fresh_interp = fresh.map_or(Interpolation::Linear, |t| t.interpolation);
    if fresh_interp == Interpolation::Linear {
        keys = thin(keys, w.tol);
    }
    // Keys that only say the node rests (an editor writes every channel of every node,
    // within its float noise of the rest value): no motion.
    let rest = T::rest(tag);
    if keys.iter().all(|k| T::distance(k.value, rest) <= w.tol) {
        keys.clear();
    }
    let existing = out.0.iter_mut().find(|a| a.tag == tag);
    let track = match existing.and_then(|a| get(&mut a.track)) {
        Some(t) => t,
        None if keys.is_empty() => return,
        None => {
            out.0.push(Animation {
                tag,
                track: make(Track {
                    interpolation: fresh_interp,
                    global_sequence_id: -1,
                    keys: Vec::new(),
                }),
            });
            let last = out.0.len() - 1;
            get(&mut out.0[last].track).expect("the track just made")
        }
    };
    if track.global_sequence_id >= 0 {
        // On a global sequence's clock: the glTF bakes it into every animation; its own
        // keys stay.
        return;
    }
    let (lo, hi) = (i64::from(w.to[0]), i64::from(w.to[1]));
    track
        .keys
        .retain(|k| !(lo..=hi).contains(&i64::from(k.time)));
    if keys.is_empty() {
        // No motion in the glTF over this sequence: the node rests there.
        keys.push(Key::at(w.to[0] as i32, T::rest(tag)));
    }
    let n = keys.len();
    let values: Vec<T> = keys.iter().map(|k| k.value).collect();
    for (i, k) in keys.iter_mut().enumerate() {
        let prev = values[i.saturating_sub(1)];
        let next = values[(i + 1).min(n - 1)];
        (k.in_tan, k.out_tan) = T::straight(prev, k.value, next, track.interpolation);
    }
    track.keys.extend(keys);
    track.keys.sort_by_key(|k| k.time);
}

/// The transform tracks of `out` over the result's interval `to` of one sequence replaced
/// by those of `fresh` over its interval `from` of that sequence, in each track's own
/// interpolation (straight segments between the glTF's keys, which are straight lines in
/// glTF too, thinned where the line gives a key back). `size` scales the tolerance for
/// translations.
pub(super) fn replace(out: &mut Tracks, fresh: &Tracks, from: [u32; 2], to: [u32; 2], size: f32) {
    let tol = super::TOLERANCE / 10.0;
    let w = |tol| Window { from, to, tol };
    one(
        out,
        KGTR,
        fresh.vector3(KGTR),
        &w(tol * size),
        |a| match a {
            AnyTrack::Vector3(t) => Some(t),
            _ => None,
        },
        AnyTrack::Vector3,
    );
    one(
        out,
        KGRT,
        fresh.quaternion(KGRT),
        &w(tol),
        |a| match a {
            AnyTrack::Quaternion(t) => Some(t),
            _ => None,
        },
        AnyTrack::Quaternion,
    );
    one(
        out,
        KGSC,
        fresh.vector3(KGSC),
        &w(tol),
        |a| match a {
            AnyTrack::Vector3(t) => Some(t),
            _ => None,
        },
        AnyTrack::Vector3,
    );
}
