//! Tests of `mdl::records::material` (kept apart so that the module reads as code).

use super::super::geoset::tests::{read, read_ok, round_trip};
use super::*;

#[test]
fn classic_material_and_layers() {
    // zengfanfan__war3mdlx__test__material.mdl, first material and an animated layer.
    let src = "Material {
        PriorityPlane -66,
        ConstantColor,
        SortPrimsFarZ,
        FullResolution,
        Layer {
            FilterMode AddAlpha,
            TVertexAnimId 999,
            static TextureID -1890,
            CoordId -123,
        }
        Layer {
            FilterMode Blend,
            Unshaded,
            TwoSided,
            NoDepthSet,
            Alpha 2 {
                Hermite,
                GlobalSeqId 999,
                0: 0.1,
                    InTan 0.11,
                    OutTan 0.12,
                1000: 0.9,
                    InTan 0.91,
                    OutTan 0.92,
            }
            TextureID 3 {
                Linear,
                0: 0,
                1000: 1012,
            }
        }
    }";
    let m = read_ok::<Material>(src, 800);
    assert_eq!((m.priority_plane, m.flags), (-66, 0x31));
    let l = &m.layers[0];
    assert_eq!(
        (
            l.filter_mode,
            l.texture_animation_id,
            l.texture_id,
            l.coord_id
        ),
        (4, 999, -1890, -123i32 as u32)
    );
    assert_eq!(
        (l.alpha, l.emissive_gain),
        (1.0, 0.0),
        "800 layers keep Reforged fields at 0"
    );
    let l = &m.layers[1];
    assert_eq!(
        (l.filter_mode, l.flags, l.texture_id, l.texture_animation_id),
        (2, 0x91, 0, -1)
    );
    let tags: Vec<Tag> = l.tracks.iter().map(|a| a.tag).collect();
    assert_eq!(tags, vec![tk::KMTA, tk::KMTF]);
    let text = round_trip(&m, 800);
    assert!(text.contains("\t\tstatic TextureID -1890,\n"), "{text}");
    // An animated texture id with the default static value writes only the track.
    assert_eq!(text.matches("TextureID").count(), 2, "{text}");
}

#[test]
fn statics_beside_tracks_and_the_material_two_sided_bit() {
    let mut m = read_ok::<Material>(
        "Material { TwoSided, Layer { FilterMode None, static TextureID 11, static Alpha 0.5, \
             TextureID 1 { DontInterp, 0: 2 } Alpha 1 { Linear, 0: 1 } } }",
        800,
    );
    assert_eq!(m.flags, 0x2);
    assert_eq!((m.layers[0].texture_id, m.layers[0].alpha), (11, 0.5));
    let text = round_trip(&m, 800);
    assert!(
        text.contains("static TextureID 11,") && text.contains("static Alpha 0.5,"),
        "{text}"
    );
    m.layers[0].filter_mode = 9;
    let text = round_trip(&m, 800);
    assert!(text.contains("FilterMode 9,"), "{text}");
}

#[test]
fn reforged_1000_layer() {
    let src = "Material {
		Shader \"Shader_HD_DefaultUnit\",
		Layer {
			FilterMode Transparent,
			static TextureID 0,
			static EmissiveGain nan,
			static FresnelColor { 0.0, 0.8, 0.2 },
			static FresnelOpacity 1.0,
			FresnelColor 1 {
				Linear,
				0: { 0.1, 0.2, 0.3 },
			}
		}
	}";
    let m = read_ok::<Material>(src, 1000);
    assert_eq!(m.shader.text(), "Shader_HD_DefaultUnit");
    let l = &m.layers[0];
    assert!(l.emissive_gain.is_nan());
    assert_eq!(
        (l.fresnel_color, l.fresnel_opacity, l.fresnel_team_color),
        ([0.2, 0.8, 0.0], 1.0, 0.0)
    );
    let fc = l.tracks.vector3(tk::KFC3).expect("KFC3");
    assert_eq!(
        fc.keys[0].value,
        [0.1, 0.2, 0.3],
        "keys as stored, like other color tracks"
    );
    let text = round_trip(&m, 1000);
    assert!(
        text.contains("static FresnelColor { 0, 0.8, 0.2 },"),
        "{text}"
    );
    // Defaults: emissive gain 1 and Fresnel color 1, 1, 1 are not written.
    let plain = read_ok::<Material>(
        "Material { Layer { FilterMode None, static TextureID 0 } }",
        1000,
    );
    assert_eq!(
        (plain.layers[0].emissive_gain, plain.layers[0].fresnel_color),
        (1.0, [1.0; 3])
    );
    let text = round_trip(&plain, 1000);
    assert!(
        !text.contains("Emissive") && !text.contains("Fresnel"),
        "{text}"
    );
}

