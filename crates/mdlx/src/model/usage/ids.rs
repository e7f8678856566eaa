//! Every index field of a model (those inside tracks too), counted or renumbered.

use super::{visit_tracks, visit_tracks_mut, Owner, RefKind, TrackVisitor, TrackVisitorMut, Usage};
use crate::model::{AnyTrack, EventTrack, Model, Track, Tracks};
use crate::spec::track::KMTF;

/// Adds every reference of `model` to the counts of `usage`, and lists those out of range.
pub(super) fn count(model: &Model, usage: &mut Usage) {
    walk_ids(model, &mut Counter(usage));
}

/// Renumbers every reference of `kind` in `model` by `map` (old index to new).
pub(super) fn renumber(model: &mut Model, kind: RefKind, map: &[Option<usize>]) {
    walk_ids_mut(model, &mut Renumber { kind, map });
}

/// An index field, read (`&`) or read and written (`&mut`).
trait IdSlot {
    fn get(&self) -> i64;
    fn set(&mut self, _v: i64) {}
}

impl IdSlot for &i32 {
    fn get(&self) -> i64 {
        i64::from(**self)
    }
}

impl IdSlot for &u32 {
    fn get(&self) -> i64 {
        i64::from(**self)
    }
}

impl IdSlot for &mut i32 {
    fn get(&self) -> i64 {
        i64::from(**self)
    }
    fn set(&mut self, v: i64) {
        **self = i32::try_from(v).expect("a renumbered index is below the old one");
    }
}

impl IdSlot for &mut u32 {
    fn get(&self) -> i64 {
        i64::from(**self)
    }
    fn set(&mut self, v: i64) {
        **self = u32::try_from(v).expect("a renumbered index is below the old one");
    }
}

/// Sees every index field.
trait IdVisitor {
    fn id(&mut self, kind: RefKind, at: &dyn Fn() -> String, slot: impl IdSlot);
}

/// Every index field, for `&` and `&mut` alike.
macro_rules! walk_ids {
    ($model:expr, $v:expr $(, $m:ident)?) => {{
        let model = $model;
        let v = $v;
        for (i, mat) in (& $($m)? model.materials).into_iter().enumerate() {
            for (j, l) in (& $($m)? mat.layers).into_iter().enumerate() {
                let at = |f: &str| format!("materials[{i}].layers[{j}].{f}");
                v.id(RefKind::Texture, &|| at("texture_id"), & $($m)? l.texture_id);
                v.id(
                    RefKind::TextureAnimation,
                    &|| at("texture_animation_id"),
                    & $($m)? l.texture_animation_id,
                );
                for (k, s) in (& $($m)? l.texture_slots).into_iter().enumerate() {
                    let f = format!("texture_slots[{k}].texture_id");
                    v.id(RefKind::Texture, &|| at(&f), & $($m)? s.texture_id);
                }
            }
        }
        for (i, g) in (& $($m)? model.geosets).into_iter().enumerate() {
            let at = || format!("geosets[{i}].material_id");
            v.id(RefKind::Material, &at, & $($m)? g.material_id);
        }
        for (i, r) in (& $($m)? model.ribbon_emitters).into_iter().enumerate() {
            let at = || format!("ribbon_emitters[{i}].material_id");
            v.id(RefKind::Material, &at, & $($m)? r.material_id);
        }
        for (i, p) in (& $($m)? model.particle_emitters2).into_iter().enumerate() {
            let at = || format!("particle_emitters2[{i}].texture_id");
            v.id(RefKind::Texture, &at, & $($m)? p.texture_id);
        }
    }};
}

/// Shows every index field of `model` to `v`, those inside tracks included.
fn walk_ids(model: &Model, v: &mut impl IdVisitor) {
    walk_ids!(model, &mut *v);
    visit_tracks(model, &mut TrackIds(v));
}

/// Lets `v` change every index field of `model`, those inside tracks included.
fn walk_ids_mut(model: &mut Model, v: &mut impl IdVisitor) {
    walk_ids!(&mut *model, &mut *v, mut);
    visit_tracks_mut(model, &mut TrackIds(v));
}

/// The index fields inside tracks: global sequence ids, and the values of `KMTF` keys.
struct TrackIds<'v, V>(&'v mut V);

