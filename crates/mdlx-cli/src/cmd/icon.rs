//! `mdlx icon INPUT OUT`: the icons of a model or a picture (BTN, DISBTN, PASBTN,
//! DISPASBTN, ATC, DISATC), or of every model of a folder or map, each where the game looks
//! for it under OUT, and a contact sheet of them.

use super::render::{finish, moment, name_in, stand, Caches};
use crate::cli::{IconArgs, IconFormat, IconFrame};
use crate::cmd::convert_dir::Progress;
use crate::{files, Ctx, Usage};
use anyhow::{anyhow, Context, Result};
use mdlx::anim::AnimTime;
use mdlx::render::icon::{self, ArtOptions, Background, FramedBy, Framing, IconVariant};
use mdlx::render::Scene;
use mdlx::texture::RgbaImage;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// One input's art and icons.
struct Made {
    name: String,
    icons: Vec<(IconVariant, RgbaImage)>,
    /// How the art was framed, for the report.
    how: String,
}

/// What every input shares: the icons asked for, the background, the user's frame.
struct Plan<'a> {
    args: &'a IconArgs,
    variants: Vec<IconVariant>,
    background: Background,
    border: Option<RgbaImage>,
    caches: Caches,
}

/// Runs the verb.
pub(crate) fn run(ctx: &Ctx, args: &IconArgs) -> Result<ExitCode> {
    let plan = Plan {
        args,
        variants: variants(&args.icons)?,
        background: background(args.background.as_deref())?,
        border: args.border.as_deref().map(read_picture).transpose()?,
        caches: Caches::new(8 * args.size as usize),
    };
    let started = Instant::now();
    let (made, failed) = if files::is_container(&args.input) {
        if args.name.is_some() {
            return Err(Usage("--name names one input's icons; a folder's or a map's are each named after their model".into()).into());
        }
        library(ctx, &plan)?
    } else {
        let name = match &args.name {
            Some(n) => n.clone(),
            None => default_name(&args.input),
        };
        (vec![make(ctx, &plan, &args.input, name)?], 0)
    };
    for m in &made {
        write_icons(&plan, m)?;
        if !ctx.quiet {
            let names: Vec<String> = m
                .icons
                .iter()
                .map(|(v, _)| file_name(&plan, *v, &m.name))
                .collect();
            eprintln!("mdlx: {}: {} ({})", m.name, names.join(", "), m.how);
        }
    }
    if let Some(sheet) = &args.sheet {
        let cells: Vec<(String, RgbaImage)> =
            made.iter().map(|m| (m.name.clone(), row(m))).collect();
        let columns = ((cells.len() as f64).sqrt().ceil() as usize).max(1);
        let image = mdlx::render::output::sheet::contact_sheet(&cells, columns, [32, 34, 40, 255]);
        files::write(sheet, &mdlx::texture::png::to_bytes(&image), &args.input)?;
    }
    Ok(finish(
        ctx,
        &format!("{} icon set(s) made", made.len()),
        failed,
        started,
    ))
}

fn variants(words: &[String]) -> Result<Vec<IconVariant>> {
    let mut out = Vec::new();
    for w in words {
        if w.trim().eq_ignore_ascii_case("all") {
            out.extend(IconVariant::ALL);
            continue;
        }
        let v = IconVariant::parse(w).ok_or_else(|| {
            Usage(format!(
                "--icons: {w:?} is not btn, disbtn, pas, dispas, atc, disatc or all"
            ))
        })?;
        out.push(v);
    }
    out.dedup();
    Ok(out)
}

fn background(text: Option<&str>) -> Result<Background> {
    let Some(text) = text else {
        return Ok(Background::default());
    };
    if text.eq_ignore_ascii_case("none") || text.eq_ignore_ascii_case("transparent") {
        return Ok(Background::Clear);
    }
    let colours: Vec<&str> = text.split(',').collect();
    let parsed: Vec<Option<[u8; 3]>> = colours.iter().map(|c| crate::cli::parse_hex(c)).collect();
    match parsed.as_slice() {
        [Some(c)] => Ok(Background::Solid(*c)),
        [Some(a), Some(b)] => Ok(Background::Radial(*a, *b)),
        _ if text.starts_with('#') => Err(Usage(format!(
            "--background {text}: a colour is #RRGGBB, two are #RRGGBB,#RRGGBB"
        ))
        .into()),
        _ => Ok(Background::Image(read_picture(Path::new(text))?)),
    }
}

