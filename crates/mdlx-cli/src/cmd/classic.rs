//! Reforged to classic in `mdlx convert --version 800`: the library's conversion
//! ([`mdlx::convert::to_classic`]), its report as notes.

use crate::report::Note;
use std::path::Path;

/// A converted model, what to tell about it, and the BLP files to write beside it.
pub(crate) struct Converted {
    /// The version 800 model.
    pub model: mdlx::Model,
    /// Its losses and skinning error.
    pub notes: Vec<Note>,
    /// Textures to write beside the output.
    pub textures: Vec<mdlx::convert::gltf::import::ImportedTexture>,
}

/// `model` (900+) for the classic client ([`mdlx::convert::classic`]), with the textures
/// found beside `input` or in `--textures`; its losses and skinning error as notes, and
/// the BLP files to write beside the output.
pub(crate) fn to_classic(
    model: &mdlx::Model,
    input: &Path,
    texture_dirs: &[std::path::PathBuf],
    lod: Option<u32>,
) -> Result<Converted, String> {
    let dirs = crate::archive::texture_places(input, texture_dirs);
    let done = mdlx::convert::to_classic(
        model,
        &mdlx::convert::classic::ClassicOptions {
            lod,
            texture_dirs: dirs,
        },
    )?;
    let what = "classic (800) cannot hold";
    let mut notes: Vec<Note> = done.losses.iter().map(|l| Note::loss(what, l)).collect();
    let done = done.value;
    notes.push(Note::info(
        "classic (800)",
        format!(
            "skinning error {} (largest distance of a vertex between skin weights and matrix groups, at the start, middle and end of every sequence)",
            done.skinning_error
        ),
    ));
    Ok(Converted {
        model: done.model,
        notes,
        textures: done.textures,
    })
}
