//! MDL from hand-written or broken exporters: what the lenient reader reads past with a
//! warning, what `ReadOptions { strict: true }` refuses, and what is not MDL at all.

use mdlx::anim::{AnimTime, Clock};
use mdlx::mdl::{self, Diagnostic, MdlErrorKind, ReadOptions, Severity};
use mdlx::model::{Interpolation, Key};
use mdlx::spec::track as tk;

const STRICT: ReadOptions = ReadOptions { strict: true };

/// Each diagnostic as `line:col severity: message`.
fn shown(src: &str, diags: &[Diagnostic]) -> Vec<String> {
    diags
        .iter()
        .map(|d| {
            let (line, col) = d.line_col(src.as_bytes());
            let sev = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            format!("{line}:{col} {sev}: {}", d.message())
        })
        .collect()
}

fn lenient(src: &str) -> (mdlx::Model, Vec<String>) {
    match mdl::from_bytes_with_warnings(src.as_bytes()) {
        Ok((m, w)) => {
            let w = shown(src, &w);
            (m, w)
        }
        Err(e) => panic!("{}", e.render(src.as_bytes(), "t.mdl")),
    }
}

fn strict_errors(src: &str) -> Vec<String> {
    match mdl::from_bytes_with_options(src.as_bytes(), &STRICT) {
        Ok(_) => panic!("strict reading accepted:\n{src}"),
        Err(e) => shown(src, &e.diagnostics),
    }
}

fn key<T>(time: i32, value: T) -> Key<T>
where
    T: Default,
{
    Key {
        time,
        value,
        in_tan: T::default(),
        out_tan: T::default(),
    }
}

const HEAD: &str = "Version {\n\tFormatVersion 800,\n}\nModel \"M\" {\n\tBlendTime 150,\n}\n";

const RIBBON: &str = "Version {
	FormatVersion 800,
}
Model \"M\" {
	BlendTime 150,
}
RibbonEmitter \"R\" {
	ObjectId 0,
	static HeightAbove 10,
	static Visibility 2.2,
	MaterialID 0,
}
";

const TRACK_ONLY_WARNING: &str = "`Visibility` in RibbonEmitter can only be animated: MDX stores it only as a track, not as a static value; read as a track that holds the value in every sequence (DontInterp keys at 0 and at each sequence's start)";

#[test]
fn static_value_of_track_only_field_becomes_one_key_track() {
    let (m, warnings) = lenient(RIBBON);
    assert_eq!(
        warnings,
        vec![format!("10:2 warning: {TRACK_ONLY_WARNING}")]
    );
    let r = &m.ribbon_emitters[0];
    assert_eq!(r.height_above, 10.0);
    assert_eq!(r.tracks.len(), 1);
    let t = r.tracks.float(tk::KRVS).expect("a KRVS track");
    assert_eq!(t.interpolation, Interpolation::None);
    assert_eq!(t.global_sequence_id, -1);
    assert_eq!(t.keys, vec![key(0, 2.2f32)]);
    // It writes as an ordinary track and reads back without a warning.
    let text = mdl::to_bytes(&m);
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.contains("\tVisibility 1 {\n\t\tDontInterp,\n\t\t0: 2.2,\n\t}\n"),
        "{text}"
    );
    let (back, warnings) = lenient(&text);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        mdlx::mdx::to_bytes(&back).unwrap(),
        mdlx::mdx::to_bytes(&m).unwrap()
    );
}

#[test]
fn static_track_only_value_holds_in_every_sequence() {
    let src = format!(
        "{HEAD}Sequences 3 {{
	Anim \"Stand\" {{
		Interval {{ 333, 1333 }},
	}}
	Anim \"Walk\" {{
		Interval {{ 2000, 3000 }},
	}}
	Anim \"Walk Alternate\" {{
		Interval {{ 2000, 2500 }},
	}}
}}
Attachment \"A\" {{
	ObjectId 0,
	AttachmentID 0,
	Visibility 0,
}}
"
    );
    let (m, warnings) = lenient(&src);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("21:2 warning: `Visibility` in Attachment can only be animated")
    );
    let t = m.attachments[0].tracks.float(tk::KATV).unwrap();
    assert_eq!(t.interpolation, Interpolation::None);
    assert_eq!(t.keys, vec![key(0, 0.0f32), key(333, 0.0), key(2000, 0.0)]);
    // Hidden all through every sequence (the default, without the track, is visible).
    for (seq, len) in [(0, 1000.0), (1, 1000.0), (2, 500.0)] {
        for ms in [0.0, len / 2.0, len] {
            let v = Clock::new(&m, AnimTime::new(Some(seq), ms)).sample(Some(t), 1.0);
            assert_eq!(v, 0.0, "sequence {seq} at {ms} ms");
        }
    }
}

