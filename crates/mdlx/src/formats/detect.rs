//! What a file holds, told from its first bytes before any parser runs: a model format, or
//! something else worth naming (an image, an archive, another 3D format) so that a wrong
//! file gets one line instead of a page of MDL diagnostics. This is the crate's one
//! detection: `Format::detect`, `alpha::is_alpha` and `ms3d::detect`
//! are parts of it or views of it. It runs no model reader, so the texture reader uses it
//! too.
//!
//! ```
//! use mdlx::{identify, Content, Format, LooksLike};
//! assert_eq!(identify(b"glTF\x02\0\0\0").format(), Some(Format::Gltf));
//! assert!(matches!(identify(b"BLP1\0\0\0\0"), Content::NotAModel(l) if l.is_texture()));
//! assert_eq!(identify(b"PK\x05\x06"), Content::NotAModel(LooksLike::Zip { first: None }));
//! ```

use super::Format;
use std::fmt;

/// What a file's content is, as far as its first bytes tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// A model of this format. [`Format::Mdl`] is text that may be MDL: the MDL reader
    /// judges it.
    Model(Format),
    /// Not a model file of any format this crate reads.
    NotAModel(LooksLike),
}

impl Content {
    /// The model format, if the content is a model.
    pub fn format(&self) -> Option<Format> {
        match self {
            Content::Model(f) => Some(*f),
            Content::NotAModel(_) => None,
        }
    }
}

/// What a file that is not a model looks like.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LooksLike {
    /// No bytes at all (a failed download or copy).
    Empty,
    /// A PNG image.
    Png,
    /// A JPEG image.
    Jpeg,
    /// A GIF image.
    Gif,
    /// A BMP image.
    Bmp,
    /// A Blizzard BLP texture; `version` is the digit of its magic (`BLP1`: 1).
    Blp {
        /// The version number found.
        version: u8,
    },
    /// A DDS texture.
    Dds,
    /// A TGA image (told by the TGA 2.0 footer, or a header whose every field is plausible).
    Tga,
    /// A zip archive; `first` is the name of its first entry, when there is one.
    Zip {
        /// The first file name in the archive, if any.
        first: Option<String>,
    },
    /// A Warcraft III map (`HM3W` header, an MPQ archive inside).
    Wc3Map,
    /// An MPQ archive (game data or a map without its header).
    Mpq,
    /// JSON that is not glTF (it names no `"asset"`).
    Json,
    /// A Wavefront OBJ model (text).
    Obj,
    /// A binary FBX model.
    Fbx,
    /// A World of Warcraft M2 model (`MD20`/`MD21`).
    M2,
    /// A StarCraft II M3 model.
    M3,
    /// UTF-16 text (it starts with a byte-order mark); MDL is 8-bit text.
    Utf16Text,
    /// Text with no MDL in it. The MDL reader decides this; [`identify`] never returns it.
    Text,
    /// Binary data of no kind named here.
    Binary,
}

impl LooksLike {
    /// Whether this is a texture [`crate::texture`] reads: BLP, DDS, TGA or PNG.
    pub fn is_texture(&self) -> bool {
        matches!(
            self,
            LooksLike::Blp { .. } | LooksLike::Dds | LooksLike::Tga | LooksLike::Png
        )
    }
}

impl fmt::Display for LooksLike {
    /// A noun phrase: `a PNG image`, `an empty file`, `a zip archive (first entry: x.mdx)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use LooksLike::*;
        match self {
            Empty => f.write_str("an empty file"),
            Png => f.write_str("a PNG image"),
            Jpeg => f.write_str("a JPEG image"),
            Gif => f.write_str("a GIF image"),
            Bmp => f.write_str("a BMP image"),
            Blp { version } => write!(f, "a BLP{version} texture"),
            Dds => f.write_str("a DDS texture"),
            Tga => f.write_str("a TGA image"),
            Zip { first: Some(name) } => write!(f, "a zip archive (first entry: {name})"),
            Zip { first: None } => f.write_str("a zip archive"),
            Wc3Map => f.write_str("a Warcraft III map"),
            Mpq => f.write_str("an MPQ archive"),
            Json => f.write_str("JSON"),
            Obj => f.write_str("a Wavefront OBJ model"),
            Fbx => f.write_str("an FBX model"),
            M2 => f.write_str("a World of Warcraft M2 model"),
            M3 => f.write_str("a StarCraft II M3 model"),
            Utf16Text => f.write_str("UTF-16 text"),
            Text => f.write_str("text that is not MDL"),
            Binary => f.write_str("binary data"),
        }
    }
}

/// How much of the start of a file the text checks look at.
const SAMPLE: usize = 4096;

