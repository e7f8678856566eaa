//! Nodes: which of the glTF's nodes is which of the model's, and what of each changed.

use super::motion::{relative, Player};
use super::sequences::Seqs;
use super::{far, same_name, tracks, Changes, Ids, TOLERANCE};
use crate::anim::math::Mat4;
use crate::anim::{NodeKind, Skeleton};
use crate::convert::gltf::import::{Import, Sources};
use crate::gltf::source::Source;
use crate::model::{Model, Node, Tracks};
use std::collections::{BTreeSet, HashMap};

/// The most moments a sequence is compared at (the glTF's key times, spread evenly when
/// there are more: Blender sampling at a thousand frames a second keys every millisecond).
const MAX_MOMENTS: usize = 4000;

/// Where the nodes went: the result's object id of each node of the fresh model and of the
/// embedded model (by their object ids; `None`: not in the result).
pub(super) struct NodeMap {
    pub(super) of_fresh: Vec<Option<u32>>,
    pub(super) of_kept: Vec<Option<u32>>,
}

/// The node of `m` of `kind` and `index`.
pub(super) fn node_mut(m: &mut Model, kind: NodeKind, index: usize) -> Option<&mut Node> {
    Some(match kind {
        NodeKind::Bone => &mut m.bones.get_mut(index)?.node,
        NodeKind::Light => &mut m.lights.get_mut(index)?.node,
        NodeKind::Helper => &mut m.helpers.get_mut(index)?.node,
        NodeKind::Attachment => &mut m.attachments.get_mut(index)?.node,
        NodeKind::ParticleEmitter => &mut m.particle_emitters.get_mut(index)?.node,
        NodeKind::ParticleEmitter2 => &mut m.particle_emitters2.get_mut(index)?.node,
        NodeKind::PopcornEmitter => &mut m.popcorn_emitters.get_mut(index)?.node,
        NodeKind::RibbonEmitter => &mut m.ribbon_emitters.get_mut(index)?.node,
        NodeKind::EventObject => &mut m.event_objects.get_mut(index)?.node,
        NodeKind::CollisionShape => &mut m.collision_shapes.get_mut(index)?.node,
    })
}

/// Whether two local transforms differ: translations by more than the tolerance of
/// `size`, the rest (rotation and scale) by more than the tolerance of the larger of 1 and
/// the transform's scale. Where `a` scales an axis to nothing, only the scales and the
/// translation count: Blender cannot invert such a transform and gives it back turned
/// (a node scaled to 0 on one axis, as effects do to vanish), and a turn of a node that
/// shows nothing along that axis is not an edit anyone makes.
fn differ(a: &Mat4, b: &Mat4, size: f32) -> bool {
    let column = |m: &Mat4, c: usize| (0..3).map(|k| m[c * 4 + k].powi(2)).sum::<f32>().sqrt();
    let (sa, sb) = (
        [0, 1, 2].map(|c| column(a, c)),
        [0, 1, 2].map(|c| column(b, c)),
    );
    if sa.iter().any(|&s| s <= 1e-6) {
        let scale = sa
            .iter()
            .chain(&sb)
            .copied()
            .filter(|v| v.is_finite())
            .fold(1.0f32, f32::max);
        return (0..3).any(|k| far((sa[k] - sb[k]).abs(), TOLERANCE * scale))
            || (12..15).any(|k| far((a[k] - b[k]).abs(), TOLERANCE * size));
    }
    let scale = (0..12)
        .map(|k| a[k].abs().max(b[k].abs()))
        .filter(|v| v.is_finite())
        .fold(1.0f32, f32::max);
    (0..16).any(|k| {
        let d = (a[k] - b[k]).abs();
        let tol = if (12..15).contains(&k) {
            TOLERANCE * size
        } else {
            TOLERANCE * scale
        };
        far(d, tol) && (a[k].is_finite() || b[k].is_finite())
    })
}

/// Per kept node, per result sequence: whether the glTF moves it otherwise than `base`
/// does (the embedded model's own export: what the glTF would hold had nothing changed
/// it), compared at the times the glTF keys (see [`motion`]). `nodes` gives each kept
/// node's glTF node in the glTF and in `base`, `parents` each kept node's parent.
fn changed_motion(
    glb: &Player,
    base: &Player,
    seqs: &Seqs,
    nodes: &[Option<(usize, usize)>],
    parents: &[Option<usize>],
    size: f32,
) -> Vec<Vec<bool>> {
    let mut out = vec![vec![false; seqs.list.len()]; nodes.len()];
    for (r, (kept, fresh)) in seqs.kept.iter().zip(&seqs.fresh).enumerate() {
        let (Some(j), Some(i)) = (*kept, *fresh) else {
            continue;
        };
        let len = glb.duration(i).min(base.duration(j));
        let mut times: Vec<f32> = glb.times(i).into_iter().filter(|&t| t <= len).collect();
        if times.len() > MAX_MOMENTS {
            let step = times.len() as f64 / MAX_MOMENTS as f64;
            times = (0..MAX_MOMENTS)
                .map(|k| times[((k as f64 * step) as usize).min(times.len() - 1)])
                .collect();
        }
        for t in times {
            let (a, b) = (base.game(j, t), glb.game(i, t));
            for (ki, pair) in nodes.iter().enumerate() {
                let Some((g, bg)) = *pair else { continue };
                if out[ki][r] {
                    continue;
                }
                let p = parents[ki].and_then(|p| nodes[p]);
                let lb = relative(&a, bg, p.map(|p| p.1));
                let lg = relative(&b, g, p.map(|p| p.0));
                if differ(&lb, &lg, size) {
                    out[ki][r] = true;
                }
            }
        }
    }
    out
}

