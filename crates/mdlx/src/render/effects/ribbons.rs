//! Ribbon emitters: a trail of quads left behind a moving node.
//!
//! # The rules
//! - **When.** While the visibility track (`KRVS`) is above 0, `emission rate` points a
//!   second are left behind, at most one a step (two at one place would make a quad of no
//!   area). A point is a pair of corners: `height above` (`KRHA`) up the node's +Y axis
//!   from its pivot and `height below` (`KRHB`) down it, through the node's world
//!   transform. A spell of invisibility ends a ribbon; the next point starts another.
//! - **Then.** Points fall with `gravity` (units a second squared, along model -Z) and die
//!   `life span` seconds after they were left. Consecutive living points of one ribbon
//!   are joined by quads.
//! - **Looks.** Colour (`KRCO`), alpha (`KRAL`) and texture slot
//!   (`KRTX`) are the emitter's at the moment drawn, for the whole ribbon. The texture is
//!   `rows` x `columns` cells; the slot picks one (across then down), and the ribbon spans
//!   it once from the newest point (left edge) to the oldest (right edge), the upper
//!   corners along its top.
//! - **Colour order.** Red, green, blue as stored, whatever `RibbonEmitter::color` says:
//!   the corpus's fire ribbons store `[1, 0.6, 0.2]` and `[1, 0.26, 0.07]`, its ice ribbon
//!   `[0.46, 0.73, 1]`, its yellow bullet `[1, 0.99, 0]` (as particle colours; see
//!   [`super::particles2`]).
//! - **Material.** The emitter's material, one batch a layer: the layer's filter mode
//!   ([`Blend::from_filter_mode`]), texture (its `KMTF` track if animated), alpha
//!   (`KMTA`, multiplying the ribbon's), unshaded or unlit flag, no-depth-test flag, and
//!   the material's priority plane. Without a material, one white blended batch.

use super::{quad, Blend, EffectBatch, EffectVertex};
use crate::anim::math::{transform_point, Vec3};
use crate::anim::{Clock, Pose};
use crate::model::layer_flags;
use crate::model::{Layer, Model, RibbonEmitter};
use crate::spec::track::{KMTA, KRAL, KRCO, KRHA, KRHB, KRTX, KRVS};

/// One point of a ribbon: its two corners.
#[derive(Clone, Copy, Debug)]
struct Point {
    above: Vec3,
    below: Vec3,
    /// Falling speed, units a second (negative: down).
    fall: f32,
    /// When it was left, ms.
    birth: f64,
    /// Which ribbon of the emitter it belongs to.
    ribbon: u32,
}

/// One ribbon emitter being simulated.
pub(crate) struct Emitter<'m> {
    e: &'m RibbonEmitter,
    node: usize,
    pivot: Vec3,
    /// Points owed but not yet left (the fraction carries over).
    owed: f64,
    /// The ribbon new points join.
    ribbon: u32,
    /// Whether the emitter was hidden since the last point (the next starts a ribbon).
    broken: bool,
    /// Oldest first.
    points: Vec<Point>,
}

impl<'m> Emitter<'m> {
    /// A ribbon emitter whose node is `node` in the skeleton (with pivot `pivot`); `None`
    /// when it can never show anything (no life span).
    pub(crate) fn new(e: &'m RibbonEmitter, node: usize, pivot: Vec3) -> Option<Self> {
        (e.life_span > 0.0 && e.life_span.is_finite()).then_some(Emitter {
            e,
            node,
            pivot,
            owed: 0.0,
            ribbon: 0,
            broken: false,
            points: Vec::new(),
        })
    }

    /// How long a point lives, ms.
    pub(crate) fn life_ms(&self) -> f64 {
        f64::from(self.e.life_span) * 1000.0
    }

    /// Whether a point is left in the step of `h` seconds ending at `clock`.
    fn due(&mut self, clock: &Clock, h: f64) -> bool {
        if clock.sample(self.e.tracks.float(KRVS), 1.0) <= 0.0 {
            self.broken = true;
            return false;
        }
        self.owed += f64::from(self.e.emission_rate) * h;
        if self.owed + 1e-6 < 1.0 {
            return false;
        }
        self.owed = (self.owed - 1.0).clamp(0.0, 1.0);
        if self.broken {
            self.ribbon += 1;
            self.broken = false;
        }
        true
    }

    /// A step before the simulated window: only the books move on.
    pub(crate) fn keep_books(&mut self, clock: &Clock, h: f64) {
        self.due(clock, h);
    }

