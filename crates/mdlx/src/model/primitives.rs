//! Leaf types shared by every record: four-byte tags, fixed-length strings that keep their
//! padding, and bounding extents.

use std::borrow::Cow;
use std::fmt;

pub use crate::spec::Tag;

/// The content of a fixed-length, NUL-padded string field.
///
/// Holds the field's bytes with trailing NULs removed, so text and any non-zero garbage
/// after the first NUL (which real files contain) survive a round trip. The text is the
/// part before the first NUL. Bytes are not required to be UTF-8.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct FixedString {
    bytes: Vec<u8>,
}

impl FixedString {
    /// From the raw bytes of a field: trailing NULs are dropped, everything else kept.
    pub fn from_field(field: &[u8]) -> Self {
        let len = field.iter().rposition(|&b| b != 0).map_or(0, |p| p + 1);
        FixedString {
            bytes: field[..len].to_vec(),
        }
    }

    /// The kept bytes: the text, then any padding bytes that were not zero.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The text bytes: everything before the first NUL.
    pub fn text_bytes(&self) -> &[u8] {
        let end = self
            .bytes
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(self.bytes.len());
        &self.bytes[..end]
    }

    /// The text, with invalid UTF-8 replaced.
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.text_bytes())
    }

    /// True when the text is empty.
    pub fn is_empty(&self) -> bool {
        self.text_bytes().is_empty()
    }

    /// Bytes after the text that a plain string would lose (non-zero padding).
    pub fn padding(&self) -> &[u8] {
        &self.bytes[self.text_bytes().len()..]
    }

    /// Replaces the whole field content with `s` (dropping any old padding).
    pub fn set(&mut self, s: &str) {
        *self = FixedString::from(s);
    }
}

impl From<&str> for FixedString {
    fn from(s: &str) -> Self {
        FixedString::from_field(s.as_bytes())
    }
}

impl fmt::Display for FixedString {
    /// The text (before the first NUL), invalid UTF-8 replaced; padding is not shown.
    ///
    /// ```
    /// let name = mdlx::model::FixedString::from_field(b"Footman\0\xff");
    /// assert_eq!(name.to_string(), "Footman");
    /// assert_eq!(format!("{:>9}", name), "  Footman");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.text())
    }
}

impl fmt::Debug for FixedString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.text())?;
        if !self.padding().is_empty() {
            write!(f, "+{} padding bytes", self.padding().len())?;
        }
        Ok(())
    }
}

/// A bounding volume: radius, then minimum and maximum corners (this order everywhere).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Extent {
    /// Bounds radius.
    pub radius: f32,
    /// Minimum corner.
    pub min: [f32; 3],
    /// Maximum corner.
    pub max: [f32; 3],
}

impl Extent {
    /// The box around `points`, with the radius of the sphere through its corners (half
    /// its diagonal); all zero without points.
    pub fn around(points: impl IntoIterator<Item = [f32; 3]>) -> Extent {
        let mut min = [f32::INFINITY; 3];
        let mut max = [f32::NEG_INFINITY; 3];
        let mut any = false;
        for p in points {
            for k in 0..3 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
            any = true;
        }
        if !any {
            return Extent::default();
        }
        let half = [0, 1, 2].map(|k| (max[k] - min[k]) / 2.0);
        Extent {
            radius: (half[0] * half[0] + half[1] * half[1] + half[2] * half[2]).sqrt(),
            min,
            max,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_string_keeps_garbage_after_nul() {
        let s = FixedString::from_field(b"Bone\0xy\0\0\0");
        assert_eq!(s.text(), "Bone");
        assert_eq!(s.as_bytes(), b"Bone\0xy");
        assert_eq!(s.padding(), b"\0xy");
    }

    #[test]
    fn tag_text_escapes_binary() {
        assert_eq!(Tag(*b"GEOS").text(), "GEOS");
        assert_eq!(Tag([0, b'A', 0xff, b' ']).text(), "\\x00A\\xff ");
    }
}
