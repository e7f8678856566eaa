//! Materials (their base colour image) and cameras (their place).

use super::{far, Changes, Ids, TOLERANCE};
use crate::convert::gltf::export::base_texture;
use crate::convert::gltf::import::{Import, ImportedTexture, Sources};
use crate::model::{Material, Model, Texture};

/// Where the materials went, and the textures the result needs written.
pub(super) struct Mats {
    /// By fresh material id: the result's material id.
    pub(super) of_fresh: Vec<Option<u32>>,
    /// Textures to write beside the model: the glTF's images that are new to it.
    pub(super) textures: Vec<ImportedTexture>,
    /// The materials new in the glTF: their id in the result and the change that says so.
    added: Vec<(u32, String)>,
    /// The material ids of the geosets taken from the glTF.
    pub(super) taken: std::collections::BTreeSet<u32>,
}

/// The image name Blender gives a texture path: the path (cut to 63 bytes) without its
/// extension.
fn stem(name: &str) -> &str {
    match name.rsplit_once('.') {
        Some((s, e)) if !e.contains(['\\', '/']) && !s.is_empty() => s,
        _ => name,
    }
}

/// The name of the image of glTF material `g`'s base colour texture.
fn base_image(doc: &gltf_json::Root, g: usize) -> Option<String> {
    let t = doc.materials[g]
        .pbr_metallic_roughness
        .base_color_texture
        .as_ref()?
        .index
        .value();
    let image = doc.textures.get(t)?.source.value();
    let img = doc.images.get(image)?;
    img.name.clone().or_else(|| img.uri.clone())
}

/// The texture id of `path` in `out`, added (a copy of `like` with that path) when `out`
/// has none.
fn texture_id(out: &mut Model, like: &Texture) -> i32 {
    let path = like.path.to_string();
    if let Some(i) = out
        .textures
        .iter()
        .position(|t| t.replaceable_id == like.replaceable_id && t.path.to_string() == path)
    {
        return i as i32;
    }
    out.textures.push(like.clone());
    out.textures.len() as i32 - 1
}

/// Points the material's base colour (the layer or slot the export draws from, which holds
/// texture `old`) at texture `id`.
fn set_base_texture(m: &mut Material, id: i32, old: i32) {
    for l in &mut m.layers {
        if l.texture_id == old {
            l.texture_id = id;
            for s in &mut l.texture_slots {
                if s.texture_id == old {
                    s.texture_id = id;
                }
            }
            return;
        }
        if let Some(s) = l.texture_slots.first_mut().filter(|s| s.texture_id == old) {
            s.texture_id = id;
            return;
        }
    }
}

/// The fresh material `fm` and its textures added to `out` (a material new in the glTF).
fn add_material(out: &mut Model, f: &Model, fm: usize) -> u32 {
    let mut m = f.materials[fm].clone();
    for l in &mut m.layers {
        if let Some(t) = usize::try_from(l.texture_id)
            .ok()
            .and_then(|i| f.textures.get(i))
        {
            l.texture_id = texture_id(out, t);
        }
        for s in &mut l.texture_slots {
            if let Some(t) = usize::try_from(s.texture_id)
                .ok()
                .and_then(|i| f.textures.get(i))
            {
                s.texture_id = texture_id(out, t);
            }
        }
    }
    out.materials.push(m);
    out.materials.len() as u32 - 1
}

