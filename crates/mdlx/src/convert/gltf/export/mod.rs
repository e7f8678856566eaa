//! glTF export (see the mapping in [`crate::convert::gltf`]), split by what it does: the skeleton,
//! cameras and lights (`nodes`), geosets and their skinning (`mesh`), the rigs that hide
//! geosets (`visibility`), materials and images (`material`), sequences as animations
//! (`animation`), and the container and its buffer (`document`, `buffer`).

mod animation;
mod buffer;
mod document;
mod material;
mod mesh;
mod nodes;
mod visibility;

pub use document::glb;
pub(crate) use material::base_texture;

use super::curves::Notes;
use super::Losses;
use crate::anim::math::{mul, qnormalize, Mat4, Quat, Vec3};
use crate::anim::Skeleton;
use crate::model::Model;
use crate::Loss;
use buffer::Bin;
use gltf_json::{Index, Root};
use std::path::PathBuf;

/// What an export needs beyond the model.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// The colour that fills team-colour layers (red, the first player's, by default).
    pub team_color: [u8; 3],
    /// Folders to look for textures in, in order (Warcraft III paths are matched without
    /// regard to case, with `\` as `/`; then by file name alone).
    pub texture_dirs: Vec<PathBuf>,
    /// Only STEP and LINEAR keys (the default), for viewers that do not read glTF's cubic
    /// splines as the game does (Blender replaces their tangents with its own handles, and
    /// blends rotations component by component) and for the way back from an editor
    /// ([`ExportOptions::source`]): Hermite and Bezier translations and scalings are
    /// sampled within [`LINEAR_TOLERANCE`] of the model's size, and rotation keys more
    /// than [`LINEAR_MAX_ANGLE`] apart get keys between them. Off: cubic splines, exact.
    pub linear: bool,
    /// The model itself in the root node's `extras` (`mdlx.source`: its MDX bytes, base64),
    /// so that importing the file back after an editor gives every part the editor did not
    /// change exactly as it was (Blender keeps node `extras` as custom properties and writes
    /// them out again; see [`crate::convert::gltf::import()`]). On by default; off for a smaller file
    /// meant only for viewers.
    pub source: bool,
}

/// With [`ExportOptions::linear`]: how far (as a fraction of the model's size) sampled
/// translations and scalings may leave the curve.
pub const LINEAR_TOLERANCE: f32 = 1e-5;
/// With [`ExportOptions::linear`]: the largest angle (radians) between two rotation keys.
pub const LINEAR_MAX_ANGLE: f32 = 0.05;

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            team_color: [255, 3, 3],
            texture_dirs: Vec::new(),
            linear: true,
            source: true,
        }
    }
}

/// An exported model.
#[derive(Debug)]
pub struct Export {
    /// The glTF document.
    pub document: Root,
    /// Its one binary buffer (geometry, animation, images).
    pub bin: Vec<u8>,
    /// What the glTF could not carry, or carried approximately.
    pub losses: Vec<Loss>,
    /// Textures that were not found or could not be decoded: the model's path and why.
    pub missing_textures: Vec<(String, String)>,
    /// The largest angle (radians) by which a resampled rotation leaves the game's spline.
    pub rotation_error: f32,
}

pub(super) fn quat_y_up(q: Quat) -> Quat {
    let q = qnormalize(q);
    [q[0], q[2], -q[1], q[3]]
}

fn scale_y_up(s: Vec3) -> Vec3 {
    [s[0], s[2], s[1]]
}

