//! Compares a model with the model that came back from a round trip (our glTF export, a
//! tool's import and export, our import): what Warcraft III would see, row by row. Every
//! check here is made on the two `Model`s alone, independently of what the conversions say
//! about themselves: nodes are matched by kind and name, sequences by position, vertices by
//! nearest rest position and UV (`roundtrip/geometry.rs`).
//!
//! Rows ([`ROWS`]): node counts per kind (and cameras); node names, parents, pivots, flags,
//! transform tracks (sampled at the start, quarters and end of every sequence and at the
//! source's key times) and the kind's own data (attachment paths, event times, shapes,
//! emitter and light fields); sequences (name, interval to the millisecond, flags, rarity,
//! move speed, extent, in order); global sequences; materials (layers, texture paths and
//! replaceable ids) and the texture list; texture animations; geoset animations; geosets
//! (count, every vertex matched, a vertex split in two still the same); skin weights; no
//! `mdlx::check` error the source lacked (by rule); the worst distance of a posed vertex at
//! the start, middle and end of every sequence, as a fraction of the model's size.

mod geometry;
mod records;

use mdlx::anim::{AnimTime, Clock, NodeKind, Skeleton};
use mdlx::model::{Model, Node};
use mdlx::spec::track::{KGRT, KGSC, KGTR};
use std::collections::HashMap;

#[allow(unused_imports)] // used by some of the test binaries that include `common`
pub(crate) use geometry::POSE_TOLERANCE;

/// The rows, in table order.
pub(crate) const ROWS: [&str; 11] = [
    "node counts",
    "nodes",
    "sequences",
    "global sequences",
    "materials",
    "texture anims",
    "geoset anims",
    "geosets",
    "skin weights",
    "check",
    "pose",
];

/// The node kinds, in table order.
const KINDS: [NodeKind; 10] = [
    NodeKind::Bone,
    NodeKind::Helper,
    NodeKind::Attachment,
    NodeKind::EventObject,
    NodeKind::CollisionShape,
    NodeKind::ParticleEmitter,
    NodeKind::ParticleEmitter2,
    NodeKind::PopcornEmitter,
    NodeKind::RibbonEmitter,
    NodeKind::Light,
];

/// What differs in one row; empty when the row passes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Row {
    pub(crate) problems: Vec<String>,
    /// Problems past the ones kept (only the first few of a kind are spelled out).
    pub(crate) more: usize,
}

impl Row {
    pub(crate) fn ok(&self) -> bool {
        self.problems.is_empty()
    }

    fn add(&mut self, p: String) {
        if self.problems.len() < 6 {
            self.problems.push(p);
        } else {
            self.more += 1;
        }
    }

    fn summary(&self) -> String {
        let mut s = self.problems.join("; ");
        if self.more > 0 {
            s.push_str(&format!("; and {} more", self.more));
        }
        s
    }
}

/// The comparison of a source model with the model that came back.
#[derive(Clone, Debug)]
pub(crate) struct Report {
    /// One per [`ROWS`] entry, in that order.
    pub(crate) rows: Vec<Row>,
    /// The worst posed-vertex distance as a fraction of the model's size (infinite when no
    /// vertex could be compared though the source has some).
    pub(crate) worst_pose: f64,
}

impl Report {
    pub(crate) fn row(&self, name: &str) -> &Row {
        let i = ROWS.iter().position(|r| *r == name).expect("a row name");
        &self.rows[i]
    }

    /// Whether every row passes.
    pub(crate) fn ok(&self) -> bool {
        self.rows.iter().all(Row::ok)
    }

    /// `(row, what differs)` for every row that fails.
    pub(crate) fn failures(&self) -> Vec<(&'static str, String)> {
        ROWS.iter()
            .zip(&self.rows)
            .filter(|(_, r)| !r.ok())
            .map(|(n, r)| (*n, r.summary()))
            .collect()
    }

    /// The table header [`Report::table_row`] fits under.
    pub(crate) fn table_header() -> String {
        let mut s = format!("{:<44}", "file");
        for r in ROWS {
            s.push_str(&format!(" {:>width$}", r, width = r.len().max(4)));
        }
        s
    }

