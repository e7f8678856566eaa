//! The top level of an alpha file: `MDLX`, then `[tag][size][payload]` chunks in any
//! order. Each known chunk is decoded by its shape (count-prefixed records, records until
//! the end, or the irregular GEOS and CLID); anything else is kept raw in place.

use crate::mdx::error::MdxErrorKind;
use crate::mdx::reader::{scoped, Reader};
use crate::mdx::record::{read_n, write_all, MdxRecord};
use crate::mdx::writer::Writer;
use crate::mdx::{MdxError, MdxResult};
use crate::model::{Family, Tag, UnknownChunk};
use crate::spec::chunk;

use super::emitters::{EMITTER2_FIXED, LIGHT_FIXED, RIBBON_FIXED};
use super::geoset::{read_batched, write_batched};
use super::header::SEQUENCE_SIZE;
use super::material::TEXTURE_SIZE;
use super::{AlphaModel, Chunk, Collision, ModelInfo, Records, BATCHED_GEOSETS};

/// Smallest possible sizes of count-prefixed records, so a count can be checked against
/// the bytes that remain before anything is allocated.
mod min {
    pub(super) const MATERIAL: usize = 12;
    pub(super) const TEXTURE_ANIMATION: usize = 4;
    /// Size, eleven empty sub-chunks, ids, flags, bounds, sequence-bounds count.
    pub(super) const GEOSET: usize = 4 + 11 * 8 + 12 + 28 + 4;
    pub(super) const GEOSET_ANIMATION: usize = 28;
    pub(super) const OBJECT: usize = 96;
    pub(super) const BONE: usize = OBJECT + 8;
    pub(super) const LIGHT: usize = 4 + OBJECT + super::LIGHT_FIXED;
    pub(super) const ATTACHMENT: usize = 4 + OBJECT + 5 + 260;
    pub(super) const PARTICLE_EMITTER: usize = 4 + OBJECT + 24 + 260;
    pub(super) const CAMERA: usize = 120;
    pub(super) const EVENT: usize = 4 + OBJECT;
    pub(super) const HIT_TEST_SHAPE: usize = 4 + OBJECT + 1;
}

/// Decodes a whole file.
pub(super) fn read_model(data: &[u8]) -> MdxResult<AlphaModel> {
    let mut r = Reader::new(data);
    if r.peek_tag() != Some(chunk::MDLX) {
        return Err(r.error(MdxErrorKind::BadMagic));
    }
    let version = crate::mdx::peek_version(data).unwrap_or(0);
    if crate::mdx::classify_family(data)? != Family::WowAlpha {
        return Err(r.error(MdxErrorKind::UnknownLayout {
            what: "MDX family for the alpha reader (the chunks have Warcraft III shapes); version",
            value: version,
        }));
    }
    r.tag()?;
    let mut m = AlphaModel {
        version,
        ..AlphaModel::default()
    };
    let (mut seen_vers, mut seen_modl) = (false, false);
    while r.remaining() >= 8 {
        let (tag, mut c) = r.chunk(|_, e| e)?;
        let first_vers = tag == chunk::VERS && !seen_vers;
        seen_vers |= first_vers;
        let ch = scoped(
            || tag.text(),
            || read_chunk(tag, &mut c, version, first_vers),
        )?;
        seen_modl |= matches!(ch, Chunk::Model(_));
        m.chunks.push(ch);
    }
    crate::mdx::require_header(&r, seen_vers, seen_modl, m.chunks.len())?;
    m.trailing = r.rest().to_vec();
    Ok(m)
}

/// `count` records of `T` (at least `min` bytes each), then the chunk's tail.
fn counted<T: MdxRecord>(c: &mut Reader, version: u32, min: usize) -> MdxResult<Records<T>> {
    let n = c.u32()?;
    let items = read_n(c, version, n, min)?;
    Ok(Records {
        items,
        tail: c.rest().to_vec(),
    })
}

