//! Reading a glTF 2.0 file (`.glb`, or `.gltf` with embedded or external buffers and
//! images) into its JSON document and its buffers, and reading accessors out of them with
//! every check a hostile file needs. Errors name the JSON path of what was being read
//! (`meshes[2].primitives[0].attributes.POSITION`) and, for binary data, the byte offset.
//!
//! # What is read, and what is refused
//! - **Container.** The content decides: `glTF` magic means GLB (version 2 only), anything
//!   else is JSON text (a UTF-8 byte order mark is skipped). A GLB's length field may not
//!   exceed the file (bytes after it are ignored); every chunk must lie inside it; the
//!   first chunk must be JSON; the first `BIN` chunk after it is buffer 0; chunks of other
//!   types are skipped, as the spec says. Chunks that are not 4-byte aligned, and a JSON
//!   chunk padded with NULs instead of spaces, are tolerated.
//! - **Document.** `asset.version` must be `2.x` (glTF 1.0 is a different format; its
//!   error says so instead of a serde message). Then `gltf_json`'s own validation runs and
//!   its first error is returned, with these exceptions, which the spec allows (and the
//!   Khronos validator accepts) or which do not stop us reading the data:
//!   a texture without `source` (an extension supplies it); a primitive without
//!   `POSITION`; a `POSITION` accessor without `min`/`max` (many exporters leave them
//!   out, and nothing here needs them); an accessor with neither `bufferView` nor `sparse`
//!   (it is all zeros); an attribute name that is not a glTF semantic (it is ignored by
//!   whoever reads the primitive); and `extensionsRequired` naming an extension
//!   `gltf_json` does not know (the file is still read; the caller sees
//!   `root.extensions_required`). The exception to that exception: geometry compression
//!   ([`COMPRESSION_EXTENSIONS`]) changes where accessor bytes come from, so a file that
//!   requires it is refused rather than read as zeros or garbage.
//!   The index checks run before `gltf_json`'s validation, because its `POSITION` bounds
//!   check indexes the accessors without checking (and would panic).
//! - **Buffers.** Buffer 0 without `uri` in a GLB is the `BIN` chunk; `data:` URIs are
//!   decoded (base64, or percent-encoding when not `;base64`); other URIs are relative
//!   file paths, percent-decoded and joined to the base folder (`..` is allowed: models
//!   often share a folder of textures). Absolute paths, `file:` URIs and every other
//!   scheme (`http:`, ...) are refused: a model file should not make us read arbitrary
//!   places or go on the network. A buffer shorter than its `byteLength` is an error;
//!   a longer one is cut to it. Sizes always come from real bytes: an external file is
//!   measured before it is read, and never read past `byteLength`.
//! - **Accessors.** Read through their buffer view (offsets, `byteStride` or tightly
//!   packed, the column padding of `MAT2`/`MAT3` with 1- and 2-byte components), zeros
//!   when there is no view, then sparse values applied. Every range is checked: an
//!   accessor past its view, a view past its buffer, a stride smaller than an element,
//!   a sparse index not below `count`, any size that overflows. Elements are never
//!   assumed aligned. An accessor without a view may not claim more elements than the
//!   file's buffers hold bytes (at least [`ZERO_ACCESSOR_FLOOR`]), so no count in the
//!   JSON alone can make us allocate: every read allocates at most 4 bytes per byte of
//!   real data.
//!
//! # Error paths
//! An accessor error's path is the reference that led to it (the `at` argument) followed
//! by what was followed from it, in parentheses: `meshes[0].primitives[0].attributes.POSITION
//! (accessors[3] > bufferViews[1])`, `... (accessors[3].sparse.indices > bufferViews[5])`.
//! When `at` is empty the parenthesised part alone is the path (`accessors[3]`). The byte
//! offset, where one applies, is in the buffer the view lies in.

mod accessor;
mod document;
mod uri;

use accessor::*;
use document::*;
pub use uri::decode_base64;
use uri::*;

use gltf_json::accessor::{ComponentType, Type};
use gltf_json::validation::{Checked, Error as ValidationError, Validate};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A glTF file that failed to load or to convert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GltfError {
    /// The JSON path of the object at fault (`accessors[3]`,
    /// `meshes[2].primitives[0].attributes.POSITION`), or `""` for the file as a whole.
    pub path: String,
    /// The byte offset in the file (GLB) or the buffer, where one applies.
    pub offset: Option<u64>,
    /// What is wrong, in one sentence.
    pub message: String,
}

