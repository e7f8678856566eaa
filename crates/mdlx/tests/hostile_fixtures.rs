//! Hostile inputs kept as fixtures, each with its expected outcome.
//!
//! Every `hostile/NAME.mdx` / `hostile/NAME.mdl` (made by `hostile/make.py` from the bundled
//! cube, or written by hand) is read; the outcome, an error rendered with its location or
//! `ok` with what else was checked, must equal `hostile/NAME.mdx.expected` (or `.mdl.expected`). `BLESS=1` rewrites
//! the expected files (read the diff before committing). Inputs of megabytes are made here.
//!
//! For every input: no panic, done in under a second, and the allocation peak (counting
//! allocator) under the input's size plus 64 MiB.

mod common;
#[path = "common/counting.rs"]
mod counting;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const MEMORY_SLACK: usize = 64 << 20;

/// Reads `data` as `name` says (extension), with the checks every input gets, and returns the
/// outcome text. The caller holds [`counting::serial`]. The memory bound applies to reading; the write-back checks that follow a
/// successful read hold the model, the text and a second model at once and are not counted.
fn outcome(name: &str, data: &[u8]) -> String {
    let started = Instant::now();
    let (read, peak) =
        counting::peak_during(|| catch_unwind(AssertUnwindSafe(|| read(name, data))));
    let read = read.unwrap_or_else(|_| panic!("{name}: the reader panicked"));
    assert!(
        peak < data.len() + MEMORY_SLACK,
        "{name}: peak allocation {peak} bytes while reading {} input bytes",
        data.len()
    );
    let text = catch_unwind(AssertUnwindSafe(|| check(name, data, read)))
        .unwrap_or_else(|_| panic!("{name}: writing back panicked or differed"));
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(1),
        "{name}: took {took:?} (limit 1 s)"
    );
    text
}

/// What reading gave.
enum Read {
    Mdx(Result<mdlx::Model, mdlx::mdx::MdxError>),
    Mdl(Result<(mdlx::Model, Vec<mdlx::mdl::Diagnostic>), mdlx::mdl::MdlErrors>),
}

fn read(name: &str, data: &[u8]) -> Read {
    if name.ends_with(".mdx") {
        Read::Mdx(mdlx::mdx::from_bytes(data))
    } else {
        Read::Mdl(mdlx::mdl::from_bytes_with_warnings(data))
    }
}

/// The outcome text: the error as printed (MDX: offset and chunk path; MDL: `file:line:column`,
/// the line and a caret), or `ok` after checking the model writes back: MDX to the same bytes
/// directly and through MDL text; MDL to text that reads back to the same text.
fn check(name: &str, data: &[u8], read: Read) -> String {
    match read {
        Read::Mdx(Err(e)) => format!("error: {e}"),
        Read::Mdx(Ok(model)) => {
            let again = mdlx::mdx::to_bytes(&model).expect("a decoded model encodes");
            assert!(again == data, "decoded but re-encoded to other bytes");
            let text = mdlx::mdl::to_bytes(&model);
            let via = mdlx::mdl::from_bytes(&text).expect("the written MDL reads back");
            assert!(
                mdlx::mdx::to_bytes(&via).unwrap() == data,
                "MDX -> MDL -> MDX differs"
            );
            "ok: decodes; MDX and MDX -> MDL -> MDX write back byte-identical".to_string()
        }
        Read::Mdl(Err(e)) => format!("error:\n{}", e.render(data, name)),
        Read::Mdl(Ok((model, warnings))) => {
            // Compared as text, not as models: NaN (`1.#IND`) is not equal to itself.
            let text = mdlx::mdl::to_bytes(&model);
            let again = mdlx::mdl::from_bytes(&text).expect("the written MDL reads back");
            assert!(
                mdlx::mdl::to_bytes(&again) == text,
                "write -> read -> write changed the text"
            );
            let mut out = format!(
                "ok: reads; write -> read -> write gives the same text; {} warning(s)",
                warnings.len()
            );
            for w in &warnings {
                out.push('\n');
                out.push_str(&w.render(data, name));
            }
            out
        }
    }
}

