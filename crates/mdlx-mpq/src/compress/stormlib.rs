//! The decompressors against StormLib: archives made by `smpq` with each method, and
//! real maps, read sector by sector here and compared with the input files or with what
//! `smpq -x` extracts.

use super::tests::Rng;
use super::*;
use crate::crypto::{decrypt, file_key, hash, HashKind};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The `smpq` binary: `MDLX_SMPQ`, else `smpq` on the PATH. Under CI a missing one fails.
fn smpq() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("MDLX_SMPQ") {
        return Some(PathBuf::from(p));
    }
    let found = Command::new("smpq").arg("--version").output().is_ok();
    if !found && std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("smpq (StormLib) is not installed, and CI must run the StormLib checks");
    }
    found.then(|| PathBuf::from("smpq"))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Enough of an MPQ (v1 tables) to find a file's sectors: the test's own reader, so the
/// codecs are checked before the real reader exists.
struct Archive {
    bytes: Vec<u8>,
    base: usize,
    sector_size: usize,
    hashes: Vec<u8>,
    blocks: Vec<u8>,
}

/// Test files: name and bytes.
type Files = [(String, Vec<u8>)];

/// Per file: which masks its sectors had.
type Masks = BTreeMap<u8, usize>;

impl Archive {
    fn open(path: &Path) -> Archive {
        let bytes = std::fs::read(path).unwrap();
        let base = (0..bytes.len())
            .step_by(0x200)
            .find(|&o| bytes[o..].starts_with(b"MPQ\x1A"))
            .expect("an MPQ header");
        let h = &bytes[base..];
        let shift = u16::from_le_bytes([h[14], h[15]]);
        let table = |pos: u32, count: u32, name: &str| {
            let start = base + pos as usize;
            let end = (start + count as usize * 16).min(bytes.len());
            let mut t = bytes[start..end].to_vec();
            decrypt(&mut t, hash(name, HashKind::Key));
            t
        };
        let hashes = table(u32_at(h, 0x10), u32_at(h, 0x18), "(hash table)");
        let blocks = table(u32_at(h, 0x14), u32_at(h, 0x1C), "(block table)");
        Archive {
            sector_size: 512usize << shift,
            bytes,
            base,
            hashes,
            blocks,
        }
    }

    fn block_of(&self, name: &str) -> Option<usize> {
        let count = self.hashes.len() / 16;
        let (a, b) = (hash(name, HashKind::NameA), hash(name, HashKind::NameB));
        let start = hash(name, HashKind::Offset) as usize % count;
        for k in 0..count {
            let e = &self.hashes[(start + k) % count * 16..][..16];
            let block = u32_at(e, 12);
            if block == 0xFFFF_FFFF {
                return None;
            }
            if u32_at(e, 0) == a && u32_at(e, 4) == b {
                return Some(block as usize);
            }
        }
        None
    }

    /// The file's bytes through our decompressors, and the masks seen.
    fn read(&self, name: &str) -> Result<(Vec<u8>, Masks), CodecError> {
        let block = self
            .block_of(name)
            .unwrap_or_else(|| panic!("{name} not in the hash table"));
        let e = &self.blocks[block * 16..][..16];
        let (pos, csize, size, flags) = (u32_at(e, 0), u32_at(e, 4), u32_at(e, 8), u32_at(e, 12));
        let start = self.base + pos as usize;
        let raw = &self.bytes[start..start + csize as usize];
        let key = (flags & 0x0001_0000 != 0)
            .then(|| file_key(name.as_bytes(), pos, size, flags & 0x0002_0000 != 0));
        let implode = flags & 0x0000_0100 != 0;
        let mut masks = Masks::new();
        let mut unpack = |sector: &[u8], out_len: usize| {
            if sector.len() < out_len && !implode {
                *masks.entry(sector[0]).or_default() += 1;
            } else if sector.len() < out_len {
                *masks.entry(0x08).or_default() += 1;
            }
            if implode {
                explode(sector, out_len)
            } else {
                decompress(sector, out_len)
            }
        };
        if flags & 0x0100_0000 != 0 {
            let mut data = raw.to_vec();
            if let Some(k) = key {
                decrypt(&mut data, k);
            }
            return Ok((unpack(&data, size as usize)?, masks));
        }
        let count = (size as usize).div_ceil(self.sector_size);
        let mut table = raw[..(count + 1) * 4].to_vec();
        if let Some(k) = key {
            decrypt(&mut table, k.wrapping_sub(1));
        }
        let mut out = Vec::with_capacity(size as usize);
        for i in 0..count {
            let (a, b) = (
                u32_at(&table, i * 4) as usize,
                u32_at(&table, i * 4 + 4) as usize,
            );
            let mut sector = raw[a..b].to_vec();
            if let Some(k) = key {
                decrypt(&mut sector, k.wrapping_add(i as u32));
            }
            let out_len = self.sector_size.min(size as usize - out.len());
            out.extend(unpack(&sector, out_len)?);
        }
        Ok((out, masks))
    }
}

