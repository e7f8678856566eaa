//! Golden error messages for broken MDL. Each `mdl_errors/NAME.mdl` has its expected
//! rendering in `mdl_errors/NAME.stderr`; `BLESS=1 cargo test --test mdl_errors` rewrites
//! the goldens (read the diff before committing). Huge and deeply nested inputs are made
//! here rather than stored.

mod common;

use std::path::Path;
use std::time::Instant;

fn render(src: &[u8], name: &str) -> String {
    match mdlx::mdl::from_bytes_with_warnings(src) {
        Ok((_, warnings)) => {
            let w: Vec<String> = warnings.iter().map(|d| d.render(src, name)).collect();
            format!("ok\n{}", w.join("\n"))
        }
        Err(e) => e.render(src, name),
    }
}

#[test]
fn golden_error_messages() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mdl_errors");
    let (files, mismatches) = common::check_goldens(
        &dir,
        |p| p.extension().is_some_and(|e| e == "mdl"),
        |p| p.with_extension("stderr"),
        |name, src| render(src, name),
    );
    println!(
        "MDL error goldens: {files} files, {} mismatches",
        mismatches.len()
    );
    assert!(files >= 7);
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn a_100_mb_line_is_an_error_with_a_short_excerpt() {
    let mut src = b"Version {\n\tFormatVersion 800,\n}\nModel \"M\" {\n\tBlendTime ".to_vec();
    src.extend(std::iter::repeat_n(b'7', 100 << 20));
    src.extend_from_slice(b",\n}\n");
    let t = Instant::now();
    let e = mdlx::mdl::from_bytes(&src).unwrap_err();
    let shown = e.render(&src, "huge.mdl");
    println!(
        "100 MB line: {} ms, {} bytes of message",
        t.elapsed().as_millis(),
        shown.len()
    );
    assert!(
        shown.contains("huge.mdl:5:12"),
        "{}",
        &shown[..shown.len().min(500)]
    );
    assert!(
        shown.contains("7777777777777777777777777777777777777777... is out of range for BlendTime"),
        "{shown}"
    );
    assert!(
        shown.len() < 1000,
        "the message must not quote the whole line"
    );
}

#[test]
fn ten_thousand_nested_braces_are_an_error_not_a_crash() {
    let src = format!(
        "Version {{\n\tFormatVersion 800,\n}}\n{}{}",
        "{".repeat(10_000),
        "}".repeat(10_000)
    );
    let e = mdlx::mdl::from_bytes(src.as_bytes()).unwrap_err();
    let shown = e.render(src.as_bytes(), "deep.mdl");
    println!("nested braces: {}", shown.lines().next().unwrap());
    assert!(shown.contains("nested deeper than 64 levels"));
    assert!(shown.contains("deep.mdl:4:65"));
}
