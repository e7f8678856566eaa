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

// ---------------------------------------------------------------------------------------
// Container and document

/// The JSON and BIN chunks of a GLB.
fn split_glb(data: &[u8]) -> Result<(&[u8], Option<&[u8]>), GltfError> {
    let word = |at: usize| -> Option<u32> {
        let b = data.get(at..at + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let (Some(version), Some(length)) = (word(4), word(8)) else {
        return Err(GltfError::new(
            "",
            format!("GLB header cut short: {} bytes of 12", data.len()),
        ));
    };
    if version != 2 {
        return Err(GltfError::new(
            "",
            format!("GLB version {version} is not supported (only 2)"),
        )
        .at(4));
    }
    let length = length as usize;
    if length > data.len() {
        return Err(GltfError::new(
            "",
            format!(
                "GLB cut short: its header says {length} bytes, the file has {}",
                data.len()
            ),
        )
        .at(8));
    }
    let data = &data[..length];
    let mut chunks = Chunks { data, pos: 12 };
    let json = match chunks.next_chunk()? {
        Some((kind, body)) if kind == *b"JSON" => body,
        Some((kind, _)) => {
            let kind = String::from_utf8_lossy(&kind).into_owned();
            return Err(
                GltfError::new("", format!("the first GLB chunk is {kind:?}, not JSON")).at(16),
            );
        }
        None => return Err(GltfError::new("", "GLB has no JSON chunk").at(12)),
    };
    // A JSON chunk padded with NULs (not the spaces the spec asks for) still parses.
    let end = json.iter().rposition(|&c| c != 0).map_or(0, |p| p + 1);
    let json = &json[..end];
    while let Some((kind, body)) = chunks.next_chunk()? {
        if kind == *b"BIN\0" {
            return Ok((json, Some(body)));
        }
    }
    Ok((json, None))
}

/// A GLB chunk's type and body.
type Chunk<'a> = ([u8; 4], &'a [u8]);

/// Walks the chunks of a GLB after its header.
struct Chunks<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Chunks<'a> {
    /// The next chunk's type and body; `None` at the end (fewer than 8 bytes left).
    fn next_chunk(&mut self) -> Result<Option<Chunk<'a>>, GltfError> {
        // Loosely aligned: a chunk normally starts on a 4-byte boundary, but one written
        // right after an unpadded chunk is found too.
        if self.pos % 4 != 0 && self.data.get(self.pos + 4..self.pos + 8) != Some(b"BIN\0") {
            self.pos = self.pos.next_multiple_of(4);
        }
        let Some(head) = self.data.get(self.pos..self.pos + 8) else {
            return Ok(None);
        };
        let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let kind = [head[4], head[5], head[6], head[7]];
        let start = self.pos + 8;
        if len > self.data.len() - start {
            let name = String::from_utf8_lossy(&kind).into_owned();
            return Err(GltfError::new(
                "",
                format!(
                    "GLB chunk {name:?} of {len} bytes runs past the end of the file \
                     ({} bytes, {} after the chunk header)",
                    self.data.len(),
                    self.data.len() - start
                ),
            )
            .at(self.pos as u64));
        }
        self.pos = start + len;
        Ok(Some((kind, &self.data[start..start + len])))
    }
}

