//! Edits made in Blender come through, and nothing else changes (issue 37, point 2).
//!
//! A corpus unit (`DemonWorker.mdx`: bones, helpers, attachments, emitters, an event
//! object, collision shapes, 9 sequences, a global sequence) is exported by
//! `mdlx::convert::gltf::export` (textures from the texture corpus), and each edit a modder makes is
//! made by a script in Blender 3.4 and in Blender 4.5 (`tools/blender-roundtrip/edits.py`,
//! between Blender's own glTF import and export), one edit a file. Our import of each file
//! must show the edit (checked on the model: poses, vertices, names, paths) and, once the
//! edit is taken back out of the result by hand, be the model that went in, field for
//! field. A file with no edit comes back byte for byte.

mod common;

use common::blender::{answers_by, start_blender, BLENDERS};
use mdlx::anim::{Clock, Skeleton};
use mdlx::model::{Model, Node};
use serde_json::{json, Value};
use std::path::PathBuf;

const MODEL: &str = "mdx/WarRaft__Legion-Tower-Defence__map__DemonWorker.mdx";
/// The quaternion component of a quarter turn about one axis.
const QUARTER_TURN: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// One edit: its name, roundtrip.py's edit object, and what the result must show.
struct Edit {
    name: &'static str,
    edit: Value,
    check: fn(&Model, &mdlx::convert::gltf::Import, &Value) -> Result<(), String>,
}

/// The node named `name` (mutable), whatever its kind.
fn node_mut<'a>(m: &'a mut Model, name: &str) -> &'a mut Node {
    m.nodes_mut()
        .into_iter()
        .find(|n| n.name.to_string().trim() == name)
        .unwrap_or_else(|| panic!("no node {name:?}"))
}

fn node<'a>(m: &'a Model, name: &str) -> &'a Node {
    m.nodes()
        .find(|n| n.name.to_string().trim() == name)
        .unwrap_or_else(|| panic!("no node {name:?}"))
}

fn sequence(m: &Model, name: &str) -> usize {
    m.sequences
        .iter()
        .position(|s| s.name.to_string() == name)
        .unwrap_or_else(|| panic!("no sequence {name:?}"))
}

/// The transform of node `name` relative to its parent, `e` ms into sequence `s`.
fn local(m: &Model, name: &str, s: usize, e: f64) -> [f32; 16] {
    let k = Skeleton::new(m);
    let i = k
        .nodes
        .iter()
        .position(|n| n.node.name.to_string().trim() == name)
        .unwrap();
    let pose = k.pose_at(&Clock::unwrapped(m, s, e), None);
    let w = pose.nodes[i].world;
    match k.nodes[i].parent {
        Some(p) => {
            let inv = mdlx::anim::math::invert_affine(&pose.nodes[p].world).unwrap();
            mdlx::anim::math::mul(&inv, &w)
        }
        None => w,
    }
}

/// `got` equals `want`, or what differs first (by record, so that the message says where).
fn same(got: &Model, want: &Model) -> Result<(), String> {
    if got == want {
        return Ok(());
    }
    let parts: [(&str, bool); 12] = [
        ("sequences", got.sequences == want.sequences),
        (
            "global sequences",
            got.global_sequences == want.global_sequences,
        ),
        ("textures", got.textures == want.textures),
        ("materials", got.materials == want.materials),
        (
            "texture animations",
            got.texture_animations == want.texture_animations,
        ),
        ("geosets", got.geosets == want.geosets),
        (
            "geoset animations",
            got.geoset_animations == want.geoset_animations,
        ),
        ("pivots", got.pivot_points == want.pivot_points),
        ("cameras", got.cameras == want.cameras),
        ("bones", got.bones == want.bones),
        ("helpers", got.helpers == want.helpers),
        ("attachments", got.attachments == want.attachments),
    ];
    let mut out: Vec<String> = parts
        .iter()
        .filter(|p| !p.1)
        .map(|p| p.0.to_string())
        .collect();
    for (a, b) in got.nodes().zip(want.nodes()) {
        if a != b {
            out.push(format!("node {:?}", b.name.to_string()));
        }
    }
    if out.is_empty() {
        out.push("another record".into());
    }
    Err(format!(
        "besides the edit, these differ: {}",
        out.join(", ")
    ))
}

