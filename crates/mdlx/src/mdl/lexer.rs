//! The MDL lexer: atoms (words, numbers, strings), braces, commas and line breaks, with
//! the bad characters, unterminated strings and comments it meets pushed as diagnostics.

use super::error::{push, Diagnostic, MdlErrorKind};
use super::parse::{Atom, AtomKind};

/// The lexer's position in the source.
pub(super) struct Lexer<'a> {
    pub(super) src: &'a [u8],
    pub(super) pos: usize,
    /// At the top level of a document: a `"` without its closing quote on the same line
    /// is one unexpected character (notes use quotes and apostrophes freely), not a string
    /// that swallows the rest of the file.
    pub(super) top: bool,
}

/// One token.
pub(super) enum Tok {
    Atom(Atom),
    Open(usize),
    Close(usize),
    Comma,
    Newline,
    End,
}

impl<'a> Lexer<'a> {
    #[inline(always)]
    pub(super) fn next(&mut self, diags: &mut Vec<Diagnostic>) -> Tok {
        let s = self.src;
        loop {
            let Some(&c) = s.get(self.pos) else {
                return Tok::End;
            };
            let start = self.pos;
            match c {
                b'\n' => {
                    self.pos += 1;
                    return Tok::Newline;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    self.pos += 1;
                    while self.pos < s.len() && CLASS[s[self.pos] as usize] & BLANK != 0 {
                        self.pos += 1;
                    }
                }
                b'{' => {
                    self.pos += 1;
                    return Tok::Open(start);
                }
                b'}' => {
                    self.pos += 1;
                    return Tok::Close(start);
                }
                b',' | b';' => {
                    self.pos += 1;
                    return Tok::Comma;
                }
                b':' => {
                    self.pos += 1;
                    return Tok::Atom(atom(AtomKind::Colon, start, self.pos));
                }
                b'/' if s.get(start + 1) == Some(&b'/') => {
                    self.pos = memchr(b'\n', &s[start..]).map_or(s.len(), |p| start + p);
                }
                b'/' if s.get(start + 1) == Some(&b'*') => {
                    match s[start + 2..].windows(2).position(|w| w == b"*/") {
                        Some(p) => self.pos = start + 2 + p + 2,
                        None => {
                            push(
                                diags,
                                Diagnostic::error(
                                    MdlErrorKind::UnterminatedComment,
                                    (start, start + 2),
                                ),
                            );
                            self.pos = s.len();
                        }
                    }
                }
                b'"' if self.top
                    && memchr(b'"', &s[start + 1..])
                        .is_none_or(|p| memchr(b'\n', &s[start + 1..start + 1 + p]).is_some()) =>
                {
                    push(
                        diags,
                        Diagnostic::error(MdlErrorKind::UnexpectedChar('"'), (start, start + 1)),
                    );
                    self.pos += 1;
                }
                b'"' => {
                    return match memchr(b'"', &s[start + 1..]) {
                        Some(p) => {
                            self.pos = start + 1 + p + 1;
                            Tok::Atom(atom(AtomKind::Str, start + 1, start + 1 + p))
                        }
                        None => {
                            push(
                                diags,
                                Diagnostic::error(
                                    MdlErrorKind::UnterminatedString,
                                    (start, start + 1),
                                ),
                            );
                            self.pos = s.len();
                            Tok::End
                        }
                    };
                }
                b'-' | b'+' | b'.' | b'0'..=b'9' => {
                    self.pos = scan(s, start + 1, NUMBER);
                    return Tok::Atom(atom(AtomKind::Number, start, self.pos));
                }
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    self.pos = scan(s, start + 1, WORD);
                    return Tok::Atom(atom(AtomKind::Word, start, self.pos));
                }
                // `static TextureID 3 <= 1,`: the game's 1100+ spelling of a texture slot
                // (the `wc3` crate and Retera's tools write it); a word of its own.
                b'<' if s[start..].starts_with(b"<=") => {
                    self.pos = start + 2;
                    return Tok::Atom(atom(AtomKind::Word, start, self.pos));
                }
                0xef if s[start..].starts_with(&[0xef, 0xbb, 0xbf]) => self.pos += 3,
                // Control bytes never appear in MDL text: this is binary data (a damaged
                // MDX, or not a model at all). One error, not one per byte.
                c if c < 0x20 || c == 0x7f => {
                    push(
                        diags,
                        Diagnostic::error(MdlErrorKind::BinaryData(c), (start, start + 1)),
                    );
                    self.pos = s.len();
                    return Tok::End;
                }
                _ => {
                    let ch = std::str::from_utf8(&s[start..(start + 4).min(s.len())])
                        .ok()
                        .or_else(|| std::str::from_utf8(&s[start..start + 1]).ok())
                        .and_then(|t| t.chars().next())
                        .unwrap_or(char::REPLACEMENT_CHARACTER);
                    let len = if ch == char::REPLACEMENT_CHARACTER {
                        1
                    } else {
                        ch.len_utf8()
                    };
                    push(
                        diags,
                        Diagnostic::error(MdlErrorKind::UnexpectedChar(ch), (start, start + len)),
                    );
                    self.pos += len;
                }
            }
        }
    }
}

fn atom(kind: AtomKind, start: usize, end: usize) -> Atom {
    Atom {
        kind,
        start: start as u32,
        end: end as u32,
    }
}

/// Character classes: bit flags per byte.
const BLANK: u8 = 1;
const NUMBER: u8 = 2;
const WORD: u8 = 4;

const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c) {
            t[c] = BLANK;
        }
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+' | b'#' | b'_') {
            t[c] |= NUMBER;
        }
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'#') {
            t[c] |= WORD;
        }
        c += 1;
    }
    t
};

/// Advances past the bytes of class `class`.
#[inline]
fn scan(s: &[u8], mut i: usize, class: u8) -> usize {
    while i < s.len() && CLASS[s[i] as usize] & class != 0 {
        i += 1;
    }
    i
}

fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| b == needle)
}

/// Says whether a word starts a top-level block (`Model`, `Geoset`, ...).
/// True if the next significant character (skipping blanks, line breaks and comments) is `{`.
pub(super) fn next_is_open(lx: &Lexer) -> bool {
    let s = lx.src;
    let mut i = lx.pos;
    while i < s.len() {
        match s[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'/' if s.get(i + 1) == Some(&b'/') => {
                i = memchr(b'\n', &s[i..]).map_or(s.len(), |p| i + p)
            }
            b'{' => return true,
            _ => return false,
        }
    }
    false
}

/// Skips a too-deep block up to its matching `}` without building items.
pub(super) fn skip_block(lx: &mut Lexer, diags: &mut Vec<Diagnostic>) {
    let mut depth = 1usize;
    loop {
        match lx.next(diags) {
            Tok::Open(_) => depth += 1,
            Tok::Close(_) => {
                depth -= 1;
                if depth == 0 {
                    return;
                }
            }
            Tok::End => return,
            _ => {}
        }
    }
}
