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
