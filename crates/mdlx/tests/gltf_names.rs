//! A model made from scratch in an editor (no `mdlx` extras) follows the naming conventions
//! modders use (issue 37, point 3; the table is in the documentation of
//! `mdlx::convert::gltf::import`): an empty named `... Ref` is an attachment, one named like an
//! event (`SNDxDHLB`) an event object firing at its keys, a node named `Collision...` a
//! collision shape (a mesh's box, or a sphere), and every animation a sequence. The glTF
//! is written here by hand, so the expected model follows from it.

mod common;

use mdlx::convert::gltf::{import, ImportOptions, Source};
use mdlx::model::Shape;
use serde_json::json;

/// Little-endian f32 bytes of `v`.
fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A glTF of: a triangle (node "Body"); a cube mesh named "CollisionBox" from -1 to 1 at
/// (0, 2, 0); empties "Overhead Ref" at (0, 3, 0), "SNDxDHLB" keyed (translation) at 0.1 s
/// and 0.4 s of "Stand", "CollisionSphere" scaled by 2 and "Just A Helper" (animated);
/// animations "Stand" (0.5 s) and "Death" (1 s). Units are game units (scale 1).
fn scratch() -> Vec<u8> {
    let tri = f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    let mut cube = Vec::new();
    for x in [-1.0f32, 1.0] {
        for y in [-1.0f32, 1.0] {
            for z in [-1.0f32, 1.0] {
                cube.extend([x, y, z]);
            }
        }
    }
    let cube = f32s(&cube);
    let idx: Vec<u8> = [0u16, 1, 2, 0, 1, 2, 4, 5, 6, 3, 5, 7]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let times = f32s(&[0.1, 0.4]);
    let moves = f32s(&[0.0, 0.0, 0.0, 0.0, 0.5, 0.0]);
    let stand = f32s(&[0.0, 0.5]);
    let death = f32s(&[0.0, 1.0]);
    let spin = f32s(&[
        0.0,
        0.0,
        0.0,
        1.0,
        0.0,
        std::f32::consts::FRAC_1_SQRT_2,
        0.0,
        std::f32::consts::FRAC_1_SQRT_2,
    ]);
    let parts = [&tri, &cube, &idx, &times, &moves, &stand, &death, &spin];
    let mut bin = Vec::new();
    let mut views = Vec::new();
    for p in parts {
        views.push(json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": p.len()}));
        bin.extend_from_slice(p);
        while bin.len() % 4 != 0 {
            bin.push(0);
        }
    }
    let acc = |view: usize, count: usize, ty: &str, ct: u32| json!({"bufferView": view, "count": count, "type": ty, "componentType": ct});
    let mut accessors = vec![
        acc(0, 3, "VEC3", 5126),
        acc(1, 8, "VEC3", 5126),
        acc(2, 3, "SCALAR", 5123),
        acc(3, 2, "SCALAR", 5126),
        acc(4, 2, "VEC3", 5126),
        acc(5, 2, "SCALAR", 5126),
        acc(6, 2, "SCALAR", 5126),
        acc(7, 2, "VEC4", 5126),
    ];
    accessors[0]["min"] = json!([0.0, 0.0, 0.0]);
    accessors[0]["max"] = json!([1.0, 1.0, 0.0]);
    accessors[1]["min"] = json!([-1.0, -1.0, -1.0]);
    accessors[1]["max"] = json!([1.0, 1.0, 1.0]);
    for (a, max) in [(3, 0.4), (5, 0.5), (6, 1.0)] {
        accessors[a]["min"] = json!([if a == 3 { 0.1 } else { 0.0 }]);
        accessors[a]["max"] = json!([max]);
    }
    let doc = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1, 2, 3, 4, 5]}],
        "nodes": [
            {"name": "Body", "mesh": 0},
            {"name": "CollisionBox", "mesh": 1, "translation": [0.0, 2.0, 0.0]},
            {"name": "Overhead Ref", "translation": [0.0, 3.0, 0.0]},
            {"name": "SNDxDHLB"},
            {"name": "CollisionSphere", "scale": [2.0, 2.0, 2.0]},
            {"name": "Just A Helper"}
        ],
        "meshes": [
            {"primitives": [{"attributes": {"POSITION": 0}, "indices": 2}]},
            {"primitives": [{"attributes": {"POSITION": 1}}]}
        ],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": bin.len()}],
        "animations": [
            {"name": "Stand", "samplers": [
                {"input": 3, "output": 4, "interpolation": "LINEAR"},
                {"input": 5, "output": 7, "interpolation": "LINEAR"}],
             "channels": [
                {"sampler": 0, "target": {"node": 3, "path": "translation"}},
                {"sampler": 1, "target": {"node": 5, "path": "rotation"}}]},
            {"name": "Death", "samplers": [{"input": 6, "output": 7, "interpolation": "LINEAR"}],
             "channels": [{"sampler": 0, "target": {"node": 5, "path": "rotation"}}]}
        ]
    });
    common::glb(doc.to_string().as_bytes(), &bin)
}

