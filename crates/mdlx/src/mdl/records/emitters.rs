//! The emitter blocks and the camera: `ParticleEmitter` (PREM), `ParticleEmitter2` (PRE2),
//! `RibbonEmitter` (RIBB), the Reforged `ParticleEmitterPopcorn` (CORN) and `Camera` (CAMS).
//!
//! Writing follows the Blizzard layout of seed 000 B.2: the node head, flags as bare words,
//! `static Key v` lines, the other fields, then the record's tracks in stored order and the
//! node's transform tracks. A field that is also animated keeps its `static` line only when
//! its value is not bitwise 0 (what the reader assumes when the line is absent), so both the
//! value and the track survive. The two sub-blocks that hold tracks (`Particle { }` of the
//! particle emitter, `Target { }` of the camera) are placed where their tracks fall in the
//! stored order, so that order survives too.
//!
//! Reading accepts the blocks' lines in any order and case, with or without `static`, and
//! the spellings real exporters use (`InitVelocity` or `Speed` in `Particle { }`).
//!
//! Two conventions were settled against the corpus (MDL files with an MDX twin):
//! - static colors are printed in the reverse order of their MDX bytes, animated color keys
//!   in stored order ([`mdl_color`]);
//! - the PRE2 emitter-area floats: see [`PRE2_AREA_KEYWORDS`] (settled, with evidence).

use super::node::{
    is_track, kind, new_node, read_node_item, read_record_track, static_track_or_unknown,
    write_node_head, write_node_tracks, write_tracks,
};
use super::{node_parts, MdlRecord};
use crate::format::track as tk;
use crate::mdl::cx::{is, Cx};
use crate::mdl::out::Out;
use crate::mdl::tracks::write_track;
use crate::model::*;

/// The MDL keywords of the two PRE2 emitter-area floats: `.0` is written for the field
/// `length` (the first of the two in MDX), `.1` for the field `width` (the second).
///
/// Settled (FORMAT-NOTES' open point "PRE2 width/length"; evidence in
/// `tests/peer_mdl.rs`): the first float pairs with the KP2N track (their values agree in
/// `ArcaneWave.mdx`), and KP2N is `Length` for MdxLib, the `wc3` crate and war3-model's
/// track names; MdlxConv's twin `Alliance_Exp.mdl` prints the first float as `Length`.
/// Magos' War3 Model Editor and mdx-m3-viewer print it as `Width`; their MDL swaps the two.
pub const PRE2_AREA_KEYWORDS: (&str, &str) = ("Length", "Width");

/// A static color as MDL prints it: the reverse of its MDX byte order. Every twin in the
/// corpus agrees (Magos' editor, MdlxConv: PRE2 segment colors, ribbon, light and geoset
/// animation colors), and so does mdx-m3-viewer; animated color keys are printed as stored.
/// The reversal is its own inverse, so reading uses it too.
pub fn mdl_color(c: [f32; 3]) -> [f32; 3] {
    [c[2], c[1], c[0]]
}

// ---------------------------------------------------------------------------------------
// Shared helpers

/// Sets the bit of the flag word `k`; false if `k` is not in `table`.
fn read_flag(k: &[u8], table: &[(&str, u32)], flags: &mut u32) -> bool {
    match table.iter().find(|(w, _)| is(k, w)) {
        Some((_, bit)) => {
            *flags |= bit;
            true
        }
        None => false,
    }
}

/// Writes the words of the set bits of `table`.
fn write_flags(out: &mut Out, table: &[(&str, u32)], flags: u32) {
    for (word, bit) in table {
        if flags & bit != 0 {
            out.flag(word);
        }
    }
}

fn set_f32(cx: &mut Cx, c: usize, dst: &mut f32) {
    if let Some(v) = cx.f32_arg(c) {
        *dst = v;
    }
}

fn set_u32(cx: &mut Cx, c: usize, field: &'static str, dst: &mut u32) {
    if let Some(v) = cx.u32_arg(c, field) {
        *dst = v;
    }
}

fn set_i32(cx: &mut Cx, c: usize, field: &'static str, dst: &mut i32) {
    if let Some(v) = cx.i32_arg(c, field) {
        *dst = v;
    }
}

fn set_str(cx: &mut Cx, c: usize, dst: &mut FixedString) {
    if let Some(v) = cx.str_arg(c) {
        *dst = v;
    }
}

fn set_color(cx: &mut Cx, c: usize, dst: &mut [f32; 3]) {
    if let Some(v) = cx.floats::<3>(c) {
        *dst = mdl_color(v);
    }
}

/// Writes `static Key v` lines for the fields a record may also animate.
struct Statics<'o, 't> {
    out: &'o mut Out,
    tracks: &'t Tracks,
    table: &'t [(Tag, &'static str)],
}

impl<'o, 't> Statics<'o, 't> {
    fn new(out: &'o mut Out, tracks: &'t Tracks, table: &'t [(Tag, &'static str)]) -> Self {
        Statics { out, tracks, table }
    }

    /// Whether the field written under `key` also has a track.
    fn animated(&self, key: &str) -> bool {
        self.table
            .iter()
            .any(|(tag, k)| *k == key && self.tracks.iter().any(|a| a.tag == *tag))
    }

    fn start(&mut self, key: &str) {
        self.out.indent();
        self.out.raw("static ");
        self.out.raw(key);
        self.out.raw(" ");
    }

    /// `static Key v,` (omitted when the field is animated and the value bitwise 0).
    fn f32(&mut self, key: &str, v: f32) {
        self.floats(key, &[v]);
    }

    /// `static Key { a, b, c },` or, for one value, `static Key v,` (same rule as `f32`).
    fn floats(&mut self, key: &str, v: &[f32]) {
        self.floats_or(key, v, 0.0);
    }

    /// Like `floats`, for a field whose absent line reads as `default` (white colors and
    /// alpha 1, as war3-model and MdxLib treat them).
    fn floats_or(&mut self, key: &str, v: &[f32], default: f32) {
        if self.animated(key) && v.iter().all(|x| x.to_bits() == default.to_bits()) {
            return;
        }
        self.start(key);
        match v {
            [x] => self.out.f32(*x),
            _ => self.out.floats(v),
        }
        self.out.raw(",\n");
    }

    /// `static Key n,` (same rule as `f32`).
    fn int(&mut self, key: &str, v: i64) {
        if self.animated(key) && v == 0 {
            return;
        }
        self.start(key);
        self.out.int(v);
        self.out.raw(",\n");
    }
}

/// Writes tracks in the given order under the table's keywords (raw tag when not there).
fn write_track_list(out: &mut Out, tracks: &[Animation], table: &[(Tag, &str)]) {
    for a in tracks {
        match table.iter().find(|(t, _)| *t == a.tag) {
            Some((_, kw)) => write_track(out, kw, a),
            None => write_track(out, &a.tag.text(), a),
        }
    }
}

