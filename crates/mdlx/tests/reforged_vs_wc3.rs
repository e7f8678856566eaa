//! Reforged 1200-1800 against an independent implementation: the `wc3` crate (0.2.0, a
//! dev-dependency), which models every version from 1200 to 1800.
//!
//! For each version, `wc3` builds a model whose 1200+ fields all hold distinct values (two
//! lights: shadow intensity, shadow casting, its start and end, the three falloff
//! coefficients, static, animated and both; cameras with the focus distance, focal length
//! and f-stop tracks, one of each layout number `wc3` knows; two gliders). Then:
//! - MDX: we read `wc3`'s bytes into the same values, write them back byte-identical, and
//!   `wc3` reads what we write into a model equal to its own;
//! - MDL, `wc3` to us: we read `wc3`'s MDL; our MDX of it equals `wc3`'s MDX of the model
//!   `wc3` reads from the same text (MDL drops a track's base value in `wc3`, so that model,
//!   not the original, is the reference);
//! - MDL, us to `wc3`: `wc3` reads our MDL (standard MDL only, `strict`) of the model we
//!   read from its MDL into the model it reads from its own MDL;
//! - glTF export names what glTF cannot hold of them as losses.

use mdlx::model::{AnyTrack, Camera, Light, Model};
use wc3::model::animation::{Animatable, Track, ValueKeyframe};
use wc3::model::mdl::{Read as _, Write as _};
use wc3::model::mdx::{Read as _, Write as _};
use wc3::model::scene::{
    Camera as WCamera, CameraVariant, Glider, Light as WLight, LightFalloff, LightShadowRange,
    LightType, ModelInfo, Node,
};
use wc3::model::{Model as WModel, ModelVersion, V1200, V1300, V1400, V1600, V1800};

fn linear(a: f32, b: f32) -> Track<f32> {
    let keys = vec![
        ValueKeyframe { frame: 0, value: a },
        ValueKeyframe {
            frame: 500,
            value: b,
        },
    ];
    Track::linear(keys, None).unwrap()
}

/// A light whose every field holds a value of its own, offset by `k` for the second light.
fn light<V: ModelVersion>(id: u32, k: f32) -> WLight<V> {
    let mut node = Node::new(&format!("Lamp {id}"), id).unwrap();
    node.flags.set_light(true);
    let mut l = WLight::<V>::new(node, LightType::Omnidirectional);
    l.attenuation_start = Animatable::Static(10.0 + k);
    l.attenuation_end = Animatable::Static(300.0 + k);
    // A color that reads the same both ways: wc3 writes MDL colors in MDX order, we
    // reverse them (see `static_colors_are_written_otherwise_by_wc3`).
    l.color = Animatable::Static([0.25, 0.5, 0.25]);
    l.intensity = Animatable::Static(1.5 + k);
    l.ambient_intensity = Animatable::Static(0.125 + k);
    // Each new field is set only where the version has it (`try_` refuses the others).
    let _ = l.try_set_shadow_intensity(0.375 + k);
    let _ = l.try_set_shadow_casting(id == 0);
    let _ = l.try_set_shadow_casting_range(LightShadowRange {
        start: Animatable::Static(5.0 + k),
        end: Animatable::Both {
            value: 55.0 + k,
            track: linear(40.0 + k, 60.0 + k),
        },
    });
    let _ = l.try_set_falloff(LightFalloff {
        quadratic: Animatable::Static(0.0625 + k),
        linear: Animatable::Animated(linear(0.01 + k, 0.02 + k)),
        damping: Animatable::Both {
            value: 0.003 + k,
            track: linear(0.004 + k, 0.005 + k),
        },
    });
    l
}

fn camera<V: ModelVersion>(name: &str, variant: CameraVariant, k: f32) -> WCamera<V> {
    let mut c = WCamera::<V>::new(name).unwrap();
    c.variant = variant;
    c.position = [1.0 + k, 2.0, 3.0];
    c.field_of_view = 0.75;
    c.far_clip = 2000.0 + k;
    c.near_clip = 8.0;
    c.target_position = [4.0, 5.0 + k, 6.0];
    c.focus_distance = Some(linear(100.0 + k, 150.0 + k));
    c.focal_length = Some(Track::constant(35.0 + k));
    c.f_stop = Some(linear(2.8 + k, 4.0 + k));
    c
}

