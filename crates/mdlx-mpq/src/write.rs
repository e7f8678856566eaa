//! Writing a new MPQ archive from a list of files.
//!
//! The archive is always built whole, in memory, and returned as bytes: a map is never
//! rewritten in place. What comes out is what Warcraft III reads: a version 1 header
//! (32 bytes, format 0), the files, then the hash and block tables (both encrypted with
//! the keys of their names). Files are split into sectors, each compressed with zlib (mask
//! byte 0x02) or stored as it is when that is not smaller; files are never encrypted.
//! A fresh `(listfile)` naming every named file and an `(attributes)` file (CRC32, file
//! time and MD5 of every block) are generated; any in the input are replaced, and a
//! `(signature)` is dropped (it could not be valid for the new bytes), which the
//! [`WriteReport`] says.
//!
//! Files whose names are unknown ([`EntryName::Hashed`]) can only be found where the
//! original hash table had them, so they keep their slot and the table keeps its size
//! ([`ArchiveWriter::hash_table_size`]). A name's search runs from its home slot to the
//! first empty one, so the original table's other used slots must not turn empty where
//! no file lands in them: [`ArchiveWriter::keep_slots`] writes them as deletion marks.

use super::compress::compress_zlib;
use super::crypto::{encrypt, hash, HashKind};

/// Block flag: the block holds a file.
const FLAG_EXISTS: u32 = 0x8000_0000;
/// Block flag: the file's sectors carry a compression mask byte.
const FLAG_COMPRESS: u32 = 0x0000_0200;
/// Hash entry block index of a slot never used.
const SLOT_EMPTY: u32 = 0xFFFF_FFFF;
/// Hash entry block index of a slot whose file was deleted (lookups walk past it).
const SLOT_DELETED: u32 = 0xFFFF_FFFE;
/// The archive starts at a multiple of this after the prefix (the game searches there).
const ALIGN: usize = 512;
/// `(attributes)` version and the parts written: CRC32 | FILETIME | MD5.
const ATTRIBUTES_VERSION: u32 = 100;
const ATTRIBUTES_FLAGS: u32 = 0x1 | 0x2 | 0x4;

const LISTFILE: &str = "(listfile)";
const ATTRIBUTES: &str = "(attributes)";
const SIGNATURE: &str = "(signature)";

/// How the files' sectors are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Compression {
    /// zlib on every sector where it makes the sector smaller (the default).
    #[default]
    Zlib,
    /// Every file stored as it is.
    None,
}

/// The name a file is stored under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryName {
    /// A known name (`war3mapImported\hero.mdx`; `/` is written as `\`).
    Named(String),
    /// A file whose name is unknown, kept by its hash-table entry: `index` is its position
    /// in the original hash table, `name_a` and `name_b` its two name checks.
    Hashed {
        /// Position in the original hash table.
        index: u32,
        /// The entry's first name check.
        name_a: u32,
        /// The entry's second name check.
        name_b: u32,
    },
}

/// One file to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewFile {
    /// Its name, or its original hash entry when the name is unknown.
    pub name: EntryName,
    /// The locale of its hash entry (0: neutral).
    pub locale: u16,
    /// The platform of its hash entry (0).
    pub platform: u16,
    /// The bytes.
    pub data: Vec<u8>,
    /// Its time in `(attributes)` (a Windows FILETIME: 100 ns units since 1601); 0 if none.
    pub filetime: Option<u64>,
}

/// What was written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteReport {
    /// Files stored from the input (the generated `(listfile)` and `(attributes)` not
    /// counted).
    pub files: usize,
    /// Of them, files kept by their hash entry (name unknown).
    pub hashed: usize,
    /// Entries in the hash table.
    pub hash_table_size: u32,
    /// Entries in the block table (the files, `(listfile)` and `(attributes)`).
    pub block_count: u32,
    /// Where the archive starts in the output (after the prefix).
    pub archive_offset: u64,
    /// Bytes of file data before compression (the generated files included).
    pub data_bytes: u64,
    /// Bytes the files take in the archive (after compression, with sector tables).
    pub stored_bytes: u64,
    /// Special files in the input that were replaced or dropped (`(listfile)`,
    /// `(attributes)`, `(signature)`).
    pub replaced: Vec<String>,
    /// The input had a `(signature)`; it was dropped.
    pub signature_dropped: bool,
}

