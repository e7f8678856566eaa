//! `mdlx::read`: any model format by content, one error type, and content that is no model
//! refused in one line before any reader runs.

mod common;

use mdlx::mdx::MdxErrorKind;
use mdlx::model::{Family, FixedString, Sequence, SEQUENCE_NON_LOOPING};
use mdlx::{identify, read, Content, Error, Format, LooksLike, ReadOptions, Source};

const CUBE: &[u8] = include_bytes!("../../../examples/cube.mdx");

fn read_default(data: &[u8]) -> Result<mdlx::Loaded, Error> {
    read(data, &ReadOptions::default())
}

fn not_a_model(data: &[u8]) -> LooksLike {
    match read_default(data) {
        Err(Error::NotAModel { looks_like }) => looks_like,
        Err(e) => panic!("another error: {e}"),
        Ok(l) => panic!("read as {}", l.source),
    }
}

#[test]
fn an_empty_file_is_refused_as_empty() {
    assert_eq!(not_a_model(b""), LooksLike::Empty);
    let e = read_default(b"").unwrap_err();
    assert_eq!(
        e.to_string(),
        "not an MDX, MDL or Milkshape file (it is empty)"
    );
}

#[test]
fn an_mdx_cut_short_is_refused_at_its_end() {
    // 16 bytes: MDLX and the whole VERS chunk, no MODL.
    for (len, tag, chunks) in [
        (4, *b"VERS", 0),
        (5, *b"VERS", 0),
        (8, *b"VERS", 0),
        (16, *b"MODL", 1),
    ] {
        let cut = &CUBE[..len];
        let e = match read_default(cut) {
            Err(Error::Mdx(e)) => e,
            other => panic!("{len} bytes: {:?}", other.map(|l| l.source)),
        };
        assert_eq!(e.kind, MdxErrorKind::MissingChunk { tag, chunks }, "{e}");
        assert_eq!(e.offset, len as u64, "{e}");
        let text = e.to_string();
        assert!(text.contains("not a complete model"), "{text}");
        assert!(text.contains(&format!("at offset {len:#x}")), "{text}");
        // The same through the MDX reader itself.
        assert_eq!(mdlx::mdx::from_bytes(cut).unwrap_err(), e);
    }
    let e = read_default(&CUBE[..16]).unwrap_err();
    assert_eq!(
        e.render("cube.mdx"),
        "cube.mdx: not a complete model: the file ends with no `MODL` chunk, after 1 chunk; \
         a cut-off download? (at offset 0x10)"
    );
}

#[test]
fn a_model_needs_vers_and_modl_in_any_order() {
    // MODL, then VERS: reads (INFO before VERS exists in real files).
    let vers = &CUBE[4..16];
    let modl_len = u32::from_le_bytes(CUBE[20..24].try_into().unwrap()) as usize;
    let modl = &CUBE[16..24 + modl_len];
    let mut file = b"MDLX".to_vec();
    file.extend_from_slice(modl);
    file.extend_from_slice(vers);
    let loaded = read_default(&file).unwrap();
    assert_eq!(loaded.model.version, 800);
    // Writing it back gives a file the reader takes, and so does writing a new model.
    let again = mdlx::mdx::to_bytes(&loaded.model).unwrap();
    assert_eq!(again, file);
    let fresh = mdlx::mdx::to_bytes(&mdlx::Model::default()).unwrap();
    assert!(mdlx::mdx::from_bytes(&fresh).is_ok());
    // Only MODL: refused, naming VERS.
    let mut only_modl = b"MDLX".to_vec();
    only_modl.extend_from_slice(modl);
    let e = mdlx::mdx::from_bytes(&only_modl).unwrap_err();
    assert_eq!(
        e.kind,
        MdxErrorKind::MissingChunk {
            tag: *b"VERS",
            chunks: 1
        }
    );
}