/// The model; `layouts`: with cameras of the other layout numbers (which `wc3` cannot write
/// as MDL).
fn build<V: ModelVersion>(layouts: bool) -> WModel<V> {
    let mut m = WModel::<V>::new();
    m.set_model_info(&ModelInfo::new("Reforged").unwrap());
    m.set_sequences(&[wc3::model::animation::Sequence::new("Stand", [0, 1000]).unwrap()]);
    m.set_lights(&[light::<V>(0, 0.0), light::<V>(1, 1.0)]);
    m.set_pivot_points(&[[0.0; 3], [1.0, 0.0, 0.0]]);
    m.set_gliders(&[Glider { geoset_id: 0 }, Glider { geoset_id: 7 }]);
    let mut bytes = [0u8; 12];
    bytes
        .iter_mut()
        .enumerate()
        .for_each(|(i, b)| *b = i as u8 + 1);
    let mut cameras = vec![camera::<V>("Portrait", V::DEFAULT_VARIANT, 0.0)];
    if layouts {
        cameras.push(camera::<V>("Layout 0", CameraVariant::Variant0, 1.0));
        cameras.push(camera::<V>("Layout 1", CameraVariant::Variant1(bytes), 2.0));
    }
    m.set_cameras(&cameras);
    m
}

fn float_keys(tracks: &mdlx::model::Tracks, tag: &[u8; 4]) -> Vec<(i32, f32)> {
    tracks
        .iter()
        .find(|a| &a.tag.0 == tag)
        .map(|a| match &a.track {
            AnyTrack::Float(t) => t.keys.iter().map(|k| (k.time, k.value)).collect(),
            other => panic!("{tag:?} is not a float track: {other:?}"),
        })
        .unwrap_or_default()
}

/// Our reading of `wc3`'s light `i` holds its values.
fn check_light(version: u32, l: &Light, id: u32) {
    let k = id as f32;
    assert_eq!(l.attenuation_start, 10.0 + k);
    assert_eq!(l.intensity, 1.5 + k);
    assert_eq!(l.color, [0.25, 0.5, 0.25]);
    let keys = |tag| float_keys(&l.tracks, tag);
    if version >= 1200 {
        assert_eq!(l.shadow_intensity, 0.375 + k, "{version}");
    }
    if version >= 1300 {
        assert_eq!(l.shadow_casting, u32::from(id == 0), "{version}");
        assert_eq!((l.shadow_start, l.shadow_end), (5.0 + k, 55.0 + k));
        assert_eq!(keys(b"KLSE"), [(0, 40.0 + k), (500, 60.0 + k)]);
        assert!(keys(b"KLSS").is_empty());
    } else {
        assert_eq!(
            (l.shadow_casting, l.shadow_start, l.shadow_end),
            (0, 0.0, 0.0)
        );
    }
    if version >= 1600 {
        assert_eq!(l.quadratic_falloff, 0.0625 + k);
        assert_eq!(
            l.linear_falloff, 0.0,
            "an animation without a base value stores 0"
        );
        assert_eq!(l.damping, 0.003 + k);
        assert_eq!(keys(b"KLLF"), [(0, 0.01 + k), (500, 0.02 + k)]);
        assert_eq!(keys(b"KLDA"), [(0, 0.004 + k), (500, 0.005 + k)]);
        assert!(keys(b"KLQF").is_empty());
    } else {
        assert_eq!(
            (l.quadratic_falloff, l.linear_falloff, l.damping),
            (
                Light::DEFAULT_QUADRATIC_FALLOFF,
                0.0,
                Light::DEFAULT_DAMPING
            ),
            "{version}: absent from the file, so what the game assumes"
        );
    }
}

