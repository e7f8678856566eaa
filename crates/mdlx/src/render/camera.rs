//! The camera: where the eye is, what it looks at, and how the picture is projected.

use crate::anim::math::{cross, dot, normalize, scale, sub, Vec3};
use crate::model::Extent;

/// A perspective camera in the model's own space (Z up).
///
/// The view is `lookAt(eye, target, up)` and the projection the usual OpenGL perspective
/// with a vertical field of view, so that another renderer given the same numbers draws
/// the same picture (mdx-m3-viewer's `perspective` and `moveToAndFace` take exactly these).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Where the eye is.
    pub eye: Vec3,
    /// The point at the centre of the picture.
    pub target: Vec3,
    /// Which way is up (model +Z unless the camera looks straight along it).
    pub up: Vec3,
    /// Vertical field of view in radians.
    pub fov_y: f32,
    /// Near clip distance.
    pub near: f32,
    /// Far clip distance.
    pub far: f32,
}

/// The default view: from the model's front-left, a little above (the angle of the
/// game's own portraits and unit previews).
pub const DEFAULT_YAW_DEG: f32 = 35.0;
/// See [`DEFAULT_YAW_DEG`].
pub const DEFAULT_PITCH_DEG: f32 = 20.0;
/// 45 degrees vertically.
pub const DEFAULT_FOV_Y: f32 = std::f32::consts::FRAC_PI_4;

impl Camera {
    /// A camera orbiting `target` at `distance`, `yaw` radians about +Z from the model's
    /// front (+X, the way units face) and `pitch` radians above the horizon.
    pub fn orbit(target: Vec3, distance: f32, yaw: f32, pitch: f32, fov_y: f32) -> Camera {
        let d = distance.max(1e-3);
        let dir = [
            pitch.cos() * yaw.cos(),
            pitch.cos() * yaw.sin(),
            pitch.sin(),
        ];
        let eye = [
            target[0] + dir[0] * d,
            target[1] + dir[1] * d,
            target[2] + dir[2] * d,
        ];
        let up = if dir[2].abs() > 0.999 {
            [-(yaw.cos()), -(yaw.sin()), 0.0]
        } else {
            [0.0, 0.0, 1.0]
        };
        Camera {
            eye,
            target,
            up,
            fov_y,
            near: d * 0.01,
            far: d * 10.0,
        }
    }

    /// A camera from `yaw` and `pitch` (radians, as [`Camera::orbit`]) that fits the
    /// corners of `extent`'s box in a picture of `aspect` (width / height), looking at the
    /// box's centre, with a small margin.
    pub fn framing(extent: &Extent, yaw: f32, pitch: f32, fov_y: f32, aspect: f32) -> Camera {
        let (min, max) = (extent.min, extent.max);
        let centre = [
            (min[0] + max[0]) * 0.5,
            (min[1] + max[1]) * 0.5,
            (min[2] + max[2]) * 0.5,
        ];
        let probe = Camera::orbit(centre, 1.0, yaw, pitch, fov_y);
        let back = scale(probe.forward(), -1.0);
        let (right, up) = probe.axes();
        let tan_y = (fov_y * 0.5).tan();
        let tan_x = tan_y * aspect;
        let mut distance = 0.0f32;
        for k in 0..8 {
            let corner = [0, 1, 2].map(|a| if k >> a & 1 == 1 { max[a] } else { min[a] });
            let o = sub(corner, centre);
            let need = dot(o, back) + (dot(o, right).abs() / tan_x).max(dot(o, up).abs() / tan_y);
            distance = distance.max(need);
        }
        let distance = if distance.is_finite() && distance > 1e-3 {
            distance * 1.08
        } else {
            1.0
        };
        let mut c = Camera::orbit(centre, distance, yaw, pitch, fov_y);
        // Room beyond the box for particles and ribbons.
        let half = sub(max, centre);
        let radius = dot(half, half).sqrt();
        c.near = distance * 0.02;
        c.far = (distance + radius) * 4.0;
        c
    }

    /// The camera with the default angle ([`DEFAULT_YAW_DEG`], [`DEFAULT_PITCH_DEG`]).
    pub fn default_framing(extent: &Extent, aspect: f32) -> Camera {
        Camera::framing(
            extent,
            DEFAULT_YAW_DEG.to_radians(),
            DEFAULT_PITCH_DEG.to_radians(),
            DEFAULT_FOV_Y,
            aspect,
        )
    }

    /// The direction the camera looks in, unit length.
    pub fn forward(&self) -> Vec3 {
        normalize(sub(self.target, self.eye))
    }

    /// The camera's right and up axes in model space (unit length): the directions a
    /// billboarded sprite spans.
    pub fn axes(&self) -> (Vec3, Vec3) {
        let f = self.forward();
        let mut r = cross(f, self.up);
        if dot(r, r) < 1e-12 {
            r = cross(f, [1.0, 0.0, 0.0]);
        }
        let r = normalize(r);
        (r, cross(r, f))
    }

    /// The view matrix (column-major, model space to eye space).
    pub fn view_matrix(&self) -> [f32; 16] {
        let f = self.forward();
        let (r, u) = self.axes();
        let e = self.eye;
        [
            r[0],
            u[0],
            -f[0],
            0.0,
            r[1],
            u[1],
            -f[1],
            0.0,
            r[2],
            u[2],
            -f[2],
            0.0,
            -dot(r, e),
            -dot(u, e),
            dot(f, e),
            1.0,
        ]
    }

    /// The projection matrix (column-major, OpenGL clip space) for `aspect`.
    pub fn projection_matrix(&self, aspect: f32) -> [f32; 16] {
        let f = 1.0 / (self.fov_y * 0.5).tan();
        let (n, fa) = (self.near, self.far);
        let mut m = [0.0; 16];
        m[0] = f / aspect;
        m[5] = f;
        m[10] = (fa + n) / (n - fa);
        m[11] = -1.0;
        m[14] = 2.0 * fa * n / (n - fa);
        m
    }

    /// The model's own camera (`CAMS`) number `index`, as it stands in the file.
    pub fn from_model(model: &crate::model::Model, index: usize) -> Option<Camera> {
        let c = model.cameras.get(index)?;
        let fov = if c.field_of_view.is_finite() && c.field_of_view > 0.01 {
            c.field_of_view
        } else {
            DEFAULT_FOV_Y
        };
        let d = sub(c.target_position, c.position);
        let dist = dot(d, d).sqrt();
        if !dist.is_finite() || dist < 1e-4 {
            return None;
        }
        let near = if c.near_clip > 0.0 && c.near_clip.is_finite() {
            c.near_clip.min(dist * 0.5)
        } else {
            dist * 0.01
        };
        let far = if c.far_clip > near && c.far_clip.is_finite() {
            c.far_clip.max(dist * 2.0)
        } else {
            dist * 10.0
        };
        Some(Camera {
            eye: c.position,
            target: c.target_position,
            up: [0.0, 0.0, 1.0],
            fov_y: fov,
            near,
            far,
        })
    }
}
