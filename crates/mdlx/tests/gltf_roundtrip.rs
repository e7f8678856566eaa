//! glTF export then import over the corpus: every Warcraft III-family corpus MDX is
//! exported to `.glb` and imported back at its own version, and the two models must pose
//! the same: for every sequence, at its start, a quarter, a third, the middle, three
//! quarters and its end, every vertex of every geoset the original shows is compared with
//! the same vertex of the re-imported model (posed by `mdlx::anim`, skinned as the game
//! does), within [`TOLERANCE`] of the model's size. Sequence names and intervals, node
//! names and texture paths must come back too. The summary is printed by version.
//!
//! The pose of the original is what the export itself is judged against (three.js and
//! Blender in `gltf_export.rs`), so this closes the loop: Warcraft III -> glTF -> Warcraft
//! III keeps what the game shows.

mod common;

use mdlx::anim::{posed_geosets, Clock, Skeleton};
use mdlx::convert::gltf::{export, import, ExportOptions, ImportOptions, Source};
use mdlx::model::{Family, Model};
use std::collections::{BTreeMap, BTreeSet};

/// The largest distance allowed between a vertex of the original and of the re-imported
/// model, as a fraction of the model's size (the diagonal of its vertices' box).
const TOLERANCE: f64 = 1e-3;
/// Files where the re-imported model shows or hides a geoset at some moment where the
/// original does not, with the reason (none of them the import's).
const KNOWN_VISIBILITY: &[(&str, &str)] = &[(
    "sumneko__All-star-Battle__map__war3mapImported__patchouli_xz.mdx",
    "a Bezier geoset alpha dips below 0 and back between two keys; the export samples \
     visibility at key times and midpoints, so the dip is not in the glTF",
)];

/// The moments of each sequence compared, as fractions of its length.
const MOMENTS: [f64; 6] = [0.0, 0.25, 1.0 / 3.0, 0.5, 0.75, 1.0];

#[derive(Default)]
struct Tally {
    files: usize,
    passed: usize,
    worst: f64,
    worst_file: String,
    samples: usize,
    vertices: u64,
    visibility_disagreements: usize,
    skin_error: f64,
    relaid: usize,
    textures: usize,
    visibility_files: BTreeSet<String>,
}

/// Removes every `extras` from the document: what a file from another tool is like.
fn strip_extras(root: &mut gltf_json::Root) {
    for n in &mut root.nodes {
        n.extras = None;
    }
    for a in &mut root.animations {
        a.extras = None;
    }
    for m in &mut root.materials {
        m.extras = None;
    }
    for m in &mut root.meshes {
        m.extras = None;
    }
}

