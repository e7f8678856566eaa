//! Geosets as glTF meshes: which are exported, each vertex's joints and weights, and the
//! mesh nodes with their attributes, indices and materials.

use super::buffer::Bin;
use super::material::Materials;
use super::visibility::VisibilityRig;
use super::{extras, finite3, Losses};
use crate::anim::Skeleton;
use crate::convert::gltf::to_y_up;
use crate::model::{Geoset, Model};
use gltf_json::accessor::Type;
use gltf_json::buffer::Target as BufferTarget;
use gltf_json::mesh::{Mode, Primitive, Semantic};
use gltf_json::validation::Checked;
use gltf_json::{Index, Root};
use serde_json::json;
use std::collections::BTreeMap;

/// A geoset to export: its index, its triangles, and each vertex's (joint, weight) pairs
/// (see [`skin_of`]).
pub(super) type Geo = (usize, Vec<[u16; 3]>, Vec<Vec<(usize, f32)>>);

/// A primitive's attributes.
type Attributes = BTreeMap<Checked<Semantic>, Index<gltf_json::Accessor>>;

/// The skins meshes are bound to: the shared one over every node, or a geoset's
/// visibility rig's.
pub(super) struct Skins<'a> {
    /// The skin over every node, if any.
    pub(super) shared: Option<Index<gltf_json::Skin>>,
    /// Its joints.
    pub(super) joint_count: usize,
    /// Per exported geoset, its visibility rig, if it has one.
    pub(super) rigs: &'a [Option<VisibilityRig>],
}

/// Vertices whose position or normal was replaced, over every geoset.
#[derive(Default)]
struct Broken {
    positions: usize,
    normals: usize,
}

/// The geosets to export (those the game draws at full detail, with triangles), with their
/// skinning.
pub(super) fn geosets(model: &Model, skeleton: &Skeleton, losses: &mut Losses) -> Vec<Geo> {
    let mut geo = Vec::new();
    for (gi, g) in model.geosets.iter().enumerate() {
        let place = format!("Geoset[{gi}]");
        if !g.shows_at_lod(0) {
            losses.add(
                place,
                format!(
                    "Reforged level-of-detail geoset (LOD {}, a coarser copy) not exported",
                    g.lod
                ),
            );
            continue;
        }
        let nv = g.vertices.len();
        let (tris, skipped) = g.triangles();
        if skipped > 0 {
            losses.add(place.clone(), "face groups that are not triangles dropped");
        }
        let good: Vec<[u16; 3]> = tris
            .into_iter()
            .filter(|t| t.iter().all(|&i| usize::from(i) < nv))
            .collect();
        if nv == 0 || good.is_empty() {
            losses.add(place, "geoset with no triangles not exported");
            continue;
        }
        let skin = skin_of(skeleton, g, losses, &place);
        geo.push((gi, good, skin));
    }
    geo
}

/// The mesh nodes, one per geoset at the scene root, with their materials.
#[allow(clippy::too_many_arguments)]
pub(super) fn meshes(
    model: &Model,
    geo: &[Geo],
    skins: &Skins,
    materials: &mut Materials,
    scene_nodes: &mut Vec<Index<gltf_json::Node>>,
    root: &mut Root,
    bin: &mut Bin,
    losses: &mut Losses,
) {
    let mut broken = Broken::default();
    for ((gi, tris, vskin), rig) in geo.iter().zip(skins.rigs) {
        let g = &model.geosets[*gi];
        // The joints of this geoset's skin: the shared one, or its rig's.
        let skin = rig.as_ref().map_or(skins.shared, |r| Some(r.skin));
        let joint_of = |j: usize| rig.as_ref().map_or(j, |r| r.joint_of[&j]);
        let joint_count = rig.as_ref().map_or(skins.joint_count, |r| r.joint_count);
        let nv = g.vertices.len();
        let mut attributes = vertex_attributes(g, *gi, &mut broken, root, bin, losses);
        if skin.is_some() {
            joint_attributes(vskin, joint_of, joint_count, &mut attributes, root, bin);
        }
        let indices = indices(tris, nv, root, bin);
        let material = materials.for_geoset(root, bin, *gi, losses);
        let mesh = root.push(gltf_json::Mesh {
            extensions: None,
            extras: Default::default(),
            name: Some(format!("Geoset {gi}")),
            primitives: vec![Primitive {
                attributes,
                extensions: None,
                extras: Default::default(),
                indices: Some(indices),
                material: Some(material),
                mode: Checked::Valid(Mode::Triangles),
                targets: None,
            }],
            weights: None,
        });
        let node = root.push(gltf_json::Node {
            name: Some(format!("Geoset {gi}")),
            mesh: Some(mesh),
            skin,
            extras: extras(json!({"mdlx": {"kind": "geoset", "geoset": gi,
                "material": g.material_id, "selection_group": g.selection_group,
                "skin_weights": g.skin.is_some(), "tangents": g.tangents.is_some()}})),
            ..Default::default()
        });
        scene_nodes.push(node);
    }
    if broken.positions > 0 {
        losses.add(
            format!("{} vertices", broken.positions),
            "positions that are not numbers set to 0",
        );
    }
    if broken.normals > 0 {
        losses.add(
            format!("{} vertices", broken.normals),
            "zero or broken normals replaced by up",
        );
    }
}

