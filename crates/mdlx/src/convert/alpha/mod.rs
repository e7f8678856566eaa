//! The WoW alpha family (versions 1300-1500, [`AlphaModel`]) and the Warcraft III
//! [`Model`](crate::Model), both ways, where the two share meaning:
//! [`AlphaModel::to_model`] gives a version-800 model, [`AlphaModel::from_model`] an alpha
//! model of a chosen version. Each direction reports what it could not carry as
//! [`Loss`]es naming the record.
//!
//! What both directions agree on is written once here: which tracks of a record kind
//! correspond, which layer flag bits mean the same, and how node flags move between the
//! families. The directions themselves are `to_model` and
//! `from_model`, each split into the header and materials, geometry and nodes.
//!
//! ## Alpha to Warcraft III
//! Kept: model name, bounds and blend time; sequences (name, interval, move speed, the
//! non-looping flag, bounds); global sequences; textures; materials and layers (blend mode,
//! the shading flags both know, texture, texture animation, UV set, alpha, `KMTA`/`KMTF`);
//! texture animations; geosets (1300/1400 field by field, 1500 batches as one matrix group
//! per distinct set of weighted bones); geoset animations; every node with its object id,
//! parent, inheritance/billboard flags and `KGTR KGRT KGSC` tracks (packed rotations
//! unpacked); pivots; lights, attachments, both particle emitters, ribbons, cameras and
//! event objects with the fields and tracks Warcraft III has (`KVIS` becomes the record's
//! own visibility track: `KLAV`, `KATV`, `KPEV`, `KP2V`, `KRVS`); hit-test boxes and
//! spheres as collision shapes (same object ids, so pivots still line up).
//!
//! Everything else is reported: alpha-only fields that are not at their neutral value,
//! tracks Warcraft III has no place for, collision meshes, unknown chunks and kept tails.
//!
//! ## Warcraft III to alpha
//! Chunks come out in the page's MDLBASE order, empty lists left out. Rotations are packed
//! (see [`PackedQuaternion::pack`](crate::alpha::PackedQuaternion::pack)); a rotation that
//! went through `to_model` packs back to its original bits. Visibility tracks become
//! `KVIS`. Collision boxes and spheres become hit-test shapes, and so do Z-axis cylinders
//! and centred planes (the forms `to_model` makes); other collision shapes, and Reforged
//! popcorn emitters, become helpers, keeping their object ids (so the pivots still line
//! up). Geosets are written in the layout of the version: 1300/1400 keep the matrix groups
//! and leave BIDX/BWGT empty (how the boar's BIDX/BWGT relate to its groups is not
//! understood); 1500 turns each vertex's matrix group into up to four bone indices with
//! equal weights.

/// A record of one side built from the other's: the fields named in brackets carry over by
/// name (the two families declare them alike), the rest are given.
macro_rules! carry {
    ($ty:ident { $($f:ident: $e:expr),* $(,)? } from $src:ident [$($same:ident),* $(,)?] $(.. $rest:expr)?) => {
        $ty { $($f: $e,)* $($same: $src.$same.clone(),)* $(..$rest)? }
    };
}

mod from_model;
mod to_model;

use crate::alpha::tracks::tag::KVIS;
use crate::model::{FixedString, Tag};
use crate::spec::track as t;
use crate::Loss;

#[cfg(doc)]
use crate::alpha::AlphaModel;

/// Collects losses while converting, in either direction.
#[derive(Default)]
struct Cx {
    losses: Vec<Loss>,
}

impl Cx {
    fn lose(&mut self, record: &str, what: impl Into<String>) {
        self.losses.push(Loss {
            place: record.to_string(),
            what: what.into(),
        });
    }

    /// Reports kept bytes that have no place in the other family's record.
    fn tail(&mut self, record: &str, bytes: &[u8]) {
        if !bytes.is_empty() {
            self.lose(
                record,
                format!("{} unparsed bytes after the known fields", bytes.len()),
            );
        }
    }
}

/// How a record is named in losses: kind, index and name (`Bone[3] "Root"`).
fn record_name(kind: &str, i: usize, name: &FixedString) -> String {
    format!("{kind}[{i}] {:?}", name.text())
}

/// The tracks of one record kind that both families have: the tags they spell the same,
/// and the Warcraft III tag that the alpha family's `KVIS` visibility track stands for
/// (each Warcraft III kind has its own). Any other track is a loss, in either direction.
#[derive(Clone, Copy)]
struct TrackMap {
    same: &'static [Tag],
    visibility: Option<Tag>,
}

impl TrackMap {
    /// The Warcraft III tag of alpha track `tag`.
    fn to_warcraft(self, tag: Tag) -> Option<Tag> {
        if self.same.contains(&tag) {
            Some(tag)
        } else {
            self.visibility.filter(|_| tag == KVIS)
        }
    }

    /// The alpha tag of Warcraft III track `tag`.
    fn to_alpha(self, tag: Tag) -> Option<Tag> {
        if self.same.contains(&tag) {
            Some(tag)
        } else {
            (self.visibility == Some(tag)).then_some(KVIS)
        }
    }
}

/// The shared tracks, by record kind.
mod map {
    use super::{t, TrackMap};

