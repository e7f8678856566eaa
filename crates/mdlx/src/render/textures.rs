//! Textures for drawing: found once per path (a cache shared by every model of a batch),
//! decoded, and kept as a chain of mip levels in linear 0..1 floats.

use crate::texture::{RgbaImage, TextureFinder};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// One texture ready to sample: mip levels, largest first, 8-bit RGBA (straight alpha),
/// sampled into 0..1 floats.
#[derive(Debug)]
pub struct Mips {
    levels: Vec<Level>,
}

#[derive(Debug)]
struct Level {
    w: usize,
    h: usize,
    texels: Vec<[u8; 4]>,
}

/// The largest side a texture keeps by default: levels above it are never read at the
/// sizes pictures are drawn (a 4096-pixel picture's texels), and dropping them bounds what
/// a library of large Reforged textures holds in memory.
pub const DEFAULT_MAX_SIDE: usize = 4096;

impl Mips {
    /// The mip chain of `image`, each level a 2x2 box filter of the one above.
    pub fn new(image: &RgbaImage) -> Mips {
        Mips::with_max_side(image, DEFAULT_MAX_SIDE)
    }

    /// [`Mips::new`], keeping only the levels whose sides are at most `max_side` (the
    /// smallest ones always).
    pub fn with_max_side(image: &RgbaImage, max_side: usize) -> Mips {
        let (w, h) = (image.width.max(1) as usize, image.height.max(1) as usize);
        let texels = if image.pixels.len() >= w * h * 4 {
            image.pixels[..w * h * 4]
                .chunks_exact(4)
                .map(|p| [p[0], p[1], p[2], p[3]])
                .collect()
        } else {
            vec![[255; 4]; w * h]
        };
        let mut levels = vec![Level { w, h, texels }];
        while levels.len() < 16 {
            let top = levels.last().expect("at least one level");
            if top.w == 1 && top.h == 1 {
                break;
            }
            let next = half(top);
            if levels.len() == 1 && top.w.max(top.h) > max_side.max(1) {
                levels[0] = next;
            } else {
                levels.push(next);
            }
        }
        Mips { levels }
    }

    /// One solid colour.
    pub fn solid(rgba: [f32; 4]) -> Mips {
        Mips {
            levels: vec![Level {
                w: 1,
                h: 1,
                texels: vec![rgba.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8)],
            }],
        }
    }

    /// Width and height of the largest level.
    pub fn size(&self) -> (usize, usize) {
        (self.levels[0].w, self.levels[0].h)
    }

    /// The level to read for a footprint of `texels_per_pixel` texels of the largest level
    /// per picture pixel.
    pub fn level_for(&self, texels_per_pixel: f32) -> usize {
        if texels_per_pixel.is_nan() || texels_per_pixel <= 1.0 {
            return 0;
        }
        let l = texels_per_pixel.log2().floor() as usize;
        l.min(self.levels.len() - 1)
    }

    /// Bilinear sample of level `level` at `(u, v)`; `wrap` says whether each axis repeats
    /// (otherwise it clamps to the edge).
    #[inline]
    pub fn sample(&self, level: usize, u: f32, v: f32, wrap: [bool; 2]) -> [f32; 4] {
        let l = &self.levels[level.min(self.levels.len() - 1)];
        let x = u * l.w as f32 - 0.5;
        let y = v * l.h as f32 - 0.5;
        // Far outside any texture's repeat (or not a number): the first texel.
        if !(x.abs() < 1.0e8 && y.abs() < 1.0e8) {
            return l.texels[0].map(|c| f32::from(c) / 255.0);
        }
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let (x0, y0) = (x0 as i64, y0 as i64);
        let (xa, xb) = (coord(x0, l.w, wrap[0]), coord(x0 + 1, l.w, wrap[0]));
        let (ya, yb) = (coord(y0, l.h, wrap[1]), coord(y0 + 1, l.h, wrap[1]));
        let (ra, rb) = (ya * l.w, yb * l.w);
        let (a, b, c, d) = (
            l.texels[ra + xa],
            l.texels[ra + xb],
            l.texels[rb + xa],
            l.texels[rb + xb],
        );
        let mut out = [0.0; 4];
        for k in 0..4 {
            let (a, b, c, d) = (
                f32::from(a[k]),
                f32::from(b[k]),
                f32::from(c[k]),
                f32::from(d[k]),
            );
            let top = a + (b - a) * fx;
            let bottom = c + (d - c) * fx;
            out[k] = (top + (bottom - top) * fy) * (1.0 / 255.0);
        }
        out
    }
}