fn moved_keys(src: &Model, got: &mdlx::convert::gltf::Import, _: &Value) -> Result<(), String> {
    let s = sequence(src, "Walk");
    let len = f64::from(src.sequences[s].length());
    let moved = [0.25, 0.5, 0.75].iter().any(|f| {
        let (a, b) = (
            local(src, "Bone_Chest", s, len * f),
            local(&got.model, "Bone_Chest", s, len * f),
        );
        let d: f32 = (12..15).map(|k| (a[k] - b[k]).powi(2)).sum::<f32>().sqrt();
        (d - 8.0).abs() < 0.5
    });
    if !moved {
        return Err("Bone_Chest is not 8 units from where it was in Walk".into());
    }
    let mut back = got.model.clone();
    node_mut(&mut back, "Bone_Chest").tracks = node(src, "Bone_Chest").tracks.clone();
    same(&back, src)
}

fn added_key(src: &Model, got: &mdlx::convert::gltf::Import, _: &Value) -> Result<(), String> {
    let s = sequence(src, "Stand - 1");
    // Frame 12 at Blender's 24 frames a second.
    let (a, b) = (
        local(src, "Bone_Head", s, 500.0),
        local(&got.model, "Bone_Head", s, 500.0),
    );
    let turned = (0..12).any(|k| (a[k] - b[k]).abs() > 0.2);
    if !turned {
        return Err("Bone_Head is not turned at the added key".into());
    }
    let mut back = got.model.clone();
    node_mut(&mut back, "Bone_Head").tracks = node(src, "Bone_Head").tracks.clone();
    same(&back, src)
}

fn added_bone(src: &Model, got: &mdlx::convert::gltf::Import, _: &Value) -> Result<(), String> {
    let m = &got.model;
    let bone = m
        .bones
        .last()
        .filter(|b| b.node.name.to_string() == "Tail Bone")
        .ok_or("no bone \"Tail Bone\" at the end of the bones")?;
    if bone.node.parent_id != node(src, "Bone_Pelvis").object_id as i32 {
        return Err(format!("Tail Bone's parent is {}", bone.node.parent_id));
    }
    let id = bone.node.object_id;
    let g = &m.geosets[0];
    let groups = g.matrix_groups();
    let follow = g
        .vertex_groups
        .iter()
        .filter(|&&k| {
            groups
                .get(usize::from(k))
                .is_some_and(|ids| ids.iter().all(|&i| i == id))
        })
        .count();
    if follow == 0 {
        return Err("no vertex of geoset 0 follows Tail Bone alone".into());
    }
    let mut back = m.clone();
    back.bones.pop();
    back.pivot_points.truncate(src.pivot_points.len());
    back.geosets[0] = src.geosets[0].clone();
    same(&back, src)
}

/// The geoset `delete_vertices` cuts into: the one with the most vertices.
fn biggest(m: &Model) -> usize {
    (0..m.geosets.len())
        .max_by_key(|&g| m.geosets[g].vertices.len())
        .unwrap()
}

fn deleted_part(src: &Model, got: &mdlx::convert::gltf::Import, _: &Value) -> Result<(), String> {
    let g = biggest(src);
    let (was, now) = (
        src.geosets[g].triangles().0.len(),
        got.model.geosets[g].triangles().0.len(),
    );
    if now >= was || now == 0 {
        return Err(format!("geoset {g} has {now} triangles, {was} before"));
    }
    let mut back = got.model.clone();
    back.geosets[g] = src.geosets[g].clone();
    same(&back, src)
}

