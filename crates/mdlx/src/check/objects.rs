//! The header, materials and textures, and the rules of single node kinds (lights,
//! attachments, emitters, face effects, helpers); unused records.

use super::rules::*;
use super::{At, Findings};
use crate::model::{shader_type, Model};
use crate::spec::track as tk;

/// Replaceable ids the game fills (team colour, team glow, cliffs, trees).
const REPLACEABLE: &[u32] = &[1, 2, 11, 21, 31, 32, 33, 34, 35, 36, 37];

fn ends_with_any(path: &str, exts: &[&str]) -> bool {
    let p = path.to_ascii_lowercase();
    exts.iter().any(|e| p.ends_with(e))
}

pub(crate) fn header(m: &Model, f: &mut Findings) {
    if !crate::model::is_known_version(m.version) {
        let msg = format!(
            "version {} is none the game writes (800, or 900 to 1800 in steps of 100): convert it with --version",
            m.version
        );
        f.add(&UNKNOWN_VERSION, &At::model().sub("version"), msg);
    }
    if m.version == 900 {
        f.add(
            &VERSION_900,
            &At::model().sub("version"),
            "version 900 (the 1.32 beta format) does not load in the game: convert it with --version 1000",
        );
    }
    let file = m.info.animation_file.text();
    if !file.is_empty() {
        let msg = format!("animation file \"{file}\" is set; the game ignores it: leave it empty");
        f.add(
            &ANIMATION_FILE,
            &At::model().sub("info.animation_file"),
            msg,
        );
    }
}

pub(crate) fn materials(m: &Model, f: &mut Findings) {
    if m.textures.is_empty() {
        f.add(&NO_TEXTURES, &At::model(), "the model has no textures");
    }
    if m.materials.is_empty() && !m.geosets.is_empty() {
        f.add(
            &NO_MATERIALS,
            &At::model(),
            "geosets but no materials: nothing can be drawn",
        );
    }
    for (i, t) in m.textures.iter().enumerate() {
        let path = t.path.text();
        let at = At::record("textures", i, (!path.is_empty()).then_some(&*path));
        if !path.is_empty() && !ends_with_any(&path, &[".blp", ".tga", ".tif", ".dds"]) {
            let msg = "the path does not end in .blp, .tga, .tif or .dds: the game cannot load it";
            f.add(&TEXTURE_EXTENSION, &at.sub("path"), msg);
        }
        let r = t.replaceable_id;
        if r != 0 && !REPLACEABLE.contains(&r) {
            let msg = format!("replaceable id {r} is none the game fills (1 team colour, 2 team glow, 11 cliff, 21 and 31-37 trees)");
            f.add(&UNKNOWN_REPLACEABLE, &at.sub("replaceable_id"), msg);
        }
        if r != 0 && !path.is_empty() {
            let msg =
                format!("replaceable id {r} and a path: the game uses the id; clear the path");
            f.add(&REPLACEABLE_WITH_PATH, &at, msg);
        }
    }
    for (i, mat) in m.materials.iter().enumerate() {
        let at = At::record("materials", i, None);
        let shader = mat.shader.text();
        if m.version > 800
            && !shader.is_empty()
            && !shader_type::NAMES.iter().any(|(_, n)| *n == shader)
        {
            let msg = format!("shader \"{shader}\" is none the game has (Shader_SD_FixedFunction, Shader_HD_DefaultUnit, ...)");
            f.add(&UNKNOWN_SHADER, &at.sub("shader"), msg);
        }
        if mat.layers.is_empty() {
            f.add(
                &NO_LAYERS,
                &at.sub("layers"),
                "the material has no layers: it draws nothing",
            );
        }
        for (j, l) in mat.layers.iter().enumerate() {
            let at = at.sub(format!("layers[{j}]"));
            if l.filter_mode > 6 {
                let msg = format!(
                    "filter mode {} is not 0 (None) to 6 (Modulate2x)",
                    l.filter_mode
                );
                f.add(&FILTER_MODE, &at.sub("filter_mode"), msg);
            }
            if m.version >= crate::spec::version::TEXTURE_SLOTS
                && !shader_type::NAMES
                    .iter()
                    .any(|(n, _)| *n == l.shader_type_id)
            {
                let msg = format!(
                    "shader type {} is none the game has (0, 1, 2, 24)",
                    l.shader_type_id
                );
                f.add(&UNKNOWN_SHADER, &at.sub("shader_type_id"), msg);
            }
        }
    }
}

