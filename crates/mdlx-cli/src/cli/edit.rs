//! The arguments of `mdlx edit`, and the order its operations were given in: an edit is a
//! list of operations applied one after the other, as a build script lists them.

use anyhow::Result;
use clap::{ArgMatches, Args};
use mdlx::edit::PathEdit;
use std::path::PathBuf;

/// `mdlx edit`'s arguments (its help is the verb's, on [`super::Command::Edit`]).
#[derive(Args, Debug)]
pub(crate) struct EditArgs {
    /// The model (any format the tool reads), a folder of models, a map (every model in it)
    /// or one model inside a map (`map.w3x:war3mapImported\hero.mdx`).
    pub(crate) input: PathBuf,
    /// Where the edited model goes: a file (its extension says MDX or MDL), a folder for a
    /// folder, a new map for a map. Never the input.
    pub(crate) output: PathBuf,
    /// Put this folder before every texture path not under it (`war3mapImported\`).
    #[arg(long, value_name = "FOLDER")]
    pub(crate) texture_prefix: Vec<String>,
    /// Keep only the file name of every texture path.
    #[arg(long)]
    pub(crate) texture_strip_folders: bool,
    /// Replace a texture path: `OLD=NEW` (any case, `/` or `\`); an OLD that names no
    /// texture of a model is an error, and nothing is written.
    #[arg(long, value_name = "OLD=NEW")]
    pub(crate) texture_rename: Vec<String>,
    /// Give every texture path this extension (`blp`, `dds`, `tga`).
    #[arg(long, value_name = "EXT")]
    pub(crate) texture_ext: Vec<String>,
    /// Say what would change; write nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
}

/// The operations of `m` (the `edit` verb's matches) in the order they were given.
pub(crate) fn operations(m: &ArgMatches) -> Result<Vec<PathEdit>> {
    let mut ops: Vec<(usize, PathEdit)> = Vec::new();
    let values = |id: &str| -> Vec<(usize, String)> {
        match (m.indices_of(id), m.get_many::<String>(id)) {
            (Some(i), Some(v)) => i.zip(v.cloned()).collect(),
            _ => Vec::new(),
        }
    };
    for (i, v) in values("texture_prefix") {
        ops.push((i, PathEdit::Prefix(v)));
    }
    for (i, v) in values("texture_ext") {
        ops.push((i, PathEdit::Extension(v)));
    }
    for (i, v) in values("texture_rename") {
        let Some((old, new)) = v
            .split_once('=')
            .filter(|(a, b)| !a.is_empty() && !b.is_empty())
        else {
            return Err(crate::Usage(format!("--texture-rename takes OLD=NEW, not `{v}`")).into());
        };
        ops.push((
            i,
            PathEdit::Rename(vec![(old.to_string(), new.to_string())]),
        ));
    }
    if m.get_flag("texture_strip_folders") {
        ops.push((
            m.index_of("texture_strip_folders").unwrap_or(0),
            PathEdit::StripFolders,
        ));
    }
    ops.sort_by_key(|(i, _)| *i);
    if ops.is_empty() {
        return Err(crate::Usage("mdlx edit: no operation given".into()).into());
    }
    Ok(ops.into_iter().map(|(_, op)| op).collect())
}
