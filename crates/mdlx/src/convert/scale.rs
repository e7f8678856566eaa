//! Scaling a whole model: every length it holds times one factor, so that the model looks
//! and moves the same, only larger or smaller.
//!
//! Scaled: geoset vertices and extents, sequence and model extents, pivot points, bind
//! pose translations, node translation tracks (`KGTR`, values and tangents), collision
//! shapes, camera positions, targets, clip and focus distances (and their tracks), light
//! attenuation and shadow distances, particle emitter speeds, gravities and areas, ribbon
//! heights. Not scaled: what has no length (rotations, scaling tracks, normals, texture
//! coordinates and texture animations, times, colours, angles such as latitudes), and
//! particle sizes of version 800 emitters (`segment_scaling`), which the game reads in
//! its own units of the particle's texture.
//!
//! ```
//! let mut m = mdlx::mdx::from_bytes(include_bytes!("../../../../examples/cube.mdx")).unwrap();
//! let before = m.geosets[0].vertices[0];
//! mdlx::convert::scale::scale_model(&mut m, 2.0);
//! assert_eq!(m.geosets[0].vertices[0], before.map(|x| x * 2.0));
//! ```

use crate::model::visit::{visit_tracks_mut, Owner, TrackVisitorMut};
use crate::model::{AnyTrack, Extent, Model, Shape, Tag, Track, Tracks};
use crate::spec::track as tk;

/// The tracks whose values are lengths (or speeds, accelerations: lengths per time).
const LENGTH_TAGS: &[Tag] = &[
    tk::KGTR,
    tk::KCTR,
    tk::KTTR,
    tk::IDUF,
    tk::KLAS,
    tk::KLAE,
    tk::KLSS,
    tk::KLSE,
    tk::KPEG,
    tk::KPES,
    tk::KP2S,
    tk::KP2G,
    tk::KP2N,
    tk::KP2W,
    tk::KPPS,
    tk::KRHA,
    tk::KRHB,
];

fn v3(v: &mut [f32; 3], s: f32) {
    for x in v {
        *x *= s;
    }
}

fn extent(e: &mut Extent, s: f32) {
    // An empty box (exporters write min +3.4e38, max -3.4e38) stays empty, not infinite.
    if (0..3).any(|i| e.min[i] > e.max[i]) {
        return;
    }
    v3(&mut e.min, s);
    v3(&mut e.max, s);
    e.radius *= s;
}

/// Multiplies every length of `model` by `s` (see the module docs).
pub fn scale_model(model: &mut Model, s: f32) {
    if s == 1.0 {
        return;
    }
    extent(&mut model.info.extent, s);
    for q in &mut model.sequences {
        extent(&mut q.extent, s);
    }
    for g in &mut model.geosets {
        for v in &mut g.vertices {
            v3(v, s);
        }
        extent(&mut g.extent, s);
        for e in &mut g.sequence_extents {
            extent(e, s);
        }
    }
    for p in &mut model.pivot_points {
        v3(p, s);
    }
    // A 4x3 matrix stored column by column: the last three numbers are the translation.
    for b in &mut model.bind_poses {
        for x in &mut b[9..12] {
            *x *= s;
        }
    }
    for c in &mut model.collision_shapes {
        match &mut c.shape {
            Shape::Box(p) | Shape::Plane(p) => p.iter_mut().for_each(|p| v3(p, s)),
            Shape::Sphere(p, r) => {
                v3(p, s);
                *r *= s;
            }
            Shape::Cylinder(p, r) => {
                p.iter_mut().for_each(|p| v3(p, s));
                *r *= s;
            }
            Shape::Incomplete { .. } => {}
        }
    }
    for c in &mut model.cameras {
        v3(&mut c.position, s);
        v3(&mut c.target_position, s);
        c.near_clip *= s;
        c.far_clip *= s;
    }
    for l in &mut model.lights {
        l.attenuation_start *= s;
        l.attenuation_end *= s;
        l.shadow_start *= s;
        l.shadow_end *= s;
    }
    for e in &mut model.particle_emitters {
        e.speed *= s;
        e.gravity *= s;
    }
    for e in &mut model.particle_emitters2 {
        e.speed *= s;
        e.gravity *= s;
        e.length *= s;
        e.width *= s;
    }
    for e in &mut model.popcorn_emitters {
        e.speed *= s;
    }
    for e in &mut model.ribbon_emitters {
        e.height_above *= s;
        e.height_below *= s;
        e.gravity *= s;
    }
    visit_tracks_mut(model, &mut Lengths(s));
}

/// Scales the tracks whose values are lengths.
struct Lengths(f32);

fn scale_track<T: Copy>(t: &mut Track<T>, f: impl Fn(T) -> T) {
    for k in &mut t.keys {
        k.value = f(k.value);
        k.in_tan = f(k.in_tan);
        k.out_tan = f(k.out_tan);
    }
}

impl TrackVisitorMut for Lengths {
    fn tracks(&mut self, _: Owner, _: &dyn Fn() -> String, tracks: &mut Tracks) {
        let s = self.0;
        for a in &mut tracks.0 {
            if !LENGTH_TAGS.contains(&a.tag) {
                continue;
            }
            match &mut a.track {
                AnyTrack::Float(t) => scale_track(t, |x| x * s),
                AnyTrack::Vector3(t) => scale_track(t, |v| v.map(|x| x * s)),
                AnyTrack::Quaternion(_) | AnyTrack::Integer(_) => {}
            }
        }
    }
    fn slot(&mut self, _: Owner, _: &dyn Fn() -> String, _: &mut Track<u32>) {}
}

/// How tall (along +Z, model units) the model stands in its first pose: the start of its
/// first sequence, or its rest pose without sequences; the visible geosets (every geoset
/// when none shows). `None` without a finite vertex.
pub fn first_pose_height(model: &Model) -> Option<f32> {
    use crate::anim::{posed_geosets, AnimTime, Clock, Skeleton};
    let skeleton = Skeleton::new(model);
    let clock = if model.sequences.is_empty() {
        Clock::new(model, AnimTime::new(None, 0.0))
    } else {
        Clock::unwrapped(model, 0, 0.0)
    };
    let pose = skeleton.pose_at(&clock, None);
    let posed = posed_geosets(model, &skeleton, &pose, &clock);
    let any_visible = posed.iter().any(|g| g.visible);
    let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
    for g in posed.iter().filter(|g| g.visible || !any_visible) {
        for p in &g.positions {
            if p[2].is_finite() {
                lo = lo.min(p[2]);
                hi = hi.max(p[2]);
            }
        }
    }
    (hi >= lo).then_some(hi - lo)
}
