//! Hostile texture inputs: sizes and offsets past the end, huge headers on tiny files,
//! cut JPEG data, palettes cut short, zero sizes. Each must give a clear error with its
//! offset, never a panic, and never a large allocation (a counting allocator checks the
//! largest single allocation).
// A global allocator is written with unsafe code; nothing else here is.
#![allow(unsafe_code)]

use mdlx::texture::{self, Texture, TextureError, TextureErrorKind as K};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static LARGEST: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
        LARGEST.fetch_max(new, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// No allocation in these tests may exceed this (the inputs are a few KB at most; the
/// test harness's own buffers stay far below it).
const LIMIT: usize = 16 << 20;

/// Reads and decodes level 0, returning the error; fails if it succeeds.
fn refuse(data: &[u8]) -> TextureError {
    let r = Texture::from_bytes(data).and_then(|t| t.decode_level(0));
    assert!(
        LARGEST.load(Ordering::Relaxed) < LIMIT,
        "an allocation over {LIMIT} bytes"
    );
    let err = r.expect_err("expected an error");
    println!("{err}");
    err
}

fn blp1(compression: u32, alpha: u32, w: u32, h: u32, mips: &[(u32, u32)]) -> Vec<u8> {
    let mut d = b"BLP1".to_vec();
    for v in [compression, alpha, w, h, 4, u32::from(mips.len() > 1)] {
        d.extend(v.to_le_bytes());
    }
    let mut offsets = [0u32; 16];
    let mut sizes = [0u32; 16];
    for (i, &(o, s)) in mips.iter().enumerate() {
        offsets[i] = o;
        sizes[i] = s;
    }
    offsets
        .iter()
        .chain(&sizes)
        .for_each(|v| d.extend(v.to_le_bytes()));
    d
}

fn dds(fourcc: &[u8; 4], w: u32, h: u32, mips: u32) -> Vec<u8> {
    let mut d = b"DDS ".to_vec();
    for v in [124u32, 0x000a_1007, h, w, 0, 0, mips] {
        d.extend(v.to_le_bytes());
    }
    d.resize(76, 0);
    d.extend(32u32.to_le_bytes());
    d.extend(4u32.to_le_bytes());
    d.extend(fourcc);
    d.resize(128, 0);
    d
}

#[test]
fn huge_headers_on_tiny_files_are_refused_before_allocating() {
    // Palette: 65535x65535 needs 4 GiB of indices; the mip lists 0x100 bytes.
    let mut d = blp1(1, 8, 65535, 65535, &[(1180, 0x100)]);
    d.resize(1180 + 0x100, 7);
    let e = refuse(&d);
    assert!(
        matches!(e.kind, K::TooShort { .. }) && e.offset == 1180,
        "{e:?}"
    );
    // The same with a mip size that claims the whole 4 GiB: past the end of the file.
    let mut d = blp1(1, 8, 65535, 65535, &[(1180, u32::MAX)]);
    d.resize(1180 + 0x100, 7);
    let e = refuse(&d);
    assert!(matches!(e.kind, K::PastEnd { .. }), "{e:?}");
    assert!(e.to_string().starts_with("mip 0 at 0x49c"), "{e}");
    // JPEG whose SOF says 65535x65535 in a stream of a few bytes.
    let jpeg = [
        0xff, 0xd8, 0xff, 0xc0, 0, 17, 8, 0xff, 0xff, 0xff, 0xff, 4, 1, 0x11, 0, 2, 0x11, 0, 3,
        0x11, 0, 4, 0x11, 0,
    ];
    let mut d = blp1(0, 8, 65535, 65535, &[(160, jpeg.len() as u32)]);
    d.extend(0u32.to_le_bytes());
    d.extend(jpeg);
    let e = refuse(&d);
    assert!(
        matches!(e.kind, K::TooLarge { .. }) && e.offset == 160,
        "{e:?}"
    );
    // DXT1 65535x65535 with one block of data.
    let mut d = dds(b"DXT1", 65535, 65535, 1);
    d.extend([0u8; 8]);
    let e = refuse(&d);
    assert!(
        matches!(e.kind, K::PastEnd { .. }) && e.offset == 128,
        "{e:?}"
    );
    // RLE TGA 65535x65535 with 10 bytes of data.
    let mut d = vec![
        0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 32, 8,
    ];
    d.extend([0xff, 1, 2, 3, 4, 0xff, 1, 2, 3, 4]);
    let e = refuse(&d);
    assert!(
        matches!(e.kind, K::TooLarge { .. }) && e.offset == 18,
        "{e:?}"
    );
    // Raw TGA 65535x65535 with 4 bytes of pixels.
    d[2] = 2;
    let e = refuse(&d);
    assert!(
        matches!(e.kind, K::PastEnd { .. }) && e.offset == 18,
        "{e:?}"
    );
}

#[test]
fn mip_offsets_past_the_end_name_the_level_and_offset() {
    // 2x2 palette, level 0 intact, level 1 at 0x2000 in a file of 1184 bytes.
    let mut d = blp1(1, 0, 2, 2, &[(1180, 4), (0x2000, 1)]);
    d.resize(1184, 0);
    let t = Texture::from_bytes(&d).unwrap();
    assert_eq!(t.mip_count(), 2);
    assert!(t.decode_level(0).is_ok());
    let e = t.decode_level(1).unwrap_err();
    assert_eq!(e.offset, 0x2000);
    assert_eq!(
        e.to_string(),
        "mip 1 at 0x2000 (0x1 bytes) runs 0x1b61 bytes past the end of the file (0x4a0 bytes)"
    );
    let e = t.decode_level(5).unwrap_err();
    assert!(
        matches!(e.kind, K::NoSuchLevel { level: 5, count: 2 }),
        "{e:?}"
    );
    // DDS with more mip levels listed than its data holds.
    let mut d = dds(b"DXT5", 8, 8, 4);
    d.extend([0u8; 4 * 16 + 16]);
    let t = Texture::from_bytes(&d).unwrap();
    assert!(t.decode_level(0).is_ok() && t.decode_level(1).is_ok());
    let e = t.decode_level(2).unwrap_err();
    assert!(
        matches!(e.kind, K::PastEnd { .. }) && e.offset == 128 + 80,
        "{e:?}"
    );
}

#[test]
fn cut_headers_zero_sizes_and_other_files_are_refused() {
    for cut in [0, 3, 4, 20, 155] {
        let d = blp1(1, 0, 2, 2, &[(1180, 4)]);
        let e = refuse(&d[..cut.min(d.len())]);
        println!("  cut at {cut}: {:?}", e.kind);
    }
    let e = refuse(&blp1(1, 0, 2, 2, &[(1180, 4)])[..100]);
    assert!(e.to_string().contains("BLP1 header"), "{e}");
    let e = refuse(&dds(b"DXT1", 4, 4, 1)[..127]);
    assert!(e.to_string().contains("DDS header"), "{e}");
    let e = refuse(&blp1(0, 0, 0, 16, &[(160, 4)]));
    assert!(
        matches!(
            e.kind,
            K::ZeroSize {
                width: 0,
                height: 16
            }
        ) && e.offset == 12,
        "{e:?}"
    );
    let e = refuse(&dds(b"DXT1", 4, 0, 1));
    assert!(matches!(e.kind, K::ZeroSize { .. }), "{e:?}");
    let e = refuse(&dds(b"XYZW", 4, 4, 1));
    assert_eq!(
        e.to_string(),
        "unsupported DDS FourCC `XYZW` 1465538904 (at offset 0x54)"
    );
    let e = refuse(b"MDLXVERS\x04\0\0\0\x20\x03\0\0");
    assert!(e.to_string().contains("an MDX model"), "{e}");
    let e = refuse(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    assert!(e.to_string().contains("a PNG image"), "{e}");
    let e = refuse(b"BLP0\0\0\0\0");
    assert!(matches!(e.kind, K::Unsupported { .. }), "{e:?}");
}

#[test]
fn palettes_cut_short_and_bad_alpha() {
    // Compact palette: the level starts at 156 + 8 (two palette entries); index 1 is
    // inside the file, index 200 is not.
    let mut d = blp1(1, 0, 2, 1, &[(164, 2)]);
    d.extend([0x10, 0x20, 0x30, 0, 0x40, 0x50, 0x60, 0]);
    d.extend([1, 1]);
    let img = texture::decode(&d).unwrap();
    assert_eq!(img.pixels, [0x60, 0x50, 0x40, 255, 0x60, 0x50, 0x40, 255]);
    let n = d.len();
    d[n - 1] = 200;
    let e = refuse(&d);
    assert!(
        matches!(e.kind, K::PaletteIndex { index: 200, .. }) && e.offset == 165,
        "{e:?}"
    );
    // 8-bit alpha plane missing.
    let mut d = blp1(1, 8, 2, 2, &[(1180, 5)]);
    d.resize(1185, 0);
    let e = refuse(&d);
    assert!(
        matches!(
            e.kind,
            K::TooShort {
                need: 8,
                have: 5,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(refuse(&blp1(1, 3, 2, 2, &[(1180, 5)]))
        .to_string()
        .contains("alpha bits"));
}

#[test]
fn cut_jpeg_data() {
    // A BLP1 JPEG whose header and data are garbage or cut: errors, no panic.
    let mut d = blp1(0, 8, 16, 16, &[(166, 30)]);
    d.extend(6u32.to_le_bytes());
    d.extend([0xff, 0xd8, 0xff, 0xdb, 0x00, 0x43]);
    d.extend([0u8; 30]);
    let e = refuse(&d);
    assert!(matches!(e.kind, K::Jpeg { .. }) && e.offset == 166, "{e:?}");
    // JPEG header size past the end.
    let mut d = blp1(0, 8, 16, 16, &[(170, 4)]);
    d.extend(0x1000u32.to_le_bytes());
    d.resize(200, 0);
    let e = refuse(&d);
    assert!(
        e.to_string()
            .starts_with("JPEG header at 0xa0 (0x1000 bytes) runs"),
        "{e}"
    );
}

/// Prefixes of the smallest real file of each kind (every prefix up to 2 KB, then 64 more
/// spread over the rest): an error or an image, never a panic or a large allocation. Uses
/// the shared corpus when it is there.
#[test]
fn prefixes_of_the_smallest_corpus_file_of_each_kind() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/textures");
    let Ok(text) = std::fs::read_to_string(dir.join("MANIFEST.tsv")) else {
        eprintln!("hostile_textures: no corpus; prefix test skipped");
        return;
    };
    let mut smallest: std::collections::BTreeMap<&str, (u64, &str)> = Default::default();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let len = std::fs::metadata(dir.join(f[0])).unwrap().len();
        let e = smallest.entry(f[5]).or_insert((len, f[0]));
        if len < e.0 {
            *e = (len, f[0]);
        }
    }
    for (kind, (len, name)) in &smallest {
        let data = std::fs::read(dir.join(name)).unwrap();
        let step = (data.len().saturating_sub(2048) / 64).max(1);
        let cuts = (0..data.len().min(2048)).chain((2048..data.len()).step_by(step));
        let mut ok = 0;
        for cut in cuts {
            if let Ok(t) = Texture::from_bytes(&data[..cut]) {
                for n in 0..t.mip_count() {
                    ok += usize::from(t.decode_level(n).is_ok());
                }
            }
            assert!(LARGEST.load(Ordering::Relaxed) < LIMIT);
        }
        println!("{name} ({len} bytes, {kind}): {ok} levels decoded from prefixes");
    }
    assert!(smallest.len() >= 10, "only {} kinds", smallest.len());
}

#[test]
fn png_garbage_and_huge_sizes() {
    assert!(texture::png::from_bytes(b"not a png").is_err());
    // A valid PNG header claiming 65535x65535 RGBA with no data.
    let img = texture::RgbaImage {
        width: 1,
        height: 1,
        pixels: vec![1, 2, 3, 4],
    };
    let mut png = texture::png::to_bytes(&img);
    png[16..20].copy_from_slice(&65535u32.to_be_bytes());
    png[20..24].copy_from_slice(&65535u32.to_be_bytes());
    let crc = crc(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    assert!(texture::png::from_bytes(&png).is_err());
    assert!(LARGEST.load(Ordering::Relaxed) < LIMIT);
}

fn crc(data: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in data {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}
