//! The generic object (`MDLGENOBJECT`) and the records that are little more than one:
//! bones (BONE), helpers (HELP), attachments (ATCH), event objects (EVTS) and hit-test
//! shapes (HTST).
//!
//! A generic object is `size (inclusive), name[80], object id, parent id, flags`, then its
//! `KGTR KGRT KGSC` tracks until the size is used up. Bones and helpers have no size of
//! their own around it; attachments, events and hit-test shapes do (the boar agrees with
//! the page on all five).

use crate::mdx::objects::{read_object_head, write_object_head};
use crate::mdx::reader::Reader;
use crate::mdx::record::{write_sized, MdxRecord};
use crate::mdx::writer::Writer;
use crate::mdx::MdxResult;
use crate::model::FixedString;
use crate::spec::len;

use super::tracks::{read_tracks, write_tracks, AlphaTracks};
use crate::mdx::record::declared_record as record;

/// Generic-object flag bits of the alpha family (wowdev page, "MDLGENOBJECT flags"). The
/// record-kind bits sit one place lower than in Warcraft III (bone 0x80 here, 0x100 there);
/// the boar's attachments (0x400), events (0x200) and hit-test shape (0x1000) carry them.
pub mod flags {
    /// Does not inherit its parent's translation.
    pub const DONT_INHERIT_TRANSLATION: u32 = 0x1;
    /// Does not inherit its parent's scaling (page wording).
    pub const DONT_INHERIT_SCALING: u32 = 0x2;
    /// Does not inherit its parent's rotation (page wording).
    pub const DONT_INHERIT_ROTATION: u32 = 0x4;
    /// Faces the camera.
    pub const BILLBOARD: u32 = 0x8;
    /// Billboard locked about X.
    pub const BILLBOARD_LOCK_X: u32 = 0x10;
    /// Billboard locked about Y.
    pub const BILLBOARD_LOCK_Y: u32 = 0x20;
    /// Billboard locked about Z.
    pub const BILLBOARD_LOCK_Z: u32 = 0x40;
    /// A bone (not set in files, says the page; the boar's bones have flags 0).
    pub const BONE: u32 = 0x80;
    /// A light.
    pub const LIGHT: u32 = 0x100;
    /// An event object.
    pub const EVENT: u32 = 0x200;
    /// An attachment.
    pub const ATTACHMENT: u32 = 0x400;
    /// A particle emitter 2.
    pub const PARTICLE_EMITTER2: u32 = 0x800;
    /// A hit-test shape.
    pub const HIT_TEST_SHAPE: u32 = 0x1000;
    /// A ribbon emitter.
    pub const RIBBON_EMITTER: u32 = 0x2000;
    /// Project.
    pub const PROJECT: u32 = 0x4000;
    /// PREM: emitter uses TGA; PRE2: unshaded.
    pub const EMITTER_USES_TGA_OR_UNSHADED: u32 = 0x8000;
    /// PREM: emitter uses MDL; PRE2: sort primitives far Z.
    pub const EMITTER_USES_MDL_OR_SORT_FAR_Z: u32 = 0x1_0000;
    /// Line emitter.
    pub const LINE_EMITTER: u32 = 0x2_0000;
    /// Particles unfogged.
    pub const PARTICLE_UNFOGGED: u32 = 0x4_0000;
    /// Particles in model space.
    pub const PARTICLE_USE_MODEL_SPACE: u32 = 0x8_0000;
    /// Particles align to the XY plane.
    pub const PARTICLE_XYQUADS: u32 = 0x800_0000;
}

/// The common part of every scene object (`MDLGENOBJECT`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenObject {
    /// Name (80 bytes).
    pub name: FixedString,
    /// Object id: index in the node hierarchy and into PIVT.
    pub object_id: u32,
    /// Parent's object id, or -1 (0xFFFFFFFF).
    pub parent_id: i32,
    /// Flags (see [`flags`]); unknown bits kept.
    pub flags: u32,
    /// `KGTR`, `KGRT` (packed), `KGSC` tracks in file order.
    pub tracks: AlphaTracks,
    /// Bytes inside the object's size after its tracks, kept.
    pub tail: Vec<u8>,
}

impl crate::mdx::record::MdxHead for GenObject {
    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        <Self as MdxRecord>::read_mdx(r, version)
    }
    fn write_mdx(&self, w: &mut Writer, version: u32, _what: &str) -> MdxResult<()> {
        <Self as MdxRecord>::write_mdx(self, w, version)
    }
}

impl MdxRecord for GenObject {
    const NAME: &'static str = "GenObject";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        let (mut n, name, object_id, parent_id, flags) = read_object_head(r)?;
        let (tracks, tail) = read_tracks(&mut n)?;
        Ok(GenObject {
            name,
            object_id,
            parent_id,
            flags,
            tracks,
            tail,
        })
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            let head = (&self.name, self.object_id, self.parent_id, self.flags);
            write_object_head(w, head, "object name")?;
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}

crate::model::bone_fields! {
    record! {
        /// A bone (`MDLBONESECTION`): a generic object, then geoset and geoset-animation ids.
        Bone = "Bone" in "Bone" {
            head object: GenObject;
            custom_mdl "the alpha family has no MDL";
        }
    } {}
}

record! {
    /// A helper: a generic object and nothing else.
    Helper = "Helper" in "Helper" {
        head object: GenObject;
        custom_mdl "the alpha family has no MDL";
    }
    fields {}
}

