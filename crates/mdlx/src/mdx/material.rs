//! MDX reading and writing of materials and their layers (see [`Material`]): written by
//! hand, since the layer layout grows with the version (emissive gain, Fresnel, texture
//! slots) and the shader name exists in two versions only.

use crate::model::{FixedString, Layer, Material, TextureSlot};
use crate::spec::{len, sub, track, version as ver};

use super::reader::{scoped, Reader};
use super::record::{read_n, write_sized, MdxRecord};
use super::tracks::{read_track, read_tracks, write_track, write_tracks};
use super::writer::Writer;
use super::MdxResult;

impl MdxRecord for Material {
    const NAME: &'static str = "Material";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut m = r.inclusive_region(20)?;
        let priority_plane = m.i32()?;
        let flags = m.u32()?;
        let shader = if has_shader_name(version) {
            m.fixed_str(len::NAME)?
        } else {
            FixedString::default()
        };
        let layers = scoped(
            || "LAYS".into(),
            || {
                m.expect_tag(sub::LAYS)?;
                let count = m.u32()?;
                read_n(&mut m, version, count, 28)
            },
        )?;
        Ok(Material {
            priority_plane,
            flags,
            shader,
            layers,
            tail: m.rest().to_vec(),
        })
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            w.i32(self.priority_plane);
            w.u32(self.flags);
            if has_shader_name(version) {
                w.fixed_str(&self.shader, len::NAME, "material shader")?;
            }
            w.tag(sub::LAYS);
            w.count(self.layers.len())?;
            for l in &self.layers {
                l.write_mdx(w, version)?;
            }
            w.bytes(&self.tail);
            Ok(())
        })
    }
}

fn has_shader_name(version: u32) -> bool {
    (ver::REFORGED..ver::TEXTURE_SLOTS).contains(&version)
}

impl MdxRecord for Layer {
    const NAME: &'static str = "Layer";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut l = r.inclusive_region(28)?;
        let mut layer = Layer {
            filter_mode: l.u32()?,
            flags: l.u32()?,
            texture_id: l.i32()?,
            texture_animation_id: l.i32()?,
            coord_id: l.u32()?,
            alpha: l.f32()?,
            ..Layer::default()
        };
        if version >= ver::REFORGED {
            layer.emissive_gain = l.f32()?;
        }
        if version >= ver::FRESNEL {
            layer.fresnel_color = l.f32s()?;
            layer.fresnel_opacity = l.f32()?;
            layer.fresnel_team_color = l.f32()?;
        }
        if version >= ver::TEXTURE_SLOTS {
            layer.shader_type_id = l.u32()?;
            let count = l.u32()?;
            l.check_count(count, 8)?;
            for i in 0..count {
                layer.texture_slots.push(scoped(
                    || format!("TextureSlot[{i}]"),
                    || read_slot(&mut l),
                )?);
            }
        }
        (layer.tracks, layer.tail) = read_tracks(&mut l)?;
        Ok(layer)
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            w.u32(self.filter_mode);
            w.u32(self.flags);
            w.i32(self.texture_id);
            w.i32(self.texture_animation_id);
            w.u32(self.coord_id);
            w.f32(self.alpha);
            if version >= ver::REFORGED {
                w.f32(self.emissive_gain);
            }
            if version >= ver::FRESNEL {
                w.f32s(&self.fresnel_color);
                w.f32(self.fresnel_opacity);
                w.f32(self.fresnel_team_color);
            }
            if version >= ver::TEXTURE_SLOTS {
                w.u32(self.shader_type_id);
                w.count(self.texture_slots.len())?;
                for s in &self.texture_slots {
                    w.i32(s.texture_id);
                    w.u32(s.role);
                    if let Some(t) = &s.texture_id_track {
                        w.tag(track::KMTF);
                        write_track(w, t)?;
                    }
                }
            }
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}

fn read_slot(l: &mut Reader) -> MdxResult<TextureSlot> {
    let texture_id = l.i32()?;
    let role = l.u32()?;
    let texture_id_track = if l.peek_tag() == Some(track::KMTF) {
        l.tag()?;
        Some(scoped(|| "KMTF".into(), || read_track(l))?)
    } else {
        None
    };
    Ok(TextureSlot {
        texture_id,
        role,
        texture_id_track,
    })
}
