//! Telling the WoW alpha family from Warcraft III (Reforged) for MDX 1300/1400/1500
//! (`mdlx::mdx::classify_family`): real and hand-built files of both families are
//! classified right, files mixed chunk by chunk from both are refused with a reason that
//! names the chunks and offsets, and cut, spliced and size-flipped files never panic and
//! are never classified against a chunk that only fits the other family.
//!
//! The Warcraft III 1300/1400 files come from the `wc3` crate's writer (an independent
//! implementation), built from MDL text, and from a hand-built Reforged-shaped file.

mod common;
#[allow(dead_code)]
#[path = "alpha/fixtures.rs"]
mod fixtures;

use fixtures::{bounds, hand_built, reforged_header};

use std::panic::{catch_unwind, AssertUnwindSafe};

use mdlx::alpha;
use mdlx::mdx::{self, classify_family, MdxErrorKind};
use mdlx::model::Family;

fn boar_bytes() -> Vec<u8> {
    let p = common::corpus_dir().join("mdx/GrenderG__MDX-Parser__MDXParser__Files__Boar.mdx");
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The wc3 crate's quad model (its `tests/fixtures/mdl/quad_model.mdl`) with a helper,
/// an attachment, an event object, a collision shape, a light and a camera added, as
/// `version` (lights and cameras carry the fields of 1300/1400 that this crate's reader
/// does not type yet: only the framing is classified).
fn wc3_mdl(version: u32) -> String {
    format!(
        r#"Version {{ FormatVersion {version}, }}
Model "Quad" {{ MinimumExtent {{ -16.0, -16.0, 0.0 }}, MaximumExtent {{ 16.0, 16.0, 0.0 }}, BoundsRadius 22.63, }}
Sequences 2 {{
    Anim "Stand" {{ Interval {{ 0, 1000 }}, MinimumExtent {{ -16.0, -16.0, 0.0 }}, MaximumExtent {{ 16.0, 16.0, 0.0 }}, BoundsRadius 22.63, }}
    Anim "Walk" {{ Interval {{ 1000, 2000 }}, MoveSpeed 200.0, }}
}}
Textures 1 {{ Bitmap {{ Image "Textures\Quad.blp", }} }}
Materials 1 {{ Material {{ Layer {{ FilterMode None, static TextureID 0, }} }} }}
Geoset {{
    Vertices 4 {{ {{ -16.0, -16.0, 0.0 }}, {{ 16.0, -16.0, 0.0 }}, {{ 16.0, 16.0, 0.0 }}, {{ -16.0, 16.0, 0.0 }}, }}
    Normals 4 {{ {{ 0.0, 0.0, 1.0 }}, {{ 0.0, 0.0, 1.0 }}, {{ 0.0, 0.0, 1.0 }}, {{ 0.0, 0.0, 1.0 }}, }}
    TVertices 4 {{ {{ 0.0, 1.0 }}, {{ 1.0, 1.0 }}, {{ 1.0, 0.0 }}, {{ 0.0, 0.0 }}, }}
    VertexGroup {{ 0, 0, 0, 0, }}
    Faces 1 6 {{ Triangles {{ {{ 0, 1, 2, 0, 2, 3 }}, }} }}
    Groups 1 1 {{ Matrices {{ 0 }}, }}
    MaterialID 0,
    SelectionGroup 0,
    MinimumExtent {{ -16.0, -16.0, 0.0 }},
    MaximumExtent {{ 16.0, 16.0, 0.0 }},
    BoundsRadius 22.63,
}}
Bone "Bone_Root" {{ ObjectId 0, GeosetId 0, GeosetAnimId None, }}
Helper "Helper_Mid" {{ ObjectId 1, Parent 0, }}
Attachment "Origin Ref" {{ ObjectId 2, Parent 0, AttachmentID 0, }}
EventObject "SNDxTEST" {{ ObjectId 3, EventTrack 1 {{ 500, }} }}
CollisionShape "Collision" {{ ObjectId 4, Sphere, Vertices 1 {{ {{ 0.0, 0.0, 0.0 }}, }} BoundsRadius 20.0, }}
Light "Omni" {{ ObjectId 5, Omnidirectional, static AttenuationStart 80.0, static AttenuationEnd 200.0, static Intensity 1.0, static Color {{ 1.0, 1.0, 1.0 }}, static AmbIntensity 0.0, static AmbColor {{ 1.0, 1.0, 1.0 }}, }}
PivotPoints 6 {{ {{ 0.0, 0.0, 0.0 }}, {{ 0.0, 0.0, 8.0 }}, {{ 0.0, 0.0, 0.0 }}, {{ 0.0, 0.0, 0.0 }}, {{ 0.0, 0.0, 0.0 }}, {{ 0.0, 0.0, 0.0 }}, }}
Camera "Portrait" {{ Position {{ 0.0, 0.0, 100.0 }}, FieldOfView 0.78, FarClip 1000.0, NearClip 8.0, Target {{ Position {{ 0.0, 0.0, 0.0 }}, }} }}
"#
    )
}

/// A Reforged 1300 or 1400 file written by the `wc3` crate.
fn wc3_file(version: u32) -> Vec<u8> {
    use wc3::model::mdl::Read as _;
    use wc3::model::mdx::Write as _;
    let text = wc3_mdl(version);
    let bytes = match version {
        1300 => wc3::model::Model::<wc3::model::V1300>::decode_mdl(&text)
            .unwrap()
            .encode_mdx(),
        1400 => wc3::model::Model::<wc3::model::V1400>::decode_mdl(&text)
            .unwrap()
            .encode_mdx(),
        _ => unreachable!(),
    };
    bytes.unwrap()
}

/// A hand-built Warcraft III-shaped file: 372-byte MODL, 132-byte sequences, a helper
/// and a bone without counts, a size-framed material and geoset.
fn reforged_shaped(version: u32) -> Vec<u8> {
    let mut b = reforged_header(version);
    b.chunk(b"MTLS", |b| {
        b.sized(|b| {
            b.u32(0).u32(0).tag(b"LAYS").u32(0);
        });
    });
    b.chunk(b"GEOS", |b| {
        b.sized(|b| {
            b.tag(b"VRTX").u32(1).f32s(&[0.0; 3]);
            b.tag(b"NRMS").u32(1).f32s(&[0.0, 0.0, 1.0]);
            b.tag(b"PTYP")
                .u32(0)
                .tag(b"PCNT")
                .u32(0)
                .tag(b"PVTX")
                .u32(0);
            b.tag(b"GNDX")
                .u32(0)
                .tag(b"MTGC")
                .u32(0)
                .tag(b"MATS")
                .u32(0);
            b.u32(0).u32(0).u32(0).u32(0).text("", 80);
            bounds(b, 1.0, [0.0; 3], [1.0; 3]);
            b.u32(0).tag(b"UVAS").u32(0);
        });
    });
    b.chunk(b"HELP", |b| {
        b.sized(|b| {
            b.text("Helper", 80).u32(0).i32(-1).u32(1);
        });
    });
    b.chunk(b"BONE", |b| {
        b.sized(|b| {
            b.text("Bone", 80).u32(1).i32(0).u32(0x100);
        });
        b.i32(-1).i32(-1);
    });
    b.chunk(b"PIVT", |b| {
        b.f32s(&[0.0; 6]);
    });
    b.0
}

/// A chunk: its tag and its whole bytes, header included.
type Chunk = ([u8; 4], Vec<u8>);

/// A chunk of a mixed file and the family it came from.
type Part<'a> = (Origin, &'a Chunk);

