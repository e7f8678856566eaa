//! `mdlx convert` of glTF and Milkshape input at the game's scale and ready for the game:
//! `--scale`, `--height`, `--rename`, what the output says about them, and what is
//! refused. The heights are measured here on the written model (posed with `mdlx::anim`),
//! not taken from the tool's output.

mod common;
use common::*;

use serde_json::Value;
use std::path::Path;

fn cesium() -> String {
    s(shared().join("gltf-samples/CesiumMan/CesiumMan.glb"))
}

fn read_model(path: &Path) -> mdlx::Model {
    mdlx::mdx::from_bytes(&std::fs::read(path).unwrap()).unwrap()
}

fn names(m: &mdlx::Model) -> Vec<String> {
    m.sequences
        .iter()
        .map(|q| q.name.text().into_owned())
        .collect()
}

fn errors(m: &mdlx::Model) -> Vec<String> {
    mdlx::check::check(m)
        .into_iter()
        .filter(|f| f.severity() == mdlx::check::Severity::Error)
        .map(|f| f.to_string())
        .collect()
}

/// Converts `input` to `out` with `args`; the notes of the JSON output.
fn convert(input: &str, out: &Path, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["convert", input, out.to_str().unwrap(), "--json"];
    all.extend_from_slice(args);
    let r = mdlx(&all);
    assert_eq!(r.status.code(), Some(0), "{args:?}: {}", stderr(&r));
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    v["notes"].as_array().cloned().unwrap_or_default()
}

/// The notes at `place`, joined by ` | `.
fn note(notes: &[Value], place: &str) -> String {
    let at: Vec<&str> = notes
        .iter()
        .filter(|n| n["place"] == place)
        .filter_map(|n| n["what"].as_str())
        .collect();
    assert!(!at.is_empty(), "no note at {place}: {notes:?}");
    at.join(" | ")
}

#[test]
fn the_default_scale_makes_cesium_man_a_man_of_the_game_with_no_check_error() {
    let dir = temp_dir("default");
    let out = dir.join("man.mdx");
    let notes = convert(&cesium(), &out, &[]);
    let m = read_model(&out);
    let h = height(&m);
    println!(
        "CesiumMan at the default scale: {h:.1} units tall; {}",
        note(&notes, "scale")
    );
    assert!((50.0..=300.0).contains(&h), "{h}");
    assert!(note(&notes, "scale").contains("scaled by 70"));
    assert!(errors(&m).is_empty(), "{:?}", errors(&m));
    // Its one unnamed animation is the Stand. With nothing but a Stand, check takes it
    // for a doodad, which needs no Death, so none is added (`--rename "Animation 0=Walk"`
    // makes it a unit, which gets one: a_walking_import_is_a_unit_and_gets_a_death).
    assert_eq!(names(&m), ["Stand"]);
    // The human output says the scale too.
    let r = mdlx(&["convert", &cesium(), &s(dir.join("man2.mdx"))]);
    assert!(
        stderr(&r).contains("made ready for the game"),
        "{}",
        stderr(&r)
    );
    assert!(stderr(&r).contains("scale: scaled by 70"), "{}", stderr(&r));
}

#[test]
fn a_walking_import_is_a_unit_and_gets_a_death() {
    let dir = temp_dir("walker");
    let out = dir.join("man.mdx");
    let notes = convert(&cesium(), &out, &["--rename", "Animation 0=Walk"]);
    let m = read_model(&out);
    assert_eq!(names(&m), ["Walk", "Stand", "Death"], "{notes:?}");
    assert!(errors(&m).is_empty(), "{:?}", errors(&m));
}

#[test]
fn scale_multiplies_every_length() {
    let dir = temp_dir("scale");
    let (one, two) = (dir.join("one.mdx"), dir.join("two.mdx"));
    convert(&cesium(), &one, &["--scale", "1"]);
    let notes = convert(&cesium(), &two, &["--scale", "2.5"]);
    assert!(note(&notes, "scale").starts_with("scaled by 2.5 (as --scale asks)"));
    let (a, b) = (read_model(&one), read_model(&two));
    let (ha, hb) = (height(&a), height(&b));
    assert!((hb - 2.5 * ha).abs() <= 1e-3 * hb, "{ha} and {hb}");
    assert!(
        (1.4..1.6).contains(&ha),
        "CesiumMan is 1.5 m tall, {ha} at scale 1"
    );
    for (pa, pb) in a.pivot_points.iter().zip(&b.pivot_points) {
        for k in 0..3 {
            assert!((pa[k] * 2.5 - pb[k]).abs() <= 1e-4 * pb[k].abs().max(1.0));
        }
    }
}

