//! Textures: BLP1, BLP2, DDS and TGA read into RGBA8, PNG written and read, and BLP1
//! written ([`blp1::to_bytes`]: JPEG or palette content, with mipmaps).
//!
//! [`Texture::from_bytes`] parses a container's header and lists its mip levels without decoding
//! anything; [`Texture::decode_level`] decodes one level into an [`RgbaImage`] (RGBA8, top
//! row first). Every error is a [`TextureError`] that names what was wrong and where (the
//! absolute byte offset); no input makes these readers panic. Memory is bounded by the input:
//! a level's `width * height * 4` bytes are allocated only once the data that encodes those
//! pixels is known to be in the file (block data for DXT, index bytes for palettes, a JPEG
//! whose scan is long enough for its frame size), so a 1 KB file whose header says
//! 65535x65535 is refused, not decoded into gigabytes.
//!
//! The containers are written here; crates do the two codecs that are not worth owning:
//! `zune-jpeg` (BLP1 JPEG content) and `bcdec_rs` (BC7 only). DXT1/3/5, BC4 and BC5 are
//! small and decoded here, with Pillow's arithmetic, so that the corpus test can ask for
//! identical pixels. The figures behind these choices are in `README.md` beside this file.
//!
//! ```
//! # fn main() -> Result<(), mdlx::texture::TextureError> {
//! // A 1x1 DDS with an uncompressed 32-bit BGRA pixel.
//! let mut dds = b"DDS \x7c\0\0\0".to_vec();
//! dds.extend([0x07, 0x10, 0x00, 0x00]); // flags
//! dds.extend(1u32.to_le_bytes()); // height
//! dds.extend(1u32.to_le_bytes()); // width
//! dds.resize(76, 0);
//! dds.extend([32, 0, 0, 0, 0x41, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0]); // size, RGB|ALPHA, bits
//! for mask in [0x00ff0000u32, 0xff00, 0xff, 0xff000000] {
//!     dds.extend(mask.to_le_bytes());
//! }
//! dds.resize(128, 0);
//! dds.extend([0x30, 0x20, 0x10, 0x80]); // B G R A
//! let texture = mdlx::texture::Texture::from_bytes(&dds)?;
//! let image = texture.decode_level(0)?;
//! assert_eq!((image.width, image.height), (1, 1));
//! assert_eq!(image.pixels, [0x10, 0x20, 0x30, 0x80]);
//! let png = mdlx::texture::png::to_bytes(&image);
//! assert_eq!(mdlx::texture::png::from_bytes(&png).unwrap(), image);
//! # Ok(())
//! # }
//! ```

mod bcn;
mod blp;
pub mod blp1;
mod dds;
mod error;
mod find;
mod jpeg;
pub mod png;
mod tga;
pub mod write;

pub use blp1::{BlpContent, BlpOptions, MAX_JPEG_HEADER};
pub use error::{TextureError, TextureErrorKind};
pub use find::TextureFinder;
pub use write::{encode, EncodeError, EncodeOptions};

use crate::formats::{Content, Format, LooksLike};
use TextureErrorKind as K;

/// An image of 8-bit RGBA pixels, top row first, with no padding between rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbaImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes: R, G, B, A for each pixel, rows top to bottom.
    pub pixels: Vec<u8>,
}

/// The container and pixel encoding of a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TextureKind {
    /// BLP1 holding a 4-component JPEG (BGRA) per mip level.
    Blp1Jpeg,
    /// BLP1 with a 256-colour palette, an index plane and an alpha plane.
    Blp1Palette,
    /// BLP2, DXT1 blocks.
    Blp2Dxt1,
    /// BLP2, DXT3 blocks.
    Blp2Dxt3,
    /// BLP2, DXT5 blocks.
    Blp2Dxt5,
    /// BLP2, uncompressed BGRA.
    Blp2Bgra,
    /// BLP2 with a palette (laid out as in BLP1).
    Blp2Palette,
    /// DDS in the given pixel format.
    Dds(DdsFormat),
    /// TGA of the given kind.
    Tga(TgaKind),
}

