//! MDL text to a tree of items, without knowing any keyword.
//!
//! An *item* is a run of atoms (words, numbers, strings, `:`) optionally followed by a
//! `{ ... }` body of items; items end at `,`, after a body, or at a line break that is not
//! followed by `{`. So `Anim "Stand" {`, `Interval { 0, 1000 },`, `0: { 1, 2, 3 },` and a
//! bare `0,` inside a list are all items. Comments (`//` to the end of the line, `/* */`)
//! and a UTF-8 BOM are skipped; CRLF is fine. Nesting is done with an explicit stack and a
//! depth limit, so hostile input cannot overflow the call stack. Items live in one flat
//! vector in document order; each knows where its subtree ends.

use super::error::{push, Diagnostic, MdlErrorKind};
use super::lexer::{next_is_open, skip_block, Lexer, Tok};

/// The deepest nesting accepted (real files use at most 5 levels).
pub(crate) const MAX_DEPTH: usize = 64;

/// What an atom is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AtomKind {
    /// A keyword or bare word (`Bone`, `static`, `Linear`).
    Word,
    /// A number as written (`-1.5e-05`, `42`, `nan`, `inf` are words until read as numbers).
    Number,
    /// A quoted string; the span excludes the quotes.
    Str,
    /// `:` (between a key time and its value).
    Colon,
}

/// One atom: its kind and byte span.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Atom {
    /// The kind.
    pub kind: AtomKind,
    /// Start byte.
    pub start: u32,
    /// End byte (exclusive).
    pub end: u32,
}

/// One item of the tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Item {
    /// Index of the first atom.
    pub atoms: u32,
    /// Number of atoms.
    pub natoms: u32,
    /// Whether a `{ }` body follows the atoms.
    pub body: bool,
    /// Index just past the item's subtree (its next sibling, if any).
    pub end: u32,
    /// Byte offset where the item starts.
    pub start: u32,
}

/// A parsed document: the source, its atoms and its items. Item 0 is the root.
pub(crate) struct Tree<'a> {
    /// The source text.
    pub src: &'a [u8],
    /// All atoms in order.
    pub atoms: Vec<Atom>,
    /// All items in document order; item 0 is the root, whose body is the file.
    pub items: Vec<Item>,
    /// Text outside any block that [`parse_document`] left out of the tree.
    pub loose: Vec<LooseRun>,
}

/// Consecutive top-level lines that start no block (only blank lines and comments between
/// them), left out of the tree by [`parse_document`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LooseRun {
    /// Byte offset of the first line's first atom.
    pub start: usize,
    /// Byte offset just past the last line's last atom.
    pub end: usize,
    /// How many lines hold the skipped text.
    pub lines: usize,
}

/// Where a top-level line's atoms began, to drop them if the line turns out to be loose
/// text.
struct LineMark {
    items: usize,
    atoms: usize,
    diags: usize,
    start: usize,
}

pub(crate) type BlockWords = dyn Fn(&[u8]) -> bool;

/// Parses `src` into a tree. Structural problems (unbalanced braces, bad characters,
/// unterminated strings) are pushed to `diags`; the tree is always usable.
pub(crate) fn parse<'a>(src: &'a [u8], diags: &mut Vec<Diagnostic>) -> Tree<'a> {
    parse_with(src, diags, None)
}

/// Parses a whole document like [`parse`], but leaves out the text at the top level that
/// belongs to no block: a line whose items get no `{ }` body, unless it looks like the
/// header of a block that lost its brace (a word `starts_block` accepts, then at most a
/// name or a number), which stays to be reported. Such lines, and the complaints about
/// their characters, go to [`Tree::loose`] instead, one entry per run of lines.
pub(crate) fn parse_document<'a>(
    src: &'a [u8],
    diags: &mut Vec<Diagnostic>,
    starts_block: &BlockWords,
) -> Tree<'a> {
    parse_with(src, diags, Some(starts_block))
}

