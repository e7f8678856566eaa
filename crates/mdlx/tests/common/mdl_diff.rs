//! Comparing two MDL texts statement by statement, within the tools' float printing: the
//! instrument of `peer_mdl.rs` (a tool's MDL against ours, for the same MDX) and of
//! `peer_reads_our_mdl.rs` (a tool's MDX from our MDL against its MDX from the original,
//! both written out as our canonical MDL). A difference is named by the block kind and the
//! keyword path inside it (`ParticleEmitter2` / `static Width`), tagged when it is a
//! recognised kind (`(reversed)`, `(swapped with static Length)`, `(1s omitted)`, ...), so
//! that a tool's known faults can be listed once as classes.

/// Our MDL of a model as the comparison reads it: `--strict-mdl` (no extension block).
pub(crate) fn canonical(m: &mdlx::model::Model) -> Vec<u8> {
    mdlx::mdl::to_bytes_with_options(m, &mdlx::mdl::WriteOptions { strict: true }).text
}

/// [`canonical`] with what it could not say: each loss as `PLACE: WHAT` (flags words MDL
/// has no words for, records whose text would not read back, chunk layout, unknown
/// chunks), which two models can differ in where their MDL texts agree.
pub(crate) fn canonical_with_losses(m: &mdlx::model::Model) -> (Vec<u8>, Vec<String>) {
    let w = mdlx::mdl::to_bytes_with_options(m, &mdlx::mdl::WriteOptions { strict: true });
    let losses = w
        .losses
        .iter()
        .map(|l| format!("{}: {}", l.place, l.what))
        .collect();
    (w.text, losses)
}

/// A loss as a class: the record index dropped from the place (`Helper[3]` -> `Helper`) and
/// every run of digits (decimal or hex) as `N`.
pub(crate) fn loss_class(loss: &str) -> String {
    let mut out = String::new();
    let mut in_index = false;
    let mut digits = false;
    for c in loss.chars() {
        match c {
            '[' if !in_index => in_index = true,
            ']' if in_index => in_index = false,
            _ if in_index => {}
            c if c.is_ascii_hexdigit() && (digits || c.is_ascii_digit()) => {
                if !digits {
                    out.push('N');
                }
                digits = true;
            }
            'x' if digits && out.ends_with("N") => {}
            c => {
                digits = false;
                out.push(c);
            }
        }
    }
    out
}

// ------------------------------------------------------------------------ tokens --

#[derive(Clone, Copy)]
struct Tok<'a> {
    text: &'a [u8],
    line: usize,
}

fn tokenize(src: &[u8]) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < src.len() {
        let c = src[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && src.get(i + 1) == Some(&b'/') {
            while i < src.len() && src[i] != b'\n' {
                i += 1;
            }
        } else if c == b'"' {
            let start = i;
            i += 1;
            while i < src.len() && src[i] != b'"' {
                if src[i] == b'\n' {
                    line += 1;
                }
                i += 1;
            }
            i = (i + 1).min(src.len());
            out.push(Tok {
                text: &src[start..i],
                line,
            });
        } else if matches!(c, b'{' | b'}' | b',' | b':') {
            out.push(Tok {
                text: &src[i..i + 1],
                line,
            });
            i += 1;
        } else {
            let start = i;
            while i < src.len()
                && !src[i].is_ascii_whitespace()
                && !matches!(src[i], b'{' | b'}' | b',' | b':' | b'"')
            {
                i += 1;
            }
            out.push(Tok {
                text: &src[start..i],
                line,
            });
        }
    }
    out
}

/// One statement: its head tokens and, if it has one, its `{ }` body.
struct Item<'a> {
    head: Vec<Tok<'a>>,
    body: Option<Vec<Item<'a>>>,
}

impl Item<'_> {
    /// The keyword that names the statement, if it starts with a word: `Alpha`, or
    /// `static Alpha` (a static value and a track of the same name are different things).
    fn key(&self) -> Option<String> {
        let mut it = self.head.iter().map(|t| t.text);
        let k = it.next()?;
        let (prefix, k) = if k == b"static" {
            ("static ", it.next()?)
        } else {
            ("", k)
        };
        k.first()
            .is_some_and(|c| c.is_ascii_alphabetic())
            .then(|| format!("{prefix}{}", String::from_utf8_lossy(k)))
    }

    /// Starts with `static`.
    fn is_static(&self) -> bool {
        self.head.first().is_some_and(|t| t.text == b"static")
    }

    /// Only numbers, all within the tools' printing of 0 (`BoundsRadius 1e-37`), or an
    /// empty string (`AnimationFile ""`: we print it when the field holds only bytes after
    /// its NUL, which standard MDL cannot hold).
    fn is_zero(&self) -> bool {
        let skip = usize::from(self.key().is_some()) + usize::from(self.is_static());
        (self.head.len() > skip || self.body.as_ref().is_some_and(|b| !b.is_empty()))
            && self.head[skip..]
                .iter()
                .all(|t| t.text == b"\"\"" || number(t.text).is_some_and(|x| close(x, 0.0)))
            && self
                .body
                .iter()
                .flatten()
                .all(|i| i.key().is_none() && i.is_zero())
    }
}

