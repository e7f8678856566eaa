//! Unit tests of the Milkshape codec: floats, text, tolerance, comment blocks, detection.

use super::*;
use crate::Format;

fn one_vertex(position: [f32; 3]) -> Document {
    Document {
        meshes: vec![Mesh {
            name: "m".into(),
            vertices: vec![Vertex {
                position,
                ..Vertex::default()
            }],
            ..Mesh::default()
        }],
        ..Document::default()
    }
}

fn round_trip(doc: &Document) -> (Vec<u8>, Document) {
    let text = to_bytes(doc).unwrap();
    let back = from_bytes(&text).unwrap_or_else(|e| panic!("{}", e.render("written.txt")));
    (text, back)
}

#[test]
fn floats_are_plain_decimals_that_read_back_bit_identical() {
    let values = [
        1e-30,
        3.4e38,
        f32::MAX,
        -f32::MAX,
        f32::MIN_POSITIVE,
        f32::from_bits(1), // the smallest subnormal, about 1.4e-45
        -0.0,
        0.1,
        1.0 / 3.0,
        16_777_217.0,
        -10.375,
    ];
    for v in values {
        let (text, back) = round_trip(&one_vertex([v, 0.0, 1.0]));
        let line = text.split(|&b| b == b'\n').nth(6).unwrap();
        let shown = String::from_utf8_lossy(line);
        assert!(!shown.contains(['e', 'E']), "{v:e} written as {shown}");
        let got = back.meshes[0].vertices[0].position[0];
        assert_eq!(
            got.to_bits(),
            v.to_bits(),
            "{v:e} came back as {got:e} from {shown}"
        );
    }
    let (text, _) = round_trip(&one_vertex([-0.0, 1.0, 0.5]));
    assert!(text.windows(18).any(|w| w == b"0 -0.0 1.0 0.5 0.0"));
}

#[test]
fn exponent_floats_are_read() {
    let src = b"Meshes: 1\n\"m\" 0 0\n1\n0 1e-3 -2.5E+2 3 .5 1. -1\n0\n0\n";
    let doc = from_bytes(src).unwrap();
    let v = doc.meshes[0].vertices[0];
    assert_eq!(v.position, [1e-3, -250.0, 3.0]);
    assert_eq!(v.uv, [0.5, 1.0]);
}

#[test]
fn non_finite_floats_cannot_be_written() {
    let e = to_bytes(&one_vertex([0.0, f32::NAN, 0.0])).unwrap_err();
    assert_eq!(e.path, "meshes[0].vertices[0].position[1]");
    assert_eq!(
        e.to_string(),
        "cannot write meshes[0].vertices[0].position[1] as Milkshape text: NaN is not a finite \
         number"
    );
    let mut doc = Document::default();
    doc.bones.push(Bone::default());
    doc.bones[0].rotation_keys = vec![Key::default(), Key::default()];
    doc.bones[0].rotation_keys[1].value[2] = f32::NEG_INFINITY;
    let e = to_bytes(&doc).unwrap_err();
    assert_eq!(e.path, "bones[0].rotation_keys[1].value[2]");
    assert_eq!(e.kind, Ms3dWriteErrorKind::NotFinite(f32::NEG_INFINITY));
}

#[test]
fn names_with_quotes_or_line_breaks_cannot_be_written() {
    let mut doc = Document::default();
    doc.materials.push(Material {
        color_map: "a\"b.tga".into(),
        ..Material::default()
    });
    let e = to_bytes(&doc).unwrap_err();
    assert_eq!(
        (e.path.as_str(), &e.kind),
        ("materials[0].color_map", &Ms3dWriteErrorKind::Quote)
    );
    doc.materials[0].color_map = "two\r\nlines".into();
    let e = to_bytes(&doc).unwrap_err();
    assert_eq!(e.kind, Ms3dWriteErrorKind::LineBreak);
    doc.materials[0].color_map = Text::default();
    doc.comments = Some(Comments {
        model: Some("a\nb".into()),
        ..Comments::default()
    });
    assert_eq!(to_bytes(&doc).unwrap_err().path, "comments.model");
}

#[test]
fn any_bytes_in_a_name_survive() {
    let mut doc = one_vertex([0.0; 3]);
    doc.meshes[0].name = Text(b"H\xfcfte \t// \\ \x00 \xff".to_vec());
    let (text, back) = round_trip(&doc);
    assert_eq!(back, doc);
    assert!(text.windows(5).any(|w| w == b"\"H\xfcft"));
}

