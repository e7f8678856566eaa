//! The MPQ writer judged by StormLib (`smpq`): archives we write must list and extract
//! in StormLib exactly as put in, files whose names are unknown must stay findable where
//! the original table had them, StormLib must be able to add to our archives, and every
//! shared real archive, extracted by StormLib and rewritten by us, must come back equal.
//!
//! The tables of our output and of StormLib's are read here with a small reader of this
//! test's own (the cipher is public knowledge; the library's reader is not used).

use mdlx::mpq::{ArchiveWriter, EntryName, NewFile, WriteError};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "mpq_write/judge.rs"]
mod judge;
use judge::{extract, list, name_hash, smpq, temp_dir, Parsed};

// ---------------------------------------------------------------------------------------
// Test data.

fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn text(seed: usize, len: usize) -> Vec<u8> {
    let words = [
        "Footman", "Peasant", "Grunt", "Arthas", "Sylvanas", "attack", "move", "\r\n",
    ];
    let mut out = Vec::with_capacity(len);
    let mut i = seed;
    while out.len() < len {
        out.extend_from_slice(words[i % words.len()].as_bytes());
        out.push(b' ');
        i = i.wrapping_mul(31).wrapping_add(7) % 1_000_003;
    }
    out.truncate(len);
    out
}

fn named(name: &str, data: Vec<u8>) -> NewFile {
    NewFile {
        name: EntryName::Named(name.to_string()),
        locale: 0,
        platform: 0,
        data,
        filetime: None,
    }
}

/// 2020-01-02 03:04:00 UTC as a Windows FILETIME.
const FILETIME_2020: u64 = (1_577_934_240 + 11_644_473_600) * 10_000_000;

/// A mixed set: folders, empty files, big multi-sector, incompressible, mixed sectors.
fn mixed_files() -> Vec<(String, Vec<u8>)> {
    let mut files = vec![
        ("war3map.j".to_string(), text(1, 8565)),
        ("war3map.w3i".to_string(), text(2, 303)),
        ("war3mapImported\\empty.txt".to_string(), Vec::new()),
        ("Empty".to_string(), Vec::new()),
        (
            "war3mapImported\\big\\terrain.blp".to_string(),
            text(3, 300_000),
        ),
        ("war3mapImported\\noise.bin".to_string(), noise(4, 50_000)),
        ("war3mapImported\\noise4096.bin".to_string(), noise(5, 4096)),
        ("war3mapImported\\noise4097.bin".to_string(), noise(6, 4097)),
        ("war3mapImported\\one.byte".to_string(), vec![7]),
    ];
    let mut half = noise(8, 4096);
    half.extend(std::iter::repeat_n(0u8, 4096));
    files.push(("war3mapImported\\half.bin".to_string(), half));
    for i in 0..200 {
        let dir = [
            "units\\human",
            "units\\orc",
            "doodads\\cinematic",
            "textures",
        ][i % 4];
        files.push((
            format!("war3mapImported\\{dir}\\file{i:03}.mdx"),
            text(i + 10, i * 37 + 1),
        ));
    }
    files
}

