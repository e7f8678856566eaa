//! Materials and textures of an exported model (the mapping is described in the
//! documentation of [`crate::convert::gltf`]).

use super::buffer::Bin;
use super::{extras, Losses};
use crate::model::{filter_mode, geoset_animation_flags, layer_flags, Layer, Model};
use crate::spec::track::KGAO;
use crate::texture::TextureFinder;
use gltf_json::material::{
    AlphaCutoff, AlphaMode, EmissiveFactor, NormalTexture, OcclusionTexture, PbrBaseColorFactor,
    PbrMetallicRoughness, StrengthFactor,
};
use gltf_json::texture::{Info, Sampler, WrappingMode};
use gltf_json::validation::Checked;
use gltf_json::{Index, Root};
use serde_json::json;
use std::collections::HashMap;

/// Builds materials and their textures, once each.
pub(super) struct Materials<'m> {
    model: &'m Model,
    team: [u8; 3],
    finder: TextureFinder,
    /// By (texture id, team colour baked in): the glTF texture, or `None` when missing.
    textures: HashMap<(usize, bool), Option<Index<gltf_json::Texture>>>,
    samplers: HashMap<u32, Index<Sampler>>,
    /// By (material id, alpha bits, colour bits).
    materials: HashMap<(u32, u32, [u32; 3]), Index<gltf_json::Material>>,
    missing: Vec<(String, String)>,
    unlit: bool,
}

impl<'m> Materials<'m> {
    pub(super) fn new(model: &'m Model, options: &super::ExportOptions) -> Materials<'m> {
        Materials {
            model,
            team: options.team_color,
            finder: TextureFinder::new(options.texture_dirs.clone()),
            textures: HashMap::new(),
            samplers: HashMap::new(),
            materials: HashMap::new(),
            missing: Vec::new(),
            unlit: false,
        }
    }

    /// The material of geoset `gi`, with its geoset animation's static alpha and colour.
    pub(super) fn for_geoset(
        &mut self,
        root: &mut Root,
        bin: &mut Bin,
        gi: usize,
        losses: &mut Losses,
    ) -> Index<gltf_json::Material> {
        let model = self.model;
        let g = &model.geosets[gi];
        let (mut alpha, mut color) = (1.0f32, [1.0f32; 3]);
        if let Some(ga) = model
            .geoset_animations
            .iter()
            .find(|a| a.geoset_id == gi as i32)
        {
            if ga.tracks.float(KGAO).is_none() && ga.alpha.is_finite() {
                alpha = ga.alpha.clamp(0.0, 1.0);
            }
            if ga.flags & geoset_animation_flags::USE_COLOR != 0
                && ga.color.iter().all(|c| c.is_finite())
            {
                // Stored blue, green, red.
                color = [ga.color[2], ga.color[1], ga.color[0]].map(|c| c.clamp(0.0, 1.0));
            }
        }
        let key = (g.material_id, alpha.to_bits(), color.map(f32::to_bits));
        if let Some(&m) = self.materials.get(&key) {
            return m;
        }
        let m = self.build(root, bin, g.material_id, alpha, color, losses);
        self.materials.insert(key, m);
        m
    }

    fn sampler(&mut self, root: &mut Root, flags: u32) -> Index<Sampler> {
        *self.samplers.entry(flags & 3).or_insert_with(|| {
            let wrap = |on: bool| {
                Checked::Valid(if on {
                    WrappingMode::Repeat
                } else {
                    WrappingMode::ClampToEdge
                })
            };
            root.push(Sampler {
                mag_filter: None,
                min_filter: None,
                name: None,
                wrap_s: wrap(flags & 1 != 0),
                wrap_t: wrap(flags & 2 != 0),
                extensions: None,
                extras: Default::default(),
            })
        })
    }

    /// The glTF texture of model texture `id`, over team colour when `team` is set.
    fn texture(
        &mut self,
        root: &mut Root,
        bin: &mut Bin,
        id: usize,
        team: bool,
    ) -> Option<Index<gltf_json::Texture>> {
        if let Some(t) = self.textures.get(&(id, team)) {
            return *t;
        }
        let t = self.load(root, bin, (id, team));
        self.textures.insert((id, team), t);
        t
    }

    /// What [`Self::texture`] keeps: texture `id` (over team colour when `team` is set)
    /// written into the document.
    fn load(
        &mut self,
        root: &mut Root,
        bin: &mut Bin,
        (id, team): (usize, bool),
    ) -> Option<Index<gltf_json::Texture>> {
        let tex = self.model.textures.get(id)?;
        let path = tex.path.to_string();
        if path.is_empty() {
            let what = format!("replaceable texture {}", tex.replaceable_id);
            self.missing
                .push((what, "a replaceable texture the game supplies".into()));
            return None;
        }
        let Some(found) = self.finder.load(&path) else {
            self.missing.push((path, "not found".into()));
            return None;
        };
        let shown = found.shown;
        let image = found.bytes.and_then(|data| {
            // Hand-made stand-ins are often PNG, which the game does not read.
            if data.starts_with(b"\x89PNG") {
                crate::texture::png::from_bytes(&data).map_err(|e| e.to_string())
            } else {
                crate::texture::decode(&data).map_err(|e| e.to_string())
            }
        });
        let mut image = match image {
            Ok(i) => i,
            Err(e) => {
                self.missing.push((path, format!("{shown}: {e}")));
                return None;
            }
        };
        if team {
            let tc = self.team.map(f32::from);
            for px in image.pixels.chunks_exact_mut(4) {
                let a = f32::from(px[3]) / 255.0;
                for k in 0..3 {
                    px[k] = (f32::from(px[k]) * a + tc[k] * (1.0 - a)).round() as u8;
                }
                px[3] = 255;
            }
        }
        let png = crate::texture::png::to_bytes(&image);
        let view = bin.view(root, &png, None);
        let img = root.push(gltf_json::Image {
            buffer_view: Some(view),
            mime_type: Some(gltf_json::image::MimeType("image/png".into())),
            name: Some(super::short_name(&path)),
            uri: None,
            extensions: None,
            extras: Default::default(),
        });
        let sampler = self.sampler(root, tex.flags);
        Some(root.push(gltf_json::Texture {
            name: Some(super::short_name(&path)),
            sampler: Some(sampler),
            source: img,
            extensions: None,
            extras: Default::default(),
        }))
    }

    fn info(
        &mut self,
        root: &mut Root,
        bin: &mut Bin,
        id: i32,
        team: bool,
        coord: u32,
    ) -> Option<Info> {
        let id = usize::try_from(id).ok()?;
        let index = self.texture(root, bin, id, team)?;
        Some(Info {
            index,
            tex_coord: coord,
            extensions: None,
            extras: Default::default(),
        })
    }

    fn replaceable(&self, id: i32) -> u32 {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.model.textures.get(i))
            .map_or(0, |t| t.replaceable_id)
    }

