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
