//! Writing an archive anew with changes: files added, replaced, removed and renamed, every
//! other file carried over with its bytes, the map header kept, `(listfile)` and
//! `(attributes)` made afresh. Files whose names are unknown keep their hash table slots
//! (the table keeps its size), so the game still finds them by the names it knows.

use super::error::{MpqError, MpqErrorKind};
use super::imports::{is_own_file, name_key, Imports};
use super::write::{ArchiveWriter, EntryName, NewFile, WriteReport};
use super::{tables, Archive};

/// The changes [`Archive::rewrite`] makes. Names are matched as the archive matches them
/// (any case, `/` or `\`).
#[derive(Clone, Debug, Default)]
pub struct Edits {
    /// Files to add, or to replace when the archive has them: name and bytes.
    pub put: Vec<(String, Vec<u8>)>,
    /// Files to remove.
    pub remove: Vec<String>,
    /// Files to rename: old name, new name.
    pub rename: Vec<(String, String)>,
    /// Leave out a file that cannot be read (reported in [`Rewritten::dropped`]) instead of
    /// failing.
    pub drop_unreadable: bool,
    /// Keep a map's import list (`war3map.imp`, `war3campaign.imp`) true to the edits, as
    /// the World Editor keeps it: files put are listed, removed ones dropped, renamed ones
    /// followed (see [`Archive::rewrite`]).
    pub imports: bool,
}

/// What [`Edits::imports`] did to the import list.
#[derive(Clone, Debug, Default)]
pub struct ImportChanges {
    /// The list's name in the archive, when the archive is a map or campaign.
    pub list: Option<String>,
    /// Files newly listed.
    pub added: Vec<String>,
    /// Files no longer listed.
    pub removed: Vec<String>,
    /// Entries pointed at a new name: old, new.
    pub renamed: Vec<(String, String)>,
    /// Listed files the new archive does not hold (the list is left as it is for them).
    pub stale: Vec<String>,
    /// Why the list was left untouched (it could not be read), when it was.
    pub unreadable: Option<String>,
}

/// An archive written anew, and what happened.
#[derive(Clone, Debug)]
pub struct Rewritten {
    /// The new archive file.
    pub bytes: Vec<u8>,
    /// The writer's report (counts, table size, what was dropped).
    pub report: WriteReport,
    /// Files added (not in the archive before).
    pub added: usize,
    /// Files replaced.
    pub replaced: usize,
    /// Files removed.
    pub removed: usize,
    /// Files renamed.
    pub renamed: usize,
    /// Files left out because they could not be read, with why.
    pub dropped: Vec<String>,
    /// Whether the original had a signature (a `(signature)` file or a strong `NGIS`
    /// signature after the archive) that the rewrite drops: a changed archive cannot keep
    /// Blizzard's signature.
    pub signature_dropped: bool,
    /// What became of the import list (with [`Edits::imports`]).
    pub imports: ImportChanges,
}

use super::imports::same_name as same;

fn is_special(name: &str) -> bool {
    ["(listfile)", "(attributes)", "(signature)"]
        .iter()
        .any(|s| same(s, name))
}

impl Archive {
    /// This archive written anew with `edits`. Nothing is written to disk: the caller
    /// writes [`Rewritten::bytes`] where it wants (never over this archive's file while it
    /// is open).
    ///
    /// With [`Edits::imports`], in a map or campaign: a file put that is not one of the
    /// map's own ([`is_own_file`]) is listed in its import list, a
    /// removed one is dropped from it, a renamed one's entry follows it; the list is written
    /// anew only when it changed (an edit of listed files leaves it byte for byte), and
    /// made when the map has none and a file is listed. An import list put by the caller
    /// is written as given.
    pub fn rewrite(&self, edits: &Edits) -> Result<Rewritten, MpqError> {
        let (list, imports) = self.keep_imports(edits);
        let with_list;
        let edits = match list {
            Some(entry) => {
                with_list = Edits {
                    put: edits.put.iter().cloned().chain([entry]).collect(),
                    ..edits.clone()
                };
                &with_list
            }
            None => edits,
        };
        let mut out = self.rewrite_with(edits)?;
        out.imports = imports;
        Ok(out)
    }

