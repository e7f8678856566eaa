//! How far an optimized model is from its original, measured with the animation sampler.
//!
//! The moments: for every sequence, its start and end, every time inside it at which any
//! track of the original has a key, and the midpoint between each two consecutive such
//! times; for every global sequence the same over its length, with no sequence playing.
//! At each moment both models are posed ([`crate::anim`]) and compared:
//! - every vertex of the result against the original vertex it stands for (the passes keep a
//!   [`VertexMap`]): its posed position and its texture-animated UV;
//! - whether its geoset shows, the geoset's alpha and colour and its most opaque layer's
//!   alpha;
//! - the world position and orientation of every attachment and emitter.
//!
//! Once, at rest: the drawn triangles (each named by the original vertices' attributes and
//! its geoset's material and textures) must be the same set, and every vertex's normal and
//! UVs within the tolerance of its original's.

use super::{Ctx, Tolerance};
use crate::anim::math::{transform_point, Mat4, Vec3};
use crate::anim::{posed_geosets, AnimTime, NodeKind, PosedGeoset, Skeleton};
use crate::model::{Geoset, Model, Track};
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

/// The size of a model: the diagonal of the box around its geosets' vertices in the bind
/// pose (1 for a model without vertices).
pub fn model_size(model: &Model) -> f32 {
    let mut lo = [f32::MAX; 3];
    let mut hi = [f32::MIN; 3];
    for v in model.geosets.iter().flat_map(|g| &g.vertices) {
        if v.iter().all(|c| c.is_finite()) {
            for k in 0..3 {
                lo[k] = lo[k].min(v[k]);
                hi[k] = hi[k].max(v[k]);
            }
        }
    }
    let d = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f32>().sqrt();
    if d.is_finite() && d > 0.0 {
        d
    } else {
        1.0
    }
}

/// An optimized model against its original.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Deviation {
    /// Moments compared.
    pub moments: usize,
    /// The farthest a posed vertex moved, as a fraction of the original's size.
    pub position: f32,
    /// The farthest a vertex's texture-animated first UV moved (in texture widths).
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

/// The moments to compare at: (sequence, ms into it, ms on the global clock).
fn moments(model: &Model) -> Vec<AnimTime> {
    let mut per_sequence: Vec<BTreeSet<i64>> = vec![BTreeSet::new(); model.sequences.len()];
    let mut per_global: Vec<BTreeSet<i64>> = vec![BTreeSet::new(); model.global_sequences.len()];
    for (i, s) in model.sequences.iter().enumerate() {
        per_sequence[i].insert(i64::from(s.interval[0]));
        per_sequence[i].insert(i64::from(s.interval[1]));
    }
    for (g, &len) in model.global_sequences.iter().enumerate() {
        per_global[g].insert(0);
        per_global[g].insert(i64::from(len));
    }
    for_each_track_times(model, &mut |gid, times| match usize::try_from(gid) {
        Ok(g) => {
            if let (Some(set), Some(&len)) = (per_global.get_mut(g), model.global_sequences.get(g))
            {
                set.extend(
                    times
                        .iter()
                        .map(|&t| i64::from(t))
                        .filter(|&t| (0..=i64::from(len)).contains(&t)),
                );
            }
        }
        Err(_) => {
            for (i, s) in model.sequences.iter().enumerate() {
                let (lo, hi) = (i64::from(s.interval[0]), i64::from(s.interval[1]));
                per_sequence[i].extend(
                    times
                        .iter()
                        .map(|&t| i64::from(t))
                        .filter(|&t| t >= lo && t <= hi),
                );
            }
        }
    });
    let with_midpoints = |set: &BTreeSet<i64>| -> Vec<f64> {
        let v: Vec<i64> = set.iter().copied().collect();
        let mut out = Vec::with_capacity(v.len() * 2);
        for (k, &t) in v.iter().enumerate() {
            out.push(t as f64);
            if let Some(&n) = v.get(k + 1) {
                out.push((t as f64 + n as f64) / 2.0);
            }
        }
        out
    };
    let mut out = vec![AnimTime::new(None, 0.0)];
    for (i, set) in per_sequence.iter().enumerate() {
        let start = f64::from(model.sequences[i].interval[0]);
        for t in with_midpoints(set) {
            out.push(AnimTime::new(Some(i), t - start));
        }
    }
    for set in &per_global {
        for t in with_midpoints(set) {
            out.push(AnimTime {
                sequence: None,
                elapsed_ms: 0.0,
                global_ms: t,
            });
        }
    }
    out
}

