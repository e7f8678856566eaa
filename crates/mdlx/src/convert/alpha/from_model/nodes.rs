//! Nodes back to the alpha form: bones, lights, helpers, attachments, both particle
//! emitters, ribbons, cameras, events, and collision shapes as hit-test shapes.

use crate::model::{Model, Node, Shape};

use crate::alpha::node::flags as kind;
use crate::alpha::tracks::{tag as at, AlphaAnimation, AlphaTrack, SimpleTrack};
use crate::alpha::*;
use crate::convert::alpha::{node_flags, record_name, Particles};

use super::{map, tracks, Cx};

/// A node as the alpha family's generic object, with kind bit `alpha_kind`.
fn object(cx: &mut Cx, rec: &str, n: &Node, alpha_kind: u32, particles: Particles) -> GenObject {
    cx.tail(rec, &n.tail);
    GenObject {
        name: n.name.clone(),
        object_id: n.object_id,
        parent_id: n.parent_id,
        flags: node_flags(cx, rec, n.flags, alpha_kind, particles, false),
        tracks: tracks(cx, rec, &n.tracks, map::NODE),
        tail: Vec::new(),
    }
}

fn name(kind: &str, i: usize, n: &Node) -> String {
    record_name(kind, i, &n.name)
}

pub(super) fn nodes(cx: &mut Cx, m: &Model, push: &mut impl FnMut(Chunk, bool)) {
    let bones = m.bones.iter().enumerate().map(|(i, b)| Bone {
        object: object(cx, &name("Bone", i, &b.node), &b.node, 0, Particles::None),
        geoset_id: b.geoset_id,
        geoset_animation_id: b.geoset_animation_id,
    });
    push(
        Chunk::Bones(bones.collect::<Vec<_>>().into()),
        m.bones.is_empty(),
    );
    push(Chunk::Lights(lights(cx, m).into()), m.lights.is_empty());
    let mut helpers: Vec<Helper> = m
        .helpers
        .iter()
        .enumerate()
        .map(|(i, h)| Helper {
            object: object(cx, &name("Helper", i, &h.node), &h.node, 0, Particles::None),
        })
        .collect();
    for (i, p) in m.popcorn_emitters.iter().enumerate() {
        let rec = name("PopcornEmitter", i, &p.node);
        cx.lose(&rec, "a Reforged popcorn emitter; kept as a helper");
        helpers.push(Helper {
            object: object(cx, &rec, &p.node, 0, Particles::None),
        });
    }
    let shapes = hit_test_shapes(cx, m, &mut helpers);
    push(Chunk::Helpers(helpers.clone().into()), helpers.is_empty());
    let attachments = attachments(cx, m);
    let empty = attachments.is_empty();
    push(
        Chunk::Attachments {
            unused: 0,
            attachments: attachments.into(),
        },
        empty,
    );
    push(
        Chunk::Pivots(m.pivot_points.clone().into()),
        m.pivot_points.is_empty(),
    );
    push(
        Chunk::ParticleEmitters(particle_emitters(cx, m).into()),
        m.particle_emitters.is_empty(),
    );
    let cams = m.cameras.iter().enumerate().map(|(i, c)| Camera {
        name: c.name.clone(),
        pivot: c.position,
        field_of_view: c.field_of_view,
        far_clip: c.far_clip,
        near_clip: c.near_clip,
        target_pivot: c.target_position,
        tracks: tracks(cx, &format!("Camera[{i}]"), &c.tracks, map::CAMERA),
        tail: Vec::new(),
    });
    push(
        Chunk::Cameras(cams.collect::<Vec<_>>().into()),
        m.cameras.is_empty(),
    );
    let events = m
        .event_objects
        .iter()
        .enumerate()
        .map(|(i, e)| EventObject {
            object: object(
                cx,
                &name("EventObject", i, &e.node),
                &e.node,
                kind::EVENT,
                Particles::None,
            ),
            tracks: AlphaTracks(
                e.track
                    .iter()
                    .map(|t| AlphaAnimation {
                        tag: at::KEVT,
                        track: AlphaTrack::Event(SimpleTrack {
                            global_sequence_id: t.global_sequence_id,
                            keys: t.times.iter().map(|&x| x as i32).collect(),
                        }),
                    })
                    .collect(),
            ),
            tail: Vec::new(),
        });
    push(
        Chunk::Events(events.collect::<Vec<_>>().into()),
        m.event_objects.is_empty(),
    );
    emitters2(cx, m, push);
    push(
        Chunk::HitTestShapes(shapes.clone().into()),
        shapes.is_empty(),
    );
    ribbons(cx, m, push);
}

fn lights(cx: &mut Cx, m: &Model) -> Vec<Light> {
    let mut lights = Vec::new();
    for (i, l) in m.lights.iter().enumerate() {
        let rec = name("Light", i, &l.node);
        cx.tail(&rec, &l.tail);
        if l.shadow_intensity != 0.0 {
            cx.lose(&rec, "shadow intensity");
        }
        let object = object(cx, &rec, &l.node, kind::LIGHT, Particles::None);
        let tracks = tracks(cx, &rec, &l.tracks, map::LIGHT);
        lights.push(carry!(Light { object: object, tracks: tracks, tail: Vec::new() } from l
            [light_type, attenuation_start, attenuation_end, color, intensity, ambient_color, ambient_intensity]));
    }
    lights
}

