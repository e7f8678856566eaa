//! BLP1 and BLP2 containers (Warcraft III, World of Warcraft).
//!
//! BLP1: `BLP1`, compression (0 JPEG, 1 palette), alpha bits, width, height, pictureType,
//! hasMipmaps, 16 mip offsets, 16 mip sizes (156 bytes); then either a JPEG header size and
//! the shared JPEG header, or a palette of 256 BGRA entries. BLP2: `BLP2`, content type,
//! then four bytes (compression, alpha depth, alpha type, has-mips), width, height, 16
//! offsets, 16 sizes, and a 1024-byte palette (1172 bytes).

use super::error::unsupported;
use super::{
    bcn, dds, full_chain, le32, mip_size, Encoding, Level, LevelBytes, Texture, TextureError,
    TextureErrorKind as K, TextureKind,
};

const BLP1_HEADER: usize = 156;
const BLP2_HEADER: usize = 148;

/// The levels listed by the offset and size tables at `table` (offsets) and `table + 64`
/// (sizes): level 0 always, then every following entry with a non-zero size, up to the
/// 1x1 level (some writers list entries below it; they are ignored), or only level 0 when
/// the header says there are no mipmaps.
fn levels(
    data: &[u8],
    table: usize,
    width: u32,
    height: u32,
    mipmaps: bool,
    what: &str,
    need: usize,
) -> Result<Vec<Level>, TextureError> {
    let count = if mipmaps {
        full_chain(width, height).min(16)
    } else {
        1
    };
    let mut out = Vec::with_capacity(count);
    for n in 0..count {
        let offset = le32(data, table + 4 * n, what, need)?;
        let size = le32(data, table + 64 + 4 * n, what, need)?;
        if n > 0 && size == 0 {
            break;
        }
        let (w, h) = mip_size(width, height, n);
        out.push(Level {
            width: w,
            height: h,
            offset: offset.into(),
            size: size.into(),
        });
    }
    Ok(out)
}

/// Reads a BLP1 header.
pub(super) fn read_blp1(data: &[u8]) -> Result<Texture<'_>, TextureError> {
    let field = |o| le32(data, o, "BLP1 header", BLP1_HEADER);
    let (compression, alpha_bits) = (field(4)?, field(8)?);
    let (width, height) = (field(12)?, field(16)?);
    let has_mipmaps = field(24)?;
    super::check_size(width, height, 12)?;
    let levels = levels(
        data,
        28,
        width,
        height,
        has_mipmaps != 0,
        "BLP1 header",
        BLP1_HEADER,
    )?;
    let (kind, encoding, has_alpha) = match compression {
        0 => {
            let size = le32(data, BLP1_HEADER, "BLP1 JPEG header size", BLP1_HEADER + 4)?;
            let header = ((BLP1_HEADER + 4) as u64, u64::from(size));
            // Any non-zero value means an alpha channel: one writer stores log2 of the
            // larger side here, and its files carry 8-bit alpha like the rest.
            let alpha = alpha_bits != 0;
            (
                TextureKind::Blp1Jpeg,
                Encoding::Jpeg { header, alpha },
                alpha,
            )
        }
        1 => {
            let bits = palette_alpha_bits(alpha_bits, 8)?;
            let encoding = Encoding::Palette {
                palette: BLP1_HEADER as u64,
                alpha_bits: bits,
            };
            (TextureKind::Blp1Palette, encoding, bits != 0)
        }
        other => return Err(unsupported("BLP1 compression", other, 4)),
    };
    Ok(Texture {
        kind,
        width,
        height,
        has_alpha,
        alpha_bits,
        levels,
        data,
        encoding,
    })
}

fn palette_alpha_bits(bits: u32, offset: u64) -> Result<u8, TextureError> {
    match bits {
        0 | 1 | 4 | 8 => Ok(bits as u8),
        other => Err(unsupported("alpha bits for palette content", other, offset)),
    }
}

