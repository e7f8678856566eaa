//! The WoW alpha family of MDX (1300/1400/1500): the real boar file (1300) and hand-built
//! 1400 and 1500 files (`alpha/fixtures.rs`) that exercise every chunk of the wowdev page
//! (seed 004); conversion to and from the Warcraft III model; family detection; hostile
//! input.
//!
//! Independent readings the codec is checked against:
//! - `walk`, a minimal chunk walker written from the page (tags, sizes, counts), and the
//!   numbers printed by GrenderG/MDX-Parser's own reader (C#, the repository the boar comes
//!   from), transcribed and run under mono for the boar's chunks: both in
//!   `alpha/independent.rs`;
//! - the page's packing formula (`C4QuaternionCompressed::Set`) worked by hand.

mod common;
#[path = "alpha/fixtures.rs"]
mod fixtures;
#[path = "alpha/independent.rs"]
mod independent;

use fixtures::{hand_built, reforged_header, HALF_X, OBJECTS, Y_Z};
use independent::{grender, walk};

use std::panic::{catch_unwind, AssertUnwindSafe};

use mdlx::alpha::{self, AlphaModel, AlphaTrack, Chunk, HitShape, PackedQuaternion};
use mdlx::mdx::{self, MdxErrorKind};
use mdlx::model::{Shape, Tag};

