//! `check::fix` over the whole corpus: every Warcraft III model (MDX and MDL) is repaired
//! without error (the pose check inside `fix` compares every sequence at every key time),
//! and the repaired model writes and reads back as a fixpoint in both formats: MDX bytes
//! identical after a second read and write, MDL text too. Prints what was repaired, by
//! rule, and the bytes saved (MDX files against the MDX written after repair, MDL files
//! against the MDL text).

mod common;

use mdlx::check::fix::{fix, FixOptions};
use std::collections::BTreeMap;
use std::time::Instant;

/// Files whose repair is refused, by name, and why. Empty: every file is repaired.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

#[test]
fn corpus_models_are_repaired_without_changing_a_pose_and_round_trip() {
    let start = Instant::now();
    let opts = FixOptions::default();
    let (mut files, mut changed, mut poses) = (0usize, 0usize, 0usize);
    let mut by_rule: BTreeMap<&str, usize> = BTreeMap::new();
    let mut bytes = [[0usize; 2]; 2]; // [mdx, mdl] x [before, after]
    let mut failures = Vec::new();
    let mut refused = Vec::new();
    let mut left = Vec::new();
    let mut slowest = (0.0f64, String::new());
    for row in common::manifest() {
        let path = common::corpus_dir().join(&row.local_path);
        let is_mdx = match row.format.as_str() {
            "mdx" => true,
            "mdl" => false,
            _ => continue,
        };
        let data = std::fs::read(&path).unwrap();
        let model = if is_mdx {
            match mdlx::mdx::from_bytes(&data) {
                Ok(m) => m,
                Err(_) => continue, // the alpha family: not a Warcraft III model
            }
        } else {
            match mdlx::mdl::from_bytes(&data) {
                Ok(m) => m,
                Err(_) => continue,
            }
        };
        files += 1;
        let name = common::name(&path);
        let t = Instant::now();
        let fixed = match fix(&model, &opts) {
            Ok(f) => f,
            Err(e) => {
                match KNOWN_FAILURES.iter().find(|(n, _)| *n == name) {
                    Some((_, why)) => refused.push(format!("{name}: {e} (known: {why})")),
                    None => failures.push(format!("FIX {name}: {e}")),
                }
                continue;
            }
        };
        let secs = t.elapsed().as_secs_f64();
        if secs > slowest.0 {
            slowest = (secs, name.clone());
        }
        poses += fixed.poses_checked;
        if !fixed.actions.is_empty() {
            changed += 1;
        }
        for a in &fixed.actions {
            *by_rule.entry(a.rule).or_default() += 1;
        }

        // What --fix repairs, the check no longer finds: every fixable rule is clear,
        // except unused records of a kind with an out-of-range reference (the fixer then
        // leaves that kind alone, so as not to change what the bad index points to) and
        // events at one time (an event track's keys are firings, which it leaves alone).
        for f in mdlx::check::check(&fixed.model) {
            let event = f.path.starts_with("event_objects[") && f.path.ends_with(".track");
            if !f.rule.fixable || event {
                continue;
            }
            let held_back = f.rule.id.starts_with("unused-")
                && mdlx::check::check(&fixed.model)
                    .iter()
                    .any(|g| g.rule.id.starts_with("invalid-") && g.rule.id.ends_with("-ref"));
            if !held_back {
                left.push(format!("{name}: {f}"));
            }
        }
        // MDX: written, read, written again: the same bytes.
        let mdx = mdlx::mdx::to_bytes(&fixed.model).unwrap();
        match mdlx::mdx::from_bytes(&mdx).map(|m| mdlx::mdx::to_bytes(&m)) {
            Ok(Ok(again)) if again == mdx => {}
            other => failures.push(format!(
                "MDX {name}: the repaired model does not write back identically ({:?})",
                other.err()
            )),
        }
        // MDL likewise.
        let mdl = mdlx::mdl::to_bytes(&fixed.model);
        match mdlx::mdl::from_bytes(&mdl).map(|m| mdlx::mdl::to_bytes(&m)) {
            Ok(again) if again == mdl => {}
            Ok(_) => failures.push(format!("MDL {name}: the repaired model's text changes")),
            Err(e) => failures.push(format!(
                "MDL {name}: the repaired model's text does not read: {}",
                e.render(&mdl, &name)
            )),
        }
        if is_mdx {
            bytes[0][0] += mdlx::mdx::to_bytes(&model).unwrap().len();
            bytes[0][1] += mdx.len();
        } else {
            bytes[1][0] += mdlx::mdl::to_bytes(&model).len();
            bytes[1][1] += mdl.len();
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!("files {files}, changed {changed}, poses checked {poses}, {elapsed:.1} s");
    println!("slowest: {} ({:.2} s)", slowest.1, slowest.0);
    println!("actions by rule:");
    for (rule, n) in &by_rule {
        println!("  {n:>7}  {rule}");
    }
    for (i, kind) in ["MDX", "MDL"].iter().enumerate() {
        let [before, after] = bytes[i];
        println!(
            "{kind}: {before} bytes before, {after} after, {} saved",
            before as i64 - after as i64
        );
    }
    for r in &refused {
        println!("refused (known): {r}");
    }
    for f in &failures {
        println!("{f}");
    }
    assert!(files > 600, "only {files} corpus models read");
    assert!(failures.is_empty(), "{} failures", failures.len());
    println!(
        "{} fixable findings left after fixing (held back by bad indices excepted)",
        left.len()
    );
    assert!(
        left.is_empty(),
        "fixable findings left after fixing:\n{}",
        left.join("\n")
    );
}