/// The document, with serde's message and position, or a clear word on the version, and
/// what was left out to make `gltf_json` take it (see [`repair`]).
fn parse_root(json: &[u8]) -> Result<(gltf_json::Root, Vec<GltfError>), GltfError> {
    let (root, notes) = match serde_json::from_slice::<gltf_json::Root>(json) {
        Ok(root) => (root, Vec::new()),
        Err(e) => {
            let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(json) else {
                return Err(json_error(&e));
            };
            // A glTF 1.0 file fails as a 2.0 document in some odd place: say why instead.
            if let Some(v) = value.pointer("/asset/version").and_then(|v| v.as_str()) {
                check_version(v)?;
            }
            let mut notes = Vec::new();
            if !repair(&mut value, &mut notes) {
                return Err(json_error(&e));
            }
            // Positions are lost with the text; this is the rare file that needed repair
            // and is broken besides.
            let root = serde_json::from_value(value)
                .map_err(|e| GltfError::new("", format!("invalid JSON: {e}")))?;
            (root, notes)
        }
    };
    check_version(&root.asset.version)?;
    if let Some(min) = &root.asset.min_version {
        if min != "2.0" && !min.is_empty() {
            return Err(GltfError::new(
                "asset.minVersion",
                format!("the file needs glTF {min}; only 2.0 is supported"),
            ));
        }
    }
    Ok((root, notes))
}

/// Fills in what the spec lets a file leave out but `gltf_json` requires: a scene's
/// `nodes` (an empty scene); and drops what it cannot hold: an animation channel whose
/// target has no `node` (`KHR_animation_pointer` animates other things), with a note in
/// `notes`. Returns whether anything changed.
fn repair(value: &mut serde_json::Value, notes: &mut Vec<GltfError>) -> bool {
    let mut changed = false;
    if let Some(scenes) = value.get_mut("scenes").and_then(|s| s.as_array_mut()) {
        for scene in scenes.iter_mut().filter_map(|s| s.as_object_mut()) {
            if !scene.contains_key("nodes") {
                scene.insert("nodes".into(), serde_json::Value::Array(Vec::new()));
                changed = true;
            }
        }
    }
    let animations = value.get_mut("animations").and_then(|a| a.as_array_mut());
    for (a, animation) in animations.into_iter().flatten().enumerate() {
        let Some(channels) = animation.get_mut("channels").and_then(|c| c.as_array_mut()) else {
            continue;
        };
        let mut c = 0;
        channels.retain(|channel| {
            let keep = channel.pointer("/target/node").is_some()
                || channel.get("target").is_none_or(|t| !t.is_object());
            if !keep {
                changed = true;
                notes.push(GltfError::new(
                    format!("animations[{a}].channels[{c}]"),
                    "the target has no node (an extension such as KHR_animation_pointer \
                     animates something else); the channel is left out",
                ));
            }
            c += 1;
            keep
        });
    }
    changed
}

fn check_version(v: &str) -> Result<(), GltfError> {
    let ok = v
        .strip_prefix("2.")
        .is_some_and(|minor| !minor.is_empty() && minor.bytes().all(|c| c.is_ascii_digit()));
    if ok {
        return Ok(());
    }
    Err(GltfError::new(
        "asset.version",
        format!("glTF version {v:?} is not supported (only 2.0)"),
    ))
}

fn json_error(e: &serde_json::Error) -> GltfError {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full);
    GltfError::new(
        "",
        format!("invalid JSON at {}:{}: {message}", e.line(), e.column()),
    )
}

/// Index checks `gltf_json` would panic without, refused compression, then `gltf_json`'s
/// own validation with the tolerated errors left out (see the module docs).
fn check_document(root: &gltf_json::Root) -> Result<(), GltfError> {
    for (i, ext) in root.extensions_required.iter().enumerate() {
        if COMPRESSION_EXTENSIONS.contains(&ext.as_str()) {
            return Err(GltfError::new(
                format!("extensionsRequired[{i}]"),
                format!("the file requires {ext} (compressed geometry), which is not supported"),
            ));
        }
    }
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            for (name, accessor) in &primitive.attributes {
                let n = root.accessors.len();
                if accessor.value() >= n {
                    let name = name.to_string();
                    return Err(GltfError::new(
                        format!("meshes[{m}].primitives[{p}].attributes.{name}"),
                        format!(
                            "accessors[{}] does not exist (the file has {n})",
                            accessor.value()
                        ),
                    ));
                }
            }
        }
    }
    for (a, animation) in root.animations.iter().enumerate() {
        for (c, channel) in animation.channels.iter().enumerate() {
            let node = channel.target.node.value();
            if node >= root.nodes.len() {
                return Err(GltfError::new(
                    format!("animations[{a}].channels[{c}].target.node"),
                    format!(
                        "nodes[{node}] does not exist (the file has {})",
                        root.nodes.len()
                    ),
                ));
            }
        }
    }
    let mut first: Option<GltfError> = None;
    root.validate(root, gltf_json::Path::new, &mut |path, error| {
        if first.is_none() {
            let path = tidy_path(path().as_str());
            if !tolerated(&path, error) {
                first = Some(GltfError::new(path, validation_message(error)));
            }
        }
    });
    first.map_or(Ok(()), Err)
}