fn boar_bytes() -> Vec<u8> {
    let p = common::corpus_dir().join("mdx/GrenderG__MDX-Parser__MDXParser__Files__Boar.mdx");
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn lef(d: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(d[at..at + 4].try_into().unwrap())
}

fn keys_of(tracks: &alpha::AlphaTracks, tag: &[u8; 4]) -> usize {
    match tracks.get(Tag(*tag)) {
        Some(AlphaTrack::Float(t)) => t.keys.len(),
        Some(AlphaTrack::Vector3(t)) => t.keys.len(),
        Some(AlphaTrack::Quaternion(t)) => t.keys.len(),
        Some(AlphaTrack::Integer(t)) => t.keys.len(),
        Some(AlphaTrack::Event(t)) => t.keys.len(),
        None => 0,
    }
}

#[test]
fn boar_decodes_and_encodes_byte_identical() {
    let data = boar_bytes();
    let m = alpha::from_bytes(&data).unwrap();
    assert_eq!(m.version, 1300);
    assert_eq!(alpha::to_bytes(&m).unwrap(), data, "boar round trip");

    println!("boar: version {}, {} bytes", m.version, data.len());
    for (name, n) in m.counts() {
        if n > 0 {
            println!("  {name}: {n}");
        }
    }
    for (i, g) in m.geosets().enumerate() {
        println!(
            "  geoset {i}: {} vertices, {} face indices, material {}",
            g.vertices.len(),
            g.indices.len(),
            g.material_id
        );
    }
    for s in m.sequences() {
        println!("  sequence {:?} {:?}", s.name.text(), s.interval);
    }
    for t in m.textures() {
        println!(
            "  texture replaceable id {} path {:?}",
            t.replaceable_id,
            t.path.text()
        );
    }
}

#[test]
fn boar_counts_agree_with_the_walker_and_grenderg() {
    let data = boar_bytes();
    let m = alpha::from_bytes(&data).unwrap();
    let w = walk(&data);

    // Chunk order and tags.
    let tags: Vec<String> = m.chunks.iter().map(|c| c.tag().text()).collect();
    assert_eq!(tags, w.tags);
    let walked = |t: &str| {
        w.counts
            .iter()
            .find(|(x, _)| x == t)
            .map(|c| c.1 as usize)
            .unwrap()
    };

    // Codec against the walker.
    assert_eq!(m.sequences().count(), walked("SEQS"));
    assert_eq!(m.materials().count(), walked("MTLS"));
    assert_eq!(m.textures().count(), walked("TEXS"));
    assert_eq!(m.geosets().count(), walked("GEOS"));
    assert_eq!(m.bones().count(), walked("BONE"));
    assert_eq!(m.helpers().count(), walked("HELP"));
    assert_eq!(m.attachments().count(), walked("ATCH"));
    assert_eq!(m.pivots().count(), walked("PIVT"));
    assert_eq!(m.cameras().count(), walked("CAMS"));
    assert_eq!(m.events().count(), walked("EVTS"));
    assert_eq!(m.hit_test_shapes().count(), walked("HTST"));
    let verts: Vec<u32> = m.geosets().map(|g| g.vertices.len() as u32).collect();
    assert_eq!(verts, w.vertices_per_geoset);
    let seqs: Vec<(String, u32, u32)> = m
        .sequences()
        .map(|s| (s.name.text().to_string(), s.interval[0], s.interval[1]))
        .collect();
    assert_eq!(seqs, w.sequences);
    // One pivot per object.
    assert_eq!(m.pivots().count(), m.objects().count());

    // Codec against GrenderG's reader.
    let seqs: Vec<(String, u32, u32, bool)> = m
        .sequences()
        .map(|s| {
            (
                s.name.text().to_string(),
                s.interval[0],
                s.interval[1],
                !s.is_looping(),
            )
        })
        .collect();
    let want: Vec<(String, u32, u32, bool)> = grender::SEQUENCES
        .iter()
        .map(|&(n, a, b, l)| (n.to_string(), a, b, l))
        .collect();
    assert_eq!(seqs, want);
    for (g, want) in m.geosets().zip(grender::GEOSETS) {
        let got = [
            g.vertices.len(),
            g.uv_sets.iter().map(Vec::len).sum(),
            g.indices.len(),
            g.matrix_group_sizes.len(),
            g.matrix_indices.len(),
            g.bone_indices.len(),
            g.material_id as usize,
            g.sequence_bounds.len(),
        ];
        assert_eq!(got.map(|x| x as u32), *want);
    }
    assert_eq!(m.geosets().count(), grender::GEOSETS.len());
    assert_eq!(m.info().unwrap().info.blend_time, grender::BLEND_TIME);
    assert_eq!(m.materials().count(), grender::MATERIALS);
    assert_eq!(
        m.materials().map(|x| x.layers.len()).sum::<usize>(),
        grender::LAYERS
    );
    assert_eq!(m.textures().count(), grender::TEXTURES);
    assert_eq!(
        m.textures().next().unwrap().replaceable_id,
        grender::REPLACEABLE_ID
    );
    assert_eq!(m.bones().count(), grender::BONES);
    let rot: usize = m.bones().map(|b| keys_of(&b.object.tracks, b"KGRT")).sum();
    let trans: usize = m.bones().map(|b| keys_of(&b.object.tracks, b"KGTR")).sum();
    assert_eq!(
        (rot, trans),
        (grender::BONE_ROTATION_KEYS, grender::BONE_TRANSLATION_KEYS)
    );
    assert_eq!(m.helpers().count(), grender::HELPERS);
    let ids: Vec<u32> = m.attachments().map(|a| a.attachment_id).collect();
    assert_eq!(ids, grender::ATTACHMENT_IDS);
    let unused = m.chunks.iter().find_map(|c| match c {
        Chunk::Attachments { unused, .. } => Some(*unused),
        _ => None,
    });
    assert_eq!(unused, Some(grender::ATCH_UNUSED));
    assert_eq!(m.pivots().count(), grender::PIVOTS);
    assert_eq!(m.events().count(), grender::EVENTS);
    let with_kevt = m.events().filter(|e| !e.tracks.is_empty()).count();
    let event_keys: usize = m.events().map(|e| keys_of(&e.tracks, b"KEVT")).sum();
    assert_eq!(
        (with_kevt, event_keys),
        (grender::EVENTS_WITH_KEVT, grender::EVENT_KEYS)
    );
    let c = m.collisions().next().unwrap();
    assert_eq!(
        [c.vertices.len(), c.triangles.len(), c.facet_normals.len()],
        grender::COLLISION
    );
    assert!(matches!(
        m.hit_test_shapes().next().unwrap().shape,
        HitShape::Box { .. }
    ));
}

/// Page "CMdlBounds" says box then radius; the boar stores radius first. Read straight
/// from the bytes at the offsets the page's layout gives, all 33 bounds have ordered
/// corners only when read radius first.
#[test]
fn boar_bounds_are_radius_first_not_as_the_page_says() {
    let data = boar_bytes();
    let m = alpha::from_bytes(&data).unwrap();
    let mut extents = vec![m.info().unwrap().info.extent];
    extents.extend(m.sequences().map(|s| s.bounds));
    for g in m.geosets() {
        extents.push(g.bounds);
        extents.extend(g.sequence_bounds.iter().copied());
    }
    assert_eq!(extents.len(), 33);
    let ordered = |lo: [f32; 3], hi: [f32; 3]| (0..3).all(|i| lo[i] <= hi[i]);
    assert!(extents
        .iter()
        .all(|e| ordered(e.min, e.max) && e.radius >= 0.0));
    // The same 28 bytes read the page's way: box (6 floats), then radius.
    let as_page = |e: &mdlx::model::Extent| {
        let f = [
            e.radius, e.min[0], e.min[1], e.min[2], e.max[0], e.max[1], e.max[2],
        ];
        ordered([f[0], f[1], f[2]], [f[3], f[4], f[5]])
    };
    assert_eq!(extents.iter().filter(|e| as_page(e)).count(), 0);
    // The MODL bytes themselves: 80 + 260 bytes in, radius 0.0 then -2.607...
    let modl = 16 + 8 + 340;
    assert_eq!(lef(&data, modl), 0.0);
    assert!(lef(&data, modl + 4) < lef(&data, modl + 16));
}

/// Page "C4QuaternionCompressed": `Get` reads z unsigned; the boar needs it signed.
#[test]
fn boar_rotations_need_a_signed_z() {
    let data = boar_bytes();
    let m = alpha::from_bytes(&data).unwrap();
    let mut keys = Vec::new();
    for o in m.objects() {
        if let Some(AlphaTrack::Quaternion(t)) = o.tracks.get(Tag(*b"KGRT")) {
            keys.extend(t.keys.iter().map(|k| k.value));
        }
    }
    assert_eq!(keys.len(), 8478, "KGRT keys of bones and helpers");
    let page_z = |p: PackedQuaternion| (p.0 & 0x1F_FFFF) as f64 * 0.000_000_953_674_32;
    let mut sign_bit = 0;
    for p in &keys {
        let [x, y, z, w] = p.unpack();
        let len = (x * x + y * y + z * z) as f64;
        assert!(len <= 1.0 + 1e-6, "{p:?} unpacks to length {len}");
        assert!(w >= 0.0);
        // The bits survive an unpack and pack.
        assert_eq!(PackedQuaternion::pack([x, y, z, w]), *p);
        if p.0 & 0x10_0000 != 0 {
            sign_bit += 1;
            let (x, y) = (x as f64, y as f64);
            assert!(
                x * x + y * y + page_z(*p).powi(2) > 1.0,
                "page's unsigned z"
            );
        }
    }
    assert_eq!(sign_bit, 3861);
}

#[test]
fn page_packing_formula_worked_by_hand() {
    // Set((0.5, 0, 0, w)): x = 0.5 * 2^21 = 2^20, stored at bit 42: 2^62.
    let q = PackedQuaternion(1 << 62).unpack();
    assert_eq!(&q[..3], &[0.5, 0.0, 0.0]);
    assert!((q[3] - 0.75f32.sqrt()).abs() < 1e-6);
    assert_eq!(PackedQuaternion::pack(q), PackedQuaternion(1 << 62));
    // Set((0, -0.25, 0.125, w)): y = -262144 & 0x1FFFFF = 0x1C0000, z = 0x20000.
    let bits = (0x1C_0000u64 << 21) | 0x2_0000;
    let q = PackedQuaternion(bits).unpack();
    assert_eq!(&q[..3], &[0.0, -0.25, 0.125]);
    // Set((0, 0, -0.5, w)): z = -524288 & 0x1FFFFF = 0x180000; the page's Get would say 1.5.
    assert_eq!(PackedQuaternion(0x18_0000).unpack()[2], -0.5);
    // A negative w flips the whole quaternion (same rotation).
    assert_eq!(
        PackedQuaternion::pack([0.5, 0.0, 0.0, -0.75f32.sqrt()]),
        PackedQuaternion::pack([-0.5, 0.0, 0.0, 0.75f32.sqrt()])
    );
}

/// The record lists in which two models differ (the chunk layout a decoded model
/// remembers is not compared).
fn differing(read: &mdlx::Model, built: &mdlx::Model) -> Vec<&'static str> {
    let mut out = Vec::new();
    macro_rules! compare {
        ($($field:ident),*) => {
            $(if read.$field != built.$field {
                out.push(stringify!($field));
            })*
        };
    }
    compare!(
        version,
        info,
        sequences,
        global_sequences,
        textures,
        materials,
        texture_animations,
        geosets,
        geoset_animations,
        bones,
        lights,
        helpers,
        attachments,
        pivot_points,
        particle_emitters,
        particle_emitters2,
        popcorn_emitters,
        ribbon_emitters,
        cameras,
        event_objects,
        collision_shapes,
        face_effects,
        bind_poses,
        unknown_chunks
    );
    out
}