/// Calls `f(global sequence id, key times)` for every track of `model`.
fn for_each_track_times(model: &Model, f: &mut dyn FnMut(i32, &[i32])) {
    use crate::check::usage::{visit_tracks, Owner, TrackVisitor};
    use crate::model::{AnyTrack, Tracks};
    struct V<'a>(&'a mut dyn FnMut(i32, &[i32]));
    fn times<T>(t: &Track<T>) -> Vec<i32> {
        t.keys.iter().map(|k| k.time).collect()
    }
    impl<'m> TrackVisitor<'m> for V<'_> {
        fn tracks(&mut self, _: Owner, _: &dyn Fn() -> String, tracks: &'m Tracks) {
            for a in &tracks.0 {
                let (gid, t) = match &a.track {
                    AnyTrack::Float(t) => (t.global_sequence_id, times(t)),
                    AnyTrack::Vector3(t) => (t.global_sequence_id, times(t)),
                    AnyTrack::Quaternion(t) => (t.global_sequence_id, times(t)),
                    AnyTrack::Integer(t) => (t.global_sequence_id, times(t)),
                };
                (self.0)(gid, &t);
            }
        }
        fn slot(&mut self, _: Owner, _: &dyn Fn() -> String, track: &'m Track<u32>) {
            (self.0)(track.global_sequence_id, &times(track));
        }
    }
    visit_tracks(model, &mut V(f));
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

/// What a model looks like at one moment, as far as the measure compares it.
struct Frame {
    geosets: Vec<PosedGeoset>,
    /// (pivot in the world, world matrix) of each watched node, in skeleton order.
    nodes: Vec<(Vec3, Mat4)>,
}

fn frame(model: &Model, skeleton: &Skeleton, at: AnimTime) -> Frame {
    let clock = skeleton.clock(at);
    let pose = skeleton.pose_at(&clock, None);
    let geosets = posed_geosets(model, skeleton, &pose, &clock);
    let nodes = skeleton
        .nodes
        .iter()
        .zip(&pose.nodes)
        .filter(|(n, _)| watched(n.kind))
        .map(|(n, p)| (transform_point(&p.world, n.pivot), p.world))
        .collect();
    Frame { geosets, nodes }
}

/// The most a frame's worth of posed originals is kept in memory (floats).
const CACHE_FLOATS: usize = 32 << 20;

/// A vertex named by everything that decides how it is drawn: position, normal, UV sets,
/// tangent (all by bits) and the nodes and weights that move it.
type VertexKey = Vec<u32>;

