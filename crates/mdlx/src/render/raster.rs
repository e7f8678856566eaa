//! Triangles into pixels: clipping at the near plane, perspective-correct interpolation, a
//! depth buffer, and the blend of each filter mode, into a premultiplied float target.

use super::Blend;

/// Interpolated values per vertex (texture coordinates first; the rest is the shader's).
pub(crate) const NV: usize = 12;

/// A vertex in clip space with what is interpolated across the triangle.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vert {
    pub(crate) clip: [f32; 4],
    pub(crate) var: [f32; NV],
}

/// How a draw treats depth and faces.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    pub(crate) blend: Blend,
    pub(crate) depth_test: bool,
    pub(crate) depth_write: bool,
    /// Drop triangles facing away (counter-clockwise triangles face the viewer).
    pub(crate) cull_back: bool,
}

/// The picture being drawn: premultiplied RGBA and depth, rows top to bottom.
pub(crate) struct Target {
    pub(crate) w: usize,
    pub(crate) h: usize,
    pub(crate) color: Vec<[f32; 4]>,
    pub(crate) depth: Vec<f32>,
}

impl Target {
    pub(crate) fn new(w: usize, h: usize, clear: [f32; 4]) -> Target {
        Target {
            w,
            h,
            color: vec![clear; w * h],
            depth: vec![1.0; w * h],
        }
    }
}

/// What a shader is told besides the interpolated values: how many picture pixels one unit
/// of texture coordinates covers, for choosing a mip level.
pub(crate) type Footprint = f32;

/// Draws `tris` (three vertices each) with `state`; `shade` turns interpolated values into
/// a straight RGBA colour, or `None` to leave the pixel alone.
pub(crate) fn draw<F>(target: &mut Target, tris: &[Vert], state: State, shade: F)
where
    F: Fn(&[f32; NV], Footprint) -> Option<[f32; 4]>,
{
    let mut poly = Vec::with_capacity(8);
    for t in tris.chunks_exact(3) {
        poly.clear();
        clip_near(&[t[0], t[1], t[2]], &mut poly);
        if poly.len() < 3 {
            continue;
        }
        let screen: Vec<Screen> = poly.iter().map(|v| to_screen(v, target)).collect();
        for k in 1..screen.len() - 1 {
            triangle(
                target,
                [&screen[0], &screen[k], &screen[k + 1]],
                state,
                &shade,
            );
        }
    }
}

/// A vertex after the perspective divide: pixel position, depth 0..1, 1/w and the values
/// divided by w.
#[derive(Clone, Copy)]
struct Screen {
    x: f32,
    y: f32,
    z: f32,
    inv_w: f32,
    var: [f32; NV],
}

fn to_screen(v: &Vert, t: &Target) -> Screen {
    let inv_w = 1.0 / v.clip[3];
    let mut var = v.var;
    for x in &mut var {
        *x *= inv_w;
    }
    Screen {
        x: (v.clip[0] * inv_w * 0.5 + 0.5) * t.w as f32,
        y: (0.5 - v.clip[1] * inv_w * 0.5) * t.h as f32,
        z: v.clip[2] * inv_w * 0.5 + 0.5,
        inv_w,
        var,
    }
}

/// Sutherland-Hodgman against the near plane (`z >= -w`, and `w` above a small positive).
fn clip_near(tri: &[Vert; 3], out: &mut Vec<Vert>) {
    let d = |v: &Vert| (v.clip[2] + v.clip[3]).min(v.clip[3] - 1e-6);
    for i in 0..3 {
        let (a, b) = (&tri[i], &tri[(i + 1) % 3]);
        let (da, db) = (d(a), d(b));
        if da >= 0.0 {
            out.push(*a);
        }
        if (da >= 0.0) != (db >= 0.0) {
            let t = da / (da - db);
            let mut v = *a;
            for k in 0..4 {
                v.clip[k] = a.clip[k] + (b.clip[k] - a.clip[k]) * t;
            }
            for k in 0..NV {
                v.var[k] = a.var[k] + (b.var[k] - a.var[k]) * t;
            }
            out.push(v);
        }
    }
}

fn edge(a: &Screen, b: &Screen, x: f32, y: f32) -> f32 {
    (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)
}