/// Which fresh node is which kept node: the glTF node each fresh node came from, and the
/// identity its extras carry. Returns (per fresh node the kept node, per kept node whether
/// some glTF node still carries it).
fn identify(
    kept: &Skeleton,
    fs: &Skeleton,
    sources: &Sources,
    ids: &Ids,
) -> (Vec<Option<usize>>, Vec<bool>) {
    let by_id: HashMap<(NodeKind, usize), usize> = kept
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| ((n.kind, n.index), i))
        .collect();
    let mut present = vec![false; kept.nodes.len()];
    for id in ids.nodes.iter().flatten() {
        if let Some(&i) = by_id.get(id) {
            present[i] = true;
        }
    }
    let of_fresh = fs
        .nodes
        .iter()
        .map(|n| {
            let g = sources
                .nodes
                .get(n.node.object_id as usize)
                .copied()
                .flatten()?;
            by_id.get(&ids.nodes[g]?).copied()
        })
        .collect();
    (of_fresh, present)
}

/// Whether fresh node `k` is not a node of its own: one of this crate's helpers, or the
/// node Blender makes under a light's bone to hold the light.
fn not_a_node(fs: &Skeleton, k: usize, sources: &Sources, ids: &Ids) -> bool {
    let Some(g) = sources
        .nodes
        .get(fs.nodes[k].node.object_id as usize)
        .copied()
        .flatten()
    else {
        return true;
    };
    ids.ours[g]
        || (fs.nodes[k].kind == NodeKind::Light
            && ids.nodes[g].is_none()
            && ids.parent[g].is_some_and(|p| matches!(ids.nodes[p], Some((NodeKind::Light, _)))))
}

/// The embedded model's own export, played, and what its `extras` say.
pub(super) struct Base<'a> {
    pub(super) player: &'a Player<'a>,
    pub(super) ids: &'a Ids,
}

