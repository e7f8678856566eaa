//! The finished document: the losses counted on the way, the scene, the buffer, and the
//! two containers (`.glb`, `.gltf` with the buffer inline).

use super::buffer::Bin;
use super::material::Materials;
use super::{Export, Losses, MAX_CYCLE_KEYS, MAX_EXPORT_CYCLE_KEYS};
use crate::convert::gltf::curves::Notes;
use crate::model::Model;
use gltf_json::validation::USize64;
use gltf_json::{Index, Root};

impl Export {
    /// The `.glb` file: the JSON and the buffer in one binary container.
    pub fn to_glb(&self) -> Vec<u8> {
        let json = serde_json::to_vec(&self.document).expect("a glTF document serialises");
        glb(&json, &self.bin)
    }

    /// A `.gltf` file that holds everything: the buffer as a base64 `data:` URI.
    pub fn to_gltf(&self) -> String {
        let mut doc = self.document.clone();
        if let Some(b) = doc.buffers.first_mut() {
            b.uri = Some(format!(
                "data:application/octet-stream;base64,{}",
                base64(&self.bin)
            ));
        }
        serde_json::to_string_pretty(&doc).expect("a glTF document serialises")
    }
}

/// A GLB container: `json` (padded with spaces) and, when not empty, `bin` (padded with
/// zeros) as its two chunks.
pub fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let json_len = json.len().next_multiple_of(4);
    let bin_len = bin.len().next_multiple_of(4);
    let total = 12 + 8 + json_len + if bin_len == 0 { 0 } else { 8 + bin_len };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json_len as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(json);
    out.resize(20 + json_len, b' ');
    if bin_len > 0 {
        out.extend_from_slice(&(bin_len as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(bin);
        out.resize(total, 0);
    }
    out
}

pub(super) fn base64(data: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        s.push(A[(n >> 18) as usize & 63] as char);
        s.push(A[(n >> 12) as usize & 63] as char);
        s.push(if c.len() > 1 {
            A[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        s.push(if c.len() > 2 {
            A[n as usize & 63] as char
        } else {
            '='
        });
    }
    s
}

/// The losses counted on the way, the materials' textures, the scene and the buffer: the
/// finished [`Export`].
pub(super) fn finish(
    model: &Model,
    mut root: Root,
    bin: Bin,
    mut losses: Losses,
    notes: Notes,
    materials: Materials,
    scene_nodes: Vec<Index<gltf_json::Node>>,
) -> Export {
    if notes.rotation_error > 0.0 || notes.rotation_jumps > 0 {
        let jumps = if notes.rotation_jumps > 0 {
            format!(
                "; {} jumps of the game's own spline kept as straight lines 2^-16 of a key interval long",
                notes.rotation_jumps
            )
        } else {
            String::new()
        };
        losses.add(
            "rotation tracks",
            format!(
                "Hermite/Bezier rotations resampled to linear keys (largest error {:.2e} rad{jumps})",
                notes.rotation_error
            ),
        );
    }
    if notes.truncated {
        losses.add(
            "global sequences",
            format!(
                "global sequence cycles cut short ({MAX_CYCLE_KEYS} keys per track and animation, {MAX_EXPORT_CYCLE_KEYS} in all)"
            ),
        );
    }
    for (i, _) in model.face_effects.iter().enumerate() {
        losses.add(format!("FaceEffect[{i}]"), "face effect not carried");
    }
    if !model.unknown_chunks.is_empty() {
        losses.add(
            format!("{} chunks", model.unknown_chunks.len()),
            "unknown chunks not carried",
        );
    }

    let missing_textures = materials.finish(&mut root, &mut losses);

    root.push(gltf_json::Scene {
        extensions: None,
        extras: Default::default(),
        name: Some("Scene".into()),
        nodes: scene_nodes,
    });
    root.scene = Some(Index::new(0));
    if !bin.data.is_empty() {
        root.push(gltf_json::Buffer {
            byte_length: USize64::from(bin.data.len()),
            name: None,
            uri: None,
            extensions: None,
            extras: Default::default(),
        });
    }
    root.extensions_used.sort();
    root.extensions_used.dedup();
    Export {
        document: root,
        bin: bin.data,
        losses: losses.into_list(),
        missing_textures,
        rotation_error: notes.rotation_error,
    }
}

#[cfg(test)]
mod tests {
    use super::base64;
    use crate::gltf::source::decode_base64;

    #[test]
    fn base64_round_trips_the_exporters_encoding() {
        let data: Vec<u8> = (0..=255).collect();
        for n in 0..20 {
            let text = base64(&data[..n]);
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
}
