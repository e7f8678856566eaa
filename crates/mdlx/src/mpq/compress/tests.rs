//! The decompressors against hand-checked vectors, hostile input, and StormLib: archives
//! made by `smpq` with each method, and real maps, read sector by sector here and
//! compared with the input files or with what `smpq -x` extracts.

use super::*;
use crate::mpq::crypto::{decrypt, file_key, hash, HashKind};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A small deterministic generator (xorshift64*), for test data and hostile input.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// The example stream of the format's classic description (Mark Adler's `blast.c`):
/// binary literals, a 1 KiB dictionary, "AIAIAIAIAIAIA".
#[test]
fn explode_known_vector() {
    let data = [0x00, 0x04, 0x82, 0x24, 0x25, 0x8f, 0x80, 0x7f];
    assert_eq!(explode(&data, 13).unwrap(), b"AIAIAIAIAIAIA");
    // Asked for fewer bytes, it stops there; asked for more, the end mark makes it short.
    assert_eq!(explode::explode(&data, 5).unwrap(), b"AIAIA");
    assert_eq!(
        explode(&data, 20),
        Err(CodecError::Length {
            expected: 20,
            got: 13
        })
    );
}

/// ASCII-mode streams (1 KiB and 4 KiB dictionaries) made by an independent encoder,
/// node-pkware 5.1.0 (`implode --ascii --small|--large`), of [`ascii_plain`]; smpq only
/// writes binary mode.
const ASCII_SMALL: &str = concat!(
    "0104901d8da13934c50b04024fd6e9b6a97ad382607bcbd8ac435281910f6b4588a70904780792c01ff8015f",
    "e003bc8117f0041e7089813b702302aec005380327e0081c803db003b6c00658032b401258020b600ecc80a9",
    "07251c60020a600c72d88404b0c0c697e2c1c495e0606361c2c040870e0d1881041a58200e0cc5a822a18b02",
    "158a00c4c0e423f3b84820ca61b310c1800c3a68200209844105061081bec364d06d1a956281108249367412",
    "c834559121c083070752100401a00774810e20018803628028200208034280202000f0037c002fc00370035c",
    "0027c001b0036c002bc00230034c0023c000d00374002d400350035400254001900364002940021003440021",
    "4000e00378002e80036003580026d0065a4013680075a00654810a50064a4011280079200764810c90065240",
    "124800712006448108100642401008007ec00778010fe0065c8013700076c00658010b60064c801130007a40",
    "0768010d8001a80174000d400554000a800c20014a00114000e001384001c002300034200764801480022001",
    "08001c00034001100018000200010085627bdba0131107fc03",
);
const ASCII_LARGE: &str = concat!(
    "0106901d8da13934c50b04024fd6e9b6a97ad382607bcbd8ac435281910feb6188f71008a80324813ff003be",
    "c00778032fe0093ce0120377e046045c810b70064ec01138007b60076c810db006568024b00416c01c980153",
    "0f4a38c00414c018e4b0090960818d2fc583892bc1c1c6c28481810e1d1a30020934b0401c188a5145421705",
    "2a14018881c947e671914094c3662182011974d040041208830a0c20027d87c9a0db342ac5022104936ce824",
    "9069aa224380070f0ea4200802400fe8021d40021007c40051400410068400414000e007f8005e8007e006b8",
    "004e80036007d80056800560069800468001a007e8005a8006a006a8004a80022007c8005280042006880042",
    "8000c007f0005c0007c006b0004ca00db48026d000ea400da80215a00c9480225000f2400ec80219200da480",
    "249000e2400c880211200c8480201000fc800ff0021ec00db80027e000ec800db00216c00c9800236000f480",
    "0ed0021a00035003e8001a800aa80014001940029400228000c0037080028005600068400ec8002900054002",
    "1000380006800220003000040002000ac5f6b64127220ef807",
);

/// The text the ASCII vectors hold: every byte value once, so the long codes are used.
fn ascii_plain() -> Vec<u8> {
    let mut p = b"Warcraft III models live in maps; ".repeat(8);
    p.extend(0..=255u8);
    p.extend_from_slice(b"the end\r\n");
    p
}

