//! One module per verb.

pub mod bench;
pub mod convert;
pub mod info;
pub mod pose;
pub mod roundtrip;

use anyhow::{anyhow, Result};
use mdlx::{Model, Source};
use std::path::Path;

/// Reads a Milkshape document, with errors as `file:line`.
pub fn read_ms3d(data: &[u8], path: &Path) -> Result<mdlx::ms3d::Document> {
    let shown = path.display().to_string();
    mdlx::ms3d::from_bytes(data).map_err(|e| anyhow::anyhow!("{}", e.render(&shown)))
}

/// A model read from a file, and what it was.
pub struct Decoded {
    /// The model.
    pub model: Model,
    /// Warnings and what a conversion could not carry, ready to print.
    pub notes: Vec<String>,
    /// The input's format, short: `mdx`, `mdl`, `ms3d`, `mdx-alpha`.
    pub format: &'static str,
    /// The input's format, for people.
    pub source: String,
}

/// Reads any input as a model, saying what it was ([`mdlx::read`]): Milkshape is
/// converted with `ms3d` (the name defaults to the file's) and the WoW alpha family to
/// version 800; what the model cannot hold comes back as notes. Content that is no model
/// is refused in one line.
pub fn decode_detailed(
    data: &[u8],
    path: &Path,
    ms3d: &mdlx::convert::ms3d::ToModelOptions,
) -> Result<Decoded> {
    let shown = path.display().to_string();
    let mut opts = mdlx::ReadOptions {
        ms3d: ms3d.clone(),
        ..Default::default()
    };
    if opts.ms3d.name.is_empty() {
        opts.ms3d.name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
    }
    let loaded = mdlx::read(data, &opts).map_err(|e| anyhow!("{}", e.render(&shown)))?;
    let from = match loaded.source {
        Source::AlphaMdx { .. } => "the WoW alpha family",
        _ => "Milkshape",
    };
    let warnings = loaded.warnings.iter().map(|w| w.render(&shown));
    let losses =
        (loaded.losses.iter()).map(|l| format!("mdlx: {shown}: not carried from {from}: {l}"));
    let notes = warnings.chain(losses).collect();
    let source = if loaded.source.is_converted() {
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
        format: loaded.source.short_name(),
        source,
    })
}
