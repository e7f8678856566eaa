//! The top level of an MDX file: `MDLX`, then `[tag][size][payload]` chunks in any order.
//! Known chunks are decoded into the model's lists; unknown chunks are kept in place.

use super::error::{MdxError, MdxErrorKind, MdxResult};
use super::reader::{scoped, Reader};
use super::record::{read_all, write_all, MdxRecord};
use super::tracks::{read_any, write_any};
use super::writer::Writer;
use crate::model::{Family, LayoutEntry, Model, ModelInfo, Tag, Tracks, UnknownChunk};
use crate::spec::{chunk, track_kind};

/// The largest chunk size that a cut-off file is taken to explain (256 MiB: the corpus's
/// largest model file is 4 MB); past it, a size that runs past the end of the file is a
/// damaged field, not a shortened file.
const PLAUSIBLE_CHUNK: u32 = 1 << 28;

/// How a chunk's payload is divided into records.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Records of a fixed size back to back; a shorter remainder is kept as the chunk tail.
    Fixed(usize),
    /// A `u32` count, then fixed-size records.
    Counted(usize),
    /// Self-delimiting records (inclusive sizes or node-based) until the chunk ends.
    Sized,
}

/// Decodes the records of list chunk `tag` into `model`; returns (records, tail), or `None`
/// for a tag that is not a list chunk.
macro_rules! read_list_chunk {
    (($tag:expr, $c:expr, $model:expr) $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        match $tag {
            $(chunk::$t => Some(read_list($c, $model.version, Shape::$shape$(($n))?, &mut $model.$field)?),)*
            _ => None,
        }
    };
}

/// Encodes `records` records of list chunk `tag` starting at the kind's cursor.
macro_rules! write_list_chunk {
    (($w:expr, $model:expr, $tag:expr, $cursor:expr, $records:expr, $tail:expr, $overflow:expr)
     $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        match $tag {
            $(chunk::$t => {
                let items = &$model.$field[$cursor..$cursor + $records];
                write_list($w, $model.version, $tag, Shape::$shape$(($n))?, items, $tail, $overflow)
            })*
            _ => unreachable!("not a list chunk"),
        }
    };
}

/// Number of records in the model's list for `tag` (None if not a list chunk).
macro_rules! list_len {
    (($model:expr, $tag:expr) $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        match $tag {
            $(chunk::$t => Some($model.$field.len()),)*
            _ => None,
        }
    };
}

/// Conventional chunk order: the registry's.
const LIST_TAGS: [Tag; crate::model::KINDS] = crate::model::KIND_TAGS;

/// Tracks stored after a chunk's declared end belong to its last record: the records that
/// can take them say where their tracks are.
pub(super) trait Overflow {
    /// The record's tracks, if it has tracks and no unparsed tail after them.
    fn overflow_tracks(&mut self) -> Option<&mut Tracks> {
        None
    }
}

fn read_list<T: MdxRecord + Overflow>(
    c: &mut Reader,
    version: u32,
    shape: Shape,
    out: &mut Vec<T>,
) -> MdxResult<(usize, Vec<u8>)> {
    let before = out.len();
    match shape {
        Shape::Sized => read_all(c, version, out)?,
        Shape::Fixed(size) => read_fixed(c, version, size, c.remaining() / size, out)?,
        Shape::Counted(size) => {
            let n = c.u32()?;
            c.check_count(n, size)?;
            read_fixed(c, version, size, n as usize, out)?;
        }
    }
    Ok((out.len() - before, c.rest().to_vec()))
}

fn read_fixed<T: MdxRecord>(
    c: &mut Reader,
    version: u32,
    size: usize,
    n: usize,
    out: &mut Vec<T>,
) -> MdxResult<()> {
    out.reserve(n);
    for _ in 0..n {
        let i = out.len();
        let mut rec = c.region(size)?;
        out.push(scoped(
            || format!("{}[{i}]", T::NAME),
            || T::read_mdx(&mut rec, version),
        )?);
    }
    Ok(())
}

