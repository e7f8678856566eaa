//! A second oracle for BLP decoding: the `wc3` crate (0.2, feature `blp-decode`) decodes
//! every BLP of the shared corpus (`../shared/corpus/textures`, kinds `blp1-jpeg`,
//! `blp1-palette`, `blp2-*`), every mip level it holds, and so do we. Sizes are compared,
//! then pixels. Every disagreement falls in a named class below, with the evidence for
//! which side is right; the test asserts how many files and levels each class holds, so a
//! change in either decoder shows up here. The summary (`--nocapture`) lists the files of
//! every class. With `MDLX_WC3_PNG=<folder>` it also writes both decodings of every level
//! that disagrees as PNG, to look at.
//!
//! Where both decode a level at the same size, the pixels are identical: tolerance 0 for
//! every kind, JPEG included. That is no independent check of the JPEG IDCT: `wc3` 0.2 and
//! we both decode BLP1 JPEG with `zune-jpeg` (0.5.15 in Cargo.lock). The independent JPEG
//! check is Pillow (libjpeg) in `textures_corpus.rs`. For palettes, BGRA and DXT1/3/5
//! `wc3` has its own code, so agreement there is independent.

mod common;

use common::texture_corpus;
use mdlx::texture::{png, RgbaImage, Texture};
use std::collections::BTreeMap;
use std::path::PathBuf;
use wc3::blp::{BlpRef, DecodeError, ReadErrorKind};

/// How one level (or, for the `Wc3Refuses*` classes, one file) compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    /// Same size, identical pixels.
    Same,
    /// `wc3` refuses the whole file: mip 0 starts inside the 1024-byte palette area (a
    /// "compact palette", corpus README). Ours is right: the README documents these as
    /// real files whose pixel data starts at mip offset 0; our level 0 of each, viewed as
    /// PNG, is a clean picture (e.g. `GutsBody_texture.blp`, a body texture;
    /// `btn_crop.blp`, button art), and Pillow, which reads after the full palette, fails
    /// or shifts them (README).
    Wc3RefusesCompactPalette,
    /// `wc3` refuses the whole file: a mip entry listed below the 1x1 level is malformed
    /// (it points past the end of the file, README "truncated mip chains"; or has an
    /// offset and size 0, or size and offset 0). Ours is right: such an entry is no level
    /// of the chain, and we ignore it. Evidence: with those entries zeroed, `wc3` reads
    /// the file and agrees with us on every level (asserted).
    Wc3RefusesBadEntryBelow1x1,
    /// Per level: a palette level whose entry holds more bytes than its indices and alpha
    /// plane need; `wc3` insists on the exact size and refuses the level. These are
    /// writers that point the smaller levels at a larger level's data (checked on
    /// `DISBTNAdmiralHat.blp`, levels 2 to 6 at level 1's offset and size, 1024 bytes; and
    /// `Videl_01_Body_MASKs.blp`, level 10 at level 9's), so no decoder gets a real
    /// downscale from them. Ours reads the format literally (the indices and alpha
    /// that start at the offset; the rest is ignored), which is what the format defines;
    /// with the size entry set to the exact need, `wc3` gives the same pixels (asserted).
    /// Level 0 of these files agrees.
    PaletteLevelLongerThanNeeded,
    /// Per level: a JPEG level whose frame is larger than the level (a writer stored a
    /// larger level's JPEG again, e.g. `SmileyGW.blp` stores the 256x256 picture at every
    /// level; or rounded an odd halving up, 1x2 for 1x1). `wc3` returns the level's size,
    /// cut from the top-left of the frame (asserted exactly: its pixels are the crop of
    /// ours); we return the whole frame. Ours is right: the PNGs show `wc3`'s level 1 of
    /// `SmileyGW.blp` as the top-left quarter of the face, ours as the whole face, which a
    /// caller can scale to the level's size.
    JpegFrameLargerThanLevel,
    /// Per level: `wc3` decodes an entry listed below the 1x1 level (one writer lists 1-2
    /// extra entries, README "oddities"); we list no such level. Ours is right: a chain
    /// ends at 1x1, and `wc3` itself can only make a 1x1 image of them.
    Wc3DecodesEntryBelow1x1,
    /// Per level: the header says `hasMipmaps` = 0 but lists more entries; `wc3` ignores
    /// the flag and decodes them, we follow the flag and list level 0 only. A policy
    /// difference, not a pixel error: level 0 agrees, and the flag is what the header
    /// states (`mashlol .. war3mapMap.blp`, a minimap, which the game shows at one size).
    Wc3DecodesLevelsOfHasMipmaps0,
    /// Anything else; expected never.
    Unexplained,
}

