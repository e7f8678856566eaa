//! `Geoset` and `GeosetAnim` blocks, and helpers shared with other records: extents
//! (`MinimumExtent`, `MaximumExtent`, `BoundsRadius`) and color order.
//!
//! ```text
//! Geoset {
//!     Vertices 3 { { x, y, z }, ... }
//!     Normals 3 { { x, y, z }, ... }
//!     TVertices 3 { { u, v }, ... }          // one block per UV set
//!     VertexGroup { 0, 0, 0, }
//!     Tangents 3 { { a, b, c, d }, ... }     // 900+
//!     SkinWeights 3 { 8 integers per vertex } // 900+
//!     Faces 1 3 { Triangles { { 0, 1, 2 }, } } // see below
//!     Groups 1 1 { Matrices { 0 }, }
//!     MinimumExtent { ... }, MaximumExtent { ... }, BoundsRadius r,
//!     Anim { MinimumExtent ..., MaximumExtent ..., BoundsRadius r }  // per sequence
//!     MaterialID 0, SelectionGroup 0, Unselectable,
//!     LevelOfDetail 0, Name "lod name",       // 900+
//! }
//! ```
//!
//! **Faces**: triangles are written as one block, `Faces 1 <n> { Triangles { { ... }, } }`,
//! whatever the MDX face groups (PTYP/PCNT): mdx-m3-viewer ("Unknown token in Geoset")
//! and war3-model ("expected array") refuse a second type block, and both write exactly
//! this. The groups, when not one group of every index, go to a `FaceGroups` entry of the
//! extension block ([`MdlRecord::face_groups`]). A geoset without faces is
//! `Faces 0 0 { Triangles { } }`: the one form both peers read (each writes
//! `Faces 1 0 { Triangles { {  }, } }`, which neither reads back: war3-model wants one
//! non-empty array per group, mdx-m3-viewer takes the inner `{` for the closing brace).
//! Geosets with other face types keep one type block per group (`Faces 2 5 { Lines
//! { { 0, 1 }, } TriangleFan { ... } }`); the reader reads any number of type blocks, one
//! group each, whatever the nesting of the numbers inside.
//!
//! **Colors**: a static color is printed in the reverse of its MDX order ([`mdl_color`]),
//! the keys of a color track as stored. That is what MdlxConv (Blizzard's converter) writes: in
//! `tdauth__...__Alliance_Exp.mdl` the static `Color { 0, 0.980392, 0.898039 }` is MDX
//! [0.898039, 0.980392, 0] while the `Color` track keys equal the MDX keys; its static light,
//! ribbon and geoset animation colors, and those of `Orc_Exp` and `Damnation_Orange`, are all
//! reversed. mdx-m3-viewer reads and writes the same way (`readColor` flips, keyframes do
//! not). (war3-model and the tool behind `AMISD666__...File00001202.mdl` also flip keys.)

use super::emitters::mdl_color;
use super::node::{read_record_track, write_tracks};
use super::MdlRecord;
use crate::mdl::cx::{is, Cx};
use crate::mdl::error::MdlErrorKind;
use crate::mdl::out::Out;
use crate::mdl::parse::AtomKind;
use crate::model::*;
use crate::spec::track as tk;

/// Face (primitive) type words, by PTYP number.
pub(crate) const FACE_TYPES: [&str; 10] = [
    "Points",
    "Lines",
    "LineLoop",
    "LineStrip",
    "Triangles",
    "TriangleStrip",
    "TriangleFan",
    "Quads",
    "QuadStrip",
    "Polygons",
];

/// Selection flag bit written as `Unselectable`.
const UNSELECTABLE: u32 = 4;

const GEOSET_WORDS: &[&str] = &[
    "Vertices",
    "Normals",
    "TVertices",
    "VertexGroup",
    "Tangents",
    "SkinWeights",
    "Faces",
    "Groups",
    "MinimumExtent",
    "MaximumExtent",
    "BoundsRadius",
    "Anim",
    "MaterialID",
    "SelectionGroup",
    "Unselectable",
    "LevelOfDetail",
    "Name",
];

const EXTENT_WORDS: &[&str] = &["MinimumExtent", "MaximumExtent", "BoundsRadius"];

