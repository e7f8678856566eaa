//! How far an optimized model is from its original, measured with the animation sampler.
//!
//! The moments: for every sequence, its start and end, every time inside it at which any
//! track of the original has a key, and the midpoint between each two consecutive such
//! times; for every global sequence the same over its length, with no sequence playing.
//! At each moment both models are posed ([`crate::anim`]) and compared:
//! - every vertex of the result against the original vertex it stands for (the passes keep a
//!   vertex map): a bound on how far its posed position and its texture-animated UV
//!   moved, from the change of the world matrices of the nodes that move it (see
//!   [`Deviation::position`]; a bound costs a few corners per node where posing costs every
//!   vertex, and it is never below the true distance);
//! - whether its geoset shows, the geoset's alpha and colour and its most opaque layer's
//!   alpha;
//! - the world position and orientation of every attachment and emitter.
//!
//! A vertex must be moved by the same nodes with the same weights as its original.
//!
//! Once, at rest: the drawn triangles (each named by the original vertices' attributes and
//! its geoset's material and textures) must be the same set, and every vertex's normal and
//! UVs within the tolerance of its original's.

use super::{Ctx, Tolerance};
use crate::anim::math::{transform_point, Mat4, Vec3, IDENTITY};
use crate::anim::{geoset_alphas, AnimTime, NodeKind, Skeleton};
use crate::model::{Geoset, Model};
use std::collections::BTreeSet;

/// For each geoset of a changed model, for each of its vertices: the original geoset and
/// vertex it stands for. Passes that move vertices keep it up to date.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct VertexMap(pub(crate) Vec<Vec<(u32, u32)>>);

impl VertexMap {
    /// Every vertex standing for itself.
    pub(crate) fn identity(model: &Model) -> VertexMap {
        VertexMap(
            model
                .geosets
                .iter()
                .enumerate()
                .map(|(g, geoset)| {
                    (0..geoset.vertices.len() as u32)
                        .map(|v| (g as u32, v))
                        .collect()
                })
                .collect(),
        )
    }
}

/// An optimized model against its original.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Deviation {
    /// Moments compared.
    pub moments: usize,
    /// The farthest a posed vertex may have moved, as a fraction of the original's size: an
    /// upper bound, not a sample. For each node, the change of its world matrix at the
    /// farthest corner of the box of the vertices it moves (the most an affine change moves
    /// any point of a box), plus its stretch times the farthest such a vertex moved at
    /// rest; a vertex blends its nodes with weights that add up to 1, so it moves no more
    /// than its worst node.
    pub position: f32,
    /// The farthest a vertex's UVs moved (in texture widths): at rest for every UV set,
    /// and for the first, texture-animated, an upper bound at every moment as for
    /// positions.
    pub uv: f32,
    /// The largest angle between a vertex's normal and its original's, at rest (radians).
    pub normal: f32,
    /// The largest change of a geoset's alpha or of its most opaque layer's alpha.
    pub alpha: f32,
    /// The largest change of a geoset animation's colour channel.
    pub color: f32,
    /// (moment, geoset) pairs where a geoset of the result shows and its original does not,
    /// or the other way round.
    pub visibility: usize,
    /// The farthest an attachment or emitter moved, as a fraction of the model's size.
    pub node_position: f32,
    /// The largest turn of an attachment or emitter (radians, from its world matrix).
    pub node_rotation: f32,
    /// Vertices of the result that stand for no vertex of the original.
    pub unmatched: usize,
    /// Triangles drawn by one model and not the other.
    pub triangles: usize,
    /// Whether the two models have different attachments or emitters.
    pub nodes_differ: bool,
}

/// Rounding room: a value computed through different float paths may differ in its last
/// bits even when nothing moved.
const SLACK: f32 = 1e-5;