impl GltfError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> GltfError {
        GltfError {
            path: path.into(),
            offset: None,
            message: message.into(),
        }
    }

    /// The same error at byte `offset`.
    pub fn at(mut self, offset: u64) -> GltfError {
        self.offset = Some(offset);
        self
    }
}

impl fmt::Display for GltfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)?;
        if let Some(o) = self.offset {
            write!(f, " (at byte {o})")?;
        }
        Ok(())
    }
}

impl std::error::Error for GltfError {}

/// Extensions that move accessor data somewhere this reader does not decode; a file that
/// lists one in `extensionsRequired` is refused.
pub const COMPRESSION_EXTENSIONS: &[&str] = &[
    "KHR_draco_mesh_compression",
    "EXT_meshopt_compression",
    "KHR_meshopt_compression",
];

/// An accessor without a buffer view may always hold this many bytes' worth of zeros,
/// however small the file's buffers are.
pub const ZERO_ACCESSOR_FLOOR: u64 = 1 << 16;

/// A loaded glTF file: the document and the bytes of each of its buffers.
#[derive(Clone, Debug)]
pub struct Source {
    /// The JSON document.
    pub root: gltf_json::Root,
    /// The bytes of each buffer, by index (each exactly `byteLength` long).
    pub buffers: Vec<Vec<u8>>,
    /// The folder external files are read from (`None`: external files are refused).
    pub base: Option<PathBuf>,
    /// What was left out of the document because `gltf_json` cannot hold it (animation
    /// channels without a target node, as `KHR_animation_pointer` writes), by path.
    pub notes: Vec<GltfError>,
}

impl Source {
    /// Reads a `.glb` or `.gltf` file (told by content), with the files it names beside it.
    pub fn read_file(path: &Path) -> Result<Source, GltfError> {
        let data = std::fs::read(path)
            .map_err(|e| GltfError::new("", format!("cannot read {}: {e}", path.display())))?;
        let base = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Source::from_bytes(&data, Some(&base))
    }

    /// Reads a `.glb` or `.gltf` from memory; external files are read from `base`.
    pub fn from_bytes(data: &[u8], base: Option<&Path>) -> Result<Source, GltfError> {
        let (json, bin) = if data.starts_with(b"glTF") {
            split_glb(data)?
        } else {
            (data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data), None)
        };
        let (root, notes) = parse_root(json)?;
        check_document(&root)?;
        let base = base.map(Path::to_path_buf);
        let buffers = root
            .buffers
            .iter()
            .enumerate()
            .map(|(i, b)| load_buffer(i, b, bin, base.as_deref()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Source {
            root,
            buffers,
            base,
            notes,
        })
    }

    /// Accessor `index` as `f32` components (`count * components` of them) and the number
    /// of components per element. Integer components are converted (divided to [0, 1] or
    /// [-1, 1] when the accessor is normalized); sparse values applied. `at` is the JSON
    /// path of the reference being followed, for errors.
    pub fn read_f32(&self, index: usize, at: &str) -> Result<(Vec<f32>, usize), GltfError> {
        let raw = self.read_raw(index, at)?;
        let values = match raw.component {
            ComponentType::F32 => convert(&raw.bytes, f32::from_le_bytes),
            ComponentType::U8 if raw.normalized => {
                convert(&raw.bytes, |[c]: [u8; 1]| f32::from(c) / 255.0)
            }
            ComponentType::U8 => convert(&raw.bytes, |[c]: [u8; 1]| f32::from(c)),
            ComponentType::I8 if raw.normalized => convert(&raw.bytes, |c: [u8; 1]| {
                (f32::from(i8::from_le_bytes(c)) / 127.0).max(-1.0)
            }),
            ComponentType::I8 => convert(&raw.bytes, |c: [u8; 1]| f32::from(i8::from_le_bytes(c))),
            ComponentType::U16 if raw.normalized => {
                convert(&raw.bytes, |c| f32::from(u16::from_le_bytes(c)) / 65535.0)
            }
            ComponentType::U16 => convert(&raw.bytes, |c| f32::from(u16::from_le_bytes(c))),
            ComponentType::I16 if raw.normalized => convert(&raw.bytes, |c| {
                (f32::from(i16::from_le_bytes(c)) / 32767.0).max(-1.0)
            }),
            ComponentType::I16 => convert(&raw.bytes, |c| f32::from(i16::from_le_bytes(c))),
            // Not allowed normalized by the spec; divided like the others all the same.
            ComponentType::U32 if raw.normalized => convert(&raw.bytes, |c| {
                (f64::from(u32::from_le_bytes(c)) / f64::from(u32::MAX)) as f32
            }),
            ComponentType::U32 => convert(&raw.bytes, |c| u32::from_le_bytes(c) as f32),
        };
        Ok((values, raw.components))
    }

