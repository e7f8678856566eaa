//! The pose check: the original and the fixed model sampled at every moment that matters
//! and compared, node matrices, geoset alphas and colours, and every track that stays.

use super::keys::rel;
use super::{FixError, Maps, Value};
use crate::anim::math::{Quat, Vec3};
use crate::anim::sample::{sample_keys, sorted_keys, AnimTime, Clock};
use crate::anim::{geoset_alphas, Skeleton};
use crate::model::usage::{self, Owner, TrackVisitor};
use crate::model::{AnyTrack, Interpolation, Key, Model, Track, Tracks};
use crate::spec::track::KMTF;
use std::borrow::Cow;

/// A track ready to sample many times.
struct Prepared<'m, T: Clone> {
    keys: Cow<'m, [Key<T>]>,
    interpolation: Interpolation,
    global_sequence_id: i32,
}

impl<'m, T: Value> Prepared<'m, T> {
    fn new(t: &'m Track<T>) -> Self {
        Prepared {
            keys: sorted_keys(t),
            interpolation: t.interpolation,
            global_sequence_id: t.global_sequence_id,
        }
    }

    fn sample(&self, clock: &Clock) -> Option<T> {
        let w = clock.window(self.global_sequence_id)?;
        sample_keys(&self.keys, self.interpolation, w)
    }
}

