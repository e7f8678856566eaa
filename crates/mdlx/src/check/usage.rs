//! Who refers to which texture, material, texture animation and global sequence, and
//! removing records of those kinds with every reference renumbered.
//!
//! The references, by kind (every field of the model that holds such an index):
//! - textures: a layer's `texture_id`, the values of a layer's `KMTF` keys, a texture
//!   slot's `texture_id` and the values of its `texture_id_track` (1100+), a particle
//!   emitter 2's `texture_id`;
//! - materials: a geoset's `material_id`, a ribbon emitter's `material_id`;
//! - texture animations: a layer's `texture_animation_id` (-1: none);
//! - global sequences: the `global_sequence_id` of every track of every record, of every
//!   texture slot track and of every event track (-1: none).
//!
//! A texture with a replaceable id is a texture like any other: it is used when an index
//! names it. Tangents of integer tracks are not references (nothing reads them).
//!
//! [`Usage::of`] counts the references to each record and lists those that name no record
//! (out of range). [`remove`] takes records out and renumbers what refers to the others;
//! it refuses when a removed record is referred to, or when any reference of that kind is
//! out of range (renumbering could make such a reference name a record it did not name).

use crate::format::{chunk, track::KMTF};
use crate::model::{AnyTrack, EventTrack, LayoutEntry, Model, Tag, Track, Tracks};

/// The kinds of record other records refer to by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum RefKind {
    /// [`Model::textures`].
    Texture,
    /// [`Model::materials`].
    Material,
    /// [`Model::texture_animations`].
    TextureAnimation,
    /// [`Model::global_sequences`].
    GlobalSequence,
}

impl RefKind {
    /// Every kind, in the order the fixer removes them (records that refer to others
    /// first, so that what only they referred to is unused after).
    pub(crate) const ALL: [RefKind; 4] = [
        RefKind::Material,
        RefKind::Texture,
        RefKind::TextureAnimation,
        RefKind::GlobalSequence,
    ];

    /// The model's field holding records of this kind.
    pub(crate) fn field(self) -> &'static str {
        match self {
            RefKind::Texture => "textures",
            RefKind::Material => "materials",
            RefKind::TextureAnimation => "texture_animations",
            RefKind::GlobalSequence => "global_sequences",
        }
    }

    /// The id of the check rule that reports an unreferenced record of this kind.
    pub(crate) fn unused_rule(self) -> &'static str {
        match self {
            RefKind::Texture => "unused-texture",
            RefKind::Material => "unused-material",
            RefKind::TextureAnimation => "unused-texture-animation",
            RefKind::GlobalSequence => "unused-global-sequence",
        }
    }

    /// The chunk holding records of this kind.
    fn chunk(self) -> Tag {
        match self {
            RefKind::Texture => chunk::TEXS,
            RefKind::Material => chunk::MTLS,
            RefKind::TextureAnimation => chunk::TXAN,
            RefKind::GlobalSequence => chunk::GLBS,
        }
    }

    /// How many records of this kind `model` has.
    pub(crate) fn len(self, model: &Model) -> usize {
        match self {
            RefKind::Texture => model.textures.len(),
            RefKind::Material => model.materials.len(),
            RefKind::TextureAnimation => model.texture_animations.len(),
            RefKind::GlobalSequence => model.global_sequences.len(),
        }
    }

    /// The value that means "none" (only texture animations and global sequences have one).
    fn none(self) -> Option<i64> {
        match self {
            RefKind::TextureAnimation | RefKind::GlobalSequence => Some(-1),
            RefKind::Texture | RefKind::Material => None,
        }
    }
}

/// The references of a model: a count per record of each kind (the fields are shaped as
/// the `unused-*` rules read them), and the references that name no record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Usage {
    /// References to each texture, by index.
    pub(crate) textures: Vec<u32>,
    /// References to each material.
    pub(crate) materials: Vec<u32>,
    /// References to each texture animation.
    pub(crate) texture_animations: Vec<u32>,
    /// References to each global sequence.
    pub(crate) global_sequences: Vec<u32>,
    /// References that name no record: their kind, where (a path such as
    /// `materials[0].layers[1].texture_id`) and the value.
    pub(crate) invalid: Vec<(RefKind, String, i64)>,
}

