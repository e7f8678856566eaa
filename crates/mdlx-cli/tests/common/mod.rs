//! What the command-line tests share: the `mdlx` binary, running it and reading what it
//! printed, where the example and the shared corpus are, and temporary folders that remove
//! themselves. Include it with `mod common;` and `use common::*;`.
#![allow(dead_code)]

/// The height of a posed model, shared with the library's tests.
#[path = "../../../mdlx/tests/common/posed.rs"]
pub(crate) mod posed;
#[allow(unused_imports)]
pub(crate) use posed::height;

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `mdlx` binary Cargo built for these tests, as a command to add arguments to.
pub(crate) fn command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mdlx"))
}

/// Runs `mdlx ARGS` to the end and returns its exit status and everything it printed.
pub(crate) fn mdlx(args: &[&str]) -> Output {
    command().args(args).output().unwrap()
}

/// [`mdlx`] run in the folder `dir` (relative paths are relative to it).
pub(crate) fn mdlx_in(dir: &Path, args: &[&str]) -> Output {
    command().args(args).current_dir(dir).output().unwrap()
}

/// Bytes the tool printed, as text (invalid UTF-8 replaced).
pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What a run printed on stderr, as text.
pub(crate) fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// A path as an argument.
pub(crate) fn s(p: impl AsRef<OsStr>) -> String {
    Path::new(p.as_ref()).display().to_string()
}

/// The repository's root folder.
pub(crate) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `../shared` beside the repository: the corpus and the glTF samples, read in place.
pub(crate) fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

/// The shared model and texture corpus.
pub(crate) fn corpus() -> PathBuf {
    shared().join("corpus")
}

/// The repository's example, `examples/cube.mdx`, as an argument.
pub(crate) fn cube() -> String {
    s(repo().join("examples/cube.mdx"))
}

/// A fresh, empty folder in the temporary folder, named after the test process and `name`
/// (unique within one test binary). It is removed when dropped, unless the test is failing:
/// then it stays for a look at what the tool wrote.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    /// Creates `mdlx-cli-PID-NAME`, emptied first if a previous run left it.
    pub(crate) fn new(name: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!("mdlx-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("left for inspection: {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

impl Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<OsStr> for TempDir {
    fn as_ref(&self) -> &OsStr {
        self.0.as_os_str()
    }
}

/// [`TempDir::new`].
pub(crate) fn temp_dir(name: &str) -> TempDir {
    TempDir::new(name)
}

/// StormLib's `smpq` (`MDLX_SMPQ`, set by `scripts/smpq-judge.sh`), or `None` (the test
/// skips) outside CI; under CI a missing judge fails the test.
pub(crate) fn smpq() -> Option<PathBuf> {
    match std::env::var_os("MDLX_SMPQ") {
        Some(p) => Some(p.into()),
        None if std::env::var_os("CI").is_some() => panic!("MDLX_SMPQ is not set under CI"),
        None => {
            eprintln!("MDLX_SMPQ not set: skipped (scripts/smpq-judge.sh prepares it)");
            None
        }
    }
}
