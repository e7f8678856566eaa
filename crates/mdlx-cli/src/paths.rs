//! What a path names, told from the path alone: what [`crate::files`] and
//! [`crate::archive`] both ask.

use std::path::Path;

/// The path that means standard input or output.
pub(crate) fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// True if the file's extension is one of `exts` (case-insensitive).
pub(crate) fn has_ext(path: &Path, exts: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| exts.iter().any(|x| e.eq_ignore_ascii_case(x)))
}
