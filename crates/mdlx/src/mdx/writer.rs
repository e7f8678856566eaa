//! The MDX byte sink. Sizes are never stored in the model: the writer reserves four bytes,
//! writes the content, then back-patches the size.

use super::error::{MdxError, MdxErrorKind, MdxResult};
use crate::model::{FixedString, Tag};

/// A growable little-endian output buffer with back-patched sizes.
#[derive(Default)]
pub struct Writer {
    buf: Vec<u8>,
}

/// A reserved size field, to be filled by [`Writer::end_size`].
#[must_use]
pub struct SizeMark {
    at: usize,
    inclusive: bool,
}

impl Writer {
    /// A writer with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        Writer {
            buf: Vec::with_capacity(capacity),
        }
    }

    /// The bytes written so far.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// True when nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Appends raw bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// Appends a `u8`.
    #[inline]
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// Appends a little-endian `u16`.
    #[inline]
    pub fn u16(&mut self, v: u16) {
        self.bytes(&v.to_le_bytes());
    }

    /// Appends a little-endian `u32`.
    #[inline]
    pub fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }

    /// Appends a little-endian `i32`.
    #[inline]
    pub fn i32(&mut self, v: i32) {
        self.bytes(&v.to_le_bytes());
    }

    /// Appends an `f32` bit for bit.
    #[inline]
    pub fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }

    /// Appends `N` floats.
    #[inline]
    pub fn f32s<const N: usize>(&mut self, v: &[f32; N]) {
        self.fill(v.iter().map(|x| x.to_bits().to_le_bytes()));
    }

    /// Appends values of `W` bytes each: the buffer grows once, then each value is stored
    /// in place (a loop the compiler turns into plain stores, where pushing value by value
    /// checks the capacity every time).
    #[inline]
    fn fill<const W: usize>(&mut self, values: impl ExactSizeIterator<Item = [u8; W]>) {
        let start = self.buf.len();
        self.buf.resize(start + values.len() * W, 0);
        for (dst, b) in self.buf[start..].chunks_exact_mut(W).zip(values) {
            dst.copy_from_slice(&b);
        }
    }

    /// Appends a tag.
    #[inline]
    pub fn tag(&mut self, t: Tag) {
        self.bytes(&t.0);
    }

    /// Appends a fixed-length NUL-padded string field of `n` bytes.
    pub fn fixed_str(&mut self, s: &FixedString, n: usize, what: &str) -> MdxResult<()> {
        let b = s.as_bytes();
        if b.len() > n {
            return Err(MdxError::new(
                MdxErrorKind::Unwritable(format!(
                    "{what} is {} bytes long; the field holds {n}",
                    b.len()
                )),
                self.buf.len() as u64,
            ));
        }
        self.bytes(b);
        self.buf.resize(self.buf.len() + n - b.len(), 0);
        Ok(())
    }

    /// Appends a slice of `N`-float elements.
    pub fn vec_f32<const N: usize>(&mut self, v: &[[f32; N]]) {
        self.fill(v.as_flattened().iter().map(|x| x.to_bits().to_le_bytes()));
    }

    /// Appends a slice of `u32`s.
    pub fn vec_u32(&mut self, v: &[u32]) {
        self.fill(v.iter().map(|x| x.to_le_bytes()));
    }

    /// Appends a slice of `u16`s.
    pub fn vec_u16(&mut self, v: &[u16]) {
        self.fill(v.iter().map(|x| x.to_le_bytes()));
    }

    /// Appends a slice of `u16`s as one byte each (the caller has checked they fit).
    pub fn vec_u16_as_u8(&mut self, v: &[u16]) {
        self.fill(v.iter().map(|&x| [x as u8]));
    }

    /// Appends a count (checked to fit in 32 bits) .
    pub fn count(&mut self, n: usize) -> MdxResult<()> {
        let n = u32::try_from(n).map_err(|_| {
            MdxError::new(
                MdxErrorKind::Unwritable(format!("count {n} does not fit in 32 bits")),
                self.buf.len() as u64,
            )
        })?;
        self.u32(n);
        Ok(())
    }

    /// Reserves a size field. An inclusive size counts its own four bytes.
    pub fn begin_size(&mut self, inclusive: bool) -> SizeMark {
        let at = self.buf.len();
        self.u32(0);
        SizeMark { at, inclusive }
    }

    /// Fills a reserved size field with the number of bytes written since.
    pub fn end_size(&mut self, mark: SizeMark) -> MdxResult<()> {
        let mut size = self.buf.len() - mark.at - 4;
        if mark.inclusive {
            size += 4;
        }
        let size = u32::try_from(size).map_err(|_| {
            MdxError::new(
                MdxErrorKind::Unwritable(format!("a record of {size} bytes exceeds 4 GiB")),
                mark.at as u64,
            )
        })?;
        self.buf[mark.at..mark.at + 4].copy_from_slice(&size.to_le_bytes());
        Ok(())
    }

    /// [`Writer::end_size`] of a size word whose top byte is `top` (a 1200+ camera's layout
    /// byte): the size must fit the other 24 bits.
    pub fn end_size_24(&mut self, mark: SizeMark, top: u8) -> MdxResult<()> {
        let at = mark.at;
        self.end_size(mark)?;
        let word = &mut self.buf[at..at + 4];
        if word[3] != 0 {
            let size = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
            return Err(MdxError::new(
                MdxErrorKind::Unwritable(format!(
                    "a camera of {size} bytes exceeds the 16 MiB its size word holds"
                )),
                at as u64,
            ));
        }
        word[3] = top;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_back_patched() {
        let mut w = Writer::default();
        let outer = w.begin_size(false);
        let inner = w.begin_size(true);
        w.u32(7);
        w.end_size(inner).unwrap();
        w.end_size(outer).unwrap();
        assert_eq!(w.into_bytes(), [8, 0, 0, 0, 8, 0, 0, 0, 7, 0, 0, 0]);
    }

    #[test]
    fn fixed_strings_are_padded_and_checked() {
        let mut w = Writer::default();
        w.fixed_str(&FixedString::from("ab"), 4, "name").unwrap();
        assert_eq!(w.into_bytes(), b"ab\0\0");
        let mut w = Writer::default();
        assert!(w.fixed_str(&FixedString::from("abcde"), 4, "name").is_err());
    }
}
