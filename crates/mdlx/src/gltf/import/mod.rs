//! glTF 2.0 import: a scene with its skins, animations and materials as a Warcraft III
//! model.
//!
//! ```
//! let bytes = include_bytes!("../../../../../examples/cube.mdx");
//! let model = mdlx::mdx::from_bytes(bytes).unwrap();
//! let glb = mdlx::gltf::export(&model, &Default::default()).to_glb();
//! let source = mdlx::gltf::Source::from_slice(&glb, None).unwrap();
//! let back = mdlx::gltf::import(&source, &Default::default()).unwrap();
//! assert_eq!(back.model.sequences.len(), model.sequences.len());
//! ```
//!
//! # The mapping, and why
//! - **Axes.** glTF is +Y up, Warcraft III +Z up: `(x, y, z) -> (x, -z, y)` for every
//!   position, direction and rotation (the inverse of the export's turn).
//! - **Scene.** The default scene (`scene`), else the first; other scenes are listed as a
//!   loss. Nodes outside the scene are used only as far as a skin of the scene needs them.
//! - **Nodes.** The game turns a node about a pivot and has no bind rotation: at rest every
//!   node is the identity. So each Warcraft node is a glTF node paired with a *bind frame*
//!   `B`: the inverse of its inverse bind matrix for a joint, its rest world transform for
//!   anything else. The node's game transform is then `G(t) * B⁻¹` (`G` the glTF world
//!   transform), which is the identity at rest and moves a vertex stored in bind space
//!   exactly as glTF's skinning does. Its pivot is `B`'s origin; its tracks are
//!   `P * L(t) * B⁻¹` written as the game's translation, rotation and scaling about the
//!   pivot, where `L` is the glTF node's own animated transform and `P` the bind frame of
//!   its Warcraft parent carried down the static nodes between them. Translation keys map
//!   affinely (exact, cubic tangents included); rotation keys are conjugated by rotations
//!   (exact: slerp commutes with that); scaling keys are exact when the scale is uniform
//!   or the bind frame's axes are the node's, else approximated and listed.
//! - **Which nodes.** Every joint of a skin a mesh of the scene uses becomes a bone; a
//!   node joint of two skins with different inverse bind matrices becomes one bone per
//!   binding. An animated mesh node that is not skinned becomes a bone its vertices
//!   follow. Animated nodes that are neither become helpers, and so do the non-joint
//!   ancestors of all of these (they keep the hierarchy and names). Meshes of static
//!   nodes are placed in model space and follow one still bone, `Root`. A channel whose
//!   keys all equal the node's own transform does not count as animation. Names are kept,
//!   cut to the field's 80 bytes (listed).
//! - **Skinning.** Version 1000 and later store up to four bones per vertex with weights
//!   in 255ths, rounded to sum to 255 exactly (largest remainder); a vertex with more
//!   keeps its four heaviest (listed). Version 800 stores a matrix group per vertex, whose
//!   bones the game averages with equal weights: equal weights are their group exactly,
//!   however many bones; otherwise each vertex gets the group of up to four entries, a
//!   bone repeated as often as its weight asks (`[A, A, A, B]` for 3/4 and 1/4), that is
//!   nearest its weights (four, because mdx-m3-viewer, what the model sites show models
//!   with, skins with at most four bones a vertex). The largest distance this moves any vertex from
//!   where the glTF's weights put it, over every key time of every animation, is
//!   measured and reported ([`Import::skin_error`]). A geoset never holds more than 256
//!   matrix groups or 65,535 vertices: a primitive that needs more is split into several
//!   geosets (listed).
//! - **Animations.** One sequence per animation, named like it, laid out one after the
//!   other on the model's timeline, each starting on a whole second at least half a
//!   second after the previous one ends; non-looping when the name says Death or Decay
//!   or `extras` says `"looping": false`. Keys are on whole milliseconds (the game's
//!   unit): a key between two becomes the glTF curve's values on both, so the model is
//!   exact on every whole millisecond; a CUBICSPLINE key is rounded to the nearer, to keep
//!   its tangents; keys a hair apart (a jump) become keys a millisecond apart. LINEAR stays linear, STEP becomes no interpolation, CUBICSPLINE
//!   translations and scalings become Hermite exactly (glTF's per-second tangents times
//!   the key spacing); CUBICSPLINE rotations (glTF's spline is not the game's) are
//!   sampled into linear keys within [`ROTATION_TOLERANCE`] of glTF's curve. A track
//!   whose animations disagree on interpolation takes the richest and re-expresses the
//!   others (linear as Hermite exactly; step by a held key one millisecond before the
//!   next, listed). A model without animation gets a `Stand` sequence of one second.
//! - **Files this crate exported** carry `mdlx` data in `extras` (node kinds, attachment
//!   paths, flags, names that are not UTF-8, sequence intervals and flags, global
//!   sequences, material layers, whether a geoset had skin weights and tangents, geoset
//!   visibility rigs): it is read back, so a model survives the round trip with its node
//!   kinds, its exact timeline, its global sequences (the first whole cycle an animation
//!   plays goes back on the global clock), its materials and texture paths and its geoset
//!   animations. Everything else works without it (Blender keeps `extras` as custom
//!   properties and writes them back when asked to).
//! - **Materials** (see [`material`]): the base colour texture becomes the layer's
//!   texture, written as BLP beside the model under [`ImportOptions::texture_path`];
//!   alpha modes map to filter modes, `doubleSided` to two-sided, `KHR_materials_unlit`
//!   to unshaded; for 1000 and later the metallic-roughness, occlusion, normal and
//!   emissive textures fill the Reforged slots.
//! - **Not carried, and listed:** morph targets, vertex colours, points and lines,
//!   texture transforms, spot lights and orthographic cameras, animation of anything but
//!   node transforms, other scenes.

pub mod material;
mod mesh;

use super::source::{GltfError, Source};
use super::Losses;
use crate::anim::math::{
    invert_affine, mul, qconjugate, qmul, qnormalize, trs_about, Mat4, Quat, Vec3, IDENTITY,
};
use crate::convert::Loss;
use crate::format::track::{KGAO, KGRT, KGSC, KGTR};
use crate::model::{
    light_type, node_flags, Animation as WcAnimation, AnyTrack, Attachment, Bone, Camera,
    EventObject, EventTrack, Extent, FixedString, GeosetAnimation, Helper, Interpolation, Key,
    Light, Model, Node, Sequence, Track, Tracks, SEQUENCE_NON_LOOPING,
};
use gltf_json::animation::{Interpolation as GInterp, Property};
use gltf_json::validation::Checked;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// How far (radians) a CUBICSPLINE rotation sampled into linear keys may leave glTF's
/// curve (measured at the quarter points of every sampled interval).
pub const ROTATION_TOLERANCE: f32 = 1e-4;

/// How to import.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// The model version to build: 800 (classic, matrix groups), 1000 or 1100 (Reforged,
    /// skin weights and HD materials).
    pub version: u32,
    /// The prefix of the paths of textures written beside the model, as the game sees
    /// them (`war3mapImported\` by default).
    pub texture_path: String,
    /// The model's name (the file name, say); the glTF's scene name when empty.
    pub name: String,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            version: 800,
            texture_path: "war3mapImported\\".into(),
            name: String::new(),
        }
    }
}

/// A texture the imported model uses that must be written beside it.
#[derive(Clone, Debug)]
pub struct ImportedTexture {
    /// The path the model names (`war3mapImported\Fox.blp`).
    pub path: String,
    /// The file to write, relative to the model's folder, `/`-separated
    /// (`war3mapImported/Fox.blp`).
    pub file: String,
    /// The BLP file.
    pub blp: Vec<u8>,
}

/// Where a geoset's vertices came from.
#[derive(Clone, Debug)]
pub struct GeosetSource {
    /// The glTF node that holds the mesh.
    pub node: usize,
    /// The glTF mesh.
    pub mesh: usize,
    /// The primitive in that mesh.
    pub primitive: usize,
    /// For each geoset vertex, the index of the primitive's vertex it is.
    pub vertices: Vec<u32>,
}

/// An imported model.
#[derive(Clone, Debug)]
pub struct Import {
    /// The model.
    pub model: Model,
    /// What the model could not carry, or carried approximately.
    pub losses: Vec<Loss>,
    /// Textures to write beside the model.
    pub textures: Vec<ImportedTexture>,
    /// Where each geoset's vertices came from, by geoset.
    pub geosets: Vec<GeosetSource>,
    /// The largest distance (model units) by which the model's skinning (matrix groups
    /// at version 800, four weights in 255ths at 1000 and later) moves a vertex away from
    /// where the glTF's skin weights put it, over every key time of every animation; 0
    /// when exact.
    pub skin_error: f32,
    /// The largest angle (radians) by which resampled rotations leave the glTF's curve.
    pub rotation_error: f32,
}

/// glTF's +Y up to Warcraft III's +Z up, for a quaternion.
fn quat_z_up(q: Quat) -> Quat {
    [q[0], -q[2], q[1], q[3]]
}

/// glTF's +Y up to Warcraft III's +Z up, for a scale.
fn scale_z_up(s: Vec3) -> Vec3 {
    [s[0], s[2], s[1]]
}

use super::from_y_up;

fn translation_of(m: &Mat4) -> Vec3 {
    [m[12], m[13], m[14]]
}

