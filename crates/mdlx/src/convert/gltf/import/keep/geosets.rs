//! Geosets: the glTF's meshes compared with the embedded model's geosets, triangle by
//! triangle.

use super::materials::Mats;
use super::nodes::NodeMap;
use super::sequences::Seqs;
use super::{Changes, Ids, TOLERANCE};
use crate::convert::gltf::import::Import;
use crate::model::{Geoset, Model};
use crate::spec::version as ver;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What a geoset's vertex is, for matching: position, normal, UVs and skinning (node
/// object id -> weight, in the result's ids).
struct Vertex {
    pos: [f32; 3],
    normal: [f32; 3],
    uvs: Vec<[f32; 2]>,
    skin: BTreeMap<u32, f32>,
}

/// Each vertex of `g` as [`Vertex`]; `id` maps the geoset's node object ids to the
/// result's (`None`: not a node of the result, such as the glTF's joint for vertices bound
/// to nothing: left out).
fn vertices(g: &Geoset, id: &dyn Fn(u32) -> Option<u32>) -> Vec<Vertex> {
    let groups = g.matrix_groups();
    let n = g.vertices.len();
    (0..n)
        .map(|v| {
            let mut skin: BTreeMap<u32, f32> = BTreeMap::new();
            match g.skin.as_deref().filter(|s| s.len() == n * 8) {
                Some(s) => {
                    let b = &s[v * 8..v * 8 + 8];
                    for k in 0..4 {
                        let Some(&node) = g.matrix_indices.get(usize::from(b[k])) else {
                            continue;
                        };
                        if let (true, Some(node)) = (b[4 + k] > 0, id(node)) {
                            *skin.entry(node).or_default() += f32::from(b[4 + k]) / 255.0;
                        }
                    }
                }
                None => {
                    let ids = g
                        .vertex_groups
                        .get(v)
                        .and_then(|&k| groups.get(usize::from(k)))
                        .copied()
                        .unwrap_or_default();
                    for node in ids.iter().filter_map(|&n| id(n)) {
                        *skin.entry(node).or_default() += 1.0 / ids.len() as f32;
                    }
                }
            }
            let normal = g.normals.get(v).copied().unwrap_or_default();
            let len = normal.iter().map(|c| c * c).sum::<f32>().sqrt();
            Vertex {
                pos: g.vertices[v],
                normal: if len > 1e-12 {
                    normal.map(|c| c / len)
                } else {
                    normal
                },
                uvs: g
                    .uv_sets
                    .iter()
                    .map(|s| s.get(v).copied().unwrap_or_default())
                    .collect(),
                skin,
            }
        })
        .collect()
}

/// Whether two skinnings are the same as Blender gives them back: every weight within two
/// 255ths, or (where the model had more than four) the glTF's at most four among them.
fn same_skin(a: &BTreeMap<u32, f32>, b: &BTreeMap<u32, f32>) -> bool {
    let close = a.keys().chain(b.keys()).all(|k| {
        (a.get(k).copied().unwrap_or(0.0) - b.get(k).copied().unwrap_or(0.0)).abs() <= 2.0 / 255.0
    });
    close || (a.len() > 4 && b.len() <= 4 && b.keys().all(|k| a.contains_key(k)))
}

/// How far a normal may turn and be the same (each component of the unit vector):
/// Blender keeps custom normals in 16-bit angles within a local frame, which moves them by
/// up to about 2e-3.
const NORMAL_TOLERANCE: f32 = 1e-2;

/// Whether vertex `b` (of the glTF) is vertex `a` (of the model). Where the model's
/// position, normal or UV is not a number (or its normal has no direction), the export
/// wrote a stand-in: any value matches it.
/// With `loose` (a vertex of no triangle with an area), any normal matches: Blender gives
/// such a vertex a normal of its own.
fn same_vertex(a: &Vertex, b: &Vertex, tol: f32, loose: bool) -> bool {
    let near = |x: &[f32], y: &[f32], t: f32| {
        !x.iter().all(|v| v.is_finite()) || x.iter().zip(y).all(|(p, q)| (p - q).abs() <= t)
    };
    let unit = !loose && (a.normal.iter().map(|c| c * c).sum::<f32>() - 1.0).abs() < 1e-3;
    near(&a.pos, &b.pos, tol)
        && (!unit || near(&a.normal, &b.normal, NORMAL_TOLERANCE))
        && a.uvs.len() == b.uvs.len()
        && a.uvs.iter().zip(&b.uvs).all(|(x, y)| near(x, y, 1e-5))
        && same_skin(&a.skin, &b.skin)
}

