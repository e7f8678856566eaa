//! Merging parts (`mdlx::edit::merge`): two weapon models of the corpus, each merged whole
//! under the hand attachment of every Warcraft III corpus model that has one (a right
//! hand where there is one). `CrusaderSword` is a plain sword (four geosets on one bone);
//! `BurningSpear` is a burning spear with particle emitters, a ribbon, event objects and a
//! geoset animation, playing Birth, Stand and Death. Judged independently of the merge's
//! own bookkeeping:
//! - poses: in up to four sequences of the unit, at two moments each, every node of the
//!   part has the world matrix `H(t) T(p) S(t') T(-p)`, where `H` is the hand's in the
//!   result, `p` the hand's pivot and `S` the node's in its own model at `t'` (the same
//!   time into its sequence of the same name, or the start of its Stand where it has none);
//!   every vertex of the part is at `H(t) (p + v'(t'))`, `v'` where its own model puts it:
//!   within 1e-4 of the size. A sequence where the part's is longer (and is cut), or that
//!   overlaps another (both read the same keys), is not judged; the count is printed;
//! - the spear's ribbon alone (`parts: ["RibbonRoot"]`) comes with the helper above it
//!   and nothing else, and poses as above;
//! - no `check` error neither input had, and no stale extent, pivot or bind pose count
//!   warning;
//! - the peers (mdx-m3-viewer, war3-model, the `wc3` crate) read every result whose
//!   source they read.

mod common;

use mdlx::anim::math::{mul, transform_point, trs_about, Mat4};
use mdlx::anim::{posed_geosets, AnimTime, Clock, Skeleton};
use mdlx::edit::{merge, Merge};
use mdlx::Model;
use std::collections::BTreeSet;
use std::path::PathBuf;

const SWORD: &str = "nazarpunk__wc3-map-edemium-legacy__map__war3mapImported__CrusaderSword.mdx";
const SPEAR: &str = "Bergi-bear__OrcWinter__map.w3x__BurningSpear.mdx";

/// The merges made: the source, the parts taken (none: all), and the nodes and geosets
/// each adds (the spear's ribbon comes with the helper above it, and no geoset).
type MergeCase = (
    &'static str,
    &'static [&'static str],
    Option<(usize, usize)>,
);

const MERGES: [MergeCase; 3] = [
    (SWORD, &[], None),
    (SPEAR, &[], None),
    (SPEAR, &["RibbonRoot"], Some((2, 0))),
];

fn problems(m: &Model) -> BTreeSet<String> {
    common::findings(m, &["stale-extent", "bind-pose-count", "pivot-count"])
}

/// The object ids and names of each kind's nodes, kind by kind as the model lists them.
fn by_kind(m: &Model) -> Vec<Vec<(u32, String)>> {
    let ids = |v: &mut dyn Iterator<Item = &mdlx::model::Node>| {
        v.map(|n| (n.object_id, n.name.text().into_owned()))
            .collect()
    };
    vec![
        ids(&mut m.bones.iter().map(|x| &x.node)),
        ids(&mut m.lights.iter().map(|x| &x.node)),
        ids(&mut m.helpers.iter().map(|x| &x.node)),
        ids(&mut m.attachments.iter().map(|x| &x.node)),
        ids(&mut m.particle_emitters.iter().map(|x| &x.node)),
        ids(&mut m.particle_emitters2.iter().map(|x| &x.node)),
        ids(&mut m.popcorn_emitters.iter().map(|x| &x.node)),
        ids(&mut m.ribbon_emitters.iter().map(|x| &x.node)),
        ids(&mut m.event_objects.iter().map(|x| &x.node)),
        ids(&mut m.collision_shapes.iter().map(|x| &x.node)),
    ]
}

/// Each node's world matrix (by object id) and each geoset's posed vertices.
struct Posed {
    worlds: std::collections::HashMap<u32, Mat4>,
    geosets: Vec<Vec<[f32; 3]>>,
}

fn posed(m: &Model, s: usize, t: f64) -> Posed {
    let skeleton = Skeleton::new(m);
    let clock = Clock::new(m, AnimTime::new(Some(s), t));
    let pose = skeleton.pose_at(&clock, None);
    Posed {
        worlds: (skeleton.nodes.iter().zip(&pose.nodes))
            .map(|(n, p)| (n.node.object_id, p.world))
            .collect(),
        geosets: posed_geosets(m, &skeleton, &pose, &clock)
            .into_iter()
            .map(|g| g.positions)
            .collect(),
    }
}

