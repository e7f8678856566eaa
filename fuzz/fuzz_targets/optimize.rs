//! `mdlx optimize` on any bytes that read as MDX: the optimizer either refuses with an
//! error or gives a model whose measured deviation is within the tolerance, that writes as
//! MDX, reads back to the same bytes, and gives the same bytes when optimized again.
#![no_main]
use mdlx::optimize::{optimize, Options};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(model) = mdlx::mdx::from_bytes(data) else {
        return;
    };
    let options = Options::default();
    let Ok(done) = optimize(&model, &options) else {
        return;
    };
    if let Some(why) = done.report.deviation.exceeds(&options.tolerance) {
        panic!("the result breaks the bound: {why}");
    }
    let bytes = mdlx::mdx::to_bytes(&done.model).expect("the result writes as MDX");
    let back = mdlx::mdx::from_bytes(&bytes).expect("the result's MDX reads back");
    assert_eq!(
        mdlx::mdx::to_bytes(&back).ok().as_ref(),
        Some(&bytes),
        "the result's MDX does not write back the same"
    );
    let again = optimize(&back, &options).expect("the result optimizes");
    assert_eq!(
        mdlx::mdx::to_bytes(&again.model).ok(),
        Some(bytes),
        "optimizing twice changes the model again"
    );
});
