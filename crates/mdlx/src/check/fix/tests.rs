use super::pose::compare;
use super::*;
use crate::anim::math::{Quat, Vec3};
use crate::model::{
    Animation, Bone, EventObject, EventTrack, FixedString, Geoset, GeosetAnimation, Layer,
    Material, Sequence, Texture, TextureAnimation,
};
use crate::model::{Interpolation, Key};
use crate::spec::track::{KGAO, KGRT, KGTR, KMTA};

fn key<T: Copy>(time: i32, value: T) -> Key<T> {
    Key::at(time, value)
}

fn track<T: Copy>(interpolation: Interpolation, keys: &[(i32, T)]) -> Track<T> {
    Track {
        interpolation,
        global_sequence_id: -1,
        keys: keys.iter().map(|&(t, v)| key(t, v)).collect(),
    }
}

/// Sequences [0, 1000] and [2000, 3000]; one bone with `tracks`; one geoset on one
/// material with one texture.
fn model(tracks: Vec<Animation>) -> Model {
    let seq = |name: &str, a, b| Sequence {
        name: FixedString::from_field(name.as_bytes()),
        interval: [a, b],
        ..Sequence::default()
    };
    let mut bone = Bone::default();
    bone.node.tracks = Tracks(tracks);
    Model {
        version: 800,
        sequences: vec![seq("Stand", 0, 1000), seq("Walk", 2000, 3000)],
        textures: vec![Texture::default()],
        materials: vec![Material {
            layers: vec![Layer {
                alpha: 1.0,
                texture_animation_id: -1,
                ..Layer::default()
            }],
            ..Material::default()
        }],
        geosets: vec![Geoset {
            sequence_extents: vec![Default::default(); 2],
            ..Geoset::default()
        }],
        bones: vec![bone],
        pivot_points: vec![[0.0; 3]],
        ..Model::default()
    }
}

#[test]
fn a_classic_geoset_without_one_extent_per_sequence_gets_its_own_for_each() {
    let mut m = model(Vec::new());
    m.geosets[0].extent.radius = 7.0;
    m.geosets[0].sequence_extents.truncate(1);
    let f = fixed(&m);
    assert_eq!(
        rules(&f),
        [("sequence-extent-count", "geosets[0].sequence_extents")]
    );
    assert_eq!(
        f.model.geosets[0].sequence_extents,
        vec![m.geosets[0].extent; 2]
    );
    assert!(crate::check::check(&f.model)
        .iter()
        .all(|x| x.rule.id != "sequence-extent-count"));
    // A Reforged model is not touched: the rule is for version 800.
    m.version = 1000;
    assert!(fixed(&m).actions.is_empty());
}

fn translation(interpolation: Interpolation, keys: &[(i32, f32)]) -> Animation {
    let keys: Vec<(i32, Vec3)> = keys.iter().map(|&(t, x)| (t, [x, 0.0, 0.0])).collect();
    Animation {
        tag: KGTR,
        track: AnyTrack::Vector3(track(interpolation, &keys)),
    }
}

fn fixed(m: &Model) -> Fixed {
    fix(m, &FixOptions::default()).unwrap()
}

fn times_of(m: &Model) -> Vec<i32> {
    let t = m.bones[0].node.tracks.vector3(KGTR).unwrap();
    t.keys.iter().map(|k| k.time).collect()
}

fn rules(f: &Fixed) -> Vec<(&'static str, &str)> {
    f.actions
        .iter()
        .map(|a| (a.rule, a.path.as_str()))
        .collect()
}

const NONE: Interpolation = Interpolation::None;
const LINEAR: Interpolation = Interpolation::Linear;

#[test]
fn keys_out_of_order_are_sorted_and_ordered_ones_left_alone() {
    let m = model(vec![translation(
        NONE,
        &[(500, 2.0), (0, 1.0), (1000, 3.0)],
    )]);
    let f = fixed(&m);
    assert_eq!(rules(&f), [("unsorted-keys", "bones[0].node.tracks.KGTR")]);
    assert_eq!(times_of(&f.model), [0, 500, 1000]);
    assert!(f.poses_checked > 0);
    let m = model(vec![translation(
        NONE,
        &[(0, 1.0), (500, 2.0), (1000, 3.0)],
    )]);
    assert_eq!(fixed(&m).actions, []);
}

