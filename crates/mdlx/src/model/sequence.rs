//! Model info (MODL), sequences (SEQS) and textures (TEXS): fixed-size records.

use crate::spec::keywords::{Field, Style, EXTENT_WORDS};
use crate::spec::len;

use super::declare::record;
use super::{Extent, FixedString};

/// The MODL chunk: name, animation file, extent, blend time (372 bytes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelInfo {
    /// Model name (80 bytes).
    pub name: FixedString,
    /// Animation file path (260 bytes), usually empty.
    pub animation_file: FixedString,
    /// Bounds of the whole model.
    pub extent: Extent,
    /// Blend time in milliseconds.
    pub blend_time: u32,
    /// Bytes after the 372 known ones, kept.
    pub tail: Vec<u8>,
}

/// Sequence flag: the animation plays once instead of looping.
pub const SEQUENCE_NON_LOOPING: u32 = 1;

/// The declaration of [`Sequence`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! sequence_decl {
    ($mac:ident) => {
        $mac! {
            /// An animation sequence (132 bytes).
            Sequence = "Sequence" in "Anim" {
                head name: $crate::model::FixedString;
                mdl [interval, flags, move_speed, rarity, sync_point, extent];
            }
            fields {
                /// Start and end time in milliseconds.
                interval: [u32; 2] => Field::new(&["Interval"], Style::Plain),
                /// Movement speed the animation was made for.
                move_speed: f32 => Field::new(&["MoveSpeed"], Style::NonZero),
                /// Flags; 1 = non-looping. Unknown bits kept.
                flags: u32 => Field::new(&[], Style::Bits(&[("NonLooping", SEQUENCE_NON_LOOPING)])),
                /// How rarely the game picks this variant.
                rarity: f32 => Field::new(&["Rarity"], Style::NonZero),
                /// Sync point.
                sync_point: u32 => Field::new(&["SyncPoint"], Style::NonZero),
                /// Bounds during this sequence.
                extent: Extent => Field::new(EXTENT_WORDS, Style::Plain),
            }
        }
    };
}
pub(crate) use sequence_decl;

sequence_decl!(record);

impl Sequence {
    /// Whether the animation loops: [`SEQUENCE_NON_LOOPING`] is not set.
    ///
    /// ```
    /// let mut s = mdlx::model::Sequence::default();
    /// assert!(s.is_looping());
    /// s.flags |= mdlx::model::SEQUENCE_NON_LOOPING;
    /// assert!(!s.is_looping());
    /// ```
    pub fn is_looping(&self) -> bool {
        self.flags & SEQUENCE_NON_LOOPING == 0
    }

    /// Its length in milliseconds (0 when the interval runs backwards).
    pub fn length(&self) -> u32 {
        self.interval[1].saturating_sub(self.interval[0])
    }
}

/// Texture flag bits.
pub mod texture_flags {
    /// Wrap horizontally.
    pub const WRAP_WIDTH: u32 = 1;
    /// Wrap vertically.
    pub const WRAP_HEIGHT: u32 = 2;
}

/// MDL words of the texture flags.
const TEXTURE_FLAGS: &[(&str, u32)] = &[
    ("WrapWidth", texture_flags::WRAP_WIDTH),
    ("WrapHeight", texture_flags::WRAP_HEIGHT),
];

/// The declaration of [`Texture`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! texture_decl {
    ($mac:ident) => {
        $mac! {
            /// A texture reference (268 bytes).
            Texture = "Texture" in "Bitmap" {
                mdl [path, replaceable_id, flags];
            }
            fields {
                /// Replaceable id (1 team color, 2 team glow, 11+ trees...), 0 for a file.
                replaceable_id: u32 => Field::new(&["ReplaceableId"], Style::NonZero),
                /// Path in the game's archives (260 bytes).
                path: FixedString[len::PATH] => Field::new(&["Image"], Style::Plain),
                /// Wrap flags; unknown bits kept.
                flags: u32 => Field::new(&[], Style::Bits(TEXTURE_FLAGS)),
            }
        }
    };
}
pub(crate) use texture_decl;

texture_decl!(record);

/// The declaration of [`Glider`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! glider_decl {
    ($mac:ident) => {
        $mac! {
            /// A glider (DILG): a geoset that the game's world picking ray may hit (a whitelist,
            /// apart from collision shapes). Retera's Model Studio finds the chunk after BPOS in
            /// the game's newest files (nine stair and bridge doodads); the `wc3` crate reads it
            /// in every version; both read a u32 geoset id per entry and write MDL
            /// `Glider { GeosetId n, }`, a block per entry.
            Glider = "Glider" in "Glider" {}
            fields {
                /// The geoset's index.
                geoset_id: u32 => Field::new(&["GeosetId"], Style::Plain),
            }
        }
    };
}
pub(crate) use glider_decl;

glider_decl!(record);

/// The declaration of [`FaceEffect`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! face_effect_decl {
    ($mac:ident) => {
        $mac! {
            /// A Reforged face effect (FAFX): a name and a FaceFX file path (340 bytes).
            FaceEffect = "FaceEffect" in "FaceFX" {
                head name: $crate::model::FixedString;
            }
            fields {
                /// Path (260 bytes).
                path: FixedString[len::PATH] => Field::new(&["Path"], Style::Plain),
            }
        }
    };
}
pub(crate) use face_effect_decl;

face_effect_decl!(record);
