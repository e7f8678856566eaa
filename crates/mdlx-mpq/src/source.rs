//! What an archive is read from: bytes in memory, or a file read piece by piece (the
//! game's archives are a gigabyte; a map is read whole).

use super::error::{MpqError, MpqErrorKind};
use std::borrow::Cow;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::sync::Mutex;

/// Files up to this size are read into memory whole.
const WHOLE: u64 = 256 << 20;

pub(crate) enum Source {
    Bytes(Vec<u8>),
    File { file: Mutex<File>, len: u64 },
}

impl Source {
    pub(crate) fn open(path: &std::path::Path) -> Result<Source, MpqError> {
        let mut file = File::open(path)?;
        let len = file.metadata()?.len();
        if len <= WHOLE {
            let mut bytes = Vec::with_capacity(len as usize);
            file.read_to_end(&mut bytes)?;
            return Ok(Source::Bytes(bytes));
        }
        Ok(Source::File {
            file: Mutex::new(file),
            len,
        })
    }

    pub(crate) fn len(&self) -> u64 {
        match self {
            Source::Bytes(b) => b.len() as u64,
            Source::File { len, .. } => *len,
        }
    }

    /// `len` bytes at `at`, or an error naming `what` when they run past the end.
    pub(crate) fn read_at(
        &self,
        at: u64,
        len: u64,
        what: impl FnOnce() -> String,
    ) -> Result<Cow<'_, [u8]>, MpqError> {
        let file_len = self.len();
        if at.checked_add(len).is_none_or(|end| end > file_len) {
            return Err(MpqError::at(
                MpqErrorKind::PastEnd {
                    what: what(),
                    size: len,
                    file_len,
                },
                at,
            ));
        }
        Ok(self.read_clipped(at, len))
    }

    /// Up to `len` bytes at `at`: fewer when the file ends first.
    pub(crate) fn read_clipped(&self, at: u64, len: u64) -> Cow<'_, [u8]> {
        let file_len = self.len();
        let start = at.min(file_len);
        let end = at.saturating_add(len).min(file_len);
        match self {
            Source::Bytes(b) => Cow::Borrowed(&b[start as usize..end as usize]),
            Source::File { file, .. } => {
                let mut buf = vec![0u8; (end - start) as usize];
                let mut f = file.lock().unwrap_or_else(|p| p.into_inner());
                let ok = f.seek(SeekFrom::Start(start)).is_ok() && f.read_exact(&mut buf).is_ok();
                if !ok {
                    buf.clear();
                }
                Cow::Owned(buf)
            }
        }
    }
}
