//! The import list a map (`war3map.imp`) or campaign (`war3campaign.imp`) keeps for the
//! World Editor: the files that are imports, as opposed to the map's own. The game does
//! not read it; the editor does, and a map saved in the editor drops an import this list
//! does not name.
//!
//! The layout: a version (`u32`: 1 since The Frozen Throne, 0 before it), a count (`u32`),
//! then per entry a flag byte (version 1 only) and a NUL-terminated path.
//!
//! What the flag means, from the maps in `shared/archives` and the format's write-ups:
//! - 0, 5 and 8: a *standard* path: the file is `war3mapImported\` + the entry's file
//!   name (a map written by JMPQ lists `tcBox.mdx` with flag 0 for the archive's
//!   `war3mapImported\tcBox.mdx`);
//! - 10 and 13 (The Frozen Throne's editor), 29 (Reforged's, which writes every entry so):
//!   a *custom* path: the file is at the path as written (wc3libs' `in.w3x` lists 372
//!   files with 13, each at its path; Klatschen 2025 and shipwreckers' test map, saved by
//!   Reforged's editor, list every import with 29).
//!
//! New entries are always written as custom paths, with the whole path: 29 in a map whose
//! list already uses it or whose `war3map.w3i` is Reforged's (format 31 or later), 13
//! otherwise. Every reader understands a custom path, whatever it thinks of the standard
//! flags (mdx-m3-viewer counts only 0 as standard).

use super::error::MpqError;

/// The flag of a custom path as The Frozen Throne's World Editor writes it.
pub const CUSTOM_CLASSIC: u8 = 13;
/// The flag Reforged's World Editor writes for every import.
pub const CUSTOM_REFORGED: u8 = 29;

/// A map's or campaign's import list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imports {
    /// The format version: 1 (flags present) or 0.
    pub version: u32,
    /// The entries, in the file's order.
    pub entries: Vec<Import>,
}

/// One entry of an import list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    /// Its flag byte (`None` in a version 0 list, which has none).
    pub flag: Option<u8>,
    /// The path as written (bytes: old lists are not always UTF-8).
    pub path: Vec<u8>,
}

/// An archive name folded for comparing: lower case, `\` for `/`. Two names with one key
/// are one file to the game.
pub fn name_key(name: &str) -> String {
    name.replace('/', "\\").to_ascii_lowercase()
}

/// Whether two archive names are one name: any case, `/` and `\` alike.
pub fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes().zip(b.bytes()).all(|(x, y)| {
            let fold = |c: u8| {
                if c == b'/' {
                    b'\\'
                } else {
                    c.to_ascii_lowercase()
                }
            };
            fold(x) == fold(y)
        })
}

/// The file name after the last `\` or `/`.
fn file_name(path: &str) -> &str {
    path.rsplit(['\\', '/']).next().unwrap_or(path)
}

/// The folder standard paths are under.
pub const IMPORTED: &str = "war3mapImported\\";

impl Import {
    /// Whether the entry gives the file's whole path (a custom path) rather than a file
    /// name under `war3mapImported\`.
    pub fn is_custom(&self) -> bool {
        match self.flag {
            Some(f) => !matches!(f, 0 | 5 | 8),
            // Version 0 has no flag: a path with folders is taken as written.
            None => self.path.iter().any(|&b| b == b'\\' || b == b'/'),
        }
    }

    /// The path as text (bytes that are not UTF-8 replaced).
    pub fn path_text(&self) -> String {
        String::from_utf8_lossy(&self.path).into_owned()
    }

    /// The name of the file in the archive that this entry stands for.
    pub fn archive_name(&self) -> String {
        let path = self.path_text();
        if self.is_custom() {
            path
        } else {
            format!("{IMPORTED}{}", file_name(&path))
        }
    }
}

impl Imports {
    /// An empty list (version 1).
    pub fn new() -> Imports {
        Imports {
            version: 1,
            entries: Vec::new(),
        }
    }

