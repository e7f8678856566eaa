//! Pictures of a model: a software renderer, headless and deterministic (the same picture on
//! every machine: no GPU, no threads inside a picture, fixed simulation steps).
//!
//! ```
//! use mdlx::anim::AnimTime;
//! use mdlx::render::{Camera, RenderOptions, Scene, TextureCache};
//! let model = mdlx::mdx::from_bytes(include_bytes!("../../../../examples/cube.mdx")).unwrap();
//! let textures = TextureCache::new(vec![]);
//! let scene = Scene::new(&model, &textures);
//! let at = AnimTime::new(Some(0), 0.0);
//! let extent = scene.bounds(at, 0).unwrap(); // level of detail 0
//! let options = RenderOptions::new(64, 64, Camera::default_framing(&extent, 1.0));
//! let picture = scene.render(at, &options);
//! assert_eq!(picture.pixels.len(), 64 * 64 * 4);
//! assert!(picture.pixels.chunks(4).any(|p| p[3] == 255)); // the cube covers some pixels
//! ```
//!
//! # What is drawn, and how
//! - **Geosets** posed and skinned by [`crate::anim`] at the moment asked, each layer of
//!   their material in order, with its filter mode ([`Blend`]): opaque and alpha-keyed
//!   layers first (they write depth), then the others by priority plane. A layer's
//!   two-sided, unshaded, no-depth-test and no-depth-set flags are honoured; its alpha
//!   (`KMTA`), animated texture (`KMTF`) and texture animation move with time, as do the
//!   geoset animation's alpha and colour.
//! - **One level of detail** ([`RenderOptions::lod`], 0 by default), as the game draws
//!   Reforged models: the geosets of that level and those marked for every level.
//! - **Team colour and glow**: replaceable textures 1 and 2 become the team colour
//!   ([`RenderOptions::team_color`]): a solid colour, and a soft round glow of it.
//! - **HD materials** (Reforged): the diffuse texture shaded by the normal map (with the
//!   geoset's tangents), darkened by the ORM texture's occlusion, tinted by team colour
//!   where its alpha says, plus the emissive texture.
//! - **Light**: one directional light from above (the game's sun), leaning toward the
//!   viewer's left shoulder, with ambient light so that no side goes darker than 0.55 of
//!   its texture; unshaded and unlit layers ignore it.
//! - **Effects**: particle emitters 2 and ribbons ([`effects`]).
//! - **Antialiasing**: [`RenderOptions::supersample`]² samples per pixel, averaged.
//! - Textures the finder cannot supply (and replaceable textures the game supplies) are
//!   listed by [`Scene::missing`] and drawn by what their layer does, so that the shape
//!   still reads: a surface light grey (200 of 255), lit like any other; an additive
//!   layer a faint grey (a tenth of white; a white one would paint the whole model white);
//!   a modulating layer no change; an HD normal map flat, an HD emissive map black; a
//!   particle or ribbon a soft white disc tinted by its colour.

mod camera;
mod draw;
pub mod effects;
pub mod icon;
pub mod output;
pub mod overlay;
mod raster;
mod textures;

pub use camera::{Camera, DEFAULT_FOV_Y, DEFAULT_PITCH_DEG, DEFAULT_YAW_DEG};
pub use textures::{Mips, TextureCache, DEFAULT_MAX_SIDE};

use crate::anim::{AnimTime, Skeleton};
use crate::model::{Extent, Model};
use crate::texture::RgbaImage;
use std::sync::Arc;

/// How a layer's colour meets what is already drawn (the layer filter modes, and the
/// particle emitter 2 ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blend {
    /// Replaces what is there (filter mode 0, "None").
    Opaque,
    /// Replaces it where alpha is at least 0.75 (filter mode 1, "Transparent").
    AlphaKey,
    /// `src * a + dst * (1 - a)` (filter mode 2).
    Blend,
    /// `dst + src * a` (filter mode 3).
    Additive,
    /// `dst + src * a` (filter mode 4, "AddAlpha").
    AddAlpha,
    /// `dst * src` (filter mode 5).
    Modulate,
    /// `dst * src * 2` (filter mode 6).
    Modulate2x,
}

