//! Sequences as glTF animations: node tracks as channels (resampled where glTF has no
//! form for the game's curves), don't-inherit nodes baked, geoset visibility, and the
//! samplers written into the buffer.

use super::buffer::Bin;
use super::visibility::VisibilityRig;
use super::{
    extras, mat_y_up, quat_y_up, raw_hex, scale_y_up, translate, ExportOptions, Losses,
    BAKE_MAX_GRID, BAKE_STEP_MS, LINEAR_MAX_ANGLE, LINEAR_TOLERANCE, MAX_CYCLE_KEYS,
};
use crate::anim::math::{decompose, invert_affine, mul, Quat, Vec3};
use crate::anim::{Clock, Skeleton};
use crate::convert::gltf::curves::{
    self, constant, seconds, track_curve, CKey, Curve, Interp, Notes,
};
use crate::convert::gltf::to_y_up;
use crate::model::{node_flags, Model};
use crate::spec::track::{KGAO, KGRT, KGSC, KGTR};
use gltf_json::accessor::Type;
use gltf_json::animation::{Channel, Interpolation, Property, Sampler, Target};
use gltf_json::validation::Checked;
use gltf_json::{Index, Root};
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};

/// One animation sampler's keys, ready to write.
struct Channel3 {
    node: usize,
    property: Property,
    interp: Interp,
    times: Vec<f32>,
    values: Vec<f32>,
}

fn vec_channel(
    node: usize,
    property: Property,
    c: &Curve<Vec3>,
    map: impl Fn(Vec3) -> Vec3,
    dmap: impl Fn(Vec3) -> Vec3,
) -> Channel3 {
    let (times, kept) = seconds(&c.keys);
    // glTF wants two keys at least for a cubic spline; one key is a constant.
    let interp = if c.interp == Interp::Cubic && kept.len() < 2 {
        Interp::Linear
    } else {
        c.interp
    };
    let mut values = Vec::with_capacity(kept.len() * 9);
    for &i in &kept {
        let k = &c.keys[i];
        if interp == Interp::Cubic {
            values.extend_from_slice(&dmap(k.d_in));
            values.extend_from_slice(&map(k.v));
            values.extend_from_slice(&dmap(k.d_out));
        } else {
            values.extend_from_slice(&map(k.v));
        }
    }
    Channel3 {
        node,
        property,
        interp,
        times,
        values,
    }
}

fn quat_channel(node: usize, c: &Curve<Quat>) -> Channel3 {
    let (times, kept) = seconds(&c.keys);
    let mut values = Vec::with_capacity(kept.len() * 4);
    let mut prev: Option<Quat> = None;
    for &i in &kept {
        let mut q = quat_y_up(c.keys[i].v);
        if !q.iter().all(|v| v.is_finite()) {
            q = [0.0, 0.0, 0.0, 1.0];
        }
        if let Some(p) = prev {
            if crate::anim::math::qdot(p, q) < 0.0 {
                q = q.map(|v| -v);
            }
        }
        prev = Some(q);
        values.extend_from_slice(&q);
    }
    Channel3 {
        node,
        property: Property::Rotation,
        interp: if c.interp == Interp::Step {
            Interp::Step
        } else {
            Interp::Linear
        },
        times,
        values,
    }
}

fn sanitize(values: &mut [f32]) {
    for v in values {
        if !v.is_finite() {
            *v = 0.0;
        }
    }
}

/// How translation, scaling and rotation curves are resampled with
/// [`ExportOptions::linear`], and the largest error of the sampled translations and
/// scalings (as a fraction of the model's size).
struct Resample {
    linear: bool,
    /// The model's size: distances are in its units, so the tolerance follows it.
    size: f32,
    error: f32,
}

impl Resample {
    /// A translation (or, with `scale_space`, scaling) curve, sampled to linear keys when
    /// asked.
    fn vec(&mut self, c: Curve<Vec3>, scale_space: bool) -> Curve<Vec3> {
        if !self.linear {
            return c;
        }
        let size = self.size;
        // Scales are ratios: hold them to the tolerance itself.
        let tol = if scale_space {
            LINEAR_TOLERANCE
        } else {
            LINEAR_TOLERANCE * size
        };
        let (c, e) = curves::linearize(&c, tol);
        self.error = self
            .error
            .max(if scale_space { e * size } else { e } / size);
        c
    }

    /// A rotation curve, with keys between those too far apart when asked.
    fn rot(&self, c: Curve<Quat>) -> Curve<Quat> {
        if self.linear {
            curves::densify(&c, LINEAR_MAX_ANGLE)
        } else {
            c
        }
    }
}

