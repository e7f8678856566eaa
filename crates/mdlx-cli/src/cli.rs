//! The command line, declared with clap. Nothing here runs anything.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Read, write, convert and pose Warcraft III models (MDX, MDL), Milkshape 3D ASCII and
/// WoW alpha MDX.
#[derive(Parser, Debug)]
#[command(name = "mdlx", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The verbs.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Show a model's version, counts of every record kind, sequences and textures.
    Info {
        /// The model file.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Convert a model, or every model under a folder (with --to).
    ///
    /// The input format is told by the content; the output format is --to, or else OUT's
    /// extension. Outputs are written whole or not at all; inputs are never written over.
    /// A folder's tree is mirrored under OUT; files that fail are listed at the end.
    Convert {
        /// The input model (MDX, MDL or Milkshape ASCII; never modified), or a folder.
        input: PathBuf,
        /// The output file (`.mdx`, `.mdl`, `.obj`, `.txt` for Milkshape), or the output folder.
        output: PathBuf,
        /// Output format: mdx, mdl, obj, ms3d (Milkshape 3D ASCII, `.txt`), or a WoW alpha
        /// MDX: alpha1300, alpha1400, alpha1500; needed for a folder.
        #[arg(long, value_name = "FORMAT", value_parser = ["mdx", "mdl", "obj", "ms3d", "alpha1300", "alpha1400", "alpha1500"])]
        to: Option<String>,
        /// OBJ: the moment to pose. Milkshape output: --sequence picks the one sequence to
        /// write (without it, all of them).
        #[command(flatten)]
        moment: Moment,
        /// Milkshape: frames per second (its key times are frame numbers).
        #[arg(long, value_name = "FPS", default_value_t = 24.0)]
        fps: f32,
        /// Milkshape input: frame ranges that become sequences, `Stand=1-30,Death=31-60!`
        /// (`!`: plays once); without it, the ranges an mdlx-written file lists, else one
        /// sequence over all frames.
        #[arg(long, value_name = "RANGES")]
        frames: Option<String>,
        /// Write only standard MDL (no `MdlxExtension` block); refuse if that loses data.
        #[arg(long)]
        strict_mdl: bool,
        /// With --strict-mdl: write anyway and list what was lost.
        #[arg(long, requires = "strict_mdl")]
        allow_lossy: bool,
    },
    /// Pose a model: every node's world transform and every geoset's visibility at one
    /// moment of a sequence.
    Pose {
        /// The model file.
        file: PathBuf,
        /// The moment to pose.
        #[command(flatten)]
        moment: Moment,
        /// Print JSON (with full world matrices, column-major) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Decode and re-encode every .mdx under the paths and compare the bytes.
    Roundtrip {
        /// Files or folders (searched recursively).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Go through MDL text: MDX -> MDL -> MDX.
        #[arg(long, value_name = "FORMAT", value_parser = ["mdl"])]
        via: Option<String>,
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

/// A moment of a model's animation.
#[derive(Args, Debug)]
pub struct Moment {
    /// The sequence (name or index) to pose; without it, the bind pose. Converting to
    /// Milkshape: the one sequence to write; without it, all of them.
    #[arg(long, value_name = "NAME|INDEX")]
    pub sequence: Option<String>,
    /// Milliseconds into the sequence (looping sequences wrap, others stop at the end).
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub time: f64,
    /// The camera's view direction, to turn billboarded nodes toward it.
    #[arg(long, value_name = "X,Y,Z", value_parser = crate::cmd::pose::parse_view)]
    pub view: Option<[f32; 3]>,
}

impl From<Moment> for crate::cmd::pose::Moment {
    fn from(m: Moment) -> Self {
        crate::cmd::pose::Moment {
            sequence: m.sequence,
            time: m.time,
            view: m.view,
        }
    }
}
