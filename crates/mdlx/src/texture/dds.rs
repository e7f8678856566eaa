//! DDS: the 128-byte header (`DDS `, then `DDS_HEADER` with its pixel format), the DX10
//! extension header when the FourCC is `DX10`, then every level of the first surface,
//! largest first, tightly packed.

use super::error::unsupported;
use super::{
    bcn::Format, full_chain, le32, mip_size, DdsFormat, Encoding, Level, LevelBytes, Texture,
    TextureError, TextureKind,
};

const HEADER: usize = 128;
const DX10_HEADER: usize = 148;
const DDPF_ALPHAPIXELS: u32 = 0x1;
const DDPF_ALPHA: u32 = 0x2;
const DDPF_FOURCC: u32 = 0x4;
const DDPF_LUMINANCE: u32 = 0x2_0000;
const DDSCAPS2_VOLUME: u32 = 0x20_0000;

/// An uncompressed pixel layout: bits per pixel and the masks of R (or luminance), G, B, A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Masks {
    pub(super) bits: u8,
    pub(super) masks: [u32; 4],
    pub(super) luminance: bool,
}

impl Masks {
    /// 32-bit BGRA as stored little-endian (B first); `alpha`: false ignores the 4th byte.
    pub(super) fn bgra(alpha: bool) -> Masks {
        let a = if alpha { 0xff00_0000 } else { 0 };
        Masks {
            bits: 32,
            masks: [0xff_0000, 0xff00, 0xff, a],
            luminance: false,
        }
    }

    fn rgba(alpha: bool) -> Masks {
        let a = if alpha { 0xff00_0000 } else { 0 };
        Masks {
            bits: 32,
            masks: [0xff, 0xff00, 0xff_0000, a],
            luminance: false,
        }
    }
}

/// Reads a DDS header.
pub(super) fn read(data: &[u8]) -> Result<Texture<'_>, TextureError> {
    let field = |o| le32(data, o, "DDS header", HEADER);
    let (height, width, mip_count) = (field(12)?, field(16)?, field(28)?);
    let (pf_flags, fourcc, bits) = (field(80)?, field(84)?, field(88)?);
    let masks = [field(92)?, field(96)?, field(100)?, field(104)?];
    let caps2 = field(112)?;
    super::check_size(width, height, 12)?;
    if caps2 & DDSCAPS2_VOLUME != 0 {
        return Err(unsupported("DDS volume texture (caps2)", caps2, 112));
    }
    let mut start = HEADER;
    let format = if pf_flags & DDPF_FOURCC != 0 {
        match &fourcc.to_le_bytes() {
            b"DXT1" => Ok(Format::Bc1 { alpha: true }),
            b"DXT2" | b"DXT3" => Ok(Format::Bc2),
            b"DXT4" | b"DXT5" => Ok(Format::Bc3),
            b"ATI1" | b"BC4U" => Ok(Format::Bc4),
            b"ATI2" | b"BC5U" => Ok(Format::Bc5),
            b"DX10" => {
                start = DX10_HEADER;
                dx10(data)?
            }
            other => {
                let text = String::from_utf8_lossy(other).into_owned();
                return Err(unsupported(format!("DDS FourCC `{text}`"), fourcc, 84));
            }
        }
    } else {
        let bits = match bits {
            8 | 16 | 24 | 32 => bits as u8,
            other => return Err(unsupported("DDS bits per pixel", other, 88)),
        };
        let luminance = pf_flags & DDPF_LUMINANCE != 0;
        let alpha_only = pf_flags & (DDPF_ALPHA | DDPF_LUMINANCE | 0x40) == DDPF_ALPHA;
        let mut masks = masks;
        if pf_flags & (DDPF_ALPHAPIXELS | DDPF_ALPHA) == 0 {
            masks[3] = 0;
        }
        if alpha_only {
            masks[..3].fill(0);
        }
        Err(Masks {
            bits,
            masks,
            luminance,
        })
    };
    let (kind, encoding, has_alpha) = match format {
        Ok(f) => {
            let dds = match f {
                Format::Bc1 { .. } => DdsFormat::Bc1,
                Format::Bc2 => DdsFormat::Bc2,
                Format::Bc3 => DdsFormat::Bc3,
                Format::Bc4 => DdsFormat::Bc4,
                Format::Bc5 => DdsFormat::Bc5,
                Format::Bc7 => DdsFormat::Bc7,
            };
            let alpha = !matches!(f, Format::Bc4 | Format::Bc5);
            (TextureKind::Dds(dds), Encoding::Bc(f), alpha)
        }
        Err(m) => {
            let kind = DdsFormat::Uncompressed {
                bits: m.bits,
                masks: m.masks,
            };
            (TextureKind::Dds(kind), Encoding::Masked(m), m.masks[3] != 0)
        }
    };
    let count = (mip_count.max(1) as usize).min(full_chain(width, height));
    let mut levels = Vec::with_capacity(count);
    let mut offset = start as u64;
    for n in 0..count {
        let (w, h) = mip_size(width, height, n);
        let size = match encoding {
            Encoding::Bc(f) => f.level_bytes(w, h),
            Encoding::Masked(m) => u64::from(w)
                .saturating_mul(u64::from(h))
                .saturating_mul(u64::from(m.bits / 8)),
            _ => unreachable!("DDS levels are block-compressed or masked"),
        };
        levels.push(Level {
            width: w,
            height: h,
            offset,
            size,
        });
        offset = offset.saturating_add(size);
    }
    Ok(Texture {
        kind,
        width,
        height,
        has_alpha,
        alpha_bits: 0,
        levels,
        data,
        encoding,
    })
}

