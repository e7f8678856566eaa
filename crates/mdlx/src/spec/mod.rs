//! Facts from the specifications and from real files: chunk tags, track tags and the
//! value kind each track tag holds, fixed field sizes, version thresholds, node kind bits,
//! and the MDL keyword tables of the declared records. This module imports nothing else of
//! the crate: the model and the codecs build on it.

pub(crate) mod alpha;
pub(crate) mod keywords;
pub(crate) mod kind;
mod tag;

pub use tag::Tag;

macro_rules! tags {
    ($($name:ident = $text:literal;)*) => {
        $(
            #[doc = concat!("The `", stringify!($name), "` tag.")]
            pub const $name: Tag = Tag(*$text);
        )*
        /// Every tag of this list.
        pub const ALL: &[Tag] = &[$($name),*];
    };
}

/// Top-level chunk tags.
pub mod chunk {
    use super::Tag;
    tags! {
        MDLX = b"MDLX"; VERS = b"VERS"; MODL = b"MODL"; SEQS = b"SEQS"; GLBS = b"GLBS";
        MTLS = b"MTLS"; TEXS = b"TEXS"; TXAN = b"TXAN"; GEOS = b"GEOS"; GEOA = b"GEOA";
        BONE = b"BONE"; LITE = b"LITE"; HELP = b"HELP"; ATCH = b"ATCH"; PIVT = b"PIVT";
        PREM = b"PREM"; PRE2 = b"PRE2"; CORN = b"CORN"; RIBB = b"RIBB"; CAMS = b"CAMS";
        EVTS = b"EVTS"; CLID = b"CLID"; FAFX = b"FAFX"; BPOS = b"BPOS"; HTST = b"HTST";
        DILG = b"DILG";
    }
}

/// Tags inside records (geoset sub-chunks, layer list, event track).
pub mod sub {
    use super::Tag;
    tags! {
        LAYS = b"LAYS"; VRTX = b"VRTX"; NRMS = b"NRMS"; PTYP = b"PTYP"; PCNT = b"PCNT";
        PVTX = b"PVTX"; GNDX = b"GNDX"; MTGC = b"MTGC"; MATS = b"MATS"; TANG = b"TANG";
        SKIN = b"SKIN"; UVAS = b"UVAS"; UVBS = b"UVBS"; KEVT = b"KEVT";
    }
}

/// Animation track tags, by the record that owns them.
pub mod track {
    use super::Tag;
    tags! {
        // layer
        KMTF = b"KMTF"; KMTA = b"KMTA"; KMTE = b"KMTE"; KFC3 = b"KFC3"; KFCA = b"KFCA"; KFTC = b"KFTC";
        // texture animation
        KTAT = b"KTAT"; KTAR = b"KTAR"; KTAS = b"KTAS";
        // geoset animation
        KGAO = b"KGAO"; KGAC = b"KGAC";
        // node
        KGTR = b"KGTR"; KGRT = b"KGRT"; KGSC = b"KGSC";
        // light
        KLAS = b"KLAS"; KLAE = b"KLAE"; KLAC = b"KLAC"; KLAI = b"KLAI"; KLBI = b"KLBI"; KLBC = b"KLBC"; KLAV = b"KLAV";
        // light, 1300+: shadow casting start and end; 1600+: quadratic and linear falloff, damping
        KLSS = b"KLSS"; KLSE = b"KLSE"; KLQF = b"KLQF"; KLLF = b"KLLF"; KLDA = b"KLDA";
        // attachment
        KATV = b"KATV";
        // particle emitter
        KPEE = b"KPEE"; KPEG = b"KPEG"; KPLN = b"KPLN"; KPLT = b"KPLT"; KPEL = b"KPEL"; KPES = b"KPES"; KPEV = b"KPEV";
        // particle emitter 2
        KP2S = b"KP2S"; KP2R = b"KP2R"; KP2L = b"KP2L"; KP2G = b"KP2G"; KP2E = b"KP2E"; KP2N = b"KP2N"; KP2W = b"KP2W"; KP2V = b"KP2V";
        // ribbon emitter
        KRHA = b"KRHA"; KRHB = b"KRHB"; KRAL = b"KRAL"; KRCO = b"KRCO"; KRTX = b"KRTX"; KRVS = b"KRVS";
        // camera
        KCTR = b"KCTR"; KTTR = b"KTTR"; KCRL = b"KCRL";
        // camera, 1200+: focus distance, focal length, f-stop (the four letters reversed:
        // FUDI, FALE, FSTP)
        IDUF = b"IDUF"; ELAF = b"ELAF"; PTSF = b"PTSF";
        // popcorn emitter
        KPPA = b"KPPA"; KPPC = b"KPPC"; KPPE = b"KPPE"; KPPL = b"KPPL"; KPPS = b"KPPS"; KPPV = b"KPPV";
    }
}

