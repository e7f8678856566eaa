//! One invariant over every path that writes a model: what a conversion writes has no
//! `check` error its source did not have, opens in mdx-m3-viewer, war3-model and the `wc3`
//! crate where they read the source, and poses like the source within the error the
//! conversion reports.
//!
//! Every path runs over its part of the shared corpus (and the glTF samples), writes its
//! model as MDX bytes, reads them back and checks what it read. The table printed at the
//! end has a row per path:
//!
//! - **files / unread / written**: inputs, those our reader refuses (not a conversion's
//!   fault: 21 corpus MDL files are fragments without a `Model` block), and models written;
//! - **identical**: outputs byte-identical to the source MDX (their pose and peer reads are
//!   the source's);
//! - **new errors**: per rule, the `check` errors of the output beyond the source's count of
//!   the same rule (a source that is no Warcraft III model has none);
//! - **peers**: for each of mdx-m3-viewer (`m3v`), war3-model (`w3m`) and `wc3` (`wc3rs`),
//!   the outputs it fails to read among those whose source it reads (an output that is the
//!   source's bytes is not sent again);
//! - **pose**: the largest distance between a posed output vertex and the posed source
//!   vertex it came from (the one with the same rest position), at the start, middle and
//!   end of every sequence, as a fraction of the model's size, beside the bound the
//!   conversion reports for it.
//!
//! Every row must show 0 new errors, 0 peer failures and every pose within its bound.

mod common;

use common::judges::model_size;
use mdlx::anim::{posed_geosets, Clock, Skeleton};
use mdlx::check::Severity;
use mdlx::model::Model;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// Beyond a conversion's own reported error, how far (as a fraction of the model's size) a
/// posed vertex may be from its source: float noise of posing two different layouts.
const POSE_SLACK: f64 = 1e-3;

/// One path's tally.
#[derive(Default)]
struct Row {
    path: String,
    files: usize,
    unreadable: usize,
    written: usize,
    identical: usize,
    failed: Vec<String>,
    new_errors: BTreeMap<&'static str, usize>,
    new_error_files: Vec<String>,
    posed: usize,
    worst_pose: f64,
    worst_pose_file: String,
    worst_bound: f64,
    over_bound: Vec<String>,
    /// The outputs the peers are asked to read: (file name in `dir`, source path, the
    /// output's version).
    sent: Vec<(String, PathBuf, u32)>,
    dir: PathBuf,
    peer_failures: BTreeMap<&'static str, Vec<String>>,
    /// Per peer, the outputs judged: those whose source it reads.
    peer_judged: BTreeMap<&'static str, usize>,
    /// Failures excused as the peer's own (by message).
    peer_excused: BTreeMap<String, usize>,
    peer_note: String,
}

/// A source and what a path made of it.
struct Made {
    /// The source's file, for naming.
    source: PathBuf,
    /// The source as a Warcraft III model, when it is one (for `check` and posing).
    model: Option<Model>,
    /// The source's own MDX bytes, when it is an MDX file.
    source_mdx: Option<Vec<u8>>,
    /// The output's MDX bytes, or why none was written.
    out: Result<Vec<u8>, String>,
    /// The conversion's reported pose error, as a fraction of the model's size.
    bound: f64,
}

impl Made {
    /// A conversion from a file that is not a Warcraft III model to MDX, with no pose bound.
    fn mdx_only(source: &Path, m: &Model) -> Made {
        Made {
            source: source.into(),
            model: None,
            source_mdx: None,
            out: mdx_out(m),
            bound: 0.0,
        }
    }
}

/// Errors per rule, the model checked as a model of `kind` (`None`: the kind `check`
/// finds). A conversion's output is checked as the kind of its source: converting does
/// not change what a model is for.
fn errors_by_rule(m: &Model, kind: Option<mdlx::check::Kind>) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    let findings = match kind {
        Some(k) => mdlx::check::check_as(m, k),
        None => mdlx::check::check(m),
    };
    for f in findings {
        if f.severity() == Severity::Error {
            *out.entry(f.rule.id).or_insert(0) += 1;
        }
    }
    out
}