/// The 3x3 part of `m` applied to `v`.
fn linear(m: &Mat4, v: Vec3) -> Vec3 {
    crate::anim::math::transform_vector(m, v)
}

fn det3(m: &Mat4) -> f32 {
    let (a, b, c) = (m[0], m[4], m[8]);
    let (d, e, f) = (m[1], m[5], m[9]);
    let (g, h, i) = (m[2], m[6], m[10]);
    a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
}

/// A bind frame split into a rotation and one uniform scale, and whether that split is
/// exact (no mirror, no shear, the same scale on every axis).
#[derive(Clone, Copy, Debug)]
struct Frame {
    rot: Quat,
    scale: f32,
    exact: bool,
}

fn frame_of(m: &Mat4) -> Frame {
    let (rot, lens) = crate::anim::math::decompose(m);
    let det = det3(m);
    let scale = det.abs().cbrt();
    let scale = if scale.is_finite() && scale > 1e-12 {
        scale
    } else {
        1.0
    };
    // Exact when the columns are orthogonal, of one length, and the frame does not mirror.
    let cols = [[m[0], m[1], m[2]], [m[4], m[5], m[6]], [m[8], m[9], m[10]]];
    let d = |a: Vec3, b: Vec3| crate::anim::math::dot(a, b);
    let tol = 1e-4 * scale * scale;
    let exact = det > 0.0
        && lens.iter().all(|l| (l - scale).abs() <= 1e-4 * scale)
        && d(cols[0], cols[1]).abs() <= tol
        && d(cols[0], cols[2]).abs() <= tol
        && d(cols[1], cols[2]).abs() <= tol;
    Frame { rot, scale, exact }
}

/// The kind of Warcraft node a glTF node becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Bone,
    Helper,
    Light,
    Attachment,
    EventObject,
}

/// A Warcraft node: a glTF node with a bind frame.
struct WNode {
    gnode: usize,
    /// The bind frame (glTF space).
    b: Mat4,
    parent: Option<usize>,
    kind: Kind,
    /// Vertices follow it: it must be a bone.
    bound: bool,
    /// A node made for static meshes, with no glTF node of its own.
    synthetic: bool,
    object_id: u32,
}

/// One glTF animation channel, read.
struct GChannel {
    property: Property,
    interp: GInterp,
    /// Seconds.
    times: Vec<f32>,
    /// Components per key: 3 or 4, times 3 for CUBICSPLINE (in, value, out).
    values: Vec<f32>,
}

/// What a glTF node's `extras.mdlx` says (files this crate exported).
fn mdlx_extras(extras: &gltf_json::Extras) -> Option<Value> {
    let raw = extras.as_ref()?;
    let v: Value = serde_json::from_str(raw.get()).ok()?;
    v.get("mdlx").cloned()
}

/// The bytes of a `*_hex` extras field (names that are not UTF-8).
fn unhex(v: Option<&Value>) -> Option<Vec<u8>> {
    let h = v?.as_str()?;
    if h.len() % 2 != 0 {
        return None;
    }
    (0..h.len() / 2)
        .map(|i| u8::from_str_radix(h.get(i * 2..i * 2 + 2)?, 16).ok())
        .collect()
}

fn extras_value(extras: &gltf_json::Extras) -> Option<Value> {
    let raw = extras.as_ref()?;
    serde_json::from_str(raw.get()).ok()
}

fn fixed(text: &str, max: usize, place: &str, field: &str, losses: &mut Losses) -> FixedString {
    let bytes = text.as_bytes();
    if bytes.len() > max {
        // Cut on a character boundary.
        let mut end = max;
        while end > 0 && !text.is_char_boundary(end) {
            end -= 1;
        }
        losses.add(
            place.to_string(),
            format!("{field} cut to {max} bytes (the field's length)"),
        );
        FixedString::from_field(&bytes[..end])
    } else {
        FixedString::from_field(bytes)
    }
}

/// The scene graph: parents, rest transforms, rest world matrices.
struct Graph {
    parent: Vec<Option<usize>>,
    /// Rest local transform as translation, rotation, scale (glTF space); `matrix` nodes
    /// decomposed.
    trs: Vec<(Vec3, Quat, Vec3)>,
    /// Rest local matrix.
    local: Vec<Mat4>,
    /// Rest world matrix.
    world: Vec<Mat4>,
    /// The rest world matrix with every scale of 0 taken as 1: a frame that can be
    /// inverted, for the bind frames of nodes that are not joints (a node hidden at rest
    /// by a scale of 0 still has axes).
    safe: Vec<Mat4>,
}

fn finite(v: &[f32]) -> bool {
    v.iter().all(|x| x.is_finite())
}

fn graph(doc: &gltf_json::Root) -> Result<Graph, GltfError> {
    let n = doc.nodes.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    for (i, node) in doc.nodes.iter().enumerate() {
        for (k, c) in node.children.iter().flatten().enumerate() {
            let c = c.value();
            let at = format!("nodes[{i}].children[{k}]");
            if c >= n {
                return Err(GltfError::new(at, format!("node {c} does not exist")));
            }
            if c == i {
                return Err(GltfError::new(at, "a node cannot be its own child"));
            }
            if let Some(p) = parent[c] {
                if p != i {
                    return Err(GltfError::new(
                        at,
                        format!("node {c} is already a child of node {p} (a node has one parent)"),
                    ));
                }
            }
            parent[c] = Some(i);
        }
    }
    // Cycles: walk up from each node; a walk longer than the node count loops.
    let mut state = vec![0u8; n]; // 0 unknown, 1 on the current walk, 2 known good
    let mut order = Vec::with_capacity(n);
    for start in 0..n {
        let mut chain = Vec::new();
        let mut at = Some(start);
        while let Some(i) = at {
            match state[i] {
                2 => break,
                1 => {
                    return Err(GltfError::new(
                        format!("nodes[{i}].children"),
                        "the node hierarchy loops back on itself",
                    ))
                }
                _ => {
                    state[i] = 1;
                    chain.push(i);
                    at = parent[i];
                }
            }
        }
        for &i in chain.iter().rev() {
            state[i] = 2;
            order.push(i);
        }
    }
    let mut trs = Vec::with_capacity(n);
    let mut local = Vec::with_capacity(n);
    let mut safe_local = Vec::with_capacity(n);
    for (i, node) in doc.nodes.iter().enumerate() {
        let (t, r, s, m) = if let Some(m) = node.matrix {
            if !finite(&m) {
                return Err(GltfError::new(
                    format!("nodes[{i}].matrix"),
                    "a value is not a finite number",
                ));
            }
            let (r, s) = crate::anim::math::decompose(&m);
            let s = if det3(&m) < 0.0 {
                [-s[0], s[1], s[2]]
            } else {
                s
            };
            ([m[12], m[13], m[14]], r, s, m)
        } else {
            let t = node.translation.unwrap_or([0.0; 3]);
            let r = node.rotation.map_or([0.0, 0.0, 0.0, 1.0], |q| q.0);
            let s = node.scale.unwrap_or([1.0; 3]);
            for (what, ok) in [
                ("translation", finite(&t)),
                ("rotation", finite(&r)),
                ("scale", finite(&s)),
            ] {
                if !ok {
                    return Err(GltfError::new(
                        format!("nodes[{i}].{what}"),
                        "a value is not a finite number",
                    ));
                }
            }
            let r = qnormalize(r);
            (t, r, s, trs_about(t, r, s, [0.0; 3]))
        };
        trs.push((t, r, s));
        local.push(m);
        let unzero = s.map(|x| if x.abs() < 1e-12 { 1.0 } else { x });
        safe_local.push(if unzero == s {
            m
        } else {
            trs_about(t, r, unzero, [0.0; 3])
        });
    }
    let mut world = vec![IDENTITY; n];
    let mut safe = vec![IDENTITY; n];
    for &i in &order {
        (world[i], safe[i]) = match parent[i] {
            Some(p) => (mul(&world[p], &local[i]), mul(&safe[p], &safe_local[i])),
            None => (local[i], safe_local[i]),
        };
    }
    Ok(Graph {
        parent,
        trs,
        local,
        world,
        safe,
    })
}

/// Imports the default scene of `source`.
pub fn import(source: &Source, options: &ImportOptions) -> Result<Import, GltfError> {
    Importer::new(source, options)?.run()
}

struct Importer<'a> {
    src: &'a Source,
    doc: &'a gltf_json::Root,
    opts: &'a ImportOptions,
    g: Graph,
    losses: Losses,
    /// Nodes of the imported scene.
    in_scene: Vec<bool>,
    /// Scene nodes depth first, in the scene's order.
    scene_order: Vec<usize>,
    /// What `extras.mdlx` says of each node.
    mdlx: Vec<Option<Value>>,
    /// Per animation: (node, property) -> channel.
    channels: Vec<BTreeMap<(usize, u8), GChannel>>,
    /// Animation durations (seconds).
    durations: Vec<f32>,
    wnodes: Vec<WNode>,
    /// (glTF node, bind frame bits) -> Warcraft node.
    wnode_of: HashMap<(usize, [u32; 16]), usize>,
    /// glTF node -> its first Warcraft node.
    primary: Vec<Option<usize>>,
    size: f32,
    rotation_error: f32,
    /// Global sequence durations a file this crate exported lists.
    global_sequences: Vec<u32>,
}