/// The cell of the grid of side `cell` a position falls in.
fn cell(p: [f32; 3], cell: f32) -> [i64; 3] {
    p.map(|c| (c / cell).floor() as i64)
}

/// The triangles of a geoset as vertex classes (`class[v]`), each turned to start at its
/// lowest class (winding kept); triangles of fewer than three classes, or naming a vertex
/// that does not exist (the export leaves those out), left out.
fn triangle_set(g: &Geoset, class: &[Option<usize>]) -> BTreeSet<[usize; 3]> {
    let (tris, _) = g.triangles();
    let mut out = BTreeSet::new();
    for t in tris {
        let c = [0, 1, 2].map(|k| class.get(usize::from(t[k])).copied().flatten());
        let [Some(a), Some(b), Some(d)] = c else {
            continue;
        };
        if a == b || b == d || a == d {
            continue;
        }
        let r = match [a, b, d]
            .iter()
            .enumerate()
            .min_by_key(|x| x.1)
            .map(|x| x.0)
        {
            Some(1) => [b, d, a],
            Some(2) => [d, a, b],
            _ => [a, b, d],
        };
        out.insert(r);
    }
    out
}

/// How far apart two vertices are (position, then normal and UVs), for choosing the
/// nearest of several that match.
fn distance(a: &Vertex, b: &Vertex) -> f32 {
    let d2 = |x: &[f32], y: &[f32]| {
        x.iter()
            .zip(y)
            .map(|(p, q)| (p - q) * (p - q))
            .filter(|d| d.is_finite())
            .sum::<f32>()
    };
    d2(&a.pos, &b.pos)
        + d2(&a.normal, &b.normal)
        + a.uvs.iter().zip(&b.uvs).map(|(x, y)| d2(x, y)).sum::<f32>()
}

/// The kept vertices of a geoset, their classes (a vertex like an earlier one is its
/// class), which of them are loose (see [`same_vertex`]), and a grid of them by position.
struct Classes<'a> {
    kept: &'a [Vertex],
    class: Vec<usize>,
    loose: Vec<bool>,
    grid: HashMap<[i64; 3], Vec<usize>>,
    side: f32,
    tol: f32,
}

/// Whether triangle `t` of `g` has an area (corners apart by more than `tol`, not on one
/// line); a corner that does not exist has none.
fn has_area(g: &Geoset, t: [u16; 3], tol: f32) -> bool {
    has_area_at(g, t.map(usize::from), tol)
}

/// [`has_area`] of the triangle of vertices `t`.
fn has_area_at(g: &Geoset, t: [usize; 3], tol: f32) -> bool {
    let [Some(p), Some(q), Some(r)] = t.map(|i| g.vertices.get(i)) else {
        return false;
    };
    let u = [0, 1, 2].map(|k| q[k] - p[k]);
    let w = [0, 1, 2].map(|k| r[k] - p[k]);
    let n = [
        u[1] * w[2] - u[2] * w[1],
        u[2] * w[0] - u[0] * w[2],
        u[0] * w[1] - u[1] * w[0],
    ];
    n.iter().map(|x| x * x).sum::<f32>().sqrt() > tol * tol
}

/// Whether no triangle of `g` has an area.
fn flat(g: &Geoset, tol: f32) -> bool {
    !g.triangles().0.iter().any(|&t| has_area(g, t, tol))
}

/// Which vertices of `g` lie on no triangle with an area (a triangle whose corners are
/// apart by more than `tol` and not on one line).
fn loose_vertices(g: &Geoset, tol: f32) -> Vec<bool> {
    let mut loose = vec![true; g.vertices.len()];
    for t in g.triangles().0 {
        if has_area(g, t, tol) {
            for i in t {
                loose[usize::from(i)] = false;
            }
        }
    }
    loose
}

