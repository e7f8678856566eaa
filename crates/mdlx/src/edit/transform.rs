//! Moving a whole model: scaled (every length, see [`crate::convert::scale`]), turned about
//! an axis, moved, centred, put on the ground, mirrored. The model poses as before, then
//! moved: every node's transform is conjugated by the motion `A` (pivot `A p`, translation
//! `R t`, rotation `R q R⁻¹`, scaling `R S R⁻¹`), so each posed vertex is `A` of where it
//! was. One thing cannot be said exactly: a node scaled unevenly (scaling keys that differ
//! between axes) in a model turned by an angle that is not a multiple of 90 degrees has no
//! axis-aligned scaling in the turned frame; those keys keep the diagonal of `R S R⁻¹`
//! and the report counts them. Particle gravity pulls along the world's -Z whatever the
//! model's turn.

use super::Report;
use crate::anim::math::{qaxis_angle, qconjugate, qmul, Quat, Vec3};
use crate::model::visit::{visit_tracks_mut, Owner, TrackVisitorMut};
use crate::model::{face_type, AnyTrack, Extent, Model, Shape, Track, Tracks};
use crate::spec::track as tk;

/// An axis of the model's space (+X is where a unit faces, +Y its left, +Z up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// Forward and back.
    X,
    /// Left and right.
    Y,
    /// Up and down.
    Z,
}

impl Axis {
    fn index(self) -> usize {
        match self {
            Axis::X => 0,
            Axis::Y => 1,
            Axis::Z => 2,
        }
    }
}

/// One motion of a whole model.
#[derive(Clone, Debug, PartialEq)]
pub enum Transform {
    /// Every length times this factor (above 0).
    Scale(f32),
    /// Turned about an axis through the origin, counter-clockwise looking down the axis.
    Rotate {
        /// The axis.
        axis: Axis,
        /// The angle in degrees.
        degrees: f32,
    },
    /// Moved by this offset.
    Translate(Vec3),
    /// Moved so that the middle of its vertices (in X and Y) is at the origin.
    Centre,
    /// Moved up or down so that its lowest vertex is at height 0.
    Ground,
    /// Mirrored across the plane through the origin normal to the axis. Mirroring across
    /// Y (left to right) also swaps `Left`/`Right` and `L`/`R` in node names, so that
    /// `Hand Left Ref` is still the left hand.
    Mirror(Axis),
}

/// A rigid motion `x -> R x + T`, `R` a rotation or a reflection.
struct Motion {
    r: [[f32; 3]; 3],
    /// The rotation part as a quaternion (for a reflection, of `-R`, which is a rotation
    /// and conjugates rotations alike).
    q: Quat,
    /// -1 for a reflection.
    det: f32,
    t: Vec3,
}

impl Motion {
    fn translation(t: Vec3) -> Motion {
        Motion {
            r: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            q: [0.0, 0.0, 0.0, 1.0],
            det: 1.0,
            t,
        }
    }

    fn rotation(axis: Axis, degrees: f32) -> Motion {
        let rad = f64::from(degrees).to_radians();
        // Exact for quarter turns: no 1e-8 left where a zero belongs.
        let snap = |x: f64| if x.abs() < 1e-12 { 0.0 } else { x as f32 };
        let (s, c) = (snap(rad.sin()), snap(rad.cos()));
        let i = axis.index();
        let (a, b) = ((i + 1) % 3, (i + 2) % 3);
        let mut m = Motion::translation([0.0; 3]);
        m.r[a][a] = c;
        m.r[a][b] = -s;
        m.r[b][a] = s;
        m.r[b][b] = c;
        let mut unit = [0.0; 3];
        unit[i] = 1.0;
        m.q = qaxis_angle(unit, rad as f32);
        m
    }

    fn mirror(axis: Axis) -> Motion {
        let i = axis.index();
        let mut m = Motion::translation([0.0; 3]);
        m.r[i][i] = -1.0;
        m.det = -1.0;
        // -R is the half turn about the axis.
        m.q = [0.0, 0.0, 0.0, 0.0];
        m.q[i] = 1.0;
        m
    }

    fn vector(&self, v: Vec3) -> Vec3 {
        let r = &self.r;
        [0, 1, 2].map(|i| r[i][0] * v[0] + r[i][1] * v[1] + r[i][2] * v[2])
    }

    fn point(&self, p: Vec3) -> Vec3 {
        let v = self.vector(p);
        [v[0] + self.t[0], v[1] + self.t[1], v[2] + self.t[2]]
    }

    fn rotation_of(&self, q: Quat) -> Quat {
        qmul(qmul(self.q, q), qconjugate(self.q))
    }

