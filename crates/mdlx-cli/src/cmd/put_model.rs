//! `mdlx update --put-model NAME=FILE`: a model put into a map with the textures it needs.
//!
//! Each texture the model names (not the replaceable ones) is looked for as every command
//! looks for textures ([`mdlx::texture::TextureFinder`]): beside the model, then under each
//! `--textures` folder, its Warcraft III path and then its file name, without regard to
//! case. A texture the model names under `war3mapImported\` goes in at that path; any
//! other goes into the map beside the model (`war3mapImported\Hero.mdx` takes
//! `war3mapImported\Hero.blp`) and the model's path to it is rewritten to that name: a
//! local file put at the path the model names (`Textures\Footman.blp`) would replace the
//! game's own texture for every model of the map. A PNG (which the game does not read)
//! goes in as a BLP. A texture not found is left as the model names it and listed (the
//! game's own textures are found by the game).
//!
//! The paths are rewritten by [`mdlx::edit::texture_paths`] (a rename by mapping). The
//! model keeps its bytes when nothing in it changes and its format is the one `NAME`
//! says; otherwise it is written anew (MDX or MDL, by `NAME`'s extension).

use crate::files;
use anyhow::{bail, Context, Result};
use mdlx::mpq::Archive;
use mdlx::Format;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A model made ready to go into an archive.
pub(crate) struct Placed {
    /// Files to put: the model first, then its textures (names in the archive).
    pub(crate) files: Vec<(String, Vec<u8>)>,
    /// Texture paths rewritten: as the model named them, as it names them now.
    pub(crate) rewritten: Vec<(String, String)>,
    /// Textures the map already holds with the same bytes (not put again).
    pub(crate) shared: Vec<String>,
    /// Textures the map holds with other bytes, which the model's replace.
    pub(crate) replaced: Vec<String>,
    /// Texture paths found nowhere, left as they are.
    pub(crate) missing: Vec<String>,
}

/// The folder part of an archive name, with its separator (`""` at the root).
fn folder(name: &str) -> &str {
    name.rfind(['\\', '/']).map_or("", |i| &name[..=i])
}

/// Reads the model at `file` and gathers it and its textures for the archive name `name`.
pub(crate) fn place(
    name: &str,
    file: &Path,
    texture_dirs: &[PathBuf],
    archive: &Archive,
) -> Result<Placed> {
    let target = match name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()) {
        Some(e) if e == "mdx" => Format::Mdx,
        Some(e) if e == "mdl" => Format::Mdl,
        _ => bail!("--put-model {name}: the name must end in .mdx or .mdl"),
    };
    let bytes = files::read(file)?;
    let loaded = mdlx::read(&bytes, &mdlx::ReadOptions::for_file(file))
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let mut model = loaded.model;
    let mut places = crate::archive::texture_places(file, &[]);
    places.extend(texture_dirs.iter().cloned());
    let mut finder = mdlx::texture::TextureFinder::new(places);
    let dir = folder(name);
    let mut placed = Placed {
        files: Vec::new(),
        rewritten: Vec::new(),
        shared: Vec::new(),
        replaced: Vec::new(),
        missing: Vec::new(),
    };
    // Each path once, however many textures name it: its new name.
    let mut done: HashMap<String, Option<String>> = HashMap::new();
    let mut taken: HashMap<String, PathBuf> = HashMap::new();
    for t in &model.textures {
        let path = t.path.text().into_owned();
        if path.is_empty() || t.replaceable_id != 0 {
            continue;
        }
        let key = mdlx::mpq::name_key(&path);
        if !done.contains_key(&key) {
            let new = texture(&path, dir, &mut finder, &mut taken, archive, &mut placed)?;
            done.insert(key.clone(), new);
        }
        // The model names it with `\`, as the game's models do.
        if let Some(new) = done[&key].as_ref().map(|n| n.replace('/', "\\")) {
            let pair = (path.clone(), new);
            if !mdlx::mpq::same_name(&pair.1, &path) && !placed.rewritten.contains(&pair) {
                placed.rewritten.push(pair);
            }
        }
    }
    let renamed = mdlx::edit::texture_paths(
        &mut model,
        &mdlx::edit::PathEdit::Rename(placed.rewritten.clone()),
    );
    if let Some(why) = renamed.refused.first() {
        bail!("--put-model {name}: {why}");
    }
    let same_format = mdlx::Format::detect(&bytes) == target;
    let model_bytes = if placed.rewritten.is_empty() && same_format {
        bytes
    } else {
        mdlx::write(&model, target, &mdlx::WriteOptions::default())
            .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?
            .bytes
    };
    placed.files.insert(0, (name.to_string(), model_bytes));
    Ok(placed)
}

/// One texture path: found and queued to go into the map (its new name), or listed as
/// missing (`None`). A path under `war3mapImported\` is kept (it is a map's own path, it
/// can replace none of the game's files); any other goes beside the model.
fn texture(
    path: &str,
    dir: &str,
    finder: &mut mdlx::texture::TextureFinder,
    taken: &mut HashMap<String, PathBuf>,
    archive: &Archive,
    placed: &mut Placed,
) -> Result<Option<String>> {
    let Some(found) = finder.find(path) else {
        placed.missing.push(path.to_string());
        return Ok(None);
    };
    let on_disk = found
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // The model's spelling of the name when the file is the one it names.
    let named = path.rsplit(['\\', '/']).next().unwrap_or(path);
    let file_name = if on_disk.eq_ignore_ascii_case(named) {
        named.to_string()
    } else {
        on_disk
    };
    let mut data =
        std::fs::read(&found).with_context(|| format!("cannot read {}", found.display()))?;
    let (stem, ext) = file_name.rsplit_once('.').unwrap_or((&file_name, ""));
    let mut file_name = file_name.clone();
    if ext.eq_ignore_ascii_case("png") {
        let image = mdlx::texture::decode(&data)
            .map_err(|e| anyhow::anyhow!("{}: {e}", found.display()))?;
        let options = mdlx::texture::EncodeOptions::default();
        data = mdlx::texture::encode(&image, Format::Blp, &options)
            .map_err(|e| anyhow::anyhow!("{}: {e}", found.display()))?;
        file_name = format!("{stem}.blp");
    }
    let imported = path
        .get(..mdlx::mpq::IMPORTED.len())
        .is_some_and(|p| mdlx::mpq::same_name(p, mdlx::mpq::IMPORTED));
    let sep = if dir.contains('/') { "/" } else { "\\" };
    let mut new = if imported && file_name == named {
        path.replace(['\\', '/'], sep)
    } else {
        format!("{dir}{file_name}")
    };
    // Two different files of one name go in as `name`, `name_2`, ...
    let mut n = 1;
    while let Some(other) = taken.get(&mdlx::mpq::name_key(&new)) {
        if *other == found {
            break;
        }
        n += 1;
        let (stem, ext) = file_name.rsplit_once('.').unwrap_or((&file_name, ""));
        new = format!("{dir}{stem}_{n}.{ext}");
    }
    taken.insert(mdlx::mpq::name_key(&new), found.clone());
    match archive.read(&new) {
        Ok(b) if b == data => placed.shared.push(new.clone()),
        Ok(_) => {
            placed.replaced.push(new.clone());
            placed.files.push((new.clone(), data));
        }
        Err(_) => placed.files.push((new.clone(), data)),
    }
    Ok(Some(new))
}
