//! Normals with hard edges: vertices split where faces meet at a sharper angle (flat
//! shading at 0 degrees).
//!
//! At each position, the triangle corners there (of every vertex at that position: a seam
//! is one surface) join when their faces' normals lie within the angle of each other, and
//! chains of such faces join too, as a modeller's smoothing groups do. Each group of
//! corners gets one normal: the sum of its faces' normals, weighted by area and corner
//! angle as [`super::recompute_normals`] weighs them. A vertex whose corners fall in
//! several groups is split into one vertex per group, each a copy of it (texture
//! coordinates, bone bindings, skin weights, tangents) with its group's normal. The faces
//! are rewritten as one triangle list; what they draw is unchanged; vertices no face uses
//! stay as they were. A geoset that would pass 65,535 vertices (an SD one 7,432, from where
//! the game draws it torn), or has point or line groups, is left as it is and said.

use super::normals::{corner, cos_limit, orthogonal};
use super::Report;
use crate::anim::math::{cross, dot, normalize, sub, Vec3};
use crate::model::{Geoset, Model};
use std::collections::HashMap;

/// The root of `i` in a union-find forest.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Adds vertex `old` of `g` to `out`: with `normal`, that normal and its tangent turned
/// to stay at right angles to it; without, as it was.
fn copy_vertex(out: &mut Geoset, g: &Geoset, old: usize, normal: Option<Vec3>) {
    let stored = g.normals.get(old).copied().unwrap_or([0.0, 0.0, 1.0]);
    out.vertices.push(g.vertices[old]);
    out.normals.push(normal.unwrap_or(stored));
    if let Some(&vg) = g.vertex_groups.get(old) {
        out.vertex_groups.push(vg);
    }
    for (o, s) in out.uv_sets.iter_mut().zip(&g.uv_sets) {
        o.push(s.get(old).copied().unwrap_or_default());
    }
    if let (Some(o), Some(t)) = (&mut out.tangents, &g.tangents) {
        let t = t.get(old).copied().unwrap_or([1.0, 0.0, 0.0, 1.0]);
        o.push(normal.map_or(t, |n| orthogonal(t, n)));
    }
    if let (Some(o), Some(s)) = (&mut out.skin, &g.skin) {
        o.extend_from_slice(s.get(old * 8..old * 8 + 8).unwrap_or(&[0; 8]));
    }
}

