//! The WoW alpha family of MDX (versions 1300, 1400 and 1500), read and written losslessly
//! as its own document type, [`AlphaModel`], with conversions to and from the Warcraft III
//! [`Model`](crate::Model) where the two share meaning ([`AlphaModel::to_model`],
//! [`AlphaModel::from_model`]), each reporting what it could not carry as [`Loss`](crate::Loss)es.
//!
//! The layouts follow the wowdev page on MDX for the alpha clients (seed 004). The only
//! real alpha file at hand is the boar of GrenderG/MDX-Parser (version 1300); where it and
//! the page disagree, the file wins, and the place says so:
//! - bounds are radius first, then the box (the page says box first): [`header`];
//! - packed quaternions hold z as a *signed* 21-bit number (the page's `Get` reads it
//!   unsigned, its `Set` writes it signed): [`tracks::PackedQuaternion`];
//! - the attachment's "padding" byte is 0xFF in the boar, not 0: [`node::Attachment`].
//!
//! Observations where the page is silent or vague: the MODL "blend time" reads 14593 (an
//! odd blend time; kept as is); the "unused" word after the count is 0 in MTLS and 34 in
//! ATCH; every BWGT entry's four bytes add up to 255, but the bones named in BIDX are not
//! the bones of the vertex's GNDX/MTGC/MATS matrix group (0 of 92 and 1 of 309 vertices
//! agree), so what BIDX indexes is open; the bones' flags are 0 (the page says the bone
//! bit is not set in files), while attachments (0x400), events (0x200) and the hit-test
//! shape (0x1000) carry their kind bits.
//!
//! Everything else the boar has matches the page: chunk framing, 373-byte MODL, 140-byte
//! count-prefixed sequences, layer and material sizes (no `LAYS` tag), the 1300 geoset
//! sub-chunk order, one-byte PTYP entries, UVAS as a set count without UVBS, node sizes,
//! the extra size around attachments, events and hit-test shapes, simple `KEVT` tracks, a
//! one-byte hit shape type, and CLID as `VRTX`, `TRI `, `NRMS`. The chunks the boar lacks
//! (GLBS, TXAN, GEOA, LITE, PREM, PRE2, RIBB, 1500 geosets) follow the page unchecked; the
//! PRE2 and RIBB `emitterSize` words are kept as read because the page does not say what
//! they measure.
//!
//! ## Shared with Warcraft III, and where the bytes differ
//! Where an alpha layout is a Warcraft III one, the Warcraft III declaration and its MDX
//! code are used as they are:
//! - textures (268 bytes) are [`crate::model::Texture`];
//! - MODL is [`crate::model::ModelInfo`] (name, animation file, bounds, blend time: 372
//!   bytes) followed by one flags byte ([`ModelInfo`]);
//! - bounds (`CMdlBounds`) are Warcraft III extents, radius first;
//! - the fixed fields of bones, lights and particle emitters are declared once for both
//!   families (`bone_fields!`, `light_fields!`, `particle_emitter_fields!` in `model/`),
//!   with the alpha generic object as head and the alpha tracks;
//! - the file walk uses Warcraft III's VERS peek and missing-header check, sub-chunks
//!   (`tag, count, elements`) Warcraft III's reader, and every record the same
//!   reader, writer and inclusive-size framing.
//!
//! The alpha family's own code is where the bytes differ:
//! - the generic object ([`GenObject`]) has the bytes of Warcraft III's node head
//!   (`size, name[80], object id, parent id, flags`), but its tracks are the alpha ones
//!   ([`tracks`]): `KGRT` keys hold 8-byte packed quaternions (Warcraft III: 16-byte
//!   floats), `KMTF`, `KRTX` and `KEVT` are simple tracks without interpolation, and
//!   the kind bits of the flags sit one place lower, so it is not [`crate::model::Node`];
//! - sequences are 140 bytes: after `name, interval, move speed, flags` come bounds,
//!   frequency, replay range and blend time (Warcraft III: rarity, sync point, bounds;
//!   132 bytes);
//! - materials (`count, unused u32`, no `LAYS` tag), layers, geoset animations (geoset id
//!   first), geosets (BIDX/BWGT; 1500 batches), cameras (`KVIS`), attachments (padding
//!   byte), event objects, hit-test shapes and CLID (a triangle mesh) have layouts of
//!   their own;
//! - the chunk loop frames chunks as Warcraft III does, but a chunk that runs past the
//!   end of the file is reported as it is, without Warcraft III's judgement of whether the
//!   file was cut off; the loop stays here so that the alpha reader's errors do not change.
//!
//! ## Lossless
//! [`from_bytes`] then [`to_bytes`] gives back the same bytes: chunks stay in file order
//! ([`AlphaModel::chunks`]), unknown chunks are kept raw in place, every record keeps the
//! bytes after its known fields, chunks keep bytes after their last record, bytes after
//! the last chunk are kept, and packed quaternions keep their bits. Counts and sizes are
//! computed when writing, never stored. Only the first VERS chunk sets the version; a
//! second one is kept as an unknown chunk.
//!
//! ```
//! let data = std::fs::read(concat!(
//!     env!("CARGO_MANIFEST_DIR"),
//!     "/../../../shared/corpus/mdx/GrenderG__MDX-Parser__MDXParser__Files__Boar.mdx"
//! ));
//! # let Ok(data) = data else { return };
//! let boar = mdlx::alpha::from_bytes(&data).unwrap();
//! assert_eq!(mdlx::alpha::to_bytes(&boar).unwrap(), data);
//! let (model, losses) = boar.to_model();
//! assert_eq!(model.bones.len(), 26);
//! assert!(!losses.is_empty());
//! ```

