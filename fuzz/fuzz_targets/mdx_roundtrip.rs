//! Whatever MDX decodes must encode back to the same bytes (the codec keeps everything),
//! and decode again to the same model.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(model) = mdlx::mdx::from_bytes(data) {
        let out = mdlx::mdx::to_bytes(&model).expect("a decoded model encodes");
        assert_eq!(out, data, "decode -> encode changed the bytes");
        let again = mdlx::mdx::from_bytes(&out).expect("the output decodes");
        assert_eq!(mdlx::mdx::to_bytes(&again).unwrap(), out);
    }
});
