//! `mdlx::render` against an independent renderer: mdx-m3-viewer in headless Chromium
//! (scripts/m3v-render.sh installs it and names it in `MDLX_M3V_RENDER`), drawing the same
//! corpus models at the same moment from the same camera.
//!
//! The models are chosen to cover every layer filter mode, team colour and glow, particle
//! emitters 2, ribbons, billboards, texture animations and HD materials (up to 16 of each,
//! then others to 130), from the corpus MDX in name order. Both renderers draw each model
//! twice, over black and over white: where the two pictures differ is background showing
//! through, so coverage is measured the same way for both whatever each does with alpha.
//!
//! Per model:
//! - **silhouette overlap**: intersection over union of the pixels covered at least half
//!   (for models with particles or ribbons, of 8x8-pixel blocks covered at least a quarter:
//!   see [`BLOCK`]);
//! - **colour difference**: the mean absolute difference (0-255, over R, G, B) of the
//!   pictures over black, inside the pixels both cover.
//!
//! Both get the same textures: the corpus textures the models name, and for HD models,
//! one-colour stand-ins for those the corpus lacks (see [`hd_stand_ins`]).
//!
//! The thresholds are in [`SILHOUETTE`] and [`COLOUR`]; the table, the worst cases and the
//! share of models within them are printed. Locally the corpus and textures may be given
//! as `MDLX_RENDER_CORPUS` (a folder of MDX) and `MDLX_RENDER_TEXTURES` (a folder).
//! With `MDLX_RENDER_DOCS=DIR`, side-by-side pictures of the first ten models go to DIR.

mod common;

use mdlx::anim::AnimTime;
use mdlx::model::{layer_flags, Model};
use mdlx::render::{Camera, RenderOptions, Scene, TextureCache};
use mdlx::texture::RgbaImage;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A model passes when its silhouettes overlap at least this much ...
const SILHOUETTE: f64 = 0.80;
/// ... and its colours inside differ by at most this much on average (of 255).
const COLOUR: f64 = 40.0;
/// The share of the models chosen that must pass: a floor under what was measured (85 of
/// 107, 79%, on 2026-11-28 with the shared corpus and its textures, HD models given
/// stand-ins for the textures the corpus lacks), so that a change that breaks pictures
/// wholesale fails.
const MUST_PASS: f64 = 0.7;
const SIZE: u32 = 192;

fn corpus() -> Option<(Vec<PathBuf>, PathBuf)> {
    let var = |k| std::env::var_os(k).filter(|v| !v.is_empty());
    if let (Some(m), Some(t)) = (var("MDLX_RENDER_CORPUS"), var("MDLX_RENDER_TEXTURES")) {
        let mut files: Vec<PathBuf> = std::fs::read_dir(m)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("mdx")))
            .collect();
        files.sort();
        return Some((files, PathBuf::from(t)));
    }
    let tex = common::texture_corpus("render_vs_m3v")?;
    let files = common::corpus_mdx();
    Some((
        files.clone(),
        common::texture_links(&files, &tex, "render-vs-m3v"),
    ))
}

/// What a model exercises.
fn features(m: &Model) -> Vec<&'static str> {
    let mut out = Vec::new();
    let layers = || m.materials.iter().flat_map(|x| x.layers.iter());
    for (mode, name) in [
        (1, "alpha key"),
        (2, "blend"),
        (3, "additive"),
        (4, "add alpha"),
        (5, "modulate"),
        (6, "modulate 2x"),
    ] {
        if layers().any(|l| l.filter_mode == mode) {
            out.push(name);
        }
    }
    let replaceable = |id| {
        layers().any(|l| {
            usize::try_from(l.texture_id)
                .ok()
                .and_then(|i| m.textures.get(i))
                .is_some_and(|t| t.replaceable_id == id)
        })
    };
    if replaceable(1) {
        out.push("team colour");
    }
    if replaceable(2) {
        out.push("team glow");
    }
    if !m.particle_emitters2.is_empty() {
        out.push("particles");
    }
    if !m.ribbon_emitters.is_empty() {
        out.push("ribbons");
    }
    if m.nodes().any(|n| n.flags & 0x78 != 0) {
        out.push("billboards");
    }
    if !m.texture_animations.is_empty() {
        out.push("texture animation");
    }
    if m.version >= 900
        && layers().any(|l| l.shader_type_id == 1 || l.flags & layer_flags::UNLIT != 0)
        || m.materials
            .iter()
            .any(|x| x.shader.to_string() == "Shader_HD_DefaultUnit")
    {
        out.push("HD");
    }
    out
}

