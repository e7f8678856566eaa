//! One file's conversion, shared by `mdlx convert IN OUT` ([`super::convert`]) and by each
//! file of a folder conversion ([`super::convert_dir`]): read by the content
//! ([`mdlx::read`]), change the version, write through the library's one door
//! ([`mdlx::write`]), then put the outputs in place. Formats come from the library's table
//! ([`mdlx::formats::FORMATS`]); this module names one only where a format has options of
//! its own to prepare (Milkshape's sequence, glTF's texture folders, OBJ's pose).

use crate::files;
use crate::report::Note;
use crate::{usage, Ctx};
use anyhow::{anyhow, bail, Result};
use mdlx::formats::{FormatInfo, Kind};
use mdlx::Format;
use serde_json::json;
use std::path::{Path, PathBuf};

/// An output format: a row of the library's table.
pub(crate) type To = &'static FormatInfo;

/// Whether `to` is a texture's format.
pub(crate) fn is_texture(to: To) -> bool {
    to.kind == Kind::Texture
}

/// Whether a conversion to `to` takes glTF input (glTF does not convert to glTF again).
fn takes_gltf(to: To) -> bool {
    to.takes.contains(&"gltf")
}

/// How to write: MDL strictness, the moment an OBJ shows, Milkshape frames, JSON.
#[derive(Clone, Debug, Default)]
pub(crate) struct Options {
    /// Write only standard MDL (no `MdlxExtension` block).
    pub strict_mdl: bool,
    /// With `strict_mdl`: write anyway, listing what was lost.
    pub allow_lossy: bool,
    /// OBJ: the sequence and time to pose; Milkshape output: the one sequence to write.
    pub moment: super::pose::Moment,
    /// Milkshape: frames per second (checked positive by the command line).
    pub fps: f32,
    /// Milkshape input: the frame ranges that become sequences.
    pub ranges: Vec<mdlx::convert::ms3d::FrameRange>,
    /// Print one JSON object per file on stdout.
    pub json: bool,
    /// Texture input and output.
    pub texture: TextureOut,
    /// glTF and classic output: folders to find textures in (after the model's own folder).
    pub textures: Vec<PathBuf>,
    /// glTF output.
    pub gltf_out: GltfOut,
    /// The model version to write (`None`: the input's; glTF input: 800). A Warcraft III
    /// model of another version is converted ([`mdlx::convert::to_version`]).
    pub version: Option<u32>,
    /// Reforged to classic: the level of detail to keep (`None`: 0).
    pub lod: Option<u32>,
    /// glTF input.
    pub gltf_in: GltfIn,
    /// Converted input (glTF, Milkshape, WoW alpha): sequence names to set.
    pub renames: Vec<mdlx::convert::ready::Rename>,
    /// Set for each file of a folder conversion: the glTF-input options then apply to the
    /// glTF files only, instead of being refused for the others.
    pub in_folder: bool,
    /// The textures written so far in this run.
    pub ledger: super::gltf_in::Ledger,
}

/// A texture's way through a conversion: the level read, the size and the file written.
#[derive(Clone, Debug, Default)]
pub(crate) struct TextureOut {
    /// The mip level to write (0: full size).
    pub mip: usize,
    /// How to resize (`pow2`, `WxH`, `max:N`; see [`crate::cli::Resize`]).
    pub resize: Option<crate::cli::Resize>,
    /// How each texture format is written (BLP content and quality, TGA run-length, DDS
    /// pixel format).
    pub encode: mdlx::texture::EncodeOptions,
}

/// How a model is written as glTF.
#[derive(Clone, Debug, Default)]
pub(crate) struct GltfOut {
    /// The colour of team-colour layers.
    pub team_color: Option<[u8; 3]>,
    /// Linear keys only (the default; `--cubic` turns it off).
    pub linear: bool,
    /// The model embedded for the way back (the default; `--no-source` off).
    pub source: bool,
}

/// How a glTF is imported as a model.
#[derive(Clone, Debug, Default)]
pub(crate) struct GltfIn {
    /// The game's path prefix of the textures (`None`: `war3mapImported\`).
    pub texture_path: Option<String>,
    /// Game units per glTF unit (`None`: the import's default).
    pub scale: Option<f32>,
    /// The height in game units to fit the model's first pose to.
    pub height: Option<f32>,
}