/// Tells what `data` is from its first bytes (the crate's one detection). Magic numbers come first (`glTF` is binary
/// glTF; `MDLX` is MDX, of the WoW alpha family when its chunks have the alpha shapes);
/// then Milkshape text; then content with NUL or other control bytes is binary; JSON that
/// names an `"asset"` anywhere is glTF, other JSON and OBJ text are named; any other text
/// is left to the MDL reader ([`Format::Mdl`]). MDL names need not be UTF-8, so text is
/// not required to be.
///
/// ```
/// use mdlx::{identify, Content, Format, LooksLike};
/// let cube = include_bytes!("../../../../examples/cube.mdx");
/// assert_eq!(identify(cube), Content::Model(Format::Mdx));
/// assert_eq!(identify(b""), Content::NotAModel(LooksLike::Empty));
/// assert_eq!(identify(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), Content::NotAModel(LooksLike::Png));
/// let mdl = b"Version {\n\tFormatVersion 800,\n}\n";
/// assert_eq!(identify(mdl), Content::Model(Format::Mdl));
/// ```
pub fn identify(data: &[u8]) -> Content {
    if data.is_empty() {
        return Content::NotAModel(LooksLike::Empty);
    }
    if data.starts_with(b"glTF") {
        return Content::Model(Format::Gltf);
    }
    if data.starts_with(b"MDLX") {
        return Content::Model(if crate::alpha::is_alpha(data) {
            Format::AlphaMdx
        } else {
            Format::Mdx
        });
    }
    if let Some(kind) = by_magic(data) {
        return Content::NotAModel(kind);
    }
    if crate::ms3d::detect(data) {
        return Content::Model(Format::Ms3d);
    }
    let sample = &data[..data.len().min(SAMPLE)];
    if is_binary(sample) {
        let kind = if is_tga(data) {
            LooksLike::Tga
        } else {
            LooksLike::Binary
        };
        return Content::NotAModel(kind);
    }
    match other_text(sample) {
        // glTF JSON may name its asset after the first few kilobytes (Khronos's
        // InterpolationTest.gltf has it last): the whole file is searched.
        Some(LooksLike::Json) if contains(data, b"\"asset\"") => Content::Model(Format::Gltf),
        Some(kind) => Content::NotAModel(kind),
        None => Content::Model(Format::Mdl),
    }
}

/// Formats told by their first bytes.
fn by_magic(data: &[u8]) -> Option<LooksLike> {
    let starts = |m: &[u8]| data.starts_with(m);
    Some(match data {
        _ if starts(b"\x89PNG\r\n\x1a\n") => LooksLike::Png,
        _ if starts(b"\xff\xd8\xff") => LooksLike::Jpeg,
        _ if starts(b"GIF87a") || starts(b"GIF89a") => LooksLike::Gif,
        [b'B', b'L', b'P', v @ b'0'..=b'2', ..] => LooksLike::Blp { version: v - b'0' },
        _ if starts(b"DDS ") => LooksLike::Dds,
        _ if starts(b"PK\x03\x04") => LooksLike::Zip {
            first: zip_first_entry(data),
        },
        _ if starts(b"PK\x05\x06") => LooksLike::Zip { first: None },
        _ if starts(b"HM3W") => LooksLike::Wc3Map,
        _ if starts(b"MPQ\x1a") || starts(b"MPQ\x1b") => LooksLike::Mpq,
        _ if starts(b"Kaydara FBX Binary") => LooksLike::Fbx,
        _ if starts(b"MD20") || starts(b"MD21") => LooksLike::M2,
        _ if starts(b"43DM") || starts(b"33DM") => LooksLike::M3,
        _ if starts(b"\xff\xfe") || starts(b"\xfe\xff") => LooksLike::Utf16Text,
        // "BM", then the file size: a BMP (two letters alone are too weak).
        [b'B', b'M', a, b, c, d, ..]
            if u32::from_le_bytes([*a, *b, *c, *d]) as usize == data.len() =>
        {
            LooksLike::Bmp
        }
        _ => return None,
    })
}

/// The name of a zip's first entry, from its local file header.
fn zip_first_entry(data: &[u8]) -> Option<String> {
    let len = u16::from_le_bytes([*data.get(26)?, *data.get(27)?]) as usize;
    let name = data.get(30..30 + len)?;
    (!name.is_empty()).then(|| String::from_utf8_lossy(name).into_owned())
}

/// Binary: NUL or control bytes (other than tab, line breaks, form feed and the DOS
/// end-of-file mark) make up more than one in 32 of the sample. A stray NUL in an MDL file
/// stays text, so the MDL reader can point at it.
fn is_binary(sample: &[u8]) -> bool {
    let control = sample
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1a)) || b == 0x7f)
        .count();
    control > 0 && control >= sample.len().div_ceil(32)
}