fn read_model(path: &Path) -> Result<Model, String> {
    let data = std::fs::read(path).map_err(|e| e.to_string())?;
    mdlx::read(&data, &mdlx::read::ReadOptions::for_file(path))
        .map(|l| l.model)
        .map_err(|e| e.to_string().lines().next().unwrap_or("").to_string())
}

fn corpus(format: &str, keep: impl Fn(&common::ManifestRow) -> bool) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = common::manifest()
        .into_iter()
        .filter(|r| r.format == format && keep(r))
        .map(|r| common::corpus_dir().join(r.local_path))
        .collect();
    v.sort();
    v
}

fn is_alpha(r: &common::ManifestRow) -> bool {
    r.notes.contains("alpha")
}

/// The moments a model is posed at: rest, and the start, middle and end of every sequence.
fn moments(m: &Model) -> Vec<Option<(usize, f64)>> {
    let mut v = vec![None];
    for (i, s) in m.sequences.iter().enumerate() {
        let len = f64::from(s.length());
        v.extend([0.0, len / 2.0, len].map(|t| Some((i, t))));
    }
    v
}

/// Every vertex of every geoset of `m` posed at `at`, with its rest position.
fn posed(m: &Model, skeleton: &Skeleton, at: Option<(usize, f64)>) -> Vec<([u32; 3], [f32; 3])> {
    let clock = match at {
        None => Clock::new(m, mdlx::anim::AnimTime::new(None, 0.0)),
        Some((s, t)) => Clock::unwrapped(m, s, t),
    };
    let pose = skeleton.pose_at(&clock, None);
    let mut out = Vec::new();
    for p in posed_geosets(m, skeleton, &pose, &clock) {
        let g = &m.geosets[p.index];
        for (v, q) in g.vertices.iter().zip(&p.positions) {
            out.push((v.map(|c| (c + 0.0).to_bits()), *q));
        }
    }
    out
}

/// The worst distance, as a fraction of the source's size, between a posed vertex of
/// `out` and the posed source vertices with the same rest position (the nearest of them),
/// over [`moments`]; `None` when the two do not have the same sequences, or when an
/// output vertex has no source vertex at its rest position.
fn pose_gap(src: &Model, out: &Model) -> Result<f64, String> {
    if !src.sequences.is_empty() && src.sequences.len() != out.sequences.len() {
        return Err(format!(
            "{} sequences, the source has {}",
            out.sequences.len(),
            src.sequences.len()
        ));
    }
    let size = model_size(src);
    let (ks, ko) = (Skeleton::new(src), Skeleton::new(out));
    let mut worst = 0.0f64;
    for at in moments(src) {
        let mut by_rest: HashMap<[u32; 3], Vec<[f32; 3]>> = HashMap::new();
        for (rest, p) in posed(src, &ks, at) {
            by_rest.entry(rest).or_default().push(p);
        }
        for (rest, p) in posed(out, &ko, at) {
            let Some(cands) = by_rest.get(&rest) else {
                return Err(format!(
                    "an output vertex at {:?} has no source vertex there",
                    rest.map(f32::from_bits)
                ));
            };
            let d = cands
                .iter()
                .map(|c| {
                    (0..3)
                        .map(|k| f64::from(c[k] - p[k]).powi(2))
                        .sum::<f64>()
                        .sqrt()
                })
                .fold(f64::MAX, f64::min);
            if d.is_finite() {
                worst = worst.max(d / size);
            }
        }
    }
    Ok(worst)
}

impl Row {
    fn new(path: &str) -> Row {
        let slug: String = path
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        Row {
            path: path.into(),
            dir: common::judges::out_dir(&format!("every-conversion-{slug}")),
            ..Default::default()
        }
    }

