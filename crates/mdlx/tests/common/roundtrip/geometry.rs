//! The geometry rows of the round-trip comparison: vertices of the model that came back
//! matched to the source's by nearest rest position and UV (a vertex split in two matches
//! the same source vertex twice; order does not matter), then geosets, skin weights and
//! poses compared through that matching.

use super::Row;
use mdlx::anim::{posed_geosets, AnimTime, Clock, Skeleton};
use mdlx::model::{Geoset, Model};
use std::collections::{BTreeSet, HashMap};

/// The largest distance allowed between a posed vertex of the source and of the model that
/// came back, as a fraction of the source's size.
pub(crate) const POSE_TOLERANCE: f64 = 1e-3;
/// How far (fraction of the size) a rest position may move and still match.
const MATCH_TOLERANCE: f64 = 1e-3;
/// How far a UV may move and still match.
const UV_TOLERANCE: f64 = 1e-3;
/// How far a skin weight may move (255ths are 0.0039 apart).
const WEIGHT_TOLERANCE: f32 = 1.5 / 255.0;

/// Which source vertex each vertex of the model that came back is.
#[derive(Clone, Debug, Default)]
pub(crate) struct Matching {
    /// Per geoset of the model that came back, per vertex: (source geoset, vertex).
    pub(crate) of: Vec<Vec<Option<(usize, usize)>>>,
    /// Per geoset of the model that came back: the source geoset most of its vertices are.
    pub(crate) geoset_of: Vec<Option<usize>>,
    /// The source geosets an export carries: those shown at level of detail 0, with faces.
    pub(crate) exported: Vec<usize>,
    /// Referenced vertices of exported source geosets that no vertex matches (nor one of
    /// the same position and UV in the same geoset).
    pub(crate) uncovered: usize,
}

type Cell = (i64, i64, i64);
/// Source vertices (geoset, vertex) near a vertex, with their scores.
type Near = Vec<((usize, usize), f64)>;

fn uv(g: &Geoset, v: usize) -> Option<[f32; 2]> {
    g.uv_sets.first().and_then(|s| s.get(v)).copied()
}

/// The distance score of two vertices (position over the size, plus UV), when within the
/// tolerances.
fn score(a: &Geoset, va: usize, b: &Geoset, vb: usize, size: f64) -> Option<f64> {
    let d = super::dist(a.vertices[va], b.vertices[vb]) / size;
    let u = match (uv(a, va), uv(b, vb)) {
        (Some(p), Some(q)) => ((f64::from(p[0]) - f64::from(q[0])).powi(2)
            + (f64::from(p[1]) - f64::from(q[1])).powi(2))
        .sqrt(),
        _ => 0.0,
    };
    (d <= MATCH_TOLERANCE && u <= UV_TOLERANCE).then_some(d + u)
}

/// Source vertices of the exported geosets, in a grid of cells one tolerance wide.
struct Grid<'m> {
    model: &'m Model,
    cell: f64,
    cells: HashMap<Cell, Vec<(usize, usize)>>,
}

impl<'m> Grid<'m> {
    fn new(model: &'m Model, geosets: &[usize], size: f64) -> Self {
        let cell = MATCH_TOLERANCE * size;
        let mut cells: HashMap<Cell, Vec<(usize, usize)>> = HashMap::new();
        for &g in geosets {
            for (v, p) in model.geosets[g].vertices.iter().enumerate() {
                if p.iter().all(|c| c.is_finite()) {
                    cells.entry(Self::key(cell, *p)).or_default().push((g, v));
                }
            }
        }
        Grid { model, cell, cells }
    }

    fn key(cell: f64, p: [f32; 3]) -> Cell {
        let f = |x: f32| (f64::from(x) / cell).floor() as i64;
        (f(p[0]), f(p[1]), f(p[2]))
    }

