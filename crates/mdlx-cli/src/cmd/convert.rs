//! `mdlx convert IN OUT`: one file, or every model under a folder.
//!
//! The input format is told by the content. The output format is `--to`, or else OUT's
//! extension. Every output is written beside its target and renamed into place, so a
//! target is either its old self or the whole new file; an input is never written over.
//!
//! A folder conversion (`mdlx convert DIR OUTDIR --to mdl`) is [`super::convert_dir`].

use crate::files;
use crate::report::Note;
use crate::{usage, Ctx};
use anyhow::{bail, Result};
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    /// Binary MDX.
    Mdx,
    /// MDL text.
    Mdl,
    /// Wavefront OBJ of the posed, skinned, visible mesh.
    Obj,
    /// Milkshape 3D ASCII (`.txt`).
    Ms3d,
    /// A WoW alpha-family MDX of this version (1300, 1400 or 1500).
    Alpha(u32),
    /// PNG, from a texture (BLP, DDS, TGA).
    Png,
    /// BLP1, from a texture (PNG, TGA, DDS, BLP).
    Blp,
    /// Binary glTF 2.0 (`.glb`): skeleton, skinning, animations, textures.
    Glb,
    /// TGA (32-bit, uncompressed), from a texture.
    Tga,
    /// DDS (32-bit, uncompressed), from a texture.
    Dds,
    /// glTF 2.0 JSON (`.gltf`) with everything inside it (a base64 buffer).
    Gltf,
}

impl To {
    /// The format named on the command line (`--to`).
    pub fn parse(name: &str) -> Result<To> {
        match name.to_ascii_lowercase().as_str() {
            "mdx" => Ok(To::Mdx),
            "mdl" => Ok(To::Mdl),
            "obj" => Ok(To::Obj),
            "ms3d" | "txt" => Ok(To::Ms3d),
            "alpha1300" => Ok(To::Alpha(1300)),
            "alpha1400" => Ok(To::Alpha(1400)),
            "alpha1500" => Ok(To::Alpha(1500)),
            "png" => Ok(To::Png),
            "blp" => Ok(To::Blp),
            "tga" => Ok(To::Tga),
            "dds" => Ok(To::Dds),
            "glb" => Ok(To::Glb),
            "gltf" => Ok(To::Gltf),
            _ => bail!(
                "unknown output format {name:?} (supported: mdx, mdl, obj, ms3d, glb, gltf, alpha1300, alpha1400, alpha1500, png, blp, tga, dds)"
            ),
        }
    }

    /// The format an output path's extension names.
    fn from_path(path: &Path) -> Result<To> {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("mdx") => Ok(To::Mdx),
            Some(e) if e.eq_ignore_ascii_case("mdl") => Ok(To::Mdl),
            Some(e) if e.eq_ignore_ascii_case("obj") => Ok(To::Obj),
            Some(e) if e.eq_ignore_ascii_case("txt") => Ok(To::Ms3d),
            Some(e) if e.eq_ignore_ascii_case("png") => Ok(To::Png),
            Some(e) if e.eq_ignore_ascii_case("blp") => Ok(To::Blp),
            Some(e) if e.eq_ignore_ascii_case("glb") => Ok(To::Glb),
            Some(e) if e.eq_ignore_ascii_case("gltf") => Ok(To::Gltf),
            Some(e) if e.eq_ignore_ascii_case("dds") => Ok(To::Dds),
            Some(e) if e.eq_ignore_ascii_case("tga") => Ok(To::Tga),
            _ => bail!(
                "{}: unsupported output format (supported: .mdx, .mdl, .obj, .glb, .gltf, .txt for Milkshape, .png, .blp, .tga or .dds for textures, or name one with --to)",
                path.display()
            ),
        }
    }

    /// The format's name, as `--to` takes it.
    pub(super) fn name(self) -> &'static str {
        match self {
            To::Mdx => "mdx",
            To::Mdl => "mdl",
            To::Obj => "obj",
            To::Ms3d => "ms3d",
            To::Alpha(1300) => "alpha1300",
            To::Alpha(1400) => "alpha1400",
            To::Alpha(_) => "alpha1500",
            To::Png => "png",
            To::Blp => "blp",
            To::Tga => "tga",
            To::Dds => "dds",
            To::Glb => "glb",
            To::Gltf => "gltf",
        }
    }

    pub(super) fn extension(self) -> &'static str {
        match self {
            To::Mdx => "mdx",
            To::Mdl => "mdl",
            To::Obj => "obj",
            To::Ms3d => "txt",
            To::Alpha(_) => "mdx",
            To::Png => "png",
            To::Blp => "blp",
            To::Tga => "tga",
            To::Dds => "dds",
            To::Glb => "glb",
            To::Gltf => "gltf",
        }
    }

    /// Whether the format is a texture's.
    fn is_texture(self) -> bool {
        matches!(self, To::Png | To::Blp | To::Tga | To::Dds)
    }
}