impl std::fmt::Display for TextureKind {
    /// A short name, as the corpus MANIFEST spells kinds: `blp1-jpeg`, `blp2-dxt5`,
    /// `dds-dxt1`, `dds-bc5`, `dds-uncompressed-rgba32`, `tga-rle-truecolor`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use TextureKind::*;
        match self {
            Blp1Jpeg => f.write_str("blp1-jpeg"),
            Blp1Palette => f.write_str("blp1-palette"),
            Blp2Dxt1 => f.write_str("blp2-dxt1"),
            Blp2Dxt3 => f.write_str("blp2-dxt3"),
            Blp2Dxt5 => f.write_str("blp2-dxt5"),
            Blp2Bgra => f.write_str("blp2-bgra"),
            Blp2Palette => f.write_str("blp2-palette"),
            Dds(DdsFormat::Bc1) => f.write_str("dds-dxt1"),
            Dds(DdsFormat::Bc2) => f.write_str("dds-dxt3"),
            Dds(DdsFormat::Bc3) => f.write_str("dds-dxt5"),
            Dds(DdsFormat::Bc4) => f.write_str("dds-bc4"),
            Dds(DdsFormat::Bc5) => f.write_str("dds-bc5"),
            Dds(DdsFormat::Bc7) => f.write_str("dds-bc7"),
            Dds(DdsFormat::Uncompressed { bits, masks }) => {
                let channels = if masks[3] != 0 { "rgba" } else { "rgb" };
                write!(f, "dds-uncompressed-{channels}{bits}")
            }
            Tga(TgaKind::Truecolor) => f.write_str("tga-truecolor"),
            Tga(TgaKind::RleTruecolor) => f.write_str("tga-rle-truecolor"),
            Tga(TgaKind::Grayscale) => f.write_str("tga-grayscale"),
            Tga(TgaKind::RleGrayscale) => f.write_str("tga-rle-grayscale"),
        }
    }
}

/// A DDS pixel format this module decodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DdsFormat {
    /// BC1 (`DXT1`).
    Bc1,
    /// BC2 (`DXT3`).
    Bc2,
    /// BC3 (`DXT5`).
    Bc3,
    /// BC4 (`ATI1`, `BC4U`): one channel, returned as grey.
    Bc4,
    /// BC5 (`ATI2`, `BC5U`): two channels, returned as red and green with blue 0.
    Bc5,
    /// BC7 (DX10 header).
    Bc7,
    /// Uncompressed pixels of `bits` bits with channel masks R, G, B, A (a zero mask: the
    /// channel is absent; for luminance formats the R mask is the grey value).
    Uncompressed {
        /// Bits per pixel: 8, 16, 24 or 32.
        bits: u8,
        /// Masks of red (or luminance), green, blue and alpha.
        masks: [u32; 4],
    },
}

/// A TGA image type this module decodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TgaKind {
    /// Type 2: uncompressed true colour.
    Truecolor,
    /// Type 10: run-length encoded true colour.
    RleTruecolor,
    /// Type 3: uncompressed greyscale.
    Grayscale,
    /// Type 11: run-length encoded greyscale.
    RleGrayscale,
}

/// One mip level as the file lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Absolute offset of its data.
    pub offset: u64,
    /// Size of its data in bytes as listed (or as computed, for DDS and TGA).
    pub size: u64,
}

/// A texture's header: what it holds and where its mip levels are. Borrows the file.
#[derive(Clone, Debug)]
pub struct Texture<'a> {
    /// Container and pixel encoding.
    pub kind: TextureKind,
    /// Width of level 0.
    pub width: u32,
    /// Height of level 0.
    pub height: u32,
    /// Whether the pixels carry alpha that is decoded (false: alpha is 255 everywhere).
    pub has_alpha: bool,
    /// The alpha-bits field as stored (BLP, TGA descriptor); 0 for DDS.
    pub alpha_bits: u32,
    /// The mip levels the file lists, largest first; level 0 is always present.
    pub levels: Vec<Level>,
    data: &'a [u8],
    encoding: Encoding,
}