    /// Every source vertex within the tolerances of vertex `v` of `g`, with its score.
    fn near(&self, g: &Geoset, v: usize, size: f64) -> Near {
        let p = g.vertices[v];
        if !p.iter().all(|c| c.is_finite()) {
            return Vec::new();
        }
        let (x, y, z) = Self::key(self.cell, p);
        let mut out = Vec::new();
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    for &(sg, sv) in self
                        .cells
                        .get(&(x + dx, y + dy, z + dz))
                        .into_iter()
                        .flatten()
                    {
                        if let Some(s) = score(g, v, &self.model.geosets[sg], sv, size) {
                            out.push(((sg, sv), s));
                        }
                    }
                }
            }
        }
        out
    }
}

/// The best of `cands` for vertex `v`, preferring those in source geoset `prefer`; of
/// equally near ones (a geoset may hold two vertices of one place and UV, skinned apart),
/// the one of the same index.
fn best(
    cands: &[((usize, usize), f64)],
    prefer: Option<usize>,
    v: usize,
) -> Option<(usize, usize)> {
    let pick = |it: &mut dyn Iterator<Item = &((usize, usize), f64)>| {
        it.min_by(|a, b| a.1.total_cmp(&b.1).then((a.0 .1 != v).cmp(&(b.0 .1 != v))))
            .map(|c| c.0)
    };
    prefer
        .and_then(|p| pick(&mut cands.iter().filter(|c| c.0 .0 == p)))
        .or_else(|| pick(&mut cands.iter()))
}

/// Matches every vertex of `back` to a source vertex.
pub(crate) fn match_vertices(src: &Model, back: &Model, size: f64) -> Matching {
    // Every geoset comes back: the export carries those the game draws at full detail,
    // and the model embedded in the file the others.
    let exported: Vec<usize> = (0..src.geosets.len()).collect();
    let grid = Grid::new(src, &exported, size);
    let cands: Vec<Vec<Near>> = back
        .geosets
        .iter()
        .map(|g| {
            (0..g.vertices.len())
                .map(|v| grid.near(g, v, size))
                .collect()
        })
        .collect();
    // The source geoset most of each geoset's nearest vertices are in, then the matching
    // that prefers it (a vertex shared by two geosets goes to its own geoset's copy).
    // Ties (identical geosets) go to the source geoset of the same index.
    let geoset_of: Vec<Option<usize>> = cands
        .iter()
        .enumerate()
        .map(|(k, vs)| {
            // Every source geoset that holds one of a vertex's best matches gets its vote
            // (identical geosets each hold one).
            let mut votes: HashMap<usize, usize> = HashMap::new();
            for c in vs {
                let top = c.iter().map(|x| x.1).fold(f64::INFINITY, f64::min);
                let gs: BTreeSet<usize> = c.iter().filter(|x| x.1 == top).map(|x| x.0 .0).collect();
                for g in gs {
                    *votes.entry(g).or_default() += 1;
                }
            }
            votes
                .into_iter()
                .max_by_key(|&(g, n)| (n, g == k, usize::MAX - g))
                .map(|(g, _)| g)
        })
        .collect();
    let of: Vec<Vec<Option<(usize, usize)>>> = cands
        .iter()
        .zip(&geoset_of)
        .map(|(vs, &pref)| {
            vs.iter()
                .enumerate()
                .map(|(v, c)| best(c, pref, v))
                .collect()
        })
        .collect();
    let hit: BTreeSet<(usize, usize)> = of.iter().flatten().flatten().copied().collect();
    let mut uncovered = 0;
    for &g in &exported {
        let geo = &src.geosets[g];
        let referenced: BTreeSet<usize> = geo.faces.iter().map(|&i| usize::from(i)).collect();
        for v in referenced.into_iter().filter(|&v| v < geo.vertices.len()) {
            // A vertex another of the same place and UV stands for counts as kept.
            let kept = hit.contains(&(g, v))
                || grid
                    .near(geo, v, size)
                    .iter()
                    .any(|(c, s)| c.0 == g && *s == 0.0 && hit.contains(c));
            if !kept {
                uncovered += 1;
            }
        }
    }
    Matching {
        of,
        geoset_of,
        exported,
        uncovered,
    }
}