/// Whether `a` and `b` are the same bits.
pub(crate) fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Reads item `c` into `e` if it is `MinimumExtent`, `MaximumExtent` or `BoundsRadius`;
/// returns false for any other keyword.
pub(crate) fn read_extent_item(cx: &mut Cx, c: usize, e: &mut Extent) -> bool {
    let k = cx.key(c);
    if is(k, "MinimumExtent") {
        e.min = cx.floats(c).unwrap_or_default();
    } else if is(k, "MaximumExtent") {
        e.max = cx.floats(c).unwrap_or_default();
    } else if is(k, "BoundsRadius") {
        e.radius = cx.f32_arg(c).unwrap_or(0.0);
    } else {
        return false;
    }
    true
}

/// Writes all three parts of an extent, zero or not: war3-model reads a Model, Geoset,
/// geoset `Anim` or sequence block without them as having no extent and fails when it
/// writes the model (reading zeros back gives the same model).
pub(crate) fn write_extent(out: &mut Out, e: &Extent) {
    out.kv_floats("MinimumExtent", &e.min);
    out.kv_floats("MaximumExtent", &e.max);
    out.kv_f32("BoundsRadius", e.radius);
}

/// Appends every number in the subtree of item `i` (nested `{ }` lists included) as an
/// integer in `min..=max`. Words are reported.
fn subtree_ints(
    cx: &mut Cx,
    i: usize,
    min: i64,
    max: i64,
    field: &'static str,
    out: &mut Vec<i64>,
) {
    let t = cx.t;
    let end = if t.items[i].body {
        t.items[i].end as usize
    } else {
        i + 1
    };
    for item in i + 1..end {
        for a in t.item_atoms(item) {
            match a.kind {
                AtomKind::Number => {
                    if let Some(v) = cx.atom_int(a, item, min, max, field) {
                        out.push(v);
                    }
                }
                _ => cx.error_at(
                    a,
                    MdlErrorKind::Expected {
                        expected: format!("{field} (integers)"),
                        found: cx.describe(item),
                    },
                ),
            }
        }
    }
}

/// Reads `Faces <groups> <indices> { Triangles { { i, ... }, } ... }`: each type block is
/// one face group, whatever the nesting of its numbers.
fn read_faces(cx: &mut Cx, i: usize, g: &mut Geoset) {
    let mut values = Vec::new();
    for c in cx.children(i) {
        let k = cx.key(c);
        let Some(ty) = FACE_TYPES.iter().position(|w| is(k, w)) else {
            cx.unknown(c, "Faces", &FACE_TYPES);
            continue;
        };
        values.clear();
        subtree_ints(cx, c, 0, u16::MAX as i64, "vertex indices", &mut values);
        g.face_types.push(ty as u32);
        g.face_group_sizes.push(values.len() as u32);
        g.faces.extend(values.iter().map(|&v| v as u16));
    }
}

/// Reads `Groups <n> <total> { Matrices { a, b }, ... }`.
fn read_groups(cx: &mut Cx, i: usize, g: &mut Geoset) {
    for c in cx.children(i) {
        if !is(cx.key(c), "Matrices") {
            cx.unknown(c, "Groups", &["Matrices"]);
            continue;
        }
        let ids = cx.int_list(c, i32::MIN as i64, u32::MAX as i64, "a bone object id");
        g.matrix_group_sizes.push(ids.len() as u32);
        g.matrix_indices.extend(ids.iter().map(|&v| v as u32));
    }
}

/// Reads a per-sequence `Anim { extent }` block.
fn read_sequence_extent(cx: &mut Cx, i: usize) -> Extent {
    let mut e = Extent::default();
    for c in cx.children(i) {
        if !read_extent_item(cx, c, &mut e) {
            cx.unknown(c, "a geoset Anim", EXTENT_WORDS);
        }
    }
    e
}

