//! Model-level blocks: `Version`, `Model`, `GlobalSequences`, `PivotPoints`, and the
//! Reforged `FaceFX` and `BindPose` blocks.

use crate::mdl::cx::{is, Cx};
use crate::mdl::out::Out;
use crate::model::{Model, ModelInfo};

/// `Num*` lines of the Model block, with what they count. Written for orientation only;
/// reading ignores them (counts are computed).
/// A count of the model, for a `Num*` line.
type Counter = fn(&Model) -> usize;

const NUM_LINES: &[(&str, Counter)] = &[
    ("NumGeosets", |m| m.geosets.len()),
    ("NumGeosetAnims", |m| m.geoset_animations.len()),
    ("NumHelpers", |m| m.helpers.len()),
    ("NumLights", |m| m.lights.len()),
    ("NumBones", |m| m.bones.len()),
    ("NumAttachments", |m| m.attachments.len()),
    ("NumParticleEmitters", |m| m.particle_emitters.len()),
    ("NumParticleEmitters2", |m| m.particle_emitters2.len()),
    ("NumRibbonEmitters", |m| m.ribbon_emitters.len()),
    ("NumEvents", |m| m.event_objects.len()),
];

/// Reads `Version { FormatVersion n }`.
pub(crate) fn read_version(cx: &mut Cx, i: usize) -> Option<u32> {
    let mut v = None;
    for c in cx.children(i) {
        if is(cx.key(c), "FormatVersion") {
            v = cx.u32_arg(c, "FormatVersion");
        } else {
            cx.unknown(c, "Version", &["FormatVersion"]);
        }
    }
    v
}

/// Writes the Version block.
pub(crate) fn write_version(out: &mut Out, version: u32) {
    out.open("Version");
    out.kv_int("FormatVersion", version as i64);
    out.close();
}

/// Reads the `Model "name" { ... }` block into `info`.
pub(crate) fn read_info(cx: &mut Cx, i: usize, info: &mut ModelInfo) {
    info.name = cx.name_arg(i);
    for c in cx.children(i) {
        let k = cx.key(c);
        if is(k, "BlendTime") {
            info.blend_time = cx.u32_arg(c, "BlendTime").unwrap_or(0);
        } else if is(k, "MinimumExtent") {
            info.extent.min = cx.floats(c).unwrap_or_default();
        } else if is(k, "MaximumExtent") {
            info.extent.max = cx.floats(c).unwrap_or_default();
        } else if is(k, "BoundsRadius") {
            info.extent.radius = cx.f32_arg(c).unwrap_or(0.0);
        } else if is(k, "AnimationFile") {
            info.animation_file = cx.str_arg(c).unwrap_or_default();
        } else if !NUM_LINES.iter().any(|(n, _)| is(k, n)) && !k.starts_with(b"Num") {
            cx.unknown(
                c,
                "Model",
                &[
                    "BlendTime",
                    "MinimumExtent",
                    "MaximumExtent",
                    "BoundsRadius",
                    "AnimationFile",
                    "Num...",
                ],
            );
        }
    }
}

/// Writes the Model block.
pub(crate) fn write_info(out: &mut Out, m: &Model) {
    out.open_named("Model", &m.info.name);
    for (key, count) in NUM_LINES {
        let n = count(m);
        if n > 0 {
            out.kv_int(key, n as i64);
        }
    }
    out.kv_int("BlendTime", m.info.blend_time as i64);
    super::geoset::write_extent(out, &m.info.extent);
    if !m.info.animation_file.as_bytes().is_empty() {
        out.kv_str("AnimationFile", &m.info.animation_file);
    }
    out.close();
}

/// Reads `GlobalSequences n { Duration d, ... }`.
pub(crate) fn read_global_sequences(cx: &mut Cx, i: usize, out: &mut Vec<u32>) {
    for c in cx.children(i) {
        if is(cx.key(c), "Duration") {
            out.push(cx.u32_arg(c, "Duration").unwrap_or(0));
        } else {
            cx.unknown(c, "GlobalSequences", &["Duration"]);
        }
    }
}

/// Writes the GlobalSequences block.
pub(crate) fn write_global_sequences(out: &mut Out, v: &[u32]) {
    out.open_counted("GlobalSequences", v.len());
    for d in v {
        out.kv_int("Duration", *d as i64);
    }
    out.close();
}

/// Writes `Key n { { a, b, c }, ... }`.
pub(crate) fn write_float_list<const N: usize>(out: &mut Out, key: &str, v: &[[f32; N]]) {
    out.open_counted(key, v.len());
    for x in v {
        out.indent();
        out.floats(x);
        out.raw(",\n");
    }
    out.close();
}

/// Reads `BindPose { Matrices n { { 12 floats }, ... } }`.
pub(crate) fn read_bind_pose(cx: &mut Cx, i: usize, out: &mut Vec<[f32; 12]>) {
    for c in cx.children(i) {
        if is(cx.key(c), "Matrices") {
            out.extend(cx.float_list::<12>(c));
        } else {
            cx.unknown(c, "BindPose", &["Matrices"]);
        }
    }
}

/// Writes the BindPose block.
pub(crate) fn write_bind_pose(out: &mut Out, v: &[[f32; 12]]) {
    out.open("BindPose");
    write_float_list(out, "Matrices", v);
    out.close();
}