#[test]
fn height_fits_the_first_pose_to_the_height_asked() {
    let dir = temp_dir("height");
    for (file, h) in [
        ("gltf-samples/CesiumMan/CesiumMan.glb", 135.0f32),
        ("gltf-samples/Fox/Fox.glb", 60.0),
    ] {
        let out = dir.join("fitted.mdx");
        let arg = h.to_string();
        let notes = convert(&s(shared().join(file)), &out, &["--height", &arg]);
        let got = height(&read_model(&out));
        println!("{file} --height {h}: {got:.3}; {}", note(&notes, "scale"));
        assert!((got - h).abs() <= 1e-3 * h, "{file}: {got}");
        assert!(note(&notes, "scale").contains("as --height asks"));
    }
}

#[test]
fn rename_sets_sequence_names_and_the_rest_are_mapped_or_listed() {
    let dir = temp_dir("rename");
    let out = dir.join("fox.mdx");
    let fox = s(shared().join("gltf-samples/Fox/Fox.glb"));
    let notes = convert(
        &fox,
        &out,
        &[
            "--height",
            "60",
            "--rename",
            "Survey=Stand Ready,Run=Walk Fast",
        ],
    );
    let m = read_model(&out);
    assert_eq!(names(&m), ["Stand Ready", "Walk", "Walk Fast", "Death"]);
    assert!(note(&notes, "sequences[0]").contains("as --rename asks"));
    assert!(errors(&m).is_empty(), "{:?}", errors(&m));
    // A name the game does not play is listed; one that names no sequence too.
    let notes = convert(&fox, &out, &["--rename", "Walk=Strut,Jump=Attack"]);
    assert!(
        note(&notes, "sequences[1]").contains("not a name the game plays"),
        "{notes:?}"
    );
    assert!(
        note(&notes, "sequences").contains("no sequence is named \"Jump\""),
        "{notes:?}"
    );
    // Milkshape input takes --rename too: its one sequence over the whole file.
    let ms = s(shared().join("corpus/ms3d_ascii"));
    let file = std::fs::read_dir(&ms)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .min()
        .unwrap();
    let out = dir.join("ms.mdx");
    convert(&s(&file), &out, &["--rename", "Anim=Walk"]);
    let m = read_model(&out);
    assert_eq!(names(&m)[0], "Walk", "{:?}", names(&m));
    assert!(names(&m).contains(&"Stand".to_string()), "{:?}", names(&m));
}

#[test]
fn bad_scale_height_and_rename_are_refused_with_a_clear_error() {
    let dir = temp_dir("bad");
    let out = dir.join("x.mdx");
    for args in [
        vec!["--scale", "0"],
        vec!["--scale", "-2"],
        vec!["--scale", "nan"],
        vec!["--height", "abc"],
        vec!["--scale", "2", "--height", "100"],
        vec!["--rename", "Survey"],
        vec!["--rename", "=Stand"],
    ] {
        let c = cesium();
        let mut all: Vec<&str> = vec!["convert", &c, out.to_str().unwrap()];
        all.extend_from_slice(&args);
        let r = mdlx(&all);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", stderr(&r));
        assert!(!stderr(&r).contains("panicked"), "{}", stderr(&r));
        assert!(!out.exists(), "{args:?} wrote a model");
    }
    // An MDX's sequences are its own; --scale is for glTF.
    let mdx = repo().join("examples/cube.mdx");
    let r = mdlx(&["convert", &s(&mdx), &s(&out), "--rename", "Stand=Walk"]);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("--rename is for converted input"),
        "{}",
        stderr(&r)
    );
    let r = mdlx(&["convert", &s(&mdx), &s(&out), "--scale", "2"]);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("--scale is for glTF input"),
        "{}",
        stderr(&r)
    );
}