/// Why an archive could not be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteError {
    /// A name that cannot be stored (empty, or holding a line break or control character).
    BadName(String),
    /// Two files with one name and locale.
    DuplicateName(String),
    /// Two files kept by their hash entry at one index.
    HashedSlotTaken(u32),
    /// A hash-entry file's index is outside the hash table.
    HashedIndexOutOfRange {
        /// The index.
        index: u32,
        /// The table's size.
        size: u32,
    },
    /// Files kept by their hash entry need the original table size (call
    /// [`ArchiveWriter::hash_table_size`]).
    HashedNeedsTableSize,
    /// The hash table size is not a power of two (or is zero where one is needed).
    BadHashTableSize(u32),
    /// More files than hash-table entries; with files kept by their hash entry the table
    /// cannot grow.
    TableFull {
        /// Entries needed (files, `(listfile)` and `(attributes)`).
        entries: usize,
        /// The table's size.
        size: u32,
    },
    /// A sector size shift outside 0..=22.
    BadSectorShift(u16),
    /// The archive or a file would not fit the 32-bit sizes of a version 1 archive.
    TooLarge,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::BadName(n) => write!(f, "cannot store a file named {n:?}"),
            WriteError::DuplicateName(n) => write!(f, "two files named {n:?} (same locale)"),
            WriteError::HashedSlotTaken(i) => {
                write!(f, "two unnamed files at hash table index {i}")
            }
            WriteError::HashedIndexOutOfRange { index, size } => write!(
                f,
                "unnamed file at hash table index {index}, outside the table of {size}"
            ),
            WriteError::HashedNeedsTableSize => write!(
                f,
                "unnamed files keep their hash table index: the original table size is needed"
            ),
            WriteError::BadHashTableSize(n) => {
                write!(f, "hash table size {n} is not a power of two")
            }
            WriteError::TableFull { entries, size } => write!(
                f,
                "{entries} files do not fit a hash table of {size} entries, which cannot grow \
                 while unnamed files must keep their places"
            ),
            WriteError::BadSectorShift(s) => write!(f, "sector size shift {s} is not in 0..=22"),
            WriteError::TooLarge => write!(f, "the archive would exceed 4 GiB"),
        }
    }
}

impl std::error::Error for WriteError {}

/// Builds a new archive from files: see the module documentation.
#[derive(Clone, Debug)]
pub struct ArchiveWriter {
    prefix: Vec<u8>,
    sector_shift: u16,
    hash_table_size: u32,
    compression: Compression,
    files: Vec<NewFile>,
    kept_slots: Vec<u32>,
}

impl Default for ArchiveWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl ArchiveWriter {
    /// An empty archive: no prefix, 4096-byte sectors, zlib.
    pub fn new() -> Self {
        ArchiveWriter {
            prefix: Vec::new(),
            sector_shift: 3,
            hash_table_size: 0,
            compression: Compression::Zlib,
            files: Vec::new(),
            kept_slots: Vec::new(),
        }
    }

    /// Bytes written before the archive as they are (a map's 512-byte `HM3W` header); the
    /// archive starts at the next multiple of 512 after them.
    pub fn prefix(&mut self, bytes: Vec<u8>) -> &mut Self {
        self.prefix = bytes;
        self
    }

    /// Sectors of `512 << shift` bytes (default 3: 4096).
    pub fn sector_size_shift(&mut self, shift: u16) -> &mut Self {
        self.sector_shift = shift;
        self
    }

    /// The least hash table size (rounded up to a power of two). When files are kept by
    /// their hash entry ([`EntryName::Hashed`]) it must be the original table's size,
    /// which is then kept exactly.
    pub fn hash_table_size(&mut self, size: u32) -> &mut Self {
        self.hash_table_size = size;
        self
    }