impl Blend {
    /// The blend of a layer filter mode; unknown values draw opaque.
    pub fn from_filter_mode(mode: u32) -> Blend {
        match mode {
            1 => Blend::AlphaKey,
            2 => Blend::Blend,
            3 => Blend::Additive,
            4 => Blend::AddAlpha,
            5 => Blend::Modulate,
            6 => Blend::Modulate2x,
            _ => Blend::Opaque,
        }
    }

    /// The blend of a particle emitter 2 filter mode (0 blend, 1 additive, 2 modulate,
    /// 3 modulate 2x, 4 alpha key, which draws as add-alpha: `SRC_ALPHA, ONE`, as
    /// mdx-m3-viewer sets it); unknown values blend.
    pub fn from_particle_filter(mode: u32) -> Blend {
        match mode {
            1 => Blend::Additive,
            2 => Blend::Modulate,
            3 => Blend::Modulate2x,
            4 => Blend::AddAlpha,
            _ => Blend::Blend,
        }
    }

    /// Whether it writes depth (opaque and alpha-keyed layers do).
    pub fn writes_depth(self) -> bool {
        matches!(self, Blend::Opaque | Blend::AlphaKey)
    }
}

/// The team colours of the game's players, in player order (red first).
pub const TEAM_COLORS: [[u8; 3]; 24] = [
    [255, 3, 3],
    [0, 66, 255],
    [28, 230, 185],
    [84, 0, 129],
    [255, 252, 0],
    [254, 138, 14],
    [32, 192, 0],
    [229, 91, 176],
    [149, 150, 151],
    [126, 191, 241],
    [16, 98, 70],
    [78, 42, 4],
    [155, 0, 0],
    [0, 0, 195],
    [0, 234, 255],
    [190, 0, 254],
    [235, 205, 135],
    [248, 164, 139],
    [191, 255, 128],
    [220, 185, 235],
    [40, 40, 40],
    [235, 240, 255],
    [0, 120, 30],
    [164, 111, 51],
];

/// What to draw and how big.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The camera.
    pub camera: Camera,
    /// Background, straight RGBA (transparent by default).
    pub background: [u8; 4],
    /// The team colour replaceable textures take.
    pub team_color: [u8; 3],
    /// Samples per pixel along each axis (1 to 4; 2 by default: four samples a pixel),
    /// lowered for a picture so large that it would hold more than 8192 x 8192 samples.
    /// Sides are clamped to 8192 pixels.
    pub supersample: u32,
    /// Whether lit layers are lit (on by default); off, every layer draws as unshaded.
    pub light: bool,
    /// Whether particle emitters 2 and ribbons are drawn (on by default).
    pub effects: bool,
    /// The level of detail drawn (0, the finest, by default): Reforged models carry each
    /// mesh at up to four levels, and the game draws the geosets of one level (and those
    /// marked for every level) at a time. Models before 900 are all level 0. A model with
    /// no geoset at this level is drawn at the nearest level it has.
    pub lod: u32,
}

impl RenderOptions {
    /// `width` x `height` from `camera`, with the defaults.
    pub fn new(width: u32, height: u32, camera: Camera) -> RenderOptions {
        RenderOptions {
            width,
            height,
            camera,
            background: [0; 4],
            team_color: TEAM_COLORS[0],
            supersample: 2,
            light: true,
            effects: true,
            lod: 0,
        }
    }
}

/// A model prepared for drawing: its skeleton and its textures, found once. Draw it at as
/// many moments as needed.
#[derive(Debug)]
pub struct Scene<'m> {
    model: &'m Model,
    skeleton: Skeleton<'m>,
    /// Per model texture: the texture, or `None` (replaceable, or missing).
    textures: Vec<Option<Arc<Mips>>>,
    missing: Vec<(String, String)>,
}

