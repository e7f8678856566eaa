//! The arguments of `mdlx edit`, and the order its operations were given in: an edit is a
//! list of operations applied one after the other, as a build script lists them.

use anyhow::Result;
use clap::{ArgMatches, Args};
use mdlx::edit::{Axis, Edit, Fade, Merge, PathEdit, SequenceEdit, Transfer, Transform};
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
    /// Multiply every length by this factor (vertices, pivots, extents, collision shapes,
    /// emitter speeds and areas, ribbon heights, light ranges, cameras, move speeds).
    #[arg(long, value_name = "FACTOR")]
    pub(crate) scale: Vec<String>,
    /// Turn the model about an axis through the origin: `DEGREES` (about Z, up) or
    /// `x:DEGREES`, `y:DEGREES`, `z:DEGREES`; counter-clockwise looking down the axis.
    #[arg(long, value_name = "[AXIS:]DEGREES", allow_hyphen_values = true)]
    pub(crate) rotate: Vec<String>,
    /// Move the model by `X,Y,Z`.
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true)]
    pub(crate) translate: Vec<String>,
    /// Move the model so the middle of its vertices is over the origin (X and Y).
    #[arg(long)]
    pub(crate) centre: bool,
    /// Move the model up or down so its lowest vertex is at height 0.
    #[arg(long)]
    pub(crate) ground: bool,
    /// Mirror the model across an axis: `x` (front to back), `y` (left to right: node
    /// names' Left/Right and L/R are swapped too) or `z`.
    #[arg(long, value_name = "AXIS")]
    pub(crate) mirror: Vec<String>,
    /// Recompute every extent (the model's, each geoset's and each sequence's, over the
    /// poses each sequence reaches), as the game culls and selects by them: after a turn,
    /// a move or sequence edits.
    #[arg(long)]
    pub(crate) extents: bool,
    /// Copy sequences from another model (any format the tool reads), bone by bone: bones,
    /// helpers and attachments pair by name (any case, `_`, `-`, `.` and spaces alike,
    /// Left/Right as L/R); the new sequences go after this model's; whatever the source
    /// does not drive holds this model's Stand pose. Unpaired bones are said.
    #[arg(long, value_name = "MODEL")]
    pub(crate) anim_from: Vec<PathBuf>,
    /// With --anim-from: the sequence to take (name or index; several times for several);
    /// without, every sequence.
    #[arg(long, value_name = "SEQUENCE")]
    pub(crate) anim_seq: Vec<String>,
    /// With --anim-from: this model's sequences of the same names go first.
    #[arg(long)]
    pub(crate) anim_replace: bool,
    /// With --anim-from: this model's geosets show, in the new sequences, as the source's
    /// geosets that follow the same bones (without: as in this model's Stand).
    #[arg(long)]
    pub(crate) anim_visibility: bool,
    /// With --anim-from: a bone of this model that pairs with a source bone of another
    /// name: `TARGET=SOURCE`.
    #[arg(long, value_name = "TARGET=SOURCE")]
    pub(crate) bone: Vec<String>,
    /// Merge parts of another model (any format the tool reads) into this one: geosets,
    /// bones, helpers, attachments, lights, emitters, ribbons, event objects, collision
    /// shapes, cameras; object ids given anew, materials and textures equal to this
    /// model's shared. In each of this model's sequences the part plays its own sequence
    /// of the same name, or holds its Stand pose.
    #[arg(long, value_name = "MODEL")]
    pub(crate) merge: Vec<PathBuf>,
    /// With --merge (the one it follows, or the first): take only the node of this name, with every node under it and the
    /// geosets they move (and its ancestors, for the pose), or the camera of this name;
    /// several times for several. Without, everything.
    #[arg(long, value_name = "NAME")]
    pub(crate) merge_part: Vec<String>,
    /// With --merge (the one it follows, or the first): attach the part under this node of this model (`Hand Right Ref`), as
    /// the game attaches a model there: its origin at the node, following it. A model
    /// without the node is an error, and nothing is written.
    #[arg(long, value_name = "NODE")]
    pub(crate) merge_under: Vec<String>,
    /// Recompute the vertex normals from the faces, smooth across seams (vertices split at
    /// one position) where the faces meet within DEGREES; 0 keeps every seam a hard edge.
    #[arg(long, value_name = "DEGREES")]
    pub(crate) normals: Vec<String>,
    /// Make edges hard where faces meet at more than DEGREES (0: flat shading): vertices
    /// there are split, each copy with the normal of its side's faces.
    #[arg(long, value_name = "DEGREES")]
    pub(crate) hard_edges: Vec<String>,
    /// Put a team colour layer under a material's texture (by the material's index), as
    /// the game's models have it: the colour shows where the texture's alpha is low.
    /// Classic (800) models.
    #[arg(long, value_name = "MATERIAL")]
    pub(crate) team_colour: Vec<String>,
    /// Add a hero glow: the game's glow texture on a square 300 across at the feet, on a
    /// bone of its own that nothing moves. Classic (800) models.
    #[arg(long)]
    pub(crate) hero_glow: bool,
    /// Add a Birth sequence of MS milliseconds: the Stand's opening pose, every geoset
    /// fading in.
    #[arg(long, value_name = "MS")]
    pub(crate) birth: Vec<String>,
    /// Add a Death sequence of MS milliseconds: the Stand's opening pose, every geoset
    /// fading out.
    #[arg(long, value_name = "MS")]
    pub(crate) death: Vec<String>,
    /// Add a Decay sequence of MS milliseconds, fading out as --death does.
    #[arg(long, value_name = "MS")]
    pub(crate) decay: Vec<String>,
    /// Rename a sequence: `OLD=NEW` (a sequence is named by its name, any case, or its index).
    #[arg(long, value_name = "OLD=NEW")]
    pub(crate) seq_rename: Vec<String>,
    /// Delete a sequence and the keys only it plays.
    #[arg(long, value_name = "SEQUENCE")]
    pub(crate) seq_delete: Vec<String>,
    /// Copy a sequence under a new name, after the last one: `SEQUENCE=NEW`.
    #[arg(long, value_name = "SEQUENCE=NEW")]
    pub(crate) seq_copy: Vec<String>,
    /// Move a sequence to a place in the list: `SEQUENCE=INDEX` (0 first).
    #[arg(long, value_name = "SEQUENCE=INDEX")]
    pub(crate) seq_move: Vec<String>,
    /// Play a sequence backwards.
    #[arg(long, value_name = "SEQUENCE")]
    pub(crate) seq_reverse: Vec<String>,
    /// Make a sequence FACTOR times as long, its keys with it: `SEQUENCE=FACTOR`
    /// (2: half as fast).
    #[arg(long, value_name = "SEQUENCE=FACTOR")]
    pub(crate) seq_stretch: Vec<String>,
    /// Make a sequence loop.
    #[arg(long, value_name = "SEQUENCE")]
    pub(crate) seq_loop: Vec<String>,
    /// Make a sequence play once and hold its last frame.
    #[arg(long, value_name = "SEQUENCE")]
    pub(crate) seq_once: Vec<String>,
    /// Make every emitter (particles, ribbons) invisible on a sequence's last frame, which a
    /// sequence played once holds: no corpse that bleeds forever. Moments before it stay as
    /// they were.
    #[arg(long, value_name = "SEQUENCE")]
    pub(crate) seq_stop_emitters: Vec<String>,
    /// Set how rarely the game picks a sequence among its variants: `SEQUENCE=RARITY`.
    #[arg(long, value_name = "SEQUENCE=RARITY")]
    pub(crate) seq_rarity: Vec<String>,
    /// Set the speed (units a second) a sequence's movement was made for: `SEQUENCE=SPEED`.
    #[arg(long, value_name = "SEQUENCE=SPEED")]
    pub(crate) seq_move_speed: Vec<String>,
    /// Say what would change; write nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
}

