//! The offset-carrying cursor every MDX record reads through.
//!
//! A `Reader` sees a window `[pos, end)` of the whole file, so every error can name an
//! absolute offset. A length-prefixed region is read through [`Reader::region`], a
//! sub-reader that cannot run past the region's end. Array reads check the count against
//! the bytes that remain *before* allocating, so hostile counts cannot exhaust memory.

use super::error::{MdxError, MdxErrorKind, MdxResult};
use crate::model::{FixedString, Tag};

/// A bounded little-endian cursor over part of an MDX file.
#[derive(Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    end: usize,
}

/// Runs `f`; if it fails, adds `segment` to the front of the error's path.
#[inline]
pub(crate) fn scoped<T>(
    segment: impl FnOnce() -> String,
    f: impl FnOnce() -> MdxResult<T>,
) -> MdxResult<T> {
    f().map_err(|e| e.within(segment()))
}

impl<'a> Reader<'a> {
    /// A reader over all of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Reader {
            data,
            pos: 0,
            end: data.len(),
        }
    }

    /// Absolute offset of the next byte.
    #[inline]
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Bytes left in this window.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.end - self.pos
    }

    /// True when the window is used up.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.pos >= self.end
    }

    /// An error of `kind` at the current offset.
    pub fn error(&self, kind: MdxErrorKind) -> MdxError {
        MdxError::new(kind, self.pos as u64)
    }

    /// An error of `kind` at absolute offset `at`.
    pub fn error_at(&self, kind: MdxErrorKind, at: usize) -> MdxError {
        MdxError::new(kind, at as u64)
    }

    /// Takes the next `n` bytes.
    #[inline]
    pub fn bytes(&mut self, n: usize) -> MdxResult<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.error(MdxErrorKind::UnexpectedEnd {
                need: n as u64,
                remain: self.remaining() as u64,
            }));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// Takes everything left in the window.
    pub fn rest(&mut self) -> &'a [u8] {
        let s = &self.data[self.pos..self.end];
        self.pos = self.end;
        s
    }

    #[inline]
    fn array<const N: usize>(&mut self) -> MdxResult<[u8; N]> {
        let b = self.bytes(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    /// Reads a `u8`.
    #[inline]
    pub fn u8(&mut self) -> MdxResult<u8> {
        Ok(self.array::<1>()?[0])
    }

    /// Reads a little-endian `u16`.
    #[inline]
    pub fn u16(&mut self) -> MdxResult<u16> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian `u32`.
    #[inline]
    pub fn u32(&mut self) -> MdxResult<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian `i32`.
    #[inline]
    pub fn i32(&mut self) -> MdxResult<i32> {
        Ok(i32::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian `f32` (bit pattern kept, NaN payloads included).
    #[inline]
    pub fn f32(&mut self) -> MdxResult<f32> {
        Ok(f32::from_bits(self.u32()?))
    }

    /// Reads `N` consecutive `f32`s.
    #[inline]
    pub fn f32s<const N: usize>(&mut self) -> MdxResult<[f32; N]> {
        let mut out = [0f32; N];
        for v in &mut out {
            *v = self.f32()?;
        }
        Ok(out)
    }

    /// Reads a four-byte tag.
    #[inline]
    pub fn tag(&mut self) -> MdxResult<Tag> {
        Ok(Tag(self.array()?))
    }

    /// The next chunk's head (tag and size) and a reader over its body. An error of the
    /// size names the chunk and the offset of its size field, after `cut` has had its say
    /// (given the size read: whether a size past the input means the file was cut off).
    pub fn chunk(
        &mut self,
        cut: impl FnOnce(u32, MdxError) -> MdxError,
    ) -> MdxResult<(Tag, Reader<'a>)> {
        let tag = self.tag()?;
        let at = self.offset();
        let size = self.u32()?;
        let body = self.region(size as usize).map_err(|e| {
            MdxError {
                offset: at as u64,
                ..cut(size, e)
            }
            .within(tag.text())
        })?;
        Ok((tag, body))
    }

    /// The next four bytes as a tag, without consuming them.
    #[inline]
    pub fn peek_tag(&self) -> Option<Tag> {
        if self.remaining() < 4 {
            return None;
        }
        let mut t = [0u8; 4];
        t.copy_from_slice(&self.data[self.pos..self.pos + 4]);
        Some(Tag(t))
    }

    /// Reads a tag and fails unless it is `expected`.
    pub fn expect_tag(&mut self, expected: Tag) -> MdxResult<()> {
        let at = self.pos;
        let found = self.tag()?;
        if found != expected {
            return Err(self.error_at(
                MdxErrorKind::ExpectedTag {
                    expected: expected.0,
                    found: found.0,
                },
                at,
            ));
        }
        Ok(())
    }

    /// Reads a NUL-padded string field of `n` bytes, keeping any bytes after the first NUL.
    pub fn fixed_str(&mut self, n: usize) -> MdxResult<FixedString> {
        Ok(FixedString::from_field(self.bytes(n)?))
    }

    /// Splits off the next `len` bytes as a sub-reader and skips them here.
    pub fn region(&mut self, len: usize) -> MdxResult<Reader<'a>> {
        if len > self.remaining() {
            return Err(self.error(MdxErrorKind::SizeOutOfRange {
                size: len as u64,
                remain: self.remaining() as u64,
                file_end: false,
            }));
        }
        let sub = Reader {
            data: self.data,
            pos: self.pos,
            end: self.pos + len,
        };
        self.pos += len;
        Ok(sub)
    }

    /// Reads an inclusive size (which counts its own four bytes) and returns the record's
    /// window, positioned just after the size field. `min` is the smallest valid size.
    pub fn inclusive_region(&mut self, min: usize) -> MdxResult<Reader<'a>> {
        let size = self.u32()? as usize;
        self.inclusive_rest(size, min)
    }

    /// [`Reader::inclusive_region`] of a size word whose top byte is not part of the size
    /// (a 1200+ camera's layout byte); returns the region and that byte.
    pub fn inclusive_region_24(&mut self, min: usize) -> MdxResult<(Reader<'a>, u8)> {
        let word = self.u32()?;
        let region = self.inclusive_rest((word & 0x00ff_ffff) as usize, min)?;
        Ok((region, (word >> 24) as u8))
    }

    /// The region of an inclusive `size` whose word was just read.
    fn inclusive_rest(&mut self, size: usize, min: usize) -> MdxResult<Reader<'a>> {
        let at = self.pos - 4;
        if size < min.max(4) {
            return Err(self.error_at(
                MdxErrorKind::SizeTooSmall {
                    size: size as u64,
                    min: min.max(4) as u64,
                },
                at,
            ));
        }
        if size - 4 > self.remaining() {
            return Err(self.error_at(
                MdxErrorKind::SizeOutOfRange {
                    size: size as u64,
                    remain: (self.remaining() + 4) as u64,
                    file_end: false,
                },
                at,
            ));
        }
        self.region(size - 4)
    }

    /// Checks that `count` elements of `each` bytes fit in what remains; returns the byte length.
    #[inline]
    pub fn check_count(&self, count: u32, each: usize) -> MdxResult<usize> {
        let need = count as u64 * each as u64;
        if need > self.remaining() as u64 {
            return Err(self.error(MdxErrorKind::CountTooLarge {
                count: count as u64,
                each: each as u64,
                remain: self.remaining() as u64,
            }));
        }
        Ok(need as usize)
    }

    /// Reads `count` elements of `N` little-endian `f32`s each.
    pub fn vec_f32<const N: usize>(&mut self, count: u32) -> MdxResult<Vec<[f32; N]>> {
        let len = self.check_count(count, 4 * N)?;
        let raw = self.bytes(len)?;
        Ok(raw
            .chunks_exact(4 * N)
            .map(|c| std::array::from_fn(|i| f32::from_le_bytes(le4(&c[4 * i..]))))
            .collect())
    }

    /// Reads `count` little-endian `u32`s.
    pub fn vec_u32(&mut self, count: u32) -> MdxResult<Vec<u32>> {
        let len = self.check_count(count, 4)?;
        let raw = self.bytes(len)?;
        Ok(raw
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(le4(c)))
            .collect())
    }

    /// Reads `count` little-endian `u16`s.
    pub fn vec_u16(&mut self, count: u32) -> MdxResult<Vec<u16>> {
        let len = self.check_count(count, 2)?;
        let raw = self.bytes(len)?;
        Ok(raw
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect())
    }

    /// Reads `count` bytes into a vector.
    pub fn vec_u8(&mut self, count: u32) -> MdxResult<Vec<u8>> {
        let len = self.check_count(count, 1)?;
        Ok(self.bytes(len)?.to_vec())
    }

    /// Reads a `u32` count followed by that many `N`-float elements.
    pub fn counted_f32<const N: usize>(&mut self) -> MdxResult<Vec<[f32; N]>> {
        let n = self.u32()?;
        self.vec_f32(n)
    }
}

