//! Pictures into files: a still PNG, and animations as APNG, GIF and WebP. Every animation
//! loops forever, shows each frame for the same delay and replaces the whole canvas with each
//! frame (no frame shows through the next, so transparent backgrounds stay transparent).
//!
//! - **APNG**: the `png` crate's animated encoder; RGBA8, lossless.
//! - **GIF**: one global palette for the whole animation (no colour flicker between frames):
//!   the exact colours when the frames hold at most 255, else 255 chosen by NeuQuant
//!   (`color_quant`) from the opaque pixels of every frame; the 256th entry is transparent.
//!   A pixel with alpha below 128 is transparent, any other is opaque. Delays are whole
//!   centiseconds (rounded to the nearest).
//! - **WebP**: each frame encoded losslessly (VP8L) by `image-webp`, in an animated RIFF
//!   container written here (`VP8X`, `ANIM`, one `ANMF` per frame). One frame makes a plain
//!   still WebP.

use crate::texture::RgbaImage;
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::fmt;

/// Why pictures could not be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// An animation was asked for with no frame.
    NoFrames {
        /// The file format ("APNG", "GIF", "WebP").
        format: &'static str,
    },
    /// A frame is not the size of the first.
    FrameSize {
        /// The file format.
        format: &'static str,
        /// The frame (0 is the first).
        index: usize,
        /// Its size, width and height.
        size: (u32, u32),
        /// The first frame's size.
        expected: (u32, u32),
    },
    /// A frame's pixel buffer does not hold `width * height * 4` bytes.
    PixelCount {
        /// The file format.
        format: &'static str,
        /// The frame (0 is the first).
        index: usize,
        /// How many bytes it holds.
        len: usize,
        /// How many its size asks for.
        expected: usize,
    },
    /// The picture is empty or larger than the format can hold.
    BadSize {
        /// The file format.
        format: &'static str,
        /// Its size, width and height.
        size: (u32, u32),
        /// The largest width or height the format allows.
        max: u32,
    },
    /// The delay between frames is longer than the format can say.
    DelayTooLong {
        /// The file format.
        format: &'static str,
        /// The delay asked for, in milliseconds.
        delay_ms: u32,
        /// The longest the format allows, in milliseconds.
        max_ms: u32,
    },
    /// The codec crate refused the data.
    Codec {
        /// The file format.
        format: &'static str,
        /// What the codec said.
        message: String,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::NoFrames { format } => write!(f, "{format}: no frame to encode"),
            EncodeError::FrameSize {
                format,
                index,
                size,
                expected,
            } => write!(
                f,
                "{format}: frame {index} is {} x {} but the first is {} x {}; every frame \
                 must be the same size",
                size.0, size.1, expected.0, expected.1
            ),
            EncodeError::PixelCount {
                format,
                index,
                len,
                expected,
            } => write!(
                f,
                "{format}: frame {index} holds {len} bytes of pixels, its size needs {expected}"
            ),
            EncodeError::BadSize { format, size, max } => write!(
                f,
                "{format}: a {} x {} picture cannot be written; width and height must be 1 \
                 to {max}",
                size.0, size.1
            ),
            EncodeError::DelayTooLong {
                format,
                delay_ms,
                max_ms,
            } => write!(
                f,
                "{format}: a delay of {delay_ms} ms between frames is longer than the format's \
                 {max_ms} ms"
            ),
            EncodeError::Codec { format, message } => write!(f, "{format}: {message}"),
        }
    }
}

impl std::error::Error for EncodeError {}

/// Checks that `frames` are at least one, all of one size, each buffer complete, and the size
/// from 1 to `max` on each side; returns the size.
fn check_frames(
    frames: &[RgbaImage],
    format: &'static str,
    max: u32,
) -> Result<(u32, u32), EncodeError> {
    let first = frames.first().ok_or(EncodeError::NoFrames { format })?;
    let size = (first.width, first.height);
    if size.0 == 0 || size.1 == 0 || size.0 > max || size.1 > max {
        return Err(EncodeError::BadSize { format, size, max });
    }
    for (index, frame) in frames.iter().enumerate() {
        if (frame.width, frame.height) != size {
            return Err(EncodeError::FrameSize {
                format,
                index,
                size: (frame.width, frame.height),
                expected: size,
            });
        }
        let expected = size.0 as usize * size.1 as usize * 4;
        if frame.pixels.len() != expected {
            return Err(EncodeError::PixelCount {
                format,
                index,
                len: frame.pixels.len(),
                expected,
            });
        }
    }
    Ok(size)
}

