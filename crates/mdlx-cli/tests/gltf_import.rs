//! `mdlx convert` and `mdlx info` with glTF input, end to end: models with their BLP
//! textures beside them, --version, --texture-path, --strict, broken files, folders, and
//! outputs that never replace an input. The samples are read in place (copied only into
//! temporary folders).

mod common;
use common::*;

use serde_json::Value;
use std::os::unix::fs::symlink;
use std::path::Path;

fn sample(rel: &str) -> String {
    s(shared().join("gltf-samples").join(rel))
}

fn box_textured() -> String {
    sample("BoxTextured/BoxTextured.glb")
}

/// Every file under `dir`, relative, `/`-separated, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

fn read_model(path: &Path) -> mdlx::Model {
    let data = std::fs::read(path).unwrap();
    mdlx::read(&data, &Default::default()).unwrap().model
}

/// The model names textures as `PREFIX\NAME.blp`, and each such file is beside it as
/// BLP1. (Other paths are the game's own textures, such as the HD materials' stand-ins.)
fn assert_textures_beside(model: &mdlx::Model, dir: &Path, prefix: &str) {
    let paths: Vec<String> = model
        .textures
        .iter()
        .filter(|t| t.replaceable_id == 0)
        .map(|t| t.path.text().to_string())
        .filter(|p| match prefix {
            "" => !p.contains('\\'),
            _ => p.starts_with(prefix),
        })
        .collect();
    assert!(
        !paths.is_empty(),
        "no texture under {prefix:?} in the model"
    );
    for p in paths {
        let file = dir.join(p.replace('\\', "/"));
        let data = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert_eq!(&data[..4], b"BLP1", "{}", file.display());
    }
}

#[test]
fn a_glb_converts_to_mdx_and_mdl_with_its_textures_written_beside() {
    for ext in ["mdx", "mdl"] {
        let dir = temp_dir(&format!("box-{ext}"));
        let out = dir.join(format!("crate.{ext}"));
        let r = mdlx(&["convert", &box_textured(), &s(&out), "--json"]);
        assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
        let model = read_model(&out);
        assert_eq!(model.version, 800);
        // The model is named after the output file.
        assert_eq!(model.info.name.text(), "crate");
        assert!(!model.geosets.is_empty());
        assert_textures_beside(&model, &dir, "war3mapImported\\");
        // Nothing else is left: no temporary files.
        assert!(
            tree(&dir).iter().all(|f| !f.ends_with(".tmp")),
            "{:?}",
            tree(&dir)
        );
        let v: Value = serde_json::from_slice(&r.stdout).unwrap();
        assert_eq!(v["status"], "converted");
        assert_eq!(v["from"], "gltf");
        let listed = v["textures"].as_array().unwrap();
        assert_eq!(listed.len(), tree(&dir).len() - 1, "{v}");
    }
}

#[test]
fn a_gltf_reads_its_buffers_and_images_from_its_own_folder() {
    let dir = temp_dir("external");
    let out = dir.join("cube.mdx");
    // Run from elsewhere: the .bin and the PNGs are found beside the .gltf, not in the
    // working folder.
    let r = command()
        .current_dir(&dir)
        .args([
            "convert",
            &sample("AnimatedCube/AnimatedCube.gltf"),
            "cube.mdx",
        ])
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let model = read_model(&out);
    assert!(!model.sequences.is_empty(), "the clip became a sequence");
    assert_textures_beside(&model, &dir, "war3mapImported\\");
    // Without its .bin beside it, it fails in one line and writes nothing.
    let alone = temp_dir("external-alone");
    std::fs::copy(
        sample("AnimatedCube/AnimatedCube.gltf"),
        alone.join("AnimatedCube.gltf"),
    )
    .unwrap();
    let r = mdlx(&[
        "convert",
        &s(alone.join("AnimatedCube.gltf")),
        &s(alone.join("cube.mdx")),
    ]);
    assert_eq!(r.status.code(), Some(1));
    let err = stderr(&r);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "mdlx: error: {}: ",
            s(alone.join("AnimatedCube.gltf"))
        )),
        "{err}"
    );
    assert_eq!(tree(&alone), ["AnimatedCube.gltf"]);
}

