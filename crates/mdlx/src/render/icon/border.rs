//! The frames the game's icons carry, drawn procedurally, and the disabled look.
//!
//! Every figure here was measured on real icons (139 BTN/DISBTN pairs and one PAS/DISPAS
//! pair, 64 x 64, from the maps in the project's archive samples; see the README's
//! "Icons"): the frame is four pixels wide and the same on every icon (it is drawn over the
//! art, not painted into it), so it is drawn here from its measured colours. Depths count
//! pixels in from the nearest edge, at 64 x 64; a larger icon (Reforged's 256 x 256) scales
//! them.

use super::IconKind;
use crate::texture::RgbaImage;

/// The button frame's rings 1 and 2 (the bevel), per side: top, left, bottom, right.
const BEVEL: [[f32; 3]; 4] = [
    [208.0, 208.0, 211.0],
    [190.0, 190.0, 192.0],
    [97.0, 97.0, 99.0],
    [112.0, 112.0, 115.0],
];
/// The button frame's ring 0 and ring 3.
const OUTER_LINE: [f32; 3] = [1.0, 1.0, 1.0];
const INNER_LINE: [f32; 3] = [35.0, 34.0, 26.0];
/// The autocast frame's bevel (no game icon carries one to measure: the gold of the
/// game's autocast ring, shaded as the button bevel is).
const GOLD: [[f32; 3]; 4] = [
    [255.0, 222.0, 96.0],
    [240.0, 204.0, 72.0],
    [150.0, 104.0, 20.0],
    [170.0, 120.0, 30.0],
];
const GOLD_INNER: [f32; 3] = [64.0, 42.0, 6.0];
/// How much of the art shows at depths 4 to 11 inside a button frame (a soft inner shadow;
/// the ratio of the art's spread there to its spread in the middle).
const BUTTON_SHADE: [f32; 8] = [0.35, 0.55, 0.81, 0.84, 0.88, 0.92, 0.96, 0.98];
/// Inside a passive frame (black, no bevel), depths 4 to 10: a deeper shade.
const PASSIVE_SHADE: [f32; 7] = [0.04, 0.10, 0.21, 0.34, 0.48, 0.59, 0.70];
/// A disabled icon's brightness against its enabled one, per channel, at depths 4 to 11
/// (top side, other sides), and beyond (least squares over the 139 pairs; colour is kept,
/// not turned grey: the fitted desaturation is none).
const DISABLED_TOP: [f32; 8] = [0.269, 0.311, 0.316, 0.403, 0.463, 0.496, 0.511, 0.524];
const DISABLED_SIDES: [f32; 8] = [0.19, 0.21, 0.23, 0.32, 0.40, 0.46, 0.50, 0.51];
/// Beyond depth 11.
pub const DISABLED_GAIN: f32 = 0.525;
/// The passive icons' disabled brightness (one pair): 0.37 at depth 4, then this.
const DISABLED_PASSIVE: f32 = 0.52;

/// Which side a pixel is nearest, and how deep in it lies (in 64 x 64 pixels).
#[derive(Clone, Copy)]
struct Place {
    /// 0 top, 1 left, 2 bottom, 3 right.
    side: usize,
    depth: usize,
    /// On the diagonal of the bottom-right corner (darker than either side).
    dark_corner: bool,
    /// Where along its side it lies, in 64 x 64 pixels (for the bevel's grain).
    along: usize,
}

fn place(x: u32, y: u32, n: u32) -> Place {
    let scale = (n as f32 / 64.0).max(1.0 / 64.0);
    let d = [y, x, n - 1 - y, n - 1 - x];
    let least = *d.iter().min().unwrap_or(&0);
    // Ties go to the darker side (the measured corners): bottom, then right, then top.
    let side = [2, 3, 0, 1]
        .into_iter()
        .find(|&s| d[s] == least)
        .unwrap_or(0);
    let at = |v: u32| (v as f32 / scale) as usize;
    Place {
        side,
        depth: at(least),
        dark_corner: d[2] == least && d[3] == least,
        along: at(if side % 2 == 0 { x } else { y }),
    }
}

/// A small, fixed grain along a bevel (the measured frames vary by a luma spread of 15 to
/// 23 along their sides, as brushed metal does): the same on every icon.
fn grain(side: usize, along: usize) -> f32 {
    let mut h = (side as u32 * 64 + along as u32).wrapping_mul(0x9e37_79b9);
    h ^= h >> 15;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    (f32::from((h & 0xff) as u8) / 255.0 - 0.5) * 40.0
}

/// The icon's frame drawn over `art` (square, any size; its alpha is kept).
pub fn frame(art: &RgbaImage, kind: IconKind) -> RgbaImage {
    let n = art.width;
    let mut out = art.clone();
    for y in 0..art.height {
        for x in 0..n {
            let p = place(x, y, n.min(art.height));
            let i = ((y * n + x) * 4) as usize;
            let px = &mut out.pixels[i..i + 4];
            let set = |px: &mut [u8], c: [f32; 3]| {
                for k in 0..3 {
                    px[k] = c[k].round().clamp(0.0, 255.0) as u8;
                }
                px[3] = 255;
            };
            let shade = |px: &mut [u8], f: f32| {
                for v in px.iter_mut().take(3) {
                    *v = (f32::from(*v) * f).round() as u8;
                }
            };
            match (kind, p.depth) {
                (IconKind::Passive, 0..=3) => set(px, [0.0; 3]),
                (IconKind::Passive, d @ 4..=10) => shade(px, PASSIVE_SHADE[d - 4]),
                (_, 0) => set(px, OUTER_LINE),
                (_, 1 | 2) => {
                    let bevel = if kind == IconKind::Autocast {
                        GOLD
                    } else {
                        BEVEL
                    };
                    let g = grain(p.side, p.along);
                    let corner = if p.dark_corner { 0.7 } else { 1.0 };
                    set(px, bevel[p.side].map(|c| (c + g) * corner));
                }
                (IconKind::Autocast, 3) => set(px, GOLD_INNER),
                (_, 3) => set(px, INNER_LINE),
                (IconKind::Button | IconKind::Autocast, d @ 4..=11) => {
                    shade(px, BUTTON_SHADE[d - 4]);
                }
                _ => {}
            }
        }
    }
    out
}

/// The disabled icon of `icon` (its enabled icon, frame and all), as the game's disabled
/// icons relate to theirs: a black frame four pixels wide, and inside it every channel
/// scaled (about half, darker near the frame), colour kept.
pub fn disabled(icon: &RgbaImage, kind: IconKind) -> RgbaImage {
    let n = icon.width.min(icon.height);
    let mut out = icon.clone();
    for y in 0..icon.height {
        for x in 0..icon.width {
            let p = place(x, y, n);
            let gain = match (kind, p.depth) {
                (_, 0..=3) => 0.0,
                (IconKind::Passive, 4) => 0.37,
                (IconKind::Passive, _) => DISABLED_PASSIVE,
                (_, d @ 4..=11) if p.side == 0 => DISABLED_TOP[d - 4],
                (_, d @ 4..=11) => DISABLED_SIDES[d - 4],
                _ => DISABLED_GAIN,
            };
            let i = ((y * icon.width + x) * 4) as usize;
            for v in &mut out.pixels[i..i + 3] {
                *v = (f32::from(*v) * gain).round() as u8;
            }
            if p.depth <= 3 {
                out.pixels[i + 3] = 255;
            }
        }
    }
    out
}
