//! Geosets and geoset animations to Warcraft III.
//!
//! 1300/1400 geosets already carry Warcraft III's skinning (GNDX/MTGC/MATS matrix groups)
//! and copy over field by field; their BIDX/BWGT arrays are lost.
//!
//! 1500 geosets carry four bone indices and weights per vertex instead. Version 800 has
//! matrix groups only, whose bones all weigh the same, so the conversion makes **one
//! matrix group per distinct set of bones with a non-zero weight** (sorted object ids; a
//! vertex with no weight at all keeps its first index) and reports the weights as lost
//! when they were not equal. A bone index is taken as an index into BONE, so it becomes
//! that bone's object id. The bounding box is the cube around the stored sphere.

use std::collections::HashMap;

use crate::model::{face_type, geoset_animation_flags, Extent, Geoset as WcGeoset};
use crate::model::{GeosetAnimation as WcGeosetAnimation, Model};

use crate::alpha::{AlphaModel, BatchedGeoset, Geoset};

use super::{map, Cx};

/// Selection flag of Warcraft III geosets: unselectable.
const WC_UNSELECTABLE: u32 = 4;

pub(super) fn geosets(a: &AlphaModel, cx: &mut Cx, m: &mut Model) {
    for (i, g) in a.geosets().enumerate() {
        m.geosets.push(layered(cx, &format!("Geoset[{i}]"), g));
    }
    let bone_ids: Vec<u32> = a.bones().map(|b| b.object.object_id).collect();
    let offset = m.geosets.len();
    for (i, g) in a.batched_geosets().enumerate() {
        let rec = format!("Geoset[{}]", offset + i);
        m.geosets.push(batched(cx, &rec, g, &bone_ids));
    }
    for (i, ga) in a.geoset_animations().enumerate() {
        let rec = format!("GeosetAnimation[{i}]");
        cx.tail(&rec, &ga.tail);
        if ga.flags & !1 != 0 {
            cx.lose(&rec, format!("flag bits {:#x}", ga.flags & !1));
        }
        let use_color = if ga.flags & 1 != 0 {
            geoset_animation_flags::USE_COLOR
        } else {
            0
        };
        m.geoset_animations.push(WcGeosetAnimation {
            alpha: ga.alpha,
            flags: use_color,
            color: ga.color,
            geoset_id: ga.geoset_id,
            tracks: cx.tracks(&rec, &ga.tracks, map::GEOSET_ANIMATION),
            tail: Vec::new(),
        });
    }
}

fn selection_flags(cx: &mut Cx, rec: &str, flags: u32) -> u32 {
    if flags & !1 != 0 {
        cx.lose(rec, format!("flag bits {:#x}", flags & !1));
    }
    if flags & 1 != 0 {
        WC_UNSELECTABLE
    } else {
        0
    }
}

fn layered(cx: &mut Cx, rec: &str, g: &Geoset) -> WcGeoset {
    cx.tail(rec, &g.tail);
    if !g.bone_indices.is_empty() || !g.bone_weights.is_empty() {
        cx.lose(
            rec,
            "BIDX/BWGT (four bone indices and weights per vertex); the matrix groups are kept",
        );
    }
    WcGeoset {
        vertices: g.vertices.clone(),
        normals: g.normals.clone(),
        face_types: g.primitive_types.iter().map(|&t| t as u32).collect(),
        face_group_sizes: g.primitive_counts.clone(),
        faces: g.indices.clone(),
        vertex_groups: g.vertex_groups.clone(),
        matrix_group_sizes: g.matrix_group_sizes.clone(),
        matrix_indices: g.matrix_indices.clone(),
        material_id: g.material_id,
        selection_group: g.selection_group,
        selection_flags: selection_flags(cx, rec, g.flags),
        extent: g.bounds,
        sequence_extents: g.sequence_bounds.clone(),
        uv_sets: g.uv_sets.clone(),
        ..WcGeoset::default()
    }
}

