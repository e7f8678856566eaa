//! Blender as a judge: the three Blenders the tests run (`scripts/blender-versions.sh`
//! prepares them), and `tools/blender-roundtrip/roundtrip.py` run in one of them over a
//! batch of jobs (a glTF in, Blender's own importer, edits, its own exporter, a glTF out).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One Blender: its label, the variable that names it, and whether it is the binary (3.4)
/// or a Python with the `bpy` module.
pub(crate) struct Blender {
    pub(crate) label: &'static str,
    pub(crate) var: &'static str,
    pub(crate) binary: bool,
}

pub(crate) const BLENDERS: [Blender; 3] = [
    Blender {
        label: "3.4",
        var: "MDLX_BLENDER",
        binary: true,
    },
    Blender {
        label: "4.5",
        var: "MDLX_BPY45",
        binary: false,
    },
    Blender {
        label: "5.0",
        var: "MDLX_BPY50",
        binary: false,
    },
];

/// Starts `roundtrip.py` in Blender `b` (at `exe`) over `jobs` (roundtrip.py's job
/// objects: `input`, `output`, and `tag`, `edits`, ... as it takes them), its request,
/// log and answers in `dir`.
pub(crate) fn start_blender(
    b: &Blender,
    exe: &Path,
    dir: &Path,
    jobs: &[serde_json::Value],
) -> std::process::Child {
    let script = super::repo().join("tools/blender-roundtrip/roundtrip.py");
    let request = dir.join(format!("request-{}.json", b.label));
    std::fs::write(&request, serde_json::json!({ "jobs": jobs }).to_string()).unwrap();
    let log = std::fs::File::create(dir.join(format!("blender-{}.log", b.label))).unwrap();
    let mut cmd = Command::new(exe);
    if b.binary {
        cmd.args(["-b", "--factory-startup", "--python"])
            .arg(&script)
            .arg("--");
    } else {
        cmd.arg(&script);
    }
    cmd.arg(&request)
        .arg(answers_path(b, dir))
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .expect("Blender starts")
}

fn answers_path(b: &Blender, dir: &Path) -> PathBuf {
    dir.join(format!("answers-{}.jsonl", b.label))
}

/// The JSON lines Blender `b` wrote in `dir`, by `key` (`input`, or `tag`).
pub(crate) fn answers_by(
    b: &Blender,
    dir: &Path,
    key: &str,
) -> BTreeMap<String, serde_json::Value> {
    let text = std::fs::read_to_string(answers_path(b, dir)).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| (v[key].as_str().unwrap_or("").to_string(), v))
        .collect()
}

/// The JSON lines Blender `b` wrote in `dir`, by input file.
pub(crate) fn read_answers(b: &Blender, dir: &Path) -> BTreeMap<String, serde_json::Value> {
    answers_by(b, dir, "input")
}