#[test]
fn every_track_only_field_is_read_as_a_held_track() {
    // (block text, kind, tag, what the track holds); each with and without `static`.
    let cases: &[(&str, &str, mdlx::model::Tag, &str)] = &[
        (
            "Bone \"B\" {\n\tstatic Translation { 1, 2, 3 },\n}",
            "Bone",
            tk::KGTR,
            "[1.0, 2.0, 3.0]",
        ),
        (
            "Helper \"H\" {\n\tstatic Rotation { 0, 0, 0, 1 },\n}",
            "Helper",
            tk::KGRT,
            "[0.0, 0.0, 0.0, 1.0]",
        ),
        (
            "EventObject \"E\" {\n\tstatic Scaling { 2, 2, 2 },\n}",
            "EventObject",
            tk::KGSC,
            "[2.0, 2.0, 2.0]",
        ),
        (
            "Attachment \"A\" {\n\tstatic Visibility 0,\n}",
            "Attachment",
            tk::KATV,
            "0.0",
        ),
        (
            "Light \"L\" {\n\tstatic Visibility 0,\n}",
            "Light",
            tk::KLAV,
            "0.0",
        ),
        (
            "ParticleEmitter \"P\" {\n\tstatic Visibility 0,\n}",
            "ParticleEmitter",
            tk::KPEV,
            "0.0",
        ),
        (
            "ParticleEmitter \"P\" {\n\tParticle {\n\t\tstatic Visibility 0,\n\t}\n}",
            "Particle",
            tk::KPEV,
            "0.0",
        ),
        (
            "ParticleEmitter2 \"P\" {\n\tstatic Visibility 0,\n}",
            "ParticleEmitter2",
            tk::KP2V,
            "0.0",
        ),
        (
            "ParticleEmitterPopcorn \"P\" {\n\tstatic Visibility 0,\n}",
            "ParticleEmitterPopcorn",
            tk::KPPV,
            "0.0",
        ),
        (
            "RibbonEmitter \"R\" {\n\tstatic Visibility 0,\n}",
            "RibbonEmitter",
            tk::KRVS,
            "0.0",
        ),
        (
            "Camera \"C\" {\n\tstatic Translation { 1, 2, 3 },\n}",
            "Camera",
            tk::KCTR,
            "[1.0, 2.0, 3.0]",
        ),
        (
            "Camera \"C\" {\n\tstatic Rotation 0.5,\n}",
            "Camera",
            tk::KCRL,
            "0.5",
        ),
        (
            "Camera \"C\" {\n\tTarget {\n\t\tstatic Translation { 1, 2, 3 },\n\t}\n}",
            "Target",
            tk::KTTR,
            "[1.0, 2.0, 3.0]",
        ),
        (
            "TextureAnims 1 {\n\tTVertexAnim {\n\t\tstatic Scaling { 2, 2, 2 },\n\t}\n}",
            "TVertexAnim",
            tk::KTAS,
            "[2.0, 2.0, 2.0]",
        ),
    ];
    for &(block, kind, tag, value) in cases {
        for block in [block.to_string(), block.replace("static ", "")] {
            let src = format!("{HEAD}{block}\n");
            let (m, warnings) = lenient(&src);
            let keyword = block.lines().find(|l| l.ends_with(',')).unwrap().trim();
            let keyword = keyword
                .trim_start_matches("static ")
                .split(' ')
                .next()
                .unwrap();
            assert_eq!(warnings.len(), 1, "{src}\n{warnings:?}");
            let want = format!("`{keyword}` in {kind} can only be animated");
            assert!(warnings[0].contains(&want), "{src}\n{warnings:?}");
            let tracks = m
                .nodes()
                .map(|n| &n.tracks)
                .chain(m.attachments.iter().map(|a| &a.tracks))
                .chain(m.lights.iter().map(|a| &a.tracks))
                .chain(m.particle_emitters.iter().map(|a| &a.tracks))
                .chain(m.particle_emitters2.iter().map(|a| &a.tracks))
                .chain(m.popcorn_emitters.iter().map(|a| &a.tracks))
                .chain(m.ribbon_emitters.iter().map(|a| &a.tracks))
                .chain(m.cameras.iter().map(|a| &a.tracks))
                .chain(m.texture_animations.iter().map(|a| &a.tracks));
            let found: Vec<String> = tracks
                .flat_map(|t| t.iter())
                .filter(|a| a.tag == tag)
                .map(|a| format!("{:?}", a.track))
                .collect();
            assert_eq!(found.len(), 1, "{src}");
            assert!(
                found[0].contains("interpolation: None")
                    && found[0].contains("time: 0")
                    && found[0].contains(&format!("value: {value}")),
                "{src}\n{}",
                found[0]
            );
        }
    }
}

