//! References between records (materials, textures, geosets, parents, ...) and skinning
//! (which node each vertex follows).

use super::rules::*;
use super::{At, Findings};
use crate::anim::{NodeKind, Skeleton};
use crate::model::{Geoset, Model};
use std::collections::HashMap;

/// The model's list that holds nodes of `kind`.
pub(crate) fn list_of(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Bone => "bones",
        NodeKind::Light => "lights",
        NodeKind::Helper => "helpers",
        NodeKind::Attachment => "attachments",
        NodeKind::ParticleEmitter => "particle_emitters",
        NodeKind::ParticleEmitter2 => "particle_emitters2",
        NodeKind::PopcornEmitter => "popcorn_emitters",
        NodeKind::RibbonEmitter => "ribbon_emitters",
        NodeKind::EventObject => "event_objects",
        NodeKind::CollisionShape => "collision_shapes",
    }
}

/// Where node `i` of the skeleton is.
pub(crate) fn node_at(s: &Skeleton, i: usize) -> At {
    let n = &s.nodes[i];
    At::record(list_of(n.kind), n.index, Some(&n.node.name.text()))
}

fn in_range(id: i64, len: usize) -> bool {
    id >= 0 && (id as u64) < len as u64
}

/// Ids that must name a record: materials, textures, texture animations, geosets, geoset
/// animations, parents (global sequence ids are checked with the tracks).
pub(crate) fn references(m: &Model, f: &mut Findings) {
    material_refs(m, f);
    texture_refs(m, f);
    geoset_refs(m, f);
    parents(m, f);
}

/// Geosets' and ribbon emitters' material ids.
fn material_refs(m: &Model, f: &mut Findings) {
    for (i, g) in m.geosets.iter().enumerate() {
        if !in_range(g.material_id.into(), m.materials.len()) {
            let at = At::record("geosets", i, None).sub("material_id");
            let msg = format!(
                "material {} does not exist (the model has {}); the geoset cannot be drawn: point it at a material",
                g.material_id,
                m.materials.len()
            );
            f.add(&BAD_MATERIAL, &at, msg);
        }
    }
    for (i, r) in m.ribbon_emitters.iter().enumerate() {
        if !in_range(r.material_id.into(), m.materials.len()) {
            let at = At::record("ribbon_emitters", i, Some(&r.node.name.text())).sub("material_id");
            let msg = format!(
                "material {} does not exist (the model has {}); the game can crash drawing the ribbon",
                r.material_id,
                m.materials.len()
            );
            f.add(&BAD_MATERIAL, &at, msg);
        }
    }
}

/// Texture ids (of layers, texture slots and their tracks, particle emitters 2) and the
/// layers' texture animation ids.
fn texture_refs(m: &Model, f: &mut Findings) {
    let nt = m.textures.len();
    let bad_texture = |f: &mut Findings, at: &At, id: i64| {
        let msg =
            format!("texture {id} does not exist (the model has {nt}): point it at a texture");
        f.add(&BAD_TEXTURE, at, msg);
    };
    for (i, mat) in m.materials.iter().enumerate() {
        for (j, l) in mat.layers.iter().enumerate() {
            let at = At::record("materials", i, None).sub(format!("layers[{j}]"));
            // 1100+ layers name their textures in slots; older ones in texture_id.
            if l.texture_slots.is_empty() && !in_range(l.texture_id.into(), nt) {
                bad_texture(f, &at.sub("texture_id"), l.texture_id.into());
            }
            for (k, s) in l.texture_slots.iter().enumerate() {
                let at = at.sub(format!("texture_slots[{k}]"));
                if !in_range(s.texture_id.into(), nt) {
                    bad_texture(f, &at.sub("texture_id"), s.texture_id.into());
                }
                if let Some(t) = &s.texture_id_track {
                    for (n, k) in t.keys.iter().enumerate() {
                        if !in_range(k.value.into(), nt) {
                            bad_texture(
                                f,
                                &at.sub(format!("texture_id_track.keys[{n}]")),
                                k.value.into(),
                            );
                        }
                    }
                }
            }
            if let Some(t) = l.tracks.integer(crate::spec::track::KMTF) {
                for (n, k) in t.keys.iter().enumerate() {
                    if !in_range(k.value.into(), nt) {
                        bad_texture(f, &at.sub(format!("tracks.KMTF.keys[{n}]")), k.value.into());
                    }
                }
            }
            let ta = l.texture_animation_id;
            if ta != -1 && !in_range(ta.into(), m.texture_animations.len()) {
                let msg = format!(
                    "texture animation {ta} does not exist (the model has {}): use -1 for none",
                    m.texture_animations.len()
                );
                f.add(&BAD_TEXTURE_ANIMATION, &at.sub("texture_animation_id"), msg);
            }
        }
    }
    for (i, e) in m.particle_emitters2.iter().enumerate() {
        if !in_range(e.texture_id.into(), nt) {
            let at = At::record("particle_emitters2", i, Some(&e.node.name.text()));
            bad_texture(f, &at.sub("texture_id"), e.texture_id.into());
        }
    }
}