    fn rewrite_with(&self, edits: &Edits) -> Result<Rewritten, MpqError> {
        let mut w = ArchiveWriter::new();
        let prefix = self.src.read_clipped(0, self.header.offset).into_owned();
        w.prefix(prefix);
        w.sector_size_shift(self.header.sector_shift);
        let slots = self.hashes.len() as u32;
        let unnamed = self.entries().iter().any(|e| e.known_name.is_none());
        if slots.is_power_of_two() {
            w.hash_table_size(slots);
        } else if unnamed {
            return Err(MpqError::new(MpqErrorKind::Invalid(format!(
                "its hash table has {slots} slots, not a power of two, and files whose names are unknown: they cannot be carried over"
            ))));
        }
        if unnamed {
            let used = (0..self.hashes.len())
                .filter(|&i| self.hashes[i].block != tables::EMPTY)
                .map(|i| i as u32);
            w.keep_slots(used.collect::<Vec<_>>());
        }
        let mut out = Rewritten {
            bytes: Vec::new(),
            report: WriteReport::default(),
            added: 0,
            replaced: 0,
            removed: 0,
            renamed: 0,
            dropped: Vec::new(),
            signature_dropped: self.contains("(signature)") || self.has_strong_signature(),
            imports: ImportChanges::default(),
        };
        let times = self.filetimes();
        let mut put_used = vec![false; edits.put.len()];
        // Protected maps point several slots of one name at a block: the file is kept once.
        let mut seen = std::collections::HashSet::new();
        for entry in self.entries() {
            let name = entry.known_name.clone();
            if name.as_deref().is_some_and(is_special) {
                continue;
            }
            if let Some(n) = &name {
                if !seen.insert((name_key(n), entry.locale)) {
                    continue;
                }
            }
            if let Some(n) = &name {
                if edits.remove.iter().any(|r| same(r, n)) {
                    out.removed += 1;
                    continue;
                }
            }
            let put = name
                .as_deref()
                .and_then(|n| edits.put.iter().position(|(p, _)| same(p, n)));
            let data = match put {
                Some(i) => {
                    put_used[i] = true;
                    out.replaced += 1;
                    edits.put[i].1.clone()
                }
                None => match self.read_entry(&entry) {
                    Ok(d) => d,
                    Err(e) if edits.drop_unreadable => {
                        out.dropped.push(e.to_string());
                        continue;
                    }
                    Err(e) => return Err(e),
                },
            };
            let stored_name = match &name {
                Some(n) => {
                    let renamed = edits.rename.iter().find(|(old, _)| same(old, n));
                    if renamed.is_some() {
                        out.renamed += 1;
                    }
                    EntryName::Named(renamed.map_or_else(|| n.clone(), |(_, new)| new.clone()))
                }
                None => {
                    let h = &self.hashes[entry.slot];
                    EntryName::Hashed {
                        index: entry.slot as u32,
                        name_a: h.name_a,
                        name_b: h.name_b,
                    }
                }
            };
            let h = &self.hashes[entry.slot];
            // A replaced file is new: no time; one carried over keeps its own.
            let filetime = if put.is_some() {
                None
            } else {
                times.get(entry.block as usize).copied().filter(|&t| t != 0)
            };
            w.add(NewFile {
                name: stored_name,
                locale: h.locale,
                platform: h.platform,
                data,
                filetime,
            });
        }
        for (i, (name, data)) in edits.put.iter().enumerate() {
            if !put_used[i] {
                out.added += 1;
                w.add(NewFile {
                    name: EntryName::Named(name.clone()),
                    locale: 0,
                    platform: 0,
                    data: data.clone(),
                    filetime: None,
                });
            }
        }
        let (bytes, report) = w
            .write()
            .map_err(|e| MpqError::new(MpqErrorKind::Invalid(e.to_string())))?;
        out.bytes = bytes;
        out.signature_dropped |= report.signature_dropped;
        out.report = report;
        Ok(out)
    }

