//! Whatever the WoW alpha codec decodes must encode back to the same bytes, and its
//! conversion to the Warcraft III model must encode as MDX and decode again.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(alpha) = mdlx::alpha::from_bytes(data) {
        let out = mdlx::alpha::to_bytes(&alpha).expect("a decoded alpha model encodes");
        assert_eq!(out, data, "decode -> encode changed the bytes");
        let (model, _) = alpha.to_model();
        if let Ok(bytes) = mdlx::mdx::to_bytes(&model) {
            mdlx::mdx::from_bytes(&bytes).expect("the converted model decodes");
        }
    }
});
