//! `mdlx.Model`: a Warcraft III model held by the library, with read-only views of it.
//! Python never gets a second copy of the model: the views (`sequences`, `textures`,
//! `nodes`, `counts()`) are made from it when asked for, and every operation (write,
//! convert, check, optimize, render) runs on it in Rust.

use crate::check::Finding;
use crate::convert::{self, Converted, ExportArgs, Loss, TextureFile, Written};
pub(crate) use crate::held::Model;
use crate::render::RenderArgs;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One animation sequence.
#[pyclass(module = "mdlx", frozen, get_all)]
pub(crate) struct Sequence {
    /// Its name (`Stand`, `Attack - 2`).
    name: String,
    /// Start and end on the model's timeline, in milliseconds.
    interval: (u32, u32),
    /// Its flags (1: plays once instead of looping); unknown bits kept.
    flags: u32,
    /// Whether it loops.
    looping: bool,
    /// How rarely the game picks it among variants of the same name.
    rarity: f32,
    /// The movement speed it was made for.
    move_speed: f32,
    /// Its length in milliseconds.
    length: u32,
}

#[pymethods]
impl Sequence {
    fn __repr__(&self) -> String {
        format!(
            "Sequence({:?}, interval=({}, {}), looping={})",
            self.name,
            self.interval.0,
            self.interval.1,
            if self.looping { "True" } else { "False" }
        )
    }
}

/// One texture the model names.
#[pyclass(module = "mdlx", frozen, get_all)]
pub(crate) struct Texture {
    /// The path in the game's archives (`Textures\Footman.blp`); empty for a replaceable one.
    path: String,
    /// 0 for a file, 1 team colour, 2 team glow, 11 and up trees and the like.
    replaceable_id: u32,
    /// Wrap flags (1 width, 2 height).
    flags: u32,
}

#[pymethods]
impl Texture {
    fn __repr__(&self) -> String {
        format!(
            "Texture({:?}, replaceable_id={})",
            self.path, self.replaceable_id
        )
    }
}

/// One node: a bone, helper, attachment, light, emitter, event object or collision shape.
#[pyclass(module = "mdlx", frozen, get_all)]
pub(crate) struct Node {
    /// Its name.
    name: String,
    /// Its kind, as the model's list of it is named (`bones`, `attachments`, ...).
    kind: &'static str,
    /// Its index in the model-wide node numbering.
    object_id: u32,
    /// Its parent's object id, or -1.
    parent_id: i32,
    /// Its flags (inheritance, billboarding, kind bits); unknown bits kept.
    flags: u32,
    /// The point it turns and scales about, when the model lists one for it.
    pivot: Option<(f32, f32, f32)>,
}

#[pymethods]
impl Node {
    fn __repr__(&self) -> String {
        format!(
            "Node({:?}, kind={:?}, object_id={}, parent_id={})",
            self.name, self.kind, self.object_id, self.parent_id
        )
    }
}