/// Matrix groups built from per-vertex bone sets.
#[derive(Default)]
struct Groups {
    index: HashMap<Vec<u32>, usize>,
    sizes: Vec<u32>,
    bones: Vec<u32>,
}

impl Groups {
    fn of(&mut self, set: Vec<u32>) -> usize {
        if let Some(&i) = self.index.get(&set) {
            return i;
        }
        let i = self.sizes.len();
        self.sizes.push(set.len() as u32);
        self.bones.extend_from_slice(&set);
        self.index.insert(set, i);
        i
    }
}

fn batched(cx: &mut Cx, rec: &str, g: &BatchedGeoset, bone_ids: &[u32]) -> WcGeoset {
    let mut groups = Groups::default();
    let (mut uneven, mut unknown_bone, mut overflow) = (false, false, false);
    let mut vertex_groups = Vec::with_capacity(g.vertices.len());
    for v in &g.vertices {
        let weighted: Vec<(u8, u8)> = (0..4)
            .filter(|&k| v.bone_weights[k] > 0)
            .map(|k| (v.bone_indices[k], v.bone_weights[k]))
            .collect();
        uneven |= weighted.windows(2).any(|p| p[0].1 != p[1].1);
        let mut set: Vec<u32> = if weighted.is_empty() {
            vec![v.bone_indices[0]]
        } else {
            weighted.iter().map(|p| p.0).collect()
        }
        .into_iter()
        .map(|b| {
            bone_ids.get(b as usize).copied().unwrap_or_else(|| {
                unknown_bone = true;
                b as u32
            })
        })
        .collect();
        set.sort_unstable();
        set.dedup();
        let gi = groups.of(set);
        overflow |= gi > 255;
        vertex_groups.push(gi.min(255) as u8);
    }
    if uneven {
        cx.lose(
            rec,
            "bone weights (matrix groups weigh their bones equally)",
        );
    }
    if unknown_bone {
        cx.lose(rec, "bone indices past the bone list (kept as object ids)");
    }
    if overflow {
        cx.lose(
            rec,
            "matrix groups past 256 (GNDX is one byte); those vertices use group 255",
        );
    }
    let all_triangles = g.primitive_types.iter().all(|&t| t == 3);
    if !all_triangles {
        cx.lose(
            rec,
            format!("primitives of types {:?}: faces dropped", g.primitive_types),
        );
    }
    let second_uv = g.vertices.iter().any(|v| v.tex_coords[1] != [0.0, 0.0]);
    let mut uv_sets = vec![g
        .vertices
        .iter()
        .map(|v| v.tex_coords[0])
        .collect::<Vec<_>>()];
    if second_uv {
        uv_sets.push(g.vertices.iter().map(|v| v.tex_coords[1]).collect());
    }
    if g.unknown != [0, 0] || g.batch_unknown != 0 {
        cx.lose(
            rec,
            format!("unknown words {:?} and {}", g.unknown, g.batch_unknown),
        );
    }
    let (c, r) = (g.bounds_center, g.bounds_radius);
    let (faces, face_types, face_group_sizes) = if all_triangles && !g.indices.is_empty() {
        let n = g.indices.len() as u32;
        (g.indices.clone(), vec![face_type::TRIANGLES], vec![n])
    } else {
        (Vec::new(), Vec::new(), Vec::new())
    };
    WcGeoset {
        vertices: g.vertices.iter().map(|v| v.position).collect(),
        normals: g.vertices.iter().map(|v| v.normal).collect(),
        face_types,
        face_group_sizes,
        faces,
        vertex_groups,
        matrix_group_sizes: groups.sizes,
        matrix_indices: groups.bones,
        material_id: g.material_id,
        selection_group: g.selection_group,
        selection_flags: selection_flags(cx, rec, g.flags),
        extent: Extent {
            radius: r,
            min: [c[0] - r, c[1] - r, c[2] - r],
            max: [c[0] + r, c[1] + r, c[2] + r],
        },
        uv_sets,
        ..WcGeoset::default()
    }
}
