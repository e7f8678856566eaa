//! Texture paths: prefixed (`war3mapImported\`, as a map's imports are), stripped to the
//! file name, renamed by a mapping, given another extension. Replaceable textures (team
//! colour, glow, trees: no path) are never touched. Paths are bytes (old models are not
//! always UTF-8): an edit keeps every byte it does not change.

use super::Report;
use crate::model::{FixedString, Model};
use crate::spec::len;

/// One change to every texture path of a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathEdit {
    /// Put this folder before every path not already under it (any case, `/` or `\`); a
    /// `\` is added when it does not end in one.
    Prefix(String),
    /// Keep the file name only.
    StripFolders,
    /// Replace whole paths, old by new (matched in any case, `/` and `\` alike).
    Rename(Vec<(String, String)>),
    /// Give every path this extension (`blp`, `.dds`): the old one replaced, or added when
    /// the file name has none.
    Extension(String),
}

/// Folds a path for comparing: lower case, `\` for `/`.
fn fold(b: &[u8]) -> Vec<u8> {
    b.iter()
        .map(|&c| {
            if c == b'/' {
                b'\\'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// Where the file name starts.
fn name_start(path: &[u8]) -> usize {
    path.iter()
        .rposition(|&c| c == b'\\' || c == b'/')
        .map_or(0, |i| i + 1)
}

/// The new path, or `None` when the edit leaves it as it is.
fn apply(path: &[u8], edit: &PathEdit) -> Option<Vec<u8>> {
    match edit {
        PathEdit::Prefix(prefix) => {
            let mut p = prefix.as_bytes().to_vec();
            if !matches!(p.last(), Some(b'\\' | b'/') | None) {
                p.push(b'\\');
            }
            if fold(path).starts_with(&fold(&p)) {
                return None;
            }
            p.extend_from_slice(path);
            Some(p)
        }
        PathEdit::StripFolders => Some(path[name_start(path)..].to_vec()),
        PathEdit::Rename(pairs) => {
            let folded = fold(path);
            pairs
                .iter()
                .find(|(old, _)| fold(old.as_bytes()) == folded)
                .map(|(_, new)| new.as_bytes().to_vec())
        }
        PathEdit::Extension(ext) => {
            let ext = ext.trim_start_matches('.');
            let start = name_start(path);
            let stem_end = path[start..]
                .iter()
                .rposition(|&c| c == b'.')
                .map_or(path.len(), |i| start + i);
            let mut p = path[..stem_end].to_vec();
            p.push(b'.');
            p.extend_from_slice(ext.as_bytes());
            Some(p)
        }
    }
}

/// Applies `edit` to the path of every texture that has one. A path the field cannot hold
/// (259 bytes and a NUL) is refused and left as it was.
pub fn texture_paths(model: &mut Model, edit: &PathEdit) -> Report {
    let mut report = Report::default();
    for (i, t) in model.textures.iter_mut().enumerate() {
        let old = t.path.text_bytes().to_vec();
        if old.is_empty() {
            continue;
        }
        let Some(new) = apply(&old, edit).filter(|n| *n != old) else {
            continue;
        };
        let shown = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        if new.len() >= len::PATH {
            report.refused.push(format!(
                "textures[{i}]: {} would be {} bytes, more than a texture path holds ({})",
                shown(&new),
                new.len(),
                len::PATH - 1
            ));
            continue;
        }
        report
            .changed
            .push(format!("textures[{i}]: {} -> {}", shown(&old), shown(&new)));
        t.path = FixedString::from_field(&new);
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Texture;

    fn model(paths: &[&str]) -> Model {
        let mut m = Model::default();
        for p in paths {
            m.textures.push(Texture {
                path: (*p).into(),
                replaceable_id: u32::from(p.is_empty()),
                ..Default::default()
            });
        }
        m
    }

    fn paths(m: &Model) -> Vec<String> {
        m.textures
            .iter()
            .map(|t| t.path.text().into_owned())
            .collect()
    }

    #[test]
    fn prefix_strip_rename_extension() {
        let mut m = model(&["Textures\\Hero.blp", "", "war3mapImported/Glow.BLP", "Cape"]);
        let r = texture_paths(&mut m, &PathEdit::Prefix("war3mapImported".into()));
        assert_eq!(
            paths(&m),
            [
                "war3mapImported\\Textures\\Hero.blp",
                "",
                "war3mapImported/Glow.BLP",
                "war3mapImported\\Cape"
            ]
        );
        assert_eq!(r.changed.len(), 2, "{r:?}");
        assert_eq!(
            r.changed[0],
            "textures[0]: Textures\\Hero.blp -> war3mapImported\\Textures\\Hero.blp"
        );
        texture_paths(&mut m, &PathEdit::StripFolders);
        assert_eq!(paths(&m), ["Hero.blp", "", "Glow.BLP", "Cape"]);
        texture_paths(&mut m, &PathEdit::Extension(".dds".into()));
        assert_eq!(paths(&m), ["Hero.dds", "", "Glow.dds", "Cape.dds"]);
        let r = texture_paths(
            &mut m,
            &PathEdit::Rename(vec![("HERO.DDS".into(), "Units\\Hero\\Hero.blp".into())]),
        );
        assert_eq!(
            paths(&m),
            ["Units\\Hero\\Hero.blp", "", "Glow.dds", "Cape.dds"]
        );
        assert_eq!(r.changed.len(), 1);
        // The replaceable texture kept its id and its empty path throughout.
        assert_eq!(m.textures[1].replaceable_id, 1);
    }

    #[test]
    fn what_does_not_fit_is_refused_and_kept() {
        let long = "x".repeat(250);
        let mut m = model(&[&long]);
        let r = texture_paths(&mut m, &PathEdit::Prefix("war3mapImported".into()));
        assert!(r.changed.is_empty());
        assert!(r.refused[0].contains("266 bytes"), "{r:?}");
        assert_eq!(paths(&m), [long]);
    }

    #[test]
    fn bytes_that_are_not_utf8_survive() {
        let mut m = Model::default();
        m.textures.push(Texture {
            path: FixedString::from_field(b"Textures\\\xb5\xc6.blp"),
            ..Default::default()
        });
        texture_paths(&mut m, &PathEdit::StripFolders);
        assert_eq!(m.textures[0].path.text_bytes(), b"\xb5\xc6.blp");
    }
}