/// The class of the kept vertex nearest `v` of those within `tol` of it (looking in the
/// 27 cells around it), among the kept vertices already in the grid.
fn class_of(v: &Vertex, c: &Classes) -> Option<usize> {
    let (kept, class, grid, side, tol) = (c.kept, &c.class, &c.grid, c.side, c.tol);
    let at = cell(v.pos, side);
    let mut best: Option<(f32, usize)> = None;
    for dx in -1..=1 {
        for dy in -1..=1 {
            for dz in -1..=1 {
                let Some(l) = grid.get(&[at[0] + dx, at[1] + dy, at[2] + dz]) else {
                    continue;
                };
                for &j in l {
                    if same_vertex(&kept[j], v, tol, c.loose.get(j) == Some(&true)) {
                        let d = distance(&kept[j], v);
                        if best.is_none_or(|(b, k)| d < b || (d == b && j < k)) {
                            best = Some((d, j));
                        }
                    }
                }
            }
        }
    }
    best.map(|(_, j)| class[j])
}

/// Whether the glTF's geosets `fresh` (one mesh, which the import may have split) are the
/// kept geoset `kept`: every vertex of theirs one of its (Blender merges and splits
/// vertices; vertices within the tolerance of one another are one), and the same
/// triangles.
fn unchanged(kept: &[Vertex], kg: &Geoset, fresh: &[(Vec<Vertex>, &Geoset)], size: f32) -> bool {
    let tol = TOLERANCE * size;
    let side = (tol * 4.0).max(1e-6);
    // Kept vertices by grid cell; each vertex's class is the smallest of an earlier one
    // like it, else its own.
    let mut c = Classes {
        kept,
        class: vec![0usize; kept.len()],
        loose: loose_vertices(kg, tol),
        grid: HashMap::new(),
        side,
        tol,
    };
    for (i, v) in kept.iter().enumerate() {
        c.class[i] = class_of(v, &c).unwrap_or(i);
        c.grid.entry(cell(v.pos, side)).or_default().push(i);
    }
    let some: Vec<Option<usize>> = c.class.iter().map(|&k| Some(k)).collect();
    let want = triangle_set(kg, &some);
    let mut got = BTreeSet::new();
    for (verts, g) in fresh {
        let mut fclass = Vec::with_capacity(verts.len());
        for v in verts {
            match class_of(v, &c) {
                Some(c) => fclass.push(Some(c)),
                None => return false,
            }
        }
        got.extend(triangle_set(g, &fclass));
    }
    if got == want {
        return true;
    }
    // Blender drops triangles without an area, and a triangle on the corners of another
    // (a face made two-sided by a copy turned over): those missing are not an edit.
    let spot = position_classes(kept, side, tol);
    let corners = |t: &[usize; 3]| {
        let mut p = t.map(|c| spot[c]);
        p.sort_unstable();
        p
    };
    let present: BTreeSet<[usize; 3]> = got.iter().map(corners).collect();
    got.is_subset(&want)
        && want
            .difference(&got)
            .all(|t| !has_area_at(kg, *t, tol) || present.contains(&corners(t)))
}

/// Per kept vertex, the first kept vertex at its place (within `tol`).
fn position_classes(kept: &[Vertex], side: f32, tol: f32) -> Vec<usize> {
    let mut grid: HashMap<[i64; 3], Vec<usize>> = HashMap::new();
    let mut out: Vec<usize> = Vec::with_capacity(kept.len());
    for (i, v) in kept.iter().enumerate() {
        let at = cell(v.pos, side);
        let mut first = i;
        for d in 0..27i64 {
            let k = [at[0] + d / 9 - 1, at[1] + d / 3 % 3 - 1, at[2] + d % 3 - 1];
            for &j in grid.get(&k).into_iter().flatten() {
                if (0..3).all(|c| (kept[j].pos[c] - v.pos[c]).abs() <= tol) {
                    first = first.min(out[j]);
                }
            }
        }
        out.push(first);
        grid.entry(at).or_default().push(i);
    }
    out
}

/// Whether the geoset is one the export writes (drawn at full detail, with triangles).
fn exported(g: &Geoset) -> bool {
    let n = g.vertices.len();
    g.shows_at_lod(0)
        && n > 0
        && g.triangles()
            .0
            .iter()
            .any(|t| t.iter().all(|&i| usize::from(i) < n))
}