fn attachments(cx: &mut Cx, m: &Model) -> Vec<Attachment> {
    let mut attachments = Vec::new();
    for (i, a) in m.attachments.iter().enumerate() {
        let rec = name("Attachment", i, &a.node);
        cx.tail(&rec, &a.tail);
        attachments.push(Attachment {
            object: object(cx, &rec, &a.node, kind::ATTACHMENT, Particles::None),
            attachment_id: a.attachment_id,
            padding: 0,
            path: a.path.clone(),
            tracks: tracks(cx, &rec, &a.tracks, map::ATTACHMENT),
            tail: Vec::new(),
        });
    }
    attachments
}

fn particle_emitters(cx: &mut Cx, m: &Model) -> Vec<ParticleEmitter> {
    let mut prem = Vec::new();
    for (i, p) in m.particle_emitters.iter().enumerate() {
        let rec = name("ParticleEmitter", i, &p.node);
        cx.tail(&rec, &p.tail);
        let object = object(cx, &rec, &p.node, 0, Particles::Prem);
        let tracks = tracks(cx, &rec, &p.tracks, map::PARTICLE_EMITTER);
        prem.push(
            carry!(ParticleEmitter { object: object, tracks: tracks, tail: Vec::new() }
            from p [emission_rate, gravity, longitude, latitude, path, life_span, speed]),
        );
    }
    prem
}

fn emitters2(cx: &mut Cx, m: &Model, push: &mut impl FnMut(Chunk, bool)) {
    let mut out = Vec::new();
    for (i, p) in m.particle_emitters2.iter().enumerate() {
        let rec = name("ParticleEmitter2", i, &p.node);
        cx.tail(&rec, &p.tail);
        out.push(ParticleEmitter2 {
            object: object(cx, &rec, &p.node, kind::PARTICLE_EMITTER2, Particles::Pre2),
            emitter_size: emitters::EMITTER2_FIXED as u32,
            speed: p.speed,
            variation: p.variation,
            latitude: p.latitude,
            gravity: p.gravity,
            life: p.life_span,
            emission_rate: p.emission_rate,
            length: p.length,
            width: p.width,
            rows: p.rows,
            columns: p.columns,
            particle_type: p.head_or_tail,
            tail_length: p.tail_length,
            middle_time: p.time,
            colors: p.segment_colors,
            alphas: p.segment_alphas,
            scales: p.segment_scaling,
            uv_animations: [
                p.head_intervals,
                p.head_decay_intervals,
                p.tail_intervals,
                p.tail_decay_intervals,
            ],
            blend_mode: p.filter_mode,
            texture_id: p.texture_id,
            priority_plane: p.priority_plane,
            replaceable_id: p.replaceable_id,
            squirts: p.squirt,
            tracks: tracks(cx, &rec, &p.tracks, map::PARTICLE_EMITTER2),
            ..ParticleEmitter2::default()
        });
    }
    push(
        Chunk::ParticleEmitters2(out.into()),
        m.particle_emitters2.is_empty(),
    );
}

fn ribbons(cx: &mut Cx, m: &Model, push: &mut impl FnMut(Chunk, bool)) {
    let mut out = Vec::new();
    for (i, r) in m.ribbon_emitters.iter().enumerate() {
        let rec = name("RibbonEmitter", i, &r.node);
        cx.tail(&rec, &r.tail);
        out.push(RibbonEmitter {
            object: object(cx, &rec, &r.node, kind::RIBBON_EMITTER, Particles::None),
            emitter_size: emitters::RIBBON_FIXED as u32,
            height_above: r.height_above,
            height_below: r.height_below,
            alpha: r.alpha,
            color: r.color,
            edge_lifetime: r.life_span,
            texture_slot: r.texture_slot,
            edges_per_second: r.emission_rate,
            rows: r.rows,
            columns: r.columns,
            material_id: r.material_id as u32,
            gravity: r.gravity,
            tracks: tracks(cx, &rec, &r.tracks, map::RIBBON),
            tail: Vec::new(),
        });
    }
    push(
        Chunk::RibbonEmitters(out.into()),
        m.ribbon_emitters.is_empty(),
    );
}

/// Collision shapes as hit-test shapes; the ones with no alpha form become helpers.
fn hit_test_shapes(cx: &mut Cx, m: &Model, helpers: &mut Vec<Helper>) -> Vec<HitTestShape> {
    let mut out = Vec::new();
    for (i, c) in m.collision_shapes.iter().enumerate() {
        let rec = name("CollisionShape", i, &c.node);
        let shape = match c.shape {
            Shape::Box([minimum, maximum]) => Some(HitShape::Box { minimum, maximum }),
            Shape::Sphere(center, radius) => Some(HitShape::Sphere { center, radius }),
            Shape::Cylinder([a, b], radius) if a[0] == b[0] && a[1] == b[1] => {
                Some(HitShape::Cylinder {
                    base: a,
                    height: b[2] - a[2],
                    radius,
                })
            }
            Shape::Plane([a, b])
                if a[2] == 0.0 && b[2] == 0.0 && a[0] == -b[0] && a[1] == -b[1] =>
            {
                Some(HitShape::Plane {
                    length: 2.0 * b[0],
                    width: 2.0 * b[1],
                })
            }
            _ => None,
        };
        match shape {
            Some(shape) => out.push(HitTestShape {
                object: object(cx, &rec, &c.node, kind::HIT_TEST_SHAPE, Particles::None),
                shape,
                tail: Vec::new(),
            }),
            None => {
                cx.lose(&rec, "a shape with no hit-test form; kept as a helper");
                helpers.push(Helper {
                    object: object(cx, &rec, &c.node, 0, Particles::None),
                });
            }
        }
    }
    out
}