/// BOM, CRLF and LF mixed, tabs, `//` lines between fields, blocks out of order, names
/// with spaces, comment blocks with texts that look like other lines.
const TOLERANT: &[u8] = b"\xEF\xBB\xBF// MilkShape 3D ASCII\r\n\
Bones: 1\r\n\t\"the root\"\t\r\n// parent\r\n\"\"\r\n  5 0.0 1.5 0.0 0.0 0.0 0.0  \r\n0\n\n0\n\
Frames:\t30\n\
ModelComment: 1\n// this whole line is the model comment\n\
Meshes: 1\n\"Box 01\"  0\t-1\n// vertices\n1\n0 1 2 3 0.5 1 -1\n1\n0 0 1\n1\n0 0 0 0 0 0 0 1\n\
GroupComments: 2\n0\nfirst line\\nsecond line\n// an index\n7\n\n\
Frame: 1\n\
Materials: 0\n";

#[test]
fn the_reader_is_tolerant_and_keeps_comments() {
    let doc = from_bytes(TOLERANT).unwrap_or_else(|e| panic!("{}", e.render("tolerant.txt")));
    assert_eq!((doc.frames, doc.frame), (Some(30), Some(1)));
    assert_eq!(doc.bones[0].name.as_bytes(), b"the root");
    assert_eq!(
        (doc.bones[0].flags, doc.bones[0].position),
        (5, [0.0, 1.5, 0.0])
    );
    assert_eq!(doc.meshes[0].name.as_bytes(), b"Box 01");
    assert_eq!(doc.meshes[0].material, -1);
    assert_eq!(doc.meshes[0].vertices[0].position, [1.0, 2.0, 3.0]);
    let comments = doc.comments.as_ref().unwrap();
    assert_eq!(
        comments.model.as_ref().unwrap().as_bytes(),
        b"// this whole line is the model comment"
    );
    let texts: Vec<_> = comments
        .meshes
        .iter()
        .map(|c| (c.index, c.text.as_bytes()))
        .collect();
    assert_eq!(texts, [(0, &b"first line\\nsecond line"[..]), (7, b"")]);
    let (_, back) = round_trip(&doc);
    assert_eq!(back, doc);
}

#[test]
fn the_writer_uses_milkshapes_layout() {
    let mut doc = one_vertex([1.0, -2.5, 0.0]);
    doc.frames = Some(30);
    doc.frame = Some(1);
    doc.meshes[0].normals.push([0.0, 0.0, 1.0]);
    doc.meshes[0].triangles.push(Triangle {
        smoothing_group: 1,
        ..Triangle::default()
    });
    doc.comments = Some(Comments::default());
    let text = String::from_utf8(to_bytes(&doc).unwrap()).unwrap();
    let want = "// MilkShape 3D ASCII\r\n\r\nFrames: 30\r\nFrame: 1\r\n\r\nMeshes: 1\r\n\
                \"m\" 0 0\r\n1\r\n0 1.0 -2.5 0.0 0.0 0.0 0\r\n1\r\n0.0 0.0 1.0\r\n1\r\n\
                0 0 0 0 0 0 0 1\r\n\r\nMaterials: 0\r\n\r\nBones: 0\r\nGroupComments: 0\r\n\
                MaterialComments: 0\r\nBoneComments: 0\r\nModelComment: 0\r\n";
    assert_eq!(text, want);
}

#[test]
fn detect_tells_milkshape_from_mdl() {
    assert_eq!(
        Format::detect(b"// MilkShape 3D ASCII\r\n\r\nFrames: 30\r\n"),
        Format::Ms3d
    );
    assert_eq!(Format::detect(b"\xEF\xBB\xBF  Meshes: 0\n"), Format::Ms3d);
    assert_eq!(
        Format::detect(b"// Exported\nVersion {\n\tFormatVersion 800,\n}\n"),
        Format::Mdl
    );
    assert_eq!(Format::detect(b"Framesets: 3\n"), Format::Mdl);
    assert_eq!(Format::detect(b""), Format::Mdl);
    assert_eq!(Format::detect(b"MDLXVERS"), Format::Mdx);
}

#[test]
fn hostile_input_is_an_error_not_a_panic() {
    let inputs: [&[u8]; 8] = [
        b"Meshes: 1\n\"",
        b"Meshes: 1\n\"m\" 0 0\n-0\n+0\n0\n",
        b"Meshes: 1\n\"m\" -2147483648 2147483647\n0\n0\n0\n",
        b"Meshes: 1\n\"m\" 0 2147483648\n0\n0\n0\n",
        b"ModelComment: 1",
        b"Frames: -",
        b":\n",
        b"\xEF\xBB\xBF",
    ];
    let results: Vec<bool> = inputs.iter().map(|i| from_bytes(i).is_ok()).collect();
    assert_eq!(
        results,
        [false, true, true, false, false, false, false, false]
    );
}
