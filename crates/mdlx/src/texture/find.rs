//! Finding a model's texture files on disk and in archives, for every conversion and check
//! that reads them.

#[cfg(feature = "archives")]
use crate::mpq::Archive;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
#[cfg(feature = "archives")]
use std::sync::Arc;

/// Where textures are looked for, in order.
#[derive(Clone, Debug)]
enum Place {
    /// A folder on disk.
    Folder(PathBuf),
    /// An MPQ archive (a map, or one of the game's).
    #[cfg(feature = "archives")]
    Archive(PathBuf, Arc<Archive>),
}

/// A texture file found: where (for messages) and its bytes.
#[derive(Clone, Debug)]
pub struct Found {
    /// The file's path, or `ARCHIVE:NAME` for a file in an archive.
    pub shown: String,
    /// Its bytes, or why they could not be read.
    pub bytes: Result<Vec<u8>, String>,
}

/// Finds a model's textures on disk: Warcraft III paths (`Textures\Foo.blp`) under each
/// folder, without regard to case; then the file name alone in each folder; and, for a
/// `.blp` path, the same name as `.dds`, `.tga` or `.png` (Reforged and hand-made files
/// often stand in for the original format).
///
/// Each of the places given may also be an MPQ archive (a map, `war3.mpq`), or the game's
/// folder, which stands for its archives in the order the game reads them (see
/// [`crate::mpq::game_archives`]) after its loose files. An archive that cannot be opened
/// is left out.
#[derive(Clone, Debug, Default)]
pub struct TextureFinder {
    dirs: Vec<PathBuf>,
    places: Vec<Place>,
    game: bool,
    listings: HashMap<PathBuf, HashMap<String, PathBuf>>,
}

impl TextureFinder {
    /// A finder over `dirs` (folders, archives or game folders), searched in order.
    pub fn new(dirs: Vec<PathBuf>) -> TextureFinder {
        let mut places = Vec::new();
        let mut game = false;
        for d in &dirs {
            if !d.is_file() {
                places.push(Place::Folder(d.clone()));
            }
            game |= archives_at(d, &mut places);
        }
        TextureFinder {
            dirs: dirs.into_iter().filter(|d| !d.is_file()).collect(),
            places,
            game,
            listings: HashMap::new(),
        }
    }

    /// Whether the game's own archives are searched: a path not found is then found
    /// nowhere the game looks.
    pub fn searches_game(&self) -> bool {
        self.game
    }

