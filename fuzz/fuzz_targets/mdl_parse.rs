//! MDL parse never panics, hangs or recurses without bound, whatever the text.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = mdlx::mdl::from_bytes(data) {
        let _ = e.render(data, "fuzz.mdl");
    }
});
