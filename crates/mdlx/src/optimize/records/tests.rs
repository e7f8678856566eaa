//! Tests of the records pass on small models built here; every expected value is worked
//! out by hand from the model each test builds.

use super::run;
use crate::model::FixedString;
use crate::model::{
    Animation, AnyTrack, Bone, Geoset, Interpolation, Key, Layer, LayoutEntry, Material, Model,
    ParticleEmitter2, RibbonEmitter, Texture, TextureAnimation, TextureSlot, Track, Tracks,
};
use crate::optimize::{Ctx, Tolerance};
use crate::spec::chunk;
use crate::spec::track::{KGTR, KMTF, KTAT};

fn ctx() -> Ctx {
    Ctx {
        tol: Tolerance::default(),
        size: 1.0,
        scale: 1.0,
    }
}

fn texture(path: &str, replaceable_id: u32) -> Texture {
    Texture {
        path: FixedString::from_field(path.as_bytes()),
        replaceable_id,
        ..Texture::default()
    }
}

fn layer(texture_id: i32, texture_animation_id: i32) -> Layer {
    Layer {
        texture_id,
        texture_animation_id,
        alpha: 1.0,
        ..Layer::default()
    }
}

fn material(layers: Vec<Layer>) -> Material {
    Material {
        layers,
        ..Material::default()
    }
}

fn geoset(material_id: u32) -> Geoset {
    Geoset {
        material_id,
        ..Geoset::default()
    }
}

fn int_track(gs: i32, values: &[u32]) -> Track<u32> {
    Track {
        interpolation: Interpolation::None,
        global_sequence_id: gs,
        keys: (0..)
            .zip(values)
            .map(|(t, &v)| Key::at(t * 100, v))
            .collect(),
    }
}

fn translation(gs: i32, x: f32) -> Animation {
    Animation {
        tag: KGTR,
        track: AnyTrack::Vector3(Track {
            interpolation: Interpolation::Linear,
            global_sequence_id: gs,
            keys: vec![Key::at(0, [0.0; 3]), Key::at(100, [x, 0.0, 0.0])],
        }),
    }
}

fn texture_animation(x: f32) -> TextureAnimation {
    TextureAnimation {
        tracks: Tracks(vec![Animation {
            tag: KTAT,
            track: AnyTrack::Vector3(Track {
                interpolation: Interpolation::Linear,
                global_sequence_id: -1,
                keys: vec![Key::at(0, [0.0; 3]), Key::at(100, [x, 0.0, 0.0])],
            }),
        }]),
        ..TextureAnimation::default()
    }
}

fn kmtf(layer: &Layer) -> Vec<u32> {
    match &layer.tracks.0[0].track {
        AnyTrack::Integer(t) => t.keys.iter().map(|k| k.value).collect(),
        _ => panic!("not an integer track"),
    }
}

/// A copy of the first texture is merged into it: every kind of texture reference that
/// named the copy (layer, KMTF key, texture slot and its track, particle emitter 2) now
/// names the first, and the texture after the copy moves down by one.
#[test]
fn duplicate_textures_merge_and_every_reference_follows() {
    let a = texture("a.blp", 0);
    let b = texture("b.blp", 0);
    let mut l0 = layer(2, -1);
    l0.tracks = Tracks(vec![Animation {
        tag: KMTF,
        track: AnyTrack::Integer(int_track(-1, &[2, 1, 0])),
    }]);
    let mut l1 = layer(1, -1);
    l1.texture_slots = vec![TextureSlot {
        texture_id: 2,
        role: 0,
        texture_id_track: Some(int_track(-1, &[1, 2])),
    }];
    let mut m = Model {
        version: 1100,
        textures: vec![a.clone(), b.clone(), a.clone()],
        materials: vec![material(vec![l0]), material(vec![l1])],
        geosets: vec![geoset(0), geoset(1)],
        particle_emitters2: vec![ParticleEmitter2 {
            texture_id: 2,
            ..ParticleEmitter2::default()
        }],
        ..Model::default()
    };
    let changes = run(&mut m, &ctx());
    assert_eq!(changes, vec![("duplicate textures merged", 1)]);
    assert_eq!(m.textures, vec![a, b]);
    let l0 = &m.materials[0].layers[0];
    assert_eq!(l0.texture_id, 0);
    assert_eq!(kmtf(l0), vec![0, 1, 0]);
    let l1 = &m.materials[1].layers[0];
    assert_eq!(l1.texture_id, 1);
    assert_eq!(l1.texture_slots[0].texture_id, 0);
    let slot: Vec<u32> = (l1.texture_slots[0].texture_id_track.as_ref().unwrap().keys)
        .iter()
        .map(|k| k.value)
        .collect();
    assert_eq!(slot, vec![1, 0]);
    assert_eq!(m.particle_emitters2[0].texture_id, 0);
}

