//! Texture animations (TXAN) and geoset animations (GEOA): sized records of tracks.

use crate::mdx::reader::Reader;
use crate::mdx::record::{write_sized, MdxRecord};
use crate::mdx::tracks::{read_tracks, write_tracks};
use crate::mdx::writer::Writer;
use crate::mdx::MdxResult;

use super::Tracks;

/// A texture animation: translation (KTAT), rotation (KTAR) and scaling (KTAS) of UVs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextureAnimation {
    /// The tracks, in file order.
    pub tracks: Tracks,
    /// Bytes after the tracks inside the record's size, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for TextureAnimation {
    const NAME: &'static str = "TextureAnimation";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        let mut t = r.inclusive_region(4)?;
        let (tracks, tail) = read_tracks(&mut t)?;
        Ok(TextureAnimation { tracks, tail })
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        write_sized(w, |w| write_tracks(w, &self.tracks, &self.tail))
    }
}

/// Geoset animation flag bits.
pub mod geoset_animation_flags {
    /// Drop shadow.
    pub const DROP_SHADOW: u32 = 0x1;
    /// The color field is used.
    pub const USE_COLOR: u32 = 0x2;
}

/// A geoset animation: visibility (alpha) and color of one geoset.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GeosetAnimation {
    /// Static alpha.
    pub alpha: f32,
    /// Flags (see [`geoset_animation_flags`]); unknown bits kept.
    pub flags: u32,
    /// Static color, stored blue, green, red.
    pub color: [f32; 3],
    /// The geoset this animates.
    pub geoset_id: i32,
    /// KGAO (alpha) and KGAC (color) tracks.
    pub tracks: Tracks,
    /// Bytes after the tracks inside the record's size, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for GeosetAnimation {
    const NAME: &'static str = "GeosetAnimation";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        let mut g = r.inclusive_region(28)?;
        let alpha = g.f32()?;
        let flags = g.u32()?;
        let color = g.f32s()?;
        let geoset_id = g.i32()?;
        let (tracks, tail) = read_tracks(&mut g)?;
        Ok(GeosetAnimation {
            alpha,
            flags,
            color,
            geoset_id,
            tracks,
            tail,
        })
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            w.f32(self.alpha);
            w.u32(self.flags);
            w.f32s(&self.color);
            w.i32(self.geoset_id);
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}