struct Case {
    file: PathBuf,
    model: Model,
    features: Vec<&'static str>,
    sequence: Option<usize>,
    time: f64,
    camera: Camera,
}

/// Every file that reads, as a case (for the speed run).
fn all(files: &[PathBuf]) -> Vec<Case> {
    files
        .iter()
        .filter_map(|f| {
            let model = mdlx::mdx::from_bytes(&std::fs::read(f).ok()?).ok()?;
            case(f.clone(), model, Vec::new())
        })
        .collect()
}

/// The moment and camera both renderers draw `model` at: half-way into its Stand sequence
/// (or its first), at most a second in, framed from the default angle.
fn case(file: PathBuf, model: Model, features: Vec<&'static str>) -> Option<Case> {
    let stand = model
        .sequences
        .iter()
        .position(|s| s.name.text().to_ascii_lowercase().starts_with("stand"));
    let sequence = stand.or((!model.sequences.is_empty()).then_some(0));
    let length = sequence.map_or(0.0, |s| f64::from(model.sequences[s].length()));
    let time = (length * 0.5).min(1000.0).floor();
    let cache = TextureCache::new(vec![]);
    let scene = Scene::new(&model, &cache);
    let extent = scene.bounds(AnimTime::new(sequence, time), 0)?;
    let camera = Camera::default_framing(&extent, 1.0);
    Some(Case {
        file,
        model,
        features,
        sequence,
        time,
        camera,
    })
}

fn choose(files: &[PathBuf]) -> Vec<Case> {
    let mut by: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut chosen = Vec::new();
    let mut rest = Vec::new();
    for f in files {
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        let Ok(model) = mdlx::mdx::from_bytes(&bytes) else {
            continue;
        };
        let feats = features(&model);
        let wanted = feats.iter().any(|x| by.get(x).copied().unwrap_or(0) < 16);
        let case = (f.clone(), model, feats);
        if wanted {
            for x in &case.2 {
                *by.entry(x).or_default() += 1;
            }
            chosen.push(case);
        } else {
            rest.push(case);
        }
    }
    let more = 130usize.saturating_sub(chosen.len());
    let step = (rest.len() / more.max(1)).max(1);
    chosen.extend(rest.into_iter().step_by(step).take(more));
    chosen
        .into_iter()
        .filter_map(|(file, model, features)| case(file, model, features))
        .collect()
}

fn m3v_jobs(cases: &[Case], dir: &Path, textures: &[PathBuf], bg: [u8; 4], tag: &str) -> PathBuf {
    m3v_jobs_sized(cases, dir, textures, bg, tag, SIZE)
}

/// The colour a stand-in texture has, by the HD slot it fills first: diffuse, normal, ORM
/// (occlusion 1, no metal, no team-colour mask), emissive; then anything else.
const STAND_INS: [[u8; 4]; 5] = [
    [200, 200, 200, 255],
    [128, 128, 255, 255],
    [255, 128, 0, 0],
    [0, 0, 0, 255],
    [128, 128, 128, 255],
];

