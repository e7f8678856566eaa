//! Errors of the Milkshape codec. A read error names the line (from 1), what that line
//! should look like and what it holds; a write error names the place in the document.

use std::fmt;

/// What went wrong while reading, independent of where. Tests match on this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ms3dErrorKind {
    /// The line has the wrong number of fields.
    FieldCount {
        /// Fields the line should have (a quoted name counts as one).
        expected: usize,
        /// Fields it has.
        found: usize,
    },
    /// A field that should be a number is not one.
    NotANumber {
        /// The field's name in the line's form.
        field: &'static str,
        /// The field's text (cut if long).
        token: String,
        /// Whether an integer was wanted.
        integer: bool,
    },
    /// A float field holds NaN, an infinity or a value beyond the f32 range.
    NotFinite {
        /// The field's name in the line's form.
        field: &'static str,
        /// The field's text (cut if long).
        token: String,
    },
    /// An integer field beyond the 32-bit range.
    OutOfRange {
        /// The field's name in the line's form.
        field: &'static str,
        /// The field's text (cut if long).
        token: String,
    },
    /// A name that does not start with `"`.
    NotQuoted,
    /// A name with no closing `"` on its line.
    UnterminatedName,
    /// A count below zero.
    NegativeCount,
    /// A count that needs more lines than the file has left.
    CountTooLarge {
        /// The count as written (cut if long).
        count: String,
        /// What is counted, plural (`vertices`).
        what: &'static str,
        /// Lines left after the count (blank and `//` lines not counted).
        remain: usize,
    },
    /// The file ends where a line was expected.
    UnexpectedEnd,
    /// A top-level line that is not a block line `Name: number`.
    NotABlock,
    /// A block line with a name this reader does not know.
    UnknownBlock {
        /// The name before the `:`.
        name: String,
    },
    /// A block that appeared before: each kind of block appears once.
    DuplicateBlock {
        /// The block's name.
        name: &'static str,
        /// The line of the first one.
        first_line: usize,
    },
    /// `ModelComment:` with a count other than 0 or 1.
    ModelCommentCount,
    /// The file holds no block at all.
    NoBlocks,
}

/// A Milkshape read error: the line, what went wrong, what the line should look like and
/// what it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ms3dError {
    /// The line, counted from 1 (at the end of the file: the line after the last).
    pub line: usize,
    /// What went wrong.
    pub kind: Ms3dErrorKind,
    /// What the line should be, e.g. ``a vertex line `flags x y z u v bone` ``.
    pub expected: String,
    /// The line as found (trimmed, cut if long, invalid UTF-8 replaced); empty at the end
    /// of the file.
    pub found: String,
}

/// Block names in the order the message lists them.
const BLOCK_NAMES: &str = "Frames, Frame, Meshes, Materials, Bones, GroupComments, \
                           MaterialComments, BoneComments, ModelComment";

impl Ms3dError {
    /// The error as one line of text: `error: FILE:LINE: message`.
    pub fn render(&self, file: &str) -> String {
        format!("error: {file}:{}: {self}", self.line)
    }

    fn expected_found(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}, found `{}`", self.expected, self.found)
    }

    /// `expected FORM, found `LINE`: `FIELD` is `TOKEN``, without repeating a line that
    /// is the one field.
    fn field_is(&self, f: &mut fmt::Formatter<'_>, field: &str, token: &str) -> fmt::Result {
        self.expected_found(f)?;
        if token != self.found {
            write!(f, ": `{field}` is `{token}`")?;
        }
        Ok(())
    }
}

impl fmt::Display for Ms3dError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Ms3dErrorKind::*;
        match &self.kind {
            FieldCount { expected, found } => {
                self.expected_found(f)?;
                let fields = if *found == 1 { "field" } else { "fields" };
                write!(f, " ({found} {fields}, not {expected})")
            }
            NotANumber {
                field,
                token,
                integer,
            } => {
                self.field_is(f, field, token)?;
                let want = if *integer { "an integer" } else { "a number" };
                write!(f, ", not {want}")
            }
            NotFinite { field, token } => {
                self.field_is(f, field, token)?;
                f.write_str("; NaN, infinities and numbers beyond the f32 range are refused")
            }
            OutOfRange { field, token } => {
                self.field_is(f, field, token)?;
                f.write_str(", beyond the 32-bit integer range")
            }
            NotQuoted => {
                self.expected_found(f)?;
                f.write_str(": the name must be enclosed in `\"`")
            }
            UnterminatedName => {
                self.expected_found(f)?;
                f.write_str(": the name has no closing `\"`")
            }
            NegativeCount => {
                self.expected_found(f)?;
                f.write_str(": a count cannot be negative")
            }
            CountTooLarge {
                count,
                what,
                remain,
            } => {
                let what = if count == "1" { singular(what) } else { what };
                let lines = if *remain == 1 {
                    "line remains"
                } else {
                    "lines remain"
                };
                write!(f, "{count} {what} declared but only {remain} {lines}")
            }
            UnexpectedEnd => write!(f, "the file ends where {} was expected", self.expected),
            NotABlock => self.expected_found(f),
            UnknownBlock { name } => write!(
                f,
                "unknown block `{name}:` in `{}`; the blocks are {BLOCK_NAMES}",
                self.found
            ),
            DuplicateBlock { name, first_line } => write!(
                f,
                "a second `{name}:` block; the first is at line {first_line} (each block \
                 appears once)"
            ),
            ModelCommentCount => {
                self.expected_found(f)?;
                f.write_str(": a model has 0 or 1 comment")
            }
            NoBlocks => write!(f, "the file has no blocks; expected {}", self.expected),
        }
    }
}

impl std::error::Error for Ms3dError {}

/// The singular of a counted thing's name.
fn singular(plural: &'static str) -> &'static str {
    match plural {
        "vertices" => "vertex",
        "meshes" => "mesh",
        "materials" => "material",
        "bones" => "bone",
        "normals" => "normal",
        "triangles" => "triangle",
        "position keys" => "position key",
        "rotation keys" => "rotation key",
        "comments" => "comment",
        other => other,
    }
}

/// Why a document cannot be written.
#[derive(Clone, Debug, PartialEq)]
pub enum Ms3dWriteErrorKind {
    /// A float that is NaN or infinite: the text format has no spelling for it.
    NotFinite(f32),
    /// A name or path holding `"`: names are quoted and the format has no escape.
    Quote,
    /// Text holding a line break (CR or LF): every value sits on one line.
    LineBreak,
}

/// A document that cannot be written, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Ms3dWriteError {
    /// Where in the document, e.g. `meshes[0].vertices[3].position[0]`.
    pub path: String,
    /// Why.
    pub kind: Ms3dWriteErrorKind,
}

impl fmt::Display for Ms3dWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write {} as Milkshape text: ", self.path)?;
        match self.kind {
            Ms3dWriteErrorKind::NotFinite(v) => write!(f, "{v} is not a finite number"),
            Ms3dWriteErrorKind::Quote => f.write_str("it holds a `\"`, which cannot be quoted"),
            Ms3dWriteErrorKind::LineBreak => f.write_str("it holds a line break"),
        }
    }
}

impl std::error::Error for Ms3dWriteError {}
