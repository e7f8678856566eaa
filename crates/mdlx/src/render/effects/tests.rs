//! Tests of the effect simulation: arithmetic on small models built here, determinism, and
//! a run over a local corpus.

use super::*;
use crate::model::{
    Animation, AnyTrack, Bone, Interpolation, Key, Node, ParticleEmitter2, RibbonEmitter, Sequence,
    Track, Tracks,
};
use crate::spec::track::{KGTR, KP2E, KP2G, KP2L, KP2S, KP2V, KRVS};

/// A camera looking at the origin from +X (so +Y is right and +Z up on screen).
fn camera() -> Camera {
    Camera::orbit([0.0; 3], 500.0, 0.0, 0.0, 0.8)
}

/// A model with one bone at the origin and one particle emitter 2 under it: `rate`
/// particles a second, living `life` seconds, at `speed`, no gravity, no spread, heads of
/// size 1, white and opaque.
fn model(rate: f32, life: f32, speed: f32) -> Model {
    let bone = Bone {
        node: Node {
            object_id: 0,
            parent_id: -1,
            ..Default::default()
        },
        ..Default::default()
    };
    let emitter = ParticleEmitter2 {
        node: Node {
            object_id: 1,
            parent_id: 0,
            ..Default::default()
        },
        emission_rate: rate,
        life_span: life,
        speed,
        rows: 1,
        columns: 1,
        time: 0.5,
        segment_colors: [[1.0; 3]; 3],
        segment_alphas: [255; 3],
        segment_scaling: [1.0; 3],
        texture_id: 0,
        ..Default::default()
    };
    Model {
        bones: vec![bone],
        particle_emitters2: vec![emitter],
        pivot_points: vec![[0.0; 3], [0.0; 3]],
        ..Default::default()
    }
}

fn run(m: &Model, time_ms: f64) -> Vec<EffectBatch> {
    simulate(m, &Skeleton::new(m), None, time_ms, &camera())
}

/// Head centres (the mean of each quad's four corners), from the six vertices of each.
fn centres(b: &EffectBatch) -> Vec<Vec3> {
    b.vertices
        .chunks(6)
        .map(|q| {
            let corners = [q[0], q[1], q[2], q[5]];
            [0, 1, 2].map(|k| corners.iter().map(|v| v.position[k]).sum::<f32>() / 4.0)
        })
        .collect()
}

fn float_track(keys: &[(i32, f32)]) -> AnyTrack {
    AnyTrack::Float(Track {
        interpolation: Interpolation::None,
        global_sequence_id: -1,
        keys: keys.iter().map(|&(t, v)| Key::at(t, v)).collect(),
    })
}

use crate::anim::math::Vec3;

#[test]
fn ten_a_second_for_a_second_gives_five_then_ten() {
    let m = model(10.0, 1.0, 0.0);
    // After 0.5 s, 10/s has made 5; none is a second old yet.
    let b = run(&m, 500.0);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].vertices.len(), 5 * 6);
    // After 2 s, 20 were born; those born in the first second (the one born at exactly
    // 1 s included: it is a second old) are dead, leaving the 10 of the last second.
    let b = run(&m, 2000.0);
    assert_eq!(b[0].vertices.len(), 10 * 6);
    // No speed, no area: every head sits on the emitter, a square of side 2 facing +X.
    for c in centres(&b[0]) {
        assert!(c.iter().all(|x| x.abs() < 1e-5), "{c:?}");
    }
    let xs: Vec<f32> = b[0].vertices.iter().map(|v| v.position[0]).collect();
    assert!(xs.iter().all(|x| x.abs() < 1e-5));
    let ys: Vec<f32> = b[0].vertices.iter().map(|v| v.position[1]).collect();
    assert_eq!(ys.iter().cloned().fold(f32::MIN, f32::max), 1.0);
    assert_eq!(ys.iter().cloned().fold(f32::MAX, f32::min), -1.0);
    assert_eq!(b[0].texture_id, 0);
    assert_eq!(b[0].blend, Blend::Blend);
    assert!(b[0].vertices.iter().all(|v| v.color == [1.0; 4]));
}

