//! Maps, second pass (issue 39), judged by StormLib (`smpq`) and mdx-m3-viewer's map parser:
//! - names as the archive's own list writes them, `/` among them: every shared archive
//!   listed and extracted with StormLib's names and bytes; a map written here with `/`
//!   names (with and without a listfile) read by StormLib and by `mdlx` with those names,
//!   and edited through names typed with either separator;
//! - `mdlx update` keeps `war3map.imp` true (files put listed with the flag of the map's
//!   editor, removed ones dropped, renamed ones followed, stale entries reported);
//! - `--put-model`: a model and its textures put into every shared map, StormLib and
//!   mdx-m3-viewer reading them back, every other file of the map byte for byte.

mod common;
use common::*;
use mdlx::mpq::{Archive, ArchiveWriter, EntryName, Imports, NewFile};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

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

/// A name as compared: `\` between folders (StormLib shows `/` on this system whatever the
/// archive holds).
fn norm(name: &str) -> String {
    name.replace('/', "\\")
}

/// StormLib's pseudo-name for a file it cannot name (`File00000012.xxx`).
fn pseudo(name: &str) -> bool {
    name.len() >= 12 && name.starts_with("File") && name[4..12].bytes().all(|b| b.is_ascii_digit())
}

/// `smpq -l` names, `\` between folders.
fn smpq_names(smpq: &Path, archive: &Path) -> Vec<String> {
    let out = Command::new(smpq).arg("-l").arg(archive).output().unwrap();
    assert!(out.status.success(), "smpq -l {archive:?}: {out:?}");
    text(&out.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            // size, date, time, then the name (which may hold spaces)
            let (_size, rest) = l.trim_start().split_once(' ').unwrap();
            let (_date, rest) = rest.trim_start().split_once(' ').unwrap();
            let (_time, name) = rest.split_once(' ').unwrap();
            norm(name)
        })
        .collect()
}

