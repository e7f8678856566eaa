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

mod ids;
#[cfg(test)]
mod tests;

use crate::model::{LayoutEntry, Model, Tag};
use crate::spec::chunk;

pub(crate) use crate::model::visit::{
    visit_tracks, visit_tracks_mut, Owner, TrackVisitor, TrackVisitorMut,
};

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
        ids::count(model, &mut u);
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
    ids::renumber(model, kind, &map);
    shrink_layout(model, tag, drop);
    Ok(map)
}

/// Points every reference of `kind` that names record `i` at record `to[i]` instead (where
/// `to[i]` is `Some`), removing nothing: how duplicates are merged before the copies, then
/// unused, are removed with [`remove`]. References out of range are left as they are.
pub(crate) fn redirect(model: &mut Model, kind: RefKind, to: &[Option<usize>]) {
    ids::renumber(model, kind, to);
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
