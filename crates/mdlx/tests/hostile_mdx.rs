//! Hostile MDX input: truncated files, huge counts, broken chunk and record sizes and random
//! byte flips, all made from real corpus files. The decoder must never panic, must fail with
//! an error that names an offset inside the input and the chunk it was reading, and must not
//! allocate much more than the input it was given (checked with a counting allocator).
//!
//! Every decode in this file goes through [`decode`], which measures the allocation peak.
//! The allocator's counters are global, so the tests take [`serial`] and run one at a time.

mod common;
#[path = "common/counting.rs"]
mod counting;

use counting::{serial, CURRENT, PEAK};
use mdlx::mdx::{from_bytes, to_bytes, MdxError, MdxErrorKind};
use mdlx::model::{LayoutEntry, Tag};
use mdlx::spec::{track_kind, TrackKind};
use mdlx::Model;
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering::Relaxed;

/// Allocation peaks seen by [`decode`].
#[derive(Default)]
struct Mem {
    decodes: usize,
    max_peak: usize,
    /// Largest peak / input length (inputs of 4 KiB and more, where the ratio means something).
    max_ratio: f64,
}

impl Mem {
    fn summary(&self) -> String {
        format!(
            "{} measured decodes, max peak {} KiB, max peak/input {:.2} (inputs >= 4 KiB)",
            self.decodes,
            self.max_peak / 1024,
            self.max_ratio
        )
    }
}

/// Decodes `data`, turning a panic into a test failure that says which input it was, and
/// asserts that the allocation peak during the decode stays below `16 * len + 1 MiB`.
fn decode(data: &[u8], what: &dyn Fn() -> String, mem: &mut Mem) -> Result<Model, MdxError> {
    let base = CURRENT.load(Relaxed);
    PEAK.store(base, Relaxed);
    let result = catch_unwind(AssertUnwindSafe(|| from_bytes(data)));
    let peak = PEAK.load(Relaxed).saturating_sub(base);
    let result = result.unwrap_or_else(|_| panic!("from_bytes panicked on {}", what()));
    let limit = 16 * data.len() + (1 << 20);
    assert!(
        peak < limit,
        "{}: peak allocation {peak} bytes during from_bytes of {} bytes (limit {limit})",
        what(),
        data.len()
    );
    mem.decodes += 1;
    mem.max_peak = mem.max_peak.max(peak);
    if data.len() >= 4096 {
        mem.max_ratio = mem.max_ratio.max(peak as f64 / data.len() as f64);
    }
    result
}

/// Checks what every error must carry: an offset inside the input and a Display that names it.
fn check_error(e: &MdxError, len: usize, what: &dyn Fn() -> String) {
    assert!(
        e.offset <= len as u64,
        "{}: error offset {:#x} is past the end of the {len}-byte input: {e}",
        what(),
        e.offset
    );
    let text = e.to_string();
    assert!(
        text.contains("at offset 0x"),
        "{}: error text does not name its offset: {text}",
        what()
    );
}

/// A model that decoded must encode back to exactly the bytes it came from.
fn round_trips(m: &Model, data: &[u8]) -> Result<(), String> {
    match to_bytes(m) {
        Ok(out) if out == data => Ok(()),
        Ok(out) => {
            let at = out
                .iter()
                .zip(data)
                .position(|(a, b)| a != b)
                .unwrap_or(out.len().min(data.len()));
            Err(format!(
                "re-encoded bytes differ at {at:#x} (in {} bytes, out {})",
                data.len(),
                out.len()
            ))
        }
        Err(e) => Err(format!("to_bytes failed: {e}")),
    }
}

fn kind_name(k: &MdxErrorKind) -> &'static str {
    match k {
        MdxErrorKind::BadMagic => "BadMagic",
        MdxErrorKind::UnexpectedEnd { .. } => "UnexpectedEnd",
        MdxErrorKind::CountTooLarge { .. } => "CountTooLarge",
        MdxErrorKind::SizeOutOfRange { .. } => "SizeOutOfRange",
        MdxErrorKind::SizeTooSmall { .. } => "SizeTooSmall",
        MdxErrorKind::ExpectedTag { .. } => "ExpectedTag",
        MdxErrorKind::UnknownLayout { .. } => "UnknownLayout",
        MdxErrorKind::AlphaFamily { .. } => "AlphaFamily",
        MdxErrorKind::FamilyUnclear { .. } => "FamilyUnclear",
        MdxErrorKind::MissingChunk { .. } => "MissingChunk",
        MdxErrorKind::Unwritable(_) => "Unwritable",
    }
}