#[test]
fn boar_converts_to_a_valid_v800_model() {
    let data = boar_bytes();
    let m = alpha::from_bytes(&data).unwrap();
    let (wc, losses) = m.to_model();
    let bytes = mdx::to_bytes(&wc).unwrap();
    let back = mdx::from_bytes(&bytes).unwrap();
    assert_eq!(back.version, 800);
    assert_eq!(
        differing(&back, &wc),
        [] as [&str; 0],
        "the v800 codec keeps the conversion"
    );
    assert_eq!(back.sequences.len(), 10);
    assert_eq!(back.geosets.len(), 2);
    assert_eq!(back.geosets[1].vertices.len(), 309);
    assert_eq!(back.bones.len(), 26);
    assert_eq!(back.helpers.len(), 4);
    assert_eq!(back.attachments.len(), 9);
    assert_eq!(back.event_objects.len(), 17);
    assert_eq!(back.collision_shapes.len(), 1, "the hit-test box");
    assert_eq!(back.pivot_points.len(), back.node_count());
    // Every node keeps its object id, and the ids are 0..57 once each.
    let mut ids: Vec<u32> = back.nodes().map(|n| n.object_id).collect();
    ids.sort_unstable();
    assert_eq!(ids, (0..57).collect::<Vec<_>>());
    // Rotations are unpacked: bone 0's first key is the first boar key, unpacked.
    let alpha_key = match m.bones().next().unwrap().object.tracks.get(Tag(*b"KGRT")) {
        Some(AlphaTrack::Quaternion(t)) => t.keys[0].value.unpack(),
        other => panic!("{other:?}"),
    };
    let wc_key = back.bones[0]
        .node
        .tracks
        .quaternion(Tag(*b"KGRT"))
        .unwrap()
        .keys[0]
        .value;
    assert_eq!(wc_key, alpha_key);
    println!("losses converting the boar:");
    for l in &losses {
        println!("  {l}");
    }
    let has = |needle: &str| losses.iter().any(|l| l.to_string().contains(needle));
    assert!(has(
        "CLID: collision mesh (8 vertices, 36 triangle indices)"
    ));
    assert!(has("Sequence[1] \"Stand - Var1\": frequency 0.842"));
    assert!(has("Geoset[0]: BIDX/BWGT"));
}

