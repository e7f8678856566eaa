//! Geosets that hide: their visibility over each sequence, and the rigs that show and
//! hide them (see [`VisibilityRig`]).

use super::buffer::Bin;
use super::mesh::Geo;
use super::{extras, finite3, translate, MAX_CYCLE_KEYS};
use crate::anim::math::Vec3;
use crate::anim::{geoset_alphas, Clock, Skeleton};
use crate::convert::gltf::curves::{track_curve, CKey, Curve, Interp, Notes};
use crate::convert::gltf::to_y_up;
use crate::model::Model;
use crate::spec::track::{KGAO, KMTA};
use gltf_json::accessor::Type;
use gltf_json::{Index, Root};
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};

/// Each exported geoset's visibility rig when it hides at some moment (`None` for the
/// others), and for each skeleton node the glTF nodes that copy it in the rigs. The rigs'
/// roots join `top`, the children of the model's root node.
pub(super) fn rigs(
    model: &Model,
    skeleton: &Skeleton,
    geo: &[Geo],
    top: &mut Vec<u32>,
    root: &mut Root,
    bin: &mut Bin,
    notes: &mut Notes,
) -> (Vec<Option<VisibilityRig>>, Vec<Vec<usize>>) {
    let n = skeleton.nodes.len();
    let mut rigs: Vec<Option<VisibilityRig>> = Vec::with_capacity(geo.len());
    let mut copies: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (gi, _, vskin) in geo {
        let rest_visible = {
            let clock = Clock::new(model, crate::anim::AnimTime::new(None, 0.0));
            let (a, _, la) = geoset_alphas(model, &clock, *gi);
            a > 0.0 && la > 0.0
        };
        let curves: Vec<Curve<Vec3>> = (0..model.sequences.len())
            .map(|si| visibility_curve(model, si, *gi, notes))
            .collect();
        let hides = !rest_visible || curves.iter().any(|c| c.keys.iter().any(|k| k.v[0] == 0.0));
        if !hides {
            rigs.push(None);
            continue;
        }
        let rig = visibility_rig(
            root,
            bin,
            skeleton,
            *gi,
            vskin,
            rest_visible,
            curves,
            &mut copies,
        );
        top.push(rig.root as u32);
        rigs.push(Some(rig));
    }
    (rigs, copies)
}

/// The visibility of geoset `gi` over sequence `si`: step keys of scale 1 (shown) and 0
/// (hidden), at every key time of its geoset-animation alpha and its layers' alphas, with
/// the state between two key times taken at their midpoint and set just after the first.
fn visibility_curve(model: &Model, si: usize, gi: usize, notes: &mut Notes) -> Curve<Vec3> {
    let interval = model.sequences[si].interval;
    let len = f64::from(model.sequences[si].length());
    let globals = &model.global_sequences;
    let mut events: BTreeSet<u64> = BTreeSet::new();
    events.insert(0f64.to_bits());
    events.insert(len.to_bits());
    let mut add = |t: Option<&crate::model::Track<f32>>| {
        if let Some(t) = t {
            let c = track_curve(t, interval, globals, 1.0, MAX_CYCLE_KEYS, notes);
            events.extend(c.keys.iter().map(|k| k.t.to_bits()));
        }
    };
    if let Some(ga) = model
        .geoset_animations
        .iter()
        .find(|a| a.geoset_id == gi as i32)
    {
        add(ga.tracks.float(KGAO));
    }
    let g = &model.geosets[gi];
    if let Some(m) = model.materials.get(g.material_id as usize) {
        for l in &m.layers {
            add(l.tracks.float(KMTA));
        }
    }
    let events: Vec<f64> = events.into_iter().map(f64::from_bits).collect();
    let vis = |t: f64| {
        let clock = Clock::unwrapped(model, si, t);
        let (a, _, la) = geoset_alphas(model, &clock, gi);
        a > 0.0 && la > 0.0
    };
    let mut keys: Vec<CKey<Vec3>> = Vec::new();
    let push = |t: f64, v: bool, keys: &mut Vec<CKey<Vec3>>| {
        let s = if v { 1.0 } else { 0.0 };
        if keys.last().is_some_and(|k: &CKey<Vec3>| k.v[0] == s) {
            return;
        }
        keys.push(CKey {
            t,
            v: [s; 3],
            d_in: [0.0; 3],
            d_out: [0.0; 3],
        });
    };
    for (k, &e) in events.iter().enumerate() {
        push(e, vis(e), &mut keys);
        if let Some(&next) = events.get(k + 1) {
            let mid = vis((e + next) / 2.0);
            push(e + ((next - e) / 2.0).min(0.01), mid, &mut keys);
        }
    }
    let last = *keys.last().expect("one key at least");
    if last.t < len {
        keys.push(CKey { t: len, ..last });
    }
    Curve {
        interp: Interp::Step,
        keys,
    }
}