    fn build(
        &mut self,
        root: &mut Root,
        bin: &mut Bin,
        material_id: u32,
        alpha: f32,
        color: [f32; 3],
        losses: &mut Losses,
    ) -> Index<gltf_json::Material> {
        let model = self.model;
        let place = format!("Material[{material_id}]");
        let Some(m) = model.materials.get(material_id as usize) else {
            return root.push(gltf_json::Material {
                name: Some("(no material)".into()),
                pbr_metallic_roughness: plain_pbr(None, [color[0], color[1], color[2], alpha]),
                ..Default::default()
            });
        };
        let mut out = gltf_json::Material {
            name: Some(format!("Material {material_id}")),
            ..Default::default()
        };
        let hd_slots = hd_textures(m, model.version);
        let layer_alpha = |l: &Layer| {
            if l.tracks.float(crate::spec::track::KMTA).is_none() && l.alpha.is_finite() {
                l.alpha.clamp(0.0, 1.0)
            } else {
                1.0
            }
        };
        if let Some((layer, slots)) = hd_slots {
            let base = self.info(root, bin, slots[0], false, layer.coord_id);
            let mut pbr = plain_pbr(
                base,
                [color[0], color[1], color[2], alpha * layer_alpha(layer)],
            );
            pbr.metallic_factor = StrengthFactor(1.0);
            pbr.roughness_factor = StrengthFactor(1.0);
            if let Some(orm) = self.info(root, bin, slots[2], false, layer.coord_id) {
                out.occlusion_texture = Some(OcclusionTexture {
                    index: orm.index,
                    strength: StrengthFactor(1.0),
                    tex_coord: orm.tex_coord,
                    extensions: None,
                    extras: Default::default(),
                });
                pbr.metallic_roughness_texture = Some(orm);
            }
            out.pbr_metallic_roughness = pbr;
            if let Some(n) = self.info(root, bin, slots[1], false, layer.coord_id) {
                out.normal_texture = Some(NormalTexture {
                    index: n.index,
                    scale: 1.0,
                    tex_coord: n.tex_coord,
                    extensions: None,
                    extras: Default::default(),
                });
            }
            if let Some(e) = self.info(root, bin, slots[3], false, layer.coord_id) {
                out.emissive_texture = Some(e);
                out.emissive_factor = EmissiveFactor([1.0; 3]);
            }
            losses.add(
                place.clone(),
                "Reforged team-colour mask and environment textures not carried",
            );
            self.finish_layer(&mut out, layer, &place, losses);
        } else {
            let base_at = m
                .layers
                .iter()
                .position(|l| !matches!(self.replaceable(l.texture_id), 1 | 2));
            let team_below = m.layers[..base_at.unwrap_or(m.layers.len())]
                .iter()
                .any(|l| self.replaceable(l.texture_id) == 1);
            if m.layers.iter().any(|l| self.replaceable(l.texture_id) == 2) {
                losses.add(place.clone(), "team glow layer not carried");
            }
            match base_at {
                Some(b) => {
                    let layer = &m.layers[b];
                    let base = self.info(root, bin, layer.texture_id, team_below, layer.coord_id);
                    let baked = team_below && base.is_some();
                    out.pbr_metallic_roughness = plain_pbr(
                        base,
                        [color[0], color[1], color[2], alpha * layer_alpha(layer)],
                    );
                    self.finish_layer(&mut out, layer, &place, losses);
                    if baked {
                        out.alpha_mode = Checked::Valid(AlphaMode::Opaque);
                        out.alpha_cutoff = None;
                    }
                    let extra = m.layers.len() - b - 1;
                    if extra > 0 {
                        losses.add(place.clone(), "layers above the base layer not carried");
                    }
                }
                None => {
                    let tc = self.team.map(|c| f32::from(c) / 255.0);
                    let team = m.layers.iter().any(|l| self.replaceable(l.texture_id) == 1);
                    let rgb = if team { tc } else { [1.0; 3] };
                    out.pbr_metallic_roughness = plain_pbr(
                        None,
                        [
                            rgb[0] * color[0],
                            rgb[1] * color[1],
                            rgb[2] * color[2],
                            alpha,
                        ],
                    );
                    if let Some(l) = m.layers.first() {
                        self.finish_layer(&mut out, l, &place, losses);
                    }
                }
            }
        }
        out.extras = material_extras(model, m, material_id);
        root.push(out)
    }