fn write_list<T: MdxRecord + Overflow + Clone>(
    w: &mut Writer,
    version: u32,
    tag: Tag,
    shape: Shape,
    items: &[T],
    tail: &[u8],
    overflow: usize,
) -> MdxResult<()> {
    w.tag(tag);
    let mark = w.begin_size(false);
    if let Shape::Counted(_) = shape {
        w.count(items.len())?;
    }
    let mut extra = Vec::new();
    match items.split_last() {
        Some((last, rest)) if overflow > 0 => {
            write_all(w, version, rest)?;
            let mut last = last.clone();
            if let Some(t) = last.overflow_tracks() {
                extra = t.0.split_off(t.0.len().saturating_sub(overflow));
            }
            last.write_mdx(w, version)?;
        }
        _ => write_all(w, version, items)?,
    }
    w.bytes(tail);
    w.end_size(mark)?;
    for a in &extra {
        write_any(w, a)?;
    }
    Ok(())
}

/// How many top-level chunks, and how many of unknown tags, the declared sizes walk
/// through (a capacity hint).
fn count_chunks(data: &[u8]) -> (usize, usize) {
    let (mut at, mut n, mut unknown) = (4usize, 0usize, 0usize);
    while let Some(head) = at.checked_add(8).and_then(|end| data.get(at..end)) {
        let tag = Tag([head[0], head[1], head[2], head[3]]);
        let size = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
        at = at.saturating_add(8).saturating_add(size);
        n += 1;
        unknown += usize::from(!chunk::ALL.contains(&tag));
    }
    (n, unknown)
}

/// Decodes a whole file.
pub(super) fn read_model(data: &[u8]) -> MdxResult<Model> {
    let mut r = Reader::new(data);
    if r.peek_tag() != Some(chunk::MDLX) {
        return Err(r.error(MdxErrorKind::BadMagic));
    }
    if super::family::classify_family(data)? == Family::WowAlpha {
        return Err(r.error(MdxErrorKind::AlphaFamily {
            version: peek_version(data).unwrap_or(0),
        }));
    }
    r.tag()?;
    // Chunks may come in any order: records before a late VERS chunk are decoded with the
    // file's version too, as the writer will encode them.
    let mut m = Model {
        version: peek_version(data).unwrap_or(800),
        ..Model::default()
    };
    // Room for every chunk up front: a file of many small (or empty) chunks would otherwise
    // hold twice its layout while the vectors grow. The walk is only a hint (it follows the
    // declared sizes), and it cannot exceed one entry per 8 bytes of input.
    let (chunks, unknown) = count_chunks(data);
    m.layout.chunks.reserve_exact(chunks);
    m.unknown_chunks.reserve_exact(unknown);
    let (mut seen_vers, mut seen_modl) = (false, false);
    while r.remaining() >= 8 {
        // A size a real chunk can have says the file was cut off; a size past any model's
        // (a garbage or hostile field) says nothing of the kind.
        let (tag, mut c) = r.chunk(|size, e| {
            if size < PLAUSIBLE_CHUNK {
                e.past_file_end()
            } else {
                e
            }
        })?;
        let entry = scoped(
            || tag.text(),
            || read_chunk(&mut m, tag, &mut c, &mut seen_vers, &mut seen_modl),
        )?;
        let entry = match entry {
            // Overflow tracks belong to this chunk's last record: a chunk without records
            // must not hand them to a record of an earlier chunk of the same kind.
            Some(LayoutEntry::Known {
                tag, records, tail, ..
            }) if records > 0 => {
                let overflow = scoped(|| tag.text(), || read_overflow(&mut m, tag, &mut r))?;
                LayoutEntry::Known {
                    tag,
                    records,
                    tail,
                    overflow_tracks: overflow,
                }
            }
            Some(e) => e,
            None => {
                m.unknown_chunks.push(UnknownChunk {
                    tag,
                    data: c.rest().to_vec(),
                });
                LayoutEntry::Unknown
            }
        };
        m.layout.chunks.push(entry);
    }
    require_header(&r, seen_vers, seen_modl, m.layout.chunks.len())?;
    m.layout.trailing = r.rest().to_vec();
    m.layout.from_file = true;
    Ok(m)
}

