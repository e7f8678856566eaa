//! `mdlx view`'s parts: the HTTP server ([`http`]), the model file followed on disk
//! ([`live`]) and the page (`page.html`, served as it is). The verb itself is
//! [`crate::cmd::view`].
//!
//! The page shows pictures drawn here, by the library's renderer, not by WebGL in the
//! browser: so a material looks in the viewer exactly as `mdlx render` draws it (one
//! renderer, one set of rules for filter modes, team colour, particles), and what a modder
//! sees while editing is what the thumbnails, turntables and the renderer's tests show.

pub(crate) mod http;
pub(crate) mod live;

/// The page, with its script and style inline.
pub(crate) const PAGE: &str = include_str!("page.html");

/// The background of the pictures (opaque, so the guides and the model read on it).
pub(crate) const BACKGROUND: [u8; 4] = [40, 42, 48, 255];
