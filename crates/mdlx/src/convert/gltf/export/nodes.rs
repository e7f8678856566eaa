//! The skeleton as glTF nodes (a root, then one node per model node), the skin over them,
//! what each node's record holds beyond its transform (`extras`), cameras and lights.

use super::animation::track_global;
use super::buffer::Bin;
use super::mesh::Geo;
use super::{extras, finite3, raw_hex, short_name, translate, Losses};
use crate::anim::{NodeKind, Skeleton};
use crate::convert::gltf::to_y_up;
use crate::model::{light_type, node_flags, Light, Model, Shape};
use crate::spec::track::{self, KGRT, KGSC, KGTR};
use crate::spec::version as ver;
use gltf_json::accessor::Type;
use gltf_json::scene::UnitQuaternion;
use gltf_json::validation::Checked;
use gltf_json::{Index, Root};
use serde_json::json;

/// The root node (named after the model), then one glTF node per model node in the
/// skeleton's order (glTF index `i + 1` for skeleton node `i`). Returns each glTF node's
/// children (the root's first), to be set once every node is there.
pub(super) fn skeleton_nodes(
    model: &Model,
    skeleton: &Skeleton,
    root: &mut Root,
    losses: &mut Losses,
) -> Vec<Vec<u32>> {
    let n = skeleton.nodes.len();
    let gnode = |i: usize| i + 1; // glTF index of skeleton node i
                                  // The root, then one glTF node per model node, in the skeleton's order.
    let model_name = model.info.name.to_string();
    root.push(gltf_json::Node {
        name: Some(if model_name.is_empty() {
            "model".into()
        } else {
            short_name(&model_name)
        }),
        extras: extras(json!({"mdlx": {"kind": "root", "version": model.version,
            "global_sequences": model.global_sequences}})),
        ..Default::default()
    });
    let mut children: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
    for (i, sn) in skeleton.nodes.iter().enumerate() {
        let parent_pivot = sn.parent.map_or([0.0; 3], |p| skeleton.nodes[p].pivot);
        let t = to_y_up([0, 1, 2].map(|k| sn.pivot[k] - parent_pivot[k]));
        let place = format!("{}[{}]", sn.kind.name(), sn.index);
        let f = sn.node.flags;
        if f & node_flags::BILLBOARD != 0 {
            losses.add(
                place.clone(),
                "billboarded node kept as a plain node (glTF has no billboards)",
            );
        }
        root.push(gltf_json::Node {
            name: Some(short_name(&sn.node.name.to_string())),
            translation: finite3(t).then_some(t),
            extras: extras(node_extras(model, sn.kind, sn.index, losses, &place)),
            ..Default::default()
        });
        children[sn.parent.map_or(0, gnode)].push(gnode(i) as u32);
    }
    if !skeleton.cycles.is_empty() {
        for &i in &skeleton.cycles {
            let sn = &skeleton.nodes[i];
            losses.add(
                format!("{}[{}]", sn.kind.name(), sn.index),
                "parent chain loops back: node placed under the root",
            );
        }
    }
    children
}

