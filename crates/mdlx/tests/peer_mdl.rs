//! Keyword meaning checked against other tools: the MDL that mdx-m3-viewer (`m3v`) and
//! war3-model (`w3m`) write from a corpus MDX must read back here into the model decoded
//! from that MDX.
//!
//! Needs the tools' MDL, made by `scripts/peer-mdl.sh` (which runs
//! `tools/peer-mdl/convert-all.js`) into a folder named by `MDLX_PEER_MDL`, with one
//! subfolder per tool: `m3v/NAME.mdl`, `w3m/NAME.mdl` for the corpus file `mdx/NAME.mdx`.
//! Without `MDLX_PEER_MDL` the test is skipped, except under CI (`CI` set), where it fails.
//!
//! For every converted file both models (ours from the MDX, ours from the tool's MDL; a
//! read error is a failure) are written as canonical standard MDL and compared as trees
//! of statements: top-level blocks of a kind are paired in order, keyword statements by
//! keyword and occurrence (`static X` and the track `X` are different keywords), other
//! statements (vertices, track keys, vector parts) by position. Numbers are equal within
//! the tools' printing (6 digits after the point: m3v truncates, w3m rounds; relative
//! 1e-5 plus 2e-6), whole numbers exactly, other tokens byte for byte. Keyword spellings
//! do not matter: both sides are written by us.
//!
//! The first difference at each keyword path of each block is a *class*
//! `(tool, block kind, keyword path)`. The path carries a tag when the difference is of a
//! recognised kind: `(reversed)` (a vector in the opposite order), `(swapped with X)`
//! (two sibling statements exchanged their values), `(beside a track)` (the tool lacks a
//! static value whose track both sides have), `(1s omitted)` (ours is all ones, the tool
//! wrote nothing or we read 0), `(regrouped)` (same numbers, other group counts),
//! `<text not UTF-8>` (a name re-encoded). Every class seen must be in [`KNOWN`], where
//! each entry says why the tool differs and what the evidence is; the `evidence_*` tests
//! at the end check that evidence on the corpus (they need no tool).

mod common;

use common::mdl_diff::{canonical, close, compare, Diff};
use common::peer_faults::*;
use mdlx::model::Family;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

const TOOLS: &[&str] = &["m3v", "w3m"];

/// At least this many files per tool must be equal or differ only in explained ways.
const MIN_GOOD: &[(&str, usize)] = &[("m3v", 490), ("w3m", 530)];

/// A known, explained difference.
struct Known {
    tool: &'static str,
    /// The top-level block kind, or `*` for any.
    kind: &'static str,
    /// The keyword path inside the block, with the tag the comparison gives the kind of
    /// difference (`(reversed)`, `(swapped with X)`, ...); `*x`: any path ending in `x`.
    path: &'static str,
    /// Only in these files (names without extension); empty: in any file.
    files: &'static [&'static str],
    /// Why the tool's MDL differs, and the evidence.
    why: &'static str,
}

const fn k(
    tool: &'static str,
    kind: &'static str,
    path: &'static str,
    files: &'static [&'static str],
    why: &'static str,
) -> Known {
    Known {
        tool,
        kind,
        path,
        files,
        why,
    }
}