/// The attachment the part goes under: a right hand, else any hand.
fn hand(m: &Model) -> Option<(String, u32)> {
    let hands: Vec<&mdlx::model::Node> = (m.attachments.iter())
        .map(|a| &a.node)
        .filter(|n| n.name.text().to_ascii_lowercase().contains("hand"))
        .collect();
    let right = hands.iter().find(|n| {
        let l = n.name.text().to_ascii_lowercase();
        l.contains("right") || l.contains(" r ")
    });
    right
        .or(hands.first())
        .map(|n| (n.name.text().into_owned(), n.object_id))
}

#[derive(Default)]
struct Outcome {
    reforged: bool,
    merged: usize,
    node_proofs: usize,
    vertex_proofs: usize,
    cut: usize,
    failures: Vec<String>,
    written: Vec<(PathBuf, usize)>,
}

fn far(a: &Mat4, b: &Mat4, size: f64) -> bool {
    (0..16).any(|k| {
        let tol = if (12..15).contains(&k) {
            1e-4 * size
        } else {
            1e-4
        };
        f64::from((a[k] - b[k]).abs()) > tol
    })
}

/// The source's sequence that plays in the unit's sequence `s`, and whether it is cut.
fn plays(unit: &Model, src: &Model, s: usize) -> (usize, bool, bool) {
    let name = unit.sequences[s].name.text().to_ascii_lowercase();
    let same = (src.sequences.iter())
        .position(|q| q.name.text().to_ascii_lowercase() == name && q.interval[1] >= q.interval[0]);
    match same {
        Some(j) => (
            j,
            true,
            src.sequences[j].length() > unit.sequences[s].length(),
        ),
        None => {
            let stand = (src.sequences.iter())
                .position(|q| q.name.text().to_ascii_lowercase().starts_with("stand"));
            (stand.unwrap_or(0), false, false)
        }
    }
}

fn judge(unit: &Model, src: &Model, m: &Model, hand_id: u32, label: &str, out: &mut Outcome) {
    let size = common::judges::model_size(m);
    let pivot = m.pivot_points[hand_id as usize];
    let (to_p, from_p) = (
        trs_about(pivot, [0.0, 0.0, 0.0, 1.0], [1.0; 3], [0.0; 3]),
        trs_about(pivot.map(|x| -x), [0.0, 0.0, 0.0, 1.0], [1.0; 3], [0.0; 3]),
    );
    // The part's nodes follow the unit's in each kind: each is its source's node of that
    // kind and name (the sources name each node once).
    let pairs: Vec<(u32, u32)> = (by_kind(unit).iter().zip(by_kind(m)).zip(by_kind(src)))
        .flat_map(|((u, r), s)| {
            r[u.len()..]
                .iter()
                .map(|(id, name)| (*id, s.iter().find(|n| &n.1 == name).unwrap().0))
                .collect::<Vec<_>>()
        })
        .collect();
    // The geosets are judged when all of them came.
    let whole = m.geosets.len() - unit.geosets.len() == src.geosets.len();
    let g0 = unit.geosets.len();
    let mut chosen: Vec<usize> = (0..unit.sequences.len())
        .filter(|&s| unit.sequences[s].interval[1] > unit.sequences[s].interval[0])
        .collect();
    chosen.truncate(4);
    let overlaps = |s: usize| {
        let [a, b] = unit.sequences[s].interval;
        (unit.sequences.iter().enumerate())
            .any(|(o, q)| o != s && q.interval[0] < b && a < q.interval[1])
    };
    for s in chosen {
        let (j, same, cut) = plays(unit, src, s);
        if cut || overlaps(s) {
            out.cut += 1;
            continue;
        }
        let len = f64::from(unit.sequences[s].length());
        for t in [0.3 * len, 0.7 * len].map(|t| t.floor() + 0.37) {
            let tj = if same { t } else { 0.0 };
            if same && tj >= f64::from(src.sequences[j].length()) {
                continue;
            }
            let (r, p) = (posed(m, s, t), posed(src, j, tj));
            let h = r.worlds[&hand_id];
            let hp = mul(&h, &to_p);
            for &(ri, si) in &pairs {
                let want = mul(&mul(&hp, &p.worlds[&si]), &from_p);
                if far(&r.worlds[&ri], &want, size) {
                    out.failures
                        .push(format!("{label}: node {ri}, sequence {s} at {t}: off"));
                } else {
                    out.node_proofs += 1;
                }
            }
            for (k, vs) in p.geosets.iter().enumerate().filter(|_| whole) {
                let got = &r.geosets[g0 + k];
                let off = vs.iter().zip(got).any(|(v, g)| {
                    let w = transform_point(&hp, *v);
                    (0..3).any(|c| f64::from((w[c] - g[c]).abs()) > 1e-4 * size)
                });
                if off {
                    out.failures
                        .push(format!("{label}: geoset {k}, sequence {s} at {t}: off"));
                } else {
                    out.vertex_proofs += 1;
                }
            }
        }
    }
}

