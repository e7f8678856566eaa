//! Shared helpers for corpus tests: where the corpus is and which files belong to which family.
#![allow(dead_code)]

pub(crate) mod blender;
pub(crate) mod judges;
pub(crate) mod mdl_diff;
pub(crate) mod peer_faults;
pub(crate) mod posed;
pub(crate) mod roundtrip;

use std::path::{Path, PathBuf};

/// The repository's root folder.
pub(crate) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `../shared/corpus` beside the repository.
pub(crate) fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

/// The archives (maps and MPQ files) of `../shared/archives`, sorted.
pub(crate) fn archives() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/archives");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| !matches!(p.extension().and_then(|e| e.to_str()), Some("md" | "tsv")))
        .collect();
    v.sort();
    v
}

/// `../shared/gltf-samples` beside the repository.
pub(crate) fn gltf_samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gltf-samples")
}

/// Every `.glb` and `.gltf` file under `dir`, at any depth, sorted.
pub(crate) fn gltf_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("glb") || x.eq_ignore_ascii_case("gltf"))
            {
                out.push(p);
            }
        }
    }
    let mut v = Vec::new();
    walk(dir, &mut v);
    v.sort();
    v
}

/// A GLB container made here, independently of the library's writer: `json` padded with
/// spaces and, when not empty, a BIN chunk of `bin` padded with zeros.
pub(crate) fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let mut j = json.to_vec();
    while j.len() % 4 != 0 {
        j.push(b' ');
    }
    let mut b = bin.to_vec();
    while b.len() % 4 != 0 {
        b.push(0);
    }
    let total = 12 + 8 + j.len() + if b.is_empty() { 0 } else { 8 + b.len() };
    let mut out = b"glTF".to_vec();
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(j.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&j);
    if !b.is_empty() {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&b);
    }
    out
}

/// Every MDX file of the corpus (rows of MANIFEST.tsv with format `mdx`; one of them is
/// named `.mdx.txt`), sorted.
pub(crate) fn corpus_mdx() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = manifest()
        .into_iter()
        .filter(|r| r.format == "mdx")
        .map(|r| corpus_dir().join(r.local_path))
        .collect();
    v.sort();
    v
}

/// One row of the corpus MANIFEST.tsv.
pub(crate) struct ManifestRow {
    /// `mdx`, `mdl` or `ms3d_ascii`.
    pub format: String,
    /// The VERS (MDX) or FormatVersion (MDL) value.
    pub version: u32,
    /// Path relative to the corpus folder.
    pub local_path: String,
    /// The manifest's notes (`WoW alpha 0.5.x MDX` marks the alpha family).
    pub notes: String,
}

/// The rows of MANIFEST.tsv.
pub(crate) fn manifest() -> Vec<ManifestRow> {
    let path = corpus_dir().join("MANIFEST.tsv");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("corpus manifest not found at {}: {e}", path.display()));
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some(ManifestRow {
                format: f.first()?.to_string(),
                version: f.get(1)?.parse().unwrap_or(0),
                local_path: f.get(7)?.to_string(),
                notes: f.get(8).unwrap_or(&"").to_string(),
            })
        })
        .collect()
}

/// The rows of MANIFEST.tsv that are Warcraft III models (`mdx` or `mdl`), in its order.
pub(crate) fn model_rows() -> Vec<ManifestRow> {
    manifest()
        .into_iter()
        .filter(|r| r.format == "mdx" || r.format == "mdl")
        .collect()
}

/// The bytes of a corpus file named by its MANIFEST.tsv row.
pub(crate) fn read_row(row: &ManifestRow) -> Vec<u8> {
    std::fs::read(corpus_dir().join(&row.local_path)).unwrap()
}

/// The failure line of a byte comparison that failed: `DIFF NAME at OFFSET in=N out=M`,
/// with the offset of the first byte that differs (or where the shorter one ends).
pub(crate) fn diff_line(path: &Path, data: &[u8], out: &[u8]) -> String {
    let at = out
        .iter()
        .zip(data)
        .position(|(a, b)| a != b)
        .unwrap_or(out.len().min(data.len()));
    format!(
        "DIFF {} at {at:#x} in={} out={}",
        name(path),
        data.len(),
        out.len()
    )
}

/// The version MANIFEST.tsv records for a corpus file.
pub(crate) fn manifest_version(path: &Path) -> u32 {
    let n = name(path);
    manifest()
        .into_iter()
        .find(|r| r.local_path.ends_with(&n))
        .map_or(0, |r| r.version)
}

/// The file name as text.
pub(crate) fn name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