fn moved_vertex(
    src: &Model,
    got: &mdlx::convert::gltf::Import,
    answer: &Value,
) -> Result<(), String> {
    let co: Vec<f32> = serde_json::from_value(answer["edits"][0]["result"]["co"].clone())
        .map_err(|e| format!("the edit's answer: {e}"))?;
    let near = |m: &Model| {
        m.geosets[0]
            .vertices
            .iter()
            .any(|v| (0..3).all(|k| (v[k] - co[k]).abs() < 1e-3))
    };
    if near(src) || !near(&got.model) {
        return Err(format!("geoset 0 has no vertex at {co:?}"));
    }
    let mut back = got.model.clone();
    back.geosets[0] = src.geosets[0].clone();
    same(&back, src)
}

fn added_empty(src: &Model, got: &mdlx::convert::gltf::Import, _: &Value) -> Result<(), String> {
    let m = &got.model;
    let a = m
        .attachments
        .last()
        .filter(|a| a.node.name.to_string() == "Sword Test Ref")
        .ok_or("no attachment \"Sword Test Ref\" at the end of the attachments")?;
    let hand = node(src, "Bone_Hand_R");
    if a.node.parent_id != hand.object_id as i32 {
        return Err(format!("the attachment's parent is {}", a.node.parent_id));
    }
    let pivot = m.pivot_points[a.node.object_id as usize];
    let want = src.pivot_points[hand.object_id as usize];
    if (0..3).any(|k| (pivot[k] - want[k]).abs() > 1e-2) {
        return Err(format!(
            "the attachment is at {pivot:?}, the hand at {want:?}"
        ));
    }
    let mut back = m.clone();
    back.attachments.pop();
    back.pivot_points.truncate(src.pivot_points.len());
    same(&back, src)
}

fn renamed_action(src: &Model, got: &mdlx::convert::gltf::Import, _: &Value) -> Result<(), String> {
    let s = sequence(src, "Walk");
    let name = got.model.sequences[s].name.to_string();
    if name != "Walk Fast" {
        return Err(format!("sequence {s} is {name:?}"));
    }
    let mut back = got.model.clone();
    back.sequences[s].name = src.sequences[s].name.clone();
    same(&back, src)
}

fn added_action(src: &Model, got: &mdlx::convert::gltf::Import, _: &Value) -> Result<(), String> {
    let m = &got.model;
    let n = src.sequences.len();
    let seq = m.sequences.get(n).ok_or("no sequence after the others")?;
    if m.sequences.len() != n + 1 || seq.name.to_string() != "Spell New" {
        return Err(format!("sequence {n} is {:?}", seq.name.to_string()));
    }
    // 24 frames at Blender's 24 a second.
    if seq.length().abs_diff(1000) > 50 {
        return Err(format!("\"Spell New\" lasts {} ms", seq.length()));
    }
    let (a, b) = (
        local(m, "Bone_Chest", n, 0.0),
        local(m, "Bone_Chest", n, 1000.0),
    );
    if (0..12).all(|k| (a[k] - b[k]).abs() < 0.2) {
        return Err("Bone_Chest does not turn in \"Spell New\"".into());
    }
    let mut back = m.clone();
    back.sequences.pop();
    let [lo, hi] = seq.interval;
    for node in back.nodes_mut() {
        for t in node.tracks.0.iter_mut() {
            if let mdlx::model::AnyTrack::Vector3(t) = &mut t.track {
                t.keys
                    .retain(|k| !(lo as i32..=hi as i32).contains(&k.time));
            }
            if let mdlx::model::AnyTrack::Quaternion(t) = &mut t.track {
                t.keys
                    .retain(|k| !(lo as i32..=hi as i32).contains(&k.time));
            }
        }
    }
    for g in &mut back.geosets {
        g.sequence_extents.truncate(n);
    }
    same(&back, src)
}

