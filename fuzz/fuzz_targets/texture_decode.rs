//! Texture reading never panics, hangs or allocates past what the file can hold: every
//! level a header lists is decoded, whatever the bytes; PNG too.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(t) = mdlx::texture::Texture::from_bytes(data) {
        for n in 0..t.mip_count() {
            if let Ok(image) = t.decode_level(n) {
                assert_eq!(
                    image.pixels.len() as u64,
                    u64::from(image.width) * u64::from(image.height) * 4
                );
            }
        }
    }
    let _ = mdlx::texture::png::from_bytes(data);
});
