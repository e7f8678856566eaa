//! Animated values in MDL:
//!
//! ```text
//! Translation 2 {
//!     Hermite,
//!     GlobalSeqId 0,
//!     0: { 0, 0, 0 },
//!         InTan { 0, 0, 0 },
//!         OutTan { 0, 0, 0 },
//!     ...
//! }
//! ```
//! The count after the keyword is layout and is ignored when reading.

use super::cx::{is, Cx};
use super::error::MdlErrorKind;
use super::out::Out;
use super::parse::AtomKind;
use crate::model::{Animation, AnyTrack, Interpolation, Key, Tag, Track};
use crate::spec::{track_kind, TrackKind};

/// Interpolation keywords, by stored number.
pub(crate) const INTERPOLATIONS: [&str; 4] = ["DontInterp", "Linear", "Hermite", "Bezier"];

/// A value kind that can be read from a key's text and written back.
trait MdlValue: Copy + Default {
    /// Reads the value of item `i`: its body, or its atoms after the first `skip`.
    fn read(cx: &mut Cx, i: usize, skip: usize) -> Option<Self>;
    fn write(&self, out: &mut Out);
}

impl MdlValue for f32 {
    fn read(cx: &mut Cx, i: usize, skip: usize) -> Option<Self> {
        cx.floats_after::<1>(i, skip).map(|v| v[0])
    }
    fn write(&self, out: &mut Out) {
        out.f32(*self)
    }
}

impl MdlValue for u32 {
    fn read(cx: &mut Cx, i: usize, skip: usize) -> Option<Self> {
        let t = cx.t;
        let own = t.item_atoms(i);
        let a = own[skip.min(own.len())..]
            .iter()
            .chain(t.children(i).flat_map(|c| t.item_atoms(c)))
            .copied()
            .find(|a| a.kind != AtomKind::Colon);
        match a {
            Some(a) => cx
                .atom_int(&a, i, i32::MIN as i64, u32::MAX as i64, "an integer key")
                .map(|v| v as u32),
            None => {
                cx.error(
                    i,
                    MdlErrorKind::WrongCount {
                        expected: 1,
                        found: 0,
                        what: cx.what(i),
                    },
                );
                None
            }
        }
    }
    fn write(&self, out: &mut Out) {
        out.int(*self as i32 as i64)
    }
}

impl<const N: usize> MdlValue for [f32; N]
where
    [f32; N]: Default,
{
    fn read(cx: &mut Cx, i: usize, skip: usize) -> Option<Self> {
        cx.floats_after::<N>(i, skip)
    }
    fn write(&self, out: &mut Out) {
        out.floats(self)
    }
}

/// Reads the track block at item `i` (`Keyword N { ... }`) as the track `tag`.
pub(crate) fn read_track(cx: &mut Cx, i: usize, tag: Tag) -> Option<Animation> {
    let track = match track_kind(tag)? {
        TrackKind::Float => AnyTrack::Float(read_keys(cx, i)),
        TrackKind::Vector3 => AnyTrack::Vector3(read_keys(cx, i)),
        TrackKind::Quaternion => AnyTrack::Quaternion(read_keys(cx, i)),
        TrackKind::Integer => AnyTrack::Integer(read_keys(cx, i)),
    };
    Some(Animation { tag, track })
}

/// Reads item `i`, a static value (`static Visibility 0`, `Visibility 0`,
/// `static Translation { 1, 2, 3 }`) of a field that MDX stores only as a track, as the
/// track `tag` of `block`, with a [`MdlErrorKind::TrackOnly`] warning.
///
/// The track is meant to hold the value wherever the model is looked at, as the author of
/// a static line means: interpolation DontInterp (nothing to blend toward), no global
/// sequence, and one key at time 0 plus one at the start of every sequence (in
/// [`Cx::sequence_starts`]). A single key at 0 would not do: the game, like
/// [`crate::anim`], uses only the keys inside the playing sequence's interval and falls
/// back to the field's default (visible, no translation) in a sequence with none, so
/// `static Visibility 0` would hide an emitter only in the sequences that contain frame 0.
/// A key at a sequence's start holds from its first frame to its last. A global sequence
/// would ignore the playing sequence, but the model may have none, and borrowing one would
/// tie the field to an unrelated animation. Without sequences the one key at 0 remains.
pub(crate) fn read_static_track(
    cx: &mut Cx,
    i: usize,
    tag: Tag,
    block: &'static str,
) -> Option<Animation> {
    let keyword = String::from_utf8_lossy(cx.key(i)).into_owned();
    cx.warn(i, MdlErrorKind::TrackOnly { keyword, block });
    let track = match track_kind(tag)? {
        TrackKind::Float => AnyTrack::Float(held(cx, i)?),
        TrackKind::Vector3 => AnyTrack::Vector3(held(cx, i)?),
        TrackKind::Quaternion => AnyTrack::Quaternion(held(cx, i)?),
        TrackKind::Integer => AnyTrack::Integer(held(cx, i)?),
    };
    Some(Animation { tag, track })
}