    /// Tallies one conversion.
    fn add(&mut self, made: Made) {
        self.files += 1;
        let name = common::name(&made.source);
        let bytes = match made.out {
            Ok(b) => b,
            Err(e) => {
                self.failed.push(format!("{name}: {e}"));
                return;
            }
        };
        self.written += 1;
        let out = match mdlx::mdx::from_bytes(&bytes) {
            Ok(m) => m,
            Err(e) => {
                self.failed
                    .push(format!("{name}: what we wrote does not read back: {e}"));
                return;
            }
        };
        // The kind of the source (by its file name too, as `mdlx check` decides it), else
        // of the output.
        let kind =
            Some(mdlx::check::classify(made.model.as_ref().unwrap_or(&out), Some(&name)).kind);
        let before = made
            .model
            .as_ref()
            .map(|m| errors_by_rule(m, kind))
            .unwrap_or_default();
        let mut new_here = 0;
        for (rule, n) in errors_by_rule(&out, kind) {
            let extra = n.saturating_sub(before.get(rule).copied().unwrap_or(0));
            if extra > 0 {
                *self.new_errors.entry(rule).or_insert(0) += extra;
                new_here += extra;
            }
        }
        if new_here > 0 {
            self.new_error_files.push(format!("{name} ({new_here})"));
        }
        if made.source_mdx.as_deref() == Some(&bytes[..]) {
            self.identical += 1;
            return;
        }
        if let Some(src) = &made.model {
            match pose_gap(src, &out) {
                Ok(d) => {
                    self.posed += 1;
                    self.worst_bound = self.worst_bound.max(made.bound);
                    if d > self.worst_pose {
                        self.worst_pose = d;
                        self.worst_pose_file = name.clone();
                    }
                    if d > made.bound + POSE_SLACK {
                        self.over_bound
                            .push(format!("{name}: {d:.2e} > {:.2e}", made.bound));
                    }
                }
                Err(e) => self.over_bound.push(format!("{name}: not comparable: {e}")),
            }
        }
        let file = format!("{:04}.mdx", self.sent.len());
        std::fs::write(self.dir.join(&file), &bytes).unwrap();
        self.sent.push((file, made.source.clone(), out.version));
    }
}

/// What a peer's `roundtrip DIR` says of each `.mdx` there: the files it could not read,
/// with its message.
fn peer_failures(bin: &Path, peer: &str, dir: &Path) -> BTreeMap<String, String> {
    let out = common::judges::peer_roundtrip_output(bin, peer, dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines().any(|l| l.contains(" passed, ")),
        "{peer} printed no summary:\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .filter_map(|l| l.strip_prefix("FAIL\t"))
        .map(|l| {
            let mut f = l.splitn(2, '\t');
            let name = f.next().unwrap_or("").to_string();
            (name, f.next().unwrap_or("").to_string())
        })
        .collect()
}

/// A peer's message with its numbers taken out, so that one fault reads the same on every
/// file.
fn fault(message: &str) -> String {
    let mut out = String::new();
    for c in message.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('N') {
                out.push('N');
            }
        } else {
            out.push(c);
        }
    }
    out
}

const PEERS: [&str; 3] = ["m3v", "w3m", "wc3rs"];

