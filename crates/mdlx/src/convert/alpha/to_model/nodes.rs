//! Nodes to Warcraft III: bones, lights, helpers, attachments, particle emitters (both),
//! ribbon emitters, event objects, hit-test shapes, and cameras.
//!
//! Object ids, parents and pivots carry over unchanged. Flags: the inheritance and
//! billboard bits (0x1-0x40) are the same bits in both formats; the record-kind bit is
//! set the Warcraft III way (bone 0x100 ... ribbon 0x4000); particle bits are mapped
//! (see [`Particles`]); any other bit is reported lost.

use crate::model::{
    Attachment as WcAttachment, Bone as WcBone, Camera as WcCamera, CollisionShape,
    EventObject as WcEventObject, EventTrack, Helper as WcHelper, Light as WcLight, Model, Node,
    ParticleEmitter as WcParticleEmitter, ParticleEmitter2 as WcParticleEmitter2,
    RibbonEmitter as WcRibbonEmitter, Shape,
};

use crate::alpha::tracks::AlphaTrack;
use crate::alpha::{AlphaModel, GenObject, HitShape};
use crate::mdl::records::node::kind;

use super::{map, Cx};
use crate::convert::alpha::{node_flags, record_name, Particles};

fn node(cx: &mut Cx, rec: &str, o: &GenObject, wc_kind: u32, particles: Particles) -> Node {
    cx.tail(rec, &o.tail);
    Node {
        name: o.name.clone(),
        object_id: o.object_id,
        parent_id: o.parent_id,
        flags: node_flags(cx, rec, o.flags, wc_kind, particles, true),
        tracks: cx.tracks(rec, &o.tracks, map::NODE),
        tail: Vec::new(),
    }
}

fn name(kind: &str, i: usize, o: &GenObject) -> String {
    record_name(kind, i, &o.name)
}

pub(super) fn nodes(a: &AlphaModel, cx: &mut Cx, m: &mut Model) {
    for (i, b) in a.bones().enumerate() {
        let rec = name("Bone", i, &b.object);
        m.bones.push(WcBone {
            node: node(cx, &rec, &b.object, kind::BONE, Particles::None),
            geoset_id: b.geoset_id,
            geoset_animation_id: b.geoset_animation_id,
        });
    }
    for (i, l) in a.lights().enumerate() {
        let rec = name("Light", i, &l.object);
        cx.tail(&rec, &l.tail);
        let node = node(cx, &rec, &l.object, kind::LIGHT, Particles::None);
        let tracks = cx.tracks(&rec, &l.tracks, map::LIGHT);
        m.lights.push(carry!(WcLight { node: node, tracks: tracks } from l
            [light_type, attenuation_start, attenuation_end, color, intensity, ambient_color, ambient_intensity] ..WcLight::new()));
    }
    for (i, h) in a.helpers().enumerate() {
        let rec = name("Helper", i, &h.object);
        let node = node(cx, &rec, &h.object, 0, Particles::None);
        m.helpers.push(WcHelper { node });
    }
    attachments(a, cx, m);
    emitters(a, cx, m);
    events_and_shapes(a, cx, m);
    cameras(a, cx, m);
}

fn attachments(a: &AlphaModel, cx: &mut Cx, m: &mut Model) {
    for (i, at) in a.attachments().enumerate() {
        let rec = name("Attachment", i, &at.object);
        cx.tail(&rec, &at.tail);
        if at.padding != 0 {
            cx.lose(
                &rec,
                format!("the byte after the attachment id ({:#x})", at.padding),
            );
        }
        m.attachments.push(WcAttachment {
            node: node(cx, &rec, &at.object, kind::ATTACHMENT, Particles::None),
            path: at.path.clone(),
            attachment_id: at.attachment_id,
            tracks: cx.tracks(&rec, &at.tracks, map::ATTACHMENT),
            tail: Vec::new(),
        });
    }
}

fn emitters(a: &AlphaModel, cx: &mut Cx, m: &mut Model) {
    for (i, p) in a.particle_emitters().enumerate() {
        let rec = name("ParticleEmitter", i, &p.object);
        cx.tail(&rec, &p.tail);
        let node = node(cx, &rec, &p.object, kind::PARTICLE_EMITTER, Particles::Prem);
        let tracks = cx.tracks(&rec, &p.tracks, map::PARTICLE_EMITTER);
        m.particle_emitters.push(
            carry!(WcParticleEmitter { node: node, tracks: tracks, tail: Vec::new() }
            from p [emission_rate, gravity, longitude, latitude, path, life_span, speed]),
        );
    }
    for (i, p) in a.particle_emitters2().enumerate() {
        let rec = name("ParticleEmitter2", i, &p.object);
        emitter2_losses(cx, &rec, p);
        let [life, decay, tail, tail_decay] = p.uv_animations;
        m.particle_emitters2.push(WcParticleEmitter2 {
            node: node(cx, &rec, &p.object, kind::PARTICLE_EMITTER, Particles::Pre2),
            speed: p.speed,
            variation: p.variation,
            latitude: p.latitude,
            gravity: p.gravity,
            life_span: p.life,
            emission_rate: p.emission_rate,
            length: p.length,
            width: p.width,
            filter_mode: p.blend_mode,
            rows: p.rows,
            columns: p.columns,
            head_or_tail: p.particle_type,
            tail_length: p.tail_length,
            time: p.middle_time,
            segment_colors: p.colors,
            segment_alphas: p.alphas,
            segment_scaling: p.scales,
            head_intervals: life,
            head_decay_intervals: decay,
            tail_intervals: tail,
            tail_decay_intervals: tail_decay,
            texture_id: p.texture_id,
            squirt: p.squirts,
            priority_plane: p.priority_plane,
            replaceable_id: p.replaceable_id,
            tracks: cx.tracks(&rec, &p.tracks, map::PARTICLE_EMITTER2),
            tail: Vec::new(),
        });
    }
    for (i, r) in a.ribbon_emitters().enumerate() {
        let rec = name("RibbonEmitter", i, &r.object);
        cx.tail(&rec, &r.tail);
        m.ribbon_emitters.push(WcRibbonEmitter {
            node: node(cx, &rec, &r.object, kind::RIBBON_EMITTER, Particles::None),
            height_above: r.height_above,
            height_below: r.height_below,
            alpha: r.alpha,
            color: r.color,
            life_span: r.edge_lifetime,
            texture_slot: r.texture_slot,
            emission_rate: r.edges_per_second,
            rows: r.rows,
            columns: r.columns,
            material_id: r.material_id as i32,
            gravity: r.gravity,
            tracks: cx.tracks(&rec, &r.tracks, map::RIBBON),
            tail: Vec::new(),
        });
    }
}

