//! Classification of a disagreement between our track sampler and wc3's: the sample is
//! evaluated again with the suspected cause removed, by a quaternion slerp/squad with
//! switchable details ([`QuatMode`]) and by the exact f64 value of the scalar formulas.
//! The classes are the causes seen while the two samplers were brought together; the
//! corpus shows none of them today (`tests/anim_vs_wc3.rs` requires every sample to agree).

use mdlx::model::{Interpolation, Key};

/// Largest difference (per component) that still counts as agreement: the test's.
pub const TOL: f32 = 1e-4;

pub type Quat = [f32; 4];

/// The keys a sample used: one key (the time is on it or outside the keys) or two, and
/// where between them.
pub enum Seg<T> {
    One(Key<T>),
    Two(Key<T>, Key<T>, f32),
}

/// Two f32s agree: within `TOL`, equal (infinities), or both NaN.
pub fn close(a: f32, b: f32) -> bool {
    a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= TOL
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    NonFinite,
    FloatRounding,
    QuatNonUnitValues,
    QuatDegenerateValues,
    QuatNonUnitTangents,
    QuatZeroTangent,
    QuatThreshold,
    QuatNonUnitBoth,
    QuatNonUnitAndThreshold,
    Unexplained,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::NonFinite => "non-finite-input",
            Class::FloatRounding => "f32-rounding",
            Class::QuatNonUnitValues => "quat-non-unit-values",
            Class::QuatDegenerateValues => "quat-degenerate-values",
            Class::QuatNonUnitTangents => "quat-non-unit-tangents",
            Class::QuatZeroTangent => "quat-zero-tangent",
            Class::QuatThreshold => "quat-lerp-threshold",
            Class::QuatNonUnitBoth => "quat-non-unit-values-and-tangents",
            Class::QuatNonUnitAndThreshold => "quat-non-unit-and-threshold",
            Class::Unexplained => "UNEXPLAINED",
        }
    }

    pub fn why(self) -> &'static str {
        match self {
            Class::NonFinite => {
                "a key value or tangent the sample uses is NaN or infinite: formulas that are \
                 equal on finite numbers (ours a+(b-a)t, wc3 a(1-t)+bt; wc3 normalises \
                 quaternions) give NaN on one side only"
            }
            Class::FloatRounding => {
                "large values: both results lie within f32 precision (1e-6 relative) of the \
                 exact f64 value of the same formula, but 1e-4 absolute is below that"
            }
            Class::QuatNonUnitValues => {
                "stored rotation values are not unit quaternions and only wc3 normalised \
                 them: both normalise now, so this class must stay empty (it catches a \
                 regression)"
            }
            Class::QuatDegenerateValues => {
                "as quat-non-unit-values, but a stored rotation value is far from unit length \
                 (off by more than 10%): wc3's normalised key is a very different rotation \
                 from the short vector we slerp towards; agrees once normalised"
            }
            Class::QuatNonUnitTangents => {
                "stored values are unit but the spline tangents (squad's inner control points) \
                 are not and only wc3 normalised them: both do now, so this class must stay \
                 empty"
            }
            Class::QuatZeroTangent => {
                "a spline tangent is the zero quaternion: wc3 normalises it to the identity \
                 and bends the spline towards it; our inner slerp of zeros is zero, so squad \
                 only shortens slerp(a, b, t); agrees once zero becomes the identity"
            }
            Class::QuatThreshold => {
                "unit inputs, but the two rotations are close: wc3 switches to a normalised \
                 lerp when cos > 0.9995, we slerp down to 1-cos = 1e-6 (documented choice); \
                 agrees once our slerp uses wc3's threshold (on unit inputs the two differ by \
                 under 1e-6, so this class should stay empty)"
            }
            Class::QuatNonUnitBoth => {
                "neither the stored values nor the tangents are unit quaternions, and \
                 normalising only one of the two is not enough; agrees once both are"
            }
            Class::QuatNonUnitAndThreshold => {
                "non-unit stored quaternions and close rotations together: agrees only with \
                 all of wc3's details (normalised inputs and outputs, 0.9995 threshold)"
            }
            Class::Unexplained => "no class explains it",
        }
    }
}

/// Every class, in the order of the report.
pub const CLASSES: [Class; 10] = [
    Class::NonFinite,
    Class::FloatRounding,
    Class::QuatNonUnitValues,
    Class::QuatDegenerateValues,
    Class::QuatNonUnitTangents,
    Class::QuatNonUnitBoth,
    Class::QuatZeroTangent,
    Class::QuatThreshold,
    Class::QuatNonUnitAndThreshold,
    Class::Unexplained,
];

