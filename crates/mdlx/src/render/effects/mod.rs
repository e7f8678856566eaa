//! Particle emitters 2 and ribbon emitters, simulated from the start of the sequence, as
//! triangles the renderer draws after the geosets.
//!
//! (The simulation is being written; until then no effect is drawn.)

use super::{Blend, Camera};
use crate::anim::Skeleton;
use crate::model::Model;

/// One corner of an effect triangle, in model space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EffectVertex {
    /// Position in model space.
    pub position: [f32; 3],
    /// Texture coordinates (0..1 across the texture; rows and columns of a particle
    /// texture already picked).
    pub uv: [f32; 2],
    /// Straight (not premultiplied) RGBA, 0 to 1, multiplied with the texture.
    pub color: [f32; 4],
}

/// Triangles sharing a texture and a blend, drawn after the geosets.
#[derive(Clone, Debug, PartialEq)]
pub struct EffectBatch {
    /// Index into [`Model::textures`] (replaceable textures are resolved by the renderer),
    /// or -1 for none (white).
    pub texture_id: i32,
    /// How it blends.
    pub blend: Blend,
    /// Drawn unlit (particles always are; ribbons follow their layer).
    pub unshaded: bool,
    /// Render order among effects: lower first.
    pub priority_plane: i32,
    /// Whether the depth test applies (it always does for particles; ribbon layers may
    /// turn it off).
    pub depth_test: bool,
    /// Three vertices per triangle, drawn two-sided.
    pub vertices: Vec<EffectVertex>,
}

/// Every particle emitter 2 and ribbon emitter of `model`, simulated from the start of
/// `sequence` (or from 0 with no sequence) to `time_ms` in fixed steps, as seen by `camera`
/// (particles face it). Deterministic: the same arguments give the same triangles.
pub fn simulate(
    model: &Model,
    skeleton: &Skeleton,
    sequence: Option<usize>,
    time_ms: f64,
    camera: &Camera,
) -> Vec<EffectBatch> {
    let _ = (model, skeleton, sequence, time_ms, camera);
    Vec::new()
}
