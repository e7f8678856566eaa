//! Every rule, on a minimal model: a clean model that no rule fires on, and for each rule
//! an edit of it that makes that rule fire (and a near miss that must not, where the rule
//! has a threshold).

use super::rules::RULES;
use super::*;
use crate::model::*;
use crate::spec::track as tk;

fn key<T: Copy>(time: i32, value: T) -> Key<T> {
    Key::at(time, value)
}

fn v3(tag: Tag, interpolation: Interpolation, keys: &[(i32, [f32; 3])]) -> Animation {
    Animation {
        tag,
        track: AnyTrack::Vector3(Track {
            interpolation,
            global_sequence_id: -1,
            keys: keys.iter().map(|&(t, v)| key(t, v)).collect(),
        }),
    }
}

fn float(tag: Tag, interpolation: Interpolation, keys: &[(i32, f32)]) -> Animation {
    Animation {
        tag,
        track: AnyTrack::Float(Track {
            interpolation,
            global_sequence_id: -1,
            keys: keys.iter().map(|&(t, v)| key(t, v)).collect(),
        }),
    }
}

fn node(name: &str, object_id: u32, parent_id: i32) -> Node {
    Node {
        name: name.into(),
        object_id,
        parent_id,
        ..Node::default()
    }
}

fn extent(min: [f32; 3], max: [f32; 3]) -> Extent {
    Extent {
        radius: 1.0,
        min,
        max,
    }
}

fn sequence(name: &str, start: u32, end: u32) -> Sequence {
    Sequence {
        name: name.into(),
        interval: [start, end],
        extent: extent([0.0; 3], [1.0; 3]),
        ..Sequence::default()
    }
}

/// A model no rule fires on: Stand and Death, one texture, material, geoset (one
/// triangle on bone 0), an Origin Ref attachment, a light, an animated bone. [`classify`]
/// calls it a doodad (a mesh with Stand and Death only).
pub(super) fn clean() -> Model {
    let geoset = Geoset {
        vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        normals: vec![[0.0, 0.0, 1.0]; 3],
        face_types: vec![face_type::TRIANGLES],
        face_group_sizes: vec![3],
        faces: vec![0, 1, 2],
        vertex_groups: vec![0; 3],
        matrix_group_sizes: vec![1],
        matrix_indices: vec![0],
        material_id: 0,
        extent: extent([0.0; 3], [1.0, 1.0, 0.0]),
        sequence_extents: vec![extent([0.0; 3], [1.0; 3]); 2],
        uv_sets: vec![vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]],
        ..Geoset::default()
    };
    let mut bone = Bone {
        node: node("Root", 0, -1),
        geoset_id: -1,
        geoset_animation_id: -1,
    };
    bone.node.tracks.0.push(v3(
        tk::KGTR,
        Interpolation::Linear,
        &[(0, [0.0; 3]), (500, [0.0, 0.0, 1.0]), (1000, [0.0; 3])],
    ));
    let mut light = Light::new();
    light.node = node("Light", 1, 0);
    light.attenuation_start = 80.0;
    light.attenuation_end = 200.0;
    let attachment = Attachment {
        node: node("Origin Ref", 2, 0),
        ..Attachment::default()
    };
    Model {
        version: 800,
        info: ModelInfo {
            name: "Clean".into(),
            extent: extent([0.0; 3], [1.0; 3]),
            ..ModelInfo::default()
        },
        sequences: vec![sequence("Stand", 0, 1000), sequence("Death", 2000, 3000)],
        textures: vec![Texture {
            path: "Textures\\Clean.blp".into(),
            ..Texture::default()
        }],
        materials: vec![Material {
            layers: vec![Layer {
                texture_id: 0,
                texture_animation_id: -1,
                alpha: 1.0,
                ..Layer::default()
            }],
            ..Material::default()
        }],
        geosets: vec![geoset],
        bones: vec![bone],
        lights: vec![light],
        attachments: vec![attachment],
        pivot_points: vec![[0.0; 3]; 3],
        ..Model::default()
    }
}

