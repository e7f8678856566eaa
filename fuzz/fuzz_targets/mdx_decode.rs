//! MDX decode never panics, hangs or over-allocates, whatever the bytes.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = mdlx::mdx::from_bytes(data);
});