/// q and -q are one rotation: the smaller of the two largest component differences.
pub fn quat_agree(a: [f32; 4], b: [f32; 4], tol: f32) -> bool {
    let diff = |s: f32| {
        (0..4)
            .map(|i| {
                let (x, y) = (a[i], s * b[i]);
                if x == y || (x.is_nan() && y.is_nan()) {
                    0.0
                } else if x.is_nan() || y.is_nan() {
                    f32::INFINITY
                } else {
                    (x - y).abs()
                }
            })
            .fold(0.0f32, f32::max)
    };
    diff(1.0).min(diff(-1.0)) <= tol
}

fn seg_keys<T: Copy>(seg: &Seg<T>) -> Vec<Key<T>> {
    match seg {
        Seg::One(k) => vec![*k],
        Seg::Two(a, b, _) => vec![*a, *b],
    }
}

/// Scalars and vector components: non-finite inputs, or f32 rounding of large values.
pub fn explain_scalar<T: Copy>(
    seg: &Seg<T>,
    interp: Interpolation,
    get: impl Fn(T) -> f32,
    ours: f32,
    theirs: f32,
) -> Class {
    let tangents = interp.has_tangents();
    let uses_nonfinite = seg_keys(seg).iter().any(|k| {
        !get(k.value).is_finite()
            || (tangents && (!get(k.in_tan).is_finite() || !get(k.out_tan).is_finite()))
    });
    if uses_nonfinite {
        return Class::NonFinite;
    }
    let Seg::Two(a, b, t) = seg else {
        // A single key's value is returned unchanged by both: nothing to round.
        return Class::Unexplained;
    };
    let t = f64::from(*t);
    let (p0, p3) = (f64::from(get(a.value)), f64::from(get(b.value)));
    let (p1, p2) = (f64::from(get(a.out_tan)), f64::from(get(b.in_tan)));
    // The exact value of the formula both use, and the size of its terms.
    let terms: Vec<f64> = match interp {
        Interpolation::Linear => vec![p0 * (1.0 - t), p3 * t],
        Interpolation::Hermite => {
            let (t2, t3) = (t * t, t * t * t);
            vec![
                (2.0 * t3 - 3.0 * t2 + 1.0) * p0,
                (t3 - 2.0 * t2 + t) * p1,
                (t3 - t2) * p2,
                (3.0 * t2 - 2.0 * t3) * p3,
            ]
        }
        Interpolation::Bezier => {
            let s = 1.0 - t;
            vec![
                s * s * s * p0,
                3.0 * s * s * t * p1,
                3.0 * s * t * t * p2,
                t * t * t * p3,
            ]
        }
        _ => return Class::Unexplained,
    };
    let exact: f64 = terms.iter().sum();
    let size = terms
        .iter()
        .map(|v| v.abs())
        .sum::<f64>()
        .max(p0.abs())
        .max(p3.abs());
    let slack = 1e-6 * size;
    if (f64::from(ours) - exact).abs() <= slack && (f64::from(theirs) - exact).abs() <= slack {
        Class::FloatRounding
    } else {
        Class::Unexplained
    }
}

// ---------------------------------------------------------------------------------------
// A quaternion slerp/squad with switchable details, to find which detail a disagreement
// comes from. Written from the behaviour the two crates document (ours: anim/mod.rs; wc3:
// its `Interpolate` docs and our anim/mod.rs notes), not copied from either.
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
pub struct QuatMode {
    /// Normalise the stored key values first (the zero quaternion becomes the identity).
    pub norm_values: bool,
    /// Normalise the stored tangents first (likewise).
    pub norm_tangents: bool,
    /// Normalise every slerp output.
    pub norm_out: bool,
    /// Straight-line fallback (normalised) when cos > 0.9995; else when 1 - cos <= 1e-6.
    pub wide_lerp: bool,
}

impl QuatMode {
    pub const fn new(
        norm_values: bool,
        norm_tangents: bool,
        norm_out: bool,
        wide_lerp: bool,
    ) -> Self {
        QuatMode {
            norm_values,
            norm_tangents,
            norm_out,
            wide_lerp,
        }
    }
}

/// Ours: stored values and tangents normalised, every output normalised (a stored value
/// exactly on a key is returned as stored, by both), gl-matrix's 1e-6 threshold.
pub const OURS: QuatMode = QuatMode::new(true, true, true, false);
/// wc3: every slerp input and output normalised, 0.9995 threshold. (Normalising the keys
/// and every output normalises every input too: the outer slerp's inputs are outputs.)
pub const WC3: QuatMode = QuatMode::new(true, true, true, true);

