//! Materials (MTLS) and their layers: render order, blending, texture and the Reforged
//! shading fields (emissive gain 900+, Fresnel 1000+, shader type and texture slots 1100+).

use super::{FixedString, Track, Tracks};

/// Material flag bits.
pub mod material_flags {
    /// Constant color.
    pub const CONSTANT_COLOR: u32 = 0x1;
    /// Sort primitives near the Z plane.
    pub const SORT_PRIMS_NEAR_Z: u32 = 0x8;
    /// Sort primitives far from the Z plane.
    pub const SORT_PRIMS_FAR_Z: u32 = 0x10;
    /// Full resolution.
    pub const FULL_RESOLUTION: u32 = 0x20;
}

/// A material: a stack of layers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Material {
    /// Render priority.
    pub priority_plane: i32,
    /// Flags (see [`material_flags`]); unknown bits kept.
    pub flags: u32,
    /// Shader name (versions 900 and 1000 only).
    pub shader: FixedString,
    /// The layers, bottom first.
    pub layers: Vec<Layer>,
    /// Bytes after the layers inside the material's size, kept.
    pub tail: Vec<u8>,
}

/// Layer filter (blend) modes.
pub mod filter_mode {
    /// Opaque.
    pub const NONE: u32 = 0;
    /// Alpha-tested.
    pub const TRANSPARENT: u32 = 1;
    /// Alpha-blended.
    pub const BLEND: u32 = 2;
    /// Additive.
    pub const ADDITIVE: u32 = 3;
    /// Additive by alpha.
    pub const ADD_ALPHA: u32 = 4;
    /// Modulate.
    pub const MODULATE: u32 = 5;
    /// Modulate 2x.
    pub const MODULATE_2X: u32 = 6;
}

/// Layer shading flag bits.
pub mod layer_flags {
    /// Unshaded.
    pub const UNSHADED: u32 = 0x1;
    /// Sphere environment map.
    pub const SPHERE_ENV_MAP: u32 = 0x2;
    /// Two-sided.
    pub const TWO_SIDED: u32 = 0x10;
    /// Unfogged.
    pub const UNFOGGED: u32 = 0x20;
    /// No depth test.
    pub const NO_DEPTH_TEST: u32 = 0x40;
    /// No depth set.
    pub const NO_DEPTH_SET: u32 = 0x80;
    /// Unlit (Reforged).
    pub const UNLIT: u32 = 0x100;
    /// Back faces cast shadows (Reforged; the `wc3` crate's, Retera's and other readers'
    /// name for the bit).
    pub const BACK_FACES_FOR_SHADOWS: u32 = 0x200;
    /// Ambient occlusion (Reforged; named as [`BACK_FACES_FOR_SHADOWS`] is).
    pub const AMBIENT_OCCLUSION: u32 = 0x400;
}

/// Layer shader types (1100+), and the names the game's MDL and the 900/1000 material
/// shader give them (the `wc3` crate's table; Retera's agrees).
pub mod shader_type {
    /// SD, the classic shading.
    pub const SD_LEGACY: u32 = 0;
    /// HD, a layer of six texture slots.
    pub const HD_DEFAULT_UNIT: u32 = 1;
    /// SD fixed function.
    pub const SD_FIXED_FUNCTION: u32 = 2;
    /// HD crystal.
    pub const HD_CRYSTAL: u32 = 24;
    /// Each type with its name.
    pub const NAMES: &[(u32, &str)] = &[
        (SD_LEGACY, "Shader_SD_Legacy"),
        (HD_DEFAULT_UNIT, "Shader_HD_DefaultUnit"),
        (SD_FIXED_FUNCTION, "Shader_SD_FixedFunction"),
        (HD_CRYSTAL, "Shader_HD_Crystal"),
    ];
    /// The shader of Reforged's HD materials before 1100 (the name of [`HD_DEFAULT_UNIT`]).
    pub const HD_SHADER: &str = "Shader_HD_DefaultUnit";
}

/// A texture slot of a 1100+ layer (diffuse, normal, ORM, emissive, team color, reflections).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextureSlot {
    /// Texture id.
    pub texture_id: i32,
    /// The slot's texture role: 0 diffuse, 1 normal, 2 ORM, 3 emissive, 4 team color, 5
    /// reflections. In all 533 slots of the corpus's 1100 files it equals the slot's
    /// position; the `wc3` crate calls it the texture type and war3-model writes its kind
    /// index there. Other values are kept.
    pub role: u32,
    /// An animated texture id for this slot (KMTF right after the slot), if any.
    pub texture_id_track: Option<Track<u32>>,
}

/// One layer of a material.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layer {
    /// Blend mode (see [`filter_mode`]); unknown values kept.
    pub filter_mode: u32,
    /// Shading flags (see [`layer_flags`]); unknown bits kept.
    pub flags: u32,
    /// Texture id (for 1100+, the first slot holds the real one).
    pub texture_id: i32,
    /// Texture animation id, or -1.
    pub texture_animation_id: i32,
    /// UV set index.
    pub coord_id: u32,
    /// Static alpha.
    pub alpha: f32,
    /// Emissive gain (900+).
    pub emissive_gain: f32,
    /// Fresnel color (1000+).
    pub fresnel_color: [f32; 3],
    /// Fresnel opacity (1000+).
    pub fresnel_opacity: f32,
    /// Fresnel team color (1000+).
    pub fresnel_team_color: f32,
    /// Shader type id (1100+).
    pub shader_type_id: u32,
    /// Texture slots (1100+).
    pub texture_slots: Vec<TextureSlot>,
    /// KMTA, KMTF, KMTE, KFC3, KFCA, KFTC tracks in file order.
    pub tracks: Tracks,
    /// Bytes inside the layer's size after its tracks, kept.
    pub tail: Vec<u8>,
}

impl super::declare::Opaque for Material {
    fn opaque_bytes(&self) -> usize {
        self.tail.len() + self.layers.iter().map(|l| l.tail.len()).sum::<usize>()
    }
}
