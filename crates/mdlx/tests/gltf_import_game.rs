//! glTF import at the game's scale and ready for the game, over the third-party samples of
//! `../shared/gltf-samples`:
//!
//! - `mdlx::check` finds no error in any import (versions 800 and 1000); the table shows
//!   each sample's errors before the game-ready pass (the import as it was: glTF units,
//!   the source's sequence names, keys as the source has them) and after;
//! - the humanoid samples stand between 50 and 300 game units tall at the default scale,
//!   measured here on the posed model, not taken from the import's report;
//! - `ImportScale::Height` fits a model to the height asked, `ImportScale::Factor` scales
//!   by the factor asked (measured against the unscaled import);
//! - a sample not in metres (Fox, authored in centimetres) is flagged by the scale note.
//!
//! That the scaled imports still pose as three.js plays the sources is
//! `gltf_import_samples.rs` (it multiplies three.js's positions by the import's scale).

mod common;

use common::posed::height;
use mdlx::convert::gltf::import::ImportScale;
use mdlx::convert::gltf::{Import, ImportOptions, Source};
use std::path::{Path, PathBuf};

/// The samples that show a person (CesiumMan: a 1.5 m man). RiggedSimple, RiggedFigure-like
/// test rigs and Fox (an animal) are not held to a person's height.
const HUMANOIDS: &[&str] = &["CesiumMan"];

