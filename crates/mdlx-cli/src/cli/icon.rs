//! The arguments of `mdlx icon` and `mdlx portrait`.

use super::{parse, CameraArgs, Common};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// What an icon frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum IconFrame {
    /// The head and shoulders (around the head bone; the top of the model without one).
    Head,
    /// The top 45% of the model.
    Upper,
    /// The whole model.
    Whole,
    /// The model's own first camera (its portrait camera).
    Camera,
}

/// The file format of the icons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum IconFormat {
    /// BLP1 (JPEG content, as the game's own icons), what the classic game reads.
    Blp,
    /// DDS (Reforged's HD icons are DDS).
    Dds,
    /// PNG only.
    Png,
}

/// `mdlx icon`.
#[derive(Args, Debug)]
pub(crate) struct IconArgs {
    /// --quiet, --strict.
    #[command(flatten)]
    pub common: Common,
    /// A model (or `ARCHIVE:NAME`), a picture (BLP, DDS, TGA, PNG, JPEG), a folder or a map.
    pub input: PathBuf,
    /// The folder the icons go to, each where the game looks for it
    /// (`ReplaceableTextures/CommandButtons/BTNName.blp`, ...).
    pub output: PathBuf,
    /// The icons' name (`BTN<NAME>`); default: the input's file name without its extension
    /// (and without a BTN prefix). Not for a folder or a map, whose models are each named
    /// after their file.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Which icons, comma-separated: btn, disbtn, pas, dispas, atc, disatc, or all.
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "btn,disbtn"
    )]
    pub icons: Vec<String>,
    /// Icon side in pixels: 64 (classic; the default) or 256 (Reforged HD).
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(16..=1024))]
    pub size: u32,
    /// File format of the icons.
    #[arg(long, value_enum, default_value_t = IconFormat::Blp)]
    pub format: IconFormat,
    /// Also write a PNG beside each icon.
    #[arg(long)]
    pub png: bool,
    /// What the icon shows of a model.
    #[arg(long, value_enum, default_value_t = IconFrame::Head)]
    pub frame: IconFrame,
    /// The sequence (name or index) to draw; default: the first Stand.
    #[arg(long, value_name = "NAME|INDEX")]
    pub sequence: Option<String>,
    /// Milliseconds into the sequence; default: half-way in, at most 1000 ms.
    #[arg(long, value_name = "MS", allow_negative_numbers = true, value_parser = parse::parse_time)]
    pub time: Option<f64>,
    /// The camera.
    #[command(flatten)]
    pub camera: CameraArgs,
    /// Team colour: a player number (0 red, 1 blue, ... 23) or `#RRGGBB`.
    #[arg(long, value_name = "N|#RRGGBB", value_parser = parse::parse_team)]
    pub team_color: Option<[u8; 3]>,
    /// Behind the model: `#RRGGBB`, `#RRGGBB,#RRGGBB` (centre to corners), `none`, or a
    /// picture's path. Default: a dark warm glow.
    #[arg(long, value_name = "COLOR|COLOR,COLOR|IMAGE")]
    pub background: Option<String>,
    /// A frame of your own: a picture with alpha laid over the art instead of the drawn
    /// frame (the disabled icons still get the game's black disabled frame).
    #[arg(long, value_name = "IMAGE")]
    pub border: Option<PathBuf>,
    /// Where else to look for textures: folders, archives (maps, war3.mpq), or the game's
    /// folder.
    #[arg(long, value_name = "PATH")]
    pub textures: Vec<PathBuf>,
    /// The level of detail to draw (Reforged models).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub lod: u32,
    /// Do not draw particle emitters 2 and ribbons.
    #[arg(long)]
    pub no_effects: bool,
    /// Also write a contact sheet of every icon made (a PNG), to look them over.
    #[arg(long, value_name = "FILE.png")]
    pub sheet: Option<PathBuf>,
}

/// `mdlx portrait`.
#[derive(Args, Debug)]
pub(crate) struct PortraitArgs {
    /// --quiet, --strict.
    #[command(flatten)]
    pub common: Common,
    /// The unit model (or `ARCHIVE:NAME`).
    pub input: PathBuf,
    /// The portrait model to write (`.mdx` or `.mdl`; by convention `Name_Portrait.mdx`
    /// beside the unit's model).
    pub output: PathBuf,
    /// Only set the portrait camera: the model keeps its sequences, its other cameras go.
    #[arg(long)]
    pub camera_only: bool,
    /// The camera.
    #[command(flatten)]
    pub camera: CameraArgs,
}
