//! `Material` (with its `Layer` blocks), `TVertexAnim`, `Bitmap` (texture) and `Anim`
//! (sequence) blocks.
//!
//! ```text
//! Material {
//!     ConstantColor, TwoSided, SortPrimsNearZ, SortPrimsFarZ, FullResolution,
//!     PriorityPlane 1,
//!     Shader "Shader_HD_DefaultUnit",          // 900/1000
//!     Layer {
//!         FilterMode Blend,
//!         Unshaded, SphereEnvMap, TwoSided, Unfogged, NoDepthTest, NoDepthSet, Unlit,
//!         BackFacesForShadows, AmbientOcclusion,
//!         static TextureID 0,              // before 1100: the texture
//!         static TextureID 0,              // 1100+: one line per texture slot
//!         static TextureID 1,
//!         TVertexAnimId 0, CoordId 0,
//!         static Alpha 0.5,
//!         static EmissiveGain 1,           // 900+
//!         static FresnelColor { 1, 1, 1 }, // 1000+, with FresnelOpacity, FresnelTeamColor
//!         ShaderTypeId 1,                  // 1100+
//!         Alpha 2 { Linear, 0: 0, 100: 1 } // tracks, in stored order
//!     }
//! }
//! ```
//!
//! A missing static line reads as: alpha 1, emissive gain 1 and Fresnel color 1, 1, 1
//! (900+/1000+: the values Retera's tools and war3-model omit, and those of 630 of the 634
//! v1000 corpus layers), everything else 0, and TVertexAnimId -1. A static Fresnel color is
//! printed reversed like every static color (see [`super::geoset`]); `riflemanSAWING.mdl`
//! prints MDX [0.2, 0.8, 0] as `{ 0.0, 0.8, 0.2 }`.

use super::emitters::mdl_color;
use super::geoset::same_bits;
use super::node::{is_track, read_record_track, write_tracks};
use super::MdlRecord;
use crate::mdl::cx::{is, Cx};
use crate::mdl::error::MdlErrorKind;
use crate::mdl::out::Out;
use crate::mdl::parse::AtomKind;
use crate::mdl::tracks::{read_track, write_track};
use crate::model::*;
use crate::spec::{track as tk, version as ver};

/// Filter mode words, by stored number.
pub(crate) const FILTER_MODES: [&str; 7] = [
    "None",
    "Transparent",
    "Blend",
    "Additive",
    "AddAlpha",
    "Modulate",
    "Modulate2x",
];

/// Layer shading flag words.
pub(crate) const LAYER_FLAGS: &[(&str, u32)] = &[
    ("Unshaded", layer_flags::UNSHADED),
    ("SphereEnvMap", layer_flags::SPHERE_ENV_MAP),
    ("TwoSided", layer_flags::TWO_SIDED),
    ("Unfogged", layer_flags::UNFOGGED),
    ("NoDepthTest", layer_flags::NO_DEPTH_TEST),
    ("NoDepthSet", layer_flags::NO_DEPTH_SET),
    ("Unlit", layer_flags::UNLIT),
    ("BackFacesForShadows", layer_flags::BACK_FACES_FOR_SHADOWS),
    ("AmbientOcclusion", layer_flags::AMBIENT_OCCLUSION),
];

/// Material flag words. `TwoSided` (0x2) is mdx-m3-viewer's word; 25 materials of v1000
/// corpus files set that bit.
pub(crate) const MATERIAL_FLAGS: &[(&str, u32)] = &[
    ("ConstantColor", material_flags::CONSTANT_COLOR),
    ("TwoSided", 0x2),
    ("SortPrimsNearZ", material_flags::SORT_PRIMS_NEAR_Z),
    ("SortPrimsFarZ", material_flags::SORT_PRIMS_FAR_Z),
    ("FullResolution", material_flags::FULL_RESOLUTION),
];

/// Layer track keywords before 1100.
const LAYER_TRACKS: &[(Tag, &str)] = &[
    (tk::KMTA, "Alpha"),
    (tk::KMTF, "TextureID"),
    (tk::KMTE, "EmissiveGain"),
    (tk::KFC3, "FresnelColor"),
    (tk::KFCA, "FresnelOpacity"),
    (tk::KFTC, "FresnelTeamColor"),
];

