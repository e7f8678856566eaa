//! How one field of a declared record (see [`crate::model::declare`]) reads and writes
//! in MDL: its keywords, its animated counterpart, and how its line is written. The record
//! macro expands to calls of [`Field::read`] and [`Field::write`], so every record kind
//! shares one reader and one writer per style instead of a hand-written ladder each.

use super::emitters::mdl_color;
use crate::mdl::cx::{is, Cx};
use crate::mdl::out::Out;
use crate::model::declare::{Decl, Same};
use crate::model::{Animation, Extent, FixedString, Tag, Tracks};
pub(crate) use crate::spec::keywords::{Field, Style};

impl Field {
    /// Whether keyword `k` names this field.
    pub(crate) fn matches(&self, k: &[u8]) -> bool {
        match self.style {
            Style::Words(words) => words.iter().any(|w| is(k, w)),
            Style::Bits(table) => table.iter().any(|(w, _)| is(k, w)),
            _ => self.keys.iter().any(|w| is(k, w)),
        }
    }

    /// Reads item `c` (whose keyword [`Field::matches`]) into `dst`.
    pub(crate) fn read<T: MdlValue>(&self, cx: &mut Cx, c: usize, dst: &mut T) {
        let k = cx.key(c);
        match self.style {
            Style::Words(words) => {
                if let Some(n) = words.iter().position(|w| is(k, w)) {
                    dst.set_index(n as u32);
                }
            }
            Style::Flag => dst.set_index(1),
            Style::Bits(table) => {
                if let Some((_, bit)) = table.iter().find(|(w, _)| is(k, w)) {
                    dst.set_bits(*bit);
                }
            }
            Style::IdOr(none) => match cx.args(c).first() {
                Some(a)
                    if a.kind == crate::mdl::parse::AtomKind::Word && is(cx.t.text(a), none) =>
                {
                    dst.set_index(u32::MAX)
                }
                _ => dst.read(cx, c, self.key()),
            },
            _ => {
                dst.read(cx, c, self.key());
                if self.reversed {
                    dst.reverse();
                }
            }
        }
    }

    /// Writes the field's line(s) for value `v`; `absent` is what an absent line reads as,
    /// `tracks` the record's tracks (a static line may step aside for a track).
    pub(crate) fn write<T: MdlValue>(&self, out: &mut Out, v: &T, absent: &T, tracks: &Tracks) {
        let key = self.key();
        match self.style {
            Style::Static => {
                let animated = self
                    .track
                    .is_some_and(|(tag, _)| tracks.iter().any(|a| a.tag == tag));
                if animated && v.same(absent) {
                    return;
                }
                self.line(out, "static ", key, v);
            }
            Style::Plain => self.line(out, "", key, v),
            Style::NonZero => {
                if !v.is_zero() {
                    self.line(out, "", key, v);
                }
            }
            Style::Words(words) => {
                if let Some(w) = v.index().and_then(|n| words.get(n as usize)) {
                    out.flag(w);
                }
            }
            Style::Flag => {
                if !v.is_zero() {
                    out.flag(key);
                }
            }
            Style::Bits(table) => {
                let bits = v.index().unwrap_or(0);
                for (word, bit) in table {
                    if bits & bit != 0 {
                        out.flag(word);
                    }
                }
            }
            Style::IdOr(none) => match v.index() {
                Some(u32::MAX) => out.kv_word(key, none),
                _ => self.line(out, "", key, v),
            },
            Style::Hidden => {}
        }
    }

    fn line<T: MdlValue>(&self, out: &mut Out, prefix: &str, key: &str, v: &T) {
        if self.reversed {
            let mut r = v.clone();
            r.reverse();
            r.write_item(out, prefix, key);
        } else {
            v.write_item(out, prefix, key);
        }
    }
}

