//! Whatever MDX decodes must survive MDX -> MDL -> MDX byte for byte.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(model) = mdlx::mdx::from_bytes(data) {
        let text = mdlx::mdl::to_bytes(&model);
        let back = match mdlx::mdl::from_bytes(&text) {
            Ok(m) => m,
            Err(e) => panic!("written MDL does not read back: {}", e.render(&text, "written.mdl")),
        };
        assert_eq!(mdlx::mdx::to_bytes(&back).unwrap(), data, "MDX -> MDL -> MDX changed the bytes");
    }
});
