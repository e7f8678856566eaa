//! Materials and textures of an imported model (the mapping is described in the
//! documentation of [`crate::convert::gltf::import`]).

use super::super::source::{GltfError, Source};
use super::super::Losses;
use super::{ImportOptions, ImportedTexture, Importer};
use crate::model::{
    filter_mode, geoset_animation_flags, layer_flags, texture_flags, FixedString, GeosetAnimation,
    Layer, Material, Model, Texture, TextureSlot,
};
use crate::texture::RgbaImage;
use crate::texture::{blp1, BlpOptions};
use gltf_json::material::AlphaMode;
use gltf_json::validation::Checked;
use std::collections::HashMap;

mod texture;

use texture::*;

/// Builds the model's materials and textures as geosets ask for them.
pub(super) struct Materials<'a> {
    src: &'a Source,
    opts: &'a ImportOptions,
    /// glTF material (None: none) -> model material.
    by_gltf: HashMap<Option<usize>, u32>,
    materials: Vec<Material>,
    textures: Vec<Texture>,
    /// Model texture path (lower case) -> texture id.
    texture_ids: HashMap<String, i32>,
    files: Vec<ImportedTexture>,
    /// (image, variant) -> texture id.
    images: HashMap<(usize, u8), i32>,
    /// File stems in use (lower case).
    stems: HashMap<String, usize>,
    /// The base colour (r, g, b) of each model material, for geoset colours.
    tints: Vec<[f32; 3]>,
    /// Whether a material this crate exported is rebuilt from its `extras`.
    pub(super) from_extras: bool,
}

const WHITE: &str = "Textures\\white.blp";
const BLACK: &str = "Textures\\Black32.blp";
const ENVIRONMENT: &str = "ReplaceableTextures\\EnvironmentMap.blp";

/// An image variant: as it is, or made into an ORM texture.
const AS_IS: u8 = 0;