fn prop_code(p: Property) -> u8 {
    match p {
        Property::Translation => 0,
        Property::Rotation => 1,
        Property::Scale => 2,
        Property::MorphTargetWeights => 3,
    }
}

impl<'a> Importer<'a> {
    fn new(src: &'a Source, opts: &'a ImportOptions) -> Result<Importer<'a>, GltfError> {
        if !matches!(opts.version, 800 | 900..=1100) {
            return Err(GltfError::new(
                "",
                format!(
                    "cannot build a version {} model (800, or 900 to 1100)",
                    opts.version
                ),
            ));
        }
        let doc = &src.root;
        let g = graph(doc)?;
        let mdlx = doc.nodes.iter().map(|n| mdlx_extras(&n.extras)).collect();
        Ok(Importer {
            src,
            doc,
            opts,
            in_scene: vec![false; doc.nodes.len()],
            scene_order: Vec::new(),
            mdlx,
            g,
            losses: Losses::default(),
            channels: Vec::new(),
            durations: Vec::new(),
            wnodes: Vec::new(),
            wnode_of: HashMap::new(),
            primary: vec![None; doc.nodes.len()],
            size: 1.0,
            rotation_error: 0.0,
            global_sequences: Vec::new(),
        })
    }

    fn kind_of(&self, node: usize) -> Option<&str> {
        self.mdlx[node].as_ref()?.get("kind")?.as_str()
    }

    fn run(mut self) -> Result<Import, GltfError> {
        for note in &self.src.notes {
            self.losses
                .add(note.path.clone(), format!("not carried: {}", note.message));
        }
        self.scene()?;
        self.global_sequences = (0..self.doc.nodes.len())
            .find(|&i| self.kind_of(i) == Some("root"))
            .and_then(|i| self.mdlx[i].as_ref()?.get("global_sequences").cloned())
            .and_then(|g| serde_json::from_value(g).ok())
            .unwrap_or_default();
        self.read_channels()?;
        let meshes = self.mesh_nodes();
        self.size = self.scene_size(&meshes)?;
        self.build_nodes(&meshes)?;
        let mut model = Model {
            version: self.opts.version,
            global_sequences: self.global_sequences.clone(),
            ..Default::default()
        };
        let mut mats = material::Materials::new(self.src, self.opts);
        let built = mesh::build(&mut self, &meshes, &mut mats)?;
        let mut geosets = Vec::new();
        let mut sources = Vec::new();
        let mut exact_weights = Vec::new();
        let mut tints = Vec::new();
        for b in built {
            geosets.push(b.geoset);
            sources.push(b.source);
            exact_weights.push(b.exact);
            tints.push(b.material);
        }
        model.geosets = geosets;
        self.sequences(&mut model);
        self.node_records(&mut model)?;
        let ids: Vec<u32> = self.wnodes.iter().map(|w| w.object_id).collect();
        mesh::remap(&mut model, &ids, &mut exact_weights);
        self.visibility(&mut model, &sources);
        mats.finish(&mut model, &tints, &mut self.losses);
        self.cameras(&mut model);
        model.info.name = fixed(
            &if self.opts.name.is_empty() {
                self.scene_name()
            } else {
                self.opts.name.clone()
            },
            80,
            "model",
            "name",
            &mut self.losses,
        );
        model.info.blend_time = 150;
        let skin_error = mesh::extents_and_error(&mut model, &exact_weights);
        if skin_error > 0.0 {
            let what = if self.opts.version >= 900 {
                "skin weights rounded to 255ths, at most four per vertex"
            } else {
                "skin weights made matrix groups (each vertex the equal average of up to four bone entries)"
            };
            self.losses.add(
                "skinning",
                format!(
                    "{what}: vertices move up to {skin_error:.3} ({:.2e} of the model's size) from where the glTF's weights put them",
                    skin_error / self.size
                ),
            );
        }
        if self.rotation_error > 0.0 {
            self.losses.add(
                "rotation tracks",
                format!(
                    "CUBICSPLINE rotations sampled to linear keys (largest error {:.2e} rad)",
                    self.rotation_error
                ),
            );
        }
        let textures = mats.into_textures();
        Ok(Import {
            model,
            losses: self.losses.into_list(),
            textures,
            geosets: sources,
            skin_error,
            rotation_error: self.rotation_error,
        })
    }

    fn scene_name(&self) -> String {
        let s = self.doc.scene.map(|s| s.value()).unwrap_or(0);
        self.doc
            .scenes
            .get(s)
            .and_then(|s| s.name.clone())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "model".into())
    }

    /// Marks the nodes of the default scene.
    fn scene(&mut self) -> Result<(), GltfError> {
        let doc = self.doc;
        let roots: Vec<usize> = match doc.scene.map(|s| s.value()).or(if doc.scenes.is_empty() {
            None
        } else {
            Some(0)
        }) {
            Some(s) => {
                let scene = doc
                    .scenes
                    .get(s)
                    .ok_or_else(|| GltfError::new("scene", format!("scene {s} does not exist")))?;
                for (k, other) in doc.scenes.iter().enumerate() {
                    if k != s && !other.nodes.is_empty() {
                        self.losses.add(
                            format!("scenes[{k}]"),
                            "scene other than the default one not imported",
                        );
                    }
                }
                scene.nodes.iter().map(|n| n.value()).collect()
            }
            // No scene at all: every root node.
            None => (0..doc.nodes.len())
                .filter(|&i| self.g.parent[i].is_none())
                .collect(),
        };
        let mut stack: Vec<usize> = roots.into_iter().rev().collect();
        while let Some(i) = stack.pop() {
            if i >= doc.nodes.len() || self.in_scene[i] {
                continue;
            }
            self.in_scene[i] = true;
            self.scene_order.push(i);
            if let Some(c) = &doc.nodes[i].children {
                stack.extend(c.iter().rev().map(|c| c.value()));
            }
        }
        Ok(())
    }

    fn read_channels(&mut self) -> Result<(), GltfError> {
        let doc = self.doc;
        for (ai, anim) in doc.animations.iter().enumerate() {
            let mut map = BTreeMap::new();
            let mut duration = 0.0f32;
            let mut lost: BTreeSet<String> = BTreeSet::new();
            for (ci, ch) in anim.channels.iter().enumerate() {
                let at = format!("animations[{ai}].channels[{ci}]");
                let si = ch.sampler.value();
                let sampler = anim.samplers.get(si).ok_or_else(|| {
                    GltfError::new(
                        format!("{at}.sampler"),
                        format!("sampler {si} does not exist"),
                    )
                })?;
                let sat = format!("animations[{ai}].samplers[{si}]");
                let (times, _) = self
                    .src
                    .read_f32(sampler.input.value(), &format!("{sat}.input"))?;
                if let Some(bad) = times.iter().position(|t| !t.is_finite() || *t < 0.0) {
                    return Err(GltfError::new(
                        format!("{sat}.input"),
                        format!("key {bad} has the time {}, not a time", times[bad]),
                    ));
                }
                if let Some(k) = times.windows(2).position(|w| w[1] < w[0]) {
                    return Err(GltfError::new(
                        format!("{sat}.input"),
                        format!("key times go back at key {}", k + 1),
                    ));
                }
                if let Some(&last) = times.last() {
                    duration = duration.max(last);
                }
                let property = match ch.target.path {
                    Checked::Valid(p) => p,
                    Checked::Invalid => {
                        lost.insert("animation of a property other than a node transform (KHR_animation_pointer or unknown)".into());
                        continue;
                    }
                };
                if property == Property::MorphTargetWeights {
                    lost.insert("morph target weight animation".into());
                    continue;
                }
                let node = ch.target.node.value();
                if node >= doc.nodes.len() {
                    return Err(GltfError::new(
                        format!("{at}.target.node"),
                        format!("node {node} does not exist"),
                    ));
                }
                let interp = match sampler.interpolation {
                    Checked::Valid(i) => i,
                    Checked::Invalid => GInterp::Linear,
                };
                let (values, comps) = self
                    .src
                    .read_f32(sampler.output.value(), &format!("{sat}.output"))?;
                let want = if property == Property::Rotation { 4 } else { 3 };
                let per = if interp == GInterp::CubicSpline { 3 } else { 1 };
                if comps != want || values.len() != times.len() * want * per {
                    return Err(GltfError::new(
                        format!("{sat}.output"),
                        format!(
                            "{} values of {comps} components for {} keys ({} of {want} expected)",
                            values.len() / comps.max(1),
                            times.len(),
                            times.len() * per
                        ),
                    ));
                }
                if !finite(&values) {
                    return Err(GltfError::new(
                        format!("{sat}.output"),
                        "a value is not a finite number",
                    ));
                }
                if times.is_empty() {
                    continue;
                }
                if !self.in_scene[node] {
                    continue;
                }
                map.insert(
                    (node, prop_code(property)),
                    GChannel {
                        property,
                        interp,
                        times,
                        values,
                    },
                );
            }
            for what in lost {
                self.losses.add(format!("animations[{ai}]"), what);
            }
            self.channels.push(map);
            self.durations.push(duration);
        }
        // Channels that only restate the node's own transform do not animate it.
        for anim in &mut self.channels {
            anim.retain(|&(node, _), c| !restates_rest(c, &self.g.trs[node]));
        }
        Ok(())
    }

    fn animated(&self, node: usize) -> bool {
        self.channels
            .iter()
            .any(|a| (0..3).any(|p| a.contains_key(&(node, p))))
    }

    /// Whether the node or an ancestor is animated.
    fn moves(&self, node: usize) -> bool {
        let mut at = Some(node);
        let mut steps = 0;
        while let Some(i) = at {
            if self.animated(i) {
                return true;
            }
            steps += 1;
            if steps > self.g.parent.len() {
                break;
            }
            at = self.g.parent[i];
        }
        false
    }

    /// (node, mesh) of every mesh instance of the scene, in scene order.
    fn mesh_nodes(&self) -> Vec<(usize, usize)> {
        self.scene_order
            .iter()
            .filter_map(|&i| self.doc.nodes[i].mesh.map(|m| (i, m.value())))
            .filter(|&(_, m)| m < self.doc.meshes.len())
            .collect()
    }

    /// The diagonal of the box around the scene's rest-pose mesh vertices (1 without any).
    fn scene_size(&self, meshes: &[(usize, usize)]) -> Result<f32, GltfError> {
        let mut lo = [f32::MAX; 3];
        let mut hi = [f32::MIN; 3];
        for &(node, mi) in meshes {
            for (pi, p) in self.doc.meshes[mi].primitives.iter().enumerate() {
                let Some(a) = p
                    .attributes
                    .get(&Checked::Valid(gltf_json::mesh::Semantic::Positions))
                else {
                    continue;
                };
                let at = format!("meshes[{mi}].primitives[{pi}].attributes.POSITION");
                let (v, comps) = self.src.read_f32(a.value(), &at)?;
                if comps != 3 {
                    continue;
                }
                let m = if self.doc.nodes[node].skin.is_some() {
                    IDENTITY
                } else {
                    self.g.world[node]
                };
                for c in v.chunks_exact(3) {
                    let p = crate::anim::math::transform_point(&m, [c[0], c[1], c[2]]);
                    if finite(&p) {
                        for k in 0..3 {
                            lo[k] = lo[k].min(p[k]);
                            hi[k] = hi[k].max(p[k]);
                        }
                    }
                }
            }
        }
        let d = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f32>().sqrt();
        Ok(if d.is_finite() && d > 0.0 { d } else { 1.0 })
    }

    /// The Warcraft node for glTF node `g` bound in frame `b` (made if new).
    fn wnode(&mut self, g: usize, b: Mat4, kind: Kind) -> usize {
        let key = (g, b.map(f32::to_bits));
        if let Some(&w) = self.wnode_of.get(&key) {
            return w;
        }
        let b_inv = invert_affine(&b).unwrap_or_else(|| {
            self.losses.add(
                format!("nodes[{g}]"),
                "bind frame cannot be inverted (a scale of 0): taken as the identity",
            );
            IDENTITY
        });
        let b = if b_inv == IDENTITY && invert_affine(&b).is_none() {
            IDENTITY
        } else {
            b
        };
        let w = self.wnodes.len();
        self.wnodes.push(WNode {
            gnode: g,
            b,
            parent: None,
            kind,
            bound: false,
            synthetic: false,
            object_id: 0,
        });
        self.wnode_of.insert(key, w);
        if self.primary[g].is_none() {
            self.primary[g] = Some(w);
        }
        w
    }

    /// The joints of skin `s` as Warcraft nodes (a `copy` node of a visibility rig this
    /// crate exported stands for the node it copies).
    fn skin_nodes(&mut self, s: usize) -> Result<Vec<usize>, GltfError> {
        let skin = &self.doc.skins[s];
        let n = skin.joints.len();
        let ibm: Vec<f32> = match skin.inverse_bind_matrices {
            Some(a) => {
                let at = format!("skins[{s}].inverseBindMatrices");
                let (v, comps) = self.src.read_f32(a.value(), &at)?;
                if comps != 16 || v.len() < n * 16 {
                    return Err(GltfError::new(
                        at,
                        format!("{} matrices for {n} joints", v.len() / 16),
                    ));
                }
                if !finite(&v) {
                    return Err(GltfError::new(at, "a value is not a finite number"));
                }
                v
            }
            None => IDENTITY.repeat(n),
        };
        let mut out = Vec::with_capacity(n);
        for (k, j) in skin.joints.iter().enumerate() {
            let mut j = j.value();
            if j >= self.doc.nodes.len() {
                return Err(GltfError::new(
                    format!("skins[{s}].joints[{k}]"),
                    format!("node {j} does not exist"),
                ));
            }
            if self.kind_of(j) == Some("copy") {
                if let Some(of) = self.mdlx[j]
                    .as_ref()
                    .and_then(|m| m.get("of"))
                    .and_then(Value::as_u64)
                    .map(|o| o as usize)
                    .filter(|&o| o < self.doc.nodes.len())
                {
                    j = of;
                }
            }
            let m: Mat4 = ibm[k * 16..k * 16 + 16].try_into().expect("16 floats");
            let b = invert_affine(&m).unwrap_or(self.g.safe[j]);
            let w = self.wnode(j, b, Kind::Bone);
            out.push(w);
        }
        Ok(out)
    }

    fn build_nodes(&mut self, meshes: &[(usize, usize)]) -> Result<(), GltfError> {
        // Joints of the skins the scene's meshes use, then of the other skins whose
        // joints are all in the scene (a skeleton without a mesh is still a skeleton).
        let mut skins: Vec<usize> = meshes
            .iter()
            .filter_map(|&(n, _)| self.doc.nodes[n].skin.map(|s| s.value()))
            .filter(|&s| s < self.doc.skins.len())
            .collect();
        skins.sort_unstable();
        skins.dedup();
        for (s, skin) in self.doc.skins.iter().enumerate() {
            let in_scene = !skin.joints.is_empty()
                && skin
                    .joints
                    .iter()
                    .all(|j| self.in_scene.get(j.value()).copied().unwrap_or(false));
            if in_scene && !skins.contains(&s) {
                skins.push(s);
            }
        }
        for s in skins {
            self.skin_nodes(s)?;
        }
        let skip = |imp: &Self, i: usize| {
            matches!(
                imp.kind_of(i),
                Some("root" | "copy" | "visibility" | "geoset" | "Camera")
            )
        };
        // Animated nodes, lights and mdlx-kinded nodes.
        for &i in &self.scene_order.clone() {
            if skip(self, i) {
                continue;
            }
            let light = self.doc.nodes[i]
                .extensions
                .as_ref()
                .and_then(|e| e.khr_lights_punctual.as_ref())
                .is_some();
            let kinded = matches!(
                self.kind_of(i),
                Some("Bone" | "Helper" | "Attachment" | "EventObject" | "Light")
            );
            if self.primary[i].is_none() && (self.animated(i) || light || kinded) {
                let kind = if light { Kind::Light } else { Kind::Helper };
                let w = self.g.safe[i];
                self.wnode(i, w, kind);
            }
        }
        // Rigid meshes that move.
        for &(n, _) in meshes {
            if self.doc.nodes[n].skin.is_none() && self.moves(n) {
                let w = self.g.safe[n];
                let k = self.wnode(n, w, Kind::Bone);
                self.wnodes[k].bound = true;
            }
        }
        // Ancestors.
        let mut k = 0;
        while k < self.wnodes.len() {
            let mut at = self.g.parent[self.wnodes[k].gnode];
            while let Some(p) = at {
                if self.primary[p].is_some() || skip(self, p) {
                    break;
                }
                let w = self.g.safe[p];
                self.wnode(p, w, Kind::Helper);
                at = self.g.parent[p];
            }
            k += 1;
        }
        // Parents: the first Warcraft node of the nearest glTF ancestor that has one.
        for k in 0..self.wnodes.len() {
            let mut at = self.g.parent[self.wnodes[k].gnode];
            let mut parent = None;
            while let Some(p) = at {
                if let Some(w) = self.primary[p] {
                    parent = Some(w);
                    break;
                }
                at = self.g.parent[p];
            }
            self.wnodes[k].parent = parent;
        }
        Ok(())
    }

    /// A still bone for static meshes (made on first use).
    fn root_bone(&mut self) -> usize {
        if let Some(k) = self.wnodes.iter().position(|w| w.synthetic) {
            return k;
        }
        self.wnodes.push(WNode {
            gnode: usize::MAX,
            b: IDENTITY,
            parent: None,
            kind: Kind::Bone,
            bound: true,
            synthetic: true,
            object_id: 0,
        });
        self.wnodes.len() - 1
    }

    /// The sequences, from the animations (or one `Stand`).
    fn sequences(&mut self, model: &mut Model) {
        let doc = self.doc;
        let mut next = 0u32;
        for (ai, anim) in doc.animations.iter().enumerate() {
            let place = format!("animations[{ai}]");
            let extras = extras_value(&anim.extras);
            let m = extras.as_ref().and_then(|e| e.get("mdlx"));
            // A name this crate exported is kept even when empty.
            let name = anim
                .name
                .clone()
                .filter(|n| !n.is_empty() || m.is_some())
                .unwrap_or_else(|| format!("Animation {ai}"));
            let raw_name = m.and_then(|m| unhex(m.get("name_hex")));
            // Up to the whole millisecond at or after the last key, so a key between two
            // milliseconds (keyed on both, see `moments`) plays.
            let len = (f64::from(self.durations[ai]) * 1000.0 - 1e-3)
                .ceil()
                .clamp(0.0, 1e9) as u32;
            let interval = m
                .and_then(|m| m.get("interval"))
                .and_then(|v| serde_json::from_value::<[u32; 2]>(v.clone()).ok())
                .filter(|i| i[1] >= i[0]);
            let interval = interval.unwrap_or_else(|| {
                let start = if ai == 0 {
                    0
                } else {
                    (next.saturating_add(500))
                        .div_ceil(1000)
                        .saturating_mul(1000)
                };
                [start, start.saturating_add(len.max(1))]
            });
            next = next.max(interval[1].saturating_add(1));
            let looping = m
                .and_then(|m| m.get("looping"))
                .or_else(|| extras.as_ref().and_then(|e| e.get("looping")))
                .and_then(Value::as_bool);
            let lower = name.to_lowercase();
            let non_looping = match looping {
                Some(l) => !l,
                None => lower.contains("death") || lower.contains("decay"),
            };
            let num = |k: &str| m.and_then(|m| m.get(k)).and_then(Value::as_f64);
            let flags = match num("flags") {
                Some(f) => f as u32,
                None if non_looping => SEQUENCE_NON_LOOPING,
                None => 0,
            };
            model.sequences.push(Sequence {
                name: match raw_name {
                    Some(b) if b.len() <= 80 => FixedString::from_field(&b),
                    _ => fixed(&name, 80, &place, "name", &mut self.losses),
                },
                interval,
                move_speed: num("move_speed").unwrap_or(0.0) as f32,
                flags,
                rarity: num("rarity").unwrap_or(0.0) as f32,
                sync_point: num("sync_point").unwrap_or(0.0) as u32,
                extent: Extent::default(),
            });
        }
        if model.sequences.is_empty() {
            model.sequences.push(Sequence {
                name: FixedString::from("Stand"),
                interval: [0, 1000],
                ..Default::default()
            });
        }
    }

    /// The node records, with their tracks.
    fn node_records(&mut self, model: &mut Model) -> Result<(), GltfError> {
        // Kinds: mdlx extras first, then what the node does.
        for k in 0..self.wnodes.len() {
            let w = &self.wnodes[k];
            if w.synthetic {
                continue;
            }
            let said = match self.kind_of(w.gnode) {
                Some("Bone") => Some(Kind::Bone),
                Some("Helper") => Some(Kind::Helper),
                Some("Attachment") => Some(Kind::Attachment),
                Some("EventObject") => Some(Kind::EventObject),
                _ => None,
            };
            let kind = if w.bound || w.kind == Kind::Bone {
                Kind::Bone
            } else {
                said.unwrap_or(w.kind)
            };
            // A node the model said was a helper but that vertices follow stays a bone.
            let kind = match said {
                Some(s) if w.kind == Kind::Bone && !w.bound && s != Kind::Bone => s,
                _ => kind,
            };
            self.wnodes[k].kind = kind;
        }
        // Object ids in the game's kind order.
        let order = [
            Kind::Bone,
            Kind::Light,
            Kind::Helper,
            Kind::Attachment,
            Kind::EventObject,
        ];
        let mut id = 0u32;
        for kind in order {
            for w in self.wnodes.iter_mut().filter(|w| w.kind == kind) {
                w.object_id = id;
                id += 1;
            }
        }
        model.pivot_points = vec![[0.0; 3]; id as usize];
        let nseq = model.sequences.len();
        let starts: Vec<u32> = model.sequences.iter().map(|s| s.interval[0]).collect();
        let mut names_used: HashMap<String, usize> = HashMap::new();
        for kind in order {
            for k in 0..self.wnodes.len() {
                if self.wnodes[k].kind != kind {
                    continue;
                }
                let w = &self.wnodes[k];
                let place = if w.synthetic {
                    "Root".to_string()
                } else {
                    format!("nodes[{}]", w.gnode)
                };
                let name = if w.synthetic {
                    "Root".to_string()
                } else {
                    let ours = self.mdlx[w.gnode].is_some();
                    self.doc.nodes[w.gnode]
                        .name
                        .clone()
                        .filter(|n| !n.is_empty() || ours)
                        .unwrap_or_else(|| format!("Node {}", w.gnode))
                };
                let seen = names_used.entry(name.clone()).or_insert(0);
                *seen += 1;
                let tracks = if w.synthetic {
                    Tracks::default()
                } else {
                    self.tracks(k, nseq, &starts)
                };
                let w = &self.wnodes[k];
                let pivot = from_y_up(translation_of(&w.b));
                model.pivot_points[w.object_id as usize] = pivot;
                let m = if w.synthetic {
                    None
                } else {
                    self.mdlx[w.gnode].clone()
                };
                let said_flags = m
                    .as_ref()
                    .and_then(|m| m.get("flags"))
                    .and_then(Value::as_u64)
                    .map(|f| f as u32 & 0xff & !node_flags::DONT_INHERIT)
                    .unwrap_or(0);
                let kind_bits = match kind {
                    Kind::Helper => 0,
                    Kind::Bone => 0x100,
                    Kind::Light => 0x200,
                    Kind::EventObject => 0x400,
                    Kind::Attachment => 0x800,
                };
                let raw_name = m.as_ref().and_then(|m| unhex(m.get("name_hex")));
                let node = Node {
                    name: match raw_name {
                        Some(b) if b.len() <= 80 => FixedString::from_field(&b),
                        _ => fixed(&name, 80, &place, "name", &mut self.losses),
                    },
                    object_id: w.object_id,
                    parent_id: w.parent.map_or(-1, |p| self.wnodes[p].object_id as i32),
                    flags: kind_bits | said_flags,
                    tracks,
                    tail: Vec::new(),
                };
                match kind {
                    Kind::Bone => model.bones.push(Bone {
                        node,
                        geoset_id: -1,
                        geoset_animation_id: -1,
                    }),
                    Kind::Helper => model.helpers.push(Helper { node }),
                    Kind::Light => {
                        let light = self.light(w.gnode, &place);
                        model.lights.push(Light { node, ..light });
                    }
                    Kind::Attachment => {
                        let m = m.unwrap_or(Value::Null);
                        let path = m.get("path").and_then(Value::as_str).unwrap_or("");
                        model.attachments.push(Attachment {
                            node,
                            path: fixed(path, 260, &place, "path", &mut self.losses),
                            attachment_id: m
                                .get("attachment_id")
                                .and_then(Value::as_u64)
                                .unwrap_or(model.attachments.len() as u64)
                                as u32,
                            tracks: Tracks::default(),
                            tail: Vec::new(),
                        });
                    }
                    Kind::EventObject => {
                        let m = m.unwrap_or(Value::Null);
                        let times: Option<Vec<u32>> = m
                            .get("times")
                            .and_then(|t| serde_json::from_value(t.clone()).ok());
                        let global_sequence_id = m
                            .get("global_sequence_id")
                            .and_then(Value::as_i64)
                            .unwrap_or(-1) as i32;
                        model.event_objects.push(EventObject {
                            node,
                            track: times.map(|times| EventTrack {
                                global_sequence_id: if global_sequence_id >= 0 {
                                    -1
                                } else {
                                    global_sequence_id
                                },
                                times,
                            }),
                        });
                    }
                }
            }
        }
        let dup = names_used.values().filter(|&&n| n > 1).count();
        if dup > 0 {
            // Not a loss: the game does not need unique names; noted for editors.
            let _ = dup;
        }
        Ok(())
    }

    fn light(&mut self, gnode: usize, place: &str) -> Light {
        use gltf_json::extensions::scene::khr_lights_punctual as klp;
        let index = self.doc.nodes[gnode]
            .extensions
            .as_ref()
            .and_then(|e| e.khr_lights_punctual.as_ref())
            .map(|l| l.light.value());
        let list = self
            .doc
            .extensions
            .as_ref()
            .and_then(|e| e.khr_lights_punctual.as_ref())
            .map(|l| &l.lights[..])
            .unwrap_or(&[]);
        let mut out = Light {
            light_type: light_type::OMNIDIRECTIONAL,
            attenuation: [80.0, 200.0],
            color: [1.0; 3],
            intensity: 1.0,
            ambient_color: [1.0; 3],
            ambient_intensity: 0.0,
            ..Default::default()
        };
        let Some(l) = index.and_then(|i| list.get(i)) else {
            return out;
        };
        out.color = [l.color[2], l.color[1], l.color[0]];
        out.intensity = l.intensity;
        if let Some(r) = l.range.filter(|r| r.is_finite() && *r > 0.0) {
            out.attenuation = [0.0, r];
        }
        match l.type_ {
            Checked::Valid(klp::Type::Directional) => out.light_type = light_type::DIRECTIONAL,
            Checked::Valid(klp::Type::Point) => {}
            _ => self.losses.add(
                place.to_string(),
                "spot light made an omni light (the game has no spot lights)",
            ),
        }
        out
    }

    /// `P`: the bind frame of node `k`'s Warcraft parent carried down to its glTF
    /// parent (the static nodes between them folded in).
    fn parent_frame(&self, k: usize) -> Mat4 {
        let w = &self.wnodes[k];
        let stop = w.parent.map(|q| self.wnodes[q].gnode);
        // The static locals between the Warcraft parent's glTF node and this node's glTF
        // parent (all of them up to the root when there is no Warcraft parent).
        let mut chain = IDENTITY;
        let mut at = self.g.parent[w.gnode];
        let mut steps = 0;
        while let Some(i) = at {
            if Some(i) == stop || steps > self.g.parent.len() {
                break;
            }
            chain = mul(&self.g.local[i], &chain);
            at = self.g.parent[i];
            steps += 1;
        }
        match w.parent {
            Some(q) => mul(&self.wnodes[q].b, &chain),
            None => chain,
        }
    }

    /// The KGTR, KGRT and KGSC tracks of Warcraft node `k`.
    fn tracks(&mut self, k: usize, nseq: usize, starts: &[u32]) -> Tracks {
        let gnode = self.wnodes[k].gnode;
        let p = self.parent_frame(k);
        let b = self.wnodes[k].b;
        let fp = frame_of(&p);
        let fb = frame_of(&b);
        let pp = translation_of(&p);
        let pv = translation_of(&b);
        let (t0, r0, s0) = self.g.trs[gnode];
        let place = format!("nodes[{gnode}]");
        let eps_t = 1e-6 * self.size;
        let mut out = Vec::new();
        // Translation: t' = pp - pv + Q_P t.
        let map_t = |v: Vec3| -> Vec3 {
            let q = linear(&p, v);
            from_y_up([0, 1, 2].map(|i| pp[i] - pv[i] + q[i]))
        };
        let map_dt = |v: Vec3| -> Vec3 { from_y_up(linear(&p, v)) };
        // Rotation: R' = R_P R R_B⁻¹.
        let rb_inv = qconjugate(fb.rot);
        let map_r = |q: Quat| -> Quat { quat_z_up(qnormalize(qmul(qmul(fp.rot, q), rb_inv))) };
        // Scaling: the scale about the bind frame's axes, times the frames' scale ratio.
        let ratio = fp.scale / fb.scale;
        let aligned = axis_aligned(fb.rot);
        let map_s = |s: Vec3| -> Vec3 {
            let d = rotated_scale_diagonal(fb.rot, s);
            scale_z_up(d.map(|x| x * ratio))
        };
        let mut scale_approx = !fp.exact || !fb.exact;
        if !(fp.exact && fb.exact) {
            self.losses.add(
                place.clone(),
                "bind frame with shear, mirror or unequal scales: rotation and scaling approximated",
            );
        }
        for prop in 0u8..3 {
            let mut keys_v: Vec<Key<Vec3>> = Vec::new();
            let mut keys_q: Vec<Key<Quat>> = Vec::new();
            let mut interp = Interpolation::None;
            let mut any = false;
            let mut per_seq: Vec<Option<(GInterp, usize)>> = Vec::with_capacity(nseq);
            for si in 0..nseq {
                let ch = self.channels.get(si).and_then(|a| a.get(&(gnode, prop)));
                per_seq.push(ch.map(|c| (c.interp, c.times.len())));
                if ch.is_some() {
                    any = true;
                }
            }
            // The rest value, mapped.
            let rest_identity = match prop {
                0 => {
                    let v = map_t(t0);
                    v.iter().all(|x| x.abs() <= eps_t)
                }
                1 => {
                    let q = map_r(r0);
                    qdist(q, [0.0, 0.0, 0.0, 1.0]) <= 1e-6
                }
                _ => {
                    let s = map_s(s0);
                    s.iter().all(|x| (x - 1.0).abs() <= 1e-6)
                }
            };
            if !any && rest_identity {
                continue;
            }
            // The track's interpolation: the richest its channels use.
            for c in per_seq.iter().flatten() {
                let i = match c.0 {
                    GInterp::Step => Interpolation::None,
                    GInterp::Linear => Interpolation::Linear,
                    GInterp::CubicSpline if prop == 1 => Interpolation::Linear,
                    GInterp::CubicSpline => Interpolation::Hermite,
                };
                if i.to_u32() > interp.to_u32() {
                    interp = i;
                }
            }
            if !any {
                interp = Interpolation::Linear;
            }
            let mut stepped = false;
            // A track this crate exported from a global sequence: its first cycle, from
            // the first animation, on the global sequence's own clock.
            let global = self.mdlx[gnode]
                .as_ref()
                .and_then(|m| {
                    m.get("global")?
                        .get(["translation", "rotation", "scale"][prop as usize])?
                        .as_u64()
                })
                .and_then(|g| Some((g as i32, *self.global_sequences.get(g as usize)?)))
                .and_then(|(g, d)| {
                    // An animation that plays the whole first cycle.
                    let first = (0..nseq).find(|&si| {
                        self.channels
                            .get(si)
                            .is_some_and(|a| a.contains_key(&(gnode, prop)))
                            && f64::from(self.durations[si]) * 1000.0 >= f64::from(d) - 0.5
                    })?;
                    Some((g, d, first))
                });
            let jobs: Vec<(usize, i64, Option<i64>)> = match global {
                Some((_, d, first)) => vec![(first, 0, Some(i64::from(d)))],
                None => starts
                    .iter()
                    .enumerate()
                    .take(nseq)
                    .map(|(si, &s)| (si, i64::from(s), None))
                    .collect(),
            };
            for (si, start, limit) in jobs {
                let ch = self.channels.get(si).and_then(|a| a.get(&(gnode, prop)));
                let Some(c) = ch else {
                    // Not animated in this sequence: the rest value, when it is not the
                    // identity the game falls back to.
                    if !rest_identity {
                        let t = start.min(i64::from(i32::MAX)) as i32;
                        match prop {
                            0 => keys_v.push(key(t, map_t(t0))),
                            1 => keys_q.push(key(t, map_r(r0))),
                            _ => keys_v.push(key(t, map_s(s0))),
                        }
                    }
                    continue;
                };
                let at = |ms: i64| (start + ms).min(i64::from(i32::MAX)) as i32;
                let cubic = c.interp == GInterp::CubicSpline;
                let mut pts = match limit {
                    // The first cycle: the keys before its end, and the first key on it (the
                    // next cycle starts with a key of its own there); a cycle of no length
                    // holds its first key.
                    Some(d) => {
                        let ms = |t: f32| (f64::from(t) * 1000.0).round() as i64;
                        let mut cut = c.times.iter().take_while(|&&t| ms(t) < d).count();
                        if c.times.get(cut).is_some_and(|&t| ms(t) == d) || cut == 0 {
                            cut += 1;
                        }
                        moments(&c.times[..cut.min(c.times.len())], cubic)
                    }
                    None => moments(&c.times, cubic),
                };
                if prop == 1 && c.interp == GInterp::CubicSpline {
                    pts = refine_rotation(c, &pts, &mut self.rotation_error);
                }
                let step_here = c.interp == GInterp::Step && interp != Interpolation::None;
                stepped |= step_here;
                let stride = if c.interp == GInterp::CubicSpline {
                    3
                } else {
                    1
                };
                let comps = if prop == 1 { 4 } else { 3 };
                let raw = |k: usize, part: usize| -> [f32; 4] {
                    let o = (k * stride + part) * comps;
                    let mut v = [0.0; 4];
                    v[..comps].copy_from_slice(&c.values[o..o + comps]);
                    v
                };
                let value_at = |p: &(i64, Option<usize>)| -> [f32; 4] {
                    match p.1 {
                        Some(k) => raw(k, stride / 2),
                        None => channel_at(c, p.0 as f32 / 1000.0),
                    }
                };
                if prop == 1 {
                    let mut prev: Option<Quat> = None;
                    for (i, p) in pts.iter().enumerate() {
                        let mut q = map_r(qnormalize(value_at(p)));
                        if let Some(pq) = prev {
                            if crate::anim::math::qdot(pq, q) < 0.0 {
                                q = q.map(|x| -x);
                            }
                            if step_here && i > 0 && p.0 - 1 > pts[i - 1].0 {
                                push_key(&mut keys_q, key(at(p.0 - 1), pq));
                            }
                        }
                        prev = Some(q);
                        push_key(&mut keys_q, key(at(p.0), q));
                    }
                } else {
                    let v3 = |v: [f32; 4]| [v[0], v[1], v[2]];
                    let map = |v: Vec3| if prop == 0 { map_t(v) } else { map_s(v) };
                    let dmap = |v: Vec3| {
                        if prop == 0 {
                            map_dt(v)
                        } else {
                            scale_z_up(rotated_scale_diagonal(fb.rot, v).map(|x| x * ratio))
                        }
                    };
                    if prop == 2 && !aligned {
                        let uneven = (0..c.times.len()).any(|k| {
                            let s = raw(k, stride / 2);
                            (s[0] - s[1]).abs() > 1e-6 * s[0].abs().max(1.0)
                                || (s[0] - s[2]).abs() > 1e-6 * s[0].abs().max(1.0)
                        });
                        scale_approx |= uneven;
                    }
                    let values: Vec<Vec3> = pts.iter().map(|p| map(v3(value_at(p)))).collect();
                    for (i, p) in pts.iter().enumerate() {
                        let value = values[i];
                        let mut k = key(at(p.0), value);
                        if interp == Interpolation::Hermite {
                            let prev_v = if i > 0 { values[i - 1] } else { value };
                            let next_v = values.get(i + 1).copied().unwrap_or(value);
                            // A straight line as a Hermite curve: tangents equal to the step
                            // to the neighbour key.
                            k.in_tan = [0, 1, 2].map(|j| value[j] - prev_v[j]);
                            k.out_tan = [0, 1, 2].map(|j| next_v[j] - value[j]);
                            if c.interp == GInterp::Step {
                                k.in_tan = [0.0; 3];
                                k.out_tan = [0.0; 3];
                            }
                            if c.interp == GInterp::CubicSpline {
                                // glTF's tangents are per second: times the key spacing,
                                // exact where both neighbours are the channel's own keys.
                                if let Some(kk) = p.1 {
                                    let n = c.times.len();
                                    if i > 0 && kk > 0 && pts[i - 1].1 == Some(kk - 1) {
                                        let dt = c.times[kk] - c.times[kk - 1];
                                        k.in_tan = dmap(v3(raw(kk, 0))).map(|x| x * dt);
                                    }
                                    if kk + 1 < n
                                        && pts.get(i + 1).is_some_and(|q| q.1 == Some(kk + 1))
                                    {
                                        let dt = c.times[kk + 1] - c.times[kk];
                                        k.out_tan = dmap(v3(raw(kk, 2))).map(|x| x * dt);
                                    }
                                }
                            }
                        }
                        if step_here && i > 0 && p.0 - 1 > pts[i - 1].0 {
                            let mut h = key(at(p.0 - 1), values[i - 1]);
                            if interp == Interpolation::Hermite {
                                h.in_tan = [0.0; 3];
                                h.out_tan = [0.0; 3];
                            }
                            push_key(&mut keys_v, h);
                        }
                        push_key(&mut keys_v, k);
                    }
                }
            }
            if stepped {
                self.losses.add(
                    place.clone(),
                    "STEP keys in a track other animations interpolate: held by a key 1 ms before the next",
                );
            }
            let tag = [KGTR, KGRT, KGSC][prop as usize];
            let gsid = global.map_or(-1, |g| g.0);
            let track = if prop == 1 {
                AnyTrack::Quaternion(Track {
                    interpolation: interp,
                    global_sequence_id: gsid,
                    keys: sorted(keys_q),
                })
            } else {
                AnyTrack::Vector3(Track {
                    interpolation: interp,
                    global_sequence_id: gsid,
                    keys: sorted(keys_v),
                })
            };
            out.push(WcAnimation { tag, track });
        }
        if scale_approx && !(fp.exact && fb.exact) {
            // Already listed above.
        } else if scale_approx {
            self.losses.add(
                place,
                "non-uniform scaling along a rotated bind frame approximated by the game's per-axis scaling",
            );
        }
        Tracks(out)
    }

    /// Geoset animations: the visibility rigs of files this crate exported, and static
    /// colours.
    fn visibility(&mut self, model: &mut Model, sources: &[GeosetSource]) {
        let starts: Vec<u32> = model.sequences.iter().map(|s| s.interval[0]).collect();
        for (gi, src) in sources.iter().enumerate() {
            let Some(skin) = self.doc.nodes[src.node].skin.map(|s| s.value()) else {
                continue;
            };
            // The rig's root: an ancestor of the skin's first joint marked "visibility".
            let Some(&j) = self.doc.skins.get(skin).and_then(|s| s.joints.first()) else {
                continue;
            };
            let mut at = Some(j.value());
            let mut rig = None;
            while let Some(i) = at {
                if self.kind_of(i) == Some("visibility") {
                    rig = Some(i);
                    break;
                }
                at = self.g.parent.get(i).copied().flatten();
            }
            let Some(rig) = rig else { continue };
            let rest = self.g.trs[rig].2[0];
            let mut keys = Vec::new();
            for (si, &start) in starts.iter().enumerate() {
                let Some(c) = self.channels.get(si).and_then(|a| a.get(&(rig, 2))) else {
                    if rest == 0.0 {
                        keys.push(key(start as i32, 0.0f32));
                    }
                    continue;
                };
                for (k, &t) in c.times.iter().enumerate() {
                    let stride = if c.interp == GInterp::CubicSpline {
                        3
                    } else {
                        1
                    };
                    let v = c.values[(k * stride + stride / 2) * 3];
                    // A step takes effect on the first whole millisecond at or after
                    // its time.
                    let ms = start as i64 + (f64::from(t) * 1000.0 - 1e-3).ceil().max(0.0) as i64;
                    push_key(
                        &mut keys,
                        key(
                            ms.min(i32::MAX as i64) as i32,
                            if v == 0.0 { 0.0 } else { 1.0 },
                        ),
                    );
                }
            }
            let mut ga = GeosetAnimation {
                alpha: if rest == 0.0 { 0.0 } else { 1.0 },
                flags: 0,
                color: [1.0; 3],
                geoset_id: gi as i32,
                ..Default::default()
            };
            if !keys.is_empty() {
                ga.tracks = Tracks(vec![WcAnimation {
                    tag: KGAO,
                    track: AnyTrack::Float(Track {
                        interpolation: Interpolation::None,
                        global_sequence_id: -1,
                        keys: sorted(keys),
                    }),
                }]);
            }
            model.geoset_animations.push(ga);
        }
    }

    /// Cameras: a perspective camera looking down its -Z.
    fn cameras(&mut self, model: &mut Model) {
        for &i in &self.scene_order {
            let Some(ci) = self.doc.nodes[i].camera.map(|c| c.value()) else {
                continue;
            };
            let Some(cam) = self.doc.cameras.get(ci) else {
                continue;
            };
            let place = format!("cameras[{ci}]");
            let Some(p) = &cam.perspective else {
                self.losses.add(
                    place,
                    "orthographic camera not carried (the game's cameras are perspective)",
                );
                continue;
            };
            if self.animated(i) || self.moves(i) {
                self.losses
                    .add(place.clone(), "camera animation not carried");
            }
            let w = self.g.world[i];
            let eye = translation_of(&w);
            let m = self.mdlx[i].clone();
            let target = m
                .as_ref()
                .and_then(|m| m.get("target"))
                .and_then(|t| serde_json::from_value::<[f32; 3]>(t.clone()).ok());
            let target = target.unwrap_or_else(|| {
                let fwd = crate::anim::math::normalize(linear(&w, [0.0, 0.0, -1.0]));
                let d = self.size.max(1.0);
                from_y_up([0, 1, 2].map(|k| eye[k] + fwd[k] * d))
            });
            let name = self.doc.nodes[i]
                .name
                .clone()
                .or_else(|| cam.name.clone())
                .unwrap_or_else(|| format!("Camera {ci}"));
            model.cameras.push(Camera {
                name: fixed(&name, 80, &place, "name", &mut self.losses),
                position: from_y_up(eye),
                field_of_view: p.yfov,
                far_clip: p.zfar.unwrap_or(10000.0),
                near_clip: p.znear,
                target_position: target,
                tracks: Tracks::default(),
                tail: Vec::new(),
            });
        }
        let lights_unused = self
            .doc
            .extensions
            .as_ref()
            .and_then(|e| e.khr_lights_punctual.as_ref())
            .is_some_and(|l| !l.lights.is_empty())
            && model.lights.is_empty();
        if lights_unused {
            self.losses.add(
                "KHR_lights_punctual",
                "lights no scene node uses not carried",
            );
        }
    }
}

