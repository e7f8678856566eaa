//! Sparse (mask 0x20): runs of zeros. The stream is the decompressed size as 4
//! big-endian bytes, then chunks: a byte with the high bit set is followed by
//! `(b & 0x7F) + 1` literal bytes; any other byte stands for `(b & 0x7F) + 3` zeros.
//! Chunks are cut at the declared size (writers end with a long literal or zero run).

use super::CodecError;

/// Undoes sparse compression; the declared size must fit in `cap` and be filled.
pub(super) fn decompress(data: &[u8], cap: usize) -> Result<Vec<u8>, CodecError> {
    let err = |why: String| CodecError::corrupt("sparse", why);
    // StormLib refuses anything shorter than the size and one chunk byte.
    if data.len() < 5 {
        return Err(err(format!("{} bytes, too short", data.len())));
    }
    let size = u32::from_be_bytes([data[0], data[1], data[2], data[3]]) as usize;
    if size > cap {
        return Err(err(format!("declares {size} bytes where {cap} fit")));
    }
    let mut out = Vec::with_capacity(size);
    let mut rest = &data[4..];
    while let Some((&b, tail)) = rest.split_first() {
        let room = size - out.len();
        if b & 0x80 != 0 {
            let n = (usize::from(b & 0x7F) + 1).min(room);
            let Some(bytes) = tail.get(..n) else {
                return Err(err(format!(
                    "a literal run of {n} bytes where {} remain",
                    tail.len()
                )));
            };
            out.extend_from_slice(bytes);
            rest = &tail[n..];
        } else {
            let n = (usize::from(b) + 3).min(room);
            out.resize(out.len() + n, 0);
            rest = tail;
        }
    }
    if out.len() != size {
        return Err(err(format!(
            "chunks fill {} of the {size} bytes declared",
            out.len()
        )));
    }
    Ok(out)
}