/// The rules that fire on `m` checked as a unit, and as a portrait for the one rule that
/// only portraits have (a unit is what every other rule is on for).
fn ids(m: &Model) -> Vec<&'static str> {
    let mut v: Vec<_> = check_as(m, Kind::Unit)
        .iter()
        .chain(
            check_as(m, Kind::Portrait)
                .iter()
                .filter(|f| f.rule.id == "missing-portrait-sequence"),
        )
        .map(|f| f.rule.id)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn the_clean_model_has_no_findings() {
    let found = check(&clean());
    assert!(
        found.is_empty(),
        "{:#?}",
        found.iter().map(ToString::to_string).collect::<Vec<_>>()
    );
}

type Edit = fn(&mut Model);

/// For each rule: an edit that makes it fire, and optionally a near miss that must not.
fn cases() -> Vec<(&'static str, Edit, Option<Edit>)> {
    let mut all = version_and_material_cases();
    all.extend(geoset_cases());
    all.extend(face_and_track_cases());
    all.extend(node_cases());
    // An extent that no longer holds its vertices; a thousandth of the size over is not.
    let stale: (&'static str, Edit, Option<Edit>) = (
        "stale-extent",
        |m| g(m).vertices[1][0] = 2.0,
        Some(|m| g(m).vertices[1][0] = 1.0005),
    );
    all.push(stale);
    all
}

fn g(m: &mut Model) -> &mut Geoset {
    &mut m.geosets[0]
}
fn bone_track(m: &mut Model) -> &mut AnyTrack {
    &mut m.bones[0].node.tracks.0[0].track
}
fn keys(m: &mut Model) -> &mut Vec<Key<[f32; 3]>> {
    match bone_track(m) {
        AnyTrack::Vector3(t) => &mut t.keys,
        _ => unreachable!(),
    }
}
fn hd(m: &mut Model) {
    m.version = 1000;
    m.materials[0].shader = "Shader_HD_DefaultUnit".into();
}
fn skinned(m: &mut Model) {
    m.version = 1000;
    g(m).skin = Some([0u16, 0, 0, 0, 255, 0, 0, 0].repeat(3));
    g(m).vertex_groups = vec![0; 3];
}
fn pre2(m: &mut Model) {
    let e = ParticleEmitter2 {
        node: node("Emitter", 3, 0),
        time: 0.5,
        speed: 1.0,
        latitude: 1.0,
        texture_id: 0,
        ..ParticleEmitter2::default()
    };
    m.particle_emitters2.push(e);
    m.pivot_points.push([0.0; 3]);
}