    pub(super) const NODE: TrackMap = TrackMap {
        same: &[t::KGTR, t::KGRT, t::KGSC],
        visibility: None,
    };
    pub(super) const LAYER: TrackMap = TrackMap {
        same: &[t::KMTA, t::KMTF],
        visibility: None,
    };
    pub(super) const TEXTURE_ANIMATION: TrackMap = TrackMap {
        same: &[t::KTAT, t::KTAR, t::KTAS],
        visibility: None,
    };
    pub(super) const GEOSET_ANIMATION: TrackMap = TrackMap {
        same: &[t::KGAO, t::KGAC],
        visibility: None,
    };
    pub(super) const LIGHT: TrackMap = TrackMap {
        same: &[t::KLAS, t::KLAE, t::KLAC, t::KLAI, t::KLBC, t::KLBI],
        visibility: Some(t::KLAV),
    };
    pub(super) const ATTACHMENT: TrackMap = TrackMap {
        same: &[],
        visibility: Some(t::KATV),
    };
    pub(super) const PARTICLE_EMITTER: TrackMap = TrackMap {
        same: &[t::KPEE, t::KPEG, t::KPLN, t::KPLT, t::KPEL, t::KPES],
        visibility: Some(t::KPEV),
    };
    /// `KPLN` (longitude), `KLIF` (life) and `KP2Z` (z source) of the alpha PRE2 have no
    /// Warcraft III track.
    pub(super) const PARTICLE_EMITTER2: TrackMap = TrackMap {
        same: &[
            t::KP2S,
            t::KP2R,
            t::KP2L,
            t::KP2G,
            t::KP2E,
            t::KP2W,
            t::KP2N,
        ],
        visibility: Some(t::KP2V),
    };
    pub(super) const RIBBON: TrackMap = TrackMap {
        same: &[t::KRHA, t::KRHB, t::KRAL, t::KRCO, t::KRTX],
        visibility: Some(t::KRVS),
    };
    /// Warcraft III cameras have no visibility track.
    pub(super) const CAMERA: TrackMap = TrackMap {
        same: &[t::KCTR, t::KTTR, t::KCRL],
        visibility: None,
    };
}

/// Layer flag bits both families give the same meaning.
const SHARED_LAYER_FLAGS: u32 = 0x1 | 0x2 | 0x10 | 0x20 | 0x40 | 0x80;

/// Node flag bits that mean the same in both families: inheritance and billboarding.
const SHARED_NODE_FLAGS: u32 = 0x7f;
/// The alpha record-kind bits (bone 0x80 ... ribbon 0x2000): recomputed, never reported.
const ALPHA_KIND_BITS: u32 = 0x80 | 0x100 | 0x200 | 0x400 | 0x800 | 0x1000 | 0x2000;
/// The Warcraft III record-kind bits (bone 0x100 ... ribbon 0x4000).
const WARCRAFT_KIND_BITS: u32 = 0x7f00;

/// Which particle flag bits a node carries, as `(alpha bit, Warcraft III bit)` pairs.
#[derive(Clone, Copy, PartialEq)]
enum Particles {
    /// Not an emitter.
    None,
    /// PREM: alpha 0x8000 "uses TGA" is Warcraft III's 0x10000 and alpha 0x10000 "uses
    /// MDL" its 0x8000.
    Prem,
    /// PRE2: 0x8000-0x80000 are the same bits; XY quads moves from 0x8000000 to 0x100000.
    Pre2,
}

impl Particles {
    fn bits(self) -> &'static [(u32, u32)] {
        use crate::alpha::node::flags as af;
        match self {
            Particles::None => &[],
            Particles::Prem => &[
                (af::EMITTER_USES_TGA_OR_UNSHADED, 0x1_0000),
                (af::EMITTER_USES_MDL_OR_SORT_FAR_Z, 0x8000),
            ],
            Particles::Pre2 => &[
                (0x8000, 0x8000),
                (0x1_0000, 0x1_0000),
                (0x2_0000, 0x2_0000),
                (0x4_0000, 0x4_0000),
                (0x8_0000, 0x8_0000),
                (af::PARTICLE_XYQUADS, 0x10_0000),
            ],
        }
    }
}

/// Node flags from one family to the other: the shared bits as they are, the record-kind
/// bit `kind` of the target family, the particle bits moved; any other bit is reported
/// lost.
fn node_flags(
    cx: &mut Cx,
    rec: &str,
    flags: u32,
    kind: u32,
    particles: Particles,
    to_warcraft: bool,
) -> u32 {
    let source_kinds = if to_warcraft {
        ALPHA_KIND_BITS
    } else {
        WARCRAFT_KIND_BITS
    };
    let mut out = (flags & SHARED_NODE_FLAGS) | kind;
    let mut rest = flags & !(SHARED_NODE_FLAGS | source_kinds);
    for &(alpha, warcraft) in particles.bits() {
        let (from, to) = if to_warcraft {
            (alpha, warcraft)
        } else {
            (warcraft, alpha)
        };
        if rest & from != 0 {
            rest &= !from;
            out |= to;
        }
    }
    if rest != 0 {
        cx.lose(rec, format!("node flag bits {rest:#x}"));
    }
    out
}
