//! `mdlx convert IN OUT`: input format from the content, output format from the extension.

use anyhow::{bail, Result};
use std::path::Path;
use std::process::ExitCode;

/// Runs the verb.
pub fn run(input: &Path, output: &Path, strict_mdl: bool, allow_lossy: bool) -> Result<ExitCode> {
    let data = crate::files::read(input)?;
    let model = super::decode(&data, input)?;
    let bytes = if crate::files::has_ext(output, &["mdx"]) {
        mdlx::mdx::to_bytes(&model)?
    } else if super::is_mdl(output) {
        let written = mdlx::mdl::write(&model, mdlx::mdl::WriteOptions { strict: strict_mdl });
        if !written.losses.is_empty() {
            for l in &written.losses {
                eprintln!(
                    "mdlx: {}: standard MDL cannot hold {}: {}",
                    input.display(),
                    l.what,
                    l.detail
                );
            }
            if !allow_lossy {
                bail!(
                    "{} thing(s) would be lost in strictly standard MDL; nothing written (use --allow-lossy to write anyway, or drop --strict-mdl to keep them in an MdlxExtension block)",
                    written.losses.len()
                );
            }
        }
        written.text
    } else {
        bail!(
            "{}: unsupported output format (supported: .mdx, .mdl)",
            output.display()
        );
    };
    crate::files::write_atomic(output, &bytes, input)?;
    Ok(ExitCode::SUCCESS)
}
