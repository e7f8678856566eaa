//! Texture animations (TXAN) and geoset animations (GEOA): sized records of tracks.

use crate::spec::keywords::{Field, Style};

use super::declare::record;

/// The declaration of [`TextureAnimation`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! texture_animation_decl {
    ($mac:ident) => {
        $mac! {
            /// A texture animation: translation (KTAT), rotation (KTAR) and scaling (KTAS) of UVs.
            TextureAnimation = "TextureAnimation" in "TVertexAnim" {
                size 4;
                tracks(tracks, tail) [
                    $crate::spec::track::KTAT => "Translation",
                    $crate::spec::track::KTAR => "Rotation",
                    $crate::spec::track::KTAS => "Scaling",
                ];
            }
            fields {}
        }
    };
}
pub(crate) use texture_animation_decl;

texture_animation_decl!(record);

/// Geoset animation flag bits.
pub mod geoset_animation_flags {
    /// Drop shadow.
    pub const DROP_SHADOW: u32 = 0x1;
    /// The color field is used.
    pub const USE_COLOR: u32 = 0x2;
}

/// The declaration of [`GeosetAnimation`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! geoset_animation_decl {
    ($mac:ident) => {
        $mac! {
            /// A geoset animation: visibility (alpha) and color of one geoset.
            GeosetAnimation = "GeosetAnimation" in "GeosetAnim" {
                size 28;
                tracks(tracks, tail) [];
                custom_mdl "the color's use bit has no word: a color line or track implies it";
            }
            fields {
                /// Static alpha.
                alpha: f32 = 1.0 => Field::animated(&["Alpha"], $crate::spec::track::KGAO),
                /// Flags (see [`geoset_animation_flags`]); unknown bits kept.
                flags: u32 => Field::new(&[], Style::Bits(&[("DropShadow", 1)])),
                /// Static color, stored blue, green, red.
                color: [f32; 3] = [1.0; 3] => Field::animated(&["Color"], $crate::spec::track::KGAC).color(),
                /// The geoset this animates.
                geoset_id: i32 => Field::new(&["GeosetId"], Style::Plain),
            }
        }
    };
}
pub(crate) use geoset_animation_decl;

geoset_animation_decl!(record);