fn check_camera(c: &Camera, k: f32, layout: Option<u8>, extra: usize) {
    assert_eq!(c.layout, layout, "{:?}", c.name.text());
    assert_eq!(c.layout_bytes.len(), extra);
    assert_eq!((c.position[0], c.far_clip), (1.0 + k, 2000.0 + k));
    assert_eq!(c.target_position, [4.0, 5.0 + k, 6.0]);
    let keys = |tag| float_keys(&c.tracks, tag);
    assert_eq!(keys(b"IDUF"), [(0, 100.0 + k), (500, 150.0 + k)]);
    assert_eq!(keys(b"ELAF"), [(0, 35.0 + k)]);
    assert_eq!(keys(b"PTSF"), [(0, 2.8 + k), (500, 4.0 + k)]);
}

fn run<V: ModelVersion>() -> [usize; 3] {
    let version = V::NUMBER;
    let theirs = build::<V>(true);
    let bytes = theirs.encode_mdx().unwrap();

    // MDX: the same values, the same bytes, and wc3 reads ours back equal.
    let ours = mdlx::mdx::from_bytes(&bytes).unwrap_or_else(|e| panic!("{version}: {e}"));
    assert_eq!(ours.version, version);
    assert_eq!(ours.lights.len(), 2);
    for (i, l) in ours.lights.iter().enumerate() {
        check_light(version, l, i as u32);
    }
    assert_eq!(ours.cameras.len(), 3);
    check_camera(&ours.cameras[0], 0.0, None, 0);
    let zero = (version >= 1200).then_some(0);
    check_camera(&ours.cameras[1], 1.0, zero, 0);
    check_camera(&ours.cameras[2], 2.0, Some(1), 12);
    assert_eq!(ours.cameras[2].layout_bytes, (1..=12).collect::<Vec<u8>>());
    let gliders: Vec<u32> = ours.gliders.iter().map(|g| g.geoset_id).collect();
    assert_eq!(gliders, [0, 7]);
    let written = mdlx::mdx::to_bytes(&ours).unwrap();
    assert!(written == bytes, "{version}: our MDX differs from wc3's");
    // (Compared with wc3's reading of its own bytes: an animation without a base value
    // reads back with the 0 it writes.)
    let back = WModel::<V>::decode_mdx(&written).unwrap();
    let own = WModel::<V>::decode_mdx(&bytes).unwrap();
    assert_eq!(
        back.lights(),
        own.lights(),
        "{version}: wc3 reads our lights otherwise"
    );
    assert_eq!(
        back.cameras(),
        own.cameras(),
        "{version}: wc3 reads our cameras otherwise"
    );
    assert_eq!(back.gliders(), own.gliders(), "{version}: gliders");

    // glTF has no word for shadows, falloff coefficients or depth of field: each is a loss.
    let gltf = mdlx::convert::gltf::export(&ours, &mdlx::convert::gltf::ExportOptions::default());
    let lost: Vec<String> = gltf.losses.iter().map(|l| l.to_string()).collect();
    let has = |s: &str| lost.iter().any(|l| l.contains(s));
    assert!(
        has("shadow casting and intensity (1200+)"),
        "{version}: {lost:?}"
    );
    assert_eq!(
        has("falloff coefficients (1600+)"),
        version >= 1600,
        "{lost:?}"
    );
    assert!(
        has("Camera[0], Camera[1], Camera[2]: depth of field"),
        "{version}: {lost:?}"
    );

    // MDL, wc3 to us.
    let theirs = build::<V>(false);
    let text = theirs.encode_mdl().unwrap();
    let reference = WModel::<V>::decode_mdl(&text)
        .unwrap()
        .encode_mdx()
        .unwrap();
    let from_text = mdlx::mdl::from_bytes(text.as_bytes())
        .unwrap_or_else(|e| panic!("{version}: we cannot read wc3's MDL: {e}\n{text}"));
    let ours_from_text = mdlx::mdx::to_bytes(&from_text).unwrap();
    if ours_from_text != reference {
        let dir = std::env::temp_dir();
        std::fs::write(dir.join(format!("wc3-mdl-{version}.mdx")), &reference).unwrap();
        std::fs::write(dir.join(format!("ours-mdl-{version}.mdx")), &ours_from_text).unwrap();
    }
    assert!(
        ours_from_text == reference,
        "{version}: our MDX of wc3's MDL differs from wc3's\n{text}"
    );

    // MDL, us to wc3.
    let opts = mdlx::mdl::WriteOptions { strict: true };
    // Of the model as wc3's MDL carries it: where a field is animated, wc3's MDL drops its
    // base value and refuses a `static` line beside the track, which ours keeps when the
    // base is not what an absent line reads as.
    let ours_text = mdlx::mdl::to_bytes_with_options(&from_text, &opts);
    let ours_text = String::from_utf8(ours_text.text).unwrap();
    // wc3 refuses the `NumLights`-style counts of the Model block, which MDL files of every
    // exporter carry (81 corpus MDL files); nothing else is taken out.
    let ours_text: String = ours_text
        .lines()
        .filter(|l| !l.trim_start().starts_with("Num"))
        .map(|l| format!("{l}\n"))
        .collect();
    let read = WModel::<V>::decode_mdl(&ours_text)
        .unwrap_or_else(|e| panic!("{version}: wc3 cannot read our MDL: {e:?}\n{ours_text}"));
    let via_theirs = WModel::<V>::decode_mdl(&text).unwrap();
    assert_eq!(
        read.lights(),
        via_theirs.lights(),
        "{version}: wc3 reads our MDL's lights into others\n{ours_text}"
    );
    assert_eq!(read.gliders(), via_theirs.gliders());
    assert_eq!(read.gliders().len(), 2);
    assert_eq!(read.cameras().len(), 1);
    for (a, b) in read.cameras().iter().zip(via_theirs.cameras()) {
        // MDL has no word for the layout number: both sides read the version's usual one.
        assert_eq!(a, &b, "{version}: camera\n{ours_text}");
    }
    [bytes.len(), text.len(), ours_text.len()]
}