/// Layer track keywords from 1100 on: `TextureID` names texture slots there, so a KMTF
/// track of the layer itself is written under its raw tag (`KMTF 2 { ... }`).
const SLOT_LAYER_TRACKS: &[(Tag, &str)] = &[
    (tk::KMTA, "Alpha"),
    (tk::KMTE, "EmissiveGain"),
    (tk::KFC3, "FresnelColor"),
    (tk::KFCA, "FresnelOpacity"),
    (tk::KFTC, "FresnelTeamColor"),
];

/// Texture slot keywords of 1100+ layers, by slot kind ([`TextureSlot::role`]: in
/// all 533 slots of the corpus v1100 MDX files it equals the slot's position, and
/// war3-model writes its kind index there). The corpus v1100 MDL (`riflemanSAWING.mdl`)
/// writes one `static TextureID` line per slot, in order; war3-model writes these names,
/// one per kind. A plain `TextureID` takes its position as its kind, a named one its name's;
/// an animated one is the slot's KMTF track. Slots neither form can express (a kind other
/// than the position, or a track beside a non-zero id) are written as this crate's block
/// `TextureSlot { static TextureID 5, Slot 3, TextureID 2 { ... } }`.
const SLOT_KEYWORDS: [&str; 6] = [
    "TextureID",
    "NormalTextureID",
    "ORMTextureID",
    "EmissiveTextureID",
    "TeamColorTextureID",
    "ReflectionsTextureID",
];

const LAYER_WORDS: &[&str] = &[
    "FilterMode",
    "Unshaded",
    "SphereEnvMap",
    "TwoSided",
    "Unfogged",
    "NoDepthTest",
    "NoDepthSet",
    "Unlit",
    "BackFacesForShadows",
    "AmbientOcclusion",
    "TextureID",
    "TVertexAnimId",
    "CoordId",
    "Alpha",
    "EmissiveGain",
    "FresnelColor",
    "FresnelOpacity",
    "FresnelTeamColor",
    "ShaderTypeId",
    "Shader",
    "TextureSlot",
];

const MATERIAL_WORDS: &[&str] = &[
    "ConstantColor",
    "TwoSided",
    "SortPrimsNearZ",
    "SortPrimsFarZ",
    "FullResolution",
    "PriorityPlane",
    "Shader",
    "Layer",
];

/// The values a layer reads when its static lines are absent, by version (fields a version
/// does not store stay 0, as the MDX reader leaves them).
struct LayerDefaults {
    emissive_gain: f32,
    fresnel_color: [f32; 3],
}

impl LayerDefaults {
    fn of(version: u32) -> Self {
        let one_from = |v| if version >= v { 1.0 } else { 0.0 };
        LayerDefaults {
            emissive_gain: one_from(ver::REFORGED),
            fresnel_color: [one_from(ver::FRESNEL); 3],
        }
    }
}

/// `static Key v,` for a float.
fn static_f32(out: &mut Out, key: &str, v: f32) {
    out.indent();
    out.raw("static ");
    out.raw(key);
    out.raw(" ");
    out.f32(v);
    out.raw(",\n");
}

/// `static Key { a, b, c },`
fn static_floats(out: &mut Out, key: &str, v: &[f32]) {
    out.indent();
    out.raw("static ");
    out.raw(key);
    out.raw(" ");
    out.floats(v);
    out.raw(",\n");
}

// ---------------------------------------------------------------------------------------
// Layer
// ---------------------------------------------------------------------------------------

/// Reads `FilterMode <word>` (or a raw number).
fn read_filter_mode(cx: &mut Cx, c: usize) -> u32 {
    match cx.args(c).first().copied() {
        Some(a) if a.kind == AtomKind::Number => cx
            .atom_int(&a, c, 0, u32::MAX as i64, "FilterMode")
            .unwrap_or(0) as u32,
        _ => {
            let Some(w) = cx.word_arg(c) else { return 0 };
            match FILTER_MODES.iter().position(|m| is(w, m)) {
                Some(n) => n as u32,
                None => {
                    let found = String::from_utf8_lossy(w).into_owned();
                    cx.error(
                        c,
                        MdlErrorKind::Expected {
                            expected: format!("a filter mode ({})", FILTER_MODES.join(", ")),
                            found,
                        },
                    );
                    0
                }
            }
        }
    }
}