#[test]
fn particles_fly_up_the_node_z_axis_at_their_speed() {
    let m = model(10.0, 1.0, 10.0);
    let b = run(&m, 500.0);
    // Born at 0.1, 0.2, ... 0.5 s, so 0.4 ... 0 s old: 4, 3, 2, 1, 0 units up.
    let mut heights: Vec<f32> = centres(&b[0]).iter().map(|c| c[2]).collect();
    heights.sort_by(f32::total_cmp);
    for (h, want) in heights.iter().zip([0.0, 1.0, 2.0, 3.0, 4.0]) {
        assert!((h - want).abs() < 1e-3, "{heights:?}");
    }
}

#[test]
fn gravity_pulls_down_about_half_g_t_squared() {
    let mut m = model(10.0, 1.0, 0.0);
    m.particle_emitters2[0].gravity = 100.0;
    let b = run(&m, 500.0);
    let lowest = centres(&b[0]).iter().map(|c| c[2]).fold(f32::MAX, f32::min);
    // The oldest is 0.4 s old: g t^2 / 2 = 8 units down; fixed steps of 1/30 s overshoot
    // that by a step's worth (t + h instead of t), within 10 %.
    assert!(lowest < -8.0 && lowest > -8.8, "{lowest}");
}

#[test]
fn colours_are_read_in_stored_order_and_blend_through_the_middle() {
    let mut m = model(10.0, 1.0, 0.0);
    let e = &mut m.particle_emitters2[0];
    e.segment_colors = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    e.segment_alphas = [0, 255, 0];
    e.time = 0.5;
    // At 0.5 s ages are 0.4, 0.3, 0.2, 0.1, 0: the youngest is at its start colour (red,
    // stored first: see the module docs of `particles2`) and transparent; the oldest 4/5 of
    // the way to the middle (green).
    let b = run(&m, 500.0);
    let mut colors: Vec<[f32; 4]> = b[0].vertices.chunks(6).map(|q| q[0].color).collect();
    colors.sort_by(|a, b| a[3].total_cmp(&b[3]));
    assert_eq!(colors[0], [1.0, 0.0, 0.0, 0.0]);
    let old = colors[4];
    let want = [0.2, 0.8, 0.0, 0.8];
    assert!((0..4).all(|k| (old[k] - want[k]).abs() < 1e-4), "{old:?}");
}

#[test]
fn invisible_emitters_emit_nothing() {
    let mut m = model(10.0, 1.0, 0.0);
    m.particle_emitters2[0].tracks = Tracks(vec![Animation {
        tag: KP2V,
        track: float_track(&[(0, 0.0)]),
    }]);
    m.sequences = vec![Sequence {
        interval: [0, 5000],
        ..Default::default()
    }];
    let b = simulate(&m, &Skeleton::new(&m), Some(0), 2000.0, &camera());
    assert!(b.is_empty());
}

/// A model that exercises the random stream and the animated fields: spread, latitude,
/// variation, gravity and an emission rate that changes.
fn busy_model() -> Model {
    let mut m = model(40.0, 1.5, 50.0);
    let e = &mut m.particle_emitters2[0];
    e.length = 20.0;
    e.width = 10.0;
    e.latitude = 30.0;
    e.variation = 0.3;
    e.head_or_tail = 2;
    e.tail_length = 0.1;
    e.tracks = Tracks(vec![
        Animation {
            tag: KP2E,
            track: float_track(&[(0, 40.0), (1500, 5.0), (3000, 80.0)]),
        },
        Animation {
            tag: KP2G,
            track: float_track(&[(0, 0.0), (2000, 30.0)]),
        },
        Animation {
            tag: KP2L,
            track: float_track(&[(0, 10.0), (2500, 60.0)]),
        },
        Animation {
            tag: KP2S,
            track: float_track(&[(0, 50.0)]),
        },
    ]);
    m.sequences = vec![Sequence {
        interval: [0, 4000],
        ..Default::default()
    }];
    m
}

#[test]
fn the_same_arguments_give_the_same_triangles() {
    let m = busy_model();
    let s = Skeleton::new(&m);
    for t in [0.0, 10.0, 777.7, 3500.0, 9000.0] {
        let a = simulate(&m, &s, Some(0), t, &camera());
        let b = simulate(&m, &Skeleton::new(&m), Some(0), t, &camera());
        assert_eq!(a, b, "at {t} ms");
    }
    assert!(!simulate(&m, &s, Some(0), 3500.0, &camera())[0]
        .vertices
        .is_empty());
}

