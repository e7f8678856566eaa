//! Skinning: geoset vertices moved by the posed nodes, and whether each geoset shows.
//!
//! - **v800 vertex groups.** Each vertex names a matrix group; a group lists node object
//!   ids; the vertex follows the average of those nodes' transforms.
//! - **Reforged SKIN.** Each vertex has four (index, weight) byte pairs; an index picks an
//!   entry of the geoset's matrix list (`MATS`), which names the node; weights are out of
//!   255. A vertex whose weights sum to 0 stays where it is.
//! - **Visibility.** A geoset shows when its geoset animation's alpha (`KGAO`, or the static
//!   alpha; 1 without a geoset animation) and the alpha of its most opaque material layer
//!   (`KMTA`, or the static alpha) are both above 0.
//! - **Texture animation.** The first UV set is moved by the first layer's texture
//!   animation (`KTAT`, `KTAR`, `KTAS` applied to `(u, v, 0)`).

use super::math::{
    normalize, qnormalize, transform_point, transform_vector, trs_about, Mat4, Vec3, IDENTITY,
    QUAT_IDENTITY,
};
use super::sample::Clock;
use super::skeleton::{Pose, Skeleton};
use crate::model::{Geoset, Model};
use crate::spec::track::{KGAC, KGAO, KMTA, KTAR, KTAS, KTAT};

/// A geoset at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct PosedGeoset {
    /// The geoset's index in [`Model::geosets`].
    pub index: usize,
    /// Vertex positions in model space.
    pub positions: Vec<Vec3>,
    /// Vertex normals in model space, unit length (zero where the stored normal is zero or
    /// missing).
    pub normals: Vec<Vec3>,
    /// The first UV set, moved by the first layer's texture animation (empty if the geoset
    /// has no UVs).
    pub uvs: Vec<[f32; 2]>,
    /// The geoset animation's alpha (1 without one).
    pub alpha: f32,
    /// The geoset animation's color (white without one).
    pub color: Vec3,
    /// The alpha of the most opaque layer of the geoset's material (1 without a material).
    pub layer_alpha: f32,
    /// Whether the geoset shows: both alphas above 0.
    pub visible: bool,
    /// Vertices whose group or skin names no node (they stay where they are stored).
    pub unbound_vertices: usize,
}

/// Every geoset of `model` posed by `pose` (from `skeleton`), at the time of `clock`.
pub fn posed_geosets(
    model: &Model,
    skeleton: &Skeleton,
    pose: &Pose,
    clock: &Clock,
) -> Vec<PosedGeoset> {
    model
        .geosets
        .iter()
        .enumerate()
        .map(|(index, g)| pose_geoset(model, skeleton, pose, clock, index, g))
        .collect()
}

/// Geoset `index` of `model` posed by `pose`, as [`posed_geosets`] poses each.
pub(crate) fn posed_geoset(
    model: &Model,
    skeleton: &Skeleton,
    pose: &Pose,
    clock: &Clock,
    index: usize,
) -> PosedGeoset {
    pose_geoset(model, skeleton, pose, clock, index, &model.geosets[index])
}

/// The world matrix of the node with this object id, if there is one.
fn node_matrix(skeleton: &Skeleton, pose: &Pose, object_id: u32) -> Option<Mat4> {
    skeleton
        .by_object_id(object_id)
        .map(|i| pose.nodes[i].world)
}

/// `sum(w_i * m_i)`, or `None` when there is nothing to blend.
fn blend(parts: impl Iterator<Item = (f32, Mat4)>) -> Option<Mat4> {
    let mut out = [0.0f32; 16];
    let mut any = false;
    for (w, m) in parts {
        any = true;
        for k in 0..16 {
            out[k] += w * m[k];
        }
    }
    any.then_some(out)
}

