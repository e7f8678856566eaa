//! The MDL text codec: [`from_bytes`] reads every dialect real exporters write into the
//! [`Model`]; [`to_bytes`] writes the conventional Blizzard layout.
//!
//! ## Nothing is lost silently
//! Standard MDL cannot express everything an MDX file can hold (unknown chunks, padding
//! after names, unknown flag bits, the unparsed tail of a record, NaN payloads, the order
//! of chunks). While writing, every record's MDL text is read back and compared with the
//! record at the MDX byte level; a record that would not come back identical is also
//! stored whole (as MDX bytes in hex) in a clearly marked `MdlxExtension` block (in comment
//! lines marked `//@mdlx` at the top of the file), which this reader applies. Where only a record's flags word or a geoset's
//! face groups would differ, just those are kept there. The file layout and unknown chunks
//! go there too. With [`WriteOptions::strict`] nothing non-standard is written and the same
//! check yields the list of [`Loss`](crate::Loss)es instead.

pub(crate) mod cx;
pub mod error;
mod extension;
mod lexer;
pub(crate) mod out;
pub(crate) mod parse;
pub(crate) mod records;
pub(crate) mod tracks;

pub use error::{Diagnostic, MdlErrorKind, MdlErrors, Severity};

use crate::mdx::record::MdxRecord;
use crate::mdx::writer::Writer;
use crate::model::Model;
use cx::{is, Cx};
use out::Out;
use records::model as top;
use records::MdlRecord;

/// How to write MDL.
#[derive(Clone, Copy, Debug, Default)]
pub struct WriteOptions {
    /// Write only standard MDL: no extension block. What it cannot hold is reported.
    pub strict: bool,
}

/// The result of writing: the text and, in strict mode, what it lost.
pub struct Written {
    /// The MDL text (bytes: names need not be UTF-8).
    pub text: Vec<u8>,
    /// What the text does not hold (always empty unless strict): the place is `Bone[3]`,
    /// `layout` or `unknown chunk MDVI`.
    pub losses: Vec<crate::Loss>,
}

/// How to read MDL.
///
/// The default reader is lenient, like the tools that made the files: it reads past what
/// it can make sense of and says so in a warning. [`ReadOptions::strict`] refuses instead.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    /// Refuse every file the lenient reader would warn about: each warning becomes an
    /// error. These are a static value of a field MDX stores only as a track
    /// ([`MdlErrorKind::TrackOnly`]), text outside any block
    /// ([`MdlErrorKind::TextOutsideBlocks`]), no `Model` block
    /// ([`MdlErrorKind::MissingModel`]) and no `Version` block
    /// ([`MdlErrorKind::MissingVersion`]).
    pub strict: bool,
}

/// Reads MDL text. Warnings are dropped; see [`from_bytes_with_warnings`].
pub fn from_bytes(src: &[u8]) -> Result<Model, MdlErrors> {
    from_bytes_with_warnings(src).map(|(m, _)| m)
}

/// Reads MDL text leniently, returning the model and the warnings, or every error found.
pub fn from_bytes_with_warnings(src: &[u8]) -> Result<(Model, Vec<Diagnostic>), MdlErrors> {
    from_bytes_with_options(src, &ReadOptions::default())
}

/// Reads MDL text, returning the model and the warnings, or every error found. Text in
/// which no MDL block is found (an empty file, a README, binary data) gives one error,
/// [`MdlErrorKind::NotMdl`], and nothing else.
pub fn from_bytes_with_options(
    src: &[u8],
    opts: &ReadOptions,
) -> Result<(Model, Vec<Diagnostic>), MdlErrors> {
    let mut diags = Vec::new();
    let tree = parse::parse_document(src, &mut diags, &|w| ROOT_BLOCKS.iter().any(|b| is(w, b)));
    let mut cx = Cx::new(&tree, diags, 800);
    if !tree
        .children(0)
        .any(|c| cx.has_body(c) && ROOT_BLOCKS.iter().any(|b| is(cx.key(c), b)))
    {
        return Err(MdlErrors {
            diagnostics: vec![Diagnostic::error(MdlErrorKind::NotMdl, (0, 0))],
        });
    }
    let mut m = Model {
        version: 800,
        ..Model::default()
    };
    read_document(&mut cx, &mut m);
    let mut diagnostics = cx.diags;
    if let Some(text) = hidden_text(src) {
        read_hidden(&text, &mut m, &mut diagnostics);
    }
    // The parser's, the loose text's and the records' findings, in source order; a block
    // left open comes first: it is what to fix, and the errors inside it often follow from
    // it (its records read with the next block's lines in them).
    diagnostics.sort_by_key(|d| {
        let unclosed = matches!(
            d.kind,
            MdlErrorKind::UnclosedBefore { .. } | MdlErrorKind::UnclosedBlock
        );
        (!unclosed, d.span.0)
    });
    if opts.strict {
        for d in &mut diagnostics {
            d.severity = Severity::Error;
        }
    }
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        return Err(MdlErrors { diagnostics });
    }
    Ok((m, diagnostics))
}

