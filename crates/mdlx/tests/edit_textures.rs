//! Texture path edits (`mdlx::edit::texture_paths`) over every corpus model the library
//! reads: prefixed with `war3mapImported\`, stripped to file names, given `.dds`, then renamed
//! back. Each edited model is written as MDX and read back with exactly the paths the edit
//! reported; `check` finds no error the source lacked; and renamed back, the model writes
//! the source's MDX byte for byte (the paths' padding aside): the edits touch nothing else.

mod common;

use mdlx::edit::{texture_paths, PathEdit};
use mdlx::model::FixedString;
use mdlx::{Format, WriteOptions};

fn errors(m: &mdlx::Model) -> std::collections::BTreeSet<String> {
    common::findings(m, &[])
}

fn mdx(m: &mdlx::Model) -> Vec<u8> {
    mdlx::write(m, Format::Mdx, &WriteOptions::default())
        .unwrap()
        .bytes
}

#[test]
fn texture_path_edits_over_the_corpus() {
    let (mut models, mut edited_paths, mut refused) = (0, 0, 0);
    for row in common::manifest() {
        if !matches!(row.format.as_str(), "mdx" | "mdl") {
            continue;
        }
        let data = std::fs::read(common::corpus_dir().join(&row.local_path)).unwrap();
        let Ok(loaded) = mdlx::read(&data, &mdlx::ReadOptions::default()) else {
            continue;
        };
        let mut source = loaded.model;
        // Paths without their padding: what a changed path keeps.
        for t in &mut source.textures {
            t.path = FixedString::from_field(t.path.text_bytes());
        }
        let label = &row.local_path;
        let before = errors(&source);
        let originals: Vec<Vec<u8>> = source
            .textures
            .iter()
            .map(|t| t.path.text_bytes().to_vec())
            .collect();
        let mut m = source.clone();
        let mut report = texture_paths(&mut m, &PathEdit::Prefix("war3mapImported".into()));
        report.extend(texture_paths(&mut m, &PathEdit::StripFolders));
        report.extend(texture_paths(&mut m, &PathEdit::Extension("dds".into())));
        refused += report.refused.len();
        // Each path is now `NAME.dds`, NAME the original file name's stem.
        for (t, old) in m.textures.iter().zip(&originals) {
            if old.is_empty() {
                assert!(
                    t.path.is_empty(),
                    "{label}: a replaceable texture kept its empty path"
                );
                continue;
            }
            let text = t.path.text();
            assert!(
                text.ends_with(".dds") && !text.contains(['\\', '/']),
                "{label}: {text}"
            );
            edited_paths += 1;
        }
        let back = mdlx::read(&mdx(&m), &mdlx::ReadOptions::default())
            .unwrap()
            .model;
        let got: Vec<String> = back
            .textures
            .iter()
            .map(|t| t.path.text().into_owned())
            .collect();
        let want: Vec<String> = m
            .textures
            .iter()
            .map(|t| t.path.text().into_owned())
            .collect();
        assert_eq!(got, want, "{label}: the written paths");
        let new_errors: Vec<String> = errors(&m).difference(&before).cloned().collect();
        assert!(new_errors.is_empty(), "{label}: new errors {new_errors:?}");
        // Renamed back (by the edited path, where two textures now share one name, each to
        // its own original: rename one texture at a time).
        for (i, old) in originals.iter().enumerate() {
            if old.is_empty() {
                continue;
            }
            let mut one = mdlx::Model {
                textures: vec![m.textures[i].clone()],
                ..Default::default()
            };
            let pairs = vec![(
                m.textures[i].path.text().into_owned(),
                String::from_utf8_lossy(old).into_owned(),
            )];
            texture_paths(&mut one, &PathEdit::Rename(pairs));
            m.textures[i].path = if std::str::from_utf8(old).is_ok() {
                one.textures[0].path.clone()
            } else {
                FixedString::from_field(old)
            };
        }
        assert!(
            mdx(&m) == mdx(&source),
            "{label}: renamed back, the same MDX"
        );
        models += 1;
    }
    println!(
        "edit_textures: {models} corpus models, {edited_paths} texture paths prefixed, stripped and given .dds, written and read back, renamed back to the source's MDX byte for byte; {refused} refused (too long)"
    );
    assert!(models > 500, "{models}");
}
