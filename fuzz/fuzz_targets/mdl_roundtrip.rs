//! MDL that reads must write, read back to the same model, and write the same text again.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(model) = mdlx::mdl::from_bytes(data) {
        let Ok(mdx) = mdlx::mdx::to_bytes(&model) else { return };
        let t1 = mdlx::mdl::to_bytes(&model);
        let m2 = match mdlx::mdl::from_bytes(&t1) {
            Ok(m) => m,
            Err(e) => panic!("written MDL does not read back: {}", e.render(&t1, "written.mdl")),
        };
        assert_eq!(mdlx::mdx::to_bytes(&m2).unwrap(), mdx, "parse -> write -> parse changed the model");
        assert_eq!(mdlx::mdl::to_bytes(&m2), t1, "writing twice gave different text");
    }
});
