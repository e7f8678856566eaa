//! Errors and warnings of the text codec. Each holds a byte span; it becomes
//! `file:line:column` with the offending line and a caret only when printed.

use std::fmt;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The file cannot be read as it is.
    Error,
    /// The file was read; something was odd or was ignored.
    Warning,
}

/// What went wrong, independent of where. Tests match on this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MdlErrorKind {
    /// A character that cannot start any token.
    UnexpectedChar(char),
    /// A control byte: the input is binary, not MDL text. Reading stops there.
    BinaryData(u8),
    /// A string that runs to the end of the file.
    UnterminatedString,
    /// A `/*` comment that is never closed.
    UnterminatedComment,
    /// A `}` with no block open.
    UnmatchedClose,
    /// A `{` that is never closed.
    UnclosedBlock,
    /// A top-level block (`next`, here) that starts while a block is still open: the `{`
    /// of `block` at `line`:`column` is never closed. The reader closes it here and reads
    /// on, so the blocks after it are not all reported as nested in it.
    UnclosedBefore {
        /// Line of the `{` never closed (1-based).
        line: usize,
        /// Column of that `{` (1-based).
        column: usize,
        /// The block that is never closed.
        block: String,
        /// The top-level block that starts inside it.
        next: String,
    },
    /// Blocks nested deeper than the parser allows.
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// A keyword this reader does not know in this block.
    UnknownKeyword {
        /// The keyword.
        keyword: String,
        /// The block it is in.
        block: &'static str,
        /// The keywords the block takes.
        expected: Vec<&'static str>,
    },
    /// Something other than what the grammar allows here.
    Expected {
        /// What was expected.
        expected: String,
        /// What was found.
        found: String,
    },
    /// A number that does not fit its field.
    OutOfRange {
        /// The value.
        value: String,
        /// The field.
        field: &'static str,
    },
    /// The wrong count of values.
    WrongCount {
        /// How many values were expected.
        expected: usize,
        /// How many there are.
        found: usize,
        /// What the values are for.
        what: String,
    },
    /// No `Version` block (read as 800).
    MissingVersion,
    /// No `Model` block: a fragment (a record or two, as parser test files hold), not a
    /// model the game can load. Read with an empty model header.
    MissingModel,
    /// Nothing in the text is an MDL block (an empty file, a README, binary data): not an
    /// MDL file at all. It is then the only diagnostic.
    NotMdl,
    /// A field that MDX stores only as a track, given a static value (`static Visibility
    /// 1`). Read as a track that holds the value throughout.
    TrackOnly {
        /// The keyword.
        keyword: String,
        /// The block it is in.
        block: &'static str,
    },
    /// Lines of text at the top level that start no block (notes pasted between blocks,
    /// `Created by ...`). Skipped.
    TextOutsideBlocks {
        /// How many lines of text.
        lines: usize,
    },
    /// A keyword this block knows, written in a form it does not accept.
    WrongForm {
        /// The keyword.
        keyword: String,
        /// The block it is in.
        block: &'static str,
    },
    /// Something the reader accepted but that looks wrong.
    Note(String),
}

impl MdlErrorKind {
    /// What the lenient reader does about it, for the kinds it reads past with a warning
    /// (the strict reader refuses them instead).
    pub fn lenient_action(&self) -> Option<&'static str> {
        use MdlErrorKind::*;
        Some(match self {
            MissingVersion => "reading as version 800",
            MissingModel => "read with an empty model header (no name, zero extent)",
            TrackOnly { .. } => {
                "read as a track that holds the value in every sequence (DontInterp keys at 0 and at each sequence's start)"
            }
            TextOutsideBlocks { .. } => "skipped",
            _ => return None,
        })
    }
}

