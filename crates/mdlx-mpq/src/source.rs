//! What an archive is read from: bytes in memory, or a file read piece by piece where
//! asked (the game's archives are a gigabyte; a map's listing needs its tables only).

use super::error::{MpqError, MpqErrorKind};
use std::borrow::Cow;
use std::fs::File;

pub(crate) enum Source {
    Bytes(Vec<u8>),
    /// A file, read where asked (positional reads: threads extracting files at once never
    /// wait for each other, and listing a map reads its tables, not its megabytes).
    File {
        file: File,
        len: u64,
    },
}

impl Source {
    pub(crate) fn open(path: &std::path::Path) -> Result<Source, MpqError> {
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        if cfg!(any(unix, windows)) {
            return Ok(Source::File { file, len });
        }
        let mut bytes = Vec::with_capacity(len.min(1 << 30) as usize);
        std::io::Read::read_to_end(&mut &file, &mut bytes)?;
        Ok(Source::Bytes(bytes))
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
                if read_exact_at(file, &mut buf, start).is_err() {
                    buf.clear();
                }
                Cow::Owned(buf)
            }
        }
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut at: u64) -> std::io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, buf, at) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                at += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(not(any(unix, windows)))]
fn read_exact_at(_: &File, _: &mut [u8], _: u64) -> std::io::Result<()> {
    // `Source::open` reads the whole file on these systems.
    Err(std::io::ErrorKind::Unsupported.into())
}