/// Whether every key of `c` equals the node's rest value for its property.
fn restates_rest(c: &GChannel, rest: &(Vec3, Quat, Vec3)) -> bool {
    let stride = if c.interp == GInterp::CubicSpline {
        3
    } else {
        1
    };
    let comps = if c.property == Property::Rotation {
        4
    } else {
        3
    };
    let n = c.times.len();
    (0..n).all(|k| {
        let o = (k * stride + stride / 2) * comps;
        let v = &c.values[o..o + comps];
        if stride == 3 {
            // Tangents must be zero too.
            let a = &c.values[k * 3 * comps..k * 3 * comps + comps];
            let b = &c.values[(k * 3 + 2) * comps..(k * 3 + 2) * comps + comps];
            if a.iter().chain(b).any(|x| x.abs() > 1e-7) {
                return false;
            }
        }
        match c.property {
            Property::Translation => {
                (0..3).all(|i| (v[i] - rest.0[i]).abs() <= 1e-6 * rest.0[i].abs().max(1.0))
            }
            Property::Rotation => qdist([v[0], v[1], v[2], v[3]], rest.1) <= 1e-6,
            _ => (0..3).all(|i| (v[i] - rest.2[i]).abs() <= 1e-6 * rest.2[i].abs().max(1.0)),
        }
    })
}

