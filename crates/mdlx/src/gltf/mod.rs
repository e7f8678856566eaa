//! glTF 2.0 export: a model as one self-contained `.glb` (or `.gltf`), with its skeleton,
//! skinning, every sequence as an animation, geoset visibility, materials and textures.
//!
//! ```
//! let bytes = include_bytes!("../../../../examples/cube.mdx");
//! let model = mdlx::mdx::from_bytes(bytes).unwrap();
//! let out = mdlx::gltf::export(&model, &mdlx::gltf::ExportOptions::default());
//! let glb = out.to_glb();
//! assert_eq!(&glb[..4], b"glTF");
//! assert_eq!(out.document.animations.len(), model.sequences.len());
//! ```
//!
//! # The mapping, and why
//! - **Axes.** Warcraft III is +Z up, glTF +Y up: every position, direction and rotation is
//!   turned by -90 degrees about X, `(x, y, z) -> (x, z, -y)`. No extra root node carries
//!   the turn, so Blender's importer (which turns +Y up back to +Z up) gives the model's own
//!   coordinates.
//! - **Nodes.** Every node (bones, lights, helpers, attachments, emitters, event objects,
//!   collision shapes) is a glTF node with its name and parent, under one root node named
//!   after the model (a skin's joints need a common root). The game rotates and scales a
//!   node about its pivot; a glTF node turns about its own origin. So each node sits at its
//!   pivot minus its parent's pivot, plus its animated translation, and the skin's inverse
//!   bind matrices are translate(-pivot): `glTF world = game world * translate(pivot)`,
//!   exactly, at every moment.
//! - **Don't-inherit flags** have no glTF form. Such a node's motion is baked: at every key
//!   time of its own and its ancestors' tracks, and at least 60 times a second, its game
//!   world transform is taken relative to its parent's and stored as linear keys.
//! - **Billboards** need a camera: the nodes are kept as plain nodes, listed as a loss.
//! - **Skinning.** A v800 vertex group becomes joints with equal weights (more than four
//!   bones use `JOINTS_1`/`WEIGHTS_1` and on; a viewer that reads only the first set, as
//!   three.js does, moves such a vertex by its first four bones, renormalised). Reforged
//!   skin weights are kept as stored (bytes out of 255). A vertex bound to no node stays in
//!   place, bound to a joint of its own at the origin.
//! - **Animations.** One per sequence, named like it, from 0 s to the sequence's length,
//!   with `extras` holding its interval, looping, rarity and move speed. Only keys inside
//!   the sequence's interval count; the value at each end is added as a key when the track
//!   has none there (held, as the game holds it). Step and linear stay STEP and LINEAR;
//!   Hermite and Bezier translations and scalings become CUBICSPLINE exactly (the game's
//!   tangents divided by the key spacing; Bezier control points turned into Hermite
//!   derivatives). Hermite and Bezier rotations (the game's squad spline is not glTF's)
//!   are sampled into LINEAR keys, as densely as needed to stay within
//!   [`curves::ROTATION_TOLERANCE`] (1e-4 rad) of the spline, halving where it strays;
//!   where the game's spline itself jumps (its inner slerps switch hemispheres), the jump
//!   is kept as a straight line 2^-16 of the key interval long, and counted. The end of an
//!   animation is the sequence's last frame, not the first frame of its next loop.
//! - **Global sequences** run on their own clocks in the game. Each animation bakes them
//!   from its start, as if the global clock started with it: their cycles are laid end to
//!   end over the sequence's length (exactly, the keys repeated).
//! - **Visibility.** A geoset is its own mesh node at the scene root; when geoset-animation
//!   alpha or layer alpha hides it, that node's scale steps to 0. glTF says a skinned
//!   mesh's node transform is ignored, but three.js collapses the mesh when that node is
//!   scaled to 0 and Blender scales the mesh object. Alpha between 0 and 1 is not animated
//!   (a loss); static alpha goes into the material.
//! - **Materials** (see [`material`]): the first layer that is not team colour or glow
//!   gives the base colour texture, with a team-colour layer under it baked in (colour of
//!   your choice, default red); filter modes map to alpha modes; two-sided and unshaded
//!   map to `doubleSided` and `KHR_materials_unlit`; Reforged HD layers fill the PBR slots.
//!   Textures are looked up beside the model and in the folders given, decoded and
//!   embedded as PNG.
//! - **Cameras** become glTF cameras looking at their targets; omni and directional
//!   lights become `KHR_lights_punctual` lights; emitters, event objects and collision
//!   shapes stay nodes with their data in `extras`.
//! - **Reforged levels of detail.** The geosets the game draws at full detail are
//!   exported: LOD 0 and LOD -1 (drawn at every level; mdx-m3-viewer draws `lod == 0 ||
//!   lod == -1`); the others are coarser copies of the same mesh that would all show at
//!   once, and are listed.

pub mod buffer;
pub mod curves;
pub mod import;
pub mod material;
pub mod source;

use crate::anim::math::{decompose, invert_affine, mul, qnormalize, Mat4, Quat, Vec3};
use crate::anim::{geoset_alphas, Clock, NodeKind, Skeleton};
use crate::format::track::{self, KGAO, KGRT, KGSC, KGTR, KMTA};
use crate::format::version as ver;
use crate::model::{light_type, node_flags, Light, Model, Shape};
use crate::Loss;
use buffer::Bin;
use curves::{constant, seconds, track_curve, CKey, Curve, Interp, Notes};
use gltf_json::accessor::Type;
use gltf_json::animation::{Channel, Interpolation, Property, Sampler, Target};
use gltf_json::buffer::Target as BufferTarget;
use gltf_json::mesh::{Mode, Primitive, Semantic};
use gltf_json::scene::UnitQuaternion;
use gltf_json::validation::{Checked, USize64};
use gltf_json::{Index, Root};
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

pub use import::{import, Import, ImportOptions};
pub use source::{GltfError, Source};

/// What an export needs beyond the model.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// The colour that fills team-colour layers (red, the first player's, by default).
    pub team_color: [u8; 3],
    /// Folders to look for textures in, in order (Warcraft III paths are matched without
    /// regard to case, with `\` as `/`; then by file name alone).
    pub texture_dirs: Vec<PathBuf>,
    /// Only STEP and LINEAR keys, for viewers that do not read glTF's cubic splines
    /// (Blender 3.4 replaces their tangents with its own handles, and blends rotations
    /// component by component): Hermite and Bezier translations and scalings are sampled
    /// within [`LINEAR_TOLERANCE`] of the model's size, and rotation keys more than
    /// [`LINEAR_MAX_ANGLE`] apart get keys between them.
    pub linear: bool,
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
            linear: false,
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

impl Export {
    /// The `.glb` file: the JSON and the buffer in one binary container.
    pub fn to_glb(&self) -> Vec<u8> {
        let json = serde_json::to_vec(&self.document).expect("a glTF document serialises");
        glb(&json, &self.bin)
    }

    /// A `.gltf` file that holds everything: the buffer as a base64 `data:` URI.
    pub fn to_gltf(&self) -> String {
        let mut doc = self.document.clone();
        if let Some(b) = doc.buffers.first_mut() {
            b.uri = Some(format!(
                "data:application/octet-stream;base64,{}",
                base64(&self.bin)
            ));
        }
        serde_json::to_string_pretty(&doc).expect("a glTF document serialises")
    }
}