#[rustfmt::skip]
const KNOWN: &[Known] = &[
    // Both tools.
    k("m3v", "*", "* (beside a track)", &[], BESIDE_TRACK),
    k("w3m", "*", "* (beside a track)", &[], BESIDE_TRACK),
    k("m3v", "GeosetAnim", "static Color (1s omitted)", &[], GEOA_WHITE),
    k("w3m", "GeosetAnim", "static Color (1s omitted)", &[], GEOA_WHITE),
    k("m3v", "ParticleEmitter2", "static Length (swapped with static Width)", &[], PRE2_AREA),
    k("m3v", "ParticleEmitter2", "static Width (swapped with static Length)", &[], PRE2_AREA),
    k("w3m", "ParticleEmitter2", "static Length (swapped with static Width)", &[], PRE2_AREA),
    k("w3m", "ParticleEmitter2", "static Width (swapped with static Length)", &[], PRE2_AREA),
    // mdx-m3-viewer only: it also calls KP2N `Width` (war3-model calls it `Length`, as we do).
    k("m3v", "ParticleEmitter2", "Length (swapped with Width)", &[], PRE2_AREA),
    k("m3v", "ParticleEmitter2", "Width (swapped with Length)", &[], PRE2_AREA),
    k("m3v", "ParticleEmitter2", "Length/InTan (swapped with Width)", &[], PRE2_AREA),
    k("m3v", "ParticleEmitter2", "Width/InTan (swapped with Length)", &[], PRE2_AREA),
    k("m3v", "ParticleEmitter2", "Length/OutTan (swapped with Width)", &[], PRE2_AREA),
    k("m3v", "ParticleEmitter2", "Width/OutTan (swapped with Length)", &[], PRE2_AREA),
    k("m3v", "*", "DontInherit/Rotation (swapped with Scaling)", &[], DONT_INHERIT),
    k("m3v", "*", "DontInherit/Scaling (swapped with Rotation)", &[], DONT_INHERIT),
    k("m3v", "*", "<text not UTF-8>", &[], NOT_UTF8),
    k("m3v", "Materials", "Material/Layer/static FresnelColor (reversed)", &[], REFORGED_COLORS),
    k("m3v", "ParticleEmitterPopcorn", "static Color (reversed)", &[], REFORGED_COLORS),
    // war3-model only.
    k("w3m", "GeosetAnim", "Color (reversed)", &[], KEY_COLORS),
    k("w3m", "GeosetAnim", "Color/InTan (reversed)", &[], KEY_COLORS),
    k("w3m", "GeosetAnim", "Color/OutTan (reversed)", &[], KEY_COLORS),
    k("w3m", "Light", "Color (reversed)", &[], KEY_COLORS),
    k("w3m", "Geoset", "TVertices", &[], "w3m writes only the first UV set (`TVertices[0]`)"),
    k("w3m", "Materials", "Material/Layer/Unlit", &[],
      "w3m has no Unlit layer flag (0x100; m3v and we have it): dropped"),
    k("w3m", "Camera", "FieldOfView", &["WarRaft__Legion-Tower-Defence__map___U2"],
      "w3m prints 4.8e30 with toFixed (exponent form above 1e21), then strips trailing \
       zeros of the exponent: `4.841771783841527e+3`"),
    k("w3m", "Light", "Color", LITE_OVERFLOW, LITE_LOST),
    k("w3m", "Light", "Intensity", LITE_OVERFLOW, LITE_LOST),
    k("w3m", "Light", "AmbColor", LITE_OVERFLOW, LITE_LOST),
    k("w3m", "Light", "AmbIntensity", LITE_OVERFLOW, LITE_LOST),
    k("w3m", "Light", "static Color", LITE_OVERFLOW, LITE_LOST),
    k("w3m", "Light", "static AmbColor", LITE_OVERFLOW, LITE_LOST),
    k("w3m", "Model", "NumHelpers", LITE_OVERFLOW, LITE_LOST),
    k("w3m", "Model", "NumEvents", LITE_OVERFLOW, LITE_LOST),
    k("w3m", "Model", "NumParticleEmitters2", LITE_OVERFLOW, LITE_LOST),
    k("w3m", "Helper", "<block>", LITE_OVERFLOW, LITE_LOST),
    // Our writer always writes `PivotPoints` (empty too), so the pivots w3m lost show as
    // the block's count, not a missing block.
    k("w3m", "PivotPoints", "<head>", LITE_OVERFLOW, LITE_LOST),
    k("w3m", "ParticleEmitter2", "<block>", LITE_OVERFLOW, LITE_LOST),
    k("w3m", "EventObject", "<block>", LITE_OVERFLOW, LITE_LOST),
    k("w3m", "Camera", "<block>", LITE_OVERFLOW, LITE_LOST),
];

// ------------------------------------------------------------------------ files --

/// Corpus MDX files by name without extension.
fn corpus_by_stem() -> BTreeMap<String, PathBuf> {
    let dir = common::corpus_dir().join("mdx");
    let mut map = BTreeMap::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let name = common::name(&p);
        if name.to_ascii_lowercase().ends_with(".mdx") {
            map.insert(name[..name.len() - 4].to_string(), p);
        }
    }
    map
}

