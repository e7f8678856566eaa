//! What standard MDL cannot hold is still kept: built by hand from the bundled cube, each
//! case writes MDL, reads it back and must give the same MDX bytes; in strict mode the
//! same case must be listed as a loss instead.

#[path = "../examples/make_cube.rs"]
mod make_cube;

use mdlx::model::*;

fn roundtrip(m: &Model, what: &str) {
    let want = mdlx::mdx::to_bytes(m).unwrap();
    let text = mdlx::mdl::to_bytes(m);
    let back = mdlx::mdl::from_bytes(&text)
        .unwrap_or_else(|e| panic!("{what}: {}", e.render(&text, "x.mdl")));
    assert_eq!(mdlx::mdx::to_bytes(&back).unwrap(), want, "{what}");
    let strict = mdlx::mdl::to_bytes_with_options(m, &mdlx::mdl::WriteOptions { strict: true });
    assert!(
        !strict.losses.is_empty(),
        "{what}: strict mode must report a loss"
    );
    println!("{what}: kept; strict reports {:?}", strict.losses[0]);
}

const ODD_NAN: u32 = 0x7fc0_0001;

#[test]
fn nan_payload_deep_in_a_vertex_list() {
    let mut m = make_cube::cube();
    m.geosets[0].vertices[17][1] = f32::from_bits(ODD_NAN);
    roundtrip(&m, "vertex 17");
}

#[test]
fn nan_payload_deep_in_a_track() {
    let mut m = make_cube::cube();
    if let AnyTrack::Quaternion(t) = &mut m.bones[0].node.tracks.0[0].track {
        t.keys[4].value[2] = f32::from_bits(ODD_NAN);
    }
    roundtrip(&m, "key 4");
}

#[test]
fn padding_after_a_name_unknown_chunk_and_record_tail() {
    let mut m = make_cube::cube();
    m.bones[0].node.name = FixedString::from_field(b"Root\0junk");
    roundtrip(&m, "name padding");
    let mut m = make_cube::cube();
    m.unknown_chunks.push(UnknownChunk {
        tag: Tag(*b"ABCD"),
        data: vec![1, 2, 3],
    });
    roundtrip(&m, "unknown chunk");
    let mut m = make_cube::cube();
    m.geosets[0].tail = vec![9, 9, 9, 9];
    roundtrip(&m, "geoset tail");
}