fn vertex_key(model: &Model, g: &Geoset, v: usize) -> VertexKey {
    let mut k: Vec<u32> = Vec::with_capacity(16);
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
    k.push(u32::MAX);
    match g
        .skin
        .as_deref()
        .filter(|s| s.len() == g.vertices.len() * 8)
    {
        Some(s) => {
            let b = &s[v * 8..v * 8 + 8];
            let mut pairs: Vec<(u32, u32)> = (0..4)
                .filter(|&i| b[4 + i] > 0)
                .map(|i| {
                    (
                        g.matrix_indices
                            .get(b[i] as usize)
                            .copied()
                            .unwrap_or(u32::MAX),
                        u32::from(b[4 + i]),
                    )
                })
                .collect();
            pairs.sort_unstable();
            k.extend(pairs.into_iter().flat_map(|(a, b)| [a, b]));
        }
        None => {
            let groups = g.matrix_groups();
            if let Some(ids) = g.vertex_groups.get(v).and_then(|&i| groups.get(i as usize)) {
                let mut ids = ids.to_vec();
                ids.sort_unstable();
                k.extend(ids);
            }
        }
    }
    let _ = model;
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

/// The original, prepared for measuring changed models against it.
pub(crate) struct Reference<'m> {
    model: &'m Model,
    skeleton: Skeleton<'m>,
    moments: Vec<AnimTime>,
    /// The original posed at every moment, when that fits in [`CACHE_FLOATS`].
    cache: Option<Vec<Frame>>,
    /// Each original vertex's key.
    keys: Vec<Vec<VertexKey>>,
    /// Each original geoset's drawing key.
    geoset_keys: Vec<String>,
    /// The triangles the original draws.
    triangles: BTreeSet<(String, [VertexKey; 3])>,
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

impl<'m> Reference<'m> {
    pub(crate) fn new(model: &'m Model, ctx: &Ctx) -> Self {
        let skeleton = Skeleton::new(model);
        let moments = moments(model);
        let vertices: usize = model.geosets.iter().map(|g| g.vertices.len()).sum();
        let cache = (moments.len().saturating_mul(vertices).saturating_mul(8) <= CACHE_FLOATS)
            .then(|| {
                moments
                    .iter()
                    .map(|&at| frame(model, &skeleton, at))
                    .collect()
            });
        let keys: Vec<Vec<VertexKey>> = model
            .geosets
            .iter()
            .map(|g| {
                (0..g.vertices.len())
                    .map(|v| vertex_key(model, g, v))
                    .collect()
            })
            .collect();
        let geoset_keys: Vec<String> = model.geosets.iter().map(|g| geoset_key(model, g)).collect();
        let mut triangles = BTreeSet::new();
        for (gi, g) in model.geosets.iter().enumerate() {
            for t in g.triangles().0 {
                let k = t.map(|v| keys[gi].get(usize::from(v)).cloned().unwrap_or_default());
                if let Some(k) = canonical(k) {
                    triangles.insert((geoset_keys[gi].clone(), k));
                }
            }
        }
        Reference {
            model,
            skeleton,
            moments,
            cache,
            keys,
            geoset_keys,
            triangles,
            size: ctx.size,
        }
    }

    pub(crate) fn measure(&self, candidate: &Model, map: &VertexMap) -> Deviation {
        let mut d = Deviation {
            moments: self.moments.len(),
            ..Deviation::default()
        };
        let original = self.model;
        // The map must name an original vertex for every vertex of the result.
        let source = |g: usize, v: usize| -> Option<(usize, usize)> {
            let &(og, ov) = map.0.get(g)?.get(v)?;
            let (og, ov) = (og as usize, ov as usize);
            (original.geosets.get(og)?.vertices.len() > ov).then_some((og, ov))
        };
        for (g, geoset) in candidate.geosets.iter().enumerate() {
            for v in 0..geoset.vertices.len() {
                if source(g, v).is_none() {
                    d.unmatched += 1;
                }
            }
        }
        if d.unmatched > 0 {
            return d;
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
        let _ = &self.geoset_keys;
        // Normals and UVs at rest.
        for (g, geoset) in candidate.geosets.iter().enumerate() {
            for v in 0..geoset.vertices.len() {
                let Some((og, ov)) = source(g, v) else {
                    continue;
                };
                let o = &original.geosets[og];
                if let (Some(a), Some(b)) = (geoset.normals.get(v), o.normals.get(ov)) {
                    d.normal = d.normal.max(angle(*a, *b));
                }
                for (sa, sb) in geoset.uv_sets.iter().zip(&o.uv_sets) {
                    if let (Some(a), Some(b)) = (sa.get(v), sb.get(ov)) {
                        d.uv = d.uv.max((a[0] - b[0]).abs().max((a[1] - b[1]).abs()));
                    }
                }
            }
        }
        // Every moment.
        let skeleton = Skeleton::new(candidate);
        let watched_a: Vec<NodeKind> = self
            .skeleton
            .nodes
            .iter()
            .map(|n| n.kind)
            .filter(|&k| watched(k))
            .collect();
        let watched_b: Vec<NodeKind> = skeleton
            .nodes
            .iter()
            .map(|n| n.kind)
            .filter(|&k| watched(k))
            .collect();
        d.nodes_differ = watched_a != watched_b;
        for (i, &at) in self.moments.iter().enumerate() {
            let computed;
            let a = match &self.cache {
                Some(c) => &c[i],
                None => {
                    computed = frame(original, &self.skeleton, at);
                    &computed
                }
            };
            let b = frame(candidate, &skeleton, at);
            self.compare(a, &b, &source, &mut d);
        }
        d
    }

    fn compare(
        &self,
        a: &Frame,
        b: &Frame,
        source: &dyn Fn(usize, usize) -> Option<(usize, usize)>,
        d: &mut Deviation,
    ) {
        let inv = 1.0 / self.size;
        for (g, pb) in b.geosets.iter().enumerate() {
            let mut seen: Option<usize> = None;
            for v in 0..pb.positions.len() {
                let Some((og, ov)) = source(g, v) else {
                    continue;
                };
                let pa = &a.geosets[og];
                if seen != Some(og) {
                    seen = Some(og);
                    if pa.visible != pb.visible {
                        d.visibility += 1;
                    }
                    d.alpha = d
                        .alpha
                        .max((pa.alpha - pb.alpha).abs())
                        .max((pa.layer_alpha - pb.layer_alpha).abs());
                    for k in 0..3 {
                        d.color = d.color.max((pa.color[k] - pb.color[k]).abs());
                    }
                }
                d.position = d
                    .position
                    .max(distance(pa.positions[ov], pb.positions[v]) * inv);
                if let (Some(x), Some(y)) = (pa.uvs.get(ov), pb.uvs.get(v)) {
                    d.uv = d.uv.max((x[0] - y[0]).abs().max((x[1] - y[1]).abs()));
                }
            }
        }
        if a.nodes.len() == b.nodes.len() {
            for ((pa, ma), (pb, mb)) in a.nodes.iter().zip(&b.nodes) {
                d.node_position = d.node_position.max(distance(*pa, *pb) * inv);
                d.node_rotation = d.node_rotation.max(turn(ma, mb));
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

/// The angle between two directions (0 when either is zero).
fn angle(a: Vec3, b: Vec3) -> f32 {
    let la = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let lb = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    if la == 0.0 || lb == 0.0 || !la.is_finite() || !lb.is_finite() {
        // A zero or non-finite normal is compared by its bits.
        let same = a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits());
        return if same { 0.0 } else { f32::INFINITY };
    }
    let c = (a.iter().zip(&b).map(|(x, y)| x * y).sum::<f32>() / (la * lb)).clamp(-1.0, 1.0);
    c.acos()
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
        size: model_size(original),
    };
    Some(Reference::new(original, &ctx).measure(candidate, &VertexMap::identity(original)))
}
