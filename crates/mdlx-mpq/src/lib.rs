//! MPQ archives: the maps (`.w3m`, `.w3x`) and game data files (`war3.mpq`, ...) that
//! Warcraft III models and textures live in. The archive layer of the `war3-mdlx` library
//! (which re-exports it as `mdlx::mpq`), usable alone by map tools that never touch a model:
//! it depends on nothing else of it.
//!
//! [`Archive::open`] finds the archive in its file (after a map's `HM3W` header, past
//! protectors' decoys), reads its tables and names its files from `(listfile)` and, where
//! that is missing or incomplete, from what the archive itself names ([`Archive::recover_names`]).
//! [`Archive::read`] returns a file's bytes, or an error naming the file and why: never
//! zero-filled or cut-short bytes.
//!
//! ```no_run
//! let archive = mdlx_mpq::Archive::open("map.w3x".as_ref())?;
//! for entry in archive.entries() {
//!     println!("{} ({} bytes)", entry.name(), entry.size);
//! }
//! let model = archive.read("war3mapImported\\hero.mdx")?;
//! # Ok::<(), mdlx_mpq::MpqError>(())
//! ```
//!
//! # Reforged and CASC
//! Reforged (1.32 and later) keeps the game's data in CASC storage, not MPQ; maps stay MPQ.
//! Supporting CASC would take: the `.build.info` file naming the build's encoding and root
//! keys; the index files (`data/indices/*.idx`) mapping encoded keys to places in the
//! `data.NNN` files; BLTE decoding of each entry (its chunk table, zlib and plain chunks,
//! Salsa20-encrypted chunks with the game's key table); the encoding file (content key to
//! encoded key) and the root file, which for Warcraft III is a text list of paths to content
//! keys, so paths like `units\human\footman\footman.mdx` work as they do for MPQ. No public
//! CASC storage exists to test that with, so it is not built.

#![forbid(unsafe_code)]

mod compress;
mod crypto;
mod edit;
mod error;
mod file;
mod header;
mod imports;
mod names;
mod source;
mod tables;
mod write;

pub use edit::{Edits, ImportChanges, Rewritten};
pub use error::{MpqError, MpqErrorKind};
pub use header::Header;
pub use imports::{
    is_own_file, name_key, same_name, Import, Imports, CUSTOM_CLASSIC, CUSTOM_REFORGED, IMPORTED,
};
pub use write::{ArchiveWriter, Compression, EntryName, NewFile, WriteError, WriteReport};

use source::Source;
use std::path::Path;
use tables::{flags, Block, HashEntry, DELETED, EMPTY};

/// Files longer than this are refused unless [`Archive::set_limit`] raises it: a file's
/// size comes from the archive, and a small hostile archive can claim gigabytes that
/// decompress from a few bytes each.
pub const DEFAULT_LIMIT: u64 = 1 << 30;

/// An open MPQ archive.
pub struct Archive {
    src: Source,
    header: Header,
    hashes: Vec<HashEntry>,
    blocks: Vec<Block>,
    /// The name of each hash table slot, where known.
    names: Vec<Option<String>>,
    limit: u64,
}

/// One file of an archive, as the listing gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its name, where known.
    pub known_name: Option<String>,
    /// Its hash table slot.
    pub slot: usize,
    /// Its block table index.
    pub block: u32,
    /// Its locale (0: neutral).
    pub locale: u16,
    /// Its length.
    pub size: u64,
    /// Its stored length.
    pub stored_size: u64,
    /// Its block flags.
    pub flags: u32,
}

impl Entry {
    /// Its name: the known one, or `File%08u.xxx` from its block index (the pseudo-name
    /// StormLib gives it too) when the name could not be recovered.
    pub fn name(&self) -> String {
        match &self.known_name {
            Some(n) => n.clone(),
            None => format!("File{:08}.xxx", self.block),
        }
    }

    /// Whether it is encrypted in the archive.
    pub fn encrypted(&self) -> bool {
        self.flags & flags::ENCRYPTED != 0
    }
}