/// Every node of `m` with the name of its kind's list, in the order of the lists.
fn nodes_of(m: &mdlx::Model) -> Vec<(&'static str, &mdlx::model::Node)> {
    let mut out: Vec<(&'static str, &mdlx::model::Node)> = Vec::with_capacity(m.node_count());
    out.extend(m.bones.iter().map(|x| ("bones", &x.node)));
    out.extend(m.lights.iter().map(|x| ("lights", &x.node)));
    out.extend(m.helpers.iter().map(|x| ("helpers", &x.node)));
    out.extend(m.attachments.iter().map(|x| ("attachments", &x.node)));
    out.extend(
        m.particle_emitters
            .iter()
            .map(|x| ("particle_emitters", &x.node)),
    );
    out.extend(
        m.particle_emitters2
            .iter()
            .map(|x| ("particle_emitters2", &x.node)),
    );
    out.extend(
        m.popcorn_emitters
            .iter()
            .map(|x| ("popcorn_emitters", &x.node)),
    );
    out.extend(
        m.ribbon_emitters
            .iter()
            .map(|x| ("ribbon_emitters", &x.node)),
    );
    out.extend(m.event_objects.iter().map(|x| ("event_objects", &x.node)));
    out.extend(
        m.collision_shapes
            .iter()
            .map(|x| ("collision_shapes", &x.node)),
    );
    out
}

#[pymethods]
impl Model {
    /// The format version: 800 (classic); 900, 1000, 1100, 1200 and later (Reforged).
    #[getter]
    fn version(&self) -> u32 {
        self.inner.version
    }

    /// `classic` (below 900) or `reforged`.
    #[getter]
    fn family(&self) -> &'static str {
        self.inner.family().name()
    }

    /// The model's name (its `Model` block).
    #[getter]
    fn name(&self) -> String {
        self.inner.info.name.to_string()
    }

    /// Every sequence, in the model's order.
    #[getter]
    fn sequences(&self) -> Vec<Sequence> {
        (self.inner.sequences.iter())
            .map(|s| Sequence {
                name: s.name.to_string(),
                interval: (s.interval[0], s.interval[1]),
                flags: s.flags,
                looping: s.is_looping(),
                rarity: s.rarity,
                move_speed: s.move_speed,
                length: s.length(),
            })
            .collect()
    }

    /// The global sequences' lengths in milliseconds.
    #[getter]
    fn global_sequences(&self) -> Vec<u32> {
        self.inner.global_sequences.clone()
    }

    /// Every texture the model names, in its order.
    #[getter]
    fn textures(&self) -> Vec<Texture> {
        (self.inner.textures.iter())
            .map(|t| Texture {
                path: t.path.to_string(),
                replaceable_id: t.replaceable_id,
                flags: t.flags,
            })
            .collect()
    }

    /// Every node, bones first, then lights, helpers, attachments, the emitters, event
    /// objects and collision shapes.
    #[getter]
    fn nodes(&self) -> Vec<Node> {
        let m = &*self.inner;
        (nodes_of(m).into_iter())
            .map(|(kind, n)| Node {
                name: n.name.to_string(),
                kind,
                object_id: n.object_id,
                parent_id: n.parent_id,
                flags: n.flags,
                pivot: (m.pivot_points.get(n.object_id as usize)).map(|p| (p[0], p[1], p[2])),
            })
            .collect()
    }

    /// How many nodes of each kind, by the name of the model's list (`bones`, `helpers`,
    /// `attachments`, `lights`, `particle_emitters`, `particle_emitters2`,
    /// `popcorn_emitters`, `ribbon_emitters`, `event_objects`, `collision_shapes`).
    #[getter]
    fn node_counts(&self) -> BTreeMap<&'static str, usize> {
        let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
        for (kind, _) in nodes_of(&self.inner) {
            *counts.entry(kind).or_default() += 1;
        }
        counts
    }

    /// The number of geosets.
    #[getter]
    fn geoset_count(&self) -> usize {
        self.inner.geosets.len()
    }

    /// The number of materials.
    #[getter]
    fn material_count(&self) -> usize {
        self.inner.materials.len()
    }

    /// The number of cameras.
    #[getter]
    fn camera_count(&self) -> usize {
        self.inner.cameras.len()
    }

    /// The model's bounds: `(min, max, radius)`.
    #[getter]
    #[allow(clippy::type_complexity)]
    fn extent(&self) -> ((f32, f32, f32), (f32, f32, f32), f32) {
        let e = &self.inner.info.extent;
        let v = |a: [f32; 3]| (a[0], a[1], a[2]);
        (v(e.min), v(e.max), e.radius)
    }

    /// Counts of every record kind (as `mdlx info` lists them): `sequences`, `geosets`,
    /// `vertices`, `face_indices`, `materials`, `layers`, `textures`, `bones`, ...
    fn counts(&self) -> BTreeMap<&'static str, usize> {
        self.inner.counts().entries.into_iter().collect()
    }

    /// The model as `format` (`mdx`, `mdl`, `glb`, `gltf`, `ms3d`, `obj`, `alpha1300`...),
    /// at `version` when given (MDX and MDL; converted, its losses listed).
    #[pyo3(signature = (format = "mdx", *, version = None, standard_mdl = false, texture_dirs = Vec::new(), team_color = None, linear = true))]
    #[allow(clippy::too_many_arguments)]
    fn export(
        &self,
        py: Python<'_>,
        format: &str,
        version: Option<u32>,
        standard_mdl: bool,
        texture_dirs: Vec<PathBuf>,
        team_color: Option<(u8, u8, u8)>,
        linear: bool,
    ) -> PyResult<Written> {
        let args = ExportArgs {
            version,
            standard_mdl,
            texture_dirs,
            team_color,
            linear,
        };
        convert::export(py, self, format, args)
    }

    /// The model's bytes as `format`: `export(...).data`.
    #[pyo3(signature = (format = "mdx", *, version = None, standard_mdl = false))]
    fn to_bytes(
        &self,
        py: Python<'_>,
        format: &str,
        version: Option<u32>,
        standard_mdl: bool,
    ) -> PyResult<Py<PyBytes>> {
        let args = ExportArgs {
            version,
            standard_mdl,
            ..ExportArgs::default()
        };
        Ok(convert::export(py, self, format, args)?.data())
    }

    /// Writes the model to `path` in the format its extension says (or `format`), whole or
    /// not at all, with `textures` (from a glTF import or `to_classic`) beside it. Returns
    /// what the format could not hold.
    #[pyo3(signature = (path, *, format = None, version = None, standard_mdl = false, textures = Vec::new(), texture_dirs = Vec::new()))]
    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        py: Python<'_>,
        path: PathBuf,
        format: Option<String>,
        version: Option<u32>,
        standard_mdl: bool,
        textures: Vec<TextureFile>,
        texture_dirs: Vec<PathBuf>,
    ) -> PyResult<Vec<Loss>> {
        let args = ExportArgs {
            version,
            standard_mdl,
            texture_dirs,
            ..ExportArgs::default()
        };
        convert::write(py, self, path, format, args, textures)
    }

    /// The model at another version (800 to 1800): what the target lacks is lost.
    fn to_version(&self, py: Python<'_>, version: u32) -> PyResult<Converted> {
        convert::to_version(py, self, version)
    }

    /// A Reforged model for the classic client (version 800): one level of detail, matrix
    /// groups for the skin weights (`skin_error` says how far they move a vertex), classic
    /// materials; with `texture_dirs`, the textures as BLP files to write beside it.
    #[pyo3(signature = (*, lod = None, texture_dirs = Vec::new()))]
    fn to_classic(
        &self,
        py: Python<'_>,
        lod: Option<u32>,
        texture_dirs: Vec<PathBuf>,
    ) -> PyResult<Converted> {
        convert::to_classic(py, self, lod, texture_dirs)
    }

    /// The model as glTF 2.0 (`.glb` bytes, or `.gltf` JSON with `binary=False`), its
    /// textures found in its own folder (or map) and `texture_dirs` and embedded as PNG.
    #[pyo3(signature = (*, texture_dirs = Vec::new(), binary = true, team_color = None, linear = true))]
    fn to_gltf(
        &self,
        py: Python<'_>,
        texture_dirs: Vec<PathBuf>,
        binary: bool,
        team_color: Option<(u8, u8, u8)>,
        linear: bool,
    ) -> PyResult<Written> {
        let args = ExportArgs {
            texture_dirs,
            team_color,
            linear,
            ..ExportArgs::default()
        };
        convert::export(py, self, if binary { "glb" } else { "gltf" }, args)
    }

    /// What the model is taken to be for `check` (`unit`, `building`, `doodad`, `effect`,
    /// `portrait`, `missile`, `item`) and why.
    fn classify(&self) -> (&'static str, String) {
        let c = mdlx::check::classify(&self.inner, self.origin.file_name().as_deref());
        (c.kind.name(), c.why)
    }

    /// Every rule of `mdlx check`, at its severity for the model's kind (or `kind`), the
    /// texture rules over the model's folder (or map) and `texture_dirs`.
    #[pyo3(signature = (*, kind = None, texture_dirs = Vec::new()))]
    fn check(
        &self,
        py: Python<'_>,
        kind: Option<&str>,
        texture_dirs: Vec<PathBuf>,
    ) -> PyResult<Vec<Finding>> {
        Ok(crate::check::check(py, self, kind, texture_dirs)?.1)
    }

    /// A smaller model that poses like this one within the tolerance (a fraction of the
    /// model's size for positions), and the report: sizes before and after (raw,
    /// deflated), what each pass did, the measured deviation.
    #[pyo3(signature = (*, passes = None, position_tolerance = None))]
    fn optimize<'py>(
        &self,
        py: Python<'py>,
        passes: Option<Vec<String>>,
        position_tolerance: Option<f32>,
    ) -> PyResult<(Model, Bound<'py, PyDict>)> {
        crate::check::optimize(py, self, passes, position_tolerance)
    }

    /// A PNG of the model at `time` ms into `sequence` (a name or an index; default its
    /// Stand, at half its length but at most a second in), textures from the model's
    /// folder (or map) and `texture_dirs`.
    #[pyo3(signature = (sequence = None, time = None, *, width = 512, height = 512, texture_dirs = Vec::new(), yaw = None, pitch = None, team_color = None, background = None, lod = 0))]
    #[allow(clippy::too_many_arguments)]
    fn render(
        &self,
        py: Python<'_>,
        sequence: Option<&Bound<'_, PyAny>>,
        time: Option<f64>,
        width: u32,
        height: u32,
        texture_dirs: Vec<PathBuf>,
        yaw: Option<f32>,
        pitch: Option<f32>,
        team_color: Option<(u8, u8, u8)>,
        background: Option<(u8, u8, u8, u8)>,
        lod: u32,
    ) -> PyResult<Py<PyBytes>> {
        let sequence = match sequence {
            None => None,
            Some(s) if s.is_instance_of::<pyo3::types::PyInt>() => {
                Some(s.extract::<usize>()?.to_string())
            }
            Some(s) => Some(s.extract::<String>()?),
        };
        let args = RenderArgs {
            sequence,
            time,
            size: (width, height),
            texture_dirs,
            yaw,
            pitch,
            team_color,
            background,
            lod,
        };
        let (png, _missing) = crate::render::render(py, self, args)?;
        Ok(PyBytes::new(py, &png).unbind())
    }

    fn __repr__(&self) -> String {
        format!(
            "<mdlx.Model {:?} version {}: {} geosets, {} nodes, {} sequences>",
            self.inner.info.name.to_string(),
            self.inner.version,
            self.inner.geosets.len(),
            self.inner.node_count(),
            self.inner.sequences.len()
        )
    }
}
