//! Contact sheets: many pictures in one, on a grid, each with its name written underneath
//! in our own bitmap font, white with a 1-pixel black outline so that it reads on any
//! background (transparent, light or dark).

use super::font::{self, ADVANCE, ELLIPSIS, GLYPH_HEIGHT};
use crate::texture::RgbaImage;

/// Empty pixels around the sheet and between cells.
pub const GAP: u32 = 6;
/// The names' colour.
const INK: [u8; 4] = [255, 255, 255, 255];
/// Their outline's colour.
const OUTLINE: [u8; 4] = [0, 0, 0, 255];

/// How many times the font is enlarged for pictures `width` pixels wide: 1 up to 383 pixels,
/// 2 up to 767, and so on, so that names keep their size relative to the pictures.
pub fn text_scale(width: u32) -> u32 {
    1 + width / 384
}

/// Height of the band under each picture that holds its name: a pixel of space, the outlined
/// text (glyph height times the scale, plus the outline's pixel above and below), a pixel of
/// space.
pub fn name_band_height(width: u32) -> u32 {
    GLYPH_HEIGHT * text_scale(width) + 4
}

/// A grid of pictures, `columns` across (at least 1), in order left to right then top to
/// bottom, on `background` (straight RGBA), each with its name in the band under it.
///
/// Cells are the size of the largest picture (they are meant to be all the same size; a
/// smaller one is centred in its cell) plus the name band ([`name_band_height`]); cell `i`'s
/// picture has its top left corner at `(GAP + (i % columns) * (w + GAP), GAP + (i / columns)
/// * (h + band + GAP))`, and the sheet is `GAP + columns * (w + GAP)` wide (`columns` no more
/// than the pictures) and `GAP + rows * (h + band + GAP)` high. Pictures are drawn over the
/// background (alpha "over"). A name too long for its cell is cut in the middle (or at the
/// front, in narrow cells) with an ellipsis, so that its end, usually what tells models
/// apart, stays; characters outside printable ASCII are drawn as `?`.
pub fn contact_sheet(
    cells: &[(String, RgbaImage)],
    columns: usize,
    background: [u8; 4],
) -> RgbaImage {
    let w = cells.iter().map(|(_, p)| p.width).max().unwrap_or(0);
    let h = cells.iter().map(|(_, p)| p.height).max().unwrap_or(0);
    let band = name_band_height(w);
    let columns = columns.clamp(1, cells.len().max(1)) as u32;
    let rows = (cells.len() as u32).div_ceil(columns);
    let mut sheet = RgbaImage {
        width: GAP + columns * (w + GAP),
        height: GAP + rows * (h + band + GAP),
        pixels: Vec::new(),
    };
    sheet.pixels = background.repeat(sheet.width as usize * sheet.height as usize);
    let scale = text_scale(w);
    for (i, (name, picture)) in cells.iter().enumerate() {
        let (col, row) = (i as u32 % columns, i as u32 / columns);
        let x = GAP + col * (w + GAP);
        let y = GAP + row * (h + band + GAP);
        draw_over(
            &mut sheet,
            picture,
            x + (w - picture.width) / 2,
            y + (h - picture.height) / 2,
        );
        let text = fit(name, max_chars(w, scale));
        let text_width = text_width(text.len() as u32, scale);
        draw_text(
            &mut sheet,
            &text,
            x + (w - text_width.min(w)) / 2,
            y + h + 1,
            scale,
        );
    }
    sheet
}

/// Width in pixels of `n` characters of outlined text at `scale`.
fn text_width(n: u32, scale: u32) -> u32 {
    if n == 0 {
        0
    } else {
        (n * ADVANCE - 1) * scale + 2
    }
}

/// How many characters of outlined text fit in `width` pixels at `scale`.
fn max_chars(width: u32, scale: u32) -> usize {
    if width < 2 + font::GLYPH_WIDTH * scale {
        return 0;
    }
    (((width - 2) / scale + 1) / ADVANCE) as usize
}

/// `name` as at most `max` characters: whole if it fits, else cut with an ellipsis in the
/// middle (keeping a third of the room for the start, the rest for the end), or at the front
/// when fewer than 12 characters fit.
fn fit(name: &str, max: usize) -> Vec<char> {
    let chars: Vec<char> = name.chars().collect();
    if chars.len() <= max {
        return chars;
    }
    if max == 0 {
        return Vec::new();
    }
    let room = max - 1;
    let front = if max < 12 { 0 } else { room / 3 };
    let back = room - front;
    let mut out = chars[..front].to_vec();
    out.push(ELLIPSIS);
    out.extend_from_slice(&chars[chars.len() - back..]);
    out
}