fn kinds_text(kinds: &BTreeMap<&str, usize>) -> String {
    kinds
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

// ---------------------------------------------------------------------------------------
// Sample files and their structure
// ---------------------------------------------------------------------------------------

struct Sample {
    name: String,
    data: Vec<u8>,
    model: Model,
    chunks: Vec<Span>,
}

/// One top-level chunk as found in the file.
struct Span {
    tag: Tag,
    /// Offset of the tag.
    start: usize,
    /// End of the payload the size declares.
    payload_end: usize,
    /// Ends of the tracks stored after the declared end (the "LITE sized too small" files).
    overflow_ends: Vec<usize>,
    /// End of the chunk including those tracks: where the next chunk starts.
    end: usize,
}

impl Span {
    fn size_at(&self) -> usize {
        self.start + 4
    }
    fn payload(&self) -> usize {
        self.start + 8
    }
}

fn u32_at(data: &[u8], p: usize) -> usize {
    u32::from_le_bytes(data[p..p + 4].try_into().unwrap()) as usize
}

fn tag_at(data: &[u8], p: usize) -> Tag {
    Tag(data[p..p + 4].try_into().unwrap())
}

/// Byte size of one key of a track, from its tag's value kind and its interpolation.
fn key_size(kind: TrackKind, interpolation: usize) -> usize {
    let value = match kind {
        TrackKind::Float | TrackKind::Integer => 4,
        TrackKind::Vector3 => 12,
        TrackKind::Quaternion => 16,
    };
    if interpolation > 1 {
        4 + 3 * value
    } else {
        4 + value
    }
}

/// Total size of the track whose tag is at `p`.
fn track_len(data: &[u8], p: usize) -> usize {
    let kind = track_kind(tag_at(data, p)).expect("a track tag");
    16 + u32_at(data, p + 4) * key_size(kind, u32_at(data, p + 8))
}

/// The top-level chunks, walked with the decoded model's layout so that tracks stored past
/// a chunk's declared end are counted with that chunk.
fn chunk_spans(data: &[u8], model: &Model) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut p = 4;
    for entry in &model.layout.chunks {
        let tag = tag_at(data, p);
        let payload_end = p + 8 + u32_at(data, p + 4);
        let mut end = payload_end;
        let mut overflow_ends = Vec::new();
        if let LayoutEntry::Known {
            overflow_tracks, ..
        } = entry
        {
            for _ in 0..*overflow_tracks {
                end += track_len(data, end);
                overflow_ends.push(end);
            }
        }
        spans.push(Span {
            tag,
            start: p,
            payload_end,
            overflow_ends,
            end,
        });
        p = end;
    }
    assert_eq!(
        data.len() - p,
        model.layout.trailing.len(),
        "chunk walk disagrees with the decoder"
    );
    spans
}

/// The sampled corpus files: every 45th MDX (the WoW alpha `Boar.mdx` left out), the
/// smallest version 1000 and 1100 files, and two named files for chunks the others lack.
fn samples() -> Vec<Sample> {
    let all: Vec<_> = common::corpus_mdx()
        .into_iter()
        .filter(|p| common::name(p) != "GrenderG__MDX-Parser__MDXParser__Files__Boar.mdx")
        .collect();
    let mut picked: Vec<_> = all.iter().step_by(45).cloned().collect();
    let manifest = common::manifest();
    for version in [1000, 1100] {
        let smallest = all
            .iter()
            .filter(|p| {
                let n = common::name(p);
                manifest
                    .iter()
                    .any(|r| r.version == version && r.local_path.ends_with(&n))
            })
            .min_by_key(|p| (std::fs::metadata(p).unwrap().len(), (*p).clone()))
            .unwrap_or_else(|| panic!("no version {version} file in the corpus"));
        picked.push(smallest.clone());
    }
    for name in [
        // The smallest "LITE sized too small" file: tracks past a chunk's declared end.
        "Bergi-bear__roguelike__map.w3x__DNCLordaeron.mdx",
        // The smallest file with a BPOS chunk (v1000, with a light too).
        "Bergi-bear__roguelike__map.w3x__dncdalaranterrain.mdx",
    ] {
        picked.push(common::corpus_dir().join("mdx").join(name));
    }
    picked.dedup();
    picked
        .into_iter()
        .map(|path| {
            let data = std::fs::read(&path).unwrap();
            let name = common::name(&path);
            let model = from_bytes(&data).unwrap_or_else(|e| panic!("{name} does not decode: {e}"));
            let chunks = chunk_spans(&data, &model);
            Sample {
                name,
                data,
                model,
                chunks,
            }
        })
        .collect()
}

/// Geoset arrays: (tag, element size) in file order.
const GEOSET_ARRAYS: [(&[u8; 4], usize); 8] = [
    (b"VRTX", 12),
    (b"NRMS", 12),
    (b"PTYP", 4),
    (b"PCNT", 4),
    (b"PVTX", 2),
    (b"GNDX", 1),
    (b"MTGC", 4),
    (b"MATS", 4),
];