    /// Alpha mode, sides and shading from `layer`.
    fn finish_layer(
        &mut self,
        out: &mut gltf_json::Material,
        layer: &Layer,
        place: &str,
        losses: &mut Losses,
    ) {
        let (mode, cutoff) = match layer.filter_mode {
            filter_mode::NONE => (AlphaMode::Opaque, None),
            filter_mode::TRANSPARENT => (AlphaMode::Mask, Some(AlphaCutoff(0.75))),
            filter_mode::BLEND => (AlphaMode::Blend, None),
            other => {
                let name = match other {
                    filter_mode::ADDITIVE => "additive",
                    filter_mode::ADD_ALPHA => "add-alpha",
                    filter_mode::MODULATE => "modulate",
                    filter_mode::MODULATE_2X => "modulate-2x",
                    _ => "unknown",
                };
                losses.add(
                    place.to_string(),
                    format!("{name} filter mode approximated by alpha blending"),
                );
                (AlphaMode::Blend, None)
            }
        };
        out.alpha_mode = Checked::Valid(mode);
        out.alpha_cutoff = cutoff;
        out.double_sided = layer.flags & layer_flags::TWO_SIDED != 0;
        if layer.flags & (layer_flags::UNSHADED | layer_flags::UNLIT) != 0 {
            out.extensions = Some(gltf_json::extensions::material::Material {
                unlit: Some(gltf_json::extensions::material::Unlit {}),
            });
            self.unlit = true;
        }
    }