/// Records of exactly `size` bytes until fewer than `size` remain; those are the tail.
fn fixed<T: MdxRecord>(c: &mut Reader, version: u32, size: usize) -> MdxResult<Records<T>> {
    let n = c.remaining() / size;
    let mut items = Vec::with_capacity(n);
    for i in 0..n {
        let mut rec = c.region(size)?;
        items.push(scoped(
            || format!("{}[{i}]", T::NAME),
            || T::read_mdx(&mut rec, version),
        )?);
    }
    Ok(Records {
        items,
        tail: c.rest().to_vec(),
    })
}

/// `count, unused`, then `count` records (MTLS, ATCH).
fn counted_with_unused<T: MdxRecord>(
    c: &mut Reader,
    version: u32,
    min: usize,
) -> MdxResult<(u32, Records<T>)> {
    let n = c.u32()?;
    let unused = c.u32()?;
    let items = read_n(c, version, n, min)?;
    Ok((
        unused,
        Records {
            items,
            tail: c.rest().to_vec(),
        },
    ))
}

fn read_chunk(tag: Tag, c: &mut Reader, version: u32, first_vers: bool) -> MdxResult<Chunk> {
    let v = version;
    Ok(match tag {
        chunk::VERS if first_vers => {
            c.u32()?;
            Chunk::Version {
                tail: c.rest().to_vec(),
            }
        }
        chunk::MODL => Chunk::Model(ModelInfo::read_mdx(c, v)?),
        chunk::SEQS => Chunk::Sequences(counted(c, v, SEQUENCE_SIZE)?),
        chunk::GLBS => Chunk::GlobalSequences(fixed(c, v, 4)?),
        chunk::MTLS => {
            let (unused, materials) = counted_with_unused(c, v, min::MATERIAL)?;
            Chunk::Materials { unused, materials }
        }
        chunk::TEXS => Chunk::Textures(fixed(c, v, TEXTURE_SIZE)?),
        chunk::TXAN => Chunk::TextureAnimations(counted(c, v, min::TEXTURE_ANIMATION)?),
        chunk::GEOS if v >= BATCHED_GEOSETS => {
            let items = read_batched(c)?;
            Chunk::BatchedGeosets(Records {
                items,
                tail: c.rest().to_vec(),
            })
        }
        chunk::GEOS => Chunk::Geosets(counted(c, v, min::GEOSET)?),
        chunk::GEOA => Chunk::GeosetAnimations(counted(c, v, min::GEOSET_ANIMATION)?),
        chunk::BONE => Chunk::Bones(counted(c, v, min::BONE)?),
        chunk::LITE => Chunk::Lights(counted(c, v, min::LIGHT)?),
        chunk::HELP => Chunk::Helpers(counted(c, v, min::OBJECT)?),
        chunk::ATCH => {
            let (unused, attachments) = counted_with_unused(c, v, min::ATTACHMENT)?;
            Chunk::Attachments {
                unused,
                attachments,
            }
        }
        chunk::PIVT => Chunk::Pivots(fixed(c, v, 12)?),
        chunk::PREM => Chunk::ParticleEmitters(counted(c, v, min::PARTICLE_EMITTER)?),
        chunk::CAMS => Chunk::Cameras(counted(c, v, min::CAMERA)?),
        chunk::EVTS => Chunk::Events(counted(c, v, min::EVENT)?),
        chunk::PRE2 => Chunk::ParticleEmitters2(counted(c, v, 4 + min::OBJECT + EMITTER2_FIXED)?),
        chunk::HTST => Chunk::HitTestShapes(counted(c, v, min::HIT_TEST_SHAPE)?),
        chunk::RIBB => Chunk::RibbonEmitters(counted(c, v, 4 + min::OBJECT + RIBBON_FIXED)?),
        chunk::CLID => Chunk::Collision(Collision::read(c)?),
        _ => Chunk::Unknown(UnknownChunk {
            tag,
            data: c.rest().to_vec(),
        }),
    })
}

