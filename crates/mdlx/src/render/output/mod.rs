//! What the renderer's pictures become: files (PNG, and animated APNG, GIF and WebP, all
//! looping forever) and contact sheets (a grid of pictures, each named underneath).
//!
//! Everything here is deterministic: the same frames give the same bytes on every machine.
//!
//! ```
//! use mdlx::render::output::{encode, sheet};
//! use mdlx::texture::RgbaImage;
//! let red = RgbaImage { width: 4, height: 4, pixels: [255, 0, 0, 255].repeat(16) };
//! let blue = RgbaImage { width: 4, height: 4, pixels: [0, 0, 255, 255].repeat(16) };
//! let gif = encode::gif(&[red.clone(), blue.clone()], 100).unwrap();
//! assert!(gif.starts_with(b"GIF89a"));
//! let sheet = sheet::contact_sheet(&[("red".into(), red), ("blue".into(), blue)], 2, [0; 4]);
//! assert!(sheet.width > 8);
//! ```

pub mod encode;
mod font;
pub mod sheet;

pub use encode::EncodeError;