/// The outcome for one file of one tool.
enum Outcome {
    Equal,
    NotApplicable,
    Diffs(Vec<(String, Diff)>),
    Failed(String),
}

fn check_file(mdx: &Path, mdl: &Path) -> Outcome {
    let data = std::fs::read(mdx).unwrap();
    if mdlx::mdx::detect_family(&data) == Family::WowAlpha {
        // Not Warcraft III (war3-model reads it as if it were); we refuse it for now.
        return Outcome::NotApplicable;
    }
    let model = match mdlx::mdx::from_bytes(&data) {
        Ok(m) => m,
        Err(e) => return Outcome::Failed(format!("our MDX reader: {e}")),
    };
    let text = std::fs::read(mdl).unwrap();
    let theirs = match mdlx::mdl::from_bytes(&text) {
        Ok(m) => m,
        Err(e) => {
            let shown = e.render(&text, &common::name(mdl));
            return Outcome::Failed(format!(
                "our MDL reader refuses the tool's MDL:\n{}",
                &shown[..shown.len().min(1500)]
            ));
        }
    };
    let diffs = compare(&canonical(&model), &canonical(&theirs));
    if diffs.is_empty() {
        Outcome::Equal
    } else {
        Outcome::Diffs(diffs)
    }
}

/// The entry of [`KNOWN`] that explains a difference, if one does.
fn known(tool: &str, kind: &str, path: &str, file: &str) -> Option<usize> {
    KNOWN.iter().position(|k| {
        k.tool == tool
            && (k.kind == "*" || k.kind == kind)
            && match k.path.strip_prefix('*') {
                Some(end) => path.ends_with(end),
                None => k.path == path,
            }
            && (k.files.is_empty() || k.files.contains(&file))
    })
}

/// Runs `check_file` over `jobs` on all cores; the outcomes in job order.
fn check_all(jobs: &[(PathBuf, PathBuf)]) -> Vec<Outcome> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = AtomicUsize::new(0);
    let mut outcomes: Vec<(usize, Outcome)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut v = Vec::new();
                    loop {
                        let n = next.fetch_add(1, Ordering::Relaxed);
                        let Some((mdx, mdl)) = jobs.get(n) else { break };
                        v.push((n, check_file(mdx, mdl)));
                    }
                    v
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    outcomes.sort_by_key(|(n, _)| *n);
    outcomes.into_iter().map(|(_, o)| o).collect()
}

/// One class of difference of one tool: the files it occurs in, those of them no entry
/// explains, and an example.
#[derive(Default)]
struct Class {
    files: Vec<String>,
    unexplained: Vec<String>,
    example: String,
}