impl Deviation {
    /// Why this deviation breaks `tol`, if it does.
    pub fn exceeds(&self, tol: &Tolerance) -> Option<String> {
        let over = |what: &str, got: f32, max: f32| {
            (got > max + SLACK).then(|| format!("{what} moved {got:.6}, past {max:.6}"))
        };
        if self.unmatched > 0 {
            return Some(format!(
                "{} vertices stand for no original vertex",
                self.unmatched
            ));
        }
        if self.triangles > 0 {
            return Some(format!("{} drawn triangles differ", self.triangles));
        }
        if self.nodes_differ {
            return Some("the attachments or emitters differ".into());
        }
        if self.visibility > 0 {
            return Some(format!(
                "geoset visibility differs at {} (moment, geoset) pairs",
                self.visibility
            ));
        }
        over("a posed vertex", self.position, tol.position)
            .or_else(|| over("an attachment or emitter", self.node_position, tol.position))
            .or_else(|| {
                over(
                    "an attachment or emitter's orientation",
                    self.node_rotation,
                    tol.rotation,
                )
            })
            .or_else(|| over("a normal", self.normal, tol.rotation))
            .or_else(|| over("a UV", self.uv, tol.position))
            .or_else(|| over("an alpha", self.alpha, tol.alpha))
            .or_else(|| over("a colour", self.color, tol.color))
    }
}

/// Whether a node's world transform is compared: the points a game attaches to or emits
/// from.
fn watched(kind: NodeKind) -> bool {
    matches!(
        kind,
        NodeKind::Attachment
            | NodeKind::ParticleEmitter
            | NodeKind::ParticleEmitter2
            | NodeKind::PopcornEmitter
            | NodeKind::RibbonEmitter
    )
}

/// A model at one moment, as far as the measure compares it.
struct Frame {
    /// Every node's world matrix, in skeleton order.
    worlds: Vec<Mat4>,
    /// Each geoset's (alpha, colour, most opaque layer's alpha).
    alphas: Vec<(f32, Vec3, f32)>,
    /// Each geoset's texture-animation matrix for its first UV set, if it has one.
    uv: Vec<Option<Mat4>>,
}

fn frame(model: &Model, skeleton: &Skeleton, at: AnimTime) -> Frame {
    let clock = skeleton.clock(at);
    let pose = skeleton.pose_at(&clock, None);
    let worlds = pose.nodes.iter().map(|p| p.world).collect();
    let alphas = (0..model.geosets.len())
        .map(|g| geoset_alphas(model, &clock, g))
        .collect();
    let uv = model
        .geosets
        .iter()
        .map(|g| uv_matrix(model, &clock, g))
        .collect();
    Frame { worlds, alphas, uv }
}

/// The texture animation of a geoset's first layer at the time of `clock`, as the sampler
/// applies it to UVs ([`crate::anim::mesh`]).
fn uv_matrix(model: &Model, clock: &crate::anim::Clock, g: &Geoset) -> Option<Mat4> {
    use crate::anim::math::{qnormalize, trs_about, QUAT_IDENTITY};
    use crate::spec::track::{KTAR, KTAS, KTAT};
    let layer = model
        .materials
        .get(g.material_id as usize)?
        .layers
        .first()?;
    let ta = model
        .texture_animations
        .get(usize::try_from(layer.texture_animation_id).ok()?)?;
    let t = clock.sample(ta.tracks.vector3(KTAT), [0.0; 3]);
    let r = qnormalize(clock.sample(ta.tracks.quaternion(KTAR), QUAT_IDENTITY));
    let s = clock.sample(ta.tracks.vector3(KTAS), [1.0; 3]);
    Some(trs_about(t, r, s, [0.0; 3]))
}

/// The most floats of posed originals kept in memory.
const CACHE_FLOATS: usize = 16 << 20;

/// A vertex named by everything that decides how it is drawn: position, normal, UV sets,
/// tangent (all by bits) and the nodes and weights that move it.
type VertexKey = Vec<u32>;

/// The nodes (skeleton indices) that move each vertex of `g` and their weights, as the
/// sampler blends them ([`crate::anim::mesh`]); empty for a vertex bound to no node.
fn bindings(skeleton: &Skeleton, g: &Geoset) -> Vec<Vec<(u32, f32)>> {
    let n = g.vertices.len();
    let node = |id: u32| skeleton.by_object_id(id).map(|i| i as u32);
    if let Some(s) = g.skin.as_deref().filter(|s| s.len() == n * 8) {
        return (0..n)
            .map(|v| {
                let b = &s[v * 8..v * 8 + 8];
                let mut out: Vec<(u32, f32)> = (0..4)
                    .filter(|&k| b[4 + k] > 0)
                    .filter_map(|k| {
                        let id = *g.matrix_indices.get(b[k] as usize)?;
                        Some((node(id)?, f32::from(b[4 + k]) / 255.0))
                    })
                    .collect();
                out.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
                out
            })
            .collect();
    }
    let groups: Vec<Vec<(u32, f32)>> = g
        .matrix_groups()
        .into_iter()
        .map(|ids| {
            let found: Vec<u32> = ids.iter().filter_map(|&id| node(id)).collect();
            let w = 1.0 / found.len().max(1) as f32;
            let mut out: Vec<(u32, f32)> = found.into_iter().map(|i| (i, w)).collect();
            out.sort_by_key(|a| a.0);
            out
        })
        .collect();
    (0..n)
        .map(|v| {
            g.vertex_groups
                .get(v)
                .and_then(|&grp| groups.get(grp as usize).cloned())
                .unwrap_or_default()
        })
        .collect()
}

