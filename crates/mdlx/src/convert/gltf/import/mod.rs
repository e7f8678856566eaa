//! glTF 2.0 import: a scene with its skins, animations and materials as a Warcraft III
//! model.
//!
//! ```
//! let bytes = include_bytes!("../../../../../../examples/cube.mdx");
//! let model = mdlx::mdx::from_bytes(bytes).unwrap();
//! let glb = mdlx::convert::gltf::export(&model, &Default::default()).to_glb();
//! let source = mdlx::convert::gltf::Source::from_bytes(&glb, None).unwrap();
//! let back = mdlx::convert::gltf::import(&source, &Default::default()).unwrap();
//! assert_eq!(back.model.sequences.len(), model.sequences.len());
//! ```
//!
//! # The mapping, and why
//! - **Scale.** glTF's unit is the metre; the game's people are drawn larger than life. The
//!   default ([`ImportScale::Metres`]) multiplies every length by [`UNITS_PER_METRE`] (70,
//!   measured against the game's own units: see there), so a 1.7 m figure stands 119 units
//!   tall, between the corpus's peon (97) and archer (135). [`ImportScale::Factor`] sets the
//!   factor, [`ImportScale::Height`] fits the model's first pose to a height. Vertices,
//!   pivots, translations, extents, cameras, light distances (every length,
//!   [`crate::convert::scale`]) are scaled; the import's notes say the factor and the
//!   height it gives ([`Import::scale`], [`Import::height`]). A file this crate exported is
//!   in game units already: its default scale is 1. Non-humanoid models get their
//!   real-world size at the same scale (a 0.5 m animal stands 35 units tall); a model much taller than any unit (over 1,000 units, likely not
//!   authored in metres, as the Fox sample, in centimetres) is flagged in the note, to be
//!   fitted with a height.
//! - **Ready for the game** ([`crate::convert::ready`], unless
//!   [`ImportOptions::game_ready`] is off): sequence names the game plays (`Idle` is
//!   `Stand`, `Die` is `Death`, ... and [`ImportOptions::renames`] first), a `Stand` and a
//!   `Death` when none can be named so, a key at the start of every sequence a track
//!   animates (glTF holds a channel's first value before its first key; the game would
//!   carry the previous sequence's value in), and no redundant key. A file this crate
//!   exported only gets its renames: it is a Warcraft III model already.
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
//! - **Files with their model embedded** (the export's default,
//!   [`ExportOptions::source`](crate::convert::gltf::ExportOptions::source)) come back as that
//!   model, at its version, with only what the editor changed taken from the glTF: see
//!   the `keep` module's rules (sequences by name, nodes by identity and motion, geosets
//!   by their triangles, materials by their image). [`ImportOptions::version`] does not
//!   apply to them; convert the result.
//! - **Names** of nodes without `mdlx` extras follow the community exporters'
//!   conventions: `... Ref` an attachment, `SND`/`SPN`/`SPL`/`UBR`/`FPT...` an event
//!   object, `Collision...` a collision shape (the table is in the `names` module).
//! - **Materials** (see [below](#materials-and-textures)): the base colour texture becomes the layer's
//!   texture, written as BLP beside the model under [`ImportOptions::texture_path`];
//!   alpha modes map to filter modes, `doubleSided` to two-sided, `KHR_materials_unlit`
//!   to unshaded; for 1000 and later the metallic-roughness, occlusion, normal and
//!   emissive textures fill the Reforged slots.
//! - **Not carried, and listed:** morph targets, vertex colours, points and lines,
//!   texture transforms, spot lights and orthographic cameras, animation of anything but
//!   node transforms, other scenes.
//!
//! # Materials and textures
//! - **Version 800:** one layer. The base colour texture is its texture (white,
//!   `Textures\white.blp`, without one); the base colour factor's alpha its alpha, its
//!   colour a static geoset-animation colour of the geosets that use it. `OPAQUE` ->
//!   filter mode none, `MASK` -> transparent (the game's alpha test is fixed at 0.75: a
//!   different `alphaCutoff` is listed), `BLEND` -> blend; `doubleSided` -> two-sided;
//!   `KHR_materials_unlit` -> unshaded. Normal, occlusion, metallic-roughness and emissive
//!   textures have no place at 800 (listed).
//! - **Version 1000 and later:** the Reforged HD material, `Shader_HD_DefaultUnit` with six
//!   layers (1000) or one layer of shader type 1 with six texture slots (1100): diffuse,
//!   normal, ORM, emissive, team colour (replaceable 1) and environment
//!   (`ReplaceableTextures\EnvironmentMap.blp`). The ORM texture is made from the glTF's
//!   occlusion (red) and metallic-roughness (green roughness, blue metalness) textures and
//!   factors, with alpha 0 (the game reads alpha as the team-colour mask). Without a normal
//!   map a flat one is written; without emission, `Textures\Black32.blp`.
//! - **Textures** are decoded (PNG, JPEG) and written as BLP1 (JPEG content, quality 90,
//!   mipmaps) under [`ImportOptions::texture_path`], named after the image (its name, else
//!   its file name, else `textureN`). Sizes become powers of two, at most 512 at version
//!   800 and 2048 after (listed when resized). An image named like a Warcraft III texture
//!   path (`Textures\Foo.blp`, as this crate's export names them) is referred to by that
//!   path and not written: it is a file the game or the map already has.
//!   Texture transforms (`KHR_texture_transform`) and material extensions other than
//!   unlit are not carried (listed).

mod animation;
mod graph;
mod keep;
pub use keep::ROUND_TRIP;
mod keys;
mod material;
mod mesh;
mod names;
mod nodes;
mod ready;
mod run;
mod tracks;