#[test]
fn track_only_field_is_error_under_strict() {
    let errors = strict_errors(RIBBON);
    assert_eq!(
        errors,
        vec!["10:2 error: `Visibility` in RibbonEmitter can only be animated: MDX stores it only as a track, not as a static value"]
    );
    assert!(!errors[0].contains("unknown keyword"));
    // The same file written with a track is accepted.
    let fixed = RIBBON.replace(
        "static Visibility 2.2,",
        "Visibility 1 {\n\t\tDontInterp,\n\t\t0: 2.2,\n\t}",
    );
    let (m, _) = mdl::from_bytes_with_options(fixed.as_bytes(), &STRICT).unwrap();
    let (lenient, _) = lenient(RIBBON);
    assert_eq!(
        mdlx::mdx::to_bytes(&m).unwrap(),
        mdlx::mdx::to_bytes(&lenient).unwrap()
    );
}

const NOTES: &str = "// Exported by hand
Created by Someone (c) 2009
Version {
	FormatVersion 800,
}
This model's textures aren't included! Get them from \"the site\" at http://example.com/x?id=3

  See readme.txt, section 2: don't redistribute.
Model \"M\" {
	BlendTime 150,
}
Thanks to everyone @ the forum ;-)
";

#[test]
fn text_between_blocks_is_skipped_with_warning() {
    let (m, warnings) = lenient(NOTES);
    assert_eq!(
        warnings,
        vec![
            "2:1 warning: 1 line of text outside any block; skipped",
            "6:1 warning: 2 lines of text outside any block; skipped",
            "12:1 warning: 1 line of text outside any block; skipped",
        ]
    );
    let (clean, none) = lenient(HEAD);
    assert!(none.is_empty());
    assert_eq!(
        mdlx::mdx::to_bytes(&m).unwrap(),
        mdlx::mdx::to_bytes(&clean).unwrap()
    );
    assert_eq!(m.info.name.text(), "M");
}

#[test]
fn text_outside_blocks_is_error_under_strict() {
    assert_eq!(
        strict_errors(NOTES),
        vec![
            "2:1 error: 1 line of text outside any block",
            "6:1 error: 2 lines of text outside any block",
            "12:1 error: 1 line of text outside any block",
        ]
    );
}

#[test]
fn notes_after_a_real_model_leave_it_unchanged() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/mdl/AMISD666__War3ModelView__testmodel__000.mdl");
    let Ok(src) = std::fs::read(&path) else {
        println!("corpus not found; skipped");
        return;
    };
    let clean = mdl::from_bytes(&src).unwrap();
    let mut noted = src.clone();
    noted.extend_from_slice(
        "\nNotes: ported from WoW; textures by ‘Ünïcødé’ — enjoy!\nv2 (fixed the hands)\n"
            .as_bytes(),
    );
    let lines = noted.iter().filter(|&&b| b == b'\n').count();
    let (m, warnings) = mdl::from_bytes_with_warnings(&noted).unwrap();
    assert_eq!(warnings.len(), 1);
    assert_eq!(
        warnings[0].kind,
        MdlErrorKind::TextOutsideBlocks { lines: 2 }
    );
    assert_eq!(warnings[0].line_col(&noted), (lines - 1, 1));
    assert_eq!(
        mdlx::mdx::to_bytes(&m).unwrap(),
        mdlx::mdx::to_bytes(&clean).unwrap()
    );
}

