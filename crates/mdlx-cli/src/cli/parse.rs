//! The parsers of the options' values (`--size`, `--team-color`, `--resize`...) and the
//! types they give: the command line's own vocabulary, which the verbs take as parsed.

use mdlx::formats::FORMATS;

/// How `--resize` resizes a texture before writing it (nearest neighbour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Resize {
    /// Each side to its nearest power of two (`pow2`).
    PowerOfTwo,
    /// To this size (`WxH`).
    To(u32, u32),
    /// Each side to a power of two no larger than this (`max:N`, N a power of two); the
    /// other side keeps its proportion, rounded to a power of two too.
    Max(u32),
}

impl Resize {
    /// Reads `pow2`, `WxH` or `max:N`.
    pub(crate) fn parse(text: &str) -> Result<Resize, String> {
        let bad = || {
            format!("{text:?}: --resize takes pow2 (nearest powers of two), WxH (e.g. 256x256) or max:N (N a power of two)")
        };
        if text.eq_ignore_ascii_case("pow2") {
            return Ok(Resize::PowerOfTwo);
        }
        if let Some(n) = text.strip_prefix("max:") {
            let n: u32 = n.parse().map_err(|_| bad())?;
            return if n.is_power_of_two() && n <= 8192 {
                Ok(Resize::Max(n))
            } else {
                Err(bad())
            };
        }
        let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
        let (w, h): (u32, u32) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
        if w == 0 || h == 0 || w > 8192 || h > 8192 {
            return Err(bad());
        }
        Ok(Resize::To(w, h))
    }
}

/// The names `--to` takes, in the table's order.
pub(crate) fn format_names() -> Vec<&'static str> {
    FORMATS.iter().filter(|f| f.write).map(|f| f.name).collect()
}

/// `--size`: `N` or `WxH`, each 1 to 8192.
pub(crate) fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let one = |t: &str| -> Result<u32, String> {
        match t.trim().parse::<u32>() {
            Ok(n) if (1..=8192).contains(&n) => Ok(n),
            _ => Err(format!("'{t}' is not a size from 1 to 8192 pixels")),
        }
    };
    match text.split_once(['x', 'X']) {
        Some((w, h)) => Ok((one(w)?, one(h)?)),
        None => one(text).map(|n| (n, n)),
    }
}

pub(crate) fn parse_hex(text: &str) -> Option<[u8; 3]> {
    let h = text.strip_prefix('#')?;
    if h.len() != 6 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let v = u32::from_str_radix(h, 16).ok()?;
    Some([(v >> 16) as u8, (v >> 8) as u8, v as u8])
}

/// `--team-color`: a player number or `#RRGGBB`.
pub(crate) fn parse_team(text: &str) -> Result<[u8; 3], String> {
    if let Some(c) = parse_hex(text) {
        return Ok(c);
    }
    match text.parse::<usize>() {
        Ok(n) if n < mdlx::render::TEAM_COLORS.len() => Ok(mdlx::render::TEAM_COLORS[n]),
        _ => Err(format!(
            "'{text}' is neither a player number (0 to {}) nor #RRGGBB",
            mdlx::render::TEAM_COLORS.len() - 1
        )),
    }
}

/// `--background`: `transparent` or `#RRGGBB`.
pub(crate) fn parse_background(text: &str) -> Result<[u8; 4], String> {
    if text.eq_ignore_ascii_case("transparent") {
        return Ok([0; 4]);
    }
    parse_hex(text)
        .map(|[r, g, b]| [r, g, b, 255])
        .ok_or_else(|| format!("'{text}' is neither 'transparent' nor #RRGGBB"))
}

/// Parses `X,Y,Z`.
pub(crate) fn parse_view(text: &str) -> Result<[f32; 3], String> {
    let parts: Vec<f32> = text
        .split(',')
        .map(|p| p.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("expected X,Y,Z: {e}"))?;
    match parts[..] {
        [x, y, z] if (x * x + y * y + z * z) > 0.0 => Ok([x, y, z]),
        [_, _, _] => Err("the view direction cannot be zero".into()),
        _ => Err("expected three numbers: X,Y,Z".into()),
    }
}

/// `--fps`: a positive, finite number.
pub(super) fn parse_fps(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(f) if f.is_finite() && f > 0.0 => Ok(f),
        Ok(_) => Err("must be a positive number of frames per second".into()),
        Err(e) => Err(format!("expected a number: {e}")),
    }
}

/// `--time`: a finite number of milliseconds.
pub(super) fn parse_time(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if t.is_finite() => Ok(t),
        Ok(_) => Err("must be a finite number of milliseconds".into()),
        Err(e) => Err(format!("expected a number of milliseconds: {e}")),
    }
}
