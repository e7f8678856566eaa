//! Milkshape 3D ASCII: reading never panics or hangs, whatever the bytes; a document that
//! reads and can be written reads back equal, and writing it again gives the same bytes.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let doc = match mdlx::ms3d::from_bytes(data) {
        Ok(doc) => doc,
        Err(e) => {
            let _ = e.render("fuzz.txt");
            return;
        }
    };
    // Documents the text cannot hold (a name with `"` or a line break) are refused.
    let Ok(text) = mdlx::ms3d::to_bytes(&doc) else {
        return;
    };
    let back = match mdlx::ms3d::from_bytes(&text) {
        Ok(back) => back,
        Err(e) => panic!(
            "written Milkshape text does not read back: {}",
            e.render("written.txt")
        ),
    };
    assert_eq!(back, doc, "parse -> write -> parse changed the document");
    assert_eq!(
        mdlx::ms3d::to_bytes(&back).ok(),
        Some(text),
        "writing twice gave different bytes"
    );
});
