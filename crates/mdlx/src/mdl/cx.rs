//! The reading context: item navigation over the parsed tree, typed values, and the
//! diagnostics list. Record readers use only these helpers, so every value error carries
//! the span of the text it came from.

use super::error::{push, Diagnostic, MdlErrorKind};
use super::parse::{Atom, AtomKind, Tree};
use crate::model::FixedString;

/// Reading state: the tree and the diagnostics gathered so far.
pub(crate) struct Cx<'t, 'a> {
    /// The parsed document.
    pub t: &'t Tree<'a>,
    /// Errors and warnings, in the order found.
    pub diags: Vec<Diagnostic>,
    /// The format version (set by the Version block; 800 until then).
    pub version: u32,
    /// Set when a node block gives its `ObjectId` (blocks without one get the next free id).
    pub saw_object_id: bool,
    /// The start of each sequence's interval, in file order (for static values of
    /// track-only fields, see [`super::tracks::read_static_track`]).
    pub sequence_starts: Vec<u32>,
}

/// Case-insensitive keyword comparison.
#[inline]
pub(crate) fn is(word: &[u8], kw: &str) -> bool {
    word.eq_ignore_ascii_case(kw.as_bytes())
}

impl<'t, 'a> Cx<'t, 'a> {
    /// A context over `t` with the diagnostics found so far.
    pub(crate) fn new(t: &'t Tree<'a>, diags: Vec<Diagnostic>, version: u32) -> Self {
        Cx {
            t,
            diags,
            version,
            saw_object_id: false,
            sequence_starts: Vec::new(),
        }
    }

    /// The byte span of item `i` (from its first atom, or its start, to its last atom).
    pub(crate) fn span(&self, i: usize) -> (usize, usize) {
        let atoms = self.t.item_atoms(i);
        match (atoms.first(), atoms.last()) {
            (Some(a), Some(b)) => (a.start as usize, b.end as usize),
            _ => (
                self.t.items[i].start as usize,
                self.t.items[i].start as usize + 1,
            ),
        }
    }

    /// Records an error at item `i`.
    pub(crate) fn error(&mut self, i: usize, kind: MdlErrorKind) {
        let span = self.span(i);
        push(&mut self.diags, Diagnostic::error(kind, span));
    }

    /// Records an error at an atom.
    pub(crate) fn error_at(&mut self, a: &Atom, kind: MdlErrorKind) {
        self.diags
            .push(Diagnostic::error(kind, (a.start as usize, a.end as usize)));
    }

    /// Records a warning at item `i`.
    pub(crate) fn warn(&mut self, i: usize, kind: MdlErrorKind) {
        let span = self.span(i);
        push(&mut self.diags, Diagnostic::warning(kind, span));
    }

    /// Whether the item starts with `static`.
    pub(crate) fn is_static(&self, i: usize) -> bool {
        self.t
            .item_atoms(i)
            .first()
            .is_some_and(|a| a.kind == AtomKind::Word && is(self.t.text(a), "static"))
    }

