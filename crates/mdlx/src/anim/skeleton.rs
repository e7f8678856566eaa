//! The node hierarchy at one moment: every node's local transform about its pivot, the
//! parent chain, the don't-inherit flags, and billboarding when a view direction is given.

use super::math::{
    self, cross, mul, normalize, qmul, qnormalize, quat_from_basis, transform_point, trs_about,
    Mat4, Quat, Vec3, IDENTITY, QUAT_IDENTITY,
};
use super::sample::{sample_keys, sorted_keys, AnimTime, Clock, TrackValue};
use crate::model::node_flags as flags;
use crate::model::{Interpolation, Key, Model, Node, Track};
use crate::spec::track::{KGRT, KGSC, KGTR};
use std::borrow::Cow;
use std::collections::HashMap;

/// What kind of record a node belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// `BONE`.
    Bone,
    /// `LITE`.
    Light,
    /// `HELP`.
    Helper,
    /// `ATCH`.
    Attachment,
    /// `PREM`.
    ParticleEmitter,
    /// `PRE2`.
    ParticleEmitter2,
    /// `CORN`.
    PopcornEmitter,
    /// `RIBB`.
    RibbonEmitter,
    /// `EVTS`.
    EventObject,
    /// `CLID`.
    CollisionShape,
}

impl NodeKind {
    /// The name used in MDL and in reports.
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Bone => "Bone",
            NodeKind::Light => "Light",
            NodeKind::Helper => "Helper",
            NodeKind::Attachment => "Attachment",
            NodeKind::ParticleEmitter => "ParticleEmitter",
            NodeKind::ParticleEmitter2 => "ParticleEmitter2",
            NodeKind::PopcornEmitter => "PopcornEmitter",
            NodeKind::RibbonEmitter => "RibbonEmitter",
            NodeKind::EventObject => "EventObject",
            NodeKind::CollisionShape => "CollisionShape",
        }
    }
}

/// A track with its keys in time order, ready to sample many times.
#[derive(Clone, Debug)]
pub struct PreparedTrack<'m, T: Clone> {
    keys: Cow<'m, [Key<T>]>,
    interpolation: Interpolation,
    global_sequence_id: i32,
}

impl<'m, T: TrackValue> PreparedTrack<'m, T> {
    /// Prepares `track` (sorting its keys only if the file did not).
    pub fn new(track: &'m Track<T>) -> Self {
        PreparedTrack {
            keys: sorted_keys(track),
            interpolation: track.interpolation,
            global_sequence_id: track.global_sequence_id,
        }
    }

    /// The value at the clock's time, or `fallback` when no key applies.
    pub fn sample(&self, clock: &Clock, fallback: T) -> T {
        clock
            .window(self.global_sequence_id)
            .and_then(|w| sample_keys(&self.keys, self.interpolation, w))
            .unwrap_or(fallback)
    }
}

/// Samples an optional prepared track.
fn sample_opt<T: TrackValue>(t: &Option<PreparedTrack<T>>, clock: &Clock, fallback: T) -> T {
    t.as_ref().map_or(fallback, |t| t.sample(clock, fallback))
}

/// One node, prepared.
#[derive(Clone, Debug)]
pub struct SkeletonNode<'m> {
    /// The node record.
    pub node: &'m Node,
    /// Which chunk it came from.
    pub kind: NodeKind,
    /// Its index among the records of its kind (`Bone[3]`).
    pub index: usize,
    /// Its pivot point (the model's pivot at its object id; the origin when there is none).
    pub pivot: Vec3,
    /// The index of its parent in [`Skeleton::nodes`], if it has one that exists and does
    /// not lead back to itself.
    pub parent: Option<usize>,
    translation: Option<PreparedTrack<'m, Vec3>>,
    rotation: Option<PreparedTrack<'m, Quat>>,
    scaling: Option<PreparedTrack<'m, Vec3>>,
}

/// A model's nodes, prepared for posing. Build it once, pose it at many times.
#[derive(Clone, Debug)]
pub struct Skeleton<'m> {
    model: &'m Model,
    /// Every node, in the order of [`Model::nodes`].
    pub nodes: Vec<SkeletonNode<'m>>,
    /// Indices into `nodes`, parents before their children.
    order: Vec<usize>,
    by_object_id: HashMap<u32, usize>,
    /// Nodes whose parent chain loops back to them; posed as if they had no parent.
    pub cycles: Vec<usize>,
}

