//! Joints as bones: each joint's bind pose in the model, its bone (pivot and tracks), and a
//! still bone for vertices bound to no joint.

use super::super::axes::{euler_to_quat, point_to_wc3};
use super::super::pose::{joint_parents, ms3d_globals, parents_first};
use super::super::time::FrameRate;
use super::super::BONE_FLAG;
use super::{fixed, keys};
use crate::anim::math::{qmul, qnormalize, Mat4, Quat, QUAT_IDENTITY};
use crate::model::{Bone as WcBone, FixedString, Model, Node, Tracks};
use crate::ms3d::Document;
use crate::Loss;

/// The joints' hierarchy and bind pose.
pub(super) struct Joints {
    /// Each joint's parent (see [`joint_parents`]).
    parents: Vec<Option<usize>>,
    /// Each joint's bind transform in the model, in Milkshape axes.
    globals: Vec<Mat4>,
    /// Each joint's bind rotation in the model, as a quaternion.
    bind_rot: Vec<Quat>,
}

impl Joints {
    /// The joints of `doc`; a parent that is not found (or makes a loop) is a loss.
    pub(super) fn of(doc: &Document, losses: &mut Vec<Loss>) -> Joints {
        let parents = joint_parents(doc);
        for (i, b) in doc.bones.iter().enumerate() {
            if !b.parent.is_empty() && parents[i].is_none() {
                losses.push(Loss::new(
                    format!("Bone[{i}]"),
                    format!("parent {:?} not found (or a loop); made a root", b.parent),
                ));
            }
        }
        let globals = ms3d_globals(doc, None);
        let mut bind_rot = vec![QUAT_IDENTITY; doc.bones.len()];
        for i in parents_first(&parents) {
            let own = euler_to_quat(doc.bones[i].rotation);
            bind_rot[i] = match parents[i] {
                Some(p) => qnormalize(qmul(bind_rot[p], own)),
                None => own,
            };
        }
        Joints {
            parents,
            globals,
            bind_rot,
        }
    }
}

/// One bone per joint, its pivot the joint's bind position in the model, its tracks the
/// joint's keys at `moments` (milliseconds).
pub(super) fn bones(
    doc: &Document,
    joints: &Joints,
    rate: FrameRate,
    moments: &[i32],
    model: &mut Model,
    losses: &mut Vec<Loss>,
) {
    for (i, b) in doc.bones.iter().enumerate() {
        let place = format!("Bone[{i}]");
        let tracks = keys::bone_tracks(b, joints.bind_rot[i], rate, moments);
        model.bones.push(WcBone {
            node: Node {
                name: fixed(b.name.as_bytes(), 80, &place, "name", losses),
                object_id: i as u32,
                parent_id: joints.parents[i].map_or(-1, |p| p as i32),
                flags: BONE_FLAG,
                tracks: Tracks(tracks),
                tail: Vec::new(),
            },
            geoset_id: -1,
            geoset_animation_id: -1,
        });
        let g = &joints.globals[i];
        model.pivot_points.push(point_to_wc3([g[12], g[13], g[14]]));
    }
    let flagged = doc.bones.iter().filter(|b| b.flags != 0).count();
    if flagged > 0 {
        losses.push(Loss::new(
            "joints",
            format!("flags of {flagged} joint(s) (editor state)"),
        ));
    }
}

/// Vertices bound to no joint follow a still bone made for them: its object id, when any
/// vertex needs it.
pub(super) fn still_bone(doc: &Document, model: &mut Model) -> Option<u32> {
    let unbound = doc.meshes.iter().any(|m| {
        m.vertices
            .iter()
            .any(|v| usize::try_from(v.bone).map_or(true, |b| b >= doc.bones.len()))
    });
    unbound.then(|| {
        let id = model.bones.len();
        model.bones.push(WcBone {
            node: Node {
                name: FixedString::from("mdlx_unbound"),
                object_id: id as u32,
                parent_id: -1,
                flags: BONE_FLAG,
                ..Default::default()
            },
            geoset_id: -1,
            geoset_animation_id: -1,
        });
        model.pivot_points.push([0.0; 3]);
        id as u32
    })
}
