//! The compressions of MPQ sectors. A compressed sector starts with a mask byte naming
//! the methods applied; they are undone in the fixed order the format sets.
//!
//! Writers apply the methods in this order: sparse (0x20), IMA ADPCM (0x40 mono, 0x80
//! stereo), Huffman (0x01), zlib (0x02), PKWare DCL (0x08), bzip2 (0x10); a method that
//! would not shrink its input is left out of the mask. Reading undoes them backwards:
//! bzip2, PKWare, zlib, Huffman, ADPCM stereo, ADPCM mono, sparse. LZMA (0x12) is never
//! combined with another method (its mask would otherwise read as bzip2 + zlib).
//! PKWare DCL explode, Huffman, ADPCM and sparse are ours; zlib is zlib-rs (flate2 writes),
//! bzip2 the `bzip2` crate (its pure-Rust libbzip2 port), LZMA `lzma-rs`. Explode is
//! small and had to match StormLib at the stream's end, so it is written here.
//!
//! Every stage writes at most `out_len` bytes (what the file's size implies for the
//! sector); the last one must write exactly that many. A stage that writes nothing is an
//! error, as in StormLib.

mod adpcm;
mod explode;
mod huffman;
mod sparse;
#[cfg(test)]
mod stormlib;
#[cfg(test)]
mod tests;

/// Why a sector could not be decompressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CodecError {
    /// A method (mask bit) this reader does not know.
    Unsupported(u8),
    /// The method's stream is corrupt or ends early; `why` says how.
    Corrupt {
        /// The method, e.g. "zlib".
        method: &'static str,
        /// What was wrong.
        why: String,
    },
    /// The sector decompressed to a length other than the one the file's size implies.
    Length {
        /// Bytes expected.
        expected: usize,
        /// Bytes produced.
        got: usize,
    },
}

impl CodecError {
    /// A [`CodecError::Corrupt`] of `method`.
    pub(crate) fn corrupt(method: &'static str, why: impl Into<String>) -> Self {
        CodecError::Corrupt {
            method,
            why: why.into(),
        }
    }
}

impl std::fmt::Display for CodecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodecError::Unsupported(m) => write!(f, "unknown compression mask 0x{m:02x}"),
            CodecError::Corrupt { method, why } => write!(f, "{method} data corrupt: {why}"),
            CodecError::Length { expected, got } => {
                write!(
                    f,
                    "decompressed to {got} bytes where {expected} were expected"
                )
            }
        }
    }
}

/// Mask bits.
const HUFFMAN: u8 = 0x01;
const ZLIB: u8 = 0x02;
const PKWARE: u8 = 0x08;
const BZIP2: u8 = 0x10;
const LZMA: u8 = 0x12;
const SPARSE: u8 = 0x20;
const ADPCM_MONO: u8 = 0x40;
const ADPCM_STEREO: u8 = 0x80;

/// One decompression stage: input, cap on the output, output.
type Stage = fn(&[u8], usize) -> Result<Vec<u8>, CodecError>;

/// The stages in reading order (the reverse of the order writers apply them).
const STAGES: [(u8, Stage); 7] = [
    (BZIP2, bzip2),
    (PKWARE, explode::explode),
    (ZLIB, zlib),
    (HUFFMAN, huffman::decompress),
    (ADPCM_STEREO, adpcm::decompress_stereo),
    (ADPCM_MONO, adpcm::decompress_mono),
    (SPARSE, sparse::decompress),
];