/// Every model has a VERS and a MODL chunk (in any order: INFO before VERS exists). A file
/// without one is empty or cut off, and is refused at its end rather than read as an empty
/// model. `r` is at the end of the chunks.
pub(crate) fn require_header(
    r: &Reader,
    seen_vers: bool,
    seen_modl: bool,
    chunks: usize,
) -> MdxResult<()> {
    let missing = [(seen_vers, chunk::VERS), (seen_modl, chunk::MODL)]
        .into_iter()
        .find(|(seen, _)| !seen);
    match missing {
        Some((_, tag)) => Err(MdxError::new(
            MdxErrorKind::MissingChunk { tag: tag.0, chunks },
            (r.offset() + r.remaining()) as u64,
        )),
        None => Ok(()),
    }
}

/// The value of the first VERS chunk, found by walking the chunk headers.
pub(crate) fn peek_version(data: &[u8]) -> Option<u32> {
    let mut r = Reader::new(data);
    let _ = r.tag();
    while r.remaining() >= 8 {
        let (Ok(tag), Ok(size)) = (r.tag(), r.u32()) else {
            break;
        };
        let Ok(mut c) = r.region(size as usize) else {
            break;
        };
        if tag == chunk::VERS {
            return c.u32().ok();
        }
    }
    None
}

fn read_chunk(
    m: &mut Model,
    tag: Tag,
    c: &mut Reader,
    seen_vers: &mut bool,
    seen_modl: &mut bool,
) -> MdxResult<Option<LayoutEntry>> {
    let known = |records, tail| {
        Some(LayoutEntry::Known {
            tag,
            records,
            tail,
            overflow_tracks: 0,
        })
    };
    if tag == chunk::VERS && !*seen_vers {
        *seen_vers = true;
        m.version = c.u32()?;
        return Ok(known(1, c.rest().to_vec()));
    }
    if tag == chunk::MODL && !*seen_modl {
        *seen_modl = true;
        m.info = ModelInfo::read_mdx(c, m.version)?;
        return Ok(known(1, Vec::new()));
    }
    Ok(
        match crate::model::for_each_kind!(read_list_chunk!(tag, c, m)) {
            Some((records, tail)) => known(records, tail),
            None => None,
        },
    )
}

/// Reads tracks that follow a chunk's declared end (see `LayoutEntry::Known::overflow_tracks`).
fn read_overflow(m: &mut Model, tag: Tag, r: &mut Reader) -> MdxResult<usize> {
    let mut n = 0;
    while let Some(kind) = r.peek_tag().and_then(track_kind) {
        let Some(tracks) = last_tracks(m, tag) else {
            break;
        };
        let t = r.tag()?;
        let a = read_any(r, t, kind)?;
        tracks.0.push(a);
        n += 1;
    }
    Ok(n)
}

fn last_tracks(m: &mut Model, tag: Tag) -> Option<&mut Tracks> {
    fn last<T: Overflow>(v: &mut [T]) -> Option<&mut Tracks> {
        v.last_mut().and_then(|x| x.overflow_tracks())
    }
    match tag {
        chunk::LITE => last(&mut m.lights),
        chunk::ATCH => last(&mut m.attachments),
        chunk::TXAN => last(&mut m.texture_animations),
        chunk::GEOA => last(&mut m.geoset_animations),
        chunk::PREM => last(&mut m.particle_emitters),
        chunk::PRE2 => last(&mut m.particle_emitters2),
        chunk::CORN => last(&mut m.popcorn_emitters),
        chunk::RIBB => last(&mut m.ribbon_emitters),
        chunk::CAMS => last(&mut m.cameras),
        _ => None,
    }
}

/// Encodes a whole file, following the source layout when it still fits the model.
pub(super) fn write_model(w: &mut Writer, m: &Model) -> MdxResult<()> {
    w.tag(chunk::MDLX);
    if layout_fits(m) {
        write_layout(w, m)
    } else {
        write_conventional(w, m)
    }
}

fn write_vers(w: &mut Writer, m: &Model, tail: &[u8]) -> MdxResult<()> {
    w.tag(chunk::VERS);
    let mark = w.begin_size(false);
    w.u32(m.version);
    w.bytes(tail);
    w.end_size(mark)
}

