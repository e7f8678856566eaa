use super::*;
use crate::model::{
    Animation, Bone, EventObject, Geoset, GeosetAnimation, Interpolation, Key, Layer, Material,
    Node, ParticleEmitter2, RibbonEmitter, Texture, TextureAnimation, TextureSlot,
};
use crate::model::{AnyTrack, EventTrack, Track, Tracks};
use crate::spec::track::KMTF;
use crate::spec::track::{KGAO, KGTR, KMTA};

fn track<T: Copy>(gs: i32, keys: &[(i32, T)]) -> Track<T> {
    Track {
        interpolation: Interpolation::None,
        global_sequence_id: gs,
        keys: keys.iter().map(|&(t, v)| Key::at(t, v)).collect(),
    }
}

fn layer(texture_id: i32, texture_animation_id: i32) -> Layer {
    Layer {
        texture_id,
        texture_animation_id,
        ..Layer::default()
    }
}

/// Three textures, three materials, three texture animations, three global sequences,
/// each kind with one record nothing refers to (index 1), referred to from every kind
/// of field.
fn model() -> Model {
    let mut l0 = layer(0, 2);
    l0.tracks.0.push(Animation {
        tag: KMTF,
        track: AnyTrack::Integer(track(2, &[(0, 0), (10, 2)])),
    });
    let mut l1 = layer(2, -1);
    l1.texture_slots.push(TextureSlot {
        texture_id: 2,
        role: 0,
        texture_id_track: Some(track(0, &[(0, 2)])),
    });
    let mut ta = TextureAnimation::default();
    ta.tracks.0.push(Animation {
        tag: crate::spec::track::KTAT,
        track: AnyTrack::Vector3(track(-1, &[(0, [0.0; 3])])),
    });
    let mut ga = GeosetAnimation::default();
    ga.tracks.0.push(Animation {
        tag: KGAO,
        track: AnyTrack::Float(track(0, &[(0, 1.0)])),
    });
    let mut bone = Bone::default();
    bone.node.tracks.0.push(Animation {
        tag: KGTR,
        track: AnyTrack::Vector3(track(2, &[(0, [0.0; 3])])),
    });
    Model {
        textures: vec![Texture::default(); 3],
        materials: vec![
            Material {
                layers: vec![l0],
                ..Material::default()
            },
            Material {
                layers: vec![layer(1, 1)],
                ..Material::default()
            },
            Material {
                layers: vec![l1],
                ..Material::default()
            },
        ],
        texture_animations: vec![ta.clone(), ta.clone(), ta],
        global_sequences: vec![100, 200, 300],
        geosets: vec![
            Geoset {
                material_id: 0,
                ..Geoset::default()
            },
            Geoset {
                material_id: 2,
                ..Geoset::default()
            },
        ],
        geoset_animations: vec![ga],
        bones: vec![bone],
        particle_emitters2: vec![ParticleEmitter2 {
            texture_id: 0,
            ..ParticleEmitter2::default()
        }],
        ribbon_emitters: vec![RibbonEmitter {
            material_id: 2,
            ..RibbonEmitter::default()
        }],
        event_objects: vec![EventObject {
            node: Node::default(),
            track: Some(EventTrack {
                global_sequence_id: 0,
                times: vec![5],
            }),
        }],
        ..Model::default()
    }
}

#[test]
fn every_kind_of_reference_is_counted() {
    let u = Usage::of(&model());
    // Texture 0: layer 0, its KMTF key, the emitter; 1: material 1's layer; 2: layer
    // 0's second KMTF key, layer 1, its slot and the slot's key.
    assert_eq!(u.textures, [3, 1, 4]);
    assert_eq!(u.materials, [1, 0, 2]);
    assert_eq!(u.texture_animations, [0, 1, 1]);
    // 0: the slot track, the geoset animation, the event track; 2: KMTF, the bone.
    assert_eq!(u.global_sequences, [3, 0, 2]);
    assert!(u.invalid.is_empty());
    assert_eq!(u.unused(RefKind::Material).collect::<Vec<_>>(), [1]);
}

#[test]
fn out_of_range_references_are_listed_with_their_place() {
    let mut m = model();
    m.geosets[1].material_id = 7;
    m.materials[0].layers[0].texture_animation_id = -2;
    let u = Usage::of(&m);
    assert_eq!(
        u.invalid,
        [
            (
                RefKind::TextureAnimation,
                "materials[0].layers[0].texture_animation_id".into(),
                -2
            ),
            (RefKind::Material, "geosets[1].material_id".into(), 7),
        ]
    );
    let at = u.invalid(RefKind::Material).collect::<Vec<_>>();
    assert_eq!(at, [("geosets[1].material_id", 7)]);
    // Removal of that kind is refused; other kinds are not concerned.
    let before = m.clone();
    let drop = [false, true, false];
    assert!(matches!(
        remove(&mut m, RefKind::Material, &drop),
        Err(RemoveRefused::InvalidReference(..))
    ));
    assert_eq!(m, before);
}

