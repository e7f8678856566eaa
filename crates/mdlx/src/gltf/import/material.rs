//! Materials and textures of an imported model.
//!
//! - **Version 800:** one layer. The base colour texture is its texture (white,
//!   `Textures\white.blp`, without one); the base colour factor's alpha its alpha, its
//!   colour a static geoset-animation colour of the geosets that use it. `OPAQUE` ->
//!   filter mode none, `MASK` -> transparent (the game's alpha test is fixed at 0.75: a
//!   different `alphaCutoff` is listed), `BLEND` -> blend; `doubleSided` -> two-sided;
//!   `KHR_materials_unlit` -> unshaded. Normal, occlusion, metallic-roughness and emissive
//!   textures have no place at 800 (listed).
//! - **Version 1000 and later:** the Reforged HD material, `Shader_HD_DefaultUnit` with six
//!   layers (1000) or one layer of shader type 1 with six texture slots (1100): diffuse,
//!   normal, ORM, emissive, team colour (replaceable 1) and environment
//!   (`ReplaceableTextures\EnvironmentMap.blp`). The ORM texture is made from the glTF's
//!   occlusion (red) and metallic-roughness (green roughness, blue metalness) textures and
//!   factors, with alpha 0 (the game reads alpha as the team-colour mask). Without a normal
//!   map a flat one is written; without emission, `Textures\Black32.blp`.
//! - **Textures** are decoded (PNG, JPEG) and written as BLP1 (JPEG content, quality 90,
//!   mipmaps) under [`ImportOptions::texture_path`], named after the image (its name, else
//!   its file name, else `textureN`). Sizes become powers of two, at most 512 at version
//!   800 and 2048 after (listed when resized). An image named like a Warcraft III texture
//!   path (`Textures\Foo.blp`, as this crate's export names them) is referred to by that
//!   path and not written: it is a file the game or the map already has.
//!   Texture transforms (`KHR_texture_transform`) and material extensions other than
//!   unlit are not carried (listed).

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

/// Builds the model's materials and textures as geosets ask for them.
pub struct Materials<'a> {
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
}

const WHITE: &str = "Textures\\white.blp";
const BLACK: &str = "Textures\\Black32.blp";
const ENVIRONMENT: &str = "ReplaceableTextures\\EnvironmentMap.blp";

/// An image variant: as it is, or made into an ORM texture.
const AS_IS: u8 = 0;