/// `g` with the vertices that are exactly alike (position, normal, UVs, vertex group,
/// tangent, skin weights) made one: Blender splits vertices along seams and keeps them
/// split. Faces name the first of each.
fn welded(g: &Geoset) -> Geoset {
    let n = g.vertices.len();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    let mut first: HashMap<Vec<u32>, u16> = HashMap::new();
    let mut map = Vec::with_capacity(n);
    let mut keep = Vec::new();
    for v in 0..n {
        let mut key = bits(&g.vertices[v]);
        key.extend(bits(g.normals.get(v).map_or(&[][..], |x| &x[..])));
        for s in &g.uv_sets {
            key.extend(bits(s.get(v).map_or(&[][..], |x| &x[..])));
        }
        key.push(u32::from(g.vertex_groups.get(v).copied().unwrap_or(0)));
        if let Some(t) = &g.tangents {
            key.extend(bits(t.get(v).map_or(&[][..], |x| &x[..])));
        }
        if let Some(s) = &g.skin {
            key.extend(
                s.get(v * 8..v * 8 + 8)
                    .unwrap_or(&[])
                    .iter()
                    .map(|&x| u32::from(x)),
            );
        }
        let next = keep.len() as u16;
        let k = *first.entry(key).or_insert(next);
        if k == next {
            keep.push(v);
        }
        map.push(k);
    }
    if keep.len() == n {
        return g.clone();
    }
    let pick = |list: &[[f32; 3]]| keep.iter().filter_map(|&v| list.get(v).copied()).collect();
    let mut out = g.clone();
    out.vertices = pick(&g.vertices);
    out.normals = pick(&g.normals);
    out.uv_sets = g
        .uv_sets
        .iter()
        .map(|s| keep.iter().filter_map(|&v| s.get(v).copied()).collect())
        .collect();
    out.vertex_groups = keep
        .iter()
        .filter_map(|&v| g.vertex_groups.get(v).copied())
        .collect();
    out.tangents = g
        .tangents
        .as_ref()
        .map(|t| keep.iter().filter_map(|&v| t.get(v).copied()).collect());
    out.skin = g.skin.as_ref().map(|s| {
        keep.iter()
            .flat_map(|&v| s.get(v * 8..v * 8 + 8).unwrap_or(&[]).iter().copied())
            .collect()
    });
    out.faces = g
        .faces
        .iter()
        .map(|&i| map.get(usize::from(i)).copied().unwrap_or(i))
        .collect();
    out
}

/// The fresh geoset `g` in the result: node ids and material mapped, vertices Blender
/// split welded back, the kept geoset's level of detail and selection group, one extent
/// per sequence.
fn adapted(
    g: &Geoset,
    like: Option<&Geoset>,
    nodes: &NodeMap,
    mats: &mut Mats,
    out: &Model,
) -> Geoset {
    let mut g = welded(g);
    for m in &mut g.matrix_indices {
        *m = nodes
            .of_fresh
            .get(*m as usize)
            .copied()
            .flatten()
            .unwrap_or(0);
    }
    g.material_id = mats
        .of_fresh
        .get(g.material_id as usize)
        .copied()
        .flatten()
        .unwrap_or(g.material_id);
    mats.taken.insert(g.material_id);
    if let Some(k) = like {
        g.lod = k.lod;
        g.lod_name = k.lod_name.clone();
        g.selection_group = k.selection_group;
        g.selection_flags = k.selection_flags;
    }
    g.sequence_extents = vec![g.extent; out.sequences.len()];
    g.skin_wide = g.skin.is_some() && out.version >= ver::SKIN_WIDE;
    if out.version < ver::REFORGED {
        g.skin = None;
        g.tangents = None;
    }
    g
}

