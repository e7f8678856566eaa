//! What a new user trips over (issue 26): messages that name the right thing and say what
//! to do, folders where files were expected, cut-off files, missing textures, texture
//! sizes the game cannot use, and TGA and DDS output. Runs the real `mdlx` binary.

mod common;
use common::*;

use std::path::Path;
use std::process::Command;

#[test]
fn an_output_in_a_missing_folder_names_the_folder_not_a_temporary_file() {
    let dir = temp_dir("nodir");
    let target = dir.join("nodir/sub/out.mdl");
    let r = mdlx(&["convert", &cube(), &s(&target)]);
    let err = stderr(&r);
    println!("{err}");
    assert_eq!(r.status.code(), Some(1), "{err}");
    let folder = dir.join("nodir/sub");
    assert!(
        err.contains(&format!(
            "cannot write {}: the folder {} does not exist",
            target.display(),
            folder.display()
        )),
        "{err}"
    );
    assert!(!err.contains(".tmp"), "{err}");
}

#[test]
fn converting_a_file_to_an_existing_folder_says_it_is_a_folder_or_writes_into_it() {
    let dir = temp_dir("intodir");
    let r = mdlx(&["convert", &cube(), &s(&dir)]);
    let err = stderr(&r);
    println!("{err}");
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains("is a folder: give --to FORMAT"), "{err}");
    assert!(!err.contains("unsupported output format"), "{err}");
    let r = mdlx(&["convert", &cube(), &s(&dir), "--to", "mdl"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let written = std::fs::read_to_string(dir.join("cube.mdl")).unwrap();
    assert!(written.contains("Version {"));
}

#[test]
fn info_on_a_folder_walks_it() {
    let dir = temp_dir("infodir");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::copy(cube(), dir.join("sub/a.mdx")).unwrap();
    std::fs::copy(cube(), dir.join("b.mdx")).unwrap();
    std::fs::write(dir.join("notes.md"), "not a model").unwrap();
    let r = mdlx(&["info", &s(&dir)]);
    assert!(r.status.success(), "{}", stderr(&r));
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(
        out.contains(&dir.join("b.mdx").display().to_string()),
        "{out}"
    );
    assert!(
        out.contains(&dir.join("sub/a.mdx").display().to_string()),
        "{out}"
    );
    assert!(!out.contains("notes.md"), "{out}");
}

#[test]
fn a_cut_off_mdx_says_the_file_looks_cut_off() {
    let dir = temp_dir("cut");
    let data = std::fs::read(cube()).unwrap();
    let bad = dir.join("cut.mdx");
    std::fs::write(&bad, &data[..data.len() * 2 / 3]).unwrap();
    let r = mdlx(&["info", &s(&bad)]);
    let err = stderr(&r);
    println!("{err}");
    assert_eq!(r.status.code(), Some(1));
    assert!(err.contains("runs past the end of the file"), "{err}");
    assert!(err.contains("the file looks cut off"), "{err}");
}

/// The ids and names are those public Warcraft III readers map to `ReplaceableTextures`
/// folders (1 TeamColor, 2 TeamGlow, 11 Cliff, 31 LordaeronTree ...).
#[test]
fn info_names_replaceable_ids() {
    let model = corpus().join("mdl/Bergi-bear__OrcWinter__map.w3x__units__Orc__Peon__peon1.mdl");
    let text = std::fs::read_to_string(&model).unwrap();
    assert!(
        text.contains("ReplaceableId 1,"),
        "the model has team colour"
    );
    let r = mdlx(&["info", &s(&model)]);
    assert!(r.status.success(), "{}", stderr(&r));
    let out = String::from_utf8_lossy(&r.stdout);
    println!("{out}");
    assert!(out.contains("(Team Color, replaceable id 1)"), "{out}");
    if text.contains("ReplaceableId 2,") {
        assert!(out.contains("(Team Glow, replaceable id 2)"), "{out}");
    }
}

/// The corpus textures folder holds `.blp` files that are models renamed: converting the
/// folder to PNG skips them, says so in the summary, and exits 0.
#[test]
fn a_folder_to_png_skips_models_named_as_textures() {
    let out = temp_dir("skip");
    let r = mdlx(&[
        "convert",
        &s(corpus().join("textures")),
        &s(&out),
        "--to",
        "png",
    ]);
    let err = stderr(&r);
    let summary = err
        .lines()
        .find(|l| l.starts_with("mdlx: converted"))
        .unwrap_or("");
    let skipped: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("skipped: this is a model"))
        .collect();
    println!("{summary}\n{}", skipped.join("\n"));
    assert_eq!(r.status.code(), Some(0), "{err}");
    assert!(!skipped.is_empty());
    assert!(
        summary.contains(&format!("{} skipped (not textures)", skipped.len())),
        "{summary}"
    );
}

