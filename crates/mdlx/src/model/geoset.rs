//! Geosets (GEOS): a mesh with its vertex data, faces, bone bindings, UV sets and extents.
//!
//! MDX layout inside the geoset's inclusive size: `VRTX NRMS PTYP PCNT PVTX GNDX MTGC MATS`
//! (each a tag, a count and that many elements), material id, selection group, selection
//! flags, [900+: LOD index, LOD name\[80\]], extent, per-sequence extents,
//! [900+: optional `TANG`, optional `SKIN`], `UVAS` count and that many `UVBS` blocks.

use super::{Extent, FixedString};

/// Face (primitive) type numbers used in PTYP.
pub mod face_type {
    /// Points.
    pub const POINTS: u32 = 0;
    /// Lines.
    pub const LINES: u32 = 1;
    /// Line loop.
    pub const LINE_LOOP: u32 = 2;
    /// Line strip.
    pub const LINE_STRIP: u32 = 3;
    /// Triangles: the only type the game draws.
    pub const TRIANGLES: u32 = 4;
    /// Triangle strip.
    pub const TRIANGLE_STRIP: u32 = 5;
    /// Triangle fan.
    pub const TRIANGLE_FAN: u32 = 6;
    /// Quads.
    pub const QUADS: u32 = 7;
    /// Quad strip.
    pub const QUAD_STRIP: u32 = 8;
    /// Polygons.
    pub const POLYGONS: u32 = 9;
}

/// A mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Geoset {
    /// Vertex positions.
    pub vertices: Vec<[f32; 3]>,
    /// Vertex normals (one per vertex in valid files).
    pub normals: Vec<[f32; 3]>,
    /// Primitive type of each face group (PTYP; 4 = triangles).
    pub face_types: Vec<u32>,
    /// Number of indices in each face group (PCNT).
    pub face_group_sizes: Vec<u32>,
    /// Vertex indices of all faces (PVTX).
    pub faces: Vec<u16>,
    /// Per vertex, the index of its matrix group (GNDX).
    pub vertex_groups: Vec<u8>,
    /// Number of bones in each matrix group (MTGC).
    pub matrix_group_sizes: Vec<u32>,
    /// Bone object ids of all matrix groups, concatenated (MATS).
    pub matrix_indices: Vec<u32>,
    /// Material id.
    pub material_id: u32,
    /// Selection group.
    pub selection_group: u32,
    /// Selection flags (4 = unselectable); unknown bits kept.
    pub selection_flags: u32,
    /// Level of detail (900+).
    pub lod: u32,
    /// LOD name (900+, 80 bytes).
    pub lod_name: FixedString,
    /// Bounds.
    pub extent: Extent,
    /// Bounds per sequence.
    pub sequence_extents: Vec<Extent>,
    /// Tangents, 4 floats per vertex (900+, TANG), if present.
    pub tangents: Option<Vec<[f32; 4]>>,
    /// Skin weights (900+, SKIN): per vertex 4 matrix group indices then 4 weights (of
    /// 255), if present.
    pub skin: Option<Vec<u16>>,
    /// The SKIN values are two bytes each in the file, not one.
    ///
    /// `SKIN` holds, per vertex, four matrix group indices and four weights (of 255). Its count
    /// is the number of values; each is one byte in every file of the corpus (900 to 1100),
    /// two bytes in the game's newest files: from 1400 for the `wc3` crate and another
    /// converter, from 1300 or 1600 in Retera's Model Studio (its commits differ); no such
    /// file is public. So reading tells the width from the layout, not the version: the
    /// values are two bytes wide when one byte each would not end right before `UVAS` and
    /// two bytes each would. Writing follows this field; MDL reading and
    /// [`Model::to_version`](crate::model::Model::to_version) set it from 1400
    /// ([`SKIN_WIDE`](crate::spec::version::SKIN_WIDE)).
    pub skin_wide: bool,
    /// Texture coordinate sets (UVAS/UVBS).
    pub uv_sets: Vec<Vec<[f32; 2]>>,
    /// Bytes inside the geoset's size after the last UV set, kept.
    pub tail: Vec<u8>,
}

