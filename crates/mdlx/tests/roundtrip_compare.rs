//! The round-trip comparison (`common/roundtrip.rs`) judged on hand-made differences: a
//! model compared with itself passes every row (also with a vertex split in two and with
//! its vertices reordered), and each kind of change fails the row that owns it, and only
//! the rows it must. The models are corpus files small enough to read at a glance: a
//! classic test model holding every node kind but popcorn, and a Reforged one with skin
//! weights and a popcorn emitter.

mod common;

use common::roundtrip::{compare, Report, ROWS};
use mdlx::model::{Animation, AnyTrack, Geoset, Interpolation, Key, Model, Track};
use mdlx::spec::track::KGTR;
use std::collections::BTreeSet;

fn corpus(file: &str) -> Model {
    mdlx::mdx::from_bytes(&std::fs::read(common::corpus_dir().join(file)).unwrap()).unwrap()
}

/// Classic (800): every node kind but popcorn, cameras, texture and geoset animations,
/// global sequences.
fn classic() -> Model {
    corpus("mdx/zengfanfan__war3mdlx__test__all.mdx")
}

/// Reforged (1000): skin weights, a popcorn emitter, a light.
fn reforged() -> Model {
    corpus("mdx/TaylorMouse__warcraft_III_reforged_tools__Documentation__Tutorial__Resources__blob.mdx")
}

fn failing(r: &Report) -> BTreeSet<&'static str> {
    r.failures().into_iter().map(|(row, _)| row).collect()
}

/// `change` applied to a copy of `m` fails exactly the rows `rows`.
fn fails(m: &Model, rows: &[&str], what: &str, change: impl FnOnce(&mut Model)) {
    let mut back = m.clone();
    change(&mut back);
    let r = compare(m, &back);
    let want: BTreeSet<&str> = rows.iter().copied().collect();
    assert_eq!(failing(&r), want, "{what}: {:?}", r.failures());
    for row in rows {
        assert!(ROWS.contains(row), "{row} is a row");
    }
}

#[test]
fn a_model_compared_with_itself_passes_every_row() {
    for m in [classic(), reforged()] {
        let r = compare(&m, &m);
        assert!(r.ok(), "{:?}", r.failures());
        assert_eq!(r.worst_pose, 0.0);
        assert_eq!(r.rows.len(), ROWS.len());
        assert!(!r.table_row("x").contains("FAIL"));
    }
}

/// Reorders the vertices of geoset `g` by `order` (new index -> old), faces following.
fn permute(g: &mut Geoset, order: &[usize]) {
    let mut inverse = vec![0u16; order.len()];
    for (new, &old) in order.iter().enumerate() {
        inverse[old] = new as u16;
    }
    let n = g.vertices.len();
    // Arrays that do not hold one entry per vertex are left as they are.
    fn pick<T: Copy>(v: &[T], order: &[usize], per: usize) -> Vec<T> {
        if v.len() != order.len() * per {
            return v.to_vec();
        }
        order
            .iter()
            .flat_map(|&o| v[o * per..o * per + per].iter().copied())
            .collect()
    }
    assert_eq!(order.len(), n);
    g.vertices = pick(&g.vertices, order, 1);
    g.normals = pick(&g.normals, order, 1);
    g.vertex_groups = pick(&g.vertex_groups, order, 1);
    if let Some(s) = &g.skin {
        g.skin = Some(pick(s, order, 8));
    }
    if let Some(t) = &g.tangents {
        g.tangents = Some(pick(t, order, 1));
    }
    for set in &mut g.uv_sets {
        *set = pick(set, order, 1);
    }
    // (A face index past the vertices, which some corpus files hold, stays as it is.)
    for f in &mut g.faces {
        if let Some(&i) = inverse.get(usize::from(*f)) {
            *f = i;
        }
    }
}

/// Appends a copy of vertex `v` of `g` and points the first face corner that uses `v` at it.
fn split(g: &mut Geoset, v: usize) {
    let n = g.vertices.len();
    fn push<T: Copy>(a: &mut Vec<T>, n: usize, v: usize, per: usize) {
        if a.len() == n * per {
            let e: Vec<T> = a[v * per..v * per + per].to_vec();
            a.extend(e);
        }
    }
    push(&mut g.vertices, n, v, 1);
    push(&mut g.normals, n, v, 1);
    push(&mut g.vertex_groups, n, v, 1);
    if let Some(s) = &mut g.skin {
        push(s, n, v, 8);
    }
    if let Some(t) = &mut g.tangents {
        push(t, n, v, 1);
    }
    for set in &mut g.uv_sets {
        push(set, n, v, 1);
    }
    let corner = g.faces.iter().position(|&f| usize::from(f) == v).unwrap();
    g.faces[corner] = n as u16;
}

#[test]
fn split_and_reordered_vertices_are_the_same_model() {
    for m in [classic(), reforged()] {
        let mut back = m.clone();
        for g in &mut back.geosets {
            let order: Vec<usize> = (0..g.vertices.len()).rev().collect();
            permute(g, &order);
            if !g.faces.is_empty() {
                let v = usize::from(g.faces[0]);
                split(g, v);
            }
        }
        assert_ne!(back.geosets[0].vertices, m.geosets[0].vertices);
        let r = compare(&m, &back);
        assert!(r.ok(), "{:?}", r.failures());
    }
}