/// One animation per sequence.
#[allow(clippy::too_many_arguments)]
pub(super) fn animations(
    model: &Model,
    options: &ExportOptions,
    skeleton: &Skeleton,
    rigs: &[Option<VisibilityRig>],
    copies: &[Vec<usize>],
    root: &mut Root,
    bin: &mut Bin,
    losses: &mut Losses,
    notes: &mut Notes,
) {
    let mut resample = Resample {
        linear: options.linear,
        size: model.size(),
        error: 0.0,
    };
    let baked = baked_nodes(skeleton, losses);
    let ancestors_cache = ancestors(skeleton);
    for (si, seq) in model.sequences.iter().enumerate() {
        let len = f64::from(seq.length());
        // Node tracks.
        let (mut chans, key_times) =
            node_channels(model, skeleton, si, &baked, &mut resample, notes);
        // Don't-inherit nodes: sampled.
        if baked.iter().any(|&b| b) {
            let times = bake_times(skeleton, len, &baked, &ancestors_cache, &key_times);
            chans.extend(baked_channels(
                model, skeleton, si, &baked, &times, &resample,
            ));
        }
        // Geoset visibility, on each rig's root.
        for rig in rigs.iter().flatten() {
            chans.push(vec_channel(
                rig.root,
                Property::Scale,
                &rig.curves[si],
                |v| v,
                |v| v,
            ));
        }
        if chans.is_empty() {
            // Every animation needs a channel: hold the root still for the sequence's length.
            chans.push(vec_channel(
                0,
                Property::Scale,
                &constant([1.0; 3], len),
                |v| v,
                |v| v,
            ));
        }
        write_animation(root, bin, seq, si, chans, copies);
    }
    animation_losses(model, resample.error, losses);
}

/// Which nodes have their motion baked (don't-inherit flags), listed as losses with the
/// global-sequence tracks that each animation bakes.
fn baked_nodes(skeleton: &Skeleton, losses: &mut Losses) -> Vec<bool> {
    let baked: Vec<bool> = skeleton
        .nodes
        .iter()
        .map(|sn| sn.parent.is_some() && sn.node.flags & node_flags::DONT_INHERIT != 0)
        .collect();
    for (i, sn) in skeleton.nodes.iter().enumerate() {
        if baked[i] {
            losses.add(
                format!("{}[{}]", sn.kind.name(), sn.index),
                "don't-inherit flags: motion baked into linear keys (60 per second and at every key)",
            );
        }
    }
    let uses_globals = skeleton.nodes.iter().any(|sn| {
        sn.node
            .tracks
            .iter()
            .any(|a| matches!(a.tag, KGTR | KGRT | KGSC) && track_global(&a.track) >= 0)
    });
    if uses_globals {
        losses.add(
            "global sequences",
            "global-sequence tracks baked into each animation from its start (the game runs them on their own clock)",
        );
    }
    baked
}

/// Each node, then its ancestors (cut short where the parent chain loops).
fn ancestors(skeleton: &Skeleton) -> Vec<Vec<usize>> {
    let n = skeleton.nodes.len();
    let mut ancestors_cache: Vec<Vec<usize>> = Vec::with_capacity(n);
    for i in 0..n {
        let mut chain = vec![i];
        let mut at = skeleton.nodes[i].parent;
        while let Some(p) = at {
            if chain.len() > n {
                break;
            }
            chain.push(p);
            at = skeleton.nodes[p].parent;
        }
        ancestors_cache.push(chain);
    }
    ancestors_cache
}

/// The channels of every node's own tracks over sequence `si` (not of baked nodes), and
/// each node's key times.
fn node_channels(
    model: &Model,
    skeleton: &Skeleton,
    si: usize,
    baked: &[bool],
    resample: &mut Resample,
    notes: &mut Notes,
) -> (Vec<Channel3>, Vec<BTreeSet<u64>>) {
    let n = skeleton.nodes.len();
    let globals = &model.global_sequences;
    let interval = model.sequences[si].interval;
    let mut chans: Vec<Channel3> = Vec::new();
    let mut key_times: Vec<BTreeSet<u64>> = vec![BTreeSet::new(); n];
    for (i, sn) in skeleton.nodes.iter().enumerate() {
        let tracks = &sn.node.tracks;
        let parent_pivot = sn.parent.map_or([0.0; 3], |p| skeleton.nodes[p].pivot);
        let offset = to_y_up([0, 1, 2].map(|k| sn.pivot[k] - parent_pivot[k]));
        if let Some(t) = tracks.vector3(KGTR) {
            let c = track_curve(t, interval, globals, [0.0; 3], MAX_CYCLE_KEYS, notes);
            key_times[i].extend(c.keys.iter().map(|k| k.t.to_bits()));
            if !baked[i] {
                let c = resample.vec(c, false);
                chans.push(vec_channel(
                    i + 1,
                    Property::Translation,
                    &c,
                    |v| {
                        let v = to_y_up(v);
                        [0, 1, 2].map(|k| v[k] + offset[k])
                    },
                    to_y_up,
                ));
            }
        }
        if let Some(t) = tracks.quaternion(KGRT) {
            let c = track_curve(
                t,
                interval,
                globals,
                [0.0, 0.0, 0.0, 1.0],
                MAX_CYCLE_KEYS,
                notes,
            );
            key_times[i].extend(c.keys.iter().map(|k| k.t.to_bits()));
            if !baked[i] {
                chans.push(quat_channel(i + 1, &resample.rot(c)));
            }
        }
        if let Some(t) = tracks.vector3(KGSC) {
            let c = track_curve(t, interval, globals, [1.0; 3], MAX_CYCLE_KEYS, notes);
            key_times[i].extend(c.keys.iter().map(|k| k.t.to_bits()));
            if !baked[i] {
                let c = resample.vec(c, true);
                chans.push(vec_channel(
                    i + 1,
                    Property::Scale,
                    &c,
                    scale_y_up,
                    scale_y_up,
                ));
            }
        }
    }
    (chans, key_times)
}

