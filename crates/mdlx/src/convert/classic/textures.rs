//! Textures of the classic model: BLP paths, the files written beside it (decoded,
//! composed, resized to the classic client's sizes), and the records no layer uses any
//! more.

use super::material::Job;
use crate::convert::ImportedTexture;
use crate::model::usage::{remove, RefKind, Usage};
use crate::model::{FixedString, Model};
use crate::texture::TextureFinder;
use crate::texture::{blp1, BlpOptions, RgbaImage};
use crate::Loss;
use std::collections::{BTreeMap, BTreeSet};

/// The largest side of a texture the classic client loads (see [`super`]).
pub const MAX_SIDE: u32 = 512;

/// `path` with its extension replaced by `.blp` (`Textures\Foo.dds` ->
/// `Textures\Foo.blp`); `suffix` goes before it.
fn blp_path(path: &str, suffix: &str) -> String {
    let cut = path
        .rfind('.')
        .filter(|&d| !path[d..].contains(['\\', '/']));
    format!("{}{suffix}.blp", &path[..cut.unwrap_or(path.len())])
}

/// Whether the classic client reads the texture at `path`: BLP, and TGA (which custom
/// models ship beside them and the game reads; a `.tga` renamed `.blp` would name a file
/// the map does not have).
fn reads_classic(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".blp") || lower.ends_with(".tga")
}

/// What to make of each texture: per job, the texture record it ends up as and the file
/// to write, if one must be written.
struct Made {
    record: usize,
    /// The path of the texture to read, and of the ORM texture whose alpha it takes.
    write: Option<(String, Option<String>)>,
}

/// Points the layers of `jobs` at their textures and every other texture of a format the
/// classic client does not read at a `.blp` path; with `finder`, decodes what they need,
/// composes, resizes and encodes it. Returns the files to write beside the model.
pub(super) fn textures(
    model: &mut Model,
    jobs: &[(usize, usize, Job)],
    mut finder: Option<&mut TextureFinder>,
    was_used: &BTreeSet<usize>,
    losses: &mut Vec<Loss>,
) -> Vec<ImportedTexture> {
    let mut made: BTreeMap<Job, Made> = BTreeMap::new();
    let mut all: Vec<Job> = jobs.iter().map(|j| j.2).collect();
    // Every other texture in use, as it is.
    for t in used(model) {
        all.push(Job::Plain(t));
    }
    for job in all {
        if made.contains_key(&job) {
            continue;
        }
        let m = match job {
            Job::Plain(t) => {
                let Some(rec) = model.textures.get_mut(t) else {
                    continue;
                };
                let old = rec.path.text().into_owned();
                if rec.replaceable_id != 0 || old.is_empty() || reads_classic(&old) {
                    Made {
                        record: t,
                        write: None,
                    }
                } else {
                    let new = blp_path(&old, "");
                    rec.path = FixedString::from_field(new.as_bytes());
                    Made {
                        record: t,
                        write: Some((old, None)),
                    }
                }
            }
            Job::Masked(d, orm) => {
                let (Some(rec), Some(orm)) = (model.textures.get(d), model.textures.get(orm))
                else {
                    continue;
                };
                let orm = orm.path.text().into_owned();
                let old = rec.path.text().into_owned();
                let mut copy = rec.clone();
                copy.path = FixedString::from_field(blp_path(&old, "_TC").as_bytes());
                model.textures.push(copy);
                Made {
                    record: model.textures.len() - 1,
                    write: Some((old, Some(orm))),
                }
            }
        };
        made.insert(job, m);
    }
    for &(mi, li, job) in jobs {
        if let Some(m) = made.get(&job) {
            model.materials[mi].layers[li].texture_id = m.record as i32;
        }
    }
    let map = prune(model, was_used, losses);
    let mut out = Vec::new();
    for m in made.values() {
        let Some((old, orm)) = &m.write else { continue };
        // A texture no layer draws any more (the plain diffuse of a masked one) is not
        // written.
        let Some(record) = map.get(m.record).copied().flatten() else {
            continue;
        };
        let path = model.textures[record].path.text().into_owned();
        let place = format!("Texture[{record}]");
        let image = match finder.as_deref_mut() {
            Some(f) => compose(f, old, orm.as_deref()),
            None => Err(format!("{old:?}: no texture folder given")),
        };
        let image = match image {
            Ok(i) => i,
            Err(e) => {
                losses.push(Loss::new(
                    place,
                    format!("{path:?} not written ({e}); supply it beside the model"),
                ));
                continue;
            }
        };
        let (w, h) = (pot(image.width), pot(image.height));
        let image = if (w, h) != (image.width, image.height) {
            losses.push(Loss::new(
                place.clone(),
                format!(
                    "{path:?} resized from {}x{} to {w}x{h} (powers of two, at most {MAX_SIDE})",
                    image.width, image.height
                ),
            ));
            resize(&image, w, h)
        } else {
            image
        };
        match blp1::to_bytes(&image, &BlpOptions::jpeg(90)) {
            Ok(blp) => out.push(ImportedTexture {
                file: path
                    .split(['\\', '/'])
                    .filter(|s| !s.is_empty() && *s != "." && *s != "..")
                    .collect::<Vec<_>>()
                    .join("/"),
                path,
                blp,
            }),
            Err(e) => losses.push(Loss::new(place, format!("{path:?} not written ({e})"))),
        }
    }
    out
}