fn read_geoset_item(cx: &mut Cx, c: usize, g: &mut Geoset) {
    if read_extent_item(cx, c, &mut g.extent) {
        return;
    }
    let k = cx.key(c);
    if is(k, "Vertices") {
        g.vertices = cx.float_list(c);
    } else if is(k, "Normals") {
        g.normals = cx.float_list(c);
    } else if is(k, "TVertices") {
        let uv = cx.float_list(c);
        g.uv_sets.push(uv);
    } else if is(k, "VertexGroup") {
        g.vertex_groups = cx
            .int_list(c, 0, 255, "a matrix group index")
            .into_iter()
            .map(|v| v as u8)
            .collect();
    } else if is(k, "Tangents") {
        g.tangents = Some(cx.float_list(c));
    } else if is(k, "SkinWeights") {
        // Two-byte values (the game's newest files) may index past 255 matrix groups.
        let mut v = Vec::new();
        subtree_ints(cx, c, 0, u16::MAX as i64, "skin weights", &mut v);
        g.skin_wide = cx.version >= crate::spec::version::SKIN_WIDE || v.iter().any(|&v| v > 255);
        g.skin = Some(v.into_iter().map(|v| v as u16).collect());
    } else if is(k, "Faces") {
        read_faces(cx, c, g);
    } else if is(k, "Groups") {
        read_groups(cx, c, g);
    } else if is(k, "Anim") {
        let e = read_sequence_extent(cx, c);
        g.sequence_extents.push(e);
    } else if is(k, "MaterialID") {
        g.material_id = cx.u32_arg(c, "MaterialID").unwrap_or(0);
    } else if is(k, "SelectionGroup") {
        g.selection_group = cx.u32_arg(c, "SelectionGroup").unwrap_or(0);
    } else if is(k, "Unselectable") {
        g.selection_flags |= UNSELECTABLE;
    } else if is(k, "LevelOfDetail") {
        g.lod = cx.u32_arg(c, "LevelOfDetail").unwrap_or(0);
    } else if is(k, "Name") {
        g.lod_name = cx.str_arg(c).unwrap_or_default();
    } else {
        cx.unknown(c, "Geoset", GEOSET_WORDS);
    }
}

/// `Key N { { a, b, ... }, ... }`, one element per line.
fn write_float_rows<const N: usize>(out: &mut Out, key: &str, rows: &[[f32; N]]) {
    out.open_counted(key, rows.len());
    for r in rows {
        out.indent();
        out.floats(r);
        out.raw(",\n");
    }
    out.close();
}

fn write_vertex_groups(out: &mut Out, groups: &[u8]) {
    out.open("VertexGroup");
    for &v in groups {
        out.indent();
        out.int(v as i64);
        out.raw(",\n");
    }
    out.close();
}

/// `SkinWeights N { b, b, b, b, w, w, w, w, ... }`: a line of 8 per vertex, as the corpus
/// v1100 MDL (`riflemanSAWING.mdl`) writes it.
fn write_skin(out: &mut Out, skin: &[u16]) {
    out.open_counted("SkinWeights", skin.len() / 8);
    for row in skin.chunks(8) {
        out.indent();
        for (n, v) in row.iter().enumerate() {
            if n > 0 {
                out.raw(" ");
            }
            out.int(*v as i64);
            out.raw(",");
        }
        out.raw("\n");
    }
    out.close();
}

/// Whether the geoset's faces are written as one `Triangles` block: every group is
/// triangles and the groups account for every index exactly.
fn one_triangle_block(g: &Geoset) -> bool {
    g.face_types.iter().all(|&t| t == face_type::TRIANGLES)
        && g.face_types.len() == g.face_group_sizes.len()
        && g.face_group_sizes
            .iter()
            .map(|&s| s as usize)
            .sum::<usize>()
            == g.faces.len()
}

/// The faces: triangles as one block, `Faces 1 <n> { Triangles { { i, ... }, } }`, what
/// mdx-m3-viewer and war3-model read and write (both read exactly one type block and
/// refuse several); no faces as `Faces 0 0 { Triangles { } }`, the one form both read
/// (each writes `Faces 1 0 { Triangles { { }, } }` and refuses it). Other face types as
/// `Faces <groups> <indices> { <Type> { { i, ... }, } ... }`, one type block per group;
/// types the words cannot name are written as triangles (the record check then keeps the
/// record in the extension block).
fn write_faces(out: &mut Out, g: &Geoset) {
    if one_triangle_block(g) {
        if g.faces.is_empty() {
            out.open("Faces 0 0");
            out.open("Triangles");
        } else {
            out.open(&format!("Faces 1 {}", g.faces.len()));
            out.open("Triangles");
            out.indent();
            out.ints(g.faces.iter().map(|&v| v as i64));
            out.raw(",\n");
        }
        out.close();
        out.close();
        return;
    }
    out.open(&format!("Faces {} {}", g.face_types.len(), g.faces.len()));
    let mut start = 0usize;
    for (n, &ty) in g.face_types.iter().enumerate() {
        let size = g.face_group_sizes.get(n).map_or(0, |&s| s as usize);
        let end = (start + size).min(g.faces.len());
        out.open(FACE_TYPES.get(ty as usize).copied().unwrap_or("Triangles"));
        out.indent();
        out.ints(g.faces[start..end].iter().map(|&v| v as i64));
        out.raw(",\n");
        out.close();
        start = end;
    }
    out.close();
}

