//! Inputs the fuzzers (`fuzz/`) once broke, kept with the property each broke. Every file
//! in `fuzz_regressions/` is checked against all the fuzz properties: MDX files
//! (`*.mdx`) for decode, decode-encode identity and MDX -> MDL -> MDX identity; MDL files
//! (`*.mdl`) for parse and the parse-write-parse fixpoint.
//! - `mdx_via_mdl-quote-in-string.mdx`: a `"` inside a name was written raw, so the MDL
//!   did not read back. Now written as `'`, with the exact bytes in the extension block.
//! - `mdl_roundtrip-object-id-overflow.mdl`: `ObjectId -2` made the next free id overflow.
//! - `mdx_via_mdl-foreign-track-in-bone.mdx`: a bone holding a KGAC track; its raw-tag
//!   block `KGAC 3 { ... }` was refused when read back.

use std::path::Path;

fn check_mdx(name: &str, data: &[u8]) {
    let Ok(model) = mdlx::mdx::from_bytes(data) else {
        return;
    };
    assert_eq!(
        mdlx::mdx::to_bytes(&model).unwrap(),
        data,
        "{name}: decode -> encode"
    );
    let text = mdlx::mdl::to_vec(&model);
    let back = mdlx::mdl::from_bytes(&text)
        .unwrap_or_else(|e| panic!("{name}: {}", e.render(&text, "w.mdl")));
    assert_eq!(
        mdlx::mdx::to_bytes(&back).unwrap(),
        data,
        "{name}: MDX -> MDL -> MDX"
    );
}

fn check_mdl(name: &str, data: &[u8]) {
    let Ok(model) = mdlx::mdl::from_bytes(data) else {
        return;
    };
    let Ok(mdx) = mdlx::mdx::to_bytes(&model) else {
        return;
    };
    let t1 = mdlx::mdl::to_vec(&model);
    let m2 =
        mdlx::mdl::from_bytes(&t1).unwrap_or_else(|e| panic!("{name}: {}", e.render(&t1, "w.mdl")));
    assert_eq!(
        mdlx::mdx::to_bytes(&m2).unwrap(),
        mdx,
        "{name}: parse -> write -> parse"
    );
    assert_eq!(mdlx::mdl::to_vec(&m2), t1, "{name}: write twice");
}

#[test]
fn fuzz_findings_stay_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let data = std::fs::read(&p).unwrap();
        match p.extension().and_then(|e| e.to_str()) {
            Some("mdx") => check_mdx(&name, &data),
            Some("mdl") => check_mdl(&name, &data),
            _ => continue,
        }
        n += 1;
    }
    println!("fuzz regressions: {n} inputs checked");
    assert!(n >= 3);
}