#[test]
fn each_change_fails_its_row() {
    let m = classic();
    let size = common::judges::model_size(&m);
    // Collision shapes come last in the object ids: one more keeps the others' ids.
    fails(
        &m,
        &["node counts", "nodes"],
        "a collision shape added",
        |b| {
            let mut h = b.collision_shapes[0].clone();
            h.node.name.set("Extra shape");
            h.node.object_id = b.node_count() as u32;
            b.pivot_points.push([0.0; 3]);
            b.collision_shapes.push(h);
        },
    );
    fails(&m, &["node counts", "nodes"], "a camera lost", |b| {
        b.cameras.pop();
    });
    fails(&m, &["nodes"], "a helper renamed", |b| {
        b.helpers[0].node.name.set("Renamed")
    });
    fails(&m, &["nodes"], "an attachment's path", |b| {
        b.attachments[0].path.set("X.mdx")
    });
    fails(&m, &["nodes"], "an attachment's flags", |b| {
        b.attachments[0].node.flags ^= 0x1
    });
    fails(&m, &["nodes"], "an attachment's parent", |b| {
        let a = &mut b.attachments[0].node;
        a.parent_id = if a.parent_id == -1 {
            b.bones[0].node.object_id as i32
        } else {
            -1
        };
    });
    fails(&m, &["nodes"], "an attachment's pivot", |b| {
        let id = b.attachments[0].node.object_id as usize;
        b.pivot_points[id][0] += (size * 0.01) as f32;
    });
    fails(&m, &["nodes"], "an attachment's translation", |b| {
        let s = &b.sequences[0];
        let track = Track {
            interpolation: Interpolation::Linear,
            global_sequence_id: -1,
            keys: vec![Key::at(s.interval[0] as i32, [1.0, 2.0, 3.0])],
        };
        b.attachments[0].node.tracks.0.push(Animation {
            tag: KGTR,
            track: AnyTrack::Vector3(track),
        });
    });
    fails(&m, &["nodes"], "an event object's data", |b| {
        let t = b.event_objects[0]
            .track
            .get_or_insert_with(Default::default);
        t.times.push(123_456);
    });
    fails(&m, &["nodes"], "a light's data", |b| {
        b.lights[0].attenuation_start += 1.0
    });
    fails(&m, &["sequences"], "a sequence's end", |b| {
        b.sequences[0].interval[1] += 1
    });
    fails(&m, &["sequences"], "a sequence's rarity", |b| {
        b.sequences[0].rarity += 1.0
    });
    fails(&m, &["sequences"], "a sequence's extent", |b| {
        b.sequences[0].extent.radius += 10.0
    });
    fails(&m, &["sequences"], "the sequences' order", |b| {
        b.sequences.swap(0, 1)
    });
    let m = reforged();
    fails(&m, &["materials"], "a texture path", |b| {
        b.textures[0].path.set("Textures\\Other.blp")
    });
    fails(&m, &["materials"], "a replaceable id", |b| {
        let t = &mut b.textures[0];
        t.replaceable_id = if t.replaceable_id == 2 { 1 } else { 2 };
    });
    fails(&m, &["materials"], "a filter mode", |b| {
        let l = &mut b.materials[0].layers[0];
        l.filter_mode = (l.filter_mode + 1) % 7;
    });
    let m = classic();
    fails(&m, &["texture anims"], "a texture animation", |b| {
        b.texture_animations.pop().map(drop).unwrap()
    });
    fails(&m, &["geoset anims"], "a geoset animation's colour", |b| {
        b.geoset_animations[0].color[0] *= 0.5
    });
    fails(
        &m,
        &["check"],
        "a bone naming a missing geoset animation",
        |b| {
            b.bones[0].geoset_animation_id = 999;
        },
    );
    // Geometry on the Reforged model, whose one geoset has 1,802 vertices.
    let m = reforged();
    let size = common::judges::model_size(&m);
    fails(&m, &["geosets"], "a vertex moved", |b| {
        b.geosets[0].vertices[0][2] += (size * 0.01) as f32
    });
    fails(&m, &["geosets"], "a triangle removed", |b| {
        let g = &mut b.geosets[0];
        g.faces.truncate(g.faces.len() - 3);
        if let Some(s) = g.face_group_sizes.first_mut() {
            *s -= 3;
        }
    });
}

#[test]
fn skinning_and_global_sequences_are_caught() {
    // A classic unit: vertices in several matrix groups.
    let m = corpus("mdx/WarRaft__Legion-Tower-Defence__map__DemonWorker.mdx");
    // A vertex moved to another matrix group: other bones move it.
    let g = m
        .geosets
        .iter()
        .position(|g| g.matrix_group_sizes.len() > 1)
        .unwrap();
    fails(
        &m,
        &["skin weights", "pose"],
        "a vertex's matrix group",
        |b| {
            let vg = &mut b.geosets[g].vertex_groups;
            let other = vg.iter().copied().find(|&x| x != vg[0]).unwrap();
            vg[0] = other;
        },
    );
    let m = classic();
    let r = {
        let mut b = m.clone();
        b.global_sequences[0] += 100;
        compare(&m, &b)
    };
    assert!(
        failing(&r).contains("global sequences"),
        "{:?}",
        r.failures()
    );
    // Reforged skin weights: a vertex's weights split between two bones.
    let m = reforged();
    let (g, v) = (0, 0);
    fails(
        &m,
        &["skin weights", "pose"],
        "a vertex's skin weights",
        |b| {
            let groups = b.geosets[g].matrix_indices.len() as u16;
            let s = b.geosets[g].skin.as_mut().unwrap();
            let e = &mut s[v * 8..v * 8 + 8];
            let other = (0..groups).find(|&i| i != e[0]).unwrap();
            e[1] = other;
            e[4] = 128;
            e[5] = 127;
            e[6] = 0;
            e[7] = 0;
        },
    );
    fails(
        &m,
        // Its object id is missing now: a check error too.
        &["node counts", "nodes", "check"],
        "a popcorn emitter lost",
        |b| {
            b.popcorn_emitters.clear();
        },
    );
}
