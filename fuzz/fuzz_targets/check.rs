//! `mdlx check` on any bytes: whatever `mdlx::read` takes is checked without a panic, its
//! findings located in the bytes (the MDX walker and the MDL block finder on anything),
//! and `--fix` either refuses with a reason or gives a model that poses as the original
//! (the fixer checks that itself), writes as MDX and reads back to the same bytes, and
//! checks without a panic.
#![no_main]
use mdlx::check::{check, fix, SourceMap};
use mdlx::{ReadOptions, Source};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    // The source maps take any bytes.
    let _ = SourceMap::mdx(data);
    let _ = SourceMap::mdl(data);
    let Ok(loaded) = mdlx::read(data, &ReadOptions::default()) else {
        return;
    };
    let mut findings = check(&loaded.model);
    let map = match loaded.source {
        Source::Mdx { .. } => Some(SourceMap::mdx(data)),
        Source::Mdl { .. } => Some(SourceMap::mdl(data)),
        _ => None,
    };
    if let Some(map) = map {
        map.locate(&mut findings);
    }
    for f in &findings {
        let _ = f.to_string();
    }
    let Ok(fixed) = fix::fix(&loaded.model, &fix::FixOptions::default()) else {
        return;
    };
    let _ = check(&fixed.model);
    if let Ok(bytes) = mdlx::mdx::to_bytes(&fixed.model) {
        let back = mdlx::mdx::from_bytes(&bytes).expect("the fixed model's MDX reads back");
        assert_eq!(
            mdlx::mdx::to_bytes(&back).ok(),
            Some(bytes),
            "the fixed model's MDX does not write back the same"
        );
    }
});
