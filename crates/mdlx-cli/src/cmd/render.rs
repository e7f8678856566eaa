//! `mdlx render INPUT OUT`: a picture, an animation (a sequence or a turntable), or for a
//! folder or map, thumbnails of every model or a contact sheet of them.

use crate::cli::RenderArgs;
use crate::cmd::convert_dir::Progress;
use crate::files;
use crate::Ctx;
use anyhow::{anyhow, bail, Context, Result};
use mdlx::anim::AnimTime;
use mdlx::render::{Camera, RenderOptions, Scene, TextureCache, DEFAULT_FOV_Y};
use mdlx::texture::RgbaImage;
use mdlx::Model;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What an output file holds, by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Png,
    Gif,
    Apng,
    Webp,
}

fn kind_of(path: &Path) -> Option<Kind> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "png" => Kind::Png,
        "gif" => Kind::Gif,
        "apng" => Kind::Apng,
        "webp" => Kind::Webp,
        _ => return None,
    })
}

/// GIF's background when none is asked for: GIF has no partial transparency.
const GIF_BACKGROUND: [u8; 4] = [48, 48, 52, 255];

/// Runs the verb.
pub(crate) fn run(ctx: &Ctx, input: &Path, output: &Path, args: &RenderArgs) -> Result<ExitCode> {
    if files::same(input, output) {
        bail!("the output {} is the input", output.display());
    }
    if files::is_container(input) {
        return library(ctx, input, output, args);
    }
    let Some(kind) = kind_of(output) else {
        bail!(
            "{}: the output's extension says what to make: .png, .gif, .apng or .webp",
            output.display()
        );
    };
    let data = files::read(input)?;
    let d = super::decode(&data, input, &super::read_options(ctx, input))?;
    ctx.print_notes(&files::shown(input), &d.notes);
    let model = d.model;
    let cache = TextureCache::new(crate::archive::texture_places(input, &args.textures));
    let scene = Scene::new(&model, &cache);
    if !ctx.quiet {
        for (path, why) in scene.missing() {
            eprintln!(
                "mdlx: warning: {}: texture {path}: {why} (drawn by its layer's role: grey, or nothing where it adds light)",
                files::shown(input)
            );
        }
    }
    // A picture without --sequence shows the model as it stands in the game (its Stand
    // sequence), not the bind pose, which often shows every geoset at once.
    let sequence = match args.sequence {
        Some(_) => sequence_of(&model, args)?,
        None if kind == Kind::Png => stand(&model),
        None => None,
    };
    let (w, h) = args.size.unwrap_or((512, 512));
    let bytes = if kind == Kind::Png {
        let at = AnimTime::new(sequence, moment(&model, sequence, args.time));
        let options = options(&scene, args, sequence, Picture { w, h, kind }, 0.0)?;
        encode(kind, &[scene.render(at, &options)], 0)?
    } else {
        let (frames, delay) = animation(&scene, args, sequence, Picture { w, h, kind })?;
        encode(kind, &frames, delay)?
    };
    files::write(output, &bytes, input)?;
    Ok(ExitCode::SUCCESS)
}

fn sequence_of(model: &Model, args: &RenderArgs) -> Result<Option<usize>> {
    Ok(args
        .sequence
        .as_deref()
        .map(|s| model.find_sequence(s))
        .transpose()?)
}

/// The moment of a picture: `--time`, or half-way into the sequence but at most a second
/// in: far enough for particles and ribbons to have appeared (at 0 ms a spell effect is
/// usually empty), early enough to show a unit at rest.
pub(crate) fn moment(model: &Model, sequence: Option<usize>, time: Option<f64>) -> f64 {
    time.unwrap_or_else(|| {
        let length = sequence
            .and_then(|s| model.sequences.get(s))
            .map_or(0.0, |s| f64::from(s.length()));
        (length * 0.5).min(1000.0).floor()
    })
}

/// The sequence a turntable plays: the first whose name starts with "Stand" (as the game's
/// idle animations are named), else none.
pub(crate) fn stand(model: &Model) -> Option<usize> {
    model.sequences.iter().position(|s| {
        s.name
            .text()
            .trim()
            .to_ascii_lowercase()
            .starts_with("stand")
    })
}

/// The picture asked for: its size and its file's kind.
#[derive(Clone, Copy)]
struct Picture {
    w: u32,
    h: u32,
    kind: Kind,
}

