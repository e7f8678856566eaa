//! Every conversion in one shape: a function of the input and its options that returns a
//! [`Converted`], the result and what it could not carry ([`Loss`]), or, where the
//! conversion can fail, a `Result` of one. The conversions themselves live where they were
//! written ([`super::ms3d`], [`super::classic`], [`crate::alpha`], [`crate::convert::gltf`],
//! [`crate::model`]); these functions are their one door.
//!
//! Why a struct rather than `(T, Vec<Loss>)`: the fields are named where they are used
//! (`c.losses` is read as what it is), and what a conversion returns beside its losses
//! (textures to write, a skinning error) stays in its own result type, `T`.
//!
//! ```
//! use mdlx::convert;
//! let model = mdlx::mdx::from_bytes(include_bytes!("../../../../examples/cube.mdx")).unwrap();
//! let c = convert::to_version(&model, 1000).unwrap();
//! assert_eq!(c.value.version, 1000);
//! let back = convert::to_version(&c.value, 800).unwrap();
//! assert_eq!(back.value.version, 800);
//! let ms3d = convert::model_to_ms3d(&model, &Default::default());
//! let again = convert::ms3d_to_model(&ms3d.value, &Default::default());
//! assert_eq!(again.value.geosets.len(), model.geosets.len());
//! ```

use super::classic::{Classic, ClassicOptions};
use super::ms3d::{ToModelOptions, ToMs3dOptions};
use crate::alpha::AlphaModel;
#[cfg(feature = "gltf")]
use crate::convert::gltf::{Export, ExportOptions, GltfError, Import, ImportOptions};
use crate::model::Model;
use crate::ms3d::Document;
use crate::Loss;

/// A conversion's result and what it could not carry, or carried approximately.
#[derive(Clone, Debug)]
pub struct Converted<T> {
    /// The result.
    pub value: T,
    /// What the result does not hold of the input.
    pub losses: Vec<Loss>,
}

impl<T> Converted<T> {
    fn new((value, losses): (T, Vec<Loss>)) -> Converted<T> {
        Converted { value, losses }
    }
}

/// A Warcraft III model at another version (800 to 1800; see [`Model::to_version`]):
/// what the target lacks is lost, what it adds gets the game's defaults. Refused for an
/// unknown version.
pub fn to_version(model: &Model, version: u32) -> Result<Converted<Model>, String> {
    model.to_version(version).map(Converted::new)
}

/// A Reforged model for the classic client (version 800; [`super::classic`]). The
/// losses are moved out of [`Classic::losses`].
pub fn to_classic(model: &Model, opts: &ClassicOptions) -> Result<Converted<Classic>, String> {
    let mut value = super::classic::to_classic(model, opts)?;
    let losses = std::mem::take(&mut value.losses);
    Ok(Converted { value, losses })
}

/// A Milkshape 3D ASCII document as a version-800 model ([`super::ms3d::to_model`]).
pub fn ms3d_to_model(doc: &Document, opts: &ToModelOptions) -> Converted<Model> {
    Converted::new(super::ms3d::to_model(doc, opts))
}

/// A model as a Milkshape 3D ASCII document ([`super::ms3d::to_ms3d`]).
pub fn model_to_ms3d(model: &Model, opts: &ToMs3dOptions) -> Converted<Document> {
    Converted::new(super::ms3d::to_ms3d(model, opts))
}

/// A WoW alpha-family document as a version-800 model.
pub fn alpha_to_model(alpha: &AlphaModel) -> Converted<Model> {
    Converted::new(alpha.to_model())
}

/// A model as a WoW alpha-family document of `version` (1300, 1400 or 1500).
pub fn model_to_alpha(model: &Model, version: u32) -> Converted<AlphaModel> {
    Converted::new(AlphaModel::from_model(model, version))
}

#[cfg(feature = "gltf")]
/// A glTF 2.0 document imported as a model ([`crate::convert::gltf::import()`]). The losses are
/// moved out of [`Import::losses`].
pub fn gltf_to_model(
    source: &crate::gltf::Source,
    opts: &ImportOptions,
) -> Result<Converted<Import>, GltfError> {
    let mut value = crate::convert::gltf::import(source, opts)?;
    let losses = std::mem::take(&mut value.losses);
    Ok(Converted { value, losses })
}

#[cfg(feature = "gltf")]
/// A model exported as glTF 2.0 ([`crate::convert::gltf::export()`]). The losses are moved out of
/// [`Export::losses`].
pub fn model_to_gltf(model: &Model, opts: &ExportOptions) -> Converted<Export> {
    let mut value = crate::convert::gltf::export(model, opts);
    let losses = std::mem::take(&mut value.losses);
    Converted { value, losses }
}

/// A model posed as [`crate::obj::ObjOptions`] asks, as Wavefront OBJ text and its
/// material library ([`crate::obj::export`]).
pub fn model_to_obj(model: &Model, opts: &crate::obj::ObjOptions) -> Converted<crate::obj::Obj> {
    let value = crate::obj::export(model, opts);
    let losses = value.report.losses();
    Converted { value, losses }
}