    /// Reads a list; an error names the entry and the byte offset where it ends early.
    pub fn parse(bytes: &[u8]) -> Result<Imports, MpqError> {
        let word = |at: usize| {
            bytes
                .get(at..at + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let (Some(version), Some(count)) = (word(0), word(4)) else {
            return Err(MpqError::invalid(
                format!(
                    "the import list is {} bytes, shorter than its 8-byte head",
                    bytes.len()
                ),
                0,
            ));
        };
        if version > 1 {
            return Err(MpqError::invalid(
                format!("the import list's version is {version}; versions 0 and 1 are known"),
                0,
            ));
        }
        // Each entry takes at least one byte: a count beyond that is no count.
        if count as usize > bytes.len() {
            return Err(MpqError::invalid(
                format!(
                    "the import list claims {count} entries in {} bytes",
                    bytes.len()
                ),
                4,
            ));
        }
        let mut at = 8;
        let mut entries = Vec::with_capacity(count as usize);
        for i in 0..count {
            let flag = if version == 1 {
                let f = *bytes.get(at).ok_or_else(|| short(i, at))?;
                at += 1;
                Some(f)
            } else {
                None
            };
            let len = bytes[at.min(bytes.len())..]
                .iter()
                .position(|&b| b == 0)
                .ok_or_else(|| short(i, at))?;
            entries.push(Import {
                flag,
                path: bytes[at..at + len].to_vec(),
            });
            at += len + 1;
        }
        Ok(Imports { version, entries })
    }

    /// The list's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out =
            Vec::with_capacity(8 + self.entries.iter().map(|e| e.path.len() + 2).sum::<usize>());
        out.extend_from_slice(&self.version.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            if self.version == 1 {
                out.push(e.flag.unwrap_or(CUSTOM_CLASSIC));
            }
            out.extend_from_slice(&e.path);
            out.push(0);
        }
        out
    }

    /// The entry that stands for the archive's file `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.entries
            .iter()
            .position(|e| same_name(&e.archive_name(), name))
    }

    /// The flag new entries get: Reforged's when the list already uses it.
    fn custom_flag(&self, reforged: bool) -> u8 {
        if reforged || self.entries.iter().any(|e| e.flag == Some(CUSTOM_REFORGED)) {
            CUSTOM_REFORGED
        } else {
            CUSTOM_CLASSIC
        }
    }

    /// Lists the archive's file `name` as an import (a custom path, written whole); false
    /// when it is listed already. `reforged`: the map is Reforged's (the flag its editor
    /// writes).
    pub fn add(&mut self, name: &str, reforged: bool) -> bool {
        if self.find(name).is_some() {
            return false;
        }
        let flag = self.custom_flag(reforged);
        self.entries.push(Import {
            flag: (self.version == 1).then_some(flag),
            path: name.replace('/', "\\").into_bytes(),
        });
        true
    }

    /// Drops the entry of the archive's file `name`; false when it has none.
    pub fn remove(&mut self, name: &str) -> bool {
        match self.find(name) {
            Some(i) => {
                self.entries.remove(i);
                true
            }
            None => false,
        }
    }

    /// Points the entry of `old` at `new`: a standard entry stays standard when `new` is
    /// a file directly under `war3mapImported\`, any other becomes a custom path. False
    /// when `old` has no entry.
    pub fn rename(&mut self, old: &str, new: &str, reforged: bool) -> bool {
        let Some(i) = self.find(old) else {
            return false;
        };
        let flag = self.custom_flag(reforged);
        let e = &mut self.entries[i];
        let rest = new
            .get(..IMPORTED.len())
            .filter(|p| same_name(p, IMPORTED))
            .map(|_| &new[IMPORTED.len()..]);
        match rest {
            Some(base) if !e.is_custom() && !base.contains(['\\', '/']) => {
                e.path = base.as_bytes().to_vec();
            }
            _ => {
                if e.flag.is_some() && !e.is_custom() {
                    e.flag = Some(flag);
                }
                e.path = new.replace('/', "\\").into_bytes();
            }
        }
        true
    }
}

impl Default for Imports {
    fn default() -> Self {
        Imports::new()
    }
}

fn short(entry: u32, at: usize) -> MpqError {
    MpqError::invalid(
        format!("the import list ends inside entry {entry}"),
        at as u64,
    )
}