    /// How sectors are compressed (default zlib).
    pub fn compression(&mut self, compression: Compression) -> &mut Self {
        self.compression = compression;
        self
    }

    /// Slots of the original hash table that held an entry (a file or a deletion mark).
    /// Where files keep their hash entries, such a slot left without a file is written as
    /// deleted rather than empty, so that a name's search still walks past it to a file
    /// further on. Without files kept by hash entry this has no effect.
    pub fn keep_slots(&mut self, slots: impl IntoIterator<Item = u32>) -> &mut Self {
        self.kept_slots.extend(slots);
        self
    }

    /// Adds a file; files are stored in the order added.
    pub fn add(&mut self, file: NewFile) -> &mut Self {
        self.files.push(file);
        self
    }

    /// Builds the archive: the prefix, padding, then the archive.
    pub fn write(mut self) -> Result<(Vec<u8>, WriteReport), WriteError> {
        if self.sector_shift > 22 {
            return Err(WriteError::BadSectorShift(self.sector_shift));
        }
        let mut report = WriteReport::default();
        let files = drop_special(std::mem::take(&mut self.files), &mut report)?;
        report.files = files.len();
        report.hashed = files
            .iter()
            .filter(|f| matches!(f.name, EntryName::Hashed { .. }))
            .count();
        let listfile = make_listfile(&files);
        let entries = files.len() + 2;
        let size = table_size(self.hash_table_size, entries, report.hashed > 0)?;

        // The blocks: the input files, the listfile, the attributes.
        let entries_in: Vec<Entry> = files
            .iter()
            .map(|f| match &f.name {
                EntryName::Named(n) => Entry::named(n, f.locale, f.platform),
                EntryName::Hashed {
                    index,
                    name_a,
                    name_b,
                } => Entry {
                    name_a: *name_a,
                    name_b: *name_b,
                    locale: f.locale,
                    platform: f.platform,
                    place: Place::Fixed(*index),
                },
            })
            .chain([LISTFILE, ATTRIBUTES].map(|n| Entry::named(n, 0, 0)))
            .collect();
        let table = build_hash_table(size, &entries_in, &self.kept_slots)?;

        let attributes_len = 8 + entries * (4 + 8 + 16);
        let mut out = std::mem::take(&mut self.prefix);
        let start = out.len().div_ceil(ALIGN) * ALIGN;
        out.resize(start + 32, 0);
        report.archive_offset = start as u64;
        let mut blocks: Vec<[u32; 4]> = Vec::with_capacity(entries);
        let mut attrs = Attributes::new(entries);
        let datas = files
            .iter()
            .map(|f| (f.data.as_slice(), f.filetime.unwrap_or(0)))
            .chain([(listfile.as_slice(), 0)]);
        for (data, time) in datas {
            attrs.push(data, time);
            blocks.push(self.store(&mut out, start, data, &mut report)?);
        }
        let attributes = attrs.finish();
        debug_assert_eq!(attributes.len(), attributes_len);
        blocks.push(self.store(&mut out, start, &attributes, &mut report)?);

        // The tables, then the header pointing at them.
        let hash_pos = offset32(out.len() - start)?;
        append_table(&mut out, &table, "(hash table)");
        let block_pos = offset32(out.len() - start)?;
        append_table(&mut out, &blocks, "(block table)");
        let archive_size = offset32(out.len() - start)?;

        let mut header = Vec::with_capacity(32);
        header.extend_from_slice(b"MPQ\x1A");
        for w in [32, archive_size] {
            header.extend_from_slice(&u32::to_le_bytes(w));
        }
        header.extend_from_slice(&0u16.to_le_bytes());
        header.extend_from_slice(&self.sector_shift.to_le_bytes());
        for w in [hash_pos, block_pos, size, blocks.len() as u32] {
            header.extend_from_slice(&w.to_le_bytes());
        }
        out[start..start + 32].copy_from_slice(&header);
        report.hash_table_size = size;
        report.block_count = blocks.len() as u32;
        Ok((out, report))
    }

