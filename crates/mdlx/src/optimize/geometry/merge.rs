//! Geosets drawn the same way joined into one.
//!
//! Two geosets are joined when nothing tells their triangles apart but the geoset they are
//! in: the same material, selection group and flags, level of detail and its name, the
//! same vertex layout (number of UV sets, normals, matrix groups or skin, tangents, skin
//! width), the same number of sequence extents, and neither is named by a geoset
//! animation or a glider (then both show whenever the model shows) nor keeps unknown
//! bytes. A material that is not opaque (a layer blends, or draws without the depth test
//! or without writing depth) makes the draw order visible: such geosets are joined only
//! when they are next to each other. The joined geoset stays below the limits the checker
//! holds geosets to (vertices an SD geoset draws untorn, triangles per geoset), so its
//! face indices fit in 16 bits, and its matrix groups in a byte.
//!
//! The later geoset goes into the earlier one: its vertices and triangles follow, its
//! matrix groups are shared with the earlier one's where equal; the extents become the
//! union of both. Geoset indices after it move down by one (geoset animations, gliders,
//! bones), and a bone naming it names the joined geoset.

use super::super::VertexMap;
use super::clean::editable;
use crate::model::{face_type, filter_mode, layer_flags, Extent, Geoset, LayoutEntry, Model};
use crate::spec::chunk;

/// The vertex count from which the checker reports an SD geoset (it renders torn).
const MAX_VERTICES: usize = 7433;

/// The triangle count from which the checker reports a geoset.
const MAX_TRIANGLES: usize = 20_000;

/// Joins the geosets that may be joined; returns how many went into another.
pub(super) fn geosets(model: &mut Model, map: &mut VertexMap) -> usize {
    let overflow = model.layout.chunks.iter().any(|e| {
        matches!(e, LayoutEntry::Known { tag, overflow_tracks, .. } if *tag == chunk::GEOS && *overflow_tracks > 0)
    });
    if overflow || map.0.len() != model.geosets.len() {
        return 0;
    }
    let mut merged = 0;
    let mut i = 0;
    while i < model.geosets.len() {
        if !free(model, map, i) {
            i += 1;
            continue;
        }
        let any_order = order_free(model, model.geosets[i].material_id);
        let mut j = i + 1;
        while j < model.geosets.len() {
            if free(model, map, j) {
                if let Some(g) = join(&model.geosets[i], &model.geosets[j]) {
                    model.geosets[i] = g;
                    let moved = map.0.remove(j);
                    map.0[i].extend(moved);
                    drop_geoset(model, i, j);
                    merged += 1;
                    // `j` now names the geoset after the one that went.
                    continue;
                }
            }
            if !any_order {
                break;
            }
            j += 1;
        }
        i += 1;
    }
    merged
}

/// Whether geoset `i` may go into another or take one in: the pass may rewrite it, its
/// map is whole, no geoset animation or glider names it, and it keeps no unknown bytes.
fn free(model: &Model, map: &VertexMap, i: usize) -> bool {
    let g = &model.geosets[i];
    editable(g)
        && map.0[i].len() == g.vertices.len()
        && g.tail.is_empty()
        && !(model.geoset_animations.iter()).any(|a| usize::try_from(a.geoset_id) == Ok(i))
        && !model.gliders.iter().any(|gl| gl.geoset_id as usize == i)
}

/// Whether geosets of `material` look the same drawn in any order: the material exists
/// and every layer is opaque or alpha-tested, with the depth test on and depth written.
fn order_free(model: &Model, material: u32) -> bool {
    let depth = layer_flags::NO_DEPTH_TEST | layer_flags::NO_DEPTH_SET;
    model.materials.get(material as usize).is_some_and(|m| {
        m.layers.iter().all(|l| {
            matches!(l.filter_mode, filter_mode::NONE | filter_mode::TRANSPARENT)
                && l.flags & depth == 0
        })
    })
}

/// Whether `a` and `b` draw alike and share their vertex layout.
fn alike(a: &Geoset, b: &Geoset) -> bool {
    a.material_id == b.material_id
        && a.selection_group == b.selection_group
        && a.selection_flags == b.selection_flags
        && a.lod == b.lod
        && a.lod_name == b.lod_name
        && a.uv_sets.len() == b.uv_sets.len()
        && a.normals.is_empty() == b.normals.is_empty()
        && a.vertex_groups.is_empty() == b.vertex_groups.is_empty()
        && a.tangents.is_some() == b.tangents.is_some()
        && a.skin.is_some() == b.skin.is_some()
        && a.skin_wide == b.skin_wide
        && a.sequence_extents.len() == b.sequence_extents.len()
}

