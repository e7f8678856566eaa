//! Geosets (GEOS) in their two alpha layouts.
//!
//! **1300 and 1400** (page, "GEOS (≤ v1400)"): count-prefixed records, each
//! `size (inclusive), VRTX NRMS UVAS PTYP PCNT PVTX GNDX MTGC MATS BIDX BWGT` (tag, count,
//! elements), material id, selection group, flags, bounds, count + per-sequence bounds.
//! Checked on the boar: UVAS's count is a number of UV *sets*, and `count × vertices`
//! UV pairs follow with no `UVBS` tags (as the page says); PTYP entries are one byte
//! each; BIDX and BWGT hold one u32 per vertex, which is four bytes: in the boar every
//! BWGT entry's four bytes add up to 255.
//!
//! **1500** (page, "GEOS (v1500)"): a count, that many 64-byte headers, then that many
//! batches of interleaved 48-byte vertices (4 bone weights and 4 bone indices each),
//! primitive types, a u32, the index count again, the largest index, the u16 indices and
//! zero padding to a multiple of 8 indices. No 1500 file is at hand: this follows the page.

use crate::mdx::error::MdxErrorKind;
use crate::mdx::reader::{scoped, Reader};
use crate::mdx::record::{write_sized, MdxRecord};
use crate::mdx::tagged;
use crate::mdx::writer::Writer;
use crate::mdx::{read_extent, write_extent, MdxError, MdxResult};
use crate::model::{Extent, Tag};

/// Sub-chunk tags of alpha geosets.
pub mod sub {
    use crate::model::Tag;
    /// Bone indices (4 bytes per vertex).
    pub const BIDX: Tag = Tag(*b"BIDX");
    /// Bone weights (4 bytes per vertex).
    pub const BWGT: Tag = Tag(*b"BWGT");
    /// Collision triangles (CLID), with its intentional space.
    pub const TRI: Tag = crate::spec::alpha::TRI;
}

use crate::spec::sub::{GNDX, MATS, MTGC, NRMS, PCNT, PTYP, PVTX, UVAS, VRTX};

/// A geoset of versions 1300 and 1400 (`MDLGEOSETSECTION`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Geoset {
    /// Positions (VRTX).
    pub vertices: Vec<[f32; 3]>,
    /// Normals (NRMS).
    pub normals: Vec<[f32; 3]>,
    /// UV sets (UVAS): each holds one pair per vertex.
    pub uv_sets: Vec<Vec<[f32; 2]>>,
    /// Primitive type per group (PTYP, one byte each; 4 = triangles).
    pub primitive_types: Vec<u8>,
    /// Indices per group (PCNT).
    pub primitive_counts: Vec<u32>,
    /// Vertex indices (PVTX).
    pub indices: Vec<u16>,
    /// Per vertex, its matrix group (GNDX).
    pub vertex_groups: Vec<u8>,
    /// Bones per matrix group (MTGC).
    pub matrix_group_sizes: Vec<u32>,
    /// Bone object ids of all matrix groups, concatenated (MATS).
    pub matrix_indices: Vec<u32>,
    /// Four bone indices per vertex (BIDX, stored as one u32).
    pub bone_indices: Vec<[u8; 4]>,
    /// Four bone weights per vertex (BWGT, stored as one u32).
    pub bone_weights: Vec<[u8; 4]>,
    /// MTLS index.
    pub material_id: u32,
    /// Selection group (character geoset section and sub-group as four decimal digits).
    pub selection_group: u32,
    /// Flags (1 = unselectable); unknown bits kept.
    pub flags: u32,
    /// Bounds (radius first, as the boar has it; see [`crate::alpha`]).
    pub bounds: Extent,
    /// Bounds per sequence.
    pub sequence_bounds: Vec<Extent>,
    /// Bytes inside the geoset's size after the sequence bounds, kept.
    pub tail: Vec<u8>,
}

fn quads(g: &mut Reader, n: u32) -> MdxResult<Vec<[u8; 4]>> {
    let len = g.check_count(n, 4)?;
    let raw = g.bytes(len)?;
    Ok(raw
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect())
}

/// UVAS: `sets × vertex count` pairs. With no vertices the sets are empty; their number is
/// still bounded by the bytes that remain, so a hostile count cannot allocate much.
fn uv_sets(g: &mut Reader, sets: u32, vertices: usize) -> MdxResult<Vec<Vec<[f32; 2]>>> {
    let per_set = vertices.max(1) * 8;
    g.check_count(sets, if vertices == 0 { 1 } else { per_set })?;
    (0..sets).map(|_| g.vec_f32(vertices as u32)).collect()
}

fn write_quads(w: &mut Writer, tag: Tag, v: &[[u8; 4]]) -> MdxResult<()> {
    w.tag(tag);
    w.count(v.len())?;
    for q in v {
        w.bytes(q);
    }
    Ok(())
}