#[test]
fn peer_mdl_reads_back_to_the_mdx_model() {
    let Some(root) = std::env::var_os("MDLX_PEER_MDL").filter(|v| !v.is_empty()) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "MDLX_PEER_MDL is not set under CI: run scripts/peer-mdl.sh first"
        );
        println!("peer MDL check skipped: MDLX_PEER_MDL not set");
        return;
    };
    let root = PathBuf::from(root);
    let corpus = corpus_by_stem();
    let mut problems = Vec::new();
    let mut used = vec![false; KNOWN.len()];
    for &tool in TOOLS {
        let dir = root.join(tool);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "mdl"))
            .collect();
        files.sort();
        let skipped = std::fs::read_to_string(dir.join("skipped.txt"))
            .map(|s| s.lines().count())
            .unwrap_or(0);
        let jobs: Vec<(PathBuf, PathBuf)> = files
            .iter()
            .map(|mdl| {
                let stem = common::name(mdl).trim_end_matches(".mdl").to_string();
                let mdx = corpus
                    .get(&stem)
                    .unwrap_or_else(|| panic!("{tool}: no corpus MDX for {}", mdl.display()));
                (mdx.clone(), mdl.clone())
            })
            .collect();

        let (mut equal, mut explained, mut not_applicable) = (0, 0, 0);
        let mut classes: BTreeMap<(String, String), Class> = BTreeMap::new();
        for (n, outcome) in check_all(&jobs).into_iter().enumerate() {
            let name = common::name(&jobs[n].1)
                .trim_end_matches(".mdl")
                .to_string();
            let diffs = match outcome {
                Outcome::Equal => {
                    equal += 1;
                    continue;
                }
                Outcome::NotApplicable => {
                    not_applicable += 1;
                    continue;
                }
                Outcome::Failed(e) => {
                    problems.push(format!("{tool} {name}: {e}"));
                    continue;
                }
                Outcome::Diffs(diffs) => diffs,
            };
            let mut all_known = true;
            for (kind, d) in diffs {
                let k = known(tool, &kind, &d.path, &name);
                match k {
                    Some(k) => used[k] = true,
                    None => all_known = false,
                }
                let c = classes.entry((kind, d.path.clone())).or_default();
                if c.files.last() == Some(&name) {
                    continue;
                }
                if c.files.is_empty() {
                    c.example = format!(
                        "{name}\n        ours:   {}\n        theirs: {}",
                        d.ours, d.theirs
                    );
                }
                c.files.push(name.clone());
                if k.is_none() {
                    c.unexplained.push(name.clone());
                }
            }
            if all_known {
                explained += 1;
            }
        }
        println!(
            "{tool}: {} files converted by the tool ({skipped} it could not convert, \
             {not_applicable} not Warcraft III), {equal} equal, {explained} with only \
             explained differences",
            jobs.len()
        );
        for ((kind, path), c) in &classes {
            let tag = if c.unexplained.is_empty() {
                "known"
            } else {
                "NEW"
            };
            println!("  {tag:5} {:4} files  {kind} {path}", c.files.len());
            if let Some(k) = known(tool, kind, path, &c.files[0]) {
                println!("      {}", KNOWN[k].why);
            }
            if !c.unexplained.is_empty() {
                println!("      e.g. {}", c.example);
                let n = c.unexplained.len().min(10);
                println!("      in: {}", c.unexplained[..n].join(" "));
                problems.push(format!(
                    "{tool}: unexplained class `{kind}` `{path}` in {} file(s), first {}",
                    c.unexplained.len(),
                    c.unexplained[0]
                ));
            }
        }
        let min = MIN_GOOD.iter().find(|(t, _)| *t == tool).unwrap().1;
        if equal + explained < min {
            problems.push(format!(
                "{tool}: only {} files equal or explained, expected at least {min}",
                equal + explained
            ));
        }
    }
    for (k, u) in KNOWN.iter().zip(&used) {
        if !u {
            println!(
                "note: known class never seen: {} {} {}",
                k.tool, k.kind, k.path
            );
        }
    }
    for p in &problems {
        println!("PROBLEM {p}");
    }
    assert!(
        problems.is_empty(),
        "{} problem(s), see above",
        problems.len()
    );
}

// ---------------------------------------------------------------------------- evidence --
//
// The evidence behind the table, from the corpus alone (these run without the tools).

fn corpus_model(rel: &str) -> mdlx::model::Model {
    let path = common::corpus_dir().join(rel);
    let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match mdlx::Format::detect(&data) {
        mdlx::Format::Mdx => mdlx::mdx::from_bytes(&data).unwrap(),
        mdlx::Format::Mdl => mdlx::mdl::from_bytes(&data).unwrap(),
        other => panic!("{rel} is {other:?}, not a WC3 model"),
    }
}

fn close32(a: f32, b: f32) -> bool {
    close(f64::from(a), f64::from(b))
}

fn float_keys(t: &mdlx::model::Tracks, tag: mdlx::model::Tag) -> Vec<f32> {
    t.float(tag)
        .map_or(Vec::new(), |t| t.keys.iter().map(|k| k.value).collect())
}

fn color_keys(t: &mdlx::model::Tracks, tag: mdlx::model::Tag) -> Vec<[f32; 3]> {
    t.vector3(tag)
        .map_or(Vec::new(), |t| t.keys.iter().map(|k| k.value).collect())
}

fn same_colors(a: &[[f32; 3]], b: &[[f32; 3]]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (0..3).all(|i| close32(x[i], y[i])))
}

/// Not the same when reversed: such a color tells the two orders apart.
fn asymmetric(c: &[f32; 3]) -> bool {
    !close32(c[0], c[2])
}

