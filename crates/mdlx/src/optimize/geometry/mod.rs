//! The geometry pass (see the [module docs](super)): exact in what is drawn.
//!
//! Per geoset ([`clean`]): matrix groups no vertex uses dropped and identical ones shared;
//! vertices equal in every attribute (position, normal, every UV set, matrix group, skin,
//! tangent, floats compared by their bits) welded; triangles with a repeated vertex and
//! repeats of a triangle (the same three vertices in the same winding, from any of them:
//! the reversed winding is another triangle, how models draw both sides) removed; then
//! the vertices no triangle uses. Only geosets whose face groups are all triangle lists
//! and whose per-vertex lists agree in length are touched; the others keep their bytes.
//!
//! Across geosets ([`merge`]): geosets drawn the same way (see [`merge`]) become one.
//!
//! The [`VertexMap`] follows every vertex: a welded vertex stands for the first of its
//! equals, a merged geoset's vertices for what they stood for before.

mod clean;
mod merge;
#[cfg(test)]
mod tests;

use super::{add, Changes, Ctx, VertexMap};
use crate::model::Model;

/// The most rounds of cleaning and merging: a merge can let a later one fit under the
/// limits once the merged geoset is cleaned; the loop reaches the point where a second run
/// changes nothing.
const MAX_ROUNDS: usize = 8;

/// Welds, removes and merges; keeps `map` (each vertex's original) up to date.
pub(crate) fn run(model: &mut Model, ctx: &Ctx, map: &mut VertexMap) -> Changes {
    let _ = ctx;
    let mut changes = Changes::new();
    if map.0.len() != model.geosets.len() {
        return changes;
    }
    for _ in 0..MAX_ROUNDS {
        for (g, geoset) in model.geosets.iter_mut().enumerate() {
            if map.0[g].len() != geoset.vertices.len() {
                continue;
            }
            for (what, n) in clean::geoset(geoset, &mut map.0[g]) {
                add(&mut changes, what, n);
            }
        }
        let merged = merge::geosets(model, map);
        add(&mut changes, "geosets merged", merged);
        if merged == 0 {
            break;
        }
    }
    changes
}
