//! The Python object around a library model (`mdlx.Model`): the model, where it was read
//! from, and where its records were in that file. Its methods are in [`crate::model`];
//! the operations they run (conversions, checks, pictures) take it from here.

use crate::files::Origin;
use mdlx::check::SourceMap;
use pyo3::prelude::*;
use std::sync::Arc;

/// A Warcraft III model. Made by `mdlx.read`, a conversion or an import; immutable.
#[pyclass(module = "mdlx", frozen)]
pub(crate) struct Model {
    pub(crate) inner: Arc<mdlx::Model>,
    /// Where it was read from (for texture look-ups and what `check` takes it to be).
    pub(crate) origin: Origin,
    /// Where each record was in the file it was read from (MDX or MDL read as itself).
    pub(crate) source_map: Option<Arc<SourceMap>>,
}

impl Model {
    /// A model made by the library from nothing on disk (a conversion): textures are
    /// looked for where the source's were.
    pub(crate) fn derived(model: mdlx::Model, from: &Model) -> Model {
        Model {
            inner: Arc::new(model),
            origin: from.origin.clone(),
            source_map: None,
        }
    }

    /// The folders textures are looked for in: the model's own folder (or its map), then
    /// `extra`.
    pub(crate) fn texture_dirs(&self, extra: Vec<std::path::PathBuf>) -> Vec<std::path::PathBuf> {
        self.origin
            .texture_place()
            .into_iter()
            .chain(extra)
            .collect()
    }
}
