//! The command line, declared with clap. Nothing here runs anything; values that can be
//! wrong on their own (`--fps 0`, `--time NaN`, `--frames bogus`) are refused while parsing,
//! so every usage error exits with status 2.

mod edit;
mod icon;
mod parse;

pub(crate) use edit::{operations as edit_operations, EditArgs};
pub(crate) use icon::{IconArgs, IconFormat, IconFrame, PortraitArgs};

use clap::{Args, Parser, Subcommand};
pub(crate) use parse::{format_names, parse_hex, Resize};
use std::path::PathBuf;

/// Read, write, convert and pose Warcraft III models (MDX, MDL), Milkshape 3D ASCII, WoW
/// alpha MDX and glTF 2.0.
#[derive(Parser, Debug)]
#[command(name = "mdlx", version, about, propagate_version = true)]
pub(crate) struct Cli {
    /// --quiet and --strict before the verb (`mdlx --quiet check ...`); they apply to the
    /// verbs that read models (info, convert, check, pose), which take them after the verb
    /// too.
    #[command(flatten)]
    pub common: Common,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The flags of the verbs that read models: before the verb or after it.
#[derive(Args, Debug, Clone, Copy, Default)]
pub(crate) struct Common {
    /// Print no warnings or loss notes on stderr (errors are still printed; --json output
    /// still lists them).
    #[arg(long, short)]
    pub quiet: bool,
    /// Read inputs strictly: refuse an MDL file that a lenient reader would repair with a
    /// warning (text outside every block, a static value for a field that can only be
    /// animated), and a glTF import that would lose anything (the losses are listed and
    /// nothing is written).
    #[arg(long)]
    pub strict: bool,
}

impl Command {
    /// The verb's own --quiet and --strict; `None` for the verbs that take neither.
    pub(crate) fn common(&self) -> Option<Common> {
        match self {
            #[cfg(feature = "view")]
            Command::View { common, .. } => Some(*common),
            Command::Info { common, .. }
            | Command::Pose { common, .. }
            | Command::Render { common, .. }
            | Command::Optimize(OptimizeArgs { common, .. })
            | Command::Convert(ConvertArgs { common, .. })
            | Command::Check(CheckArgs { common, .. })
            | Command::Icon(IconArgs { common, .. })
            | Command::Portrait(PortraitArgs { common, .. }) => Some(*common),
            Command::Roundtrip { .. }
            | Command::Completions { .. }
            | Command::Bench { .. }
            | Command::Ls { .. }
            | Command::Extract { .. }
            | Command::Update(_)
            | Command::Edit(_) => None,
        }
    }
}

/// The verbs.
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// List the files of an archive (a map `.w3m`/`.w3x` or any MPQ), one name a line.
    ///
    /// Names come from the archive's `(listfile)` and, where it is missing or incomplete,
    /// from what the archive names itself (the map's standard files, `war3map.imp`, the
    /// paths inside its models, scripts and object data). A file whose name cannot be
    /// recovered is listed as `File%08u.xxx` after its block index.
    Ls {
        /// The archive.
        archive: PathBuf,
        /// Only the files matching these patterns (`*`, `?`; case-insensitive; `/` and `\`
        /// alike), e.g. `'*.mdx'`.
        patterns: Vec<String>,
        /// Also the size and the stored size of each file, and a count on stderr.
        #[arg(long, short)]
        long: bool,
        /// Print one JSON object per file: name, whether the name is known, size, stored
        /// size, locale, whether it is encrypted.
        #[arg(long)]
        json: bool,
    },
    /// Write a new archive: the input's files with some added, replaced, removed or
    /// renamed.
    ///
    /// Every other file is carried over with its bytes (files whose names are unknown keep
    /// their places, so the game still finds them); the map header is kept, `(listfile)`
    /// and `(attributes)` are made afresh, files are stored zlib-compressed. A signature
    /// cannot survive a change: it is dropped, and said so. OUT is written whole or not at
    /// all, and never over the input.
    Update(UpdateArgs),
    /// Edit models as modders do, several operations in one run, applied in the order given;
    /// each says what it changed on stderr, and one that cannot be done is an error naming
    /// it, with nothing written.
    ///
    /// INPUT may be a model, a folder of models, a map or one model inside a map; OUTPUT is
    /// the edited file, folder or map (the map's other files carried over byte for byte).
    /// Operations so far: texture paths (`--texture-prefix 'war3mapImported\'`,
    /// `--texture-strip-folders`, `--texture-rename OLD=NEW`, `--texture-ext blp`); the
    /// whole model moved (`--scale`, `--rotate`, `--translate`, `--centre`, `--ground`,
    /// `--mirror`); sequences (`--seq-rename`, `--seq-delete`, `--seq-copy`, `--seq-move`,
    /// `--seq-reverse`, `--seq-stretch`, `--seq-loop`, `--seq-once`, `--seq-rarity`,
    /// `--seq-move-speed`, `--seq-stop-emitters`), a sequence named by its name (any case)
    /// or its index;
    /// sequences from another model (`--anim-from`, with `--anim-seq`, `--anim-replace`,
    /// `--bone`); parts of another model (`--merge`, with `--merge-part`,
    /// `--merge-under`); `--extents`, `--normals`, `--hard-edges`; `--birth`, `--death`, `--decay`;
    /// `--team-colour`, `--hero-glow`.
    Edit(Box<EditArgs>),
    /// Extract the files of an archive into a folder, backslashes in names as folders.
    ///
    /// Each file is written whole or not at all; a file that cannot be read (a sector that
    /// does not decompress, data cut short) is reported with its name and why, nothing is
    /// written for it, and the exit status is 1.
    Extract {
        /// The archive.
        archive: PathBuf,
        /// The folder to write into (made when missing).
        dir: PathBuf,
        /// Only the files matching these patterns (as `mdlx ls` takes them).
        patterns: Vec<String>,
        /// No summary line.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Show models' version and family, counts of every record kind, sequences, textures,
    /// lights and cameras (with the fields of their version); of a texture (BLP, DDS, TGA,
    /// PNG), its kind, size, alpha and mip levels.
    ///
    /// Several files are shown one after the other; a file that cannot be read is reported
    /// and the others are still shown (exit status 1 at the end).
    Info {
        /// --quiet, --strict.
        #[command(flatten)]
        common: Common,
        /// The model files (`-` reads standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print JSON: one object per file, one per line.
        #[arg(long)]
        json: bool,
    },
    /// Convert a model or a texture, or every one under a folder (with --to).
    ///
    /// glTF 2.0 (`.glb`, or `.gltf` with its buffers and images beside it) converts to a
    /// Warcraft III model (`OUT.mdx`, `OUT.mdl`, `--to mdx|mdl`, or the other model
    /// formats) named after OUT's file: skeleton, skinning (matrix groups in version 800,
    /// skin weights in 1000 and 1100), animations, materials. Its textures are written as
    /// BLP beside OUT under --texture-path (`war3mapImported/Fox.blp`), before the model,
    /// replacing files of the same name. What the model cannot hold is listed (--strict
    /// refuses it); version 800 also tells how far matrix groups move a vertex. glTF does
    /// not convert to glTF again.
    ///
    /// Models convert to glTF 2.0 (`OUT.glb`, `OUT.gltf`, or `--to glb|gltf`) for Blender,
    /// three.js and other engines: skeleton, skinning, every sequence as an animation,
    /// geoset visibility, materials with their textures embedded as PNG. Textures are found
    /// beside the model and under each --textures folder (Warcraft III paths, any case).
    ///
    /// Textures (BLP1, BLP2, DDS, TGA, PNG) convert to PNG (`OUT.png` or `--to png`; a
    /// folder with `--to png` takes its .blp, .dds and .tga files) and to BLP1 with mipmaps
    /// (`OUT.blp` or `--to blp`: JPEG content at --blp-quality, or --blp-palette; a folder
    /// with `--to blp` takes its .png, .tga and .dds files).
    ///
    /// The input format is told by the content; the output format is --to, or else OUT's
    /// extension. Outputs are written whole or not at all, through symbolic links to their
    /// target; special files (`/dev/null`, a pipe) are written directly; inputs are never
    /// written over. `-` as IN reads standard input, `-` as OUT writes standard output
    /// (with --to).
    ///
    /// A folder's tree is mirrored under OUT (an OUT inside IN is not walked into); files
    /// that fail are listed at the end. When two inputs would make the same output (`X.mdx`
    /// beside `X.mdl`), one is converted, preferring MDX over MDL over Milkshape `.txt` over
    /// glTF (the MDX is what the game loads), and the other is reported as skipped.
    #[command(disable_version_flag = true)]
    Convert(ConvertArgs),
    /// Check models for what makes the game or the editors misbehave, what is likely
    /// wrong, and what is wasted: the sanity test, headless.
    ///
    /// Every finding has a stable rule id (`mdlx check --rules` lists them with their
    /// severity and source), a severity (error, warning, info), where in the model it is
    /// (`geosets[2].vertex_groups[17]`, `bones[4] "Hand Right"`), where that record is in
    /// the file (an MDX offset, an MDL line), and what to do. Files and folders (their
    /// .mdx, .mdl and Milkshape .txt files) and maps (`map.w3x`: every model in it) are checked
    /// in parallel; Milkshape and WoW
    /// alpha files are checked as the Warcraft III model they convert to. Textures found
    /// beside a model or under --textures are checked too.
    ///
    /// What the game asks of a model depends on what it is for: each model is classified
    /// as a unit, building, doodad, effect, portrait, missile or item (from its sequences,
    /// nodes and name; --kind overrides), and rules take their severity for that kind (an
    /// effect without a Death sequence is normal, a unit without one is an error).
    ///
    /// Exit status: 1 when any error is found (with --deny warnings, any warning too) or a
    /// file cannot be read; 0 otherwise. Rules are silenced with --allow RULE or an
    /// `mdlx-check.toml` (`allow = ["rule", ...]`, `deny = "warnings"`) in the current
    /// folder or given with --config.
    ///
    /// --fix repairs what is safe to repair (key order, duplicate and redundant keys,
    /// unused textures, materials, texture animations and global sequences), checks that
    /// the fixed model poses as the original at every key time of every sequence, and
    /// writes it in the input's format: to --output, or over the input with --in-place
    /// (whole or not at all).
    Check(CheckArgs),
    /// Pose a model: every node's world transform and every geoset's visibility at one
    /// moment of a sequence.
    Pose {
        /// --quiet, --strict.
        #[command(flatten)]
        common: Common,
        /// The model file (`-` reads standard input).
        file: PathBuf,
        /// The moment to pose.
        #[command(flatten)]
        moment: Moment,
        /// Print JSON (with full world matrices, column-major) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Draw a model: a picture, an animation, or thumbnails of a whole library.
    ///
    /// OUT's extension picks what is made: `.png` one picture; `.gif`, `.apng` or `.webp`
    /// an animation, the sequence played (with --sequence) or a turntable (without it, the
    /// model turning once while its first Stand sequence plays). INPUT may be a folder or a
    /// map: then OUT is a folder, which gets a PNG thumbnail of every model (the tree
    /// mirrored), or a `.png`, which gets a contact sheet of them all with their names.
    /// The camera frames the model from its front left, a little above, unless told
    /// otherwise. Textures are looked for beside the model (in its map for a model in a
    /// map) and under each --textures path.
    Render {
        /// --quiet, --strict.
        #[command(flatten)]
        common: Common,
        /// The model file, `ARCHIVE:NAME`, a folder or a map.
        input: PathBuf,
        /// The picture, animation, folder of thumbnails or contact sheet to write.
        output: PathBuf,
        /// How to draw it.
        #[command(flatten)]
        args: RenderArgs,
    },
    /// Make icons of a model (or a picture) as the game's command card shows them: BTN,
    /// DISBTN, PASBTN, DISPASBTN, ATC, DISATC, each where the game looks for it.
    ///
    /// The model is drawn headless (as `render` draws it), framed on its head and
    /// shoulders (its head bone; the top of the model without one; what only glows, as a
    /// hero's team glow, is not framed), over a background, inside the frame of its kind:
    /// a button's grey bevel, a passive's black frame, an autocast's gold one, drawn from
    /// the measured geometry of the game's icons. A disabled icon is its enabled one as the
    /// game's disabled icons are made: a black frame and every colour at about half.
    /// INPUT may be a folder or a map: every model in it gets its icons (portrait models
    /// left out), and --sheet shows them all on one page.
    Icon(IconArgs),
    /// Make a unit's portrait model: Portrait and Portrait Talk sequences (the unit's own,
    /// or its Stand and Stand Talk), one camera on its head as the game's portraits frame
    /// it; or, with --camera-only, just give a model that portrait camera.
    Portrait(PortraitArgs),
    /// Show a model in the browser, moving, and follow its file as you edit it.
    ///
    /// Starts a small web server on 127.0.0.1 (nothing beyond this machine can reach it)
    /// and prints its address, `mdlx view: http://127.0.0.1:PORT/`; open it in a browser
    /// (or pass --open). The page shows the model playing a sequence, with the sequence
    /// list, play/pause and a time slider; drag to orbit the camera, use the wheel to zoom;
    /// a team colour; toggles for bones, extents, collision shapes and wireframe; the
    /// textures used (found, or why not) and the model's `check` findings.
    ///
    /// The file is looked at every 300 ms: when it changes, it is read again and the page
    /// follows. A save that does not read keeps the last model that did on screen, with
    /// the reader's error (file:line:col) shown above it. (The file must read when the
    /// server starts.)
    ///
    /// The pictures are drawn by the same renderer as `mdlx render` (frames sent to the
    /// page as PNG), not by WebGL in the browser: there is one source of truth for how a
    /// material looks, and the viewer shows the same pixels `mdlx render` writes.
    /// Stop the server with Ctrl-C.
    #[cfg(feature = "view")]
    View {
        /// --quiet, --strict.
        #[command(flatten)]
        common: Common,
        /// The model file (MDL, MDX, or any format `convert` reads).
        file: PathBuf,
        /// How to serve it.
        #[command(flatten)]
        args: ViewArgs,
    },
    /// Make models smaller with a measured bound on what changes.
    ///
    /// Passes (all by default): records (duplicate and unused textures, materials, texture
    /// animations, global sequences), geometry (welded vertices, degenerate and duplicate
    /// triangles, unused vertices, shared matrix groups, merged geosets), keys (keys the
    /// curves do not need, splines made linear, keys outside every sequence, tracks at rest),
    /// bytes (floats rounded to a grid finer than the tolerance, string padding cleared).
    /// Each pass is kept for a model only if the result, posed at every key time and
    /// midpoint of every sequence, stays within the tolerance of the original, adds no
    /// `check` finding and reads back from its MDX; otherwise it is skipped and the report
    /// says why.
    ///
    /// IN and OUT are files (OUT's extension, .mdx or .mdl, picks its format) or folders
    /// (every model under IN is written under OUT in its own format). Without OUT nothing
    /// is written: the report shows what would change.
    Optimize(OptimizeArgs),
    /// Decode and re-encode every .mdx under the paths and compare the bytes.
    ///
    /// Warcraft III files of every version go through the MDX codec; WoW alpha-family
    /// files (1300-1500 with alpha chunk shapes) through their own codec.
    Roundtrip {
        /// Files or folders (searched recursively).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Go through MDL text: MDX -> MDL -> MDX (WoW alpha files, which MDL cannot
        /// hold, still go through their own codec and say so).
        #[arg(long, value_name = "FORMAT", value_parser = ["mdl"])]
        via: Option<String>,
        /// Print one JSON object per file, one per line, then a summary object.
        #[arg(long)]
        json: bool,
    },
    /// Print a shell completion script: `mdlx completions bash >
    /// ~/.local/share/bash-completion/completions/mdlx` (make the folder first with `mkdir -p`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Time decoding and encoding of every .mdx/.mdl under DIR (in memory).
    #[command(hide = true)]
    Bench {
        /// Folder to read.
        dir: PathBuf,
        /// How many passes to time.
        repeat: u32,
    },
}

/// The options of `mdlx view`.
#[cfg(feature = "view")]
#[derive(Args, Debug, Clone)]
pub(crate) struct ViewArgs {
    /// The port to listen on (on 127.0.0.1 only); 0, the default, picks a free one.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub port: u16,
    /// Open the page in the desktop's browser (with xdg-open).
    #[arg(long)]
    pub open: bool,
    /// Where else to look for textures: folders, archives (maps, war3.mpq), or the game's
    /// folder.
    #[arg(long, value_name = "PATH")]
    pub textures: Vec<std::path::PathBuf>,
}

/// The options of `mdlx render`.
#[derive(Args, Debug, Clone)]
pub(crate) struct RenderArgs {
    /// The sequence (name or index) to draw; without it, the model's first Stand sequence
    /// (the bind pose if it has none) for a picture, and a turntable for an animation.
    #[arg(long, value_name = "NAME|INDEX")]
    pub sequence: Option<String>,
    /// Milliseconds into the sequence (the moment of a picture; particles and ribbons are
    /// simulated from the sequence's start). Default for a picture: half-way in, at most
    /// 1000 ms (effects are usually empty at 0); for an animation: 0.
    #[arg(long, value_name = "MS", allow_negative_numbers = true, value_parser = parse::parse_time)]
    pub time: Option<f64>,
    /// Picture size: `N` (square) or `WxH`. Default 512 for one model, 192 for a library.
    #[arg(long, value_name = "N|WxH", value_parser = parse::parse_size)]
    pub size: Option<(u32, u32)>,
    /// The camera.
    #[command(flatten)]
    pub camera: CameraArgs,
    /// Draw from the model's own camera (its first, the portrait camera), when it has one.
    #[arg(long, conflicts_with_all = ["yaw", "pitch", "distance"])]
    pub portrait: bool,
    /// Team colour: a player number (0 red, 1 blue, ... 23) or `#RRGGBB`.
    #[arg(long, value_name = "N|#RRGGBB", value_parser = parse::parse_team)]
    pub team_color: Option<[u8; 3]>,
    /// Background: `transparent` (the default, but for GIF: dark grey, since GIF has no
    /// partial transparency) or `#RRGGBB`.
    #[arg(long, value_name = "COLOR", value_parser = parse::parse_background)]
    pub background: Option<[u8; 4]>,
    /// Where else to look for textures: folders, archives (maps, war3.mpq), or the game's
    /// folder (its archives are searched in the game's order).
    #[arg(long, value_name = "PATH")]
    pub textures: Vec<PathBuf>,
    /// Animation: frames per second (15 by default).
    #[arg(long, value_name = "FPS", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub fps: Option<u32>,
    /// Animation: number of frames (default: the sequence's length at --fps, at most 150;
    /// 36 for a turntable).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=2000))]
    pub frames: Option<u32>,
    /// Do not draw particle emitters 2 and ribbons.
    #[arg(long)]
    pub no_effects: bool,
    /// The level of detail to draw (Reforged models carry each mesh at levels 0 to 3; the
    /// game draws one level at a time, 0 at the highest setting).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub lod: u32,
    /// Do not light the model (every layer drawn as unshaded).
    #[arg(long)]
    pub no_light: bool,
    /// Samples per pixel along each axis (1 to 4); 2 by default.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4))]
    pub supersample: Option<u32>,
    /// Contact sheet: pictures per row (default: about square).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub columns: Option<u32>,
}

/// Where a camera looks from: the same flags for `render`, `icon` and `portrait`, whose
/// defaults differ (each verb's help says them).
#[derive(Args, Clone, Copy, Debug, Default)]
pub(crate) struct CameraArgs {
    /// Camera: degrees about the vertical from the model's front (+X). Default: 35 for a
    /// picture, 30 for an icon, -8 for a portrait (nearly from the front, as the game's).
    #[arg(long, value_name = "DEG", allow_negative_numbers = true)]
    pub yaw: Option<f32>,
    /// Camera: degrees above the horizon. Default: 20 for a picture, 10 for an icon, -2 for
    /// a portrait (a little below the eyes).
    #[arg(long, value_name = "DEG", allow_negative_numbers = true)]
    pub pitch: Option<f32>,
    /// Camera: distance from what is framed (the model's centre, the head), in model
    /// units. Default: framed to fit; for a portrait, 0.42 of the model's height, as the
    /// game's.
    #[arg(long, value_name = "UNITS")]
    pub distance: Option<f32>,
    /// Camera: vertical field of view in degrees. Default: 45; for a portrait 39.6, the
    /// game's portraits'.
    #[arg(long, value_name = "DEG")]
    pub fov: Option<f32>,
}

/// A moment of a model's animation.
#[derive(Args, Clone, Debug)]
pub(crate) struct Moment {
    /// The sequence (name or index) to pose; without it, the bind pose. Converting to
    /// Milkshape: the one sequence to write; without it, all of them.
    #[arg(long, value_name = "NAME|INDEX")]
    pub sequence: Option<String>,
    /// Milliseconds into the sequence (looping sequences wrap, others stop at the end);
    /// needs --sequence.
    #[arg(
        long,
        value_name = "MS",
        allow_negative_numbers = true,
        requires = "sequence",
        value_parser = parse::parse_time
    )]
    pub time: Option<f64>,
    /// The camera's view direction, to turn billboarded nodes toward it.
    #[arg(long, value_name = "X,Y,Z", value_parser = parse::parse_view)]
    pub view: Option<[f32; 3]>,
}

