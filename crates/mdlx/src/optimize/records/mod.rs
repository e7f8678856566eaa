//! The records pass (see the [module docs](super)): duplicate textures, texture animations
//! and materials merged, then the textures, materials, texture animations and global
//! sequences nothing refers to removed.
//!
//! Everything here goes through [`crate::model::usage`], the same bookkeeping as the
//! checker's `unused-*` rules and `check --fix`: it knows every field that holds an index
//! of these kinds (layer and texture slot texture ids and their `KMTF` keys, particle
//! emitter 2 textures, geoset and ribbon materials, layer texture animations, the global
//! sequence of every track), renumbers them all, and keeps the file's chunk layout in step.
//! A kind with a reference that names no record is left alone: renumbering could make it
//! name another record.
//!
//! Two records are duplicates only when they are equal in every field (`PartialEq`, the
//! kept bytes after the known fields included), so replaceable textures, Reforged shaders
//! and texture slots are told apart as the game tells them apart. Merging a duplicate
//! points its references at the first equal record; the copy, now unused, is then removed.
//! Nodes are never touched.

#[cfg(test)]
mod tests;

use super::{add, Changes, Ctx};
use crate::model::usage::{self, RefKind, Usage};
use crate::model::Model;
use crate::spec::track::KMTF;

/// The most rounds of merging and removing (one is enough for every model seen; the
/// loop makes the pass idempotent whatever the order of discoveries).
const MAX_ROUNDS: usize = 4;

/// Merges duplicate records and removes unused ones.
pub(crate) fn run(model: &mut Model, ctx: &Ctx) -> Changes {
    let _ = ctx;
    let mut changes = Changes::new();
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        // Textures and texture animations first: materials are compared after the
        // references in their layers were merged.
        for kind in [
            RefKind::Texture,
            RefKind::TextureAnimation,
            RefKind::Material,
        ] {
            let n = merge_duplicates(model, kind);
            changed |= n > 0;
            add(&mut changes, merged_label(kind), n);
            if kind == RefKind::Texture && n > 0 {
                let keys = thin_texture_ids(model);
                add(&mut changes, "texture id keys left repeating removed", keys);
            }
        }
        // Materials first: what only a removed material referred to is unused after it.
        for kind in RefKind::ALL {
            let n = remove_unused(model, kind);
            changed |= n > 0;
            add(&mut changes, removed_label(kind), n);
        }
        if !changed {
            break;
        }
    }
    changes
}

/// The report's name for duplicates of `kind` merged.
fn merged_label(kind: RefKind) -> &'static str {
    match kind {
        RefKind::Texture => "duplicate textures merged",
        RefKind::Material => "duplicate materials merged",
        RefKind::TextureAnimation => "duplicate texture animations merged",
        RefKind::GlobalSequence => "duplicate global sequences merged",
    }
}

/// The report's name for unused records of `kind` removed.
fn removed_label(kind: RefKind) -> &'static str {
    match kind {
        RefKind::Texture => "unused textures removed",
        RefKind::Material => "unused materials removed",
        RefKind::TextureAnimation => "unused texture animations removed",
        RefKind::GlobalSequence => "unused global sequences removed",
    }
}

/// For each record of `kind`, the first earlier record equal to it, if any.
fn duplicates(model: &Model, kind: RefKind) -> Vec<Option<usize>> {
    fn firsts<T: PartialEq>(v: &[T]) -> Vec<Option<usize>> {
        (0..v.len())
            .map(|i| (0..i).find(|&j| v[j] == v[i]))
            .collect()
    }
    match kind {
        RefKind::Texture => firsts(&model.textures),
        RefKind::Material => firsts(&model.materials),
        RefKind::TextureAnimation => firsts(&model.texture_animations),
        RefKind::GlobalSequence => vec![None; model.global_sequences.len()],
    }
}

/// Points the references to each duplicate of `kind` at the first equal record and removes
/// the duplicates; returns how many went. Changes nothing (and returns 0) when a reference
/// of the kind names no record or the layout refuses removals.
fn merge_duplicates(model: &mut Model, kind: RefKind) -> usize {
    let to = duplicates(model, kind);
    let n = to.iter().filter(|t| t.is_some()).count();
    if n == 0 || Usage::of(model).invalid(kind).next().is_some() {
        return 0;
    }
    let mut m = model.clone();
    usage::redirect(&mut m, kind, &to);
    let drop: Vec<bool> = to.iter().map(Option::is_some).collect();
    match usage::remove(&mut m, kind, &drop) {
        Ok(_) => {
            *model = m;
            n
        }
        Err(_) => 0,
    }
}

/// Removes the records of `kind` nothing refers to; returns how many went (0 when a
/// reference of the kind names no record or the layout refuses removals).
fn remove_unused(model: &mut Model, kind: RefKind) -> usize {
    let usage = Usage::of(model);
    if usage.invalid(kind).next().is_some() {
        return 0;
    }
    let mut drop = vec![false; kind.len(model)];
    for i in usage.unused(kind) {
        drop[i] = true;
    }
    if kind == RefKind::Texture && !drop.is_empty() && drop.iter().all(|&d| d) {
        // A model without textures is a `no-textures` finding: one stays.
        drop[0] = false;
    }
    let n = drop.iter().filter(|&&d| d).count();
    if n == 0 {
        return 0;
    }
    match usage::remove(model, kind, &drop) {
        Ok(_) => n,
        Err(_) => 0,
    }
}

/// Removes the keys of texture id tracks (`KMTF`, the layers' and the texture slots') that
/// merging textures left repeating the key before them, the way `check --fix` removes
/// redundant keys (only keys a step track does not need: the first and last key of each
/// sequence stay); returns how many went. Without this, a flip book between two copies of
/// a texture would become the checker's `redundant-key` finding. Only the texture id
/// tracks change: the fixer runs on a model that holds the materials and the sequences
/// alone, and only those tracks are copied back.
fn thin_texture_ids(model: &mut Model) -> usize {
    let mut scratch = Model {
        sequences: model.sequences.clone(),
        global_sequences: model.global_sequences.clone(),
        materials: model.materials.clone(),
        ..Model::default()
    };
    crate::check::fix::thin(&mut scratch);
    let mut removed = 0;
    for (mat, thinned) in model.materials.iter_mut().zip(&scratch.materials) {
        for (l, tl) in mat.layers.iter_mut().zip(&thinned.layers) {
            for (a, ta) in l.tracks.0.iter_mut().zip(&tl.tracks.0) {
                if a.tag == KMTF && ta.tag == KMTF {
                    removed += a.track.len() - ta.track.len();
                    a.track = ta.track.clone();
                }
            }
            for (slot, ts) in l.texture_slots.iter_mut().zip(&tl.texture_slots) {
                if let (Some(t), Some(tt)) = (&mut slot.texture_id_track, &ts.texture_id_track) {
                    removed += t.keys.len() - tt.keys.len();
                    *t = tt.clone();
                }
            }
        }
    }
    removed
}
