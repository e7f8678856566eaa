//! Lights (LITE), particle emitters (PREM), particle emitters 2 (PRE2) and ribbon emitters
//! (RIBB) of the alpha family: `size (inclusive)`, a generic object, fixed fields, then
//! tracks until the size is used up. The boar has none of these; the layouts follow the
//! page field by field.

use crate::mdx::reader::Reader;
use crate::mdx::record::{write_sized, MdxRecord};
use crate::mdx::writer::Writer;
use crate::mdx::MdxResult;
use crate::model::FixedString;
use crate::spec::len;

use super::node::GenObject;
use super::tracks::{read_tracks, write_tracks, AlphaTracks};
use crate::mdx::record::declared_record as record;

crate::model::light_fields! {
    record! {
        /// A light (`MDLLIGHTSECTION`): the fields of a Warcraft III light before 1200, after a
        /// generic object.
        Light = "Light" in "Light" {
            head object: GenObject;
            size 4 + 96 + LIGHT_FIXED;
            tracks(tracks, tail: AlphaTracks) [];
            custom_mdl "the alpha family has no MDL";
        }
    } {} {}
}

/// Bytes of a light after its generic object: type, two attenuations, color, intensity,
/// ambient color, ambient intensity.
pub const LIGHT_FIXED: usize = 44;

crate::model::particle_emitter_fields! {
    record! {
        /// A model-spawning particle emitter (`MDLPARTICLEEMITTER`, deprecated in favour of PRE2).
        /// The page nests `path, life, speed, KPEL, KPES` in an `MDLPARTICLE` that comes right
        /// after the four static values and before the emitter's own tracks, so all tracks follow
        /// the fixed fields, in any order.
        ParticleEmitter = "ParticleEmitter" in "ParticleEmitter" {
            head object: GenObject;
            size 4 + 96 + 24 + crate::spec::len::PATH;
            tracks(tracks, tail: AlphaTracks) [];
            custom_mdl "the alpha family has no MDL";
        }
    } {}
}

/// A sprite particle emitter (`MDLPARTICLEEMITTER2`), page order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParticleEmitter2 {
    /// The generic object (flags 0x8000 and up are particle flags).
    pub object: GenObject,
    /// The u32 the page calls `emitterSize`. What it measures is not said and no file with
    /// a PRE2 is at hand, so it is kept as read, not recomputed. The fixtures of
    /// `tests/alpha.rs` store the bytes from this field through `squirts`.
    // TODO: kept but not understood; settle with a real alpha file that has PRE2.
    pub emitter_size: u32,
    /// `PARTICLE_EMITTER_TYPE`: 0 base, 1 plane, 2 sphere, 3 spline.
    pub emitter_type: u32,
    /// Speed.
    pub speed: f32,
    /// Speed variation.
    pub variation: f32,
    /// Latitude.
    pub latitude: f32,
    /// Longitude.
    pub longitude: f32,
    /// Gravity (z acceleration).
    pub gravity: f32,
    /// Z source (subtracted from the start height).
    pub z_source: f32,
    /// Particle life in seconds.
    pub life: f32,
    /// Particles per second.
    pub emission_rate: f32,
    /// Length (spline: end angle; sphere: outer radius).
    pub length: f32,
    /// Width (spline: start angle; sphere: inner radius).
    pub width: f32,
    /// Texture rows.
    pub rows: u32,
    /// Texture columns.
    pub columns: u32,
    /// `PARTICLE_TYPE`: 0 head, 1 tail, 2 both.
    pub particle_type: u32,
    /// Tail length.
    pub tail_length: f32,
    /// Middle time (0..1).
    pub middle_time: f32,
    /// Start, middle, end colors, each blue, green, red.
    pub colors: [[f32; 3]; 3],
    /// Start, middle, end alpha (0..255).
    pub alphas: [u8; 3],
    /// Start, middle, end scale.
    pub scales: [f32; 3],
    /// UV animations as start, end, repeat: life span, decay, tail, tail decay.
    pub uv_animations: [[u32; 3]; 4],
    /// `PARTICLE_BLEND_MODE`: 0 blend, 1 add, 2 modulate, 3 modulate 2x, 4 alpha key.
    pub blend_mode: u32,
    /// TEXS index, or -1.
    pub texture_id: i32,
    /// Priority plane.
    pub priority_plane: i32,
    /// Replaceable id.
    pub replaceable_id: u32,
    /// Particle model (260 bytes).
    pub geometry_model: FixedString,
    /// Recursion model (260 bytes).
    pub recursion_model: FixedString,
    /// Twinkle: frames per second, on/off, scale min, scale max.
    pub twinkle: [f32; 4],
    /// Instant velocity scale.
    pub ivel_scale: f32,
    /// Tumble ranges about x, y, z, each (min, max).
    pub tumble: [[f32; 2]; 3],
    /// Drag.
    pub drag: f32,
    /// Spin.
    pub spin: f32,
    /// Wind vector.
    pub wind_vector: [f32; 3],
    /// How long the wind applies.
    pub wind_time: f32,
    /// Follow speed 1, scale 1, speed 2, scale 2.
    pub follow: [f32; 4],
    /// Spline points (count-prefixed).
    pub splines: Vec<[f32; 3]>,
    /// Squirts (boolean).
    pub squirts: u32,
    /// `KVIS KP2S KP2R KP2L KPLN KP2G KLIF KP2E KP2W KP2N KP2Z` tracks in file order.
    pub tracks: AlphaTracks,
    /// Bytes after the tracks inside the record's size, kept.
    pub tail: Vec<u8>,
}

