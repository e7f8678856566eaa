//! Lights (LITE): a node plus type, attenuation, color, intensity, ambient color and
//! intensity (and shadow intensity from 1200), then KLAS KLAE KLAC KLAI KLBI KLBC KLAV tracks.

use crate::format::version as ver;
use crate::mdx::reader::Reader;
use crate::mdx::record::{write_sized, MdxRecord};
use crate::mdx::tracks::{read_tracks, write_tracks};
use crate::mdx::writer::Writer;
use crate::mdx::MdxResult;

use super::{Node, Tracks};

/// Light types.
pub mod light_type {
    /// Omnidirectional.
    pub const OMNIDIRECTIONAL: u32 = 0;
    /// Directional.
    pub const DIRECTIONAL: u32 = 1;
    /// Ambient.
    pub const AMBIENT: u32 = 2;
}

/// A light source.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Light {
    /// The node part.
    pub node: Node,
    /// Light type (see [`light_type`]); unknown values kept.
    pub light_type: u32,
    /// Attenuation start and end.
    pub attenuation: [f32; 2],
    /// Color, stored blue, green, red.
    pub color: [f32; 3],
    /// Intensity.
    pub intensity: f32,
    /// Ambient color, stored blue, green, red.
    pub ambient_color: [f32; 3],
    /// Ambient intensity.
    pub ambient_intensity: f32,
    /// Shadow intensity (1200+).
    pub shadow_intensity: f32,
    /// Tracks in file order.
    pub tracks: Tracks,
    /// Bytes after the tracks inside the record's size, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for Light {
    const NAME: &'static str = "Light";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut l = r.inclusive_region(4)?;
        let mut light = Light {
            node: Node::read_mdx(&mut l, version)?,
            light_type: l.u32()?,
            attenuation: l.f32s()?,
            color: l.f32s()?,
            intensity: l.f32()?,
            ambient_color: l.f32s()?,
            ambient_intensity: l.f32()?,
            ..Light::default()
        };
        if version >= ver::LIGHT_SHADOW {
            light.shadow_intensity = l.f32()?;
        }
        (light.tracks, light.tail) = read_tracks(&mut l)?;
        Ok(light)
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            self.node.write_mdx(w, version)?;
            w.u32(self.light_type);
            w.f32s(&self.attenuation);
            w.f32s(&self.color);
            w.f32(self.intensity);
            w.f32s(&self.ambient_color);
            w.f32(self.ambient_intensity);
            if version >= ver::LIGHT_SHADOW {
                w.f32(self.shadow_intensity);
            }
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}
