//! Finding a model's texture files on disk, for every conversion and check that reads them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Finds a model's textures on disk: Warcraft III paths (`Textures\Foo.blp`) under each
/// folder, without regard to case; then the file name alone in each folder; and, for a
/// `.blp` path, the same name as `.dds`, `.tga` or `.png` (Reforged and hand-made files
/// often stand in for the original format).
#[derive(Clone, Debug, Default)]
pub struct TextureFinder {
    dirs: Vec<PathBuf>,
    listings: HashMap<PathBuf, HashMap<String, PathBuf>>,
}

impl TextureFinder {
    /// A finder over `dirs`, searched in order.
    pub fn new(dirs: Vec<PathBuf>) -> TextureFinder {
        TextureFinder {
            dirs,
            listings: HashMap::new(),
        }
    }

    /// The entries of `dir`, by lower-case name.
    fn listing(&mut self, dir: &Path) -> &HashMap<String, PathBuf> {
        self.listings.entry(dir.to_path_buf()).or_insert_with(|| {
            let mut m = HashMap::new();
            if let Ok(rd) = std::fs::read_dir(dir) {
                for e in rd.flatten() {
                    let name = e.file_name().to_string_lossy().to_lowercase();
                    m.entry(name).or_insert_with(|| e.path());
                }
            }
            m
        })
    }

    /// `parts` (lower case) under `dir`, matched one component at a time.
    fn walk(&mut self, dir: &Path, parts: &[String]) -> Option<PathBuf> {
        let (first, rest) = parts.split_first()?;
        let found = self.listing(dir).get(first)?.clone();
        if rest.is_empty() {
            found.is_file().then_some(found)
        } else {
            self.walk(&found, rest)
        }
    }

    /// Where the texture at Warcraft III path `path` is, if anywhere.
    pub fn find(&mut self, path: &str) -> Option<PathBuf> {
        let norm = path.replace('\\', "/").to_lowercase();
        let parts: Vec<String> = norm
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .map(String::from)
            .collect();
        if parts.is_empty() || parts.iter().any(|p| p == "..") {
            return None;
        }
        let mut candidates = vec![parts.clone()];
        if let Some(stem) = parts.last().and_then(|l| l.strip_suffix(".blp")) {
            for ext in ["dds", "tga", "png"] {
                let mut p = parts.clone();
                *p.last_mut().expect("not empty") = format!("{stem}.{ext}");
                candidates.push(p);
            }
        }
        let dirs = self.dirs.clone();
        for c in &candidates {
            for d in &dirs {
                if let Some(f) = self.walk(d, c) {
                    return Some(f);
                }
            }
        }
        for c in &candidates {
            let name = c.last().expect("not empty");
            for d in &dirs {
                if let Some(f) = self.walk(d, std::slice::from_ref(name)) {
                    return Some(f);
                }
            }
        }
        None
    }
}
