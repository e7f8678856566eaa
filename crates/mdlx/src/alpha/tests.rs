//! Unit tests of the alpha codec's edges: packing limits, kept tails and padding, refused
//! layouts. Whole files (the boar, hand-built 1400/1500 files) are in `tests/alpha.rs`.

use super::*;
use crate::mdx::MdxErrorKind;

/// A model the shape detector takes as alpha: VERS first, then `chunks`, then MODL (every
/// model needs one; last, so the offsets of `chunks` stay simple) and an empty HTST chunk.
fn model(version: u32, mut chunks: Vec<Chunk>) -> AlphaModel {
    chunks.insert(0, Chunk::Version { tail: Vec::new() });
    chunks.push(Chunk::Model(ModelInfo::default()));
    chunks.push(Chunk::HitTestShapes(Records::default()));
    AlphaModel {
        version,
        chunks,
        trailing: Vec::new(),
    }
}

fn round_trip(m: &AlphaModel) -> AlphaModel {
    let bytes = to_bytes(m).unwrap();
    let back = from_bytes(&bytes).unwrap();
    assert_eq!(to_bytes(&back).unwrap(), bytes);
    back
}

#[test]
fn packing_clamps_and_survives_nan() {
    // x = 1.0 is one step past the 22-bit field: it clamps to (2^21 - 1) / 2^21.
    let q = PackedQuaternion::pack([1.0, 0.0, 0.0, 0.0]);
    assert_eq!(q.0 >> 42, (1 << 21) - 1);
    assert_eq!(q.unpack()[0], 1.0 - 1.0 / 2_097_152.0);
    assert_eq!(PackedQuaternion::pack([f32::NAN; 4]), PackedQuaternion(0));
    assert_eq!(PackedQuaternion(0).unpack(), [0.0, 0.0, 0.0, 1.0]);
    // The most negative fields.
    let q = PackedQuaternion(1 << 63 | 1 << 41 | 1 << 20).unpack();
    assert_eq!(&q[..3], &[-1.0, -1.0, -1.0]);
    assert_eq!(q[3], 0.0, "w is 0 when x² + y² + z² exceeds 1");
}

#[test]
fn chunk_tails_second_vers_and_trailing_bytes_are_kept() {
    let seq = Sequence {
        name: "Stand".into(),
        interval: [0, 1000],
        ..Sequence::default()
    };
    let mut m = model(
        1300,
        vec![
            Chunk::Sequences(Records {
                items: vec![seq],
                tail: vec![9, 9, 9],
            }),
            Chunk::Unknown(UnknownChunk {
                tag: crate::spec::chunk::VERS,
                data: 1400u32.to_le_bytes().to_vec(),
            }),
        ],
    );
    m.trailing = vec![1, 2];
    let back = round_trip(&m);
    assert_eq!(back, m);
    assert_eq!(back.version, 1300, "the first VERS decides");
}

#[test]
fn short_hit_shapes_are_kept_unparsed() {
    let shape = HitTestShape {
        object: GenObject::default(),
        // A box needs 24 bytes; only 3 follow the type.
        shape: HitShape::Unparsed(0),
        tail: vec![1, 2, 3],
    };
    let m = model(1300, vec![Chunk::HitTestShapes(vec![shape].into())]);
    assert_eq!(round_trip(&m), m);
}

fn batched(indices: Vec<u16>, padding: Vec<u16>) -> BatchedGeoset {
    BatchedGeoset {
        vertices: vec![Vertex::default(); 3],
        primitive_types: vec![3],
        max_vertex: 2,
        indices,
        padding,
        ..BatchedGeoset::default()
    }
}

#[test]
fn batch_padding_is_kept_or_rebuilt() {
    let kept = batched(vec![0, 1, 2], vec![0, 7, 0, 0, 0]);
    let m = model(1500, vec![Chunk::BatchedGeosets(vec![kept].into())]);
    assert_eq!(round_trip(&m), m);
    // A padding that no longer fits the indices is written as zeros of the right length.
    let stale = batched(vec![0, 1, 2, 0, 2, 1, 0, 1], vec![5]);
    let m = model(1500, vec![Chunk::BatchedGeosets(vec![stale].into())]);
    let back = round_trip(&m);
    assert!(back.batched_geosets().next().unwrap().padding.is_empty());
}

#[test]
fn batch_index_count_must_match_its_header() {
    let m = model(
        1500,
        vec![Chunk::BatchedGeosets(
            vec![batched(vec![0, 1, 2], vec![0; 5])].into(),
        )],
    );
    let mut bytes = to_bytes(&m).unwrap();
    // The batch's own index count: after MDLX, VERS (12), the GEOS header (8), the
    // geoset count, one 64-byte header, 3 vertices, one type and the unknown u32.
    let at = 4 + 12 + 8 + 4 + 64 + 3 * 48 + 4 + 4;
    assert_eq!(bytes[at..at + 4], 3u32.to_le_bytes());
    bytes[at] = 4;
    let e = from_bytes(&bytes).unwrap_err();
    assert!(
        matches!(e.kind, MdxErrorKind::UnknownLayout { value: 4, .. }),
        "{e}"
    );
    assert_eq!(e.offset as usize, at);
    assert_eq!(e.path, ["GEOS", "Batch[0]"]);
}

#[test]
fn uv_sets_must_cover_every_vertex() {
    let g = Geoset {
        vertices: vec![[0.0; 3]; 2],
        uv_sets: vec![vec![[0.0; 2]]],
        ..Geoset::default()
    };
    let e = to_bytes(&model(1300, vec![Chunk::Geosets(vec![g].into())])).unwrap_err();
    assert!(matches!(e.kind, MdxErrorKind::Unwritable(_)), "{e}");
}

#[test]
fn non_alpha_files_are_refused_at_offset_zero() {
    let mut wc3 = b"MDLXVERS".to_vec();
    wc3.extend_from_slice(&4u32.to_le_bytes());
    wc3.extend_from_slice(&800u32.to_le_bytes());
    let e = from_bytes(&wc3).unwrap_err();
    assert!(
        matches!(e.kind, MdxErrorKind::UnknownLayout { value: 800, .. }),
        "{e}"
    );
    assert_eq!(e.offset, 0);
    assert_eq!(
        from_bytes(b"XDLM").unwrap_err().kind,
        MdxErrorKind::BadMagic
    );
    assert!(!is_alpha(&wc3));
}

#[test]
fn tracks_stop_at_unknown_tags_and_keep_the_rest() {
    let layer = Layer {
        tracks: AlphaTracks(vec![AlphaAnimation {
            tag: crate::spec::track::KMTF,
            track: AlphaTrack::Integer(SimpleTrack {
                global_sequence_id: -1,
                keys: vec![IntKey { time: 0, value: 2 }],
            }),
        }]),
        // Looks like a tag, but not one the page lists.
        tail: b"KXYZ\x01\x00\x00\x00".to_vec(),
        ..Layer::default()
    };
    let mat = Material {
        layers: vec![layer],
        ..Material::default()
    };
    let m = model(
        1300,
        vec![Chunk::Materials {
            unused: 0,
            materials: vec![mat].into(),
        }],
    );
    assert_eq!(round_trip(&m), m);
}