fn usage(flag: &str, what: &str, v: &str) -> anyhow::Error {
    crate::Usage(format!("--{flag} takes {what}, not `{v}`")).into()
}

/// `A=B`, both given.
fn pair<'a>(flag: &str, what: &str, v: &'a str) -> Result<(&'a str, &'a str)> {
    v.split_once('=')
        .filter(|(a, b)| !a.is_empty() && !b.is_empty())
        .ok_or_else(|| usage(flag, what, v))
}

/// `A=NUMBER`.
fn number<T: std::str::FromStr>(flag: &str, what: &str, v: &str) -> Result<(String, T)> {
    let (a, b) = pair(flag, what, v)?;
    let n = b.trim().parse().map_err(|_| usage(flag, what, v))?;
    Ok((a.to_string(), n))
}

fn axis(flag: &str, v: &str) -> Result<Axis> {
    match v.trim().to_ascii_lowercase().as_str() {
        "x" => Ok(Axis::X),
        "y" => Ok(Axis::Y),
        "z" => Ok(Axis::Z),
        _ => Err(usage(flag, "an axis: x, y or z", v)),
    }
}

/// One operation from its flag's value.
fn operation(id: &str, v: String) -> Result<Edit> {
    let flag = id.replace('_', "-");
    let f = flag.as_str();
    let seq = |e: SequenceEdit| Ok(Edit::Sequence(e));
    match id {
        "texture_prefix" => Ok(Edit::Textures(PathEdit::Prefix(v))),
        "texture_ext" => Ok(Edit::Textures(PathEdit::Extension(v))),
        "texture_rename" => {
            let (old, new) = pair(f, "OLD=NEW", &v)?;
            let pairs = vec![(old.to_string(), new.to_string())];
            Ok(Edit::Textures(PathEdit::Rename(pairs)))
        }
        "scale" => {
            let s: f32 = v.trim().parse().map_err(|_| usage(f, "a number", &v))?;
            Ok(Edit::Transform(Transform::Scale(s)))
        }
        "rotate" => {
            let (a, d) = v.split_once(':').unwrap_or(("z", &v));
            let degrees: f32 = d
                .trim()
                .parse()
                .map_err(|_| usage(f, "[AXIS:]DEGREES", &v))?;
            let axis = axis(f, a)?;
            Ok(Edit::Transform(Transform::Rotate { axis, degrees }))
        }
        "translate" => {
            let n: Vec<f32> = (v.split(','))
                .map(|x| x.trim().parse())
                .collect::<Result<_, _>>()
                .map_err(|_| usage(f, "X,Y,Z", &v))?;
            let [x, y, z] = n[..] else {
                return Err(usage(f, "X,Y,Z", &v));
            };
            Ok(Edit::Transform(Transform::Translate([x, y, z])))
        }
        "mirror" => Ok(Edit::Transform(Transform::Mirror(axis(f, &v)?))),
        "normals" => {
            let a = v
                .trim()
                .parse()
                .map_err(|_| usage(f, "an angle in degrees", &v))?;
            Ok(Edit::Normals(a))
        }
        "hard_edges" => {
            let a = v
                .trim()
                .parse()
                .map_err(|_| usage(f, "an angle in degrees", &v))?;
            Ok(Edit::HardEdges(a))
        }
        "birth" | "death" | "decay" => {
            let ms = v.trim().parse().map_err(|_| usage(f, "milliseconds", &v))?;
            let kind = match id {
                "birth" => Fade::Birth,
                "death" => Fade::Death,
                _ => Fade::Decay,
            };
            Ok(Edit::Fade(kind, ms))
        }
        "team_colour" => {
            let i = v
                .trim()
                .parse()
                .map_err(|_| usage(f, "a material index", &v))?;
            Ok(Edit::TeamColour(i))
        }
        "seq_rename" => {
            let (which, to) = pair(f, "OLD=NEW", &v)?;
            let (which, to) = (which.to_string(), to.to_string());
            seq(SequenceEdit::Rename { which, to })
        }
        "seq_delete" => seq(SequenceEdit::Delete(v)),
        "seq_stop_emitters" => seq(SequenceEdit::StopEmitters(v)),
        "seq_reverse" => seq(SequenceEdit::Reverse(v)),
        "seq_loop" | "seq_once" => seq(SequenceEdit::Looping {
            which: v,
            looping: id == "seq_loop",
        }),
        "seq_copy" => {
            let (which, name) = pair(f, "SEQUENCE=NEW", &v)?;
            let (which, name) = (which.to_string(), name.to_string());
            seq(SequenceEdit::Duplicate { which, name })
        }
        "seq_move" => {
            let (which, to) = number(f, "SEQUENCE=INDEX", &v)?;
            seq(SequenceEdit::Move { which, to })
        }
        "seq_stretch" => {
            let (which, factor) = number(f, "SEQUENCE=FACTOR", &v)?;
            seq(SequenceEdit::Stretch { which, factor })
        }
        "seq_rarity" => {
            let (which, rarity) = number(f, "SEQUENCE=RARITY", &v)?;
            seq(SequenceEdit::Rarity { which, rarity })
        }
        "seq_move_speed" => {
            let (which, speed) = number(f, "SEQUENCE=SPEED", &v)?;
            seq(SequenceEdit::MoveSpeed { which, speed })
        }
        _ => unreachable!("no operation {id}"),
    }
}