impl fmt::Display for MdlErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use MdlErrorKind::*;
        match self {
            UnexpectedChar(c) => write!(f, "unexpected character {c:?}"),
            BinaryData(b) => write!(
                f,
                "byte {b:#04x} is binary data, not MDL text (a damaged MDX file, or not a model?); reading stopped here"
            ),
            UnterminatedString => write!(
                f,
                "unterminated string: no closing `\"` before the end of the file"
            ),
            UnterminatedComment => write!(f, "unterminated comment: no closing `*/`"),
            UnmatchedClose => write!(f, "`}}` without a matching `{{`"),
            UnclosedBlock => write!(f, "`{{` is never closed"),
            UnclosedBefore {
                line,
                column,
                block,
                next,
            } => {
                let of = if block.is_empty() {
                    String::new()
                } else {
                    format!(" of `{block}`")
                };
                write!(
                    f,
                    "this `{{`{of} at {line}:{column} is never closed: `{next}` starts a new top-level block here, so a `}}` is missing before it"
                )
            }
            TooDeep { limit } => write!(f, "blocks nested deeper than {limit} levels"),
            UnknownKeyword { keyword, block, .. } => {
                write!(f, "unknown keyword `{keyword}` in {block}")
            }
            Expected { expected, found } => write!(f, "expected {expected}, found {found}"),
            OutOfRange { value, field } => write!(f, "{value} is out of range for {field}"),
            WrongCount {
                expected,
                found,
                what,
            } => {
                write!(f, "expected {expected} number(s) for {what}, found {found}")
            }
            MissingVersion => write!(f, "no Version block"),
            MissingModel => write!(
                f,
                "no Model block: a fragment, not a model the game can load"
            ),
            NotMdl => write!(
                f,
                "not an MDL file: no MDL block (such as `Version {{`, `Model \"name\" {{` or `Geoset {{`) in it"
            ),
            TrackOnly { keyword, block } => write!(
                f,
                "`{keyword}` in {block} can only be animated: MDX stores it only as a track, not as a static value"
            ),
            TextOutsideBlocks { lines } => {
                let s = if *lines == 1 { "" } else { "s" };
                write!(f, "{lines} line{s} of text outside any block")
            }
            WrongForm { keyword, block } => {
                write!(f, "`{keyword}` is known in {block}, but not in this form")
            }
            Note(s) => f.write_str(s),
        }
    }
}

/// One diagnostic: kind, severity and the byte span it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What went wrong.
    pub kind: MdlErrorKind,
    /// Error or warning.
    pub severity: Severity,
    /// Byte range in the source.
    pub span: (usize, usize),
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(kind: MdlErrorKind, span: (usize, usize)) -> Self {
        Diagnostic {
            kind,
            severity: Severity::Error,
            span,
        }
    }

    /// A warning at `span`.
    pub fn warning(kind: MdlErrorKind, span: (usize, usize)) -> Self {
        Diagnostic {
            kind,
            severity: Severity::Warning,
            span,
        }
    }

    /// The message: the kind, and for a warning what the reader did about it.
    pub fn message(&self) -> String {
        match (self.severity, self.kind.lenient_action()) {
            (Severity::Warning, Some(action)) => format!("{}; {action}", self.kind),
            _ => self.kind.to_string(),
        }
    }

    /// Line and column (both from 1; the column counts characters) of the span's start.
    pub fn line_col(&self, src: &[u8]) -> (usize, usize) {
        let (line, col, _, _) = LineIndex::new(src).locate(src, self.span.0);
        (line, col)
    }

    /// The diagnostic as text: header, `--> file:line:col`, the line and a caret, and
    /// what was expected. Very long lines are cut around the column.
    pub fn render(&self, src: &[u8], file: &str) -> String {
        self.render_with(src, file, &LineIndex::new(src))
    }

    fn render_with(&self, src: &[u8], file: &str, lines: &LineIndex) -> String {
        if self.kind == MdlErrorKind::NotMdl {
            // No line to point at: the whole input is the problem (and may be binary).
            return format!("error: {file}: {}", self.message());
        }
        let start = self.span.0.min(src.len());
        let (line, col, ls, le) = lines.locate(src, start);
        // A window of the line around the column, cut at character boundaries.
        let mut from = start.saturating_sub(240).max(ls);
        while from > ls && from < src.len() && src[from] & 0xc0 == 0x80 {
            from -= 1;
        }
        let to = (start + 240).min(le);
        let before = String::from_utf8_lossy(&src[from..start]).replace('\t', " ");
        let after = String::from_utf8_lossy(&src[start..to]).replace('\t', " ");
        let after = after.trim_end_matches('\r');
        let prefix = if from > ls { "..." } else { "" };
        let suffix = if to < le { "..." } else { "" };
        let caret_at = prefix.len() + before.chars().count();
        let width = self
            .span
            .1
            .saturating_sub(self.span.0)
            .clamp(1, 40)
            .min(after.chars().count().max(1));
        let gutter = " ".repeat(line.to_string().len());
        let label = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut s = format!(
            "{label}: {}\n{gutter}--> {file}:{line}:{col}\n{gutter} |\n",
            self.message()
        );
        s += &format!(
            "{line} | {prefix}{before}{after}{suffix}\n{gutter} | {}{}",
            " ".repeat(caret_at),
            "^".repeat(width)
        );
        if let MdlErrorKind::UnknownKeyword { expected, .. } = &self.kind {
            if !expected.is_empty() {
                s += &format!("\n{gutter} = expected one of: {}", expected.join(", "));
            }
        }
        s
    }
}