    /// Ages and drops the points by `h` seconds to `now` (ms).
    pub(crate) fn advance(&mut self, h: f32, now: f64) {
        let (life, g) = (self.life_ms(), self.e.gravity);
        self.points.retain_mut(|p| {
            if now - p.birth >= life {
                return false;
            }
            p.fall -= g * h;
            p.above[2] += p.fall * h;
            p.below[2] += p.fall * h;
            true
        });
    }

    /// Leaves a point if one is due in the step of `h` seconds ending at `clock` (`now`).
    pub(crate) fn emit(&mut self, clock: &Clock, pose: &Pose, h: f32, now: f64) {
        if !self.due(clock, f64::from(h)) {
            return;
        }
        let e = self.e;
        let above = clock.sample(e.tracks.float(KRHA), e.height_above);
        let below = clock.sample(e.tracks.float(KRHB), e.height_below);
        let world = &pose.nodes[self.node].world;
        let [x, y, z] = self.pivot;
        self.points.push(Point {
            above: transform_point(world, [x, y + above, z]),
            below: transform_point(world, [x, y - below, z]),
            fall: 0.0,
            birth: now,
            ribbon: self.ribbon,
        });
    }

    /// The ribbons as drawn at `clock`, one batch per layer of the material, into `out`.
    pub(crate) fn batches(&self, model: &Model, clock: &Clock, out: &mut Vec<EffectBatch>) {
        let e = self.e;
        let c = clock.sample(e.tracks.vector3(KRCO), e.color);
        let alpha = clock.sample(e.tracks.float(KRAL), e.alpha);
        let slot = clock.sample(e.tracks.integer(KRTX), e.texture_slot);
        let color = [c[0], c[1], c[2], alpha].map(|v| v.clamp(0.0, 1.0));
        if color[3] <= 0.0 || self.points.len() < 2 {
            return;
        }
        let material = usize::try_from(e.material_id)
            .ok()
            .and_then(|m| model.materials.get(m));
        let layers: Vec<Option<&Layer>> = match material {
            Some(m) if !m.layers.is_empty() => m.layers.iter().map(Some).collect(),
            _ => vec![None],
        };
        for layer in layers {
            let layer_alpha = layer.map_or(1.0, |l| clock.sample(l.tracks.float(KMTA), l.alpha));
            if layer_alpha <= 0.0 {
                continue;
            }
            let mut color = color;
            color[3] *= layer_alpha.min(1.0);
            let flags = layer.map_or(0, |l| l.flags);
            out.push(EffectBatch {
                texture_id: layer.map_or(-1, |l| crate::render::draw::layer_texture(l, clock)),
                blend: layer.map_or(Blend::Blend, |l| Blend::from_filter_mode(l.filter_mode)),
                unshaded: flags & (layer_flags::UNSHADED | layer_flags::UNLIT) != 0,
                priority_plane: material.map_or(0, |m| m.priority_plane),
                depth_test: flags & layer_flags::NO_DEPTH_TEST == 0,
                vertices: self.vertices(slot, color),
            });
        }
    }

    /// The quads of every ribbon, in texture cell `slot`, all of colour `color`.
    fn vertices(&self, slot: u32, color: [f32; 4]) -> Vec<EffectVertex> {
        let (rows, columns) = (self.e.rows.max(1), self.e.columns.max(1));
        let (col, row) = (slot % columns, (slot / columns).min(rows - 1));
        let (top, bottom) = (row as f32 / rows as f32, (row + 1) as f32 / rows as f32);
        let mut out = Vec::new();
        for ribbon in self.points.chunk_by(|a, b| a.ribbon == b.ribbon) {
            let n = ribbon.len();
            if n < 2 {
                continue;
            }
            // Oldest (index 0) at the cell's right edge, newest at its left.
            let u = |i: usize| (col as f32 + 1.0 - i as f32 / (n - 1) as f32) / columns as f32;
            let v = |p: Vec3, u: f32, v: f32| EffectVertex {
                position: p,
                uv: [u, v],
                color,
            };
            for i in 0..n - 1 {
                let (a, b) = (&ribbon[i], &ribbon[i + 1]);
                quad(
                    &mut out,
                    [
                        v(a.above, u(i), top),
                        v(a.below, u(i), bottom),
                        v(b.below, u(i + 1), bottom),
                        v(b.above, u(i + 1), top),
                    ],
                );
            }
        }
        out
    }
}