/// A count field to overwrite: its position, the tag that names it, and where the decoder
/// checks it (the count itself, or the end of the fixed header that holds it).
struct CountField {
    tag: Tag,
    at: usize,
    checked_at: usize,
    /// Path segments the error must hold (besides the chunk tag that leads it).
    expect_in_path: Vec<String>,
}

/// A record's inclusive size field.
struct SizeField {
    at: usize,
    /// Path the error must have.
    path: Vec<String>,
}

/// Walks one geoset (inclusive size at `g`) and returns its count fields; also checks that
/// the walk lands exactly on the geoset's end.
fn geoset_counts(data: &[u8], g: usize, version: u32, record: &str, out: &mut Vec<CountField>) {
    let end = g + u32_at(data, g);
    let mut p = g + 4;
    let mut field = |tag: &[u8; 4], p: usize, extra: &[&str]| {
        assert_eq!(&data[p..p + 4], tag, "geoset walk lost its way at {p:#x}");
        let mut path = vec![record.to_string()];
        path.extend(extra.iter().map(|s| s.to_string()));
        out.push(CountField {
            tag: Tag(*tag),
            at: p + 4,
            checked_at: p + 8,
            expect_in_path: path,
        });
    };
    for (tag, each) in GEOSET_ARRAYS {
        field(tag, p, &[std::str::from_utf8(tag).unwrap()]);
        p += 8 + u32_at(data, p + 4) * each;
    }
    p += 12 + if version >= 900 { 84 } else { 0 } + 28;
    p += 4 + 28 * u32_at(data, p);
    if version >= 900 {
        if &data[p..p + 4] == b"TANG" {
            field(b"TANG", p, &["TANG"]);
            p += 8 + 16 * u32_at(data, p + 4);
        }
        if &data[p..p + 4] == b"SKIN" {
            field(b"SKIN", p, &["SKIN"]);
            p += 8 + u32_at(data, p + 4);
        }
    }
    field(b"UVAS", p, &["UVAS"]);
    let sets = u32_at(data, p + 4);
    p += 8;
    for i in 0..sets {
        if i == 0 {
            field(b"UVBS", p, &["UVAS", "UVBS[0]", "UVBS"]);
        }
        p += 8 + 8 * u32_at(data, p + 4);
    }
    assert!(p <= end, "geoset walk ran past the geoset");
}

/// Track count fields of the tracks that start at `p` and run to `end`.
fn track_counts(data: &[u8], mut p: usize, end: usize, path: &[String], out: &mut Vec<CountField>) {
    while p + 16 <= end {
        let tag = tag_at(data, p);
        if track_kind(tag).is_none() {
            break;
        }
        let mut expect = path.to_vec();
        expect.push(tag.text());
        out.push(CountField {
            tag,
            at: p + 4,
            // The key count is checked after interpolation and global sequence id are read.
            checked_at: p + 16,
            expect_in_path: expect,
        });
        p += track_len(data, p);
    }
}