    /// `R S R⁻¹` for a diagonal `S`, and whether it was diagonal.
    fn scaling(&self, s: Vec3) -> (Vec3, bool) {
        let r = &self.r;
        let d = [0, 1, 2].map(|i| (0..3).map(|j| r[i][j] * r[i][j] * s[j]).sum::<f32>());
        let mut exact = true;
        for i in 0..3 {
            for k in (i + 1)..3 {
                let off: f32 = (0..3).map(|j| r[i][j] * r[k][j] * s[j]).sum();
                if off.abs() > 1e-6 * (1.0 + d[i].abs().max(d[k].abs())) {
                    exact = false;
                }
            }
        }
        (d, exact)
    }

    /// The box holding the moved box (the same box turned, for a quarter turn).
    fn extent(&self, e: &mut Extent) {
        // Unset (zeros) or empty (min +3.4e38, max -3.4e38, as exporters write): kept.
        if (e.min == [0.0; 3] && e.max == [0.0; 3]) || (0..3).any(|i| e.min[i] > e.max[i]) {
            return;
        }
        let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
        for corner in 0..8 {
            let c = [0, 1, 2].map(|i| {
                if corner >> i & 1 == 0 {
                    e.min[i]
                } else {
                    e.max[i]
                }
            });
            let p = self.point(c);
            for i in 0..3 {
                lo[i] = lo[i].min(p[i]);
                hi[i] = hi[i].max(p[i]);
            }
        }
        e.min = lo;
        e.max = hi;
    }
}

/// Moves `model` by `t` (see the module docs and [`Transform`]).
pub fn transform(model: &mut Model, t: &Transform) -> Report {
    let mut report = Report::default();
    let motion = match *t {
        Transform::Scale(s) => {
            if !(s.is_finite() && s > 0.0) {
                report
                    .refused
                    .push(format!("scale {s}: a scale must be above 0"));
            } else if s != 1.0 {
                crate::convert::scale::scale_model(model, s);
                report.changed.push(format!("scaled by {s}"));
            }
            return report;
        }
        Transform::Rotate { axis, degrees } => Motion::rotation(axis, degrees),
        Transform::Translate(v) => Motion::translation(v),
        Transform::Mirror(axis) => Motion::mirror(axis),
        Transform::Centre | Transform::Ground => {
            let Some((lo, hi)) = vertex_bounds(model) else {
                report
                    .refused
                    .push(format!("{t:?}: the model has no vertices"));
                return report;
            };
            let v = if *t == Transform::Centre {
                [-(lo[0] + hi[0]) / 2.0, -(lo[1] + hi[1]) / 2.0, 0.0]
            } else {
                [0.0, 0.0, -lo[2]]
            };
            Motion::translation(v)
        }
    };
    if motion.det > 0.0 && motion.q[..3] == [0.0; 3] && motion.t == [0.0; 3] {
        return report;
    }
    let uneven = apply(model, &motion);
    report.changed.push(match t {
        Transform::Rotate { axis, degrees } => format!("turned {degrees} degrees about {axis:?}"),
        Transform::Mirror(axis) => format!("mirrored across {axis:?}"),
        _ => format!("moved by {:?}", motion.t),
    });
    if uneven > 0 {
        report.changed.push(format!(
            "{uneven} uneven scaling key(s) kept as the diagonal of the turned scaling"
        ));
    }
    if let Transform::Mirror(Axis::Y) = t {
        report.changed.extend(super::names::swap_sides(model));
    }
    report
}

/// The box of every geoset vertex.
fn vertex_bounds(model: &Model) -> Option<(Vec3, Vec3)> {
    let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
    for v in model.geosets.iter().flat_map(|g| &g.vertices) {
        if v.iter().all(|x| x.is_finite()) {
            for i in 0..3 {
                lo[i] = lo[i].min(v[i]);
                hi[i] = hi[i].max(v[i]);
            }
        }
    }
    (lo[0] <= hi[0]).then_some((lo, hi))
}

/// Applies the motion; returns how many scaling keys it could only approximate.
fn apply(model: &mut Model, m: &Motion) -> usize {
    m.extent(&mut model.info.extent);
    for s in &mut model.sequences {
        m.extent(&mut s.extent);
    }
    for g in &mut model.geosets {
        for v in &mut g.vertices {
            *v = m.point(*v);
        }
        for n in &mut g.normals {
            *n = m.vector(*n);
        }
        for t in g.tangents.iter_mut().flatten() {
            let v = m.vector([t[0], t[1], t[2]]);
            *t = [v[0], v[1], v[2], t[3] * m.det];
        }
        m.extent(&mut g.extent);
        g.sequence_extents.iter_mut().for_each(|e| m.extent(e));
        if m.det < 0.0 {
            wind_back(g);
        }
    }
    for p in &mut model.pivot_points {
        *p = m.point(*p);
    }
    for b in &mut model.bind_poses {
        bind_pose(b, m);
    }
    for c in &mut model.collision_shapes {
        match &mut c.shape {
            Shape::Box(p) => {
                let mut e = Extent {
                    radius: 0.0,
                    min: p[0],
                    max: p[1],
                };
                m.extent(&mut e);
                *p = [e.min, e.max];
            }
            Shape::Plane(p) | Shape::Cylinder(p, _) => p.iter_mut().for_each(|p| *p = m.point(*p)),
            Shape::Sphere(p, _) => *p = m.point(*p),
            Shape::Incomplete { .. } => {}
        }
    }
    for c in &mut model.cameras {
        c.position = m.point(c.position);
        c.target_position = m.point(c.target_position);
    }
    let mut v = Moved { m, uneven: 0 };
    visit_tracks_mut(model, &mut v);
    v.uneven
}

