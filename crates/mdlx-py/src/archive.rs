//! `mdlx.Archive`: an MPQ archive (a map `.w3m`/`.w3x`, or one of the game's `.mpq`),
//! opened once per process and shared (the library's cache), its files listed and read.

use crate::convert::{read_input, Loaded};
use crate::error::{detached, Failure};
use crate::files::{open_shared, Input, Origin};
use mdlx::mpq::Archive as MpqArchive;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// One file of an archive.
#[pyclass(module = "mdlx", frozen, get_all)]
pub(crate) struct Entry {
    /// Its name (`war3mapImported\hero.mdx`), or `File00000012.xxx` when unknown.
    name: String,
    /// Whether the name is known (from the listfile or recovered).
    named: bool,
    /// Its length in bytes.
    size: u64,
    /// Its stored (compressed) length.
    stored_size: u64,
    /// Whether it is encrypted in the archive.
    encrypted: bool,
}

#[pymethods]
impl Entry {
    fn __repr__(&self) -> String {
        format!("Entry({:?}, size={})", self.name, self.size)
    }
}

/// An MPQ archive: a map or a game archive.
#[pyclass(module = "mdlx", frozen)]
pub(crate) struct Archive {
    path: PathBuf,
    inner: Arc<MpqArchive>,
}

#[pymethods]
impl Archive {
    /// Opens the archive in the file at `path` (after a map's header, past protectors'
    /// decoys) and names its files from its listfile and from what it names itself.
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Archive> {
        let p = path.clone();
        let inner = detached(py, move || open_shared(&p))?;
        Ok(Archive { path, inner })
    }

    /// The archive's path.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// Every file, as the listing gives it.
    fn entries(&self) -> Vec<Entry> {
        (self.inner.entries().into_iter())
            .map(|e| Entry {
                name: e.name(),
                named: e.known_name.is_some(),
                size: e.size,
                stored_size: e.stored_size,
                encrypted: e.encrypted(),
            })
            .collect()
    }

    /// The known file names, sorted without regard to case.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = (self.inner.entries().into_iter())
            .filter_map(|e| e.known_name)
            .collect();
        names.sort_by_key(|n| n.to_ascii_lowercase());
        names.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
        names
    }

    /// A file's bytes (`\` or `/` in the name, any case).
    fn read<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Vec<u8>> {
        let a = self.inner.clone();
        let shown = self.path.display().to_string();
        let name = name.to_owned();
        detached(py, move || {
            a.read(&name).map_err(|e| Failure::mpq(&e, &shown))
        })
    }

    /// A model inside the archive, read as `mdlx.read` reads a file; its textures are
    /// looked for in the archive.
    #[pyo3(signature = (name, *, strict = false))]
    fn read_model(&self, py: Python<'_>, name: &str, strict: bool) -> PyResult<Loaded> {
        let data = self.read(py, name)?;
        let input = Input {
            data,
            origin: Origin::Member(self.path.clone(), name.to_owned()),
        };
        let (loaded, origin, map) = detached(py, move || read_input(input, strict))?;
        Loaded::new(py, loaded, origin, map)
    }

    fn __contains__(&self, name: &str) -> bool {
        self.inner.contains(name)
    }

    fn __len__(&self) -> usize {
        self.inner.entries().len()
    }

    fn __repr__(&self) -> String {
        format!("<mdlx.Archive {:?}: {} files>", self.path, self.__len__())
    }
}