impl std::fmt::Debug for Archive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive")
            .field("header", &self.header)
            .field("files", &self.entries().len())
            .finish()
    }
}

impl Archive {
    /// Opens the archive in the file at `path`, naming its files from `(listfile)` and
    /// from what the archive names itself.
    pub fn open(path: &Path) -> Result<Archive, MpqError> {
        Archive::from_source(Source::open(path)?)
    }

    /// Opens an archive held in memory.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Archive, MpqError> {
        Archive::from_source(Source::Bytes(bytes))
    }

    fn from_source(src: Source) -> Result<Archive, MpqError> {
        let header = header::find(&src)?;
        let hashes = tables::hash_table(&src, &header)?;
        if hashes.is_empty() && header.het_pos != 0 {
            // Version 3 and 4 archives made by StormLib carry classic tables beside HET and
            // BET, and are read through them; one with only HET and BET is not read yet.
            return Err(MpqError::at(
                MpqErrorKind::Invalid(
                    "it has only HET and BET tables (MPQ version 3+), which this reader does not read".into(),
                ),
                header.offset + header.het_pos,
            ));
        }
        let mut blocks = tables::block_table(&src, &header)?;
        // A block whose data lies outside the file cannot be a file (the rest of an
        // oversized block table is whatever follows it).
        let room = src.len() - header.offset;
        for b in &mut blocks {
            if b.pos > room {
                b.flags = 0;
            }
        }
        let names = vec![None; hashes.len()];
        let mut archive = Archive {
            src,
            header,
            hashes,
            blocks,
            names,
            limit: DEFAULT_LIMIT,
        };
        for special in ["(listfile)", "(attributes)", "(signature)"] {
            archive.add_name(special);
        }
        if let Ok(list) = archive.read("(listfile)") {
            archive.add_names_from_list(&list);
        }
        if archive.entries().iter().any(|e| e.known_name.is_none()) {
            archive.recover_names();
        }
        Ok(archive)
    }

    /// The header, as this reader understood it.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The length of the archive's file.
    pub fn file_len(&self) -> u64 {
        self.src.len()
    }

    /// Raises or lowers the largest file length [`read`](Self::read) accepts.
    pub fn set_limit(&mut self, limit: u64) {
        self.limit = limit;
    }

    fn live(&self, slot: usize) -> Option<&Block> {
        let e = &self.hashes[slot];
        if e.block == EMPTY || e.block == DELETED {
            return None;
        }
        let b = self.blocks.get(e.block as usize)?;
        (b.flags & flags::EXISTS != 0 && b.flags & flags::DELETE_MARKER == 0).then_some(b)
    }

    /// Names the slots holding `name`; true when it is in the archive.
    pub fn add_name(&mut self, name: &str) -> bool {
        let slots: Vec<usize> = tables::find(&self.hashes, name.as_bytes()).collect();
        let mut found = false;
        for slot in slots {
            if self.live(slot).is_some() {
                found = true;
                if self.names[slot].is_none() {
                    self.names[slot] = Some(name.to_string());
                }
            }
        }
        found
    }

    /// Names files from a list file's text (names separated by line breaks or `;`);
    /// returns how many names were new.
    pub fn add_names_from_list(&mut self, list: &[u8]) -> usize {
        let before = self.names.iter().flatten().count();
        for line in list.split(|&b| b == b'\r' || b == b'\n' || b == b';') {
            let line = line.trim_ascii();
            if line.is_empty() || line.len() > 1024 {
                continue;
            }
            if let Ok(name) = std::str::from_utf8(line) {
                self.add_name(name);
            }
        }
        self.names.iter().flatten().count() - before
    }

    /// Every file in the archive, in hash table order: one entry per live hash table
    /// slot (a file stored for several locales is listed once for each).
    pub fn entries(&self) -> Vec<Entry> {
        (0..self.hashes.len())
            .filter_map(|slot| {
                let b = self.live(slot)?;
                let e = &self.hashes[slot];
                Some(Entry {
                    known_name: self.names[slot].clone(),
                    slot,
                    block: e.block,
                    locale: e.locale,
                    size: b.size,
                    stored_size: b.csize,
                    flags: b.flags,
                })
            })
            .collect()
    }

    /// Whether a file of this name is in the archive.
    pub fn contains(&self, name: &str) -> bool {
        self.slot_of(name).is_some()
    }

    fn slot_of(&self, name: &str) -> Option<usize> {
        let mut best = None;
        for slot in tables::find(&self.hashes, name.as_bytes()) {
            if self.live(slot).is_some() {
                if self.hashes[slot].locale == 0 {
                    return Some(slot);
                }
                best.get_or_insert(slot);
            }
        }
        best
    }

    /// The bytes of the file `name` (slashes or backslashes, any case); the neutral
    /// locale's when there are several.
    pub fn read(&self, name: &str) -> Result<Vec<u8>, MpqError> {
        let slot = self
            .slot_of(name)
            .ok_or_else(|| MpqError::new(MpqErrorKind::NotFound(name.to_string())))?;
        self.read_slot(slot, Some(name))
            .map_err(|e| e.in_file(|| name.to_string()))
    }

    /// The bytes of a listed file.
    pub fn read_entry(&self, entry: &Entry) -> Result<Vec<u8>, MpqError> {
        self.read_slot(entry.slot, entry.known_name.as_deref())
            .map_err(|e| e.in_file(|| entry.name()))
    }

    fn read_slot(&self, slot: usize, name: Option<&str>) -> Result<Vec<u8>, MpqError> {
        let block = self
            .live(slot)
            .ok_or_else(|| MpqError::invalid(format!("hash table slot {slot} holds no file"), 0))?;
        let key = match name {
            _ if block.flags & flags::ENCRYPTED == 0 => file::Key::None,
            Some(n) => file::Key::Name(n.as_bytes()),
            None => file::Key::Unknown,
        };
        file::read(&self.src, &self.header, block, key, self.limit)
    }
}

