//! Smaller models with a measured bound on what changes.
//!
//! [`optimize`] runs passes over a copy of a model and keeps each pass only when the
//! result still poses like the original (see [`measure`]): every vertex of every geoset
//! within the position tolerance at every moment that matters, geoset visibility the same
//! at each of those moments, attachment points and emitters where they were, no `check`
//! finding the original did not have, and an MDX that reads back to the same model. A pass
//! that breaks any of these is dropped for that model and the report says why; the other
//! passes still run.
//!
//! The passes, in the order they run:
//! - [`Pass::Records`]: duplicate textures, materials and texture animations merged; unused
//!   ones and unused global sequences removed. Nodes are never removed: a game or a script
//!   reaches them by name or id.
//! - [`Pass::Geometry`]: vertices equal in every attribute welded; degenerate and duplicate
//!   triangles and unused vertices removed; unused and duplicate matrix groups dropped;
//!   geosets that share a material, bone bindings and everything else merged.
//! - [`Pass::Keys`]: keys the curve does not need within the tolerance removed, Hermite and
//!   Bezier tracks made linear where linear stays within it, keys outside every sequence
//!   dropped, tracks that hold their static value dropped. The keys at the start and end of
//!   each sequence, event times and the steps of visibility and alpha are never touched.
//! - [`Pass::Bytes`]: what costs less once deflated (as a map stores it) without moving
//!   anything past the tolerance: floats rounded to a grid finer than the tolerance, bytes
//!   after string terminators cleared.
//!
//! A result that deflates larger than the original is not kept (the original comes back,
//! and the report says so): maps store their files deflated, and smaller is the point.
//!
//! The whole pipeline runs again until nothing changes, so optimizing an optimized model
//! gives it back unchanged.

mod bytes;
mod geometry;
mod keys;
pub mod measure;
mod moments;
mod records;

use crate::check;
use crate::model::Model;
use std::collections::BTreeMap;
use std::fmt;

pub(crate) use measure::VertexMap;
pub use measure::{compare, Deviation};

/// How far an optimized model may move from the original.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Positions: a fraction of the model's size (the diagonal of its vertices' box in the
    /// bind pose, [`Model::size`]). Applies to every posed vertex and to the world position
    /// of attachments and emitters.
    pub position: f32,
    /// Rotations, in radians: node rotation keys and the world orientation of attachments
    /// and emitters.
    pub rotation: f32,
    /// Colours (0 to 1 per channel), absolute.
    pub color: f32,
    /// Alpha (0 to 1), absolute. Whether a geoset shows never changes, whatever this is.
    pub alpha: f32,
}

impl Default for Tolerance {
    /// 1/2000 of the model's size, 1/1000 radian, 1/512 for colour and alpha.
    ///
    /// - A model fills at most the height of the screen (the portrait, the model viewer);
    ///   at 1080 lines, 1/2000 of its size is half a pixel, and a unit on the battlefield is
    ///   a tenth of that.
    /// - 1/1000 radian turns a point one model size away by 1/1000 of the size: the node
    ///   tracks are held to the position bound anyway, and this bounds the orientation of
    ///   attachments (a weapon's tip) and emitters.
    /// - Colours and alpha end up as 8-bit values: 1/512 is half a step.
    fn default() -> Self {
        Tolerance {
            position: 1.0 / 2000.0,
            rotation: 1.0 / 1000.0,
            color: 1.0 / 512.0,
            alpha: 1.0 / 512.0,
        }
    }
}

/// One pass of [`optimize`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pass {
    /// Duplicate and unused textures, materials, texture animations, global sequences.
    Records,
    /// Welded vertices, removed triangles, merged geosets, shared matrix groups.
    Geometry,
    /// Keys the curves do not need.
    Keys,
    /// What deflates smaller.
    Bytes,
}

impl Pass {
    /// Every pass, in the order they run.
    pub const ALL: [Pass; 4] = [Pass::Records, Pass::Geometry, Pass::Keys, Pass::Bytes];

    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Pass::Records => "records",
            Pass::Geometry => "geometry",
            Pass::Keys => "keys",
            Pass::Bytes => "bytes",
        }
    }

    /// The pass of this name.
    pub fn from_name(name: &str) -> Option<Pass> {
        Pass::ALL.into_iter().find(|p| p.name() == name)
    }
}

impl fmt::Display for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What [`optimize`] does.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The bound.
    pub tolerance: Tolerance,
    /// The passes to run (they run in the order of [`Pass::ALL`] whatever the order here).
    pub passes: Vec<Pass>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tolerance: Tolerance::default(),
            passes: Pass::ALL.to_vec(),
        }
    }
}

