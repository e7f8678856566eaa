//! StormLib's front end `smpq` run from the tests, and a small MPQ table reader of the
//! tests' own (the cipher is public knowledge; the library's reader is not used), to look
//! at the slots and the `(attributes)` that StormLib and our writer produce.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

// ---------------------------------------------------------------------------------------
// StormLib's front end.

/// `smpq`, or `None` (the test skips) when it is missing outside CI; under CI a missing
/// judge fails the test.
pub(crate) fn smpq() -> Option<PathBuf> {
    let candidates = std::env::var_os("MDLX_SMPQ")
        .map(PathBuf::from)
        .into_iter()
        .chain(
            std::env::var_os("PATH")
                .map(|p| {
                    std::env::split_paths(&p)
                        .map(|d| d.join("smpq"))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default(),
        );
    for c in candidates {
        if c.is_file() {
            return Some(c);
        }
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("smpq (StormLib) is not installed; set MDLX_SMPQ or install the smpq package");
    }
    eprintln!("skipped: smpq (StormLib) is not installed");
    None
}

pub(crate) static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh empty folder under the system's temporary folder.
pub(crate) fn temp_dir(what: &str) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("mdlx-mpqw-{}-{what}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One line of `smpq -l`: size, date and time (from `(attributes)`), name with `\`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Listed {
    pub(crate) name: String,
    pub(crate) size: u64,
    pub(crate) date: String,
}

pub(crate) fn list(smpq: &Path, archive: &Path, listfile: Option<&Path>) -> Vec<Listed> {
    let mut cmd = Command::new(smpq);
    cmd.env("TZ", "UTC").arg("-l");
    if let Some(l) = listfile {
        cmd.arg("-L").arg(l);
    }
    let out = cmd.arg(archive).output().unwrap();
    assert!(out.status.success(), "smpq -l {archive:?}: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let l = l.trim_start();
            let (size, rest) = l.split_once(' ').unwrap();
            let rest = rest.trim_start();
            let (day, rest) = rest.split_once(' ').unwrap();
            let (time, name) = rest.split_once(' ').unwrap();
            Listed {
                name: name.replace('/', "\\"),
                size: size.parse().unwrap(),
                date: format!("{day} {time}"),
            }
        })
        .collect()
}

/// `smpq -x` into a fresh folder: every file by its name (`\` between folders), and the
/// names StormLib reported it could not read.
pub(crate) fn extract(
    smpq: &Path,
    archive: &Path,
    listfile: Option<&Path>,
) -> (BTreeMap<String, Vec<u8>>, BTreeSet<String>) {
    let dir = temp_dir("x");
    let mut cmd = Command::new(smpq);
    cmd.current_dir(&dir).arg("-x");
    if let Some(l) = listfile {
        cmd.arg("-L").arg(l);
    }
    let out = cmd.arg(archive).output().unwrap();
    assert!(out.status.success(), "smpq -x {archive:?}: {out:?}");
    let failed: BTreeSet<String> = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter_map(|l| {
            let (_, rest) = l.split_once("Cannot read file `")?;
            Some(rest.split_once('\'')?.0.replace('/', "\\"))
        })
        .collect();
    let mut files = BTreeMap::new();
    walk(&dir, &dir, &mut files);
    std::fs::remove_dir_all(&dir).unwrap();
    (files, failed)
}

pub(crate) fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(root, &p, out);
        } else {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('/', "\\");
            out.insert(rel, std::fs::read(&p).unwrap());
        }
    }
}

// ---------------------------------------------------------------------------------------
// A small reader of this test's own: the header, the two tables, and one file.

pub(crate) const fn cipher_table() -> [u32; 0x500] {
    let mut t = [0u32; 0x500];
    let mut seed: u32 = 0x0010_0001;
    let mut i = 0;
    while i < 256 {
        let mut j = 0;
        while j < 5 {
            seed = (seed * 125 + 3) % 0x2A_AAAB;
            let hi = (seed & 0xFFFF) << 16;
            seed = (seed * 125 + 3) % 0x2A_AAAB;
            t[i + j * 256] = hi | (seed & 0xFFFF);
            j += 1;
        }
        i += 1;
    }
    t
}
pub(crate) static T: [u32; 0x500] = cipher_table();

pub(crate) fn name_hash(name: &str, kind: usize) -> u32 {
    let (mut s1, mut s2) = (0x7FED_7FEDu32, 0xEEEE_EEEEu32);
    for c in name.bytes() {
        let c = if c == b'/' {
            b'\\'
        } else {
            c.to_ascii_uppercase()
        };
        s1 = T[kind * 256 + c as usize] ^ s1.wrapping_add(s2);
        s2 = (c as u32)
            .wrapping_add(s1)
            .wrapping_add(s2)
            .wrapping_add(s2 << 5)
            .wrapping_add(3);
    }
    s1
}

