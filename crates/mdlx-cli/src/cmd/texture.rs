//! Textures in `info` and `convert`: BLP1, BLP2, DDS and TGA read (and PNG), PNG written.
//! Writing BLP is not there yet; converting a texture to anything but PNG is refused with
//! a message that says so.

use crate::cli::Resize;
use crate::files;
use anyhow::{anyhow, bail, Result};
use mdlx::texture::{RgbaImage, Texture};
use mdlx::{Content, LooksLike};
use serde_json::json;
use std::io::Write;
use std::path::Path;

/// Whether the content is a texture this tool reads: BLP, DDS, TGA or PNG
/// ([`LooksLike::is_texture`]).
pub(crate) fn is_texture(data: &[u8]) -> bool {
    matches!(mdlx::identify(data), Content::NotAModel(like) if like.is_texture())
}

fn is_png(data: &[u8]) -> bool {
    mdlx::identify(data) == Content::NotAModel(LooksLike::Png)
}

/// Decodes mip level `level` of a texture file (PNG: its one image).
pub(crate) fn decode(data: &[u8], path: &Path, level: usize) -> Result<RgbaImage> {
    let shown = files::shown(path);
    if is_png(data) {
        if level > 0 {
            bail!("{shown}: a PNG has one level; there is no mip {level}");
        }
        return mdlx::texture::png::from_bytes(data).map_err(|e| anyhow!("{shown}: {e}"));
    }
    let texture = Texture::from_bytes(data).map_err(|e| anyhow!("{shown}: {e}"))?;
    texture
        .decode_level(level)
        .map_err(|e| anyhow!("{shown}: {e}"))
}

/// `mdlx info` of a texture: kind, size, alpha, mip levels.
pub(crate) fn info(out: &mut impl Write, data: &[u8], path: &Path, as_json: bool) -> Result<()> {
    let shown = files::shown(path);
    if is_png(data) {
        let image = mdlx::texture::png::from_bytes(data).map_err(|e| anyhow!("{shown}: {e}"))?;
        let has_alpha = image.pixels.chunks_exact(4).any(|p| p[3] != 255);
        if as_json {
            let v = json!({"file": shown, "format": "texture", "kind": "png",
                "width": image.width, "height": image.height, "has_alpha": has_alpha,
                "mip_count": 1});
            writeln!(out, "{v}")?;
        } else {
            writeln!(out, "{shown}")?;
            writeln!(out, "  format   texture, png")?;
            writeln!(out, "  size     {} x {}", image.width, image.height)?;
            writeln!(
                out,
                "  alpha    {}",
                if has_alpha { "yes" } else { "opaque" }
            )?;
            writeln!(out, "  mips     1")?;
        }
        return Ok(());
    }
    let t = Texture::from_bytes(data).map_err(|e| anyhow!("{shown}: {e}"))?;
    if as_json {
        let v = json!({
            "file": shown,
            "format": "texture",
            "kind": t.kind.to_string(),
            "width": t.width,
            "height": t.height,
            "has_alpha": t.has_alpha,
            "alpha_bits": t.alpha_bits,
            "mip_count": t.mip_count(),
            "levels": t.levels.iter().map(|l| json!({
                "width": l.width, "height": l.height, "offset": l.offset, "size": l.size,
            })).collect::<Vec<_>>(),
        });
        writeln!(out, "{v}")?;
        return Ok(());
    }
    writeln!(out, "{shown}")?;
    writeln!(out, "  format   texture, {}", t.kind)?;
    writeln!(out, "  size     {} x {}", t.width, t.height)?;
    let alpha = match (t.has_alpha, t.alpha_bits) {
        (false, _) => "none (opaque)".to_string(),
        (true, 0) => "yes".to_string(),
        (true, bits @ (1 | 4 | 8)) => crate::text::count(bits as usize, "bit", "bits"),
        // Some writers put other numbers there; the content holds 8-bit alpha.
        (true, bits) => format!("8 bits (the header says {bits})"),
    };
    writeln!(out, "  alpha    {alpha}")?;
    let last = t
        .levels
        .last()
        .map_or((t.width, t.height), |l| (l.width, l.height));
    writeln!(
        out,
        "  mips     {} ({} x {} .. {} x {})",
        t.mip_count(),
        t.width,
        t.height,
        last.0,
        last.1
    )?;
    Ok(())
}

impl Resize {
    /// The size an image of `w` x `h` becomes.
    fn size(self, w: u32, h: u32) -> (u32, u32) {
        use mdlx::texture::write::nearest_power_of_two as p2;
        match self {
            Resize::PowerOfTwo => (p2(w), p2(h)),
            Resize::To(w, h) => (w, h),
            Resize::Max(n) => {
                let (w2, h2) = (p2(w), p2(h));
                let big = w2.max(h2);
                if big <= n {
                    (w2, h2)
                } else {
                    let shrink = big / n;
                    ((w2 / shrink).max(1), (h2 / shrink).max(1))
                }
            }
        }
    }
}

/// Encodes a decoded texture as `to` (PNG, BLP, TGA, DDS: [`mdlx::texture::encode`]),
/// resized as `opts.texture.resize` says.
/// A BLP, TGA or DDS whose sides are not powers of two gets a warning: the game needs
/// them.
pub(super) fn encode(
    image: RgbaImage,
    to: mdlx::Format,
    opts: &super::convert_file::Options,
    shown: &str,
) -> Result<(Vec<u8>, Vec<crate::report::Note>)> {
    use mdlx::texture::write;
    use mdlx::Format;
    let mut notes = Vec::new();
    let image = match opts.texture.resize {
        Some(r) => {
            let (w, h) = r.size(image.width, image.height);
            if (w, h) != (image.width, image.height) {
                notes.push(crate::report::Note::info(
                    "texture",
                    format!(
                        "resized from {} x {} to {w} x {h}",
                        image.width, image.height
                    ),
                ));
            }
            write::resize(&image, w, h)
        }
        None => image,
    };
    if to != Format::Png && !write::is_power_of_two(&image) {
        let (w, h) = (image.width, image.height);
        let (pw, ph) = Resize::PowerOfTwo.size(w, h);
        notes.push(crate::report::Note {
            kind: "warning",
            ..crate::report::Note::info(
                "warning",
                format!(
                    "{w} x {h} is not a power of two on each side, which Warcraft III needs of a texture; --resize pow2 writes {pw} x {ph} (or --resize WxH, --resize max:N)"
                ),
            )
        });
    }
    let mut encode = opts.texture.encode.clone();
    if to == Format::Dds {
        let format = *encode
            .dds
            .get_or_insert_with(|| write::DdsOutput::for_image(&image));
        let partial = |p: &[u8]| p[3] != 0 && p[3] != 255;
        if format == write::DdsOutput::Bc1 && image.pixels.chunks_exact(4).any(partial) {
            notes.push(crate::report::Note {
                kind: "warning",
                ..crate::report::Note::info(
                    "warning",
                    "BC1 keeps 1 bit of alpha (below 128 transparent, else opaque) and this texture has partial alpha; --dds bc3 keeps 8 bits".to_string(),
                )
            });
        }
    }
    let bytes = mdlx::texture::encode(&image, to, &encode).map_err(|e| anyhow!("{shown}: {e}"))?;
    Ok((bytes, notes))
}
