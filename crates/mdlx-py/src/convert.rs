//! Reading any model format, writing any, and the conversions: versions, Reforged to
//! classic, glTF both ways, Milkshape (through `read` and `export`). Each returns what the
//! library returns: the result and what it could not carry ([`Loss`]).

use crate::error::{detached, Failure, Result};
use crate::files::{self, Input, Origin, Source};
use crate::held::Model;
use mdlx::check::SourceMap;
use mdlx::formats::FormatInfo;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// Something a conversion could not carry, or carried only approximately.
#[pyclass(module = "mdlx", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct Loss {
    /// Where: a record (`Light[2]`), several, a part of the file; empty for the whole model.
    place: String,
    /// What was dropped or changed, in a few words.
    what: String,
}

#[pymethods]
impl Loss {
    fn __str__(&self) -> String {
        mdlx::Loss::new(self.place.clone(), self.what.clone()).to_string()
    }

    fn __repr__(&self) -> String {
        format!("Loss({:?}, {:?})", self.place, self.what)
    }
}

pub(crate) fn losses(list: &[mdlx::Loss]) -> Vec<Loss> {
    (list.iter())
        .map(|l| Loss {
            place: l.place.clone(),
            what: l.what.clone(),
        })
        .collect()
}

/// A warning of the MDL reader, with its place.
#[pyclass(module = "mdlx", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct Diagnostic {
    /// The line, from 1.
    line: usize,
    /// The column in characters, from 1.
    column: usize,
    /// `warning` or `error`.
    severity: &'static str,
    /// What the reader says.
    message: String,
}

#[pymethods]
impl Diagnostic {
    fn __str__(&self) -> String {
        format!(
            "{}:{}: {}: {}",
            self.line, self.column, self.severity, self.message
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "Diagnostic({}:{}, {:?})",
            self.line, self.column, self.message
        )
    }
}

/// A texture file a conversion made, to be written beside the model.
#[pyclass(module = "mdlx", frozen, get_all, from_py_object)]
#[derive(Clone)]
pub(crate) struct TextureFile {
    /// The path the model names (`war3mapImported\Fox.blp`).
    path: String,
    /// The file, relative to the model's folder, `/`-separated (`war3mapImported/Fox.blp`).
    file: String,
    /// The BLP file's bytes.
    data: Vec<u8>,
}

fn texture_files(list: Vec<mdlx::convert::gltf::import::ImportedTexture>) -> Vec<TextureFile> {
    (list.into_iter())
        .map(|t| TextureFile {
            path: t.path,
            file: t.file,
            data: t.blp,
        })
        .collect()
}

/// A model read by `mdlx.read`, and what came with it.
#[pyclass(module = "mdlx", frozen, get_all)]
pub(crate) struct Loaded {
    /// The model (for Milkshape, WoW alpha and glTF, the conversion).
    model: Py<Model>,
    /// What the input was, for people: `MDX, version 800 (classic)`.
    source: String,
    /// Its format's short name: `mdx`, `mdx-alpha`, `mdl`, `ms3d` or `gltf`.
    format: &'static str,
    /// The input's own version (`None` for Milkshape and glTF).
    version: Option<u32>,
    /// What the MDL reader warned about.
    warnings: Vec<Diagnostic>,
    /// What the conversion to a Warcraft III model could not carry.
    losses: Vec<Loss>,
    /// What the conversion did to make the model ready for the game.
    notes: Vec<Loss>,
    /// glTF: the textures the model names, as BLP files to write beside it.
    textures: Vec<TextureFile>,
}

/// A conversion's result.
#[pyclass(module = "mdlx", frozen, get_all)]
pub(crate) struct Converted {
    /// The model made.
    model: Py<Model>,
    /// What it could not carry, or carried approximately.
    losses: Vec<Loss>,
    /// What the conversion did to fit the game (glTF import: scale, sequence names).
    notes: Vec<Loss>,
    /// Texture files to write beside the model (glTF import, classic with texture folders).
    textures: Vec<TextureFile>,
    /// The largest distance (model units) the new skinning moves a vertex from where the
    /// source's weights put it (glTF import, classic); `None` for other conversions.
    skin_error: Option<f32>,
    /// glTF import: the largest angle (radians) resampled rotations leave the glTF's curve.
    rotation_error: Option<f32>,
    /// glTF import: game units per glTF unit.
    scale: Option<f32>,
}