/// The lines of `src` that hold the extension block in comments (see
/// [`extension::HIDDEN`]), unwrapped, every other byte a space: the block's text at the
/// same offsets as in `src`, so its diagnostics point at the right line and column.
fn hidden_text(src: &[u8]) -> Option<Vec<u8>> {
    // Most files have none: look before copying anything.
    memchr::memmem::find(src, extension::HIDDEN)?;
    let mut text: Vec<u8> = src
        .iter()
        .map(|&b| if b == b'\n' { b'\n' } else { b' ' })
        .collect();
    let mut any = false;
    let mut start = 0;
    for line in src.split(|&b| b == b'\n') {
        let lead = line
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        if line[lead..].starts_with(extension::HIDDEN) {
            any = true;
            let from = start + lead + extension::HIDDEN.len();
            let to = start + line.len();
            text[from..to].copy_from_slice(&src[from..to]);
        }
        start += line.len() + 1;
    }
    any.then_some(text)
}

/// Reads the extension block held in comment lines.
fn read_hidden(text: &[u8], m: &mut Model, diagnostics: &mut Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let tree = parse::parse_document(text, &mut diags, &|w| is(w, "MdlxExtension"));
    let mut cx = Cx::new(&tree, diags, m.version);
    for c in tree.children(0) {
        if cx.has_body(c) && is(cx.key(c), "MdlxExtension") {
            extension::read(&mut cx, c, m);
        } else {
            cx.unknown(c, "the mdlx comment lines", &["MdlxExtension"]);
        }
    }
    diagnostics.extend(cx.diags);
}

/// Writes a model as MDL that reads back to the same model (and the same MDX bytes).
pub fn to_bytes(model: &Model) -> Vec<u8> {
    to_bytes_with_options(model, &WriteOptions::default()).text
}

/// Writes a model as MDL with options: the text and, in strict mode, what it lost.
pub fn to_bytes_with_options(model: &Model, opts: &WriteOptions) -> Written {
    let mut w = W {
        out: Out::with_capacity(estimate(model)),
        version: model.version,
        residue: Vec::new(),
        flags: Vec::new(),
        face_groups: Vec::new(),
    };
    write_document(&mut w, model);
    let mut losses = Vec::new();
    let kept = extension::Kept {
        residue: w.residue,
        flags: w.flags,
        face_groups: w.face_groups,
    };
    extension::finish(&mut w.out, model, kept, opts.strict, &mut losses);
    Written {
        text: w.out.buf,
        losses,
    }
}

fn estimate(m: &Model) -> usize {
    m.geosets
        .iter()
        .map(|g| g.vertices.len() * 120 + g.faces.len() * 6)
        .sum::<usize>()
        + m.nodes()
            .flat_map(|n| n.tracks.iter())
            .map(|a| a.track.len() * 48)
            .sum::<usize>()
        + 64 * 1024
}

/// Rows of the record registry (see `model::kinds`), as the MDL document consumers take them.
macro_rules! kind_rows {
    ($mac:ident ! ($($args:tt)*)) => {
        crate::model::for_each_kind!($mac!($($args)*))
    };
}

/// The top-level block keyword of each registry row, in row order.
macro_rules! row_blocks {
    (() $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident
        $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        [$(row_blocks!(@one [$ty] $mdl $(($blk))?),)*]
    };
    (@one [$ty:ty] one) => { <$ty as MdlRecord>::BLOCK };
    (@one [$ty:ty] $mdl:ident ($blk:literal)) => { $blk };
}

