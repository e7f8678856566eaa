//! Small vector, quaternion and matrix helpers for posing models. Quaternions are
//! `[x, y, z, w]` as MDX stores them; matrices are column-major `[f32; 16]`, as glTF and
//! OpenGL use them (`m[12..15]` is the translation).

/// A 3-component vector.
pub type Vec3 = [f32; 3];
/// A quaternion `[x, y, z, w]`.
pub type Quat = [f32; 4];
/// A column-major 4x4 matrix.
pub type Mat4 = [f32; 16];

/// The identity matrix.
pub const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// The identity rotation.
pub const QUAT_IDENTITY: Quat = [0.0, 0.0, 0.0, 1.0];

/// `a + b`.
pub fn add(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `a - b`.
pub fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `a * s`.
pub fn scale(a: Vec3, s: f32) -> Vec3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// Dot product.
pub fn dot(a: Vec3, b: Vec3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Cross product.
pub fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Whether the triangle `a b c` has no area: the cross product of its edges from `a` is
/// exactly zero (how `check` and the optimizer both tell a flat triangle).
pub fn no_area(a: Vec3, b: Vec3, c: Vec3) -> bool {
    cross(sub(b, a), sub(c, a)) == [0.0; 3]
}

/// `a` scaled to length 1 (the zero vector stays zero).
pub fn normalize(a: Vec3) -> Vec3 {
    let len = dot(a, a).sqrt();
    if len > 0.0 {
        scale(a, 1.0 / len)
    } else {
        a
    }
}

/// Quaternion dot product.
pub fn qdot(a: Quat, b: Quat) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
}

/// `q` scaled to length 1; the zero quaternion becomes the identity.
pub fn qnormalize(q: Quat) -> Quat {
    let len = qdot(q, q).sqrt();
    if len > 0.0 && len.is_finite() {
        [q[0] / len, q[1] / len, q[2] / len, q[3] / len]
    } else {
        QUAT_IDENTITY
    }
}

/// The Hamilton product `a * b` (apply `b`, then `a`).
pub fn qmul(a: Quat, b: Quat) -> Quat {
    [
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ]
}

/// The inverse rotation of a unit quaternion.
pub fn qconjugate(q: Quat) -> Quat {
    [-q[0], -q[1], -q[2], q[3]]
}

/// Rotates `v` by the unit quaternion `q`.
pub fn qrotate(q: Quat, v: Vec3) -> Vec3 {
    let u = [q[0], q[1], q[2]];
    let t = scale(cross(u, v), 2.0);
    add(add(v, scale(t, q[3])), cross(u, t))
}

/// The rotation of `angle` radians about the unit `axis`.
pub fn qaxis_angle(axis: Vec3, angle: f32) -> Quat {
    let (s, c) = (angle * 0.5).sin_cos();
    [axis[0] * s, axis[1] * s, axis[2] * s, c]
}

/// Spherical linear interpolation from `a` to `b`, along the shorter arc (`b` is negated
/// when the two are more than 90 degrees apart in quaternion space). Nearly equal inputs
/// fall back to a straight line. Inputs are used as stored, not normalized first.
pub fn slerp(a: Quat, b: Quat, t: f32) -> Quat {
    let mut cos = qdot(a, b);
    let mut b = b;
    if cos < 0.0 {
        cos = -cos;
        b = [-b[0], -b[1], -b[2], -b[3]];
    }
    let (s0, s1) = if 1.0 - cos > 1e-6 {
        let omega = cos.min(1.0).acos();
        let sin = omega.sin();
        (((1.0 - t) * omega).sin() / sin, (t * omega).sin() / sin)
    } else {
        (1.0 - t, t)
    };
    [
        s0 * a[0] + s1 * b[0],
        s0 * a[1] + s1 * b[1],
        s0 * a[2] + s1 * b[2],
        s0 * a[3] + s1 * b[3],
    ]
}

/// The quaternion spline of Hermite and Bezier rotation tracks: `slerp(slerp(a, b, t),
/// slerp(a_out, b_in, t), 2t(1 - t))`, Shoemake's squad with the stored tangents as the
/// inner control points.
pub fn squad(a: Quat, a_out: Quat, b_in: Quat, b: Quat, t: f32) -> Quat {
    slerp(slerp(a, b, t), slerp(a_out, b_in, t), 2.0 * t * (1.0 - t))
}

/// `a * b` (apply `b`, then `a`).
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[c * 4 + r] = a[r] * b[c * 4]
                + a[4 + r] * b[c * 4 + 1]
                + a[8 + r] * b[c * 4 + 2]
                + a[12 + r] * b[c * 4 + 3];
        }
    }
    out
}