/// Two files of one version number: (version, alpha name, alpha file, Warcraft III name,
/// Warcraft III file).
type Pair = (u32, &'static str, Vec<u8>, &'static str, Vec<u8>);

/// A file's chunks, after the `MDLX` magic.
fn split(data: &[u8]) -> Vec<Chunk> {
    let mut out = Vec::new();
    let mut at = 4;
    while at + 8 <= data.len() {
        let size = u32::from_le_bytes(data[at + 4..at + 8].try_into().unwrap()) as usize;
        let end = at + 8 + size;
        assert!(end <= data.len(), "test inputs are whole");
        out.push((data[at..at + 4].try_into().unwrap(), data[at..end].to_vec()));
        at = end;
    }
    // The hand-built 1400 file ends with 3 bytes that are no chunk (kept by the reader).
    assert!(data.len() - at < 8);
    out
}

/// Chunks whose layout differs between the families (see `mdlx::mdx::family`).
const DIFFERING: [&[u8; 4]; 20] = [
    b"MODL", b"SEQS", b"MTLS", b"TXAN", b"GEOA", b"GEOS", b"BONE", b"HELP", b"EVTS", b"CLID",
    b"LITE", b"ATCH", b"PREM", b"PRE2", b"RIBB", b"CAMS", b"HTST", b"CORN", b"FAFX", b"BPOS",
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Origin {
    Alpha,
    Warcraft,
}

/// A file built from chunks of known origin.
struct Mixed {
    bytes: Vec<u8>,
    /// (origin, tag, offset, end) of each chunk that tells a family.
    telling: Vec<(Origin, [u8; 4], usize, usize)>,
}

fn assemble(version: u32, parts: &[Part]) -> Mixed {
    let mut bytes = b"MDLXVERS\x04\0\0\0".to_vec();
    bytes.extend_from_slice(&version.to_le_bytes());
    let mut telling = Vec::new();
    for (origin, (tag, chunk)) in parts {
        if *tag == *b"VERS" {
            continue;
        }
        if DIFFERING.contains(&tag) {
            telling.push((*origin, *tag, bytes.len(), bytes.len() + chunk.len()));
        }
        bytes.extend_from_slice(chunk);
    }
    Mixed { bytes, telling }
}

#[derive(Default, Debug)]
struct Tally {
    tried: usize,
    alpha: usize,
    warcraft: usize,
    refused: usize,
}

/// Classifies `data`; checks it does not panic and that a classification agrees with
/// every whole chunk of known origin in the first `len` bytes.
fn check(t: &mut Tally, what: &str, data: &[u8], telling: &[(Origin, [u8; 4], usize, usize)]) {
    t.tried += 1;
    let got = catch_unwind(AssertUnwindSafe(|| classify_family(data)))
        .unwrap_or_else(|_| panic!("{what}: classify_family panicked"));
    let against = |o: Origin| {
        telling
            .iter()
            .find(|(origin, _, _, end)| *origin == o && *end <= data.len())
    };
    match got {
        Ok(Family::WowAlpha) => {
            t.alpha += 1;
            if let Some(c) = against(Origin::Warcraft) {
                panic!("{what}: classified alpha with a Warcraft III chunk {c:?}");
            }
        }
        Ok(_) => {
            t.warcraft += 1;
            if let Some(c) = against(Origin::Alpha) {
                panic!("{what}: classified Warcraft III with an alpha chunk {c:?}");
            }
        }
        Err(e) => {
            t.refused += 1;
            assert!(
                matches!(e.kind, MdxErrorKind::FamilyUnclear { .. }),
                "{what}: {e}"
            );
        }
    }
}

fn pairs() -> Vec<Pair> {
    let relabel = |mut d: Vec<u8>, v: u32| {
        d[12..16].copy_from_slice(&v.to_le_bytes());
        d
    };
    let mut out = vec![
        (1300, "boar", boar_bytes(), "wc3 1300", wc3_file(1300)),
        (
            1300,
            "boar",
            boar_bytes(),
            "shaped 1300",
            reforged_shaped(1300),
        ),
        (
            1400,
            "hand 1400",
            hand_built(1400),
            "wc3 1400",
            wc3_file(1400),
        ),
        (
            1400,
            "hand 1400",
            hand_built(1400),
            "shaped 1400",
            reforged_shaped(1400),
        ),
        // No Warcraft III version 1500 exists; its framing is that of every version.
        (
            1500,
            "hand 1500",
            hand_built(1500),
            "wc3 as 1500",
            relabel(wc3_file(1400), 1500),
        ),
    ];
    for (_, _, a, _, w) in &mut out {
        // The files' own VERS chunks come first: `assemble` relies on it.
        assert_eq!(&a[4..8], b"VERS");
        assert_eq!(&w[4..8], b"VERS");
    }
    out
}

#[test]
fn both_families_are_classified_right() {
    let boar = boar_bytes();
    let cases: Vec<(&str, Vec<u8>, Family)> = vec![
        ("boar 1300", boar.clone(), Family::WowAlpha),
        ("hand-built 1400", hand_built(1400), Family::WowAlpha),
        ("hand-built 1500", hand_built(1500), Family::WowAlpha),
        ("shaped 1300", reforged_shaped(1300), Family::Reforged),
        ("shaped 1400", reforged_shaped(1400), Family::Reforged),
        ("wc3 1300", wc3_file(1300), Family::Reforged),
        ("wc3 1400", wc3_file(1400), Family::Reforged),
    ];
    for (name, data, family) in &cases {
        let tags: Vec<String> = split(data)
            .iter()
            .map(|(t, _)| String::from_utf8_lossy(t).into_owned())
            .collect();
        println!("{name}: {} bytes, chunks {}", data.len(), tags.join(" "));
        assert_eq!(classify_family(data), Ok(*family), "{name}");
        assert_eq!(mdx::detect_family(data), *family, "{name}");
        assert_eq!(alpha::is_alpha(data), *family == Family::WowAlpha, "{name}");
        assert_eq!(
            mdlx::identify(data).format(),
            Some(if *family == Family::WowAlpha {
                mdlx::Format::AlphaMdx
            } else {
                mdlx::Format::Mdx
            }),
            "{name}"
        );
    }
    // The wc3 files hold every chunk the Warcraft III reader types at these versions; it
    // reads them whole and writes them back byte-identical (their lights and cameras have
    // the 1300+ layouts); the alpha reader refuses them as before.
    for v in [1300, 1400] {
        let f = wc3_file(v);
        let tags: Vec<[u8; 4]> = split(&f).into_iter().map(|(t, _)| t).collect();
        for t in [
            b"SEQS", b"MTLS", b"TEXS", b"GEOS", b"BONE", b"HELP", b"ATCH", b"EVTS", b"CLID",
            b"LITE", b"CAMS",
        ] {
            assert!(tags.contains(t), "{v}: {}", String::from_utf8_lossy(t));
        }
        let m = mdx::from_bytes(&f).unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!((m.lights.len(), m.cameras.len()), (1, 1), "{v}");
        assert!(
            mdx::to_bytes(&m).unwrap() == f,
            "{v}: rewritten differently"
        );
        let e = alpha::from_bytes(&f).unwrap_err();
        assert!(matches!(e.kind, MdxErrorKind::UnknownLayout { value, .. } if value == v));
    }
}

#[test]
fn one_chunk_of_the_other_family_is_refused_with_its_offset() {
    let mut t = Tally::default();
    for (version, an, a, wn, w) in pairs() {
        let (ac, wc) = (split(&a), split(&w));
        // Each telling chunk of one family put into a file of the other, at the end and
        // in place of the chunk of the same tag.
        for (host, host_name, guests, guest_origin) in [
            (&ac, an, &wc, Origin::Warcraft),
            (&wc, wn, &ac, Origin::Alpha),
        ] {
            let host_origin = match guest_origin {
                Origin::Alpha => Origin::Warcraft,
                Origin::Warcraft => Origin::Alpha,
            };
            for guest in guests.iter().filter(|(tag, _)| DIFFERING.contains(&tag)) {
                let tag = String::from_utf8_lossy(&guest.0).into_owned();
                let mut appended: Vec<_> = host.iter().map(|c| (host_origin, c)).collect();
                appended.push((guest_origin, guest));
                let replaced: Vec<_> = host
                    .iter()
                    .map(|c| {
                        if c.0 == guest.0 {
                            (guest_origin, guest)
                        } else {
                            (host_origin, c)
                        }
                    })
                    .collect();
                let mut modes = vec![("appended", appended)];
                if host.iter().any(|c| c.0 == guest.0) {
                    modes.push(("replacing", replaced));
                }
                for (how, parts) in modes {
                    let m = assemble(version, &parts);
                    let what = format!("{wn}/{an}: {tag} of {guest_origin:?} {how} in {host_name}");
                    check(&mut t, &what, &m.bytes, &m.telling);
                    let at = m
                        .telling
                        .iter()
                        .find(|c| c.0 == guest_origin)
                        .map(|c| c.2)
                        .unwrap();
                    let hosts_telling = m.telling.iter().any(|c| c.0 == host_origin);
                    if !hosts_telling {
                        continue;
                    }
                    // The host's other chunks say one family, the guest the other.
                    let e = classify_family(&m.bytes).unwrap_err();
                    let place = format!("{tag} at {at:#x}");
                    assert!(e.to_string().contains(&place), "{what}: {e}");
                    // Every reader refuses with the same reason.
                    assert_eq!(mdx::from_bytes(&m.bytes).unwrap_err(), e, "{what}");
                    assert_eq!(alpha::from_bytes(&m.bytes).unwrap_err(), e, "{what}");
                    let read = mdlx::read(&m.bytes, &Default::default()).err().unwrap();
                    assert!(read.to_string().contains(&place), "{what}: {read}");
                }
            }
        }
    }
    println!("{t:?}");
    assert_eq!(t.alpha + t.warcraft, 0, "every mix is refused");
    assert!(t.tried > 100);
    let m = assemble(
        1300,
        &[
            (Origin::Alpha, &split(&boar_bytes())[1]),
            (Origin::Warcraft, &split(&wc3_file(1300))[2]),
        ],
    );
    println!(
        "e.g. {}",
        mdlx::read(&m.bytes, &Default::default()).err().unwrap()
    );
}

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn cut_mixed_and_flipped_files_never_panic_nor_misclassify() {
    let mut t = Tally::default();
    let mut rng = Rng(0x5eed_f00d);
    for (version, an, a, wn, w) in pairs() {
        let (ac, wc) = (split(&a), split(&w));
        let mut files = Vec::new();
        files.push((
            format!("{an} pure"),
            assemble(
                version,
                &ac.iter().map(|c| (Origin::Alpha, c)).collect::<Vec<_>>(),
            ),
        ));
        files.push((
            format!("{wn} pure"),
            assemble(
                version,
                &wc.iter().map(|c| (Origin::Warcraft, c)).collect::<Vec<_>>(),
            ),
        ));
        // Chunk-by-chunk mixes: each chunk slot from either file, in random order.
        for i in 0..60 {
            let mut parts: Vec<Part> = Vec::new();
            for c in &ac {
                if rng.below(2) == 0 {
                    parts.push((Origin::Alpha, c));
                }
            }
            for c in &wc {
                if rng.below(2) == 0 {
                    parts.push((Origin::Warcraft, c));
                }
            }
            for k in (1..parts.len()).rev() {
                parts.swap(k, rng.below(k + 1));
            }
            files.push((format!("{an}+{wn} mix {i}"), assemble(version, &parts)));
        }
        for (name, m) in &files {
            check(&mut t, name, &m.bytes, &m.telling);
            // Cut at many offsets: the chunks wholly before the cut still bind.
            let step = (m.bytes.len() / 400).max(1);
            for cut in (0..m.bytes.len()).step_by(step) {
                check(
                    &mut t,
                    &format!("{name} cut at {cut}"),
                    &m.bytes[..cut],
                    &m.telling,
                );
            }
            // Flipped chunk sizes: no panic, and a classification must still not
            // contradict the whole chunks before the flipped one.
            let mut at = 16;
            while at + 8 <= m.bytes.len() {
                let size = u32::from_le_bytes(m.bytes[at + 4..at + 8].try_into().unwrap());
                for new in [
                    0,
                    1,
                    4,
                    size.wrapping_sub(1),
                    size + 1,
                    size.wrapping_mul(2),
                    u32::MAX,
                ] {
                    let mut d = m.bytes.clone();
                    d[at + 4..at + 8].copy_from_slice(&new.to_le_bytes());
                    let before: Vec<_> = m.telling.iter().filter(|c| c.3 <= at).copied().collect();
                    check(
                        &mut t,
                        &format!("{name} size at {at:#x} = {new}"),
                        &d,
                        &before,
                    );
                }
                at += 8 + size as usize;
            }
        }
    }
    println!(
        "{} files tried: {} classified alpha, {} classified Warcraft III, {} refused",
        t.tried, t.alpha, t.warcraft, t.refused
    );
    assert!(t.tried > 10_000);
    assert!(t.alpha > 0 && t.warcraft > 0 && t.refused > 0);
}

#[test]
fn corpus_mdx_keep_their_family() {
    let (mut alpha_files, mut others) = (0, 0);
    for row in common::manifest().iter().filter(|r| r.format == "mdx") {
        let data = std::fs::read(common::corpus_dir().join(&row.local_path)).unwrap();
        let is_boar = row.local_path.ends_with("Boar.mdx");
        let want = if is_boar {
            Family::WowAlpha
        } else {
            Family::of_version(row.version)
        };
        assert_eq!(classify_family(&data), Ok(want), "{}", row.local_path);
        if is_boar {
            alpha_files += 1;
        } else {
            others += 1;
        }
    }
    println!("corpus: {alpha_files} alpha, {others} Warcraft III MDX, all as before");
    assert_eq!(alpha_files, 1);
    assert!(others > 500);
}
