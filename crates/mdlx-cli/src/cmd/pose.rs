//! `mdlx pose FILE --sequence NAME|INDEX --time MS [--view X,Y,Z] [--json]`: every node's
//! world transform and every geoset's visibility at one moment of one sequence.

use crate::report::{f32_json, f32s_json, Note};
use crate::Ctx;
use anyhow::{bail, Result};
use mdlx::anim::{math, posed_geosets, AnimTime, Pose, PosedGeoset, Skeleton};
use mdlx::Model;
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Which moment to pose, as the command line gives it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Moment {
    /// A sequence name (case-insensitive) or index; none for the bind pose.
    pub sequence: Option<String>,
    /// Milliseconds since the sequence started.
    pub time: f64,
    /// The camera's view direction, for billboards.
    pub view: Option<[f32; 3]>,
}

/// A posed model: the skeleton's pose and the geosets.
pub(crate) struct Posed {
    /// The sequence index, if any.
    pub sequence: Option<usize>,
    /// The node transforms.
    pub pose: Pose,
    /// The geosets.
    pub geosets: Vec<PosedGeoset>,
    /// A one-line description of the moment.
    pub title: String,
}

/// Poses `model` at `moment`.
pub(crate) fn pose_model(model: &Model, moment: &Moment) -> Result<Posed> {
    let sequence = moment
        .sequence
        .as_deref()
        .map(|s| model.find_sequence(s))
        .transpose()?;
    if !moment.time.is_finite() {
        bail!("--time must be a finite number of milliseconds");
    }
    let skeleton = Skeleton::new(model);
    let at = AnimTime::new(sequence, moment.time);
    let pose = skeleton.pose(at, moment.view);
    let clock = skeleton.clock(at);
    let geosets = posed_geosets(model, &skeleton, &pose, &clock);
    let title = match sequence {
        Some(i) => {
            let s = &model.sequences[i];
            format!(
                "sequence {i} \"{}\" [{}, {}], {} ms in",
                s.name.text(),
                s.interval[0],
                s.interval[1],
                moment.time
            )
        }
        None => "bind pose (no sequence)".to_string(),
    };
    Ok(Posed {
        sequence,
        pose,
        geosets,
        title,
    })
}

/// Runs the verb.
pub(crate) fn run(ctx: &Ctx, file: &Path, moment: &Moment, as_json: bool) -> Result<ExitCode> {
    let data = crate::files::read(file)?;
    let d = super::decode(&data, file, &super::read_options(ctx, file))?;
    let notes = d.notes;
    ctx.print_notes(&crate::files::shown(file), &notes);
    let model = d.model;
    let posed = pose_model(&model, moment)?;
    let skeleton = Skeleton::new(&model);
    let mut out = std::io::stdout().lock();
    let nodes: Vec<_> = skeleton
        .nodes
        .iter()
        .zip(&posed.pose.nodes)
        .map(|(n, p)| (n, p, math::transform_point(&p.world, n.pivot)))
        .collect();
    if as_json {
        let v = json!({
            "file": crate::files::shown(file),
            "moment": posed.title,
            "sequence": posed.sequence,
            "time_ms": moment.time,
            "billboards_ignored": posed.pose.billboards_ignored,
            "notes": notes.iter().map(Note::to_json).collect::<Vec<_>>(),
            "nodes": nodes.iter().map(|(n, p, at)| json!({
                "kind": n.kind.name(),
                "index": n.index,
                "name": n.node.name.text(),
                "object_id": n.node.object_id,
                "parent_id": n.node.parent_id,
                "pivot": f32s_json(&n.pivot),
                "position": f32s_json(at),
                "world_matrix": f32s_json(&p.world),
            })).collect::<Vec<_>>(),
            "geosets": posed.geosets.iter().map(|g| json!({
                "index": g.index,
                "visible": g.visible,
                "alpha": f32_json(g.alpha),
                "layer_alpha": f32_json(g.layer_alpha),
                "color": f32s_json(&g.color),
                "vertices": g.positions.len(),
            })).collect::<Vec<_>>(),
        });
        serde_json::to_writer_pretty(&mut out, &v)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "{}: {}", crate::files::shown(file), posed.title)?;
    if posed.pose.billboards_ignored > 0 {
        writeln!(
            out,
            "  {} left unturned: give --view X,Y,Z to face a camera",
            crate::text::count(
                posed.pose.billboards_ignored,
                "billboarded node",
                "billboarded nodes"
            )
        )?;
    }
    writeln!(out, "nodes (pivot's position now)")?;
    for (n, _, at) in &nodes {
        writeln!(
            out,
            "  {:<18} {:>4}  {:<32} {:>10.3} {:>10.3} {:>10.3}",
            format!("{}[{}]", n.kind.name(), n.index),
            n.node.object_id,
            n.node.name.text(),
            at[0],
            at[1],
            at[2]
        )?;
    }
    writeln!(out, "geosets")?;
    for g in &posed.geosets {
        writeln!(
            out,
            "  Geoset[{}]  {}  alpha {:.3}  layer alpha {:.3}  {}",
            g.index,
            if g.visible { "visible" } else { "hidden " },
            g.alpha,
            g.layer_alpha,
            crate::text::count(g.positions.len(), "vertex", "vertices")
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

impl From<crate::cli::Moment> for Moment {
    fn from(m: crate::cli::Moment) -> Self {
        Moment {
            sequence: m.sequence,
            time: m.time.unwrap_or(0.0),
            view: m.view,
        }
    }
}
