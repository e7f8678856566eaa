//! The judge's answers for an original and its optimized model, compared: matched
//! vertices at each moment (drawn on both sides or on neither, and how far apart), and the
//! world matrices of attachment points and emitters.

use crate::common::judges::{floats, model_size};
use crate::matching::{dist, drawn, match_vertices, Vx};
use crate::Case;
use mdlx::anim::{NodeKind, Skeleton};
use mdlx::model::Model;
use mdlx::optimize::Tolerance;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};

/// Float noise allowed on top of the tolerance, as a fraction of the model's size, for
/// positions as large as `largest` (the largest coordinate posed): both sides are posed by
/// three.js from float32 data (keys, rest positions, inverse bind matrices), its
/// interpolants and bone matrices are float32 arrays, and its answers are float32. Each
/// rounding moves a point by at most half an ulp of its magnitude; a node chain of depth `d`
/// rounds its translation, rotation, scaling and matrix at each level. [`NOISE_ULPS`] = 64
/// covers 16 levels of four roundings on each of the two sides, with room to spare: it is
/// about 1.5% of the position tolerance for a model centred near its origin.
pub(crate) fn noise(largest: f64, size: f64) -> f64 {
    NOISE_ULPS * f64::from(f32::EPSILON) * largest / size
}

/// See [`noise`].
pub(crate) const NOISE_ULPS: f64 = 64.0;

/// One model's comparison.
#[derive(Default)]
pub(crate) struct Outcome {
    pub(crate) moments: usize,
    /// Vertex positions compared (both sides drawn).
    pub(crate) compared: usize,
    pub(crate) worst: f64,
    pub(crate) worst_at: String,
    pub(crate) node_moments: usize,
    pub(crate) worst_node: f64,
    pub(crate) worst_turn: f64,
    /// The largest coordinate posed, for [`noise`].
    pub(crate) largest: f64,
    pub(crate) visibility: Vec<String>,
    /// Drawn original vertices with no optimized vertex standing for them, and the reverse.
    pub(crate) unmatched: usize,
    pub(crate) extra: usize,
    pub(crate) errors: Vec<String>,
}

/// Per mesh of one answer's sample: geoset index -> (visible flag, positions).
pub(crate) fn meshes(sample: &Value) -> HashMap<usize, (bool, Vec<[f32; 3]>)> {
    let mut out = HashMap::new();
    for e in sample["meshes"].as_array().into_iter().flatten() {
        let Some(gi) = e["name"]
            .as_str()
            .and_then(|n| n.strip_prefix("Geoset "))
            .and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        let flag = e["visible"].as_bool().unwrap_or(false);
        out.insert(gi, (flag, floats(e["positions"].as_str().unwrap_or(""))));
    }
    out
}

/// The skeleton nodes whose place the bound covers: attachment points and emitters.
pub(crate) fn watched(m: &Model) -> Vec<(usize, String)> {
    Skeleton::new(m)
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| {
            matches!(
                n.kind,
                NodeKind::Attachment
                    | NodeKind::ParticleEmitter
                    | NodeKind::ParticleEmitter2
                    | NodeKind::PopcornEmitter
                    | NodeKind::RibbonEmitter
            )
        })
        .map(|(i, n)| (i, n.node.name.to_string()))
        .collect()
}

/// The vertices to match on each side: the drawn ones of every geoset the judge posed,
/// and every vertex of those geosets (the pool a match is taken from).
pub(crate) fn sides(m: &Model, posed: &BTreeSet<usize>) -> (Vec<Vx>, Vec<Vx>) {
    let want = posed
        .iter()
        .flat_map(|&g| drawn(m, g).into_iter().map(move |v| (g, v)))
        .collect();
    let pool = posed
        .iter()
        .flat_map(|&g| (0..m.geosets[g].vertices.len()).map(move |v| (g, v)))
        .collect();
    (want, pool)
}

/// The posed meshes of every sample of an answer.
pub(crate) type Posed = Vec<HashMap<usize, (bool, Vec<[f32; 3]>)>>;

