//! The MDL keyword tables of the declared records (see [`crate::model`]): each field's
//! keywords, the track that animates it and how its line is spelled. Plain data: the MDL
//! codec reads and writes by them.

use super::Tag;

/// How a field's line is written, and what its keyword means when read.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Style {
    /// `static Key v,`; left out when the field also has a track and its value has the
    /// bits of what an absent line reads as, so that both survive.
    Static,
    /// `Key v,` always.
    Plain,
    /// `Key v,` only when the value is not bitwise zero (an empty string, no event track).
    NonZero,
    /// A bare word from the list, the value being its index; an unknown value writes none.
    Words(&'static [&'static str]),
    /// A bare word (`Squirt`) for a non-zero value, which reads as 1.
    Flag,
    /// Bare words for the set bits of the table.
    Bits(&'static [(&'static str, u32)]),
    /// `Key <id>`, or `Key <word>` for -1 (`GeosetId Multiple`).
    IdOr(&'static str),
    /// No line: a detail of the MDX layout that MDL has no words for. A record whose value
    /// differs from what an absent line reads as is kept whole by the extension block.
    Hidden,
}

/// One field's MDL form.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field {
    /// Keywords: the first is written, all are read (any case).
    pub keys: &'static [&'static str],
    /// The track that animates the field, with its keywords (the first is written).
    pub track: Option<(Tag, &'static [&'static str])>,
    /// How the line is written.
    pub style: Style,
    /// The sub-block the field is written in (`Particle`, `Target`), if any.
    pub group: Option<&'static str>,
    /// Static colors are written in the reverse of their MDX order (the MDL writer's `mdl_color`).
    pub reversed: bool,
}

impl Field {
    /// A field written as `style` under `key`.
    pub(crate) const fn new(key: &'static [&'static str], style: Style) -> Field {
        Field {
            keys: key,
            track: None,
            style,
            group: None,
            reversed: false,
        }
    }

    /// `static Key v` animated by `tag` under the same keyword.
    pub(crate) const fn animated(keys: &'static [&'static str], tag: Tag) -> Field {
        Field::new(keys, Style::Static).track(tag, keys)
    }

    /// Animated by `tag` under `keywords`.
    pub(crate) const fn track(mut self, tag: Tag, keywords: &'static [&'static str]) -> Field {
        self.track = Some((tag, keywords));
        self
    }

    /// Written inside the sub-block `group`.
    pub(crate) const fn group(mut self, group: &'static str) -> Field {
        self.group = Some(group);
        self
    }

    /// A color, printed in the reverse of its MDX order.
    pub(crate) const fn color(mut self) -> Field {
        self.reversed = true;
        self
    }

    /// The keyword written (empty for word fields).
    pub(crate) fn key(&self) -> &'static str {
        self.keys.first().copied().unwrap_or("")
    }

    /// The keywords the field answers to, for hint lists.
    pub(crate) fn words(&self) -> impl Iterator<Item = &'static str> {
        let (a, b): (&[&str], &[(&str, u32)]) = match self.style {
            Style::Words(words) => (words, &[]),
            Style::Bits(table) => (&[], table),
            _ => (self.keys, &[]),
        };
        a.iter().copied().chain(b.iter().map(|(w, _)| *w))
    }
}

/// The keywords of an extent's three lines.
pub(crate) const EXTENT_WORDS: &[&str] = &["MinimumExtent", "MaximumExtent", "BoundsRadius"];

/// The MDL keywords of the two PRE2 emitter-area floats: `.0` is written for the field
/// `length` (the first of the two in MDX), `.1` for the field `width` (the second).
///
/// Settled (FORMAT-NOTES' open point "PRE2 width/length"; evidence in
/// `tests/peer_mdl.rs`): the first float pairs with the KP2N track (their values agree in
/// `ArcaneWave.mdx`), and KP2N is `Length` for MdxLib, the `wc3` crate and war3-model's
/// track names; MdlxConv's twin `Alliance_Exp.mdl` prints the first float as `Length`.
/// Magos' War3 Model Editor and mdx-m3-viewer print it as `Width`; their MDL swaps the two.
pub(crate) const PRE2_AREA_KEYWORDS: (&str, &str) = ("Length", "Width");

/// Particle emitter flag words and their node-flag bits.
pub(crate) const PREM_FLAGS: &[(&str, u32)] =
    &[("EmitterUsesMDL", 0x8000), ("EmitterUsesTGA", 0x10000)];

/// Particle emitter 2 flag words and their node-flag bits, in the seed's order.
pub(crate) const PRE2_FLAGS: &[(&str, u32)] = &[
    ("SortPrimsFarZ", 0x10000),
    ("Unshaded", 0x8000),
    ("LineEmitter", 0x20000),
    ("Unfogged", 0x40000),
    ("ModelSpace", 0x80000),
    ("XYQuad", 0x100000),
];

/// Popcorn emitter flag words (mdx-m3-viewer, Retera's Model Studio, war3-model; the
/// corpus has none set).
pub(crate) const POPCORN_FLAGS: &[(&str, u32)] = &[
    ("SortPrimsFarZ", 0x10000),
    ("Unshaded", 0x8000),
    ("Unfogged", 0x40000),
];
