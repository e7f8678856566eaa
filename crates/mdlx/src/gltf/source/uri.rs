//! Buffers, URIs and external files: `data:` URIs decoded, relative paths read beside the
//! file, every other scheme refused.

use super::*;

/// The bytes of buffer `i`, exactly `byteLength` long.
pub(super) fn load_buffer(
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
pub(super) enum Uri {
    /// A `data:` URI, decoded, with its media type when it names one.
    Data {
        mime: Option<String>,
        bytes: Vec<u8>,
    },
    /// A relative path, percent-decoded.
    File(PathBuf),
}

pub(super) fn resolve_uri(uri: &str, path: &str) -> Result<Uri, GltfError> {
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
pub(super) fn uri_scheme(uri: &str) -> Option<&str> {
    let colon = uri.find(':')?;
    let scheme = &uri[..colon];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    let ok = first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    ok.then_some(scheme)
}

/// The part of a `data:` URI after `data:`.
pub(super) fn data_uri(rest: &str) -> Result<Uri, String> {
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
pub(crate) fn percent_decode(text: &str) -> Result<Vec<u8>, String> {
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
pub(super) fn read_external(
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
pub(crate) fn sniff_mime(bytes: &[u8]) -> Option<&'static str> {
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