#[test]
fn skipping_what_has_died_changes_nothing() {
    // 9 s with particles of 1.5 s: only the last 1.5 s (and a step) are simulated in
    // full; the result must equal a full simulation from the start.
    let m = busy_model();
    let s = Skeleton::new(&m);
    for t in [9000.0, 12_345.6] {
        let windowed = run_steps(&m, &s, Some(0), t, &camera(), false);
        let full = run_steps(&m, &s, Some(0), t, &camera(), true);
        assert_eq!(windowed, full, "at {t} ms");
        assert!(!full.is_empty());
    }
}

#[test]
fn a_squirt_bears_each_key_value_at_once() {
    let mut m = model(0.0, 10.0, 0.0);
    m.particle_emitters2[0].squirt = 1;
    m.particle_emitters2[0].tracks = Tracks(vec![Animation {
        tag: KP2E,
        // 7 at 100 ms; 3 and 4 at 500 and 510 ms, inside one step of 1/30 s; 5 at 900 ms.
        track: float_track(&[
            (0, 0.0),
            (100, 7.0),
            (200, 0.0),
            (500, 3.0),
            (510, 4.0),
            (600, 0.0),
            (900, 5.0),
        ]),
    }]);
    m.sequences = vec![Sequence {
        interval: [0, 2000],
        ..Default::default()
    }];
    let s = Skeleton::new(&m);
    let count = |t: f64| {
        simulate(&m, &s, Some(0), t, &camera())
            .first()
            .map_or(0, |b| b.vertices.len() / 6)
    };
    assert_eq!(count(50.0), 0);
    assert_eq!(count(150.0), 7);
    assert_eq!(count(520.0), 14);
    assert_eq!(count(1000.0), 19);
}

#[test]
fn the_particle_cap_holds() {
    let m = model(1_000_000.0, 1.0, 0.0);
    let b = run(&m, 1000.0);
    assert_eq!(b[0].vertices.len(), MAX_PARTICLES * 6);
}

/// A ribbon emitter on a node that moves along +X at 100 units a second, leaving 30
/// points a second for a second, 10 above and 5 below along node Y.
fn ribbon_model(visible: Option<&[(i32, f32)]>) -> Model {
    let mover = Node {
        object_id: 0,
        parent_id: -1,
        tracks: Tracks(vec![Animation {
            tag: KGTR,
            track: AnyTrack::Vector3(Track {
                interpolation: Interpolation::Linear,
                global_sequence_id: -1,
                keys: vec![Key::at(0, [0.0; 3]), Key::at(10_000, [1000.0, 0.0, 0.0])],
            }),
        }]),
        ..Default::default()
    };
    let mut tracks = Vec::new();
    if let Some(keys) = visible {
        tracks.push(Animation {
            tag: KRVS,
            track: float_track(keys),
        });
    }
    let ribbon = RibbonEmitter {
        node: Node {
            object_id: 1,
            parent_id: 0,
            ..Default::default()
        },
        height_above: 10.0,
        height_below: 5.0,
        alpha: 1.0,
        color: [0.0, 0.5, 1.0],
        life_span: 1.0,
        emission_rate: 30,
        rows: 1,
        columns: 1,
        material_id: -1,
        tracks: Tracks(tracks),
        ..Default::default()
    };
    Model {
        bones: vec![Bone {
            node: mover,
            ..Default::default()
        }],
        ribbon_emitters: vec![ribbon],
        pivot_points: vec![[0.0; 3], [0.0; 3]],
        sequences: vec![Sequence {
            interval: [0, 10_000],
            ..Default::default()
        }],
        ..Default::default()
    }
}