fn triangle<F>(target: &mut Target, v: [&Screen; 3], state: State, shade: &F)
where
    F: Fn(&[f32; NV], Footprint) -> Option<[f32; 4]>,
{
    let area = edge(v[0], v[1], v[2].x, v[2].y);
    if !area.is_finite() || area == 0.0 {
        return;
    }
    // Picture rows run down, so a triangle counter-clockwise in clip space (facing the
    // viewer, as OpenGL takes it) has a negative area here.
    if state.cull_back && area > 0.0 {
        return;
    }
    let (v0, v1, v2) = if area < 0.0 {
        (v[0], v[2], v[1])
    } else {
        (v[0], v[1], v[2])
    };
    let area = area.abs();
    let min_x = v0.x.min(v1.x).min(v2.x).floor().max(0.0);
    let max_x = v0.x.max(v1.x).max(v2.x).ceil().min(target.w as f32);
    let min_y = v0.y.min(v1.y).min(v2.y).floor().max(0.0);
    let max_y = v0.y.max(v1.y).max(v2.y).ceil().min(target.h as f32);
    if min_x >= max_x || min_y >= max_y {
        return;
    }
    let footprint = footprint(v0, v1, v2, area);
    let inv_area = 1.0 / area;
    let mut var = [0.0f32; NV];
    // Each edge function grows by a fixed amount per pixel along a row: evaluated exactly
    // at the row's first pixel, then stepped.
    let (d0, d1, d2) = (v1.y - v2.y, v2.y - v0.y, v0.y - v1.y);
    for py in min_y as usize..max_y as usize {
        let y = py as f32 + 0.5;
        let x0 = min_x + 0.5;
        let (mut w0, mut w1, mut w2) = (
            edge(v1, v2, x0, y),
            edge(v2, v0, x0, y),
            edge(v0, v1, x0, y),
        );
        for px in min_x as usize..max_x as usize {
            let (e0, e1, e2) = (w0, w1, w2);
            w0 += d0;
            w1 += d1;
            w2 += d2;
            let (w0, w1, w2) = (e0, e1, e2);
            if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                continue;
            }
            let (b0, b1, b2) = (w0 * inv_area, w1 * inv_area, w2 * inv_area);
            let z = b0 * v0.z + b1 * v1.z + b2 * v2.z;
            let i = py * target.w + px;
            if !(0.0..=1.0).contains(&z) {
                continue;
            }
            if state.depth_test && z > target.depth[i] {
                continue;
            }
            let inv_w = b0 * v0.inv_w + b1 * v1.inv_w + b2 * v2.inv_w;
            let w = 1.0 / inv_w;
            for (k, x) in var.iter_mut().enumerate() {
                *x = (b0 * v0.var[k] + b1 * v1.var[k] + b2 * v2.var[k]) * w;
            }
            let Some(src) = shade(&var, footprint) else {
                continue;
            };
            if !blend(&mut target.color[i], src, state.blend) {
                continue;
            }
            if state.depth_write {
                target.depth[i] = z;
            }
        }
    }
}

/// Texture-coordinate units per pixel along the triangle (the square root of the ratio of
/// its area in texture space to its area on screen).
fn footprint(v0: &Screen, v1: &Screen, v2: &Screen, screen_area: f32) -> f32 {
    let uv = |s: &Screen| [s.var[0] / s.inv_w, s.var[1] / s.inv_w];
    let (a, b, c) = (uv(v0), uv(v1), uv(v2));
    let uv_area = ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])).abs();
    (uv_area / screen_area.max(1e-12)).sqrt()
}

/// Blends straight `src` into premultiplied `dst`. Returns false when the pixel was
/// discarded (alpha-keyed away), so depth is not written.
#[inline]
pub(crate) fn blend(dst: &mut [f32; 4], src: [f32; 4], mode: Blend) -> bool {
    let a = src[3].clamp(0.0, 1.0);
    let rgb = [src[0].max(0.0), src[1].max(0.0), src[2].max(0.0)];
    match mode {
        Blend::Opaque => *dst = [rgb[0], rgb[1], rgb[2], 1.0],
        Blend::AlphaKey => {
            if a < ALPHA_KEY {
                return false;
            }
            *dst = [rgb[0], rgb[1], rgb[2], 1.0];
        }
        Blend::Blend => {
            for k in 0..3 {
                dst[k] = rgb[k] * a + dst[k] * (1.0 - a);
            }
            dst[3] = a + dst[3] * (1.0 - a);
        }
        Blend::Additive | Blend::AddAlpha => {
            let mut m = 0.0f32;
            for k in 0..3 {
                let add = rgb[k] * a;
                dst[k] += add;
                m = m.max(add);
            }
            dst[3] += (1.0 - dst[3]) * m.min(1.0);
        }
        Blend::Modulate => {
            for k in 0..3 {
                dst[k] *= rgb[k];
            }
        }
        Blend::Modulate2x => {
            for k in 0..3 {
                dst[k] *= 2.0 * rgb[k];
            }
        }
    }
    true
}

/// Below this alpha an alpha-keyed (transparent filter mode) pixel is not drawn: the
/// threshold mdx-m3-viewer and Retera's Model Studio use.
pub(crate) const ALPHA_KEY: f32 = 0.75;
