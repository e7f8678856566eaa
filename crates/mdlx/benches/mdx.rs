//! MDX decode and encode throughput on a few corpus files of each version (criterion).
//! Side-by-side figures against the other tools come from `mdlx bench` under
//! `../shared/peers/run-all.sh`; this bench tracks our own speed between changes.

// criterion_group! and criterion_main! make functions without docs.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;

const FILES: &[&str] = &[
    "AMISD666__War3ModelView__testmodel__nwdg32.mdx",
    "AMISD666__War3ModelView__public__test_model.mdx",
    "Stan0033__War3-Model-Tuner__Team_Background.mdx",
];

fn corpus_files() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/mdx");
    let mut out: Vec<(String, Vec<u8>)> = FILES
        .iter()
        .filter_map(|f| std::fs::read(dir.join(f)).ok().map(|b| (f.to_string(), b)))
        .collect();
    // One Reforged file of each version, the largest of each.
    for version in [1000u32, 1100] {
        let best = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                std::fs::read(e.path())
                    .ok()
                    .map(|b| (e.file_name().to_string_lossy().into_owned(), b))
            })
            .filter(|(_, b)| {
                b.len() > 16 && b[8..12] == [4, 0, 0, 0] && b[12..16] == version.to_le_bytes()
            })
            .max_by_key(|(_, b)| b.len());
        out.extend(best);
    }
    out
}

fn bench(c: &mut Criterion) {
    let files = corpus_files();
    if files.is_empty() {
        eprintln!("corpus not found beside the repository; nothing to bench");
        return;
    }
    let mut g = c.benchmark_group("mdx");
    for (name, bytes) in &files {
        let short = &name[..name.len().min(40)];
        let model = mdlx::mdx::from_bytes(bytes).expect("corpus file decodes");
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(format!("decode {short}"), |b| {
            b.iter(|| mdlx::mdx::from_bytes(bytes).unwrap())
        });
        g.bench_function(format!("encode {short}"), |b| {
            b.iter(|| mdlx::mdx::to_bytes(&model).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