/// The drawing options for one frame; `turn` degrees are added to the yaw.
fn options(
    scene: &Scene,
    args: &RenderArgs,
    sequence: Option<usize>,
    Picture { w, h, kind }: Picture,
    turn: f32,
) -> Result<RenderOptions> {
    let aspect = w as f32 / h as f32;
    let fov = args
        .camera
        .fov
        .map_or(DEFAULT_FOV_Y, f32::to_radians)
        .clamp(0.01, 3.0);
    let camera = match args.portrait {
        true => Camera::from_model(scene.model(), 0)
            .ok_or_else(|| anyhow!("--portrait: the model has no usable camera"))?,
        false => {
            let yaw = args.camera.yaw.unwrap_or(mdlx::render::DEFAULT_YAW_DEG) + turn;
            let pitch = args.camera.pitch.unwrap_or(mdlx::render::DEFAULT_PITCH_DEG);
            let extent = scene
                .sequence_bounds(sequence, 8, args.lod)
                .unwrap_or(scene.model().info.extent);
            let framed =
                Camera::framing(&extent, yaw.to_radians(), pitch.to_radians(), fov, aspect);
            match args.camera.distance {
                Some(d) => {
                    Camera::orbit(framed.target, d, yaw.to_radians(), pitch.to_radians(), fov)
                }
                None => framed,
            }
        }
    };
    let mut o = RenderOptions::new(w, h, camera);
    o.background = args.background.unwrap_or(if kind == Kind::Gif {
        GIF_BACKGROUND
    } else {
        [0; 4]
    });
    if let Some(t) = args.team_color {
        o.team_color = t;
    }
    if let Some(s) = args.supersample {
        o.supersample = s;
    }
    o.light = !args.no_light;
    o.effects = !args.no_effects;
    o.lod = args.lod;
    Ok(o)
}

/// The frames of an animation and the delay between them (ms): the sequence played, or a
/// turntable.
fn animation(
    scene: &Scene,
    args: &RenderArgs,
    sequence: Option<usize>,
    picture: Picture,
) -> Result<(Vec<RgbaImage>, u32)> {
    let fps = args.fps.unwrap_or(15);
    let delay = 1000 / fps;
    let start = args.time.unwrap_or(0.0);
    let mut frames = Vec::new();
    match sequence {
        Some(s) => {
            let length = f64::from(scene.model().sequences[s].length());
            let n = args.frames.unwrap_or_else(|| {
                ((length * f64::from(fps) / 1000.0).ceil() as u32).clamp(1, 150)
            });
            let o = options(scene, args, sequence, picture, 0.0)?;
            for k in 0..n {
                let t = start + f64::from(k) * f64::from(delay);
                frames.push(scene.render(AnimTime::new(sequence, t), &o));
            }
        }
        None => {
            let playing = stand(scene.model());
            let n = args.frames.unwrap_or(36);
            for k in 0..n {
                let turn = 360.0 * k as f32 / n as f32;
                let o = options(scene, args, playing, picture, turn)?;
                let t = start + f64::from(k) * f64::from(delay);
                frames.push(scene.render(AnimTime::new(playing, t), &o));
            }
        }
    }
    Ok((frames, delay))
}

/// The file's bytes.
fn encode(kind: Kind, frames: &[RgbaImage], delay_ms: u32) -> Result<Vec<u8>> {
    use mdlx::render::output::encode as out;
    Ok(match kind {
        Kind::Png => out::png(&frames[0]),
        Kind::Gif => out::gif(frames, delay_ms)?,
        Kind::Apng => out::apng(frames, delay_ms)?,
        Kind::Webp => out::webp(frames, delay_ms)?,
    })
}

