//! `mdlx roundtrip PATH...`: decode and re-encode every .mdx, compare the bytes.
//! One TAB-separated line per file (`OK`, `DIFF` with the first differing offset and both
//! sizes, or `FAIL` with the error), then `N passed, M failed`. With `--json`, one object
//! per file and a summary object, one per line.
//!
//! Warcraft III files of every version go through the MDX codec, WoW alpha-family files
//! through their own ([`mdlx::alpha`]). With `--via mdl` a Warcraft III model goes through
//! MDL text on the way (MDX -> MDL -> MDX); MDL cannot hold the alpha family, so its files
//! go through their own codec and their line says so. Files run in parallel; lines come
//! out in path order.

use anyhow::Result;
use rayon::prelude::*;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Runs the verb. Exits 1 if any file did not round-trip.
pub(crate) fn run(paths: &[PathBuf], via_mdl: bool, as_json: bool) -> Result<ExitCode> {
    let files = crate::files::find(paths, &["mdx"], &[])?;
    let results: Vec<Checked> = files.par_iter().map(|f| check(f, via_mdl)).collect();
    let mut out = std::io::stdout().lock();
    let passed = results.iter().filter(|c| c.status == "OK").count();
    let failed = results.len() - passed;
    for c in &results {
        if as_json {
            writeln!(out, "{}", c.to_json())?;
        } else {
            writeln!(out, "{}", c.line())?;
        }
    }
    if as_json {
        writeln!(out, "{}", json!({"passed": passed, "failed": failed}))?;
    } else {
        writeln!(out, "{passed} passed, {failed} failed")?;
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// One file's result.
struct Checked {
    file: String,
    /// `OK`, `DIFF` or `FAIL`.
    status: &'static str,
    /// The codec used: `mdx`, `mdx via mdl`, `wow-alpha`.
    codec: &'static str,
    /// The file's version, when it was read.
    version: Option<u32>,
    /// DIFF: the first differing offset and both sizes.
    diff: Option<(usize, usize, usize)>,
    /// FAIL: the error; OK of an alpha file with --via mdl: why not via MDL.
    message: Option<String>,
}

impl Checked {
    fn line(&self) -> String {
        let mut line = format!("{}\t{}", self.status, self.file);
        if let Some((at, len_in, len_out)) = self.diff {
            line.push_str(&format!("\t{at:#x}\tin={len_in} out={len_out}"));
        }
        if let Some(m) = &self.message {
            line.push('\t');
            line.push_str(&m.replace(['\n', '\t'], " "));
        }
        line
    }

    fn to_json(&self) -> serde_json::Value {
        let mut v = json!({
            "file": self.file,
            "status": self.status.to_ascii_lowercase(),
            "codec": self.codec,
            "version": self.version,
        });
        if let Some((at, len_in, len_out)) = self.diff {
            v["first_difference"] = json!(at);
            v["input_bytes"] = json!(len_in);
            v["output_bytes"] = json!(len_out);
        }
        if let Some(m) = &self.message {
            v[if self.status == "FAIL" {
                "error"
            } else {
                "note"
            }] = json!(m);
        }
        v
    }
}

fn check(path: &Path, via_mdl: bool) -> Checked {
    let mut c = Checked {
        file: path.display().to_string(),
        status: "FAIL",
        codec: "mdx",
        version: None,
        diff: None,
        message: None,
    };
    let data = match std::fs::read(path) {
        Ok(d) => d,
        Err(e) => {
            c.message = Some(format!("cannot read: {e}"));
            return c;
        }
    };
    let alpha = mdlx::identify(&data) == mdlx::Content::Model(mdlx::Format::AlphaMdx);
    if alpha {
        c.codec = "wow-alpha";
        if via_mdl {
            c.message = Some("WoW alpha family: through its own codec, not MDL".into());
        }
    } else if via_mdl {
        c.codec = "mdx via mdl";
    }
    let out = if alpha {
        mdlx::alpha::from_bytes(&data)
            .map_err(|e| e.to_string())
            .and_then(|m| {
                c.version = Some(m.version);
                mdlx::alpha::to_bytes(&m).map_err(|e| e.to_string())
            })
    } else {
        encode_again(&data, via_mdl, &mut c.version)
    };
    let out = match out {
        Ok(out) => out,
        Err(e) => {
            c.message = Some(e);
            return c;
        }
    };
    if out == data {
        c.status = "OK";
        return c;
    }
    let at = out
        .iter()
        .zip(&data)
        .position(|(a, b)| a != b)
        .unwrap_or(out.len().min(data.len()));
    c.status = "DIFF";
    c.diff = Some((at, data.len(), out.len()));
    c
}

fn encode_again(data: &[u8], via_mdl: bool, version: &mut Option<u32>) -> Result<Vec<u8>, String> {
    let mut model = mdlx::mdx::from_bytes(data).map_err(|e| e.to_string())?;
    *version = Some(model.version);
    if via_mdl {
        let text = mdlx::mdl::to_bytes(&model);
        model =
            mdlx::mdl::from_bytes(&text).map_err(|e| format!("the MDL does not read back: {e}"))?;
    }
    mdlx::mdx::to_bytes(&model).map_err(|e| e.to_string())
}