/// `gltf_json`'s `attributes["POSITION"]` as `attributes.POSITION`.
fn tidy_path(path: &str) -> String {
    path.replace("[\"", ".").replace("\"]", "")
}

/// Validation errors that the spec allows or that do not stop the data being read.
fn tolerated(path: &str, error: ValidationError) -> bool {
    let last = path.rsplit('.').next().unwrap_or("");
    match error {
        ValidationError::Unsupported => path.starts_with("extensionsRequired"),
        ValidationError::Missing => {
            (path.starts_with("textures[") && last == "source")
                || (path.starts_with("accessors[") && last == "bufferView")
                || path.ends_with(".attributes.POSITION")
                || path.ends_with(".attributes.POSITION.min")
                || path.ends_with(".attributes.POSITION.max")
        }
        ValidationError::Invalid => {
            path.contains(".attributes.<invalid semantic name>")
                || path.ends_with(".attributes.POSITION.min")
                || path.ends_with(".attributes.POSITION.max")
        }
        _ => false,
    }
}

fn validation_message(error: ValidationError) -> &'static str {
    match error {
        ValidationError::IndexOutOfBounds => "refers to an object that does not exist",
        ValidationError::Invalid => "invalid value",
        ValidationError::Missing => "required property missing",
        ValidationError::Oversize => "value too large",
        ValidationError::Unsupported => "extension not supported",
    }
}

// ---------------------------------------------------------------------------------------
// Buffers, URIs and external files

/// The bytes of buffer `i`, exactly `byteLength` long.
fn load_buffer(
    i: usize,
    buffer: &gltf_json::Buffer,
    bin: Option<&[u8]>,
    base: Option<&Path>,
) -> Result<Vec<u8>, GltfError> {
    let path = format!("buffers[{i}]");
    let want = buffer.byte_length.0;
    let mut bytes = match (&buffer.uri, bin) {
        (None, Some(bin)) if i == 0 => bin[..(bin.len() as u64).min(want) as usize].to_vec(),
        (None, _) => {
            return Err(GltfError::new(
                path,
                "has no uri and is not the BIN chunk of a GLB",
            ))
        }
        (Some(uri), _) => {
            let uri_path = format!("{path}.uri");
            match resolve_uri(uri, &uri_path)? {
                Uri::Data { bytes, .. } => bytes,
                Uri::File(rel) => read_external(&rel, base, Some(want), &uri_path)?,
            }
        }
    };
    if (bytes.len() as u64) < want {
        return Err(GltfError::new(
            path,
            format!("has {} bytes, byteLength says {want}", bytes.len()),
        ));
    }
    bytes.truncate(want as usize);
    Ok(bytes)
}

/// Where a URI's bytes are.
#[derive(Debug)]
enum Uri {
    /// A `data:` URI, decoded, with its media type when it names one.
    Data {
        mime: Option<String>,
        bytes: Vec<u8>,
    },
    /// A relative path, percent-decoded.
    File(PathBuf),
}

