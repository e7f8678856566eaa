//! Tests of `mdl::records::geoset` (kept apart so that the module reads as code).

use super::*;
use crate::mdl::error::{Diagnostic, Severity};
use crate::mdl::parse::parse;
use crate::mdx::record::MdxRecord;

/// Reads the first block of `src` as a `T`, with the diagnostics.
pub(crate) fn read<T: MdlRecord>(src: &str, version: u32) -> (T, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let tree = parse(src.as_bytes(), &mut diags);
    let first = tree.children(0).next().expect("a block");
    let mut cx = Cx::new(&tree, diags, version);
    let r = T::read_mdl(&mut cx, first);
    (r, cx.diags)
}

/// Reads the first block of `src`, asserting that there is no error.
pub(crate) fn read_ok<T: MdlRecord>(src: &str, version: u32) -> T {
    let (r, diags) = read::<T>(src, version);
    let errors: Vec<_> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{src}");
    r
}

/// The record's MDX bytes.
fn mdx<T: MdxRecord>(r: &T, version: u32) -> Vec<u8> {
    let mut w = crate::mdx::writer::Writer::default();
    r.write_mdx(&mut w, version).expect("MDX");
    w.into_bytes()
}

/// Writes `r` and reads the text back to the same record (same debug dump, same MDX
/// bytes: NaN values compare by bits), with the face groups the writer keeps in the
/// extension block put back, as the document reader does; returns the text.
pub(crate) fn round_trip<T: MdlRecord + MdxRecord + std::fmt::Debug>(
    r: &T,
    version: u32,
) -> String {
    let mut out = Out::default();
    r.write_mdl(&mut out, version);
    let text = String::from_utf8(out.buf).expect("UTF-8");
    let mut back = read_ok::<T>(&text, version);
    if let Some(groups) = r.face_groups() {
        back.set_face_groups(&groups);
    }
    assert_eq!(format!("{back:?}"), format!("{r:?}"), "{text}");
    assert_eq!(mdx(&back, version), mdx(r, version), "{text}");
    text
}

const CLASSIC: &str = "Geoset {
	Vertices 3 {
		{ 0, 0, 0 },
		{ 1, 0, 0 },
		{ 0, 1.5e-5, -0 },
	}
	Normals 3 {
		{ 0, 0, 1 },
		{ 0, 0, 1 },
		{ 0, 0, 1 },
	}
	TVertices 3 {
		{ 0, 0 },
		{ 1, 0 },
		{ 0, 1 },
	}
	TVertices 3 {
		{ 0.5, 0.5 },
		{ 1, 0.5 },
		{ 0.5, 1 },
	}
	VertexGroup {
		0,
		0,
		1,
	}
	Faces 2 6 {
		Triangles {
			{ 0, 1, 2 },
		}
		Triangles {
			{ 2, 1, 0 },
		}
	}
	Groups 2 3 {
		Matrices { 0 },
		Matrices { 1, 2 },
	}
	MinimumExtent { 0, 0, 0 },
	MaximumExtent { 1, 1.5, 0 },
	BoundsRadius 0.75,
	Anim {
		MaximumExtent { 1, 1, 1 },
	}
	Anim {
	}
	MaterialID 2,
	SelectionGroup 3,
	Unselectable,
}";

