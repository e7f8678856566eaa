//! Particle emitters (PREM), particle emitters 2 (PRE2), ribbon emitters (RIBB) and
//! Reforged popcorn emitters (CORN): a node, fixed fields, then tracks, in one inclusive size.

use crate::format::len;
use crate::mdx::reader::Reader;
use crate::mdx::record::{write_sized, MdxRecord};
use crate::mdx::tracks::{read_tracks, write_tracks};
use crate::mdx::writer::Writer;
use crate::mdx::MdxResult;

use super::{FixedString, Node, Tracks};

/// A classic particle emitter that spawns copies of a model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParticleEmitter {
    /// The node part (its flags hold the emitter-uses-MDL/TGA bits).
    pub node: Node,
    /// Particles per second.
    pub emission_rate: f32,
    /// Gravity.
    pub gravity: f32,
    /// Longitude.
    pub longitude: f32,
    /// Latitude.
    pub latitude: f32,
    /// Spawned model path (260 bytes).
    pub path: FixedString,
    /// Particle life span.
    pub life_span: f32,
    /// Initial speed.
    pub speed: f32,
    /// KPEE KPEG KPLN KPLT KPEL KPES KPEV tracks.
    pub tracks: Tracks,
    /// Bytes after the tracks, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for ParticleEmitter {
    const NAME: &'static str = "ParticleEmitter";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut e = r.inclusive_region(4)?;
        let mut p = ParticleEmitter {
            node: Node::read_mdx(&mut e, version)?,
            emission_rate: e.f32()?,
            gravity: e.f32()?,
            longitude: e.f32()?,
            latitude: e.f32()?,
            path: e.fixed_str(len::PATH)?,
            life_span: e.f32()?,
            speed: e.f32()?,
            ..Default::default()
        };
        (p.tracks, p.tail) = read_tracks(&mut e)?;
        Ok(p)
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            self.node.write_mdx(w, version)?;
            w.f32(self.emission_rate);
            w.f32(self.gravity);
            w.f32(self.longitude);
            w.f32(self.latitude);
            w.fixed_str(&self.path, len::PATH, "particle emitter path")?;
            w.f32(self.life_span);
            w.f32(self.speed);
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}

/// The sprite particle emitter used by most effects.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParticleEmitter2 {
    /// The node part.
    pub node: Node,
    /// Speed.
    pub speed: f32,
    /// Speed variation.
    pub variation: f32,
    /// Latitude.
    pub latitude: f32,
    /// Gravity.
    pub gravity: f32,
    /// Particle life span.
    pub life_span: f32,
    /// Particles per second.
    pub emission_rate: f32,
    /// Emitter length: the first of the two emitter-area floats, as seeds 000 and 003 and the
    /// `wc3` crate name it (mdx-m3-viewer calls this one width).
    pub length: f32,
    /// Emitter width: the second emitter-area float (see `length`).
    pub width: f32,
    /// Blend mode.
    pub filter_mode: u32,
    /// Texture rows.
    pub rows: u32,
    /// Texture columns.
    pub columns: u32,
    /// 0 head, 1 tail, 2 both; unknown values kept.
    pub head_or_tail: u32,
    /// Tail length.
    pub tail_length: f32,
    /// Middle time (0..1).
    pub time: f32,
    /// Start, middle, end colors, each blue, green, red.
    pub segment_colors: [[f32; 3]; 3],
    /// Start, middle, end alpha (0..255).
    pub segment_alphas: [u8; 3],
    /// Start, middle, end scaling.
    pub segment_scaling: [f32; 3],
    /// Head life-span UV animation: start, end, repeat.
    pub head_intervals: [u32; 3],
    /// Head decay UV animation: start, end, repeat.
    pub head_decay_intervals: [u32; 3],
    /// Tail life-span UV animation: start, end, repeat.
    pub tail_intervals: [u32; 3],
    /// Tail decay UV animation: start, end, repeat.
    pub tail_decay_intervals: [u32; 3],
    /// Texture id.
    pub texture_id: i32,
    /// Squirt (1 = emit all at once on visibility).
    pub squirt: u32,
    /// Priority plane.
    pub priority_plane: i32,
    /// Replaceable id.
    pub replaceable_id: u32,
    /// KP2S KP2R KP2L KP2G KP2E KP2N KP2W KP2V tracks.
    pub tracks: Tracks,
    /// Bytes after the tracks, kept.
    pub tail: Vec<u8>,
}

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
        let mut e = r.inclusive_region(4)?;
        let e = &mut e;
        let mut p = ParticleEmitter2 {
            node: Node::read_mdx(e, version)?,
            speed: e.f32()?,
            variation: e.f32()?,
            latitude: e.f32()?,
            gravity: e.f32()?,
            life_span: e.f32()?,
            emission_rate: e.f32()?,
            length: e.f32()?,
            width: e.f32()?,
            filter_mode: e.u32()?,
            rows: e.u32()?,
            columns: e.u32()?,
            head_or_tail: e.u32()?,
            tail_length: e.f32()?,
            time: e.f32()?,
            segment_colors: [e.f32s()?, e.f32s()?, e.f32s()?],
            segment_alphas: [e.u8()?, e.u8()?, e.u8()?],
            segment_scaling: e.f32s()?,
            head_intervals: u32s(e)?,
            head_decay_intervals: u32s(e)?,
            tail_intervals: u32s(e)?,
            tail_decay_intervals: u32s(e)?,
            texture_id: e.i32()?,
            squirt: e.u32()?,
            priority_plane: e.i32()?,
            replaceable_id: e.u32()?,
            ..Default::default()
        };
        (p.tracks, p.tail) = read_tracks(e)?;
        Ok(p)
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            self.node.write_mdx(w, version)?;
            for v in [
                self.speed,
                self.variation,
                self.latitude,
                self.gravity,
                self.life_span,
                self.emission_rate,
            ] {
                w.f32(v);
            }
            w.f32(self.length);
            w.f32(self.width);
            for v in [self.filter_mode, self.rows, self.columns, self.head_or_tail] {
                w.u32(v);
            }
            w.f32(self.tail_length);
            w.f32(self.time);
            for c in &self.segment_colors {
                w.f32s(c);
            }
            w.bytes(&self.segment_alphas);
            w.f32s(&self.segment_scaling);
            for iv in [
                &self.head_intervals,
                &self.head_decay_intervals,
                &self.tail_intervals,
                &self.tail_decay_intervals,
            ] {
                w.vec_u32(iv);
            }
            w.i32(self.texture_id);
            w.u32(self.squirt);
            w.i32(self.priority_plane);
            w.u32(self.replaceable_id);
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}

