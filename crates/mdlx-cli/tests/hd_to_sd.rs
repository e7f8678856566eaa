//! `mdlx convert IN OUT --version 800` of a Reforged model: a classic model, no
//! `--allow-lossy` needed, its losses listed; with `--textures`, BLP files beside it.
//! The corpus files are read in place (outputs go to temporary folders).

mod common;
use common::*;

use std::path::Path;
use std::process::Output;

/// Error counts of `mdlx check --json`-free checking, through the library.
fn error_ids(m: &mdlx::Model) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = mdlx::check::check(m)
        .into_iter()
        .filter(|f| f.severity() == mdlx::check::Severity::Error)
        .map(|f| f.rule.id)
        .collect();
    v.sort_unstable();
    v
}

/// `mdlx convert INPUT OUT --version 800 EXTRA...`.
fn to_800(input: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["convert", input.to_str().unwrap(), out.to_str().unwrap()];
    args.extend(["--version", "800"]);
    args.extend_from_slice(extra);
    mdlx(&args)
}

#[test]
fn peon_axe_hd_converts_to_800_without_allow_lossy_and_lists_its_losses() {
    let input = corpus().join("mdx/Bergi-bear__roguelike__map.w3x__PeonAxeHD.mdx");
    let dir = temp_dir("peon");
    let out = dir.join("sd.mdx");
    let r = to_800(&input, &out, &[]);
    let err = text(&r.stderr);
    println!("{err}");
    assert!(r.status.success(), "{err}");
    // The losses are listed: the HD shading, the skinning error, the missing textures.
    assert!(err.contains("classic (800) cannot hold"), "{err}");
    assert!(err.contains("skinning error"), "{err}");
    assert!(err.contains("not drawn by the classic client"), "{err}");
    assert!(err.contains("Orc_Peon_Axe_Diffuse.blp"), "{err}");
    let m = mdlx::mdx::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(m.version, 800);
    // No vertex is left unattached, and no texture path is one the classic client
    // cannot read.
    let ids = error_ids(&m);
    assert!(!ids.contains(&"vertex-unattached"), "{ids:?}");
    for t in &m.textures {
        let p = t.path.text().to_ascii_lowercase();
        assert!(t.replaceable_id != 0 || p.ends_with(".blp"), "{p}");
    }
    // Every layer draws a classic texture: none of the six HD roles is left.
    assert!(m.materials.iter().all(|mat| mat.layers.len() <= 3));
    // Nothing is written beside it without textures.
    let beside: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(beside.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The texture corpus holds files under flattened names (`OWNER__REPO__path`), which
/// `TextureFinder` does not match against a model's paths; a folder laid out under the
/// names the model gives them (here: links) is what `--textures` takes.
#[test]
fn with_textures_the_blp_files_are_written_beside_the_model() {
    let prefix = "TaylorMouse__warcraft_III_reforged_tools__Documentation__Tutorial__Resources__";
    let input = corpus().join(format!("mdx/{prefix}blob.mdx"));
    let tex = temp_dir("tex");
    for n in [
        "blob_diff2.dds",
        "blob_emis.dds",
        "blob_nrm.dds",
        "blob_orm2.dds",
    ] {
        std::os::unix::fs::symlink(corpus().join(format!("textures/{prefix}{n}")), tex.join(n))
            .unwrap();
    }
    let dir = temp_dir("blob");
    let out = dir.join("blob.mdx");
    let r = to_800(&input, &out, &["--textures", &s(&tex)]);
    let err = text(&r.stderr);
    println!("{err}");
    assert!(r.status.success(), "{err}");
    let m = mdlx::mdx::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let mut written = 0;
    for t in m.textures.iter().filter(|t| t.replaceable_id == 0) {
        let p = t.path.text().replace('\\', "/");
        let file = dir.join(&p);
        if file.exists() {
            let img = mdlx::texture::decode(&std::fs::read(&file).unwrap()).unwrap();
            assert!(img.width <= 512 && img.height <= 512, "{p}");
            written += 1;
        }
    }
    println!("{written} textures written beside the model");
    assert!(written >= 1);
    // --lod of a level the model lacks is refused with the reason.
    let r = to_800(&input, &dir.join("x.mdx"), &["--lod", "7"]);
    assert!(!r.status.success());
    assert!(
        text(&r.stderr).contains("level of detail 7"),
        "{}",
        text(&r.stderr)
    );
    assert!(!dir.join("x.mdx").exists());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&tex);
}

/// A Reforged model inside a map, converted for the classic client: its textures are found
/// in the map, as `--to glb` finds them (`blob.mdx` and its four HD textures put into a
/// shared map with `mdlx update --put`; without the map searched, no BLP is written and
/// each texture is listed as not found).
#[test]
fn a_model_inside_a_map_finds_its_textures_in_the_map() {
    let dir = temp_dir("in-map");
    let prefix = "TaylorMouse__warcraft_III_reforged_tools__Documentation__Tutorial__Resources__";
    let model = corpus().join(format!("mdx/{prefix}blob.mdx"));
    let map = dir.join("blob.w3x");
    let mut args = vec![
        "update".to_string(),
        s(shared().join("archives/inwc3+wc3libs__in.w3x")),
        s(&map),
        "--put".into(),
        format!("war3mapImported\\blob.mdx={}", s(&model)),
    ];
    for t in [
        "blob_diff2.dds",
        "blob_nrm.dds",
        "blob_orm2.dds",
        "blob_emis.dds",
    ] {
        let file = corpus().join(format!("textures/{prefix}{t}"));
        args.extend(["--put".into(), format!("{t}={}", s(file))]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = mdlx(&args);
    assert!(r.status.success(), "{}", stderr(&r));
    let out = dir.join("sd/blob.mdx");
    std::fs::create_dir_all(dir.join("sd")).unwrap();
    let inner = format!("{}:war3mapImported\\blob.mdx", s(&map));
    let r = to_800(Path::new(&inner), &out, &[]);
    let err = stderr(&r);
    println!("{err}");
    assert!(r.status.success(), "{err}");
    // The four textures put into the map are found (the ribbon's is in no folder).
    for l in err
        .lines()
        .filter(|l| l.contains("not found in the texture folders"))
    {
        assert!(l.contains("ribbonne1_blue"), "{l}");
    }
    let m = mdlx::mdx::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let mut written = 0;
    for t in &m.textures {
        let p = t.path.text().into_owned();
        if t.replaceable_id != 0 || p.is_empty() {
            continue;
        }
        let file = dir.join("sd").join(p.rsplit(['\\', '/']).next().unwrap());
        if let Ok(bytes) = std::fs::read(&file) {
            let img = mdlx::texture::decode(&bytes).unwrap();
            assert!(img.width <= 512 && img.height <= 512, "{p}");
            written += 1;
        }
    }
    assert!(
        written >= 2,
        "BLP files written beside the model: {written}"
    );
}

/// A classic model taken to a Reforged version and back is itself again: `R1_wall4.mdx`
/// names `Ruins1.tga`, which its map ships beside it; `--version 800` from 1800 must not
/// rename it to `.blp` or repair what it was not asked to.
#[test]
fn a_tga_textured_classic_model_comes_back_from_1800_byte_identical() {
    let dir = temp_dir("tga");
    let src = corpus().join("mdx/Bergi-bear__BloodOmen__map.w3x__war3mapImported__R1_wall4.mdx");
    let (up, down) = (dir.join("up.mdx"), dir.join("down.mdx"));
    let r = mdlx(&["convert", &s(&src), &s(&up), "--version", "1800"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let r = to_800(&up, &down, &[]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(std::fs::read(&down).unwrap(), std::fs::read(&src).unwrap());
    let m = mdlx::mdx::from_bytes(&std::fs::read(&down).unwrap()).unwrap();
    assert!(m.textures.iter().any(|t| t.path.text() == "Ruins1.tga"));
}