impl Geoset {
    /// The face groups cut to at most three indices each, when the groups account for
    /// every index exactly (then each group is written by the same code, whatever its
    /// length); otherwise all of them, so the check sees the odd structure.
    fn skeleton_faces(&self) -> (Vec<u32>, Vec<u16>) {
        let consistent = self.face_types.len() == self.face_group_sizes.len()
            && self
                .face_group_sizes
                .iter()
                .map(|&s| s as usize)
                .sum::<usize>()
                == self.faces.len();
        if !consistent {
            return (self.face_group_sizes.clone(), self.faces.clone());
        }
        let (mut sizes, mut faces, mut start) = (Vec::new(), Vec::new(), 0usize);
        for &s in &self.face_group_sizes {
            let keep = (s as usize).min(3);
            faces.extend_from_slice(&self.faces[start..start + keep]);
            sizes.push(keep as u32);
            start += s as usize;
        }
        (sizes, faces)
    }
}

/// `Groups <n> <total> { Matrices { a, b }, ... }`.
fn write_groups(out: &mut Out, g: &Geoset) {
    out.open(&format!(
        "Groups {} {}",
        g.matrix_group_sizes.len(),
        g.matrix_indices.len()
    ));
    let mut start = 0usize;
    for &size in &g.matrix_group_sizes {
        let end = (start + size as usize).min(g.matrix_indices.len());
        out.kv_ints(
            "Matrices",
            g.matrix_indices[start..end].iter().map(|&v| v as i64),
        );
        start = end;
    }
    out.close();
}

impl MdlRecord for Geoset {
    const BLOCK: &'static str = "Geoset";

    fn skeleton(&self) -> Option<Self> {
        use super::{exact_after_first, first};
        let ok = exact_after_first(&self.vertices)
            && exact_after_first(&self.normals)
            && self.uv_sets.iter().all(|uv| exact_after_first(uv))
            && self.tangents.as_ref().is_none_or(|t| exact_after_first(t));
        let (face_group_sizes, faces) = self.skeleton_faces();
        ok.then(|| Geoset {
            vertices: first(&self.vertices),
            normals: first(&self.normals),
            face_types: self.face_types.clone(),
            face_group_sizes,
            faces,
            vertex_groups: first(&self.vertex_groups),
            matrix_group_sizes: self.matrix_group_sizes.clone(),
            matrix_indices: self.matrix_indices.clone(),
            material_id: self.material_id,
            selection_group: self.selection_group,
            selection_flags: self.selection_flags,
            lod: self.lod,
            lod_name: self.lod_name.clone(),
            extent: self.extent,
            sequence_extents: self.sequence_extents.clone(),
            tangents: self.tangents.as_ref().map(|t| first(t)),
            skin: self.skin.as_ref().map(|w| w[..w.len().min(8)].to_vec()),
            skin_wide: self.skin_wide,
            uv_sets: self.uv_sets.iter().map(|uv| first(uv)).collect(),
            tail: self.tail.clone(),
        })
    }

    fn face_groups(&self) -> Option<Vec<(u32, u32)>> {
        let one = [(face_type::TRIANGLES, self.faces.len() as u32)];
        let groups: Vec<(u32, u32)> = self
            .face_types
            .iter()
            .copied()
            .zip(self.face_group_sizes.iter().copied())
            .collect();
        (one_triangle_block(self) && groups != one).then_some(groups)
    }

    fn set_face_groups(&mut self, groups: &[(u32, u32)]) {
        self.face_types = groups.iter().map(|g| g.0).collect();
        self.face_group_sizes = groups.iter().map(|g| g.1).collect();
    }

    fn read_mdl(cx: &mut Cx, i: usize) -> Self {
        let mut g = Geoset::default();
        for c in cx.children(i) {
            read_geoset_item(cx, c, &mut g);
        }
        g
    }

