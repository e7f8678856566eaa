//! Geosets: levels of detail, skin weights as matrix groups, vertices bound to nothing,
//! splitting at the classic limits, and the skinning error measured by posing.

use super::Pieces;
use crate::anim::{posed_geosets, AnimTime, Clock, Skeleton};
use crate::convert::skin::{group_of, split_by, Limits};
use crate::model::{face_type, Bone, Extent, FixedString, Geoset, Model, Node};
use crate::spec::track::{KGRT, KGSC, KGTR};
use crate::Loss;
use std::collections::{BTreeMap, HashSet};

/// What one classic geoset may hold: 255 matrix groups (a vertex names its group in one
/// byte, and mdx-m3-viewer reads 255 as "none") and 7,394 vertices (mdx-m3-viewer's
/// sanity test measured an SD geoset of 7,433 vertices rendering torn in the game and one
/// of 7,394 good; the largest known to be good).
pub(super) const CLASSIC: Limits = Limits {
    groups: 255,
    vertices: 7394,
};

/// How the loss of the weights approximated by groups starts.
pub(super) const APPROXIMATED: &str = "skin weights of";

/// The LOD value of a geoset drawn at every level (stored as -1).
pub(super) const EVERY_LOD: u32 = u32::MAX;

/// Keeps the geosets of level `lod` and those drawn at every level; drops the rest with
/// their geoset animations, renumbering what refers to geosets. Without `lod`: level 0,
/// or the most detailed level the model has when none is 0 (listed). Err when a level
/// asked for has no geoset.
pub(super) fn keep_lod(
    m: &mut Model,
    lod: Option<u32>,
    losses: &mut Vec<Loss>,
) -> Result<(), String> {
    let mut levels: Vec<u32> = m.geosets.iter().map(|g| g.lod).collect();
    levels.sort_unstable();
    levels.dedup();
    let present = |l: u32| levels.iter().any(|&x| x == l || x == EVERY_LOD);
    let lod = match lod {
        Some(l) if m.geosets.is_empty() || present(l) => l,
        Some(l) => {
            return Err(format!(
                "no geoset is drawn at level of detail {l} (the model's levels: {levels:?})"
            ))
        }
        None if m.geosets.is_empty() || present(0) => 0,
        None => {
            let l = levels[0];
            losses.push(Loss::new(
                "",
                format!("no geoset at level of detail 0: level {l}, the most detailed the model has, kept"),
            ));
            l
        }
    };
    let keep: Vec<bool> = m
        .geosets
        .iter()
        .map(|g| g.lod == lod || g.lod == EVERY_LOD)
        .collect();
    let mut new_index = vec![None; keep.len()];
    let mut n = 0usize;
    for (i, g) in m.geosets.iter().enumerate() {
        if keep[i] {
            new_index[i] = Some(n);
            n += 1;
        } else {
            losses.push(Loss::new(
                format!("Geoset[{i}]"),
                format!(
                    "level of detail {} ({:?}), {} vertices: dropped (only level {lod} and the geosets of every level are kept)",
                    g.lod,
                    g.lod_name.text(),
                    g.vertices.len()
                ),
            ));
        }
    }
    let mut i = 0;
    m.geosets.retain(|_| {
        i += 1;
        keep[i - 1]
    });
    renumber_geosets(
        m,
        &new_index
            .iter()
            .map(|x| x.map(|i| vec![i]))
            .collect::<Vec<_>>(),
    );
    for g in &mut m.geosets {
        g.lod = 0;
        g.lod_name = FixedString::default();
    }
    Ok(())
}

/// Points geoset animations and bones at the new geosets: `map[old]` lists the geosets
/// old geoset `old` became (none: dropped, with its animations; several: copies of its
/// animations, and bones name "multiple").
fn renumber_geosets(m: &mut Model, map: &[Option<Vec<usize>>]) {
    let old_anims = std::mem::take(&mut m.geoset_animations);
    let mut anim_map: Vec<Option<Vec<usize>>> = Vec::with_capacity(old_anims.len());
    for a in old_anims {
        let targets = usize::try_from(a.geoset_id)
            .ok()
            .and_then(|g| map.get(g).cloned().flatten());
        match targets {
            Some(t) => {
                let mut made = Vec::new();
                for g in t {
                    made.push(m.geoset_animations.len());
                    let mut c = a.clone();
                    c.geoset_id = g as i32;
                    m.geoset_animations.push(c);
                }
                anim_map.push(Some(made));
            }
            // A geoset animation of no geoset stays as it is (checks report it).
            None if a.geoset_id < 0 || a.geoset_id as usize >= map.len() => {
                anim_map.push(Some(vec![m.geoset_animations.len()]));
                m.geoset_animations.push(a);
            }
            None => anim_map.push(None),
        }
    }
    let one = |ids: Option<&Option<Vec<usize>>>| -> i32 {
        match ids {
            Some(Some(v)) if v.len() == 1 => v[0] as i32,
            _ => -1,
        }
    };
    for b in &mut m.bones {
        if let Ok(g) = usize::try_from(b.geoset_id) {
            if g < map.len() {
                b.geoset_id = one(map.get(g));
            }
        }
        if let Ok(a) = usize::try_from(b.geoset_animation_id) {
            if a < anim_map.len() {
                b.geoset_animation_id = one(anim_map.get(a));
            }
        }
    }
}