/// Merges the materials into `out` (see the module documentation of [`super`]).
pub(super) fn merge(
    out: &mut Model,
    kept: &Model,
    fresh: &Import,
    sources: &Sources,
    doc: &gltf_json::Root,
    ids: &Ids,
    changes: &mut Changes,
) -> Mats {
    let f = &fresh.model;
    let mut mats = Mats {
        of_fresh: vec![None; f.materials.len()],
        textures: Vec::new(),
        added: Vec::new(),
        taken: Default::default(),
    };
    let mut wanted: Vec<String> = Vec::new();
    let mut done = std::collections::HashSet::new();
    for (fm, src) in sources.materials.iter().enumerate() {
        let Some(g) = *src else { continue };
        let Some(mi) = ids
            .materials
            .get(g)
            .copied()
            .flatten()
            .filter(|&m| m < kept.materials.len())
        else {
            let id = add_material(out, f, fm);
            mats.of_fresh[fm] = Some(id);
            wanted.extend(paths(f, fm));
            let note = format!(
                "new material {:?}",
                doc.materials[g].name.clone().unwrap_or_default()
            );
            changes.add(note.clone());
            mats.added.push((id, note));
            continue;
        };
        mats.of_fresh[fm] = Some(mi as u32);
        if !done.insert(mi) {
            continue;
        }
        // The image the export gave the base colour, against the one the glTF has now.
        let old = base_texture(kept, mi);
        let exported = old
            .and_then(|t| usize::try_from(t).ok())
            .and_then(|t| kept.textures.get(t))
            .map(|t| t.path.to_string())
            .filter(|p| !p.is_empty());
        let now = base_image(doc, g);
        let same = match (&exported, &now) {
            (Some(e), Some(n)) => {
                let short = crate::convert::gltf::export::short_name(e);
                stem(&short) == stem(n) || short == *n
            }
            (None, None) => true,
            // The export found no file for the texture and wrote no image.
            (Some(_), None) => true,
            (None, Some(_)) => false,
        };
        if same {
            continue;
        }
        let Some(new) = base_texture(f, fm)
            .and_then(|t| usize::try_from(t).ok())
            .and_then(|t| f.textures.get(t))
        else {
            continue;
        };
        let id = texture_id(out, new);
        set_base_texture(&mut out.materials[mi], id, old.unwrap_or(-1));
        wanted.push(new.path.to_string());
        changes.add(format!(
            "Material[{mi}]: base colour image {:?} (texture {:?})",
            now.unwrap_or_default(),
            new.path.to_string()
        ));
    }
    mats.textures = fresh
        .textures
        .iter()
        .filter(|t| wanted.contains(&t.path))
        .cloned()
        .collect();
    mats
}

/// Drops the materials new in the glTF that no geoset taken from it uses (a glTF has a
/// material for a mesh whose material it did not find, and an editor may keep one no mesh
/// uses), with the textures only they used and the changes that named them.
pub(super) fn drop_unused(out: &mut Model, kept: &Model, mats: &mut Mats, changes: &mut Changes) {
    let gone: std::collections::BTreeSet<u32> = mats
        .added
        .iter()
        .filter(|(id, _)| !mats.taken.contains(id))
        .map(|&(id, _)| id)
        .collect();
    if gone.is_empty() {
        return;
    }
    let notes: Vec<&String> = mats
        .added
        .iter()
        .filter(|(id, _)| gone.contains(id))
        .map(|(_, n)| n)
        .collect();
    changes.0.retain(|c| !notes.contains(&c));
    let had = out.materials.len() as u32;
    let mut i = 0u32;
    out.materials.retain(|_| {
        i += 1;
        !gone.contains(&(i - 1))
    });
    // (A geoset kept as it was may name a material the model lacks: that stays as it is.)
    for g in out.geosets.iter_mut().filter(|g| g.material_id < had) {
        g.material_id -= gone.range(..g.material_id).count() as u32;
    }
    // Textures appended for the materials dropped and now used by none.
    let refs = |m: &Material| {
        m.layers
            .iter()
            .flat_map(|l| {
                std::iter::once(l.texture_id).chain(l.texture_slots.iter().map(|s| s.texture_id))
            })
            .collect::<Vec<i32>>()
    };
    let used: std::collections::HashSet<i32> = out.materials.iter().flat_map(refs).collect();
    let first = kept.textures.len() as i32;
    let dead: std::collections::BTreeSet<i32> = (first..out.textures.len() as i32)
        .filter(|t| !used.contains(t))
        .collect();
    let had = out.textures.len() as i32;
    let mut t = 0i32;
    out.textures.retain(|_| {
        t += 1;
        !dead.contains(&(t - 1))
    });
    let shift = |id: &mut i32| {
        if (0..had).contains(id) {
            *id -= dead.range(..*id).count() as i32
        }
    };
    for l in out.materials.iter_mut().flat_map(|m| m.layers.iter_mut()) {
        shift(&mut l.texture_id);
        l.texture_slots
            .iter_mut()
            .for_each(|s| shift(&mut s.texture_id));
    }
    let paths: Vec<String> = out.textures.iter().map(|t| t.path.to_string()).collect();
    mats.textures.retain(|t| paths.contains(&t.path));
}