#[test]
fn of_keys_at_one_time_the_last_stored_stays() {
    let m = model(vec![translation(
        NONE,
        &[(0, 1.0), (500, 2.0), (500, 5.0), (1000, 3.0)],
    )]);
    let f = fixed(&m);
    assert_eq!(rules(&f), [("duplicate-key", "bones[0].node.tracks.KGTR")]);
    let t = f.model.bones[0].node.tracks.vector3(KGTR).unwrap();
    assert_eq!(t.keys[1], key(500, [5.0, 0.0, 0.0]));
    assert_eq!(t.keys.len(), 3);
    // Unsorted with a duplicate: sorting keeps the file order of equal times.
    let m = model(vec![translation(
        NONE,
        &[(500, 2.0), (0, 1.0), (500, 5.0), (1000, 3.0)],
    )]);
    let f = fixed(&m);
    assert_eq!(f.actions.len(), 2);
    assert_eq!(
        f.model.bones[0].node.tracks.vector3(KGTR).unwrap().keys[1].value[0],
        5.0
    );
}

#[test]
fn a_step_key_equal_to_the_one_before_goes() {
    let m = model(vec![translation(
        NONE,
        &[(0, 1.0), (300, 1.0), (600, 1.0), (800, 2.0), (1000, 2.0)],
    )]);
    let f = fixed(&m);
    assert_eq!(rules(&f), [("redundant-key", "bones[0].node.tracks.KGTR")]);
    // 1000 is the window's last key: it stays although it repeats 800.
    assert_eq!(times_of(&f.model), [0, 800, 1000]);
    let m = model(vec![translation(
        NONE,
        &[(0, 1.0), (300, 2.0), (1000, 1.0)],
    )]);
    assert_eq!(fixed(&m).actions, []);
}

#[test]
fn a_linear_key_on_the_line_goes_one_off_it_stays() {
    let on = [(0, 0.0), (250, 1.0), (500, 2.0), (750, 3.0), (1000, 4.0)];
    let f = fixed(&model(vec![translation(LINEAR, &on)]));
    assert_eq!(times_of(&f.model), [0, 1000]);
    assert!(f.actions[0].message.contains("3 keys at 250, 500, 750 ms"));
    let off = [(0, 0.0), (500, 2.5), (1000, 4.0)];
    assert_eq!(fixed(&model(vec![translation(LINEAR, &off)])).actions, []);
}

#[test]
fn a_rotation_on_the_slerp_between_its_neighbours_goes() {
    let q = |deg: f32| {
        let (s, c) = (deg.to_radians() / 2.0).sin_cos();
        [0.0, 0.0, s, c]
    };
    let rot = |keys: &[(i32, Quat)]| Animation {
        tag: KGRT,
        track: AnyTrack::Quaternion(track(LINEAR, keys)),
    };
    let f = fixed(&model(vec![rot(&[
        (0, q(0.0)),
        (500, q(45.0)),
        (1000, q(90.0)),
    ])]));
    assert_eq!(rules(&f), [("redundant-key", "bones[0].node.tracks.KGRT")]);
    let f = fixed(&model(vec![rot(&[
        (0, q(0.0)),
        (500, q(50.0)),
        (1000, q(90.0)),
    ])]));
    assert_eq!(f.actions, []);
}