/// Per mesh, whether it is drawn at each moment: shown and not shrunk to a point (a hidden
/// geoset collapses onto its visibility rig's root).
pub(crate) fn timelines(posed: &Posed, size: f64) -> HashMap<usize, Vec<bool>> {
    let mut out: HashMap<usize, Vec<bool>> = HashMap::new();
    for sample in posed {
        for (&g, (flag, p)) in sample {
            let drawn = *flag && extent(p.iter().copied()) > 1e-7 * size;
            out.entry(g).or_default().push(drawn);
        }
    }
    out
}

/// Compares the judge's answers for the original (`a`) and the optimized model (`b`).
pub(crate) fn compare(case: &Case, a: &Value, b: &Value) -> Outcome {
    let mut o = Outcome::default();
    for (side, r) in [("original", a), ("optimized", b)] {
        if let Some(e) = r["error"].as_str() {
            o.errors.push(format!("{} ({side}): {e}", case.name));
        }
    }
    let (sa, sb) = (a["samples"].as_array(), b["samples"].as_array());
    let (Some(sa), Some(sb)) = (sa, sb) else {
        return o;
    };
    if !o.errors.is_empty() || sa.is_empty() || sa.len() != sb.len() {
        o.errors.push(format!(
            "{}: {} and {} samples",
            case.name,
            sa.len(),
            sb.len()
        ));
        return o;
    }
    let size = model_size(&case.original);
    let (pa, pb): (Posed, Posed) = (
        sa.iter().map(meshes).collect(),
        sb.iter().map(meshes).collect(),
    );
    let keys = |p: &Posed| p[0].keys().copied().collect::<BTreeSet<usize>>();
    let (want_a, pool_a) = sides(&case.original, &keys(&pa));
    let (want_b, pool_b) = sides(&case.optimized, &keys(&pb));
    let radius = f64::from(Tolerance::default().position) * size;
    let (found, unmatched) =
        match_vertices(&case.original, &want_a, &case.optimized, &pool_b, radius);
    let (_, extra) = match_vertices(&case.optimized, &want_b, &case.original, &pool_a, radius);
    o.unmatched = unmatched.len();
    o.extra = extra.len();
    // Of tied counterparts, the one drawn at the same moments as the original (if any is).
    let (ta, tb) = (timelines(&pa, size), timelines(&pb, size));
    let mut by_geoset: HashMap<usize, Vec<(usize, Vx)>> = HashMap::new();
    for ((g, v), ties) in found {
        let same = ties.iter().find(|t| tb.get(&t.0) == ta.get(&g));
        by_geoset
            .entry(g)
            .or_default()
            .push((v, *same.unwrap_or(&ties[0])));
    }
    let nodes = watched(&case.original);
    for (k, (x, y)) in sa.iter().zip(sb).enumerate() {
        o.moments += 1;
        let at = format!("anim {} t={}s", x["animation"], x["time"]);
        if x["animation"] != y["animation"] || x["time"] != y["time"] {
            o.errors
                .push(format!("{}: samples out of step at {at}", case.name));
            return o;
        }
        for (&g, list) in &by_geoset {
            compare_geoset(case, g, list, (&pa[k], &pb[k]), size, &at, &mut o);
        }
        compare_nodes(case, &nodes, (x, y), size, &at, &mut o);
    }
    o
}

/// The widest extent of `points` along an axis (NaN when one is not finite).
pub(crate) fn extent(points: impl Iterator<Item = [f32; 3]>) -> f64 {
    let (mut lo, mut hi) = ([f64::MAX; 3], [f64::MIN; 3]);
    for p in points {
        for k in 0..3 {
            if !p[k].is_finite() {
                return f64::NAN;
            }
            lo[k] = lo[k].min(f64::from(p[k]));
            hi[k] = hi[k].max(f64::from(p[k]));
        }
    }
    (0..3).map(|k| hi[k] - lo[k]).fold(0.0, f64::max)
}