/// How a geoset that hides is hidden. glTF ignores the transform of a skinned mesh's own
/// node (Blender does; three.js happens not to), so scaling that node to 0 is not
/// portable. Instead the geoset is skinned to copies of the nodes it uses (and their
/// ancestors), under a root of its own whose scale steps between 1 and 0: at 0 every
/// copy collapses onto that root's origin and the mesh with them. The copies play the
/// same animation samplers as the nodes they copy, so the cost is nodes and channels,
/// not keys.
pub(super) struct VisibilityRig {
    /// The glTF node whose scale shows and hides the geoset.
    pub(super) root: usize,
    /// The skin over the copies.
    pub(super) skin: Index<gltf_json::Skin>,
    /// Skeleton node (or the unbound joint, `n`) -> joint index in `skin`.
    pub(super) joint_of: BTreeMap<usize, usize>,
    /// Joints in `skin`.
    pub(super) joint_count: usize,
    /// Per sequence, the visibility keys.
    pub(super) curves: Vec<Curve<Vec3>>,
}

#[allow(clippy::too_many_arguments)]
fn visibility_rig(
    root: &mut Root,
    bin: &mut Bin,
    skeleton: &Skeleton,
    gi: usize,
    vskin: &[Vec<(usize, f32)>],
    rest_visible: bool,
    curves: Vec<Curve<Vec3>>,
    copies: &mut [Vec<usize>],
) -> VisibilityRig {
    let n = skeleton.nodes.len();
    let rig_root = root.push(gltf_json::Node {
        name: Some(format!("Geoset {gi} visibility")),
        scale: (!rest_visible).then_some([0.0; 3]),
        extras: extras(json!({"mdlx": {"kind": "visibility", "geoset": gi}})),
        ..Default::default()
    });
    let used: BTreeSet<usize> = vskin
        .iter()
        .flat_map(|v| v.iter().map(|p| p.0))
        .filter(|&j| j < n)
        .collect();
    let mut set: BTreeSet<usize> = BTreeSet::new();
    for &j in &used {
        let mut at = Some(j);
        while let Some(i) = at {
            if !set.insert(i) {
                break;
            }
            at = skeleton.nodes[i].parent;
        }
    }
    let mut copy_of: BTreeMap<usize, usize> = BTreeMap::new();
    for &i in &set {
        let original = &root.nodes[i + 1];
        let node = gltf_json::Node {
            name: original.name.clone(),
            translation: original.translation,
            extras: extras(json!({"mdlx": {"kind": "copy", "geoset": gi, "of": i + 1,
                "of_kind": skeleton.nodes[i].kind.name(), "of_index": skeleton.nodes[i].index}})),
            ..Default::default()
        };
        let c = root.push(node).value();
        copy_of.insert(i, c);
        copies[i].push(c);
    }
    let mut kids: BTreeMap<usize, Vec<Index<gltf_json::Node>>> = BTreeMap::new();
    for (&i, &c) in &copy_of {
        let parent = skeleton.nodes[i]
            .parent
            .map_or(rig_root.value(), |p| copy_of[&p]);
        kids.entry(parent).or_default().push(Index::new(c as u32));
    }
    for (p, k) in kids {
        root.nodes[p].children = Some(k);
    }
    let mut joints = Vec::new();
    let mut ibm: Vec<f32> = Vec::new();
    let mut joint_of = BTreeMap::new();
    for &j in &used {
        joint_of.insert(j, joints.len());
        joints.push(Index::new(copy_of[&j] as u32));
        let p = to_y_up(skeleton.nodes[j].pivot);
        let p = if finite3(p) { p } else { [0.0; 3] };
        ibm.extend_from_slice(&translate([-p[0], -p[1], -p[2]]));
    }
    // Vertices bound to no node follow the rig's root.
    joint_of.insert(n, joints.len());
    joints.push(rig_root);
    ibm.extend_from_slice(&crate::anim::math::IDENTITY);
    let ibm = bin.accessor(root, &ibm, Type::Mat4, None, false, false);
    let joint_count = joints.len();
    let skin = root.push(gltf_json::Skin {
        extensions: None,
        extras: Default::default(),
        inverse_bind_matrices: Some(ibm),
        joints,
        name: Some(format!("Geoset {gi}")),
        skeleton: Some(Index::new(0)),
    });
    VisibilityRig {
        root: rig_root.value(),
        skin,
        joint_of,
        joint_count,
        curves,
    }
}