/// The archive at `path`, opened once per process and shared (a map's textures are looked
/// up for each of its models; reopening would read its tables and recover its names each
/// time). Reopened when the file's length or modification time changed.
pub fn shared(path: &Path) -> Result<std::sync::Arc<Archive>, MpqError> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    type Key = (std::path::PathBuf, u64, Option<std::time::SystemTime>);
    static CACHE: OnceLock<Mutex<HashMap<Key, Arc<Archive>>>> = OnceLock::new();
    let meta = std::fs::metadata(path)?;
    let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let key = (real, meta.len(), meta.modified().ok());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(a) = cache.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return Ok(a.clone());
    }
    let a = Arc::new(Archive::open(path)?);
    cache
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(key, a.clone());
    Ok(a)
}

/// The classic game's archives, in the order the game reads them (a file in an earlier one
/// wins): the patch, then The Frozen Throne's localized and main data, then Reign of
/// Chaos's.
pub const GAME_ARCHIVES: [&str; 5] = [
    "war3patch.mpq",
    "war3xlocal.mpq",
    "war3x.mpq",
    "war3local.mpq",
    "war3.mpq",
];

/// The game archives [`GAME_ARCHIVES`] names that are in `dir` (any case), in the game's
/// order; empty when `dir` is no game folder.
pub fn game_archives(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let present: Vec<std::path::PathBuf> = rd.flatten().map(|e| e.path()).collect();
    GAME_ARCHIVES
        .iter()
        .filter_map(|want| {
            present.iter().find(|p| {
                p.is_file()
                    && p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.eq_ignore_ascii_case(want))
            })
        })
        .cloned()
        .collect()
}

/// Whether `path` is named as one of the game's archives (or any `.mpq`, as mods ship
/// their data), rather than a map.
pub fn is_game_archive(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("mpq"))
}

#[cfg(test)]
mod tests;