/// The transform of one node at one moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodePose {
    /// Model space from the node's bind space: where its vertices go.
    pub world: Mat4,
    /// The node's accumulated rotation (for don't-inherit and billboards).
    pub rotation: Quat,
    /// The node's accumulated scale (for don't-inherit and billboards).
    pub scale: Vec3,
}

/// Every node's transform at one moment, indexed like [`Skeleton::nodes`].
#[derive(Clone, Debug, PartialEq)]
pub struct Pose {
    /// One per node.
    pub nodes: Vec<NodePose>,
    /// Billboarded nodes that were turned to face the view.
    pub billboards_applied: usize,
    /// Billboarded nodes left as they are because no view direction was given.
    pub billboards_ignored: usize,
}

/// Adds the nodes of every registry row marked `node`, in row order.
macro_rules! add_nodes {
    (($model:ident, $add:ident)
        $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident
        $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        $( add_nodes!(@row $model $add $field $node $(($nk))?); )*
    };
    (@row $model:ident $add:ident $field:ident node ($nk:ident)) => {
        for (i, x) in $model.$field.iter().enumerate() {
            $add(&x.node, NodeKind::$nk, i);
        }
    };
    (@row $model:ident $add:ident $field:ident $other:ident) => {};
}

impl<'m> Skeleton<'m> {
    /// Prepares the nodes of `model`.
    pub fn new(model: &'m Model) -> Skeleton<'m> {
        let mut nodes = Vec::new();
        let mut add = |node: &'m Node, kind: NodeKind, index: usize| {
            let pivot = model
                .pivot_points
                .get(node.object_id as usize)
                .copied()
                .unwrap_or([0.0; 3]);
            nodes.push(SkeletonNode {
                node,
                kind,
                index,
                pivot,
                parent: None,
                translation: node.tracks.vector3(KGTR).map(PreparedTrack::new),
                rotation: node.tracks.quaternion(KGRT).map(PreparedTrack::new),
                scaling: node.tracks.vector3(KGSC).map(PreparedTrack::new),
            });
        };
        crate::model::for_each_kind!(add_nodes!(model, add));

        // The first node with an object id owns it.
        let mut by_object_id = HashMap::with_capacity(nodes.len());
        for (i, n) in nodes.iter().enumerate() {
            by_object_id.entry(n.node.object_id).or_insert(i);
        }
        for n in nodes.iter_mut() {
            n.parent = u32::try_from(n.node.parent_id)
                .ok()
                .and_then(|p| by_object_id.get(&p).copied());
        }

        // Parents first; a parent chain that loops is cut where it closes.
        let mut order = Vec::with_capacity(nodes.len());
        let mut state = vec![0u8; nodes.len()]; // 0 new, 1 on the current chain, 2 placed
        let mut cycles = Vec::new();
        let mut start = 0;
        while start < nodes.len() {
            let mut chain = Vec::new();
            let mut at = Some(start);
            let mut cut = false;
            while let Some(i) = at {
                match state[i] {
                    2 => break,
                    1 => {
                        // i's chain leads back to i: cut the link out of i, walk again.
                        nodes[i].parent = None;
                        cycles.push(i);
                        cut = true;
                        break;
                    }
                    _ => {
                        state[i] = 1;
                        chain.push(i);
                        at = nodes[i].parent;
                    }
                }
            }
            for &i in chain.iter().rev() {
                state[i] = if cut { 0 } else { 2 };
                if !cut {
                    order.push(i);
                }
            }
            if !cut {
                start += 1;
            }
        }
        Skeleton {
            model,
            nodes,
            order,
            by_object_id,
            cycles,
        }
    }

    /// The node with this object id (the first, if several claim it).
    pub fn by_object_id(&self, id: u32) -> Option<usize> {
        self.by_object_id.get(&id).copied()
    }

