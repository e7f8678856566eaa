//! Tests of `mdl::extension` (kept apart so that the module reads as code).

use crate::model::{Model, Tag, UnknownChunk};

/// A model that needs the extension block: an unknown chunk.
fn model() -> Model {
    let mut m = crate::mdx::from_bytes(include_bytes!("../../../../examples/cube.mdx")).unwrap();
    m.unknown_chunks.push(UnknownChunk {
        tag: Tag(*b"ZZZZ"),
        data: vec![1, 2, 3],
    });
    m.layout.chunks.push(crate::model::LayoutEntry::Unknown);
    m
}

#[test]
fn the_block_is_written_in_marked_comments_and_read_back() {
    let m = model();
    let text = crate::mdl::to_bytes(&m);
    let s = String::from_utf8(text.clone()).unwrap();
    assert!(!s.lines().any(|l| l.starts_with("MdlxExtension")), "{s}");
    assert!(s.contains("\n//@mdlx MdlxExtension {\n"), "{s}");
    assert!(
        s.contains("\n//@mdlx \tUnknown \"5a5a5a5a\" \"010203\",\n"),
        "{s}"
    );
    let back = crate::mdl::from_bytes(&text).unwrap();
    assert_eq!(
        crate::mdx::to_bytes(&back).unwrap(),
        crate::mdx::to_bytes(&m).unwrap()
    );
}

#[test]
fn a_visible_block_as_earlier_versions_wrote_it_still_reads() {
    let m = model();
    let text = String::from_utf8(crate::mdl::to_bytes(&m)).unwrap();
    let visible = text.replace("//@mdlx ", "");
    let back = crate::mdl::from_bytes(visible.as_bytes()).unwrap();
    assert_eq!(
        crate::mdx::to_bytes(&back).unwrap(),
        crate::mdx::to_bytes(&m).unwrap()
    );
}

/// The cube with its 36 indices in three triangle groups.
fn three_groups() -> Model {
    let mut m = crate::mdx::from_bytes(include_bytes!("../../../../examples/cube.mdx")).unwrap();
    let g = &mut m.geosets[0];
    g.face_types = vec![4; 3];
    g.face_group_sizes = vec![6, 12, 18];
    m
}

fn mdx(m: &Model) -> Vec<u8> {
    crate::mdx::to_bytes(m).unwrap()
}

#[test]
fn triangle_groups_are_one_block_and_a_face_groups_entry() {
    let m = three_groups();
    let text = String::from_utf8(crate::mdl::to_bytes(&m)).unwrap();
    assert_eq!(text.matches("Triangles {").count(), 1, "{text}");
    assert!(
        text.contains("\tFaces 1 36 {\n\t\tTriangles {\n\t\t\t{ "),
        "{text}"
    );
    assert!(
        text.contains("\n//@mdlx \tFaceGroups 0 { 4, 6, 4, 12, 4, 18 },\n"),
        "{text}"
    );
    assert!(!text.contains("Record"), "{text}");
    let back = crate::mdl::from_bytes(text.as_bytes()).unwrap();
    assert_eq!(back.geosets[0].face_group_sizes, vec![6, 12, 18]);
    assert_eq!(mdx(&back), mdx(&m));
    // The conventional grouping needs no entry.
    let plain = crate::mdx::from_bytes(include_bytes!("../../../../examples/cube.mdx"));
    let text = crate::mdl::to_bytes(&plain.unwrap());
    assert!(!String::from_utf8(text).unwrap().contains("//@mdlx"));
}

#[test]
fn the_skeleton_check_passes_with_the_groups_put_back() {
    // A multi-group geoset must not need the full check of every vertex.
    use crate::mdl::records::MdlRecord;
    let g = &three_groups().geosets[0];
    let sk = g.skeleton().unwrap();
    assert_eq!(sk.face_groups(), Some(vec![(4, 3), (4, 3), (4, 3)]));
    let mut out = crate::mdl::out::Out::default();
    sk.write_mdl(&mut out, 800);
    let groups = sk.face_groups();
    assert!(crate::mdl::check(&sk, &out.buf, 800, groups.as_deref()).is_none());
    assert!(crate::mdl::check(&sk, &out.buf, 800, None).is_some());
}

#[test]
fn strict_lists_the_lost_grouping() {
    let m = three_groups();
    let opts = crate::mdl::WriteOptions { strict: true };
    let w = crate::mdl::to_bytes_with_options(&m, &opts);
    let text = String::from_utf8(w.text).unwrap();
    assert!(!text.contains("//@mdlx"), "{text}");
    assert_eq!(text.matches("Triangles {").count(), 1, "{text}");
    assert_eq!(
        w.losses,
        vec![crate::Loss::new(
            "Geoset[0]",
            "3 face groups (standard MDL holds one Triangles group)"
        )]
    );
}

