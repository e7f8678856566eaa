//! Guides drawn over a rendered picture: the skeleton (bones), the stored extents, the
//! collision shapes and the wireframe of the visible geosets.
//!
//! They are thin lines through the same camera as the picture ([`Camera::view_matrix`] and
//! [`Camera::projection_matrix`], the picture's aspect), so a guide sits exactly on what
//! the renderer drew. There is no depth test: a guide behind the model still shows, which
//! is what a modder looking for a bone or a shape wants. Lines are antialiased (one pixel
//! wide, the coverage split between the two pixels nearest the line's centre) and clipped
//! at the near plane, so a line that passes behind the eye is cut, not mirrored.
//!
//! ```
//! use mdlx::anim::AnimTime;
//! use mdlx::render::overlay::{self, Overlays};
//! use mdlx::render::{Camera, RenderOptions, Scene, TextureCache};
//! let model = mdlx::mdx::from_bytes(include_bytes!("../../../../examples/cube.mdx")).unwrap();
//! let textures = TextureCache::new(vec![]);
//! let scene = Scene::new(&model, &textures);
//! let at = AnimTime::new(Some(0), 0.0);
//! let options = RenderOptions::new(64, 64, Camera::default_framing(&model.info.extent, 1.0));
//! let mut picture = scene.render(at, &options);
//! let before = picture.clone();
//! let all = Overlays { bones: true, extents: true, collision: true, wireframe: true };
//! overlay::draw(&scene, at, &options, &all, &mut picture);
//! assert_ne!(picture, before); // the box and the wireframe show
//! ```

use super::{Camera, RenderOptions, Scene};
use crate::anim::math::{mul, transform_point, Mat4, Vec3};
use crate::anim::{posed_geosets, AnimTime};
use crate::model::{Extent, Shape};
use crate::texture::RgbaImage;
use std::collections::HashSet;

/// Which guides to draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overlays {
    /// Every node's posed pivot (a dot) joined to its parent's (a line).
    pub bones: bool,
    /// The stored extent of the sequence shown (the model's without one): its box.
    pub extents: bool,
    /// Collision shapes, posed with their nodes: boxes, planes, spheres (three circles),
    /// cylinders (two circles and four sides).
    pub collision: bool,
    /// The triangle edges of the geosets that show.
    pub wireframe: bool,
}

/// Colours of the guides (straight RGBA; alpha is the line's opacity).
pub const BONE_COLOR: [u8; 4] = [80, 255, 120, 255];
/// See [`BONE_COLOR`]: the dots at the pivots.
pub const PIVOT_COLOR: [u8; 4] = [255, 170, 40, 255];
/// See [`BONE_COLOR`].
pub const EXTENT_COLOR: [u8; 4] = [255, 235, 60, 255];
/// See [`BONE_COLOR`].
pub const COLLISION_COLOR: [u8; 4] = [255, 70, 220, 255];
/// See [`BONE_COLOR`].
pub const WIRE_COLOR: [u8; 4] = [90, 200, 255, 160];

