//! A file this crate exported with its model embedded ([`ExportOptions::source`]),
//! imported after an editor wrote it again: what the editor left as it was comes back
//! exactly as the embedded model has it, what it changed comes from the glTF.
//!
//! Blender keeps every node's, mesh's and material's `extras` (as custom properties) and
//! writes them out again; it does not keep the document's order, names longer than 63
//! bytes or repeated names, animation `extras`, key times (it samples every frame unless
//! told not to), cubic tangents, the skins' bind matrices (3.4 turns the bones) or the
//! vertices' order (it merges identical ones and splits others). So every part is
//! recognised by the identity its `extras` carry (a node's kind and index, a mesh's geoset,
//! a material's index), never by position or name, and compared where the game sees it:
//!
//! - **Sequences** by name (Blender cuts it to 63 bytes and numbers repeats `.001`): each
//!   keeps its interval, flags, rarity, move speed and extent; an animation no sequence
//!   names is a renamed sequence when exactly one sequence lost its animation, else a new
//!   sequence laid after the others; a sequence whose animation is gone is removed.
//! - **Nodes** by their posed transform relative to their parent, at every key time the
//!   glTF has for them in each sequence ([`TOLERANCE`] of the model's size for positions,
//!   the same in radians for rotations): a sequence where they agree keeps the model's own
//!   keys (and tangents); one where they differ takes the glTF's keys for that sequence, in
//!   the track's own interpolation. A node whose pivot or parent changed takes the glTF's
//!   keys in every sequence. A node the glTF no longer has is removed (its children go to
//!   its parent); a node without identity is new.
//! - **Geosets** by their triangles: vertices matched by position, normal, UV and skinning
//!   (a vertex Blender split or merged is the same vertex); the same triangles keep the
//!   model's geoset, byte for byte; others are the glTF's mesh in the geoset's place.
//! - **Materials** by their base colour image: another image than the one exported is a new
//!   texture for the layer that gave it.
//! - **Cameras** by their position. Everything glTF has no place for (emitters, collision
//!   shapes, event times, lights' and layers' animation, texture animations, geoset
//!   animations, global sequences, the file's layout) comes from the embedded model.
//!
//! [`ExportOptions::source`]: crate::convert::gltf::ExportOptions::source

mod geosets;
mod materials;
mod motion;
mod nodes;
mod sequences;
mod tracks;

use super::{mdlx_extras, Import};
use crate::anim::NodeKind;
use crate::gltf::source::{decode_base64, GltfError, Source};
use crate::model::Model;
use serde_json::Value;

/// How far a part of the glTF may be from the embedded model's and still be that part
/// unchanged: positions as a fraction of the model's size, the rest of a transform
/// (rotation and scale) relative to the larger of 1 and its scale. The export itself
/// samples spline rotations within 1e-4 radians, and Blender's float arithmetic moves
/// values by about 1e-6; an edit a modder makes moves them by far more.
pub(crate) const TOLERANCE: f32 = 1e-3;

/// The model a file this crate exported embeds: `None` when it embeds none, else the
/// model, or why it does not read.
pub(super) fn embedded(doc: &gltf_json::Root) -> Option<Result<Model, String>> {
    doc.nodes.iter().find_map(|n| {
        let m = mdlx_extras(&n.extras)?;
        if m.get("kind").and_then(Value::as_str) != Some("root") {
            return None;
        }
        let text = m.get("source")?.as_str()?;
        Some(decode_base64(text).and_then(|bytes| {
            crate::mdx::from_bytes(&bytes).map_err(|e| format!("the embedded model: {e}"))
        }))
    })
}

/// Whether two values `d` apart are farther apart than `tol` (a difference that is not a
/// number is far).
pub(super) fn far(d: f32, tol: f32) -> bool {
    d.is_nan() || d > tol
}

