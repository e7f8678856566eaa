//! The `MdlxExtension` block: what standard MDL cannot hold, kept so that MDX -> MDL -> MDX
//! gives back the same bytes. Written only when needed, at the top of the file in comment
//! lines marked `//@mdlx` (see [`finish`]); a visible block is read too. Its entries:
//!
//! ```text
//! // mdlx extension: data standard MDL cannot express, kept for an exact MDX rewrite.
//! MdlxExtension {
//!     Layout {
//!         Chunk "VERS" 1 "",          // tag, records, tail bytes (hex), tracks past the end
//!         Chunk "LITE" 1 "" 2,
//!         Unknown,                    // the next unknown chunk goes here
//!         Trailing "00ff",
//!     }
//!     Unknown "MDVI" "0a0b0c...",     // an unknown chunk: tag and payload (hex)
//!     Flags "Helper" 3 256,           // a record's flags word, where MDL words cannot say it
//!     FaceGroups 2 { 4, 300, 4, 600 }, // a geoset's face groups, (type, size) pairs
//!     Record "Bone" 3 "5c000000...",  // a record kept whole as MDX bytes (hex)
//! }
//! ```
//!
//! `FaceGroups`: a geoset whose faces are all triangles is written as one `Triangles`
//! block (the only form mdx-m3-viewer and war3-model read), which reads back as one group
//! of every index; when the MDX has other groups (several triangle groups, or none in a
//! geoset without faces), the entry gives them, applied after reading. Their sizes must
//! add up to the geoset's indices. `Flags` and `FaceGroups` are found while the record
//! check re-reads each record's text (with the groups put back) and a record is kept
//! whole (`Record`) only when they are not enough; it then needs neither.

use super::cx::{is, Cx};
use super::error::MdlErrorKind;
use super::out::Out;
use super::parse::AtomKind;
use crate::mdx::reader::Reader;
use crate::mdx::record::MdxRecord;
use crate::model::{LayoutEntry, Model, Tag, UnknownChunk};
use crate::Loss;

/// Puts the record of registry row `kind` decoded from `bytes` at `index`; false if the
/// kind is unknown, the index out of range or the bytes do not decode.
macro_rules! decode_kind {
    (($k:ident, $m:ident, $index:ident, $bytes:ident, $version:ident)
        $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident
        $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        match $k {
            $(k if k == $name.as_bytes() => put(
                &mut $m.$field,
                $index,
                decode_kind!(@value [$ty] $mdl $bytes $version),
            ),)*
            _ => false,
        }
    };
    (@value [$ty:ty] special $bytes:ident $version:ident) => { <$ty as Plain>::from_le(&$bytes) };
    (@value [$ty:ty] $mdl:ident $bytes:ident $version:ident) => {
        decode::<$ty>(&$bytes, $version)
    };
}

/// The flags word of the record of registry row `kind` at `index`: a node's, or the
/// record's own for rows marked `flags`.
macro_rules! flags_slot {
    (($k:ident, $m:ident, $index:ident)
        $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident
        $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        match $k {
            $(k if k == $name.as_bytes() => flags_slot!(@slot $m $field $index $node),)*
            _ => None,
        }
    };
    (@slot $m:ident $field:ident $index:ident node) => {
        $m.$field.get_mut($index).map(|x| &mut x.node.flags)
    };
    (@slot $m:ident $field:ident $index:ident flags) => {
        $m.$field.get_mut($index).map(|x| &mut x.flags)
    };
    (@slot $m:ident $field:ident $index:ident plain) => {
        None
    };
}

/// Values stored as plain little-endian numbers (global sequences, pivots, bind poses).
trait Plain: Sized {
    fn from_le(bytes: &[u8]) -> Option<Self>;
}

impl Plain for u32 {
    fn from_le(bytes: &[u8]) -> Option<Self> {
        Some(u32::from_le_bytes(bytes.try_into().ok()?))
    }
}

impl<const N: usize> Plain for [f32; N] {
    fn from_le(bytes: &[u8]) -> Option<Self> {
        plain::<N>(bytes)
    }
}

