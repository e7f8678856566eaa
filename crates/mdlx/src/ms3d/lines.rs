//! Lines and fields. A Milkshape file is read line by line: this module finds the lines
//! (LF or CRLF, after an optional UTF-8 BOM), skips blank and `//` lines, splits a line into
//! an optional quoted name and whitespace-separated fields, and turns fields into numbers.
//! Every error names the line, the form the line should have and the field at fault.

use super::document::Text;
use super::error::{Ms3dError, Ms3dErrorKind};
use std::fmt;

/// The most fields any form has (the triangle line).
const MAX_FIELDS: usize = 8;

/// How much of a line or field an error message quotes.
const EXCERPT_CHARS: usize = 60;

/// One physical line, without its line ending.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line<'a> {
    /// The line number, from 1.
    pub no: usize,
    /// The bytes, without `\n` or `\r\n`.
    pub text: &'a [u8],
}

/// Whether a line holds data: not blank and not a `//` comment.
fn is_content(text: &[u8]) -> bool {
    let t = text.trim_ascii();
    !t.is_empty() && !t.starts_with(b"//")
}

/// The lines of a file after a UTF-8 BOM, each without its `\n` or `\r\n`.
#[derive(Clone)]
struct Lines<'a> {
    rest: &'a [u8],
}

fn lines(src: &[u8]) -> Lines<'_> {
    Lines {
        rest: src.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(src),
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        if self.rest.is_empty() {
            return None;
        }
        let (line, after) = match self.rest.iter().position(|&b| b == b'\n') {
            Some(i) => (&self.rest[..i], &self.rest[i + 1..]),
            None => (self.rest, &self.rest[self.rest.len()..]),
        };
        self.rest = after;
        Some(line.strip_suffix(b"\r").unwrap_or(line))
    }
}

/// The first data line of `src`, without reading further.
pub(super) fn first_content(src: &[u8]) -> Option<&[u8]> {
    lines(src).find(|l| is_content(l))
}

/// Walks the lines of a file, knowing how many data lines are left (so that a count can be
/// checked before anything is allocated for it).
pub(super) struct Cursor<'a> {
    lines: Lines<'a>,
    next_no: usize,
    content_left: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `src`.
    pub(super) fn new(src: &'a [u8]) -> Self {
        Cursor {
            lines: lines(src),
            next_no: 1,
            content_left: lines(src).filter(|l| is_content(l)).count(),
        }
    }

    /// The next physical line, whatever it holds.
    pub(super) fn next_raw(&mut self) -> Option<Line<'a>> {
        let text = self.lines.next()?;
        let line = Line {
            no: self.next_no,
            text,
        };
        self.next_no += 1;
        if is_content(text) {
            self.content_left -= 1;
        }
        Some(line)
    }

    /// The next data line, skipping blank and `//` lines.
    pub(super) fn next_content(&mut self) -> Option<Line<'a>> {
        loop {
            let line = self.next_raw()?;
            if is_content(line.text) {
                return Some(line);
            }
        }
    }

    /// The next data line, or an error saying the file ended where `form` was expected.
    pub(super) fn expect(&mut self, form: &Form) -> Result<Line<'a>, Ms3dError> {
        self.next_content().ok_or_else(|| self.end(form))
    }

    /// The error for a file that ends where `form` was expected.
    pub(super) fn end(&self, form: &Form) -> Ms3dError {
        let line = Line {
            no: self.next_no,
            text: b"",
        };
        error(&line, form, Ms3dErrorKind::UnexpectedEnd)
    }

    /// Data lines (not blank, not `//`) after the current one.
    pub(super) fn content_left(&self) -> usize {
        self.content_left
    }
}

/// The shape of one kind of line: what it is called and its fields. A quoted name is
/// written `"name"` (or another word in quotes) and is always the first field.
#[derive(Debug)]
pub(super) struct Form {
    /// What the line is, with an article: `a vertex line`.
    pub what: &'static str,
    /// The fields' names, in order.
    pub fields: &'static [&'static str],
}