/// The frame ranges of `--frames` (one value holding a list, not several values).
#[derive(Clone, Debug)]
pub(crate) struct Ranges(pub Vec<mdlx::convert::ms3d::FrameRange>);

/// `--frames`: `Name=first-last[!],...`, checked while parsing.
fn parse_frames(text: &str) -> Result<Ranges, String> {
    let ranges = mdlx::convert::ms3d::FrameRange::parse_list(text)?;
    if ranges.is_empty() {
        return Err("expected at least one range, like Stand=1-30".into());
    }
    Ok(Ranges(ranges))
}

/// `--rename`'s pairs.
#[derive(Clone, Debug)]
pub(crate) struct Renames(pub Vec<mdlx::convert::ready::Rename>);

/// `--rename`: `FROM=TO,...`, checked while parsing.
fn parse_renames(text: &str) -> Result<Renames, String> {
    mdlx::convert::ready::parse_renames(text).map(Renames)
}

/// `--scale`, `--height`: a finite number above 0.
fn parse_positive(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("{text:?} is not a number above 0")),
    }
}

/// `--version`: a Warcraft III model version.
fn parse_model_version(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(v) if mdlx::model::is_known_version(v) => Ok(v),
        _ => Err("the model version is 800, or 900 to 1800 in steps of 100".into()),
    }
}

