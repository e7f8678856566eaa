//! Geosets as Milkshape meshes: each vertex follows one joint (the strongest of its
//! influences), triangles keep their corners, normals one per vertex.

use super::super::axes::point_to_ms3d;
use crate::anim::Skeleton;
use crate::model::{Geoset, Model};
use crate::ms3d::{Document, Mesh, Text, Triangle, Vertex};
use crate::Loss;

/// One mesh per geoset. `joint_of` gives each skeleton node's joint.
pub(super) fn meshes(
    model: &Model,
    skeleton: &Skeleton<'_>,
    joint_of: &[Option<usize>],
    doc: &mut Document,
    losses: &mut Vec<Loss>,
) {
    let joint_of_object = |id: u32| skeleton.by_object_id(id).and_then(|n| joint_of[n]);
    let mut multi = 0usize;
    for (gi, g) in model.geosets.iter().enumerate() {
        let place = format!("Geoset[{gi}]");
        if g.uv_sets.len() > 1 {
            losses.push(Loss::new(
                &place,
                format!("{} UV set(s) after the first", g.uv_sets.len() - 1),
            ));
        }
        if g.tangents.is_some() {
            losses.push(Loss::new(&place, "tangents"));
        }
        if g.lod != 0 || !g.lod_name.text_bytes().is_empty() {
            losses.push(Loss::new(&place, "level of detail"));
        }
        let uvs = g.uv_sets.first();
        let vertices = vertex_bones(g, &mut multi)
            .into_iter()
            .enumerate()
            .map(|(v, bone)| Vertex {
                flags: 0,
                position: point_to_ms3d(g.vertices[v]),
                uv: uvs.and_then(|u| u.get(v)).copied().unwrap_or([0.0; 2]),
                bone: bone.and_then(joint_of_object).map_or(-1, |j| j as i32),
            })
            .collect();
        let normals = (0..g.vertices.len())
            .map(|v| point_to_ms3d(g.normals.get(v).copied().unwrap_or([0.0, 0.0, 1.0])))
            .collect();
        let (faces, skipped) = g.triangles();
        let triangles = faces
            .into_iter()
            .map(|t| {
                let v = t.map(i32::from);
                Triangle {
                    flags: 0,
                    vertices: v,
                    normals: v,
                    smoothing_group: 1,
                }
            })
            .collect();
        if skipped > 0 {
            losses.push(Loss::new(
                &place,
                format!("{skipped} face group(s) of other primitive types"),
            ));
        }
        doc.meshes.push(Mesh {
            name: Text(format!("geoset_{gi}").into_bytes()),
            flags: 0,
            material: g.material_id as i32,
            vertices,
            normals,
            triangles,
        });
    }
    if multi > 0 {
        losses.push(Loss::new(
            "vertices",
            format!("{multi} vertex(es) bound to several bones now follow the strongest (the first of a group)"),
        ));
    }
}

/// The object id each vertex follows: of a skin, the strongest influence (the first of
/// equals); of a matrix group, its first node. `multi` counts the vertices that had several.
fn vertex_bones(g: &Geoset, multi: &mut usize) -> Vec<Option<u32>> {
    let groups = g.matrix_groups();
    let skin = g
        .skin
        .as_deref()
        .filter(|s| s.len() == g.vertices.len() * 8);
    (0..g.vertices.len())
        .map(|v| match skin {
            Some(s) => {
                let b = &s[v * 8..v * 8 + 8];
                let influences = (0..4).filter(|&k| b[4 + k] > 0).count();
                *multi += usize::from(influences > 1);
                (0..4)
                    .filter(|&k| b[4 + k] > 0)
                    .max_by_key(|&k| (b[4 + k], std::cmp::Reverse(k)))
                    .and_then(|k| g.matrix_indices.get(b[k] as usize).copied())
            }
            None => {
                let group = g
                    .vertex_groups
                    .get(v)
                    .and_then(|&gr| groups.get(gr as usize));
                *multi += usize::from(group.is_some_and(|gr| gr.len() > 1));
                group.and_then(|gr| gr.first().copied())
            }
        })
        .collect()
}