/// How far apart two rotations are: 1 - |cos| of the half angle, 0 when equal.
fn qdist(a: Quat, b: Quat) -> f32 {
    let a = qnormalize(a);
    let b = qnormalize(b);
    1.0 - crate::anim::math::qdot(a, b).abs().min(1.0)
}

fn key<T: Copy>(time: i32, value: T) -> Key<T> {
    Key {
        time,
        value,
        in_tan: value,
        out_tan: value,
    }
}

/// Appends `k` (see [`sorted`]).
fn push_key<T: Copy>(keys: &mut Vec<Key<T>>, k: Key<T>) {
    keys.push(k);
}

/// Keys in time order; of keys at one millisecond the last added wins (sequences may be
/// laid out in any order, and may share keys where their intervals overlap).
fn sorted<T: Copy>(mut keys: Vec<Key<T>>) -> Vec<Key<T>> {
    keys.sort_by_key(|k| k.time);
    let mut out: Vec<Key<T>> = Vec::with_capacity(keys.len());
    for k in keys {
        match out.last_mut() {
            Some(last) if last.time == k.time => *last = k,
            _ => out.push(k),
        }
    }
    out
}

/// Whether the rotation `q` maps the axes onto axes (so a per-axis scale stays one).
fn axis_aligned(q: Quat) -> bool {
    let m = trs_about([0.0; 3], q, [1.0; 3], [0.0; 3]);
    [0, 4, 8].iter().all(|&c| {
        let col = [m[c], m[c + 1], m[c + 2]];
        col.iter().filter(|x| x.abs() > 1e-5).count() == 1
    })
}

