//! Names for files an archive's `(listfile)` does not name: a map without a listfile (or
//! with one left incomplete on purpose) still names most of its files itself.
//!
//! Candidates, tried against the hash table (a name is only taken when both of its check
//! hashes match a live slot, so a wrong guess costs nothing):
//! - the standard file names of a map and a campaign;
//! - `war3map.imp`, WorldEdit's list of imported files (each also under `war3mapImported\`);
//! - every path-like string inside every file that can be read: the texture paths in
//!   models, model paths in object data and `war3map.j`/`.lua` literals (with JASS's `\\`
//!   read as `\`), `.mdl` paths also as `.mdx` (the editor's object data names models
//!   `.mdl`, the game loads `.mdx`), and each model's `_portrait` companion.
//!
//! Newly named files are read in turn (an encrypted one only becomes readable once named),
//! until a round names nothing new. What is read in all is bounded by the archive's own
//! length (16 times it, plus 64 MiB), so a small hostile archive cannot make opening it
//! decompress gigabytes.

use super::Archive;

/// Names every map and campaign has, or may have.
const STANDARD: &[&str] = &[
    "war3map.j",
    "scripts\\war3map.j",
    "war3map.lua",
    "scripts\\war3map.lua",
    "war3map.w3i",
    "war3map.w3e",
    "war3map.wts",
    "war3map.shd",
    "war3map.wpm",
    "war3map.doo",
    "war3mapUnits.doo",
    "war3map.w3r",
    "war3map.w3c",
    "war3map.w3s",
    "war3map.mmp",
    "war3mapMap.blp",
    "war3mapMap.tga",
    "war3mapMap.b00",
    "war3mapPreview.tga",
    "war3mapPath.tga",
    "war3map.w3u",
    "war3map.w3t",
    "war3map.w3b",
    "war3map.w3d",
    "war3map.w3a",
    "war3map.w3h",
    "war3map.w3q",
    "war3map.wct",
    "war3map.wtg",
    "war3map.imp",
    "war3mapExtra.txt",
    "war3mapMisc.txt",
    "war3mapSkin.txt",
    "war3mapSkin.w3u",
    "war3mapSkin.w3t",
    "war3mapSkin.w3b",
    "war3mapSkin.w3d",
    "war3mapSkin.w3a",
    "war3mapSkin.w3h",
    "war3mapSkin.w3q",
    "war3map.w3o",
    "war3campaign.w3u",
    "war3campaign.w3t",
    "war3campaign.w3a",
    "war3campaign.w3b",
    "war3campaign.w3d",
    "war3campaign.w3q",
    "war3campaign.w3h",
    "war3campaign.w3f",
    "war3campaign.imp",
    "war3campaign.wts",
    "war3campaignSkin.txt",
    "war3mapImported\\",
    "(listfile)",
    "(attributes)",
    "(signature)",
    "(user data)",
    "conversation.json",
    "war3map.w3f",
    "war3map.wai",
    "Units\\CommandStrings.txt",
    "Units\\UnitSkin.txt",
];

/// Extensions of the files a map names.
const EXTENSIONS: &[&str] = &[
    "mdx", "mdl", "blp", "tga", "dds", "wav", "mp3", "flac", "ogg", "txt", "slk", "j", "lua", "ai",
    "fdf", "toc", "w3u", "w3t", "w3a", "w3b", "w3d", "w3h", "w3q", "imp", "png", "jpg", "tif",
    "mid", "pld", "w3m", "w3x", "json",
];

impl Archive {
    /// Looks for the names of unnamed files in what the archive holds; returns how many
    /// files were newly named. [`open`](Self::open) calls it when `(listfile)` leaves
    /// files unnamed.
    pub fn recover_names(&mut self) -> usize {
        let mut named = 0;
        for name in STANDARD {
            named += usize::from(self.add_name(name));
        }
        let mut scanned = std::collections::HashSet::new();
        // What reading may decode in all: a hostile archive can point a thousand blocks at
        // the same few compressed bytes, each claiming megabytes.
        let mut budget = self.file_len().saturating_mul(16).saturating_add(64 << 20);
        for _round in 0..8 {
            if self.unnamed() == 0 {
                break;
            }
            let mut candidates = Vec::new();
            for entry in self.entries() {
                if entry.size > 64 << 20 || entry.size > budget || !scanned.insert(entry.block) {
                    continue;
                }
                budget -= entry.size;
                let Ok(bytes) = self.read_entry(&entry) else {
                    scanned.remove(&entry.block);
                    continue;
                };
                let lower = entry.known_name.as_deref().map(str::to_ascii_lowercase);
                if lower.as_deref().is_some_and(|n| n.ends_with(".imp")) {
                    imported(&bytes, &mut candidates);
                }
                strings(&bytes, &mut candidates);
            }
            let before = self.unnamed();
            for c in &candidates {
                self.try_name_variants(c);
            }
            let gained = before - self.unnamed();
            named += gained;
            if gained == 0 {
                break;
            }
        }
        named
    }

    fn unnamed(&self) -> usize {
        self.entries()
            .iter()
            .filter(|e| e.known_name.is_none())
            .count()
    }

    fn try_name_variants(&mut self, name: &str) {
        self.add_name(name);
        let lower = name.to_ascii_lowercase();
        if let Some(stem) = lower.strip_suffix(".mdl").map(|_| &name[..name.len() - 4]) {
            self.add_name(&format!("{stem}.mdx"));
        }
        if let Some(stem) = lower
            .strip_suffix(".mdx")
            .or_else(|| lower.strip_suffix(".mdl"))
            .map(|_| &name[..name.len() - 4])
        {
            self.add_name(&format!("{stem}_portrait.mdx"));
            self.add_name(&format!("{stem}_Portrait.mdx"));
        }
        if !lower.starts_with("war3mapimported\\") {
            self.add_name(&format!("war3mapImported\\{name}"));
        }
    }
}

/// The paths `war3map.imp` lists: a version, a count, then for each a flag byte and a
/// NUL-terminated path.
fn imported(bytes: &[u8], out: &mut Vec<String>) {
    let Some(rest) = bytes.get(8..) else { return };
    for part in rest.split(|&b| b == 0) {
        let path = part.get(1..).unwrap_or_default();
        if let Ok(p) = std::str::from_utf8(path) {
            if !p.is_empty() {
                out.push(p.to_string());
            }
        }
    }
}

/// Every run of printable bytes that ends in a known extension, cut at the characters no
/// path holds, with JASS's doubled backslashes undone.
fn strings(bytes: &[u8], out: &mut Vec<String>) {
    let path_byte = |b: u8| b.is_ascii_graphic() && !b"\"'|<>*?,;=(){}[]".contains(&b) || b == b' ';
    for run in bytes.split(|&b| !path_byte(b)) {
        if run.len() < 4 || run.len() > 260 {
            continue;
        }
        let Ok(s) = std::str::from_utf8(run) else {
            continue;
        };
        let s = s.trim().replace("\\\\", "\\");
        let Some(dot) = s.rfind('.') else { continue };
        let ext = s[dot + 1..].to_ascii_lowercase();
        if !EXTENSIONS.contains(&ext.as_str()) {
            continue;
        }
        out.push(s.clone());
        // A path inside a longer run ("model=units\x.mdl"): also from each separator on.
        for (i, c) in s.char_indices() {
            if matches!(c, ' ' | ':') && i + 1 < s.len() {
                out.push(s[i + 1..].to_string());
            }
        }
    }
}
