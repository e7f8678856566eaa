//! Alpha animation tracks (wowdev page, "MDLKEYTRACK", "MDLSIMPLEKEYTRACK",
//! "C4QuaternionCompressed").
//!
//! Keyed tracks (`count, type, global sequence id`, then `time, value[, in, out]`) are laid
//! out as in Warcraft III and reuse its MDX track code. What differs:
//! - rotations (`KGRT`, `KTAR`) are quaternions packed in 64 bits ([`PackedQuaternion`]);
//!   the bits are kept, so re-encoding is exact;
//! - `KMTF` and `KRTX` are *simple* tracks: `count, global sequence id`, then `(time, value)`
//!   pairs, with no interpolation field; `KEVT` is a simple track of bare times;
//! - visibility is `KVIS` in every record that has it.

use crate::mdx::reader::{scoped, Reader};
use crate::mdx::tracks::{read_track, write_track, TrackValue};
use crate::mdx::writer::Writer;
use crate::mdx::MdxResult;
use crate::model::{Tag, Track};
use crate::spec::track as t;

/// Alpha-only track tags (the others are shared with Warcraft III, see [`crate::spec::track`]).
pub mod tag {
    use crate::model::Tag;
    /// Visibility, in lights, attachments, emitters, ribbons and cameras.
    pub const KVIS: Tag = Tag(*b"KVIS");
    /// Particle emitter 2 life span.
    pub const KLIF: Tag = Tag(*b"KLIF");
    /// Particle emitter 2 z source.
    pub const KP2Z: Tag = Tag(*b"KP2Z");
    /// Event times.
    pub const KEVT: Tag = Tag(*b"KEVT");
}

/// A rotation packed in 64 bits, as every alpha file stores quaternions.
///
/// Bits 42..63 hold x (signed, units of 2^-21), bits 21..41 hold y and bits 0..20 hold z
/// (signed, units of 2^-20); w is not stored and comes back as `sqrt(1 - x² - y² - z²)`
/// (0 when that is below 2^-20), so it is never negative.
///
/// **The page is wrong about z:** its `Get` reads z as `m_data & 0x1FFFFF`, unsigned. The
/// boar (version 1300) has 3,861 rotation keys with bit 20 set; read unsigned, all of them
/// give x² + y² + z² > 1 (up to 4.3), read signed none does (at most 0.77). The page's
/// own `Set` stores z as a signed 21-bit number. `tests/alpha.rs` checks this on the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PackedQuaternion(pub u64);

const X_UNIT: f64 = 1.0 / 2_097_152.0; // 2^-21
const YZ_UNIT: f64 = 1.0 / 1_048_576.0; // 2^-20

impl PackedQuaternion {
    /// The quaternion as `[x, y, z, w]`.
    pub fn unpack(self) -> [f32; 4] {
        let v = self.0 as i64;
        let x = (v >> 42) as f64 * X_UNIT;
        let y = ((v << 22) >> 43) as f64 * YZ_UNIT;
        let z = ((v << 43) >> 43) as f64 * YZ_UNIT;
        let rest = 1.0 - (x * x + y * y + z * z);
        let w = if rest >= YZ_UNIT { rest.sqrt() } else { 0.0 };
        [x as f32, y as f32, z as f32, w as f32]
    }

    /// Packs `[x, y, z, w]`: the sign of the whole quaternion is flipped when w < 0 (the
    /// same rotation), then x, y, z are rounded to the nearest step and clamped to their
    /// fields. (The page's `Set` truncates instead of rounding.) NaN packs as 0.
    pub fn pack(q: [f32; 4]) -> Self {
        let sign = if q[3] < 0.0 { -1.0 } else { 1.0 };
        let field = |v: f32, unit: f64, bits: u32| -> u64 {
            let max = (1i64 << (bits - 1)) as f64;
            let n = (sign * v as f64 / unit).round().clamp(-max, max - 1.0) as i64;
            (n as u64) & ((1u64 << bits) - 1)
        };
        let x = field(q[0], X_UNIT, 22);
        let y = field(q[1], YZ_UNIT, 21);
        let z = field(q[2], YZ_UNIT, 21);
        PackedQuaternion((x << 42) | (y << 21) | z)
    }
}

