//! TGA: the 18-byte header, the image ID, then the pixels (raw or run-length encoded),
//! bottom row first unless bit 5 of the descriptor is set, left to right unless bit 4 is.

use super::error::unsupported;
use super::{Encoding, Level, Texture, TextureError, TextureErrorKind as K, TextureKind, TgaKind};

const HEADER: usize = 18;

/// How a TGA's pixels are laid out.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    kind: TgaKind,
    /// Bytes per pixel: 1 (grey), 2 (grey + alpha or 15/16-bit colour), 3 or 4.
    bytes: u8,
    top_down: bool,
    right_to_left: bool,
    /// Use the stored alpha (else 255).
    alpha: bool,
}

/// Reads a TGA header.
pub(super) fn read(data: &[u8]) -> Result<Texture<'_>, TextureError> {
    let h = data
        .get(..HEADER)
        .ok_or_else(|| super::truncated(data, "TGA header", HEADER))?;
    let u16_at = |i: usize| u32::from(u16::from_le_bytes([h[i], h[i + 1]]));
    let (id_len, map_type, image_type) = (h[0] as u64, h[1], h[2]);
    let (map_len, map_entry_bits) = (u16_at(5), u32::from(h[7]));
    let (width, height, bits, descriptor) = (u16_at(12), u16_at(14), h[16], h[17]);
    super::check_size(width, height, 12)?;
    let kind = match image_type {
        2 => TgaKind::Truecolor,
        10 => TgaKind::RleTruecolor,
        3 => TgaKind::Grayscale,
        11 => TgaKind::RleGrayscale,
        other => {
            return Err(unsupported(
                "TGA image type (colour-mapped TGA is not read)",
                other.into(),
                2,
            ))
        }
    };
    let grey = matches!(kind, TgaKind::Grayscale | TgaKind::RleGrayscale);
    let ok_bits = if grey {
        matches!(bits, 8 | 16)
    } else {
        matches!(bits, 24 | 32)
    };
    if !ok_bits {
        return Err(unsupported(
            "TGA bits per pixel for this image type",
            bits.into(),
            16,
        ));
    }
    let alpha_bits = u32::from(descriptor & 0xf);
    let layout = Layout {
        kind,
        bytes: bits / 8,
        top_down: descriptor & 0x20 != 0,
        right_to_left: descriptor & 0x10 != 0,
        alpha: (bits == 32 || (grey && bits == 16)) && alpha_bits != 0,
    };
    // A colour map may be present even in true-colour files; it is skipped.
    let map_bytes = if map_type == 1 {
        u64::from(map_len) * u64::from(map_entry_bits.div_ceil(8))
    } else {
        0
    };
    let offset = HEADER as u64 + id_len + map_bytes;
    let rle = matches!(kind, TgaKind::RleTruecolor | TgaKind::RleGrayscale);
    let size = if rle {
        (data.len() as u64).saturating_sub(offset)
    } else {
        u64::from(width) * u64::from(height) * u64::from(layout.bytes)
    };
    Ok(Texture {
        kind: TextureKind::Tga(kind),
        width,
        height,
        has_alpha: layout.alpha,
        alpha_bits,
        levels: vec![Level {
            width,
            height,
            offset,
            size,
        }],
        data,
        encoding: Encoding::Tga(layout),
    })
}

/// Decodes the pixels at `data` (absolute `offset`) into RGBA, top row first.
pub(super) fn decode(
    l: Layout,
    data: &[u8],
    offset: u64,
    w: u32,
    h: u32,
) -> Result<Vec<u8>, TextureError> {
    let n = u64::from(w) * u64::from(h);
    let bpp = usize::from(l.bytes);
    let rle = matches!(l.kind, TgaKind::RleTruecolor | TgaKind::RleGrayscale);
    // A run packet of 1 + bpp bytes makes at most 128 pixels: refuse sizes the data
    // cannot hold before allocating them.
    if rle && n > data.len() as u64 * 128 {
        return Err(TextureError::new(
            K::TooLarge {
                width: w.into(),
                height: h.into(),
                why: format!(
                    "cannot come from {:#x} bytes of run-length data (128 pixels per packet at most)",
                    data.len()
                ),
            },
            offset,
        ));
    }
    let n = n as usize;
    let mut raw = Vec::with_capacity(n * bpp);
    if rle {
        let mut i = 0;
        while raw.len() < n * bpp {
            let short = |at: usize| {
                TextureError::new(
                    K::TooShort {
                        what: format!("TGA run-length data ({w}x{h})"),
                        need: (n * bpp) as u64,
                        have: raw.len() as u64,
                    },
                    offset + at as u64,
                )
            };
            let &head = data.get(i).ok_or_else(|| short(i))?;
            let count = usize::from(head & 0x7f) + 1;
            let left = (n * bpp - raw.len()) / bpp;
            if head & 0x80 != 0 {
                let px = data.get(i + 1..i + 1 + bpp).ok_or_else(|| short(i))?;
                for _ in 0..count.min(left) {
                    raw.extend_from_slice(px);
                }
                i += 1 + bpp;
            } else {
                let px = data
                    .get(i + 1..i + 1 + count * bpp)
                    .ok_or_else(|| short(i))?;
                raw.extend_from_slice(&px[..count.min(left) * bpp]);
                i += 1 + count * bpp;
            }
        }
    } else {
        let need = (n * bpp) as u64;
        let px = data.get(..n * bpp).ok_or_else(|| {
            TextureError::new(
                K::TooShort {
                    what: format!("TGA pixel data ({w}x{h}, {} bits per pixel)", l.bytes * 8),
                    need,
                    have: data.len() as u64,
                },
                offset,
            )
        })?;
        raw.extend_from_slice(px);
    }
    let (w, h) = (w as usize, h as usize);
    let mut out = vec![0u8; n * 4];
    for (i, px) in raw.chunks_exact(bpp).enumerate() {
        let (x, y) = (i % w, i / w);
        let x = if l.right_to_left { w - 1 - x } else { x };
        let y = if l.top_down { y } else { h - 1 - y };
        let rgba = match px {
            [g] => [*g, *g, *g, 255],
            [g, a] => [*g, *g, *g, *a],
            [b, g, r] => [*r, *g, *b, 255],
            [b, g, r, a] => [*r, *g, *b, *a],
            _ => unreachable!("1 to 4 bytes per pixel"),
        };
        let a = if l.alpha { rgba[3] } else { 255 };
        out[(y * w + x) * 4..][..4].copy_from_slice(&[rgba[0], rgba[1], rgba[2], a]);
    }
    Ok(out)
}