/// Splits stored tracks around the ones a sub-block holds: the tracks before the first one
/// tagged `inner`, the unbroken run of `inner` tracks from there, and the rest (where any
/// later `inner` track is written at the record level, which the reader also accepts).
fn split_run<'a>(
    tracks: &'a Tracks,
    inner: &[Tag],
) -> (&'a [Animation], &'a [Animation], &'a [Animation]) {
    let all = &tracks.0[..];
    let start = all
        .iter()
        .position(|a| inner.contains(&a.tag))
        .unwrap_or(all.len());
    let len = all[start..]
        .iter()
        .take_while(|a| inner.contains(&a.tag))
        .count();
    (&all[..start], &all[start..start + len], &all[start + len..])
}

// ---------------------------------------------------------------------------------------
// ParticleEmitter

/// Particle emitter flag words and their node-flag bits.
const PREM_FLAGS: &[(&str, u32)] = &[("EmitterUsesMDL", 0x8000), ("EmitterUsesTGA", 0x10000)];

/// Particle emitter tracks (the first keyword of a tag is the one written).
const PREM_TRACKS: &[(Tag, &str)] = &[
    (tk::KPEE, "EmissionRate"),
    (tk::KPEG, "Gravity"),
    (tk::KPLN, "Longitude"),
    (tk::KPLT, "Latitude"),
    (tk::KPEL, "LifeSpan"),
    (tk::KPES, "InitVelocity"),
    (tk::KPEV, "Visibility"),
    (tk::KPES, "Speed"),
];

/// The tracks written inside `Particle { }`.
const PARTICLE_TAGS: [Tag; 2] = [tk::KPEL, tk::KPES];

/// Keywords of the block, for messages.
#[rustfmt::skip]
const PREM_WORDS: &[&str] = &[
    "ObjectId", "Parent", "Billboarded", "BillboardedLockX", "BillboardedLockY",
    "BillboardedLockZ", "CameraAnchored", "DontInherit", "Translation", "Rotation", "Scaling",
    "EmitterUsesMDL", "EmitterUsesTGA", "EmissionRate", "Gravity", "Longitude", "Latitude",
    "Visibility", "Particle",
];

const PARTICLE_WORDS: &[&str] = &["LifeSpan", "InitVelocity", "Speed", "Path"];

/// The emitter-level float field named `k`.
fn prem_float<'a>(p: &'a mut ParticleEmitter, k: &[u8]) -> Option<&'a mut f32> {
    Some(if is(k, "EmissionRate") {
        &mut p.emission_rate
    } else if is(k, "Gravity") {
        &mut p.gravity
    } else if is(k, "Longitude") {
        &mut p.longitude
    } else if is(k, "Latitude") {
        &mut p.latitude
    } else {
        return None;
    })
}

/// Reads one `Particle { }` field (also accepted at the emitter level); false if unknown.
fn read_particle_field(cx: &mut Cx, c: usize, p: &mut ParticleEmitter) -> bool {
    let k = cx.key(c);
    if is(k, "LifeSpan") {
        set_f32(cx, c, &mut p.life_span);
    } else if is(k, "InitVelocity") || is(k, "Speed") {
        set_f32(cx, c, &mut p.speed);
    } else if is(k, "Path") {
        set_str(cx, c, &mut p.path);
    } else {
        return false;
    }
    true
}

impl MdlRecord for ParticleEmitter {
    const BLOCK: &'static str = "ParticleEmitter";

    node_parts!(tracks);

    fn read_mdl(cx: &mut Cx, i: usize) -> Self {
        let mut p = ParticleEmitter {
            node: new_node(kind::PARTICLE_EMITTER),
            ..Default::default()
        };
        p.node.name = cx.name_arg(i);
        for c in cx.children(i) {
            if read_node_item(cx, c, &mut p.node, Self::BLOCK)
                || read_record_track(cx, c, PREM_TRACKS, &mut p.tracks)
                || read_flag(cx.key(c), PREM_FLAGS, &mut p.node.flags)
                || read_particle_field(cx, c, &mut p)
            {
                continue;
            }
            let k = cx.key(c);
            if let Some(f) = prem_float(&mut p, k) {
                set_f32(cx, c, f);
            } else if is(k, "Particle") {
                for d in cx.children(c) {
                    if !read_record_track(cx, d, PREM_TRACKS, &mut p.tracks)
                        && !read_particle_field(cx, d, &mut p)
                    {
                        static_track_or_unknown(
                            cx,
                            d,
                            PREM_TRACKS,
                            &mut p.tracks,
                            "Particle",
                            PARTICLE_WORDS,
                        );
                    }
                }
            } else {
                static_track_or_unknown(cx, c, PREM_TRACKS, &mut p.tracks, Self::BLOCK, PREM_WORDS);
            }
        }
        p
    }

    fn write_mdl(&self, out: &mut Out, _version: u32) {
        write_node_head(out, Self::BLOCK, &self.node);
        write_flags(out, PREM_FLAGS, self.node.flags);
        let mut s = Statics::new(out, &self.tracks, PREM_TRACKS);
        s.f32("EmissionRate", self.emission_rate);
        s.f32("Gravity", self.gravity);
        s.f32("Longitude", self.longitude);
        s.f32("Latitude", self.latitude);
        let (before, inner, after) = split_run(&self.tracks, &PARTICLE_TAGS);
        write_track_list(out, before, PREM_TRACKS);
        out.open("Particle");
        let mut s = Statics::new(out, &self.tracks, PREM_TRACKS);
        s.f32("LifeSpan", self.life_span);
        s.f32("InitVelocity", self.speed);
        if !self.path.is_empty() {
            out.kv_str("Path", &self.path);
        }
        write_track_list(out, inner, PREM_TRACKS);
        out.close();
        write_track_list(out, after, PREM_TRACKS);
        write_node_tracks(out, &self.node);
        out.close();
    }
}

// ---------------------------------------------------------------------------------------
// ParticleEmitter2

/// Particle emitter 2 flag words and their node-flag bits, in the seed's order.
const PRE2_FLAGS: &[(&str, u32)] = &[
    ("SortPrimsFarZ", 0x10000),
    ("Unshaded", 0x8000),
    ("LineEmitter", 0x20000),
    ("Unfogged", 0x40000),
    ("ModelSpace", 0x80000),
    ("XYQuad", 0x100000),
];

/// Filter mode words, by stored value.
const FILTER_MODES: [&str; 5] = ["Blend", "Additive", "Modulate", "Modulate2x", "AlphaKey"];

/// Head-or-tail words, by stored value.
const HEAD_OR_TAIL: [&str; 3] = ["Head", "Tail", "Both"];

/// UV animation keywords: head, head decay, tail, tail decay.
const UV_ANIMS: [&str; 4] = [
    "LifeSpanUVAnim",
    "DecayUVAnim",
    "TailUVAnim",
    "TailDecayUVAnim",
];

