//! The renderer's picture outputs (`render::output`) read back by readers that are not ours:
//! the `png` crate's decoder for APNG, the `gif` crate's decoder for GIF, `image-webp`'s
//! decoder for WebP, and Pillow for all three (`scripts/pillow-anim.sh` sets
//! `MDLX_PILLOW_PYTHON`; without it the Pillow part is skipped with a message, except under
//! CI, where it fails). Lossless formats must give back every pixel; GIF its transparency
//! (alpha below 128 transparent) exactly and its colours within the palette's error.
//! Contact sheets: every picture where the documented grid puts it, and a name written
//! under each.

use mdlx::render::output::{encode, sheet, EncodeError};
use mdlx::texture::RgbaImage;
use std::io::Cursor;
use std::path::{Path, PathBuf};

/// An animation of `n` frames of `w` x `h`: a colour gradient (many colours) that shifts
/// with the frame, with a moving disc that is opaque in its middle, alpha 200 and then 100
/// in two rings, and alpha 0 outside (where the colour goes on, so that a lossless format
/// must keep colour under zero alpha too).
fn gradient_frames(n: u32, w: u32, h: u32) -> Vec<RgbaImage> {
    (0..n)
        .map(|k| {
            let mut pixels = Vec::with_capacity((w * h * 4) as usize);
            let (cx, cy) = ((w / 2 + 3 * k) as f32, (h / 2) as f32);
            for y in 0..h {
                for x in 0..w {
                    let d = ((x as f32 - cx).powi(2) + (y as f32 - cy).powi(2)).sqrt();
                    let a = match d {
                        d if d < 8.0 => 255,
                        d if d < 11.0 => 200,
                        d if d < 14.0 => 100,
                        _ => 0,
                    };
                    pixels.extend([
                        (x * 255 / w) as u8,
                        (y * 255 / h) as u8,
                        (k * 50 % 256) as u8,
                        a,
                    ]);
                }
            }
            RgbaImage {
                width: w,
                height: h,
                pixels,
            }
        })
        .collect()
}

/// `n` frames of four flat colours in quadrants that rotate, with a transparent stripe.
fn flat_frames(n: u32, w: u32, h: u32) -> Vec<RgbaImage> {
    let colours = [[200, 30, 30], [30, 200, 30], [30, 30, 200], [250, 250, 250]];
    (0..n)
        .map(|k| {
            let mut pixels = Vec::new();
            for y in 0..h {
                for x in 0..w {
                    let q =
                        (usize::from(x >= w / 2) + 2 * usize::from(y >= h / 2) + k as usize) % 4;
                    let a = if (x + k) % 7 == 0 { 0 } else { 255 };
                    pixels.extend(colours[q]);
                    pixels.push(a);
                }
            }
            RgbaImage {
                width: w,
                height: h,
                pixels,
            }
        })
        .collect()
}

#[test]
fn apng_read_by_the_png_crate_gives_back_every_frame_delay_and_pixel() {
    let frames = gradient_frames(5, 48, 32);
    let file = encode::apng(&frames, 40).unwrap();
    let mut reader = png::Decoder::new(Cursor::new(&file)).read_info().unwrap();
    let actl = reader.info().animation_control().copied().unwrap();
    assert_eq!((actl.num_frames, actl.num_plays), (5, 0)); // 0 plays: forever
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    for (k, frame) in frames.iter().enumerate() {
        let out = reader.next_frame(&mut buf).unwrap();
        assert_eq!((out.width, out.height), (48, 32));
        let fctl = reader.info().frame_control().copied().unwrap();
        let ms = f64::from(fctl.delay_num) * 1000.0 / f64::from(fctl.delay_den);
        assert_eq!(ms, 40.0, "frame {k}");
        assert_eq!((fctl.x_offset, fctl.y_offset), (0, 0));
        assert_eq!(fctl.blend_op, png::BlendOp::Source);
        assert_eq!(&buf[..out.buffer_size()], &frame.pixels[..], "frame {k}");
    }
    assert!(reader.next_frame(&mut buf).is_err(), "a sixth frame");
    // A delay that is not a whole fraction of a second over 1000 still comes out exact.
    let file = encode::apng(&frames[..1], 1001).unwrap();
    let reader = png::Decoder::new(Cursor::new(&file)).read_info().unwrap();
    let fctl = reader.info().frame_control().copied().unwrap();
    assert_eq!((fctl.delay_num, fctl.delay_den), (1001, 1000));
}