/// What decides whether geoset `index` shows at the time of `clock`: its geoset
/// animation's alpha and color (1 and white without one), and the alpha of the most opaque
/// layer of its material (1 without a material). It shows when both alphas are above 0.
pub fn geoset_alphas(model: &Model, clock: &Clock, index: usize) -> (f32, Vec3, f32) {
    let g_material = model.geosets.get(index).map(|g| g.material_id as usize);
    // Geoset animation: alpha and color.
    let geoa = model
        .geoset_animations
        .iter()
        .find(|a| a.geoset_id == index as i32);
    let (alpha, color) = match geoa {
        Some(a) => (
            clock.sample(a.tracks.float(KGAO), a.alpha),
            clock.sample(a.tracks.vector3(KGAC), a.color),
        ),
        None => (1.0, [1.0; 3]),
    };
    // The most opaque layer of the material.
    let material = g_material.and_then(|m| model.materials.get(m));
    let layer_alpha = material.filter(|m| !m.layers.is_empty()).map_or(1.0, |m| {
        m.layers
            .iter()
            .map(|l| clock.sample(l.tracks.float(KMTA), l.alpha))
            .fold(f32::MIN, f32::max)
    });
    (alpha, color, layer_alpha)
}

fn pose_geoset(
    model: &Model,
    skeleton: &Skeleton,
    pose: &Pose,
    clock: &Clock,
    index: usize,
    g: &Geoset,
) -> PosedGeoset {
    let n = g.vertices.len();
    let mut unbound = 0;
    // One matrix per vertex, or per group.
    let skin = g.skin.as_deref().filter(|s| s.len() == n * 8);
    let group_matrices: Vec<Option<Mat4>> = if skin.is_some() {
        Vec::new()
    } else {
        g.matrix_groups()
            .into_iter()
            .map(|ids| {
                let found = || ids.iter().filter_map(|&id| node_matrix(skeleton, pose, id));
                let w = 1.0 / found().count().max(1) as f32;
                blend(found().map(|m| (w, m)))
            })
            .collect()
    };
    let mut positions = Vec::with_capacity(n);
    let mut normals = Vec::with_capacity(n);
    for v in 0..n {
        let m = match skin {
            Some(s) => {
                let b = &s[v * 8..v * 8 + 8];
                blend((0..4).filter(|&k| b[4 + k] > 0).filter_map(|k| {
                    let id = *g.matrix_indices.get(b[k] as usize)?;
                    node_matrix(skeleton, pose, id).map(|m| (f32::from(b[4 + k]) / 255.0, m))
                }))
            }
            None => g
                .vertex_groups
                .get(v)
                .and_then(|&grp| group_matrices.get(grp as usize).copied().flatten()),
        };
        let m = m.unwrap_or_else(|| {
            unbound += 1;
            IDENTITY
        });
        positions.push(transform_point(&m, g.vertices[v]));
        let normal = g.normals.get(v).copied().unwrap_or([0.0; 3]);
        normals.push(normalize(transform_vector(&m, normal)));
    }

    let (alpha, color, layer_alpha) = geoset_alphas(model, clock, index);
    let material = model.materials.get(g.material_id as usize);
    let uv_matrix = material
        .and_then(|m| m.layers.first())
        .and_then(|l| usize::try_from(l.texture_animation_id).ok())
        .and_then(|i| model.texture_animations.get(i))
        .map(|ta| {
            let t = clock.sample(ta.tracks.vector3(KTAT), [0.0; 3]);
            let r = qnormalize(clock.sample(ta.tracks.quaternion(KTAR), QUAT_IDENTITY));
            let s = clock.sample(ta.tracks.vector3(KTAS), [1.0; 3]);
            trs_about(t, r, s, [0.0; 3])
        });
    let uvs = g
        .uv_sets
        .first()
        .map(|set| {
            set.iter()
                .map(|&[u, v]| match &uv_matrix {
                    Some(m) => {
                        let p = transform_point(m, [u, v, 0.0]);
                        [p[0], p[1]]
                    }
                    None => [u, v],
                })
                .collect()
        })
        .unwrap_or_default();
    PosedGeoset {
        index,
        positions,
        normals,
        uvs,
        alpha,
        color,
        layer_alpha,
        visible: alpha > 0.0 && layer_alpha > 0.0,
        unbound_vertices: unbound,
    }
}