/// The cases of the version, extent, sequence and reference rules.
fn version_and_material_cases() -> Vec<(&'static str, Edit, Option<Edit>)> {
    vec![
        (
            "unknown-version",
            |m| m.version = 850,
            Some(|m| m.version = 1800),
        ),
        (
            "version-900",
            |m| m.version = 900,
            Some(|m| m.version = 1000),
        ),
        (
            "animation-file-set",
            |m| m.info.animation_file = "x.mdx".into(),
            None,
        ),
        (
            "negative-extent",
            |m| m.info.extent = extent([1.0; 3], [0.0; 3]),
            Some(|m| m.info.extent = extent([1.0; 3], [1.0; 3])),
        ),
        (
            "not-finite",
            |m| g(m).vertices[1][0] = f32::NAN,
            Some(|m| g(m).vertices[1][0] = f32::MAX),
        ),
        (
            "no-sequences",
            |m| {
                m.sequences.clear();
                m.bones[0].node.tracks.0.clear();
                g(m).sequence_extents.clear()
            },
            None,
        ),
        (
            "missing-stand-sequence",
            |m| m.sequences[0].name = "Walk".into(),
            Some(|m| m.sequences[0].name = "Alternate Stand - 2".into()),
        ),
        (
            "missing-death-sequence",
            |m| m.sequences[1].name = "Walk".into(),
            Some(|m| m.sequences[1].name = "death alternate".into()),
        ),
        (
            // The clean model has no Walk; checked as a unit, that is a finding.
            "missing-walk-sequence",
            |_| {},
            Some(|m| m.sequences.push(sequence("Alternate Walk", 4000, 5000))),
        ),
        (
            // Nor a Portrait sequence; checked as a portrait, that is a finding.
            "missing-portrait-sequence",
            |_| {},
            Some(|m| m.sequences.push(sequence("Portrait Talk", 4000, 5000))),
        ),
        (
            "nonstandard-sequence-name",
            |m| m.sequences[1].name = "Dance".into(),
            Some(|m| m.sequences[1].name = "Death Fast".into()),
        ),
        (
            "sequence-zero-length",
            |m| m.sequences[1].interval = [2000, 2000],
            Some(|m| m.sequences[1].interval = [2000, 2001]),
        ),
        (
            "sequence-reversed",
            |m| m.sequences[1].interval = [2000, 1500],
            None,
        ),
        (
            "sequence-overlap",
            |m| m.sequences[1].interval = [900, 3000],
            Some(|m| {
                m.sequences[1].interval = [900, 3000];
                m.version = 1000;
            }),
        ),
        (
            "missing-portrait-camera",
            |m| m.sequences.push(sequence("Portrait", 4000, 5000)),
            Some(|m| {
                m.sequences.push(sequence("Portrait", 4000, 5000));
                m.cameras.push(Camera::default())
            }),
        ),
        (
            "global-sequence-zero-length",
            |m| {
                m.global_sequences.push(0);
                m.bones[0]
                    .node
                    .tracks
                    .0
                    .push(float(tk::KGAO, Interpolation::None, &[(0, 1.0)]));
                set_gs(m);
            },
            None,
        ),
        ("invalid-material-ref", |m| g(m).material_id = 1, None),
        (
            "invalid-texture-ref",
            |m| m.materials[0].layers[0].texture_id = 1,
            None,
        ),
        (
            "invalid-texture-animation-ref",
            |m| m.materials[0].layers[0].texture_animation_id = 0,
            Some(|m| {
                m.materials[0].layers[0].texture_animation_id = 0;
                m.texture_animations.push(TextureAnimation::default())
            }),
        ),
        (
            "invalid-geoset-ref",
            |m| m.bones[0].geoset_id = 1,
            Some(|m| m.bones[0].geoset_id = 0),
        ),
        (
            "invalid-geoset-animation-ref",
            |m| m.bones[0].geoset_animation_id = 0,
            None,
        ),
        (
            "invalid-parent",
            |m| m.lights[0].node.parent_id = 7,
            Some(|m| m.lights[0].node.parent_id = 2),
        ),
        (
            "parent-cycle",
            |m| {
                m.bones[0].node.parent_id = 2;
            },
            None,
        ),
        (
            "object-id-mismatch",
            |m| m.lights[0].node.object_id = 5,
            None,
        ),
        (
            "invalid-global-sequence-ref",
            |m| set_gs(m),
            Some(|m| {
                m.global_sequences.push(1000);
                set_gs(m)
            }),
        ),
    ]
}