fn vertex_key(g: &Geoset, v: usize, binding: &[(u32, f32)]) -> VertexKey {
    let mut k: Vec<u32> = Vec::with_capacity(16);
    super::bytes::surface_bits(g, v, &mut k);
    k.push(u32::MAX);
    k.extend(binding.iter().flat_map(|&(n, w)| [n, w.to_bits()]));
    k
}

/// What a geoset's triangles are drawn with: its material's layers (textures by path) and
/// the geoset's own drawing fields.
fn geoset_key(model: &Model, g: &Geoset) -> String {
    let mut out = format!(
        "{} {} {} {:?}|",
        g.selection_flags, g.selection_group, g.lod, g.lod_name
    );
    if let Some(m) = model.materials.get(g.material_id as usize) {
        out += &format!("{} {} {:?}|", m.priority_plane, m.flags, m.shader);
        for l in &m.layers {
            out += &format!(
                "{} {} {} {} {}",
                l.filter_mode,
                l.flags,
                l.coord_id,
                l.shader_type_id,
                l.texture_animation_id >= 0
            );
            let ids = std::iter::once((u32::MAX, l.texture_id))
                .chain(l.texture_slots.iter().map(|s| (s.role, s.texture_id)));
            for (role, id) in ids {
                match usize::try_from(id).ok().and_then(|i| model.textures.get(i)) {
                    Some(t) => {
                        out += &format!(" {role}:{:?}/{}/{}", t.path, t.replaceable_id, t.flags)
                    }
                    None => out += &format!(" {role}:#{id}"),
                }
            }
            out.push('|');
        }
    } else {
        out += &format!("no material {}", g.material_id);
    }
    out
}

/// A box, grown point by point.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    lo: Vec3,
    hi: Vec3,
}

impl Bounds {
    const EMPTY: Bounds = Bounds {
        lo: [f32::MAX; 3],
        hi: [f32::MIN; 3],
    };

    fn add(&mut self, p: Vec3) {
        if p.iter().all(|c| c.is_finite()) {
            for (k, c) in p.into_iter().enumerate() {
                self.lo[k] = self.lo[k].min(c);
                self.hi[k] = self.hi[k].max(c);
            }
        }
    }

    fn is_empty(&self) -> bool {
        self.lo[0] > self.hi[0]
    }

    /// The largest `|m * c|` over the box's corners: for an affine `m` the largest over any
    /// point inside the box (the length of an affine map is convex).
    fn reach(&self, m: &Mat4) -> f32 {
        let mut worst = 0.0f32;
        for i in 0..8 {
            let c = [
                if i & 1 == 0 { self.lo[0] } else { self.hi[0] },
                if i & 2 == 0 { self.lo[1] } else { self.hi[1] },
                if i & 4 == 0 { self.lo[2] } else { self.hi[2] },
            ];
            worst = worst.max(length(transform_point(m, c)));
        }
        worst
    }
}

fn length(v: Vec3) -> f32 {
    let l = v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt() as f32;
    if l.is_nan() {
        f32::INFINITY
    } else {
        l
    }
}

/// The bound on how far a point of box `bx`, moved by at most `moved` at rest, goes when
/// its matrix changes from `a` to `b`. Bit-equal matrices and points that did not move add
/// nothing (so a model with a non-finite matrix still measures 0 against itself).
fn change(bx: &Bounds, a: &Mat4, b: &Mat4, moved: f32) -> f32 {
    let same = a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
    let turned = if same { 0.0 } else { bx.reach(&minus(b, a)) };
    let shifted = if moved > 0.0 { stretch(b) * moved } else { 0.0 };
    turned + shifted
}

fn minus(a: &Mat4, b: &Mat4) -> Mat4 {
    std::array::from_fn(|i| a[i] - b[i])
}

