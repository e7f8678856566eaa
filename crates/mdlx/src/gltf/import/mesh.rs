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

pub(super) fn build(
    imp: &mut Importer,
    meshes: &[(usize, usize)],
    mats: &mut Materials,
) -> Result<Vec<Built>, GltfError> {
    let doc = imp.doc;
    let version = imp.opts.version;
    let mut out = Vec::new();
    let mut skin_cache: HashMap<usize, Vec<usize>> = HashMap::new();
    for &(node, mi) in meshes {
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
        for (pi, prim) in mesh.primitives.iter().enumerate() {
            let at = format!("meshes[{mi}].primitives[{pi}]");
            let mode = match prim.mode {
                Checked::Valid(m) => m,
                Checked::Invalid => {
                    imp.losses
                        .add(at, "primitive of an unknown mode not carried");
                    continue;
                }
            };
            if !matches!(
                mode,
                Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
            ) {
                imp.losses.add(
                    at,
                    "points and lines not carried (the game draws triangles)",
                );
                continue;
            }
            if prim
                .attributes
                .keys()
                .any(|k| matches!(k, Checked::Valid(Semantic::Colors(_))))
            {
                imp.losses.add(at.clone(), "vertex colours not carried");
            }
            let Some(pos_a) = attr(prim, Semantic::Positions) else {
                imp.losses
                    .add(at, "primitive without positions not carried");
                continue;
            };
            let pos_at = format!("{at}.attributes.POSITION");
            let (pos, comps) = imp.src.read_f32(pos_a, &pos_at)?;
            if comps != 3 {
                return Err(GltfError::new(pos_at, format!("{comps} components, not 3")));
            }
            if !finite(&pos) {
                return Err(GltfError::new(pos_at, "a position is not a finite number"));
            }
            let nv = pos.len() / 3;
            let read3 = |imp: &Importer,
                         s: Semantic,
                         name: &str,
                         comps_want: usize|
             -> Result<Option<Vec<f32>>, GltfError> {
                let Some(a) = attr(prim, s) else {
                    return Ok(None);
                };
                let p = format!("{at}.attributes.{name}");
                let (v, c) = imp.src.read_f32(a, &p)?;
                if c != comps_want || v.len() != nv * comps_want {
                    return Err(GltfError::new(
                        p,
                        format!("{} elements of {c} components for {nv} vertices ({comps_want} expected)", v.len() / c.max(1)),
                    ));
                }
                Ok(Some(v))
            };
            let normals = read3(imp, Semantic::Normals, "NORMAL", 3)?;
            let tangents = read3(imp, Semantic::Tangents, "TANGENT", 4)?;
            let mut uvs = Vec::new();
            for k in 0.. {
                match read3(imp, Semantic::TexCoords(k), &format!("TEXCOORD_{k}"), 2)? {
                    Some(v) => uvs.push(v),
                    None => break,
                }
            }
            // Indices and triangles.
            let indices: Vec<u32> = match prim.indices {
                Some(a) => {
                    let p = format!("{at}.indices");
                    let (v, c) = imp.src.read_u32(a.value(), &p)?;
                    if c != 1 {
                        return Err(GltfError::new(p, format!("{c} components, not 1")));
                    }
                    if let Some(bad) = v.iter().position(|&i| i as usize >= nv) {
                        return Err(GltfError::new(
                            p,
                            format!("index {bad} is {}, past the {nv} vertices", v[bad]),
                        ));
                    }
                    v
                }
                None => (0..nv as u32).collect(),
            };
            let mut tris: Vec<[u32; 3]> = match mode {
                Mode::TriangleStrip => (2..indices.len())
                    .map(|k| {
                        if k % 2 == 0 {
                            [indices[k - 2], indices[k - 1], indices[k]]
                        } else {
                            [indices[k - 1], indices[k - 2], indices[k]]
                        }
                    })
                    .collect(),
                Mode::TriangleFan => (2..indices.len())
                    .map(|k| [indices[0], indices[k - 1], indices[k]])
                    .collect(),
                _ => indices
                    .chunks_exact(3)
                    .map(|c| [c[0], c[1], c[2]])
                    .collect(),
            };
            if mode != Mode::Triangles {
                tris.retain(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2]);
            }
            if flip {
                for t in &mut tris {
                    t.swap(1, 2);
                }
            }
            // Skin weights per vertex: (Warcraft node, weight), heaviest first, summing to 1.
            let mut weights: Vec<Vec<(usize, f32)>> = vec![Vec::new(); nv];
            let mut unweighted = 0usize;
            match rigid {
                Some(w) => {
                    for v in &mut weights {
                        v.push((w, 1.0));
                    }
                }
                None => {
                    for set in 0.. {
                        let (Some(ja), Some(wa)) = (
                            attr(prim, Semantic::Joints(set)),
                            attr(prim, Semantic::Weights(set)),
                        ) else {
                            break;
                        };
                        let jp = format!("{at}.attributes.JOINTS_{set}");
                        let wp = format!("{at}.attributes.WEIGHTS_{set}");
                        let (j, jc) = imp.src.read_u32(ja, &jp)?;
                        let (w, wc) = imp.src.read_f32(wa, &wp)?;
                        if jc != 4 || j.len() != nv * 4 {
                            return Err(GltfError::new(
                                jp,
                                format!(
                                    "{} joint sets of {jc} for {nv} vertices",
                                    j.len() / jc.max(1)
                                ),
                            ));
                        }
                        if wc != 4 || w.len() != nv * 4 {
                            return Err(GltfError::new(
                                wp,
                                format!(
                                    "{} weight sets of {wc} for {nv} vertices",
                                    w.len() / wc.max(1)
                                ),
                            ));
                        }
                        for v in 0..nv {
                            for k in 0..4 {
                                let wt = w[v * 4 + k];
                                if !(wt.is_finite() && wt > 0.0) {
                                    continue;
                                }
                                let ji = j[v * 4 + k] as usize;
                                let Some(&node) = joints.get(ji) else {
                                    return Err(GltfError::new(
                                        jp.clone(),
                                        format!("vertex {v} names joint {ji}, past the skin's {} joints", joints.len()),
                                    ));
                                };
                                match weights[v].iter_mut().find(|p| p.0 == node) {
                                    Some(p) => p.1 += wt,
                                    None => weights[v].push((node, wt)),
                                }
                            }
                        }
                    }
                    let root = if weights.iter().any(|v| v.is_empty()) {
                        Some(imp.root_bone())
                    } else {
                        None
                    };
                    for v in &mut weights {
                        let sum: f32 = v.iter().map(|p| p.1).sum();
                        if v.is_empty() || sum <= 0.0 {
                            unweighted += 1;
                            *v = vec![(root.expect("made above"), 1.0)];
                            continue;
                        }
                        for p in v.iter_mut() {
                            p.1 /= sum;
                        }
                        v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                    }
                }
            }
            if unweighted > 0 {
                imp.losses.add(
                    format!("{at} ({unweighted} vertices)"),
                    "vertices with no skin weight follow the still Root bone",
                );
            }
            // Bindings.
            let mut bindings = Vec::with_capacity(nv);
            let mut exact = Vec::new();
            for (v, pairs) in weights.iter().enumerate() {
                let (b, ok) = if skin_weights {
                    let (s, ok) = skin_of(pairs);
                    (Binding::Skin(s), ok)
                } else {
                    let (g, ok) = group_of(pairs);
                    (Binding::Group(g), ok)
                };
                if !ok {
                    exact.push((v as u32, pairs.clone()));
                }
                bindings.push(b);
            }
            for b in &bindings {
                for n in b.nodes() {
                    imp.wnodes[n].bound = true;
                }
            }
            // Geometry in the model's axes.
            let positions: Vec<Vec3> = pos
                .chunks_exact(3)
                .map(|c| from_y_up(transform_point(&place_m, [c[0], c[1], c[2]])))
                .collect();
            let normals: Vec<Vec3> = match &normals {
                Some(n) => n
                    .chunks_exact(3)
                    .map(|c| {
                        let v = transform_vector(&normal_m, [c[0], c[1], c[2]]);
                        let v = if finite(&v) {
                            crate::anim::math::normalize(v)
                        } else {
                            [0.0; 3]
                        };
                        from_y_up(v)
                    })
                    .collect(),
                None => smooth_normals(&positions, &tris),
            };
            let uv_sets: Vec<Vec<[f32; 2]>> = if uvs.is_empty() {
                vec![vec![[0.0, 0.0]; nv]]
            } else {
                uvs.iter()
                    .map(|u| {
                        u.chunks_exact(2)
                            .map(|c| [c[0], c[1]].map(|x| if x.is_finite() { x } else { 0.0 }))
                            .collect()
                    })
                    .collect()
            };
            let tangents: Option<Vec<[f32; 4]>> = if with_tangents {
                Some(match &tangents {
                    Some(t) => t
                        .chunks_exact(4)
                        .map(|c| {
                            let v = from_y_up(crate::anim::math::normalize(transform_vector(
                                &place_m,
                                [c[0], c[1], c[2]],
                            )));
                            let w = if c[3] < 0.0 { -1.0 } else { 1.0 };
                            [v[0], v[1], v[2], if flip { -w } else { w }]
                        })
                        .collect(),
                    None => make_tangents(&positions, &normals, &uv_sets[0], &tris),
                })
            } else {
                None
            };
            if tangents.is_none()
                && prim
                    .attributes
                    .contains_key(&Checked::Valid(Semantic::Tangents))
            {
                // Classic models have no tangents; nothing to say: normal maps are lost
                // with the material (listed there).
            }
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
        }
    }
    Ok(out)
}

