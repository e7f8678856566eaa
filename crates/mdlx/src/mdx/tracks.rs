//! MDX encoding of animation tracks:
//! `tag, key count u32, interpolation u32, global sequence id i32`, then per key
//! `time i32, value` and, for Hermite/Bezier, `in-tangent, out-tangent`.

use super::error::MdxResult;
use super::reader::{scoped, Reader};
use super::writer::Writer;
use crate::model::{Animation, AnyTrack, Interpolation, Key, Tag, Track, Tracks};
use crate::spec::{track_kind, TrackKind};

/// A value that a track key can hold.
pub(crate) trait TrackValue: Copy + Default {
    /// Encoded size in bytes.
    const SIZE: usize;
    /// Reads one value.
    fn read(r: &mut Reader) -> MdxResult<Self>;
    /// Writes one value.
    fn write(&self, w: &mut Writer);
    /// Decodes one value from exactly [`Self::SIZE`] bytes (the caller has checked the
    /// length of the whole track, so no per-value bounds checks are needed).
    fn decode(bytes: &[u8]) -> Self {
        Self::read(&mut Reader::new(bytes)).unwrap_or_default()
    }
}

#[inline(always)]
fn le4(b: &[u8]) -> [u8; 4] {
    [b[0], b[1], b[2], b[3]]
}

impl TrackValue for f32 {
    const SIZE: usize = 4;
    fn read(r: &mut Reader) -> MdxResult<Self> {
        r.f32()
    }
    fn write(&self, w: &mut Writer) {
        w.f32(*self)
    }
    #[inline(always)]
    fn decode(bytes: &[u8]) -> Self {
        f32::from_le_bytes(le4(bytes))
    }
}

impl TrackValue for u32 {
    const SIZE: usize = 4;
    fn read(r: &mut Reader) -> MdxResult<Self> {
        r.u32()
    }
    fn write(&self, w: &mut Writer) {
        w.u32(*self)
    }
    #[inline(always)]
    fn decode(bytes: &[u8]) -> Self {
        u32::from_le_bytes(le4(bytes))
    }
}

impl<const N: usize> TrackValue for [f32; N]
where
    [f32; N]: Default,
{
    const SIZE: usize = 4 * N;
    fn read(r: &mut Reader) -> MdxResult<Self> {
        r.f32s::<N>()
    }
    fn write(&self, w: &mut Writer) {
        w.f32s(self)
    }
    #[inline(always)]
    fn decode(bytes: &[u8]) -> Self {
        // A plain loop: `array::from_fn` here was left as an out-of-line call per key.
        let mut out = [0f32; N];
        for (v, c) in out.iter_mut().zip(bytes.chunks_exact(4)) {
            *v = f32::from_le_bytes(le4(c));
        }
        out
    }
}

/// Reads a track body (after its tag).
pub(crate) fn read_track<T: TrackValue>(r: &mut Reader) -> MdxResult<Track<T>> {
    let count = r.u32()?;
    let interpolation = Interpolation::from_u32(r.u32()?);
    let global_sequence_id = r.i32()?;
    let per_key = if interpolation.has_tangents() {
        4 + 3 * T::SIZE
    } else {
        4 + T::SIZE
    };
    // The whole track is checked and taken at once; its keys are then decoded from the
    // slice without a bounds check per value.
    let len = r.check_count(count, per_key)?;
    let raw = r.bytes(len)?;
    let tangents = interpolation.has_tangents();
    let keys = raw
        .chunks_exact(per_key)
        .map(|c| {
            let value = T::decode(&c[4..]);
            let (in_tan, out_tan) = if tangents {
                (
                    T::decode(&c[4 + T::SIZE..]),
                    T::decode(&c[4 + 2 * T::SIZE..]),
                )
            } else {
                (T::default(), T::default())
            };
            Key {
                time: i32::from_le_bytes(le4(c)),
                value,
                in_tan,
                out_tan,
            }
        })
        .collect();
    Ok(Track {
        interpolation,
        global_sequence_id,
        keys,
    })
}

/// Writes a track body (after its tag).
pub(crate) fn write_track<T: TrackValue>(w: &mut Writer, t: &Track<T>) -> MdxResult<()> {
    w.count(t.keys.len())?;
    w.u32(t.interpolation.to_u32());
    w.i32(t.global_sequence_id);
    let tangents = t.interpolation.has_tangents();
    for k in &t.keys {
        w.i32(k.time);
        k.value.write(w);
        if tangents {
            k.in_tan.write(w);
            k.out_tan.write(w);
        }
    }
    Ok(())
}

/// Reads the track under `tag` (already consumed), choosing the value kind from the tag.
pub(crate) fn read_any(r: &mut Reader, tag: Tag, kind: TrackKind) -> MdxResult<Animation> {
    let track = scoped(
        || tag.text(),
        || {
            Ok(match kind {
                TrackKind::Float => AnyTrack::Float(read_track(r)?),
                TrackKind::Vector3 => AnyTrack::Vector3(read_track(r)?),
                TrackKind::Quaternion => AnyTrack::Quaternion(read_track(r)?),
                TrackKind::Integer => AnyTrack::Integer(read_track(r)?),
            })
        },
    )?;
    Ok(Animation { tag, track })
}

/// Writes one tagged track.
pub(crate) fn write_any(w: &mut Writer, a: &Animation) -> MdxResult<()> {
    w.tag(a.tag);
    match &a.track {
        AnyTrack::Float(t) => write_track(w, t),
        AnyTrack::Vector3(t) => write_track(w, t),
        AnyTrack::Quaternion(t) => write_track(w, t),
        AnyTrack::Integer(t) => write_track(w, t),
    }
}

/// Reads known tracks until the window ends or an unknown tag appears; returns the tracks
/// and the unparsed remainder (kept so the record writes back byte for byte).
pub(crate) fn read_tracks(r: &mut Reader) -> MdxResult<(Tracks, Vec<u8>)> {
    let mut tracks = Vec::new();
    while let Some(tag) = r.peek_tag() {
        let Some(kind) = track_kind(tag) else { break };
        r.tag()?;
        tracks.push(read_any(r, tag, kind)?);
    }
    Ok((Tracks(tracks), r.rest().to_vec()))
}

/// Writes tracks and then the kept remainder.
pub(crate) fn write_tracks(w: &mut Writer, tracks: &Tracks, tail: &[u8]) -> MdxResult<()> {
    for a in tracks.iter() {
        write_any(w, a)?;
    }
    w.bytes(tail);
    Ok(())
}