/// Geosets: as many as the export carried, each vertex matched to a vertex of one source
/// geoset, every referenced source vertex kept, as many triangles.
pub(crate) fn geosets_row(src: &Model, back: &Model, m: &Matching) -> Row {
    let mut row = Row::default();
    if back.geosets.len() != m.exported.len() {
        row.add(format!(
            "{} geosets -> {}",
            m.exported.len(),
            back.geosets.len()
        ));
    }
    let mut seen: HashMap<usize, usize> = HashMap::new();
    for (k, vs) in m.of.iter().enumerate() {
        let unmatched = vs.iter().filter(|x| x.is_none()).count();
        if unmatched > 0 {
            row.add(format!(
                "{unmatched} of {} vertices of geoset {k} match no source vertex",
                vs.len()
            ));
        }
        let stray = vs
            .iter()
            .flatten()
            .filter(|(g, _)| Some(*g) != m.geoset_of[k])
            .count();
        if stray > 0 {
            row.add(format!(
                "geoset {k}: {stray} vertices of another source geoset"
            ));
        }
        if let Some(g) = m.geoset_of[k] {
            if let Some(other) = seen.insert(g, k) {
                row.add(format!(
                    "geosets {other} and {k} are both source geoset {g}"
                ));
            }
            let t1 = src.geosets[g].triangles().0.len();
            let t2 = back.geosets[k].triangles().0.len();
            if t1 != t2 {
                row.add(format!("geoset {k} (source {g}): {t1} triangles -> {t2}"));
            }
        }
    }
    if m.uncovered > 0 {
        row.add(format!("{} source vertices lost", m.uncovered));
    }
    row
}

/// The bones (by name) and weights that move vertex `v` of geoset `g`.
fn influences(names: &HashMap<u32, Vec<u8>>, g: &Geoset, v: usize) -> Vec<(Vec<u8>, f32)> {
    let mut out: Vec<(Vec<u8>, f32)> = Vec::new();
    let mut add = |id: u32, w: f32| {
        let n = names
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("#{id}").into_bytes());
        match out.iter_mut().find(|(x, _)| *x == n) {
            Some(e) => e.1 += w,
            None => out.push((n, w)),
        }
    };
    match g
        .skin
        .as_deref()
        .filter(|s| s.len() == g.vertices.len() * 8)
    {
        Some(s) => {
            let b = &s[v * 8..v * 8 + 8];
            for k in (0..4).filter(|&k| b[4 + k] > 0) {
                if let Some(&id) = g.matrix_indices.get(usize::from(b[k])) {
                    add(id, f32::from(b[4 + k]) / 255.0);
                }
            }
        }
        None => {
            let groups = g.matrix_groups();
            let ids = g
                .vertex_groups
                .get(v)
                .and_then(|&i| groups.get(usize::from(i)))
                .copied()
                .unwrap_or(&[]);
            for &id in ids {
                add(id, 1.0 / ids.len() as f32);
            }
        }
    }
    out
}

fn node_names(m: &Model) -> HashMap<u32, Vec<u8>> {
    m.nodes()
        .map(|n| (n.object_id, n.name.text_bytes().to_vec()))
        .collect()
}