/// A model written to bytes.
#[pyclass(module = "mdlx", frozen, get_all)]
pub(crate) struct Written {
    /// The file's bytes.
    data: Py<PyBytes>,
    /// What the format could not hold.
    losses: Vec<Loss>,
    /// glTF: textures that were not embedded, as `(the model's path, why)`.
    missing_textures: Vec<(String, String)>,
}

/// Reads a model of any format the library reads (MDX of every version, MDL, Milkshape
/// 3D ASCII, glTF 2.0), told by the content. `source` is a path, `ARCHIVE:MEMBER` (a file
/// inside a map), or the bytes themselves.
#[pyfunction]
#[pyo3(signature = (source, *, strict = false))]
pub(crate) fn read(py: Python<'_>, source: &Bound<'_, PyAny>, strict: bool) -> PyResult<Loaded> {
    let source = Source::extract(source)?;
    let (loaded, origin, map) = detached(py, move || read_input(source.load()?, strict))?;
    Loaded::new(py, loaded, origin, map)
}

impl Loaded {
    /// The Python view of what `mdlx::read` gave.
    pub(crate) fn new(
        py: Python<'_>,
        loaded: mdlx::Loaded,
        origin: Origin,
        map: Option<SourceMap>,
    ) -> PyResult<Loaded> {
        let model = Model {
            inner: Arc::new(loaded.model),
            origin,
            source_map: map.map(Arc::new),
        };
        Ok(Loaded {
            model: Py::new(py, model)?,
            source: loaded.source.to_string(),
            format: loaded.source.short_name(),
            version: loaded.source.version(),
            warnings: (loaded.warnings.iter())
                .map(|w| Diagnostic {
                    line: w.line,
                    column: w.column,
                    severity: crate::error::severity(w.severity),
                    message: w.kind.to_string(),
                })
                .collect(),
            losses: losses(&loaded.losses),
            notes: losses(&loaded.notes),
            textures: texture_files(loaded.textures),
        })
    }
}

/// Reads the bytes of `input` as a model, with where its records were.
pub(crate) fn read_input(
    input: Input,
    strict: bool,
) -> Result<(mdlx::Loaded, Origin, Option<SourceMap>)> {
    let mut opts = match &input.origin {
        Origin::File(p) => mdlx::ReadOptions::for_file(p),
        Origin::Member(_, m) => mdlx::ReadOptions::for_file(Path::new(&m.replace('\\', "/"))),
        Origin::Bytes => mdlx::ReadOptions::default(),
    };
    if let Origin::Member(..) = input.origin {
        // A glTF inside an archive has no folder for its external files.
        opts.base = None;
    }
    opts.strict = strict;
    let shown = input.origin.shown();
    let loaded = mdlx::read(&input.data, &opts).map_err(|e| Failure::read(&e, shown.as_deref()))?;
    let map = match loaded.source {
        mdlx::Source::Mdx { .. } => Some(SourceMap::mdx(&input.data)),
        mdlx::Source::Mdl { .. } => Some(SourceMap::mdl(&input.data)),
        _ => None,
    };
    Ok((loaded, input.origin, map))
}

