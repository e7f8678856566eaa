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

pub(crate) use crate::paths::{has_ext, is_stdio};

/// How a path is named in messages: `-` is "standard input".
pub(crate) fn shown(path: &Path) -> String {
    if is_stdio(path) {
        "(standard input)".to_string()
    } else {
        path.display().to_string()
    }
}

/// Every file under `paths` (files as given, folders recursively, archives as the members
/// `ARCHIVE:NAME` of theirs) whose extension is one of `exts` (case-insensitive), sorted. Folders in `skip` (compared after resolving links)
/// are not walked into, and a folder reached twice through links is walked once.
pub(crate) fn find(paths: &[PathBuf], exts: &[&str], skip: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut seen: HashSet<PathBuf> = skip
        .iter()
        .filter_map(|p| fs::canonicalize(p).ok())
        .collect();
    for p in paths {
        if crate::archive::split(p).is_some() {
            out.push(p.clone());
            continue;
        }
        let meta = fs::metadata(p).with_context(|| format!("cannot read {}", p.display()))?;
        if meta.is_file() && crate::archive::is_archive(p) {
            out.extend(crate::archive::members(p, exts)?);
        } else if meta.is_dir() {
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

/// The file's first 64 KiB (what detection looks at), or `None` when it cannot be read.
pub(crate) fn head(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    if let Some((archive, inner)) = crate::archive::split(path) {
        let mut data = crate::archive::read_member(&archive, &inner).ok()?;
        data.truncate(64 << 10);
        return Some(data);
    }
    let mut head = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(64 << 10).read_to_end(&mut head))
        .ok()?;
    Some(head)
}

/// The extensions of the Warcraft III model formats the library reads and converts to a
/// model (`mdx`, `mdl`, Milkshape's `txt`), from its table.
pub(crate) fn model_extensions() -> Vec<&'static str> {
    let mut exts = Vec::new();
    let rows = mdlx::formats::FORMATS.iter();
    for f in rows.filter(|f| f.read && f.kind == mdlx::formats::Kind::Model) {
        for e in f.extensions {
            if !exts.contains(e) {
                exts.push(*e);
            }
        }
    }
    exts
}

/// Whether the file's first few kilobytes read as Milkshape.
pub(crate) fn is_milkshape(path: &Path) -> bool {
    head(path).is_some_and(|h| mdlx::identify(&h) == mdlx::Content::Model(mdlx::Format::Ms3d))
}

/// Whether `path` stands for many files: a folder, or an archive (a map).
pub(crate) fn is_container(path: &Path) -> bool {
    !is_stdio(path) && (path.is_dir() || crate::archive::is_archive(path))
}

/// A temporary file of [`write`] (`.NAME.PID.N.tmp`), left by a process that was killed.
fn is_our_temporary(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.') && n.ends_with(".tmp"))
}

/// Reads a whole file (`-`: standard input), naming it in the error.
pub(crate) fn read(path: &Path) -> Result<Vec<u8>> {
    if is_stdio(path) {
        let mut data = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut data)
            .context("cannot read standard input")?;
        return Ok(data);
    }
    if let Some((archive, inner)) = crate::archive::split(path) {
        return crate::archive::read_member(&archive, &inner);
    }
    fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Writes `data` to `target` as the module documentation says: standard output for `-`,
/// directly into special files, atomically into regular files (through links). Refuses to
/// write over `input`. On failure a temporary file is removed and the target is untouched.
pub(crate) fn write(target: &Path, data: &[u8], input: &Path) -> Result<()> {
    stage(target, data, input)?.commit()
}

/// [`write`] for one of many outputs written at once (every file of an archive extracted):
/// the same temporary file and rename, so a file appears whole or not at all even if the
/// process is killed, but not synced to the disk first. Syncing each of a map's thousand
/// files made extraction five times slower; archivers do not sync either.
pub(crate) fn write_bulk(target: &Path, data: &[u8], input: &Path) -> Result<()> {
    stage_with(target, data, input, false)?.commit()
}

/// An output made ready but not yet in place: for a regular file, its bytes written and
/// synced to a temporary file beside the target. [`Staged::commit`] puts it in place (a
/// rename); dropping it uncommitted removes the temporary file and leaves the target as it
/// was. Several outputs that belong together (a model and its textures) are all staged
/// before any is committed, so a failure while writing leaves none of them.
#[must_use = "a staged output is discarded unless committed"]
pub(crate) struct Staged<'a> {
    how: Stage<'a>,
}

