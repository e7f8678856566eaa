//! `mdlx view MODEL`: a page on 127.0.0.1 that shows the model moving and follows its file.
//!
//! The pictures are drawn here by the library's renderer ([`mdlx::render`]) and sent to the
//! page as PNG frames, rather than drawn in the browser by WebGL: there is one source of
//! truth for how a material looks, and the viewer shows the same pixels as `mdlx render`.
//! The guides (bones, extents, collision shapes, wireframe) are drawn over the frame by
//! [`mdlx::render::overlay`] through the same camera.
//!
//! Endpoints (GET only; anything else is refused):
//! - `/`: the page.
//! - `/api/model`: JSON: file, name, `revision` (counts changes seen on disk),
//!   `model_revision` (the revision of the model drawn), `error` (why the latest save does
//!   not read, with `at`, the reader's `file:line:col`; the last good model is still drawn),
//!   sequences, textures (found, or why not), `check` findings and counts.
//! - `/api/revision?since=N`: the revision, answered as soon as it differs from N (at most
//!   25 s later): the page's long poll for reloads.
//! - `/frame.png?seq=&t=&yaw=&pitch=&zoom=&team=&w=&h=&ss=&bones=&extents=&collision=&wire=`:
//!   the model at `t` ms into sequence `seq` (none: the bind pose), framed over the
//!   sequence from `yaw`/`pitch` degrees, `zoom` times closer, player `team`'s colour,
//!   `w` x `h` pixels, `ss`² samples a pixel, with the guides whose flags are 1. The
//!   headers `X-Render-Ms` and `X-Encode-Ms` say how long drawing (guides included) and
//!   the PNG encoding took.

use crate::cli::ViewArgs;
use crate::files;
use crate::view::http::{self, Request, Response};
use crate::view::live::Live;
use crate::view::{BACKGROUND, PAGE};
use crate::Ctx;
use anyhow::{bail, Context, Result};
use mdlx::anim::AnimTime;
use mdlx::render::overlay::{self, Overlays};
use mdlx::render::{Camera, RenderOptions, Scene, DEFAULT_FOV_Y, TEAM_COLORS};
use serde_json::json;
use std::io::Write;
use std::net::{Ipv4Addr, TcpListener};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Runs the verb: serves until interrupted.
pub(crate) fn run(ctx: &Ctx, input: &Path, args: &ViewArgs) -> Result<ExitCode> {
    if files::is_stdio(input) || crate::archive::split(input).is_some() || input.is_dir() {
        bail!(
            "{}: view follows a model file on disk (not standard input, a folder or a file in an archive)",
            files::shown(input)
        );
    }
    let live = Arc::new(Live::open(*ctx, input, &args.textures)?);
    if !ctx.quiet {
        for note in live.json()["notes"].as_array().into_iter().flatten() {
            eprintln!("{}", note.as_str().unwrap_or_default());
        }
    }
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, args.port))
        .with_context(|| format!("cannot listen on 127.0.0.1:{}", args.port))?;
    let port = listener.local_addr()?.port();
    let url = format!("http://127.0.0.1:{port}/");
    let mut out = std::io::stdout();
    writeln!(out, "mdlx view: {url}")?;
    out.flush()?;
    if args.open {
        if let Err(e) = std::process::Command::new("xdg-open").arg(&url).spawn() {
            eprintln!("mdlx: warning: cannot run xdg-open ({e}): open {url} yourself");
        }
    }
    let watched = live.clone();
    let quiet = ctx.quiet;
    std::thread::Builder::new()
        .name("mdlx-view-watch".into())
        .spawn(move || loop {
            std::thread::sleep(crate::view::live::POLL);
            if watched.poll() && !quiet {
                let s = watched.state();
                match &s.error {
                    None => eprintln!("mdlx view: read again (revision {})", s.revision),
                    Some((_, at)) => eprintln!(
                        "mdlx view: the file does not read{}; still showing revision {}",
                        at.as_ref().map(|a| format!(" ({a})")).unwrap_or_default(),
                        s.loaded_revision
                    ),
                }
            }
        })
        .context("cannot start the file watcher")?;
    http::serve(listener, move |r| route(&live, r));
    Ok(ExitCode::SUCCESS)
}