/// The texture at `path`, or with `orm`: that diffuse with the ORM's alpha, inverted, as
/// its alpha (the team colour shows where the ORM's alpha is high).
fn compose(finder: &mut TextureFinder, path: &str, orm: Option<&str>) -> Result<RgbaImage, String> {
    let load = |finder: &mut TextureFinder, path: &str| -> Result<RgbaImage, String> {
        // As named, else as a BLP (or the DDS, TGA or PNG of that name, as the finder
        // looks for them): Reforged models name `.tif` files the game never shipped.
        let found = finder
            .load(path)
            .or_else(|| finder.load(&blp_path(path, "")))
            .ok_or_else(|| format!("{path:?} not found in the texture folders"))?;
        let bytes = found.bytes?;
        crate::texture::decode(&bytes).map_err(|e| format!("{}: {e}", found.shown))
    };
    let mut d = load(finder, path)?;
    if let Some(orm) = orm {
        let o = load(finder, orm)?;
        let o = if (o.width, o.height) != (d.width, d.height) {
            resize(&o, d.width, d.height)
        } else {
            o
        };
        for (px, m) in d.pixels.chunks_exact_mut(4).zip(o.pixels.chunks_exact(4)) {
            px[3] = 255 - m[3];
        }
    }
    Ok(d)
}

/// Texture ids the model draws: layers (and their KMTF animations), particle emitters.
pub(super) fn used(model: &Model) -> BTreeSet<usize> {
    let counts = Usage::of(model);
    counts
        .counts(RefKind::Texture)
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(i, _)| i)
        .collect()
}

/// Removes the texture records of `was_used` that nothing uses any more (the HD roles no
/// classic layer draws; textures unused before stay), renumbering the rest; returns each
/// old record's new index. Nothing is removed when some reference is out of range (then
/// the numbering stays).
fn prune(
    model: &mut Model,
    was_used: &BTreeSet<usize>,
    losses: &mut Vec<Loss>,
) -> Vec<Option<usize>> {
    let keep = used(model);
    let n = model.textures.len();
    let same: Vec<Option<usize>> = (0..n).map(Some).collect();
    let drop: Vec<bool> = (0..n)
        .map(|i| was_used.contains(&i) && !keep.contains(&i))
        .collect();
    if !drop.contains(&true) {
        return same;
    }
    let names: Vec<String> = (0..n)
        .filter(|&i| drop[i])
        .map(|i| format!("{:?}", model.textures[i].path.text()))
        .collect();
    match remove(model, RefKind::Texture, &drop) {
        Ok(map) => {
            losses.push(Loss::new(
                "",
                format!(
                    "{} textures no classic layer draws, removed: {}",
                    names.len(),
                    names.join(", ")
                ),
            ));
            map
        }
        Err(_) => same,
    }
}

/// The power of two nearest `n` (in ratio), at most [`MAX_SIDE`].
fn pot(n: u32) -> u32 {
    let mut p = 1u32;
    while p < n && p < MAX_SIDE {
        p *= 2;
    }
    if p > n && p > 1 && f64::from(n) / f64::from(p / 2) < f64::from(p) / f64::from(n) {
        p /= 2;
    }
    p.clamp(1, MAX_SIDE)
}

/// A box-filtered resize: each output pixel the mean of the source pixels it covers (the
/// nearest one when enlarging).
fn resize(img: &RgbaImage, w: u32, h: u32) -> RgbaImage {
    let (sw, sh) = (img.width.max(1), img.height.max(1));
    let mut out = vec![0u8; (w * h * 4) as usize];
    for y in 0..h {
        let y0 = (y * sh / h).min(sh - 1);
        let y1 = (((y + 1) * sh).div_ceil(h)).clamp(y0 + 1, sh);
        for x in 0..w {
            let x0 = (x * sw / w).min(sw - 1);
            let x1 = (((x + 1) * sw).div_ceil(w)).clamp(x0 + 1, sw);
            let mut acc = [0u32; 4];
            for yy in y0..y1 {
                for xx in x0..x1 {
                    let p = ((yy * sw + xx) * 4) as usize;
                    for (a, &v) in acc.iter_mut().zip(&img.pixels[p..p + 4]) {
                        *a += u32::from(v);
                    }
                }
            }
            let count = (y1 - y0) * (x1 - x0);
            let o = ((y * w + x) * 4) as usize;
            for (px, a) in out[o..o + 4].iter_mut().zip(acc) {
                *px = ((a + count / 2) / count) as u8;
            }
        }
    }
    RgbaImage {
        width: w,
        height: h,
        pixels: out,
    }
}