    /// Appends one file's stored bytes to `out`; returns its block entry.
    fn store(
        &self,
        out: &mut Vec<u8>,
        start: usize,
        data: &[u8],
        report: &mut WriteReport,
    ) -> Result<[u32; 4], WriteError> {
        let size = u32::try_from(data.len()).map_err(|_| WriteError::TooLarge)?;
        let offset = offset32(out.len() - start)?;
        let before = out.len();
        let flags = encode_file(out, data, 512usize << self.sector_shift, self.compression);
        let stored = offset32(out.len() - before)?;
        report.data_bytes += data.len() as u64;
        report.stored_bytes += u64::from(stored);
        Ok([offset, stored, size, flags])
    }
}

/// A position or size as the 32-bit field a version 1 archive has for it.
fn offset32(n: usize) -> Result<u32, WriteError> {
    u32::try_from(n).map_err(|_| WriteError::TooLarge)
}

/// Whether `name` is `special`, in any case and with either slash.
fn is_special(name: &str, special: &str) -> bool {
    name.eq_ignore_ascii_case(special)
}

/// Removes the input's special files (noting them in `report`) and checks the names.
fn drop_special(files: Vec<NewFile>, report: &mut WriteReport) -> Result<Vec<NewFile>, WriteError> {
    let specials = [LISTFILE, ATTRIBUTES, SIGNATURE]
        .map(|n| (n, hash(n, HashKind::NameA), hash(n, HashKind::NameB)));
    let mut kept = Vec::with_capacity(files.len());
    let mut seen = std::collections::HashSet::new();
    for f in files {
        let (a, b) = match &f.name {
            EntryName::Named(n) => {
                check_name(n)?;
                (hash(n, HashKind::NameA), hash(n, HashKind::NameB))
            }
            EntryName::Hashed { name_a, name_b, .. } => (*name_a, *name_b),
        };
        if let Some((special, ..)) = specials.iter().find(|s| s.1 == a && s.2 == b) {
            let named_special = match &f.name {
                EntryName::Named(n) => is_special(n, special),
                EntryName::Hashed { .. } => true,
            };
            if named_special {
                report.replaced.push(special.to_string());
                report.signature_dropped |= *special == SIGNATURE;
                continue;
            }
        }
        if matches!(f.name, EntryName::Named(_)) && !seen.insert((a, b, f.locale)) {
            let EntryName::Named(n) = &f.name else {
                unreachable!()
            };
            return Err(WriteError::DuplicateName(n.clone()));
        }
        kept.push(f);
    }
    // A named file may repeat an unnamed one's hash entry: that would be one file twice.
    for f in &kept {
        if let EntryName::Hashed { name_a, name_b, .. } = f.name {
            if seen.contains(&(name_a, name_b, f.locale)) {
                let dup = kept.iter().find_map(|g| match &g.name {
                    EntryName::Named(n)
                        if hash(n, HashKind::NameA) == name_a
                            && hash(n, HashKind::NameB) == name_b
                            && g.locale == f.locale =>
                    {
                        Some(n.clone())
                    }
                    _ => None,
                });
                return Err(WriteError::DuplicateName(dup.unwrap_or_default()));
            }
        }
    }
    Ok(kept)
}

/// Names the listfile cannot hold, or no reader could look up, are refused.
fn check_name(name: &str) -> Result<(), WriteError> {
    if name.is_empty() || name.chars().any(|c| c.is_control() || c == ';') {
        return Err(WriteError::BadName(name.to_string()));
    }
    Ok(())
}