    /// Adds what the materials need at the document level; returns the textures that were
    /// missing, each path (and reason) once: two texture entries of one path, or one used
    /// both over team colour and plainly, are one missing file.
    pub(super) fn finish(mut self, root: &mut Root, losses: &mut Losses) -> Vec<(String, String)> {
        if self.unlit {
            root.extensions_used.push("KHR_materials_unlit".into());
        }
        let mut seen = std::collections::HashSet::new();
        self.missing.retain(|m| seen.insert(m.clone()));
        for (path, why) in &self.missing {
            losses.add(path.clone(), format!("texture not embedded ({why})"));
        }
        self.missing
    }
}

/// The texture the export draws material `mi`'s base colour from: an HD material's diffuse
/// slot, else the first layer that is not team colour or glow.
pub(crate) fn base_texture(model: &Model, mi: usize) -> Option<i32> {
    let m = model.materials.get(mi)?;
    if let Some((_, slots)) = hd_textures(m, model.version) {
        return Some(slots[0]);
    }
    let replaceable = |id: i32| {
        usize::try_from(id)
            .ok()
            .and_then(|i| model.textures.get(i))
            .map_or(0, |t| t.replaceable_id)
    };
    m.layers
        .iter()
        .find(|l| !matches!(replaceable(l.texture_id), 1 | 2))
        .map(|l| l.texture_id)
}

fn plain_pbr(base: Option<Info>, factor: [f32; 4]) -> PbrMetallicRoughness {
    PbrMetallicRoughness {
        base_color_factor: PbrBaseColorFactor(factor.map(|c| if c.is_finite() { c } else { 1.0 })),
        base_color_texture: base,
        metallic_factor: StrengthFactor(0.0),
        roughness_factor: StrengthFactor(1.0),
        metallic_roughness_texture: None,
        extensions: None,
        extras: Default::default(),
    }
}

/// A Reforged HD material's layer and its diffuse, normal, ORM and emissive texture ids.
fn hd_textures(m: &crate::model::Material, version: u32) -> Option<(&Layer, [i32; 4])> {
    let first = m.layers.first()?;
    if m.shader.to_string() == "Shader_HD_DefaultUnit" && m.layers.len() >= 4 {
        let ids = [0, 1, 2, 3].map(|k| m.layers[k].texture_id);
        return Some((first, ids));
    }
    if version >= crate::spec::version::TEXTURE_SLOTS
        && first.shader_type_id == 1
        && first.texture_slots.len() >= 4
    {
        let ids = [0, 1, 2, 3].map(|k| first.texture_slots[k].texture_id);
        return Some((first, ids));
    }
    None
}

/// What the glTF material keeps of model material `m` (number `material_id`) in its extras:
/// every field and layer, so that the model comes back as it went.
fn material_extras(
    model: &Model,
    m: &crate::model::Material,
    material_id: u32,
) -> gltf_json::Extras {
    let mut paths = Vec::new();
    for l in &m.layers {
        if let Some(t) = usize::try_from(l.texture_id)
            .ok()
            .and_then(|i| model.textures.get(i))
        {
            paths.push(t.path.to_string());
        }
    }
    let texture = |id: i32| match usize::try_from(id).ok().and_then(|i| model.textures.get(i)) {
        Some(t) => {
            let mut v = json!({"path": t.path.text(), "replaceable_id": t.replaceable_id,
                "flags": t.flags});
            if let Some(h) = super::raw_hex(&t.path) {
                v["path_hex"] = json!(h);
            }
            v
        }
        None => serde_json::Value::Null,
    };
    let layers: Vec<serde_json::Value> = m
        .layers
        .iter()
        .map(|l| {
            json!({"filter_mode": l.filter_mode, "flags": l.flags,
                "texture": texture(l.texture_id), "coord_id": l.coord_id,
                "alpha": l.alpha, "emissive_gain": l.emissive_gain,
                "fresnel_color": l.fresnel_color, "fresnel_opacity": l.fresnel_opacity,
                "fresnel_team_color": l.fresnel_team_color,
                "shader_type_id": l.shader_type_id,
                "alpha_track": l.tracks.float(crate::spec::track::KMTA).is_some(),
                "slots": l.texture_slots.iter().map(|s| texture(s.texture_id)).collect::<Vec<_>>()})
        })
        .collect();
    extras(json!({"mdlx": {"material": material_id, "textures": paths,
        "priority_plane": m.priority_plane, "shader": m.shader.to_string(),
        "flags": m.flags, "version": model.version, "layers": layers}}))
}