/// The times at which baked nodes are sampled: every key time of their own and their
/// ancestors' tracks, and a grid of at least 60 a second (on whole milliseconds).
fn bake_times(
    skeleton: &Skeleton,
    len: f64,
    baked: &[bool],
    ancestors_cache: &[Vec<usize>],
    key_times: &[BTreeSet<u64>],
) -> Vec<f64> {
    let n = skeleton.nodes.len();
    let mut times: BTreeSet<u64> = BTreeSet::new();
    for i in (0..n).filter(|&i| baked[i]) {
        for &a in &ancestors_cache[i] {
            times.extend(key_times[a].iter().copied());
        }
    }
    // On whole milliseconds, as every key the export adds (see `curves::whole_ms`).
    let step = BAKE_STEP_MS.max(len / BAKE_MAX_GRID);
    let mut k = 0.0f64;
    while k * step < len {
        times.insert((k * step).round().min(len).to_bits());
        k += 1.0;
    }
    times.insert(len.to_bits());
    times.insert(0f64.to_bits());
    let times: Vec<f64> = times.into_iter().map(f64::from_bits).collect();
    times
}

/// The baked nodes' motion over sequence `si`: at each of `times`, its game world
/// transform relative to its parent's, as linear keys.
fn baked_channels(
    model: &Model,
    skeleton: &Skeleton,
    si: usize,
    baked: &[bool],
    times: &[f64],
    resample: &Resample,
) -> Vec<Channel3> {
    let n = skeleton.nodes.len();
    let mut chans = Vec::new();
    let bake_nodes: Vec<usize> = (0..n).filter(|&i| baked[i]).collect();
    let mut curves: Vec<[Vec<CKey<Vec3>>; 2]> = vec![[Vec::new(), Vec::new()]; bake_nodes.len()];
    let mut rots: Vec<Vec<CKey<Quat>>> = vec![Vec::new(); bake_nodes.len()];
    for &t in times {
        let clock = Clock::unwrapped(model, si, t);
        let pose = skeleton.pose_at(&clock, None);
        for (b, &i) in bake_nodes.iter().enumerate() {
            let sn = &skeleton.nodes[i];
            let p = sn.parent.expect("baked nodes have parents");
            let g_node = mul(&pose.nodes[i].world, &translate(sn.pivot));
            let g_parent = mul(&pose.nodes[p].world, &translate(skeleton.nodes[p].pivot));
            let local = invert_affine(&g_parent)
                .map(|inv| mat_y_up(&mul(&inv, &g_node)))
                .unwrap_or(crate::anim::math::IDENTITY);
            let (r, s) = decompose(&local);
            let tr = [local[12], local[13], local[14]];
            let key = |v: Vec3| CKey {
                t,
                v,
                d_in: [0.0; 3],
                d_out: [0.0; 3],
            };
            curves[b][0].push(key(tr));
            curves[b][1].push(key(s));
            rots[b].push(CKey {
                t,
                v: r,
                d_in: [0.0; 4],
                d_out: [0.0; 4],
            });
        }
    }
    for (b, &i) in bake_nodes.iter().enumerate() {
        let [tr, sc] = std::mem::take(&mut curves[b]);
        let tr = Curve {
            interp: Interp::Linear,
            keys: tr,
        };
        let sc = Curve {
            interp: Interp::Linear,
            keys: sc,
        };
        chans.push(vec_channel(i + 1, Property::Translation, &tr, |v| v, |v| v));
        chans.push(vec_channel(i + 1, Property::Scale, &sc, |v| v, |v| v));
        // Already in glTF axes: undo the turn quat_channel applies.
        let r = Curve {
            interp: Interp::Linear,
            keys: std::mem::take(&mut rots[b])
                .into_iter()
                .map(|k| CKey {
                    v: [k.v[0], -k.v[2], k.v[1], k.v[3]],
                    ..k
                })
                .collect(),
        };
        chans.push(quat_channel(i + 1, &resample.rot(r)));
    }
    chans
}