/// The diagonal of `R diag(s) R⁻¹`: a scale along the rotated axes, seen per model axis.
fn rotated_scale_diagonal(r: Quat, s: Vec3) -> Vec3 {
    let m = trs_about([0.0; 3], r, [1.0; 3], [0.0; 3]);
    // (R S Rᵀ)_ii = sum_k R_ik² s_k
    [0, 1, 2].map(|i| (0..3).map(|k| m[k * 4 + i] * m[k * 4 + i] * s[k]).sum())
}

/// A channel's value at `t` seconds, as glTF interpolates it (rotations normalised).
fn channel_at(c: &GChannel, t: f32) -> [f32; 4] {
    let n = c.times.len();
    let comps = if c.property == Property::Rotation {
        4
    } else {
        3
    };
    let stride = if c.interp == GInterp::CubicSpline {
        3
    } else {
        1
    };
    let get = |k: usize, part: usize| -> [f32; 4] {
        let o = (k * stride + part) * comps;
        let mut v = [0.0; 4];
        v[..comps].copy_from_slice(&c.values[o..o + comps]);
        v
    };
    let norm = |v: [f32; 4]| if comps == 4 { qnormalize(v) } else { v };
    if n == 1 || t <= c.times[0] {
        return norm(get(0, stride / 2));
    }
    if t >= c.times[n - 1] {
        return norm(get(n - 1, stride / 2));
    }
    let k = c
        .times
        .partition_point(|&x| x <= t)
        .saturating_sub(1)
        .min(n - 2);
    let (t0, t1) = (c.times[k], c.times[k + 1]);
    let dt = t1 - t0;
    let s = if dt > 0.0 { (t - t0) / dt } else { 0.0 };
    match c.interp {
        GInterp::Step => norm(get(k, 0)),
        GInterp::Linear => {
            let (a, b) = (get(k, 0), get(k + 1, 0));
            if comps == 4 {
                qnormalize(crate::anim::math::slerp(qnormalize(a), qnormalize(b), s))
            } else {
                [0, 1, 2, 3].map(|i| a[i] + (b[i] - a[i]) * s)
            }
        }
        GInterp::CubicSpline => {
            let (s2, s3) = (s * s, s * s * s);
            let h00 = 2.0 * s3 - 3.0 * s2 + 1.0;
            let h10 = s3 - 2.0 * s2 + s;
            let h01 = -2.0 * s3 + 3.0 * s2;
            let h11 = s3 - s2;
            let (v0, b0, a1, v1) = (get(k, 1), get(k, 2), get(k + 1, 0), get(k + 1, 1));
            norm(
                [0, 1, 2, 3]
                    .map(|i| h00 * v0[i] + h10 * dt * b0[i] + h01 * v1[i] + h11 * dt * a1[i]),
            )
        }
    }
}

