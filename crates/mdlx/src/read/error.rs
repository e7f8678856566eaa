//! The one error of [`read`](crate::read()): whichever reader failed, or a file that is no
//! model. MDL diagnostics are located (line, column, the line's text) when the error is
//! made, so the error needs no source to be printed.

use crate::formats::LooksLike;
#[cfg(feature = "gltf")]
use crate::gltf::GltfError;
use crate::mdl::error::LineIndex;
use crate::mdl::{Diagnostic, MdlErrorKind, MdlErrors, Severity};
use crate::mdx::MdxError;
use crate::ms3d::Ms3dError;
use std::fmt;

/// Why a file could not be read as a model.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The content is no model format this crate reads (or nothing at all).
    NotAModel {
        /// What it looks like instead.
        looks_like: LooksLike,
    },
    /// Binary MDX (of any family) that could not be decoded.
    Mdx(MdxError),
    /// MDL text with errors.
    Mdl(MdlError),
    /// Milkshape text with an error.
    Ms3d(Ms3dError),
    /// glTF that could not be loaded or imported.
    #[cfg(feature = "gltf")]
    Gltf(GltfError),
    /// A model format this build of the library leaves out (a Cargo feature that is off).
    NotBuilt {
        /// The format.
        format: crate::Format,
        /// The feature that reads it.
        feature: &'static str,
    },
}

impl Error {
    /// The error as the `mdlx` tool prints it, naming `file`:
    /// `FILE: not an MDX, MDL or Milkshape file (looks like a PNG image)`,
    /// `FILE: unexpected end of data: ... (at offset 0x1a4c) in chunk GEOS`,
    /// `error: FILE:LINE: ...` for Milkshape, `FILE: JSON.PATH: ... (at byte N)` for glTF,
    /// and for MDL `FILE: N error(s) in MDL` followed by every diagnostic with
    /// `--> FILE:LINE:COLUMN`, the line and a caret.
    pub fn render(&self, file: &str) -> String {
        match self {
            Error::Mdl(e) => format!("{file}: {}\n{}", e.summary(), e.render(file)),
            Error::Ms3d(e) => e.render(file),
            _ => format!("{file}: {self}"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotAModel {
                looks_like: LooksLike::Empty,
            } => f.write_str("not an MDX, MDL or Milkshape file (it is empty)"),
            Error::NotAModel { looks_like } => {
                write!(
                    f,
                    "not an MDX, MDL or Milkshape file (looks like {looks_like})"
                )
            }
            Error::Mdx(e) => write!(f, "{e}"),
            Error::Mdl(e) => write!(f, "{e}"),
            Error::Ms3d(e) => write!(f, "line {}: {e}", e.line),
            #[cfg(feature = "gltf")]
            Error::Gltf(e) => write!(f, "{e}"),
            Error::NotBuilt { format, feature } => write!(
                f,
                "{} is not read by this build (the library's `{feature}` feature is off)",
                format.info().name
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Mdx(e) => Some(e),
            Error::Ms3d(e) => Some(e),
            #[cfg(feature = "gltf")]
            Error::Gltf(e) => Some(e),
            _ => None,
        }
    }
}

impl From<MdxError> for Error {
    fn from(e: MdxError) -> Self {
        Error::Mdx(e)
    }
}

impl From<Ms3dError> for Error {
    fn from(e: Ms3dError) -> Self {
        Error::Ms3d(e)
    }
}

#[cfg(feature = "gltf")]
impl From<GltfError> for Error {
    fn from(e: GltfError) -> Self {
        Error::Gltf(e)
    }
}

/// The diagnostics of MDL text that could not be read: errors and warnings in source order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdlError {
    /// Every diagnostic, located.
    pub diagnostics: Vec<Located>,
    /// The reader stopped collecting at its limit ([`crate::mdl::error::MAX_DIAGNOSTICS`]).
    pub stopped_early: bool,
}

/// How many errors `Display` lists before `and N more`.
const SHOWN: usize = 3;

impl MdlError {
    /// Locates every diagnostic of `errors` in `src`, the text they were found in.
    pub fn new(errors: &MdlErrors, src: &[u8]) -> Self {
        MdlError {
            diagnostics: locate(&errors.diagnostics, src),
            stopped_early: errors.diagnostics.len() >= crate::mdl::error::MAX_DIAGNOSTICS,
        }
    }

    /// The errors (not the warnings).
    pub fn errors(&self) -> impl Iterator<Item = &Located> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }

    /// `N error(s) in MDL`.
    fn summary(&self) -> String {
        format!("{} error(s) in MDL", self.errors().count())
    }

    /// The diagnostics as text naming `file`, as [`Located::render`] does, one after the
    /// other: the first [`SHOWN_IN_FULL`](crate::mdl::error::SHOWN_IN_FULL), then how many
    /// more there are.
    pub fn render(&self, file: &str) -> String {
        let mut text =
            crate::mdl::error::render_cut(&self.diagnostics, |d| d.render(file), |d| d.severity);
        if self.stopped_early {
            text += &format!(
                "\nerror: stopped after {} diagnostics",
                crate::mdl::error::MAX_DIAGNOSTICS
            );
        }
        text
    }
}

impl fmt::Display for MdlError {
    /// `N error(s) in MDL: LINE:COL: message; ...` with the first few errors, then
    /// `and N more`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary())?;
        let n = self.errors().count();
        for (i, d) in self.errors().take(SHOWN).enumerate() {
            f.write_str(if i == 0 { ": " } else { "; " })?;
            write!(f, "{d}")?;
        }
        if n > SHOWN {
            write!(f, "; and {} more", n - SHOWN)?;
        }
        Ok(())
    }
}

impl std::error::Error for MdlError {}

/// Marks the file name in a rendering made before the name is known. A NUL stops the MDL
/// lexer, so the marker cannot come from a message.
const FILE_MARK: &str = "\0mdlx-file\0";

/// One MDL diagnostic with its place: line and column (from 1; the column counts
/// characters) and the text of the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// Error or warning.
    pub severity: Severity,
    /// What went wrong.
    pub kind: MdlErrorKind,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// The line's text (invalid UTF-8 replaced, cut to 240 bytes either side of the
    /// column), without its line break.
    pub source_line: String,
    /// The MDL reader's rendering with `FILE_MARK` for the file name.
    rendered: String,
}

/// Locates `diagnostics` in `src` (one index of the lines for all).
pub(crate) fn locate(diagnostics: &[Diagnostic], src: &[u8]) -> Vec<Located> {
    let lines = LineIndex::new(src);
    diagnostics
        .iter()
        .map(|d| {
            let (line, column, ls, le) = lines.locate(src, d.span.0);
            let start = d.span.0.min(src.len());
            let from = start.saturating_sub(240).max(ls);
            let to = (start + 240).min(le);
            let source_line = String::from_utf8_lossy(&src[from..to]);
            Located {
                severity: d.severity,
                kind: d.kind.clone(),
                line,
                column,
                source_line: source_line.trim_end_matches('\r').to_string(),
                rendered: d.render(src, FILE_MARK),
            }
        })
        .collect()
}

impl Located {
    /// The diagnostic as the MDL reader prints it: `error: message`,
    /// `--> FILE:LINE:COLUMN`, the line and a caret under the place.
    pub fn render(&self, file: &str) -> String {
        self.rendered.replacen(FILE_MARK, file, 1)
    }
}

impl fmt::Display for Located {
    /// `LINE:COLUMN: message`, warnings marked `warning:`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: ", self.line, self.column)?;
        if self.severity == Severity::Warning {
            f.write_str("warning: ")?;
        }
        write!(f, "{}", self.kind)
    }
}