/// The texture paths of fresh material `fm`.
fn paths(f: &Model, fm: usize) -> Vec<String> {
    let mut out = Vec::new();
    for l in &f.materials[fm].layers {
        let ids = std::iter::once(l.texture_id).chain(l.texture_slots.iter().map(|s| s.texture_id));
        for id in ids {
            if let Some(t) = usize::try_from(id).ok().and_then(|i| f.textures.get(i)) {
                out.push(t.path.to_string());
            }
        }
    }
    out
}

/// Cameras: a camera node of the glTF keeps the model's camera unless it moved (then its
/// eye, with the target moved as far); a camera the glTF no longer has is removed; one
/// without identity is new (looking down its -Z, as glTF cameras do).
pub(super) fn cameras(
    out: &mut Model,
    kept: &Model,
    doc: &gltf_json::Root,
    ids: &Ids,
    world: &[crate::anim::math::Mat4],
    size: f32,
    changes: &mut Changes,
) {
    use crate::convert::gltf::from_y_up;
    let mut keep = vec![false; kept.cameras.len()];
    let mut added = Vec::new();
    for (g, node) in doc.nodes.iter().enumerate() {
        let Some(cam) = node.camera.and_then(|c| doc.cameras.get(c.value())) else {
            continue;
        };
        let w = world[g];
        let eye = from_y_up([w[12], w[13], w[14]]);
        match ids.cameras[g].filter(|&c| c < kept.cameras.len() && !keep[c]) {
            Some(c) => {
                keep[c] = true;
                let was = kept.cameras[c].position;
                if (0..3).any(|k| far((eye[k] - was[k]).abs(), TOLERANCE * size)) {
                    let cam = &mut out.cameras[c];
                    let d = [0, 1, 2].map(|k| eye[k] - was[k]);
                    cam.position = eye;
                    cam.target_position = [0, 1, 2].map(|k| cam.target_position[k] + d[k]);
                    changes.add(format!("Camera[{c}] {:?} moved", cam.name.to_string()));
                }
            }
            None => {
                let Some(p) = &cam.perspective else { continue };
                let fwd = from_y_up(crate::anim::math::normalize([-w[8], -w[9], -w[10]]));
                let name = node.name.clone().unwrap_or_else(|| format!("Camera {g}"));
                let mut c = crate::model::Camera {
                    position: eye,
                    target_position: [0, 1, 2].map(|k| eye[k] + fwd[k] * size),
                    field_of_view: p.yfov,
                    near_clip: p.znear,
                    far_clip: p.zfar.unwrap_or(10000.0),
                    ..Default::default()
                };
                c.name.set(&name);
                changes.add(format!("new camera {name:?}"));
                added.push(c);
            }
        }
    }
    if keep.iter().any(|k| !k) {
        let mut i = 0;
        out.cameras.retain(|c| {
            i += 1;
            if !keep[i - 1] {
                changes.add(format!("camera {:?} removed", c.name.to_string()));
            }
            keep[i - 1]
        });
    }
    out.cameras.extend(added);
}
