//! Emitters that stop at the end of a sequence.
//!
//! A sequence that plays once holds its last frame: an emitter still visible there goes on
//! emitting for as long as the model stays (a corpse that bleeds forever, a spell's sparks
//! after it ended). Stopping the emitters makes every particle emitter, particle emitter
//! 2, ribbon emitter and popcorn emitter invisible on the sequence's last frame and leaves
//! every moment before it as it was:
//! - a visibility track that steps gets a key of 0 on the last frame (a key at the start
//!   too, holding its value there, where the track had no key before the end);
//! - one that interpolates also gets a key 1 ms before the end holding the value there, so
//!   the drop to 0 takes that last millisecond (exact for straight lines; a curve's last
//!   span bends differently, and the report says so);
//! - an emitter without a visibility track gets one that steps, keyed only in this
//!   sequence (1 at its start, 0 at its end): the other sequences read no key of it and
//!   show it as before.
//!
//! Left as they are, and said: emitters already invisible there, and emitters whose
//! visibility runs on a global sequence (it plays through every sequence). A sequence whose
//! last frame is also another sequence's frame (sequences that meet) is refused: its last
//! frame cannot change without changing the other.

use super::Report;
use crate::anim::sample::{sample_keys, sorted_keys, Window};
use crate::model::{Animation, AnyTrack, Interpolation, Key, Model, Track, Tracks};
use crate::spec::track::{KP2V, KPEV, KPPV, KRVS};

/// Every emitter's name and visibility tracks.
fn emitters(model: &mut Model) -> Vec<(String, crate::spec::Tag, &mut Tracks)> {
    let mut v: Vec<(String, crate::spec::Tag, &mut Tracks)> = Vec::new();
    let name = |n: &crate::model::Node| n.name.text().into_owned();
    for e in &mut model.particle_emitters {
        v.push((name(&e.node), KPEV, &mut e.tracks));
    }
    for e in &mut model.particle_emitters2 {
        v.push((name(&e.node), KP2V, &mut e.tracks));
    }
    for e in &mut model.ribbon_emitters {
        v.push((name(&e.node), KRVS, &mut e.tracks));
    }
    for e in &mut model.popcorn_emitters {
        v.push((name(&e.node), KPPV, &mut e.tracks));
    }
    v
}

/// What was done to one emitter.
enum Stopped {
    Already,
    Global,
    Stepped,
    Line,
    Curve,
    Added,
}

/// Stops one visibility track on `[a, b]`.
fn stop(t: &mut Track<f32>, a: i64, b: i64) -> Stopped {
    if t.global_sequence_id >= 0 {
        return Stopped::Global;
    }
    let keys = sorted_keys(t).into_owned();
    let at = |f: i64| {
        let w = Window {
            frame: f as f64,
            lo: a,
            hi: b,
        };
        sample_keys(&keys, t.interpolation, w).unwrap_or(1.0)
    };
    if at(b) <= 0.0 {
        return Stopped::Already;
    }
    let stepped = matches!(
        t.interpolation,
        Interpolation::None | Interpolation::Other(_)
    );
    let mut added = Vec::new();
    let before = |f: i64| keys.iter().any(|k| (a..f).contains(&i64::from(k.time)));
    if stepped {
        if !before(b) && a < b {
            added.push(Key::at(a as i32, at(a)));
        }
    } else if b > a && !keys.iter().any(|k| i64::from(k.time) == b - 1) {
        if !before(b - 1) && a < b - 1 {
            added.push(Key::at(a as i32, at(a)));
        }
        added.push(Key::at((b - 1) as i32, at(b - 1)));
    }
    added.push(Key::at(b as i32, 0.0));
    let mut out: Vec<Key<f32>> = keys
        .into_iter()
        .filter(|k| !added.iter().any(|n| n.time == k.time))
        .collect();
    out.extend(added);
    out.sort_by_key(|k| k.time);
    t.keys = out;
    match t.interpolation {
        _ if stepped => Stopped::Stepped,
        Interpolation::Linear => Stopped::Line,
        _ => Stopped::Curve,
    }
}

/// Makes every emitter invisible on the last frame of sequence `s` (see the module docs).
pub(super) fn stop_emitters(model: &mut Model, s: usize, report: &mut Report) {
    let seq = &model.sequences[s];
    let name = seq.name.text().into_owned();
    let [a, b] = seq.interval.map(i64::from);
    if b < a {
        report.refused.push(format!(
            "sequence {name:?}: its interval runs backwards ({a} to {b}): it has no last frame"
        ));
        return;
    }
    let meets = (model.sequences.iter().enumerate())
        .filter(|&(i, o)| i != s && o.interval[0] <= o.interval[1])
        .find(|(_, o)| (i64::from(o.interval[0])..=i64::from(o.interval[1])).contains(&b));
    if let Some((_, o)) = meets {
        report.refused.push(format!(
            "sequence {name:?}: its last frame ({b}) is also a frame of {:?}: stopping its emitters there would change that one",
            o.name.text()
        ));
        return;
    }
    let (mut stopped, mut left, mut curves) = (0, Vec::new(), Vec::new());
    for (emitter, tag, tracks) in emitters(model) {
        let track = tracks.0.iter_mut().find(|x| x.tag == tag);
        let done = match track.map(|x| &mut x.track) {
            Some(AnyTrack::Float(t)) => stop(t, a, b),
            Some(_) => {
                left.push(format!("{emitter} (its visibility holds no numbers)"));
                continue;
            }
            None => {
                let keys = if a < b {
                    vec![Key::at(a as i32, 1.0), Key::at(b as i32, 0.0)]
                } else {
                    vec![Key::at(b as i32, 0.0)]
                };
                tracks.0.push(Animation {
                    tag,
                    track: AnyTrack::Float(Track {
                        interpolation: Interpolation::None,
                        global_sequence_id: -1,
                        keys,
                    }),
                });
                Stopped::Added
            }
        };
        match done {
            Stopped::Already => {}
            Stopped::Global => left.push(format!("{emitter} (on a global sequence)")),
            Stopped::Curve => {
                curves.push(emitter);
                stopped += 1;
            }
            _ => stopped += 1,
        }
    }
    if stopped > 0 {
        report.changed.push(format!(
            "sequence {name:?}: {stopped} emitter(s) stopped on its last frame ({b})"
        ));
    }
    if !left.is_empty() {
        report.changed.push(format!(
            "sequence {name:?}: emitters left as they are: {}",
            left.join(", ")
        ));
    }
    if !curves.is_empty() {
        report.changed.push(format!(
            "sequence {name:?}: {}: a curved visibility, its last span before the end bends differently",
            curves.join(", ")
        ));
    }
}
