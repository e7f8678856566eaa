//! Textures in `info` and `convert`: BLP1, BLP2, DDS and TGA read (and PNG), PNG written.
//! Writing BLP is not there yet; converting a texture to anything but PNG is refused with
//! a message that says so.

use crate::files;
use anyhow::{anyhow, bail, Result};
use mdlx::texture::{RgbaImage, Texture};
use mdlx::{Content, LooksLike};
use serde_json::json;
use std::io::Write;
use std::path::Path;

/// Whether the content is a texture this tool reads: BLP, DDS, TGA or PNG
/// ([`LooksLike::is_texture`]).
pub fn is_texture(data: &[u8]) -> bool {
    matches!(mdlx::identify(data), Content::NotAModel(like) if like.is_texture())
}

fn is_png(data: &[u8]) -> bool {
    mdlx::identify(data) == Content::NotAModel(LooksLike::Png)
}

/// Decodes mip level `level` of a texture file (PNG: its one image).
pub fn decode(data: &[u8], path: &Path, level: usize) -> Result<RgbaImage> {
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
pub fn info(out: &mut impl Write, data: &[u8], path: &Path, as_json: bool) -> Result<()> {
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
