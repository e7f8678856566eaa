//! Tests of the MDL forms of the emitter and camera declarations (`model::emitters`,
//! `model::camera`): reading real exporters' layouts, round trips, dialects.

use crate::mdl::cx::Cx;
use crate::mdl::out::Out;
use crate::mdl::parse::parse;
use crate::mdl::records::node::kind;
use crate::mdl::records::MdlRecord;
use crate::mdl::{Diagnostic, Severity};
use crate::model::*;
use crate::spec::track as tk;
use std::fmt::Debug;

/// Reads the first block of `src` as `T`, with the diagnostics.
fn read<T: MdlRecord>(src: &[u8]) -> (T, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let tree = parse(src, &mut diags);
    let mut cx = Cx::new(&tree, diags, 800);
    let first = tree.children(0).next().expect("a block");
    let r = T::read_mdl(&mut cx, first);
    (r, cx.diags)
}

/// Reads `src` without errors.
fn read_ok<T: MdlRecord>(src: &str) -> T {
    let (r, diags) = read::<T>(src.as_bytes());
    let errors: Vec<_> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{src}");
    r
}

fn text<T: MdlRecord>(r: &T) -> String {
    let mut out = Out::default();
    r.write_mdl(&mut out, 800);
    String::from_utf8(out.buf).unwrap()
}

/// Writes `r`, reads it back, checks it is equal, and returns the text.
fn round_trip<T: MdlRecord + PartialEq + Debug>(r: &T) -> String {
    let s = text(r);
    let back: T = read_ok(&s);
    assert_eq!(&back, r, "\n{s}");
    s
}

fn float_track(tag: Tag, keys: &[(i32, f32)]) -> Animation {
    let keys = keys
        .iter()
        .map(|&(time, value)| Key {
            time,
            value,
            in_tan: 0.0,
            out_tan: 0.0,
        })
        .collect();
    let track = Track {
        interpolation: Interpolation::Linear,
        global_sequence_id: -1,
        keys,
    };
    Animation {
        tag,
        track: AnyTrack::Float(track),
    }
}

fn vector_track(tag: Tag, keys: &[(i32, [f32; 3])]) -> Animation {
    let keys = keys
        .iter()
        .map(|&(time, value)| Key {
            time,
            value,
            in_tan: [0.0; 3],
            out_tan: [0.0; 3],
        })
        .collect();
    let track = Track {
        interpolation: Interpolation::None,
        global_sequence_id: 2,
        keys,
    };
    Animation {
        tag,
        track: AnyTrack::Vector3(track),
    }
}

fn tags(t: &Tracks) -> Vec<Tag> {
    t.iter().map(|a| a.tag).collect()
}

// The shape Retera's Model Studio and Blizzard write (corpus `eagle.mdl`).
const PREM: &str = r#"ParticleEmitter "SuperSpray04" {
	ObjectId 53,
	Parent 2,
	EmitterUsesMDL,
	static EmissionRate 9,
	static Gravity 360,
	static Longitude 2.05949,
	static Latitude 1.55334,
	Visibility 2 {
		DontInterp,
		0: 1,
		500: 0,
	}
	Particle {
		static LifeSpan 1.06667,
		InitVelocity 1 {
			Linear,
			0: 118.764,
		}
		Path "SharedModels\Feather2.MDL",
	}
	Translation 1 {
		Linear,
		0: { 1, 2, 3 },
	}
}
"#;