/// Count fields and inclusive sizes found by walking the chunks the walker understands.
fn fields(s: &Sample) -> (Vec<CountField>, Vec<SizeField>) {
    let (data, version) = (&s.data[..], s.model.version);
    let mut counts = Vec::new();
    let mut sizes = Vec::new();
    let mut index: BTreeMap<Tag, usize> = BTreeMap::new();
    for c in &s.chunks {
        let tag = c.tag;
        let t = tag.text();
        // Records of earlier chunks with the same tag come first in the numbering.
        let first = *index.get(&tag).unwrap_or(&0);
        let mut n = 0;
        let mut p = c.payload();
        match &data[c.start..c.start + 4] {
            b"GEOS" => {
                while p < c.payload_end {
                    let rec = format!("Geoset[{}]", first + n);
                    sizes.push(SizeField {
                        at: p,
                        path: vec![t.clone(), rec.clone()],
                    });
                    geoset_counts(data, p, version, &rec, &mut counts);
                    p += u32_at(data, p);
                    n += 1;
                }
            }
            b"MTLS" => {
                while p < c.payload_end {
                    let rec = format!("Material[{}]", first + n);
                    sizes.push(SizeField {
                        at: p,
                        path: vec![t.clone(), rec.clone()],
                    });
                    let shader = if (900..1100).contains(&version) {
                        80
                    } else {
                        0
                    };
                    let lays = p + 12 + shader;
                    assert_eq!(&data[lays..lays + 4], b"LAYS");
                    counts.push(CountField {
                        tag: Tag(*b"LAYS"),
                        at: lays + 4,
                        checked_at: lays + 8,
                        expect_in_path: vec![rec.clone(), "LAYS".into()],
                    });
                    if u32_at(data, lays + 4) > 0 {
                        sizes.push(SizeField {
                            at: lays + 8,
                            path: vec![t.clone(), rec.clone(), "LAYS".into(), "Layer[0]".into()],
                        });
                    }
                    p += u32_at(data, p);
                    n += 1;
                }
            }
            b"BONE" | b"HELP" => {
                let name = if tag.0 == *b"BONE" { "Bone" } else { "Helper" };
                while p < c.payload_end {
                    let rec = format!("{name}[{}]", first + n);
                    let end = p + u32_at(data, p);
                    sizes.push(SizeField {
                        at: p,
                        path: vec![t.clone(), rec.clone()],
                    });
                    track_counts(data, p + 96, end, &[t.clone(), rec], &mut counts);
                    p = end + if name == "Bone" { 8 } else { 0 };
                    n += 1;
                }
            }
            b"GEOA" => {
                while p < c.payload_end {
                    let rec = format!("GeosetAnimation[{}]", first + n);
                    let end = p + u32_at(data, p);
                    sizes.push(SizeField {
                        at: p,
                        path: vec![t.clone(), rec.clone()],
                    });
                    track_counts(data, p + 28, end, &[t.clone(), rec], &mut counts);
                    p = end;
                    n += 1;
                }
            }
            b"BPOS" => {
                counts.push(CountField {
                    tag,
                    at: p,
                    checked_at: p + 4,
                    expect_in_path: vec![],
                });
            }
            // Records with an inclusive size (all but CAMS and TXAN with a node inside):
            // the sizes of the first record.
            tag_bytes @ (b"LITE" | b"ATCH" | b"PREM" | b"PRE2" | b"RIBB" | b"CAMS" | b"TXAN"
            | b"CORN")
                if p < c.payload_end =>
            {
                let name = match tag_bytes {
                    b"LITE" => "Light",
                    b"ATCH" => "Attachment",
                    b"PREM" => "ParticleEmitter",
                    b"PRE2" => "ParticleEmitter2",
                    b"RIBB" => "RibbonEmitter",
                    b"CAMS" => "Camera",
                    b"TXAN" => "TextureAnimation",
                    _ => "PopcornEmitter",
                };
                let rec = format!("{name}[{first}]");
                sizes.push(SizeField {
                    at: p,
                    path: vec![t.clone(), rec.clone()],
                });
                if !matches!(tag_bytes, b"CAMS" | b"TXAN") {
                    // The node's own size: the node is not a path segment of its own.
                    sizes.push(SizeField {
                        at: p + 4,
                        path: vec![t.clone(), rec],
                    });
                }
            }
            b"EVTS" | b"CLID" if p < c.payload_end => {
                let name = if tag.0 == *b"EVTS" {
                    "EventObject"
                } else {
                    "CollisionShape"
                };
                sizes.push(SizeField {
                    at: p,
                    path: vec![t.clone(), format!("{name}[{first}]")],
                });
            }
            _ => {}
        }
        *index.entry(tag).or_insert(0) += n;
    }
    (counts, sizes)
}

// ---------------------------------------------------------------------------------------
// 1. Truncation
// ---------------------------------------------------------------------------------------