/// Fails, listing each loss as `WHAT PLACE: LOSS`, when there are any: `N thing(s) would be
/// lost WHERE`.
fn refuse_losses(what: &str, losses: &[mdlx::Loss], whence: &str) -> Result<()> {
    if losses.is_empty() {
        return Ok(());
    }
    let listed: Vec<String> = losses
        .iter()
        .map(|l| {
            let place = if l.place.is_empty() {
                "model"
            } else {
                &l.place
            };
            format!("{what} {place}: {}", l.what)
        })
        .collect();
    bail!(
        "{}\n{} thing(s) would be lost {whence}",
        listed.join("\n"),
        losses.len()
    )
}

/// What converting one file gave: the input's format and what to tell about it.
pub(crate) struct Done {
    /// The input's format, short (`mdx`, `mdl`, `ms3d`, `mdx-alpha`, `gltf`).
    from: &'static str,
    /// Warnings and losses.
    pub notes: Vec<Note>,
    /// Texture files written (or already in place) beside the output.
    textures: Vec<String>,
    /// glTF output: the model's texture paths that were not found (each once).
    pub missing_textures: Vec<String>,
}

impl Done {
    /// A file converted with nothing written beside it.
    fn plain(from: &'static str, notes: Vec<Note>) -> Done {
        Done {
            from,
            notes,
            textures: Vec::new(),
            missing_textures: Vec::new(),
        }
    }
}

/// One file's outcome as a JSON object.
pub(crate) fn outcome_json(
    input: &Path,
    output: &Path,
    to: To,
    result: &Result<Done>,
) -> serde_json::Value {
    let mut v = json!({
        "input": files::shown(input),
        "output": if files::is_stdio(output) { "-".to_string() } else { output.display().to_string() },
        "to": to.name,
    });
    match result {
        Ok(done) => {
            v["status"] = json!("converted");
            v["from"] = json!(done.from);
            v["notes"] = done.notes.iter().map(Note::to_json).collect();
            if !done.textures.is_empty() {
                v["textures"] = json!(done.textures);
            }
        }
        Err(e) => {
            v["status"] = json!("failed");
            v["error"] = json!(format!("{e:#}"));
        }
    }
    v
}

/// Converts one file; returns what to tell (losses written anyway).
pub(crate) fn convert_file(
    ctx: &Ctx,
    input: &Path,
    output: &Path,
    to: To,
    opts: &Options,
) -> Result<Done> {
    let data = files::read(input)?;
    let shown = files::shown(input);
    if super::texture::is_texture(&data) {
        return convert_texture(&data, (input, output), to, opts);
    }
    if is_texture(to) {
        // Let a model (or anything else) say what it is before refusing it.
        let what = match mdlx::identify(&data) {
            mdlx::Content::NotAModel(like) => format!("not a texture (looks like {like})"),
            _ => format!(
                "this is a model; {} output is for textures (BLP, DDS, TGA, PNG)",
                to.name.to_ascii_uppercase()
            ),
        };
        bail!("{shown}: {what}");
    }
    let format = mdlx::Format::detect(&data);
    if to.format == Format::Ms3d && format == Format::Ms3d {
        // Milkshape to Milkshape: the document as read, in the strict form (the codec's
        // own writer: there is no model in between).
        let doc = super::read_ms3d(&data, input)?;
        let bytes = mdlx::ms3d::to_bytes(&doc).map_err(|e| anyhow!("{e}"))?;
        files::write(output, &bytes, input)?;
        return Ok(Done::plain("ms3d", Vec::new()));
    }
    let decoded = read_model(ctx, &data, (input, output), to, opts, format)?;
    let from = decoded.source.short_name();
    let super::Decoded {
        model,
        mut notes,
        mut textures,
        ..
    } = decoded;
    let model = change_version(model, input, opts, &mut notes, &mut textures)?;
    let (bytes, missing_textures) = write_model(&model, (input, output), to, opts, &mut notes)?;
    let textures = put_in_place(&bytes, (input, output), &textures, opts, &mut notes)?;
    Ok(Done {
        from,
        notes,
        textures,
        missing_textures,
    })
}

/// A texture converted to the texture format `to` (anything else is refused).
fn convert_texture(
    data: &[u8],
    (input, output): (&Path, &Path),
    to: To,
    opts: &Options,
) -> Result<Done> {
    let shown = files::shown(input);
    if !is_texture(to) {
        let like = match mdlx::identify(data) {
            mdlx::Content::NotAModel(like) => like.to_string(),
            _ => "a texture".to_string(),
        };
        let names: Vec<&str> = (mdlx::formats::FORMATS.iter())
            .filter(|f| is_texture(f))
            .map(|f| f.name)
            .collect();
        bail!(
            "{shown}: not an MDX, MDL or Milkshape file (looks like {like}); as a texture it converts to PNG, BLP, TGA or DDS (--to {}, or an output named so)",
            names.join("|")
        );
    }
    let image = super::texture::decode(data, input, opts.texture.mip)?;
    let (bytes, notes) = super::texture::encode(image, to.format, opts, &shown)?;
    files::write(output, &bytes, input)?;
    Ok(Done::plain("texture", notes))
}