/// The chunk tags a fixture holds, in order.
fn fixture_tags(version: u32) -> Vec<&'static str> {
    let mut v = vec![
        "VERS", "MODL", "SEQS", "GLBS", "MTLS", "TEXS", "TXAN", "GEOS", "GEOA", "BONE", "LITE",
        "HELP", "ZZZZ", "ATCH", "PIVT", "PREM", "CAMS", "EVTS", "PRE2", "HTST", "RIBB", "CLID",
    ];
    if version >= 1500 {
        v.retain(|t| *t != "ZZZZ");
    }
    v
}

fn decode_fixture(version: u32) -> (Vec<u8>, AlphaModel) {
    let file = hand_built(version);
    assert!(
        alpha::is_alpha(&file),
        "a hand-built {version} file is alpha"
    );
    let m = alpha::from_bytes(&file).unwrap_or_else(|e| panic!("{version}: {e}"));
    assert_eq!(alpha::to_bytes(&m).unwrap(), file, "{version} round trip");
    let tags: Vec<String> = m.chunks.iter().map(|c| c.tag().text()).collect();
    assert_eq!(tags, fixture_tags(version));
    let unknown = m
        .chunks
        .iter()
        .filter(|c| matches!(c, Chunk::Unknown(_)))
        .count();
    assert_eq!(unknown, usize::from(version < 1500), "only ZZZZ is unknown");
    (file, m)
}

/// Values that both fixtures share, read back from the decoded document.
fn check_common(m: &AlphaModel) {
    assert_eq!(m.info().unwrap().info.name.text(), "Fixture");
    assert_eq!(m.info().unwrap().info.blend_time, 150);
    let seqs: Vec<_> = m.sequences().collect();
    assert_eq!(seqs[1].interval, [2000, 3000]);
    assert_eq!((seqs[1].replay, seqs[1].blend_time), ([1, 3], 150));
    assert_eq!(
        m.global_sequences().copied().collect::<Vec<_>>(),
        [1000, 2500]
    );
    let layers = &m.materials().next().unwrap().layers;
    let Some(AlphaTrack::Integer(flip)) = layers[0].tracks.get(Tag(*b"KMTF")) else {
        panic!("KMTF is a simple integer track");
    };
    assert_eq!(
        flip.keys
            .iter()
            .map(|k| (k.time, k.value))
            .collect::<Vec<_>>(),
        [(0, 0), (500, 1)]
    );
    assert_eq!(layers[1].tail, [0xAB, 0xCD]);
    assert_eq!((layers[1].transform_id, layers[1].coord_id), (-1, -1));
    assert_eq!(m.textures().count(), 2);
    let ga = m.geoset_animations().next().unwrap();
    assert_eq!((ga.geoset_id, ga.alpha, ga.flags), (0, 0.75, 1));
    let root = &m.bones().next().unwrap().object;
    let Some(AlphaTrack::Quaternion(rot)) = root.tracks.get(Tag(*b"KGRT")) else {
        panic!("KGRT is packed");
    };
    assert_eq!(
        (rot.keys[0].value, rot.keys[0].in_tan),
        (PackedQuaternion(HALF_X), PackedQuaternion(Y_Z))
    );
    assert_eq!(rot.keys[1].out_tan, PackedQuaternion(HALF_X));
    assert_eq!(m.lights().next().unwrap().tracks.len(), 7);
    assert_eq!(m.attachments().next().unwrap().padding, 0xFF);
    assert_eq!(m.pivots().count(), OBJECTS as usize);
    assert_eq!(m.objects().count(), OBJECTS as usize);
    let p = m.particle_emitters().next().unwrap();
    assert_eq!(
        (p.path.text().as_ref(), p.tracks.len()),
        ("Spells\\Smoke.mdx", 7)
    );
    let cam = m.cameras().next().unwrap();
    assert_eq!(cam.tracks.len(), 4);
    let Some(AlphaTrack::Event(ev)) = m.events().next().unwrap().tracks.get(Tag(*b"KEVT")) else {
        panic!("KEVT");
    };
    assert_eq!(ev.keys, [2100, 2900]);
    let e2 = m.particle_emitters2().next().unwrap();
    assert_eq!((e2.emitter_size, e2.emitter_type, e2.squirts), (819, 3, 1));
    assert_eq!((e2.rows, e2.columns, e2.particle_type), (2, 4, 2));
    assert_eq!(e2.alphas, [255, 128, 0]);
    assert_eq!(e2.uv_animations[3], [9, 10, 11]);
    assert_eq!(e2.geometry_model.text(), "Spells\\Spark.mdx");
    assert_eq!((e2.twinkle, e2.ivel_scale), ([10.0, 1.0, 0.5, 1.5], 0.9));
    assert_eq!((e2.drag, e2.spin, e2.wind_time), (0.1, 0.2, 0.5));
    assert_eq!(e2.splines, [[0.0; 3], [1.0; 3]]);
    assert_eq!(e2.tracks.len(), 11);
    let shapes: Vec<&HitShape> = m.hit_test_shapes().map(|h| &h.shape).collect();
    assert!(matches!(
        shapes[0],
        HitShape::Box {
            maximum: [1.0, 1.0, 2.0],
            ..
        }
    ));
    assert!(matches!(
        shapes[1],
        HitShape::Cylinder {
            height: 2.0,
            radius: 0.5,
            ..
        }
    ));
    assert!(matches!(shapes[2], HitShape::Sphere { radius: 0.75, .. }));
    assert!(matches!(
        shapes[3],
        HitShape::Plane {
            length: 4.0,
            width: 2.0
        }
    ));
    let r = m.ribbon_emitters().next().unwrap();
    assert_eq!(
        (r.emitter_size, r.edges_per_second, r.tracks.len()),
        (56, 30, 6)
    );
    assert!(matches!(
        r.tracks.get(Tag(*b"KRTX")),
        Some(AlphaTrack::Integer(_))
    ));
    let c = m.collisions().next().unwrap();
    assert_eq!(
        (c.vertices.len(), c.triangles.len(), c.facet_normals.len()),
        (4, 6, 2)
    );
}