#[test]
fn reforged_1100_texture_slots() {
    // riflemanSAWING.mdl: one `static TextureID` per slot and the HD shader named on the
    // material; the MDX has slot kinds 0..5 and shader type 1.
    let src = "Material {
		Shader \"Shader_HD_DefaultUnit\",
		Layer {
			FilterMode None,
			static TextureID 9,
			static TextureID 10,
			static TextureID 11,
			static TextureID 3,
			static TextureID 4,
			static TextureID 5,
		}
	}";
    let m = read_ok::<Material>(src, 1100);
    let l = &m.layers[0];
    let slots: Vec<(i32, u32)> = l
        .texture_slots
        .iter()
        .map(|s| (s.texture_id, s.role))
        .collect();
    assert_eq!(
        slots,
        vec![(9, 0), (10, 1), (11, 2), (3, 3), (4, 4), (5, 5)]
    );
    assert_eq!((l.texture_id, l.shader_type_id), (0, 1));
    let text = round_trip(&m, 1100);
    assert!(text.contains("ShaderTypeId 1,"), "{text}");

    // war3-model's slot names give the kind.
    let w3m = "Material { Layer { FilterMode None, static TextureID 1, static EmissiveTextureID 2, ShaderTypeId 0 } }";
    let l = &read_ok::<Material>(w3m, 1100).layers[0];
    let slots: Vec<(i32, u32)> = l
        .texture_slots
        .iter()
        .map(|s| (s.texture_id, s.role))
        .collect();
    assert_eq!((slots, l.shader_type_id), (vec![(1, 0), (2, 3)], 0));
}

#[test]
fn slots_the_simple_form_cannot_hold_use_a_block() {
    let track = |v| Track {
        interpolation: Interpolation::None,
        global_sequence_id: 0,
        keys: vec![Key {
            time: 0,
            value: v,
            in_tan: 0,
            out_tan: 0,
        }],
    };
    let layer = Layer {
        texture_animation_id: -1,
        alpha: 1.0,
        emissive_gain: 1.0,
        fresnel_color: [1.0; 3],
        shader_type_id: 1,
        texture_slots: vec![
            TextureSlot {
                texture_id: 0,
                role: 0,
                texture_id_track: Some(track(1)),
            },
            TextureSlot {
                texture_id: 7,
                role: 1,
                texture_id_track: Some(track(2)),
            },
            TextureSlot {
                texture_id: 8,
                role: 9,
                texture_id_track: None,
            },
        ],
        tracks: Tracks(vec![Animation {
            tag: tk::KMTF,
            track: AnyTrack::Integer(track(5)),
        }]),
        ..Default::default()
    };
    let m = Material {
        layers: vec![layer],
        ..Default::default()
    };
    let text = round_trip(&m, 1100);
    assert_eq!(text.matches("TextureSlot {").count(), 2, "{text}");
    assert!(
        text.contains("KMTF 1 {"),
        "the layer's own KMTF under its tag: {text}"
    );
}

#[test]
fn texture_animation() {
    let src = "TVertexAnim {
        Translation 1 {
            Linear,
            0: { 0, 0.5, 0 },
        }
        Rotation 1 {
            Linear,
            GlobalSeqId 2,
            0: { 0, 0, 0, 1 },
        }
    }";
    let t = read_ok::<TextureAnimation>(src, 800);
    let tags: Vec<Tag> = t.tracks.iter().map(|a| a.tag).collect();
    assert_eq!(tags, vec![tk::KTAT, tk::KTAR]);
    round_trip(&t, 800);
    // A static value of a track-only field: a held track, with a warning.
    let (t, diags) = read::<TextureAnimation>("TVertexAnim { Translation { 1, 2, 3 } }", 800);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].severity, crate::mdl::error::Severity::Warning);
    let Some(AnyTrack::Vector3(track)) = t.tracks.iter().next().map(|a| &a.track) else {
        panic!("{t:?}");
    };
    assert_eq!(track.interpolation, Interpolation::None);
    let keys: Vec<_> = track.keys.iter().map(|k| (k.time, k.value)).collect();
    assert_eq!(keys, vec![(0, [1.0, 2.0, 3.0])]);
}

#[test]
fn bitmap() {
    let t = read_ok::<Texture>(
        "Bitmap {\n Image \"Textures\\\\A.blp\",\n WrapWidth,\n WrapHeight,\n}",
        800,
    );
    assert_eq!(
        (t.path.text(), t.flags, t.replaceable_id),
        ("Textures\\\\A.blp".into(), 3, 0)
    );
    round_trip(&t, 800);
    let t = read_ok::<Texture>("Bitmap { Image \"\", ReplaceableId 2 }", 800);
    assert_eq!((t.replaceable_id, t.flags), (2, 0));
    let text = round_trip(&t, 800);
    assert!(
        text.contains("Image \"\",") && text.contains("ReplaceableId 2,"),
        "{text}"
    );
}

#[test]
fn sequence() {
    // zengfanfan__war3mdlx__test__sequence.mdl
    let src = "Anim \"Stand - 1\" {
        Interval { 2, 1000 },
        MoveSpeed 230.66,
        NonLooping,
        Rarity 2,
        BoundsRadius 333.333,
        MinimumExtent { 1.1, 2.2, 3 },
        MaximumExtent { 44, 55, 66.66 },
    }";
    let s = read_ok::<Sequence>(src, 800);
    assert_eq!(s.name.text(), "Stand - 1");
    assert_eq!(
        (s.interval, s.move_speed, s.flags, s.rarity),
        ([2, 1000], 230.66, 1, 2.0)
    );
    assert_eq!(
        s.extent,
        Extent {
            radius: 333.333,
            min: [1.1, 2.2, 3.0],
            max: [44.0, 55.0, 66.66]
        }
    );
    round_trip(&s, 800);
    let empty = read_ok::<Sequence>("Anim \"\" {\n}", 800);
    assert_eq!(empty, Sequence::default());
    let odd = Sequence {
        sync_point: 7,
        interval: [u32::MAX, 0],
        ..Default::default()
    };
    assert!(round_trip(&odd, 800).contains("SyncPoint 7,"));
}