/// One original geoset at one moment: whether it is drawn on both sides (shown, and not
/// shrunk to a point: a hidden geoset collapses onto its visibility rig's root), and when
/// it is, the distance of each of its vertices from the optimized vertex standing for it.
#[allow(clippy::type_complexity)]
pub(crate) fn compare_geoset(
    case: &Case,
    g: usize,
    list: &[(usize, Vx)],
    (ma, mb): (
        &HashMap<usize, (bool, Vec<[f32; 3]>)>,
        &HashMap<usize, (bool, Vec<[f32; 3]>)>,
    ),
    size: f64,
    at: &str,
    o: &mut Outcome,
) {
    let Some((flag_a, pa)) = ma.get(&g) else {
        return;
    };
    let theirs = |&(h, w): &Vx| mb.get(&h).and_then(|(f, p)| Some((*f, *p.get(w)?)));
    let partners: Option<Vec<(bool, [f32; 3])>> = list.iter().map(|(_, t)| theirs(t)).collect();
    let (Some(partners), true) = (partners, list.iter().all(|&(v, _)| v < pa.len())) else {
        o.errors.push(format!(
            "{}: geoset {g} not posed in full at {at}",
            case.name
        ));
        return;
    };
    let ext_a = extent(list.iter().map(|&(v, _)| pa[v]));
    let ext_b = extent(partners.iter().map(|p| p.1));
    let point = 1e-7 * size;
    let shown_a = *flag_a && ext_a > point;
    let shown_b = partners.iter().all(|p| p.0) && ext_b > point;
    if shown_a != shown_b {
        // A geoset the animation shrinks to nearly a point on one side and exactly on the
        // other is a small movement (measured below), not a visibility change.
        let tiny = f64::from(Tolerance::default().position) * size;
        if !(*flag_a && partners.iter().all(|p| p.0) && ext_a.max(ext_b) <= tiny) {
            o.visibility.push(format!(
                "{} {at}: geoset {g} drawn {shown_a} in the original, {shown_b} optimized",
                case.name
            ));
            return;
        }
    } else if !shown_a {
        return;
    }
    for (&(v, _), (_, q)) in list.iter().zip(&partners) {
        let p = pa[v];
        let (p, q) = (p.map(f64::from), q.map(f64::from));
        o.largest = p.iter().chain(&q).fold(o.largest, |m, c| m.max(c.abs()));
        let d = dist(p, q) / size;
        o.compared += 1;
        if d > o.worst {
            o.worst = d;
            o.worst_at = format!("{at} geoset {g} vertex {v}");
        }
    }
}

/// The watched nodes at one moment: world position (fraction of the size) and how far
/// each axis of the world matrix turned (relative change of the column: about the angle).
pub(crate) fn compare_nodes(
    case: &Case,
    nodes: &[(usize, String)],
    (x, y): (&Value, &Value),
    size: f64,
    at: &str,
    o: &mut Outcome,
) {
    if nodes.is_empty() {
        return;
    }
    let mats = |s: &Value| -> Vec<f32> {
        let b = mdlx::gltf::source::decode_base64(s["nodes"].as_str().unwrap_or(""))
            .unwrap_or_default();
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let (a, b) = (mats(x), mats(y));
    for (i, name) in nodes {
        let k = 16 * (i + 1);
        let (Some(ma), Some(mb)) = (a.get(k..k + 16), b.get(k..k + 16)) else {
            o.errors
                .push(format!("{}: node {name} not posed at {at}", case.name));
            return;
        };
        if ma.iter().chain(mb).any(|c| !c.is_finite()) {
            o.errors
                .push(format!("{}: node {name} not finite at {at}", case.name));
            continue;
        }
        o.node_moments += 1;
        let v = |m: &[f32], c: usize| [m[c], m[c + 1], m[c + 2]].map(f64::from);
        let (pa, pb) = (v(ma, 12), v(mb, 12));
        o.largest = pa.iter().chain(&pb).fold(o.largest, |m, c| m.max(c.abs()));
        o.worst_node = o.worst_node.max(dist(pa, pb) / size);
        for c in [0, 4, 8] {
            let len = dist(v(ma, c), [0.0; 3]);
            if len > 1e-6 {
                o.worst_turn = o.worst_turn.max(dist(v(ma, c), v(mb, c)) / len);
            }
        }
    }
}
