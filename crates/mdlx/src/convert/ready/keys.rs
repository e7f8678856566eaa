//! Keys: an opening key where a sequence would start from the previous one's last value,
//! and a `Stand` and a `Death` added when the model has none.

use crate::check::sequence_word;
use crate::model::visit::{visit_tracks_mut, Owner, TrackVisitorMut};
use crate::model::{
    AnyTrack, FixedString, Interpolation, Key, Model, Sequence, Track, Tracks, SEQUENCE_NON_LOOPING,
};
use crate::Loss;

/// A tangent that keeps a spline flat at a key of value `v`: 0 for a Hermite float or
/// vector (a slope), the value itself otherwise (a control point, or unused).
pub(crate) trait Flat: Copy {
    /// The flat tangent at a key of value `v` in a track of interpolation `i`.
    fn flat(v: Self, i: Interpolation) -> Self;
}
impl Flat for f32 {
    fn flat(v: f32, i: Interpolation) -> f32 {
        if i == Interpolation::Hermite {
            0.0
        } else {
            v
        }
    }
}
impl Flat for [f32; 3] {
    fn flat(v: [f32; 3], i: Interpolation) -> [f32; 3] {
        v.map(|x| f32::flat(x, i))
    }
}
impl Flat for [f32; 4] {
    fn flat(v: [f32; 4], _: Interpolation) -> [f32; 4] {
        v
    }
}
impl Flat for u32 {
    fn flat(v: u32, _: Interpolation) -> u32 {
        v
    }
}

fn held<T: Flat>(time: i32, value: T, i: Interpolation) -> Key<T> {
    Key {
        time,
        value,
        in_tan: T::flat(value, i),
        out_tan: T::flat(value, i),
    }
}

/// Runs `f` on every track of the model (texture slots included, events not).
struct EachTrack<F>(F);

trait OnTrack {
    fn on<T: Flat>(&mut self, t: &mut Track<T>);
}

impl<F: OnTrack> TrackVisitorMut for EachTrack<F> {
    fn tracks(&mut self, _: Owner, _: &dyn Fn() -> String, tracks: &mut Tracks) {
        for a in &mut tracks.0 {
            match &mut a.track {
                AnyTrack::Float(t) => self.0.on(t),
                AnyTrack::Vector3(t) => self.0.on(t),
                AnyTrack::Quaternion(t) => self.0.on(t),
                AnyTrack::Integer(t) => self.0.on(t),
            }
        }
    }
    fn slot(&mut self, _: Owner, _: &dyn Fn() -> String, track: &mut Track<u32>) {
        self.0.on(track);
    }
}

/// Adds the opening keys; counts them.
struct Opening {
    sequences: Vec<[u32; 2]>,
    globals: Vec<u32>,
    added: usize,
}

impl OnTrack for Opening {
    fn on<T: Flat>(&mut self, t: &mut Track<T>) {
        if t.keys.is_empty() || t.keys.windows(2).any(|w| w[0].time > w[1].time) {
            return;
        }
        let windows: Vec<(i64, i64)> = match t.global_sequence_id {
            -1 => self
                .sequences
                .iter()
                .filter(|s| s[0] <= s[1])
                .map(|s| (i64::from(s[0]), i64::from(s[1])))
                .collect(),
            g => match usize::try_from(g).ok().and_then(|g| self.globals.get(g)) {
                Some(&len) => vec![(0, i64::from(len))],
                None => return,
            },
        };
        let mut add = Vec::new();
        for (lo, hi) in windows {
            let Ok(start) = i32::try_from(lo) else {
                continue;
            };
            let first = t
                .keys
                .iter()
                .find(|k| i64::from(k.time) >= lo && i64::from(k.time) <= hi);
            if let Some(k) = first {
                if k.time != start && !add.iter().any(|a: &Key<T>| a.time == start) {
                    add.push(held(start, k.value, t.interpolation));
                }
            }
        }
        self.added += add.len();
        insert(t, add);
    }
}

