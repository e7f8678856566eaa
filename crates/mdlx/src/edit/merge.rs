//! Parts of another model merged into this one: geosets, bones, helpers, lights,
//! attachments, emitters, ribbons, event objects, collision shapes and cameras.
//!
//! - **Which parts.** All of them, or those chosen by name: a node named so (any case,
//!   names compared as [`super::transfer`] compares bone names) with every node under it,
//!   and a camera named so. A geoset comes with them when every node its vertices follow
//!   is one of those. The chosen nodes' ancestors come too, so that the part poses as in
//!   its own model.
//! - **Under a node.** Attached under a node of this model (`Hand Right Ref`), the part is
//!   placed as the game places a model attached there: its origin at the node's pivot,
//!   following the node as it moves. Its top nodes become the node's children, and the
//!   whole part (vertices, pivots, extents) moves by the node's pivot. Cameras do not
//!   follow nodes: they move with the part but stay where they are.
//! - **Numbers.** Object ids are given anew, kind by kind, as the classic files order them
//!   (this model's nodes keep their order, the part's follow theirs); parents, matrix
//!   groups, pivots and bind poses follow. Textures, texture animations, global sequences
//!   and materials equal to ones this model has are shared; the others are added.
//! - **Time.** The part plays in each sequence of this model its own sequence of the same
//!   name, or holds its Stand's opening pose (see [`super::retime`]).
//! - **Versions.** A part of another version is converted first: up or across with
//!   [`Model::to_version`], from Reforged to a classic model with
//!   [`crate::convert::classic::to_classic`]; what that loses is said.
//! - **Extents**: the part's geosets' are recomputed from the poses, and the model's and
//!   each sequence's grown to hold them.

use super::retime::retime;
use super::transfer::name_key;
use super::transform::{transform, Transform};
use super::Report;
use crate::model::usage::{redirect, remove, RefKind, Usage};
use crate::model::{Model, Node};

/// Parts of another model to merge (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Merge {
    /// The model the parts come from.
    pub source: Model,
    /// Names of nodes (each with the nodes under it) and cameras to take; empty: all.
    pub parts: Vec<String>,
    /// The node of this model the part is attached under, by name.
    pub under: Option<String>,
}

/// Whether a node name is `want`: the same (any case), else the same as bone names
/// compare.
fn named(names: &[String], want: &str) -> Vec<usize> {
    let exact: Vec<usize> = (0..names.len())
        .filter(|&i| names[i].eq_ignore_ascii_case(want))
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    let key = name_key(want);
    (0..names.len())
        .filter(|&i| name_key(&names[i]) == key)
        .collect()
}

/// What of the source is taken: by node (in [`Model::nodes`] order), geoset and camera.
struct Chosen {
    nodes: Vec<bool>,
    geosets: Vec<bool>,
    cameras: Vec<bool>,
}

/// The nodes each geoset's vertices follow (object ids).
fn followed(m: &Model) -> Vec<Vec<u32>> {
    m.geosets.iter().map(|g| g.matrix_indices.clone()).collect()
}

/// Chooses the parts `names` name (all when empty); a name that matches nothing is refused.
fn choose(part: &Model, names: &[String], report: &mut Report) -> Chosen {
    let nodes: Vec<&Node> = part.nodes().collect();
    let all = names.is_empty();
    let mut chosen = Chosen {
        nodes: vec![all; nodes.len()],
        geosets: vec![all; part.geosets.len()],
        cameras: vec![all; part.cameras.len()],
    };
    if all {
        return chosen;
    }
    let node_names: Vec<String> = nodes.iter().map(|n| n.name.text().into_owned()).collect();
    let camera_names: Vec<String> = (part.cameras.iter())
        .map(|c| c.name.text().into_owned())
        .collect();
    let index: std::collections::HashMap<u32, usize> = (nodes.iter().enumerate())
        .map(|(i, n)| (n.object_id, i))
        .collect();
    let parent = |i: usize| {
        u32::try_from(nodes[i].parent_id)
            .ok()
            .and_then(|p| index.get(&p).copied())
    };
    for want in names {
        let (n, c) = (named(&node_names, want), named(&camera_names, want));
        if n.is_empty() && c.is_empty() {
            report
                .refused
                .push(format!("merge: the source has no node or camera {want:?}"));
        }
        n.into_iter().for_each(|i| chosen.nodes[i] = true);
        c.into_iter().for_each(|i| chosen.cameras[i] = true);
    }
    // Everything under a chosen node (a chain longer than the model is a loop: cut).
    let under = |mut i: usize, chosen: &[bool]| {
        for _ in 0..nodes.len() {
            match parent(i) {
                Some(p) if chosen[p] => return true,
                Some(p) => i = p,
                None => return false,
            }
        }
        false
    };
    let picked: Vec<bool> = (0..nodes.len())
        .map(|i| chosen.nodes[i] || under(i, &chosen.nodes))
        .collect();
    let is_picked = |id: &u32| index.get(id).is_some_and(|&i| picked[i]);
    for (g, ids) in followed(part).iter().enumerate() {
        chosen.geosets[g] = !ids.is_empty() && ids.iter().all(is_picked);
    }
    // And what is above them, for the pose.
    chosen.nodes = picked.clone();
    for i in (0..nodes.len()).filter(|&i| picked[i]) {
        let mut at = parent(i);
        for _ in 0..nodes.len() {
            let Some(p) = at else { break };
            chosen.nodes[p] = true;
            at = parent(p);
        }
    }
    chosen
}