/// `a` with `b` joined after it, or `None` when they may not be joined.
fn join(a: &Geoset, b: &Geoset) -> Option<Geoset> {
    if !alike(a, b)
        || !sound(a)
        || !sound(b)
        || a.vertices.len() + b.vertices.len() >= MAX_VERTICES
        || (a.faces.len() + b.faces.len()) / 3 >= MAX_TRIANGLES
    {
        return None;
    }
    let (sizes, indices, b_groups) = shared_groups(a, b)?;
    let offset = a.vertices.len() as u16;
    let mut g = a.clone();
    g.vertices.extend(&b.vertices);
    g.normals.extend(&b.normals);
    g.faces.extend(b.faces.iter().map(|&v| v + offset));
    g.face_types = vec![face_type::TRIANGLES];
    g.face_group_sizes = vec![g.faces.len() as u32];
    g.vertex_groups
        .extend(b.vertex_groups.iter().map(|&v| b_groups[usize::from(v)]));
    g.matrix_group_sizes = sizes;
    g.matrix_indices = indices;
    for (uv, more) in g.uv_sets.iter_mut().zip(&b.uv_sets) {
        uv.extend(more);
    }
    if let (Some(t), Some(more)) = (&mut g.tangents, &b.tangents) {
        t.extend(more);
    }
    if let (Some(s), Some(more)) = (&mut g.skin, &b.skin) {
        s.extend(more);
    }
    g.extent = union(&a.extent, &b.extent);
    for (e, more) in g.sequence_extents.iter_mut().zip(&b.sequence_extents) {
        *e = union(e, more);
    }
    Some(g)
}

/// The matrix groups of `a` and `b` together: sizes, indices, and for each group of `b`
/// its index in the joined list (an equal group of `a`, or a new one after `a`'s). A
/// skinned geoset's weights name the matrix list directly, and a geoset without vertex
/// groups binds nothing through them: both are joined only with equal matrix lists.
/// `None` when the groups do not fit in a byte or do not match their list.
fn shared_groups(a: &Geoset, b: &Geoset) -> Option<(Vec<u32>, Vec<u32>, Vec<u8>)> {
    let same = a.matrix_group_sizes == b.matrix_group_sizes && a.matrix_indices == b.matrix_indices;
    if a.skin.is_some() || a.vertex_groups.is_empty() {
        // Vertex groups kept as they are (a skinned geoset's may name no group).
        let identity = (0..=u8::MAX).collect();
        return same.then(|| {
            (
                a.matrix_group_sizes.clone(),
                a.matrix_indices.clone(),
                identity,
            )
        });
    }
    let whole = |g: &Geoset| {
        g.matrix_group_sizes
            .iter()
            .map(|&s| s as usize)
            .sum::<usize>()
            == g.matrix_indices.len()
            && g.vertex_groups
                .iter()
                .all(|&v| usize::from(v) < g.matrix_group_sizes.len())
    };
    if !whole(a) || !whole(b) {
        return None;
    }
    let mut groups: Vec<&[u32]> = a.matrix_groups();
    let mut to = Vec::with_capacity(b.matrix_group_sizes.len());
    for ids in b.matrix_groups() {
        let k = match groups.iter().position(|g| *g == ids) {
            Some(k) => k,
            None => {
                groups.push(ids);
                groups.len() - 1
            }
        };
        to.push(u8::try_from(k).ok()?);
    }
    let sizes = groups.iter().map(|ids| ids.len() as u32).collect();
    Some((sizes, groups.concat(), to))
}

/// Whether every extent of `g` is finite and not inside out: only those are joined (the
/// union of a broken extent could hide or add a checker finding).
fn sound(g: &Geoset) -> bool {
    std::iter::once(&g.extent)
        .chain(&g.sequence_extents)
        .all(|e| {
            e.radius.is_finite()
                && e.min.iter().chain(&e.max).all(|x| x.is_finite())
                && (0..3).all(|k| e.min[k] <= e.max[k])
        })
}

/// The box around both extents; the radius is the larger of the joined box's half
/// diagonal and either radius, so it bounds whatever either bounded.
fn union(a: &Extent, b: &Extent) -> Extent {
    let mut e = Extent::around([a.min, a.max, b.min, b.max]);
    e.radius = e.radius.max(a.radius).max(b.radius);
    e
}

/// Takes geoset `j` (joined into `i`) out of every geoset index and of the file's layout.
fn drop_geoset(model: &mut Model, i: usize, j: usize) {
    model.geosets.remove(j);
    for a in &mut model.geoset_animations {
        if usize::try_from(a.geoset_id).is_ok_and(|g| g > j) {
            a.geoset_id -= 1;
        }
    }
    for gl in &mut model.gliders {
        if gl.geoset_id as usize > j {
            gl.geoset_id -= 1;
        }
    }
    for b in &mut model.bones {
        match usize::try_from(b.geoset_id) {
            Ok(g) if g == j => b.geoset_id = i as i32,
            Ok(g) if g > j => b.geoset_id -= 1,
            _ => {}
        }
    }
    let mut start = 0usize;
    for e in &mut model.layout.chunks {
        if let LayoutEntry::Known { tag, records, .. } = e {
            if *tag == chunk::GEOS {
                if (start..start + *records).contains(&j) {
                    *records -= 1;
                    break;
                }
                start += *records;
            }
        }
    }
    model.layout.chunks.retain(|e| {
        !matches!(e, LayoutEntry::Known { tag, records: 0, tail, overflow_tracks: 0 } if *tag == chunk::GEOS && tail.is_empty())
    });
}
