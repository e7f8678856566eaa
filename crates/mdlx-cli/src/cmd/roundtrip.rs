//! `mdlx roundtrip PATH...`: decode and re-encode every .mdx, compare the bytes.
//! One TAB-separated line per file (`OK`, `DIFF` with the first differing offset and both
//! sizes, or `FAIL` with the error), then `N passed, M failed`. Files run in parallel;
//! lines come out in path order.

use anyhow::Result;
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Runs the verb. Exits 1 if any file did not round-trip.
pub fn run(paths: &[PathBuf]) -> Result<ExitCode> {
    let files = crate::files::find(paths, &["mdx"])?;
    let lines: Vec<(bool, String)> = files.par_iter().map(|f| check(f)).collect();
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

fn check(path: &Path) -> (bool, String) {
    let shown = path.display();
    let data = match std::fs::read(path) {
        Ok(d) => d,
        Err(e) => return (false, format!("FAIL\t{shown}\tcannot read: {e}")),
    };
    let out = match mdlx::mdx::from_bytes(&data).and_then(|m| mdlx::mdx::to_bytes(&m)) {
        Ok(out) => out,
        Err(e) => return (false, format!("FAIL\t{shown}\t{e}")),
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
