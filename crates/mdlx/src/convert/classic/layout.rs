//! What the classic client wants of a model's layout: object ids in node order, and
//! sequences in time order without overlap.

use crate::anim::sample::sorted_keys;
use crate::convert::ready::Flat;
use crate::model::visit::{visit_tracks_mut, Owner, TrackVisitorMut};
use crate::model::{AnyTrack, EventTrack, Key, Model, Track, Tracks};
use crate::Loss;
use std::collections::HashMap;

/// Gives every node the object id of its place (bones, lights, helpers, attachments,
/// emitters, event objects, collision shapes in turn), as the classic files do, moving
/// pivots, parents, matrix groups and bind poses with it. Nodes that went (popcorn emitters) leave
/// their places to the next; a parent that went becomes none.
pub(super) fn renumber_nodes(m: &mut Model, losses: &mut Vec<Loss>) {
    let old_pivots = m.pivot_points.clone();
    let mut map: HashMap<u32, u32> = HashMap::new();
    let mut pivots = Vec::new();
    let mut changed = false;
    let mut old_ids = Vec::new();
    for (i, n) in super::skinning::nodes_mut(m).into_iter().enumerate() {
        old_ids.push(n.object_id as usize);
        map.entry(n.object_id).or_insert(i as u32);
        changed |= n.object_id != i as u32;
        pivots.push(
            old_pivots
                .get(n.object_id as usize)
                .copied()
                .unwrap_or([0.0; 3]),
        );
        n.object_id = i as u32;
    }
    if !changed && pivots.len() == old_pivots.len() {
        return;
    }
    let mut orphans = 0;
    for n in super::skinning::nodes_mut(m) {
        if let Ok(p) = u32::try_from(n.parent_id) {
            n.parent_id = match map.get(&p) {
                Some(&q) => q as i32,
                None => {
                    orphans += 1;
                    -1
                }
            };
        }
    }
    for g in &mut m.geosets {
        for id in &mut g.matrix_indices {
            if let Some(&q) = map.get(id) {
                *id = q;
            }
        }
    }
    m.pivot_points = pivots;
    // Bind poses (Reforged) are one per node by object id, then one per camera.
    if !m.bind_poses.is_empty() && m.bind_poses.len() >= old_pivots.len() {
        let old = std::mem::take(&mut m.bind_poses);
        let still = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
        m.bind_poses = (old_ids.iter())
            .map(|&o| if o < old_pivots.len() { old[o] } else { still })
            .collect();
        m.bind_poses.extend_from_slice(&old[old_pivots.len()..]);
    }
    if orphans > 0 {
        losses.push(Loss::new(
            "",
            format!("{orphans} nodes whose parent went (a popcorn emitter) have no parent"),
        ));
    }
}

/// Moves overlapping sequences apart (the classic client wants them in time order
/// without overlap): each starts 100 ms after the previous one ends, every track's keys of
/// its time copied to its new time. Sequences already apart stay as they are.
///
/// A moved sequence poses exactly as it did over its old interval: where a track has keys
/// inside the interval but none on its start or end, the value held there (the first or
/// last key's, as [`crate::anim::sample`] holds it) becomes a key on that end, and the
/// curve between it and its neighbour is flat (the neighbour's copy's tangent on that side
/// made flat too; in the original no key before the first or after the last of the
/// interval was used, so that tangent shaped nothing the sequence showed). Without the
/// opening key, a sequence that lay inside a longer one (a short `Song 1` inside
/// `Stand 3`) would begin with keys in the middle of its interval, and the game would warp
/// its first value in from the end of the sequence.
pub(super) fn separate_sequences(m: &mut Model, losses: &mut Vec<Loss>) {
    let overlap = m.sequences.iter().enumerate().any(|(i, s)| {
        m.sequences[..i]
            .iter()
            .any(|o| s.interval[0] == o.interval[0] || s.interval[0] < o.interval[1])
    });
    if !overlap {
        return;
    }
    let old: Vec<[u32; 2]> = m.sequences.iter().map(|s| s.interval).collect();
    let mut new = Vec::with_capacity(old.len());
    let mut cursor = 0u32;
    for &[a, b] in &old {
        let len = b.saturating_sub(a);
        new.push([cursor, cursor.saturating_add(len)]);
        cursor = cursor.saturating_add(len).saturating_add(100);
    }
    let moves: Vec<([u32; 2], i64)> = old
        .iter()
        .zip(&new)
        .map(|(o, n)| (*o, i64::from(n[0]) - i64::from(o[0])))
        .collect();
    let mut v = Retime { moves: &moves };
    visit_tracks_mut(m, &mut v);
    for (s, n) in m.sequences.iter_mut().zip(&new) {
        s.interval = *n;
    }
    losses.push(Loss::new(
        "",
        format!(
            "{} sequences overlapped in time; laid out one after another (100 ms apart), their keys copied and keyed at both ends",
            old.len()
        ),
    ));
}

