//! One module per verb.

pub mod bench;
pub mod convert;
pub mod convert_dir;
pub mod gltf_in;
pub mod info;
pub mod pose;
pub mod roundtrip;
pub mod texture;

use crate::report::Note;
use crate::Ctx;
use anyhow::{anyhow, Result};
use mdlx::{Model, Source};
use std::path::Path;

/// Reads a Milkshape document, with errors as `file:line`.
pub fn read_ms3d(data: &[u8], path: &Path) -> Result<mdlx::ms3d::Document> {
    let shown = crate::files::shown(path);
    mdlx::ms3d::from_bytes(data).map_err(|e| anyhow::anyhow!("{}", e.render(&shown)))
}

/// A model read from a file, and what it was.
pub struct Decoded {
    /// The model.
    pub model: Model,
    /// Warnings of the reader and what a conversion could not carry.
    pub notes: Vec<Note>,
    /// What the file was (its own version and family); `None` for glTF.
    pub source: Option<Source>,
    /// The input's format, for people (`MDX, WoW alpha family, version 1300 (shown as a
    /// version-800 model)`).
    pub described: String,
    /// Textures to write beside the model (from glTF; empty for the other formats).
    pub textures: Vec<mdlx::gltf::import::ImportedTexture>,
}

impl Decoded {
    /// The input's format, short (`mdx`, `mdl`, `ms3d`, `mdx-alpha`, `gltf`).
    pub fn short_name(&self) -> &'static str {
        self.source.map_or("gltf", |s| s.short_name())
    }
}

/// The name a model read from `path` gets when its file names none: the file's stem.
pub fn stem(path: &Path) -> String {
    if crate::files::is_stdio(path) {
        return String::new();
    }
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Reads any input as a model, saying what it was ([`mdlx::read`]): Milkshape is
/// converted with `ms3d` (the name defaults to the file's) and the WoW alpha family to
/// version 800; glTF is imported as a version-800 model with the default options; what
/// the model cannot hold comes back as notes. Content that is no model is refused in one
/// line. `ctx.strict` makes the MDL reader refuse what it would repair.
pub fn decode_detailed(
    ctx: &Ctx,
    data: &[u8],
    path: &Path,
    ms3d: &mdlx::convert::ms3d::ToModelOptions,
) -> Result<Decoded> {
    if gltf_in::is_gltf(data) {
        return gltf_in::decode(data, path, &gltf_in::options(None, None, stem(path)));
    }
    let shown = crate::files::shown(path);
    let mut opts = mdlx::ReadOptions {
        ms3d: ms3d.clone(),
        strict: ctx.strict,
    };
    if opts.ms3d.name.is_empty() {
        opts.ms3d.name = stem(path);
    }
    let loaded = mdlx::read(data, &opts).map_err(|e| anyhow!("{}", e.render(&shown)))?;
    let from = match loaded.source {
        Source::AlphaMdx { .. } => "not carried from the WoW alpha family",
        _ => "not carried from Milkshape",
    };
    let warnings = loaded.warnings.iter().map(|w| Note::mdl_warning(w, &shown));
    let losses = (loaded.losses.iter()).map(|l| Note::loss(from, l));
    let notes = warnings.chain(losses).collect();
    let described = if loaded.source.is_converted() {
        format!(
            "{} (shown as a version-{} model)",
            loaded.source, loaded.model.version
        )
    } else {
        loaded.source.to_string()
    };
    Ok(Decoded {
        model: loaded.model,
        notes,
        source: Some(loaded.source),
        described,
        textures: Vec::new(),
    })
}