/// Encodes a whole file.
pub(super) fn write_model(m: &AlphaModel) -> MdxResult<Vec<u8>> {
    let mut w = Writer::with_capacity(64 * 1024);
    w.tag(chunk::MDLX);
    for c in &m.chunks {
        scoped(|| c.tag().text(), || write_chunk(&mut w, m.version, c))?;
    }
    w.bytes(&m.trailing);
    Ok(w.into_bytes())
}

fn write_records<T: MdxRecord>(w: &mut Writer, v: u32, r: &Records<T>) -> MdxResult<()> {
    write_all(w, v, &r.items)?;
    w.bytes(&r.tail);
    Ok(())
}

fn write_counted<T: MdxRecord>(w: &mut Writer, v: u32, r: &Records<T>) -> MdxResult<()> {
    w.count(r.items.len())?;
    write_records(w, v, r)
}

fn write_with_unused<T: MdxRecord>(
    w: &mut Writer,
    v: u32,
    unused: u32,
    r: &Records<T>,
) -> MdxResult<()> {
    w.count(r.items.len())?;
    w.u32(unused);
    write_records(w, v, r)
}

fn layout_mismatch(w: &Writer, version: u32, batched: bool) -> MdxError {
    let layout = if batched { "1500" } else { "1300/1400" };
    MdxError::new(
        MdxErrorKind::Unwritable(format!(
            "geosets in the {layout} layout cannot be written in a version {version} file"
        )),
        w.len() as u64,
    )
}

fn write_chunk(w: &mut Writer, v: u32, c: &Chunk) -> MdxResult<()> {
    if let Chunk::Unknown(u) = c {
        w.tag(u.tag);
        w.count(u.data.len())?;
        w.bytes(&u.data);
        return Ok(());
    }
    w.tag(c.tag());
    let mark = w.begin_size(false);
    match c {
        Chunk::Version { tail } => {
            w.u32(v);
            w.bytes(tail);
        }
        Chunk::Model(info) => info.write_mdx(w, v)?,
        Chunk::Sequences(r) => write_counted(w, v, r)?,
        Chunk::GlobalSequences(r) => write_records(w, v, r)?,
        Chunk::Materials { unused, materials } => write_with_unused(w, v, *unused, materials)?,
        Chunk::Textures(r) => write_records(w, v, r)?,
        Chunk::TextureAnimations(r) => write_counted(w, v, r)?,
        Chunk::Geosets(_) if v >= BATCHED_GEOSETS => return Err(layout_mismatch(w, v, false)),
        Chunk::Geosets(r) => write_counted(w, v, r)?,
        Chunk::BatchedGeosets(_) if v < BATCHED_GEOSETS => return Err(layout_mismatch(w, v, true)),
        Chunk::BatchedGeosets(r) => {
            write_batched(w, &r.items)?;
            w.bytes(&r.tail);
        }
        Chunk::GeosetAnimations(r) => write_counted(w, v, r)?,
        Chunk::Bones(r) => write_counted(w, v, r)?,
        Chunk::Lights(r) => write_counted(w, v, r)?,
        Chunk::Helpers(r) => write_counted(w, v, r)?,
        Chunk::Attachments {
            unused,
            attachments,
        } => write_with_unused(w, v, *unused, attachments)?,
        Chunk::Pivots(r) => write_records(w, v, r)?,
        Chunk::ParticleEmitters(r) => write_counted(w, v, r)?,
        Chunk::Cameras(r) => write_counted(w, v, r)?,
        Chunk::Events(r) => write_counted(w, v, r)?,
        Chunk::ParticleEmitters2(r) => write_counted(w, v, r)?,
        Chunk::HitTestShapes(r) => write_counted(w, v, r)?,
        Chunk::RibbonEmitters(r) => write_counted(w, v, r)?,
        Chunk::Collision(col) => col.write(w)?,
        Chunk::Unknown(_) => unreachable!("written above"),
    }
    w.end_size(mark)
}
