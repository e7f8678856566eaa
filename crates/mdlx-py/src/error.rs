//! The one exception of the package, `mdlx.MdlxError` (a `ValueError`), made from every
//! error the library gives, with the library's own message and, where the library says
//! where, the place as attributes: `offset` (a byte offset), `chunk` (the MDX chunk and
//! record path, outermost first), `line` and `column` (MDL, Milkshape), `json_path` (glTF),
//! `member` (the file inside an archive), `file` (the file read, when it was a path),
//! `diagnostics` (every MDL error and warning). Attributes the error has no value for are
//! `None` (`chunk` and `diagnostics`: empty lists).
//!
//! Panics never cross into Python: [`guard`] runs library code and turns a panic into an
//! `MdlxError` whose message says it is a bug (a panic is one; the library's contract is
//! to return errors for bad input).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::panic::{catch_unwind, AssertUnwindSafe};

pyo3::create_exception!(
    mdlx,
    MdlxError,
    PyValueError,
    "Anything the library refuses or could not do: bad input (with its place), a file that cannot be read or written, an option out of range."
);

/// An error on its way to Python (boxed: it travels in every `Result` of the bindings).
#[derive(Debug, Default)]
pub(crate) struct Failure(Box<Details>);

/// The message and what the library said about where.
#[derive(Debug, Default)]
pub(crate) struct Details {
    message: String,
    offset: Option<u64>,
    chunk: Vec<String>,
    line: Option<usize>,
    column: Option<usize>,
    json_path: Option<String>,
    member: Option<String>,
    file: Option<String>,
    diagnostics: Vec<(usize, usize, String, String)>,
}

/// What the bindings return before Python sees it.
pub(crate) type Result<T> = std::result::Result<T, Failure>;

impl Failure {
    /// An error with a message and no place.
    pub(crate) fn msg(message: impl Into<String>) -> Failure {
        Failure::from(Details {
            message: message.into(),
            ..Details::default()
        })
    }

    /// A model that could not be read. With `file`, the message is the one the `mdlx` tool
    /// prints for that file (MDL: every diagnostic with its line, column and a caret).
    pub(crate) fn read(e: &mdlx::Error, file: Option<&str>) -> Failure {
        let message = match file {
            Some(f) => e.render(f),
            None => e.to_string(),
        };
        let mut out = Details {
            message,
            file: file.map(str::to_owned),
            ..Details::default()
        };
        match e {
            mdlx::Error::Mdx(m) => {
                out.offset = Some(m.offset);
                out.chunk = m.path.clone();
            }
            mdlx::Error::Mdl(m) => {
                out.diagnostics = (m.diagnostics.iter())
                    .map(|d| {
                        (
                            d.line,
                            d.column,
                            severity(d.severity).to_owned(),
                            d.kind.to_string(),
                        )
                    })
                    .collect();
                if let Some(first) = m.errors().next() {
                    out.line = Some(first.line);
                    out.column = Some(first.column);
                }
            }
            mdlx::Error::Ms3d(m) => out.line = Some(m.line),
            mdlx::Error::Gltf(g) => {
                out.offset = g.offset;
                out.json_path = Some(g.path.clone()).filter(|p| !p.is_empty());
            }
            _ => {}
        }
        Failure::from(out)
    }

    /// A glTF document that could not be imported.
    pub(crate) fn gltf(e: &mdlx::convert::gltf::GltfError) -> Failure {
        Failure::from(Details {
            message: e.to_string(),
            offset: e.offset,
            json_path: Some(e.path.clone()).filter(|p| !p.is_empty()),
            ..Details::default()
        })
    }

    /// A model that could not be written.
    pub(crate) fn write(e: &mdlx::WriteError) -> Failure {
        let mut out = Failure::msg(e.to_string());
        if let mdlx::WriteError::Mdx(m) = e {
            out.0.offset = Some(m.offset);
            out.0.chunk = m.path.clone();
        }
        out
    }

    /// An archive, or a file in it, that could not be read; `archive` names the archive.
    pub(crate) fn mpq(e: &mdlx::mpq::MpqError, archive: &str) -> Failure {
        Failure::from(Details {
            message: format!("{archive}: {e}"),
            offset: e.offset,
            member: e.file.clone(),
            file: Some(archive.to_owned()),
            ..Details::default()
        })
    }

    /// A file system error while doing `what` (`cannot read x.mdx`).
    pub(crate) fn io(what: impl std::fmt::Display, e: &std::io::Error) -> Failure {
        Failure::msg(format!("{what}: {e}"))
    }
}

/// The word for an MDL diagnostic's severity.
pub(crate) fn severity(s: mdlx::mdl::Severity) -> &'static str {
    match s {
        mdlx::mdl::Severity::Error => "error",
        mdlx::mdl::Severity::Warning => "warning",
    }
}

impl Failure {
    /// The same error naming `file`, when it names none yet.
    pub(crate) fn in_file(mut self, file: &str) -> Failure {
        if self.0.file.is_none() {
            self.0.file = Some(file.to_owned());
        }
        self
    }
}

impl From<Details> for Failure {
    fn from(d: Details) -> Failure {
        Failure(Box::new(d))
    }
}

impl From<Failure> for PyErr {
    fn from(Failure(f): Failure) -> PyErr {
        Python::attach(|py| {
            let err = MdlxError::new_err(f.message.clone());
            if let Err(e) = set_attributes(py, &err, *f) {
                return e;
            }
            err
        })
    }
}

/// Sets the place attributes of `err` from `f`.
fn set_attributes(py: Python<'_>, err: &PyErr, f: Details) -> PyResult<()> {
    let value = err.value(py);
    value.setattr("offset", f.offset)?;
    value.setattr("chunk", PyList::new(py, f.chunk)?)?;
    value.setattr("line", f.line)?;
    value.setattr("column", f.column)?;
    value.setattr("json_path", f.json_path)?;
    value.setattr("member", f.member)?;
    value.setattr("file", f.file)?;
    let diagnostics = PyList::empty(py);
    for (line, column, severity, message) in f.diagnostics {
        diagnostics.append((line, column, severity, message))?;
    }
    value.setattr("diagnostics", diagnostics)
}

/// Runs library code: a panic inside comes back as an error saying it is a bug, never as
/// an abort or a `PanicException` (which is no `Exception` and slips past `except
/// Exception`).
pub(crate) fn guard<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let why = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_owned());
            Err(Failure::msg(format!(
                "internal error in mdlx (a bug, please report it with the input): {why}"
            )))
        }
    }
}

/// Runs `f` with the interpreter released (other Python threads run meanwhile), under
/// [`guard`].
pub(crate) fn detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T> + Send,
) -> PyResult<T> {
    py.detach(|| guard(f)).map_err(PyErr::from)
}