fn resolve_uri(uri: &str, path: &str) -> Result<Uri, GltfError> {
    let err = |m: String| GltfError::new(path, m);
    if let Some(scheme) = uri_scheme(uri) {
        if !scheme.eq_ignore_ascii_case("data") {
            return Err(err(format!(
                "{scheme}: URIs are not read (only data: URIs and relative file paths)"
            )));
        }
        return data_uri(&uri[scheme.len() + 1..]).map_err(err);
    }
    let decoded = percent_decode(uri).map_err(err)?;
    let decoded =
        String::from_utf8(decoded).map_err(|_| err("the URI is not UTF-8 once decoded".into()))?;
    let abs =
        decoded.starts_with('/') || decoded.starts_with('\\') || uri_scheme(&decoded).is_some();
    if abs || Path::new(&decoded).is_absolute() {
        return Err(err(format!(
            "absolute path {decoded:?} refused (only paths relative to the file)"
        )));
    }
    Ok(Uri::File(PathBuf::from(decoded)))
}

/// The scheme of `uri` (`data`, `http`, `C` of `C:\`), if it has one.
fn uri_scheme(uri: &str) -> Option<&str> {
    let colon = uri.find(':')?;
    let scheme = &uri[..colon];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    let ok = first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    ok.then_some(scheme)
}

/// The part of a `data:` URI after `data:`.
fn data_uri(rest: &str) -> Result<Uri, String> {
    let Some((header, payload)) = rest.split_once(',') else {
        return Err("data: URI without a comma".into());
    };
    let (media, base64) = match header.len().checked_sub(7) {
        Some(n) if header.is_char_boundary(n) && header[n..].eq_ignore_ascii_case(";base64") => {
            (&header[..n], true)
        }
        _ => (header, false),
    };
    let mime = media.split(';').next().unwrap_or("").trim();
    let mime = (!mime.is_empty()).then(|| mime.to_ascii_lowercase());
    let bytes = if base64 {
        decode_base64(payload)?
    } else {
        percent_decode(payload)?
    };
    Ok(Uri::Data { mime, bytes })
}

/// Standard or URL-safe base64; padding optional, ASCII whitespace skipped.
pub fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    let (mut acc, mut bits, mut padding) = (0u32, 0u32, 0usize);
    for (i, c) in text.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => {
                padding += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\n' => continue,
            _ => {
                return Err(format!(
                    "invalid base64 character {:?} at position {i} of the data",
                    c as char
                ))
            }
        };
        if padding > 0 {
            return Err(format!(
                "base64 data continues after '=' padding at position {i}"
            ));
        }
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    if bits >= 6 {
        return Err("base64 data ends with a lone character".into());
    }
    Ok(out)
}

/// `%XX` escapes as bytes; everything else as it is.
pub fn percent_decode(text: &str) -> Result<Vec<u8>, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let digit = |k: usize| char::from(*bytes.get(k)?).to_digit(16);
            match (digit(i + 1), digit(i + 2)) {
                (Some(hi), Some(lo)) => out.push((hi * 16 + lo) as u8),
                _ => return Err(format!("bad percent escape at position {i}")),
            }
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Ok(out)
}

/// A file beside the glTF: at most `limit` bytes of it, and an error rather than a read
/// when it is shorter (checked against its size first).
fn read_external(
    rel: &Path,
    base: Option<&Path>,
    limit: Option<u64>,
    path: &str,
) -> Result<Vec<u8>, GltfError> {
    let Some(base) = base else {
        return Err(GltfError::new(
            path,
            format!(
                "external file {} not read (no folder to read it from)",
                rel.display()
            ),
        ));
    };
    let full = base.join(rel);
    let cannot =
        |e: std::io::Error| GltfError::new(path, format!("cannot read {}: {e}", full.display()));
    let file = std::fs::File::open(&full).map_err(cannot)?;
    let size = file.metadata().map_err(cannot)?.len();
    if let Some(want) = limit.filter(|&want| size < want) {
        return Err(GltfError::new(
            path,
            format!(
                "{} has {size} bytes, byteLength says {want}",
                full.display()
            ),
        ));
    }
    let take = limit.unwrap_or(size).min(size);
    let mut bytes = Vec::with_capacity(usize::try_from(take).unwrap_or(0));
    file.take(take).read_to_end(&mut bytes).map_err(cannot)?;
    Ok(bytes)
}