/// A 4x3 bind pose (column by column, translation last) conjugated by the motion.
fn bind_pose(b: &mut [f32; 12], m: &Motion) {
    let col = |b: &[f32; 12], j: usize| [b[3 * j], b[3 * j + 1], b[3 * j + 2]];
    // B' = A B A⁻¹: linear part R L Rᵀ, translation R t + T - R L Rᵀ T.
    let rt = |v: Vec3| [0, 1, 2].map(|i| (0..3).map(|j| m.r[j][i] * v[j]).sum::<f32>());
    let lin: [Vec3; 3] = [0, 1, 2].map(|j| col(b, j));
    let apply_l = |v: Vec3| {
        let mut out = [0.0; 3];
        for j in 0..3 {
            for i in 0..3 {
                out[i] += lin[j][i] * v[j];
            }
        }
        out
    };
    let new_lin = |v: Vec3| m.vector(apply_l(rt(v)));
    let unit = |j: usize| {
        let mut u = [0.0; 3];
        u[j] = 1.0;
        u
    };
    let cols: [Vec3; 3] = [0, 1, 2].map(|j| new_lin(unit(j)));
    let lt = new_lin(m.t);
    let t = m.point(col(b, 3));
    for j in 0..3 {
        b[3 * j..3 * j + 3].copy_from_slice(&cols[j]);
    }
    b[9..12].copy_from_slice(&[t[0] - lt[0], t[1] - lt[1], t[2] - lt[2]]);
}

/// Faces wound the other way (a mirror turns every face inside out otherwise).
fn wind_back(g: &mut crate::model::Geoset) {
    let groups: Vec<(u32, usize)> = if g.face_types.is_empty() {
        vec![(face_type::TRIANGLES, g.faces.len())]
    } else {
        (g.face_types.iter().copied())
            .zip(g.face_group_sizes.iter().map(|&n| n as usize))
            .collect()
    };
    let mut out = Vec::with_capacity(g.faces.len() + groups.len());
    let mut start = 0usize;
    let mut sizes: Vec<u32> = Vec::with_capacity(groups.len());
    let mut before = 0usize;
    for (kind, size) in groups {
        let end = start.saturating_add(size).min(g.faces.len());
        let idx = &g.faces[start..end];
        start = end;
        match kind {
            face_type::TRIANGLES => {
                out.extend(idx.chunks(3).flat_map(|t| match t {
                    [a, b, c] => vec![*a, *c, *b],
                    rest => rest.to_vec(),
                }));
            }
            // A repeated first index (one empty triangle) turns every later one over.
            face_type::TRIANGLE_STRIP if !idx.is_empty() => {
                out.push(idx[0]);
                out.extend_from_slice(idx);
            }
            face_type::TRIANGLE_FAN if idx.len() > 1 => {
                out.push(idx[0]);
                out.extend(idx[1..].iter().rev());
            }
            _ => out.extend_from_slice(idx),
        }
        sizes.push((out.len() - before) as u32);
        before = out.len();
    }
    out.extend_from_slice(&g.faces[start..]);
    g.faces = out;
    if !g.face_types.is_empty() {
        g.face_group_sizes = sizes;
    }
}

struct Moved<'a> {
    m: &'a Motion,
    uneven: usize,
}

fn each_key<T: Copy>(t: &mut Track<T>, mut f: impl FnMut(T) -> T) {
    for k in &mut t.keys {
        k.value = f(k.value);
        k.in_tan = f(k.in_tan);
        k.out_tan = f(k.out_tan);
    }
}

impl TrackVisitorMut for Moved<'_> {
    fn tracks(&mut self, _: Owner, _: &dyn Fn() -> String, tracks: &mut Tracks) {
        let m = self.m;
        for a in &mut tracks.0 {
            match (&mut a.track, a.tag) {
                (AnyTrack::Vector3(t), tk::KGTR | tk::KCTR | tk::KTTR) => {
                    each_key(t, |v| m.vector(v));
                }
                (AnyTrack::Quaternion(t), tk::KGRT) => each_key(t, |q| m.rotation_of(q)),
                (AnyTrack::Vector3(t), tk::KGSC) => each_key(t, |s| {
                    let (d, exact) = m.scaling(s);
                    self.uneven += usize::from(!exact);
                    d
                }),
                (AnyTrack::Float(t), tk::KCRL) if m.det < 0.0 => each_key(t, |r| -r),
                _ => {}
            }
        }
    }
    fn slot(&mut self, _: Owner, _: &dyn Fn() -> String, _: &mut Track<u32>) {}
}
