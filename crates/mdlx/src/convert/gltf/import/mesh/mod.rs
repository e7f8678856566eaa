//! Primitives as geosets: geometry, skin weights as matrix groups or skin bytes, geoset
//! splitting, and extents and the skinning error measured by posing the built model.

use super::super::source::GltfError;
use super::material::Materials;
use super::{finite, from_y_up, GeosetSource, Importer};
use crate::anim::math::{invert_affine, transform_point, transform_vector, Mat4, Vec3};
use crate::anim::{posed_geosets, Clock, Skeleton};
use crate::convert::skin::{
    apportion, group_of, split_by, FORMAT_LIMITS, MAX_GROUPS, MAX_VERTICES,
};
use crate::model::{Extent, FixedString, Geoset, Model};
use gltf_json::mesh::{Mode, Semantic};
use gltf_json::validation::Checked;
use std::collections::{BTreeMap, HashMap};

mod extents;
mod vertices;

pub(super) use extents::extents_and_error;
use vertices::*;

/// Per vertex whose stored skinning differs from the glTF's weights: the vertex and the
/// glTF's (node, weight) pairs.
pub(super) type Exact = Vec<(u32, Vec<(usize, f32)>)>;

/// One built geoset, before node ids are known: `matrix_indices` hold Warcraft node
/// indices (of `Importer::wnodes`) until [`remap`] turns them into object ids.
pub(super) struct Built {
    pub geoset: Geoset,
    pub source: GeosetSource,
    /// Vertices whose stored skinning differs from the glTF's weights: (vertex, the
    /// glTF's (node, weight) pairs).
    pub exact: Exact,
    /// The glTF material.
    pub material: Option<usize>,
}

/// How a vertex is skinned in the model: a version 800 group (node entries, repeated to
/// weigh more) or up to four (node, weight in 255ths) pairs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Binding {
    Group(Vec<usize>),
    Skin(Vec<(usize, u8)>),
}

impl Binding {
    fn nodes(&self) -> Vec<usize> {
        match self {
            Binding::Group(g) => g.clone(),
            Binding::Skin(s) => s.iter().map(|p| p.0).collect(),
        }
    }
}

/// Up to four (node, 255ths) pairs for `pairs` (heaviest first, summing to 1).
fn skin_of(pairs: &[(usize, f32)]) -> (Vec<(usize, u8)>, bool) {
    let kept = &pairs[..pairs.len().min(4)];
    let sum: f32 = kept.iter().map(|p| p.1).sum();
    let w: Vec<f32> = kept.iter().map(|p| p.1 / sum).collect();
    let counts = apportion(&w, 255);
    let out: Vec<(usize, u8)> = kept
        .iter()
        .zip(&counts)
        .filter(|(_, &c)| c > 0)
        .map(|(p, &c)| (p.0, c as u8))
        .collect();
    let exact = pairs.len() <= 4
        && kept
            .iter()
            .zip(&counts)
            .all(|(p, &c)| (p.1 * 255.0 - c as f32).abs() < 1e-3);
    (out, exact)
}

fn attr(p: &gltf_json::mesh::Primitive, s: Semantic) -> Option<usize> {
    p.attributes.get(&Checked::Valid(s)).map(|a| a.value())
}

/// How a mesh's vertices are placed and skinned.
struct Frame {
    /// The Warcraft nodes of the glTF skin's joints (empty without a skin).
    joints: Vec<usize>,
    /// The Warcraft node every vertex follows, for a mesh without a skin.
    rigid: Option<usize>,
    /// From the glTF's vertex positions to the model's (before the turn to +Z up).
    place_m: Mat4,
    /// The same for normals.
    normal_m: Mat4,
    /// Whether `place_m` mirrors (the triangles' winding turns).
    flip: bool,
    /// Skin weights (version 900+, unless an exported geoset said it had none).
    skin_weights: bool,
    /// Tangents (likewise).
    with_tangents: bool,
}

/// Where a primitive comes from: (glTF node, mesh, primitive).
type Origin = (usize, usize, usize);

/// A primitive's vertex attributes as read: positions, normals and tangents if any, and
/// every texture coordinate set.
struct Attributes {
    pos: Vec<f32>,
    normals: Option<Vec<f32>>,
    tangents: Option<Vec<f32>>,
    uvs: Vec<Vec<f32>>,
}

/// A primitive's vertices in the model's axes.
struct Geometry {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    uv_sets: Vec<Vec<[f32; 2]>>,
    tangents: Option<Vec<[f32; 4]>>,
}

