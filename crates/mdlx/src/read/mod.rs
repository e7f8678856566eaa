//! One way to read a model of any format, told by the content: [`read`] identifies the
//! bytes ([`identify`]), runs the reader they call for, converts what is not a Warcraft III
//! model (Milkshape, the WoW alpha family, glTF) and says what it was ([`Source`]), what the
//! reader warned about and what the conversion could not carry. Whatever goes wrong is one
//! [`Error`], which callers can `?` and print.
//!
//! ```
//! let loaded = mdlx::read(include_bytes!("../../../../examples/cube.mdx"), &Default::default())?;
//! assert_eq!(loaded.source.to_string(), "MDX, version 800 (classic)");
//! assert_eq!(loaded.model.geosets.len(), 1);
//!
//! let e = mdlx::read(b"\x89PNG\r\n\x1a\n", &Default::default()).unwrap_err();
//! assert_eq!(e.to_string(), "not an MDX, MDL or Milkshape file (looks like a PNG image)");
//! # Ok::<(), mdlx::Error>(())
//! ```

mod error;

pub use crate::formats::{identify, Content, Format, LooksLike};
pub use error::{Error, Located, MdlError};

use crate::alpha::AlphaModel;
#[cfg(feature = "gltf")]
use crate::convert::gltf::ImportOptions;
use crate::convert::ms3d::ToModelOptions;
use crate::convert::ready::{self, ReadyOptions, Rename};
use crate::convert::ImportedTexture;
use crate::mdl::{Diagnostic, MdlErrorKind, MdlErrors};
use crate::model::{Family, Model};
use crate::Loss;
use std::fmt;
use std::path::{Path, PathBuf};

/// How [`read`] reads.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// MDL: refuse what the reader would otherwise repair with a warning (text outside
    /// every block, a static value of a field that can only be animated, no `Version`
    /// block); see [`crate::mdl::ReadOptions`].
    pub strict: bool,
    /// Milkshape: frame rate, sequences by frame range and the model's name.
    pub ms3d: ToModelOptions,
    /// glTF: the model version to build, the game's path of the textures written beside
    /// the model, and the model's name.
    #[cfg(feature = "gltf")]
    pub gltf: ImportOptions,
    /// glTF: the folder its external files (buffers, images) are read from; `None`: a glTF
    /// that names external files is refused (it came from memory or standard input).
    pub base: Option<PathBuf>,
    /// Sequence names to set in a converted model (Milkshape, WoW alpha, glTF when
    /// [`ImportOptions::renames`] is empty); see [`crate::convert::ready`].
    pub renames: Vec<Rename>,
}

impl ReadOptions {
    /// The options for the file at `path`: a glTF's external files are read from the
    /// file's folder, and a converted model (Milkshape, glTF) is named after the file
    /// (`hero.glb`: `hero`).
    ///
    /// ```
    /// let opts = mdlx::ReadOptions::for_file("models/hero.glb".as_ref());
    /// assert_eq!(opts.base.as_deref(), Some("models".as_ref()));
    /// assert_eq!((opts.gltf.name.as_str(), opts.ms3d.name.as_str()), ("hero", "hero"));
    /// assert_eq!(mdlx::ReadOptions::for_file("hero.glb".as_ref()).base.as_deref(), Some("".as_ref()));
    /// ```
    pub fn for_file(path: &Path) -> ReadOptions {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut opts = ReadOptions {
            // A bare file name has the empty parent: its files are named as relative as it is.
            base: Some(path.parent().unwrap_or(Path::new("")).to_path_buf()),
            ..ReadOptions::default()
        };
        #[cfg(feature = "gltf")]
        {
            opts.gltf.name = name.clone();
        }
        opts.ms3d.name = name;
        opts
    }
}

/// What a file was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Warcraft III binary MDX.
    Mdx {
        /// The file's version.
        version: u32,
        /// Classic or Reforged.
        family: Family,
    },
    /// WoW alpha-family binary MDX, converted to a version-800 model.
    AlphaMdx {
        /// The file's own version (1300-1500).
        version: u32,
    },
    /// MDL text.
    Mdl {
        /// The version its `Version` block names (800 when it has none).
        version: u32,
        /// Classic or Reforged.
        family: Family,
    },
    /// Milkshape 3D ASCII, converted to a version-800 model.
    Ms3d,
    /// glTF 2.0, imported as a model of the version [`ImportOptions::version`] asks for.
    Gltf {
        /// Binary (`.glb`), else JSON (`.gltf`).
        binary: bool,
    },
}

impl Source {
    /// The file's format.
    pub fn format(self) -> Format {
        match self {
            Source::Mdx { .. } => Format::Mdx,
            Source::AlphaMdx { .. } => Format::AlphaMdx,
            Source::Mdl { .. } => Format::Mdl,
            Source::Ms3d => Format::Ms3d,
            Source::Gltf { .. } => Format::Gltf,
        }
    }