#[test]
fn every_fixture_gives_its_expected_outcome() {
    // The allocation counters are global: no other test of this file may allocate while
    // this one measures, so each holds the lock from start to end.
    let _serial = counting::serial();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    let (mut errors, mut oks) = (0, 0);
    let (inputs, mismatches) = common::check_goldens(
        &dir,
        |p| p.extension().is_some_and(|e| e == "mdx" || e == "mdl"),
        |p| PathBuf::from(format!("{}.expected", p.display())),
        |name, data| {
            let got = outcome(name, data);
            if got.starts_with("error") {
                errors += 1;
            } else {
                oks += 1;
            }
            got
        },
    );
    println!(
        "hostile fixtures: {inputs} inputs ({errors} refused with an error, {oks} read and checked), {} mismatches",
        mismatches.len()
    );
    assert!(inputs >= 25, "fixtures missing: run hostile/make.py");
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// The MDX with the cube's version chunk followed by `n` empty chunks of an unknown tag:
/// chunks that do not advance the reader past their header.
fn empty_chunks(n: usize) -> Vec<u8> {
    let cube = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/cube.mdx"))
        .unwrap();
    let mut data = cube[..16].to_vec(); // MDLX + VERS chunk
    for _ in 0..n {
        data.extend_from_slice(b"XXXX\0\0\0\0");
    }
    data.extend_from_slice(&cube[16..]);
    data
}

/// Large inputs, made here: each with its expected outcome.
#[test]
fn multi_megabyte_inputs() {
    // The allocation counters are global: no other test of this file may allocate while
    // this one measures, so each holds the lock from start to end.
    let _serial = counting::serial();
    // 200,000 empty unknown chunks (1.6 MB): all kept, in place.
    let data = empty_chunks(200_000);
    let got = outcome("empty_chunks.mdx", &data);
    assert!(got.starts_with("ok"), "{got}");

    // An 8 MB quoted name: read (the MDL model holds it); MDX cannot hold it, which the
    // writer says.
    let mut src = b"Version {\n\tFormatVersion 800,\n}\nModel \"".to_vec();
    src.extend(std::iter::repeat_n(b'n', 8 << 20));
    src.extend_from_slice(b"\" {\n}\n");
    let got = outcome("long_name.mdl", &src);
    assert!(got.starts_with("ok"), "{}", &got[..200.min(got.len())]);
    let model = mdlx::mdl::from_bytes(&src).unwrap();
    let e = mdlx::mdx::to_bytes(&model).unwrap_err().to_string();
    assert_eq!(
        e,
        "cannot write: model name is 8388608 bytes long; the field holds 80 (at offset 0x18)"
    );

    // An 8 MB number: one error with a short excerpt.
    let mut src = b"Version {\n\tFormatVersion 800,\n}\nModel \"x\" {\n\tBlendTime ".to_vec();
    src.extend(std::iter::repeat_n(b'9', 8 << 20));
    src.extend_from_slice(b",\n}\n");
    let got = outcome("long_number.mdl", &src);
    assert!(
        got.starts_with("error:\nerror: "),
        "{}",
        &got[..200.min(got.len())]
    );
    assert!(got.contains("long_number.mdl:5:12"), "{got}");
    assert!(got.len() < 1000, "the message is {} bytes", got.len());

    // 8 MB of comment lines, then a model.
    let mut src = Vec::new();
    while src.len() < 8 << 20 {
        src.extend_from_slice(b"// a comment line that goes on for a while, and then some more\n");
    }
    src.extend_from_slice(b"Version {\n\tFormatVersion 800,\n}\nModel \"x\" {\n}\n");
    let got = outcome("comments.mdl", &src);
    assert!(got.starts_with("ok"), "{got}");

    // 8 MB of binary noise named .mdl: one error, where the noise starts.
    let mut src = b"Version {\n\tFormatVersion 800,\n}\n".to_vec();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    while src.len() < 8 << 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        src.push(x as u8);
    }
    let got = outcome("noise.mdl", &src);
    assert!(
        got.starts_with("error:\nerror: "),
        "{}",
        &got[..300.min(got.len())]
    );
    assert!(got.len() < 4000, "the message is {} bytes", got.len());
    println!("multi-megabyte inputs: 200,000 empty chunks, an 8 MB name, an 8 MB number, 8 MB of comments, 8 MB of noise: all within 1 s and 64 MiB");
}

