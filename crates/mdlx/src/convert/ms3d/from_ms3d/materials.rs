//! Milkshape materials as WC3 materials and textures: the color map becomes the one layer's
//! texture, transparency its alpha.

use super::fixed;
use crate::model::{filter_mode, FixedString, Layer, Material as WcMaterial, Model, Texture};
use crate::ms3d::{Document, Text};
use crate::Loss;

/// The index of `Textures\white.blp` in the model's textures, added when missing.
pub(super) fn white_texture(model: &mut Model) -> i32 {
    if let Some(i) = model
        .textures
        .iter()
        .position(|t| t.path.as_bytes() == b"Textures\\white.blp")
    {
        return i as i32;
    }
    model.textures.push(Texture {
        path: FixedString::from("Textures\\white.blp"),
        ..Default::default()
    });
    model.textures.len() as i32 - 1
}

/// One material per Milkshape material, in order (so mesh material indices still hold).
pub(super) fn materials(doc: &Document, model: &mut Model, losses: &mut Vec<Loss>) {
    for (i, m) in doc.materials.iter().enumerate() {
        let place = format!("Material[{i}]");
        let texture_id = if m.color_map.is_empty() {
            losses.push(Loss::new(&place, "no color map: uses Textures\\white.blp"));
            white_texture(model)
        } else {
            color_map_texture(&m.color_map, &place, model, losses)
        };
        if !m.alpha_map.is_empty() {
            losses.push(Loss::new(
                &place,
                format!(
                    "alpha map {:?} (WC3 takes alpha from the texture)",
                    m.alpha_map
                ),
            ));
        }
        losses.push(Loss::new(
            &place,
            format!(
                "name {:?}, ambient, specular and emissive colors and shininess (no place in a WC3 material; the diffuse color tints its geosets)",
                m.name
            ),
        ));
        let alpha = m.transparency.clamp(0.0, 1.0);
        model.materials.push(WcMaterial {
            layers: vec![Layer {
                filter_mode: if alpha < 1.0 || !m.alpha_map.is_empty() {
                    filter_mode::BLEND
                } else {
                    filter_mode::NONE
                },
                texture_id,
                texture_animation_id: -1,
                alpha,
                ..Default::default()
            }],
            ..Default::default()
        });
    }
}

/// The texture of a color map (one texture per path), named as the game loads it.
fn color_map_texture(
    color_map: &Text,
    place: &str,
    model: &mut Model,
    losses: &mut Vec<Loss>,
) -> i32 {
    let map = game_texture_path(color_map.as_bytes());
    if map != color_map.as_bytes() {
        let shown = String::from_utf8_lossy(&map);
        losses.push(Loss::new(
            place,
            format!(
                "color map {:?} named {shown:?}: the game loads BLP, TGA, DDS and TIF textures, not this kind (convert the image to BLP beside the model)",
                color_map
            ),
        ));
    }
    let path = fixed(&map, 260, place, "color map path", losses);
    match model.textures.iter().position(|t| t.path == path) {
        Some(t) => t as i32,
        None => {
            model.textures.push(Texture {
                path,
                ..Default::default()
            });
            model.textures.len() as i32 - 1
        }
    }
}

/// A texture path the game loads: `path` when it names a BLP, TGA, DDS or TIF file (what
/// the `texture-path-extension` rule of [`crate::check`] accepts), else the same path
/// with the extension `.blp` (Milkshape models name `.bmp`, `.jpg` and `.png` images).
fn game_texture_path(path: &[u8]) -> Vec<u8> {
    let ext_at = path
        .iter()
        .rposition(|&b| b == b'.')
        .filter(|&i| !path[i..].iter().any(|&b| b == b'\\' || b == b'/'));
    let ext = ext_at.map(|i| path[i + 1..].to_ascii_lowercase());
    let known: [&[u8]; 4] = [b"blp", b"tga", b"dds", b"tif"];
    if ext.as_deref().is_some_and(|e| known.contains(&e)) {
        return path.to_vec();
    }
    let mut out = path[..ext_at.unwrap_or(path.len())].to_vec();
    out.extend_from_slice(b".blp");
    out
}
