//! Model information (MODL), sequences (SEQS), cameras (CAMS) and collision geometry
//! (CLID) of the alpha family.
//!
//! Bounds (`CMdlBounds`) are stored radius first, then the minimum and maximum corners, as
//! in Warcraft III. The page declares `{ CAaBox extent; float radius; }`, box first; the
//! boar disagrees: of its 33 bounds (MODL, 10 sequences, 2 geosets and their 20
//! per-sequence bounds), read radius first all 33 have minimum <= maximum on every axis;
//! read box first, none does (the MODL one would have min x 0.0 above max x -0.36).
//! `tests/alpha.rs` checks this on the file.

use crate::mdx::reader::Reader;
use crate::mdx::record::{write_sized, MdxRecord};
use crate::mdx::tagged;
use crate::mdx::writer::Writer;
use crate::mdx::{read_extent, write_extent, MdxResult};
use crate::model::{Extent, FixedString};
use crate::spec::len;

use super::geoset::sub::TRI;
use super::tracks::{read_tracks, write_tracks, AlphaTracks};
use crate::spec::sub::{NRMS, VRTX};

/// The MODL chunk (`MDLMODELSECTION`, 373 bytes): Warcraft III's model info (name,
/// animation file, bounds, blend time: 372 bytes, read and written by its own code), then
/// one flags byte.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelInfo {
    /// Name (80 bytes), animation file (260 bytes, always zero-filled, says the page),
    /// bounds, and the u32 the page calls the blend time (the boar stores 14593 there).
    /// Its `tail` keeps the bytes after the flags byte.
    pub info: crate::model::ModelInfo,
    /// Flags byte (1, 2: ground track; 4: always animate). "Deprecated, always 0".
    pub flags: u8,
}

impl MdxRecord for ModelInfo {
    const NAME: &'static str = "ModelInfo";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        // The Warcraft III record keeps everything after the blend time as its tail; the
        // first of those bytes is the flags byte.
        let mut info = crate::model::ModelInfo::read_mdx(r, version)?;
        // A chunk that ends before the flags byte gives the error of reading past its end.
        let flags = if info.tail.is_empty() {
            r.u8()?
        } else {
            info.tail.remove(0)
        };
        Ok(ModelInfo { info, flags })
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        let head = crate::model::ModelInfo {
            tail: Vec::new(),
            ..self.info.clone()
        };
        head.write_mdx(w, version)?;
        w.u8(self.flags);
        w.bytes(&self.info.tail);
        Ok(())
    }
}

/// Sequence flag: plays once instead of looping.
pub const SEQUENCE_NON_LOOPING: u32 = 1;

/// A sequence (`MDLSEQUENCESSECTION`, 140 bytes). Warcraft III's
/// [`Sequence`](crate::model::Sequence) starts the same (name, interval, move speed,
/// flags) but then has rarity, sync point and bounds (132 bytes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sequence {
    /// Name (80 bytes).
    pub name: FixedString,
    /// Start and end time in milliseconds.
    pub interval: [u32; 2],
    /// Movement speed while playing.
    pub move_speed: f32,
    /// Flags (1 = non-looping); unknown bits kept.
    pub flags: u32,
    /// Bounds during the sequence.
    pub bounds: Extent,
    /// Chance of playing among the sequences of the same kind (they add up to 1).
    pub frequency: f32,
    /// Repetitions, minimum and maximum.
    pub replay: [u32; 2],
    /// Blend time.
    pub blend_time: u32,
}

impl Sequence {
    /// Whether the animation loops: [`SEQUENCE_NON_LOOPING`] is not set.
    pub fn is_looping(&self) -> bool {
        self.flags & SEQUENCE_NON_LOOPING == 0
    }
}

/// Bytes of a sequence record.
pub const SEQUENCE_SIZE: usize = 140;

impl MdxRecord for Sequence {
    const NAME: &'static str = "Sequence";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        Ok(Sequence {
            name: r.fixed_str(len::NAME)?,
            interval: [r.u32()?, r.u32()?],
            move_speed: r.f32()?,
            flags: r.u32()?,
            bounds: read_extent(r)?,
            frequency: r.f32()?,
            replay: [r.u32()?, r.u32()?],
            blend_time: r.u32()?,
        })
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        w.fixed_str(&self.name, len::NAME, "sequence name")?;
        w.vec_u32(&self.interval);
        w.f32(self.move_speed);
        w.u32(self.flags);
        write_extent(w, &self.bounds);
        w.f32(self.frequency);
        w.vec_u32(&self.replay);
        w.u32(self.blend_time);
        Ok(())
    }
}

/// A camera (`MDLCAMERASECTION`): the same fixed fields as Warcraft III, plus `KVIS`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Camera {
    /// Name (80 bytes).
    pub name: FixedString,
    /// Eye position.
    pub pivot: [f32; 3],
    /// Field of view.
    pub field_of_view: f32,
    /// Far clip.
    pub far_clip: f32,
    /// Near clip.
    pub near_clip: f32,
    /// Target position.
    pub target_pivot: [f32; 3],
    /// `KCTR KCRL KVIS KTTR` tracks in file order.
    pub tracks: AlphaTracks,
    /// Bytes after the tracks inside the record's size, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for Camera {
    const NAME: &'static str = "Camera";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        let mut c = r.inclusive_region(120)?;
        let mut cam = Camera {
            name: c.fixed_str(len::NAME)?,
            pivot: c.f32s()?,
            field_of_view: c.f32()?,
            far_clip: c.f32()?,
            near_clip: c.f32()?,
            target_pivot: c.f32s()?,
            ..Default::default()
        };
        (cam.tracks, cam.tail) = read_tracks(&mut c)?;
        Ok(cam)
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            w.fixed_str(&self.name, len::NAME, "camera name")?;
            w.f32s(&self.pivot);
            w.f32(self.field_of_view);
            w.f32(self.far_clip);
            w.f32(self.near_clip);
            w.f32s(&self.target_pivot);
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}

/// Collision geometry (`MDLCOLLISION`): a triangle mesh, not Warcraft III's node shapes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Collision {
    /// Vertices (VRTX).
    pub vertices: Vec<[f32; 3]>,
    /// Triangle vertex indices (`TRI `).
    pub triangles: Vec<u16>,
    /// One normal per facet (NRMS).
    pub facet_normals: Vec<[f32; 3]>,
    /// Bytes after NRMS inside the chunk, kept.
    pub tail: Vec<u8>,
}

impl Collision {
    /// Reads the whole chunk payload.
    pub fn read(c: &mut Reader) -> MdxResult<Collision> {
        Ok(Collision {
            vertices: tagged(c, VRTX, |c, n| c.vec_f32(n))?,
            triangles: tagged(c, TRI, |c, n| c.vec_u16(n))?,
            facet_normals: tagged(c, NRMS, |c, n| c.vec_f32(n))?,
            tail: c.rest().to_vec(),
        })
    }

    /// Writes the whole chunk payload.
    pub fn write(&self, w: &mut Writer) -> MdxResult<()> {
        w.tag(VRTX);
        w.count(self.vertices.len())?;
        w.vec_f32(&self.vertices);
        w.tag(TRI);
        w.count(self.triangles.len())?;
        w.vec_u16(&self.triangles);
        w.tag(NRMS);
        w.count(self.facet_normals.len())?;
        w.vec_f32(&self.facet_normals);
        w.bytes(&self.tail);
        Ok(())
    }
}