/// The node for vertices bound to no node (when a geoset has any), every node's children,
/// and the skin: every node a joint, bind matrices translate(-pivot). Returns the skin and
/// its number of joints.
pub(super) fn skin(
    skeleton: &Skeleton,
    geo: &[Geo],
    children: &mut [Vec<u32>],
    root: &mut Root,
    bin: &mut Bin,
) -> (Option<Index<gltf_json::Skin>>, usize) {
    let n = skeleton.nodes.len();
    let gnode = |i: usize| i + 1; // glTF index of skeleton node i
    let unbound_joint = geo
        .iter()
        .any(|(_, _, s)| s.iter().any(|v| v.iter().any(|&(j, _)| j == n)));
    let unbound_node = unbound_joint.then(|| {
        let i = root.push(gltf_json::Node {
            name: Some("(unbound vertices)".into()),
            ..Default::default()
        });
        children[0].push(i.value() as u32);
        i
    });
    for (i, c) in children.iter().enumerate().skip(1) {
        if !c.is_empty() {
            root.nodes[i].children = Some(c.iter().map(|&k| Index::new(k)).collect());
        }
    }

    // The skin: every node a joint, bind matrices translate(-pivot).
    let mut joints: Vec<Index<gltf_json::Node>> =
        (0..n).map(|i| Index::new(gnode(i) as u32)).collect();
    let mut ibm: Vec<f32> = Vec::with_capacity((n + 1) * 16);
    for sn in &skeleton.nodes {
        let p = to_y_up(sn.pivot);
        let p = if finite3(p) { p } else { [0.0; 3] };
        ibm.extend_from_slice(&translate([-p[0], -p[1], -p[2]]));
    }
    if let Some(u) = unbound_node {
        joints.push(u);
        ibm.extend_from_slice(&crate::anim::math::IDENTITY);
    }
    let skin = (!joints.is_empty() && n + usize::from(unbound_joint) > 0).then(|| {
        let ibm = bin.accessor(root, &ibm, Type::Mat4, None, false, false);
        root.push(gltf_json::Skin {
            extensions: None,
            extras: Default::default(),
            inverse_bind_matrices: Some(ibm),
            joints: joints.clone(),
            name: None,
            skeleton: Some(Index::new(0)),
        })
    });
    (skin, joints.len())
}

/// The data a node's record holds beyond its transform, for `extras`.
pub(super) fn node_extras(
    model: &Model,
    kind: NodeKind,
    index: usize,
    losses: &mut Losses,
    place: &str,
) -> serde_json::Value {
    let mut data = json!({});
    let mut lose = |what: &str| losses.add(place.to_string(), what.to_string());
    let node = match kind {
        NodeKind::Bone => &model.bones[index].node,
        NodeKind::Helper => &model.helpers[index].node,
        NodeKind::Light => &model.lights[index].node,
        NodeKind::Attachment => {
            let a = &model.attachments[index];
            data = json!({"attachment_id": a.attachment_id, "path": a.path.to_string()});
            &a.node
        }
        NodeKind::ParticleEmitter => {
            let e = &model.particle_emitters[index];
            lose("particle emitter kept as a node with its data in extras");
            data = json!({"emission_rate": e.emission_rate, "gravity": e.gravity,
                "longitude": e.longitude, "latitude": e.latitude, "path": e.path.to_string(),
                "life_span": e.life_span, "speed": e.speed});
            &e.node
        }
        NodeKind::ParticleEmitter2 => {
            let e = &model.particle_emitters2[index];
            lose("particle emitter kept as a node with its data in extras");
            data = json!({"speed": e.speed, "variation": e.variation, "latitude": e.latitude,
                "gravity": e.gravity, "life_span": e.life_span,
                "emission_rate": e.emission_rate, "length": e.length, "width": e.width,
                "filter_mode": e.filter_mode, "rows": e.rows, "columns": e.columns,
                "head_or_tail": e.head_or_tail, "tail_length": e.tail_length,
                "time": e.time, "segment_colors": e.segment_colors,
                "segment_alphas": e.segment_alphas, "segment_scaling": e.segment_scaling,
                "head_intervals": e.head_intervals});
            &e.node
        }
        NodeKind::PopcornEmitter => {
            let e = &model.popcorn_emitters[index];
            lose("particle emitter kept as a node with its data in extras");
            data = json!({"life_span": e.life_span, "emission_rate": e.emission_rate,
                "speed": e.speed, "color": e.color, "alpha": e.alpha,
                "replaceable_id": e.replaceable_id, "path": e.path.to_string(),
                "animation_visibility_guide": e.animation_visibility_guide.to_string()});
            &e.node
        }
        NodeKind::RibbonEmitter => {
            let e = &model.ribbon_emitters[index];
            lose("ribbon emitter kept as a node with its data in extras");
            data = json!({"height_above": e.height_above, "height_below": e.height_below,
                "alpha": e.alpha, "color": e.color, "life_span": e.life_span,
                "texture_slot": e.texture_slot, "emission_rate": e.emission_rate,
                "rows": e.rows, "columns": e.columns, "material_id": e.material_id,
                "gravity": e.gravity});
            &e.node
        }
        NodeKind::EventObject => {
            let e = &model.event_objects[index];
            lose("event object kept as a node with its key times in extras");
            if let Some(t) = &e.track {
                data = json!({"global_sequence_id": t.global_sequence_id, "times": t.times});
            }
            &e.node
        }
        NodeKind::CollisionShape => {
            let c = &model.collision_shapes[index];
            lose("collision shape kept as a node with its shape in extras");
            data = match &c.shape {
                Shape::Box(v) => json!({"shape": "box", "vertices": v}),
                Shape::Plane(v) => json!({"shape": "plane", "vertices": v}),
                Shape::Sphere(c, r) => json!({"shape": "sphere", "center": c, "radius": r}),
                Shape::Cylinder(v, r) => json!({"shape": "cylinder", "vertices": v, "radius": r}),
                Shape::Incomplete { shape_type, .. } => {
                    json!({"shape": "incomplete", "shape_type": shape_type})
                }
            };
            &c.node
        }
    };
    let mut out = json!({"kind": kind.name(), "index": index, "object_id": node.object_id,
        "parent_id": node.parent_id, "flags": node.flags});
    if let Some(h) = raw_hex(&node.name) {
        out["name_hex"] = json!(h);
    }
    // Transform tracks on a global sequence: the animations repeat its cycles; [`import`]
    // takes the first cycle back onto the global clock. Nodes whose motion is baked
    // (don't-inherit flags) are not marked.
    if node.flags & node_flags::DONT_INHERIT == 0 {
        let mut g = serde_json::Map::new();
        for (tag, what) in [(KGTR, "translation"), (KGRT, "rotation"), (KGSC, "scale")] {
            if let Some(a) = node.tracks.iter().find(|a| a.tag == tag) {
                let id = track_global(&a.track);
                if id >= 0 && (id as usize) < model.global_sequences.len() {
                    g.insert(what.into(), json!(id));
                }
            }
        }
        if !g.is_empty() {
            out["global"] = serde_json::Value::Object(g);
        }
    }
    if let (Some(o), Some(d)) = (out.as_object_mut(), data.as_object()) {
        for (k, v) in d {
            o.insert(k.clone(), v.clone());
        }
    }
    json!({ "mdlx": out })
}

