//! HD materials as classic layers (see the choices in [`super`]).

use crate::model::shader_type::{HD_DEFAULT_UNIT, HD_SHADER};
use crate::model::{filter_mode, layer_flags, Layer, Material, Model, Tracks};
use crate::spec::track;
use crate::Loss;

/// The texture roles of an HD material, in slot order.
pub(super) const ROLES: [&str; 6] = [
    "diffuse",
    "normal",
    "ORM",
    "emissive",
    "team colour",
    "environment",
];
const DIFFUSE: usize = 0;
const ORM: usize = 2;
const EMISSIVE: usize = 3;
const TEAM: usize = 4;

/// A texture a classic layer draws: a texture of the model as it is, or a diffuse
/// texture whose alpha becomes the inverse of an ORM texture's alpha (the team-colour
/// mask), so that the team-colour layer under it shows there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Job {
    /// Texture id, drawn as it is.
    Plain(usize),
    /// Diffuse texture id and ORM texture id.
    Masked(usize, usize),
}

/// An HD material's shading layer and its texture ids by role (-1 where missing).
fn hd_roles(m: &Material) -> Option<(&Layer, [i32; 6])> {
    let first = m.layers.first()?;
    let mut roles = [-1i32; 6];
    if m.shader.as_bytes() == HD_SHADER.as_bytes() {
        for (i, l) in m.layers.iter().take(6).enumerate() {
            roles[i] = l.texture_id;
        }
        return Some((first, roles));
    }
    if m.layers.len() == 1 && first.shader_type_id == HD_DEFAULT_UNIT {
        for s in &first.texture_slots {
            if let Some(r) = roles.get_mut(s.role as usize) {
                *r = s.texture_id;
            }
        }
        if roles[DIFFUSE] < 0 {
            roles[DIFFUSE] = first.texture_id;
        }
        return Some((first, roles));
    }
    None
}

/// Whether texture `id` of `model` is the team colour (replaceable id 1).
fn is_team(model: &Model, id: i32) -> bool {
    usize::try_from(id)
        .ok()
        .and_then(|i| model.textures.get(i))
        .is_some_and(|t| t.replaceable_id == 1)
}

/// Whether texture `id` is a file whose name says it is black (the HD material's "no
/// emission", `Textures\Black32.blp`), or no file at all.
fn black_or_none(model: &Model, id: i32) -> bool {
    usize::try_from(id)
        .ok()
        .and_then(|i| model.textures.get(i))
        .is_none_or(|t| {
            t.replaceable_id != 0
                || t.path.is_empty()
                || t.path.text().to_ascii_lowercase().contains("black")
        })
}

/// A classic layer with `base`'s shading, alpha and alpha animation, drawing `texture`.
fn classic_layer(base: &Layer, texture: i32, filter: u32, flags: u32) -> Layer {
    let mut tracks = Tracks::default();
    for a in base.tracks.iter() {
        if a.tag == track::KMTA {
            tracks.0.push(a.clone());
        }
    }
    Layer {
        filter_mode: filter,
        flags,
        texture_id: texture,
        texture_animation_id: base.texture_animation_id,
        coord_id: base.coord_id,
        alpha: base.alpha,
        emissive_gain: 1.0,
        fresnel_color: [1.0; 3],
        tracks,
        ..Layer::default()
    }
}

/// The classic form of every HD material of `model` (others stay for
/// [`Model::to_version`]); returns, per layer of the new materials that draws a texture
/// this conversion makes, (material, layer, job).
pub(super) fn convert(
    model: &mut Model,
    losses: &mut Vec<Loss>,
    emissive_shows: &dyn Fn(&Model, usize) -> bool,
) -> Vec<(usize, usize, Job)> {
    let mut jobs = Vec::new();
    let mut new_materials = Vec::with_capacity(model.materials.len());
    for (mi, m) in model.materials.iter().enumerate() {
        let Some((base, roles)) = hd_roles(m) else {
            new_materials.push(m.clone());
            continue;
        };
        let place = format!("Material[{mi}]");
        let base = base.clone();
        // Classic flags the HD layer also has; the rest are Reforged's.
        let keep = layer_flags::UNSHADED
            | layer_flags::SPHERE_ENV_MAP
            | layer_flags::TWO_SIDED
            | layer_flags::UNFOGGED
            | layer_flags::NO_DEPTH_TEST
            | layer_flags::NO_DEPTH_SET;
        let flags = base.flags & keep;
        let dropped_tracks: Vec<String> = base
            .tracks
            .iter()
            .filter(|a| a.tag != track::KMTA)
            .map(|a| a.tag.text())
            .collect();
        if !dropped_tracks.is_empty() {
            losses.push(Loss::new(
                place.clone(),
                format!(
                    "HD layer animations {} (no classic form)",
                    dropped_tracks.join(", ")
                ),
            ));
        }
        let mut layers = Vec::new();
        let team = is_team(model, roles[TEAM]);
        let diffuse = roles[DIFFUSE];
        let opaque = base.filter_mode == filter_mode::NONE;
        if team && opaque && diffuse >= 0 {
            layers.push(classic_layer(&base, roles[TEAM], filter_mode::NONE, flags));
            let job = match usize::try_from(roles[ORM]) {
                Ok(orm) if !is_team(model, roles[ORM]) => Job::Masked(diffuse as usize, orm),
                _ => Job::Plain(diffuse as usize),
            };
            jobs.push((mi, layers.len(), job));
            layers.push(classic_layer(&base, diffuse, filter_mode::BLEND, flags));
        } else {
            if team {
                losses.push(Loss::new(
                    place.clone(),
                    "team colour not shown (the HD material is not opaque: its diffuse alpha cuts or blends, so it cannot also carry the team-colour mask)",
                ));
            }
            if diffuse >= 0 {
                jobs.push((mi, layers.len(), Job::Plain(diffuse as usize)));
            }
            layers.push(classic_layer(
                &base,
                diffuse.max(0),
                base.filter_mode,
                flags,
            ));
        }
        let emissive = roles[EMISSIVE];
        if !black_or_none(model, emissive) && emissive_shows(model, emissive as usize) {
            jobs.push((mi, layers.len(), Job::Plain(emissive as usize)));
            layers.push(classic_layer(
                &base,
                emissive,
                filter_mode::ADDITIVE,
                flags | layer_flags::UNSHADED,
            ));
        }
        let mut unused: Vec<&str> = Vec::new();
        for (r, &id) in roles.iter().enumerate() {
            let used = r == DIFFUSE
                || (r == TEAM && team && opaque)
                || (r == ORM && team && opaque)
                || (r == EMISSIVE && layers.len() > 1 + usize::from(team && opaque));
            if id >= 0 && !used && !(r == EMISSIVE && black_or_none(model, id)) {
                unused.push(ROLES[r]);
            }
        }
        if !unused.is_empty() {
            losses.push(Loss::new(
                place.clone(),
                format!(
                    "HD shading: the {} textures are not drawn by the classic client",
                    unused.join(", ")
                ),
            ));
        }
        new_materials.push(Material {
            priority_plane: m.priority_plane,
            flags: m.flags,
            shader: Default::default(),
            layers,
            tail: m.tail.clone(),
        });
    }
    model.materials = new_materials;
    jobs
}
