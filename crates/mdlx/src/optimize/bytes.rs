//! The bytes pass (see the [module docs](super)): what deflates smaller.
//!
//! A map stores its files deflated, and deflate finds repeated byte strings. The low bytes
//! of a float's mantissa are noise to it; a float rounded to a power-of-two grid has them
//! zero. So, each to a grid well inside its tolerance:
//! - vertex positions to a quarter of the bytes pass's share of the position bound, except
//!   a coordinate that is the model's smallest or largest on its axis (the model's box,
//!   hence its size and every tolerance drawn from it, stays the same);
//! - normals and tangents to 2^-12 (an angle below 2.1e-4 radians) or finer when the
//!   rotation bound asks;
//! - UVs to a quarter of the position bound in texture widths;
//! - the values and tangents of the keys of node, colour and texture-animation tracks to
//!   an eighth of their track's tolerance (see the keys pass).
//!
//! Other floats (pivots, extents, alpha, emitter parameters) are left as they are. Bytes
//! after a string's terminator are cleared: no reader shows them. A chunk whose declared
//! size ends before its last record's tracks (some exporters write lights so; the game
//! reads the record's own size) gets its true size: other readers stop at the declared
//! end and lose the tracks, or fail.

use super::keys::{Budget, Rule};
use super::{Changes, Ctx};
use crate::model::visit::{visit_tracks_mut, Owner, TrackVisitorMut};
use crate::model::{AnyTrack, Geoset, Model, Track, Tracks};

/// The largest power of two not above `x` (0 for anything not positive and finite).
fn grid(x: f32) -> f32 {
    if !(x.is_finite() && x > 0.0) {
        return 0.0;
    }
    2f32.powi(x.log2().floor() as i32)
}

/// `v` rounded to a multiple of `g` (unchanged when `g` is 0 or `v` too large for it).
fn round(v: f32, g: f32) -> f32 {
    if g == 0.0 || !v.is_finite() || (v / g).abs() >= (1 << 23) as f32 {
        return v;
    }
    let r = (v / g).round() * g;
    if r == 0.0 {
        0.0 // never -0.0
    } else {
        r
    }
}

/// Rounds every component of `v`; counts the floats that changed.
fn round_all<const N: usize>(v: &mut [f32; N], g: f32, n: &mut usize) {
    for x in v.iter_mut() {
        let r = round(*x, g);
        if r.to_bits() != x.to_bits() {
            *x = r;
            *n += 1;
        }
    }
}

/// The bytes pass's share of the position bound (the keys pass has the rest).
const BYTES_SHARE: f32 = 0.2;

pub(crate) fn run(model: &mut Model, ctx: &Ctx) -> Changes {
    let size = ctx.size.min(model.size());
    let mut vertices = 0;
    let mut kept_apart = 0;
    let mut directions = 0;
    let mut uvs = 0;
    // The model's box: coordinates on it stay.
    let bind = model.bind_extent();
    let (lo, hi) = (bind.min, bind.max);
    let gp = grid(ctx.scale * BYTES_SHARE * ctx.tol.position * size / 2.0);
    let gn = grid((ctx.scale * ctx.tol.rotation / 4.0).min(1.0 / 4096.0));
    let guv = grid(ctx.scale * ctx.tol.position / 4.0);
    for g in &mut model.geosets {
        let before = g.clone();
        let stored = g.vertices.clone();
        for v in &mut g.vertices {
            for k in 0..3 {
                if v[k] != lo[k] && v[k] != hi[k] {
                    let r = round(v[k], gp);
                    if r.to_bits() != v[k].to_bits() {
                        v[k] = r;
                        vertices += 1;
                    }
                }
            }
        }
        let tris = g.triangles().0;
        vertices -= keep_area(&mut g.vertices, &stored, &tris);
        for n in &mut g.normals {
            round_all(n, gn, &mut directions);
        }
        if let Some(t) = &mut g.tangents {
            for t in t.iter_mut() {
                let mut xyz = [t[0], t[1], t[2]];
                round_all(&mut xyz, gn, &mut directions);
                t[..3].copy_from_slice(&xyz);
            }
        }
        for set in &mut g.uv_sets {
            for uv in set.iter_mut() {
                round_all(uv, guv, &mut uvs);
            }
        }
        kept_apart += keep_apart(g, &before);
    }
    let mut keys = Keys {
        budget: Budget::new(model, ctx),
        changed: 0,
    };
    visit_tracks_mut(model, &mut keys);
    // Keys rounded to equal values may now be redundant.
    let redundant = crate::check::fix::thin(model);
    let strings = clear_padding(model);
    // A chunk whose declared size leaves its last record's tracks outside (the "LITE sized
    // too small" files): written with its true size, which every reader takes.
    let mut sized = 0;
    for c in &mut model.layout.chunks {
        if let crate::model::LayoutEntry::Known {
            overflow_tracks, ..
        } = c
        {
            if *overflow_tracks > 0 {
                *overflow_tracks = 0;
                sized += 1;
            }
        }
    }
    [
        ("vertex coordinates rounded", vertices),
        ("normal and tangent components rounded", directions),
        ("UV components rounded", uvs),
        ("vertices left unrounded to stay apart", kept_apart),
        ("key components rounded", keys.changed),
        ("redundant keys removed", redundant),
        ("strings with bytes after their end cleared", strings),
        ("chunks sized to hold their records", sized),
    ]
    .into_iter()
    .filter(|(_, n)| *n > 0)
    .collect()
}