/// Copies each sequence's keys to its new time.
struct Retime<'a> {
    /// Per sequence: its old interval and how far it moves.
    moves: &'a [([u32; 2], i64)],
}

impl Retime<'_> {
    fn track<T: Flat>(&self, t: &mut Track<T>) {
        if t.global_sequence_id >= 0 {
            return;
        }
        let sorted = sorted_keys(t).into_owned();
        let interpolation = t.interpolation;
        let flat_key = |time: i32, value: T| Key {
            time,
            value,
            in_tan: T::flat(value, interpolation),
            out_tan: T::flat(value, interpolation),
        };
        let mut keys = Vec::with_capacity(sorted.len() + 2 * self.moves.len());
        for &([a, b], d) in self.moves {
            let (a, b) = (i64::from(a), i64::from(b));
            let lo = sorted.partition_point(|k| i64::from(k.time) < a);
            let hi = sorted.partition_point(|k| i64::from(k.time) <= b);
            let Some(inside) = sorted.get(lo..hi).filter(|k| !k.is_empty()) else {
                // No key in the interval: the static value applies, as before.
                continue;
            };
            let mut run = inside.to_vec();
            let first = run[0];
            if i64::from(first.time) > a {
                run[0].in_tan = T::flat(first.value, interpolation);
                run.insert(0, flat_key(a as i32, first.value));
            }
            let last = run.len() - 1;
            if i64::from(run[last].time) < b {
                let value = run[last].value;
                run[last].out_tan = T::flat(value, interpolation);
                run.push(flat_key(b as i32, value));
            }
            keys.extend(run.into_iter().map(|mut k| {
                k.time = (i64::from(k.time) + d) as i32;
                k
            }));
        }
        t.keys = keys;
    }
}

impl TrackVisitorMut for Retime<'_> {
    fn tracks(&mut self, _owner: Owner, _at: &dyn Fn() -> String, tracks: &mut Tracks) {
        for a in tracks.0.iter_mut() {
            match &mut a.track {
                AnyTrack::Float(t) => self.track(t),
                AnyTrack::Vector3(t) => self.track(t),
                AnyTrack::Quaternion(t) => self.track(t),
                AnyTrack::Integer(t) => self.track(t),
            }
        }
    }

    fn slot(&mut self, _owner: Owner, _at: &dyn Fn() -> String, track: &mut Track<u32>) {
        self.track(track);
    }

    fn event(&mut self, _at: &dyn Fn() -> String, track: &mut EventTrack) {
        if track.global_sequence_id >= 0 {
            return;
        }
        let mut times = Vec::with_capacity(track.times.len());
        for ([a, b], d) in self.moves {
            for &t in &track.times {
                if t >= *a && t <= *b {
                    times.push((i64::from(t) + d) as u32);
                }
            }
        }
        track.times = times;
    }
}
