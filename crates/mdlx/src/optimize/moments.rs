//! The moments at which [`super::measure`] poses an optimized model and its original: for
//! every sequence, its start and end, every time inside it at which any track of the
//! original has a key, and the midpoint between each two consecutive such times; for every
//! global sequence the same over its length, with no sequence playing.

use crate::anim::AnimTime;
use crate::model::{Model, Track};
use std::collections::BTreeSet;

/// The moments to compare at: (sequence, ms into it, ms on the global clock).
pub(super) fn moments(model: &Model) -> Vec<AnimTime> {
    let mut per_sequence: Vec<BTreeSet<i64>> = vec![BTreeSet::new(); model.sequences.len()];
    let mut per_global: Vec<BTreeSet<i64>> = vec![BTreeSet::new(); model.global_sequences.len()];
    for (i, s) in model.sequences.iter().enumerate() {
        per_sequence[i].insert(i64::from(s.interval[0]));
        per_sequence[i].insert(i64::from(s.interval[1]));
    }
    for (g, &len) in model.global_sequences.iter().enumerate() {
        per_global[g].insert(0);
        per_global[g].insert(i64::from(len));
    }
    for_each_track_times(model, &mut |gid, times| match usize::try_from(gid) {
        Ok(g) => {
            if let (Some(set), Some(&len)) = (per_global.get_mut(g), model.global_sequences.get(g))
            {
                set.extend(
                    times
                        .iter()
                        .map(|&t| i64::from(t))
                        .filter(|&t| (0..=i64::from(len)).contains(&t)),
                );
            }
        }
        Err(_) => {
            for (i, s) in model.sequences.iter().enumerate() {
                let (lo, hi) = (i64::from(s.interval[0]), i64::from(s.interval[1]));
                per_sequence[i].extend(
                    times
                        .iter()
                        .map(|&t| i64::from(t))
                        .filter(|&t| t >= lo && t <= hi),
                );
            }
        }
    });
    let with_midpoints = |set: &BTreeSet<i64>| -> Vec<f64> {
        let v: Vec<i64> = set.iter().copied().collect();
        let mut out = Vec::with_capacity(v.len() * 2);
        for (k, &t) in v.iter().enumerate() {
            out.push(t as f64);
            if let Some(&n) = v.get(k + 1) {
                out.push((t as f64 + n as f64) / 2.0);
            }
        }
        out
    };
    let mut out = vec![AnimTime::new(None, 0.0)];
    for (i, set) in per_sequence.iter().enumerate() {
        let start = f64::from(model.sequences[i].interval[0]);
        for t in with_midpoints(set) {
            out.push(AnimTime::new(Some(i), t - start));
        }
    }
    for set in &per_global {
        for t in with_midpoints(set) {
            out.push(AnimTime {
                sequence: None,
                elapsed_ms: 0.0,
                global_ms: t,
            });
        }
    }
    out
}

/// Calls `f(global sequence id, key times)` for every track of `model`.
fn for_each_track_times(model: &Model, f: &mut dyn FnMut(i32, &[i32])) {
    use crate::model::visit::{visit_tracks, Owner, TrackVisitor};
    use crate::model::{AnyTrack, Tracks};
    struct V<'a>(&'a mut dyn FnMut(i32, &[i32]));
    fn times<T>(t: &Track<T>) -> Vec<i32> {
        t.keys.iter().map(|k| k.time).collect()
    }
    impl<'m> TrackVisitor<'m> for V<'_> {
        fn tracks(&mut self, _: Owner, _: &dyn Fn() -> String, tracks: &'m Tracks) {
            for a in &tracks.0 {
                let (gid, t) = match &a.track {
                    AnyTrack::Float(t) => (t.global_sequence_id, times(t)),
                    AnyTrack::Vector3(t) => (t.global_sequence_id, times(t)),
                    AnyTrack::Quaternion(t) => (t.global_sequence_id, times(t)),
                    AnyTrack::Integer(t) => (t.global_sequence_id, times(t)),
                };
                (self.0)(gid, &t);
            }
        }
        fn slot(&mut self, _: Owner, _: &dyn Fn() -> String, track: &'m Track<u32>) {
            (self.0)(track.global_sequence_id, &times(track));
        }
    }
    visit_tracks(model, &mut V(f));
}
