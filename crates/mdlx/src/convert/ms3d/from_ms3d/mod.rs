//! Milkshape -> model: joints become bones, keys become tracks, materials, meshes and
//! frame ranges become materials, geosets and sequences.

mod keys;
mod materials;
mod meshes;
mod skeleton;

use super::time::{FrameRange, FrameRate, SEQUENCES_PREFIX};
use crate::model::{Extent, FixedString, Model, Sequence, SEQUENCE_NON_LOOPING};
use crate::ms3d::Document;
use crate::Loss;

/// How to turn a Milkshape document into a model.
#[derive(Clone, Debug, Default)]
pub struct ToModelOptions {
    /// Frames to milliseconds.
    pub rate: FrameRate,
    /// Sequences by frame range; empty: the ranges an mdlx model comment lists, else one
    /// sequence over the whole file.
    pub ranges: Vec<FrameRange>,
    /// The model's name (the file name, say).
    pub name: String,
}

/// `text` as a fixed string of at most `max` bytes; a longer one is cut, with a loss.
fn fixed(text: &[u8], max: usize, place: &str, field: &str, losses: &mut Vec<Loss>) -> FixedString {
    if text.len() > max {
        losses.push(Loss::new(
            place,
            format!("{field} cut to {max} bytes (was {})", text.len()),
        ));
        FixedString::from_field(&text[..max])
    } else {
        FixedString::from_field(text)
    }
}

/// Converts a Milkshape document to a version-800 model. Returns the model and everything
/// the model could not hold.
pub fn to_model(doc: &Document, opts: &ToModelOptions) -> (Model, Vec<Loss>) {
    let mut losses = Vec::new();
    let rate = opts.rate;
    let joints = skeleton::Joints::of(doc, &mut losses);
    let ranges = keys::sequence_ranges(doc, opts);
    let moments = keys::moments(doc, rate, &ranges, &mut losses);
    let mut model = Model {
        version: 800,
        ..Default::default()
    };
    skeleton::bones(doc, &joints, rate, &moments, &mut model, &mut losses);
    let still_bone = skeleton::still_bone(doc, &mut model);
    materials::materials(doc, &mut model, &mut losses);
    meshes::geosets(doc, still_bone, &mut model, &mut losses);
    sequences(&ranges, rate, &mut model, &mut losses);
    model.info.name = fixed(opts.name.as_bytes(), 80, "model", "name", &mut losses);
    model.info.blend_time = 150;
    comment_losses(doc, &mut losses);
    (model, losses)
}

/// One sequence per frame range, each with the extent of every geoset.
fn sequences(ranges: &[FrameRange], rate: FrameRate, model: &mut Model, losses: &mut Vec<Loss>) {
    let extent = Extent::around(
        model
            .geosets
            .iter()
            .flat_map(|g| g.vertices.iter().copied()),
    );
    for (i, r) in ranges.iter().enumerate() {
        let place = format!("Sequence[{i}]");
        let (start, end) = (rate.ms(r.first), rate.ms(r.last));
        if start < 0 {
            losses.push(Loss::new(
                &place,
                format!("starts before frame 1 ({} ms): starts at 0", start),
            ));
        }
        model.sequences.push(Sequence {
            name: fixed(r.name.as_bytes(), 80, &place, "name", losses),
            interval: [start.max(0) as u32, end.max(0) as u32],
            flags: if r.non_looping {
                SEQUENCE_NON_LOOPING
            } else {
                0
            },
            extent,
            ..Default::default()
        });
    }
    for g in &mut model.geosets {
        g.sequence_extents = vec![g.extent; model.sequences.len()];
    }
    model.info.extent = extent;
}

/// Comments have no place in a model (but the sequence list mdlx writes is read back).
fn comment_losses(doc: &Document, losses: &mut Vec<Loss>) {
    if let Some(c) = &doc.comments {
        let ours = c
            .model
            .as_ref()
            .is_some_and(|t| t.as_bytes().starts_with(SEQUENCES_PREFIX.as_bytes()));
        if !c.meshes.is_empty()
            || !c.materials.is_empty()
            || !c.bones.is_empty()
            || (c.model.is_some() && !ours)
        {
            losses.push(Loss::new(
                "comments",
                "mesh, material, joint and model comments",
            ));
        }
    }
}