/// Particle emitter 2 tracks.
const PRE2_TRACKS: &[(Tag, &str)] = &[
    (tk::KP2S, "Speed"),
    (tk::KP2R, "Variation"),
    (tk::KP2L, "Latitude"),
    (tk::KP2G, "Gravity"),
    (tk::KP2E, "EmissionRate"),
    (tk::KP2N, "Length"),
    (tk::KP2W, "Width"),
    (tk::KP2V, "Visibility"),
];

/// Keywords of the block, for messages.
#[rustfmt::skip]
const PRE2_WORDS: &[&str] = &[
    "ObjectId", "Parent", "Billboarded", "BillboardedLockX", "BillboardedLockY",
    "BillboardedLockZ", "CameraAnchored", "DontInherit", "Translation", "Rotation", "Scaling",
    "SortPrimsFarZ", "Unshaded", "LineEmitter", "Unfogged", "ModelSpace", "XYQuad", "Speed",
    "Variation", "Latitude", "Gravity", "Visibility", "Squirt", "LifeSpan", "EmissionRate",
    "Width", "Length", "Blend", "Additive", "Modulate", "Modulate2x", "AlphaKey", "Rows",
    "Columns", "Head", "Tail", "Both", "TailLength", "Time", "SegmentColor", "Alpha",
    "ParticleScaling", "LifeSpanUVAnim", "DecayUVAnim", "TailUVAnim", "TailDecayUVAnim",
    "TextureID", "ReplaceableId", "PriorityPlane",
];

/// The float field named `k`.
fn pre2_float<'a>(p: &'a mut ParticleEmitter2, k: &[u8]) -> Option<&'a mut f32> {
    Some(if is(k, "Speed") {
        &mut p.speed
    } else if is(k, "Variation") {
        &mut p.variation
    } else if is(k, "Latitude") {
        &mut p.latitude
    } else if is(k, "Gravity") {
        &mut p.gravity
    } else if is(k, "LifeSpan") {
        &mut p.life_span
    } else if is(k, "EmissionRate") {
        &mut p.emission_rate
    } else if is(k, PRE2_AREA_KEYWORDS.0) {
        &mut p.length
    } else if is(k, PRE2_AREA_KEYWORDS.1) {
        &mut p.width
    } else if is(k, "TailLength") {
        &mut p.tail_length
    } else if is(k, "Time") {
        &mut p.time
    } else {
        return None;
    })
}

/// The UV animation field at `n` in [`UV_ANIMS`] order.
fn uv_anim(p: &mut ParticleEmitter2, n: usize) -> &mut [u32; 3] {
    match n {
        0 => &mut p.head_intervals,
        1 => &mut p.head_decay_intervals,
        2 => &mut p.tail_intervals,
        _ => &mut p.tail_decay_intervals,
    }
}

/// `SegmentColor { Color { b, g, r }, Color { .. }, Color { .. } }`.
fn read_segment_colors(cx: &mut Cx, c: usize, dst: &mut [[f32; 3]; 3]) {
    let mut n = 0;
    for d in cx.children(c) {
        if !is(cx.key(d), "Color") {
            cx.unknown(d, "SegmentColor", &["Color"]);
        } else if n < 3 {
            set_color(cx, d, &mut dst[n]);
            n += 1;
        } else {
            n += 1;
        }
    }
    if n != 3 {
        let kind = crate::mdl::MdlErrorKind::WrongCount {
            expected: 3,
            found: n,
            what: "`SegmentColor` colors".into(),
        };
        cx.error(c, kind);
    }
}

/// Reads the PRE2 fields that are not plain numbers; false if `k` is none of them.
fn read_pre2_other(cx: &mut Cx, c: usize, p: &mut ParticleEmitter2) -> bool {
    let k = cx.key(c);
    if let Some(n) = FILTER_MODES.iter().position(|w| is(k, w)) {
        p.filter_mode = n as u32;
    } else if let Some(n) = HEAD_OR_TAIL.iter().position(|w| is(k, w)) {
        p.head_or_tail = n as u32;
    } else if is(k, "Squirt") {
        p.squirt = 1;
    } else if is(k, "SegmentColor") {
        read_segment_colors(cx, c, &mut p.segment_colors);
    } else if is(k, "Alpha") {
        if let Some(v) = cx.ints::<3>(c, 0, 255, "Alpha") {
            p.segment_alphas = v.map(|x| x as u8);
        }
    } else if is(k, "ParticleScaling") {
        if let Some(v) = cx.floats::<3>(c) {
            p.segment_scaling = v;
        }
    } else if let Some(n) = UV_ANIMS.iter().position(|w| is(k, w)) {
        if let Some(v) = cx.ints::<3>(c, i32::MIN as i64, u32::MAX as i64, "a UV animation") {
            *uv_anim(p, n) = v.map(|x| x as u32);
        }
    } else {
        return false;
    }
    true
}

/// Reads the PRE2 integer fields; false if `k` is none of them.
fn read_pre2_int(cx: &mut Cx, c: usize, p: &mut ParticleEmitter2) -> bool {
    let k = cx.key(c);
    if is(k, "Rows") {
        set_u32(cx, c, "Rows", &mut p.rows);
    } else if is(k, "Columns") {
        set_u32(cx, c, "Columns", &mut p.columns);
    } else if is(k, "TextureID") {
        set_i32(cx, c, "TextureID", &mut p.texture_id);
    } else if is(k, "ReplaceableId") {
        set_u32(cx, c, "ReplaceableId", &mut p.replaceable_id);
    } else if is(k, "PriorityPlane") {
        set_i32(cx, c, "PriorityPlane", &mut p.priority_plane);
    } else {
        return false;
    }
    true
}

impl MdlRecord for ParticleEmitter2 {
    const BLOCK: &'static str = "ParticleEmitter2";

    node_parts!(tracks);

    fn read_mdl(cx: &mut Cx, i: usize) -> Self {
        let mut p = ParticleEmitter2 {
            node: new_node(kind::PARTICLE_EMITTER),
            ..Default::default()
        };
        p.node.name = cx.name_arg(i);
        for c in cx.children(i) {
            if read_node_item(cx, c, &mut p.node, Self::BLOCK)
                || read_record_track(cx, c, PRE2_TRACKS, &mut p.tracks)
                || read_flag(cx.key(c), PRE2_FLAGS, &mut p.node.flags)
                || read_pre2_other(cx, c, &mut p)
                || read_pre2_int(cx, c, &mut p)
            {
                continue;
            }
            match pre2_float(&mut p, cx.key(c)) {
                Some(f) => set_f32(cx, c, f),
                None => static_track_or_unknown(
                    cx,
                    c,
                    PRE2_TRACKS,
                    &mut p.tracks,
                    Self::BLOCK,
                    PRE2_WORDS,
                ),
            }
        }
        p
    }