#[test]
fn classic_geoset_reads_and_round_trips() {
    let g = read_ok::<Geoset>(CLASSIC, 800);
    assert_eq!(g.vertices.len(), 3);
    assert_eq!(g.vertices[2][1], 1.5e-5);
    assert!(g.vertices[2][2].is_sign_negative());
    assert_eq!(g.uv_sets.len(), 2);
    assert_eq!(g.uv_sets[1][2], [0.5, 1.0]);
    assert_eq!(g.vertex_groups, vec![0, 0, 1]);
    assert_eq!(g.face_types, vec![face_type::TRIANGLES; 2]);
    assert_eq!(g.face_group_sizes, vec![3, 3]);
    assert_eq!(g.faces, vec![0, 1, 2, 2, 1, 0]);
    assert_eq!(
        (g.matrix_group_sizes.clone(), g.matrix_indices.clone()),
        (vec![1, 2], vec![0, 1, 2])
    );
    assert_eq!(
        g.extent,
        Extent {
            radius: 0.75,
            min: [0.0; 3],
            max: [1.0, 1.5, 0.0]
        }
    );
    assert_eq!(
        g.sequence_extents,
        vec![
            Extent {
                max: [1.0; 3],
                ..Extent::default()
            },
            Extent::default()
        ]
    );
    assert_eq!(
        (g.material_id, g.selection_group, g.selection_flags),
        (2, 3, 4)
    );
    // The two triangle groups are written as one block; the groups go to the
    // extension block.
    assert_eq!(g.face_groups(), Some(vec![(4, 3), (4, 3)]));
    let text = round_trip(&g, 800);
    assert!(
        text.contains("\tFaces 1 6 {\n\t\tTriangles {\n\t\t\t{ 0, 1, 2, 2, 1, 0 },\n\t\t}\n\t}\n"),
        "{text}"
    );
    assert!(
        text.contains("\tGroups 2 3 {\n\t\tMatrices { 0 },\n"),
        "{text}"
    );
    assert!(
        !text.contains("LevelOfDetail"),
        "no Reforged fields in 800: {text}"
    );
}

#[test]
fn dialects_case_no_commas_and_braces_per_triangle() {
    // Lower case, values split by spaces, one `{ }` per triangle (chainlink.mdl style):
    // the whole type block is one face group.
    let src = "geoset {\n vertices 1 { { 1 2 3 } }\n faces 2 6 { triangles { {0, 1, 2}, {3, 4, 5}, } }\n \
                   groups 1 1 { matrices { 7 } }\n materialid 1\n}";
    let g = read_ok::<Geoset>(src, 800);
    assert_eq!(g.vertices, vec![[1.0, 2.0, 3.0]]);
    assert_eq!(
        (g.face_types.clone(), g.face_group_sizes.clone()),
        (vec![4], vec![6])
    );
    assert_eq!(g.matrix_indices, vec![7]);
    assert_eq!(g.material_id, 1);
}

#[test]
fn other_face_types_keep_their_order() {
    let src = "Geoset { Faces 2 5 { Lines { { 0, 1 } } TriangleFan { { 0, 1, 2 } } } }";
    let g = read_ok::<Geoset>(src, 800);
    assert_eq!(
        g.face_types,
        vec![face_type::LINES, face_type::TRIANGLE_FAN]
    );
    assert_eq!(g.face_group_sizes, vec![2, 3]);
    round_trip(&g, 800);
}

#[test]
fn reforged_geoset_fields() {
    // The spellings of the corpus v1100 MDL (riflemanSAWING.mdl).
    let src = "Geoset {
	Vertices 2 {
		{ 0, 0, 0 },
		{ 1, 1, 1 },
	}
	VertexGroup {
	}
	Tangents 2 {
		{ 0.0, 0.0, 1.0, 1.0 },
		{ 0.0, 1.0, 0.0, -1.0 },
	}
	SkinWeights 2 {
		31, 32, 0, 0, 171, 84, 0, 0,
		1, 0, 0, 0, 255, 0, 0, 0,
	}
	Faces 1 0 {
		Triangles {
			{ },
		}
	}
	Groups 0 0 {
	}
	MaterialID 0,
	SelectionGroup 0,
	LevelOfDetail -1,
	Name \"human_rifleman_rig_ingame:main_geo\",
}";
    let g = read_ok::<Geoset>(src, 1100);
    assert_eq!(
        g.tangents.as_ref().map(|t| t[1]),
        Some([0.0, 1.0, 0.0, -1.0])
    );
    assert_eq!(g.skin.as_ref().map(|s| s.len()), Some(16));
    assert_eq!(g.skin.as_ref().unwrap()[..8], [31, 32, 0, 0, 171, 84, 0, 0]);
    assert_eq!(g.lod, u32::MAX);
    assert_eq!(g.lod_name.text(), "human_rifleman_rig_ingame:main_geo");
    assert_eq!(
        (g.face_types.clone(), g.face_group_sizes.clone()),
        (vec![4], vec![0])
    );
    let text = round_trip(&g, 1100);
    assert!(
        text.contains("\tSkinWeights 2 {\n\t\t31, 32, 0, 0, 171, 84, 0, 0,\n"),
        "{text}"
    );
    assert!(text.contains("\tLevelOfDetail -1,\n"), "{text}");
    // war3-model writes skin weights as `{ ... }` rows: same values.
    let w3m = "Geoset { SkinWeights 1 { { 1, 2, 3, 4, 5, 6, 7, 8 }, } }";
    assert_eq!(
        read_ok::<Geoset>(w3m, 1000).skin,
        Some(vec![1, 2, 3, 4, 5, 6, 7, 8])
    );
}