/// Imports a glTF 2.0 document (a path or the bytes of a `.glb` or `.gltf`) as a model of
/// `version` (800: matrix groups; 1000 and later: skin weights and HD materials).
#[pyfunction]
#[pyo3(signature = (source, *, version = 800, texture_path = None, name = None, scale = None, height = None, game_ready = true, base = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn from_gltf(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    version: u32,
    texture_path: Option<String>,
    name: Option<String>,
    scale: Option<f32>,
    height: Option<f32>,
    game_ready: bool,
    base: Option<PathBuf>,
) -> PyResult<Converted> {
    use mdlx::convert::gltf::import::ImportScale;
    let source = Source::extract(source)?;
    let mut opts = mdlx::convert::gltf::ImportOptions {
        version,
        game_ready,
        ..Default::default()
    };
    opts.scale = match (scale, height) {
        (Some(_), Some(_)) => return Err(Failure::msg("give scale or height, not both").into()),
        (Some(f), None) => ImportScale::Factor(f),
        (None, Some(h)) => ImportScale::Height(h),
        (None, None) => ImportScale::Metres,
    };
    if let Some(t) = texture_path {
        opts.texture_path = t;
    }
    let (import, origin) = detached(py, move || {
        let input = source.load()?;
        let base = base.or_else(|| match &input.origin {
            Origin::File(p) => Some(p.parent().unwrap_or(Path::new("")).to_path_buf()),
            _ => None,
        });
        if let (Origin::File(p), None) = (&input.origin, &name) {
            opts.name = (p.file_stem()).map_or_else(String::new, |s| s.to_string_lossy().into());
        }
        opts.name = name.unwrap_or(opts.name);
        let shown = input.origin.shown();
        let in_file = |f: Failure| match &shown {
            Some(s) => f.in_file(s),
            None => f,
        };
        let doc = mdlx::convert::gltf::Source::from_bytes(&input.data, base.as_deref())
            .map_err(|e| in_file(Failure::gltf(&e)))?;
        let c =
            mdlx::convert::gltf_to_model(&doc, &opts).map_err(|e| in_file(Failure::gltf(&e)))?;
        Ok((c, input.origin))
    })?;
    let i = import.value;
    let model = Model {
        inner: Arc::new(i.model),
        origin,
        source_map: None,
    };
    Ok(Converted {
        model: Py::new(py, model)?,
        losses: losses(&import.losses),
        notes: losses(&i.notes),
        textures: texture_files(i.textures),
        skin_error: Some(i.skin_error),
        rotation_error: Some(i.rotation_error),
        scale: Some(i.scale),
    })
}

/// The format a name (`mdx`, `glb`, `alpha1300`...) or a file's extension stands for.
fn format_named(name: &str) -> Result<&'static FormatInfo> {
    let found = mdlx::formats::by_name(name.trim_start_matches('.'))
        .or_else(|| mdlx::formats::by_extension(name.trim_start_matches('.')));
    match found {
        Some(f) if f.write && f.kind != mdlx::formats::Kind::Texture => Ok(f),
        _ => Err(Failure::msg(format!(
            "a model is not written as {name:?}: mdx, mdl, glb, gltf, ms3d (Milkshape .txt), obj or alpha1300/1400/1500"
        ))),
    }
}

/// What `export` and `write` take besides the format.
#[derive(Clone)]
pub(crate) struct ExportArgs {
    pub(crate) version: Option<u32>,
    pub(crate) standard_mdl: bool,
    pub(crate) texture_dirs: Vec<PathBuf>,
    pub(crate) team_color: Option<(u8, u8, u8)>,
    pub(crate) linear: bool,
}

impl Default for ExportArgs {
    /// As the library's defaults: glTF keys linear (what Blender keeps exactly).
    fn default() -> Self {
        ExportArgs {
            version: None,
            standard_mdl: false,
            texture_dirs: Vec::new(),
            team_color: None,
            linear: true,
        }
    }
}

/// `model` as `format` with `args`.
fn encode(model: &Model, format: &FormatInfo, args: ExportArgs) -> Result<mdlx::Written> {
    let mut opts = mdlx::WriteOptions {
        version: args.version.or(format.version),
        ..Default::default()
    };
    opts.mdl.strict = args.standard_mdl;
    opts.gltf.texture_dirs = model.texture_dirs(args.texture_dirs);
    opts.gltf.linear = args.linear;
    if let Some((r, g, b)) = args.team_color {
        opts.gltf.team_color = [r, g, b];
    }
    mdlx::write(&model.inner, format.format, &opts).map_err(|e| Failure::write(&e))
}