/// Stand-ins, written to `dir`, for the textures of `cases` that the corpus does not have
/// (most Reforged textures are the game's own and not in it; HD ones by their slot,
/// classic ones white), so
/// that both renderers draw the same inputs and the comparison measures their shading,
/// not how each fills a hole (ours draws a missing texture by its layer's role, light grey for
/// a surface; mdx-m3-viewer black).
/// Each is an 8x8 texture of one colour, in the format its path names (a `.tif` as the
/// `.dds` the game reads for it). Returns how many were written.
fn hd_stand_ins(cases: &[Case], found: &Path, dir: &Path) -> usize {
    std::fs::create_dir_all(dir).unwrap();
    let mut finder = mdlx::texture::TextureFinder::new(vec![found.to_path_buf()]);
    let mut written = 0;
    for c in cases {
        let hd = c.features.contains(&"HD");
        let m = &c.model;
        let mut role: BTreeMap<usize, usize> = BTreeMap::new();
        for mat in &m.materials {
            let first = mat.layers.first();
            let slots: Vec<i32> = match first {
                Some(l) if l.texture_slots.len() >= 4 => {
                    l.texture_slots.iter().map(|s| s.texture_id).collect()
                }
                _ => mat.layers.iter().map(|l| l.texture_id).collect(),
            };
            for (k, id) in slots.into_iter().enumerate() {
                if let Ok(id) = usize::try_from(id) {
                    role.entry(id).or_insert(k.min(4));
                }
            }
        }
        for (i, t) in m.textures.iter().enumerate() {
            let mut path = t.path.text().replace('\\', "/");
            // What mdx-m3-viewer is given for a `.tif` (see scripts/m3v-render/page.js); our
            // finder would also take a `.blp` of that name, which the judge does not get.
            if let Some(stem) = common::tif_stem(&path) {
                path = format!("{stem}.dds");
            }
            if t.replaceable_id != 0 || path.is_empty() || finder.find(&path).is_some() {
                continue;
            }
            let base = path.rsplit('/').next().unwrap_or(&path).to_string();
            let (stem, ext) = base.rsplit_once('.').unwrap_or((&base, "blp"));
            let ext = ext.to_ascii_lowercase();
            // Classic textures the corpus lacks: white for both (the two renderers fill a
            // hole differently: ours by the layer's role, mdx-m3-viewer its own way).
            let rgba = if hd {
                STAND_INS[role.get(&i).copied().unwrap_or(4)]
            } else {
                [255, 255, 255, 255]
            };
            let image = RgbaImage {
                width: 8,
                height: 8,
                pixels: rgba.repeat(64),
            };
            let (name, bytes) = match ext.as_str() {
                "tga" => (
                    base.clone(),
                    mdlx::texture::write::tga_to_bytes(&image, false).unwrap(),
                ),
                "blp" => (
                    base.clone(),
                    mdlx::texture::blp1::to_bytes(&image, &mdlx::texture::BlpOptions::palette())
                        .unwrap(),
                ),
                _ => (
                    format!("{stem}.dds"),
                    mdlx::texture::write::dds_to_bytes_as(
                        &image,
                        mdlx::texture::write::DdsOutput::Bc3,
                        false,
                    ),
                ),
            };
            if !dir.join(&name).exists() {
                std::fs::write(dir.join(&name), bytes).unwrap();
                written += 1;
            }
        }
    }
    written
}

fn m3v_jobs_sized(
    cases: &[Case],
    dir: &Path,
    textures: &[PathBuf],
    bg: [u8; 4],
    tag: &str,
    size: u32,
) -> PathBuf {
    let jobs: Vec<serde_json::Value> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            serde_json::json!({
                "model": c.file.canonicalize().unwrap_or(c.file.clone()),
                "out": dir.join(format!("{i}-m3v-{tag}.png")),
                "textures": textures,
                "camera": {"eye": c.camera.eye, "target": c.camera.target, "up": c.camera.up,
                           "fov_y": c.camera.fov_y, "near": c.camera.near, "far": c.camera.far},
                "sequence": c.sequence,
                "time_ms": c.time,
                "team_color": 0,
            })
        })
        .collect();
    let path = dir.join(format!("jobs-{tag}.json"));
    let doc = serde_json::json!({"width": size, "height": size, "background": bg, "jobs": jobs});
    std::fs::write(&path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    path
}

fn read_png(path: &Path) -> Option<RgbaImage> {
    mdlx::texture::png::from_bytes(&std::fs::read(path).ok()?).ok()
}

/// Coverage 0..1 per pixel from the pictures over black and over white.
fn coverage(black: &RgbaImage, white: &RgbaImage) -> Vec<f64> {
    black
        .pixels
        .chunks_exact(4)
        .zip(white.pixels.chunks_exact(4))
        .map(|(b, w)| {
            let d: f64 = (0..3)
                .map(|k| f64::from(w[k]) - f64::from(b[k]))
                .sum::<f64>()
                / 765.0;
            (1.0 - d).clamp(0.0, 1.0)
        })
        .collect()
}

struct Score {
    overlap: f64,
    colour: f64,
    ours: usize,
    theirs: usize,
}

