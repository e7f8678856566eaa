//! Milkshape 3D ASCII, as its own [`Document`] (not the Warcraft III model):
//! [`from_bytes`] reads a file, [`to_bytes`] writes one.
//!
//! ## The format
//! A line-based text of blocks, each starting with a line `Name: number` and holding the
//! lines its count says:
//!
//! ```text
//! // MilkShape 3D ASCII
//! Frames: 30
//! Frame: 1
//! Meshes: 1
//! "Box01" 0 0                     name, flags, material index
//! 3                               vertices: flags x y z u v bone
//! 0 -10.375 10.5 13.75 0.0 0.0 -1
//! ...
//! 1                               normals: x y z
//! 0.0 0.0 1.0
//! 1                               triangles: flags v1 v2 v3 n1 n2 n3 smoothinggroup
//! 0 0 1 2 0 0 0 1
//! Materials: 0
//! Bones: 0
//! GroupComments: 0
//! MaterialComments: 0
//! BoneComments: 0
//! ModelComment: 0
//! ```
//!
//! ## What the reader accepts
//! LF or CRLF; a UTF-8 BOM; blank lines and `//` lines anywhere (also between the lines of
//! a block, as the SDK's sample has them); spaces and tabs around and between fields;
//! blocks in any order, each at most once, any of them missing; floats in plain or
//! exponent notation. It refuses, with the line and the expected form: a wrong number of
//! fields on a line, a field that is not a number, NaN and infinities, integers beyond
//! `i32`, names without quotes, unknown block names, and counts larger than the lines
//! left (checked before anything is allocated). Indices (materials, bones, vertices,
//! normals) are data and are not checked.
//!
//! ## Decisions where the specification is silent
//! - **Names** (and texture paths, comments) are [`Text`]: the exact bytes between the
//!   quotes, any encoding (real files hold Latin-1), so they write back unchanged. A name
//!   ends at the next `"`: there is no escape, so a name holding `"` cannot be written.
//! - **Vertex lines** have exactly the seven fields `flags x y z u v bone`; the spec and
//!   the SDK's exporter and importer know no others, and no file of the corpus has more.
//! - **Comment blocks**: Milkshape 1.7 and later end the file with `GroupComments`,
//!   `MaterialComments`, `BoneComments` (a count, then per comment an index line and a text
//!   line) and `ModelComment` (0 or 1, then a text line). The spec does not mention them;
//!   the SDK's importer and exporter define them. The text line is taken whole, whatever it
//!   holds, as the SDK importer does. They are kept in [`Document::comments`].
//! - **Missing blocks**: `Frames` and `Frame` are optional values; missing `Meshes`,
//!   `Materials` and `Bones` read as empty (and are written as `Meshes: 0`, ...).

mod document;
mod error;
mod lines;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub use document::{Bone, Comments, Document, IndexedComment, Key, Material, Mesh, Text};
pub use document::{Triangle, Vertex};
pub use error::{Ms3dError, Ms3dErrorKind, Ms3dWriteError, Ms3dWriteErrorKind};

/// Reads a Milkshape 3D ASCII file.
///
/// ```
/// let text = b"Frames: 30\r\nFrame: 1\r\nMeshes: 0\r\nMaterials: 0\r\nBones: 0\r\n";
/// let doc = mdlx::ms3d::from_bytes(text).unwrap();
/// assert_eq!(doc.frames, Some(30));
///
/// let err = mdlx::ms3d::from_bytes(b"Meshes: 1\n\"Box\" 0 0\n1\n0 1.0 2.0\n").unwrap_err();
/// assert_eq!(
///     err.render("box.txt"),
///     "error: box.txt:4: expected a vertex line `flags x y z u v bone`, \
///      found `0 1.0 2.0` (3 fields, not 7)"
/// );
/// ```
pub fn from_bytes(src: &[u8]) -> Result<Document, Ms3dError> {
    read::read(src)
}

/// Writes a document as Milkshape 3D ASCII: CRLF line endings, the conventional block
/// order, quoted names, floats as plain decimals (no exponent) that read back to the same
/// `f32` (`-0.0` included).
///
/// Fails, naming the place (`meshes[0].vertices[3].position[0]`), for what the text cannot
/// hold: a float that is NaN or infinite, a name or path holding `"`, a name, path or
/// comment holding a line break.
pub fn to_bytes(doc: &Document) -> Result<Vec<u8>, Ms3dWriteError> {
    write::write(doc)
}

/// Whether `data` looks like Milkshape 3D ASCII: its first line that is neither blank nor
/// a `//` comment is a Milkshape block line (`Frames:`, `Meshes:`, ...).
pub(crate) fn detect(data: &[u8]) -> bool {
    lines::first_content(data).is_some_and(|text| read::block_of(text).is_some())
}
