//! The sequences' time line laid out anew: each new sequence is a piece of an old one
//! (the same, reversed, or stretched in time), and every track that follows the sequences
//! gets, for each piece, the keys the old sequence read, moved to the new place.
//!
//! A piece keeps its old start when it is free (after the previous piece's end, or on it
//! when both pieces are unchanged and meet there, as many files have sequences meet, and
//! the one before has a length);
//! otherwise it starts at the next multiple of 100 ms after the previous end. Keys of
//! tracks on a global sequence stay as they are. Keys in no sequence's interval are never
//! read (see [`crate::anim::sample`]) and are left out; the report counts them.
//!
//! A reversed piece reads at `t` what the old one read at its length minus `t`: key times
//! mirrored, in and out tangents swapped (Hermite tangents of numbers and vectors, which
//! are slopes, also negated); a stepped track, which holds each key until the next, has
//! its values moved one key over so each holds over the mirrored span it held before.
//! A piece stretched by `k` reads at `t * k` what the old one read at `t`; key times are
//! rounded to whole milliseconds.

use crate::model::visit::{visit_tracks_mut, Owner, TrackVisitorMut};
use crate::model::{AnyTrack, EventTrack, Interpolation, Key, Model, Track, Tracks};

/// One sequence of the new time line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Piece {
    /// The old sequence it is made from.
    pub source: usize,
    /// Played backwards.
    pub reverse: bool,
    /// Its length times this (above 0).
    pub stretch: f64,
}

impl Piece {
    pub(crate) fn same(source: usize) -> Piece {
        Piece {
            source,
            reverse: false,
            stretch: 1.0,
        }
    }

    fn unchanged(&self) -> bool {
        !self.reverse && self.stretch == 1.0
    }
}

/// Where a piece's keys go.
#[derive(Clone, Copy, Debug)]
struct Place {
    old: [i64; 2],
    /// An interval that ends before it starts: it reads no key (see
    /// [`crate::anim::sample`]), keeps its numbers and takes no room.
    backwards: bool,
    start: i64,
    reverse: bool,
    stretch: f64,
}

impl Place {
    fn time(&self, t: i64) -> i64 {
        let d = if self.reverse {
            self.old[1] - t
        } else {
            t - self.old[0]
        };
        self.start + (d as f64 * self.stretch).round() as i64
    }

    fn end(&self) -> i64 {
        self.time(if self.reverse {
            self.old[0]
        } else {
            self.old[1]
        })
    }

    fn holds(&self, t: i64) -> bool {
        !self.backwards && (self.old[0]..=self.old[1]).contains(&t)
    }
}

/// Where each piece goes, or why the time line cannot hold them.
fn places(model: &Model, pieces: &[Piece]) -> Result<Vec<Place>, String> {
    let mut used = vec![false; model.sequences.len()];
    let mut out: Vec<Place> = Vec::with_capacity(pieces.len());
    let mut prev: Option<(i64, bool)> = None;
    for p in pieces {
        let s = &model.sequences[p.source];
        let old = [i64::from(s.interval[0]), i64::from(s.interval[1])];
        if old[1] < old[0] {
            out.push(Place {
                old,
                backwards: true,
                start: old[0],
                reverse: false,
                stretch: 1.0,
            });
            continue;
        }
        let first = !std::mem::replace(&mut used[p.source], true);
        let start = match prev {
            None => old[0],
            Some((end, _)) if first && old[0] > end => old[0],
            // Meeting the one before on its last frame, as many files have it: unless that
            // one has no length (then the shared key would be read as its, not this one's).
            Some((end, same)) if first && old[0] == end && same && p.unchanged() => old[0],
            Some((end, _)) => (end / 100 + 1) * 100,
        };
        let place = Place {
            old,
            backwards: false,
            start,
            reverse: p.reverse,
            stretch: p.stretch,
        };
        if place.end() > i64::from(i32::MAX) {
            return Err("the sequences would run past 2^31 ms".into());
        }
        prev = Some((place.end(), p.unchanged() && place.end() > place.start));
        out.push(place);
    }
    Ok(out)
}

/// Lays the sequences out as `pieces` say; returns how many keys no sequence read, or
/// why it could not.
pub(crate) fn relayout(model: &mut Model, pieces: &[Piece]) -> Result<usize, String> {
    let places = places(model, pieces)?;
    let mut keys = Keys {
        places: &places,
        dropped: 0,
    };
    visit_tracks_mut(model, &mut keys);
    let dropped = keys.dropped;
    let old = model.sequences.len();
    for g in &mut model.geosets {
        if g.sequence_extents.len() == old {
            g.sequence_extents = pieces
                .iter()
                .map(|p| g.sequence_extents[p.source])
                .collect();
        }
    }
    model.sequences = pieces
        .iter()
        .zip(&places)
        .map(|(p, at)| {
            let mut s = model.sequences[p.source].clone();
            if !at.backwards {
                s.interval = [at.start as u32, at.end() as u32];
            }
            s
        })
        .collect();
    Ok(dropped)
}

struct Keys<'a> {
    places: &'a [Place],
    dropped: usize,
}

/// How a track's values behave between keys.
#[derive(Clone, Copy, PartialEq)]
enum Between {
    /// Hold the earlier key.
    Step,
    /// A curve through tangents that are slopes (Hermite numbers and vectors).
    Slopes,
    /// A line, or a curve through tangents that are points on its way.
    Points,
}

