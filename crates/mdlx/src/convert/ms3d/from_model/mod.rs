//! Model -> Milkshape: bones and helpers (and what they hang from) become joints, sampled
//! sequences their keys, geosets meshes, materials materials.

mod joints;
mod keys;
mod materials;
mod meshes;

use super::time::{sequences_comment, FrameRate};
use crate::anim::Skeleton;
use crate::model::{Model, SEQUENCE_NON_LOOPING};
use crate::ms3d::Document;
use crate::Loss;

/// How to turn a model into a Milkshape document.
#[derive(Clone, Debug, Default)]
pub struct ToMs3dOptions {
    /// Milliseconds to frames.
    pub rate: FrameRate,
    /// The one sequence to write (an index into [`Model::sequences`]); `None`: all of them.
    pub sequence: Option<usize>,
}

/// Counts a kind of record Milkshape has no place for.
fn dropped(losses: &mut Vec<Loss>, what: &str, count: usize) {
    if count > 0 {
        losses.push(Loss::new(
            what,
            format!("{count} dropped (Milkshape has no place for them)"),
        ));
    }
}

/// Converts a model to a Milkshape document: geosets become meshes, bones and helpers (and
/// any node they hang from) become joints, and each written sequence becomes keys at the
/// model's own key times, sampled with the animation engine. Returns the document and the
/// list of everything Milkshape cannot hold.
pub fn to_ms3d(model: &Model, opts: &ToMs3dOptions) -> (Document, Vec<Loss>) {
    let mut losses = Vec::new();
    let rate = opts.rate;
    // Sampled as if no sequence looped, so that a sequence's last moment is its own and not
    // its first again.
    let held = {
        let mut m = model.clone();
        for s in &mut m.sequences {
            s.flags |= SEQUENCE_NON_LOOPING;
        }
        m
    };
    let skeleton = Skeleton::new(&held);
    let mut joints = joints::Joints::of(&skeleton.nodes, &mut losses);
    record_losses(model, &mut losses);
    joints.name(&skeleton.nodes, &mut losses);
    let sequences = chosen_sequences(model, opts, &mut losses);
    let (joint_keys, last_frame) =
        keys::sample(model, &skeleton, &joints, &sequences, rate, &mut losses);
    let mut doc = Document {
        frames: Some(last_frame.ceil() as i32),
        frame: Some(1),
        ..Default::default()
    };
    joints.write(&skeleton.nodes, joint_keys, &mut doc);
    materials::materials(model, &mut doc, &mut losses);
    meshes::meshes(model, &skeleton, &joints.joint_of, &mut doc, &mut losses);
    // The sequences, so that converting back restores them.
    doc.comments = sequences_comment(model, &sequences, rate);
    (doc, losses)
}

/// The records Milkshape has no place for.
fn record_losses(model: &Model, losses: &mut Vec<Loss>) {
    dropped(losses, "Camera", model.cameras.len());
    dropped(losses, "GeosetAnimation", model.geoset_animations.len());
    dropped(losses, "TextureAnimation", model.texture_animations.len());
    dropped(losses, "GlobalSequence", model.global_sequences.len());
    dropped(losses, "FaceEffect", model.face_effects.len());
    dropped(losses, "BindPose", model.bind_poses.len().min(1));
    dropped(losses, "unknown chunk", model.unknown_chunks.len());
}

/// The sequences to write: the chosen one (none when it does not exist), else all.
fn chosen_sequences(model: &Model, opts: &ToMs3dOptions, losses: &mut Vec<Loss>) -> Vec<usize> {
    let sequences: Vec<usize> = match opts.sequence {
        Some(s) if s < model.sequences.len() => vec![s],
        Some(_) => Vec::new(),
        None => (0..model.sequences.len()).collect(),
    };
    if opts.sequence.is_some() && model.sequences.len() > 1 {
        dropped(losses, "Sequence (not chosen)", model.sequences.len() - 1);
    }
    sequences
}