/// A record whose MDL text reads back identical except for its flags word.
pub(super) struct FlagsPatch {
    /// The record kind.
    pub kind: &'static str,
    /// Its index in the model's list.
    pub index: usize,
    /// The flags value to restore.
    pub flags: u32,
}

/// A geoset whose face groups the MDL text writes as one `Triangles` block (see
/// [`MdlRecord::face_groups`](super::records::MdlRecord::face_groups)).
pub(super) struct FaceGroupsPatch {
    /// The record kind (`Geoset`).
    pub kind: &'static str,
    /// Its index in the model's list.
    pub index: usize,
    /// Its face groups: (type, size) pairs.
    pub groups: Vec<(u32, u32)>,
}

/// What the records' MDL text could not hold, found while writing it.
pub(super) struct Kept {
    /// Records kept whole.
    pub residue: Vec<Residue>,
    /// Flags words.
    pub flags: Vec<FlagsPatch>,
    /// Face groups (also listed for records kept whole; those need no entry).
    pub face_groups: Vec<FaceGroupsPatch>,
}

/// A record whose MDL text does not read back to the same MDX bytes.
pub(super) struct Residue {
    /// The record kind (`Bone`, `Geoset`, ...).
    pub kind: &'static str,
    /// Its index in the model's list.
    pub index: usize,
    /// Its MDX bytes.
    pub bytes: Vec<u8>,
    /// What differs.
    pub detail: String,
}

fn hex(b: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        s.push(D[(x >> 4) as usize] as char);
        s.push(D[(x & 15) as usize] as char);
    }
    s
}

fn unhex(s: &[u8]) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    let v = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    s.chunks(2)
        .map(|p| Some(v(p[0])? << 4 | v(p[1])?))
        .collect()
}

fn exact(v: f32) -> bool {
    !v.is_nan() || v.to_bits() == f32::NAN.to_bits()
}

/// Adds the extension block (or, when strict, the list of losses) for what the standard
/// text could not hold.
pub(super) fn finish(out: &mut Out, m: &Model, kept: Kept, strict: bool, losses: &mut Vec<Loss>) {
    let Kept {
        mut residue,
        flags,
        mut face_groups,
    } = kept;
    plain_residue(m, &mut residue);
    let layout = m.layout.from_file
        && (m.layout.chunks != crate::mdx::conventional_layout(m) || !m.layout.trailing.is_empty());
    if strict {
        if layout {
            losses.push(Loss::new(
                "layout",
                "chunk order, chunk tails or trailing bytes of the MDX file",
            ));
        }
        for u in &m.unknown_chunks {
            losses.push(Loss::new(
                format!("unknown chunk {}", u.tag),
                format!("{} bytes", u.data.len()),
            ));
        }
        for f in &flags {
            let what = format!("flags {:#x} (bits standard MDL has no word for)", f.flags);
            losses.push(Loss::new(format!("{}[{}]", f.kind, f.index), what));
        }
        for g in &face_groups {
            let what = format!(
                "{} face groups (standard MDL holds one Triangles group)",
                g.groups.len()
            );
            losses.push(Loss::new(format!("{}[{}]", g.kind, g.index), what));
        }
        for r in residue {
            losses.push(Loss::new(format!("{}[{}]", r.kind, r.index), r.detail));
        }
        return;
    }
    // A record kept whole needs no more.
    face_groups.retain(|g| {
        !residue
            .iter()
            .any(|r| r.kind == g.kind && r.index == g.index)
    });
    if !layout
        && m.unknown_chunks.is_empty()
        && residue.is_empty()
        && flags.is_empty()
        && face_groups.is_empty()
    {
        return;
    }
    // The block goes in comment lines of a marked form ([`HIDDEN`]): every MDL reader skips
    // them (mdx-m3-viewer, war3-model and Magos-style readers all take `//` to the end of
    // the line as a comment), and ours reads them back. They go at the top of the file:
    // war3-model fails on a file that ends in a comment line (it looks for another one past
    // the end). A visible `MdlxExtension` block, as earlier versions wrote it, is still read.
    let outer = std::mem::replace(out, Out::with_capacity(4096));
    write_block(out, m, layout, &flags, &face_groups, &residue);
    let block = std::mem::replace(out, outer);
    let mut head =
        b"// mdlx extension: data standard MDL cannot express, kept for an exact MDX rewrite.\n"
            .to_vec();
    for line in block.buf.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        head.extend_from_slice(HIDDEN);
        head.push(b' ');
        head.extend_from_slice(line);
        head.push(b'\n');
    }
    out.buf.splice(0..0, head);
}

