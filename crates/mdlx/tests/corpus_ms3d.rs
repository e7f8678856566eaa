//! Milkshape 3D ASCII over the whole corpus (the `ms3d_ascii` rows of MANIFEST.tsv):
//! - every file reads;
//! - writing and reading back gives an equal document, and writing that again gives the
//!   same bytes;
//! - what is written suits strict readers: CRLF only, quoted names, plain decimal numbers
//!   (no exponent), blocks in the conventional order;
//! - the counts agree with an independent look at the files (the manifest's notes, and the
//!   SDK sample counted by hand).

mod common;

use mdlx::ms3d::{self, Document};
use std::path::PathBuf;

/// The corpus Milkshape files, sorted, with the manifest's notes column.
fn corpus_ms3d() -> Vec<(PathBuf, String)> {
    let text = std::fs::read_to_string(common::corpus_dir().join("MANIFEST.tsv")).unwrap();
    let mut rows: Vec<(PathBuf, String)> = text
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f.first() == Some(&"ms3d_ascii"))
        .map(|f| {
            (
                common::corpus_dir().join(f[7]),
                f.get(8).unwrap_or(&"").to_string(),
            )
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn every_corpus_file_reads_and_writes_back() {
    let files = corpus_ms3d();
    let (mut read, mut equal, mut failures) = (0, 0, Vec::new());
    for (path, notes) in &files {
        let name = common::name(path);
        let data = std::fs::read(path).unwrap();
        let doc = match ms3d::from_bytes(&data) {
            Ok(doc) => doc,
            Err(e) => {
                failures.push(e.render(&name));
                continue;
            }
        };
        read += 1;
        if let Err(problem) = agrees_with_notes(&doc, notes) {
            failures.push(format!("{name}: {problem}"));
        }
        match write_read(&doc) {
            Ok(()) => equal += 1,
            Err(problem) => failures.push(format!("{name}: {problem}")),
        }
    }
    let n = files.len();
    println!("ms3d corpus: {read}/{n} read, {equal}/{n} write->read equal");
    assert!(
        n >= 45,
        "expected the 45 Milkshape files of the corpus, found {n}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `Format::detect` tells every corpus file's format as the manifest records it: the
/// Milkshape files are `Ms3d`, no MDL file (some start with `//` comments) is taken
/// for Milkshape, and the WoW alpha file is `AlphaMdx`.
#[test]
fn format_detect_agrees_with_the_manifest() {
    let mut wrong = Vec::new();
    let rows = common::manifest();
    for row in &rows {
        let data = std::fs::read(common::corpus_dir().join(&row.local_path)).unwrap();
        let want = match row.format.as_str() {
            "mdx" if row.notes.contains("WoW alpha") => mdlx::Format::AlphaMdx,
            "mdx" => mdlx::Format::Mdx,
            "mdl" => mdlx::Format::Mdl,
            "ms3d_ascii" => mdlx::Format::Ms3d,
            other => panic!("unknown format {other} in the manifest"),
        };
        let got = mdlx::Format::detect(&data);
        if got != want {
            wrong.push(format!(
                "{}: {got:?}, the manifest says {want:?}",
                row.local_path
            ));
        }
    }
    println!(
        "format detection: {} files, {} wrong",
        rows.len(),
        wrong.len()
    );
    assert!(rows.len() >= 700);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Writes, reads back, writes again; checks equality, stable bytes and the strict shape.
fn write_read(doc: &Document) -> Result<(), String> {
    let text = ms3d::to_bytes(doc).map_err(|e| e.to_string())?;
    let back = ms3d::from_bytes(&text).map_err(|e| e.render("written.txt"))?;
    if &back != doc {
        return Err("the written file reads back to a different document".into());
    }
    if ms3d::to_bytes(&back).map_err(|e| e.to_string())? != text {
        return Err("writing twice gave different bytes".into());
    }
    strict_shape(&text, doc)
}

/// What strict readers (the SDK importer, Blender's script, Scorched3D) need.
fn strict_shape(text: &[u8], doc: &Document) -> Result<(), String> {
    for (i, w) in text.windows(2).enumerate() {
        if (w[1] == b'\n') != (w[0] == b'\r') {
            return Err(format!("a line ending other than CRLF at byte {i}"));
        }
    }
    if !text.ends_with(b"\r\n") {
        return Err("the last line has no CRLF".into());
    }
    let lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .collect();
    let mut blocks = Vec::new();
    let mut quoted = 0;
    for line in &lines {
        if line.is_empty() || line.starts_with(b"//") {
            continue;
        }
        if line[0].is_ascii_uppercase() {
            let name = line.split(|&b| b == b':').next().unwrap();
            // Comment blocks would hold free text; the corpus has none (see the notes check).
            blocks.push(String::from_utf8_lossy(name).into_owned());
            continue;
        }
        let mut rest: &[u8] = line;
        if line[0] == b'"' {
            quoted += 1;
            let close = 1 + line[1..]
                .iter()
                .position(|&b| b == b'"')
                .ok_or("unclosed name")?;
            rest = &line[close + 1..];
        }
        for token in rest
            .split(u8::is_ascii_whitespace)
            .filter(|t| !t.is_empty())
        {
            if !is_plain_decimal(token) {
                let t = String::from_utf8_lossy(token);
                return Err(format!("`{t}` is not a plain decimal number"));
            }
        }
    }
    let names = doc.meshes.len() + 3 * doc.materials.len() + 2 * doc.bones.len();
    if quoted != names {
        return Err(format!("{quoted} quoted lines, expected {names}"));
    }
    let mut want = vec!["Frames", "Frame", "Meshes", "Materials", "Bones"];
    want.retain(|b| {
        (*b != "Frames" || doc.frames.is_some()) && (*b != "Frame" || doc.frame.is_some())
    });
    if doc.comments.is_some() {
        want.extend([
            "GroupComments",
            "MaterialComments",
            "BoneComments",
            "ModelComment",
        ]);
    }
    if blocks != want {
        return Err(format!(
            "blocks written in the order {blocks:?}, expected {want:?}"
        ));
    }
    Ok(())
}

/// `-?digits(.digits)?`: what `%f`, `atof` and Python's `float` all read the same way.
fn is_plain_decimal(t: &[u8]) -> bool {
    let t = t.strip_prefix(b"-").unwrap_or(t);
    let mut parts = t.splitn(2, |&b| b == b'.');
    let whole = parts.next().unwrap_or_default();
    let frac = parts.next();
    !whole.is_empty()
        && whole.iter().all(u8::is_ascii_digit)
        && frac.is_none_or(|f| !f.is_empty() && f.iter().all(u8::is_ascii_digit))
}

/// The manifest's notes say `frames=F meshes=M materials=T bones=B`, counted when the
/// corpus was gathered, not by this crate.
fn agrees_with_notes(doc: &Document, notes: &str) -> Result<(), String> {
    let field = |key: &str| -> Result<usize, String> {
        let at = notes
            .find(&format!("{key}="))
            .ok_or(format!("no {key}= in the notes"))?;
        let digits: String = notes[at + key.len() + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits
            .parse()
            .map_err(|_| format!("bad {key}= in the notes"))
    };
    let got = [
        doc.frames.map_or(usize::MAX, |f| f as usize),
        doc.meshes.len(),
        doc.materials.len(),
        doc.bones.len(),
    ];
    let want = [
        field("frames")?,
        field("meshes")?,
        field("materials")?,
        field("bones")?,
    ];
    if got != want {
        return Err(format!(
            "frames, meshes, materials, bones are {got:?}, the notes say {want:?}"
        ));
    }
    if doc.comments.as_ref().is_some_and(|c| {
        !c.meshes.is_empty() || !c.materials.is_empty() || !c.bones.is_empty() || c.model.is_some()
    }) {
        return Err("a comment in the corpus: the free-text check above must learn it".into());
    }
    Ok(())
}

fn corpus_file(suffix: &str) -> (String, Document) {
    let (path, _) = corpus_ms3d()
        .into_iter()
        .find(|(p, _)| common::name(p).ends_with(suffix))
        .unwrap_or_else(|| panic!("no corpus file ending in {suffix}"));
    let data = std::fs::read(&path).unwrap();
    let doc = ms3d::from_bytes(&data).unwrap_or_else(|e| panic!("{}", e.render(suffix)));
    (common::name(&path), doc)
}

/// The SDK sample, counted by hand from the file (its line numbers in brackets): one mesh
/// "Box01" [14] of 20 vertices [17], 6 normals [42] and 12 triangles [53]; one material
/// "Material01" [72] whose color map is `D:\Eigene Dateien\Image2.tga` [93]; three bones
/// joint1 [101] (root, 2 position and 2 rotation keys), joint2 [131] (parent joint1, flags
/// 5, 3 + 3 keys), joint3 [141] (parent joint2, flags 4, 2 + 2 keys); `Frames: 30`,
/// `Frame: 1`; no comment blocks.
#[test]
fn the_sdk_sample_holds_what_it_says() {
    let (_, doc) = corpus_file("MilkShape_3D_ASCII.txt");
    assert_eq!((doc.frames, doc.frame), (Some(30), Some(1)));
    assert_eq!(doc.meshes.len(), 1);
    let mesh = &doc.meshes[0];
    assert_eq!(
        (mesh.name.as_bytes(), mesh.flags, mesh.material),
        (&b"Box01"[..], 0, 0)
    );
    assert_eq!(
        (
            mesh.vertices.len(),
            mesh.normals.len(),
            mesh.triangles.len()
        ),
        (20, 6, 12)
    );
    // First vertex line: `0 -10.375000 10.500000 13.750000 0.000000 0.000000 -1`.
    assert_eq!(mesh.vertices[0].position, [-10.375, 10.5, 13.75]);
    assert_eq!(mesh.vertices[0].bone, -1);
    // Last triangle line: `0 13 7 19 5 5 5 3`.
    let last = mesh.triangles[11];
    assert_eq!(
        (last.vertices, last.normals, last.smoothing_group),
        ([13, 7, 19], [5, 5, 5], 3)
    );
    assert_eq!(doc.materials.len(), 1);
    let mat = &doc.materials[0];
    assert_eq!(mat.name.as_bytes(), b"Material01");
    assert_eq!(mat.diffuse, [0.0, 0.501961, 0.752941, 0.8]);
    assert_eq!(mat.shininess, 63.0);
    assert_eq!(mat.color_map.as_bytes(), b"D:\\Eigene Dateien\\Image2.tga");
    assert_eq!(mat.alpha_map.as_bytes(), b"D:\\Eigene Dateien\\Image1.tga");
    let bones: Vec<_> = doc
        .bones
        .iter()
        .map(|b| {
            (
                b.name.to_string(),
                b.parent.to_string(),
                b.flags,
                b.position_keys.len(),
                b.rotation_keys.len(),
            )
        })
        .collect();
    let s = String::from;
    assert_eq!(
        bones,
        [
            (s("joint1"), s(""), 0, 2, 2),
            (s("joint2"), s("joint1"), 5, 3, 3),
            (s("joint3"), s("joint2"), 4, 2, 2)
        ]
    );
    // joint2's middle rotation key: `15.000000 2.286381 -0.000548 -0.000365`.
    let key = doc.bones[1].rotation_keys[1];
    assert_eq!(
        (key.time, key.value),
        (15.0, [2.286381, -0.000548, -0.000365])
    );
    assert_eq!(doc.comments, None);
}

/// bird.txt names three bones `"H\xfcfte"` (Latin-1 for "Hüfte", hip): the byte 0xFC is
/// not UTF-8 and must survive reading and writing.
#[test]
fn a_latin1_name_survives() {
    let (_, doc) = corpus_file("meshes__bird.txt");
    let hip: Vec<_> = doc
        .bones
        .iter()
        .filter(|b| b.name.as_bytes() == b"H\xfcfte")
        .collect();
    assert_eq!(hip.len(), 1, "one bone is named H\\xfcfte");
    let children = doc
        .bones
        .iter()
        .filter(|b| b.parent.as_bytes() == b"H\xfcfte")
        .count();
    assert_eq!(children, 2, "two bones name H\\xfcfte as their parent");
    let text = ms3d::to_bytes(&doc).unwrap();
    assert_eq!(text.windows(7).filter(|w| w == b"\"H\xfcfte\"").count(), 3);
}
