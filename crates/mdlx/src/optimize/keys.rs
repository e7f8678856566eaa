//! The keys pass (see the [module docs](super)).
//!
//! Each track is treated in the windows its keys are read in (every sequence's interval
//! for a track on no global sequence, `[0, length]` for one on a global sequence); keys in
//! no window are never read and go. Inside a window:
//! - **The first and last keys stay**, always.
//! - **Curves with a tolerance** (node translation, rotation and scaling, colours, texture
//!   animation): a Hermite or Bezier track becomes linear when the straight lines between
//!   its keys stay within half the tolerance of the curve (sampled at a quarter, half and
//!   three quarters of each span); then the keys of a linear track are thinned by
//!   Douglas-Peucker with half the tolerance, measured at the removed keys' times, where the
//!   difference between two piecewise-linear curves is largest. Thinning a thinned track
//!   changes nothing (each split key is still the farthest from its chord), so a second run
//!   gives the same keys.
//! - **Everything else** (alpha, visibility, emitter and light parameters, texture ids,
//!   camera tracks): only keys that change nothing are removed: a step key equal to the
//!   key before it, a linear key equal to both neighbours, a spline key equal to both with
//!   flat tangents.
//!
//! A node's translation, rotation or scaling track whose every remaining key is within
//! half the tolerance of the rest value (no move, no turn, scale 1) goes entirely.
//!
//! The tolerance of a node track comes from the position bound: an error in a node moves
//! everything under it, so the bound is split over the deepest chain of nodes and over
//! translation, rotation and scaling, and a turn or a scale is weighed by the farthest a
//! vertex or a pivot lies from any pivot. The measure ([`super::measure`]) then checks the
//! posed result anyway.

use super::{Changes, Ctx};
use crate::anim::math::{slerp, Quat, Vec3};
use crate::anim::{Skeleton, TrackValue};
use crate::model::visit::{visit_tracks_mut, Owner, TrackVisitorMut};
use crate::model::{AnyTrack, Interpolation, Key, Model, Track, Tracks};
use crate::spec::track::*;
use crate::spec::Tag;
use std::collections::HashMap;

/// How the keys of one track may be thinned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Rule {
    /// Only keys that change nothing.
    Exact,
    /// Keys within this distance of the curve (largest difference of a component for
    /// floats and colours, Euclidean for vectors).
    Distance(f32),
    /// Rotations within this angle (radians).
    Angle(f32),
}

/// The tolerances of one model's tracks.
pub(super) struct Budget {
    /// Per node, by the name the track visitor gives its tracks (`bones[3].node`):
    /// translation, rotation and scaling tolerances.
    nodes: HashMap<String, [f32; 3]>,
    /// For a node not found there: nothing moves.
    fallback: [f32; 3],
    color: f32,
    uv: f32,
}

impl Budget {
    /// The tolerances of `model`'s tracks: [`KEYS_SHARE`] of the position bound, in the
    /// units of the model as it is now (a pass before may have made it smaller; its own size
    /// then counts, so that a second run finds the same budget).
    ///
    /// An error in a node's track moves everything under it, so a node's share is the bound
    /// divided by the longest chain of nodes through it (a vertex's error is at most the sum
    /// over its chain); a turn or a scale is weighed by the farthest a vertex it moves, or
    /// the pivot of a node under it, lies from its pivot; and no node may turn an
    /// attachment or emitter under it by more than the rotation bound over the chain.
    pub(super) fn new(model: &Model, ctx: &Ctx) -> Budget {
        let size = ctx.size.min(model.size());
        let p = KEYS_SHARE * ctx.scale * ctx.tol.position * size;
        let turn = ctx.scale * ctx.tol.rotation;
        let skeleton = Skeleton::new(model);
        let reach = reach(model, &skeleton);
        let chain = chains(&skeleton);
        let mut nodes = HashMap::with_capacity(skeleton.nodes.len());
        for (i, n) in skeleton.nodes.iter().enumerate() {
            let d = chain[i].max(1) as f32;
            let lever = reach[i].max(size * 1e-4).max(f32::MIN_POSITIVE);
            let r = (p / (d * lever)).min(turn / d);
            nodes.insert(
                format!("{}[{}].node", crate::check::list_of(n.kind), n.index),
                [p / d, r, r],
            );
        }
        Budget {
            nodes,
            fallback: [0.0; 3],
            color: ctx.scale * ctx.tol.color,
            uv: ctx.scale * ctx.tol.position,
        }
    }

