//! Block-compressed pixels: BC1-BC5 decoded here (with the integer arithmetic Pillow and
//! most decoders use: 5/6-bit channels widened by bit replication, interpolants truncated),
//! BC7 through `bcdec_rs`.

use super::{LevelBytes, TextureError};

/// A block-compression format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    /// BC1/DXT1; `alpha`: colour index 3 of a three-colour block is transparent black
    /// (false: it is opaque black, for containers that declare no alpha).
    Bc1 {
        alpha: bool,
    },
    Bc2,
    Bc3,
    Bc4,
    Bc5,
    Bc7,
}

impl Format {
    /// Bytes per 4x4 block.
    pub(super) fn block_bytes(self) -> u64 {
        match self {
            Format::Bc1 { .. } | Format::Bc4 => 8,
            _ => 16,
        }
    }

    /// Bytes a `w x h` level takes.
    pub(super) fn level_bytes(self, w: u32, h: u32) -> u64 {
        // Saturating: a hostile header may name 2^32 x 2^32 blocks; the level is then
        // refused as running past the end, not overflowed.
        u64::from(w.div_ceil(4))
            .saturating_mul(u64::from(h.div_ceil(4)))
            .saturating_mul(self.block_bytes())
    }
}

/// Decodes a `w x h` level from `data` (found at absolute `offset`, named `what` in errors).
pub(super) fn decode(format: Format, level: LevelBytes<'_>) -> Result<Vec<u8>, TextureError> {
    let LevelBytes {
        data,
        offset,
        w,
        h,
        what,
    } = level;
    let need = format.level_bytes(w, h);
    super::require(data, need, offset, || {
        format!("{what} ({w}x{h}, {format:?})")
    })?;
    // At least 8 bytes of input per 16 pixels are present: the output is at most 8 times
    // the input.
    let (w, h) = (w as usize, h as usize);
    let mut out = vec![0u8; w * h * 4];
    let bw = w.div_ceil(4);
    let bs = format.block_bytes() as usize;
    let mut block = [[0u8; 4]; 16];
    for (i, src) in data[..need as usize].chunks_exact(bs).enumerate() {
        let (bx, by) = (i % bw, i / bw);
        decode_block(format, src, &mut block);
        for py in 0..4 {
            let y = by * 4 + py;
            if y >= h {
                break;
            }
            for px in 0..4 {
                let x = bx * 4 + px;
                if x < w {
                    out[(y * w + x) * 4..][..4].copy_from_slice(&block[py * 4 + px]);
                }
            }
        }
    }
    Ok(out)
}

/// Decodes one block into 16 RGBA pixels, row by row.
fn decode_block(format: Format, src: &[u8], out: &mut [[u8; 4]; 16]) {
    match format {
        Format::Bc1 { alpha } => colour(&src[..8], false, alpha, out),
        Format::Bc2 => {
            colour(&src[8..16], true, false, out);
            for (n, px) in out.iter_mut().enumerate() {
                let v = (src[n / 2] >> (4 * (n & 1))) & 0xf;
                px[3] = v | (v << 4);
            }
        }
        Format::Bc3 => {
            colour(&src[8..16], true, false, out);
            channel(&src[..8], out, 3);
        }
        Format::Bc4 => {
            channel(&src[..8], out, 0);
            for px in out.iter_mut() {
                *px = [px[0], px[0], px[0], 255];
            }
        }
        Format::Bc5 => {
            channel(&src[..8], out, 0);
            channel(&src[8..16], out, 1);
            for px in out.iter_mut() {
                px[2] = 0;
                px[3] = 255;
            }
        }
        Format::Bc7 => {
            let mut rgba = [0u8; 64];
            bcdec_rs::bc7(src, &mut rgba, 16);
            for (px, s) in out.iter_mut().zip(rgba.chunks_exact(4)) {
                px.copy_from_slice(s);
            }
        }
    }
}

/// A 5:6:5 colour widened to 8 bits per channel by repeating the top bits.
fn rgb565(c: u16) -> [u32; 3] {
    let r = u32::from(c >> 11);
    let g = u32::from((c >> 5) & 0x3f);
    let b = u32::from(c & 0x1f);
    [
        (r << 3) | (r >> 2),
        (g << 2) | (g >> 4),
        (b << 3) | (b >> 2),
    ]
}

/// A BC1 colour block. `four`: always the four-colour mode (BC2/BC3); `alpha`: index 3 of
/// the three-colour mode is transparent.
fn colour(src: &[u8], four: bool, alpha: bool, out: &mut [[u8; 4]; 16]) {
    let c0 = u16::from_le_bytes([src[0], src[1]]);
    let c1 = u16::from_le_bytes([src[2], src[3]]);
    let (p0, p1) = (rgb565(c0), rgb565(c1));
    let mix = |f: fn(u32, u32) -> u32| -> [u8; 4] {
        [
            f(p0[0], p1[0]) as u8,
            f(p0[1], p1[1]) as u8,
            f(p0[2], p1[2]) as u8,
            255,
        ]
    };
    let p = |c: [u32; 3]| [c[0] as u8, c[1] as u8, c[2] as u8, 255];
    let palette = if c0 > c1 || four {
        [
            p(p0),
            p(p1),
            mix(|a, b| (2 * a + b) / 3),
            mix(|a, b| (a + 2 * b) / 3),
        ]
    } else {
        let black = [0, 0, 0, if alpha { 0 } else { 255 }];
        [p(p0), p(p1), mix(|a, b| (a + b) / 2), black]
    };
    let lut = u32::from_le_bytes([src[4], src[5], src[6], src[7]]);
    for (n, px) in out.iter_mut().enumerate() {
        *px = palette[(lut >> (2 * n)) as usize & 3];
    }
}

/// A BC3-alpha/BC4 block of one channel, written into channel `ch` of every pixel.
fn channel(src: &[u8], out: &mut [[u8; 4]; 16], ch: usize) {
    let (a0, a1) = (u32::from(src[0]), u32::from(src[1]));
    let mut a = [a0, a1, 0, 0, 0, 0, 0, 255];
    if a0 > a1 {
        for (i, v) in a.iter_mut().enumerate().skip(2) {
            let i = i as u32;
            *v = ((8 - i) * a0 + (i - 1) * a1) / 7;
        }
    } else {
        for (i, v) in a.iter_mut().enumerate().take(6).skip(2) {
            let i = i as u32;
            *v = ((6 - i) * a0 + (i - 1) * a1) / 5;
        }
        a[6] = 0;
    }
    let bits = u64::from_le_bytes([src[2], src[3], src[4], src[5], src[6], src[7], 0, 0]);
    for (n, px) in out.iter_mut().enumerate() {
        px[ch] = a[(bits >> (3 * n)) as usize & 7] as u8;
    }
}
