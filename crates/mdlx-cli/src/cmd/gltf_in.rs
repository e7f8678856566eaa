//! glTF 2.0 as input: `mdlx convert hero.glb hero.mdx`, `mdlx info hero.gltf`.
//!
//! The library tells glTF by content (`glTF` magic, or JSON naming an `asset`) and imports
//! it ([`mdlx::read`]); a `.gltf` reads its external buffers and images from its own folder
//! (from standard input, external files are refused). The import's losses are listed like
//! any conversion's; the measured approximations (version 800 matrix groups standing in for
//! skin weights, resampled rotations) are among them, with their bounds.
//!
//! The import's scale (`--scale`, `--height`, else 70 game units a metre) and what it did
//! to make the model ready for the game (sequence names, `--rename`, added Stand and Death,
//! opening keys, dropped redundant keys; [`mdlx::convert::ready`]) are notes of their own,
//! listed under [`crate::input::READY`].
//!
//! What is left here is writing the import's textures.
//!
//! The textures an import makes are BLP files written beside the output model at the
//! relative path the model names (`war3mapImported/Fox.blp`). They are staged with the
//! model ([`crate::files::stage`]) and put in place before it, so a written model never
//! names a missing texture. A texture path that would leave the output's folder is refused
//! whatever the library says.

use crate::files;
use crate::report::Note;
use anyhow::{anyhow, bail, Context, Result};
use mdlx::convert::gltf::import::ImportedTexture;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

pub(crate) use crate::input::LOST;

/// The textures written during one run, by target: a folder conversion where two inputs
/// make the same texture file writes it once, and refuses the second input if its texture
/// differs.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ledger(Arc<Mutex<HashMap<PathBuf, (u64, String)>>>);

impl Ledger {
    /// Claims `target` for `data` on behalf of `input`. `Ok(true)`: write it; `Ok(false)`:
    /// the same bytes are already claimed; an error: other bytes are.
    fn claim(&self, target: &Path, data: &[u8], input: &str) -> Result<bool> {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        data.hash(&mut hasher);
        let hash = hasher.finish();
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match map.get(target) {
            None => {
                map.insert(target.to_path_buf(), (hash, input.to_string()));
                Ok(true)
            }
            Some((h, _)) if *h == hash => Ok(false),
            Some((_, first)) if first == input => bail!(
                "{}: two textures of this import would share that file",
                target.display()
            ),
            Some((_, first)) => bail!(
                "{}: {first} makes a different texture of that name; nothing written for this file (convert it on its own with another --texture-path)",
                target.display()
            ),
        }
    }
}

/// Checks that `file` is a relative, `/`-separated path that stays inside its folder (no
/// `..`, `.`, empty, absolute or drive components) and returns it as a path.
pub(crate) fn safe_relative(file: &str) -> Result<PathBuf> {
    let bad = |why: &str| anyhow!("refusing to write the texture {file:?}: {why}");
    if file.is_empty() {
        return Err(bad("the path is empty"));
    }
    if file.contains('\\') || file.contains('\0') {
        return Err(bad("not a plain `/`-separated path"));
    }
    let mut path = PathBuf::new();
    for part in file.split('/') {
        let mut c = Path::new(part).components();
        match (c.next(), c.next()) {
            (Some(Component::Normal(n)), None) if !part.contains(':') => path.push(n),
            _ => return Err(bad("it would leave the output's folder")),
        }
    }
    Ok(path)
}

/// What to write beside a model: the staged texture files, the folders made for them
/// (removed again if the model is not written), and what to tell.
pub(crate) struct Textures<'a> {
    /// Ready to be put in place, before the model.
    pub staged: Vec<files::Staged<'a>>,
    /// The texture files, as shown.
    pub written: Vec<String>,
    /// Folders created for them, deepest last.
    created: Vec<PathBuf>,
}

impl Textures<'_> {
    /// Removes the folders created for textures that were not written (only if empty).
    pub(crate) fn undo_folders(&mut self) {
        for d in self.created.drain(..).rev() {
            let _ = std::fs::remove_dir(d);
        }
    }

    /// Keeps the folders: the textures are in place.
    pub(crate) fn keep_folders(&mut self) {
        self.created.clear();
    }
}

