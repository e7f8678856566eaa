//! Writing TGA (uncompressed or run-length encoded) and DDS (uncompressed, BC1 or BC3,
//! with or without mipmaps) from an RGBA image.
//!
//! TGA: an 18-byte header (no image ID, no colour map), image type 2 (true colour) or 10
//! (run-length true colour), 32 bits per pixel stored B, G, R, A, and descriptor 0x28: eight
//! alpha bits, rows top to bottom. DDS: `DDS ` and the 124-byte header with the flags of a
//! plain texture (caps, height, width, pitch, pixel format), one level, and a 32-bit
//! pixel format with masks R 0xff0000, G 0xff00, B 0xff, A 0xff000000 (bytes B, G, R, A),
//! the layout every DDS reader takes without a FourCC. BC1 and BC3 files carry the FourCC
//! `DXT1` or `DXT5` and the size of their first level (the linear size) instead of a pitch;
//! with mipmaps, the mipmap count flag and the complex and mipmap caps.

use super::{BlpOptions, RgbaImage, TextureError};
use crate::formats::Format;
use std::fmt;

/// How [`encode`] writes each texture format (each option used by its format only).
#[derive(Clone, Debug)]
pub struct EncodeOptions {
    /// BLP: JPEG content and its quality, or a palette.
    pub blp: BlpOptions,
    /// TGA: run-length encoded (image type 10) rather than raw (type 2).
    pub tga_rle: bool,
    /// DDS: the pixel format; `None`: [`DdsOutput::for_image`]. Mipmaps are always written.
    pub dds: Option<DdsOutput>,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            blp: BlpOptions::jpeg(90),
            tga_rle: false,
            dds: None,
        }
    }
}

/// Why [`encode`] wrote nothing.
#[derive(Debug)]
#[non_exhaustive]
pub enum EncodeError {
    /// The format is not a texture format (a model format, say).
    NotATexture(Format),
    /// The BLP encoder refused the image.
    Blp(TextureError),
    /// The TGA writer refused the image (a side over 65535).
    Tga(String),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::NotATexture(format) => {
                write!(f, "a texture is not written as {}", format.short_name())
            }
            EncodeError::Blp(e) => e.fmt(f),
            EncodeError::Tga(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for EncodeError {}

/// The one door out for textures: `image` as `format` (BLP1, PNG, TGA or DDS) with
/// `options`. Any other format is refused ([`EncodeError::NotATexture`]), never written as
/// some other format.
pub fn encode(
    image: &RgbaImage,
    format: Format,
    options: &EncodeOptions,
) -> Result<Vec<u8>, EncodeError> {
    match format {
        Format::Blp => super::blp1::to_bytes(image, &options.blp).map_err(EncodeError::Blp),
        Format::Png => Ok(super::png::to_bytes(image)),
        Format::Tga => tga_to_bytes(image, options.tga_rle).map_err(EncodeError::Tga),
        Format::Dds => {
            let dds = options.dds.unwrap_or_else(|| DdsOutput::for_image(image));
            Ok(dds_to_bytes_as(image, dds, true))
        }
        _ => Err(EncodeError::NotATexture(format)),
    }
}

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
    dds_to_bytes_as(image, DdsOutput::Rgba, false)
}

/// The pixel format of a DDS file we write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DdsOutput {
    /// 32-bit BGRA with an alpha mask, uncompressed (4 bytes a pixel).
    Rgba,
    /// BC1 (`DXT1`): 8 bytes a 4 x 4 block, colour and at most one bit of alpha.
    Bc1,
    /// BC3 (`DXT5`): 16 bytes a 4 x 4 block, colour and interpolated 8-bit alpha.
    Bc3,
}

impl DdsOutput {
    /// The default for an image: BC3 when any pixel is not fully opaque, else BC1.
    pub fn for_image(image: &RgbaImage) -> DdsOutput {
        if image.pixels.chunks_exact(4).any(|p| p[3] != 255) {
            DdsOutput::Bc3
        } else {
            DdsOutput::Bc1
        }
    }
}