#[test]
fn a_ribbon_trails_its_node_for_its_life_span() {
    let m = ribbon_model(None);
    let b = simulate(&m, &Skeleton::new(&m), Some(0), 2000.0, &camera());
    assert_eq!(b.len(), 1);
    // Points born at steps 31..=60 (1.033 .. 2 s) live: 30 points, 29 quads.
    assert_eq!(b[0].vertices.len(), 29 * 6);
    let xs: Vec<f32> = b[0].vertices.iter().map(|v| v.position[0]).collect();
    let (lo, hi) = (
        xs.iter().cloned().fold(f32::MAX, f32::min),
        xs.iter().cloned().fold(f32::MIN, f32::max),
    );
    assert!(
        (hi - 200.0).abs() < 1e-2 && (lo - 103.333).abs() < 1e-2,
        "{lo} {hi}"
    );
    let ys: Vec<f32> = b[0].vertices.iter().map(|v| v.position[1]).collect();
    assert!(ys.iter().all(|&y| y == 10.0 || y == -5.0));
    // Colour as stored: red, green, blue (see the module docs of `ribbons`).
    assert_eq!(b[0].vertices[0].color, [0.0, 0.5, 1.0, 1.0]);
    // The newest end is at u = 0, the oldest at u = 1.
    let newest = b[0]
        .vertices
        .iter()
        .find(|v| (v.position[0] - 200.0).abs() < 1e-2)
        .unwrap();
    assert!(newest.uv[0].abs() < 1e-6);
    let oldest = b[0]
        .vertices
        .iter()
        .find(|v| (v.position[0] - 103.333).abs() < 1e-2)
        .unwrap();
    assert!((oldest.uv[0] - 1.0).abs() < 1e-6);
}

#[test]
fn hiding_a_ribbon_cuts_it_in_two() {
    // Hidden from 1.5 s to 1.7 s: two ribbons, no quad across the gap.
    let m = ribbon_model(Some(&[(0, 1.0), (1500, 0.0), (1700, 1.0)]));
    let b = simulate(&m, &Skeleton::new(&m), Some(0), 2000.0, &camera());
    let xs: Vec<f32> = b[0].vertices.iter().map(|v| v.position[0]).collect();
    assert!(xs.iter().all(|&x| !(150.5..169.5).contains(&x)), "{xs:?}");
    assert!(xs.iter().any(|&x| x > 190.0) && xs.iter().any(|&x| x < 140.0));
}

/// Where the corpus copies are (`MDLX_EFFECTS_CORPUS`, else the local notes folder).
fn corpus_dir() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("MDLX_EFFECTS_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| "/work/notes/bothread".into());
    dir.is_dir().then_some(dir)
}

#[test]
fn every_corpus_model_simulates() {
    let Some(dir) = corpus_dir() else {
        eprintln!("no corpus directory; skipped");
        return;
    };
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("mdx")))
        .collect();
    paths.sort();
    let (mut models, mut with_effects, mut drawn) = (0, 0, 0);
    let mut slowest = (0.0f64, String::new());
    for p in &paths {
        let Ok(bytes) = std::fs::read(p) else {
            continue;
        };
        let Ok(m) = crate::mdx::from_bytes(&bytes) else {
            continue;
        };
        models += 1;
        if m.particle_emitters2.is_empty() && m.ribbon_emitters.is_empty() {
            continue;
        }
        with_effects += 1;
        let s = Skeleton::new(&m);
        let seq = (!m.sequences.is_empty()).then_some(0);
        let started = std::time::Instant::now();
        let b = simulate(&m, &s, seq, 1000.0, &camera());
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let tris: usize = b.iter().map(|b| b.vertices.len() / 3).sum();
        drawn += usize::from(tris > 0);
        // Twice, the same triangles.
        assert_eq!(
            b,
            simulate(&m, &s, seq, 1000.0, &camera()),
            "{}",
            p.display()
        );
        for v in b.iter().flat_map(|b| &b.vertices) {
            assert!(v.position.iter().all(|x| x.is_finite()), "{}", p.display());
        }
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        println!(
            "{name}: {} PRE2, {} RIBB: {} batches, {tris} triangles, {ms:.2} ms",
            m.particle_emitters2.len(),
            m.ribbon_emitters.len(),
            b.len()
        );
        if ms > slowest.0 {
            slowest = (ms, name);
        }
    }
    println!(
        "{models} models read, {with_effects} with effects, {drawn} drew; slowest {:.2} ms ({})",
        slowest.0, slowest.1
    );
    assert!(models > 0);
    // Effects are made to be seen: most effect models show something in the first second
    // of their first sequence (the rest wait for a later key, or squirt later).
    assert!(
        drawn * 2 > with_effects,
        "{drawn} of {with_effects} drew anything"
    );
}