/// The mark of a comment line that holds the extension block: `//@mdlx ` then a line of it.
pub(super) const HIDDEN: &[u8] = b"//@mdlx";

/// Writes the `MdlxExtension` block.
fn write_block(
    out: &mut Out,
    m: &Model,
    layout: bool,
    flags: &[FlagsPatch],
    face_groups: &[FaceGroupsPatch],
    residue: &[Residue],
) {
    out.open("MdlxExtension");
    if layout {
        write_layout(out, m);
    }
    for u in &m.unknown_chunks {
        out.indent();
        out.raw(&format!(
            "Unknown \"{}\" \"{}\",\n",
            hex(&u.tag.0),
            hex(&u.data)
        ));
    }
    for f in flags {
        out.indent();
        out.raw(&format!("Flags \"{}\" {} {},\n", f.kind, f.index, f.flags));
    }
    for g in face_groups {
        out.kv_ints(
            &format!("FaceGroups {}", g.index),
            g.groups.iter().flat_map(|&(t, n)| [t as i64, n as i64]),
        );
    }
    for r in residue {
        out.indent();
        out.raw(&format!("// {}\n", r.detail.replace('\n', " ")));
        out.indent();
        out.raw(&format!(
            "Record \"{}\" {} \"{}\",\n",
            r.kind,
            r.index,
            hex(&r.bytes)
        ));
    }
    out.close();
}

/// Pivot points and bind poses are plain numbers: only a NaN payload can be lost.
fn plain_residue(m: &Model, residue: &mut Vec<Residue>) {
    for (index, p) in m.pivot_points.iter().enumerate() {
        if !p.iter().all(|&v| exact(v)) {
            let bytes = p.iter().flat_map(|v| v.to_bits().to_le_bytes()).collect();
            residue.push(Residue {
                kind: "PivotPoint",
                index,
                bytes,
                detail: "a NaN payload".into(),
            });
        }
    }
    for (index, p) in m.bind_poses.iter().enumerate() {
        if !p.iter().all(|&v| exact(v)) {
            let bytes = p.iter().flat_map(|v| v.to_bits().to_le_bytes()).collect();
            residue.push(Residue {
                kind: "BindPose",
                index,
                bytes,
                detail: "a NaN payload".into(),
            });
        }
    }
}

fn write_layout(out: &mut Out, m: &Model) {
    out.open("Layout");
    for e in &m.layout.chunks {
        out.indent();
        match e {
            LayoutEntry::Known {
                tag,
                records,
                tail,
                overflow_tracks,
            } => {
                out.raw(&format!(
                    "Chunk \"{}\" {records} \"{}\" {overflow_tracks},\n",
                    hex(&tag.0),
                    hex(tail)
                ));
            }
            LayoutEntry::Unknown => out.raw("Unknown,\n"),
        }
    }
    if !m.layout.trailing.is_empty() {
        out.indent();
        out.raw(&format!("Trailing \"{}\",\n", hex(&m.layout.trailing)));
    }
    out.close();
}

/// The string atoms of item `c` decoded from hex, and its integer atoms.
fn atoms(cx: &mut Cx, c: usize) -> Option<(Vec<Vec<u8>>, Vec<i64>)> {
    let t = cx.t;
    let (mut strs, mut ints) = (Vec::new(), Vec::new());
    for a in cx.args(c) {
        match a.kind {
            AtomKind::Str => match unhex(t.text(a)) {
                Some(b) => strs.push(b),
                None => {
                    cx.error_at(
                        a,
                        MdlErrorKind::Expected {
                            expected: "hexadecimal bytes".into(),
                            found: "other text".into(),
                        },
                    );
                    return None;
                }
            },
            _ => ints.push(cx.atom_int(a, c, 0, u32::MAX as i64, "an extension value")?),
        }
    }
    Some((strs, ints))
}