/// A flag of the export the root node's `extras` record (`mdlx.linear`, ...).
fn embedded_option(doc: &gltf_json::Root, key: &str) -> bool {
    doc.nodes.iter().any(|n| {
        mdlx_extras(&n.extras).is_some_and(|m| {
            m.get("kind").and_then(Value::as_str) == Some("root")
                && m.get(key)
                    .is_some_and(|v| v.as_bool() == Some(true) || v.as_u64() == Some(1))
        })
    })
}

/// The place of the import's notes on a file with an embedded model: what came back as it
/// was, and what the glTF changed.
pub const ROUND_TRIP: &str = "round trip";

/// What the glTF's `extras` say each part is.
pub(super) struct Ids {
    /// Per glTF node: the kind and index of the model's node it is.
    pub(super) nodes: Vec<Option<(NodeKind, usize)>>,
    /// Per glTF node: the geoset its mesh is.
    pub(super) geosets: Vec<Option<usize>>,
    /// Per glTF node: the camera it is.
    pub(super) cameras: Vec<Option<usize>>,
    /// Per glTF material: the model's material it is.
    pub(super) materials: Vec<Option<usize>>,
    /// Per glTF node: this crate's own helpers (the root, visibility rigs and their copies,
    /// the node for unbound vertices): not model nodes.
    pub(super) ours: Vec<bool>,
    /// Per glTF node: its parent.
    pub(super) parent: Vec<Option<usize>>,
}

const KINDS: [NodeKind; 10] = [
    NodeKind::Bone,
    NodeKind::Light,
    NodeKind::Helper,
    NodeKind::Attachment,
    NodeKind::ParticleEmitter,
    NodeKind::ParticleEmitter2,
    NodeKind::PopcornEmitter,
    NodeKind::RibbonEmitter,
    NodeKind::EventObject,
    NodeKind::CollisionShape,
];

fn index_of(m: &Value, key: &str) -> Option<usize> {
    m.get(key)?.as_u64().map(|i| i as usize)
}

impl Ids {
    pub(super) fn of(doc: &gltf_json::Root) -> Ids {
        let n = doc.nodes.len();
        let mut ids = Ids {
            nodes: vec![None; n],
            geosets: vec![None; n],
            cameras: vec![None; n],
            materials: vec![None; doc.materials.len()],
            ours: vec![false; n],
            parent: vec![None; n],
        };
        for (i, node) in doc.nodes.iter().enumerate() {
            for c in node.children.iter().flatten() {
                if let Some(p) = ids.parent.get_mut(c.value()) {
                    *p = Some(i);
                }
            }
        }
        let mut seen = std::collections::HashSet::new();
        for (i, node) in doc.nodes.iter().enumerate() {
            if node.name.as_deref() == Some("(unbound vertices)") {
                ids.ours[i] = true;
            }
            let Some(m) = mdlx_extras(&node.extras) else {
                continue;
            };
            let kind = m.get("kind").and_then(Value::as_str).unwrap_or("");
            match kind {
                "root" | "copy" | "visibility" => ids.ours[i] = true,
                "geoset" => ids.geosets[i] = index_of(&m, "geoset"),
                "Camera" => ids.cameras[i] = index_of(&m, "index"),
                _ => {
                    let k = KINDS.iter().find(|k| k.name() == kind);
                    // A node Blender duplicated carries the same extras: the first is the
                    // node, the others are new.
                    if let (Some(&k), Some(index)) = (k, index_of(&m, "index")) {
                        if seen.insert((k.name(), index)) {
                            ids.nodes[i] = Some((k, index));
                        }
                    }
                }
            }
        }
        for (i, mat) in doc.materials.iter().enumerate() {
            let v: Option<Value> = mat
                .extras
                .as_ref()
                .and_then(|e| serde_json::from_str(e.get()).ok());
            ids.materials[i] = v
                .as_ref()
                .and_then(|v| v.get("mdlx"))
                .and_then(|m| index_of(m, "material"));
        }
        ids
    }
}

