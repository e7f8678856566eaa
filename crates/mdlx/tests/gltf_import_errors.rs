//! glTF import on broken files: each fails with an error naming the JSON path of what is
//! wrong, never a panic; and what the importer repairs or reports instead of failing.

mod common;

use mdlx::convert::gltf::{import, GltfError, ImportOptions, Source};
use serde_json::{json, Value};

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// One triangle on node 1 under node 0, two joints, a skin, an animation of node 1's
/// rotation: the bytes, and the document to break.
fn base() -> (Value, Vec<u8>) {
    let mut bin = f32_bytes(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]); // 0: positions
    bin.extend(f32_bytes(&[0.0, 1.0])); // 36: times
    bin.extend(f32_bytes(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.6, 0.0, 0.8])); // 44: rotations
    let doc = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "root", "children": [1]},
            {"name": "mesh", "mesh": 0}
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 36},
            {"buffer": 0, "byteOffset": 36, "byteLength": 8},
            {"buffer": 0, "byteOffset": 44, "byteLength": 32}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
             "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]},
            {"bufferView": 1, "componentType": 5126, "count": 2, "type": "SCALAR",
             "min": [0.0], "max": [1.0]},
            {"bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC4"}
        ],
        "animations": [{"name": "Walk",
            "samplers": [{"input": 1, "output": 2}],
            "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]}]
    });
    (doc, bin)
}

fn run(doc: &Value, bin: &[u8]) -> Result<mdlx::convert::gltf::Import, GltfError> {
    let data = common::glb(&serde_json::to_vec(doc).unwrap(), bin);
    let source = Source::from_bytes(&data, None)?;
    import(&source, &ImportOptions::default())
}

fn err(doc: &Value, bin: &[u8]) -> GltfError {
    match run(doc, bin) {
        Ok(_) => panic!("imported a broken file"),
        Err(e) => e,
    }
}

#[test]
fn the_base_file_imports() {
    let (doc, bin) = base();
    let out = run(&doc, &bin).expect("the base file imports");
    // The animation, then the Stand and Death the game-ready pass adds (the file has
    // neither; see `mdlx::convert::ready`).
    let names: Vec<String> = out
        .model
        .sequences
        .iter()
        .map(|s| s.name.text().into_owned())
        .collect();
    assert_eq!(names, ["Walk", "Stand", "Death"]);
    assert_eq!(out.model.geosets.len(), 1);
    // The animated mesh node is a bone its vertices follow, under a helper for "root".
    assert_eq!(out.model.bones.len(), 1);
    assert_eq!(out.model.bones[0].node.name.text(), "mesh");
    assert_eq!(out.model.helpers.len(), 1);
    assert_eq!(out.model.bones[0].node.parent_id, 1);
}

#[test]
fn a_node_hierarchy_that_loops_is_refused_with_its_path() {
    let (mut doc, bin) = base();
    doc["nodes"][1]["children"] = json!([0]);
    let e = err(&doc, &bin);
    assert!(e.path.starts_with("nodes["), "{e}");
    assert!(e.message.contains("loops"), "{e}");
}

#[test]
fn a_node_with_two_parents_is_refused() {
    let (mut doc, bin) = base();
    doc["nodes"]
        .as_array_mut()
        .unwrap()
        .push(json!({"children": [1]}));
    let e = err(&doc, &bin);
    assert_eq!(e.path, "nodes[2].children[0]", "{e}");
    assert!(e.message.contains("already a child of node 0"), "{e}");
}

#[test]
fn a_transform_that_is_not_a_number_is_refused() {
    // JSON has no NaN: a number too large for f32 reads as infinity.
    let (mut doc, bin) = base();
    doc["nodes"][1]["translation"] = json!([1e39, 0.0, 0.0]);
    let e = err(&doc, &bin);
    assert_eq!(e.path, "nodes[1].translation", "{e}");
    assert!(e.message.contains("not a finite number"), "{e}");
}

#[test]
fn not_a_number_in_the_buffer_is_refused_where_it_is_read() {
    let (doc, mut bin) = base();
    bin[0..4].copy_from_slice(&f32::NAN.to_le_bytes());
    let e = err(&doc, &bin);
    assert_eq!(e.path, "meshes[0].primitives[0].attributes.POSITION", "{e}");
    let (doc, mut bin) = base();
    bin[44..48].copy_from_slice(&f32::INFINITY.to_le_bytes());
    let e = err(&doc, &bin);
    assert_eq!(e.path, "animations[0].samplers[0].output", "{e}");
}

#[test]
fn key_times_that_go_back_are_refused() {
    let (doc, mut bin) = base();
    bin[36..40].copy_from_slice(&2.0f32.to_le_bytes());
    let e = err(&doc, &bin);
    assert_eq!(e.path, "animations[0].samplers[0].input", "{e}");
    assert!(e.message.contains("go back"), "{e}");
}

#[test]
fn an_output_of_the_wrong_length_is_refused() {
    let (mut doc, bin) = base();
    doc["animations"][0]["samplers"][0]["interpolation"] = json!("CUBICSPLINE");
    let e = err(&doc, &bin);
    assert_eq!(e.path, "animations[0].samplers[0].output", "{e}");
    assert!(e.message.contains("for 2 keys"), "{e}");
}