impl<'a> Materials<'a> {
    /// Materials for a model built from `src`.
    pub(super) fn new(src: &'a Source, opts: &'a ImportOptions) -> Materials<'a> {
        Materials {
            src,
            opts,
            by_gltf: HashMap::new(),
            materials: Vec::new(),
            textures: Vec::new(),
            texture_ids: HashMap::new(),
            files: Vec::new(),
            images: HashMap::new(),
            stems: HashMap::new(),
            tints: Vec::new(),
            from_extras: true,
        }
    }

    /// The model material for glTF material `m` (None: a primitive without one).
    pub(super) fn material(
        &mut self,
        imp: &mut Importer,
        m: Option<usize>,
        at: &str,
    ) -> Result<u32, GltfError> {
        if let Some(&id) = self.by_gltf.get(&m) {
            return Ok(id);
        }
        let losses = &mut imp.losses;
        let doc = &self.src.root;
        let gm = match m {
            Some(i) => Some(doc.materials.get(i).ok_or_else(|| {
                GltfError::new(
                    format!("{at}.material"),
                    format!("material {i} does not exist"),
                )
            })?),
            None => None,
        };
        let place = m.map_or("(no material)".to_string(), |i| format!("materials[{i}]"));
        let pbr = gm.map(|g| &g.pbr_metallic_roughness);
        let factor = pbr.map_or([1.0; 4], |p| p.base_color_factor.0);
        let from_extras = if self.from_extras { gm } else { None };
        if let Some(material) = from_extras.and_then(|g| self.material_from_extras(g)) {
            self.materials.push(material);
            self.tints.push([factor[0], factor[1], factor[2]]);
            let id = self.materials.len() as u32 - 1;
            self.by_gltf.insert(m, id);
            return Ok(id);
        }
        let base = pbr.and_then(|p| p.base_color_texture.as_ref());
        let (base_id, coord) = match base {
            Some(info) => (
                self.texture(info.index.value(), &place, losses),
                info.tex_coord,
            ),
            None => (self.path_texture(WHITE, 0, 3), 0),
        };
        let mut flags = 0;
        if gm.is_some_and(|g| g.double_sided) {
            flags |= layer_flags::TWO_SIDED;
        }
        if gm.is_some_and(|g| g.extensions.as_ref().is_some_and(|e| e.unlit.is_some())) {
            flags |= layer_flags::UNSHADED;
        }
        let filter = match gm.map(|g| &g.alpha_mode) {
            Some(Checked::Valid(AlphaMode::Mask)) => {
                let cutoff = gm.and_then(|g| g.alpha_cutoff).map_or(0.5, |c| c.0);
                if (cutoff - 0.75).abs() > 1e-3 {
                    losses.add(
                        place.clone(),
                        format!("alpha cutoff {cutoff} becomes the game's fixed 0.75"),
                    );
                }
                filter_mode::TRANSPARENT
            }
            Some(Checked::Valid(AlphaMode::Blend)) => filter_mode::BLEND,
            _ => filter_mode::NONE,
        };
        let normal = gm.and_then(|g| g.normal_texture.as_ref());
        let occlusion = gm.and_then(|g| g.occlusion_texture.as_ref());
        let mr = pbr.and_then(|p| p.metallic_roughness_texture.as_ref());
        let emissive = gm.and_then(|g| g.emissive_texture.as_ref());
        let layer = Layer {
            filter_mode: filter,
            flags,
            texture_id: base_id,
            texture_animation_id: -1,
            coord_id: coord,
            alpha: factor[3],
            emissive_gain: 1.0,
            fresnel_color: [1.0; 3],
            fresnel_opacity: 0.0,
            fresnel_team_color: 0.0,
            ..Default::default()
        };
        let material = if self.opts.version < 900 {
            if normal.is_some() || occlusion.is_some() || mr.is_some() || emissive.is_some() {
                losses.add(
                    place.clone(),
                    "normal, occlusion, metallic-roughness and emissive textures not carried (version 800 has only a diffuse texture)",
                );
            }
            Material {
                layers: vec![layer],
                ..Default::default()
            }
        } else {
            self.hd_material(gm, layer, base_id, &place, losses)
        };
        self.materials.push(material);
        self.tints.push([factor[0], factor[1], factor[2]]);
        let id = self.materials.len() as u32 - 1;
        self.by_gltf.insert(m, id);
        Ok(id)
    }

    /// The Reforged HD material (version 1000 and later): six layers of
    /// `Shader_HD_DefaultUnit`, or at 1100 and later one layer with six texture slots;
    /// `layer` is the diffuse layer, on texture `base_id`.
    fn hd_material(
        &mut self,
        gm: Option<&gltf_json::Material>,
        layer: Layer,
        base_id: i32,
        place: &str,
        losses: &mut Losses,
    ) -> Material {
        let normal = gm.and_then(|g| g.normal_texture.as_ref());
        let emissive = gm.and_then(|g| g.emissive_texture.as_ref());
        let normal_id = match normal {
            Some(n) => self.texture(n.index.value(), place, losses),
            None => {
                let flat = solid(8, [128, 128, 255, 255]);
                self.shared("mdlx_flat_normal", flat, place, losses)
            }
        };
        let orm_id = self.orm(gm, place, losses);
        let emissive_id = match emissive {
            Some(e) => self.texture(e.index.value(), place, losses),
            None => self.path_texture(BLACK, 0, 3),
        };
        let team = self.path_texture("", 1, 3);
        let env = self.path_texture(ENVIRONMENT, 0, 3);
        let ids = [base_id, normal_id, orm_id, emissive_id, team, env];
        if self.opts.version >= 1100 {
            Material {
                layers: vec![Layer {
                    shader_type_id: 1,
                    texture_slots: ids
                        .iter()
                        .map(|&t| TextureSlot {
                            texture_id: t,
                            ..Default::default()
                        })
                        .collect(),
                    ..layer
                }],
                ..Default::default()
            }
        } else {
            Material {
                shader: FixedString::from("Shader_HD_DefaultUnit"),
                layers: ids
                    .iter()
                    .enumerate()
                    .map(|(k, &t)| {
                        if k == 0 {
                            layer.clone()
                        } else {
                            Layer {
                                filter_mode: filter_mode::NONE,
                                texture_id: t,
                                texture_animation_id: -1,
                                alpha: 1.0,
                                emissive_gain: 1.0,
                                fresnel_color: [1.0; 3],
                                ..Default::default()
                            }
                        }
                    })
                    .collect(),
                ..Default::default()
            }
        }
    }

    /// The material a file this crate exported describes in `extras.mdlx`, when it was
    /// made for a model of the same kind (classic or Reforged) as the one being built.
    fn material_from_extras(&mut self, g: &gltf_json::Material) -> Option<Material> {
        let v: serde_json::Value = serde_json::from_str(g.extras.as_ref()?.get()).ok()?;
        let m = v.get("mdlx")?;
        let version = m.get("version")?.as_u64()?;
        if (version >= 900) != (self.opts.version >= 900) {
            return None;
        }
        let layers = m.get("layers")?.as_array()?;
        let num = |v: &serde_json::Value, k: &str| v.get(k).and_then(serde_json::Value::as_f64);
        let mut out = Material {
            priority_plane: num(m, "priority_plane").unwrap_or(0.0) as i32,
            flags: num(m, "flags").unwrap_or(0.0) as u32,
            shader: FixedString::from(m.get("shader").and_then(|s| s.as_str()).unwrap_or("")),
            ..Default::default()
        };
        for l in layers {
            let mut texture = |t: Option<&serde_json::Value>| -> i32 {
                let Some(t) = t.filter(|t| t.is_object()) else {
                    return -1;
                };
                let path: Vec<u8> = match t.get("path_hex").and_then(|h| h.as_str()) {
                    Some(h) => (0..h.len() / 2)
                        .filter_map(|i| u8::from_str_radix(h.get(i * 2..i * 2 + 2)?, 16).ok())
                        .collect(),
                    None => t
                        .get("path")
                        .and_then(|p| p.as_str())
                        .unwrap_or("")
                        .as_bytes()
                        .to_vec(),
                };
                let r = num(t, "replaceable_id").unwrap_or(0.0) as u32;
                let f = num(t, "flags").unwrap_or(0.0) as u32;
                self.bytes_texture(&path, r, f)
            };
            let texture_id = texture(l.get("texture"));
            let slots: Vec<TextureSlot> = l
                .get("slots")
                .and_then(|s| s.as_array())
                .map(|a| {
                    a.iter()
                        .map(|s| TextureSlot {
                            texture_id: texture(Some(s)),
                            ..Default::default()
                        })
                        .collect()
                })
                .unwrap_or_default();
            let f3 = |k: &str| {
                l.get(k)
                    .and_then(|v| serde_json::from_value::<[f32; 3]>(v.clone()).ok())
                    .unwrap_or([1.0; 3])
            };
            out.layers.push(Layer {
                filter_mode: num(l, "filter_mode").unwrap_or(0.0) as u32,
                flags: num(l, "flags").unwrap_or(0.0) as u32,
                texture_id,
                texture_animation_id: -1,
                coord_id: num(l, "coord_id").unwrap_or(0.0) as u32,
                // An animated alpha shows as the geoset's visibility (the geoset
                // animation the rig becomes): the layer itself shows.
                alpha: if l.get("alpha_track").and_then(serde_json::Value::as_bool) == Some(true) {
                    1.0
                } else {
                    num(l, "alpha").unwrap_or(1.0) as f32
                },
                emissive_gain: num(l, "emissive_gain").unwrap_or(1.0) as f32,
                fresnel_color: f3("fresnel_color"),
                fresnel_opacity: num(l, "fresnel_opacity").unwrap_or(0.0) as f32,
                fresnel_team_color: num(l, "fresnel_team_color").unwrap_or(0.0) as f32,
                shader_type_id: num(l, "shader_type_id").unwrap_or(0.0) as u32,
                texture_slots: slots,
                ..Default::default()
            });
        }
        (!out.layers.is_empty()).then_some(out)
    }

    /// Puts the materials and textures into `model`; `used` holds each geoset's glTF
    /// material, whose base colour becomes the geoset's static colour when not white.
    pub(super) fn finish(
        &mut self,
        model: &mut Model,
        used: &[Option<usize>],
        losses: &mut Losses,
    ) {
        model.materials = std::mem::take(&mut self.materials);
        model.textures = std::mem::take(&mut self.textures);
        let _ = losses;
        for (gi, m) in used.iter().enumerate() {
            let Some(&mid) = self.by_gltf.get(m) else {
                continue;
            };
            let [r, g, b] = self.tints[mid as usize];
            if [r, g, b].iter().all(|c| (c - 1.0).abs() < 1e-6) {
                continue;
            }
            let color = [b, g, r];
            match model
                .geoset_animations
                .iter_mut()
                .find(|a| a.geoset_id == gi as i32)
            {
                Some(a) => {
                    a.color = color;
                    a.flags |= geoset_animation_flags::USE_COLOR;
                }
                None => model.geoset_animations.push(GeosetAnimation {
                    alpha: 1.0,
                    flags: geoset_animation_flags::USE_COLOR,
                    color,
                    geoset_id: gi as i32,
                    ..Default::default()
                }),
            }
        }
        model.geoset_animations.sort_by_key(|a| a.geoset_id);
    }

    /// Per model material, the glTF material it was made from (`None`: primitives
    /// without one). Also after [`Materials::finish`] has given the materials to the
    /// model.
    pub(super) fn sources(&self) -> Vec<Option<usize>> {
        let n = self
            .by_gltf
            .values()
            .map(|&m| m as usize + 1)
            .max()
            .unwrap_or(0);
        let mut out = vec![None; n];
        for (&g, &m) in &self.by_gltf {
            if let Some(slot) = out.get_mut(m as usize) {
                *slot = g;
            }
        }
        out
    }

    /// The texture files to write beside the model.
    pub(super) fn into_textures(self) -> Vec<ImportedTexture> {
        self.files
    }
}