/// Merges the geosets into `out` (see the module documentation of [`super`]). Returns the
/// skinning error of the glTF's geosets taken (0 when every geoset is kept).
#[allow(clippy::too_many_arguments)]
pub(super) fn merge(
    out: &mut Model,
    kept: &Model,
    fresh: &Import,
    ids: &Ids,
    nodes: &NodeMap,
    mats: &mut Mats,
    _seqs: &Seqs,
    size: f32,
    changes: &mut Changes,
) -> f32 {
    let f = &fresh.model;
    // The fresh geosets of each kept geoset, and those of no kept geoset.
    let mut of_kept: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut new = Vec::new();
    for (fi, src) in fresh.geosets.iter().enumerate() {
        match ids.geosets.get(src.node).copied().flatten() {
            Some(gi) if gi < kept.geosets.len() => of_kept.entry(gi).or_default().push(fi),
            _ => new.push(fi),
        }
    }
    let fid = |id: u32| nodes.of_fresh.get(id as usize).copied().flatten();
    let kid = |id: u32| nodes.of_kept.get(id as usize).copied().flatten();
    let mut result: Vec<Geoset> = Vec::new();
    // Per kept geoset: where it went (None: removed).
    let mut went: Vec<Option<usize>> = Vec::with_capacity(kept.geosets.len());
    let mut skin_error = 0.0f32;
    for (gi, kg) in kept.geosets.iter().enumerate() {
        let Some(fis) = of_kept.get(&gi) else {
            // Blender drops a mesh whose triangles have no area (a flat effect plane of one
            // point): not an edit.
            if exported(kg) && !flat(kg, TOLERANCE * size) {
                changes.add(format!("Geoset[{gi}] removed (the glTF has no such mesh)"));
                went.push(None);
            } else {
                // Never in the glTF (a coarser level of detail): as it was.
                went.push(Some(result.len()));
                result.push(out.geosets[gi].clone());
            }
            continue;
        };
        let kv = vertices(kg, &kid);
        let fv: Vec<(Vec<Vertex>, &Geoset)> = fis
            .iter()
            .map(|&fi| (vertices(&f.geosets[fi], &fid), &f.geosets[fi]))
            .collect();
        went.push(Some(result.len()));
        if unchanged(&kv, kg, &fv, size) {
            result.push(out.geosets[gi].clone());
            continue;
        }
        changes.add(format!(
            "Geoset[{gi}]: its mesh ({} vertices, {} triangles now)",
            fis.iter()
                .map(|&fi| f.geosets[fi].vertices.len())
                .sum::<usize>(),
            fis.iter()
                .map(|&fi| f.geosets[fi].triangles().0.len())
                .sum::<usize>()
        ));
        skin_error = skin_error.max(fresh.skin_error);
        for &fi in fis {
            result.push(adapted(&f.geosets[fi], Some(kg), nodes, mats, out));
        }
    }
    for fi in new {
        changes.add(format!(
            "new geoset ({} vertices)",
            f.geosets[fi].vertices.len()
        ));
        skin_error = skin_error.max(fresh.skin_error);
        result.push(adapted(&f.geosets[fi], None, nodes, mats, out));
    }
    let same =
        went.iter().enumerate().all(|(i, w)| *w == Some(i)) && result.len() == kept.geosets.len();
    out.geosets = result;
    if !same {
        renumber(out, &went);
    }
    skin_error
}

/// Points geoset animations and bones at the geosets' new places (`went[old]`); the
/// animations of removed geosets go.
fn renumber(out: &mut Model, went: &[Option<usize>]) {
    let old = std::mem::take(&mut out.geoset_animations);
    let mut anim_went = Vec::with_capacity(old.len());
    for mut a in old {
        match usize::try_from(a.geoset_id).ok().and_then(|g| went.get(g)) {
            Some(Some(n)) => {
                a.geoset_id = *n as i32;
                anim_went.push(Some(out.geoset_animations.len()));
                out.geoset_animations.push(a);
            }
            Some(None) => anim_went.push(None),
            None => {
                anim_went.push(Some(out.geoset_animations.len()));
                out.geoset_animations.push(a);
            }
        }
    }
    for b in &mut out.bones {
        if let Ok(g) = usize::try_from(b.geoset_id) {
            if let Some(w) = went.get(g) {
                b.geoset_id = w.map_or(-1, |n| n as i32);
            }
        }
        if let Ok(a) = usize::try_from(b.geoset_animation_id) {
            if let Some(w) = anim_went.get(a) {
                b.geoset_animation_id = w.map_or(-1, |n| n as i32);
            }
        }
    }
}