fn write_modl(w: &mut Writer, m: &Model) -> MdxResult<()> {
    w.tag(chunk::MODL);
    let mark = w.begin_size(false);
    m.info.write_mdx(w, m.version)?;
    w.end_size(mark)
}

fn write_unknown(w: &mut Writer, u: &UnknownChunk) -> MdxResult<()> {
    w.tag(u.tag);
    w.count(u.data.len())?;
    w.bytes(&u.data);
    Ok(())
}

fn write_conventional(w: &mut Writer, m: &Model) -> MdxResult<()> {
    write_vers(w, m, &[])?;
    write_modl(w, m)?;
    for tag in LIST_TAGS {
        let n = crate::model::for_each_kind!(list_len!(m, tag)).unwrap_or(0);
        if n > 0 {
            crate::model::for_each_kind!(write_list_chunk!(w, m, tag, 0, n, &[], 0))?;
        }
    }
    for u in &m.unknown_chunks {
        write_unknown(w, u)?;
    }
    Ok(())
}

fn layout_fits(m: &Model) -> bool {
    if !m.layout.from_file {
        return false;
    }
    let mut used = std::collections::HashMap::new();
    let mut unknown = 0;
    for e in &m.layout.chunks {
        match e {
            LayoutEntry::Known { tag, records, .. } => *used.entry(*tag).or_insert(0) += records,
            LayoutEntry::Unknown => unknown += 1,
        }
    }
    // Exactly one of each: a layout without VERS or MODL would write a file the reader
    // refuses (it can come from a hand-edited MDL extension block).
    let singletons_ok = [chunk::VERS, chunk::MODL]
        .iter()
        .all(|t| used.get(t) == Some(&1));
    let lists_ok = LIST_TAGS.iter().all(|&t| {
        used.get(&t).copied().unwrap_or(0)
            == crate::model::for_each_kind!(list_len!(m, t)).unwrap_or(0)
    });
    singletons_ok && lists_ok && unknown == m.unknown_chunks.len()
}

fn write_layout(w: &mut Writer, m: &Model) -> MdxResult<()> {
    let mut cursors = std::collections::HashMap::new();
    let mut unknown = m.unknown_chunks.iter();
    for e in &m.layout.chunks {
        match e {
            LayoutEntry::Unknown => write_unknown(w, unknown.next().expect("layout checked"))?,
            LayoutEntry::Known { tag, tail, .. } if *tag == chunk::VERS => write_vers(w, m, tail)?,
            LayoutEntry::Known { tag, .. } if *tag == chunk::MODL => write_modl(w, m)?,
            LayoutEntry::Known {
                tag,
                records,
                tail,
                overflow_tracks,
            } => {
                let cursor = cursors.entry(*tag).or_insert(0usize);
                let start = *cursor;
                *cursor += records;
                crate::model::for_each_kind!(write_list_chunk!(
                    w,
                    m,
                    *tag,
                    start,
                    *records,
                    tail,
                    *overflow_tracks
                ))?;
            }
        }
    }
    w.bytes(&m.layout.trailing);
    Ok(())
}

macro_rules! no_overflow {
    ($($t:ty),*) => { $(impl Overflow for $t {})* };
}

macro_rules! tracks_overflow {
    ($($t:ty),*) => {
        $(impl Overflow for $t {
            fn overflow_tracks(&mut self) -> Option<&mut Tracks> {
                self.tail.is_empty().then_some(&mut self.tracks)
            }
        })*
    };
}

use crate::model::*;
no_overflow!(
    u32,
    [f32; 3],
    [f32; 12],
    Glider,
    Sequence,
    Texture,
    Material,
    Geoset,
    Bone,
    Helper,
    EventObject,
    CollisionShape,
    FaceEffect
);
tracks_overflow!(
    Light,
    Attachment,
    TextureAnimation,
    GeosetAnimation,
    ParticleEmitter,
    ParticleEmitter2,
    PopcornEmitter,
    RibbonEmitter,
    Camera
);

/// Plain values stored back to back (global sequences, pivots, bind poses).
macro_rules! plain_record {
    ($t:ty, $name:literal, $read:expr, $write:expr) => {
        impl MdxRecord for $t {
            const NAME: &'static str = $name;
            fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
                $read(r)
            }
            fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
                $write(w, self);
                Ok(())
            }
        }
    };
}