/// Whether each registry row holds one top-level block per record.
macro_rules! row_is_one {
    (() $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident
        $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        [$(row_is_one!(@one $mdl),)*]
    };
    (@one one) => { true };
    (@one $mdl:ident) => { false };
}

/// Every top-level block keyword, in the order they are written.
static ROOT_BLOCKS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    let rows: [&'static str; crate::model::KINDS] = kind_rows!(row_blocks!());
    let mut v = vec!["Version", "Model"];
    v.extend(crate::model::MDL_ORDER.iter().map(|&i| rows[i]));
    v.push("MdlxExtension");
    v
});

/// Reads top-level block `c` (keyword `k`) if it holds records of a registry row; false if
/// it is no such block.
macro_rules! read_kind {
    (($cx:ident, $c:ident, $k:ident, $m:ident, $next:ident)
        $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident
        $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {{
        let mut done = false;
        $(
            if !done {
                done = read_kind!(@row $cx $c $k $m $next $field [$ty] $mdl $(($blk))?);
            }
        )*
        done
    }};
    (@row $cx:ident $c:ident $k:ident $m:ident $next:ident $field:ident [$ty:ty] one) => {
        is($k, <$ty as MdlRecord>::BLOCK) && {
            read_one($cx, $c, &mut $next, &mut $m.$field);
            true
        }
    };
    (@row $cx:ident $c:ident $k:ident $m:ident $next:ident $field:ident [$ty:ty]
        wrapped ($blk:literal)) => {
        is($k, $blk) && {
            read_wrapped($cx, $c, $blk, &mut $m.$field);
            true
        }
    };
    (@row $cx:ident $c:ident $k:ident $m:ident $next:ident $field:ident [$ty:ty]
        special ($blk:literal)) => {
        false
    };
}

/// Reads one node or record block; a node without an `ObjectId` gets the next free id.
fn read_one<T: MdlRecord>(cx: &mut Cx, c: usize, next_id: &mut u32, list: &mut Vec<T>) {
    cx.saw_object_id = false;
    let mut r = T::read_mdl(cx, c);
    if !cx.saw_object_id {
        if let Some(node) = r.node_mut() {
            node.object_id = *next_id;
            *next_id = next_id.wrapping_add(1);
        }
    }
    list.push(r);
}

/// Reads the records inside a container block (`Sequences { Anim .. }`).
fn read_wrapped<T: MdlRecord>(cx: &mut Cx, c: usize, block: &'static str, list: &mut Vec<T>) {
    let t = cx.t;
    for e in t.children(c) {
        if is(cx.key(e), T::BLOCK) {
            list.push(T::read_mdl(cx, e));
        } else {
            cx.unknown(e, block, &[T::BLOCK]);
        }
    }
}

fn read_document(cx: &mut Cx, m: &mut Model) {
    let t = cx.t;
    // The version decides layouts, so read it first wherever it is.
    match t.children(0).find(|&c| is(cx.key(c), "Version")) {
        Some(c) => m.version = top::read_version(cx, c).unwrap_or(800),
        None => cx
            .diags
            .push(Diagnostic::warning(MdlErrorKind::MissingVersion, (0, 0))),
    }
    cx.version = m.version;
    // A string or comment that runs to the end, or binary data, may have swallowed it.
    let swallowed = cx.diags.iter().any(|d| {
        matches!(
            d.kind,
            MdlErrorKind::UnterminatedString
                | MdlErrorKind::UnterminatedComment
                | MdlErrorKind::BinaryData(_)
        )
    });
    if !swallowed
        && !t
            .children(0)
            .any(|c| cx.has_body(c) && is(cx.key(c), "Model"))
    {
        cx.diags
            .push(Diagnostic::warning(MdlErrorKind::MissingModel, (0, 0)));
    }
    for run in &t.loose {
        let kind = MdlErrorKind::TextOutsideBlocks { lines: run.lines };
        error::push(
            &mut cx.diags,
            Diagnostic::warning(kind, (run.start, run.end)),
        );
    }
    cx.sequence_starts = sequence_starts(cx);
    let mut extension = None;
    // Node blocks without an ObjectId get the ids after the highest one given.
    let mut next_id = max_object_id(cx).map_or(0, |v| v.wrapping_add(1));
    for c in t.children(0) {
        let k = cx.key(c);
        if !cx.has_body(c) {
            // Only a block's header can stand at the top level without a body (the
            // parser leaves other text out): its `{` is missing.
            let found = "the end of the line".into();
            let expected = format!("`{{` to open the {} block", String::from_utf8_lossy(k));
            cx.error(c, MdlErrorKind::Expected { expected, found });
        } else if is(k, "Version") {
        } else if is(k, "Model") {
            top::read_info(cx, c, &mut m.info);
        } else if kind_rows!(read_kind!(cx, c, k, m, next_id)) {
        } else if is(k, "GlobalSequences") {
            top::read_global_sequences(cx, c, &mut m.global_sequences);
        } else if is(k, "PivotPoints") {
            let v = cx.float_list::<3>(c);
            m.pivot_points.extend(v);
        } else if is(k, "BindPose") {
            top::read_bind_pose(cx, c, &mut m.bind_poses);
        } else if is(k, "MdlxExtension") {
            extension = Some(c);
        } else {
            cx.unknown(c, "the file", &ROOT_BLOCKS);
        }
    }
    if let Some(c) = extension {
        extension::read(cx, c, m);
    }
}

/// The first number of each `Sequences { Anim { Interval { start, end } } }`, read without
/// diagnostics (the sequences' own reader reports a bad one).
fn sequence_starts(cx: &Cx) -> Vec<u32> {
    let t = cx.t;
    let mut starts = Vec::new();
    for c in t.children(0).filter(|&c| is(cx.key(c), "Sequences")) {
        for anim in t.children(c) {
            for k in t.children(anim).filter(|&k| is(cx.key(k), "Interval")) {
                let first = cx.body_numbers(k).next();
                if let Some(v) = first.and_then(|a| cx::parse_int(t.text(&a))) {
                    if let Ok(v) = u32::try_from(v).or(i32::try_from(v).map(|v| v as u32)) {
                        starts.push(v);
                    }
                }
            }
        }
    }
    starts
}

/// The highest `ObjectId` any top-level block gives.
fn max_object_id(cx: &mut Cx) -> Option<u32> {
    let t = cx.t;
    let mut best = None;
    for c in t.children(0) {
        for k in t.children(c) {
            if is(cx.key(k), "ObjectId") {
                if let Some(a) = cx.args(k).first() {
                    let v = cx::parse_int(t.text(a)).and_then(|v| {
                        u32::try_from(v)
                            .ok()
                            .or((v >= i32::MIN as i64 && v < 0).then_some(v as u32))
                    });
                    best = best.max(v);
                }
            }
        }
    }
    best
}

/// Writing state: the text, the version, and the records that need the extension block.
struct W {
    out: Out,
    version: u32,
    residue: Vec<extension::Residue>,
    flags: Vec<extension::FlagsPatch>,
    face_groups: Vec<extension::FaceGroupsPatch>,
}

/// Face groups to put back on a record read from its text ([`MdlRecord::face_groups`]).
type Groups<'g> = Option<&'g [(u32, u32)]>;

impl W {
    /// Writes each record, checking that its text reads back to the same MDX bytes.
    fn records<T: MdlRecord + MdxRecord + std::fmt::Debug + Clone>(
        &mut self,
        kind: &'static str,
        items: &[T],
    ) {
        let mut scratch = Out::default();
        for (index, r) in items.iter().enumerate() {
            let start = self.out.buf.len();
            r.write_mdl(&mut self.out, self.version);
            // Face groups the text cannot hold are kept apart, put back on the record read
            // from the text before it is compared, so they never make a record residue.
            let groups = r.face_groups();
            if let Some(groups) = &groups {
                self.face_groups.push(extension::FaceGroupsPatch {
                    kind,
                    index,
                    groups: groups.clone(),
                });
            }
            // Cheap check first: the record with its bulk lists cut short (their numbers
            // are known to print and read back exactly), then the full check if needed.
            if let Some(sk) = r.skeleton() {
                scratch.buf.clear();
                sk.write_mdl(&mut scratch, self.version);
                let sk_groups = sk.face_groups();
                if check(&sk, &scratch.buf, self.version, sk_groups.as_deref()).is_none() {
                    continue;
                }
            }
            let text = &self.out.buf[start..];
            let Some(bytes) = check(r, text, self.version, groups.as_deref()) else {
                continue;
            };
            if let Some(flags) = flags_patch(r, text, self.version, groups.as_deref(), &bytes) {
                self.flags
                    .push(extension::FlagsPatch { kind, index, flags });
                continue;
            }
            let detail = describe_difference(r, text, self.version, groups.as_deref());
            self.residue.push(extension::Residue {
                kind,
                index,
                bytes,
                detail,
            });
        }
    }
}

/// The flags value that, set on the record read back from `text`, makes it identical to
/// the original (whose MDX bytes are `want`); `None` if more than the flags differ.
fn flags_patch<T: MdlRecord + MdxRecord + Clone>(
    r: &T,
    text: &[u8],
    version: u32,
    groups: Groups,
    want: &[u8],
) -> Option<u32> {
    let flags = *r.clone().flags_mut()?;
    let mut back = reread::<T>(text, version, groups)?;
    *back.flags_mut()? = flags;
    (mdx_bytes(&back, version).ok()? == want).then_some(flags)
}

/// The record's MDX bytes if its MDL `text` (with `groups` put back) does not read back to
/// the same bytes.
fn check<T: MdlRecord + MdxRecord>(
    r: &T,
    text: &[u8],
    version: u32,
    groups: Groups,
) -> Option<Vec<u8>> {
    let original = mdx_bytes(r, version);
    match reread::<T>(text, version, groups) {
        Some(back) if original.as_ref().ok() == mdx_bytes(&back, version).ok().as_ref() => None,
        _ => original.ok(),
    }
}

/// The record read from `text`, with `groups` put back; `None` on a read error.
fn reread<T: MdlRecord>(text: &[u8], version: u32, groups: Groups) -> Option<T> {
    let mut diags = Vec::new();
    let tree = parse::parse(text, &mut diags);
    let first = tree.children(0).next()?;
    let mut cx = Cx::new(&tree, diags, version);
    let mut r = T::read_mdl(&mut cx, first);
    if let Some(g) = groups {
        r.set_face_groups(g);
    }
    (!cx.diags.iter().any(|d| d.severity == Severity::Error)).then_some(r)
}

fn mdx_bytes<T: MdxRecord>(r: &T, version: u32) -> Result<Vec<u8>, crate::mdx::MdxError> {
    let mut w = Writer::default();
    r.write_mdx(&mut w, version)?;
    Ok(w.into_bytes())
}

/// The first line where the record's debug dump differs from what its text reads back as.
fn describe_difference<T: MdlRecord + std::fmt::Debug>(
    r: &T,
    text: &[u8],
    version: u32,
    groups: Groups,
) -> String {
    let Some(back) = reread::<T>(text, version, groups) else {
        return "its MDL text does not read back".into();
    };
    let (a, b) = (format!("{r:#?}"), format!("{back:#?}"));
    match a.lines().zip(b.lines()).find(|(x, y)| x != y) {
        Some((x, y)) => format!("`{}` would read back as `{}`", x.trim(), y.trim()),
        None => "a value differs in its bit pattern (a NaN payload)".into(),
    }
}

/// A writer for each registry row, in row order.
macro_rules! write_kind {
    (() $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident
        $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        [$(|w: &mut W, m: &Model| write_kind!(@row w m $field $name $mdl $(($blk))?),)*]
    };
    (@row $w:ident $m:ident $field:ident $name:literal one) => {
        $w.records($name, &$m.$field)
    };
    // war3-model refuses a file without a `Sequences` or `PivotPoints` block: those two
    // are written even when empty (reading an empty block adds nothing, so the MDX written
    // back is the same).
    (@row $w:ident $m:ident sequences $name:literal wrapped ($blk:literal)) => {{
        $w.out.open_counted($blk, $m.sequences.len());
        $w.records($name, &$m.sequences);
        $w.out.close();
    }};
    (@row $w:ident $m:ident $field:ident $name:literal wrapped ($blk:literal)) => {
        if !$m.$field.is_empty() {
            $w.out.open_counted($blk, $m.$field.len());
            $w.records($name, &$m.$field);
            $w.out.close();
        }
    };
    (@row $w:ident $m:ident global_sequences $name:literal special ($blk:literal)) => {
        if !$m.global_sequences.is_empty() {
            top::write_global_sequences(&mut $w.out, &$m.global_sequences);
        }
    };
    (@row $w:ident $m:ident pivot_points $name:literal special ($blk:literal)) => {
        top::write_float_list(&mut $w.out, $blk, &$m.pivot_points)
    };
    (@row $w:ident $m:ident bind_poses $name:literal special ($blk:literal)) => {
        if !$m.bind_poses.is_empty() {
            top::write_bind_pose(&mut $w.out, &$m.bind_poses);
        }
    };
}

fn write_document(w: &mut W, m: &Model) {
    top::write_version(&mut w.out, m.version);
    top::write_info(&mut w.out, m);
    if let Some(bytes) = check_info(m) {
        let detail = "bytes after the model fields, or padding after the name".into();
        w.residue.push(extension::Residue {
            kind: "ModelInfo",
            index: 0,
            bytes,
            detail,
        });
    }
    let writers: [fn(&mut W, &Model); crate::model::KINDS] = kind_rows!(write_kind!());
    for i in crate::model::MDL_ORDER {
        writers[i](w, m);
    }
}

/// The model info's MDX bytes if the Model block cannot hold it exactly.
fn check_info(m: &Model) -> Option<Vec<u8>> {
    let i = &m.info;
    let exact = |v: f32| !v.is_nan() || v.to_bits() == f32::NAN.to_bits();
    let floats_ok = [i.extent.radius]
        .iter()
        .chain(&i.extent.min)
        .chain(&i.extent.max)
        .all(|&v| exact(v));
    let ok = i.tail.is_empty()
        && i.name.padding().is_empty()
        && i.animation_file.padding().is_empty()
        && floats_ok
        && !unwritable_text(&i.name)
        && !unwritable_text(&i.animation_file);
    (!ok).then(|| mdx_bytes(i, m.version).unwrap_or_default())
}

fn unwritable_text(s: &crate::model::FixedString) -> bool {
    // `Out::string` writes these as `'` and a space.
    s.text_bytes()
        .iter()
        .any(|b| matches!(b, b'"' | b'\n' | b'\r'))
}

/// Where each record of each registry row starts in an MDL document (byte offsets), and
/// where its `Model` block starts: what a record read from the file came from. Blocks are
/// taken in the order the reader takes them; the `MdlxExtension` block is not looked in.
pub(crate) fn record_starts(src: &[u8]) -> (Vec<Vec<usize>>, Option<usize>) {
    let mut diags = Vec::new();
    let t = parse::parse_document(src, &mut diags, &|w| ROOT_BLOCKS.iter().any(|b| is(w, b)));
    let blocks: [&str; crate::model::KINDS] = kind_rows!(row_blocks!());
    let one: [bool; crate::model::KINDS] = kind_rows!(row_is_one!());
    let fields = crate::model::KIND_FIELDS;
    let mut rows = vec![Vec::new(); crate::model::KINDS];
    let mut header = None;
    let key = |i: usize| t.item_atoms(i).first().map_or(&b""[..], |a| t.text(a));
    for c in t.children(0) {
        let k = key(c);
        if is(k, "Model") && header.is_none() {
            header = Some(t.items[c].start as usize);
            continue;
        }
        let Some(row) = blocks.iter().position(|b| is(k, b)) else {
            continue;
        };
        let start = t.items[c].start as usize;
        match fields[row] {
            // One block per record.
            _ if one[row] => rows[row].push(start),
            // Matrices inside the block.
            "bind_poses" => {
                for m in t.children(c).filter(|&m| is(key(m), "Matrices")) {
                    rows[row].extend(t.children(m).map(|v| t.items[v].start as usize));
                }
            }
            // A container block: each record one child.
            _ => rows[row].extend(t.children(c).map(|v| t.items[v].start as usize)),
        }
    }
    (rows, header)
}
