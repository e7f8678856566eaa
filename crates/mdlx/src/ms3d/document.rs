//! The Milkshape 3D ASCII document: every value a file holds, in the types the file gives
//! them (integers as `i32`, floats as `f32`, names as bytes). Counts are not stored: they
//! are the lengths of the lists.

use std::borrow::Cow;
use std::fmt;

/// A whole Milkshape 3D ASCII file.
///
/// Reading a file and writing the document gives a file that reads back to an equal
/// document. The order of the blocks in the file is not kept: the writer uses the
/// conventional order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Document {
    /// `Frames: N`, the total number of animation frames; `None` when the file has no
    /// `Frames:` line (Milkshape itself always writes one).
    pub frames: Option<i32>,
    /// `Frame: N`, the frame that was current when the file was saved; `None` when the
    /// file has no `Frame:` line.
    pub frame: Option<i32>,
    /// The `Meshes:` block (Milkshape calls a mesh a group).
    pub meshes: Vec<Mesh>,
    /// The `Materials:` block.
    pub materials: Vec<Material>,
    /// The `Bones:` block (Milkshape calls a bone a joint).
    pub bones: Vec<Bone>,
    /// The four comment blocks Milkshape 1.7 and later write after the bones; `None` when
    /// the file has none of them.
    pub comments: Option<Comments>,
}

/// One mesh: its header line and its three sub-blocks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// The name, between quotes in the file.
    pub name: Text,
    /// The flags Milkshape keeps for the mesh (selection, hidden); usually 0.
    pub flags: i32,
    /// Index into [`Document::materials`], -1 for none. Not checked by the reader.
    pub material: i32,
    /// The vertex lines.
    pub vertices: Vec<Vertex>,
    /// The normal lines `x y z`. Their number need not equal the number of vertices.
    pub normals: Vec<[f32; 3]>,
    /// The triangle lines.
    pub triangles: Vec<Triangle>,
}

/// A vertex line: `flags x y z u v bone`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vertex {
    /// Flags, usually 0.
    pub flags: i32,
    /// `x y z`.
    pub position: [f32; 3],
    /// `u v`, texture coordinates with v pointing down.
    pub uv: [f32; 2],
    /// Index into [`Document::bones`], -1 for none. Not checked by the reader.
    pub bone: i32,
}

/// A triangle line: `flags v1 v2 v3 n1 n2 n3 smoothinggroup`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Triangle {
    /// Flags, usually 0.
    pub flags: i32,
    /// `v1 v2 v3`: indices into the mesh's vertices, clockwise. Not checked by the reader.
    pub vertices: [i32; 3],
    /// `n1 n2 n3`: indices into the mesh's normals. Not checked by the reader.
    pub normals: [i32; 3],
    /// The smoothing group.
    pub smoothing_group: i32,
}

/// A material: nine lines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Material {
    /// The name, between quotes in the file.
    pub name: Text,
    /// Ambient color, red green blue alpha.
    pub ambient: [f32; 4],
    /// Diffuse color, red green blue alpha.
    pub diffuse: [f32; 4],
    /// Specular color, red green blue alpha.
    pub specular: [f32; 4],
    /// Emissive color, red green blue alpha.
    pub emissive: [f32; 4],
    /// Specular exponent.
    pub shininess: f32,
    /// Overall alpha (1 is opaque).
    pub transparency: f32,
    /// The color (diffuse) texture path, often empty or absolute.
    pub color_map: Text,
    /// The alpha texture path, usually empty.
    pub alpha_map: Text,
}

/// A bone (joint) and its animation keys.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bone {
    /// The name, between quotes in the file.
    pub name: Text,
    /// The parent's name; empty for a root bone. The parent may come later in the file.
    pub parent: Text,
    /// Flags (Milkshape writes selection and other editor bits here).
    pub flags: i32,
    /// Bind-pose position `x y z`, relative to the parent.
    pub position: [f32; 3],
    /// Bind-pose rotation, Euler angles in radians.
    pub rotation: [f32; 3],
    /// Position keys `time x y z`, relative to the bind pose.
    pub position_keys: Vec<Key>,
    /// Rotation keys `time x y z` (Euler angles in radians), relative to the bind pose.
    pub rotation_keys: Vec<Key>,
}

/// An animation key line: `time x y z`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Key {
    /// Time. Milkshape writes frame numbers here (the SDK sample's keys run from 1 to 30
    /// in a 30-frame model), though some readers take it as seconds.
    pub time: f32,
    /// Position or Euler rotation.
    pub value: [f32; 3],
}

/// The comment blocks `GroupComments:`, `MaterialComments:`, `BoneComments:` and
/// `ModelComment:`. The writer writes all four whenever [`Document::comments`] is `Some`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comments {
    /// `GroupComments:` (comments on meshes).
    pub meshes: Vec<IndexedComment>,
    /// `MaterialComments:`.
    pub materials: Vec<IndexedComment>,
    /// `BoneComments:`.
    pub bones: Vec<IndexedComment>,
    /// `ModelComment:` (0 or 1 comment in the file).
    pub model: Option<Text>,
}

/// A comment on one mesh, material or bone: an index line, then a line of text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexedComment {
    /// The index of the mesh, material or bone. Not checked by the reader.
    pub index: i32,
    /// The comment: the whole next line, exactly as written. Milkshape writes a line
    /// break inside a comment as the two characters `\n`; they are kept as they are.
    pub text: Text,
}

/// Text from the file (a name, a texture path, a comment) as the exact bytes written.
///
/// The format declares no encoding and real files hold Latin-1 names (`"H\xfcfte"` in the
/// corpus), so text is kept as bytes: any byte sequence the reader accepts writes back
/// unchanged.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text(pub Vec<u8>);

impl Text {
    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The text as UTF-8, with invalid bytes replaced by U+FFFD.
    pub fn to_string_lossy(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.0)
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\"", self.0.escape_ascii())
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Self {
        Text(s.as_bytes().to_vec())
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        Text(s.into_bytes())
    }
}

impl From<&[u8]> for Text {
    fn from(b: &[u8]) -> Self {
        Text(b.to_vec())
    }
}

impl From<Vec<u8>> for Text {
    fn from(b: Vec<u8>) -> Self {
        Text(b)
    }
}