/// The MIME type told by an image's first bytes.
pub fn sniff_mime(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

// ---------------------------------------------------------------------------------------
// Accessors

/// An accessor's components, tightly packed (no stride, no column padding), little-endian.
struct Raw {
    path: String,
    component: ComponentType,
    normalized: bool,
    components: usize,
    bytes: Vec<u8>,
}

/// How one element of an accessor lies in memory.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// Bytes per component.
    size: usize,
    /// Components per element.
    components: usize,
    /// Rows per column (matrices), else `components`.
    rows: usize,
    /// Bytes from one column to the next (4-byte aligned for matrices).
    column_stride: usize,
    /// Bytes per element, padding included.
    element: usize,
}

impl Layout {
    fn new(component: ComponentType, kind: Type) -> Layout {
        let size = component.size();
        let components = kind.multiplicity();
        let rows = match kind {
            Type::Mat2 => 2,
            Type::Mat3 => 3,
            Type::Mat4 => 4,
            _ => components,
        };
        let columns = components / rows;
        let column_stride = if columns > 1 {
            (rows * size).next_multiple_of(4)
        } else {
            rows * size
        };
        Layout {
            size,
            components,
            rows,
            column_stride,
            element: columns * column_stride,
        }
    }

    /// Bytes per element without padding.
    fn packed(&self) -> usize {
        self.components * self.size
    }

    /// Copies one element from the start of `src` (laid out with padding) into `dst`
    /// (packed).
    fn unpack(&self, src: &[u8], dst: &mut [u8]) {
        for k in 0..self.components {
            let from = (k / self.rows) * self.column_stride + (k % self.rows) * self.size;
            dst[k * self.size..(k + 1) * self.size].copy_from_slice(&src[from..from + self.size]);
        }
    }
}

/// Where an accessor read is: the reference that led to it (`at`) and the objects followed
/// from there (`accessors[3] > bufferViews[1]`), shown as `at (chain)`.
#[derive(Clone, Debug)]
struct Trail<'a> {
    at: &'a str,
    chain: String,
}

impl<'a> Trail<'a> {
    fn new(at: &'a str) -> Trail<'a> {
        Trail {
            at,
            chain: String::new(),
        }
    }

    /// Followed on to `object` (`bufferViews[1]`).
    fn then(&self, object: &str) -> Trail<'a> {
        let sep = if self.chain.is_empty() { "" } else { " > " };
        Trail {
            at: self.at,
            chain: format!("{}{sep}{object}", self.chain),
        }
    }

    /// Down to `field` of the last object (`sparse.indices`).
    fn field(&self, field: &str) -> Trail<'a> {
        Trail {
            at: self.at,
            chain: format!("{}.{field}", self.chain),
        }
    }

    fn path(&self) -> String {
        match (self.at.is_empty(), self.chain.is_empty()) {
            (_, true) => self.at.to_owned(),
            (true, false) => self.chain.clone(),
            (false, false) => format!("{} ({})", self.at, self.chain),
        }
    }

    fn error(&self, message: impl Into<String>) -> GltfError {
        GltfError::new(self.path(), message)
    }
}

impl Source {
    /// The bytes of buffer view `index` and their offset in its buffer; `at` names the
    /// reference that led here, for errors (see the module docs for the form of paths).
    pub fn view_bytes(&self, index: usize, at: &str) -> Result<(&[u8], u64), GltfError> {
        self.view(index, &Trail::new(at))
            .map(|(bytes, start, _)| (bytes, start))
    }