/// Decompresses one sector stored with the COMPRESS flag: `data[0]` is the mask. The
/// result is exactly `out_len` bytes, or an error; never more than `out_len` bytes are
/// allocated.
///
/// As in StormLib, a sector exactly `out_len` bytes long is stored as it is (compression
/// did not pay), and one longer than `out_len` is an error.
pub(crate) fn decompress(data: &[u8], out_len: usize) -> Result<Vec<u8>, CodecError> {
    if data.len() == out_len {
        return Ok(data.to_vec());
    }
    if data.len() > out_len {
        return Err(CodecError::corrupt(
            "sector",
            format!("{} bytes stored for {out_len} bytes of data", data.len()),
        ));
    }
    let Some((&mask, rest)) = data.split_first() else {
        return Err(CodecError::corrupt("mask", "empty sector"));
    };
    if mask == LZMA {
        return exact(lzma(rest, out_len)?, out_len);
    }
    let known = STAGES.iter().fold(0u8, |m, (bit, _)| m | bit);
    if mask == 0 || mask & !known != 0 {
        return Err(CodecError::Unsupported(mask));
    }
    let mut current: Option<Vec<u8>> = None;
    for (bit, stage) in STAGES {
        if mask & bit == 0 {
            continue;
        }
        let input = current.as_deref().unwrap_or(rest);
        let out = stage(input, out_len)?;
        if out.is_empty() {
            return Err(CodecError::Length {
                expected: out_len,
                got: 0,
            });
        }
        current = Some(out);
    }
    let mut out = current.unwrap_or_default();
    // ADPCM holds whole 16-bit samples, so the odd last byte of a file's last sector is
    // lost when it is written; StormLib leaves that byte 0, and so do we.
    if mask & (ADPCM_MONO | ADPCM_STEREO) != 0 && out_len % 2 == 1 && out.len() + 1 == out_len {
        out.push(0);
    }
    exact(out, out_len)
}

/// Undoes PKWare DCL on a sector of a file stored with the IMPLODE flag (no mask byte).
/// A sector exactly `out_len` bytes long is stored as it is, as in StormLib.
pub(crate) fn explode(data: &[u8], out_len: usize) -> Result<Vec<u8>, CodecError> {
    if data.len() == out_len {
        return Ok(data.to_vec());
    }
    exact(explode::explode(data, out_len)?, out_len)
}

/// `out` if it is `out_len` bytes long, else the length error.
fn exact(out: Vec<u8>, out_len: usize) -> Result<Vec<u8>, CodecError> {
    if out.len() == out_len {
        Ok(out)
    } else {
        Err(CodecError::Length {
            expected: out_len,
            got: out.len(),
        })
    }
}

/// zlib (mask 0x02): the hot path of map extraction, so the deflate stream is inflated
/// straight into one buffer by zlib-rs (zlib-ng's design in Rust), its state kept per
/// thread.
///
/// The deflate stream must reach its end and the 4 bytes of its Adler-32 must follow: data
/// cut short is an error even when it already gave `out_len` bytes (StormLib refuses such
/// a file too: `buildtest.w3x`'s `war3map.j` lacks the checksum's last byte). The
/// checksum's value is not compared: real maps hold encrypted sectors whose last 1-3 bytes
/// (left unencrypted by the format) do not match it, and StormLib reads them
/// (`in.w3x`'s `(listfile)`). A stream that would give more than `out_len` bytes is an
/// error; one that gives fewer is left to the caller (zlib is not always the last stage:
/// sparse follows it in mask 0x22).
fn zlib(data: &[u8], out_len: usize) -> Result<Vec<u8>, CodecError> {
    let header_ok = data.len() >= 2
        && data[0] & 0x0F == 8
        && data[0] >> 4 <= 7
        && (u16::from(data[0]) << 8 | u16::from(data[1])) % 31 == 0
        && data[1] & 0x20 == 0;
    if !header_ok {
        return Err(CodecError::corrupt("zlib", "no zlib header"));
    }
    let body = &data[2..];
    // One byte more than needed: a stream that would give more is told apart.
    let mut out = vec![0u8; out_len + 1];
    // One inflate state per thread, reset for each sector: a map holds thousands of
    // sectors, and making a state (its window and tables) for each was a fifth of
    // extraction.
    thread_local! {
        static STATE: std::cell::RefCell<zlib_rs::Inflate> =
            std::cell::RefCell::new(zlib_rs::Inflate::new(false, 15));
    }
    let (result, read, written) = STATE.with_borrow_mut(|state| {
        state.reset(false);
        let r = state.decompress(body, &mut out, zlib_rs::InflateFlush::Finish);
        (r, state.total_in() as usize, state.total_out() as usize)
    });
    match result {
        Ok(zlib_rs::Status::StreamEnd) if written <= out_len => {
            let left = body.len() - read;
            if left < 4 {
                return Err(CodecError::corrupt(
                    "zlib",
                    format!(
                        "the stream is cut short: {left} of the 4 bytes of its checksum are there"
                    ),
                ));
            }
            out.truncate(written);
            Ok(out)
        }
        Ok(_) if written > out_len => Err(CodecError::Length {
            expected: out_len,
            got: written,
        }),
        Ok(zlib_rs::Status::StreamEnd) => Err(CodecError::Length {
            expected: out_len,
            got: written,
        }),
        Ok(_) => Err(CodecError::corrupt(
            "zlib",
            format!("the stream is cut short, after {written} bytes"),
        )),
        Err(e) => Err(CodecError::corrupt(
            "zlib",
            format!("{} after {written} bytes", e.as_str()),
        )),
    }
}