/// `--texture-path`: a relative folder the game knows (`war3mapImported\`, `Textures/Units`)
/// as the prefix of texture paths: `\`-separated, ending in `\` unless empty. Refuses `..`,
/// `.`, empty parts and absolute paths, which would put textures outside OUT's folder.
fn parse_texture_path(text: &str) -> Result<String, String> {
    let parts: Vec<&str> = text.split(['/', '\\']).collect();
    let parts = match parts.split_last() {
        Some((&"", rest)) => rest,
        _ => &parts[..],
    };
    for p in parts {
        if p.is_empty() || *p == "." || *p == ".." || p.contains(':') {
            return Err(format!(
                "{text:?} is not a relative folder (no `..`, `.`, empty parts or drive letters)"
            ));
        }
    }
    Ok(parts.iter().map(|p| format!("{p}\\")).collect())
}

/// `RRGGBB` (optionally with a leading `#`) as three bytes.
fn parse_color(s: &str) -> Result<[u8; 3], String> {
    let hex = s.strip_prefix('#').unwrap_or(s);
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("{s:?} is not a colour as RRGGBB hex (e.g. ff0303)"));
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|e| e.to_string());
    Ok([byte(0)?, byte(2)?, byte(4)?])
}

// The arguments of `convert` (its help is the verb's, on [`Command::Convert`]).
#[derive(Args, Debug)]
pub(crate) struct ConvertArgs {
    /// --quiet, --strict.
    #[command(flatten)]
    pub(crate) common: Common,
    /// The input model (MDX, MDL, Milkshape ASCII or glTF; never modified), a folder, or
    /// `-`.
    pub(crate) input: PathBuf,
    /// The output file (`.mdx`, `.mdl`, `.obj`, `.glb`, `.gltf`, `.txt` for Milkshape), the output
    /// folder, or `-` for standard output.
    pub(crate) output: PathBuf,
    /// Output format: mdx, mdl, obj, glb, gltf, ms3d (Milkshape 3D ASCII, `.txt`), a WoW alpha
    /// MDX: alpha1300, alpha1400, alpha1500, or, from a texture, png, blp, tga or dds;
    /// needed for a folder and for `-`.
    #[arg(long, value_name = "FORMAT", value_parser = clap::builder::PossibleValuesParser::new(parse::format_names()))]
    pub(crate) to: Option<String>,
    /// Textures: the mip level to write (0, the default, is the full size).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) mip: usize,
    /// Texture output: resize first (nearest neighbour): `pow2` (each side to its
    /// nearest power of two, as the game needs), `WxH`, or `max:N` (powers of two, the
    /// longer side at most N).
    #[arg(long, value_name = "HOW", value_parser = parse::Resize::parse)]
    pub(crate) resize: Option<parse::Resize>,
    /// BLP output: JPEG quality, 1 (smallest) to 100 (best).
    #[arg(long, value_name = "N", default_value_t = 80, value_parser = clap::value_parser!(u8).range(1..=100))]
    pub(crate) blp_quality: u8,
    /// BLP output: a 256-colour palette instead of JPEG (exact for images of up to 256
    /// colours; alpha kept at 8 bits).
    #[arg(long, conflicts_with = "blp_quality")]
    pub(crate) blp_palette: bool,
    /// DDS output: the pixel format, bc1 (DXT1: colour, 1 bit of alpha), bc3 (DXT5:
    /// colour and 8-bit alpha) or rgba (uncompressed); written with mipmaps down to
    /// 1 x 1. [default: bc3 when a pixel is not fully opaque, else bc1]
    #[arg(long, value_name = "FORMAT", value_parser = ["bc1", "bc3", "rgba"])]
    pub(crate) dds: Option<String>,
    /// TGA output: raw (uncompressed) or rle (run-length encoded, smaller for flat
    /// areas).
    #[arg(long, value_name = "HOW", value_parser = ["raw", "rle"], default_value = "raw")]
    pub(crate) tga: String,
    /// glTF output, and Reforged to classic (--version 800): where to look for
    /// textures, after the model's own folder or map (repeat for several): a folder, an
    /// archive (`war3.mpq`, a map), or the game's folder (its archives are searched in
    /// the game's order). Going to 800, the textures the classic materials need are written
    /// as BLP beside OUT.
    #[arg(long, value_name = "DIR")]
    pub(crate) textures: Vec<PathBuf>,
    /// Reforged to classic (--version 800): the level of detail to keep (geosets drawn
    /// at every level stay too). [default: 0]
    #[arg(long, value_name = "N")]
    pub(crate) lod: Option<u32>,
    /// glTF output: the colour team-colour layers are filled with, as RRGGBB hex
    /// (default ff0303, the red player's).
    #[arg(long, value_name = "RRGGBB", value_parser = parse_color)]
    pub(crate) team_color: Option<[u8; 3]>,
    /// glTF output: Hermite and Bezier translations and scalings as glTF cubic splines
    /// (exact) instead of linear keys within 1e-5 of the model's size, the default:
    /// Blender replaces glTF's cubic tangents with its own handles, and a file that
    /// comes back from an editor is compared with linear keys.
    #[arg(long)]
    pub(crate) cubic: bool,
    /// glTF output: linear keys only (now the default; kept for scripts that pass it).
    #[arg(long, hide = true, conflicts_with = "cubic")]
    pub(crate) linear: bool,
    /// glTF output: without the model itself in the root node's extras (a smaller file
    /// for viewers; what comes back from an editor is then imported as any glTF is,
    /// not as the model it was).
    #[arg(long)]
    pub(crate) no_source: bool,
    /// OBJ: the moment to pose. Milkshape output: --sequence picks the one sequence to
    /// write (without it, all of them).
    #[command(flatten)]
    pub(crate) moment: Moment,
    /// Milkshape: frames per second (its key times are frame numbers).
    #[arg(long, value_name = "FPS", default_value_t = 24.0, value_parser = parse::parse_fps)]
    pub(crate) fps: f32,
    /// Milkshape input: frame ranges that become sequences, `Stand=1-30,Death=31-60!`
    /// (`!`: plays once); without it, the ranges an mdlx-written file lists, else one
    /// sequence over all frames.
    #[arg(long, value_name = "RANGES", value_parser = parse_frames)]
    pub(crate) frames: Option<Ranges>,
    /// The model version to write: 800 (classic), or 900 to 1800 in steps of 100
    /// (Reforged). A model of another version is converted: what the target lacks is
    /// listed and refused unless --allow-lossy; what it adds gets the game's defaults.
    /// A Reforged model going to 800 is converted for the classic client instead (skin
    /// weights as matrix groups, HD materials as classic layers, BLP textures, one
    /// level of detail), its losses listed.
    /// glTF input builds this version (800: skin weights become matrix groups).
    /// [default: the input's; glTF input: 800]
    #[arg(long = "version", value_name = "800|900..1800", value_parser = parse_model_version)]
    pub(crate) model_version: Option<u32>,
    /// glTF input: the folder of the textures as the game sees it; the BLP files are
    /// written there under OUT's folder. `/` and `\` both separate; empty puts them
    /// beside the model. [default: war3mapImported\]
    #[arg(long, value_name = "PREFIX", value_parser = parse_texture_path)]
    pub(crate) texture_path: Option<String>,
    /// glTF input: game units per glTF unit (glTF's unit is the metre). [default: 70,
    /// which makes a 1.7 m figure 119 units tall, a hero's height; a file mdlx
    /// exported: 1]
    #[arg(long, value_name = "F", value_parser = parse_positive)]
    pub(crate) scale: Option<f32>,
    /// glTF input: scale the model so that it stands H game units tall in its first
    /// pose (a peon is about 97, a hero 117).
    #[arg(long, value_name = "H", value_parser = parse_positive, conflicts_with = "scale")]
    pub(crate) height: Option<f32>,
    /// Converted input (glTF, Milkshape, WoW alpha): sequence names to set,
    /// `Survey=Stand,Run=Walk Fast` (the source's name, without case, `=` the name to
    /// give). The others are mapped to the game's names by a table (Idle is Stand, Die
    /// is Death, ...); what is still not a name the game plays is listed.
    #[arg(long, value_name = "FROM=TO,...", value_parser = parse_renames)]
    pub(crate) rename: Option<Renames>,
    /// Write only standard MDL (no `MdlxExtension` block); refuse if that loses data.
    #[arg(long)]
    pub(crate) strict_mdl: bool,
    /// With --strict-mdl or --version: write anyway and list what was lost.
    #[arg(long)]
    pub(crate) allow_lossy: bool,
    /// Print one JSON object per file on standard output (what was written, its losses
    /// and warnings, or the error).
    #[arg(long)]
    pub(crate) json: bool,
}