/// The `(listfile)`: every named file once (whatever its locales), `\` as separator,
/// each line ended with CRLF. Not `/`, even for a name given so: StormLib (MPQ Editor,
/// `smpq`) opens a file by either name, but lists one its `(listfile)` writes with `/`
/// as `File%08u.xxx` (the CLI's `map_imports` test shows it).
fn make_listfile(files: &[NewFile]) -> Vec<u8> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for f in files {
        if let EntryName::Named(n) = &f.name {
            let name = n.replace('/', "\\");
            if seen.insert(name.to_ascii_uppercase()) {
                out.extend_from_slice(name.as_bytes());
                out.extend_from_slice(b"\r\n");
            }
        }
    }
    out
}

/// The hash table size: with unnamed files, the original size exactly; otherwise the next
/// power of two at least a third larger than the entries (lookups stay short), at least
/// `min` and 16.
fn table_size(min: u32, entries: usize, hashed: bool) -> Result<u32, WriteError> {
    if hashed {
        if min == 0 {
            return Err(WriteError::HashedNeedsTableSize);
        }
        if !min.is_power_of_two() {
            return Err(WriteError::BadHashTableSize(min));
        }
        if entries > min as usize {
            return Err(WriteError::TableFull { entries, size: min });
        }
        return Ok(min);
    }
    let want = (entries + entries.div_ceil(3)).max(16).max(min as usize);
    let size = u32::try_from(want)
        .ok()
        .and_then(u32::checked_next_power_of_two)
        .ok_or(WriteError::TooLarge)?;
    Ok(size)
}

/// Where a block's hash entry goes.
#[derive(Clone, Copy)]
enum Place {
    /// Searched for from this home slot (the name's offset hash), as the game looks.
    Probe(u32),
    /// Exactly at this index (a file whose name is unknown).
    Fixed(u32),
}

/// A block's hash entry before placement.
struct Entry {
    name_a: u32,
    name_b: u32,
    locale: u16,
    platform: u16,
    place: Place,
}

impl Entry {
    fn named(name: &str, locale: u16, platform: u16) -> Entry {
        Entry {
            name_a: hash(name, HashKind::NameA),
            name_b: hash(name, HashKind::NameB),
            locale,
            platform,
            place: Place::Probe(hash(name, HashKind::Offset)),
        }
    }
}

/// The hash table's words: name A, name B, locale | platform << 16, block index.
type Slot = [u32; 4];

/// Places every block (entry `i` is block `i`) in a table of `size`: the unknown names at
/// their own index first, then the named ones by linear probing from their home slot.
/// `kept` slots left without a file become deletion marks when there are unknown names.
fn build_hash_table(size: u32, entries: &[Entry], kept: &[u32]) -> Result<Vec<Slot>, WriteError> {
    let mut table = vec![[SLOT_EMPTY; 4]; size as usize];
    let word = |e: &Entry, block: usize| {
        [
            e.name_a,
            e.name_b,
            u32::from(e.locale) | u32::from(e.platform) << 16,
            block as u32,
        ]
    };
    let mut fixed = false;
    for (block, e) in entries.iter().enumerate() {
        let Place::Fixed(index) = e.place else {
            continue;
        };
        fixed = true;
        let slot = table
            .get_mut(index as usize)
            .ok_or(WriteError::HashedIndexOutOfRange { index, size })?;
        if slot[3] != SLOT_EMPTY {
            return Err(WriteError::HashedSlotTaken(index));
        }
        *slot = word(e, block);
    }
    if fixed {
        for &k in kept {
            let slot = table
                .get_mut(k as usize)
                .ok_or(WriteError::HashedIndexOutOfRange { index: k, size })?;
            if slot[3] == SLOT_EMPTY {
                slot[3] = SLOT_DELETED;
            }
        }
    }
    let mask = size - 1;
    for (block, e) in entries.iter().enumerate() {
        let Place::Probe(home) = e.place else {
            continue;
        };
        let free = (0..size)
            .map(|k| (home.wrapping_add(k) & mask) as usize)
            .find(|&s| table[s][3] == SLOT_EMPTY || table[s][3] == SLOT_DELETED);
        let Some(s) = free else {
            return Err(WriteError::TableFull {
                entries: entries.len(),
                size,
            });
        };
        table[s] = word(e, block);
    }
    Ok(table)
}

