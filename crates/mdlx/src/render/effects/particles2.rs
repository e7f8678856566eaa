//! Particle emitters 2: sprites born at an emitter node, flying off with gravity, drawn as
//! camera-facing squares (heads) and quads stretched along their velocity (tails).
//!
//! # The rules (Warcraft III's, as the format documents them and viewers reproduce them)
//! - **When.** While the visibility track (`KP2V`) is above 0, `emission rate` (`KP2E`)
//!   particles a second are born; a squirting emitter instead bears, each time its emission
//!   rate track passes a key, that key's value of particles at once.
//! - **Where.** On the emitter's plane: the node's pivot plus a random offset of up to half
//!   the first area float (`length`, `KP2N`) along node X and half the second (`width`,
//!   `KP2W`) along node Y, then the node's world transform.
//! - **Which way.** Node +Z tilted by a random angle of up to `latitude` degrees (`KP2L`)
//!   about node X, and (unless the `LineEmitter` flag keeps them in the node's YZ plane)
//!   another such angle about node Y; at `speed` (`KP2S`) times `1 +` a random fraction of
//!   up to `variation` (`KP2R`) either way; then the node's rotation and scale.
//! - **Then.** Each step gravity (`KP2G`, scaled by the node's Z scale at birth) lowers the
//!   vertical speed, and the particle moves by its speed; it dies `life span` seconds after
//!   birth. `ModelSpace` particles live in the node's own space and follow it.
//! - **Looks.** Over its life a particle's colour, alpha and size (segment colours, alphas
//!   and scaling) go linearly from the first value to the middle one at fraction `time` of
//!   its life, then to the last. A head is a square of side twice the size facing the
//!   camera (with `XYQuad`, lying in the model's XY plane); a tail runs from the particle
//!   back along its velocity for `tail length` seconds of flight, twice the size wide,
//!   turned to face the camera about its own axis. `head or tail` 0 draws heads, 1 tails,
//!   2 both (from the same particle).
//! - **Texture cells.** The texture is `rows` x `columns` cells, numbered across then
//!   down. Before the middle time a head shows the cells of its life span interval (`start,
//!   end, repeat`), after it those of its decay interval, each run `repeat` times over its
//!   part of the life; tails use the tail intervals. Both ends of an interval are shown
//!   (`0 15 1` walks all sixteen cells of a 4 x 4 texture).
//! - **Colours** are taken red, green, blue in the order stored (unlike geoset animation
//!   colours, and unlike what `ParticleEmitter2::segment_colors` says): the corpus's fire
//!   effects store `[1, 0.5, 0]` (orange as red, green, blue; azure the other way), its
//!   frost bolts `[0, 0.5, 1]`, and `FireNova2.mdx` `[1, 0.01, 0.01]`. mdx-m3-viewer reads
//!   them so too. Alphas are 0 to 255.
//! - **Drawing.** The filter mode is [`Blend::from_particle_filter`]'s; the texture is the
//!   emitter's `texture id` as it stands (the renderer resolves replaceable textures
//!   through the model's texture list). Particles are always drawn unlit (so `Unshaded`
//!   changes nothing) and depth-tested, without depth writes; the renderer has no fog, so
//!   neither does `Unfogged`. `SortPrimsFarZ` draws the farthest first; otherwise they are
//!   drawn oldest first. One batch an emitter, at its priority plane.
//!
//! Left out: the game's particle-density setting (viewers double the emission rate for its
//! "high" level; the rate here is the file's), and the turning of `XYQuad` squares toward
//! their velocity.

use super::rng::Rng;
use super::{quad, Blend, EffectBatch, EffectVertex};
use crate::anim::math::{
    add, cross, dot, normalize, scale, sub, transform_point, transform_vector, Vec3,
};
use crate::anim::sample::sorted_keys;
use crate::anim::{Clock, Pose};
use crate::model::ParticleEmitter2;
use crate::render::Camera;
use crate::spec::track::{KP2E, KP2G, KP2L, KP2N, KP2R, KP2S, KP2V, KP2W};

/// PRE2 flag bits (node flags).
mod bits {
    /// Draw the farthest particles first.
    pub(super) const SORT_PRIMS_FAR_Z: u32 = 0x10000;
    /// Keep directions in the node's YZ plane.
    pub(super) const LINE_EMITTER: u32 = 0x20000;
    /// Particles live in the node's space.
    pub(super) const MODEL_SPACE: u32 = 0x80000;
    /// Heads lie in the XY plane instead of facing the camera.
    pub(super) const XY_QUAD: u32 = 0x100000;
}

