//! Geosets: counts, limits, faces, extents, and numbers that are not finite.

use super::rules::*;
use super::{At, Findings};
use crate::model::{shader_type, Extent, Geoset, Model};
use std::collections::HashSet;

/// The vertex count from which an SD geoset renders torn (mdx-m3-viewer's measurement:
/// 7,433 vertices bugged, 7,394 good).
pub(crate) const MAX_SD_VERTICES: usize = 7433;

/// Tuner's triangle cap per geoset.
const MAX_TRIANGLES: usize = 20_000;

/// Whether a material draws with the HD shader (which has no vertex limit found).
pub(crate) fn is_hd(m: &Model, material: u32) -> bool {
    m.materials.get(material as usize).is_some_and(|mat| {
        mat.shader.text() == "Shader_HD_DefaultUnit"
            || mat.layers.iter().any(|l| {
                l.shader_type_id == shader_type::HD_DEFAULT_UNIT && !l.texture_slots.is_empty()
            })
    })
}

fn finite(v: &[f32]) -> bool {
    v.iter().all(|x| x.is_finite())
}

pub(crate) fn extent(f: &mut Findings, at: &At, e: &Extent) {
    if !finite(&e.min) || !finite(&e.max) || !e.radius.is_finite() {
        f.add(
            &NOT_FINITE,
            at,
            "the extent holds NaN or infinity: recompute it",
        );
    } else if (0..3).any(|k| e.max[k] < e.min[k]) {
        let msg = format!(
            "minimum {:?} is above maximum {:?}: recompute the extent",
            e.min, e.max
        );
        f.add(&NEGATIVE_EXTENT, at, msg);
    }
}

pub(crate) fn geosets(m: &Model, f: &mut Findings) {
    extent(f, &At::model().sub("info.extent"), &m.info.extent);
    for (i, s) in m.sequences.iter().enumerate() {
        extent(
            f,
            &At::record("sequences", i, Some(&s.name.text())).sub("extent"),
            &s.extent,
        );
    }
    for (i, p) in m.pivot_points.iter().enumerate() {
        if !finite(p) {
            f.add(
                &NOT_FINITE,
                &At::record("pivot_points", i, None),
                "the pivot holds NaN or infinity",
            );
        }
    }
    for (i, g) in m.geosets.iter().enumerate() {
        geoset(m, f, i, g);
    }
    for (at, msg) in stale_extents(m) {
        f.add(&STALE_EXTENT, &at, msg);
    }
    let nodes = m.node_count();
    if m.pivot_points.len() != nodes {
        let msg = format!(
            "{} pivot points for {nodes} nodes: each node's pivot is the one at its object id; give every node one",
            m.pivot_points.len()
        );
        f.add(&PIVOT_COUNT, &At::model().sub("pivot_points"), msg);
    }
    if m.version > 800 && !m.bind_poses.is_empty() && nodes > 0 && m.bind_poses.len() != nodes + 1 {
        let msg = format!(
            "{} bind poses for {nodes} nodes; Reforged models hold one per node and one more",
            m.bind_poses.len()
        );
        f.add(&BIND_POSE_COUNT, &At::model().sub("bind_poses"), msg);
    }
}

fn geoset(m: &Model, f: &mut Findings, i: usize, g: &Geoset) {
    let at = At::record("geosets", i, None);
    let n = g.vertices.len();
    if n == 0 {
        f.add(
            &NO_VERTICES,
            &at.sub("vertices"),
            "the geoset has no vertices: remove it",
        );
    }
    if g.faces.is_empty() {
        f.add(
            &NO_FACES,
            &at.sub("faces"),
            "the geoset has no faces (Magos crashes on it): remove it",
        );
    }
    // Per-vertex lists the game reads by the vertex count.
    let mut counts = vec![
        ("normals", g.normals.len()),
        ("vertex_groups", g.vertex_groups.len()),
    ];
    for (k, uv) in g.uv_sets.iter().enumerate() {
        counts.push((if k == 0 { "uv_sets[0]" } else { "uv_sets[n]" }, uv.len()));
    }
    if let Some(t) = &g.tangents {
        counts.push(("tangents", t.len()));
    }
    if let Some(s) = &g.skin {
        counts.push(("skin", s.len() / 8));
    }
    let has_skin = g.skin.as_ref().is_some_and(|s| !s.is_empty());
    for (what, len) in counts {
        // Geosets skinned by weights may leave the vertex groups empty.
        if len != n && !(what == "vertex_groups" && has_skin && len == 0) {
            let msg = format!("{len} entries for {n} vertices: one per vertex is needed");
            f.add(&COUNT_MISMATCH, &at.sub(what), msg);
        }
    }
    let bad = g
        .vertices
        .iter()
        .position(|v| !finite(v))
        .map(|v| format!("vertices[{v}]"))
        .or_else(|| {
            g.normals
                .iter()
                .position(|v| !finite(v))
                .map(|v| format!("normals[{v}]"))
        })
        .or_else(|| {
            g.uv_sets.iter().enumerate().find_map(|(k, uv)| {
                uv.iter()
                    .position(|v| !finite(v))
                    .map(|v| format!("uv_sets[{k}][{v}]"))
            })
        })
        .or_else(|| {
            g.tangents
                .as_ref()
                .and_then(|t| t.iter().position(|v| !finite(v)))
                .map(|v| format!("tangents[{v}]"))
        });
    if let Some(path) = bad {
        f.add(
            &NOT_FINITE,
            &at.sub(path),
            "NaN or infinity: the game drops or stretches the mesh; fix the vertex",
        );
    }
    if n >= MAX_SD_VERTICES && !is_hd(m, g.material_id) {
        let msg = format!(
            "{n} vertices; an SD geoset from about 7,400 renders torn in the game: split it"
        );
        f.add(&TOO_MANY_VERTICES, &at.sub("vertices"), msg);
    }
    extent(f, &at.sub("extent"), &g.extent);
    for (k, e) in g.sequence_extents.iter().enumerate() {
        extent(f, &at.sub(format!("sequence_extents[{k}]")), e);
    }
    if m.version == 800 && g.sequence_extents.len() != m.sequences.len() {
        let msg = format!(
            "{} sequence extents for {} sequences (Magos fails to read it): one per sequence",
            g.sequence_extents.len(),
            m.sequences.len()
        );
        f.add(&SEQUENCE_EXTENTS, &at.sub("sequence_extents"), msg);
    }
    faces(f, &at, g);
}