#[test]
fn texture_cells_walk_the_life_span_interval() {
    let mut m = model(10.0, 1.0, 0.0);
    let e = &mut m.particle_emitters2[0];
    (e.rows, e.columns) = (4, 4);
    e.head_intervals = [0, 3, 1];
    e.head_decay_intervals = [4, 7, 1];
    // At 0.5 s the ages 0.4 ... 0 are 0.8, 0.6, 0.4, 0.2, 0 of the way to the middle
    // time (0.5 of the life): cells floor(4 x that) = 3, 2, 1, 0, 0 of the top row.
    let b = run(&m, 500.0);
    let mut lefts: Vec<f32> = b[0]
        .vertices
        .chunks(6)
        .map(|q| q.iter().map(|v| v.uv[0]).fold(f32::MAX, f32::min))
        .collect();
    lefts.sort_by(f32::total_cmp);
    assert_eq!(lefts, [0.0, 0.0, 0.25, 0.5, 0.75]);
    for q in b[0].vertices.chunks(6) {
        let vs: Vec<f32> = q.iter().map(|v| v.uv[1]).collect();
        assert!(vs.iter().all(|&v| v == 0.0 || v == 0.25), "{vs:?}");
    }
    // At 1.5 s ages are 0, 0.1, ... 0.9 s; in the decay half, age 0.9 is 0.8 of the way
    // through it, cell 4 + floor(4 x 0.8) = 7, second row, last column.
    let b = run(&m, 1500.0);
    let has_cell_7 = b[0].vertices.chunks(6).any(|q| {
        let u = q.iter().map(|v| v.uv[0]).fold(f32::MAX, f32::min);
        let v = q.iter().map(|v| v.uv[1]).fold(f32::MAX, f32::min);
        u == 0.75 && v == 0.25
    });
    assert!(has_cell_7);
}

#[test]
fn tails_trail_behind_along_the_velocity() {
    let mut m = model(10.0, 1.0, 10.0);
    let e = &mut m.particle_emitters2[0];
    e.head_or_tail = 1;
    e.tail_length = 0.5;
    // Flying up at 10 a second, a tail is 10 x 0.5 = 5 long behind the particle, and
    // (seen from +X) 2 wide along Y.
    let b = run(&m, 500.0);
    assert_eq!(b[0].vertices.len(), 5 * 6);
    for q in b[0].vertices.chunks(6) {
        let span = |k: usize| {
            let xs = q.iter().map(|v| v.position[k]);
            xs.clone().fold(f32::MIN, f32::max) - xs.fold(f32::MAX, f32::min)
        };
        assert!((span(2) - 5.0).abs() < 1e-4 && (span(1) - 2.0).abs() < 1e-5 && span(0) < 1e-5);
    }
}

#[test]
fn xy_quads_lie_flat() {
    let mut m = model(10.0, 1.0, 10.0);
    m.particle_emitters2[0].node.flags |= 0x100000;
    let b = run(&m, 500.0);
    for q in b[0].vertices.chunks(6) {
        assert!(q.iter().all(|v| v.position[2] == q[0].position[2]));
    }
}

#[test]
fn model_space_particles_follow_their_node() {
    let build = |model_space: bool| {
        let mut m = model(10.0, 1.0, 0.0);
        m.bones[0].node.tracks = Tracks(vec![Animation {
            tag: KGTR,
            track: AnyTrack::Vector3(Track {
                interpolation: Interpolation::Linear,
                global_sequence_id: -1,
                keys: vec![Key::at(0, [0.0; 3]), Key::at(1000, [100.0, 0.0, 0.0])],
            }),
        }]);
        if model_space {
            m.particle_emitters2[0].node.flags |= 0x80000;
        }
        m.sequences = vec![Sequence {
            interval: [0, 1000],
            ..Default::default()
        }];
        m
    };
    // The node moves 100 a second along X: particles born at 0.1 ... 0.5 s stay where
    // they were born, 10 ... 50; in model space they are all where the node is now, 50.
    let xs = |m: &Model| {
        let b = simulate(m, &Skeleton::new(m), Some(0), 500.0, &camera());
        let mut xs: Vec<f32> = centres(&b[0]).iter().map(|c| c[0]).collect();
        xs.sort_by(f32::total_cmp);
        xs
    };
    let world = xs(&build(false));
    for (x, want) in world.iter().zip([10.0, 20.0, 30.0, 40.0, 50.0]) {
        assert!((x - want).abs() < 1e-3, "{world:?}");
    }
    assert!(xs(&build(true)).iter().all(|x| (x - 50.0).abs() < 1e-3));
}
