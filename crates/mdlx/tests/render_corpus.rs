//! Every corpus MDX drawn (`mdlx::render`), as a library thumbnail run would: no panic, a
//! picture of the size asked, and a count of the pictures that show something. The models
//! that read but draw nothing are listed with why (nothing visible at the moment drawn, or
//! only textures and effects the corpus does not hold would show).

mod common;

use mdlx::anim::AnimTime;
use mdlx::render::{Camera, RenderOptions, Scene, TextureCache};

#[test]
fn every_corpus_model_draws() {
    let files = common::corpus_mdx();
    let tex = common::texture_corpus("render_corpus");
    let links = tex.map(|t| common::texture_links(&files, &t, "render-corpus"));
    // Thumbnails: no texture level above 1024 pixels is ever read at 96x96, and all of
    // the corpus's textures stay in the cache.
    let cache = TextureCache::with_max_side(links.into_iter().collect(), 1024);
    let started = std::time::Instant::now();
    let (mut read, mut shown, mut blank) = (0usize, 0usize, Vec::new());
    for f in &files {
        let Ok(model) = mdlx::mdx::from_bytes(&std::fs::read(f).unwrap()) else {
            continue;
        };
        read += 1;
        let scene = Scene::new(&model, &cache);
        let stand = model
            .sequences
            .iter()
            .position(|s| s.name.text().to_ascii_lowercase().starts_with("stand"));
        // As `mdlx render` draws a thumbnail: half-way into Stand, at most a second in.
        let length = stand.map_or(0.0, |s| f64::from(model.sequences[s].length()));
        let at = AnimTime::new(stand, (length * 0.5).min(1000.0).floor());
        let extent = scene
            .sequence_bounds(stand, 4, 0)
            .unwrap_or(model.info.extent);
        let picture = scene.render(
            at,
            &RenderOptions::new(96, 96, Camera::default_framing(&extent, 1.0)),
        );
        assert_eq!((picture.width, picture.height), (96, 96));
        if picture.pixels.chunks_exact(4).any(|p| p[3] > 0) {
            shown += 1;
        } else {
            blank.push(common::name(f));
        }
    }
    let s = started.elapsed().as_secs_f64();
    println!(
        "render_corpus: {read} of {} MDX read and drawn at 96x96 (half-way into Stand, at most 1 s) in {s:.1} s (one thread); {shown} show something, {} nothing at that moment of Stand",
        files.len(),
        blank.len()
    );
    for b in &blank {
        println!("  blank: {b}");
    }
    assert!(read >= 500, "{read} corpus models read");
    // Effects that have not started at the first frame, models hidden at rest: a few; a
    // renderer that draws nothing fails here.
    assert!(
        shown * 10 >= read * 8,
        "only {shown} of {read} show anything"
    );
}

/// What one picture shows: pixels covered, the share of them near white (every channel at
/// 250 or more), and the standard deviation of their brightness (0 to 255).
fn coverage(p: &mdlx::texture::RgbaImage) -> (usize, f64, f64) {
    let covered: Vec<&[u8]> = p.pixels.chunks_exact(4).filter(|c| c[3] > 200).collect();
    if covered.is_empty() {
        return (0, 0.0, 0.0);
    }
    let white = covered
        .iter()
        .filter(|c| c[..3].iter().all(|&v| v >= 250))
        .count();
    let lum: Vec<f64> = covered
        .iter()
        .map(|c| 0.299 * f64::from(c[0]) + 0.587 * f64::from(c[1]) + 0.114 * f64::from(c[2]))
        .collect();
    let mean = lum.iter().sum::<f64>() / lum.len() as f64;
    let var = lum.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / lum.len() as f64;
    (
        covered.len(),
        white as f64 / covered.len() as f64,
        var.sqrt(),
    )
}

/// Every Reforged corpus model, as it is and converted for the classic client, drawn with
/// none of its textures (a folder that holds none): missing textures are drawn so that the
/// shape still reads. No picture is a white silhouette (under a tenth of the covered pixels
/// near white: the stand-ins are grey, team colour is red), and where the model as it is
/// shows shading (its brightness varies over the silhouette by a standard deviation of at
/// least 4 levels of 255), its classic conversion shows shading too. Drawn white, the
/// additive emissive layer the conversion adds painted converted heroes white.
#[test]
fn reforged_models_without_their_textures_still_show_their_shape() {
    let cache = TextureCache::new(vec![]);
    let (mut drawn, mut shaded, mut failures) = (0usize, 0usize, Vec::new());
    let mut worst_white = (0.0f64, String::new());
    for row in common::manifest() {
        if row.format != "mdx" || row.version < 900 || row.notes.contains("WoW alpha") {
            continue;
        }
        let path = common::corpus_dir().join(&row.local_path);
        let src = mdlx::mdx::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        let classic = mdlx::convert::classic::to_classic(&src, &Default::default())
            .unwrap()
            .model;
        let mut spread_hd = None;
        for (what, model) in [("HD", &src), ("classic", &classic)] {
            let name = format!("{} ({what})", common::name(&path));
            let scene = Scene::new(model, &cache);
            let stand = model
                .sequences
                .iter()
                .position(|s| s.name.text().to_ascii_lowercase().starts_with("stand"));
            let length = stand.map_or(0.0, |s| f64::from(model.sequences[s].length()));
            let at = AnimTime::new(stand, (length * 0.5).min(1000.0).floor());
            let Some(extent) = scene.sequence_bounds(stand, 4, 0) else {
                continue;
            };
            let mut o = RenderOptions::new(128, 128, Camera::default_framing(&extent, 1.0));
            o.effects = false;
            let (n, white, spread) = coverage(&scene.render(at, &o));
            if n < 200 {
                continue; // too little of it shows to judge
            }
            drawn += 1;
            shaded += usize::from(spread >= 4.0);
            if white > worst_white.0 {
                worst_white = (white, name.clone());
            }
            if white >= 0.1 {
                failures.push(format!(
                    "{name}: {:.0}% of {n} pixels near white",
                    white * 100.0
                ));
            }
            match spread_hd {
                None => spread_hd = Some(spread),
                Some(hd) if hd >= 4.0 && spread < 4.0 => failures.push(format!(
                    "{name}: brightness spread {spread:.1}, where the model as it is shows {hd:.1}"
                )),
                Some(_) => {}
            }
        }
    }
    println!(
        "Reforged models drawn without textures: {drawn} pictures, {shaded} of them shaded (spread of 4 levels or more; the others are flat cards, planes and loading screens); most near white {:.1}% ({})",
        worst_white.0 * 100.0,
        worst_white.1,
    );
    assert!(drawn >= 100, "pictures judged: {drawn}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