    /// The texture (or any file) at Warcraft III path `path`, from the first place that
    /// has it: for each name tried (as given, then a `.blp` path as `.dds`, `.tga`,
    /// `.png`), each folder and archive in order; then the file name alone in each folder.
    pub fn load(&mut self, path: &str) -> Option<Found> {
        let names = candidates(path)?;
        let places = self.places.clone();
        #[cfg_attr(not(feature = "archives"), allow(unused_variables))]
        for (k, parts) in names.iter().enumerate() {
            for place in &places {
                match place {
                    Place::Folder(d) => {
                        if let Some(f) = self.walk(d, parts) {
                            return Some(from_disk(&f));
                        }
                    }
                    #[cfg(feature = "archives")]
                    Place::Archive(p, a) => {
                        let inner = parts.join("\\");
                        if a.contains(&inner) {
                            // The path as the model writes it, where that is what was found.
                            let written = path.replace('/', "\\");
                            let shown = if k == 0 {
                                written.trim_matches('\\')
                            } else {
                                &inner
                            };
                            return Some(Found {
                                shown: format!("{}:{shown}", p.display()),
                                bytes: a.read(&inner).map_err(|e| e.to_string()),
                            });
                        }
                    }
                }
            }
        }
        self.find_by_name(&names).map(|f| from_disk(&f))
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

    /// Where the texture at Warcraft III path `path` is on disk, if anywhere (archives
    /// are not searched: see [`load`](Self::load)).
    pub fn find(&mut self, path: &str) -> Option<PathBuf> {
        let candidates = candidates(path)?;
        let dirs = self.dirs.clone();
        for c in &candidates {
            for d in &dirs {
                if let Some(f) = self.walk(d, c) {
                    return Some(f);
                }
            }
        }
        self.find_by_name(&candidates)
    }

    /// The file name alone, in each folder.
    fn find_by_name(&mut self, candidates: &[Vec<String>]) -> Option<PathBuf> {
        let dirs = self.dirs.clone();
        for c in candidates {
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

/// The names tried for `path`, lower case, as parts: as given, then a `.blp` path as
/// `.dds`, `.tga` and `.png`, and a `.tif` path as `.dds`, `.blp`, `.tga` and `.png`.
/// `None` for an empty path or one that climbs (`..`).
fn candidates(path: &str) -> Option<Vec<Vec<String>>> {
    let norm = path.replace('\\', "/").to_lowercase();
    let parts: Vec<String> = norm
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .map(String::from)
        .collect();
    if parts.is_empty() || parts.iter().any(|p| p == "..") {
        return None;
    }
    let last = parts.last().expect("not empty");
    // Reforged models name their textures `.tif`, and the game reads the `.dds` of the
    // same name (its archives hold no `.tif`); maps that carry HD models do the same.
    let (stem, others): (&str, &[&str]) = if let Some(stem) = last.strip_suffix(".blp") {
        (stem, &["dds", "tga", "png"])
    } else if let Some(stem) = last
        .strip_suffix(".tif")
        .or_else(|| last.strip_suffix(".tiff"))
    {
        (stem, &["dds", "blp", "tga", "png"])
    } else {
        ("", &[])
    };
    let mut out = vec![parts.clone()];
    for ext in others {
        let mut p = parts.clone();
        *p.last_mut().expect("not empty") = format!("{stem}.{ext}");
        out.push(p);
    }
    Some(out)
}

fn from_disk(f: &Path) -> Found {
    Found {
        shown: f.display().to_string(),
        bytes: std::fs::read(f).map_err(|e| format!("{}: {e}", f.display())),
    }
}

/// Adds the archives `d` stands for to `places`: `d` itself when it is a file that opens as
/// one, else the game's archives in the folder `d`, in the order the game reads them.
/// Returns whether any of them is one of the game's.
#[cfg(feature = "archives")]
fn archives_at(d: &Path, places: &mut Vec<Place>) -> bool {
    if d.is_file() {
        return match crate::mpq::shared(d) {
            Ok(a) => {
                places.push(Place::Archive(d.to_path_buf(), a));
                crate::mpq::is_game_archive(d)
            }
            Err(_) => false,
        };
    }
    let mut game = false;
    for a in crate::mpq::game_archives(d) {
        if let Ok(opened) = crate::mpq::shared(&a) {
            game = true;
            places.push(Place::Archive(a, opened));
        }
    }
    game
}

/// Without the `archives` feature, no archive is searched.
#[cfg(not(feature = "archives"))]
fn archives_at(_: &Path, _: &mut Vec<Place>) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(path: &str) -> Vec<String> {
        candidates(path)
            .unwrap()
            .into_iter()
            .map(|p| p.join("/"))
            .collect()
    }

    #[test]
    fn a_tif_path_is_looked_for_as_dds_first() {
        assert_eq!(
            names("Units\\Human\\Footman_Diffuse.TIF"),
            [
                "units/human/footman_diffuse.tif",
                "units/human/footman_diffuse.dds",
                "units/human/footman_diffuse.blp",
                "units/human/footman_diffuse.tga",
                "units/human/footman_diffuse.png",
            ]
        );
        assert_eq!(names("a.tiff")[1], "a.dds");
        assert_eq!(
            names("Textures/Foo.blp")[1..],
            ["textures/foo.dds", "textures/foo.tga", "textures/foo.png"]
        );
        assert_eq!(names("x.dds"), ["x.dds"]);
        assert!(candidates("../x.blp").is_none());
    }

    #[test]
    fn a_dds_beside_the_model_stands_for_its_tif() {
        let dir = std::env::temp_dir().join(format!("mdlx-find-tif-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("Textures")).unwrap();
        std::fs::write(dir.join("Textures/kain_Emissive.dds"), b"DDS ").unwrap();
        let mut f = TextureFinder::new(vec![dir.clone()]);
        assert_eq!(
            f.find("Textures\\kain_emissive.tif"),
            Some(dir.join("Textures/kain_Emissive.dds"))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
