//! Particle emitters 2 and ribbon emitters, simulated from the start of the sequence, as
//! triangles the renderer draws after the geosets.
//!
//! # How, and why
//! - **Fixed steps.** Time advances in steps of 1/30 s on a grid anchored at the start of
//!   the sequence (step `k` ends at `k * 1000 / 30` ms), plus one shorter last step that
//!   ends exactly at the time asked. Each step poses the skeleton once, moves and ages the
//!   living particles and ribbon points, then emits at the new pose.
//! - **Only the last life span is simulated in full.** Whatever is born more than the
//!   longest life span (plus a step) before the time asked is dead by then, so earlier
//!   steps only keep the books that later ones depend on: the emission accumulators, the
//!   squirt keys, and each emitter's random stream (every particle draws the same number
//!   of random numbers, so skipping one is drawing that many). The result is the same as
//!   simulating every step (unless the particle cap is reached), at the cost of a few
//!   track samples per early step.
//! - **Determinism.** Each emitter has its own seeded stream (SplitMix64, seeded by its kind and index); no clocks, no
//!   threads, no hash order. The same arguments give the same triangles.
//! - **Limits.** At most [`MAX_PARTICLES`] particles live at once over all emitters (what
//!   would pass it is not born); book-keeping reaches back at most [`MAX_BOOKKEEPING_STEPS`].
//! - The particle and ribbon rules themselves are in [`particles2`] and [`ribbons`].

pub mod particles2;
pub mod ribbons;
mod rng;
#[cfg(test)]
mod tests;

use super::{Blend, Camera};
use crate::anim::Skeleton;
use crate::anim::{AnimTime, NodeKind};
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
    run_steps(model, skeleton, sequence, time_ms, camera, false)
}

/// [`simulate`], with every step simulated in full when `every_step` (tests compare the
/// two).
fn run_steps(
    model: &Model,
    skeleton: &Skeleton,
    sequence: Option<usize>,
    time_ms: f64,
    camera: &Camera,
    every_step: bool,
) -> Vec<EffectBatch> {
    if model.particle_emitters2.is_empty() && model.ribbon_emitters.is_empty() {
        return Vec::new();
    }
    let time_ms = if time_ms.is_finite() {
        time_ms.max(0.0)
    } else {
        0.0
    };
    let mut p2: Vec<particles2::Emitter> = model
        .particle_emitters2
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let n = node_of(skeleton, NodeKind::ParticleEmitter2, i)?;
            particles2::Emitter::new(e, i, n, skeleton.nodes[n].pivot)
        })
        .collect();
    let mut rb: Vec<ribbons::Emitter> = model
        .ribbon_emitters
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let n = node_of(skeleton, NodeKind::RibbonEmitter, i)?;
            ribbons::Emitter::new(e, n, skeleton.nodes[n].pivot)
        })
        .collect();
    let longest = p2
        .iter()
        .map(|e| e.life_ms())
        .chain(rb.iter().map(|e| e.life_ms()))
        .fold(0.0f64, f64::max)
        .min(MAX_LIFE_MS);

    // Steps 1..=last end on the grid; a shorter one may follow up to time_ms.
    let last = (time_ms * STEPS_PER_SECOND / 1000.0).floor() as i64;
    let full_from = if every_step {
        1
    } else {
        (last - (longest * STEPS_PER_SECOND / 1000.0).ceil() as i64 - 1).max(1)
    };
    let books_from = (full_from - MAX_BOOKKEEPING_STEPS).max(1);
    let view = Some(camera.forward());
    for k in books_from..full_from {
        let clock = skeleton.clock(AnimTime::new(sequence, step_time(k)));
        let h = (step_time(k) - step_time(k - 1)) / 1000.0;
        p2.iter_mut().for_each(|e| e.keep_books(&clock, h));
        rb.iter_mut().for_each(|e| e.keep_books(&clock, h));
    }
    let mut times: Vec<f64> = (full_from..=last).map(step_time).collect();
    if times.last().is_none_or(|&t| t < time_ms) && time_ms > 0.0 {
        times.push(time_ms);
    }
    let mut previous = step_time(full_from - 1);
    let mut at_end = None;
    for &now in &times {
        let h = ((now - previous) / 1000.0) as f32;
        previous = now;
        let clock = skeleton.clock(AnimTime::new(sequence, now));
        let pose = skeleton.pose_at(&clock, view);
        let mut live = 0;
        for e in p2.iter_mut() {
            live += e.advance(h, now);
        }
        rb.iter_mut().for_each(|e| e.advance(h, now));
        for e in p2.iter_mut() {
            live += e.emit(&clock, &pose, h, now, MAX_PARTICLES.saturating_sub(live));
        }
        rb.iter_mut().for_each(|e| e.emit(&clock, &pose, h, now));
        at_end = Some((clock, pose));
    }

    // The last step ends at time_ms (or there was none: time 0).
    let (clock, pose) = at_end.unwrap_or_else(|| {
        let clock = skeleton.clock(AnimTime::new(sequence, time_ms));
        let pose = skeleton.pose_at(&clock, view);
        (clock, pose)
    });
    let mut out = Vec::new();
    for e in &p2 {
        out.extend(e.batch(&pose, time_ms, camera));
    }
    for e in &rb {
        e.batches(model, &clock, &mut out);
    }
    out
}

/// Steps per second of simulated time.
const STEPS_PER_SECOND: f64 = 30.0;

/// The most particles alive at once, over all emitters.
pub const MAX_PARTICLES: usize = 20_000;

/// How far back (in steps) the books are kept before the simulated window: a minute.
pub const MAX_BOOKKEEPING_STEPS: i64 = 30 * 60;

/// Life spans longer than this (a minute) are simulated over this window only.
const MAX_LIFE_MS: f64 = 60_000.0;

/// The time step `k` ends at, in ms (exact for every whole number of seconds).
fn step_time(k: i64) -> f64 {
    k as f64 * 1000.0 / STEPS_PER_SECOND
}

/// The index in `skeleton.nodes` of record `index` of `kind`.
fn node_of(skeleton: &Skeleton, kind: NodeKind, index: usize) -> Option<usize> {
    skeleton
        .nodes
        .iter()
        .position(|n| n.kind == kind && n.index == index)
}

/// Two triangles of the quad `a b c d` (corners in order round it).
fn quad(out: &mut Vec<EffectVertex>, v: [EffectVertex; 4]) {
    out.extend_from_slice(&[v[0], v[1], v[2], v[0], v[2], v[3]]);
}
