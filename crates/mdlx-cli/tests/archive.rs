//! Archives through the tool: `ls`, `extract`, `update`, `map.w3x:NAME` inputs, a map as a
//! folder for `check` and `convert --to glb` (every model inside the 14 shared archives,
//! textures found inside the map), and `optimize MAP NEW_MAP`.

mod common;
use common::*;
use std::path::PathBuf;

fn archive(name: &str) -> PathBuf {
    shared().join("archives").join(name)
}

fn archives() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(shared().join("archives"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| !matches!(p.extension().and_then(|e| e.to_str()), Some("md" | "tsv")))
        .collect();
    v.sort();
    v
}

#[test]
fn ls_names_a_map_without_a_listfile() {
    let a = s(archive("inwc3+JMPQ3__listfilelessMap.w3x"));
    let r = mdlx(&["ls", &a]);
    assert!(r.status.success(), "{}", stderr(&r));
    let names = text(&r.stdout);
    assert_eq!(names.lines().count(), 19, "{names}");
    assert!(
        names.lines().any(|l| l == "war3mapImported\\tcBox.mdx"),
        "{names}"
    );
    assert!(!names.contains("File000"), "every name recovered: {names}");
    let r = mdlx(&["ls", "--json", &a, "*.mdx"]);
    let lines = text(&r.stdout);
    assert_eq!(lines.lines().count(), 2, "{lines}");
    for l in lines.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert!(v["size"].as_u64().unwrap() > 0 && v["named"] == true, "{l}");
    }
}

