//! Which family an MDX file belongs to: Warcraft III (classic or Reforged) or the WoW
//! alpha clients. The version numbers 1300, 1400 and 1500 exist in both, with different
//! layouts of many chunks, so for those the chunks themselves are weighed.
//!
//! ## The evidence
//! Every top-level chunk whose layout differs between the families is checked against
//! both layouts using only its framing: its size, the counts and sizes that divide it into
//! records, and the tags of geoset sub-chunks. Nothing is decoded and nothing is
//! allocated; each check walks the chunk once. The facts used:
//!
//! | chunk | Warcraft III | alpha |
//! |---|---|---|
//! | MODL | 372 bytes | 373 bytes |
//! | SEQS | 132-byte records | count, 140-byte records |
//! | MTLS | size-framed materials | count, an unused word, size-framed materials |
//! | TXAN, GEOA | size-framed records | count, size-framed records |
//! | GEOS | size-framed geosets starting `VRTX NRMS PTYP` | 1300/1400: count, size-framed geosets starting `VRTX NRMS UVAS`; 1500: count, 64-byte headers (`PVTX PTYP PVTX` counts), then the batches those counts size |
//! | BONE, HELP | node records (node, then 8 or 0 bytes) | count, node records |
//! | EVTS | node records, each with an optional `KEVT` track | count, size-framed records holding a node |
//! | CLID | node records, each with a shape type and its numbers | a mesh: `VRTX`, `TRI `, `NRMS` |
//! | LITE, ATCH, PREM, PRE2, RIBB | size-framed records holding a node | count (ATCH: and an unused word), size-framed records holding a node |
//! | CAMS | size-framed records (at 1200 and later the size word's top byte is a variant number, so only its low 24 bits are the size) | count, size-framed records |
//! | HTST | (no such chunk) | count, size-framed records holding a node |
//! | CORN, FAFX, BPOS | size-framed node records; 340-byte records; count and 48-byte matrices | (no such chunks) |
//!
//! Warcraft III records must fill their chunk exactly: its readers refuse a remainder
//! after size-framed records, and a remainder after 132-byte sequences would let every
//! SEQS chunk fit. After the counted records of the alpha layouts bytes may remain, as
//! the alpha reader keeps them (the chunk's tail). MODL must have its exact size. (So a
//! Warcraft III SEQS whose first name starts with four zero bytes also reads as an alpha
//! count of 0 and a tail, and tells nothing.) The fields inside Warcraft III records, which grow with the version (lights at
//! 1200/1300/1600, for instance), are never looked at: only sizes that frame them, which
//! every Warcraft III version shares. Chunks laid out alike in both families (VERS, GLBS,
//! TEXS, PIVT) and tags neither family knows tell nothing.
//!
//! ## The decision
//! A chunk may fit one layout, both (then it tells nothing) or neither. For versions
//! 1300-1500:
//! - only alpha evidence: the alpha family;
//! - only Warcraft III evidence, or no chunk that tells: Warcraft III (Reforged). Reforged
//!   is the default because those version numbers are still being written by Warcraft III
//!   tools, and a file holding only chunks laid out alike (a bare VERS and TEXS) reads the
//!   same with either reader;
//! - a chunk that fits neither layout, or one chunk that fits only the alpha layout and
//!   another that fits only Warcraft III's: refused with
//!   [`MdxErrorKind::FamilyUnclear`], naming the chunks and their byte offsets.
//!
//! Other versions are decided by number ([`Family::of_version`]). The walk follows the
//! declared chunk sizes and stops at a chunk that runs past the end of the file (the
//! readers report that one).

use super::error::{MdxError, MdxErrorKind};
use crate::model::{Family, Tag};
use crate::spec::chunk;
use crate::spec::sub::{KEVT, NRMS, PTYP, PVTX, UVAS, VRTX};

/// Which layouts a chunk's bytes fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fit {
    Warcraft,
    Alpha,
    Both,
    Neither,
}

impl Fit {
    fn of(warcraft: bool, alpha: bool) -> Fit {
        match (warcraft, alpha) {
            (true, true) => Fit::Both,
            (true, false) => Fit::Warcraft,
            (false, true) => Fit::Alpha,
            (false, false) => Fit::Neither,
        }
    }
}

/// One chunk that tells something: where it is and what it fits.
#[derive(Clone, Copy)]
struct Evidence<'a> {
    tag: Tag,
    /// Offset of the chunk's tag in the file.
    at: usize,
    payload: &'a [u8],
    fit: Fit,
}

