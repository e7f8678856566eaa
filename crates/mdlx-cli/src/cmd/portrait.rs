//! `mdlx portrait MODEL OUT`: a unit's portrait model ([`mdlx::edit::portrait`]), or with
//! `--camera-only` the model with a portrait camera
//! ([`mdlx::render::icon::place_portrait_camera`]).

use crate::cli::PortraitArgs;
use crate::{files, Ctx, Usage};
use anyhow::{anyhow, bail, Result};
use mdlx::render::icon::{place_portrait_camera, PortraitView};
use mdlx::Format;
use std::process::ExitCode;

/// Runs the verb.
pub(crate) fn run(ctx: &Ctx, args: &PortraitArgs) -> Result<ExitCode> {
    if files::same(&args.input, &args.output) {
        bail!("the output {} is the input", args.output.display());
    }
    let format = if files::has_ext(&args.output, &["mdl"]) {
        Format::Mdl
    } else if files::has_ext(&args.output, &["mdx"]) {
        Format::Mdx
    } else {
        return Err(Usage(format!(
            "{}: give the portrait an .mdx or .mdl extension",
            args.output.display()
        ))
        .into());
    };
    let data = files::read(&args.input)?;
    let shown = files::shown(&args.input);
    let d = super::decode(&data, &args.input, &super::read_options(ctx, &args.input))?;
    ctx.print_notes(&shown, &d.notes);
    let mut model = d.model;
    let defaults = PortraitView::default();
    let view = PortraitView {
        yaw: args.camera.yaw.unwrap_or(defaults.yaw),
        pitch: args.camera.pitch.unwrap_or(defaults.pitch),
        distance: args.camera.distance,
        fov: args
            .camera
            .fov
            .map_or(defaults.fov, f32::to_radians)
            .clamp(0.01, 3.0),
    };
    let report = if args.camera_only {
        let line = place_portrait_camera(&mut model, &view).map_err(|e| anyhow!("{shown}: {e}"))?;
        mdlx::edit::Report {
            changed: vec![line],
            refused: Vec::new(),
        }
    } else {
        mdlx::edit::portrait(&mut model, &view)
    };
    if let Some(why) = report.refused.first() {
        bail!("{shown}: {why} (nothing written)");
    }
    if !ctx.quiet {
        for line in &report.changed {
            eprintln!("mdlx: {shown}: {line}");
        }
    }
    let bytes = mdlx::write(&model, format, &mdlx::WriteOptions::default())
        .map_err(|e| anyhow!("{shown}: {e}"))?
        .bytes;
    files::write(&args.output, &bytes, &args.input)?;
    Ok(ExitCode::SUCCESS)
}
