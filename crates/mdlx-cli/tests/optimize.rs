//! `mdlx optimize` end to end: a real animated model made smaller within the bound, the
//! same bytes when optimized again, nothing written without an output or over the input,
//! folders, JSON, and usage errors.

mod common;
use common::*;

/// An animated corpus model (14 sequences, 336 KB) with keys outside every sequence.
fn model() -> String {
    s(corpus().join("mdx/AMISD666__War3ModelView__public__test_model.mdx"))
}

#[test]
fn optimizes_within_the_bound_and_again_gives_the_same_bytes() {
    let dir = temp_dir("optimize");
    let out = dir.join("small.mdx");
    let r = mdlx(&["optimize", &model(), &s(&out)]);
    assert!(r.status.success(), "{}", stderr(&r));
    let report = text(&r.stdout);
    assert!(report.contains("worst posed vertex"), "{report}");
    assert!(report.contains("keys:"), "{report}");
    let before = std::fs::metadata(model()).unwrap().len();
    let after = std::fs::metadata(&out).unwrap().len();
    assert!(after < before, "{after} >= {before}");
    // The result reads, checks no worse (the optimizer checked that), and is a fixed point.
    let r = mdlx(&["info", &s(&out)]);
    assert!(r.status.success(), "{}", stderr(&r));
    let again = dir.join("again.mdx");
    let r = mdlx(&["optimize", &s(&out), &s(&again)]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&again).unwrap());
    // The same model as MDL.
    let mdl = dir.join("small.mdl");
    let r = mdlx(&["optimize", &model(), &s(&mdl)]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(std::fs::read_to_string(&mdl)
        .unwrap()
        .contains("FormatVersion 800"));
}

#[test]
fn without_an_output_nothing_is_written_and_the_input_is_never_replaced() {
    let dir = temp_dir("optimize-none");
    let copy = dir.join("m.mdx");
    std::fs::copy(model(), &copy).unwrap();
    let r = mdlx_in(&dir, &["optimize", "m.mdx"]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    let r = mdlx_in(&dir, &["optimize", "m.mdx", "m.mdx"]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("refusing to write over the input"),
        "{}",
        stderr(&r)
    );
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        std::fs::read(model()).unwrap()
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn a_folder_is_optimized_model_by_model_with_a_json_summary() {
    let dir = temp_dir("optimize-dir");
    let input = dir.join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::copy(model(), input.join("a.mdx")).unwrap();
    std::fs::copy(cube(), input.join("sub/cube.mdx")).unwrap();
    let r = mdlx_in(&dir, &["optimize", "--json", "in", "out"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let lines: Vec<serde_json::Value> = text(&r.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    let summary = &lines[2]["summary"];
    assert_eq!(summary["models"], 2);
    assert!(summary["deflated"]["after"].as_u64() < summary["deflated"]["before"].as_u64());
    assert!(summary["worst_position"].as_f64().unwrap() <= 0.0005);
    assert!(dir.join("out/a.mdx").is_file());
    assert!(dir.join("out/sub/cube.mdx").is_file());
    for l in &lines[..2] {
        assert!(l["deviation"]["exceeds_default"].is_null(), "{l}");
    }
}

#[test]
fn bad_passes_and_tolerances_are_usage_errors() {
    for args in [
        vec!["optimize", "--only", "keys,nothing", "x.mdx"],
        vec!["optimize", "--tolerance", "-1", "x.mdx"],
        vec!["optimize", "--tolerance", "position=0.001,spin=2", "x.mdx"],
    ] {
        let r = mdlx(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", stderr(&r));
    }
    let r = mdlx(&["optimize", &cube(), "out.obj"]);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
}