pub mod emitters;
pub mod geoset;
pub mod header;
pub mod material;
pub mod node;
pub mod tracks;

mod chunks;
#[cfg(test)]
mod tests;

pub use emitters::{Light, ParticleEmitter, ParticleEmitter2, RibbonEmitter};
pub use geoset::{BatchedGeoset, Geoset, Vertex};
pub use header::{Camera, Collision, ModelInfo, Sequence};
pub use material::{GeosetAnimation, Layer, Material, Texture, TextureAnimation};
pub use node::{Attachment, Bone, EventObject, GenObject, Helper, HitShape, HitTestShape};
pub use tracks::{AlphaAnimation, AlphaTrack, AlphaTracks, IntKey, PackedQuaternion, SimpleTrack};

use crate::mdx::MdxResult;
use crate::model::{Family, Tag, UnknownChunk};

/// The first version whose geosets are interleaved batches.
pub const BATCHED_GEOSETS: u32 = crate::spec::alpha::BATCHED_GEOSETS;

/// Decodes an alpha-family MDX file. A file whose chunks have the Warcraft III layouts is
/// refused (`MdxErrorKind::UnknownLayout` at offset 0), as `mdx::from_bytes` refuses alpha
/// files; a 1300-1500 file whose chunks contradict each other or fit neither family is
/// refused with `MdxErrorKind::FamilyUnclear`, naming the chunks (see
/// [`crate::mdx::classify_family`]).
pub fn from_bytes(data: &[u8]) -> MdxResult<AlphaModel> {
    chunks::read_model(data)
}

/// Encodes an alpha model. A model read by [`from_bytes`] writes back byte-identical.
pub fn to_bytes(model: &AlphaModel) -> MdxResult<Vec<u8>> {
    chunks::write_model(model)
}

/// True when `data` is an alpha-family MDX, told by the layouts of its chunks (see
/// [`crate::mdx::classify_family`]): versions 1300-1500 collide with Reforged ones. False
/// for files whose chunks contradict each other or fit neither family. Part of
/// [`crate::identify`], the one detection.
#[doc(hidden)]
pub fn is_alpha(data: &[u8]) -> bool {
    crate::mdx::classify_family(data) == Ok(Family::WowAlpha)
}

/// Records of one chunk, and the bytes after the last whole record.
#[derive(Clone, Debug, PartialEq)]
pub struct Records<T> {
    /// The records in file order.
    pub items: Vec<T>,
    /// Bytes after the last record inside the chunk, kept.
    pub tail: Vec<u8>,
}

impl<T> Default for Records<T> {
    fn default() -> Self {
        Records {
            items: Vec::new(),
            tail: Vec::new(),
        }
    }
}

impl<T> From<Vec<T>> for Records<T> {
    fn from(items: Vec<T>) -> Self {
        Records {
            items,
            tail: Vec::new(),
        }
    }
}