    /// View `index`'s bytes, their offset in the buffer, and its stride.
    fn view(&self, index: usize, trail: &Trail) -> Result<(&[u8], u64, Option<usize>), GltfError> {
        let trail = trail.then(&format!("bufferViews[{index}]"));
        let Some(view) = self.root.buffer_views.get(index) else {
            let n = self.root.buffer_views.len();
            return Err(trail.error(format!("no such buffer view (the file has {n})")));
        };
        let b = view.buffer.value();
        let Some(buffer) = self.buffers.get(b) else {
            return Err(trail.error(format!("buffers[{b}] does not exist")));
        };
        let start = view.byte_offset.map_or(0, |o| o.0);
        let len = view.byte_length.0;
        match start.checked_add(len) {
            Some(end) if end <= buffer.len() as u64 => Ok((
                &buffer[start as usize..end as usize],
                start,
                view.byte_stride.map(|s| s.0),
            )),
            _ => Err(trail
                .error(format!(
                    "byteOffset {start} + byteLength {len} runs past the end of buffers[{b}] \
                     ({} bytes)",
                    buffer.len()
                ))
                .at(start)),
        }
    }

    /// Accessor `index`'s components, packed, sparse values applied.
    fn read_raw(&self, index: usize, at: &str) -> Result<Raw, GltfError> {
        let Some(accessor) = self.root.accessors.get(index) else {
            let n = self.root.accessors.len();
            return Err(GltfError::new(
                at,
                format!("accessors[{index}] does not exist (the file has {n})"),
            ));
        };
        let trail = Trail::new(at).then(&format!("accessors[{index}]"));
        let (Checked::Valid(component), Checked::Valid(kind)) =
            (accessor.component_type, accessor.type_)
        else {
            return Err(trail.error("invalid componentType or type"));
        };
        let layout = Layout::new(component.0, kind);
        let count = accessor.count.0;
        let total = count
            .checked_mul(layout.element as u64)
            .filter(|&t| t <= isize::MAX as u64)
            .ok_or_else(|| trail.error(format!("count {count} overflows")))?;
        let mut bytes = match accessor.buffer_view {
            Some(view) => {
                let offset = accessor.byte_offset.map_or(0, |o| o.0);
                self.read_elements(view.value(), offset, count, false, layout, &trail)?
                    .0
            }
            None => {
                let backed: u64 = self.buffers.iter().map(|b| b.len() as u64).sum();
                if total > backed.max(ZERO_ACCESSOR_FLOOR) {
                    return Err(trail.error(format!(
                        "count {count} of {}-byte elements without a bufferView is more than \
                         the file's buffers hold ({backed} bytes)",
                        layout.element
                    )));
                }
                vec![0; count as usize * layout.packed()]
            }
        };
        if let Some(sparse) = &accessor.sparse {
            self.apply_sparse(sparse, count, layout, &mut bytes, &trail.field("sparse"))?;
        }
        Ok(Raw {
            path: trail.path(),
            component: component.0,
            normalized: accessor.normalized,
            components: layout.components,
            bytes,
        })
    }

    /// `count` elements of `layout` from byte `offset` of view `view`, packed, and the
    /// offset in the buffer where they start. `packed_source`: the elements are tightly
    /// packed whatever the view's stride (sparse sections).
    fn read_elements(
        &self,
        view: usize,
        offset: u64,
        count: u64,
        packed_source: bool,
        layout: Layout,
        trail: &Trail,
    ) -> Result<(Vec<u8>, u64), GltfError> {
        let (data, view_start, view_stride) = self.view(view, trail)?;
        let trail = trail.then(&format!("bufferViews[{view}]"));
        let stride = match view_stride {
            Some(s) if !packed_source => s,
            _ => layout.element,
        };
        if stride < layout.element {
            return Err(trail.error(format!(
                "byteStride {stride} is smaller than an element ({} bytes)",
                layout.element
            )));
        }
        let span = match count.checked_sub(1) {
            None => Some(0),
            Some(last) => last
                .checked_mul(stride as u64)
                .and_then(|n| n.checked_add(layout.element as u64)),
        };
        let end = span.and_then(|n| n.checked_add(offset));
        let start = view_start.saturating_add(offset);
        let Some(end) = end.filter(|&n| n <= data.len() as u64) else {
            return Err(trail
                .error(format!(
                    "{count} elements of {} bytes (stride {stride}) from byteOffset {offset} run \
                     past the end of the view ({} bytes)",
                    layout.element,
                    data.len()
                ))
                .at(start));
        };
        let data = &data[offset as usize..end as usize];
        let packed = layout.packed();
        let mut out = vec![0; count as usize * packed];
        for (e, dst) in out.chunks_exact_mut(packed).enumerate() {
            layout.unpack(&data[e * stride..], dst);
        }
        Ok((out, start))
    }

