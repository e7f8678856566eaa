//! Reforged (900+) to classic (800): a model the classic client draws and animates, with
//! a report of what it could not carry ([`to_classic`]).
//!
//! [`Model::to_version`] changes a version losslessly where it can and drops what the
//! target lacks; for a Reforged model going to 800 that leaves vertices that follow no
//! bone (skin weights gone), six-layer HD materials and `.dds` paths. This conversion does
//! what a modder would do by hand, and leaves the rest to `to_version`:
//!
//! - **Levels of detail.** The geosets of LOD 0 (or [`ClassicOptions::lod`]) and those
//!   drawn at every level (LOD -1, stored as `0xFFFFFFFF`) stay; the others go with their
//!   geoset animations, each listed; geoset animations and bones' geoset ids are
//!   renumbered.
//! - **Skinning.** Skin weights (four bones and weights out of 255 per vertex) become the
//!   nearest version 800 matrix group of at most four entries, a bone repeated to weigh
//!   more (the rule the glTF import uses, shared in `convert::skin`). Vertices bound to
//!   nothing (weights summing to 0, or a group naming no node), which a Reforged model
//!   leaves where they are stored, follow a bone that never moves: one of the model's, or
//!   a new `Classic_Root` bone. The error is measured, not assumed: the original (skin
//!   weights) and the result (groups) are posed at the start, middle and end of every
//!   sequence and the largest distance between a vertex's two places is
//!   [`Classic::skinning_error`].
//! - **Limits.** A geoset whose vertices name more than 255 matrix groups (a vertex names
//!   its group in one byte, `GNDX`, and mdx-m3-viewer reads 255 as no group) or that holds
//!   more than 7,394 vertices is split by triangles. mdx-m3-viewer's sanity test records
//!   an SD geoset of 7,433 vertices rendering torn in the game and one of 7,394 rendering
//!   well (so the largest known good count is the limit).
//! - **HD materials** (version 900/1000: shader `Shader_HD_DefaultUnit`, six layers, one
//!   per role: diffuse, normal, ORM, emissive, team colour, environment; 1100+: one layer
//!   of shader type 1 with those six texture slots) become classic layers:
//!   - an opaque material (filter mode None) whose team-colour role is the team colour
//!     (replaceable id 1): a team-colour layer (filter None), then the diffuse layer with
//!     filter Blend, whose texture's alpha is the team-colour mask. That is how classic
//!     units are layered: in the corpus's version 800 MDL files (94 with materials), all
//!     11 materials that start with a team-colour layer have it with filter None and then
//!     a texture with filter Blend, transparent where the team colour shows.
//!     The mask is the ORM texture's alpha (mdx-m3-viewer's HD shader tints by the
//!     team colour where the ORM alpha is above 0.1; the glTF import writes ORM alpha 0
//!     for "no team colour"), so the diffuse's alpha becomes `255 - ORM alpha`;
//!   - any other material: the diffuse with the HD layer's filter mode (its alpha
//!     already cuts or blends, so it cannot also carry a mask: the team colour is listed
//!     as not shown);
//!   - an emissive texture that is not black (by its decoded pixels with textures, by a
//!     name without `black` without them) adds an additive, unshaded layer on top: the
//!     glow the HD shader adds.
//!
//!   Normal, ORM (but its mask) and environment maps have no classic form and are
//!   listed. The layers keep the HD layer's classic flags (unshaded, two-sided,
//!   unfogged, the depth bits), alpha and alpha animation. Non-HD layers of a 900+ model
//!   just lose their 900+ fields, as `to_version` does.
//! - **Textures.** Every texture in use whose path the classic client does not read (not
//!   a BLP or a TGA: `.dds`, `.tif`, ...) is named `.blp` (same folder and stem; a diffuse with the team-colour mask gets
//!   `_TC`). With [`ClassicOptions::texture_dirs`] (looked up by
//!   [`TextureFinder`]) each is decoded, composed, resized to
//!   powers of two of at most [`MAX_SIDE`](textures::MAX_SIDE) (512) a side and encoded
//!   as BLP1 ([`Classic::textures`]); the BLP specification on Hive Workshop
//!   (Dr Super Good, "BLP Specifications (WC3)") gives 512 as the largest size BLP1 had
//!   until patch 1.27b, and the largest useful mipmap until 1.29, so a classic client
//!   loads at most 512. A texture not found is listed. Textures no layer draws any more
//!   are removed.
//! - **The rest** (tangents, bind poses, face effects, popcorn emitters, the 1000+ and
//!   1200+ fields) goes through [`Model::to_version`], which lists each.
//! - **Sequences** that overlap in time (or are out of time order) are laid out one after
//!   another, each posing exactly as it did over its old interval (its tracks keyed at
//!   both ends).
//!
//! **Only Reforged content is converted.** A model whose content is already classic (the
//! version change to 800 loses nothing: no skin weights, HD materials, levels of detail,
//! tangents or other 900+ records) comes back as [`Model::to_version`] gives it, byte for
//! byte: a classic model taken to a Reforged version and back is itself again, texture
//! paths included (classic models made for the Reforged client name `.dds` files, and
//! keep them; renaming them would name files their maps do not have). Repairs a model may
//! want either way (one extent per sequence for Magos, a still bone for vertices bound to
//! nothing) are not made here; `check --fix` makes the safe ones. A model with Reforged
//! content keeps its BLP and TGA textures as they are named (the classic client reads
//! both) and has the others named `.blp`.
//!
//! A model that would have no geoset left is refused with the reason.

