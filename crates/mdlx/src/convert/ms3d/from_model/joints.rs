//! Which nodes become joints (bones, helpers, and everything they hang from), their unique
//! names, and the joints themselves.

use super::super::axes::point_to_ms3d;
use super::dropped;
use crate::anim::{NodeKind, SkeletonNode};
use crate::ms3d::{self, Document, Key, Text};
use crate::Loss;
use std::collections::HashMap;

/// The nodes that become joints.
pub(super) struct Joints {
    /// Whether each node is a joint.
    pub(super) keep: Vec<bool>,
    /// Each node's joint index.
    pub(super) joint_of: Vec<Option<usize>>,
    /// Each joint's name (unique: Milkshape finds parents by name).
    pub(super) names: Vec<Vec<u8>>,
}

impl Joints {
    /// The joints of a skeleton's nodes; the nodes of other kinds are losses.
    pub(super) fn of(nodes: &[SkeletonNode<'_>], losses: &mut Vec<Loss>) -> Joints {
        let mut keep = vec![false; nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            if matches!(n.kind, NodeKind::Bone | NodeKind::Helper) {
                let mut at = Some(i);
                while let Some(k) = at {
                    if keep[k] {
                        break;
                    }
                    keep[k] = true;
                    at = nodes[k].parent;
                }
            }
        }
        let joint_of: Vec<Option<usize>> = {
            let mut next = 0;
            keep.iter()
                .map(|&k| {
                    k.then(|| {
                        next += 1;
                        next - 1
                    })
                })
                .collect()
        };
        kind_losses(nodes, &keep, losses);
        Joints {
            names: Vec::new(),
            keep,
            joint_of,
        }
    }

    /// Names the joints: a name that is empty, holds a quote or is taken gets the node's
    /// object id appended.
    pub(super) fn name(&mut self, nodes: &[SkeletonNode<'_>], losses: &mut Vec<Loss>) {
        let mut names: Vec<Vec<u8>> = Vec::new();
        let mut seen: HashMap<Vec<u8>, usize> = HashMap::new();
        for (i, n) in nodes.iter().enumerate() {
            if !self.keep[i] {
                continue;
            }
            let mut name = n.node.name.text_bytes().to_vec();
            if name.is_empty() || name.contains(&b'"') || seen.contains_key(&name) {
                let fresh = format!(
                    "{}_{}",
                    String::from_utf8_lossy(&name).replace('"', "'"),
                    n.node.object_id
                )
                .into_bytes();
                losses.push(Loss::new(
                    format!("{}[{}]", n.kind.name(), n.index),
                    format!(
                        "renamed {:?} to {:?} (joint names must be unique and quotable)",
                        String::from_utf8_lossy(&name),
                        String::from_utf8_lossy(&fresh)
                    ),
                ));
                name = fresh;
            }
            seen.insert(name.clone(), i);
            names.push(name);
        }
        self.names = names;
    }

    /// The joints, in node order: each at its pivot relative to its parent joint's, with no
    /// bind rotation, and the keys sampled for it.
    pub(super) fn write(
        &self,
        nodes: &[SkeletonNode<'_>],
        mut joint_keys: Vec<(Vec<Key>, Vec<Key>)>,
        doc: &mut Document,
    ) {
        for (i, n) in nodes.iter().enumerate() {
            let Some(j) = self.joint_of[i] else { continue };
            let parent = n.parent.filter(|&p| self.keep[p]);
            let parent_pivot = parent.map_or([0.0; 3], |p| nodes[p].pivot);
            let (position_keys, rotation_keys) = std::mem::take(&mut joint_keys[j]);
            doc.bones.push(ms3d::Bone {
                name: Text(self.names[j].clone()),
                parent: parent.map_or(Text::default(), |p| {
                    Text(self.names[self.joint_of[p].unwrap_or(0)].clone())
                }),
                flags: 0,
                position: point_to_ms3d([
                    n.pivot[0] - parent_pivot[0],
                    n.pivot[1] - parent_pivot[1],
                    n.pivot[2] - parent_pivot[2],
                ]),
                rotation: [0.0; 3],
                position_keys,
                rotation_keys,
            });
        }
    }
}

/// Nodes of other kinds are dropped, or kept as plain joints when bones hang from them.
fn kind_losses(nodes: &[SkeletonNode<'_>], keep: &[bool], losses: &mut Vec<Loss>) {
    for (kind, name) in [
        (NodeKind::Light, "Light"),
        (NodeKind::Attachment, "Attachment"),
        (NodeKind::ParticleEmitter, "ParticleEmitter"),
        (NodeKind::ParticleEmitter2, "ParticleEmitter2"),
        (NodeKind::PopcornEmitter, "PopcornEmitter"),
        (NodeKind::RibbonEmitter, "RibbonEmitter"),
        (NodeKind::EventObject, "EventObject"),
        (NodeKind::CollisionShape, "CollisionShape"),
    ] {
        let all = nodes.iter().filter(|n| n.kind == kind).count();
        let kept = nodes
            .iter()
            .zip(keep)
            .filter(|(n, &k)| n.kind == kind && k)
            .count();
        dropped(losses, name, all - kept);
        if kept > 0 {
            losses.push(Loss::new(
                name,
                format!("{kept} kept only as plain joints (bones hang from them)"),
            ));
        }
    }
}
