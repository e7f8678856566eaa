//! Skinning shared by the conversions that build version 800 geosets (glTF import, the
//! Reforged to classic conversion): weights as matrix groups, and geoset splitting at the
//! classic limits.

use std::collections::{BTreeSet, HashSet};

/// The most entries of a version 800 matrix group (what viewers skin with, and what real
/// files use).
pub(crate) const GROUP_ENTRIES: usize = 4;
#[cfg(feature = "gltf")]
/// The most matrix groups of one geoset (a vertex names its group in a byte).
pub(crate) const MAX_GROUPS: usize = 256;
#[cfg(feature = "gltf")]
/// The most vertices of one geoset (faces index them in 16 bits).
pub(crate) const MAX_VERTICES: usize = 65_535;

/// Largest-remainder rounding of `weights` (summing to 1) to integers summing to `total`.
pub(crate) fn apportion(weights: &[f32], total: u32) -> Vec<u32> {
    let raw: Vec<f64> = weights
        .iter()
        .map(|&w| f64::from(w) * f64::from(total))
        .collect();
    let mut out: Vec<u32> = raw.iter().map(|r| r.floor() as u32).collect();
    let mut left = total.saturating_sub(out.iter().sum());
    let mut order: Vec<usize> = (0..raw.len()).collect();
    order.sort_by(|&a, &b| {
        let fa = raw[a] - raw[a].floor();
        let fb = raw[b] - raw[b].floor();
        fb.total_cmp(&fa).then(a.cmp(&b))
    });
    for &i in order.iter().cycle().take(raw.len() * 2) {
        if left == 0 {
            break;
        }
        out[i] += 1;
        left -= 1;
    }
    out
}

/// The version 800 group nearest `pairs` (sorted heaviest first, summing to 1): equal
/// weights are their group, exactly; otherwise, of the groups of 1 to 4 entries, the one
/// whose equal shares differ least from the weights (largest difference of any bone,
/// then fewest entries). Also says whether the group weighs exactly as `pairs` do.
pub(crate) fn group_of(pairs: &[(usize, f32)]) -> (Vec<usize>, bool) {
    // Equal weights (a group from a Warcraft III model, exported): that group, exactly,
    // however many bones it has.
    let equal = pairs.len() > GROUP_ENTRIES
        && pairs
            .iter()
            .all(|p| (p.1 * pairs.len() as f32 - 1.0).abs() < 1e-4);
    if equal {
        let mut g: Vec<usize> = pairs.iter().map(|p| p.0).collect();
        g.sort_unstable();
        return (g, true);
    }
    let mut best: Option<(f32, Vec<usize>)> = None;
    for n in 1..=GROUP_ENTRIES {
        let w: Vec<f32> = pairs.iter().map(|p| p.1).collect();
        let counts = apportion(&w, n as u32);
        let err = pairs
            .iter()
            .zip(&counts)
            .map(|(p, &c)| (p.1 - c as f32 / n as f32).abs())
            .fold(0.0f32, f32::max);
        if best.as_ref().is_none_or(|b| err < b.0 - 1e-6) {
            let mut g = Vec::new();
            for (p, &c) in pairs.iter().zip(&counts) {
                for _ in 0..c {
                    g.push(p.0);
                }
            }
            g.sort_unstable();
            best = Some((err, g));
        }
    }
    let (err, g) = best.expect("one group at least");
    (g, err <= 1e-6)
}

/// How many matrix groups and vertices one geoset may hold.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Matrix groups.
    pub groups: usize,
    /// Vertices.
    pub vertices: usize,
}

#[cfg(feature = "gltf")]
/// What the format can address: [`MAX_GROUPS`] and [`MAX_VERTICES`].
pub(crate) const FORMAT_LIMITS: Limits = Limits {
    groups: MAX_GROUPS,
    vertices: MAX_VERTICES,
};

/// Vertex sets and triangles of each geoset a mesh of `nv` vertices becomes, where vertex
/// `v` needs the matrix groups `keys(v)`: all its vertices, in order, when they fit in one
/// geoset; else triangles packed in order until a geoset would hold more than `limits`
/// allow. Vertices no triangle uses are left out of a split.
pub(crate) fn split_by<K: Ord + Clone>(
    keys: impl Fn(u32) -> Vec<K>,
    tris: &[[u32; 3]],
    nv: usize,
    limits: Limits,
) -> Vec<(Vec<u32>, Vec<[u32; 3]>)> {
    let all: BTreeSet<K> = (0..nv as u32).flat_map(&keys).collect();
    if all.len() <= limits.groups && nv <= limits.vertices {
        return vec![((0..nv as u32).collect(), tris.to_vec())];
    }
    struct Chunk<K> {
        verts: Vec<u32>,
        seen: HashSet<u32>,
        groups: BTreeSet<K>,
        tris: Vec<[u32; 3]>,
    }
    let mut out = Vec::new();
    let mut cur: Chunk<K> = Chunk {
        verts: Vec::new(),
        seen: HashSet::new(),
        groups: BTreeSet::new(),
        tris: Vec::new(),
    };
    for t in tris {
        let new_v: Vec<u32> = t
            .iter()
            .copied()
            .filter(|v| !cur.seen.contains(v))
            .collect();
        let new_g: BTreeSet<K> = new_v
            .iter()
            .flat_map(|&v| keys(v))
            .filter(|k| !cur.groups.contains(k))
            .collect();
        if !cur.tris.is_empty()
            && (cur.groups.len() + new_g.len() > limits.groups
                || cur.verts.len() + new_v.len() > limits.vertices)
        {
            let done = std::mem::replace(
                &mut cur,
                Chunk {
                    verts: Vec::new(),
                    seen: HashSet::new(),
                    groups: BTreeSet::new(),
                    tris: Vec::new(),
                },
            );
            out.push((done.verts, done.tris));
        }
        for &v in t {
            if cur.seen.insert(v) {
                cur.verts.push(v);
                cur.groups.extend(keys(v));
            }
        }
        cur.tris.push(*t);
    }
    if !cur.tris.is_empty() {
        out.push((cur.verts, cur.tris));
    }
    out
}
