//! Milkshape meshes as geosets: vertices split where they are used with several normals,
//! each joint a matrix group, and a material's diffuse color as the geoset's tint.

use super::super::axes::point_to_wc3;
use super::materials::white_texture;
use crate::anim::math::Vec3;
use crate::model::{
    geoset_animation_flags, Extent, Geoset, GeosetAnimation, Layer, Material as WcMaterial, Model,
};
use crate::ms3d::{Document, Mesh};
use crate::Loss;
use std::collections::HashMap;

/// One geoset per mesh that has vertices, tinted by its material's diffuse color.
pub(super) fn geosets(
    doc: &Document,
    still_bone: Option<u32>,
    model: &mut Model,
    losses: &mut Vec<Loss>,
) {
    let mut default_material = None;
    let mut geoset_of_mesh = Vec::with_capacity(doc.meshes.len());
    for (mi, mesh) in doc.meshes.iter().enumerate() {
        let place = format!("Mesh[{mi}]");
        if mesh.vertices.is_empty() {
            losses.push(Loss::new(
                &place,
                "empty mesh (no vertices): no geoset (the game refuses an empty one)",
            ));
            geoset_of_mesh.push(None);
            continue;
        }
        geoset_of_mesh.push(Some(model.geosets.len()));
        let material_id = match usize::try_from(mesh.material)
            .ok()
            .filter(|&m| m < doc.materials.len())
        {
            Some(m) => m as u32,
            None => *default_material.get_or_insert_with(|| plain_material(model)),
        };
        let geoset = mesh_to_geoset(
            mesh,
            material_id,
            still_bone,
            doc.bones.len(),
            &place,
            losses,
        );
        model.geosets.push(geoset);
    }
    tints(doc, &geoset_of_mesh, model);
    mesh_losses(doc, losses);
}

/// A white, opaque material for meshes that name none: its index.
fn plain_material(model: &mut Model) -> u32 {
    let texture_id = white_texture(model);
    model.materials.push(WcMaterial {
        layers: vec![Layer {
            texture_id,
            texture_animation_id: -1,
            alpha: 1.0,
            ..Default::default()
        }],
        ..Default::default()
    });
    model.materials.len() as u32 - 1
}

/// A material's diffuse color tints the geosets that use it: the geoset animation's static
/// color (stored blue, green, red), which the game multiplies the texture by.
fn tints(doc: &Document, geoset_of_mesh: &[Option<usize>], model: &mut Model) {
    for (mesh, gi) in doc.meshes.iter().zip(geoset_of_mesh) {
        let Some(gi) = *gi else { continue };
        let Some(m) = usize::try_from(mesh.material)
            .ok()
            .and_then(|m| doc.materials.get(m))
        else {
            continue;
        };
        let [r, g, b, _] = m.diffuse;
        if [r, g, b].iter().all(|c| (c - 1.0).abs() < 1e-6) {
            continue;
        }
        model.geoset_animations.push(GeosetAnimation {
            alpha: 1.0,
            flags: geoset_animation_flags::USE_COLOR,
            color: [b, g, r],
            geoset_id: gi as i32,
            ..Default::default()
        });
    }
}

/// What meshes hold that geosets do not: names, flags, smoothing groups.
fn mesh_losses(doc: &Document, losses: &mut Vec<Loss>) {
    if doc.meshes.iter().any(|m| !m.name.is_empty()) {
        losses.push(Loss::new("meshes", "names (WC3 geosets have none)"));
    }
    if doc.meshes.iter().any(|m| {
        m.flags != 0
            || m.vertices.iter().any(|v| v.flags != 0)
            || m.triangles.iter().any(|t| t.flags != 0)
    }) {
        losses.push(Loss::new(
            "meshes",
            "mesh, vertex and triangle flags (editor state)",
        ));
    }
    if doc
        .meshes
        .iter()
        .any(|m| m.triangles.iter().any(|t| t.smoothing_group != 0))
    {
        losses.push(Loss::new(
            "meshes",
            "smoothing groups (the normals they produced are kept)",
        ));
    }
}