#[test]
fn malformed_blocks_are_still_errors() {
    let cases: &[(&str, &[&str])] = &[
        // A block header that lost its `{`: its lines are loose text, its `}` unmatched.
        (
            "Bone \"B\"\n\tObjectId 0,\n}\n",
            &[
                "9:1 error: `}` without a matching `{`",
                "8:2 warning: 1 line of text outside any block; skipped",
                "7:1 error: expected `{` to open the Bone block, found the end of the line",
            ],
        ),
        // Bad text inside a block is not skipped.
        (
            "Helper \"H\" {\n\tThis is a note!\n}\n",
            &[
                "8:16 error: unexpected character '!'",
                "8:2 error: unknown keyword `This` in Helper",
            ],
        ),
        // An unknown block is a block, not a note.
        (
            "Frobnicate {\n}\n",
            &["7:1 error: unknown keyword `Frobnicate` in the file"],
        ),
    ];
    for (tail, want) in cases {
        let src = format!("{HEAD}{tail}");
        let got = match mdl::from_bytes_with_warnings(src.as_bytes()) {
            Ok(_) => panic!("accepted:\n{src}"),
            Err(e) => shown(&src, &e.diagnostics),
        };
        let mut got = got;
        got.sort_by_key(|s| {
            let (l, c) = s.split_once(' ').unwrap().0.split_once(':').unwrap();
            (l.parse::<u32>().unwrap(), c.parse::<u32>().unwrap())
        });
        let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
        want.sort_by_key(|s| {
            let (l, c) = s.split_once(' ').unwrap().0.split_once(':').unwrap();
            (l.parse::<u32>().unwrap(), c.parse::<u32>().unwrap())
        });
        assert_eq!(got, want, "{src}");
    }
}

const FRAGMENT: &str = "Version {
	FormatVersion 800,
}
Bone \"B\" {
	ObjectId 0,
}
";

#[test]
fn mdl_without_model_block_is_refused_under_strict() {
    assert_eq!(
        strict_errors(FRAGMENT),
        vec!["1:1 error: no Model block: a fragment, not a model the game can load"]
    );
}

#[test]
fn mdl_without_model_block_reads_as_a_fragment_with_a_warning() {
    let (m, warnings) = lenient(FRAGMENT);
    assert_eq!(
        warnings,
        vec!["1:1 warning: no Model block: a fragment, not a model the game can load; read with an empty model header (no name, zero extent)"]
    );
    assert_eq!(m.bones.len(), 1);
    assert_eq!(m.info, mdlx::model::ModelInfo::default());
}

#[test]
fn plain_text_is_not_mdl_one_error() {
    let cube = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/cube.mdx"),
    )
    .unwrap();
    let readme = "# My model pack\n\nThese models aren't mine! Credits:\n- Someone \"nick\" Else\n- (c) 2009 {see below}\n\nUse: copy *.mdx to your map; don't forget the textures.\n".repeat(40);
    let mut garbage = Vec::new();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..4096 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        garbage.push(x as u8);
    }
    let inputs: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("blank lines", b"\n\n  \r\n\t\n".to_vec()),
        ("only comments", b"// nothing\n/* here */\n".to_vec()),
        ("a README", readme.into_bytes()),
        ("C source", b"int main(void) {\n\treturn 0;\n}\n".to_vec()),
        ("JSON", b"{ \"model\": { \"name\": \"x\" } }\n".to_vec()),
        ("binary garbage", garbage),
        ("an MDX file", cube),
        (
            "UTF-16 text",
            "Model \"M\" {\n}\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect(),
        ),
    ];
    for (what, data) in inputs {
        let e = match mdl::from_bytes_with_options(&data, &ReadOptions::default()) {
            Ok(_) => panic!("{what}: read as a model"),
            Err(e) => e,
        };
        assert_eq!(e.diagnostics.len(), 1, "{what}: {:?}", e.diagnostics);
        assert_eq!(e.diagnostics[0].kind, MdlErrorKind::NotMdl, "{what}");
        assert_eq!(e.diagnostics[0].severity, Severity::Error, "{what}");
        let text = e.render(&data, "x.mdl");
        assert_eq!(text.lines().count(), 1, "{what}: {text}");
        assert!(
            text.starts_with("error: x.mdl: not an MDL file"),
            "{what}: {text}"
        );
    }
}