/// The positions, normals and texture coordinates of geoset `gi`, in glTF axes.
fn vertex_attributes(
    g: &Geoset,
    gi: usize,
    broken: &mut Broken,
    root: &mut Root,
    bin: &mut Bin,
    losses: &mut Losses,
) -> Attributes {
    let nv = g.vertices.len();
    let mut attributes = BTreeMap::new();
    let positions: Vec<f32> = g
        .vertices
        .iter()
        .flat_map(|&v| {
            let v = to_y_up(v);
            if finite3(v) {
                v
            } else {
                broken.positions += 1;
                [0.0; 3]
            }
        })
        .collect();
    let pos = bin.accessor(
        root,
        &positions,
        Type::Vec3,
        Some(BufferTarget::ArrayBuffer),
        true,
        false,
    );
    attributes.insert(Checked::Valid(Semantic::Positions), pos);
    if g.normals.len() == nv {
        let normals: Vec<f32> = g
            .normals
            .iter()
            .flat_map(|&v| {
                let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
                if len.is_finite() && len > 1e-12 {
                    to_y_up([v[0] / len, v[1] / len, v[2] / len])
                } else {
                    broken.normals += 1;
                    [0.0, 1.0, 0.0]
                }
            })
            .collect();
        let a = bin.accessor(
            root,
            &normals,
            Type::Vec3,
            Some(BufferTarget::ArrayBuffer),
            false,
            false,
        );
        attributes.insert(Checked::Valid(Semantic::Normals), a);
    }
    for (k, set) in g.uv_sets.iter().enumerate() {
        if set.len() != nv {
            losses.add(
                format!("Geoset[{gi}]"),
                "UV set of the wrong length dropped",
            );
            continue;
        }
        let uv: Vec<f32> = set
            .iter()
            .flat_map(|&[u, v]| {
                [
                    if u.is_finite() { u } else { 0.0 },
                    if v.is_finite() { v } else { 0.0 },
                ]
            })
            .collect();
        let a = bin.accessor(
            root,
            &uv,
            Type::Vec2,
            Some(BufferTarget::ArrayBuffer),
            false,
            false,
        );
        attributes.insert(Checked::Valid(Semantic::TexCoords(k as u32)), a);
    }
    attributes
}

/// `JOINTS_n` and `WEIGHTS_n`: each vertex's (joint, weight) pairs, four to a set (bytes
/// for up to 256 joints, else shorts).
fn joint_attributes(
    vskin: &[Vec<(usize, f32)>],
    joint_of: impl Fn(usize) -> usize,
    joint_count: usize,
    attributes: &mut Attributes,
    root: &mut Root,
    bin: &mut Bin,
) {
    let nv = vskin.len();
    let sets = vskin.iter().map(|v| v.len()).max().unwrap_or(1).div_ceil(4);
    for set in 0..sets {
        let mut j16: Vec<u16> = Vec::with_capacity(nv * 4);
        let mut w: Vec<f32> = Vec::with_capacity(nv * 4);
        for v in vskin {
            for k in 0..4 {
                match v.get(set * 4 + k) {
                    Some(&(j, wt)) => {
                        j16.push(joint_of(j) as u16);
                        w.push(wt);
                    }
                    None => {
                        j16.push(0);
                        w.push(0.0);
                    }
                }
            }
        }
        let ja = if joint_count <= 256 {
            let j8: Vec<u8> = j16.iter().map(|&j| j as u8).collect();
            bin.accessor(
                root,
                &j8,
                Type::Vec4,
                Some(BufferTarget::ArrayBuffer),
                false,
                false,
            )
        } else {
            bin.accessor(
                root,
                &j16,
                Type::Vec4,
                Some(BufferTarget::ArrayBuffer),
                false,
                false,
            )
        };
        let wa = bin.accessor(
            root,
            &w,
            Type::Vec4,
            Some(BufferTarget::ArrayBuffer),
            false,
            false,
        );
        attributes.insert(Checked::Valid(Semantic::Joints(set as u32)), ja);
        attributes.insert(Checked::Valid(Semantic::Weights(set as u32)), wa);
    }
}

