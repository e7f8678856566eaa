//! Classifies the disagreements between our track sampler and the `wc3` crate's that
//! `crates/mdlx/tests/anim_vs_wc3.rs` writes when it fails (one line per disagreeing
//! sample, in a TSV file it names), by cause: see README.md.

mod classify;

use classify::{degrees_between, Class, Explain, Seg, CLASSES};
use mdlx::model::{Interpolation, Key};
use std::collections::BTreeMap;
use std::str::FromStr;

/// A value kind as the dump writes it: `{:?}` of each component, joined by commas.
trait Parse: Sized + Explain + std::fmt::Debug {
    fn parse(s: &str) -> Option<Self>;
    /// Rotations: the angle between the two, in degrees.
    fn degrees(_ours: Self, _theirs: Self) -> f64 {
        0.0
    }
}

fn components<const N: usize>(s: &str) -> Option<[f32; N]> {
    let v: Vec<f32> = s
        .split(',')
        .map(f32::from_str)
        .collect::<Result<_, _>>()
        .ok()?;
    v.try_into().ok()
}

impl Parse for f32 {
    fn parse(s: &str) -> Option<Self> {
        s.parse().ok()
    }
}

impl Parse for [f32; 3] {
    fn parse(s: &str) -> Option<Self> {
        components(s)
    }
}

impl Parse for [f32; 4] {
    fn parse(s: &str) -> Option<Self> {
        components(s)
    }
    fn degrees(ours: Self, theirs: Self) -> f64 {
        degrees_between(ours, theirs)
    }
}

impl Parse for u32 {
    fn parse(s: &str) -> Option<Self> {
        s.parse().ok()
    }
}

fn interpolation(s: &str) -> Option<Interpolation> {
    Some(match s {
        "None" => Interpolation::None,
        "Linear" => Interpolation::Linear,
        "Hermite" => Interpolation::Hermite,
        "Bezier" => Interpolation::Bezier,
        _ => Interpolation::from_u32(s.strip_prefix("Other(")?.strip_suffix(')')?.parse().ok()?),
    })
}

/// `time;value;in_tan;out_tan`.
fn key<T: Parse>(s: &str) -> Option<Key<T>> {
    let f: Vec<&str> = s.split(';').collect();
    let [time, value, in_tan, out_tan] = f.as_slice() else {
        return None;
    };
    Some(Key {
        time: time.parse().ok()?,
        value: T::parse(value)?,
        in_tan: T::parse(in_tan)?,
        out_tan: T::parse(out_tan)?,
    })
}

/// The class of one dumped sample (`fields` from the interpolation on) and, for
/// rotations, the angle between the two results.
fn classify<T: Parse>(fields: &[&str]) -> Result<(Class, f64), String> {
    let bad = |what: &str| format!("cannot read the {what}");
    let interp = interpolation(fields[0]).ok_or_else(|| bad("interpolation"))?;
    let value = |s: &str| match s {
        "None" => Ok(None),
        s => T::parse(s).map(Some).ok_or_else(|| bad("values")),
    };
    let (ours, theirs) = (value(fields[4])?, value(fields[5])?);
    let keys: Vec<Key<T>> = fields[7..]
        .iter()
        .map(|s| key(s).ok_or_else(|| bad("keys")))
        .collect::<Result<_, _>>()?;
    let seg = match (fields[6], keys.as_slice()) {
        ("-", [k]) => Some(Seg::One(*k)),
        (t, [a, b]) => Some(Seg::Two(*a, *b, t.parse().map_err(|_| bad("t"))?)),
        _ => None,
    };
    Ok(match (seg, ours, theirs) {
        (Some(seg), Some(a), Some(b)) => (T::explain(&seg, interp, a, b), T::degrees(a, b)),
        // No key in the window, or a value on one side only: no known cause.
        _ => (Class::Unexplained, 0.0),
    })
}

/// The disagreements of one class.
struct Stats {
    samples: usize,
    max_degrees: f64,
    examples: Vec<String>,
}

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() || paths.iter().any(|p| p.starts_with('-')) {
        eprintln!(
            "usage: anim-vs-wc3 DISAGREEMENTS.tsv...\n\
             (the file crates/mdlx/tests/anim_vs_wc3.rs names when it fails)"
        );
        std::process::exit(2);
    }
    let mut classes: BTreeMap<Class, Stats> = BTreeMap::new();
    let (mut total, mut unreadable) = (0, Vec::new());
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            std::process::exit(1)
        });
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            // file record tag kind interpolation lo hi frame ours theirs t keys...
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() < 11 {
                unreadable.push(format!("{path}:{}: too few fields", n + 1));
                continue;
            }
            let judged = match f[3] {
                "float" => classify::<f32>(&f[4..]),
                "vector3" => classify::<[f32; 3]>(&f[4..]),
                "quaternion" => classify::<[f32; 4]>(&f[4..]),
                "integer" => classify::<u32>(&f[4..]),
                k => Err(format!("unknown value kind {k}")),
            };
            let (class, degrees) = match judged {
                Ok(x) => x,
                Err(e) => {
                    unreadable.push(format!("{path}:{}: {e}", n + 1));
                    continue;
                }
            };
            total += 1;
            let c = classes.entry(class).or_insert(Stats {
                samples: 0,
                max_degrees: 0.0,
                examples: Vec::new(),
            });
            c.samples += 1;
            c.max_degrees = c.max_degrees.max(degrees);
            if c.examples.len() < 3 {
                c.examples.push(format!(
                    "{} {} {} t={} in [{}, {}]: ours {} wc3 {} ({}, t={}, keys {})",
                    f[0],
                    f[1],
                    f[2],
                    f[7],
                    f[5],
                    f[6],
                    f[8],
                    f[9],
                    f[4],
                    f[10],
                    f[11..].join(" ")
                ));
            }
        }
    }
    println!("{total} disagreements read from {}", paths.join(", "));
    for u in &unreadable {
        println!("  unreadable: {u}");
    }
    for class in CLASSES {
        let Some(c) = classes.get(&class) else {
            continue;
        };
        println!(
            "  [{}] {} samples: {}",
            class.name(),
            c.samples,
            class.why()
        );
        if c.max_degrees > 0.0 {
            println!(
                "    largest angle between the two rotations: {:.4} degrees",
                c.max_degrees
            );
        }
        for e in &c.examples {
            println!("    e.g. {e}");
        }
    }
    if classes.contains_key(&Class::Unexplained) || !unreadable.is_empty() {
        std::process::exit(1);
    }
}
