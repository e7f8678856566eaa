//! `mdlx ls ARCHIVE` and `mdlx extract ARCHIVE DIR`: a map's or MPQ archive's files.

use crate::cli::UpdateArgs;
use crate::files;
use anyhow::{bail, Result};
use mdlx::mpq::Entry;
use rayon::prelude::*;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Whether `name` matches the pattern: `*` any run, `?` one character, case-insensitive,
/// `/` and `\` alike.
pub(crate) fn matches(pattern: &str, name: &str) -> bool {
    let (p, n) = (
        mdlx::mpq::name_key(pattern).into_bytes(),
        mdlx::mpq::name_key(name).into_bytes(),
    );
    // Iterative wildcard match, remembering the last `*` to back up to.
    let (mut i, mut j, mut star, mut mark) = (0, 0, None, 0);
    while j < n.len() {
        if i < p.len() && (p[i] == b'?' || p[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == b'*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == b'*')
}

fn selected(entries: Vec<Entry>, patterns: &[String]) -> Vec<Entry> {
    entries
        .into_iter()
        .filter(|e| patterns.is_empty() || patterns.iter().any(|p| matches(p, &e.name())))
        .collect()
}

/// `mdlx ls`.
pub(crate) fn ls(archive: &Path, patterns: &[String], long: bool, json: bool) -> Result<ExitCode> {
    let a = crate::archive::open(archive)?;
    let entries = selected(a.entries(), patterns);
    let mut out = std::io::stdout().lock();
    for e in &entries {
        if json {
            let v = serde_json::json!({
                "name": e.name(),
                "named": e.known_name.is_some(),
                "size": e.size,
                "stored": e.stored_size,
                "locale": e.locale,
                "encrypted": e.encrypted(),
            });
            writeln!(out, "{v}")?;
        } else if long {
            writeln!(out, "{:>10} {:>10} {}", e.size, e.stored_size, e.name())?;
        } else {
            writeln!(out, "{}", e.name())?;
        }
    }
    if !json && long {
        let unnamed = entries.iter().filter(|e| e.known_name.is_none()).count();
        eprintln!(
            "{} files{}",
            entries.len(),
            if unnamed > 0 {
                format!(", {unnamed} whose names could not be recovered (listed as File%08u.xxx)")
            } else {
                String::new()
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `mdlx extract`: every selected file under `dir`, its backslashes as folders; a file that
/// cannot be read is reported and nothing is written for it.
pub(crate) fn extract(
    archive: &Path,
    dir: &Path,
    patterns: &[String],
    quiet: bool,
) -> Result<ExitCode> {
    let a = crate::archive::open(archive)?;
    let entries = selected(a.entries(), patterns);
    if entries.is_empty() {
        bail!("no file of {} matches", archive.display());
    }
    let fill = files::Filling::new(dir, archive)?;
    // One output per name: a file stored for several locales is extracted once (the
    // neutral one, or the first).
    let mut seen = std::collections::HashSet::new();
    let mut unique: Vec<&Entry> = Vec::new();
    let mut order: Vec<&Entry> = entries.iter().collect();
    order.sort_by_key(|e| (e.locale != 0, e.slot));
    for e in order {
        if seen.insert(mdlx::mpq::name_key(&e.name())) {
            unique.push(e);
        }
    }
    let bar = super::convert_dir::Progress::new(unique.len());
    let results: Vec<Result<u64>> = unique
        .par_iter()
        .map(|e| {
            let r = (|| {
                let data = a.read_entry(e)?;
                fill.write(&crate::archive::safe_relative(&e.name()), &data)?;
                Ok(data.len() as u64)
            })();
            bar.inc();
            r
        })
        .collect();
    bar.finish();
    let (mut ok, mut bytes, mut failed) = (0usize, 0u64, 0usize);
    for r in &results {
        match r {
            Ok(n) => {
                ok += 1;
                bytes += n;
            }
            Err(e) => {
                failed += 1;
                eprintln!("mdlx: error: {}: {e:#}", archive.display());
            }
        }
    }
    if !quiet {
        eprintln!(
            "{ok} files ({bytes} bytes) extracted to {}{}",
            dir.display(),
            if failed > 0 {
                format!("; {failed} could not be read")
            } else {
                String::new()
            }
        );
    }
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn pair(s: &str, what: &str) -> Result<(String, String)> {
    match s.split_once('=') {
        Some((a, b)) if !a.is_empty() && !b.is_empty() => Ok((a.to_string(), b.to_string())),
        _ => bail!("--{what} takes NAME=VALUE, not `{s}`"),
    }
}

/// Adds `file` to `put`, once: the same name twice is refused unless the bytes are the
/// same (a texture two models share).
fn put_once(put: &mut Vec<(String, Vec<u8>)>, file: (String, Vec<u8>)) -> Result<()> {
    match put.iter().find(|(n, _)| mdlx::mpq::same_name(n, &file.0)) {
        Some((_, data)) if *data == file.1 => Ok(()),
        Some((n, _)) => bail!("`{n}` is put twice, with different contents"),
        None => {
            put.push(file);
            Ok(())
        }
    }
}

/// `mdlx update`.
pub(crate) fn update(args: &UpdateArgs) -> Result<ExitCode> {
    let archive = args.archive.as_path();
    let a = crate::archive::open(archive)?;
    let mut edits = mdlx::mpq::Edits {
        drop_unreadable: args.drop_unreadable,
        remove: args.remove.clone(),
        imports: !args.no_import_list,
        ..Default::default()
    };
    for p in &args.put {
        let (name, file) = pair(p, "put")?;
        let data = files::read(Path::new(&file))?;
        put_once(&mut edits.put, (name.replace('/', "\\"), data))?;
    }
    for p in &args.put_model {
        let (name, file) = pair(p, "put-model")?;
        let name = name.replace('/', "\\");
        let placed = super::put_model::place(&name, Path::new(&file), &args.textures, &a)?;
        say_placed(&name, &placed);
        for f in placed.files {
            put_once(&mut edits.put, f)?;
        }
    }
    for r in &args.rename {
        let (old, new) = pair(r, "rename")?;
        edits.rename.push((old, new.replace('/', "\\")));
    }
    for name in edits
        .remove
        .iter()
        .map(String::as_str)
        .chain(edits.rename.iter().map(|r| r.0.as_str()))
    {
        if !a.contains(name) {
            bail!("{}: no file `{name}` in the archive", archive.display());
        }
    }
    let done = a
        .rewrite(&edits)
        .map_err(|e| anyhow::anyhow!("{}: {e}", archive.display()))?;
    files::write(&args.out, &done.bytes, archive)?;
    for d in &done.dropped {
        eprintln!("mdlx: warning: left out {d}");
    }
    eprintln!(
        "{}: {} files; {} added, {} replaced, {} removed, {} renamed; {} bytes{}",
        args.out.display(),
        done.report.files,
        done.added,
        done.replaced,
        done.removed,
        done.renamed,
        done.bytes.len(),
        if done.signature_dropped {
            " (the signature is dropped: a changed archive cannot keep it)"
        } else {
            ""
        }
    );
    say_imports(&done.imports);
    Ok(ExitCode::SUCCESS)
}

/// What `--put-model` gathered, on stderr.
fn say_placed(name: &str, placed: &super::put_model::Placed) {
    let textures: Vec<&str> = placed.files[1..].iter().map(|(n, _)| n.as_str()).collect();
    eprintln!(
        "{name}: the model and {} texture{} to put{}",
        textures.len(),
        if textures.len() == 1 { "" } else { "s" },
        if textures.is_empty() {
            String::new()
        } else {
            format!(" ({})", textures.join(", "))
        }
    );
    for (old, new) in &placed.rewritten {
        eprintln!("{name}: texture path {old} -> {new}");
    }
    for s in &placed.shared {
        eprintln!("{name}: {s} is in the map already, with the same bytes");
    }
    for r in &placed.replaced {
        eprintln!(
            "mdlx: warning: {name}: {r} is in the map with other bytes: replaced by the model's"
        );
    }
    if !placed.missing.is_empty() {
        eprintln!(
            "mdlx: warning: {name}: {} texture{} not found beside the model or under --textures, left as the model names {}: {}",
            placed.missing.len(),
            if placed.missing.len() == 1 { "" } else { "s" },
            if placed.missing.len() == 1 { "it" } else { "them" },
            placed.missing.join(", ")
        );
    }
}

/// What became of the import list, on stderr.
fn say_imports(c: &mdlx::mpq::ImportChanges) {
    let Some(list) = &c.list else { return };
    if let Some(why) = &c.unreadable {
        eprintln!("mdlx: warning: {list} could not be read, left as it is: {why}");
        return;
    }
    let mut parts = Vec::new();
    if !c.added.is_empty() {
        parts.push(format!("{} listed ({})", c.added.len(), c.added.join(", ")));
    }
    if !c.removed.is_empty() {
        parts.push(format!(
            "{} no longer listed ({})",
            c.removed.len(),
            c.removed.join(", ")
        ));
    }
    if !c.renamed.is_empty() {
        let r: Vec<String> = c
            .renamed
            .iter()
            .map(|(o, n)| format!("{o} -> {n}"))
            .collect();
        parts.push(format!("{} renamed ({})", r.len(), r.join(", ")));
    }
    if !parts.is_empty() {
        eprintln!("{list}: {}", parts.join("; "));
    }
    if !c.stale.is_empty() {
        let shown: Vec<&str> = c.stale.iter().take(10).map(String::as_str).collect();
        eprintln!(
            "mdlx: warning: {list} lists {} file{} the map does not hold: {}{}",
            c.stale.len(),
            if c.stale.len() == 1 { "" } else { "s" },
            shown.join(", "),
            if c.stale.len() > 10 { ", ..." } else { "" }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn patterns() {
        assert!(matches("*.mdx", "war3mapImported\\Hero.MDX"));
        assert!(matches("war3mapImported/*", "war3mapImported\\Hero.mdx"));
        assert!(matches("war3map.?", "war3map.j"));
        assert!(!matches("*.mdx", "war3map.j"));
        assert!(matches("*", ""));
        assert!(!matches("a*b", "acd"));
    }
}
