//! Posing speed: every node of the corpus's largest model (by node count, and by file size)
//! at 1,000 times spread over its sequences, plus skinning every vertex once per time.

// criterion_group! and criterion_main! make functions without docs.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use mdlx::anim::{posed_geosets, AnimTime, Skeleton};
use mdlx::Model;
use std::path::Path;

/// The corpus models with the most nodes and the largest file.
fn largest() -> Vec<(String, Model)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/mdx");
    let models: Vec<(String, usize, Model)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let bytes = std::fs::read(e.path()).ok()?;
            let m = mdlx::mdx::from_bytes(&bytes).ok()?;
            Some((e.file_name().to_string_lossy().into_owned(), bytes.len(), m))
        })
        .collect();
    let most_nodes = models.iter().max_by_key(|(_, _, m)| m.nodes().count());
    let biggest = models.iter().max_by_key(|(_, len, _)| *len);
    let mut out: Vec<(String, Model)> = Vec::new();
    for (name, _, m) in most_nodes.into_iter().chain(biggest) {
        if !out.iter().any(|(n, _)| n == name) {
            out.push((name.clone(), m.clone()));
        }
    }
    out
}

/// 1,000 moments spread over all sequences.
fn moments(m: &Model) -> Vec<AnimTime> {
    let total: f64 = m
        .sequences
        .iter()
        .map(|s| f64::from(s.interval[1].saturating_sub(s.interval[0])))
        .sum::<f64>()
        .max(1.0);
    (0..1000)
        .map(|k| {
            let mut at = total * k as f64 / 1000.0;
            for (i, s) in m.sequences.iter().enumerate() {
                let len = f64::from(s.interval[1].saturating_sub(s.interval[0]));
                if at <= len {
                    return AnimTime::new(Some(i), at);
                }
                at -= len;
            }
            AnimTime::new(None, 0.0)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    for (name, model) in largest() {
        let times = moments(&model);
        let nodes = model.nodes().count();
        let vertices: usize = model.geosets.iter().map(|g| g.vertices.len()).sum();
        let mut group =
            c.benchmark_group(format!("pose {name} ({nodes} nodes, {vertices} vertices)"));
        group.sample_size(10);
        group.bench_function("1000 poses, all nodes", |b| {
            b.iter(|| {
                let skeleton = Skeleton::new(&model);
                times
                    .iter()
                    .map(|&t| skeleton.pose(t, None).nodes.len())
                    .sum::<usize>()
            })
        });
        group.bench_function("1000 poses + skinning every vertex", |b| {
            b.iter(|| {
                let skeleton = Skeleton::new(&model);
                times
                    .iter()
                    .map(|&t| {
                        let pose = skeleton.pose(t, None);
                        posed_geosets(&model, &skeleton, &pose, &skeleton.clock(t)).len()
                    })
                    .sum::<usize>()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