/// The geosets of the glTF nodes' meshes (`(node, mesh)` pairs), each primitive one
/// geoset or more.
pub(super) fn build(
    imp: &mut Importer,
    meshes: &[(usize, usize)],
    mats: &mut Materials,
) -> Result<Vec<Built>, GltfError> {
    let doc = imp.doc;
    let mut out = Vec::new();
    let mut skin_cache: HashMap<usize, Vec<usize>> = HashMap::new();
    for &(node, mi) in meshes {
        let frame = frame(imp, node, mi, &mut skin_cache)?;
        for (pi, prim) in doc.meshes[mi].primitives.iter().enumerate() {
            primitive(imp, mats, &frame, (node, mi, pi), prim, &mut out)?;
        }
    }
    Ok(out)
}

/// How the vertices of mesh `mi` on glTF node `node` are placed and skinned (a mesh
/// without a skin follows its node, or the Root bone when it does not move).
fn frame(
    imp: &mut Importer,
    node: usize,
    mi: usize,
    skin_cache: &mut HashMap<usize, Vec<usize>>,
) -> Result<Frame, GltfError> {
    let doc = imp.doc;
    let version = imp.opts.version;
    let mesh = &doc.meshes[mi];
    if mesh.weights.as_ref().is_some_and(|w| !w.is_empty())
        || mesh
            .primitives
            .iter()
            .any(|p| p.targets.as_ref().is_some_and(|t| !t.is_empty()))
    {
        imp.losses.add(
            format!("meshes[{mi}]"),
            "morph targets not carried (the base shape is kept)",
        );
    }
    let skin = doc.nodes[node]
        .skin
        .map(|s| s.value())
        .filter(|&s| s < doc.skins.len());
    let joints: Vec<usize> = match skin {
        Some(s) => match skin_cache.get(&s) {
            Some(j) => j.clone(),
            None => {
                let j = imp.skin_nodes(s)?;
                skin_cache.insert(s, j.clone());
                j
            }
        },
        None => Vec::new(),
    };
    // A geoset this crate exported says whether it had skin weights and tangents
    // (Reforged files may do without either).
    let said = |k: &str| {
        imp.mdlx[node]
            .as_ref()
            .and_then(|m| m.get(k))
            .and_then(serde_json::Value::as_bool)
    };
    let skin_weights = version >= 900 && said("skin_weights") != Some(false);
    let with_tangents = version >= 900 && said("tangents") != Some(false);
    let world = imp.g.world[node];
    let safe = imp.g.safe[node];
    let moving = skin.is_none() && imp.moves(node);
    let rigid = if skin.is_some() {
        None
    } else if moving {
        let w = imp.wnode(node, safe, super::Kind::Bone);
        imp.wnodes[w].bound = true;
        Some(w)
    } else {
        Some(imp.root_bone())
    };
    // Skinned vertices are in bind space; a moving mesh's in its node's bind frame;
    // a still one's where its node puts it.
    let place_m: Mat4 = if skin.is_some() {
        crate::anim::math::IDENTITY
    } else if moving {
        safe
    } else {
        world
    };
    let normal_m: Mat4 = invert_affine(&place_m)
        .map(|i| transpose3(&i))
        .unwrap_or(crate::anim::math::IDENTITY);
    let flip = skin.is_none() && super::det3(&place_m) < 0.0;
    Ok(Frame {
        joints,
        rigid,
        place_m,
        normal_m,
        flip,
        skin_weights,
        with_tangents,
    })
}

/// Primitive `prim` as geosets, pushed to `out` (nothing when it holds no triangles).
fn primitive(
    imp: &mut Importer,
    mats: &mut Materials,
    f: &Frame,
    (node, mi, pi): Origin,
    prim: &gltf_json::mesh::Primitive,
    out: &mut Vec<Built>,
) -> Result<(), GltfError> {
    let at = format!("meshes[{mi}].primitives[{pi}]");
    let Some(mode) = triangle_mode(imp, prim, &at) else {
        return Ok(());
    };
    let Some(pos_a) = attr(prim, Semantic::Positions) else {
        imp.losses
            .add(at, "primitive without positions not carried");
        return Ok(());
    };
    let attrs = read_attributes(imp, prim, &at, pos_a)?;
    let nv = attrs.pos.len() / 3;
    let tris = triangles(imp, prim, &at, mode, nv, f.flip)?;
    let weights = vertex_weights(imp, prim, &at, nv, f)?;
    let (bindings, exact) = bind(imp, &weights, f.skin_weights);
    let geo = geometry(attrs, &tris, f);
    let material = prim.material.map(|m| m.value());
    let material_id = mats.material(imp, material, &at)?;
    // Split into geosets of at most 256 groups and 65,535 vertices.
    let chunks = split(&bindings, &tris, nv);
    if chunks.len() > 1 {
        imp.losses.add(
                    at.clone(),
                    format!(
                        "split into {} geosets (a geoset holds at most {MAX_GROUPS} matrix groups and {MAX_VERTICES} vertices)",
                        chunks.len()
                    ),
                );
    }
    for (verts, ctris) in chunks {
        let (g, exact_here) = chunk_geoset(
            &geo,
            &bindings,
            &exact,
            &verts,
            &ctris,
            material_id,
            f.skin_weights,
        );
        out.push(Built {
            geoset: g,
            source: GeosetSource {
                node,
                mesh: mi,
                primitive: pi,
                vertices: verts,
            },
            exact: exact_here,
            material,
        });
    }
    Ok(())
}