#[test]
fn truncated_files_fail_cleanly() {
    let _serial = serial();
    let mut mem = Mem::default();
    let (mut ok_exact, mut ok_trailing, mut errs, mut in_chunk) = (0, 0, 0, 0);
    let mut incomplete = 0;
    let mut kinds = BTreeMap::new();
    let samples = samples();
    for s in &samples {
        let data = &s.data;
        let len = data.len();
        // Where a valid file may end: after the magic, after every chunk, and (for chunks
        // with tracks past their declared end) after the declared end and after each track.
        let mut boundaries = BTreeSet::from([4]);
        for c in &s.chunks {
            boundaries.insert(c.payload_end);
            boundaries.extend(&c.overflow_ends);
            boundaries.insert(c.end);
        }
        let mut cuts: BTreeSet<usize> = (0..len.min(512)).collect();
        if len > 512 {
            cuts.extend((0..300).map(|i| 512 + i * (len - 512) / 300));
        }
        for c in &s.chunks {
            for b in [c.start, c.payload(), c.payload_end, c.end] {
                cuts.extend([b.saturating_sub(1), b, b + 1]);
            }
        }
        cuts.retain(|&c| c < len);
        // A prefix is a model only once it holds the first VERS and the first MODL chunk.
        let header_end = [b"VERS", b"MODL"]
            .iter()
            .map(|t| s.chunks.iter().find(|c| c.tag.0 == **t).unwrap().end)
            .max()
            .unwrap();
        for &cut in &cuts {
            let t = &data[..cut];
            let what = || format!("{} cut at {cut:#x} of {len:#x}", s.name);
            // A prefix that ends within 8 bytes after a boundary is a valid file: fewer than
            // 8 bytes after the last chunk are kept as `Layout::trailing`.
            let after_boundary = boundaries.range(..=cut).next_back().map(|b| cut - b);
            match decode(t, &what, &mut mem) {
                Ok(m) => {
                    match after_boundary {
                        Some(0) => ok_exact += 1,
                        Some(d) if d < 8 => ok_trailing += 1,
                        _ => panic!("{}: a truncated file decoded without error", what()),
                    }
                    assert!(
                        cut >= header_end,
                        "{}: decoded without its VERS or MODL chunk",
                        what()
                    );
                    if let Err(e) = round_trips(&m, t) {
                        panic!("{}: decoded, but {e}", what());
                    }
                }
                Err(e) => {
                    errs += 1;
                    *kinds.entry(kind_name(&e.kind)).or_insert(0) += 1;
                    check_error(&e, cut, &what);
                    assert!(
                        cut < header_end || after_boundary != Some(0),
                        "{}: the prefix ends exactly at a chunk boundary but fails: {e}",
                        what()
                    );
                    if cut < 4 {
                        assert_eq!(e.kind, MdxErrorKind::BadMagic, "{}", what());
                    }
                    if let MdxErrorKind::MissingChunk { .. } = e.kind {
                        // Refused at the end of the data, and only while it is incomplete.
                        incomplete += 1;
                        assert!(cut < header_end, "{}: {e}", what());
                        assert_eq!(e.offset, cut as u64, "{}: {e}", what());
                    }
                    if let Some(c) = s.chunks.iter().find(|c| c.start <= cut && cut < c.end) {
                        if cut >= c.payload() {
                            in_chunk += 1;
                            assert_eq!(
                                e.path.first(),
                                Some(&c.tag.text()),
                                "{}: cut inside chunk {} but the error path is wrong: {e}",
                                what(),
                                c.tag
                            );
                        }
                    }
                }
            }
        }
    }
    let cases = ok_exact + ok_trailing + errs;
    println!(
        "truncation: {} files, {cases} cuts: {ok_exact} Ok at a chunk boundary, {ok_trailing} Ok \
         with <8 trailing bytes, {errs} Err ({incomplete} before VERS and MODL, \
         {in_chunk} inside a chunk, path checked; {}); {}",
        samples.len(),
        kinds_text(&kinds),
        mem.summary()
    );
    assert!(errs > cases / 2, "most truncations must fail");
}

/// Truncation inside one chunk whose size is patched to match, so the records themselves
/// run out of bytes: the file is `MDLX`, the original `VERS` and `MODL` (which every model
/// needs), and the cut chunk.
#[test]
fn truncated_chunks_fail_inside_their_records() {
    let _serial = serial();
    let mut mem = Mem::default();
    let (mut ok, mut errs) = (0, 0);
    let mut kinds = BTreeMap::new();
    let mut depths: BTreeMap<usize, usize> = BTreeMap::new();
    for s in samples() {
        let data = &s.data;
        let whole = |tag: &[u8; 4]| {
            s.chunks
                .iter()
                .find(|c| c.tag.0 == *tag)
                .map_or(&[][..], |c| &data[c.start..c.end])
        };
        let (vers, modl) = (whole(b"VERS"), whole(b"MODL"));
        for c in &s.chunks {
            if matches!(&c.tag.0, b"VERS") {
                continue;
            }
            // A cut MODL stands in for the whole one.
            let modl = if c.tag.0 == *b"MODL" { &[][..] } else { modl };
            let payload = &data[c.payload()..c.payload_end];
            let mut cuts: BTreeSet<usize> = (0..payload.len().min(200)).collect();
            if payload.len() > 200 {
                cuts.extend((0..60).map(|i| 200 + i * (payload.len() - 200) / 60));
            }
            for k in cuts {
                let mut file = b"MDLX".to_vec();
                file.extend_from_slice(vers);
                file.extend_from_slice(modl);
                file.extend_from_slice(&c.tag.0);
                file.extend_from_slice(&(k as u32).to_le_bytes());
                file.extend_from_slice(&payload[..k]);
                let what = || format!("{}: chunk {} at {:#x} cut to {k}", s.name, c.tag, c.start);
                match decode(&file, &what, &mut mem) {
                    // A cut between whole records (or inside a kept tail) is a valid chunk.
                    Ok(m) => {
                        ok += 1;
                        if let Err(e) = round_trips(&m, &file) {
                            panic!("{}: decoded, but {e}", what());
                        }
                    }
                    Err(e) => {
                        errs += 1;
                        *kinds.entry(kind_name(&e.kind)).or_insert(0) += 1;
                        *depths.entry(e.path.len()).or_insert(0) += 1;
                        check_error(&e, file.len(), &what);
                        assert!(e.offset >= (file.len() - k - 8) as u64, "{}: {e}", what());
                        assert_eq!(
                            e.path.first(),
                            Some(&c.tag.text()),
                            "{}: wrong path: {e}",
                            what()
                        );
                    }
                }
            }
        }
    }
    let depths: Vec<String> = depths.iter().map(|(d, n)| format!("{d}:{n}")).collect();
    println!(
        "truncated chunks: {} cases: {ok} Ok (cut between records), {errs} Err ({}; path depth {}); {}",
        ok + errs,
        kinds_text(&kinds),
        depths.join(" "),
        mem.summary()
    );
    assert!(errs > ok, "most cuts inside a chunk must fail");
}