/// The cases of the geoset animation, vertex, skin and geoset size rules.
fn geoset_cases() -> Vec<(&'static str, Edit, Option<Edit>)> {
    vec![
        (
            "geoset-animated-twice",
            |m| {
                for _ in 0..2 {
                    m.geoset_animations.push(GeosetAnimation {
                        alpha: 1.0,
                        ..GeosetAnimation::default()
                    })
                }
            },
            Some(|m| {
                m.geoset_animations.push(GeosetAnimation {
                    alpha: 1.0,
                    ..GeosetAnimation::default()
                })
            }),
        ),
        (
            "bone-geoset-invisible",
            |m| {
                m.geoset_animations.push(GeosetAnimation::default());
                m.bones[0].geoset_animation_id = 0;
                m.bones[0].geoset_id = 0
            },
            Some(|m| {
                m.geoset_animations.push(GeosetAnimation {
                    alpha: 0.1,
                    ..GeosetAnimation::default()
                });
                m.bones[0].geoset_animation_id = 0;
                m.bones[0].geoset_id = 0
            }),
        ),
        ("invalid-vertex-group", |m| g(m).vertex_groups[1] = 3, None),
        ("vertex-unattached", |m| g(m).vertex_groups[1] = 255, None),
        (
            "vertex-attached-to-missing-node",
            |m| g(m).matrix_indices[0] = 9,
            None,
        ),
        (
            "vertex-attached-to-non-bone",
            |m| g(m).matrix_indices[0] = 2,
            None,
        ),
        (
            "skin-weights-not-255",
            |m| {
                skinned(m);
                g(m).skin.as_mut().unwrap()[4] = 200
            },
            Some(|m| {
                skinned(m);
                let s = g(m).skin.as_mut().unwrap();
                s[4] = 200;
                s[5] = 55
            }),
        ),
        (
            "skin-and-vertex-groups",
            |m| {
                skinned(m);
                g(m).vertex_groups = vec![0, 1, 1];
                g(m).matrix_group_sizes = vec![1, 0];
            },
            Some(skinned),
        ),
        (
            "too-many-matrix-groups",
            |m| {
                g(m).matrix_group_sizes = vec![1; 256];
                g(m).matrix_indices = vec![0; 256]
            },
            Some(|m| {
                g(m).matrix_group_sizes = vec![1; 255];
                g(m).matrix_indices = vec![0; 255]
            }),
        ),
        (
            "too-many-vertices",
            |m| grow(m, 7433),
            Some(|m| {
                grow(m, 7433);
                hd(m)
            }),
        ),
        (
            "bone-without-vertices",
            |m| g(m).matrix_indices[0] = 1,
            None,
        ),
        (
            "geoset-without-faces",
            |m| {
                g(m).faces.clear();
                g(m).face_group_sizes = vec![0]
            },
            None,
        ),
        (
            "geoset-without-vertices",
            |m| {
                let g = g(m);
                g.vertices.clear();
                g.normals.clear();
                g.vertex_groups.clear();
                g.uv_sets[0].clear();
                g.faces.clear();
                g.face_group_sizes = vec![0]
            },
            None,
        ),
        (
            "geoset-without-matrix-groups",
            |m| {
                g(m).matrix_group_sizes.clear();
                g(m).matrix_indices.clear()
            },
            Some(|m| {
                g(m).matrix_group_sizes.clear();
                g(m).matrix_indices.clear();
                skinned(m)
            }),
        ),
        (
            "too-many-triangles",
            |m| {
                let g = g(m);
                g.faces = [0, 1, 2].repeat(20_000);
                g.face_group_sizes = vec![60_000];
            },
            Some(|m| {
                let g = g(m);
                g.faces = [0, 1, 2, 0, 2, 1].repeat(9_999);
                g.face_group_sizes = vec![59_994];
            }),
        ),
        (
            "sequence-extent-count",
            |m| {
                g(m).sequence_extents.pop();
            },
            Some(|m| {
                g(m).sequence_extents.pop();
                m.version = 1000
            }),
        ),
    ]
}