/// See [`PRE2_AREA`].
#[test]
fn evidence_pre2_area_floats() {
    use mdlx::spec::track::{KP2N, KP2W};
    // The first float goes with KP2N: statics equal to the first keys of both tracks.
    let m = corpus_model("mdx/mashlol__wc3-orpg__map.w3x__war3mapImported__ArcaneWave.mdx");
    let e = m
        .particle_emitters2
        .iter()
        .find(|e| e.tracks.float(KP2N).is_some() && e.tracks.float(KP2W).is_some())
        .unwrap();
    let (n, w) = (float_keys(&e.tracks, KP2N), float_keys(&e.tracks, KP2W));
    assert!(!close32(e.length, e.width));
    assert_eq!(
        (e.length, e.width),
        (n[0], w[0]),
        "first float = KP2N[0], second = KP2W[0]"
    );

    // Converters that name the first float `Length` (and KP2N `Length`): MdlxConv, war3mdlx.
    for (mdl, mdx) in [
        (
            "tdauth__wc3lib__src__mdlx__test__Alliance_Exp.mdl",
            "tdauth__wc3lib__src__mdlx__test__Alliance_Exp.mdx",
        ),
        (
            "zengfanfan__war3mdlx__test__all.mdl",
            "zengfanfan__war3mdlx__test__all.mdx",
        ),
    ] {
        let (a, b) = (
            corpus_model(&format!("mdl/{mdl}")),
            corpus_model(&format!("mdx/{mdx}")),
        );
        assert_eq!(a.particle_emitters2.len(), b.particle_emitters2.len());
        let mut telling = 0;
        for (x, y) in a.particle_emitters2.iter().zip(&b.particle_emitters2) {
            assert!(
                close32(x.length, y.length) && close32(x.width, y.width),
                "{mdl}"
            );
            assert_eq!(
                float_keys(&x.tracks, KP2N),
                float_keys(&y.tracks, KP2N),
                "{mdl}"
            );
            assert_eq!(
                float_keys(&x.tracks, KP2W),
                float_keys(&y.tracks, KP2W),
                "{mdl}"
            );
            telling += usize::from(!close32(y.length, y.width));
            telling += usize::from(float_keys(&y.tracks, KP2N) != float_keys(&y.tracks, KP2W));
        }
        assert!(telling > 0, "{mdl}: no emitter tells width from length");
    }

    // The dissent: Magos' War3 Model Editor 1.07 prints the first float as `Width`.
    let a = corpus_model("mdl/Amrf000__mdlx-parse__HeroBladeMaster.mdl.txt");
    let b = corpus_model("mdx/Amrf000__mdlx-parse__HeroBladeMaster.mdx.txt");
    let (x, y) = (&a.particle_emitters2[0], &b.particle_emitters2[0]);
    assert_eq!((y.length, y.width), (5.2, 5.244));
    assert_eq!(
        (x.length, x.width),
        (y.width, y.length),
        "read with our mapping: swapped"
    );
}

/// See [`DONT_INHERIT`].
#[test]
fn evidence_dont_inherit_bits() {
    let a = corpus_model("mdl/Amrf000__mdlx-parse__HeroBladeMaster.mdl.txt");
    let b = corpus_model("mdx/Amrf000__mdlx-parse__HeroBladeMaster.mdx.txt");
    let text = std::fs::read_to_string(
        common::corpus_dir().join("mdl/Amrf000__mdlx-parse__HeroBladeMaster.mdl.txt"),
    )
    .unwrap();
    assert_eq!(text.matches("DontInherit { Scaling }").count(), 2);
    assert_eq!(text.matches("DontInherit").count(), 2);
    let flags = |m: &mdlx::model::Model| -> Vec<(Vec<u8>, u32)> {
        m.helpers
            .iter()
            .filter(|h| h.node.flags & 7 != 0)
            .map(|h| (h.node.name.text_bytes().to_vec(), h.node.flags & 7))
            .collect()
    };
    let expected = vec![
        (b"bone temp01".to_vec(), 0x4),
        (b"bone temp02".to_vec(), 0x4),
    ];
    assert_eq!(flags(&b), expected, "the MDX: bit 0x4");
    assert_eq!(flags(&a), expected, "the MDL: `DontInherit {{ Scaling }}`");
}

