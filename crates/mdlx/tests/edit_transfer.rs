//! Animation transfer (`mdlx::edit::transfer`) between every ordered pair of Warcraft III
//! corpus models whose bones share at least ten names, every sequence of the source
//! taken. Judged independently of the transfer's own pairing:
//! - poses: in up to three transferred sequences, at two moments between keys, every
//!   target bone whose name and whose ancestors' names are the source bone's (exactly, any
//!   case) and whose inheritance flags agree, is turned and scaled as the source's: the
//!   linear parts of their world matrices agree within 1e-4 (a point one model-size from
//!   the pivot lands within 1e-4 of the size);
//! - geoset visibility taken from the source (`visibility: true`): each pair of geosets
//!   the report names shares a bone name, and the target geoset's alpha is the source
//!   geoset's at the same moments (source alphas on a global sequence aside);
//! - no `check` error both inputs lacked;
//! - the peers (mdx-m3-viewer, war3-model, the `wc3` crate) read one result for each
//!   target whose MDX they read.

mod common;

use mdlx::anim::{geoset_alphas, AnimTime, Clock, Skeleton};
use mdlx::edit::{transfer, Transfer};
use mdlx::Model;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

fn errors(m: &mdlx::Model) -> std::collections::BTreeSet<String> {
    common::findings(m, &[])
}

fn read(row: &common::ManifestRow) -> Model {
    mdlx::read(&common::read_row(row), &mdlx::ReadOptions::default())
        .unwrap()
        .model
}

/// A node's name, and its own and its ancestors' names and flags.
type Chain = (String, Vec<(String, u32)>);

/// Whether a node has a track on a global sequence (which plays through every sequence:
/// the transfer keeps the target's).
fn global(n: &mdlx::model::Node) -> bool {
    n.tracks.iter().any(|a| match &a.track {
        mdlx::model::AnyTrack::Float(t) => t.global_sequence_id >= 0,
        mdlx::model::AnyTrack::Vector3(t) => t.global_sequence_id >= 0,
        mdlx::model::AnyTrack::Quaternion(t) => t.global_sequence_id >= 0,
        mdlx::model::AnyTrack::Integer(t) => t.global_sequence_id >= 0,
    })
}

/// Each node's name and its ancestors' names and flags, lower case, by node index (an
/// empty chain for a node that a global sequence moves, or whose ancestor it moves).
fn chains(m: &Model) -> Vec<Chain> {
    let nodes: Vec<&mdlx::model::Node> = m.nodes().collect();
    let by_id: BTreeMap<u32, usize> = (nodes.iter().enumerate())
        .map(|(i, n)| (n.object_id, i))
        .collect();
    (0..nodes.len())
        .map(|i| {
            let mut chain = Vec::new();
            let mut at = Some(i);
            while let Some(k) = at.filter(|_| chain.len() < 64) {
                let n = nodes[k];
                if global(n) {
                    return (String::new(), Vec::new());
                }
                chain.push((n.name.text().to_ascii_lowercase(), n.flags));
                at = u32::try_from(n.parent_id)
                    .ok()
                    .and_then(|p| by_id.get(&p).copied());
            }
            (nodes[i].name.text().to_ascii_lowercase(), chain)
        })
        .collect()
}

/// The linear part of each node's world matrix in sequence `s` at `t`.
fn linear(m: &Model, s: usize, t: f64) -> BTreeMap<u32, [f32; 9]> {
    let skeleton = Skeleton::new(m);
    let at = AnimTime {
        sequence: Some(s),
        elapsed_ms: t,
        global_ms: 0.0,
    };
    let pose = skeleton.pose_at(&Clock::new(m, at), None);
    (skeleton.nodes.iter().zip(&pose.nodes))
        .map(|(n, p)| {
            let w = p.world;
            (
                n.node.object_id,
                [w[0], w[1], w[2], w[4], w[5], w[6], w[8], w[9], w[10]],
            )
        })
        .collect()
}

/// A missing Stand or Death that neither input has (the result, with the source's
/// sequences, may be taken for a unit, which needs them).
fn lacks_both(rule: &str, a: &Model, b: &Model) -> bool {
    let word = match rule {
        "missing-death-sequence" => "death",
        "missing-stand-sequence" => "stand",
        _ => return false,
    };
    let has = |m: &Model| {
        (m.sequences.iter()).any(|s| s.name.text().to_ascii_lowercase().starts_with(word))
    };
    !has(a) && !has(b)
}