/// The cases of the face, count, track and texture rules.
fn face_and_track_cases() -> Vec<(&'static str, Edit, Option<Edit>)> {
    vec![
        ("face-index-out-of-range", |m| g(m).faces[2] = 3, None),
        (
            "zero-area-triangle",
            |m| g(m).vertices[2] = [2.0, 0.0, 0.0],
            Some(|m| g(m).vertices[2] = [2.0, 0.001, 0.0]),
        ),
        (
            "duplicate-triangle",
            |m| {
                let g = g(m);
                g.faces.extend([1, 2, 0]);
                g.face_group_sizes = vec![6]
            },
            Some(|m| {
                let g = g(m);
                g.faces.extend([0, 2, 1]);
                g.face_group_sizes = vec![6]
            }),
        ),
        (
            "geoset-count-mismatch",
            |m| {
                g(m).normals.pop();
            },
            None,
        ),
        (
            "pivot-count",
            |m| {
                m.pivot_points.pop();
            },
            None,
        ),
        (
            "bind-pose-count",
            |m| {
                m.version = 1000;
                m.bind_poses = vec![[0.0; 12]; 3]
            },
            Some(|m| {
                m.version = 1000;
                m.bind_poses = vec![[0.0; 12]; 4]
            }),
        ),
        ("empty-track", |m| keys(m).clear(), None),
        (
            "track-without-sequences",
            |m| {
                m.sequences.clear();
                g(m).sequence_extents.clear()
            },
            None,
        ),
        ("unsorted-keys", |m| keys(m).swap(1, 2), None),
        ("duplicate-key", |m| keys(m)[1].time = 0, None),
        (
            "negative-key-time",
            |m| keys(m).insert(0, key(-5, [0.0; 3])),
            None,
        ),
        (
            "key-outside-sequences",
            |m| keys(m).push(key(1500, [0.0; 3])),
            Some(|m| keys(m).insert(0, key(0, [0.0; 3]))),
        ),
        (
            "missing-opening-key",
            |m| {
                keys(m)[0].time = 100;
                keys(m)[2].value = [1.0; 3]
            },
            Some(|m| {
                keys(m)[0].time = 100;
                keys(m)[0].value = [0.0; 3];
                keys(m)[2].value = [0.0; 3];
                keys(m)[1].value = [0.0; 3]
            }),
        ),
        (
            "redundant-key",
            // On the line from 0 to 1000: the keys around give it back.
            |m| keys(m)[1].value = [0.0; 3],
            // Within mdx-m3-viewer's 0.001, but it bends the curve: kept.
            Some(|m| keys(m)[1].value = [0.0005, 0.0, 0.0]),
        ),
        (
            "visibility-interpolated",
            |m| {
                m.lights[0]
                    .tracks
                    .0
                    .push(float(tk::KLAV, Interpolation::Linear, &[(0, 1.0)]))
            },
            Some(|m| {
                m.lights[0]
                    .tracks
                    .0
                    .push(float(tk::KLAV, Interpolation::None, &[(0, 1.0)]))
            }),
        ),
        (
            "magos-unsupported-track",
            |m| {
                pre2(m);
                m.particle_emitters2[0].tracks.0.push(float(
                    tk::KP2R,
                    Interpolation::None,
                    &[(0, 1.0)],
                ))
            },
            Some(pre2),
        ),
        (
            "no-textures",
            |m| {
                m.textures.clear();
                m.materials[0].layers[0].texture_id = -1;
            },
            None,
        ),
        (
            "no-materials",
            |m| {
                m.materials.clear();
                g(m).material_id = 0
            },
            None,
        ),
        (
            "texture-path-extension",
            |m| m.textures[0].path = "Textures\\Clean.png".into(),
            Some(|m| m.textures[0].path = "Textures\\Clean.DDS".into()),
        ),
        (
            "unknown-replaceable-id",
            |m| {
                m.textures[0].replaceable_id = 3;
                m.textures[0].path = "".into()
            },
            Some(|m| {
                m.textures[0].replaceable_id = 2;
                m.textures[0].path = "".into()
            }),
        ),
    ]
}

