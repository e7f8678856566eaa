//! `Model.render`: a PNG of the model at a moment of a sequence, drawn by the library's
//! software renderer (the one `mdlx render` uses), framed on what the sequence shows.

use crate::error::{detached, Failure};
use crate::held::Model;
use mdlx::anim::AnimTime;
use mdlx::render::{Camera, RenderOptions, Scene, TextureCache, DEFAULT_FOV_Y};
use pyo3::prelude::*;
use std::path::PathBuf;

/// What `Model.render` takes.
pub(crate) struct RenderArgs {
    pub(crate) sequence: Option<String>,
    pub(crate) time: Option<f64>,
    pub(crate) size: (u32, u32),
    pub(crate) texture_dirs: Vec<PathBuf>,
    pub(crate) yaw: Option<f32>,
    pub(crate) pitch: Option<f32>,
    pub(crate) team_color: Option<(u8, u8, u8)>,
    pub(crate) background: Option<(u8, u8, u8, u8)>,
    pub(crate) lod: u32,
}

/// The sequence drawn: the one named (or numbered), else the first whose name starts
/// with `Stand` (the model as it stands in the game), else none (the bind pose).
fn sequence_of(model: &mdlx::Model, which: Option<&str>) -> Result<Option<usize>, Failure> {
    match which {
        Some(s) => (model.find_sequence(s))
            .map(Some)
            .map_err(|e| Failure::msg(e.to_string())),
        None => Ok(model.sequences.iter().position(|s| {
            let name = s.name.to_string();
            name.trim().to_ascii_lowercase().starts_with("stand")
        })),
    }
}

/// Textures not found (drawn white): the model's path and why.
type Missing = Vec<(String, String)>;

/// `Model.render`: the PNG's bytes and the textures that were not found (drawn white).
pub(crate) fn render(py: Python<'_>, m: &Model, args: RenderArgs) -> PyResult<(Vec<u8>, Missing)> {
    let (w, h) = args.size;
    if !(1..=8192).contains(&w) || !(1..=8192).contains(&h) {
        return Err(Failure::msg("width and height are 1 to 8192 pixels").into());
    }
    let dirs = m.texture_dirs(args.texture_dirs);
    detached(py, move || {
        let model = &*m.inner;
        let sequence = sequence_of(model, args.sequence.as_deref())?;
        // Half-way into the sequence but at most a second in, as `mdlx render` does:
        // particles have appeared, a unit is still at rest.
        let time = args.time.unwrap_or_else(|| {
            let length = sequence.map_or(0.0, |s| f64::from(model.sequences[s].length()));
            (length * 0.5).min(1000.0).floor()
        });
        let cache = TextureCache::new(dirs);
        let scene = Scene::new(model, &cache);
        let yaw = args
            .yaw
            .unwrap_or(mdlx::render::DEFAULT_YAW_DEG)
            .to_radians();
        let pitch = args
            .pitch
            .unwrap_or(mdlx::render::DEFAULT_PITCH_DEG)
            .to_radians();
        let extent = (scene.sequence_bounds(sequence, 8, args.lod)).unwrap_or(model.info.extent);
        let camera: Camera =
            Camera::framing(&extent, yaw, pitch, DEFAULT_FOV_Y, w as f32 / h as f32);
        let mut o = RenderOptions::new(w, h, camera);
        o.lod = args.lod;
        if let Some((r, g, b)) = args.team_color {
            o.team_color = [r, g, b];
        }
        if let Some((r, g, b, a)) = args.background {
            o.background = [r, g, b, a];
        }
        let image = scene.render(AnimTime::new(sequence, time), &o);
        let png = mdlx::render::output::encode::png(&image);
        Ok((png, scene.missing().to_vec()))
    })
}