    /// One line: the file, then `ok` or `FAIL` under each row, the pose as its distance.
    pub(crate) fn table_row(&self, file: &str) -> String {
        let short: String = if file.len() > 44 {
            format!("..{}", &file[file.len() - 42..])
        } else {
            file.to_string()
        };
        let mut s = format!("{short:<44}");
        for (name, row) in ROWS.iter().zip(&self.rows) {
            let cell = if *name == "pose" {
                format!("{:.1e}{}", self.worst_pose, if row.ok() { "" } else { "!" })
            } else if row.ok() {
                "ok".to_string()
            } else {
                "FAIL".to_string()
            };
            s.push_str(&format!(" {:>width$}", cell, width = name.len().max(4)));
        }
        s
    }
}

/// Compares `src` with `back`, the model that came back.
pub(crate) fn compare(src: &Model, back: &Model) -> Report {
    let size = super::judges::model_size(src);
    let (sk1, sk2) = (Skeleton::new(src), Skeleton::new(back));
    let seqs = sequence_pairs(src, back);
    let (counts, nodes) = node_rows(src, back, &sk1, &sk2, &seqs, size);
    let matching = geometry::match_vertices(src, back, size);
    let (pose, worst_pose) = geometry::pose_row(src, back, &sk1, &sk2, &seqs, &matching, size);
    let rows = vec![
        counts,
        nodes,
        records::sequences_row(src, back),
        records::globals_row(src, back),
        records::materials_row(src, back),
        records::texture_anims_row(src, back),
        records::geoset_anims_row(src, back, &matching),
        geometry::geosets_row(src, back, &matching),
        geometry::skin_row(src, back, &matching),
        records::check_row(src, back),
        pose,
    ];
    Report { rows, worst_pose }
}

/// For each source sequence, the index of the same sequence in `back`: the same position
/// when the names agree there, else the first of that name.
fn sequence_pairs(src: &Model, back: &Model) -> Vec<Option<usize>> {
    src.sequences
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let name = s.name.text_bytes();
            match back.sequences.get(i) {
                Some(b) if b.name.text_bytes() == name => Some(i),
                _ => back
                    .sequences
                    .iter()
                    .position(|b| b.name.text_bytes() == name),
            }
        })
        .collect()
}

/// The moments (source sequence, elapsed ms) tracks are compared at: the start, quarters
/// and end of every sequence, and every key time of `node`'s transform tracks inside it.
fn moments(src: &Model, node: &Node) -> Vec<(usize, f64)> {
    let mut out = Vec::new();
    for (si, s) in src.sequences.iter().enumerate() {
        let len = f64::from(s.length());
        for f in [0.0, 0.25, 0.5, 0.75, 1.0] {
            out.push((si, (len * f).round()));
        }
        let times = node
            .tracks
            .iter()
            .flat_map(|a| track_times(&a.track))
            .filter(|&t| t >= i64::from(s.interval[0]) && t <= i64::from(s.interval[1]));
        out.extend(times.map(|t| (si, (t - i64::from(s.interval[0])) as f64)));
    }
    out
}

fn track_times(t: &mdlx::model::AnyTrack) -> Vec<i64> {
    use mdlx::model::AnyTrack::*;
    match t {
        Vector3(t) if t.global_sequence_id < 0 => t.keys.iter().map(|k| k.time.into()).collect(),
        Quaternion(t) if t.global_sequence_id < 0 => t.keys.iter().map(|k| k.time.into()).collect(),
        _ => Vec::new(),
    }
}

fn name(n: &Node) -> String {
    n.name.text().into_owned()
}