/// Frames as the gif crate decodes them (RGBA), with each frame's delay (centiseconds) and
/// disposal, and whether the file asks to loop forever.
fn decode_gif(file: &[u8]) -> (Vec<(Vec<u8>, u16, gif::DisposalMethod)>, bool) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(Cursor::new(file)).unwrap();
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        frames.push((frame.buffer.to_vec(), frame.delay, frame.dispose));
    }
    let forever = decoder.repeat() == gif::Repeat::Infinite;
    (frames, forever)
}

#[test]
fn gif_read_by_the_gif_crate_keeps_count_delays_transparency_and_near_colours() {
    let frames = gradient_frames(4, 64, 40);
    // 74 ms is 7.4 centiseconds: 7.
    let (decoded, forever) = decode_gif(&encode::gif(&frames, 74).unwrap());
    assert!(forever);
    assert_eq!(decoded.len(), 4);
    let (mut worst, mut sum, mut count) = (0u8, 0u64, 0u64);
    for (k, ((pixels, delay, dispose), frame)) in decoded.iter().zip(&frames).enumerate() {
        assert_eq!(*delay, 7, "frame {k}");
        // Each frame stands alone: what it leaves is cleared before the next.
        assert_eq!(*dispose, gif::DisposalMethod::Background);
        for (p, q) in pixels.chunks_exact(4).zip(frame.pixels.chunks_exact(4)) {
            if q[3] < 128 {
                assert_eq!(
                    p[3], 0,
                    "frame {k}: source alpha {} must be transparent",
                    q[3]
                );
                continue;
            }
            assert_eq!(p[3], 255, "frame {k}: source alpha {} must be opaque", q[3]);
            for c in 0..3 {
                let d = p[c].abs_diff(q[c]);
                worst = worst.max(d);
                sum += u64::from(d);
                count += 1;
            }
        }
    }
    // 255 colours for a smooth gradient: NeuQuant's error is a few levels, never a wrong
    // hue.
    let mean = sum as f64 / count as f64;
    eprintln!("GIF gradient: mean channel error {mean:.2}, worst {worst}");
    assert!(mean < 6.0 && worst < 40, "mean {mean:.2}, worst {worst}");
    // Few colours: the palette holds them exactly.
    let flat = flat_frames(3, 30, 20);
    let (decoded, _) = decode_gif(&encode::gif(&flat, 100).unwrap());
    assert_eq!(decoded.len(), 3);
    for ((pixels, delay, _), frame) in decoded.iter().zip(&flat) {
        assert_eq!(*delay, 10);
        for (p, q) in pixels.chunks_exact(4).zip(frame.pixels.chunks_exact(4)) {
            let want = if q[3] == 0 { 0 } else { 255 };
            assert_eq!(p[3], want);
            if want == 255 {
                assert_eq!(&p[..3], &q[..3]);
            }
        }
    }
}

#[test]
fn webp_read_by_image_webp_gives_back_every_frame_and_pixel() {
    let frames = gradient_frames(3, 50, 30);
    let file = encode::webp(&frames, 120).unwrap();
    let mut decoder = image_webp::WebPDecoder::new(Cursor::new(&file)).unwrap();
    assert!(decoder.is_animated());
    assert!(decoder.has_alpha());
    assert_eq!(decoder.dimensions(), (50, 30));
    assert_eq!(decoder.num_frames(), 3);
    assert_eq!(decoder.loop_count(), image_webp::LoopCount::Forever);
    assert_eq!(decoder.loop_duration(), 360);
    let mut buf = vec![0; decoder.output_buffer_size().unwrap()];
    for (k, frame) in frames.iter().enumerate() {
        let delay = decoder.read_frame(&mut buf).unwrap();
        assert_eq!(delay, 120, "frame {k}");
        assert!(buf == frame.pixels, "frame {k}: pixels differ");
    }
    // One frame: a still picture.
    let file = encode::webp(&frames[1..2], 120).unwrap();
    let mut decoder = image_webp::WebPDecoder::new(Cursor::new(&file)).unwrap();
    assert!(!decoder.is_animated());
    decoder.read_image(&mut buf).unwrap();
    assert!(buf == frames[1].pixels);
}

#[test]
fn encoders_refuse_what_the_formats_cannot_hold_and_say_why() {
    let frames = flat_frames(2, 8, 8);
    let small = flat_frames(1, 4, 4).remove(0);
    let uneven = vec![frames[0].clone(), small];
    for (result, needle) in [
        (encode::apng(&[], 10), "APNG: no frame"),
        (
            encode::gif(&uneven, 10),
            "GIF: frame 1 is 4 x 4 but the first is 8 x 8",
        ),
        (
            encode::webp(&frames, 1 << 24),
            "longer than the format's 16777215 ms",
        ),
        (encode::gif(&frames, 700_000), "GIF: a delay of 700000 ms"),
    ] {
        let e: EncodeError = result.unwrap_err();
        assert!(e.to_string().contains(needle), "{e}");
    }
    let wide = RgbaImage {
        width: 20_000,
        height: 1,
        pixels: vec![0; 80_000],
    };
    let e = encode::webp(&[wide.clone(), wide], 10).unwrap_err();
    assert!(matches!(e, EncodeError::BadSize { max: 16384, .. }), "{e}");
}