#[test]
fn particle_emitter_reads_and_round_trips() {
    let p: ParticleEmitter = read_ok(PREM);
    assert_eq!(p.node.name.text(), "SuperSpray04");
    assert_eq!((p.node.object_id, p.node.parent_id), (53, 2));
    assert_eq!(p.node.flags, kind::PARTICLE_EMITTER | 0x8000);
    assert_eq!(
        [p.emission_rate, p.gravity, p.longitude],
        [9.0, 360.0, 2.05949]
    );
    assert_eq!((p.latitude, p.life_span, p.speed), (1.55334, 1.06667, 0.0));
    assert_eq!(p.path.text(), "SharedModels\\Feather2.MDL");
    assert_eq!(tags(&p.tracks), [tk::KPEV, tk::KPES]);
    assert_eq!(tags(&p.node.tracks), [tk::KGTR]);
    let s = round_trip(&p);
    // Animated and zero: no static line; the track stays inside `Particle`.
    assert!(!s.contains("static InitVelocity"), "{s}");
    assert!(
        s.contains("Particle {\n\t\tstatic LifeSpan 1.06667,\n\t\tPath"),
        "{s}"
    );
}

#[test]
fn particle_emitter_keeps_any_track_order() {
    let mut p: ParticleEmitter = read_ok(PREM);
    p.speed = 5.0;
    p.node.flags |= 0x10000;
    for order in [
        vec![tk::KPEL, tk::KPEE, tk::KPES, tk::KPEV],
        vec![
            tk::KPEE,
            tk::KPEG,
            tk::KPLN,
            tk::KPLT,
            tk::KPEL,
            tk::KPES,
            tk::KPEV,
        ],
        vec![tk::KPES, tk::KPEL],
    ] {
        p.tracks = Tracks(order.iter().map(|&t| float_track(t, &[(0, 1.0)])).collect());
        let s = round_trip(&p);
        assert!(s.contains("static InitVelocity 5"), "{s}");
    }
}

#[test]
fn particle_emitter_accepts_dialects() {
    let src = "particleemitter \"x\" {\n emitterusestga\n emissionrate 2\n\
        particle { speed 3, lifespan 4, path \"a.mdl\" }\n}";
    let p: ParticleEmitter = read_ok(src);
    assert_eq!((p.emission_rate, p.speed, p.life_span), (2.0, 3.0, 4.0));
    assert_eq!(p.node.flags, kind::PARTICLE_EMITTER | 0x10000);
    assert_eq!(
        p.node.object_id,
        u32::MAX,
        "assigned later by the model reader"
    );
    let (_, diags) = read::<ParticleEmitter>(b"ParticleEmitter \"x\" { Particle { Colour 1 } }");
    assert_eq!(diags.len(), 1);
}

// MdlxConv's layout (corpus `Alliance_Exp.mdl`), with more fields set.
const PRE2: &str = r#"ParticleEmitter2 "BlizParticle01" {
	ObjectId 96,
	Parent 4,
	Unshaded,
	Unfogged,
	LineEmitter,
	static Speed 8.000000,
	static Variation 0.020000,
	static Latitude 180.000000,
	static Gravity 0.000000,
	Squirt,
	LifeSpan 0.800000,
	static EmissionRate 15.000000,
	static Width 6.108150,
	static Length 0.068777,
	Additive,
	Rows 2,
	Columns 4,
	Both,
	TailLength 1.000000,
	Time 0.500000,
	SegmentColor {
		Color { 0.1, 0.2, 0.3 },
		Color { 0.4, 0.5, 0.6 },
		Color { 0.7, 0.8, 0.9 },
	},
	Alpha {0, 255, 7},
	ParticleScaling { 10.000000, 20.000000, 30.000000 },
	LifeSpanUVAnim { 0, 0, 1 },
	DecayUVAnim { 1, 2, 3 },
	TailUVAnim { 4, 5, 6 },
	TailDecayUVAnim { 7, 8, 4294967295 },
	TextureID 6,
	ReplaceableId 2,
	Visibility 1 {
		DontInterp,
		0: 1,
	}
	Rotation 1 {
		DontInterp,
		GlobalSeqId 0,
		0: { 0, 0, 0, 1 },
	}
}
"#;