    fn write_mdl(&self, out: &mut Out, version: u32) {
        let reforged = version >= crate::spec::version::REFORGED;
        out.open(Self::BLOCK);
        write_float_rows(out, "Vertices", &self.vertices);
        if !self.normals.is_empty() {
            write_float_rows(out, "Normals", &self.normals);
        }
        for uv in &self.uv_sets {
            write_float_rows(out, "TVertices", uv);
        }
        write_vertex_groups(out, &self.vertex_groups);
        if reforged {
            if let Some(t) = &self.tangents {
                write_float_rows(out, "Tangents", t);
            }
            if let Some(s) = &self.skin {
                write_skin(out, s);
            }
        }
        write_faces(out, self);
        write_groups(out, self);
        write_extent(out, &self.extent);
        for e in &self.sequence_extents {
            out.open("Anim");
            write_extent(out, e);
            out.close();
        }
        out.kv_int("MaterialID", self.material_id as i64);
        out.kv_int("SelectionGroup", self.selection_group as i64);
        if self.selection_flags & UNSELECTABLE != 0 {
            out.flag("Unselectable");
        }
        if reforged {
            out.kv_int("LevelOfDetail", self.lod as i32 as i64);
            if !self.lod_name.as_bytes().is_empty() {
                out.kv_str("Name", &self.lod_name);
            }
        }
        out.close();
    }
}

/// Geoset animation track keywords.
const GEOSET_ANIM_TRACKS: &[(Tag, &str)] = &[(tk::KGAO, "Alpha"), (tk::KGAC, "Color")];

const GEOSET_ANIM_WORDS: &[&str] = &["DropShadow", "Alpha", "Color", "GeosetId"];

/// The `DropShadow` flag bit.
const DROP_SHADOW: u32 = geoset_animation_flags::DROP_SHADOW;

/// The color bit has no word: any `Color` (static or animated) sets it, as mdx-m3-viewer
/// reads it, and a `static Color` line is written whenever it is set without a color track.
/// In the corpus MDX files the bit is clear on all 734 records without a color track and
/// with a white color, and set on all 546 others (273 non-white, 233 white without a track,
/// 40 with a track); none has a track or a non-white color without it.
const USE_COLOR: u32 = geoset_animation_flags::USE_COLOR;

/// The value a geoset animation reads when its `Alpha` or `Color` line is absent.
const DEFAULT_ALPHA: f32 = 1.0;
const DEFAULT_COLOR: [f32; 3] = [1.0, 1.0, 1.0];

impl MdlRecord for GeosetAnimation {
    const BLOCK: &'static str = "GeosetAnim";

    fn skeleton(&self) -> Option<Self> {
        let mut s = self.clone();
        s.tracks = super::trimmed_tracks(&self.tracks)?;
        Some(s)
    }

    fn flags_mut(&mut self) -> Option<&mut u32> {
        Some(&mut self.flags)
    }

    fn read_mdl(cx: &mut Cx, i: usize) -> Self {
        let mut g = GeosetAnimation {
            alpha: DEFAULT_ALPHA,
            color: DEFAULT_COLOR,
            ..Default::default()
        };
        for c in cx.children(i) {
            let k = cx.key(c);
            if is(k, "DropShadow") {
                g.flags |= DROP_SHADOW;
            } else if read_record_track(cx, c, GEOSET_ANIM_TRACKS, &mut g.tracks) {
                if g.tracks.iter().any(|a| a.tag == tk::KGAC) {
                    g.flags |= USE_COLOR;
                }
            } else if is(k, "Alpha") {
                g.alpha = cx.f32_arg(c).unwrap_or(DEFAULT_ALPHA);
            } else if is(k, "Color") {
                g.color = mdl_color(cx.floats(c).unwrap_or(DEFAULT_COLOR));
                g.flags |= USE_COLOR;
            } else if is(k, "GeosetId") {
                g.geoset_id = cx.i32_arg(c, "GeosetId").unwrap_or(0);
            } else {
                cx.unknown(c, "GeosetAnim", GEOSET_ANIM_WORDS);
            }
        }
        g
    }

    fn write_mdl(&self, out: &mut Out, _version: u32) {
        out.open(Self::BLOCK);
        if self.flags & DROP_SHADOW != 0 {
            out.flag("DropShadow");
        }
        if self.alpha.to_bits() != DEFAULT_ALPHA.to_bits() {
            out.kv_f32("static Alpha", self.alpha);
        }
        let color_track = self.tracks.iter().any(|a| a.tag == tk::KGAC);
        if !same_bits(&self.color, &DEFAULT_COLOR) || (self.flags & USE_COLOR != 0 && !color_track)
        {
            out.kv_floats("static Color", &mdl_color(self.color));
        }
        out.kv_int("GeosetId", self.geoset_id as i64);
        write_tracks(out, &self.tracks, GEOSET_ANIM_TRACKS);
        out.close();
    }
}

#[cfg(test)]
#[path = "geoset_tests.rs"]
pub(crate) mod tests;