fn one(i: usize, label: &str, unit: &Model, sources: &[Model], dirs: &[PathBuf]) -> Outcome {
    let mut out = Outcome {
        reforged: unit.version > 800,
        ..Outcome::default()
    };
    let Some((name, _)) = hand(unit) else {
        return out;
    };
    let unit_problems = problems(unit);
    let source_problems: Vec<BTreeSet<String>> = sources.iter().map(problems).collect();
    for (k, (src, (file, parts, adds))) in sources.iter().zip(MERGES).enumerate() {
        let mut m = unit.clone();
        let report = merge(
            &mut m,
            &Merge {
                source: src.clone(),
                parts: parts.iter().map(|p| p.to_string()).collect(),
                under: Some(name.clone()),
            },
        );
        let label = format!("{label} + {file} {parts:?}");
        if !report.refused.is_empty() {
            out.failures.push(format!("{label}: {:?}", report.refused));
            continue;
        }
        out.merged += 1;
        let added = (
            m.nodes().count() - unit.nodes().count(),
            m.geosets.len() - unit.geosets.len(),
        );
        if adds.is_some_and(|a| a != added) {
            out.failures
                .push(format!("{label}: added {added:?}, not {adds:?}"));
        }
        let hand_id = hand(&m).map(|h| h.1).unwrap();
        judge(unit, src, &m, hand_id, &label, &mut out);
        let before: BTreeSet<&String> = unit_problems.union(&source_problems[k]).collect();
        for e in problems(&m).iter().filter(|e| !before.contains(e)) {
            out.failures.push(format!("{label}: new check finding {e}"));
        }
        let path = dirs[k].join(format!("{i:04}.mdx"));
        let bytes = mdlx::write(&m, mdlx::Format::Mdx, &mdlx::WriteOptions::default())
            .unwrap()
            .bytes;
        std::fs::write(&path, bytes).unwrap();
        out.written.push((path, k));
    }
    out
}

fn source(name: &str) -> Model {
    let row = (common::model_rows().into_iter())
        .find(|r| r.local_path.ends_with(name))
        .unwrap_or_else(|| panic!("{name} is not in the corpus"));
    mdlx::read(&common::read_row(&row), &mdlx::ReadOptions::default())
        .unwrap()
        .model
}

#[test]
fn weapons_merged_into_every_hand() {
    let dir = common::judges::out_dir("edit-merge");
    let srcdir = dir.join("sources");
    let dirs: Vec<PathBuf> = (0..MERGES.len())
        .map(|k| dir.join(format!("out{k}")))
        .collect();
    for d in dirs.iter().chain([&srcdir]) {
        std::fs::create_dir_all(d).unwrap();
    }
    let sources: Vec<Model> = MERGES.iter().map(|m| source(m.0)).collect();
    let results = common::over_models(|i, row, data, m| {
        let o = one(i, &row.local_path, &m, &sources, &dirs);
        if o.merged > 0 && row.format == "mdx" {
            std::fs::write(srcdir.join(format!("{i:04}.mdx")), data).unwrap();
        }
        (o.merged > 0 || !o.failures.is_empty()).then_some((i, o))
    });
    let units = results.len();
    let sum = |f: fn(&Outcome) -> usize| results.iter().map(|(_, o)| f(o)).sum::<usize>();
    let failures: Vec<&String> = results.iter().flat_map(|(_, o)| &o.failures).collect();
    println!(
        "edit_merge: {units} corpus models with a hand attachment ({} Reforged), {} merges: {} node poses and {} geoset poses as in the weapon's own model moved under the hand, {} failures ({} sequences not judged: the weapon's is longer and cut, or two overlap)",
        sum(|o| usize::from(o.reforged)),
        sum(|o| o.merged),
        sum(|o| o.node_proofs),
        sum(|o| o.vertex_proofs),
        failures.len(),
        sum(|o| o.cut)
    );
    for f in failures.iter().take(20) {
        println!("  {f}");
    }
    for (k, d) in dirs.iter().enumerate() {
        let written: Vec<(PathBuf, usize)> = (results.iter())
            .flat_map(|(i, o)| {
                o.written
                    .iter()
                    .filter(|w| w.1 == k)
                    .map(|w| (w.0.clone(), *i))
            })
            .collect();
        common::judges::peers_read(
            &srcdir,
            d,
            &written,
            &format!("edit_merge {} {:?}", MERGES[k].0, MERGES[k].1),
        );
    }
    assert!(units > 100, "{units}");
    assert!(failures.is_empty());
}