/// See [`KEY_COLORS`] and [`REFORGED_COLORS`].
#[test]
fn evidence_color_order() {
    use mdlx::spec::track::KGAC;
    // Animated geoset-animation colors: Magos' War3 Model Editor and MdlxConv twins.
    for (mdl, mdx, tracks) in [
        (
            "Gohagga__TowerOfElzair__assets__Flamestrike__Flamestrike_I__Flamestrike_I_00.mdl",
            "Gohagga__TowerOfElzair__maps__map.w3x__war3mapImported__Flamestrike_I_00.mdx",
            4,
        ),
        (
            "tdauth__wc3lib__src__mdlx__test__Alliance_Exp.mdl",
            "tdauth__wc3lib__src__mdlx__test__Alliance_Exp.mdx",
            2,
        ),
    ] {
        let (a, b) = (
            corpus_model(&format!("mdl/{mdl}")),
            corpus_model(&format!("mdx/{mdx}")),
        );
        let (mut seen, mut telling) = (0, false);
        for (x, y) in a.geoset_animations.iter().zip(&b.geoset_animations) {
            let (kx, ky) = (color_keys(&x.tracks, KGAC), color_keys(&y.tracks, KGAC));
            assert!(same_colors(&kx, &ky), "{mdl}: {kx:?} vs {ky:?}");
            seen += usize::from(!ky.is_empty());
            telling |= ky.iter().any(asymmetric);
        }
        assert_eq!(seen, tracks, "{mdl}");
        assert!(telling, "{mdl}: no key tells the orders apart");
    }
    // A static Fresnel color (Reforged): printed reversed, like the classic static colors.
    let rel =
        "theguywhodoesntcare__TheScourgeSlayer__map.w3x__units__human__rifleman__riflemanSAWING";
    let (a, b) = (
        corpus_model(&format!("mdl/{rel}.mdl")),
        corpus_model(&format!("mdx/{rel}.mdx")),
    );
    let layers = |m: &mdlx::model::Model| -> Vec<[f32; 3]> {
        m.materials
            .iter()
            .flat_map(|m| &m.layers)
            .map(|l| l.fresnel_color)
            .collect()
    };
    assert!(same_colors(&layers(&a), &layers(&b)));
    assert!(
        layers(&b).contains(&[0.2, 0.8, 0.0]),
        "stored [0.2, 0.8, 0]"
    );
    let text =
        std::fs::read_to_string(common::corpus_dir().join(format!("mdl/{rel}.mdl"))).unwrap();
    assert!(
        text.contains("static FresnelColor { 0.0, 0.8, 0.2 }"),
        "printed reversed"
    );
}

// ------------------------------------------------------------------------ twins --

/// Hand-written fixture pairs of the war3mdlx project: their MDX holds other test values
/// than their MDL (for example the camera position 141.421 in the MDX, 123.321 in the MDL),
/// so they are not the same data and only show that both read.
const FIXTURE_PAIR: &str = "war3mdlx fixture pair with different test values in MDX and MDL";

/// Twins that differ, each with why.
const TWIN_DIFFERENCES: &[(&str, &str)] = &[
    ("AMISD666__War3ModelView__testmodel__File00001202_98f1fm0", "its MDL was written by a tool that reverses animated color keys (as war3-model does; Magos' and MdlxConv's twins do not) and re-encodes GBK names as UTF-8"),
    ("Amrf000__mdlx-parse__HeroBladeMaster", "Magos' editor prints the PRE2 area floats as Width then Length (see evidence_pre2_area_floats)"),
    ("tdauth__wc3lib__src__mdlx__test__Orc_Exp", "MdlxConv's MDL swaps the camera's Translation and Target Translation against its MDX (both peers read the MDX as we do)"),
    ("Gohagga__TowerOfElzair__assets__Rain_of_Fire_Vol._III__Rain_of_Fire_III", "OPEN: the MDX sets material flag 0x10 (SortPrimsFarZ in seed 000) that the MdlxConv MDL of 2020 does not print; a later edit of the MDX or an omission of MdlxConv"),
    ("zengfanfan__war3mdlx__test___RibbonEmitter", FIXTURE_PAIR),
    ("zengfanfan__war3mdlx__test__attachment", FIXTURE_PAIR),
    ("zengfanfan__war3mdlx__test__camera", FIXTURE_PAIR),
    ("zengfanfan__war3mdlx__test__collision", FIXTURE_PAIR),
    ("zengfanfan__war3mdlx__test__geoanim", FIXTURE_PAIR),
    ("zengfanfan__war3mdlx__test__helper", FIXTURE_PAIR),
    ("zengfanfan__war3mdlx__test__material", FIXTURE_PAIR),
    ("zengfanfan__war3mdlx__test__particle_emitter", FIXTURE_PAIR),
    ("zengfanfan__war3mdlx__test__ribbon_emitter", FIXTURE_PAIR),
    ("zengfanfan__war3mdlx__test__sequence", FIXTURE_PAIR),
    ("zengfanfan__war3mdlx__test__texanim", FIXTURE_PAIR),
];

