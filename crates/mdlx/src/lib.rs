//! # mdlx: Warcraft III models, losslessly
//!
//! Reads and writes MDX (binary) models of every Warcraft III version: 800 (classic) and
//! the Reforged versions (900, 1000, 1100, 1200 and later). The WoW alpha family
//! (1300-1500 with alpha chunk layouts) is told apart by the shape of its chunks and read
//! and written losslessly as its own document type ([`alpha`]), with conversions to and
//! from the Warcraft III model.
//!
//! Also reads and writes Milkshape 3D ASCII files ([`ms3d`]) as their own document type,
//! and imports and exports glTF 2.0 ([`convert::gltf`], over the document layer [`gltf`]).
//!
//! One table names every format ([`formats::FORMATS`]: name, extensions, kind, read,
//! write). [`read()`] reads any of these, told by the content ([`identify()`], [`Format`]),
//! into a [`Model`] with what its conversion could not carry ([`Loss`]), and refuses content
//! that is no model (an empty file, an image, an archive) before any reader runs; its one
//! [`Error`] prints MDL errors as `line:column`. [`write()`] is the one door out: a model as
//! any format the table writes, with what that format could not hold. Every conversion
//! (versions, Reforged to classic, Milkshape, the WoW alpha family, glTF, OBJ) is a
//! function of [`convert`] returning a [`convert::Converted`] (the result and its losses).
//!
//! ## Crates and features
//! The package is `war3-mdlx` on crates.io (the name `mdlx` there is an unrelated crate);
//! it is imported as `mdlx`. The heavy parts are Cargo features, all on by default:
//! `gltf` ([`gltf`], [`convert::gltf`]), `render` ([`render`]), `optimize` ([`optimize`])
//! and `archives` ([`mpq`], the `mdlx-mpq` crate, and texture look-ups in archives). With
//! `default-features = false` the library reads, writes, converts, checks and animates
//! every other format and decodes and encodes textures; glTF content is then refused with
//! [`Error::NotBuilt`] (and [`WriteError::NotBuilt`]).
//!
//! ## Loss policy
//! Reading then writing a file gives back the same bytes. Everything the typed model does
//! not understand is kept: unknown chunks (in place), unknown flag bits and enum values
//! (the raw numbers are the fields), non-zero padding after strings ([`model::FixedString`]),
//! and the bytes after the known fields of any sized record (`tail` fields). The order of
//! chunks and of tracks inside a record is kept too ([`model::Layout`], [`model::Tracks`]).
//!
//! ```
//! let bytes = include_bytes!("../../../examples/cube.mdx");
//! let loaded = mdlx::read(bytes, &Default::default())?;
//! let written = mdlx::write(&loaded.model, mdlx::Format::Mdx, &Default::default())?;
//! assert_eq!(written.bytes, bytes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## What else it does
//! - **Check** a model headless ([`check`]): what makes the game or the editors misbehave,
//!   what is likely wrong, what is wasted; every rule in [`check::RULES`], severities per
//!   kind of model ([`check::classify`]).
//! - **Animate** ([`anim`]): every node's world transform and every geoset posed at a
//!   moment of a sequence.
//! - **Textures** ([`texture`]): BLP1, BLP2, DDS, TGA and PNG decoded to RGBA; BLP1 and PNG
//!   written.
//! - **Convert** ([`convert`]): versions, Reforged to classic, Milkshape, the WoW alpha
//!   family, glTF both ways, OBJ.
//!
//! ```
//! # let bytes = include_bytes!("../../../examples/cube.mdx");
//! let model = mdlx::read(bytes, &Default::default())?.model;
//!
//! // Check it (findings of every severity, each with its rule and the record it names).
//! let findings = mdlx::check::check(&model);
//! let (errors, _warnings, _infos) = mdlx::check::tally(&findings);
//! println!("{errors} error(s)");
//!
//! // Pose it at 100 ms into its first sequence.
//! let skeleton = mdlx::anim::Skeleton::new(&model);
//! let pose = skeleton.pose(mdlx::anim::AnimTime::new(Some(0), 100.0), None);
//! assert_eq!(pose.nodes.len(), model.nodes().count());
//!
//! // A texture: an image made here, written as BLP1 and decoded again.
//! let image = mdlx::texture::RgbaImage { width: 2, height: 2, pixels: vec![255; 16] };
//! let blp = mdlx::texture::blp1::to_bytes(&image, &mdlx::texture::BlpOptions::palette())?;
//! assert_eq!(mdlx::texture::decode(&blp)?, image);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

pub mod alpha;
pub mod anim;
pub mod check;
pub mod convert;
pub mod edit;
pub mod formats;
#[cfg(feature = "gltf")]
pub mod gltf;
mod loss;
pub mod mdl;
pub mod mdx;
pub mod model;
pub mod spec;
#[cfg(feature = "archives")]
pub use mdlx_mpq as mpq;
pub mod ms3d;
pub mod obj;
#[cfg(feature = "optimize")]
pub mod optimize;
pub mod output;
pub mod read;
#[cfg(feature = "render")]
pub mod render;
pub mod texture;
mod write;

pub use formats::{identify, Content, Format, LooksLike};
pub use loss::Loss;
pub use model::Model;
pub use read::{read, Error, Loaded, ReadOptions, Source};
pub use write::{write, WriteError, WriteOptions, Written};