// ---------------------------------------------------------------------------------------
// 2. Huge counts
// ---------------------------------------------------------------------------------------

#[test]
fn huge_counts_are_refused() {
    let _serial = serial();
    let mut mem = Mem::default();
    let mut per_tag: BTreeMap<String, usize> = BTreeMap::new();
    let mut kinds = BTreeMap::new();
    let mut files = 0;
    for s in samples() {
        let (counts, _) = fields(&s);
        if counts.is_empty() {
            continue;
        }
        files += 1;
        // The first and the last field of each tag in the file.
        let mut chosen: BTreeMap<Tag, Vec<&CountField>> = BTreeMap::new();
        for f in &counts {
            let v = chosen.entry(f.tag).or_default();
            if v.len() < 2 {
                v.push(f);
            } else {
                v[1] = f;
            }
        }
        for f in chosen.values().flatten() {
            let chunk = s
                .chunks
                .iter()
                .find(|c| c.start <= f.at && f.at < c.end)
                .unwrap();
            for value in [0xFFFF_FFFFu32, 0x7FFF_FFFF, 0x1000_0000] {
                let mut file = s.data.clone();
                file[f.at..f.at + 4].copy_from_slice(&value.to_le_bytes());
                let what = || format!("{}: {} count at {:#x} = {value:#x}", s.name, f.tag, f.at);
                let e = match decode(&file, &what, &mut mem) {
                    Ok(_) => panic!("{}: decoded without error", what()),
                    Err(e) => e,
                };
                check_error(&e, file.len(), &what);
                assert!(
                    matches!(
                        e.kind,
                        MdxErrorKind::CountTooLarge { .. }
                            | MdxErrorKind::UnexpectedEnd { .. }
                            | MdxErrorKind::SizeOutOfRange { .. }
                    ),
                    "{}: unexpected kind: {e}",
                    what()
                );
                assert_eq!(
                    e.offset,
                    f.checked_at as u64,
                    "{}: the error should point just after the count's header ({:#x}): {e}",
                    what(),
                    f.checked_at
                );
                assert_eq!(e.path.first(), Some(&chunk.tag.text()), "{}: {e}", what());
                assert!(
                    e.path.ends_with(&f.expect_in_path),
                    "{}: path should end with {:?}: {e}",
                    what(),
                    f.expect_in_path
                );
                *per_tag.entry(f.tag.text()).or_insert(0) += 1;
                *kinds.entry(kind_name(&e.kind)).or_insert(0) += 1;
            }
        }
    }
    let cases: usize = per_tag.values().sum();
    let tags: Vec<String> = per_tag.iter().map(|(t, n)| format!("{t} {n}")).collect();
    println!(
        "huge counts: {cases} cases in {files} files, all Err ({}); by field: {}; {}",
        kinds_text(&kinds),
        tags.join(", "),
        mem.summary()
    );
    for needed in [
        "VRTX", "NRMS", "PVTX", "UVBS", "LAYS", "KGTR", "KGRT", "BPOS",
    ] {
        assert!(per_tag.contains_key(needed), "no {needed} count was tested");
    }
}

// ---------------------------------------------------------------------------------------
// 3. Broken sizes
// ---------------------------------------------------------------------------------------