#[test]
fn removing_renumbers_every_reference_and_refuses_a_referenced_record() {
    let mut m = model();
    assert_eq!(
        remove(&mut m, RefKind::Texture, &[true, false, false]),
        Err(RemoveRefused::Referenced(0))
    );
    // Material 1 first: then texture 1 and texture animation 1 are unused.
    let map = remove(&mut m, RefKind::Material, &[false, true, false]).unwrap();
    assert_eq!(map, [Some(0), None, Some(1)]);
    assert_eq!(m.geosets[1].material_id, 1);
    assert_eq!(m.ribbon_emitters[0].material_id, 1);
    remove(&mut m, RefKind::Texture, &[false, true, false]).unwrap();
    let l0 = &m.materials[0].layers[0];
    assert_eq!(l0.texture_id, 0);
    let kmtf = l0.tracks.integer(KMTF).unwrap();
    assert_eq!(
        kmtf.keys.iter().map(|k| k.value).collect::<Vec<_>>(),
        [0, 1]
    );
    let l1 = &m.materials[1].layers[0];
    assert_eq!(l1.texture_id, 1);
    assert_eq!(l1.texture_slots[0].texture_id, 1);
    let slot = l1.texture_slots[0].texture_id_track.as_ref().unwrap();
    assert_eq!(slot.keys[0].value, 1);
    assert_eq!(m.particle_emitters2[0].texture_id, 0);
    // Texture animation 0 was never used; 1 only by material 1.
    remove(&mut m, RefKind::TextureAnimation, &[true, true, false]).unwrap();
    assert_eq!(m.texture_animations.len(), 1);
    assert_eq!(m.materials[0].layers[0].texture_animation_id, 0);
    assert_eq!(m.materials[1].layers[0].texture_animation_id, -1);
    remove(&mut m, RefKind::GlobalSequence, &[false, true, false]).unwrap();
    assert_eq!(m.global_sequences, [100, 300]);
    assert_eq!(kmtf_gs(&m), 1);
    assert_eq!(
        m.bones[0]
            .node
            .tracks
            .vector3(KGTR)
            .unwrap()
            .global_sequence_id,
        1
    );
    assert_eq!(
        m.event_objects[0]
            .track
            .as_ref()
            .unwrap()
            .global_sequence_id,
        0
    );
    let u = Usage::of(&m);
    for kind in RefKind::ALL {
        assert_eq!(u.unused(kind).count(), 0, "{kind:?}");
    }
}

fn kmtf_gs(m: &Model) -> i32 {
    m.materials[0].layers[0]
        .tracks
        .integer(KMTF)
        .unwrap()
        .global_sequence_id
}

#[test]
fn a_chunk_layout_from_a_file_keeps_step_with_removed_records() {
    let mut m = model();
    let known = |tag, records| LayoutEntry::Known {
        tag,
        records,
        tail: Vec::new(),
        overflow_tracks: 0,
    };
    m.layout = crate::model::Layout {
        from_file: true,
        chunks: vec![
            known(chunk::GLBS, 1),
            known(chunk::GLBS, 2),
            known(chunk::TEXS, 3),
        ],
        trailing: Vec::new(),
    };
    m.bones[0].node.tracks.0.clear();
    m.materials[0].layers[0].tracks.0.clear();
    // Global sequences 1 and 2 unused now; the second GLBS chunk goes.
    remove(&mut m, RefKind::GlobalSequence, &[false, true, true]).unwrap();
    assert_eq!(
        m.layout.chunks,
        [known(chunk::GLBS, 1), known(chunk::TEXS, 3)]
    );
}

#[test]
fn every_track_holder_is_visited_once_in_order() {
    struct Names(Vec<String>);
    impl<'m> TrackVisitor<'m> for Names {
        fn tracks(&mut self, _: Owner, at: &dyn Fn() -> String, t: &'m Tracks) {
            for a in t.iter() {
                self.0.push(format!("{}.tracks.{}", at(), a.tag));
            }
        }
        fn slot(&mut self, _: Owner, at: &dyn Fn() -> String, _: &'m Track<u32>) {
            self.0.push(at());
        }
        fn event(&mut self, at: &dyn Fn() -> String, _: &'m EventTrack) {
            self.0.push(at());
        }
    }
    let mut m = model();
    m.materials[0].layers[0].tracks.0.push(Animation {
        tag: KMTA,
        track: AnyTrack::Float(track(-1, &[(0, 1.0)])),
    });
    let mut names = Names(Vec::new());
    visit_tracks(&m, &mut names);
    assert_eq!(
        names.0,
        [
            "materials[0].layers[0].tracks.KMTF",
            "materials[0].layers[0].tracks.KMTA",
            "materials[2].layers[0].texture_slots[0].texture_id_track",
            "texture_animations[0].tracks.KTAT",
            "texture_animations[1].tracks.KTAT",
            "texture_animations[2].tracks.KTAT",
            "geoset_animations[0].tracks.KGAO",
            "bones[0].node.tracks.KGTR",
            "event_objects[0].track",
        ]
    );
}
