//! The textures of imported materials: images found, decoded, resized and written as
//! BLP1 (or referred to by their game path), and the generated ones (flat normal maps, ORM
//! textures).

use super::*;

impl Materials<'_> {
    pub(super) fn path_texture(&mut self, path: &str, replaceable: u32, wrap: u32) -> i32 {
        self.bytes_texture(path.as_bytes(), replaceable, wrap)
    }

    pub(super) fn bytes_texture(&mut self, path: &[u8], replaceable: u32, wrap: u32) -> i32 {
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
    pub(super) fn stem(&mut self, index: usize, suffix: &str) -> String {
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
    pub(super) fn wrap(&self, texture: usize) -> u32 {
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
    pub(super) fn decode(&self, index: usize) -> Result<RgbaImage, String> {
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
    pub(super) fn write(
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
    pub(super) fn texture(&mut self, texture: usize, place: &str, losses: &mut Losses) -> i32 {
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

    /// A generated texture every material may share (written once).
    pub(super) fn shared(
        &mut self,
        stem: &str,
        image: RgbaImage,
        place: &str,
        losses: &mut Losses,
    ) -> i32 {
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
    pub(super) fn orm(
        &mut self,
        gm: Option<&gltf_json::Material>,
        place: &str,
        losses: &mut Losses,
    ) -> i32 {
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
}

/// Whether an image name is a Warcraft III texture path (`Textures\Foo.blp`).
pub(super) fn is_game_path(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    (l.ends_with(".blp") || l.ends_with(".dds") || l.ends_with(".tga"))
        && !l.contains(':')
        && !l.starts_with('/')
}

/// The power of two nearest `n` (in ratio), at most `max`.
pub(super) fn pot(n: u32, max: u32) -> u32 {
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
pub(super) fn resize(img: &RgbaImage, w: u32, h: u32) -> RgbaImage {
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

pub(super) fn solid(n: u32, px: [u8; 4]) -> RgbaImage {
    RgbaImage {
        width: n,
        height: n,
        pixels: px.repeat((n * n) as usize),
    }
}

/// A JPEG image as RGBA (at most 8192 pixels a side, so a forged header cannot ask for
/// more than 256 MiB).
pub(super) fn decode_jpeg(bytes: &[u8]) -> Result<RgbaImage, String> {
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