/// A ribbon emitter: a trail of quads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RibbonEmitter {
    /// The node part.
    pub node: Node,
    /// Height above the node.
    pub height_above: f32,
    /// Height below the node.
    pub height_below: f32,
    /// Alpha.
    pub alpha: f32,
    /// Color, blue, green, red.
    pub color: [f32; 3],
    /// Life span of a segment.
    pub life_span: f32,
    /// Texture slot.
    pub texture_slot: u32,
    /// Segments per second.
    pub emission_rate: u32,
    /// Texture rows.
    pub rows: u32,
    /// Texture columns.
    pub columns: u32,
    /// Material id.
    pub material_id: i32,
    /// Gravity.
    pub gravity: f32,
    /// KRHA KRHB KRAL KRCO KRTX KRVS tracks.
    pub tracks: Tracks,
    /// Bytes after the tracks, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for RibbonEmitter {
    const NAME: &'static str = "RibbonEmitter";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut e = r.inclusive_region(4)?;
        let mut p = RibbonEmitter {
            node: Node::read_mdx(&mut e, version)?,
            height_above: e.f32()?,
            height_below: e.f32()?,
            alpha: e.f32()?,
            color: e.f32s()?,
            life_span: e.f32()?,
            texture_slot: e.u32()?,
            emission_rate: e.u32()?,
            rows: e.u32()?,
            columns: e.u32()?,
            material_id: e.i32()?,
            gravity: e.f32()?,
            ..Default::default()
        };
        (p.tracks, p.tail) = read_tracks(&mut e)?;
        Ok(p)
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            self.node.write_mdx(w, version)?;
            w.f32(self.height_above);
            w.f32(self.height_below);
            w.f32(self.alpha);
            w.f32s(&self.color);
            w.f32(self.life_span);
            for v in [
                self.texture_slot,
                self.emission_rate,
                self.rows,
                self.columns,
            ] {
                w.u32(v);
            }
            w.i32(self.material_id);
            w.f32(self.gravity);
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}

/// A Reforged popcorn emitter (PopcornFX effect).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PopcornEmitter {
    /// The node part.
    pub node: Node,
    /// Life span.
    pub life_span: f32,
    /// Emission rate.
    pub emission_rate: f32,
    /// Speed.
    pub speed: f32,
    /// Color, blue, green, red.
    pub color: [f32; 3],
    /// Alpha.
    pub alpha: f32,
    /// Replaceable id.
    pub replaceable_id: u32,
    /// Effect file path (260 bytes).
    pub path: FixedString,
    /// Animation visibility guide (260 bytes).
    pub animation_visibility_guide: FixedString,
    /// KPPA KPPC KPPE KPPL KPPS KPPV tracks.
    pub tracks: Tracks,
    /// Bytes after the tracks, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for PopcornEmitter {
    const NAME: &'static str = "PopcornEmitter";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut e = r.inclusive_region(4)?;
        let mut p = PopcornEmitter {
            node: Node::read_mdx(&mut e, version)?,
            life_span: e.f32()?,
            emission_rate: e.f32()?,
            speed: e.f32()?,
            color: e.f32s()?,
            alpha: e.f32()?,
            replaceable_id: e.u32()?,
            path: e.fixed_str(len::PATH)?,
            animation_visibility_guide: e.fixed_str(len::PATH)?,
            ..Default::default()
        };
        (p.tracks, p.tail) = read_tracks(&mut e)?;
        Ok(p)
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            self.node.write_mdx(w, version)?;
            w.f32(self.life_span);
            w.f32(self.emission_rate);
            w.f32(self.speed);
            w.f32s(&self.color);
            w.f32(self.alpha);
            w.u32(self.replaceable_id);
            w.fixed_str(&self.path, len::PATH, "popcorn path")?;
            w.fixed_str(
                &self.animation_visibility_guide,
                len::PATH,
                "animation visibility guide",
            )?;
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}