/// The Frobenius norm of the linear part of `m`: at least how far it can stretch a vector.
fn stretch(m: &Mat4) -> f32 {
    let s: f32 = [0, 1, 2, 4, 5, 6, 8, 9, 10]
        .iter()
        .map(|&i| m[i] * m[i])
        .sum();
    s.sqrt()
}

/// The original, prepared for measuring changed models against it.
pub(crate) struct Reference<'m> {
    model: &'m Model,
    skeleton: Skeleton<'m>,
    moments: Vec<AnimTime>,
    /// The original at every moment, when that fits in [`CACHE_FLOATS`].
    cache: Option<Vec<Frame>>,
    /// Each original vertex's nodes and weights.
    bindings: Vec<Vec<Vec<(u32, f32)>>>,
    /// Each original vertex's key.
    keys: Vec<Vec<VertexKey>>,
    /// The triangles the original draws.
    triangles: BTreeSet<(String, [VertexKey; 3])>,
    /// The nodes' object ids, in skeleton order (a result must have the same).
    node_ids: Vec<u32>,
    size: f32,
}

/// A triangle of vertex keys in a canonical rotation (winding kept), or `None` when two of
/// its corners are the same vertex.
fn canonical(t: [VertexKey; 3]) -> Option<[VertexKey; 3]> {
    if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
        return None;
    }
    let first = (0..3).min_by(|&a, &b| t[a].cmp(&t[b]))?;
    let [a, b, c] = t;
    Some(match first {
        0 => [a, b, c],
        1 => [b, c, a],
        _ => [c, a, b],
    })
}

/// What the per-moment comparison needs of a result, prepared once.
struct Prepared {
    /// Per node (skeleton index): the box of the original positions of the vertices it
    /// moves, and the farthest such a vertex of the result was moved at rest.
    nodes: Vec<(Bounds, f32)>,
    /// The farthest a vertex bound to no node was moved at rest.
    unbound: f32,
    /// Per geoset of the result: the original geosets its vertices come from.
    sources: Vec<Vec<usize>>,
    /// Per geoset of the result: the box of its first UV set, and the farthest a UV moved
    /// at rest.
    uvs: Vec<(Bounds, f32)>,
}

impl<'m> Reference<'m> {
    pub(crate) fn new(model: &'m Model, ctx: &Ctx) -> Self {
        let skeleton = Skeleton::new(model);
        let moments = super::moments::moments(model);
        let per_frame = skeleton.nodes.len() * 16 + model.geosets.len() * 21;
        let cache = (moments.len().saturating_mul(per_frame) <= CACHE_FLOATS).then(|| {
            moments
                .iter()
                .map(|&at| frame(model, &skeleton, at))
                .collect()
        });
        let bindings: Vec<_> = model
            .geosets
            .iter()
            .map(|g| bindings(&skeleton, g))
            .collect();
        let keys: Vec<Vec<VertexKey>> = model
            .geosets
            .iter()
            .zip(&bindings)
            .map(|(g, b)| {
                (0..g.vertices.len())
                    .map(|v| vertex_key(g, v, &b[v]))
                    .collect()
            })
            .collect();
        let mut triangles = BTreeSet::new();
        for (gi, g) in model.geosets.iter().enumerate() {
            let gkey = geoset_key(model, g);
            for t in g.triangles().0 {
                let k = t.map(|v| keys[gi].get(usize::from(v)).cloned().unwrap_or_default());
                if let Some(k) = canonical(k) {
                    triangles.insert((gkey.clone(), k));
                }
            }
        }
        let node_ids = skeleton.nodes.iter().map(|n| n.node.object_id).collect();
        Reference {
            model,
            skeleton,
            moments,
            cache,
            bindings,
            keys,
            triangles,
            node_ids,
            size: ctx.size,
        }
    }

    pub(crate) fn measure(&self, candidate: &Model, map: &VertexMap) -> Deviation {
        let mut d = Deviation {
            moments: self.moments.len(),
            ..Deviation::default()
        };
        let skeleton = Skeleton::new(candidate);
        let ids: Vec<u32> = skeleton.nodes.iter().map(|n| n.node.object_id).collect();
        let kinds = |s: &Skeleton| -> Vec<NodeKind> { s.nodes.iter().map(|n| n.kind).collect() };
        if ids != self.node_ids || kinds(&skeleton) != kinds(&self.skeleton) {
            d.nodes_differ = true;
            return d;
        }
        let Some(prepared) = self.prepare(candidate, &skeleton, map, &mut d) else {
            return d;
        };
        for (i, &at) in self.moments.iter().enumerate() {
            let computed;
            let a = match &self.cache {
                Some(c) => &c[i],
                None => {
                    computed = frame(self.model, &self.skeleton, at);
                    &computed
                }
            };
            let b = frame(candidate, &skeleton, at);
            self.compare(a, &b, &prepared, &mut d);
        }
        d
    }

