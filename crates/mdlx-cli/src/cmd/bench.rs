//! `mdlx bench DIR REPEAT`: reads every .mdx and .mdl under DIR into memory, then times
//! decoding and encoding REPEAT times, printing the same lines as the peer wrappers of
//! `../shared/peers` so that `run-all.sh` can put this tool in its table.

use anyhow::{bail, Result};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

struct Item {
    bytes: Vec<u8>,
    model: mdlx::Model,
}

/// Runs the verb.
pub fn run(dir: &Path, repeat: u32) -> Result<ExitCode> {
    if repeat == 0 {
        bail!("REPEAT must be a positive integer");
    }
    let files = crate::files::find(&[dir.to_path_buf()], &["mdx", "mdl"])?;
    let (mdx, mdl): (Vec<PathBuf>, Vec<PathBuf>) = files
        .into_iter()
        .partition(|f| crate::files::has_ext(f, &["mdx"]));
    println!(
        "# bench peer=mdlx lib=mdlx@{} dir={} repeat={repeat}",
        env!("CARGO_PKG_VERSION"),
        dir.display()
    );
    println!("# bytes = input file bytes x repeat; MB = 1e6 bytes; write MB/s uses the same input-byte count");
    let items = load_mdx(dir, &mdx);
    bench_mdx(&items, mdx.len() - items.len(), repeat);
    for f in &mdl {
        eprintln!(
            "skip MDL {}: reading MDL text is not supported yet",
            rel(dir, f)
        );
    }
    println!(
        "MDL files=0 skipped={} bytes_per_pass=0 repeat={repeat}",
        mdl.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn rel(dir: &Path, f: &Path) -> String {
    f.strip_prefix(dir).unwrap_or(f).display().to_string()
}

fn load_mdx(dir: &Path, files: &[PathBuf]) -> Vec<Item> {
    let mut items = Vec::new();
    for f in files {
        let bytes = match std::fs::read(f) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("skip MDX {}: read: {e}", rel(dir, f));
                continue;
            }
        };
        match mdlx::mdx::from_bytes(&bytes).and_then(|m| mdlx::mdx::to_bytes(&m).map(|_| m)) {
            Ok(model) => items.push(Item { bytes, model }),
            Err(e) => eprintln!("skip MDX {}: {e}", rel(dir, f)),
        }
    }
    items
}

fn bench_mdx(items: &[Item], skipped: usize, repeat: u32) {
    let per_pass: usize = items.iter().map(|i| i.bytes.len()).sum();
    println!(
        "MDX files={} skipped={skipped} bytes_per_pass={per_pass} repeat={repeat}",
        items.len()
    );
    if items.is_empty() {
        return;
    }
    let total = per_pass as f64 * f64::from(repeat);
    let t0 = Instant::now();
    for _ in 0..repeat {
        for it in items {
            black_box(mdlx::mdx::from_bytes(black_box(&it.bytes)).ok());
        }
    }
    let t = t0.elapsed().as_secs_f64();
    println!(
        "MDX parse bytes={total} seconds={t:.4} MB/s={:.2}",
        total / 1e6 / t
    );
    let mut out_bytes = 0usize;
    let t0 = Instant::now();
    for _ in 0..repeat {
        for it in items {
            out_bytes += mdlx::mdx::to_bytes(black_box(&it.model)).map_or(0, |b| b.len());
        }
    }
    let t = t0.elapsed().as_secs_f64();
    println!(
        "MDX write bytes={total} seconds={t:.4} MB/s={:.2} out_bytes={out_bytes}",
        total / 1e6 / t
    );
}
