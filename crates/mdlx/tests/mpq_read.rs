//! Every shared archive read by our MPQ reader and by StormLib (`smpq`, the independent
//! judge): the same file names, and every file's bytes equal to what `smpq -x` extracts.
//! Where StormLib cannot read a file (the truncated archive), ours must give an error that
//! names the file, never bytes.

mod common;

use common::judges::{out_dir, smpq};
use mdlx::mpq::Archive;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// A name as compared: StormLib prints `/` for `\`, and names the files it cannot name
/// `File%08u` plus an extension it guesses from the content; we guess none.
fn key(name: &str) -> String {
    let name = name.replace('/', "\\");
    let pseudo = name.len() >= 12
        && name.starts_with("File")
        && name[4..12].bytes().all(|b| b.is_ascii_digit())
        && name[12..].starts_with('.');
    if pseudo {
        name[..12].to_string()
    } else {
        name
    }
}

fn internal(name: &str) -> bool {
    matches!(name, "(listfile)" | "(attributes)" | "(signature)")
}

/// `smpq -l`: the names StormLib lists.
fn stormlib_names(smpq: &Path, archive: &Path, listfile: Option<&Path>) -> BTreeSet<String> {
    let mut cmd = Command::new(smpq);
    cmd.arg("-l");
    if let Some(l) = listfile {
        cmd.arg("-L").arg(l);
    }
    let out = cmd.arg(archive).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.trim().splitn(4, ' ').nth(3).map(|s| s.trim_start()))
        .filter(|s| !s.is_empty())
        .map(key)
        .collect()
}

/// Every file `smpq -x` writes into `dir`, by name as compared.
fn extracted(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                let rel = p.strip_prefix(base).unwrap().to_string_lossy().to_string();
                out.insert(key(&rel), std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn every_shared_archive_reads_as_stormlib_reads_it() {
    let Some(smpq) = smpq() else { return };
    let scratch = out_dir("mpq-read");
    let (mut files_equal, mut names_equal, mut failures) = (0usize, 0usize, Vec::new());
    let mut recovered = Vec::new();
    for path in common::archives() {
        let label = path.file_name().unwrap().to_string_lossy().to_string();
        let archive = Archive::open(&path).unwrap_or_else(|e| panic!("{label}: {e}"));
        let entries = archive.entries();
        let ours: BTreeSet<String> = entries
            .iter()
            .map(|e| e.name())
            .filter(|n| !internal(n))
            .map(|n| key(&n))
            .collect();
        // The names we know (from the listfile, or recovered), given to StormLib too: it
        // takes a name only when its hashes match a file, so it confirms each.
        let list = scratch.join(format!("{label}.txt"));
        let known: Vec<String> = entries
            .iter()
            .filter_map(|e| e.known_name.clone())
            .collect();
        std::fs::write(&list, known.join("\r\n")).unwrap();
        let plain = stormlib_names(&smpq, &path, None);
        let unnamed = plain
            .iter()
            .filter(|n| n.starts_with("File") && n.len() == 12)
            .count();
        let theirs = stormlib_names(&smpq, &path, Some(&list));
        let still = theirs
            .iter()
            .filter(|n| n.starts_with("File") && n.len() == 12)
            .count();
        if unnamed > 0 {
            recovered.push(format!("{label}: StormLib alone names {} of {}; with our recovered names {} (unnamed left: {still})", plain.len() - unnamed, plain.len(), theirs.len() - still));
        }
        if ours == theirs {
            names_equal += 1;
        } else {
            let only_ours: Vec<_> = ours.difference(&theirs).take(5).collect();
            let only_theirs: Vec<_> = theirs.difference(&ours).take(5).collect();
            failures.push(format!(
                "{label}: listing differs: {} ours, {} StormLib's; only ours {only_ours:?}, only StormLib's {only_theirs:?}",
                ours.len(),
                theirs.len()
            ));
        }
        let dir = scratch.join(&label);
        std::fs::create_dir_all(&dir).unwrap();
        let out = Command::new(&smpq)
            .arg("-x")
            .arg("-L")
            .arg(&list)
            .arg(&path)
            .current_dir(&dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        // The files StormLib could not read: `Cannot read file `NAME'`.
        let refused: BTreeSet<String> = stderr
            .lines()
            .filter_map(|l| l.split("Cannot read file `").nth(1))
            .filter_map(|s| s.split('\'').next())
            .map(key)
            .collect();
        let got = extracted(&dir);
        let by_name: BTreeMap<String, &mdlx::mpq::Entry> =
            entries.iter().map(|e| (key(&e.name()), e)).collect();
        for (name, bytes) in &got {
            if refused.contains(name) {
                continue;
            }
            let Some(entry) = by_name.get(name) else {
                failures.push(format!(
                    "{label}: StormLib extracted {name}, which we do not list"
                ));
                continue;
            };
            match archive.read_entry(entry) {
                Ok(ours) if &ours == bytes => files_equal += 1,
                Ok(ours) => failures.push(format!(
                    "{label}: {name}: {} bytes differ from StormLib's {}",
                    ours.len(),
                    bytes.len()
                )),
                Err(e) => failures.push(format!(
                    "{label}: {name}: we fail where StormLib reads: {e}"
                )),
            }
        }
        for name in &refused {
            match by_name.get(name).map(|e| archive.read_entry(e)) {
                Some(Err(e)) => {
                    let msg = e.to_string();
                    assert!(
                        msg.contains(&by_name[name].name()),
                        "{label}: the error names the file: {msg}"
                    );
                    println!("{label}: {name}: StormLib refuses it; ours: {msg}");
                }
                Some(Ok(_)) => failures.push(format!(
                    "{label}: {name}: StormLib refuses it, we return bytes"
                )),
                None => failures.push(format!(
                    "{label}: {name}: StormLib refuses it, we do not list it"
                )),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!(
        "mpq_read: {} archives; listings equal to StormLib's: {names_equal}; files equal to smpq -x: {files_equal}; failures: {}",
        common::archives().len(),
        failures.len()
    );
    for r in &recovered {
        println!("  names: {r}");
    }
    for f in &failures {
        println!("  {f}");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
}