/// The image as a DDS file in `format`; `mipmaps`: every level down to 1 x 1 (each the
/// 2 x 2 box average of the one above, see [`mip_chain`]), else the full size only. BC1
/// and BC3 blocks are encoded by the `texpresso` crate (cluster fit, perceptual weights);
/// a side that is not a multiple of 4 gets partial blocks.
pub fn dds_to_bytes_as(image: &RgbaImage, format: DdsOutput, mipmaps: bool) -> Vec<u8> {
    const CAPS: u32 = 0x1;
    const HEIGHT: u32 = 0x2;
    const WIDTH: u32 = 0x4;
    const PITCH: u32 = 0x8;
    const PIXELFORMAT: u32 = 0x1000;
    const MIPMAPCOUNT: u32 = 0x2_0000;
    const LINEARSIZE: u32 = 0x8_0000;
    const DDPF_ALPHAPIXELS: u32 = 0x1;
    const DDPF_FOURCC: u32 = 0x4;
    const DDPF_RGB: u32 = 0x40;
    const DDSCAPS_COMPLEX: u32 = 0x8;
    const DDSCAPS_TEXTURE: u32 = 0x1000;
    const DDSCAPS_MIPMAP: u32 = 0x40_0000;
    let levels = if mipmaps {
        mip_chain(image)
    } else {
        vec![image.clone()]
    };
    let data: Vec<Vec<u8>> = levels.iter().map(|l| dds_level(l, format)).collect();
    let mut h = [0u32; 31];
    h[0] = 124; // header size
    h[1] = CAPS | HEIGHT | WIDTH | PIXELFORMAT;
    h[2] = image.height;
    h[3] = image.width;
    h[18] = 32; // pixel format size; the pixel format starts at word 18
    match format {
        DdsOutput::Rgba => {
            h[1] |= PITCH;
            h[4] = image.width * 4;
            h[19] = DDPF_RGB | DDPF_ALPHAPIXELS;
            h[21] = 32;
            h[22] = 0x00ff_0000;
            h[23] = 0x0000_ff00;
            h[24] = 0x0000_00ff;
            h[25] = 0xff00_0000;
        }
        DdsOutput::Bc1 | DdsOutput::Bc3 => {
            h[1] |= LINEARSIZE;
            h[4] = data[0].len() as u32;
            h[19] = DDPF_FOURCC;
            let fourcc = if format == DdsOutput::Bc1 {
                b"DXT1"
            } else {
                b"DXT5"
            };
            h[20] = u32::from_le_bytes(*fourcc);
        }
    }
    h[6] = levels.len() as u32;
    h[26] = DDSCAPS_TEXTURE;
    if levels.len() > 1 {
        h[1] |= MIPMAPCOUNT;
        h[26] |= DDSCAPS_COMPLEX | DDSCAPS_MIPMAP;
    }
    let total: usize = data.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(128 + total);
    out.extend_from_slice(b"DDS ");
    h.iter()
        .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
    data.iter().for_each(|d| out.extend_from_slice(d));
    out
}

/// One level's pixel data in `format`.
fn dds_level(image: &RgbaImage, format: DdsOutput) -> Vec<u8> {
    let (w, h) = (image.width as usize, image.height as usize);
    let bc = match format {
        DdsOutput::Rgba => {
            let mut out = Vec::with_capacity(image.pixels.len());
            for p in image.pixels.chunks_exact(4) {
                out.extend_from_slice(&[p[2], p[1], p[0], p[3]]);
            }
            return out;
        }
        DdsOutput::Bc1 => texpresso::Format::Bc1,
        DdsOutput::Bc3 => texpresso::Format::Bc3,
    };
    let mut out = vec![0; bc.compressed_size(w, h)];
    bc.compress(&image.pixels, w, h, texpresso::Params::default(), &mut out);
    out
}

