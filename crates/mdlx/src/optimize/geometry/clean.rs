//! One geoset made smaller without changing what is drawn: matrix groups, welded vertices,
//! removed triangles and vertices.

use crate::model::{face_type, Geoset};
use std::collections::{HashMap, HashSet};

/// What [`geoset`] changed, counted.
pub(super) type Counts = Vec<(&'static str, usize)>;

/// The most rounds per geoset: sharing matrix groups can make vertices equal, welding can
/// leave a matrix group unused.
const MAX_ROUNDS: usize = 4;

/// Whether the pass may rewrite `g`: it has vertices and faces, every face group is a
/// triangle list whose indices name vertices, and every per-vertex list is as long as the
/// vertex list (normals and matrix groups may be absent, skin is 8 values a vertex).
pub(super) fn editable(g: &Geoset) -> bool {
    let n = g.vertices.len();
    let groups_ok = !g.face_types.is_empty()
        && g.face_types.len() == g.face_group_sizes.len()
        && g.face_types.iter().all(|&t| t == face_type::TRIANGLES)
        && g.face_group_sizes.iter().all(|&s| s % 3 == 0)
        && g.face_group_sizes
            .iter()
            .map(|&s| s as usize)
            .sum::<usize>()
            == g.faces.len();
    n > 0
        && n <= usize::from(u16::MAX) + 1
        && !g.faces.is_empty()
        && groups_ok
        && g.faces.iter().all(|&v| (v as usize) < n)
        && (g.normals.is_empty() || g.normals.len() == n)
        && (g.vertex_groups.is_empty() || g.vertex_groups.len() == n)
        && g.uv_sets.iter().all(|uv| uv.len() == n)
        && g.tangents.as_ref().is_none_or(|t| t.len() == n)
        && g.skin.as_ref().is_none_or(|s| s.len() == n * 8)
}

/// Cleans `g` (see the [module docs](super)) until nothing changes; `map` is its part of
/// the vertex map, kept in step. A geoset the pass may not rewrite ([`editable`]) is left
/// as it is.
pub(super) fn geoset(g: &mut Geoset, map: &mut Vec<(u32, u32)>) -> Counts {
    let mut counts = Counts::new();
    if !editable(g) || map.len() != g.vertices.len() {
        return counts;
    }
    for _ in 0..MAX_ROUNDS {
        let mut round = matrix_groups(g);
        round.extend(vertices(g, map));
        if round.is_empty() {
            break;
        }
        for (what, n) in round {
            match counts.iter_mut().find(|(w, _)| *w == what) {
                Some((_, m)) => *m += n,
                None => counts.push((what, n)),
            }
        }
    }
    counts
}

/// Every attribute of vertex `v`, as bits: equal keys are vertices nothing tells apart.
fn vertex_key(g: &Geoset, v: usize) -> Vec<u32> {
    let mut k = Vec::with_capacity(16);
    k.extend(g.vertices[v].map(f32::to_bits));
    if let Some(n) = g.normals.get(v) {
        k.extend(n.map(f32::to_bits));
    }
    for uv in &g.uv_sets {
        k.extend(uv[v].map(f32::to_bits));
    }
    if let Some(&grp) = g.vertex_groups.get(v) {
        k.push(u32::from(grp));
    }
    if let Some(t) = &g.tangents {
        k.extend(t[v].map(f32::to_bits));
    }
    if let Some(s) = &g.skin {
        k.extend(s[v * 8..v * 8 + 8].iter().map(|&x| u32::from(x)));
    }
    k
}

/// A triangle turned to start at its smallest index, keeping its winding: the two
/// rotations of one triangle give the same key, its reverse another.
fn triangle_key(t: [u16; 3]) -> [u16; 3] {
    let [a, b, c] = t;
    if a <= b && a <= c {
        [a, b, c]
    } else if b <= a && b <= c {
        [b, c, a]
    } else {
        [c, a, b]
    }
}

/// Welds equal vertices, removes degenerate and repeated triangles and the vertices no
/// triangle uses. Leaves `g` as it is when that would leave no triangle.
fn vertices(g: &mut Geoset, map: &mut Vec<(u32, u32)>) -> Counts {
    let n = g.vertices.len();
    let mut first: HashMap<Vec<u32>, u16> = HashMap::with_capacity(n);
    let canon: Vec<u16> = (0..n)
        .map(|v| *first.entry(vertex_key(g, v)).or_insert(v as u16))
        .collect();
    let welded = canon
        .iter()
        .enumerate()
        .filter(|&(v, &c)| usize::from(c) != v)
        .count();
    let (mut degenerate, mut repeated) = (0usize, 0usize);
    let mut seen = HashSet::with_capacity(g.faces.len() / 3);
    let mut tris: Vec<[u16; 3]> = Vec::with_capacity(g.faces.len() / 3);
    for t in g.faces.chunks_exact(3) {
        let t = [t[0], t[1], t[2]].map(|v| canon[usize::from(v)]);
        if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
            degenerate += 1;
        } else if !seen.insert(triangle_key(t)) {
            repeated += 1;
        } else {
            tris.push(t);
        }
    }
    let mut used = vec![false; n];
    for &v in tris.iter().flatten() {
        used[usize::from(v)] = true;
    }
    keep_bound_nodes(g, &canon, &mut used);
    let kept: Vec<usize> = (0..n).filter(|&v| used[v]).collect();
    let unused = n - welded - kept.len();
    if tris.is_empty() || (welded == 0 && degenerate == 0 && repeated == 0 && unused == 0) {
        return Counts::new();
    }
    let mut new_index = vec![0u16; n];
    for (i, &v) in kept.iter().enumerate() {
        new_index[v] = i as u16;
    }
    g.faces = tris
        .iter()
        .flat_map(|t| t.map(|v| new_index[usize::from(v)]))
        .collect();
    g.face_types = vec![face_type::TRIANGLES];
    g.face_group_sizes = vec![g.faces.len() as u32];
    keep_vertices(g, &kept);
    *map = kept.iter().map(|&v| map[v]).collect();
    let counts = [
        ("vertices welded", welded),
        ("unused vertices removed", unused),
        ("degenerate triangles removed", degenerate),
        ("duplicate triangles removed", repeated),
    ];
    counts.into_iter().filter(|&(_, n)| n > 0).collect()
}