    /// The rule of the track `tag` of the record at `at`, of `owner`.
    pub(super) fn rule(&self, owner: Owner, at: &str, tag: Tag) -> Rule {
        let node = || self.nodes.get(at).copied().unwrap_or(self.fallback);
        match (owner, tag) {
            (Owner::Other, KGTR) => Rule::Distance(node()[0]),
            (Owner::Other, KGRT) => Rule::Angle(node()[1]),
            (Owner::Other, KGSC) => Rule::Distance(node()[2]),
            (_, KGAC | KLAC | KLBC | KRCO | KFC3 | KPPC) => Rule::Distance(self.color),
            (Owner::TextureAnimation(_), KTAT) => Rule::Distance(self.uv),
            // A turn or a scale of the texture moves a UV at most ~1.5 texture widths away
            // by that much (UVs of real models stay near the unit square).
            (Owner::TextureAnimation(_), KTAR) => Rule::Angle(self.uv / 1.5),
            (Owner::TextureAnimation(_), KTAS) => Rule::Distance(self.uv / 1.5),
            _ => Rule::Exact,
        }
    }
}

/// The share of the position bound the keys pass may use; the rest is the bytes pass's
/// rounding.
const KEYS_SHARE: f32 = 0.75;

/// Per node: the longest chain of nodes through it (its ancestors, itself, and its longest
/// line of descendants).
fn chains(skeleton: &Skeleton) -> Vec<usize> {
    let n = skeleton.nodes.len();
    let parent = |i: usize| skeleton.nodes[i].parent;
    let mut above = vec![0usize; n];
    let mut below = vec![1usize; n];
    for (i, up) in above.iter_mut().enumerate() {
        let (mut d, mut at, mut h) = (1, parent(i), 1);
        let mut steps = 0;
        while let Some(p) = at {
            d += 1;
            h += 1;
            below[p] = below[p].max(h);
            at = parent(p);
            steps += 1;
            if steps > n {
                break;
            }
        }
        *up = d;
    }
    (0..n).map(|i| above[i] + below[i] - 1).collect()
}

/// Per node: the farthest a vertex it or a node under it moves (a corner of their box),
/// or the pivot of a node under it, lies from its pivot.
fn reach(model: &Model, skeleton: &Skeleton) -> Vec<f32> {
    let n = skeleton.nodes.len();
    let mut lo = vec![[f32::MAX; 3]; n];
    let mut hi = vec![[f32::MIN; 3]; n];
    let mut grow = |i: usize, p: [f32; 3]| {
        if p.iter().all(|c| c.is_finite()) {
            for k in 0..3 {
                lo[i][k] = lo[i][k].min(p[k]);
                hi[i][k] = hi[i][k].max(p[k]);
            }
        }
    };
    // Each node's own vertices and its pivot, then up the chain.
    let mut own: Vec<Vec<[f32; 3]>> = vec![Vec::new(); n];
    for g in &model.geosets {
        let groups = g.matrix_groups();
        let skin = g
            .skin
            .as_deref()
            .filter(|s| s.len() == g.vertices.len() * 8);
        for (v, p) in g.vertices.iter().enumerate() {
            let ids: Vec<u32> = match skin {
                Some(s) => (0..4)
                    .filter(|&k| s[v * 8 + 4 + k] > 0)
                    .filter_map(|k| g.matrix_indices.get(s[v * 8 + k] as usize).copied())
                    .collect(),
                None => g
                    .vertex_groups
                    .get(v)
                    .and_then(|&i| groups.get(i as usize))
                    .map(|ids| ids.to_vec())
                    .unwrap_or_default(),
            };
            for id in ids {
                if let Some(i) = skeleton.by_object_id(id) {
                    own[i].push(*p);
                }
            }
        }
    }
    for (i, node) in skeleton.nodes.iter().enumerate() {
        own[i].push(node.pivot);
    }
    for (i, points) in own.iter().enumerate() {
        let (mut at, mut steps) = (Some(i), 0);
        while let Some(j) = at {
            for &p in points {
                grow(j, p);
            }
            at = skeleton.nodes[j].parent;
            steps += 1;
            if steps > n {
                break;
            }
        }
    }
    (0..n)
        .map(|i| {
            if lo[i][0] > hi[i][0] {
                return 0.0;
            }
            let p = skeleton.nodes[i].pivot;
            (0..3)
                .map(|k| (p[k] - lo[i][k]).abs().max((hi[i][k] - p[k]).abs()).powi(2))
                .sum::<f32>()
                .sqrt()
        })
        .collect()
}

