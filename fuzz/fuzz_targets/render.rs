//! `mdlx::render` on any model `mdlx::read` takes: a small picture at a moment the input
//! picks (sequence, time, camera angle, effects on), never a panic, a hang or an allocation
//! the picture's size does not bound; the picture is the size asked, and drawing it again
//! gives the same pixels.
#![no_main]
use mdlx::anim::AnimTime;
use mdlx::render::{Camera, RenderOptions, Scene, TextureCache};
use mdlx::ReadOptions;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(loaded) = mdlx::read(data, &ReadOptions::default()) else {
        return;
    };
    let model = &loaded.model;
    let pick = |k: usize| data.get(data.len().saturating_sub(k + 1)).copied().unwrap_or(0);
    let sequence = (!model.sequences.is_empty())
        .then(|| usize::from(pick(0)) % model.sequences.len());
    let time = f64::from(pick(1)) * 40.0;
    let cache = TextureCache::new(vec![]);
    let scene = Scene::new(model, &cache);
    let at = AnimTime::new(sequence, time);
    let extent = scene.bounds(at, 0).unwrap_or(model.info.extent);
    let yaw = f32::from(pick(2)) * 0.05;
    let camera = Camera::framing(&extent, yaw, 0.3, 0.8, 1.0);
    let options = RenderOptions::new(24, 24, camera);
    let a = scene.render(at, &options);
    assert_eq!(a.pixels.len(), 24 * 24 * 4);
    let b = scene.render(at, &options);
    assert_eq!(a, b, "the same moment draws the same pixels");
});