/// Files and levels expected in each class. Files: the files with at least one level (or
/// the whole file) in the class. Levels: for `Wc3Refuses*` the file counts once.
const EXPECTED: &[(Class, usize, usize)] = &[
    (Class::Same, 387, 3169),
    (Class::Wc3RefusesCompactPalette, 4, 4),
    (Class::Wc3RefusesBadEntryBelow1x1, 3, 3),
    (Class::PaletteLevelLongerThanNeeded, 5, 21),
    (Class::JpegFrameLargerThanLevel, 18, 46),
    (Class::Wc3DecodesEntryBelow1x1, 46, 84),
    (Class::Wc3DecodesLevelsOfHasMipmaps0, 1, 8),
];

fn full_chain(width: u32, height: u32) -> usize {
    (32 - width.max(height).max(1).leading_zeros()) as usize
}

/// An entry `wc3` refuses: offset or size zero but not both, or past the end of the file.
fn bad_entry(offset: u32, size: u32, len: usize) -> bool {
    (offset == 0) != (size == 0) || (offset as usize).saturating_add(size as usize) > len
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// The offset table of the mip entries (sizes 64 bytes later).
fn table(bytes: &[u8]) -> usize {
    if bytes.starts_with(b"BLP1") {
        28
    } else {
        20
    }
}

/// Whether the header's has-mipmaps flag is set.
fn has_mipmaps(bytes: &[u8]) -> bool {
    if bytes.starts_with(b"BLP1") {
        le32(bytes, 24) != 0
    } else {
        bytes[11] & 1 != 0
    }
}

/// `big`'s top-left `w` x `h`.
fn crop(big: &RgbaImage, w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for y in 0..h as usize {
        let row = y * big.width as usize * 4;
        out.extend_from_slice(&big.pixels[row..row + w as usize * 4]);
    }
    out
}

struct Dump(Option<PathBuf>);

impl Dump {
    fn write(&self, name: &str, level: usize, who: &str, img: &RgbaImage) {
        if let Some(dir) = &self.0 {
            let path = dir.join(format!("{name}.{level}.{who}.png"));
            std::fs::write(path, png::to_bytes(img)).unwrap();
        }
    }
}

/// Compares every level of one file that `wc3` has read; `bytes` is what `wc3` read (the
/// file, or a patched copy). Returns the class of each level.
fn compare_levels(
    name: &str,
    bytes: &[u8],
    ours: &Texture,
    theirs: &BlpRef,
    dump: &Dump,
) -> Vec<(usize, Class)> {
    let mut out = Vec::new();
    let (w0, h0) = (ours.width, ours.height);
    for n in 0..wc3::blp::MIPMAP_SLOTS {
        let a = (n < ours.mip_count()).then(|| ours.decode_level(n).unwrap());
        let b = theirs.decode_mip(n);
        let class = match (&a, &b) {
            (None, Err(DecodeError::MissingMipmap { .. })) => continue,
            (None, Ok(_)) if n >= full_chain(w0, h0) => Class::Wc3DecodesEntryBelow1x1,
            (None, Ok(_)) if !has_mipmaps(bytes) => Class::Wc3DecodesLevelsOfHasMipmaps0,
            (Some(a), Ok(b)) if (a.width, a.height) == (b.width(), b.height()) => {
                if a.pixels == b.as_raw().as_slice() {
                    Class::Same
                } else {
                    Class::Unexplained
                }
            }
            (Some(a), Ok(b)) => {
                let jpeg = ours.kind == mdlx::texture::TextureKind::Blp1Jpeg;
                if jpeg
                    && a.width >= b.width()
                    && a.height >= b.height()
                    && crop(a, b.width(), b.height()) == b.as_raw().as_slice()
                {
                    Class::JpegFrameLargerThanLevel
                } else {
                    Class::Unexplained
                }
            }
            (Some(a), Err(DecodeError::InvalidData { field })) if field.contains("indexed") => {
                // Give wc3 the exact size the level needs and decode again.
                let t = table(bytes);
                let size_at = t + 64 + 4 * n;
                let bits = ours.alpha_bits as usize;
                let count = a.width as usize * a.height as usize;
                let need = count + (count * bits).div_ceil(8);
                let listed = le32(bytes, size_at) as usize;
                let mut patched = bytes.to_vec();
                patched[size_at..size_at + 4].copy_from_slice(&(need as u32).to_le_bytes());
                let again = BlpRef::read(&patched).map(|r| r.decode_mip(n));
                match again {
                    Ok(Ok(b)) if listed > need && b.as_raw().as_slice() == a.pixels => {
                        Class::PaletteLevelLongerThanNeeded
                    }
                    _ => Class::Unexplained,
                }
            }
            _ => Class::Unexplained,
        };
        if class != Class::Same {
            if let Some(a) = &a {
                dump.write(name, n, "ours", a);
            }
            if let Ok(b) = &b {
                let b = RgbaImage {
                    width: b.width(),
                    height: b.height(),
                    pixels: b.as_raw().clone(),
                };
                dump.write(name, n, "wc3", &b);
            }
        }
        out.push((n, class));
    }
    out
}

#[test]
fn every_corpus_blp_against_wc3() {
    let Some(dir) = texture_corpus("textures_vs_wc3") else {
        return;
    };
    let dump = Dump(std::env::var_os("MDLX_WC3_PNG").map(PathBuf::from));
    if let Some(d) = &dump.0 {
        std::fs::create_dir_all(d).unwrap();
    }
    let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    // class -> (files, levels)
    let mut tally: BTreeMap<Class, (Vec<String>, usize)> = BTreeMap::new();
    let mut blps = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if !f[5].starts_with("blp") {
            continue;
        }
        blps += 1;
        let name = f[0];
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let ours = Texture::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut classes = Vec::new();
        match BlpRef::read(&bytes) {
            Ok(theirs) => classes = compare_levels(name, &bytes, &ours, &theirs, &dump),
            Err(e) => {
                let ReadErrorKind::InvalidRange { level } = e.kind else {
                    panic!("{name}: wc3 refuses it: {e}");
                };
                let t = table(&bytes);
                let offset = le32(&bytes, t + 4 * level) as usize;
                let size = le32(&bytes, t + 64 + 4 * level) as usize;
                let class = if level == 0 && bytes.starts_with(b"BLP1") && offset < 156 + 1024 {
                    // Every level of ours decodes.
                    for n in 0..ours.mip_count() {
                        let a = ours.decode_level(n).unwrap();
                        dump.write(name, n, "ours", &a);
                    }
                    Class::Wc3RefusesCompactPalette
                } else if level >= full_chain(ours.width, ours.height)
                    && bad_entry(offset as u32, size as u32, bytes.len())
                {
                    // Zero every malformed entry below 1x1.
                    let mut patched = bytes.clone();
                    for l in full_chain(ours.width, ours.height)..wc3::blp::MIPMAP_SLOTS {
                        let (o, s) = (le32(&bytes, t + 4 * l), le32(&bytes, t + 64 + 4 * l));
                        if bad_entry(o, s, bytes.len()) {
                            patched[t + 4 * l..t + 4 * l + 4].fill(0);
                            patched[t + 64 + 4 * l..t + 68 + 4 * l].fill(0);
                        }
                    }
                    let theirs = BlpRef::read(&patched).unwrap();
                    let levels = compare_levels(name, &patched, &ours, &theirs, &dump);
                    if levels.iter().all(|&(_, c)| c == Class::Same) {
                        Class::Wc3RefusesBadEntryBelow1x1
                    } else {
                        Class::Unexplained
                    }
                } else {
                    Class::Unexplained
                };
                classes.push((0, class));
            }
        }
        for (n, class) in classes {
            let entry = tally.entry(class).or_default();
            entry.1 += 1;
            let label = if class == Class::Same {
                name.to_string()
            } else {
                format!("{name} (level {n})")
            };
            if entry.0.last().map(|l| l.split(" (").next() != Some(name)) != Some(false) {
                entry.0.push(label);
            } else if class != Class::Same {
                let last = entry.0.last_mut().unwrap();
                last.truncate(last.len() - 1);
                last.push_str(&format!(", {n})"));
            }
        }
    }

    println!("textures_vs_wc3: {blps} BLP files; per class, files and levels:");
    for (class, (files, levels)) in &tally {
        println!("  {class:?}: {} files, {levels} levels", files.len());
        if *class != Class::Same {
            for f in files {
                println!("    {f}");
            }
        }
    }
    let got: Vec<(Class, usize, usize)> =
        tally.iter().map(|(c, (f, l))| (*c, f.len(), *l)).collect();
    assert_eq!(got, EXPECTED, "classes changed (see the summary above)");
}
