//! Writing BLP1: RGBA8 into JPEG content (with a shared JPEG header) or paletted content,
//! with a box-filtered mip chain.
//!
//! The layout is the one `blp.rs` reads: a 156-byte header (`BLP1`, compression, alpha
//! bits, width, height, pictureType, hasMipmaps, 16 mip offsets, 16 mip sizes), then for
//! JPEG the shared header's size and bytes, for palettes 256 BGRA entries, then the levels.
//!
//! JPEG: each level is a baseline JPEG with four components, sampled 1x1, whose stored
//! samples are 255 minus B, G, R, A. `jpeg-encoder`'s `Cmyk` input is stored as given once
//! its Adobe marker is gone (libjpeg reads back exactly the input; checked with Pillow), so
//! it is handed 255 minus BGRA. Every component uses the IJG luminance table
//! scaled to the quality, as nearly all real files do. `jpeg-encoder` writes a JFIF APP0 and
//! an Adobe APP14 segment and puts the frame header before the tables; the APP segments are
//! dropped (real files have none) and the tables moved first, so SOI + DQT + DHT (572
//! bytes, a size real files use) is the same for every level and is stored once as the
//! shared header; each level's bytes start at its SOF.

use super::{full_chain, mip_size, RgbaImage, TextureError, TextureErrorKind as K};

/// The largest shared JPEG header some readers (the game among them) accept.
pub const MAX_JPEG_HEADER: usize = 624;

/// What a BLP1 file stores for each level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlpContent {
    /// A JPEG per level, at this quality (1 to 100, as IJG/libjpeg count it).
    Jpeg {
        /// IJG quality, 1 (smallest) to 100 (best).
        quality: u8,
    },
    /// A shared palette of 256 colours (NeuQuant-quantised, or exact when the image has
    /// at most 256 colours), a byte per pixel, and an alpha plane.
    Palette,
}

/// How [`to_bytes`] writes a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlpOptions {
    /// JPEG or palette content.
    pub content: BlpContent,
    /// The alpha-bits field: 0 (opaque) or 8 for JPEG; 0, 1, 4 or 8 for palettes. `None`:
    /// 8 if any pixel of level 0 has alpha below 255, else 0.
    pub alpha_bits: Option<u8>,
    /// Write the whole mip chain (down to 1x1, at most 16 levels), else level 0 only.
    pub mipmaps: bool,
}

impl BlpOptions {
    /// JPEG content at `quality`, alpha bits chosen from the image, with mipmaps.
    pub fn jpeg(quality: u8) -> Self {
        BlpOptions {
            content: BlpContent::Jpeg { quality },
            alpha_bits: None,
            mipmaps: true,
        }
    }

    /// Palette content, alpha bits chosen from the image, with mipmaps.
    pub fn palette() -> Self {
        BlpOptions {
            content: BlpContent::Palette,
            alpha_bits: None,
            mipmaps: true,
        }
    }
}

impl Default for BlpOptions {
    /// JPEG at quality 80 (the corpus files with a 624-byte header mostly use 75 or 80),
    /// alpha bits from the image, with mipmaps.
    fn default() -> Self {
        BlpOptions::jpeg(80)
    }
}

fn refuse(why: String) -> TextureError {
    TextureError::new(K::Encode(why), 0)
}

