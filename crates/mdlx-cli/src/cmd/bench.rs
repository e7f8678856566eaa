//! `mdlx bench DIR REPEAT`: reads every .mdx and .mdl under DIR into memory, then times
//! decoding and encoding REPEAT times, printing the same lines as the peer wrappers of
//! `../shared/peers` so that `run-all.sh` can put this tool in its table.

use anyhow::{bail, Result};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

struct Item<M> {
    bytes: Vec<u8>,
    model: M,
}

/// Runs the verb.
pub fn run(dir: &Path, repeat: u32) -> Result<ExitCode> {
    if repeat == 0 {
        bail!("REPEAT must be a positive integer");
    }
    let files = crate::files::find(&[dir.to_path_buf()], &["mdx", "mdl"], &[])?;
    let (mdx, mdl): (Vec<PathBuf>, Vec<PathBuf>) = files
        .into_iter()
        .partition(|f| crate::files::has_ext(f, &["mdx"]));
    println!(
        "# bench peer=mdlx lib=mdlx@{} dir={} repeat={repeat}",
        env!("CARGO_PKG_VERSION"),
        dir.display()
    );
    println!("# bytes = input file bytes x repeat; MB = 1e6 bytes; write MB/s uses the same input-byte count");
    let items = load(dir, &mdx, "MDX", mdlx::mdx::from_bytes, |m| {
        mdlx::mdx::to_bytes(m).map(|_| ())
    });
    let mdx_write = |m: &mdlx::Model| mdlx::mdx::to_bytes(m).map_or(0, |b| b.len());
    timed(
        "MDX",
        &items,
        mdx.len() - items.len(),
        repeat,
        |b| mdlx::mdx::from_bytes(b).is_ok(),
        mdx_write,
    );
    let items = load(dir, &mdl, "MDL", mdlx::mdl::from_bytes, |_| {
        Ok::<(), String>(())
    });
    let mdl_write = |m: &mdlx::Model| mdlx::mdl::to_vec(m).len();
    timed(
        "MDL",
        &items,
        mdl.len() - items.len(),
        repeat,
        |b| mdlx::mdl::from_bytes(b).is_ok(),
        mdl_write,
    );
    Ok(ExitCode::SUCCESS)
}

fn rel(dir: &Path, f: &Path) -> String {
    f.strip_prefix(dir).unwrap_or(f).display().to_string()
}

fn load<M, E: std::fmt::Display, F: std::fmt::Display>(
    dir: &Path,
    files: &[PathBuf],
    label: &str,
    parse: impl Fn(&[u8]) -> Result<M, E>,
    write: impl Fn(&M) -> Result<(), F>,
) -> Vec<Item<M>> {
    let mut items = Vec::new();
    for f in files {
        let bytes = match std::fs::read(f) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("skip {label} {}: read: {e}", rel(dir, f));
                continue;
            }
        };
        match parse(&bytes) {
            Ok(model) => match write(&model) {
                Ok(()) => items.push(Item { bytes, model }),
                Err(e) => eprintln!("skip {label} {}: {}", rel(dir, f), one_line(&e.to_string())),
            },
            Err(e) => eprintln!("skip {label} {}: {}", rel(dir, f), one_line(&e.to_string())),
        }
    }
    items
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn timed<M>(
    label: &str,
    items: &[Item<M>],
    skipped: usize,
    repeat: u32,
    parse: impl Fn(&[u8]) -> bool,
    write: impl Fn(&M) -> usize,
) {
    let per_pass: usize = items.iter().map(|i| i.bytes.len()).sum();
    println!(
        "{label} files={} skipped={skipped} bytes_per_pass={per_pass} repeat={repeat}",
        items.len()
    );
    if items.is_empty() {
        return;
    }
    let total = per_pass as f64 * f64::from(repeat);
    let t0 = Instant::now();
    for _ in 0..repeat {
        for it in items {
            black_box(parse(black_box(&it.bytes)));
        }
    }
    let t = t0.elapsed().as_secs_f64();
    println!(
        "{label} parse bytes={total} seconds={t:.4} MB/s={:.2}",
        total / 1e6 / t
    );
    let mut out_bytes = 0usize;
    let t0 = Instant::now();
    for _ in 0..repeat {
        for it in items {
            out_bytes += write(black_box(&it.model));
        }
    }
    let t = t0.elapsed().as_secs_f64();
    println!(
        "{label} write bytes={total} seconds={t:.4} MB/s={:.2} out_bytes={out_bytes}",
        total / 1e6 / t
    );
}