pub(crate) fn decrypt_words(data: &[u8], key: u32) -> Vec<u32> {
    let (mut s1, mut s2) = (key, 0xEEEE_EEEEu32);
    data.chunks_exact(4)
        .map(|w| {
            s2 = s2.wrapping_add(T[0x400 + (s1 & 0xFF) as usize]);
            let p = u32::from_le_bytes(w.try_into().unwrap()) ^ s1.wrapping_add(s2);
            s1 = ((!s1) << 21).wrapping_add(0x1111_1111) | (s1 >> 11);
            s2 = p.wrapping_add(s2).wrapping_add(s2 << 5).wrapping_add(3);
            p
        })
        .collect()
}

pub(crate) struct Parsed {
    pub(crate) base: usize,
    pub(crate) shift: u32,
    /// name A, name B, locale | platform << 16, block.
    pub(crate) hashes: Vec<[u32; 4]>,
    pub(crate) blocks: Vec<[u32; 4]>,
}

impl Parsed {
    /// Reads a plain (unprotected) archive at the first `MPQ\x1A` at a 512 multiple.
    pub(crate) fn new(data: &[u8]) -> Parsed {
        let base = (0..data.len())
            .step_by(512)
            .find(|&o| data[o..].starts_with(b"MPQ\x1A"))
            .expect("an MPQ header");
        let w = |i: usize| u32::from_le_bytes(data[base + i..base + i + 4].try_into().unwrap());
        let shift = u32::from(u16::from_le_bytes([data[base + 14], data[base + 15]]));
        let table = |pos: usize, count: usize, name: &str| -> Vec<[u32; 4]> {
            let raw = &data[base + pos..base + pos + count * 16];
            decrypt_words(raw, name_hash(name, 3))
                .chunks(4)
                .map(|c| [c[0], c[1], c[2], c[3]])
                .collect()
        };
        Parsed {
            base,
            shift,
            hashes: table(w(16) as usize, w(24) as usize, "(hash table)"),
            blocks: table(w(20) as usize, w(28) as usize, "(block table)"),
        }
    }

    /// The hash slot holding `name`, by the game's search.
    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        let n = self.hashes.len();
        let home = name_hash(name, 0) as usize & (n - 1);
        let (a, b) = (name_hash(name, 1), name_hash(name, 2));
        (0..n)
            .map(|k| (home + k) % n)
            .take_while(|&s| self.hashes[s][3] != 0xFFFF_FFFF)
            .find(|&s| {
                self.hashes[s][0] == a && self.hashes[s][1] == b && self.hashes[s][3] < 0x8000_0000
            })
    }

    /// One file's bytes: zlib or stored sectors, possibly encrypted (StormLib's own
    /// `(attributes)` is encrypted with the adjusted key).
    pub(crate) fn read(&self, data: &[u8], name: &str) -> Vec<u8> {
        let slot = self
            .find(name)
            .unwrap_or_else(|| panic!("{name} not in the archive"));
        let [off, csize, size, flags] = self.blocks[self.hashes[slot][3] as usize];
        let raw = &data[self.base + off as usize..self.base + (off + csize) as usize];
        let plain = name.rsplit('\\').next().unwrap();
        let mut key = name_hash(plain, 3);
        if flags & 0x2_0000 != 0 {
            key = key.wrapping_add(off) ^ size;
        }
        let decrypt = |bytes: &[u8], key: u32| -> Vec<u8> {
            if flags & 0x1_0000 == 0 {
                return bytes.to_vec();
            }
            let mut out: Vec<u8> = decrypt_words(bytes, key)
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect();
            out.extend_from_slice(&bytes[bytes.len() / 4 * 4..]);
            out
        };
        let sector = 512usize << self.shift;
        let count = (size as usize).div_ceil(sector);
        if flags & 0x200 == 0 || size == 0 {
            return raw.to_vec();
        }
        let table_bytes = decrypt(&raw[..4 * (count + 1)], key.wrapping_sub(1));
        let offs: Vec<usize> = table_bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()) as usize)
            .collect();
        let mut out = Vec::new();
        for i in 0..count {
            let s = decrypt(&raw[offs[i]..offs[i + 1]], key.wrapping_add(i as u32));
            let want = sector.min(size as usize - i * sector);
            if s.len() < want {
                assert_eq!(s[0], 2, "zlib mask");
                let mut d = flate2::read::ZlibDecoder::new(&s[1..]);
                std::io::Read::read_to_end(&mut d, &mut out).unwrap();
            } else {
                out.extend_from_slice(&s);
            }
        }
        out
    }
}