/// Encodes `image` as a BLP1 file.
///
/// Any non-zero size is accepted, powers of two or not: real BLP1 files that maps ship are
/// sized 84x88, 300x450 or 1920x1080 too, and each mip level is half the one before,
/// rounded down (as the readers compute it). JPEG content is limited to 65535 pixels a
/// side (the JPEG frame header's limit). Errors: an empty image, a pixel buffer whose
/// length is not `width * height * 4`, a quality outside 1..=100, alpha bits the content
/// cannot store.
pub fn to_bytes(image: &RgbaImage, options: &BlpOptions) -> Result<Vec<u8>, TextureError> {
    let (w, h) = (image.width, image.height);
    if w == 0 || h == 0 {
        return Err(refuse(format!("an image of {w}x{h} has no pixels")));
    }
    let expected = u64::from(w) * u64::from(h) * 4;
    if image.pixels.len() as u64 != expected {
        return Err(refuse(format!(
            "a {w}x{h} image needs {expected} bytes of RGBA, it has {}",
            image.pixels.len()
        )));
    }
    let alpha_bits = match options.alpha_bits {
        Some(bits) => bits,
        None if image.pixels.chunks_exact(4).any(|p| p[3] < 255) => 8,
        None => 0,
    };
    let count = if options.mipmaps {
        full_chain(w, h).min(16)
    } else {
        1
    };
    let mut levels = Vec::with_capacity(count);
    levels.push(image.clone());
    while levels.len() < count {
        let (nw, nh) = mip_size(w, h, levels.len());
        let next = halve(levels.last().expect("level 0 is there"), nw, nh);
        levels.push(next);
    }

    let (compression, picture_type, middle, bodies) = match options.content {
        BlpContent::Jpeg { quality } => {
            if !(1..=100).contains(&quality) {
                return Err(refuse(format!("JPEG quality {quality} is not in 1..=100")));
            }
            if !matches!(alpha_bits, 0 | 8) {
                return Err(refuse(format!(
                    "JPEG content stores 8-bit alpha or none: alpha bits {alpha_bits} (0 or 8)"
                )));
            }
            if w > 65535 || h > 65535 {
                return Err(refuse(format!(
                    "JPEG content is at most 65535 pixels a side, the image is {w}x{h}"
                )));
            }
            let (header, bodies) = jpeg_levels(&levels, quality, alpha_bits != 0)?;
            let mut middle = (header.len() as u32).to_le_bytes().to_vec();
            middle.extend_from_slice(&header);
            (0u32, if alpha_bits != 0 { 4 } else { 5 }, middle, bodies)
        }
        BlpContent::Palette => {
            if !matches!(alpha_bits, 0 | 1 | 4 | 8) {
                return Err(refuse(format!(
                    "palette content stores alpha in 0, 1, 4 or 8 bits, not {alpha_bits}"
                )));
            }
            let (palette, bodies) = palette_levels(&levels, alpha_bits);
            (1u32, 5, palette, bodies)
        }
    };

    let mut out = Vec::new();
    out.extend_from_slice(b"BLP1");
    for field in [
        compression,
        alpha_bits.into(),
        w,
        h,
        picture_type,
        u32::from(options.mipmaps),
    ] {
        out.extend_from_slice(&field.to_le_bytes());
    }
    let table = out.len();
    out.resize(table + 128, 0);
    out.extend_from_slice(&middle);
    for (n, body) in bodies.iter().enumerate() {
        let (offset, size) = (out.len(), body.len());
        let too_big = || refuse(format!("the file passes 4 GiB at mip {n}"));
        let offset = u32::try_from(offset).map_err(|_| too_big())?;
        let size = u32::try_from(size).map_err(|_| too_big())?;
        out[table + 4 * n..][..4].copy_from_slice(&offset.to_le_bytes());
        out[table + 64 + 4 * n..][..4].copy_from_slice(&size.to_le_bytes());
        out.extend_from_slice(body);
    }
    Ok(out)
}

/// The next mip level: each pixel is the rounded mean of the box of `src` pixels it
/// covers (2x2 when both sides halve evenly; odd sides spread the dropped row or column
/// over the boxes, so every source pixel counts).
fn halve(src: &RgbaImage, w: u32, h: u32) -> RgbaImage {
    let (sw, sh) = (src.width as usize, src.height as usize);
    let (w, h) = (w as usize, h as usize);
    let span = |i: usize, n: usize, sn: usize| {
        let a = i * sn / n;
        (a, ((i + 1) * sn / n).max(a + 1))
    };
    let mut pixels = Vec::with_capacity(w * h * 4);
    for y in 0..h {
        let (y0, y1) = span(y, h, sh);
        for x in 0..w {
            let (x0, x1) = span(x, w, sw);
            let mut sum = [0u32; 4];
            for row in y0..y1 {
                for p in src.pixels[(row * sw + x0) * 4..(row * sw + x1) * 4].chunks_exact(4) {
                    for c in 0..4 {
                        sum[c] += u32::from(p[c]);
                    }
                }
            }
            let n = ((y1 - y0) * (x1 - x0)) as u32;
            pixels.extend(sum.map(|s| ((s + n / 2) / n) as u8));
        }
    }
    RgbaImage {
        width: w as u32,
        height: h as u32,
        pixels,
    }
}

