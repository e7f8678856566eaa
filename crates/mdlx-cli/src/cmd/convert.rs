//! `mdlx convert IN OUT`: input format from the content, output format from the extension.

use anyhow::{bail, Result};
use std::path::Path;
use std::process::ExitCode;

/// Runs the verb.
pub fn run(input: &Path, output: &Path) -> Result<ExitCode> {
    let data = crate::files::read(input)?;
    let model = super::decode(&data, input)?;
    let bytes = if crate::files::has_ext(output, &["mdx"]) {
        mdlx::mdx::to_bytes(&model)?
    } else {
        bail!(
            "{}: unsupported output format (supported: .mdx)",
            output.display()
        );
    };
    crate::files::write_atomic(output, &bytes, input)?;
    Ok(ExitCode::SUCCESS)
}