/// Inserts `keys` into `t` in time order (after a key of the same time).
fn insert<T: Copy>(t: &mut Track<T>, keys: Vec<Key<T>>) {
    for k in keys {
        let at = t.keys.partition_point(|x| x.time <= k.time);
        t.keys.insert(at, k);
    }
}

pub(super) fn opening_keys(model: &mut Model) -> usize {
    let mut v = EachTrack(Opening {
        sequences: model.sequences.iter().map(|s| s.interval).collect(),
        globals: model.global_sequences.clone(),
        added: 0,
    });
    visit_tracks_mut(model, &mut v);
    v.0.added
}

/// Copies the keys at `from` to `to` (tracks off the global clock).
struct CopyPose {
    from: i32,
    to: i32,
}

impl OnTrack for CopyPose {
    fn on<T: Flat>(&mut self, t: &mut Track<T>) {
        if t.global_sequence_id != -1 {
            return;
        }
        let at = t.keys.iter().rposition(|k| k.time == self.from);
        if let Some(k) = at.map(|i| t.keys[i]) {
            insert(t, vec![held(self.to, k.value, t.interpolation)]);
        }
    }
}

/// Adds a one-second sequence after the others holding the first pose of sequence
/// `source` (nothing, without one).
fn add_sequence(model: &mut Model, name: &str, source: Option<usize>, flags: u32) {
    let end = model.sequences.iter().map(|s| s.interval[1]).max();
    let start = end.map_or(0, |e| {
        e.saturating_add(500).div_ceil(1000).saturating_mul(1000)
    });
    let extent = source.map_or(model.info.extent, |s| model.sequences[s].extent);
    let n = model.sequences.len();
    model.sequences.push(Sequence {
        name: FixedString::from(name),
        interval: [start, start.saturating_add(1000)],
        flags,
        extent,
        ..Default::default()
    });
    for g in &mut model.geosets {
        if g.sequence_extents.len() == n {
            let e = source
                .and_then(|s| g.sequence_extents.get(s).copied())
                .unwrap_or(g.extent);
            g.sequence_extents.push(e);
        }
    }
    if let Some(s) = source {
        let (Ok(from), Ok(to)) = (
            i32::try_from(model.sequences[s].interval[0]),
            i32::try_from(start),
        ) else {
            return;
        };
        visit_tracks_mut(model, &mut EachTrack(CopyPose { from, to }));
    }
}

pub(super) fn stand_and_death(model: &mut Model, notes: &mut Vec<Loss>) {
    let find = |m: &Model, w: &str| {
        m.sequences
            .iter()
            .position(|s| sequence_word(&s.name.text()) == w)
    };
    if find(model, "stand").is_none() {
        let source = (!model.sequences.is_empty()).then_some(0);
        add_sequence(model, "Stand", source, 0);
        let what = match source {
            Some(_) => "no sequence could be the Stand: added, one second holding the first pose of the first sequence",
            None => "the model had no sequence: a one-second Stand added",
        };
        let place = format!("sequences[{}]", model.sequences.len() - 1);
        notes.push(Loss::new(place, what));
    }
    // A Death only where `check` calls its absence an error: a unit or a building (a
    // doodad, an effect or a portrait stands without one; see `check::kind`).
    let kind = crate::check::classify(model, None).kind;
    let death_needed = crate::check::rules::MISSING_DEATH.severity_for(kind)
        == Some(crate::check::Severity::Error);
    if death_needed && find(model, "death").is_none() {
        let stand = find(model, "stand");
        add_sequence(model, "Death", stand, SEQUENCE_NON_LOOPING);
        let place = format!("sequences[{}]", model.sequences.len() - 1);
        notes.push(Loss::new(
            place,
            "no death animation: a one-second Death holding the Stand's first pose added (the game plays Death when a unit dies); --rename one to Death to use it instead",
        ));
    }
}