/// Coverage averaged over `BLOCK` x `BLOCK` blocks: particles are random, and two
/// simulations (with different random numbers) put them in different places within the same
/// cloud, so models with particles or ribbons are compared at this coarser grain.
const BLOCK: usize = 8;

fn coarse(c: &[f64], size: usize) -> Vec<f64> {
    let n = size / BLOCK;
    let mut out = vec![0.0; n * n];
    for y in 0..n * BLOCK {
        for x in 0..n * BLOCK {
            out[(y / BLOCK) * n + x / BLOCK] += c[y * size + x] / (BLOCK * BLOCK) as f64;
        }
    }
    // A block counts as covered when a quarter of it is (0.5 after the scaling below).
    out.iter().map(|v| v * 2.0).collect()
}

fn score(ours: [&RgbaImage; 2], theirs: [&RgbaImage; 2], effects: bool) -> Score {
    let colour = score_at(ours, theirs, None);
    if !effects {
        return colour;
    }
    let size = ours[0].width as usize;
    let coarse_score = score_at(ours, theirs, Some(size));
    Score {
        overlap: coarse_score.overlap,
        ..colour
    }
}

fn score_at(ours: [&RgbaImage; 2], theirs: [&RgbaImage; 2], coarse_size: Option<usize>) -> Score {
    let mut a = coverage(ours[0], ours[1]);
    let mut b = coverage(theirs[0], theirs[1]);
    if let Some(size) = coarse_size {
        let (ca, cb) = (coarse(&a, size), coarse(&b, size));
        let s = |m: &[f64]| m.iter().filter(|&&c| c >= 0.5).count();
        let (inter, union) = ca.iter().zip(&cb).fold((0, 0), |(i, u), (x, y)| {
            let (x, y) = (*x >= 0.5, *y >= 0.5);
            (i + usize::from(x && y), u + usize::from(x || y))
        });
        a.clear();
        b.clear();
        return Score {
            overlap: if union == 0 {
                1.0
            } else {
                inter as f64 / union as f64
            },
            colour: 0.0,
            ours: s(&ca),
            theirs: s(&cb),
        };
    }
    let (mut inter, mut union, mut diff, mut n) = (0usize, 0usize, 0.0f64, 0usize);
    for i in 0..a.len() {
        let (x, y) = (a[i] >= 0.5, b[i] >= 0.5);
        inter += usize::from(x && y);
        union += usize::from(x || y);
        if x && y {
            n += 1;
            diff += (0..3)
                .map(|k| {
                    (f64::from(ours[0].pixels[i * 4 + k]) - f64::from(theirs[0].pixels[i * 4 + k]))
                        .abs()
                })
                .sum::<f64>()
                / 3.0;
        }
    }
    Score {
        overlap: if union == 0 {
            1.0
        } else {
            inter as f64 / union as f64
        },
        colour: if n == 0 { 0.0 } else { diff / n as f64 },
        ours: a.iter().filter(|&&c| c >= 0.5).count(),
        theirs: b.iter().filter(|&&c| c >= 0.5).count(),
    }
}

fn side_by_side(ours: &RgbaImage, theirs: &RgbaImage) -> RgbaImage {
    let (w, h) = (ours.width as usize, ours.height as usize);
    let mut pixels = Vec::with_capacity(w * h * 8);
    for y in 0..h {
        pixels.extend_from_slice(&ours.pixels[y * w * 4..(y + 1) * w * 4]);
        pixels.extend_from_slice(&theirs.pixels[y * w * 4..(y + 1) * w * 4]);
    }
    RgbaImage {
        width: (w * 2) as u32,
        height: h as u32,
        pixels,
    }
}

