//! Lights (LITE): see [`Light`].

use crate::spec::keywords::{Field, Style};
use crate::spec::version as ver;

use super::declare::record;

/// Light types.
pub mod light_type {
    /// Omnidirectional.
    pub const OMNIDIRECTIONAL: u32 = 0;
    /// Directional.
    pub const DIRECTIONAL: u32 = 1;
    /// Ambient.
    pub const AMBIENT: u32 = 2;
    /// The MDL word of each type, by number.
    pub const NAMES: &[&str] = &["Omnidirectional", "Directional", "Ambient"];
}

/// The fields of a light that Warcraft III and the WoW alpha family share, in MDX order;
/// `light_fields!(consumer! { header } { more fields })` hands them to a declaration.
/// `light_fields!(consumer! { header } { fields after the type } { fields at the end })`.
macro_rules! light_fields {
    ($mac:ident! { $($head:tt)* } { $($after_type:tt)* } { $($extra:tt)* }) => {
        $mac! {
            $($head)*
            fields {
                /// Light type (see [`light_type`](crate::model::light_type)); unknown values
                /// kept.
                light_type: u32 => $crate::spec::keywords::Field::new(
                    &[],
                    $crate::spec::keywords::Style::Words(
                        $crate::model::light_type::NAMES,
                    ),
                ),
                $($after_type)*
                /// Attenuation start.
                attenuation_start: f32 => $crate::spec::keywords::Field::animated(
                    &["AttenuationStart"],
                    $crate::spec::track::KLAS,
                ),
                /// Attenuation end.
                attenuation_end: f32 => $crate::spec::keywords::Field::animated(
                    &["AttenuationEnd"],
                    $crate::spec::track::KLAE,
                ),
                /// Color, stored blue, green, red (an absent MDL line reads as white, as
                /// war3-model and MdxLib treat it).
                color: [f32; 3] = [1.0; 3] => $crate::spec::keywords::Field::animated(
                    &["Color"],
                    $crate::spec::track::KLAC,
                )
                .color(),
                /// Intensity.
                intensity: f32 => $crate::spec::keywords::Field::animated(
                    &["Intensity"],
                    $crate::spec::track::KLAI,
                ),
                /// Ambient color, stored blue, green, red.
                ambient_color: [f32; 3] = [1.0; 3]
                    => $crate::spec::keywords::Field::animated(
                        &["AmbColor", "AmbientColor"],
                        $crate::spec::track::KLBC,
                    )
                    .color(),
                /// Ambient intensity.
                ambient_intensity: f32 => $crate::spec::keywords::Field::animated(
                    &["AmbIntensity", "AmbientIntensity"],
                    $crate::spec::track::KLBI,
                ),
                $($extra)*
            }
        }
    };
}
pub(crate) use light_fields;