/// Statements until `}` or the end.
fn items<'a>(toks: &[Tok<'a>], pos: &mut usize) -> Vec<Item<'a>> {
    let mut v = Vec::new();
    while *pos < toks.len() {
        if toks[*pos].text == b"}" {
            *pos += 1;
            break;
        }
        let mut head = Vec::new();
        let mut body = None;
        while *pos < toks.len() {
            let t = toks[*pos];
            match t.text {
                b"," => {
                    *pos += 1;
                    break;
                }
                b"}" => break,
                b"{" => {
                    *pos += 1;
                    body = Some(items(toks, pos));
                    if toks.get(*pos).is_some_and(|t| t.text == b",") {
                        *pos += 1;
                    }
                    break;
                }
                _ => {
                    head.push(t);
                    *pos += 1;
                }
            }
        }
        if !head.is_empty() || body.is_some() {
            v.push(Item { head, body });
        }
    }
    v
}

// -------------------------------------------------------------------- comparing --

fn number(t: &[u8]) -> Option<f64> {
    let s = std::str::from_utf8(t).ok()?;
    if !s.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.') {
        return None;
    }
    s.parse().ok()
}

fn is_integer(t: &[u8]) -> bool {
    t.iter()
        .enumerate()
        .all(|(i, c)| c.is_ascii_digit() || (i == 0 && *c == b'-'))
}

/// Equal tokens: numbers within the tools' 6 printed decimals (and their `f32` re-reading),
/// whole numbers written by us as integers exactly, everything else byte for byte.
fn tok_eq(a: &[u8], b: &[u8]) -> bool {
    if a == b {
        return true;
    }
    match (number(a), number(b)) {
        // `-0` and `0` are equal (the tools print no negative zero).
        (Some(x), Some(y)) if is_integer(a) && is_integer(b) => x == y,
        (Some(x), Some(y)) => close(x, y),
        _ => false,
    }
}

/// Within the tools' printing: 6 decimals (m3v truncates, w3m rounds), read back as `f32`.
pub(crate) fn close(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-5 * x.abs().max(y.abs()) + 2e-6
}

/// A difference: the keyword path inside the block (with a tag saying what kind of
/// difference it is, when it is one of the recognised kinds) and the two sides' lines.
pub(crate) struct Diff {
    pub path: String,
    pub ours: String,
    pub theirs: String,
    /// The numbers of each side's statement (`None`: the statement is absent), to find
    /// two statements whose values were swapped.
    pub values: (Option<Vec<f64>>, Option<Vec<f64>>),
}

struct Cmp<'s> {
    ours: &'s [u8],
    theirs: &'s [u8],
    diffs: Vec<Diff>,
}

fn line_of(src: &[u8], line: usize) -> String {
    let l = src.split(|&b| b == b'\n').nth(line - 1).unwrap_or(b"");
    let s = String::from_utf8_lossy(l).trim().to_string();
    match s.char_indices().nth(100) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s,
    }
}

fn join(path: &str, k: &str) -> String {
    if path.is_empty() {
        k.to_string()
    } else {
        format!("{path}/{k}")
    }
}

/// Every number of a statement, its body included.
fn values(i: &Item) -> Vec<f64> {
    let mut v: Vec<f64> = i.head.iter().filter_map(|t| number(t.text)).collect();
    for c in i.body.iter().flatten() {
        v.extend(values(c));
    }
    v
}

/// Every number inside a statement's body.
fn body_values(i: &Item) -> Vec<f64> {
    i.body.iter().flatten().flat_map(values).collect()
}

/// The numbers of a body that is a plain vector (`{ 1, 2, 3 }`), if it is one.
fn vector(i: &Item) -> Option<Vec<f64>> {
    let body = i.body.as_ref()?;
    body.iter()
        .map(|c| match (&c.head[..], &c.body) {
            ([t], None) => number(t.text),
            _ => None,
        })
        .collect()
}

fn all_close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| close(*x, *y))
}