fn u32_at(p: &[u8], at: usize) -> Option<u32> {
    let b = p.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn tag_at(p: &[u8], at: usize) -> Option<Tag> {
    let b = p.get(at..at.checked_add(4)?)?;
    Some(Tag([b[0], b[1], b[2], b[3]]))
}

/// `count × each` bytes, if that is a size at all.
fn times(count: u32, each: usize) -> Option<usize> {
    (count as usize).checked_mul(each)
}

/// Walks records from `at` on: `count` of them, after which bytes may remain (the alpha
/// readers keep them as the chunk's tail), or when `None` as many as fill `p` exactly.
/// Each is as long as `step` says (given the bytes from the record on; at least 1). The
/// number of records when they frame.
fn walk(
    p: &[u8],
    mut at: usize,
    count: Option<u32>,
    step: impl Fn(&[u8]) -> Option<usize>,
) -> Option<u32> {
    let mut n = 0u32;
    loop {
        match count {
            Some(c) if n == c => return (at <= p.len()).then_some(n),
            None if at == p.len() => return Some(n),
            _ => {}
        }
        let len = step(p.get(at..)?)?;
        if len == 0 {
            return None;
        }
        at = at.checked_add(len)?;
        n = n.checked_add(1)?;
    }
}

/// A record framed by an inclusive size (masked by `mask`) of at least `min` bytes.
fn sized(r: &[u8], min: usize, mask: u32) -> Option<usize> {
    let s = (u32_at(r, 0)? & mask) as usize;
    (s >= min.max(4) && s <= r.len()).then_some(s)
}

/// A node (`inclusive size, name, ids, flags, tracks`) at the start of `r`: its size.
fn node(r: &[u8]) -> Option<usize> {
    sized(r, 96, u32::MAX)
}

/// A size-framed record of at least `min` bytes whose body starts with a node.
fn sized_node(r: &[u8], min: usize) -> Option<usize> {
    let s = sized(r, min.max(4 + 96), u32::MAX)?;
    let n = node(r.get(4..s)?)?;
    (4 + n <= s).then_some(s)
}

/// A node followed by `extra` bytes (Warcraft III bones and helpers).
fn node_then(r: &[u8], extra: usize) -> Option<usize> {
    let len = node(r)?.checked_add(extra)?;
    (len <= r.len()).then_some(len)
}

/// A Warcraft III event object: a node, then an optional `KEVT count, global id, times`.
fn wc3_event(r: &[u8]) -> Option<usize> {
    let n = node(r)?;
    if tag_at(r, n) != Some(KEVT) {
        return Some(n);
    }
    let len = n
        .checked_add(12)?
        .checked_add(times(u32_at(r, n + 4)?, 4)?)?;
    (len <= r.len()).then_some(len)
}

/// A Warcraft III collision shape: a node, a shape type and that type's numbers.
fn wc3_collision(r: &[u8]) -> Option<usize> {
    let n = node(r)?;
    let data = match u32_at(r, n)? {
        0 | 1 => 24,
        2 => 16,
        3 => 28,
        _ => return None,
    };
    let len = n + 4 + data;
    (len <= r.len()).then_some(len)
}

/// `tag, count, count × each` at `at` inside `r`: the offset after it.
fn tagged(r: &[u8], at: usize, tag: Tag, each: usize) -> Option<usize> {
    if tag_at(r, at)? != tag {
        return None;
    }
    let end = at
        .checked_add(8)?
        .checked_add(times(u32_at(r, at + 4)?, each)?)?;
    (end <= r.len()).then_some(end)
}

/// A size-framed geoset whose first sub-chunks are `VRTX NRMS third`.
fn geoset(r: &[u8], third: Tag) -> Option<usize> {
    let s = sized(r, 4, u32::MAX)?;
    let g = &r[..s];
    let at = tagged(g, 4, VRTX, 12)?;
    let at = tagged(g, at, NRMS, 12)?;
    tag_at(g, at).filter(|&t| t == third)?;
    Some(s)
}

/// The alpha 1500 GEOS payload: count, headers, batches, exactly.
fn alpha_batched(p: &[u8]) -> Option<u32> {
    let n = u32_at(p, 0)?;
    let heads = 4usize.checked_add(times(n, 64)?)?;
    if heads > p.len() {
        return None;
    }
    let mut at = heads;
    for i in 0..n as usize {
        let h = &p[4 + i * 64..4 + (i + 1) * 64];
        let count = |off: usize, tag: Tag| (tag_at(h, off)? == tag).then(|| u32_at(h, off + 4))?;
        let (vertices, types, indices) = (count(32, PVTX)?, count(40, PTYP)?, count(48, PVTX)?);
        let pad = (8 - indices as usize % 8) % 8;
        let before_indices = at
            .checked_add(times(vertices, 48)?)?
            .checked_add(times(types, 4)?)?
            .checked_add(4)?;
        // The batch repeats the index count; whether it agrees is the reader's to say.
        at = before_indices
            .checked_add(8)?
            .checked_add(times(indices, 2)?)?
            .checked_add(pad * 2)?;
        if at > p.len() {
            return None;
        }
    }
    (at <= p.len()).then_some(n)
}

/// The alpha CLID payload: `VRTX`, `TRI `, `NRMS`, then perhaps a tail.
fn alpha_collision(p: &[u8]) -> bool {
    let at = tagged(p, 0, VRTX, 12);
    let at = at.and_then(|at| tagged(p, at, crate::spec::alpha::TRI, 2));
    let at = at.and_then(|at| tagged(p, at, NRMS, 12));
    at.is_some()
}

/// A count at the start of `p`, then `skip` more bytes, then that many records.
fn counted(p: &[u8], skip: usize, step: impl Fn(&[u8]) -> Option<usize>) -> bool {
    u32_at(p, 0).is_some_and(|n| walk(p, 4 + skip, Some(n), step).is_some())
}

/// Records from the start of `p` to its end.
fn uncounted(p: &[u8], step: impl Fn(&[u8]) -> Option<usize>) -> bool {
    walk(p, 0, None, step).is_some()
}

/// What chunk `tag` with payload `p` fits in a file of `version`; `None` for chunks laid
/// out alike in both families (or unknown to both).
fn judge(tag: Tag, p: &[u8], version: u32) -> Option<Fit> {
    let camera_mask = if version >= crate::spec::version::CAMERA_LAYOUT {
        0x00FF_FFFF
    } else {
        u32::MAX
    };
    let both = |wc3: &dyn Fn(&[u8]) -> Option<usize>,
                alpha: &dyn Fn(&[u8]) -> Option<usize>,
                skip: usize| { Fit::of(uncounted(p, wc3), counted(p, skip, alpha)) };
    Some(match tag {
        chunk::MODL => Fit::of(p.len() == 372, p.len() == 373),
        chunk::SEQS => Fit::of(
            p.len() % 132 == 0,
            u32_at(p, 0)
                .and_then(|n| times(n, 140)?.checked_add(4))
                .is_some_and(|len| len <= p.len()),
        ),
        chunk::MTLS => both(&|r| sized(r, 20, u32::MAX), &|r| sized(r, 12, u32::MAX), 4),
        chunk::TXAN => both(&|r| sized(r, 4, u32::MAX), &|r| sized(r, 4, u32::MAX), 0),
        chunk::GEOA => both(&|r| sized(r, 28, u32::MAX), &|r| sized(r, 28, u32::MAX), 0),
        chunk::GEOS => {
            let wc3 = uncounted(p, |r| geoset(r, PTYP));
            let alpha = if version >= crate::spec::alpha::BATCHED_GEOSETS {
                alpha_batched(p).is_some()
            } else {
                counted(p, 0, |r| geoset(r, UVAS))
            };
            Fit::of(wc3, alpha)
        }
        chunk::BONE => both(&|r| node_then(r, 8), &|r| node_then(r, 8), 0),
        chunk::HELP => both(&node, &node, 0),
        chunk::EVTS => both(&wc3_event, &|r| sized_node(r, 4 + 96), 0),
        chunk::CLID => Fit::of(uncounted(p, wc3_collision), alpha_collision(p)),
        chunk::LITE => both(&|r| sized_node(r, 0), &|r| sized_node(r, 4 + 96 + 44), 0),
        chunk::ATCH => both(
            &|r| sized_node(r, 0),
            &|r| sized_node(r, 4 + 96 + 5 + 260),
            4,
        ),
        chunk::PREM => both(
            &|r| sized_node(r, 0),
            &|r| sized_node(r, 4 + 96 + 24 + 260),
            0,
        ),
        chunk::PRE2 => both(&|r| sized_node(r, 0), &|r| sized_node(r, 4 + 96 + 795), 0),
        chunk::RIBB => both(&|r| sized_node(r, 0), &|r| sized_node(r, 4 + 96 + 56), 0),
        chunk::CAMS => both(
            &|r| sized(r, 120, camera_mask),
            &|r| sized(r, 120, u32::MAX),
            0,
        ),
        chunk::HTST => Fit::of(false, counted(p, 0, |r| sized_node(r, 4 + 96 + 1))),
        chunk::CORN => Fit::of(uncounted(p, |r| sized_node(r, 0)), false),
        chunk::FAFX => Fit::of(p.len() % 340 == 0, false),
        chunk::BPOS => Fit::of(
            u32_at(p, 0).and_then(|n| times(n, 48)?.checked_add(4)) == Some(p.len()),
            false,
        ),
        _ => return None,
    })
}

/// Records a layout divides a chunk into, for messages.
fn records(tag: Tag, p: &[u8], version: u32, alpha: bool) -> u32 {
    let counted = matches!(
        tag,
        chunk::SEQS
            | chunk::MTLS
            | chunk::TXAN
            | chunk::GEOA
            | chunk::GEOS
            | chunk::BONE
            | chunk::HELP
            | chunk::EVTS
            | chunk::LITE
            | chunk::ATCH
            | chunk::PREM
            | chunk::PRE2
            | chunk::RIBB
            | chunk::CAMS
            | chunk::HTST
            | chunk::BPOS
    );
    if alpha || tag == chunk::BPOS {
        return if counted {
            u32_at(p, 0).unwrap_or(0)
        } else {
            0
        };
    }
    let step = |r: &[u8]| -> Option<usize> {
        match tag {
            chunk::SEQS => Some(132).filter(|&n| n <= r.len()),
            chunk::FAFX => Some(340).filter(|&n| n <= r.len()),
            chunk::GEOS => geoset(r, PTYP),
            chunk::BONE => node_then(r, 8),
            chunk::HELP => node(r),
            chunk::EVTS => wc3_event(r),
            chunk::CLID => wc3_collision(r),
            chunk::CAMS if version >= crate::spec::version::CAMERA_LAYOUT => {
                sized(r, 120, 0x00FF_FFFF)
            }
            _ => sized(r, 4, u32::MAX),
        }
    };
    walk(p, 0, None, step).unwrap_or(0)
}

fn plural(n: u32, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// How evidence `e` reads, after "`TAG` at 0x..": "has the alpha size 373".
fn describe(e: &Evidence, version: u32) -> String {
    let (tag, p) = (e.tag, e.payload);
    let size = p.len();
    match (e.fit, tag) {
        (Fit::Alpha, chunk::MODL) => "has the alpha size 373".into(),
        (Fit::Warcraft, chunk::MODL) => "has the Warcraft III size 372".into(),
        (Fit::Neither, chunk::MODL) => {
            format!("has size {size}, neither Warcraft III's 372 nor the alpha 373")
        }
        (Fit::Alpha, chunk::SEQS) => format!(
            "has a count and {}, as alpha files do",
            plural(records(tag, p, version, true), "140-byte record")
        ),
        (Fit::Warcraft, chunk::SEQS) => format!(
            "has Warcraft III 132-byte records ({} of them, no count)",
            size / 132
        ),
        (Fit::Alpha, chunk::HTST) => {
            "is a hit-test shape chunk, which only alpha files have".into()
        }
        (Fit::Warcraft, chunk::CORN | chunk::FAFX | chunk::BPOS) => {
            "is a chunk only Warcraft III files have".into()
        }
        (Fit::Alpha, chunk::CLID) => "holds an alpha collision mesh (VRTX, TRI , NRMS)".into(),
        (Fit::Warcraft, chunk::CLID) => format!(
            "holds Warcraft III collision shapes ({})",
            plural(records(tag, p, version, false), "node")
        ),
        (Fit::Alpha, chunk::GEOS) if version >= crate::spec::alpha::BATCHED_GEOSETS => format!(
            "has a count and {} with their batches, as alpha 1500 files do",
            plural(records(tag, p, version, true), "64-byte geoset header")
        ),
        (Fit::Alpha, chunk::GEOS) => format!(
            "has a count and {} starting VRTX NRMS UVAS, as alpha files do",
            plural(records(tag, p, version, true), "geoset")
        ),
        (Fit::Warcraft, chunk::GEOS) => format!(
            "has Warcraft III geosets starting VRTX NRMS PTYP ({}, no count)",
            records(tag, p, version, false)
        ),
        (Fit::Alpha, chunk::MTLS | chunk::ATCH) => format!(
            "has a count, an unused word and {}, as alpha files do",
            plural(records(tag, p, version, true), "record")
        ),
        (Fit::Alpha, _) => format!(
            "has a count before its {}, as alpha files do",
            plural(records(tag, p, version, true), "record")
        ),
        (Fit::Warcraft, _) => format!(
            "has Warcraft III records with no count ({})",
            records(tag, p, version, false)
        ),
        (Fit::Neither | Fit::Both, chunk::HTST) => format!(
            "is a hit-test shape chunk (alpha only) whose {size} bytes are not a count and its records"
        ),
        (Fit::Neither | Fit::Both, chunk::CORN | chunk::FAFX | chunk::BPOS) => format!(
            "is a Warcraft III-only chunk whose {size} bytes do not frame its records"
        ),
        (Fit::Neither | Fit::Both, _) => match u32_at(p, 0) {
            Some(count) if tag != chunk::CLID => format!(
                "fits neither family: its {size} bytes are neither Warcraft III records \
                 without a count nor a count ({count}) and that many alpha records"
            ),
            _ => format!(
                "fits neither family: its {size} bytes frame neither Warcraft III records \
                 nor alpha ones"
            ),
        },
    }
}

fn place(e: &Evidence) -> String {
    format!("{} at {:#x}", e.tag.text(), e.at)
}

/// Tells the Warcraft III families from the WoW alpha family (see the [module
/// docs](self)): the family, or why the chunks of a 1300-1500 file contradict each other
/// or fit neither layout ([`MdxErrorKind::FamilyUnclear`], at the offset of the chunk
/// that settles it). A file that does not start with `MDLX` is Warcraft III's (classic):
/// the readers report the bad magic.
pub fn classify_family(data: &[u8]) -> Result<Family, MdxError> {
    if !data.starts_with(b"MDLX") {
        return Ok(Family::Classic);
    }
    let Some(version) = first_version(data) else {
        return Ok(Family::of_version(800));
    };
    if !(1300..=1500).contains(&version) {
        return Ok(Family::of_version(version));
    }
    let (mut alpha, mut wc3, mut neither) = (None, None, None);
    for (tag, at, payload) in chunks(data) {
        let Some(fit) = judge(tag, payload, version) else {
            continue;
        };
        let e = Evidence {
            tag,
            at,
            payload,
            fit,
        };
        match fit {
            Fit::Alpha => alpha = alpha.or(Some(e)),
            Fit::Warcraft => wc3 = wc3.or(Some(e)),
            Fit::Neither => {
                neither = Some(e);
                break;
            }
            Fit::Both => {}
        }
    }
    let unclear = |reason: String, at: usize| {
        MdxError::new(MdxErrorKind::FamilyUnclear { version, reason }, at as u64)
    };
    if let Some(e) = neither {
        return Err(unclear(
            format!("{} {}", place(&e), describe(&e, version)),
            e.at,
        ));
    }
    match (alpha, wc3) {
        (Some(a), Some(w)) => {
            let (first, second) = if a.at < w.at { (a, w) } else { (w, a) };
            Err(unclear(
                format!(
                    "{} {} but {} {}",
                    place(&first),
                    describe(&first, version),
                    place(&second),
                    describe(&second, version)
                ),
                second.at,
            ))
        }
        (Some(_), None) => Ok(Family::WowAlpha),
        _ => Ok(Family::of_version(version)),
    }
}

/// The family [`classify_family`] tells, or for a file it refuses, the Warcraft III family
/// of its version number (whose reader then refuses it with the same reason).
pub fn detect_family(data: &[u8]) -> Family {
    classify_family(data).unwrap_or_else(|_| Family::of_version(first_version(data).unwrap_or(800)))
}

/// The top-level chunks as `(tag, offset of the tag, payload)`, following the declared
/// sizes; stops at a chunk that runs past the end.
fn chunks(data: &[u8]) -> impl Iterator<Item = (Tag, usize, &[u8])> + '_ {
    let mut at = 4usize;
    std::iter::from_fn(move || {
        let tag = tag_at(data, at)?;
        let size = u32_at(data, at + 4)? as usize;
        let start = at + 8;
        let payload = data.get(start..start.checked_add(size)?)?;
        let here = at;
        at = start + size;
        Some((tag, here, payload))
    })
}

/// The value of the first VERS chunk.
fn first_version(data: &[u8]) -> Option<u32> {
    chunks(data)
        .find(|(tag, _, _)| *tag == chunk::VERS)
        .and_then(|(_, _, p)| u32_at(p, 0))
}

#[cfg(test)]
#[path = "family_tests.rs"]
mod tests;