#[test]
fn several_type_blocks_still_read_as_their_groups() {
    // What earlier versions wrote: one `Triangles` block per group.
    let m = three_groups();
    let text = String::from_utf8(crate::mdl::to_bytes(&m)).unwrap();
    let f = &m.geosets[0].faces;
    let block = |r: std::ops::Range<usize>| {
        let ints: Vec<String> = f[r].iter().map(|v| v.to_string()).collect();
        format!(
            "\t\tTriangles {{\n\t\t\t{{ {} }},\n\t\t}}\n",
            ints.join(", ")
        )
    };
    let all: Vec<String> = f.iter().map(|v| v.to_string()).collect();
    let one = format!("\tFaces 1 36 {{\n{}\t}}\n", block(0..36));
    assert!(text.contains(&one), "{text}");
    let three = format!(
        "\tFaces 3 36 {{\n{}{}{}\t}}\n",
        block(0..6),
        block(6..18),
        block(18..36)
    );
    let old: String = text
        .replace(&one, &three)
        .lines()
        .filter(|l| !l.starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(!old.contains(&all.join(", ")), "{old}");
    let back = crate::mdl::from_bytes(old.as_bytes()).unwrap();
    assert_eq!(mdx(&back), mdx(&m));
    // A visible extension block with the entry reads too.
    let visible = text.replace("//@mdlx ", "");
    let back = crate::mdl::from_bytes(visible.as_bytes()).unwrap();
    assert_eq!(mdx(&back), mdx(&m));
}

#[test]
fn a_bad_face_groups_entry_is_an_error_at_its_position() {
    let text = String::from_utf8(crate::mdl::to_bytes(&three_groups())).unwrap();
    let entry = "FaceGroups 0 { 4, 6, 4, 12, 4, 18 }";
    for (bad, says) in [
        ("FaceGroups 0 { 4, 6, 4, 12, 4, 17 }", "add up to 35"),
        (
            "FaceGroups 1 { 4, 6, 4, 12, 4, 18 }",
            "geoset 1 does not exist",
        ),
        ("FaceGroups 0 { 4, 6, 4, 12, 4 }", "5 values"),
        ("FaceGroups 0 { 4, 6, 4, 12, 4, x }", "an integer"),
        ("FaceGroups { 4, 36 }", "FaceGroups index"),
    ] {
        let kind = hidden_error(&text.replace(entry, bad), "FaceGroups");
        assert!(kind.contains(says), "{bad}: {kind}");
    }
}

#[test]
fn a_geoset_without_faces_writes_what_both_peers_read() {
    // mdx-m3-viewer and war3-model both read `Faces 0 0 { Triangles { } }` (neither
    // reads the `Faces 1 0 { Triangles { { }, } }` each writes).
    let mut m = three_groups();
    let g = &mut m.geosets[0];
    g.faces.clear();
    for (types, sizes, entry) in [
        (vec![4], vec![0], None),
        (vec![], vec![], Some("FaceGroups 0 {  },")),
        (vec![4, 4], vec![0, 0], Some("FaceGroups 0 { 4, 0, 4, 0 },")),
    ] {
        let g = &mut m.geosets[0];
        (g.face_types, g.face_group_sizes) = (types, sizes);
        let text = String::from_utf8(crate::mdl::to_bytes(&m)).unwrap();
        assert!(
            text.contains("\tFaces 0 0 {\n\t\tTriangles {\n\t\t}\n\t}\n"),
            "{text}"
        );
        match entry {
            Some(e) => assert!(text.contains(&format!("//@mdlx \t{e}\n")), "{text}"),
            None => assert!(!text.contains("//@mdlx"), "{text}"),
        }
        assert!(!text.contains("Record"), "{text}");
        let back = crate::mdl::from_bytes(text.as_bytes()).unwrap();
        assert_eq!(mdx(&back), mdx(&m));
    }
}

#[test]
fn a_bad_hidden_entry_is_reported_at_its_line_and_column() {
    let text = String::from_utf8(crate::mdl::to_bytes(&model())).unwrap();
    let bad = text.replace(
        "Unknown \"5a5a5a5a\" \"010203\"",
        "Unknown \"5a5a5a5a\" \"0x\"",
    );
    hidden_error(&bad, "Unknown");
}

/// Reads `text`, which must fail on a hidden entry starting with `keyword`: checks that
/// the error points into that `//@mdlx` line past the mark, and returns its message.
fn hidden_error(text: &str, keyword: &str) -> String {
    let e = crate::mdl::from_bytes(text.as_bytes()).unwrap_err();
    let d = &e.diagnostics[0];
    let (line, col) = d.line_col(text.as_bytes());
    let l = text.lines().nth(line - 1).unwrap();
    assert!(l.starts_with(&format!("//@mdlx \t{keyword}")), "{l}");
    assert!(col > "//@mdlx".len(), "{l}: {col}");
    d.kind.to_string()
}
