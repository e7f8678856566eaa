//! File input and output: finding model files under folders, reading a file or standard
//! input, and writing outputs whole or not at all.
//!
//! How an output is written depends on what the path is:
//! - `-`: standard output.
//! - a regular file, or nothing yet: a temporary file beside it, synced, then renamed over
//!   it, so the target is its old self or the whole new file, never a partial one;
//! - a symbolic link: followed to its final target, which is then written as above (the
//!   link stays a link);
//! - a special file (`/dev/null`, a terminal, a pipe, a socket), or any path under `/dev`
//!   or `/proc` (`/dev/stdout` may lead to the file a shell redirected to): opened and
//!   written directly, never replaced;
//! - a folder: refused.
//!
//! An output that is the input file (through any link) is refused.

use anyhow::{bail, Context, Result};
use std::collections::HashSet;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The path that means standard input or output.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How a path is named in messages: `-` is "standard input".
pub fn shown(path: &Path) -> String {
    if is_stdio(path) {
        "(standard input)".to_string()
    } else {
        path.display().to_string()
    }
}

/// Every file under `paths` (files as given, folders recursively) whose extension is one of
/// `exts` (case-insensitive), sorted. Folders in `skip` (compared after resolving links)
/// are not walked into, and a folder reached twice through links is walked once.
pub fn find(paths: &[PathBuf], exts: &[&str], skip: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut seen: HashSet<PathBuf> = skip
        .iter()
        .filter_map(|p| fs::canonicalize(p).ok())
        .collect();
    for p in paths {
        let meta = fs::metadata(p).with_context(|| format!("cannot read {}", p.display()))?;
        if meta.is_dir() {
            walk(p, exts, &mut seen, &mut out)?;
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    Ok(out)
}

fn walk(
    dir: &Path,
    exts: &[&str],
    seen: &mut HashSet<PathBuf>,
    out: &mut Vec<PathBuf>,
) -> Result<()> {
    // A folder already walked, or one of those to skip (an output folder inside the input
    // folder), or a link cycle.
    if let Ok(real) = fs::canonicalize(dir) {
        if !seen.insert(real) {
            return Ok(());
        }
    }
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()
        .with_context(|| format!("cannot list {}", dir.display()))?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, exts, seen, out)?;
        } else if has_ext(&path, exts) && !is_our_temporary(&path) {
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

/// A temporary file of [`write`] (`.NAME.PID.tmp`), left by a process that was killed.
fn is_our_temporary(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.') && n.ends_with(".tmp"))
}

/// Reads a whole file (`-`: standard input), naming it in the error.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    if is_stdio(path) {
        let mut data = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut data)
            .context("cannot read standard input")?;
        return Ok(data);
    }
    fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Writes `data` to `target` as the module documentation says: standard output for `-`,
/// directly into special files, atomically into regular files (through links). Refuses to
/// write over `input`. On failure a temporary file is removed and the target is untouched.
pub fn write(target: &Path, data: &[u8], input: &Path) -> Result<()> {
    if is_stdio(target) || target == Path::new("/dev/stdout") {
        let mut out = std::io::stdout().lock();
        out.write_all(data)
            .context("cannot write standard output")?;
        return out.flush().context("cannot write standard output");
    }
    if !is_stdio(input) && same_file(target, input) {
        bail!("refusing to write over the input file {}", input.display());
    }
    match fs::metadata(target) {
        Ok(m) if m.is_dir() => bail!("{} is a folder, not a file", target.display()),
        Ok(m) if !m.is_file() || is_system_path(target) => return write_direct(target, data),
        Ok(_) if fs::symlink_metadata(target).is_ok_and(|m| m.file_type().is_symlink()) => {
            let real = fs::canonicalize(target)
                .with_context(|| format!("cannot follow the link {}", target.display()))?;
            if is_system_path(&real) {
                return write_direct(target, data);
            }
            return write_atomic(&real, data);
        }
        Ok(_) => return write_atomic(target, data),
        Err(_) => {}
    }
    // Nothing there, or a link whose target does not exist yet: create the final target.
    let real = follow_dangling(target)?;
    write_atomic(&real, data)
}

/// Paths the system owns, whose files are never replaced: `/dev`, `/proc`.
fn is_system_path(path: &Path) -> bool {
    path.starts_with("/dev") || path.starts_with("/proc")
}

/// Opens an existing special file for writing and writes into it.
fn write_direct(target: &Path, data: &[u8]) -> Result<()> {
    let mut f = fs::OpenOptions::new()
        .write(true)
        .open(target)
        .with_context(|| format!("cannot open {}", target.display()))?;
    f.write_all(data)
        .and_then(|()| f.flush())
        .with_context(|| format!("cannot write {}", target.display()))
}

/// Follows a chain of links whose end does not exist; a path that is no link is itself.
fn follow_dangling(target: &Path) -> Result<PathBuf> {
    let mut path = target.to_path_buf();
    for _ in 0..40 {
        let Ok(meta) = fs::symlink_metadata(&path) else {
            return Ok(path);
        };
        if !meta.file_type().is_symlink() {
            return Ok(path);
        }
        let next = fs::read_link(&path)
            .with_context(|| format!("cannot follow the link {}", path.display()))?;
        path = match path.parent() {
            Some(dir) if next.is_relative() => dir.join(next),
            _ => next,
        };
    }
    bail!("{}: too many levels of symbolic links", target.display())
}

/// Writes into a temporary file in the target's folder, synced, then renamed over it.
fn write_atomic(target: &Path, data: &[u8]) -> Result<()> {
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