impl Form {
    /// A form called `what` with the fields `fields`.
    pub(super) const fn new(what: &'static str, fields: &'static [&'static str]) -> Self {
        Form { what, fields }
    }

    fn has_name(&self) -> bool {
        self.fields.first().is_some_and(|f| f.starts_with('"'))
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} `{}`", self.what, self.fields.join(" "))
    }
}

/// The text an error quotes: trimmed, at most [`EXCERPT_CHARS`] characters, then `...`.
pub(super) fn excerpt(text: &[u8]) -> String {
    let text = text.trim_ascii();
    // Enough bytes for the characters shown, whatever their UTF-8 length.
    let head = &text[..text.len().min(EXCERPT_CHARS * 4)];
    let lossy = String::from_utf8_lossy(head);
    let mut chars = lossy.chars();
    let mut shown: String = chars.by_ref().take(EXCERPT_CHARS).collect();
    if chars.next().is_some() || head.len() < text.len() {
        shown.push_str("...");
    }
    shown
}

/// An error about `line`, which should have the form `form`.
pub(super) fn error(line: &Line, form: &Form, kind: Ms3dErrorKind) -> Ms3dError {
    Ms3dError {
        line: line.no,
        kind,
        expected: form.to_string(),
        found: excerpt(line.text),
    }
}

/// A line split into its fields according to its form.
pub(super) struct Fields<'a> {
    line: Line<'a>,
    form: &'static Form,
    /// The quoted name's bytes, when the form starts with one.
    name: &'a [u8],
    /// The other fields; the first `form.fields.len()` (less the name) are set.
    tokens: [&'a [u8]; MAX_FIELDS],
}

impl<'a> Fields<'a> {
    /// Splits `line`; the number of fields must be the form's.
    pub(super) fn split(line: Line<'a>, form: &'static Form) -> Result<Self, Ms3dError> {
        let mut rest = line.text.trim_ascii();
        let mut name: &[u8] = b"";
        if form.has_name() {
            let Some(inner) = rest.strip_prefix(b"\"") else {
                return Err(error(&line, form, Ms3dErrorKind::NotQuoted));
            };
            let Some(close) = inner.iter().position(|&b| b == b'"') else {
                return Err(error(&line, form, Ms3dErrorKind::UnterminatedName));
            };
            name = &inner[..close];
            rest = &inner[close + 1..];
        }
        let skip = usize::from(form.has_name());
        let want = form.fields.len() - skip;
        let mut tokens: [&[u8]; MAX_FIELDS] = [b""; MAX_FIELDS];
        let mut found = 0;
        for token in rest
            .split(u8::is_ascii_whitespace)
            .filter(|t| !t.is_empty())
        {
            if found < want {
                tokens[found] = token;
            }
            found += 1;
        }
        if found != want {
            let kind = Ms3dErrorKind::FieldCount {
                expected: form.fields.len(),
                found: found + skip,
            };
            return Err(error(&line, form, kind));
        }
        Ok(Fields {
            line,
            form,
            name,
            tokens,
        })
    }

    /// The quoted name (field 0 of a form that starts with one).
    pub(super) fn name(&self) -> Text {
        Text(self.name.to_vec())
    }

