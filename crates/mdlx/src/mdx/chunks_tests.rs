//! Tests of `mdx::chunks` (kept apart so that the module reads as code).

use super::count_chunks;

#[test]
fn the_capacity_walk_survives_sizes_that_overflow() {
    // MDLX, then a chunk claiming u32::MAX bytes, then nothing: one chunk, one unknown.
    let mut d = b"MDLXABCD".to_vec();
    d.extend_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(count_chunks(&d), (1, 1));
    // Two empty chunks, a known VERS and an unknown.
    let d = b"MDLXVERS\0\0\0\0ZZZZ\0\0\0\0".to_vec();
    assert_eq!(count_chunks(&d), (2, 1));
    assert_eq!(count_chunks(b"MDL"), (0, 0));
}