/// Appends a table of 16-byte entries, encrypted with the key of its name.
fn append_table(out: &mut Vec<u8>, rows: &[[u32; 4]], name: &str) {
    let mut raw: Vec<u8> = rows
        .iter()
        .flatten()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    encrypt(&mut raw, hash(name, HashKind::Key));
    out.extend_from_slice(&raw);
}

/// Appends a file's stored form to `out` and returns its block flags. Empty files and
/// files no sector of which compresses are stored plain (no sector offset table).
fn encode_file(out: &mut Vec<u8>, data: &[u8], sector: usize, compression: Compression) -> u32 {
    if data.is_empty() || compression == Compression::None {
        out.extend_from_slice(data);
        return FLAG_EXISTS;
    }
    let packed: Vec<Option<Vec<u8>>> = data.chunks(sector).map(compress_zlib).collect();
    if packed.iter().all(Option::is_none) {
        out.extend_from_slice(data);
        return FLAG_EXISTS;
    }
    let table_len = 4 * (packed.len() + 1);
    let mut offsets = Vec::with_capacity(packed.len() + 1);
    let mut at = table_len;
    offsets.push(at);
    for (p, raw) in packed.iter().zip(data.chunks(sector)) {
        at += p.as_ref().map_or(raw.len(), Vec::len);
        offsets.push(at);
    }
    for o in offsets {
        // A sector is at most its raw size and the file is under 4 GiB (checked by the
        // caller), so the offsets fit.
        out.extend_from_slice(&(o as u32).to_le_bytes());
    }
    for (p, raw) in packed.iter().zip(data.chunks(sector)) {
        out.extend_from_slice(p.as_deref().unwrap_or(raw));
    }
    FLAG_EXISTS | FLAG_COMPRESS
}

/// The `(attributes)` file being built: one CRC32, file time and MD5 per block; the last
/// block (the attributes themselves) gets zeros, as it cannot hold its own checksum.
struct Attributes {
    crcs: Vec<u32>,
    times: Vec<u64>,
    md5s: Vec<[u8; 16]>,
    entries: usize,
}

impl Attributes {
    fn new(entries: usize) -> Self {
        Attributes {
            crcs: Vec::with_capacity(entries),
            times: Vec::with_capacity(entries),
            md5s: Vec::with_capacity(entries),
            entries,
        }
    }

    fn push(&mut self, data: &[u8], time: u64) {
        self.crcs.push(crc32fast::hash(data));
        self.times.push(time);
        self.md5s.push(md5::compute(data).0);
    }