/// How many random numbers a particle's birth draws (skipping a birth draws as many).
const DRAWS_PER_PARTICLE: usize = 5;

/// One particle.
#[derive(Clone, Copy, Debug)]
struct Particle {
    /// Where it is (model space, or node space for `ModelSpace` emitters).
    position: Vec3,
    /// Its velocity, units a second (same space).
    velocity: Vec3,
    /// Gravity, units a second squared downward.
    gravity: f32,
    /// The node's scale at birth, which sizes the sprite.
    size: f32,
    /// Birth time, ms.
    birth: f64,
}

/// One particle emitter 2 being simulated.
pub(crate) struct Emitter<'m> {
    e: &'m ParticleEmitter2,
    node: usize,
    /// The node's pivot (its place in its own bind space).
    pivot: Vec3,
    rng: Rng,
    /// Particles owed but not yet born (fractions carry over).
    owed: f64,
    /// The emission rate track's time at the last step (squirt).
    last_frame: Option<f64>,
    particles: Vec<Particle>,
}

impl<'m> Emitter<'m> {
    /// Emitter `index` of the model, whose node is `node` in the skeleton (with pivot
    /// `pivot`); `None` when it can never show anything (no life span).
    pub(crate) fn new(
        e: &'m ParticleEmitter2,
        index: usize,
        node: usize,
        pivot: Vec3,
    ) -> Option<Self> {
        (e.life_span > 0.0 && e.life_span.is_finite()).then(|| Emitter {
            e,
            node,
            pivot,
            rng: Rng::new(2, index as u64),
            owed: 0.0,
            last_frame: None,
            particles: Vec::new(),
        })
    }

    /// How long a particle lives, ms.
    pub(crate) fn life_ms(&self) -> f64 {
        f64::from(self.e.life_span) * 1000.0
    }

    /// How many particles would be born in a step of `h` seconds ending at `clock`.
    fn due(&mut self, clock: &Clock, h: f32) -> usize {
        let e = self.e;
        let squirt = (e.squirt != 0).then(|| self.squirted(clock));
        if clock.sample(e.tracks.float(KP2V), 1.0) <= 0.0 {
            return 0;
        }
        if let Some(n) = squirt {
            return n.clamp(0.0, 1e6) as usize;
        }
        let rate = clock.sample(e.tracks.float(KP2E), e.emission_rate).max(0.0);
        self.owed += f64::from(rate) * f64::from(h);
        // A little slack, so that 3 x (1/3) owes one whole particle.
        let n = (self.owed + 1e-6).floor().min(1e6);
        self.owed = (self.owed - n).max(0.0);
        n as usize
    }

    /// A squirting emitter's due: the values of the emission rate keys passed since the
    /// last step (all of them, should a step pass several), counting a key at the very
    /// start. Without keys it bears nothing.
    fn squirted(&mut self, clock: &Clock) -> f32 {
        let Some(t) = self.e.tracks.float(KP2E) else {
            return 0.0;
        };
        let Some(w) = clock.window(t.global_sequence_id) else {
            return 0.0;
        };
        let last = self.last_frame.replace(w.frame);
        let passed = |k: f64| match last {
            None => k <= w.frame,
            Some(l) if w.frame >= l => k > l && k <= w.frame,
            // The sequence wrapped: the rest of the last loop, and this one so far.
            Some(l) => k > l || k <= w.frame,
        };
        sorted_keys(t)
            .iter()
            .filter(|k| (w.lo..=w.hi).contains(&i64::from(k.time)) && passed(f64::from(k.time)))
            .map(|k| k.value.max(0.0))
            .sum()
    }

    /// A step of `h` seconds ending at `clock`, before the simulated window: only the
    /// emission books and the random stream move on.
    pub(crate) fn keep_books(&mut self, clock: &Clock, h: f64) {
        let n = self.due(clock, h as f32);
        for _ in 0..n * DRAWS_PER_PARTICLE {
            self.rng.next_u64();
        }
    }

