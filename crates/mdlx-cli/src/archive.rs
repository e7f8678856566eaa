//! Archives as inputs: `map.w3x:war3mapImported\hero.mdx` names a file inside a map (or
//! any MPQ archive), and a map given where a folder may be (`mdlx check map.w3x`) stands
//! for every file in it. A member is named by a path whose text is
//! `ARCHIVE:INNER`; [`crate::files::read`] reads it from the archive.
//!
//! Each archive is opened once per run and shared (tables read, names recovered).

use anyhow::{Context, Result};
use mdlx::mpq::Archive;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The archive at `path`, opened once per run (the library's shared cache).
pub(crate) fn open(path: &Path) -> Result<Arc<Archive>> {
    mdlx::mpq::shared(path).with_context(|| format!("{}", path.display()))
}

/// Whether `path` is a file that holds an MPQ archive: a map or archive extension, or
/// the `HM3W` / `MPQ` magic at its start.
pub(crate) fn is_archive(path: &Path) -> bool {
    if !path.is_file() {
        return false;
    }
    if crate::paths::has_ext(path, &["w3m", "w3x", "w3n", "mpq"]) {
        return true;
    }
    let mut head = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .is_ok()
        && (&head == b"HM3W" || &head[..3] == b"MPQ")
}

/// The places a model's textures are looked for, in order: the map or archive it is inside
/// (a model named `ARCHIVE:INNER`), else its own folder; then `extra` (`--textures`). The
/// one list every command that finds textures uses (check, convert, render, view).
pub(crate) fn texture_places(model: &Path, extra: &[PathBuf]) -> Vec<PathBuf> {
    let mut places = Vec::with_capacity(extra.len() + 1);
    if let Some((archive, _)) = split(model) {
        places.push(archive);
    } else if !crate::paths::is_stdio(model) {
        places.push(
            model
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        );
    }
    places.extend(extra.iter().cloned());
    places
}

/// `ARCHIVE:INNER` split, when the path does not exist itself and the part before a `:`
/// is an archive.
pub(crate) fn split(path: &Path) -> Option<(PathBuf, String)> {
    if path.exists() {
        return None;
    }
    let text = path.to_str()?;
    for (i, _) in text.match_indices(':') {
        let (outer, inner) = (Path::new(&text[..i]), &text[i + 1..]);
        if !inner.is_empty() && is_archive(outer) {
            return Some((outer.to_path_buf(), inner.to_string()));
        }
    }
    None
}

/// The path naming `inner` inside `archive`.
pub(crate) fn member(archive: &Path, inner: &str) -> PathBuf {
    PathBuf::from(format!("{}:{inner}", archive.display()))
}

/// Reads a member, naming it in the error.
pub(crate) fn read_member(archive: &Path, inner: &str) -> Result<Vec<u8>> {
    let a = open(archive)?;
    a.read(inner)
        .with_context(|| format!("{}", archive.display()))
}

/// Every member of the archive whose name ends in one of `exts`, as member paths, sorted.
pub(crate) fn members(archive: &Path, exts: &[&str]) -> Result<Vec<PathBuf>> {
    let a = open(archive)?;
    let mut names: Vec<String> = a
        .entries()
        .into_iter()
        .filter_map(|e| e.known_name)
        .filter(|n| {
            let ext = n.rsplit('.').next().unwrap_or("");
            n.contains('.') && exts.iter().any(|x| ext.eq_ignore_ascii_case(x))
        })
        .collect();
    names.sort_by_key(|n| n.to_ascii_lowercase());
    names.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    Ok(names.iter().map(|n| member(archive, n)).collect())
}

/// A member's path below its archive as a relative path, its backslashes as folders;
/// `None` for a path that is no member. Parts that would climb out (`..`, a drive, a root)
/// are dropped.
pub(crate) fn relative(path: &Path) -> Option<PathBuf> {
    let (_, inner) = split(path)?;
    Some(safe_relative(&inner))
}

/// An archive name as a relative path: `\` and `/` separate folders; empty parts, `.`,
/// `..` and drive prefixes are dropped, so the result stays below the folder it is joined
/// to.
pub(crate) fn safe_relative(inner: &str) -> PathBuf {
    inner
        .split(['\\', '/'])
        .filter(|p| !p.is_empty() && *p != "." && *p != ".." && !p.ends_with(':'))
        .collect()
}