#[test]
fn a_spline_key_goes_only_where_the_curve_is_flat() {
    let hermite = |tan: f32| {
        let mut t = track(
            Interpolation::Hermite,
            &[(0, 1.0f32), (500, 1.0), (1000, 1.0)],
        );
        for k in &mut t.keys {
            k.in_tan = tan;
            k.out_tan = tan;
        }
        Animation {
            tag: KGAO,
            track: AnyTrack::Float(t),
        }
    };
    let with_geoa = |a: Animation| {
        let mut m = model(Vec::new());
        let mut ga = GeosetAnimation::default();
        ga.tracks.0.push(a);
        m.geoset_animations.push(ga);
        m
    };
    // Hermite tangents are slopes: flat at 0.
    let f = fixed(&with_geoa(hermite(0.0)));
    assert_eq!(
        rules(&f),
        [("redundant-key", "geoset_animations[0].tracks.KGAO")]
    );
    // Equal values and tangents, but a slope of 1: the curve bulges; every key stays.
    assert_eq!(fixed(&with_geoa(hermite(1.0))).actions, []);
}

#[test]
fn the_first_and_last_key_of_a_window_and_a_lone_key_stay() {
    // Step keys, all equal: 1000 ends Stand, 2000 starts Walk, 1500 lies in no window;
    // only 2500, inside Walk between 2000 and 3000, goes.
    let keys = [
        (0, 1.0),
        (1000, 1.0),
        (1500, 1.0),
        (2000, 1.0),
        (2500, 1.0),
        (3000, 1.0),
    ];
    let f = fixed(&model(vec![translation(NONE, &keys)]));
    assert_eq!(times_of(&f.model), [0, 1000, 1500, 2000, 3000]);
    // A key alone in its window (and the only one of a track) stays.
    let f = fixed(&model(vec![translation(
        NONE,
        &[(0, 1.0), (2500, 1.0), (5000, 1.0)],
    )]));
    assert_eq!(f.actions, []);
    // A key in two overlapping windows stays unless both hold its neighbours.
    let mut m = model(vec![translation(
        NONE,
        &[(0, 1.0), (500, 1.0), (1000, 1.0)],
    )]);
    m.sequences[1].interval = [500, 3000];
    assert_eq!(fixed(&m).actions, []);
}

#[test]
fn global_sequence_tracks_use_their_own_window() {
    let mut a = translation(NONE, &[(0, 1.0), (100, 1.0), (200, 1.0), (300, 1.0)]);
    if let AnyTrack::Vector3(t) = &mut a.track {
        t.global_sequence_id = 0;
    }
    let mut m = model(vec![a]);
    m.global_sequences = vec![200];
    let f = fixed(&m);
    // 100 goes; 200 ends the global sequence; 300 lies outside it.
    assert_eq!(times_of(&f.model), [0, 200, 300]);
    // On a global sequence the model does not have, no key is ever read: all stay.
    m.global_sequences.clear();
    let f = fixed(&m);
    assert!(f.actions.iter().all(|a| a.rule != "redundant-key"));
}

#[test]
fn event_tracks_are_left_alone() {
    let mut m = model(Vec::new());
    m.event_objects.push(EventObject {
        track: Some(EventTrack {
            global_sequence_id: -1,
            times: vec![500, 100, 100, 200],
        }),
        ..EventObject::default()
    });
    m.pivot_points.push([0.0; 3]);
    let f = fixed(&m);
    assert_eq!(f.actions, []);
    assert_eq!(f.model, m);
}

#[test]
fn unused_records_go_and_references_are_renumbered() {
    let mut m = model(Vec::new());
    m.textures.insert(0, Texture::default()); // texture 0 unused; the layer's is now 1
    m.materials[0].layers[0].texture_id = 1;
    m.materials.insert(0, Material::default()); // material 0 unused
    m.geosets[0].material_id = 1;
    m.texture_animations = vec![TextureAnimation::default(); 2];
    m.materials[1].layers[0].texture_animation_id = 1;
    m.global_sequences = vec![100, 200];
    m.materials[1].layers[0].tracks.0.push(Animation {
        tag: KMTA,
        track: AnyTrack::Float(Track {
            interpolation: NONE,
            global_sequence_id: 1,
            keys: vec![key(0, 0.5)],
        }),
    });
    let f = fixed(&m);
    assert_eq!(
        rules(&f),
        [
            ("unused-material", "materials[0]"),
            ("unused-texture", "textures[0]"),
            ("unused-texture-animation", "texture_animations[0]"),
            ("unused-global-sequence", "global_sequences[0]"),
        ]
    );
    let l = &f.model.materials[0].layers[0];
    assert_eq!((l.texture_id, l.texture_animation_id), (0, 0));
    assert_eq!(f.model.geosets[0].material_id, 0);
    assert_eq!(f.model.global_sequences, [200]);
    assert_eq!(l.tracks.float(KMTA).unwrap().global_sequence_id, 0);
    // Everything used: nothing to do.
    assert_eq!(fixed(&f.model).actions, []);
}