    /// Ages and moves the particles by `h` seconds to `now` (ms), dropping the dead;
    /// returns how many live.
    pub(crate) fn advance(&mut self, h: f32, now: f64) -> usize {
        let life = self.life_ms();
        self.particles.retain_mut(|p| {
            if now - p.birth >= life {
                return false;
            }
            p.velocity[2] -= p.gravity * h;
            p.position = add(p.position, scale(p.velocity, h));
            true
        });
        self.particles.len()
    }

    /// Bears the particles due in the step of `h` seconds that ends at `clock` (time `now`,
    /// ms), at most `room` of them; returns how many were born.
    pub(crate) fn emit(
        &mut self,
        clock: &Clock,
        pose: &Pose,
        h: f32,
        now: f64,
        room: usize,
    ) -> usize {
        let n = self.due(clock, h);
        if n == 0 {
            return 0;
        }
        let e = self.e;
        let s = |tag, v| clock.sample(e.tracks.float(tag), v);
        let (half_x, half_y) = (s(KP2N, e.length) * 0.5, s(KP2W, e.width) * 0.5);
        let latitude = s(KP2L, e.latitude).to_radians();
        let (speed, variation, gravity) =
            (s(KP2S, e.speed), s(KP2R, e.variation), s(KP2G, e.gravity));
        let node = &pose.nodes[self.node];
        let pivot = self.pivot;
        let model_space = e.node.flags & bits::MODEL_SPACE != 0;
        let line = e.node.flags & bits::LINE_EMITTER != 0;
        for i in 0..n {
            let d: [f32; DRAWS_PER_PARTICLE] = std::array::from_fn(|_| self.rng.unit());
            if i >= room {
                continue;
            }
            let local = [
                pivot[0] + (d[0] * 2.0 - 1.0) * half_x,
                pivot[1] + (d[1] * 2.0 - 1.0) * half_y,
                pivot[2],
            ];
            let a = (d[2] * 2.0 - 1.0) * latitude;
            let b = if line {
                0.0
            } else {
                (d[3] * 2.0 - 1.0) * latitude
            };
            let direction = [b.sin(), b.cos() * a.sin(), a.cos() * b.cos()];
            let v = speed * (1.0 + (d[4] * 2.0 - 1.0) * variation);
            let (position, velocity, gravity) = if model_space {
                (local, scale(direction, v), gravity)
            } else {
                (
                    transform_point(&node.world, local),
                    scale(transform_vector(&node.world, direction), v),
                    gravity * node.scale[2],
                )
            };
            self.particles.push(Particle {
                position,
                velocity,
                gravity,
                size: node.scale[0],
                birth: now,
            });
        }
        n.min(room)
    }

    /// The particles at `now` (ms) as one batch, or `None` when there are none.
    pub(crate) fn batch(&self, pose: &Pose, now: f64, camera: &Camera) -> Option<EffectBatch> {
        if self.particles.is_empty() {
            return None;
        }
        let e = self.e;
        let world = &pose.nodes[self.node].world;
        let model_space = e.node.flags & bits::MODEL_SPACE != 0;
        let place = |p: &Particle| {
            if model_space {
                (
                    transform_point(world, p.position),
                    transform_vector(world, p.velocity),
                )
            } else {
                (p.position, p.velocity)
            }
        };
        let mut order: Vec<(usize, f32)> = Vec::with_capacity(self.particles.len());
        let forward = camera.forward();
        for (i, p) in self.particles.iter().enumerate() {
            order.push((i, dot(sub(place(p).0, camera.eye), forward)));
        }
        if e.node.flags & bits::SORT_PRIMS_FAR_Z != 0 {
            order.sort_by(|a, b| b.1.total_cmp(&a.1));
        }
        let (right, up) = if e.node.flags & bits::XY_QUAD != 0 {
            ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
        } else {
            camera.axes()
        };
        let (head, tail) = match e.head_or_tail {
            1 => (false, true),
            2 => (true, true),
            _ => (true, false),
        };
        let life = self.life_ms();
        let mut vertices = Vec::with_capacity(order.len() * 6 * (head as usize + tail as usize));
        for (i, _) in order {
            let p = &self.particles[i];
            let (position, velocity) = place(p);
            let look = Look::at(e, ((now - p.birth) / life) as f32);
            let size = look.size * p.size;
            if head {
                let cell = cell_uv(e, look.cell(e, &e.head_intervals, &e.head_decay_intervals));
                let (r, u) = (scale(right, size), scale(up, size));
                let corner = |sr: f32, su: f32| add(position, add(scale(r, sr), scale(u, su)));
                let vs = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(sr, su)| {
                    EffectVertex {
                        position: corner(sr, su),
                        uv: [
                            cell[if sr < 0.0 { 0 } else { 1 }],
                            cell[if su < 0.0 { 3 } else { 2 }],
                        ],
                        color: look.color,
                    }
                });
                quad(&mut vertices, vs);
            }
            if tail {
                let back = scale(velocity, e.tail_length);
                let across = cross(forward, back);
                if dot(across, across) > 1e-12 {
                    let n = scale(normalize(across), size);
                    let start = sub(position, back);
                    let cell = cell_uv(e, look.cell(e, &e.tail_intervals, &e.tail_decay_intervals));
                    let v = |p: Vec3, u: f32, t: f32| EffectVertex {
                        position: p,
                        uv: [u, t],
                        color: look.color,
                    };
                    quad(
                        &mut vertices,
                        [
                            v(sub(start, n), cell[1], cell[2]),
                            v(sub(position, n), cell[0], cell[2]),
                            v(add(position, n), cell[0], cell[3]),
                            v(add(start, n), cell[1], cell[3]),
                        ],
                    );
                }
            }
        }
        Some(EffectBatch {
            texture_id: e.texture_id,
            blend: Blend::from_particle_filter(e.filter_mode),
            unshaded: true,
            priority_plane: e.priority_plane,
            depth_test: true,
            vertices,
        })
    }
}

