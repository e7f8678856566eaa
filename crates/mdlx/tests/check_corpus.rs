//! `mdlx::check` over the whole corpus (MDX, MDL, WoW alpha, Milkshape): no panic, every
//! finding names a rule of the table and a path that starts at its record, and every
//! finding about a record of a file read as MDX or MDL is located in that file (an MDX
//! record's offset holds the record: for a node, its name follows the size). Prints a table
//! of findings per rule; MDL fragments without a `Model` block, which `mdlx::read` refuses,
//! are counted apart.

mod common;

use mdlx::check::{SourceMap, SourcePos, RULES};
use std::collections::BTreeMap;

#[test]
fn corpus_findings_per_rule() {
    let mut per_rule: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut per_format: BTreeMap<String, usize> = BTreeMap::new();
    let (mut refused, mut unlocated) = (Vec::new(), Vec::new());
    let mut located = 0usize;
    let started = std::time::Instant::now();
    for row in common::manifest() {
        let path = common::corpus_dir().join(&row.local_path);
        let data = std::fs::read(&path).unwrap();
        let loaded = match mdlx::read(&data, &mdlx::ReadOptions::default()) {
            Ok(l) => l,
            Err(e) => {
                refused.push(format!(
                    "{}: {}",
                    row.local_path,
                    e.to_string().lines().next().unwrap_or("")
                ));
                continue;
            }
        };
        let mut findings = mdlx::check::check(&loaded.model);
        let map = match loaded.source {
            mdlx::Source::Mdx { .. } => Some(SourceMap::mdx(&data)),
            mdlx::Source::Mdl { .. } => Some(SourceMap::mdl(&data)),
            _ => None,
        };
        *per_format
            .entry(
                format!("{:?}", loaded.source)
                    .split([' ', '{'])
                    .next()
                    .unwrap()
                    .to_owned(),
            )
            .or_default() += 1;
        if let Some(map) = &map {
            map.locate(&mut findings);
        }
        let mut seen = std::collections::HashSet::new();
        for f in &findings {
            assert!(RULES.iter().any(|r| std::ptr::eq(*r, f.rule)));
            let e = per_rule.entry(f.rule.id).or_default();
            e.0 += 1;
            if seen.insert(f.rule.id) {
                e.1 += 1;
            }
            let Some(r) = f.record else { continue };
            assert!(
                f.path.starts_with(&format!("{}[{}]", r.list, r.index)),
                "{}: {f}",
                row.local_path
            );
            if map.is_none() {
                continue;
            }
            match f.at {
                None => unlocated.push(format!("{}: {f}", row.local_path)),
                Some(SourcePos::Offset(o)) => {
                    located += 1;
                    assert!((o as usize) < data.len(), "{}: {f}", row.local_path);
                    if let Some(name) = &f.name {
                        let is_node =
                            !["textures", "sequences", "cameras", "face_effects"].contains(&r.list);
                        if is_node {
                            // Bones and helpers are a node (size, name); the other kinds
                            // have their own size before the node.
                            let holds = |skip: usize| {
                                let at = o as usize + skip;
                                let field = &data[at..(at + 80).min(data.len())];
                                String::from_utf8_lossy(field).starts_with(name.as_str())
                            };
                            assert!(
                                holds(4) || holds(8),
                                "{}: {f}: offset {o:#x} does not hold the node",
                                row.local_path
                            );
                        }
                    }
                }
                Some(SourcePos::Line { line, .. }) => {
                    located += 1;
                    assert!(
                        line as usize <= data.split(|&b| b == b'\n').count(),
                        "{}: {f}",
                        row.local_path
                    );
                }
            }
        }
    }
    let took = started.elapsed();
    println!("check over the corpus: {per_format:?}, in {took:.2?} (one thread, test profile)");
    println!("{:<36} {:>8} {:>6}", "rule", "findings", "files");
    for r in RULES {
        let (n, files) = per_rule.get(r.id).copied().unwrap_or_default();
        println!("{:<36} {n:>8} {files:>6}  {}", r.id, r.severity.name());
    }
    println!("{located} findings located in their file");
    println!(
        "{} files refused by mdlx::read (MDL fragments without a Model block):",
        refused.len()
    );
    for r in &refused {
        println!("  {r}");
    }
    assert!(
        unlocated.is_empty(),
        "findings about records without a location:\n{}",
        unlocated.join("\n")
    );
    // The fragments are the MDL test snippets of two projects; anything else refused is a
    // reader regression.
    assert!(
        refused.iter().all(|r| r.contains("no Model block")),
        "{refused:#?}"
    );
    assert_eq!(refused.len(), 21);
}

/// The rules `mdlx check` did not have before models had kinds: left out of "before".
const NEW_RULES: &[&str] = &["missing-walk-sequence", "missing-portrait-sequence"];