    fn write_mdl(&self, out: &mut Out, _version: u32) {
        write_node_head(out, Self::BLOCK, &self.node);
        write_flags(out, PRE2_FLAGS, self.node.flags);
        let mut s = Statics::new(out, &self.tracks, PRE2_TRACKS);
        s.f32("Speed", self.speed);
        s.f32("Variation", self.variation);
        s.f32("Latitude", self.latitude);
        s.f32("Gravity", self.gravity);
        if self.squirt != 0 {
            s.out.flag("Squirt");
        }
        s.out.kv_f32("LifeSpan", self.life_span);
        s.f32("EmissionRate", self.emission_rate);
        for key in ["Width", "Length"] {
            let v = if key == PRE2_AREA_KEYWORDS.0 {
                self.length
            } else {
                self.width
            };
            s.f32(key, v);
        }
        if let Some(word) = FILTER_MODES.get(self.filter_mode as usize) {
            out.flag(word);
        }
        out.kv_int("Rows", self.rows as i64);
        out.kv_int("Columns", self.columns as i64);
        if let Some(word) = HEAD_OR_TAIL.get(self.head_or_tail as usize) {
            out.flag(word);
        }
        out.kv_f32("TailLength", self.tail_length);
        out.kv_f32("Time", self.time);
        self.write_segments(out);
        out.kv_int("TextureID", self.texture_id as i64);
        if self.replaceable_id != 0 {
            out.kv_int("ReplaceableId", self.replaceable_id as i64);
        }
        if self.priority_plane != 0 {
            out.kv_int("PriorityPlane", self.priority_plane as i64);
        }
        write_tracks(out, &self.tracks, PRE2_TRACKS);
        write_node_tracks(out, &self.node);
        out.close();
    }
}

impl ParticleEmitter2 {
    /// The per-segment values: colors, alphas, scaling, UV animations.
    fn write_segments(&self, out: &mut Out) {
        out.open("SegmentColor");
        for c in &self.segment_colors {
            out.kv_floats("Color", &mdl_color(*c));
        }
        out.close();
        out.kv_ints("Alpha", self.segment_alphas.map(i64::from));
        out.kv_floats("ParticleScaling", &self.segment_scaling);
        let uv = [
            self.head_intervals,
            self.head_decay_intervals,
            self.tail_intervals,
            self.tail_decay_intervals,
        ];
        for (key, v) in UV_ANIMS.iter().zip(uv) {
            out.kv_ints(key, v.map(i64::from));
        }
    }
}

// ---------------------------------------------------------------------------------------
// RibbonEmitter

/// Ribbon emitter tracks.
const RIBBON_TRACKS: &[(Tag, &str)] = &[
    (tk::KRHA, "HeightAbove"),
    (tk::KRHB, "HeightBelow"),
    (tk::KRAL, "Alpha"),
    (tk::KRCO, "Color"),
    (tk::KRTX, "TextureSlot"),
    (tk::KRVS, "Visibility"),
];

/// Keywords of the block, for messages.
#[rustfmt::skip]
const RIBBON_WORDS: &[&str] = &[
    "ObjectId", "Parent", "Billboarded", "BillboardedLockX", "BillboardedLockY",
    "BillboardedLockZ", "CameraAnchored", "DontInherit", "Translation", "Rotation", "Scaling",
    "HeightAbove", "HeightBelow", "Alpha", "Color", "TextureSlot", "Visibility", "EmissionRate",
    "LifeSpan", "Gravity", "Rows", "Columns", "MaterialID",
];

/// The float field named `k`.
fn ribbon_float<'a>(r: &'a mut RibbonEmitter, k: &[u8]) -> Option<&'a mut f32> {
    Some(if is(k, "HeightAbove") {
        &mut r.height_above
    } else if is(k, "HeightBelow") {
        &mut r.height_below
    } else if is(k, "Alpha") {
        &mut r.alpha
    } else if is(k, "LifeSpan") {
        &mut r.life_span
    } else if is(k, "Gravity") {
        &mut r.gravity
    } else {
        return None;
    })
}

/// The unsigned field named `k`.
fn ribbon_u32<'a>(r: &'a mut RibbonEmitter, k: &[u8]) -> Option<&'a mut u32> {
    Some(if is(k, "TextureSlot") {
        &mut r.texture_slot
    } else if is(k, "EmissionRate") {
        &mut r.emission_rate
    } else if is(k, "Rows") {
        &mut r.rows
    } else if is(k, "Columns") {
        &mut r.columns
    } else {
        return None;
    })
}

impl MdlRecord for RibbonEmitter {
    const BLOCK: &'static str = "RibbonEmitter";

    node_parts!(tracks);

    fn read_mdl(cx: &mut Cx, i: usize) -> Self {
        let mut r = RibbonEmitter {
            node: new_node(kind::RIBBON_EMITTER),
            color: [1.0; 3],
            ..Default::default()
        };
        r.node.name = cx.name_arg(i);
        for c in cx.children(i) {
            if read_node_item(cx, c, &mut r.node, Self::BLOCK)
                || read_record_track(cx, c, RIBBON_TRACKS, &mut r.tracks)
            {
                continue;
            }
            let k = cx.key(c);
            if let Some(f) = ribbon_float(&mut r, k) {
                set_f32(cx, c, f);
            } else if let Some(f) = ribbon_u32(&mut r, k) {
                set_u32(cx, c, "a ribbon field", f);
            } else if is(k, "Color") {
                set_color(cx, c, &mut r.color);
            } else if is(k, "MaterialID") {
                set_i32(cx, c, "MaterialID", &mut r.material_id);
            } else {
                static_track_or_unknown(
                    cx,
                    c,
                    RIBBON_TRACKS,
                    &mut r.tracks,
                    Self::BLOCK,
                    RIBBON_WORDS,
                );
            }
        }
        r
    }

    fn write_mdl(&self, out: &mut Out, _version: u32) {
        write_node_head(out, Self::BLOCK, &self.node);
        let mut s = Statics::new(out, &self.tracks, RIBBON_TRACKS);
        s.f32("HeightAbove", self.height_above);
        s.f32("HeightBelow", self.height_below);
        s.f32("Alpha", self.alpha);
        s.floats_or("Color", &mdl_color(self.color), 1.0);
        s.int("TextureSlot", self.texture_slot as i64);
        out.kv_int("EmissionRate", self.emission_rate as i64);
        out.kv_f32("LifeSpan", self.life_span);
        if self.gravity.to_bits() != 0 {
            out.kv_f32("Gravity", self.gravity);
        }
        out.kv_int("Rows", self.rows as i64);
        out.kv_int("Columns", self.columns as i64);
        out.kv_int("MaterialID", self.material_id as i64);
        write_tracks(out, &self.tracks, RIBBON_TRACKS);
        write_node_tracks(out, &self.node);
        out.close();
    }
}