/// A particle's colour, size and place in its life.
struct Look {
    color: [f32; 4],
    size: f32,
    /// 0 before the middle time, 1 after.
    segment: usize,
    /// How far through that segment, 0 to 1.
    through: f32,
}

impl Look {
    /// The look of a particle of `e` at fraction `life` of its life.
    fn at(e: &ParticleEmitter2, life: f32) -> Look {
        let life = life.clamp(0.0, 1.0);
        let middle = e.time;
        let (segment, through) = if middle.is_nan() || middle <= 0.0 {
            (1, life)
        } else if middle >= 1.0 {
            (0, life)
        } else if life < middle {
            (0, life / middle)
        } else {
            (1, (life - middle) / (1.0 - middle))
        };
        let through = through.clamp(0.0, 1.0);
        let mix = |a: f32, b: f32| a + (b - a) * through;
        let (c0, c1) = (e.segment_colors[segment], e.segment_colors[segment + 1]);
        let a = mix(
            f32::from(e.segment_alphas[segment]),
            f32::from(e.segment_alphas[segment + 1]),
        );
        Look {
            // Stored red, green, blue (see the module docs).
            color: [
                mix(c0[0], c1[0]),
                mix(c0[1], c1[1]),
                mix(c0[2], c1[2]),
                a / 255.0,
            ]
            .map(|c| c.clamp(0.0, 1.0)),
            size: mix(e.segment_scaling[segment], e.segment_scaling[segment + 1]),
            segment,
            through,
        }
    }

    /// The texture cell shown: from `life` before the middle time, from `decay` after.
    fn cell(&self, e: &ParticleEmitter2, life: &[u32; 3], decay: &[u32; 3]) -> u32 {
        let [start, end, repeat] = if self.segment == 0 { *life } else { *decay };
        let cells = e.rows.max(1).saturating_mul(e.columns.max(1));
        if end <= start {
            return start.min(cells - 1);
        }
        let count = end - start + 1;
        // Just short of 1 at the end of the segment, so that it ends on the last cell.
        let f = (f64::from(self.through) * f64::from(repeat.max(1)))
            .min(f64::from(repeat.max(1)) - 1e-6);
        let step = (f * f64::from(count)).floor() as u32 % count;
        (start + step).min(cells - 1)
    }
}

/// The texture rectangle of cell `cell`: `[left, right, top, bottom]`.
fn cell_uv(e: &ParticleEmitter2, cell: u32) -> [f32; 4] {
    let (rows, columns) = (e.rows.max(1), e.columns.max(1));
    let (col, row) = (cell % columns, (cell / columns).min(rows - 1));
    [
        col as f32 / columns as f32,
        (col + 1) as f32 / columns as f32,
        row as f32 / rows as f32,
        (row + 1) as f32 / rows as f32,
    ]
}
