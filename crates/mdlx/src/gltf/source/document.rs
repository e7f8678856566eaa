//! The container (GLB chunks, or JSON text) and the document: parsed, repaired where
//! `gltf_json` cannot hold what the spec allows, and checked.

use super::*;

/// The JSON and BIN chunks of a GLB.
pub(super) fn split_glb(data: &[u8]) -> Result<(&[u8], Option<&[u8]>), GltfError> {
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
pub(super) type Chunk<'a> = ([u8; 4], &'a [u8]);

/// Walks the chunks of a GLB after its header.
pub(super) struct Chunks<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Chunks<'a> {
    /// The next chunk's type and body; `None` at the end (fewer than 8 bytes left).
    pub(super) fn next_chunk(&mut self) -> Result<Option<Chunk<'a>>, GltfError> {
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
pub(super) fn parse_root(json: &[u8]) -> Result<(gltf_json::Root, Vec<GltfError>), GltfError> {
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
pub(super) fn repair(value: &mut serde_json::Value, notes: &mut Vec<GltfError>) -> bool {
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

pub(super) fn check_version(v: &str) -> Result<(), GltfError> {
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

pub(super) fn json_error(e: &serde_json::Error) -> GltfError {
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
pub(super) fn check_document(root: &gltf_json::Root) -> Result<(), GltfError> {
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
pub(super) fn tidy_path(path: &str) -> String {
    path.replace("[\"", ".").replace("\"]", "")
}

/// Validation errors that the spec allows or that do not stop the data being read.
pub(super) fn tolerated(path: &str, error: ValidationError) -> bool {
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

pub(super) fn validation_message(error: ValidationError) -> &'static str {
    match error {
        ValidationError::IndexOutOfBounds => "refers to an object that does not exist",
        ValidationError::Invalid => "invalid value",
        ValidationError::Missing => "required property missing",
        ValidationError::Oversize => "value too large",
        ValidationError::Unsupported => "extension not supported",
    }
}
