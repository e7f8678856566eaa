//! Outputs appear whole or not at all, inputs are never touched, and a folder conversion
//! goes on past bad files. Runs the real `mdlx` binary.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn mdlx() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mdlx"))
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mdlx-safe-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The largest MDX of the corpus: its MDL is several megabytes, so writing takes a while.
fn largest_mdx() -> PathBuf {
    std::fs::read_dir(corpus().join("mdx"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("mdx")))
        .max_by_key(|p| std::fs::metadata(p).unwrap().len())
        .unwrap()
}

/// Every file in `dir`, by name.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A conversion over an existing target whose write fails partway (the file size limit is
/// set below the output's size, and SIGXFSZ ignored, so `write` returns EFBIG): the command
/// fails, the target keeps its old bytes, no temporary file is left and the input is
/// unchanged.
#[test]
fn a_write_that_fails_midway_leaves_the_old_target_and_no_temporary() {
    let dir = temp_dir("efbig");
    let input = largest_mdx();
    let before = std::fs::read(&input).unwrap();
    let target = dir.join("out.mdl");
    std::fs::write(&target, b"the old file\n").unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 64; exec \"$0\" convert \"$1\" \"$2\"")
        .arg(env!("CARGO_BIN_EXE_mdlx"))
        .arg(&input)
        .arg(&target)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot write"), "{err}");
    assert_eq!(std::fs::read(&target).unwrap(), b"the old file\n");
    assert_eq!(names(&dir), ["out.mdl"], "a temporary file was left behind");
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

/// Conversions killed (SIGKILL) at many moments: spread over the time a whole conversion
/// takes, and right after the temporary output appears (that is, while it is being
/// written). The target is always either the old file or the whole new one, never a
/// partial file. A killed process cannot remove its temporary file; the test counts those
/// but only asks that the target is whole.
#[test]
fn a_conversion_killed_midway_never_leaves_a_partial_target() {
    let dir = temp_dir("kill");
    let input = largest_mdx();
    let before = std::fs::read(&input).unwrap();
    let reference = dir.join("reference.mdl");
    let started = Instant::now();
    let ok = mdlx()
        .arg("convert")
        .arg(&input)
        .arg(&reference)
        .status()
        .unwrap();
    let whole = started.elapsed();
    assert!(ok.success());
    let new = std::fs::read(&reference).unwrap();
    let old = b"the old file\n".to_vec();
    let target = dir.join("out.mdl");
    let temporaries = |dir: &Path| names(dir).iter().filter(|n| n.ends_with(".tmp")).count();

    let rounds = 30u32;
    let (mut kept_old, mut got_new, mut during_write) = (0, 0, 0);
    for i in 0..rounds {
        std::fs::write(&target, &old).unwrap();
        let tmp_before = temporaries(&dir);
        let mut child = mdlx()
            .arg("convert")
            .arg(&input)
            .arg(&target)
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        if i % 2 == 0 {
            // Spread from 0 to 1.2 times a whole conversion.
            std::thread::sleep(whole * 6 * i / (5 * rounds));
        } else {
            // As soon as the temporary output exists.
            let deadline = Instant::now() + whole * 4 + Duration::from_secs(2);
            while temporaries(&dir) == tmp_before && Instant::now() < deadline {
                std::thread::sleep(Duration::from_micros(200));
            }
            during_write += usize::from(temporaries(&dir) > tmp_before);
        }
        let _ = child.kill();
        child.wait().unwrap();
        let now = std::fs::read(&target).unwrap();
        if now == old {
            kept_old += 1;
        } else if now == new {
            got_new += 1;
        } else {
            panic!(
                "kill {i}: the target is neither the old file nor the new one ({} bytes)",
                now.len()
            );
        }
    }
    println!(
        "killed {rounds} conversions ({} ms each when whole; {during_write} killed while the temporary was being written): target old {kept_old}, new {got_new}; {} temporary file(s) left by killed processes",
        whole.as_millis(),
        temporaries(&dir)
    );
    assert!(
        during_write > 0,
        "no kill landed while the output was being written"
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

/// The whole corpus (MDX and MDL, linked into one folder tree) plus one corrupt file,
/// converted to MDL as a folder: every other file converts, the corrupt one is reported,
/// the exit code is 1. Then the MDL folder converts back to MDX and every classic and
/// Reforged MDX comes back byte for byte.
#[test]
fn a_folder_conversion_goes_past_a_corrupt_file_and_reports_it() {
    let dir = temp_dir("folder");
    let src = dir.join("in");
    let mut mdx_inputs = Vec::new();
    let mut count = 0;
    for sub in ["mdx", "mdl"] {
        std::fs::create_dir_all(src.join(sub)).unwrap();
        for e in std::fs::read_dir(corpus().join(sub)).unwrap() {
            let p = e.unwrap().path();
            let ext = p
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            if ext != sub {
                continue; // `.mdx.txt` / `.mdl.txt`: not picked by extension
            }
            symlink(&p, src.join(sub).join(p.file_name().unwrap())).unwrap();
            if sub == "mdx" {
                mdx_inputs.push(p);
            }
            count += 1;
        }
    }
    let good = std::fs::read(&mdx_inputs[0]).unwrap();
    std::fs::write(src.join("mdx/corrupt.mdx"), &good[..good.len() / 3]).unwrap();
    count += 1;

    let out = dir.join("out");
    let r = mdlx()
        .args(["convert", "--to", "mdl"])
        .arg(&src)
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{err}");
    let listed: Vec<&str> = err
        .split("file(s) failed:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no failure list in\n{err}"))
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
        .collect();
    // The corrupt file, and only it (the WoW alpha boar converts, as a version-800 model).
    assert_eq!(listed.len(), 1, "{listed:#?}");
    assert!(listed
        .iter()
        .any(|l| l.contains("corrupt.mdx") && l.contains("at offset 0x")));
    assert!(
        err.contains(&format!("converted {} of {count} file(s)", count - 1)),
        "{err}"
    );
    let written = names(&out.join("mdx")).len() + names(&out.join("mdl")).len();
    assert_eq!(written, count - 1);

    let back = dir.join("back");
    let r = mdlx()
        .args(["convert", "--to", "mdx"])
        .arg(out.join("mdx"))
        .arg(&back)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let mut same = 0;
    for p in &mdx_inputs {
        let name = Path::new(p.file_name().unwrap()).with_extension("mdx");
        let again = std::fs::read(back.join(&name)).unwrap();
        if mdlx::alpha::is_alpha(&std::fs::read(p).unwrap()) {
            // Converted to a version-800 model on the way: not the same bytes by design.
            assert!(mdlx::mdx::from_bytes(&again).is_ok_and(|m| m.version == 800));
            continue;
        }
        assert!(
            again == std::fs::read(p).unwrap(),
            "{name:?} differs after MDX -> MDL -> MDX"
        );
        same += 1;
    }
    println!("folder conversion: {} of {count} converted to MDL (1 corrupt); {same} MDX identical after the trip back (the alpha boar came back as version 800)", count - 1);
    assert_eq!(same, mdx_inputs.len() - 1);
    let _ = std::fs::remove_dir_all(&dir);
}