impl<'m> Scene<'m> {
    /// Prepares `model`, looking its textures up in `cache`.
    pub fn new(model: &'m Model, cache: &TextureCache) -> Scene<'m> {
        let mut missing = Vec::new();
        let textures = model
            .textures
            .iter()
            .map(|t| {
                let path = t.path.to_string();
                if path.is_empty() {
                    if !matches!(t.replaceable_id, 1 | 2) {
                        missing.push((
                            format!("replaceable texture {}", t.replaceable_id),
                            "the game supplies it".into(),
                        ));
                    }
                    return None;
                }
                match cache.get(&path) {
                    Ok(m) => Some(m),
                    // The game's own team colour files, named by path: made from the
                    // palette when the game's archives are not at hand.
                    Err(_) if team_file(&path).is_some() => {
                        let (glow, player) = team_file(&path)?;
                        let c = TEAM_COLORS[player].map(|c| f32::from(c) / 255.0);
                        Some(Arc::new(if glow {
                            draw::glow(c)
                        } else {
                            Mips::solid([c[0], c[1], c[2], 1.0])
                        }))
                    }
                    Err(e) => {
                        missing.push((path, e));
                        None
                    }
                }
            })
            .collect();
        Scene {
            model,
            skeleton: Skeleton::new(model),
            textures,
            missing,
        }
    }

    /// The model drawn.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// Textures that could not be drawn: (path or what it is, why).
    pub fn missing(&self) -> &[(String, String)] {
        &self.missing
    }

    /// The box around every vertex of the geosets that show at `at` at level of detail
    /// `lod` (see [`RenderOptions::lod`]) and draw a surface, or `None` when nothing shows.
    ///
    /// A surface is a layer that covers what is behind it (filter mode none, transparent or
    /// blend) with a texture other than the team glow. A hero's glow plane and other
    /// additive layers are left out, so that a picture frames the unit, not its glow; a
    /// model of glows alone is framed by them.
    pub fn bounds(&self, at: AnimTime, lod: u32) -> Option<Extent> {
        draw::bounds(self, at, lod)
    }

    /// The box around what shows at `times` evenly spread moments of sequence `sequence`
    /// (its first frame only without one) at level of detail `lod`: a framing that holds
    /// for the whole sequence.
    pub fn sequence_bounds(
        &self,
        sequence: Option<usize>,
        times: usize,
        lod: u32,
    ) -> Option<Extent> {
        let length = sequence
            .and_then(|s| self.model.sequences.get(s))
            .map_or(0.0, |s| f64::from(s.length()));
        let n = if length > 0.0 { times.max(1) } else { 1 };
        let mut out: Option<Extent> = None;
        for k in 0..n {
            let t = length * k as f64 / n as f64;
            if let Some(b) = self.bounds(AnimTime::new(sequence, t), lod) {
                out = Some(match out {
                    None => b,
                    Some(o) => union(&o, &b),
                });
            }
        }
        out
    }

    /// The model at `at`, drawn as `options` say.
    pub fn render(&self, at: AnimTime, options: &RenderOptions) -> RgbaImage {
        draw::render(self, at, options)
    }
}

/// `ReplaceableTextures\TeamColor\TeamColorNN.blp` -> (false, NN), `...\TeamGlow\
/// TeamGlowNN.blp` -> (true, NN), for the players of [`TEAM_COLORS`].
fn team_file(path: &str) -> Option<(bool, usize)> {
    let lower = path.replace('/', "\\").to_ascii_lowercase();
    let name = lower.strip_prefix("replaceabletextures\\")?;
    let (glow, rest) = if let Some(r) = name.strip_prefix("teamcolor\\teamcolor") {
        (false, r)
    } else {
        (true, name.strip_prefix("teamglow\\teamglow")?)
    };
    let digits = rest.strip_suffix(".blp").or(rest.strip_suffix(".dds"))?;
    let player: usize = digits.parse().ok()?;
    (digits.len() == 2 && player < TEAM_COLORS.len()).then_some((glow, player))
}

fn union(a: &Extent, b: &Extent) -> Extent {
    Extent {
        radius: a.radius.max(b.radius),
        min: [0, 1, 2].map(|k| a.min[k].min(b.min[k])),
        max: [0, 1, 2].map(|k| a.max[k].max(b.max[k])),
    }
}

#[cfg(test)]
mod tests;
