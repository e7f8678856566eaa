//! `Model.check` (the rules of `mdlx check`, with where each finding is in the file the
//! model was read from) and `Model.optimize` (smaller, within a measured bound).

use crate::error::{detached, Failure};
use crate::held::Model;
use mdlx::check::{Kind, SourcePos};
use mdlx::optimize::{Pass, Tolerance};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;

/// One problem `check` found.
#[pyclass(module = "mdlx", frozen, get_all)]
pub(crate) struct Finding {
    /// The rule's stable id (`missing-death-sequence`).
    rule: &'static str,
    /// `error`, `warning` or `info`: the rule's severity for the kind of model checked.
    severity: &'static str,
    /// Where in the model: `geosets[2].vertex_groups[17]`; empty for the whole model.
    path: String,
    /// The record's name, when it has one.
    name: Option<String>,
    /// What is wrong and what to do.
    message: String,
    /// Where the record starts in the file the model was read from: an MDX byte offset.
    offset: Option<u64>,
    /// Or an MDL line and column.
    line: Option<u32>,
    column: Option<u32>,
    /// The whole finding as `mdlx check` prints it.
    text: String,
}

#[pymethods]
impl Finding {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Finding({:?}, {:?}, {:?})",
            self.severity, self.rule, self.path
        )
    }
}

/// `Model.check`: every rule, as the kind the model is taken to be (or `kind`), the texture
/// rules over the model's folder and `texture_dirs`, located in the file it came from.
pub(crate) fn check(
    py: Python<'_>,
    m: &Model,
    kind: Option<&str>,
    texture_dirs: Vec<PathBuf>,
) -> PyResult<(String, Vec<Finding>)> {
    let kind = match kind {
        Some(k) => Some(Kind::from_name(k).ok_or_else(|| {
            let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
            Failure::msg(format!("no kind {k:?}: one of {}", names.join(", ")))
        })?),
        None => None,
    };
    let dirs = m.texture_dirs(texture_dirs);
    let (kind, findings) = detached(py, || {
        let kind = kind.unwrap_or_else(|| {
            mdlx::check::classify(&m.inner, m.origin.file_name().as_deref()).kind
        });
        let mut findings = mdlx::check::check_as(&m.inner, kind);
        findings.extend(mdlx::check::check_textures(&m.inner, dirs));
        if let Some(map) = &m.source_map {
            map.locate(&mut findings);
        }
        Ok((kind, findings))
    })?;
    let out = (findings.into_iter())
        .map(|f| {
            let (offset, line, column) = match f.at {
                Some(SourcePos::Offset(o)) => (Some(o), None, None),
                Some(SourcePos::Line { line, column }) => (None, Some(line), Some(column)),
                None => (None, None, None),
            };
            Finding {
                rule: f.rule.id,
                severity: f.severity.name(),
                text: f.to_string(),
                path: f.path,
                name: f.name,
                message: f.message,
                offset,
                line,
                column,
            }
        })
        .collect();
    Ok((kind.name().to_owned(), out))
}

/// `Model.optimize`: the optimized model and the report as a dict (sizes, what each pass
/// did, the measured deviation).
pub(crate) fn optimize<'py>(
    py: Python<'py>,
    m: &Model,
    passes: Option<Vec<String>>,
    position_tolerance: Option<f32>,
) -> PyResult<(Model, Bound<'py, PyDict>)> {
    let mut opts = mdlx::optimize::Options::default();
    if let Some(names) = passes {
        opts.passes = (names.iter())
            .map(|n| {
                Pass::from_name(n).ok_or_else(|| {
                    Failure::msg(format!("no pass {n:?}: records, geometry, keys or bytes"))
                })
            })
            .collect::<Result<_, _>>()?;
    }
    if let Some(p) = position_tolerance {
        if !(p.is_finite() && p > 0.0) {
            return Err(Failure::msg("position_tolerance must be a number above 0").into());
        }
        opts.tolerance = Tolerance {
            position: p,
            ..Tolerance::default()
        };
    }
    let done = detached(py, || {
        mdlx::optimize::optimize(&m.inner, &opts).map_err(|e| Failure::msg(e.to_string()))
    })?;
    let report = report_dict(py, &done.report)?;
    Ok((Model::derived(done.model, m), report))
}

fn report_dict<'py>(py: Python<'py>, r: &mdlx::optimize::Report) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("before", (r.before.raw, r.before.deflated))?;
    d.set_item("after", (r.after.raw, r.after.deflated))?;
    d.set_item("rounds", r.rounds)?;
    let passes = PyList::empty(py);
    for (pass, p) in &r.passes {
        let e = PyDict::new(py);
        e.set_item("pass", pass.name())?;
        e.set_item("changes", p.changes.to_vec())?;
        e.set_item("skipped", p.skipped.clone())?;
        e.set_item("saved_raw", p.saved_raw)?;
        e.set_item("saved_deflated", p.saved_deflated)?;
        passes.append(e)?;
    }
    d.set_item("passes", passes)?;
    let v = &r.deviation;
    let dev = PyDict::new(py);
    dev.set_item("moments", v.moments)?;
    dev.set_item("position", v.position)?;
    dev.set_item("uv", v.uv)?;
    dev.set_item("normal", v.normal)?;
    dev.set_item("alpha", v.alpha)?;
    dev.set_item("color", v.color)?;
    dev.set_item("visibility", v.visibility)?;
    dev.set_item("node_position", v.node_position)?;
    d.set_item("deviation", dev)?;
    Ok(d)
}