/// A still picture as an RGBA8 PNG.
///
/// # Panics
/// If `image.pixels` does not hold `width * height * 4` bytes.
pub fn png(image: &RgbaImage) -> Vec<u8> {
    crate::texture::png::to_bytes(image)
}

/// An animated PNG (APNG): `frames` in order, each shown `delay_ms` milliseconds, looping
/// forever; RGBA8, lossless. The first frame is also the still picture that readers without
/// APNG support show.
pub fn apng(frames: &[RgbaImage], delay_ms: u32) -> Result<Vec<u8>, EncodeError> {
    const FORMAT: &str = "APNG";
    let (width, height) = check_frames(frames, FORMAT, i32::MAX as u32)?;
    // The delay is a fraction of u16s: milliseconds over 1000, reduced.
    // (Whole seconds up to 65535 fit too; any delay up to 65535 ms does.)
    let g = gcd(delay_ms, 1000);
    let den = (1000 / g) as u16;
    let num = u16::try_from(delay_ms / g).map_err(|_| EncodeError::DelayTooLong {
        format: FORMAT,
        delay_ms,
        max_ms: u32::from(u16::MAX),
    })?;
    let codec = |e: ::png::EncodingError| EncodeError::Codec {
        format: FORMAT,
        message: e.to_string(),
    };
    let mut out = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut out, width, height);
    encoder.set_color(::png::ColorType::Rgba);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_compression(::png::Compression::Balanced);
    let count = u32::try_from(frames.len()).map_err(|_| EncodeError::Codec {
        format: FORMAT,
        message: format!("{} frames are more than APNG can count", frames.len()),
    })?;
    encoder.set_animated(count, 0).map_err(codec)?;
    encoder.set_frame_delay(num, den).map_err(codec)?;
    encoder
        .set_dispose_op(::png::DisposeOp::None)
        .map_err(codec)?;
    encoder
        .set_blend_op(::png::BlendOp::Source)
        .map_err(codec)?;
    let mut writer = encoder.write_header().map_err(codec)?;
    for frame in frames {
        writer.write_image_data(&frame.pixels).map_err(codec)?;
    }
    writer.finish().map_err(codec)?;
    Ok(out)
}

/// Greatest common divisor (`gcd(0, b) == b`).
fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Alpha from which a pixel is opaque in a GIF.
const GIF_OPAQUE_FROM: u8 = 128;
/// How many opaque pixels at most train the GIF palette (evenly spread over all frames).
const GIF_TRAINING_PIXELS: usize = 1 << 19;
/// How many pixels at least NeuQuant learns from (see [`GifPalette::new`]).
const GIF_MIN_TRAINING_PIXELS: usize = 1 << 16;

/// An animated GIF: `frames` in order, each shown `delay_ms` rounded to centiseconds,
/// looping forever, with one palette for all frames (see the module's notes). A single frame
/// makes a still GIF.
pub fn gif(frames: &[RgbaImage], delay_ms: u32) -> Result<Vec<u8>, EncodeError> {
    const FORMAT: &str = "GIF";
    let (width, height) = check_frames(frames, FORMAT, u32::from(u16::MAX))?;
    let delay =
        u16::try_from(delay_ms.saturating_add(5) / 10).map_err(|_| EncodeError::DelayTooLong {
            format: FORMAT,
            delay_ms,
            max_ms: 655_354,
        })?;
    let palette = GifPalette::new(frames);
    let codec = |e: ::gif::EncodingError| EncodeError::Codec {
        format: FORMAT,
        message: e.to_string(),
    };
    let mut out = Vec::new();
    {
        let mut encoder = ::gif::Encoder::new(&mut out, width as u16, height as u16, &palette.rgb)
            .map_err(codec)?;
        encoder.set_repeat(::gif::Repeat::Infinite).map_err(codec)?;
        let mut lookup = palette.lookup();
        for frame in frames {
            let indices: Vec<u8> = frame.pixels.chunks_exact(4).map(&mut lookup).collect();
            let gif_frame = ::gif::Frame {
                delay,
                dispose: ::gif::DisposalMethod::Background,
                transparent: Some(palette.transparent),
                width: width as u16,
                height: height as u16,
                buffer: Cow::Owned(indices),
                ..::gif::Frame::default()
            };
            encoder.write_frame(&gif_frame).map_err(codec)?;
        }
    }
    Ok(out)
}

