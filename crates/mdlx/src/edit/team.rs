//! Team colour and hero glow, as the game's classic models carry them.
//!
//! - **Team colour**: a layer of the team colour (replaceable texture 1) under the
//!   material's first layer, drawn opaque (filter mode None), the texture's layer above it
//!   blended (filter mode Blend), so the colour shows where the texture's alpha is low. Of
//!   the 81 classic corpus materials with a team colour layer, 73 have it first and
//!   opaque under one texture layer, and 65 of those blend that layer.
//! - **Hero glow**: the glow texture (replaceable texture 2) on a flat square at the feet,
//!   drawn additive and unshaded, bound to a bone of its own at the origin that nothing
//!   moves. The game's heroes carry theirs so: HeroArchMage, HeroBladeMaster, Arthas,
//!   King and HeroBloodelfRanger in the corpus hold 8 to 36 vertices of additive planes,
//!   110 to 162 units out from the middle and 7 to 35 above the ground, bound to root
//!   bones (`hero`, `hero2`, ...) with no translation or rotation keys; the square here is
//!   150 units out (300 across) and 10 up.
//!
//! Both are for classic (800) models: Reforged's HD materials take their team colour from
//! the textures' own channels.

use super::Report;
use crate::model::{
    filter_mode, layer_flags, Bone, Extent, Geoset, Layer, Material, Model, Texture,
};

/// How far out the glow square reaches from the middle.
pub const GLOW_RADIUS: f32 = 150.0;
/// How high above the ground the glow square lies.
const GLOW_HEIGHT: f32 = 10.0;

fn classic(model: &Model, what: &str, report: &mut Report) -> bool {
    let ok = model.version == crate::spec::version::CLASSIC;
    if !ok {
        report.refused.push(format!(
            "{what}: the model is version {}; team colour and glow are added to classic (800) models (Reforged HD materials take them from their textures)",
            model.version
        ));
    }
    ok
}

/// The index of the replaceable texture `id`, added when the model has none.
fn replaceable(model: &mut Model, id: u32) -> i32 {
    let at = model
        .textures
        .iter()
        .position(|t| t.replaceable_id == id && t.path.is_empty());
    at.unwrap_or_else(|| {
        model.textures.push(Texture {
            replaceable_id: id,
            ..Default::default()
        });
        model.textures.len() - 1
    }) as i32
}

fn layer(texture_id: i32, filter_mode: u32, flags: u32) -> Layer {
    Layer {
        filter_mode,
        flags,
        texture_id,
        texture_animation_id: -1,
        alpha: 1.0,
        ..Default::default()
    }
}

/// Puts a team colour layer under material `material`'s first layer (see the module docs).
pub fn team_colour(model: &mut Model, material: usize) -> Report {
    let mut report = Report::default();
    if !classic(model, "team colour", &mut report) {
        return report;
    }
    let Some(mat) = model.materials.get(material) else {
        report.refused.push(format!(
            "team colour: no material {material}; the model has {}",
            model.materials.len()
        ));
        return report;
    };
    let has = |l: &Layer| {
        usize::try_from(l.texture_id)
            .ok()
            .and_then(|t| model.textures.get(t))
            .is_some_and(|t| t.replaceable_id == 1)
    };
    if mat.layers.iter().any(has) {
        report.refused.push(format!(
            "team colour: material {material} has a team colour layer already"
        ));
        return report;
    }
    let Some(first) = mat.layers.first().cloned() else {
        report.refused.push(format!(
            "team colour: material {material} has no layer to put it under"
        ));
        return report;
    };
    let tc = replaceable(model, 1);
    let mat = &mut model.materials[material];
    let shading =
        first.flags & (layer_flags::UNSHADED | layer_flags::TWO_SIDED | layer_flags::UNFOGGED);
    mat.layers.insert(0, layer(tc, filter_mode::NONE, shading));
    if matches!(
        first.filter_mode,
        filter_mode::NONE | filter_mode::TRANSPARENT
    ) {
        mat.layers[1].filter_mode = filter_mode::BLEND;
    }
    report.changed.push(format!(
        "materials[{material}]: a team colour layer under its texture, which now blends"
    ));
    report
}