/// Reads a model of any format with the options of the command line; the glTF-input
/// options are refused for other input (outside a folder conversion).
fn read_model(
    ctx: &Ctx,
    data: &[u8],
    (input, output): (&Path, &Path),
    to: To,
    opts: &Options,
    format: Format,
) -> Result<super::Decoded> {
    let shown = files::shown(input);
    let mut read = super::read_options(ctx, input);
    read.ms3d.rate = mdlx::convert::ms3d::FrameRate { fps: opts.fps };
    read.ms3d.ranges = opts.ranges.clone();
    read.renames = opts.renames.clone();
    if format == Format::Gltf {
        return decode_gltf(ctx, data, (input, output), to, opts, read);
    }
    if !opts.in_folder {
        let given = [
            ("--texture-path", opts.gltf_in.texture_path.is_some()),
            ("--scale", opts.gltf_in.scale.is_some()),
            ("--height", opts.gltf_in.height.is_some()),
        ];
        if let Some((flag, _)) = given.iter().find(|g| g.1) {
            return Err(usage(format!(
                "{shown}: {flag} is for glTF input; this is no glTF file"
            )));
        }
        let converted = matches!(format, Format::Ms3d | Format::AlphaMdx);
        if !opts.renames.is_empty() && !converted {
            return Err(usage(format!(
                "{shown}: --rename is for converted input (glTF, Milkshape, WoW alpha); this model's sequences are its own"
            )));
        }
    }
    super::decode(data, input, &read)
}

/// The model at the version `--version` asks for: a Reforged model going to 800 for the
/// classic client (with its textures), any other through [`mdlx::convert::to_version`],
/// refusing losses unless `--allow-lossy`.
fn change_version(
    model: mdlx::Model,
    input: &Path,
    opts: &Options,
    notes: &mut Vec<Note>,
    textures: &mut Vec<mdlx::convert::gltf::import::ImportedTexture>,
) -> Result<mdlx::Model> {
    let shown = files::shown(input);
    let classic = opts.version == Some(mdlx::spec::version::CLASSIC)
        && model.version >= mdlx::spec::version::REFORGED;
    if opts.lod.is_some() && !classic && !opts.in_folder {
        return Err(usage(format!(
            "{shown}: --lod is for a Reforged model going to classic (--version 800); this is version {}",
            model.version
        )));
    }
    if classic {
        let done = super::classic::to_classic(&model, input, &opts.textures, opts.lod)
            .map_err(|e| anyhow!("{shown}: {e}"))?;
        notes.extend(done.notes);
        textures.extend(done.textures);
        return Ok(done.model);
    }
    let Some(version) = opts.version.filter(|v| *v != model.version) else {
        return Ok(model);
    };
    let converted =
        mdlx::convert::to_version(&model, version).map_err(|e| usage(format!("{shown}: {e}")))?;
    let what = format!("version {version} cannot hold");
    if !opts.allow_lossy {
        refuse_losses(
            &what,
            &converted.losses,
            &format!(
                "going from version {} to {version}; nothing written (use --allow-lossy to write anyway)",
                model.version
            ),
        )?;
    }
    notes.extend(converted.losses.iter().map(|l| Note::loss(&what, l)));
    Ok(converted.value)
}

/// The library's write options for `to`, from the command line's; for OBJ also the pose
/// (its billboards left unturned) and the material library's path.
fn write_options(
    model: &mdlx::Model,
    (input, output): (&Path, &Path),
    to: To,
    opts: &Options,
) -> Result<(
    mdlx::WriteOptions,
    Option<super::pose::Posed>,
    Option<PathBuf>,
)> {
    let mut w = mdlx::WriteOptions {
        version: to.version,
        mdl: mdlx::mdl::WriteOptions {
            strict: opts.strict_mdl,
        },
        ..Default::default()
    };
    let (mut posed, mut mtl) = (None, None);
    match to.format {
        Format::Ms3d => {
            w.ms3d.rate = mdlx::convert::ms3d::FrameRate { fps: opts.fps };
            w.ms3d.sequence = (opts.moment.sequence.as_deref())
                .map(|s| model.find_sequence(s))
                .transpose()?;
        }
        Format::Glb | Format::Gltf => {
            w.gltf.texture_dirs = crate::archive::texture_places(input, &opts.textures);
            w.gltf.linear = opts.gltf_out.linear;
            w.gltf.source = opts.gltf_out.source;
            if let Some(c) = opts.gltf_out.team_color {
                w.gltf.team_color = c;
            }
        }
        Format::Obj => {
            let mut p = super::pose::pose_model(model, &opts.moment)?;
            w.obj.title = format!("{}: {}", files::shown(input), p.title);
            w.obj.posed = Some(std::mem::take(&mut p.geosets));
            // The material library goes beside a file; standard output gets the mesh only.
            mtl = (!files::is_stdio(output) && !model.materials.is_empty())
                .then(|| output.with_extension("mtl"));
            w.obj.mtllib = (mtl.as_ref().and_then(|p| p.file_name()))
                .map(|n| n.to_string_lossy().into_owned());
            posed = Some(p);
        }
        _ => {}
    }
    Ok((w, posed, mtl))
}

