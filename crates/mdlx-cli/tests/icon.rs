//! `mdlx icon` and `mdlx portrait`: what they write and where, and what they refuse. (The
//! icons' frames and disabled look, and the portraits, are measured over the corpus in the
//! library's `icons.rs` and `portraits.rs`.)

mod common;
use common::*;
use std::path::Path;

const KAZUMA: &str = "mdx/Bergi-bear__KonosubaWC3__map.w3x__KazumaA01.mdx";

fn picture(path: &Path) -> mdlx::texture::RgbaImage {
    mdlx::texture::decode(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn a_units_icons_where_the_game_looks() {
    let dir = temp_dir("icon-unit");
    let r = mdlx(&[
        "icon",
        &s(corpus().join(KAZUMA)),
        &s(&dir),
        "--name",
        "Kazuma",
        "--png",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(stderr(&r).contains("framed on the head"), "{}", stderr(&r));
    let btn = Path::new(&dir).join("ReplaceableTextures/CommandButtons/BTNKazuma.blp");
    let dis = Path::new(&dir).join("ReplaceableTextures/CommandButtonsDisabled/DISBTNKazuma.blp");
    let (b, d) = (picture(&btn), picture(&dis));
    assert_eq!((b.width, b.height, d.width, d.height), (64, 64, 64, 64));
    // The button's bevel is light at the top; the disabled frame is black; inside, the
    // disabled icon is darker.
    let at = |i: &mdlx::texture::RgbaImage, x: u32, y: u32| i.pixels[((y * 64 + x) * 4) as usize];
    assert!(
        at(&b, 32, 1) > 150 && at(&d, 32, 1) < 8,
        "{} {}",
        at(&b, 32, 1),
        at(&d, 32, 1)
    );
    let sum = |i: &mdlx::texture::RgbaImage| i.pixels.iter().map(|&v| u64::from(v)).sum::<u64>();
    assert!(sum(&d) * 10 < sum(&b) * 7);
    assert!(btn.with_extension("png").exists() && dis.with_extension("png").exists());
}

#[test]
fn a_missing_disbtn_made_from_its_btn_in_a_map() {
    let map = shared().join("archives/inwc3+wc3libs__in.w3x");
    let dir = temp_dir("icon-disbtn");
    let input = format!(
        "{}:ReplaceableTextures\\CommandButtons\\BTNArcaneBurst.blp",
        s(&map)
    );
    let r = mdlx(&["icon", &input, &s(&dir), "--icons", "disbtn"]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(stderr(&r).contains("its frame kept"), "{}", stderr(&r));
    let ours = picture(
        &Path::new(&dir).join("ReplaceableTextures/CommandButtonsDisabled/DISBTNArcaneBurst.blp"),
    );
    // The map's own DISBTN of it.
    let x = temp_dir("icon-disbtn-theirs");
    let r = mdlx(&["extract", &s(&map), &s(&x), "*DISBTNArcaneBurst*"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let theirs = picture(
        &Path::new(&x).join("ReplaceableTextures/CommandButtonsDisabled/DISBTNArcaneBurst.blp"),
    );
    let n = ours.pixels.len() as f64;
    let mae = ours
        .pixels
        .iter()
        .zip(&theirs.pixels)
        .map(|(a, b)| f64::from(a.abs_diff(*b)))
        .sum::<f64>()
        / n;
    assert!(mae < 6.0, "{mae}");
    assert!(!Path::new(&dir)
        .join("ReplaceableTextures/CommandButtons")
        .exists());
}

#[test]
fn a_folder_every_icon_and_a_sheet() {
    let src = temp_dir("icon-folder-src");
    std::fs::copy(
        repo().join("examples/cube.mdx"),
        Path::new(&src).join("cube.mdx"),
    )
    .unwrap();
    std::fs::copy(corpus().join(KAZUMA), Path::new(&src).join("Kazuma.mdx")).unwrap();
    std::fs::copy(
        corpus().join(KAZUMA),
        Path::new(&src).join("Kazuma_Portrait.mdx"),
    )
    .unwrap();
    let dir = temp_dir("icon-folder");
    let sheet = Path::new(&dir).join("sheet.png");
    let r = mdlx(&[
        "icon",
        &s(&src),
        &s(&dir),
        "--icons",
        "all",
        "--sheet",
        &s(&sheet),
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(stderr(&r).contains("2 icon set(s) made"), "{}", stderr(&r));
    for (folder, prefix) in [
        ("CommandButtons", "BTN"),
        ("CommandButtonsDisabled", "DISBTN"),
        ("PassiveButtons", "PASBTN"),
        ("CommandButtonsDisabled", "DISPASBTN"),
        ("CommandButtons", "ATC"),
        ("CommandButtonsDisabled", "DISATC"),
    ] {
        for name in ["cube", "Kazuma"] {
            let f =
                Path::new(&dir).join(format!("ReplaceableTextures/{folder}/{prefix}{name}.blp"));
            assert_eq!(picture(&f).width, 64, "{}", f.display());
        }
    }
    assert!(!Path::new(&dir)
        .join("ReplaceableTextures/CommandButtons/BTNKazuma_Portrait.blp")
        .exists());
    let sheet = mdlx::texture::png::from_bytes(&std::fs::read(&sheet).unwrap()).unwrap();
    assert!(sheet.width > 6 * 64);
    // Refused: a word that names no icon, and --name for many models.
    let r = mdlx(&["icon", &s(&src), &s(&dir), "--icons", "btn,dis"]);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    let r = mdlx(&["icon", &s(&src), &s(&dir), "--name", "X"]);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
}

#[test]
fn a_portrait_model_and_a_portrait_camera() {
    let dir = temp_dir("portrait");
    let out = Path::new(&dir).join("Kazuma_Portrait.mdx");
    let r = mdlx(&["portrait", &s(corpus().join(KAZUMA)), &s(&out)]);
    assert!(r.status.success(), "{}", stderr(&r));
    let read = |p: &Path| {
        mdlx::read(&std::fs::read(p).unwrap(), &mdlx::ReadOptions::default())
            .unwrap()
            .model
    };
    let m = read(&out);
    let names: Vec<String> = m
        .sequences
        .iter()
        .map(|s| s.name.text().into_owned())
        .collect();
    assert_eq!(names, ["Portrait", "Portrait Talk"]);
    assert_eq!(m.cameras.len(), 1);
    assert_eq!(m.cameras[0].name.to_string(), "Portrait_Camera");
    let r = mdlx(&["check", &s(&out)]);
    assert!(
        !text(&r.stdout).contains("missing-portrait"),
        "{}",
        text(&r.stdout)
    );
    // --camera-only keeps the sequences; the view asked for is the camera's.
    let cam = Path::new(&dir).join("camera.mdl");
    let r = mdlx(&[
        "portrait",
        &s(corpus().join(KAZUMA)),
        &s(&cam),
        "--camera-only",
        "--yaw",
        "0",
        "--pitch",
        "0",
        "--distance",
        "100",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let m2 = read(&cam);
    let source = read(&corpus().join(KAZUMA));
    assert_eq!(m2.sequences.len(), source.sequences.len());
    let c = &m2.cameras[0];
    assert!((c.position[0] - c.target_position[0] - 100.0).abs() < 0.01);
    // Refused: an output that is no model.
    let r = mdlx(&[
        "portrait",
        &s(corpus().join(KAZUMA)),
        &s(Path::new(&dir).join("p.txt")),
    ]);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
}