/// A value a track holds, as the thinning sees it.
trait Value: TrackValue + PartialEq + Default {
    /// How far `b` is from `a` under `rule` (infinite when the rule is exact and they
    /// differ).
    fn off(a: Self, b: Self, rule: Rule) -> f32;
    /// Bit-equal.
    fn same(a: Self, b: Self) -> bool;
    /// The flat tangent at a key of value `v` (a zero slope for Hermite floats and
    /// vectors, the value itself otherwise).
    fn flat(v: Self, i: Interpolation) -> Self;
    /// The rest value of a node track with this tag, if it has one.
    fn rest(tag: Tag) -> Option<Self>;
    /// Straight-line interpolation as the sampler does it.
    fn line(a: Self, b: Self, t: f32) -> Self {
        Self::lerp(a, b, t)
    }
    /// Whether the straight line from `a` to `b` is too close to a tie for other players to
    /// agree on (see the quaternion's).
    fn ambiguous(_: Self, _: Self) -> bool {
        false
    }
}

fn bits<const N: usize>(a: [f32; N], b: [f32; N]) -> bool {
    a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits())
}

fn euclid<const N: usize>(a: [f32; N], b: [f32; N]) -> f32 {
    let d = a
        .iter()
        .zip(&b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f32>()
        .sqrt();
    if d.is_nan() {
        f32::INFINITY
    } else {
        d
    }
}

impl Value for f32 {
    fn off(a: f32, b: f32, rule: Rule) -> f32 {
        match rule {
            Rule::Distance(_) | Rule::Angle(_) => euclid([a], [b]),
            Rule::Exact => exact(Self::same(a, b)),
        }
    }
    fn same(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits()
    }
    fn flat(v: f32, i: Interpolation) -> f32 {
        if i == Interpolation::Hermite {
            0.0
        } else {
            v
        }
    }
    fn rest(_: Tag) -> Option<f32> {
        None
    }
}

impl Value for Vec3 {
    fn off(a: Vec3, b: Vec3, rule: Rule) -> f32 {
        match rule {
            Rule::Distance(_) | Rule::Angle(_) => euclid(a, b),
            Rule::Exact => exact(Self::same(a, b)),
        }
    }
    fn same(a: Vec3, b: Vec3) -> bool {
        bits(a, b)
    }
    fn flat(v: Vec3, i: Interpolation) -> Vec3 {
        v.map(|x| f32::flat(x, i))
    }
    fn rest(tag: Tag) -> Option<Vec3> {
        match tag {
            KGTR => Some([0.0; 3]),
            KGSC => Some([1.0; 3]),
            _ => None,
        }
    }
}

impl Value for Quat {
    fn off(a: Quat, b: Quat, rule: Rule) -> f32 {
        match rule {
            Rule::Angle(_) | Rule::Distance(_) => quat_angle(a, b),
            Rule::Exact => exact(Self::same(a, b)),
        }
    }
    fn same(a: Quat, b: Quat) -> bool {
        bits(a, b)
    }
    fn flat(v: Quat, _: Interpolation) -> Quat {
        v
    }
    fn rest(tag: Tag) -> Option<Quat> {
        (tag == KGRT).then_some([0.0, 0.0, 0.0, 1.0])
    }
    fn line(a: Quat, b: Quat, t: f32) -> Quat {
        slerp(a, b, t)
    }
    /// Keys more than 120 degrees of turn apart: near half a turn, which way a slerp goes
    /// hangs on the sign of a dot product near 0, and players break that tie differently
    /// (three.js and this crate's sampler do; seen on corpus models). Such a span keeps a
    /// key between its ends.
    fn ambiguous(a: Quat, b: Quat) -> bool {
        quat_angle(a, b) > 2.0 * std::f32::consts::FRAC_PI_3
    }
}

impl Value for u32 {
    fn off(a: u32, b: u32, _: Rule) -> f32 {
        exact(a == b)
    }
    fn same(a: u32, b: u32) -> bool {
        a == b
    }
    fn flat(v: u32, _: Interpolation) -> u32 {
        v
    }
    fn rest(_: Tag) -> Option<u32> {
        None
    }
}

/// The angle of the turn from `a` to `b` (radians), `q` and `-q` alike. In f64 and from
/// the chord: in f32, `acos` of a dot product cannot tell turns below about 3e-4 radians
/// from none.
fn quat_angle(a: Quat, b: Quat) -> f32 {
    let unit = |q: Quat| {
        let q = q.map(f64::from);
        let l = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        q.map(|x| x / l)
    };
    let (a, mut b) = (unit(a), unit(b));
    if a.iter().zip(&b).map(|(x, y)| x * y).sum::<f64>() < 0.0 {
        b = b.map(|x| -x);
    }
    let chord = super::chord(&a, &b);
    let angle = 4.0 * (chord / 2.0).min(1.0).asin();
    if angle.is_nan() {
        f32::INFINITY
    } else {
        angle as f32
    }
}

fn exact(same: bool) -> f32 {
    if same {
        0.0
    } else {
        f32::INFINITY
    }
}

impl Rule {
    /// Half the tolerance: the share of one step (linearizing, then thinning).
    fn half(self) -> f32 {
        match self {
            Rule::Exact => 0.0,
            Rule::Distance(d) | Rule::Angle(d) => d / 2.0,
        }
    }
}

/// The windows a track's keys are read in, or `None` when it runs on a global sequence the
/// model does not have (then it is left alone).
fn windows(model: &Model, gid: i32) -> Option<Vec<(i64, i64)>> {
    if gid < 0 {
        return Some(
            model
                .sequences
                .iter()
                .filter(|s| s.interval[0] <= s.interval[1])
                .map(|s| (i64::from(s.interval[0]), i64::from(s.interval[1])))
                .collect(),
        );
    }
    let len = *model.global_sequences.get(gid as usize)?;
    if len == 0 {
        // Stands still at 0 and may use any key: leave it alone.
        return None;
    }
    Some(vec![(0, i64::from(len))])
}

/// What thinning one track did.
#[derive(Default)]
struct Count {
    outside: usize,
    thinned: usize,
    linearized: usize,
    dropped_tracks: usize,
}

/// Thins `t` (see the module docs); returns false when the track should go entirely.
fn thin<T: Value>(
    t: &mut Track<T>,
    tag: Tag,
    rule: Rule,
    wins: &[(i64, i64)],
    may_drop: bool,
    c: &mut Count,
) -> bool {
    if t.keys.windows(2).any(|w| w[0].time >= w[1].time) {
        // Unsorted or repeated times: the sampler reorders them; leave such a track alone.
        return true;
    }
    if matches!(t.interpolation, Interpolation::Other(_)) {
        return true;
    }
    let inside = |time: i32| {
        wins.iter()
            .any(|&(lo, hi)| (lo..=hi).contains(&i64::from(time)))
    };
    if !t.keys.iter().any(|k| inside(k.time)) {
        // Never read; but a record may need the track to exist (a squirting emitter's
        // emission rate): leave it as it is.
        return true;
    }
    let before = t.keys.len();
    t.keys.retain(|k| inside(k.time));
    c.outside += before - t.keys.len();
    let mut keep = vec![false; t.keys.len()];
    // The first and last key of every window.
    let mut spans = Vec::new();
    for &(lo, hi) in wins {
        let a = t.keys.partition_point(|k| i64::from(k.time) < lo);
        let b = t.keys.partition_point(|k| i64::from(k.time) <= hi);
        if a < b {
            keep[a] = true;
            keep[b - 1] = true;
            spans.push((a, b - 1));
        }
    }
    let tolerant = rule != Rule::Exact;
    let spline = matches!(
        t.interpolation,
        Interpolation::Hermite | Interpolation::Bezier
    );
    if tolerant && spline && spline_is_straight(t, &spans, rule) {
        t.interpolation = Interpolation::Linear;
        // As the MDX reader fills keys of tracks without tangents.
        for k in &mut t.keys {
            k.in_tan = T::default();
            k.out_tan = T::default();
        }
        c.linearized += 1;
    }
    match t.interpolation {
        Interpolation::Linear if tolerant => {
            for &(a, b) in &spans {
                douglas_peucker(&t.keys, a, b, rule, &mut keep);
            }
        }
        _ => {
            for &(a, b) in &spans {
                exact_needed(&t.keys, a, b, t.interpolation, &mut keep);
            }
        }
    }
    let before = t.keys.len();
    let mut i = 0;
    t.keys.retain(|_| {
        i += 1;
        keep[i - 1]
    });
    c.thinned += before - t.keys.len();
    // A node track that holds its rest value goes (not one on a global sequence: that
    // sequence could be left unused).
    if let (true, true, Some(rest)) = (tolerant, may_drop && t.global_sequence_id < 0, T::rest(tag))
    {
        if t.keys
            .iter()
            .all(|k| T::off(k.value, rest, rule) <= rule.half())
        {
            c.dropped_tracks += 1;
            return false;
        }
    }
    true
}

/// Whether straight lines between the keys of spline track `t` stay within half the
/// tolerance of the spline, in every span.
fn spline_is_straight<T: Value>(t: &Track<T>, spans: &[(usize, usize)], rule: Rule) -> bool {
    for &(a, b) in spans {
        for w in t.keys[a..=b].windows(2) {
            let (p, q) = (&w[0], &w[1]);
            for s in [0.25f32, 0.5, 0.75] {
                let curve = match t.interpolation {
                    Interpolation::Hermite => T::hermite(p.value, p.out_tan, q.in_tan, q.value, s),
                    _ => T::bezier(p.value, p.out_tan, q.in_tan, q.value, s),
                };
                if T::off(curve, T::line(p.value, q.value, s), rule) > rule.half() {
                    return false;
                }
            }
        }
    }
    true
}

/// Douglas-Peucker over keys `a..=b` of a linear track: marks in `keep` the keys needed so
/// that every dropped key lies within half the tolerance of the line between the kept keys
/// around it.
fn douglas_peucker<T: Value>(keys: &[Key<T>], a: usize, b: usize, rule: Rule, keep: &mut [bool]) {
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        if b <= a + 1 {
            continue;
        }
        let (p, q) = (&keys[a], &keys[b]);
        let span = (q.time - p.time) as f32;
        let mut worst = (0.0f32, 0usize);
        for (i, k) in keys.iter().enumerate().take(b).skip(a + 1) {
            let s = (k.time - p.time) as f32 / span;
            let off = T::off(k.value, T::line(p.value, q.value, s), rule);
            // Strictly greater: among equal deviations the first one splits.
            if off > worst.0 || worst.1 == 0 {
                worst = (off, i);
            }
        }
        if worst.0 > rule.half() || T::ambiguous(p.value, q.value) {
            keep[worst.1] = true;
            stack.push((a, worst.1));
            stack.push((worst.1, b));
        }
    }
}