// The arguments of `check` (its help is the verb's, on [`Command::Check`]).
#[derive(Args, Debug)]
pub(crate) struct CheckArgs {
    /// --quiet, --strict.
    #[command(flatten)]
    pub(crate) common: Common,
    /// Model files and folders.
    #[arg(required_unless_present = "rules")]
    pub(crate) paths: Vec<PathBuf>,
    /// Output: human (grouped per file, coloured on a terminal), json (one object per
    /// finding, per line), or sarif (SARIF 2.1.0, for code scanning).
    #[arg(long, value_parser = ["human", "json", "sarif"], default_value = "human")]
    pub(crate) format: String,
    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub(crate) json: bool,
    /// Also fail (exit 1) on warnings, or on warnings and infos.
    #[arg(long, value_name = "LEVEL", value_parser = ["warnings", "infos"])]
    pub(crate) deny: Option<String>,
    /// Silence a rule (repeat for several).
    #[arg(long, value_name = "RULE")]
    pub(crate) allow: Vec<String>,
    /// A settings file (default: mdlx-check.toml in the current folder, if any).
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Check every file as this kind of model instead of the kind found for it.
    #[arg(long, value_name = "KIND",
          value_parser = ["unit", "building", "doodad", "effect", "portrait", "missile", "item"])]
    pub(crate) kind: Option<String>,
    /// Where to look for textures, after the model's own folder or map (repeat for
    /// several): a folder, an archive, or the game's folder (its archives are searched
    /// in the game's order). With the game's archives among them, a texture or model
    /// path found nowhere is reported (texture-not-found, model-not-found).
    #[arg(long, value_name = "DIR")]
    pub(crate) textures: Vec<PathBuf>,
    /// List the rules and exit.
    #[arg(long)]
    pub(crate) rules: bool,
    /// Repair what is safe to repair (see above); needs --output or --in-place.
    #[arg(long)]
    pub(crate) fix: bool,
    /// With --fix: write the fixed model over its input.
    #[arg(long, requires = "fix", conflicts_with = "output")]
    pub(crate) in_place: bool,
    /// With --fix and one input file: where to write the fixed model.
    #[arg(long, short, value_name = "FILE", requires = "fix")]
    pub(crate) output: Option<PathBuf>,
}

