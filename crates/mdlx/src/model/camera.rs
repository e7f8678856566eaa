//! Cameras (CAMS): see [`Camera`].

use crate::spec::keywords::{Field, Style};
use crate::spec::version as ver;

use super::declare::record;

/// The declaration of [`Camera`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! camera_decl {
    ($mac:ident) => {
        $mac! {
            /// A camera (used for portraits). In MDL the target sits in a `Target { }` block with
            /// its own `Position` and `Translation`.
            ///
            /// Cameras (CAMS): name, position, field of view, clip planes, target, then the tracks
            /// KCTR (position), KTTR (target), KCRL (roll) and, from 1200, IDUF (focus distance), ELAF
            /// (focal length), PTSF (f-stop), one f32 a key each.
            ///
            /// The record's inclusive size word keeps its size in the low 24 bits; the top byte is a
            /// layout number (the `wc3` crate's "camera variant"). Every published reader that knows
            /// it agrees that 0 and 3 carry no extra bytes, and that 3 is what 1200+ files hold
            /// (Retera's Model Studio, from the game's own files, sees only 3; the `wc3` crate writes 3
            /// from 1200 and 0 before). Only the `wc3` crate gives 1 and 2 a meaning: twelve more
            /// bytes after the near clip, before the target. We read them so (nothing disagrees, and
            /// the bytes are kept either way). Unknown numbers carry no extra bytes. The first version
            /// with the number 3 and the depth-of-field tracks: 1200 for `wc3`, 1300 for Retera (1600
            /// in its earlier commits). Taken: 1200, `wc3`'s, whose files are the only ones to check
            /// against; the number is read in every version, so a file of either reading loads.
            ///
            /// The number is kept as the field `layout`: `None` when it is the usual one of the
            /// version written (0 before 1200, 3 from 1200), so that converting between versions
            /// moves it with the version and MDL, which has no word for it, loses nothing.
            ///
            /// MDL keywords (the `wc3` crate's, which Retera's and other tools read): the tracks are
            /// `FocusDistanceKeys`, `FocalLengthKeys` and `FStopKeys`; the scalar spellings
            /// `DOFDistance`, `FocalLength` and `FStop` are read as a value held throughout.
            Camera = "Camera" in "Camera" {
                head name: $crate::model::FixedString;
                tracks(tracks, tail) [
                    $crate::spec::track::KCRL => "Rotation",
                    $crate::spec::track::IDUF => "FocusDistanceKeys",
                    $crate::spec::track::IDUF => "DOFDistance",
                    $crate::spec::track::ELAF => "FocalLengthKeys",
                    $crate::spec::track::ELAF => "FocalLength",
                    $crate::spec::track::PTSF => "FStopKeys",
                    $crate::spec::track::PTSF => "FStop",
                ];
                custom_mdx "the layout number lives in the top byte of the size word";
            }
            fields {
                /// The layout number in the top byte of the size word, when it is not the usual
                /// one of the version written ([`Camera::usual_layout`]).
                layout: Option<u8> => Field::new(&[], Style::Hidden),
                /// Eye position.
                position: [f32; 3]
                    => Field::new(&["Position"], Style::Plain).track($crate::spec::track::KCTR, &["Translation"]),
                /// Field of view in radians.
                field_of_view: f32 => Field::new(&["FieldOfView"], Style::Plain),
                /// Far clip distance.
                far_clip: f32 => Field::new(&["FarClip"], Style::Plain),
                /// Near clip distance.
                near_clip: f32 => Field::new(&["NearClip"], Style::Plain),
                /// The twelve bytes layouts 1 and 2 hold after the near clip (empty otherwise).
                layout_bytes: Vec<u8> => Field::new(&[], Style::Hidden),
                /// Target position.
                target_position: [f32; 3] => Field::new(&["Position"], Style::Plain)
                    .track($crate::spec::track::KTTR, &["Translation"])
                    .group("Target"),
            }
        }
    };
}
pub(crate) use camera_decl;

camera_decl!(record);

impl Camera {
    /// The layout number a camera of `version` usually has: 3 from 1200, 0 before.
    pub fn usual_layout(version: u32) -> u8 {
        if version >= ver::CAMERA_LAYOUT {
            3
        } else {
            0
        }
    }

    /// The layout number written for `version`.
    pub fn layout_for(&self, version: u32) -> u8 {
        self.layout.unwrap_or(Self::usual_layout(version))
    }
}
