//! Lights (LITE): a node plus type, attenuation, color, intensity, ambient color and
//! intensity (and shadow intensity from 1200), then KLAS KLAE KLAC KLAI KLBI KLBC KLAV tracks.

use crate::format::track as tk;
use crate::format::version as ver;
use crate::mdl::records::fields::{Field, Style};
use crate::mdl::records::node::kind;

use super::declare::record;
use super::Node;

/// Light types.
pub mod light_type {
    /// Omnidirectional.
    pub const OMNIDIRECTIONAL: u32 = 0;
    /// Directional.
    pub const DIRECTIONAL: u32 = 1;
    /// Ambient.
    pub const AMBIENT: u32 = 2;
}

/// The fields of a light that Warcraft III and the WoW alpha family share, in MDX order;
/// `light_fields!(consumer! { header } { more fields })` hands them to a declaration.
macro_rules! light_fields {
    ($mac:ident! { $($head:tt)* } { $($extra:tt)* }) => {
        $mac! {
            $($head)*
            fields {
                /// Light type (see [`light_type`](crate::model::light_type)); unknown values
                /// kept.
                light_type: u32 => $crate::mdl::records::fields::Field::new(
                    &[],
                    $crate::mdl::records::fields::Style::Words(&[
                        "Omnidirectional",
                        "Directional",
                        "Ambient",
                    ]),
                ),
                /// Attenuation start.
                attenuation_start: f32 => $crate::mdl::records::fields::Field::animated(
                    &["AttenuationStart"],
                    $crate::format::track::KLAS,
                ),
                /// Attenuation end.
                attenuation_end: f32 => $crate::mdl::records::fields::Field::animated(
                    &["AttenuationEnd"],
                    $crate::format::track::KLAE,
                ),
                /// Color, stored blue, green, red (an absent MDL line reads as white, as
                /// war3-model and MdxLib treat it).
                color: [f32; 3] = [1.0; 3] => $crate::mdl::records::fields::Field::animated(
                    &["Color"],
                    $crate::format::track::KLAC,
                )
                .color(),
                /// Intensity.
                intensity: f32 => $crate::mdl::records::fields::Field::animated(
                    &["Intensity"],
                    $crate::format::track::KLAI,
                ),
                /// Ambient color, stored blue, green, red.
                ambient_color: [f32; 3] = [1.0; 3]
                    => $crate::mdl::records::fields::Field::animated(
                        &["AmbColor", "AmbientColor"],
                        $crate::format::track::KLBC,
                    )
                    .color(),
                /// Ambient intensity.
                ambient_intensity: f32 => $crate::mdl::records::fields::Field::animated(
                    &["AmbIntensity", "AmbientIntensity"],
                    $crate::format::track::KLBI,
                ),
                $($extra)*
            }
        }
    };
}
pub(crate) use light_fields;

light_fields! {
    record! {
        /// A light source.
        Light = "Light" in "Light" {
            head node: Node = kind::LIGHT;
            size 4;
            tracks(tracks, tail) [tk::KLAV => "Visibility"];
        }
    } {
        /// Shadow intensity (1200+).
        shadow_intensity: f32; since ver::LIGHT_SHADOW
            => Field::new(&["ShadowIntensity"], Style::Plain),
    }
}