#[test]
fn particle_emitter2_reads_and_round_trips() {
    let p: ParticleEmitter2 = read_ok(PRE2);
    assert_eq!(
        p.node.flags,
        kind::PARTICLE_EMITTER | 0x8000 | 0x40000 | 0x20000
    );
    assert_eq!(
        [p.speed, p.variation, p.latitude, p.gravity],
        [8.0, 0.02, 180.0, 0.0]
    );
    assert_eq!((p.life_span, p.emission_rate, p.squirt), (0.8, 15.0, 1));
    // MdlxConv: its MDX twin holds 0.068777 first (field `length`), 6.10815 second.
    assert_eq!((p.length, p.width), (0.068777, 6.10815));
    assert_eq!(
        (p.filter_mode, p.rows, p.columns, p.head_or_tail),
        (1, 2, 4, 2)
    );
    assert_eq!((p.tail_length, p.time), (1.0, 0.5));
    assert_eq!(
        p.segment_colors,
        [[0.3, 0.2, 0.1], [0.6, 0.5, 0.4], [0.9, 0.8, 0.7]]
    );
    assert_eq!(p.segment_alphas, [0, 255, 7]);
    assert_eq!(p.segment_scaling, [10.0, 20.0, 30.0]);
    assert_eq!(p.head_intervals, [0, 0, 1]);
    assert_eq!(p.tail_decay_intervals, [7, 8, u32::MAX]);
    assert_eq!(
        (p.texture_id, p.replaceable_id, p.priority_plane),
        (6, 2, 0)
    );
    assert_eq!(tags(&p.tracks), [tk::KP2V]);
    assert_eq!(tags(&p.node.tracks), [tk::KGRT]);
    let s = round_trip(&p);
    assert!(s.contains("\tColor { 0.1, 0.2, 0.3 },\n"), "{s}");
    assert!(
        s.contains("static Width 6.10815,\n\tstatic Length 0.068777,\n"),
        "{s}"
    );
    assert!(!s.contains("PriorityPlane"), "{s}");
}

#[test]
fn particle_emitter2_static_lines_follow_the_tracks() {
    let mut p: ParticleEmitter2 = read_ok(PRE2);
    p.emission_rate = 0.0;
    p.width = -0.0;
    p.tracks = Tracks(vec![
        float_track(tk::KP2W, &[(0, 1.0)]),
        float_track(tk::KP2E, &[(0, 2.0)]),
        float_track(tk::KP2N, &[(0, 3.0)]),
    ]);
    let s = round_trip(&p);
    assert!(!s.contains("static EmissionRate"), "{s}");
    assert!(
        s.contains("static Width -0,"),
        "bitwise non-zero keeps its line: {s}"
    );
    assert!(s.contains("static Length 0.068777,"), "{s}");
    p.tracks = Tracks::default();
    let s = round_trip(&p);
    assert!(
        s.contains("static EmissionRate 0,"),
        "not animated: always written: {s}"
    );
}

#[test]
fn particle_emitter2_writes_what_words_can_say() {
    let mut p: ParticleEmitter2 = read_ok(PRE2);
    p.filter_mode = 3;
    p.head_or_tail = 0;
    p.squirt = 0;
    p.priority_plane = -2;
    let s = round_trip(&p);
    assert!(
        s.contains("\tModulate2x,\n") && s.contains("\tHead,\n"),
        "{s}"
    );
    // Unknown values are left out; the model writer keeps such records whole.
    p.filter_mode = 9;
    let back: ParticleEmitter2 = read_ok(&text(&p));
    assert_eq!(back.filter_mode, 0);
}