fn tag_of(b: &[u8]) -> Option<Tag> {
    (b.len() == 4).then(|| Tag([b[0], b[1], b[2], b[3]]))
}

/// Applies an `MdlxExtension` block to the model that the standard blocks produced.
pub(super) fn read(cx: &mut Cx, i: usize, m: &mut Model) {
    let t = cx.t;
    for c in t.children(i) {
        let k = cx.key(c);
        if is(k, "Layout") {
            read_layout(cx, c, m);
        } else if is(k, "Unknown") {
            if let Some((s, _)) = atoms(cx, c) {
                match (s.first().and_then(|b| tag_of(b)), s.get(1)) {
                    (Some(tag), Some(data)) => m.unknown_chunks.push(UnknownChunk {
                        tag,
                        data: data.clone(),
                    }),
                    _ => cx.error(
                        c,
                        MdlErrorKind::Expected {
                            expected: "`Unknown \"tag\" \"bytes\"`".into(),
                            found: cx.describe(c),
                        },
                    ),
                }
            }
        } else if is(k, "Record") {
            read_record(cx, c, m);
        } else if is(k, "Flags") {
            read_flags(cx, c, m);
        } else if is(k, "FaceGroups") {
            read_face_groups(cx, c, m);
        } else {
            cx.unknown(
                c,
                "MdlxExtension",
                &["Layout", "Unknown", "Flags", "FaceGroups", "Record"],
            );
        }
    }
}

fn read_layout(cx: &mut Cx, i: usize, m: &mut Model) {
    let t = cx.t;
    m.layout.from_file = true;
    for c in t.children(i) {
        let k = cx.key(c);
        if is(k, "Unknown") {
            m.layout.chunks.push(LayoutEntry::Unknown);
        } else if is(k, "Trailing") {
            if let Some((s, _)) = atoms(cx, c) {
                m.layout.trailing = s.into_iter().next().unwrap_or_default();
            }
        } else if is(k, "Chunk") {
            let Some((s, n)) = atoms(cx, c) else { continue };
            match (s.first().and_then(|b| tag_of(b)), n.first()) {
                (Some(tag), Some(&records)) => m.layout.chunks.push(LayoutEntry::Known {
                    tag,
                    records: records as usize,
                    tail: s.get(1).cloned().unwrap_or_default(),
                    overflow_tracks: n.get(1).copied().unwrap_or(0) as usize,
                }),
                _ => cx.error(
                    c,
                    MdlErrorKind::Expected {
                        expected: "`Chunk \"tag\" records \"tail\" overflow`".into(),
                        found: cx.describe(c),
                    },
                ),
            }
        } else {
            cx.unknown(c, "Layout", &["Chunk", "Unknown", "Trailing"]);
        }
    }
}

fn read_record(cx: &mut Cx, c: usize, m: &mut Model) {
    let args = cx.args(c);
    let kind = match args.first() {
        Some(a) if a.kind == AtomKind::Str => cx.t.text(a).to_vec(),
        _ => {
            cx.error(
                c,
                MdlErrorKind::Expected {
                    expected: "`Record \"kind\" index \"bytes\"`".into(),
                    found: cx.describe(c),
                },
            );
            return;
        }
    };
    let index = match args.get(1).copied() {
        Some(a) => match cx.atom_int(&a, c, 0, u32::MAX as i64, "a record index") {
            Some(v) => v as usize,
            None => return,
        },
        None => return,
    };
    let bytes = match args.get(2) {
        Some(a) if a.kind == AtomKind::Str => match unhex(cx.t.text(a)) {
            Some(b) => b,
            None => {
                return cx.error(
                    c,
                    MdlErrorKind::Expected {
                        expected: "hexadecimal bytes".into(),
                        found: "other text".into(),
                    },
                )
            }
        },
        _ => {
            return cx.error(
                c,
                MdlErrorKind::Expected {
                    expected: "the record bytes".into(),
                    found: cx.describe(c),
                },
            )
        }
    };
    let version = m.version;
    let ok = match kind.as_slice() {
        b"ModelInfo" if index == 0 => decode(&bytes, version).map(|v| m.info = v).is_some(),
        k => crate::model::for_each_kind!(decode_kind!(k, m, index, bytes, version)),
    };
    if !ok {
        let what = String::from_utf8_lossy(&kind);
        cx.error(c, MdlErrorKind::Note(format!("extension record {what} {index} does not fit this model or its bytes do not decode")));
    }
}

