//! `mdlx bench DIR REPEAT`: reads every .mdx and .mdl under DIR into memory, then times
//! decoding and encoding REPEAT times, printing the same lines as the peer wrappers of
//! `../shared/peers` so that `run-all.sh` can put this tool in its table.
//!
//! Textures (.blp, .dds, .tga) under DIR are timed too: level 0 decoded to RGBA8 (`TEX
//! decode`, MB/s of file bytes), and those images encoded as BLP1 with every mip level
//! (`BLP encode jpeg80` and `BLP encode palette`, MB/s of RGBA bytes in).
//! `scripts/bench-textures.sh` runs it beside Pillow on the same files.

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
pub(crate) fn run(dir: &Path, repeat: u32) -> Result<ExitCode> {
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
    let mdl_write = |m: &mdlx::Model| mdlx::mdl::to_bytes(m).len();
    timed(
        "MDL",
        &items,
        mdl.len() - items.len(),
        repeat,
        |b| mdlx::mdl::from_bytes(b).is_ok(),
        mdl_write,
    );
    let textures = crate::files::find(&[dir.to_path_buf()], &["blp", "dds", "tga"], &[])?;
    if !textures.is_empty() {
        bench_textures(dir, &textures, repeat);
    }
    Ok(ExitCode::SUCCESS)
}

/// Times texture decoding (level 0) and BLP1 encoding of the decoded images.
fn bench_textures(dir: &Path, files: &[PathBuf], repeat: u32) {
    let mut items = Vec::new();
    for f in files {
        match std::fs::read(f).map_err(|e| e.to_string()).and_then(|b| {
            mdlx::texture::decode(&b)
                .map(|img| (b, img))
                .map_err(|e| e.to_string())
        }) {
            Ok(item) => items.push(item),
            Err(e) => eprintln!("skip TEX {}: {}", rel(dir, f), one_line(&e)),
        }
    }
    let per_pass: usize = items.iter().map(|(b, _)| b.len()).sum();
    let pixels: usize = items.iter().map(|(_, i)| i.pixels.len()).sum();
    println!(
        "TEX files={} skipped={} bytes_per_pass={per_pass} rgba_bytes_per_pass={pixels} repeat={repeat}",
        items.len(),
        files.len() - items.len()
    );
    if items.is_empty() {
        return;
    }
    let total = per_pass as f64 * f64::from(repeat);
    let t0 = Instant::now();
    for _ in 0..repeat {
        for (bytes, _) in &items {
            black_box(mdlx::texture::decode(black_box(bytes)).is_ok());
        }
    }
    let t = t0.elapsed().as_secs_f64();
    println!(
        "TEX decode bytes={total} seconds={t:.4} MB/s={:.2} rgba_MB/s={:.2}",
        total / 1e6 / t,
        pixels as f64 * f64::from(repeat) / 1e6 / t
    );
    let rgba = pixels as f64 * f64::from(repeat);
    for (name, opts) in [
        ("jpeg80", mdlx::texture::BlpOptions::jpeg(80)),
        ("palette", mdlx::texture::BlpOptions::palette()),
    ] {
        let mut out_bytes = 0usize;
        let t0 = Instant::now();
        for _ in 0..repeat {
            for (_, image) in &items {
                out_bytes +=
                    mdlx::texture::blp1::to_bytes(black_box(image), &opts).map_or(0, |b| b.len());
            }
        }
        let t = t0.elapsed().as_secs_f64();
        println!(
            "BLP encode {name} rgba_bytes={rgba} seconds={t:.4} rgba_MB/s={:.2} out_bytes={out_bytes}",
            rgba / 1e6 / t
        );
    }
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