#[test]
fn each_kind_of_non_model_is_named_in_one_line() {
    let mut zip = b"PK\x03\x04".to_vec();
    zip.extend_from_slice(&[0; 22]);
    zip.extend_from_slice(&12u16.to_le_bytes());
    zip.extend_from_slice(&[0, 0]);
    zip.extend_from_slice(b"Footman.mdx\0");
    let cases: Vec<(&str, Vec<u8>, LooksLike, &str)> = vec![
        (
            "PNG",
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
            LooksLike::Png,
            "a PNG image",
        ),
        (
            "JPEG",
            b"\xff\xd8\xff\xe0\0\x10JFIF".to_vec(),
            LooksLike::Jpeg,
            "a JPEG image",
        ),
        (
            "GIF",
            b"GIF89a\x01\0\x01\0".to_vec(),
            LooksLike::Gif,
            "a GIF image",
        ),
        (
            "BLP1",
            b"BLP1\0\0\0\0".to_vec(),
            LooksLike::Blp { version: 1 },
            "a BLP1 texture",
        ),
        (
            "BLP2",
            b"BLP2\x01\x02".to_vec(),
            LooksLike::Blp { version: 2 },
            "a BLP2 texture",
        ),
        (
            "DDS",
            b"DDS |\0\0\0".to_vec(),
            LooksLike::Dds,
            "a DDS texture",
        ),
        (
            "zip",
            zip,
            LooksLike::Zip {
                first: Some("Footman.mdx\0".into()),
            },
            "a zip archive (first entry: Footman.mdx\0)",
        ),
        (
            "MPQ",
            b"MPQ\x1a\x20\0\0\0".to_vec(),
            LooksLike::Mpq,
            "an MPQ archive",
        ),
        (
            "map",
            b"HM3W\0\0\0\0".to_vec(),
            LooksLike::Wc3Map,
            "a Warcraft III map",
        ),
        (
            "JSON",
            br#"{ "meshes": [] }"#.to_vec(),
            LooksLike::Json,
            "JSON",
        ),
        ("binary", vec![0x13; 64], LooksLike::Binary, "binary data"),
    ];
    for (what, data, kind, phrase) in cases {
        assert_eq!(identify(&data), Content::NotAModel(kind.clone()), "{what}");
        let e = read_default(&data).unwrap_err();
        assert_eq!(e, Error::NotAModel { looks_like: kind }, "{what}");
        let text = e.render("x.mdx");
        assert_eq!(
            text,
            format!("x.mdx: not an MDX, MDL or Milkshape file (looks like {phrase})"),
            "{what}"
        );
        assert_eq!(text.lines().count(), 1, "{what}");
    }
}

#[test]
fn corpus_textures_are_told_apart_from_models() {
    let dir = common::corpus_dir().join("textures");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no corpus at {}: skipped", dir.display());
        return;
    };
    let mut seen = std::collections::BTreeMap::new();
    for e in entries {
        let p = e.unwrap().path();
        let ext = p.extension().unwrap().to_string_lossy().to_lowercase();
        let want = match ext.as_str() {
            "blp" => "BLP",
            "dds" => "DDS",
            "tga" => "TGA",
            _ => continue,
        };
        let data = std::fs::read(&p).unwrap();
        if data.starts_with(b"MDLX") {
            // Two `.blp` files of the corpus are models: the content decides.
            assert!(read_default(&data).is_ok(), "{}", p.display());
            *seen.entry("MDX named as a texture").or_insert(0) += 1;
            continue;
        }
        let kind = not_a_model(&data);
        assert!(
            kind.to_string().contains(want),
            "{}: looks like {kind}",
            p.display()
        );
        *seen.entry(want).or_insert(0) += 1;
    }
    println!("textures identified: {seen:?}");
}

#[test]
fn corpus_models_are_identified_by_content() {
    let dir = common::corpus_dir();
    let count = |sub: &str, want: Format| {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            return 0;
        };
        let mut n = 0;
        for e in entries {
            let p = e.unwrap().path();
            let data = std::fs::read(&p).unwrap();
            // The one WoW alpha file of the corpus (the boar) sits among the MDX files.
            let want = match want {
                Format::Mdx if p.to_string_lossy().ends_with("Files__Boar.mdx") => Format::AlphaMdx,
                other => other,
            };
            assert_eq!(identify(&data), Content::Model(want), "{}", p.display());
            n += 1;
        }
        n
    };
    let mdx = count("mdx", Format::Mdx);
    let mdl = count("mdl", Format::Mdl);
    let ms3d = count("ms3d_ascii", Format::Ms3d);
    println!("identified: {mdx} MDX (one of them WoW alpha), {mdl} MDL, {ms3d} Milkshape");
}