/// Whether a geoset draws the glow texture.
fn glows(model: &Model, g: &Geoset) -> bool {
    (model.materials.get(g.material_id as usize)).is_some_and(|m| {
        m.layers.iter().any(|l| {
            usize::try_from(l.texture_id)
                .ok()
                .and_then(|t| model.textures.get(t))
                .is_some_and(|t| t.replaceable_id == 2)
        })
    })
}

/// Adds a hero glow under the model (see the module docs).
pub fn hero_glow(model: &mut Model) -> Report {
    let mut report = Report::default();
    if !classic(model, "hero glow", &mut report) {
        return report;
    }
    if model.bones.is_empty() {
        report.refused.push(
            "hero glow: the model has no bones (a glow goes under a hero, which has a skeleton)"
                .into(),
        );
        return report;
    }
    if let Some(i) = model.geosets.iter().position(|g| glows(model, g)) {
        report
            .refused
            .push(format!("hero glow: the model glows already (geoset {i})"));
        return report;
    }
    // A bone of its own, after the others: every node after it moves up one id. Until
    // then it takes an id no node and no vertex names (a file may name a node it lacks),
    // and its pivot, which no pivot is stored for, is the origin.
    let id = model.bones.len() as u32;
    let taken = (model.nodes().map(|n| n.object_id))
        .chain(
            model
                .geosets
                .iter()
                .flat_map(|g| g.matrix_indices.iter().copied()),
        )
        .max();
    let free = taken
        .map_or(0, |t| t.saturating_add(1))
        .max(model.pivot_points.len() as u32);
    model.bones.push(Bone {
        node: crate::model::Node {
            name: "Hero Glow".into(),
            object_id: free,
            parent_id: -1,
            flags: crate::spec::kind::BONE,
            ..Default::default()
        },
        geoset_id: model.geosets.len() as i32,
        geoset_animation_id: -1,
    });
    crate::convert::classic::renumber_nodes(model);
    let tex = replaceable(model, 2);
    model.materials.push(Material {
        layers: vec![layer(tex, filter_mode::ADDITIVE, layer_flags::UNSHADED)],
        ..Default::default()
    });
    let (r, z) = (GLOW_RADIUS, GLOW_HEIGHT);
    let vertices = vec![[-r, -r, z], [r, -r, z], [r, r, z], [-r, r, z]];
    let extent = Extent {
        radius: r * std::f32::consts::SQRT_2,
        min: [-r, -r, z],
        max: [r, r, z],
    };
    // The model's and each sequence's bounds hold the glow too.
    for e in std::iter::once(&mut model.info.extent)
        .chain(model.sequences.iter_mut().map(|s| &mut s.extent))
    {
        grow(e, &extent);
    }
    model.geosets.push(Geoset {
        vertices,
        normals: vec![[0.0, 0.0, 1.0]; 4],
        face_types: vec![crate::model::face_type::TRIANGLES],
        face_group_sizes: vec![6],
        faces: vec![0, 1, 2, 0, 2, 3],
        vertex_groups: vec![0; 4],
        matrix_group_sizes: vec![1],
        matrix_indices: vec![id],
        material_id: model.materials.len() as u32 - 1,
        extent,
        sequence_extents: vec![extent; model.sequences.len()],
        uv_sets: vec![vec![[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]]],
        ..Default::default()
    });
    report.changed.push(format!(
        "a hero glow: geoset {}, {} across at height {z}, on bone \"Hero Glow\" (object id {id})",
        model.geosets.len() - 1,
        2.0 * r
    ));
    report
}

/// `e` grown to hold `by` (an empty `e`, min above max, becomes `by`; one left at zeros
/// is the point it names, which may be all its model's vertices).
fn grow(e: &mut Extent, by: &Extent) {
    if (0..3).any(|k| e.min[k] > e.max[k]) {
        *e = *by;
        return;
    }
    e.min = std::array::from_fn(|k| e.min[k].min(by.min[k]));
    e.max = std::array::from_fn(|k| e.max[k].max(by.max[k]));
    let d: f32 = (0..3).map(|k| (e.max[k] - e.min[k]).powi(2)).sum();
    e.radius = e.radius.max(d.sqrt() / 2.0);
}