/// The global palette of a GIF: `rgb` (3 bytes an entry), the transparent entry last.
struct GifPalette {
    rgb: Vec<u8>,
    transparent: u8,
    /// NeuQuant's network when the frames hold more colours than fit.
    quant: Option<color_quant::NeuQuant>,
}

impl GifPalette {
    /// The exact colours of the opaque pixels if they are at most 255, else NeuQuant's 255.
    fn new(frames: &[RgbaImage]) -> GifPalette {
        let opaque = || {
            frames
                .iter()
                .flat_map(|f| f.pixels.chunks_exact(4))
                .filter(|p| p[3] >= GIF_OPAQUE_FROM)
        };
        let mut exact = BTreeSet::new();
        for p in opaque() {
            exact.insert([p[0], p[1], p[2]]);
            if exact.len() > 255 {
                break;
            }
        }
        if exact.len() <= 255 {
            let mut rgb: Vec<u8> = exact.iter().flatten().copied().collect();
            let transparent = exact.len() as u8;
            rgb.extend([0, 0, 0]);
            return GifPalette {
                rgb,
                transparent,
                quant: None,
            };
        }
        let count = opaque().count();
        let step = count.div_ceil(GIF_TRAINING_PIXELS).max(1);
        let mut training = Vec::with_capacity(count / step * 4 + 4);
        for p in opaque().step_by(step) {
            training.extend([p[0], p[1], p[2], 255]);
        }
        // NeuQuant learns from one pass over its input: a small input (a few thousand
        // opaque pixels) is repeated so that every neuron gets trained.
        let pixels = training.len() / 4;
        if pixels < GIF_MIN_TRAINING_PIXELS {
            training = training.repeat(GIF_MIN_TRAINING_PIXELS.div_ceil(pixels));
        }
        let quant = color_quant::NeuQuant::new(10, 255, &training);
        let mut rgb = quant.color_map_rgb();
        rgb.extend([0, 0, 0]);
        GifPalette {
            rgb,
            transparent: 255,
            quant: Some(quant),
        }
    }

    /// The function from an RGBA pixel to its palette index (remembering colours seen).
    fn lookup(&self) -> impl FnMut(&[u8]) -> u8 + '_ {
        let mut seen: HashMap<[u8; 3], u8> = HashMap::new();
        move |p: &[u8]| {
            if p[3] < GIF_OPAQUE_FROM {
                return self.transparent;
            }
            let key = [p[0], p[1], p[2]];
            *seen.entry(key).or_insert_with(|| match &self.quant {
                Some(q) => q.index_of(&[p[0], p[1], p[2], 255]) as u8,
                None => self
                    .rgb
                    .chunks_exact(3)
                    .position(|c| c == key)
                    .expect("every opaque colour is in the exact palette")
                    as u8,
            })
        }
    }
}

/// The largest width or height of a VP8L (lossless WebP) picture.
const WEBP_MAX_SIDE: u32 = 1 << 14;
/// The longest frame duration an `ANMF` chunk can hold (24 bits of milliseconds).
const WEBP_MAX_DURATION: u32 = (1 << 24) - 1;