/// What kind of difference two versions of a statement show, when it is a recognisable
/// one: `(1s omitted)` (ours is all ones, the tool wrote nothing and we read the default
/// 0 or nothing back), `(reversed)` (a vector in the opposite order).
fn tag(a: Option<&Item>, b: Option<&Item>) -> Option<&'static str> {
    let a = a?;
    let ones = |v: &[f64]| !v.is_empty() && v.iter().all(|x| *x == 1.0);
    let zeros = |v: &[f64]| v.iter().all(|x| *x == 0.0);
    let va = values(a);
    let statik = a.is_static();
    let skip = |i: &Item| usize::from(i.key().is_some()) + usize::from(i.is_static());
    let own = |i: &Item| {
        let mut v: Vec<f64> = i.head[skip(i)..]
            .iter()
            .filter_map(|t| number(t.text))
            .collect();
        v.extend(i.body.iter().flatten().flat_map(values));
        v
    };
    match b {
        None if statik && ones(&own(a)) => Some("(1s omitted)"),
        Some(b) if statik && a.key() == b.key() && ones(&own(a)) && zeros(&own(b)) => {
            Some("(1s omitted)")
        }
        Some(b) => {
            let (x, y) = (vector(a)?, vector(b)?);
            let rev: Vec<f64> = y.iter().rev().copied().collect();
            (x.len() > 1
                && !all_close(&x, &y)
                && all_close(&x, &rev)
                && va.len() == values(b).len())
            .then_some("(reversed)")
        }
        None => None,
    }
}

