//! Particle emitters (PREM), particle emitters 2 (PRE2), ribbon emitters (RIBB) and
//! Reforged popcorn emitters (CORN): a node, fixed fields, then tracks, in one inclusive size.
//!
//! Their MDL follows the Blizzard layout of seed 000 B.2 (see `mdl::records::emitters`).

use crate::spec::keywords::PRE2_AREA_KEYWORDS as AREA;
use crate::spec::keywords::{Field, Style};
use crate::spec::len;

use super::declare::record;
use super::FixedString;

/// The fields of a model-spawning particle emitter that Warcraft III and the WoW alpha
/// family share, in MDX order (see [`light_fields`](super::light_fields)).
macro_rules! particle_emitter_fields {
    ($mac:ident! { $($head:tt)* } { $($extra:tt)* }) => {
        $mac! {
            $($head)*
            fields {
                /// Particles per second.
                emission_rate: f32 => $crate::spec::keywords::Field::animated(
                    &["EmissionRate"],
                    $crate::spec::track::KPEE,
                ),
                /// Gravity.
                gravity: f32 => $crate::spec::keywords::Field::animated(
                    &["Gravity"],
                    $crate::spec::track::KPEG,
                ),
                /// Longitude.
                longitude: f32 => $crate::spec::keywords::Field::animated(
                    &["Longitude"],
                    $crate::spec::track::KPLN,
                ),
                /// Latitude.
                latitude: f32 => $crate::spec::keywords::Field::animated(
                    &["Latitude"],
                    $crate::spec::track::KPLT,
                ),
                /// Spawned model path (260 bytes). Written even when empty (`Path ""`):
                /// war3-model fails on an emitter without it, and both it and
                /// mdx-m3-viewer always write it.
                path: $crate::model::FixedString[$crate::spec::len::PATH]
                    => $crate::spec::keywords::Field::new(
                        &["Path"],
                        $crate::spec::keywords::Style::Plain,
                    )
                    .group("Particle"),
                /// Particle life span.
                life_span: f32 => $crate::spec::keywords::Field::animated(
                    &["LifeSpan"],
                    $crate::spec::track::KPEL,
                )
                .group("Particle"),
                /// Initial speed.
                speed: f32 => $crate::spec::keywords::Field::animated(
                    &["InitVelocity", "Speed"],
                    $crate::spec::track::KPES,
                )
                .group("Particle"),
                $($extra)*
            }
        }
    };
}
pub(crate) use particle_emitter_fields;

/// The declaration of [`ParticleEmitter`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! particle_emitter_decl {
    ($mac:ident) => {
        $crate::model::particle_emitter_fields! {
            $mac! {
                /// A classic particle emitter that spawns copies of a model. In MDL the particle's own
                /// fields sit in a `Particle { }` block.
                ParticleEmitter = "ParticleEmitter" in "ParticleEmitter" {
                    head node: $crate::model::Node = $crate::spec::kind::PARTICLE_EMITTER;
                    size 4;
                    flags $crate::spec::keywords::PREM_FLAGS;
                    tracks(tracks, tail) [$crate::spec::track::KPEV => "Visibility"];
                    mdl [emission_rate, gravity, longitude, latitude, life_span, speed, path];
                }
            } {}
        }
    };
}
pub(crate) use particle_emitter_decl;

particle_emitter_decl!(record);

/// Filter mode words, by stored value.
const FILTER_MODES: &[&str] = &["Blend", "Additive", "Modulate", "Modulate2x", "AlphaKey"];

/// Head-or-tail words, by stored value.
const HEAD_OR_TAIL: &[&str] = &["Head", "Tail", "Both"];

