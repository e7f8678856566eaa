//! Peak resident memory of `mdlx info` on every hostile fixture, on inputs of megabytes made
//! here, and on the largest corpus files. Each run reports its own peak (Linux
//! `VmHWM`); a run may use at most its input's size plus 64 MiB.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::Stdio;

const SLACK_KB: u64 = 64 * 1024;

/// Runs `mdlx info FILE` and returns (exit code, peak RSS in KiB). The peak is the one
/// `mdlx` reports for itself (`MDLX_REPORT_PEAK_RSS`, from Linux's `VmHWM`): what `wait4`
/// says about a child also counts the pages of the process that spawned it.
fn info_peak_rss(file: &Path) -> (i32, u64) {
    let out = command()
        .arg("info")
        .arg(file)
        .env("MDLX_REPORT_PEAK_RSS", "1")
        .stdout(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let kb = err
        .lines()
        .find_map(|l| l.strip_prefix("mdlx: peak resident memory: "))
        .and_then(|v| v.strip_suffix(" kB"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak reported by mdlx info {}: {err}", file.display()));
    (out.status.code().unwrap_or(-1), kb)
}

fn largest(dir: &Path, n: usize) -> Vec<PathBuf> {
    let mut v: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (std::fs::metadata(&p).unwrap().len(), p))
        .collect();
    v.sort();
    v.into_iter().rev().take(n).map(|(_, p)| p).collect()
}

#[test]
fn info_stays_within_input_size_plus_64_mib() {
    let tmp = temp_dir("rss");
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("crates/mdlx/tests/hostile"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mdx" || e == "mdl"))
        .collect();
    // The Milkshape fixtures, counts of 2^32-1 and counts larger than the file among them.
    files.extend(
        std::fs::read_dir(repo().join("crates/mdlx/tests/ms3d_errors"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt")),
    );
    files.sort();

    // Made here: 200,000 empty unknown chunks; an 8 MB name; 8 MB of binary noise as MDL;
    // a 16 MB MDL line of digits.
    let cube = std::fs::read(repo().join("examples/cube.mdx")).unwrap();
    let mut empty = cube[..16].to_vec();
    for _ in 0..200_000 {
        empty.extend_from_slice(b"XXXX\0\0\0\0");
    }
    empty.extend_from_slice(&cube[16..]);
    let head = b"Version {\n\tFormatVersion 800,\n}\n";
    let mut name = head.to_vec();
    name.extend_from_slice(b"Model \"");
    name.extend(std::iter::repeat_n(b'n', 8 << 20));
    name.extend_from_slice(b"\" {\n}\n");
    let mut noise = head.to_vec();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    while noise.len() < 8 << 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        noise.push(x as u8);
    }
    let mut digits = head.to_vec();
    digits.extend_from_slice(b"Model \"x\" {\n\tBlendTime ");
    digits.extend(std::iter::repeat_n(b'7', 16 << 20));
    digits.extend_from_slice(b",\n}\n");
    for (n, data) in [
        ("empty_chunks.mdx", &empty),
        ("long_name.mdl", &name),
        ("noise.mdl", &noise),
        ("long_line.mdl", &digits),
    ] {
        let p = tmp.join(n);
        std::fs::write(&p, data).unwrap();
        files.push(p);
    }
    let corpus = repo().join("../shared/corpus");
    files.extend(largest(&corpus.join("mdx"), 5));
    files.extend(largest(&corpus.join("mdl"), 3));

    let mut worst = 0i64;
    println!("peak RSS of `mdlx info` (KiB), input size (KiB), exit code:");
    for f in &files {
        let size_kb = std::fs::metadata(f).unwrap().len() / 1024;
        let (code, rss) = info_peak_rss(f);
        println!(
            "  {rss:>7} {size_kb:>7}  {code}  {}",
            f.file_name().unwrap().to_string_lossy()
        );
        assert!(
            code == 0 || code == 1,
            "{}: exit {code} (a crash?)",
            f.display()
        );
        assert!(
            rss <= size_kb + SLACK_KB,
            "{}: peak RSS {rss} KiB for {size_kb} KiB of input",
            f.display()
        );
        worst = worst.max(rss as i64 - size_kb as i64);
    }
    println!(
        "{} files; the most any used beyond its input: {worst} KiB (limit {SLACK_KB})",
        files.len()
    );
    let _ = std::fs::remove_dir_all(&tmp);
}