/// Writes `model` as `to` through [`mdlx::write`]; its losses (and an OBJ's hidden
/// geosets and unturned billboards) become notes; strict MDL refuses its losses unless
/// `--allow-lossy`. Returns the bytes and, for glTF, the texture paths not found.
fn write_model(
    model: &mdlx::Model,
    (input, output): (&Path, &Path),
    to: To,
    opts: &Options,
    notes: &mut Vec<Note>,
) -> Result<(Vec<u8>, Vec<String>)> {
    let (w, posed, mtl) = write_options(model, (input, output), to, opts)?;
    let written = mdlx::write(model, to.format, &w).map_err(|e| match e {
        mdlx::WriteError::Mdx(e) => anyhow::Error::from(e),
        e => anyhow!("{e}"),
    })?;
    let what = format!("{} cannot hold", to.noun);
    if to.format == Format::Mdl && !opts.allow_lossy {
        refuse_losses(
            &what,
            &written.losses,
            "in strictly standard MDL; nothing written (use --allow-lossy to write anyway, or drop --strict-mdl to keep them in an MdlxExtension block)",
        )?;
    }
    if let Some(report) = written.obj.as_ref().filter(|r| r.geosets_hidden > 0) {
        notes.push(Note::info(
            "OBJ",
            format!(
                "{} geoset(s) hidden at this moment, not written",
                report.geosets_hidden
            ),
        ));
    }
    notes.extend(written.losses.iter().map(|l| Note::loss(&what, l)));
    if let Some(p) = posed.filter(|p| p.pose.billboards_ignored > 0) {
        notes.push(Note::info(
            "OBJ",
            format!(
                "{} billboarded node(s) left unturned (give --view X,Y,Z)",
                p.pose.billboards_ignored
            ),
        ));
    }
    if let (Some(path), Some((_, bytes))) = (&mtl, written.beside.first()) {
        files::write(path, bytes, input)?;
    }
    let missing = not_found(&written.missing_textures);
    if !opts.in_folder {
        notes.extend(where_looked(
            &missing,
            &w.gltf.texture_dirs,
            opts.textures.len(),
        ));
    }
    Ok((written.bytes, missing))
}

/// Puts the textures and then the model in place: a model in place never names a missing
/// texture, and a failure before the renames leaves nothing new. Returns the texture
/// files written (or already in place).
fn put_in_place(
    bytes: &[u8],
    (input, output): (&Path, &Path),
    textures: &[mdlx::convert::gltf::import::ImportedTexture],
    opts: &Options,
    notes: &mut Vec<Note>,
) -> Result<Vec<String>> {
    let mut beside = super::gltf_in::stage(textures, output, input, &opts.ledger, notes)?;
    let staged = std::mem::take(&mut beside.staged);
    let model_staged = files::stage(output, bytes, input);
    let result = model_staged.and_then(|model| {
        for t in staged {
            t.commit()?;
        }
        model.commit()
    });
    match result {
        Ok(()) => beside.keep_folders(),
        Err(e) => {
            beside.undo_folders();
            return Err(e);
        }
    }
    Ok(beside.written)
}

