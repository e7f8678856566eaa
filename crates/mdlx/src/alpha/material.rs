//! Materials and layers (MTLS), textures (TEXS), texture animations (TXAN) and geoset
//! animations (GEOA) of the alpha family.
//!
//! Unlike Warcraft III, an alpha material has no flags and no `LAYS` tag: it is
//! `size (inclusive), priority plane, layer count`, then the layers (checked on the boar).
//! A layer is `size (inclusive), blend mode, flags, texture id, transform id, coord id,
//! static alpha`, then `KMTA` (keyed) and `KMTF` (simple) tracks.

use crate::mdx::reader::Reader;
use crate::mdx::record::declared_record as record;
use crate::mdx::record::{read_n, write_sized, MdxRecord};
use crate::mdx::writer::Writer;
use crate::mdx::MdxResult;

use super::tracks::{read_tracks, write_tracks, AlphaTracks};

/// Layer flag bits (`MDLGEO`).
pub mod layer_flags {
    /// Unshaded.
    pub const UNSHADED: u32 = 0x1;
    /// Sphere environment map (unused until 1500).
    pub const SPHERE_ENV_MAP: u32 = 0x2;
    /// Wrap width (unused until 1500).
    pub const WRAP_WIDTH: u32 = 0x4;
    /// Wrap height (unused until 1500).
    pub const WRAP_HEIGHT: u32 = 0x8;
    /// Two-sided.
    pub const TWO_SIDED: u32 = 0x10;
    /// Unfogged.
    pub const UNFOGGED: u32 = 0x20;
    /// No depth test.
    pub const NO_DEPTH_TEST: u32 = 0x40;
    /// No depth set.
    pub const NO_DEPTH_SET: u32 = 0x80;
    /// Added in 1500, meaning unknown.
    pub const UNKNOWN_1500: u32 = 0x100;
}

/// A material (`MDLMATERIALSECTION`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Material {
    /// Render priority (lowest first).
    pub priority_plane: i32,
    /// The layers.
    pub layers: Vec<Layer>,
    /// Bytes inside the material's size after its layers, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for Material {
    const NAME: &'static str = "Material";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut m = r.inclusive_region(12)?;
        let priority_plane = m.i32()?;
        let count = m.u32()?;
        let layers = read_n(&mut m, version, count, 28)?;
        Ok(Material {
            priority_plane,
            layers,
            tail: m.rest().to_vec(),
        })
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            w.i32(self.priority_plane);
            w.count(self.layers.len())?;
            for l in &self.layers {
                l.write_mdx(w, version)?;
            }
            w.bytes(&self.tail);
            Ok(())
        })
    }
}

/// A material layer (`MDLTEXLAYER`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layer {
    /// Blend mode (`MDLTEXOP`: 0 load, 1 transparent, 2 blend, 3 add, 4 add alpha,
    /// 5 modulate, 6 modulate 2x); unknown values kept.
    pub blend_mode: u32,
    /// Flags (see [`layer_flags`]); unknown bits kept.
    pub flags: u32,
    /// TEXS index, or -1.
    pub texture_id: i32,
    /// TXAN index, or -1.
    pub transform_id: i32,
    /// UV set index, or -1 for none.
    pub coord_id: i32,
    /// Static alpha (0 transparent, 1 opaque).
    pub alpha: f32,
    /// `KMTA` (keyed) and `KMTF` (simple) tracks in file order.
    pub tracks: AlphaTracks,
    /// Bytes inside the layer's size after its tracks, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for Layer {
    const NAME: &'static str = "Layer";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        let mut l = r.inclusive_region(28)?;
        let mut layer = Layer {
            blend_mode: l.u32()?,
            flags: l.u32()?,
            texture_id: l.i32()?,
            transform_id: l.i32()?,
            coord_id: l.i32()?,
            alpha: l.f32()?,
            ..Layer::default()
        };
        (layer.tracks, layer.tail) = read_tracks(&mut l)?;
        Ok(layer)
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            w.u32(self.blend_mode);
            w.u32(self.flags);
            w.i32(self.texture_id);
            w.i32(self.transform_id);
            w.i32(self.coord_id);
            w.f32(self.alpha);
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}

/// A texture (`MDLTEXTURESECTION`, 268 bytes): the same record as Warcraft III's
/// (`REPLACEABLE_MATERIAL_IDS`: 1 skin, 2 object skin, ... 11-13 monster skins; the boar's
/// only texture is 11, monster 1).
pub type Texture = crate::model::Texture;

/// Bytes of a texture record.
pub const TEXTURE_SIZE: usize = 268;

record! {
    /// A texture animation (`MDLTEXANIMSECTION`): size, then `KTAT KTAR KTAS` (`KTAR` packed).
    TextureAnimation = "TextureAnimation" in "TVertexAnim" {
        size 4;
        tracks(tracks, tail: AlphaTracks) [];
        custom_mdl "the alpha family has no MDL";
    }
    fields {}
}

/// A geoset animation (`MDLGEOSETANIMSECTION`). The order differs from Warcraft III:
/// `size, geoset id, static alpha, static color, flags`, then `KGAO KGAC`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GeosetAnimation {
    /// GEOS index, or -1.
    pub geoset_id: i32,
    /// Static alpha.
    pub alpha: f32,
    /// Static color, blue, green, red.
    pub color: [f32; 3],
    /// Flags (1 = the color is used); unknown bits kept.
    pub flags: u32,
    /// Tracks in file order.
    pub tracks: AlphaTracks,
    /// Bytes after the tracks inside the record's size, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for GeosetAnimation {
    const NAME: &'static str = "GeosetAnimation";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        let mut g = r.inclusive_region(28)?;
        let mut ga = GeosetAnimation {
            geoset_id: g.i32()?,
            alpha: g.f32()?,
            color: g.f32s()?,
            flags: g.u32()?,
            ..Default::default()
        };
        (ga.tracks, ga.tail) = read_tracks(&mut g)?;
        Ok(ga)
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            w.i32(self.geoset_id);
            w.f32(self.alpha);
            w.f32s(&self.color);
            w.u32(self.flags);
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}