/// What one pass did to one model.
#[derive(Clone, Debug, PartialEq)]
pub struct PassReport {
    /// What it changed, counted: `("keys removed", 1200)`.
    pub changes: Vec<(&'static str, usize)>,
    /// Why it was dropped for this model (the result broke the bound or a check), if it was.
    pub skipped: Option<String>,
    /// Why it ran with less than its full share of the tolerance: what its result at the
    /// full share broke.
    pub retried_because: Option<String>,
    /// The share of the tolerance it ran with: 4 (see the passes), or 1, 1/4 or 1/16 after
    /// its result broke the bound at the larger share.
    pub scale: f32,
    /// MDX bytes it saved, as written (negative when it made the file larger).
    pub saved_raw: i64,
    /// MDX bytes it saved once deflated.
    pub saved_deflated: i64,
}

impl Default for PassReport {
    fn default() -> Self {
        PassReport {
            changes: Vec::new(),
            skipped: None,
            retried_because: None,
            scale: FIRST_SCALE,
            saved_raw: 0,
            saved_deflated: 0,
        }
    }
}

/// The share of the tolerance a pass is first tried with. The passes split the bound as if
/// every error added up along every chain of nodes, which real animations never come near;
/// so they first try four times that, and the measure decides.
const FIRST_SCALE: f32 = 4.0;

/// The smallest share of the tolerance a pass is tried with.
const MIN_SCALE: f32 = 1.0 / 16.0;

/// A size in bytes: as written, and deflated (as a map's archive stores it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// The MDX as written.
    pub raw: usize,
    /// The MDX deflated (zlib, level 9).
    pub deflated: usize,
}

/// What [`optimize`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The original's size.
    pub before: Size,
    /// The result's size.
    pub after: Size,
    /// Each pass that ran, in order; a pass that ran in several rounds has its changes
    /// added up.
    pub passes: Vec<(Pass, PassReport)>,
    /// The result against the original, measured.
    pub deviation: Deviation,
    /// How many times the passes ran before nothing changed.
    pub rounds: usize,
}

/// An optimized model and what was done.
#[derive(Clone, Debug)]
pub struct Optimized {
    /// The result.
    pub model: Model,
    /// What each pass changed and the measured deviation.
    pub report: Report,
}

/// Why [`optimize`] wrote nothing.
#[derive(Debug)]
pub enum Error {
    /// The original does not encode as MDX, so nothing can be compared.
    Encode(crate::mdx::MdxError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Encode(e) => write!(f, "the model does not encode as MDX: {e}"),
        }
    }
}

impl std::error::Error for Error {}

/// What a pass sees besides the model.
pub(crate) struct Ctx {
    /// The bound.
    pub(crate) tol: Tolerance,
    /// The original's size ([`Model::size`]): position tolerances are fractions of it.
    pub(crate) size: f32,
    /// The share of the tolerance a pass may use: 1, or less when a pass is tried again
    /// after its result broke the bound.
    pub(crate) scale: f32,
}

/// What a pass changed, counted by kind; empty when it changed nothing.
pub(crate) type Changes = Vec<(&'static str, usize)>;

/// The length of the chord between two points (unit directions or rotations, in f64: the
/// angles the optimizer measures are `2 asin(chord / 2)` of it).
pub(crate) fn chord<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// Adds `n` to the count of `what` in `changes` (nothing when `n` is 0).
pub(crate) fn add(changes: &mut Changes, what: &'static str, n: usize) {
    if n == 0 {
        return;
    }
    match changes.iter_mut().find(|(w, _)| *w == what) {
        Some((_, m)) => *m += n,
        None => changes.push((what, n)),
    }
}

fn run_pass(pass: Pass, model: &mut Model, ctx: &Ctx, map: &mut VertexMap) -> Changes {
    match pass {
        Pass::Records => records::run(model, ctx),
        Pass::Geometry => geometry::run(model, ctx, map),
        Pass::Keys => keys::run(model, ctx),
        Pass::Bytes => bytes::run(model, ctx),
    }
}

/// Findings per rule id.
fn findings_by_rule(model: &Model) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for f in check::check(model) {
        *out.entry(f.rule.id).or_insert(0) += 1;
    }
    out
}

/// The MDX bytes of `model` and their deflated size.
fn size_of(model: &Model) -> Result<(Vec<u8>, Size), crate::mdx::MdxError> {
    let bytes = crate::mdx::to_bytes(model)?;
    let deflated = deflated_len(&bytes);
    let raw = bytes.len();
    Ok((bytes, Size { raw, deflated }))
}

/// The length of `bytes` deflated with zlib at level 9 (as an MPQ's zlib compression).
pub fn deflated_len(bytes: &[u8]) -> usize {
    use std::io::Write;
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = e.write_all(bytes);
    e.finish().map_or(bytes.len(), |v| v.len())
}