/// A value a field holds, as MDL reads and writes it.
pub(crate) trait MdlValue: Clone + Same {
    /// Reads item `c`'s value into `self` (`what` names it in messages).
    fn read(&mut self, cx: &mut Cx, c: usize, what: &'static str);
    /// Writes the value after its keyword.
    fn write_value(&self, out: &mut Out);
    /// Writes the whole line: `prefix Key value,`.
    fn write_item(&self, out: &mut Out, prefix: &str, key: &str) {
        out.indent();
        out.raw(prefix);
        out.raw(key);
        out.raw(" ");
        self.write_value(out);
        out.raw(",\n");
    }
    /// Whether the value is bitwise zero or empty.
    fn is_zero(&self) -> bool;
    /// Reverses a color's components.
    fn reverse(&mut self) {}
    /// The value as an index or bit set, for words and flags.
    fn index(&self) -> Option<u32> {
        None
    }
    /// Sets the value from a word's index.
    fn set_index(&mut self, _n: u32) {}
    /// Sets a flag bit.
    fn set_bits(&mut self, _bits: u32) {}
}

/// Values MDL has no words for ([`Style::Hidden`] only: the camera's layout number and
/// bytes): never read or written; "zero" is the default.
macro_rules! hidden_value {
    ($($t:ty),*) => {$(
        impl MdlValue for $t {
            fn read(&mut self, _cx: &mut Cx, _c: usize, _what: &'static str) {}
            fn write_value(&self, _out: &mut Out) {}
            fn is_zero(&self) -> bool {
                *self == <$t>::default()
            }
        }
    )*};
}
hidden_value!(Option<u8>, Vec<u8>);

impl MdlValue for f32 {
    fn read(&mut self, cx: &mut Cx, c: usize, _what: &'static str) {
        if let Some(v) = cx.f32_arg(c) {
            *self = v;
        }
    }
    fn write_value(&self, out: &mut Out) {
        out.f32(*self);
    }
    fn is_zero(&self) -> bool {
        self.to_bits() == 0
    }
}

/// The integer fields: read as `Key <n>` (a u32 field takes `-1` as 0xFFFFFFFF, an i32 one
/// values up to 0xFFFFFFFF wrapped), used as indices of words and as flag bits.
macro_rules! int_value {
    ($t:ty, $arg:ident) => {
        impl MdlValue for $t {
            fn read(&mut self, cx: &mut Cx, c: usize, what: &'static str) {
                if let Some(v) = cx.$arg(c, what) {
                    *self = v;
                }
            }
            fn write_value(&self, out: &mut Out) {
                out.int(*self as i64);
            }
            fn is_zero(&self) -> bool {
                *self == 0
            }
            fn index(&self) -> Option<u32> {
                Some(*self as u32)
            }
            fn set_index(&mut self, n: u32) {
                *self = n as $t;
            }
            fn set_bits(&mut self, bits: u32) {
                *self |= bits as $t;
            }
        }
    };
}
int_value!(u32, u32_arg);
int_value!(i32, i32_arg);

impl<const N: usize> MdlValue for [f32; N] {
    fn read(&mut self, cx: &mut Cx, c: usize, _what: &'static str) {
        if let Some(v) = cx.floats::<N>(c) {
            *self = v;
        }
    }
    fn write_value(&self, out: &mut Out) {
        out.floats(self);
    }
    fn is_zero(&self) -> bool {
        self.iter().all(|v| v.to_bits() == 0)
    }
    fn reverse(&mut self) {
        self.as_mut_slice().reverse();
    }
}

/// Integer lists `Key { a, b, c }`, each element in `$min..=$max` (a u32 list takes
/// negative values wrapped, as its single-value form does).
macro_rules! int_list_value {
    ($t:ty, $min:expr, $max:expr) => {
        impl<const N: usize> MdlValue for [$t; N] {
            fn read(&mut self, cx: &mut Cx, c: usize, what: &'static str) {
                if let Some(v) = cx.ints::<N>(c, $min, $max, what) {
                    *self = v.map(|x| x as $t);
                }
            }
            fn write_value(&self, out: &mut Out) {
                out.ints(self.map(i64::from));
            }
            fn is_zero(&self) -> bool {
                self.iter().all(|v| *v == 0)
            }
        }
    };
}
int_list_value!(u32, i32::MIN as i64, u32::MAX as i64);
int_list_value!(u8, 0, 255);

impl MdlValue for FixedString {
    fn read(&mut self, cx: &mut Cx, c: usize, _what: &'static str) {
        if let Some(v) = cx.str_arg(c) {
            *self = v;
        }
    }
    fn write_value(&self, out: &mut Out) {
        out.string(self);
    }
    fn is_zero(&self) -> bool {
        self.is_empty()
    }
}

/// PRE2 segment colors: `SegmentColor { Color { r, g, b }, Color { .. }, Color { .. } }`,
/// each printed reversed like every static color.
impl MdlValue for [[f32; 3]; 3] {
    fn read(&mut self, cx: &mut Cx, c: usize, _what: &'static str) {
        let mut n = 0;
        for d in cx.children(c) {
            if !is(cx.key(d), "Color") {
                cx.unknown(d, "SegmentColor", &["Color"]);
            } else {
                if let (Some(dst), Some(v)) = (self.get_mut(n), cx.floats::<3>(d)) {
                    *dst = mdl_color(v);
                }
                n += 1;
            }
        }
        if n != 3 {
            let kind = crate::mdl::MdlErrorKind::WrongCount {
                expected: 3,
                found: n,
                what: "`SegmentColor` colors".into(),
            };
            cx.error(c, kind);
        }
    }
    fn write_value(&self, _out: &mut Out) {}
    fn write_item(&self, out: &mut Out, _prefix: &str, key: &str) {
        out.open(key);
        for c in self {
            out.kv_floats("Color", &mdl_color(*c));
        }
        out.close();
    }
    fn is_zero(&self) -> bool {
        self.iter().all(|c| c.is_zero())
    }
}

/// An extent: `MinimumExtent`, `MaximumExtent` and `BoundsRadius` lines, each written when
/// not bitwise zero.
impl MdlValue for Extent {
    fn read(&mut self, cx: &mut Cx, c: usize, _what: &'static str) {
        super::geoset::read_extent_item(cx, c, self);
    }
    fn write_value(&self, _out: &mut Out) {}
    fn write_item(&self, out: &mut Out, _prefix: &str, _key: &str) {
        super::geoset::write_extent(out, self);
    }
    fn is_zero(&self) -> bool {
        self.min.is_zero() && self.max.is_zero() && self.radius.is_zero()
    }
}

/// An event object's `EventTrack n { GlobalSeqId g, t, ... }`.
impl MdlValue for Option<crate::model::EventTrack> {
    fn read(&mut self, cx: &mut Cx, c: usize, _what: &'static str) {
        let mut t = crate::model::EventTrack {
            global_sequence_id: -1,
            times: Vec::new(),
        };
        let tree = cx.t;
        for k in tree.children(c) {
            if is(cx.key(k), "GlobalSeqId") {
                t.global_sequence_id = cx.i32_arg(k, "GlobalSeqId").unwrap_or(-1);
            } else {
                for a in tree.item_atoms(k) {
                    let v = cx.atom_int(a, k, i32::MIN as i64, u32::MAX as i64, "an event time");
                    if let Some(v) = v {
                        t.times.push(v as u32);
                    }
                }
            }
        }
        *self = Some(t);
    }
    fn write_value(&self, _out: &mut Out) {}
    fn write_item(&self, out: &mut Out, _prefix: &str, key: &str) {
        let Some(t) = self else { return };
        out.open_counted(key, t.times.len());
        if t.global_sequence_id != -1 {
            out.kv_int("GlobalSeqId", t.global_sequence_id as i64);
        }
        for v in &t.times {
            out.indent();
            out.int(*v as i64);
            out.raw(",\n");
        }
        out.close();
    }
    fn is_zero(&self) -> bool {
        self.is_none()
    }
}

/// The MDL shape of a declared record: its fields' forms, the keywords of the tracks no
/// field pairs with, the head's and the node flags' words. At most one field group.
pub(crate) struct Shape {
    /// The fields' MDL forms, in MDX order.
    pub fields: &'static [Field],
    /// The same in the order MDL writes them (for hint lists).
    pub written: &'static [Field],
    /// Tracks no field pairs with (`Visibility`), with their keywords.
    pub extra: &'static [(Tag, &'static str)],
    /// The head's keywords (node items), for hint lists.
    pub head: &'static [&'static str],
    /// Node flag words and their bits.
    pub flags: &'static [(&'static str, u32)],
}

