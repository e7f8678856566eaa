//! Maps written anew by `Archive::rewrite`, judged by StormLib (`smpq`): each shared
//! archive rewritten with nothing changed lists the same files and extracts the same bytes;
//! with a file added, one replaced, one removed and one renamed, StormLib sees exactly that.

mod common;

#[path = "mpq_write/judge.rs"]
#[allow(dead_code)]
mod judge;

use mdlx::mpq::{Archive, Edits};
use std::collections::BTreeMap;

/// Files by lower-case name, and the files whose names are unknown (their pseudo-names
/// follow block numbers, which a rewrite changes), sorted by content.
#[derive(PartialEq, Eq, Clone)]
struct Files {
    named: BTreeMap<String, Vec<u8>>,
    unnamed: Vec<Vec<u8>>,
}

fn is_pseudo(k: &str) -> bool {
    k.len() >= 12 && k.starts_with("file") && k[4..12].bytes().all(|b| b.is_ascii_digit())
}

impl Files {
    fn new(all: impl IntoIterator<Item = (String, Vec<u8>)>) -> Files {
        let mut f = Files {
            named: BTreeMap::new(),
            unnamed: Vec::new(),
        };
        for (k, v) in all {
            let k = k.to_ascii_lowercase();
            if is_pseudo(&k) {
                f.unnamed.push(v);
            } else {
                f.named.insert(k, v);
            }
        }
        f.unnamed.sort();
        f
    }

    /// The first difference from `other`, by name, without the bytes.
    fn diff(&self, other: &Files) -> Option<String> {
        for (k, v) in &self.named {
            match other.named.get(k) {
                None => return Some(format!("{k} missing")),
                Some(w) if w != v => {
                    return Some(format!(
                        "{k}: {} bytes where {} were expected",
                        w.len(),
                        v.len()
                    ))
                }
                _ => {}
            }
        }
        if let Some(k) = other.named.keys().find(|k| !self.named.contains_key(*k)) {
            return Some(format!("{k} is there and should not be"));
        }
        (self.unnamed != other.unnamed).then(|| {
            format!(
                "unnamed files differ: {} expected, {} there",
                self.unnamed.len(),
                other.unnamed.len()
            )
        })
    }
}

/// What our reader reads from `a`, the special files left out.
fn contents(a: &Archive) -> Files {
    Files::new(
        a.entries()
            .iter()
            .filter(|e| !e.name().starts_with('('))
            .filter_map(|e| Some((e.name(), a.read_entry(e).ok()?))),
    )
}

/// What StormLib extracts from `bytes`, given the names we know, keyed as `contents`.
fn stormlib(smpq: &std::path::Path, bytes: &[u8], names: &[String], tag: &str) -> Files {
    let dir = judge::temp_dir(tag);
    let path = dir.join("archive.w3x");
    std::fs::write(&path, bytes).unwrap();
    let list = dir.join("names.txt");
    std::fs::write(&list, names.join("\r\n")).unwrap();
    let (files, failed) = judge::extract(smpq, &path, Some(&list));
    assert!(
        failed.is_empty(),
        "{tag}: StormLib cannot read {failed:?} of our archive"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    Files::new(files)
}

#[test]
fn rewritten_maps_read_the_same_in_stormlib() {
    let Some(smpq) = judge::smpq() else { return };
    let (mut unchanged, mut edited, mut files, mut dated) = (0, 0, 0, 0);
    for path in common::archives() {
        let label = path.file_name().unwrap().to_string_lossy().to_string();
        let a = Archive::open(&path).unwrap();
        let before = contents(&a);
        let names: Vec<String> = a
            .entries()
            .iter()
            .filter_map(|e| e.known_name.clone())
            .collect();
        let same = a
            .rewrite(&Edits {
                drop_unreadable: true,
                ..Edits::default()
            })
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        // Our reader and StormLib both read the rewritten archive as the original.
        let back = Archive::from_bytes(same.bytes.clone()).unwrap();
        if let Some(d) = before.diff(&contents(&back)) {
            panic!("{label}: our reader on the unchanged rewrite: {d}");
        }
        let theirs = stormlib(&smpq, &same.bytes, &names, "same");
        if let Some(d) = before.diff(&theirs) {
            panic!("{label}: StormLib on the unchanged rewrite: {d}");
        }
        // The file times of (attributes) carried over: StormLib lists the same dates.
        let dir = judge::temp_dir("dates");
        let (orig, new) = (dir.join("orig.w3x"), dir.join("new.w3x"));
        std::fs::copy(&path, &orig).unwrap();
        std::fs::write(&new, &same.bytes).unwrap();
        let list = dir.join("names.txt");
        std::fs::write(&list, names.join("\r\n")).unwrap();
        let dates = |p: &std::path::Path| -> BTreeMap<String, String> {
            judge::list(&smpq, p, Some(&list))
                .into_iter()
                .filter(|l| !is_pseudo(&l.name.to_ascii_lowercase()))
                .map(|l| (l.name.to_ascii_lowercase(), l.date))
                .collect()
        };
        let (d0, d1) = (dates(&orig), dates(&new));
        // Where StormLib reads a time in the original (it reads none in spazzledMap's
        // protected (attributes), which we carry over too).
        for (name, date) in &d0 {
            if before.named.contains_key(name) && !date.starts_with("1970") {
                assert_eq!(
                    d1.get(name),
                    Some(date),
                    "{label}: {name}'s time in (attributes)"
                );
                dated += usize::from(!date.starts_with("1970"));
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
        unchanged += 1;
        files += before.named.len() + before.unnamed.len();

        // Add, replace, remove, rename: three named files of the original.
        let named: Vec<&String> = before.named.keys().collect();
        if named.len() < 3 {
            continue;
        }
        let (replace, remove, rename) = (named[0].clone(), named[1].clone(), named[2].clone());
        let edits = Edits {
            put: vec![
                (
                    "war3mapImported\\mdlx-added.txt".into(),
                    b"added by mdlx".to_vec(),
                ),
                (replace.clone(), b"replaced".to_vec()),
            ],
            remove: vec![remove.clone()],
            rename: vec![(rename.clone(), "war3mapImported\\renamed.bin".into())],
            drop_unreadable: true,
            imports: false,
        };
        let done = a.rewrite(&edits).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(
            (done.added, done.replaced, done.removed, done.renamed),
            (1, 1, 1, 1),
            "{label}"
        );
        let mut expect = before.clone();
        let e = &mut expect.named;
        e.insert(
            "war3mapimported\\mdlx-added.txt".into(),
            b"added by mdlx".to_vec(),
        );
        e.insert(replace.clone(), b"replaced".to_vec());
        e.remove(&remove);
        let moved = e.remove(&rename).unwrap();
        e.insert("war3mapimported\\renamed.bin".into(), moved);
        let mut names2 = names.clone();
        names2.push("war3mapImported\\renamed.bin".into());
        let theirs = stormlib(&smpq, &done.bytes, &names2, "edited");
        if let Some(d) = expect.diff(&theirs) {
            panic!("{label}: StormLib after the edits: {d}");
        }
        edited += 1;
    }
    println!(
        "mpq_edit: {unchanged} archives rewritten unchanged ({files} files equal in StormLib, {dated} file times kept), {edited} edited (add, replace, remove, rename) and equal in StormLib"
    );
    assert!(dated > 0, "some archive has file times");
    assert_eq!(unchanged, common::archives().len());
}
