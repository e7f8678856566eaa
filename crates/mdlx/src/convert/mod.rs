//! Conversions between formats that do not hold the same things. Each returns what it
//! could not carry as a list of [`Loss`](crate::Loss)es, so a tool can say exactly what
//! was dropped.

pub mod alpha;
pub mod classic;
mod door;
#[cfg(feature = "gltf")]
pub mod gltf;
pub mod ms3d;
pub mod ready;
pub mod scale;
pub(crate) mod skin;

pub use door::*;

/// A texture a conversion made that must be written beside the model (a glTF import's
/// images, the classic conversion's BLP stand-ins).
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