/// The global sequence id of any track.
macro_rules! gs_id {
    ($track:expr $(, $m:ident)?) => {
        match $track {
            AnyTrack::Float(t) => & $($m)? t.global_sequence_id,
            AnyTrack::Vector3(t) => & $($m)? t.global_sequence_id,
            AnyTrack::Quaternion(t) => & $($m)? t.global_sequence_id,
            AnyTrack::Integer(t) => & $($m)? t.global_sequence_id,
        }
    };
}

/// The index fields of tracks, for `&` and `&mut` alike.
macro_rules! track_ids {
    (tracks $v:expr, $at:expr, $tracks:expr $(, $m:ident)?) => {
        for a in (& $($m)? $tracks.0).into_iter() {
            let tag = a.tag;
            let name = || format!("{}.tracks.{}", $at(), tag);
            let gs = || format!("{}.global_sequence_id", name());
            $v.id(RefKind::GlobalSequence, &gs, gs_id!(& $($m)? a.track $(, $m)?));
            if let AnyTrack::Integer(t) = & $($m)? a.track {
                if tag == KMTF {
                    track_ids!(keys $v, name, t $(, $m)?);
                }
            }
        }
    };
    (keys $v:expr, $name:expr, $t:expr $(, $m:ident)?) => {
        for k in (& $($m)? $t.keys).into_iter() {
            let time = k.time;
            let at = || format!("{} key at {time}", $name());
            $v.id(RefKind::Texture, &at, & $($m)? k.value);
        }
    };
    (slot $v:expr, $at:expr, $t:expr $(, $m:ident)?) => {
        let gs = || format!("{}.global_sequence_id", $at());
        $v.id(RefKind::GlobalSequence, &gs, & $($m)? $t.global_sequence_id);
        track_ids!(keys $v, $at, $t $(, $m)?);
    };
    (event $v:expr, $at:expr, $t:expr $(, $m:ident)?) => {
        let gs = || format!("{}.global_sequence_id", $at());
        $v.id(RefKind::GlobalSequence, &gs, & $($m)? $t.global_sequence_id);
    };
}

impl<'m, V: IdVisitor> TrackVisitor<'m> for TrackIds<'_, V> {
    fn tracks(&mut self, _: Owner, at: &dyn Fn() -> String, tracks: &'m Tracks) {
        track_ids!(tracks self.0, at, tracks);
    }
    fn slot(&mut self, _: Owner, at: &dyn Fn() -> String, track: &'m Track<u32>) {
        track_ids!(slot self.0, at, track);
    }
    fn event(&mut self, at: &dyn Fn() -> String, track: &'m EventTrack) {
        track_ids!(event self.0, at, track);
    }
}

impl<V: IdVisitor> TrackVisitorMut for TrackIds<'_, V> {
    fn tracks(&mut self, _: Owner, at: &dyn Fn() -> String, tracks: &mut Tracks) {
        track_ids!(tracks self.0, at, tracks, mut);
    }
    fn slot(&mut self, _: Owner, at: &dyn Fn() -> String, track: &mut Track<u32>) {
        track_ids!(slot self.0, at, track, mut);
    }
    fn event(&mut self, at: &dyn Fn() -> String, track: &mut EventTrack) {
        track_ids!(event self.0, at, track, mut);
    }
}

/// Counts references into a [`Usage`].
struct Counter<'u>(&'u mut Usage);

impl IdVisitor for Counter<'_> {
    fn id(&mut self, kind: RefKind, at: &dyn Fn() -> String, slot: impl IdSlot) {
        let v = slot.get();
        if kind.none() == Some(v) {
            return;
        }
        match usize::try_from(v)
            .ok()
            .and_then(|i| self.0.counts_mut(kind).get_mut(i))
        {
            Some(n) => *n += 1,
            None => self.0.invalid.push((kind, at(), v)),
        }
    }
}

/// Renumbers the references of one kind.
struct Renumber<'a> {
    kind: RefKind,
    map: &'a [Option<usize>],
}

impl IdVisitor for Renumber<'_> {
    fn id(&mut self, kind: RefKind, _: &dyn Fn() -> String, mut slot: impl IdSlot) {
        if kind != self.kind {
            return;
        }
        let v = slot.get();
        if let Some(Some(new)) = usize::try_from(v).ok().and_then(|i| self.map.get(i)) {
            if i64::try_from(*new).ok() != Some(v) {
                slot.set(*new as i64);
            }
        }
    }
}