#[test]
fn particle_emitter2_accepts_dialects() {
    let src = "ParticleEmitter2 \"x\" {\n\
        speed 2\n static LIFESPAN 3\n alphakey\n tail\n sortprimsfarz\n xyquad\n modelspace\n\
        Alpha { 1 2 3 }\n SegmentColor { Color { 1 2 3 } Color { 4, 5, 6 }, Color {7,8,9} }\n\
        PriorityPlane -1\n Width 5\n Length 6\n}";
    let p: ParticleEmitter2 = read_ok(src);
    assert_eq!(
        (p.speed, p.life_span, p.filter_mode, p.head_or_tail),
        (2.0, 3.0, 4, 1)
    );
    assert_eq!(
        p.node.flags,
        kind::PARTICLE_EMITTER | 0x10000 | 0x100000 | 0x80000
    );
    assert_eq!(p.segment_alphas, [1, 2, 3]);
    assert_eq!(p.segment_colors[2], [9.0, 8.0, 7.0]);
    assert_eq!((p.priority_plane, p.length, p.width), (-1, 6.0, 5.0));
    let (_, diags) = read::<ParticleEmitter2>(b"ParticleEmitter2 \"x\" { Alpha { 1, 2, 300 } }");
    assert_eq!(diags.len(), 1);
    let (_, diags) =
        read::<ParticleEmitter2>(b"ParticleEmitter2 \"x\" { SegmentColor { Color { 1, 2, 3 } } }");
    assert_eq!(diags.len(), 1);
}

// Corpus `Alliance_Exp.mdl` (MdlxConv) and Magos' editor, plus tracks.
const RIBBON: &str = r#"RibbonEmitter "BlizRibbon02" {
	ObjectId 109,
	Parent 89,
	static HeightAbove 10.000000,
	static HeightBelow 10.000000,
	Alpha 1 {
		DontInterp,
		0: 0.5,
	}
	static Color { 0.164706, 0.988235, 0.823529 },
	static TextureSlot 3,
	EmissionRate 35,
	LifeSpan 0.400000,
	Gravity 2.5,
	Rows 1,
	Columns 2,
	MaterialID 13,
	Visibility 1 {
		DontInterp,
		0: 1,
	}
}
"#;

#[test]
fn ribbon_emitter_reads_and_round_trips() {
    let r: RibbonEmitter = read_ok(RIBBON);
    assert_eq!(r.node.flags, kind::RIBBON_EMITTER);
    assert_eq!([r.height_above, r.height_below, r.alpha], [10.0, 10.0, 0.0]);
    // The MDX twin holds 0.823529, 0.988235, 0.164706 in this order.
    assert_eq!(r.color, [0.823529, 0.988235, 0.164706]);
    assert_eq!(
        (r.texture_slot, r.emission_rate, r.rows, r.columns),
        (3, 35, 1, 2)
    );
    assert_eq!((r.life_span, r.gravity, r.material_id), (0.4, 2.5, 13));
    assert_eq!(tags(&r.tracks), [tk::KRAL, tk::KRVS]);
    let s = round_trip(&r);
    assert!(!s.contains("static Alpha"), "{s}");
    assert!(
        s.contains("static Color { 0.164706, 0.988235, 0.823529 },"),
        "{s}"
    );
    let mut r = r;
    r.gravity = 0.0;
    r.tracks = Tracks(vec![
        Animation {
            tag: tk::KRTX,
            track: AnyTrack::Integer(Track {
                interpolation: Interpolation::None,
                global_sequence_id: -1,
                keys: vec![Key {
                    time: 5,
                    value: 1,
                    in_tan: 0,
                    out_tan: 0,
                }],
            }),
        },
        vector_track(tk::KRCO, &[(0, [1.0, 0.5, 0.0])]),
    ]);
    let s = round_trip(&r);
    assert!(
        !s.contains("Gravity") && s.contains("static Alpha 0,"),
        "{s}"
    );
    assert!(
        s.contains("TextureSlot 1 {") && s.contains("static TextureSlot 3,"),
        "{s}"
    );
    assert!(
        s.contains("0: { 1, 0.5, 0 },"),
        "animated colors are not reversed: {s}"
    );
}

