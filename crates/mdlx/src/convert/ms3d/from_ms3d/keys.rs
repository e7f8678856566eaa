//! Keys: the frame ranges that become sequences, the moments every animated joint is keyed
//! at, and a joint's keys there as WC3 tracks.

use super::super::axes::{euler_to_quat, point_to_wc3, rotation_to_wc3};
use super::super::pose::ms3d_key_at;
use super::super::time::{ranges_from_comment, FrameRange, FrameRate};
use super::ToModelOptions;
use crate::anim::math::{qconjugate, qmul, qrotate, Quat, Vec3};
use crate::model::{Animation, AnyTrack, Interpolation, Key as WcKey, Track};
use crate::ms3d::{Bone, Document, Key};
use crate::spec::track::{KGRT, KGTR};
use crate::Loss;

/// Every position and rotation key of every joint.
fn all_keys(doc: &Document) -> impl Iterator<Item = &Key> {
    doc.bones
        .iter()
        .flat_map(|b| b.position_keys.iter().chain(&b.rotation_keys))
}

/// The frame ranges that become sequences: the caller's, else those a model comment
/// lists, else one over the whole file.
pub(super) fn sequence_ranges(doc: &Document, opts: &ToModelOptions) -> Vec<FrameRange> {
    let mut ranges = opts.ranges.clone();
    if ranges.is_empty() {
        ranges = ranges_from_comment(doc);
    }
    if ranges.is_empty() {
        let last_key = all_keys(doc).map(|k| k.time).fold(1.0f32, f32::max);
        let last = doc.frames.map_or(last_key, |f| f as f32).max(1.0);
        ranges.push(FrameRange {
            name: "Anim".into(),
            first: 1.0,
            last,
            non_looping: false,
        });
    }
    ranges
}

/// The milliseconds every animated joint is keyed at, in order: every moment any joint has
/// a key, and each sequence's ends, in whole milliseconds. Each key then holds Milkshape's
/// own value at that millisecond, so a key that falls between two milliseconds does not
/// drag the others.
pub(super) fn moments(
    doc: &Document,
    rate: FrameRate,
    ranges: &[FrameRange],
    losses: &mut Vec<Loss>,
) -> Vec<i32> {
    // Keys before or after every range play in no sequence; a key at each range's ends
    // (Milkshape's own value there) keeps what they do inside the ranges.
    let lo = ranges.iter().map(|r| r.first).fold(f32::INFINITY, f32::min);
    let hi = ranges
        .iter()
        .map(|r| r.last)
        .fold(f32::NEG_INFINITY, f32::max);
    let outside = all_keys(doc).filter(|k| k.time < lo || k.time > hi).count();
    if outside > 0 {
        losses.push(Loss::new(
            "keys",
            format!("{outside} key(s) outside every sequence's frames (their effect inside is kept by keys at the sequence ends)"),
        ));
    }
    let mut moments: Vec<i32> = all_keys(doc)
        .filter(|k| k.time >= lo && k.time <= hi)
        .map(|k| rate.ms(k.time))
        .chain(
            ranges
                .iter()
                .flat_map(|r| [rate.ms(r.first), rate.ms(r.last)]),
        )
        .collect();
    moments.sort_unstable();
    moments.dedup();
    let rounded = all_keys(doc)
        .filter(|k| f64::from(rate.frame(f64::from(rate.ms(k.time)))) != f64::from(k.time))
        .count();
    if rounded > 0 {
        losses.push(Loss::new(
            "keys",
            format!(
                "{rounded} key time(s) fall between whole milliseconds at {} fps: keyed at the nearest millisecond with Milkshape's value there",
                rate.fps
            ),
        ));
    }
    moments
}

/// A joint's translation and rotation tracks: its keys at `moments`, in model axes (the
/// key's move turned by the joint's bind rotation `rb`; the key's turn conjugated by it).
pub(super) fn bone_tracks(b: &Bone, rb: Quat, rate: FrameRate, moments: &[i32]) -> Vec<Animation> {
    let resample = |keys: &[Key], rotation: bool| -> Vec<Key> {
        if keys.is_empty() {
            return Vec::new();
        }
        moments
            .iter()
            .filter_map(|&ms| ms3d_key_at(keys, rate.frame(f64::from(ms)), rotation))
            .collect()
    };
    let mut tracks = Vec::new();
    if !b.position_keys.is_empty() {
        let mut keys: Vec<WcKey<Vec3>> = resample(&b.position_keys, false)
            .iter()
            .map(|k| WcKey::at(rate.ms(k.time), point_to_wc3(qrotate(rb, k.value))))
            .collect();
        keys.sort_by_key(|k| k.time);
        tracks.push(Animation {
            tag: KGTR,
            track: AnyTrack::Vector3(linear(keys)),
        });
    }
    if !b.rotation_keys.is_empty() {
        let mut keys: Vec<WcKey<Quat>> = resample(&b.rotation_keys, true)
            .iter()
            .map(|k| {
                let q = qmul(qmul(rb, euler_to_quat(k.value)), qconjugate(rb));
                WcKey::at(rate.ms(k.time), rotation_to_wc3(q))
            })
            .collect();
        keys.sort_by_key(|k| k.time);
        tracks.push(Animation {
            tag: KGRT,
            track: AnyTrack::Quaternion(linear(keys)),
        });
    }
    tracks
}

/// A linear track on no global sequence.
fn linear<T>(keys: Vec<WcKey<T>>) -> Track<T> {
    Track {
        interpolation: Interpolation::Linear,
        global_sequence_id: -1,
        keys,
    }
}
