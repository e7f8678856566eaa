//! How `mdlx check` prints: the rule list, and the findings for people, as JSON lines or
//! as SARIF 2.1.0.

use super::check::Checked;
use crate::files;
use crate::text::count;
use anyhow::Result;
use mdlx::check::{Finding, Kind, Severity, SourcePos, RULES};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

pub(super) fn list_rules(format: &str) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if format == "json" {
        for r in RULES {
            let kinds: serde_json::Map<String, Value> = Kind::ALL
                .iter()
                .map(|&k| {
                    (
                        k.name().to_owned(),
                        json!(r.severity_for(k).map(Severity::name)),
                    )
                })
                .collect();
            let v = json!({"id": r.id, "severity": r.severity.name(), "kinds": kinds, "fixable": r.fixable, "summary": r.summary, "source": r.source});
            writeln!(out, "{v}")?;
        }
    } else {
        for r in RULES {
            let fix = if r.fixable { " (--fix)" } else { "" };
            writeln!(
                out,
                "{:<34} {:<7} {}{fix}\n{:<42} source: {}",
                r.id,
                r.severity.name(),
                r.summary,
                "",
                r.source
            )?;
            if !r.kinds.is_empty() {
                let per: Vec<String> = Kind::ALL
                    .iter()
                    .map(|&k| format!("{k} {}", r.severity_for(k).map_or("-", Severity::name)))
                    .collect();
                writeln!(out, "{:<42} by kind: {}", "", per.join(", "))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn where_(f: &Finding) -> String {
    let mut s = if f.path.is_empty() {
        "the model".to_owned()
    } else {
        f.path.clone()
    };
    if let Some(n) = &f.name {
        s.push_str(&format!(" {n:?}"));
    }
    if let Some(at) = &f.at {
        s.push_str(&format!(" ({at})"));
    }
    s
}

pub(super) fn print_human(out: &mut dyn Write, results: &[Checked], colour: bool) -> Result<()> {
    let paint = |code: &str, text: &str| {
        if colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    };
    let (mut te, mut tw, mut ti, mut clean) = (0, 0, 0, 0);
    for r in results {
        let shown = files::shown(&r.file);
        match &r.outcome {
            Err(e) => {
                writeln!(
                    out,
                    "{}: {}",
                    paint("1", &shown),
                    paint("31", "cannot be checked")
                )?;
                writeln!(out, "  {e}")?;
            }
            Ok(findings) if findings.is_empty() && r.fixed.is_empty() => clean += 1,
            Ok(findings) => {
                let (e, w, i) = mdlx::check::tally(findings);
                (te, tw, ti) = (te + e, tw + w, ti + i);
                let kind = r
                    .kind
                    .as_ref()
                    .map(|k| format!(" ({}: {})", k.kind, k.why))
                    .unwrap_or_default();
                writeln!(
                    out,
                    "{}: {}{}",
                    paint("1", &shown),
                    tallied(e, w, i),
                    paint("2", &kind)
                )?;
                let mut sorted: Vec<&Finding> = findings.iter().collect();
                sorted.sort_by_key(|f| std::cmp::Reverse(f.severity()));
                for f in sorted {
                    let (code, name) = match f.severity() {
                        Severity::Error => ("31", "error  "),
                        Severity::Warning => ("33", "warning"),
                        Severity::Info => ("36", "info   "),
                    };
                    writeln!(
                        out,
                        "  {} {} {}: {}",
                        paint(code, name),
                        paint("2", f.rule.id),
                        where_(f),
                        f.message
                    )?;
                }
                for x in &r.fixed {
                    writeln!(out, "  {} {x}", paint("32", "fixed  "))?;
                }
            }
        }
    }
    let failed = results.iter().filter(|r| r.outcome.is_err()).count();
    writeln!(
        out,
        "{} checked: {}; {} clean{}",
        count(results.len(), "file", "files"),
        tallied(te, tw, ti),
        count(clean, "file", "files"),
        if failed > 0 {
            format!(", {failed} could not be read")
        } else {
            String::new()
        }
    )?;
    Ok(())
}

/// `1 error, 2 warnings, 0 infos`.
fn tallied(e: usize, w: usize, i: usize) -> String {
    format!(
        "{}, {}, {}",
        count(e, "error", "errors"),
        count(w, "warning", "warnings"),
        count(i, "info", "infos")
    )
}

fn pos_json(at: &Option<SourcePos>) -> Value {
    match at {
        Some(SourcePos::Offset(o)) => json!({"offset": o}),
        Some(SourcePos::Line { line, column }) => json!({"line": line, "column": column}),
        None => json!({}),
    }
}

pub(super) fn print_json(out: &mut dyn Write, results: &[Checked]) -> Result<()> {
    for r in results {
        let file = files::shown(&r.file);
        match &r.outcome {
            Err(e) => writeln!(out, "{}", json!({"file": file, "error": e}))?,
            Ok(findings) => {
                for f in findings {
                    let mut v = json!({
                        "file": file,
                        "kind": r.kind.as_ref().map(|k| k.kind.name()),
                        "rule": f.rule.id,
                        "severity": f.severity().name(),
                        "path": f.path,
                        "name": f.name,
                        "message": f.message,
                    });
                    if let (Value::Object(o), Value::Object(p)) = (&mut v, pos_json(&f.at)) {
                        o.extend(p);
                    }
                    writeln!(out, "{v}")?;
                }
                for x in &r.fixed {
                    writeln!(out, "{}", json!({"file": file, "fixed": x}))?;
                }
            }
        }
    }
    Ok(())
}

/// A path as SARIF wants it: a relative path as a relative URI reference (`/` separators,
/// what a URI cannot hold percent-encoded), which code scanning resolves against the
/// repository; an absolute path as a `file://` URI.
fn uri(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut s = String::with_capacity(text.len() + 8);
    if path.is_absolute() {
        s.push_str("file://");
        if !text.starts_with('/') {
            s.push('/'); // C:/...
        }
    }
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                s.push(b as char)
            }
            _ => s.push_str(&format!("%{b:02X}")),
        }
    }
    s
}