#[test]
fn reforged_1200_to_1800_agree_with_wc3() {
    let sizes = [
        (1200, run::<V1200>()),
        (1300, run::<V1300>()),
        (1400, run::<V1400>()),
        (1600, run::<V1600>()),
        (1800, run::<V1800>()),
    ];
    for (v, [mdx, theirs, ours]) in sizes {
        println!(
            "{v}: MDX {mdx} bytes read, written byte-identical and read back equal by wc3; \
             wc3's MDL ({theirs} bytes) read by us, ours ({ours} bytes) read by wc3"
        );
    }
}

/// The one MDL convention where `wc3` and we part: a static color. MDX stores blue, green,
/// red; we write MDL red first, as mdx-m3-viewer, war3-model and Blizzard's own MDL files do
/// (`../shared/FORMAT-NOTES.md`); `wc3` writes the MDX order. Each reads its own back.
#[test]
fn static_colors_are_written_otherwise_by_wc3() {
    let mut m = WModel::<V1200>::new();
    m.set_model_info(&ModelInfo::new("Color").unwrap());
    let mut l = light::<V1200>(0, 0.0);
    l.color = Animatable::Static([0.25, 0.5, 0.75]);
    m.set_lights(&[l]);
    m.set_pivot_points(&[[0.0; 3]]);
    let theirs = m.encode_mdl().unwrap();
    let ours = mdlx::mdx::from_bytes(&m.encode_mdx().unwrap()).unwrap();
    assert_eq!(ours.lights[0].color, [0.25, 0.5, 0.75], "MDX order");
    let ours = String::from_utf8(mdlx::mdl::to_bytes(&ours)).unwrap();
    assert!(
        theirs.contains("static Color { 0.25, 0.5, 0.75 }"),
        "{theirs}"
    );
    assert!(ours.contains("static Color { 0.75, 0.5, 0.25 }"), "{ours}");
}

mod common;