/// Draws the guides `which` asks for over `image` (a picture of `scene` at `at` drawn with
/// `options`; only its camera is used, with `image`'s own aspect).
pub fn draw(
    scene: &Scene,
    at: AnimTime,
    options: &RenderOptions,
    which: &Overlays,
    image: &mut RgbaImage,
) {
    let cam = &options.camera;
    let mut pen = Pen::new(image, cam);
    let clock = scene.skeleton.clock(at);
    let pose = scene.skeleton.pose_at(&clock, Some(cam.forward()));
    if which.wireframe {
        let posed = posed_geosets(scene.model, &scene.skeleton, &pose, &clock);
        for g in posed.iter().filter(|g| g.visible && g.alpha > 0.0) {
            let faces = &scene.model.geosets[g.index].faces;
            let mut seen = HashSet::new();
            for t in faces.chunks_exact(3) {
                for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                    let (a, b) = (usize::from(a.min(b)), usize::from(a.max(b)));
                    if a != b && seen.insert((a, b)) {
                        if let (Some(&p), Some(&q)) = (g.positions.get(a), g.positions.get(b)) {
                            pen.line(p, q, WIRE_COLOR);
                        }
                    }
                }
            }
        }
    }
    if which.extents {
        let extent = at
            .sequence
            .and_then(|s| scene.model.sequences.get(s))
            .map_or(&scene.model.info.extent, |s| &s.extent);
        if extent.min.iter().zip(&extent.max).all(|(a, b)| a <= b) {
            boxed(&mut pen, &crate::anim::math::IDENTITY, extent, EXTENT_COLOR);
        }
    }
    if which.collision {
        for shape in &scene.model.collision_shapes {
            let world = scene
                .skeleton
                .by_object_id(shape.node.object_id)
                .map_or(crate::anim::math::IDENTITY, |i| pose.nodes[i].world);
            collision(&mut pen, &world, &shape.shape);
        }
    }
    if which.bones {
        let pivots: Vec<Vec3> = (scene.skeleton.nodes.iter().zip(&pose.nodes))
            .map(|(n, p)| transform_point(&p.world, n.pivot))
            .collect();
        for (i, n) in scene.skeleton.nodes.iter().enumerate() {
            if let Some(parent) = n.parent {
                pen.line(pivots[i], pivots[parent], BONE_COLOR);
            }
        }
        for p in &pivots {
            pen.dot(*p, PIVOT_COLOR);
        }
    }
}

/// The edges of `extent`'s box moved by `world`.
fn boxed(pen: &mut Pen, world: &Mat4, extent: &Extent, color: [u8; 4]) {
    let corner = |k: usize| {
        let p = [0, 1, 2].map(|a| {
            if k >> a & 1 == 1 {
                extent.max[a]
            } else {
                extent.min[a]
            }
        });
        transform_point(world, p)
    };
    for k in 0..8usize {
        for a in 0..3 {
            if k >> a & 1 == 0 {
                pen.line(corner(k), corner(k | 1 << a), color);
            }
        }
    }
}