/// What went wrong with one file, or None. `plain`: the glTF's `extras` (what this crate
/// writes to bring a model back whole) are removed first, so the import works as on a
/// file from another tool: only poses (and names) are compared then.
#[allow(
    clippy::too_many_lines,
    reason = "test code: the shape gate holds the sources only"
)]
fn check(model: &Model, tally: &mut Tally, name: &str, plain: bool) -> Option<String> {
    let exp = export(model, &ExportOptions::default());
    let glb = exp.to_glb();
    let with_extras = match Source::from_bytes(&glb, None) {
        Ok(s) => s,
        Err(e) => return Some(format!("our .glb does not load: {e}")),
    };
    let mut src = with_extras.clone();
    if plain {
        strip_extras(&mut src.root);
    }
    // Without extras the file looks like another tool's, which the import would scale from
    // metres and make ready for the game (names, Stand and Death, keys): this compares the
    // import itself, at the model's own scale, so both are off.
    let opts = ImportOptions {
        version: model.version,
        scale: mdlx::convert::gltf::import::ImportScale::Factor(1.0),
        game_ready: !plain,
        ..Default::default()
    };
    let back = match import(&src, &opts) {
        Ok(b) => b,
        Err(e) => return Some(format!("import failed: {e}")),
    };
    let m2 = &back.model;
    if std::env::var_os("MDLX_RT_DEBUG").is_some() {
        eprintln!(
            "export losses: {:?}\nimport losses: {:?}",
            exp.losses, back.losses
        );
        let _ = std::fs::write(format!("/tmp/rt_{plain}.mdl"), mdlx::mdl::to_bytes(m2));
    }
    let s = common::judges::model_size(model);
    tally.skin_error = tally.skin_error.max(f64::from(back.skin_error) / s);
    // Sequences.
    // A model without sequences gets a Stand sequence.
    let expected = model.sequences.len().max(1);
    if m2.sequences.len() != expected {
        return Some(format!(
            "{} sequences came back as {}",
            model.sequences.len(),
            m2.sequences.len()
        ));
    }
    for (a, b) in model.sequences.iter().zip(&m2.sequences).filter(|_| !plain) {
        // An interval that ends before it starts has no place on a time line: it is laid
        // out anew (its length is 0).
        let relaid = a.interval[1] < a.interval[0];
        if relaid {
            tally.relaid += 1;
        }
        if a.name.text_bytes() != b.name.text_bytes()
            || (a.interval != b.interval && !relaid)
            || a.flags != b.flags
        {
            return Some(format!(
                "sequence {:?} {:?} came back as {:?} {:?}",
                a.name.text(),
                a.interval,
                b.name.text(),
                b.interval
            ));
        }
    }
    // Node names: every original node name is a name of the re-imported model.
    let names2: BTreeSet<Vec<u8>> = m2
        .bones
        .iter()
        .map(|b| &b.node)
        .chain(m2.helpers.iter().map(|h| &h.node))
        .chain(m2.attachments.iter().map(|h| &h.node))
        .chain(m2.lights.iter().map(|h| &h.node))
        .chain(m2.event_objects.iter().map(|h| &h.node))
        .map(|n| n.name.text_bytes().to_vec())
        .collect();
    for n in model
        .bones
        .iter()
        .map(|b| &b.node)
        .chain(model.helpers.iter().map(|h| &h.node))
        .chain(model.attachments.iter().map(|h| &h.node))
        .filter(|n| !plain || std::str::from_utf8(n.name.text_bytes()).is_ok_and(|t| !t.is_empty()))
    {
        if !names2.contains(n.name.text_bytes()) {
            return Some(format!("node {:?} lost", n.name.text()));
        }
    }
    // Texture paths: every texture the materials of the exported geosets name comes back
    // (emitters, which glTF cannot hold, may name others).
    let paths2: BTreeSet<(Vec<u8>, u32)> = m2
        .textures
        .iter()
        .map(|t| (t.path.text_bytes().to_vec(), t.replaceable_id))
        .collect();
    let used: BTreeSet<u32> = model
        .geosets
        .iter()
        .filter(|g| g.shows_at_lod(0) && !g.faces.is_empty())
        .map(|g| g.material_id)
        .collect();
    for &mi in used.iter().filter(|_| !plain) {
        let Some(m) = model.materials.get(mi as usize) else {
            continue;
        };
        for l in &m.layers {
            let ids =
                std::iter::once(l.texture_id).chain(l.texture_slots.iter().map(|s| s.texture_id));
            for id in ids {
                let Some(t) = usize::try_from(id).ok().and_then(|i| model.textures.get(i)) else {
                    continue;
                };
                let key = (t.path.text_bytes().to_vec(), t.replaceable_id);
                if !paths2.contains(&key) {
                    return Some(format!("texture {:?} lost", t.path.text()));
                }
                tally.textures += 1;
            }
        }
    }
    // Which original geoset each re-imported geoset is.
    let geoset_of: Vec<Option<usize>> = back
        .geosets
        .iter()
        .map(|g| {
            with_extras.root.nodes[g.node]
                .extras
                .as_ref()
                .and_then(|r| serde_json::from_str::<serde_json::Value>(r.get()).ok())
                .and_then(|v| v["mdlx"]["geoset"].as_u64())
                .map(|v| v as usize)
        })
        .collect();
    let sk1 = Skeleton::new(model);
    let sk2 = Skeleton::new(m2);
    let seqs: Vec<Option<usize>> = if model.sequences.is_empty() {
        vec![None]
    } else {
        (0..model.sequences.len()).map(Some).collect()
    };
    let mut worst = 0.0f64;
    for si in seqs {
        let len = si.map_or(0.0, |si| f64::from(model.sequences[si].length()));
        for f in MOMENTS {
            let t = (len * f).round();
            let (c1, c2) = match si {
                Some(si) => (Clock::unwrapped(model, si, t), Clock::unwrapped(m2, si, t)),
                None => (
                    Clock::new(model, mdlx::anim::AnimTime::new(None, 0.0)),
                    Clock::unwrapped(m2, 0, 0.0),
                ),
            };
            let p1 = posed_geosets(model, &sk1, &sk1.pose_at(&c1, None), &c1);
            let p2 = posed_geosets(m2, &sk2, &sk2.pose_at(&c2, None), &c2);
            tally.samples += 1;
            for (k, g2) in p2.iter().enumerate() {
                let Some(gi) = geoset_of[k] else {
                    return Some(format!("geoset {k} has no original"));
                };
                let g1 = &p1[gi];
                if g1.visible != g2.visible && !plain {
                    tally.visibility_disagreements += 1;
                    tally.visibility_files.insert(name.to_string());
                    if std::env::var_os("MDLX_RT_DEBUG").is_some() {
                        eprintln!("{name}: visibility seq {si:?} t {t} geoset {gi}: {} {} vs {} {} ({} {})", g1.alpha, g1.layer_alpha, g2.alpha, g2.layer_alpha, g1.visible, g2.visible);
                    }
                }
                if !g1.visible {
                    continue;
                }
                for (v2, &v1) in back.geosets[k].vertices.iter().enumerate() {
                    let a = g1.positions[v1 as usize];
                    let b = g2.positions[v2];
                    if !a.iter().all(|x| x.is_finite()) {
                        continue;
                    }
                    let d = (0..3)
                        .map(|i| (f64::from(a[i]) - f64::from(b[i])).powi(2))
                        .sum::<f64>()
                        .sqrt()
                        / s;
                    tally.vertices += 1;
                    if d > worst {
                        worst = d;
                        if d > TOLERANCE && std::env::var_os("MDLX_RT_DEBUG").is_some() {
                            eprintln!("{name}: seq {si:?} t {t} geoset {gi} (new {k}) vertex {v1}: {a:?} vs {b:?} d {d:.2e}");
                        }
                    }
                }
            }
        }
    }
    if worst > tally.worst {
        tally.worst = worst;
        tally.worst_file = name.to_string();
    }
    // Without extras the import cannot know a Reforged model's geosets used matrix groups:
    // its skin weights then round, and the import says by how much.
    let bound = if plain {
        TOLERANCE + f64::from(back.skin_error) / s
    } else {
        TOLERANCE
    };
    if worst > bound {
        return Some(format!("a vertex moved {worst:.2e} of the model's size"));
    }
    None
}