/// The track holding item `i`'s static value throughout (see [`read_static_track`]).
fn held<T: MdlValue>(cx: &mut Cx, i: usize) -> Option<Track<T>> {
    let skip = cx.t.item_atoms(i).len() - cx.args(i).len();
    let value = T::read(cx, i, skip)?;
    let mut times: Vec<u32> = std::iter::once(0)
        .chain(cx.sequence_starts.iter().copied())
        .collect();
    times.sort_unstable();
    times.dedup();
    Some(Track {
        interpolation: Interpolation::None,
        global_sequence_id: -1,
        keys: times
            .into_iter()
            .map(|time| Key {
                time: time as i32,
                value,
                in_tan: T::default(),
                out_tan: T::default(),
            })
            .collect(),
    })
}

fn read_keys<T: MdlValue>(cx: &mut Cx, i: usize) -> Track<T> {
    let mut track = Track {
        interpolation: Interpolation::None,
        global_sequence_id: -1,
        keys: Vec::with_capacity(cx.t.child_count(i)),
    };
    let t = cx.t;
    for c in t.children(i) {
        let atoms = t.item_atoms(c);
        let first = atoms.first().copied();
        match first {
            Some(a)
                if a.kind == AtomKind::Number
                    && atoms.get(1).is_some_and(|b| b.kind == AtomKind::Colon) =>
            {
                let Some(time) = cx.atom_int(&a, c, i32::MIN as i64, u32::MAX as i64, "a key time")
                else {
                    continue;
                };
                if let Some(value) = T::read(cx, c, 2) {
                    track.keys.push(Key {
                        time: time as u32 as i32,
                        value,
                        in_tan: T::default(),
                        out_tan: T::default(),
                    });
                }
            }
            Some(a) if a.kind == AtomKind::Word => {
                let w = t.text(&a);
                if let Some(n) = INTERPOLATIONS.iter().position(|k| is(w, k)) {
                    track.interpolation = Interpolation::from_u32(n as u32);
                } else if is(w, "GlobalSeqId") {
                    if let Some(v) = cx.i32_arg(c, "GlobalSeqId") {
                        track.global_sequence_id = v;
                    }
                } else if is(w, "InTan") || is(w, "OutTan") {
                    let Some(v) = T::read(cx, c, 1) else { continue };
                    match track.keys.last_mut() {
                        Some(k) if is(w, "InTan") => k.in_tan = v,
                        Some(k) => k.out_tan = v,
                        None => cx.error(c, MdlErrorKind::Note("a tangent before any key".into())),
                    }
                } else {
                    cx.unknown(
                        c,
                        "a track",
                        &[
                            "DontInterp",
                            "Linear",
                            "Hermite",
                            "Bezier",
                            "GlobalSeqId",
                            "<time>: <value>",
                            "InTan",
                            "OutTan",
                        ],
                    );
                }
            }
            _ => cx.error(
                c,
                MdlErrorKind::Expected {
                    expected: "`<time>: <value>` or a track keyword".into(),
                    found: cx.describe(c),
                },
            ),
        }
    }
    track
}

/// Writes `Keyword N { ... }` for a track.
pub(crate) fn write_track(out: &mut Out, keyword: &str, a: &Animation) {
    match &a.track {
        AnyTrack::Float(t) => write_keys(out, keyword, t),
        AnyTrack::Vector3(t) => write_keys(out, keyword, t),
        AnyTrack::Quaternion(t) => write_keys(out, keyword, t),
        AnyTrack::Integer(t) => write_keys(out, keyword, t),
    }
}

fn write_keys<T: MdlValue>(out: &mut Out, keyword: &str, t: &Track<T>) {
    out.open_counted(keyword, t.keys.len());
    let n = t.interpolation.to_u32().min(3) as usize;
    out.flag(INTERPOLATIONS[n]);
    if t.global_sequence_id != -1 {
        out.kv_int("GlobalSeqId", t.global_sequence_id as i64);
    }
    let tangents = t.interpolation.has_tangents();
    for k in &t.keys {
        out.indent();
        out.int(k.time as i64);
        out.raw(": ");
        k.value.write(out);
        out.raw(",\n");
        if tangents {
            out.indent();
            out.raw("\tInTan ");
            k.in_tan.write(out);
            out.raw(",\n");
            out.indent();
            out.raw("\tOutTan ");
            k.out_tan.write(out);
            out.raw(",\n");
        }
    }
    out.close();
}