/// Bytes from `emitter_size` through `squirts`, without spline points.
pub const EMITTER2_FIXED: usize = 795;

fn u32s<const N: usize>(r: &mut Reader) -> MdxResult<[u32; N]> {
    let mut out = [0; N];
    for v in &mut out {
        *v = r.u32()?;
    }
    Ok(out)
}

impl MdxRecord for ParticleEmitter2 {
    const NAME: &'static str = "ParticleEmitter2";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut e = r.inclusive_region(4 + 96 + EMITTER2_FIXED)?;
        let e = &mut e;
        let mut p = ParticleEmitter2 {
            object: GenObject::read_mdx(e, version)?,
            emitter_size: e.u32()?,
            emitter_type: e.u32()?,
            speed: e.f32()?,
            variation: e.f32()?,
            latitude: e.f32()?,
            longitude: e.f32()?,
            gravity: e.f32()?,
            z_source: e.f32()?,
            life: e.f32()?,
            emission_rate: e.f32()?,
            length: e.f32()?,
            width: e.f32()?,
            rows: e.u32()?,
            columns: e.u32()?,
            particle_type: e.u32()?,
            tail_length: e.f32()?,
            middle_time: e.f32()?,
            colors: [e.f32s()?, e.f32s()?, e.f32s()?],
            alphas: [e.u8()?, e.u8()?, e.u8()?],
            scales: e.f32s()?,
            uv_animations: [u32s(e)?, u32s(e)?, u32s(e)?, u32s(e)?],
            blend_mode: e.u32()?,
            texture_id: e.i32()?,
            priority_plane: e.i32()?,
            replaceable_id: e.u32()?,
            geometry_model: e.fixed_str(len::PATH)?,
            recursion_model: e.fixed_str(len::PATH)?,
            twinkle: e.f32s()?,
            ivel_scale: e.f32()?,
            tumble: [e.f32s()?, e.f32s()?, e.f32s()?],
            drag: e.f32()?,
            spin: e.f32()?,
            wind_vector: e.f32s()?,
            wind_time: e.f32()?,
            follow: e.f32s()?,
            ..Default::default()
        };
        p.splines = e.counted_f32()?;
        p.squirts = e.u32()?;
        (p.tracks, p.tail) = read_tracks(e)?;
        Ok(p)
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            self.object.write_mdx(w, version)?;
            w.u32(self.emitter_size);
            w.u32(self.emitter_type);
            for v in [
                self.speed,
                self.variation,
                self.latitude,
                self.longitude,
                self.gravity,
                self.z_source,
                self.life,
                self.emission_rate,
                self.length,
                self.width,
            ] {
                w.f32(v);
            }
            w.vec_u32(&[self.rows, self.columns, self.particle_type]);
            w.f32(self.tail_length);
            w.f32(self.middle_time);
            w.vec_f32(&self.colors);
            w.bytes(&self.alphas);
            w.f32s(&self.scales);
            for uv in &self.uv_animations {
                w.vec_u32(uv);
            }
            w.u32(self.blend_mode);
            w.i32(self.texture_id);
            w.i32(self.priority_plane);
            w.u32(self.replaceable_id);
            w.fixed_str(&self.geometry_model, len::PATH, "geometry model")?;
            w.fixed_str(&self.recursion_model, len::PATH, "recursion model")?;
            w.f32s(&self.twinkle);
            w.f32(self.ivel_scale);
            w.vec_f32(&self.tumble);
            w.f32(self.drag);
            w.f32(self.spin);
            w.f32s(&self.wind_vector);
            w.f32(self.wind_time);
            w.f32s(&self.follow);
            w.count(self.splines.len())?;
            w.vec_f32(&self.splines);
            w.u32(self.squirts);
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}

