//! glTF import on any bytes: loading and importing (at versions 800 and 1000) never
//! panic, hang or allocate without bound; what imports writes as MDX and MDL, and reads
//! back.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(source) = mdlx::convert::gltf::Source::from_bytes(data, None) else {
        return;
    };
    for version in [800, 1000] {
        let options = mdlx::convert::gltf::ImportOptions {
            version,
            ..Default::default()
        };
        match mdlx::convert::gltf::import(&source, &options) {
            Ok(out) => {
                for l in &out.losses {
                    let _ = l.to_string();
                }
                let mdx = mdlx::mdx::to_bytes(&out.model).expect("an imported model writes");
                mdlx::mdx::from_bytes(&mdx).expect("an imported model reads back");
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
