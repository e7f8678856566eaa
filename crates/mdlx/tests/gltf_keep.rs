//! A model exported with itself embedded (`ExportOptions::source`, the default) and imported
//! back with nothing changed in between is the model, byte for byte, in MDX; and the
//! reconciliation takes nothing from the glTF (its notes say nothing changed). Every corpus
//! MDX and MDL of Warcraft III. This is the floor under the Blender round trip
//! (`blender_roundtrip.rs`), where Blender rewrites the file in between.

mod common;

use mdlx::convert::gltf::{export, import, ExportOptions, ImportOptions, Source};

#[test]
fn every_corpus_model_comes_back_from_its_own_gltf_byte_for_byte() {
    let mut files = 0usize;
    let mut failures = Vec::new();
    for row in common::manifest() {
        let path = common::corpus_dir().join(&row.local_path);
        let data = std::fs::read(&path).unwrap();
        let model = match row.format.as_str() {
            "mdx" => mdlx::mdx::from_bytes(&data).map_err(|e| e.to_string()),
            "mdl" => mdlx::mdl::from_bytes(&data).map_err(|e| e.to_string()),
            _ => continue,
        };
        let Ok(model) = model else { continue };
        if !mdlx::model::is_known_version(model.version) {
            continue;
        }
        let name = common::name(&path);
        files += 1;
        let glb = export(&model, &ExportOptions::default()).to_glb();
        let src = Source::from_bytes(&glb, None).unwrap();
        let back = match import(&src, &ImportOptions::default()) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let want = mdlx::mdx::to_bytes(&model).unwrap();
        let got = mdlx::mdx::to_bytes(&back.model).unwrap();
        if got != want {
            let notes: Vec<String> = back.notes.iter().map(|n| n.to_string()).collect();
            failures.push(format!("{name}: {}", notes.join("; ")));
        }
    }
    println!(
        "gltf_keep: {files} corpus models exported and imported back; {} not byte-identical",
        failures.len()
    );
    for f in &failures {
        println!("  {f}");
    }
    assert!(files >= 600, "{files}");
    assert!(failures.is_empty(), "{} failures", failures.len());
}