/// Golden files: every file in `dir` that `keep` accepts is rendered by `render(name,
/// bytes)` and compared with the file `golden(path)` names; `BLESS=1` rewrites the goldens
/// instead (read the diff before committing). Returns how many inputs there were and a
/// report of each mismatch.
pub(crate) fn check_goldens(
    dir: &Path,
    keep: impl Fn(&Path) -> bool,
    golden: impl Fn(&Path) -> PathBuf,
    mut render: impl FnMut(&str, &[u8]) -> String,
) -> (usize, Vec<String>) {
    let bless = std::env::var_os("BLESS").is_some();
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| keep(p))
        .collect();
    inputs.sort();
    let mut mismatches = Vec::new();
    for path in &inputs {
        let file = name(path);
        let got = render(&file, &std::fs::read(path).unwrap()) + "\n";
        let golden = golden(path);
        if bless {
            std::fs::write(&golden, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if got != want {
            mismatches.push(format!("{file}:\n--- expected\n{want}--- got\n{got}"));
        }
    }
    (inputs.len(), mismatches)
}

/// `../shared/corpus/textures`, or `None` (with a message naming `test`) when it is not
/// there; under CI a missing texture corpus fails the test instead.
pub(crate) fn texture_corpus(test: &str) -> Option<PathBuf> {
    let dir = corpus_dir().join("textures");
    if dir.join("MANIFEST.tsv").exists() {
        Some(dir)
    } else if std::env::var_os("CI").is_some() {
        panic!("the texture corpus is missing at {}", dir.display());
    } else {
        eprintln!("{test}: no corpus at {}; skipped", dir.display());
        None
    }
}

/// A row of the texture corpus MANIFEST.tsv.
pub(crate) struct TextureEntry {
    /// File name in the textures folder.
    pub name: String,
    /// `blp1-jpeg`, `dds-dxt5`, ... (read from the header by the corpus authors).
    pub kind: String,
    /// The alpha-bits field as stored (BLP, TGA), or the DDS format.
    pub alpha: String,
    /// Width of level 0.
    pub width: u32,
    /// Height of level 0.
    pub height: u32,
    /// Mip levels the header lists.
    pub mipmaps: usize,
}

/// Every row of the texture corpus MANIFEST.tsv in `dir`.
pub(crate) fn texture_manifest(dir: &Path) -> Vec<TextureEntry> {
    let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            TextureEntry {
                name: f[0].into(),
                kind: f[5].into(),
                alpha: f[6].into(),
                width: f[7].parse().unwrap_or(0),
                height: f[8].parse().unwrap_or(0),
                mipmaps: f[9].parse().unwrap_or(0),
            }
        })
        .collect()
}

/// `path` without its `.tif` or `.tiff` ending (any case), when it has one: Reforged models
/// name `.tif` textures, and the game reads the `.dds` of the same name.
pub(crate) fn tif_stem(path: &str) -> Option<&str> {
    let lower = path.to_ascii_lowercase();
    [".tif", ".tiff"]
        .iter()
        .find(|e| lower.ends_with(*e))
        .map(|e| &path[..path.len() - e.len()])
}

/// One folder of links to the texture corpus's files under the file names models give
/// them (the manifest's `referenced_by`), as both renderers take it.
pub(crate) fn texture_links(files: &[PathBuf], tex: &Path, tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mdlx-{tag}-tex-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let names: Vec<String> = files.iter().map(|p| name(p)).collect();
    let manifest = std::fs::read_to_string(tex.join("MANIFEST.tsv")).unwrap();
    for line in manifest.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (Some(local), Some(refs)) = (f.first(), f.get(11)) else {
            continue;
        };
        for r in refs.split(';') {
            let mut parts = r.split('|');
            let (Some(model), Some(path)) = (parts.next(), parts.next()) else {
                continue;
            };
            if !names.iter().any(|m| model.ends_with(m.as_str())) {
                continue;
            }
            let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
            // A `.tif` the model names is the `.dds` the game reads (and the corpus holds).
            let base = match (tif_stem(base), local.rsplit_once('.')) {
                (Some(stem), Some((_, ext))) => format!("{stem}.{ext}"),
                _ => base.to_string(),
            };
            let link = dir.join(base);
            if !link.exists() {
                std::os::unix::fs::symlink(tex.join(local), link).unwrap();
            }
        }
    }
    dir
}

/// `f` over every Warcraft III model of the corpus (MDX and MDL, no WoW alpha file) the
/// library reads, on two threads: its manifest index, its row, its bytes and the model.
/// What `f` returns, in no set order.
pub(crate) fn over_models<T: Send>(
    f: impl Fn(usize, &ManifestRow, &[u8], mdlx::Model) -> Option<T> + Sync,
) -> Vec<T> {
    let rows: Vec<(usize, ManifestRow)> = model_rows()
        .into_iter()
        .enumerate()
        .filter(|(_, r)| !r.notes.contains("alpha"))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((i, row)) = rows.get(k) else { break };
                        let data = read_row(row);
                        let Ok(loaded) = mdlx::read(&data, &mdlx::ReadOptions::default()) else {
                            continue;
                        };
                        mine.extend(f(*i, row, &data, loaded.model));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    })
}

/// The ids of the `check` findings of `m` that are errors, or one of the rules `also`:
/// what an edit must not add.
pub(crate) fn findings(m: &mdlx::Model, also: &[&str]) -> std::collections::BTreeSet<String> {
    mdlx::check::check(m)
        .into_iter()
        .filter(|f| f.severity == mdlx::check::Severity::Error || also.contains(&f.rule.id))
        .map(|f| f.rule.id.to_string())
        .collect()
}
