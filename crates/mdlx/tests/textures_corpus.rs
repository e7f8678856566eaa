//! Decodes every texture of the shared corpus (`../shared/corpus/textures`): level 0 and
//! every mip level whose data lies in the file, by kind, and compares the pixels with
//! Pillow's where Pillow is right (or with the documented relation where it is not; see
//! the corpus README). Pillow's output comes from `scripts/pillow-oracle.sh`
//! (`MDLX_PILLOW_PNG`); without it that part is skipped with a message, except under CI.

mod common;

use common::{texture_corpus, texture_manifest};
use mdlx::texture::{self, RgbaImage, Texture, TextureErrorKind};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Default)]
struct Tally {
    files: usize,
    decoded: usize,
    failed: usize,
    levels: usize,
    levels_missing: usize,
}

/// Pillow's pixels for `name`, or why there are none.
fn pillow(dir: &Path, name: &str) -> Result<RgbaImage, String> {
    let png = dir.join(format!("{name}.png"));
    match std::fs::read(&png) {
        Ok(bytes) => texture::png::from_bytes(&bytes).map_err(|e| e.to_string()),
        Err(_) => Err(std::fs::read_to_string(dir.join(format!("{name}.err")))
            .unwrap_or_else(|_| "no Pillow output".into())
            .trim()
            .to_string()),
    }
}

/// Per-channel absolute differences: (max, sum, count).
#[derive(Default, Clone, Copy)]
struct Diff {
    max: u32,
    sum: u64,
    count: u64,
}

impl Diff {
    fn add(&mut self, a: u8, b: u8) {
        let d = (i32::from(a) - i32::from(b)).unsigned_abs();
        self.max = self.max.max(d);
        self.sum += u64::from(d);
        self.count += 1;
    }
    fn merge(&mut self, o: Diff) {
        self.max = self.max.max(o.max);
        self.sum += o.sum;
        self.count += o.count;
    }
    fn mean(&self) -> f64 {
        self.sum as f64 / self.count.max(1) as f64
    }
}

/// BLP1 JPEG: Pillow's RGB is the true colour times alpha / 255 (the alpha plane is hidden
/// when alpha bits are 0) and its alpha is 255. Decodes `data` with alpha bits forced to 8
/// to get that alpha, and measures Pillow against our colour premultiplied by it.
fn jpeg_relation(data: &[u8], ours: &RgbaImage, theirs: &RgbaImage) -> (Diff, bool) {
    let mut forced = data.to_vec();
    forced[8..12].copy_from_slice(&8u32.to_le_bytes());
    let with_alpha = texture::decode(&forced).unwrap();
    let mut diff = Diff::default();
    let mut alpha_255 = true;
    for ((o, a), p) in ours
        .pixels
        .chunks_exact(4)
        .zip(with_alpha.pixels.chunks_exact(4))
        .zip(theirs.pixels.chunks_exact(4))
    {
        for c in 0..3 {
            let pre = (u32::from(o[c]) * u32::from(a[3]) + 127) / 255;
            diff.add(pre as u8, p[c]);
        }
        alpha_255 &= p[3] == 255;
    }
    (diff, alpha_255)
}

/// Tolerances for BLP1 JPEG against Pillow (libjpeg's IDCT and colour arithmetic against
/// zune-jpeg's and ours), measured on the corpus: see src/texture/README.md.
const JPEG_MAX: u32 = 2;
const JPEG_MEAN: f64 = 0.05;

