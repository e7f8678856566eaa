//! A Birth, Death or Decay made from the model's Stand: a new sequence, after the others,
//! in which the model holds the opening pose of its Stand (every track at its value there)
//! while every geoset fades in (Birth) or out (Death, Decay) along a straight line of its
//! alpha, from 0 to what it shows in Stand or back. The sequence plays once. A geoset
//! without a geoset animation gets one (alpha 1, keyed only in the new sequence); a geoset
//! alpha track that steps fades in steps of 1/30 s, so the model's other sequences keep
//! their keys as they are.

use super::Report;
use crate::model::{AnyTrack, GeosetAnimation, Interpolation, Key, Model, Sequence, Track};
use crate::spec::track::KGAO;

/// Which sequence to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fade {
    /// The model fades in.
    Birth,
    /// The model fades out.
    Death,
    /// The model fades out (a corpse's last sequence).
    Decay,
}

impl Fade {
    fn name(self) -> &'static str {
        match self {
            Fade::Birth => "Birth",
            Fade::Death => "Death",
            Fade::Decay => "Decay",
        }
    }
}

/// The alpha keys of the fade from `from` to `to` over `[start, start + len]`.
fn fade_keys(from: f32, to: f32, start: i64, len: i64, stepped: bool) -> Vec<Key<f32>> {
    let at = |t: i64| {
        Key::at(
            t as i32,
            from + (to - from) * (t - start) as f32 / len as f32,
        )
    };
    if !stepped {
        return vec![at(start), at(start + len)];
    }
    let steps = ((len as f64) / (1000.0 / 30.0)).ceil().max(1.0) as i64;
    (0..=steps).map(|k| at(start + len * k / steps)).collect()
}

/// Geoset `g`'s animation; a new one (alpha 1, white, no track) where it has none.
pub(super) fn geoset_animation(model: &mut Model, g: usize) -> &mut GeosetAnimation {
    let at = (model.geoset_animations.iter()).position(|a| a.geoset_id == g as i32);
    let i = at.unwrap_or_else(|| {
        model.geoset_animations.push(GeosetAnimation {
            alpha: 1.0,
            color: [1.0; 3],
            geoset_id: g as i32,
            ..Default::default()
        });
        model.geoset_animations.len() - 1
    });
    &mut model.geoset_animations[i]
}

/// Adds the sequence `kind`, `length_ms` long (see the module docs).
pub fn fade(model: &mut Model, kind: Fade, length_ms: u32) -> Report {
    let mut report = Report::default();
    let name = kind.name();
    if let Some(i) = (model.sequences.iter()).position(|s| s.name.text().eq_ignore_ascii_case(name))
    {
        report
            .refused
            .push(format!("{name}: the model has one already (sequence {i})"));
        return report;
    }
    if length_ms == 0 || length_ms > 60_000 {
        report.refused.push(format!(
            "{name}: a length of 1 to 60000 ms, not {length_ms}"
        ));
        return report;
    }
    let start = super::transfer::free_time(model);
    let len = i64::from(length_ms);
    if start + len > i64::from(i32::MAX) {
        report
            .refused
            .push("the sequences would run past 2^31 ms".into());
        return report;
    }
    super::transfer::hold(model, &[start]);
    let fade_in = kind == Fade::Birth;
    let mut faded = 0;
    for g in 0..model.geosets.len() {
        let ga = geoset_animation(model, g);
        let static_alpha = ga.alpha;
        let track = ga.tracks.0.iter_mut().find(|a| a.tag == KGAO);
        match track.map(|a| &mut a.track) {
            Some(AnyTrack::Float(t)) if t.global_sequence_id >= 0 => {
                report.changed.push(format!(
                    "geoset {g}: its alpha runs on a global sequence: not faded"
                ));
            }
            Some(AnyTrack::Float(t)) => {
                // The key `hold` put at the start is what the geoset shows in Stand.
                let shown = match t.keys.last() {
                    Some(k) if i64::from(k.time) == start => t.keys.pop().map_or(1.0, |k| k.value),
                    _ => static_alpha,
                };
                let stepped = matches!(
                    t.interpolation,
                    Interpolation::None | Interpolation::Other(_)
                );
                let (from, to) = if fade_in { (0.0, shown) } else { (shown, 0.0) };
                // A straight line in the track's own interpolation (see `lift`).
                let mut line = Track {
                    interpolation: Interpolation::Linear,
                    global_sequence_id: -1,
                    keys: fade_keys(from, to, start, len, stepped),
                };
                if !stepped {
                    super::lift::lift(&mut line, t.interpolation, false);
                }
                t.keys.extend(line.keys);
                faded += 1;
            }
            Some(_) => report.changed.push(format!(
                "geoset {g}: its alpha track holds no numbers: not faded"
            )),
            None => {
                let (from, to) = if fade_in {
                    (0.0, static_alpha)
                } else {
                    (static_alpha, 0.0)
                };
                ga.tracks.0.push(crate::model::Animation {
                    tag: KGAO,
                    track: AnyTrack::Float(Track {
                        interpolation: Interpolation::Linear,
                        global_sequence_id: -1,
                        keys: fade_keys(from, to, start, len, false),
                    }),
                });
                faded += 1;
            }
        }
    }
    let old = model.sequences.len();
    let interval = [start as u32, (start + len) as u32];
    model.sequences.push(Sequence {
        name: name.into(),
        interval,
        flags: crate::model::SEQUENCE_NON_LOOPING,
        extent: model.info.extent,
        ..Default::default()
    });
    for g in &mut model.geosets {
        if g.sequence_extents.len() == old {
            g.sequence_extents.push(g.extent);
        }
    }
    let how = if fade_in { "in" } else { "out" };
    report.changed.push(format!(
        "sequence {name:?} at {interval:?}: the Stand's opening pose, {faded} geoset(s) fading {how}"
    ));
    report
}