/// `--anim-from PATH` with the options that go with it.
fn transfer(m: &ArgMatches, path: &std::path::Path) -> Result<Edit> {
    let data = crate::files::read(path)?;
    let source = mdlx::read(&data, &mdlx::ReadOptions::default())
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
        .model;
    let strings = |id: &str| -> Vec<String> {
        m.get_many::<String>(id)
            .map(|v| v.cloned().collect())
            .unwrap_or_default()
    };
    let pairs = (strings("bone").iter())
        .map(|v| pair("bone", "TARGET=SOURCE", v).map(|(a, b)| (a.to_string(), b.to_string())))
        .collect::<Result<_>>()?;
    Ok(Edit::Transfer(Box::new(Transfer {
        source,
        sequences: strings("anim_seq"),
        replace: m.get_flag("anim_replace"),
        pairs,
        visibility: m.get_flag("anim_visibility"),
    })))
}

/// `--merge PATH` with the options that go with it: those given after it and before the
/// next `--merge` (those before the first go with the first).
fn merges(m: &ArgMatches) -> Result<Vec<(usize, Edit)>> {
    let (Some(at), Some(paths)) = (m.indices_of("merge"), m.get_many::<PathBuf>("merge")) else {
        return Ok(Vec::new());
    };
    let at: Vec<usize> = at.collect();
    let owner = |i: usize| at.iter().rposition(|&a| a < i).unwrap_or(0);
    let mut parts: Vec<Vec<String>> = vec![Vec::new(); at.len()];
    let mut under: Vec<Option<String>> = vec![None; at.len()];
    if let (Some(i), Some(v)) = (
        m.indices_of("merge_part"),
        m.get_many::<String>("merge_part"),
    ) {
        for (i, v) in i.zip(v) {
            parts[owner(i)].push(v.clone());
        }
    }
    if let (Some(i), Some(v)) = (
        m.indices_of("merge_under"),
        m.get_many::<String>("merge_under"),
    ) {
        for (i, v) in i.zip(v) {
            if under[owner(i)].replace(v.clone()).is_some() {
                return Err(usage("merge-under", "one node for each --merge", v));
            }
        }
    }
    let mut out = Vec::new();
    for (k, path) in paths.enumerate() {
        let data = crate::files::read(path)?;
        let source = mdlx::read(&data, &mdlx::ReadOptions::default())
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
            .model;
        let merge = Merge {
            source,
            parts: std::mem::take(&mut parts[k]),
            under: under[k].take(),
        };
        out.push((at[k], Edit::Merge(Box::new(merge))));
    }
    Ok(out)
}