impl<'a> Materials<'a> {
    /// Materials for a model built from `src`.
    pub fn new(src: &'a Source, opts: &'a ImportOptions) -> Materials<'a> {
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
        }
    }

    fn path_texture(&mut self, path: &str, replaceable: u32, wrap: u32) -> i32 {
        self.bytes_texture(path.as_bytes(), replaceable, wrap)
    }

    fn bytes_texture(&mut self, path: &[u8], replaceable: u32, wrap: u32) -> i32 {
        let key = format!(
            "{}|{replaceable}|{wrap}",
            String::from_utf8_lossy(path).to_lowercase()
        );
        if let Some(&t) = self.texture_ids.get(&key) {
            return t;
        }
        self.textures.push(Texture {
            replaceable_id: replaceable,
            path: FixedString::from_field(path),
            flags: wrap,
        });
        let t = self.textures.len() as i32 - 1;
        self.texture_ids.insert(key, t);
        t
    }

    /// A file name stem for image `index`, unique in this model.
    fn stem(&mut self, index: usize, suffix: &str) -> String {
        let img = &self.src.root.images[index];
        let from_uri = img
            .uri
            .as_deref()
            .filter(|u| !u.starts_with("data:"))
            .map(|u| {
                let name = u.rsplit(['/', '\\']).next().unwrap_or(u);
                name.rsplit_once('.').map_or(name, |(s, _)| s).to_string()
            });
        let base = img
            .name
            .clone()
            .map(|n| n.rsplit_once('.').map_or(n.clone(), |(s, _)| s.to_string()))
            .filter(|n| !n.is_empty())
            .or(from_uri)
            .unwrap_or_else(|| {
                // A name of the model's own, so models converted into one folder do not
                // write over each other's textures.
                if self.opts.name.is_empty() {
                    format!("texture{index}")
                } else {
                    format!("{}_texture{index}", self.opts.name)
                }
            });
        let mut clean: String = base
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        clean.truncate(60);
        clean.push_str(suffix);
        let n = self.stems.entry(clean.to_lowercase()).or_insert(0);
        *n += 1;
        if *n > 1 {
            format!("{clean}_{n}")
        } else {
            clean
        }
    }

    /// The wrap flags of a glTF texture's sampler.
    fn wrap(&self, texture: usize) -> u32 {
        use gltf_json::texture::WrappingMode;
        let s = self.src.root.textures[texture]
            .sampler
            .and_then(|s| self.src.root.samplers.get(s.value()));
        let rep = |m: Option<&Checked<WrappingMode>>| {
            !matches!(m, Some(Checked::Valid(WrappingMode::ClampToEdge)))
        };
        let mut f = 0;
        if rep(s.map(|s| &s.wrap_s)) {
            f |= texture_flags::WRAP_WIDTH;
        }
        if rep(s.map(|s| &s.wrap_t)) {
            f |= texture_flags::WRAP_HEIGHT;
        }
        f
    }

    /// Decodes image `index` (PNG or JPEG).
    fn decode(&self, index: usize) -> Result<RgbaImage, String> {
        let (bytes, mime) = self.src.image(index).map_err(|e| e.to_string())?;
        let png = bytes.starts_with(b"\x89PNG");
        let jpeg = bytes.starts_with(&[0xff, 0xd8]);
        if png {
            crate::texture::png::from_bytes(&bytes).map_err(|e| e.to_string())
        } else if jpeg {
            decode_jpeg(&bytes)
        } else {
            Err(format!(
                "an image of type {} (PNG and JPEG are read)",
                mime.unwrap_or_else(|| "unknown".into())
            ))
        }
    }

    /// Writes `image` as a BLP named `stem` and returns its texture id.
    fn write(
        &mut self,
        image: RgbaImage,
        stem: &str,
        wrap: u32,
        place: &str,
        losses: &mut Losses,
    ) -> i32 {
        let max = if self.opts.version >= 900 { 2048 } else { 512 };
        let (w, h) = (pot(image.width, max), pot(image.height, max));
        let image = if (w, h) != (image.width, image.height) {
            losses.add(
                place.to_string(),
                format!(
                    "texture {stem} resized from {}x{} to {w}x{h} (powers of two, at most {max})",
                    image.width, image.height
                ),
            );
            resize(&image, w, h)
        } else {
            image
        };
        let blp = match blp1::to_bytes(&image, &BlpOptions::jpeg(90)) {
            Ok(b) => b,
            Err(e) => {
                losses.add(
                    place.to_string(),
                    format!("texture {stem} not written ({e}): white used"),
                );
                return self.path_texture(WHITE, 0, wrap);
            }
        };
        let prefix = &self.opts.texture_path;
        let path = format!("{prefix}{stem}.blp");
        let file = path
            .split(['\\', '/'])
            .filter(|s| !s.is_empty() && *s != "." && *s != "..")
            .collect::<Vec<_>>()
            .join("/");
        self.files.push(ImportedTexture {
            path: path.clone(),
            file,
            blp,
        });
        self.path_texture(&path, 0, wrap)
    }

    /// The texture id for glTF texture `texture`, written as it is.
    fn texture(&mut self, texture: usize, place: &str, losses: &mut Losses) -> i32 {
        let Some(t) = self.src.root.textures.get(texture) else {
            return self.path_texture(WHITE, 0, 3);
        };
        let wrap = self.wrap(texture);
        let index = t.source.value();
        if let Some(&id) = self.images.get(&(index, AS_IS)) {
            return id;
        }
        let Some(img) = self.src.root.images.get(index) else {
            return self.path_texture(WHITE, 0, wrap);
        };
        // A Warcraft path: referred to, not written.
        if let Some(name) = img.name.as_deref().filter(|n| is_game_path(n)) {
            let id = self.path_texture(name, 0, wrap);
            self.images.insert((index, AS_IS), id);
            return id;
        }
        let id = match self.decode(index) {
            Ok(image) => {
                let stem = self.stem(index, "");
                self.write(image, &stem, wrap, place, losses)
            }
            Err(e) => {
                losses.add(
                    format!("images[{index}]"),
                    format!("image not decoded ({e}): white used"),
                );
                self.path_texture(WHITE, 0, wrap)
            }
        };
        self.images.insert((index, AS_IS), id);
        id
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
        if let Some(material) = gm.and_then(|g| self.material_from_extras(g)) {
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
            let normal_id = match normal {
                Some(n) => self.texture(n.index.value(), &place, losses),
                None => {
                    let flat = solid(8, [128, 128, 255, 255]);
                    self.shared("mdlx_flat_normal", flat, &place, losses)
                }
            };
            let orm_id = self.orm(gm, &place, losses);
            let emissive_id = match emissive {
                Some(e) => self.texture(e.index.value(), &place, losses),
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
        };
        self.materials.push(material);
        self.tints.push([factor[0], factor[1], factor[2]]);
        let id = self.materials.len() as u32 - 1;
        self.by_gltf.insert(m, id);
        Ok(id)
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

    /// A generated texture every material may share (written once).
    fn shared(&mut self, stem: &str, image: RgbaImage, place: &str, losses: &mut Losses) -> i32 {
        let path = format!("{}{stem}.blp", self.opts.texture_path);
        if let Some(&t) = self
            .texture_ids
            .get(&format!("{}|0|3", path.to_lowercase()))
        {
            return t;
        }
        self.write(image, stem, 3, place, losses)
    }

    /// The Reforged ORM texture of glTF material `gm`: occlusion in red, roughness in
    /// green, metalness in blue (each times its factor), alpha 0.
    fn orm(&mut self, gm: Option<&gltf_json::Material>, place: &str, losses: &mut Losses) -> i32 {
        let pbr = gm.map(|g| &g.pbr_metallic_roughness);
        let rough_f = pbr.map_or(1.0, |p| p.roughness_factor.0);
        let metal_f = pbr.map_or(1.0, |p| p.metallic_factor.0);
        let occ = gm.and_then(|g| g.occlusion_texture.as_ref());
        let mr = pbr.and_then(|p| p.metallic_roughness_texture.as_ref());
        let image_of = |this: &Self, t: usize| {
            this.src
                .root
                .textures
                .get(t)
                .map(|t| t.source.value())
                .ok_or_else(|| "no such texture".to_string())
        };
        let mr_img =
            mr.map(|i| image_of(self, i.index.value()).and_then(|k| Ok((k, self.decode(k)?))));
        let occ_img =
            occ.map(|i| image_of(self, i.index.value()).and_then(|k| Ok((k, self.decode(k)?))));
        let to_byte = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
        let (mr_img, mr_k) = match mr_img {
            Some(Ok((k, i))) => (Some(i), Some(k)),
            Some(Err(e)) => {
                losses.add(
                    place.to_string(),
                    format!("metallic-roughness texture not read ({e})"),
                );
                (None, None)
            }
            None => (None, None),
        };
        let occ_img = match occ_img {
            Some(Ok((_, i))) => Some(i),
            Some(Err(e)) => {
                losses.add(
                    place.to_string(),
                    format!("occlusion texture not read ({e})"),
                );
                None
            }
            None => None,
        };
        let (w, h) = mr_img
            .as_ref()
            .or(occ_img.as_ref())
            .map_or((8, 8), |i| (i.width, i.height));
        if mr_img.is_none() && occ_img.is_none() {
            let px = [255, to_byte(rough_f), to_byte(metal_f), 0];
            let stem = format!("mdlx_orm_{:02x}{:02x}", px[1], px[2]);
            return self.shared(&stem, solid(8, px), place, losses);
        }
        let occ_img = occ_img.map(|o| {
            if (o.width, o.height) == (w, h) {
                o
            } else {
                resize(&o, w, h)
            }
        });
        let mut out = RgbaImage {
            width: w,
            height: h,
            pixels: vec![0; (w * h * 4) as usize],
        };
        for i in 0..(w * h) as usize {
            let r = occ_img.as_ref().map_or(255, |o| o.pixels[i * 4]);
            let (g, b) = mr_img
                .as_ref()
                .map_or((255, 255), |m| (m.pixels[i * 4 + 1], m.pixels[i * 4 + 2]));
            out.pixels[i * 4] = r;
            out.pixels[i * 4 + 1] = to_byte(f32::from(g) / 255.0 * rough_f);
            out.pixels[i * 4 + 2] = to_byte(f32::from(b) / 255.0 * metal_f);
            out.pixels[i * 4 + 3] = 0;
        }
        let stem = match mr_k {
            Some(k) => self.stem(k, "_orm"),
            None => "orm".to_string(),
        };
        self.write(out, &stem, 3, place, losses)
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

    /// The texture files to write beside the model.
    pub fn into_textures(self) -> Vec<ImportedTexture> {
        self.files
    }
}

/// Whether an image name is a Warcraft III texture path (`Textures\Foo.blp`).
fn is_game_path(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    (l.ends_with(".blp") || l.ends_with(".dds") || l.ends_with(".tga"))
        && !l.contains(':')
        && !l.starts_with('/')
}

/// The power of two nearest `n` (in ratio), at most `max`.
fn pot(n: u32, max: u32) -> u32 {
    let mut p = 1u32;
    while p < n && p < max {
        p *= 2;
    }
    // p >= n (or max): take the lower power when n is nearer it.
    if p > n && p / 2 >= 1 && f64::from(n) / f64::from(p / 2) < f64::from(p) / f64::from(n) {
        p /= 2;
    }
    p.clamp(1, max)
}

/// A bilinear resize.
fn resize(img: &RgbaImage, w: u32, h: u32) -> RgbaImage {
    let mut out = vec![0u8; (w * h * 4) as usize];
    let (sw, sh) = (img.width as f32, img.height as f32);
    for y in 0..h {
        let fy = ((y as f32 + 0.5) * sh / h as f32 - 0.5).clamp(0.0, sh - 1.0);
        let (y0, ty) = (fy.floor() as u32, fy.fract());
        let y1 = (y0 + 1).min(img.height - 1);
        for x in 0..w {
            let fx = ((x as f32 + 0.5) * sw / w as f32 - 0.5).clamp(0.0, sw - 1.0);
            let (x0, tx) = (fx.floor() as u32, fx.fract());
            let x1 = (x0 + 1).min(img.width - 1);
            let at = |xx: u32, yy: u32, c: usize| {
                f32::from(img.pixels[((yy * img.width + xx) * 4) as usize + c])
            };
            for c in 0..4 {
                let top = at(x0, y0, c) * (1.0 - tx) + at(x1, y0, c) * tx;
                let bot = at(x0, y1, c) * (1.0 - tx) + at(x1, y1, c) * tx;
                out[((y * w + x) * 4) as usize + c] = (top * (1.0 - ty) + bot * ty).round() as u8;
            }
        }
    }
    RgbaImage {
        width: w,
        height: h,
        pixels: out,
    }
}

fn solid(n: u32, px: [u8; 4]) -> RgbaImage {
    RgbaImage {
        width: n,
        height: n,
        pixels: px.repeat((n * n) as usize),
    }
}

/// A JPEG image as RGBA (at most 8192 pixels a side, so a forged header cannot ask for
/// more than 256 MiB).
fn decode_jpeg(bytes: &[u8]) -> Result<RgbaImage, String> {
    use zune_jpeg::zune_core::{
        bytestream::ZCursor, colorspace::ColorSpace, options::DecoderOptions,
    };
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::RGBA)
        .set_max_width(8192)
        .set_max_height(8192);
    let mut d = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    let pixels = d.decode().map_err(|e| format!("JPEG: {e:?}"))?;
    let (w, h) = d.dimensions().ok_or("JPEG: no size")?;
    let (w, h) = (w as u32, h as u32);
    if pixels.len() != (w * h * 4) as usize {
        return Err(format!("JPEG: {} bytes decoded for {w}x{h}", pixels.len()));
    }
    Ok(RgbaImage {
        width: w,
        height: h,
        pixels,
    })
}
