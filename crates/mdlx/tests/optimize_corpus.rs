//! `mdlx::optimize` over every MDX of the corpus at the default tolerance.
//!
//! For each model it checks what the optimizer promises, independently of the optimizer's
//! own bookkeeping:
//! - the measured deviation is within the tolerance;
//! - `check` (run here again) finds no rule more often than in the original;
//! - the result's MDX reads back as the same model and writes the same bytes again, and
//!   MDX -> MDL -> MDX gives the same bytes;
//! - optimizing the result again gives the same bytes;
//! - where the geosets kept their vertex order (no geometry change), every vertex is posed
//!   by the sampler itself at the start, middle and end of every sequence and compared with
//!   the original's: the true distance must be within the tolerance and never above the
//!   bound the measure reported.
//!
//! Prints the totals (raw and deflated), the distribution of the deflated saving, the worst
//! deviation, the passes skipped or retried and why, and the time.

mod common;

use mdlx::anim::{posed_geosets, AnimTime, Skeleton};
use mdlx::model::Model;
use mdlx::optimize::{optimize, Options, Tolerance};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

/// Files that fail for a known reason: (file name, reason). Only ever shrinks.
const KNOWN: &[(&str, &str)] = &[];

#[derive(Default)]
struct Tally {
    models: usize,
    not_read: Vec<String>,
    failures: Vec<String>,
    raw: [usize; 2],
    deflated: [usize; 2],
    savings: Vec<f64>,
    worst: (f32, String),
    worst_exact: (f32, String),
    exact_checked: usize,
    skipped: BTreeMap<String, usize>,
    retried: BTreeMap<String, usize>,
    changes: BTreeMap<String, usize>,
}

fn findings(m: &Model) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for f in mdlx::check::check(m) {
        *out.entry(f.rule.id).or_insert(0) += 1;
    }
    out
}

/// The largest distance between a posed vertex of `a` and the same vertex of `b`,
/// relative to `a`'s size: at the start and end of every sequence (moments the measure
/// also compares), and at its middle (which it may not).
fn exact(a: &Model, b: &Model) -> (f32, f32) {
    let (sa, sb) = (Skeleton::new(a), Skeleton::new(b));
    let (mut ends, mut middles) = (0.0f32, 0.0f32);
    let size = a.size();
    for (i, s) in a.sequences.iter().enumerate() {
        let len = f64::from(s.interval[1].saturating_sub(s.interval[0]));
        for (t, middle) in [(0.0, false), (len / 2.0, true), (len, false)] {
            let worst = if middle { &mut middles } else { &mut ends };
            let at = AnimTime::new(Some(i), t);
            let (ca, cb) = (sa.clock(at), sb.clock(at));
            let (pa, pb) = (sa.pose_at(&ca, None), sb.pose_at(&cb, None));
            let ga = posed_geosets(a, &sa, &pa, &ca);
            let gb = posed_geosets(b, &sb, &pb, &cb);
            for (x, y) in ga.iter().zip(&gb) {
                for (p, q) in x.positions.iter().zip(&y.positions) {
                    let d = (0..3).map(|k| (p[k] - q[k]).powi(2)).sum::<f32>().sqrt();
                    if d.is_finite() {
                        *worst = worst.max(d / size);
                    }
                }
            }
        }
    }
    (ends, middles)
}

