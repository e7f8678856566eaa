//! Every Warcraft III-family MDX in `../shared/corpus` decodes and encodes back
//! byte-identical. The one WoW alpha file is recognised and refused here (`mdlx::alpha`
//! reads it; `tests/alpha.rs`).

mod common;

use mdlx::model::Family;
use std::collections::BTreeMap;

#[test]
fn corpus_mdx_round_trips_byte_identical() {
    let mut by_version: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut alpha = Vec::new();
    for path in common::corpus_mdx() {
        let data = std::fs::read(&path).unwrap();
        if mdlx::mdx::detect_family(&data) == Family::WowAlpha {
            let err = mdlx::mdx::from_bytes(&data).unwrap_err();
            assert!(
                matches!(err.kind, mdlx::mdx::MdxErrorKind::AlphaFamily { .. }),
                "{err}"
            );
            alpha.push(common::name(&path));
            continue;
        }
        let result =
            mdlx::mdx::from_bytes(&data).and_then(|m| Ok((m.version, mdlx::mdx::to_bytes(&m)?)));
        let version = common::manifest_version(&path);
        let slot = by_version.entry(version).or_default();
        match result {
            Ok((_, out)) if out == data => slot.0 += 1,
            Ok((_, out)) => {
                failures.push(common::diff_line(&path, &data, &out));
                slot.1 += 1;
            }
            Err(e) => {
                failures.push(format!("FAIL {}: {e}", common::name(&path)));
                slot.1 += 1;
            }
        }
    }
    for (v, (ok, bad)) in &by_version {
        println!("mdx v{v}: {ok} byte-identical, {bad} failed");
    }
    println!("wow alpha (refused as expected): {}", alpha.join(", "));
    for f in &failures {
        println!("{f}");
    }
    let total: usize = by_version.values().map(|(a, b)| a + b).sum();
    assert_eq!(
        total, 545,
        "expected 545 Warcraft III-family MDX files in the corpus"
    );
    assert!(
        failures.is_empty(),
        "{} of {total} files did not round-trip",
        failures.len()
    );
}