/// An attachment point (`MDLATTACHMENTSECTION`): size, generic object, attachment id
/// (`GEOCOMPONENTLINKS`), one padding byte, a 260-byte path, then `KVIS`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Attachment {
    /// The generic object (its name loosely names the slot).
    pub object: GenObject,
    /// Slot id (0 shield, 1 right hand, ... 0x23 hand arrow; -1/0xFFFFFFFF none).
    pub attachment_id: u32,
    /// The byte after the id. The page calls it padding; every attachment of the boar
    /// has 0xFF here, not 0.
    pub padding: u8,
    /// Path (260 bytes; zero-filled in all alpha files, says the page).
    pub path: FixedString,
    /// `KVIS` track.
    pub tracks: AlphaTracks,
    /// Bytes after the tracks inside the record's size, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for Attachment {
    const NAME: &'static str = "Attachment";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut a = r.inclusive_region(4 + 96 + 5 + len::PATH)?;
        let object = GenObject::read_mdx(&mut a, version)?;
        let attachment_id = a.u32()?;
        let padding = a.u8()?;
        let path = a.fixed_str(len::PATH)?;
        let (tracks, tail) = read_tracks(&mut a)?;
        Ok(Attachment {
            object,
            attachment_id,
            padding,
            path,
            tracks,
            tail,
        })
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            self.object.write_mdx(w, version)?;
            w.u32(self.attachment_id);
            w.u8(self.padding);
            w.fixed_str(&self.path, len::PATH, "attachment path")?;
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}

/// An event object (`MDLEVENTSECTION`): size, generic object, `KEVT` times.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventObject {
    /// The generic object; its name encodes the event (`$DTH`, `$FSD`...).
    pub object: GenObject,
    /// The `KEVT` track (and anything else the page lists), in file order. The boar has
    /// events without one.
    pub tracks: AlphaTracks,
    /// Bytes after the tracks inside the record's size, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for EventObject {
    const NAME: &'static str = "EventObject";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut e = r.inclusive_region(4 + 96)?;
        let object = GenObject::read_mdx(&mut e, version)?;
        let (tracks, tail) = read_tracks(&mut e)?;
        Ok(EventObject {
            object,
            tracks,
            tail,
        })
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            self.object.write_mdx(w, version)?;
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}

/// The geometry of a hit-test shape (`GEOM_SHAPE`, stored as one byte, then its numbers).
#[derive(Clone, Debug, PartialEq)]
pub enum HitShape {
    /// Type 0: an axis-aligned box from two corners.
    Box {
        /// Minimum corner.
        minimum: [f32; 3],
        /// Maximum corner.
        maximum: [f32; 3],
    },
    /// Type 1: a cylinder standing on `base`.
    Cylinder {
        /// Center of the base.
        base: [f32; 3],
        /// Height.
        height: f32,
        /// Radius.
        radius: f32,
    },
    /// Type 2: a sphere.
    Sphere {
        /// Center.
        center: [f32; 3],
        /// Radius.
        radius: f32,
    },
    /// Type 3: a plane.
    Plane {
        /// Length.
        length: f32,
        /// Width.
        width: f32,
    },
    /// A type the page does not know, or a known type whose numbers do not fit in the
    /// record: only the type byte is decoded, the rest stays in the record's tail.
    Unparsed(u8),
}

impl HitShape {
    fn read(r: &mut Reader) -> MdxResult<HitShape> {
        let kind = r.u8()?;
        let need = match kind {
            0 => 24,
            1 => 20,
            2 => 16,
            3 => 8,
            _ => return Ok(HitShape::Unparsed(kind)),
        };
        if r.remaining() < need {
            return Ok(HitShape::Unparsed(kind));
        }
        Ok(match kind {
            0 => HitShape::Box {
                minimum: r.f32s()?,
                maximum: r.f32s()?,
            },
            1 => HitShape::Cylinder {
                base: r.f32s()?,
                height: r.f32()?,
                radius: r.f32()?,
            },
            2 => HitShape::Sphere {
                center: r.f32s()?,
                radius: r.f32()?,
            },
            _ => HitShape::Plane {
                length: r.f32()?,
                width: r.f32()?,
            },
        })
    }

    fn write(&self, w: &mut Writer) {
        match self {
            HitShape::Box { minimum, maximum } => {
                w.u8(0);
                w.f32s(minimum);
                w.f32s(maximum);
            }
            HitShape::Cylinder {
                base,
                height,
                radius,
            } => {
                w.u8(1);
                w.f32s(base);
                w.f32(*height);
                w.f32(*radius);
            }
            HitShape::Sphere { center, radius } => {
                w.u8(2);
                w.f32s(center);
                w.f32(*radius);
            }
            HitShape::Plane { length, width } => {
                w.u8(3);
                w.f32(*length);
                w.f32(*width);
            }
            HitShape::Unparsed(kind) => w.u8(*kind),
        }
    }
}

/// A hit-test shape (`MDLHITTESTSHAPE`): size, generic object, shape.
#[derive(Clone, Debug, PartialEq)]
pub struct HitTestShape {
    /// The generic object.
    pub object: GenObject,
    /// The shape.
    pub shape: HitShape,
    /// Bytes after the shape inside the record's size, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for HitTestShape {
    const NAME: &'static str = "HitTestShape";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut h = r.inclusive_region(4 + 96 + 1)?;
        let object = GenObject::read_mdx(&mut h, version)?;
        let shape = HitShape::read(&mut h)?;
        Ok(HitTestShape {
            object,
            shape,
            tail: h.rest().to_vec(),
        })
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            self.object.write_mdx(w, version)?;
            self.shape.write(w);
            w.bytes(&self.tail);
            Ok(())
        })
    }
}
