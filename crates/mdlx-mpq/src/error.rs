//! The one error of the MPQ reader and writer: what went wrong, the absolute byte offset in
//! the archive file where it was found, and the file inside the archive it concerns, e.g.
//! `war3map.j (block 4): sector 2 at 0x1a200: zlib data corrupt: invalid distance`.

use std::fmt;

/// Why an archive, or a file in it, could not be read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MpqError {
    /// What went wrong.
    pub kind: MpqErrorKind,
    /// The absolute byte offset in the archive file, where one applies.
    pub offset: Option<u64>,
    /// The file inside the archive (its name, or `#N` for block N when unnamed).
    pub file: Option<String>,
}

/// What went wrong, independent of where. Tests match on this.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MpqErrorKind {
    /// The operating system could not read or write.
    Io(String),
    /// No MPQ header was found at any 512-byte boundary.
    NoArchive,
    /// A structure (`what`) of `size` bytes at the error's offset reaches past the end of
    /// the archive file (`file_len` bytes).
    PastEnd {
        /// What it is about ("hash table", "sector 3", ...).
        what: String,
        /// Its size in bytes.
        size: u64,
        /// The length of the file.
        file_len: u64,
    },
    /// No file of this name is in the archive.
    NotFound(String),
    /// The file is encrypted and its key cannot be found (its name is unknown and its
    /// layout gives no known word to recover it from).
    NoKey,
    /// A sector would not decompress.
    Codec {
        /// The sector's index in its file.
        sector: u32,
        /// Why.
        why: String,
    },
    /// Something else the format does not allow (`what` says what).
    Invalid(String),
}

impl MpqError {
    pub(crate) fn new(kind: MpqErrorKind) -> Self {
        MpqError {
            kind,
            offset: None,
            file: None,
        }
    }

    pub(crate) fn at(kind: MpqErrorKind, offset: u64) -> Self {
        MpqError {
            kind,
            offset: Some(offset),
            file: None,
        }
    }

    pub(crate) fn invalid(what: impl Into<String>, offset: u64) -> Self {
        MpqError::at(MpqErrorKind::Invalid(what.into()), offset)
    }

    /// Names the file the error concerns (kept when one is already named).
    pub(crate) fn in_file(mut self, file: impl FnOnce() -> String) -> Self {
        if self.file.is_none() {
            self.file = Some(file());
        }
        self
    }
}

impl fmt::Display for MpqErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MpqErrorKind::Io(e) => write!(f, "{e}"),
            MpqErrorKind::NoArchive => {
                f.write_str("not an MPQ archive (no `MPQ\\x1a` header at any 512-byte boundary)")
            }
            MpqErrorKind::PastEnd {
                what,
                size,
                file_len,
            } => write!(
                f,
                "{what} (0x{size:x} bytes) runs past the end of the archive (0x{file_len:x} bytes)"
            ),
            MpqErrorKind::NotFound(name) => write!(f, "no file `{name}` in the archive"),
            MpqErrorKind::NoKey => {
                f.write_str("encrypted, and its key cannot be found (the name is unknown)")
            }
            MpqErrorKind::Codec { sector, why } => write!(f, "sector {sector}: {why}"),
            MpqErrorKind::Invalid(what) => f.write_str(what),
        }
    }
}

impl fmt::Display for MpqError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        write!(f, "{}", self.kind)?;
        if let Some(at) = self.offset {
            write!(f, " (at 0x{at:x})")?;
        }
        Ok(())
    }
}

impl std::error::Error for MpqError {}

impl From<std::io::Error> for MpqError {
    fn from(e: std::io::Error) -> Self {
        MpqError::new(MpqErrorKind::Io(e.to_string()))
    }
}