impl Written {
    /// The bytes.
    pub(crate) fn data(self) -> Py<PyBytes> {
        self.data
    }
}

fn written(py: Python<'_>, w: mdlx::Written) -> Written {
    Written {
        data: PyBytes::new(py, &w.bytes).unbind(),
        losses: losses(&w.losses),
        missing_textures: w.missing_textures,
    }
}

/// `Model.export`: the model as any format the library writes.
pub(crate) fn export(
    py: Python<'_>,
    m: &Model,
    format: &str,
    args: ExportArgs,
) -> PyResult<Written> {
    let format = format_named(format)?;
    let w = detached(py, || encode(m, format, args))?;
    Ok(written(py, w))
}

/// `Model.write`: the model written to `path` in the format its extension says (or
/// `format`), atomically, with `textures` written beside it (their `file` paths are
/// relative to the model's folder). Returns the losses.
pub(crate) fn write(
    py: Python<'_>,
    m: &Model,
    path: PathBuf,
    format: Option<String>,
    args: ExportArgs,
    textures: Vec<TextureFile>,
) -> PyResult<Vec<Loss>> {
    let format = match format {
        Some(f) => format_named(&f)?,
        None => {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            format_named(ext).map_err(|_| {
                Failure::msg(format!(
                    "{}: the extension says what to write (.mdx, .mdl, .glb, .gltf, .txt, .obj), or give format=",
                    path.display()
                ))
            })?
        }
    };
    let lost = detached(py, move || {
        let w = encode(m, format, args)?;
        let mut out = Vec::with_capacity(textures.len() + 1);
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        for t in textures {
            let target = dir.join(relative(&t.file)?);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| Failure::io(format!("cannot create {}", parent.display()), &e))?;
            }
            out.push((target, t.data));
        }
        for (name, data) in w.beside {
            out.push((dir.join(relative(&name)?), data));
        }
        out.push((path, w.bytes));
        files::write_all(out)?;
        Ok(w.losses)
    })?;
    Ok(losses(&lost))
}

/// A `/`-separated relative path that stays inside its folder.
fn relative(file: &str) -> Result<PathBuf> {
    let path = PathBuf::from(file);
    let plain = !file.is_empty()
        && !file.contains(['\\', ':', '\0'])
        && path.components().all(|c| matches!(c, Component::Normal(_)));
    if plain {
        Ok(path)
    } else {
        Err(Failure::msg(format!(
            "refusing to write {file:?}: not a plain relative path inside the model's folder"
        )))
    }
}

/// `Model.to_version`.
pub(crate) fn to_version(py: Python<'_>, m: &Model, version: u32) -> PyResult<Converted> {
    let c = detached(py, || {
        mdlx::convert::to_version(&m.inner, version).map_err(Failure::msg)
    })?;
    converted(py, m, c.value, &c.losses, Vec::new(), None)
}

/// `Model.to_classic`.
pub(crate) fn to_classic(
    py: Python<'_>,
    m: &Model,
    lod: Option<u32>,
    texture_dirs: Vec<PathBuf>,
) -> PyResult<Converted> {
    let opts = mdlx::convert::classic::ClassicOptions {
        lod,
        texture_dirs: if texture_dirs.is_empty() {
            Vec::new()
        } else {
            m.texture_dirs(texture_dirs)
        },
    };
    let c = detached(py, || {
        mdlx::convert::to_classic(&m.inner, &opts).map_err(Failure::msg)
    })?;
    let v = c.value;
    converted(
        py,
        m,
        v.model,
        &c.losses,
        texture_files(v.textures),
        Some(v.skinning_error),
    )
}

fn converted(
    py: Python<'_>,
    from: &Model,
    model: mdlx::Model,
    lost: &[mdlx::Loss],
    textures: Vec<TextureFile>,
    skin_error: Option<f32>,
) -> PyResult<Converted> {
    Ok(Converted {
        model: Py::new(py, Model::derived(model, from))?,
        losses: losses(lost),
        notes: Vec::new(),
        textures,
        skin_error,
        rotation_error: None,
        scale: None,
    })
}