enum AnyPrepared<'m> {
    Float(Prepared<'m, f32>),
    Vector3(Prepared<'m, Vec3>),
    Quaternion(Prepared<'m, Quat>),
    /// `true`: the values are texture ids.
    Integer(Prepared<'m, u32>, bool),
}

impl AnyPrepared<'_> {
    fn kind(&self) -> u8 {
        match self {
            AnyPrepared::Float(_) => 0,
            AnyPrepared::Vector3(_) => 1,
            AnyPrepared::Quaternion(_) => 2,
            AnyPrepared::Integer(..) => 3,
        }
    }

    fn global_sequence_id(&self) -> i32 {
        match self {
            AnyPrepared::Float(t) => t.global_sequence_id,
            AnyPrepared::Vector3(t) => t.global_sequence_id,
            AnyPrepared::Quaternion(t) => t.global_sequence_id,
            AnyPrepared::Integer(t, _) => t.global_sequence_id,
        }
    }

    fn times(&self) -> Vec<i32> {
        fn t<T: Clone>(p: &Prepared<T>) -> Vec<i32> {
            p.keys.iter().map(|k| k.time).collect()
        }
        match self {
            AnyPrepared::Float(p) => t(p),
            AnyPrepared::Vector3(p) => t(p),
            AnyPrepared::Quaternion(p) => t(p),
            AnyPrepared::Integer(p, _) => t(p),
        }
    }
}

/// Collects the tracks of a model, leaving out those of removed records.
struct Collect<'m, 'a> {
    maps: Option<&'a Maps>,
    tracks: Vec<(String, AnyPrepared<'m>)>,
}

impl Collect<'_, '_> {
    fn kept(&self, owner: Owner) -> bool {
        let gone = |map: &Option<Vec<Option<usize>>>, i: usize| {
            map.as_ref().is_some_and(|m| m.get(i) == Some(&None))
        };
        match (self.maps, owner) {
            (Some(maps), Owner::Material(i)) => !gone(&maps.materials, i),
            (Some(maps), Owner::TextureAnimation(i)) => !gone(&maps.texture_animations, i),
            _ => true,
        }
    }
}

impl<'m> TrackVisitor<'m> for Collect<'m, '_> {
    fn tracks(&mut self, owner: Owner, at: &dyn Fn() -> String, tracks: &'m Tracks) {
        if !self.kept(owner) {
            return;
        }
        for a in tracks.iter() {
            let p = match &a.track {
                AnyTrack::Float(t) => AnyPrepared::Float(Prepared::new(t)),
                AnyTrack::Vector3(t) => AnyPrepared::Vector3(Prepared::new(t)),
                AnyTrack::Quaternion(t) => AnyPrepared::Quaternion(Prepared::new(t)),
                AnyTrack::Integer(t) => AnyPrepared::Integer(Prepared::new(t), a.tag == KMTF),
            };
            let path = if self.maps.is_some() {
                format!("{}.tracks.{}", at(), a.tag)
            } else {
                String::new()
            };
            self.tracks.push((path, p));
        }
    }

    fn slot(&mut self, owner: Owner, at: &dyn Fn() -> String, track: &'m Track<u32>) {
        if self.kept(owner) {
            let path = if self.maps.is_some() {
                at()
            } else {
                String::new()
            };
            self.tracks
                .push((path, AnyPrepared::Integer(Prepared::new(track), true)));
        }
    }
}

/// Where the comparison is: the sequence and time, for reports.
struct Moment<'a> {
    sequence: &'a str,
    time_ms: i64,
}

impl Moment<'_> {
    fn check(
        &self,
        what: impl FnOnce() -> String,
        difference: f32,
        tol: f32,
    ) -> Result<(), FixError> {
        if difference <= tol {
            return Ok(());
        }
        Err(FixError::PoseChanged {
            sequence: self.sequence.to_string(),
            time_ms: self.time_ms.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
            what: what(),
            difference,
        })
    }
}

/// Compares `orig` and `fixed` (made from it by the repairs, with `maps` the records
/// removed) at every moment the module docs list; returns how many moments.
pub(super) fn compare(
    orig: &Model,
    fixed: &Model,
    maps: &Maps,
    tol: f32,
) -> Result<usize, FixError> {
    let mut a = Collect {
        maps: Some(maps),
        tracks: Vec::new(),
    };
    usage::visit_tracks(orig, &mut a);
    let mut b = Collect {
        maps: None,
        tracks: Vec::new(),
    };
    usage::visit_tracks(fixed, &mut b);
    if a.tracks.len() != b.tracks.len() {
        return Err(FixError::Mismatch {
            what: format!("{} tracks, then {}", a.tracks.len(), b.tracks.len()),
        });
    }
    if let Some(((path, _), _)) =
        (a.tracks.iter().zip(&b.tracks)).find(|((_, x), (_, y))| x.kind() != y.kind())
    {
        return Err(FixError::Mismatch { what: path.clone() });
    }
    // Sequences pair as they were, their extents aside (`stale-extent` recomputes them).
    let timing = |m: &Model| -> Vec<_> {
        (m.sequences.iter())
            .map(|s| {
                (
                    s.name.clone(),
                    s.interval,
                    s.flags,
                    s.move_speed,
                    s.rarity,
                    s.sync_point,
                )
            })
            .collect()
    };
    if timing(orig) != timing(fixed)
        || orig.geosets.len() != fixed.geosets.len()
        || orig.node_count() != fixed.node_count()
    {
        return Err(FixError::Mismatch {
            what: "sequences, geosets or nodes".into(),
        });
    }
    let pairs: Vec<(&str, &AnyPrepared, &AnyPrepared)> = (a.tracks.iter().zip(&b.tracks))
        .map(|((path, x), (_, y))| (path.as_str(), x, y))
        .collect();
    let cmp = Comparer {
        orig,
        fixed,
        skeletons: (Skeleton::new(orig), Skeleton::new(fixed)),
        pairs,
        textures: maps.textures.as_deref(),
        size: (orig.pivot_points.iter().flatten())
            .map(|c| c.abs())
            .filter(|c| c.is_finite())
            .fold(1.0, f32::max),
        tol,
    };

    // Times: of keys on the sequence clock, and of keys on each global sequence.
    let mut seq_times = Vec::new();
    let mut global_times = vec![0i64];
    for (_, p) in &a.tracks {
        let gs = p.global_sequence_id();
        if gs < 0 {
            seq_times.extend(p.times().into_iter().map(i64::from));
        } else if let Some(&len) = orig.global_sequences.get(gs as usize) {
            global_times.extend(
                (p.times().into_iter().map(i64::from))
                    .filter(|&t| len == 0 || (0..=i64::from(len)).contains(&t)),
            );
        }
    }
    seq_times.sort_unstable();
    seq_times.dedup();
    global_times.sort_unstable();
    global_times.dedup();

    let mut moments = 0;
    for (s, seq) in orig.sequences.iter().enumerate() {
        let (lo, hi) = (i64::from(seq.interval[0]), i64::from(seq.interval[1]));
        let first = seq_times.partition_point(|&t| t < lo);
        let last = seq_times.partition_point(|&t| t <= hi);
        let inner = seq_times.get(first..last.max(first)).unwrap_or(&[]);
        let name = seq.name.text();
        let mut times: Vec<i64> = std::iter::once(lo).chain(inner.iter().copied()).collect();
        if hi > lo {
            times.push(hi);
        }
        times.dedup();
        for t in times {
            let elapsed = (t - lo) as f64;
            let at = Moment {
                sequence: &name,
                time_ms: t,
            };
            cmp.at(
                &Clock::unwrapped(orig, s, elapsed),
                &Clock::unwrapped(fixed, s, elapsed),
                &at,
            )?;
            moments += 1;
        }
    }
    if !orig.global_sequences.is_empty() {
        for t in global_times {
            let when = AnimTime {
                sequence: None,
                elapsed_ms: 0.0,
                global_ms: t as f64,
            };
            let at = Moment {
                sequence: "global sequences",
                time_ms: t,
            };
            cmp.at(&Clock::new(orig, when), &Clock::new(fixed, when), &at)?;
            moments += 1;
        }
    }
    Ok(moments)
}

struct Comparer<'m> {
    orig: &'m Model,
    fixed: &'m Model,
    skeletons: (Skeleton<'m>, Skeleton<'m>),
    pairs: Vec<(&'m str, &'m AnyPrepared<'m>, &'m AnyPrepared<'m>)>,
    /// Old texture index to new, when textures were removed.
    textures: Option<&'m [Option<usize>]>,
    /// The model's size: node matrix translations are compared relative to it.
    size: f32,
    tol: f32,
}

fn sampled<T: Value>(a: &Prepared<T>, b: &Prepared<T>, ca: &Clock, cb: &Clock) -> f32 {
    match (a.sample(ca), b.sample(cb)) {
        (Some(x), Some(y)) => T::difference(x, y),
        (None, None) => 0.0,
        _ => f32::INFINITY,
    }
}

impl Comparer<'_> {
    fn at(&self, ca: &Clock, cb: &Clock, at: &Moment) -> Result<(), FixError> {
        let tol = self.tol;
        let (sa, sb) = &self.skeletons;
        let (pa, pb) = (sa.pose_at(ca, None), sb.pose_at(cb, None));
        for (i, (x, y)) in pa.nodes.iter().zip(&pb.nodes).enumerate() {
            let d = (0..16)
                .map(|k| {
                    let (u, v) = (x.world[k], y.world[k]);
                    if (12..15).contains(&k) {
                        rel(u / self.size, v / self.size)
                    } else {
                        rel(u, v)
                    }
                })
                .fold(0.0, f32::max);
            let n = &sa.nodes[i];
            at.check(
                || format!("{}[{}] world matrix", kind_field(n.kind.name()), n.index),
                d,
                tol,
            )?;
        }
        for g in 0..self.orig.geosets.len() {
            let (x, y) = (
                geoset_alphas(self.orig, ca, g),
                geoset_alphas(self.fixed, cb, g),
            );
            at.check(|| format!("geosets[{g}] alpha"), rel(x.0, y.0), tol)?;
            at.check(
                || format!("geosets[{g}] colour"),
                Vec3::difference(x.1, y.1),
                tol,
            )?;
            at.check(|| format!("geosets[{g}] layer alpha"), rel(x.2, y.2), tol)?;
        }
        for (path, a, b) in &self.pairs {
            let d = match (a, b) {
                (AnyPrepared::Float(a), AnyPrepared::Float(b)) => sampled(a, b, ca, cb),
                (AnyPrepared::Vector3(a), AnyPrepared::Vector3(b)) => sampled(a, b, ca, cb),
                (AnyPrepared::Quaternion(a), AnyPrepared::Quaternion(b)) => sampled(a, b, ca, cb),
                (AnyPrepared::Integer(a, texture), AnyPrepared::Integer(b, _)) => {
                    let renumber = |v: u32| match (texture, self.textures) {
                        (true, Some(map)) => match map.get(v as usize) {
                            Some(Some(new)) => Some(*new as u32),
                            Some(None) => None,
                            None => Some(v),
                        },
                        _ => Some(v),
                    };
                    match (a.sample(ca).map(renumber), b.sample(cb)) {
                        (Some(x), Some(y)) if x == Some(y) => 0.0,
                        (None, None) => 0.0,
                        _ => f32::INFINITY,
                    }
                }
                _ => f32::INFINITY,
            };
            at.check(|| path.to_string(), d, tol)?;
        }
        Ok(())
    }
}

/// The model's field for a node kind's name (`Bone` -> `bones`).
fn kind_field(name: &str) -> &'static str {
    match name {
        "Bone" => "bones",
        "Light" => "lights",
        "Helper" => "helpers",
        "Attachment" => "attachments",
        "ParticleEmitter" => "particle_emitters",
        "ParticleEmitter2" => "particle_emitters2",
        "PopcornEmitter" => "popcorn_emitters",
        "RibbonEmitter" => "ribbon_emitters",
        "EventObject" => "event_objects",
        _ => "collision_shapes",
    }
}