/// Merges the nodes (see the module documentation of [`super`]) into `out`, a copy of
/// `kept` with the result's sequences, `base` the embedded model's own glTF read back.
/// Returns where each fresh node went.
#[allow(clippy::too_many_arguments)]
pub(super) fn merge(
    out: &mut Model,
    kept: &Model,
    fresh: &Import,
    sources: &Sources,
    ids: &Ids,
    glb: &Player,
    base: &Base,
    src: &Source,
    seqs: &Seqs,
    size: f32,
    changes: &mut Changes,
) -> NodeMap {
    let f = &fresh.model;
    let (ks, fs) = (Skeleton::new(kept), Skeleton::new(f));
    let (kept_of, present) = identify(&ks, &fs, sources, ids);
    let pairs: Vec<(usize, usize)> = kept_of
        .iter()
        .enumerate()
        .filter_map(|(k, i)| i.map(|i| (i, k)))
        .collect();
    // Each kept node's glTF node here and in the base (the first that carries it).
    let first = |ids: &Ids| {
        let mut m: HashMap<(NodeKind, usize), usize> = HashMap::new();
        for (g, id) in ids.nodes.iter().enumerate() {
            if let Some(id) = id {
                m.entry(*id).or_insert(g);
            }
        }
        m
    };
    let (here, there) = (first(ids), first(base.ids));
    let nodes: Vec<Option<(usize, usize)>> = ks
        .nodes
        .iter()
        .map(|n| {
            Some((
                *here.get(&(n.kind, n.index))?,
                *there.get(&(n.kind, n.index))?,
            ))
        })
        .collect();
    let parents: Vec<Option<usize>> = ks.nodes.iter().map(|n| n.parent).collect();
    let motion = changed_motion(glb, base.player, seqs, &nodes, &parents, size);
    let mut of_fresh: Vec<Option<u32>> = vec![None; f.pivot_points.len().max(f.node_count())];
    let mut reparent: Vec<(NodeKind, usize, usize)> = Vec::new();
    for &(ki, fk) in &pairs {
        let (kn, fnode) = (&ks.nodes[ki], &fs.nodes[fk]);
        of_fresh[fnode.node.object_id as usize] = Some(kn.node.object_id);
        let place = format!(
            "{}[{}] {:?}",
            kn.kind.name(),
            kn.index,
            kn.node.name.to_string()
        );
        let moved = fnode
            .pivot
            .iter()
            .zip(kn.pivot)
            .any(|(a, b)| far((a - b).abs(), TOLERANCE * size));
        let parent_changed = kn.parent != fnode.parent.and_then(|p| kept_of[p])
            || (kn.parent.is_some() && fnode.parent.is_none());
        let gname = sources
            .nodes
            .get(fnode.node.object_id as usize)
            .copied()
            .flatten()
            .and_then(|g| src.root.nodes[g].name.clone())
            .unwrap_or_default();
        let Some(node) = node_mut(out, kn.kind, kn.index) else {
            continue;
        };
        if !same_name(&kn.node.name.to_string(), &gname) {
            node.name.set(&gname);
            changes.add(format!("{place} renamed {gname:?}"));
        }
        if parent_changed {
            reparent.push((kn.kind, kn.index, fk));
        }
        if moved {
            if let Some(p) = out.pivot_points.get_mut(kn.node.object_id as usize) {
                *p = fnode.pivot;
            }
            changes.add(format!("{place}: pivot moved"));
        }
        let all = moved || parent_changed;
        let node = node_mut(out, kn.kind, kn.index).expect("found above");
        let mut edited = Vec::new();
        for (r, changed) in motion[ki].iter().enumerate() {
            let (sw, fw, rw) = seqs.windows(kept, f, r);
            let Some(fw) = fw else { continue };
            if sw.is_none() || all || *changed {
                tracks::replace(&mut node.tracks, &fnode.node.tracks, fw, rw, size);
                if sw.is_some() {
                    edited.push(seqs.list[r].name.to_string());
                }
            }
        }
        if !edited.is_empty() {
            changes.add(format!("{place}: motion in {}", edited.join(", ")));
        }
    }
    // New nodes: the glTF's nodes that carry no identity.
    let mut next = out.pivot_points.len().max(out.node_count()) as u32;
    let mut added: Vec<(NodeKind, usize, usize)> = Vec::new();
    for (k, fnode) in fs.nodes.iter().enumerate() {
        if kept_of[k].is_some() || not_a_node(&fs, k, sources, ids) {
            continue;
        }
        let mut tr = Tracks::default();
        for r in 0..seqs.list.len() {
            if let (_, Some(fw), rw) = seqs.windows(kept, f, r) {
                tracks::replace(&mut tr, &fnode.node.tracks, fw, rw, size);
            }
        }
        let node = Node {
            object_id: next,
            parent_id: -1,
            tracks: tr,
            ..fnode.node.clone()
        };
        of_fresh[fnode.node.object_id as usize] = Some(next);
        if out.pivot_points.len() < next as usize {
            out.pivot_points.resize(next as usize, [0.0; 3]);
        }
        out.pivot_points.push(fnode.pivot);
        next += 1;
        let index = push_node(out, f, fnode.kind, fnode.index, node);
        added.push((fnode.kind, index, k));
        changes.add(format!(
            "new {} {:?}",
            fnode.kind.name(),
            fnode.node.name.to_string()
        ));
    }
    set_parents(
        out,
        &fs,
        &of_fresh,
        reparent.into_iter().chain(added),
        changes,
    );
    let of_kept = remove_gone(out, kept, &ks, &present, &mut of_fresh, changes);
    NodeMap { of_fresh, of_kept }
}

/// Sets the parents of the new and re-parented nodes (`(kind, index in out, fresh node)`),
/// by the result's object ids (`of_fresh`).
fn set_parents(
    out: &mut Model,
    fs: &Skeleton,
    of_fresh: &[Option<u32>],
    moves: impl Iterator<Item = (NodeKind, usize, usize)>,
    changes: &mut Changes,
) {
    for (kind, index, fk) in moves {
        let parent = fs.nodes[fk]
            .parent
            .and_then(|p| of_fresh[fs.nodes[p].node.object_id as usize])
            .map_or(-1, |id| id as i32);
        if let Some(n) = node_mut(out, kind, index) {
            if n.parent_id != parent {
                changes.add(format!(
                    "{}[{index}] {:?}: new parent",
                    kind.name(),
                    n.name.to_string()
                ));
            }
            n.parent_id = parent;
        }
    }
}

