//! Inputs and outputs: a path, an archive member (`map.w3x:war3mapImported\hero.mdx`) or
//! bytes in; files out whole or not at all.
//!
//! Writing, as the `mdlx` tool does it: a regular file (or nothing yet) gets a temporary file
//! beside it (`.NAME.PID.N.tmp`), written, synced and renamed over the target, so the target
//! is its old self or the whole new file; a symbolic link is followed and its target written
//! that way; a special file (`/dev/null`) is written directly; a folder is refused. Several
//! files that belong together (a model and its textures) are all staged before any is put in
//! place, so a failure leaves none of them.

use crate::error::{Failure, Result};
use mdlx::mpq::Archive as MpqArchive;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where a model came from.
#[derive(Clone, Debug)]
pub(crate) enum Origin {
    /// A file on disk.
    File(PathBuf),
    /// A file inside an archive: the archive and the member's name.
    Member(PathBuf, String),
    /// Bytes handed over.
    Bytes,
}

impl Origin {
    /// How the input is named in messages.
    pub(crate) fn shown(&self) -> Option<String> {
        match self {
            Origin::File(p) => Some(p.display().to_string()),
            Origin::Member(a, m) => Some(format!("{}:{m}", a.display())),
            Origin::Bytes => None,
        }
    }

    /// The folder (or archive) its textures are looked for in first, as the tool does.
    pub(crate) fn texture_place(&self) -> Option<PathBuf> {
        match self {
            Origin::File(p) => Some(match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            }),
            Origin::Member(a, _) => Some(a.clone()),
            Origin::Bytes => None,
        }
    }

    /// The file name, for what the model is taken to be (`..._portrait.mdx`).
    pub(crate) fn file_name(&self) -> Option<String> {
        match self {
            Origin::File(p) => Some(p.display().to_string()),
            Origin::Member(_, m) => Some(m.replace('\\', "/")),
            Origin::Bytes => None,
        }
    }
}

/// Bytes to read, and where they came from.
pub(crate) struct Input {
    pub(crate) data: Vec<u8>,
    pub(crate) origin: Origin,
}

/// What a Python argument names: bytes (or a bytearray) are the content, anything else
/// is a path (`str` or `os.PathLike`).
pub(crate) enum Source {
    Bytes(Vec<u8>),
    Path(PathBuf),
}

impl Source {
    pub(crate) fn extract(obj: &Bound<'_, PyAny>) -> PyResult<Source> {
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(Source::Bytes(b.as_bytes().to_vec()));
        }
        if let Ok(b) = obj.cast::<PyByteArray>() {
            return Ok(Source::Bytes(b.to_vec()));
        }
        Ok(Source::Path(obj.extract::<PathBuf>()?))
    }

    /// The bytes, read from the file or archive member the path names.
    pub(crate) fn load(self) -> Result<Input> {
        match self {
            Source::Bytes(data) => Ok(Input {
                data,
                origin: Origin::Bytes,
            }),
            Source::Path(path) => read_path(&path),
        }
    }
}

/// Reads `path`, or the archive member it names (`ARCHIVE:NAME`, when no file has that
/// path and the part before a `:` is an archive).
pub(crate) fn read_path(path: &Path) -> Result<Input> {
    if let Some((archive, member)) = split_member(path) {
        let a = open_shared(&archive)?;
        let data =
            (a.read(&member)).map_err(|e| Failure::mpq(&e, &archive.display().to_string()))?;
        return Ok(Input {
            data,
            origin: Origin::Member(archive, member),
        });
    }
    let data =
        fs::read(path).map_err(|e| Failure::io(format!("cannot read {}", path.display()), &e))?;
    Ok(Input {
        data,
        origin: Origin::File(path.to_path_buf()),
    })
}

/// Whether `path` is a file holding an MPQ archive: a map or archive extension, or the
/// `HM3W` or `MPQ` magic at its start.
pub(crate) fn is_archive(path: &Path) -> bool {
    if !path.is_file() {
        return false;
    }
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ["w3m", "w3x", "w3n", "mpq"]
        .iter()
        .any(|x| ext.eq_ignore_ascii_case(x))
    {
        return true;
    }
    let mut head = [0u8; 4];
    fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .is_ok_and(|()| &head == b"HM3W" || &head[..3] == b"MPQ")
}