// ---------------------------------------------------------------------------------------
// ParticleEmitterPopcorn

/// Popcorn emitter flag words (mdx-m3-viewer, Retera's Model Studio, war3-model; the
/// corpus has none set).
const POPCORN_FLAGS: &[(&str, u32)] = &[
    ("SortPrimsFarZ", 0x10000),
    ("Unshaded", 0x8000),
    ("Unfogged", 0x40000),
];

/// Popcorn emitter tracks.
const POPCORN_TRACKS: &[(Tag, &str)] = &[
    (tk::KPPL, "LifeSpan"),
    (tk::KPPE, "EmissionRate"),
    (tk::KPPS, "Speed"),
    (tk::KPPC, "Color"),
    (tk::KPPA, "Alpha"),
    (tk::KPPV, "Visibility"),
];

/// Keywords of the block, for messages.
#[rustfmt::skip]
const POPCORN_WORDS: &[&str] = &[
    "ObjectId", "Parent", "Billboarded", "BillboardedLockX", "BillboardedLockY",
    "BillboardedLockZ", "CameraAnchored", "DontInherit", "Translation", "Rotation", "Scaling",
    "SortPrimsFarZ", "Unshaded", "Unfogged", "LifeSpan", "EmissionRate", "Speed", "Color", "Alpha",
    "Visibility", "ReplaceableId", "Path", "AnimVisibilityGuide",
];

/// The float field named `k`.
fn popcorn_float<'a>(p: &'a mut PopcornEmitter, k: &[u8]) -> Option<&'a mut f32> {
    Some(if is(k, "LifeSpan") {
        &mut p.life_span
    } else if is(k, "EmissionRate") {
        &mut p.emission_rate
    } else if is(k, "Speed") {
        &mut p.speed
    } else if is(k, "Alpha") {
        &mut p.alpha
    } else {
        return None;
    })
}

impl MdlRecord for PopcornEmitter {
    const BLOCK: &'static str = "ParticleEmitterPopcorn";

    node_parts!(tracks);

    fn read_mdl(cx: &mut Cx, i: usize) -> Self {
        let mut p = PopcornEmitter {
            node: new_node(kind::PARTICLE_EMITTER),
            color: [1.0; 3],
            alpha: 1.0,
            ..Default::default()
        };
        p.node.name = cx.name_arg(i);
        for c in cx.children(i) {
            if read_node_item(cx, c, &mut p.node, Self::BLOCK)
                || read_record_track(cx, c, POPCORN_TRACKS, &mut p.tracks)
                || read_flag(cx.key(c), POPCORN_FLAGS, &mut p.node.flags)
            {
                continue;
            }
            let k = cx.key(c);
            if let Some(f) = popcorn_float(&mut p, k) {
                set_f32(cx, c, f);
            } else if is(k, "Color") {
                set_color(cx, c, &mut p.color);
            } else if is(k, "ReplaceableId") {
                set_u32(cx, c, "ReplaceableId", &mut p.replaceable_id);
            } else if is(k, "Path") {
                set_str(cx, c, &mut p.path);
            } else if is(k, "AnimVisibilityGuide") {
                set_str(cx, c, &mut p.animation_visibility_guide);
            } else {
                static_track_or_unknown(
                    cx,
                    c,
                    POPCORN_TRACKS,
                    &mut p.tracks,
                    Self::BLOCK,
                    POPCORN_WORDS,
                );
            }
        }
        p
    }

    fn write_mdl(&self, out: &mut Out, _version: u32) {
        write_node_head(out, Self::BLOCK, &self.node);
        write_flags(out, POPCORN_FLAGS, self.node.flags);
        let mut s = Statics::new(out, &self.tracks, POPCORN_TRACKS);
        s.f32("LifeSpan", self.life_span);
        s.f32("EmissionRate", self.emission_rate);
        s.f32("Speed", self.speed);
        s.floats_or("Color", &mdl_color(self.color), 1.0);
        s.floats_or("Alpha", &[self.alpha], 1.0);
        if self.replaceable_id != 0 {
            out.kv_int("ReplaceableId", self.replaceable_id as i64);
        }
        if !self.path.is_empty() {
            out.kv_str("Path", &self.path);
        }
        if !self.animation_visibility_guide.is_empty() {
            out.kv_str("AnimVisibilityGuide", &self.animation_visibility_guide);
        }
        write_tracks(out, &self.tracks, POPCORN_TRACKS);
        write_node_tracks(out, &self.node);
        out.close();
    }
}

// ---------------------------------------------------------------------------------------
// Camera

/// Camera tracks at the block level.
const CAMERA_TRACKS: &[(Tag, &str)] = &[(tk::KCTR, "Translation"), (tk::KCRL, "Rotation")];

/// Camera tracks inside `Target { }`.
const TARGET_TRACKS: &[(Tag, &str)] = &[(tk::KTTR, "Translation")];

/// Keywords of the block, for messages.
#[rustfmt::skip]
const CAMERA_WORDS: &[&str] = &[
    "Position", "Translation", "Rotation", "FieldOfView", "FarClip", "NearClip", "Target",
];

/// Reads `Target { Position { .. }, Translation .. }`.
fn read_target(cx: &mut Cx, c: usize, cam: &mut Camera) {
    for d in cx.children(c) {
        if read_record_track(cx, d, TARGET_TRACKS, &mut cam.tracks) {
            continue;
        }
        if is(cx.key(d), "Position") && !is_track(cx, d) {
            if let Some(v) = cx.floats::<3>(d) {
                cam.target_position = v;
            }
        } else {
            static_track_or_unknown(
                cx,
                d,
                TARGET_TRACKS,
                &mut cam.tracks,
                "Target",
                &["Position", "Translation"],
            );
        }
    }
}

impl MdlRecord for Camera {
    const BLOCK: &'static str = "Camera";

    fn skeleton(&self) -> Option<Self> {
        let mut s = self.clone();
        s.tracks = super::trimmed_tracks(&self.tracks)?;
        Some(s)
    }

    fn read_mdl(cx: &mut Cx, i: usize) -> Self {
        let mut cam = Camera {
            name: cx.name_arg(i),
            ..Default::default()
        };
        for c in cx.children(i) {
            if read_record_track(cx, c, CAMERA_TRACKS, &mut cam.tracks) {
                continue;
            }
            let k = cx.key(c);
            if is(k, "Position") {
                if let Some(v) = cx.floats::<3>(c) {
                    cam.position = v;
                }
            } else if is(k, "FieldOfView") {
                set_f32(cx, c, &mut cam.field_of_view);
            } else if is(k, "FarClip") {
                set_f32(cx, c, &mut cam.far_clip);
            } else if is(k, "NearClip") {
                set_f32(cx, c, &mut cam.near_clip);
            } else if is(k, "Target") {
                read_target(cx, c, &mut cam);
            } else {
                static_track_or_unknown(
                    cx,
                    c,
                    CAMERA_TRACKS,
                    &mut cam.tracks,
                    Self::BLOCK,
                    CAMERA_WORDS,
                );
            }
        }
        cam
    }

