//! Names for files an archive's `(listfile)` does not name: a map without a listfile (or
//! with one left incomplete on purpose) still names most of its files itself.
//!
//! Candidates, tried against the hash table (a name is only taken when both of its check
//! hashes match a live slot, so a wrong guess costs nothing):
//! - the standard file names of a map and a campaign;
//! - `war3map.imp`, WorldEdit's list of imported files (each where the list says, and as
//!   written);
//! - every path-like string inside every file that can be read: the texture paths in
//!   models, model paths in object data and `war3map.j`/`.lua` literals (with JASS's `\\`
//!   read as `\`), `.mdl` paths also as `.mdx` (the editor's object data names models
//!   `.mdl`, the game loads `.mdx`), and each model's `_portrait` companion.
//!
//! Pictures, sounds and terrain name nothing and are not read (unless their own names are
//! unknown). Newly named files are read in turn (an encrypted one only becomes readable once named),
//! until a round names nothing new. What is read in all is bounded by the archive's own
//! length (16 times it, plus 64 MiB), so a small hostile archive cannot make opening it
//! decompress gigabytes.

use super::{Archive, Entry};

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

/// Extensions of the files that name no other file: pictures, sounds, terrain, shadows,
/// pathing and the placement of doodads and units. Recovery does not read them (they are
/// most of a map's bytes; reading them made `mdlx ls` of a map with four unnamed files
/// seven times slower than StormLib's listing). A file whose name is unknown is read
/// whatever it is.
const NAME_NOTHING: &[&str] = &[
    "blp", "tga", "dds", "png", "jpg", "tif", "wav", "mp3", "flac", "ogg", "mid", "w3e", "shd",
    "wpm", "doo", "mmp", "b00",
];

fn names_nothing(name: Option<&str>) -> bool {
    let Some(name) = name else { return false };
    let Some((_, ext)) = name.rsplit_once('.') else {
        return false;
    };
    NAME_NOTHING.iter().any(|x| ext.eq_ignore_ascii_case(x))
}

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
        // Each candidate is looked up once, however many files name it (a map's strings
        // repeat its paths many times over).
        let mut tried = std::collections::HashSet::new();
        // What reading may decode in all: a hostile archive can point a thousand blocks at
        // the same few compressed bytes, each claiming megabytes.
        let mut budget = self.file_len().saturating_mul(16).saturating_add(64 << 20);
        // Named files first, round after round while they name more; the unnamed ones
        // (which may be anything, pictures and sounds among them) only when no named file
        // is left to read.
        for _round in 0..16 {
            if self.unnamed() == 0 {
                break;
            }
            let entries = self.entries();
            let wanted = |e: &Entry, named: bool| {
                e.known_name.is_some() == named
                    && !names_nothing(e.known_name.as_deref())
                    && !scanned.contains(&e.block)
            };
            let named_phase = entries.iter().any(|e| wanted(e, true));
            let todo: Vec<&Entry> = entries.iter().filter(|e| wanted(e, named_phase)).collect();
            let mut candidates = Vec::new();
            for entry in todo {
                if entry.size > 64 << 20 || entry.size > budget || !scanned.insert(entry.block) {
                    continue;
                }
                budget -= entry.size;
                let bytes = match self.read_entry(entry) {
                    Ok(b) => b,
                    // An encrypted file becomes readable once it is named: try it again.
                    Err(e) if matches!(e.kind, super::MpqErrorKind::NoKey) => {
                        scanned.remove(&entry.block);
                        continue;
                    }
                    Err(_) => continue,
                };
                let lower = entry.known_name.as_deref().map(str::to_ascii_lowercase);
                if lower.as_deref().is_some_and(|n| n.ends_with(".imp")) {
                    imported(&bytes, &mut candidates);
                }
                strings(&bytes, &mut candidates);
            }
            let before = self.unnamed();
            for c in candidates {
                if tried.insert(crate::name_key(&c)) {
                    self.try_name_variants(&c);
                }
            }
            let gained = before - self.unnamed();
            named += gained;
            if gained == 0 && !named_phase {
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
        if !lower.starts_with("war3mapimported\\") && !lower.starts_with("war3mapimported/") {
            self.add_name(&format!("war3mapImported\\{name}"));
        }
    }
}

/// The names an import list gives: each entry's file (and its path as written).
fn imported(bytes: &[u8], out: &mut Vec<String>) {
    if let Ok(list) = super::Imports::parse(bytes) {
        for e in &list.entries {
            out.push(e.archive_name());
            out.push(e.path_text());
        }
    }
}

/// Every run of printable bytes that ends in a known extension, cut at the characters no
/// path holds, with JASS's doubled backslashes undone. Found from the dots that start a
/// known extension (a run is only looked at when one ends it), so a megabyte of terrain or
/// object data costs one pass over its bytes.
fn strings(bytes: &[u8], out: &mut Vec<String>) {
    let path_byte = |b: u8| b.is_ascii_graphic() && !b"\"'|<>*?,;=(){}[]".contains(&b) || b == b' ';
    let dots = bytes.iter().enumerate().filter(|&(_, &b)| b == b'.');
    for (dot, _) in dots {
        let tail = &bytes[dot + 1..];
        let ext_len = tail
            .iter()
            .take(5)
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        // The extension must end the run.
        if ext_len == 0 || tail.get(ext_len).is_some_and(|&b| path_byte(b)) {
            continue;
        }
        let ext = &tail[..ext_len];
        if !EXTENSIONS
            .iter()
            .any(|x| x.as_bytes().eq_ignore_ascii_case(ext))
        {
            continue;
        }
        let start = bytes[..dot]
            .iter()
            .rev()
            .take(261)
            .take_while(|&&b| path_byte(b))
            .count();
        let run = &bytes[dot - start..dot + 1 + ext_len];
        if run.len() < 4 || run.len() > 260 {
            continue;
        }
        let Ok(s) = std::str::from_utf8(run) else {
            continue;
        };
        let s = s.trim().replace("\\\\", "\\");
        out.push(s.clone());
        // A path inside a longer run ("model=units\x.mdl"): also from each separator on.
        for (i, c) in s.char_indices() {
            if matches!(c, ' ' | ':') && i + 1 < s.len() {
                out.push(s[i + 1..].to_string());
            }
        }
    }
}