mod layout;

/// Gives every node the object id of its place (bones first, then the other kinds), moving
/// pivots, parents and matrix groups with it (for a classic model: it has no bind poses).
pub(crate) fn renumber_nodes(m: &mut crate::model::Model) {
    layout::renumber_nodes(m, &mut Vec::new());
}
mod material;
mod skinning;
pub mod textures;

#[cfg(test)]
mod tests;

use crate::convert::ImportedTexture;
use crate::model::Model;
use crate::spec::version as ver;
use crate::texture::TextureFinder;
use crate::Loss;
use std::cell::RefCell;
use std::path::PathBuf;

/// Per geoset of the result, the geoset of the source (after the LOD choice) and which
/// of its vertices it holds, in order.
type Pieces = Vec<(usize, Vec<u32>)>;

/// How to convert.
#[derive(Clone, Debug, Default)]
pub struct ClassicOptions {
    /// The level of detail to keep (`None`: 0, or the most detailed level of a model
    /// without level 0); geosets of every level (-1) stay too.
    pub lod: Option<u32>,
    /// Folders to find the model's textures in; empty: no texture is written.
    pub texture_dirs: Vec<PathBuf>,
}

/// A classic model made from a Reforged one.
#[derive(Clone, Debug)]
pub struct Classic {
    /// The version 800 model.
    pub model: Model,
    /// What it could not carry, or carried approximately.
    pub losses: Vec<Loss>,
    /// BLP files to write beside the model (with [`ClassicOptions::texture_dirs`]).
    pub textures: Vec<ImportedTexture>,
    /// The largest distance (model units) between a vertex skinned by the original's
    /// weights and by the new matrix groups, at the start, middle and end of every
    /// sequence.
    pub skinning_error: f32,
}

/// `model` (900 or later) as a version 800 model the classic client takes. A model of
/// version 800 comes back as it is. Err for a version this crate does not convert or a
/// model that would be left without geosets.
pub fn to_classic(model: &Model, opts: &ClassicOptions) -> Result<Classic, String> {
    if !crate::model::is_known_version(model.version) {
        return Err(format!(
            "version {} is not a Warcraft III version this tool converts",
            model.version
        ));
    }
    if model.version < ver::REFORGED {
        return Ok(Classic {
            model: model.clone(),
            losses: Vec::new(),
            textures: Vec::new(),
            skinning_error: 0.0,
        });
    }
    let (down, lost) = model.to_version(ver::CLASSIC)?;
    if lost.is_empty() {
        // No Reforged content: the lossless version change, byte for byte (what only a
        // repair would change stays with `check --fix`).
        return Ok(Classic {
            model: down,
            losses: Vec::new(),
            textures: Vec::new(),
            skinning_error: 0.0,
        });
    }
    let mut losses = Vec::new();
    let mut m = model.clone();
    skinning::keep_lod(&mut m, opts.lod, &mut losses)?;
    let root = skinning::bone_for_unbound(&mut m, &mut losses);
    let src = m.clone();
    let pieces = skinning::regroup(&mut m, root, &mut losses);
    let skinning_error = skinning::skinning_error(&src, &m, &pieces);
    if let Some(l) = losses
        .iter_mut()
        .find(|l| l.what.starts_with(skinning::APPROXIMATED))
    {
        l.what = format!(
            "{}; posed at the start, middle and end of every sequence, a vertex lies at most {skinning_error} from where the weights put it",
            l.what
        );
    }
    for g in &mut m.geosets {
        g.skin = None;
        g.skin_wide = false;
    }
    let finder = RefCell::new(
        (!opts.texture_dirs.is_empty()).then(|| TextureFinder::new(opts.texture_dirs.clone())),
    );
    let shows = |model: &Model, id: usize| -> bool {
        let mut f = finder.borrow_mut();
        let Some(f) = f.as_mut() else { return true };
        let Some(path) = model.textures.get(id).map(|t| t.path.text().into_owned()) else {
            return false;
        };
        let image = f
            .find(&path)
            .and_then(|p| std::fs::read(p).ok())
            .and_then(|b| crate::texture::decode(&b).ok());
        // Unknown: keep the layer; known: only if some pixel glows.
        image.is_none_or(|i| {
            i.pixels
                .chunks_exact(4)
                .any(|p| p[..3].iter().any(|&c| c > 8))
        })
    };
    let was_used = textures::used(&m);
    let jobs = material::convert(&mut m, &mut losses, &shows);
    let (mut m, more) = m.to_version(ver::CLASSIC)?;
    losses.extend(more);
    layout::renumber_nodes(&mut m, &mut losses);
    layout::separate_sequences(&mut m, &mut losses);
    let mut finder = finder.into_inner();
    let textures = textures::textures(&mut m, &jobs, finder.as_mut(), &was_used, &mut losses);
    Ok(Classic {
        model: m,
        losses,
        textures,
        skinning_error,
    })
}