/// A ribbon emitter (`MDLRIBBONEMITTER`), page order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RibbonEmitter {
    /// The generic object.
    pub object: GenObject,
    /// The u32 the page calls `emitterSize`; kept as read (see
    /// [`ParticleEmitter2::emitter_size`]). The fixtures store 56, the bytes from this
    /// field through `gravity`.
    // TODO: kept but not understood; settle with a real alpha file that has RIBB.
    pub emitter_size: u32,
    /// Height above the node.
    pub height_above: f32,
    /// Height below the node.
    pub height_below: f32,
    /// Static alpha.
    pub alpha: f32,
    /// Color, blue, green, red.
    pub color: [f32; 3],
    /// Edge life time in seconds.
    pub edge_lifetime: f32,
    /// Texture slot.
    pub texture_slot: u32,
    /// Edges per second.
    pub edges_per_second: u32,
    /// Texture rows.
    pub rows: u32,
    /// Texture columns.
    pub columns: u32,
    /// MTLS index.
    pub material_id: u32,
    /// Gravity.
    pub gravity: f32,
    /// `KRHA KRHB KRAL KRCO KRTX KVIS` tracks in file order.
    pub tracks: AlphaTracks,
    /// Bytes after the tracks inside the record's size, kept.
    pub tail: Vec<u8>,
}

/// Bytes from `emitter_size` through `gravity`.
pub const RIBBON_FIXED: usize = 56;

impl MdxRecord for RibbonEmitter {
    const NAME: &'static str = "RibbonEmitter";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut e = r.inclusive_region(4 + 96 + RIBBON_FIXED)?;
        let mut p = RibbonEmitter {
            object: GenObject::read_mdx(&mut e, version)?,
            emitter_size: e.u32()?,
            height_above: e.f32()?,
            height_below: e.f32()?,
            alpha: e.f32()?,
            color: e.f32s()?,
            edge_lifetime: e.f32()?,
            texture_slot: e.u32()?,
            edges_per_second: e.u32()?,
            rows: e.u32()?,
            columns: e.u32()?,
            material_id: e.u32()?,
            gravity: e.f32()?,
            ..Default::default()
        };
        (p.tracks, p.tail) = read_tracks(&mut e)?;
        Ok(p)
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            self.object.write_mdx(w, version)?;
            w.u32(self.emitter_size);
            w.f32(self.height_above);
            w.f32(self.height_below);
            w.f32(self.alpha);
            w.f32s(&self.color);
            w.f32(self.edge_lifetime);
            w.vec_u32(&[
                self.texture_slot,
                self.edges_per_second,
                self.rows,
                self.columns,
                self.material_id,
            ]);
            w.f32(self.gravity);
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}