/// Real models moved to every version 1200-1800 (geosets with two-byte skin values from
/// 1400, HD materials, lights, cameras): `wc3` reads our bytes and writes them back the
/// same, and its MDL of them reads here into the MDX it makes of that MDL.
#[test]
fn corpus_models_at_every_version_agree_with_wc3() {
    let names = [
        // 1000, HD materials and SKIN
        "mdx/Bergi-bear__ARATHIFOREST__map.w3x__war3mapImported__Humanprop_door2.mdx",
        // 1100, slots, SKIN
        "mdx/Bergi-bear__OrcWinter__map.w3x__footswitchWhite.mdx",
        // 800, a camera
        "mdx/AMISD666__War3ModelView__public__test_model.mdx",
    ];
    let mut checked = 0;
    for name in names {
        let data = std::fs::read(common::corpus_dir().join(name)).unwrap();
        let model = mdlx::mdx::from_bytes(&data).unwrap();
        fn at<V: ModelVersion>(model: &Model, name: &str) {
            let (m, losses) = model.to_version(V::NUMBER).unwrap();
            assert!(losses.is_empty(), "{name}: {losses:?}");
            let ours = mdlx::mdx::to_bytes(&m).unwrap();
            let theirs = WModel::<V>::decode_mdx(&ours)
                .unwrap_or_else(|e| panic!("{name} at {}: wc3: {e:?}", V::NUMBER));
            assert!(
                theirs.encode_mdx().unwrap() == ours,
                "{name} at {}: wc3 writes our bytes otherwise",
                V::NUMBER
            );
            let skins: Vec<bool> = m
                .geosets
                .iter()
                .filter(|g| g.skin.is_some())
                .map(|g| g.skin_wide)
                .collect();
            assert!(skins.iter().all(|&w| w == (V::NUMBER >= 1400)), "{name}");
            if let Ok(text) = theirs.encode_mdl() {
                // Chunk order aside (from MDL, wc3 writes TEXS before MTLS, we write the
                // conventional order), and static colors (see
                // `static_colors_are_written_otherwise_by_wc3`).
                let reference = WModel::<V>::decode_mdl(&text)
                    .unwrap()
                    .encode_mdx()
                    .unwrap();
                let mut reference = mdlx::mdx::from_bytes(&reference).unwrap();
                reference.layout = Default::default();
                let read = mdlx::mdl::from_bytes(text.as_bytes()).unwrap();
                let mut read = read;
                reverse_static_colors(&mut read);
                assert!(
                    mdlx::mdx::to_bytes(&read).unwrap() == mdlx::mdx::to_bytes(&reference).unwrap(),
                    "{name} at {}: wc3's MDL reads otherwise here",
                    V::NUMBER
                );
            }
        }
        at::<V1200>(&model, name);
        at::<V1300>(&model, name);
        at::<V1400>(&model, name);
        at::<V1600>(&model, name);
        at::<V1800>(&model, name);
        checked += 1;
    }
    println!("{checked} corpus models at 1200, 1300, 1400, 1600 and 1800 agree with wc3");
}

/// Reverses every static color that our MDL writes red first (lights, geoset animations,
/// ribbons, popcorn, PRE2 segments, layer Fresnel): what we read from `wc3`'s MDL, which
/// writes them in MDX order, then holds `wc3`'s values.
fn reverse_static_colors(m: &mut Model) {
    for l in &mut m.lights {
        l.color.reverse();
        l.ambient_color.reverse();
    }
    m.geoset_animations
        .iter_mut()
        .for_each(|g| g.color.reverse());
    m.ribbon_emitters.iter_mut().for_each(|r| r.color.reverse());
    m.popcorn_emitters
        .iter_mut()
        .for_each(|p| p.color.reverse());
    for p in &mut m.particle_emitters2 {
        p.segment_colors.iter_mut().for_each(|c| c.reverse());
    }
    for l in m.materials.iter_mut().flat_map(|m| &mut m.layers) {
        l.fresnel_color.reverse();
    }
}