/// Error recovery for a missing `}`: item `i`, whose `{` was just read inside an open
/// block, is the header of a top-level block (a word `starts_block` accepts, at the start of
/// a line, in its first column): a `}` is missing before it. Every open block is closed just
/// before `i`, which becomes a top-level block, and one error points here and names the
/// outermost open `{` with its line and column. Without this, every later block would be read
/// as nested in the unclosed one, with one error for each.
fn recover_at_top_block(
    src: &[u8],
    (atoms, items): (&[Atom], &mut [Item]),
    stack: &mut Vec<(usize, usize)>,
    i: usize,
    starts_block: &BlockWords,
    diags: &mut Vec<Diagnostic>,
    lines: &mut (usize, usize),
) {
    let item = items[i];
    let Some(first) = atoms.get(item.atoms as usize).filter(|_| item.natoms > 0) else {
        return;
    };
    let start = first.start as usize;
    let word = &src[start..first.end as usize];
    let at_line_start = start == 0 || src[start - 1] == b'\n';
    if first.kind != AtomKind::Word || !at_line_start || !starts_block(word) {
        return;
    }
    let (outer, open_at) = stack[1];
    for (j, _) in stack.drain(1..) {
        items[j].end = i as u32;
    }
    if diags.len() >= super::error::MAX_DIAGNOSTICS {
        return;
    }
    let line_start = src[..open_at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    // `lines`: a byte offset and the line breaks before it. Each recovery's `{` comes after
    // the last one's, so the file is counted through once, however many recoveries.
    if lines.0 > line_start {
        *lines = (0, 0);
    }
    lines.1 += src[lines.0..line_start]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    lines.0 = line_start;
    let line = 1 + lines.1;
    let column = 1 + src[line_start..open_at]
        .iter()
        .filter(|&&b| b & 0xc0 != 0x80)
        .count();
    let block = atoms
        .get(items[outer].atoms as usize)
        .filter(|_| items[outer].natoms > 0)
        .map_or_else(String::new, |a| {
            String::from_utf8_lossy(&src[a.start as usize..a.end as usize]).into_owned()
        });
    push(
        diags,
        Diagnostic::error(
            MdlErrorKind::UnclosedBefore {
                line,
                column,
                block,
                next: String::from_utf8_lossy(word).into_owned(),
            },
            (start, first.end as usize),
        ),
    );
}

fn parse_with<'a>(
    src: &'a [u8],
    diags: &mut Vec<Diagnostic>,
    starts_block: Option<&BlockWords>,
) -> Tree<'a> {
    if src.len() > u32::MAX as usize - 1 {
        push(
            diags,
            Diagnostic::error(MdlErrorKind::Note("file larger than 4 GiB".into()), (0, 0)),
        );
        return Tree {
            src,
            atoms: Vec::new(),
            items: vec![Item {
                atoms: 0,
                natoms: 0,
                body: true,
                end: 1,
                start: 0,
            }],
            loose: Vec::new(),
        };
    }
    let mut lx = Lexer {
        src,
        pos: 0,
        top: false,
    };
    let mut b = Builder::new(src);
    loop {
        lx.top = starts_block.is_some() && b.stack.len() == 1;
        let diags_before = diags.len();
        let tok = lx.next(diags);
        if lx.top && b.line.is_none() {
            b.mark_line(&tok, diags, diags_before);
        }
        match (&b.line, starts_block, &tok) {
            (None, _, _) | (_, None, _) => {}
            (Some(_), _, Tok::Open(_) | Tok::Close(_)) => b.line = None,
            (Some(_), _, Tok::Newline) if b.current.is_some() && next_is_open(&lx) => {}
            (Some(_), Some(starts_block), Tok::Newline | Tok::End) => {
                if let Some(mark) = b.line.take() {
                    if is_loose(src, &b.atoms[mark.atoms..], starts_block) {
                        b.drop_loose_line(mark, diags);
                    }
                }
            }
            _ => {}
        }
        match tok {
            Tok::Atom(a) => b.atom(a),
            Tok::Open(at) => b.open(at, &mut lx, src, starts_block, diags),
            Tok::Close(at) => b.close(at, diags),
            Tok::Comma => {
                b.run = if b.numeric { b.current } else { None };
                close_current(&mut b.current, &mut b.items);
            }
            Tok::Newline => {
                // A line break ends an item unless a `{` follows (Allman-style blocks).
                if b.current.is_some() && !next_is_open(&lx) {
                    close_current(&mut b.current, &mut b.items);
                }
            }
            Tok::End => break,
        }
    }
    b.finish(src, diags)
}