/// One geoset split, or why not.
fn split(g: &Geoset, cos_limit: f32, limit: usize) -> Result<Option<Geoset>, String> {
    let n = g.vertices.len();
    let (triangles, skipped) = g.triangles();
    if skipped > 0 {
        return Err(format!("{skipped} point or line group(s)"));
    }
    if triangles.iter().flatten().any(|&v| usize::from(v) >= n) {
        return Err("a face names a vertex it does not have".into());
    }
    // Each corner's face normal and weight.
    let face: Vec<Vec3> = (triangles.iter())
        .map(|t| {
            let [a, b, c] = t.map(|v| g.vertices[usize::from(v)]);
            cross(sub(b, a), sub(c, a))
        })
        .collect();
    let unit: Vec<Vec3> = face.iter().map(|f| normalize(*f)).collect();
    let corners = triangles.len() * 3;
    let mut parent: Vec<usize> = (0..corners).collect();
    let mut at: HashMap<[u32; 3], Vec<usize>> = HashMap::new();
    for (c, &v) in triangles.iter().flatten().enumerate() {
        at.entry(g.vertices[usize::from(v)].map(f32::to_bits))
            .or_default()
            .push(c);
    }
    for cs in at.values() {
        for (k, &x) in cs.iter().enumerate() {
            for &y in &cs[k + 1..] {
                if dot(unit[x / 3], unit[y / 3]) >= cos_limit {
                    let (rx, ry) = (root(&mut parent, x), root(&mut parent, y));
                    parent[rx] = ry;
                }
            }
        }
    }
    // Each group's normal.
    let mut sums: HashMap<usize, Vec3> = HashMap::new();
    let mut plain: HashMap<usize, Vec3> = HashMap::new();
    for c in 0..corners {
        let t = triangles[c / 3].map(|i| g.vertices[usize::from(i)]);
        let k = c % 3;
        let w = corner(t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
        let f = face[c / 3];
        let r = root(&mut parent, c);
        let s = sums.entry(r).or_insert([0.0; 3]);
        if w.is_finite() && f.iter().all(|x| x.is_finite()) {
            (0..3).for_each(|i| s[i] += f[i] * w);
        }
        // Faces too thin for their corners to weigh (slivers): their direction alone.
        let u = plain.entry(r).or_insert([0.0; 3]);
        if unit[c / 3].iter().all(|x| x.is_finite()) {
            (0..3).for_each(|i| u[i] += unit[c / 3][i]);
        }
    }
    // One vertex per (old vertex, group).
    let mut new_index: HashMap<(u16, usize), u16> = HashMap::new();
    let mut out = Geoset {
        vertices: Vec::new(),
        normals: Vec::new(),
        vertex_groups: Vec::new(),
        uv_sets: vec![Vec::new(); g.uv_sets.len()],
        tangents: g.tangents.as_ref().map(|_| Vec::new()),
        skin: g.skin.as_ref().map(|_| Vec::new()),
        ..g.clone()
    };
    let mut faces = Vec::with_capacity(corners);
    for (c, &v) in triangles.iter().flatten().enumerate() {
        let r = root(&mut parent, c);
        let next = out.vertices.len();
        let i = match new_index.get(&(v, r)) {
            Some(&i) => i,
            None => {
                let i = u16::try_from(next).map_err(|_| "over 65,535 vertices".to_string())?;
                let old = usize::from(v);
                let unit_of = |v: Vec3| {
                    let len = dot(v, v).sqrt();
                    (len > 1e-12 && len.is_finite()).then(|| v.map(|x| x / len))
                };
                let normal = (unit_of(sums[&r]))
                    .or_else(|| unit_of(plain[&r]))
                    .unwrap_or_else(|| g.normals.get(old).copied().unwrap_or([0.0, 0.0, 1.0]));
                copy_vertex(&mut out, g, old, Some(normal));
                new_index.insert((v, r), i);
                i
            }
        };
        faces.push(i);
    }
    // Vertices no face uses stay, as they were.
    let mut used = vec![false; n];
    triangles
        .iter()
        .flatten()
        .for_each(|&v| used[usize::from(v)] = true);
    for old in (0..n).filter(|&v| !used[v]) {
        copy_vertex(&mut out, g, old, None);
    }
    if out.vertices.len() >= limit {
        return Err(format!(
            "{} vertices would pass the {limit} this geoset may hold",
            out.vertices.len()
        ));
    }
    out.faces = faces;
    out.face_types = vec![crate::model::face_type::TRIANGLES];
    out.face_group_sizes = vec![out.faces.len() as u32];
    let same = out.vertices.len() == n
        && out.normals == g.normals
        && out.faces == g.faces
        && g.face_types
            .iter()
            .all(|&t| t == crate::model::face_type::TRIANGLES);
    Ok((!same).then_some(out))
}

/// Splits every geoset's vertices where faces meet at more than `angle` degrees (see the
/// module docs).
pub fn split_normals(model: &mut Model, angle: f32) -> Report {
    let mut report = Report::default();
    let Some(cos_limit) = cos_limit(angle, "hard edges", &mut report) else {
        return report;
    };
    let (mut changed, mut added) = (0, 0usize);
    let hd: Vec<bool> = (model.geosets.iter())
        .map(|g| crate::check::geometry::is_hd(model, g.material_id))
        .collect();
    for (i, g) in model.geosets.iter_mut().enumerate() {
        // An SD geoset renders torn in the game from 7,433 vertices (see `check`): a split
        // does not take it there.
        let sd = crate::check::geometry::MAX_SD_VERTICES;
        let limit = if hd[i] || g.vertices.len() >= sd {
            65_536
        } else {
            sd
        };
        match split(g, cos_limit, limit) {
            Ok(Some(new)) => {
                added += new.vertices.len().saturating_sub(g.vertices.len());
                *g = new;
                changed += 1;
            }
            Ok(None) => {}
            Err(why) => report
                .changed
                .push(format!("geoset {i}: left as it is ({why})")),
        }
    }
    if changed > 0 {
        report.changed.push(format!(
            "normals of {changed} geoset(s) made hard where faces meet at over {angle} degrees ({added} vertices added by splitting)"
        ));
    }
    report
}

#[cfg(test)]
mod tests {
    use super::split_normals;

    /// The example cube with each corner one vertex (8, not 24): smooth everywhere.
    fn welded() -> crate::model::Model {
        let mut m =
            crate::mdx::from_bytes(include_bytes!("../../../../examples/cube.mdx")).unwrap();
        let g = &mut m.geosets[0];
        let mut first: Vec<usize> = Vec::new();
        let mut map = Vec::new();
        for p in &g.vertices {
            let at = first.iter().position(|&f| g.vertices[f] == *p);
            map.push(at.unwrap_or_else(|| {
                first.push(map.len());
                first.len() - 1
            }) as u16);
        }
        g.faces.iter_mut().for_each(|f| *f = map[usize::from(*f)]);
        fn keep<T: Copy>(v: &mut Vec<T>, first: &[usize]) {
            *v = first.iter().map(|&f| v[f]).collect();
        }
        keep(&mut g.vertices, &first);
        keep(&mut g.normals, &first);
        keep(&mut g.vertex_groups, &first);
        g.uv_sets.iter_mut().for_each(|u| keep(u, &first));
        m
    }

    #[test]
    fn a_welded_cube_splits_into_its_faces_below_90_degrees() {
        let m = welded();
        assert_eq!(m.geosets[0].vertices.len(), 8);
        let mut flat = m.clone();
        let r = split_normals(&mut flat, 0.0);
        assert!(r.changed[0].contains("16 vertices added"), "{r:?}");
        let g = &flat.geosets[0];
        assert_eq!(g.vertices.len(), 24);
        // Each normal is a face's: one axis, unit.
        for n in &g.normals {
            let big: Vec<f32> = n.iter().map(|x| x.abs()).filter(|&x| x > 1e-6).collect();
            assert!(big.len() == 1 && (big[0] - 1.0).abs() < 1e-6, "{n:?}");
        }
        // Above 90 degrees every corner is one surface again: nothing to split.
        let mut round = m.clone();
        split_normals(&mut round, 91.0);
        assert_eq!(round.geosets[0].vertices.len(), 8);
        assert!(!split_normals(&mut round, -1.0).refused.is_empty());
    }
}