/// The primitive's mode when it draws triangles (points and lines are listed as lost),
/// listing vertex colours as lost.
fn triangle_mode(imp: &mut Importer, prim: &gltf_json::mesh::Primitive, at: &str) -> Option<Mode> {
    let mode = match prim.mode {
        Checked::Valid(m) => m,
        Checked::Invalid => {
            imp.losses
                .add(at.to_string(), "primitive of an unknown mode not carried");
            return None;
        }
    };
    if !matches!(
        mode,
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
    ) {
        imp.losses.add(
            at.to_string(),
            "points and lines not carried (the game draws triangles)",
        );
        return None;
    }
    if prim
        .attributes
        .keys()
        .any(|k| matches!(k, Checked::Valid(Semantic::Colors(_))))
    {
        imp.losses.add(at.to_string(), "vertex colours not carried");
    }
    Some(mode)
}

/// One geoset of a primitive split by [`split`]: vertices `verts` (of the primitive) and
/// their triangles `ctris`, with its matrix groups (and skin bytes); and the vertices of
/// `exact` it holds, by their index in it.
fn chunk_geoset(
    geo: &Geometry,
    bindings: &[Binding],
    exact: &Exact,
    verts: &[u32],
    ctris: &[[u32; 3]],
    material_id: u32,
    skin_weights: bool,
) -> (Geoset, Exact) {
    let Geometry {
        positions,
        normals,
        uv_sets,
        tangents,
    } = geo;
    let mut local: HashMap<u32, u32> = HashMap::with_capacity(verts.len());
    for (k, &v) in verts.iter().enumerate() {
        local.insert(v, k as u32);
    }
    let mut g = Geoset {
        vertices: verts.iter().map(|&v| positions[v as usize]).collect(),
        normals: verts.iter().map(|&v| normals[v as usize]).collect(),
        face_types: vec![4],
        face_group_sizes: vec![ctris.len() as u32 * 3],
        faces: ctris
            .iter()
            .flat_map(|t| t.map(|v| local[&v] as u16))
            .collect(),
        material_id,
        uv_sets: uv_sets
            .iter()
            .map(|s| verts.iter().map(|&v| s[v as usize]).collect())
            .collect(),
        tangents: tangents
            .as_ref()
            .map(|t| verts.iter().map(|&v| t[v as usize]).collect()),
        lod_name: FixedString::default(),
        ..Default::default()
    };
    // Matrix groups.
    let mut groups: BTreeMap<Vec<usize>, u8> = BTreeMap::new();
    let mut order: Vec<Vec<usize>> = Vec::new();
    let vb: Vec<&Binding> = verts.iter().map(|&v| &bindings[v as usize]).collect();
    let group_key = |b: &Binding| -> Vec<Vec<usize>> {
        match b {
            Binding::Group(gr) => vec![gr.clone()],
            Binding::Skin(s) => s.iter().map(|p| vec![p.0]).collect(),
        }
    };
    for b in &vb {
        for k in group_key(b) {
            if !groups.contains_key(&k) {
                groups.insert(k.clone(), order.len() as u8);
                order.push(k);
            }
        }
    }
    g.matrix_group_sizes = order.iter().map(|k| k.len() as u32).collect();
    g.matrix_indices = order.iter().flatten().map(|&n| n as u32).collect();
    g.vertex_groups = vb
        .iter()
        .map(|b| match b {
            Binding::Group(gr) => groups[gr],
            Binding::Skin(s) => groups[&vec![s[0].0]],
        })
        .collect();
    if skin_weights {
        let mut skin = Vec::with_capacity(vb.len() * 8);
        for b in &vb {
            let Binding::Skin(s) = b else {
                unreachable!("version 900+ binds by skin")
            };
            let mut idx = [0u8; 4];
            let mut w = [0u8; 4];
            for (k, p) in s.iter().enumerate().take(4) {
                idx[k] = groups[&vec![p.0]];
                w[k] = p.1;
            }
            skin.extend_from_slice(&idx);
            skin.extend_from_slice(&w);
        }
        g.skin = Some(skin.into_iter().map(u16::from).collect());
    }
    let exact_here: Vec<(u32, Vec<(usize, f32)>)> = exact
        .iter()
        .filter_map(|(v, p)| local.get(v).map(|&l| (l, p.clone())))
        .collect();
    (g, exact_here)
}