fn replaced_image(
    src: &Model,
    got: &mdlx::convert::gltf::Import,
    answer: &Value,
) -> Result<(), String> {
    let mi = answer["tag"]
        .as_str()
        .and_then(|t| t.split_once(" material "))
        .and_then(|(_, m)| m.parse::<usize>().ok())
        .ok_or("the job names no material")?;
    let m = &got.model;
    let path = |m: &Model| m.textures[base_texture(m, mi)].path.to_string();
    let now = path(m);
    if now == path(src)
        || !now
            .to_ascii_lowercase()
            .replace('_', " ")
            .contains("new skin")
    {
        return Err(format!("material {mi} draws {now:?}"));
    }
    if !got.textures.iter().any(|t| t.path == now) {
        return Err(format!("{now:?} is not among the textures to write"));
    }
    let mut back = m.clone();
    back.materials[mi] = src.materials[mi].clone();
    back.textures.truncate(src.textures.len());
    same(&back, src)
}

/// The texture of material `mi`'s base layer: the first that is not team colour or glow
/// (the layer the export draws the base colour from).
fn base_texture(m: &Model, mi: usize) -> usize {
    let id = |l: &mdlx::model::Layer| l.texture_id as usize;
    let layer = m.materials[mi]
        .layers
        .iter()
        .find(|l| !matches!(m.textures[id(l)].replaceable_id, 1 | 2))
        .unwrap_or(&m.materials[mi].layers[0]);
    id(layer)
}

fn unchanged(src: &Model, got: &mdlx::convert::gltf::Import, _: &Value) -> Result<(), String> {
    let (a, b) = (
        mdlx::mdx::to_bytes(src).unwrap(),
        mdlx::mdx::to_bytes(&got.model).unwrap(),
    );
    if a == b {
        Ok(())
    } else {
        same(&got.model, src).and(Err("the MDX bytes differ".into()))
    }
}

/// The edits, with the material whose image `replace_image` replaces (one whose texture
/// the texture corpus has, so that Blender shows an image on it).
fn edits(src: &Model, material: usize) -> Vec<Edit> {
    let pelvis = src.pivot_points[node(src, "Bone_Pelvis").object_id as usize];
    let head = [pelvis[0], pelvis[1] - 20.0, pelvis[2]];
    let tail = [pelvis[0], pelvis[1] - 30.0, pelvis[2]];
    vec![
        Edit {
            name: "nothing",
            edit: Value::Null,
            check: unchanged,
        },
        Edit {
            name: "a bone's keys moved",
            edit: json!({"edit": "move_bone_keys", "action": "Walk", "bone": "Bone_Chest", "offset": [0, 0, 8]}),
            check: moved_keys,
        },
        Edit {
            name: "a key added",
            edit: json!({"edit": "add_key", "action": "Stand - 1", "bone": "Bone_Head", "frame": 12,
                "rotation_quaternion": [QUARTER_TURN, QUARTER_TURN, 0.0, 0.0], "channels": ["rotation_quaternion"]}),
            check: added_key,
        },
        Edit {
            name: "a new bone weighted to some vertices",
            edit: json!({"edit": "add_bone", "name": "Tail Bone", "parent": "Bone_Pelvis", "head": head,
                "tail": tail, "mesh": "Geoset 0", "vertices": [0, 1, 2]}),
            check: added_bone,
        },
        Edit {
            name: "part of a mesh deleted",
            edit: json!({"edit": "delete_vertices", "mesh": format!("Geoset {}", biggest(src)),
                "vertices": [0, 1, 2, 3, 4, 5]}),
            check: deleted_part,
        },
        Edit {
            name: "a vertex moved",
            edit: json!({"edit": "move_vertex", "mesh": "Geoset 0", "index": 0, "offset": [0, 0, 6]}),
            check: moved_vertex,
        },
        Edit {
            name: "an empty under a bone, an attachment",
            edit: json!({"edit": "add_empty", "name": "Sword Test Ref", "bone": "Bone_Hand_R"}),
            check: added_empty,
        },
        Edit {
            name: "an action renamed",
            edit: json!({"edit": "rename_action", "old": "Walk", "new": "Walk Fast"}),
            check: renamed_action,
        },
        Edit {
            name: "a new action",
            edit: json!({"edit": "add_action", "name": "Spell New", "bone": "Bone_Chest", "keys": [
                {"frame": 0, "rotation_quaternion": [1, 0, 0, 0]},
                {"frame": 24, "rotation_quaternion": [QUARTER_TURN, 0, QUARTER_TURN, 0]}]}),
            check: added_action,
        },
        Edit {
            name: "a material's image replaced",
            edit: json!({"edit": "replace_image", "material": format!("Material {material}"), "name": "New Skin"}),
            check: replaced_image,
        },
    ]
}

