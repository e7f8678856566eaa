//! glTF 2.0 export: a model as one self-contained `.glb` (or `.gltf`), with its skeleton,
//! skinning, every sequence as an animation, geoset visibility, materials and textures.
//!
//! ```
//! let bytes = include_bytes!("../../../../../examples/cube.mdx");
//! let model = mdlx::mdx::from_bytes(bytes).unwrap();
//! let out = mdlx::convert::gltf::export(&model, &mdlx::convert::gltf::ExportOptions::default());
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
//!   has none there (held, as the game holds it). Step and linear stay STEP and LINEAR.
//!   By default ([`ExportOptions::linear`]) Hermite and Bezier translations and scalings are
//!   sampled into LINEAR keys within 1e-5 of the model's size, what every viewer and editor
//!   plays alike; with it off they become CUBICSPLINE exactly (the game's
//!   tangents divided by the key spacing; Bezier control points turned into Hermite
//!   derivatives). Hermite and Bezier rotations (the game's squad spline is not glTF's)
//!   are sampled into LINEAR keys, as densely as needed to stay within
//!   `ROTATION_TOLERANCE` (1e-4 rad) of the spline, halving where it strays;
//!   where the game's spline itself jumps (its inner slerps switch hemispheres), the jump
//!   is kept as a straight line 2^-16 of the key interval long, and counted. The end of an
//!   animation is the sequence's last frame, not the first frame of its next loop.
//! - **Global sequences** run on their own clocks in the game. Each animation bakes them
//!   from its start, as if the global clock started with it: their cycles are laid end to
//!   end over the sequence's length (exactly, the keys repeated).
//! - **Key times.** Every key the export adds (sequence ends, sampled splines, baked
//!   nodes) lies on a whole millisecond, as the game's own keys do, so an editor that keys
//!   on its frames (Blender at 1000 frames a second, or its 24 with the times kept) loses
//!   none.
//! - **The way back.** The model's own MDX rides in the root node's `extras`
//!   ([`ExportOptions::source`]), and every node, camera, mesh and material carries its
//!   identity in its `extras`: an editor that keeps `extras` (Blender does, as custom
//!   properties) writes them out again, and [`import()`] gives back what was not edited
//!   exactly and takes what was from the glTF ([`mod@import`], "round trip").
//! - **Visibility.** A geoset is its own mesh node at the scene root; when geoset-animation
//!   alpha or layer alpha hides it, that node's scale steps to 0. glTF says a skinned
//!   mesh's node transform is ignored, but three.js collapses the mesh when that node is
//!   scaled to 0 and Blender scales the mesh object. Alpha between 0 and 1 is not animated
//!   (a loss); static alpha goes into the material.
//! - **Materials** (see [below](#materials-and-textures)): the first layer that is not team colour or glow
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
//!
//! # Materials and textures
//! - **Base colour.** The first layer that is not team colour (replaceable id 1) or team
//!   glow (2) gives the base colour texture. A team-colour layer under it is baked into
//!   the image: the texture is laid over the chosen team colour by its alpha, and the
//!   result is opaque, as the game draws it. A material of team colour alone is that
//!   colour. Further layers are listed as a loss.
//! - **Alpha.** The base layer's filter mode: none -> OPAQUE, transparent -> MASK (cutoff
//!   0.75, the game's alpha test), blend -> BLEND; additive, add-alpha and the two modulate
//!   modes have no glTF form and become BLEND, listed. A team-colour-baked base is OPAQUE.
//!   Static layer and geoset-animation alpha multiply the base colour factor's alpha;
//!   a static geoset colour (when its flag says it is used) its colour.
//! - **Shading.** Two-sided -> `doubleSided`; unshaded or unlit -> `KHR_materials_unlit`.
//!   Classic materials are not metals and fully rough (the game has no specular).
//! - **Reforged HD** (`Shader_HD_DefaultUnit`, or shader type 1 with texture slots):
//!   diffuse -> base colour, normal -> normal texture, ORM -> occlusion (red) and
//!   metallic-roughness (green, blue), emissive -> emissive texture; the team-colour mask
//!   and environment slots are not carried.
//! - **Textures** are looked up by [`TextureFinder`](crate::texture::TextureFinder),
//!   decoded by [`crate::texture`] and embedded as PNG (level 0). One that is missing or does not decode is listed; its
//!   material keeps the path in `extras`.

pub(crate) mod curves;
mod export;
pub mod import;

/// The document layer under the mapping: what the import reads a glTF from.
pub(crate) use crate::gltf::source;

use crate::anim::math::Vec3;
use crate::Loss;
use std::collections::BTreeMap;

pub use crate::gltf::{GltfError, Source};
pub use export::{export, glb, Export, ExportOptions, LINEAR_MAX_ANGLE, LINEAR_TOLERANCE};
pub use import::{import, Import, ImportOptions};

/// Warcraft III's +Z up to glTF's +Y up.
pub fn to_y_up(v: Vec3) -> Vec3 {
    [v[0], v[2], -v[1]]
}

/// glTF's +Y up back to Warcraft III's +Z up.
pub fn from_y_up(v: Vec3) -> Vec3 {
    [v[0], -v[2], v[1]]
}

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
