//! One module per verb.

pub mod bench;
pub mod convert;
pub mod info;
pub mod pose;
pub mod roundtrip;

use anyhow::{bail, Result};
use mdlx::{Format, Model};
use std::path::Path;

/// Reads a model from bytes, the format told by the content. MDL warnings go to stderr.
pub fn decode(data: &[u8], path: &Path) -> Result<Model> {
    let (model, warnings) = decode_with_warnings(data, path)?;
    for w in &warnings {
        eprintln!("{w}");
    }
    Ok(model)
}

/// Reads a model from bytes, the format told by the content; returns the rendered warnings.
pub fn decode_with_warnings(data: &[u8], path: &Path) -> Result<(Model, Vec<String>)> {
    let shown = path.display().to_string();
    match Format::detect(data) {
        Format::Mdx => mdlx::mdx::from_bytes(data)
            .map(|m| (m, Vec::new()))
            .map_err(|e| anyhow::anyhow!("{shown}: {e}")),
        Format::Mdl => match mdlx::mdl::from_bytes_with_warnings(data) {
            Ok((model, warnings)) => {
                let shown = warnings.iter().map(|w| w.render(data, &shown)).collect();
                Ok((model, shown))
            }
            Err(e) => {
                let n = e.errors().count();
                bail!("{shown}: {n} error(s) in MDL\n{}", e.render(data, &shown))
            }
        },
        Format::Ms3d => bail!("{shown}: Milkshape input is not supported by this command yet"),
    }
}
