//! The JPEG content of BLP1 files: a shared header plus each level's bytes make one JPEG
//! stream with four components that hold B, G, R, A inverted (the true value is 255 minus
//! the sample), with no Adobe marker and no colour transform. `zune-jpeg` decodes it with
//! its samples passed through untouched.

use super::{TextureError, TextureErrorKind as K};
use zune_jpeg::zune_core::{bytestream::ZCursor, colorspace::ColorSpace, options::DecoderOptions};

/// The frame a JPEG stream declares in its SOF segment.
struct Frame {
    width: u32,
    height: u32,
    components: u8,
}

/// Decodes the level whose JPEG stream is `head` + `body` (`body` at absolute `offset`).
/// `max` is the size of level 0: the frame may be no larger. Returns the pixels and their
/// size, which is the JPEG frame's: a few writers store a larger level's JPEG again for the
/// smallest levels (a 16x16 frame for the 8x8 to 1x1 levels), or round odd halvings up
/// (1x2 for 1x1). `alpha`: keep the fourth channel (else 255).
pub(super) fn decode(
    head: &[u8],
    body: &[u8],
    offset: u64,
    max: (u32, u32),
    alpha: bool,
    what: &str,
) -> Result<(Vec<u8>, u32, u32), TextureError> {
    let mut stream = Vec::with_capacity(head.len() + body.len());
    stream.extend_from_slice(head);
    stream.extend_from_slice(body);
    let jpeg_err = |message: String| {
        TextureError::new(
            K::Jpeg {
                what: what.into(),
                message,
            },
            offset,
        )
    };
    let frame = frame(&stream).map_err(jpeg_err)?;
    let (w, h) = (frame.width, frame.height);
    super::check_size(w, h, offset)?;
    if w > max.0 || h > max.1 {
        return Err(jpeg_err(format!(
            "its frame is {w}x{h}, larger than the {}x{} the BLP header gives for level 0",
            max.0, max.1
        )));
    }
    // Every 8x8 block of the first component costs at least one bit of scan data, so a
    // frame with more blocks than the stream has bits cannot be real: refuse it before
    // allocating its pixels.
    let blocks = u64::from(w.div_ceil(8)) * u64::from(h.div_ceil(8));
    if blocks > stream.len() as u64 * 8 {
        return Err(TextureError::new(
            K::TooLarge {
                width: w.into(),
                height: h.into(),
                why: format!(
                    "cannot come from a JPEG stream of {:#x} bytes ({blocks} blocks need at least one bit each)",
                    stream.len()
                ),
            },
            offset,
        ));
    }
    if frame.components != 4 {
        return Err(TextureError::new(
            K::Unsupported {
                what: format!("{what}: JPEG component count (BLP1 stores 4: B, G, R, A)"),
                value: frame.components.into(),
            },
            offset,
        ));
    }
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::CMYK)
        .set_max_width(w as usize)
        .set_max_height(h as usize);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(&stream[..]), options);
    let raw = decoder.decode().map_err(|e| jpeg_err(format!("{e:?}")))?;
    let n = w as usize * h as usize;
    if raw.len() != n * 4 {
        return Err(jpeg_err(format!(
            "decoded {} bytes where {w}x{h} with 4 components needs {}",
            raw.len(),
            n * 4
        )));
    }
    let mut out = raw;
    for px in out.chunks_exact_mut(4) {
        let [b, g, r, a] = [px[0], px[1], px[2], px[3]];
        px[0] = r;
        px[1] = g;
        px[2] = b;
        px[3] = if alpha { a } else { 255 };
    }
    Ok((out, w, h))
}

/// Finds the SOF segment of a JPEG stream (before its first scan).
fn frame(s: &[u8]) -> Result<Frame, String> {
    if !s.starts_with(&[0xff, 0xd8]) {
        return Err("it does not start with the SOI marker (ff d8)".into());
    }
    let mut i = 2;
    loop {
        // Fill bytes (ff ff ...) may precede a marker.
        while s.get(i) == Some(&0xff) && s.get(i + 1) == Some(&0xff) {
            i += 1;
        }
        let (Some(&0xff), Some(&marker)) = (s.get(i), s.get(i + 1)) else {
            return Err(format!(
                "no marker at stream byte {i:#x} before any frame header (SOF)"
            ));
        };
        let len = match s.get(i + 2..i + 4) {
            Some(l) => u16::from_be_bytes([l[0], l[1]]) as usize,
            None => return Err("the stream ends before its frame header (SOF)".into()),
        };
        match marker {
            0xc0..=0xcf if !matches!(marker, 0xc4 | 0xc8 | 0xcc) => {
                let f = s
                    .get(i + 4..i + 10)
                    .ok_or("the stream ends inside its frame header (SOF)")?;
                return Ok(Frame {
                    height: u16::from_be_bytes([f[1], f[2]]).into(),
                    width: u16::from_be_bytes([f[3], f[4]]).into(),
                    components: f[5],
                });
            }
            0xda => return Err("a scan (SOS) comes before any frame header (SOF)".into()),
            _ if len < 2 => return Err(format!("segment length {len} at stream byte {i:#x}")),
            _ => i += 2 + len,
        }
    }
}