impl TrackValue for PackedQuaternion {
    const SIZE: usize = 8;
    fn read(r: &mut Reader) -> MdxResult<Self> {
        let lo = r.u32()? as u64;
        let hi = r.u32()? as u64;
        Ok(PackedQuaternion(lo | (hi << 32)))
    }
    fn write(&self, w: &mut Writer) {
        w.u32(self.0 as u32);
        w.u32((self.0 >> 32) as u32);
    }
}

/// A key of an integer simple track (`MDLINTKEY`): time and value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IntKey {
    /// Time in milliseconds.
    pub time: u32,
    /// The value (a texture id for `KMTF`, a texture slot for `KRTX`).
    pub value: u32,
}

/// A track without interpolation (`MDLSIMPLEKEYTRACK`): `count, global sequence id, keys`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimpleTrack<K> {
    /// Global sequence index, or -1 (stored 0xFFFFFFFF) for none.
    pub global_sequence_id: i32,
    /// The keys.
    pub keys: Vec<K>,
}

/// A track of any alpha value kind.
#[derive(Clone, Debug, PartialEq)]
pub enum AlphaTrack {
    /// One float per key (alpha, visibility, intensity, emitter parameters...).
    Float(Track<f32>),
    /// Three floats per key (translation, scaling, colors stored blue, green, red).
    Vector3(Track<[f32; 3]>),
    /// A packed quaternion per key (`KGRT`, `KTAR`).
    Quaternion(Track<PackedQuaternion>),
    /// Integer keys without interpolation (`KMTF`, `KRTX`).
    Integer(SimpleTrack<IntKey>),
    /// Bare event times (`KEVT`).
    Event(SimpleTrack<i32>),
}

/// The value kind a track tag holds in alpha files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlphaTrackKind {
    /// One f32.
    Float,
    /// Three f32.
    Vector3,
    /// One packed quaternion (8 bytes).
    Quaternion,
    /// `(time, u32)` pairs, no interpolation.
    Integer,
    /// Times only, no interpolation.
    Event,
}

/// The value kind of an alpha track tag, `None` for a tag the page does not list.
pub fn track_kind(tag: Tag) -> Option<AlphaTrackKind> {
    use AlphaTrackKind::*;
    Some(match tag {
        t::KGRT | t::KTAR => Quaternion,
        t::KMTF | t::KRTX => Integer,
        tag::KEVT => Event,
        t::KGTR
        | t::KGSC
        | t::KTAT
        | t::KTAS
        | t::KGAC
        | t::KLAC
        | t::KLBC
        | t::KRCO
        | t::KCTR
        | t::KTTR => Vector3,
        t::KMTA
        | t::KGAO
        | t::KLAS
        | t::KLAE
        | t::KLAI
        | t::KLBI
        | t::KPEE
        | t::KPEG
        | t::KPLN
        | t::KPLT
        | t::KPEL
        | t::KPES
        | t::KP2S
        | t::KP2R
        | t::KP2L
        | t::KP2G
        | t::KP2E
        | t::KP2W
        | t::KP2N
        | t::KRHA
        | t::KRHB
        | t::KRAL
        | t::KCRL
        | tag::KVIS
        | tag::KLIF
        | tag::KP2Z => Float,
        _ => return None,
    })
}

/// One animated property of a record: its tag and keys.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaAnimation {
    /// The track tag.
    pub tag: Tag,
    /// The keys.
    pub track: AlphaTrack,
}

/// The tracks of a record, in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AlphaTracks(pub Vec<AlphaAnimation>);