/// Reads glTF input for `output` with `read` and the glTF options of the command line: the
/// model is named after OUT's file (else IN's, else the scene's); glTF output is refused;
/// under `--strict` any loss refuses the file.
fn decode_gltf(
    ctx: &Ctx,
    data: &[u8],
    (input, output): (&Path, &Path),
    to: To,
    opts: &Options,
    mut read: mdlx::ReadOptions,
) -> Result<super::Decoded> {
    let shown = files::shown(input);
    if !takes_gltf(to) {
        bail!(
            "{shown}: this is glTF already; glTF converts to Warcraft III models (mdx, mdl), and those convert back to glTF"
        );
    }
    read.gltf.name = if files::is_special(output) {
        super::stem(input)
    } else {
        super::stem(output)
    };
    if let Some(version) = opts.version {
        // glTF import builds up to 1100; later versions are a conversion of that.
        read.gltf.version = version.min(mdlx::spec::version::TEXTURE_SLOTS);
    }
    if let Some(path) = &opts.gltf_in.texture_path {
        read.gltf.texture_path = path.clone();
    }
    if let Some(f) = opts.gltf_in.scale {
        read.gltf.scale = mdlx::convert::gltf::import::ImportScale::Factor(f);
    }
    if let Some(h) = opts.gltf_in.height {
        read.gltf.scale = mdlx::convert::gltf::import::ImportScale::Height(h);
    }
    let decoded = super::decode(data, input, &read)?;
    let lost: Vec<&Note> = decoded.notes.iter().filter(|n| n.kind == "loss").collect();
    let textures_lost = !decoded.textures.is_empty() && files::is_special(output);
    if ctx.strict && (!lost.is_empty() || textures_lost) {
        let mut listed: Vec<String> = lost
            .iter()
            .map(|n| format!("{}: {}", n.place.as_deref().unwrap_or("model"), n.what))
            .collect();
        if textures_lost {
            let beside = if files::is_stdio(output) {
                "standard output".to_string()
            } else {
                output.display().to_string()
            };
            listed.push(format!(
                "textures: {} cannot be written beside {beside}",
                decoded.textures.len()
            ));
        }
        bail!(
            "{shown}: {} thing(s) {}:\n  {}\nnothing written (--strict refuses any loss; drop it to convert anyway)",
            listed.len(),
            super::gltf_in::LOST,
            listed.join("\n  ")
        );
    }
    Ok(decoded)
}

/// The paths of `missing` textures ([`mdlx::Written::missing_textures`]) that were not
/// found, not those that failed to decode or that the game supplies.
fn not_found(missing: &[(String, String)]) -> Vec<String> {
    (missing.iter())
        .filter(|(_, why)| why == "not found")
        .map(|(path, _)| path.clone())
        .collect()
}

/// One file's glTF export: where the `missing` textures were looked for (`dirs`, the last
/// `given` of them from `--textures`), and how to give more.
fn where_looked(missing: &[String], dirs: &[PathBuf], given: usize) -> Option<Note> {
    if missing.is_empty() {
        return None;
    }
    let own = dirs.len().saturating_sub(given);
    let listed: Vec<String> = (dirs.iter().enumerate())
        .map(|(i, d)| {
            let whose = if i < own {
                "the model's folder"
            } else {
                "--textures"
            };
            format!("{} ({whose})", d.display())
        })
        .collect();
    Some(Note::info(
        "textures",
        format!(
            "{} texture(s) not found; looked for each path, and then its file name (a .blp also as .dds, .tga or .png), under {}; give --textures DIR (the game's folder, whose archives are searched; an archive; or a folder of textures) to embed them",
            missing.len(),
            listed.join(", ")
        ),
    ))
}

impl From<&crate::cli::ConvertArgs> for Options {
    fn from(a: &crate::cli::ConvertArgs) -> Self {
        use mdlx::texture::{write::DdsOutput, BlpOptions, EncodeOptions};
        let encode = EncodeOptions {
            blp: if a.blp_palette {
                BlpOptions::palette()
            } else {
                BlpOptions::jpeg(a.blp_quality)
            },
            tga_rle: a.tga == "rle",
            dds: a.dds.as_deref().map(|d| match d {
                "bc1" => DdsOutput::Bc1,
                "bc3" => DdsOutput::Bc3,
                _ => DdsOutput::Rgba,
            }),
        };
        Options {
            strict_mdl: a.strict_mdl,
            allow_lossy: a.allow_lossy,
            moment: a.moment.clone().into(),
            fps: a.fps,
            ranges: a.frames.as_ref().map(|r| r.0.clone()).unwrap_or_default(),
            json: a.json,
            texture: TextureOut {
                mip: a.mip,
                resize: a.resize,
                encode,
            },
            textures: a.textures.clone(),
            gltf_out: GltfOut {
                team_color: a.team_color,
                linear: !a.cubic,
                source: !a.no_source,
            },
            version: a.model_version,
            lod: a.lod,
            gltf_in: GltfIn {
                texture_path: a.texture_path.clone(),
                scale: a.scale,
                height: a.height,
            },
            renames: a.rename.as_ref().map(|r| r.0.clone()).unwrap_or_default(),
            in_folder: false,
            ledger: Default::default(),
        }
    }
}
