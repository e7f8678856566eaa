//! File input and output: finding model files under folders, and writing outputs whole or
//! not at all (a temporary file beside the target, then a rename).

use anyhow::{bail, Context, Result};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Every file under `paths` (files as given, folders recursively) whose extension is one of
/// `exts` (case-insensitive), sorted.
pub fn find(paths: &[PathBuf], exts: &[&str]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        let meta = fs::metadata(p).with_context(|| format!("cannot read {}", p.display()))?;
        if meta.is_dir() {
            walk(p, exts, &mut out)?;
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    Ok(out)
}

fn walk(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, exts, out)?;
        } else if has_ext(&path, exts) {
            out.push(path);
        }
    }
    Ok(())
}

/// True if the file's extension is one of `exts` (case-insensitive).
pub fn has_ext(path: &Path, exts: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| exts.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// Reads a whole file, naming it in the error.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Writes `data` to `target` atomically: into a temporary file in the same folder, synced,
/// then renamed over the target. Refuses to write over `input`. On failure the temporary
/// file is removed and the target is untouched.
pub fn write_atomic(target: &Path, data: &[u8], input: &Path) -> Result<()> {
    if same_file(target, input) {
        bail!("refusing to write over the input file {}", input.display());
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .context("the output path has no file name")?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> Result<()> {
        let mut f =
            fs::File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        f.write_all(data)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        f.sync_all()
            .with_context(|| format!("cannot sync {}", tmp.display()))?;
        fs::rename(&tmp, target)
            .with_context(|| format!("cannot rename to {}", target.display()))?;
        // Make the rename itself durable; a folder that cannot be synced is not an error.
        if let Ok(d) = fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