impl Shape {
    /// The field group (sub-block), if any.
    pub(crate) fn group(&self) -> Option<&'static str> {
        self.fields.iter().find_map(|f| f.group)
    }

    /// Track keywords in lookup order for a line in `group` (`None`: the block itself):
    /// the group's fields, the ungrouped fields, the grouped ones, then the other tracks.
    fn track_names(
        &self,
        group: Option<&'static str>,
    ) -> impl Iterator<Item = (Tag, &'static str)> + '_ {
        let of = |f: &Field| {
            f.track
                .into_iter()
                .flat_map(|(tag, keys)| keys.iter().map(move |k| (tag, *k)))
        };
        let own = self
            .fields
            .iter()
            .filter(move |f| group.is_some() && f.group == group)
            .flat_map(of);
        let top = self
            .fields
            .iter()
            .filter(|f| f.group.is_none())
            .flat_map(of);
        let grouped = self
            .fields
            .iter()
            .filter(move |f| f.group.is_some() && f.group != group)
            .flat_map(of);
        own.chain(top)
            .chain(grouped)
            .chain(self.extra.iter().copied())
    }

    /// The track that keyword `k` names in `group`.
    pub(crate) fn tag_of(&self, k: &[u8], group: Option<&'static str>) -> Option<Tag> {
        // The order of `track_names`, in plain loops: this runs for every item read.
        let passes: [&dyn Fn(&Field) -> bool; 3] = [
            &|f| group.is_some() && f.group == group,
            &|f| f.group.is_none(),
            &|f| f.group.is_some() && f.group != group,
        ];
        for pass in passes {
            for f in self.fields {
                if let Some((tag, keys)) = f.track {
                    if pass(f) && keys.iter().any(|w| is(k, w)) {
                        return Some(tag);
                    }
                }
            }
        }
        self.extra.iter().find(|(_, w)| is(k, w)).map(|(t, _)| *t)
    }

    /// The keyword written for track `tag` in `group`: the first that reads back as the
    /// same track there (`None`: written under its raw tag, as `KTTR` outside `Target`).
    pub(crate) fn keyword_of(&self, tag: Tag, group: Option<&'static str>) -> Option<&'static str> {
        self.track_names(group)
            .filter(|(t, _)| *t == tag)
            .map(|(_, w)| w)
            .find(|w| self.tag_of(w.as_bytes(), group) == Some(tag))
    }

    /// Reads item `c` if it is a track of the record (by keyword or raw tag).
    pub(crate) fn read_track(
        &self,
        cx: &mut Cx,
        c: usize,
        group: Option<&'static str>,
        tracks: &mut Tracks,
    ) -> bool {
        let k = cx.key(c);
        let tag = self
            .tag_of(k, group)
            .filter(|_| super::node::is_track(cx, c))
            .or_else(|| super::node::raw_tag(k).filter(|_| cx.has_body(c)));
        match tag.and_then(|tag| crate::mdl::tracks::read_track(cx, c, tag)) {
            Some(a) => {
                tracks.0.push(a);
                true
            }
            None => tag.is_some(),
        }
    }

    /// Sets the bit of node flag word `c`; false if it is none.
    pub(crate) fn read_flag(&self, cx: &Cx, c: usize, flags: &mut u32) -> bool {
        let k = cx.key(c);
        match self.flags.iter().find(|(w, _)| is(k, w)) {
            Some((_, bit)) => {
                *flags |= bit;
                true
            }
            None => false,
        }
    }

    /// Writes the words of the set node flag bits.
    pub(crate) fn write_flags(&self, out: &mut Out, flags: u32) {
        for (word, bit) in self.flags {
            if flags & bit != 0 {
                out.flag(word);
            }
        }
    }

    /// What no reader took: a static value of a track-only field is read as a track
    /// (MDX stores `Visibility` only as a track); anything else is unknown in `block`.
    pub(crate) fn fallback(
        &self,
        cx: &mut Cx,
        c: usize,
        block: &'static str,
        group: Option<&'static str>,
        tracks: Option<&mut Tracks>,
    ) {
        match (self.tag_of(cx.key(c), group), tracks) {
            (Some(tag), Some(tracks)) => {
                if let Some(a) = crate::mdl::tracks::read_static_track(cx, c, tag, block) {
                    tracks.0.push(a);
                }
            }
            _ => {
                let words = self.words(group);
                cx.unknown(c, block, &words);
            }
        }
    }

    /// The keywords of the block (or of its group), for the hint of an unknown keyword.
    pub(crate) fn words(&self, group: Option<&'static str>) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        let mut add = |w: &'static str| {
            if !out.contains(&w) {
                out.push(w);
            }
        };
        let fields = || {
            self.written
                .iter()
                .filter(|f| group.is_none() || f.group == group)
        };
        if group.is_none() {
            self.head.iter().for_each(|w| add(w));
            self.flags.iter().for_each(|(w, _)| add(w));
        }
        for f in fields() {
            f.words().for_each(&mut add);
        }
        for f in fields() {
            f.track
                .iter()
                .flat_map(|(_, k)| k.iter())
                .for_each(|w| add(w));
        }
        if group.is_none() {
            self.extra.iter().for_each(|(_, w)| add(w));
            self.group().into_iter().for_each(add);
        }
        out
    }
}

/// Writes a declared record's lines: each field in MDL order, opening the field group
/// where its first field comes, with the record's tracks around it in stored order.
pub(crate) struct Body<'o, 't> {
    out: &'o mut Out,
    shape: &'static Shape,
    tracks: &'t Tracks,
    group: Option<&'static str>,
    inner: &'t [Animation],
    rest: &'t [Animation],
}

impl<'o, 't> Body<'o, 't> {
    /// Starts the body of a block whose head is written.
    pub(crate) fn new(out: &'o mut Out, shape: &'static Shape, tracks: &'t Tracks) -> Self {
        Body {
            out,
            shape,
            tracks,
            group: None,
            inner: &[],
            rest: &tracks.0,
        }
    }

    /// Writes one field (nothing when the version lacks it).
    pub(crate) fn field<T: MdlValue>(&mut self, decl: &Decl<T>, v: &T, version: u32) {
        if version < decl.since {
            return;
        }
        if decl.mdl.group != self.group {
            self.leave();
            if let Some(g) = decl.mdl.group {
                self.enter(g);
            }
        }
        decl.mdl.write(self.out, v, &(decl.absent)(), self.tracks);
    }

    /// Writes the tracks before the group's run, opens the group.
    fn enter(&mut self, g: &'static str) {
        let inner: Vec<Tag> = self
            .shape
            .fields
            .iter()
            .filter(|f| f.group == Some(g))
            .filter_map(|f| f.track.map(|(t, _)| t))
            .collect();
        let (before, run, after) = split_run(self.rest, &inner);
        self.write_tracks(before, None);
        self.out.open(g);
        self.group = Some(g);
        self.inner = run;
        self.rest = after;
    }

    /// Writes the group's tracks and closes it.
    fn leave(&mut self) {
        if let Some(g) = self.group.take() {
            self.write_tracks(self.inner, Some(g));
            self.out.close();
        }
    }

    /// Closes any group and writes the remaining tracks.
    pub(crate) fn finish(mut self) {
        self.leave();
        self.write_tracks(self.rest, None);
    }

    fn write_tracks(&mut self, list: &[Animation], group: Option<&'static str>) {
        for a in list {
            match self.shape.keyword_of(a.tag, group) {
                Some(kw) => crate::mdl::tracks::write_track(self.out, kw, a),
                None => crate::mdl::tracks::write_track(self.out, &a.tag.text(), a),
            }
        }
    }
}

/// Splits stored tracks around the ones a sub-block holds: the tracks before the first one
/// tagged `inner`, the unbroken run of `inner` tracks from there, and the rest (where any
/// later `inner` track is written at the block level, which the reader also accepts).
fn split_run<'a>(
    all: &'a [Animation],
    inner: &[Tag],
) -> (&'a [Animation], &'a [Animation], &'a [Animation]) {
    let start = all
        .iter()
        .position(|a| inner.contains(&a.tag))
        .unwrap_or(all.len());
    let len = all[start..]
        .iter()
        .take_while(|a| inner.contains(&a.tag))
        .count();
    (&all[..start], &all[start..start + len], &all[start + len..])
}