/// bzip2 (mask 0x10), through the pure-Rust libbzip2 port.
fn bzip2(data: &[u8], out_len: usize) -> Result<Vec<u8>, CodecError> {
    use bzip2::{Decompress, Status};
    let mut out = Vec::with_capacity(out_len);
    let mut dec = Decompress::new(false);
    loop {
        let consumed = dec.total_in() as usize;
        let before = out.len();
        let status = dec
            .decompress_vec(data.get(consumed..).unwrap_or_default(), &mut out)
            .map_err(|e| CodecError::corrupt("bzip2", e.to_string()))?;
        match status {
            Status::StreamEnd => return Ok(out),
            _ if out.len() >= out_len => return Ok(out),
            _ if out.len() == before && dec.total_in() as usize == consumed => {
                return Err(CodecError::corrupt(
                    "bzip2",
                    format!("stream ends early, after {} bytes", out.len()),
                ));
            }
            _ => {}
        }
    }
}

/// LZMA (mask 0x12). After the mask, as Blizzard's readers (and StormLib's decoder) take
/// it: a filter byte (0: none, the only kind MPQ allows), the five LZMA property bytes,
/// the unpacked size as 8 little-endian bytes, then the raw stream from byte 14 (no end
/// marker); `out_len` is used for the size. StormLib's writer (9.22 and later) copies
/// the properties over the filter byte instead (bytes 0..5, byte 5 left as it was): a
/// nonzero first byte is read that way, so its archives open too (StormLib's own reader
/// rejects them).
fn lzma(data: &[u8], out_len: usize) -> Result<Vec<u8>, CodecError> {
    use lzma_rs::decompress::{Options, UnpackedSize};
    use std::io::Read;
    const HEADER: usize = 1 + 5 + 8;
    if data.len() <= HEADER {
        return Err(CodecError::corrupt("lzma", "shorter than its header"));
    }
    let props = if data[0] == 0 {
        &data[1..6]
    } else {
        &data[0..5]
    };
    let options = Options {
        unpacked_size: UnpackedSize::UseProvided(Some(out_len as u64)),
        // The dictionary grows as it is written, so this bounds it by the output.
        memlimit: Some(out_len.max(1)),
        allow_incomplete: false,
    };
    let mut out = Vec::with_capacity(out_len);
    let mut input = props.chain(&data[HEADER..]);
    lzma_rs::lzma_decompress_with_options(&mut input, &mut out, &options)
        .map_err(|e| CodecError::corrupt("lzma", e.to_string()))?;
    Ok(out)
}

/// Compresses a sector with zlib, mask byte first; `None` when that would not make it
/// smaller (the sector is then stored as it is).
pub(crate) fn compress_zlib(data: &[u8]) -> Option<Vec<u8>> {
    use std::io::Write;
    let mut enc = flate2::write::ZlibEncoder::new(vec![0x02], flate2::Compression::new(9));
    enc.write_all(data).ok()?;
    let out = enc.finish().ok()?;
    (out.len() < data.len()).then_some(out)
}