/// The declaration of [`Light`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! light_decl {
    ($mac:ident) => {
        $crate::model::light_fields! {
            $mac! {
                /// A light source: a node, then in MDX order
                ///
                /// | field | type | versions | track |
                /// |---|---|---|---|
                /// | type | u32 | all | |
                /// | shadow casting | u32 | 1300+ | |
                /// | attenuation start, end | f32, f32 | all | KLAS, KLAE |
                /// | color | 3 f32 (blue, green, red) | all | KLAC |
                /// | intensity | f32 | all | KLAI |
                /// | ambient color | 3 f32 | all | KLBC |
                /// | ambient intensity | f32 | all | KLBI |
                /// | shadow intensity | f32 | 1200+ | |
                /// | shadow casting start, end | f32, f32 | 1300+ | KLSS, KLSE |
                /// | quadratic falloff, linear falloff, damping | 3 f32 | 1600+ | KLQF, KLLF, KLDA |
                ///
                /// then the tracks (and KLAV, visibility).
                ///
                /// Where this comes from: the `wc3` crate (0.2.0, `model/scene/light.rs`) and Retera's Model
                /// Studio (its `LightChunk`/`MdlxLight` readers and its notes on the game's 1800 files) agree
                /// on this order, the shadow casting word right after the type included; `tests/reforged_vs_wc3.rs`
                /// checks it byte for byte against `wc3`. War3Net knows only the shadow intensity (1200).
                /// Where they part, and what was chosen:
                /// - first versions: an older Retera commit put every new field at 1600; its later ones, `wc3`
                ///   and two other tools put shadow casting at 1300 and falloff at 1600. Taken: 1200, 1300,
                ///   1600.
                /// - an MDL light without `ShadowIntensity`: 0 for `wc3` (which leaves a 0 out when writing),
                ///   0.4 for Retera. Taken: 0, so that `wc3`'s MDL reads the same here.
                ///
                /// The MDL keywords are `wc3`'s and Retera's: `static ShadowIntensity`, the bare word
                /// `ShadowCasting`, `ShadowCastingStart`, `ShadowCastingEnd`, `QuadraticFalloff`,
                /// `LinearFalloff`, `Damping`, in the game's line order. An absent falloff line reads as the
                /// game's default (0.0005, 0, 0.00001), as both read it; so does a light of a version before
                /// 1600 (see [`Light::new`]).
                Light = "Light" in "Light" {
                    head node: $crate::model::Node = $crate::spec::kind::LIGHT;
                    size 4;
                    tracks(tracks, tail) [$crate::spec::track::KLAV => "Visibility"];
                    // The `wc3` crate's line order: the shadow casting word after the intensities.
                    mdl [
                        light_type, attenuation_start, attenuation_end, color, intensity,
                        ambient_color, ambient_intensity, shadow_intensity, shadow_casting,
                        shadow_start, shadow_end, quadratic_falloff, linear_falloff, damping,
                    ];
                }
            } {
                /// Shadow casting (1300+): 1 casts shadows, 0 does not; other values kept.
                shadow_casting: u32; since ver::LIGHT_SHADOW_CASTING
                    => Field::new(&["ShadowCasting"], Style::Flag),
            } {
                /// Shadow intensity (1200+).
                shadow_intensity: f32; since ver::LIGHT_SHADOW
                    => Field::new(&["ShadowIntensity"], Style::Static),
                /// Distance where shadow casting starts (1300+).
                shadow_start: f32; since ver::LIGHT_SHADOW_CASTING
                    => Field::animated(&["ShadowCastingStart"], $crate::spec::track::KLSS),
                /// Distance where shadow casting ends (1300+).
                shadow_end: f32; since ver::LIGHT_SHADOW_CASTING
                    => Field::animated(&["ShadowCastingEnd"], $crate::spec::track::KLSE),
                /// Quadratic distance falloff coefficient (1600+; the game's value for older
                /// versions is [`Light::DEFAULT_QUADRATIC_FALLOFF`]).
                quadratic_falloff: f32 = Light::DEFAULT_QUADRATIC_FALLOFF; since ver::LIGHT_FALLOFF
                    => Field::animated(&["QuadraticFalloff"], $crate::spec::track::KLQF),
                /// Linear distance falloff coefficient (1600+; 0 for older versions).
                linear_falloff: f32; since ver::LIGHT_FALLOFF
                    => Field::animated(&["LinearFalloff"], $crate::spec::track::KLLF),
                /// Damping coefficient (1600+; the game's value for older versions is
                /// [`Light::DEFAULT_DAMPING`]).
                damping: f32 = Light::DEFAULT_DAMPING; since ver::LIGHT_FALLOFF
                    => Field::animated(&["Damping"], $crate::spec::track::KLDA),
            }
        }
    };
}
pub(crate) use light_decl;

light_decl!(record);

impl Light {
    /// A light holding in every field what the game assumes when a file lacks it (what an
    /// MDL `Light` block without lines reads as): white colors, the falloff defaults, zero
    /// elsewhere.
    pub fn new() -> Light {
        Light::absent_fields()
    }

    /// The quadratic falloff of lights before 1600, and of a 1600+ MDL light without the
    /// line (the `wc3` crate's default).
    pub const DEFAULT_QUADRATIC_FALLOFF: f32 = 0.0005;
    /// The damping of lights before 1600, and of a 1600+ MDL light without the line.
    pub const DEFAULT_DAMPING: f32 = 0.00001;
}