/// Keeps the elements of `v` whose flag is set, taking as many flags as `v` has.
fn keep<T>(v: &mut Vec<T>, flags: &mut impl Iterator<Item = bool>) {
    let f: Vec<bool> = flags.by_ref().take(v.len()).collect();
    let mut i = 0;
    v.retain(|_| {
        i += 1;
        f[i - 1]
    });
}

/// Removes from `part` what was not chosen, and the records only that used.
fn prune(part: &mut Model, chosen: &Chosen) {
    let nodes = part.node_count();
    if part.bind_poses.len() >= nodes {
        let mut cams = part.bind_poses.split_off(nodes);
        cams.truncate(part.cameras.len());
        keep(&mut cams, &mut chosen.cameras.iter().copied());
        // The nodes' own stay by object id until the renumbering moves them.
        part.bind_poses.extend(cams);
    }
    keep(&mut part.cameras, &mut chosen.cameras.iter().copied());
    let mut flags = chosen.nodes.iter().copied();
    keep(&mut part.bones, &mut flags);
    keep(&mut part.lights, &mut flags);
    keep(&mut part.helpers, &mut flags);
    keep(&mut part.attachments, &mut flags);
    keep(&mut part.particle_emitters, &mut flags);
    keep(&mut part.particle_emitters2, &mut flags);
    keep(&mut part.popcorn_emitters, &mut flags);
    keep(&mut part.ribbon_emitters, &mut flags);
    keep(&mut part.event_objects, &mut flags);
    keep(&mut part.collision_shapes, &mut flags);
    let mut next = 0;
    let map: Vec<Option<i32>> = (chosen.geosets.iter())
        .map(|&k| {
            next += i32::from(k);
            k.then_some(next - 1)
        })
        .collect();
    let moved = |id: i64| {
        usize::try_from(id)
            .ok()
            .and_then(|i| map.get(i).copied().flatten())
    };
    keep(&mut part.geosets, &mut chosen.geosets.iter().copied());
    part.geoset_animations
        .retain(|a| moved(i64::from(a.geoset_id)).is_some());
    for a in &mut part.geoset_animations {
        a.geoset_id = moved(i64::from(a.geoset_id)).unwrap_or(0);
    }
    part.gliders
        .retain(|g| moved(i64::from(g.geoset_id)).is_some());
    for g in &mut part.gliders {
        g.geoset_id = moved(i64::from(g.geoset_id)).unwrap_or(0) as u32;
    }
    for b in &mut part.bones {
        b.geoset_id = moved(i64::from(b.geoset_id)).unwrap_or(-1);
        b.geoset_animation_id = -1;
    }
    crate::convert::classic::renumber_nodes(part);
    for kind in RefKind::ALL {
        let usage = Usage::of(part);
        let unused: Vec<bool> = usage.counts(kind).iter().map(|&n| n == 0).collect();
        if unused.iter().any(|&u| u) {
            // A part whose references are out of range keeps its records.
            let _ = remove(part, kind, &unused);
        }
    }
}

/// Adds the records of `from` to `to`, sharing those equal to one there; returns where
/// each went.
fn share<T: PartialEq + Clone>(to: &mut Vec<T>, from: &[T]) -> (Vec<Option<usize>>, usize) {
    let mut shared = 0;
    let map = from
        .iter()
        .map(|r| {
            Some(match to.iter().position(|t| t == r) {
                Some(i) => {
                    shared += 1;
                    i
                }
                None => {
                    to.push(r.clone());
                    to.len() - 1
                }
            })
        })
        .collect();
    (map, shared)
}