/// TGA has no magic number. TGA 2.0 files end with a footer naming the format; older ones
/// are taken as TGA only when every header field is one the format allows.
fn is_tga(data: &[u8]) -> bool {
    if data.len() >= 26 && data[data.len() - 18..].starts_with(b"TRUEVISION-XFILE.") {
        return true;
    }
    let Some(h) = data.get(..18) else {
        return false;
    };
    let u16_at = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
    let (id_len, map_type, image_type) = (h[0] as usize, h[1], h[2]);
    let map_ok = match map_type {
        0 => h[3..8].iter().all(|&b| b == 0),
        1 => matches!(h[7], 15 | 16 | 24 | 32),
        _ => false,
    };
    map_ok
        && matches!(image_type, 1 | 2 | 3 | 9 | 10 | 11)
        && u16_at(12) > 0
        && u16_at(14) > 0
        && matches!(h[16], 8 | 15 | 16 | 24 | 32)
        && h[17] & 0xc0 == 0
        && data.len() > 18 + id_len
}

/// Text of a kind other than MDL: JSON (glTF or not: the caller tells) and Wavefront OBJ.
fn other_text(sample: &[u8]) -> Option<LooksLike> {
    let text = sample.strip_prefix(b"\xef\xbb\xbf").unwrap_or(sample);
    let start = text.iter().position(|b| !b.is_ascii_whitespace())?;
    if matches!(text[start], b'{' | b'[') {
        return Some(LooksLike::Json);
    }
    // OBJ: the first line that is not blank or a `#` comment starts with an OBJ statement,
    // and there is no brace (every MDL file has blocks).
    let first = text
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty() && !l.starts_with(b"#"))?;
    let word = first.split(|b| b.is_ascii_whitespace()).next()?;
    let obj_word = [
        &b"v"[..],
        b"vt",
        b"vn",
        b"f",
        b"o",
        b"g",
        b"s",
        b"mtllib",
        b"usemtl",
    ]
    .contains(&word);
    (obj_word && first.len() > word.len() && !text.contains(&b'{')).then_some(LooksLike::Obj)
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stray_nul_in_text_leaves_it_to_the_mdl_reader() {
        let mdl = b"Version {\n\tFormatVersion 800,\n}\nModel \"x\" {\n\tBlendTime 1\x00 50,\n}\n";
        assert_eq!(identify(mdl), Content::Model(Format::Mdl));
        assert_eq!(identify(b"\0"), Content::NotAModel(LooksLike::Binary));
    }

    #[test]
    fn the_wow_alpha_family_is_told_apart_by_the_shape_of_its_chunks() {
        // Version 1300 is Reforged's too; an alpha MODL has 373 bytes, Warcraft III's 372.
        let mdx = |modl: usize| {
            let mut d = b"MDLXVERS\x04\0\0\0".to_vec();
            d.extend(1300u32.to_le_bytes());
            d.extend(b"MODL");
            d.extend((modl as u32).to_le_bytes());
            d.resize(d.len() + modl, 0);
            d
        };
        assert_eq!(identify(&mdx(373)), Content::Model(Format::AlphaMdx));
        assert_eq!(Format::detect(&mdx(373)), Format::AlphaMdx);
        assert_eq!(identify(&mdx(372)), Content::Model(Format::Mdx));
        assert_eq!(Format::AlphaMdx.short_name(), "mdx-alpha");
        // Anything that is no model is left to the MDL reader by `Format::detect`.
        assert_eq!(Format::detect(b"\x89PNG\r\n\x1a\n"), Format::Mdl);
    }

    #[test]
    fn obj_and_json_text_are_named() {
        let obj = b"# Blender\nmtllib a.mtl\no Cube\nv 1 1 1\nf 1 2 3\n";
        assert_eq!(identify(obj), Content::NotAModel(LooksLike::Obj));
        let gltf = br#"{"asset": {"version": "2.0"}, "meshes": []}"#;
        assert_eq!(identify(gltf), Content::Model(Format::Gltf));
        assert_eq!(identify(b"[1, 2]"), Content::NotAModel(LooksLike::Json));
        // The asset may come after the sample.
        let mut late = b"{\"meshes\": [".to_vec();
        late.resize(SAMPLE * 2, b' ');
        late.extend_from_slice(br#"], "asset": {"version": "2.0"}}"#);
        assert_eq!(identify(&late), Content::Model(Format::Gltf));
        assert_eq!(identify(b"glTF\x02\0\0\0"), Content::Model(Format::Gltf));
        // MDL with a comment that happens to start like OBJ.
        assert_eq!(
            identify(b"v 1\nVersion {\n}\n"),
            Content::Model(Format::Mdl)
        );
    }

    #[test]
    fn tga_is_told_by_its_footer_or_a_plausible_header() {
        let mut tga = vec![0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 32, 8];
        tga.extend_from_slice(&[0x80; 16]);
        assert_eq!(identify(&tga), Content::NotAModel(LooksLike::Tga));
        tga[2] = 7;
        assert_eq!(identify(&tga), Content::NotAModel(LooksLike::Binary));
        tga.extend_from_slice(&[0; 8]);
        tga.extend_from_slice(b"TRUEVISION-XFILE.\0");
        assert_eq!(identify(&tga), Content::NotAModel(LooksLike::Tga));
    }
}