#[test]
fn the_alpha_boar_reads_with_its_own_version_and_losses() {
    let path = common::corpus_dir().join("mdx/GrenderG__MDX-Parser__MDXParser__Files__Boar.mdx");
    let Ok(data) = std::fs::read(&path) else {
        eprintln!("no corpus: skipped");
        return;
    };
    assert_eq!(identify(&data), Content::Model(Format::AlphaMdx));
    assert_eq!(Format::detect(&data), Format::AlphaMdx);
    let loaded = read_default(&data).unwrap();
    assert_eq!(loaded.source, Source::AlphaMdx { version: 1300 });
    assert_eq!(loaded.source.format(), Format::AlphaMdx);
    assert_eq!(loaded.source.family(), Some(Family::WowAlpha));
    assert_eq!(loaded.source.version(), Some(1300));
    assert_eq!(loaded.source.short_name(), "mdx-alpha");
    assert!(loaded.source.is_converted());
    assert_eq!(loaded.model.version, 800);
    assert!(!loaded.losses.is_empty());
    assert_eq!(loaded.alpha.as_ref().unwrap().version, 1300);
}

#[test]
fn mdx_and_milkshape_say_what_they_were() {
    let loaded = read_default(CUBE).unwrap();
    assert_eq!(
        loaded.source,
        Source::Mdx {
            version: 800,
            family: Family::Classic
        }
    );
    assert!(loaded.warnings.is_empty() && loaded.losses.is_empty() && loaded.alpha.is_none());

    let doc = mdlx::convert::ms3d::to_ms3d(&loaded.model, &Default::default()).0;
    let ms3d = mdlx::ms3d::to_bytes(&doc).unwrap();
    let mut opts = ReadOptions::default();
    opts.ms3d.name = "Cube".into();
    let back = read(&ms3d, &opts).unwrap();
    assert_eq!(back.source, Source::Ms3d);
    assert_eq!(back.source.to_string(), "Milkshape 3D ASCII");
    assert_eq!(back.model.info.name.to_string(), "Cube");
}

#[test]
fn gltf_is_imported_as_the_options_ask() {
    let cube = read_default(CUBE).unwrap().model;
    let export = mdlx::convert::gltf::export(&cube, &Default::default());
    let mut opts = ReadOptions::default();
    opts.gltf.name = "Cube".into();
    for (data, binary) in [
        (export.to_glb(), true),
        (export.to_gltf().into_bytes(), false),
    ] {
        assert_eq!(identify(&data), Content::Model(Format::Gltf));
        let loaded = read(&data, &opts).unwrap();
        assert_eq!(loaded.source, Source::Gltf { binary });
        assert_eq!(loaded.source.short_name(), "gltf");
        assert!(loaded.source.is_converted());
        assert_eq!(
            (loaded.source.version(), loaded.source.family()),
            (None, None)
        );
        assert_eq!(loaded.model.version, 800);
        assert_eq!(loaded.model.info.name.to_string(), "Cube");
        assert_eq!(loaded.model.geosets.len(), cube.geosets.len());
        assert!(loaded.warnings.is_empty() && loaded.alpha.is_none());
    }
    assert_eq!(
        Source::Gltf { binary: true }.to_string(),
        "glTF 2.0 (binary, .glb)"
    );

    // The import options apply to a glTF made elsewhere (here: without the model inside);
    // one with its model inside comes back as that model, at its own version.
    opts.gltf.version = 1000;
    let bare = mdlx::convert::gltf::export(
        &cube,
        &mdlx::convert::gltf::ExportOptions {
            source: false,
            ..Default::default()
        },
    );
    assert_eq!(read(&bare.to_glb(), &opts).unwrap().model.version, 1000);
    assert_eq!(
        read(&export.to_glb(), &opts).unwrap().model.version,
        cube.version
    );
    // A glTF that names external files needs a folder.
    let external =
        br#"{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 4, "uri": "a.bin"}]}"#;
    let e = read_default(external).unwrap_err();
    assert!(matches!(e, Error::Gltf(_)), "{e}");
    assert!(
        e.render("x.gltf").starts_with("x.gltf: buffers[0]"),
        "{}",
        e.render("x.gltf")
    );

    // Cut short: one line naming the file.
    let e = read_default(b"glTF\x02\0\0\0").unwrap_err();
    assert!(matches!(e, Error::Gltf(_)), "{e}");
    assert_eq!(e.render("x.glb").lines().count(), 1);
    assert!(e.render("x.glb").starts_with("x.glb: "));
}