enum Stage<'a> {
    /// Standard output, written at commit.
    Stdout(&'a [u8]),
    /// A special file, opened and written at commit.
    Direct(PathBuf, &'a [u8]),
    /// A temporary file, renamed over the target at commit (`None` once done).
    Atomic(Option<(PathBuf, PathBuf)>),
}

/// Prepares `data` for `target` as [`write`] would write it: refuses what `write` refuses
/// (the input, a folder) and, for a regular file, writes the temporary file now.
pub(crate) fn stage<'a>(target: &Path, data: &'a [u8], input: &Path) -> Result<Staged<'a>> {
    stage_with(target, data, input, true)
}

/// [`stage`], syncing a regular file's bytes to the disk before the rename when `sync`.
fn stage_with<'a>(target: &Path, data: &'a [u8], input: &Path, sync: bool) -> Result<Staged<'a>> {
    let how = if is_stdio(target) || target == Path::new("/dev/stdout") {
        Stage::Stdout(data)
    } else {
        if !is_stdio(input) && same_file(target, input) {
            bail!("refusing to write over the input file {}", input.display());
        }
        match fs::metadata(target) {
            Ok(m) if m.is_dir() => bail!("{} is a folder, not a file", target.display()),
            Ok(m) if !m.is_file() || is_system_path(target) => {
                Stage::Direct(target.to_path_buf(), data)
            }
            Ok(_) if fs::symlink_metadata(target).is_ok_and(|m| m.file_type().is_symlink()) => {
                let real = fs::canonicalize(target)
                    .with_context(|| format!("cannot follow the link {}", target.display()))?;
                if is_system_path(&real) {
                    Stage::Direct(target.to_path_buf(), data)
                } else {
                    stage_atomic(&real, data, sync)?
                }
            }
            Ok(_) => stage_atomic(target, data, sync)?,
            // Nothing there, or a link whose target does not exist yet: create the final
            // target.
            Err(_) => stage_atomic(&follow_dangling(target)?, data, sync)?,
        }
    };
    Ok(Staged { how })
}

impl Staged<'_> {
    /// Puts the output in place.
    pub(crate) fn commit(mut self) -> Result<()> {
        match &mut self.how {
            Stage::Stdout(data) => {
                let mut out = std::io::stdout().lock();
                out.write_all(data)
                    .context("cannot write standard output")?;
                out.flush().context("cannot write standard output")
            }
            Stage::Direct(target, data) => write_direct(target, data),
            Stage::Atomic(paths) => {
                let Some((tmp, target)) = paths.take() else {
                    return Ok(());
                };
                let renamed = fs::rename(&tmp, &target)
                    .map_err(|e| write_error(&target, &folder_of(&target), &e));
                if renamed.is_err() {
                    let _ = fs::remove_file(&tmp);
                }
                renamed?;
                // Make the rename itself durable; a folder that cannot be synced is not an
                // error.
                if let Ok(d) = fs::File::open(folder_of(&target)) {
                    let _ = d.sync_all();
                }
                Ok(())
            }
        }
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if let Stage::Atomic(Some((tmp, _))) = &self.how {
            let _ = fs::remove_file(tmp);
        }
    }
}

