//! The compressions of MPQ sectors. A compressed sector starts with a mask byte naming
//! the methods applied; they are undone in the fixed order the format sets.

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

/// Decompresses one sector stored with the COMPRESS flag: `data[0]` is the mask. The
/// result is exactly `out_len` bytes, or an error; never more than `out_len` bytes are
/// allocated.
pub(crate) fn decompress(data: &[u8], out_len: usize) -> Result<Vec<u8>, CodecError> {
    let Some((&mask, rest)) = data.split_first() else {
        return Err(CodecError::Corrupt {
            method: "mask",
            why: "empty sector".into(),
        });
    };
    match mask {
        0x02 => zlib(rest, out_len),
        m => Err(CodecError::Unsupported(m)),
    }
}

/// Undoes PKWare DCL on a sector of a file stored with the IMPLODE flag (no mask byte).
pub(crate) fn explode(_data: &[u8], _out_len: usize) -> Result<Vec<u8>, CodecError> {
    Err(CodecError::Unsupported(0x08))
}

fn zlib(data: &[u8], out_len: usize) -> Result<Vec<u8>, CodecError> {
    use std::io::Read;
    let mut out = Vec::with_capacity(out_len);
    let mut dec = flate2::read::ZlibDecoder::new(data).take(out_len as u64 + 1);
    dec.read_to_end(&mut out).map_err(|e| CodecError::Corrupt {
        method: "zlib",
        why: e.to_string(),
    })?;
    if out.len() != out_len {
        return Err(CodecError::Length {
            expected: out_len,
            got: out.len(),
        });
    }
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
