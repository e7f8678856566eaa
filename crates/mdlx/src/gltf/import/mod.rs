//! glTF 2.0 import: a scene with its skins, animations and materials as a Warcraft III
//! model.

use super::source::{GltfError, Source};
use crate::convert::Loss;
use crate::model::Model;

/// How to import.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// The model version to build: 800 (classic, matrix groups), 1000 or 1100 (Reforged,
    /// skin weights and HD materials).
    pub version: u32,
    /// The prefix of the paths of textures written beside the model, as the game sees
    /// them (`war3mapImported\` by default).
    pub texture_path: String,
    /// The model's name (the file name, say); the glTF's scene name when empty.
    pub name: String,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            version: 800,
            texture_path: "war3mapImported\\".into(),
            name: String::new(),
        }
    }
}

/// A texture the imported model uses that must be written beside it.
#[derive(Clone, Debug)]
pub struct ImportedTexture {
    /// The path the model names (`war3mapImported\Fox.blp`).
    pub path: String,
    /// The file to write, relative to the model's folder, `/`-separated
    /// (`war3mapImported/Fox.blp`).
    pub file: String,
    /// The BLP file.
    pub blp: Vec<u8>,
}

/// Where a geoset's vertices came from.
#[derive(Clone, Debug)]
pub struct GeosetSource {
    /// The glTF node that holds the mesh.
    pub node: usize,
    /// The glTF mesh.
    pub mesh: usize,
    /// The primitive in that mesh.
    pub primitive: usize,
    /// For each geoset vertex, the index of the primitive's vertex it is.
    pub vertices: Vec<u32>,
}

/// An imported model.
#[derive(Clone, Debug)]
pub struct Import {
    /// The model.
    pub model: Model,
    /// What the model could not carry, or carried approximately.
    pub losses: Vec<Loss>,
    /// Textures to write beside the model.
    pub textures: Vec<ImportedTexture>,
    /// Where each geoset's vertices came from, by geoset.
    pub geosets: Vec<GeosetSource>,
    /// Version 800: the largest distance (model units) by which matrix groups move a
    /// vertex away from where the glTF's skin weights put it, over the sampled moments
    /// of every animation; 0 when exact.
    pub skin_error: f32,
    /// The largest angle (radians) by which resampled rotations leave the glTF's curve.
    pub rotation_error: f32,
}

/// Imports the default scene of `source`.
pub fn import(source: &Source, options: &ImportOptions) -> Result<Import, GltfError> {
    let _ = (source, options);
    Err(GltfError::new("", "not implemented yet"))
}