#[test]
fn unknown_geoset_keyword_is_an_error() {
    let (_, diags) = read::<Geoset>("Geoset { Vertexes 0 { } }", 800);
    assert!(
        matches!(&diags[0].kind, MdlErrorKind::UnknownKeyword { keyword, .. } if keyword == "Vertexes")
    );
}

#[test]
fn geoset_anim_static_colors_are_flipped_and_any_color_sets_the_bit() {
    // zengfanfan__war3mdlx__test__geoanim: MDL `{ 0.1, 0.2, 0.3 }` is MDX [0.3, 0.2, 0.1].
    let src = "GeosetAnim {\n DropShadow,\n static Alpha 0.1,\n static Color { 0.1, 0.2, 0.3 },\n GeosetId 0,\n}";
    let g = read_ok::<GeosetAnimation>(src, 800);
    assert_eq!(
        (g.alpha, g.flags, g.color, g.geoset_id),
        (0.1, 3, [0.3, 0.2, 0.1], 0)
    );
    round_trip(&g, 800);

    // Alliance_Exp.mdl (MdlxConv): color keys are printed as stored.
    let src = "GeosetAnim {\n GeosetId 1,\n Alpha 1 {\n DontInterp,\n 5000: 0,\n }\n \
                   Color 1 {\n Bezier,\n GlobalSeqId 0,\n 867: { 0.000000, 0.349020, 0.988235 },\n \
                   InTan { 0.023810, 0.364519, 0.988515 },\n OutTan { -0.025641, 0.332328, 0.987934 },\n }\n}";
    let g = read_ok::<GeosetAnimation>(src, 800);
    assert_eq!(
        (g.alpha, g.flags, g.color, g.geoset_id),
        (1.0, 2, [1.0; 3], 1)
    );
    let color = g
        .tracks
        .vector3(crate::spec::track::KGAC)
        .expect("color track");
    assert_eq!(
        (color.keys[0].value, color.keys[0].in_tan[0]),
        ([0.0, 0.34902, 0.988235], 0.02381)
    );
    let text = round_trip(&g, 800);
    assert!(text.contains("867: { 0, 0.34902, 0.988235 },"), "{text}");
    assert!(!text.contains("static Color"), "{text}");
    assert!(
        text.find("Alpha 1 {") < text.find("Color 1 {"),
        "stored track order: {text}"
    );
    // A missing GeosetId reads as 0 (the zengfanfan converter fixtures).
    assert_eq!(
        read_ok::<GeosetAnimation>("GeosetAnim {\n}", 800).geoset_id,
        0
    );
}

#[test]
fn geoset_anim_white_color_with_the_bit_is_written() {
    let g = GeosetAnimation {
        alpha: 1.0,
        flags: 2,
        color: [1.0; 3],
        geoset_id: 4,
        ..Default::default()
    };
    let text = round_trip(&g, 800);
    assert!(text.contains("static Color { 1, 1, 1 },"), "{text}");
    let plain = GeosetAnimation { flags: 0, ..g };
    let text = round_trip(&plain, 800);
    assert!(!text.contains("Color") && !text.contains("Alpha"), "{text}");
}
