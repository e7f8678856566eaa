//! One module per verb.

pub mod bench;
pub mod convert;
pub mod info;
pub mod pose;
pub mod roundtrip;

use anyhow::{bail, Result};
use mdlx::{Format, Model};
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

/// Reads any input as a model, saying what it was: Milkshape is converted with `ms3d`
/// (the name defaults to the file's) and the WoW alpha family to version 800; what the
/// model cannot hold comes back as notes.
pub fn decode_detailed(
    data: &[u8],
    path: &Path,
    ms3d: &mdlx::convert::ms3d::ToModelOptions,
) -> Result<Decoded> {
    let shown = path.display().to_string();
    if Format::detect(data) == Format::Mdx && mdlx::alpha::is_alpha(data) {
        let alpha = mdlx::alpha::from_bytes(data).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
        let (model, losses) = alpha.to_model();
        let notes = losses
            .iter()
            .map(|l| format!("mdlx: {shown}: not carried from the WoW alpha family: {l}"))
            .collect();
        return Ok(Decoded {
            model,
            notes,
            format: "mdx-alpha",
            source: format!(
                "MDX, WoW alpha family, version {} (shown as a version-800 model)",
                alpha.version
            ),
        });
    }
    if Format::detect(data) == Format::Ms3d {
        let doc = read_ms3d(data, path)?;
        let mut opts = ms3d.clone();
        if opts.name.is_empty() {
            opts.name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
        }
        let (model, losses) = mdlx::convert::ms3d::to_model(&doc, &opts);
        let notes = losses
            .iter()
            .map(|l| format!("mdlx: {shown}: not carried from Milkshape: {l}"))
            .collect();
        return Ok(Decoded {
            model,
            notes,
            format: "ms3d",
            source: "Milkshape 3D ASCII (shown as a version-800 model)".into(),
        });
    }
    let format = match Format::detect(data) {
        Format::Mdl => "mdl",
        _ => "mdx",
    };
    let (model, notes) = match Format::detect(data) {
        Format::Mdx => mdlx::mdx::from_bytes(data)
            .map(|m| (m, Vec::new()))
            .map_err(|e| anyhow::anyhow!("{shown}: {e}"))?,
        Format::Mdl => match mdlx::mdl::from_bytes_with_warnings(data) {
            Ok((model, warnings)) => {
                let shown = warnings.iter().map(|w| w.render(data, &shown)).collect();
                (model, shown)
            }
            Err(e) => {
                let n = e.errors().count();
                bail!("{shown}: {n} error(s) in MDL\n{}", e.render(data, &shown))
            }
        },
        Format::Ms3d => unreachable!("handled above"),
    };
    let source = format!(
        "{}, version {} ({})",
        format.to_uppercase(),
        model.version,
        model.family().name()
    );
    Ok(Decoded {
        model,
        notes,
        format,
        source,
    })
}