#[test]
fn broken_sizes_are_refused() {
    let _serial = serial();
    let mut mem = Mem::default();
    let (mut chunk_cases, mut record_cases, mut small_ok, mut small_err) = (0, 0, 0, 0);
    let mut kinds = BTreeMap::new();
    for s in samples() {
        let len = s.data.len();
        let patched = |at: usize, value: u32| {
            let mut file = s.data.clone();
            file[at..at + 4].copy_from_slice(&value.to_le_bytes());
            file
        };
        // Top-level chunk sizes.
        for c in &s.chunks {
            let past_end = (len - c.payload() + 1) as u32;
            for value in [0xFFFF_FFFF, 0x8000_0000, 0x7FFF_FFFF, past_end] {
                let file = patched(c.size_at(), value);
                let what = || format!("{}: {} size at {:#x} = {value:#x}", s.name, c.tag, c.start);
                let e = decode(&file, &what, &mut mem).expect_err(&what());
                check_error(&e, len, &what);
                assert!(
                    matches!(e.kind, MdxErrorKind::SizeOutOfRange { size, .. } if size == value as u64),
                    "{}: {e}",
                    what()
                );
                assert_eq!(e.offset, c.size_at() as u64, "{}: {e}", what());
                assert_eq!(e.path, [c.tag.text()], "{}: {e}", what());
                chunk_cases += 1;
                *kinds.entry(kind_name(&e.kind)).or_insert(0) += 1;
            }
            // A too-small chunk size: the rest of the chunk is then read as more chunks. That
            // is usually an error; when it is not, the file must still write back unchanged.
            for value in [0u32, 1, 3] {
                if value as usize == c.payload_end - c.payload() {
                    continue;
                }
                let file = patched(c.size_at(), value);
                let what = || format!("{}: {} size at {:#x} = {value}", s.name, c.tag, c.start);
                match decode(&file, &what, &mut mem) {
                    Ok(m) => {
                        small_ok += 1;
                        if let Err(e) = round_trips(&m, &file) {
                            panic!("{}: decoded, but {e}", what());
                        }
                    }
                    Err(e) => {
                        small_err += 1;
                        check_error(&e, len, &what);
                        *kinds.entry(kind_name(&e.kind)).or_insert(0) += 1;
                    }
                }
                chunk_cases += 1;
            }
        }
        // Inclusive sizes of records.
        let (_, sizes) = fields(&s);
        for f in &sizes {
            for value in [0u32, 1, 3, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x1000_0000] {
                let file = patched(f.at, value);
                let what = || format!("{}: {:?} size at {:#x} = {value:#x}", s.name, f.path, f.at);
                let e = decode(&file, &what, &mut mem).expect_err(&what());
                check_error(&e, len, &what);
                // A camera's size word keeps its size in the low 24 bits (the top byte is its
                // layout number).
                let camera = f.path.last().is_some_and(|p| p.starts_with("Camera["));
                let value = if camera { value & 0x00ff_ffff } else { value };
                if value < 4 {
                    assert!(
                        matches!(e.kind, MdxErrorKind::SizeTooSmall { size, .. } if size == value as u64),
                        "{}: {e}",
                        what()
                    );
                } else {
                    assert!(
                        matches!(e.kind, MdxErrorKind::SizeOutOfRange { size, .. } if size == value as u64),
                        "{}: {e}",
                        what()
                    );
                }
                assert_eq!(e.offset, f.at as u64, "{}: {e}", what());
                assert_eq!(e.path, f.path, "{}: {e}", what());
                record_cases += 1;
                *kinds.entry(kind_name(&e.kind)).or_insert(0) += 1;
            }
        }
    }
    println!(
        "sizes: {chunk_cases} chunk-size cases (sizes 0/1/3: {small_err} Err, {small_ok} Ok and \
         byte-identical; huge: all Err), {record_cases} record-size cases (all Err); kinds: {}; {}",
        kinds_text(&kinds),
        mem.summary()
    );
    assert!(record_cases > 0 && chunk_cases > 0);
}

// ---------------------------------------------------------------------------------------
// 5. Random byte flips
// ---------------------------------------------------------------------------------------

