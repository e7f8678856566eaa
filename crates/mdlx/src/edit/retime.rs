//! A model's tracks moved onto another model's time line, sequence by sequence: how a
//! merged part plays in the model it joins (see [`super::merge`]).
//!
//! For each sequence of the new time line, the part plays its own sequence of the same
//! name (any case) from its start: its keys in that sequence's interval move to the new
//! one. Where the part's sequence is longer, its keys past the new end are left out and
//! the new end gets a key holding the value the part had there (exact between straight-
//! line and stepped keys; a curve's last span ends on that value but bends differently).
//! Where the part has no sequence of that name, it holds, through the whole new
//! sequence, the value it has at the start of its Stand (or its first sequence). Tracks on
//! a global sequence play on as they did. Where two sequences of the new time line overlap,
//! the part's keys for the first are kept.

use super::{EachTrack, OnTrack};
use crate::anim::sample::{sample_keys, sorted_keys, TrackValue, Window};
use crate::model::visit::visit_tracks_mut;
use crate::model::{EventTrack, Key, Model, Sequence, Track};

/// What plays in one sequence of the new time line.
#[derive(Clone, Copy, Debug)]
struct Play {
    /// The new interval.
    to: [i64; 2],
    /// The part's interval read there, or `None`: the part holds its reference pose.
    from: Option<[i64; 2]>,
}

impl Play {
    /// How much of the part's sequence plays (the shorter of the two lengths).
    fn len(&self, from: [i64; 2]) -> i64 {
        (self.to[1] - self.to[0]).min(from[1] - from[0])
    }
}

/// What the retiming did, for the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Retimed {
    /// The new sequences (by name) that play the part's sequence of the same name.
    pub matched: Vec<String>,
    /// Of those, the ones where the part's sequence is longer and was cut at the end.
    pub cut: Vec<String>,
    /// Sequences of the new time line that overlap one before them: the part follows the
    /// first.
    pub overlapping: Vec<String>,
}

/// The part's sequence each of `sequences` plays.
fn plays(part: &Model, sequences: &[Sequence]) -> Vec<Play> {
    let interval = |s: &Sequence| s.interval.map(i64::from);
    sequences
        .iter()
        .map(|s| {
            let name = s.name.text().to_ascii_lowercase();
            let from = (part.sequences.iter())
                .filter(|p| p.interval[1] >= p.interval[0])
                .find(|p| p.name.text().to_ascii_lowercase() == name)
                .map(interval);
            Play {
                to: interval(s),
                from,
            }
        })
        .collect()
}

struct Retime {
    plays: Vec<Play>,
    /// The part's reference interval: its Stand, else its first sequence.
    reference: Option<[i64; 2]>,
}

impl OnTrack for Retime {
    fn on<T: TrackValue + PartialEq>(&mut self, t: &mut Track<T>) {
        if t.global_sequence_id >= 0 || t.keys.is_empty() {
            return;
        }
        let sorted = sorted_keys(t);
        let at = |w: [i64; 2], frame: i64| {
            sample_keys(
                &sorted,
                t.interpolation,
                Window {
                    frame: frame as f64,
                    lo: w[0],
                    hi: w[1],
                },
            )
        };
        let mut out: Vec<Key<T>> = Vec::new();
        for p in self.plays.iter().filter(|p| p.to[1] >= p.to[0]) {
            match p.from {
                Some(from) => {
                    let end = from[0] + p.len(from);
                    let shift = p.to[0] - from[0];
                    let inside =
                        (sorted.iter()).filter(|k| (from[0]..=end).contains(&i64::from(k.time)));
                    out.extend(inside.map(|k| Key {
                        time: (i64::from(k.time) + shift) as i32,
                        ..*k
                    }));
                    let beyond =
                        (sorted.iter()).any(|k| (end + 1..=from[1]).contains(&i64::from(k.time)));
                    let on_end = out.last().is_some_and(|k| i64::from(k.time) == end + shift);
                    if beyond && !on_end {
                        if let Some(v) = at(from, end) {
                            out.push(Key::at((end + shift) as i32, v));
                        }
                    }
                }
                None => {
                    if let Some(v) = self.reference.and_then(|r| at(r, r[0])) {
                        out.push(Key::at(p.to[0] as i32, v));
                    }
                }
            }
        }
        // Sequences out of time order give their keys out of order; where two overlap,
        // the first's keys win.
        out.sort_by_key(|k| k.time);
        out.dedup_by_key(|k| k.time);
        t.keys = out;
    }

    fn event(&mut self, track: &mut EventTrack) {
        if track.global_sequence_id >= 0 {
            return;
        }
        let mut times = Vec::new();
        for p in self.plays.iter().filter(|p| p.to[1] >= p.to[0]) {
            let Some(from) = p.from else { continue };
            let end = from[0] + p.len(from);
            let mut here: Vec<u32> = (track.times.iter())
                .filter(|&&t| (from[0]..=end).contains(&i64::from(t)))
                .map(|&t| (i64::from(t) - from[0] + p.to[0]) as u32)
                .collect();
            here.sort_unstable();
            times.extend(here);
        }
        times.sort_unstable();
        times.dedup();
        track.times = times;
    }
}

/// Moves every track of `part` onto the time line of `sequences` (see the module docs),
/// and gives `part` those sequences.
pub(super) fn retime(part: &mut Model, sequences: &[Sequence]) -> Retimed {
    let plays = plays(part, sequences);
    let reference = (part.sequences.iter())
        .filter(|s| s.interval[1] >= s.interval[0])
        .find(|s| s.name.text().to_ascii_lowercase().starts_with("stand"))
        .or(part.sequences.first())
        .map(|s| s.interval.map(i64::from));
    let mut retimed = Retimed::default();
    for (p, s) in plays.iter().zip(sequences) {
        if let Some(from) = p.from {
            let name = s.name.text().into_owned();
            if from[1] - from[0] > p.to[1] - p.to[0] {
                retimed.cut.push(name.clone());
            }
            retimed.matched.push(name);
        }
    }
    for (i, s) in sequences.iter().enumerate() {
        let [a, b] = s.interval;
        let overlaps = sequences[..i].iter().any(|o| {
            let [c, d] = o.interval;
            b >= a && d >= c && a < d && c < b
        });
        if overlaps {
            retimed.overlapping.push(s.name.text().into_owned());
        }
    }
    visit_tracks_mut(part, &mut EachTrack(Retime { plays, reference }));
    part.sequences = sequences.to_vec();
    retimed
}