/// Reads a BLP2 header.
pub(super) fn read_blp2(data: &[u8]) -> Result<Texture<'_>, TextureError> {
    let content = le32(data, 4, "BLP2 header", BLP2_HEADER)?;
    let [compression, alpha_depth, alpha_type, has_mips] = match data.get(8..12) {
        Some(b) => [b[0], b[1], b[2], b[3]],
        None => return Err(super::truncated(data, "BLP2 header", BLP2_HEADER)),
    };
    let width = le32(data, 12, "BLP2 header", BLP2_HEADER)?;
    let height = le32(data, 16, "BLP2 header", BLP2_HEADER)?;
    super::check_size(width, height, 12)?;
    if content != 1 {
        return Err(unsupported(
            "BLP2 content type (1 is direct; 0, JPEG, is not read)",
            content,
            4,
        ));
    }
    let levels = levels(
        data,
        20,
        width,
        height,
        has_mips & 1 != 0,
        "BLP2 header",
        BLP2_HEADER,
    )?;
    let (kind, encoding, has_alpha) = match (compression, alpha_type) {
        (1, _) => {
            let bits = palette_alpha_bits(alpha_depth.into(), 9)?;
            let encoding = Encoding::Palette {
                palette: BLP2_HEADER as u64,
                alpha_bits: bits,
            };
            (TextureKind::Blp2Palette, encoding, bits != 0)
        }
        (2, 0) => {
            let alpha = alpha_depth != 0;
            let format = bcn::Format::Bc1 { alpha };
            (TextureKind::Blp2Dxt1, Encoding::Bc(format), alpha)
        }
        (2, 1) => (TextureKind::Blp2Dxt3, Encoding::Bc(bcn::Format::Bc2), true),
        (2, 7) => (TextureKind::Blp2Dxt5, Encoding::Bc(bcn::Format::Bc3), true),
        (2, other) => return Err(unsupported("BLP2 DXT alpha type", other.into(), 10)),
        (3, _) => {
            let masks = dds::Masks::bgra(alpha_depth != 0);
            (
                TextureKind::Blp2Bgra,
                Encoding::Masked(masks),
                alpha_depth != 0,
            )
        }
        (other, _) => return Err(unsupported("BLP2 compression", other.into(), 8)),
    };
    Ok(Texture {
        kind,
        width,
        height,
        has_alpha,
        alpha_bits: alpha_depth.into(),
        levels,
        data,
        encoding,
    })
}

/// Decodes a palette level: `w * h` indices at the start of `level` (found at absolute
/// `offset`), then the alpha plane of `alpha_bits` bits per pixel, low bits first. The
/// palette at `palette` may be cut short by the level data of compact files: only the
/// entries that are indexed must be in the file.
pub(super) fn decode_palette(
    data: &[u8],
    palette: u64,
    alpha_bits: u8,
    level: LevelBytes<'_>,
) -> Result<Vec<u8>, TextureError> {
    let LevelBytes {
        data: level,
        offset,
        w,
        h,
        what,
    } = level;
    let n = u64::from(w).saturating_mul(u64::from(h));
    let need = n.saturating_add(n.saturating_mul(u64::from(alpha_bits)).div_ceil(8));
    super::require(level, need, offset, || {
        format!("{what} ({w}x{h}, palette indices and {alpha_bits}-bit alpha)")
    })?;
    // Every pixel has its index byte in the file: the output is at most 4 times the input.
    let n = n as usize;
    let entries = ((data.len() as u64).saturating_sub(palette) / 4).min(256) as usize;
    let palette = &data[palette as usize..][..entries * 4];
    let (indices, alpha) = level[..need as usize].split_at(n);
    let mut out = vec![0u8; n * 4];
    for (i, (px, &index)) in out.chunks_exact_mut(4).zip(indices).enumerate() {
        let Some(c) = palette.get(index as usize * 4..index as usize * 4 + 4) else {
            return Err(TextureError::new(
                K::PaletteIndex { index, entries },
                offset + i as u64,
            ));
        };
        let a = match alpha_bits {
            0 => 255,
            1 => ((alpha[i / 8] >> (i % 8)) & 1) * 255,
            4 => ((alpha[i / 2] >> (4 * (i % 2))) & 0xf) * 17,
            _ => alpha[i],
        };
        px.copy_from_slice(&[c[2], c[1], c[0], a]);
    }
    Ok(out)
}