/// A GLB container: `json` (padded with spaces) and, when not empty, `bin` (padded with
/// zeros) as its two chunks.
pub fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let json_len = json.len().next_multiple_of(4);
    let bin_len = bin.len().next_multiple_of(4);
    let total = 12 + 8 + json_len + if bin_len == 0 { 0 } else { 8 + bin_len };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json_len as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(json);
    out.resize(20 + json_len, b' ');
    if bin_len > 0 {
        out.extend_from_slice(&(bin_len as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(bin);
        out.resize(total, 0);
    }
    out
}

fn base64(data: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        s.push(A[(n >> 18) as usize & 63] as char);
        s.push(A[(n >> 12) as usize & 63] as char);
        s.push(if c.len() > 1 {
            A[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        s.push(if c.len() > 2 {
            A[n as usize & 63] as char
        } else {
            '='
        });
    }
    s
}

/// Warcraft III's +Z up to glTF's +Y up.
pub fn to_y_up(v: Vec3) -> Vec3 {
    [v[0], v[2], -v[1]]
}

/// glTF's +Y up back to Warcraft III's +Z up.
pub fn from_y_up(v: Vec3) -> Vec3 {
    [v[0], -v[2], v[1]]
}

fn quat_y_up(q: Quat) -> Quat {
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

/// Losses counted by kind: `what` -> places.
#[derive(Default)]
struct Losses(BTreeMap<String, Vec<String>>);

impl Losses {
    fn add(&mut self, place: impl Into<String>, what: impl Into<String>) {
        self.0.entry(what.into()).or_default().push(place.into());
    }

    /// One [`Loss`] per kind; the place names up to three records and counts the rest.
    fn into_list(self) -> Vec<Loss> {
        self.0
            .into_iter()
            .map(|(what, places)| {
                let n = places.len();
                let mut place = places[..n.min(3)].join(", ");
                if n > 3 {
                    place.push_str(&format!(" and {} more", n - 3));
                }
                let what = if n > 1 { format!("{what} ({n})") } else { what };
                Loss::new(place, what)
            })
            .collect()
    }
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
    let n = skeleton.nodes.len();
    let gnode = |i: usize| i + 1; // glTF index of skeleton node i

    // The root, then one glTF node per model node, in the skeleton's order.
    let model_name = model.info.name.to_string();
    root.push(gltf_json::Node {
        name: Some(if model_name.is_empty() {
            "model".into()
        } else {
            model_name
        }),
        extras: extras(json!({"mdlx": {"kind": "root", "version": model.version,
            "global_sequences": model.global_sequences}})),
        ..Default::default()
    });
    let mut children: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
    for (i, sn) in skeleton.nodes.iter().enumerate() {
        let parent_pivot = sn.parent.map_or([0.0; 3], |p| skeleton.nodes[p].pivot);
        let t = to_y_up([0, 1, 2].map(|k| sn.pivot[k] - parent_pivot[k]));
        let place = format!("{}[{}]", sn.kind.name(), sn.index);
        let f = sn.node.flags;
        if f & node_flags::BILLBOARD != 0 {
            losses.add(
                place.clone(),
                "billboarded node kept as a plain node (glTF has no billboards)",
            );
        }
        root.push(gltf_json::Node {
            name: Some(sn.node.name.to_string()),
            translation: finite3(t).then_some(t),
            extras: extras(node_extras(model, sn.kind, sn.index, &mut losses, &place)),
            ..Default::default()
        });
        children[sn.parent.map_or(0, gnode)].push(gnode(i) as u32);
    }
    if !skeleton.cycles.is_empty() {
        for &i in &skeleton.cycles {
            let sn = &skeleton.nodes[i];
            losses.add(
                format!("{}[{}]", sn.kind.name(), sn.index),
                "parent chain loops back: node placed under the root",
            );
        }
    }

    // Geosets: skinning first, to know whether an extra joint is needed for vertices
    // bound to no node.
    let mut geo = Vec::new();
    for (gi, g) in model.geosets.iter().enumerate() {
        let place = format!("Geoset[{gi}]");
        if !g.shows_at_lod(0) {
            losses.add(
                place,
                format!(
                    "Reforged level-of-detail geoset (LOD {}, a coarser copy) not exported",
                    g.lod
                ),
            );
            continue;
        }
        let nv = g.vertices.len();
        let (tris, skipped) = g.triangles();
        if skipped > 0 {
            losses.add(place.clone(), "face groups that are not triangles dropped");
        }
        let good: Vec<[u16; 3]> = tris
            .into_iter()
            .filter(|t| t.iter().all(|&i| usize::from(i) < nv))
            .collect();
        if nv == 0 || good.is_empty() {
            losses.add(place, "geoset with no triangles not exported");
            continue;
        }
        let skin = skin_of(&skeleton, g, &mut losses, &place);
        geo.push((gi, good, skin));
    }
    let unbound_joint = geo
        .iter()
        .any(|(_, _, s)| s.iter().any(|v| v.iter().any(|&(j, _)| j == n)));
    let unbound_node = unbound_joint.then(|| {
        let i = root.push(gltf_json::Node {
            name: Some("(unbound vertices)".into()),
            ..Default::default()
        });
        children[0].push(i.value() as u32);
        i
    });
    for (i, c) in children.iter().enumerate().skip(1) {
        if !c.is_empty() {
            root.nodes[i].children = Some(c.iter().map(|&k| Index::new(k)).collect());
        }
    }

    // The skin: every node a joint, bind matrices translate(-pivot).
    let mut joints: Vec<Index<gltf_json::Node>> =
        (0..n).map(|i| Index::new(gnode(i) as u32)).collect();
    let mut ibm: Vec<f32> = Vec::with_capacity((n + 1) * 16);
    for sn in &skeleton.nodes {
        let p = to_y_up(sn.pivot);
        let p = if finite3(p) { p } else { [0.0; 3] };
        ibm.extend_from_slice(&translate([-p[0], -p[1], -p[2]]));
    }
    if let Some(u) = unbound_node {
        joints.push(u);
        ibm.extend_from_slice(&crate::anim::math::IDENTITY);
    }
    let skin = (!joints.is_empty() && n + usize::from(unbound_joint) > 0).then(|| {
        let ibm = bin.accessor(&mut root, &ibm, Type::Mat4, None, false, false);
        root.push(gltf_json::Skin {
            extensions: None,
            extras: Default::default(),
            inverse_bind_matrices: Some(ibm),
            joints: joints.clone(),
            name: None,
            skeleton: Some(Index::new(0)),
        })
    });

    // Visibility: geosets that hide at some moment get a rig of their own (see
    // `VisibilityRig`).
    let mut notes = Notes::with_budget(MAX_EXPORT_CYCLE_KEYS);
    let mut rigs: Vec<Option<VisibilityRig>> = Vec::with_capacity(geo.len());
    let mut copies: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (gi, _, vskin) in &geo {
        let rest_visible = {
            let clock = Clock::new(model, crate::anim::AnimTime::new(None, 0.0));
            let (a, _, la) = geoset_alphas(model, &clock, *gi);
            a > 0.0 && la > 0.0
        };
        let curves: Vec<Curve<Vec3>> = (0..model.sequences.len())
            .map(|si| visibility_curve(model, si, *gi, &mut notes))
            .collect();
        let hides = !rest_visible || curves.iter().any(|c| c.keys.iter().any(|k| k.v[0] == 0.0));
        if !hides {
            rigs.push(None);
            continue;
        }
        let rig = visibility_rig(
            &mut root,
            &mut bin,
            &skeleton,
            *gi,
            vskin,
            rest_visible,
            curves,
            &mut copies,
        );
        children[0].push(rig.root as u32);
        rigs.push(Some(rig));
    }
    if !children[0].is_empty() {
        root.nodes[0].children = Some(children[0].iter().map(|&k| Index::new(k)).collect());
    }

    // Meshes: one node per geoset at the scene root.
    let mut materials = material::Materials::new(model, options);
    let mut scene_nodes: Vec<Index<gltf_json::Node>> = vec![Index::new(0)];
    let mut bad_positions = 0usize;
    let mut bad_normals = 0usize;
    for ((gi, tris, vskin), rig) in geo.iter().zip(&rigs) {
        let g = &model.geosets[*gi];
        // The joints of this geoset's skin: the shared one, or its rig's.
        let skin = rig.as_ref().map_or(skin, |r| Some(r.skin));
        let joint_of = |j: usize| rig.as_ref().map_or(j, |r| r.joint_of[&j]);
        let joint_count = rig.as_ref().map_or(joints.len(), |r| r.joint_count);
        let nv = g.vertices.len();
        let mut attributes = BTreeMap::new();
        let positions: Vec<f32> = g
            .vertices
            .iter()
            .flat_map(|&v| {
                let v = to_y_up(v);
                if finite3(v) {
                    v
                } else {
                    bad_positions += 1;
                    [0.0; 3]
                }
            })
            .collect();
        let pos = bin.accessor(
            &mut root,
            &positions,
            Type::Vec3,
            Some(BufferTarget::ArrayBuffer),
            true,
            false,
        );
        attributes.insert(Checked::Valid(Semantic::Positions), pos);
        if g.normals.len() == nv {
            let normals: Vec<f32> = g
                .normals
                .iter()
                .flat_map(|&v| {
                    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
                    if len.is_finite() && len > 1e-12 {
                        to_y_up([v[0] / len, v[1] / len, v[2] / len])
                    } else {
                        bad_normals += 1;
                        [0.0, 1.0, 0.0]
                    }
                })
                .collect();
            let a = bin.accessor(
                &mut root,
                &normals,
                Type::Vec3,
                Some(BufferTarget::ArrayBuffer),
                false,
                false,
            );
            attributes.insert(Checked::Valid(Semantic::Normals), a);
        }
        for (k, set) in g.uv_sets.iter().enumerate() {
            if set.len() != nv {
                losses.add(
                    format!("Geoset[{gi}]"),
                    "UV set of the wrong length dropped",
                );
                continue;
            }
            let uv: Vec<f32> = set
                .iter()
                .flat_map(|&[u, v]| {
                    [
                        if u.is_finite() { u } else { 0.0 },
                        if v.is_finite() { v } else { 0.0 },
                    ]
                })
                .collect();
            let a = bin.accessor(
                &mut root,
                &uv,
                Type::Vec2,
                Some(BufferTarget::ArrayBuffer),
                false,
                false,
            );
            attributes.insert(Checked::Valid(Semantic::TexCoords(k as u32)), a);
        }
        if skin.is_some() {
            let sets = vskin.iter().map(|v| v.len()).max().unwrap_or(1).div_ceil(4);
            for set in 0..sets {
                let mut j16: Vec<u16> = Vec::with_capacity(nv * 4);
                let mut w: Vec<f32> = Vec::with_capacity(nv * 4);
                for v in vskin {
                    for k in 0..4 {
                        match v.get(set * 4 + k) {
                            Some(&(j, wt)) => {
                                j16.push(joint_of(j) as u16);
                                w.push(wt);
                            }
                            None => {
                                j16.push(0);
                                w.push(0.0);
                            }
                        }
                    }
                }
                let ja = if joint_count <= 256 {
                    let j8: Vec<u8> = j16.iter().map(|&j| j as u8).collect();
                    bin.accessor(
                        &mut root,
                        &j8,
                        Type::Vec4,
                        Some(BufferTarget::ArrayBuffer),
                        false,
                        false,
                    )
                } else {
                    bin.accessor(
                        &mut root,
                        &j16,
                        Type::Vec4,
                        Some(BufferTarget::ArrayBuffer),
                        false,
                        false,
                    )
                };
                let wa = bin.accessor(
                    &mut root,
                    &w,
                    Type::Vec4,
                    Some(BufferTarget::ArrayBuffer),
                    false,
                    false,
                );
                attributes.insert(Checked::Valid(Semantic::Joints(set as u32)), ja);
                attributes.insert(Checked::Valid(Semantic::Weights(set as u32)), wa);
            }
        }
        let flat: Vec<u32> = tris
            .iter()
            .flat_map(|t| t.map(u32::from))
            .collect::<Vec<_>>();
        let indices = if nv <= 65535 {
            let i16: Vec<u16> = flat.iter().map(|&i| i as u16).collect();
            bin.accessor(
                &mut root,
                &i16,
                Type::Scalar,
                Some(BufferTarget::ElementArrayBuffer),
                false,
                false,
            )
        } else {
            bin.accessor(
                &mut root,
                &flat,
                Type::Scalar,
                Some(BufferTarget::ElementArrayBuffer),
                false,
                false,
            )
        };
        let material = materials.for_geoset(&mut root, &mut bin, *gi, &mut losses);
        let mesh = root.push(gltf_json::Mesh {
            extensions: None,
            extras: Default::default(),
            name: Some(format!("Geoset {gi}")),
            primitives: vec![Primitive {
                attributes,
                extensions: None,
                extras: Default::default(),
                indices: Some(indices),
                material: Some(material),
                mode: Checked::Valid(Mode::Triangles),
                targets: None,
            }],
            weights: None,
        });
        let node = root.push(gltf_json::Node {
            name: Some(format!("Geoset {gi}")),
            mesh: Some(mesh),
            skin,
            extras: extras(json!({"mdlx": {"kind": "geoset", "geoset": gi,
                "material": g.material_id, "selection_group": g.selection_group,
                "skin_weights": g.skin.is_some(), "tangents": g.tangents.is_some()}})),
            ..Default::default()
        });
        scene_nodes.push(node);
    }
    if bad_positions > 0 {
        losses.add(
            format!("{bad_positions} vertices"),
            "positions that are not numbers set to 0",
        );
    }
    if bad_normals > 0 {
        losses.add(
            format!("{bad_normals} vertices"),
            "zero or broken normals replaced by up",
        );
    }

    // Cameras and lights.
    cameras(model, &mut root, &mut scene_nodes, &mut losses);
    lights(model, &skeleton, &mut root, &mut losses);

    // Animations.
    animations(
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
    if notes.rotation_error > 0.0 || notes.rotation_jumps > 0 {
        let jumps = if notes.rotation_jumps > 0 {
            format!(
                "; {} jumps of the game's own spline kept as straight lines 2^-16 of a key interval long",
                notes.rotation_jumps
            )
        } else {
            String::new()
        };
        losses.add(
            "rotation tracks",
            format!(
                "Hermite/Bezier rotations resampled to linear keys (largest error {:.2e} rad{jumps})",
                notes.rotation_error
            ),
        );
    }
    if notes.truncated {
        losses.add(
            "global sequences",
            format!(
                "global sequence cycles cut short ({MAX_CYCLE_KEYS} keys per track and animation, {MAX_EXPORT_CYCLE_KEYS} in all)"
            ),
        );
    }
    for (i, _) in model.face_effects.iter().enumerate() {
        losses.add(format!("FaceEffect[{i}]"), "face effect not carried");
    }
    if !model.unknown_chunks.is_empty() {
        losses.add(
            format!("{} chunks", model.unknown_chunks.len()),
            "unknown chunks not carried",
        );
    }

    let missing_textures = materials.finish(&mut root, &mut losses);

    root.push(gltf_json::Scene {
        extensions: None,
        extras: Default::default(),
        name: Some("Scene".into()),
        nodes: scene_nodes,
    });
    root.scene = Some(Index::new(0));
    if !bin.data.is_empty() {
        root.push(gltf_json::Buffer {
            byte_length: USize64::from(bin.data.len()),
            name: None,
            uri: None,
            extensions: None,
            extras: Default::default(),
        });
    }
    root.extensions_used.sort();
    root.extensions_used.dedup();
    Export {
        document: root,
        bin: bin.data,
        losses: losses.into_list(),
        missing_textures,
        rotation_error: notes.rotation_error,
    }
}

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

/// The data a node's record holds beyond its transform, for `extras`.
fn node_extras(
    model: &Model,
    kind: NodeKind,
    index: usize,
    losses: &mut Losses,
    place: &str,
) -> serde_json::Value {
    let mut data = json!({});
    let mut lose = |what: &str| losses.add(place.to_string(), what.to_string());
    let node = match kind {
        NodeKind::Bone => &model.bones[index].node,
        NodeKind::Helper => &model.helpers[index].node,
        NodeKind::Light => &model.lights[index].node,
        NodeKind::Attachment => {
            let a = &model.attachments[index];
            data = json!({"attachment_id": a.attachment_id, "path": a.path.to_string()});
            &a.node
        }
        NodeKind::ParticleEmitter => {
            let e = &model.particle_emitters[index];
            lose("particle emitter kept as a node with its data in extras");
            data = json!({"emission_rate": e.emission_rate, "gravity": e.gravity,
                "longitude": e.longitude, "latitude": e.latitude, "path": e.path.to_string(),
                "life_span": e.life_span, "speed": e.speed});
            &e.node
        }
        NodeKind::ParticleEmitter2 => {
            let e = &model.particle_emitters2[index];
            lose("particle emitter kept as a node with its data in extras");
            data = json!({"speed": e.speed, "variation": e.variation, "latitude": e.latitude,
                "gravity": e.gravity, "life_span": e.life_span,
                "emission_rate": e.emission_rate, "length": e.length, "width": e.width,
                "filter_mode": e.filter_mode, "rows": e.rows, "columns": e.columns,
                "head_or_tail": e.head_or_tail, "tail_length": e.tail_length,
                "time": e.time, "segment_colors": e.segment_colors,
                "segment_alphas": e.segment_alphas, "segment_scaling": e.segment_scaling,
                "head_intervals": e.head_intervals});
            &e.node
        }
        NodeKind::PopcornEmitter => {
            let e = &model.popcorn_emitters[index];
            lose("particle emitter kept as a node with its data in extras");
            data = json!({"life_span": e.life_span, "emission_rate": e.emission_rate,
                "speed": e.speed, "color": e.color, "alpha": e.alpha,
                "replaceable_id": e.replaceable_id, "path": e.path.to_string(),
                "animation_visibility_guide": e.animation_visibility_guide.to_string()});
            &e.node
        }
        NodeKind::RibbonEmitter => {
            let e = &model.ribbon_emitters[index];
            lose("ribbon emitter kept as a node with its data in extras");
            data = json!({"height_above": e.height_above, "height_below": e.height_below,
                "alpha": e.alpha, "color": e.color, "life_span": e.life_span,
                "texture_slot": e.texture_slot, "emission_rate": e.emission_rate,
                "rows": e.rows, "columns": e.columns, "material_id": e.material_id,
                "gravity": e.gravity});
            &e.node
        }
        NodeKind::EventObject => {
            let e = &model.event_objects[index];
            lose("event object kept as a node with its key times in extras");
            if let Some(t) = &e.track {
                data = json!({"global_sequence_id": t.global_sequence_id, "times": t.times});
            }
            &e.node
        }
        NodeKind::CollisionShape => {
            let c = &model.collision_shapes[index];
            lose("collision shape kept as a node with its shape in extras");
            data = match &c.shape {
                Shape::Box(v) => json!({"shape": "box", "vertices": v}),
                Shape::Plane(v) => json!({"shape": "plane", "vertices": v}),
                Shape::Sphere(c, r) => json!({"shape": "sphere", "center": c, "radius": r}),
                Shape::Cylinder(v, r) => json!({"shape": "cylinder", "vertices": v, "radius": r}),
                Shape::Incomplete { shape_type, .. } => {
                    json!({"shape": "incomplete", "shape_type": shape_type})
                }
            };
            &c.node
        }
    };
    let mut out = json!({"kind": kind.name(), "object_id": node.object_id,
        "parent_id": node.parent_id, "flags": node.flags});
    if let Some(h) = raw_hex(&node.name) {
        out["name_hex"] = json!(h);
    }
    // Transform tracks on a global sequence: the animations repeat its cycles; [`import`]
    // takes the first cycle back onto the global clock. Nodes whose motion is baked
    // (don't-inherit flags) are not marked.
    if node.flags & node_flags::DONT_INHERIT == 0 {
        let mut g = serde_json::Map::new();
        for (tag, what) in [(KGTR, "translation"), (KGRT, "rotation"), (KGSC, "scale")] {
            if let Some(a) = node.tracks.iter().find(|a| a.tag == tag) {
                let id = track_global(&a.track);
                if id >= 0 && (id as usize) < model.global_sequences.len() {
                    g.insert(what.into(), json!(id));
                }
            }
        }
        if !g.is_empty() {
            out["global"] = serde_json::Value::Object(g);
        }
    }
    if let (Some(o), Some(d)) = (out.as_object_mut(), data.as_object()) {
        for (k, v) in d {
            o.insert(k.clone(), v.clone());
        }
    }
    json!({ "mdlx": out })
}

/// Each vertex's (joint, weight) pairs; joint `n` (the skeleton's length) is the extra
/// joint of vertices bound to no node.
fn skin_of(
    skeleton: &Skeleton,
    g: &crate::model::Geoset,
    losses: &mut Losses,
    place: &str,
) -> Vec<Vec<(usize, f32)>> {
    let n = skeleton.nodes.len();
    let nv = g.vertices.len();
    let merge =
        |pairs: &mut Vec<(usize, f32)>, j: usize, w: f32| match pairs.iter_mut().find(|p| p.0 == j)
        {
            Some(p) => p.1 += w,
            None => pairs.push((j, w)),
        };
    let mut unbound = 0usize;
    let mut renormalised = 0usize;
    let out: Vec<Vec<(usize, f32)>> = match g.skin.as_deref().filter(|s| s.len() == nv * 8) {
        Some(s) => (0..nv)
            .map(|v| {
                let b = &s[v * 8..v * 8 + 8];
                let mut pairs = Vec::new();
                let mut total = 0u32;
                for k in 0..4 {
                    if b[4 + k] == 0 {
                        continue;
                    }
                    let Some(j) = g
                        .matrix_indices
                        .get(usize::from(b[k]))
                        .and_then(|&id| skeleton.by_object_id(id))
                    else {
                        continue;
                    };
                    total += u32::from(b[4 + k]);
                    merge(&mut pairs, j, f32::from(b[4 + k]));
                }
                if pairs.is_empty() {
                    unbound += 1;
                    return vec![(n, 1.0)];
                }
                if total != 255 {
                    renormalised += 1;
                }
                for p in &mut pairs {
                    p.1 /= total as f32;
                }
                pairs
            })
            .collect(),
        None => {
            let groups: Vec<Vec<(usize, f32)>> = g
                .matrix_groups()
                .into_iter()
                .map(|ids| {
                    let found: Vec<usize> = ids
                        .iter()
                        .filter_map(|&id| skeleton.by_object_id(id))
                        .collect();
                    let mut pairs = Vec::new();
                    for &j in &found {
                        merge(&mut pairs, j, 1.0 / found.len() as f32);
                    }
                    pairs
                })
                .collect();
            (0..nv)
                .map(|v| {
                    match g
                        .vertex_groups
                        .get(v)
                        .and_then(|&grp| groups.get(usize::from(grp)))
                        .filter(|p| !p.is_empty())
                    {
                        Some(p) => p.clone(),
                        None => {
                            unbound += 1;
                            vec![(n, 1.0)]
                        }
                    }
                })
                .collect()
        }
    };
    if unbound > 0 {
        losses.add(
            format!("{place} ({unbound} vertices)"),
            "vertices bound to no node stay in place (bound to an extra joint)",
        );
    }
    if renormalised > 0 {
        losses.add(
            format!("{place} ({renormalised} vertices)"),
            "skin weights that do not add up to 255 over existing nodes renormalised",
        );
    }
    let mut out = out;
    for v in &mut out {
        // Heaviest first: a viewer that reads only four keeps the ones that matter most.
        v.sort_by(|a, b| b.1.total_cmp(&a.1));
    }
    out
}

fn cameras(
    model: &Model,
    root: &mut Root,
    scene_nodes: &mut Vec<Index<gltf_json::Node>>,
    losses: &mut Losses,
) {
    for (i, c) in model.cameras.iter().enumerate() {
        let place = format!("Camera[{i}]");
        let dof = [track::IDUF, track::ELAF, track::PTSF];
        if c.tracks.iter().any(|a| !dof.contains(&a.tag)) {
            losses.add(place.clone(), "camera animation not carried");
        }
        if c.tracks.iter().any(|a| dof.contains(&a.tag)) {
            losses.add(
                place.clone(),
                "depth of field (focus distance, focal length, f-stop: 1200+) not carried \
                 (glTF cameras have none)",
            );
        }
        let eye = to_y_up(c.position);
        let target = to_y_up(c.target_position);
        let d = [0, 1, 2].map(|k| target[k] - eye[k]);
        let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        let rotation = if len > 1e-6 && len.is_finite() {
            use crate::anim::math::{cross, normalize, quat_from_basis};
            let z = [-d[0] / len, -d[1] / len, -d[2] / len];
            let up = if z[1].abs() > 0.999 {
                [0.0, 0.0, 1.0]
            } else {
                [0.0, 1.0, 0.0]
            };
            let x = normalize(cross(up, z));
            let y = cross(z, x);
            Some(UnitQuaternion(quat_from_basis(x, y, z)))
        } else {
            None
        };
        let near = if c.near_clip.is_finite() && c.near_clip > 0.0 {
            c.near_clip
        } else {
            0.1
        };
        let far = if c.far_clip.is_finite() && c.far_clip > near {
            Some(c.far_clip)
        } else {
            None
        };
        let fov = if c.field_of_view.is_finite() && c.field_of_view > 0.0 {
            c.field_of_view.min(3.1)
        } else {
            0.8
        };
        let cam = root.push(gltf_json::Camera {
            name: Some(c.name.to_string()),
            orthographic: None,
            perspective: Some(gltf_json::camera::Perspective {
                aspect_ratio: None,
                yfov: fov,
                zfar: far,
                znear: near,
                extensions: None,
                extras: Default::default(),
            }),
            type_: Checked::Valid(gltf_json::camera::Type::Perspective),
            extensions: None,
            extras: Default::default(),
        });
        let node = root.push(gltf_json::Node {
            name: Some(c.name.to_string()),
            camera: Some(cam),
            translation: finite3(eye).then_some(eye),
            rotation,
            extras: extras(json!({"mdlx": {"kind": "Camera",
                "target": c.target_position, "field_of_view": c.field_of_view}})),
            ..Default::default()
        });
        scene_nodes.push(node);
    }
}

fn lights(model: &Model, skeleton: &Skeleton, root: &mut Root, losses: &mut Losses) {
    use gltf_json::extensions::scene::khr_lights_punctual as klp;
    let mut list = Vec::new();
    for (i, sn) in skeleton.nodes.iter().enumerate() {
        if sn.kind != NodeKind::Light {
            continue;
        }
        let l = &model.lights[sn.index];
        let place = format!("Light[{}]", sn.index);
        // What KHR_lights_punctual has no word for: shadows, and a falloff other than its
        // inverse square within the range.
        let v = model.version;
        if v >= ver::LIGHT_SHADOW && (l.shadow_intensity != 0.0 || l.shadow_casting != 0) {
            losses.add(
                place.clone(),
                "shadow casting and intensity (1200+) not carried",
            );
        }
        if v >= ver::LIGHT_FALLOFF
            && (l.quadratic_falloff.to_bits() != Light::DEFAULT_QUADRATIC_FALLOFF.to_bits()
                || l.linear_falloff != 0.0
                || l.damping.to_bits() != Light::DEFAULT_DAMPING.to_bits())
        {
            losses.add(
                place.clone(),
                "falloff coefficients (1600+) not carried (glTF lights fall off by the \
                 inverse square of the distance)",
            );
        }
        if !l.tracks.is_empty() {
            losses.add(
                place.clone(),
                "light animation (colour, intensity, visibility) not carried",
            );
        }
        let type_ = match l.light_type {
            light_type::OMNIDIRECTIONAL => klp::Type::Point,
            light_type::DIRECTIONAL => klp::Type::Directional,
            _ => {
                losses.add(place, "ambient light not carried (no glTF kind)");
                continue;
            }
        };
        let color = l.color.map(|c| {
            if c.is_finite() {
                c.clamp(0.0, 1.0)
            } else {
                1.0
            }
        });
        let range =
            (type_ == klp::Type::Point && l.attenuation_end.is_finite() && l.attenuation_end > 0.0)
                .then_some(l.attenuation_end);
        list.push(klp::Light {
            color: [color[2], color[1], color[0]], // stored blue, green, red
            extensions: None,
            extras: Default::default(),
            intensity: if l.intensity.is_finite() {
                l.intensity.max(0.0)
            } else {
                1.0
            },
            name: Some(sn.node.name.to_string()),
            range,
            spot: None,
            type_: Checked::Valid(type_),
        });
        root.nodes[i + 1].extensions = Some(gltf_json::extensions::scene::Node {
            khr_lights_punctual: Some(klp::KhrLightsPunctual {
                light: Index::new(list.len() as u32 - 1),
            }),
        });
    }
    if !list.is_empty() {
        root.extensions = Some(gltf_json::extensions::root::Root {
            khr_lights_punctual: Some(gltf_json::extensions::root::KhrLightsPunctual {
                lights: list,
            }),
        });
        root.extensions_used.push("KHR_lights_punctual".into());
    }
}

/// One animation sampler's keys, ready to write.
struct Channel3 {
    node: usize,
    property: Property,
    interp: Interp,
    times: Vec<f32>,
    values: Vec<f32>,
}

fn vec_channel(
    node: usize,
    property: Property,
    c: &Curve<Vec3>,
    map: impl Fn(Vec3) -> Vec3,
    dmap: impl Fn(Vec3) -> Vec3,
) -> Channel3 {
    let (times, kept) = seconds(&c.keys);
    // glTF wants two keys at least for a cubic spline; one key is a constant.
    let interp = if c.interp == Interp::Cubic && kept.len() < 2 {
        Interp::Linear
    } else {
        c.interp
    };
    let mut values = Vec::with_capacity(kept.len() * 9);
    for &i in &kept {
        let k = &c.keys[i];
        if interp == Interp::Cubic {
            values.extend_from_slice(&dmap(k.d_in));
            values.extend_from_slice(&map(k.v));
            values.extend_from_slice(&dmap(k.d_out));
        } else {
            values.extend_from_slice(&map(k.v));
        }
    }
    Channel3 {
        node,
        property,
        interp,
        times,
        values,
    }
}

fn quat_channel(node: usize, c: &Curve<Quat>) -> Channel3 {
    let (times, kept) = seconds(&c.keys);
    let mut values = Vec::with_capacity(kept.len() * 4);
    let mut prev: Option<Quat> = None;
    for &i in &kept {
        let mut q = quat_y_up(c.keys[i].v);
        if !q.iter().all(|v| v.is_finite()) {
            q = [0.0, 0.0, 0.0, 1.0];
        }
        if let Some(p) = prev {
            if crate::anim::math::qdot(p, q) < 0.0 {
                q = q.map(|v| -v);
            }
        }
        prev = Some(q);
        values.extend_from_slice(&q);
    }
    Channel3 {
        node,
        property: Property::Rotation,
        interp: if c.interp == Interp::Step {
            Interp::Step
        } else {
            Interp::Linear
        },
        times,
        values,
    }
}

fn sanitize(values: &mut [f32]) {
    for v in values {
        if !v.is_finite() {
            *v = 0.0;
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn animations(
    model: &Model,
    options: &ExportOptions,
    skeleton: &Skeleton,
    rigs: &[Option<VisibilityRig>],
    copies: &[Vec<usize>],
    root: &mut Root,
    bin: &mut Bin,
    losses: &mut Losses,
    notes: &mut Notes,
) {
    let n = skeleton.nodes.len();
    let globals = &model.global_sequences;
    // Linear output: distances are in the model's units, so the tolerance follows its size.
    let size = model_size(model);
    let mut linear_error = 0.0f32;
    let mut lin = |c: Curve<Vec3>, scale_space: bool| -> Curve<Vec3> {
        if !options.linear {
            return c;
        }
        // Scales are ratios: hold them to the tolerance itself.
        let tol = if scale_space {
            LINEAR_TOLERANCE
        } else {
            LINEAR_TOLERANCE * size
        };
        let (c, e) = curves::linearize(&c, tol);
        linear_error = linear_error.max(if scale_space { e * size } else { e } / size);
        c
    };
    let rot = |c: Curve<Quat>| -> Curve<Quat> {
        if options.linear {
            curves::densify(&c, LINEAR_MAX_ANGLE)
        } else {
            c
        }
    };
    let baked: Vec<bool> = skeleton
        .nodes
        .iter()
        .map(|sn| sn.parent.is_some() && sn.node.flags & node_flags::DONT_INHERIT != 0)
        .collect();
    for (i, sn) in skeleton.nodes.iter().enumerate() {
        if baked[i] {
            losses.add(
                format!("{}[{}]", sn.kind.name(), sn.index),
                "don't-inherit flags: motion baked into linear keys (60 per second and at every key)",
            );
        }
    }
    let uses_globals = skeleton.nodes.iter().any(|sn| {
        sn.node
            .tracks
            .iter()
            .any(|a| matches!(a.tag, KGTR | KGRT | KGSC) && track_global(&a.track) >= 0)
    });
    if uses_globals {
        losses.add(
            "global sequences",
            "global-sequence tracks baked into each animation from its start (the game runs them on their own clock)",
        );
    }
    // Which geosets ever change visibility, or are hidden at rest.
    let mut ancestors_cache: Vec<Vec<usize>> = Vec::with_capacity(n);
    for i in 0..n {
        let mut chain = vec![i];
        let mut at = skeleton.nodes[i].parent;
        while let Some(p) = at {
            if chain.len() > n {
                break;
            }
            chain.push(p);
            at = skeleton.nodes[p].parent;
        }
        ancestors_cache.push(chain);
    }
    for (si, seq) in model.sequences.iter().enumerate() {
        let interval = seq.interval;
        let len = f64::from(seq.length());
        let mut chans: Vec<Channel3> = Vec::new();
        // Node tracks.
        let mut key_times: Vec<BTreeSet<u64>> = vec![BTreeSet::new(); n];
        for (i, sn) in skeleton.nodes.iter().enumerate() {
            let tracks = &sn.node.tracks;
            let parent_pivot = sn.parent.map_or([0.0; 3], |p| skeleton.nodes[p].pivot);
            let offset = to_y_up([0, 1, 2].map(|k| sn.pivot[k] - parent_pivot[k]));
            if let Some(t) = tracks.vector3(KGTR) {
                let c = track_curve(t, interval, globals, [0.0; 3], MAX_CYCLE_KEYS, notes);
                key_times[i].extend(c.keys.iter().map(|k| k.t.to_bits()));
                if !baked[i] {
                    let c = lin(c, false);
                    chans.push(vec_channel(
                        i + 1,
                        Property::Translation,
                        &c,
                        |v| {
                            let v = to_y_up(v);
                            [0, 1, 2].map(|k| v[k] + offset[k])
                        },
                        to_y_up,
                    ));
                }
            }
            if let Some(t) = tracks.quaternion(KGRT) {
                let c = track_curve(
                    t,
                    interval,
                    globals,
                    [0.0, 0.0, 0.0, 1.0],
                    MAX_CYCLE_KEYS,
                    notes,
                );
                key_times[i].extend(c.keys.iter().map(|k| k.t.to_bits()));
                if !baked[i] {
                    chans.push(quat_channel(i + 1, &rot(c)));
                }
            }
            if let Some(t) = tracks.vector3(KGSC) {
                let c = track_curve(t, interval, globals, [1.0; 3], MAX_CYCLE_KEYS, notes);
                key_times[i].extend(c.keys.iter().map(|k| k.t.to_bits()));
                if !baked[i] {
                    let c = lin(c, true);
                    chans.push(vec_channel(
                        i + 1,
                        Property::Scale,
                        &c,
                        scale_y_up,
                        scale_y_up,
                    ));
                }
            }
        }
        // Don't-inherit nodes: sampled.
        if baked.iter().any(|&b| b) {
            let mut times: BTreeSet<u64> = BTreeSet::new();
            for i in (0..n).filter(|&i| baked[i]) {
                for &a in &ancestors_cache[i] {
                    times.extend(key_times[a].iter().copied());
                }
            }
            let step = BAKE_STEP_MS.max(len / BAKE_MAX_GRID);
            let mut t = 0.0;
            while t < len {
                times.insert(t.to_bits());
                t += step;
            }
            times.insert(len.to_bits());
            times.insert(0f64.to_bits());
            let times: Vec<f64> = times.into_iter().map(f64::from_bits).collect();
            let bake_nodes: Vec<usize> = (0..n).filter(|&i| baked[i]).collect();
            let mut curves: Vec<[Vec<CKey<Vec3>>; 2]> =
                vec![[Vec::new(), Vec::new()]; bake_nodes.len()];
            let mut rots: Vec<Vec<CKey<Quat>>> = vec![Vec::new(); bake_nodes.len()];
            for &t in &times {
                let clock = Clock::unwrapped(model, si, t);
                let pose = skeleton.pose_at(&clock, None);
                for (b, &i) in bake_nodes.iter().enumerate() {
                    let sn = &skeleton.nodes[i];
                    let p = sn.parent.expect("baked nodes have parents");
                    let g_node = mul(&pose.nodes[i].world, &translate(sn.pivot));
                    let g_parent = mul(&pose.nodes[p].world, &translate(skeleton.nodes[p].pivot));
                    let local = invert_affine(&g_parent)
                        .map(|inv| mat_y_up(&mul(&inv, &g_node)))
                        .unwrap_or(crate::anim::math::IDENTITY);
                    let (r, s) = decompose(&local);
                    let tr = [local[12], local[13], local[14]];
                    let key = |v: Vec3| CKey {
                        t,
                        v,
                        d_in: [0.0; 3],
                        d_out: [0.0; 3],
                    };
                    curves[b][0].push(key(tr));
                    curves[b][1].push(key(s));
                    rots[b].push(CKey {
                        t,
                        v: r,
                        d_in: [0.0; 4],
                        d_out: [0.0; 4],
                    });
                }
            }
            for (b, &i) in bake_nodes.iter().enumerate() {
                let [tr, sc] = std::mem::take(&mut curves[b]);
                let tr = Curve {
                    interp: Interp::Linear,
                    keys: tr,
                };
                let sc = Curve {
                    interp: Interp::Linear,
                    keys: sc,
                };
                chans.push(vec_channel(i + 1, Property::Translation, &tr, |v| v, |v| v));
                chans.push(vec_channel(i + 1, Property::Scale, &sc, |v| v, |v| v));
                // Already in glTF axes: undo the turn quat_channel applies.
                let r = Curve {
                    interp: Interp::Linear,
                    keys: std::mem::take(&mut rots[b])
                        .into_iter()
                        .map(|k| CKey {
                            v: [k.v[0], -k.v[2], k.v[1], k.v[3]],
                            ..k
                        })
                        .collect(),
                };
                chans.push(quat_channel(i + 1, &rot(r)));
            }
        }
        // Geoset visibility, on each rig's root.
        for rig in rigs.iter().flatten() {
            chans.push(vec_channel(
                rig.root,
                Property::Scale,
                &rig.curves[si],
                |v| v,
                |v| v,
            ));
        }
        if chans.is_empty() {
            // Every animation needs a channel: hold the root still for the sequence's length.
            chans.push(vec_channel(
                0,
                Property::Scale,
                &constant([1.0; 3], len),
                |v| v,
                |v| v,
            ));
        }
        write_animation(root, bin, seq, si, chans, copies);
    }
    if linear_error > 0.0 {
        losses.add(
            "translation and scaling tracks",
            format!(
                "Hermite/Bezier translations and scalings sampled to linear keys (--linear; largest error {linear_error:.1e} of the model's size)"
            ),
        );
    }
    let texture_anim_lost = model
        .materials
        .iter()
        .any(|m| m.layers.iter().any(|l| l.texture_animation_id >= 0))
        && !model.texture_animations.is_empty();
    if texture_anim_lost {
        losses.add(
            "texture animations",
            "texture animation (UV motion) not carried",
        );
    }
    for (i, ga) in model.geoset_animations.iter().enumerate() {
        if ga.tracks.vector3(crate::format::track::KGAC).is_some() {
            losses.add(
                format!("GeosetAnimation[{i}]"),
                "animated geoset colour not carried",
            );
        }
        if let Some(t) = ga.tracks.float(KGAO) {
            if t.keys.iter().any(|k| k.value > 0.0 && k.value < 1.0) {
                losses.add(
                    format!("GeosetAnimation[{i}]"),
                    "partial geoset alpha (between 0 and 1) shown as visible",
                );
            }
        }
    }
}

/// The diagonal of the box around every geoset vertex (1 for a model without any).
fn model_size(model: &Model) -> f32 {
    let mut lo = [f32::MAX; 3];
    let mut hi = [f32::MIN; 3];
    for v in model.geosets.iter().flat_map(|g| &g.vertices) {
        if finite3(*v) {
            for k in 0..3 {
                lo[k] = lo[k].min(v[k]);
                hi[k] = hi[k].max(v[k]);
            }
        }
    }
    let d = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f32>().sqrt();
    if d.is_finite() && d > 0.0 {
        d
    } else {
        1.0
    }
}

fn track_global(t: &crate::model::AnyTrack) -> i32 {
    use crate::model::AnyTrack;
    match t {
        AnyTrack::Float(t) => t.global_sequence_id,
        AnyTrack::Vector3(t) => t.global_sequence_id,
        AnyTrack::Quaternion(t) => t.global_sequence_id,
        AnyTrack::Integer(t) => t.global_sequence_id,
    }
}

fn write_animation(
    root: &mut Root,
    bin: &mut Bin,
    seq: &crate::model::Sequence,
    si: usize,
    chans: Vec<Channel3>,
    copies: &[Vec<usize>],
) {
    let mut samplers = Vec::with_capacity(chans.len());
    let mut channels = Vec::with_capacity(chans.len());
    let mut inputs: BTreeMap<Vec<u32>, Index<gltf_json::Accessor>> = BTreeMap::new();
    for mut c in chans {
        sanitize(&mut c.values);
        let bits: Vec<u32> = c.times.iter().map(|t| t.to_bits()).collect();
        let input = match inputs.get(&bits) {
            Some(&a) => a,
            None => {
                let a = bin.accessor(root, &c.times, Type::Scalar, None, true, false);
                inputs.insert(bits, a);
                a
            }
        };
        let type_ = if c.property == Property::Rotation {
            Type::Vec4
        } else {
            Type::Vec3
        };
        let output = bin.accessor(root, &c.values, type_, None, false, false);
        let interpolation = match c.interp {
            Interp::Step => Interpolation::Step,
            Interp::Linear => Interpolation::Linear,
            Interp::Cubic => Interpolation::CubicSpline,
        };
        let sampler = Index::new(samplers.len() as u32);
        samplers.push(Sampler {
            extensions: None,
            extras: Default::default(),
            input,
            interpolation: Checked::Valid(interpolation),
            output,
        });
        // The node, and its copies in visibility rigs, share the sampler.
        let twins = c
            .node
            .checked_sub(1)
            .and_then(|i| copies.get(i))
            .map_or(&[][..], |v| &v[..]);
        for &node in std::iter::once(&c.node).chain(twins) {
            channels.push(Channel {
                sampler,
                target: Target {
                    extensions: None,
                    extras: Default::default(),
                    node: Index::new(node as u32),
                    path: Checked::Valid(c.property),
                },
                extensions: None,
                extras: Default::default(),
            });
        }
    }
    root.push(gltf_json::Animation {
        extensions: None,
        extras: extras({
            let mut m = json!({"sequence": si, "interval": seq.interval,
                "looping": seq.is_looping(), "rarity": seq.rarity,
                "move_speed": seq.move_speed, "sync_point": seq.sync_point,
                "flags": seq.flags});
            if let Some(h) = raw_hex(&seq.name) {
                m["name_hex"] = json!(h);
            }
            json!({ "mdlx": m })
        }),
        channels,
        name: Some(seq.name.to_string()),
        samplers,
    });
}

/// The visibility of geoset `gi` over sequence `si`: step keys of scale 1 (shown) and 0
/// (hidden), at every key time of its geoset-animation alpha and its layers' alphas, with
/// the state between two key times taken at their midpoint and set just after the first.
fn visibility_curve(model: &Model, si: usize, gi: usize, notes: &mut Notes) -> Curve<Vec3> {
    let interval = model.sequences[si].interval;
    let len = f64::from(model.sequences[si].length());
    let globals = &model.global_sequences;
    let mut events: BTreeSet<u64> = BTreeSet::new();
    events.insert(0f64.to_bits());
    events.insert(len.to_bits());
    let mut add = |t: Option<&crate::model::Track<f32>>| {
        if let Some(t) = t {
            let c = track_curve(t, interval, globals, 1.0, MAX_CYCLE_KEYS, notes);
            events.extend(c.keys.iter().map(|k| k.t.to_bits()));
        }
    };
    if let Some(ga) = model
        .geoset_animations
        .iter()
        .find(|a| a.geoset_id == gi as i32)
    {
        add(ga.tracks.float(KGAO));
    }
    let g = &model.geosets[gi];
    if let Some(m) = model.materials.get(g.material_id as usize) {
        for l in &m.layers {
            add(l.tracks.float(KMTA));
        }
    }
    let events: Vec<f64> = events.into_iter().map(f64::from_bits).collect();
    let vis = |t: f64| {
        let clock = Clock::unwrapped(model, si, t);
        let (a, _, la) = geoset_alphas(model, &clock, gi);
        a > 0.0 && la > 0.0
    };
    let mut keys: Vec<CKey<Vec3>> = Vec::new();
    let push = |t: f64, v: bool, keys: &mut Vec<CKey<Vec3>>| {
        let s = if v { 1.0 } else { 0.0 };
        if keys.last().is_some_and(|k: &CKey<Vec3>| k.v[0] == s) {
            return;
        }
        keys.push(CKey {
            t,
            v: [s; 3],
            d_in: [0.0; 3],
            d_out: [0.0; 3],
        });
    };
    for (k, &e) in events.iter().enumerate() {
        push(e, vis(e), &mut keys);
        if let Some(&next) = events.get(k + 1) {
            let mid = vis((e + next) / 2.0);
            push(e + ((next - e) / 2.0).min(0.01), mid, &mut keys);
        }
    }
    let last = *keys.last().expect("one key at least");
    if last.t < len {
        keys.push(CKey { t: len, ..last });
    }
    Curve {
        interp: Interp::Step,
        keys,
    }
}

/// How a geoset that hides is hidden. glTF ignores the transform of a skinned mesh's own
/// node (Blender does; three.js happens not to), so scaling that node to 0 is not
/// portable. Instead the geoset is skinned to copies of the nodes it uses (and their
/// ancestors), under a root of its own whose scale steps between 1 and 0: at 0 every
/// copy collapses onto that root's origin and the mesh with them. The copies play the
/// same animation samplers as the nodes they copy, so the cost is nodes and channels,
/// not keys.
struct VisibilityRig {
    /// The glTF node whose scale shows and hides the geoset.
    root: usize,
    /// The skin over the copies.
    skin: Index<gltf_json::Skin>,
    /// Skeleton node (or the unbound joint, `n`) -> joint index in `skin`.
    joint_of: BTreeMap<usize, usize>,
    /// Joints in `skin`.
    joint_count: usize,
    /// Per sequence, the visibility keys.
    curves: Vec<Curve<Vec3>>,
}

#[allow(clippy::too_many_arguments)]
fn visibility_rig(
    root: &mut Root,
    bin: &mut Bin,
    skeleton: &Skeleton,
    gi: usize,
    vskin: &[Vec<(usize, f32)>],
    rest_visible: bool,
    curves: Vec<Curve<Vec3>>,
    copies: &mut [Vec<usize>],
) -> VisibilityRig {
    let n = skeleton.nodes.len();
    let rig_root = root.push(gltf_json::Node {
        name: Some(format!("Geoset {gi} visibility")),
        scale: (!rest_visible).then_some([0.0; 3]),
        extras: extras(json!({"mdlx": {"kind": "visibility", "geoset": gi}})),
        ..Default::default()
    });
    let used: BTreeSet<usize> = vskin
        .iter()
        .flat_map(|v| v.iter().map(|p| p.0))
        .filter(|&j| j < n)
        .collect();
    let mut set: BTreeSet<usize> = BTreeSet::new();
    for &j in &used {
        let mut at = Some(j);
        while let Some(i) = at {
            if !set.insert(i) {
                break;
            }
            at = skeleton.nodes[i].parent;
        }
    }
    let mut copy_of: BTreeMap<usize, usize> = BTreeMap::new();
    for &i in &set {
        let original = &root.nodes[i + 1];
        let node = gltf_json::Node {
            name: original.name.clone(),
            translation: original.translation,
            extras: extras(json!({"mdlx": {"kind": "copy", "geoset": gi, "of": i + 1}})),
            ..Default::default()
        };
        let c = root.push(node).value();
        copy_of.insert(i, c);
        copies[i].push(c);
    }
    let mut kids: BTreeMap<usize, Vec<Index<gltf_json::Node>>> = BTreeMap::new();
    for (&i, &c) in &copy_of {
        let parent = skeleton.nodes[i]
            .parent
            .map_or(rig_root.value(), |p| copy_of[&p]);
        kids.entry(parent).or_default().push(Index::new(c as u32));
    }
    for (p, k) in kids {
        root.nodes[p].children = Some(k);
    }
    let mut joints = Vec::new();
    let mut ibm: Vec<f32> = Vec::new();
    let mut joint_of = BTreeMap::new();
    for &j in &used {
        joint_of.insert(j, joints.len());
        joints.push(Index::new(copy_of[&j] as u32));
        let p = to_y_up(skeleton.nodes[j].pivot);
        let p = if finite3(p) { p } else { [0.0; 3] };
        ibm.extend_from_slice(&translate([-p[0], -p[1], -p[2]]));
    }
    // Vertices bound to no node follow the rig's root.
    joint_of.insert(n, joints.len());
    joints.push(rig_root);
    ibm.extend_from_slice(&crate::anim::math::IDENTITY);
    let ibm = bin.accessor(root, &ibm, Type::Mat4, None, false, false);
    let joint_count = joints.len();
    let skin = root.push(gltf_json::Skin {
        extensions: None,
        extras: Default::default(),
        inverse_bind_matrices: Some(ibm),
        joints,
        name: Some(format!("Geoset {gi}")),
        skeleton: Some(Index::new(0)),
    });
    VisibilityRig {
        root: rig_root.value(),
        skin,
        joint_of,
        joint_count,
        curves,
    }
}