/// The PRE2 fields Warcraft III has no place for, when they hold something.
fn emitter2_losses(cx: &mut Cx, rec: &str, p: &crate::alpha::ParticleEmitter2) {
    cx.tail(rec, &p.tail);
    let mut lose_if = |cond: bool, what: String| {
        if cond {
            cx.lose(rec, what);
        }
    };
    lose_if(
        p.emitter_type != 0,
        format!("emitter type {}", p.emitter_type),
    );
    lose_if(p.longitude != 0.0, format!("longitude {}", p.longitude));
    lose_if(p.z_source != 0.0, format!("z source {}", p.z_source));
    lose_if(!p.geometry_model.is_empty(), "geometry model".into());
    lose_if(!p.recursion_model.is_empty(), "recursion model".into());
    lose_if(p.twinkle != [0.0; 4], format!("twinkle {:?}", p.twinkle));
    lose_if(
        p.ivel_scale != 0.0,
        format!("instant velocity scale {}", p.ivel_scale),
    );
    lose_if(p.tumble != [[0.0; 2]; 3], format!("tumble {:?}", p.tumble));
    lose_if(
        p.drag != 0.0 || p.spin != 0.0,
        format!("drag {} and spin {}", p.drag, p.spin),
    );
    lose_if(
        p.wind_vector != [0.0; 3] || p.wind_time != 0.0,
        format!("wind {:?} for {}", p.wind_vector, p.wind_time),
    );
    lose_if(p.follow != [0.0; 4], format!("follow {:?}", p.follow));
    lose_if(
        !p.splines.is_empty(),
        format!("{} spline points", p.splines.len()),
    );
}

fn events_and_shapes(a: &AlphaModel, cx: &mut Cx, m: &mut Model) {
    for (i, e) in a.events().enumerate() {
        let rec = name("EventObject", i, &e.object);
        cx.tail(&rec, &e.tail);
        let mut track = None;
        for anim in &e.tracks.0 {
            match (&anim.track, &track) {
                (AlphaTrack::Event(s), None) => {
                    track = Some(EventTrack {
                        global_sequence_id: s.global_sequence_id,
                        times: s.keys.iter().map(|&t| t as u32).collect(),
                    })
                }
                _ => cx.lose(&rec, format!("track {} (one KEVT is kept)", anim.tag)),
            }
        }
        // Warcraft III readers (the game's tools, mdx-m3-viewer, war3-model, wc3) expect a
        // KEVT track on every event: one without keys gets an empty track.
        let track = track.or(Some(EventTrack {
            global_sequence_id: -1,
            times: Vec::new(),
        }));
        m.event_objects.push(WcEventObject {
            node: node(cx, &rec, &e.object, kind::EVENT, Particles::None),
            track,
        });
    }
    for (i, h) in a.hit_test_shapes().enumerate() {
        let rec = name("HitTestShape", i, &h.object);
        cx.tail(&rec, &h.tail);
        let shape = match h.shape {
            HitShape::Box { minimum, maximum } => Shape::Box([minimum, maximum]),
            HitShape::Sphere { center, radius } => Shape::Sphere(center, radius),
            HitShape::Cylinder {
                base,
                height,
                radius,
            } => {
                cx.lose(&rec, "cylinder axis: taken as +Z from the base");
                Shape::Cylinder([base, [base[0], base[1], base[2] + height]], radius)
            }
            HitShape::Plane { length, width } => {
                cx.lose(&rec, "plane placement: taken as centred on the node in XY");
                let (l, w) = (length / 2.0, width / 2.0);
                Shape::Plane([[-l, -w, 0.0], [l, w, 0.0]])
            }
            HitShape::Unparsed(kind) => {
                cx.lose(
                    &rec,
                    format!("shape of type {kind}; the node is kept as a helper"),
                );
                let node = node(cx, &rec, &h.object, 0, Particles::None);
                m.helpers.push(WcHelper { node });
                continue;
            }
        };
        m.collision_shapes.push(CollisionShape {
            node: node(cx, &rec, &h.object, kind::COLLISION_SHAPE, Particles::None),
            shape,
        });
    }
}

fn cameras(a: &AlphaModel, cx: &mut Cx, m: &mut Model) {
    for (i, c) in a.cameras().enumerate() {
        let rec = format!("Camera[{i}] {:?}", c.name.text());
        cx.tail(&rec, &c.tail);
        m.cameras.push(WcCamera {
            name: c.name.clone(),
            position: c.pivot,
            field_of_view: c.field_of_view,
            far_clip: c.far_clip,
            near_clip: c.near_clip,
            target_position: c.target_pivot,
            tracks: cx.tracks(&rec, &c.tracks, map::CAMERA),
            tail: Vec::new(),
            ..WcCamera::default()
        });
    }
}
