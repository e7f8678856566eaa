//! Writing TGA (uncompressed or run-length encoded) and uncompressed DDS from an RGBA image.
//!
//! TGA: an 18-byte header (no image ID, no colour map), image type 2 (true colour) or 10
//! (run-length true colour), 32 bits per pixel stored B, G, R, A, and descriptor 0x28: eight
//! alpha bits, rows top to bottom. DDS: `DDS ` and the 124-byte header with the flags of a
//! plain texture (caps, height, width, pitch, pixel format), one level, and a 32-bit
//! pixel format with masks R 0xff0000, G 0xff00, B 0xff, A 0xff000000 (bytes B, G, R, A),
//! the layout every DDS reader takes without a FourCC.

use super::RgbaImage;

/// The image as a TGA file: 32-bit BGRA, top row first; `rle`: run-length encoded
/// (image type 10), else raw (image type 2). Sizes above 65535 do not fit a TGA header and
/// are refused.
pub fn tga_to_bytes(image: &RgbaImage, rle: bool) -> Result<Vec<u8>, String> {
    let (w, h) = (image.width, image.height);
    if w == 0 || h == 0 || w > 0xffff || h > 0xffff {
        return Err(format!(
            "a TGA holds 1 to 65535 pixels a side; this image is {w} x {h}"
        ));
    }
    let mut out = Vec::with_capacity(18 + image.pixels.len());
    out.extend_from_slice(&[0, 0, if rle { 10 } else { 2 }]);
    out.extend_from_slice(&[0; 5]); // no colour map
    out.extend_from_slice(&[0; 4]); // origin x, y
    out.extend_from_slice(&(w as u16).to_le_bytes());
    out.extend_from_slice(&(h as u16).to_le_bytes());
    out.push(32);
    out.push(0x28); // 8 alpha bits, top-left origin
    let bgra = |p: &[u8]| [p[2], p[1], p[0], p[3]];
    for row in image.pixels.chunks_exact(w as usize * 4) {
        let px: Vec<[u8; 4]> = row.chunks_exact(4).map(bgra).collect();
        if rle {
            rle_row(&px, &mut out);
        } else {
            px.iter().for_each(|p| out.extend_from_slice(p));
        }
    }
    Ok(out)
}

/// One row in TGA packets (packets never cross rows, as the format advises): runs of 2 or
/// more equal pixels as run packets, the rest as raw packets, at most 128 pixels each.
fn rle_row(px: &[[u8; 4]], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < px.len() {
        let run = px[i..]
            .iter()
            .take(128)
            .take_while(|p| **p == px[i])
            .count();
        if run >= 2 {
            out.push(0x80 | (run - 1) as u8);
            out.extend_from_slice(&px[i]);
            i += run;
            continue;
        }
        // Raw: up to the next pair of equal pixels.
        let mut n = 1;
        while i + n < px.len() && n < 128 && !(i + n + 1 < px.len() && px[i + n] == px[i + n + 1]) {
            n += 1;
        }
        out.push((n - 1) as u8);
        px[i..i + n].iter().for_each(|p| out.extend_from_slice(p));
        i += n;
    }
}

/// The image as an uncompressed DDS file: one level, 32-bit BGRA with an alpha mask.
pub fn dds_to_bytes(image: &RgbaImage) -> Vec<u8> {
    const CAPS: u32 = 0x1;
    const HEIGHT: u32 = 0x2;
    const WIDTH: u32 = 0x4;
    const PITCH: u32 = 0x8;
    const PIXELFORMAT: u32 = 0x1000;
    const DDPF_ALPHAPIXELS: u32 = 0x1;
    const DDPF_RGB: u32 = 0x40;
    const DDSCAPS_TEXTURE: u32 = 0x1000;
    let mut h = [0u32; 31];
    h[0] = 124; // header size
    h[1] = CAPS | HEIGHT | WIDTH | PITCH | PIXELFORMAT;
    h[2] = image.height;
    h[3] = image.width;
    h[4] = image.width * 4; // pitch
    h[6] = 1; // one level
              // Pixel format (32 bytes) at word 18.
    h[18] = 32;
    h[19] = DDPF_RGB | DDPF_ALPHAPIXELS;
    h[21] = 32;
    h[22] = 0x00ff_0000;
    h[23] = 0x0000_ff00;
    h[24] = 0x0000_00ff;
    h[25] = 0xff00_0000;
    h[26] = DDSCAPS_TEXTURE;
    let mut out = Vec::with_capacity(128 + image.pixels.len());
    out.extend_from_slice(b"DDS ");
    h.iter()
        .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
    for p in image.pixels.chunks_exact(4) {
        out.extend_from_slice(&[p[2], p[1], p[0], p[3]]);
    }
    out
}

/// Whether both sides are powers of two, as Warcraft III needs of a texture.
pub fn is_power_of_two(image: &RgbaImage) -> bool {
    image.width.is_power_of_two() && image.height.is_power_of_two()
}

/// The image resized (nearest neighbour) to `width` x `height`.
pub fn resize(image: &RgbaImage, width: u32, height: u32) -> RgbaImage {
    let (w, h) = (width.max(1), height.max(1));
    let mut pixels = Vec::with_capacity(w as usize * h as usize * 4);
    for y in 0..h {
        let sy = (u64::from(y) * u64::from(image.height) / u64::from(h)) as usize;
        for x in 0..w {
            let sx = (u64::from(x) * u64::from(image.width) / u64::from(w)) as usize;
            let i = (sy * image.width as usize + sx) * 4;
            pixels.extend_from_slice(&image.pixels[i..i + 4]);
        }
    }
    RgbaImage {
        width: w,
        height: h,
        pixels,
    }
}

/// The nearest power of two to `n` (ties go up), at least 1.
pub fn nearest_power_of_two(n: u32) -> u32 {
    let up = n.max(1).next_power_of_two();
    let down = up / 2;
    if down >= 1 && n - down < up - n {
        down
    } else {
        up
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An image with runs, lone pixels and rows longer than one packet, written raw and
    /// run-length encoded, reads back through the TGA reader to the same pixels; the RLE
    /// file is smaller.
    #[test]
    fn tga_raw_and_rle_read_back_to_the_same_pixels() {
        let (w, h) = (300u32, 7u32);
        let mut pixels = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let v = if x < 150 { 10 } else { (x * 7 + y) as u8 };
                pixels.extend_from_slice(&[v, v / 2, 255 - v, if y == 3 { 0 } else { 255 }]);
            }
        }
        let image = RgbaImage {
            width: w,
            height: h,
            pixels,
        };
        let raw = tga_to_bytes(&image, false).unwrap();
        let rle = tga_to_bytes(&image, true).unwrap();
        assert!(rle.len() < raw.len());
        for bytes in [&raw, &rle] {
            let back = crate::texture::decode(bytes).unwrap();
            assert_eq!((back.width, back.height), (w, h));
            assert!(back.pixels == image.pixels);
        }
        let dds = crate::texture::decode(&dds_to_bytes(&image)).unwrap();
        assert!(dds.pixels == image.pixels);
    }

    #[test]
    fn nearest_powers_of_two() {
        let got: Vec<u32> = [1, 3, 5, 6, 200, 300, 384]
            .map(nearest_power_of_two)
            .to_vec();
        assert_eq!(got, [1, 4, 4, 8, 256, 256, 512]);
    }
}
