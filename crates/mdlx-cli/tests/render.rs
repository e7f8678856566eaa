//! `mdlx render`: pictures, animations, thumbnails and contact sheets, read back with the
//! png and gif crates' own decoders.

mod common;

use common::mdlx;
use std::path::{Path, PathBuf};

fn cube() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/cube.mdx")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mdlx-render-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// (width, height, RGBA pixels) of a PNG.
fn png(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba, "{}", path.display());
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn covered(pixels: &[u8]) -> usize {
    pixels.chunks_exact(4).filter(|p| p[3] > 0).count()
}

fn ok(args: &[&str]) -> String {
    let out = mdlx(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "mdlx {args:?} failed: {err}");
    err
}

#[test]
fn a_picture_is_a_png_of_the_size_asked_with_the_model_on_a_transparent_background() {
    let d = tmp("picture");
    let out = d.join("cube.png");
    let err = ok(&[
        "render",
        cube().to_str().unwrap(),
        out.to_str().unwrap(),
        "--size",
        "80x60",
    ]);
    assert!(
        err.contains("Textures\\Cube.blp"),
        "the missing texture is named: {err}"
    );
    let (w, h, px) = png(&out);
    assert_eq!((w, h), (80, 60));
    let n = covered(&px);
    assert!(n > 80 * 60 / 10 && n < 80 * 60, "{n} pixels covered");
    // The corners are background: transparent.
    assert_eq!(&px[0..4], &[0, 0, 0, 0]);
}

#[test]
fn time_moves_the_model() {
    let d = tmp("time");
    let (a, b) = (d.join("a.png"), d.join("b.png"));
    let c = cube();
    ok(&[
        "render",
        c.to_str().unwrap(),
        a.to_str().unwrap(),
        "--size",
        "64",
        "--sequence",
        "Spin",
        "--time",
        "0",
    ]);
    ok(&[
        "render",
        c.to_str().unwrap(),
        b.to_str().unwrap(),
        "--size",
        "64",
        "--sequence",
        "Spin",
        "--time",
        "250",
    ]);
    // Spin turns the cube a quarter turn over 500 ms: at 250 ms it is 45 degrees round,
    // and its outline is not the same.
    assert_ne!(png(&a).2, png(&b).2);
    let (_, _, px) = png(&b);
    assert!(covered(&px) > 0);
}

#[test]
fn a_turntable_gif_has_one_frame_per_step_and_loops() {
    let d = tmp("gif");
    let out = d.join("turn.gif");
    ok(&[
        "render",
        cube().to_str().unwrap(),
        out.to_str().unwrap(),
        "--size",
        "48",
        "--frames",
        "12",
        "--fps",
        "10",
    ]);
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = opts.read_info(std::fs::File::open(&out).unwrap()).unwrap();
    assert_eq!((dec.width(), dec.height()), (48, 48));
    let mut frames = Vec::new();
    while let Some(f) = dec.read_next_frame().unwrap() {
        assert_eq!(f.delay, 10, "1/10 s in hundredths");
        frames.push(f.buffer.to_vec());
    }
    assert_eq!(frames.len(), 12);
    // The model turns 30 degrees a frame: consecutive frames differ, and the cube, the
    // same after a quarter turn about its vertical axis, looks the same three frames on.
    let diff = |a: &[u8], b: &[u8]| {
        a.iter()
            .zip(b)
            .map(|(x, y)| f64::from(x.abs_diff(*y)))
            .sum::<f64>()
            / a.len() as f64
    };
    assert!(frames.windows(2).all(|w| diff(&w[0], &w[1]) > 1.0));
    for k in 0..9 {
        assert!(
            diff(&frames[k], &frames[k + 3]) < 0.5,
            "frames {k} and {}",
            k + 3
        );
    }
}

#[test]
fn a_folder_gets_a_thumbnail_per_model_or_a_contact_sheet() {
    let d = tmp("library");
    let lib = d.join("lib");
    std::fs::create_dir_all(lib.join("units")).unwrap();
    std::fs::copy(cube(), lib.join("a.mdx")).unwrap();
    std::fs::copy(cube(), lib.join("units/b.mdx")).unwrap();
    std::fs::write(lib.join("units/broken.mdx"), b"MDLXnonsense").unwrap();
    let thumbs = d.join("thumbs");
    let out = mdlx(&[
        "render",
        lib.to_str().unwrap(),
        thumbs.to_str().unwrap(),
        "--size",
        "32",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "one model is broken: {err}");
    assert!(err.contains("broken.mdx"), "{err}");
    assert!(err.contains("2 model(s) drawn, 1 failed"), "{err}");
    assert_eq!(png(&thumbs.join("a.png")).0, 32);
    assert_eq!(png(&thumbs.join("units/b.png")).0, 32);
    assert!(!thumbs.join("units/broken.png").exists());
    // A contact sheet: both pictures side by side, names underneath.
    let sheet = d.join("sheet.png");
    let _ = mdlx(&[
        "render",
        lib.to_str().unwrap(),
        sheet.to_str().unwrap(),
        "--size",
        "32",
        "--columns",
        "2",
    ]);
    let (w, h, px) = png(&sheet);
    assert!(w >= 64 && h > 32, "{w}x{h}");
    assert!(covered(&px) > 0);
}

#[test]
fn what_cannot_be_made_is_refused_with_the_reason() {
    let d = tmp("refused");
    let c = cube();
    let out = mdlx(&[
        "render",
        c.to_str().unwrap(),
        d.join("x.bmp").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains(".png, .gif, .apng or .webp"));
    let out = mdlx(&[
        "render",
        c.to_str().unwrap(),
        d.join("x.png").to_str().unwrap(),
        "--portrait",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no usable camera"));
    let out = mdlx(&[
        "render",
        c.to_str().unwrap(),
        d.join("x.png").to_str().unwrap(),
        "--size",
        "0",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!d.join("x.png").exists(), "nothing written");
}