/// Corpus MDL files whose name matches a corpus MDX, compared like the peer MDL: each pair
/// agrees, or is another revision of the model (record counts differ), or differs for a
/// reason listed in [`TWIN_DIFFERENCES`].
#[test]
fn corpus_twins_agree_or_are_explained() {
    let mdx = corpus_by_stem();
    let rows: Vec<_> = common::manifest()
        .into_iter()
        .filter(|r| r.format == "mdl")
        .collect();
    let (mut pairs, mut equal, mut revisions, mut explained) = (0, 0, 0, Vec::new());
    let mut unexplained = Vec::new();
    for row in &rows {
        let path = common::corpus_dir().join(&row.local_path);
        let name = common::name(&path);
        let stem = name
            .trim_end_matches(".txt")
            .trim_end_matches(".mdl")
            .trim_end_matches(".mdx");
        let twin = mdx.get(stem).cloned().or_else(|| {
            let p = common::corpus_dir()
                .join("mdx")
                .join(format!("{stem}.mdx.txt"));
            p.exists().then_some(p)
        });
        let Some(twin) = twin else { continue };
        pairs += 1;
        let diffs = match check_file(&twin, &path) {
            Outcome::Equal => {
                equal += 1;
                continue;
            }
            Outcome::Diffs(d) => d,
            Outcome::Failed(e) => panic!("{stem}: {e}"),
            Outcome::NotApplicable => continue,
        };
        let a = mdlx::mdx::from_bytes(&std::fs::read(&twin).unwrap())
            .unwrap()
            .counts();
        let b = mdlx::mdl::from_bytes(&std::fs::read(&path).unwrap())
            .unwrap()
            .counts();
        let differ: Vec<String> = a
            .entries
            .iter()
            .zip(&b.entries)
            .filter(|(x, y)| x.1 != y.1)
            .map(|(x, y)| format!("{} {}/{}", x.0, x.1, y.1))
            .collect();
        if !differ.is_empty() {
            revisions += 1;
            println!("  revision {stem}: counts differ ({})", differ.join(", "));
        } else if let Some((_, why)) = TWIN_DIFFERENCES.iter().find(|(n, _)| *n == stem) {
            explained.push(stem.to_string());
            println!("  explained {stem}: {why}");
        } else {
            let (k, d) = &diffs[0];
            unexplained.push(format!(
                "{stem}: {k} {}: MDX `{}`, MDL `{}`",
                d.path, d.ours, d.theirs
            ));
        }
    }
    println!(
        "corpus twins: {pairs} pairs, {equal} agree, {revisions} other revisions, {} explained, {} unexplained",
        explained.len(),
        unexplained.len()
    );
    for u in &unexplained {
        println!("  UNEXPLAINED {u}");
    }
    let stale: Vec<_> = TWIN_DIFFERENCES
        .iter()
        .filter(|(n, _)| !explained.iter().any(|e| e == n))
        .collect();
    assert!(unexplained.is_empty(), "twins differ for no listed reason");
    assert!(
        stale.is_empty(),
        "listed twin differences no longer seen: {stale:?}"
    );
    assert!(pairs >= 26 && equal >= 6, "{pairs} pairs, {equal} equal");
}
