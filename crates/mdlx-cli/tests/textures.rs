//! Textures through the tool: `info` names kind, size, alpha and mips; `convert` writes
//! PNG from BLP, DDS and TGA (a folder too) and refuses what it cannot write.

mod common;
use common::*;

use std::path::PathBuf;

fn textures() -> PathBuf {
    corpus().join("textures")
}

/// The first corpus texture of a MANIFEST kind.
fn first_of(kind: &str) -> PathBuf {
    let manifest = std::fs::read_to_string(textures().join("MANIFEST.tsv")).unwrap();
    let name = manifest
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|c| c[5] == kind)
        .map(|c| c[0].to_string())
        .unwrap_or_else(|| panic!("no {kind} in the MANIFEST"));
    textures().join(name)
}

#[test]
fn info_on_a_texture_names_its_kind_size_alpha_and_mips() {
    for kind in ["blp1-jpeg", "blp1-palette", "dds-dxt5", "tga-truecolor"] {
        let file = first_of(kind);
        let r = mdlx(&["info", "--json", file.to_str().unwrap()]);
        assert!(
            r.status.success(),
            "{kind}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
        assert_eq!(v["format"], "texture");
        assert_eq!(v["kind"], kind);
        // The size as the MANIFEST records it (read from the header by its authors).
        let manifest = std::fs::read_to_string(textures().join("MANIFEST.tsv")).unwrap();
        let name = file.file_name().unwrap().to_str().unwrap();
        let row: Vec<&str> = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{name}\t")))
            .unwrap()
            .split('\t')
            .collect();
        assert_eq!(v["width"].to_string(), row[7], "{kind}");
        assert_eq!(v["height"].to_string(), row[8], "{kind}");
        assert!(v["mip_count"].as_u64().unwrap() >= 1);
        let text = String::from_utf8(mdlx(&["info", file.to_str().unwrap()]).stdout).unwrap();
        assert!(
            text.contains(&format!("format   texture, {kind}")),
            "{text}"
        );
    }
}

#[test]
fn a_texture_converts_to_png_with_the_pixels_the_library_decodes() {
    let dir = temp_dir("to-png");
    for kind in ["blp1-jpeg", "blp1-palette", "dds-dxt1", "tga-rle-truecolor"] {
        let file = first_of(kind);
        let out = dir.join(format!("{kind}.png"));
        let r = mdlx(&["convert", file.to_str().unwrap(), out.to_str().unwrap()]);
        assert!(
            r.status.success(),
            "{kind}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        let png = mdlx::texture::png::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        let want = mdlx::texture::decode(&std::fs::read(&file).unwrap()).unwrap();
        assert_eq!(png, want, "{kind}");
    }
    // A smaller mip level.
    let file = first_of("blp1-jpeg");
    let out = dir.join("mip1.png");
    let r = mdlx(&[
        "convert",
        file.to_str().unwrap(),
        out.to_str().unwrap(),
        "--mip",
        "1",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let data = std::fs::read(&file).unwrap();
    let level1 = mdlx::texture::Texture::from_bytes(&data)
        .unwrap()
        .decode_level(1)
        .unwrap();
    assert_eq!(
        mdlx::texture::png::from_bytes(&std::fs::read(&out).unwrap()).unwrap(),
        level1
    );
}

#[test]
fn what_cannot_be_written_is_refused_and_nothing_is_written() {
    let dir = temp_dir("refused");
    let blp = first_of("blp1-jpeg");
    let cube = repo().join("examples/cube.mdx");
    // A model as PNG.
    let r = mdlx(&[
        "convert",
        cube.to_str().unwrap(),
        dir.join("c.png").to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("this is a model; PNG output is for textures")
    );
    // A texture as a model.
    let r = mdlx(&[
        "convert",
        blp.to_str().unwrap(),
        dir.join("t.mdx").to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr)
        .contains("as a texture it converts to PNG, BLP, TGA or DDS"));
    // A quality out of range is a usage error.
    let t_blp = dir.join("t.blp");
    let r = mdlx(&[
        "convert",
        blp.to_str().unwrap(),
        t_blp.to_str().unwrap(),
        "--blp-quality",
        "0",
    ]);
    assert_eq!(r.status.code(), Some(2));
    // An MDX model saved as .blp (two corpus files are) is no texture: it reads as a model.
    let r = mdlx(&[
        "convert",
        first_of("broken-magic").to_str().unwrap(),
        dir.join("b.png").to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
}

#[test]
fn a_folder_of_textures_converts_to_png() {
    let dir = temp_dir("folder");
    let src = dir.join("in");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    for (kind, to) in [
        ("blp1-jpeg", "a.blp"),
        ("dds-dxt5", "sub/b.dds"),
        ("tga-truecolor", "c.tga"),
    ] {
        std::fs::copy(first_of(kind), src.join(to)).unwrap();
    }
    std::fs::copy(repo().join("examples/cube.mdx"), src.join("cube.mdx")).unwrap();
    let out = dir.join("out");
    let r = mdlx(&[
        "convert",
        "--to",
        "png",
        src.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(r.status.success(), "{err}");
    assert!(err.contains("converted 3 of 3 file(s) to png"), "{err}");
    for f in ["a.png", "sub/b.png", "c.png"] {
        assert!(
            mdlx::texture::png::from_bytes(&std::fs::read(out.join(f)).unwrap()).is_ok(),
            "{f}"
        );
    }
    assert!(!out.join("cube.png").exists());
}

/// The largest per-channel difference and the mean one between two images of one size.
fn diff(a: &mdlx::texture::RgbaImage, b: &mdlx::texture::RgbaImage) -> (u8, f64) {
    assert_eq!((a.width, a.height), (b.width, b.height));
    let d: Vec<u8> = a
        .pixels
        .iter()
        .zip(&b.pixels)
        .map(|(x, y)| x.abs_diff(*y))
        .collect();
    let max = d.iter().copied().max().unwrap_or(0);
    (
        max,
        d.iter().map(|&x| f64::from(x)).sum::<f64>() / d.len() as f64,
    )
}

#[test]
fn a_png_converts_to_a_blp_with_every_mip_that_reads_back() {
    let dir = temp_dir("to-blp");
    // A real texture with alpha, as PNG (the input modders edit).
    let src = first_of("tga-rle-truecolor");
    let png = dir.join("in.png");
    assert!(
        mdlx(&["convert", src.to_str().unwrap(), png.to_str().unwrap()])
            .status
            .success()
    );
    let want = mdlx::texture::png::from_bytes(&std::fs::read(&png).unwrap()).unwrap();

    // JPEG content at quality 90: within the tolerance measured for it (tests/blp_write.rs).
    let blp = dir.join("out.blp");
    let r = mdlx(&[
        "convert",
        png.to_str().unwrap(),
        blp.to_str().unwrap(),
        "--blp-quality",
        "90",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let data = std::fs::read(&blp).unwrap();
    let t = mdlx::texture::Texture::from_bytes(&data).unwrap();
    assert_eq!(t.kind, mdlx::texture::TextureKind::Blp1Jpeg);
    assert_eq!(t.alpha_bits, 8);
    let full_chain = 32 - want.width.max(want.height).leading_zeros() as usize;
    assert_eq!(t.mip_count(), full_chain);
    let (max, mean) = diff(&t.decode_level(0).unwrap(), &want);
    assert!(max <= 24 && mean <= 1.0, "max {max}, mean {mean}");

    // Palette content.
    let pal = dir.join("pal.blp");
    let r = mdlx(&[
        "convert",
        png.to_str().unwrap(),
        pal.to_str().unwrap(),
        "--blp-palette",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let v: serde_json::Value =
        serde_json::from_slice(&mdlx(&["info", "--json", pal.to_str().unwrap()]).stdout).unwrap();
    assert_eq!(v["kind"], "blp1-palette");
    assert_eq!(v["mip_count"], full_chain);

    // A folder: PNG, TGA and DDS become BLP; BLP files are left alone.
    let tree = dir.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::copy(&png, tree.join("a.png")).unwrap();
    std::fs::copy(first_of("dds-dxt1"), tree.join("b.dds")).unwrap();
    std::fs::copy(first_of("blp1-jpeg"), tree.join("c.blp")).unwrap();
    let out = dir.join("tree-out");
    let r = mdlx(&[
        "convert",
        "--to",
        "blp",
        tree.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(r.status.success(), "{err}");
    assert!(err.contains("converted 2 of 2 file(s) to blp"), "{err}");
    for f in ["a.blp", "b.blp"] {
        let data = std::fs::read(out.join(f)).unwrap();
        assert!(mdlx::texture::decode(&data).is_ok(), "{f}");
    }
}
