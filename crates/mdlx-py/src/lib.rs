//! Python bindings of [`mdlx`]: the package `mdlx` (this crate builds its compiled part,
//! `mdlx._mdlx`, with PyO3; maturin packs it with the stubs in `python/mdlx`).
//!
//! What Python sees (see the README beside this crate and `python/mdlx/__init__.pyi`):
//! - `read(path_or_bytes)` reads any model format the library reads, `from_gltf(...)`
//!   imports glTF with its options; both give the model and what came with it (the MDL
//!   reader's warnings, a conversion's losses and notes, texture files to write).
//! - `Model`: read-only views (version, name, sequences, nodes, textures, counts) over the
//!   library's model, and every operation on it: `export`, `to_bytes`, `write` (whole or
//!   not at all), `to_version`, `to_classic`, `to_gltf`, `check`, `optimize`, `render`.
//! - `Archive(path)`: an MPQ archive or map, listed and read.
//! - `MdlxError` (a `ValueError`): every error, with the library's message and place.
//!
//! Long work runs with the interpreter released; a panic comes back as an `MdlxError`.

#![forbid(unsafe_code)]

mod archive;
mod check;
mod convert;
mod error;
mod files;
mod held;
mod model;
mod render;

use pyo3::prelude::*;

/// The compiled part of the `mdlx` package.
#[pymodule]
fn _mdlx(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MdlxError", m.py().get_type::<error::MdlxError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(convert::read, m)?)?;
    m.add_function(wrap_pyfunction!(convert::from_gltf, m)?)?;
    m.add_class::<model::Model>()?;
    m.add_class::<model::Sequence>()?;
    m.add_class::<model::Texture>()?;
    m.add_class::<model::Node>()?;
    m.add_class::<convert::Loaded>()?;
    m.add_class::<convert::Converted>()?;
    m.add_class::<convert::Written>()?;
    m.add_class::<convert::Loss>()?;
    m.add_class::<convert::Diagnostic>()?;
    m.add_class::<convert::TextureFile>()?;
    m.add_class::<check::Finding>()?;
    m.add_class::<archive::Archive>()?;
    m.add_class::<archive::Entry>()?;
    Ok(())
}