impl Cmp<'_> {
    fn record(&mut self, path: &str, a: Option<&Item>, b: Option<&Item>) {
        let path = if path.is_empty() { "<head>" } else { path };
        let path = match tag(a, b) {
            Some(t) if !path.ends_with(')') => format!("{path} {t}"),
            _ => path.to_string(),
        };
        if self.diffs.iter().any(|d| d.path == path) {
            return;
        }
        let show = |src: &[u8], i: Option<&Item>| match i {
            None => "<absent>".to_string(),
            Some(i) => match i.head.first() {
                Some(t) => line_of(src, t.line),
                None => "{ ... }".to_string(),
            },
        };
        self.diffs.push(Diff {
            path,
            ours: show(self.ours, a),
            theirs: show(self.theirs, b),
            values: (a.map(values), b.map(values)),
        });
    }

    fn item(&mut self, path: &str, a: &Item, b: &Item) {
        let heads_equal = a.head.len() == b.head.len()
            && a.head
                .iter()
                .zip(&b.head)
                .all(|(x, y)| tok_eq(x.text, y.text));
        if !heads_equal {
            // mdx-m3-viewer decodes MDX strings as UTF-8: other bytes become U+FFFD.
            let not_utf8 = a.head.len() == b.head.len()
                && a.head.iter().zip(&b.head).all(|(x, y)| {
                    tok_eq(x.text, y.text)
                        || (std::str::from_utf8(x.text).is_err()
                            && std::str::from_utf8(y.text).is_ok_and(|s| s.contains('\u{fffd}')))
                });
            // The same numbers in other groups (`Faces 18 54` as `Faces 1 54`).
            let words = |i: &Item| -> Vec<Vec<u8>> {
                i.head
                    .iter()
                    .filter(|t| number(t.text).is_none())
                    .map(|t| t.text.to_vec())
                    .collect()
            };
            let regrouped = !not_utf8
                && words(a) == words(b)
                && a.body.is_some()
                && all_close(&body_values(a), &body_values(b));
            if regrouped {
                return self.record(&format!("{path} (regrouped)"), Some(a), Some(b));
            }
            if !not_utf8 {
                return self.record(path, Some(a), Some(b));
            }
            self.record(&join(path, "<text not UTF-8>"), Some(a), Some(b));
        }
        match (&a.body, &b.body) {
            (Some(x), Some(y)) => {
                if let (Some(_), Some(_)) = (vector(a), vector(b)) {
                    let equal = x.len() == y.len()
                        && x.iter()
                            .zip(y)
                            .all(|(p, q)| tok_eq(p.head[0].text, q.head[0].text));
                    if !equal {
                        self.record(path, Some(a), Some(b));
                    }
                } else {
                    self.list(path, x, y);
                }
            }
            (None, None) => {}
            _ => self.record(path, Some(a), Some(b)),
        }
    }

    fn list(&mut self, path: &str, a: &[Item], b: &[Item]) {
        // Keyword statements by keyword and occurrence, in the order of first appearance.
        let mut keys: Vec<String> = Vec::new();
        for i in a.iter().chain(b) {
            if let Some(k) = i.key() {
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        let has = |v: &[Item], k: &str| v.iter().any(|i| i.key().as_deref() == Some(k));
        for k in &keys {
            let xa: Vec<&Item> = a.iter().filter(|i| i.key().as_ref() == Some(k)).collect();
            let xb: Vec<&Item> = b.iter().filter(|i| i.key().as_ref() == Some(k)).collect();
            let p = join(path, k);
            for n in 0..xa.len().max(xb.len()) {
                match (xa.get(n), xb.get(n)) {
                    (Some(x), Some(y)) => self.item(&p, x, y),
                    // We leave out zeros; a value the tool printed as 0 is not written back.
                    (Some(x), None) | (None, Some(x)) if x.is_zero() => {}
                    // The static value of a property that both sides animate.
                    (Some(x), None) if k.starts_with("static ") && has(b, &k[7..]) => {
                        self.record(&format!("{p} (beside a track)"), Some(x), None)
                    }
                    (x, y) => self.record(&p, x.copied(), y.copied()),
                }
            }
        }
        // The rest by position.
        let xa: Vec<&Item> = a.iter().filter(|i| i.key().is_none()).collect();
        let xb: Vec<&Item> = b.iter().filter(|i| i.key().is_none()).collect();
        let p = if path.is_empty() { "<values>" } else { path };
        if xa.len() != xb.len() {
            if !self.diffs.iter().any(|d| d.path == p) {
                self.diffs.push(Diff {
                    path: p.to_string(),
                    ours: format!("{} values", xa.len()),
                    theirs: format!("{} values", xb.len()),
                    values: (None, None),
                });
            }
            return;
        }
        for (x, y) in xa.into_iter().zip(xb) {
            self.item(p, x, y);
        }
    }

    /// Tags two differences of one block whose values were exchanged between two sibling
    /// statements (`Width`/`Length`, `DontInherit { Rotation }`/`{ Scaling }`).
    fn find_swaps(&mut self) {
        // The one path segment in which two paths differ, if they differ in exactly one.
        let other = |p: &str, q: &str| {
            let (x, y): (Vec<&str>, Vec<&str>) = (p.split('/').collect(), q.split('/').collect());
            let d: Vec<usize> = (0..x.len()).filter(|&i| x.get(i) != y.get(i)).collect();
            (x.len() == y.len() && d.len() == 1).then(|| (x[d[0]].to_string(), y[d[0]].to_string()))
        };
        let same = |x: &Option<Vec<f64>>, y: &Option<Vec<f64>>| match (x, y) {
            (Some(x), Some(y)) => all_close(x, y),
            (None, None) => true,
            _ => false,
        };
        let n = self.diffs.len();
        let mut names: Vec<Option<String>> = vec![None; n];
        for i in 0..n {
            for j in i + 1..n {
                let (di, dj) = (&self.diffs[i], &self.diffs[j]);
                if di.path.contains(" (") || dj.path.contains(" (") {
                    continue;
                }
                let Some((si, sj)) = other(&di.path, &dj.path) else {
                    continue;
                };
                if !same(&di.values.0, &di.values.1)
                    && same(&di.values.0, &dj.values.1)
                    && same(&dj.values.0, &di.values.1)
                {
                    names[i] = Some(format!("{} (swapped with {sj})", di.path));
                    names[j] = Some(format!("{} (swapped with {si})", dj.path));
                }
            }
        }
        for (d, name) in self.diffs.iter_mut().zip(names) {
            if let Some(name) = name {
                d.path = name;
            }
        }
    }
}

/// The differences between two canonical MDL texts, as `(block kind, diff)`: the first
/// one at each keyword path of each top-level block.
pub(crate) fn compare(ours: &[u8], theirs: &[u8]) -> Vec<(String, Diff)> {
    let (ta, tb) = (tokenize(ours), tokenize(theirs));
    let (a, b) = (items(&ta, &mut 0), items(&tb, &mut 0));
    let mut out = Vec::new();
    let kind_of = |i: &Item| i.key().unwrap_or_else(|| "?".into());
    let mut kinds: Vec<String> = Vec::new();
    for i in a.iter().chain(&b) {
        let k = kind_of(i);
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    for kind in kinds {
        let xa: Vec<&Item> = a.iter().filter(|i| kind_of(i) == kind).collect();
        let xb: Vec<&Item> = b.iter().filter(|i| kind_of(i) == kind).collect();
        for n in 0..xa.len().max(xb.len()) {
            let mut c = Cmp {
                ours,
                theirs,
                diffs: Vec::new(),
            };
            match (xa.get(n), xb.get(n)) {
                // The block's own head (`Bone "name"`) is path "", its body below it.
                (Some(x), Some(y)) => c.item("", x, y),
                (x, y) => c.record("<block>", x.copied(), y.copied()),
            }
            c.find_swaps();
            out.extend(c.diffs.into_iter().map(|d| (kind.clone(), d)));
        }
    }
    out
}
