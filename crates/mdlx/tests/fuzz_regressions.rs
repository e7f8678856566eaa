//! Inputs the fuzzers (`fuzz/`) once broke, kept with the property each broke. Every file
//! in `fuzz_regressions/` is checked against all the fuzz properties: MDX files
//! (`*.mdx`) for decode, decode-encode identity and MDX -> MDL -> MDX identity; MDL files
//! (`*.mdl`) for parse and the parse-write-parse fixpoint. Every file, whatever its name,
//! also goes through `mdlx::read` as the `read_any` fuzzer does (lenient and strict: what
//! reads writes back as MDL and MDX that read again); files of other formats (`*.bin`,
//! `*.txt`) are checked only that way.
//! - `mdx_via_mdl-quote-in-string.mdx`: a `"` inside a name was written raw, so the MDL
//!   did not read back. Now written as `'`, with the exact bytes in the extension block.
//! - `mdx_via_mdl-newline-in-name.mdx`: a line break inside a helper's name was written
//!   raw, so the name's string ended at the line and the block did not read back. Now
//!   written as a space, with the exact bytes in the extension block.
//! - `mdx_via_mdl-newline-in-model-name.mdx`: the same in the model's name, which the
//!   `Model` block's own check did not count as unwritable.
//! - `mdl_roundtrip-object-id-overflow.mdl`: `ObjectId -2` made the next free id overflow.
//! - `mdx_via_mdl-foreign-track-in-bone.mdx`: a bone holding a KGAC track; its raw-tag
//!   block `KGAC 3 { ... }` was refused when read back.
//! - `mdx_via_mdl-camera-track-in-light.mdx`: a 1200 light holding a PTSF track (a
//!   camera's f-stop); its raw-tag block `PTSF 2 { ... }` was refused when read back, as
//!   raw tags had to start with `K`.
//! - `texture_decode-dds-level-offset-overflow.dds`: a DDS header of 0xfd000008 x
//!   0xd9d9d908 pixels with many mip levels; adding up the levels' offsets overflowed.
//!   Texture files (`*.dds`, `*.blp`, `*.tga`) are checked as the `texture_decode` fuzzer
//!   does: every level the header lists decodes or is refused, with no panic.
//! - `gltf_import-png-size-past-its-bytes.gltf`: a glTF whose embedded PNG's header asks
//!   for far more pixels than its bytes hold; the frame buffer was allocated from the
//!   header alone. glTF files (`*.gltf`, `*.glb`) are checked as the `gltf_import` fuzzer
//!   does: loaded and imported at 800 and 1000, or refused, with no panic.
//! - `gltf_import-key-time-overflow.glb`: an animation key at an enormous time; its
//!   millisecond overflowed. Times past what the game's clock holds are now refused.
//! - `optimize-non-finite-matrix.mdx`: a model whose nodes pose to non-finite matrices; the
//!   optimizer's measure found the model "moved infinitely far" from itself (inf - inf).
//!   Every MDX is also checked as the `optimize` fuzzer does: optimized within the bound,
//!   its MDX reads back to the same bytes, and optimizing it again changes nothing.

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
    let text = mdlx::mdl::to_bytes(&model);
    let back = mdlx::mdl::from_bytes(&text)
        .unwrap_or_else(|e| panic!("{name}: {}", e.render(&text, "w.mdl")));
    assert_eq!(
        mdlx::mdx::to_bytes(&back).unwrap(),
        data,
        "{name}: MDX -> MDL -> MDX"
    );
    check_optimize(name, &model);
}

fn check_optimize(name: &str, model: &mdlx::Model) {
    let options = mdlx::optimize::Options::default();
    let Ok(done) = mdlx::optimize::optimize(model, &options) else {
        return;
    };
    if let Some(why) = done.report.deviation.exceeds(&options.tolerance) {
        panic!("{name}: optimized past the bound: {why}");
    }
    let bytes = mdlx::mdx::to_bytes(&done.model).unwrap();
    let back = mdlx::mdx::from_bytes(&bytes).unwrap();
    assert_eq!(
        mdlx::mdx::to_bytes(&back).unwrap(),
        bytes,
        "{name}: optimized, read back"
    );
    let again = mdlx::optimize::optimize(&back, &options).unwrap();
    assert_eq!(
        mdlx::mdx::to_bytes(&again.model).unwrap(),
        bytes,
        "{name}: optimized twice"
    );
}

