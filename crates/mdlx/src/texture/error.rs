//! Errors of the texture readers: each names what was wrong and the absolute byte offset
//! where it was found, printed in hex, e.g.
//! `mip 2 at 0x1234 runs 0x800 bytes past the end of the file (0x1a00 bytes)`.

use std::fmt;

/// What went wrong, independent of where. Tests match on this.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TextureErrorKind {
    /// The content is no texture this module reads; `looks_like` names what it seems to be
    /// (e.g. "an MDX model (it starts with `MDLX`)").
    NotATexture {
        /// What the content looks like instead.
        looks_like: String,
    },
    /// The file ends inside a fixed-size structure (`what`: "BLP1 header").
    Truncated {
        /// What it is about.
        what: String,
        /// Bytes needed.
        need: u64,
        /// The length of the file.
        file_len: u64,
    },
    /// A region named by the header (a mip level, a JPEG header) runs past the end of the
    /// file: `size` bytes at the error's offset, `past` of them beyond `file_len`.
    PastEnd {
        /// What it is about.
        what: String,
        /// Byte offset.
        at: u64,
        /// The size given.
        size: u64,
        /// How far past the end it reaches.
        past: u64,
        /// The length of the file.
        file_len: u64,
    },
    /// A region is smaller than its pixels need (`have` bytes where `need` are required).
    TooShort {
        /// What it is about.
        what: String,
        /// Bytes needed.
        need: u64,
        /// Bytes there are.
        have: u64,
    },
    /// The header gives a zero width or height.
    ZeroSize {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
    },
    /// The pixels the header promises cannot come from the bytes present (checked before
    /// any allocation): `why` says what bounds them.
    TooLarge {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
        /// Why.
        why: String,
    },
    /// A field value this reader does not know or support (`what`: "BLP1 compression").
    Unsupported {
        /// What it is about.
        what: String,
        /// The value.
        value: u64,
    },
    /// A mip level beyond the ones the file lists.
    NoSuchLevel {
        /// The level asked for.
        level: usize,
        /// The count given.
        count: usize,
    },
    /// A palette index that points to an entry outside the file (compact palettes).
    PaletteIndex {
        /// The index found.
        index: u8,
        /// Entries in the palette.
        entries: usize,
    },
    /// The embedded JPEG stream is broken (`what` gives the level; `message` the decoder's).
    Jpeg {
        /// What it is about.
        what: String,
        /// The decoder's message.
        message: String,
    },
    /// A PNG could not be read.
    Png(String),
    /// An image cannot be written as asked (`blp1::to_bytes`): the message says why.
    Encode(String),
}

/// A texture error: its kind and the absolute offset in the input where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextureError {
    /// What went wrong.
    pub kind: TextureErrorKind,
    /// Absolute byte offset in the input where the problem was found.
    pub offset: u64,
}

impl TextureError {
    /// A new error at `offset`.
    pub fn new(kind: TextureErrorKind, offset: u64) -> Self {
        TextureError { kind, offset }
    }
}

/// An error for a field value this reader does not support (`what`, the value, its offset).
pub(crate) fn unsupported(what: impl Into<String>, value: u32, offset: u64) -> TextureError {
    TextureError::new(
        TextureErrorKind::Unsupported {
            what: what.into(),
            value: value.into(),
        },
        offset,
    )
}

impl fmt::Display for TextureErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use TextureErrorKind::*;
        match self {
            NotATexture { looks_like } => write!(f, "not a texture: the file is {looks_like}"),
            Truncated {
                what,
                need,
                file_len,
            } => write!(
                f,
                "the file ({file_len:#x} bytes) ends inside the {what}, which needs {need:#x} bytes"
            ),
            PastEnd {
                what,
                at,
                size,
                past,
                file_len,
            } => write!(
                f,
                "{what} at {at:#x} ({size:#x} bytes) runs {past:#x} bytes past the end of the file ({file_len:#x} bytes)"
            ),
            TooShort { what, need, have } => {
                write!(f, "{what} holds {have:#x} bytes, its pixels need {need:#x}")
            }
            ZeroSize { width, height } => {
                write!(f, "the header gives a size of {width}x{height}: no pixels")
            }
            TooLarge { width, height, why } => write!(f, "{width}x{height} pixels {why}"),
            Unsupported { what, value } => write!(f, "unsupported {what} {value}"),
            NoSuchLevel { level, count } => {
                write!(f, "no mip level {level}: the file lists {count}")
            }
            PaletteIndex { index, entries } => write!(
                f,
                "palette index {index} points past the palette entries present in the file ({entries})"
            ),
            Jpeg { what, message } => write!(f, "{what}: broken JPEG data: {message}"),
            Png(message) => write!(f, "PNG: {message}"),
            Encode(why) => write!(f, "cannot encode: {why}"),
        }
    }
}

impl fmt::Display for TextureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            // Its message already says where.
            TextureErrorKind::PastEnd { .. } | TextureErrorKind::Encode(_) => {
                write!(f, "{}", self.kind)
            }
            _ => write!(f, "{} (at offset {:#x})", self.kind, self.offset),
        }
    }
}

impl std::error::Error for TextureError {}