/// How the pixels of every level are stored (private: what `decode_level` dispatches on).
#[derive(Clone, Copy, Debug)]
enum Encoding {
    /// JPEG with a shared header at `header.0` of `header.1` bytes; `alpha`: keep the 4th
    /// channel (else 255).
    Jpeg { header: (u64, u64), alpha: bool },
    /// Palette of up to 256 BGRA entries at `palette`, then per level `w*h` indices and an
    /// alpha plane of `alpha_bits` (0, 1, 4 or 8) bits per pixel.
    Palette { palette: u64, alpha_bits: u8 },
    /// Block compression.
    Bc(bcn::Format),
    /// Uncompressed pixels with masks.
    Masked(dds::Masks),
    /// A TGA image (one level).
    Tga(tga::Layout),
}

impl<'a> Texture<'a> {
    /// Reads the header of a BLP1, BLP2, DDS or TGA file and lists its mip levels. Refuses
    /// anything else, naming what it looks like (e.g. an MDX model saved as `.blp`).
    pub fn from_bytes(data: &'a [u8]) -> Result<Texture<'a>, TextureError> {
        match data.get(..4) {
            Some(b"BLP1") => blp::read_blp1(data),
            Some(b"BLP2") => blp::read_blp2(data),
            Some(b"DDS ") => dds::read(data),
            Some(b"BLP0") => Err(TextureError::new(
                K::Unsupported {
                    what: "BLP version".into(),
                    value: 0,
                },
                0,
            )),
            _ => match crate::formats::identify(data) {
                Content::NotAModel(LooksLike::Tga) => tga::read(data),
                other => Err(TextureError::new(
                    K::NotATexture {
                        looks_like: match other {
                            Content::Model(Format::Mdx | Format::AlphaMdx) => {
                                "an MDX model (it starts with `MDLX`)".into()
                            }
                            Content::Model(Format::Mdl) => "text (an MDL model?)".into(),
                            Content::Model(Format::Ms3d) => "a Milkshape 3D ASCII model".into(),
                            Content::Model(Format::Gltf) => "a glTF model".into(),
                            Content::Model(other) => other.short_name().into(),
                            Content::NotAModel(like) => like.to_string(),
                        },
                    },
                    0,
                )),
            },
        }
    }

    /// How many mip levels the file lists.
    pub fn mip_count(&self) -> usize {
        self.levels.len()
    }

    /// Decodes mip level `n` (0 is the full size) into RGBA8, top row first. The image has
    /// the level's size, except for BLP1 JPEG content, where it has the JPEG frame's size
    /// (no larger than level 0): a few writers store a larger level's JPEG again for the
    /// smallest levels, or round odd halvings up.
    pub fn decode_level(&self, n: usize) -> Result<RgbaImage, TextureError> {
        let level = *self.levels.get(n).ok_or_else(|| {
            TextureError::new(
                K::NoSuchLevel {
                    level: n,
                    count: self.levels.len(),
                },
                0,
            )
        })?;
        let what = || format!("mip {n}");
        let bytes = region(self.data, what, level.offset, level.size)?;
        let (mut w, mut h) = (level.width, level.height);
        let lv = |what| LevelBytes::checked(bytes, level.offset, w, h, what);
        let pixels = match self.encoding {
            Encoding::Jpeg { header, alpha } => {
                let head = region(self.data, || "JPEG header".into(), header.0, header.1)?;
                let max = (self.width, self.height);
                let (pixels, fw, fh) =
                    jpeg::decode(head, bytes, level.offset, max, alpha, &what())?;
                (w, h) = (fw, fh);
                pixels
            }
            Encoding::Palette {
                palette,
                alpha_bits,
            } => blp::decode_palette(self.data, palette, alpha_bits, lv(&what())?)?,
            Encoding::Bc(format) => bcn::decode(format, lv(&what())?)?,
            Encoding::Masked(masks) => dds::decode_masked(masks, lv(&what())?)?,
            Encoding::Tga(layout) => tga::decode(layout, bytes, level.offset, w, h)?,
        };
        Ok(RgbaImage {
            width: w,
            height: h,
            pixels,
        })
    }
}

/// Reads a whole file's level 0: `Texture::from_bytes(data)?.decode_level(0)`.
pub fn decode(data: &[u8]) -> Result<RgbaImage, TextureError> {
    Texture::from_bytes(data)?.decode_level(0)
}

/// The `size` bytes at `offset`, or an error naming the region (`what`) that runs past the
/// end of `data`.
fn region(
    data: &[u8],
    what: impl FnOnce() -> String,
    offset: u64,
    size: u64,
) -> Result<&[u8], TextureError> {
    let len = data.len() as u64;
    let end = offset.saturating_add(size);
    if end > len {
        return Err(TextureError::new(
            K::PastEnd {
                what: what(),
                at: offset,
                size,
                past: end - len,
                file_len: len,
            },
            offset,
        ));
    }
    Ok(&data[offset as usize..end as usize])
}

/// A little-endian u32 at `offset` inside the fixed structure `what` of `need` bytes.
fn le32(data: &[u8], offset: usize, what: &str, need: usize) -> Result<u32, TextureError> {
    match data.get(offset..offset + 4) {
        Some(b) if data.len() >= need => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        _ => Err(truncated(data, what, need)),
    }
}

/// The file ends inside the fixed structure `what`, which needs `need` bytes from the start.
fn truncated(data: &[u8], what: &str, need: usize) -> TextureError {
    TextureError::new(
        K::Truncated {
            what: what.into(),
            need: need as u64,
            file_len: data.len() as u64,
        },
        data.len() as u64,
    )
}

/// Checks that a `width x height` level is not empty, allocating nothing.
/// Refuses a level whose `data` (at absolute `offset`) is shorter than the `need` bytes its
/// pixels take; `what` names the level and its encoding. Checked before any allocation.
fn require(
    data: &[u8],
    need: u64,
    offset: u64,
    what: impl FnOnce() -> String,
) -> Result<(), TextureError> {
    if (data.len() as u64) < need {
        return Err(TextureError::new(
            K::TooShort {
                what: what(),
                need,
                have: data.len() as u64,
            },
            offset,
        ));
    }
    Ok(())
}

/// One level's bytes, where they start in the file, its size, and its name in errors: what
/// the BLP palette, BCn and DDS masked decoders start from.
#[derive(Clone, Copy)]
pub(super) struct LevelBytes<'a> {
    data: &'a [u8],
    offset: u64,
    w: u32,
    h: u32,
    what: &'a str,
}

impl<'a> LevelBytes<'a> {
    /// The level, refused if either side is zero.
    fn checked(
        data: &'a [u8],
        offset: u64,
        w: u32,
        h: u32,
        what: &'a str,
    ) -> Result<Self, TextureError> {
        check_size(w, h, offset)?;
        Ok(LevelBytes {
            data,
            offset,
            w,
            h,
            what,
        })
    }
}

fn check_size(width: u32, height: u32, offset: u64) -> Result<(), TextureError> {
    if width == 0 || height == 0 {
        return Err(TextureError::new(
            K::ZeroSize {
                width: width.into(),
                height: height.into(),
            },
            offset,
        ));
    }
    Ok(())
}

/// The dimensions of mip level `n` of a `width x height` image.
fn mip_size(width: u32, height: u32, n: usize) -> (u32, u32) {
    let shift = n.min(31) as u32;
    ((width >> shift).max(1), (height >> shift).max(1))
}

/// How many levels a full mip chain of `width x height` has (down to 1x1).
fn full_chain(width: u32, height: u32) -> usize {
    (32 - width.max(height).max(1).leading_zeros()) as usize
}
