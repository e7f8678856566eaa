//! PNG written and read with the `png` crate: RGBA8 out; any PNG in (grey, palette, 16-bit
//! and the rest are expanded to RGBA8).

use super::{RgbaImage, TextureError, TextureErrorKind as K};

/// Encodes an image as an RGBA8 PNG.
///
/// # Panics
/// If `image.pixels` does not hold `width * height * 4` bytes (a caller's bug).
pub fn to_bytes(image: &RgbaImage) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut out, image.width, image.height);
    encoder.set_color(::png::ColorType::Rgba);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_compression(::png::Compression::Balanced);
    // Writing into a Vec cannot fail but for a pixel count that does not match the size.
    let mut writer = encoder.write_header().expect("PNG header into a Vec");
    writer
        .write_image_data(&image.pixels)
        .expect("RgbaImage pixels must hold width * height * 4 bytes");
    writer.finish().expect("PNG end into a Vec");
    out
}

/// Decodes a PNG into RGBA8. Memory is bounded by the input: deflate expands at most about
/// 1032 times, so the decoder may not allocate more than 1040 times the file size.
pub fn from_bytes(data: &[u8]) -> Result<RgbaImage, TextureError> {
    let err = |e: ::png::DecodingError| TextureError::new(K::Png(e.to_string()), 0);
    let bound = data.len().saturating_mul(1040).max(1 << 16);
    let limits = ::png::Limits { bytes: bound };
    let mut decoder = ::png::Decoder::new_with_limits(std::io::Cursor::new(data), limits);
    decoder.set_transformations(::png::Transformations::EXPAND | ::png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(err)?;
    let size = reader.output_buffer_size().ok_or_else(|| {
        TextureError::new(K::Png("the image is too large for this machine".into()), 0)
    })?;
    // The decoder's limit covers its own buffers, not the frame we allocate for it.
    if size > bound {
        let (w, h) = reader.info().size();
        return Err(TextureError::new(
            K::Png(format!(
                "the header says {w}x{h}, more pixels than {} bytes of PNG can hold",
                data.len()
            )),
            0,
        ));
    }
    let mut buf = vec![0u8; size];
    let info = reader.next_frame(&mut buf).map_err(err)?;
    buf.truncate(info.buffer_size());
    let n = info.width as usize * info.height as usize;
    let pixels = match info.color_type {
        ::png::ColorType::Rgba => buf,
        ::png::ColorType::Rgb => buf
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        ::png::ColorType::GrayscaleAlpha => buf
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        ::png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        ::png::ColorType::Indexed => {
            return Err(TextureError::new(
                K::Png("palette left unexpanded".into()),
                0,
            ))
        }
    };
    debug_assert_eq!(pixels.len(), n * 4);
    Ok(RgbaImage {
        width: info.width,
        height: info.height,
        pixels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crc32(data: &[u8]) -> u32 {
        let mut c = 0xffff_ffffu32;
        for &b in data {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xedb8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }

    #[test]
    fn a_header_asking_for_more_pixels_than_the_file_can_hold_is_refused() {
        // A real 1x1 PNG whose header then claims 60000x60000 (14 GB of RGBA).
        let mut png = to_bytes(&RgbaImage {
            width: 1,
            height: 1,
            pixels: vec![1, 2, 3, 4],
        });
        png[16..20].copy_from_slice(&60000u32.to_be_bytes());
        png[20..24].copy_from_slice(&60000u32.to_be_bytes());
        let crc = crc32(&png[12..29]);
        png[29..33].copy_from_slice(&crc.to_be_bytes());
        assert!(from_bytes(&png).is_err());
    }
}