/// The flags that take a value, one operation each time they are given.
const VALUED: &[&str] = &[
    "texture_prefix",
    "texture_ext",
    "texture_rename",
    "scale",
    "rotate",
    "translate",
    "mirror",
    "team_colour",
    "normals",
    "hard_edges",
    "birth",
    "death",
    "decay",
    "seq_rename",
    "seq_delete",
    "seq_copy",
    "seq_move",
    "seq_reverse",
    "seq_stretch",
    "seq_loop",
    "seq_once",
    "seq_rarity",
    "seq_move_speed",
    "seq_stop_emitters",
];

/// The operations of `m` (the `edit` verb's matches) in the order they were given.
pub(crate) fn operations(m: &ArgMatches) -> Result<Vec<Edit>> {
    let mut ops: Vec<(usize, Edit)> = Vec::new();
    for id in VALUED {
        if let (Some(i), Some(v)) = (m.indices_of(id), m.get_many::<String>(id)) {
            for (i, v) in i.zip(v.cloned()) {
                ops.push((i, operation(id, v)?));
            }
        }
    }
    let flags = [
        (
            "texture_strip_folders",
            Edit::Textures(PathEdit::StripFolders),
        ),
        ("centre", Edit::Transform(Transform::Centre)),
        ("ground", Edit::Transform(Transform::Ground)),
        ("extents", Edit::Extents),
        ("hero_glow", Edit::HeroGlow),
    ];
    for (id, op) in flags {
        if m.get_flag(id) {
            ops.push((m.index_of(id).unwrap_or(0), op));
        }
    }
    if let (Some(i), Some(v)) = (
        m.indices_of("anim_from"),
        m.get_many::<PathBuf>("anim_from"),
    ) {
        for (i, path) in i.zip(v) {
            ops.push((i, transfer(m, path)?));
        }
    }
    ops.extend(merges(m)?);
    ops.sort_by_key(|(i, _)| *i);
    if ops.is_empty() {
        return Err(crate::Usage("mdlx edit: no operation given".into()).into());
    }
    Ok(ops.into_iter().map(|(_, op)| op).collect())
}