fn transpose3(m: &Mat4) -> Mat4 {
    let mut t = *m;
    for r in 0..3 {
        for c in 0..3 {
            t[c * 4 + r] = m[r * 4 + c];
        }
    }
    t[12] = 0.0;
    t[13] = 0.0;
    t[14] = 0.0;
    t
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

/// Area-weighted vertex normals, for primitives without any.
fn smooth_normals(p: &[Vec3], tris: &[[u32; 3]]) -> Vec<Vec3> {
    use crate::anim::math::{cross, normalize, sub};
    let mut n = vec![[0.0f32; 3]; p.len()];
    for t in tris {
        let [a, b, c] = t.map(|i| p[i as usize]);
        let f = cross(sub(b, a), sub(c, a));
        for &i in t {
            for k in 0..3 {
                n[i as usize][k] += f[k];
            }
        }
    }
    n.into_iter()
        .map(|v| {
            let v = normalize(v);
            if finite(&v) && v != [0.0; 3] {
                v
            } else {
                [0.0, 0.0, 1.0]
            }
        })
        .collect()
}

/// Per-vertex tangents from the first UV set (accumulated per triangle, made
/// perpendicular to the normal; `w` the handedness), for Reforged geosets.
fn make_tangents(p: &[Vec3], n: &[Vec3], uv: &[[f32; 2]], tris: &[[u32; 3]]) -> Vec<[f32; 4]> {
    use crate::anim::math::{cross, dot, normalize, scale, sub};
    let mut t = vec![[0.0f32; 3]; p.len()];
    let mut b = vec![[0.0f32; 3]; p.len()];
    for tri in tris {
        let [i0, i1, i2] = tri.map(|i| i as usize);
        let e1 = sub(p[i1], p[i0]);
        let e2 = sub(p[i2], p[i0]);
        let (du1, dv1) = (uv[i1][0] - uv[i0][0], uv[i1][1] - uv[i0][1]);
        let (du2, dv2) = (uv[i2][0] - uv[i0][0], uv[i2][1] - uv[i0][1]);
        let r = du1 * dv2 - du2 * dv1;
        if r.abs() < 1e-12 || !r.is_finite() {
            continue;
        }
        let f = 1.0 / r;
        let tt = [0, 1, 2].map(|k| (e1[k] * dv2 - e2[k] * dv1) * f);
        let bb = [0, 1, 2].map(|k| (e2[k] * du1 - e1[k] * du2) * f);
        for i in [i0, i1, i2] {
            for k in 0..3 {
                t[i][k] += tt[k];
                b[i][k] += bb[k];
            }
        }
    }
    (0..p.len())
        .map(|i| {
            let nn = n[i];
            let v = normalize(sub(t[i], scale(nn, dot(nn, t[i]))));
            let v = if finite(&v) && v != [0.0; 3] {
                v
            } else {
                // Any direction perpendicular to the normal.
                let a = if nn[0].abs() < 0.9 {
                    [1.0, 0.0, 0.0]
                } else {
                    [0.0, 1.0, 0.0]
                };
                normalize(cross(a, nn))
            };
            let w = if dot(cross(nn, v), b[i]) < 0.0 {
                -1.0
            } else {
                1.0
            };
            [v[0], v[1], v[2], w]
        })
        .collect()
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

fn union(a: &Extent, b: &Extent, a_empty: bool) -> Extent {
    if a_empty {
        return *b;
    }
    Extent::around([a.min, a.max, b.min, b.max])
}

/// The most moments a sequence is posed at for its extents and the skinning error.
const MAX_SAMPLES: usize = 64;

/// Sets every extent (model and geosets at rest; each sequence and each geoset per
/// sequence over the posed vertices at every key time, up to [`MAX_SAMPLES`] moments a
/// sequence, evenly chosen when there are more) and returns the largest distance between
/// a vertex as the model skins it and as the glTF's weights would, over those moments.
/// `exact` holds, per geoset, the vertices whose skinning differs, with node object ids.
pub(super) fn extents_and_error(model: &mut Model, exact: &[Exact]) -> f32 {
    for g in &mut model.geosets {
        g.extent = Extent::around(g.vertices.iter().copied());
    }
    let all = Extent::around(
        model
            .geosets
            .iter()
            .flat_map(|g| g.vertices.iter().copied()),
    );
    model.info.extent = all;
    let nseq = model.sequences.len();
    let mut seq_ext: Vec<Extent> = vec![Extent::default(); nseq];
    let mut geo_ext: Vec<Vec<Option<Extent>>> = vec![vec![None; nseq]; model.geosets.len()];
    let mut error = 0.0f32;
    {
        let skeleton = Skeleton::new(model);
        // Key times of every node track.
        let mut times: Vec<i64> = Vec::new();
        for sn in &skeleton.nodes {
            for a in sn.node.tracks.iter() {
                match &a.track {
                    crate::model::AnyTrack::Vector3(t) => {
                        times.extend(t.keys.iter().map(|k| i64::from(k.time)))
                    }
                    crate::model::AnyTrack::Quaternion(t) => {
                        times.extend(t.keys.iter().map(|k| i64::from(k.time)))
                    }
                    _ => {}
                }
            }
        }
        times.sort_unstable();
        times.dedup();
        for (si, seq) in model.sequences.iter().enumerate() {
            let [s, e] = seq.interval.map(i64::from);
            let mut moments: Vec<i64> = times
                .iter()
                .copied()
                .filter(|&t| t >= s && t <= e)
                .collect();
            for f in [0, 1, 2, 3, 4] {
                moments.push(s + (e - s) * f / 4);
            }
            moments.sort_unstable();
            moments.dedup();
            if moments.len() > MAX_SAMPLES {
                let n = moments.len();
                moments = (0..MAX_SAMPLES)
                    .map(|k| moments[k * (n - 1) / (MAX_SAMPLES - 1)])
                    .collect();
            }
            let mut first = true;
            for &t in &moments {
                let clock = Clock::unwrapped(model, si, (t - s) as f64);
                let pose = skeleton.pose_at(&clock, None);
                let posed = posed_geosets(model, &skeleton, &pose, &clock);
                for (gi, pg) in posed.iter().enumerate() {
                    let ext = Extent::around(pg.positions.iter().copied().filter(|p| finite(p)));
                    let slot = &mut geo_ext[gi][si];
                    *slot = Some(match slot {
                        Some(x) => union(x, &ext, false),
                        None => ext,
                    });
                    seq_ext[si] = union(&seq_ext[si], &ext, first);
                    first = false;
                    for (v, pairs) in &exact[gi] {
                        let u = model.geosets[gi].vertices[*v as usize];
                        let mut want = [0.0f32; 3];
                        for &(id, w) in pairs {
                            let m = skeleton
                                .by_object_id(id as u32)
                                .map_or(crate::anim::math::IDENTITY, |i| pose.nodes[i].world);
                            let p = transform_point(&m, u);
                            for k in 0..3 {
                                want[k] += w * p[k];
                            }
                        }
                        let got = pg.positions[*v as usize];
                        let d = (0..3)
                            .map(|k| (want[k] - got[k]).powi(2))
                            .sum::<f32>()
                            .sqrt();
                        if d.is_finite() {
                            error = error.max(d);
                        }
                    }
                }
            }
        }
    }
    for (si, seq) in model.sequences.iter_mut().enumerate() {
        seq.extent = seq_ext[si];
    }
    for (gi, g) in model.geosets.iter_mut().enumerate() {
        g.sequence_extents = geo_ext[gi].iter().map(|e| e.unwrap_or(g.extent)).collect();
    }
    error
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