/// The nodes (object ids) vertex `v` of `g` moves with: its matrix group's, or those its
/// skin weighs above zero (as the checker counts a bone's vertices).
fn vertex_nodes(g: &Geoset, groups: &[&[u32]], v: usize) -> Vec<u32> {
    match &g.skin {
        Some(s) => (0..4)
            .filter(|&k| s[v * 8 + 4 + k] > 0)
            .filter_map(|k| g.matrix_indices.get(usize::from(s[v * 8 + k])).copied())
            .collect(),
        None => (g.vertex_groups.get(v))
            .and_then(|&grp| groups.get(usize::from(grp)))
            .map_or_else(Vec::new, |ids| ids.to_vec()),
    }
}

/// Marks as used, for each node some vertex of `g` moved with and no used vertex does,
/// the first unused vertex (of those welding keeps) that moves with it: a bone that loses
/// its last vertex becomes the checker's `bone-without-vertices`, and the game may treat
/// it differently.
fn keep_bound_nodes(g: &Geoset, canon: &[u16], used: &mut [bool]) {
    let groups = g.matrix_groups();
    let firsts = || (0..used.len()).filter(|&v| usize::from(canon[v]) == v);
    let mut before: HashSet<u32> = HashSet::new();
    for v in firsts() {
        before.extend(vertex_nodes(g, &groups, v));
    }
    for v in firsts().filter(|&v| used[v]) {
        for id in vertex_nodes(g, &groups, v) {
            before.remove(&id);
        }
    }
    if before.is_empty() {
        return;
    }
    let spare: Vec<usize> = firsts().filter(|&v| !used[v]).collect();
    for v in spare {
        let ids = vertex_nodes(g, &groups, v);
        if ids.iter().any(|id| before.contains(id)) {
            used[v] = true;
            for id in ids {
                before.remove(&id);
            }
        }
    }
}

/// Keeps the vertices `kept` (old indices, in order) in every per-vertex list of `g`.
fn keep_vertices(g: &mut Geoset, kept: &[usize]) {
    fn pick<T: Copy>(v: &[T], kept: &[usize]) -> Vec<T> {
        kept.iter().map(|&i| v[i]).collect()
    }
    g.vertices = pick(&g.vertices, kept);
    if !g.normals.is_empty() {
        g.normals = pick(&g.normals, kept);
    }
    if !g.vertex_groups.is_empty() {
        g.vertex_groups = pick(&g.vertex_groups, kept);
    }
    for uv in &mut g.uv_sets {
        *uv = pick(uv, kept);
    }
    if let Some(t) = &mut g.tangents {
        *t = pick(t, kept);
    }
    if let Some(s) = &mut g.skin {
        *s = kept
            .iter()
            .flat_map(|&i| s[i * 8..i * 8 + 8].to_vec())
            .collect();
    }
}

/// Drops the matrix groups no vertex uses and shares identical ones (vertex groups
/// renumbered). Only for geosets bound by matrix groups: a skinned geoset's weights name
/// entries of the matrix list directly, so its groups stay.
fn matrix_groups(g: &mut Geoset) -> Counts {
    let sizes_sum: usize = g.matrix_group_sizes.iter().map(|&s| s as usize).sum();
    if g.skin.is_some()
        || g.vertex_groups.len() != g.vertices.len()
        || sizes_sum != g.matrix_indices.len()
    {
        return Counts::new();
    }
    let groups = g.matrix_groups();
    if g.vertex_groups
        .iter()
        .any(|&v| usize::from(v) >= groups.len())
    {
        return Counts::new();
    }
    let mut used = vec![false; groups.len()];
    for &v in &g.vertex_groups {
        used[usize::from(v)] = true;
    }
    let mut new_groups: Vec<&[u32]> = Vec::new();
    let mut to = vec![0u8; groups.len()];
    let mut shared = 0;
    for (k, ids) in groups.iter().enumerate().filter(|(k, _)| used[*k]) {
        match new_groups.iter().position(|other| other == ids) {
            Some(i) => {
                to[k] = i as u8;
                shared += 1;
            }
            None => {
                to[k] = new_groups.len() as u8;
                new_groups.push(ids);
            }
        }
    }
    let unused = used.iter().filter(|&&u| !u).count();
    if unused == 0 && shared == 0 {
        return Counts::new();
    }
    let sizes: Vec<u32> = new_groups.iter().map(|ids| ids.len() as u32).collect();
    let indices: Vec<u32> = new_groups.concat();
    g.matrix_group_sizes = sizes;
    g.matrix_indices = indices;
    for v in &mut g.vertex_groups {
        *v = to[usize::from(*v)];
    }
    [
        ("unused matrix groups removed", unused),
        ("duplicate matrix groups shared", shared),
    ]
    .into_iter()
    .filter(|&(_, n)| n > 0)
    .collect()
}
