//! The hash table (names to blocks) and the block table (where each file is and how it is
//! stored), read the way the game reads them: clipped to the file when they claim more
//! entries than it holds (the SPAZZLER protector's oversized block table), decrypted, and
//! decompressed when a version 4 header says they are stored smaller.

use super::crypto::{self, HashKind};
use super::error::{MpqError, MpqErrorKind};
use super::header::Header;
use super::source::Source;

/// A hash table slot that has never held a file; a search stops here.
pub(crate) const EMPTY: u32 = 0xFFFF_FFFF;
/// A slot whose file was deleted; a search goes on past it.
pub(crate) const DELETED: u32 = 0xFFFF_FFFE;

/// One hash table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HashEntry {
    pub(crate) name_a: u32,
    pub(crate) name_b: u32,
    pub(crate) locale: u16,
    pub(crate) platform: u16,
    pub(crate) block: u32,
}

/// One block table entry: the file's position (relative to the archive's start), its
/// stored and real sizes, and its flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    pub(crate) pos: u64,
    pub(crate) csize: u64,
    pub(crate) size: u64,
    pub(crate) flags: u32,
}

/// Block flags.
pub(crate) mod flags {
    pub(crate) const IMPLODE: u32 = 0x0000_0100;
    pub(crate) const COMPRESS: u32 = 0x0000_0200;
    pub(crate) const ENCRYPTED: u32 = 0x0001_0000;
    pub(crate) const FIX_KEY: u32 = 0x0002_0000;
    pub(crate) const PATCH_FILE: u32 = 0x0010_0000;
    pub(crate) const SINGLE_UNIT: u32 = 0x0100_0000;
    pub(crate) const DELETE_MARKER: u32 = 0x0200_0000;
    pub(crate) const SECTOR_CRC: u32 = 0x0400_0000;
    pub(crate) const EXISTS: u32 = 0x8000_0000;
}

fn u32s(b: &[u8]) -> impl Iterator<Item = u32> + '_ {
    b.chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
}

/// Reads an encrypted table of `count` 16-byte entries at `pos` (relative to the archive),
/// clipped to the file; `stored` is the version 4 stored size (0 when not given).
fn read_table(
    src: &Source,
    h: &Header,
    pos: u64,
    count: u32,
    stored: u64,
    key_name: &str,
) -> Result<Vec<u8>, MpqError> {
    let at = h.offset + pos;
    let full = u64::from(count) * 16;
    let key = crypto::hash(key_name, HashKind::Key);
    if stored != 0 && stored < full {
        let mut raw = src
            .read_at(at, stored, || key_name.to_string())?
            .into_owned();
        crypto::decrypt(&mut raw, key);
        return super::compress::decompress(&raw, full as usize).map_err(|e| {
            MpqError::at(
                MpqErrorKind::Codec {
                    sector: 0,
                    why: e.to_string(),
                },
                at,
            )
            .in_file(|| key_name.to_string())
        });
    }
    let mut raw = src.read_clipped(at, full).into_owned();
    raw.truncate(raw.len() / 16 * 16);
    crypto::decrypt(&mut raw, key);
    Ok(raw)
}

/// The hash table, clipped to the file.
pub(crate) fn hash_table(src: &Source, h: &Header) -> Result<Vec<HashEntry>, MpqError> {
    if h.hash_count == 0 {
        return Ok(Vec::new());
    }
    let raw = read_table(
        src,
        h,
        h.hash_pos,
        h.hash_count,
        h.table_sizes[0],
        "(hash table)",
    )?;
    let words: Vec<u32> = u32s(&raw).collect();
    Ok(words
        .chunks_exact(4)
        .map(|w| HashEntry {
            name_a: w[0],
            name_b: w[1],
            locale: (w[2] & 0xFFFF) as u16,
            platform: (w[2] >> 16) as u16,
            block: w[3],
        })
        .collect())
}

/// The block table, clipped to the file, with the high bits of positions applied.
pub(crate) fn block_table(src: &Source, h: &Header) -> Result<Vec<Block>, MpqError> {
    if h.block_count == 0 {
        return Ok(Vec::new());
    }
    let raw = read_table(
        src,
        h,
        h.block_pos,
        h.block_count,
        h.table_sizes[1],
        "(block table)",
    )?;
    let words: Vec<u32> = u32s(&raw).collect();
    let mut blocks: Vec<Block> = words
        .chunks_exact(4)
        .map(|w| Block {
            pos: u64::from(w[0]),
            csize: u64::from(w[1]),
            size: u64::from(w[2]),
            flags: w[3],
        })
        .collect();
    if h.hi_block_pos != 0 {
        let hi = src.read_clipped(h.offset + h.hi_block_pos, blocks.len() as u64 * 2);
        for (b, w) in blocks.iter_mut().zip(hi.chunks_exact(2)) {
            b.pos |= u64::from(u16::from_le_bytes([w[0], w[1]])) << 32;
        }
    }
    Ok(blocks)
}

/// The slot index where the search for a name with this offset hash starts.
pub(crate) fn start_slot(offset_hash: u32, slots: usize) -> usize {
    if slots.is_power_of_two() {
        offset_hash as usize & (slots - 1)
    } else {
        offset_hash as usize % slots.max(1)
    }
}

/// The hash table slots that hold `name`, searched as the game searches: from the name's
/// start slot onward until an empty slot, at most once around the table.
pub(crate) fn find<'t>(table: &'t [HashEntry], name: &[u8]) -> impl Iterator<Item = usize> + 't {
    let a = crypto::hash_bytes(name, HashKind::NameA);
    let b = crypto::hash_bytes(name, HashKind::NameB);
    let n = table.len();
    let start = if n == 0 {
        0
    } else {
        start_slot(crypto::hash_bytes(name, HashKind::Offset), n)
    };
    (0..n)
        .map(move |i| (start + i) % n)
        .take_while(move |&i| table[i].block != EMPTY)
        .filter(move |&i| table[i].name_a == a && table[i].name_b == b && table[i].block != DELETED)
}