/// Reads a slot's value item: `static TextureID n` or a `TextureID` track.
fn read_slot_value(cx: &mut Cx, c: usize, s: &mut TextureSlot) {
    if is_track(cx, c) {
        if let Some(Animation {
            track: AnyTrack::Integer(t),
            ..
        }) = read_track(cx, c, tk::KMTF)
        {
            s.texture_id_track = Some(t);
        }
    } else if let Some(v) = cx.i32_arg(c, "TextureID") {
        s.texture_id = v;
    }
}

/// Reads a `TextureSlot { static TextureID n, Slot k, TextureID N { ... } }` block.
fn read_slot_block(cx: &mut Cx, i: usize, position: usize) -> TextureSlot {
    let mut s = TextureSlot {
        role: position as u32,
        ..Default::default()
    };
    for c in cx.children(i) {
        let k = cx.key(c);
        if is(k, "TextureID") {
            read_slot_value(cx, c, &mut s);
        } else if is(k, "Slot") {
            s.role = cx.u32_arg(c, "Slot").unwrap_or(s.role);
        } else {
            cx.unknown(c, "TextureSlot", &["TextureID", "Slot"]);
        }
    }
    s
}

/// `TextureID n <= slot`, the game's spelling of a texture slot (1100+), as `(n, slot)`.
fn slot_arrow(cx: &Cx, c: usize) -> Option<(i32, u32)> {
    let args = cx.args(c);
    let [id, arrow, slot] = args else {
        return None;
    };
    if arrow.kind != AtomKind::Word || cx.t.text(arrow) != b"<=" {
        return None;
    }
    let text = |a| std::str::from_utf8(cx.t.text(a)).ok();
    Some((text(id)?.parse().ok()?, text(slot)?.parse().ok()?))
}

/// 1100+: reads item `c` as a texture slot if it is one; false otherwise.
fn read_slot_item(cx: &mut Cx, c: usize, slots: &mut Vec<TextureSlot>) -> bool {
    let k = cx.key(c);
    if is(k, "TextureID") {
        if let Some((texture_id, role)) = slot_arrow(cx, c) {
            slots.push(TextureSlot {
                texture_id,
                role,
                texture_id_track: None,
            });
            return true;
        }
    }
    if is(k, "TextureSlot") {
        let s = read_slot_block(cx, c, slots.len());
        slots.push(s);
        return true;
    }
    let Some(kind) = SLOT_KEYWORDS.iter().position(|n| is(k, n)) else {
        return false;
    };
    let role = if kind == 0 { slots.len() } else { kind } as u32;
    let mut s = TextureSlot {
        role,
        ..Default::default()
    };
    read_slot_value(cx, c, &mut s);
    slots.push(s);
    true
}

/// Reads a static layer field; false if `c` is not one.
fn read_layer_static(cx: &mut Cx, c: usize, l: &mut Layer, shader_type_given: &mut bool) -> bool {
    let k = cx.key(c);
    if is(k, "FilterMode") {
        l.filter_mode = read_filter_mode(cx, c);
    } else if let Some((_, bit)) = LAYER_FLAGS.iter().find(|(w, _)| is(k, w)) {
        l.flags |= bit;
    } else if is(k, "TextureID") {
        l.texture_id = cx.i32_arg(c, "TextureID").unwrap_or(0);
    } else if is(k, "TVertexAnimId") {
        l.texture_animation_id = cx.i32_arg(c, "TVertexAnimId").unwrap_or(-1);
    } else if is(k, "CoordId") {
        l.coord_id = cx.u32_arg(c, "CoordId").unwrap_or(0);
    } else if is(k, "Alpha") {
        l.alpha = cx.f32_arg(c).unwrap_or(1.0);
    } else if is(k, "EmissiveGain") {
        l.emissive_gain = cx.f32_arg(c).unwrap_or(l.emissive_gain);
    } else if is(k, "FresnelColor") {
        l.fresnel_color = mdl_color(cx.floats(c).unwrap_or(l.fresnel_color));
    } else if is(k, "FresnelOpacity") {
        l.fresnel_opacity = cx.f32_arg(c).unwrap_or(0.0);
    } else if is(k, "FresnelTeamColor") {
        l.fresnel_team_color = cx.f32_arg(c).unwrap_or(0.0);
    } else if is(k, "ShaderTypeId") {
        l.shader_type_id = cx.u32_arg(c, "ShaderTypeId").unwrap_or(0);
        *shader_type_given = true;
    } else if is(k, "Shader") && cx.version >= ver::TEXTURE_SLOTS {
        let name = cx.args(c).first().map(|a| cx.t.text(a));
        // The game's spelling of the type (`Shader "Shader_HD_DefaultUnit",`).
        let names = shader_type::NAMES;
        match names.iter().find(|(_, n)| name.is_some_and(|t| is(t, n))) {
            Some((id, _)) => {
                l.shader_type_id = *id;
                *shader_type_given = true;
            }
            None => {
                let words: Vec<&'static str> = names.iter().map(|(_, n)| *n).collect();
                cx.unknown(c, "Layer", &words);
            }
        }
    } else {
        return false;
    }
    true
}