/// The source converted to `version`, or why not.
fn converted(source: &Model, version: u32, report: &mut Report) -> Option<Model> {
    if source.version == version {
        return Some(source.clone());
    }
    let classic = crate::model::Family::of_version(version) == crate::model::Family::Classic;
    let result = if classic && source.version > version {
        crate::convert::classic::to_classic(source, &Default::default())
            .map(|c| (c.model, c.losses))
    } else {
        source.to_version(version)
    };
    match result {
        Ok((m, losses)) => {
            report.changed.push(format!(
                "merge: the source converted from version {} to {version}",
                source.version
            ));
            for l in losses {
                report.changed.push(format!("merge: conversion: {l}"));
            }
            Some(m)
        }
        Err(e) => {
            report.refused.push(format!(
                "merge: the source (version {}) cannot be converted to {version}: {e}",
                source.version
            ));
            None
        }
    }
}

/// The place (in [`Model::nodes`] order) and pivot of the node named `name`, or refuses.
fn anchor(model: &Model, name: &str, report: &mut Report) -> Option<(usize, [f32; 3])> {
    let nodes: Vec<&Node> = model.nodes().collect();
    let names: Vec<String> = nodes.iter().map(|n| n.name.text().into_owned()).collect();
    let found = named(&names, name);
    match found.first() {
        Some(&i) => {
            let id = nodes[i].object_id as usize;
            Some((i, model.pivot_points.get(id).copied().unwrap_or([0.0; 3])))
        }
        None => {
            report.refused.push(format!(
                "merge: this model has no node {name:?} to attach under"
            ));
            None
        }
    }
}

/// Merges parts of `m.source` into `model` (see the module docs). When it refuses, the
/// model is as it was.
pub fn merge(model: &mut Model, m: &Merge) -> Report {
    let mut report = Report::default();
    let anchor = match &m.under {
        Some(name) => match anchor(model, name, &mut report) {
            Some(a) => Some(a),
            None => return report,
        },
        None => None,
    };
    let Some(mut part) = converted(&m.source, model.version, &mut report) else {
        return report;
    };
    let chosen = choose(&part, &m.parts, &mut report);
    if !report.refused.is_empty() {
        return report;
    }
    prune(&mut part, &chosen);
    if part.node_count() == 0 && part.geosets.is_empty() && part.cameras.is_empty() {
        report
            .refused
            .push("merge: the parts chosen hold nothing to merge".into());
        return report;
    }
    if let Some((_, at)) = anchor {
        transform(&mut part, &Transform::Translate(at));
    }
    // This model's own nodes numbered in place first (their order stays), so the part's
    // can follow.
    crate::convert::classic::renumber_nodes(model);
    let under = anchor.and_then(|(i, _)| model.nodes().nth(i).map(|n| n.object_id));
    let retimed = retime(&mut part, &model.sequences);
    let first = model.geosets.len();
    append(model, part, under.zip(m.under.as_deref()), &mut report);
    if !retimed.matched.is_empty() {
        report.changed.push(format!(
            "merge: the part plays its own {} (others hold its Stand's opening pose)",
            retimed.matched.join(", ")
        ));
    }
    if !retimed.cut.is_empty() {
        report.changed.push(format!(
            "merge: the part's {} longer than this model's: cut at the end",
            retimed.cut.join(", ")
        ));
    }
    if !retimed.overlapping.is_empty() {
        report.changed.push(format!(
            "merge: {} overlap sequences before them: the part plays as in the first",
            retimed.overlapping.join(", ")
        ));
    }
    crate::anim::extents::grow_extents(model, first);
    report
}

