//! `mdlx check` from the command line: exit status, --deny, --allow, the settings file,
//! JSON lines, the rule list, and SARIF that two independent validators accept (the SARIF
//! 2.1.0 schema through Python `jsonschema`, and Microsoft's SARIF Multitool; installed by
//! scripts/sarif-judge.sh, found through `MDLX_SARIF_JUDGE`; skipped without them except
//! under CI).

mod common;
use common::*;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A model with one error (a geoset's material does not exist) and warnings.
fn broken(dir: &Path) -> String {
    let mut m = mdlx::mdx::from_bytes(&std::fs::read(cube()).unwrap()).unwrap();
    m.geosets[0].material_id = 9;
    // Only that error: the cube's "Spin" becomes a Death sequence.
    m.sequences[1].name = "Death".into();
    let p = dir.join("broken.mdl");
    std::fs::write(&p, mdlx::mdl::to_bytes(&m)).unwrap();
    p.display().to_string()
}

fn lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn errors_fail_and_allow_and_deny_change_that() {
    let d = temp_dir("exit");
    let file = broken(&d);
    let out = mdlx(&["check", &file, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let found = lines(&out);
    let bad = found
        .iter()
        .find(|v| v["rule"] == "invalid-material-ref")
        .unwrap();
    assert_eq!(bad["severity"], "error");
    assert_eq!(bad["path"], "geosets[0].material_id");
    // The MDL line of the Geoset block.
    let line = bad["line"].as_u64().unwrap() as usize;
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text
        .lines()
        .nth(line - 1)
        .unwrap()
        .trim_start()
        .starts_with("Geoset"));
    // Silenced, the file passes (its other findings are warnings and infos)...
    let out = mdlx(&["check", &file, "--allow", "invalid-material-ref"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // ...unless warnings are denied.
    let out = mdlx(&[
        "check",
        &file,
        "--allow",
        "invalid-material-ref",
        "--deny",
        "warnings",
    ]);
    let warned = lines(&mdlx(&["check", &file, "--json"]))
        .iter()
        .any(|v| v["severity"] == "warning");
    assert_eq!(out.status.code(), Some(if warned { 1 } else { 0 }));
    // The same through the settings file in the current folder.
    std::fs::write(
        d.join("mdlx-check.toml"),
        "# silence\nallow = [\n  \"invalid-material-ref\", # known\n]\n",
    )
    .unwrap();
    let out = mdlx_in(&d, &["check", &file]);
    assert_eq!(out.status.code(), Some(0));
    // An unknown rule is a usage error.
    let out = mdlx(&["check", &file, "--allow", "no-such-rule"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no rule `no-such-rule`"));
    std::fs::write(d.join("bad.toml"), "allow = \"x\"\n").unwrap();
    let out = mdlx(&[
        "check",
        &file,
        "--config",
        &d.join("bad.toml").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.toml:1:"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn human_output_groups_per_file_and_sums_up() {
    let d = temp_dir("human");
    let file = broken(&d);
    let out = mdlx(&["check", &file, &cube()]);
    let text = String::from_utf8_lossy(&out.stdout);
    // One error: singular (the counts took "1 errors" before).
    assert!(text.contains("broken.mdl: 1 error, "), "{text}");
    assert!(
        text.contains("error   invalid-material-ref geosets[0].material_id (line "),
        "{text}"
    );
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("2 files checked: "),
        "{text}"
    );
    assert!(!text.contains('\x1b'), "no colours when not on a terminal");
    let _ = std::fs::remove_dir_all(&d);
}

/// The cube with its Spin sequence dropped: a mesh with Stand only, which the decision
/// table calls a doodad; no Death.
fn stand_only(dir: &Path) -> String {
    let mut m = mdlx::mdx::from_bytes(&std::fs::read(cube()).unwrap()).unwrap();
    m.sequences.truncate(1);
    assert_eq!(m.sequences[0].name.text(), "Stand");
    for g in &mut m.geosets {
        g.sequence_extents.truncate(1);
    }
    let p = dir.join("stand_only.mdl");
    std::fs::write(&p, mdlx::mdl::to_bytes(&m)).unwrap();
    p.display().to_string()
}

#[test]
fn kind_sets_the_severity_and_is_in_every_output() {
    let d = temp_dir("kind");
    let file = stand_only(&d);
    // The exit status, the kind of the findings, and the missing-death findings.
    let death = |args: &[&str]| -> (Option<i32>, Value, Vec<Value>) {
        let mut a = vec!["check", file.as_str(), "--json"];
        a.extend_from_slice(args);
        let out = mdlx(&a);
        let found = lines(&out);
        assert!(!found.is_empty());
        assert!(found.iter().all(|v| v["kind"] == found[0]["kind"]));
        let death = found
            .iter()
            .filter(|v| v["rule"] == "missing-death-sequence")
            .cloned()
            .collect();
        (out.status.code(), found[0]["kind"].clone(), death)
    };
    // Found: a doodad, whose missing Death is an info; no error, so it passes.
    let (code, kind, v) = death(&[]);
    assert_eq!(kind, "doodad");
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["severity"], "info", "{v:?}");
    assert_eq!(code, Some(0), "{v:?}");
    // --kind unit: the same model fails for it.
    let (code, kind, v) = death(&["--kind", "unit"]);
    assert_eq!(kind, "unit");
    assert_eq!(v[0]["severity"], "error", "{v:?}");
    assert_eq!(code, Some(1));
    // --kind effect: not asked at all.
    let (code, kind, v) = death(&["--kind", "effect"]);
    assert_eq!(kind, "effect");
    assert!(v.is_empty(), "{v:?}");
    assert_eq!(code, Some(0));
    // A kind that does not exist is a usage error.
    let out = mdlx(&["check", &file, "--kind", "tree"]);
    assert_eq!(out.status.code(), Some(2));
    // People see the kind and why; one file, one error: singular.
    let out = mdlx(&["check", &file, "--kind", "unit"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("stand_only.mdl: 1 error, ") && text.contains("(unit: as --kind says)"),
        "{text}"
    );
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("1 file checked: 1 error, "),
        "{text}"
    );
    let out = mdlx(&["check", &file]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("(doodad: a mesh with Stand sequences only)"),
        "{text}"
    );
    // SARIF: each result carries the kind; each rule its level per kind.
    let out = mdlx(&["check", &file, "--format", "sarif", "--kind", "portrait"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = &doc["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert!(!results.is_empty());
    assert!(results
        .iter()
        .all(|r| r["properties"]["modelKind"] == "portrait"));
    assert!(results
        .iter()
        .any(|r| r["ruleId"] == "missing-portrait-sequence"));
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let death = rules
        .iter()
        .find(|r| r["id"] == "missing-death-sequence")
        .unwrap();
    assert_eq!(death["properties"]["levelByModelKind"]["unit"], "error");
    assert_eq!(death["properties"]["levelByModelKind"]["effect"], "none");
    assert_eq!(death["properties"]["levelByModelKind"]["doodad"], "note");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_rule_list_names_every_rule_once() {
    let out = mdlx(&["check", "--rules", "--format", "json"]);
    assert!(out.status.success());
    let rules = lines(&out);
    let ids: std::collections::HashSet<_> = rules
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), rules.len());
    assert_eq!(rules.len(), mdlx::check::RULES.len());
    assert!(rules
        .iter()
        .all(|r| ["error", "warning", "info"].contains(&r["severity"].as_str().unwrap())));
    // Each rule's severity per kind (null: not reported for that kind).
    let kinds = [
        "unit", "building", "doodad", "effect", "portrait", "missile", "item",
    ];
    for r in &rules {
        let per = r["kinds"].as_object().unwrap();
        assert_eq!(per.len(), kinds.len(), "{r}");
        assert!(kinds.iter().all(|k| per.contains_key(*k)), "{r}");
    }
    let death = rules
        .iter()
        .find(|r| r["id"] == "missing-death-sequence")
        .unwrap();
    assert_eq!(death["kinds"]["unit"], "error");
    assert_eq!(death["kinds"]["portrait"], Value::Null);
}

#[test]
fn sarif_of_the_corpus_passes_both_validators() {
    let judge = match std::env::var_os("MDLX_SARIF_JUDGE") {
        Some(d) => PathBuf::from(d),
        None if std::env::var_os("CI").is_some() => panic!("MDLX_SARIF_JUDGE is not set under CI"),
        None => {
            eprintln!("sarif: MDLX_SARIF_JUDGE not set (run scripts/sarif-judge.sh); skipped");
            return;
        }
    };
    let d = temp_dir("sarif");
    // Relative paths (as code scanning wants them) from the corpus folder, and absolute
    // ones (file:// URIs).
    for (name, dir, arg) in [
        ("relative", Some(corpus()), "."),
        ("absolute", None, corpus().to_str().unwrap()),
    ] {
        let args = ["check", arg, "--format", "sarif"];
        let out = match dir.as_deref() {
            Some(d) => mdlx_in(d, &args),
            None => mdlx(&args),
        };
        assert!(out.status.code() == Some(1), "the corpus has errors");
        let file = d.join(format!("{name}.sarif"));
        std::fs::write(&file, &out.stdout).unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        let results = doc["runs"][0]["results"].as_array().unwrap();
        let unlocated = results
            .iter()
            .filter(|r| {
                r["locations"][0]["physicalLocation"]
                    .get("region")
                    .is_none()
            })
            .count();
        let verdict = Command::new("python3")
            .arg(repo().join("tools/sarif-judge/validate.py"))
            .arg(&judge)
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            verdict.status.success(),
            "{}",
            String::from_utf8_lossy(&verdict.stderr)
        );
        let v: Value = serde_json::from_slice(&verdict.stdout).unwrap();
        println!(
            "sarif ({name}): {} results, {unlocated} without a region; judges: {v}",
            results.len()
        );
        assert_eq!(v["schema_errors"], 0, "{v}");
        for (rule, n) in v["multitool"].as_object().unwrap() {
            // The Multitool's only complaints may be its advice to give every result a
            // region (the findings of files converted on reading, Milkshape and WoW alpha,
            // have no place in the file they came from), and its advice to name the tool's
            // home page (SARIF2005), which is left out on purpose while the repository has
            // no public address (see new_user.rs).
            if rule == "SARIF2005 warning" {
                assert_eq!(n.as_u64(), Some(1), "{v}");
                continue;
            }
            assert_eq!(rule, "SARIF2017 warning", "{v}");
            assert_eq!(n.as_u64().unwrap() as usize, unlocated, "{v}");
        }
        assert!(results.len() > 10_000);
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn fix_writes_elsewhere_or_in_place_never_half() {
    let d = temp_dir("fix");
    let orig = corpus().join("mdx/AMISD666__War3ModelView__testmodel__nwdg32.mdx");
    let a = d.join("a.mdx");
    std::fs::copy(&orig, &a).unwrap();
    let a_s = a.display().to_string();
    let rules = |f: &str| -> Vec<String> {
        lines(&mdlx(&["check", f, "--json"]))
            .iter()
            .filter_map(|v| v["rule"].as_str().map(str::to_owned))
            .collect()
    };
    let before = rules(&a_s);
    assert!(before.iter().any(|r| r == "redundant-key"));
    // --fix needs somewhere to write.
    assert_eq!(mdlx(&["check", &a_s, "--fix"]).status.code(), Some(2));
    let b = d.join("b.mdx").display().to_string();
    let out = mdlx(&["check", &a_s, "--fix", "-o", &b, "--json"]);
    let fixed: Vec<Value> = lines(&out)
        .into_iter()
        .filter(|v| v.get("fixed").is_some())
        .collect();
    assert!(fixed
        .iter()
        .any(|v| v["fixed"].as_str().unwrap().starts_with("redundant-key ")));
    assert!(fixed.iter().any(|v| v["fixed"]
        .as_str()
        .unwrap()
        .contains("poses as the original")));
    assert_eq!(
        std::fs::read(&a).unwrap(),
        std::fs::read(&orig).unwrap(),
        "the input is untouched"
    );
    // What the fixer removes is what the check flagged: none of it is left.
    let after = rules(&b);
    assert!(!after.iter().any(|r| r == "redundant-key"), "{after:?}");
    // Every rule the fixer names is gone; the findings of the others stay.
    let fixed_rules: Vec<&str> = fixed
        .iter()
        .filter_map(|v| v["fixed"].as_str()?.split_whitespace().next())
        .collect();
    assert!(
        !after.iter().any(|r| fixed_rules.contains(&r.as_str())),
        "{after:?}"
    );
    assert_eq!(
        before
            .iter()
            .filter(|r| !fixed_rules.contains(&r.as_str()))
            .count(),
        after.len(),
        "the other findings stay"
    );
    // In place: the same bytes as --output gave.
    let out = mdlx(&["check", &a_s, "--fix", "--in-place"]);
    // Its remaining errors (missing opening keys) still fail it.
    assert_eq!(out.status.code(), mdlx(&["check", &b]).status.code());
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // A Milkshape file is checked but not fixed: --fix writes MDX and MDL only.
    let ms = std::fs::read_dir(corpus().join("ms3d_ascii"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let out = mdlx(&[
        "check",
        ms.to_str().unwrap(),
        "--fix",
        "-o",
        &d.join("x.mdx").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("--fix writes MDX and MDL"));
    assert!(!d.join("x.mdx").exists());
    let _ = std::fs::remove_dir_all(&d);
}