fn sarif_level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

pub(super) fn print_sarif(out: &mut dyn Write, results: &[Checked]) -> Result<()> {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "shortDescription": {"text": r.summary},
                "fullDescription": {"text": format!("{} Source: {}.", r.summary, r.source)},
                "defaultConfiguration": {"level": sarif_level(r.severity)},
                "properties": {"fixable": r.fixable, "levelByModelKind": Kind::ALL
                    .iter()
                    .map(|&k| (k.name().to_owned(), json!(r.severity_for(k).map_or("none", sarif_level))))
                    .collect::<serde_json::Map<String, Value>>()},
            })
        })
        .collect();
    let mut res = Vec::new();
    let mut notes = Vec::new();
    for r in results {
        let file = uri(&r.file);
        match &r.outcome {
            Err(e) => notes.push(json!({
                "level": "error",
                "message": {"text": e},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": file}}}],
            })),
            Ok(findings) => {
                for f in findings {
                    let mut phys = json!({"artifactLocation": {"uri": file}});
                    match f.at {
                        Some(SourcePos::Offset(o)) => phys["region"] = json!({"byteOffset": o}),
                        Some(SourcePos::Line { line, column }) => {
                            phys["region"] = json!({"startLine": line, "startColumn": column})
                        }
                        None => {}
                    }
                    let mut loc = json!({"physicalLocation": phys});
                    if !f.path.is_empty() {
                        let mut logical = json!({"fullyQualifiedName": f.path});
                        if let Some(n) = &f.name {
                            logical["name"] = json!(n);
                        }
                        loc["logicalLocations"] = json!([logical]);
                    }
                    let index = RULES
                        .iter()
                        .position(|r| std::ptr::eq(*r, f.rule))
                        .unwrap_or(0);
                    let mut result = json!({
                        "ruleId": f.rule.id,
                        "ruleIndex": index,
                        "level": sarif_level(f.severity()),
                        "message": {"text": format!("{}: {}", where_(f), f.message)},
                        "locations": [loc],
                    });
                    if let Some(k) = &r.kind {
                        result["properties"] = json!({"modelKind": k.kind.name()});
                    }
                    res.push(result);
                }
            }
        }
    }
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "mdlx",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": notes.is_empty(),
                "toolExecutionNotifications": notes,
            }],
            "results": res,
        }],
    });
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)?;
    Ok(())
}
