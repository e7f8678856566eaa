//! Facts of the WoW alpha family's layouts that family detection needs too.

use super::Tag;

/// The first alpha version whose geosets are interleaved batches.
pub(crate) const BATCHED_GEOSETS: u32 = 1500;

/// The collision triangles sub-chunk of alpha CLID (`TRI `, with its space).
pub(crate) const TRI: Tag = Tag(*b"TRI ");
