//! Reading one file's bytes: single-unit or in sectors, each sector decrypted and
//! decompressed on its own. Nothing is returned unless every byte was decoded: a sector
//! that will not decompress, or data past the end of the archive, is an error naming the
//! sector and its offset.

use super::compress;
use super::crypto;
use super::error::{MpqError, MpqErrorKind};
use super::header::Header;
use super::source::Source;
use super::tables::{flags, Block};
use std::borrow::Cow;

/// How a file's key is known.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Key<'a> {
    /// Not encrypted.
    None,
    /// From the file's name.
    Name(&'a [u8]),
    /// Unknown: recover it from the sector offset table if the layout allows.
    Unknown,
}

fn codec_err(sector: u32, at: u64, e: compress::CodecError) -> MpqError {
    MpqError::at(
        MpqErrorKind::Codec {
            sector,
            why: e.to_string(),
        },
        at,
    )
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

/// Reads the file of `block`, at most `limit` bytes long.
pub(crate) fn read(
    src: &Source,
    h: &Header,
    block: &Block,
    key: Key<'_>,
    limit: u64,
) -> Result<Vec<u8>, MpqError> {
    let at = h.offset + block.pos;
    if block.size > limit {
        return Err(MpqError::invalid(
            format!(
                "its size (0x{:x} bytes) is over the limit of 0x{limit:x} bytes",
                block.size
            ),
            at,
        ));
    }
    if block.flags & flags::PATCH_FILE != 0 {
        return Err(MpqError::invalid(
            "a patch file (incremental patches are not applied by this reader)",
            at,
        ));
    }
    if block.size == 0 {
        return Ok(Vec::new());
    }
    let encrypted = block.flags & flags::ENCRYPTED != 0;
    let fix = block.flags & flags::FIX_KEY != 0;
    let mut file_key = match (encrypted, key) {
        (false, _) | (true, Key::None) => None,
        (true, Key::Name(name)) => Some(crypto::file_key(
            name,
            block.pos as u32,
            block.size as u32,
            fix,
        )),
        (true, Key::Unknown) => None,
    };
    let compressed = block.flags & (flags::COMPRESS | flags::IMPLODE) != 0;
    if block.flags & flags::SINGLE_UNIT != 0 {
        if encrypted && file_key.is_none() {
            return Err(MpqError::at(MpqErrorKind::NoKey, at));
        }
        return single_unit(src, block, at, file_key);
    }
    let sector = h.sector_size();
    let count = block.size.div_ceil(sector);
    if !compressed {
        if encrypted && file_key.is_none() {
            return Err(MpqError::at(MpqErrorKind::NoKey, at));
        }
        let data = src.read_at(at, block.size, || "the file's data".into())?;
        let mut out = data.into_owned();
        if let Some(key) = file_key {
            for (i, s) in out.chunks_mut(sector as usize).enumerate() {
                crypto::decrypt(s, key.wrapping_add(i as u32));
            }
        }
        return Ok(out);
    }
    let crc = u64::from(block.flags & flags::SECTOR_CRC != 0);
    let table_len = (count + 1 + crc) * 4;
    let raw = src.read_at(at, table_len, || "sector offset table".into())?;
    let mut table = raw.into_owned();
    if encrypted {
        let key = match file_key {
            Some(k) => k,
            None => {
                let w = words(&table[..8.min(table.len())]);
                if w.len() < 2 {
                    return Err(MpqError::at(MpqErrorKind::NoKey, at));
                }
                let k =
                    crypto::key_from_known_word(w[0], w[1], table_len as u32, sector as u32 + 64)
                        .ok_or_else(|| MpqError::at(MpqErrorKind::NoKey, at))?;
                file_key = Some(k.wrapping_add(1));
                k.wrapping_add(1)
            }
        };
        crypto::decrypt(&mut table, key.wrapping_sub(1));
    }
    let offsets = words(&table);
    // The sectors lie one after the other: read at once when the table says they fit in
    // the stored size (one read, not one per sector), else each on its own (and an error
    // names the sector that runs past the end).
    let last = u64::from(offsets[count as usize]);
    let span = (offsets.windows(2).all(|w| w[0] <= w[1]) && last <= block.csize)
        .then(|| src.read_at(at, last, String::new).ok())
        .flatten();
    let mut out = Vec::with_capacity(block.size.min(64 << 20) as usize);
    for i in 0..count {
        let (start, end) = (
            u64::from(offsets[i as usize]),
            u64::from(offsets[i as usize + 1]),
        );
        let sat = at + start;
        if end < start {
            return Err(MpqError::invalid(
                format!("sector {i} ends (0x{end:x}) before it starts (0x{start:x})"),
                at,
            ));
        }
        let want = sector.min(block.size - i * sector) as usize;
        let mut data = match &span {
            Some(all) => Cow::Borrowed(&all[start as usize..end as usize]),
            None => src.read_at(sat, end - start, || format!("sector {i}"))?,
        };
        if let Some(key) = file_key {
            crypto::decrypt(data.to_mut(), key.wrapping_add(i as u32));
        }
        if data.len() == want {
            out.extend_from_slice(&data);
        } else if data.len() > want {
            return Err(MpqError::invalid(
                format!(
                    "sector {i} holds 0x{:x} bytes, more than its 0x{want:x}",
                    data.len()
                ),
                sat,
            ));
        } else {
            let plain = if block.flags & flags::IMPLODE != 0 {
                compress::explode(&data, want)
            } else {
                compress::decompress(&data, want)
            }
            .map_err(|e| codec_err(i as u32, sat, e))?;
            out.extend_from_slice(&plain);
        }
    }
    Ok(out)
}

fn single_unit(
    src: &Source,
    block: &Block,
    at: u64,
    key: Option<u32>,
) -> Result<Vec<u8>, MpqError> {
    let data = src.read_at(at, block.csize, || "the file's data".into())?;
    let mut data = data.into_owned();
    if let Some(key) = key {
        crypto::decrypt(&mut data, key);
    }
    let want = block.size as usize;
    let compressed = block.flags & (flags::COMPRESS | flags::IMPLODE) != 0;
    if !compressed || data.len() >= want {
        if data.len() < want {
            return Err(MpqError::invalid(
                format!(
                    "stored in 0x{:x} bytes, fewer than its size 0x{want:x}",
                    data.len()
                ),
                at,
            ));
        }
        data.truncate(want);
        return Ok(data);
    }
    if block.flags & flags::IMPLODE != 0 {
        compress::explode(&data, want)
    } else {
        compress::decompress(&data, want)
    }
    .map_err(|e| codec_err(0, at, e))
}