/// The cases of the material, unused-record, node and emitter rules.
#[allow(
    clippy::too_many_lines,
    reason = "test code: the shape gate holds the sources only"
)]
fn node_cases() -> Vec<(&'static str, Edit, Option<Edit>)> {
    vec![
        (
            "replaceable-id-with-path",
            |m| m.textures[0].replaceable_id = 1,
            None,
        ),
        (
            "unknown-shader",
            |m| {
                m.version = 1000;
                m.materials[0].shader = "Shader_Fancy".into()
            },
            Some(hd),
        ),
        (
            "material-without-layers",
            |m| m.materials[0].layers.clear(),
            None,
        ),
        (
            "invalid-filter-mode",
            |m| m.materials[0].layers[0].filter_mode = 7,
            Some(|m| m.materials[0].layers[0].filter_mode = 6),
        ),
        (
            "unused-texture",
            |m| {
                m.textures.push(Texture {
                    path: "x.blp".into(),
                    ..Texture::default()
                })
            },
            None,
        ),
        (
            "unused-material",
            |m| {
                let x = m.materials[0].clone();
                m.materials.push(x)
            },
            None,
        ),
        (
            "unused-texture-animation",
            |m| m.texture_animations.push(TextureAnimation::default()),
            None,
        ),
        (
            "unused-global-sequence",
            |m| m.global_sequences.push(1000),
            None,
        ),
        (
            "light-attenuation",
            |m| m.lights[0].attenuation_start = 79.0,
            None,
        ),
        (
            "attachment-path",
            |m| m.attachments[0].path = "x.blp".into(),
            Some(|m| m.attachments[0].path = "x.MDX".into()),
        ),
        (
            "missing-origin-attachment",
            |m| m.attachments[0].node.name = "Chest Ref".into(),
            None,
        ),
        (
            "emitter-path",
            |m| {
                m.particle_emitters.push(ParticleEmitter {
                    node: node("P", 3, 0),
                    path: "x.blp".into(),
                    ..ParticleEmitter::default()
                });
                m.pivot_points.push([0.0; 3])
            },
            Some(|m| {
                m.particle_emitters.push(ParticleEmitter {
                    node: node("P", 3, 0),
                    path: "x.mdl".into(),
                    ..ParticleEmitter::default()
                });
                m.pivot_points.push([0.0; 3])
            }),
        ),
        (
            "xy-quad-without-speed",
            |m| {
                pre2(m);
                m.particle_emitters2[0].node.flags |= 0x100000;
                m.particle_emitters2[0].speed = 0.0
            },
            Some(|m| {
                pre2(m);
                m.particle_emitters2[0].node.flags |= 0x100000
            }),
        ),
        (
            "time-middle-range",
            |m| {
                pre2(m);
                m.particle_emitters2[0].time = 1.5
            },
            None,
        ),
        (
            "squirt-without-emission-track",
            |m| {
                pre2(m);
                m.particle_emitters2[0].squirt = 1
            },
            Some(|m| {
                pre2(m);
                m.particle_emitters2[0].squirt = 1;
                m.particle_emitters2[0].tracks.0.push(float(
                    tk::KP2E,
                    Interpolation::None,
                    &[(0, 1.0)],
                ))
            }),
        ),
        (
            "popcorn-without-visibility-guide",
            |m| {
                m.version = 1000;
                m.popcorn_emitters.push(PopcornEmitter {
                    node: node("C", 3, 0),
                    ..PopcornEmitter::default()
                });
                m.pivot_points.push([0.0; 3])
            },
            None,
        ),
        (
            "face-effect-path",
            |m| {
                m.version = 1000;
                m.face_effects.push(FaceEffect {
                    path: "x.mdx".into(),
                    ..FaceEffect::default()
                })
            },
            Some(|m| {
                m.version = 1000;
                m.face_effects.push(FaceEffect {
                    path: "x.facefx".into(),
                    ..FaceEffect::default()
                })
            }),
        ),
        (
            "helper-without-children",
            |m| {
                m.helpers.push(Helper {
                    node: node("H", 3, -1),
                });
                m.pivot_points.push([0.0; 3])
            },
            Some(|m| {
                m.helpers.push(Helper {
                    node: node("H", 3, -1),
                });
                m.pivot_points.push([0.0; 3]);
                m.attachments[0].node.parent_id = 3
            }),
        ),
    ]
}

/// Runs bone 0's first track on global sequence 0.
fn set_gs(m: &mut Model) {
    if let AnyTrack::Vector3(t) = &mut m.bones[0].node.tracks.0[0].track {
        t.global_sequence_id = 0;
        for k in &mut t.keys {
            k.time = k.time.min(1000);
        }
    }
    m.bones[0].node.tracks.0.truncate(1);
}