impl MdxRecord for Geoset {
    const NAME: &'static str = "Geoset";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        let mut g = r.inclusive_region(4)?;
        let g = &mut g;
        let vertices: Vec<[f32; 3]> = tagged(g, VRTX, |g, n| g.vec_f32(n))?;
        let nv = vertices.len();
        let mut geo = Geoset {
            vertices,
            normals: tagged(g, NRMS, |g, n| g.vec_f32(n))?,
            uv_sets: tagged(g, UVAS, |g, n| uv_sets(g, n, nv))?,
            primitive_types: tagged(g, PTYP, |g, n| g.vec_u8(n))?,
            primitive_counts: tagged(g, PCNT, |g, n| g.vec_u32(n))?,
            indices: tagged(g, PVTX, |g, n| g.vec_u16(n))?,
            vertex_groups: tagged(g, GNDX, |g, n| g.vec_u8(n))?,
            matrix_group_sizes: tagged(g, MTGC, |g, n| g.vec_u32(n))?,
            matrix_indices: tagged(g, MATS, |g, n| g.vec_u32(n))?,
            bone_indices: tagged(g, sub::BIDX, quads)?,
            bone_weights: tagged(g, sub::BWGT, quads)?,
            material_id: g.u32()?,
            selection_group: g.u32()?,
            flags: g.u32()?,
            bounds: read_extent(g)?,
            ..Geoset::default()
        };
        let n = g.u32()?;
        g.check_count(n, 28)?;
        geo.sequence_bounds = (0..n).map(|_| read_extent(g)).collect::<MdxResult<_>>()?;
        geo.tail = g.rest().to_vec();
        Ok(geo)
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            w.tag(VRTX);
            w.count(self.vertices.len())?;
            w.vec_f32(&self.vertices);
            w.tag(NRMS);
            w.count(self.normals.len())?;
            w.vec_f32(&self.normals);
            w.tag(UVAS);
            w.count(self.uv_sets.len())?;
            for set in &self.uv_sets {
                if set.len() != self.vertices.len() {
                    return Err(unwritable(w, "a UV set must hold one pair per vertex"));
                }
                w.vec_f32(set);
            }
            w.tag(PTYP);
            w.count(self.primitive_types.len())?;
            w.bytes(&self.primitive_types);
            w.tag(PCNT);
            w.count(self.primitive_counts.len())?;
            w.vec_u32(&self.primitive_counts);
            w.tag(PVTX);
            w.count(self.indices.len())?;
            w.vec_u16(&self.indices);
            w.tag(GNDX);
            w.count(self.vertex_groups.len())?;
            w.bytes(&self.vertex_groups);
            w.tag(MTGC);
            w.count(self.matrix_group_sizes.len())?;
            w.vec_u32(&self.matrix_group_sizes);
            w.tag(MATS);
            w.count(self.matrix_indices.len())?;
            w.vec_u32(&self.matrix_indices);
            write_quads(w, sub::BIDX, &self.bone_indices)?;
            write_quads(w, sub::BWGT, &self.bone_weights)?;
            w.u32(self.material_id);
            w.u32(self.selection_group);
            w.u32(self.flags);
            write_extent(w, &self.bounds);
            w.count(self.sequence_bounds.len())?;
            for e in &self.sequence_bounds {
                write_extent(w, e);
            }
            w.bytes(&self.tail);
            Ok(())
        })
    }
}

fn unwritable(w: &Writer, msg: &str) -> MdxError {
    MdxError::new(MdxErrorKind::Unwritable(msg.into()), w.len() as u64)
}

/// An interleaved 1500 vertex (`MDLVERTEX`, 48 bytes, the same as an M2 vertex).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vertex {
    /// Position.
    pub position: [f32; 3],
    /// Four bone weights (of 255).
    pub bone_weights: [u8; 4],
    /// Four bone indices.
    pub bone_indices: [u8; 4],
    /// Normal.
    pub normal: [f32; 3],
    /// Two UV pairs; the second is always (0, 0) in the beta files, says the page.
    pub tex_coords: [[f32; 2]; 2],
}

impl Vertex {
    const SIZE: usize = 48;

    fn read(r: &mut Reader) -> MdxResult<Vertex> {
        let position = r.f32s()?;
        let w = r.bytes(8)?;
        Ok(Vertex {
            position,
            bone_weights: [w[0], w[1], w[2], w[3]],
            bone_indices: [w[4], w[5], w[6], w[7]],
            normal: r.f32s()?,
            tex_coords: [r.f32s()?, r.f32s()?],
        })
    }

    fn write(&self, w: &mut Writer) {
        w.f32s(&self.position);
        w.bytes(&self.bone_weights);
        w.bytes(&self.bone_indices);
        w.f32s(&self.normal);
        w.f32s(&self.tex_coords[0]);
        w.f32s(&self.tex_coords[1]);
    }
}