    /// Short name: `mdx`, `mdx-alpha`, `mdl`, `ms3d` or `gltf` (see [`Format::short_name`]).
    pub fn short_name(self) -> &'static str {
        self.format().short_name()
    }

    /// The file's own version (Milkshape and glTF have none).
    pub fn version(self) -> Option<u32> {
        match self {
            Source::Mdx { version, .. }
            | Source::AlphaMdx { version }
            | Source::Mdl { version, .. } => Some(version),
            Source::Ms3d | Source::Gltf { .. } => None,
        }
    }

    /// The file's own family (Milkshape and glTF have none).
    pub fn family(self) -> Option<Family> {
        match self {
            Source::Mdx { family, .. } | Source::Mdl { family, .. } => Some(family),
            Source::AlphaMdx { .. } => Some(Family::WowAlpha),
            Source::Ms3d | Source::Gltf { .. } => None,
        }
    }

    /// Whether the model is a conversion of the file (alpha MDX, Milkshape, glTF), not the
    /// file itself.
    pub fn is_converted(self) -> bool {
        matches!(
            self,
            Source::AlphaMdx { .. } | Source::Ms3d | Source::Gltf { .. }
        )
    }
}

impl fmt::Display for Source {
    /// `MDX, version 800 (classic)`, `MDX, WoW alpha family, version 1300`,
    /// `MDL, version 1000 (reforged)`, `Milkshape 3D ASCII`, `glTF 2.0 (binary, .glb)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Mdx { version, family } => {
                write!(f, "MDX, version {version} ({})", family.name())
            }
            Source::AlphaMdx { version } => write!(f, "MDX, WoW alpha family, version {version}"),
            Source::Mdl { version, family } => {
                write!(f, "MDL, version {version} ({})", family.name())
            }
            Source::Ms3d => f.write_str("Milkshape 3D ASCII"),
            Source::Gltf { binary: true } => f.write_str("glTF 2.0 (binary, .glb)"),
            Source::Gltf { binary: false } => f.write_str("glTF 2.0 (JSON, .gltf)"),
        }
    }
}

/// A model read by [`read`], and what came with it.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The model (for converted sources, the conversion).
    pub model: Model,
    /// What the file was.
    pub source: Source,
    /// What the MDL reader warned about (empty for other formats).
    pub warnings: Vec<Located>,
    /// What the conversion to a Warcraft III model could not carry (alpha MDX, Milkshape,
    /// glTF).
    pub losses: Vec<Loss>,
    /// The alpha-family document itself, for a WoW alpha file.
    pub alpha: Option<AlphaModel>,
    /// For glTF: the textures the model names, as BLP files to write beside it.
    pub textures: Vec<ImportedTexture>,
    /// What the conversion did to make the model ready for the game (glTF: its scale;
    /// all: sequence names, added keys and sequences; [`crate::convert::ready`]) and what
    /// is still not standard.
    pub notes: Vec<Loss>,
}

