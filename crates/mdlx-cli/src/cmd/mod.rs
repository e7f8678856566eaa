//! One module per verb.

pub mod bench;
pub mod convert;
pub mod info;
pub mod roundtrip;

use anyhow::{bail, Result};
use mdlx::{Format, Model};
use std::path::Path;

/// Reads a model from bytes, the format told by the content.
pub fn decode(data: &[u8], path: &Path) -> Result<Model> {
    match Format::detect(data) {
        Format::Mdx => {
            mdlx::mdx::from_bytes(data).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
        }
        Format::Mdl => bail!(
            "{}: not an MDX file (reading MDL text is not supported yet)",
            path.display()
        ),
    }
}