/// Converts, writes as v800 MDX, reads back, and checks the shared meaning.
fn check_conversion(m: &AlphaModel) -> (mdlx::Model, Vec<mdlx::Loss>) {
    let (wc, losses) = m.to_model();
    let bytes = mdx::to_bytes(&wc).unwrap();
    let back = mdx::from_bytes(&bytes).unwrap();
    assert_eq!(
        differing(&back, &wc),
        [] as [&str; 0],
        "the v800 codec keeps the conversion"
    );
    assert_eq!(back.version, 800);
    assert_eq!(back.node_count(), OBJECTS as usize);
    assert_eq!(back.pivot_points.len(), OBJECTS as usize);
    // KVIS becomes each record's own visibility track.
    assert!(back.lights[0].tracks.float(Tag(*b"KLAV")).is_some());
    assert_eq!(back.lights[0].tracks.len(), 7);
    assert!(back.attachments[0].tracks.float(Tag(*b"KATV")).is_some());
    assert!(back.particle_emitters[0]
        .tracks
        .float(Tag(*b"KPEV"))
        .is_some());
    assert!(back.particle_emitters2[0]
        .tracks
        .float(Tag(*b"KP2V"))
        .is_some());
    assert_eq!(back.particle_emitters2[0].tracks.len(), 8);
    assert!(back.ribbon_emitters[0]
        .tracks
        .float(Tag(*b"KRVS"))
        .is_some());
    assert!(back.ribbon_emitters[0]
        .tracks
        .integer(Tag(*b"KRTX"))
        .is_some());
    assert_eq!(back.cameras[0].tracks.len(), 3);
    // Packed rotations are unpacked, tangents too.
    let rot = back.bones[0].node.tracks.quaternion(Tag(*b"KGRT")).unwrap();
    assert_eq!(&rot.keys[0].value[..3], &[0.5, 0.0, 0.0]);
    assert_eq!(&rot.keys[0].in_tan[..3], &[0.0, -0.25, 0.125]);
    let tex = back.texture_animations[0]
        .tracks
        .quaternion(Tag(*b"KTAR"))
        .unwrap();
    assert_eq!(tex.keys[0].value[0], 0.5);
    // Flags: kinds the Warcraft III way, particle bits mapped.
    assert_eq!(back.bones[1].node.flags, 0x100 | 0x8);
    assert_eq!(
        back.particle_emitters[0].node.flags,
        0x1000 | 0x1_0000,
        "uses TGA"
    );
    assert_eq!(
        back.particle_emitters2[0].node.flags,
        0x1000 | 0x8000 | 0x10_0000
    );
    assert_eq!(
        back.event_objects[0].track.as_ref().unwrap().times,
        [2100, 2900]
    );
    assert_eq!(back.geoset_animations[0].flags, 0x2, "uses color");
    let shapes: Vec<&Shape> = back.collision_shapes.iter().map(|s| &s.shape).collect();
    assert_eq!(shapes.len(), 4);
    assert!(matches!(shapes[1], Shape::Cylinder(v, 0.5) if v[1] == [0.0, 0.0, 2.0]));
    assert_eq!(
        back.materials[0].layers[1].flags, 0x1,
        "wrap width is not a v800 layer flag"
    );
    let has = |needle: &str| losses.iter().any(|l| l.to_string().contains(needle));
    assert!(has("ParticleEmitter2[0] \"Sparks\": track KPLN"));
    assert!(has("track KLIF"));
    assert!(has("track KP2Z"));
    assert!(has("node flag bits 0x4000"));
    assert!(has("Camera[0] \"Portrait\": track KVIS"));
    assert!(has("Material[0] > Layer[1]: 2 unparsed bytes"));
    assert!(has("Material[0] > Layer[1]: flag bits 0x4"));
    assert!(has("HitTestShape[1] \"Cylinder\": cylinder axis"));
    assert!(has("CLID: collision mesh"));
    assert!(has("emitter type 3"));
    (back, losses)
}