/// Every texture path a model names is missing in a folder of its own: one line lists
/// each missing path once, a note says where it looked, and a folder run ends with a
/// summary that hints `--textures`.
#[test]
fn missing_textures_of_a_glb_export_are_listed_once_with_where_it_looked() {
    let dir = temp_dir("glbtex");
    let model = corpus().join("mdl/Bergi-bear__OrcWinter__map.w3x__units__Orc__Peon__peon1.mdl");
    let copy = dir.join("in/peon.mdl");
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::copy(&model, &copy).unwrap();
    let r = mdlx(&["convert", &s(&copy), &s(dir.join("peon.glb"))]);
    let err = stderr(&r);
    println!("{err}");
    assert!(r.status.success(), "{err}");
    let line = err
        .lines()
        .find(|l| l.contains("texture not embedded (not found)"))
        .unwrap();
    let paths: Vec<&str> = line
        .split(": texture not embedded")
        .next()
        .unwrap()
        .trim()
        .split(", ")
        .collect();
    let mut unique = paths.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), paths.len(), "{line}");
    assert!(
        err.contains(&format!("looked for each path, and then its file name (a .blp also as .dds, .tga or .png), under {} (the model's folder)", dir.join("in").display())),
        "{err}"
    );
    assert!(err.contains("give --textures DIR"), "{err}");

    let r = mdlx(&[
        "convert",
        &s(dir.join("in")),
        &s(dir.join("out")),
        "--to",
        "glb",
    ]);
    let err = stderr(&r);
    println!("{err}");
    assert!(r.status.success(), "{err}");
    let last = err.lines().last().unwrap();
    assert!(
        last.contains("texture(s) not found in 1 of 1 model(s)"),
        "{last}"
    );
    assert!(last.contains("give --textures DIR"), "{last}");
}