/// Draws `picture` over `sheet` with its top left corner at (`x`, `y`).
fn draw_over(sheet: &mut RgbaImage, picture: &RgbaImage, x: u32, y: u32) {
    let row_len = picture.width as usize * 4;
    for (py, src_row) in picture.pixels.chunks_exact(row_len).enumerate() {
        let start = ((y as usize + py) * sheet.width as usize + x as usize) * 4;
        let dst_row = &mut sheet.pixels[start..start + row_len];
        for (d, s) in dst_row.chunks_exact_mut(4).zip(src_row.chunks_exact(4)) {
            let over = blend_over([s[0], s[1], s[2], s[3]], [d[0], d[1], d[2], d[3]]);
            d.copy_from_slice(&over);
        }
    }
}

/// Straight-alpha `src` over `dst`.
fn blend_over(src: [u8; 4], dst: [u8; 4]) -> [u8; 4] {
    match src[3] {
        255 => return src,
        0 => return dst,
        _ => {}
    }
    let sa = u32::from(src[3]);
    // Destination's weight, in 255ths squared.
    let da = u32::from(dst[3]) * (255 - sa);
    let out_a = sa * 255 + da;
    let mut out = [0u8; 4];
    for c in 0..3 {
        let v = u32::from(src[c]) * sa * 255 + u32::from(dst[c]) * da;
        out[c] = ((v + out_a / 2) / out_a) as u8;
    }
    out[3] = ((out_a + 127) / 255) as u8;
    out
}

/// Draws `text` at `scale` with its outline's top left corner at (`x`, `y`), clipped to the
/// sheet.
fn draw_text(sheet: &mut RgbaImage, text: &[char], x: u32, y: u32, scale: u32) {
    let glyphs: Vec<[u8; 8]> = text.iter().map(|&c| font::glyph(c)).collect();
    let width = text_width(glyphs.len() as u32, scale) as i32;
    let height = (GLYPH_HEIGHT * scale + 2) as i32;
    let (s, advance) = (scale as i32, (ADVANCE * scale) as i32);
    // Ink at (tx, ty), text coordinates: (0, 0) the first glyph's top left pixel.
    let ink = |tx: i32, ty: i32| {
        if tx < 0 || ty < 0 {
            return false;
        }
        let Some(g) = glyphs.get((tx / advance) as usize) else {
            return false;
        };
        font::ink(g, (tx % advance) / s, ty / s)
    };
    for oy in 0..height {
        for ox in 0..width {
            let (tx, ty) = (ox - 1, oy - 1);
            let colour = if ink(tx, ty) {
                INK
            } else if (-1..=1).any(|dy| (-1..=1).any(|dx| ink(tx + dx, ty + dy))) {
                OUTLINE
            } else {
                continue;
            };
            let (px, py) = (x + ox as u32, y + oy as u32);
            if px < sheet.width && py < sheet.height {
                let i = (py as usize * sheet.width as usize + px as usize) * 4;
                sheet.pixels[i..i + 4].copy_from_slice(&colour);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_keep_their_end() {
        let s = |v: Vec<char>| v.into_iter().collect::<String>();
        assert_eq!(s(fit("Footman.mdx", 20)), "Footman.mdx");
        assert_eq!(s(fit("abcdefghij", 5)), "\u{2026}ghij");
        let cut = s(fit("Units/Human/Footman/Footman.mdx", 13));
        assert_eq!(cut, "Unit\u{2026}tman.mdx");
        assert_eq!(cut.chars().count(), 13);
        assert!(fit("abc", 0).is_empty());
    }

    #[test]
    fn the_widest_text_that_fits_fits() {
        for scale in 1..4 {
            for width in 0..300 {
                let n = max_chars(width, scale) as u32;
                assert!(text_width(n, scale) <= width, "{width} {scale}");
                assert!(text_width(n + 1, scale) > width, "{width} {scale}");
            }
        }
    }

    #[test]
    fn over_an_opaque_background_is_the_weighted_mean() {
        assert_eq!(
            blend_over([200, 0, 0, 128], [0, 0, 200, 255]),
            [100, 0, 100, 255]
        );
        assert_eq!(blend_over([10, 20, 30, 0], [1, 2, 3, 4]), [1, 2, 3, 4]);
        assert_eq!(blend_over([9, 9, 9, 77], [0, 0, 0, 0]), [9, 9, 9, 77]);
    }
}