#[test]
fn names_make_attachments_event_objects_and_collision_shapes() {
    let glb = scratch();
    let src = Source::from_bytes(&glb, None).unwrap();
    let opts = ImportOptions {
        scale: mdlx::convert::gltf::import::ImportScale::Factor(1.0),
        ..Default::default()
    };
    let m = import(&src, &opts).unwrap().model;
    let names = |n: &mut dyn Iterator<Item = &mdlx::model::Node>| -> Vec<String> {
        n.map(|n| n.name.to_string()).collect()
    };
    assert_eq!(
        names(&mut m.attachments.iter().map(|a| &a.node)),
        ["Overhead Ref"]
    );
    assert_eq!(
        names(&mut m.event_objects.iter().map(|e| &e.node)),
        ["SNDxDHLB"]
    );
    assert_eq!(
        names(&mut m.collision_shapes.iter().map(|c| &c.node)),
        ["CollisionBox", "CollisionSphere"]
    );
    assert!(names(&mut m.helpers.iter().map(|h| &h.node)).contains(&"Just A Helper".to_string()));
    // The collision mesh is no geoset; the triangle is the one geoset.
    assert_eq!(m.geosets.len(), 1);
    assert_eq!(m.geosets[0].vertices.len(), 3);
    // Sequences, in order; the event fires at its keys in Stand.
    let seqs: Vec<String> = m.sequences.iter().map(|s| s.name.to_string()).collect();
    assert_eq!(seqs, ["Stand", "Death"]);
    let start = m.sequences[0].interval[0];
    let times = &m.event_objects[0]
        .track
        .as_ref()
        .expect("an event track")
        .times;
    assert_eq!(times, &[start + 100, start + 400]);
    // The box: the cube's corners moved up 2 (glTF +Y is the game's +Z).
    match &m.collision_shapes[0].shape {
        Shape::Box([lo, hi]) => {
            assert_eq!((*lo, *hi), ([-1.0, -1.0, 1.0], [1.0, 1.0, 3.0]));
        }
        s => panic!("CollisionBox is {s:?}"),
    }
    match &m.collision_shapes[1].shape {
        Shape::Sphere(c, r) => assert_eq!((*c, *r), ([0.0; 3], 2.0)),
        s => panic!("CollisionSphere is {s:?}"),
    }
    // The attachment's pivot is where its empty is.
    let a = &m.attachments[0].node;
    assert_eq!(m.pivot_points[a.object_id as usize], [0.0, 0.0, 3.0]);
    // And the game has no complaint about any of it.
    let errors: Vec<String> = mdlx::check::check(&m)
        .iter()
        .filter(|f| f.severity() == mdlx::check::Severity::Error)
        .map(|f| f.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}