#[test]
fn what_only_a_removed_record_used_goes_too_and_says_so() {
    let mut m = model(Vec::new());
    m.textures.push(Texture::default());
    m.materials.push(Material {
        layers: vec![Layer {
            texture_id: 1,
            texture_animation_id: -1,
            ..Layer::default()
        }],
        ..Material::default()
    });
    let f = fixed(&m);
    assert_eq!(
        rules(&f),
        [
            ("unused-material", "materials[1]"),
            ("unused-texture", "textures[1]")
        ]
    );
    assert!(f.actions[1].message.contains("only records removed"));
}

#[test]
fn an_out_of_range_reference_keeps_every_record_of_its_kind() {
    let mut m = model(Vec::new());
    m.textures.push(Texture::default()); // unused
    m.materials[0].layers[0].texture_id = 5; // names no texture
    let f = fixed(&m);
    assert_eq!(f.actions, []);
    // Texture animations have a "none" (-1); other negative values are out of range.
    let mut m = model(Vec::new());
    m.texture_animations.push(TextureAnimation::default());
    m.materials[0].layers[0].texture_animation_id = -2;
    assert_eq!(fixed(&m).actions, []);
    m.materials[0].layers[0].texture_animation_id = -1;
    assert_eq!(fixed(&m).actions.len(), 1);
}

#[test]
fn a_change_of_pose_is_caught() {
    let m = model(vec![translation(
        LINEAR,
        &[(0, 0.0), (500, 1.0), (1000, 4.0)],
    )]);
    // A repair that wrongly dropped the middle key.
    let mut wrong = m.clone();
    if let AnyTrack::Vector3(t) = &mut wrong.bones[0].node.tracks.0[0].track {
        t.keys.remove(1);
    }
    let e = compare(&m, &wrong, &Maps::default(), 1e-5).unwrap_err();
    assert_eq!(
        e,
        FixError::PoseChanged {
            sequence: "Stand".into(),
            time_ms: 500,
            what: "bones[0] world matrix".into(),
            difference: 1.0,
        }
    );
    assert!(e
        .to_string()
        .contains("bones[0] world matrix differs by 1 in Stand at 500 ms"));
    // A track no pose reads (a light's intensity would do; here a layer's alpha on a
    // material no geoset uses) is compared too.
    let mut m = model(Vec::new());
    m.geosets.clear();
    m.materials[0].layers[0].tracks.0.push(Animation {
        tag: KMTA,
        track: AnyTrack::Float(track(LINEAR, &[(0, 0.0), (500, 0.5), (1000, 1.0)])),
    });
    let mut wrong = m.clone();
    if let AnyTrack::Float(t) = &mut wrong.materials[0].layers[0].tracks.0[0].track {
        t.keys[1].value = 0.6;
    }
    match compare(&m, &wrong, &Maps::default(), 1e-5) {
        Err(FixError::PoseChanged { what, time_ms, .. }) => {
            assert_eq!(
                (what.as_str(), time_ms),
                ("materials[0].layers[0].tracks.KMTA", 500)
            );
        }
        other => panic!("{other:?}"),
    }
    // The same model compares equal, at every key time and the sequences' ends.
    assert_eq!(compare(&m, &m, &Maps::default(), 1e-5), Ok(5));
}