    /// The clocks of the model at `at`.
    pub fn clock(&self, at: AnimTime) -> Clock<'m> {
        Clock::new(self.model, at)
    }

    /// Every node's transform at `at`. `view` is the direction the camera looks in, in
    /// model space; billboarded nodes turn to face it, and stay as they are without it.
    pub fn pose(&self, at: AnimTime, view: Option<Vec3>) -> Pose {
        self.pose_at(&self.clock(at), view)
    }

    /// Every node's transform at the time of `clock` (see [`Skeleton::pose`]).
    pub fn pose_at(&self, clock: &Clock, view: Option<Vec3>) -> Pose {
        let clock = clock.clone();
        let identity = NodePose {
            world: IDENTITY,
            rotation: QUAT_IDENTITY,
            scale: [1.0; 3],
        };
        let mut out = vec![identity; self.nodes.len()];
        let (mut applied, mut ignored) = (0, 0);
        for &i in &self.order {
            let n = &self.nodes[i];
            let t = sample_opt(&n.translation, &clock, [0.0; 3]);
            let r = qnormalize(sample_opt(&n.rotation, &clock, QUAT_IDENTITY));
            let s = sample_opt(&n.scaling, &clock, [1.0; 3]);
            let local = trs_about(t, r, s, n.pivot);
            let parent = n.parent.map(|p| out[p]).unwrap_or(identity);
            let f = n.node.flags;
            let (dit, dir, dis) = (
                f & flags::DONT_INHERIT_TRANSLATION != 0,
                f & flags::DONT_INHERIT_ROTATION != 0,
                f & flags::DONT_INHERIT_SCALING != 0,
            );
            let frame = if n.parent.is_none() || !(dit || dir || dis) {
                parent.world
            } else {
                // The parent's transform with the parts this node does not inherit taken
                // out, about this node's pivot: x -> L (x - pivot) + origin.
                let linear = match (dir, dis) {
                    (false, false) => linear_part(&parent.world),
                    (true, false) => trs_about([0.0; 3], QUAT_IDENTITY, parent.scale, [0.0; 3]),
                    (false, true) => trs_about([0.0; 3], parent.rotation, [1.0; 3], [0.0; 3]),
                    (true, true) => IDENTITY,
                };
                let origin = if dit {
                    n.pivot
                } else {
                    transform_point(&parent.world, n.pivot)
                };
                let moved = transform_point(&linear, n.pivot);
                let mut m = linear;
                m[12] = origin[0] - moved[0];
                m[13] = origin[1] - moved[1];
                m[14] = origin[2] - moved[2];
                m
            };
            let mut pose = NodePose {
                world: mul(&frame, &local),
                rotation: qmul(if dir { QUAT_IDENTITY } else { parent.rotation }, r),
                scale: if dis {
                    s
                } else {
                    [0, 1, 2].map(|k| parent.scale[k] * s[k])
                },
            };
            let billboard = f & flags::BILLBOARD;
            if billboard != 0 {
                match view {
                    Some(v) => {
                        pose = face(pose, n.pivot, billboard, v);
                        applied += 1;
                    }
                    None => ignored += 1,
                }
            }
            out[i] = pose;
        }
        Pose {
            nodes: out,
            billboards_applied: applied,
            billboards_ignored: ignored,
        }
    }
}

/// The 3x3 part of `m`, as a matrix with no translation.
fn linear_part(m: &Mat4) -> Mat4 {
    let mut l = *m;
    l[12] = 0.0;
    l[13] = 0.0;
    l[14] = 0.0;
    l
}

/// Turns a billboarded node to face the viewer: its +X axis points back along `view`
/// (fully, or as far as turning about the locked axis allows), about its pivot's place in
/// the world, keeping its accumulated scale.
fn face(pose: NodePose, pivot: Vec3, bits: u32, view: Vec3) -> NodePose {
    let to_viewer = normalize(math::scale(view, -1.0));
    let turn: Quat = if bits & flags::BILLBOARDED != 0 {
        // +X to the viewer, +Z as close to model up as possible.
        let x = to_viewer;
        let up = if x[2].abs() > 0.999 {
            [0.0, 1.0, 0.0]
        } else {
            [0.0, 0.0, 1.0]
        };
        let y = normalize(cross(up, x));
        let z = cross(x, y);
        quat_from_basis(x, y, z)
    } else if bits & flags::BILLBOARD_LOCK_Z != 0 {
        let angle = to_viewer[1].atan2(to_viewer[0]);
        math::qaxis_angle([0.0, 0.0, 1.0], angle)
    } else if bits & flags::BILLBOARD_LOCK_Y != 0 {
        let angle = (-to_viewer[2]).atan2(to_viewer[0]);
        math::qaxis_angle([0.0, 1.0, 0.0], angle)
    } else {
        // Locked about X, the axis that faces the viewer: turning about it cannot change
        // which way +X points. Left as it is.
        pose.rotation
    };
    let place = transform_point(&pose.world, pivot);
    let world = trs_about(math::sub(place, pivot), turn, pose.scale, pivot);
    NodePose {
        world,
        rotation: turn,
        scale: pose.scale,
    }
}
