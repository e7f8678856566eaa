//! The node part shared by all objects (`ObjectId`, `Parent`, billboard and inheritance
//! flags, `Translation`/`Rotation`/`Scaling`), and the node-only blocks: `Bone`, `Helper`,
//! `Attachment`, `EventObject`, `CollisionShape`, `Light`.

use super::{node_parts, MdlRecord};
use crate::mdl::cx::{is, Cx};
use crate::mdl::out::Out;
use crate::mdl::tracks::{read_static_track, read_track, write_track, INTERPOLATIONS};
use crate::model::*;
use crate::spec::track as tk;

/// Node flag words and their bits (the kind bits are implied by the block).
pub(crate) const NODE_FLAGS: &[(&str, u32)] = &[
    ("Billboarded", 0x8),
    ("BillboardedLockX", 0x10),
    ("BillboardedLockY", 0x20),
    ("BillboardedLockZ", 0x40),
    ("CameraAnchored", 0x80),
];

/// Spellings some exporters use for the same flags.
const NODE_FLAG_ALIASES: &[(&str, u32)] = &[
    ("BillboardLockX", 0x10),
    ("BillboardLockY", 0x20),
    ("BillboardLockZ", 0x40),
];

/// `DontInherit { ... }` words and their bits. Rotation is 0x2 and Scaling 0x4, as Magos'
/// War3 Model Editor writes them (its MDL of `HeroBladeMaster` beside the MDX in the corpus,
/// checked by `evidence_dont_inherit_bits` in `tests/peer_mdl.rs`), and as MdxLib,
/// war3-model and the `wc3` crate read them;
/// mdx-m3-viewer and FORMAT-NOTES have the two swapped.
const DONT_INHERIT: &[(&str, u32)] = &[("Translation", 0x1), ("Rotation", 0x2), ("Scaling", 0x4)];

pub(crate) use crate::spec::kind;

/// Node transform tracks.
const NODE_TRACKS: &[(Tag, &str)] = &[
    (tk::KGTR, "Translation"),
    (tk::KGRT, "Rotation"),
    (tk::KGSC, "Scaling"),
];

/// Whether item `c` is an animated value (`Key N { Linear, 0: ... }`) rather than a static
/// one (`static Key v`, `Key { a, b, c }`).
pub(crate) fn is_track(cx: &Cx, c: usize) -> bool {
    if cx.is_static(c) || !cx.has_body(c) {
        return false;
    }
    let t = cx.t;
    t.children(c).take(3).any(|k| {
        let atoms = t.item_atoms(k);
        atoms
            .iter()
            .any(|a| a.kind == crate::mdl::parse::AtomKind::Colon)
            || atoms.first().is_some_and(|a| {
                let w = t.text(a);
                INTERPOLATIONS.iter().any(|i| is(w, i)) || is(w, "GlobalSeqId")
            })
    }) || t.children(c).next().is_none()
}

/// Finds the track tag for keyword `k` in a record's table.
pub(crate) fn track_tag(k: &[u8], table: &[(Tag, &str)]) -> Option<Tag> {
    table.iter().find(|(_, name)| is(k, name)).map(|(t, _)| *t)
}

/// A track written under its raw tag (a track this record does not normally hold).
pub(crate) fn raw_tag(k: &[u8]) -> Option<Tag> {
    // Not only `K...`: the 1200+ camera tracks are IDUF, ELAF and PTSF.
    (k.len() == 4 && crate::spec::track_kind(Tag([k[0], k[1], k[2], k[3]])).is_some())
        .then(|| Tag([k[0], k[1], k[2], k[3]]))
}

/// Reads one item of a node block (`block`, for messages) if it belongs to the node part;
/// returns false otherwise. A static transform (`static Translation { .. }`) is read as a
/// track: MDX stores a node's transforms only as tracks.
pub(crate) fn read_node_item(cx: &mut Cx, c: usize, node: &mut Node, block: &'static str) -> bool {
    let k = cx.key(c);
    if is(k, "ObjectId") {
        if let Some(v) = cx.u32_arg(c, "ObjectId") {
            node.object_id = v;
            cx.saw_object_id = true;
        }
    } else if is(k, "Parent") {
        if let Some(v) = cx.i32_arg(c, "Parent") {
            node.parent_id = v;
        }
    } else if let Some((_, bit)) = NODE_FLAGS
        .iter()
        .chain(NODE_FLAG_ALIASES)
        .find(|(w, _)| is(k, w))
    {
        node.flags |= bit;
    } else if is(k, "DontInherit") {
        let t = cx.t;
        for d in t.children(c) {
            for a in t.item_atoms(d) {
                match DONT_INHERIT.iter().find(|(w, _)| is(t.text(a), w)) {
                    Some((_, bit)) => node.flags |= bit,
                    None => cx.unknown(d, "DontInherit", &["Translation", "Scaling", "Rotation"]),
                }
            }
        }
    } else if let Some(tag) = track_tag(k, NODE_TRACKS)
        .filter(|_| is_track(cx, c))
        .or_else(|| raw_tag(k).filter(|_| cx.has_body(c)))
    {
        // A raw tag (`KGAC 3 { ... }`) is a track this kind of block does not normally
        // hold; it is taken as a node track (the extension block keeps the exact record
        // when it belonged to the record's own tracks).
        if let Some(a) = read_track(cx, c, tag) {
            node.tracks.0.push(a);
        }
    } else if let Some(tag) = track_tag(k, NODE_TRACKS) {
        if let Some(a) = read_static_track(cx, c, tag, block) {
            node.tracks.0.push(a);
        }
    } else {
        return false;
    }
    true
}