use graph::{finite, graph, Graph};
use keys::*;

use super::source::{GltfError, Source};
use super::Losses;
use crate::anim::math::{
    invert_affine, mul, qconjugate, qmul, qnormalize, trs_about, Mat4, Quat, Vec3, IDENTITY,
};
use crate::model::{
    light_type, node_flags, Animation as WcAnimation, AnyTrack, Attachment, Bone, Camera,
    EventObject, EventTrack, Extent, FixedString, GeosetAnimation, Helper, Interpolation, Key,
    Light, Model, Node, Sequence, Track, Tracks, SEQUENCE_NON_LOOPING,
};
use crate::spec::track::{KGAO, KGRT, KGSC, KGTR};
use crate::Loss;
use gltf_json::animation::{Interpolation as GInterp, Property};
use gltf_json::validation::Checked;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// How far (radians) a CUBICSPLINE rotation sampled into linear keys may leave glTF's
/// curve (measured at the quarter points of every sampled interval).
pub const ROTATION_TOLERANCE: f32 = 1e-4;

pub use ready::UNITS_PER_METRE;

/// How big the imported model is.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum ImportScale {
    /// glTF's metres times [`UNITS_PER_METRE`]; a file this crate exported is in game units
    /// already and keeps its size.
    #[default]
    Metres,
    /// Every length times this factor (finite, above 0).
    Factor(f32),
    /// Scaled so that the model's first pose is this many game units tall (finite, above
    /// 0); see [`crate::convert::scale::first_pose_height`].
    Height(f32),
}

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
    /// The scale from the glTF's units to the game's.
    pub scale: ImportScale,
    /// Sequence names to set (`Survey=Stand`), before the table of
    /// [`crate::convert::ready::NAMES`].
    pub renames: Vec<crate::convert::ready::Rename>,
    /// Make the model ready for the game ([`crate::convert::ready::finish`]: sequence names
    /// the game plays, a Stand and a Death, opening keys, no redundant keys). A file this
    /// crate exported is a Warcraft III model already: it only gets its `renames`.
    pub game_ready: bool,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            version: 800,
            texture_path: "war3mapImported\\".into(),
            name: String::new(),
            scale: ImportScale::Metres,
            renames: Vec::new(),
            game_ready: true,
        }
    }
}

pub use crate::convert::ImportedTexture;

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
    /// Game units per glTF unit: every glTF length was multiplied by it.
    pub scale: f32,
    /// How tall the model stands in its first pose, in game units (0 without vertices);
    /// see [`crate::convert::scale::first_pose_height`].
    pub height: f32,
    /// What the import did to fit the game (its scale, sequence names, added keys and
    /// sequences) and what is still not standard: notes, not losses.
    pub notes: Vec<Loss>,
}

/// Where the imported records came from in the glTF document.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sources {
    /// By object id: the glTF node (`None` for a node made for static meshes).
    pub(crate) nodes: Vec<Option<usize>>,
    /// By material id: the glTF material (`None`: primitives without one).
    pub(crate) materials: Vec<Option<usize>>,
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
    CollisionShape,
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

/// Imports the default scene of `source`. A file this crate exported with its model
/// embedded ([`crate::convert::gltf::ExportOptions::source`]) gives that model back, with what an
/// editor changed in the glTF (see `keep`), at the model's own version.
pub fn import(source: &Source, options: &ImportOptions) -> Result<Import, GltfError> {
    match keep::embedded(&source.root) {
        Some(Ok(kept)) if options.scale == ImportScale::Metres => {
            // The glTF as this import reads any glTF, at the embedded model's kind of
            // skinning, its materials from the glTF's own images: what changed is taken
            // from it.
            let opts = ImportOptions {
                version: if kept.version >= 900 {
                    kept.version.min(1100)
                } else {
                    800
                },
                game_ready: false,
                renames: Vec::new(),
                ..options.clone()
            };
            let mut fresh = Importer::new(source, &opts)?;
            fresh.materials_from_extras = false;
            let (fresh, sources) = fresh.run_with_sources()?;
            keep::reconcile(kept, fresh, &sources, source, &opts)
        }
        Some(Err(e)) => {
            let mut out = Importer::new(source, options)?.run()?;
            out.losses.push(Loss::new(
                "model",
                format!("the model embedded in the file does not read ({e}): the glTF alone is imported"),
            ));
            Ok(out)
        }
        _ => Importer::new(source, options)?.run(),
    }
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
    /// (kind, index) -> the glTF node whose extras name them.
    identity: HashMap<(String, u64), usize>,
    /// Per animation: (node, property) -> channel.
    channels: Vec<BTreeMap<(usize, u8), GChannel>>,
    /// Animation durations (seconds).
    durations: Vec<f32>,
    /// Per animation: every node's key times (seconds), of every channel (those that only
    /// restate the rest transform too): when an event object fires.
    key_times: Vec<HashMap<usize, Vec<f32>>>,
    wnodes: Vec<WNode>,
    /// (glTF node, bind frame bits) -> Warcraft node.
    wnode_of: HashMap<(usize, [u32; 16]), usize>,
    /// glTF node -> its first Warcraft node.
    primary: Vec<Option<usize>>,
    size: f32,
    rotation_error: f32,
    /// Global sequence durations a file this crate exported lists.
    global_sequences: Vec<u32>,
    /// Whether a material this crate exported is rebuilt from its `extras` (else from the
    /// glTF's own material, images and all).
    materials_from_extras: bool,
}

fn prop_code(p: Property) -> u8 {
    match p {
        Property::Translation => 0,
        Property::Rotation => 1,
        Property::Scale => 2,
        Property::MorphTargetWeights => 3,
    }
}