/// Answers one request.
fn route(live: &Live, r: &Request) -> Response {
    match r.path.as_str() {
        "/" | "/index.html" => {
            let mut resp = Response::new(200, "text/html; charset=utf-8", PAGE.into());
            resp.headers.push((
                "Content-Security-Policy",
                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' blob:; connect-src 'self'".into(),
            ));
            resp
        }
        "/api/model" => Response::json(&live.json()),
        "/api/revision" => {
            let revision = match r.query.get("since").and_then(|s| s.parse::<u64>().ok()) {
                Some(since) => live.wait_revision(since, Duration::from_secs(25)),
                None => live.state().revision,
            };
            Response::json(&json!({ "revision": revision }))
        }
        "/frame.png" => frame(live, r),
        _ => Response::error(404, "not found"),
    }
}

/// `/frame.png`.
fn frame(live: &Live, r: &Request) -> Response {
    let (loaded, revision) = {
        let s = live.state();
        (s.loaded.clone(), s.loaded_revision)
    };
    let model = &loaded.model;
    let sequence = r
        .query
        .get("seq")
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|&s| s < model.sequences.len());
    let t = r.num("t", 0.0).clamp(0.0, 1e9);
    let yaw = r.num("yaw", f64::from(mdlx::render::DEFAULT_YAW_DEG)) as f32;
    let pitch = r
        .num("pitch", f64::from(mdlx::render::DEFAULT_PITCH_DEG))
        .clamp(-89.0, 89.0) as f32;
    let zoom = r.num("zoom", 1.0).clamp(0.05, 20.0) as f32;
    let team = (r.num("team", 0.0).max(0.0) as usize).min(TEAM_COLORS.len() - 1);
    let w = r.num("w", 640.0).clamp(16.0, 2048.0) as u32;
    let h = r.num("h", 480.0).clamp(16.0, 2048.0) as u32;
    let started = Instant::now();
    let scene = Scene::new(model, &loaded.cache);
    let extent = loaded.bounds(&scene, sequence).unwrap_or(model.info.extent);
    let framed = Camera::framing(
        &extent,
        yaw.to_radians(),
        pitch.to_radians(),
        DEFAULT_FOV_Y,
        w as f32 / h as f32,
    );
    let mut options = RenderOptions::new(w, h, zoomed(framed, zoom));
    options.background = BACKGROUND;
    options.team_color = TEAM_COLORS[team];
    // Samples per pixel: as asked, fewer if the picture would take more than about
    // 8 million samples (some 160 MB of working memory).
    let mut ss = r.num("ss", 2.0).clamp(1.0, 4.0) as u64;
    while ss > 1 && u64::from(w) * u64::from(h) * ss * ss > 8 << 20 {
        ss -= 1;
    }
    options.supersample = ss as u32;
    let at = AnimTime::new(sequence, t);
    let mut picture = scene.render(at, &options);
    let guides = Overlays {
        bones: r.flag("bones"),
        extents: r.flag("extents"),
        collision: r.flag("collision"),
        wireframe: r.flag("wire"),
    };
    if guides != Overlays::default() {
        overlay::draw(&scene, at, &options, &guides, &mut picture);
    }
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let encoding = Instant::now();
    let png = mdlx::render::output::encode::png(&picture);
    let encode_ms = encoding.elapsed().as_secs_f64() * 1000.0;
    let mut resp = Response::new(200, "image/png", png);
    resp.headers.push(("X-Render-Ms", format!("{ms:.1}")));
    resp.headers
        .push(("X-Encode-Ms", format!("{encode_ms:.1}")));
    resp.headers
        .push(("X-Model-Revision", revision.to_string()));
    resp
}

/// `framed` moved `zoom` times closer to its target (farther below 1), its clip planes
/// following.
fn zoomed(framed: Camera, zoom: f32) -> Camera {
    if (zoom - 1.0).abs() < 1e-6 {
        return framed;
    }
    let d = [0, 1, 2].map(|k| framed.eye[k] - framed.target[k]);
    let eye = [0, 1, 2].map(|k| framed.target[k] + d[k] / zoom);
    let distance = d.iter().map(|x| x * x).sum::<f32>().sqrt();
    let depth = (framed.far - distance).max(distance);
    Camera {
        eye,
        near: framed.near / zoom.max(1.0),
        far: distance / zoom + depth,
        ..framed
    }
}