struct PairOutcome {
    proofs: usize,
    alphas: usize,
    failures: Vec<String>,
    new_errors: Vec<String>,
}

fn one_pair(target: &Model, source: &Model, label: &str) -> (Model, PairOutcome) {
    let mut m = target.clone();
    let t = Transfer {
        source: source.clone(),
        sequences: Vec::new(),
        replace: false,
        pairs: Vec::new(),
        visibility: true,
    };
    let report = transfer(&mut m, &t);
    assert!(report.refused.is_empty(), "{label}: {:?}", report.refused);
    // Nodes whose stepped keys the transfer held by a key 1 ms before the next (it says
    // so): within that millisecond they move, by design; not judged here.
    let stepped: BTreeSet<String> = (report.changed.iter())
        .filter(|l| l.contains("stepped key"))
        .filter_map(|l| l.split(": ").next())
        .map(str::to_ascii_lowercase)
        .collect();
    // The bones, helpers and attachments: what the transfer pairs.
    let skeletal = |m: &Model| -> BTreeSet<u32> {
        (m.bones.iter().map(|b| &b.node))
            .chain(m.helpers.iter().map(|h| &h.node))
            .chain(m.attachments.iter().map(|a| &a.node))
            .map(|n| n.object_id)
            .collect()
    };
    let (t_skel, s_skel) = (skeletal(&m), skeletal(source));
    let mut out = PairOutcome {
        proofs: 0,
        alphas: 0,
        failures: Vec::new(),
        // An error either input has is not new; nor a Stand or Death missing from both.
        new_errors: (errors(&m).difference(&errors(target)))
            .filter(|e| !errors(source).contains(*e) && !lacks_both(e, target, source))
            .map(|e| format!("{label}: {e}"))
            .collect(),
    };
    // Target node ids whose chains are the source's, with the source's id.
    let (tc, sc) = (chains(&m), chains(source));
    // A chain the source has twice names no one bone: not judged.
    let mut sources: BTreeMap<&Chain, Option<usize>> = BTreeMap::new();
    for (i, c) in sc.iter().enumerate() {
        sources
            .entry(c)
            .and_modify(|e| *e = None)
            .or_insert(Some(i));
    }
    let t_ids: Vec<u32> = m.nodes().map(|n| n.object_id).collect();
    let s_ids: Vec<u32> = source.nodes().map(|n| n.object_id).collect();
    let same: Vec<(u32, u32)> = (tc.iter().enumerate())
        .filter(|(_, c)| !c.1.is_empty() && !c.1.iter().any(|(n, _)| stepped.contains(n)))
        .filter_map(|(i, c)| {
            sources
                .get(c)
                .copied()
                .flatten()
                .map(|j| (t_ids[i], s_ids[j]))
        })
        .filter(|(t, s)| t_skel.contains(t) && s_skel.contains(s))
        .collect();
    let first_new = target.sequences.len();
    let taken: Vec<usize> = (0..source.sequences.len())
        .filter(|&i| source.sequences[i].interval[1] >= source.sequences[i].interval[0])
        .collect();
    // Geoset visibility from the source: the pairs the report names (target<-source),
    // each judged to share a bone name, then to show as its source geoset shows.
    let held = report
        .changed
        .iter()
        .any(|l| l.contains("geoset alphas step"));
    let shown: Vec<(usize, usize)> = (report.changed.iter())
        .filter_map(|l| l.strip_prefix("geosets showing as the source's (target<-source): "))
        .flat_map(|l| l.split(", "))
        .filter_map(|p| p.split_once("<-"))
        .map(|(a, b)| (a.parse().unwrap(), b.parse().unwrap()))
        .filter(|_| !held)
        .filter(|&(_, j)| {
            // A source alpha on a global sequence is not the sequence's: not copied.
            !(source.geoset_animations.iter())
                .filter(|a| a.geoset_id == j as i32)
                .filter_map(|a| a.tracks.float(mdlx::spec::track::KGAO))
                .any(|t| t.global_sequence_id >= 0)
        })
        .collect();
    let bone_names = |m: &Model, g: usize| -> BTreeSet<String> {
        (m.geosets[g].matrix_indices.iter())
            .filter_map(|id| m.nodes().find(|n| n.object_id == *id))
            .map(|n| n.name.text().to_ascii_lowercase())
            .collect()
    };
    for &(g, j) in &shown {
        if bone_names(&m, g).is_disjoint(&bone_names(source, j)) {
            out.failures.push(format!(
                "{label}: geoset {g} paired with {j}, no bone name shared"
            ));
        }
    }
    for (k, &s) in taken.iter().enumerate().take(3) {
        let len = f64::from(source.sequences[s].length());
        for f in [0.3, 0.7] {
            let t = (f * len).floor() + 0.37;
            if t >= len {
                continue;
            }
            let (ca, cb) = (
                Clock::unwrapped(&m, first_new + k, t),
                Clock::unwrapped(source, s, t),
            );
            for &(g, j) in &shown {
                let (x, y) = (geoset_alphas(&m, &ca, g).0, geoset_alphas(source, &cb, j).0);
                if (x - y).abs() <= 1e-4 {
                    out.alphas += 1;
                } else {
                    out.failures.push(format!(
                        "{label}: sequence {s} at {t}: geoset {g} alpha {x}, source's {j} {y}"
                    ));
                }
            }
            let (a, b) = (linear(&m, first_new + k, t), linear(source, s, t));
            for &(ti, si) in &same {
                let (Some(x), Some(y)) = (a.get(&ti), b.get(&si)) else {
                    continue;
                };
                let d = x
                    .iter()
                    .zip(y)
                    .map(|(p, q)| (p - q).abs())
                    .fold(0.0f32, f32::max);
                if d <= 1e-4 || !d.is_finite() && x.iter().chain(y).any(|v| !v.is_finite()) {
                    out.proofs += 1;
                } else {
                    out.failures
                        .push(format!("{label}: sequence {s} at {t}: node {ti}: {d}"));
                }
            }
        }
    }
    (m, out)
}