#[allow(
    clippy::too_many_lines,
    reason = "test code: the shape gate holds the sources only"
)]
#[test]
fn pictures_agree_with_mdx_m3_viewer() {
    let Some(judge) = std::env::var_os("MDLX_M3V_RENDER") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "MDLX_M3V_RENDER is not set (scripts/m3v-render.sh installs mdx-m3-viewer)"
        );
        eprintln!("render_vs_m3v: MDLX_M3V_RENDER not set; skipped");
        return;
    };
    let Some((files, textures)) = corpus() else {
        return;
    };
    let cases = choose(&files);
    // The shared corpus must give the 100 the issue asks for; a folder given instead (models
    // from elsewhere) is compared whatever its size.
    let own_folder = std::env::var_os("MDLX_RENDER_CORPUS").is_some_and(|v| !v.is_empty());
    assert!(
        own_folder || cases.len() >= 100,
        "{} models chosen",
        cases.len()
    );
    let dir = std::env::temp_dir().join(format!("mdlx-render-vs-m3v-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stand_in_dir = dir.join("hd-stand-ins");
    let stand_ins = hd_stand_ins(&cases, &textures, &stand_in_dir);
    let textures = vec![textures, stand_in_dir];
    let cache = TextureCache::with_max_side(textures.clone(), 2048);
    let started = std::time::Instant::now();
    let ours: Vec<[RgbaImage; 2]> = cases
        .iter()
        .map(|c| {
            let scene = Scene::new(&c.model, &cache);
            let at = AnimTime::new(c.sequence, c.time);
            [[0, 0, 0, 255], [255, 255, 255, 255]].map(|bg| {
                let mut o = RenderOptions::new(SIZE, SIZE, c.camera);
                o.background = bg;
                scene.render(at, &o)
            })
        })
        .collect();
    let ours_s = started.elapsed().as_secs_f64();
    let started = std::time::Instant::now();
    for (bg, tag) in [([0, 0, 0, 255], "black"), ([255, 255, 255, 255], "white")] {
        let jobs = m3v_jobs(&cases, &dir, &textures, bg, tag);
        let status = Command::new(&judge)
            .arg(&jobs)
            .status()
            .expect("the judge runs");
        assert!(status.success(), "mdx-m3-viewer's batch failed: {status}");
    }
    let theirs_s = started.elapsed().as_secs_f64();
    let docs = std::env::var_os("MDLX_RENDER_DOCS").map(PathBuf::from);
    // With MDLX_RENDER_PICK=a,b: the side-by-side pictures of the models whose names hold
    // any of these, instead of the first ten.
    let pick = std::env::var("MDLX_RENDER_PICK").ok();
    let (mut rows, mut skipped) = (Vec::new(), Vec::new());
    for (i, c) in cases.iter().enumerate() {
        let t = [
            read_png(&dir.join(format!("{i}-m3v-black.png"))),
            read_png(&dir.join(format!("{i}-m3v-white.png"))),
        ];
        let [Some(tb), Some(tw)] = t else {
            skipped.push(common::name(&c.file));
            continue;
        };
        let effects = c
            .features
            .iter()
            .any(|f| matches!(*f, "particles" | "ribbons"));
        let s = score([&ours[i][0], &ours[i][1]], [&tb, &tw], effects);
        if let Some(d) = &docs {
            let name = common::name(&c.file);
            let picked = match &pick {
                Some(p) => p.split(',').any(|x| name.contains(x)),
                None => rows.len() < 10,
            };
            if picked {
                std::fs::create_dir_all(d).unwrap();
                let png = mdlx::texture::png::to_bytes(&side_by_side(&ours[i][0], &tb));
                let stem = name.rsplit_once('.').map_or(&name[..], |(s, _)| s);
                std::fs::write(d.join(format!("{stem}.png")), png).unwrap();
            }
        }
        rows.push((c, s));
    }
    println!(
        "render_vs_m3v: {} models, {SIZE}x{SIZE}, over black and white",
        rows.len()
    );
    println!("  ours {ours_s:.1} s (both backgrounds, one thread); mdx-m3-viewer {theirs_s:.1} s (both, headless Chromium)");
    println!("  {stand_ins} textures that the corpus lacks were given to both as one-colour stand-ins (see hd_stand_ins)");
    println!(
        "  mdx-m3-viewer could not draw {}: {}",
        skipped.len(),
        skipped.join(", ")
    );
    println!(
        "  {:<60} {:>7} {:>7} {:>8} {:>8}  features",
        "model", "overlap", "colour", "ours px", "m3v px"
    );
    let mut pass = 0;
    let mut by_feature: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (c, s) in &rows {
        let ok = s.overlap >= SILHOUETTE && s.colour <= COLOUR;
        pass += usize::from(ok);
        for f in &c.features {
            let e = by_feature.entry(f).or_default();
            e.0 += usize::from(ok);
            e.1 += 1;
        }
        let name = common::name(&c.file);
        let name = if name.len() > 60 {
            &name[name.len() - 60..]
        } else {
            &name[..]
        };
        println!(
            "  {name:<60} {:>7.3} {:>7.1} {:>8} {:>8}  {}{}",
            s.overlap,
            s.colour,
            s.ours,
            s.theirs,
            c.features.join(", "),
            if ok { "" } else { "  << outside" }
        );
    }
    println!("  by feature (within / drawn):");
    for (f, (p, n)) in &by_feature {
        println!("    {f:<18} {p}/{n}");
    }
    let mut worst: Vec<_> = rows.iter().collect();
    worst.sort_by(|a, b| a.1.overlap.total_cmp(&b.1.overlap));
    println!(
        "  worst overlaps: {}",
        worst
            .iter()
            .take(5)
            .map(|(c, s)| format!("{} {:.3}", common::name(&c.file), s.overlap))
            .collect::<Vec<_>>()
            .join("; ")
    );
    let share = pass as f64 / rows.len().max(1) as f64;
    println!(
        "  within overlap >= {SILHOUETTE} and colour <= {COLOUR}: {pass}/{} ({:.0}%)",
        rows.len(),
        share * 100.0
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        own_folder || rows.len() >= 100,
        "only {} models drawn by both",
        rows.len()
    );
    assert!(
        share >= MUST_PASS,
        "only {:.0}% of the models agree",
        share * 100.0
    );
}

/// Thumbnails of every corpus MDX by both renderers, timed in one run (run by
/// scripts/render-vs-m3v-speed.sh with `MDLX_RENDER_SPEED=1`, in a release build; skipped
/// otherwise): ours on two threads (the machine's two cores, as `mdlx render DIR OUT`
/// uses them), mdx-m3-viewer's in one headless Chromium. Both must draw nearly all of them.
#[test]
fn thumbnails_of_the_corpus_beside_mdx_m3_viewer() {
    if std::env::var_os("MDLX_RENDER_SPEED").is_none() {
        return;
    }
    let judge = std::env::var_os("MDLX_M3V_RENDER").expect("MDLX_M3V_RENDER");
    let (files, textures) = corpus().expect("the corpus");
    let size: u32 = 256;
    let cases = all(&files);
    let dir = std::env::temp_dir().join(format!("mdlx-render-speed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let started = std::time::Instant::now();
    let cache = TextureCache::with_max_side(vec![textures.clone()], 2048);
    let half = cases.len().div_ceil(2);
    let drawn: usize = std::thread::scope(|s| {
        let parts: Vec<_> = cases
            .chunks(half.max(1))
            .map(|part| {
                let cache = &cache;
                s.spawn(move || {
                    part.iter()
                        .map(|c| {
                            let scene = Scene::new(&c.model, cache);
                            let o = RenderOptions::new(size, size, c.camera);
                            let p = scene.render(AnimTime::new(c.sequence, c.time), &o);
                            let png = mdlx::render::output::encode::png(&p);
                            usize::from(!png.is_empty())
                        })
                        .sum::<usize>()
                })
            })
            .collect();
        parts.into_iter().map(|h| h.join().unwrap()).sum()
    });
    let ours = started.elapsed().as_secs_f64();
    let jobs = m3v_jobs_sized(
        &cases,
        &dir,
        std::slice::from_ref(&textures),
        [0, 0, 0, 0],
        "speed",
        size,
    );
    let started = std::time::Instant::now();
    let status = Command::new(&judge)
        .arg(&jobs)
        .status()
        .expect("the judge runs");
    let theirs = started.elapsed().as_secs_f64();
    assert!(status.success());
    let result: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("jobs-speed.result.json")).unwrap())
            .unwrap();
    let theirs_ok = result["jobs"]
        .as_array()
        .map_or(0, |j| j.iter().filter(|x| x["ok"] == true).count());
    println!(
        "render speed: {} corpus MDX at {size}x{size} (textures found, PNG encoded): mdlx {ours:.1} s on 2 threads ({drawn} drawn); mdx-m3-viewer {theirs:.1} s in headless Chromium, start included ({theirs_ok} drawn); ratio {:.1}x",
        cases.len(),
        theirs / ours
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(drawn * 10 >= cases.len() * 9 && theirs_ok * 10 >= cases.len() * 8);
}
