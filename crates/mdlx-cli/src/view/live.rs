//! The model the page shows, kept up to date with its file: read once at the start, then
//! read again whenever the file's modification time or size changes (looked at every
//! [`POLL`]). A read that fails keeps the last model that read well and reports the
//! error, with the file, line and column the reader gives, until a save reads well again.

use crate::files;
use crate::Ctx;
use anyhow::Result;
use mdlx::check::{Classification, SourceMap};
use mdlx::model::Extent;
use mdlx::render::{Scene, TextureCache};
use mdlx::Model;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

/// How often the file is looked at.
pub(crate) const POLL: Duration = Duration::from_millis(300);

/// A model that read well, with what the page lists about it.
pub(crate) struct Loaded {
    /// The model.
    pub model: Model,
    /// Its textures, found once.
    pub cache: TextureCache,
    /// Name, sequences, textures, check findings and counts, for `/api/model`.
    pub info: Value,
    /// The framing box of each sequence shown so far (a sequence's box, computed once, keeps
    /// the camera still while it plays).
    bounds: Mutex<HashMap<Option<usize>, Option<Extent>>>,
}

impl Loaded {
    /// The box the camera frames for `sequence`.
    pub(crate) fn bounds(&self, scene: &Scene, sequence: Option<usize>) -> Option<Extent> {
        let mut b = self.bounds.lock().unwrap_or_else(|e| e.into_inner());
        *b.entry(sequence)
            .or_insert_with(|| scene.sequence_bounds(sequence, 8, 0))
    }
}

/// What the server knows: the last good model and the file's latest state.
pub(crate) struct State {
    /// Counts every change seen on disk (a good read or a failed one); starts at 1.
    pub revision: u64,
    /// The model drawn.
    pub loaded: Arc<Loaded>,
    /// The revision `loaded` was read at.
    pub loaded_revision: u64,
    /// Why the file's latest state did not read: (message, `file:line:col` if known).
    pub error: Option<(String, Option<String>)>,
    stamp: Option<(SystemTime, u64)>,
}

/// The model file, watched.
pub(crate) struct Live {
    path: PathBuf,
    ctx: Ctx,
    textures: Vec<PathBuf>,
    state: Mutex<State>,
    changed: Condvar,
}

impl Live {
    /// Reads `path` (an error if it does not read: there is nothing to show yet).
    pub(crate) fn open(ctx: Ctx, path: &Path, textures: &[PathBuf]) -> Result<Live> {
        let stamp = stamp(path);
        let loaded = load(&ctx, path, textures)?;
        Ok(Live {
            path: path.to_path_buf(),
            ctx,
            textures: textures.to_vec(),
            state: Mutex::new(State {
                revision: 1,
                loaded: Arc::new(loaded),
                loaded_revision: 1,
                error: None,
                stamp,
            }),
            changed: Condvar::new(),
        })
    }

    /// The state now.
    pub(crate) fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The revision, once it differs from `since` or `wait` has passed.
    pub(crate) fn wait_revision(&self, since: u64, wait: Duration) -> u64 {
        let guard = self.state();
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, wait, |s| s.revision == since)
            .unwrap_or_else(|e| e.into_inner());
        guard.revision
    }

    /// Reads the file again if its stamp changed; whether it did.
    pub(crate) fn poll(&self) -> bool {
        let now = stamp(&self.path);
        if now.is_none() || now == self.state().stamp {
            // A file being replaced may be missing for a moment: wait for it.
            return false;
        }
        let result = load(&self.ctx, &self.path, &self.textures);
        let mut s = self.state();
        s.stamp = now;
        s.revision += 1;
        match result {
            Ok(loaded) => {
                s.loaded = Arc::new(loaded);
                s.loaded_revision = s.revision;
                s.error = None;
            }
            Err(e) => {
                let message = format!("{e:#}");
                let at = location(&message);
                s.error = Some((message, at));
            }
        }
        drop(s);
        self.changed.notify_all();
        true
    }

    /// `/api/model`.
    pub(crate) fn json(&self) -> Value {
        let s = self.state();
        let mut v = s.loaded.info.clone();
        v["file"] = json!(files::shown(&self.path));
        v["revision"] = json!(s.revision);
        v["model_revision"] = json!(s.loaded_revision);
        v["error"] = match &s.error {
            Some((message, at)) => json!({ "message": message, "at": at }),
            None => Value::Null,
        };
        v
    }
}

/// The file's modification time and size.
fn stamp(path: &Path) -> Option<(SystemTime, u64)> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.modified().ok()?, m.len()))
}