/// How to write: MDL strictness, the moment an OBJ shows, Milkshape frames, JSON.
#[derive(Clone, Debug, Default)]
pub struct Options {
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
    /// Textures: the mip level to write (0: full size).
    pub mip: usize,
    /// BLP output: JPEG quality (1-100), or palette content.
    pub blp: mdlx::texture::BlpOptions,
    /// Texture output: how to resize (`pow2`, `WxH`, `max:N`; see
    /// [`super::texture::Resize`]).
    pub resize: Option<super::texture::Resize>,
    /// DDS output: the pixel format (`None`: BC3 with alpha, else BC1).
    pub dds: Option<mdlx::texture::write::DdsOutput>,
    /// TGA output: run-length encoded.
    pub tga_rle: bool,
    /// glTF output: folders to find textures in (after the model's own folder).
    pub textures: Vec<std::path::PathBuf>,
    /// glTF output: the colour of team-colour layers.
    pub team_color: Option<[u8; 3]>,
    /// glTF output: linear keys only (for Blender).
    pub linear: bool,
    /// The model version to write (`None`: the input's; glTF input: 800). A Warcraft III
    /// model of another version is converted ([`mdlx::model::Model::to_version`]).
    pub version: Option<u32>,
    /// Reforged to classic: the level of detail to keep (`None`: 0).
    pub lod: Option<u32>,
    /// glTF input: the game's path prefix of the textures (`None`: `war3mapImported\`).
    pub texture_path: Option<String>,
    /// glTF input: game units per glTF unit (`None`: the import's default).
    pub scale: Option<f32>,
    /// glTF input: the height in game units to fit the model's first pose to.
    pub height: Option<f32>,
    /// Converted input (glTF, Milkshape, WoW alpha): sequence names to set.
    pub renames: Vec<mdlx::convert::ready::Rename>,
    /// Set for each file of a folder conversion: the glTF-input options then apply to the
    /// glTF files only, instead of being refused for the others.
    pub in_folder: bool,
    /// The textures written so far in this run.
    pub ledger: super::gltf_in::Ledger,
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

/// Runs the verb.
pub fn run(
    ctx: &Ctx,
    input: &Path,
    output: &Path,
    to: Option<&str>,
    opts: &Options,
) -> Result<ExitCode> {
    let to = to
        .map(To::parse)
        .transpose()
        .map_err(|e| usage(e.to_string()))?;
    if opts.json && files::is_stdio(output) {
        return Err(usage(
            "--json and the output `-` would both use standard output; name an output file",
        ));
    }
    if !files::is_stdio(input) && input.is_dir() {
        let Some(to) = to else {
            return Err(usage(
                "converting a folder needs --to FORMAT (mdx, mdl, obj, ms3d, glb, gltf, alpha1300, alpha1400, alpha1500, png, blp, tga, dds)",
            ));
        };
        if files::is_stdio(output) {
            return Err(usage(
                "a folder converts into a folder, not to standard output",
            ));
        }
        let opts = Options {
            in_folder: true,
            ..opts.clone()
        };
        return super::convert_dir::run_dir(ctx, input, output, to, &opts);
    }
    let into_folder;
    let output = match super::convert_dir::output_in_folder(input, output, to) {
        Ok(Some(inside)) => {
            into_folder = inside;
            into_folder.as_path()
        }
        Ok(None) => output,
        Err(e) => return Err(usage(e.to_string())),
    };
    let to = match to {
        Some(t) => t,
        None if files::is_stdio(output) => {
            return Err(usage("writing to standard output (`-`) needs --to FORMAT"))
        }
        None => To::from_path(output).map_err(|e| usage(e.to_string()))?,
    };
    let result = convert_file(ctx, input, output, to, opts);
    let shown_in = files::shown(input);
    if opts.json {
        let v = outcome_json(input, output, to, &result);
        println!("{v}");
    }
    match result {
        Ok(done) => {
            ctx.print_notes(&shown_in, &done.notes);
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(e),
    }
}

/// What converting one file gave: the input's format and what to tell about it.
pub(super) struct Done {
    /// The input's format, short (`mdx`, `mdl`, `ms3d`, `mdx-alpha`, `gltf`).
    from: &'static str,
    /// Warnings and losses.
    pub notes: Vec<Note>,
    /// Texture files written (or already in place) beside the output.
    textures: Vec<String>,
    /// glTF output: the model's texture paths that were not found (each once).
    pub missing_textures: Vec<String>,
}

/// One file's outcome as a JSON object.
pub(super) fn outcome_json(
    input: &Path,
    output: &Path,
    to: To,
    result: &Result<Done>,
) -> serde_json::Value {
    let mut v = json!({
        "input": files::shown(input),
        "output": if files::is_stdio(output) { "-".to_string() } else { output.display().to_string() },
        "to": to.name(),
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
pub(super) fn convert_file(
    ctx: &Ctx,
    input: &Path,
    output: &Path,
    to: To,
    opts: &Options,
) -> Result<Done> {
    let data = files::read(input)?;
    let shown = files::shown(input);
    if super::texture::is_texture(&data) {
        if !to.is_texture() {
            let like = match mdlx::identify(&data) {
                mdlx::Content::NotAModel(like) => like.to_string(),
                _ => "a texture".to_string(),
            };
            bail!(
                "{shown}: not an MDX, MDL or Milkshape file (looks like {like}); as a texture it converts to PNG, BLP, TGA or DDS (--to png|blp|tga|dds, or an output named so)"
            );
        }
        let image = super::texture::decode(&data, input, opts.mip)?;
        let (bytes, notes) = super::texture::encode(image, to, opts, &shown)?;
        files::write(output, &bytes, input)?;
        return Ok(Done {
            from: "texture",
            notes,
            textures: Vec::new(),
            missing_textures: Vec::new(),
        });
    }
    if to.is_texture() {
        // Let a model (or anything else) say what it is before refusing it.
        let what = match mdlx::identify(&data) {
            mdlx::Content::NotAModel(like) => format!("not a texture (looks like {like})"),
            _ => format!(
                "this is a model; {} output is for textures (BLP, DDS, TGA, PNG)",
                to.name().to_ascii_uppercase()
            ),
        };
        bail!("{shown}: {what}");
    }
    let rate = mdlx::convert::ms3d::FrameRate { fps: opts.fps };
    let format = mdlx::Format::detect(&data);
    if to == To::Ms3d && format == mdlx::Format::Ms3d {
        // Milkshape to Milkshape: the document as read, in the strict form.
        let doc = super::read_ms3d(&data, input)?;
        let bytes = mdlx::ms3d::to_bytes(&doc).map_err(|e| anyhow::anyhow!("{e}"))?;
        files::write(output, &bytes, input)?;
        return Ok(Done {
            from: "ms3d",
            notes: Vec::new(),
            textures: Vec::new(),
            missing_textures: Vec::new(),
        });
    }
    let mut read = super::read_options(ctx, input);
    read.ms3d.rate = rate;
    read.ms3d.ranges = opts.ranges.clone();
    read.renames = opts.renames.clone();
    let decoded = if format == mdlx::Format::Gltf {
        decode_gltf(ctx, &data, (input, output), to, opts, read)?
    } else {
        if !opts.in_folder {
            let given = [
                ("--texture-path", opts.texture_path.is_some()),
                ("--scale", opts.scale.is_some()),
                ("--height", opts.height.is_some()),
            ];
            if let Some((flag, _)) = given.iter().find(|g| g.1) {
                return Err(usage(format!(
                    "{shown}: {flag} is for glTF input; this is no glTF file"
                )));
            }
            let converted = matches!(format, mdlx::Format::Ms3d | mdlx::Format::AlphaMdx);
            if !opts.renames.is_empty() && !converted {
                return Err(usage(format!(
                    "{shown}: --rename is for converted input (glTF, Milkshape, WoW alpha); this model's sequences are its own"
                )));
            }
        }
        super::decode(&data, input, &read)?
    };
    let from = decoded.source.short_name();
    let super::Decoded {
        mut model,
        mut notes,
        mut textures,
        ..
    } = decoded;
    let classic = opts.version == Some(mdlx::format::version::CLASSIC)
        && model.version >= mdlx::format::version::REFORGED;
    if opts.lod.is_some() && !classic && !opts.in_folder {
        return Err(usage(format!(
            "{shown}: --lod is for a Reforged model going to classic (--version 800); this is version {}",
            model.version
        )));
    }
    if classic {
        let done = super::classic::to_classic(&model, input, &opts.textures, opts.lod)
            .map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
        model = done.model;
        notes.extend(done.notes);
        textures.extend(done.textures);
    } else if let Some(version) = opts.version.filter(|v| *v != model.version) {
        let (converted, losses) = model
            .to_version(version)
            .map_err(|e| usage(format!("{shown}: {e}")))?;
        let what = format!("version {version} cannot hold");
        if !opts.allow_lossy {
            refuse_losses(
                &what,
                &losses,
                &format!(
                    "going from version {} to {version}; nothing written (use --allow-lossy to write anyway)",
                    model.version
                ),
            )?;
        }
        notes.extend(losses.iter().map(|l| Note::loss(&what, l)));
        model = converted;
    }
    let mut missing_textures = Vec::new();
    let bytes = match to {
        To::Ms3d => {
            let sequence = opts
                .moment
                .sequence
                .as_deref()
                .map(|s| model.find_sequence(s))
                .transpose()?;
            let (doc, losses) = mdlx::convert::ms3d::to_ms3d(
                &model,
                &mdlx::convert::ms3d::ToMs3dOptions { rate, sequence },
            );
            notes.extend(
                losses
                    .iter()
                    .map(|l| Note::loss("Milkshape cannot hold", l)),
            );
            mdlx::ms3d::to_bytes(&doc).map_err(|e| anyhow::anyhow!("{e}"))?
        }
        To::Mdx => mdlx::mdx::to_bytes(&model)?,
        To::Glb | To::Gltf => {
            let mut dirs = Vec::new();
            if !files::is_stdio(input) {
                let dir = input.parent().unwrap_or(Path::new(""));
                dirs.push(if dir.as_os_str().is_empty() {
                    Path::new(".").to_path_buf()
                } else {
                    dir.to_path_buf()
                });
            }
            dirs.extend(opts.textures.iter().cloned());
            let mut options = mdlx::gltf::ExportOptions {
                texture_dirs: dirs,
                linear: opts.linear,
                ..Default::default()
            };
            if let Some(c) = opts.team_color {
                options.team_color = c;
            }
            let out = mdlx::gltf::export(&model, &options);
            notes.extend(out.losses.iter().map(|l| Note::loss("glTF cannot hold", l)));
            missing_textures = super::convert_dir::not_found(&out.missing_textures);
            if !opts.in_folder {
                notes.extend(super::convert_dir::where_looked(
                    &missing_textures,
                    &options.texture_dirs,
                    opts.textures.len(),
                ));
            }
            if to == To::Glb {
                out.to_glb()
            } else {
                out.to_gltf().into_bytes()
            }
        }
        To::Png | To::Blp | To::Tga | To::Dds => {
            unreachable!("a model with texture output is refused above")
        }
        To::Alpha(version) => {
            let (alpha, losses) = mdlx::alpha::AlphaModel::from_model(&model, version);
            notes.extend(
                losses
                    .iter()
                    .map(|l| Note::loss("the WoW alpha family cannot hold", l)),
            );
            mdlx::alpha::to_bytes(&alpha)?
        }
        To::Mdl => {
            let written = mdlx::mdl::to_bytes_with_options(
                &model,
                &mdlx::mdl::WriteOptions {
                    strict: opts.strict_mdl,
                },
            );
            let what = "standard MDL cannot hold";
            if !opts.allow_lossy {
                refuse_losses(
                    what,
                    &written.losses,
                    "in strictly standard MDL; nothing written (use --allow-lossy to write anyway, or drop --strict-mdl to keep them in an MdlxExtension block)",
                )?;
            }
            notes.extend(written.losses.iter().map(|l| Note::loss(what, l)));
            written.text
        }
        To::Obj => {
            let posed = super::pose::pose_model(&model, &opts.moment)?;
            let title = format!("{}: {}", files::shown(input), posed.title);
            // The material library goes beside a file; standard output gets the mesh only.
            let mtl = (!files::is_stdio(output) && !model.materials.is_empty())
                .then(|| output.with_extension("mtl"));
            let mtl_name = mtl
                .as_ref()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned());
            let (text, report) =
                mdlx::obj::to_bytes(&model, &posed.geosets, &title, mtl_name.as_deref());
            if report.geosets_hidden > 0 {
                notes.push(Note::info(
                    "OBJ",
                    format!(
                        "{} geoset(s) hidden at this moment, not written",
                        report.geosets_hidden
                    ),
                ));
            }
            notes.extend(
                report
                    .losses()
                    .iter()
                    .map(|l| Note::loss("OBJ cannot hold", l)),
            );
            if posed.pose.billboards_ignored > 0 {
                notes.push(Note::info(
                    "OBJ",
                    format!(
                        "{} billboarded node(s) left unturned (give --view X,Y,Z)",
                        posed.pose.billboards_ignored
                    ),
                ));
            }
            if let Some(mtl) = &mtl {
                files::write(mtl, &mdlx::obj::mtl_to_bytes(&model), input)?;
            }
            text
        }
    };
    // Textures first, the model last: a model in place never names a missing texture, and
    // a failure before the renames leaves nothing new.
    let mut beside = super::gltf_in::stage(&textures, output, input, &opts.ledger, &mut notes)?;
    let staged = std::mem::take(&mut beside.staged);
    let model_staged = files::stage(output, &bytes, input);
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
    Ok(Done {
        from,
        notes,
        textures: beside.written,
        missing_textures,
    })
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
    if matches!(to, To::Glb | To::Gltf) {
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
        read.gltf.version = version.min(mdlx::format::version::TEXTURE_SLOTS);
    }
    if let Some(path) = &opts.texture_path {
        read.gltf.texture_path = path.clone();
    }
    if let Some(f) = opts.scale {
        read.gltf.scale = mdlx::gltf::import::ImportScale::Factor(f);
    }
    if let Some(h) = opts.height {
        read.gltf.scale = mdlx::gltf::import::ImportScale::Height(h);
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