    /// Accessor `index` as unsigned integers (indices, joints); float accessors are refused.
    pub fn read_u32(&self, index: usize, at: &str) -> Result<(Vec<u32>, usize), GltfError> {
        let raw = self.read_raw(index, at)?;
        let values = match raw.component {
            ComponentType::U8 => convert(&raw.bytes, |[c]: [u8; 1]| u32::from(c)),
            ComponentType::U16 => convert(&raw.bytes, |c| u32::from(u16::from_le_bytes(c))),
            ComponentType::U32 => convert(&raw.bytes, u32::from_le_bytes),
            other => {
                return Err(GltfError::new(
                    raw.path,
                    format!(
                        "componentType {} cannot be read as unsigned integers (expected \
                         UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT)",
                        component_name(other)
                    ),
                ))
            }
        };
        Ok((values, raw.components))
    }

    /// The encoded bytes of image `index` (from its buffer view, `data:` URI or file) and
    /// its MIME type when known (`image/png`, `image/jpeg`).
    pub fn image(&self, index: usize) -> Result<(Vec<u8>, Option<String>), GltfError> {
        let path = format!("images[{index}]");
        let Some(image) = self.root.images.get(index) else {
            let n = self.root.images.len();
            return Err(GltfError::new(
                path,
                format!("no such image (the file has {n})"),
            ));
        };
        let mut mime = image.mime_type.as_ref().map(|m| m.0.clone());
        let bytes = if let Some(view) = image.buffer_view {
            let (bytes, _, _) = self.view(view.value(), &Trail::new(&path))?;
            bytes.to_vec()
        } else if let Some(uri) = &image.uri {
            let uri_path = format!("{path}.uri");
            match resolve_uri(uri, &uri_path)? {
                Uri::Data { mime: m, bytes } => {
                    // `data:application/octet-stream` says nothing: sniff instead.
                    mime = mime.or(m.filter(|m| m.starts_with("image/")));
                    bytes
                }
                Uri::File(rel) => read_external(&rel, self.base.as_deref(), None, &uri_path)?,
            }
        } else {
            return Err(GltfError::new(path, "has neither a uri nor a bufferView"));
        };
        let mime = mime.or_else(|| sniff_mime(&bytes).map(str::to_owned));
        Ok((bytes, mime))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_escapes_decode() {
        assert_eq!(percent_decode("a%20b%2fc").unwrap(), b"a b/c");
        assert!(percent_decode("%2").is_err());
        assert!(percent_decode("%é").is_err());
        assert!(percent_decode("%+1").is_err());
    }

    #[test]
    fn gltf_json_paths_are_tidied() {
        assert_eq!(
            tidy_path("meshes[2].primitives[0].attributes[\"POSITION\"]"),
            "meshes[2].primitives[0].attributes.POSITION"
        );
    }

    #[test]
    fn layouts_follow_the_column_padding_rule() {
        let size = |c, t| Layout::new(c, t).element;
        assert_eq!(size(ComponentType::U8, Type::Mat2), 8);
        assert_eq!(size(ComponentType::U8, Type::Mat3), 12);
        assert_eq!(size(ComponentType::I16, Type::Mat3), 24);
        assert_eq!(size(ComponentType::U16, Type::Mat2), 8);
        assert_eq!(size(ComponentType::F32, Type::Mat4), 64);
        assert_eq!(size(ComponentType::U8, Type::Vec3), 3);
    }

    #[test]
    fn schemes_are_told_apart_from_paths() {
        assert_eq!(uri_scheme("http://x"), Some("http"));
        assert_eq!(uri_scheme("data:,x"), Some("data"));
        assert_eq!(uri_scheme("a/b:c"), None);
        assert_eq!(uri_scheme("textures/a.png"), None);
    }
}
