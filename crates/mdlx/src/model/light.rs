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

/// MDL words of the light types, by value.
const LIGHT_TYPES: &[&str] = &["Omnidirectional", "Directional", "Ambient"];

record! {
    /// A light source.
    Light = "Light" in "Light" {
        head node: Node = kind::LIGHT;
        size 4;
        tracks(tracks, tail) [tk::KLAV => "Visibility"];
    }
    fields {
        /// Light type (see [`light_type`]); unknown values kept.
        light_type: u32 => Field::new(&[], Style::Words(LIGHT_TYPES)),
        /// Attenuation start.
        attenuation_start: f32 => Field::animated(&["AttenuationStart"], tk::KLAS),
        /// Attenuation end.
        attenuation_end: f32 => Field::animated(&["AttenuationEnd"], tk::KLAE),
        /// Color, stored blue, green, red (an absent MDL line reads as white, as war3-model
        /// and MdxLib treat it).
        color: [f32; 3] = [1.0; 3] => Field::animated(&["Color"], tk::KLAC).color(),
        /// Intensity.
        intensity: f32 => Field::animated(&["Intensity"], tk::KLAI),
        /// Ambient color, stored blue, green, red.
        ambient_color: [f32; 3] = [1.0; 3]
            => Field::animated(&["AmbColor", "AmbientColor"], tk::KLBC).color(),
        /// Ambient intensity.
        ambient_intensity: f32
            => Field::animated(&["AmbIntensity", "AmbientIntensity"], tk::KLBI),
        /// Shadow intensity (1200+).
        shadow_intensity: f32; since ver::LIGHT_SHADOW
            => Field::new(&["ShadowIntensity"], Style::Plain),
    }
}