    /// The checks at rest (vertex map, bindings, triangles, normals, UVs), and what the
    /// moments need; `None` when the result already fails.
    fn prepare(
        &self,
        candidate: &Model,
        skeleton: &Skeleton,
        map: &VertexMap,
        d: &mut Deviation,
    ) -> Option<Prepared> {
        let original = self.model;
        let source = |g: usize, v: usize| -> Option<(usize, usize)> {
            let &(og, ov) = map.0.get(g)?.get(v)?;
            let (og, ov) = (og as usize, ov as usize);
            (original.geosets.get(og)?.vertices.len() > ov).then_some((og, ov))
        };
        let mut p = Prepared {
            nodes: vec![(Bounds::EMPTY, 0.0); skeleton.nodes.len()],
            unbound: 0.0,
            sources: Vec::with_capacity(candidate.geosets.len()),
            uvs: Vec::with_capacity(candidate.geosets.len()),
        };
        for (g, geoset) in candidate.geosets.iter().enumerate() {
            let bound = bindings(skeleton, geoset);
            let mut sources = BTreeSet::new();
            let mut uv_box = Bounds::EMPTY;
            let mut uv_moved = 0.0f32;
            for (v, bound) in bound.iter().enumerate() {
                let Some((og, ov)) = source(g, v) else {
                    d.unmatched += 1;
                    continue;
                };
                sources.insert(og);
                let o = &original.geosets[og];
                let was = &self.bindings[og][ov];
                let same = was.len() == bound.len()
                    && was
                        .iter()
                        .zip(bound)
                        .all(|(a, b)| a.0 == b.0 && (a.1 - b.1).abs() <= 1e-6);
                if !same {
                    d.unmatched += 1;
                    continue;
                }
                let moved = distance(geoset.vertices[v], o.vertices[ov]);
                if was.is_empty() {
                    p.unbound = p.unbound.max(moved);
                }
                for &(n, _) in was {
                    let (bx, far) = &mut p.nodes[n as usize];
                    bx.add(o.vertices[ov]);
                    *far = far.max(moved);
                }
                if let (Some(a), Some(b)) = (geoset.normals.get(v), o.normals.get(ov)) {
                    d.normal = d.normal.max(angle(*a, *b));
                }
                for (k, (sa, sb)) in geoset.uv_sets.iter().zip(&o.uv_sets).enumerate() {
                    if let (Some(a), Some(b)) = (sa.get(v), sb.get(ov)) {
                        let m = (a[0] - b[0]).abs().max((a[1] - b[1]).abs());
                        d.uv = d.uv.max(m);
                        if k == 0 {
                            uv_box.add([b[0], b[1], 0.0]);
                            uv_moved = uv_moved.max(m);
                        }
                    }
                }
            }
            p.sources.push(sources.into_iter().collect());
            p.uvs.push((uv_box, uv_moved));
        }
        if d.unmatched > 0 {
            return None;
        }
        // Triangles, named by the original vertices they stand for.
        let mut triangles = BTreeSet::new();
        for (g, geoset) in candidate.geosets.iter().enumerate() {
            let gkey = geoset_key(candidate, geoset);
            for t in geoset.triangles().0 {
                let k = t.map(|v| {
                    source(g, usize::from(v))
                        .map(|(og, ov)| self.keys[og][ov].clone())
                        .unwrap_or_default()
                });
                if let Some(k) = canonical(k) {
                    triangles.insert((gkey.clone(), k));
                }
            }
        }
        d.triangles = self.triangles.symmetric_difference(&triangles).count();
        d.position = p.unbound / self.size;
        Some(p)
    }