/// Asks every peer to read the outputs of `rows`. A peer is not judged on an output of a
/// version of which it reads fewer than half of the corpus's files (mdx-m3-viewer reads
/// none of its version-1100 files), nor on one whose MDX source it fails on although it
/// reads that source's version. A failure is excused when the peer fails the
/// same way (the same message, numbers aside) on an untouched corpus MDX file: that is its
/// own fault with real files (war3-model fails on every ribbon emitter colour track,
/// KRCO). What is left counts.
fn ask_peers(rows: &mut [Row]) {
    let Some(bin) = common::judges::judge_env("MDLX_PEERS_BIN", "the peer reads") else {
        for r in rows.iter_mut() {
            r.peer_note = "not run".into();
        }
        return;
    };
    // Every Warcraft III MDX of the corpus, untouched.
    let srcdir = common::judges::out_dir("every-conversion-sources");
    let mut src_name: HashMap<PathBuf, String> = HashMap::new();
    let mut src_version: HashMap<String, u32> = HashMap::new();
    for (i, r) in common::manifest().iter().enumerate() {
        if r.format != "mdx" || is_alpha(r) {
            continue;
        }
        let s = common::corpus_dir().join(&r.local_path);
        let n = format!("{i:04}.mdx");
        std::os::unix::fs::symlink(&s, srcdir.join(&n)).unwrap();
        src_name.insert(s, n.clone());
        src_version.insert(n, r.version);
    }
    for peer in PEERS {
        let src_fail = peer_failures(&bin, peer, &srcdir);
        let real: BTreeMap<String, &String> = src_fail.iter().map(|(n, m)| (fault(m), n)).collect();
        // The versions the peer reads: at least half of the corpus files of that version.
        let mut per_version: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
        for (n, v) in &src_version {
            let e = per_version.entry(*v).or_default();
            e.1 += 1;
            if !src_fail.contains_key(n) {
                e.0 += 1;
            }
        }
        let reads = |v: u32| per_version.get(&v).is_some_and(|&(ok, all)| 2 * ok >= all);
        for (v, (ok, all)) in &per_version {
            if !reads(*v) {
                println!("{peer} reads {ok} of the corpus's {all} version-{v} MDX files: not asked to read that version");
            }
        }
        for r in rows.iter_mut() {
            if r.sent.is_empty() {
                continue;
            }
            let fails = peer_failures(&bin, peer, &r.dir);
            let mut bad = Vec::new();
            let mut judged = 0;
            for (file, source, version) in &r.sent {
                // A source the peer fails on, among the files of a version it reads: the
                // peer's own fault with that file, which the output may keep. (A source of
                // a version it does not read says nothing of the output's version.)
                let source_unread = src_name
                    .get(source)
                    .is_some_and(|n| src_fail.contains_key(n) && reads(src_version[n]));
                if source_unread || !reads(*version) {
                    continue;
                }
                judged += 1;
                let Some(message) = fails.get(file) else {
                    continue;
                };
                let name = common::name(source);
                match real.get(&fault(message)) {
                    Some(_) => *r.peer_excused.entry(fault(message)).or_insert(0) += 1,
                    None => bad.push(format!("{name}: {message}")),
                }
            }
            r.peer_failures.insert(peer, bad);
            r.peer_judged.insert(peer, judged);
        }
    }
}