/// At most this many diagnostics are kept from one read (hostile input cannot make the
/// list, or its rendering, grow with the file).
pub const MAX_DIAGNOSTICS: usize = 200;

/// Adds a diagnostic unless the list is full.
#[inline]
pub fn push(diags: &mut Vec<Diagnostic>, d: Diagnostic) {
    if diags.len() < MAX_DIAGNOSTICS {
        diags.push(d);
    }
}

/// How many diagnostics a rendering shows in full; the rest are counted
/// ([`more_line`]). Later errors often follow from the first (a missing `}`), and a few
/// hundred of them bury it.
pub const SHOWN_IN_FULL: usize = 10;

/// `items` rendered one a line, the first [`SHOWN_IN_FULL`] of them, then the
/// [`more_line`] of the rest.
pub(crate) fn render_cut<T>(
    items: &[T],
    render: impl Fn(&T) -> String,
    severity: impl Fn(&T) -> Severity,
) -> String {
    let mut text = (items.iter().take(SHOWN_IN_FULL))
        .map(render)
        .collect::<Vec<_>>()
        .join("\n");
    if let Some(more) = more_line(items.iter().skip(SHOWN_IN_FULL).map(severity)) {
        text.push('\n');
        text += &more;
    }
    text
}

/// The line that ends a rendering cut at [`SHOWN_IN_FULL`]: `and 61 more error(s) and 2
/// warning(s), not shown (fix the first ones and read again)`; `None` when nothing is left.
pub fn more_line(rest: impl Iterator<Item = Severity>) -> Option<String> {
    let (mut errors, mut warnings) = (0, 0);
    for s in rest {
        match s {
            Severity::Error => errors += 1,
            Severity::Warning => warnings += 1,
        }
    }
    let what = match (errors, warnings) {
        (0, 0) => return None,
        (e, 0) => format!("{e} more error(s)"),
        (0, w) => format!("{w} more warning(s)"),
        (e, w) => format!("{e} more error(s) and {w} warning(s)"),
    };
    Some(format!(
        "... and {what}, not shown (fix the first ones and read again: later errors often follow from them)"
    ))
}

/// The diagnostics of one read: all errors (if any) and warnings, in source order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdlErrors {
    /// The diagnostics.
    pub diagnostics: Vec<Diagnostic>,
}

impl MdlErrors {
    /// Renders the first [`SHOWN_IN_FULL`] diagnostics against the source, then how many
    /// more there are ([`more_line`]).
    pub fn render(&self, src: &[u8], file: &str) -> String {
        let mut text = self.render_all(src, file);
        if self.diagnostics.len() >= MAX_DIAGNOSTICS {
            text += &format!("\nerror: stopped after {MAX_DIAGNOSTICS} diagnostics");
        }
        text
    }

    fn render_all(&self, src: &[u8], file: &str) -> String {
        let lines = LineIndex::new(src);
        render_cut(
            &self.diagnostics,
            |d| d.render_with(src, file, &lines),
            |d| d.severity,
        )
    }

    /// The errors only.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }
}

impl fmt::Display for MdlErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.errors().count();
        write!(f, "{n} error(s) in MDL")?;
        if let Some(d) = self.errors().next() {
            write!(f, ": {} (at byte {})", d.kind, d.span.0)?;
        }
        Ok(())
    }
}

impl std::error::Error for MdlErrors {}

/// Where each line starts, found once per rendering.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes the lines of `src`.
    pub fn new(src: &[u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(
            src.iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// Line (from 1), column in characters (from 1), and the line's byte range.
    pub fn locate(&self, src: &[u8], pos: usize) -> (usize, usize, usize, usize) {
        let pos = pos.min(src.len());
        let n = self.starts.partition_point(|&s| s <= pos);
        let ls = self.starts[n - 1];
        let le = self.starts.get(n).map_or(src.len(), |&s| s - 1);
        let col = src[ls..pos].iter().filter(|&&b| b & 0xc0 != 0x80).count() + 1;
        (n, col, ls, le)
    }
}