/// Reads a `Layer { ... }` block; also says whether it had a `ShaderTypeId` line.
pub(crate) fn read_layer(cx: &mut Cx, i: usize) -> (Layer, bool) {
    let d = LayerDefaults::of(cx.version);
    let mut l = Layer {
        texture_animation_id: -1,
        alpha: 1.0,
        emissive_gain: d.emissive_gain,
        fresnel_color: d.fresnel_color,
        ..Default::default()
    };
    let slots = cx.version >= ver::TEXTURE_SLOTS;
    let table = if slots {
        SLOT_LAYER_TRACKS
    } else {
        LAYER_TRACKS
    };
    let mut shader_type_given = false;
    for c in cx.children(i) {
        if (slots && read_slot_item(cx, c, &mut l.texture_slots))
            || read_record_track(cx, c, table, &mut l.tracks)
            || read_layer_static(cx, c, &mut l, &mut shader_type_given)
        {
            continue;
        }
        cx.unknown(c, "Layer", LAYER_WORDS);
    }
    (l, shader_type_given)
}

/// Writes the 1100+ texture slots: `static TextureID n` (or a `TextureID` track) per slot
/// when the slot's kind is its position, a `TextureSlot` block otherwise.
fn write_slots(out: &mut Out, slots: &[TextureSlot]) {
    for (k, s) in slots.iter().enumerate() {
        let simple = s.role as usize == k && (s.texture_id_track.is_none() || s.texture_id == 0);
        if !simple {
            out.open("TextureSlot");
            out.kv_int("static TextureID", s.texture_id as i64);
            out.kv_int("Slot", s.role as i64);
        }
        match &s.texture_id_track {
            Some(t) => write_track(
                out,
                "TextureID",
                &Animation {
                    tag: tk::KMTF,
                    track: AnyTrack::Integer(t.clone()),
                },
            ),
            None if simple => out.kv_int("static TextureID", s.texture_id as i64),
            None => {}
        }
        if !simple {
            out.close();
        }
    }
}

/// Writes the static fields of the Reforged layer versions.
fn write_reforged_statics(out: &mut Out, l: &Layer, version: u32) {
    let d = LayerDefaults::of(version);
    if version >= ver::REFORGED && l.emissive_gain.to_bits() != d.emissive_gain.to_bits() {
        static_f32(out, "EmissiveGain", l.emissive_gain);
    }
    if version >= ver::FRESNEL {
        if !same_bits(&l.fresnel_color, &d.fresnel_color) {
            static_floats(out, "FresnelColor", &mdl_color(l.fresnel_color));
        }
        if l.fresnel_opacity.to_bits() != 0 {
            static_f32(out, "FresnelOpacity", l.fresnel_opacity);
        }
        if l.fresnel_team_color.to_bits() != 0 {
            static_f32(out, "FresnelTeamColor", l.fresnel_team_color);
        }
    }
    if version >= ver::TEXTURE_SLOTS {
        out.kv_int("ShaderTypeId", l.shader_type_id as i64);
    }
}