#[test]
fn encodings_are_deterministic() {
    let frames = gradient_frames(3, 40, 40);
    assert_eq!(
        encode::gif(&frames, 50).unwrap(),
        encode::gif(&frames, 50).unwrap()
    );
    assert_eq!(
        encode::webp(&frames, 50).unwrap(),
        encode::webp(&frames, 50).unwrap()
    );
    assert_eq!(
        encode::apng(&frames, 50).unwrap(),
        encode::apng(&frames, 50).unwrap()
    );
}

/// Pillow from `MDLX_PILLOW_PYTHON` (set by `scripts/pillow-anim.sh`), else the same venv
/// when `scripts/pillow-oracle.sh` has prepared it (`MDLX_PILLOW_PNG` set; the venv under
/// `PILLOW_DIR`, default /tmp/mdlx-pillow); or `None` with a message (a failure under CI).
fn pillow() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("MDLX_PILLOW_PYTHON") {
        return Some(PathBuf::from(p));
    }
    if std::env::var_os("MDLX_PILLOW_PNG").is_some() {
        let base = std::env::var_os("PILLOW_DIR").unwrap_or_else(|| "/tmp/mdlx-pillow".into());
        return Some(Path::new(&base).join("venv/bin/python"));
    }
    if std::env::var_os("CI").is_some() {
        panic!("MDLX_PILLOW_PYTHON is not set: run scripts/pillow-anim.sh");
    }
    eprintln!(
        "render_output: MDLX_PILLOW_PYTHON not set (scripts/pillow-anim.sh); Pillow part skipped"
    );
    None
}