/// The next mip level: each texel the rounded mean of a 2x2 block (edges repeated).
fn half(top: &Level) -> Level {
    let (nw, nh) = ((top.w / 2).max(1), (top.h / 2).max(1));
    let mut t = Vec::with_capacity(nw * nh);
    for y in 0..nh {
        for x in 0..nw {
            let mut s = [0u32; 4];
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let sx = (x * 2 + dx).min(top.w - 1);
                let sy = (y * 2 + dy).min(top.h - 1);
                let p = top.texels[sy * top.w + sx];
                for k in 0..4 {
                    s[k] += u32::from(p[k]);
                }
            }
            t.push(s.map(|v| ((v + 2) / 4) as u8));
        }
    }
    Level {
        w: nw,
        h: nh,
        texels: t,
    }
}

/// A texel index on one axis: repeated or clamped.
#[inline]
fn coord(i: i64, n: usize, wrap: bool) -> usize {
    if wrap {
        if n.is_power_of_two() {
            (i & (n as i64 - 1)) as usize
        } else {
            i.rem_euclid(n as i64) as usize
        }
    } else {
        i.clamp(0, n as i64 - 1) as usize
    }
}

type Slot = Arc<OnceLock<Result<Arc<Mips>, String>>>;

/// Textures by Warcraft III path, found with a [`TextureFinder`] and decoded once, shared by
/// every model drawn with it (and by threads: lookups of different paths decode in
/// parallel).
#[derive(Debug)]
pub struct TextureCache {
    finder: Mutex<TextureFinder>,
    slots: Mutex<HashMap<String, Slot>>,
    max_side: usize,
}

impl TextureCache {
    /// A cache over `dirs` (folders, archives, game folders; see [`TextureFinder`]).
    pub fn new(dirs: Vec<PathBuf>) -> TextureCache {
        TextureCache::with_max_side(dirs, DEFAULT_MAX_SIDE)
    }

    /// A cache whose textures keep no level with a side above `max_side` (see
    /// [`Mips::with_max_side`]): for thumbnails, twice the picture's supersampled side is
    /// all that is ever read, and a library of 2048-pixel Reforged textures then holds a
    /// sixteenth of the memory.
    pub fn with_max_side(dirs: Vec<PathBuf>, max_side: usize) -> TextureCache {
        TextureCache {
            finder: Mutex::new(TextureFinder::new(dirs)),
            slots: Mutex::new(HashMap::new()),
            max_side,
        }
    }

    /// The texture at `path`, or why there is none (not found, or not decodable).
    pub fn get(&self, path: &str) -> Result<Arc<Mips>, String> {
        let key = path.replace('/', "\\").to_ascii_lowercase();
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            slots.entry(key).or_default().clone()
        };
        slot.get_or_init(|| self.load(path)).clone()
    }

    fn load(&self, path: &str) -> Result<Arc<Mips>, String> {
        let found = {
            let mut finder = self.finder.lock().unwrap_or_else(|e| e.into_inner());
            finder.load(path)
        };
        let Some(found) = found else {
            return Err("not found".into());
        };
        let data = found.bytes.map_err(|e| format!("{}: {e}", found.shown))?;
        let image = if data.starts_with(b"\x89PNG") {
            crate::texture::png::from_bytes(&data).map_err(|e| e.to_string())
        } else {
            crate::texture::decode(&data).map_err(|e| e.to_string())
        };
        let image = image.map_err(|e| format!("{}: {e}", found.shown))?;
        Ok(Arc::new(Mips::with_max_side(&image, self.max_side)))
    }
}