pub fn qnorm(q: Quat) -> Quat {
    let len = qlen(q);
    if len > 0.0 {
        q.map(|v| v / len)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

pub fn qlen(q: Quat) -> f32 {
    q.iter().map(|v| v * v).sum::<f32>().sqrt()
}

pub fn mode_slerp(m: QuatMode, a: Quat, b: Quat, t: f32) -> Quat {
    let mut b = b;
    let mut cos = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    if cos < 0.0 {
        cos = -cos;
        b = b.map(|v| -v);
    }
    let straight = if m.wide_lerp {
        cos > 0.9995
    } else {
        1.0 - cos <= 1e-6
    };
    let (s0, s1) = if straight {
        (1.0 - t, t)
    } else {
        let omega = cos.min(1.0).acos();
        let sin = omega.sin();
        (((1.0 - t) * omega).sin() / sin, (t * omega).sin() / sin)
    };
    let r = [0, 1, 2, 3].map(|i| s0 * a[i] + s1 * b[i]);
    if m.norm_out || (m.wide_lerp && straight) {
        qnorm(r)
    } else {
        r
    }
}

pub fn mode_eval(m: QuatMode, seg: &Seg<Quat>, interp: Interpolation) -> Quat {
    let value = |q: Quat| if m.norm_values { qnorm(q) } else { q };
    let tangent = |q: Quat| if m.norm_tangents { qnorm(q) } else { q };
    match seg {
        Seg::One(k) => k.value,
        Seg::Two(a, b, t) => match interp {
            Interpolation::Linear => mode_slerp(m, value(a.value), value(b.value), *t),
            Interpolation::Hermite | Interpolation::Bezier => mode_slerp(
                m,
                mode_slerp(m, value(a.value), value(b.value), *t),
                mode_slerp(m, tangent(a.out_tan), tangent(b.in_tan), *t),
                2.0 * t * (1.0 - t),
            ),
            _ => a.value,
        },
    }
}

/// Quaternions: first check that the switchable model reproduces both crates on this
/// sample, then switch details from ours to wc3's, fewest first, until ours agrees.
pub fn explain_quat(seg: &Seg<Quat>, interp: Interpolation, ours: Quat, theirs: Quat) -> Class {
    let keys = seg_keys(seg);
    let tangents = interp.has_tangents();
    let finite = |q: Quat| q.iter().all(|v| v.is_finite());
    let nonfinite = keys
        .iter()
        .any(|k| !finite(k.value) || (tangents && (!finite(k.in_tan) || !finite(k.out_tan))));
    if nonfinite {
        return Class::NonFinite;
    }
    // The model must reproduce both sides, or it proves nothing.
    if !quat_agree(mode_eval(OURS, seg, interp), ours, 1e-6)
        || !quat_agree(mode_eval(WC3, seg, interp), theirs, TOL)
    {
        return Class::Unexplained;
    }
    let fixes = |m: QuatMode| quat_agree(mode_eval(m, seg, interp), theirs, TOL);
    // Which stored quaternions are off the unit sphere (beyond f32 rounding).
    let off = |q: Quat| (qlen(q) - 1.0).abs() > 1e-6;
    let values_off = keys.iter().any(|k| off(k.value));
    let (tangents_off, zero_tangent) = match seg {
        Seg::Two(a, b, _) if tangents => (
            off(a.out_tan) || off(b.in_tan),
            qlen(a.out_tan) == 0.0 || qlen(b.in_tan) == 0.0,
        ),
        _ => (false, false),
    };
    if values_off && fixes(QuatMode::new(true, false, true, false)) {
        if keys.iter().any(|k| (qlen(k.value) - 1.0).abs() > 0.1) {
            Class::QuatDegenerateValues
        } else {
            Class::QuatNonUnitValues
        }
    } else if tangents_off && fixes(QuatMode::new(false, true, true, false)) {
        if zero_tangent {
            Class::QuatZeroTangent
        } else {
            Class::QuatNonUnitTangents
        }
    } else if fixes(QuatMode::new(false, false, false, true)) {
        Class::QuatThreshold
    } else if values_off && tangents_off && fixes(QuatMode::new(true, true, true, false)) {
        Class::QuatNonUnitBoth
    } else if values_off || tangents_off {
        // The full wc3 mode reproduces wc3 (checked above); no smaller set of details does.
        Class::QuatNonUnitAndThreshold
    } else {
        Class::Unexplained
    }
}

/// A value kind the two samplers disagree on: the class of a disagreement.
pub trait Explain: Copy {
    fn explain(seg: &Seg<Self>, interp: Interpolation, ours: Self, theirs: Self) -> Class;
}

impl Explain for f32 {
    fn explain(seg: &Seg<f32>, interp: Interpolation, ours: f32, theirs: f32) -> Class {
        explain_scalar(seg, interp, |v| v, ours, theirs)
    }
}

impl Explain for [f32; 3] {
    fn explain(seg: &Seg<Self>, interp: Interpolation, ours: Self, theirs: Self) -> Class {
        // The worst component decides.
        (0..3)
            .filter(|&i| !close(ours[i], theirs[i]))
            .map(|i| explain_scalar(seg, interp, |v| v[i], ours[i], theirs[i]))
            .max()
            .unwrap_or(Class::Unexplained)
    }
}

impl Explain for [f32; 4] {
    fn explain(seg: &Seg<Self>, interp: Interpolation, ours: Self, theirs: Self) -> Class {
        explain_quat(seg, interp, ours, theirs)
    }
}

impl Explain for u32 {
    fn explain(_: &Seg<u32>, _: Interpolation, _: u32, _: u32) -> Class {
        // Both step on the earlier key whatever the interpolation: no known cause.
        Class::Unexplained
    }
}

/// Rotations: the angle in degrees between the two (q and -q are one rotation).
pub fn degrees_between(a: Quat, b: Quat) -> f64 {
    let (a, b) = (a.map(f64::from), b.map(f64::from));
    let len = |q: [f64; 4]| q.iter().map(|v| v * v).sum::<f64>().sqrt();
    let cos = (0..4).map(|i| a[i] * b[i]).sum::<f64>().abs() / (len(a) * len(b));
    2.0 * cos.min(1.0).acos().to_degrees()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mdlx::anim::sample::{sample_keys, sorted_keys};
    use mdlx::anim::Window;
    use mdlx::model::Track;
    use wc3::model::animation::{Track as WTrack, ValueKeyframe};

    /// The class of the disagreement of the two samplers at `frame` on a linear float track
    /// with keys at 0 and 100, or `None` when they agree.
    fn class_at(keys: [(i32, f32); 2], frame: f64) -> Option<Class> {
        let ours = Track {
            interpolation: Interpolation::Linear,
            global_sequence_id: -1,
            keys: keys
                .iter()
                .map(|&(time, value)| Key {
                    time,
                    value,
                    in_tan: 0.0,
                    out_tan: 0.0,
                })
                .collect(),
        };
        let values = keys.map(|(frame, value)| ValueKeyframe { frame, value });
        let theirs = WTrack::linear(values.to_vec(), None).unwrap();
        let window = Window {
            frame,
            lo: 0,
            hi: 100,
        };
        let keys = sorted_keys(&ours);
        let a = sample_keys(&keys, Interpolation::Linear, window).unwrap();
        let b = theirs.evaluate_in(frame, 0..=100).unwrap();
        if close(a, b) {
            return None;
        }
        let seg = Seg::Two(keys[0], keys[1], (frame / 100.0) as f32);
        Some(f32::explain(&seg, Interpolation::Linear, a, b))
    }

    /// Each cause the samplers still show on a minimal synthetic track is named; the
    /// quaternion details the classes switch really change the result, except wc3's lerp
    /// threshold, which stays under the tolerance on unit rotations.
    #[test]
    fn classifier_names_each_cause() {
        // Non-finite values: ours inf + (inf - inf) t = NaN, wc3 inf (1 - t) + inf t = inf.
        let inf = f32::INFINITY;
        assert_eq!(
            class_at([(0, inf), (100, inf)], 50.0),
            Some(Class::NonFinite)
        );
        // Large values: ours 820000.0, wc3 819999.94 at t = 0.09.
        assert_eq!(
            class_at([(0, 1e6), (100, -1e6)], 9.0),
            Some(Class::FloatRounding)
        );
        assert_eq!(class_at([(0, 1.0), (100, -1.0)], 9.0), None);

        let q0 = [0.0f32; 4];
        let id = [0.0, 0.0, 0.0, 1.0f32];
        let half = [0.0, 0.0, 1.0, 0.0f32];
        let key = |time: i32, value: Quat| Key {
            time,
            value,
            in_tan: q0,
            out_tan: q0,
        };
        // A stored value 5% short: slerping stored values (gl-matrix's way) and wc3's
        // normalised slerp differ, which is what the non-unit classes detect.
        let stored = QuatMode::new(false, false, false, false);
        let seg = Seg::Two(key(0, id.map(|v| v * 0.95)), key(100, half), 0.25);
        let glm = mode_eval(stored, &seg, Interpolation::Linear);
        let w = mode_eval(WC3, &seg, Interpolation::Linear);
        assert!(
            !quat_agree(glm, w, TOL),
            "the 5% case must differ between the two models"
        );
        // Unit rotations just inside wc3's straight-line range (cos 0.9996): nlerp and slerp
        // differ by under 1e-6 there, so the threshold alone never exceeds the tolerance.
        let c = 0.9996f32;
        let near = [0.0, 0.0, (1.0 - c * c).sqrt(), c];
        for t in [0.1, 0.25, 0.5, 0.75, 0.9] {
            let seg = Seg::Two(key(0, id), key(100, near), t);
            let (a, b) = (
                mode_eval(OURS, &seg, Interpolation::Linear),
                mode_eval(WC3, &seg, Interpolation::Linear),
            );
            assert!(quat_agree(a, b, 1e-6), "t={t}: {a:?} {b:?}");
        }
    }
}