/// Skin weights: each matched vertex moved by the same bones (by name) with the same
/// weights, within 1.5/255.
pub(crate) fn skin_row(src: &Model, back: &Model, m: &Matching) -> Row {
    let mut row = Row::default();
    let (n1, n2) = (node_names(src), node_names(back));
    let (mut differ, mut worst, mut at) = (0usize, 0.0f32, String::new());
    for (k, vs) in m.of.iter().enumerate() {
        for (j, x) in vs.iter().enumerate() {
            let Some((g, v)) = *x else { continue };
            let a = influences(&n1, &src.geosets[g], v);
            let b = influences(&n2, &back.geosets[k], j);
            let weight = |l: &[(Vec<u8>, f32)], n: &[u8]| {
                l.iter().find(|(x, _)| x == n).map_or(0.0, |e| e.1)
            };
            let d = a
                .iter()
                .chain(&b)
                .map(|(n, _)| (weight(&a, n) - weight(&b, n)).abs())
                .fold(0.0f32, f32::max);
            if d > WEIGHT_TOLERANCE {
                differ += 1;
                if d > worst {
                    worst = d;
                    at = format!("geoset {k} vertex {j}");
                }
            }
        }
    }
    if differ > 0 {
        row.add(format!(
            "{differ} vertices weighted otherwise (worst {worst:.3} at {at})"
        ));
    }
    row
}

/// The pose row: every matched vertex posed at the start, middle and end of every source
/// sequence (the rest pose without sequences), against its source vertex; the worst
/// distance as a fraction of `size`, and whether the geosets show alike.
pub(crate) fn pose_row(
    src: &Model,
    back: &Model,
    sk1: &Skeleton,
    sk2: &Skeleton,
    seqs: &[Option<usize>],
    m: &Matching,
    size: f64,
) -> (Row, f64) {
    let mut row = Row::default();
    let mut clocks: Vec<(Clock, Clock)> = Vec::new();
    if src.sequences.is_empty() {
        let rest = AnimTime::new(None, 0.0);
        clocks.push((Clock::new(src, rest), Clock::new(back, rest)));
    }
    for (si, s) in src.sequences.iter().enumerate() {
        let Some(Some(bi)) = seqs.get(si).copied() else {
            row.add(format!("sequence {:?} missing: not posed", s.name.text()));
            continue;
        };
        let len = f64::from(s.length());
        let len2 = f64::from(back.sequences[bi].length());
        for f in [0.0, 0.5, 1.0] {
            let t = (len * f).round();
            clocks.push((
                Clock::unwrapped(src, si, t),
                Clock::unwrapped(back, bi, t.min(len2)),
            ));
        }
    }
    // `shown`: matched vertices whose source geoset shows; `compared`: those of them with a
    // finite distance. A model hidden at every moment compared has nothing to compare.
    let (mut worst, mut shown, mut compared, mut shown_apart) = (0.0f64, 0usize, 0usize, 0usize);
    for (c1, c2) in &clocks {
        let p1 = posed_geosets(src, sk1, &sk1.pose_at(c1, None), c1);
        let p2 = posed_geosets(back, sk2, &sk2.pose_at(c2, None), c2);
        for (k, vs) in m.of.iter().enumerate() {
            let (g1, g2) = (m.geoset_of[k].map(|g| &p1[g]), &p2[k]);
            if g1.is_some_and(|g1| g1.visible != g2.visible) {
                shown_apart += 1;
            }
            for (j, x) in vs.iter().enumerate() {
                let Some((g, v)) = *x else { continue };
                if !p1[g].visible {
                    continue;
                }
                shown += 1;
                let d = super::dist(p1[g].positions[v], g2.positions[j]) / size;
                if d.is_finite() {
                    compared += 1;
                    worst = worst.max(d);
                }
            }
        }
    }
    let matched = m.of.iter().flatten().any(Option::is_some);
    let has_vertices = m
        .exported
        .iter()
        .any(|&g| !src.geosets[g].vertices.is_empty());
    if compared == 0 && has_vertices && !clocks.is_empty() && (shown > 0 || !matched) {
        worst = f64::INFINITY;
        row.add("no vertex could be compared".into());
    } else if worst > POSE_TOLERANCE {
        row.add(format!("a vertex {worst:.2e} of the size away"));
    }
    if shown_apart > 0 {
        row.add(format!(
            "{shown_apart} times a geoset shows where the source's does not (or hides)"
        ));
    }
    (row, worst)
}