fn samples() -> Vec<PathBuf> {
    common::gltf_files(&common::gltf_samples_dir())
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

fn import(path: &Path, opts: &ImportOptions) -> Import {
    let src = Source::read_file(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    mdlx::convert::gltf::import(&src, opts).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The errors `mdlx::check` finds, as `rule xN` sorted by rule.
fn errors(m: &mdlx::model::Model) -> (usize, String) {
    let mut by: std::collections::BTreeMap<&str, usize> = Default::default();
    for f in mdlx::check::check(m) {
        if f.severity() == mdlx::check::Severity::Error {
            *by.entry(f.rule.id).or_default() += 1;
        }
    }
    let n = by.values().sum();
    let text = by
        .iter()
        .map(|(r, n)| format!("{r} x{n}"))
        .collect::<Vec<_>>()
        .join(", ");
    (n, text)
}

#[test]
fn every_sample_imports_without_check_errors_at_game_scale() {
    let files = samples();
    assert!(files.len() >= 40, "only {} samples", files.len());
    println!("mdlx::check errors of each sample's import, before and after the game-ready pass:");
    println!(
        "  {:<34} {:>4} {:>6} {:>5} {:>8} {:>9}  before (rules)",
        "sample", "vers", "before", "after", "scale", "height"
    );
    let (mut total_before, mut total_after, mut bad) = (0, 0, Vec::new());
    for path in &files {
        let name = stem(path);
        for version in [800, 1000] {
            let raw = ImportOptions {
                version,
                scale: ImportScale::Factor(1.0),
                game_ready: false,
                ..Default::default()
            };
            let (before, rules) = errors(&import(path, &raw).model);
            let opts = ImportOptions {
                version,
                ..Default::default()
            };
            let i = import(path, &opts);
            let (after, after_rules) = errors(&i.model);
            total_before += before;
            total_after += after;
            let h = height(&i.model);
            println!(
                "  {name:<34} {version:>4} {before:>6} {after:>5} {:>8} {h:>9.1}  {rules}",
                i.scale
            );
            if after > 0 {
                bad.push(format!("{name} v{version}: {after_rules}"));
            }
            if version == 800 && HUMANOIDS.contains(&name.as_str()) && !(50.0..=300.0).contains(&h)
            {
                bad.push(format!(
                    "{name}: a person {h} units tall at the default scale"
                ));
            }
            // The import's own report of the height agrees with the measurement here.
            if (i.height - h).abs() > 1e-3 * h.max(1.0) {
                bad.push(format!(
                    "{name} v{version}: reports {} units tall, measured {h}",
                    i.height
                ));
            }
            if !i
                .notes
                .iter()
                .any(|n| n.place == "scale" && n.what.contains(&format!("scaled by {}", i.scale)))
            {
                bad.push(format!("{name} v{version}: no note says the scale"));
            }
        }
    }
    println!(
        "  {} imports: {total_before} errors before the game-ready pass, {total_after} after",
        files.len() * 2
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn height_and_scale_options_size_the_model_as_asked() {
    let dir = common::gltf_samples_dir();
    for (file, want) in [("CesiumMan/CesiumMan.glb", 117.0f32), ("Fox/Fox.glb", 60.0)] {
        let path = dir.join(file);
        let one = import(
            &path,
            &ImportOptions {
                scale: ImportScale::Factor(1.0),
                ..Default::default()
            },
        );
        let h1 = height(&one.model);
        let fitted = import(
            &path,
            &ImportOptions {
                scale: ImportScale::Height(want),
                ..Default::default()
            },
        );
        let h = height(&fitted.model);
        println!(
            "{file}: {h1:.3} tall at scale 1; --height {want}: scale {}, {h:.3} tall",
            fitted.scale
        );
        assert!((h - want).abs() <= 1e-3 * want, "{file}: {h} for {want}");
        let three = import(
            &path,
            &ImportOptions {
                scale: ImportScale::Factor(3.0),
                ..Default::default()
            },
        );
        let h3 = height(&three.model);
        assert!(
            (h3 - 3.0 * h1).abs() <= 1e-3 * h3,
            "{file}: {h3} at scale 3, {h1} at 1"
        );
        // Every vertex, pivot and key of translation scales with it.
        let (a, b) = (&one.model, &three.model);
        for (ga, gb) in a.geosets.iter().zip(&b.geosets) {
            for (va, vb) in ga.vertices.iter().zip(&gb.vertices) {
                for k in 0..3 {
                    assert!((va[k] * 3.0 - vb[k]).abs() <= 1e-4 * vb[k].abs().max(1.0));
                }
            }
        }
        for (pa, pb) in a.pivot_points.iter().zip(&b.pivot_points) {
            for k in 0..3 {
                assert!((pa[k] * 3.0 - pb[k]).abs() <= 1e-4 * pb[k].abs().max(1.0));
            }
        }
    }
    // Fox is authored in centimetres: at the default scale it is a giant, and the note
    // says to give --height.
    let fox = import(&dir.join("Fox/Fox.glb"), &ImportOptions::default());
    let note = fox
        .notes
        .iter()
        .find(|n| n.place == "scale")
        .expect("a scale note");
    println!("Fox at the default scale: {}", note.what);
    assert!(note.what.contains("--height"), "{}", note.what);
    // Bad factors are refused with a clear error, not a panic.
    let src = Source::read_file(&dir.join("Fox/Fox.glb")).unwrap();
    for bad in [
        ImportScale::Factor(0.0),
        ImportScale::Factor(f32::NAN),
        ImportScale::Height(-1.0),
    ] {
        let e = mdlx::convert::gltf::import(
            &src,
            &ImportOptions {
                scale: bad,
                ..Default::default()
            },
        );
        assert!(e.is_err(), "{bad:?} accepted");
    }
}

#[test]
fn fox_sequences_get_the_game_names_and_renames_win() {
    let path = common::gltf_samples_dir().join("Fox/Fox.glb");
    let names = |i: &Import| -> Vec<String> {
        i.model
            .sequences
            .iter()
            .map(|s| s.name.text().into_owned())
            .collect()
    };
    let plain = import(&path, &ImportOptions::default());
    // Survey (looking about, standing) is a Stand; Walk stays; Run is Walk Fast beside a
    // Walk; no death animation: a Death holding the Stand's first pose is added.
    assert_eq!(names(&plain), ["Stand", "Walk", "Walk Fast", "Death"]);
    let renamed = import(
        &path,
        &ImportOptions {
            renames: mdlx::convert::ready::parse_renames("Survey=Stand Ready,run=Walk").unwrap(),
            ..Default::default()
        },
    );
    // An explicit Walk beside the Walk gets the game's decoration; "Stand Ready" plays
    // as a Stand, so no Stand is added.
    assert_eq!(
        names(&renamed),
        ["Stand Ready", "Walk", "Walk - 2", "Death"],
        "{:?}",
        renamed.notes
    );
}
