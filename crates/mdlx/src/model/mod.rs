//! The format-neutral model: everything an MDX or MDL file holds, as owned typed records.
//!
//! Counts and sizes are never stored: writers compute them. What a byte-exact rewrite needs
//! beyond the meaning (chunk order, unknown chunks, bytes past the known fields) is kept
//! in [`Layout`], in [`UnknownChunk`]s and in the `tail` fields of records.

mod animated;
pub(crate) use animated::{geoset_animation_decl, texture_animation_decl};
mod attachment;
pub(crate) use attachment::{attachment_decl, event_object_decl};
mod camera;
pub(crate) use camera::camera_decl;
pub(crate) mod declare;
#[macro_use]
mod kinds;
pub(crate) use kinds::{
    for_each_decl, for_each_kind, FIELDS as KIND_FIELDS, KINDS, MDL_ORDER, TAGS as KIND_TAGS,
};
mod emitters;
pub(crate) use emitters::{
    particle_emitter2_decl, particle_emitter_decl, popcorn_emitter_decl, ribbon_emitter_decl,
};
mod geoset;
mod light;
pub(crate) use light::light_decl;
mod material;
mod node;
pub(crate) use node::{bone_decl, helper_decl};
mod primitives;
mod sequence;
pub(crate) use sequence::{face_effect_decl, glider_decl, sequence_decl, texture_decl};
mod summary;
mod tracks;
pub(crate) mod usage;
mod version;
pub(crate) mod visit;

pub use animated::{geoset_animation_flags, GeosetAnimation, TextureAnimation};
pub use attachment::{Attachment, CollisionShape, EventObject, EventTrack, Shape};
pub use camera::Camera;
pub(crate) use emitters::particle_emitter_fields;
pub use emitters::{ParticleEmitter, ParticleEmitter2, PopcornEmitter, RibbonEmitter};
pub use geoset::{face_type, Geoset};
pub(crate) use light::light_fields;
pub use light::{light_type, Light};
pub use material::{
    filter_mode, layer_flags, material_flags, shader_type, Layer, Material, TextureSlot,
};
pub(crate) use node::bone_fields;
pub use node::{flags as node_flags, Bone, Helper, Node};
pub use primitives::{Extent, FixedString, Tag};
pub use sequence::{
    texture_flags, FaceEffect, Glider, ModelInfo, Sequence, Texture, SEQUENCE_NON_LOOPING,
};
pub use summary::Counts;
pub use tracks::{Animation, AnyTrack, Interpolation, Key, Track, Tracks};
pub use version::is_known as is_known_version;

/// Which family of the format a version number belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Classic Warcraft III (800 and anything below 900).
    Classic,
    /// Warcraft III: Reforged (900 and later).
    Reforged,
    /// The WoW alpha clients (1300-1500 with the alpha chunk layouts).
    WowAlpha,
}

impl Family {
    /// The family of a Warcraft III version number (alpha files are told apart by shape,
    /// see [`crate::mdx::detect_family`]).
    pub fn of_version(version: u32) -> Family {
        if version >= crate::spec::version::REFORGED {
            Family::Reforged
        } else {
            Family::Classic
        }
    }

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Family::Classic => "classic",
            Family::Reforged => "reforged",
            Family::WowAlpha => "wow-alpha",
        }
    }
}

/// A chunk this crate does not understand, kept whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownChunk {
    /// Its tag.
    pub tag: Tag,
    /// Its payload.
    pub data: Vec<u8>,
}

/// One chunk as it appeared in the source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutEntry {
    /// A known chunk holding the next `records` records of its kind.
    Known {
        /// The chunk tag.
        tag: Tag,
        /// How many records of this kind (items for GLBS/PIVT/BPOS) the chunk held.
        records: usize,
        /// Bytes after the last whole record inside the chunk, kept.
        tail: Vec<u8>,
        /// How many tracks of the chunk's last record were stored after the chunk's
        /// declared end (the "LITE sized too small" files).
        overflow_tracks: usize,
    },
    /// The next entry of [`Model::unknown_chunks`].
    Unknown,
}

/// How the source file arranged its chunks. Empty for a model built in code or read from
/// MDL: the writer then uses the conventional order. A layout that does not match the
/// model's contents (records added or removed since reading) is ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// True when this layout was read from a file (even one with no chunks) and should be
    /// followed when writing.
    pub from_file: bool,
    /// Chunks in file order.
    pub chunks: Vec<LayoutEntry>,
    /// Bytes after the last chunk (too few to be a chunk), kept.
    pub trailing: Vec<u8>,
}

/// A Warcraft III model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Model {
    /// Format version (800 classic; 900, 1000, 1100, 1200... Reforged).
    pub version: u32,
    /// Name, animation file, extent, blend time.
    pub info: ModelInfo,
    /// Animation sequences.
    pub sequences: Vec<Sequence>,
    /// Global sequence durations in milliseconds.
    pub global_sequences: Vec<u32>,
    /// Textures.
    pub textures: Vec<Texture>,
    /// Materials.
    pub materials: Vec<Material>,
    /// Texture animations.
    pub texture_animations: Vec<TextureAnimation>,
    /// Geosets.
    pub geosets: Vec<Geoset>,
    /// Geoset animations.
    pub geoset_animations: Vec<GeosetAnimation>,
    /// Bones.
    pub bones: Vec<Bone>,
    /// Lights.
    pub lights: Vec<Light>,
    /// Helpers.
    pub helpers: Vec<Helper>,
    /// Attachments.
    pub attachments: Vec<Attachment>,
    /// Pivot points, one per node in object-id order.
    pub pivot_points: Vec<[f32; 3]>,
    /// Particle emitters (PREM).
    pub particle_emitters: Vec<ParticleEmitter>,
    /// Particle emitters 2 (PRE2).
    pub particle_emitters2: Vec<ParticleEmitter2>,
    /// Popcorn emitters (CORN, Reforged).
    pub popcorn_emitters: Vec<PopcornEmitter>,
    /// Ribbon emitters.
    pub ribbon_emitters: Vec<RibbonEmitter>,
    /// Cameras.
    pub cameras: Vec<Camera>,
    /// Event objects.
    pub event_objects: Vec<EventObject>,
    /// Collision shapes.
    pub collision_shapes: Vec<CollisionShape>,
    /// Face effects (FAFX, Reforged).
    pub face_effects: Vec<FaceEffect>,
    /// Bind poses (BPOS, Reforged): a 4x3 matrix (12 floats) per node.
    pub bind_poses: Vec<[f32; 12]>,
    /// Gliders (DILG, Reforged): geosets the world picking ray may hit.
    pub gliders: Vec<Glider>,
    /// Chunks not understood, in file order (their places are in `layout`).
    pub unknown_chunks: Vec<UnknownChunk>,
    /// The source file's arrangement, for byte-exact rewriting.
    pub layout: Layout,
}

impl Model {
    /// The family this model's version belongs to.
    pub fn family(&self) -> Family {
        Family::of_version(self.version)
    }

    /// Total number of nodes (bones, lights, helpers, attachments, emitters, event objects,
    /// collision shapes).
    pub fn node_count(&self) -> usize {
        self.bones.len()
            + self.lights.len()
            + self.helpers.len()
            + self.attachments.len()
            + self.particle_emitters.len()
            + self.particle_emitters2.len()
            + self.popcorn_emitters.len()
            + self.ribbon_emitters.len()
            + self.event_objects.len()
            + self.collision_shapes.len()
    }
}