/// What the animations could not carry: resampled translations and scalings, texture
/// animations, animated geoset colour and partial alpha.
fn animation_losses(model: &Model, linear_error: f32, losses: &mut Losses) {
    if linear_error > 0.0 {
        losses.add(
            "translation and scaling tracks",
            format!(
                "Hermite/Bezier translations and scalings sampled to linear keys (--linear; largest error {linear_error:.1e} of the model's size)"
            ),
        );
    }
    let texture_anim_lost = model
        .materials
        .iter()
        .any(|m| m.layers.iter().any(|l| l.texture_animation_id >= 0))
        && !model.texture_animations.is_empty();
    if texture_anim_lost {
        losses.add(
            "texture animations",
            "texture animation (UV motion) not carried",
        );
    }
    for (i, ga) in model.geoset_animations.iter().enumerate() {
        if ga.tracks.vector3(crate::spec::track::KGAC).is_some() {
            losses.add(
                format!("GeosetAnimation[{i}]"),
                "animated geoset colour not carried",
            );
        }
        if let Some(t) = ga.tracks.float(KGAO) {
            if t.keys.iter().any(|k| k.value > 0.0 && k.value < 1.0) {
                losses.add(
                    format!("GeosetAnimation[{i}]"),
                    "partial geoset alpha (between 0 and 1) shown as visible",
                );
            }
        }
    }
}

pub(super) fn track_global(t: &crate::model::AnyTrack) -> i32 {
    use crate::model::AnyTrack;
    match t {
        AnyTrack::Float(t) => t.global_sequence_id,
        AnyTrack::Vector3(t) => t.global_sequence_id,
        AnyTrack::Quaternion(t) => t.global_sequence_id,
        AnyTrack::Integer(t) => t.global_sequence_id,
    }
}

fn write_animation(
    root: &mut Root,
    bin: &mut Bin,
    seq: &crate::model::Sequence,
    si: usize,
    chans: Vec<Channel3>,
    copies: &[Vec<usize>],
) {
    let mut samplers = Vec::with_capacity(chans.len());
    let mut channels = Vec::with_capacity(chans.len());
    let mut inputs: BTreeMap<Vec<u32>, Index<gltf_json::Accessor>> = BTreeMap::new();
    for mut c in chans {
        sanitize(&mut c.values);
        let bits: Vec<u32> = c.times.iter().map(|t| t.to_bits()).collect();
        let input = match inputs.get(&bits) {
            Some(&a) => a,
            None => {
                let a = bin.accessor(root, &c.times, Type::Scalar, None, true, false);
                inputs.insert(bits, a);
                a
            }
        };
        let type_ = if c.property == Property::Rotation {
            Type::Vec4
        } else {
            Type::Vec3
        };
        let output = bin.accessor(root, &c.values, type_, None, false, false);
        let interpolation = match c.interp {
            Interp::Step => Interpolation::Step,
            Interp::Linear => Interpolation::Linear,
            Interp::Cubic => Interpolation::CubicSpline,
        };
        let sampler = Index::new(samplers.len() as u32);
        samplers.push(Sampler {
            extensions: None,
            extras: Default::default(),
            input,
            interpolation: Checked::Valid(interpolation),
            output,
        });
        // The node, and its copies in visibility rigs, share the sampler.
        let twins = c
            .node
            .checked_sub(1)
            .and_then(|i| copies.get(i))
            .map_or(&[][..], |v| &v[..]);
        for &node in std::iter::once(&c.node).chain(twins) {
            channels.push(Channel {
                sampler,
                target: Target {
                    extensions: None,
                    extras: Default::default(),
                    node: Index::new(node as u32),
                    path: Checked::Valid(c.property),
                },
                extensions: None,
                extras: Default::default(),
            });
        }
    }
    root.push(gltf_json::Animation {
        extensions: None,
        extras: extras({
            let mut m = json!({"sequence": si, "interval": seq.interval,
                "looping": seq.is_looping(), "rarity": seq.rarity,
                "move_speed": seq.move_speed, "sync_point": seq.sync_point,
                "flags": seq.flags});
            if let Some(h) = raw_hex(&seq.name) {
                m["name_hex"] = json!(h);
            }
            json!({ "mdlx": m })
        }),
        channels,
        name: Some(super::short_name(&seq.name.to_string())),
        samplers,
    });
}