    /// Overwrites the elements a sparse accessor names.
    fn apply_sparse(
        &self,
        sparse: &gltf_json::accessor::sparse::Sparse,
        count: u64,
        layout: Layout,
        bytes: &mut [u8],
        trail: &Trail,
    ) -> Result<(), GltfError> {
        let n = sparse.count.0;
        if n > count {
            return Err(trail.error(format!(
                "sparse count {n} is more than the accessor's count {count}"
            )));
        }
        let indices = &sparse.indices;
        let itrail = trail.field("indices");
        let Checked::Valid(index_type) = indices.component_type else {
            return Err(itrail.error("invalid componentType"));
        };
        let index_layout = Layout::new(index_type.0, Type::Scalar);
        let view = indices.buffer_view.value();
        let (raw_indices, index_start) =
            self.read_elements(view, indices.byte_offset.0, n, true, index_layout, &itrail)?;
        let values = &sparse.values;
        let vtrail = trail.field("values");
        let (raw_values, _) = self.read_elements(
            values.buffer_view.value(),
            values.byte_offset.0,
            n,
            true,
            layout,
            &vtrail,
        )?;
        let packed = layout.packed();
        let entries = raw_indices
            .chunks_exact(index_layout.size)
            .zip(raw_values.chunks_exact(packed));
        for (k, (index, value)) in entries.enumerate() {
            let i = index
                .iter()
                .rev()
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
            if i >= count {
                return Err(itrail
                    .then(&format!("bufferViews[{view}]"))
                    .error(format!(
                        "sparse index {i} (entry {k}) is not below the accessor's count {count}"
                    ))
                    .at(index_start + (k * index_layout.size) as u64));
            }
            let at = i as usize * packed;
            bytes[at..at + packed].copy_from_slice(value);
        }
        Ok(())
    }
}

/// Components of `N` little-endian bytes each, converted by `f`.
fn convert<const N: usize, T>(bytes: &[u8], f: impl Fn([u8; N]) -> T) -> Vec<T> {
    bytes
        .chunks_exact(N)
        .map(|c| {
            let mut a = [0u8; N];
            a.copy_from_slice(c);
            f(a)
        })
        .collect()
}

fn component_name(c: ComponentType) -> &'static str {
    match c {
        ComponentType::I8 => "BYTE",
        ComponentType::U8 => "UNSIGNED_BYTE",
        ComponentType::I16 => "SHORT",
        ComponentType::U16 => "UNSIGNED_SHORT",
        ComponentType::U32 => "UNSIGNED_INT",
        ComponentType::F32 => "FLOAT",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_the_exporters_encoding() {
        let data: Vec<u8> = (0..=255).collect();
        for n in 0..20 {
            let text = super::super::base64(&data[..n]);
            assert_eq!(decode_base64(&text).unwrap(), &data[..n]);
            // Unpadded and URL-safe forms too.
            let bare = text
                .trim_end_matches('=')
                .replace('+', "-")
                .replace('/', "_");
            assert_eq!(decode_base64(&bare).unwrap(), &data[..n]);
        }
        assert!(decode_base64("A").is_err());
    }

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