#[allow(
    clippy::too_many_lines,
    reason = "test code: the shape gate holds the sources only"
)]
#[test]
fn every_corpus_texture_decodes() {
    let Some(dir) = texture_corpus("textures_corpus") else {
        return;
    };
    let pillow_dir = std::env::var_os("MDLX_PILLOW_PNG").map(PathBuf::from);
    if pillow_dir.is_none() {
        if std::env::var_os("CI").is_some() {
            panic!("MDLX_PILLOW_PNG is not set: run `eval \"$(scripts/pillow-oracle.sh)\"` first");
        }
        eprintln!("textures_corpus: MDLX_PILLOW_PNG not set (scripts/pillow-oracle.sh); Pillow comparison skipped");
    }
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut compared: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut jpeg = Diff::default();
    let mut skipped = Vec::new();
    let out = std::env::var_os("MDLX_TEXTURE_PNG_OUT").map(PathBuf::from);
    let entries = texture_manifest(&dir);
    let mut bytes_total = 0;
    let start = std::time::Instant::now();
    for e in &entries {
        let data = std::fs::read(dir.join(&e.name)).unwrap();
        bytes_total += data.len();
        let t = tally.entry(e.kind.clone()).or_default();
        t.files += 1;
        if e.kind == "broken-magic" {
            match Texture::from_bytes(&data) {
                Err(err)
                    if matches!(err.kind, TextureErrorKind::NotATexture { .. })
                        && err.to_string().contains("MDX model") =>
                {
                    t.decoded += 1;
                    println!("refused as it should be: {}: {err}", e.name);
                }
                other => {
                    t.failed += 1;
                    failures.push(format!(
                        "{}: expected an MDX refusal, got {:?}",
                        e.name,
                        other.map(|t| t.kind)
                    ));
                }
            }
            continue;
        }
        let texture = match Texture::from_bytes(&data) {
            Ok(t) => t,
            Err(err) => {
                t.failed += 1;
                failures.push(format!("{}: {err}", e.name));
                continue;
            }
        };
        let image = match texture.decode_level(0) {
            Ok(i) => i,
            Err(err) => {
                t.failed += 1;
                failures.push(format!("{} level 0: {err}", e.name));
                continue;
            }
        };
        if (image.width, image.height) != (e.width, e.height) {
            t.failed += 1;
            failures.push(format!(
                "{}: {}x{}, MANIFEST says {}x{}",
                e.name, image.width, image.height, e.width, e.height
            ));
            continue;
        }
        assert_eq!(
            image.pixels.len(),
            image.width as usize * image.height as usize * 4
        );
        let mut level_failed = false;
        for (n, level) in texture.levels.iter().enumerate().skip(1) {
            let in_file = level.offset + level.size <= data.len() as u64;
            match (texture.decode_level(n), in_file) {
                (Ok(_), true) => t.levels += 1,
                (Err(err), false) if matches!(err.kind, TextureErrorKind::PastEnd { .. }) => {
                    t.levels_missing += 1;
                    println!("{}: {err}", e.name);
                }
                (r, _) => {
                    level_failed = true;
                    failures.push(format!(
                        "{} level {n}: {:?}",
                        e.name,
                        r.map(|i| (i.width, i.height))
                    ));
                }
            }
        }
        if level_failed {
            t.failed += 1;
        } else {
            t.decoded += 1;
        }
        if let Some(out) = &out {
            std::fs::write(
                out.join(format!("{}.png", e.name)),
                texture::png::to_bytes(&image),
            )
            .unwrap();
        }
        let Some(pdir) = &pillow_dir else { continue };
        let theirs = match pillow(pdir, &e.name) {
            Ok(p) => p,
            Err(why) => {
                skipped.push(format!("{}: Pillow: {why}", e.name));
                continue;
            }
        };
        assert_eq!(
            (theirs.width, theirs.height),
            (image.width, image.height),
            "{}",
            e.name
        );
        let mip0 = texture.levels[0].offset;
        let (check, ok) = match e.kind.as_str() {
            k if k.starts_with("dds-") || k.starts_with("tga-") => {
                ("identical", image.pixels == theirs.pixels)
            }
            // Pillow's BLP2 DXT decoder (Python, not the C one it uses for DDS) widens
            // 5/6-bit channels by a shift alone, without repeating the top bits: red and blue
            // come out up to 7 lower, green up to 3, alpha the same.
            k if k.starts_with("blp2-") => (
                "BLP2 DXT: RGB 0..=7/3/7 above Pillow's unreplicated 5:6:5, alpha identical",
                image
                    .pixels
                    .chunks_exact(4)
                    .zip(theirs.pixels.chunks_exact(4))
                    .all(|(a, b)| {
                        let up = |c: usize, m: u8| a[c] >= b[c] && a[c] - b[c] <= m;
                        up(0, 7) && up(1, 3) && up(2, 7) && a[3] == b[3]
                    }),
            ),
            "blp1-palette" if mip0 < 156 + 1024 => {
                skipped.push(format!(
                    "{}: compact palette, Pillow reads pixels at the wrong offset",
                    e.name
                ));
                continue;
            }
            "blp1-palette" if e.alpha == "0" => ("identical", image.pixels == theirs.pixels),
            "blp1-palette" => (
                "identical RGB (Pillow's alpha is wrong)",
                image
                    .pixels
                    .chunks_exact(4)
                    .zip(theirs.pixels.chunks_exact(4))
                    .all(|(a, b)| a[..3] == b[..3]),
            ),
            "blp1-jpeg" => {
                let (d, alpha_255) = jpeg_relation(&data, &image, &theirs);
                jpeg.merge(d);
                let opaque = e.alpha != "0" || image.pixels.chunks_exact(4).all(|p| p[3] == 255);
                (
                    "RGB x A / 255 within tolerance, alpha 255",
                    alpha_255 && opaque && d.max <= JPEG_MAX && d.mean() <= JPEG_MEAN,
                )
            }
            other => panic!("unknown kind {other}"),
        };
        let c = compared.entry(check).or_default();
        if ok {
            c.0 += 1;
        } else {
            c.1 += 1;
            failures.push(format!("{}: differs from Pillow ({check})", e.name));
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "\n{:<24} {:>6} {:>8} {:>7} {:>12} {:>14}",
        "kind", "files", "decoded", "failed", "more levels", "levels cut off"
    );
    for (kind, t) in &tally {
        println!(
            "{kind:<24} {:>6} {:>8} {:>7} {:>12} {:>14}",
            t.files, t.decoded, t.failed, t.levels, t.levels_missing
        );
    }
    println!(
        "{} files, {:.1} MB in {secs:.2} s",
        entries.len(),
        bytes_total as f64 / 1e6
    );
    if pillow_dir.is_some() {
        for (check, (ok, bad)) in &compared {
            println!("Pillow, {check}: {ok} agree, {bad} differ");
        }
        println!(
            "BLP1 JPEG against Pillow (RGB x A / 255): max abs diff {}, mean {:.4} over {} samples",
            jpeg.max,
            jpeg.mean(),
            jpeg.count
        );
        for s in &skipped {
            println!("not compared: {s}");
        }
    }
    for f in &failures {
        println!("FAILED {f}");
    }
    assert!(
        failures.is_empty(),
        "{} failures (listed above)",
        failures.len()
    );
}