pub(super) fn cameras(
    model: &Model,
    root: &mut Root,
    scene_nodes: &mut Vec<Index<gltf_json::Node>>,
    losses: &mut Losses,
) {
    for (i, c) in model.cameras.iter().enumerate() {
        let place = format!("Camera[{i}]");
        let dof = [track::IDUF, track::ELAF, track::PTSF];
        if c.tracks.iter().any(|a| !dof.contains(&a.tag)) {
            losses.add(place.clone(), "camera animation not carried");
        }
        if c.tracks.iter().any(|a| dof.contains(&a.tag)) {
            losses.add(
                place.clone(),
                "depth of field (focus distance, focal length, f-stop: 1200+) not carried \
                 (glTF cameras have none)",
            );
        }
        let eye = to_y_up(c.position);
        let target = to_y_up(c.target_position);
        let d = [0, 1, 2].map(|k| target[k] - eye[k]);
        let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        let rotation = if len > 1e-6 && len.is_finite() {
            use crate::anim::math::{cross, normalize, quat_from_basis};
            let z = [-d[0] / len, -d[1] / len, -d[2] / len];
            let up = if z[1].abs() > 0.999 {
                [0.0, 0.0, 1.0]
            } else {
                [0.0, 1.0, 0.0]
            };
            let x = normalize(cross(up, z));
            let y = cross(z, x);
            Some(UnitQuaternion(quat_from_basis(x, y, z)))
        } else {
            None
        };
        let near = if c.near_clip.is_finite() && c.near_clip > 0.0 {
            c.near_clip
        } else {
            0.1
        };
        let far = if c.far_clip.is_finite() && c.far_clip > near {
            Some(c.far_clip)
        } else {
            None
        };
        let fov = if c.field_of_view.is_finite() && c.field_of_view > 0.0 {
            c.field_of_view.min(3.1)
        } else {
            0.8
        };
        let cam = root.push(gltf_json::Camera {
            name: Some(short_name(&c.name.to_string())),
            orthographic: None,
            perspective: Some(gltf_json::camera::Perspective {
                aspect_ratio: None,
                yfov: fov,
                zfar: far,
                znear: near,
                extensions: None,
                extras: Default::default(),
            }),
            type_: Checked::Valid(gltf_json::camera::Type::Perspective),
            extensions: None,
            extras: Default::default(),
        });
        let node = root.push(gltf_json::Node {
            name: Some(short_name(&c.name.to_string())),
            camera: Some(cam),
            translation: finite3(eye).then_some(eye),
            rotation,
            extras: extras(json!({"mdlx": {"kind": "Camera", "index": i,
                "target": c.target_position, "field_of_view": c.field_of_view}})),
            ..Default::default()
        });
        scene_nodes.push(node);
    }
}