// The arguments of `optimize` (its help is the verb's, on [`Command::Optimize`]).
#[derive(Args, Debug)]
pub(crate) struct OptimizeArgs {
    /// --quiet, --strict.
    #[command(flatten)]
    pub(crate) common: Common,
    /// The model file or folder.
    pub(crate) input: PathBuf,
    /// Where to write (a file, or a folder for a folder); nothing is written without it.
    pub(crate) output: Option<PathBuf>,
    /// Only these passes (comma-separated: records, geometry, keys, bytes).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "PASS",
        conflicts_with = "skip"
    )]
    pub(crate) only: Vec<String>,
    /// Every pass but these.
    #[arg(long, value_delimiter = ',', value_name = "PASS")]
    pub(crate) skip: Vec<String>,
    /// The bound: a fraction of the model's size for positions (`0.0005`), or any of
    /// `position=F,rotation=RADIANS,color=F,alpha=F`. Defaults: position 0.0005,
    /// rotation 0.001, color and alpha 1/512 (why: `mdlx::optimize::Tolerance`).
    #[arg(long, value_name = "SPEC")]
    pub(crate) tolerance: Option<String>,
    /// Print one JSON report per model, one per line, then a summary object.
    #[arg(long)]
    pub(crate) json: bool,
    /// Measure OUTPUT against INPUT (two models with the same geosets, as another
    /// optimizer writes them) and print the deviation as JSON; optimizes nothing.
    #[arg(long)]
    pub(crate) compare: bool,
}

