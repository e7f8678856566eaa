//! A model read from the command line's input, whatever its format, with what the reading
//! and its conversion said as notes: what every verb and the view server read through.

use crate::report::Note;
use crate::Ctx;
use anyhow::{anyhow, Result};
use mdlx::{Model, Source};
use std::path::Path;

/// The heading glTF import losses are listed under.
pub(crate) const LOST: &str = "not carried from glTF";

/// The heading of what a conversion did to make the model ready for the game.
pub(crate) const READY: &str = "made ready for the game";

/// Reads a Milkshape document, with errors as `file:line`.
pub(crate) fn read_ms3d(data: &[u8], path: &Path) -> Result<mdlx::ms3d::Document> {
    let shown = crate::files::shown(path);
    mdlx::ms3d::from_bytes(data).map_err(|e| anyhow!("{}", e.render(&shown)))
}

/// A model read from a file, and what it was.
pub(crate) struct Decoded {
    /// The model.
    pub model: Model,
    /// Warnings of the reader and what a conversion could not carry.
    pub notes: Vec<Note>,
    /// What the file was (its own version and family).
    pub source: Source,
    /// The input's format, for people (`MDX, WoW alpha family, version 1300 (shown as a
    /// version-800 model)`).
    pub described: String,
    /// Textures to write beside the model (from glTF; empty for the other formats).
    pub textures: Vec<mdlx::convert::gltf::import::ImportedTexture>,
}

/// The name a model read from `path` gets when its file names none: the file's stem.
pub(crate) fn stem(path: &Path) -> String {
    if crate::files::is_stdio(path) {
        return String::new();
    }
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// How to read `path` ([`mdlx::ReadOptions::for_file`]; standard input has no folder or
/// name): `ctx.strict` makes the MDL reader refuse what it would repair.
pub(crate) fn read_options(ctx: &Ctx, path: &Path) -> mdlx::ReadOptions {
    let mut opts = if crate::files::is_stdio(path) {
        mdlx::ReadOptions::default()
    } else {
        mdlx::ReadOptions::for_file(path)
    };
    opts.strict = ctx.strict;
    opts
}

/// Reads any input as a model with `opts`, saying what it was ([`mdlx::read`]): Milkshape
/// and the WoW alpha family are converted to version 800, glTF imported; what the model
/// cannot hold comes back as notes. Content that is no model is refused in one line.
pub(crate) fn decode(data: &[u8], path: &Path, opts: &mdlx::ReadOptions) -> Result<Decoded> {
    let shown = crate::files::shown(path);
    let loaded = mdlx::read(data, opts).map_err(|e| anyhow!("{}", e.render(&shown)))?;
    let from = match loaded.source {
        Source::AlphaMdx { .. } => "not carried from the WoW alpha family",
        Source::Gltf { .. } => LOST,
        _ => "not carried from Milkshape",
    };
    let warnings = loaded.warnings.iter().map(|w| Note::mdl_warning(w, &shown));
    let losses = (loaded.losses.iter()).map(|l| Note::loss(from, l));
    let ready = (loaded.notes.iter()).map(|l| {
        if l.place == mdlx::convert::gltf::import::ROUND_TRIP {
            Note::fitted("back from the glTF", &mdlx::Loss::new("", l.what.clone()))
        } else {
            Note::fitted(READY, l)
        }
    });
    let notes = warnings.chain(losses).chain(ready).collect();
    let described = match loaded.source {
        Source::Gltf { .. } => format!(
            "{}, imported as a version-{} model",
            loaded.source, loaded.model.version
        ),
        s if s.is_converted() => format!("{s} (shown as a version-{} model)", loaded.model.version),
        s => s.to_string(),
    };
    Ok(Decoded {
        model: loaded.model,
        notes,
        source: loaded.source,
        described,
        textures: loaded.textures,
    })
}