pub(super) fn lights(model: &Model, skeleton: &Skeleton, root: &mut Root, losses: &mut Losses) {
    use gltf_json::extensions::scene::khr_lights_punctual as klp;
    let mut list = Vec::new();
    for (i, sn) in skeleton.nodes.iter().enumerate() {
        if sn.kind != NodeKind::Light {
            continue;
        }
        let l = &model.lights[sn.index];
        let place = format!("Light[{}]", sn.index);
        // What KHR_lights_punctual has no word for: shadows, and a falloff other than its
        // inverse square within the range.
        let v = model.version;
        if v >= ver::LIGHT_SHADOW && (l.shadow_intensity != 0.0 || l.shadow_casting != 0) {
            losses.add(
                place.clone(),
                "shadow casting and intensity (1200+) not carried",
            );
        }
        if v >= ver::LIGHT_FALLOFF
            && (l.quadratic_falloff.to_bits() != Light::DEFAULT_QUADRATIC_FALLOFF.to_bits()
                || l.linear_falloff != 0.0
                || l.damping.to_bits() != Light::DEFAULT_DAMPING.to_bits())
        {
            losses.add(
                place.clone(),
                "falloff coefficients (1600+) not carried (glTF lights fall off by the \
                 inverse square of the distance)",
            );
        }
        if !l.tracks.is_empty() {
            losses.add(
                place.clone(),
                "light animation (colour, intensity, visibility) not carried",
            );
        }
        let type_ = match l.light_type {
            light_type::OMNIDIRECTIONAL => klp::Type::Point,
            light_type::DIRECTIONAL => klp::Type::Directional,
            _ => {
                losses.add(place, "ambient light not carried (no glTF kind)");
                continue;
            }
        };
        let color = l.color.map(|c| {
            if c.is_finite() {
                c.clamp(0.0, 1.0)
            } else {
                1.0
            }
        });
        let range =
            (type_ == klp::Type::Point && l.attenuation_end.is_finite() && l.attenuation_end > 0.0)
                .then_some(l.attenuation_end);
        list.push(klp::Light {
            color: [color[2], color[1], color[0]], // stored blue, green, red
            extensions: None,
            extras: Default::default(),
            intensity: if l.intensity.is_finite() {
                l.intensity.max(0.0)
            } else {
                1.0
            },
            name: Some(short_name(&sn.node.name.to_string())),
            range,
            spot: None,
            type_: Checked::Valid(type_),
        });
        root.nodes[i + 1].extensions = Some(gltf_json::extensions::scene::Node {
            khr_lights_punctual: Some(klp::KhrLightsPunctual {
                light: Index::new(list.len() as u32 - 1),
            }),
        });
    }
    if !list.is_empty() {
        root.extensions = Some(gltf_json::extensions::root::Root {
            khr_lights_punctual: Some(gltf_json::extensions::root::KhrLightsPunctual {
                lights: list,
            }),
        });
        root.extensions_used.push("KHR_lights_punctual".into());
    }
}
