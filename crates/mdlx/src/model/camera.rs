//! Cameras (CAMS): name, position, field of view, clip planes, target, then KCTR KTTR KCRL.

use crate::format::track as tk;
use crate::mdl::records::fields::{Field, Style};

use super::declare::record;
use super::FixedString;

record! {
    /// A camera (used for portraits). In MDL the target sits in a `Target { }` block with
    /// its own `Position` and `Translation`.
    Camera = "Camera" in "Camera" {
        head name: FixedString;
        size 4;
        tracks(tracks, tail) [tk::KCRL => "Rotation"];
    }
    fields {
        /// Eye position.
        position: [f32; 3]
            => Field::new(&["Position"], Style::Plain).track(tk::KCTR, &["Translation"]),
        /// Field of view in radians.
        field_of_view: f32 => Field::new(&["FieldOfView"], Style::Plain),
        /// Far clip distance.
        far_clip: f32 => Field::new(&["FarClip"], Style::Plain),
        /// Near clip distance.
        near_clip: f32 => Field::new(&["NearClip"], Style::Plain),
        /// Target position.
        target_position: [f32; 3] => Field::new(&["Position"], Style::Plain)
            .track(tk::KTTR, &["Translation"])
            .group("Target"),
    }
}