/// The triangles' vertex indices (shorts when every vertex fits, else ints).
fn indices(
    tris: &[[u16; 3]],
    nv: usize,
    root: &mut Root,
    bin: &mut Bin,
) -> Index<gltf_json::Accessor> {
    let flat: Vec<u32> = tris
        .iter()
        .flat_map(|t| t.map(u32::from))
        .collect::<Vec<_>>();
    if nv <= 65535 {
        let i16: Vec<u16> = flat.iter().map(|&i| i as u16).collect();
        bin.accessor(
            root,
            &i16,
            Type::Scalar,
            Some(BufferTarget::ElementArrayBuffer),
            false,
            false,
        )
    } else {
        bin.accessor(
            root,
            &flat,
            Type::Scalar,
            Some(BufferTarget::ElementArrayBuffer),
            false,
            false,
        )
    }
}

/// Each vertex's (joint, weight) pairs; joint `n` (the skeleton's length) is the extra
/// joint of vertices bound to no node.
fn skin_of(
    skeleton: &Skeleton,
    g: &crate::model::Geoset,
    losses: &mut Losses,
    place: &str,
) -> Vec<Vec<(usize, f32)>> {
    let n = skeleton.nodes.len();
    let nv = g.vertices.len();
    let merge =
        |pairs: &mut Vec<(usize, f32)>, j: usize, w: f32| match pairs.iter_mut().find(|p| p.0 == j)
        {
            Some(p) => p.1 += w,
            None => pairs.push((j, w)),
        };
    let mut unbound = 0usize;
    let mut renormalised = 0usize;
    let out: Vec<Vec<(usize, f32)>> = match g.skin.as_deref().filter(|s| s.len() == nv * 8) {
        Some(s) => (0..nv)
            .map(|v| {
                let b = &s[v * 8..v * 8 + 8];
                let mut pairs = Vec::new();
                let mut total = 0u32;
                for k in 0..4 {
                    if b[4 + k] == 0 {
                        continue;
                    }
                    let Some(j) = g
                        .matrix_indices
                        .get(usize::from(b[k]))
                        .and_then(|&id| skeleton.by_object_id(id))
                    else {
                        continue;
                    };
                    total += u32::from(b[4 + k]);
                    merge(&mut pairs, j, f32::from(b[4 + k]));
                }
                if pairs.is_empty() {
                    unbound += 1;
                    return vec![(n, 1.0)];
                }
                if total != 255 {
                    renormalised += 1;
                }
                for p in &mut pairs {
                    p.1 /= total as f32;
                }
                pairs
            })
            .collect(),
        None => {
            let groups: Vec<Vec<(usize, f32)>> = g
                .matrix_groups()
                .into_iter()
                .map(|ids| {
                    let found: Vec<usize> = ids
                        .iter()
                        .filter_map(|&id| skeleton.by_object_id(id))
                        .collect();
                    let mut pairs = Vec::new();
                    for &j in &found {
                        merge(&mut pairs, j, 1.0 / found.len() as f32);
                    }
                    pairs
                })
                .collect();
            (0..nv)
                .map(|v| {
                    match g
                        .vertex_groups
                        .get(v)
                        .and_then(|&grp| groups.get(usize::from(grp)))
                        .filter(|p| !p.is_empty())
                    {
                        Some(p) => p.clone(),
                        None => {
                            unbound += 1;
                            vec![(n, 1.0)]
                        }
                    }
                })
                .collect()
        }
    };
    if unbound > 0 {
        losses.add(
            format!("{place} ({unbound} vertices)"),
            "vertices bound to no node stay in place (bound to an extra joint)",
        );
    }
    if renormalised > 0 {
        losses.add(
            format!("{place} ({renormalised} vertices)"),
            "skin weights that do not add up to 255 over existing nodes renormalised",
        );
    }
    let mut out = out;
    for v in &mut out {
        // Heaviest first: a viewer that reads only four keeps the ones that matter most.
        v.sort_by(|a, b| b.1.total_cmp(&a.1));
    }
    out
}