impl Usage {
    /// Counts every reference of `model`.
    pub(crate) fn of(model: &Model) -> Usage {
        let mut u = Usage::default();
        for kind in RefKind::ALL {
            *u.counts_mut(kind) = vec![0; kind.len(model)];
        }
        let mut counter = Counter(&mut u);
        walk_ids(model, &mut counter);
        u
    }

    /// The counts of one kind.
    pub(crate) fn counts(&self, kind: RefKind) -> &[u32] {
        match kind {
            RefKind::Texture => &self.textures,
            RefKind::Material => &self.materials,
            RefKind::TextureAnimation => &self.texture_animations,
            RefKind::GlobalSequence => &self.global_sequences,
        }
    }

    fn counts_mut(&mut self, kind: RefKind) -> &mut Vec<u32> {
        match kind {
            RefKind::Texture => &mut self.textures,
            RefKind::Material => &mut self.materials,
            RefKind::TextureAnimation => &mut self.texture_animations,
            RefKind::GlobalSequence => &mut self.global_sequences,
        }
    }

    /// The indices of the records of `kind` nothing refers to.
    pub(crate) fn unused(&self, kind: RefKind) -> impl Iterator<Item = usize> + '_ {
        (self.counts(kind).iter().enumerate())
            .filter(|(_, &n)| n == 0)
            .map(|(i, _)| i)
    }

    /// The references of `kind` that name no record: where, and the value.
    pub(crate) fn invalid(&self, kind: RefKind) -> impl Iterator<Item = (&str, i64)> + '_ {
        (self.invalid.iter())
            .filter(move |(k, ..)| *k == kind)
            .map(|(_, at, v)| (at.as_str(), *v))
    }
}

/// Why [`remove`] refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RemoveRefused {
    /// A reference of the kind names no record.
    InvalidReference(String, i64),
    /// A record to remove is referred to.
    Referenced(usize),
    /// A chunk of the kind keeps tracks past its end for its last record (see
    /// [`LayoutEntry::Known::overflow_tracks`]): removing records would move them.
    OverflowLayout,
}

/// Removes the records of `kind` whose index `drop` marks (it is as long as the list), and
/// renumbers every reference to the records that stay. Returns the new index of each old
/// one (`None`: removed). The chunk layout read from a file is kept in step (a chunk left
/// with no records and nothing else is dropped), so that the rest of the file is written
/// as it was. Refuses, changing nothing, when a record to remove is referred to or when
/// any reference of the kind is out of range.
pub(crate) fn remove(
    model: &mut Model,
    kind: RefKind,
    drop: &[bool],
) -> Result<Vec<Option<usize>>, RemoveRefused> {
    let len = kind.len(model);
    assert_eq!(drop.len(), len, "one flag per record");
    let usage = Usage::of(model);
    if let Some((at, v)) = usage.invalid(kind).next() {
        return Err(RemoveRefused::InvalidReference(at.to_string(), v));
    }
    let counts = usage.counts(kind);
    if let Some(i) = (0..len).find(|&i| drop[i] && counts[i] > 0) {
        return Err(RemoveRefused::Referenced(i));
    }
    let tag = kind.chunk();
    let overflow = model.layout.chunks.iter().any(
        |e| matches!(e, LayoutEntry::Known { tag: t, overflow_tracks, .. } if *t == tag && *overflow_tracks > 0),
    );
    if overflow && drop.iter().any(|&d| d) {
        return Err(RemoveRefused::OverflowLayout);
    }
    let mut map = Vec::with_capacity(len);
    let mut next = 0usize;
    for &d in drop {
        map.push((!d).then(|| {
            next += 1;
            next - 1
        }));
    }
    fn keep<T>(v: &mut Vec<T>, drop: &[bool]) {
        let mut i = 0;
        v.retain(|_| {
            i += 1;
            !drop[i - 1]
        });
    }
    match kind {
        RefKind::Texture => keep(&mut model.textures, drop),
        RefKind::Material => keep(&mut model.materials, drop),
        RefKind::TextureAnimation => keep(&mut model.texture_animations, drop),
        RefKind::GlobalSequence => keep(&mut model.global_sequences, drop),
    }
    walk_ids_mut(model, &mut Renumber { kind, map: &map });
    shrink_layout(model, tag, drop);
    Ok(map)
}

