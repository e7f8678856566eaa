//! glTF export of whatever `mdlx::read` makes of any bytes: it never panics or hangs, the
//! GLB container is whole (its length field is its length, its JSON chunk parses), and
//! every accessor lies inside the buffer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(loaded) = mdlx::read(data, &mdlx::ReadOptions::default()) else {
        return;
    };
    let out = mdlx::convert::gltf::export(&loaded.model, &mdlx::convert::gltf::ExportOptions::default());
    let glb = out.to_glb();
    assert_eq!(&glb[..4], b"glTF");
    let total = u32::from_le_bytes([glb[8], glb[9], glb[10], glb[11]]) as usize;
    assert_eq!(total, glb.len());
    let json_len = u32::from_le_bytes([glb[12], glb[13], glb[14], glb[15]]) as usize;
    let doc: serde_json::Value =
        serde_json::from_slice(&glb[20..20 + json_len]).expect("the JSON chunk parses");
    let views = doc["bufferViews"].as_array().cloned().unwrap_or_default();
    for v in &views {
        let end = v["byteOffset"].as_u64().unwrap_or(0) + v["byteLength"].as_u64().unwrap();
        assert!(end as usize <= out.bin.len(), "a buffer view past the buffer");
    }
});