#[test]
fn edits_made_in_blender_come_through_and_nothing_else_changes() {
    let mut blenders = Vec::new();
    for b in BLENDERS.iter().filter(|b| b.label != "5.0") {
        let Some(exe) = common::judges::judge_env(b.var, "the edits in Blender") else {
            return;
        };
        blenders.push((b, exe));
    }
    let path = common::corpus_dir().join(MODEL);
    let src = mdlx::mdx::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
    let dir = common::judges::out_dir("blender-edits");
    let tex = common::texture_corpus("blender_edits")
        .map(|t| common::texture_links(std::slice::from_ref(&path), &t, "blender-edits"));
    // A material whose base colour texture the texture corpus has (so that Blender shows
    // an image on it).
    let material = (0..src.materials.len())
        .find(|&mi| {
            let t = &src.textures[base_texture(&src, mi)];
            let file = t.path.to_string().replace('\\', "/");
            let base = file.rsplit('/').next().unwrap_or("").to_string();
            tex.as_ref().is_some_and(|d| d.join(&base).exists())
        })
        .expect("a material of DemonWorker.mdx with its texture in the texture corpus");
    let opts = mdlx::convert::gltf::ExportOptions {
        texture_dirs: tex.into_iter().collect(),
        ..Default::default()
    };
    let input = dir.join("DemonWorker.glb");
    std::fs::write(&input, mdlx::convert::gltf::export(&src, &opts).to_glb()).unwrap();
    let list = edits(&src, material);
    let mut failures = Vec::new();
    let children: Vec<_> = blenders
        .iter()
        .map(|(b, exe)| {
            let jobs: Vec<Value> = list
                .iter()
                .enumerate()
                .map(|(k, e)| {
                    let out: PathBuf = dir.join(format!("edit{k}-{}.glb", b.label));
                    let edits = if e.edit.is_null() {
                        json!([])
                    } else {
                        json!([e.edit])
                    };
                    json!({"input": input, "output": out, "edits": edits,
                        "tag": format!("edit {k} material {material}")})
                })
                .collect();
            start_blender(b, exe, &dir, &jobs)
        })
        .collect();
    for ((b, _), mut child) in blenders.iter().zip(children) {
        child.wait().expect("Blender runs");
        let answers = answers_by(b, &dir, "tag");
        for (k, e) in list.iter().enumerate() {
            let place = format!("Blender {}: {}", b.label, e.name);
            let key = format!("edit {k} material {material}");
            let Some(answer) = answers.get(&key) else {
                failures.push(format!("{place}: no answer"));
                continue;
            };
            if let Some(err) = answer["error"].as_str() {
                failures.push(format!("{place}: Blender: {err}"));
                continue;
            }
            let out = dir.join(format!("edit{k}-{}.glb", b.label));
            let glb = std::fs::read(&out).unwrap();
            let source = mdlx::convert::gltf::Source::from_bytes(&glb, None).unwrap();
            let got = match mdlx::convert::gltf::import(&source, &Default::default()) {
                Ok(g) => g,
                Err(err) => {
                    failures.push(format!("{place}: our import: {err}"));
                    continue;
                }
            };
            let notes: Vec<String> = got.notes.iter().map(|n| n.what.clone()).collect();
            match (e.check)(&src, &got, answer) {
                Ok(()) => println!("{place}: ok ({})", notes.join("; ")),
                Err(why) => failures.push(format!(
                    "{place}: {why} (import notes: {})",
                    notes.join("; ")
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