/// Geoset ids (of geoset animations, gliders and bones) and the bones' geoset animation
/// ids; several geoset animations on one geoset.
fn geoset_refs(m: &Model, f: &mut Findings) {
    let ng = m.geosets.len();
    let bad_geoset = |f: &mut Findings, at: &At, id: i64| {
        let msg = format!("geoset {id} does not exist (the model has {ng})");
        f.add(&BAD_GEOSET, at, msg);
    };
    for (i, a) in m.geoset_animations.iter().enumerate() {
        if !in_range(a.geoset_id.into(), ng) {
            let at = At::record("geoset_animations", i, None).sub("geoset_id");
            bad_geoset(f, &at, a.geoset_id.into());
        }
    }
    for (i, g) in m.gliders.iter().enumerate() {
        if !in_range(g.geoset_id.into(), ng) {
            bad_geoset(
                f,
                &At::record("gliders", i, None).sub("geoset_id"),
                g.geoset_id.into(),
            );
        }
    }
    for (i, b) in m.bones.iter().enumerate() {
        let at = At::record("bones", i, Some(&b.node.name.text()));
        if b.geoset_id != -1 && !in_range(b.geoset_id.into(), ng) {
            bad_geoset(f, &at.sub("geoset_id"), b.geoset_id.into());
        }
        let ga = b.geoset_animation_id;
        if ga != -1 {
            match usize::try_from(ga)
                .ok()
                .and_then(|g| m.geoset_animations.get(g))
            {
                None => {
                    let msg = format!(
                        "geoset animation {ga} does not exist (the model has {}): use -1 for none",
                        m.geoset_animations.len()
                    );
                    f.add(&BAD_GEOSET_ANIMATION, &at.sub("geoset_animation_id"), msg);
                }
                Some(a) => {
                    let animated = a.tracks.float(crate::spec::track::KGAO).is_some();
                    if b.geoset_id != -1 && a.alpha < 0.1 && !animated {
                        let msg = format!(
                            "its geoset animation {ga} holds alpha {} without an alpha track: geoset {} may never show; raise the alpha or animate it",
                            a.alpha, b.geoset_id
                        );
                        f.add(&INVISIBLE_GEOSET, &at, msg);
                    }
                }
            }
        }
    }
    // Several geoset animations on one geoset: only one of them applies.
    let mut targets: HashMap<i32, Vec<usize>> = HashMap::new();
    for (i, a) in m.geoset_animations.iter().enumerate() {
        targets.entry(a.geoset_id).or_default().push(i);
    }
    let mut twice: Vec<_> = targets.into_iter().filter(|(_, v)| v.len() > 1).collect();
    twice.sort();
    for (g, anims) in twice {
        if let Ok(gi) = usize::try_from(g) {
            if gi < ng {
                let msg = format!(
                    "geoset animations {anims:?} all animate this geoset; the game uses one: merge them"
                );
                f.add(
                    &DUPLICATE_GEOSET_ANIMATION,
                    &At::record("geosets", gi, None),
                    msg,
                );
            }
        }
    }
}

fn parents(m: &Model, f: &mut Findings) {
    let s = Skeleton::new(m);
    for (i, n) in s.nodes.iter().enumerate() {
        let at = node_at(&s, i);
        if n.node.object_id as usize != i {
            let msg = format!(
                "object id {} but it is node {i} of the model (bones, lights, helpers, attachments, emitters, events, collision shapes in turn); tools disagree on which of the two a parent or matrix group then names (mdx-m3-viewer's sanity test takes the place, this crate the id): renumber it",
                n.node.object_id
            );
            f.add(&OBJECT_ID, &at.sub("object_id"), msg);
        }
        let p = n.node.parent_id;
        if p == -1 {
            continue;
        }
        if p >= 0 && p as u32 == n.node.object_id {
            f.add(
                &BAD_PARENT,
                &at.sub("parent_id"),
                "the node is its own parent: use -1 for none",
            );
        } else if u32::try_from(p)
            .ok()
            .and_then(|p| s.by_object_id(p))
            .is_none()
        {
            let msg = format!("parent {p} is no node's object id: use -1 for none");
            f.add(&BAD_PARENT, &at.sub("parent_id"), msg);
        }
    }
    for &i in &s.cycles {
        let p = s.nodes[i].node.parent_id;
        if p >= 0 && p as u32 == s.nodes[i].node.object_id {
            continue; // said above
        }
        let msg = format!("its parent chain (parent {p}) leads back to itself: break the loop");
        f.add(&PARENT_CYCLE, &node_at(&s, i).sub("parent_id"), msg);
    }
}