    /// One moment: a bound on every posed vertex (see [`Deviation::position`]), visibility,
    /// alphas, colours, animated UVs, attachments and emitters.
    fn compare(&self, a: &Frame, b: &Frame, p: &Prepared, d: &mut Deviation) {
        let inv = 1.0 / self.size;
        for (n, (bx, far)) in p.nodes.iter().enumerate() {
            if bx.is_empty() {
                continue;
            }
            let (wa, wb) = (&a.worlds[n], &b.worlds[n]);
            let e = change(bx, wa, wb, *far);
            d.position = d.position.max(e * inv);
        }
        for (g, sources) in p.sources.iter().enumerate() {
            let (alpha, color, layer) = b.alphas[g];
            let shows = alpha > 0.0 && layer > 0.0;
            for &og in sources {
                let (oa, oc, ol) = a.alphas[og];
                if (oa > 0.0 && ol > 0.0) != shows {
                    d.visibility += 1;
                }
                d.alpha = d.alpha.max((oa - alpha).abs()).max((ol - layer).abs());
                for k in 0..3 {
                    d.color = d.color.max((oc[k] - color[k]).abs());
                }
                let (bx, moved) = p.uvs[g];
                if bx.is_empty() {
                    continue;
                }
                let e = match (&a.uv[og], &b.uv[g]) {
                    (None, None) => 0.0,
                    (x, y) => {
                        let x = x.unwrap_or(IDENTITY);
                        let y = y.unwrap_or(IDENTITY);
                        change(&bx, &x, &y, moved)
                    }
                };
                d.uv = d.uv.max(e);
            }
        }
        for (n, node) in self.skeleton.nodes.iter().enumerate() {
            if watched(node.kind) {
                let (wa, wb) = (&a.worlds[n], &b.worlds[n]);
                let pa = transform_point(wa, node.pivot);
                let pb = transform_point(wb, node.pivot);
                d.node_position = d.node_position.max(distance(pa, pb) * inv);
                d.node_rotation = d.node_rotation.max(turn(wa, wb));
            }
        }
    }
}

fn distance(a: Vec3, b: Vec3) -> f32 {
    let d = (0..3)
        .map(|k| f64::from(a[k] - b[k]).powi(2))
        .sum::<f64>()
        .sqrt() as f32;
    if d.is_nan() {
        // Both NaN in the same place is no change; anything else is.
        if (0..3).all(|k| a[k].to_bits() == b[k].to_bits()) {
            0.0
        } else {
            f32::INFINITY
        }
    } else {
        d
    }
}

/// The angle between two directions (a zero or non-finite one compared by its bits). In
/// f64 and from the chord between the unit directions: `acos` of an f32 dot product cannot
/// tell angles below about 3e-4 radians from none.
fn angle(a: Vec3, b: Vec3) -> f32 {
    let unit = |v: Vec3| {
        let v = v.map(f64::from);
        let l = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        (l > 0.0 && l.is_finite()).then(|| v.map(|x| x / l))
    };
    match (unit(a), unit(b)) {
        (Some(a), Some(b)) => {
            let chord = super::chord(&a, &b);
            (2.0 * (chord / 2.0).min(1.0).asin()) as f32
        }
        _ => {
            let same = a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits());
            if same {
                0.0
            } else {
                f32::INFINITY
            }
        }
    }
}

/// How far the axes of two world matrices turned: the largest change of a column, relative
/// to its length (about the angle, in radians, for small turns).
fn turn(a: &Mat4, b: &Mat4) -> f32 {
    let mut worst = 0.0f32;
    for c in 0..3 {
        let ca = [a[c * 4], a[c * 4 + 1], a[c * 4 + 2]];
        let cb = [b[c * 4], b[c * 4 + 1], b[c * 4 + 2]];
        let len = ca.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
        worst = worst.max(distance(ca, cb) / len);
    }
    worst
}

/// `candidate` measured against `original` when both have the same geosets with the same
/// vertex counts (what an optimizer that changes no geometry writes): each vertex stands
/// for the vertex of the same index. `None` when the geosets differ in number or size.
pub fn compare(original: &Model, candidate: &Model) -> Option<Deviation> {
    let same = original.geosets.len() == candidate.geosets.len()
        && original
            .geosets
            .iter()
            .zip(&candidate.geosets)
            .all(|(a, b)| a.vertices.len() == b.vertices.len());
    if !same {
        return None;
    }
    let ctx = Ctx {
        tol: Tolerance::default(),
        size: original.size(),
        scale: 1.0,
    };
    Some(Reference::new(original, &ctx).measure(candidate, &VertexMap::identity(original)))
}
