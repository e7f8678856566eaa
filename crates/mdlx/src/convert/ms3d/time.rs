//! Time: Milkshape frames against WC3 milliseconds, the frame ranges that become sequences,
//! and the model comment that lists them.

use crate::model::Model;
use crate::ms3d::{Comments, Document, Text};

/// Where a model comment lists the sequences (written by [`to_ms3d`](super::to_ms3d), read
/// by [`to_model`](super::to_model)).
pub(super) const SEQUENCES_PREFIX: &str = "mdlx sequences: ";

/// How Milkshape frames map to WC3 milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameRate {
    /// Frames per second (24 unless the caller knows better).
    pub fps: f32,
}

impl Default for FrameRate {
    fn default() -> Self {
        FrameRate { fps: 24.0 }
    }
}

impl FrameRate {
    /// Frame `f` (1 is the first) in milliseconds, rounded.
    pub fn ms(self, frame: f32) -> i32 {
        let ms = (f64::from(frame) - 1.0) * 1000.0 / f64::from(self.fps);
        ms.round().clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
    }

    /// Milliseconds as a frame number. A whole frame that rounds to these milliseconds is
    /// preferred, so that whole frames survive a trip through milliseconds.
    pub fn frame(self, ms: f64) -> f32 {
        let f = 1.0 + ms * f64::from(self.fps) / 1000.0;
        let whole = f.round() as f32;
        if f64::from(self.ms(whole)) == ms {
            whole
        } else {
            f as f32
        }
    }
}

// ---------------------------------------------------------------------------------------
// Milkshape -> model
// ---------------------------------------------------------------------------------------

/// A named range of Milkshape frames that becomes one sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameRange {
    /// The sequence name.
    pub name: String,
    /// First frame (1 is the first of the file).
    pub first: f32,
    /// Last frame.
    pub last: f32,
    /// Whether the sequence plays once instead of looping.
    pub non_looping: bool,
}

impl FrameRange {
    /// Parses `Name=first-last` (append `!` for a sequence that does not loop), as the CLI
    /// takes them: `"Stand=1-30,Walk=31-60!"`.
    pub fn parse_list(text: &str) -> Result<Vec<FrameRange>, String> {
        text.split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| {
                let (name, range) = p
                    .rsplit_once('=')
                    .ok_or_else(|| format!("{p:?}: expected Name=first-last"))?;
                let (range, non_looping) = match range.trim().strip_suffix('!') {
                    Some(r) => (r, true),
                    None => (range.trim(), false),
                };
                let (a, b) = range
                    .split_once('-')
                    .ok_or_else(|| format!("{p:?}: expected first-last"))?;
                let first: f32 = a.trim().parse().map_err(|e| format!("{p:?}: {e}"))?;
                let last: f32 = b.trim().parse().map_err(|e| format!("{p:?}: {e}"))?;
                if !(first.is_finite() && last.is_finite() && first <= last) {
                    return Err(format!("{p:?}: the range must run forwards"));
                }
                Ok(FrameRange {
                    name: name.trim().to_string(),
                    first,
                    last,
                    non_looping,
                })
            })
            .collect()
    }
}

/// The sequences a model comment written by [`to_ms3d`](super::to_ms3d) lists.
pub(super) fn ranges_from_comment(doc: &Document) -> Vec<FrameRange> {
    let Some(text) = doc.comments.as_ref().and_then(|c| c.model.as_ref()) else {
        return Vec::new();
    };
    let text = text.to_string_lossy();
    let Some(list) = text.strip_prefix(SEQUENCES_PREFIX) else {
        return Vec::new();
    };
    list.split(';')
        .filter_map(|item| {
            let mut parts = item.trim().splitn(2, ' ');
            let range = parts.next()?;
            let name = unescape(parts.next().unwrap_or(""));
            let (range, non_looping) = match range.strip_suffix('!') {
                Some(r) => (r, true),
                None => (range, false),
            };
            let (a, b) = range.split_once('-')?;
            Some(FrameRange {
                name,
                first: a.parse().ok()?,
                last: b.parse().ok()?,
                non_looping,
            })
        })
        .collect()
}

/// `%XX` for every byte that could end a list item or a name.
fn escape(name: &[u8]) -> String {
    name.iter()
        .map(|&b| {
            if b.is_ascii_alphanumeric() || b" _-.()".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 3 <= bytes.len() {
            if let Some(b) = std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The model comment that lists the written sequences (so that converting back restores
/// them); `None` when no sequence is written.
pub(super) fn sequences_comment(
    model: &Model,
    sequences: &[usize],
    rate: FrameRate,
) -> Option<Comments> {
    let list: Vec<String> = sequences
        .iter()
        .map(|&s| {
            let q = &model.sequences[s];
            format!(
                "{}-{}{} {}",
                rate.frame(f64::from(q.interval[0])),
                rate.frame(f64::from(q.interval[1])),
                if q.is_looping() { "" } else { "!" },
                escape(q.name.text_bytes())
            )
        })
        .collect();
    if list.is_empty() {
        return None;
    }
    Some(Comments {
        model: Some(Text(
            format!("{SEQUENCES_PREFIX}{}", list.join("; ")).into_bytes(),
        )),
        ..Default::default()
    })
}
