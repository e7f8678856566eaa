//! The animation engine over every classic and Reforged corpus MDX: every sequence posed
//! and skinned at its start, middle and end without a panic, and, for the models whose
//! first animated frame is the bind pose, skinned vertices equal to the stored ones.

mod common;

use mdlx::anim::math::{qdot, QUAT_IDENTITY};
use mdlx::anim::{posed_geosets, AnimTime, Clock, Skeleton};
use mdlx::spec::track::{KGRT, KGSC, KGTR};
use mdlx::Model;

/// The time of the first node key inside sequence 0, as elapsed ms (0 if it has none).
fn first_key_elapsed(m: &Model) -> f64 {
    let Some(s) = m.sequences.first() else {
        return 0.0;
    };
    let (lo, hi) = (s.interval[0] as i64, s.interval[1] as i64);
    let mut first = None::<i64>;
    for n in m.nodes() {
        for a in n.tracks.iter() {
            if ![KGTR, KGRT, KGSC].contains(&a.tag) {
                continue;
            }
            let times: Vec<i64> = match &a.track {
                mdlx::model::AnyTrack::Vector3(t) => t.keys.iter().map(|k| k.time as i64).collect(),
                mdlx::model::AnyTrack::Quaternion(t) => {
                    t.keys.iter().map(|k| k.time as i64).collect()
                }
                _ => Vec::new(),
            };
            for t in times.into_iter().filter(|t| (lo..=hi).contains(t)) {
                first = Some(first.map_or(t, |f| f.min(t)));
            }
        }
    }
    first.map_or(0.0, |t| (t - lo) as f64)
}

/// Whether every node's own transform at `clock` is the identity (within 1e-5): the
/// model stands in its bind pose.
fn is_bind_pose(m: &Model, clock: &Clock) -> bool {
    m.nodes().all(|n| {
        let t = clock.sample(n.tracks.vector3(KGTR), [0.0; 3]);
        let r = clock.sample(n.tracks.quaternion(KGRT), QUAT_IDENTITY);
        let s = clock.sample(n.tracks.vector3(KGSC), [1.0; 3]);
        let len = qdot(r, r).sqrt();
        t.iter().all(|x| x.abs() < 1e-5)
            && s.iter().all(|x| (x - 1.0).abs() < 1e-5)
            && len > 0.0
            && (r[3].abs() / len - 1.0).abs() < 1e-5
    })
}

#[test]
fn every_sequence_poses_and_skins_and_bind_frames_match_the_stored_vertices() {
    let (mut files, mut poses, mut non_finite_models) = (0, 0, Vec::new());
    let (mut bind_models, mut bind_vertices, mut not_bind) = (0, 0usize, 0);
    let mut worst = 0.0f32;
    for path in common::corpus_mdx() {
        let data = std::fs::read(&path).unwrap();
        let Ok(model) = mdlx::mdx::from_bytes(&data) else {
            continue; // the WoW alpha boar, read in its own issue
        };
        files += 1;
        let skeleton = Skeleton::new(&model);
        let mut finite = true;
        for (i, s) in model.sequences.iter().enumerate() {
            let len = f64::from(s.interval[1].saturating_sub(s.interval[0]));
            for elapsed in [0.0, len / 2.0, len] {
                let at = AnimTime::new(Some(i), elapsed);
                let pose = skeleton.pose(at, Some([1.0, 0.0, -0.5]));
                let geosets = posed_geosets(&model, &skeleton, &pose, &skeleton.clock(at));
                finite &= pose
                    .nodes
                    .iter()
                    .all(|n| n.world.iter().all(|x| x.is_finite()))
                    && geosets
                        .iter()
                        .all(|g| g.positions.iter().flatten().all(|x| x.is_finite()));
                poses += 1;
            }
        }
        if !finite {
            non_finite_models.push(common::name(&path));
        }

        // The bind-pose check, at the first key of the first sequence.
        if model.sequences.is_empty() || model.geosets.is_empty() {
            continue;
        }
        let at = AnimTime::new(Some(0), first_key_elapsed(&model));
        let clock = skeleton.clock(at);
        if !is_bind_pose(&model, &clock) {
            not_bind += 1;
            continue;
        }
        bind_models += 1;
        let pose = skeleton.pose(at, None);
        for g in posed_geosets(&model, &skeleton, &pose, &clock) {
            let stored = &model.geosets[g.index].vertices;
            for (p, s) in g.positions.iter().zip(stored) {
                let d = (0..3).map(|k| (p[k] - s[k]).abs()).fold(0.0, f32::max);
                if d.is_finite() {
                    worst = worst.max(d);
                }
                assert!(
                    d < 1e-4 || !d.is_finite(),
                    "{}: geoset {} vertex moved by {d} in the bind frame",
                    common::name(&path),
                    g.index
                );
                bind_vertices += 1;
            }
        }
    }
    println!(
        "animation over the corpus: {files} models, {poses} poses (every sequence at start, middle, end) skinned without a panic; {} model(s) with non-finite values from their own data: {non_finite_models:?}",
        non_finite_models.len()
    );
    println!(
        "bind frame: {bind_models} models stand in their bind pose at the first key of their first sequence; {bind_vertices} skinned vertices all within 1e-4 of the stored ones (worst {worst:e}); {not_bind} models start in another pose"
    );
    assert!(files >= 545);
    assert!(bind_models >= 50, "only {bind_models} bind-pose models");
}