/// Every corpus MDX and MDL file checked as the kind `mdlx check` finds for it (with its
/// file name), against the same file checked as before kinds existed: every model as a
/// unit, without [`NEW_RULES`] (`check_as(model, Kind::Unit)` is that check). Prints the
/// files per kind, how many fail (have an error) before and after, and the findings of the
/// kind-dependent rules per kind and severity. No effect, doodad or portrait may fail for a
/// missing Death; every rule without per-kind severities must find the same, before and
/// after.
#[test]
fn corpus_findings_per_kind_before_and_after() {
    use mdlx::check::{Kind, Severity};
    #[derive(Default)]
    struct PerKind {
        files: usize,
        failing_before: usize,
        failing_after: usize,
        death_error_before: usize,
    }
    let mut per_kind: BTreeMap<Kind, PerKind> = BTreeMap::new();
    // (rule, kind) -> findings after, per severity (error, warning, info).
    let mut dependent: BTreeMap<(&str, Kind), [usize; 3]> = BTreeMap::new();
    let mut dependent_before: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut same_before, mut same_after) = (BTreeMap::new(), BTreeMap::new());
    let mut bad = Vec::new();
    let mut total = 0;
    for row in common::model_rows() {
        total += 1;
        let data = common::read_row(&row);
        let Ok(loaded) = mdlx::read(&data, &mdlx::ReadOptions::default()) else {
            continue; // the MDL fragments, listed by corpus_findings_per_rule
        };
        let m = &loaded.model;
        // The file's own name: the corpus name is its repository path with `__` for `/`.
        let own_name = row.local_path.rsplit("__").next().unwrap_or("");
        let kind = mdlx::check::classify(m, Some(own_name)).kind;
        let before: Vec<_> = mdlx::check::check_as(m, Kind::Unit)
            .into_iter()
            .filter(|f| !NEW_RULES.contains(&f.rule.id))
            .collect();
        let after = mdlx::check::check_as(m, kind);
        let k = per_kind.entry(kind).or_default();
        k.files += 1;
        let fails = |v: &[mdlx::check::Finding]| v.iter().any(|f| f.severity == Severity::Error);
        k.failing_before += usize::from(fails(&before));
        k.failing_after += usize::from(fails(&after));
        let death = |f: &&mdlx::check::Finding| f.rule.id == "missing-death-sequence";
        k.death_error_before += before.iter().filter(death).count();
        for f in before.iter() {
            if f.rule.kinds.is_empty() {
                *same_before.entry(f.rule.id).or_insert(0usize) += 1;
            } else {
                *dependent_before.entry(f.rule.id).or_default() += 1;
            }
        }
        for f in &after {
            if f.rule.kinds.is_empty() {
                *same_after.entry(f.rule.id).or_insert(0usize) += 1;
                continue;
            }
            let e = dependent.entry((f.rule.id, kind)).or_default();
            e[match f.severity {
                Severity::Error => 0,
                Severity::Warning => 1,
                Severity::Info => 2,
            }] += 1;
            let spared = [Kind::Effect, Kind::Doodad, Kind::Portrait];
            if death(&f) && f.severity == Severity::Error && spared.contains(&kind) {
                bad.push(format!(
                    "{}: {kind} fails for a missing Death",
                    row.local_path
                ));
            }
        }
    }
    let read: usize = per_kind.values().map(|k| k.files).sum();
    println!("corpus MDX and MDL: {total} files, {read} read; per kind (checked as the kind found, before: every model as a unit)");
    println!(
        "{:<10} {:>6} {:>15} {:>14} {:>22}",
        "kind", "files", "failing before", "failing after", "missing Death before"
    );
    for (kind, k) in &per_kind {
        println!(
            "{:<10} {:>6} {:>15} {:>14} {:>22}",
            kind.name(),
            k.files,
            k.failing_before,
            k.failing_after,
            k.death_error_before
        );
    }
    let sum = |f: fn(&PerKind) -> usize| per_kind.values().map(f).sum::<usize>();
    println!(
        "{:<10} {:>6} {:>15} {:>14} {:>22}",
        "all",
        read,
        sum(|k| k.failing_before),
        sum(|k| k.failing_after),
        sum(|k| k.death_error_before)
    );
    println!("\nkind-dependent rules after (errors / warnings / infos), and before (all errors or warnings as for a unit):");
    for r in mdlx::check::RULES.iter().filter(|r| !r.kinds.is_empty()) {
        let before = dependent_before.get(r.id).copied().unwrap_or(0);
        let per: Vec<String> = Kind::ALL
            .iter()
            .filter_map(|&k| {
                let [e, w, i] = dependent.get(&(r.id, k)).copied()?;
                Some(format!("{k} {e}/{w}/{i}"))
            })
            .collect();
        println!(
            "  {:<28} before {before:>4}; after: {}",
            r.id,
            per.join(", ")
        );
    }
    assert!(bad.is_empty(), "{bad:#?}");
    assert_eq!(
        same_before, same_after,
        "rules without per-kind severities find the same whatever the kind"
    );
}