/// A 300 x 200 image written as BLP gets a warning (the game needs powers of two);
/// `--resize pow2` writes 256 x 256 (300 is nearer 256 than 512, 200 nearer 256 than 128).
/// The sizes are read from the BLP1 header's bytes (width at 12, height at 16).
#[test]
fn a_texture_whose_sides_are_not_powers_of_two_warns_and_resize_fixes_it() {
    let dir = temp_dir("npot");
    let blp = corpus().join("textures/AMISD666__War3ModelView__testmodel__BK.blp");
    let png = dir.join("odd.png");
    let r = mdlx(&["convert", &s(&blp), &s(&png), "--resize", "300x200"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let out = dir.join("odd.blp");
    let r = mdlx(&["convert", &s(&png), &s(&out)]);
    let err = stderr(&r);
    println!("{err}");
    assert!(r.status.success(), "{err}");
    assert!(
        err.contains("300 x 200 is not a power of two on each side"),
        "{err}"
    );
    assert!(err.contains("--resize pow2 writes 256 x 256"), "{err}");
    let size = |p: &Path| {
        let b = std::fs::read(p).unwrap();
        assert_eq!(&b[..4], b"BLP1");
        let at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        (at(12), at(16))
    };
    assert_eq!(size(&out), (300, 200));
    let r = mdlx(&["convert", &s(&png), &s(&out), "--resize", "pow2"]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(!stderr(&r).contains("not a power of two"));
    assert_eq!(size(&out), (256, 256));
    let r = mdlx(&["convert", &s(&png), &s(&out), "--resize", "max:128"]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(size(&out), (128, 128));
    let r = mdlx(&["convert", &s(&png), &s(&out), "--resize", "3y4"]);
    assert_eq!(r.status.code(), Some(2));
}

/// TGA and DDS output: the header fields the formats define (TGA: image type 2, 32 bits,
/// width and height at 12 and 14; DDS with `--dds rgba`: `DDS `, header size 124, RGB with
/// alpha, 32 bits), and the pixels read back equal to the source's (PNG of each compared
/// byte for byte).
#[test]
fn tga_and_dds_are_written() {
    let dir = temp_dir("tgadds");
    let blp = corpus().join("textures/AMISD666__War3ModelView__testmodel__BK.blp");
    let direct = dir.join("direct.png");
    assert!(mdlx(&["convert", &s(&blp), &s(&direct)]).status.success());
    for ext in ["tga", "dds"] {
        let out = dir.join(format!("t.{ext}"));
        let r = mdlx(&["convert", &s(&blp), &s(&out), "--dds", "rgba"]);
        assert!(r.status.success(), "{ext}: {}", stderr(&r));
        let b = std::fs::read(&out).unwrap();
        let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]) as u32;
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        let r = mdlx(&["info", &s(&blp)]);
        let info = String::from_utf8_lossy(&r.stdout).into_owned();
        let (w, h) = if ext == "tga" {
            assert_eq!((b[2], b[16]), (2, 32));
            (u16_at(12), u16_at(14))
        } else {
            assert_eq!(&b[..4], b"DDS ");
            assert_eq!(u32_at(4), 124);
            assert_eq!(u32_at(80), 0x41);
            assert_eq!(u32_at(88), 32);
            (u32_at(16), u32_at(12))
        };
        assert!(
            info.contains(&format!("size     {w} x {h}")),
            "{ext}: {info}"
        );
        let back = dir.join(format!("back-{ext}.png"));
        assert!(mdlx(&["convert", &s(&out), &s(&back)]).status.success());
        assert_eq!(
            std::fs::read(&back).unwrap(),
            std::fs::read(&direct).unwrap(),
            "{ext}"
        );
    }
}

/// DDS output picks BC1 (`DXT1`) for an opaque texture and BC3 (`DXT5`) for one with alpha
/// (Pillow reads the BLP as RGB, alpha 255 everywhere, and the TGA's alpha as 0 to 214),
/// writes every mip level down to 1 x 1 (mipmap count at byte 28, linear size of the first
/// level at byte 20), and `--dds` overrides the choice (BC1 of partial alpha with a
/// warning). `--tga rle` writes image type 10
/// that reads back to the same pixels as the source.
#[test]
fn dds_is_bc1_without_alpha_and_bc3_with_alpha_and_tga_rle_is_written() {
    let dir = temp_dir("bcn");
    let tex = corpus().join("textures");
    let opaque = tex.join("AMISD666__War3ModelView__testmodel__wangqishou_base.blp");
    let alpha = tex.join("AMISD666__War3ModelView__testmodel__effec__yuanquan2_1.tga");
    let u32_at = |b: &[u8], i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
    // (source, extra arguments, FourCC, side, bytes per 4 x 4 block)
    type Case<'a> = (&'a Path, &'a [&'a str], &'a [u8; 4], u32, u32);
    let cases: [Case; 4] = [
        (&opaque, &[], b"DXT1", 1024, 8),
        (&alpha, &[], b"DXT5", 256, 16),
        (&opaque, &["--dds", "bc3"], b"DXT5", 1024, 16),
        (&alpha, &["--dds", "bc1"], b"DXT1", 256, 8),
    ];
    for (i, (src, extra, fourcc, side, block)) in cases.iter().enumerate() {
        let out = dir.join(format!("{i}.dds"));
        let (src, out) = (s(src), s(&out));
        let mut args = vec!["convert", &src, &out];
        args.extend_from_slice(extra);
        let r = mdlx(&args);
        assert!(r.status.success(), "{i}: {}", stderr(&r));
        // Only BC1 of the texture with partial alpha warns that it keeps 1 bit.
        assert_eq!(
            stderr(&r).contains("BC1 keeps 1 bit of alpha"),
            i == 3,
            "{i}: {}",
            stderr(&r)
        );
        let b = std::fs::read(&out).unwrap();
        assert_eq!(&b[84..88], *fourcc, "{i}");
        assert_eq!((u32_at(&b, 12), u32_at(&b, 16)), (*side, *side), "{i}");
        assert_eq!(u32_at(&b, 20), side * side / 16 * block, "{i}: linear size");
        let levels = side.trailing_zeros() + 1;
        assert_eq!(u32_at(&b, 28), levels, "{i}: mipmap count");
        // Every level's blocks, 1 x 1 to 4 x 4 levels one block each.
        let data: u32 = (0..levels)
            .map(|n| ((side >> n).max(4) / 4).pow(2) * block)
            .sum();
        assert_eq!(b.len() as u32, 128 + data, "{i}: file size");
    }
    let direct = dir.join("direct.png");
    assert!(mdlx(&["convert", &s(&alpha), &s(&direct)]).status.success());
    let rle = dir.join("rle.tga");
    let raw = dir.join("raw.tga");
    assert!(mdlx(&["convert", &s(&alpha), &s(&rle), "--tga", "rle"])
        .status
        .success());
    assert!(mdlx(&["convert", &s(&alpha), &s(&raw)]).status.success());
    let (rle_bytes, raw_bytes) = (std::fs::read(&rle).unwrap(), std::fs::read(&raw).unwrap());
    assert_eq!((rle_bytes[2], raw_bytes[2]), (10, 2));
    assert!(rle_bytes.len() < raw_bytes.len());
    let back = dir.join("back.png");
    assert!(mdlx(&["convert", &s(&rle), &s(&back)]).status.success());
    assert_eq!(
        std::fs::read(&back).unwrap(),
        std::fs::read(&direct).unwrap()
    );
    let r = mdlx(&["convert", &s(&alpha), &s(&rle), "--tga", "zip"]);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
}

/// Usage errors clap finds (an unknown flag, an unknown verb, a bad value) and errors we
/// find (a file that cannot be read, a usage error found after parsing) start the same way,
/// `mdlx: error: `; usage errors still exit 2 with clap's hint (and usage line).
#[test]
fn every_error_starts_with_mdlx_error() {
    let dir = temp_dir("oneform");
    let out = dir.join("o.mdl");
    for args in [
        &["convert", "--bogus", "a", "b"][..],
        &["frobnicate"],
        &["convert", &cube(), &s(&out), "--tga", "zip"],
    ] {
        let r = mdlx(args);
        let err = stderr(&r);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("mdlx: error: "), "{args:?}: {err}");
        assert!(!err.contains("\nerror: "), "{args:?}: {err}");
        // clap adds its usage line for an unknown argument or verb, not for a bad value.
        assert_eq!(
            err.contains("Usage: mdlx"),
            args.len() < 5,
            "{args:?}: {err}"
        );
        assert!(
            err.ends_with("For more information, try '--help'.\n"),
            "{err}"
        );
    }
    // A usage error found after parsing: a folder without --to (the formats it lists
    // include the texture outputs).
    let r = mdlx(&["convert", &s(&dir), &s(dir.join("x"))]);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert!(stderr(&r).starts_with("mdlx: error: "), "{}", stderr(&r));
    assert!(stderr(&r).contains("png, blp, tga, dds)"), "{}", stderr(&r));
    // Not a usage error: exit 1, the same prefix.
    let r = mdlx(&["info", &s(dir.join("missing.mdx"))]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(stderr(&r).starts_with("mdlx: error: "), "{}", stderr(&r));
}

/// --quiet and --strict are taken by the verbs that read models (before or after the
/// verb) and refused, as usage errors, by those that would ignore them; the help of
/// `completions` does not list them.
#[test]
fn quiet_and_strict_belong_to_the_verbs_that_read_models() {
    let cube = cube();
    for args in [
        &["--quiet", "check", &s(&cube)][..],
        &["check", "--quiet", &s(&cube)],
        &["-q", "info", &s(&cube)],
        &["info", "--strict", "-q", &s(&cube)],
        &["pose", "--strict", &s(&cube)],
    ] {
        let r = mdlx(args);
        assert!(r.status.success(), "{args:?}: {}", stderr(&r));
    }
    for args in [
        &["completions", "--strict", "bash"][..],
        &["--strict", "completions", "bash"],
        &["completions", "-q", "bash"],
        &["roundtrip", "--quiet", &s(&cube)],
        &["bench", "--quiet", "x", "1"],
    ] {
        let r = mdlx(args);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", stderr(&r));
        assert!(stderr(&r).starts_with("mdlx: error: "), "{}", stderr(&r));
    }
    let help = String::from_utf8(mdlx(&["completions", "--help"]).stdout).unwrap();
    assert!(help.contains("<SHELL>"), "{help}");
    assert!(
        !help.contains("--strict") && !help.contains("--quiet"),
        "{help}"
    );
    let help = String::from_utf8(mdlx(&["check", "--help"]).stdout).unwrap();
    assert!(
        help.contains("--strict") && help.contains("--quiet"),
        "{help}"
    );
}

/// `mdlx completions bash | head -1` closes the pipe early: no panic, exit 0.
#[test]
fn completions_into_a_closed_pipe_do_not_panic() {
    use std::process::Stdio;
    let mut child = command()
        .args(["completions", "bash"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let r = child.wait_with_output().unwrap();
    assert!(!stderr(&r).contains("panicked"), "{}", stderr(&r));
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
}

/// SARIF output names no placeholder home page: the driver's `informationUri` (optional
/// in SARIF 2.1.0) is left out rather than pointing at `https://github.com/`.
#[test]
fn sarif_has_no_placeholder_information_uri() {
    let r = mdlx(&["check", &cube(), "--format", "sarif"]);
    let doc: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let driver = &doc["runs"][0]["tool"]["driver"];
    assert_eq!(driver["name"], "mdlx", "{driver}");
    assert!(driver.get("informationUri").is_none(), "{driver}");
}

/// The README's completion install lines, run as written by `sh` in an empty home, make
/// the folder and write the script (the folder does not exist on a fresh account).
#[test]
fn readme_completion_install_works_in_an_empty_home() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("mdlx completions bash >"))
        .expect("the README's completion line");
    let script = if lines[at - 1].starts_with("mkdir -p ") {
        format!("{}\n{}\n", lines[at - 1], lines[at])
    } else {
        format!("{}\n", lines[at])
    };
    let home = temp_dir("home");
    let bin = Path::new(env!("CARGO_BIN_EXE_mdlx")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let r = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .env("HOME", &home)
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(r.status.success(), "{script}{}", stderr(&r));
    let written = home.join(".local/share/bash-completion/completions/mdlx");
    let text = std::fs::read_to_string(&written).unwrap();
    assert!(text.contains("complete -F"), "{text}");
}

/// `mdlx --help` says what every command does in a line of its own, and the line belongs to
/// the command (a doc comment once slipped from `extract` onto `update`).
#[test]
fn every_command_has_its_own_one_line_summary() {
    let help = String::from_utf8(mdlx(&["--help"]).stdout).unwrap();
    let commands: Vec<(&str, &str)> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| {
            let l = l.trim_start();
            let (name, rest) = l.split_once(' ').unwrap_or((l, ""));
            (name, rest.trim())
        })
        .collect();
    assert!(commands.len() >= 10, "{help}");
    for (name, summary) in &commands {
        assert!(!summary.is_empty(), "`{name}` has no summary in:\n{help}");
    }
    let summary = |n: &str| commands.iter().find(|c| c.0 == n).unwrap().1;
    assert!(summary("extract").starts_with("Extract"), "{help}");
    assert!(
        summary("update").starts_with("Write a new archive"),
        "{help}"
    );
}