/// Marks in `keep` the keys among `a..=b` that change the curve (see the module docs).
fn exact_needed<T: Value>(
    keys: &[Key<T>],
    a: usize,
    b: usize,
    i: Interpolation,
    keep: &mut [bool],
) {
    let mut last = a;
    for k in a + 1..b {
        let (p, x, n) = (&keys[last], &keys[k], &keys[k + 1]);
        let redundant = match i {
            Interpolation::None => T::same(p.value, x.value),
            Interpolation::Linear => T::same(p.value, x.value) && T::same(x.value, n.value),
            _ => {
                let flat = |v: T| T::flat(v, i);
                T::same(p.value, x.value)
                    && T::same(x.value, n.value)
                    && [p.out_tan, x.in_tan, x.out_tan, n.in_tan]
                        .into_iter()
                        .all(|tan| T::same(tan, flat(x.value)))
            }
        };
        if !redundant {
            keep[k] = true;
        }
        if keep[k] {
            last = k;
        }
    }
}

struct Thinner<'a> {
    model: &'a Model,
    budget: Budget,
    count: Count,
}

impl Thinner<'_> {
    fn one<T: Value>(&mut self, t: &mut Track<T>, tag: Tag, rule: Rule, may_drop: bool) -> bool {
        match windows(self.model, t.global_sequence_id) {
            Some(w) => thin(t, tag, rule, &w, may_drop, &mut self.count),
            None => true,
        }
    }

    /// Whether the record at `at` may lose a track: not a helper without children, which
    /// would then move nothing (a `check` finding of its own).
    fn may_drop(&self, at: &str) -> bool {
        let Some(i) = at
            .strip_prefix("helpers[")
            .and_then(|r| r.split(']').next())
            .and_then(|i| i.parse::<usize>().ok())
        else {
            return true;
        };
        let Some(h) = self.model.helpers.get(i) else {
            return true;
        };
        let id = h.node.object_id as i32;
        self.model.nodes().any(|n| n.parent_id == id)
    }
}

