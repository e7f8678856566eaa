//! `mdlx optimize`: the library's optimizer ([`mdlx::optimize`]) over files and folders,
//! with its report per model and a summary.

use super::convert_dir::Progress;
use crate::files;
use crate::Ctx;
use anyhow::{anyhow, bail, Context, Result};
use mdlx::optimize::{Optimized, Options, Pass, Report, Tolerance};
use rayon::prelude::*;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The verb's flags.
pub(crate) struct Flags {
    pub only: Vec<String>,
    pub skip: Vec<String>,
    pub tolerance: Option<String>,
    pub json: bool,
    pub compare: bool,
}

/// A usage error (exit status 2).
fn usage(msg: String) -> anyhow::Error {
    anyhow::Error::new(crate::Usage(msg))
}

fn passes(flags: &Flags) -> Result<Vec<Pass>> {
    let parse = |names: &[String]| -> Result<Vec<Pass>> {
        names
            .iter()
            .map(|n| {
                Pass::from_name(n.trim()).ok_or_else(|| {
                    usage(format!(
                        "no pass named {n:?} (the passes: records, geometry, keys, bytes)"
                    ))
                })
            })
            .collect()
    };
    if !flags.only.is_empty() {
        return parse(&flags.only);
    }
    let skip = parse(&flags.skip)?;
    Ok(Pass::ALL
        .into_iter()
        .filter(|p| !skip.contains(p))
        .collect())
}

/// `0.001`, or `position=0.001,rotation=0.002,color=0.004,alpha=0.004` (any subset).
fn tolerance(spec: Option<&str>) -> Result<Tolerance> {
    let mut t = Tolerance::default();
    let Some(spec) = spec else { return Ok(t) };
    let number = |s: &str| -> Result<f32> {
        match s.trim().parse::<f32>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
            _ => Err(usage(format!(
                "--tolerance: {s:?} is not a number of zero or more"
            ))),
        }
    };
    if !spec.contains('=') {
        t.position = number(spec)?;
        return Ok(t);
    }
    for part in spec.split(',') {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| usage(format!("--tolerance: {part:?} is not NAME=VALUE")))?;
        let v = number(v)?;
        match k.trim() {
            "position" => t.position = v,
            "rotation" => t.rotation = v,
            "color" | "colour" => t.color = v,
            "alpha" => t.alpha = v,
            other => {
                return Err(usage(format!(
                    "--tolerance: no bound named {other:?} (position, rotation, color, alpha)"
                )))
            }
        }
    }
    Ok(t)
}

/// Runs the verb.
pub(crate) fn run(
    ctx: &Ctx,
    input: &Path,
    output: Option<&Path>,
    flags: &Flags,
) -> Result<ExitCode> {
    if flags.compare {
        let other = output.ok_or_else(|| usage("--compare needs two models".into()))?;
        return compare(ctx, input, other);
    }
    let options = Options {
        tolerance: tolerance(flags.tolerance.as_deref())?,
        passes: passes(flags)?,
    };
    if crate::archive::is_archive(input)
        && output
            .is_some_and(|o| !o.is_dir() && crate::files::has_ext(o, &["w3x", "w3m", "w3n", "mpq"]))
    {
        return into_archive(ctx, input, output.expect("checked"), &options, flags.json);
    }
    if files::is_container(input) {
        return folder(ctx, input, output, &options, flags.json);
    }
    if output.is_some_and(Path::is_dir) {
        bail!(usage(format!(
            "{} is a folder; give a file to write one model to",
            output
                .map(Path::display)
                .map(|d| d.to_string())
                .unwrap_or_default()
        )));
    }
    let done = one(ctx, input, output, &options)?;
    print(&done, flags.json);
    if flags.json {
        println!("{}", summary_json(&[done]));
    }
    Ok(ExitCode::SUCCESS)
}

/// What happened to one model.
struct Done {
    input: PathBuf,
    report: Report,
    position_bound: f32,
}

fn read(ctx: &Ctx, path: &Path) -> Result<mdlx::Model> {
    let data = files::read(path)?;
    let decoded = super::decode(&data, path, &super::read_options(ctx, path))?;
    Ok(decoded.model)
}

/// The format an output path asks for: MDX or MDL.
fn format_of(path: &Path) -> Result<mdlx::Format> {
    match mdlx::formats::for_path(path).map(|f| f.format) {
        Some(f @ (mdlx::Format::Mdx | mdlx::Format::Mdl)) => Ok(f),
        _ => Err(usage(format!(
            "{}: optimize writes .mdx or .mdl (use `mdlx convert` for other formats)",
            path.display()
        ))),
    }
}

fn one(ctx: &Ctx, input: &Path, output: Option<&Path>, options: &Options) -> Result<Done> {
    let format = output.map(format_of).transpose()?;
    let (done, bytes) = optimized(ctx, input, format, options)?;
    if let (Some(out), Some(bytes)) = (output, bytes) {
        files::write(out, &bytes, input)?;
    }
    Ok(done)
}

