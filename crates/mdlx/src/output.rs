//! Writing an output whole or not at all: the data goes first into a fresh temporary file
//! beside the target, which is then renamed over it. The command-line tool and the Python
//! bindings both write this way.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Creates a new temporary file for `target` in `dir` (the folder the target is in), named
/// `.NAME.PID.N.tmp`: unique within the process, so threads writing the same target never
/// share one, and created afresh (never through an existing file or link). A name left by
/// an earlier process of the same id that was killed is passed over.
pub fn temporary(dir: &Path, target: &Path) -> io::Result<(PathBuf, File)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = target.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "the output path has no file name",
        )
    })?;
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(
            ".{}.{}.{n}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1_000_000 => {}
            Err(e) => return Err(e),
        }
    }
}