/// Adds `part` (pruned, converted, moved and retimed) to `model`.
fn append(model: &mut Model, mut part: Model, under: Option<(u32, &str)>, report: &mut Report) {
    let (m_under, under) = (under.map(|u| u.1), under.map(|u| u.0));
    let (gs, _) = share(&mut model.global_sequences, &part.global_sequences);
    redirect(&mut part, RefKind::GlobalSequence, &gs);
    let (ta, _) = share(&mut model.texture_animations, &part.texture_animations);
    redirect(&mut part, RefKind::TextureAnimation, &ta);
    let (tex, shared_tex) = share(&mut model.textures, &part.textures);
    redirect(&mut part, RefKind::Texture, &tex);
    let (mat, shared_mat) = share(&mut model.materials, &part.materials);
    redirect(&mut part, RefKind::Material, &mat);
    let n = model.node_count() as u32;
    let part_nodes = part.node_count();
    let g0 = model.geosets.len() as i32;
    let taken: std::collections::HashSet<String> = (model.nodes())
        .map(|n| n.name.text().to_ascii_lowercase())
        .collect();
    let mut twins = Vec::new();
    for node in part.nodes_mut() {
        node.object_id += n;
        node.parent_id = match node.parent_id {
            p if p >= 0 => p + n as i32,
            _ => under.map_or(-1, |u| u as i32),
        };
        if taken.contains(&node.name.text().to_ascii_lowercase()) {
            twins.push(node.name.text().into_owned());
        }
    }
    let first_attachment = (model.attachments.iter())
        .map(|a| a.attachment_id + 1)
        .max()
        .unwrap_or(0);
    for (i, a) in part.attachments.iter_mut().enumerate() {
        a.attachment_id = first_attachment + i as u32;
    }
    for b in &mut part.bones {
        if b.geoset_id >= 0 {
            b.geoset_id += g0;
        }
    }
    let sequences = model.sequences.len();
    for g in &mut part.geosets {
        g.matrix_indices.iter_mut().for_each(|i| *i += n);
        g.sequence_extents = vec![g.extent; sequences];
    }
    for a in &mut part.geoset_animations {
        a.geoset_id += g0;
    }
    for g in &mut part.gliders {
        g.geoset_id += g0 as u32;
    }
    model.pivot_points.resize(n as usize, [0.0; 3]);
    part.pivot_points.resize(part_nodes, [0.0; 3]);
    model.pivot_points.extend_from_slice(&part.pivot_points);
    bind_poses(model, &part, n as usize);
    report.changed.push(format!(
        "merged {} geosets, {} nodes, {} cameras{} ({} materials and {} textures shared with this model's)",
        part.geosets.len(),
        part_nodes,
        part.cameras.len(),
        m_under.map_or(String::new(), |u| format!(" under {u:?}")),
        shared_mat,
        shared_tex
    ));
    if !twins.is_empty() {
        report.changed.push(format!(
            "merge: this model has nodes of these names already (its own come first): {}",
            twins.join(", ")
        ));
    }
    if under.is_some() && !part.cameras.is_empty() {
        report.changed.push(format!(
            "merge: {} cameras placed at the node's rest position (a camera follows no node)",
            part.cameras.len()
        ));
    }
    model.bones.append(&mut part.bones);
    model.lights.append(&mut part.lights);
    model.helpers.append(&mut part.helpers);
    model.attachments.append(&mut part.attachments);
    model.particle_emitters.append(&mut part.particle_emitters);
    model
        .particle_emitters2
        .append(&mut part.particle_emitters2);
    model.popcorn_emitters.append(&mut part.popcorn_emitters);
    model.ribbon_emitters.append(&mut part.ribbon_emitters);
    model.event_objects.append(&mut part.event_objects);
    model.collision_shapes.append(&mut part.collision_shapes);
    model.geosets.append(&mut part.geosets);
    model.geoset_animations.append(&mut part.geoset_animations);
    model.cameras.append(&mut part.cameras);
    model.face_effects.append(&mut part.face_effects);
    model.gliders.append(&mut part.gliders);
    crate::convert::classic::renumber_nodes(model);
}

/// The bind poses of a model that has them (Reforged: one per node, then one per camera):
/// the part's nodes' and cameras' inserted, the part's own when it has them, else the
/// node's pivot (or the camera's position) with no turn.
fn bind_poses(model: &mut Model, part: &Model, n: usize) {
    if model.bind_poses.is_empty() {
        return;
    }
    let at = |p: [f32; 3]| {
        [
            1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, p[0], p[1], p[2],
        ]
    };
    let nodes = part.node_count();
    let own = part.bind_poses.len() >= nodes;
    let cams = model.bind_poses.split_off(n.min(model.bind_poses.len()));
    model.bind_poses.resize(n, at([0.0; 3]));
    for (i, p) in part.pivot_points.iter().enumerate().take(nodes) {
        model
            .bind_poses
            .push(if own { part.bind_poses[i] } else { at(*p) });
    }
    model.bind_poses.extend(cams);
    for (i, c) in part.cameras.iter().enumerate() {
        let b = part.bind_poses.get(nodes + i).filter(|_| own);
        model.bind_poses.push(b.copied().unwrap_or(at(c.position)));
    }
}
