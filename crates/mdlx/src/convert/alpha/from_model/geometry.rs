//! Geosets and geoset animations back to the alpha layouts.

use crate::model::{Geoset as WcGeoset, Model};

use crate::alpha::*;

use super::{map, tracks, Cx};

fn geoset_losses(cx: &mut Cx, rec: &str, g: &WcGeoset) {
    cx.tail(rec, &g.tail);
    if g.lod != 0 || !g.lod_name.is_empty() || g.tangents.is_some() || g.skin.is_some() {
        cx.lose(rec, "level of detail, tangents or skin weights");
    }
    if g.selection_flags & !4 != 0 {
        cx.lose(
            rec,
            format!("selection flag bits {:#x}", g.selection_flags & !4),
        );
    }
}

pub(super) fn layered(cx: &mut Cx, i: usize, g: &WcGeoset) -> Geoset {
    let rec = format!("Geoset[{i}]");
    geoset_losses(cx, &rec, g);
    if g.face_types.iter().any(|&t| t > 255) {
        cx.lose(
            &rec,
            "primitive types above 255 (PTYP entries are one byte)",
        );
    }
    Geoset {
        vertices: g.vertices.clone(),
        normals: g.normals.clone(),
        uv_sets: g.uv_sets.clone(),
        primitive_types: g.face_types.iter().map(|&t| t as u8).collect(),
        primitive_counts: g.face_group_sizes.clone(),
        indices: g.faces.clone(),
        vertex_groups: g.vertex_groups.clone(),
        matrix_group_sizes: g.matrix_group_sizes.clone(),
        matrix_indices: g.matrix_indices.clone(),
        material_id: g.material_id,
        selection_group: g.selection_group,
        flags: u32::from(g.selection_flags & 4 != 0),
        bounds: g.extent,
        sequence_bounds: g.sequence_extents.clone(),
        ..Geoset::default()
    }
}

/// The bones of matrix group `group`, as (index into BONE, equal weights).
fn group_bones(g: &WcGeoset, group: usize, bone_ids: &[u32]) -> Option<Vec<u8>> {
    let start: usize = g
        .matrix_group_sizes
        .iter()
        .take(group)
        .map(|&n| n as usize)
        .sum();
    let n = *g.matrix_group_sizes.get(group)? as usize;
    let ids = g.matrix_indices.get(start..start + n)?;
    ids.iter()
        .map(|id| {
            bone_ids
                .iter()
                .position(|b| b == id)
                .and_then(|p| u8::try_from(p).ok())
        })
        .collect()
}

pub(super) fn batched(cx: &mut Cx, i: usize, g: &WcGeoset, bone_ids: &[u32]) -> BatchedGeoset {
    let rec = format!("Geoset[{i}]");
    geoset_losses(cx, &rec, g);
    if g.uv_sets.len() > 2
        || g.face_types
            .iter()
            .any(|&t| t != crate::model::face_type::TRIANGLES)
    {
        cx.lose(
            &rec,
            "UV sets past the second, or primitives other than triangles",
        );
    }
    let mut unmapped = false;
    let uv = |set: usize, v: usize| {
        g.uv_sets
            .get(set)
            .and_then(|s| s.get(v))
            .copied()
            .unwrap_or_default()
    };
    let vertices = (0..g.vertices.len())
        .map(|v| {
            let group = g.vertex_groups.get(v).copied().unwrap_or(0) as usize;
            let bones = group_bones(g, group, bone_ids).unwrap_or_else(|| {
                unmapped = true;
                vec![0]
            });
            let (mut bone_indices, mut bone_weights) = ([0u8; 4], [0u8; 4]);
            let n = bones.len().clamp(1, 4);
            unmapped |= bones.len() > 4;
            for (k, b) in bones.iter().take(4).enumerate() {
                bone_indices[k] = *b;
                // Equal shares of 255; the first bones take the remainder.
                bone_weights[k] = (255 / n + usize::from(k < 255 % n)) as u8;
            }
            Vertex {
                position: g.vertices[v],
                bone_weights,
                bone_indices,
                normal: g.normals.get(v).copied().unwrap_or_default(),
                tex_coords: [uv(0, v), uv(1, v)],
            }
        })
        .collect();
    if unmapped {
        cx.lose(&rec, "matrix groups of more than 4 bones, or of non-bones");
    }
    let e = g.extent;
    let center = [0, 1, 2].map(|k| (e.min[k] + e.max[k]) / 2.0);
    BatchedGeoset {
        material_id: g.material_id,
        bounds_center: center,
        bounds_radius: e.radius,
        selection_group: g.selection_group,
        geoset_index: i as u32,
        flags: u32::from(g.selection_flags & 4 != 0),
        vertices,
        primitive_types: vec![3],
        max_vertex: g.faces.iter().copied().max().unwrap_or(0) as u32,
        indices: g.faces.clone(),
        padding: vec![0; (8 - g.faces.len() % 8) % 8],
        ..BatchedGeoset::default()
    }
}

pub(super) fn geoset_animations(cx: &mut Cx, m: &Model) -> Vec<GeosetAnimation> {
    let mut out = Vec::new();
    for (i, ga) in m.geoset_animations.iter().enumerate() {
        let rec = format!("GeosetAnimation[{i}]");
        cx.tail(&rec, &ga.tail);
        if ga.flags & !2 != 0 {
            cx.lose(&rec, format!("flag bits {:#x}", ga.flags & !2));
        }
        out.push(GeosetAnimation {
            geoset_id: ga.geoset_id,
            alpha: ga.alpha,
            color: ga.color,
            flags: u32::from(ga.flags & 2 != 0),
            tracks: tracks(cx, &rec, &ga.tracks, map::GEOSET_ANIMATION),
            tail: Vec::new(),
        });
    }
    out
}