/// The tree [`parse_with`] is building, and where it stands.
struct Builder {
    atoms: Vec<Atom>,
    items: Vec<Item>,
    /// Stack of open items (indices) with the byte offset of their `{`.
    stack: Vec<(usize, usize)>,
    /// The item being built (atoms seen, no body yet).
    current: Option<usize>,
    /// Whether the current item holds only numbers so far.
    numeric: bool,
    /// A numbers-only item just ended by a comma: a number that follows joins it, so a
    /// list of values (`{ 0, 0, 1 }`, a long VertexGroup) is one item, not one per value.
    run: Option<usize>,
    /// Document mode: the current top-level line's start, while it has opened no block.
    line: Option<LineMark>,
    loose: Vec<LooseRun>,
    /// The item count when the last loose line was dropped: unchanged means no item came
    /// between, and the next loose line continues the run.
    loose_items: usize,
    /// Line breaks counted so far by error recovery (see `recover_at_top_block`).
    line_count: (usize, usize),
}

impl Builder {
    fn new(src: &[u8]) -> Builder {
        let mut items = Vec::with_capacity(src.len() / 5);
        items.push(Item {
            atoms: 0,
            natoms: 0,
            body: true,
            end: 0,
            start: 0,
        });
        Builder {
            atoms: Vec::with_capacity(src.len() / 4),
            items,
            stack: vec![(0, 0)],
            current: None,
            numeric: false,
            run: None,
            line: None,
            loose: Vec::new(),
            loose_items: usize::MAX,
            line_count: (0, 0),
        }
    }

    /// A top-level line starts with its first atom or its first bad character.
    fn mark_line(&mut self, tok: &Tok, diags: &[Diagnostic], diags_before: usize) {
        let first_bad = diags[diags_before..].first().map(|d| d.span.0);
        let first_atom = match tok {
            Tok::Atom(a) => Some(a.start as usize),
            _ => None,
        };
        if let Some(start) = first_bad.or(first_atom) {
            self.line = Some(LineMark {
                items: self.items.len(),
                atoms: self.atoms.len(),
                diags: diags_before,
                start,
            });
        }
    }

    /// Drops the loose top-level line that began at `mark`, and counts it in a run.
    fn drop_loose_line(&mut self, mark: LineMark, diags: &mut Vec<Diagnostic>) {
        let end = self.atoms[mark.atoms..]
            .last()
            .map(|a| a.end as usize)
            .into_iter()
            .chain(diags[mark.diags..].iter().map(|d| d.span.1))
            .max()
            .unwrap_or(mark.start);
        self.items.truncate(mark.items);
        self.atoms.truncate(mark.atoms);
        // Complaints about the characters of the dropped text go with it.
        let mut n = 0;
        diags.retain(|d| {
            n += 1;
            n <= mark.diags || !matches!(d.kind, MdlErrorKind::UnexpectedChar(_))
        });
        self.current = None;
        self.run = None;
        let binary = diags[mark.diags.min(diags.len())..]
            .iter()
            .any(|d| matches!(d.kind, MdlErrorKind::BinaryData(_)));
        match self.loose.last_mut() {
            // Binary data, not text: its own error says so.
            _ if binary => {}
            Some(r) if self.loose_items == mark.items => {
                r.end = end;
                r.lines += 1;
            }
            _ => self.loose.push(LooseRun {
                start: mark.start,
                end,
                lines: 1,
            }),
        }
        self.loose_items = mark.items;
    }

    #[inline(always)]
    fn atom(&mut self, a: Atom) {
        if self.current.is_none() {
            match self.run.take() {
                Some(r) if a.kind == AtomKind::Number => self.current = Some(r),
                _ => self.numeric = a.kind == AtomKind::Number,
            }
        }
        self.numeric &= a.kind == AtomKind::Number;
        let items = &mut self.items;
        let atoms = &self.atoms;
        let i = *self.current.get_or_insert_with(|| {
            items.push(Item {
                atoms: atoms.len() as u32,
                natoms: 0,
                body: false,
                end: 0,
                start: a.start,
            });
            items.len() - 1
        });
        self.atoms.push(a);
        self.items[i].natoms += 1;
    }

