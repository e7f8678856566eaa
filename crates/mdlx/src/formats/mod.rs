//! The one table of the file formats this crate knows ([`FORMATS`]): for each, its name
//! (as a command line spells it), its extensions, its kind (model, scene, texture), whether
//! it can be read and written, and what it is. Detection ([`identify`]), [`crate::read()`],
//! [`crate::write()`] and the command line all take their formats from here, so adding a
//! format starts with one row.
//!
//! ```
//! use mdlx::formats::{self, Format, Kind};
//! let mdl = formats::by_name("mdl").unwrap();
//! assert_eq!((mdl.format, mdl.extensions, mdl.kind), (Format::Mdl, &["mdl"][..], Kind::Model));
//! assert_eq!(formats::by_extension("GLB").unwrap().format, Format::Glb);
//! // A WoW alpha MDX is written at one of three versions, each its own row.
//! assert_eq!(formats::by_name("alpha1400").unwrap().version, Some(1400));
//! assert!(formats::FORMATS.iter().all(|f| f.read || f.write));
//! ```

mod detect;

pub use detect::{identify, Content, LooksLike};

/// A file format of the table ([`FORMATS`]). [`identify`] tells the model formats from the
/// content ([`Format::Mdx`], [`Format::AlphaMdx`], [`Format::Mdl`], [`Format::Ms3d`],
/// [`Format::Gltf`] for glTF JSON and binary alike); the others are written only (OBJ, and
/// binary glTF as its own output) or are textures ([`LooksLike::is_texture`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Warcraft III binary MDX, classic or Reforged (starts with `MDLX`).
    Mdx,
    /// WoW alpha-family binary MDX (versions 1300-1500). It starts with `MDLX` too and
    /// shares its version numbers with Reforged; the shape of its chunks tells it apart
    /// (see [`identify`]).
    AlphaMdx,
    /// Text MDL.
    Mdl,
    /// Milkshape 3D ASCII text ([`crate::ms3d`]).
    Ms3d,
    /// glTF 2.0, binary (`.glb`, starts with `glTF`) or JSON (`.gltf`, JSON that names an
    /// `"asset"`), imported by [`crate::convert::gltf::import`](crate::convert::gltf::import()). Written, it is
    /// the JSON file with everything inside it.
    Gltf,
    /// Binary glTF 2.0 (`.glb`), as written; read, it is [`Format::Gltf`].
    Glb,
    /// Wavefront OBJ of a posed model (written only, [`crate::obj`]).
    Obj,
    /// PNG image ([`crate::texture`]).
    Png,
    /// Blizzard BLP texture ([`crate::texture`]).
    Blp,
    /// Truevision TGA image ([`crate::texture`]).
    Tga,
    /// DirectDraw Surface texture ([`crate::texture`]).
    Dds,
}

impl Format {
    /// Tells the format from the content of a file, as [`identify`] does, taking anything
    /// that is no model for MDL (left for the MDL reader to judge). [`identify`] names
    /// content that is no model at all.
    ///
    /// ```
    /// use mdlx::Format;
    /// assert_eq!(Format::detect(include_bytes!("../../../../examples/cube.mdx")), Format::Mdx);
    /// assert_eq!(Format::detect(b"Version {\n\tFormatVersion 800,\n}\n"), Format::Mdl);
    /// ```
    #[doc(hidden)]
    pub fn detect(data: &[u8]) -> Format {
        identify(data).format().unwrap_or(Format::Mdl)
    }

    /// Short name: `mdx`, `mdx-alpha`, `mdl`, `ms3d`, `gltf`, `glb`, `obj`, `png`, `blp`,
    /// `tga` or `dds`.
    pub fn short_name(self) -> &'static str {
        match self {
            Format::Mdx => "mdx",
            Format::AlphaMdx => "mdx-alpha",
            Format::Mdl => "mdl",
            Format::Ms3d => "ms3d",
            Format::Gltf => "gltf",
            Format::Glb => "glb",
            Format::Obj => "obj",
            Format::Png => "png",
            Format::Blp => "blp",
            Format::Tga => "tga",
            Format::Dds => "dds",
        }
    }

    /// The format's first row in the table.
    pub fn info(self) -> &'static FormatInfo {
        FORMATS
            .iter()
            .find(|f| f.format == self)
            .expect("every format has a row")
    }
}

/// What a format holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A Warcraft III model, or a model format that converts to and from one.
    Model,
    /// A scene for other 3D tools (glTF, OBJ): exported, and for glTF imported.
    Scene,
    /// A texture or image.
    Texture,
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatInfo {
    /// The format.
    pub format: Format,
    /// Its name as `mdlx convert --to` takes it (unique in the table).
    pub name: &'static str,
    /// Its file extensions, lower case, the one written first.
    pub extensions: &'static [&'static str],
    /// What it holds.
    pub kind: Kind,
    /// Whether this crate reads it.
    pub read: bool,
    /// Whether this crate writes it.
    pub write: bool,
    /// The version written (the WoW alpha family: one row per version).
    pub version: Option<u32>,
    /// What it is, in one line.
    pub about: &'static str,
    /// Its name in sentences (`Milkshape .txt`, `glTF cannot hold`).
    pub noun: &'static str,
    /// The extensions a folder conversion to it takes, in the order they are named.
    pub takes: &'static [&'static str],
    /// Of two inputs that would make the same output, the one of the lower rank converts
    /// (MDX, what the game loads, first).
    pub rank: u8,
}

/// The inputs of a conversion to a model format.
const MODELS_IN: &[&str] = &["mdx", "mdl", "txt", "glb", "gltf"];
/// The inputs of a conversion to glTF: not glTF again.
const SCENE_IN: &[&str] = &["mdx", "mdl", "txt"];

