//! WC3 materials as Milkshape materials: the first layer's texture and alpha.

use crate::model::{filter_mode, Model};
use crate::ms3d::{self, Document, Text};
use crate::Loss;

/// One Milkshape material per WC3 material, in order (so geoset material ids still hold).
pub(super) fn materials(model: &Model, doc: &mut Document, losses: &mut Vec<Loss>) {
    for (i, m) in model.materials.iter().enumerate() {
        let place = format!("Material[{i}]");
        let layer = m.layers.first();
        let texture = layer
            .and_then(|l| usize::try_from(l.texture_id).ok())
            .and_then(|t| model.textures.get(t));
        let color_map = match texture {
            Some(t) if t.replaceable_id != 0 => {
                losses.push(Loss::new(
                    &place,
                    format!(
                        "replaceable texture {} (team color, ...) has no file",
                        t.replaceable_id
                    ),
                ));
                Text::default()
            }
            Some(t) => Text(t.path.text_bytes().to_vec()),
            None => Text::default(),
        };
        if m.layers.len() > 1 {
            losses.push(Loss::new(
                &place,
                format!("{} layer(s) after the first", m.layers.len() - 1),
            ));
        }
        if layer.is_some_and(|l| !l.tracks.is_empty()) {
            losses.push(Loss::new(&place, "layer animation (alpha, texture id...)"));
        }
        if layer.is_some_and(|l| l.filter_mode > filter_mode::BLEND) {
            losses.push(Loss::new(&place, "filter mode (additive, modulate...)"));
        }
        doc.materials.push(ms3d::Material {
            name: Text(format!("material_{i}").into_bytes()),
            ambient: [0.2, 0.2, 0.2, 1.0],
            diffuse: [0.8, 0.8, 0.8, 1.0],
            specular: [0.0, 0.0, 0.0, 1.0],
            emissive: [0.0, 0.0, 0.0, 1.0],
            shininess: 0.0,
            transparency: layer.map_or(1.0, |l| l.alpha),
            color_map,
            alpha_map: Text::default(),
        });
    }
}
