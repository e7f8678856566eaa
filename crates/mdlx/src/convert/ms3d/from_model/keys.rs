//! Joint keys: each written sequence sampled with the animation engine at the model's own
//! key times, as Milkshape keys relative to the parent joint.

use super::super::axes::{point_to_ms3d, quat_to_euler, rotation_to_ms3d};
use super::super::time::FrameRate;
use super::joints::Joints;
use crate::anim::math::{decompose, invert_affine, mul, transform_point, IDENTITY};
use crate::anim::{AnimTime, Skeleton};
use crate::model::{node_flags, AnyTrack, Model};
use crate::ms3d::Key;
use crate::spec::track::{KGRT, KGSC, KGTR};
use crate::Loss;

/// Each joint's position and rotation keys.
pub(super) type JointKeys = Vec<(Vec<Key>, Vec<Key>)>;

/// What sampling found that Milkshape cannot hold.
#[derive(Default)]
struct Counts {
    /// Keys where a joint scales.
    scaled: usize,
    /// Keys at a moment a joint already has (one sequence ends as the next starts).
    overlaps: usize,
}

/// Samples the `sequences` (indices into the model's) for every joint. Returns the keys and
/// the last frame written.
pub(super) fn sample(
    model: &Model,
    skeleton: &Skeleton<'_>,
    joints: &Joints,
    sequences: &[usize],
    rate: FrameRate,
    losses: &mut Vec<Loss>,
) -> (JointKeys, f32) {
    let nodes = &skeleton.nodes;
    // Per joint: the times to key (own key times; an ancestor's too when the node does not
    // inherit everything, since then its own pose depends on them), per sequence.
    let mut joint_keys: JointKeys = vec![(Vec::new(), Vec::new()); joints.names.len()];
    let mut counts = Counts::default();
    let mut last_frame = 1.0f32;
    for (i, n) in nodes.iter().enumerate() {
        if joints.keep[i] && n.node.flags & node_flags::BILLBOARD != 0 {
            losses.push(Loss::new(
                format!("{}[{}]", n.kind.name(), n.index),
                "billboarding (Milkshape has no camera-facing joints)",
            ));
        }
    }
    for &s in sequences {
        let seq = &model.sequences[s];
        let (lo, hi) = (i64::from(seq.interval[0]), i64::from(seq.interval[1]));
        last_frame = last_frame.max(rate.frame(hi as f64));
        sample_sequence(
            model,
            skeleton,
            joints,
            (s, lo, hi),
            rate,
            &mut joint_keys,
            &mut counts,
        );
    }
    if counts.scaled > 0 {
        losses.push(Loss::new(
            "joints",
            format!(
                "scaling at {} key(s) (Milkshape joints cannot scale)",
                counts.scaled
            ),
        ));
    }
    if counts.overlaps > 0 {
        losses.push(Loss::new(
            "sequences",
            format!(
                "{} key(s) where one sequence ends as the next starts (the first kept)",
                counts.overlaps
            ),
        ));
    }
    if !model.global_sequences.is_empty() {
        losses.push(Loss::new(
            "tracks",
            "global-sequence tracks become keys on the written sequences' clock (from each sequence's start)",
        ));
    }
    (joint_keys, last_frame)
}

/// Keys one sequence (`s`, running from `lo` to `hi` milliseconds). Every animated joint is
/// keyed at every key time of any joint (full key frames): a joint's place at a parent's
/// key time then depends on no interpolation.
fn sample_sequence(
    model: &Model,
    skeleton: &Skeleton<'_>,
    joints: &Joints,
    (s, lo, hi): (usize, i64, i64),
    rate: FrameRate,
    joint_keys: &mut JointKeys,
    counts: &mut Counts,
) {
    let nodes = &skeleton.nodes;
    let mut times = vec![lo, hi];
    let mut who = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        if joints.joint_of[i].is_none() {
            continue;
        }
        node_key_times(model, skeleton, i, lo, hi, &mut times);
        if animated(skeleton, i) || n.node.flags & node_flags::DONT_INHERIT != 0 {
            who.push(i);
        }
    }
    times.sort_unstable();
    times.dedup();
    if who.is_empty() {
        return;
    }
    for t in times {
        let pose = skeleton.pose(AnimTime::new(Some(s), (t - lo) as f64), None);
        let frame = rate.frame(t as f64);
        for &i in &who {
            let Some(j) = joints.joint_of[i] else {
                continue;
            };
            // The node's transform relative to its parent joint, from the posed world
            // matrices (so don't-inherit flags are baked in).
            let world = pose.nodes[i].world;
            let parent_world = nodes[i].parent.map_or(IDENTITY, |p| pose.nodes[p].world);
            let Some(inv) = invert_affine(&parent_world) else {
                continue;
            };
            let local = mul(&inv, &world);
            let (r, lens) = decompose(&local);
            if lens.iter().any(|l| (l - 1.0).abs() > 1e-4) {
                counts.scaled += 1;
            }
            let pivot = nodes[i].pivot;
            let moved = transform_point(&local, pivot);
            let tr = [
                moved[0] - pivot[0],
                moved[1] - pivot[1],
                moved[2] - pivot[2],
            ];
            let (pk, rk) = &mut joint_keys[j];
            if pk.last().is_some_and(|k: &Key| k.time >= frame) {
                counts.overlaps += 1;
                continue;
            }
            pk.push(Key {
                time: frame,
                value: point_to_ms3d(tr),
            });
            rk.push(Key {
                time: frame,
                value: quat_to_euler(rotation_to_ms3d(r)),
            });
        }
    }
}

/// Whether node `i` has a translation, rotation or scaling track.
fn animated(skeleton: &Skeleton<'_>, i: usize) -> bool {
    skeleton.nodes[i]
        .node
        .tracks
        .iter()
        .any(|a| [KGTR, KGRT, KGSC].contains(&a.tag))
}

/// Node `i`'s key times inside [lo, hi]. Keys on a global sequence repeat every length of
/// it, on the clock that starts with the sequence.
fn node_key_times(
    model: &Model,
    skeleton: &Skeleton<'_>,
    i: usize,
    lo: i64,
    hi: i64,
    out: &mut Vec<i64>,
) {
    for a in skeleton.nodes[i].node.tracks.iter() {
        if ![KGTR, KGRT, KGSC].contains(&a.tag) {
            continue;
        }
        let (times, gid): (Vec<i64>, i32) = match &a.track {
            AnyTrack::Vector3(t) => (
                t.keys.iter().map(|k| i64::from(k.time)).collect(),
                t.global_sequence_id,
            ),
            AnyTrack::Quaternion(t) => (
                t.keys.iter().map(|k| i64::from(k.time)).collect(),
                t.global_sequence_id,
            ),
            _ => (Vec::new(), -1),
        };
        let global = usize::try_from(gid)
            .ok()
            .and_then(|g| model.global_sequences.get(g))
            .map(|&len| i64::from(len));
        match global {
            Some(len) if len > 0 => {
                for t in times.into_iter().filter(|t| (0..=len).contains(t)) {
                    let mut at = lo + t;
                    let mut n = 0;
                    while at <= hi && n < 10_000 {
                        out.push(at);
                        at += len;
                        n += 1;
                    }
                }
            }
            Some(_) => {}
            None => out.extend(times.into_iter().filter(|t| (lo..=hi).contains(t))),
        }
    }
}
