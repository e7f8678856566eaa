//! The command-line tool end to end: verbs, exit codes, messages, safe output.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::Output;

#[test]
fn info_prints_version_counts_sequences_textures() {
    let out = mdlx(&["info", &cube()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for want in [
        "version 800 (classic)",
        "vertices             24",
        "Spin",
        "2000 .. 4000",
        "Textures\\Cube.blp",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
}

#[test]
fn info_json_is_parseable() {
    let out = mdlx(&["info", "--json", &cube()]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["version"], 800);
    assert_eq!(v["family"], "classic");
    assert_eq!(v["counts"]["face_indices"], 36);
    assert_eq!(v["sequences"][1]["name"], "Spin");
    assert_eq!(v["sequences"][1]["end"], 4000);
    assert_eq!(v["textures"][0]["path"], "Textures\\Cube.blp");
}

#[test]
fn convert_writes_identical_mdx_and_refuses_its_input() {
    let dir = temp_dir("convert");
    let out = dir.join("copy.mdx");
    let r = mdlx(&["convert", &cube(), out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(cube()).unwrap());
    // Over its own input: refused, input unchanged.
    let r = mdlx(&["convert", out.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("refusing to write over the input"));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(cube()).unwrap());
    // No temporary files are left behind.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn convert_of_a_broken_file_fails_cleanly_and_writes_nothing() {
    let dir = temp_dir("broken");
    let bad = dir.join("bad.mdx");
    let data = std::fs::read(cube()).unwrap();
    std::fs::write(&bad, &data[..data.len() / 2]).unwrap();
    let target = dir.join("out.mdx");
    let r = mdlx(&["convert", bad.to_str().unwrap(), target.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.starts_with("mdlx: error: "), "{err}");
    assert!(
        err.contains("at offset 0x")
            && err.contains("runs past the end")
            && err.ends_with("in chunk GEOS\n"),
        "{err}"
    );
    assert!(!target.exists());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn roundtrip_prints_one_line_per_file_and_a_summary() {
    let dir = temp_dir("roundtrip");
    std::fs::copy(cube(), dir.join("a.mdx")).unwrap();
    let data = std::fs::read(cube()).unwrap();
    std::fs::write(dir.join("b.mdx"), &data[..100]).unwrap();
    let r = mdlx(&["roundtrip", dir.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    let text = String::from_utf8(r.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("OK\t") && lines[0].ends_with("a.mdx"));
    assert!(lines[1].starts_with("FAIL\t") && lines[1].contains("b.mdx\t"));
    assert_eq!(lines[2], "1 passed, 1 failed");
}

#[test]
fn bench_prints_the_peer_lines() {
    let dir = temp_dir("bench");
    std::fs::copy(cube(), dir.join("a.mdx")).unwrap();
    let r = mdlx(&["bench", dir.to_str().unwrap(), "2"]);
    assert!(r.status.success());
    let text = String::from_utf8(r.stdout).unwrap();
    assert!(
        text.contains("MDX files=1 skipped=0 bytes_per_pass=2320 repeat=2"),
        "{text}"
    );
    assert!(text
        .lines()
        .any(|l| l.starts_with("MDX parse bytes=4640 seconds=")));
    assert!(text
        .lines()
        .any(|l| l.starts_with("MDX write bytes=4640 ") && l.ends_with("out_bytes=4640")));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(mdlx(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(mdlx(&["info"]).status.code(), Some(2));
}

#[test]
fn convert_to_mdl_and_back_is_identical() {
    let dir = temp_dir("mdl");
    let mdl = dir.join("cube.mdl");
    let back = dir.join("back.mdx");
    let r = mdlx(&["convert", &cube(), mdl.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = std::fs::read_to_string(&mdl).unwrap();
    assert!(
        text.starts_with("Version {\n\tFormatVersion 800,\n}\nModel \"Cube\" {"),
        "{text}"
    );
    assert!(
        !text.contains("MdlxExtension"),
        "the cube needs no extension block"
    );
    let r = mdlx(&["convert", mdl.to_str().unwrap(), back.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(
        std::fs::read(&back).unwrap(),
        std::fs::read(cube()).unwrap()
    );
}

#[test]
fn strict_mdl_refuses_losses_unless_allowed() {
    let dir = temp_dir("strict");
    // A cube whose bone carries a flag bit that no MDL keyword names.
    let mut data = std::fs::read(cube()).unwrap();
    let at = data.windows(4).position(|w| w == b"Root").unwrap() + 80 + 8;
    data[at + 3] = 0x80;
    let input = dir.join("odd.mdx");
    std::fs::write(&input, &data).unwrap();
    let out = dir.join("odd.mdl");
    let r = mdlx(&[
        "convert",
        "--strict-mdl",
        input.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("standard MDL cannot hold Bone[0]: flags 0x80000100"),
        "{err}"
    );
    assert!(!out.exists());
    // Allowed: written, losses still listed.
    let r = mdlx(&[
        "convert",
        "--strict-mdl",
        "--allow-lossy",
        input.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success());
    assert!(!std::fs::read_to_string(&out)
        .unwrap()
        .contains("MdlxExtension"));
    // Default: the extension block keeps the bit and the round trip is exact.
    let r = mdlx(&["convert", input.to_str().unwrap(), out.to_str().unwrap()]);
    assert!(r.status.success());
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("Flags \"Bone\" 0 2147483904,"));
    let back = dir.join("back.mdx");
    assert!(
        mdlx(&["convert", out.to_str().unwrap(), back.to_str().unwrap()])
            .status
            .success()
    );
    assert_eq!(std::fs::read(&back).unwrap(), data);
}

/// Writes the MDL `text` to `dir/name` and runs `mdlx convert` on it to `dir/o.mdx`.
fn convert_mdl_text(dir: &Path, name: &str, text: &str) -> Output {
    let input = dir.join(name);
    std::fs::write(&input, text).unwrap();
    mdlx(&["convert", &s(&input), &s(dir.join("o.mdx"))])
}

#[test]
fn broken_mdl_reports_file_line_column() {
    let dir = temp_dir("badmdl");
    let r = convert_mdl_text(
        &dir,
        "bad.mdl",
        "Version {\n\tFormatVersion 800,\n}\nModel \"M\" {\n\tBlendTime x,\n}\n",
    );
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("bad.mdl:5:12"), "{err}");
    assert!(err.contains("expected an integer, found `x`"), "{err}");
}

#[test]
fn roundtrip_via_mdl() {
    let dir = temp_dir("via");
    std::fs::copy(cube(), dir.join("a.mdx")).unwrap();
    let r = mdlx(&["roundtrip", "--via", "mdl", dir.to_str().unwrap()]);
    assert!(r.status.success());
    assert!(String::from_utf8(r.stdout)
        .unwrap()
        .ends_with("1 passed, 0 failed\n"));
}

/// The `v` lines of an OBJ file.
fn obj_vertices(text: &str) -> Vec<[f32; 3]> {
    text.lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let p: Vec<f32> = l.split(' ').map(|x| x.parse().unwrap()).collect();
            [p[0], p[1], p[2]]
        })
        .collect()
}

#[test]
fn pose_json_gives_world_matrices_and_geoset_visibility() {
    // Spin turns the cube's bone a quarter about +Z every 500 ms.
    let out = mdlx(&[
        "pose",
        &cube(),
        "--sequence",
        "spin",
        "--time",
        "500",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["sequence"], 1);
    let m: Vec<f64> = v["nodes"][0]["world_matrix"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    // Column-major: +X goes to +Y, +Y to -X, +Z stays.
    let want = [0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    for (i, w) in want.iter().enumerate() {
        assert!((m[i] - w).abs() < 1e-6, "m[{i}] = {} in {m:?}", m[i]);
    }
    assert_eq!(v["geosets"][0]["visible"], true);
    // A sequence that does not exist is an error that lists the real ones.
    let out = mdlx(&["pose", &cube(), "--sequence", "Walk"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("0: Stand, 1: Spin"), "{err}");
}

#[test]
fn obj_frames_follow_the_animation() {
    let dir = temp_dir("obj");
    let bind = dir.join("bind.obj");
    let spun = dir.join("spun.obj");
    let r = mdlx(&["convert", &cube(), bind.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let r = mdlx(&[
        "convert",
        &cube(),
        spun.to_str().unwrap(),
        "--sequence",
        "Spin",
        "--time",
        "500",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let bind_text = std::fs::read_to_string(&bind).unwrap();
    let count = |p: &str| bind_text.lines().filter(|l| l.starts_with(p)).count();
    // The cube: 24 vertices with UVs and normals, 12 triangles.
    assert_eq!(
        (count("v "), count("vt "), count("vn "), count("f ")),
        (24, 24, 24, 12)
    );
    // A quarter turn about WC3's +Z is a quarter turn about OBJ's +Y: (X, Y, Z) -> (Z, Y, -X).
    let a = obj_vertices(&bind_text);
    let b = obj_vertices(&std::fs::read_to_string(&spun).unwrap());
    for (p, q) in a.iter().zip(&b) {
        let want = [p[2], p[1], -p[0]];
        assert!(
            (0..3).all(|k| (q[k] - want[k]).abs() < 1e-4),
            "{p:?} -> {q:?}, want {want:?}"
        );
    }
}

#[test]
fn milkshape_converts_both_ways_and_lists_what_it_cannot_hold() {
    let dir = temp_dir("ms3d");
    let sample = repo().join(
        "../shared/corpus/ms3d_ascii/Charsi82__ms3d-plugins__3rd_party__milkshape_sdk__ms3dsdk__specs__MilkShape_3D_ASCII.txt",
    );
    let mdx = dir.join("box.mdx");
    let r = mdlx(&[
        "convert",
        sample.to_str().unwrap(),
        mdx.to_str().unwrap(),
        "--frames",
        "Wave=1-30",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("thing(s) not carried from Milkshape:\n") && err.contains("\n  Material[0]: "),
        "{err}"
    );
    let info = mdlx(&["info", "--json", mdx.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
    // The SDK sample: one box mesh, three joints, frames 1-30 at 24 fps (29 frames of
    // 41.67 ms). Its vertices name no joint (-1), so a fourth, still bone carries them.
    assert_eq!(v["counts"]["geosets"], 1);
    assert_eq!(v["counts"]["bones"], 4);
    assert_eq!(v["sequences"][0]["name"], "Wave");
    assert_eq!(v["sequences"][0]["end"], 1208);

    // Back to Milkshape, with the loss report.
    let txt = dir.join("box.txt");
    let r = mdlx(&["convert", mdx.to_str().unwrap(), txt.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = std::fs::read_to_string(&txt).unwrap();
    assert!(text.starts_with("// MilkShape 3D ASCII\r\n"), "{text}");
    assert!(text.contains("mdlx sequences: 1-30 Wave"), "{text}");
    // A model with things Milkshape cannot hold lists them.
    let halberdier = repo().join(
        "../shared/corpus/mdx/WarRaft__Legion-Tower-Defence__map__war3mapImported__Halberdier.mdx",
    );
    let out = dir.join("halberdier.txt");
    let r = mdlx(&[
        "convert",
        halberdier.to_str().unwrap(),
        out.to_str().unwrap(),
        "--sequence",
        "Walk",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let err = String::from_utf8_lossy(&r.stderr);
    // The file is named once, in the heading; each loss is one indented line under it.
    assert!(
        err.starts_with(&format!(
            "mdlx: {}: 11 thing(s) Milkshape cannot hold:\n",
            halberdier.display()
        )),
        "{err}"
    );
    for want in [
        "\n  Attachment: 9 dropped",
        "\n  GeosetAnimation: 7 dropped",
        "bound to several bones now follow the strongest",
    ] {
        assert!(err.contains(want), "missing {want:?} in\n{err}");
    }
    assert_eq!(err.matches("Halberdier.mdx").count(), 1, "{err}");
    // A broken Milkshape file: file:line and the expected form.
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "Frames: 30\nFrame: 1\nMeshes: 1\n\"m\" 0 0\n2\n0 1 2 3 0 0 0\n",
    )
    .unwrap();
    let r = mdlx(&[
        "convert",
        bad.to_str().unwrap(),
        dir.join("bad.mdx").to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("bad.txt:"), "{err}");
    assert!(!dir.join("bad.mdx").exists());
}

#[test]
fn wow_alpha_files_are_read_shown_posed_and_converted() {
    let boar = repo().join("../shared/corpus/mdx/GrenderG__MDX-Parser__MDXParser__Files__Boar.mdx");
    let out = mdlx(&["info", "--json", boar.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "mdx-alpha");
    // The file's own version and family; the model it was shown as, beside them.
    assert_eq!(v["version"], 1300);
    assert_eq!(v["family"], "wow-alpha");
    assert_eq!(v["model_version"], 800);
    assert_eq!(v["converted"], true);
    assert!(v["source"].as_str().unwrap().contains("version 1300"));
    assert_eq!(v["counts"]["geosets"], 2);
    assert_eq!(v["counts"]["vertices"], 401);
    assert_eq!(v["counts"]["bones"], 26);
    assert_eq!(v["sequences"][2]["name"], "Walk");
    // The losses are listed on stderr, under one heading, and in the JSON.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("thing(s) not carried from the WoW alpha family:\n"),
        "{err}"
    );
    assert!(err.contains("\n  CLID"), "{err}");
    let notes = v["notes"].as_array().unwrap();
    // One line per note under each heading (the losses, what was made ready for the game).
    let headings = err.lines().filter(|l| l.starts_with("mdlx: ")).count();
    assert_eq!(notes.len(), err.lines().count() - headings, "{err}");
    assert!(notes
        .iter()
        .any(|n| n["kind"] == "loss" && n["place"] == "CLID"));
    let dir = temp_dir("alpha");
    let obj = dir.join("boar.obj");
    let r = mdlx(&[
        "convert",
        boar.to_str().unwrap(),
        obj.to_str().unwrap(),
        "--sequence",
        "Walk",
        "--time",
        "300",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = std::fs::read_to_string(&obj).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("v ")).count(), 401);
    let mdx = dir.join("boar.mdx");
    let r = mdlx(&["convert", boar.to_str().unwrap(), mdx.to_str().unwrap()]);
    assert!(r.status.success());
    let m = mdlx::mdx::from_bytes(&std::fs::read(&mdx).unwrap()).unwrap();
    assert_eq!(m.version, 800);
}

#[test]
fn models_convert_to_the_wow_alpha_layouts() {
    let dir = temp_dir("to-alpha");
    for version in ["1300", "1400", "1500"] {
        let out = dir.join(format!("cube{version}.mdx"));
        let r = mdlx(&[
            "convert",
            &cube(),
            out.to_str().unwrap(),
            "--to",
            &format!("alpha{version}"),
        ]);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        let data = std::fs::read(&out).unwrap();
        assert!(mdlx::alpha::is_alpha(&data), "{version}");
        let alpha = mdlx::alpha::from_bytes(&data).unwrap();
        assert_eq!(alpha.version.to_string(), version);
        let info = mdlx(&["info", "--json", out.to_str().unwrap()]);
        let v: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
        assert_eq!(v["format"], "mdx-alpha");
        assert_eq!(v["counts"]["vertices"], 24);
        assert_eq!(v["sequences"][1]["name"], "Spin");
    }
}

fn boar() -> PathBuf {
    repo().join("../shared/corpus/mdx/GrenderG__MDX-Parser__MDXParser__Files__Boar.mdx")
}

#[test]
fn bad_option_values_found_after_parsing_are_usage_errors_exiting_2() {
    let dir = temp_dir("usage");
    let out = dir.join("o.mdl");
    let out = out.to_str().unwrap();
    let cube = cube();
    for args in [
        vec!["convert", &cube, out, "--fps", "0"],
        vec!["convert", &cube, out, "--fps", "-3"],
        vec!["convert", &cube, out, "--fps", "inf"],
        vec!["convert", &cube, out, "--frames", "bogus"],
        vec!["convert", &cube, out, "--frames", "Stand=9-3"],
        vec!["pose", &cube, "--sequence", "Spin", "--time", "NaN"],
        vec!["pose", &cube, "--time", "100"],
        vec!["convert", &cube, "x.unknown"],
        vec!["convert", &cube, "-"],
        vec!["convert", dir.to_str().unwrap(), "elsewhere"],
        vec!["convert", &cube, "-", "--to", "mdl", "--json"],
        vec!["completions", "tcsh"],
    ] {
        let r = mdlx(&args);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
}

fn halberdier() -> String {
    repo()
        .join("../shared/corpus/mdx/WarRaft__Legion-Tower-Defence__map__war3mapImported__Halberdier.mdx")
        .display()
        .to_string()
}

#[test]
fn quiet_silences_loss_notes_but_not_errors() {
    let dir = temp_dir("quiet");
    let txt = dir.join("h.txt");
    let r = mdlx(&["convert", &halberdier(), txt.to_str().unwrap()]);
    assert!(r.status.success());
    assert!(
        !r.stderr.is_empty(),
        "the halberdier has things Milkshape cannot hold"
    );
    let r = mdlx(&["--quiet", "convert", &halberdier(), txt.to_str().unwrap()]);
    assert!(r.status.success());
    assert_eq!(String::from_utf8_lossy(&r.stderr), "");
    let r = mdlx(&["convert", "-q", "/nonexistent.mdx", txt.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).starts_with("mdlx: error: cannot read"));
}

#[test]
fn info_shows_several_files_and_goes_on_past_a_bad_one() {
    let dir = temp_dir("info-many");
    let bad = dir.join("bad.mdx");
    let data = std::fs::read(cube()).unwrap();
    std::fs::write(&bad, &data[..200]).unwrap();
    let boar = boar();
    let r = mdlx(&[
        "info",
        &cube(),
        bad.to_str().unwrap(),
        boar.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    let text = String::from_utf8(r.stdout).unwrap();
    assert!(
        text.contains("cube.mdx\n") && text.contains("Boar.mdx\n"),
        "{text}"
    );
    assert!(
        text.contains("\n\n"),
        "files are separated by a blank line: {text}"
    );
    assert!(String::from_utf8_lossy(&r.stderr).contains("bad.mdx"));
    // JSON: one object per line, the failure among them.
    let r = mdlx(&[
        "info",
        "--json",
        &cube(),
        bad.to_str().unwrap(),
        boar.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    let objects: Vec<serde_json::Value> = String::from_utf8(r.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 3);
    assert_eq!(objects[0]["counts"]["vertices"], 24);
    assert!(objects[1]["error"].as_str().unwrap().contains("offset"));
    assert_eq!(objects[2]["counts"]["vertices"], 401);
}

#[test]
fn completions_are_printed_for_bash_zsh_and_fish() {
    for (shell, want) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef mdlx"),
        ("fish", "complete -c mdlx"),
    ] {
        let r = mdlx(&["completions", shell]);
        assert!(r.status.success(), "{shell}");
        let text = String::from_utf8(r.stdout).unwrap();
        assert!(text.contains(want), "{shell}: {text}");
        assert!(
            text.contains("roundtrip") && text.contains("strict-mdl"),
            "{shell}"
        );
    }
}

#[test]
fn roundtrip_passes_wow_alpha_files_through_their_own_codec() {
    let boar = boar();
    let r = mdlx(&["roundtrip", boar.to_str().unwrap()]);
    let text = String::from_utf8(r.stdout).unwrap();
    assert!(r.status.success(), "{text}");
    assert!(text.starts_with("OK\t"), "{text}");
    assert!(text.ends_with("1 passed, 0 failed\n"));
    // Via MDL: MDL cannot hold the family; its own codec, and the line says so.
    let r = mdlx(&["roundtrip", "--via", "mdl", boar.to_str().unwrap()]);
    let text = String::from_utf8(r.stdout).unwrap();
    assert!(r.status.success(), "{text}");
    assert!(text.contains("through its own codec, not MDL"), "{text}");
}

#[test]
fn roundtrip_json_gives_one_object_per_file_and_a_summary() {
    let dir = temp_dir("rt-json");
    std::fs::copy(cube(), dir.join("a.mdx")).unwrap();
    std::fs::copy(boar(), dir.join("b.mdx")).unwrap();
    let data = std::fs::read(cube()).unwrap();
    std::fs::write(dir.join("c.mdx"), &data[..100]).unwrap();
    let r = mdlx(&["roundtrip", "--json", dir.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    let objects: Vec<serde_json::Value> = String::from_utf8(r.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 4);
    assert_eq!(objects[0]["status"], "ok");
    assert_eq!(objects[0]["version"], 800);
    assert_eq!(objects[1]["status"], "ok");
    assert_eq!(objects[1]["codec"], "wow-alpha");
    assert_eq!(objects[1]["version"], 1300);
    assert_eq!(objects[2]["status"], "fail");
    assert!(objects[2]["error"].as_str().unwrap().contains("offset"));
    assert_eq!(objects[3], serde_json::json!({"passed": 2, "failed": 1}));
}

#[test]
fn convert_json_lists_what_was_written_and_its_losses() {
    let dir = temp_dir("convert-json");
    let txt = dir.join("h.txt");
    let r = mdlx(&["convert", "--json", &halberdier(), txt.to_str().unwrap()]);
    assert!(r.status.success());
    let text = String::from_utf8(r.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["status"], "converted");
    assert_eq!(v["from"], "mdx");
    assert_eq!(v["to"], "ms3d");
    let notes = v["notes"].as_array().unwrap();
    assert!(!notes.is_empty());
    assert!(notes
        .iter()
        .all(|n| n["kind"] == "loss" && n["context"] == "Milkshape cannot hold"));
    // A failure is an object too, with the error.
    let r = mdlx(&[
        "convert",
        "--json",
        "/nonexistent.mdx",
        txt.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["status"], "failed");
    assert!(v["error"].as_str().unwrap().contains("cannot read"));
}

#[test]
fn pose_json_prints_f32_values_as_their_shortest_text() {
    let r = mdlx(&[
        "pose",
        &cube(),
        "--sequence",
        "Spin",
        "--time",
        "250",
        "--json",
    ]);
    assert!(r.status.success());
    let text = String::from_utf8(r.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Every number reads back as an f32 whose shortest text is the text printed.
    let mut numbers = 0;
    fn walk(v: &serde_json::Value, numbers: &mut usize) {
        match v {
            serde_json::Value::Number(n) if n.is_f64() => {
                let printed = n.to_string();
                let x: f32 = printed.parse().unwrap();
                let shortest =
                    serde_json::to_string(&(x.to_string().parse::<f64>().unwrap())).unwrap();
                assert_eq!(printed, shortest);
                *numbers += 1;
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, numbers)),
            serde_json::Value::Object(o) => o.values().for_each(|x| walk(x, numbers)),
            _ => {}
        }
    }
    walk(&v, &mut numbers);
    assert!(numbers > 16, "{text}");
    // Half a quarter turn: about cos 45 degrees, printed as an f32 (9 digits at most), not
    // as the f64 next to it (0.7071067094802856).
    let m00 = v["nodes"][0]["world_matrix"][0].to_string();
    assert!(m00.len() <= 11 && m00.starts_with("0.707106"), "{m00}");
}

#[test]
fn obj_output_comes_with_a_material_library_naming_the_textures() {
    let dir = temp_dir("obj-mtl");
    let obj = dir.join("cube.obj");
    let r = mdlx(&["convert", &cube(), obj.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = std::fs::read_to_string(&obj).unwrap();
    assert!(text.contains("\nmtllib cube.mtl\n"), "{text}");
    assert!(text.contains("\nusemtl material_0\n"), "{text}");
    let mtl = std::fs::read_to_string(dir.join("cube.mtl")).unwrap();
    assert!(mtl.contains("newmtl material_0\n"), "{mtl}");
    assert!(mtl.contains("map_Kd Textures/Cube.blp\n"), "{mtl}");
}

#[test]
fn content_that_is_no_model_is_refused_in_one_line_saying_what_it_looks_like() {
    let dir = temp_dir("not-a-model");
    let cases: [(&str, &[u8], &str); 5] = [
        (
            "pic.mdx",
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10",
            "looks like a PNG image",
        ),
        ("tex.mdx", b"BLP1\0\0\0\0\x01\0\0\0\x08\0\0\0", "BLP"),
        ("tex.mdl", b"DDS |\0\0\0\x07\x10\0\0", "DDS"),
        ("map.mdx", b"PK\x03\x04\x14\0\0\0\x08\0", "zip"),
        ("empty.mdx", b"", "empty"),
    ];
    for (name, bytes, want) in cases {
        let input = dir.join(name);
        std::fs::write(&input, bytes).unwrap();
        let r = mdlx(&[
            "convert",
            input.to_str().unwrap(),
            dir.join("o.mdl").to_str().unwrap(),
        ]);
        assert_eq!(r.status.code(), Some(1), "{name}");
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.contains("not an MDX, MDL or Milkshape file"),
            "{name}: {err}"
        );
        assert!(err.contains(want), "{name}: {err}");
    }
    assert!(!dir.join("o.mdl").exists());
}

#[test]
fn an_mdx_cut_short_is_refused_not_read_as_an_empty_model() {
    let dir = temp_dir("cut");
    let data = std::fs::read(cube()).unwrap();
    for len in [4, 5, 8, 16, 40] {
        let input = dir.join(format!("cut{len}.mdx"));
        std::fs::write(&input, &data[..len]).unwrap();
        let out = dir.join("o.mdl");
        let r = mdlx(&["convert", input.to_str().unwrap(), out.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(1), "{len}: {err}");
        assert!(err.contains("offset 0x"), "{len}: {err}");
        assert!(!out.exists(), "{len}");
    }
}

/// The cube as MDL text.
fn cube_mdl() -> String {
    let r = mdlx(&["convert", &cube(), "-", "--to", "mdl"]);
    assert!(r.status.success());
    String::from_utf8(r.stdout).unwrap()
}

#[test]
fn notes_between_mdl_blocks_are_skipped_with_a_warning_and_refused_under_strict() {
    let dir = temp_dir("mdl-notes");
    let input = dir.join("notes.mdl");
    let text = cube_mdl().replacen(
        "Model \"Cube\"",
        "Made by Anonymous, 2009\nModel \"Cube\"",
        1,
    );
    std::fs::write(&input, &text).unwrap();
    let out = dir.join("o.mdx");
    let r = mdlx(&["convert", input.to_str().unwrap(), out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(r.status.success(), "{err}");
    assert!(err.contains("of text outside any block; skipped"), "{err}");
    assert!(err.contains("notes.mdl:4:1"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(cube()).unwrap());
    // Strict: refused, nothing written.
    std::fs::remove_file(&out).unwrap();
    let r = mdlx(&[
        "--strict",
        "convert",
        input.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("notes.mdl:4:1"));
    assert!(!out.exists());
    // The warning is in the JSON with its line and column.
    let r = mdlx(&["info", "--json", input.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["notes"][0]["kind"], "warning");
    assert_eq!(v["notes"][0]["line"], 4);
    assert_eq!(v["notes"][0]["column"], 1);
}

#[test]
fn a_static_value_of_a_field_that_can_only_be_animated_is_kept_as_a_track_with_a_warning() {
    let dir = temp_dir("mdl-static-vis");
    let input = dir.join("vis.mdl");
    let text = cube_mdl().replacen(
        "Bone \"Root\" {",
        "Attachment \"Hand\" {\n\tObjectId 1,\n\tAttachmentID 0,\n\tstatic Visibility 0.25,\n}\nBone \"Root\" {",
        1,
    );
    let text = text.replacen("PivotPoints 1 {", "PivotPoints 2 {\n\t{ 0, 0, 0 },", 1);
    std::fs::write(&input, &text).unwrap();
    let r = mdlx(&["info", "--json", input.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(r.status.success(), "{err}");
    assert!(err.contains("can only be animated"), "{err}");
    assert!(!err.contains("unknown keyword"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["counts"]["attachments"], 1);
    // Held at 0.25 from the start of each sequence (Stand 0-1000, Spin 2000-4000).
    let r = mdlx(&["-q", "convert", input.to_str().unwrap(), "-", "--to", "mdl"]);
    let mdl = String::from_utf8(r.stdout).unwrap();
    assert!(
        mdl.contains("\tVisibility 2 {\n\t\tDontInterp,\n\t\t0: 0.25,\n\t\t2000: 0.25,\n\t}\n"),
        "{mdl}"
    );
    let r = mdlx(&["--strict", "info", input.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("can only be animated"));
}

#[test]
fn an_mdl_fragment_without_a_model_block_is_refused() {
    let dir = temp_dir("fragment");
    let r = convert_mdl_text(
        &dir,
        "bone.mdl",
        "Version {\n\tFormatVersion 800,\n}\nBone \"B\" {\n\tObjectId 0,\n}\n",
    );
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("no Model block"));
    assert!(!dir.join("o.mdx").exists());
}

/// The JSON chunk of a `.glb`.
fn glb_json(bytes: &[u8]) -> serde_json::Value {
    assert_eq!(&bytes[..4], b"glTF");
    let total = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    assert_eq!(total, bytes.len());
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    assert_eq!(&bytes[16..20], b"JSON");
    serde_json::from_slice(&bytes[20..20 + len]).unwrap()
}

#[test]
fn convert_to_glb_and_gltf_finds_textures_by_warcraft_path_in_any_case() {
    let dir = temp_dir("gltf");
    // The cube names `Textures\Cube.blp`; a hand-made `textures/CUBE.png` stands in for it.
    std::fs::create_dir_all(dir.join("textures")).unwrap();
    let image = mdlx::texture::RgbaImage {
        width: 2,
        height: 2,
        pixels: vec![
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
        ],
    };
    std::fs::write(
        dir.join("textures/CUBE.png"),
        mdlx::texture::png::to_bytes(&image),
    )
    .unwrap();
    std::fs::copy(cube(), dir.join("cube.mdx")).unwrap();
    let glb = dir.join("cube.glb");
    let out = mdlx(&[
        "convert",
        &dir.join("cube.mdx").display().to_string(),
        &glb.display().to_string(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("texture not embedded"), "{stderr}");
    let doc = glb_json(&std::fs::read(&glb).unwrap());
    assert_eq!(doc["asset"]["version"], "2.0");
    assert_eq!(doc["images"].as_array().unwrap().len(), 1);
    assert_eq!(doc["images"][0]["mimeType"], "image/png");
    assert_eq!(doc["animations"][1]["name"], "Spin");

    // The same as one .gltf file with the buffer inside it.
    let gltf = dir.join("cube.gltf");
    let out = mdlx(&[
        "convert",
        &dir.join("cube.mdx").display().to_string(),
        &gltf.display().to_string(),
        "--linear",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&gltf).unwrap()).unwrap();
    assert!(doc["buffers"][0]["uri"]
        .as_str()
        .unwrap()
        .starts_with("data:application/octet-stream;base64,"));

    // Without the texture: listed, and the file is still written.
    std::fs::remove_file(dir.join("textures/CUBE.png")).unwrap();
    let out = mdlx(&[
        "convert",
        &dir.join("cube.mdx").display().to_string(),
        &glb.display().to_string(),
    ]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Textures\\Cube.blp: texture not embedded (not found)"),
        "{stderr}"
    );

    // A folder with --to glb.
    let outdir = dir.join("out");
    let out = mdlx(&[
        "convert",
        &dir.display().to_string(),
        &outdir.display().to_string(),
        "--to",
        "glb",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    glb_json(&std::fs::read(outdir.join("cube.glb")).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_team_color_that_is_not_hex_is_a_usage_error() {
    let out = mdlx(&["convert", &cube(), "x.glb", "--team-color", "red"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("RRGGBB"));
}

/// A 1600 light and camera, converted down and up by `convert --version`: `info` shows
/// each field of the version only, and what 1100 lacks is refused unless allowed.
#[test]
fn info_shows_the_fields_of_the_version_and_convert_moves_between_versions() {
    use mdlx::model::{Camera, Light, Model};
    let dir = temp_dir("versions");
    let light = Light {
        shadow_intensity: 0.5,
        shadow_casting: 1,
        shadow_start: 2.0,
        shadow_end: 30.0,
        quadratic_falloff: 0.25,
        damping: 0.125,
        ..Light::new()
    };
    let model = Model {
        version: 1600,
        lights: vec![light],
        cameras: vec![Camera::default()],
        pivot_points: vec![[0.0; 3]],
        ..Model::default()
    };
    let file = dir.join("lamp.mdx");
    std::fs::write(&file, mdlx::mdx::to_bytes(&model).unwrap()).unwrap();
    let file = file.to_str().unwrap();
    let out = mdlx(&["info", "--json", file]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let l = &v["lights"][0];
    assert_eq!(l["shadow_intensity"], 0.5);
    assert_eq!(l["shadow_casting"], 1);
    assert_eq!(l["shadow_range"], serde_json::json!([2.0, 30.0]));
    assert_eq!(l["falloff"]["quadratic"], 0.25);
    assert_eq!(v["cameras"][0]["layout"], 3);
    let text = String::from_utf8(mdlx(&["info", file]).stdout).unwrap();
    assert!(
        text.contains("shadow intensity 0.5, casts shadows (2..30), falloff quadratic 0.25"),
        "{text}"
    );

    let old = dir.join("lamp1100.mdx");
    let old_s = old.to_str().unwrap();
    let r = mdlx(&["convert", file, old_s, "--version", "1100"]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("version 1100 cannot hold Light[0]: ShadowIntensity (since 1200)"),
        "{err}"
    );
    assert!(!old.exists(), "nothing written");
    let r = mdlx(&["convert", file, old_s, "--version", "1100", "--allow-lossy"]);
    assert_eq!(r.status.code(), Some(0));
    let v: serde_json::Value =
        serde_json::from_slice(&mdlx(&["info", "--json", old_s]).stdout).unwrap();
    assert_eq!(v["version"], 1100);
    assert!(v["lights"][0].get("shadow_intensity").is_none(), "{v}");
    assert_eq!(v["cameras"][0]["layout"], 0);
    // Back up: the defaults, shown.
    let up = dir.join("lamp1800.mdx");
    let r = mdlx(&["convert", old_s, up.to_str().unwrap(), "--version", "1800"]);
    assert_eq!(r.status.code(), Some(0));
    let v: serde_json::Value =
        serde_json::from_slice(&mdlx(&["info", "--json", up.to_str().unwrap()]).stdout).unwrap();
    assert_eq!(v["lights"][0]["shadow_intensity"], 0.0);
    assert_eq!(v["lights"][0]["falloff"]["quadratic"], 0.0005);
    assert_eq!(v["lights"][0]["falloff"]["damping"], 0.00001);
}

/// A version 1300 file whose chunks contradict each other (a Warcraft III MODL, an alpha
/// HTST) is refused with both chunks and their offsets named.
#[test]
fn a_file_of_neither_family_is_refused_with_the_reason() {
    let dir = temp_dir("family");
    let model = mdlx::model::Model {
        version: 1300,
        ..Default::default()
    };
    let mut bytes = mdlx::mdx::to_bytes(&model).unwrap();
    let htst_at = bytes.len();
    bytes.extend_from_slice(b"HTST");
    bytes.extend_from_slice(&4u32.to_le_bytes());
    bytes.extend_from_slice(&0u32.to_le_bytes());
    let file = dir.join("mixed.mdx");
    std::fs::write(&file, &bytes).unwrap();
    let out = mdlx(&["info", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot tell whether this version 1300 MDX is Warcraft III"),
        "{err}"
    );
    assert!(err.contains("MODL at 0x10"), "{err}");
    assert!(err.contains(&format!("HTST at {htst_at:#x}")), "{err}");
}