    fn write_mdl(&self, out: &mut Out, _version: u32) {
        out.open_named(Self::BLOCK, &self.name);
        out.kv_floats("Position", &self.position);
        out.kv_f32("FieldOfView", self.field_of_view);
        out.kv_f32("FarClip", self.far_clip);
        out.kv_f32("NearClip", self.near_clip);
        let (before, inner, after) = split_run(&self.tracks, &[tk::KTTR]);
        write_track_list(out, before, CAMERA_TRACKS);
        out.open("Target");
        out.kv_floats("Position", &self.target_position);
        write_track_list(out, inner, TARGET_TRACKS);
        out.close();
        // A target track after the run is written under its raw tag (`KTTR`).
        write_track_list(out, after, CAMERA_TRACKS);
        out.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mdl::cx::Cx;
    use crate::mdl::parse::parse;
    use crate::mdl::{Diagnostic, Severity};
    use std::fmt::Debug;

    /// Reads the first block of `src` as `T`, with the diagnostics.
    fn read<T: MdlRecord>(src: &[u8]) -> (T, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let tree = parse(src, &mut diags);
        let mut cx = Cx::new(&tree, diags, 800);
        let first = tree.children(0).next().expect("a block");
        let r = T::read_mdl(&mut cx, first);
        (r, cx.diags)
    }

    /// Reads `src` without errors.
    fn read_ok<T: MdlRecord>(src: &str) -> T {
        let (r, diags) = read::<T>(src.as_bytes());
        let errors: Vec<_> = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{errors:?}\n{src}");
        r
    }

    fn text<T: MdlRecord>(r: &T) -> String {
        let mut out = Out::default();
        r.write_mdl(&mut out, 800);
        String::from_utf8(out.buf).unwrap()
    }

    /// Writes `r`, reads it back, checks it is equal, and returns the text.
    fn round_trip<T: MdlRecord + PartialEq + Debug>(r: &T) -> String {
        let s = text(r);
        let back: T = read_ok(&s);
        assert_eq!(&back, r, "\n{s}");
        s
    }

    fn float_track(tag: Tag, keys: &[(i32, f32)]) -> Animation {
        let keys = keys
            .iter()
            .map(|&(time, value)| Key {
                time,
                value,
                in_tan: 0.0,
                out_tan: 0.0,
            })
            .collect();
        let track = Track {
            interpolation: Interpolation::Linear,
            global_sequence_id: -1,
            keys,
        };
        Animation {
            tag,
            track: AnyTrack::Float(track),
        }
    }

    fn vector_track(tag: Tag, keys: &[(i32, [f32; 3])]) -> Animation {
        let keys = keys
            .iter()
            .map(|&(time, value)| Key {
                time,
                value,
                in_tan: [0.0; 3],
                out_tan: [0.0; 3],
            })
            .collect();
        let track = Track {
            interpolation: Interpolation::None,
            global_sequence_id: 2,
            keys,
        };
        Animation {
            tag,
            track: AnyTrack::Vector3(track),
        }
    }

    fn tags(t: &Tracks) -> Vec<Tag> {
        t.iter().map(|a| a.tag).collect()
    }

    // The shape Retera's Model Studio and Blizzard write (corpus `eagle.mdl`).
    const PREM: &str = r#"ParticleEmitter "SuperSpray04" {
	ObjectId 53,
	Parent 2,
	EmitterUsesMDL,
	static EmissionRate 9,
	static Gravity 360,
	static Longitude 2.05949,
	static Latitude 1.55334,
	Visibility 2 {
		DontInterp,
		0: 1,
		500: 0,
	}
	Particle {
		static LifeSpan 1.06667,
		InitVelocity 1 {
			Linear,
			0: 118.764,
		}
		Path "SharedModels\Feather2.MDL",
	}
	Translation 1 {
		Linear,
		0: { 1, 2, 3 },
	}
}
"#;

    #[test]
    fn particle_emitter_reads_and_round_trips() {
        let p: ParticleEmitter = read_ok(PREM);
        assert_eq!(p.node.name.text(), "SuperSpray04");
        assert_eq!((p.node.object_id, p.node.parent_id), (53, 2));
        assert_eq!(p.node.flags, kind::PARTICLE_EMITTER | 0x8000);
        assert_eq!(
            [p.emission_rate, p.gravity, p.longitude],
            [9.0, 360.0, 2.05949]
        );
        assert_eq!((p.latitude, p.life_span, p.speed), (1.55334, 1.06667, 0.0));
        assert_eq!(p.path.text(), "SharedModels\\Feather2.MDL");
        assert_eq!(tags(&p.tracks), [tk::KPEV, tk::KPES]);
        assert_eq!(tags(&p.node.tracks), [tk::KGTR]);
        let s = round_trip(&p);
        // Animated and zero: no static line; the track stays inside `Particle`.
        assert!(!s.contains("static InitVelocity"), "{s}");
        assert!(
            s.contains("Particle {\n\t\tstatic LifeSpan 1.06667,\n\t\tPath"),
            "{s}"
        );
    }

    #[test]
    fn particle_emitter_keeps_any_track_order() {
        let mut p: ParticleEmitter = read_ok(PREM);
        p.speed = 5.0;
        p.node.flags |= 0x10000;
        for order in [
            vec![tk::KPEL, tk::KPEE, tk::KPES, tk::KPEV],
            vec![
                tk::KPEE,
                tk::KPEG,
                tk::KPLN,
                tk::KPLT,
                tk::KPEL,
                tk::KPES,
                tk::KPEV,
            ],
            vec![tk::KPES, tk::KPEL],
        ] {
            p.tracks = Tracks(order.iter().map(|&t| float_track(t, &[(0, 1.0)])).collect());
            let s = round_trip(&p);
            assert!(s.contains("static InitVelocity 5"), "{s}");
        }
    }

    #[test]
    fn particle_emitter_accepts_dialects() {
        let src = "particleemitter \"x\" {\n emitterusestga\n emissionrate 2\n\
            particle { speed 3, lifespan 4, path \"a.mdl\" }\n}";
        let p: ParticleEmitter = read_ok(src);
        assert_eq!((p.emission_rate, p.speed, p.life_span), (2.0, 3.0, 4.0));
        assert_eq!(p.node.flags, kind::PARTICLE_EMITTER | 0x10000);
        assert_eq!(
            p.node.object_id,
            u32::MAX,
            "assigned later by the model reader"
        );
        let (_, diags) =
            read::<ParticleEmitter>(b"ParticleEmitter \"x\" { Particle { Colour 1 } }");
        assert_eq!(diags.len(), 1);
    }