/// Transforms the point `p` (w = 1).
pub fn transform_point(m: &Mat4, p: Vec3) -> Vec3 {
    [
        m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12],
        m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
        m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14],
    ]
}

/// Transforms the direction `v` (w = 0).
pub fn transform_vector(m: &Mat4, v: Vec3) -> Vec3 {
    [
        m[0] * v[0] + m[4] * v[1] + m[8] * v[2],
        m[1] * v[0] + m[5] * v[1] + m[9] * v[2],
        m[2] * v[0] + m[6] * v[1] + m[10] * v[2],
    ]
}

/// The matrix that scales by `s`, rotates by `q` and translates by `t`, all about the point
/// `origin`: `T(t) * T(origin) * R(q) * S(s) * T(-origin)`.
pub fn trs_about(t: Vec3, q: Quat, s: Vec3, origin: Vec3) -> Mat4 {
    let [x, y, z, w] = q;
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, xy, xz) = (x * x2, x * y2, x * z2);
    let (yy, yz, zz) = (y * y2, y * z2, z * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    // Columns of R * S.
    let c0 = [(1.0 - (yy + zz)) * s[0], (xy + wz) * s[0], (xz - wy) * s[0]];
    let c1 = [(xy - wz) * s[1], (1.0 - (xx + zz)) * s[1], (yz + wx) * s[1]];
    let c2 = [(xz + wy) * s[2], (yz - wx) * s[2], (1.0 - (xx + yy)) * s[2]];
    // Translation: t + origin - (R S) origin.
    let rs_o = [
        c0[0] * origin[0] + c1[0] * origin[1] + c2[0] * origin[2],
        c0[1] * origin[0] + c1[1] * origin[1] + c2[1] * origin[2],
        c0[2] * origin[0] + c1[2] * origin[1] + c2[2] * origin[2],
    ];
    [
        c0[0],
        c0[1],
        c0[2],
        0.0,
        c1[0],
        c1[1],
        c1[2],
        0.0,
        c2[0],
        c2[1],
        c2[2],
        0.0,
        t[0] + origin[0] - rs_o[0],
        t[1] + origin[1] - rs_o[1],
        t[2] + origin[2] - rs_o[2],
        1.0,
    ]
}

/// The rotation whose matrix has the columns `x`, `y`, `z` (orthonormal, right-handed).
pub fn quat_from_basis(x: Vec3, y: Vec3, z: Vec3) -> Quat {
    let trace = x[0] + y[1] + z[2];
    let q = if trace > 0.0 {
        let s = (trace + 1.0).sqrt() * 2.0;
        [
            (y[2] - z[1]) / s,
            (z[0] - x[2]) / s,
            (x[1] - y[0]) / s,
            0.25 * s,
        ]
    } else if x[0] > y[1] && x[0] > z[2] {
        let s = (1.0 + x[0] - y[1] - z[2]).sqrt() * 2.0;
        [
            0.25 * s,
            (y[0] + x[1]) / s,
            (z[0] + x[2]) / s,
            (y[2] - z[1]) / s,
        ]
    } else if y[1] > z[2] {
        let s = (1.0 + y[1] - x[0] - z[2]).sqrt() * 2.0;
        [
            (y[0] + x[1]) / s,
            0.25 * s,
            (z[1] + y[2]) / s,
            (z[0] - x[2]) / s,
        ]
    } else {
        let s = (1.0 + z[2] - x[0] - y[1]).sqrt() * 2.0;
        [
            (z[0] + x[2]) / s,
            (z[1] + y[2]) / s,
            0.25 * s,
            (x[1] - y[0]) / s,
        ]
    };
    qnormalize(q)
}

/// The rotation part of an affine matrix whose 3x3 part is a rotation times a positive
/// scale per axis: its columns, normalised. Also returns the three column lengths.
pub fn decompose(m: &Mat4) -> (Quat, Vec3) {
    let cols = [[m[0], m[1], m[2]], [m[4], m[5], m[6]], [m[8], m[9], m[10]]];
    let lens = cols.map(|c| dot(c, c).sqrt());
    let x = normalize(cols[0]);
    let y = normalize(sub(cols[1], scale(x, dot(x, cols[1]))));
    let z = cross(x, y);
    (quat_from_basis(x, y, z), lens)
}