impl TrackVisitorMut for Thinner<'_> {
    fn tracks(&mut self, owner: Owner, at: &dyn Fn() -> String, tracks: &mut Tracks) {
        let mut kept = Vec::with_capacity(tracks.0.len());
        let name = at();
        let may_drop = self.may_drop(&name);
        for mut a in std::mem::take(&mut tracks.0) {
            let rule = self.budget.rule(owner, &name, a.tag);
            let keep = match &mut a.track {
                AnyTrack::Float(t) => self.one(t, a.tag, rule, may_drop),
                AnyTrack::Vector3(t) => self.one(t, a.tag, rule, may_drop),
                AnyTrack::Quaternion(t) => self.one(t, a.tag, rule, may_drop),
                AnyTrack::Integer(t) => self.one(t, a.tag, Rule::Exact, may_drop),
            };
            if keep {
                kept.push(a);
            }
        }
        tracks.0 = kept;
    }
    fn slot(&mut self, _: Owner, _: &dyn Fn() -> String, track: &mut Track<u32>) {
        // A texture slot's track is not optional in its record: thin it, never drop it.
        self.one(track, KMTF, Rule::Exact, false);
    }
}

/// Thins every track of `model`.
pub(crate) fn run(model: &mut Model, ctx: &Ctx) -> Changes {
    let snapshot = model.clone();
    let mut v = Thinner {
        model: &snapshot,
        budget: Budget::new(&snapshot, ctx),
        count: Count::default(),
    };
    visit_tracks_mut(model, &mut v);
    let c = v.count;
    // What `check` would still call redundant (a key its neighbours give back within 1e-6,
    // which thinning at the tolerance can leave beside a kept key).
    let redundant = crate::check::fix::thin(model);
    [
        ("redundant keys removed", redundant),
        ("keys outside every sequence removed", c.outside),
        ("keys removed", c.thinned),
        ("spline tracks made linear", c.linearized),
        ("tracks at rest removed", c.dropped_tracks),
    ]
    .into_iter()
    .filter(|(_, n)| *n > 0)
    .collect()
}