/// Team colour (replaceable id 1) and team glow (2) with the same empty path are two
/// textures: neither merges, and the materials on them stay apart.
#[test]
fn replaceable_textures_with_different_ids_stay_apart() {
    let mut m = Model {
        version: 800,
        textures: vec![texture("", 1), texture("", 2)],
        materials: vec![material(vec![layer(0, -1)]), material(vec![layer(1, -1)])],
        geosets: vec![geoset(0), geoset(1)],
        ..Model::default()
    };
    let before = m.clone();
    assert_eq!(run(&mut m, &ctx()), vec![]);
    assert_eq!(m, before);
}

/// Two materials that differ only in naming two equal textures become equal once the
/// textures are merged, and merge too: the geoset and the ribbon emitter on the second
/// follow; the third material, now second, is renumbered.
#[test]
fn materials_equal_after_textures_merge_and_geosets_and_ribbons_follow() {
    let a = texture("a.blp", 0);
    let mut m = Model {
        version: 800,
        textures: vec![a.clone(), a.clone(), texture("c.blp", 0)],
        materials: vec![
            material(vec![layer(0, -1)]),
            material(vec![layer(1, -1)]),
            material(vec![layer(2, -1)]),
        ],
        geosets: vec![geoset(0), geoset(1), geoset(2)],
        ribbon_emitters: vec![RibbonEmitter {
            material_id: 1,
            ..RibbonEmitter::default()
        }],
        ..Model::default()
    };
    let changes = run(&mut m, &ctx());
    assert_eq!(
        changes,
        vec![
            ("duplicate textures merged", 1),
            ("duplicate materials merged", 1)
        ]
    );
    assert_eq!(m.textures.len(), 2);
    assert_eq!(m.materials.len(), 2);
    assert_eq!(m.materials[1].layers[0].texture_id, 1);
    let ids: Vec<u32> = m.geosets.iter().map(|g| g.material_id).collect();
    assert_eq!(ids, vec![0, 0, 1]);
    assert_eq!(m.ribbon_emitters[0].material_id, 0);
}

/// Materials that differ in their shader name (Reforged 900) are not duplicates.
#[test]
fn materials_with_different_shaders_stay_apart() {
    let mut hd = material(vec![layer(0, -1)]);
    hd.shader = FixedString::from_field(b"Shader_HD_DefaultUnit");
    let mut m = Model {
        version: 900,
        textures: vec![texture("a.blp", 0)],
        materials: vec![material(vec![layer(0, -1)]), hd],
        geosets: vec![geoset(0), geoset(1)],
        ..Model::default()
    };
    let before = m.clone();
    assert_eq!(run(&mut m, &ctx()), vec![]);
    assert_eq!(m, before);
}

/// Texture animations: the copy of the first merges into it, the unused third goes, and
/// the layers follow.
#[test]
fn texture_animations_merge_and_unused_ones_go() {
    let mut m = Model {
        version: 800,
        textures: vec![texture("a.blp", 0)],
        texture_animations: vec![
            texture_animation(1.0),
            texture_animation(2.0),
            texture_animation(1.0),
            texture_animation(3.0),
        ],
        materials: vec![material(vec![layer(0, 2), layer(0, 3), layer(0, -1)])],
        geosets: vec![geoset(0)],
        ..Model::default()
    };
    let changes = run(&mut m, &ctx());
    assert_eq!(
        changes,
        vec![
            ("duplicate texture animations merged", 1),
            ("unused texture animations removed", 1)
        ]
    );
    assert_eq!(
        m.texture_animations,
        vec![texture_animation(1.0), texture_animation(3.0)]
    );
    let ids: Vec<i32> = (m.materials[0].layers.iter())
        .map(|l| l.texture_animation_id)
        .collect();
    assert_eq!(ids, vec![0, 1, -1]);
}