plain_record!(
    u32,
    "GlobalSequence",
    |r: &mut Reader| r.u32(),
    |w: &mut Writer, v: &u32| w.u32(*v)
);
plain_record!(
    [f32; 3],
    "PivotPoint",
    |r: &mut Reader| r.f32s(),
    |w: &mut Writer, v: &[f32; 3]| w.f32s(v)
);
plain_record!(
    [f32; 12],
    "BindPose",
    |r: &mut Reader| r.f32s(),
    |w: &mut Writer, v: &[f32; 12]| w.f32s(v)
);

/// The chunk layout the conventional writer produces for `m` (VERS, MODL, the non-empty
/// lists in the usual order, then unknown chunks).
pub fn conventional_layout(m: &Model) -> Vec<LayoutEntry> {
    let known = |tag, records| LayoutEntry::Known {
        tag,
        records,
        tail: Vec::new(),
        overflow_tracks: 0,
    };
    let mut v = vec![known(chunk::VERS, 1), known(chunk::MODL, 1)];
    for tag in LIST_TAGS {
        let n = crate::model::for_each_kind!(list_len!(m, tag)).unwrap_or(0);
        if n > 0 {
            v.push(known(tag, n));
        }
    }
    v.extend(m.unknown_chunks.iter().map(|_| LayoutEntry::Unknown));
    v
}

/// Where each record of list chunk `tag` starts, appended to the row's list.
macro_rules! locate_list_chunk {
    (($tag:expr, $c:expr, $version:expr, $rows:expr) $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {{
        let mut row = 0usize;
        $(
            if $tag == chunk::$t {
                locate_list::<$ty>($c, $version, Shape::$shape$(($n))?, &mut $rows[row]);
            }
            row += 1;
        )*
        let _ = row;
    }};
}

fn locate_list<T: MdxRecord>(c: &mut Reader, version: u32, shape: Shape, out: &mut Vec<u64>) {
    let (size, n) = match shape {
        Shape::Sized => {
            while !c.is_empty() {
                let at = c.offset() as u64;
                if T::read_mdx(c, version).is_err() {
                    return;
                }
                out.push(at);
            }
            return;
        }
        Shape::Fixed(size) => (size, c.remaining() / size),
        Shape::Counted(size) => match c.u32() {
            Ok(n) => (size, (n as usize).min(c.remaining() / size)),
            Err(_) => return,
        },
    };
    let start = c.offset() as u64;
    out.extend((0..n as u64).map(|i| start + i * size as u64));
}

/// Where each record of each registry row starts in an MDX file, and where the MODL chunk
/// starts (for findings about the model as a whole). Follows the chunk sizes as the reader
/// does; records after one that does not read are left out.
pub(crate) fn record_offsets(data: &[u8]) -> (Vec<Vec<u64>>, Option<u64>) {
    let mut rows = vec![Vec::new(); crate::model::KINDS];
    let mut header = None;
    let version = peek_version(data).unwrap_or(800);
    let mut r = Reader::new(data);
    if r.tag().is_err() {
        return (rows, header);
    }
    while r.remaining() >= 8 {
        let at = r.offset() as u64;
        let (Ok(tag), Ok(size)) = (r.tag(), r.u32()) else {
            break;
        };
        let Ok(mut c) = r.region(size as usize) else {
            break;
        };
        if tag == chunk::MODL && header.is_none() {
            header = Some(at);
        }
        let before: usize = rows.iter().map(Vec::len).sum();
        crate::model::for_each_kind!(locate_list_chunk!(tag, &mut c, version, rows));
        // Tracks stored past a chunk's declared end belong to its last record (see
        // `read_overflow`): step over them as the reader does.
        if rows.iter().map(Vec::len).sum::<usize>() > before {
            while let Some(kind) = r.peek_tag().and_then(track_kind) {
                let Ok(t) = r.tag() else { break };
                if read_any(&mut r, t, kind).is_err() {
                    break;
                }
            }
        }
    }
    (rows, header)
}

#[cfg(test)]
#[path = "chunks_tests.rs"]
mod count_tests;