/// `ARCHIVE:MEMBER` split at the first `:` whose left side is an archive, for a path that
/// names no file itself.
fn split_member(path: &Path) -> Option<(PathBuf, String)> {
    if path.exists() {
        return None;
    }
    let text = path.to_str()?;
    text.match_indices(':').find_map(|(i, _)| {
        let (outer, member) = (Path::new(&text[..i]), &text[i + 1..]);
        (!member.is_empty() && is_archive(outer)).then(|| (outer.to_path_buf(), member.into()))
    })
}

/// A file made ready but not yet in place (see the module docs). Dropped uncommitted, its
/// temporary file is removed and the target is untouched.
pub(crate) struct Staged {
    how: Stage,
}

enum Stage {
    /// A special file: written at commit.
    Direct(PathBuf, Vec<u8>),
    /// A temporary file to rename over the target (`None` once done).
    Atomic(Option<(PathBuf, PathBuf)>),
}

impl Staged {
    /// Puts the file in place.
    fn commit(mut self) -> Result<()> {
        match &mut self.how {
            Stage::Direct(target, data) => fs::OpenOptions::new()
                .write(true)
                .open(&*target)
                .and_then(|mut f| f.write_all(data))
                .map_err(|e| Failure::io(format!("cannot write {}", target.display()), &e)),
            Stage::Atomic(paths) => {
                let Some((tmp, target)) = paths.take() else {
                    return Ok(());
                };
                if let Err(e) = fs::rename(&tmp, &target) {
                    let _ = fs::remove_file(&tmp);
                    return Err(Failure::io(
                        format!("cannot write {}", target.display()),
                        &e,
                    ));
                }
                if let Ok(dir) = fs::File::open(folder(&target)) {
                    let _ = dir.sync_all();
                }
                Ok(())
            }
        }
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Stage::Atomic(Some((tmp, _))) = &self.how {
            let _ = fs::remove_file(tmp);
        }
    }
}

/// The folder a file is in (`.` for a bare name).
fn folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Stages `data` for `target`: a temporary file beside the final target for a regular
/// file (through links), the data kept for a special file, an error for a folder.
pub(crate) fn stage(target: &Path, data: Vec<u8>) -> Result<Staged> {
    let shown = target.display();
    let how = match fs::metadata(target) {
        Ok(m) if m.is_dir() => {
            return Err(Failure::msg(format!("{shown} is a folder, not a file")))
        }
        Ok(m) if !m.is_file() => Stage::Direct(target.to_path_buf(), data),
        Ok(_) => {
            let real = fs::canonicalize(target)
                .map_err(|e| Failure::io(format!("cannot follow {shown}"), &e))?;
            temporary(&real, &data)?
        }
        // Nothing there yet (or a link to nothing yet): the path itself.
        Err(_) => temporary(target, &data)?,
    };
    Ok(Staged { how })
}

/// Writes `data` to a new temporary file in `target`'s folder and syncs it.
fn temporary(target: &Path, data: &[u8]) -> Result<Stage> {
    let fail = |e: &std::io::Error| {
        let dir = folder(target);
        let why = if dir.is_dir() {
            e.to_string()
        } else {
            format!("the folder {} does not exist", dir.display())
        };
        Failure::msg(format!("cannot write {}: {why}", target.display()))
    };
    target
        .file_name()
        .ok_or_else(|| Failure::msg(format!("{} names no file", target.display())))?;
    let (tmp, mut file) = mdlx::output::temporary(&folder(target), target).map_err(|e| fail(&e))?;
    if let Err(e) = file.write_all(data).and_then(|()| file.sync_all()) {
        let _ = fs::remove_file(&tmp);
        return Err(fail(&e));
    }
    Ok(Stage::Atomic(Some((tmp, target.to_path_buf()))))
}

/// Writes every `(path, bytes)` whole or not at all: all are staged, then all put in place.
pub(crate) fn write_all(files: Vec<(PathBuf, Vec<u8>)>) -> Result<()> {
    let mut staged = Vec::with_capacity(files.len());
    for (path, data) in files {
        staged.push(stage(&path, data)?);
    }
    staged.into_iter().try_for_each(Staged::commit)
}

/// The archive at `path`, from the library's per-process cache.
pub(crate) fn open_shared(path: &Path) -> Result<Arc<MpqArchive>> {
    mdlx::mpq::shared(path).map_err(|e| Failure::mpq(&e, &path.display().to_string()))
}
