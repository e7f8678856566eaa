//! The scene graph: parents (every node one at most, no loops), rest transforms and
//! rest world matrices.

use super::*;

/// The scene graph: parents, rest transforms, rest world matrices.
pub(super) struct Graph {
    pub(super) parent: Vec<Option<usize>>,
    /// Rest local transform as translation, rotation, scale (glTF space); `matrix` nodes
    /// decomposed.
    pub(super) trs: Vec<(Vec3, Quat, Vec3)>,
    /// Rest local matrix.
    pub(super) local: Vec<Mat4>,
    /// Rest world matrix.
    pub(super) world: Vec<Mat4>,
    /// The rest world matrix with every scale of 0 taken as 1: a frame that can be
    /// inverted, for the bind frames of nodes that are not joints (a node hidden at rest
    /// by a scale of 0 still has axes).
    pub(super) safe: Vec<Mat4>,
}

pub(super) fn finite(v: &[f32]) -> bool {
    v.iter().all(|x| x.is_finite())
}

pub(super) fn graph(doc: &gltf_json::Root) -> Result<Graph, GltfError> {
    let n = doc.nodes.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    for (i, node) in doc.nodes.iter().enumerate() {
        for (k, c) in node.children.iter().flatten().enumerate() {
            let c = c.value();
            let at = format!("nodes[{i}].children[{k}]");
            if c >= n {
                return Err(GltfError::new(at, format!("node {c} does not exist")));
            }
            if c == i {
                return Err(GltfError::new(at, "a node cannot be its own child"));
            }
            if let Some(p) = parent[c] {
                if p != i {
                    return Err(GltfError::new(
                        at,
                        format!("node {c} is already a child of node {p} (a node has one parent)"),
                    ));
                }
            }
            parent[c] = Some(i);
        }
    }
    // Cycles: walk up from each node; a walk longer than the node count loops.
    let mut state = vec![0u8; n]; // 0 unknown, 1 on the current walk, 2 known good
    let mut order = Vec::with_capacity(n);
    for start in 0..n {
        let mut chain = Vec::new();
        let mut at = Some(start);
        while let Some(i) = at {
            match state[i] {
                2 => break,
                1 => {
                    return Err(GltfError::new(
                        format!("nodes[{i}].children"),
                        "the node hierarchy loops back on itself",
                    ))
                }
                _ => {
                    state[i] = 1;
                    chain.push(i);
                    at = parent[i];
                }
            }
        }
        for &i in chain.iter().rev() {
            state[i] = 2;
            order.push(i);
        }
    }
    let mut trs = Vec::with_capacity(n);
    let mut local = Vec::with_capacity(n);
    let mut safe_local = Vec::with_capacity(n);
    for (i, node) in doc.nodes.iter().enumerate() {
        let (t, r, s, m) = if let Some(m) = node.matrix {
            if !finite(&m) {
                return Err(GltfError::new(
                    format!("nodes[{i}].matrix"),
                    "a value is not a finite number",
                ));
            }
            let (r, s) = crate::anim::math::decompose(&m);
            let s = if det3(&m) < 0.0 {
                [-s[0], s[1], s[2]]
            } else {
                s
            };
            ([m[12], m[13], m[14]], r, s, m)
        } else {
            let t = node.translation.unwrap_or([0.0; 3]);
            let r = node.rotation.map_or([0.0, 0.0, 0.0, 1.0], |q| q.0);
            let s = node.scale.unwrap_or([1.0; 3]);
            for (what, ok) in [
                ("translation", finite(&t)),
                ("rotation", finite(&r)),
                ("scale", finite(&s)),
            ] {
                if !ok {
                    return Err(GltfError::new(
                        format!("nodes[{i}].{what}"),
                        "a value is not a finite number",
                    ));
                }
            }
            let r = qnormalize(r);
            (t, r, s, trs_about(t, r, s, [0.0; 3]))
        };
        trs.push((t, r, s));
        local.push(m);
        let unzero = s.map(|x| if x.abs() < 1e-12 { 1.0 } else { x });
        safe_local.push(if unzero == s {
            m
        } else {
            trs_about(t, r, unzero, [0.0; 3])
        });
    }
    let mut world = vec![IDENTITY; n];
    let mut safe = vec![IDENTITY; n];
    for &i in &order {
        (world[i], safe[i]) = match parent[i] {
            Some(p) => (mul(&world[p], &local[i]), mul(&safe[p], &safe_local[i])),
            None => (local[i], safe_local[i]),
        };
    }
    Ok(Graph {
        parent,
        trs,
        local,
        world,
        safe,
    })
}