fn one(path: &PathBuf, t: &Mutex<Tally>) {
    let name = common::name(path);
    let data = std::fs::read(path).unwrap();
    let model = match mdlx::mdx::from_bytes(&data) {
        Ok(m) => m,
        Err(e) => {
            t.lock().unwrap().not_read.push(format!("{name}: {e}"));
            return;
        }
    };
    let tol = Tolerance::default();
    let mut fail = Vec::new();
    let o = match optimize(&model, &Options::default()) {
        Ok(o) => o,
        Err(e) => {
            t.lock().unwrap().failures.push(format!("{name}: {e}"));
            return;
        }
    };
    let dev = &o.report.deviation;
    if let Some(why) = dev.exceeds(&tol) {
        fail.push(format!("deviation: {why}"));
    }
    let (had, has) = (findings(&model), findings(&o.model));
    for (rule, n) in &has {
        if *n > had.get(rule).copied().unwrap_or(0) {
            fail.push(format!(
                "{rule}: {} -> {n}",
                had.get(rule).copied().unwrap_or(0)
            ));
        }
    }
    let bytes = mdlx::mdx::to_bytes(&o.model).unwrap();
    // Compared as bytes: a model holding a NaN is never equal to itself.
    match mdlx::mdx::from_bytes(&bytes) {
        Ok(back) if mdlx::mdx::to_bytes(&back).unwrap() == bytes => {}
        Ok(_) => fail.push("MDX reads back as another model".into()),
        Err(e) => fail.push(format!("MDX does not read back: {e}")),
    }
    let text = mdlx::mdl::to_bytes(&o.model);
    match mdlx::mdl::from_bytes(&text) {
        Ok(m) if mdlx::mdx::to_bytes(&m).unwrap() == bytes => {}
        Ok(_) => fail.push("MDX -> MDL -> MDX changes the bytes".into()),
        Err(e) => fail.push(format!(
            "MDL does not read back: {}",
            e.render(&text, "out.mdl")
        )),
    }
    match optimize(&o.model, &Options::default()) {
        Ok(again) if mdlx::mdx::to_bytes(&again.model).unwrap() == bytes => {}
        Ok(again) => {
            let what: Vec<String> = again
                .report
                .passes
                .iter()
                .filter(|(_, p)| !p.changes.is_empty())
                .map(|(pass, p)| format!("{pass} {:?}", p.changes))
                .collect();
            fail.push(format!(
                "optimizing twice changes it again: {}",
                what.join("; ")
            ));
        }
        Err(e) => fail.push(format!("the result does not optimize: {e}")),
    }
    let same_shape = model.geosets.len() == o.model.geosets.len()
        && model
            .geosets
            .iter()
            .zip(&o.model.geosets)
            .all(|(a, b)| a.vertices.len() == b.vertices.len());
    let exact = same_shape.then(|| exact(&model, &o.model));
    if let Some((ends, middles)) = exact {
        if ends.max(middles) > tol.position + 1e-5 {
            fail.push(format!(
                "posed by the sampler, a vertex moved {} of the size",
                ends.max(middles)
            ));
        }
        if ends > dev.position + 1e-5 {
            fail.push(format!(
                "the true distance {ends} is above the bound {}",
                dev.position
            ));
        }
    }
    let mut t = t.lock().unwrap();
    t.models += 1;
    t.raw[0] += o.report.before.raw;
    t.raw[1] += o.report.after.raw;
    t.deflated[0] += o.report.before.deflated;
    t.deflated[1] += o.report.after.deflated;
    t.savings.push(
        100.0 * (1.0 - o.report.after.deflated as f64 / o.report.before.deflated.max(1) as f64),
    );
    if dev.position >= t.worst.0 {
        t.worst = (dev.position, name.clone());
    }
    if let Some((ends, middles)) = exact {
        let e = ends.max(middles);
        t.exact_checked += 1;
        if e >= t.worst_exact.0 {
            t.worst_exact = (e, name.clone());
        }
    }
    for (pass, p) in &o.report.passes {
        let short = |s: &str| {
            s.split(|c: char| c.is_ascii_digit())
                .next()
                .unwrap_or(s)
                .to_owned()
        };
        if let Some(why) = &p.skipped {
            *t.skipped
                .entry(format!("{pass}: {}", short(why)))
                .or_default() += 1;
        }
        if let Some(why) = &p.retried_because {
            *t.retried
                .entry(format!("{pass}: {}", short(why)))
                .or_default() += 1;
        }
        for (what, n) in &p.changes {
            *t.changes.entry(format!("{pass}: {what}")).or_default() += n;
        }
    }
    if !fail.is_empty() {
        t.failures.push(format!("{name}: {}", fail.join("; ")));
    }
}

#[test]
fn optimize_every_corpus_mdx() {
    let started = std::time::Instant::now();
    let files = common::corpus_mdx();
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
    let mut t = tally.into_inner().unwrap();
    t.savings.sort_by(f64::total_cmp);
    let pct = |p: f64| t.savings[((t.savings.len() - 1) as f64 * p) as usize];
    println!(
        "optimize: {} models ({} not read)",
        t.models,
        t.not_read.len()
    );
    println!(
        "  raw {} -> {} bytes (-{:.1}%), deflated {} -> {} (-{:.1}%)",
        t.raw[0],
        t.raw[1],
        100.0 * (1.0 - t.raw[1] as f64 / t.raw[0] as f64),
        t.deflated[0],
        t.deflated[1],
        100.0 * (1.0 - t.deflated[1] as f64 / t.deflated[0] as f64)
    );
    println!(
        "  deflated saving per model: min {:.1}%, 10% {:.1}%, median {:.1}%, 90% {:.1}%, max {:.1}%",
        pct(0.0),
        pct(0.1),
        pct(0.5),
        pct(0.9),
        pct(1.0)
    );
    println!(
        "  worst bound on a posed vertex: {:.6} of the size ({})",
        t.worst.0, t.worst.1
    );
    println!(
        "  posed by the sampler ({} models with unchanged geometry): worst {:.6} ({})",
        t.exact_checked, t.worst_exact.0, t.worst_exact.1
    );
    for (what, n) in &t.changes {
        println!("  change  {what}: {n}");
    }
    for (why, n) in &t.retried {
        println!("  retried {n:>4} {why}");
    }
    for (why, n) in &t.skipped {
        println!("  skipped {n:>4} {why}");
    }
    for f in &t.not_read {
        println!("  not read: {f}");
    }
    println!(
        "  time: {:.1} s on 2 threads",
        started.elapsed().as_secs_f64()
    );
    let unknown: Vec<&String> = t
        .failures
        .iter()
        .filter(|f| !KNOWN.iter().any(|(k, _)| f.starts_with(&format!("{k}:"))))
        .collect();
    for f in &t.failures {
        println!("  FAIL {f}");
    }
    assert!(unknown.is_empty(), "{} models fail", unknown.len());
    assert!(t.models >= 500, "only {} models optimized", t.models);
}