/// The format named by the DX10 extension header: a block format (`Ok`) or masks (`Err`).
fn dx10(data: &[u8]) -> Result<Result<Format, Masks>, TextureError> {
    let field = |o| le32(data, o, "DDS DX10 header", DX10_HEADER);
    let (dxgi, dimension) = (field(128)?, field(132)?);
    if dimension == 4 {
        return Err(unsupported(
            "DDS DX10 resource dimension (3D)",
            dimension,
            132,
        ));
    }
    Ok(match dxgi {
        70..=72 => Ok(Format::Bc1 { alpha: true }),
        73..=75 => Ok(Format::Bc2),
        76..=78 => Ok(Format::Bc3),
        79 | 80 => Ok(Format::Bc4),
        82 | 83 => Ok(Format::Bc5),
        97..=99 => Ok(Format::Bc7),
        27..=29 => Err(Masks::rgba(true)),
        87 | 90 | 91 => Err(Masks::bgra(true)),
        88 | 92 | 93 => Err(Masks::bgra(false)),
        other => return Err(unsupported("DDS DXGI format", other, 128)),
    })
}

/// One channel of `v` under `mask`, scaled to 8 bits.
fn channel(v: u32, mask: u32) -> u8 {
    if mask == 0 {
        return 0;
    }
    let max = mask >> mask.trailing_zeros();
    let x = (v & mask) >> mask.trailing_zeros();
    if max == 255 {
        x as u8
    } else {
        ((u64::from(x) * 255 + u64::from(max) / 2) / u64::from(max)) as u8
    }
}

/// Decodes a level of uncompressed pixels (rows tightly packed, little-endian values).
pub(super) fn decode_masked(m: Masks, level: LevelBytes<'_>) -> Result<Vec<u8>, TextureError> {
    let LevelBytes {
        data,
        offset,
        w,
        h,
        what,
    } = level;
    let bpp = usize::from(m.bits / 8);
    let need = u64::from(w)
        .saturating_mul(u64::from(h))
        .saturating_mul(bpp as u64);
    super::require(data, need, offset, || {
        format!("{what} ({w}x{h}, {} bits per pixel)", m.bits)
    })?;
    // Every pixel's bytes are present: the output is at most 4 times the input.
    let mut out = Vec::with_capacity(w as usize * h as usize * 4);
    for px in data[..need as usize].chunks_exact(bpp) {
        let mut b = [0u8; 4];
        b[..bpp].copy_from_slice(px);
        let v = u32::from_le_bytes(b);
        let [r, g, bl, a] = m.masks.map(|mask| channel(v, mask));
        let a = if m.masks[3] == 0 { 255 } else { a };
        if m.luminance {
            out.extend_from_slice(&[r, r, r, a]);
        } else {
            out.extend_from_slice(&[r, g, bl, a]);
        }
    }
    Ok(out)
}