/// One collision shape, in its node's space moved by `world`.
fn collision(pen: &mut Pen, world: &Mat4, shape: &Shape) {
    let c = COLLISION_COLOR;
    match shape {
        Shape::Box([a, b]) | Shape::Plane([a, b]) => {
            let extent = Extent {
                radius: 0.0,
                min: [0, 1, 2].map(|k| a[k].min(b[k])),
                max: [0, 1, 2].map(|k| a[k].max(b[k])),
            };
            boxed(pen, world, &extent, c);
        }
        Shape::Sphere(centre, r) => {
            for (u, v) in [
                ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
                ([1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
            ]
            .into_iter()
            .chain([([0.0, 1.0, 0.0], [0.0, 0.0, 1.0])])
            {
                circle(pen, world, *centre, u, v, *r, c);
            }
        }
        Shape::Cylinder([a, b], r) => {
            let axis = crate::anim::math::sub(*b, *a);
            let (u, v) = perpendiculars(axis);
            circle(pen, world, *a, u, v, *r, c);
            circle(pen, world, *b, u, v, *r, c);
            for k in 0..4 {
                let angle = k as f32 * std::f32::consts::FRAC_PI_2;
                let off = [0, 1, 2].map(|i| (u[i] * angle.cos() + v[i] * angle.sin()) * r);
                let p = [0, 1, 2].map(|i| a[i] + off[i]);
                let q = [0, 1, 2].map(|i| b[i] + off[i]);
                pen.line(transform_point(world, p), transform_point(world, q), c);
            }
        }
        Shape::Incomplete { .. } => {}
    }
}

/// Two unit vectors perpendicular to `axis` and to each other.
fn perpendiculars(axis: Vec3) -> (Vec3, Vec3) {
    use crate::anim::math::{cross, dot, normalize};
    let n = if dot(axis, axis) > 1e-12 {
        normalize(axis)
    } else {
        [0.0, 0.0, 1.0]
    };
    let helper = if n[2].abs() < 0.9 {
        [0.0, 0.0, 1.0]
    } else {
        [1.0, 0.0, 0.0]
    };
    let u = normalize(cross(n, helper));
    (u, cross(n, u))
}

/// A circle of radius `r` about `centre` in the plane of `u` and `v`, as 48 segments.
fn circle(pen: &mut Pen, world: &Mat4, centre: Vec3, u: Vec3, v: Vec3, r: f32, c: [u8; 4]) {
    const SEGMENTS: usize = 48;
    let at = |k: usize| {
        let a = k as f32 * std::f32::consts::TAU / SEGMENTS as f32;
        let p = [0, 1, 2].map(|i| centre[i] + (u[i] * a.cos() + v[i] * a.sin()) * r);
        transform_point(world, p)
    };
    for k in 0..SEGMENTS {
        pen.line(at(k), at(k + 1), c);
    }
}

/// Draws model-space lines into a picture through a camera.
struct Pen<'a> {
    image: &'a mut RgbaImage,
    view_projection: Mat4,
}

impl<'a> Pen<'a> {
    fn new(image: &'a mut RgbaImage, cam: &Camera) -> Pen<'a> {
        let aspect = image.width.max(1) as f32 / image.height.max(1) as f32;
        Pen {
            view_projection: mul(&cam.projection_matrix(aspect), &cam.view_matrix()),
            image,
        }
    }

    /// `p` in clip space.
    fn clip(&self, p: Vec3) -> [f32; 4] {
        let m = &self.view_projection;
        [0, 1, 2, 3].map(|r| m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r])
    }

    /// A clip-space point in pixels (x right, y down; pixel centres at .5), as the
    /// rasterizer places it.
    fn screen(&self, c: [f32; 4]) -> [f32; 2] {
        let (w, h) = (self.image.width as f32, self.image.height as f32);
        [(c[0] / c[3] * 0.5 + 0.5) * w, (0.5 - c[1] / c[3] * 0.5) * h]
    }

    /// The segment from `a` to `b`, cut at the near plane.
    fn line(&mut self, a: Vec3, b: Vec3, color: [u8; 4]) {
        let (mut ca, mut cb) = (self.clip(a), self.clip(b));
        // In front of the near plane: z + w >= 0 (and w > 0).
        let d = |c: &[f32; 4]| (c[2] + c[3]).min(c[3] - 1e-6);
        let (da, db) = (d(&ca), d(&cb));
        if !(da.is_finite() && db.is_finite()) || (da < 0.0 && db < 0.0) {
            return;
        }
        if da < 0.0 || db < 0.0 {
            let t = da / (da - db);
            let cut = [0, 1, 2, 3].map(|k| ca[k] + (cb[k] - ca[k]) * t);
            if da < 0.0 {
                ca = cut;
            } else {
                cb = cut;
            }
        }
        let (p, q) = (self.screen(ca), self.screen(cb));
        self.segment(p, q, color);
    }

    /// A 3x3 pixel dot at `p`.
    fn dot(&mut self, p: Vec3, color: [u8; 4]) {
        let c = self.clip(p);
        if !(c[2] + c[3] >= 0.0 && c[3] > 1e-6) {
            return;
        }
        let [x, y] = self.screen(c);
        let (x, y) = (x.floor() as i64, y.floor() as i64);
        for dy in -1..=1 {
            for dx in -1..=1 {
                self.plot(x + dx, y + dy, 1.0, color);
            }
        }
    }

    /// A screen segment, antialiased: along its longer axis, at each pixel centre, the
    /// coverage is split between the two pixels across whose centres the line passes.
    fn segment(&mut self, p: [f32; 2], q: [f32; 2], color: [u8; 4]) {
        let Some((p, q)) = clip_rect(p, q, self.image.width as f32, self.image.height as f32)
        else {
            return;
        };
        let steep = (q[1] - p[1]).abs() > (q[0] - p[0]).abs();
        // Major axis first.
        let (p, q) = if steep {
            ([p[1], p[0]], [q[1], q[0]])
        } else {
            (p, q)
        };
        let (p, q) = if p[0] > q[0] { (q, p) } else { (p, q) };
        let dx = q[0] - p[0];
        let slope = if dx > 1e-6 { (q[1] - p[1]) / dx } else { 0.0 };
        let first = (p[0] - 0.5).round() as i64;
        let last = ((q[0] - 0.5).round() as i64).max(first);
        for major in first..=last {
            let centre = major as f32 + 0.5;
            let minor = p[1] + (centre.clamp(p[0], q[0]) - p[0]) * slope - 0.5;
            let base = minor.floor();
            let f = minor - base;
            let base = base as i64;
            for (m, cover) in [(base, 1.0 - f), (base + 1, f)] {
                if steep {
                    self.plot(m, major, cover, color);
                } else {
                    self.plot(major, m, cover, color);
                }
            }
        }
    }

    /// Blends `color` over pixel (x, y) with `cover` of its alpha.
    fn plot(&mut self, x: i64, y: i64, cover: f32, color: [u8; 4]) {
        let (w, h) = (i64::from(self.image.width), i64::from(self.image.height));
        if x < 0 || y < 0 || x >= w || y >= h || cover <= 0.0 {
            return;
        }
        let a = cover.min(1.0) * f32::from(color[3]) / 255.0;
        let i = ((y * w + x) * 4) as usize;
        let px = &mut self.image.pixels[i..i + 4];
        for k in 0..3 {
            let v = f32::from(color[k]) * a + f32::from(px[k]) * (1.0 - a);
            px[k] = v.round().clamp(0.0, 255.0) as u8;
        }
        let da = f32::from(px[3]) / 255.0;
        px[3] = ((a + da * (1.0 - a)) * 255.0).round().clamp(0.0, 255.0) as u8;
    }
}

/// The part of segment `p`-`q` inside the picture (with a pixel of margin), or `None`
/// (Liang-Barsky).
fn clip_rect(p: [f32; 2], q: [f32; 2], w: f32, h: f32) -> Option<([f32; 2], [f32; 2])> {
    let d = [q[0] - p[0], q[1] - p[1]];
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (pk, qk) in [
        (-d[0], p[0] + 1.0),
        (d[0], w + 1.0 - p[0]),
        (-d[1], p[1] + 1.0),
        (d[1], h + 1.0 - p[1]),
    ] {
        if pk == 0.0 {
            if qk < 0.0 {
                return None;
            }
        } else {
            let r = qk / pk;
            if pk < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 <= t1 && t0.is_finite() && t1.is_finite()).then(|| {
        (
            [p[0] + d[0] * t0, p[1] + d[1] * t0],
            [p[0] + d[0] * t1, p[1] + d[1] * t1],
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eye on +X looking at the origin, Z up, 90 degrees vertically: a point (x, y, z) is
    /// at depth 10 - x, and a pinhole with its focal length of 50 pixels (half of a
    /// 100-pixel picture over tan 45 degrees) puts it at column 50 + 50 y / depth and row
    /// 50 - 50 z / depth (the camera's right is +Y).
    fn camera() -> Camera {
        Camera {
            eye: [10.0, 0.0, 0.0],
            target: [0.0; 3],
            up: [0.0, 0.0, 1.0],
            fov_y: std::f32::consts::FRAC_PI_2,
            near: 0.1,
            far: 100.0,
        }
    }

    fn blank() -> RgbaImage {
        RgbaImage {
            width: 100,
            height: 100,
            pixels: vec![0; 100 * 100 * 4],
        }
    }

    fn alpha(img: &RgbaImage, x: usize, y: usize) -> u8 {
        img.pixels[(y * 100 + x) * 4 + 3]
    }

    #[test]
    fn a_line_lands_where_the_pinhole_puts_it() {
        // (0, -4, 1.9) and (0, 4, 1.9): depth 10, columns 30 and 70, row 50 - 9.5 = 40.5,
        // the centre of pixel row 40.
        let mut img = blank();
        let mut pen = Pen::new(&mut img, &camera());
        pen.line([0.0, -4.0, 1.9], [0.0, 4.0, 1.9], [255; 4]);
        for x in 31..69 {
            assert_eq!(alpha(&img, x, 40), 255, "column {x} of row 40");
            assert_eq!(alpha(&img, x, 39), 0);
            assert_eq!(alpha(&img, x, 41), 0);
        }
        for x in (0..28).chain(72..100) {
            assert_eq!(alpha(&img, x, 40), 0, "column {x} is beyond the ends");
        }
    }

    #[test]
    fn a_receding_line_follows_the_perspective() {
        // From (5, -2.5, 0) (depth 5: column 25, row 50) to (-5, 7.5, -3) (depth 15:
        // column 75, row 60). Every painted pixel is within a pixel of the straight screen
        // line between those two points, and the line's pixels are painted.
        let mut img = blank();
        let mut pen = Pen::new(&mut img, &camera());
        pen.line([5.0, -2.5, 0.0], [-5.0, 7.5, -3.0], [255; 4]);
        let (a, b) = ([25.0f32, 50.0], [75.0f32, 60.0]);
        let off_line = |x: f32, y: f32| {
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            ((x - a[0]) * dy - (y - a[1]) * dx).abs() / (dx * dx + dy * dy).sqrt()
        };
        let mut painted = 0;
        for y in 0..100 {
            for x in 0..100 {
                if alpha(&img, x, y) > 0 {
                    painted += 1;
                    let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
                    assert!(off_line(cx, cy) < 1.0, "pixel {x},{y} is off the line");
                    assert!(
                        (24.0..77.0).contains(&cx),
                        "pixel {x},{y} is beyond the ends"
                    );
                }
            }
        }
        assert!(painted >= 50, "{painted} pixels painted");
        // The middle of the screen line (50, 55) is covered.
        assert!(alpha(&img, 50, 55) > 100 || alpha(&img, 50, 54) > 100);
    }

    #[test]
    fn a_sphere_is_a_ring_facing_the_camera() {
        // Radius 2 about the origin, seen from depth 10: the circle across the view is a
        // ring of 50 * 2 / 10 = 10 pixels about the centre (50, 50); the other two circles
        // are edge-on (the two axes through the centre). A pixel on the ring's diagonal is
        // painted; pixels on the diagonal well inside and outside it are not.
        let mut img = blank();
        let mut pen = Pen::new(&mut img, &camera());
        collision(
            &mut pen,
            &crate::anim::math::IDENTITY,
            &Shape::Sphere([0.0; 3], 2.0),
        );
        let d = 10.0 / std::f32::consts::SQRT_2; // 7.07
        let on = |r: f32| {
            let (x, y) = ((50.0 + r) as usize, (50.0 - r) as usize);
            (0..2).any(|k| alpha(&img, x + k, y) > 60 || alpha(&img, x, y + k) > 60)
        };
        assert!(on(d), "the ring is not at 10 pixels");
        assert!(!on(4.0), "something inside the ring");
        assert!(!on(11.0), "something outside the ring");
    }

    #[test]
    fn a_line_through_the_eye_plane_is_cut_not_mirrored() {
        // From in front (0, 0, 0) (the centre) to behind the eye (20, 0, 5): only the part
        // in front shows, running up from the centre (z grows toward the eye).
        let mut img = blank();
        let mut pen = Pen::new(&mut img, &camera());
        pen.line([0.0, 0.0, 0.0], [20.0, 0.0, 5.0], [255; 4]);
        for y in 52..100 {
            for x in 0..100 {
                assert_eq!(alpha(&img, x, y), 0, "pixel {x},{y} below the centre");
            }
        }
        assert!(alpha(&img, 49, 30) > 0 || alpha(&img, 50, 30) > 0);
    }
}