/// What node `id` is, for a vertex attached to it.
enum Target {
    Bone(usize),
    NotBone(usize),
    Missing,
}

fn target(s: &Skeleton, id: u32) -> Target {
    match s.by_object_id(id) {
        Some(i) if s.nodes[i].kind == NodeKind::Bone => Target::Bone(s.nodes[i].index),
        Some(i) => Target::NotBone(i),
        None => Target::Missing,
    }
}

/// Up to this many findings of one rule per geoset are listed one by one; the rest are
/// counted in one more finding.
const PER_GEOSET: usize = 8;

/// Findings of one rule in one geoset, with the excess summed up.
struct Capped<'a> {
    rule: &'static Rule,
    at: &'a At,
    n: usize,
}

impl<'a> Capped<'a> {
    fn new(rule: &'static Rule, at: &'a At) -> Self {
        Capped { rule, at, n: 0 }
    }
    fn add(&mut self, f: &mut Findings, sub: impl FnOnce() -> (String, String)) {
        self.n += 1;
        if self.n <= PER_GEOSET {
            let (path, msg) = sub();
            f.add(self.rule, &self.at.sub(path), msg);
        }
    }
    fn finish(self, f: &mut Findings, what: &str) {
        if self.n > PER_GEOSET {
            let msg = format!(
                "and {} more {what} like the ones above",
                self.n - PER_GEOSET
            );
            f.add(self.rule, self.at, msg);
        }
    }
}

/// Which node each vertex follows: matrix groups (classic) or skin weights (Reforged).
pub(crate) fn skinning(m: &Model, f: &mut Findings) {
    let s = Skeleton::new(m);
    let mut bone_uses = vec![0usize; m.bones.len()];
    for (gi, g) in m.geosets.iter().enumerate() {
        let at = At::record("geosets", gi, None);
        let n = g.vertices.len();
        let skin = g.skin.as_deref().filter(|v| !v.is_empty());
        if g.matrix_group_sizes.len() > 255 {
            let msg = format!(
                "{} matrix groups; a vertex group is one byte and 255 means none: split the geoset",
                g.matrix_group_sizes.len()
            );
            f.add(&TOO_MANY_GROUPS, &at.sub("matrix_group_sizes"), msg);
        }
        if let Some(skin) = skin {
            if m.version > 800 && !g.vertex_groups.is_empty() && g.vertex_groups.len() == n {
                // m3v's rule; every Reforged exporter also writes vertex groups, so only a
                // geoset whose groups say something other than all-zero is flagged.
                if g.vertex_groups.iter().any(|&v| v != 0) && g.matrix_group_sizes.len() > 1 {
                    f.add(
                        &SKIN_AND_GROUPS,
                        &at,
                        "skin weights and several matrix groups: the game uses the weights; drop the groups",
                    );
                }
            }
            if skin.len() != n * 8 {
                continue; // geoset-count-mismatch says it
            }
            let mut unattached = Capped::new(&VERTEX_UNATTACHED, &at);
            let mut weights = Capped::new(&SKIN_WEIGHTS, &at);
            let mut missing = Capped::new(&VERTEX_BAD_NODE, &at);
            let mut not_bone = Capped::new(&VERTEX_NOT_BONE, &at);
            for v in 0..n {
                let e = &skin[v * 8..v * 8 + 8];
                let sum: u32 = e[4..].iter().map(|&w| u32::from(w)).sum();
                if sum == 0 {
                    unattached.add(f, || {
                        (format!("skin[{v}]"), "all four weights are 0: the vertex stays at the origin; weight it to a bone".into())
                    });
                    continue;
                } else if sum != 255 {
                    weights.add(f, || {
                        (
                            format!("skin[{v}]"),
                            format!(
                                "weights {:?} add up to {sum}, not 255: normalise them",
                                &e[4..]
                            ),
                        )
                    });
                }
                for k in 0..4 {
                    if e[4 + k] == 0 {
                        continue;
                    }
                    // Skin entries index the geoset's matrix indices (one per bone).
                    let Some(&id) = g.matrix_indices.get(e[k] as usize) else {
                        missing.add(f, || {
                            (
                                format!("skin[{v}]"),
                                format!(
                                    "entry {} names matrix index {} of {}: no such bone",
                                    k,
                                    e[k],
                                    g.matrix_indices.len()
                                ),
                            )
                        });
                        continue;
                    };
                    match target(&s, id) {
                        Target::Bone(b) => bone_uses[b] += 1,
                        Target::NotBone(i) => not_bone.add(f, || {
                            let name = s.nodes[i].node.name.text().into_owned();
                            (format!("skin[{v}]"), format!("weighted to node {id} \"{name}\", a {}: only bones move vertices", s.nodes[i].kind.name()))
                        }),
                        Target::Missing => missing.add(f, || {
                            (format!("skin[{v}]"), format!("weighted to node {id}, which does not exist"))
                        }),
                    }
                }
            }
            unattached.finish(f, "vertices");
            weights.finish(f, "vertices");
            missing.finish(f, "vertices");
            not_bone.finish(f, "vertices");
            continue;
        }
        if m.bones.is_empty() || n == 0 {
            // A model without bones is valid; its vertices stay where they are.
            continue;
        }
        if g.matrix_group_sizes.is_empty() {
            f.add(
                &NO_MATRIX_GROUPS,
                &at.sub("matrix_group_sizes"),
                "no matrix groups and no skin weights: the geoset follows no bone; attach its vertices",
            );
            continue;
        }
        group_skinning(g, &at, &s, &mut bone_uses, f);
    }
    for (i, b) in m.bones.iter().enumerate() {
        if bone_uses[i] == 0 {
            f.add(
                &BONE_NO_VERTICES,
                &At::record("bones", i, Some(&b.node.name.text())),
                "no vertex is attached to this bone: attach some, or make it a helper",
            );
        }
    }
}