/// Vertex sets and triangles of each geoset a primitive becomes: all its vertices, in
/// order, when they fit in one; else triangles packed in order until a geoset would hold
/// more than 256 groups or 65,535 vertices.
fn split(bindings: &[Binding], tris: &[[u32; 3]], nv: usize) -> Vec<(Vec<u32>, Vec<[u32; 3]>)> {
    let keys = |v: u32| -> Vec<Vec<usize>> {
        match &bindings[v as usize] {
            Binding::Group(g) => vec![g.clone()],
            Binding::Skin(s) => s.iter().map(|p| vec![p.0]).collect(),
        }
    };
    split_by(keys, tris, nv, FORMAT_LIMITS)
}

/// Turns the Warcraft node indices in `model`'s geosets into object ids.
pub(super) fn remap(model: &mut Model, ids: &[u32], exact: &mut [Exact]) {
    for g in &mut model.geosets {
        for m in &mut g.matrix_indices {
            *m = ids[*m as usize];
        }
    }
    for e in exact.iter_mut() {
        for (_, pairs) in e.iter_mut() {
            for p in pairs.iter_mut() {
                p.0 = ids[p.0] as usize;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apportion_sums_to_the_total_and_rounds_the_largest_remainders_up() {
        assert_eq!(apportion(&[0.5, 0.5], 255), vec![128, 127]);
        assert_eq!(apportion(&[1.0 / 3.0; 3], 255), vec![85, 85, 85]);
        let w = [0.41, 0.33, 0.26];
        assert_eq!(apportion(&w, 255).iter().sum::<u32>(), 255);
        assert_eq!(apportion(&[0.6, 0.4], 4), vec![2, 2]);
    }

    #[test]
    fn groups_repeat_bones_to_weigh_more_and_keep_equal_weights_exactly() {
        // 3/4 and 1/4: a bone three times.
        assert_eq!(group_of(&[(7, 0.75), (2, 0.25)]), (vec![2, 7, 7, 7], true));
        // 2/3 and 1/3: three entries.
        assert_eq!(
            group_of(&[(1, 2.0 / 3.0), (0, 1.0 / 3.0)]),
            (vec![0, 1, 1], true)
        );
        // 0.6 and 0.4: the nearest is 2/3 and 1/3, not exact.
        assert_eq!(group_of(&[(1, 0.6), (0, 0.4)]), (vec![0, 1, 1], false));
        // Six equal weights: the six bones, however many.
        let six: Vec<(usize, f32)> = (0..6).map(|b| (b, 1.0 / 6.0)).collect();
        assert_eq!(group_of(&six), ((0..6).collect(), true));
    }

    #[test]
    fn skin_bytes_keep_the_four_heaviest_and_sum_to_255() {
        let (s, exact) = skin_of(&[(0, 0.4), (1, 0.3), (2, 0.2), (3, 0.05), (4, 0.05)]);
        assert!(!exact);
        assert_eq!(s.len(), 4);
        assert_eq!(s.iter().map(|p| u32::from(p.1)).sum::<u32>(), 255);
        let (s, exact) = skin_of(&[(3, 170.0 / 255.0), (5, 85.0 / 255.0)]);
        assert!(exact);
        assert_eq!(s, vec![(3, 170), (5, 85)]);
    }

    #[test]
    fn a_split_keeps_each_geoset_within_256_groups() {
        // 300 single-bone vertices in triangles of three different bones each.
        let bindings: Vec<Binding> = (0..300).map(|v| Binding::Group(vec![v])).collect();
        let tris: Vec<[u32; 3]> = (0..100).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
        let chunks = split(&bindings, &tris, 300);
        assert_eq!(chunks.len(), 2);
        assert_eq!(chunks.iter().map(|c| c.1.len()).sum::<usize>(), 100);
        for (verts, _) in &chunks {
            assert!(verts.len() <= MAX_GROUPS);
        }
    }
}