/// The image and its mip levels down to 1 x 1: each side halved (an odd side rounds
/// down, never below 1), each pixel the rounded mean of the 2 x 2 pixels above it (of
/// the pixels that exist, on a side of 1).
pub fn mip_chain(image: &RgbaImage) -> Vec<RgbaImage> {
    let mut levels = vec![image.clone()];
    loop {
        let top = levels.last().expect("one level at least");
        let (w, h) = (top.width, top.height);
        if w <= 1 && h <= 1 {
            return levels;
        }
        let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
        let mut pixels = Vec::with_capacity(nw as usize * nh as usize * 4);
        for y in 0..nh {
            let ys = [(y * 2).min(h - 1), (y * 2 + 1).min(h - 1)];
            for x in 0..nw {
                let xs = [(x * 2).min(w - 1), (x * 2 + 1).min(w - 1)];
                for c in 0..4 {
                    let mut sum = 0u32;
                    for sy in ys {
                        for sx in xs {
                            let i = ((sy * w + sx) * 4) as usize + c;
                            sum += u32::from(top.pixels[i]);
                        }
                    }
                    pixels.push(((sum + 2) / 4) as u8);
                }
            }
        }
        levels.push(RgbaImage {
            width: nw,
            height: nh,
            pixels,
        });
    }
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

    /// A smooth image with a few hard edges, `alpha`: a horizontal alpha ramp.
    fn smooth(w: u32, h: u32, alpha: bool) -> RgbaImage {
        let mut pixels = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let edge = if (x / 16 + y / 16) % 2 == 0 { 0 } else { 60 };
                let a = if alpha {
                    (x * 255 / (w - 1)) as u8
                } else {
                    255
                };
                pixels.extend_from_slice(&[
                    (x * 3 + edge) as u8,
                    (y * 3) as u8,
                    (128 + edge) as u8,
                    a,
                ]);
            }
        }
        RgbaImage {
            width: w,
            height: h,
            pixels,
        }
    }

    /// The largest difference of one channel, over all pixels.
    fn worst(a: &RgbaImage, b: &RgbaImage) -> u8 {
        assert_eq!((a.width, a.height), (b.width, b.height));
        a.pixels
            .iter()
            .zip(&b.pixels)
            .map(|(p, q)| p.abs_diff(*q))
            .max()
            .unwrap_or(0)
    }

    /// BC1 (opaque image) and BC3 (alpha ramp) with mipmaps: the header says DXT1/DXT5
    /// and 7 levels for 64 x 48 (64, 32, 16, 8, 4, 2, 1 across), every level reads back
    /// through our BCn decoder at its size and close to the box-filtered source, and the
    /// default picks BC1 without alpha, BC3 with it.
    #[test]
    fn dds_bc1_and_bc3_with_mipmaps_read_back_close_to_the_source() {
        for (alpha, format, fourcc) in [
            (false, DdsOutput::Bc1, b"DXT1"),
            (true, DdsOutput::Bc3, b"DXT5"),
        ] {
            let image = smooth(64, 48, alpha);
            assert_eq!(DdsOutput::for_image(&image), format);
            let bytes = dds_to_bytes_as(&image, format, true);
            assert_eq!(&bytes[84..88], fourcc);
            let texture = crate::texture::Texture::from_bytes(&bytes).unwrap();
            assert_eq!(texture.mip_count(), 7);
            let want = mip_chain(&image);
            // BC1/BC3 store two RGB565 end points and 2-bit indices per 4 x 4 block (BC3
            // alpha: two 8-bit end points, 3-bit indices). At full size each block holds a
            // smooth ramp (the checker's edges fall on block edges): close. From level 3 on
            // a block spans several checker cells whose colours are off any one line, which
            // no BC1 block can hold: far (measured up to 71 at level 4, 4 x 3).
            let worsts: Vec<u8> = want
                .iter()
                .enumerate()
                .map(|(n, level)| worst(&texture.decode_level(n).unwrap(), level))
                .collect();
            eprintln!("{format:?}: worst channel difference by level {worsts:?}");
            assert!(worsts[0] <= 10, "{format:?}: {worsts:?}");
            assert!(worsts.iter().all(|&d| d <= 80), "{format:?}: {worsts:?}");
        }
        // Uncompressed with mipmaps: every level exactly the box-filtered source.
        let image = smooth(20, 12, true);
        let texture_bytes = dds_to_bytes_as(&image, DdsOutput::Rgba, true);
        let texture = crate::texture::Texture::from_bytes(&texture_bytes).unwrap();
        let want = mip_chain(&image);
        assert_eq!(texture.mip_count(), want.len());
        for (n, level) in want.iter().enumerate() {
            assert!(
                texture.decode_level(n).unwrap().pixels == level.pixels,
                "level {n}"
            );
        }
    }

    #[test]
    fn nearest_powers_of_two() {
        let got: Vec<u32> = [1, 3, 5, 6, 200, 300, 384]
            .map(nearest_power_of_two)
            .to_vec();
        assert_eq!(got, [1, 4, 4, 8, 256, 256, 512]);
    }
}