/// Whether `got` is `exported` as Blender gives a name back: the same, cut to 63 bytes,
/// or either with a `.001`-style number after it (Blender cuts the name further to make
/// room for the number); an empty name as Blender names what has none.
pub(super) fn same_name(exported: &str, got: &str) -> bool {
    let base = match got.rsplit_once('.') {
        Some((b, n)) if n.len() == 3 && n.bytes().all(|c| c.is_ascii_digit()) => b,
        _ => got,
    };
    let short = crate::convert::gltf::export::short_name(exported);
    let cut = |g: &str| g.len() >= 59 && short.starts_with(g);
    // Blender names what has no name after its glTF index: `Node_3`, `Anim_2`.
    let default = |g: &str| {
        ["Node_", "Anim_"].iter().any(|p| {
            g.strip_prefix(p)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
        })
    };
    (exported.is_empty() && default(base))
        || got == exported
        || got == short
        || base == exported
        || base == short
        || (got != base && cut(base))
}

/// What the reconciliation found changed, for the import's notes.
#[derive(Default)]
pub(super) struct Changes(Vec<String>);

impl Changes {
    pub(super) fn add(&mut self, what: impl Into<String>) {
        self.0.push(what.into());
    }
}

/// The model `fresh` made of the glTF (with `sources`: where its parts came from), reconciled with the
/// embedded model `kept`: see the module documentation.
pub(super) fn reconcile(
    kept: Model,
    fresh: Import,
    sources: &super::Sources,
    src: &Source,
    opts: &super::ImportOptions,
) -> Result<Import, GltfError> {
    let doc = &src.root;
    let ids = Ids::of(doc);
    let mut changes = Changes::default();
    let size = kept.size().max(1.0);
    let seqs = sequences::matched(&kept, &fresh.model, doc, &mut changes);
    let mut out = kept.clone();
    seqs.apply(&mut out);
    // What the glTF would hold had nothing changed it: the embedded model's own export,
    // read back the same way (so that what the export and import themselves approximate
    // is not taken for a change).
    let linear = embedded_option(doc, "linear");
    let again = crate::convert::gltf::export(
        &kept,
        &crate::convert::gltf::ExportOptions {
            source: false,
            linear,
            ..Default::default()
        },
    )
    .to_glb();
    let again = Source::from_bytes(&again, None)?;
    let base_player = motion::Player::new(&again, opts)?;
    let base_ids = Ids::of(&again.root);
    let base = nodes::Base {
        player: &base_player,
        ids: &base_ids,
    };
    let glb = motion::Player::new(src, opts)?;
    let node_map = nodes::merge(
        &mut out,
        &kept,
        &fresh,
        sources,
        &ids,
        &glb,
        &base,
        src,
        &seqs,
        size,
        &mut changes,
    );
    let mut mats = materials::merge(&mut out, &kept, &fresh, sources, doc, &ids, &mut changes);
    let skin_error = geosets::merge(
        &mut out,
        &kept,
        &fresh,
        &ids,
        &node_map,
        &mut mats,
        &seqs,
        size,
        &mut changes,
    );
    materials::drop_unused(&mut out, &kept, &mut mats, &mut changes);
    let world = super::graph::graph(doc)?.world;
    materials::cameras(&mut out, &kept, doc, &ids, &world, size, &mut changes);
    let notes = if changes.0.is_empty() {
        vec![crate::Loss::new(
            ROUND_TRIP,
            "nothing changed in the glTF: the model embedded in it, as it was",
        )]
    } else {
        changes
            .0
            .into_iter()
            .map(|c| crate::Loss::new(ROUND_TRIP, format!("changed in the glTF: {c}")))
            .collect()
    };
    Ok(Import {
        model: out,
        losses: Vec::new(),
        textures: mats.textures,
        geosets: Vec::new(),
        skin_error,
        rotation_error: 0.0,
        scale: 1.0,
        height: fresh.height,
        notes,
    })
}