/// Whether an output at `target` is no file of its own: standard output, a special file,
/// or a path under `/dev` or `/proc`. Nothing can be written beside such an output.
pub(crate) fn is_special(target: &Path) -> bool {
    is_stdio(target)
        || is_system_path(target)
        || fs::metadata(target).is_ok_and(|m| !m.is_file() && !m.is_dir())
        || fs::canonicalize(target).is_ok_and(|real| is_system_path(&real))
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

/// The folder a file is in (`.` for a bare name).
fn folder_of(target: &Path) -> PathBuf {
    match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `data` into a new temporary file in the target's folder and syncs it. The name
/// (`.NAME.PID.N.tmp`) is unique within the process, so threads writing the same target
/// never share one, and it is created afresh (never through an existing file or link).
fn stage_atomic<'a>(target: &Path, data: &[u8], sync: bool) -> Result<Stage<'a>> {
    let dir = folder_of(target);
    target
        .file_name()
        .context("the output path has no file name")?;
    let (tmp, mut f) =
        mdlx::output::temporary(&dir, target).map_err(|e| write_error(target, &dir, &e))?;
    let written = f
        .write_all(data)
        .and_then(|()| if sync { f.sync_all() } else { Ok(()) })
        .map_err(|e| write_error(target, &dir, &e));
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(Stage::Atomic(Some((tmp, target.to_path_buf()))))
}

/// The error of writing `target` in the folder `dir`, naming the target and the folder,
/// never the temporary file the write goes through (that name means nothing to a user).
fn write_error(target: &Path, dir: &Path, e: &std::io::Error) -> anyhow::Error {
    use std::io::ErrorKind;
    let shown_dir = dir.display();
    let why = match e.kind() {
        ErrorKind::NotFound if !dir.exists() => {
            format!("the folder {shown_dir} does not exist (create it first)")
        }
        ErrorKind::NotFound => format!("a folder on the way to {shown_dir} is missing"),
        ErrorKind::PermissionDenied => {
            format!("no permission to write in the folder {shown_dir}")
        }
        _ if dir.is_file() => format!("{shown_dir} is a file, not a folder"),
        _ => format!("in the folder {shown_dir}: {e}"),
    };
    anyhow::anyhow!("cannot write {}: {why}", target.display())
}

/// Whether two paths name the same existing file (through any links).
pub(crate) fn same(a: &Path, b: &Path) -> bool {
    same_file(a, b)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Many new files written into one folder tree at once (an archive extracted), each whole
/// or not at all as [`write`] writes them, without what makes `write` slow over a thousand
/// files: each is written to a temporary file and linked into place (a hard link, which
/// fails rather than replace anything that appeared meanwhile), not synced, no folder
/// synced, and the input's real path resolved once. A target that exists already (a file,
/// a link, a special file: the link into place fails) goes through [`write_bulk`], which
/// follows links and refuses the input.
pub(crate) struct Filling<'a> {
    root: PathBuf,
    input: &'a Path,
    made: std::sync::Mutex<HashSet<PathBuf>>,
}

impl<'a> Filling<'a> {
    /// Fills `root` (made when missing) with files read from `input`.
    pub(crate) fn new(root: &Path, input: &'a Path) -> Result<Filling<'a>> {
        fs::create_dir_all(root).with_context(|| format!("cannot make {}", root.display()))?;
        Ok(Filling {
            root: root.to_path_buf(),
            input,
            made: std::sync::Mutex::new(HashSet::new()),
        })
    }

    /// Writes `data` at `relative` below the root, making its folders.
    pub(crate) fn write(&self, relative: &Path, data: &[u8]) -> Result<()> {
        let target = self.root.join(relative);
        let dir = folder_of(&target);
        let known = self
            .made
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&dir);
        if !known {
            fs::create_dir_all(&dir).map_err(|e| write_error(&target, &dir, &e))?;
            self.made
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(dir.clone());
        }
        let (tmp, mut f) =
            mdlx::output::temporary(&dir, &target).map_err(|e| write_error(&target, &dir, &e))?;
        let written = f
            .write_all(data)
            .map_err(|e| write_error(&target, &dir, &e));
        drop(f);
        let placed = written.and_then(|()| match fs::hard_link(&tmp, &target) {
            Ok(()) => Ok(true),
            // Something appeared at the target meanwhile: the careful way.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            // A file system without hard links: a rename, as `write` does.
            Err(_) => fs::rename(&tmp, &target)
                .map(|()| true)
                .map_err(|e| write_error(&target, &dir, &e)),
        });
        let _ = fs::remove_file(&tmp);
        if !placed? {
            return write_bulk(&target, data, self.input);
        }
        Ok(())
    }
}