/// A 1500 geoset: its header (`MDLGEOSETSECTION` v1500) and its batch (`MDLBATCH`), which
/// the file stores apart (all headers first, then all batches).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BatchedGeoset {
    /// MTLS index.
    pub material_id: u32,
    /// Center of the bounding sphere.
    pub bounds_center: [f32; 3],
    /// Radius of the bounding sphere.
    pub bounds_radius: f32,
    /// Selection group.
    pub selection_group: u32,
    /// Geoset index.
    pub geoset_index: u32,
    /// Flags (1 unselectable, 0x10 project 2D, 0x20 shader skin); unknown bits kept.
    pub flags: u32,
    /// The two u32 after the three counts ("always 0 filled").
    pub unknown: [u32; 2],
    /// Interleaved vertices.
    pub vertices: Vec<Vertex>,
    /// Primitive types (always 3, meaning triangles here, says the page).
    pub primitive_types: Vec<u32>,
    /// The u32 after the primitive types ("always 0").
    pub batch_unknown: u32,
    /// The largest vertex index, as stored (not recomputed).
    pub max_vertex: u32,
    /// Vertex indices.
    pub indices: Vec<u16>,
    /// The padding after the indices, up to a multiple of 8 indices. Written back when its
    /// length still fits the indices, otherwise zeros of the right length are written.
    pub padding: Vec<u16>,
}

/// Bytes of a 1500 geoset header.
pub const BATCHED_HEADER_SIZE: usize = 64;

fn padding_len(indices: usize) -> usize {
    (8 - indices % 8) % 8
}

/// The counts a 1500 header announces.
struct HeaderCounts {
    vertices: u32,
    types: u32,
    indices: u32,
}

impl BatchedGeoset {
    fn read_header(r: &mut Reader) -> MdxResult<(BatchedGeoset, HeaderCounts)> {
        let mut g = BatchedGeoset {
            material_id: r.u32()?,
            bounds_center: r.f32s()?,
            bounds_radius: r.f32()?,
            selection_group: r.u32()?,
            geoset_index: r.u32()?,
            flags: r.u32()?,
            ..Default::default()
        };
        let mut counted = |tag| -> MdxResult<u32> {
            r.expect_tag(tag)?;
            r.u32()
        };
        let counts = HeaderCounts {
            vertices: counted(PVTX)?,
            types: counted(PTYP)?,
            indices: counted(PVTX)?,
        };
        g.unknown = [r.u32()?, r.u32()?];
        Ok((g, counts))
    }

    fn read_batch(&mut self, r: &mut Reader, counts: &HeaderCounts) -> MdxResult<()> {
        r.check_count(counts.vertices, Vertex::SIZE)?;
        self.vertices = (0..counts.vertices)
            .map(|_| Vertex::read(r))
            .collect::<MdxResult<_>>()?;
        self.primitive_types = r.vec_u32(counts.types)?;
        self.batch_unknown = r.u32()?;
        let at = r.offset();
        let n = r.u32()?;
        if n != counts.indices {
            return Err(r.error_at(
                MdxErrorKind::UnknownLayout {
                    what: "1500 batch index count (its geoset header says otherwise)",
                    value: n,
                },
                at,
            ));
        }
        self.max_vertex = r.u32()?;
        self.indices = r.vec_u16(n)?;
        self.padding = r.vec_u16(padding_len(n as usize) as u32)?;
        Ok(())
    }

    fn write_header(&self, w: &mut Writer) -> MdxResult<()> {
        w.u32(self.material_id);
        w.f32s(&self.bounds_center);
        w.f32(self.bounds_radius);
        w.u32(self.selection_group);
        w.u32(self.geoset_index);
        w.u32(self.flags);
        w.tag(PVTX);
        w.count(self.vertices.len())?;
        w.tag(PTYP);
        w.count(self.primitive_types.len())?;
        w.tag(PVTX);
        w.count(self.indices.len())?;
        w.u32(self.unknown[0]);
        w.u32(self.unknown[1]);
        Ok(())
    }

    fn write_batch(&self, w: &mut Writer) -> MdxResult<()> {
        for v in &self.vertices {
            v.write(w);
        }
        w.vec_u32(&self.primitive_types);
        w.u32(self.batch_unknown);
        w.count(self.indices.len())?;
        w.u32(self.max_vertex);
        w.vec_u16(&self.indices);
        let pad = padding_len(self.indices.len());
        if self.padding.len() == pad {
            w.vec_u16(&self.padding);
        } else {
            w.vec_u16(&vec![0; pad]);
        }
        Ok(())
    }
}

/// Reads the records of a 1500 GEOS chunk (after which the chunk's tail follows).
pub fn read_batched(c: &mut Reader) -> MdxResult<Vec<BatchedGeoset>> {
    let n = c.u32()?;
    c.check_count(n, BATCHED_HEADER_SIZE)?;
    let mut heads = Vec::with_capacity(n as usize);
    for i in 0..n {
        heads.push(scoped(
            || format!("GeosetHeader[{i}]"),
            || BatchedGeoset::read_header(c),
        )?);
    }
    let mut out = Vec::with_capacity(heads.len());
    for (i, (mut g, counts)) in heads.into_iter().enumerate() {
        scoped(|| format!("Batch[{i}]"), || g.read_batch(c, &counts))?;
        out.push(g);
    }
    Ok(out)
}

/// Writes the records of a 1500 GEOS chunk.
pub fn write_batched(w: &mut Writer, geosets: &[BatchedGeoset]) -> MdxResult<()> {
    w.count(geosets.len())?;
    for g in geosets {
        g.write_header(w)?;
    }
    for g in geosets {
        g.write_batch(w)?;
    }
    Ok(())
}