/// One model optimized, and its bytes when a format was asked for.
type Optimized1 = (Done, Option<Vec<u8>>);

/// The model at `input` optimized, and its bytes in `format` when one is given.
fn optimized(
    ctx: &Ctx,
    input: &Path,
    format: Option<mdlx::Format>,
    options: &Options,
) -> Result<Optimized1> {
    let model = read(ctx, input)?;
    let Optimized { model, report } = mdlx::optimize::optimize(&model, options)
        .map_err(|e| anyhow!("{}: {e}", files::shown(input)))?;
    let bytes = format
        .map(|format| {
            mdlx::write(&model, format, &Default::default())
                .map(|w| w.bytes)
                .map_err(|e| anyhow!("{}: {e}", files::shown(input)))
        })
        .transpose()?;
    let done = Done {
        input: input.to_path_buf(),
        report,
        position_bound: options.tolerance.position,
    };
    Ok((done, bytes))
}

/// Every model of the map `input` optimized and put back, written as the new map `output`
/// (every other file carried over; see `mdlx::mpq::Archive::rewrite`).
fn into_archive(
    ctx: &Ctx,
    input: &Path,
    output: &Path,
    options: &Options,
    json: bool,
) -> Result<ExitCode> {
    let archive = crate::archive::open(input)?;
    let found = crate::archive::members(input, &["mdx", "mdl"])?;
    let bar = Progress::new(found.len());
    let results: Vec<(PathBuf, Result<Optimized1>)> = found
        .par_iter()
        .map(|path| {
            let format = if files::has_ext(path, &["mdl"]) {
                mdlx::Format::Mdl
            } else {
                mdlx::Format::Mdx
            };
            let r = optimized(ctx, path, Some(format), options);
            bar.inc();
            (path.clone(), r)
        })
        .collect();
    bar.finish();
    let mut edits = mdlx::mpq::Edits::default();
    let (mut done, mut failed) = (Vec::new(), 0);
    for (path, r) in results {
        match r {
            Ok((d, bytes)) => {
                print(&d, json);
                let (_, inner) = crate::archive::split(&path).expect("a member");
                let original = archive.read(&inner)?;
                if let Some(b) = bytes.filter(|b| *b != original) {
                    edits.put.push((inner, b));
                }
                done.push(d);
            }
            Err(e) => {
                failed += 1;
                eprintln!("mdlx: error: {e:#} (left as it is in the map)");
            }
        }
    }
    let rewritten = archive
        .rewrite(&edits)
        .with_context(|| format!("{}", input.display()))?;
    files::write(output, &rewritten.bytes, input)?;
    if json {
        println!("{}", summary_json(&done));
    } else {
        print_summary(&done, failed);
    }
    eprintln!(
        "{}: {} model(s) replaced; {} -> {} bytes{}",
        output.display(),
        rewritten.replaced,
        archive.file_len(),
        rewritten.bytes.len(),
        if rewritten.signature_dropped {
            " (the map's signature is dropped: a changed map cannot keep it)"
        } else {
            ""
        }
    );
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn folder(
    ctx: &Ctx,
    input: &Path,
    output: Option<&Path>,
    options: &Options,
    json: bool,
) -> Result<ExitCode> {
    let skip: Vec<PathBuf> = output.map(Path::to_path_buf).into_iter().collect();
    let found = files::find(&[input.to_path_buf()], &files::model_extensions(), &skip)?;
    let bar = Progress::new(found.len());
    let results: Vec<(PathBuf, Result<Done>)> = found
        .par_iter()
        .map(|path| {
            let target = output.map(|o| {
                let rel = crate::archive::relative(path)
                    .unwrap_or_else(|| path.strip_prefix(input).unwrap_or(path).to_path_buf());
                let mut t = o.join(rel);
                if !files::has_ext(&t, &["mdx", "mdl"]) {
                    t.set_extension("mdx");
                }
                t
            });
            let r = (|| {
                if let Some(dir) = target.as_deref().and_then(Path::parent) {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("cannot make {}", dir.display()))?;
                }
                one(ctx, path, target.as_deref(), options)
            })();
            bar.inc();
            (path.clone(), r)
        })
        .collect();
    bar.finish();
    let mut done = Vec::new();
    let mut failed = 0;
    for (path, r) in results {
        match r {
            Ok(d) => {
                print(&d, json);
                done.push(d);
            }
            Err(e) => {
                failed += 1;
                if json {
                    println!(
                        "{}",
                        json!({"file": files::shown(&path), "error": format!("{e:#}")})
                    );
                } else {
                    eprintln!("mdlx: error: {e:#}");
                }
            }
        }
    }
    if json {
        println!("{}", summary_json(&done));
    } else {
        print_summary(&done, failed);
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn percent(before: usize, after: usize) -> f64 {
    if before == 0 {
        0.0
    } else {
        100.0 * (before as f64 - after as f64) / before as f64
    }
}

fn print(d: &Done, json: bool) {
    let r = &d.report;
    if json {
        println!("{}", report_json(d));
        return;
    }
    println!(
        "{}: {} -> {} bytes (-{:.1}%), deflated {} -> {} (-{:.1}%); worst posed vertex {:.6} of the size (bound {}), {} moments",
        files::shown(&d.input),
        r.before.raw,
        r.after.raw,
        percent(r.before.raw, r.after.raw),
        r.before.deflated,
        r.after.deflated,
        percent(r.before.deflated, r.after.deflated),
        r.deviation.position,
        d.position_bound,
        r.deviation.moments,
    );
    for (pass, p) in &r.passes {
        if !p.changes.is_empty() {
            let what: Vec<String> = p.changes.iter().map(|(w, n)| format!("{w} {n}")).collect();
            println!(
                "  {pass}: {}; saved {} bytes, {} deflated",
                what.join(", "),
                p.saved_raw,
                p.saved_deflated
            );
        }
        if let Some(why) = &p.retried_because {
            println!(
                "  {pass}: ran at {} of its share of the tolerance: at the full share {why}",
                p.scale
            );
        }
        if let Some(why) = &p.skipped {
            println!("  {pass}: skipped: {why}");
        }
    }
}

fn report_json(d: &Done) -> serde_json::Value {
    let r = &d.report;
    let dev = &r.deviation;
    json!({
        "file": files::shown(&d.input),
        "before": {"raw": r.before.raw, "deflated": r.before.deflated},
        "after": {"raw": r.after.raw, "deflated": r.after.deflated},
        "rounds": r.rounds,
        "passes": r.passes.iter().map(|(pass, p)| json!({
            "pass": pass.name(),
            "changes": p.changes.iter().map(|(w, n)| json!({"what": w, "count": n})).collect::<Vec<_>>(),
            "skipped": p.skipped,
            "retried_because": p.retried_because,
            "scale": p.scale,
            "saved": {"raw": p.saved_raw, "deflated": p.saved_deflated},
        })).collect::<Vec<_>>(),
        "deviation": deviation_json(dev),
    })
}

fn deviation_json(dev: &mdlx::optimize::Deviation) -> serde_json::Value {
    json!({
        "moments": dev.moments,
        "position": dev.position,
        "uv": dev.uv,
        "normal": dev.normal,
        "alpha": dev.alpha,
        "color": dev.color,
        "visibility": dev.visibility,
        "node_position": dev.node_position,
        "node_rotation": dev.node_rotation,
        "unmatched": dev.unmatched,
        "triangles": dev.triangles,
        "nodes_differ": dev.nodes_differ,
        "exceeds_default": dev.exceeds(&Tolerance::default()),
    })
}

fn totals(done: &[Done]) -> [usize; 4] {
    done.iter().fold([0; 4], |mut t, d| {
        t[0] += d.report.before.raw;
        t[1] += d.report.after.raw;
        t[2] += d.report.before.deflated;
        t[3] += d.report.after.deflated;
        t
    })
}

fn skipped(done: &[Done]) -> usize {
    done.iter()
        .filter(|d| d.report.passes.iter().any(|(_, p)| p.skipped.is_some()))
        .count()
}

fn summary_json(done: &[Done]) -> serde_json::Value {
    let [rb, ra, db, da] = totals(done);
    let worst = done
        .iter()
        .map(|d| d.report.deviation.position)
        .fold(0.0f32, f32::max);
    json!({"summary": {
        "models": done.len(),
        "raw": {"before": rb, "after": ra},
        "deflated": {"before": db, "after": da},
        "worst_position": worst,
        "models_with_a_pass_skipped": skipped(done),
    }})
}

fn print_summary(done: &[Done], failed: usize) {
    let [rb, ra, db, da] = totals(done);
    let worst = done
        .iter()
        .map(|d| d.report.deviation.position)
        .fold(0.0f32, f32::max);
    println!(
        "{} models optimized, {failed} failed: {rb} -> {ra} bytes (-{:.1}%), deflated {db} -> {da} (-{:.1}%); worst posed vertex {worst:.6} of the size; {} models with a pass skipped",
        done.len(),
        percent(rb, ra),
        percent(db, da),
        skipped(done),
    );
}

/// `--compare`: the deviation of `other` from `original`, as JSON.
fn compare(ctx: &Ctx, original: &Path, other: &Path) -> Result<ExitCode> {
    let a = read(ctx, original)?;
    let b = read(ctx, other)?;
    match mdlx::optimize::compare(&a, &b) {
        Some(dev) => {
            println!("{}", deviation_json(&dev));
            Ok(ExitCode::SUCCESS)
        }
        None => bail!(
            "{} and {} have different geosets (count or vertex counts): no vertex-for-vertex comparison",
            files::shown(original),
            files::shown(other)
        ),
    }
}

impl From<&crate::cli::OptimizeArgs> for Flags {
    fn from(a: &crate::cli::OptimizeArgs) -> Self {
        Flags {
            only: a.only.clone(),
            skip: a.skip.clone(),
            tolerance: a.tolerance.clone(),
            json: a.json,
            compare: a.compare,
        }
    }
}
