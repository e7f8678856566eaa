//! The records and geometry passes of `mdlx::optimize` over every MDX of the corpus, run
//! through the driver (so each pass is kept only where the measure accepts it). Prints
//! what each pass changed (counted by kind), the bytes before and after (raw and
//! deflated), the files where a pass was skipped and why, and the time.
//!
//! Asserted: no panic; every file the corpus reader reads optimizes; the result is within
//! the default tolerance by the driver's own measure; it is never larger than the
//! original; and optimizing the result again changes nothing (the passes are idempotent),
//! checked on every file whose passes changed something.

mod common;

use mdlx::optimize::{optimize, Options, Pass, Size};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// What one file gave.
#[derive(Default)]
struct Tally {
    files: usize,
    changed: usize,
    unreadable: Vec<String>,
    errors: Vec<String>,
    before: Size,
    after: Size,
    changes: BTreeMap<(Pass, &'static str), (usize, usize)>,
    skipped: BTreeMap<(Pass, String), Vec<String>>,
    bigger: Vec<String>,
    outside: Vec<String>,
    not_idempotent: Vec<String>,
    again_checked: usize,
}

fn options() -> Options {
    Options {
        passes: vec![Pass::Records, Pass::Geometry],
        ..Options::default()
    }
}

/// The reason without the numbers, so that reasons group.
fn reason_kind(why: &str) -> String {
    why.split(|c: char| c.is_ascii_digit() || c == '.')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("#")
}

fn one(path: &std::path::Path, t: &Mutex<Tally>) {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let data = std::fs::read(path).unwrap();
    let model = match mdlx::mdx::from_bytes(&data) {
        Ok(m) => m,
        Err(e) => {
            t.lock().unwrap().unreadable.push(format!("{name}: {e}"));
            return;
        }
    };
    let opts = options();
    let out = match optimize(&model, &opts) {
        Ok(o) => o,
        Err(e) => {
            t.lock().unwrap().errors.push(format!("{name}: {e}"));
            return;
        }
    };
    let r = &out.report;
    let changed = r.passes.iter().any(|(_, p)| !p.changes.is_empty());
    // Optimizing the result again: nothing left to change.
    let again_checked = changed;
    let again = if again_checked {
        optimize(&out.model, &opts).ok().map(|o| {
            o.report
                .passes
                .iter()
                .filter(|(_, p)| !p.changes.is_empty())
                .map(|(pass, p)| format!("{pass} {:?}", p.changes))
                .collect::<Vec<_>>()
        })
    } else {
        Some(Vec::new())
    };
    let mut t = t.lock().unwrap();
    t.files += 1;
    t.changed += usize::from(changed);
    t.again_checked += usize::from(again_checked);
    t.before.raw += r.before.raw;
    t.before.deflated += r.before.deflated;
    t.after.raw += r.after.raw;
    t.after.deflated += r.after.deflated;
    for (pass, p) in &r.passes {
        for &(what, n) in &p.changes {
            let e = t.changes.entry((*pass, what)).or_default();
            e.0 += n;
            e.1 += 1;
        }
        if let Some(why) = &p.skipped {
            let e = t.skipped.entry((*pass, reason_kind(why))).or_default();
            e.push(format!("{name}: {why}"));
        }
    }
    if r.after.raw > r.before.raw {
        t.bigger
            .push(format!("{name}: {} -> {}", r.before.raw, r.after.raw));
    }
    if let Some(why) = r.deviation.exceeds(&opts.tolerance) {
        t.outside.push(format!("{name}: {why}"));
    }
    match again {
        Some(v) if v.is_empty() => {}
        Some(v) => t.not_idempotent.push(format!("{name}: {}", v.join("; "))),
        None => t
            .not_idempotent
            .push(format!("{name}: the result does not optimize")),
    }
}

fn pct(a: usize, b: usize) -> f64 {
    100.0 * (b as f64 - a as f64) / (a.max(1) as f64)
}

#[test]
fn records_and_geometry_passes_over_the_corpus() {
    let files = common::corpus_mdx();
    let started = std::time::Instant::now();
    let tally = Mutex::new(Tally::default());
    let next = Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(path) = files.get(i) else { break };
                one(path, &tally);
            });
        }
    });
    let t = tally.into_inner().unwrap();
    let secs = started.elapsed().as_secs_f64();
    println!(
        "optimize records+geometry: {} MDX, {} optimized, {} changed, {:.1} s",
        files.len(),
        t.files,
        t.changed,
        secs
    );
    println!(
        "  raw {} -> {} bytes ({:+.2}%), deflated {} -> {} ({:+.2}%)",
        t.before.raw,
        t.after.raw,
        pct(t.before.raw, t.after.raw),
        t.before.deflated,
        t.after.deflated,
        pct(t.before.deflated, t.after.deflated)
    );
    println!("  changes kept (pass, kind: total in files):");
    for ((pass, what), (n, f)) in &t.changes {
        println!("    {pass:<9} {what:<40} {n:>9} in {f} files");
    }
    let skipped: usize = t.skipped.values().map(Vec::len).sum();
    println!("  passes skipped: {skipped}");
    for ((pass, kind), v) in &t.skipped {
        println!("    {pass}: {} files, {kind}", v.len());
        for line in v.iter().take(8) {
            println!("      {line}");
        }
    }
    for (what, v) in [
        ("unreadable (not counted)", &t.unreadable),
        ("optimize refused", &t.errors),
        ("bigger after", &t.bigger),
        ("outside the tolerance", &t.outside),
        ("changed again by a second run", &t.not_idempotent),
    ] {
        if what.starts_with("changed again") {
            println!("  optimized a second time: {} results", t.again_checked);
        }
        println!("  {what}: {}", v.len());
        for line in v.iter().take(12) {
            println!("    {line}");
        }
    }
    assert!(t.files > 500, "the corpus is there");
    assert!(t.errors.is_empty(), "optimize refused files");
    assert!(t.bigger.is_empty(), "results bigger than their originals");
    assert!(t.outside.is_empty(), "results outside the tolerance");
    assert!(t.not_idempotent.is_empty(), "a second run changed results");
}
