//! The rules that need the texture files: size and BLP JPEG header, for the textures found
//! beside the model (mdx-m3-viewer's BLP sanity test, `utils/blp/sanitytest`, holds the
//! same three limits).

use super::rules::*;
use super::{At, Finding, Findings};
use crate::model::Model;
use crate::texture::TextureFinder;
use crate::texture::{Texture, TextureKind};
use std::path::PathBuf;

/// Where a BLP1 file keeps the size of its shared JPEG header.
const BLP1_JPEG_HEADER_SIZE: usize = 156;

/// The largest shared JPEG header the game reads.
const MAX_JPEG_HEADER: u32 = 624;

/// Checks the model's textures that are found under `dirs` (folders, archives, the game's
/// folder; Warcraft III paths, any case; see [`TextureFinder`]). When the game's archives
/// are among them, a texture, or a model an emitter spawns or an attachment shows, found
/// nowhere is reported; otherwise it may be in the game's archives and is not. A file that
/// cannot be read as a texture is left to `mdlx info`.
pub fn check_textures(model: &Model, dirs: Vec<PathBuf>) -> Vec<Finding> {
    // The texture rules are the same for every kind.
    let mut f = Findings::new(super::Kind::Unit);
    let mut finder = TextureFinder::new(dirs);
    for (i, t) in model.textures.iter().enumerate() {
        let path = t.path.text();
        if path.is_empty() || t.replaceable_id != 0 {
            continue;
        }
        let Some(found) = finder.load(&path) else {
            if finder.searches_game() {
                let at = At::record("textures", i, Some(&path));
                let msg = format!("{path} is in none of the folders and archives searched, the game's among them: the game cannot load it");
                f.add(&TEXTURE_NOT_FOUND, &at, msg);
            }
            continue;
        };
        let Ok(data) = found.bytes else {
            continue;
        };
        let Ok(tex) = Texture::from_bytes(&data) else {
            continue;
        };
        let at = At::record("textures", i, Some(&path));
        let shown = &found.shown;
        let (w, h) = (tex.width, tex.height);
        if !w.is_power_of_two() || !h.is_power_of_two() {
            let msg =
                format!("{shown} is {w}x{h}; the game wants powers of two on each side: resize it");
            f.add(&TEXTURE_NOT_POW2, &at, msg);
        }
        if model.version == 800 && (w > 512 || h > 512) {
            let msg = format!(
                "{shown} is {w}x{h}; classic Warcraft III shows at most 512 px: scale it down"
            );
            f.add(&TEXTURE_TOO_LARGE, &at, msg);
        }
        if tex.kind == TextureKind::Blp1Jpeg {
            let size = data
                .get(BLP1_JPEG_HEADER_SIZE..BLP1_JPEG_HEADER_SIZE + 4)
                .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            if size > MAX_JPEG_HEADER {
                let msg = format!("{shown} has a {size}-byte shared JPEG header; the game reads at most {MAX_JPEG_HEADER}: re-save it (mdlx convert --to blp)");
                f.add(&BLP_JPEG_HEADER, &at, msg);
            }
        }
    }
    if finder.searches_game() {
        models_found(model, &mut finder, &mut f);
    }
    f.out
}

/// Reports the model paths of particle emitters (the models they spawn) and attachments
/// found nowhere. The game loads `.mdx` for a path written `.mdl`.
fn models_found(model: &Model, finder: &mut TextureFinder, f: &mut Findings) {
    let emitters = model
        .particle_emitters
        .iter()
        .map(|e| ("particle_emitters", e.path.text()));
    let attachments = model
        .attachments
        .iter()
        .map(|a| ("attachments", a.path.text()));
    let mut index: std::collections::HashMap<&str, usize> = Default::default();
    for (list, path) in emitters.chain(attachments) {
        let i = index.entry(list).or_default();
        let at = At::record(list, *i, Some(&path));
        *i += 1;
        let path = path.trim();
        if path.is_empty() {
            continue;
        }
        let lower = path.to_ascii_lowercase();
        let mdx = match lower.strip_suffix(".mdl") {
            Some(_) => format!("{}.mdx", &path[..path.len() - 4]),
            None => path.to_string(),
        };
        if finder.load(&mdx).is_none() && finder.load(path).is_none() {
            let msg = format!("{path} is in none of the folders and archives searched, the game's among them: the game cannot load it");
            f.add(&MODEL_NOT_FOUND, &at, msg);
        }
    }
}