/// Removes the kept nodes that are not `present` in the glTF, moving the result's object
/// ids in `of_fresh` down past them; returns each kept node's object id in the result.
fn remove_gone(
    out: &mut Model,
    kept: &Model,
    ks: &Skeleton,
    present: &[bool],
    of_fresh: &mut [Option<u32>],
    changes: &mut Changes,
) -> Vec<Option<u32>> {
    let mut of_kept: Vec<Option<u32>> = (0..kept.pivot_points.len().max(kept.node_count()))
        .map(|i| Some(i as u32))
        .collect();
    let gone: Vec<usize> = (0..ks.nodes.len()).filter(|&i| !present[i]).collect();
    if !gone.is_empty() {
        remove_nodes(out, ks, &gone, changes);
        // The result's ids moved down past the removed ones.
        let removed: BTreeSet<u32> = gone.iter().map(|&i| ks.nodes[i].node.object_id).collect();
        let down = |id: u32| id - removed.range(..id).count() as u32;
        for id in of_fresh.iter_mut().flatten() {
            *id = down(*id);
        }
        for (i, id) in of_kept.iter_mut().enumerate() {
            *id = (!removed.contains(&(i as u32))).then(|| down(i as u32));
        }
    }
    of_kept
}

/// Adds `node` to `out` as a record of `kind`, the rest of the record as the fresh model's
/// record `index` of that kind has it. Returns its index among the records of its kind.
fn push_node(out: &mut Model, f: &Model, kind: NodeKind, index: usize, node: Node) -> usize {
    macro_rules! push {
        ($list:ident) => {{
            let mut r = f.$list[index].clone();
            r.node = node;
            out.$list.push(r);
            out.$list.len() - 1
        }};
    }
    match kind {
        NodeKind::Bone => {
            let mut r = f.bones[index].clone();
            r.node = node;
            r.geoset_id = -1;
            r.geoset_animation_id = -1;
            out.bones.push(r);
            out.bones.len() - 1
        }
        NodeKind::Light => push!(lights),
        NodeKind::Helper => push!(helpers),
        NodeKind::Attachment => {
            let mut r = f.attachments[index].clone();
            r.node = node;
            r.attachment_id = out.attachments.len() as u32;
            out.attachments.push(r);
            out.attachments.len() - 1
        }
        NodeKind::ParticleEmitter => push!(particle_emitters),
        NodeKind::ParticleEmitter2 => push!(particle_emitters2),
        NodeKind::PopcornEmitter => push!(popcorn_emitters),
        NodeKind::RibbonEmitter => push!(ribbon_emitters),
        NodeKind::EventObject => push!(event_objects),
        NodeKind::CollisionShape => push!(collision_shapes),
    }
}

/// Removes the kept nodes `gone` (skeleton indices of `ks`, the embedded model's) from
/// `out`: their children go to their parents, every later object id one lower for each
/// removed below it (pivots, parents, matrix groups and bind poses follow).
fn remove_nodes(out: &mut Model, ks: &Skeleton, gone: &[usize], changes: &mut Changes) {
    let removed: BTreeSet<u32> = gone.iter().map(|&i| ks.nodes[i].node.object_id).collect();
    // Where a removed node's children go: its nearest ancestor that stays.
    let mut up: HashMap<u32, i32> = HashMap::new();
    for &i in gone {
        let mut p = ks.nodes[i].parent;
        while let Some(q) = p.filter(|&q| removed.contains(&ks.nodes[q].node.object_id)) {
            p = ks.nodes[q].parent;
        }
        up.insert(
            ks.nodes[i].node.object_id,
            p.map_or(-1, |q| ks.nodes[q].node.object_id as i32),
        );
        changes.add(format!(
            "{}[{}] {:?} removed (the glTF has no such node)",
            ks.nodes[i].kind.name(),
            ks.nodes[i].index,
            ks.nodes[i].node.name.to_string()
        ));
    }
    let new_id = |id: u32| id - removed.range(..id).count() as u32;
    macro_rules! retain {
        ($($list:ident),*) => {$(
            out.$list.retain(|r| !removed.contains(&r.node.object_id));
        )*};
    }
    retain!(
        bones,
        lights,
        helpers,
        attachments,
        particle_emitters,
        particle_emitters2,
        popcorn_emitters,
        ribbon_emitters,
        event_objects,
        collision_shapes
    );
    for n in out.nodes_mut() {
        if let Ok(p) = u32::try_from(n.parent_id) {
            let p = match up.get(&p) {
                Some(&q) => q,
                None => p as i32,
            };
            n.parent_id = u32::try_from(p).map_or(-1, |p| new_id(p) as i32);
        }
        n.object_id = new_id(n.object_id);
    }
    let mut id = 0u32;
    out.pivot_points.retain(|_| {
        id += 1;
        !removed.contains(&(id - 1))
    });
    let mut id = 0u32;
    out.bind_poses.retain(|_| {
        id += 1;
        !removed.contains(&(id - 1))
    });
    for g in &mut out.geosets {
        for m in &mut g.matrix_indices {
            if !removed.contains(m) {
                *m = new_id(*m);
            }
        }
    }
}