#[test]
fn transferred_sequences_pose_the_bones_as_the_source() {
    // Pass 1: every model's bone names.
    let mut names: Vec<(usize, BTreeSet<String>)> = common::over_models(|i, _, _, m| {
        let bones: BTreeSet<String> = m
            .bones
            .iter()
            .map(|b| b.node.name.text().to_ascii_lowercase())
            .collect();
        (!m.sequences.is_empty() && bones.len() >= 10).then_some((i, bones))
    });
    names.sort();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (a, na) in &names {
        for (b, nb) in &names {
            if a != b && na.intersection(nb).count() >= 10 {
                pairs.push((*a, *b));
            }
        }
    }
    let rows = common::model_rows();
    let dir = common::judges::out_dir("edit-transfer");
    let (srcdir, outdir) = (dir.join("sources"), dir.join("out"));
    std::fs::create_dir_all(&srcdir).unwrap();
    std::fs::create_dir_all(&outdir).unwrap();
    let (mut proofs, mut failures, mut new_errors) = (0, Vec::new(), Vec::new());
    let mut alphas = 0;
    let mut written: Vec<(PathBuf, usize)> = Vec::new();
    let mut cache: BTreeMap<usize, Model> = BTreeMap::new();
    for &(a, b) in &pairs {
        for i in [a, b] {
            cache.entry(i).or_insert_with(|| read(&rows[i]));
        }
        let label = format!("{} <- {}", rows[a].local_path, rows[b].local_path);
        let (m, o) = one_pair(&cache[&a], &cache[&b], &label);
        proofs += o.proofs;
        alphas += o.alphas;
        failures.extend(o.failures);
        new_errors.extend(o.new_errors);
        if rows[a].format == "mdx" && !srcdir.join(format!("{a:04}.mdx")).exists() {
            std::fs::write(
                srcdir.join(format!("{a:04}.mdx")),
                common::read_row(&rows[a]),
            )
            .unwrap();
            let path = outdir.join(format!("{a:04}-from-{b:04}.mdx"));
            let bytes = mdlx::write(&m, mdlx::Format::Mdx, &mdlx::WriteOptions::default())
                .unwrap()
                .bytes;
            std::fs::write(&path, bytes).unwrap();
            written.push((path, a));
        }
        cache.retain(|&k, _| k >= a);
    }
    println!(
        "edit_transfer: {} models with 10+ bones, {} ordered pairs sharing 10+ bone names; {proofs} bone poses proved, {alphas} geoset alphas as the source's, {} failed, {} new check errors",
        names.len(),
        pairs.len(),
        failures.len(),
        new_errors.len()
    );
    for f in failures.iter().take(20) {
        println!("  pose: {f}");
    }
    for e in new_errors.iter().take(20) {
        println!("  new error: {e}");
    }
    common::judges::peers_read(&srcdir, &outdir, &written, "edit_transfer");
    assert!(pairs.len() > 10, "{}", pairs.len());
    assert!(failures.is_empty() && new_errors.is_empty());
}