fn faces(f: &mut Findings, at: &At, g: &Geoset) {
    let n = g.vertices.len();
    if let Some(k) = g.faces.iter().position(|&v| v as usize >= n) {
        let msg = format!(
            "names vertex {} of {n}: the game reads past the vertex list",
            g.faces[k]
        );
        f.add(&BAD_FACE_INDEX, &at.sub(format!("faces[{k}]")), msg);
        return;
    }
    let (tris, _) = g.triangles();
    if tris.len() >= MAX_TRIANGLES {
        let msg = format!("{} triangles in one geoset: split it", tris.len());
        f.add(&TOO_MANY_TRIANGLES, &at.sub("faces"), msg);
    }
    let (mut zero, mut first_zero) = (0usize, None);
    let (mut dup, mut first_dup) = (0usize, None);
    let mut seen = HashSet::with_capacity(tris.len());
    for (t, tri) in tris.iter().enumerate() {
        let [a, b, c] = tri.map(|v| g.vertices[v as usize]);
        if crate::anim::math::no_area(a, b, c) {
            zero += 1;
            first_zero.get_or_insert(t);
        }
        // The same corners in the same winding, from any starting corner.
        let r = tri
            .iter()
            .enumerate()
            .min_by_key(|(_, v)| **v)
            .map_or(0, |(k, _)| k);
        let key = [tri[r], tri[(r + 1) % 3], tri[(r + 2) % 3]];
        if !seen.insert(key) {
            dup += 1;
            first_dup.get_or_insert(t);
        }
    }
    if let Some(t) = first_zero {
        let msg = format!("{zero} triangles (the first is triangle {t}) have no area and draw nothing: remove them");
        f.add(&ZERO_AREA, &at.sub("faces"), msg);
    }
    if let Some(t) = first_dup {
        let msg = format!("{dup} triangles (the first is triangle {t}) repeat an earlier one and flicker against it: remove them");
        f.add(&DUPLICATE_TRIANGLE, &at.sub("faces"), msg);
    }
}

/// The box of some points (the finite ones), or `None` without one.
fn bounds<'a>(points: impl Iterator<Item = &'a [f32; 3]>) -> Option<([f32; 3], [f32; 3])> {
    let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
    for p in points.filter(|p| finite(&p[..])) {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    (lo[0] <= hi[0]).then_some((lo, hi))
}

/// The extents that do not hold the rest-pose vertices they bound, within a thousandth of
/// their size: each geoset's, and the model's (every geoset's). An extent that is not
/// finite or runs backwards is another rule's.
pub(crate) fn stale_extents(m: &Model) -> Vec<(At, String)> {
    let holds = |e: &Extent, (lo, hi): ([f32; 3], [f32; 3])| {
        let size: f32 = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f32>().sqrt();
        let tol = 1e-3 * size.max(1.0);
        let odd = !finite(&e.min) || !finite(&e.max) || (0..3).any(|k| e.max[k] < e.min[k]);
        odd || (0..3).all(|k| e.min[k] <= lo[k] + tol && e.max[k] >= hi[k] - tol)
    };
    let say = |e: &Extent, (lo, hi): ([f32; 3], [f32; 3]), what: &str| {
        format!(
            "{:?} to {:?} does not hold {what}, {lo:?} to {hi:?}: recompute the extents (--fix)",
            e.min, e.max
        )
    };
    let mut out = Vec::new();
    for (i, g) in m.geosets.iter().enumerate() {
        if let Some(b) = bounds(g.vertices.iter()) {
            if !holds(&g.extent, b) {
                let at = At::record("geosets", i, None).sub("extent");
                out.push((at, say(&g.extent, b, "its vertices")));
            }
        }
    }
    if let Some(b) = bounds(m.geosets.iter().flat_map(|g| &g.vertices)) {
        if !holds(&m.info.extent, b) {
            let msg = say(&m.info.extent, b, "every geoset's vertices");
            out.push((At::model().sub("info.extent"), msg));
        }
    }
    out
}
