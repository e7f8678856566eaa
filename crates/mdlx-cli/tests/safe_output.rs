//! Outputs appear whole or not at all, inputs are never touched, and a folder conversion
//! goes on past bad files. Runs the real `mdlx` binary.

mod common;
use common::*;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The largest MDX of the corpus: its MDL is several megabytes, so writing takes a while.
fn largest_mdx() -> PathBuf {
    std::fs::read_dir(corpus().join("mdx"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("mdx")))
        .max_by_key(|p| std::fs::metadata(p).unwrap().len())
        .unwrap()
}

/// Whether `p` is a symbolic link (not following it).
fn is_link(p: impl AsRef<Path>) -> bool {
    std::fs::symlink_metadata(p)
        .unwrap()
        .file_type()
        .is_symlink()
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
    let ok = command()
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
        let mut child = command()
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
    let r = command()
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
    // The corrupt file, and the MDL fragments: test fixtures of other parsers that hold one
    // block and no Model block (told here by a plain look for a `Model` line), which are no
    // model the game loads. The WoW alpha boar converts, as a version-800 model.
    let fragments: Vec<String> = std::fs::read_dir(src.join("mdl"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let text = String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
            !text.lines().any(|l| l.trim_start().starts_with("Model "))
        })
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(listed.len(), 1 + fragments.len(), "{listed:#?}");
    assert!(listed
        .iter()
        .any(|l| l.contains("corrupt.mdx") && l.contains("at offset 0x")));
    for f in &fragments {
        assert!(
            listed.iter().any(|l| l.contains(f.as_str())),
            "{f} not listed"
        );
    }
    assert!(err.contains("error: no Model block"), "{err}");
    let converted = count - 1 - fragments.len();
    assert!(
        err.contains(&format!("converted {converted} of {count} file(s)")),
        "{err}"
    );
    let written = names(&out.join("mdx")).len() + names(&out.join("mdl")).len();
    assert_eq!(written, converted);

    let back = dir.join("back");
    let r = command()
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
    println!("folder conversion: {converted} of {count} converted to MDL (1 corrupt, {} MDL fragments without a Model block refused); {same} MDX identical after the trip back (the alpha boar came back as version 800)", fragments.len());
    assert_eq!(same, mdx_inputs.len() - 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `mdlx` with `args`, stdin from `input`, and returns (status, stdout, stderr).
fn run_with_stdin(args: &[&str], input: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    use std::io::Write;
    let mut child = command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    (
        out.status.code(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_output_symlink_is_written_through_to_its_target_and_stays_a_link() {
    let dir = temp_dir("symlink");
    std::fs::create_dir_all(dir.join("real")).unwrap();
    let target = dir.join("real/cube.mdl");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.mdl");
    symlink("real/cube.mdl", &link).unwrap();
    let r = mdlx(&["convert", &cube(), &s(&link)]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(is_link(&link));
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .starts_with("Version {"));
    // The temporary went beside the target, and is gone.
    assert_eq!(names(&dir.join("real")), ["cube.mdl"]);
    assert_eq!(names(&dir), ["link.mdl", "real"]);
}

#[test]
fn a_dangling_output_symlink_creates_its_target() {
    let dir = temp_dir("dangling");
    let link = dir.join("link.mdx");
    symlink("made.mdx", &link).unwrap();
    let r = mdlx(&["convert", &cube(), &s(&link)]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(is_link(&link));
    assert_eq!(
        std::fs::read(dir.join("made.mdx")).unwrap(),
        std::fs::read(cube()).unwrap()
    );
}

#[test]
fn an_output_symlink_to_the_input_is_refused() {
    let dir = temp_dir("link-to-input");
    let input = dir.join("in.mdx");
    std::fs::copy(cube(), &input).unwrap();
    let link = dir.join("out.mdx");
    symlink(&input, &link).unwrap();
    let r = command()
        .arg("convert")
        .arg(&input)
        .arg(&link)
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("refusing to write over the input"));
    assert_eq!(
        std::fs::read(&input).unwrap(),
        std::fs::read(cube()).unwrap()
    );
}

#[test]
fn special_files_are_written_into_never_replaced() {
    // /dev/null stays the character device.
    let r = mdlx(&["convert", &cube(), "/dev/null", "--to", "mdl"]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());

    // /dev/stdout: the text arrives on standard output and the link stays.
    let r = mdlx(&["convert", &cube(), "/dev/stdout", "--to", "mdl"]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(String::from_utf8_lossy(&r.stdout).starts_with("Version {"));
    assert!(is_link("/dev/stdout"));

    // A named pipe: a reader on the other end gets the whole file; the pipe stays a pipe.
    let dir = temp_dir("fifo");
    let fifo = dir.join("pipe.mdx");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let r = mdlx(&["convert", &cube(), &s(&fifo)]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(reader.join().unwrap(), std::fs::read(cube()).unwrap());
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(names(&dir), ["pipe.mdx"]);
}

#[test]
fn dash_reads_standard_input_and_writes_standard_output() {
    let cube_bytes = std::fs::read(cube()).unwrap();
    // MDX in on stdin, MDL out on stdout.
    let (code, out, err) = run_with_stdin(&["convert", "-", "-", "--to", "mdl"], &cube_bytes);
    assert_eq!(code, Some(0), "{err}");
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("Version {"), "{text}");
    // And back: MDL on stdin, MDX on stdout, byte-identical to the cube.
    let (code, out, err) = run_with_stdin(&["convert", "-", "-", "--to", "mdx"], text.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, cube_bytes);
    // No file named `-` appears.
    let dir = temp_dir("dash");
    let r = command()
        .current_dir(&dir)
        .arg("convert")
        .arg(cube())
        .args(["-", "--to", "mdx"])
        .output()
        .unwrap();
    assert!(r.status.success());
    assert_eq!(r.stdout, cube_bytes);
    assert!(names(&dir).is_empty());
    // Standard output needs a format.
    let r = mdlx(&["convert", &cube(), "-"]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("needs --to"));
    // Info reads standard input too.
    let (code, out, err) = run_with_stdin(&["info", "-"], &cube_bytes);
    assert_eq!(code, Some(0), "{err}");
    assert!(String::from_utf8_lossy(&out).starts_with("(standard input)\n"));
}

#[test]
fn a_folder_conversion_skips_its_output_folder_inside_the_input_folder() {
    let dir = temp_dir("nested-out");
    std::fs::copy(cube(), dir.join("cube.mdx")).unwrap();
    let out = dir.join("converted");
    for round in 0..2 {
        let r = command()
            .args(["convert", "--to", "mdl"])
            .arg(&dir)
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(r.status.success(), "round {round}: {err}");
        assert!(
            err.contains("converted 1 of 1 file(s)"),
            "round {round}: {err}"
        );
        assert_eq!(names(&out), ["cube.mdl"], "round {round}");
    }
}

#[test]
fn a_folder_conversion_converts_the_mdx_of_a_pair_and_skips_the_mdl() {
    let dir = temp_dir("pair");
    let src = dir.join("in");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::copy(cube(), src.join("cube.mdx")).unwrap();
    // The MDL twin says something else: its model name differs, so we can tell which won.
    let r = command()
        .arg("convert")
        .arg(cube())
        .arg(src.join("cube.mdl"))
        .output()
        .unwrap();
    assert!(r.status.success());
    let text = std::fs::read_to_string(src.join("cube.mdl")).unwrap();
    std::fs::write(
        src.join("cube.mdl"),
        text.replace("Model \"Cube\"", "Model \"Twin\""),
    )
    .unwrap();
    let out = dir.join("out");
    let r = command()
        .args(["convert", "--to", "mdl", "--json"])
        .arg(&src)
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(
        r.status.code(),
        Some(0),
        "a skipped twin is no failure: {err}"
    );
    assert!(err.contains("cube.mdl: skipped:"), "{err}");
    assert!(
        err.contains("converted 1 of 2 file(s)") && err.contains("1 skipped"),
        "{err}"
    );
    assert!(std::fs::read_to_string(out.join("cube.mdl"))
        .unwrap()
        .contains("Model \"Cube\""));
    let objects: Vec<serde_json::Value> = String::from_utf8(r.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["status"], "skipped");
    assert!(objects[0]["input"].as_str().unwrap().ends_with("cube.mdl"));
    assert_eq!(objects[1]["status"], "converted");
    assert!(objects[1]["input"].as_str().unwrap().ends_with("cube.mdx"));
}
