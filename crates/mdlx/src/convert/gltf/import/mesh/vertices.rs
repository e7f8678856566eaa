//! A primitive's vertices: attributes and indices read and checked, skin weights per
//! vertex and their bindings, and positions, normals, UVs and tangents in the model's axes.

use super::*;

/// The primitive's positions (accessor `pos_a`), normals, tangents and texture
/// coordinates, checked for their shape.
pub(super) fn read_attributes(
    imp: &Importer,
    prim: &gltf_json::mesh::Primitive,
    at: &str,
    pos_a: usize,
) -> Result<Attributes, GltfError> {
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
                format!(
                    "{} elements of {c} components for {nv} vertices ({comps_want} expected)",
                    v.len() / c.max(1)
                ),
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
    Ok(Attributes {
        pos,
        normals,
        tangents,
        uvs,
    })
}

/// The primitive's triangles (strips and fans unrolled, their degenerate triangles
/// dropped), wound the other way when `flip`.
pub(super) fn triangles(
    imp: &Importer,
    prim: &gltf_json::mesh::Primitive,
    at: &str,
    mode: Mode,
    nv: usize,
    flip: bool,
) -> Result<Vec<[u32; 3]>, GltfError> {
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
    Ok(tris)
}

/// Skin weights per vertex: (Warcraft node, weight), heaviest first, summing to 1.
pub(super) fn vertex_weights(
    imp: &mut Importer,
    prim: &gltf_json::mesh::Primitive,
    at: &str,
    nv: usize,
    f: &Frame,
) -> Result<Vec<Vec<(usize, f32)>>, GltfError> {
    let joints = &f.joints;
    let mut weights: Vec<Vec<(usize, f32)>> = vec![Vec::new(); nv];
    let mut unweighted = 0usize;
    match f.rigid {
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
                                format!(
                                    "vertex {v} names joint {ji}, past the skin's {} joints",
                                    joints.len()
                                ),
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
    Ok(weights)
}

/// Each vertex's binding (skin bytes with `skin_weights`, else a matrix group), the
/// vertices whose binding is not exactly their weights, and the bound nodes marked.
pub(super) fn bind(
    imp: &mut Importer,
    weights: &[Vec<(usize, f32)>],
    skin_weights: bool,
) -> (Vec<Binding>, Exact) {
    let nv = weights.len();
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
    (bindings, exact)
}

/// The primitive's vertices in the model's axes (normals made smooth, tangents made, and
/// one texture coordinate set of zeros, where the glTF has none).
pub(super) fn geometry(attrs: Attributes, tris: &[[u32; 3]], f: &Frame) -> Geometry {
    let Attributes {
        pos,
        normals,
        tangents,
        uvs,
    } = attrs;
    let (place_m, normal_m, flip) = (&f.place_m, &f.normal_m, f.flip);
    let nv = pos.len() / 3;
    let positions: Vec<Vec3> = pos
        .chunks_exact(3)
        .map(|c| from_y_up(transform_point(place_m, [c[0], c[1], c[2]])))
        .collect();
    let normals: Vec<Vec3> = match &normals {
        Some(n) => n
            .chunks_exact(3)
            .map(|c| {
                let v = transform_vector(normal_m, [c[0], c[1], c[2]]);
                let v = if finite(&v) {
                    crate::anim::math::normalize(v)
                } else {
                    [0.0; 3]
                };
                from_y_up(v)
            })
            .collect(),
        None => smooth_normals(&positions, tris),
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
    let tangents: Option<Vec<[f32; 4]>> = if f.with_tangents {
        Some(match &tangents {
            Some(t) => t
                .chunks_exact(4)
                .map(|c| {
                    let v = from_y_up(crate::anim::math::normalize(transform_vector(
                        place_m,
                        [c[0], c[1], c[2]],
                    )));
                    let w = if c[3] < 0.0 { -1.0 } else { 1.0 };
                    [v[0], v[1], v[2], if flip { -w } else { w }]
                })
                .collect(),
            None => make_tangents(&positions, &normals, &uv_sets[0], tris),
        })
    } else {
        None
    };
    // Classic models have no tangents; nothing to say: normal maps are lost with the
    // material (listed there).
    Geometry {
        positions,
        normals,
        uv_sets,
        tangents,
    }
}

pub(super) fn transpose3(m: &Mat4) -> Mat4 {
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

/// Area-weighted vertex normals, for primitives without any.
pub(super) fn smooth_normals(p: &[Vec3], tris: &[[u32; 3]]) -> Vec<Vec3> {
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
pub(super) fn make_tangents(
    p: &[Vec3],
    n: &[Vec3],
    uv: &[[f32; 2]],
    tris: &[[u32; 3]],
) -> Vec<[f32; 4]> {
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