    // MdlxConv's layout (corpus `Alliance_Exp.mdl`), with more fields set.
    const PRE2: &str = r#"ParticleEmitter2 "BlizParticle01" {
	ObjectId 96,
	Parent 4,
	Unshaded,
	Unfogged,
	LineEmitter,
	static Speed 8.000000,
	static Variation 0.020000,
	static Latitude 180.000000,
	static Gravity 0.000000,
	Squirt,
	LifeSpan 0.800000,
	static EmissionRate 15.000000,
	static Width 6.108150,
	static Length 0.068777,
	Additive,
	Rows 2,
	Columns 4,
	Both,
	TailLength 1.000000,
	Time 0.500000,
	SegmentColor {
		Color { 0.1, 0.2, 0.3 },
		Color { 0.4, 0.5, 0.6 },
		Color { 0.7, 0.8, 0.9 },
	},
	Alpha {0, 255, 7},
	ParticleScaling { 10.000000, 20.000000, 30.000000 },
	LifeSpanUVAnim { 0, 0, 1 },
	DecayUVAnim { 1, 2, 3 },
	TailUVAnim { 4, 5, 6 },
	TailDecayUVAnim { 7, 8, 4294967295 },
	TextureID 6,
	ReplaceableId 2,
	Visibility 1 {
		DontInterp,
		0: 1,
	}
	Rotation 1 {
		DontInterp,
		GlobalSeqId 0,
		0: { 0, 0, 0, 1 },
	}
}
"#;

    #[test]
    fn particle_emitter2_reads_and_round_trips() {
        let p: ParticleEmitter2 = read_ok(PRE2);
        assert_eq!(
            p.node.flags,
            kind::PARTICLE_EMITTER | 0x8000 | 0x40000 | 0x20000
        );
        assert_eq!(
            [p.speed, p.variation, p.latitude, p.gravity],
            [8.0, 0.02, 180.0, 0.0]
        );
        assert_eq!((p.life_span, p.emission_rate, p.squirt), (0.8, 15.0, 1));
        // MdlxConv: its MDX twin holds 0.068777 first (field `length`), 6.10815 second.
        assert_eq!((p.length, p.width), (0.068777, 6.10815));
        assert_eq!(
            (p.filter_mode, p.rows, p.columns, p.head_or_tail),
            (1, 2, 4, 2)
        );
        assert_eq!((p.tail_length, p.time), (1.0, 0.5));
        assert_eq!(
            p.segment_colors,
            [[0.3, 0.2, 0.1], [0.6, 0.5, 0.4], [0.9, 0.8, 0.7]]
        );
        assert_eq!(p.segment_alphas, [0, 255, 7]);
        assert_eq!(p.segment_scaling, [10.0, 20.0, 30.0]);
        assert_eq!(p.head_intervals, [0, 0, 1]);
        assert_eq!(p.tail_decay_intervals, [7, 8, u32::MAX]);
        assert_eq!(
            (p.texture_id, p.replaceable_id, p.priority_plane),
            (6, 2, 0)
        );
        assert_eq!(tags(&p.tracks), [tk::KP2V]);
        assert_eq!(tags(&p.node.tracks), [tk::KGRT]);
        let s = round_trip(&p);
        assert!(s.contains("\tColor { 0.1, 0.2, 0.3 },\n"), "{s}");
        assert!(
            s.contains("static Width 6.10815,\n\tstatic Length 0.068777,\n"),
            "{s}"
        );
        assert!(!s.contains("PriorityPlane"), "{s}");
    }

    #[test]
    fn particle_emitter2_static_lines_follow_the_tracks() {
        let mut p: ParticleEmitter2 = read_ok(PRE2);
        p.emission_rate = 0.0;
        p.width = -0.0;
        p.tracks = Tracks(vec![
            float_track(tk::KP2W, &[(0, 1.0)]),
            float_track(tk::KP2E, &[(0, 2.0)]),
            float_track(tk::KP2N, &[(0, 3.0)]),
        ]);
        let s = round_trip(&p);
        assert!(!s.contains("static EmissionRate"), "{s}");
        assert!(
            s.contains("static Width -0,"),
            "bitwise non-zero keeps its line: {s}"
        );
        assert!(s.contains("static Length 0.068777,"), "{s}");
        p.tracks = Tracks::default();
        let s = round_trip(&p);
        assert!(
            s.contains("static EmissionRate 0,"),
            "not animated: always written: {s}"
        );
    }

    #[test]
    fn particle_emitter2_writes_what_words_can_say() {
        let mut p: ParticleEmitter2 = read_ok(PRE2);
        p.filter_mode = 3;
        p.head_or_tail = 0;
        p.squirt = 0;
        p.priority_plane = -2;
        let s = round_trip(&p);
        assert!(
            s.contains("\tModulate2x,\n") && s.contains("\tHead,\n"),
            "{s}"
        );
        // Unknown values are left out; the model writer keeps such records whole.
        p.filter_mode = 9;
        let back: ParticleEmitter2 = read_ok(&text(&p));
        assert_eq!(back.filter_mode, 0);
    }

    #[test]
    fn particle_emitter2_accepts_dialects() {
        let src = "ParticleEmitter2 \"x\" {\n\
            speed 2\n static LIFESPAN 3\n alphakey\n tail\n sortprimsfarz\n xyquad\n modelspace\n\
            Alpha { 1 2 3 }\n SegmentColor { Color { 1 2 3 } Color { 4, 5, 6 }, Color {7,8,9} }\n\
            PriorityPlane -1\n Width 5\n Length 6\n}";
        let p: ParticleEmitter2 = read_ok(src);
        assert_eq!(
            (p.speed, p.life_span, p.filter_mode, p.head_or_tail),
            (2.0, 3.0, 4, 1)
        );
        assert_eq!(
            p.node.flags,
            kind::PARTICLE_EMITTER | 0x10000 | 0x100000 | 0x80000
        );
        assert_eq!(p.segment_alphas, [1, 2, 3]);
        assert_eq!(p.segment_colors[2], [9.0, 8.0, 7.0]);
        assert_eq!((p.priority_plane, p.length, p.width), (-1, 6.0, 5.0));
        let (_, diags) =
            read::<ParticleEmitter2>(b"ParticleEmitter2 \"x\" { Alpha { 1, 2, 300 } }");
        assert_eq!(diags.len(), 1);
        let (_, diags) = read::<ParticleEmitter2>(
            b"ParticleEmitter2 \"x\" { SegmentColor { Color { 1, 2, 3 } } }",
        );
        assert_eq!(diags.len(), 1);
    }

    // Corpus `Alliance_Exp.mdl` (MdlxConv) and Magos' editor, plus tracks.
    const RIBBON: &str = r#"RibbonEmitter "BlizRibbon02" {
	ObjectId 109,
	Parent 89,
	static HeightAbove 10.000000,
	static HeightBelow 10.000000,
	Alpha 1 {
		DontInterp,
		0: 0.5,
	}
	static Color { 0.164706, 0.988235, 0.823529 },
	static TextureSlot 3,
	EmissionRate 35,
	LifeSpan 0.400000,
	Gravity 2.5,
	Rows 1,
	Columns 2,
	MaterialID 13,
	Visibility 1 {
		DontInterp,
		0: 1,
	}
}
"#;

    #[test]
    fn ribbon_emitter_reads_and_round_trips() {
        let r: RibbonEmitter = read_ok(RIBBON);
        assert_eq!(r.node.flags, kind::RIBBON_EMITTER);
        assert_eq!([r.height_above, r.height_below, r.alpha], [10.0, 10.0, 0.0]);
        // The MDX twin holds 0.823529, 0.988235, 0.164706 in this order.
        assert_eq!(r.color, [0.823529, 0.988235, 0.164706]);
        assert_eq!(
            (r.texture_slot, r.emission_rate, r.rows, r.columns),
            (3, 35, 1, 2)
        );
        assert_eq!((r.life_span, r.gravity, r.material_id), (0.4, 2.5, 13));
        assert_eq!(tags(&r.tracks), [tk::KRAL, tk::KRVS]);
        let s = round_trip(&r);
        assert!(!s.contains("static Alpha"), "{s}");
        assert!(
            s.contains("static Color { 0.164706, 0.988235, 0.823529 },"),
            "{s}"
        );
        let mut r = r;
        r.gravity = 0.0;
        r.tracks = Tracks(vec![
            Animation {
                tag: tk::KRTX,
                track: AnyTrack::Integer(Track {
                    interpolation: Interpolation::None,
                    global_sequence_id: -1,
                    keys: vec![Key {
                        time: 5,
                        value: 1,
                        in_tan: 0,
                        out_tan: 0,
                    }],
                }),
            },
            vector_track(tk::KRCO, &[(0, [1.0, 0.5, 0.0])]),
        ]);
        let s = round_trip(&r);
        assert!(
            !s.contains("Gravity") && s.contains("static Alpha 0,"),
            "{s}"
        );
        assert!(
            s.contains("TextureSlot 1 {") && s.contains("static TextureSlot 3,"),
            "{s}"
        );
        assert!(
            s.contains("0: { 1, 0.5, 0 },"),
            "animated colors are not reversed: {s}"
        );
    }

    // The corpus' only popcorn emitter (`riflemanSAWING.mdl`, version 1100), shortened.
    const POPCORN: &str = r#"ParticleEmitterPopcorn "RiflemanAttack" {
	ObjectId 136,
	Parent 117,
	static LifeSpan 1.0,
	EmissionRate 2 {
		Linear,
		100: 0.0,
		9100: 1.0,
	}
	static Speed 1.0,
	static Color { 1.0, 0.5, 0.25 },
	static Alpha 1.0,
	Visibility 1 {
		DontInterp,
		8933: 1.0,
	}
	Path "Units/Human/Rifleman/RiflemanAttack.pkfx",
	AnimVisibilityGuide "Always=off, Attack=on",
	Translation 1 {
		Linear,
		0: { 0.0, 0.0, 0.0 },
	}
}
"#;

    #[test]
    fn popcorn_emitter_reads_and_round_trips() {
        let p: PopcornEmitter = read_ok(POPCORN);
        assert_eq!(p.node.flags, kind::PARTICLE_EMITTER);
        assert_eq!(
            [p.life_span, p.emission_rate, p.speed, p.alpha],
            [1.0, 0.0, 1.0, 1.0]
        );
        assert_eq!(p.color, [0.25, 0.5, 1.0]);
        assert_eq!(p.path.text(), "Units/Human/Rifleman/RiflemanAttack.pkfx");
        assert_eq!(p.animation_visibility_guide.text(), "Always=off, Attack=on");
        assert_eq!(tags(&p.tracks), [tk::KPPE, tk::KPPV]);
        let mut p = p;
        p.replaceable_id = 1;
        p.node.flags |= 0x8000 | 0x40000;
        let s = round_trip(&p);
        assert!(
            s.contains("\tUnshaded,\n\tUnfogged,\n") && s.contains("ReplaceableId 1,"),
            "{s}"
        );
    }

    const CAMERA: &str = r#"Camera "Camera01" {
	Position { 100, 0, 50.5 },
	Rotation 1 {
		Linear,
		0: 0.25,
	}
	FieldOfView 0.75,
	FarClip 1000,
	NearClip 8,
	Target {
		Position { 0, 0, 40 },
		Translation 1 {
			Bezier,
			0: { 1, 2, 3 },
				InTan { 0, 0, 0 },
				OutTan { 1, 1, 1 },
		}
	}
	Translation 1 {
		Linear,
		0: { 4, 5, 6 },
	}
}
"#;

    #[test]
    fn camera_reads_and_round_trips() {
        let c: Camera = read_ok(CAMERA);
        assert_eq!(c.name.text(), "Camera01");
        assert_eq!(
            (c.position, c.target_position),
            ([100.0, 0.0, 50.5], [0.0, 0.0, 40.0])
        );
        assert_eq!(
            [c.field_of_view, c.far_clip, c.near_clip],
            [0.75, 1000.0, 8.0]
        );
        assert_eq!(tags(&c.tracks), [tk::KCRL, tk::KTTR, tk::KCTR]);
        round_trip(&c);
        let mut c = c;
        for order in [
            vec![tk::KCTR, tk::KCRL, tk::KTTR],
            vec![tk::KTTR, tk::KCTR, tk::KTTR],
            vec![tk::KCTR, tk::KTTR],
            vec![],
        ] {
            let track = |t| match t {
                t if t == tk::KCRL => float_track(t, &[(0, 1.0)]),
                t => vector_track(t, &[(0, [1.0, 2.0, 3.0])]),
            };
            c.tracks = Tracks(order.into_iter().map(track).collect());
            let s = round_trip(&c);
            assert!(
                s.contains("\tTarget {\n\t\tPosition { 0, 0, 40 },\n"),
                "{s}"
            );
        }
    }

    #[test]
    fn unknown_keywords_are_errors() {
        let (_, d) = read::<Camera>(b"Camera \"c\" { Zoom 2, Target { Roll 1 } }");
        assert_eq!(d.len(), 2);
        let (_, d) = read::<RibbonEmitter>(b"RibbonEmitter \"r\" { Squirt }");
        assert_eq!(d.len(), 1);
        let (_, d) = read::<PopcornEmitter>(b"ParticleEmitterPopcorn \"p\" { Squirt }");
        assert_eq!(d.len(), 1);
    }
}