/// Unused textures, materials and global sequences go; a texture only an unused material
/// named goes with it; a track on the third global sequence is renumbered to the first;
/// the bone stays; the chunk counts of the file's layout follow.
#[test]
fn unused_records_and_global_sequences_go_and_tracks_follow() {
    let mut bone = Bone::default();
    bone.node.tracks = Tracks(vec![translation(2, 1.0)]);
    let known = |tag, records| LayoutEntry::Known {
        tag,
        records,
        tail: Vec::new(),
        overflow_tracks: 0,
    };
    let mut m = Model {
        version: 800,
        global_sequences: vec![100, 200, 300],
        textures: vec![
            texture("a.blp", 0),
            texture("b.blp", 0),
            texture("c.blp", 0),
        ],
        materials: vec![material(vec![layer(0, -1)]), material(vec![layer(1, -1)])],
        geosets: vec![geoset(0)],
        bones: vec![bone],
        pivot_points: vec![[0.0; 3]],
        ..Model::default()
    };
    m.layout = crate::model::Layout {
        from_file: true,
        chunks: vec![
            known(chunk::GLBS, 3),
            known(chunk::TEXS, 3),
            known(chunk::MTLS, 2),
        ],
        trailing: Vec::new(),
    };
    let changes = run(&mut m, &ctx());
    assert_eq!(
        changes,
        vec![
            ("unused materials removed", 1),
            ("unused textures removed", 2),
            ("unused global sequences removed", 2)
        ]
    );
    assert_eq!(m.global_sequences, vec![300]);
    assert_eq!(m.textures, vec![texture("a.blp", 0)]);
    assert_eq!(m.materials.len(), 1);
    assert_eq!(m.bones.len(), 1);
    assert_eq!(m.bones[0].node.tracks.0, vec![translation(0, 1.0)]);
    assert_eq!(
        m.layout.chunks,
        vec![
            known(chunk::GLBS, 1),
            known(chunk::TEXS, 1),
            known(chunk::MTLS, 1)
        ]
    );
}

/// A texture reference out of range keeps every texture where it is (renumbering could
/// make it name another texture), duplicates and unused ones alike.
#[test]
fn an_invalid_texture_reference_leaves_textures_alone() {
    let a = texture("a.blp", 0);
    let mut m = Model {
        version: 800,
        textures: vec![a.clone(), a.clone(), texture("b.blp", 0)],
        materials: vec![material(vec![layer(0, -1), layer(1, -1), layer(7, -1)])],
        geosets: vec![geoset(0)],
        ..Model::default()
    };
    let before = m.clone();
    assert_eq!(run(&mut m, &ctx()), vec![]);
    assert_eq!(m, before);
}

/// Running the pass on its own result changes nothing.
#[test]
fn a_second_run_changes_nothing() {
    let a = texture("a.blp", 0);
    let mut m = Model {
        version: 800,
        global_sequences: vec![5],
        textures: vec![a.clone(), texture("b.blp", 0), a],
        materials: vec![material(vec![layer(2, -1)]), material(vec![layer(0, -1)])],
        geosets: vec![geoset(1), geoset(0)],
        ..Model::default()
    };
    assert!(!run(&mut m, &ctx()).is_empty());
    let once = m.clone();
    assert_eq!(run(&mut m, &ctx()), vec![]);
    assert_eq!(m, once);
}

/// When no texture is used, the first stays: a model without textures is a checker
/// finding.
#[test]
fn the_last_texture_stays_even_unused() {
    let mut m = Model {
        version: 800,
        textures: vec![texture("a.blp", 0), texture("b.blp", 0)],
        ..Model::default()
    };
    assert_eq!(run(&mut m, &ctx()), vec![("unused textures removed", 1)]);
    assert_eq!(m.textures, vec![texture("a.blp", 0)]);
}

/// A flip book between a texture and its copy: once the copy is merged, the key in the
/// middle repeats the one before it and goes; the first and last key of the sequence stay.
#[test]
fn texture_id_keys_left_repeating_by_a_merge_go() {
    let a = texture("a.blp", 0);
    let mut l = layer(0, -1);
    l.tracks = Tracks(vec![Animation {
        tag: KMTF,
        track: AnyTrack::Integer(int_track(-1, &[0, 1, 0])),
    }]);
    let mut m = Model {
        version: 800,
        sequences: vec![crate::model::Sequence {
            interval: [0, 300],
            ..Default::default()
        }],
        textures: vec![a.clone(), a.clone()],
        materials: vec![material(vec![l])],
        geosets: vec![geoset(0)],
        ..Model::default()
    };
    let changes = run(&mut m, &ctx());
    assert_eq!(
        changes,
        vec![
            ("duplicate textures merged", 1),
            ("texture id keys left repeating removed", 1)
        ]
    );
    let AnyTrack::Integer(t) = &m.materials[0].layers[0].tracks.0[0].track else {
        panic!("not an integer track")
    };
    let keys: Vec<(i32, u32)> = t.keys.iter().map(|k| (k.time, k.value)).collect();
    assert_eq!(keys, vec![(0, 0), (200, 0)]);
}

/// A model without textures, materials or anything else: nothing to do, nothing fails.
#[test]
fn an_empty_model_changes_nothing() {
    let mut m = Model::default();
    assert_eq!(run(&mut m, &ctx()), vec![]);
    assert_eq!(m, Model::default());
}