/// Writes a `Layer { ... }` block.
pub(crate) fn write_layer(out: &mut Out, l: &Layer, version: u32) {
    out.open("Layer");
    match FILTER_MODES.get(l.filter_mode as usize) {
        Some(w) => out.kv_word("FilterMode", w),
        None => out.kv_int("FilterMode", l.filter_mode as i64),
    }
    for (w, bit) in LAYER_FLAGS {
        if l.flags & bit != 0 {
            out.flag(w);
        }
    }
    let slots = version >= ver::TEXTURE_SLOTS;
    if slots {
        // The layer's own texture id is 0 in all 108 corpus v1100 layers and has no spelling
        // here: a non-zero one leaves the record to the extension block.
        write_slots(out, &l.texture_slots);
    } else if l.texture_id != 0 || !l.tracks.iter().any(|a| a.tag == tk::KMTF) {
        out.kv_int("static TextureID", l.texture_id as i64);
    }
    if l.texture_animation_id != -1 {
        out.kv_int("TVertexAnimId", l.texture_animation_id as i64);
    }
    if l.coord_id != 0 {
        out.kv_int("CoordId", l.coord_id as i64);
    }
    if l.alpha.to_bits() != 1f32.to_bits() {
        static_f32(out, "Alpha", l.alpha);
    }
    write_reforged_statics(out, l, version);
    let table = if slots {
        SLOT_LAYER_TRACKS
    } else {
        LAYER_TRACKS
    };
    write_tracks(out, &l.tracks, table);
    out.close();
}

// ---------------------------------------------------------------------------------------
// Material
// ---------------------------------------------------------------------------------------

impl MdlRecord for Material {
    const BLOCK: &'static str = "Material";

    fn skeleton(&self) -> Option<Self> {
        let mut s = self.clone();
        for l in &mut s.layers {
            l.tracks = super::trimmed_tracks(&l.tracks)?;
        }
        Some(s)
    }

    fn read_mdl(cx: &mut Cx, i: usize) -> Self {
        let mut m = Material::default();
        let mut implicit_shader_type = Vec::new();
        for c in cx.children(i) {
            let k = cx.key(c);
            if is(k, "Layer") {
                let (l, given) = read_layer(cx, c);
                if !given {
                    implicit_shader_type.push(m.layers.len());
                }
                m.layers.push(l);
            } else if let Some((_, bit)) = MATERIAL_FLAGS.iter().find(|(w, _)| is(k, w)) {
                m.flags |= bit;
            } else if is(k, "PriorityPlane") {
                m.priority_plane = cx.i32_arg(c, "PriorityPlane").unwrap_or(0);
            } else if is(k, "RenderMode") {
                // war3-model writes the raw flags under this name after the flag words.
                m.flags |= cx.u32_arg(c, "RenderMode").unwrap_or(0);
            } else if is(k, "Shader") {
                m.shader = cx.str_arg(c).unwrap_or_default();
            } else {
                cx.unknown(c, "Material", MATERIAL_WORDS);
            }
        }
        // 1100 MDL may name the HD shader on the material instead of a ShaderTypeId (the
        // corpus's `riflemanSAWING.mdl`; the matching MDX layers have shader type 1).
        if cx.version >= ver::TEXTURE_SLOTS
            && m.shader
                .text_bytes()
                .eq_ignore_ascii_case(shader_type::HD_SHADER.as_bytes())
        {
            for n in implicit_shader_type {
                m.layers[n].shader_type_id = shader_type::HD_DEFAULT_UNIT;
            }
        }
        m
    }

    fn write_mdl(&self, out: &mut Out, version: u32) {
        out.open(Self::BLOCK);
        for (w, bit) in MATERIAL_FLAGS {
            if self.flags & bit != 0 {
                out.flag(w);
            }
        }
        if self.priority_plane != 0 {
            out.kv_int("PriorityPlane", self.priority_plane as i64);
        }
        if !self.shader.as_bytes().is_empty() {
            out.kv_str("Shader", &self.shader);
        }
        for l in &self.layers {
            write_layer(out, l, version);
        }
        out.close();
    }
}

// ---------------------------------------------------------------------------------------
// Texture animation
// ---------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------
// Texture
// ---------------------------------------------------------------------------------------

#[cfg(test)]
#[path = "material_tests.rs"]
mod tests;
