//! What the tests that ask outside judges (three.js, the glTF-Validator, Blender, the peer
//! tools) share: finding the judge, a scratch folder, reading its answers, and the size
//! errors are measured against.

use std::path::PathBuf;

/// The judge installed at `$var`, or `None` with a message when it is not set. Under CI
/// (`CI` set) a missing judge is a failure: `scripts/test.sh` prepares every judge.
pub fn judge_env(var: &str, what: &str) -> Option<PathBuf> {
    match std::env::var_os(var) {
        Some(v) => Some(PathBuf::from(v)),
        None if std::env::var_os("CI").is_some() => {
            panic!("{var} is not set under CI: {what} must run (scripts/test.sh prepares it)")
        }
        None => {
            eprintln!("{var} not set: {what} skipped (scripts/test.sh prepares it)");
            None
        }
    }
}

/// An empty scratch folder `mdlx-NAME-PID` in the temporary folder.
pub fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mdlx-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Positions as the pose judges send them: base64 of little-endian float32 x, y, z.
pub fn floats(s: &str) -> Vec<[f32; 3]> {
    mdlx::gltf::source::decode_base64(s)
        .unwrap_or_else(|e| panic!("a judge sent positions that are not base64: {e}"))
        .chunks_exact(12)
        .map(|c| {
            let f = |k: usize| f32::from_le_bytes([c[k], c[k + 1], c[k + 2], c[k + 3]]);
            [f(0), f(4), f(8)]
        })
        .collect()
}

/// The diagonal of the bounding box of the model's stored (rest-pose) vertices; 1 when
/// there are none. Pose errors are measured as fractions of it.
pub fn model_size(m: &mdlx::model::Model) -> f64 {
    let mut lo = [f64::MAX; 3];
    let mut hi = [f64::MIN; 3];
    for v in m.geosets.iter().flat_map(|g| &g.vertices) {
        if v.iter().all(|c| c.is_finite()) {
            for k in 0..3 {
                lo[k] = lo[k].min(f64::from(v[k]));
                hi[k] = hi[k].max(f64::from(v[k]));
            }
        }
    }
    let d: f64 = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt();
    if d.is_finite() && d > 0.0 {
        d
    } else {
        1.0
    }
}
