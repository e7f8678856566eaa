//! What the tests that ask outside judges (three.js, the glTF-Validator, Blender, the peer
//! tools) share: finding the judge, a scratch folder, reading its answers, and the size
//! errors are measured against.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The judge installed at `$var`, or `None` with a message when it is not set. Under CI
/// (`CI` set) a missing judge is a failure: `scripts/test.sh` prepares every judge.
pub(crate) fn judge_env(var: &str, what: &str) -> Option<PathBuf> {
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
pub(crate) fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mdlx-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Positions as the pose judges send them: base64 of little-endian float32 x, y, z.
pub(crate) fn floats(s: &str) -> Vec<[f32; 3]> {
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
pub(crate) fn model_size(m: &mdlx::model::Model) -> f64 {
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

/// Pillow from `scripts/pillow-oracle.sh`'s venv (`PILLOW_DIR`, default /tmp/mdlx-pillow),
/// or `None` with a message naming `test` when it is not there; under CI a missing Pillow
/// is a failure.
pub(crate) fn pillow_python(test: &str) -> Option<PathBuf> {
    let base = std::env::var_os("PILLOW_DIR").unwrap_or_else(|| "/tmp/mdlx-pillow".into());
    let python = Path::new(&base).join("venv/bin/python");
    if python.exists() {
        Some(python)
    } else if std::env::var_os("CI").is_some() {
        panic!(
            "no Pillow venv at {}: run scripts/pillow-oracle.sh",
            python.display()
        );
    } else {
        eprintln!("{test}: no Pillow at {}; skipped", python.display());
        None
    }
}

/// Runs three.js's pose judge (`tools/gltf-judges/pose.mjs`, installed at `judges`) on the
/// request file `request`; its answers, one JSON line per job, as text.
pub(crate) fn run_pose_mjs(judges: &Path, request: &Path) -> String {
    let out = Command::new("node")
        .arg(super::repo().join("tools/gltf-judges/pose.mjs"))
        .arg(request)
        .env("MDLX_GLTF_JUDGES", judges)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "pose.mjs failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs a peer tool's `roundtrip DIR` (the binary `peer` in `bin`) and returns what it
/// printed.
pub(crate) fn peer_roundtrip_output(bin: &Path, peer: &str, dir: &Path) -> Output {
    Command::new(bin.join(peer))
        .arg("roundtrip")
        .arg(dir)
        .output()
        .unwrap_or_else(|e| panic!("{peer}: {e}"))
}

/// Has Pillow (`python`) open each file `dir/NAME+ext`, print `NAME FORMAT WIDTH HEIGHT` and
/// save the image as RGBA PNG to `dir/NAME.png`; returns what it printed, a line a file.
pub(crate) fn pillow_to_png<'a>(
    python: &Path,
    dir: &Path,
    ext: &str,
    names: impl IntoIterator<Item = &'a str>,
) -> String {
    let script = "import sys\nfrom PIL import Image\nfor n in sys.argv[3:]:\n    \
        im = Image.open(f'{sys.argv[1]}/{n}{sys.argv[2]}')\n    \
        print(n, im.format, im.size[0], im.size[1])\n    \
        im.convert('RGBA').save(f'{sys.argv[1]}/{n}.png')\n";
    let out = Command::new(python)
        .arg("-c")
        .arg(script)
        .arg(dir)
        .arg(ext)
        .args(names)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8(out.stdout).unwrap();
    eprint!("Pillow: {said}");
    said
}

/// StormLib's `smpq` (`MDLX_SMPQ`, set by `scripts/smpq-judge.sh`), or `None` with a
/// message; under CI a missing `smpq` is a failure.
pub(crate) fn smpq() -> Option<PathBuf> {
    judge_env("MDLX_SMPQ", "the StormLib (smpq) comparison")
}

/// Writes a source (`srcdir/{i:04}.mdx`, its bytes `data`) and what an edit made of it
/// (`outdir/{i:04}.mdx`) for [`peers_read`]; returns the output's path and `i`.
pub(crate) fn write_pair(
    srcdir: &Path,
    outdir: &Path,
    i: usize,
    data: &[u8],
    m: &mdlx::Model,
) -> (PathBuf, usize) {
    std::fs::write(srcdir.join(format!("{i:04}.mdx")), data).unwrap();
    let path = outdir.join(format!("{i:04}.mdx"));
    let bytes = mdlx::write(m, mdlx::Format::Mdx, &mdlx::WriteOptions::default())
        .unwrap()
        .bytes;
    std::fs::write(&path, bytes).unwrap();
    (path, i)
}

/// What each peer (`m3v`, `w3m`, `wc3rs` under `MDLX_PEERS_BIN`) fails to read of `outdir`
/// that it reads of `srcdir`, where `written` pairs each output with the index its source
/// is named by (`{index:04}.mdx`; an output whose source is not there, an MDL one, is not
/// judged): asserts there is none, and prints what each judged.
pub(crate) fn peers_read(srcdir: &Path, outdir: &Path, written: &[(PathBuf, usize)], test: &str) {
    let Some(bin) = judge_env("MDLX_PEERS_BIN", "the peer reads") else {
        return;
    };
    let fails = |peer: &str, dir: &Path| -> std::collections::BTreeMap<String, String> {
        let out = peer_roundtrip_output(&bin, peer, dir);
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.strip_prefix("FAIL\t"))
            .map(|l| {
                let (n, w) = l.split_once('\t').unwrap_or((l, ""));
                (n.to_string(), w.to_string())
            })
            .collect()
    };
    let mut bad = Vec::new();
    for peer in ["m3v", "w3m", "wc3rs"] {
        let (src_fail, out_fail) = (fails(peer, srcdir), fails(peer, outdir));
        let mut judged = 0;
        for (path, i) in written {
            let source = format!("{i:04}.mdx");
            if !srcdir.join(&source).exists() || src_fail.contains_key(&source) {
                continue;
            }
            judged += 1;
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if let Some(why) = out_fail.get(&name) {
                bad.push(format!("{peer}: {name}: {why}"));
            }
        }
        println!(
            "{test}: {peer} read {} of the {judged} results whose source it reads",
            judged - bad.iter().filter(|b| b.starts_with(peer)).count()
        );
    }
    for b in &bad {
        println!("  peer: {b}");
    }
    assert!(
        bad.is_empty(),
        "{} results a peer could not read",
        bad.len()
    );
}