/// The first `file:line:col` of a reader's message (its ` --> ` lines).
fn location(message: &str) -> Option<String> {
    message.lines().find_map(|l| {
        let at = l.trim_start().strip_prefix("--> ")?.trim();
        Some(at.to_string())
    })
}

/// Reads the model and gathers what the page lists.
fn load(ctx: &Ctx, path: &Path, textures: &[PathBuf]) -> Result<Loaded> {
    let data = files::read(path)?;
    let d = crate::input::decode(&data, path, &crate::input::read_options(ctx, path))?;
    let dirs = crate::archive::texture_places(path, textures);
    let cache = TextureCache::new(dirs.clone());
    let model = d.model;
    let mut notes = Vec::new();
    crate::report::print_notes(&files::shown(path), &d.notes, &mut |l| {
        notes.push(l.to_string())
    });
    let scene = Scene::new(&model, &cache);
    let missing: HashMap<&str, &str> = scene
        .missing()
        .iter()
        .map(|(p, why)| (p.as_str(), why.as_str()))
        .collect();
    let textures: Vec<Value> = model
        .textures
        .iter()
        .map(|t| {
            let p = t.path.to_string();
            let (shown, why) = match (p.is_empty(), t.replaceable_id) {
                (true, 1) => ("team colour".to_string(), None),
                (true, 2) => ("team glow".to_string(), None),
                (true, id) => {
                    let name = format!("replaceable texture {id}");
                    let why = missing.get(name.as_str()).map(|w| w.to_string());
                    (name, why)
                }
                (false, _) => {
                    let why = missing.get(p.as_str()).map(|w| w.to_string());
                    (p.clone(), why)
                }
            };
            json!({ "path": shown, "found": why.is_none(), "why": why })
        })
        .collect();
    let findings = findings(&model, path, &data, &d.source, dirs);
    let info = json!({
        "name": model.info.name.to_string(),
        "format": d.described,
        "notes": notes,
        "sequences": sequences(&model),
        "textures": textures,
        "findings": findings,
        "counts": counts(&model),
        "background": super::BACKGROUND[..3],
    });
    drop(scene);
    Ok(Loaded {
        model,
        cache,
        info,
        bounds: Mutex::new(HashMap::new()),
    })
}

fn sequences(model: &Model) -> Vec<Value> {
    model
        .sequences
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({
                "index": i,
                "name": s.name.to_string(),
                "length": s.length(),
                "looping": s.is_looping(),
            })
        })
        .collect()
}

/// `check` over the model, as `mdlx check` does it (the kind classified from the model and
/// its file name, texture findings from the same folders, records located in the file).
fn findings(
    model: &Model,
    path: &Path,
    data: &[u8],
    source: &mdlx::Source,
    dirs: Vec<PathBuf>,
) -> Value {
    let Classification { kind, why, .. } = mdlx::check::classify(model, path.to_str());
    let mut found = mdlx::check::check_as(model, kind);
    found.extend(mdlx::check::check_textures(model, dirs));
    let map = match source {
        mdlx::Source::Mdx { .. } => Some(SourceMap::mdx(data)),
        mdlx::Source::Mdl { .. } => Some(SourceMap::mdl(data)),
        _ => None,
    };
    if let Some(map) = map {
        map.locate(&mut found);
    }
    let list: Vec<Value> = found
        .iter()
        .map(|f| {
            json!({
                "rule": f.rule.id,
                "severity": f.severity.name(),
                "path": f.path,
                "name": f.name,
                "message": f.message,
                "at": f.at.as_ref().map(|a| a.to_string()),
            })
        })
        .collect();
    json!({ "kind": kind.name(), "why": why, "list": list })
}

fn counts(model: &Model) -> Value {
    let vertices: usize = model.geosets.iter().map(|g| g.vertices.len()).sum();
    let triangles: usize = model.geosets.iter().map(|g| g.faces.len() / 3).sum();
    json!({
        "geosets": model.geosets.len(),
        "vertices": vertices,
        "triangles": triangles,
        "materials": model.materials.len(),
        "textures": model.textures.len(),
        "sequences": model.sequences.len(),
        "bones": model.bones.len(),
        "helpers": model.helpers.len(),
        "attachments": model.attachments.len(),
        "particle_emitters2": model.particle_emitters2.len(),
        "ribbon_emitters": model.ribbon_emitters.len(),
        "collision_shapes": model.collision_shapes.len(),
    })
}
