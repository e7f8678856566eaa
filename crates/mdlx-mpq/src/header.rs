//! Where the archive starts in its file, and its header.
//!
//! A map starts with a 512-byte `HM3W` header, so the archive header is searched at every
//! 512-byte boundary, as the game does. Protected maps put garbage in fields the game never
//! reads, so only what a field's plausibility supports is believed:
//! - a header-size field outside the sizes the format defines (`0xFFFFFE20`, `"SPAZ"`)
//!   means the header is read as version 1, whatever its version field says;
//! - the fields of versions 2 to 4 are used only when the size field names that version's
//!   header and the positions they give lie inside the file;
//! - a `MPQ\x1b` user-data block is followed only when it leads to a real header; the
//!   SPAZZLER decoy leads nowhere, and the search goes on to the real header after it;
//! - the archive-size field is not used (a signed map's file is longer than it says).

use super::error::{MpqError, MpqErrorKind};
use super::source::Source;

const MAGIC_HEADER: &[u8; 4] = b"MPQ\x1a";
const MAGIC_USER: &[u8; 4] = b"MPQ\x1b";

/// The archive header, as this reader understood it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Where the archive starts in its file (table positions count from here).
    pub offset: u64,
    /// The format version believed: 0 for version 1 (Warcraft III, the classic layout) up
    /// to 3 for version 4.
    pub version: u16,
    /// The header-size field as stored (garbage in some protected maps).
    pub declared_size: u32,
    /// A sector is `512 << sector_shift` bytes.
    pub sector_shift: u16,
    /// The hash table's position, relative to `offset`.
    pub hash_pos: u64,
    /// The block table's position, relative to `offset`.
    pub block_pos: u64,
    /// Entries in the hash table, as declared.
    pub hash_count: u32,
    /// Entries in the block table, as declared.
    pub block_count: u32,
    /// The position of the high 16 bits of block positions (version 2+), 0 when none.
    pub hi_block_pos: u64,
    /// The HET table's position (version 3+), 0 when none.
    pub het_pos: u64,
    /// The BET table's position (version 3+), 0 when none.
    pub bet_pos: u64,
    /// Stored sizes of the tables (version 4; 0 when not given): hash, block, HET, BET.
    pub table_sizes: [u64; 4],
}

impl Header {
    /// The sector size in bytes.
    pub fn sector_size(&self) -> u64 {
        512u64 << self.sector_shift
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from(u32_at(b, at)) | u64::from(u32_at(b, at + 4)) << 32
}

/// Finds the archive in `src` and reads its header.
pub(crate) fn find(src: &Source) -> Result<Header, MpqError> {
    let len = src.len();
    let mut at = 0u64;
    while at + 32 <= len {
        let head = src.read_clipped(at, 208);
        if head.len() >= 32 && &head[..4] == MAGIC_HEADER {
            if let Some(h) = parse(&head, at, len) {
                return Ok(h);
            }
        } else if head.len() >= 16 && &head[..4] == MAGIC_USER {
            let target = at + u64::from(u32_at(&head, 8));
            if target != at && target + 32 <= len {
                let real = src.read_clipped(target, 208);
                if &real[..4] == MAGIC_HEADER {
                    if let Some(h) = parse(&real, target, len) {
                        return Ok(h);
                    }
                }
            }
        }
        at += 512;
    }
    Err(MpqError::new(MpqErrorKind::NoArchive))
}

/// Reads the header at `at` (`b` holds up to 208 bytes from there); `None` when its tables
/// cannot be where it says (a decoy).
fn parse(b: &[u8], at: u64, file_len: u64) -> Option<Header> {
    let declared_size = u32_at(b, 4);
    let version_field = u16_at(b, 12);
    let sector_shift = u16_at(b, 14);
    let mut h = Header {
        offset: at,
        version: 0,
        declared_size,
        sector_shift,
        hash_pos: u64::from(u32_at(b, 16)),
        block_pos: u64::from(u32_at(b, 20)),
        hash_count: u32_at(b, 24),
        block_count: u32_at(b, 28),
        hi_block_pos: 0,
        het_pos: 0,
        bet_pos: 0,
        table_sizes: [0; 4],
    };
    let room = file_len - at;
    let inside = |pos: u64| pos < room;
    // Version 2 and up, only when the size field names such a header and it fits.
    let sized = |n: u32| declared_size >= n && declared_size <= 0x1000 && b.len() >= n as usize;
    if version_field >= 1 && sized(44) {
        let hi_block = u64_at(b, 32);
        let hash_hi = u64::from(u16_at(b, 40));
        let block_hi = u64::from(u16_at(b, 42));
        let hash_pos = h.hash_pos | hash_hi << 32;
        let block_pos = h.block_pos | block_hi << 32;
        if (hi_block == 0 || inside(hi_block)) && inside(hash_pos) && inside(block_pos) {
            h.version = 1;
            h.hi_block_pos = hi_block;
            h.hash_pos = hash_pos;
            h.block_pos = block_pos;
            if version_field >= 2 && sized(68) {
                let (het, bet) = (u64_at(b, 52), u64_at(b, 60));
                if (het == 0 || inside(het)) && (bet == 0 || inside(bet)) {
                    h.version = 2;
                    h.het_pos = het;
                    h.bet_pos = bet;
                    if version_field >= 3 && sized(208) {
                        h.version = 3;
                        h.table_sizes =
                            [u64_at(b, 68), u64_at(b, 76), u64_at(b, 92), u64_at(b, 100)];
                    }
                }
            }
        }
    }
    // A header whose tables are all outside the file is a decoy, or nothing.
    let classic = h.hash_count > 0 && inside(h.hash_pos) && inside(h.block_pos);
    let het = h.het_pos != 0 && h.bet_pos != 0;
    if !classic && !het {
        return None;
    }
    if h.sector_shift > 23 {
        return None;
    }
    Some(h)
}