    /// The text of field `i` (counted in the form, the name included; not the name).
    pub(super) fn text(&self, i: usize) -> &'a [u8] {
        self.token(i).0
    }

    /// The text of field `i` (counted in the form, the name included) and its name.
    fn token(&self, i: usize) -> (&'a [u8], &'static str) {
        let skip = usize::from(self.form.has_name());
        (self.tokens[i - skip], self.form.fields[i])
    }

    /// Field `i` as an `i32`.
    pub(super) fn int(&self, i: usize) -> Result<i32, Ms3dError> {
        let (token, field) = self.token(i);
        parse_int(token).map_err(|bad| self.bad(bad, token, field, true))
    }

    /// Field `i` as a finite `f32`.
    pub(super) fn float(&self, i: usize) -> Result<f32, Ms3dError> {
        let (token, field) = self.token(i);
        parse_float(token).map_err(|bad| self.bad(bad, token, field, false))
    }

    fn bad(&self, bad: Bad, token: &[u8], field: &'static str, integer: bool) -> Ms3dError {
        error(&self.line, self.form, bad.kind(field, token, integer))
    }

    /// `N` floats from field `from` on.
    pub(super) fn floats<const N: usize>(&self, from: usize) -> Result<[f32; N], Ms3dError> {
        let mut out = [0.0; N];
        for (k, v) in out.iter_mut().enumerate() {
            *v = self.float(from + k)?;
        }
        Ok(out)
    }

    /// `N` integers from field `from` on.
    pub(super) fn ints<const N: usize>(&self, from: usize) -> Result<[i32; N], Ms3dError> {
        let mut out = [0; N];
        for (k, v) in out.iter_mut().enumerate() {
            *v = self.int(from + k)?;
        }
        Ok(out)
    }
}

/// Why a field is not the number its place needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bad {
    /// Not a number at all.
    NotANumber,
    /// NaN, an infinity, or a float beyond the f32 range.
    NotFinite,
    /// An integer beyond the 32-bit range.
    OutOfRange,
}

impl Bad {
    /// The error kind for field `field` holding `token`.
    pub(super) fn kind(self, field: &'static str, token: &[u8], integer: bool) -> Ms3dErrorKind {
        let token = excerpt(token);
        match self {
            Bad::NotANumber => Ms3dErrorKind::NotANumber {
                field,
                token,
                integer,
            },
            Bad::NotFinite => Ms3dErrorKind::NotFinite { field, token },
            Bad::OutOfRange => Ms3dErrorKind::OutOfRange { field, token },
        }
    }
}

/// Whether `t` is an optional sign and one or more ASCII digits.
pub(super) fn is_integer_text(t: &[u8]) -> bool {
    let digits = t.strip_prefix(b"-").or(t.strip_prefix(b"+")).unwrap_or(t);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

/// An integer field: an optional sign and decimal digits, within `i32`.
pub(super) fn parse_int(token: &[u8]) -> Result<i32, Bad> {
    if !is_integer_text(token) {
        return Err(Bad::NotANumber);
    }
    // A sign and ASCII digits are valid UTF-8: only the range can fail here.
    std::str::from_utf8(token)
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or(Bad::OutOfRange)
}

/// A float field: decimal text, with or without exponent, read to the nearest `f32`.
/// NaN, infinities (also MSVC's `1.#INF`, `-1.#IND`) and overflow are errors.
pub(super) fn parse_float(token: &[u8]) -> Result<f32, Bad> {
    let plain = token
        .iter()
        .all(|b| b.is_ascii_digit() || b"+-.eE".contains(b));
    let parsed = std::str::from_utf8(token)
        .ok()
        .filter(|_| plain)
        .and_then(|s| s.parse::<f32>().ok());
    match parsed {
        Some(v) if v.is_finite() => Ok(v),
        Some(_) => Err(Bad::NotFinite),
        None if looks_non_finite(token) => Err(Bad::NotFinite),
        None => Err(Bad::NotANumber),
    }
}

/// Whether a token spells NaN or infinity: `nan`, `inf`, `infinity` (any case, signed) or
/// MSVC's `1.#INF`, `1.#IND`, `1.#QNAN`.
fn looks_non_finite(token: &[u8]) -> bool {
    let t = token.to_ascii_lowercase();
    let t = t.strip_prefix(b"-").or(t.strip_prefix(b"+")).unwrap_or(&t);
    matches!(t, b"nan" | b"inf" | b"infinity") || token.contains(&b'#')
}