/// Reads a model of any format, told by the content (see [`identify`]): MDX of every
/// family, MDL text, Milkshape 3D ASCII, glTF 2.0. WoW alpha files and Milkshape documents
/// are converted to a version-800 model, glTF is imported as [`ReadOptions::gltf`] asks;
/// their losses are listed. Content that is no model
/// (empty, an image, an archive...) is refused with [`Error::NotAModel`], before any
/// reader runs; so is text with no MDL block in it. An MDL without a `Model` block (a
/// fragment, such as a lone `Bone` block) is refused too: the game needs the model header.
/// [`crate::mdl::from_bytes`] reads such fragments, with a warning.
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/cube.mdx");
/// let loaded = mdlx::read(&std::fs::read(path).unwrap(), &mdlx::ReadOptions::default())?;
/// assert_eq!(loaded.source.version(), Some(800));
/// assert!(loaded.losses.is_empty());
///
/// let mdl = b"Version {\n\tFormatVersion 800,\n}\nModel \"M\" {\n\tBlendTime x,\n}\n";
/// let e = mdlx::read(mdl, &Default::default()).unwrap_err();
/// assert!(e.to_string().contains("5:12: "), "{e}");
/// # Ok::<(), mdlx::Error>(())
/// ```
pub fn read(data: &[u8], opts: &ReadOptions) -> Result<Loaded, Error> {
    let plain = |model: Model, source: Source| Loaded {
        model,
        source,
        warnings: Vec::new(),
        losses: Vec::new(),
        alpha: None,
        textures: Vec::new(),
        notes: Vec::new(),
    };
    let ready_opts = ReadyOptions {
        renames: opts.renames.clone(),
        chosen: false,
    };
    match identify(data) {
        Content::NotAModel(looks_like) => Err(Error::NotAModel { looks_like }),
        Content::Model(Format::AlphaMdx) => {
            let alpha = crate::alpha::from_bytes(data)?;
            let crate::convert::Converted {
                value: mut model,
                losses,
            } = crate::convert::alpha_to_model(&alpha);
            let notes = ready::finish(&mut model, &ready_opts);
            let source = Source::AlphaMdx {
                version: alpha.version,
            };
            Ok(Loaded {
                losses,
                notes,
                alpha: Some(alpha),
                ..plain(model, source)
            })
        }
        Content::Model(Format::Mdx) => {
            let model = crate::mdx::from_bytes(data)?;
            let source = Source::Mdx {
                version: model.version,
                family: model.family(),
            };
            Ok(plain(model, source))
        }
        Content::Model(Format::Ms3d) => {
            let doc = crate::ms3d::from_bytes(data)?;
            let crate::convert::Converted {
                value: mut model,
                losses,
            } = crate::convert::ms3d_to_model(&doc, &opts.ms3d);
            let chosen = ReadyOptions {
                chosen: !opts.ms3d.ranges.is_empty(),
                ..ready_opts
            };
            let notes = ready::finish(&mut model, &chosen);
            Ok(Loaded {
                losses,
                notes,
                ..plain(model, Source::Ms3d)
            })
        }
        #[cfg(not(feature = "gltf"))]
        Content::Model(format @ Format::Gltf) => Err(Error::NotBuilt {
            format,
            feature: "gltf",
        }),
        #[cfg(feature = "gltf")]
        Content::Model(Format::Gltf) => {
            let source = crate::gltf::Source::from_bytes(data, opts.base.as_deref())?;
            let mut gltf = opts.gltf.clone();
            if gltf.renames.is_empty() {
                gltf.renames = opts.renames.clone();
            }
            let crate::convert::Converted {
                value: import,
                losses,
            } = crate::convert::gltf_to_model(&source, &gltf)?;
            let source = Source::Gltf {
                binary: data.starts_with(b"glTF"),
            };
            Ok(Loaded {
                losses,
                textures: import.textures,
                notes: import.notes,
                ..plain(import.model, source)
            })
        }
        Content::Model(Format::Mdl) => match crate::mdl::from_bytes_with_options(
            data,
            &crate::mdl::ReadOptions {
                strict: opts.strict,
            },
        ) {
            Ok((model, warnings)) => {
                // The MDL codec reads a fragment (a lone `Bone` block, say) with a warning; a
                // model needs what the game needs, its Model block, so here it is refused.
                if let Some(w) = warnings
                    .iter()
                    .find(|w| w.kind == MdlErrorKind::MissingModel)
                {
                    let refused = MdlErrors {
                        diagnostics: vec![Diagnostic::error(MdlErrorKind::MissingModel, w.span)],
                    };
                    return Err(Error::Mdl(MdlError::new(&refused, data)));
                }
                let source = Source::Mdl {
                    version: model.version,
                    family: model.family(),
                };
                Ok(Loaded {
                    warnings: error::locate(&warnings, data),
                    ..plain(model, source)
                })
            }
            Err(e) if e.errors().any(|d| d.kind == MdlErrorKind::NotMdl) => Err(Error::NotAModel {
                looks_like: LooksLike::Text,
            }),
            Err(e) => Err(Error::Mdl(MdlError::new(&e, data))),
        },
        Content::Model(other) => unreachable!("{other:?} is never told by the content"),
    }
}

/// A build without the `gltf` feature refuses glTF in both doors, naming the feature
/// (run by `cargo test -p war3-mdlx --lib --no-default-features`).
#[cfg(all(test, not(feature = "gltf")))]
mod lean_tests {
    use crate::{Error, Format, WriteError};

    #[test]
    fn gltf_is_refused_naming_its_feature() {
        let doc = br#"{"asset": {"version": "2.0"}}"#;
        match crate::read(doc, &Default::default()) {
            Err(
                e @ Error::NotBuilt {
                    feature: "gltf", ..
                },
            ) => {
                assert!(e.to_string().contains("`gltf` feature"), "{e}")
            }
            other => panic!("{other:?}"),
        }
        let cube = include_bytes!("../../../../examples/cube.mdx");
        let model = crate::read(cube, &Default::default()).unwrap().model;
        for format in [Format::Glb, Format::Gltf] {
            match crate::write(&model, format, &Default::default()) {
                Err(WriteError::NotBuilt {
                    feature: "gltf", ..
                }) => {}
                other => panic!("{format:?}: {other:?}"),
            }
        }
        // The rest still goes both ways.
        let mdl = crate::write(&model, Format::Mdl, &Default::default()).unwrap();
        let back = crate::read(&mdl.bytes, &Default::default()).unwrap().model;
        let mdx = crate::write(&back, Format::Mdx, &Default::default()).unwrap();
        assert_eq!(mdx.bytes, cube);
    }
}
