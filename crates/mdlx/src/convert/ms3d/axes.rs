//! Axes and rotations: Milkshape (+Y up, Euler angles) against WC3 (+Z up, quaternions).

use crate::anim::math::{qaxis_angle, qconjugate, qmul, qnormalize, Quat, Vec3};

/// Milkshape (+Y up) to WC3 (+Z up): a quarter turn about +X.
pub(crate) fn point_to_wc3(p: Vec3) -> Vec3 {
    [p[0], -p[2], p[1]]
}

/// WC3 (+Z up) to Milkshape (+Y up).
pub(crate) fn point_to_ms3d(p: Vec3) -> Vec3 {
    [p[0], p[2], -p[1]]
}

/// The quarter turn about +X that takes Milkshape axes to WC3 axes, as a quaternion.
fn axes_turn() -> Quat {
    qaxis_angle([1.0, 0.0, 0.0], std::f32::consts::FRAC_PI_2)
}

/// A rotation in Milkshape axes, expressed in WC3 axes.
pub(super) fn rotation_to_wc3(q: Quat) -> Quat {
    let c = axes_turn();
    qnormalize(qmul(qmul(c, q), qconjugate(c)))
}

/// A rotation in WC3 axes, expressed in Milkshape axes.
pub(super) fn rotation_to_ms3d(q: Quat) -> Quat {
    let c = axes_turn();
    qnormalize(qmul(qmul(qconjugate(c), q), c))
}

/// Milkshape's Euler angles (radians; X, then Y, then Z) as a quaternion (computed in f64).
pub(crate) fn euler_to_quat(e: Vec3) -> Quat {
    let half = |a: f32| (f64::from(a) * 0.5).sin_cos();
    let ((sx, cx), (sy, cy), (sz, cz)) = (half(e[0]), half(e[1]), half(e[2]));
    // qz * qy * qx
    let q = [
        sx * cy * cz - cx * sy * sz,
        cx * sy * cz + sx * cy * sz,
        cx * cy * sz - sx * sy * cz,
        cx * cy * cz + sx * sy * sz,
    ];
    qnormalize(q.map(|v| v as f32))
}

/// A quaternion as Milkshape's Euler angles (X, then Y, then Z; Y within +-90 degrees),
/// computed in f64.
pub(crate) fn quat_to_euler(q: Quat) -> Vec3 {
    let [x, y, z, w] = q.map(f64::from);
    // The homogeneous form (divided by the squared length): exact for any length, so the
    // small elements near +-90 degrees of Y do not drown in rounding of `1 - 2(...)`.
    let n2 = x * x + y * y + z * z + w * w;
    if !(n2 > 0.0 && n2.is_finite()) {
        return [0.0; 3];
    }
    let r20 = 2.0 * (x * z - w * y) / n2;
    let r21 = 2.0 * (y * z + w * x) / n2;
    let r22 = (w * w - x * x - y * y + z * z) / n2;
    let r10 = 2.0 * (x * y + w * z) / n2;
    let r00 = (w * w + x * x - y * y - z * z) / n2;
    let sy = (-r20).clamp(-1.0, 1.0);
    // Y from both of its sines' partners, so that it stays exact near +-90 degrees; X and
    // Z from elements scaled by cos(Y), which are exact in f64 until cos(Y) is 0.
    let cy = (r21 * r21 + r22 * r22).sqrt();
    let e = if cy > 1e-12 {
        [r21.atan2(r22), sy.atan2(cy), r10.atan2(r00)]
    } else {
        // Gimbal lock: X and Z turn about the same axis; put it all in Z.
        let r01 = 2.0 * (x * y - w * z) / n2;
        let r11 = (w * w - x * x + y * y - z * z) / n2;
        [0.0, sy.asin(), (-r01).atan2(r11)]
    };
    e.map(|v| v as f32)
}