pub(crate) fn nodes(m: &Model, f: &mut Findings) {
    for (i, l) in m.lights.iter().enumerate() {
        let at = At::record("lights", i, Some(&l.node.name.text()));
        let (s, e) = (l.attenuation_start, l.attenuation_end);
        if s < 80.0 || e > 200.0 || e <= s {
            let msg = format!("attenuation {s} to {e}: the game's lights use a start of at least 80, an end of at most 200, and the end after the start");
            f.add(&LIGHT_ATTENUATION, &at, msg);
        }
    }
    let mut origin = false;
    for (i, a) in m.attachments.iter().enumerate() {
        let name = a.node.name.text();
        origin |= name.starts_with("Origin Ref");
        let path = a.path.text();
        if !path.is_empty() && !ends_with_any(&path, &[".mdl", ".mdx"]) {
            let at = At::record("attachments", i, Some(&name)).sub("path");
            f.add(
                &ATTACHMENT_PATH,
                &at,
                format!("path \"{path}\" is not a model (.mdl or .mdx)"),
            );
        }
    }
    if !origin && !m.geosets.is_empty() {
        f.add(
            &MISSING_ORIGIN,
            &At::model().sub("attachments"),
            "no attachment named Origin Ref: effects placed on the unit's origin have nowhere to go",
        );
    }
    for (i, e) in m.particle_emitters.iter().enumerate() {
        let path = e.path.text();
        if !ends_with_any(&path, &[".mdl", ".mdx"]) {
            let at = At::record("particle_emitters", i, Some(&e.node.name.text())).sub("path");
            f.add(
                &EMITTER_PATH,
                &at,
                format!("path \"{path}\" is not a model (.mdl or .mdx): the emitter emits nothing"),
            );
        }
    }
    for (i, e) in m.particle_emitters2.iter().enumerate() {
        let at = At::record("particle_emitters2", i, Some(&e.node.name.text()));
        if e.filter_mode > 4 {
            let msg = format!(
                "filter mode {} is not 0 (Blend) to 4 (AlphaKey)",
                e.filter_mode
            );
            f.add(&FILTER_MODE, &at.sub("filter_mode"), msg);
        }
        let r = e.replaceable_id;
        if r != 0 && !REPLACEABLE.contains(&r) {
            let msg = format!("replaceable id {r} is none the game fills (1, 2, 11, 21, 31-37)");
            f.add(&UNKNOWN_REPLACEABLE, &at.sub("replaceable_id"), msg);
        }
        if e.node.flags & 0x100000 != 0 && (e.speed == 0.0 || e.latitude == 0.0) {
            f.add(
                &XY_QUAD_SPEED,
                &at,
                "an XY-quad emitter with zero speed or latitude shows nothing: give it both",
            );
        }
        if !(0.0..=1.0).contains(&e.time) {
            let msg = format!("middle time {} is not between 0 and 1", e.time);
            f.add(&TIME_MIDDLE, &at.sub("time"), msg);
        }
        if e.squirt != 0 && e.tracks.float(tk::KP2E).is_none() {
            f.add(&SQUIRT, &at, "squirts without an emission rate track: it never bursts; animate the emission rate");
        }
    }
    if m.version > 800 {
        for (i, e) in m.popcorn_emitters.iter().enumerate() {
            if e.animation_visibility_guide.is_empty() {
                let at = At::record("popcorn_emitters", i, Some(&e.node.name.text()));
                f.add(
                    &POPCORN_GUIDE,
                    &at.sub("animation_visibility_guide"),
                    "no animation visibility guide: say in which sequences it shows",
                );
            }
        }
        for (i, e) in m.face_effects.iter().enumerate() {
            let path = e.path.text();
            if !path.is_empty() && !path.ends_with(".facefx") && !path.ends_with(".facefx_ingame") {
                let at = At::record("face_effects", i, Some(&e.name.text())).sub("path");
                f.add(
                    &FACE_EFFECT_PATH,
                    &at,
                    format!("path \"{path}\" is no .facefx or .facefx_ingame file"),
                );
            }
        }
    }
    // Helpers that move nothing: no child, no animation.
    let mut parents = std::collections::HashSet::new();
    crate::anim::Skeleton::new(m).nodes.iter().for_each(|n| {
        parents.insert(n.node.parent_id);
    });
    for (i, h) in m.helpers.iter().enumerate() {
        if !parents.contains(&(h.node.object_id as i32)) && h.node.tracks.is_empty() {
            let at = At::record("helpers", i, Some(&h.node.name.text()));
            f.add(
                &HELPER_CHILDLESS,
                &at,
                "no child node and no animation: it moves nothing; remove it",
            );
        }
    }
}

/// Textures, materials, texture animations and global sequences nothing refers to.
pub(crate) fn unused(m: &Model, f: &mut Findings) {
    let u = crate::model::usage::Usage::of(m);
    let report = |f: &mut Findings,
                  rule: &'static Rule,
                  list: &'static str,
                  uses: &[u32],
                  name: &dyn Fn(usize) -> Option<String>,
                  say: &str| {
        for (i, &n) in uses.iter().enumerate() {
            if n == 0 {
                f.add(rule, &At::record(list, i, name(i).as_deref()), say);
            }
        }
    };
    let tex_name = |i: usize| Some(m.textures[i].path.text().into_owned());
    report(
        f,
        &UNUSED_TEXTURE,
        "textures",
        &u.textures,
        &tex_name,
        "nothing uses this texture: remove it (--fix)",
    );
    report(
        f,
        &UNUSED_MATERIAL,
        "materials",
        &u.materials,
        &|_| None,
        "no geoset or ribbon uses this material: remove it (--fix)",
    );
    report(
        f,
        &UNUSED_TEXTURE_ANIMATION,
        "texture_animations",
        &u.texture_animations,
        &|_| None,
        "no layer uses this texture animation: remove it (--fix)",
    );
    report(
        f,
        &UNUSED_GLOBAL_SEQUENCE,
        "global_sequences",
        &u.global_sequences,
        &|_| None,
        "no track runs on this global sequence: remove it (--fix)",
    );
}