/// One mesh as a geoset: vertices keep their order; a vertex used with different normals
/// is split into copies; each joint a vertex names becomes a matrix group.
fn mesh_to_geoset(
    mesh: &Mesh,
    material_id: u32,
    still_bone: Option<u32>,
    joints: usize,
    place: &str,
    losses: &mut Vec<Loss>,
) -> Geoset {
    let mut vertices: Vec<Vec3> = mesh
        .vertices
        .iter()
        .map(|v| point_to_wc3(v.position))
        .collect();
    let mut uvs: Vec<[f32; 2]> = mesh.vertices.iter().map(|v| v.uv).collect();
    let mut bones: Vec<i32> = mesh.vertices.iter().map(|v| v.bone).collect();
    let mut normals: Vec<Option<Vec3>> = vec![None; vertices.len()];
    let mut copies: HashMap<(usize, [u32; 3]), usize> = HashMap::new();
    let mut faces: Vec<u16> = Vec::with_capacity(mesh.triangles.len() * 3);
    let mut bad = 0usize;
    for t in &mesh.triangles {
        let mut corners = [0usize; 3];
        let mut ok = true;
        for (c, (&vi, &ni)) in t.vertices.iter().zip(&t.normals).enumerate() {
            let Some(v) = usize::try_from(vi)
                .ok()
                .filter(|&v| v < mesh.vertices.len())
            else {
                ok = false;
                break;
            };
            let n = usize::try_from(ni)
                .ok()
                .and_then(|n| mesh.normals.get(n))
                .map_or([0.0; 3], |&n| point_to_wc3(n));
            let bits = n.map(f32::to_bits);
            corners[c] = match normals[v] {
                None => {
                    normals[v] = Some(n);
                    v
                }
                Some(have) if have.map(f32::to_bits) == bits => v,
                Some(_) => *copies.entry((v, bits)).or_insert_with(|| {
                    vertices.push(vertices[v]);
                    uvs.push(uvs[v]);
                    bones.push(bones[v]);
                    normals.push(Some(n));
                    vertices.len() - 1
                }),
            };
        }
        if !ok {
            bad += 1;
            continue;
        }
        if corners.iter().any(|&c| c > u16::MAX as usize) {
            bad += 1;
            continue;
        }
        faces.extend(corners.map(|c| c as u16));
    }
    if bad > 0 {
        losses.push(Loss::new(
            place,
            format!("{bad} triangle(s) naming missing vertices or past 65,535 vertices dropped"),
        ));
    }
    let (vertex_groups, matrix_indices) = matrix_groups(&bones, joints, still_bone, place, losses);
    let extent = Extent::around(vertices.iter().copied());
    Geoset {
        normals: normals
            .into_iter()
            .map(|n| n.unwrap_or([0.0, 0.0, 1.0]))
            .collect(),
        vertices,
        face_types: vec![4],
        face_group_sizes: vec![faces.len() as u32],
        faces,
        vertex_groups,
        matrix_group_sizes: vec![1; matrix_indices.len()],
        matrix_indices,
        material_id,
        extent,
        uv_sets: vec![uvs],
        ..Default::default()
    }
}

/// One matrix group per joint used, in order of first use: each vertex's group, and each
/// group's node. A joint index past the `joints` follows the still bone.
fn matrix_groups(
    bones: &[i32],
    joints: usize,
    still_bone: Option<u32>,
    place: &str,
    losses: &mut Vec<Loss>,
) -> (Vec<u8>, Vec<u32>) {
    let mut group_of: HashMap<u32, u8> = HashMap::new();
    let mut matrix_indices = Vec::new();
    let mut vertex_groups = Vec::with_capacity(bones.len());
    let mut too_many = false;
    for &b in bones {
        let node = match usize::try_from(b).ok().filter(|&b| b < joints) {
            Some(b) => b as u32,
            None => still_bone.unwrap_or(0),
        };
        let next = group_of.len();
        let g = *group_of.entry(node).or_insert_with(|| {
            if next > u8::MAX as usize {
                too_many = true;
            }
            matrix_indices.push(node);
            next.min(u8::MAX as usize) as u8
        });
        vertex_groups.push(g);
    }
    if too_many {
        losses.push(Loss::new(
            place,
            "more than 256 joints in one mesh: the rest follow joint 256",
        ));
    }
    (vertex_groups, matrix_indices)
}