/// Whether `name` is one of a map's or campaign's own files (its script, terrain, object
/// data, ...), which are never imports: a name with no folder that starts `war3map` or
/// `war3campaign`, the script under `scripts\`, `conversation.json`, and the archive's
/// own `(listfile)`, `(attributes)`, `(signature)`.
pub fn is_own_file(name: &str) -> bool {
    let lower = name_key(name);
    let bare = !lower.contains('\\');
    (bare && (lower.starts_with("war3map") || lower.starts_with("war3campaign")))
        || lower.starts_with('(')
        || matches!(
            lower.as_str(),
            "conversation.json" | "scripts\\war3map.j" | "scripts\\war3map.lua"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(entries: &[(u8, &str)]) -> Vec<u8> {
        let mut b = vec![1, 0, 0, 0];
        b.extend_from_slice(&(entries.len() as u32).to_le_bytes());
        for (f, p) in entries {
            b.push(*f);
            b.extend_from_slice(p.as_bytes());
            b.push(0);
        }
        b
    }

    #[test]
    fn standard_and_custom_paths() {
        let bytes = list(&[
            (0, "tcBox.mdx"),
            (13, "dummy.mdx"),
            (5, "war3mapImported\\a.blp"),
            (29, "Textures\\b.blp"),
        ]);
        let imp = Imports::parse(&bytes).unwrap();
        let names: Vec<String> = imp.entries.iter().map(Import::archive_name).collect();
        assert_eq!(
            names,
            [
                "war3mapImported\\tcBox.mdx",
                "dummy.mdx",
                "war3mapImported\\a.blp",
                "Textures\\b.blp"
            ]
        );
        assert_eq!(imp.to_bytes(), bytes, "read and written back byte for byte");
        assert_eq!(imp.find("WAR3MAPIMPORTED/TCBOX.MDX"), Some(0));
    }

    #[test]
    fn edits_keep_the_lists_style() {
        let mut imp = Imports::parse(&list(&[(29, "x.mdx")])).unwrap();
        assert!(imp.add("war3mapImported/hero.mdx", false));
        assert!(!imp.add("War3MapImported\\HERO.mdx", false), "listed once");
        assert_eq!(imp.entries[1].flag, Some(CUSTOM_REFORGED));
        let mut imp = Imports::parse(&list(&[(5, "a.blp"), (13, "b.blp")])).unwrap();
        assert!(imp.add("war3mapImported\\c.blp", false));
        assert_eq!(imp.entries[2].flag, Some(CUSTOM_CLASSIC));
        assert!(imp.rename("war3mapImported\\a.blp", "war3mapImported\\d.blp", false));
        assert_eq!(
            (imp.entries[0].flag, imp.entries[0].path_text().as_str()),
            (Some(5), "d.blp")
        );
        assert!(imp.rename("war3mapImported\\d.blp", "Units\\d.blp", false));
        assert_eq!(imp.entries[0].flag, Some(CUSTOM_CLASSIC));
        assert_eq!(imp.entries[0].archive_name(), "Units\\d.blp");
        assert!(imp.remove("b.blp") && !imp.remove("b.blp"));
        assert_eq!(imp.entries.len(), 2);
    }

    #[test]
    fn broken_lists_are_errors_with_offsets() {
        let mut bytes = list(&[(13, "a.mdx")]);
        bytes.pop();
        let e = Imports::parse(&bytes).unwrap_err().to_string();
        assert!(e.contains("entry 0") && e.contains("0x9"), "{e}");
        let e = Imports::parse(&[1, 0, 0, 0, 255, 255, 255, 255])
            .unwrap_err()
            .to_string();
        assert!(e.contains("claims 4294967295 entries"), "{e}");
        assert!(Imports::parse(&[1, 0]).is_err());
        // Version 0: no flags.
        let imp = Imports::parse(b"\0\0\0\0\x02\0\0\0a.mdx\0Units\\b.blp\0").unwrap();
        assert_eq!(imp.entries[0].archive_name(), "war3mapImported\\a.mdx");
        assert_eq!(imp.entries[1].archive_name(), "Units\\b.blp");
    }

    #[test]
    fn own_files() {
        for own in [
            "war3map.j",
            "War3Map.W3U",
            "scripts\\war3map.lua",
            "(listfile)",
            "war3campaign.w3f",
        ] {
            assert!(is_own_file(own), "{own}");
        }
        for import in ["war3mapImported\\x.mdx", "Units\\war3map.blp", "hero.mdx"] {
            assert!(!is_own_file(import), "{import}");
        }
    }
}