#[inline(always)]
fn le4(c: &[u8]) -> [u8; 4] {
    [c[0], c[1], c[2], c[3]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_and_tracks_offset() {
        let data = [1, 0, 0, 0, 0, 0, 0x80, 0x3f, b'V', b'E'];
        let mut r = Reader::new(&data);
        assert_eq!(r.u32().unwrap(), 1);
        assert_eq!(r.f32().unwrap(), 1.0);
        assert_eq!(r.offset(), 8);
        let e = r.u32().unwrap_err();
        assert_eq!(e.offset, 8);
        assert_eq!(e.kind, MdxErrorKind::UnexpectedEnd { need: 4, remain: 2 });
    }

    #[test]
    fn huge_count_is_refused_before_allocating() {
        let data = [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0];
        let mut r = Reader::new(&data);
        let e = r.counted_f32::<3>().unwrap_err();
        assert_eq!(
            e.kind,
            MdxErrorKind::CountTooLarge {
                count: u32::MAX as u64,
                each: 12,
                remain: 4
            }
        );
        assert_eq!(e.offset, 4);
    }

    #[test]
    fn region_cannot_run_past_its_end() {
        let data = [0u8; 12];
        let mut r = Reader::new(&data);
        let mut sub = r.region(6).unwrap();
        assert_eq!(r.offset(), 6);
        sub.u32().unwrap();
        assert!(sub.u32().is_err());
        assert!(r.region(7).is_err());
    }

    #[test]
    fn inclusive_size_counts_itself() {
        let data = [8, 0, 0, 0, 7, 0, 0, 0, 9];
        let mut r = Reader::new(&data);
        let mut sub = r.inclusive_region(4).unwrap();
        assert_eq!(sub.u32().unwrap(), 7);
        assert!(sub.is_empty());
        assert_eq!(r.remaining(), 1);
    }
}
