//! The MDX binary codec: [`from_bytes`] decodes every record into the [`Model`] and
//! [`to_bytes`] encodes it back. Unknown chunks, unknown flag bits and enum values, padding
//! bytes of fixed strings and the unparsed tail of every sized record are kept, so a file
//! that was read writes back byte for byte.

mod chunks;
mod declared;
pub mod error;
pub mod family;
mod geoset;
mod material;
pub(crate) mod objects;
pub(crate) mod reader;
pub(crate) mod record;
pub(crate) mod tracks;
pub(crate) mod writer;

pub use chunks::conventional_layout;
pub(crate) use chunks::{peek_version, record_offsets, require_header};
pub use error::{MdxError, MdxErrorKind, MdxResult};
pub use family::classify_family;
#[doc(hidden)]
pub use family::detect_family;
pub(crate) use geoset::tagged;

use crate::model::{Extent, Model};
use reader::Reader;
use writer::Writer;

/// Decodes an MDX file.
///
/// ```
/// let model = mdlx::mdx::from_bytes(include_bytes!("../../../../examples/cube.mdx")).unwrap();
/// assert_eq!(model.version, 800);
/// assert_eq!(model.geosets[0].vertices.len(), 24);
/// ```
pub fn from_bytes(data: &[u8]) -> MdxResult<Model> {
    chunks::read_model(data)
}

/// Encodes a model as MDX. A model that was read from MDX writes back byte-identical.
pub fn to_bytes(model: &Model) -> MdxResult<Vec<u8>> {
    let mut w = Writer::with_capacity(estimate_size(model));
    chunks::write_model(&mut w, model)?;
    Ok(w.into_bytes())
}

fn estimate_size(model: &Model) -> usize {
    let geo: usize = model
        .geosets
        .iter()
        .map(|g| g.vertices.len() * 40 + g.faces.len() * 2 + 1024)
        .sum();
    geo + 64 * 1024
}

/// Reads an extent: radius, min xyz, max xyz (28 bytes).
pub(crate) fn read_extent(r: &mut Reader) -> MdxResult<Extent> {
    Ok(Extent {
        radius: r.f32()?,
        min: r.f32s()?,
        max: r.f32s()?,
    })
}

/// Writes an extent.
pub(crate) fn write_extent(w: &mut Writer, e: &Extent) {
    w.f32(e.radius);
    w.f32s(&e.min);
    w.f32s(&e.max);
}