    fn finish(mut self) -> Vec<u8> {
        self.crcs.resize(self.entries, 0);
        self.times.resize(self.entries, 0);
        self.md5s.resize(self.entries, [0; 16]);
        let mut out = Vec::with_capacity(8 + self.entries * 28);
        out.extend_from_slice(&ATTRIBUTES_VERSION.to_le_bytes());
        out.extend_from_slice(&ATTRIBUTES_FLAGS.to_le_bytes());
        for c in &self.crcs {
            out.extend_from_slice(&c.to_le_bytes());
        }
        for t in &self.times {
            out.extend_from_slice(&t.to_le_bytes());
        }
        for m in &self.md5s {
            out.extend_from_slice(m);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: EntryName, locale: u16, data: &[u8]) -> NewFile {
        NewFile {
            name,
            locale,
            platform: 0,
            data: data.to_vec(),
            filetime: None,
        }
    }

    /// The documented rule: a power of two a third larger than the entries, at least 16
    /// and the asked minimum; with unnamed files, exactly the original size.
    #[test]
    fn table_sizes() {
        assert_eq!(table_size(0, 3, false), Ok(16));
        assert_eq!(table_size(0, 18, false), Ok(32)); // 18 + 6 = 24
        assert_eq!(table_size(0, 24, false), Ok(32)); // 24 + 8 = 32
        assert_eq!(table_size(0, 25, false), Ok(64)); // 25 + 9 = 34
        assert_eq!(table_size(100, 3, false), Ok(128));
        assert_eq!(table_size(64, 60, true), Ok(64));
        assert_eq!(
            table_size(48, 3, true),
            Err(WriteError::BadHashTableSize(48))
        );
    }

    /// Sectors that do not shrink are stored raw; a file none of whose sectors shrink is
    /// stored plain, without an offset table; the offset table starts with its own length.
    #[test]
    fn sectors() {
        let mut noise = Vec::new();
        let mut x: u32 = 0x1234_5678;
        for _ in 0..5000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            noise.push(x as u8);
        }
        let mut out = Vec::new();
        assert_eq!(
            encode_file(&mut out, &noise, 4096, Compression::Zlib),
            FLAG_EXISTS
        );
        assert_eq!(out, noise);

        let mut data = noise[..4096].to_vec();
        data.extend(std::iter::repeat_n(b'a', 4096));
        out.clear();
        let flags = encode_file(&mut out, &data, 4096, Compression::Zlib);
        assert_eq!(flags, FLAG_EXISTS | FLAG_COMPRESS);
        let word = |i: usize| u32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!(word(0), 12, "two sectors: three offsets");
        assert_eq!(word(1), 12 + 4096, "the noise sector is raw");
        assert_eq!(word(2) as usize, out.len());
        assert_eq!(&out[12..12 + 4096], &noise[..4096]);
        assert_eq!(out[12 + 4096], 0x02, "the zlib mask byte");

        out.clear();
        assert_eq!(
            encode_file(&mut out, &[], 4096, Compression::Zlib),
            FLAG_EXISTS
        );
        assert!(out.is_empty());
    }

    /// One line per name whatever its locales, `\` between folders, CRLF after each.
    #[test]
    fn listfile() {
        let files = [
            file(EntryName::Named("war3map.j".into()), 0, b"a"),
            file(EntryName::Named("a/b.mdx".into()), 0, b"b"),
            file(EntryName::Named("A\\B.MDX".into()), 0x409, b"c"),
            file(
                EntryName::Hashed {
                    index: 1,
                    name_a: 2,
                    name_b: 3,
                },
                0,
                b"d",
            ),
        ];
        assert_eq!(make_listfile(&files), b"war3map.j\r\na\\b.mdx\r\n");
    }

    /// A named file reaching an unnamed one's hash entry is the same file twice.
    #[test]
    fn named_and_hashed_duplicate() {
        let n = "war3map.w3e";
        let hashed = EntryName::Hashed {
            index: 2,
            name_a: hash(n, HashKind::NameA),
            name_b: hash(n, HashKind::NameB),
        };
        let mut w = ArchiveWriter::new();
        w.hash_table_size(16)
            .add(file(EntryName::Named(n.into()), 0, b"x"))
            .add(file(hashed, 0, b"y"));
        assert_eq!(w.write().unwrap_err(), WriteError::DuplicateName(n.into()));
    }

    /// A named file whose home slot an unnamed file holds probes on and takes the next
    /// kept slot (a deletion mark until then); the other kept slot stays a deletion mark.
    #[test]
    fn placement() {
        let name = "war3map.j";
        let home = hash(name, HashKind::Offset) & 15;
        let entries = [
            Entry {
                name_a: 1,
                name_b: 2,
                locale: 0,
                platform: 0,
                place: Place::Fixed(home),
            },
            Entry::named(name, 0, 0),
        ];
        let next = (home + 1) & 15;
        let table = build_hash_table(16, &entries, &[next, (home + 2) & 15]).unwrap();
        assert_eq!(table[home as usize], [1, 2, 0, 0]);
        let named = table[next as usize];
        assert_eq!(
            named[3], 1,
            "the named file takes the deleted slot after it"
        );
        assert_eq!(table[((home + 2) & 15) as usize][3], SLOT_DELETED);
        assert_eq!(table.iter().filter(|s| s[3] == SLOT_EMPTY).count(), 13);
    }
}