/// Stages `textures` beside `output` (in its folder, at each texture's relative path).
/// Beside standard output or a special file nothing can be written: that is a loss, in
/// `notes`. A texture never replaces the input or the output, and one whose bytes are
/// already there is not rewritten.
pub(crate) fn stage<'a>(
    textures: &'a [ImportedTexture],
    output: &Path,
    input: &Path,
    ledger: &Ledger,
    notes: &mut Vec<Note>,
) -> Result<Textures<'a>> {
    let mut out = Textures {
        staged: Vec::new(),
        written: Vec::new(),
        created: Vec::new(),
    };
    if textures.is_empty() {
        return Ok(out);
    }
    if files::is_special(output) {
        let list: Vec<&str> = textures.iter().map(|t| t.file.as_str()).collect();
        let what = format!(
            "{} texture(s), since the model goes to {} (write it to a file to get them beside it): {}",
            textures.len(),
            if files::is_stdio(output) { "standard output" } else { "a special file" },
            list.join(", ")
        );
        notes.push(Note::loss("not written", &mdlx::Loss::new("", what)));
        return Ok(out);
    }
    // A bare output name has the empty parent: the textures' paths stay relative.
    let dir = output.parent().unwrap_or(Path::new("")).to_path_buf();
    let result = stage_each(textures, &dir, (output, input), ledger, &mut out, notes);
    if let Err(e) = result {
        out.staged.clear();
        out.undo_folders();
        return Err(e);
    }
    Ok(out)
}

fn stage_each<'a>(
    textures: &'a [ImportedTexture],
    dir: &Path,
    (output, input): (&Path, &Path),
    ledger: &Ledger,
    out: &mut Textures<'a>,
    notes: &mut Vec<Note>,
) -> Result<()> {
    for t in textures {
        let target = dir.join(safe_relative(&t.file)?);
        if target == output || files::same(&target, output) {
            bail!(
                "the texture {} would replace the model {}",
                t.file,
                output.display()
            );
        }
        let fresh = ledger.claim(&target, &t.blp, &files::shown(input))?;
        let old = std::fs::read(&target).ok();
        if !fresh || old.as_ref().is_some_and(|old| *old == t.blp) {
            // Already there (or being written by another input) with these bytes.
            out.written.push(target.display().to_string());
            continue;
        }
        if old.is_some() {
            // Another model may use that file: say so loudly.
            let mut n = Note::info(
                "warning",
                format!(
                    "replaced {}, which held another image (a model using it shows this one now; --texture-path gives each model its own folder)",
                    target.display()
                ),
            );
            n.kind = "warning";
            notes.push(n);
        }
        make_folders(&target, &mut out.created)?;
        out.staged.push(files::stage(&target, &t.blp, input)?);
        out.written.push(target.display().to_string());
    }
    Ok(())
}

/// Creates the missing folders above `target`, recording each one made.
fn make_folders(target: &Path, created: &mut Vec<PathBuf>) -> Result<()> {
    let Some(parent) = target.parent() else {
        return Ok(());
    };
    let missing: Vec<&Path> = parent
        .ancestors()
        .take_while(|a| !a.as_os_str().is_empty() && !a.exists())
        .collect();
    for d in missing.into_iter().rev() {
        match std::fs::create_dir(d) {
            Ok(()) => created.push(d.to_path_buf()),
            // Made meanwhile by another file of a folder conversion: not ours to remove.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && d.is_dir() => {}
            Err(e) => return Err(e).with_context(|| format!("cannot create {}", d.display())),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texture_paths_stay_inside_the_output_folder() {
        let ok = safe_relative("war3mapImported/Fox.blp").unwrap();
        assert_eq!(ok, Path::new("war3mapImported").join("Fox.blp"));
        for bad in [
            "",
            "../Fox.blp",
            "a/../../Fox.blp",
            "/etc/Fox.blp",
            "a//Fox.blp",
            "./Fox.blp",
            "a/",
            "war3mapImported\\Fox.blp",
            "C:/Fox.blp",
        ] {
            assert!(safe_relative(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_texture_claimed_twice_is_written_once_and_a_different_one_refused() {
        let ledger = Ledger::default();
        let t = Path::new("out/war3mapImported/Fox.blp");
        assert!(ledger.claim(t, b"one", "a.glb").unwrap());
        assert!(!ledger.claim(t, b"one", "b.glb").unwrap());
        let e = ledger.claim(t, b"two", "c.glb").unwrap_err().to_string();
        assert!(e.contains("a.glb makes a different texture"), "{e}");
    }
}