/// A folder or map: a thumbnail of every model under OUT (a folder), or a contact sheet
/// (OUT a `.png`).
fn library(ctx: &Ctx, input: &Path, output: &Path, args: &RenderArgs) -> Result<ExitCode> {
    let sheet = kind_of(output) == Some(Kind::Png);
    if !sheet && kind_of(output).is_some() {
        bail!(
            "{}: a library is drawn into a folder (thumbnails) or a .png (a contact sheet)",
            output.display()
        );
    }
    let exts = files::model_extensions();
    let mut models = files::find(&[input.to_path_buf()], &exts, &[output.to_path_buf()])?;
    models.retain(|f| !files::has_ext(f, &["txt"]) || files::is_milkshape(f));
    if models.is_empty() {
        bail!("no models under {}", input.display());
    }
    let (w, h) = args.size.unwrap_or((192, 192));
    // Thumbnails never read texels finer than their own supersampled pixels: keep no
    // texture level larger than twice that, so a library of large textures stays small.
    let max_side = 2 * w.max(h) as usize * args.supersample.unwrap_or(2) as usize;
    let caches = Caches::new(max_side);
    let progress = Progress::new(models.len());
    let started = Instant::now();
    let drawn: Vec<(PathBuf, Result<RgbaImage>)> = models
        .par_iter()
        .map(|file| {
            let r = (|| -> Result<RgbaImage> {
                let data = files::read(file)?;
                let d = super::decode(&data, file, &super::read_options(ctx, file))?;
                let cache = caches.for_file(file, &args.textures);
                let scene = Scene::new(&d.model, &cache);
                let sequence = match &args.sequence {
                    Some(_) => sequence_of(&d.model, args).unwrap_or(None),
                    None => stand(&d.model),
                };
                let o = options(
                    &scene,
                    args,
                    sequence,
                    Picture {
                        w,
                        h,
                        kind: Kind::Png,
                    },
                    0.0,
                )?;
                let t = moment(&d.model, sequence, args.time);
                Ok(scene.render(AnimTime::new(sequence, t), &o))
            })();
            if let Err(e) = &r {
                progress.println(&format!("mdlx: error: {}: {e:#}", files::shown(file)));
            }
            progress.inc();
            (file.clone(), r)
        })
        .collect();
    progress.finish();
    let failed = drawn.iter().filter(|(_, r)| r.is_err()).count();
    let ok = drawn.len() - failed;
    if sheet {
        let cells: Vec<(String, RgbaImage)> = drawn
            .into_iter()
            .filter_map(|(f, r)| Some((name_in(input, &f), r.ok()?)))
            .collect();
        let columns = args.columns.map_or_else(
            || (cells.len() as f64).sqrt().ceil() as usize,
            |c| c as usize,
        );
        let image = contact_sheet(&cells, columns.max(1))?;
        files::write(output, &mdlx::texture::png::to_bytes(&image), input)?;
    } else {
        for (f, r) in &drawn {
            if let Ok(image) = r {
                let rel = crate::archive::relative(f)
                    .unwrap_or_else(|| f.strip_prefix(input).unwrap_or(f).to_path_buf());
                let target = output.join(rel).with_extension("png");
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent)
                        .with_context(|| format!("cannot create {}", parent.display()))?;
                }
                files::write_bulk(&target, &mdlx::texture::png::to_bytes(image), f)?;
            }
        }
    }
    Ok(finish(
        ctx,
        &format!("{ok} model(s) drawn"),
        failed,
        started,
    ))
}

/// The last line of a verb over a library, `mdlx: WHAT[, N failed] in S s` (unless
/// quiet), and its exit status: 1 when any failed.
pub(crate) fn finish(ctx: &Ctx, what: &str, failed: usize, started: Instant) -> ExitCode {
    if !ctx.quiet {
        let failed_text = if failed > 0 {
            format!(", {failed} failed")
        } else {
            String::new()
        };
        let seconds = started.elapsed().as_secs_f64();
        eprintln!("mdlx: {what}{failed_text} in {seconds:.1} s");
    }
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The texture caches of a library: one per list of places to look (a model's folder or
/// map, and the --textures paths), shared by the models that look in the same places.
pub(crate) struct Caches {
    map: Mutex<HashMap<Vec<PathBuf>, Arc<TextureCache>>>,
    max_side: usize,
}

impl Caches {
    /// Caches keeping no texture level larger than `max_side`.
    pub(crate) fn new(max_side: usize) -> Caches {
        Caches {
            map: Mutex::new(HashMap::new()),
            max_side,
        }
    }

    /// The cache for a model at `file`, also looking under `extra`.
    pub(crate) fn for_file(&self, file: &Path, extra: &[PathBuf]) -> Arc<TextureCache> {
        let dirs = crate::archive::texture_places(file, extra);
        let mut c = self.map.lock().unwrap_or_else(|e| e.into_inner());
        c.entry(dirs.clone())
            .or_insert_with(|| Arc::new(TextureCache::with_max_side(dirs, self.max_side)))
            .clone()
    }
}

/// How a model of a library is named on a contact sheet: its path under the library,
/// without the extension (the cells are narrow).
pub(crate) fn name_in(root: &Path, file: &Path) -> String {
    let name = match crate::archive::split(file) {
        Some((_, inner)) => inner,
        None => file
            .strip_prefix(root)
            .unwrap_or(file)
            .display()
            .to_string(),
    };
    match name.rsplit_once('.') {
        Some((stem, ext)) if !ext.contains(['/', '\\']) => stem.to_string(),
        _ => name,
    }
}

fn contact_sheet(cells: &[(String, RgbaImage)], columns: usize) -> Result<RgbaImage> {
    Ok(mdlx::render::output::sheet::contact_sheet(
        cells,
        columns,
        [32, 34, 40, 255],
    ))
}