/// The declaration of [`ParticleEmitter2`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! particle_emitter2_decl {
    ($mac:ident) => {
        $mac! {
            /// The sprite particle emitter used by most effects.
            ParticleEmitter2 = "ParticleEmitter2" in "ParticleEmitter2" {
                head node: $crate::model::Node = $crate::spec::kind::PARTICLE_EMITTER;
                size 4;
                flags $crate::spec::keywords::PRE2_FLAGS;
                tracks(tracks, tail) [$crate::spec::track::KP2V => "Visibility"];
                mdl [
                    speed, variation, latitude, gravity, squirt, life_span, emission_rate, width, length,
                    filter_mode, rows, columns, head_or_tail, tail_length, time, segment_colors,
                    segment_alphas, segment_scaling, head_intervals, head_decay_intervals,
                    tail_intervals, tail_decay_intervals, texture_id, replaceable_id, priority_plane,
                ];
            }
            fields {
                /// Speed.
                speed: f32 => Field::animated(&["Speed"], $crate::spec::track::KP2S),
                /// Speed variation.
                variation: f32 => Field::animated(&["Variation"], $crate::spec::track::KP2R),
                /// Latitude.
                latitude: f32 => Field::animated(&["Latitude"], $crate::spec::track::KP2L),
                /// Gravity.
                gravity: f32 => Field::animated(&["Gravity"], $crate::spec::track::KP2G),
                /// Particle life span.
                life_span: f32 => Field::new(&["LifeSpan"], Style::Plain),
                /// Particles per second.
                emission_rate: f32 => Field::animated(&["EmissionRate"], $crate::spec::track::KP2E),
                /// Emitter length: the first of the two emitter-area floats, as seeds 000 and 003 and the
                /// `wc3` crate name it (mdx-m3-viewer calls this one width).
                length: f32 => Field::animated(&[AREA.0], $crate::spec::track::KP2N),
                /// Emitter width: the second emitter-area float (see `length`).
                width: f32 => Field::animated(&[AREA.1], $crate::spec::track::KP2W),
                /// Blend mode.
                filter_mode: u32 => Field::new(&[], Style::Words(FILTER_MODES)),
                /// Texture rows.
                rows: u32 => Field::new(&["Rows"], Style::Plain),
                /// Texture columns.
                columns: u32 => Field::new(&["Columns"], Style::Plain),
                /// 0 head, 1 tail, 2 both; unknown values kept.
                head_or_tail: u32 => Field::new(&[], Style::Words(HEAD_OR_TAIL)),
                /// Tail length.
                tail_length: f32 => Field::new(&["TailLength"], Style::Plain),
                /// Middle time (0..1).
                time: f32 => Field::new(&["Time"], Style::Plain),
                /// Start, middle, end colors, each blue, green, red.
                segment_colors: [[f32; 3]; 3] => Field::new(&["SegmentColor"], Style::Plain),
                /// Start, middle, end alpha (0..255).
                segment_alphas: [u8; 3] => Field::new(&["Alpha"], Style::Plain),
                /// Start, middle, end scaling.
                segment_scaling: [f32; 3] => Field::new(&["ParticleScaling"], Style::Plain),
                /// Head life-span UV animation: start, end, repeat.
                head_intervals: [u32; 3] => Field::new(&["LifeSpanUVAnim"], Style::Plain),
                /// Head decay UV animation: start, end, repeat.
                head_decay_intervals: [u32; 3] => Field::new(&["DecayUVAnim"], Style::Plain),
                /// Tail life-span UV animation: start, end, repeat.
                tail_intervals: [u32; 3] => Field::new(&["TailUVAnim"], Style::Plain),
                /// Tail decay UV animation: start, end, repeat.
                tail_decay_intervals: [u32; 3] => Field::new(&["TailDecayUVAnim"], Style::Plain),
                /// Texture id.
                texture_id: i32 => Field::new(&["TextureID"], Style::Plain),
                /// Squirt (1 = emit all at once on visibility).
                squirt: u32 => Field::new(&["Squirt"], Style::Flag),
                /// Priority plane.
                priority_plane: i32 => Field::new(&["PriorityPlane"], Style::NonZero),
                /// Replaceable id.
                replaceable_id: u32 => Field::new(&["ReplaceableId"], Style::NonZero),
            }
        }
    };
}
pub(crate) use particle_emitter2_decl;