// The corpus' only popcorn emitter (`riflemanSAWING.mdl`, version 1100), shortened.
const POPCORN: &str = r#"ParticleEmitterPopcorn "RiflemanAttack" {
	ObjectId 136,
	Parent 117,
	static LifeSpan 1.0,
	EmissionRate 2 {
		Linear,
		100: 0.0,
		9100: 1.0,
	}
	static Speed 1.0,
	static Color { 1.0, 0.5, 0.25 },
	static Alpha 1.0,
	Visibility 1 {
		DontInterp,
		8933: 1.0,
	}
	Path "Units/Human/Rifleman/RiflemanAttack.pkfx",
	AnimVisibilityGuide "Always=off, Attack=on",
	Translation 1 {
		Linear,
		0: { 0.0, 0.0, 0.0 },
	}
}
"#;

#[test]
fn popcorn_emitter_reads_and_round_trips() {
    let p: PopcornEmitter = read_ok(POPCORN);
    assert_eq!(p.node.flags, kind::PARTICLE_EMITTER);
    assert_eq!(
        [p.life_span, p.emission_rate, p.speed, p.alpha],
        [1.0, 0.0, 1.0, 1.0]
    );
    assert_eq!(p.color, [0.25, 0.5, 1.0]);
    assert_eq!(p.path.text(), "Units/Human/Rifleman/RiflemanAttack.pkfx");
    assert_eq!(p.animation_visibility_guide.text(), "Always=off, Attack=on");
    assert_eq!(tags(&p.tracks), [tk::KPPE, tk::KPPV]);
    let mut p = p;
    p.replaceable_id = 1;
    p.node.flags |= 0x8000 | 0x40000;
    let s = round_trip(&p);
    assert!(
        s.contains("\tUnshaded,\n\tUnfogged,\n") && s.contains("ReplaceableId 1,"),
        "{s}"
    );
}

const CAMERA: &str = r#"Camera "Camera01" {
	Position { 100, 0, 50.5 },
	Rotation 1 {
		Linear,
		0: 0.25,
	}
	FieldOfView 0.75,
	FarClip 1000,
	NearClip 8,
	Target {
		Position { 0, 0, 40 },
		Translation 1 {
			Bezier,
			0: { 1, 2, 3 },
				InTan { 0, 0, 0 },
				OutTan { 1, 1, 1 },
		}
	}
	Translation 1 {
		Linear,
		0: { 4, 5, 6 },
	}
}
"#;

#[test]
fn camera_reads_and_round_trips() {
    let c: Camera = read_ok(CAMERA);
    assert_eq!(c.name.text(), "Camera01");
    assert_eq!(
        (c.position, c.target_position),
        ([100.0, 0.0, 50.5], [0.0, 0.0, 40.0])
    );
    assert_eq!(
        [c.field_of_view, c.far_clip, c.near_clip],
        [0.75, 1000.0, 8.0]
    );
    assert_eq!(tags(&c.tracks), [tk::KCRL, tk::KTTR, tk::KCTR]);
    round_trip(&c);
    let mut c = c;
    for order in [
        vec![tk::KCTR, tk::KCRL, tk::KTTR],
        vec![tk::KTTR, tk::KCTR, tk::KTTR],
        vec![tk::KCTR, tk::KTTR],
        vec![],
    ] {
        let track = |t| match t {
            t if t == tk::KCRL => float_track(t, &[(0, 1.0)]),
            t => vector_track(t, &[(0, [1.0, 2.0, 3.0])]),
        };
        c.tracks = Tracks(order.into_iter().map(track).collect());
        let s = round_trip(&c);
        assert!(
            s.contains("\tTarget {\n\t\tPosition { 0, 0, 40 },\n"),
            "{s}"
        );
    }
}

#[test]
fn unknown_keywords_are_errors() {
    let (_, d) = read::<Camera>(b"Camera \"c\" { Zoom 2, Target { Roll 1 } }");
    assert_eq!(d.len(), 2);
    let (_, d) = read::<RibbonEmitter>(b"RibbonEmitter \"r\" { Squirt }");
    assert_eq!(d.len(), 1);
    let (_, d) = read::<PopcornEmitter>(b"ParticleEmitterPopcorn \"p\" { Squirt }");
    assert_eq!(d.len(), 1);
}