fn print(rows: &[Row]) {
    println!(
        "\n{:<34} {:>5} {:>7} {:>9} {:>10} {:>24} {:>20}",
        "path",
        "files",
        "written",
        "identical",
        "new errors",
        "peers read m3v w3m wc3",
        "worst pose (bound)"
    );
    for r in rows {
        let peers = if r.peer_note.is_empty() {
            PEERS
                .iter()
                .map(|p| match (r.peer_failures.get(p), r.peer_judged.get(p)) {
                    (Some(bad), Some(&n)) => format!("{}/{n}", n - bad.len()),
                    _ => "-".into(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        } else {
            r.peer_note.clone()
        };
        let pose = if r.posed == 0 {
            "-".to_string()
        } else {
            format!("{:.1e} ({:.1e})", r.worst_pose, r.worst_bound + POSE_SLACK)
        };
        println!(
            "{:<34} {:>5} {:>6} {:>7} {:>9} {:>10} {:>24} {:>20}",
            r.path,
            r.files,
            r.unreadable,
            r.written,
            r.identical,
            r.new_errors.values().sum::<usize>(),
            peers,
            pose
        );
    }
    for r in rows {
        for f in &r.failed {
            println!("  {}: not written: {f}", r.path);
        }
        if !r.new_errors.is_empty() {
            println!(
                "  {}: new errors {:?} in {:?}",
                r.path, r.new_errors, r.new_error_files
            );
        }
        for (m, n) in &r.peer_excused {
            println!(
                "  {}: {n} peer failure(s) excused, the same on untouched corpus files: {m}",
                r.path
            );
        }
        for (p, v) in &r.peer_failures {
            if !v.is_empty() {
                println!("  {}: {p} cannot read {v:?}", r.path);
            }
        }
        for o in &r.over_bound {
            println!("  {}: pose {o}", r.path);
        }
        if r.worst_pose > 0.0 {
            println!("  {}: worst pose in {}", r.path, r.worst_pose_file);
        }
    }
}

fn mdx_out(m: &Model) -> Result<Vec<u8>, String> {
    mdlx::mdx::to_bytes(m).map_err(|e| e.to_string())
}

/// A Warcraft III MDX source: its bytes and model, or `None` when our reader refuses it.
fn mdx_source(path: &Path) -> Option<(Vec<u8>, Model)> {
    let data = std::fs::read(path).unwrap();
    let m = mdlx::mdx::from_bytes(&data).ok()?;
    Some((data, m))
}

/// Runs `convert` over `files` into a new row; `None` from it is a source we cannot read.
fn run(path: &str, files: &[PathBuf], convert: impl Fn(&Path) -> Option<Made>) -> Row {
    let mut row = Row::new(path);
    for f in files {
        match convert(f) {
            Some(made) => row.add(made),
            None => {
                row.files += 1;
                row.unreadable += 1;
            }
        }
    }
    row
}

/// MDX -> MDL text -> MDX.
fn via_mdl(path: &Path) -> Option<Made> {
    let (data, src) = mdx_source(path)?;
    let text = mdlx::mdl::to_bytes(&src);
    let out = mdlx::mdl::from_bytes(&text)
        .map_err(|e| format!("our MDL does not read back: {e}"))
        .and_then(|m| mdx_out(&m));
    Some(Made {
        source: path.into(),
        model: Some(src),
        source_mdx: Some(data),
        out,
        bound: 0.0,
    })
}

/// MDL -> MDX.
fn mdl_to_mdx(path: &Path) -> Option<Made> {
    let src = read_model(path).ok()?;
    let out = mdx_out(&src);
    Some(Made {
        source: path.into(),
        model: Some(src),
        source_mdx: None,
        out,
        bound: 0.0,
    })
}

/// MDX to `versions` in turn, the last one written.
fn versions(path: &Path, versions: &[u32]) -> Option<Made> {
    let (data, src) = mdx_source(path)?;
    let mut m = src.clone();
    let mut out = Ok(());
    for &v in versions {
        match m.to_version(v) {
            Ok((n, _)) => m = n,
            Err(e) => out = Err(e),
        }
    }
    Some(Made {
        source: path.into(),
        model: Some(src),
        source_mdx: Some(data),
        out: out.and_then(|()| mdx_out(&m)),
        bound: 0.0,
    })
}

/// Reforged to classic ([`mdlx::convert::classic`]); its bound is the skinning error it
/// reports.
fn hd_to_sd(path: &Path) -> Option<Made> {
    let (data, src) = mdx_source(path)?;
    let classic = mdlx::convert::classic::to_classic(&src, &Default::default());
    let bound = classic
        .as_ref()
        .map_or(0.0, |c| f64::from(c.skinning_error) / model_size(&src));
    Some(Made {
        source: path.into(),
        model: Some(src),
        source_mdx: Some(data),
        out: classic.and_then(|c| mdx_out(&c.model)),
        bound,
    })
}

/// Milkshape 3D ASCII -> MDX.
fn ms3d_to_mdx(path: &Path) -> Option<Made> {
    let doc = mdlx::ms3d::from_bytes(&std::fs::read(path).unwrap()).ok()?;
    let options = mdlx::convert::ms3d::ToModelOptions {
        name: common::name(path),
        ..Default::default()
    };
    let (m, _) = mdlx::convert::ms3d::to_model(&doc, &options);
    Some(Made::mdx_only(path, &m))
}

/// WoW alpha -> MDX 800.
fn alpha_to_mdx(path: &Path) -> Option<Made> {
    let alpha = mdlx::alpha::from_bytes(&std::fs::read(path).unwrap()).ok()?;
    let (m, _) = alpha.to_model();
    Some(Made::mdx_only(path, &m))
}

/// glTF -> MDX of `version`.
fn gltf_to_mdx(path: &Path, version: u32) -> Option<Made> {
    let source = mdlx::convert::gltf::Source::read_file(path).ok()?;
    let options = mdlx::convert::gltf::ImportOptions {
        version,
        ..Default::default()
    };
    let out = mdlx::convert::gltf::import(&source, &options)
        .map_err(|e| e.to_string())
        .and_then(|i| mdx_out(&i.model));
    Some(Made {
        source: path.into(),
        model: None,
        source_mdx: None,
        out,
        bound: 0.0,
    })
}

/// Runs `jobs` on as many threads as there are cores; the rows come back in job order.
fn in_parallel(jobs: &[Box<dyn Fn() -> Row + Send + Sync + '_>]) -> Vec<Row> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(BTreeMap::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                let row = job();
                done.lock().unwrap().insert(i, row);
            });
        }
    });
    done.into_inner().unwrap().into_values().collect()
}

