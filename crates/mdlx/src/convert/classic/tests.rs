//! Unit tests of the classic conversion's parts, with expectations worked out by hand.

use super::material::{convert, Job};
use crate::model::{
    filter_mode, shader_type, Animation, AnyTrack, Bone, FixedString, Interpolation, Key, Layer,
    Material, Model, Node, Sequence, Texture, TextureSlot, Track, Tracks,
};
use crate::spec::track::KGTR;

fn texture(path: &str, replaceable_id: u32) -> Texture {
    Texture {
        path: FixedString::from_field(path.as_bytes()),
        replaceable_id,
        ..Texture::default()
    }
}

/// Diffuse, normal, ORM, emissive (black), team colour, environment.
fn hd_textures() -> Vec<Texture> {
    vec![
        texture("Units\\A_Diffuse.dds", 0),
        texture("Units\\A_Normal.dds", 0),
        texture("Units\\A_ORM.dds", 0),
        texture("Textures\\Black32.blp", 0),
        texture("", 1),
        texture("ReplaceableTextures\\EnvironmentMap.blp", 0),
    ]
}

fn layer(texture_id: i32) -> Layer {
    Layer {
        texture_id,
        texture_animation_id: -1,
        alpha: 1.0,
        emissive_gain: 1.0,
        fresnel_color: [1.0; 3],
        ..Layer::default()
    }
}

/// An opaque HD material, in both forms, becomes team colour (filter None) under the
/// diffuse (filter Blend) whose alpha carries the ORM's mask; the black emissive adds no
/// layer; normal and environment maps are listed.
#[test]
fn an_opaque_hd_material_becomes_team_colour_under_the_masked_diffuse() {
    let six = Material {
        shader: FixedString::from_field(shader_type::HD_SHADER.as_bytes()),
        layers: (0..6).map(layer).collect(),
        ..Material::default()
    };
    let one = Material {
        layers: vec![Layer {
            shader_type_id: shader_type::HD_DEFAULT_UNIT,
            texture_slots: (0..6)
                .map(|i| TextureSlot {
                    texture_id: i,
                    role: i as u32,
                    texture_id_track: None,
                })
                .collect(),
            ..layer(0)
        }],
        ..Material::default()
    };
    for (version, m) in [(1000, six), (1100, one)] {
        let mut model = Model {
            version,
            textures: hd_textures(),
            materials: vec![m],
            ..Model::default()
        };
        let mut losses = Vec::new();
        let jobs = convert(&mut model, &mut losses, &|_, _| true);
        let l = &model.materials[0].layers;
        assert_eq!(l.len(), 2, "{version}");
        assert_eq!((l[0].texture_id, l[0].filter_mode), (4, filter_mode::NONE));
        assert_eq!((l[1].texture_id, l[1].filter_mode), (0, filter_mode::BLEND));
        assert!(l
            .iter()
            .all(|l| l.texture_slots.is_empty() && l.shader_type_id == 0));
        assert!(model.materials[0].shader.is_empty());
        assert_eq!(jobs, vec![(0, 1, Job::Masked(0, 2))]);
        let said: Vec<String> = losses.iter().map(|l| l.to_string()).collect();
        assert_eq!(
            said,
            vec!["Material[0]: HD shading: the normal, environment textures are not drawn by the classic client"]
        );
    }
}

/// Two sequences on the same time span are laid apart, 100 ms between them; a track's
/// keys of that span are copied to each; keys outside every sequence go.
#[test]
fn overlapping_sequences_are_laid_apart_with_their_keys() {
    let seq = |a, b| Sequence {
        interval: [a, b],
        ..Sequence::default()
    };
    let keys = [0, 50, 100, 500].map(|t| Key::at(t, [t as f32, 0.0, 0.0]));
    let mut m = Model {
        version: 800,
        sequences: vec![seq(0, 100), seq(0, 100)],
        bones: vec![Bone {
            node: Node {
                flags: 0x100,
                tracks: Tracks(vec![Animation {
                    tag: KGTR,
                    track: AnyTrack::Vector3(Track {
                        interpolation: Interpolation::Linear,
                        global_sequence_id: -1,
                        keys: keys.to_vec(),
                    }),
                }]),
                ..Node::default()
            },
            geoset_id: -1,
            geoset_animation_id: -1,
        }],
        pivot_points: vec![[0.0; 3]],
        ..Model::default()
    };
    let mut losses = Vec::new();
    super::layout::separate_sequences(&mut m, &mut losses);
    let intervals: Vec<[u32; 2]> = m.sequences.iter().map(|s| s.interval).collect();
    assert_eq!(intervals, vec![[0, 100], [200, 300]]);
    let Some(t) = m.bones[0].node.tracks.vector3(KGTR) else {
        panic!("the track stays")
    };
    let got: Vec<(i32, f32)> = t.keys.iter().map(|k| (k.time, k.value[0])).collect();
    assert_eq!(
        got,
        vec![
            (0, 0.0),
            (50, 50.0),
            (100, 100.0),
            (200, 0.0),
            (250, 50.0),
            (300, 100.0)
        ]
    );
    assert_eq!(losses.len(), 1);
}