/// The IJG luminance table of ITU-T T.81 Annex K, natural order.
const LUMA: [u16; 64] = [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
    14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113,
    92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];

/// The luminance table scaled to `quality` as libjpeg does, kept to 8-bit entries.
fn luma_table(quality: u8) -> [u16; 64] {
    let q = u32::from(quality.clamp(1, 100));
    let scale = if q < 50 { 5000 / q } else { 200 - 2 * q };
    LUMA.map(|v| ((u32::from(v) * scale + 50) / 100).clamp(1, 255) as u16)
}

/// Encodes every level and splits off the shared header (SOI and the table segments).
fn jpeg_levels(
    levels: &[RgbaImage],
    quality: u8,
    alpha: bool,
) -> Result<(Vec<u8>, Vec<Vec<u8>>), TextureError> {
    let table = luma_table(quality);
    let mut header: Option<Vec<u8>> = None;
    let mut bodies = Vec::with_capacity(levels.len());
    for (n, level) in levels.iter().enumerate() {
        let bgra: Vec<u8> = level
            .pixels
            .chunks_exact(4)
            .flat_map(|p| [p[2], p[1], p[0], if alpha { p[3] } else { 255 }].map(|v| 255 - v))
            .collect();
        let mut raw = Vec::new();
        let mut encoder = jpeg_encoder::Encoder::new(&mut raw, quality);
        encoder.set_sampling_factor(jpeg_encoder::SamplingFactor::F_1_1);
        encoder.set_quantization_tables(
            jpeg_encoder::QuantizationTableType::Custom(Box::new(table)),
            jpeg_encoder::QuantizationTableType::Custom(Box::new(table)),
        );
        encoder
            .encode(
                &bgra,
                level.width as u16,
                level.height as u16,
                jpeg_encoder::ColorType::Cmyk,
            )
            .map_err(|e| refuse(format!("mip {n}: JPEG encoder: {e}")))?;
        let (tables, rest) = split_jpeg(&raw).map_err(|e| refuse(format!("mip {n}: {e}")))?;
        match &header {
            None => header = Some(tables),
            Some(h) if *h == tables => {}
            Some(_) => {
                return Err(refuse(format!(
                    "mip {n}: the JPEG encoder wrote tables unlike level 0's"
                )))
            }
        }
        bodies.push(rest);
    }
    let header = header.expect("there is at least one level");
    if header.len() > MAX_JPEG_HEADER {
        return Err(refuse(format!(
            "the shared JPEG header is {} bytes, over the {MAX_JPEG_HEADER} readers accept",
            header.len()
        )));
    }
    Ok((header, bodies))
}

/// Splits a JPEG stream into SOI + its DQT and DHT segments, and the rest (its other
/// segments before the scan, in their order, then the scan to the end), dropping APPn
/// segments.
fn split_jpeg(s: &[u8]) -> Result<(Vec<u8>, Vec<u8>), String> {
    if !s.starts_with(&[0xff, 0xd8]) {
        return Err("the JPEG encoder's output does not start with SOI".into());
    }
    let (mut tables, mut rest) = (vec![0xff, 0xd8], Vec::new());
    let mut i = 2;
    loop {
        let (Some(&0xff), Some(&marker)) = (s.get(i), s.get(i + 1)) else {
            return Err(format!("no marker at JPEG byte {i:#x}"));
        };
        if marker == 0xda {
            rest.extend_from_slice(&s[i..]);
            return Ok((tables, rest));
        }
        let len = match s.get(i + 2..i + 4) {
            Some(l) => usize::from(u16::from_be_bytes([l[0], l[1]])),
            None => return Err("the JPEG ends inside a segment".into()),
        };
        let segment = s
            .get(i..i + 2 + len)
            .ok_or("the JPEG ends inside a segment")?;
        match marker {
            0xdb | 0xc4 => tables.extend_from_slice(segment),
            0xe0..=0xef => {}
            _ => rest.extend_from_slice(segment),
        }
        i += 2 + len;
    }
}