    /// The item's keyword: its first word after an optional `static` (empty if none).
    pub(crate) fn key(&self, i: usize) -> &'a [u8] {
        let atoms = self.t.item_atoms(i);
        let skip = usize::from(self.is_static(i));
        match atoms.get(skip) {
            Some(a) if a.kind == AtomKind::Word => self.t.text(a),
            _ => b"",
        }
    }

    /// The atoms after the keyword.
    pub(crate) fn args(&self, i: usize) -> &'t [Atom] {
        let atoms = self.t.item_atoms(i);
        let skip = usize::from(self.is_static(i)) + usize::from(!self.key(i).is_empty());
        &atoms[skip.min(atoms.len())..]
    }

    /// The children of item `i`.
    pub(crate) fn children(&self, i: usize) -> super::parse::Children<'t, 'a> {
        self.t.children(i)
    }

    /// Whether item `i` has a `{ }` body.
    pub(crate) fn has_body(&self, i: usize) -> bool {
        self.t.items[i].body
    }

    /// Reports `kw` as unknown in `block`.
    pub(crate) fn unknown(&mut self, i: usize, block: &'static str, expected: &[&'static str]) {
        let keyword = String::from_utf8_lossy(self.key(i)).into_owned();
        if keyword.is_empty() {
            // A bare block or value where a keyword should start the line.
            let found = self.describe(i);
            self.error(
                i,
                MdlErrorKind::Expected {
                    expected: format!("a keyword of {block}"),
                    found,
                },
            );
            return;
        }
        if expected.iter().any(|e| is(self.key(i), e)) {
            // Known here, but its shape matched none of the block's readers.
            self.error(i, MdlErrorKind::WrongForm { keyword, block });
            return;
        }
        self.error(
            i,
            MdlErrorKind::UnknownKeyword {
                keyword,
                block,
                expected: expected.to_vec(),
            },
        );
    }

    /// What item `i` is, for count messages: `` `MinimumExtent` `` or `the key at 100`.
    pub(crate) fn what(&self, i: usize) -> String {
        let key = self.key(i);
        if !key.is_empty() {
            return format!("`{}`", String::from_utf8_lossy(key));
        }
        match self.t.item_atoms(i).first() {
            Some(a) if a.kind == AtomKind::Number => {
                format!("the key at {}", String::from_utf8_lossy(self.t.text(a)))
            }
            _ => "this value".into(),
        }
    }

    /// A short description of what item `i` holds, for messages.
    pub(crate) fn describe(&self, i: usize) -> String {
        match self.t.item_atoms(i).first() {
            Some(a) => format!(
                "`{}`",
                String::from_utf8_lossy(&self.t.text(a)[..self.t.text(a).len().min(40)])
            ),
            None if self.has_body(i) => "`{`".into(),
            None => "nothing".into(),
        }
    }

    fn expected(&mut self, a: Option<&Atom>, i: usize, what: &str) {
        let found = a.map_or_else(|| "nothing".to_string(), |a| describe_atom(self.t, a));
        let kind = MdlErrorKind::Expected {
            expected: what.to_string(),
            found,
        };
        match a {
            Some(a) => self.error_at(a, kind),
            None => self.error(i, kind),
        }
    }

    /// Reads an atom as an `f32` (decimal, exponent, `inf`, `nan` and the `1.#INF` forms).
    pub(crate) fn atom_f32(&mut self, a: &Atom, i: usize) -> Option<f32> {
        let v = parse_f32(self.t.text(a));
        if v.is_none() {
            self.expected(Some(a), i, "a number");
        }
        v
    }

    /// Reads an atom as an integer within `min..=max`.
    pub(crate) fn atom_int(
        &mut self,
        a: &Atom,
        i: usize,
        min: i64,
        max: i64,
        field: &'static str,
    ) -> Option<i64> {
        let text = self.t.text(a);
        let v = parse_int(text);
        match v {
            Some(v) if (min..=max).contains(&v) => Some(v),
            Some(_) => {
                let value = String::from_utf8_lossy(text).into_owned();
                self.error_at(a, MdlErrorKind::OutOfRange { value, field });
                None
            }
            None if is_digits(text) => {
                let value = String::from_utf8_lossy(&text[..text.len().min(40)]).into_owned();
                let value = if text.len() > 40 {
                    value + "..."
                } else {
                    value
                };
                self.error_at(a, MdlErrorKind::OutOfRange { value, field });
                None
            }
            None => {
                self.expected(Some(a), i, "an integer");
                None
            }
        }
    }

    /// The first argument of `Key <number>` as an `f32`.
    pub(crate) fn f32_arg(&mut self, i: usize) -> Option<f32> {
        let a = self.args(i).first().copied();
        match a {
            Some(a) => self.atom_f32(&a, i),
            None => {
                self.expected(None, i, "a number after the keyword");
                None
            }
        }
    }

    /// The first argument of `Key <integer>` within the range of `T`.
    pub(crate) fn int_arg(
        &mut self,
        i: usize,
        min: i64,
        max: i64,
        field: &'static str,
    ) -> Option<i64> {
        let a = self.args(i).first().copied();
        match a {
            Some(a) => self.atom_int(&a, i, min, max, field),
            None => {
                self.expected(None, i, "an integer after the keyword");
                None
            }
        }
    }

    /// `Key <u32>`; `-1` is read as `0xFFFFFFFF`.
    pub(crate) fn u32_arg(&mut self, i: usize, field: &'static str) -> Option<u32> {
        self.int_arg(i, i32::MIN as i64, u32::MAX as i64, field)
            .map(|v| v as u32)
    }

    /// `Key <i32>`; values up to `0xFFFFFFFF` wrap to negative.
    pub(crate) fn i32_arg(&mut self, i: usize, field: &'static str) -> Option<i32> {
        self.u32_arg(i, field).map(|v| v as i32)
    }

    /// The first argument as a word (`FilterMode Additive`).
    pub(crate) fn word_arg(&mut self, i: usize) -> Option<&'a [u8]> {
        match self.args(i).first() {
            Some(a) if a.kind == AtomKind::Word => Some(self.t.text(a)),
            a => {
                let a = a.copied();
                self.expected(a.as_ref(), i, "a word");
                None
            }
        }
    }

    /// The first string argument (`Image "x.blp"`, `Bone "Root" {`).
    pub(crate) fn str_arg(&mut self, i: usize) -> Option<FixedString> {
        match self.args(i).first() {
            Some(a) if a.kind == AtomKind::Str => Some(FixedString::from_field(self.t.text(a))),
            a => {
                let a = a.copied();
                self.expected(a.as_ref(), i, "a quoted string");
                None
            }
        }
    }

    /// The name of a named block, or an empty string when it has none.
    pub(crate) fn name_arg(&self, i: usize) -> FixedString {
        match self.args(i).first() {
            Some(a) if a.kind == AtomKind::Str => FixedString::from_field(self.t.text(a)),
            _ => FixedString::default(),
        }
    }

    /// All number atoms of item `i`'s body (values may be split by commas or not).
    pub(crate) fn body_numbers(&self, i: usize) -> impl Iterator<Item = Atom> + 't {
        let t = self.t;
        t.children(i)
            .flat_map(move |c| t.item_atoms(c).iter().copied())
    }

    /// `Key { a, b, c }` (or the values of an anonymous `{ a, b, c }` item, or of
    /// `Key a b c`) as `N` floats. Allocation-free: this is the hot path of vertex lists.
    pub(crate) fn floats<const N: usize>(&mut self, i: usize) -> Option<[f32; N]> {
        let skip = self.t.item_atoms(i).len() - self.args(i).len();
        self.floats_after::<N>(i, skip)
    }

    /// Like [`Cx::floats`], but the values of a body-less item start after its first
    /// `skip` atoms (2 for a key `time: value`).
    pub(crate) fn floats_after<const N: usize>(
        &mut self,
        i: usize,
        skip: usize,
    ) -> Option<[f32; N]> {
        let t = self.t;
        let mut out = [0f32; N];
        let mut n = 0;
        let mut ok = true;
        let mut take = |cx: &mut Self, a: &Atom| {
            if a.kind == AtomKind::Colon {
                return;
            }
            if n < N {
                match parse_f32(t.text(a)) {
                    Some(v) => out[n] = v,
                    None => {
                        cx.expected(Some(a), i, "a number");
                        ok = false;
                    }
                }
            }
            n += 1;
        };
        if t.items[i].body {
            for c in t.children(i) {
                for a in t.item_atoms(c) {
                    take(self, a);
                }
            }
        } else {
            for a in &t.item_atoms(i)[skip.min(t.item_atoms(i).len())..] {
                take(self, a);
            }
        }
        if n != N {
            self.error(
                i,
                MdlErrorKind::WrongCount {
                    expected: N,
                    found: n,
                    what: self.what(i),
                },
            );
            return None;
        }
        ok.then_some(out)
    }

    /// `Key { a, b, c }` as `N` integers in range.
    pub(crate) fn ints<const N: usize>(
        &mut self,
        i: usize,
        min: i64,
        max: i64,
        field: &'static str,
    ) -> Option<[i64; N]> {
        let atoms: Vec<Atom> = self.body_numbers(i).collect();
        if atoms.len() != N {
            self.error(
                i,
                MdlErrorKind::WrongCount {
                    expected: N,
                    found: atoms.len(),
                    what: format!("`{field}`"),
                },
            );
            return None;
        }
        let mut out = [0i64; N];
        for (o, a) in out.iter_mut().zip(&atoms) {
            *o = self.atom_int(a, i, min, max, field)?;
        }
        Some(out)
    }

    /// A body of `{ x, y, z }` items as a list of `N`-float elements.
    pub(crate) fn float_list<const N: usize>(&mut self, i: usize) -> Vec<[f32; N]> {
        let t = self.t;
        let mut out = Vec::with_capacity(t.child_count(i));
        for c in t.children(i) {
            if let Some(v) = self.floats::<N>(c) {
                out.push(v);
            }
        }
        out
    }

    /// A flat body of integers (`VertexGroup { 0, 0, 1 }`).
    pub(crate) fn int_list(
        &mut self,
        i: usize,
        min: i64,
        max: i64,
        field: &'static str,
    ) -> Vec<i64> {
        let atoms: Vec<Atom> = self.body_numbers(i).collect();
        let mut out = Vec::with_capacity(atoms.len());
        for a in &atoms {
            if let Some(v) = self.atom_int(a, i, min, max, field) {
                out.push(v);
            }
        }
        out
    }
}