/// An animated WebP: every frame lossless, shown `delay_ms` milliseconds, looping forever on
/// a transparent background; each frame replaces the canvas (no blending). A single frame
/// makes a plain still WebP.
pub fn webp(frames: &[RgbaImage], delay_ms: u32) -> Result<Vec<u8>, EncodeError> {
    const FORMAT: &str = "WebP";
    let (width, height) = check_frames(frames, FORMAT, WEBP_MAX_SIDE)?;
    if delay_ms > WEBP_MAX_DURATION {
        return Err(EncodeError::DelayTooLong {
            format: FORMAT,
            delay_ms,
            max_ms: WEBP_MAX_DURATION,
        });
    }
    if let [only] = frames {
        return still_webp(only, FORMAT);
    }
    let alpha = frames
        .iter()
        .any(|f| f.pixels.chunks_exact(4).any(|p| p[3] != 255));
    let mut body = b"WEBP".to_vec();
    // VP8X: flags (alpha 0x10, animation 0x02), 3 reserved bytes, canvas size minus one.
    let mut vp8x = vec![if alpha { 0x12 } else { 0x02 }, 0, 0, 0];
    vp8x.extend_from_slice(&u24(width - 1));
    vp8x.extend_from_slice(&u24(height - 1));
    riff_chunk(&mut body, b"VP8X", &vp8x);
    // ANIM: background colour (B, G, R, A: transparent), loop count 0 (forever).
    riff_chunk(&mut body, b"ANIM", &[0, 0, 0, 0, 0, 0]);
    for frame in frames {
        let file = still_webp(frame, FORMAT)?;
        let vp8l = vp8l_payload(&file, FORMAT)?;
        // ANMF: offset (x/2, y/2), size minus one, duration, flags (bit 1: do not blend;
        // bit 0 clear: no disposal), then the frame's VP8L chunk.
        let mut anmf = Vec::with_capacity(16 + 8 + vp8l.len() + 1);
        anmf.extend_from_slice(&u24(0));
        anmf.extend_from_slice(&u24(0));
        anmf.extend_from_slice(&u24(width - 1));
        anmf.extend_from_slice(&u24(height - 1));
        anmf.extend_from_slice(&u24(delay_ms));
        anmf.push(0b10);
        riff_chunk(&mut anmf, b"VP8L", vp8l);
        riff_chunk(&mut body, b"ANMF", &anmf);
    }
    let size = u32::try_from(body.len()).map_err(|_| EncodeError::Codec {
        format: FORMAT,
        message: format!("{} bytes are more than a RIFF file can hold", body.len()),
    })?;
    let mut out = Vec::with_capacity(body.len() + 8);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(&body);
    Ok(out)
}

/// One picture as `image-webp` writes it: a simple lossless WebP file.
fn still_webp(image: &RgbaImage, format: &'static str) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    image_webp::WebPEncoder::new(&mut out)
        .encode(
            &image.pixels,
            image.width,
            image.height,
            image_webp::ColorType::Rgba8,
        )
        .map_err(|e| EncodeError::Codec {
            format,
            message: e.to_string(),
        })?;
    Ok(out)
}

/// The `VP8L` chunk's payload of a simple WebP file (`RIFF` size `WEBP` `VP8L` size data).
fn vp8l_payload<'a>(file: &'a [u8], format: &'static str) -> Result<&'a [u8], EncodeError> {
    let unexpected = || EncodeError::Codec {
        format,
        message: "image-webp wrote something other than a simple lossless WebP".into(),
    };
    if file.len() < 20 || &file[0..4] != b"RIFF" || &file[8..16] != b"WEBPVP8L" {
        return Err(unexpected());
    }
    let len = u32::from_le_bytes([file[16], file[17], file[18], file[19]]) as usize;
    file.get(20..20 + len).ok_or_else(unexpected)
}

/// Appends a RIFF chunk: its four-letter name, its size, its data, a pad byte if odd.
fn riff_chunk(out: &mut Vec<u8>, name: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(name);
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(data);
    if data.len() % 2 == 1 {
        out.push(0);
    }
}

/// The low 24 bits of `v`, little-endian.
fn u24(v: u32) -> [u8; 3] {
    let b = v.to_le_bytes();
    [b[0], b[1], b[2]]
}