#[test]
fn hand_built_1400_round_trips_and_converts() {
    let (file, m) = decode_fixture(1400);
    check_common(&m);
    assert_eq!(m.trailing, [1, 2, 3]);
    let g = m.geosets().next().unwrap();
    assert_eq!(
        g.uv_sets,
        [vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]]
    );
    assert_eq!(
        (g.primitive_types.as_slice(), g.indices.len()),
        (&[4u8][..], 6)
    );
    assert_eq!(g.bone_weights[2], [0x80, 0x7F, 0, 0]);
    assert_eq!(g.sequence_bounds.len(), 2);
    let (wc, losses) = check_conversion(&m);
    assert_eq!(wc.geosets[0].matrix_group_sizes, [1, 2]);
    assert_eq!(wc.geosets[0].selection_flags, 4, "unselectable");
    assert!(losses.iter().any(|l| l.place == "ZZZZ"));
    assert!(losses.iter().any(|l| l.place == "end of file"));
    println!("{} bytes; {} losses converting:", file.len(), losses.len());
    for l in &losses {
        println!("  {l}");
    }
}

#[test]
fn hand_built_1500_round_trips_and_converts() {
    let (file, m) = decode_fixture(1500);
    check_common(&m);
    let g: Vec<_> = m.batched_geosets().collect();
    assert_eq!(g.len(), 2);
    assert_eq!(
        (g[0].vertices.len(), g[0].indices.len(), g[0].padding.len()),
        (4, 6, 2)
    );
    assert_eq!(g[1].padding, [0, 0, 9, 0, 0], "padding kept as found");
    assert_eq!(g[0].vertices[2].bone_weights, [128, 127, 0, 0]);
    assert_eq!((g[1].geoset_index, g[1].max_vertex), (1, 2));
    let (wc, losses) = check_conversion(&m);
    // One matrix group per distinct set of weighted bones: {0}, {1}, {0, 1}; the vertex
    // with no weight keeps its first index (bone 1).
    let a = &wc.geosets[0];
    assert_eq!(a.vertex_groups, [0, 1, 2, 1]);
    assert_eq!(a.matrix_group_sizes, [1, 1, 2]);
    assert_eq!(a.matrix_indices, [0, 1, 0, 1]);
    assert_eq!((a.faces.len(), a.face_types.as_slice()), (6, &[4u32][..]));
    assert_eq!(a.extent.min, [-0.25, -0.25, -0.75]);
    assert_eq!(wc.geosets[1].uv_sets.len(), 2, "the second UV pair is used");
    assert_eq!(wc.geosets[0].uv_sets.len(), 1);
    assert!(losses
        .iter()
        .any(|l| l.to_string()
            == "Geoset[0]: bone weights (matrix groups weigh their bones equally)"));
    assert!(!losses.iter().any(|l| l.place == "Geoset[1]"));
    println!("{} bytes; {} losses converting", file.len(), losses.len());
}

#[test]
fn geoset_layout_must_match_the_version() {
    let (_, mut m) = decode_fixture(1400);
    m.version = 1500;
    let e = alpha::to_bytes(&m).unwrap_err();
    assert!(matches!(e.kind, MdxErrorKind::Unwritable(_)), "{e}");
    assert_eq!(e.path, ["GEOS"]);
}

// ---------------------------------------------------------------------------------------
// Family detection.

/// A Warcraft III-shaped file that claims an alpha version number.
fn reforged_shaped(version: u32) -> Vec<u8> {
    reforged_header(version).0
}