/// Runs smpq in `dir`, failing loudly.
fn run(smpq: &Path, dir: &Path, args: &[&str]) {
    let out = Command::new(smpq)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "smpq {args:?}: {out:?}");
}

/// Test files: text, random and zero-heavy binary, sizes that give PKWare each of its
/// three dictionary sizes in the last sector, and two WAVs.
fn make_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut rng = Rng(42);
    let words = [
        "unit",
        "footman",
        "Textures\\",
        "model",
        ".mdx",
        " ",
        "\r\n",
        "peasant",
    ];
    let text: Vec<u8> = (0..40_000)
        .flat_map(|_| words[(rng.next() % 8) as usize].bytes())
        .collect();
    let mut sparse = vec![0u8; 30_000];
    // Islands of text in zeros: sparse shrinks the zeros, the next method the text.
    for i in (0..sparse.len() - 40).step_by(97) {
        sparse[i..i + 40].copy_from_slice(&text[i..i + 40]);
    }
    let mut files = vec![
        ("text.txt".to_string(), text.clone()),
        ("random.bin".to_string(), rng.bytes(9_000)),
        ("sparse.bin".to_string(), sparse),
        ("small1k.txt".to_string(), text[..1000].to_vec()),
        ("mid2k.txt".to_string(), text[..4096 + 2000].to_vec()),
    ];
    for (name, data) in &files {
        std::fs::write(dir.join(name), data).unwrap();
    }
    for (channels, name) in [(1, "mono.wav"), (2, "stereo.wav")] {
        files.push((name.to_string(), wav(channels, &mut rng)));
        std::fs::write(dir.join(name), &files.last().unwrap().1).unwrap();
    }
    files
}

/// A 16-bit PCM WAV of a noisy tone (written here: the header is 44 fixed bytes).
fn wav(channels: u16, rng: &mut Rng) -> Vec<u8> {
    let frames = 20_000u32;
    let data_len = frames * u32::from(channels) * 2;
    let mut w = Vec::new();
    w.extend_from_slice(b"RIFF");
    w.extend_from_slice(&(36 + data_len).to_le_bytes());
    w.extend_from_slice(b"WAVEfmt ");
    w.extend_from_slice(&16u32.to_le_bytes());
    w.extend_from_slice(&1u16.to_le_bytes());
    w.extend_from_slice(&channels.to_le_bytes());
    w.extend_from_slice(&22_050u32.to_le_bytes());
    w.extend_from_slice(&(22_050 * u32::from(channels) * 2).to_le_bytes());
    w.extend_from_slice(&(channels * 2).to_le_bytes());
    w.extend_from_slice(&16u16.to_le_bytes());
    w.extend_from_slice(b"data");
    w.extend_from_slice(&data_len.to_le_bytes());
    for i in 0..frames {
        for c in 0..channels {
            let tone = (f64::from(i) * 0.03 * f64::from(c + 1)).sin() * 9000.0;
            let noise = (rng.next() % 600) as f64 - 300.0;
            w.extend_from_slice(&((tone + noise) as i16).to_le_bytes());
        }
    }
    w
}

