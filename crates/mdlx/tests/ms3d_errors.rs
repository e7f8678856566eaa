//! Golden error messages for broken Milkshape 3D ASCII. Each `ms3d_errors/NAME.txt` has
//! its expected rendering in `ms3d_errors/NAME.stderr`; `BLESS=1 cargo test --test
//! ms3d_errors` rewrites the goldens (read the diff before committing). Huge inputs are
//! made here rather than stored.

mod common;

use mdlx::ms3d::{self, Ms3dErrorKind};
use std::path::Path;
use std::time::{Duration, Instant};

fn render(src: &[u8], name: &str) -> String {
    match ms3d::from_bytes(src) {
        Ok(_) => "ok".to_string(),
        Err(e) => e.render(name),
    }
}

#[test]
fn golden_error_messages() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ms3d_errors");
    let (files, mismatches) = common::check_goldens(
        &dir,
        |p| p.extension().is_some_and(|e| e == "txt"),
        |p| p.with_extension("stderr"),
        |name, src| render(src, name),
    );
    println!(
        "Milkshape error goldens: {files} files, {} mismatches",
        mismatches.len()
    );
    assert!(files >= 8);
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// Runs `f`, asserting it takes well under a second.
fn quickly<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    let took = t.elapsed();
    println!("{what}: {} ms", took.as_millis());
    assert!(took < Duration::from_millis(500), "{what} took {took:?}");
    out
}

#[test]
fn a_16_mb_single_line_is_a_short_error() {
    // A vertex line of four million fields.
    let mut src = b"Meshes: 1\n\"m\" 0 0\n1\n0".to_vec();
    src.extend(std::iter::repeat_n(b" 1.5".iter().copied(), 4 << 20).flatten());
    let e = quickly("16 MB vertex line", || ms3d::from_bytes(&src)).unwrap_err();
    let shown = e.render("long.txt");
    println!("{shown}");
    assert_eq!(e.line, 4);
    assert_eq!(
        e.kind,
        Ms3dErrorKind::FieldCount {
            expected: 7,
            found: (4 << 20) + 1
        }
    );
    assert!(
        shown.len() < 400,
        "the message must not quote the whole line"
    );

    // A block value of eight million digits, with no line end at all.
    let mut src = b"Frames: ".to_vec();
    src.extend(std::iter::repeat_n(b'7', 8 << 20));
    let e = quickly("8 MB number", || ms3d::from_bytes(&src)).unwrap_err();
    let shown = e.render("digits.txt");
    println!("{shown}");
    assert!(
        matches!(e.kind, Ms3dErrorKind::OutOfRange { .. }),
        "{shown}"
    );
    assert!(
        shown.len() < 400,
        "the message must not quote the whole number"
    );
}

#[test]
fn counts_larger_than_the_file_fail_fast() {
    let cases: [(&str, &[u8]); 4] = [
        ("meshes", b"Meshes: 2000000000\n\"m\" 0 0\n0\n0\n0\n"),
        ("vertices", b"Meshes: 1\n\"m\" 0 0\n18446744073709551615\n"),
        (
            "position keys",
            b"Bones: 1\n\"b\"\n\"\"\n0 0 0 0 0 0 0\n4294967295\n0\n",
        ),
        (
            "comments",
            b"GroupComments: 99999999999999999999999999999\n0\nhello\n",
        ),
    ];
    for (what, src) in cases {
        let e = quickly(what, || ms3d::from_bytes(src)).unwrap_err();
        println!("{}", e.render("huge.txt"));
        assert!(
            matches!(e.kind, Ms3dErrorKind::CountTooLarge { what: w, .. } if w == what),
            "{what}: {e:?}"
        );
    }
}

#[test]
fn many_lines_of_a_huge_count_fail_fast() {
    // The count comes first and one megabyte of lines follows: still too few.
    let mut src = b"Meshes: 1\n\"m\" 0 0\n4294967295\n".to_vec();
    src.extend(std::iter::repeat_n(b"0 0 0 0 0 0 -1\n".iter().copied(), 70_000).flatten());
    let e = quickly("1 MB file, 4294967295 vertices", || ms3d::from_bytes(&src)).unwrap_err();
    assert_eq!(
        e.render("big.txt"),
        "error: big.txt:3: 4294967295 vertices declared but only 70000 lines remain"
    );
}