#[test]
fn family_detection() {
    let boar = boar_bytes();
    assert!(alpha::is_alpha(&boar));
    let e = mdx::from_bytes(&boar).unwrap_err();
    assert_eq!(e.kind, MdxErrorKind::AlphaFamily { version: 1300 });

    for version in [1300, 1400] {
        let f = reforged_shaped(version);
        assert_eq!(f.len(), 4 + 12 + 380 + 8 + 264);
        assert!(!alpha::is_alpha(&f), "{version}: Warcraft III shapes");
        let m = mdx::from_bytes(&f).unwrap();
        assert_eq!((m.version, m.sequences.len()), (version, 2));
        let e = alpha::from_bytes(&f).unwrap_err();
        assert!(matches!(e.kind, MdxErrorKind::UnknownLayout { value, .. } if value == version));
        assert_eq!(e.offset, 0);
    }
    assert!(alpha::is_alpha(&hand_built(1400)));
    assert!(alpha::is_alpha(&hand_built(1500)));

    // Every other corpus MDX, Reforged 1000/1100 included, is not alpha.
    let mut reforged = 0;
    for row in common::manifest().iter().filter(|r| r.format == "mdx") {
        let data = std::fs::read(common::corpus_dir().join(&row.local_path)).unwrap();
        let is_boar = row.local_path.ends_with("Boar.mdx");
        assert_eq!(alpha::is_alpha(&data), is_boar, "{}", row.local_path);
        if !is_boar {
            assert!(alpha::from_bytes(&data).is_err(), "{}", row.local_path);
        }
        reforged += usize::from(matches!(row.version, 1000 | 1100));
    }
    assert_eq!(
        reforged, 72,
        "36 files of 1000 and 36 of 1100 in the corpus"
    );
}

// ---------------------------------------------------------------------------------------
// Hostile input.

/// Decodes without panicking. A decoded file must write back to exactly its bytes; an
/// error must point inside the input.
fn decode_hostile(data: &[u8], what: &str) -> bool {
    let r = catch_unwind(AssertUnwindSafe(|| alpha::from_bytes(data)));
    match r.unwrap_or_else(|_| panic!("{what}: panicked")) {
        Ok(m) => {
            let again = catch_unwind(AssertUnwindSafe(|| alpha::to_bytes(&m)))
                .unwrap_or_else(|_| panic!("{what}: encoding panicked"));
            assert_eq!(
                again.unwrap(),
                data,
                "{what}: decoded, so it must re-encode"
            );
            let conv = catch_unwind(AssertUnwindSafe(|| m.to_model()));
            assert!(conv.is_ok(), "{what}: conversion panicked");
            true
        }
        Err(e) => {
            assert!(e.offset as usize <= data.len(), "{what}: {e}");
            false
        }
    }
}

#[test]
fn truncated_boar_never_panics() {
    let data = boar_bytes();
    let (mut ok, mut err) = (0, 0);
    for cut in (0..data.len()).step_by(97) {
        if decode_hostile(&data[..cut], &format!("cut at {cut}")) {
            ok += 1;
        } else {
            err += 1;
        }
    }
    println!(
        "{} truncations: {ok} decoded (cut at a chunk boundary), {err} refused",
        ok + err
    );
    assert!(err > 1000);
}

/// A small deterministic generator (64-bit LCG), so failures are reproducible.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

#[test]
fn byte_flips_never_panic() {
    let mut rng = Lcg(0x00A1_FA00);
    let inputs = [boar_bytes(), hand_built(1400), hand_built(1500)];
    let (mut ok, mut err) = (0, 0);
    for (n, input) in inputs.iter().enumerate() {
        for round in 0..150 {
            let mut d = input.clone();
            for _ in 0..1 + rng.next() % 4 {
                let at = rng.next() as usize % d.len();
                d[at] ^= 1 << (rng.next() % 8);
            }
            if decode_hostile(&d, &format!("input {n} round {round}")) {
                ok += 1;
            } else {
                err += 1;
            }
        }
    }
    println!("450 flipped inputs: {ok} decoded and re-encoded exactly, {err} refused");
    assert_eq!(ok + err, 450);
}

