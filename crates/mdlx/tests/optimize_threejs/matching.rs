//! Which vertex of the optimized model stands for which vertex of the original, found
//! from the models themselves (not from the optimizer): a posed position depends only on
//! the rest position and on the nodes (and weights) that move the vertex.

use mdlx::model::Model;
use std::collections::{BTreeSet, HashMap};

/// What moves a vertex: the sorted object ids of its matrix group, or for a skinned
/// (Reforged) vertex each weighted group's ids with the weight. Two vertices with the same
/// rest position and the same of this pose the same.
pub(crate) type Sig = Vec<(Vec<u32>, u16)>;

pub(crate) fn signature(m: &Model, gi: usize, v: usize) -> Sig {
    let g = &m.geosets[gi];
    let groups = g.matrix_groups();
    let ids = |k: usize| -> Vec<u32> {
        let mut ids = groups.get(k).map(|s| s.to_vec()).unwrap_or_default();
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    match &g.skin {
        Some(skin) => {
            let s = skin.get(8 * v..8 * v + 8).unwrap_or(&[0; 8]);
            let mut sig: Sig = (0..4)
                .filter(|&k| s[4 + k] > 0)
                .map(|k| (ids(usize::from(s[k])), s[4 + k]))
                .collect();
            sig.sort();
            sig
        }
        None => vec![(
            ids(g
                .vertex_groups
                .get(v)
                .map_or(usize::MAX, |&k| usize::from(k))),
            255,
        )],
    }
}

/// The vertices of geoset `gi` that a triangle draws: one of three distinct corners whose
/// rest positions span some area.
pub(crate) fn drawn(m: &Model, gi: usize) -> BTreeSet<usize> {
    let g = &m.geosets[gi];
    let mut out = BTreeSet::new();
    for t in g.triangles().0 {
        let [a, b, c] = t.map(usize::from);
        if a == b || b == c || a == c || [a, b, c].iter().any(|&i| i >= g.vertices.len()) {
            continue;
        }
        let p = |i: usize| g.vertices[i].map(f64::from);
        let (u, w) = (sub(p(b), p(a)), sub(p(c), p(a)));
        let cross = [
            u[1] * w[2] - u[2] * w[1],
            u[2] * w[0] - u[0] * w[2],
            u[0] * w[1] - u[1] * w[0],
        ];
        if cross.iter().any(|&x| x != 0.0) {
            out.extend([a, b, c]);
        }
    }
    out
}

pub(crate) fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(crate) fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    let d = sub(a, b);
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

/// A vertex: (geoset, index).
pub(crate) type Vx = (usize, usize);

/// For each vertex of `from` in `want`, the vertices of `to` (among those in `pool`) with
/// the same [`signature`] at the nearest rest position within `radius` (several when they
/// tie: the same place, moved by the same nodes, in different geosets); the vertices
/// without any are returned apart.
#[allow(clippy::type_complexity)]
pub(crate) fn match_vertices(
    from: &Model,
    want: &[Vx],
    to: &Model,
    pool: &[Vx],
    radius: f64,
) -> (Vec<(Vx, Vec<Vx>)>, Vec<Vx>) {
    let cell = |p: [f32; 3]| p.map(|c| (f64::from(c) / radius).floor() as i64);
    let mut grid: HashMap<(Sig, [i64; 3]), Vec<Vx>> = HashMap::new();
    for &(g, v) in pool {
        let key = (signature(to, g, v), cell(to.geosets[g].vertices[v]));
        grid.entry(key).or_default().push((g, v));
    }
    let (mut found, mut unmatched) = (Vec::new(), Vec::new());
    for &(g, v) in want {
        let p = from.geosets[g].vertices[v].map(f64::from);
        let sig = signature(from, g, v);
        let c = cell(from.geosets[g].vertices[v]);
        let mut near: Vec<(f64, Vx)> = Vec::new();
        for d in 0..27 {
            let k = [c[0] + d % 3 - 1, c[1] + d / 3 % 3 - 1, c[2] + d / 9 - 1];
            for &(h, w) in grid.get(&(sig.clone(), k)).into_iter().flatten() {
                let e = dist(p, to.geosets[h].vertices[w].map(f64::from));
                if e <= radius {
                    near.push((e, (h, w)));
                }
            }
        }
        let best = near.iter().map(|n| n.0).fold(f64::INFINITY, f64::min);
        let ties: Vec<Vx> = near
            .into_iter()
            .filter(|n| n.0 == best)
            .map(|n| n.1)
            .collect();
        if ties.is_empty() {
            unmatched.push((g, v));
        } else {
            found.push(((g, v), ties));
        }
    }
    (found, unmatched)
}