    /// The import list's new entry (name and bytes) when the edits change it, and what
    /// changed.
    fn keep_imports(&self, edits: &Edits) -> (Option<(String, Vec<u8>)>, ImportChanges) {
        let mut changes = ImportChanges::default();
        if !edits.imports {
            return (None, changes);
        }
        let list = if self.contains("war3map.w3i") || self.contains("war3map.imp") {
            "war3map.imp"
        } else if self.contains("war3campaign.w3f") || self.contains("war3campaign.imp") {
            "war3campaign.imp"
        } else {
            return (None, changes);
        };
        changes.list = Some(list.to_string());
        if edits.put.iter().any(|(n, _)| same(n, list)) {
            return (None, changes);
        }
        let mut imp = match self.read(list) {
            Ok(bytes) => match Imports::parse(&bytes) {
                Ok(imp) => imp,
                Err(e) => {
                    changes.unreadable = Some(e.to_string());
                    return (None, changes);
                }
            },
            Err(e) if !matches!(e.kind, MpqErrorKind::NotFound(_)) => {
                changes.unreadable = Some(e.to_string());
                return (None, changes);
            }
            Err(_) => Imports::new(),
        };
        // Reforged's editor (map info format 31 and later) writes its own flag.
        let reforged = self
            .read("war3map.w3i")
            .ok()
            .and_then(|b| {
                b.get(..4)
                    .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            })
            .is_some_and(|v| (31..1000).contains(&v));
        for (name, _) in &edits.put {
            if !is_own_file(name) && imp.add(name, reforged) {
                changes.added.push(name.clone());
            }
        }
        for name in &edits.remove {
            if imp.remove(name) {
                changes.removed.push(name.clone());
            }
        }
        for (old, new) in &edits.rename {
            if imp.rename(old, new, reforged) {
                changes.renamed.push((old.clone(), new.clone()));
            } else if !is_own_file(new) && imp.add(new, reforged) {
                changes.added.push(new.clone());
            }
        }
        let exists_after = |name: &str| {
            edits.put.iter().any(|(n, _)| same(n, name))
                || edits.rename.iter().any(|(_, n)| same(n, name))
                || (self.contains(name)
                    && !edits.remove.iter().any(|n| same(n, name))
                    && !edits.rename.iter().any(|(o, _)| same(o, name)))
        };
        changes.stale = imp
            .entries
            .iter()
            .map(|e| e.archive_name())
            .filter(|n| !exists_after(n))
            .collect();
        let changed =
            !(changes.added.is_empty() && changes.removed.is_empty() && changes.renamed.is_empty());
        (changed.then(|| (list.to_string(), imp.to_bytes())), changes)
    }

    /// The file times `(attributes)` holds, by block index; empty when it has none or its
    /// size fits no count of entries.
    fn filetimes(&self) -> Vec<u64> {
        const CRC32: u32 = 1;
        const FILETIME: u32 = 2;
        const MD5: u32 = 4;
        let Ok(a) = self.read("(attributes)") else {
            return Vec::new();
        };
        let word = |i: usize| {
            a.get(i..i + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let (Some(100), Some(flags)) = (word(0), word(4)) else {
            return Vec::new();
        };
        if flags & FILETIME == 0 {
            return Vec::new();
        }
        let per = 4 * usize::from(flags & CRC32 != 0) + 8 + 16 * usize::from(flags & MD5 != 0);
        // The count of entries its size gives (with or without one patch bit each after
        // them); at most one per block. Protected maps' block tables claim more blocks than
        // they have, so the block table's count is not used.
        let body = a.len().saturating_sub(8);
        let with_bits = |n: usize| n * per + n.div_ceil(8);
        let n = if body % per == 0 {
            body / per
        } else {
            let guess = body * 8 / (8 * per + 1);
            match (guess.saturating_sub(1)..=guess + 1).find(|&n| with_bits(n) == body) {
                Some(n) => n,
                None => return Vec::new(),
            }
        };
        if n == 0 || n > self.blocks.len() {
            return Vec::new();
        }
        let start = 8 + if flags & CRC32 != 0 { 4 * n } else { 0 };
        (0..n)
            .map(|i| {
                let b = &a[start + 8 * i..start + 8 * i + 8];
                u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
            })
            .collect()
    }

    /// Whether a strong signature (`NGIS` and 256 bytes) ends the file.
    fn has_strong_signature(&self) -> bool {
        let len = self.src.len();
        len >= 260 && &self.src.read_clipped(len - 260, 4)[..] == b"NGIS"
    }
}