#[test]
fn huge_counts_are_refused_before_allocating() {
    // The boar's BONE count (offset 23340 + 8) set to 0x7FFFFFFF: the chunk then frames
    // neither as alpha bones nor as Warcraft III ones, so family detection refuses the file
    // (naming the chunk) before any reader counts anything.
    let mut d = boar_bytes();
    d[23348..23352].copy_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
    let e = alpha::from_bytes(&d).unwrap_err();
    assert!(
        matches!(&e.kind, MdxErrorKind::FamilyUnclear { version: 1300, reason }
            if reason.starts_with("BONE at 0x5b2c fits neither family")
                && reason.contains("count (2147483647)")),
        "{e}"
    );
    assert_eq!(e.offset, 23340);
    assert_eq!(mdx::from_bytes(&d).unwrap_err(), e);
    assert!(!alpha::is_alpha(&d));
    // A 1300 geoset's UVAS set count, with its VRTX count kept.
    let mut d = boar_bytes();
    let uvas = 2181 + 8 + 4 + 2228;
    assert_eq!(&d[uvas..uvas + 4], b"UVAS");
    d[uvas + 4..uvas + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = alpha::from_bytes(&d).unwrap_err();
    assert!(matches!(e.kind, MdxErrorKind::CountTooLarge { .. }), "{e}");
    assert_eq!(e.path, ["GEOS", "Geoset[0]", "UVAS"]);
}

// ---------------------------------------------------------------------------------------
// Back from Warcraft III.

#[test]
fn boar_back_from_the_wc3_model_keeps_the_shared_parts() {
    let boar = alpha::from_bytes(&boar_bytes()).unwrap();
    let (wc, _) = boar.to_model();
    let (back, losses) = AlphaModel::from_model(&wc, 1300);
    let bytes = alpha::to_bytes(&back).unwrap();
    assert!(alpha::is_alpha(&bytes));
    let back = alpha::from_bytes(&bytes).unwrap();
    // Every object comes back whole: names, ids, parents, flags, and the packed bits of
    // every rotation key.
    let (a, b): (Vec<_>, Vec<_>) = (boar.objects().collect(), back.objects().collect());
    assert_eq!(a, b);
    assert_eq!(
        boar.pivots().collect::<Vec<_>>(),
        back.pivots().collect::<Vec<_>>()
    );
    for (x, y) in boar.sequences().zip(back.sequences()) {
        assert_eq!(
            (&x.name, x.interval, x.flags, x.bounds),
            (&y.name, y.interval, y.flags, y.bounds)
        );
    }
    for (x, y) in boar.geosets().zip(back.geosets()) {
        let mut x = x.clone();
        (x.bone_indices, x.bone_weights) = (Vec::new(), Vec::new());
        assert_eq!(&x, y, "all but BIDX/BWGT");
    }
    assert_eq!(boar.attachments().count(), back.attachments().count());
    assert_eq!(
        boar.hit_test_shapes().map(|h| &h.shape).collect::<Vec<_>>(),
        back.hit_test_shapes().map(|h| &h.shape).collect::<Vec<_>>()
    );
    assert_eq!(
        boar.cameras().collect::<Vec<_>>(),
        back.cameras().collect::<Vec<_>>()
    );
    assert_eq!(
        boar.materials().collect::<Vec<_>>(),
        back.materials().collect::<Vec<_>>()
    );
    println!("losses going back: {losses:?}");
    assert_eq!(losses.len(), 1, "{losses:?}");
    assert!(losses[0]
        .to_string()
        .starts_with("Texture[0]: replaceable id 11"));
}

#[test]
fn v1500_back_from_the_wc3_model() {
    let (_, m) = decode_fixture(1500);
    let (wc, _) = m.to_model();
    let (back, _) = AlphaModel::from_model(&wc, 1500);
    let back = alpha::from_bytes(&alpha::to_bytes(&back).unwrap()).unwrap();
    let g: Vec<_> = back.batched_geosets().collect();
    assert_eq!(g.len(), 2);
    // Matrix group {bone 0, bone 1} comes back as two indices of equal weight.
    let v = &g[0].vertices[2];
    assert_eq!(
        (v.bone_indices, v.bone_weights),
        ([0, 1, 0, 0], [128, 127, 0, 0])
    );
    assert_eq!(g[0].vertices[0].bone_weights, [255, 0, 0, 0]);
    assert_eq!(g[0].indices, [0, 1, 2, 0, 2, 3]);
    assert_eq!((g[0].max_vertex, g[0].padding.len()), (3, 2));
    assert_eq!(g[1].vertices[0].tex_coords[1], [0.5, 0.5]);
    // Rotation tangents of a Hermite track pack back to the original bits.
    let original = m.bones().next().unwrap();
    let again = back.bones().next().unwrap();
    assert_eq!(original.object.tracks, again.object.tracks);
}

/// Every Warcraft III model of the corpus becomes an alpha file of each layout that reads
/// back and writes the same bytes again.
#[test]
fn corpus_models_become_valid_alpha_files() {
    let (mut files, mut refused) = (0, Vec::new());
    for row in common::manifest().iter().filter(|r| r.format == "mdx") {
        let data = std::fs::read(common::corpus_dir().join(&row.local_path)).unwrap();
        let Ok(wc) = mdx::from_bytes(&data) else {
            continue;
        };
        files += 1;
        for version in [1300, 1500] {
            let (a, _) = AlphaModel::from_model(&wc, version);
            match alpha::to_bytes(&a) {
                Ok(bytes) => {
                    let back = alpha::from_bytes(&bytes)
                        .unwrap_or_else(|e| panic!("{} as {version}: {e}", row.local_path));
                    // Bytes, not documents: some models hold NaN floats.
                    let again = alpha::to_bytes(&back).unwrap();
                    assert!(again == bytes, "{} as {version}", row.local_path);
                    assert_eq!(
                        back.objects().count(),
                        wc.node_count(),
                        "{}",
                        row.local_path
                    );
                }
                Err(e) => refused.push(format!("{} as {version}: {e}", row.local_path)),
            }
        }
    }
    println!("{files} corpus models converted; refused: {refused:#?}");
    assert!(files > 500);
    assert!(refused.is_empty());
}