/// A row of the table, with the fields most rows share.
const fn row(format: Format, name: &'static str, ext: &'static [&'static str]) -> FormatInfo {
    FormatInfo {
        format,
        name,
        extensions: ext,
        kind: Kind::Model,
        read: true,
        write: true,
        version: None,
        about: "",
        noun: "",
        takes: MODELS_IN,
        rank: 3,
    }
}

/// A WoW alpha-family row, written at `version`.
const fn alpha(name: &'static str, version: u32) -> FormatInfo {
    FormatInfo {
        version: Some(version),
        about: "a WoW alpha-family MDX of this version",
        noun: "the WoW alpha family",
        ..row(Format::AlphaMdx, name, &["mdx"])
    }
}

/// A texture row: read and written by [`crate::texture`], from the other textures.
const fn texture(
    format: Format,
    name: &'static str,
    noun: &'static str,
    about: &'static str,
    takes: &'static [&'static str],
) -> FormatInfo {
    FormatInfo {
        kind: Kind::Texture,
        about,
        noun,
        takes,
        ..row(format, name, &[])
    }
}

/// Every format, in the order a command line lists them. The first row of an extension
/// is the one an output file of that extension is written as (`.mdx`: Warcraft III MDX).
pub const FORMATS: &[FormatInfo] = &[
    FormatInfo {
        about: "Warcraft III binary MDX, classic or Reforged",
        noun: "MDX",
        rank: 0,
        ..row(Format::Mdx, "mdx", &["mdx"])
    },
    FormatInfo {
        about: "Warcraft III MDL text",
        noun: "standard MDL",
        rank: 1,
        ..row(Format::Mdl, "mdl", &["mdl"])
    },
    FormatInfo {
        kind: Kind::Scene,
        read: false,
        about: "Wavefront OBJ of the posed, skinned, visible mesh (and its .mtl)",
        noun: "OBJ",
        ..row(Format::Obj, "obj", &["obj"])
    },
    FormatInfo {
        kind: Kind::Scene,
        about: "binary glTF 2.0: skeleton, skinning, animations, textures",
        noun: "glTF",
        takes: SCENE_IN,
        ..row(Format::Glb, "glb", &["glb"])
    },
    FormatInfo {
        kind: Kind::Scene,
        about: "glTF 2.0 JSON with everything inside it",
        noun: "glTF",
        takes: SCENE_IN,
        ..row(Format::Gltf, "gltf", &["gltf"])
    },
    FormatInfo {
        about: "Milkshape 3D ASCII",
        noun: "Milkshape",
        rank: 2,
        ..row(Format::Ms3d, "ms3d", &["txt"])
    },
    alpha("alpha1300", 1300),
    alpha("alpha1400", 1400),
    alpha("alpha1500", 1500),
    FormatInfo {
        extensions: &["png"],
        ..texture(
            Format::Png,
            "png",
            "PNG",
            "PNG image",
            &["blp", "dds", "tga"],
        )
    },
    FormatInfo {
        extensions: &["blp"],
        // Not .blp: re-encoding a BLP as BLP only loses quality.
        ..texture(
            Format::Blp,
            "blp",
            "BLP",
            "BLP1 texture with mipmaps",
            &["png", "tga", "dds"],
        )
    },
    FormatInfo {
        extensions: &["tga"],
        ..texture(
            Format::Tga,
            "tga",
            "TGA",
            "TGA image",
            &["blp", "dds", "png"],
        )
    },
    FormatInfo {
        extensions: &["dds"],
        ..texture(
            Format::Dds,
            "dds",
            "DDS",
            "DDS texture with mipmaps",
            &["blp", "tga", "png"],
        )
    },
];

/// The row named `name` (as `--to` spells it; any case; `txt` is Milkshape's extension).
pub fn by_name(name: &str) -> Option<&'static FormatInfo> {
    let name = name.to_ascii_lowercase();
    FORMATS
        .iter()
        .find(|f| f.name == name)
        .or_else(|| by_extension(&name).filter(|f| f.kind == Kind::Model))
}

/// The first row with the extension `ext` (any case, without the dot).
pub fn by_extension(ext: &str) -> Option<&'static FormatInfo> {
    FORMATS
        .iter()
        .find(|f| f.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)))
}

/// The row an output file is written as, by its extension.
pub fn for_path(path: &std::path::Path) -> Option<&'static FormatInfo> {
    by_extension(path.extension()?.to_str()?).filter(|f| f.write)
}

/// How sentences name the files of extension `ext`: `.mdx`, and `Milkshape .txt` where the
/// extension is not the format's name.
pub fn extension_phrase(ext: &str) -> String {
    match by_extension(ext) {
        Some(f) if f.name != ext => format!("{} .{ext}", f.noun),
        _ => format!(".{ext}"),
    }
}

/// `a, b or c`.
pub fn or_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(|s| s.as_ref()).collect();
            format!("{} or {}", rest.join(", "), last.as_ref())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_extension_finds_its_first_row() {
        for (i, f) in FORMATS.iter().enumerate() {
            assert!(FORMATS[..i].iter().all(|g| g.name != f.name), "{}", f.name);
            for e in f.extensions {
                assert!(by_extension(e).unwrap().format == f.format || f.version.is_some());
            }
        }
        assert_eq!(by_extension("mdx").unwrap().format, Format::Mdx);
        assert_eq!(by_name("TXT").unwrap().format, Format::Ms3d);
        assert_eq!(by_name("png").unwrap().kind, Kind::Texture);
        assert!(by_name("bogus").is_none());
        assert_eq!(extension_phrase("txt"), "Milkshape .txt");
        assert_eq!(or_list(&[".a", ".b", ".c"]), ".a, .b or .c");
        assert_eq!(Format::Glb.info().extensions, &["glb"]);
    }
}