#[test]
fn every_corpus_mdx_exported_to_gltf_and_imported_back_poses_the_same() {
    let mut by_version: BTreeMap<u32, Tally> = BTreeMap::new();
    let mut failures: Vec<(String, String)> = Vec::new();
    let mut plain_by_version: BTreeMap<u32, Tally> = BTreeMap::new();
    let mut plain_failures: Vec<(String, String)> = Vec::new();
    let mut uses_globals: BTreeSet<String> = BTreeSet::new();
    for path in common::corpus_mdx() {
        let data = std::fs::read(&path).expect("corpus file reads");
        let Ok(model) = mdlx::mdx::from_bytes(&data) else {
            continue;
        };
        if model.family() == Family::WowAlpha {
            continue;
        }
        let name = common::name(&path);
        let global_tracks = model
            .bones
            .iter()
            .map(|b| &b.node)
            .chain(model.helpers.iter().map(|h| &h.node))
            .chain(model.attachments.iter().map(|a| &a.node))
            .any(|n| {
                n.tracks.iter().any(|a| match &a.track {
                    mdlx::model::AnyTrack::Vector3(t) => t.global_sequence_id >= 0,
                    mdlx::model::AnyTrack::Quaternion(t) => t.global_sequence_id >= 0,
                    _ => false,
                })
            });
        if global_tracks {
            uses_globals.insert(name.clone());
        }
        if let Some(f) = std::env::var_os("MDLX_RT_ONLY") {
            if !name.contains(f.to_str().unwrap_or("")) {
                continue;
            }
        }
        let tally = by_version.entry(model.version).or_default();
        tally.files += 1;
        match check(&model, tally, &name, false) {
            None => tally.passed += 1,
            Some(why) => failures.push((name.clone(), why)),
        }
        let tally = plain_by_version.entry(model.version).or_default();
        tally.files += 1;
        match check(&model, tally, &name, true) {
            None => tally.passed += 1,
            Some(why) => plain_failures.push((name, why)),
        }
    }
    println!("glTF round trip (export, import at the same version), by version:");
    println!("version  files  passed  samples  vertices compared  worst (of size)  skin error (of size)  visibility disagreements  textures kept  sequences re-laid");
    for (v, t) in &by_version {
        println!(
            "{v:>7}  {:>5}  {:>6}  {:>7}  {:>17}  {:>15.2e}  {:>20.2e}  {:>24}  {:>13}  {:>17}",
            t.files,
            t.passed,
            t.samples,
            t.vertices,
            t.worst,
            t.skin_error,
            t.visibility_disagreements,
            t.textures,
            t.relaid
        );
        if !t.worst_file.is_empty() {
            println!("         worst: {}", t.worst_file);
        }
    }
    println!("The same with every extras removed (the import as on another tool's file; poses and node names compared):");
    println!(
        "version  files  passed  samples  vertices compared  worst (of size)  skin error (of size)"
    );
    for (v, t) in &plain_by_version {
        println!(
            "{v:>7}  {:>5}  {:>6}  {:>7}  {:>17}  {:>15.2e}  {:>20.2e}",
            t.files, t.passed, t.samples, t.vertices, t.worst, t.skin_error
        );
        if !t.worst_file.is_empty() {
            println!("         worst: {}", t.worst_file);
        }
    }
    // Without extras, two kinds of file are known to move more: global-sequence tracks
    // (baked into every animation; where one cycle ends and the next begins the glTF
    // jumps within a millisecond, which whole-millisecond keys cannot hold; with extras
    // the track returns to its global clock and is exact), and the visibility the export
    // itself misses (see KNOWN_VISIBILITY).
    let mut plain_unexplained = Vec::new();
    for (f, why) in &plain_failures {
        let reason = if KNOWN_VISIBILITY.iter().any(|k| k.0 == f) {
            Some("the export's visibility (see above)")
        } else if uses_globals.contains(f) {
            Some("global-sequence cycles meet within a millisecond")
        } else {
            None
        };
        match reason {
            Some(r) => println!("without extras, known: {f}: {why} ({r})"),
            None => {
                println!("FAILED without extras {f}: {why}");
                plain_unexplained.push(f.clone());
            }
        }
    }
    let mut unexplained = Vec::new();
    for f in by_version.values().flat_map(|t| &t.visibility_files) {
        match KNOWN_VISIBILITY.iter().find(|k| k.0 == f) {
            Some((_, why)) => println!("visibility differs, known: {f}: {why}"),
            None => unexplained.push(f.clone()),
        }
    }
    for (f, why) in &failures {
        println!("FAILED {f}: {why}");
    }
    let total: usize = by_version.values().map(|t| t.files).sum();
    assert!(
        total >= 540,
        "only {total} corpus MDX of the Warcraft III family"
    );
    assert!(
        failures.is_empty(),
        "{} of {total} files failed",
        failures.len()
    );
    assert!(
        plain_unexplained.is_empty(),
        "{} of {total} files failed without extras for no known reason",
        plain_unexplained.len()
    );
}
