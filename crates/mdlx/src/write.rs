//! One way to write a model in any format this crate writes: [`write()`], beside
//! [`read`](crate::read()). It takes the [`Format`] (a row of [`crate::formats::FORMATS`])
//! and gives the bytes, what the format could not hold ([`Loss`]) and the files that go
//! beside it (an OBJ's material library), whatever the format.
//!
//! ```
//! let loaded = mdlx::read(include_bytes!("../../../examples/cube.mdx"), &Default::default())?;
//! let mdl = mdlx::write(&loaded.model, mdlx::Format::Mdl, &Default::default())?;
//! assert!(mdl.losses.is_empty());
//! // The MDL reads back to the same model: written as MDX, it gives the file's bytes.
//! let again = mdlx::read(&mdl.bytes, &Default::default())?;
//! assert_eq!(again.source.to_string(), "MDL, version 800 (classic)");
//! let mdx = mdlx::write(&again.model, mdlx::Format::Mdx, &Default::default())?;
//! assert_eq!(mdx.bytes, include_bytes!("../../../examples/cube.mdx"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "gltf")]
use crate::convert::gltf::ExportOptions;
use crate::convert::ms3d::ToMs3dOptions;
use crate::formats::Format;
use crate::mdx::MdxError;
use crate::model::Model;
use crate::ms3d::Ms3dWriteError;
use crate::obj::{ObjOptions, ObjReport};
use crate::Loss;
use std::fmt;

/// How [`write()`] writes: the options of each format (each used by its format only).
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    /// MDX and MDL: the version to write, converting the model to it
    /// ([`crate::convert::to_version`], its losses listed); `None`: the model's own. The
    /// WoW alpha family: its version (1300, 1400 or 1500; `None`: 1300).
    pub version: Option<u32>,
    /// MDL: standard MDL only (no `MdlxExtension` block), listing what that loses.
    pub mdl: crate::mdl::WriteOptions,
    /// Milkshape: the frame rate and the one sequence to write.
    pub ms3d: ToMs3dOptions,
    /// glTF (both forms): textures, team colour, linear keys.
    #[cfg(feature = "gltf")]
    pub gltf: ExportOptions,
    /// OBJ: the moment shown, the header and the material library.
    pub obj: ObjOptions,
}

/// What [`write()`] made.
#[derive(Clone, Debug, Default)]
pub struct Written {
    /// The file.
    pub bytes: Vec<u8>,
    /// What the format could not hold (empty when the file holds the whole model).
    pub losses: Vec<Loss>,
    /// Files that go beside it, by file name (an OBJ's material library).
    pub beside: Vec<(String, Vec<u8>)>,
    /// glTF: the textures that were not embedded, and why (the model's path, the reason).
    pub missing_textures: Vec<(String, String)>,
    /// OBJ: what was left out.
    pub obj: Option<ObjReport>,
}

/// Why [`write()`] wrote nothing.
#[derive(Debug)]
#[non_exhaustive]
pub enum WriteError {
    /// The MDX (or WoW alpha) encoder refused the model.
    Mdx(MdxError),
    /// The Milkshape writer refused the document.
    Ms3d(Ms3dWriteError),
    /// The model could not be converted to the version asked for.
    Version(String),
    /// The format is not one a model is written as (a texture, for instance).
    NotWritable(Format),
    /// A model format this build of the library leaves out (a Cargo feature that is off).
    NotBuilt {
        /// The format.
        format: Format,
        /// The feature that writes it.
        feature: &'static str,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Mdx(e) => e.fmt(f),
            WriteError::Ms3d(e) => e.fmt(f),
            WriteError::Version(e) => f.write_str(e),
            WriteError::NotWritable(format) => {
                write!(f, "a model is not written as {}", format.short_name())
            }
            WriteError::NotBuilt { format, feature } => write!(
                f,
                "{} is not written by this build (the library's `{feature}` feature is off)",
                format.short_name()
            ),
        }
    }
}

impl std::error::Error for WriteError {}

/// Writes `model` as `format`, with `opts` (see [`WriteOptions`]): MDX (at the model's
/// version or [`WriteOptions::version`]), MDL, Milkshape 3D ASCII, a WoW alpha MDX, glTF
/// ([`Format::Glb`] binary, [`Format::Gltf`] JSON) or OBJ. What the format cannot hold is
/// listed in [`Written::losses`]; texture formats are refused ([`WriteError::NotWritable`];
/// see [`crate::texture`]).
pub fn write(model: &Model, format: Format, opts: &WriteOptions) -> Result<Written, WriteError> {
    let mut losses = Vec::new();
    let converted;
    let model = match opts.version {
        Some(v) if matches!(format, Format::Mdx | Format::Mdl) && v != model.version => {
            let c = crate::convert::to_version(model, v).map_err(WriteError::Version)?;
            losses = c.losses;
            converted = c.value;
            &converted
        }
        _ => model,
    };
    let mut written = match format {
        Format::Mdx => bytes(crate::mdx::to_bytes(model).map_err(WriteError::Mdx)?),
        Format::Mdl => {
            let w = crate::mdl::to_bytes_with_options(model, &opts.mdl);
            Written {
                losses: w.losses,
                ..bytes(w.text)
            }
        }
        Format::Ms3d => {
            let c = crate::convert::model_to_ms3d(model, &opts.ms3d);
            let text = crate::ms3d::to_bytes(&c.value).map_err(WriteError::Ms3d)?;
            Written {
                losses: c.losses,
                ..bytes(text)
            }
        }
        Format::AlphaMdx => {
            let c = crate::convert::model_to_alpha(model, opts.version.unwrap_or(1300));
            let data = crate::alpha::to_bytes(&c.value).map_err(WriteError::Mdx)?;
            Written {
                losses: c.losses,
                ..bytes(data)
            }
        }
        #[cfg(not(feature = "gltf"))]
        Format::Glb | Format::Gltf => {
            return Err(WriteError::NotBuilt {
                format,
                feature: "gltf",
            })
        }
        #[cfg(feature = "gltf")]
        Format::Glb | Format::Gltf => {
            let c = crate::convert::model_to_gltf(model, &opts.gltf);
            let data = match format {
                Format::Glb => c.value.to_glb(),
                _ => c.value.to_gltf().into_bytes(),
            };
            Written {
                losses: c.losses,
                missing_textures: c.value.missing_textures,
                ..bytes(data)
            }
        }
        Format::Obj => obj(model, &opts.obj),
        Format::Png | Format::Blp | Format::Tga | Format::Dds => {
            return Err(WriteError::NotWritable(format))
        }
    };
    losses.append(&mut written.losses);
    written.losses = losses;
    Ok(written)
}

/// A written file with nothing to say about it.
fn bytes(bytes: Vec<u8>) -> Written {
    Written {
        bytes,
        ..Written::default()
    }
}

/// The OBJ of `model` posed as `opts` asks, and its material library when named.
fn obj(model: &Model, opts: &ObjOptions) -> Written {
    let c = crate::convert::model_to_obj(model, opts);
    Written {
        losses: c.losses,
        beside: c.value.mtl.into_iter().collect(),
        obj: Some(c.value.report),
        ..bytes(c.value.text)
    }
}