/// What Pillow says of each file: `FORMAT WIDTH HEIGHT N_FRAMES LOOP DURATION...`, one
/// line a file, having saved frame `k` of `FILE` as raw RGBA in `FILE.k.rgba`.
fn pillow_report(python: &Path, files: &[PathBuf]) -> Vec<String> {
    let script = "import sys\nfrom PIL import Image\nfor f in sys.argv[1:]:\n    \
        im = Image.open(f)\n    n = getattr(im, 'n_frames', 1)\n    durations = []\n    \
        for k in range(n):\n        im.seek(k)\n        \
        open(f'{f}.{k}.rgba', 'wb').write(im.convert('RGBA').tobytes())\n        \
        durations.append(str(round(im.info.get('duration', -1))))\n    \
        print(im.format, im.size[0], im.size[1], n, im.info.get('loop', 'none'), \
        ' '.join(durations))\n";
    let out = std::process::Command::new(python)
        .arg("-c")
        .arg(script)
        .args(files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn pillow_opens_our_gif_apng_and_webp_with_their_frames_durations_and_pixels() {
    let Some(python) = pillow() else { return };
    let dir = std::env::temp_dir().join(format!("mdlx-render-output-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let frames = gradient_frames(6, 60, 36);
    let files = [
        ("anim.gif", encode::gif(&frames, 80).unwrap()),
        ("anim.png", encode::apng(&frames, 80).unwrap()),
        ("anim.webp", encode::webp(&frames, 80).unwrap()),
    ];
    let paths: Vec<PathBuf> = files.iter().map(|(n, _)| dir.join(n)).collect();
    for ((_, bytes), path) in files.iter().zip(&paths) {
        std::fs::write(path, bytes).unwrap();
    }
    let report = pillow_report(&python, &paths);
    eprintln!("Pillow: {report:#?}");
    // Pillow names the formats; all loop forever (loop 0); every frame 80 ms.
    let durations = ["80"; 6].join(" ");
    assert_eq!(report[0], format!("GIF 60 36 6 0 {durations}"));
    assert_eq!(report[1], format!("PNG 60 36 6 0 {durations}"));
    assert_eq!(report[2], format!("WEBP 60 36 6 0 {durations}"));
    for (path, lossless) in paths.iter().zip([false, true, true]) {
        for (k, frame) in frames.iter().enumerate() {
            let got = std::fs::read(format!("{}.{k}.rgba", path.display())).unwrap();
            assert_eq!(got.len(), frame.pixels.len());
            if lossless {
                assert!(got == frame.pixels, "{}: frame {k} differs", path.display());
                continue;
            }
            for (p, q) in got.chunks_exact(4).zip(frame.pixels.chunks_exact(4)) {
                assert_eq!(p[3] == 0, q[3] < 128, "{}: frame {k}", path.display());
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn contact_sheet_puts_each_picture_on_the_grid_with_its_name_under_it() {
    let (w, h) = (40u32, 30u32);
    let names = [
        "Footman.mdx",
        "Units/Human/Knight/Knight.mdx",
        "a",
        "caf\u{e9} \u{00fc}ber",
        "HeroPaladin_Portrait.mdx",
        "Doodads/Cinematic/ArthasIllidanFight/ArthasIllidanFight.mdx",
        "x",
    ];
    let colour = |i: usize| [(i * 30 + 20) as u8, 200 - (i * 20) as u8, 90, 255];
    let cells: Vec<(String, RgbaImage)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let picture = RgbaImage {
                width: w,
                height: h,
                pixels: colour(i).repeat((w * h) as usize),
            };
            (n.to_string(), picture)
        })
        .collect();
    let background = [70, 70, 70, 255];
    let out = sheet::contact_sheet(&cells, 3, background);
    let band = sheet::name_band_height(w);
    let g = sheet::GAP;
    // 3 columns, 3 rows (7 pictures).
    assert_eq!(out.width, g + 3 * (w + g));
    assert_eq!(out.height, g + 3 * (h + band + g));
    let at = |x: u32, y: u32| {
        let i = ((y * out.width + x) * 4) as usize;
        [
            out.pixels[i],
            out.pixels[i + 1],
            out.pixels[i + 2],
            out.pixels[i + 3],
        ]
    };
    for i in 0..names.len() {
        // Every pixel of the picture's colour is in one box, where the grid says.
        let (mut x0, mut y0, mut x1, mut y1, mut n) = (u32::MAX, u32::MAX, 0, 0, 0u32);
        for y in 0..out.height {
            for x in 0..out.width {
                if at(x, y) == colour(i) {
                    (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
                    n += 1;
                }
            }
        }
        let (col, row) = (i as u32 % 3, i as u32 / 3);
        let (gx, gy) = (g + col * (w + g), g + row * (h + band + g));
        assert_eq!(
            (x0, y0, x1 + 1, y1 + 1),
            (gx, gy, gx + w, gy + h),
            "cell {i}"
        );
        assert_eq!(n, w * h, "cell {i} is whole");
        // The name band under it has both the names' white and their dark outline.
        let band_pixels: Vec<[u8; 4]> = (gy + h..gy + h + band)
            .flat_map(|y| (gx..gx + w).map(move |x| (x, y)))
            .map(|(x, y)| at(x, y))
            .collect();
        let white = band_pixels.iter().filter(|p| **p == [255; 4]).count();
        let dark = band_pixels.iter().filter(|p| **p == [0, 0, 0, 255]).count();
        assert!(
            white > 3 && dark > white,
            "cell {i}: {white} white, {dark} dark"
        );
    }
    // Nothing drawn in the gaps: the column left of each cell is background.
    for y in 0..out.height {
        for col in 0..3 {
            assert_eq!(at(col * (w + g) + g - 1, y), background, "gap at row {y}");
        }
    }
    // The last row's two empty cells stay background.
    let (gx, gy) = (g + (w + g), g + 2 * (h + band + g));
    assert!((gy..out.height).all(|y| (gx..out.width).all(|x| at(x, y) == background)));
    if let Some(dir) = std::env::var_os("MDLX_SHEET_OUT") {
        std::fs::write(Path::new(&dir).join("sheet.png"), encode::png(&out)).unwrap();
    }
}

#[test]
fn edge_cases_encode_and_decode() {
    // A frame with no opaque pixel: a GIF of nothing but its transparent entry.
    let clear = RgbaImage {
        width: 5,
        height: 3,
        pixels: vec![0; 60],
    };
    let (decoded, _) = decode_gif(&encode::gif(&[clear.clone(), clear.clone()], 0).unwrap());
    assert_eq!(decoded.len(), 2);
    assert!(decoded
        .iter()
        .all(|(p, d, _)| *d == 0 && p.iter().all(|&b| b == 0)));
    // One frame: APNG of one frame, a still WebP (above) and a GIF of one frame.
    let file = encode::apng(std::slice::from_ref(&clear), 0).unwrap();
    let reader = png::Decoder::new(Cursor::new(&file)).read_info().unwrap();
    assert_eq!(reader.info().animation_control().unwrap().num_frames, 1);
    // No cells: an empty sheet, not a panic.
    let empty = sheet::contact_sheet(&[], 4, [1, 2, 3, 4]);
    assert_eq!(
        empty.pixels.len(),
        (empty.width * empty.height * 4) as usize
    );
    assert!(empty.pixels.chunks_exact(4).all(|p| p == [1, 2, 3, 4]));
}