fn unhex(h: &str) -> Vec<u8> {
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn explode_ascii_vectors() {
    let plain = ascii_plain();
    for (stream, dict) in [(ASCII_SMALL, 4), (ASCII_LARGE, 6)] {
        let data = unhex(stream);
        assert_eq!((data[0], data[1]), (1, dict), "ASCII mode, dictionary bits");
        assert_eq!(explode(&data, plain.len()).unwrap(), plain);
    }
}

#[test]
fn sparse_by_hand() {
    // 10 bytes: 2 literals, 5 zeros, then a literal run cut at the declared size.
    let data = [0, 0, 0, 10, 0x81, 7, 8, 0x02, 0xFF, 1, 2, 3];
    assert_eq!(
        sparse::decompress(&data, 10).unwrap(),
        [7, 8, 0, 0, 0, 0, 0, 1, 2, 3]
    );
    assert!(sparse::decompress(&data, 9).is_err(), "size over the cap");
    assert!(
        sparse::decompress(&data[..10], 10).is_err(),
        "literal run cut"
    );
}

#[test]
fn mask_rules() {
    assert_eq!(
        decompress(&[0x04, 1, 2], 10),
        Err(CodecError::Unsupported(0x04))
    );
    assert_eq!(
        decompress(&[0x00, 1, 2], 10),
        Err(CodecError::Unsupported(0))
    );
    assert_eq!(
        decompress(&[9, 9, 9], 3).unwrap(),
        [9, 9, 9],
        "stored as is"
    );
    assert!(
        decompress(&[0x02, 1, 2, 3], 2).is_err(),
        "longer than the output"
    );
    let z = compress_zlib(&[5u8; 1000]).unwrap();
    assert_eq!(decompress(&z, 1000).unwrap(), vec![5u8; 1000]);
    // Full before the stream's end: kept, as StormLib does.
    assert_eq!(decompress(&z, 999).unwrap(), vec![5u8; 999]);
    assert_eq!(
        decompress(&z, 1001),
        Err(CodecError::Length {
            expected: 1001,
            got: 1000
        })
    );
}

/// Streams cut short (as in the shared truncated map) are errors, never short output.
#[test]
fn cut_streams_are_errors() {
    let mut rng = Rng(7);
    let plain: Vec<u8> = (0..20_000)
        .map(|_| b"abcdefgh"[(rng.next() % 8) as usize])
        .collect();
    let z = compress_zlib(&plain).unwrap();
    for cut in [z.len() / 2, z.len() - 5, 3] {
        assert!(
            decompress(&z[..cut], plain.len()).is_err(),
            "zlib cut at {cut}"
        );
    }
    let pk = unhex(ASCII_LARGE);
    for cut in [pk.len() / 2, pk.len() - 2, 5] {
        assert!(
            explode(&pk[..cut], ascii_plain().len()).is_err(),
            "explode cut at {cut}"
        );
    }
}

/// Random bytes through every method and mask: errors or output of the asked length, no
/// panic, no hang, nothing longer than asked.
#[test]
fn random_input_never_panics() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let masks = [
        0x01, 0x02, 0x08, 0x10, 0x12, 0x20, 0x40, 0x80, 0x41, 0x81, 0x22, 0x28, 0x30, 0x0A, 0x18,
        0xFF, 0x03,
    ];
    for round in 0..3000 {
        let len = (rng.next() % 300) as usize + 3;
        let mut data = rng.bytes(len);
        let out_len = len + (rng.next() % 5000) as usize;
        data[0] = masks[round % masks.len()];
        if let Ok(out) = decompress(&data, out_len) {
            assert_eq!(out.len(), out_len);
        }
        if round % 3 == 0 {
            // Plausible headers, so the decoders get past their first checks.
            data[1] = (rng.next() % 2) as u8;
            if len > 2 {
                data[2] = 4 + (rng.next() % 3) as u8;
            }
        }
        if let Ok(out) = explode(&data[1..], out_len) {
            assert_eq!(out.len(), out_len);
        }
        for (_, stage) in STAGES {
            if let Ok(out) = stage(&data[1..], out_len) {
                assert!(out.len() <= out_len);
            }
        }
        // Huffman with each weight table.
        data[0] = (round % 9) as u8;
        if let Ok(out) = huffman::decompress(&data, out_len) {
            assert!(out.len() <= out_len);
        }
    }
}

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
