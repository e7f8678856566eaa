//! `mdlx roundtrip PATH...`: decode and re-encode every .mdx, compare the bytes.
//! One TAB-separated line per file (`OK`, `DIFF` with the first differing offset and both
//! sizes, or `FAIL` with the error), then `N passed, M failed`. With `--via mdl` the model
//! goes through MDL text on the way (MDX -> MDL -> MDX). Files run in parallel;
//! lines come out in path order.

use anyhow::Result;
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Runs the verb. Exits 1 if any file did not round-trip.
pub fn run(paths: &[PathBuf], via_mdl: bool) -> Result<ExitCode> {
    let files = crate::files::find(paths, &["mdx"])?;
    let lines: Vec<(bool, String)> = files.par_iter().map(|f| check(f, via_mdl)).collect();
    let mut out = std::io::stdout().lock();
    let mut passed = 0;
    for (ok, line) in &lines {
        passed += usize::from(*ok);
        writeln!(out, "{line}")?;
    }
    let failed = lines.len() - passed;
    writeln!(out, "{passed} passed, {failed} failed")?;
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn check(path: &Path, via_mdl: bool) -> (bool, String) {
    let shown = path.display();
    let data = match std::fs::read(path) {
        Ok(d) => d,
        Err(e) => return (false, format!("FAIL\t{shown}\tcannot read: {e}")),
    };
    let out = match encode_again(&data, via_mdl) {
        Ok(out) => out,
        Err(e) => {
            return (
                false,
                format!("FAIL\t{shown}\t{}", e.replace(['\n', '\t'], " ")),
            )
        }
    };
    if out == data {
        return (true, format!("OK\t{shown}"));
    }
    let at = out
        .iter()
        .zip(&data)
        .position(|(a, b)| a != b)
        .unwrap_or(out.len().min(data.len()));
    (
        false,
        format!(
            "DIFF\t{shown}\t{at:#x}\tin={} out={}",
            data.len(),
            out.len()
        ),
    )
}

fn encode_again(data: &[u8], via_mdl: bool) -> Result<Vec<u8>, String> {
    let mut model = mdlx::mdx::from_bytes(data).map_err(|e| e.to_string())?;
    if via_mdl {
        let text = mdlx::mdl::to_vec(&model);
        model =
            mdlx::mdl::from_bytes(&text).map_err(|e| format!("the MDL does not read back: {e}"))?;
    }
    mdlx::mdx::to_bytes(&model).map_err(|e| e.to_string())
}