/// Whether node `i` of the skeleton and all its ancestors are never animated.
fn still(s: &Skeleton, i: usize) -> bool {
    let mut at = Some(i);
    let mut steps = 0;
    while let Some(k) = at {
        let n = s.nodes[k].node;
        if n.flags & crate::model::node_flags::BILLBOARD != 0
            || [KGTR, KGRT, KGSC]
                .iter()
                .any(|&t| n.tracks.iter().any(|a| a.tag == t))
        {
            return false;
        }
        at = s.nodes[k].parent;
        steps += 1;
        if steps > s.nodes.len() {
            return false;
        }
    }
    true
}

/// Per geoset, per vertex, the node object ids it follows and their weights (heaviest
/// first, summing to 1), as the game poses it: skin weights where the geoset has them,
/// else its matrix group. Empty: bound to nothing.
fn weights(m: &Model, live: &HashSet<u32>) -> Vec<Vec<Vec<(usize, f32)>>> {
    m.geosets
        .iter()
        .map(|g| {
            let n = g.vertices.len();
            match g.skin.as_deref().filter(|s| s.len() == n * 8) {
                Some(s) => (0..n)
                    .map(|v| {
                        let b = &s[v * 8..v * 8 + 8];
                        let mut acc: BTreeMap<usize, f32> = BTreeMap::new();
                        for k in 0..4 {
                            let Some(&id) = g.matrix_indices.get(b[k] as usize) else {
                                continue;
                            };
                            if b[4 + k] > 0 && live.contains(&id) {
                                *acc.entry(id as usize).or_default() += f32::from(b[4 + k]);
                            }
                        }
                        normalised(acc)
                    })
                    .collect(),
                None => {
                    let groups = g.matrix_groups();
                    (0..n)
                        .map(|v| {
                            let mut acc: BTreeMap<usize, f32> = BTreeMap::new();
                            let ids = g
                                .vertex_groups
                                .get(v)
                                .and_then(|&k| groups.get(k as usize))
                                .copied()
                                .unwrap_or_default();
                            for &id in ids.iter().filter(|id| live.contains(id)) {
                                *acc.entry(id as usize).or_default() += 1.0;
                            }
                            normalised(acc)
                        })
                        .collect()
                }
            }
        })
        .collect()
}