particle_emitter2_decl!(record);

/// The declaration of [`RibbonEmitter`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! ribbon_emitter_decl {
    ($mac:ident) => {
        $mac! {
            /// A ribbon emitter: a trail of quads.
            RibbonEmitter = "RibbonEmitter" in "RibbonEmitter" {
                head node: $crate::model::Node = $crate::spec::kind::RIBBON_EMITTER;
                size 4;
                tracks(tracks, tail) [$crate::spec::track::KRVS => "Visibility"];
                mdl [
                    height_above, height_below, alpha, color, texture_slot, emission_rate, life_span,
                    gravity, rows, columns, material_id,
                ];
            }
            fields {
                /// Height above the node.
                height_above: f32 => Field::animated(&["HeightAbove"], $crate::spec::track::KRHA),
                /// Height below the node.
                height_below: f32 => Field::animated(&["HeightBelow"], $crate::spec::track::KRHB),
                /// Alpha.
                alpha: f32 => Field::animated(&["Alpha"], $crate::spec::track::KRAL),
                /// Color, blue, green, red.
                color: [f32; 3] = [1.0; 3] => Field::animated(&["Color"], $crate::spec::track::KRCO).color(),
                /// Life span of a segment.
                life_span: f32 => Field::new(&["LifeSpan"], Style::Plain),
                /// Texture slot.
                texture_slot: u32 => Field::animated(&["TextureSlot"], $crate::spec::track::KRTX),
                /// Segments per second.
                emission_rate: u32 => Field::new(&["EmissionRate"], Style::Plain),
                /// Texture rows.
                rows: u32 => Field::new(&["Rows"], Style::Plain),
                /// Texture columns.
                columns: u32 => Field::new(&["Columns"], Style::Plain),
                /// Material id.
                material_id: i32 => Field::new(&["MaterialID"], Style::Plain),
                /// Gravity.
                gravity: f32 => Field::new(&["Gravity"], Style::NonZero),
            }
        }
    };
}
pub(crate) use ribbon_emitter_decl;

ribbon_emitter_decl!(record);

/// The declaration of [`PopcornEmitter`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! popcorn_emitter_decl {
    ($mac:ident) => {
        $mac! {
            /// A Reforged popcorn emitter (PopcornFX effect).
            PopcornEmitter = "PopcornEmitter" in "ParticleEmitterPopcorn" {
                head node: $crate::model::Node = $crate::spec::kind::PARTICLE_EMITTER;
                size 4;
                flags $crate::spec::keywords::POPCORN_FLAGS;
                tracks(tracks, tail) [$crate::spec::track::KPPV => "Visibility"];
            }
            fields {
                /// Life span.
                life_span: f32 => Field::animated(&["LifeSpan"], $crate::spec::track::KPPL),
                /// Emission rate.
                emission_rate: f32 => Field::animated(&["EmissionRate"], $crate::spec::track::KPPE),
                /// Speed.
                speed: f32 => Field::animated(&["Speed"], $crate::spec::track::KPPS),
                /// Color, blue, green, red.
                color: [f32; 3] = [1.0; 3] => Field::animated(&["Color"], $crate::spec::track::KPPC).color(),
                /// Alpha.
                alpha: f32 = 1.0 => Field::animated(&["Alpha"], $crate::spec::track::KPPA),
                /// Replaceable id.
                replaceable_id: u32 => Field::new(&["ReplaceableId"], Style::NonZero),
                /// Effect file path (260 bytes).
                path: FixedString[len::PATH] => Field::new(&["Path"], Style::NonZero),
                /// Animation visibility guide (260 bytes).
                animation_visibility_guide: FixedString[len::PATH]
                    => Field::new(&["AnimVisibilityGuide"], Style::NonZero),
            }
        }
    };
}
pub(crate) use popcorn_emitter_decl;

popcorn_emitter_decl!(record);