fn between<T>(t: &Track<T>, value: Value) -> Between {
    match t.interpolation {
        _ if value == Value::Integer => Between::Step,
        Interpolation::None | Interpolation::Other(_) => Between::Step,
        Interpolation::Hermite if value == Value::Number => Between::Slopes,
        _ => Between::Points,
    }
}

/// What a track holds, for [`between`].
#[derive(Clone, Copy, PartialEq)]
enum Value {
    /// Numbers and vectors: Hermite tangents are slopes.
    Number,
    /// Rotations: every tangent is a rotation on the way.
    Rotation,
    /// Integers: always stepped.
    Integer,
}

/// The track's keys for the new time line.
fn laid_out<T: Copy + PartialEq>(
    track: &Track<T>,
    how: Between,
    (neg, zero): (impl Fn(T) -> T, impl Fn(T) -> T),
    places: &[Place],
) -> (Vec<Key<T>>, usize) {
    // In time order, one key a time (the last stored of equal times: the one read).
    let sorted = crate::anim::sample::sorted_keys(track);
    let mut out: Vec<Key<T>> = Vec::with_capacity(sorted.len());
    let mut push = |k: Key<T>| {
        if out.last() != Some(&k) {
            out.push(k);
        }
    };
    for at in places {
        let w: Vec<&Key<T>> = (sorted.iter())
            .filter(|k| at.holds(i64::from(k.time)))
            .collect();
        if !at.reverse {
            for k in &w {
                push(Key {
                    time: at.time(i64::from(k.time)) as i32,
                    ..**k
                });
            }
        } else if how == Between::Step {
            let Some(last) = w.last() else { continue };
            // (On the last instant the key before it takes over: that span has no length.)
            if i64::from(last.time) < at.old[1] || w.len() == 1 {
                push(Key::at(at.start as i32, last.value));
            }
            for pair in w.windows(2).rev() {
                push(Key::at(
                    at.time(i64::from(pair[1].time)) as i32,
                    pair[0].value,
                ));
            }
        } else {
            // The game plays into a sequence from the one before it when a track has no
            // key at its start: the old end, which becomes the start, gets one, holding the
            // last key's value as before (that key's out tangent, never used before, is
            // made one that holds).
            let mut w: Vec<Key<T>> = w.into_iter().copied().collect();
            let hold = |v: T| if how == Between::Slopes { zero(v) } else { v };
            if let Some(last) = w.last_mut().filter(|k| i64::from(k.time) < at.old[1]) {
                last.out_tan = hold(last.value);
                let v = last.value;
                w.push(Key {
                    time: at.old[1] as i32,
                    value: v,
                    in_tan: hold(v),
                    out_tan: hold(v),
                });
            }
            for k in w.iter().rev() {
                let (i, o) = if how == Between::Slopes {
                    (neg(k.out_tan), neg(k.in_tan))
                } else {
                    (k.out_tan, k.in_tan)
                };
                push(Key {
                    time: at.time(i64::from(k.time)) as i32,
                    value: k.value,
                    in_tan: i,
                    out_tan: o,
                });
            }
        }
    }
    let read = |k: &Key<T>| places.iter().any(|p| p.holds(i64::from(k.time)));
    let dropped = track.keys.len() - sorted.iter().filter(|k| read(k)).count();
    (out, dropped)
}

impl Keys<'_> {
    fn track<T: Copy + PartialEq>(
        &mut self,
        t: &mut Track<T>,
        value: Value,
        neg_zero: (impl Fn(T) -> T, impl Fn(T) -> T),
    ) {
        if t.global_sequence_id >= 0 || t.keys.is_empty() {
            return;
        }
        let (keys, dropped) = laid_out(t, between(t, value), neg_zero, self.places);
        self.dropped += dropped;
        t.keys = keys;
    }
}

impl TrackVisitorMut for Keys<'_> {
    fn tracks(&mut self, _: Owner, _: &dyn Fn() -> String, tracks: &mut Tracks) {
        for a in &mut tracks.0 {
            match &mut a.track {
                AnyTrack::Float(t) => self.track(t, Value::Number, (|x: f32| -x, |_| 0.0)),
                AnyTrack::Vector3(t) => self.track(
                    t,
                    Value::Number,
                    (|v: [f32; 3]| v.map(|x| -x), |_| [0.0; 3]),
                ),
                AnyTrack::Quaternion(t) => self.track(t, Value::Rotation, (|q| q, |q| q)),
                AnyTrack::Integer(t) => self.track(t, Value::Integer, (|x| x, |x| x)),
            }
        }
        // A track no sequence reads any more stays, without keys: its static value is
        // what was read, and an emitter that squirts keeps the track it needs.
    }

    fn slot(&mut self, _: Owner, _: &dyn Fn() -> String, track: &mut Track<u32>) {
        self.track(track, Value::Integer, (|x| x, |x| x));
    }

    fn event(&mut self, _: &dyn Fn() -> String, track: &mut EventTrack) {
        if track.global_sequence_id >= 0 {
            return;
        }
        let mut times: Vec<u32> = Vec::with_capacity(track.times.len());
        for at in self.places {
            let mut here: Vec<u32> = (track.times.iter())
                .filter(|&&t| at.holds(i64::from(t)))
                .map(|&t| at.time(i64::from(t)) as u32)
                .collect();
            here.sort_unstable();
            times.extend(here);
        }
        let read = |t: &u32| self.places.iter().any(|p| p.holds(i64::from(*t)));
        self.dropped += track.times.iter().filter(|t| !read(t)).count();
        times.dedup();
        track.times = times;
    }
}