/// Every file under `dir`, by its path below it with `\` between folders.
fn files_under(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy();
                out.insert(norm(&rel), std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// `smpq -x` (with an extra listfile when given) into a fresh folder: its files.
fn smpq_extract(
    smpq: &Path,
    archive: &Path,
    listfile: Option<&Path>,
    dir: &Path,
) -> BTreeMap<String, Vec<u8>> {
    std::fs::create_dir_all(dir).unwrap();
    let mut cmd = Command::new(smpq);
    cmd.current_dir(dir).arg("-x");
    if let Some(l) = listfile {
        cmd.arg("-L").arg(l);
    }
    cmd.arg(archive).output().unwrap();
    files_under(dir)
}

fn mdlx_names(archive: &Path) -> Vec<String> {
    let r = mdlx(&["ls", &s(archive)]);
    assert!(r.status.success(), "{}", stderr(&r));
    text(&r.stdout).lines().map(String::from).collect()
}

#[test]
fn every_shared_archive_lists_and_extracts_as_stormlib() {
    let Some(smpq) = smpq() else { return };
    let dir = temp_dir("as-stormlib");
    let (mut named, mut recovered, mut compared) = (0, 0, 0);
    for (k, a) in archives().iter().enumerate() {
        let label = a.file_name().unwrap().to_string_lossy().into_owned();
        let ours = mdlx_names(a);
        let theirs = smpq_names(&smpq, a);
        let ours_norm: BTreeSet<String> = ours.iter().map(|n| norm(n)).collect();
        for t in theirs.iter().filter(|t| !pseudo(t)) {
            // The same name, letter for letter (the separator aside).
            assert!(
                ours_norm.contains(t),
                "{label}: StormLib lists {t}, mdlx does not: {ours:?}"
            );
            named += 1;
        }
        let specials = ["(listfile)", "(attributes)", "(signature)"];
        let plain = |v: &[String]| v.iter().filter(|n| !specials.contains(&n.as_str())).count();
        assert_eq!(
            plain(&ours),
            plain(&theirs),
            "{label}: one line per file in both"
        );
        recovered +=
            theirs.iter().filter(|t| pseudo(t)).count() - ours.iter().filter(|n| pseudo(n)).count();
        // Extraction: every file StormLib names and reads, at the same path with the same
        // bytes.
        let mine = dir.join(format!("{k}-mdlx"));
        mdlx(&["extract", &s(a), &s(&mine), "-q"]);
        let mine = files_under(&mine);
        let stormlib = smpq_extract(&smpq, a, None, &dir.join(format!("{k}-smpq")));
        for (name, bytes) in stormlib.iter().filter(|(n, _)| !pseudo(n)) {
            assert_eq!(
                mine.get(name),
                Some(bytes),
                "{label}: {name} as StormLib extracts it"
            );
            compared += 1;
        }
    }
    println!(
        "map names: {} archives; {named} names StormLib lists, each listed by mdlx; {recovered} more named by mdlx alone; {compared} files extracted to the same path with the same bytes",
        archives().len()
    );
    assert!(named > 1500 && compared > 1500, "{named} {compared}");
}

/// The bytes of a `war3map.imp` listing `entries` (flag, path).
fn imp_bytes(entries: &[(u8, &str)]) -> Vec<u8> {
    let mut b = 1u32.to_le_bytes().to_vec();
    b.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for (f, p) in entries {
        b.push(*f);
        b.extend_from_slice(p.as_bytes());
        b.push(0);
    }
    b
}

/// The files of a map a script tool wrote with `/` between folders.
fn slash_files() -> Vec<(&'static str, Vec<u8>)> {
    let script = b"function main takes nothing returns nothing\r\n    call Preload(\"war3mapImported/PathingMaps/LongGroundPathingBlockerVer.tga\")\r\nendfunction\r\n".to_vec();
    vec![
        ("war3map.j", script),
        (
            "war3mapImported/PathingMaps/LongGroundPathingBlockerVer.tga",
            b"pathing texture".to_vec(),
        ),
        (
            "war3mapImported/Units/Hero.mdx",
            std::fs::read(cube()).unwrap(),
        ),
        (
            "war3map.imp",
            imp_bytes(&[(13, "war3mapImported/Units/Hero.mdx")]),
        ),
    ]
}

/// A map of `files` written by our writer (stored, not compressed, when `stored`).
fn write_map(files: &[(&str, Vec<u8>)], stored: bool) -> Vec<u8> {
    let mut w = ArchiveWriter::new();
    if stored {
        w.compression(mdlx::mpq::Compression::None);
    }
    for (name, data) in files {
        w.add(NewFile {
            name: EntryName::Named(name.to_string()),
            locale: 0,
            platform: 0,
            data: data.clone(),
            filetime: None,
        });
    }
    w.write().unwrap().0
}

#[test]
fn slash_names_written_and_read_back() {
    let Some(smpq) = smpq() else { return };
    let dir = temp_dir("slash");
    let files = slash_files();

    // Names given with `/` (as script tools give them) to our writer: StormLib lists them
    // and extracts them into their folders; mdlx too, and finds them by any spelling.
    let map = dir.join("slash.w3x");
    std::fs::write(&map, write_map(&files, false)).unwrap();
    let theirs: BTreeSet<String> = smpq_names(&smpq, &map).into_iter().collect();
    let extracted = smpq_extract(&smpq, &map, None, &dir.join("smpq"));
    let ours: BTreeSet<String> = mdlx_names(&map).iter().map(|n| norm(n)).collect();
    for (name, data) in &files {
        assert!(
            theirs.contains(&norm(name)),
            "StormLib lists {name}: {theirs:?}"
        );
        assert_eq!(
            extracted.get(&norm(name)),
            Some(data),
            "StormLib extracts {name}"
        );
        assert!(ours.contains(&norm(name)), "mdlx lists {name}: {ours:?}");
    }
    let r = mdlx(&[
        "info",
        &format!("{}:WAR3MAPIMPORTED/units/hero.MDX", s(&map)),
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let r = mdlx(&["extract", &s(&map), &s(dir.join("mdlx")), "-q"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let mine = files_under(&dir.join("mdlx"));
    for (name, data) in &files {
        assert_eq!(mine.get(&norm(name)), Some(data), "mdlx extracts {name}");
    }

    // A list written with `/` (as script tools write it; the listfile stored plain and
    // its separators turned): mdlx shows the names as the list writes them. StormLib opens
    // such a file by either name but does not list it by name (evidence for writing `\`).
    let mut bytes = write_map(&files, true);
    let listed = b"war3mapImported\\PathingMaps\\LongGroundPathingBlockerVer.tga\r\nwar3mapImported\\Units\\Hero.mdx";
    let at = bytes
        .windows(listed.len())
        .position(|w| w == listed)
        .expect("the stored listfile");
    for b in &mut bytes[at..at + listed.len()] {
        if *b == b'\\' {
            *b = b'/';
        }
    }
    let listed_slash = dir.join("listed-slash.w3x");
    std::fs::write(&listed_slash, &bytes).unwrap();
    let ours = mdlx_names(&listed_slash);
    for (name, _) in &files {
        assert!(
            ours.iter().any(|n| n == name),
            "mdlx ls shows {name} as listed: {ours:?}"
        );
    }
    let theirs = smpq_names(&smpq, &listed_slash);
    let stormlib_pseudo = theirs.iter().filter(|n| pseudo(n)).count();
    let out = Command::new(&smpq)
        .current_dir(&dir)
        .args(["-x", &s(&listed_slash), "war3mapImported/Units/Hero.mdx"])
        .output()
        .unwrap();
    assert!(out.status.success(), "StormLib opens it by name: {out:?}");

    // Edits through names typed with `\` and any case; the new map's list is written with
    // `\`, and StormLib then lists every file by name.
    let pathing = dir.join("blocker.tga");
    std::fs::write(&pathing, b"another").unwrap();
    let edited = dir.join("edited.w3x");
    let r = mdlx(&[
        "update",
        &s(&listed_slash),
        &s(&edited),
        "--put",
        &format!("war3mapImported/PathingMaps/Small.tga={}", s(&pathing)),
        "--rename",
        "WAR3MAPIMPORTED\\PATHINGMAPS\\LongGroundPathingBlockerVer.tga=war3mapImported\\PathingMaps\\Long.tga",
        "--remove",
        "war3mapimported\\units\\HERO.mdx",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let theirs: BTreeSet<String> = smpq_names(&smpq, &edited).into_iter().collect();
    assert_eq!(
        theirs,
        BTreeSet::from(
            [
                "war3map.j",
                "war3map.imp",
                "war3mapImported\\PathingMaps\\Small.tga",
                "war3mapImported\\PathingMaps\\Long.tga"
            ]
            .map(String::from)
        ),
        "StormLib names every file of the rewritten map"
    );
    // The import list followed: the hero is gone from it, the new file is listed.
    let imp =
        Imports::parse(&Archive::open(&edited).unwrap().read("war3map.imp").unwrap()).unwrap();
    let imp_names: Vec<String> = imp.entries.iter().map(|e| e.archive_name()).collect();
    assert_eq!(
        imp_names,
        [
            "war3mapImported\\PathingMaps\\Small.tga",
            "war3mapImported\\PathingMaps\\Long.tga"
        ]
    );

    // A list that names neither import (its lines turned to nonsense): the names come back
    // from the script and the import list, `/` and all.
    let mut unnamed = write_map(&files, true);
    let at = unnamed
        .windows(listed.len())
        .position(|w| w == listed)
        .expect("the listfile");
    for b in &mut unnamed[at..at + listed.len()] {
        if b.is_ascii_lowercase() {
            *b = b'x';
        }
    }
    let nolist = dir.join("unlisted.w3x");
    std::fs::write(&nolist, &unnamed).unwrap();
    let ours = mdlx_names(&nolist);
    assert!(
        ours.iter()
            .any(|n| n == "war3mapImported/PathingMaps/LongGroundPathingBlockerVer.tga")
            && ours.iter().any(|n| n == "war3mapImported/Units/Hero.mdx"),
        "named from the script and the import list: {ours:?}"
    );
    println!(
        "slash names: written by our writer from `/` names, listed and extracted by StormLib and mdlx; a `/` list shown as written by mdlx (StormLib lists {stormlib_pseudo} of its files as File%08u, opening them by name); edited through `\\` names, after which StormLib names every file; named again from the script and the import list when the list names neither"
    );
}

/// The model put into every map (`E15` of the corpus, three textures: one found beside it
/// under `Textures\`, one under `war3mapImported\` in another case, one in a `--textures`
/// folder) and where it goes.
struct Fixture {
    model: PathBuf,
    extra: PathBuf,
    textures: BTreeMap<&'static str, Vec<u8>>,
}

const MODEL_NAME: &str = "war3mapImported\\E15\\E15.mdx";

fn fixture(dir: &Path) -> Fixture {
    let c = corpus();
    let m = dir.join("model");
    let extra = dir.join("extra");
    for d in [m.join("Textures"), m.join("war3mapImported"), extra.clone()] {
        std::fs::create_dir_all(d).unwrap();
    }
    let model = m.join("E15.mdx");
    std::fs::copy(
        c.join("mdx/AMISD666__War3ModelView__test_model__E15__120_.mdx"),
        &model,
    )
    .unwrap();
    let tex = |n: &str| std::fs::read(c.join("textures").join(n)).unwrap();
    let ribbon = tex("AMISD666__War3ModelView__test_model__Textures__RibbonNE1_blue.blp");
    let knife = tex("AMISD666__War3ModelView__test_model__war3mapImported__AZ_Knife_light12.blp");
    let flare = tex("AMISD666__War3ModelView__test_model__war3mapImported__Flare.blp");
    std::fs::write(m.join("Textures/RibbonNE1_blue.blp"), &ribbon).unwrap();
    std::fs::write(m.join("war3mapImported/az_knife_light12.BLP"), &knife).unwrap();
    std::fs::write(extra.join("Flare.blp"), &flare).unwrap();
    Fixture {
        model,
        extra,
        textures: BTreeMap::from([
            // `Textures\` would replace the game's: beside the model, the path rewritten.
            ("war3mapImported\\E15\\RibbonNE1_blue.blp", ribbon),
            // Already a map's path: kept.
            ("war3mapImported\\AZ_Knife_light12.blp", knife),
            ("war3mapImported\\Flare.blp", flare),
        ]),
    }
}

/// What mdx-m3-viewer's `war3map.imp` parser reads from `imp`: the names it keys its
/// entries by (`war3mapimported\` + the path for a standard entry, the path for a custom
/// one). `None` without the peers (outside CI).
fn m3v_imports(dir: &Path, imp: &[u8]) -> Option<Vec<String>> {
    let bin = match std::env::var_os("MDLX_PEERS_BIN") {
        Some(b) => PathBuf::from(b),
        None if std::env::var_os("CI").is_some() => panic!("MDLX_PEERS_BIN is not set under CI"),
        None => return None,
    };
    let modules = bin.parent().unwrap().join("node/node_modules");
    let script = dir.join("imp.js");
    std::fs::write(
        &script,
        "const path = require('path');\n\
         const Imp = require(path.join(process.argv[2], 'mdx-m3-viewer/dist/cjs/parsers/w3x/imp/file')).default;\n\
         const b = require('fs').readFileSync(process.argv[3]);\n\
         const imp = new Imp();\n\
         imp.load(new Uint8Array(b.buffer, b.byteOffset, b.length));\n\
         console.log(JSON.stringify([...imp.entries.keys()]));\n",
    )
    .unwrap();
    let file = dir.join("war3map.imp");
    std::fs::write(&file, imp).unwrap();
    let out = Command::new("node")
        .arg(&script)
        .arg(&modules)
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "mdx-m3-viewer's imp parser: {out:?}");
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

/// The put model opens in the three peers (each reads it and writes it back). Outside CI without
/// the peers, skipped.
fn peers_read(dir: &Path, model: &[u8]) {
    let Some(bin) = std::env::var_os("MDLX_PEERS_BIN").map(PathBuf::from) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "MDLX_PEERS_BIN is not set under CI"
        );
        return;
    };
    let path = dir.join("put.mdx");
    std::fs::write(&path, model).unwrap();
    for peer in ["m3v", "w3m", "wc3rs"] {
        let out = dir.join(format!("put-{peer}.mdx"));
        let r = Command::new(bin.join(peer))
            .arg("convert")
            .arg(&path)
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            r.status.success() && out.is_file(),
            "{peer} reads the put model: {r:?}"
        );
    }
}

#[test]
fn a_model_with_its_textures_into_every_shared_map() {
    let Some(smpq) = smpq() else { return };
    let dir = temp_dir("put-model");
    let fx = fixture(&dir);
    let (mut maps, mut peer_read, mut same_files) = (0, 0, 0usize);
    for (k, map) in archives().iter().enumerate() {
        let label = map.file_name().unwrap().to_string_lossy().into_owned();
        let out = dir.join(format!("{k}.w3x"));
        let mut args = vec![
            "update".to_string(),
            s(map),
            s(&out),
            "--put-model".into(),
            format!("{MODEL_NAME}={}", s(&fx.model)),
            "--textures".into(),
            s(&fx.extra),
        ];
        // The truncated map: the files that cannot be read are left out (and named).
        let truncated = label.contains("buildtest");
        if truncated {
            args.push("--drop-unreadable".into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = mdlx(&args);
        assert!(r.status.success(), "{label}: {}", stderr(&r));
        let err = stderr(&r);
        assert!(
            err.contains("texture path Textures\\RibbonNE1_blue.blp -> war3mapImported\\E15\\RibbonNE1_blue.blp"),
            "{label}: {err}"
        );

        // StormLib lists and extracts the model and its textures; the model names them
        // where they are.
        let names: BTreeSet<String> = smpq_names(&smpq, &out).into_iter().collect();
        let got = smpq_extract(&smpq, &out, None, &dir.join(format!("{k}-x")));
        for (name, data) in &fx.textures {
            assert!(names.contains(*name), "{label}: StormLib lists {name}");
            assert_eq!(got.get(*name), Some(data), "{label}: {name}");
        }
        let model = got
            .get(MODEL_NAME)
            .unwrap_or_else(|| panic!("{label}: the model"));
        let loaded = mdlx::read(model, &mdlx::ReadOptions::default()).unwrap();
        let paths: BTreeSet<String> = loaded
            .model
            .textures
            .iter()
            .map(|t| t.path.text().into_owned())
            .collect();
        let want: BTreeSet<String> = fx.textures.keys().map(|n| n.to_string()).collect();
        assert_eq!(paths, want, "{label}: the model's texture paths");
        // Our check finds no error in it (its source has none), its textures in the map.
        let member = format!("{}:{MODEL_NAME}", s(&out));
        let r = mdlx(&["check", &member]);
        assert!(r.status.success(), "{label}: {}", stderr(&r));
        assert!(
            text(&r.stdout).contains("0 errors"),
            "{label}: {}",
            text(&r.stdout)
        );
        if k == 0 {
            peers_read(&dir, model);
        }

        // The import list names all four (a map; the plain MPQ archive has none).
        let a = Archive::open(&out).unwrap();
        let is_map = !label.ends_with(".mpq");
        assert_eq!(a.contains("war3map.imp"), is_map, "{label}");
        if is_map {
            let imp = a.read("war3map.imp").unwrap();
            let listed: BTreeSet<String> = Imports::parse(&imp)
                .unwrap()
                .entries
                .iter()
                .map(|e| norm(&e.archive_name()).to_lowercase())
                .collect();
            let keys = m3v_imports(&dir, &imp);
            for name in fx.textures.keys().copied().chain([MODEL_NAME]) {
                assert!(
                    listed.contains(&name.to_lowercase()),
                    "{label}: our reader lists {name}"
                );
                if let Some(keys) = &keys {
                    assert!(
                        keys.iter().any(|k| k.eq_ignore_ascii_case(name)),
                        "{label}: mdx-m3-viewer lists {name}: {keys:?}"
                    );
                }
            }
            peer_read += usize::from(keys.is_some());
        }

        // Every other file byte for byte: StormLib extracts both maps by every name our
        // reader knows.
        let before = Archive::open(map).unwrap();
        let list = dir.join(format!("{k}.names"));
        let known: Vec<String> = before
            .entries()
            .into_iter()
            .filter_map(|e| e.known_name)
            .collect();
        std::fs::write(&list, known.join("\r\n")).unwrap();
        let old = smpq_extract(&smpq, map, Some(&list), &dir.join(format!("{k}-old")));
        let new = smpq_extract(&smpq, &out, Some(&list), &dir.join(format!("{k}-new")));
        let changed = ["(listfile)", "(attributes)", "(signature)", "war3map.imp"];
        // (What cannot be read is left out of the truncated map, and named.)
        let kept = |n: &str| !pseudo(n) && !changed.contains(&n) && before.read(n).is_ok();
        for (name, data) in old.iter().filter(|(n, _)| kept(n)) {
            assert_eq!(
                new.get(name),
                Some(data),
                "{label}: {name} kept byte for byte"
            );
            same_files += 1;
        }
        maps += 1;
    }
    println!(
        "put-model: a model and 3 textures put into {maps} archives, each read back by StormLib, checked without error, the model read by mdx-m3-viewer, war3-model and wc3; war3map.imp read by mdx-m3-viewer in {peer_read} maps; {same_files} other files byte for byte"
    );
}

#[test]
fn the_import_list_follows_the_edits() {
    let dir = temp_dir("imports");
    let file = dir.join("x.txt");
    std::fs::write(&file, b"imported").unwrap();
    let map = |n: &str| shared().join("archives").join(n);
    let imp_of = |p: &Path| Archive::open(p).unwrap().read("war3map.imp").ok();
    let put = |from: &Path, to: &Path, extra: &[&str]| {
        let mut args = vec![
            "update".to_string(),
            s(from),
            s(to),
            "--put".into(),
            format!("war3mapImported\\x.txt={}", s(&file)),
            "--put".into(),
            format!("war3map.j={}", s(&file)),
        ];
        args.extend(extra.iter().map(|a| a.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = mdlx(&args);
        assert!(r.status.success(), "{}", stderr(&r));
        stderr(&r)
    };
    let last = |p: &Path| {
        let imp = Imports::parse(&imp_of(p).unwrap()).unwrap();
        let e = imp.entries.last().unwrap().clone();
        (imp.entries.len(), e.flag, e.path_text())
    };
    // The Frozen Throne's editor's flag in a classic map; Reforged's in a Reforged one;
    // the map's own script is no import.
    let classic = map("inwc3+wc3libs__in.w3x");
    let out = dir.join("classic.w3x");
    put(&classic, &out, &[]);
    let before = Imports::parse(&imp_of(&classic).unwrap()).unwrap();
    assert_eq!(
        last(&out),
        (
            before.entries.len() + 1,
            Some(13),
            "war3mapImported\\x.txt".into()
        )
    );
    let reforged = map("CSharp4Net+Warcraft3.Map.Klatschen__Klatschen_2025.w3x");
    let out = dir.join("reforged.w3x");
    put(&reforged, &out, &[]);
    assert_eq!(last(&out), (2, Some(29), "war3mapImported\\x.txt".into()));
    // The old entries stay byte for byte: the new list begins as the old one did.
    let old = imp_of(&reforged).unwrap();
    assert_eq!(imp_of(&out).unwrap()[8..old.len()], old[8..]);
    // A map with no list gets one.
    let none = map("tdauth+wc3lib___4_WarChasers.w3m");
    assert!(imp_of(&none).is_none());
    let out = dir.join("new-list.w3m");
    let err = put(&none, &out, &[]);
    assert!(
        err.contains("war3map.imp: 1 listed (war3mapImported\\x.txt)"),
        "{err}"
    );
    assert_eq!(last(&out), (1, Some(13), "war3mapImported\\x.txt".into()));
    // Left alone when asked.
    let out = dir.join("kept.w3x");
    put(&classic, &out, &["--no-import-list"]);
    assert_eq!(imp_of(&out), imp_of(&classic));
    // Entries of files the map lacks are reported (the truncated map lists 331 files and
    // holds 54).
    let out = dir.join("stale.w3x");
    let err = put(
        &map("inwc3+JMPQ3__buildtest.w3x"),
        &out,
        &["--drop-unreadable"],
    );
    assert!(
        err.contains("war3map.imp lists") && err.contains("files the map does not hold"),
        "{err}"
    );
    println!("import list: flag 13 in a classic map, 29 in a Reforged one, a list made where none was, left alone with --no-import-list, stale entries reported");
}
