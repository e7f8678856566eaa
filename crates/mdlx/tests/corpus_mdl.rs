//! MDL over the whole corpus:
//! - every Warcraft III MDX -> MDL -> MDX gives back the same bytes;
//! - every corpus MDL reads; reading, writing and reading again gives an equal model, and
//!   writing that again gives identical text (a fixpoint).

mod common;

use mdlx::model::Family;
use std::collections::BTreeMap;

#[test]
fn mdx_to_mdl_to_mdx_is_byte_identical() {
    let (mut ok, mut failures) = (0, Vec::new());
    let (mut with_extension, mut residue_records) = (Vec::new(), BTreeMap::<String, usize>::new());
    for path in common::corpus_mdx() {
        let data = std::fs::read(&path).unwrap();
        if mdlx::mdx::detect_family(&data) == Family::WowAlpha {
            continue;
        }
        let model = mdlx::mdx::from_bytes(&data).unwrap();
        let text = mdlx::mdl::to_bytes(&model);
        let back = match mdlx::mdl::from_bytes(&text) {
            Ok(m) => m,
            Err(e) => {
                let shown = e.render(&text, &common::name(&path));
                failures.push(format!(
                    "FAIL {}: MDL does not read back:\n{}",
                    common::name(&path),
                    &shown[..shown.len().min(2000)]
                ));
                continue;
            }
        };
        if let Some(pos) = find(&text, b"MdlxExtension {") {
            with_extension.push(common::name(&path));
            for line in text[pos..].split(|&b| b == b'\n') {
                let line = String::from_utf8_lossy(line);
                if let Some(rest) = line.trim().strip_prefix("Record \"") {
                    *residue_records
                        .entry(rest.split('"').next().unwrap().to_string())
                        .or_default() += 1;
                }
            }
        }
        match mdlx::mdx::to_bytes(&back) {
            Ok(out) if out == data => ok += 1,
            Ok(out) => {
                let at = out
                    .iter()
                    .zip(&data)
                    .position(|(a, b)| a != b)
                    .unwrap_or(out.len().min(data.len()));
                failures.push(format!(
                    "DIFF {} at {at:#x} in={} out={}",
                    common::name(&path),
                    data.len(),
                    out.len()
                ));
            }
            Err(e) => failures.push(format!("FAIL {}: {e}", common::name(&path))),
        }
    }
    println!(
        "MDX -> MDL -> MDX: {ok} byte-identical, {} failed",
        failures.len()
    );
    println!(
        "  {} files needed the extension block; records kept whole by kind: {residue_records:?}",
        with_extension.len()
    );
    for f in &failures {
        println!("  {f}");
    }
    assert_eq!(ok + failures.len(), 545);
    assert!(failures.is_empty());
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[test]
fn corpus_mdl_reads_and_reaches_a_fixpoint() {
    let rows: Vec<_> = common::manifest()
        .into_iter()
        .filter(|r| r.format == "mdl")
        .collect();
    let (mut ok, mut failures, mut warned) = (0, Vec::new(), 0);
    for row in &rows {
        let path = common::corpus_dir().join(&row.local_path);
        let src = std::fs::read(&path).unwrap();
        let name = common::name(&path);
        let (m1, warnings) = match mdlx::mdl::from_bytes_with_warnings(&src) {
            Ok(x) => x,
            Err(e) => {
                let shown = e.render(&src, &name);
                failures.push(format!("FAIL {name}:\n{}", &shown[..shown.len().min(3000)]));
                continue;
            }
        };
        warned += usize::from(!warnings.is_empty());
        let t1 = mdlx::mdl::to_bytes(&m1);
        let m2 = match mdlx::mdl::from_bytes(&t1) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!(
                    "FAIL {name}: written MDL does not read: {}",
                    e.render(&t1, "written")
                ));
                continue;
            }
        };
        let t2 = mdlx::mdl::to_bytes(&m2);
        let same_model = mdlx::mdx::to_bytes(&m1).ok() == mdlx::mdx::to_bytes(&m2).ok();
        if !same_model {
            failures.push(format!(
                "DIFF {name}: read -> write -> read changed the model"
            ));
        } else if t1 != t2 {
            failures.push(format!("DIFF {name}: writing twice gives different text"));
        } else {
            ok += 1;
        }
    }
    println!(
        "MDL corpus: {ok} of {} read and reach a fixpoint ({warned} with warnings)",
        rows.len()
    );
    for f in &failures {
        println!("  {f}");
    }
    assert_eq!(rows.len(), 134);
    assert!(failures.is_empty());
}

/// The lenient reader warns about nothing in the corpus but missing headers: no real file
/// has a static value of a track-only field or text outside its blocks. The files without
/// a `Model` block are all hand-written parser test fixtures (MANIFEST notes), which strict
/// reading refuses, as it refuses the files without a `Version` block.
#[test]
fn corpus_mdl_warns_only_of_missing_headers() {
    use mdlx::mdl::{MdlErrorKind, ReadOptions};
    let manifest = std::fs::read_to_string(common::corpus_dir().join("MANIFEST.tsv")).unwrap();
    let rows: Vec<(String, String)> = manifest
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f[0] == "mdl")
        .map(|f| (f[7].to_string(), f.get(8).unwrap_or(&"").to_string()))
        .collect();
    let (mut fragments, mut no_version, mut strict_ok) = (0, 0, 0);
    for (path, notes) in &rows {
        let src = std::fs::read(common::corpus_dir().join(path)).unwrap();
        let (_, warnings) = mdlx::mdl::from_bytes_with_warnings(&src).unwrap();
        for w in &warnings {
            match w.kind {
                MdlErrorKind::MissingModel => {
                    fragments += 1;
                    assert!(
                        notes.contains("hand-written/synthetic parser test fixture"),
                        "{path}: no Model block, and not a parser fixture: {notes}"
                    );
                }
                MdlErrorKind::MissingVersion => no_version += 1,
                _ => panic!("{path}: {}", w.render(&src, path)),
            }
        }
        let strict = mdlx::mdl::from_bytes_with_options(&src, &ReadOptions { strict: true });
        assert_eq!(strict.is_ok(), warnings.is_empty(), "{path}");
        strict_ok += usize::from(strict.is_ok());
    }
    println!(
        "MDL corpus: {fragments} fragments without a Model block, {no_version} without a Version block; {strict_ok} of {} read under strict",
        rows.len()
    );
    assert_eq!((fragments, no_version, strict_ok), (21, 3, 111));
}