/// The value kind a track holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackKind {
    /// One f32.
    Float,
    /// Three f32.
    Vector3,
    /// Four f32 (quaternion).
    Quaternion,
    /// One u32.
    Integer,
}

/// The value kind of a known track tag; `None` for a tag this crate does not know.
pub fn track_kind(tag: Tag) -> Option<TrackKind> {
    use track::*;
    use TrackKind::*;
    Some(match tag {
        KMTF | KRTX => Integer,
        KTAR | KGRT => Quaternion,
        KFC3 | KTAT | KTAS | KGAC | KGTR | KGSC | KLAC | KLBC | KRCO | KCTR | KTTR | KPPC => {
            Vector3
        }
        KMTA | KMTE | KFCA | KFTC | KGAO | KLAS | KLAE | KLAI | KLBI | KLAV | KATV | KPEE
        | KPEG | KPLN | KPLT | KPEL | KPES | KPEV | KP2S | KP2R | KP2L | KP2G | KP2E | KP2N
        | KP2W | KP2V | KRHA | KRHB | KRAL | KRVS | KCRL | KPPA | KPPE | KPPL | KPPS | KPPV
        | KLSS | KLSE | KLQF | KLLF | KLDA | IDUF | ELAF | PTSF => Float,
        _ => return None,
    })
}

/// Version numbers that change layouts.
pub mod version {
    /// Classic Warcraft III.
    pub const CLASSIC: u32 = 800;
    /// First Reforged layout: geoset LOD, TANG/SKIN, layer emissive gain, material shader.
    pub const REFORGED: u32 = 900;
    /// Layers gain Fresnel fields.
    pub const FRESNEL: u32 = 1000;
    /// Layers gain shader type and texture slots; materials lose the shader name.
    pub const TEXTURE_SLOTS: u32 = 1100;
    /// Lights gain shadow intensity.
    pub const LIGHT_SHADOW: u32 = 1200;
    /// Cameras gain the depth-of-field tracks, and layout number 3 in their size word.
    pub const CAMERA_LAYOUT: u32 = 1200;
    /// Lights gain shadow casting and its range.
    pub const LIGHT_SHADOW_CASTING: u32 = 1300;
    /// Skin values (SKIN) are two bytes wide when written: the first version where the
    /// `wc3` crate and another published tool read them so (Retera's notes say 1300 or
    /// 1600); reading tells the width from the layout in every version.
    pub const SKIN_WIDE: u32 = 1400;
    /// Lights gain falloff coefficients (quadratic, linear, damping).
    pub const LIGHT_FALLOFF: u32 = 1600;
    /// The newest Reforged version this crate knows.
    pub const NEWEST: u32 = 1800;
}

/// Fixed string field lengths.
pub mod len {
    /// Names of models, sequences, nodes, cameras, geoset LODs, shaders, face effects.
    pub const NAME: usize = 80;
    /// File paths.
    pub const PATH: usize = 260;
}