/// Takes the removed records out of the counts of the layout's chunks of `tag`.
fn shrink_layout(model: &mut Model, tag: Tag, drop: &[bool]) {
    let mut start = 0usize;
    for e in &mut model.layout.chunks {
        if let LayoutEntry::Known {
            tag: t, records, ..
        } = e
        {
            if *t == tag {
                let end = start.saturating_add(*records).min(drop.len());
                let gone = drop[start.min(end)..end].iter().filter(|&&d| d).count();
                start = end;
                *records -= gone;
            }
        }
    }
    model.layout.chunks.retain(|e| match e {
        LayoutEntry::Known {
            tag: t,
            records,
            tail,
            overflow_tracks,
        } => !(*t == tag && *records == 0 && tail.is_empty() && *overflow_tracks == 0),
        LayoutEntry::Unknown => true,
    });
}

/// Whose tracks a visitor is shown: removing a material or a texture animation takes its
/// tracks with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Owner {
    /// A layer of material `.0`.
    Material(usize),
    /// Texture animation `.0`.
    TextureAnimation(usize),
    /// Any other record (nodes, geoset animations, cameras).
    Other,
}

/// Sees every track of a model, in a fixed order (see [`visit_tracks`]).
pub(crate) trait TrackVisitor<'m> {
    /// The tracks of one record; `at` names the record (`lights[4]`, or `lights[4].node` for
    /// its node's); the tracks are named
    /// `{at}.tracks.{TAG}`.
    fn tracks(&mut self, owner: Owner, at: &dyn Fn() -> String, tracks: &'m Tracks);
    /// A texture slot's `KMTF` track; `at` names it in full.
    fn slot(&mut self, owner: Owner, at: &dyn Fn() -> String, track: &'m Track<u32>);
    /// An event object's `KEVT` times; `at` names it in full.
    fn event(&mut self, _at: &dyn Fn() -> String, _track: &'m EventTrack) {}
}

/// Changes every track of a model, in the order of [`TrackVisitor`].
pub(crate) trait TrackVisitorMut {
    /// See [`TrackVisitor::tracks`].
    fn tracks(&mut self, owner: Owner, at: &dyn Fn() -> String, tracks: &mut Tracks);
    /// See [`TrackVisitor::slot`].
    fn slot(&mut self, owner: Owner, at: &dyn Fn() -> String, track: &mut Track<u32>);
    /// See [`TrackVisitor::event`].
    fn event(&mut self, _at: &dyn Fn() -> String, _track: &mut EventTrack) {}
}

/// Every holder of tracks, for `&` and `&mut` alike: `walk_tracks!(model, visitor)` or
/// `walk_tracks!(model, visitor, mut)`.
macro_rules! walk_tracks {
    ($model:expr, $v:expr $(, $m:ident)?) => {{
        let model = $model;
        let v = $v;
        for (i, mat) in (& $($m)? model.materials).into_iter().enumerate() {
            for (j, l) in (& $($m)? mat.layers).into_iter().enumerate() {
                let owner = Owner::Material(i);
                v.tracks(owner, &|| format!("materials[{i}].layers[{j}]"), & $($m)? l.tracks);
                for (k, s) in (& $($m)? l.texture_slots).into_iter().enumerate() {
                    if let Some(t) = & $($m)? s.texture_id_track {
                        let at = || {
                            format!("materials[{i}].layers[{j}].texture_slots[{k}].texture_id_track")
                        };
                        v.slot(owner, &at, t);
                    }
                }
            }
        }
        for (i, ta) in (& $($m)? model.texture_animations).into_iter().enumerate() {
            let at = || format!("texture_animations[{i}]");
            v.tracks(Owner::TextureAnimation(i), &at, & $($m)? ta.tracks);
        }
        for (i, ga) in (& $($m)? model.geoset_animations).into_iter().enumerate() {
            v.tracks(Owner::Other, &|| format!("geoset_animations[{i}]"), & $($m)? ga.tracks);
        }
        walk_tracks!(@nodes model v [$($m)?] bones);
        walk_tracks!(@nodes model v [$($m)?] helpers);
        walk_tracks!(@nodes model v [$($m)?] collision_shapes);
        walk_tracks!(@nodes model v [$($m)?] event_objects);
        walk_tracks!(@with_tracks model v [$($m)?] lights);
        walk_tracks!(@with_tracks model v [$($m)?] attachments);
        walk_tracks!(@with_tracks model v [$($m)?] particle_emitters);
        walk_tracks!(@with_tracks model v [$($m)?] particle_emitters2);
        walk_tracks!(@with_tracks model v [$($m)?] popcorn_emitters);
        walk_tracks!(@with_tracks model v [$($m)?] ribbon_emitters);
        for (i, c) in (& $($m)? model.cameras).into_iter().enumerate() {
            v.tracks(Owner::Other, &|| format!("cameras[{i}]"), & $($m)? c.tracks);
        }
        for (i, e) in (& $($m)? model.event_objects).into_iter().enumerate() {
            if let Some(t) = & $($m)? e.track {
                v.event(&|| format!("event_objects[{i}].track"), t);
            }
        }
    }};
    (@nodes $model:ident $v:ident [$($m:ident)?] $field:ident) => {
        for (i, x) in (& $($m)? $model.$field).into_iter().enumerate() {
            let node = || format!(concat!(stringify!($field), "[{}].node"), i);
            $v.tracks(Owner::Other, &node, & $($m)? x.node.tracks);
        }
    };
    (@with_tracks $model:ident $v:ident [$($m:ident)?] $field:ident) => {
        for (i, x) in (& $($m)? $model.$field).into_iter().enumerate() {
            let node = || format!(concat!(stringify!($field), "[{}].node"), i);
            let at = || format!(concat!(stringify!($field), "[{}]"), i);
            $v.tracks(Owner::Other, &node, & $($m)? x.node.tracks);
            $v.tracks(Owner::Other, &at, & $($m)? x.tracks);
        }
    };
}

/// Shows `v` every track of `model`: layers (then their texture slots) by material,
/// texture animations, geoset animations, bones, helpers, collision shapes, event objects,
/// then the node tracks and own tracks of lights, attachments, the emitters, then cameras,
/// and last the event tracks.
pub(crate) fn visit_tracks<'m>(model: &'m Model, v: &mut impl TrackVisitor<'m>) {
    walk_tracks!(model, v)
}

/// Lets `v` change every track of `model`, in the order of [`visit_tracks`].
pub(crate) fn visit_tracks_mut(model: &mut Model, v: &mut impl TrackVisitorMut) {
    walk_tracks!(model, v, mut)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::track::{KGAO, KGTR, KMTA};
    use crate::model::{
        Animation, Bone, EventObject, Geoset, GeosetAnimation, Interpolation, Key, Layer, Material,
        Node, ParticleEmitter2, RibbonEmitter, Texture, TextureAnimation, TextureSlot,
    };

    fn track<T: Copy>(gs: i32, keys: &[(i32, T)]) -> Track<T> {
        Track {
            interpolation: Interpolation::None,
            global_sequence_id: gs,
            keys: keys.iter().map(|&(t, v)| Key::at(t, v)).collect(),
        }
    }

    fn layer(texture_id: i32, texture_animation_id: i32) -> Layer {
        Layer {
            texture_id,
            texture_animation_id,
            ..Layer::default()
        }
    }

    /// Three textures, three materials, three texture animations, three global sequences,
    /// each kind with one record nothing refers to (index 1), referred to from every kind
    /// of field.
    fn model() -> Model {
        let mut l0 = layer(0, 2);
        l0.tracks.0.push(Animation {
            tag: KMTF,
            track: AnyTrack::Integer(track(2, &[(0, 0), (10, 2)])),
        });
        let mut l1 = layer(2, -1);
        l1.texture_slots.push(TextureSlot {
            texture_id: 2,
            role: 0,
            texture_id_track: Some(track(0, &[(0, 2)])),
        });
        let mut ta = TextureAnimation::default();
        ta.tracks.0.push(Animation {
            tag: crate::format::track::KTAT,
            track: AnyTrack::Vector3(track(-1, &[(0, [0.0; 3])])),
        });
        let mut ga = GeosetAnimation::default();
        ga.tracks.0.push(Animation {
            tag: KGAO,
            track: AnyTrack::Float(track(0, &[(0, 1.0)])),
        });
        let mut bone = Bone::default();
        bone.node.tracks.0.push(Animation {
            tag: KGTR,
            track: AnyTrack::Vector3(track(2, &[(0, [0.0; 3])])),
        });
        Model {
            textures: vec![Texture::default(); 3],
            materials: vec![
                Material {
                    layers: vec![l0],
                    ..Material::default()
                },
                Material {
                    layers: vec![layer(1, 1)],
                    ..Material::default()
                },
                Material {
                    layers: vec![l1],
                    ..Material::default()
                },
            ],
            texture_animations: vec![ta.clone(), ta.clone(), ta],
            global_sequences: vec![100, 200, 300],
            geosets: vec![
                Geoset {
                    material_id: 0,
                    ..Geoset::default()
                },
                Geoset {
                    material_id: 2,
                    ..Geoset::default()
                },
            ],
            geoset_animations: vec![ga],
            bones: vec![bone],
            particle_emitters2: vec![ParticleEmitter2 {
                texture_id: 0,
                ..ParticleEmitter2::default()
            }],
            ribbon_emitters: vec![RibbonEmitter {
                material_id: 2,
                ..RibbonEmitter::default()
            }],
            event_objects: vec![EventObject {
                node: Node::default(),
                track: Some(EventTrack {
                    global_sequence_id: 0,
                    times: vec![5],
                }),
            }],
            ..Model::default()
        }
    }

    #[test]
    fn every_kind_of_reference_is_counted() {
        let u = Usage::of(&model());
        // Texture 0: layer 0, its KMTF key, the emitter; 1: material 1's layer; 2: layer
        // 0's second KMTF key, layer 1, its slot and the slot's key.
        assert_eq!(u.textures, [3, 1, 4]);
        assert_eq!(u.materials, [1, 0, 2]);
        assert_eq!(u.texture_animations, [0, 1, 1]);
        // 0: the slot track, the geoset animation, the event track; 2: KMTF, the bone.
        assert_eq!(u.global_sequences, [3, 0, 2]);
        assert!(u.invalid.is_empty());
        assert_eq!(u.unused(RefKind::Material).collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn out_of_range_references_are_listed_with_their_place() {
        let mut m = model();
        m.geosets[1].material_id = 7;
        m.materials[0].layers[0].texture_animation_id = -2;
        let u = Usage::of(&m);
        assert_eq!(
            u.invalid,
            [
                (
                    RefKind::TextureAnimation,
                    "materials[0].layers[0].texture_animation_id".into(),
                    -2
                ),
                (RefKind::Material, "geosets[1].material_id".into(), 7),
            ]
        );
        let at = u.invalid(RefKind::Material).collect::<Vec<_>>();
        assert_eq!(at, [("geosets[1].material_id", 7)]);
        // Removal of that kind is refused; other kinds are not concerned.
        let before = m.clone();
        let drop = [false, true, false];
        assert!(matches!(
            remove(&mut m, RefKind::Material, &drop),
            Err(RemoveRefused::InvalidReference(..))
        ));
        assert_eq!(m, before);
    }

    #[test]
    fn removing_renumbers_every_reference_and_refuses_a_referenced_record() {
        let mut m = model();
        assert_eq!(
            remove(&mut m, RefKind::Texture, &[true, false, false]),
            Err(RemoveRefused::Referenced(0))
        );
        // Material 1 first: then texture 1 and texture animation 1 are unused.
        let map = remove(&mut m, RefKind::Material, &[false, true, false]).unwrap();
        assert_eq!(map, [Some(0), None, Some(1)]);
        assert_eq!(m.geosets[1].material_id, 1);
        assert_eq!(m.ribbon_emitters[0].material_id, 1);
        remove(&mut m, RefKind::Texture, &[false, true, false]).unwrap();
        let l0 = &m.materials[0].layers[0];
        assert_eq!(l0.texture_id, 0);
        let kmtf = l0.tracks.integer(KMTF).unwrap();
        assert_eq!(
            kmtf.keys.iter().map(|k| k.value).collect::<Vec<_>>(),
            [0, 1]
        );
        let l1 = &m.materials[1].layers[0];
        assert_eq!(l1.texture_id, 1);
        assert_eq!(l1.texture_slots[0].texture_id, 1);
        let slot = l1.texture_slots[0].texture_id_track.as_ref().unwrap();
        assert_eq!(slot.keys[0].value, 1);
        assert_eq!(m.particle_emitters2[0].texture_id, 0);
        // Texture animation 0 was never used; 1 only by material 1.
        remove(&mut m, RefKind::TextureAnimation, &[true, true, false]).unwrap();
        assert_eq!(m.texture_animations.len(), 1);
        assert_eq!(m.materials[0].layers[0].texture_animation_id, 0);
        assert_eq!(m.materials[1].layers[0].texture_animation_id, -1);
        remove(&mut m, RefKind::GlobalSequence, &[false, true, false]).unwrap();
        assert_eq!(m.global_sequences, [100, 300]);
        assert_eq!(kmtf_gs(&m), 1);
        assert_eq!(
            m.bones[0]
                .node
                .tracks
                .vector3(KGTR)
                .unwrap()
                .global_sequence_id,
            1
        );
        assert_eq!(
            m.event_objects[0]
                .track
                .as_ref()
                .unwrap()
                .global_sequence_id,
            0
        );
        let u = Usage::of(&m);
        for kind in RefKind::ALL {
            assert_eq!(u.unused(kind).count(), 0, "{kind:?}");
        }
    }

    fn kmtf_gs(m: &Model) -> i32 {
        m.materials[0].layers[0]
            .tracks
            .integer(KMTF)
            .unwrap()
            .global_sequence_id
    }

    #[test]
    fn a_chunk_layout_from_a_file_keeps_step_with_removed_records() {
        let mut m = model();
        let known = |tag, records| LayoutEntry::Known {
            tag,
            records,
            tail: Vec::new(),
            overflow_tracks: 0,
        };
        m.layout = crate::model::Layout {
            from_file: true,
            chunks: vec![
                known(chunk::GLBS, 1),
                known(chunk::GLBS, 2),
                known(chunk::TEXS, 3),
            ],
            trailing: Vec::new(),
        };
        m.bones[0].node.tracks.0.clear();
        m.materials[0].layers[0].tracks.0.clear();
        // Global sequences 1 and 2 unused now; the second GLBS chunk goes.
        remove(&mut m, RefKind::GlobalSequence, &[false, true, true]).unwrap();
        assert_eq!(
            m.layout.chunks,
            [known(chunk::GLBS, 1), known(chunk::TEXS, 3)]
        );
    }

    #[test]
    fn every_track_holder_is_visited_once_in_order() {
        struct Names(Vec<String>);
        impl<'m> TrackVisitor<'m> for Names {
            fn tracks(&mut self, _: Owner, at: &dyn Fn() -> String, t: &'m Tracks) {
                for a in t.iter() {
                    self.0.push(format!("{}.tracks.{}", at(), a.tag));
                }
            }
            fn slot(&mut self, _: Owner, at: &dyn Fn() -> String, _: &'m Track<u32>) {
                self.0.push(at());
            }
            fn event(&mut self, at: &dyn Fn() -> String, _: &'m EventTrack) {
                self.0.push(at());
            }
        }
        let mut m = model();
        m.materials[0].layers[0].tracks.0.push(Animation {
            tag: KMTA,
            track: AnyTrack::Float(track(-1, &[(0, 1.0)])),
        });
        let mut names = Names(Vec::new());
        visit_tracks(&m, &mut names);
        assert_eq!(
            names.0,
            [
                "materials[0].layers[0].tracks.KMTF",
                "materials[0].layers[0].tracks.KMTA",
                "materials[2].layers[0].texture_slots[0].texture_id_track",
                "texture_animations[0].tracks.KTAT",
                "texture_animations[1].tracks.KTAT",
                "texture_animations[2].tracks.KTAT",
                "geoset_animations[0].tracks.KGAO",
                "bones[0].node.tracks.KGTR",
                "event_objects[0].track",
            ]
        );
    }
}