/// The whole milliseconds (from the animation's start) a channel is keyed at in the
/// model, each with the glTF key it is (`None`: the curve's value there). A key on a
/// whole millisecond stays itself; a key between two (a file keyed at 30 per second)
/// becomes the curve's values on both (a CUBICSPLINE key is rounded to the nearer, to
/// keep its tangents); two keys that fall on one millisecond (a jump kept as two keys
/// a hair apart) become keys on it and the next; more (keys sampled densely) become the
/// curve's values at that millisecond and the one before, which is what the curve is at
/// whole milliseconds.
fn moments(times: &[f32], cubic: bool) -> Vec<(i64, Option<usize>)> {
    let mut buckets: Vec<(i64, Vec<usize>)> = Vec::new();
    for (k, &t) in times.iter().enumerate() {
        let m = (f64::from(t) * 1000.0).round() as i64;
        match buckets.last_mut() {
            Some((b, ks)) if *b == m => ks.push(k),
            _ => buckets.push((m, vec![k])),
        }
    }
    let mut out: Vec<(i64, Option<usize>)> = Vec::with_capacity(buckets.len());
    let push = |out: &mut Vec<(i64, Option<usize>)>, p: (i64, Option<usize>)| match out.last() {
        Some(l) if l.0 >= p.0 => {}
        _ => out.push(p),
    };
    for (b, (m, ks)) in buckets.iter().enumerate() {
        let m = *m;
        if ks.len() == 1 {
            let exact = (f64::from(times[ks[0]]) * 1000.0 - m as f64).abs() < 1e-3;
            if exact || cubic {
                push(&mut out, (m, Some(ks[0])));
            } else {
                // Between two milliseconds: the curve on both, so the model is exact on
                // every whole millisecond (its corner falls between them).
                let f = (f64::from(times[ks[0]]) * 1000.0).floor() as i64;
                push(&mut out, (f, None));
                push(&mut out, (f + 1, None));
            }
            continue;
        }
        // Two keys on one millisecond: a jump (a global sequence's cycles laid end to end
        // meet so; the game, wrapping its clock, is still on the earlier key there). The
        // later key moves a millisecond on when that is free, so both keep their values
        // and tangents.
        if ks.len() == 2 && buckets.get(b + 1).is_none_or(|n| n.0 > m + 1) {
            push(&mut out, (m, Some(ks[0])));
            push(&mut out, (m + 1, Some(ks[1])));
            continue;
        }
        if m > 0 {
            push(&mut out, (m - 1, None));
        }
        // The value at m: the last key at or before m exactly, else the curve.
        let exact = ks
            .iter()
            .rev()
            .find(|&&k| (f64::from(times[k]) * 1000.0 - m as f64).abs() < 1e-3);
        out.push((
            m,
            exact
                .copied()
                .filter(|&k| k == *ks.last().expect("two keys")),
        ));
    }
    out
}