// The arguments of `update` (its help is the verb's, on [`Command::Update`]).
#[derive(Args, Debug)]
pub(crate) struct UpdateArgs {
    /// The archive to start from.
    pub(crate) archive: PathBuf,
    /// The new archive.
    pub(crate) out: PathBuf,
    /// Add or replace: `NAME=FILE` (e.g. `war3mapImported\hero.mdx=hero.mdx`; `/` may be
    /// typed for `\`, and any case: the archive's own name of a file is kept).
    #[arg(long, value_name = "NAME=FILE")]
    pub(crate) put: Vec<String>,
    /// Put a model and the textures it names: `NAME=FILE`. Each texture found beside FILE
    /// or under `--textures` goes in beside NAME, and the model's path to it is rewritten
    /// to match (a PNG goes in as BLP); textures not found are listed and left as named.
    #[arg(long, value_name = "NAME=FILE")]
    pub(crate) put_model: Vec<String>,
    /// More folders (or maps, or the game's folder) to find `--put-model` textures in.
    #[arg(long, value_name = "DIR")]
    pub(crate) textures: Vec<PathBuf>,
    /// Remove a file.
    #[arg(long, value_name = "NAME")]
    pub(crate) remove: Vec<String>,
    /// Rename a file: `OLD=NEW`.
    #[arg(long, value_name = "OLD=NEW")]
    pub(crate) rename: Vec<String>,
    /// Leave out files that cannot be read (each is named) instead of failing.
    #[arg(long)]
    pub(crate) drop_unreadable: bool,
    /// Leave the map's import list (`war3map.imp`) as it is. Otherwise it follows the
    /// edits as the World Editor's does: files put are listed, removed ones dropped,
    /// renamed ones followed, and listed files the map lacks are reported.
    #[arg(long)]
    pub(crate) no_import_list: bool,
}
