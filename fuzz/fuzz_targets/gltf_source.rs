//! `gltf::Source` on any bytes: loading never panics, hangs or allocates without bound, and
//! every accessor (as floats and as integers) and every image it names reads or fails with
//! an error that renders; what reads has the length its accessor says.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let source = match mdlx::convert::gltf::Source::from_bytes(data, None) {
        Ok(s) => s,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    for i in 0..source.root.accessors.len() {
        let count = source.root.accessors[i].count.0 as usize;
        match source.read_f32(i, "fuzz") {
            Ok((values, n)) => assert_eq!(values.len(), count * n),
            Err(e) => {
                let _ = e.to_string();
            }
        }
        if let Ok((values, n)) = source.read_u32(i, "") {
            assert_eq!(values.len(), count * n);
        }
    }
    for i in 0..source.root.images.len() {
        if let Err(e) = source.image(i) {
            let _ = e.to_string();
        }
    }
});