/// The Milkshape fixtures (`ms3d_errors/`, whose messages `tests/ms3d_errors.rs` checks
/// against goldens) under the same bounds: no panic, under a second, memory within the
/// input's size plus 64 MiB, and the same outcome as that test expects (an error for every
/// fixture but the one valid file).
#[test]
fn milkshape_fixtures_stay_within_bounds() {
    // The allocation counters are global: no other test of this file may allocate while
    // this one measures, so each holds the lock from start to end.
    let _serial = counting::serial();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ms3d_errors");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    inputs.sort();
    let mut errors = 0;
    for path in &inputs {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let data = std::fs::read(path).unwrap();
        let started = Instant::now();
        let (read, peak) = counting::peak_during(|| {
            catch_unwind(AssertUnwindSafe(|| mdlx::ms3d::from_bytes(&data)))
        });
        let read = read.unwrap_or_else(|_| panic!("{name}: the reader panicked"));
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{name}: too slow"
        );
        assert!(peak < data.len() + MEMORY_SLACK, "{name}: peak {peak}");
        let golden = std::fs::read_to_string(path.with_extension("stderr")).unwrap();
        assert_eq!(read.is_err(), golden.starts_with("error"), "{name}");
        errors += usize::from(read.is_err());
    }
    println!(
        "Milkshape fixtures: {} inputs ({errors} refused with an error), all within 1 s and input + 64 MiB",
        inputs.len()
    );
    assert!(inputs.len() >= 20);
}

/// The WoW alpha reader on the boar cut at every 61st byte and with 300 random byte flips:
/// no panic, under a second each, and allocation within the input's size plus 64 MiB
/// (tests/alpha.rs checks the errors' offsets).
#[test]
fn alpha_inputs_stay_within_bounds() {
    // The allocation counters are global: no other test of this file may allocate while
    // this one measures, so each holds the lock from start to end.
    let _serial = counting::serial();
    let boar = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/mdx/GrenderG__MDX-Parser__MDXParser__Files__Boar.mdx");
    let data = std::fs::read(boar).unwrap();
    let mut inputs: Vec<Vec<u8>> = (0..data.len())
        .step_by(61)
        .map(|n| data[..n].to_vec())
        .collect();
    let mut x = 0x1234_5678_9abc_def1u64;
    for _ in 0..300 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut d = data.clone();
        let at = (x as usize) % d.len();
        d[at] ^= (x >> 32) as u8 | 1;
        inputs.push(d);
    }
    let (mut decoded, mut worst) = (0, 0usize);
    for (i, input) in inputs.iter().enumerate() {
        let started = Instant::now();
        let (read, peak) = counting::peak_during(|| {
            catch_unwind(AssertUnwindSafe(|| {
                mdlx::alpha::from_bytes(input).map(|a| a.to_model())
            }))
        });
        let read = read.unwrap_or_else(|_| panic!("input {i}: the alpha reader panicked"));
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "input {i}: too slow"
        );
        assert!(peak < input.len() + MEMORY_SLACK, "input {i}: peak {peak}");
        worst = worst.max(peak);
        decoded += usize::from(read.is_ok());
    }
    println!(
        "alpha: {} cut or flipped boars ({decoded} still decode), all within 1 s; largest allocation peak {} KiB for a {} KiB file",
        inputs.len(),
        worst / 1024,
        data.len() / 1024
    );
}