fn read_picture(path: &Path) -> Result<RgbaImage> {
    let data = files::read(path)?;
    super::texture::decode(&data, path, 0)
}

/// The icon a picture's file name says it is, if an enabled one (`BTNFoo.blp`).
fn icon_prefix(input: &Path) -> Option<IconVariant> {
    let name = file_stem(input).to_ascii_uppercase();
    let word = [("PASBTN", "pas"), ("BTN", "btn"), ("ATC", "atc")]
        .into_iter()
        .find(|(p, _)| name.len() > p.len() && name.starts_with(p))?
        .1;
    IconVariant::parse(word)
}

/// A file's name without its folders and its extension (the name inside a map for
/// `MAP:NAME`).
fn file_stem(input: &Path) -> String {
    let name = match crate::archive::split(input) {
        Some((_, inner)) => inner.rsplit(['\\', '/']).next().unwrap_or("").to_string(),
        None => input
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    name.rsplit_once('.')
        .map_or(name.as_str(), |(s, _)| s)
        .to_string()
}

/// An input's icons' name: its file name without the extension, and without the prefix
/// of an icon (a picture `BTNFoo.png` makes `BTNFoo`, not `BTNBTNFoo`).
fn default_name(input: &Path) -> String {
    let stem = file_stem(input);
    for prefix in ["DISPASBTN", "PASBTN", "DISBTN", "DISATC", "BTN", "ATC"] {
        if stem.len() > prefix.len() && stem[..prefix.len()].eq_ignore_ascii_case(prefix) {
            return stem[prefix.len()..].to_string();
        }
    }
    stem
}

/// The icons of one input: a picture made square, or a model drawn.
fn make(ctx: &Ctx, plan: &Plan, input: &Path, name: String) -> Result<Made> {
    let data = files::read(input)?;
    let n = plan.args.size;
    // A picture that is an icon already (`BTNFoo.blp`) keeps its frame: its disabled icon
    // is made from it as it is (the "missing DISBTN" case); other kinds are framed anew.
    let (art, how, framed) = if super::texture::is_texture(&data) {
        let picture = super::texture::decode(&data, input, 0)?;
        let framed = icon_prefix(input).map(|v| v.kind);
        let how = match framed {
            Some(_) => "from an icon, its frame kept",
            None => "from a picture",
        };
        let art = icon::over(&icon::square(&picture, n), &plan.background);
        (art, how.to_string(), framed)
    } else {
        let (art, how) = draw(ctx, plan, input, &data)?;
        (art, how, None)
    };
    let icons = plan
        .variants
        .iter()
        .map(|&v| {
            let image = match (framed == Some(v.kind), v.disabled) {
                (true, false) => art.clone(),
                (true, true) => icon::disabled(&art, v.kind),
                _ => icon::icon(&art, v, plan.border.as_ref()),
            };
            (v, image)
        })
        .collect();
    Ok(Made { name, icons, how })
}

/// The model drawn for its icons, and how it was framed.
fn draw(ctx: &Ctx, plan: &Plan, input: &Path, data: &[u8]) -> Result<(RgbaImage, String)> {
    let a = plan.args;
    let d = super::decode(data, input, &super::read_options(ctx, input))?;
    let model = d.model;
    let cache = plan.caches.for_file(input, &a.textures);
    let scene = Scene::new(&model, &cache);
    let sequence = match &a.sequence {
        Some(s) => Some(model.find_sequence(s)?),
        None => stand(&model),
    };
    let at = AnimTime::new(sequence, moment(&model, sequence, a.time));
    let defaults = ArtOptions::default();
    let options = ArtOptions {
        size: a.size,
        framing: match a.frame {
            IconFrame::Head => Framing::Head,
            IconFrame::Upper => Framing::Upper,
            IconFrame::Whole => Framing::Whole,
            IconFrame::Camera => Framing::Camera,
        },
        yaw: a.camera.yaw.unwrap_or(defaults.yaw),
        pitch: a.camera.pitch.unwrap_or(defaults.pitch),
        fov: a
            .camera
            .fov
            .map_or(defaults.fov, f32::to_radians)
            .clamp(0.01, 3.0),
        distance: a.camera.distance,
        team_color: a.team_color.unwrap_or(defaults.team_color),
        effects: !a.no_effects,
        lod: a.lod,
    };
    let (art, by) = icon::art(&scene, at, &options).ok_or_else(|| match a.frame {
        IconFrame::Camera => anyhow!("--frame camera: the model has no usable camera"),
        _ => anyhow!("the model draws nothing at that moment"),
    })?;
    let framed = match by {
        FramedBy::HeadNode(n) => format!("head {:?}", icon::node_name(&scene, n)),
        FramedBy::Upper => "upper part".into(),
        FramedBy::Whole => "whole model".into(),
        FramedBy::Camera => "model's own camera".into(),
    };
    let cover = icon::coverage(&art);
    Ok((
        icon::over(&art, &plan.background),
        format!(
            "framed on the {framed}; the model covers {:.0}% of the icon",
            cover * 100.0
        ),
    ))
}

/// Every model of a folder or map (portraits left out), drawn in parallel; with how many
/// failed (each said).
fn library(ctx: &Ctx, plan: &Plan) -> Result<(Vec<Made>, usize)> {
    let input = &plan.args.input;
    let mut models = files::find(
        std::slice::from_ref(input),
        &files::model_extensions(),
        std::slice::from_ref(&plan.args.output),
    )?;
    models.retain(|f| !files::has_ext(f, &["txt"]) || files::is_milkshape(f));
    models.retain(|f| !default_name(f).to_ascii_lowercase().ends_with("_portrait"));
    if models.is_empty() {
        return Err(anyhow!("no models under {}", input.display()));
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    let named: Vec<(PathBuf, String)> = models
        .into_iter()
        .map(|f| {
            let base = default_name(&f);
            let count = seen.entry(base.to_ascii_lowercase()).or_insert(0);
            *count += 1;
            let name = if *count > 1 {
                format!("{base}_{count}")
            } else {
                base
            };
            (f, name)
        })
        .collect();
    let progress = Progress::new(named.len());
    let results: Vec<Result<Made>> = named
        .par_iter()
        .map(|(file, name)| {
            let r = make(ctx, plan, file, name.clone());
            if let Err(e) = &r {
                progress.println(&format!("mdlx: error: {}: {e:#}", name_in(input, file)));
            }
            progress.inc();
            r
        })
        .collect();
    progress.finish();
    let failed = results.iter().filter(|r| r.is_err()).count();
    Ok((results.into_iter().filter_map(Result::ok).collect(), failed))
}

fn extension(plan: &Plan) -> &'static str {
    match plan.args.format {
        IconFormat::Blp => "blp",
        IconFormat::Dds => "dds",
        IconFormat::Png => "png",
    }
}

fn file_name(plan: &Plan, v: IconVariant, name: &str) -> String {
    format!("{}{name}.{}", v.prefix(), extension(plan))
}

/// Writes one input's icons under OUT, each in its game folder.
fn write_icons(plan: &Plan, m: &Made) -> Result<()> {
    let out = &plan.args.output;
    for (v, image) in &m.icons {
        let path = out.join(v.path(&m.name, extension(plan)).replace('\\', "/"));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let format = match plan.args.format {
            IconFormat::Blp => mdlx::Format::Blp,
            IconFormat::Dds => mdlx::Format::Dds,
            IconFormat::Png => mdlx::Format::Png,
        };
        let bytes = mdlx::texture::write::encode(image, format, &Default::default())
            .map_err(|e| anyhow!("{}: {e}", path.display()))?;
        files::write_bulk(&path, &bytes, &plan.args.input)?;
        if plan.args.png && format != mdlx::Format::Png {
            let png = path.with_extension("png");
            files::write_bulk(&png, &mdlx::texture::png::to_bytes(image), &plan.args.input)?;
        }
    }
    Ok(())
}

/// One input's icons side by side, 4 pixels apart, for the contact sheet.
fn row(m: &Made) -> RgbaImage {
    let n = m.icons.first().map_or(1, |(_, i)| i.width);
    let k = m.icons.len().max(1) as u32;
    let width = n * k + 4 * (k - 1);
    let mut out = RgbaImage {
        width,
        height: n,
        pixels: vec![0; (width * n * 4) as usize],
    };
    for (j, (_, image)) in m.icons.iter().enumerate() {
        let x0 = j as u32 * (n + 4);
        for y in 0..n {
            let src = (y * n * 4) as usize;
            let dst = ((y * width + x0) * 4) as usize;
            out.pixels[dst..dst + (n * 4) as usize]
                .copy_from_slice(&image.pixels[src..src + (n * 4) as usize]);
        }
    }
    out
}