/// xorshift64: a tiny deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_byte_flips_never_panic_and_decoded_files_write_back() {
    let _serial = serial();
    let mut mem = Mem::default();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let samples = samples();
    let (mut ok, mut errs) = (0, 0);
    let mut kinds = BTreeMap::new();
    let mut mismatches = Vec::new();
    const CASES: usize = 3000;
    for case in 0..CASES {
        let s = &samples[case % samples.len()];
        let mut file = s.data.clone();
        let flips = 1 + rng.below(4);
        let mut at = Vec::new();
        for _ in 0..flips {
            // Half the flips land in the first 1 KiB, where the headers and sizes are dense.
            let p = if rng.below(2) == 0 {
                rng.below(file.len().min(1024))
            } else {
                rng.below(file.len())
            };
            file[p] ^= 1 + rng.below(255) as u8;
            at.push(p);
        }
        let what = || format!("{} case {case}, bytes changed at {at:x?}", s.name);
        match decode(&file, &what, &mut mem) {
            Ok(m) => {
                ok += 1;
                if let Err(e) = round_trips(&m, &file) {
                    mismatches.push(format!("{}: {e}", what()));
                }
            }
            Err(e) => {
                errs += 1;
                check_error(&e, file.len(), &what);
                *kinds.entry(kind_name(&e.kind)).or_insert(0) += 1;
            }
        }
    }
    println!(
        "byte flips: {CASES} cases over {} files: {ok} Ok ({} written back byte-identical), \
         {errs} Err ({}); {}",
        samples.len(),
        ok - mismatches.len(),
        kinds_text(&kinds),
        mem.summary()
    );
    assert!(
        mismatches.is_empty(),
        "{} decoded files did not write back unchanged:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

// ---------------------------------------------------------------------------------------
// Rearranged chunks
// ---------------------------------------------------------------------------------------

/// The model without the parts that record the file's arrangement.
fn content(m: &Model) -> Model {
    Model {
        layout: Default::default(),
        unknown_chunks: Vec::new(),
        ..m.clone()
    }
}

/// Chunks may come in any order and more than once. Moving VERS to the end, reversing the
/// chunk order or doubling every chunk gives a file that decodes to the same content and
/// writes back byte for byte (records before a late VERS use the file's version).
#[test]
fn rearranged_chunks_decode_and_write_back() {
    let _serial = serial();
    let mut mem = Mem::default();
    let mut cases = 0;
    for s in samples() {
        let unit = |c: &Span| &s.data[c.start..c.end];
        let trailing = &s.data[s.chunks.last().map_or(4, |c| c.end)..];
        let build = |order: Vec<&Span>| {
            let mut file = b"MDLX".to_vec();
            for c in order {
                file.extend_from_slice(unit(c));
            }
            file.extend_from_slice(trailing);
            file
        };
        let is_vers = |c: &&Span| c.tag.0 == *b"VERS";
        let vers_last = build(
            s.chunks
                .iter()
                .filter(|c| !is_vers(c))
                .chain(s.chunks.iter().filter(is_vers))
                .collect(),
        );
        let reversed = build(s.chunks.iter().rev().collect());
        let doubled = build(s.chunks.iter().flat_map(|c| [c, c]).collect());
        let tags: BTreeSet<Tag> = s.chunks.iter().map(|c| c.tag).collect();
        let distinct = tags.len() == s.chunks.len();
        for (how, file) in [
            ("VERS last", vers_last),
            ("reversed", reversed),
            ("doubled", doubled),
        ] {
            let what = || format!("{}: chunks {how}", s.name);
            let m = decode(&file, &what, &mut mem)
                .unwrap_or_else(|e| panic!("{}: does not decode: {e}", what()));
            if let Err(e) = round_trips(&m, &file) {
                panic!("{}: {e}", what());
            }
            assert_eq!(m.version, s.model.version, "{}", what());
            if how != "doubled" && distinct {
                assert!(
                    content(&m) == content(&s.model),
                    "{}: content differs",
                    what()
                );
                assert_eq!(m.unknown_chunks.len(), s.model.unknown_chunks.len());
            }
            cases += 1;
        }
    }
    println!(
        "rearranged chunks: {cases} cases (VERS last, reversed, doubled), all Ok and \
         byte-identical; {}",
        mem.summary()
    );
}

/// Tracks after an empty chunk belong to no record of it: they must not be moved into the
/// last record of an earlier chunk of the same kind (which re-encoding would then put inside
/// that chunk). Here they are read as chunks of their own and written back in place.
#[test]
fn tracks_after_an_empty_chunk_stay_in_place() {
    let _serial = serial();
    let mut mem = Mem::default();
    let mut cases = 0;
    for s in samples() {
        for c in s.chunks.iter().filter(|c| c.tag.0 == *b"LITE") {
            let mut file = s.data[..c.end].to_vec();
            file.extend_from_slice(b"LITE\0\0\0\0");
            // A KLAV track with no keys, interpolation 0 and global sequence 0: read as
            // chunks, `KLAV` of size 0 and `\0\0\0\0` of size 0.
            file.extend_from_slice(b"KLAV\0\0\0\0\0\0\0\0\0\0\0\0");
            file.extend_from_slice(&s.data[c.end..]);
            let what = || format!("{}: empty LITE and a track after {:#x}", s.name, c.start);
            let m = decode(&file, &what, &mut mem)
                .unwrap_or_else(|e| panic!("{}: does not decode: {e}", what()));
            assert_eq!(m.lights, s.model.lights, "{}: the lights changed", what());
            if let Err(e) = round_trips(&m, &file) {
                panic!("{}: {e}", what());
            }
            cases += 1;
        }
    }
    println!("tracks after an empty chunk: {cases} cases, all Ok and byte-identical");
    assert!(cases > 0, "no sample file has a LITE chunk");
}

/// The memory bound above means something only if the allocator really counts.
#[test]
fn counting_allocator_counts() {
    let _serial = serial();
    let base = CURRENT.load(Relaxed);
    PEAK.store(base, Relaxed);
    let mut v: Vec<u8> = Vec::with_capacity(1 << 20);
    v.push(1);
    v.extend_from_slice(&[2; 4096]);
    let v = std::hint::black_box(v);
    let peak = PEAK.load(Relaxed).saturating_sub(base);
    // Other test-harness threads may free a little memory meanwhile: allow 64 KiB of slack.
    assert!(peak >= (1 << 20) - (64 << 10), "peak {peak}");
    drop(v);
    println!("counting allocator: a 1 MiB vector raised the peak by {peak} bytes");
}
