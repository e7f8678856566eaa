//! The node part shared by bones, helpers, lights, attachments, emitters, event objects
//! and collision shapes: name, ids, flags and the transform tracks (KGTR, KGRT, KGSC),
//! framed by its own inclusive size. Also bones and helpers, which are nodes plus little.

use super::declare::record;
use super::{FixedString, Tracks};

/// Node flag bits (the low byte; the kind bits follow).
pub mod flags {
    /// Does not inherit its parent's translation.
    pub const DONT_INHERIT_TRANSLATION: u32 = 0x1;
    /// Does not inherit its parent's rotation (MDL `DontInherit { Rotation }`; see
    /// `mdl/records/node.rs` for the evidence and the tools that disagree).
    pub const DONT_INHERIT_ROTATION: u32 = 0x2;
    /// Does not inherit its parent's scaling (MDL `DontInherit { Scaling }`).
    pub const DONT_INHERIT_SCALING: u32 = 0x4;
    /// Always faces the camera.
    pub const BILLBOARDED: u32 = 0x8;
    /// Billboarded, locked about X.
    pub const BILLBOARD_LOCK_X: u32 = 0x10;
    /// Billboarded, locked about Y.
    pub const BILLBOARD_LOCK_Y: u32 = 0x20;
    /// Billboarded, locked about Z.
    pub const BILLBOARD_LOCK_Z: u32 = 0x40;
    /// Anchored to the camera.
    pub const CAMERA_ANCHORED: u32 = 0x80;
    /// Any of the three don't-inherit flags.
    pub const DONT_INHERIT: u32 =
        DONT_INHERIT_TRANSLATION | DONT_INHERIT_ROTATION | DONT_INHERIT_SCALING;
    /// Any of the billboard flags (full, or locked about one axis).
    pub const BILLBOARD: u32 = BILLBOARDED | BILLBOARD_LOCK_X | BILLBOARD_LOCK_Y | BILLBOARD_LOCK_Z;
}

/// The common part of every scene object.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Node {
    /// Name (80-byte field).
    pub name: FixedString,
    /// Object id: the node's index in the model-wide node numbering.
    pub object_id: u32,
    /// Parent's object id, or -1.
    pub parent_id: i32,
    /// Inheritance, billboard and kind flags (see [`flags`]); unknown bits kept.
    pub flags: u32,
    /// Translation (KGTR), rotation (KGRT), scaling (KGSC) tracks, in file order.
    pub tracks: Tracks,
    /// Bytes inside the node's size that follow its tracks and were not understood.
    pub tail: Vec<u8>,
}

/// The fields of a bone that Warcraft III and the WoW alpha family share (see
/// [`light_fields`](super::light_fields)).
macro_rules! bone_fields {
    ($mac:ident! { $($head:tt)* } { $($extra:tt)* }) => {
        $mac! {
            $($head)*
            fields {
                /// Geoset id, or -1 (informational; the game does not need it).
                geoset_id: i32 = -1 => $crate::spec::keywords::Field::new(
                    &["GeosetId"],
                    $crate::spec::keywords::Style::IdOr("Multiple"),
                ),
                /// Geoset animation id, or -1.
                geoset_animation_id: i32 = -1 => $crate::spec::keywords::Field::new(
                    &["GeosetAnimId"],
                    $crate::spec::keywords::Style::IdOr("None"),
                ),
                $($extra)*
            }
        }
    };
}
pub(crate) use bone_fields;

/// The declaration of [`Bone`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! bone_decl {
    ($mac:ident) => {
        $crate::model::bone_fields! {
            $mac! {
                /// A bone: a node that vertices follow.
                Bone = "Bone" in "Bone" {
                    head node: $crate::model::Node = $crate::spec::kind::BONE;
                }
            } {}
        }
    };
}
pub(crate) use bone_decl;

bone_decl!(record);

/// The declaration of [`Helper`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! helper_decl {
    ($mac:ident) => {
        $mac! {
            /// A helper: a node with nothing else, used to group and move other nodes.
            Helper = "Helper" in "Helper" {
                head node: $crate::model::Node = $crate::spec::kind::HELPER;
            }
            fields {}
        }
    };
}
pub(crate) use helper_decl;

helper_decl!(record);