fn describe_atom(t: &Tree, a: &Atom) -> String {
    let text = t.text(a);
    let shown = String::from_utf8_lossy(&text[..text.len().min(40)]);
    match a.kind {
        AtomKind::Str => format!("the string \"{shown}\""),
        AtomKind::Colon => "`:`".into(),
        _ => format!("`{shown}`"),
    }
}

/// Powers of ten exactly representable as `f32` (5^10 < 2^24).
const POW10: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
/// The same, as `f64` and `u64`, up to 10^8.
const POW10_F64: [f64; 9] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8];
const POW10_U64: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// Reads the decimal digits of `t` from `i` on into `m` (at most 19 of them in all, so
/// `m` cannot overflow); returns where they stop.
#[inline]
fn digits(t: &[u8], mut i: usize, m: &mut u64) -> usize {
    while i < t.len() {
        let d = t[i].wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        *m = *m * 10 + u64::from(d);
        i += 1;
    }
    i
}

/// The common case `[-]digits[.digits]` with at most 2^24 as the digit value and at most
/// ten decimals: both operands are exact in `f32`, so one division rounds correctly
/// (Clinger's fast path). Anything else returns `None` for the general parser.
#[inline]
fn fast_f32(t: &[u8]) -> Option<f32> {
    let (neg, t) = match t.first() {
        Some(b'-') => (true, &t[1..]),
        _ => (false, t),
    };
    if t.is_empty() || t.len() > 19 {
        return None;
    }
    let mut m = 0u64;
    let mut i = digits(t, 0, &mut m);
    let (mut frac, dot) = (0, i < t.len() && t[i] == b'.');
    if dot {
        let from = i + 1;
        i = digits(t, from, &mut m);
        frac = i - from;
    }
    // Every byte must be a digit or the one dot, with at least one digit.
    if i != t.len() || t.len() == usize::from(dot) {
        return None;
    }
    let v = if m <= 1 << 24 && frac <= 10 {
        m as f32 / POW10[frac]
    } else if frac <= 8 && m < (1 << 24) * POW10_U64[frac] {
        // Up to 8 decimals and below 2^24: the division rounds once in f64, and the f64
        // result cannot land on the midpoint between two f32 unless the decimal is that
        // midpoint (the decimal and the midpoint differ by at least 1/(10^8 * 2^25) of the
        // value, more than half an f64 ulp), so rounding it to f32 is correct too.
        (m as f64 / POW10_F64[frac]) as f32
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}

/// Parses a float as MDL writers print it.
pub(crate) fn parse_f32(text: &[u8]) -> Option<f32> {
    if let Some(v) = fast_f32(text) {
        return Some(v);
    }
    let s = std::str::from_utf8(text).ok()?;
    if let Ok(v) = s.parse::<f32>() {
        return Some(v);
    }
    // Visual C++ spellings of non-finite values, and bare words.
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let lower = body.to_ascii_lowercase();
    let v = if lower.starts_with("1.#inf") || lower == "inf" || lower == "infinity" {
        f32::INFINITY
    } else if lower.starts_with("1.#ind")
        || lower.starts_with("1.#qnan")
        || lower.starts_with("1.#snan")
        || lower == "nan"
    {
        f32::NAN
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}

fn is_digits(t: &[u8]) -> bool {
    let t = t
        .strip_prefix(b"-")
        .or_else(|| t.strip_prefix(b"+"))
        .unwrap_or(t);
    !t.is_empty() && t.iter().all(u8::is_ascii_digit)
}

/// Parses `[-+]digits` as an `i64` (`None` on anything else or overflow).
pub(crate) fn parse_int(t: &[u8]) -> Option<i64> {
    let (neg, d) = match t.first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if d.is_empty() || d.len() > 18 {
        return std::str::from_utf8(t).ok()?.parse().ok();
    }
    let mut v = 0i64;
    for &c in d {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(c - b'0');
    }
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_float_path_agrees_with_std() {
        let cases = [
            "0",
            "-0",
            "1",
            "0.5",
            "-0.000875",
            "0.980392",
            "44.2413",
            "16777216",
            "16777217",
            "0.1234567891",
            "3.4028235e38",
            "1e-7",
            "1.5",
        ];
        for s in cases {
            let ours = parse_f32(s.as_bytes()).unwrap();
            assert_eq!(ours.to_bits(), s.parse::<f32>().unwrap().to_bits(), "{s}");
        }
        assert!(parse_f32(b"-1.#IND").unwrap().is_nan());
        assert_eq!(parse_f32(b"-1.#INF"), Some(f32::NEG_INFINITY));
        // Many short decimals, as exporters print them.
        for m in (0..1_000_000u32).step_by(7) {
            let s = format!("{}.{:06}", m % 97, m);
            let want = s.parse::<f32>().unwrap().to_bits();
            assert_eq!(parse_f32(s.as_bytes()).unwrap().to_bits(), want, "{s}");
        }
    }

    #[test]
    fn eight_and_nine_digit_decimals_agree_with_std() {
        // xorshift; 3 million random decimals of 7 to 15 digits with up to 8 decimals.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..3_000_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = 7 + (x % 9) as u32;
            let m = (x >> 8) % 10u64.pow(digits);
            let frac = ((x >> 4) % 9) as usize;
            let s = format!("{}", m);
            let s = if frac > 0 && s.len() > frac {
                format!("{}.{}", &s[..s.len() - frac], &s[s.len() - frac..])
            } else {
                s
            };
            let want = s.parse::<f32>().unwrap().to_bits();
            assert_eq!(parse_f32(s.as_bytes()).unwrap().to_bits(), want, "{s}");
        }
    }

    #[test]
    fn decimals_next_to_f32_midpoints_agree_with_std() {
        // The hard cases: decimals within a few units of the last digit of a midpoint
        // between two neighbouring f32 values.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..300_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f32::from_bits(0x3400_0000 + (x % 0x1680_0000) as u32); // ~1e-7 .. 1.6e7
            let mid = (v as f64 + f32::from_bits(v.to_bits() + 1) as f64) / 2.0;
            for decimals in [6usize, 7, 8] {
                let base = format!("{mid:.decimals$}");
                let unit = 10f64.powi(-(decimals as i32));
                for d in -2i32..=2 {
                    let s = format!(
                        "{:.decimals$}",
                        base.parse::<f64>().unwrap() + d as f64 * unit
                    );
                    let want = s.parse::<f32>().unwrap().to_bits();
                    assert_eq!(parse_f32(s.as_bytes()).unwrap().to_bits(), want, "{s}");
                }
            }
        }
    }

    #[test]
    fn integers() {
        assert_eq!(parse_int(b"-1"), Some(-1));
        assert_eq!(parse_int(b"4294967295"), Some(4294967295));
        assert_eq!(parse_int(b"1.0"), None);
        assert_eq!(parse_int(b"99999999999999999999"), None);
    }
}