fn decode<T: MdxRecord>(bytes: &[u8], version: u32) -> Option<T> {
    let mut r = Reader::new(bytes);
    let v = T::read_mdx(&mut r, version).ok()?;
    r.is_empty().then_some(v)
}

fn plain<const N: usize>(bytes: &[u8]) -> Option<[f32; N]> {
    (bytes.len() == 4 * N).then(|| {
        std::array::from_fn(|i| {
            f32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"))
        })
    })
}

fn put<T>(list: &mut [T], index: usize, v: Option<T>) -> bool {
    match (list.get_mut(index), v) {
        (Some(slot), Some(v)) => {
            *slot = v;
            true
        }
        _ => false,
    }
}

fn read_flags(cx: &mut Cx, c: usize, m: &mut Model) {
    let args = cx.args(c);
    let (Some(kind), Some(index), Some(value)) = (
        args.first().copied(),
        args.get(1).copied(),
        args.get(2).copied(),
    ) else {
        return cx.error(
            c,
            MdlErrorKind::Expected {
                expected: "`Flags \"kind\" index value`".into(),
                found: cx.describe(c),
            },
        );
    };
    let kind = cx.t.text(&kind).to_vec();
    let (Some(index), Some(value)) = (
        cx.atom_int(&index, c, 0, u32::MAX as i64, "a record index"),
        cx.atom_int(&value, c, 0, u32::MAX as i64, "a flags value"),
    ) else {
        return;
    };
    let (index, value) = (index as usize, value as u32);
    let k = kind.as_slice();
    let slot: Option<&mut u32> = crate::model::for_each_kind!(flags_slot!(k, m, index));
    match slot {
        Some(f) => *f = value,
        None => cx.error(
            c,
            MdlErrorKind::Note(format!(
                "extension flags for {} {index} do not fit this model",
                String::from_utf8_lossy(&kind)
            )),
        ),
    }
}

/// `FaceGroups <geoset index> { type, size, type, size, ... },`: the geoset's face groups,
/// whose sizes must add up to its indices.
fn read_face_groups(cx: &mut Cx, c: usize, m: &mut Model) {
    let index = match cx.args(c).first().copied() {
        Some(a) if a.kind == AtomKind::Number && cx.has_body(c) => {
            match cx.atom_int(&a, c, 0, u32::MAX as i64, "a geoset index") {
                Some(v) => v as usize,
                None => return,
            }
        }
        _ => {
            return cx.error(
                c,
                MdlErrorKind::Expected {
                    expected: "`FaceGroups index { type, size, ... }`".into(),
                    found: cx.describe(c),
                },
            )
        }
    };
    let before = cx.diags.len();
    let values = cx.int_list(c, 0, u32::MAX as i64, "a face type or group size");
    if cx.diags.len() > before {
        return;
    }
    let note = |what: String| MdlErrorKind::Note(format!("extension face groups: {what}"));
    if values.len() % 2 != 0 {
        let what = format!("{} values, not (type, size) pairs", values.len());
        return cx.error(c, note(what));
    }
    let geosets = m.geosets.len();
    let Some(g) = m.geosets.get_mut(index) else {
        let what = format!("geoset {index} does not exist (the model has {geosets})");
        return cx.error(c, note(what));
    };
    let groups: Vec<(u32, u32)> = values
        .chunks(2)
        .map(|p| (p[0] as u32, p[1] as u32))
        .collect();
    let sum: u64 = groups.iter().map(|g| g.1 as u64).sum();
    if sum != g.faces.len() as u64 {
        let what = format!(
            "the group sizes add up to {sum}, geoset {index} has {} indices",
            g.faces.len()
        );
        return cx.error(c, note(what));
    }
    use super::records::MdlRecord;
    g.set_face_groups(&groups);
}

#[cfg(test)]
#[path = "extension_tests.rs"]
mod tests;