fn write_to(dir: &Path, name: &str, w: ArchiveWriter) -> PathBuf {
    let (bytes, _) = w.write().unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

// ---------------------------------------------------------------------------------------
// The tests.

/// StormLib lists exactly our names with their sizes and times, and extracts every file
/// equal to what was put in.
#[test]
fn stormlib_reads_what_we_write() {
    let Some(smpq) = smpq() else { return };
    let dir = temp_dir("mixed");
    let files = mixed_files();
    let mut w = ArchiveWriter::new();
    for (n, d) in &files {
        w.add(NewFile {
            filetime: Some(FILETIME_2020),
            ..named(n, d.clone())
        });
    }
    let (bytes, report) = w.write().unwrap();
    assert_eq!(&bytes[..4], b"MPQ\x1A");
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize,
        bytes.len()
    );
    assert_eq!(report.files, files.len());
    assert_eq!(report.block_count as usize, files.len() + 2);
    assert!(!report.signature_dropped);
    eprintln!(
        "{} files: {} bytes of data stored in {} (archive {} bytes, hash table {})",
        files.len(),
        report.data_bytes,
        report.stored_bytes,
        bytes.len(),
        report.hash_table_size
    );
    let path = dir.join("mixed.w3x");
    std::fs::write(&path, &bytes).unwrap();

    let listed = list(&smpq, &path, None);
    let got: BTreeSet<(String, u64)> = listed.iter().map(|l| (l.name.clone(), l.size)).collect();
    let want: BTreeSet<(String, u64)> = files
        .iter()
        .map(|(n, d)| (n.clone(), d.len() as u64))
        .collect();
    assert_eq!(listed.len(), files.len());
    assert_eq!(got, want);
    // The dates come from our (attributes): its time array sits after the CRC32 array
    // of one word per block, so this checks the layout.
    for l in &listed {
        assert_eq!(l.date, "2020-01-02 03:04", "{}", l.name);
    }
    let (extracted, failed) = extract(&smpq, &path, None);
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(extracted.len(), files.len());
    for (n, d) in &files {
        assert!(extracted.get(n) == Some(d), "{n} differs");
    }

    // Stored without compression, after a prefix that is not a multiple of 512.
    let mut w = ArchiveWriter::new();
    w.compression(mdlx::mpq::Compression::None)
        .prefix(vec![0xAB; 700])
        .sector_size_shift(7);
    for (n, d) in &files {
        w.add(named(n, d.clone()));
    }
    let (bytes, report) = w.write().unwrap();
    assert_eq!(report.archive_offset, 1024);
    assert_eq!(&bytes[..700], &[0xAB; 700][..]);
    assert_eq!(&bytes[1024..1028], b"MPQ\x1A");
    assert_eq!(report.stored_bytes, report.data_bytes);
    let path = dir.join("stored.w3x");
    std::fs::write(&path, &bytes).unwrap();
    let (extracted, failed) = extract(&smpq, &path, None);
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(extracted.len(), files.len());
    for (n, d) in &files {
        assert!(extracted.get(n) == Some(d), "{n} differs (stored)");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// StormLib can add a file to our archive, and the result holds everything. StormLib
/// keeps what it read from our `(attributes)` for the files it did not touch: its own
/// rewritten `(attributes)` must carry our times, CRC32s and MD5s.
#[test]
fn stormlib_appends_to_our_archive() {
    let Some(smpq) = smpq() else { return };
    let dir = temp_dir("append");
    let files: Vec<(String, Vec<u8>)> = mixed_files().into_iter().take(40).collect();
    let mut w = ArchiveWriter::new();
    for (i, (n, d)) in files.iter().enumerate() {
        w.add(NewFile {
            filetime: Some(FILETIME_2020 + i as u64 * 600_000_000),
            ..named(n, d.clone())
        });
    }
    let path = write_to(&dir, "ours.w3x", w);
    std::fs::write(dir.join("added.txt"), b"added by StormLib").unwrap();
    let out = Command::new(&smpq)
        .current_dir(&dir)
        .args(["-a", "ours.w3x", "added.txt"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let (extracted, failed) = extract(&smpq, &path, None);
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(extracted.len(), files.len() + 1);
    assert_eq!(extracted["added.txt"], b"added by StormLib");
    for (n, d) in &files {
        assert!(
            extracted.get(n) == Some(d),
            "{n} differs after StormLib's append"
        );
    }

    let data = std::fs::read(&path).unwrap();
    let parsed = Parsed::new(&data);
    let attributes = parsed.read(&data, "(attributes)");
    let n = parsed.blocks.len();
    assert_eq!(
        u32::from_le_bytes(attributes[0..4].try_into().unwrap()),
        100
    );
    assert!(
        attributes.len() >= 8 + n * 28,
        "{} for {n} blocks",
        attributes.len()
    );
    let at = |i: usize, w: usize| &attributes[i..i + w];
    for (i, (name, d)) in files.iter().enumerate() {
        let block = parsed.hashes[parsed.find(name).unwrap()][3] as usize;
        let crc = u32::from_le_bytes(at(8 + 4 * block, 4).try_into().unwrap());
        let time = u64::from_le_bytes(at(8 + 4 * n + 8 * block, 8).try_into().unwrap());
        let md5 = at(8 + 12 * n + 16 * block, 16);
        assert_eq!(time, FILETIME_2020 + i as u64 * 600_000_000, "{name}: time");
        assert_eq!(crc, crc32fast::hash(d), "{name}: crc32");
        if !d.is_empty() {
            assert_eq!(md5, &md5::compute(d).0[..], "{name}: md5");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Builds an archive with StormLib, then rewrites it with half the files given only by
/// their hash entries (as for names that could not be recovered) and one file left out
/// from the middle of such a file's search chain. StormLib, told all names by an outside
/// listfile, must find every file by name and extract it equal: the unnamed ones stand in
/// their original slots and the chain still leads to them.
#[test]
fn unnamed_files_keep_their_slots() {
    let Some(smpq) = smpq() else { return };
    let dir = temp_dir("hashed");
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    let names: Vec<String> = (0..56).map(|i| format!("sub\\f{i:02}.txt")).collect();
    let datas: Vec<Vec<u8>> = (0..56).map(|i| text(i + 100, 100 + i * 53)).collect();
    for (n, d) in names.iter().zip(&datas) {
        std::fs::write(src.join(n.replace('\\', "/")), d).unwrap();
    }
    let out = Command::new(&smpq)
        .current_dir(&src)
        .args(["-c", "-M", "1", "-m", "64", "../orig.mpq"])
        .args(names.iter().map(|n| n.replace('\\', "/")))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let orig_bytes = std::fs::read(dir.join("orig.mpq")).unwrap();
    let orig = Parsed::new(&orig_bytes);
    let size = orig.hashes.len();
    assert!(size.is_power_of_two());
    let slot: Vec<usize> = names
        .iter()
        .map(|n| orig.find(n).expect("StormLib stored it"))
        .collect();

    // Odd files lose their names. Find one of them pushed past its home slot, and leave
    // out a file standing between its home and its slot.
    let home = |n: &str| name_hash(n, 0) as usize & (size - 1);
    let (victim, dropped) = (0..names.len())
        .filter(|i| i % 2 == 1 && slot[*i] != home(&names[*i]))
        .find_map(|i| {
            let mut s = home(&names[i]);
            while s != slot[i] {
                if let Some(j) = slot.iter().position(|&x| x == s) {
                    return Some((i, j));
                }
                s = (s + 1) % size;
            }
            None
        })
        .expect("a displaced unnamed file with a file in its chain");
    eprintln!(
        "{} of {} files unnamed; {} at slot {} (home {}) is reached past dropped {} at {}",
        names.len() / 2,
        names.len(),
        names[victim],
        slot[victim],
        home(&names[victim]),
        names[dropped],
        slot[dropped]
    );
    let build = |keep: bool| {
        let mut w = ArchiveWriter::new();
        w.hash_table_size(size as u32);
        if keep {
            w.keep_slots((0..size as u32).filter(|&s| orig.hashes[s as usize][3] != 0xFFFF_FFFF));
        }
        for (i, (n, d)) in names.iter().zip(&datas).enumerate() {
            if i == dropped {
                continue;
            }
            let e = orig.hashes[slot[i]];
            let name = if i % 2 == 1 {
                EntryName::Hashed {
                    index: slot[i] as u32,
                    name_a: e[0],
                    name_b: e[1],
                }
            } else {
                EntryName::Named(n.clone())
            };
            w.add(NewFile {
                name,
                locale: (e[2] & 0xFFFF) as u16,
                platform: (e[2] >> 16) as u16,
                data: d.clone(),
                filetime: None,
            });
        }
        w
    };
    let path = write_to(&dir, "ours.mpq", build(true));
    let listfile = dir.join("names.txt");
    std::fs::write(&listfile, names.join("\r\n")).unwrap();

    // Without the names: the named half by name, the others as StormLib's File*.
    let listed = list(&smpq, &path, None);
    let kept = names.len() - 1;
    assert_eq!(listed.len(), kept);
    let unnamed = listed
        .iter()
        .filter(|l| l.name.starts_with("File0"))
        .count();
    assert_eq!(unnamed, names.len() / 2 - usize::from(dropped % 2 == 1));
    // With the names: every kept file by its name, bytes equal.
    let want: BTreeSet<&str> = names
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != dropped)
        .map(|(_, n)| n.as_str())
        .collect();
    let listed = list(&smpq, &path, Some(&listfile));
    let got: BTreeSet<&str> = listed.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(got, want);
    let (extracted, failed) = extract(&smpq, &path, Some(&listfile));
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(extracted.len(), kept);
    for (i, (n, d)) in names.iter().zip(&datas).enumerate() {
        if i != dropped {
            assert!(extracted.get(n) == Some(d), "{n} differs");
        }
    }
    // And the slots themselves: every unnamed file where it was.
    let ours = Parsed::new(&std::fs::read(&path).unwrap());
    assert_eq!(ours.hashes.len(), size);
    for i in (1..names.len()).step_by(2).filter(|&i| i != dropped) {
        assert_eq!(
            ours.hashes[slot[i]][..2],
            orig.hashes[slot[i]][..2],
            "{}",
            names[i]
        );
    }

    // Without keeping the left-out file's slot, the chain breaks there: StormLib no
    // longer finds the victim by name (which is why the writer takes the slots).
    let path = write_to(&dir, "broken.mpq", build(false));
    let listed = list(&smpq, &path, Some(&listfile));
    assert!(!listed.iter().any(|l| l.name == names[victim]));
    assert_eq!(listed.len(), kept);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What cannot be written is refused with a clear error.
#[test]
fn impossible_tables_are_errors() {
    let hashed = |index| NewFile {
        name: EntryName::Hashed {
            index,
            name_a: index,
            name_b: 7,
        },
        locale: 0,
        platform: 0,
        data: vec![1, 2, 3],
        filetime: None,
    };
    let mut w = ArchiveWriter::new();
    w.add(hashed(3));
    assert_eq!(w.write().unwrap_err(), WriteError::HashedNeedsTableSize);

    let mut w = ArchiveWriter::new();
    w.hash_table_size(4);
    for i in 0..3 {
        w.add(hashed(i));
    }
    // Three files, the listfile and the attributes need five entries.
    assert_eq!(
        w.write().unwrap_err(),
        WriteError::TableFull {
            entries: 5,
            size: 4
        }
    );

    let mut w = ArchiveWriter::new();
    w.hash_table_size(16).add(hashed(16));
    assert_eq!(
        w.write().unwrap_err(),
        WriteError::HashedIndexOutOfRange {
            index: 16,
            size: 16
        }
    );

    let mut w = ArchiveWriter::new();
    let mut other = hashed(5);
    other.name = EntryName::Hashed {
        index: 5,
        name_a: 1,
        name_b: 2,
    };
    w.hash_table_size(16).add(hashed(5)).add(other);
    assert_eq!(w.write().unwrap_err(), WriteError::HashedSlotTaken(5));

    // One name twice (any case, either slash) in one locale.
    let mut w = ArchiveWriter::new();
    w.add(named("war3mapImported\\a.mdx", vec![1]));
    w.add(named("WAR3MAPIMPORTED/A.MDX", vec![2]));
    assert!(matches!(
        w.write().unwrap_err(),
        WriteError::DuplicateName(_)
    ));
    let mut w = ArchiveWriter::new();
    w.add(named("a\nb", vec![1]));
    assert!(matches!(w.write().unwrap_err(), WriteError::BadName(_)));
    let mut w = ArchiveWriter::new();
    w.sector_size_shift(23);
    assert_eq!(w.write().unwrap_err(), WriteError::BadSectorShift(23));
}

/// The input's special files are replaced (the listfile, the attributes) or dropped (the
/// signature), and the report says so; the generated listfile names every named file.
#[test]
fn special_files_are_replaced() {
    let Some(smpq) = smpq() else { return };
    let dir = temp_dir("special");
    let mut w = ArchiveWriter::new();
    w.add(named("(listfile)", b"stale.txt\r\n".to_vec()));
    w.add(named("(Attributes)", vec![0; 40]));
    w.add(named("(signature)", vec![0; 72]));
    w.add(named("war3map.j", text(1, 1000)));
    w.add(named("war3mapImported/model.mdx", text(2, 5000)));
    let (bytes, report) = w.write().unwrap();
    assert!(report.signature_dropped);
    assert_eq!(
        report.replaced,
        ["(listfile)", "(attributes)", "(signature)"]
    );
    assert_eq!(report.files, 2);
    let path = dir.join("special.w3x");
    std::fs::write(&path, &bytes).unwrap();
    let parsed = Parsed::new(&bytes);
    assert!(parsed.find("(signature)").is_none());
    assert_eq!(
        parsed.read(&bytes, "(listfile)"),
        b"war3map.j\r\nwar3mapImported\\model.mdx\r\n"
    );
    let names: BTreeSet<String> = list(&smpq, &path, None)
        .into_iter()
        .map(|l| l.name)
        .collect();
    assert_eq!(
        names,
        BTreeSet::from(["war3map.j".into(), "war3mapImported\\model.mdx".into()])
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The `File%08u.ext` names StormLib gives files it has no name for (the number is the
/// block index).
fn pseudo_block(name: &str) -> Option<u32> {
    let digits = name.strip_prefix("File")?.get(..8)?;
    let rest = &name[12..];
    (rest.starts_with('.') && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

/// Every shared archive: StormLib extracts it, we write its files into a new archive
/// (with its `HM3W` header, the unnamed files kept by their hash entries) and StormLib
/// lists and extracts the new one with the same files and bytes.
#[test]
fn shared_archives_rewritten() {
    let Some(smpq) = smpq() else { return };
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/archives");
    let Ok(entries) = std::fs::read_dir(&shared) else {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{shared:?} is missing");
        }
        eprintln!("skipped: no {shared:?}");
        return;
    };
    let mut paths: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "md" && e != "tsv"))
        .collect();
    paths.sort();
    assert_eq!(paths.len(), 14);
    let dir = temp_dir("shared");
    let (mut total_files, mut total_unnamed, mut failed_total) = (0, 0, 0);
    let (mut total_seconds, mut total_data, mut total_in, mut total_out) = (0.0, 0, 0, 0);
    for path in &paths {
        let file_name = path.file_name().unwrap().to_string_lossy().to_string();
        let original = std::fs::read(path).unwrap();
        let (files, failed) = extract(&smpq, path, None);
        let files: BTreeMap<String, Vec<u8>> = files
            .into_iter()
            .filter(|(n, _)| !failed.contains(n))
            .collect();
        let unnamed: Vec<&String> = files.keys().filter(|n| pseudo_block(n).is_some()).collect();
        let mut w = ArchiveWriter::new();
        if original.starts_with(b"HM3W") {
            w.prefix(original[..512].to_vec());
        }
        // The original's sector size (its header's shift field, which protectors leave).
        let header = (0..original.len())
            .step_by(512)
            .find(|&o| original[o..].starts_with(b"MPQ\x1A"))
            .unwrap();
        let shift = u16::from_le_bytes([original[header + 14], original[header + 15]]);
        w.sector_size_shift(shift);
        // Only unnamed files need the original table, which our test reader reads for
        // these (unprotected) archives.
        let orig = (!unnamed.is_empty()).then(|| Parsed::new(&original));
        if let Some(orig) = &orig {
            w.hash_table_size(orig.hashes.len() as u32);
            w.keep_slots(
                (0..orig.hashes.len() as u32)
                    .filter(|&s| orig.hashes[s as usize][3] != 0xFFFF_FFFF),
            );
        }
        // Where each unnamed file was: block -> slot.
        let mut slot_of = BTreeMap::new();
        for (name, data) in &files {
            let name = match (pseudo_block(name), &orig) {
                (Some(block), Some(orig)) => {
                    let slot = orig.hashes.iter().position(|h| h[3] == block).unwrap();
                    slot_of.insert(name.clone(), slot);
                    let h = orig.hashes[slot];
                    w.add(NewFile {
                        name: EntryName::Hashed {
                            index: slot as u32,
                            name_a: h[0],
                            name_b: h[1],
                        },
                        locale: (h[2] & 0xFFFF) as u16,
                        platform: (h[2] >> 16) as u16,
                        data: data.clone(),
                        filetime: None,
                    });
                    continue;
                }
                _ => name.clone(),
            };
            w.add(named(&name, data.clone()));
        }
        let clock = std::time::Instant::now();
        let (bytes, report) = w.write().unwrap();
        let seconds = clock.elapsed().as_secs_f64();
        total_seconds += seconds;
        total_data += report.data_bytes;
        let out = dir.join(&file_name);
        std::fs::write(&out, &bytes).unwrap();
        if original.starts_with(b"HM3W") {
            assert_eq!(bytes[..512], original[..512]);
        }

        // StormLib on ours: the same names (the unnamed ones under new block numbers)...
        let listed = list(&smpq, &out, None);
        assert_eq!(listed.len(), files.len(), "{file_name}");
        let named_in: BTreeSet<&String> =
            files.keys().filter(|n| pseudo_block(n).is_none()).collect();
        let named_out: BTreeSet<&String> = listed
            .iter()
            .map(|l| &l.name)
            .filter(|n| pseudo_block(n).is_none())
            .collect();
        assert_eq!(named_in, named_out, "{file_name}");
        // ... and the same bytes.
        let (ours, ours_failed) = extract(&smpq, &out, None);
        assert!(ours_failed.is_empty(), "{file_name}: {ours_failed:?}");
        assert_eq!(ours.len(), files.len(), "{file_name}");
        let parsed = (!unnamed.is_empty()).then(|| Parsed::new(&bytes));
        for (name, data) in &files {
            let got = match (slot_of.get(name), &parsed) {
                (Some(&slot), Some(p)) => {
                    let prefix = format!("File{:08}.", p.hashes[slot][3]);
                    ours.iter()
                        .find(|(n, _)| n.starts_with(&prefix))
                        .map(|(_, d)| d)
                }
                _ => ours.get(name),
            };
            assert!(got == Some(data), "{file_name}: {name} differs");
        }
        // StormLib can add to it, and everything is still there.
        std::fs::write(dir.join("added by stormlib.txt"), file_name.as_bytes()).unwrap();
        let added = Command::new(&smpq)
            .current_dir(&dir)
            .args(["-a", &file_name, "added by stormlib.txt"])
            .output()
            .unwrap();
        assert!(added.status.success(), "{file_name}: {added:?}");
        let (after, after_failed) = extract(&smpq, &out, None);
        assert!(after_failed.is_empty(), "{file_name}: {after_failed:?}");
        assert_eq!(after.len(), files.len() + 1, "{file_name}");
        assert_eq!(after["added by stormlib.txt"], file_name.as_bytes());
        let mut before: Vec<&Vec<u8>> = ours.values().collect();
        let mut now: Vec<&Vec<u8>> = after
            .iter()
            .filter(|(n, _)| *n != "added by stormlib.txt")
            .map(|(_, d)| d)
            .collect();
        before.sort();
        now.sort();
        assert!(
            before == now,
            "{file_name}: files changed by StormLib's append"
        );
        eprintln!(
            "{file_name}: {} files ({} unnamed, {} unreadable by StormLib left out), {} -> {} bytes, sector shift {shift}, hash table {}, written in {:.0} ms",
            files.len(),
            unnamed.len(),
            failed.len(),
            original.len(),
            bytes.len(),
            report.hash_table_size,
            seconds * 1000.0
        );
        total_in += original.len();
        total_out += bytes.len();
        total_files += files.len();
        total_unnamed += unnamed.len();
        failed_total += failed.len();
    }
    eprintln!(
        "{} archives, {total_files} files ({total_unnamed} unnamed) rewritten and read back equal; {failed_total} files StormLib could not read in the originals; {total_in} -> {total_out} bytes; {:.1} MB of file data written in {total_seconds:.2} s",
        paths.len(),
        total_data as f64 / 1e6
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