#[test]
fn every_conversion_writes_a_model_the_game_takes() {
    let sd = corpus("mdx", |r| r.version == 800);
    let hd = corpus("mdx", |r| r.version >= 900 && !is_alpha(r));
    let family = |v: u32| corpus("mdx", move |r| r.version == v && !is_alpha(r));
    let alpha = corpus("mdx", is_alpha);
    let mdl = corpus("mdl", |_| true);
    let ms3d = corpus("ms3d_ascii", |_| true);
    let gltf = common::gltf_files(&common::gltf_samples_dir());
    type Job<'a> = Box<dyn Fn() -> Row + Send + Sync + 'a>;
    let jobs: Vec<Job> = vec![
        Box::new(|| run("MDX 800 -> MDL -> MDX", &sd, via_mdl)),
        Box::new(|| run("MDX 1000 -> MDL -> MDX", &family(1000), via_mdl)),
        Box::new(|| run("MDX 1100 -> MDL -> MDX", &family(1100), via_mdl)),
        Box::new(|| run("MDL -> MDX", &mdl, mdl_to_mdx)),
        Box::new(|| run("MDX 800 -> 1100", &sd, |p| versions(p, &[1100]))),
        Box::new(|| run("MDX 800 -> 1100 -> 800", &sd, |p| versions(p, &[1100, 800]))),
        Box::new(|| run("MDX 900+ -> 800 (HD -> SD)", &hd, hd_to_sd)),
        Box::new(|| run("Milkshape -> MDX 800", &ms3d, ms3d_to_mdx)),
        Box::new(|| run("WoW alpha -> MDX 800", &alpha, alpha_to_mdx)),
        Box::new(|| run("glTF -> MDX 800", &gltf, |p| gltf_to_mdx(p, 800))),
        Box::new(|| run("glTF -> MDX 1000", &gltf, |p| gltf_to_mdx(p, 1000))),
    ];
    let mut rows = in_parallel(&jobs);
    ask_peers(&mut rows);
    print(&rows);
    for r in &rows {
        assert!(r.written > 0, "{}: nothing written", r.path);
    }
    let bad: Vec<&str> = rows
        .iter()
        .filter(|r| {
            !r.failed.is_empty()
                || !r.new_errors.is_empty()
                || !r.over_bound.is_empty()
                || r.peer_failures.values().any(|v| !v.is_empty())
        })
        .map(|r| r.path.as_str())
        .collect();
    assert!(
        bad.is_empty(),
        "paths that break the invariant: {bad:?} (see the table)"
    );
}