#[test]
fn read_options_for_a_file_take_its_folder_and_name() {
    let opts = ReadOptions::for_file(std::path::Path::new("models/Hero.mdl"));
    assert_eq!(opts.base.as_deref(), Some(std::path::Path::new("models")));
    assert_eq!(opts.ms3d.name, "Hero");
    assert_eq!(opts.gltf.name, "Hero");
    assert!(!opts.strict);
    assert!(ReadOptions::default().base.is_none());
}

#[test]
fn an_mdl_error_displays_as_line_and_column() {
    let text = b"Version {\n\tFormatVersion 800,\n}\nModel \"x\" {\n\tBogus 3,\n}\n";
    let e = read_default(text).unwrap_err();
    let Error::Mdl(mdl) = &e else {
        panic!("not an MDL error: {e}")
    };
    let first = mdl.errors().next().unwrap();
    assert_eq!((first.line, first.column), (5, 2));
    assert_eq!(first.source_line, "\tBogus 3,");
    let shown = e.to_string();
    assert!(shown.starts_with("1 error(s) in MDL: 5:2: "), "{shown}");
    assert!(!shown.contains("byte"), "{shown}");
    // Rendered with a file name, as the MDL reader prints it.
    let rendered = e.render("x.mdl");
    let direct = mdlx::mdl::from_bytes(text)
        .unwrap_err()
        .render(text, "x.mdl");
    assert_eq!(rendered, format!("x.mdl: 1 error(s) in MDL\n{direct}"));
    assert!(rendered.contains("--> x.mdl:5:2"), "{rendered}");
}

#[test]
fn many_mdl_errors_show_the_first_few_and_a_count() {
    let mut text = b"Version {\n\tFormatVersion 800,\n}\nModel \"x\" {\n".to_vec();
    for i in 0..5 {
        text.extend_from_slice(format!("\tBogus{i} 3,\n").as_bytes());
    }
    text.extend_from_slice(b"}\n");
    let shown = read_default(&text).unwrap_err().to_string();
    assert!(shown.starts_with("5 error(s) in MDL: 5:2: "), "{shown}");
    assert!(shown.contains("; 7:2: "), "{shown}");
    assert!(!shown.contains("8:2"), "{shown}");
    assert!(shown.ends_with("; and 2 more"), "{shown}");
}

#[test]
fn mdl_warnings_come_back_located() {
    // No Version block: read as 800, with a warning.
    let text = b"Model \"x\" {\n\tBlendTime 150,\n}\n";
    let loaded = read_default(text).unwrap();
    assert_eq!(
        loaded.source,
        Source::Mdl {
            version: 800,
            family: Family::Classic
        }
    );
    let w = loaded.warnings.first().expect("a warning");
    assert!(w.to_string().contains(":"), "{w}");
    assert!(w.to_string().contains("warning: "), "{w}");
    assert!(
        w.render("x.mdl").contains("--> x.mdl:"),
        "{}",
        w.render("x.mdl")
    );
}

#[test]
fn the_error_is_a_std_error_callers_can_question_mark() {
    fn load(data: &[u8]) -> Result<mdlx::Model, Box<dyn std::error::Error>> {
        Ok(read(data, &ReadOptions::default())?.model)
    }
    assert!(load(CUBE).is_ok());
    assert!(load(b"BLP1").is_err());
}

#[test]
fn fixed_strings_display_as_their_text() {
    let s = FixedString::from_field(b"Footman\0\x01\x02");
    assert_eq!(s.to_string(), "Footman");
    assert_eq!(format!("[{s:<9}]"), "[Footman  ]");
    assert_eq!(
        FixedString::from_field(b"Ca\xffr").to_string(),
        "Ca\u{fffd}r"
    );
}

#[test]
fn a_sequence_loops_unless_flagged_non_looping() {
    let mut s = Sequence::default();
    assert!(s.is_looping());
    s.flags = SEQUENCE_NON_LOOPING | 0x10;
    assert!(!s.is_looping());
    s.flags = 0x10;
    assert!(s.is_looping());
}