fn group_skinning(g: &Geoset, at: &At, s: &Skeleton, bone_uses: &mut [usize], f: &mut Findings) {
    let groups = g.matrix_groups();
    // What each group's nodes are, once per group.
    let mut group_ok = vec![None; groups.len()];
    let mut missing = Capped::new(&VERTEX_BAD_NODE, at);
    let mut not_bone = Capped::new(&VERTEX_NOT_BONE, at);
    let mut empty = Capped::new(&VERTEX_UNATTACHED, at);
    let mut group_missing = Capped::new(&VERTEX_GROUP_MISSING, at);
    let mut used = vec![0usize; groups.len()];
    for (v, &grp) in g.vertex_groups.iter().enumerate() {
        match groups.get(grp as usize) {
            Some(_) => used[grp as usize] += 1,
            None if grp == 255 => empty.add(f, || {
                (format!("vertex_groups[{v}]"), "group 255 (none): the vertex is attached to nothing and stays put; attach it to a bone".into())
            }),
            None => group_missing.add(f, || {
                (format!("vertex_groups[{v}]"), format!("group {grp} does not exist (the geoset has {}): attach the vertex to an existing group", groups.len()))
            }),
        }
    }
    for (gi, ids) in groups.iter().enumerate() {
        if used[gi] == 0 {
            continue;
        }
        let mut ok = true;
        if ids.is_empty() {
            ok = false;
            empty.add(f, || {
                (
                    format!("matrix_groups[{gi}]"),
                    format!(
                        "the group lists no node, and {} vertices use it: add a bone to it",
                        used[gi]
                    ),
                )
            });
        }
        for &id in ids.iter() {
            match target(s, id) {
                Target::Bone(b) => bone_uses[b] += used[gi],
                Target::NotBone(i) => {
                    ok = false;
                    not_bone.add(f, || {
                        let name = s.nodes[i].node.name.text().into_owned();
                        (format!("matrix_groups[{gi}]"), format!("lists node {id} \"{name}\", a {}, for {} vertices: only bones move vertices", s.nodes[i].kind.name(), used[gi]))
                    });
                }
                Target::Missing => {
                    ok = false;
                    missing.add(f, || {
                        (
                            format!("matrix_groups[{gi}]"),
                            format!(
                                "lists node {id}, which does not exist, for {} vertices",
                                used[gi]
                            ),
                        )
                    });
                }
            }
        }
        group_ok[gi] = Some(ok);
    }
    missing.finish(f, "groups");
    not_bone.finish(f, "groups");
    empty.finish(f, "vertices");
    group_missing.finish(f, "vertices");
}