#[test]
fn strict_refuses_an_import_with_losses_and_writes_nothing() {
    let input = sample("BoxVertexColors/BoxVertexColors.glb");
    let dir = temp_dir("strict");
    let out = dir.join("box.mdx");
    let r = mdlx(&["convert", "--strict", &input, &s(&out)]);
    assert_eq!(r.status.code(), Some(1));
    let err = stderr(&r);
    assert!(err.starts_with(&format!("mdlx: error: {input}: ")), "{err}");
    assert!(err.contains("not carried from glTF"), "{err}");
    assert!(err.contains("nothing written"), "{err}");
    assert!(
        err.to_lowercase().contains("colo"),
        "the vertex colours are listed: {err}"
    );
    assert!(tree(&dir).is_empty(), "{:?}", tree(&dir));
    // Without --strict the same file converts, and the losses are listed as other
    // conversions list theirs: the file named once, under one heading.
    let r = mdlx(&["convert", &input, &s(&out)]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let err = stderr(&r);
    assert!(err.starts_with(&format!("mdlx: {input}: ")), "{err}");
    assert!(err.contains("not carried from glTF"), "{err}");
    assert!(out.exists());
    // --quiet silences them.
    let r = mdlx(&["convert", "-q", &input, &s(&out)]);
    assert_eq!(r.status.code(), Some(0));
    assert!(r.stderr.is_empty(), "{}", stderr(&r));
}

#[test]
fn version_picks_the_model_version_built() {
    let dir = temp_dir("version");
    for version in [800u32, 1000, 1100, 1200, 1800] {
        let out = dir.join(format!("rig{version}.mdx"));
        let v = version.to_string();
        let r = mdlx(&[
            "convert",
            &sample("RiggedSimple/RiggedSimple.glb"),
            &s(&out),
            "--version",
            &v,
            "--json",
        ]);
        assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
        let model = read_model(&out);
        assert_eq!(model.version, version);
        assert!(!model.bones.is_empty());
        // Reforged keeps the skin weights; version 800 uses matrix groups.
        let skinned = model.geosets.iter().any(|g| g.skin.is_some());
        assert_eq!(skinned, version >= 1000, "{version}");
        let json: Value = serde_json::from_slice(&r.stdout).unwrap();
        let notes = json["notes"].as_array().unwrap();
        // Only version 800 tells a skin error (when there is one).
        let skin_note = notes
            .iter()
            .any(|n| n["what"].as_str().unwrap().contains("matrix groups"));
        if version >= 1000 {
            assert!(!skin_note, "{json}");
        }
    }
    // The default is 800.
    let out = dir.join("rig.mdx");
    let r = mdlx(&[
        "convert",
        &sample("RiggedSimple/RiggedSimple.glb"),
        &s(&out),
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert_eq!(read_model(&out).version, 800);
    // Other values are usage errors.
    for bad in ["850", "1900", "1250", "x"] {
        let r = mdlx(&["convert", &box_textured(), &s(&out), "--version", bad]);
        assert_eq!(r.status.code(), Some(2), "{bad}");
        assert!(stderr(&r).contains("800, or 900 to 1800"), "{}", stderr(&r));
    }
    // For a model, --version converts it (tests/versions.rs of the library covers what
    // each version keeps); up and back down gives the file's bytes.
    let cube = repo().join("examples/cube.mdx");
    let up = dir.join("cube1800.mdx");
    let r = mdlx(&["convert", &s(&cube), &s(&up), "--version", "1800"]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert_eq!(read_model(&up).version, 1800);
    let down = dir.join("cube.mdx");
    let v = read_model(&cube).version.to_string();
    let r = mdlx(&["convert", &s(&up), &s(&down), "--version", &v]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert!(std::fs::read(&down).unwrap() == std::fs::read(&cube).unwrap());
    // The program's own version is still `mdlx --version`.
    let r = mdlx(&["--version"]);
    assert!(String::from_utf8_lossy(&r.stdout).starts_with("mdlx "));
}

#[test]
fn texture_path_sets_where_the_textures_go_and_what_the_model_calls_them() {
    let dir = temp_dir("texture-path");
    let out = dir.join("box.mdl");
    let r = mdlx(&[
        "convert",
        &box_textured(),
        &s(&out),
        "--texture-path",
        "Textures/Crates",
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let model = read_model(&out);
    assert_textures_beside(&model, &dir, "Textures\\Crates\\");
    assert!(tree(&dir)
        .iter()
        .all(|f| f == "box.mdl" || f.starts_with("Textures/Crates/")));
    // Empty: beside the model itself.
    let dir = temp_dir("texture-path-empty");
    let out = dir.join("box.mdx");
    let r = mdlx(&["convert", &box_textured(), &s(&out), "--texture-path", ""]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let model = read_model(&out);
    assert_textures_beside(&model, &dir, "");
    assert!(
        tree(&dir).iter().all(|f| !f.contains('/')),
        "{:?}",
        tree(&dir)
    );
    // A prefix that leaves the output folder is a usage error.
    for bad in ["../up", "/abs", "a/../../b", "C:\\x"] {
        let r = mdlx(&["convert", &box_textured(), &s(&out), "--texture-path", bad]);
        assert_eq!(r.status.code(), Some(2), "{bad}: {}", stderr(&r));
    }
}

#[test]
fn a_broken_glb_fails_in_one_line_and_writes_nothing() {
    let dir = temp_dir("broken");
    let data = std::fs::read(box_textured()).unwrap();
    let cut = dir.join("cut.glb");
    std::fs::write(&cut, &data[..data.len() / 2]).unwrap();
    for out in ["cut.mdx", "cut.mdl"] {
        let r = mdlx(&["convert", &s(&cut), &s(dir.join(out))]);
        assert_eq!(r.status.code(), Some(1));
        let err = stderr(&r);
        assert_eq!(err.lines().count(), 1, "{err}");
        // `FILE: [json path: ]message (at byte N)`, like the other readers' errors.
        assert!(
            err.starts_with(&format!("mdlx: error: {}: ", s(&cut))),
            "{err}"
        );
        assert!(err.contains("(at byte "), "{err}");
    }
    assert_eq!(tree(&dir), ["cut.glb"]);
    // glTF JSON that is not valid: one line too.
    let bad = dir.join("bad.gltf");
    std::fs::write(
        &bad,
        br#"{"asset": {"version": "2.0"}, "meshes": [{"primitives": 7}]}"#,
    )
    .unwrap();
    let r = mdlx(&["convert", &s(&bad), &s(dir.join("bad.mdx"))]);
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(stderr(&r).lines().count(), 1, "{}", stderr(&r));
    assert!(!dir.join("bad.mdx").exists());
}

#[test]
fn the_input_is_never_replaced_by_the_model_or_a_texture() {
    let dir = temp_dir("input");
    let input = dir.join("box.glb");
    std::fs::copy(box_textured(), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    // An output that is a link to the input.
    symlink(&input, dir.join("link.mdx")).unwrap();
    let r = mdlx(&["convert", &s(&input), &s(dir.join("link.mdx"))]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        stderr(&r).contains("refusing to write over the input"),
        "{}",
        stderr(&r)
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);
    // An input sitting where a texture would be written.
    let probe = temp_dir("input-probe");
    let r = mdlx(&["convert", &s(&input), &s(probe.join("box.mdx")), "--json"]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    let texture = Path::new(v["textures"][0].as_str().unwrap());
    let rel = texture.strip_prefix(&probe).unwrap();
    let trap = dir.join(rel);
    std::fs::create_dir_all(trap.parent().unwrap()).unwrap();
    std::fs::copy(&input, &trap).unwrap();
    let r = mdlx(&["convert", &s(&trap), &s(dir.join("box.mdx"))]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        stderr(&r).contains("refusing to write over the input"),
        "{}",
        stderr(&r)
    );
    assert_eq!(std::fs::read(&trap).unwrap(), before);
    assert!(
        !dir.join("box.mdx").exists(),
        "no model without its texture"
    );
    // glTF does not convert to glTF again.
    let r = mdlx(&["convert", &s(&input), &s(dir.join("again.glb"))]);
    assert_eq!(r.status.code(), Some(1));
    assert!(stderr(&r).contains("glTF already"), "{}", stderr(&r));
}

#[test]
fn standard_output_gets_the_model_and_a_note_that_the_textures_were_not_written() {
    let dir = temp_dir("stdout");
    let r = command()
        .current_dir(&dir)
        .args(["convert", &box_textured(), "-", "--to", "mdx"])
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert_eq!(&r.stdout[..4], b"MDLX");
    let model = mdlx::mdx::from_bytes(&r.stdout).unwrap();
    assert_eq!(
        model.info.name.text(),
        "BoxTextured",
        "named after the input"
    );
    let err = stderr(&r);
    assert!(err.contains("not written: 1 texture(s)"), "{err}");
    assert!(err.contains("standard output"), "{err}");
    assert!(tree(&dir).is_empty(), "{:?}", tree(&dir));
    // Under --strict, that is a loss too.
    let r = mdlx(&["convert", "--strict", &box_textured(), "-", "--to", "mdx"]);
    assert_eq!(r.status.code(), Some(1));
    assert!(r.stdout.is_empty());
}

#[test]
fn a_folder_conversion_takes_gltf_inputs_for_model_outputs_only() {
    let dir = temp_dir("folder");
    let src = dir.join("in");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    std::fs::copy(box_textured(), src.join("box.glb")).unwrap();
    std::fs::copy(
        sample("RiggedSimple/RiggedSimple.glb"),
        src.join("sub/rig.glb"),
    )
    .unwrap();
    let cube = repo().join("examples/cube.mdx");
    std::fs::copy(&cube, src.join("cube.mdx")).unwrap();
    let out = dir.join("out");
    let r = mdlx(&[
        "convert",
        "--to",
        "mdx",
        "--version",
        "1000",
        &s(&src),
        &s(&out),
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert!(stderr(&r).contains("converted 3 of 3"), "{}", stderr(&r));
    let files = tree(&out);
    assert!(files.contains(&"box.mdx".to_string()), "{files:?}");
    assert!(files.contains(&"sub/rig.mdx".to_string()), "{files:?}");
    // --version applies to every input: the glTF ones are built at it, the MDX converted.
    assert_eq!(read_model(&out.join("box.mdx")).version, 1000);
    assert_eq!(read_model(&out.join("cube.mdx")).version, 1000);
    assert_textures_beside(&read_model(&out.join("box.mdx")), &out, "war3mapImported\\");
    // Two copies of one glTF beside each other make the same textures: written once,
    // both models find them (the files are converted in parallel).
    let twins = dir.join("twins");
    std::fs::create_dir_all(&twins).unwrap();
    for name in ["a.glb", "b.glb", "c.glb", "d.glb"] {
        std::fs::copy(box_textured(), twins.join(name)).unwrap();
    }
    let out = dir.join("out-twins");
    let r = mdlx(&["convert", "--to", "mdl", &s(&twins), &s(&out)]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    for name in ["a.mdl", "b.mdl", "c.mdl", "d.mdl"] {
        assert_textures_beside(&read_model(&out.join(name)), &out, "war3mapImported\\");
    }
    assert!(tree(&out).iter().all(|f| !f.ends_with(".tmp")));
    // To glTF, the glTF inputs are not taken.
    let out = dir.join("out-glb");
    let r = mdlx(&["convert", "--to", "glb", &s(&src), &s(&out)]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert_eq!(tree(&out), ["cube.glb"]);
}

#[test]
fn info_shows_what_a_gltf_imports_as() {
    let r = mdlx(&["info", &box_textured()]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(
        text.contains("glTF 2.0 (binary, .glb), imported as a version-800 model"),
        "{text}"
    );
    assert!(text.contains("war3mapImported\\"), "{text}");
    let r = mdlx(&["info", "--json", &sample("AnimatedCube/AnimatedCube.gltf")]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["format"], "gltf");
    assert_eq!(v["converted"], true);
    assert_eq!(v["model_version"], 800);
    assert!(v["source"].as_str().unwrap().contains("JSON, .gltf"));
    // A .gltf whose `asset` comes after the first 4 KiB is glTF too.
    let r = mdlx(&["info", &sample("InterpolationTest/InterpolationTest.gltf")]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
}

#[test]
fn a_model_exported_to_gltf_comes_back_as_itself_unless_told_not_to_carry_it() {
    let dir = temp_dir("source");
    let cube = repo().join("examples/cube.mdx");
    let glb = dir.join("cube.glb");
    let r = mdlx(&["convert", &s(&cube), &s(&glb)]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    // Back at the model's own version, byte for byte (nothing was edited).
    let back = dir.join("back.mdx");
    let r = mdlx(&["convert", &s(&glb), &s(&back)]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert!(std::fs::read(&back).unwrap() == std::fs::read(&cube).unwrap());
    // --no-source: a smaller file, imported as any glTF (a new model, not the bytes).
    let bare = dir.join("bare.glb");
    let r = mdlx(&["convert", &s(&cube), &s(&bare), "--no-source"]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let (with, without) = (std::fs::read(&glb).unwrap(), std::fs::read(&bare).unwrap());
    assert!(
        without.len() < with.len(),
        "{} !< {}",
        without.len(),
        with.len()
    );
    let embeds = |b: &[u8]| b.windows(8).any(|w| w == b"\"source\"");
    assert!(embeds(&with) && !embeds(&without));
    let again = dir.join("again.mdx");
    let r = mdlx(&["convert", &s(&bare), &s(&again)]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert!(std::fs::read(&again).unwrap() != std::fs::read(&cube).unwrap());
}