/// The node counts row and the nodes row.
fn node_rows(
    src: &Model,
    back: &Model,
    sk1: &Skeleton,
    sk2: &Skeleton,
    seqs: &[Option<usize>],
    size: f64,
) -> (Row, Row) {
    let (mut counts, mut nodes) = (Row::default(), Row::default());
    for kind in KINDS {
        let n1 = sk1.nodes.iter().filter(|n| n.kind == kind).count();
        let n2 = sk2.nodes.iter().filter(|n| n.kind == kind).count();
        if n1 != n2 {
            counts.add(format!("{} {n1} -> {n2}", kind.name()));
        }
    }
    if src.cameras.len() != back.cameras.len() {
        counts.add(format!(
            "Camera {} -> {}",
            src.cameras.len(),
            back.cameras.len()
        ));
    }
    // Back nodes by (kind, name), in order; each matched once.
    let mut free: HashMap<(&str, Vec<u8>), Vec<usize>> = HashMap::new();
    for (j, n) in sk2.nodes.iter().enumerate().rev() {
        free.entry((n.kind.name(), n.node.name.text_bytes().to_vec()))
            .or_default()
            .push(j);
    }
    let parent_name = |sk: &Skeleton, i: usize| {
        sk.nodes[i]
            .parent
            .map(|p| sk.nodes[p].node.name.text_bytes().to_vec())
    };
    for (i, n1) in sk1.nodes.iter().enumerate() {
        let key = (n1.kind.name(), n1.node.name.text_bytes().to_vec());
        let Some(j) = free.get_mut(&key).and_then(Vec::pop) else {
            nodes.add(format!("{} {:?} missing", n1.kind.name(), name(n1.node)));
            continue;
        };
        let n2 = &sk2.nodes[j];
        let what = format!("{} {:?}", n1.kind.name(), name(n1.node));
        if parent_name(sk1, i) != parent_name(sk2, j) {
            nodes.add(format!("{what}: parent differs"));
        }
        let d = dist(n1.pivot, n2.pivot);
        if d > 1e-4 * size {
            nodes.add(format!("{what}: pivot moved {:.2e} of the size", d / size));
        }
        if n1.node.flags != n2.node.flags {
            nodes.add(format!(
                "{what}: flags {:#x} -> {:#x}",
                n1.node.flags, n2.node.flags
            ));
        }
        if let Some(p) = tracks_differ(src, back, n1.node, n2.node, seqs, size) {
            nodes.add(format!("{what}: {p}"));
        }
        if let Some(p) = data_differs(src, back, n1.kind, n1.index, n2.index) {
            nodes.add(format!("{what}: {p}"));
        }
    }
    for ((kind, nm), left) in &free {
        for _ in left {
            nodes.add(format!(
                "{kind} {:?} added",
                String::from_utf8_lossy(nm).into_owned()
            ));
        }
    }
    cameras_differ(src, back, size, &mut nodes);
    (counts, nodes)
}