impl crate::mdx::record::MdxTrackList for AlphaTracks {
    fn read_list(r: &mut Reader) -> MdxResult<(Self, Vec<u8>)> {
        read_tracks(r)
    }
    fn write_list(&self, w: &mut Writer, tail: &[u8]) -> MdxResult<()> {
        write_tracks(w, self, tail)
    }
}

impl crate::model::declare::TrackList for AlphaTracks {
    fn remove_tag(&mut self, tag: crate::model::Tag) -> bool {
        let before = self.0.len();
        self.0.retain(|a| a.tag != tag);
        self.0.len() != before
    }
}

impl AlphaTracks {
    /// The track under `tag`, if any.
    pub fn get(&self, tag: Tag) -> Option<&AlphaTrack> {
        self.0.iter().find(|a| a.tag == tag).map(|a| &a.track)
    }

    /// Number of tracks.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are no tracks.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn read_simple<K>(
    r: &mut Reader,
    each: usize,
    key: impl Fn(&mut Reader) -> MdxResult<K>,
) -> MdxResult<SimpleTrack<K>> {
    let count = r.u32()?;
    let global_sequence_id = r.i32()?;
    r.check_count(count, each)?;
    let keys = (0..count).map(|_| key(r)).collect::<MdxResult<_>>()?;
    Ok(SimpleTrack {
        global_sequence_id,
        keys,
    })
}

/// Reads the body of the track under `tag` (already consumed).
pub fn read_track_body(r: &mut Reader, tag: Tag, kind: AlphaTrackKind) -> MdxResult<AlphaTrack> {
    scoped(
        || tag.text(),
        || {
            Ok(match kind {
                AlphaTrackKind::Float => AlphaTrack::Float(read_track(r)?),
                AlphaTrackKind::Vector3 => AlphaTrack::Vector3(read_track(r)?),
                AlphaTrackKind::Quaternion => AlphaTrack::Quaternion(read_track(r)?),
                AlphaTrackKind::Integer => AlphaTrack::Integer(read_simple(r, 8, |r| {
                    Ok(IntKey {
                        time: r.u32()?,
                        value: r.u32()?,
                    })
                })?),
                AlphaTrackKind::Event => AlphaTrack::Event(read_simple(r, 4, |r| r.i32())?),
            })
        },
    )
}

/// Reads tracks until the window ends or a tag that is not an alpha track appears; returns
/// them and the unparsed remainder of the window (kept).
pub fn read_tracks(r: &mut Reader) -> MdxResult<(AlphaTracks, Vec<u8>)> {
    let mut out = Vec::new();
    while let Some(tag) = r.peek_tag() {
        let Some(kind) = track_kind(tag) else { break };
        r.tag()?;
        let track = read_track_body(r, tag, kind)?;
        out.push(AlphaAnimation { tag, track });
    }
    Ok((AlphaTracks(out), r.rest().to_vec()))
}

/// Writes one tagged track.
pub fn write_animation(w: &mut Writer, a: &AlphaAnimation) -> MdxResult<()> {
    w.tag(a.tag);
    match &a.track {
        AlphaTrack::Float(t) => write_track(w, t),
        AlphaTrack::Vector3(t) => write_track(w, t),
        AlphaTrack::Quaternion(t) => write_track(w, t),
        AlphaTrack::Integer(s) => {
            w.count(s.keys.len())?;
            w.i32(s.global_sequence_id);
            for k in &s.keys {
                w.u32(k.time);
                w.u32(k.value);
            }
            Ok(())
        }
        AlphaTrack::Event(s) => {
            w.count(s.keys.len())?;
            w.i32(s.global_sequence_id);
            for k in &s.keys {
                w.i32(*k);
            }
            Ok(())
        }
    }
}

/// Writes tracks, then the kept remainder.
pub fn write_tracks(w: &mut Writer, tracks: &AlphaTracks, tail: &[u8]) -> MdxResult<()> {
    for a in &tracks.0 {
        write_animation(w, a)?;
    }
    w.bytes(tail);
    Ok(())
}