/// One chunk of an alpha file, in the page's terms.
#[derive(Clone, Debug, PartialEq)]
pub enum Chunk {
    /// VERS: the value is [`AlphaModel::version`]; bytes after it are kept.
    Version {
        /// Bytes after the version number.
        tail: Vec<u8>,
    },
    /// MODL.
    Model(ModelInfo),
    /// SEQS: count, 140-byte records.
    Sequences(Records<Sequence>),
    /// GLBS: u32 lengths until the chunk ends.
    GlobalSequences(Records<u32>),
    /// MTLS: count, an unused u32, materials.
    Materials {
        /// The u32 after the count ("ignored by the client").
        unused: u32,
        /// The materials.
        materials: Records<Material>,
    },
    /// TEXS: 268-byte records until the chunk ends.
    Textures(Records<Texture>),
    /// TXAN: count, texture animations.
    TextureAnimations(Records<TextureAnimation>),
    /// GEOS of 1300/1400: count, sized geosets.
    Geosets(Records<Geoset>),
    /// GEOS of 1500: count, headers, batches.
    BatchedGeosets(Records<BatchedGeoset>),
    /// GEOA: count, geoset animations.
    GeosetAnimations(Records<GeosetAnimation>),
    /// BONE: count, bones.
    Bones(Records<Bone>),
    /// LITE: count, lights.
    Lights(Records<Light>),
    /// HELP: count, helpers.
    Helpers(Records<Helper>),
    /// ATCH: count, an unused u32, attachments.
    Attachments {
        /// The u32 after the count ("ignored by the client"; 34 in the boar).
        unused: u32,
        /// The attachments.
        attachments: Records<Attachment>,
    },
    /// PIVT: points until the chunk ends, one per object id.
    Pivots(Records<[f32; 3]>),
    /// PREM: count, particle emitters.
    ParticleEmitters(Records<ParticleEmitter>),
    /// CAMS: count, cameras.
    Cameras(Records<Camera>),
    /// EVTS: count, event objects.
    Events(Records<EventObject>),
    /// PRE2: count, particle emitters 2.
    ParticleEmitters2(Records<ParticleEmitter2>),
    /// HTST: count, hit-test shapes.
    HitTestShapes(Records<HitTestShape>),
    /// RIBB: count, ribbon emitters.
    RibbonEmitters(Records<RibbonEmitter>),
    /// CLID: collision mesh.
    Collision(Collision),
    /// A chunk the page does not describe (or a second VERS), kept whole.
    Unknown(UnknownChunk),
}

impl Chunk {
    /// The chunk's tag.
    pub fn tag(&self) -> Tag {
        use crate::spec::chunk::*;
        match self {
            Chunk::Version { .. } => VERS,
            Chunk::Model(_) => MODL,
            Chunk::Sequences(_) => SEQS,
            Chunk::GlobalSequences(_) => GLBS,
            Chunk::Materials { .. } => MTLS,
            Chunk::Textures(_) => TEXS,
            Chunk::TextureAnimations(_) => TXAN,
            Chunk::Geosets(_) | Chunk::BatchedGeosets(_) => GEOS,
            Chunk::GeosetAnimations(_) => GEOA,
            Chunk::Bones(_) => BONE,
            Chunk::Lights(_) => LITE,
            Chunk::Helpers(_) => HELP,
            Chunk::Attachments { .. } => ATCH,
            Chunk::Pivots(_) => PIVT,
            Chunk::ParticleEmitters(_) => PREM,
            Chunk::Cameras(_) => CAMS,
            Chunk::Events(_) => EVTS,
            Chunk::ParticleEmitters2(_) => PRE2,
            Chunk::HitTestShapes(_) => HTST,
            Chunk::RibbonEmitters(_) => RIBB,
            Chunk::Collision(_) => CLID,
            Chunk::Unknown(u) => u.tag,
        }
    }
}

/// A WoW alpha-family model: everything the file says, chunk by chunk.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AlphaModel {
    /// Format version (1300, 1400 or 1500): the first VERS chunk's value.
    pub version: u32,
    /// The chunks in file order.
    pub chunks: Vec<Chunk>,
    /// Bytes after the last chunk (too few to be a chunk), kept.
    pub trailing: Vec<u8>,
}

/// Accessors that flatten every chunk of a kind, in file order.
macro_rules! accessors {
    ($($(#[$doc:meta])* $name:ident: $t:ty = $pat:pat => $items:expr;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(&self) -> impl Iterator<Item = &$t> + '_ {
                self.chunks.iter().flat_map(|c| match c {
                    $pat => $items.as_slice(),
                    _ => &[],
                })
            }
        )*
    };
}