/// The palette (256 BGRA entries, 4th byte 0) and each level's indices then alpha plane.
fn palette_levels(levels: &[RgbaImage], alpha_bits: u8) -> (Vec<u8>, Vec<Vec<u8>>) {
    let quantiser = Quantiser::new(&levels[0]);
    let mut palette = Vec::with_capacity(1024);
    for c in quantiser.colours.chunks_exact(3) {
        palette.extend_from_slice(&[c[2], c[1], c[0], 0]);
    }
    palette.resize(1024, 0);
    let bodies = levels
        .iter()
        .map(|level| {
            let n = level.pixels.len() / 4;
            let mut body = Vec::with_capacity(n + (n * usize::from(alpha_bits)).div_ceil(8));
            body.extend(level.pixels.chunks_exact(4).map(|p| quantiser.index(p)));
            let alpha = level.pixels.chunks_exact(4).map(|p| p[3]);
            match alpha_bits {
                0 => {}
                8 => body.extend(alpha),
                bits => {
                    let per_byte = 8 / usize::from(bits);
                    let mut packed = vec![0u8; n.div_ceil(per_byte)];
                    for (i, a) in alpha.enumerate() {
                        let v = if bits == 1 {
                            u8::from(a >= 128)
                        } else {
                            ((u16::from(a) + 8) / 17) as u8
                        };
                        packed[i / per_byte] |= v << (usize::from(bits) * (i % per_byte));
                    }
                    body.extend(packed);
                }
            }
            body
        })
        .collect();
    (palette, bodies)
}

/// Maps RGB to palette indices: exactly when the image has at most 256 colours, else
/// through NeuQuant (`color_quant`) trained on level 0.
struct Quantiser {
    /// RGB triples, at most 256 of them.
    colours: Vec<u8>,
    exact: Option<std::collections::HashMap<[u8; 3], u8>>,
    neuquant: Option<color_quant::NeuQuant>,
}

/// NeuQuant's sampling factor: 1 learns from every pixel (best, slowest), 30 from one in 30.
const NEUQUANT_SAMPLE: i32 = 10;

impl Quantiser {
    fn new(image: &RgbaImage) -> Self {
        let mut exact = std::collections::HashMap::new();
        let mut colours = Vec::new();
        for p in image.pixels.chunks_exact(4) {
            let rgb = [p[0], p[1], p[2]];
            if !exact.contains_key(&rgb) {
                if exact.len() == 256 {
                    return Quantiser::neuquant(image);
                }
                exact.insert(rgb, exact.len() as u8);
                colours.extend_from_slice(&rgb);
            }
        }
        Quantiser {
            colours,
            exact: Some(exact),
            neuquant: None,
        }
    }

    fn neuquant(image: &RgbaImage) -> Self {
        // Alpha has its own plane: quantise colour alone.
        let opaque: Vec<u8> = image
            .pixels
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect();
        let nq = color_quant::NeuQuant::new(NEUQUANT_SAMPLE, 256, &opaque);
        Quantiser {
            colours: nq.color_map_rgb(),
            exact: None,
            neuquant: Some(nq),
        }
    }

    fn index(&self, p: &[u8]) -> u8 {
        let rgb = [p[0], p[1], p[2]];
        if let Some(i) = self.exact.as_ref().and_then(|m| m.get(&rgb)) {
            return *i;
        }
        match &self.neuquant {
            Some(nq) => nq.index_of(&[p[0], p[1], p[2], 255]) as u8,
            // A mip level's averaged colour that level 0 lacks: the nearest entry.
            None => nearest(&self.colours, rgb),
        }
    }
}

/// The index of the RGB entry of `colours` nearest to `rgb` (squared distance).
fn nearest(colours: &[u8], rgb: [u8; 3]) -> u8 {
    let d = |c: &[u8]| -> i32 {
        (0..3)
            .map(|k| (i32::from(c[k]) - i32::from(rgb[k])).pow(2))
            .sum()
    };
    colours
        .chunks_exact(3)
        .enumerate()
        .min_by_key(|(_, c)| d(c))
        .map_or(0, |(i, _)| i as u8)
}