/// Why `candidate` may not replace the current model, or `None` when it may: it must stay
/// within the bound of the original ([`measure::Reference::measure`]), add no `check`
/// finding the original did not have, and read back from its MDX as itself. The second
/// value says whether the reason is the bound (a smaller share of the tolerance may do).
fn refuse(
    reference: &measure::Reference,
    had: &BTreeMap<&'static str, usize>,
    candidate: &Model,
    map: &VertexMap,
    ctx: &Ctx,
) -> Option<(String, bool)> {
    let dev = reference.measure(candidate, map);
    if let Some(why) = dev.exceeds(&ctx.tol) {
        return Some((why, true));
    }
    let now = findings_by_rule(candidate);
    for (rule, n) in &now {
        let before = had.get(rule).copied().unwrap_or(0);
        if *n > before {
            return Some((
                format!("{} new `{rule}` check finding(s)", n - before),
                false,
            ));
        }
    }
    let why = match crate::mdx::to_bytes(candidate) {
        Err(e) => format!("the result does not encode as MDX: {e}"),
        Ok(bytes) => match crate::mdx::from_bytes(&bytes) {
            Err(e) => format!("the result's MDX does not read back: {e}"),
            // Bytes, not the models: a NaN in a model is never equal to itself.
            Ok(back) if crate::mdx::to_bytes(&back).ok().as_ref() != Some(&bytes) => {
                "the result's MDX reads back as a different model".into()
            }
            Ok(_) => return None,
        },
    };
    Some((why, false))
}

/// The most rounds the passes run before [`optimize`] stops looking for a fixed point.
const MAX_ROUNDS: usize = 4;

/// `model` made smaller by the passes of `options`, each kept only where the result stays
/// within the bound (see the [module docs](self)).
pub fn optimize(model: &Model, options: &Options) -> Result<Optimized, Error> {
    let (_, before) = size_of(model).map_err(Error::Encode)?;
    let mut ctx = Ctx {
        tol: options.tolerance,
        size: model.size(),
        scale: 1.0,
    };
    let reference = measure::Reference::new(model, &ctx);
    let had = findings_by_rule(model);
    let mut current = model.clone();
    let mut current_map = VertexMap::identity(model);
    let mut size = before;
    let mut reports: Vec<(Pass, PassReport)> = Pass::ALL
        .into_iter()
        .filter(|p| options.passes.contains(p))
        .map(|p| (p, PassReport::default()))
        .collect();
    let mut rounds = 0;
    while rounds < MAX_ROUNDS {
        rounds += 1;
        let mut changed = false;
        for (pass, report) in &mut reports {
            if report.skipped.is_some() {
                continue;
            }
            ctx.scale = if report.retried_because.is_some() {
                0.25
            } else {
                1.0
            };
            let outcome = loop {
                let mut candidate = current.clone();
                let mut map = current_map.clone();
                let changes = run_pass(*pass, &mut candidate, &ctx, &mut map);
                if changes.is_empty() {
                    break None;
                }
                match refuse(&reference, &had, &candidate, &map, &ctx) {
                    None => break Some(Ok((candidate, map, changes))),
                    Some((why, true)) if ctx.scale > MIN_SCALE * 1.5 => {
                        report.retried_because.get_or_insert(why);
                        ctx.scale /= 4.0;
                        report.scale = ctx.scale;
                    }
                    Some((why, _)) => break Some(Err(why)),
                }
            };
            match outcome {
                None => {}
                Some(Err(why)) => report.skipped = Some(why),
                Some(Ok((candidate, map, changes))) => {
                    let Ok((_, s)) = size_of(&candidate) else {
                        report.skipped = Some("the result does not encode as MDX".into());
                        continue;
                    };

                    for (what, n) in changes {
                        match report.changes.iter_mut().find(|(w, _)| *w == what) {
                            Some((_, m)) => *m += n,
                            None => report.changes.push((what, n)),
                        }
                    }
                    report.saved_raw += size.raw as i64 - s.raw as i64;
                    report.saved_deflated += size.deflated as i64 - s.deflated as i64;
                    size = s;
                    current = candidate;
                    current_map = map;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    if size.deflated > before.deflated {
        // Smaller is the point: a result that deflates larger is not kept (a whole-model
        // decision, so that optimizing the original again decides the same).
        for (_, report) in &mut reports {
            if !report.changes.is_empty() {
                report.skipped.get_or_insert_with(|| {
                    format!(
                        "the result deflated larger ({} bytes, not {}): nothing kept",
                        size.deflated, before.deflated
                    )
                });
                report.changes.clear();
                report.saved_raw = 0;
                report.saved_deflated = 0;
            }
        }
        current = model.clone();
        current_map = VertexMap::identity(model);
        size = before;
    }
    let deviation = reference.measure(&current, &current_map);
    Ok(Optimized {
        model: current,
        report: Report {
            before,
            after: size,
            passes: reports,
            deviation,
            rounds,
        },
    })
}