/// Gives geoset 0 `n` vertices (one triangle fan of distinct points, all on bone 0).
fn grow(m: &mut Model, n: usize) {
    let g = &mut m.geosets[0];
    g.vertices = (0..n)
        .map(|i| [i as f32, (i % 7) as f32, (i % 3) as f32])
        .collect();
    g.normals = vec![[0.0, 0.0, 1.0]; n];
    g.vertex_groups = vec![0; n];
    g.uv_sets = vec![vec![[0.0; 2]; n]];
}

#[test]
fn every_rule_fires_on_its_case_and_not_on_its_near_miss() {
    let cases = cases();
    let mut missing = Vec::new();
    for rule in RULES {
        if !cases.iter().any(|c| c.0 == rule.id) {
            missing.push(rule.id);
        }
    }
    // The texture-file rules are tested with files (tests/check_textures.rs), and the
    // found-nowhere rules with game archives made by StormLib
    // (mdlx-cli/tests/game_archives.rs).
    missing.retain(|id| {
        ![
            "texture-not-power-of-two",
            "texture-over-512",
            "blp-jpeg-header-too-large",
            "texture-not-found",
            "model-not-found",
        ]
        .contains(id)
    });
    assert!(missing.is_empty(), "rules without a case: {missing:?}");
    let mut failures = Vec::new();
    for (id, edit, near) in cases {
        assert!(rules::find(id).is_some(), "no rule {id}");
        let mut m = clean();
        edit(&mut m);
        if !ids(&m).contains(&id) {
            failures.push(format!("{id}: does not fire; found {:?}", ids(&m)));
        }
        if let Some(near) = near {
            let mut m = clean();
            near(&mut m);
            if ids(&m).contains(&id) {
                failures.push(format!("{id}: fires on its near miss"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn findings_name_the_record_and_path() {
    let mut m = clean();
    m.geosets[0].vertex_groups[1] = 255;
    let f = check(&m);
    let f = f.iter().find(|f| f.rule.id == "vertex-unattached").unwrap();
    assert_eq!(f.path, "geosets[0].vertex_groups[1]");
    assert_eq!(
        f.record,
        Some(RecordRef {
            list: "geosets",
            index: 0
        })
    );
    let mut m = clean();
    m.bones[0].node.name = "Hand Right".into();
    m.geosets[0].matrix_indices[0] = 1;
    let f = check(&m);
    let f = f
        .iter()
        .find(|f| f.rule.id == "bone-without-vertices")
        .unwrap();
    assert_eq!(f.to_string(), "warning[bone-without-vertices] bones[0] \"Hand Right\": no vertex is attached to this bone: attach some, or make it a helper");
}

#[test]
fn source_maps_locate_records_in_mdx_and_mdl() {
    let mut m = clean();
    m.bones[0].node.name = "Hand Right".into();
    m.geosets[0].matrix_indices[0] = 1;
    let mdx = crate::mdx::to_bytes(&m).unwrap();
    let mut f = check(&crate::mdx::from_bytes(&mdx).unwrap());
    SourceMap::mdx(&mdx).locate(&mut f);
    let bone = f
        .iter()
        .find(|f| f.rule.id == "bone-without-vertices")
        .unwrap();
    let Some(SourcePos::Offset(o)) = bone.at else {
        panic!("{bone:?}")
    };
    // The bone record starts with its inclusive size, then its name.
    assert_eq!(&mdx[o as usize + 4..o as usize + 14], b"Hand Right");
    let mdl = crate::mdl::to_bytes(&m);
    let mut f = check(&crate::mdl::from_bytes(&mdl).unwrap());
    SourceMap::mdl(&mdl).locate(&mut f);
    let bone = f
        .iter()
        .find(|f| f.rule.id == "bone-without-vertices")
        .unwrap();
    let Some(SourcePos::Line { line, column }) = bone.at else {
        panic!("{bone:?}")
    };
    let text = String::from_utf8(mdl).unwrap();
    let l = text.lines().nth(line as usize - 1).unwrap();
    assert!(
        l[column as usize - 1..].starts_with("Bone \"Hand Right\""),
        "{l}"
    );
}