fn dist(a: [f32; 3], b: [f32; 3]) -> f64 {
    (0..3)
        .map(|k| (f64::from(a[k]) - f64::from(b[k])).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// The angle (radians) between two rotations.
fn angle(a: [f32; 4], b: [f32; 4]) -> f64 {
    let na = a.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let nb = b.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let d: f64 = (0..4)
        .map(|k| f64::from(a[k]) * f64::from(b[k]))
        .sum::<f64>()
        / (na * nb).max(1e-30);
    2.0 * d.abs().min(1.0).acos()
}

/// Where `a`'s and `b`'s transform tracks differ at the moments of [`moments`]: a
/// translation by more than 1e-4 of the model's size, a rotation by more than 2e-3 rad, a
/// scaling by more than 1e-4.
fn tracks_differ(
    src: &Model,
    back: &Model,
    a: &Node,
    b: &Node,
    seqs: &[Option<usize>],
    size: f64,
) -> Option<String> {
    let mut moments = moments(src, a);
    if src.sequences.is_empty() {
        moments.push((usize::MAX, 0.0));
    }
    for (si, t) in moments {
        let (c1, c2) = if si == usize::MAX {
            let rest = AnimTime::new(None, 0.0);
            (Clock::new(src, rest), Clock::new(back, rest))
        } else {
            let Some(Some(bi)) = seqs.get(si) else {
                continue;
            };
            let len = f64::from(back.sequences[*bi].length());
            (
                Clock::unwrapped(src, si, t),
                Clock::unwrapped(back, *bi, t.min(len)),
            )
        };
        let at = || format!("at {t} ms of sequence {si}");
        let t1 = c1.sample(a.tracks.vector3(KGTR), [0.0; 3]);
        let t2 = c2.sample(b.tracks.vector3(KGTR), [0.0; 3]);
        if dist(t1, t2) > 1e-4 * size {
            return Some(format!("translation {t1:?} -> {t2:?} {}", at()));
        }
        let q1 = c1.sample(a.tracks.quaternion(KGRT), [0.0, 0.0, 0.0, 1.0]);
        let q2 = c2.sample(b.tracks.quaternion(KGRT), [0.0, 0.0, 0.0, 1.0]);
        if angle(q1, q2) > 2e-3 {
            return Some(format!("rotation {q1:?} -> {q2:?} {}", at()));
        }
        let s1 = c1.sample(a.tracks.vector3(KGSC), [1.0; 3]);
        let s2 = c2.sample(b.tracks.vector3(KGSC), [1.0; 3]);
        if dist(s1, s2) > 1e-4 {
            return Some(format!("scaling {s1:?} -> {s2:?} {}", at()));
        }
    }
    None
}

/// `a` and `b` equal but for their node part (name, ids, flags, transform tracks: compared
/// on their own) and what `reset` clears.
fn same_but_node<T: Clone + PartialEq>(a: &T, b: &T, reset: impl Fn(&mut T)) -> bool {
    let (mut a, mut b) = (a.clone(), b.clone());
    reset(&mut a);
    reset(&mut b);
    a == b
}

/// What differs in the kind's own data of record `i` of `src` and record `j` of `back`.
fn data_differs(src: &Model, back: &Model, kind: NodeKind, i: usize, j: usize) -> Option<String> {
    macro_rules! plain {
        ($field:ident) => {
            same_but_node(&src.$field[i], &back.$field[j], |r| {
                r.node = Node::default()
            })
        };
    }
    let same = match kind {
        // A bone's geoset ids are informational (the game does not read them).
        NodeKind::Bone => same_but_node(&src.bones[i], &back.bones[j], |r| {
            r.node = Node::default();
            r.geoset_id = 0;
            r.geoset_animation_id = 0;
        }),
        NodeKind::Helper => plain!(helpers),
        NodeKind::Attachment => {
            let (a, b) = (&src.attachments[i], &back.attachments[j]);
            if a.path.text_bytes() != b.path.text_bytes() {
                return Some(format!("path {:?} -> {:?}", a.path.text(), b.path.text()));
            }
            plain!(attachments)
        }
        NodeKind::EventObject => plain!(event_objects),
        NodeKind::CollisionShape => plain!(collision_shapes),
        NodeKind::ParticleEmitter => plain!(particle_emitters),
        NodeKind::ParticleEmitter2 => plain!(particle_emitters2),
        NodeKind::PopcornEmitter => plain!(popcorn_emitters),
        NodeKind::RibbonEmitter => plain!(ribbon_emitters),
        NodeKind::Light => plain!(lights),
    };
    (!same).then(|| "its data differs".to_string())
}

/// Cameras by name: position and target within 1e-4 of the size, the rest equal.
fn cameras_differ(src: &Model, back: &Model, size: f64, row: &mut Row) {
    for a in &src.cameras {
        let what = format!("Camera {:?}", a.name.text());
        let Some(b) = back
            .cameras
            .iter()
            .find(|b| b.name.text_bytes() == a.name.text_bytes())
        else {
            row.add(format!("{what} missing"));
            continue;
        };
        if dist(a.position, b.position) > 1e-4 * size
            || dist(a.target_position, b.target_position) > 1e-4 * size
        {
            row.add(format!("{what}: moved"));
        }
        let mut b2 = b.clone();
        b2.position = a.position;
        b2.target_position = a.target_position;
        if (f64::from(a.field_of_view) - f64::from(b.field_of_view)).abs() < 1e-5 {
            b2.field_of_view = a.field_of_view;
        }
        if &b2 != a {
            row.add(format!("{what}: its data differs"));
        }
    }
}