#[test]
fn extract_writes_folders_and_names_what_it_cannot_read() {
    let dir = temp_dir("extract");
    let out = dir.join("in");
    let r = mdlx(&["extract", &s(archive("inwc3+wc3libs__in.w3x")), &s(&out)]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(out.join("war3mapImported").is_dir());
    assert!(out.join("war3map.j").is_file());
    // The truncated archive: the cut file is named, nothing is written for it, status 1.
    let out = dir.join("bt");
    let r = mdlx(&[
        "extract",
        &s(archive("inwc3+JMPQ3__buildtest.w3x")),
        &s(&out),
    ]);
    assert_eq!(r.status.code(), Some(1));
    let err = stderr(&r);
    assert!(
        err.contains("war3map.j:") && err.contains("cut short"),
        "{err}"
    );
    assert!(!out.join("war3map.j").exists());
}

#[test]
fn members_are_inputs() {
    let member = format!("{}:Megumin.mdx", s(archive("inwc3+wc3libs__in.w3x")));
    let r = mdlx(&["info", &member]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(text(&r.stdout).contains("MDX, version 800"));
    let r = mdlx(&[
        "info",
        &format!("{}:no-such.mdx", s(archive("inwc3+wc3libs__in.w3x"))),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        stderr(&r).contains("no file `no-such.mdx`"),
        "{}",
        stderr(&r)
    );
}

/// Every model inside every shared archive, checked and exported to glTF with the map as a
/// folder; the textures the models name are looked up in the map.
#[test]
fn maps_as_folders() {
    let dir = temp_dir("maps");
    let (mut maps, mut models, mut glbs, mut images) = (0, 0, 0, 0);
    for a in archives() {
        let listed = mdlx(&["ls", &s(&a), "*.mdx", "*.mdl"]);
        let count = text(&listed.stdout).lines().count();
        if count == 0 {
            continue;
        }
        maps += 1;
        let r = mdlx(&["check", &s(&a)]);
        let summary = text(&r.stdout);
        let phrase = if count == 1 {
            "1 file checked".to_string()
        } else {
            format!("{count} files checked")
        };
        assert!(
            summary.contains(&phrase),
            "{}: {count} models listed; check says {}",
            a.display(),
            summary.lines().last().unwrap_or("")
        );
        models += count;
        let out = dir.join(a.file_stem().unwrap());
        let r = mdlx(&["convert", &s(&a), &s(&out), "--to", "glb"]);
        assert!(r.status.success(), "{}: {}", a.display(), stderr(&r));
        for e in walk(&out) {
            glbs += 1;
            let bytes = std::fs::read(&e).unwrap();
            let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
            let json: serde_json::Value = serde_json::from_slice(&bytes[20..20 + len]).unwrap();
            images += json["images"].as_array().map_or(0, Vec::len);
        }
    }
    println!("maps as folders: {maps} maps, {models} models checked, {glbs} exported to glb with {images} textures embedded from the maps");
    assert_eq!(glbs, models);
    assert!(images > 0);
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "glb") {
            out.push(p);
        }
    }
    out
}

#[test]
fn update_and_optimize_write_new_maps() {
    let dir = temp_dir("update");
    let src = archive("tdauth+wc3lib___4_WarChasers.w3m");
    let file = dir.join("hi.txt");
    std::fs::write(&file, "hello").unwrap();
    let out = dir.join("new.w3m");
    let r = mdlx(&[
        "update",
        &s(&src),
        &s(&out),
        "--put",
        &format!("war3mapImported\\hi.txt={}", s(&file)),
        "--remove",
        "war3map.w3c",
        "--rename",
        "war3map.wtg=old.wtg",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("signature is dropped"),
        "{}",
        stderr(&r)
    );
    let names = text(&mdlx(&["ls", &s(&out)]).stdout);
    assert!(names.contains("war3mapImported\\hi.txt") && names.contains("old.wtg"));
    assert!(!names.contains("war3map.w3c") && !names.contains("war3map.wtg"));
    let r = mdlx(&[
        "extract",
        &s(&out),
        &s(dir.join("x")),
        "war3mapImported/hi.txt",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(
        std::fs::read(dir.join("x/war3mapImported/hi.txt")).unwrap(),
        b"hello"
    );
    // Never over the input.
    let r = mdlx(&["update", &s(&src), &s(&src)]);
    assert_eq!(r.status.code(), Some(1));

    // Every model of a map optimized and put back.
    let map = archive("inwc3+wc3libs__in.w3x");
    let small = dir.join("small.w3x");
    let r = mdlx(&["optimize", &s(&map), &s(&small)]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(std::fs::metadata(&small).unwrap().len() < std::fs::metadata(&map).unwrap().len());
    let before = text(&mdlx(&["ls", &s(&map)]).stdout);
    let after = text(&mdlx(&["ls", &s(&small)]).stdout);
    let sorted = |t: &str| {
        // (attributes) is made afresh where the original had none.
        let mut v: Vec<String> = t
            .lines()
            .filter(|l| !l.starts_with('('))
            .map(str::to_string)
            .collect();
        v.sort();
        v
    };
    let (before, after) = (sorted(&before), sorted(&after));
    assert!(
        before == after,
        "the same files: {} before, {} after",
        before.len(),
        after.len()
    );
    let errors = |p: &PathBuf| {
        let out = text(&mdlx(&["check", &s(p)]).stdout);
        let last = out.lines().last().unwrap_or("").to_string();
        last.split(": ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .map(str::to_string)
    };
    assert_eq!(errors(&map), errors(&small), "no new errors");
}

/// Extraction fills a folder fast, but never the wrong way: a file already there is
/// replaced whole, a link is followed (it stays a link), the archive itself is never
/// written over, and extracting twice gives the same files.
#[cfg(unix)]
#[test]
fn extract_over_what_is_there() {
    let dir = temp_dir("extract-over");
    let map = archive("tdauth+wc3lib___4_WarChasers.w3m");
    let out = dir.join("out");
    let r = mdlx(&["extract", &s(&map), &s(&out), "-q"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let script = std::fs::read(out.join("war3map.j")).unwrap();
    // A link where a file goes, a stale file where another goes, and the archive itself.
    let elsewhere = dir.join("elsewhere.j");
    std::fs::write(&elsewhere, b"old").unwrap();
    std::fs::remove_file(out.join("war3map.j")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("war3map.j")).unwrap();
    std::fs::write(out.join("war3map.w3e"), b"stale").unwrap();
    let copy = out.join("war3map.w3i");
    std::fs::copy(&map, &copy).unwrap();
    let r = mdlx(&["extract", &s(&copy), &s(&out), "-q"]);
    assert_eq!(
        r.status.code(),
        Some(1),
        "the archive's own path is refused"
    );
    assert!(
        stderr(&r).contains("refusing to write over the input"),
        "{}",
        stderr(&r)
    );
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&map).unwrap());
    let r = mdlx(&["extract", &s(&map), &s(&out), "-q"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let link = std::fs::symlink_metadata(out.join("war3map.j")).unwrap();
    assert!(link.file_type().is_symlink(), "the link stays a link");
    assert_eq!(
        std::fs::read(&elsewhere).unwrap(),
        script,
        "written through it"
    );
    let again = dir.join("again");
    mdlx(&["extract", &s(&map), &s(&again), "-q"]);
    assert_eq!(
        std::fs::read(out.join("war3map.w3e")).unwrap(),
        std::fs::read(again.join("war3map.w3e")).unwrap()
    );
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "no temporary file left: {leftovers:?}"
    );
}