#[test]
fn an_index_past_the_vertices_is_refused() {
    let (mut doc, mut bin) = base();
    bin.extend([0u8, 1, 7, 0]); // 76: indices 0, 1, 7 as bytes
    doc["buffers"][0]["byteLength"] = json!(bin.len());
    doc["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(json!({"buffer": 0, "byteOffset": 76, "byteLength": 3}));
    doc["accessors"]
        .as_array_mut()
        .unwrap()
        .push(json!({"bufferView": 3, "componentType": 5121, "count": 3, "type": "SCALAR"}));
    doc["meshes"][0]["primitives"][0]["indices"] = json!(3);
    let e = err(&doc, &bin);
    assert_eq!(e.path, "meshes[0].primitives[0].indices", "{e}");
    assert!(e.message.contains("past the 3 vertices"), "{e}");
}

#[test]
fn a_joint_past_the_skin_is_refused() {
    let (mut doc, mut bin) = base();
    // JOINTS_0 (u8) and WEIGHTS_0 (f32) for the three vertices; vertex 2 names joint 5.
    let joints = [0u8, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0];
    let start = bin.len();
    bin.extend(joints);
    bin.extend(f32_bytes(&[1.0, 0.0, 0.0, 0.0].repeat(3)));
    doc["buffers"][0]["byteLength"] = json!(bin.len());
    let views = doc["bufferViews"].as_array_mut().unwrap();
    views.push(json!({"buffer": 0, "byteOffset": start, "byteLength": 12}));
    views.push(json!({"buffer": 0, "byteOffset": start + 12, "byteLength": 48}));
    let accessors = doc["accessors"].as_array_mut().unwrap();
    accessors.push(json!({"bufferView": 3, "componentType": 5121, "count": 3, "type": "VEC4"}));
    accessors.push(json!({"bufferView": 4, "componentType": 5126, "count": 3, "type": "VEC4"}));
    let prim = &mut doc["meshes"][0]["primitives"][0]["attributes"];
    prim["JOINTS_0"] = json!(3);
    prim["WEIGHTS_0"] = json!(4);
    doc["nodes"][1]["skin"] = json!(0);
    doc["skins"] = json!([{"joints": [0]}]);
    let e = err(&doc, &bin);
    assert_eq!(e.path, "meshes[0].primitives[0].attributes.JOINTS_0", "{e}");
    assert!(e.message.contains("vertex 2 names joint 5"), "{e}");
}

#[test]
fn a_huge_count_is_an_error_not_an_allocation() {
    let (mut doc, bin) = base();
    doc["accessors"][1]["count"] = json!(4_000_000_000u64);
    let e = err(&doc, &bin);
    assert!(e.path.contains("animations[0].samplers[0].input"), "{e}");
}

#[test]
fn an_unknown_version_to_build_is_refused() {
    let (doc, bin) = base();
    let source =
        Source::from_bytes(&common::glb(&serde_json::to_vec(&doc).unwrap(), &bin), None).unwrap();
    let opts = ImportOptions {
        version: 700,
        ..Default::default()
    };
    let e = import(&source, &opts).unwrap_err();
    assert!(e.message.contains("version 700"), "{e}");
}

#[test]
fn points_morph_targets_and_other_scenes_are_reported_not_refused() {
    let (mut doc, bin) = base();
    doc["meshes"][0]["primitives"]
        .as_array_mut()
        .unwrap()
        .push(json!({"attributes": {"POSITION": 0}, "mode": 0}));
    doc["meshes"][0]["primitives"][0]["targets"] = json!([{"POSITION": 0}]);
    doc["scenes"]
        .as_array_mut()
        .unwrap()
        .push(json!({"nodes": [0]}));
    let out = run(&doc, &bin).expect("imports with losses");
    let text: Vec<String> = out.losses.iter().map(|l| l.to_string()).collect();
    for want in ["points and lines", "morph targets", "scenes[1]"] {
        assert!(text.iter().any(|t| t.contains(want)), "{want} in {text:?}");
    }
    assert_eq!(out.model.geosets.len(), 1);
}

#[test]
fn a_long_name_is_cut_to_the_field_and_said() {
    let (mut doc, bin) = base();
    doc["nodes"][1]["name"] = json!("x".repeat(100));
    let out = run(&doc, &bin).unwrap();
    assert_eq!(out.model.bones[0].node.name.text().len(), 80);
    assert!(out
        .losses
        .iter()
        .any(|l| l.place == "nodes[1]" && l.what.contains("cut to 80 bytes")));
}

#[test]
fn a_key_time_past_the_games_clock_is_refused() {
    let (doc, mut bin) = base();
    bin[40..44].copy_from_slice(&3.0e9f32.to_le_bytes());
    let e = err(&doc, &bin);
    assert_eq!(e.path, "animations[0].samplers[0].input", "{e}");
    assert!(e.message.contains("past the"), "{e}");
}