/// The inverse of an affine matrix (last row 0 0 0 1), or `None` if it is singular.
pub fn invert_affine(m: &Mat4) -> Option<Mat4> {
    let (a, b, c) = (m[0] as f64, m[4] as f64, m[8] as f64);
    let (d, e, f) = (m[1] as f64, m[5] as f64, m[9] as f64);
    let (g, h, i) = (m[2] as f64, m[6] as f64, m[10] as f64);
    let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    if det.abs() < 1e-12 || !det.is_finite() {
        return None;
    }
    let inv = [
        [
            (e * i - f * h) / det,
            (c * h - b * i) / det,
            (b * f - c * e) / det,
        ],
        [
            (f * g - d * i) / det,
            (a * i - c * g) / det,
            (c * d - a * f) / det,
        ],
        [
            (d * h - e * g) / det,
            (b * g - a * h) / det,
            (a * e - b * d) / det,
        ],
    ];
    let t = [m[12] as f64, m[13] as f64, m[14] as f64];
    let mut out = IDENTITY;
    for r in 0..3 {
        for col in 0..3 {
            out[col * 4 + r] = inv[r][col] as f32;
        }
        out[12 + r] = -(inv[r][0] * t[0] + inv[r][1] * t[1] + inv[r][2] * t[2]) as f32;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn quarter_turn_about_z_maps_x_to_y() {
        let q = qaxis_angle([0.0, 0.0, 1.0], std::f32::consts::FRAC_PI_2);
        assert!(close(&qrotate(q, [1.0, 0.0, 0.0]), &[0.0, 1.0, 0.0]));
        let m = trs_about([0.0; 3], q, [1.0; 3], [0.0; 3]);
        assert!(close(
            &transform_point(&m, [1.0, 0.0, 0.0]),
            &[0.0, 1.0, 0.0]
        ));
    }

    #[test]
    fn rotation_about_a_pivot_keeps_the_pivot_in_place() {
        // A half turn about Z through (1, 0, 0): the pivot stays, the origin goes to (2, 0, 0).
        let q = qaxis_angle([0.0, 0.0, 1.0], std::f32::consts::PI);
        let m = trs_about([0.0; 3], q, [1.0; 3], [1.0, 0.0, 0.0]);
        assert!(close(
            &transform_point(&m, [1.0, 0.0, 0.0]),
            &[1.0, 0.0, 0.0]
        ));
        assert!(close(
            &transform_point(&m, [0.0, 0.0, 0.0]),
            &[2.0, 0.0, 0.0]
        ));
        // Scaling by 2 about (1, 0, 0), then moving by (0, 0, 5): (3, 0, 0) -> (5, 0, 5).
        let m = trs_about([0.0, 0.0, 5.0], QUAT_IDENTITY, [2.0; 3], [1.0, 0.0, 0.0]);
        assert!(close(
            &transform_point(&m, [3.0, 0.0, 0.0]),
            &[5.0, 0.0, 5.0]
        ));
    }

    #[test]
    fn matrix_product_applies_the_right_factor_first() {
        let turn = trs_about(
            [0.0; 3],
            qaxis_angle([0.0, 0.0, 1.0], std::f32::consts::FRAC_PI_2),
            [1.0; 3],
            [0.0; 3],
        );
        let shift = trs_about([1.0, 0.0, 0.0], QUAT_IDENTITY, [1.0; 3], [0.0; 3]);
        // Shift then turn: (0,0,0) -> (1,0,0) -> (0,1,0).
        assert!(close(
            &transform_point(&mul(&turn, &shift), [0.0; 3]),
            &[0.0, 1.0, 0.0]
        ));
        // Turn then shift: (0,0,0) -> (0,0,0) -> (1,0,0).
        assert!(close(
            &transform_point(&mul(&shift, &turn), [0.0; 3]),
            &[1.0, 0.0, 0.0]
        ));
    }

    #[test]
    fn decompose_and_invert_undo_trs() {
        let q = qnormalize([0.1, -0.4, 0.3, 0.85]);
        let m = trs_about([1.0, 2.0, 3.0], q, [2.0, 2.0, 2.0], [0.5, 0.0, -1.0]);
        let (r, s) = decompose(&m);
        assert!(close(&s, &[2.0, 2.0, 2.0]));
        assert!(close(&r, &q) || close(&r, &q.map(|x| -x)));
        let inv = invert_affine(&m).unwrap();
        assert!(close(&mul(&inv, &m), &IDENTITY));
    }

    #[test]
    fn slerp_takes_the_short_way_and_hits_the_midpoint() {
        let a = QUAT_IDENTITY;
        let b = qaxis_angle([0.0, 0.0, 1.0], std::f32::consts::FRAC_PI_2);
        let mid = slerp(a, b, 0.5);
        assert!(close(
            &mid,
            &qaxis_angle([0.0, 0.0, 1.0], std::f32::consts::FRAC_PI_4)
        ));
        // -b is the same rotation: the result is the same rotation (up to sign).
        let nb = [-b[0], -b[1], -b[2], -b[3]];
        let mid2 = slerp(a, nb, 0.5);
        assert!(close(&mid2, &mid));
    }
}