/// Moments for a CUBICSPLINE rotation: `pts` and, between them, whole milliseconds
/// halving each interval until slerp between neighbours stays within
/// [`ROTATION_TOLERANCE`] of glTF's curve at the quarter points (down to 1 ms apart).
/// The largest error left is added to `error`.
fn refine_rotation(
    c: &GChannel,
    pts: &[(i64, Option<usize>)],
    error: &mut f32,
) -> Vec<(i64, Option<usize>)> {
    let q = |ms: f64| channel_at(c, (ms / 1000.0) as f32);
    let mut out = Vec::with_capacity(pts.len() * 2);
    for (i, &p) in pts.iter().enumerate() {
        out.push(p);
        let Some(&next) = pts.get(i + 1) else { break };
        let mut stack = vec![(p.0, next.0)];
        let mut inner = Vec::new();
        while let Some((a, b)) = stack.pop() {
            let (qa, qb) = (q(a as f64), q(b as f64));
            let worst = [0.25f64, 0.5, 0.75]
                .iter()
                .map(|&f| {
                    let t = a as f64 + (b - a) as f64 * f;
                    angle_between(crate::anim::math::slerp(qa, qb, f as f32), q(t))
                })
                .fold(0.0f32, f32::max);
            if worst <= ROTATION_TOLERANCE || b - a < 2 {
                *error = error.max(worst);
                continue;
            }
            let m = (a + b) / 2;
            inner.push(m);
            stack.push((m, b));
            stack.push((a, m));
        }
        inner.sort_unstable();
        out.extend(inner.into_iter().map(|m| (m, None)));
    }
    out
}

fn angle_between(a: Quat, b: Quat) -> f32 {
    let d = crate::anim::math::qdot(qnormalize(a), qnormalize(b))
        .abs()
        .min(1.0);
    2.0 * d.acos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_on_whole_milliseconds_stay_and_keys_between_are_keyed_on_both_sides() {
        assert_eq!(
            moments(&[0.0, 0.5, 1.0], false),
            vec![(0, Some(0)), (500, Some(1)), (1000, Some(2))]
        );
        // 30 keys a second: 33.33 ms lies between 33 and 34.
        assert_eq!(
            moments(&[0.0, 1.0 / 30.0], false),
            vec![(0, Some(0)), (33, None), (34, None)]
        );
        // A cubic key is rounded, to keep its tangents.
        assert_eq!(
            moments(&[0.0, 1.0 / 30.0], true),
            vec![(0, Some(0)), (33, Some(1))]
        );
        // A jump kept as two keys a hair apart: on the millisecond and the next.
        assert_eq!(
            moments(&[0.5, 0.999_999_9, 1.0], false),
            vec![(500, Some(0)), (1000, Some(1)), (1001, Some(2))]
        );
    }

    #[test]
    fn a_step_channel_between_milliseconds_takes_effect_on_the_next_one() {
        let c = GChannel {
            property: Property::Translation,
            interp: GInterp::Step,
            times: vec![0.0, 0.0105],
            values: vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
        };
        assert_eq!(channel_at(&c, 0.010)[0], 0.0);
        assert_eq!(channel_at(&c, 0.011)[0], 1.0);
    }
}