/// `C m C⁻¹`: a transform of Warcraft space as one of glTF space.
fn mat_y_up(m: &Mat4) -> Mat4 {
    const C: Mat4 = [
        1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    const CI: Mat4 = [
        1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    mul(&mul(&C, m), &CI)
}

fn finite3(v: Vec3) -> bool {
    v.iter().all(|c| c.is_finite())
}

fn translate(t: Vec3) -> Mat4 {
    let mut m = crate::anim::math::IDENTITY;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m
}

/// The most keys a global sequence is repeated into, per track and animation.
const MAX_CYCLE_KEYS: usize = 100_000;
/// The most keys global sequences are repeated into over a whole export.
const MAX_EXPORT_CYCLE_KEYS: usize = 20_000_000;
/// Don't-inherit nodes are sampled at least this often (ms), and at most this many times
/// per animation beyond their key times.
const BAKE_STEP_MS: f64 = 1000.0 / 60.0;
const BAKE_MAX_GRID: f64 = 2000.0;

fn extras(v: serde_json::Value) -> gltf_json::Extras {
    serde_json::value::to_raw_value(&v).ok()
}

/// The bytes of a name or path as hex, when they are not UTF-8 (JSON strings cannot hold
/// them; [`import`] reads them back from `extras`).
fn raw_hex(s: &crate::model::FixedString) -> Option<String> {
    let b = s.text_bytes();
    std::str::from_utf8(b)
        .is_err()
        .then(|| b.iter().map(|x| format!("{x:02x}")).collect())
}

/// The longest name Blender keeps (its names are 63 bytes; a longer one is cut, and Blender
/// 3.4 and 4.5 fail to import a joint whose name it cuts inside a character).
const BLENDER_NAME: usize = 63;

/// `name` cut to [`BLENDER_NAME`] bytes on a character boundary (the model's own name stays
/// whole in the node's record, and in `mdlx.source`).
pub(crate) fn short_name(name: &str) -> String {
    let mut end = name.len().min(BLENDER_NAME);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name[..end].to_string()
}

/// The model's MDX bytes as `mdlx.source` in the root node's extras.
fn embed_source(model: &Model, linear: bool, root: &mut Root, losses: &mut Losses) {
    let bytes = match crate::mdx::to_bytes(model) {
        Ok(b) => b,
        Err(e) => {
            losses.add(
                "model",
                format!("the model is not embedded for a lossless way back ({e})"),
            );
            return;
        }
    };
    let Some(node) = root.nodes.first_mut() else {
        return;
    };
    let mut v: serde_json::Value = node
        .extras
        .as_ref()
        .and_then(|e| serde_json::from_str(e.get()).ok())
        .unwrap_or_else(|| serde_json::json!({"mdlx": {}}));
    v["mdlx"]["source"] = serde_json::Value::String(document::base64(&bytes));
    // How the animations were written, for the import to write them again the same way
    // and tell what an editor changed (a number: Blender 3.4 turns booleans into numbers).
    v["mdlx"]["linear"] = serde_json::json!(u8::from(linear));
    node.extras = extras(v);
}

/// Exports `model` as glTF.
pub fn export(model: &Model, options: &ExportOptions) -> Export {
    let mut root = Root {
        asset: gltf_json::Asset {
            generator: Some(format!("mdlx {}", env!("CARGO_PKG_VERSION"))),
            ..Default::default()
        },
        ..Default::default()
    };
    let mut bin = Bin::default();
    let mut losses = Losses::default();
    let skeleton = Skeleton::new(model);

    // The root, then one glTF node per model node, in the skeleton's order.
    let mut children = nodes::skeleton_nodes(model, &skeleton, &mut root, &mut losses);
    if options.source {
        embed_source(model, options.linear, &mut root, &mut losses);
    }
    // Geosets: skinning first, to know whether an extra joint is needed for vertices
    // bound to no node.
    let geo = mesh::geosets(model, &skeleton, &mut losses);
    let (skin, joint_count) = nodes::skin(&skeleton, &geo, &mut children, &mut root, &mut bin);

    // Visibility: geosets that hide at some moment get a rig of their own (see
    // `VisibilityRig`).
    let mut notes = Notes::with_budget(MAX_EXPORT_CYCLE_KEYS);
    let (rigs, copies) = visibility::rigs(
        model,
        &skeleton,
        &geo,
        &mut children[0],
        &mut root,
        &mut bin,
        &mut notes,
    );
    if !children[0].is_empty() {
        root.nodes[0].children = Some(children[0].iter().map(|&k| Index::new(k)).collect());
    }

    // Meshes: one node per geoset at the scene root.
    let mut materials = material::Materials::new(model, options);
    let mut scene_nodes: Vec<Index<gltf_json::Node>> = vec![Index::new(0)];
    let skins = mesh::Skins {
        shared: skin,
        joint_count,
        rigs: &rigs,
    };
    mesh::meshes(
        model,
        &geo,
        &skins,
        &mut materials,
        &mut scene_nodes,
        &mut root,
        &mut bin,
        &mut losses,
    );

    // Cameras and lights.
    nodes::cameras(model, &mut root, &mut scene_nodes, &mut losses);
    nodes::lights(model, &skeleton, &mut root, &mut losses);

    // Animations.
    animation::animations(
        model,
        options,
        &skeleton,
        &rigs,
        &copies,
        &mut root,
        &mut bin,
        &mut losses,
        &mut notes,
    );
    document::finish(model, root, bin, losses, notes, materials, scene_nodes)
}
