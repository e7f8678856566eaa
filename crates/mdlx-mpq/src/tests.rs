//! Hostile archives, made here byte by byte: counts and offsets past the file, a hash table
//! with no empty slot, sizes that lie, a decoy header that points at itself, data that
//! expands a thousandfold. Each gives an error or a bounded result, never a panic or a hang.

use super::crypto::{self, HashKind};
use super::*;

/// One file of a hand-made archive: its name, its stored bytes, its size and flags.
struct Raw<'a> {
    name: &'a str,
    stored: Vec<u8>,
    size: u32,
    flags: u32,
}

/// A version 1 archive at offset 0: the header, the files' bytes, the hash table
/// (`hash_count` slots) and the block table; `tweak` may change the header's words.
fn build(files: &[Raw<'_>], hash_count: u32, tweak: impl FnOnce(&mut [u32; 8])) -> Vec<u8> {
    let mut body = vec![0u8; 32];
    let mut blocks = Vec::new();
    for f in files {
        blocks.push([body.len() as u32, f.stored.len() as u32, f.size, f.flags]);
        body.extend_from_slice(&f.stored);
    }
    let mut hash = vec![[u32::MAX; 4]; hash_count as usize];
    for (i, f) in files.iter().enumerate() {
        let mut slot = crypto::hash(f.name, HashKind::Offset) as usize % hash_count as usize;
        while hash[slot][3] != u32::MAX {
            slot = (slot + 1) % hash_count as usize;
        }
        hash[slot] = [
            crypto::hash(f.name, HashKind::NameA),
            crypto::hash(f.name, HashKind::NameB),
            0,
            i as u32,
        ];
    }
    let table = |rows: &[[u32; 4]], key: &str| {
        let mut b: Vec<u8> = rows
            .iter()
            .flatten()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        crypto::encrypt(&mut b, crypto::hash(key, HashKind::Key));
        b
    };
    let hash_pos = body.len() as u32;
    body.extend(table(&hash, "(hash table)"));
    let block_pos = body.len() as u32;
    body.extend(table(&blocks, "(block table)"));
    let mut words = [
        u32::from_le_bytes(*b"MPQ\x1a"),
        32,
        body.len() as u32,
        3 << 16, // format 0, sector shift 3
        hash_pos,
        block_pos,
        hash_count,
        blocks.len() as u32,
    ];
    tweak(&mut words);
    for (i, w) in words.iter().enumerate() {
        body[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    body
}

const EXISTS: u32 = 0x8000_0000;
const SINGLE: u32 = 0x0100_0000;
const COMPRESS: u32 = 0x0000_0200;

fn zlib_sector(data: &[u8]) -> Vec<u8> {
    compress::compress_zlib(data).expect("compressible")
}

#[test]
fn a_plain_archive_reads() {
    let files = [Raw {
        name: "a\\b.txt",
        stored: b"hello".to_vec(),
        size: 5,
        flags: EXISTS | SINGLE,
    }];
    let a = Archive::from_bytes(build(&files, 4, |_| {})).unwrap();
    assert_eq!(a.read("A/B.TXT").unwrap(), b"hello");
    assert_eq!(a.entries().len(), 1);
}

#[test]
fn tables_past_the_end_are_no_archive() {
    let files = [Raw {
        name: "x",
        stored: b"abc".to_vec(),
        size: 3,
        flags: EXISTS | SINGLE,
    }];
    let bytes = build(&files, 4, |w| {
        w[4] = 0x7FFF_0000;
        w[5] = 0x7FFF_0000;
    });
    let e = Archive::from_bytes(bytes).unwrap_err();
    assert_eq!(e.kind, MpqErrorKind::NoArchive);
}

#[test]
fn huge_counts_are_clipped_to_the_file() {
    let files = [Raw {
        name: "x",
        stored: b"abc".to_vec(),
        size: 3,
        flags: EXISTS | SINGLE,
    }];
    let bytes = build(&files, 4, |w| {
        w[6] = 0x0FFF_FFFF;
        w[7] = 0x0FFF_FFFF;
    });
    let len = bytes.len();
    let a = Archive::from_bytes(bytes).unwrap();
    // The clipped hash table holds whatever follows; "x" may no longer be findable, but
    // nothing read is larger than the file.
    for e in a.entries() {
        if let Ok(b) = a.read_entry(&e) {
            assert!(b.len() <= len * 1024);
        }
    }
}

#[test]
fn a_full_hash_table_without_the_name_ends() {
    let files: Vec<Raw<'_>> = ["a", "b", "c", "d"]
        .iter()
        .map(|n| Raw {
            name: n,
            stored: b"1".to_vec(),
            size: 1,
            flags: EXISTS | SINGLE,
        })
        .collect();
    let a = Archive::from_bytes(build(&files, 4, |_| {})).unwrap();
    assert_eq!(a.entries().len(), 4);
    let e = a.read("not-there").unwrap_err();
    assert!(matches!(e.kind, MpqErrorKind::NotFound(_)));
}

#[test]
fn a_size_that_lies_is_an_error_not_bytes() {
    // Single unit, stored plainly, claiming 4 GiB.
    let files = [Raw {
        name: "big",
        stored: b"abcd".to_vec(),
        size: u32::MAX,
        flags: EXISTS | SINGLE,
    }];
    let a = Archive::from_bytes(build(&files, 4, |_| {})).unwrap();
    let e = a.read("big").unwrap_err();
    assert!(e.to_string().contains("over the limit"), "{e}");
    // Under the limit: the stored bytes are too few for the size.
    let files = [Raw {
        name: "big",
        stored: b"abcd".to_vec(),
        size: 4000,
        flags: EXISTS | SINGLE,
    }];
    let a = Archive::from_bytes(build(&files, 4, |_| {})).unwrap();
    let e = a.read("big").unwrap_err();
    assert_eq!(e.file.as_deref(), Some("big"));
}

#[test]
fn a_thousandfold_expansion_is_bounded_by_the_limit() {
    let zeros = vec![0u8; 4 << 20];
    let stored = zlib_sector(&zeros);
    assert!(
        stored.len() * 500 < zeros.len(),
        "the stream expands hundreds of times"
    );
    let files = [Raw {
        name: "z",
        stored,
        size: zeros.len() as u32,
        flags: EXISTS | SINGLE | COMPRESS,
    }];
    let mut a = Archive::from_bytes(build(&files, 4, |_| {})).unwrap();
    assert_eq!(a.read("z").unwrap(), zeros);
    a.set_limit(1 << 20);
    assert!(a
        .read("z")
        .unwrap_err()
        .to_string()
        .contains("over the limit"));
}

#[test]
fn sector_tables_that_lie_are_errors_with_offsets() {
    // Sectored, compressed: one sector whose offsets run backwards, then one past the end.
    for table in [[8u32, 4], [8, 0x00FF_FFFF]] {
        let mut stored: Vec<u8> = table.iter().flat_map(|w| w.to_le_bytes()).collect();
        stored.extend_from_slice(&[0x02, 0x78, 0x9c]);
        let files = [Raw {
            name: "s",
            stored,
            size: 100,
            flags: EXISTS | COMPRESS,
        }];
        let a = Archive::from_bytes(build(&files, 4, |_| {})).unwrap();
        let e = a.read("s").unwrap_err();
        assert!(e.offset.is_some(), "{e}");
        assert_eq!(e.file.as_deref(), Some("s"));
    }
}

#[test]
fn a_decoy_user_data_header_pointing_at_itself_is_passed() {
    let files = [Raw {
        name: "x",
        stored: b"abc".to_vec(),
        size: 3,
        flags: EXISTS | SINGLE,
    }];
    let archive = build(&files, 4, |_| {});
    // A user-data block at 0 pointing at itself, the real archive at 0x200.
    let mut bytes = vec![0u8; 0x200];
    bytes[..4].copy_from_slice(b"MPQ\x1b");
    bytes[8..12].copy_from_slice(&0u32.to_le_bytes());
    bytes.extend_from_slice(&archive);
    let a = Archive::from_bytes(bytes).unwrap();
    assert_eq!(a.header().offset, 0x200);
    assert_eq!(a.read("x").unwrap(), b"abc");
}

#[test]
fn a_sector_shift_too_large_is_no_archive() {
    let files = [Raw {
        name: "x",
        stored: b"abc".to_vec(),
        size: 3,
        flags: EXISTS | SINGLE,
    }];
    let bytes = build(&files, 4, |w| w[3] = 40 << 16);
    assert_eq!(
        Archive::from_bytes(bytes).unwrap_err().kind,
        MpqErrorKind::NoArchive
    );
}

#[test]
fn nothing_is_no_archive() {
    for bytes in [Vec::new(), b"MPQ".to_vec(), vec![0u8; 4096]] {
        assert_eq!(
            Archive::from_bytes(bytes).unwrap_err().kind,
            MpqErrorKind::NoArchive
        );
    }
}