    fn open(
        &mut self,
        at: usize,
        lx: &mut Lexer,
        src: &[u8],
        starts_block: Option<&BlockWords>,
        diags: &mut Vec<Diagnostic>,
    ) {
        self.run = None;
        let (items, atoms) = (&mut self.items, &self.atoms);
        let i = self.current.take().unwrap_or_else(|| {
            items.push(Item {
                atoms: atoms.len() as u32,
                natoms: 0,
                body: false,
                end: 0,
                start: at as u32,
            });
            items.len() - 1
        });
        self.items[i].body = true;
        if let Some(starts_block) = starts_block.filter(|_| self.stack.len() > 1) {
            recover_at_top_block(
                src,
                (&self.atoms, &mut self.items),
                &mut self.stack,
                i,
                starts_block,
                diags,
                &mut self.line_count,
            );
        }
        if self.stack.len() > MAX_DEPTH {
            push(
                diags,
                Diagnostic::error(MdlErrorKind::TooDeep { limit: MAX_DEPTH }, (at, at + 1)),
            );
            skip_block(lx, diags);
            self.items[i].end = self.items.len() as u32;
        } else {
            self.stack.push((i, at));
        }
    }

    fn close(&mut self, at: usize, diags: &mut Vec<Diagnostic>) {
        self.run = None;
        close_current(&mut self.current, &mut self.items);
        if self.stack.len() == 1 {
            push(
                diags,
                Diagnostic::error(MdlErrorKind::UnmatchedClose, (at, at + 1)),
            );
        } else {
            let (i, _) = self.stack.pop().expect("non-root open item");
            self.items[i].end = self.items.len() as u32;
        }
    }

    /// Closes what is still open and hands over the tree.
    fn finish<'a>(mut self, src: &'a [u8], diags: &mut Vec<Diagnostic>) -> Tree<'a> {
        close_current(&mut self.current, &mut self.items);
        // After a string or comment that ran to the end, or binary data that stopped the
        // lexer, unclosed blocks are only its echo.
        let swallowed = diags.iter().any(|d| {
            matches!(
                d.kind,
                MdlErrorKind::UnterminatedString
                    | MdlErrorKind::UnterminatedComment
                    | MdlErrorKind::BinaryData(_)
            )
        });
        while self.stack.len() > 1 {
            let (i, at) = self.stack.pop().expect("open item");
            if !swallowed {
                push(
                    diags,
                    Diagnostic::error(MdlErrorKind::UnclosedBlock, (at, at + 1)),
                );
            }
            self.items[i].end = self.items.len() as u32;
        }
        self.items[0].end = self.items.len() as u32;
        Tree {
            src,
            atoms: self.atoms,
            items: self.items,
            loose: self.loose,
        }
    }
}

/// Whether a top-level line of `atoms` (that opened no block; with no atoms, only bad
/// characters) is loose text rather than the header of a block that lost its `{`
/// (`Bone "Root"`, `Sequences 3`).
fn is_loose(src: &[u8], atoms: &[Atom], starts_block: &BlockWords) -> bool {
    let text = |a: &Atom| &src[a.start as usize..a.end as usize];
    match atoms {
        [] => true,
        [first, rest @ ..] => {
            let header = first.kind == AtomKind::Word
                && starts_block(text(first))
                && rest.len() <= 1
                && rest
                    .iter()
                    .all(|a| matches!(a.kind, AtomKind::Str | AtomKind::Number));
            !header
        }
    }
}

fn close_current(current: &mut Option<usize>, items: &mut [Item]) {
    if let Some(i) = current.take() {
        items[i].end = i as u32 + 1;
    }
}

impl<'a> Tree<'a> {
    /// The bytes of an atom.
    pub(crate) fn text(&self, a: &Atom) -> &'a [u8] {
        &self.src[a.start as usize..a.end as usize]
    }

    /// The atoms of item `i`.
    pub(crate) fn item_atoms(&self, i: usize) -> &[Atom] {
        let it = &self.items[i];
        &self.atoms[it.atoms as usize..(it.atoms + it.natoms) as usize]
    }

    /// The children of item `i` (empty if it has no body).
    pub(crate) fn children(&self, i: usize) -> Children<'_, 'a> {
        let it = &self.items[i];
        let end = if it.body { it.end as usize } else { i + 1 };
        Children {
            tree: self,
            next: i + 1,
            end,
        }
    }

    /// Number of children of item `i`.
    pub(crate) fn child_count(&self, i: usize) -> usize {
        self.children(i).count()
    }
}

/// Iterator over the children of an item.
pub(crate) struct Children<'t, 'a> {
    tree: &'t Tree<'a>,
    next: usize,
    end: usize,
}

impl Iterator for Children<'_, '_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.next >= self.end {
            return None;
        }
        let i = self.next;
        self.next = (self.tree.items[i].end as usize).max(i + 1);
        Some(i)
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