impl AlphaModel {
    accessors! {
        /// Sequences of every SEQS chunk.
        sequences: Sequence = Chunk::Sequences(r) => r.items;
        /// Global sequence lengths.
        global_sequences: u32 = Chunk::GlobalSequences(r) => r.items;
        /// Materials.
        materials: Material = Chunk::Materials { materials: r, .. } => r.items;
        /// Textures.
        textures: Texture = Chunk::Textures(r) => r.items;
        /// Texture animations.
        texture_animations: TextureAnimation = Chunk::TextureAnimations(r) => r.items;
        /// Geosets of 1300/1400.
        geosets: Geoset = Chunk::Geosets(r) => r.items;
        /// Geosets of 1500.
        batched_geosets: BatchedGeoset = Chunk::BatchedGeosets(r) => r.items;
        /// Geoset animations.
        geoset_animations: GeosetAnimation = Chunk::GeosetAnimations(r) => r.items;
        /// Bones.
        bones: Bone = Chunk::Bones(r) => r.items;
        /// Lights.
        lights: Light = Chunk::Lights(r) => r.items;
        /// Helpers.
        helpers: Helper = Chunk::Helpers(r) => r.items;
        /// Attachments.
        attachments: Attachment = Chunk::Attachments { attachments: r, .. } => r.items;
        /// Pivot points.
        pivots: [f32; 3] = Chunk::Pivots(r) => r.items;
        /// Particle emitters (PREM).
        particle_emitters: ParticleEmitter = Chunk::ParticleEmitters(r) => r.items;
        /// Cameras.
        cameras: Camera = Chunk::Cameras(r) => r.items;
        /// Event objects.
        events: EventObject = Chunk::Events(r) => r.items;
        /// Particle emitters 2.
        particle_emitters2: ParticleEmitter2 = Chunk::ParticleEmitters2(r) => r.items;
        /// Hit-test shapes.
        hit_test_shapes: HitTestShape = Chunk::HitTestShapes(r) => r.items;
        /// Ribbon emitters.
        ribbon_emitters: RibbonEmitter = Chunk::RibbonEmitters(r) => r.items;
    }

    /// The first MODL chunk.
    pub fn info(&self) -> Option<&ModelInfo> {
        self.chunks.iter().find_map(|c| match c {
            Chunk::Model(m) => Some(m),
            _ => None,
        })
    }

    /// The CLID chunks.
    pub fn collisions(&self) -> impl Iterator<Item = &Collision> + '_ {
        self.chunks.iter().filter_map(|c| match c {
            Chunk::Collision(c) => Some(c),
            _ => None,
        })
    }

    /// Every generic object (bones, lights, helpers, attachments, emitters, ribbons,
    /// events, hit-test shapes), by kind in that order.
    pub fn objects(&self) -> impl Iterator<Item = &GenObject> + '_ {
        let b = self.bones().map(|x| &x.object);
        let l = self.lights().map(|x| &x.object);
        let h = self.helpers().map(|x| &x.object);
        let a = self.attachments().map(|x| &x.object);
        let p = self.particle_emitters().map(|x| &x.object);
        let p2 = self.particle_emitters2().map(|x| &x.object);
        let r = self.ribbon_emitters().map(|x| &x.object);
        let e = self.events().map(|x| &x.object);
        let s = self.hit_test_shapes().map(|x| &x.object);
        b.chain(l)
            .chain(h)
            .chain(a)
            .chain(p)
            .chain(p2)
            .chain(r)
            .chain(e)
            .chain(s)
    }

    /// How many records of each kind the model holds, by name.
    pub fn counts(&self) -> Vec<(&'static str, usize)> {
        vec![
            ("sequences", self.sequences().count()),
            ("global_sequences", self.global_sequences().count()),
            ("materials", self.materials().count()),
            ("layers", self.materials().map(|m| m.layers.len()).sum()),
            ("textures", self.textures().count()),
            ("texture_animations", self.texture_animations().count()),
            (
                "geosets",
                self.geosets().count() + self.batched_geosets().count(),
            ),
            ("geoset_animations", self.geoset_animations().count()),
            ("bones", self.bones().count()),
            ("lights", self.lights().count()),
            ("helpers", self.helpers().count()),
            ("attachments", self.attachments().count()),
            ("pivots", self.pivots().count()),
            ("particle_emitters", self.particle_emitters().count()),
            ("cameras", self.cameras().count()),
            ("events", self.events().count()),
            ("particle_emitters2", self.particle_emitters2().count()),
            ("hit_test_shapes", self.hit_test_shapes().count()),
            ("ribbon_emitters", self.ribbon_emitters().count()),
            ("collisions", self.collisions().count()),
        ]
    }
}