/// Each method smpq offers: every file read back through our decompressors equals the
/// input (lossless methods) or what smpq extracts (ADPCM), and the sectors carried the
/// method's mask bits.
#[test]
fn smpq_methods() {
    let Some(smpq) = smpq() else {
        eprintln!("smpq not found: StormLib checks skipped");
        return;
    };
    let methods: [(&str, u8); 15] = [
        ("PKWARE", 0x08),
        ("HUFFMANN", 0x01),
        ("ZLIB", 0x02),
        ("BZIP2", 0x10),
        ("SPARSE", 0x20),
        ("LZMA", 0x12),
        ("ADPCM_MONO", 0x40),
        ("ADPCM_STEREO", 0x80),
        ("HUFFMANN+ADPCM_MONO", 0x41),
        ("HUFFMANN+ADPCM_STEREO", 0x81),
        ("ZLIB+PKWARE", 0x0A),
        ("BZIP2+PKWARE", 0x18),
        ("SPARSE+ZLIB", 0x22),
        ("SPARSE+PKWARE", 0x28),
        ("SPARSE+BZIP2", 0x30),
    ];
    let dir = std::env::temp_dir().join(format!("mdlx-codecs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let files = make_files(&dir);
    let mut report = Vec::new();
    std::fs::write(dir.join("zeros.bin"), vec![0u8; 1_000_000]).unwrap();
    let single = [
        ("zeros.bin".to_string(), vec![0u8; 1_000_000]),
        files[0].clone(),
    ];
    for (method, mask) in methods {
        let lossy = mask & 0xC0 != 0;
        let mut seen = Masks::new();
        // Sectored files, then single-unit ones (a 1 MB unit of zeros is what makes
        // PKWare shrink zlib's output, and bzip2 PKWare's).
        // (Only for those two: StormLib 9.22 silently fails to add a 1 MB Huffman unit.)
        let units: &[(&str, &Files)] = if mask == 0x0A || mask == 0x18 {
            &[("", &files[..]), ("-U", &single[..])]
        } else {
            &[("", &files[..])]
        };
        for &(unit, files) in units {
            let tag = format!("{}{unit}", method.replace('+', "_"));
            let archive = format!("{tag}.mpq");
            let mut args = vec!["-c", "-q", "-M", "1", "-C", method];
            if !unit.is_empty() {
                args.push(unit);
            }
            args.push(&archive);
            args.extend(files.iter().map(|(n, _)| n.as_str()));
            run(&smpq, &dir, &args);
            let extracted = dir.join(format!("x-{tag}"));
            if lossy {
                std::fs::create_dir_all(&extracted).unwrap();
                run(&smpq, &extracted, &["-x", "-q", &format!("../{archive}")]);
            }
            let mpq = Archive::open(&dir.join(&archive));
            for (name, input) in files {
                let (ours, masks) = mpq
                    .read(name)
                    .unwrap_or_else(|e| panic!("{method} {unit} {name}: {e}"));
                let expected = if lossy {
                    std::fs::read(extracted.join(name)).unwrap()
                } else {
                    input.clone()
                };
                // ADPCM cannot store the odd last byte of a file: StormLib returns
                // whatever its buffer held there (0 for sectors, garbage for a single
                // unit), so that byte is left out of the comparison.
                let n = if lossy {
                    expected.len() & !1
                } else {
                    expected.len()
                };
                assert_eq!(ours.len(), expected.len(), "{method} {unit} {name}: length");
                assert!(
                    ours[..n] == expected[..n],
                    "{method} {unit} {name}: bytes differ"
                );
                for (m, n) in masks {
                    *seen.entry(m).or_default() += n;
                }
            }
        }
        // StormLib leaves out a method that does not shrink its input, so sectors may
        // show a part of a combination; but every sector uses only the asked methods,
        // and the whole combination occurs.
        report.push(format!("{method}: masks {seen:02x?}"));
        assert!(
            seen.keys().all(|&m| m & !mask == 0),
            "{method}: foreign masks {seen:02x?}"
        );
        assert!(
            seen.contains_key(&mask),
            "{method}: no sector used mask 0x{mask:02x}: {seen:02x?}"
        );
    }
    eprintln!("{}", report.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The name in a line of `smpq -l` (size, date, time, name).
fn listed_name(line: &str) -> Option<String> {
    let mut rest = line.trim_start();
    for _ in 0..3 {
        rest = rest.split_once(' ')?.1.trim_start();
    }
    (!rest.is_empty()).then(|| rest.to_string())
}

/// Real maps with PKWare and IMPLODE sectors: every listed file equals `smpq -x`'s.
#[test]
fn smpq_real_maps() {
    let Some(smpq) = smpq() else {
        eprintln!("smpq not found: StormLib checks skipped");
        return;
    };
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/archives");
    let maps = [
        "inwc3+JMPQ3__implodedTest.w3x",
        "tdauth+wc3lib___4_WarChasers.w3m",
        "Drake53+War3Net__Beta_ROC-Beta_ROC_100-_4_Lost_Temple.w3m",
    ];
    for map in maps {
        let path = shared.join(map);
        if !path.exists() {
            panic!("{} missing", path.display());
        }
        let dir = std::env::temp_dir().join(format!("mdlx-maps-{}-{map}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let list = Command::new(&smpq).arg("-l").arg(&path).output().unwrap();
        let names: Vec<String> = String::from_utf8_lossy(&list.stdout)
            .lines()
            .filter_map(listed_name)
            .collect();
        run(&smpq, &dir, &["-x", "-q", path.to_str().unwrap()]);
        let mpq = Archive::open(&path);
        let (mut checked, mut seen) = (0, Masks::new());
        for name in &names {
            let Ok(expected) = std::fs::read(dir.join(name.replace('\\', "/"))) else {
                continue;
            };
            let (ours, masks) = mpq
                .read(name)
                .unwrap_or_else(|e| panic!("{map} {name}: {e}"));
            assert!(
                ours == expected,
                "{map} {name}: bytes differ from StormLib's"
            );
            checked += 1;
            for (m, n) in masks {
                *seen.entry(m).or_default() += n;
            }
        }
        // The (listfile) (IMPLODE in implodedTest) is not extracted by smpq, but StormLib
        // read the names it lists from it: they must be the lines we decode.
        if mpq.block_of("(listfile)").is_some() {
            let (ours, masks) = mpq.read("(listfile)").unwrap();
            let mut lines: Vec<String> = String::from_utf8_lossy(&ours)
                .split(['\r', '\n', ';'])
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect();
            let mut listed = names.clone();
            lines.sort();
            lines.dedup();
            listed.sort();
            assert_eq!(lines, listed, "{map}: (listfile) against smpq -l");
            for (m, n) in masks {
                *seen.entry(m).or_default() += n;
            }
        }
        eprintln!(
            "{map}: {checked} of {} files equal, masks {seen:02x?}",
            names.len()
        );
        assert!(
            checked > 0 && seen.contains_key(&0x08),
            "{map}: no PKWare sector read"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