impl Geoset {
    /// The level of detail that marks a geoset drawn at every level: -1, stored as
    /// `0xFFFFFFFF`. mdx-m3-viewer draws the geosets whose LOD is 0 or -1 at full detail,
    /// and Retera's Model Studio treats -1 as every level.
    pub const EVERY_LOD: u32 = u32::MAX;

    /// Whether the game draws this geoset at level of detail `level` (0 is the finest):
    /// its own level, or every level when it is [`Geoset::EVERY_LOD`]. Models before 900
    /// hold 0 everywhere, so every geoset shows at level 0.
    pub fn shows_at_lod(&self, level: u32) -> bool {
        self.lod == level || self.lod == Self::EVERY_LOD
    }

    /// The matrix groups: for each, the node object ids it lists (slices of
    /// `matrix_indices` by `matrix_group_sizes`; sizes past the end are cut short).
    pub fn matrix_groups(&self) -> Vec<&[u32]> {
        let mut start = 0usize;
        self.matrix_group_sizes
            .iter()
            .map(|&size| {
                let end = start
                    .saturating_add(size as usize)
                    .min(self.matrix_indices.len());
                let ids = &self.matrix_indices[start.min(end)..end];
                start = end;
                ids
            })
            .collect()
    }

    /// The faces as triangles of vertex indices: triangle lists as they are, strips and fans
    /// turned into triangles (every other strip triangle wound back). A geoset without face
    /// groups is one triangle list. Also returns how many groups of other primitive types
    /// (points, lines) were left out.
    pub fn triangles(&self) -> (Vec<[u16; 3]>, usize) {
        let groups: Vec<(u32, usize)> = if self.face_types.is_empty() {
            vec![(face_type::TRIANGLES, self.faces.len())]
        } else {
            self.face_types
                .iter()
                .zip(&self.face_group_sizes)
                .map(|(&t, &n)| (t, n as usize))
                .collect()
        };
        let mut out = Vec::with_capacity(self.faces.len() / 3);
        let (mut start, mut skipped) = (0usize, 0usize);
        for (kind, size) in groups {
            let end = start.saturating_add(size).min(self.faces.len());
            let idx = &self.faces[start..end];
            start = end;
            match kind {
                face_type::TRIANGLES => {
                    out.extend(idx.chunks_exact(3).map(|t| [t[0], t[1], t[2]]));
                }
                face_type::TRIANGLE_STRIP => {
                    out.extend(idx.windows(3).enumerate().map(|(i, w)| {
                        if i % 2 == 0 {
                            [w[0], w[1], w[2]]
                        } else {
                            [w[1], w[0], w[2]]
                        }
                    }));
                }
                face_type::TRIANGLE_FAN if idx.len() >= 3 => {
                    out.extend(idx[1..].windows(2).map(|w| [idx[0], w[0], w[1]]));
                }
                face_type::TRIANGLE_FAN => {}
                _ => skipped += 1,
            }
        }
        (out, skipped)
    }
}

impl super::declare::Opaque for Geoset {
    fn opaque_bytes(&self) -> usize {
        self.tail.len()
    }
}

#[cfg(test)]
mod triangle_tests {
    use super::{face_type, Geoset};

    #[test]
    fn lists_strips_and_fans_become_triangles() {
        let g = Geoset {
            face_types: vec![
                face_type::TRIANGLES,
                face_type::TRIANGLE_STRIP,
                face_type::TRIANGLE_FAN,
                face_type::LINES,
            ],
            face_group_sizes: vec![3, 5, 4, 2],
            faces: vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
            ..Default::default()
        };
        let (t, skipped) = g.triangles();
        // The strip 3 4 5 6 7: (3,4,5), (5,4,6) wound back, (5,6,7). The fan 8 9 10 11:
        // (8,9,10), (8,10,11).
        assert_eq!(
            t,
            vec![
                [0, 1, 2],
                [3, 4, 5],
                [5, 4, 6],
                [5, 6, 7],
                [8, 9, 10],
                [8, 10, 11]
            ]
        );
        assert_eq!(skipped, 1);
    }
}