fn normalised(acc: BTreeMap<usize, f32>) -> Vec<(usize, f32)> {
    let sum: f32 = acc.values().sum();
    let mut v: Vec<(usize, f32)> = acc.into_iter().map(|(k, w)| (k, w / sum)).collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

/// A bone that never moves for vertices bound to nothing (which the 900+ model leaves
/// where they are stored): an existing bone that no track moves, with no moving
/// ancestor; else a new bone `Classic_Root` after the others, every later object id one
/// higher.
fn still_bone(m: &mut Model, losses: &mut Vec<Loss>) -> u32 {
    {
        let s = Skeleton::new(m);
        let found = s
            .nodes
            .iter()
            .enumerate()
            .find(|(i, n)| n.kind == crate::anim::NodeKind::Bone && still(&s, *i));
        if let Some((_, n)) = found {
            return n.node.object_id;
        }
    }
    // Object ids come from the file: one past the largest bone's, saturating (a broken
    // id of 0xFFFFFFFF stays what it is rather than wrapping to 0).
    let id = m
        .bones
        .iter()
        .map(|b| b.node.object_id.saturating_add(1))
        .max()
        .unwrap_or(0);
    let shift = |x: &mut u32| {
        if *x >= id {
            *x = x.saturating_add(1)
        }
    };
    let shift_parent = |p: &mut i32| {
        if i64::from(*p) >= i64::from(id) {
            *p = p.saturating_add(1)
        }
    };
    for n in nodes_mut(m) {
        shift(&mut n.object_id);
        shift_parent(&mut n.parent_id);
    }
    for g in &mut m.geosets {
        g.matrix_indices.iter_mut().for_each(shift);
    }
    let at = (id as usize).min(m.pivot_points.len());
    m.pivot_points.insert(at, [0.0; 3]);
    let mut name = FixedString::default();
    name.set("Classic_Root");
    m.bones.push(Bone {
        node: Node {
            name,
            object_id: id,
            parent_id: -1,
            flags: 0x100,
            ..Node::default()
        },
        geoset_id: -1,
        geoset_animation_id: -1,
    });
    losses.push(Loss::new(
        format!("Bone[{}]", m.bones.len() - 1),
        "added: a still bone \"Classic_Root\" for the vertices the model bound to nothing",
    ));
    id
}

/// Every node of the model, mutably.
pub(super) fn nodes_mut(m: &mut Model) -> Vec<&mut Node> {
    m.nodes_mut()
}

/// A bone that never moves for the vertices bound to nothing, if there are any (see
/// [`still_bone`]; the model may gain it, object ids moving).
pub(super) fn bone_for_unbound(m: &mut Model, losses: &mut Vec<Loss>) -> Option<usize> {
    let live: HashSet<u32> = m.nodes().map(|n| n.object_id).collect();
    let unbound: usize = weights(m, &live)
        .iter()
        .flatten()
        .filter(|v| v.is_empty())
        .count();
    if unbound == 0 {
        return None;
    }
    let root = still_bone(m, losses);
    losses.push(Loss::new(
        "",
        format!(
            "{unbound} vertices bound to no node now follow the still bone of object id {root}"
        ),
    ));
    Some(root as usize)
}

/// Replaces every geoset's skinning by version 800 matrix groups (skin weights by the
/// nearest group, [`group_of`]; vertices bound to nothing by `root`, from
/// [`bone_for_unbound`]), splitting a geoset whose groups or vertices pass the classic
/// limits. Returns, per new geoset, the old geoset and vertices it holds.
pub(super) fn regroup(m: &mut Model, root: Option<usize>, losses: &mut Vec<Loss>) -> Pieces {
    let live: HashSet<u32> = m.nodes().map(|n| n.object_id).collect();
    let mut w = weights(m, &live);
    for v in w.iter_mut().flatten().filter(|v| v.is_empty()) {
        v.push((root.unwrap_or(0), 1.0));
    }
    let old = std::mem::take(&mut m.geosets);
    let mut pieces = Vec::new();
    let mut map: Vec<Option<Vec<usize>>> = Vec::new();
    let mut inexact = 0usize;
    for (gi, (g, wv)) in old.into_iter().zip(w).enumerate() {
        if classic_already(&g, &live) {
            map.push(Some(vec![pieces.len()]));
            pieces.push((gi, (0..g.vertices.len() as u32).collect()));
            m.geosets.push(g);
            continue;
        }
        let groups: Vec<Vec<usize>> = wv
            .iter()
            .map(|pairs| {
                let (grp, exact) = group_of(pairs);
                inexact += usize::from(!exact);
                grp
            })
            .collect();
        let (tris, skipped) = g.triangles();
        if skipped > 0 {
            losses.push(Loss::new(
                format!("Geoset[{gi}]"),
                format!("{skipped} face groups of points or lines"),
            ));
        }
        let nv = g.vertices.len();
        let tris32: Vec<[u32; 3]> = tris.iter().map(|t| t.map(u32::from)).collect();
        let parts = split_by(|v| vec![groups[v as usize].clone()], &tris32, nv, CLASSIC);
        if parts.len() > 1 {
            losses.push(Loss::new(
                format!("Geoset[{gi}]"),
                format!(
                    "split into {} geosets (a classic geoset holds at most {} matrix groups and {} vertices)",
                    parts.len(),
                    CLASSIC.groups,
                    CLASSIC.vertices
                ),
            ));
        }
        let whole = parts.len() == 1;
        let mut made = Vec::new();
        for (verts, ptris) in parts {
            made.push(pieces.len());
            let built = piece(&g, &groups, &verts, (!whole).then_some(&ptris[..]));
            m.geosets.push(built);
            pieces.push((gi, verts));
        }
        map.push(Some(made));
    }
    if inexact > 0 {
        losses.push(Loss::new(
            "",
            format!("{APPROXIMATED} {inexact} vertices approximated by matrix groups of at most 4 entries"),
        ));
    }
    renumber_geosets(m, &map);
    pieces
}

/// Whether geoset `g` is skinned as the classic client wants already (no skin weights;
/// every vertex in a group of nodes that exist; within [`CLASSIC`]), so it stays as it is.
fn classic_already(g: &Geoset, live: &HashSet<u32>) -> bool {
    let groups = g.matrix_groups();
    g.skin.is_none()
        && groups.len() <= CLASSIC.groups
        && g.vertices.len() <= CLASSIC.vertices
        && g.vertex_groups.len() == g.vertices.len()
        && g.vertex_groups.iter().all(|&k| {
            groups
                .get(k as usize)
                .is_some_and(|ids| !ids.is_empty() && ids.iter().all(|id| live.contains(id)))
        })
}

/// The geoset holding vertices `verts` of `g` (all, in order, when `tris` is `None`:
/// the faces then stay as they are), skinned by `groups`.
fn piece(g: &Geoset, groups: &[Vec<usize>], verts: &[u32], tris: Option<&[[u32; 3]]>) -> Geoset {
    let pick = |v: &u32| *v as usize;
    let mut out = Geoset {
        material_id: g.material_id,
        selection_group: g.selection_group,
        selection_flags: g.selection_flags,
        extent: g.extent,
        sequence_extents: g.sequence_extents.clone(),
        tail: g.tail.clone(),
        ..Geoset::default()
    };
    match tris {
        None => {
            out.vertices = g.vertices.clone();
            out.normals = g.normals.clone();
            out.uv_sets = g.uv_sets.clone();
            out.tangents = g.tangents.clone();
            out.face_types = g.face_types.clone();
            out.face_group_sizes = g.face_group_sizes.clone();
            out.faces = g.faces.clone();
        }
        Some(tris) => {
            let local: std::collections::HashMap<u32, u16> = verts
                .iter()
                .enumerate()
                .map(|(i, &v)| (v, i as u16))
                .collect();
            out.vertices = verts.iter().map(|v| g.vertices[pick(v)]).collect();
            out.normals = verts
                .iter()
                .filter_map(|v| g.normals.get(pick(v)).copied())
                .collect();
            out.uv_sets = g
                .uv_sets
                .iter()
                .map(|s| {
                    verts
                        .iter()
                        .filter_map(|v| s.get(pick(v)).copied())
                        .collect()
                })
                .collect();
            out.tangents = g.tangents.as_ref().map(|t| {
                verts
                    .iter()
                    .filter_map(|v| t.get(pick(v)).copied())
                    .collect()
            });
            out.faces = tris.iter().flatten().map(|v| local[v]).collect();
            out.face_types = vec![face_type::TRIANGLES];
            out.face_group_sizes = vec![out.faces.len() as u32];
            out.extent = Extent::around(out.vertices.iter().copied());
        }
    }
    let mut index: BTreeMap<&Vec<usize>, u8> = BTreeMap::new();
    let mut order: Vec<&Vec<usize>> = Vec::new();
    for v in verts {
        let k = &groups[pick(v)];
        if !index.contains_key(k) {
            index.insert(k, order.len() as u8);
            order.push(k);
        }
    }
    out.matrix_group_sizes = order.iter().map(|k| k.len() as u32).collect();
    out.matrix_indices = order
        .iter()
        .flat_map(|k| k.iter())
        .map(|&n| n as u32)
        .collect();
    out.vertex_groups = verts.iter().map(|v| index[&groups[pick(v)]]).collect();
    out
}

/// The largest distance between a vertex of `src` (the 900+ model, skin weights) and the
/// same vertex of `dst` (its geosets the `pieces` of `src`'s), both posed at the start,
/// middle and end of every sequence (at rest without sequences).
pub(super) fn skinning_error(src: &Model, dst: &Model, pieces: &Pieces) -> f32 {
    let (ss, ds) = (Skeleton::new(src), Skeleton::new(dst));
    let mut worst = 0.0f32;
    let mut measure = |cs: &Clock, cd: &Clock| {
        let (ps, pd) = (ss.pose_at(cs, None), ds.pose_at(cd, None));
        let (gs, gd) = (
            posed_geosets(src, &ss, &ps, cs),
            posed_geosets(dst, &ds, &pd, cd),
        );
        for (k, (from, verts)) in pieces.iter().enumerate() {
            for (l, &v) in verts.iter().enumerate() {
                let a = gs[*from].positions[v as usize];
                let b = gd[k].positions[l];
                let d =
                    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
                if d.is_finite() {
                    worst = worst.max(d);
                }
            }
        }
    };
    if src.sequences.is_empty() {
        let at = AnimTime::new(None, 0.0);
        measure(&Clock::new(src, at), &Clock::new(dst, at));
    }
    for (si, seq) in src.sequences.iter().enumerate() {
        let len = f64::from(seq.interval[1].saturating_sub(seq.interval[0]));
        for f in [0.0, 0.5, 1.0] {
            let t = len * f;
            measure(&Clock::unwrapped(src, si, t), &Clock::unwrapped(dst, si, t));
        }
    }
    worst
}