fn check_mdl(name: &str, data: &[u8]) {
    let Ok(model) = mdlx::mdl::from_bytes(data) else {
        return;
    };
    let Ok(mdx) = mdlx::mdx::to_bytes(&model) else {
        return;
    };
    let t1 = mdlx::mdl::to_bytes(&model);
    let m2 =
        mdlx::mdl::from_bytes(&t1).unwrap_or_else(|e| panic!("{name}: {}", e.render(&t1, "w.mdl")));
    assert_eq!(
        mdlx::mdx::to_bytes(&m2).unwrap(),
        mdx,
        "{name}: parse -> write -> parse"
    );
    assert_eq!(mdlx::mdl::to_bytes(&m2), t1, "{name}: write twice");
}

fn check_texture(name: &str, data: &[u8]) {
    let Ok(t) = mdlx::texture::Texture::from_bytes(data) else {
        return;
    };
    for n in 0..t.mip_count() {
        if let Ok(image) = t.decode_level(n) {
            let want = u64::from(image.width) * u64::from(image.height) * 4;
            assert_eq!(image.pixels.len() as u64, want, "{name}: level {n}");
        }
    }
}

fn check_any(name: &str, data: &[u8]) {
    use mdlx::mdx::MdxErrorKind;
    for strict in [false, true] {
        let opts = mdlx::ReadOptions {
            strict,
            ..Default::default()
        };
        let loaded = match mdlx::read(data, &opts) {
            Ok(l) => l,
            Err(e) => {
                let _ = (e.render(name), e.to_string());
                continue;
            }
        };
        for w in &loaded.warnings {
            let _ = w.render(name);
        }
        let mdx = match mdlx::mdx::to_bytes(&loaded.model) {
            Ok(bytes) => {
                mdlx::mdx::from_bytes(&bytes)
                    .unwrap_or_else(|e| panic!("{name} (strict {strict}): MDX written: {e}"));
                mdlx::read(&bytes, &opts)
                    .unwrap_or_else(|e| panic!("{name} (strict {strict}): MDX written: {e}"));
                Some(bytes)
            }
            Err(e) => {
                assert!(
                    matches!(e.kind, MdxErrorKind::Unwritable(_)),
                    "{name} (strict {strict}): {e}"
                );
                None
            }
        };
        let text = mdlx::mdl::to_bytes(&loaded.model);
        let strictly = mdlx::ReadOptions {
            strict: true,
            ..Default::default()
        };
        let back = mdlx::read(&text, &strictly)
            .unwrap_or_else(|e| panic!("{name} (strict {strict}): {}", e.render("written.mdl")));
        if let Some(mdx) = mdx {
            assert_eq!(
                mdlx::mdx::to_bytes(&back.model).ok(),
                Some(mdx),
                "{name} (strict {strict}): model -> MDL -> model"
            );
        }
        assert_eq!(
            mdlx::mdl::to_bytes(&back.model),
            text,
            "{name} (strict {strict}): MDL written twice"
        );
    }
}

fn check_gltf(data: &[u8]) {
    let Ok(source) = mdlx::convert::gltf::Source::from_bytes(data, None) else {
        return;
    };
    for version in [800, 1000] {
        let options = mdlx::convert::gltf::ImportOptions {
            version,
            ..Default::default()
        };
        if let Ok(out) = mdlx::convert::gltf::import(&source, &options) {
            let mdx = mdlx::mdx::to_bytes(&out.model).unwrap();
            mdlx::mdx::from_bytes(&mdx).unwrap();
        }
    }
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
            Some("bin" | "txt") => {}
            Some("dds" | "blp" | "tga") => check_texture(&name, &data),
            Some("gltf" | "glb") => check_gltf(&data),
            _ => continue,
        }
        check_any(&name, &data);
        n += 1;
    }
    println!("fuzz regressions: {n} inputs checked");
    assert!(n >= 3);
}
