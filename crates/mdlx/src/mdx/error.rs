//! Errors of the binary codec: every one names the absolute byte offset (printed in hex)
//! and the chunk/record path where it happened, e.g.
//! `unexpected end of data: need 12 bytes, 4 remain (at offset 0x1a4c) in chunk GEOS > Geoset[3] > VRTX`.

use std::fmt;

/// What went wrong, independent of where. Tests match on this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MdxErrorKind {
    /// The file does not start with `MDLX`.
    BadMagic,
    /// Fewer bytes remain than a field or array needs.
    UnexpectedEnd {
        /// Bytes needed.
        need: u64,
        /// Bytes that remain.
        remain: u64,
    },
    /// A count whose elements cannot fit in the bytes that remain (checked before allocating).
    CountTooLarge {
        /// The count given.
        count: u64,
        /// Bytes each element takes.
        each: u64,
        /// Bytes that remain.
        remain: u64,
    },
    /// A size field that points outside its enclosing region. `file_end`: the region is
    /// the whole file (a top-level chunk runs past its end), so the file looks cut off.
    SizeOutOfRange {
        /// The size given.
        size: u64,
        /// Bytes that remain.
        remain: u64,
        /// Whether the data ends with the file (a file cut off) rather than inside a chunk.
        file_end: bool,
    },
    /// A size field smaller than the fixed part of its record.
    SizeTooSmall {
        /// The size given.
        size: u64,
        /// The smallest size that can hold it.
        min: u64,
    },
    /// A four-byte tag other than the one the layout requires here.
    ExpectedTag {
        /// What was expected.
        expected: [u8; 4],
        /// What was found.
        found: [u8; 4],
    },
    /// A value that selects a layout this reader does not know (e.g. a collision shape type).
    UnknownLayout {
        /// What it is about.
        what: &'static str,
        /// The value.
        value: u32,
    },
    /// A WoW alpha-family file (versions 1300-1500 with the alpha chunk shapes).
    AlphaFamily {
        /// The version number found.
        version: u32,
    },
    /// A file of version 1300-1500 (numbers both Reforged and the WoW alpha family use)
    /// whose chunks do not tell its family: one fits neither family's layout, or one fits
    /// only the alpha layout and another only Warcraft III's. `reason` names the chunks and
    /// their offsets (see [`crate::mdx::classify_family`]).
    FamilyUnclear {
        /// The version number found.
        version: u32,
        /// Why the family is unclear.
        reason: String,
    },
    /// The file ends without a chunk every model has (`VERS`, `MODL`): an empty or cut-off
    /// file, not a model. `chunks` is how many whole chunks came before the end.
    MissingChunk {
        /// The chunk tag.
        tag: [u8; 4],
        /// How many chunks the file has.
        chunks: usize,
    },
    /// A value the writer cannot store (e.g. a string longer than its fixed field).
    Unwritable(String),
}

/// A binary-codec error: its kind, the absolute offset, and the path of chunks and records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MdxError {
    /// What went wrong.
    pub kind: MdxErrorKind,
    /// Absolute byte offset in the input where the problem was found.
    pub offset: u64,
    /// Chunk and record path, outermost first (`["GEOS", "Geoset[3]", "VRTX"]`).
    pub path: Vec<String>,
}

impl MdxError {
    /// A new error at `offset` with an empty path.
    pub fn new(kind: MdxErrorKind, offset: u64) -> Self {
        MdxError {
            kind,
            offset,
            path: Vec::new(),
        }
    }

    /// Marks a [`MdxErrorKind::SizeOutOfRange`] as one that runs past the end of the whole
    /// file (a top-level chunk): the message then says the file looks cut off. Other
    /// errors are returned as they are.
    pub fn past_file_end(mut self) -> Self {
        if let MdxErrorKind::SizeOutOfRange { file_end, .. } = &mut self.kind {
            *file_end = true;
        }
        self
    }

    /// Prepends a path segment; called as the error travels out of nested readers.
    pub fn within(mut self, segment: impl Into<String>) -> Self {
        self.path.insert(0, segment.into());
        self
    }
}

fn tag_text(tag: &[u8; 4]) -> String {
    if tag.iter().all(|b| b.is_ascii_graphic()) {
        format!("`{}`", String::from_utf8_lossy(tag))
    } else {
        format!("0x{:08x}", u32::from_be_bytes(*tag))
    }
}

impl fmt::Display for MdxErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use MdxErrorKind::*;
        match self {
            BadMagic => write!(f, "not an MDX file: it does not start with `MDLX`"),
            UnexpectedEnd { need, remain } => {
                write!(f, "unexpected end of data: need {need} bytes, {remain} remain")
            }
            CountTooLarge {
                count,
                each,
                remain,
            } => write!(
                f,
                "count {count} is too large: {count} x {each} bytes do not fit in the {remain} bytes that remain"
            ),
            SizeOutOfRange {
                size,
                remain,
                file_end: false,
            } => write!(
                f,
                "size {size} runs past the end of its region ({remain} bytes remain)"
            ),
            SizeOutOfRange {
                size,
                remain,
                file_end: true,
            } => write!(
                f,
                "chunk size {size} runs past the end of the file ({remain} bytes remain): the file looks cut off (an interrupted download or copy?)"
            ),
            SizeTooSmall { size, min } => {
                write!(f, "size {size} is smaller than the record's fixed part ({min} bytes)")
            }
            ExpectedTag { expected, found } => write!(
                f,
                "expected tag {}, found {}",
                tag_text(expected),
                tag_text(found)
            ),
            UnknownLayout { what, value } => write!(f, "unknown {what} {value}: its layout is not known"),
            AlphaFamily { version } => write!(
                f,
                "this is a WoW alpha-family MDX (version {version}, alpha chunk layouts): read it with mdlx::alpha (the mdlx tool does so by itself)"
            ),
            FamilyUnclear { version, reason } => write!(
                f,
                "cannot tell whether this version {version} MDX is Warcraft III (Reforged) or WoW alpha: {reason}"
            ),
            MissingChunk { tag, chunks } => {
                let read = match chunks {
                    0 => "no chunk at all".to_string(),
                    1 => "1 chunk".to_string(),
                    n => format!("{n} chunks"),
                };
                write!(
                    f,
                    "not a complete model: the file ends with no {} chunk, after {read}; a cut-off download?",
                    tag_text(tag)
                )
            }
            Unwritable(msg) => write!(f, "cannot write: {msg}"),
        }
    }
}

impl fmt::Display for MdxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at offset {:#x})", self.kind, self.offset)?;
        if !self.path.is_empty() {
            write!(f, " in chunk {}", self.path.join(" > "))?;
        }
        Ok(())
    }
}

impl std::error::Error for MdxError {}

/// Result of the binary codec.
pub type MdxResult<T> = Result<T, MdxError>;