/// Starts a node block: `Kind "name" {`, ids and flag words.
pub(crate) fn write_node_head(out: &mut Out, block: &str, node: &Node) {
    out.open_named(block, &node.name);
    // Signed, as mdx-m3-viewer and war3-model print it (war3-model sizes its node list by
    // the largest id and hangs on 4294966975; -321 reads back to the same bits).
    out.kv_int("ObjectId", node.object_id as i32 as i64);
    if node.parent_id != -1 {
        out.kv_int("Parent", node.parent_id as i64);
    }
    for (word, bit) in NODE_FLAGS {
        if node.flags & bit != 0 {
            out.flag(word);
        }
    }
    // One statement per bit, as mdx-m3-viewer writes them: war3-model reads a single word
    // per `DontInherit { }` (it fails on `{ Rotation, Scaling }`); every reader, ours
    // included, adds up the statements.
    for (word, bit) in DONT_INHERIT {
        if node.flags & bit != 0 {
            out.indent();
            out.raw("DontInherit { ");
            out.raw(word);
            out.raw(" },\n");
        }
    }
}

/// Writes the node's transform tracks in stored order.
pub(crate) fn write_node_tracks(out: &mut Out, node: &Node) {
    write_tracks(out, &node.tracks, NODE_TRACKS);
}

/// Writes tracks in stored order under the record's keywords (raw tag when unknown here).
pub(crate) fn write_tracks(out: &mut Out, tracks: &Tracks, table: &[(Tag, &str)]) {
    for a in tracks.iter() {
        let tag_text;
        let kw = match table.iter().find(|(t, _)| *t == a.tag) {
            Some((_, kw)) => *kw,
            None => {
                tag_text = a.tag.text();
                &tag_text
            }
        };
        write_track(out, kw, a);
    }
}

/// Reads an item that is a record-level track (by keyword or raw tag); false otherwise.
pub(crate) fn read_record_track(
    cx: &mut Cx,
    c: usize,
    table: &[(Tag, &str)],
    tracks: &mut Tracks,
) -> bool {
    let k = cx.key(c);
    let tag = track_tag(k, table)
        .filter(|_| is_track(cx, c))
        .or_else(|| raw_tag(k).filter(|_| cx.has_body(c)));
    match tag.and_then(|tag| read_track(cx, c, tag)) {
        Some(a) => {
            tracks.0.push(a);
            true
        }
        None => tag.is_some(),
    }
}

/// Node fields every block accepts, for messages.
pub(crate) const NODE_WORDS: &[&str] = &[
    "ObjectId",
    "Parent",
    "Billboarded",
    "BillboardedLockX",
    "BillboardedLockY",
    "BillboardedLockZ",
    "CameraAnchored",
    "DontInherit",
    "Translation",
    "Rotation",
    "Scaling",
];

/// A node as a block reader starts it: no parent, no id yet, and the block's kind bit.
pub(crate) fn new_node(kind_bit: u32) -> Node {
    Node {
        parent_id: -1,
        object_id: u32::MAX,
        flags: kind_bit,
        ..Node::default()
    }
}

const SHAPES: [&str; 4] = ["Box", "Plane", "Sphere", "Cylinder"];

impl MdlRecord for CollisionShape {
    const BLOCK: &'static str = "CollisionShape";

    node_parts!(node_only);

    fn read_mdl(cx: &mut Cx, i: usize) -> Self {
        let mut s = CollisionShape {
            node: new_node(kind::COLLISION_SHAPE),
            shape: Shape::Box([[0.0; 3]; 2]),
        };
        s.node.name = cx.name_arg(i);
        let (mut ty, mut verts, mut radius) = (0usize, Vec::new(), 0f32);
        for c in cx.children(i) {
            if read_node_item(cx, c, &mut s.node, Self::BLOCK) {
                continue;
            }
            let k = cx.key(c);
            if let Some(n) = SHAPES.iter().position(|w| is(k, w)) {
                ty = n;
            } else if is(k, "Vertices") {
                verts = cx.float_list::<3>(c);
            } else if is(k, "BoundsRadius") {
                radius = cx.f32_arg(c).unwrap_or(0.0);
            } else {
                cx.unknown(c, "CollisionShape", NODE_WORDS);
            }
        }
        let v = |n: usize| verts.get(n).copied().unwrap_or([0.0; 3]);
        s.shape = match ty {
            0 => Shape::Box([v(0), v(1)]),
            1 => Shape::Plane([v(0), v(1)]),
            2 => Shape::Sphere(v(0), radius),
            _ => Shape::Cylinder([v(0), v(1)], radius),
        };
        s
    }

    fn write_mdl(&self, out: &mut Out, _version: u32) {
        write_node_head(out, Self::BLOCK, &self.node);
        let (ty, verts, radius): (usize, Vec<[f32; 3]>, Option<f32>) = match &self.shape {
            Shape::Box(v) => (0, v.to_vec(), None),
            Shape::Plane(v) => (1, v.to_vec(), None),
            Shape::Sphere(c, r) => (2, vec![*c], Some(*r)),
            Shape::Cylinder(v, r) => (3, v.to_vec(), Some(*r)),
            // Cut-off numbers cannot be written; the extension block keeps the record.
            Shape::Incomplete { shape_type, .. } => {
                ((*shape_type as usize).min(3), Vec::new(), None)
            }
        };
        out.flag(SHAPES[ty]);
        out.open_counted("Vertices", verts.len());
        for v in &verts {
            out.indent();
            out.floats(v);
            out.raw(",\n");
        }
        out.close();
        if let Some(r) = radius {
            out.kv_f32("BoundsRadius", r);
        }
        write_node_tracks(out, &self.node);
        out.close();
    }
}