/// Whether triangle `t` of `v` has no area, as `check` sees it (a cross product of exactly
/// zero).
fn flat(v: &[[f32; 3]], t: [u16; 3]) -> bool {
    let [a, b, c] = t.map(|i| v.get(usize::from(i)).copied().unwrap_or([0.0; 3]));
    crate::anim::math::no_area(a, b, c)
}

/// Puts back the stored position of the corners of every triangle that rounding left with
/// no area; returns how many coordinates went back.
fn keep_area(v: &mut [[f32; 3]], stored: &[[f32; 3]], tris: &[[u16; 3]]) -> usize {
    let mut back = 0;
    for _ in 0..8 {
        let mut changed = false;
        for &t in tris {
            if flat(v, t) && !flat(stored, t) {
                for i in t {
                    let i = usize::from(i);
                    if let (Some(x), Some(s)) = (v.get_mut(i), stored.get(i)) {
                        back += (0..3).filter(|&k| x[k].to_bits() != s[k].to_bits()).count();
                        *x = *s;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    back
}

/// Everything that makes vertex `v` of `g` itself, by bits.
fn vertex_bits(g: &Geoset, v: usize) -> Vec<u32> {
    let mut k = Vec::new();
    surface_bits(g, v, &mut k);
    k.push(g.vertex_groups.get(v).map_or(u32::MAX, |&x| u32::from(x)));
    if let Some(s) = g.skin.as_deref().and_then(|s| s.get(v * 8..v * 8 + 8)) {
        k.extend(s.iter().map(|&x| u32::from(x)));
    }
    k
}

/// The bits of vertex `v` of `g` that its surface is made of: position, normal, every UV
/// set's coordinates and tangent, in that order, appended to `k`.
pub(super) fn surface_bits(g: &Geoset, v: usize, k: &mut Vec<u32>) {
    k.extend(g.vertices[v].iter().map(|x| x.to_bits()));
    if let Some(n) = g.normals.get(v) {
        k.extend(n.iter().map(|x| x.to_bits()));
    }
    for set in &g.uv_sets {
        if let Some(uv) = set.get(v) {
            k.extend(uv.iter().map(|x| x.to_bits()));
        }
    }
    if let Some(t) = g.tangents.as_ref().and_then(|t| t.get(v)) {
        k.extend(t.iter().map(|x| x.to_bits()));
    }
}

/// Puts back, as `before` had them, the vertices that rounding made equal to another vertex
/// of `g` they differed from: two vertices that became one would weld in the geometry pass
/// and change which original vertices the triangles name, and a second run would then find
/// something to do. Returns how many vertices went back.
fn keep_apart(g: &mut Geoset, before: &Geoset) -> usize {
    let mut back = 0;
    for _ in 0..4 {
        let mut seen: std::collections::HashMap<Vec<u32>, usize> = Default::default();
        let mut restore = Vec::new();
        for v in 0..g.vertices.len() {
            match seen.entry(vertex_bits(g, v)) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    if vertex_bits(before, *e.get()) != vertex_bits(before, v) {
                        restore.push(v);
                    }
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(v);
                }
            }
        }
        if restore.is_empty() {
            break;
        }
        for v in restore {
            back += 1;
            g.vertices[v] = before.vertices[v];
            if let (Some(n), Some(b)) = (g.normals.get_mut(v), before.normals.get(v)) {
                *n = *b;
            }
            for (set, bset) in g.uv_sets.iter_mut().zip(&before.uv_sets) {
                if let (Some(x), Some(b)) = (set.get_mut(v), bset.get(v)) {
                    *x = *b;
                }
            }
            if let (Some(t), Some(b)) = (g.tangents.as_mut(), before.tangents.as_ref()) {
                if let (Some(x), Some(y)) = (t.get_mut(v), b.get(v)) {
                    *x = *y;
                }
            }
        }
    }
    back
}

struct Keys {
    budget: Budget,
    changed: usize,
}

fn round_track<const N: usize>(t: &mut Track<[f32; N]>, g: f32, n: &mut usize) {
    for k in &mut t.keys {
        round_all(&mut k.value, g, n);
        round_all(&mut k.in_tan, g, n);
        round_all(&mut k.out_tan, g, n);
    }
}

/// Whether two neighbouring keys of a rotation track are nearly half a turn apart (a dot
/// product within 0.01 of 0): which way a slerp turns between them hangs on the sign of
/// that dot product, which rounding could flip, and players break a near tie differently
/// (three.js against this crate's sampler, on a corpus model). Such a track is not rounded.
fn near_half_turns(t: &Track<[f32; 4]>) -> bool {
    let unit = |q: [f32; 4]| {
        let q = q.map(f64::from);
        let l = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        q.map(|x| x / l)
    };
    t.keys.windows(2).any(|w| {
        let (a, b) = (unit(w[0].value), unit(w[1].value));
        let dot: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        dot.is_nan() || dot.abs() < 0.01
    })
}

impl TrackVisitorMut for Keys {
    fn tracks(&mut self, owner: Owner, at: &dyn Fn() -> String, tracks: &mut Tracks) {
        let name = at();
        for a in &mut tracks.0 {
            let g = match self.budget.rule(owner, &name, a.tag) {
                Rule::Exact => continue,
                Rule::Distance(t) => grid(t / 8.0),
                // A quaternion component off by e turns it by about 2e.
                Rule::Angle(t) => grid(t / 16.0),
            };
            match &mut a.track {
                AnyTrack::Vector3(t) => round_track(t, g, &mut self.changed),
                AnyTrack::Quaternion(t) if !near_half_turns(t) => {
                    round_track(t, g, &mut self.changed)
                }
                AnyTrack::Quaternion(_) => {}
                AnyTrack::Float(_) | AnyTrack::Integer(_) => {}
            }
        }
    }
    fn slot(&mut self, _: Owner, _: &dyn Fn() -> String, _: &mut Track<u32>) {}
}

/// Clears the bytes after the terminator of the model's strings; counts the strings.
fn clear_padding(model: &mut Model) -> usize {
    let mut n = 0;
    let mut clear = |s: &mut crate::model::FixedString| {
        if s.as_bytes().len() != s.text_bytes().len() {
            *s = crate::model::FixedString::from_field(s.text_bytes());
            n += 1;
        }
    };
    clear(&mut model.info.name);
    for s in &mut model.sequences {
        clear(&mut s.name);
    }
    for t in &mut model.textures {
        clear(&mut t.path);
    }
    for m in &mut model.materials {
        clear(&mut m.shader);
    }
    for g in &mut model.geosets {
        clear(&mut g.lod_name);
    }
    for node in model.nodes_mut() {
        clear(&mut node.name);
    }
    for c in &mut model.cameras {
        clear(&mut c.name);
    }
    n
}
