//! Model info (MODL), sequences (SEQS) and textures (TEXS): fixed-size records.

use crate::format::len;
use crate::mdx::reader::Reader;
use crate::mdx::record::MdxRecord;
use crate::mdx::writer::Writer;
use crate::mdx::{read_extent, write_extent, MdxResult};

use super::{Extent, FixedString};

/// The MODL chunk: name, animation file, extent, blend time (372 bytes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelInfo {
    /// Model name (80 bytes).
    pub name: FixedString,
    /// Animation file path (260 bytes), usually empty.
    pub animation_file: FixedString,
    /// Bounds of the whole model.
    pub extent: Extent,
    /// Blend time in milliseconds.
    pub blend_time: u32,
    /// Bytes after the 372 known ones, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for ModelInfo {
    const NAME: &'static str = "ModelInfo";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        Ok(ModelInfo {
            name: r.fixed_str(len::NAME)?,
            animation_file: r.fixed_str(len::PATH)?,
            extent: read_extent(r)?,
            blend_time: r.u32()?,
            tail: r.rest().to_vec(),
        })
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        w.fixed_str(&self.name, len::NAME, "model name")?;
        w.fixed_str(&self.animation_file, len::PATH, "animation file")?;
        write_extent(w, &self.extent);
        w.u32(self.blend_time);
        w.bytes(&self.tail);
        Ok(())
    }
}

/// Sequence flag: the animation plays once instead of looping.
pub const SEQUENCE_NON_LOOPING: u32 = 1;

/// An animation sequence (132 bytes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sequence {
    /// Name, e.g. `Stand` or `Attack - 2` (80 bytes).
    pub name: FixedString,
    /// Start and end time in milliseconds.
    pub interval: [u32; 2],
    /// Movement speed the animation was made for.
    pub move_speed: f32,
    /// Flags; 1 = non-looping. Unknown bits kept.
    pub flags: u32,
    /// How rarely the game picks this variant.
    pub rarity: f32,
    /// Sync point.
    pub sync_point: u32,
    /// Bounds during this sequence.
    pub extent: Extent,
}

impl Sequence {
    /// Whether the animation loops: [`SEQUENCE_NON_LOOPING`] is not set.
    ///
    /// ```
    /// let mut s = mdlx::model::Sequence::default();
    /// assert!(s.is_looping());
    /// s.flags |= mdlx::model::SEQUENCE_NON_LOOPING;
    /// assert!(!s.is_looping());
    /// ```
    pub fn is_looping(&self) -> bool {
        self.flags & SEQUENCE_NON_LOOPING == 0
    }

    /// Its length in milliseconds (0 when the interval runs backwards).
    pub fn length(&self) -> u32 {
        self.interval[1].saturating_sub(self.interval[0])
    }
}

impl MdxRecord for Sequence {
    const NAME: &'static str = "Sequence";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        Ok(Sequence {
            name: r.fixed_str(len::NAME)?,
            interval: [r.u32()?, r.u32()?],
            move_speed: r.f32()?,
            flags: r.u32()?,
            rarity: r.f32()?,
            sync_point: r.u32()?,
            extent: read_extent(r)?,
        })
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        w.fixed_str(&self.name, len::NAME, "sequence name")?;
        w.u32(self.interval[0]);
        w.u32(self.interval[1]);
        w.f32(self.move_speed);
        w.u32(self.flags);
        w.f32(self.rarity);
        w.u32(self.sync_point);
        write_extent(w, &self.extent);
        Ok(())
    }
}

/// Texture flag bits.
pub mod texture_flags {
    /// Wrap horizontally.
    pub const WRAP_WIDTH: u32 = 1;
    /// Wrap vertically.
    pub const WRAP_HEIGHT: u32 = 2;
}

/// A texture reference (268 bytes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Texture {
    /// Replaceable id (1 team color, 2 team glow, 11+ trees...), 0 for a file.
    pub replaceable_id: u32,
    /// Path in the game's archives (260 bytes).
    pub path: FixedString,
    /// Wrap flags; unknown bits kept.
    pub flags: u32,
}

impl MdxRecord for Texture {
    const NAME: &'static str = "Texture";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        Ok(Texture {
            replaceable_id: r.u32()?,
            path: r.fixed_str(len::PATH)?,
            flags: r.u32()?,
        })
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        w.u32(self.replaceable_id);
        w.fixed_str(&self.path, len::PATH, "texture path")?;
        w.u32(self.flags);
        Ok(())
    }
}

/// A Reforged face effect (FAFX): a name and a FaceFX file path (340 bytes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FaceEffect {
    /// Target name (80 bytes).
    pub name: FixedString,
    /// Path (260 bytes).
    pub path: FixedString,
}

impl MdxRecord for FaceEffect {
    const NAME: &'static str = "FaceEffect";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        Ok(FaceEffect {
            name: r.fixed_str(len::NAME)?,
            path: r.fixed_str(len::PATH)?,
        })
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        w.fixed_str(&self.name, len::NAME, "face effect name")?;
        w.fixed_str(&self.path, len::PATH, "face effect path")
    }
}
