//! `gltf::Source` against real files (every sample under `../shared/gltf-samples`, read in
//! place) and against hand-built hostile ones, each checked for its error's path and text.

mod common;

use gltf_json::accessor::{ComponentType, GenericComponentType};
use gltf_json::validation::Checked;
use mdlx::convert::gltf::{GltfError, Source};
use std::path::Path;

/// Loads a file and reads every accessor (as f32, and as u32 where it is an integer
/// accessor) and every image; returns (accessors, components, images).
fn read_all(path: &Path) -> Result<(usize, usize, usize), GltfError> {
    let src = Source::read_file(path)?;
    let mut components = 0;
    for i in 0..src.root.accessors.len() {
        let (values, n) = src.read_f32(i, "")?;
        assert_eq!(values.len(), src.root.accessors[i].count.0 as usize * n);
        components += values.len();
        let unsigned = matches!(
            src.root.accessors[i].component_type,
            Checked::Valid(GenericComponentType(
                ComponentType::U8 | ComponentType::U16 | ComponentType::U32
            ))
        );
        if unsigned {
            let (ints, _) = src.read_u32(i, "")?;
            assert_eq!(ints.len(), values.len());
        }
    }
    for i in 0..src.root.images.len() {
        let (bytes, mime) = src.image(i)?;
        assert!(
            !bytes.is_empty(),
            "{}: images[{i}] is empty",
            path.display()
        );
        assert!(
            mime.is_some(),
            "{}: images[{i}] has no MIME type",
            path.display()
        );
    }
    Ok((src.root.accessors.len(), components, src.root.images.len()))
}

#[test]
fn every_sample_loads_and_every_accessor_reads() {
    let dir = common::gltf_samples_dir();
    let files = if dir.is_dir() {
        common::gltf_files(&dir)
    } else {
        Vec::new()
    };
    if files.is_empty() {
        eprintln!("no samples at {}: skipped", dir.display());
        return;
    }
    let (mut accessors, mut components, mut images) = (0, 0, 0);
    let mut failures = Vec::new();
    for f in &files {
        match read_all(f) {
            Ok((a, c, i)) => {
                accessors += a;
                components += c;
                images += i;
            }
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    eprintln!(
        "{} files, {accessors} accessors ({components} components), {images} images; {} failed",
        files.len(),
        failures.len()
    );
    for f in &failures {
        eprintln!("  {f}");
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// ---------------------------------------------------------------------------------------
// Hand-built inputs

/// A GLB with one buffer (the BIN chunk, `bin`), and the given views and accessors.
fn doc(views: &str, accessors: &str, bin: &[u8]) -> Vec<u8> {
    common::glb(
        format!(
            r#"{{"asset":{{"version":"2.0"}},"buffers":[{{"byteLength":{}}}],
            "bufferViews":[{views}],"accessors":[{accessors}]}}"#,
            bin.len()
        )
        .as_bytes(),
        bin,
    )
}

/// A `.gltf` whose one buffer has `uri` and `len` bytes.
fn with_uri(uri: &str, len: usize) -> Vec<u8> {
    format!(r#"{{"asset":{{"version":"2.0"}},"buffers":[{{"byteLength":{len},"uri":"{uri}"}}]}}"#)
        .into_bytes()
}

fn load_err(data: &[u8]) -> GltfError {
    Source::from_bytes(data, None).expect_err("the file should be refused")
}

const POS: &str = "meshes[0].primitives[0].attributes.POSITION";

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn glb_cut_short() {
    let mut data = doc(
        r#"{"buffer":0,"byteLength":12}"#,
        "",
        &f32_bytes(&[1.0, 2.0, 3.0]),
    );
    let full = data.len();
    data.truncate(full - 8);
    let e = load_err(&data);
    assert_eq!(
        e.to_string(),
        format!(
            "GLB cut short: its header says {full} bytes, the file has {} (at byte 8)",
            full - 8
        )
    );
    let e = load_err(b"glTF\x02\0\0");
    assert_eq!(e.message, "GLB header cut short: 7 bytes of 12");
    let mut v1 = common::glb(br#"{"asset":{"version":"2.0"}}"#, &[]);
    v1[4] = 1;
    assert_eq!(
        load_err(&v1).to_string(),
        "GLB version 1 is not supported (only 2) (at byte 4)"
    );
}

#[test]
fn glb_chunk_past_the_end() {
    let mut data = doc(
        r#"{"buffer":0,"byteLength":12}"#,
        "",
        &f32_bytes(&[1.0, 2.0, 3.0]),
    );
    let json_len = u32::from_le_bytes([data[12], data[13], data[14], data[15]]) as usize;
    // The BIN chunk claims 100 bytes where 12 remain.
    let bin_at = 20 + json_len;
    data[bin_at..bin_at + 4].copy_from_slice(&100u32.to_le_bytes());
    let e = load_err(&data);
    assert_eq!(e.path, "");
    assert_eq!(e.offset, Some(bin_at as u64));
    assert_eq!(
        e.message,
        format!(
            "GLB chunk \"BIN\\0\" of 100 bytes runs past the end of the file ({} bytes, 12 after \
             the chunk header)",
            data.len()
        )
    );
    // The JSON chunk's length past the end.
    data[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = load_err(&data);
    assert_eq!(e.offset, Some(12));
    assert!(e
        .message
        .starts_with("GLB chunk \"JSON\" of 4294967295 bytes runs past the end"));
}

#[test]
fn json_syntax_error_has_line_and_column() {
    let e = load_err(b"{\n  \"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [,]\n}");
    assert_eq!(e.path, "");
    assert_eq!(e.message, "invalid JSON at 3:13: expected value");
    // A type error too, from inside a GLB.
    let e = load_err(&common::glb(
        b"{\"asset\":{\"version\":\"2.0\"},\n\"accessors\":[{\"count\":\"3\"}]}",
        &[],
    ));
    assert_eq!(
        e.message,
        "invalid JSON at 2:25: invalid type: string \"3\", expected u64"
    );
}

#[test]
fn version_other_than_2_is_refused_clearly() {
    // A glTF 1.0 document (meshes as an object) is told by its version, not by serde.
    let e = load_err(br#"{"asset":{"version":"1.0"},"meshes":{"m":{}}}"#);
    assert_eq!(
        e.to_string(),
        "asset.version: glTF version \"1.0\" is not supported (only 2.0)"
    );
    let e = load_err(br#"{"asset":{"version":"3.0"}}"#);
    assert_eq!(e.path, "asset.version");
    assert!(Source::from_bytes(br#"{"asset":{"version":"2.1"}}"#, None).is_ok());
    // A byte order mark is skipped.
    assert!(Source::from_bytes(b"\xEF\xBB\xBF{\"asset\":{\"version\":\"2.0\"}}", None).is_ok());
}

#[test]
fn validation_errors_name_their_path() {
    let e = load_err(
        br#"{"asset":{"version":"2.0"},"accessors":[{"count":1,"componentType":5126,"type":"SCALAR"}],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]},
                  {"primitives":[{"attributes":{"NORMAL":0,"POSITION":7}}]}]}"#,
    );
    assert_eq!(
        e.to_string(),
        "meshes[1].primitives[0].attributes.POSITION: accessors[7] does not exist (the file has 1)"
    );
    let e = load_err(&doc(r#"{"buffer":3,"byteLength":4}"#, "", &[0; 4]));
    assert_eq!(
        e.to_string(),
        "bufferViews[0].buffer: refers to an object that does not exist"
    );
    let e = load_err(
        br#"{"asset":{"version":"2.0"},"meshes":[{"primitives":[{"attributes":{},"mode":99}]}]}"#,
    );
    assert_eq!(e.to_string(), "meshes[0].primitives[0].mode: invalid value");
    let e = load_err(
        br#"{"asset":{"version":"2.0"},"extensionsRequired":["KHR_draco_mesh_compression"]}"#,
    );
    assert_eq!(e.path, "extensionsRequired[0]");
    // Unknown extensions, required or not, and extras are no error.
    let ok = br#"{"asset":{"version":"2.0","extras":{"a":1}},"extensionsUsed":["EXT_foo"],
        "extensionsRequired":["EXT_foo"],"extensions":{"EXT_foo":{"x":[1]}},
        "nodes":[{"extensions":{"EXT_foo":{}},"extras":[1,2]}],"textures":[{"extensions":{"EXT_foo":{}}}]}"#;
    Source::from_bytes(ok, None).unwrap();
}

#[test]
fn buffer_shorter_than_its_byte_length() {
    let json = r#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":100}]}"#;
    let e = load_err(&common::glb(json.as_bytes(), &[7; 8]));
    assert_eq!(
        e.to_string(),
        "buffers[0]: has 8 bytes, byteLength says 100"
    );
    // Longer is fine: cut to byteLength.
    let json = r#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":5}]}"#;
    let s = Source::from_bytes(&common::glb(json.as_bytes(), &[7; 8]), None).unwrap();
    assert_eq!(s.buffers[0], vec![7; 5]);
    // A byteLength far beyond the data is an error, not an allocation.
    let e = load_err(&with_uri(
        "data:application/octet-stream;base64,AAAA",
        1 << 40,
    ));
    assert_eq!(
        e.to_string(),
        "buffers[0]: has 3 bytes, byteLength says 1099511627776"
    );
    let e = load_err(br#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":4}]}"#);
    assert_eq!(
        e.to_string(),
        "buffers[0]: has no uri and is not the BIN chunk of a GLB"
    );
}

#[test]
fn accessor_past_its_view() {
    let bin = f32_bytes(&[0.0; 6]);
    let s = Source::from_bytes(
        &doc(
            r#"{"buffer":0,"byteOffset":4,"byteLength":20}"#,
            r#"{"bufferView":0,"byteOffset":12,"count":1,"componentType":5126,"type":"VEC3"}"#,
            &bin,
        ),
        None,
    )
    .unwrap();
    let e = s.read_f32(0, POS).unwrap_err();
    assert_eq!(e.path, format!("{POS} (accessors[0] > bufferViews[0])"));
    assert_eq!(
        e.message,
        "1 elements of 12 bytes (stride 12) from byteOffset 12 run past the end of the view (20 bytes)"
    );
    assert_eq!(e.offset, Some(16));
    // Without `at`, the path is the accessor's.
    assert_eq!(
        s.read_f32(0, "").unwrap_err().path,
        "accessors[0] > bufferViews[0]"
    );
    assert_eq!(
        s.read_f32(5, POS).unwrap_err().to_string(),
        format!("{POS}: accessors[5] does not exist (the file has 1)")
    );
}

#[test]
fn view_past_its_buffer() {
    let s = Source::from_bytes(
        &doc(
            r#"{"buffer":0,"byteOffset":4,"byteLength":12}"#,
            r#"{"bufferView":0,"count":1,"componentType":5126,"type":"VEC3"}"#,
            &f32_bytes(&[0.0; 3]),
        ),
        None,
    )
    .unwrap();
    let e = s.read_f32(0, POS).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{POS} (accessors[0] > bufferViews[0]): byteOffset 4 + byteLength 12 runs past the \
             end of buffers[0] (12 bytes) (at byte 4)"
        )
    );
}

#[test]
fn stride_smaller_than_an_element() {
    let s = Source::from_bytes(
        &doc(
            r#"{"buffer":0,"byteLength":24,"byteStride":8}"#,
            r#"{"bufferView":0,"count":2,"componentType":5126,"type":"VEC3"}"#,
            &f32_bytes(&[0.0; 6]),
        ),
        None,
    )
    .unwrap();
    assert_eq!(
        s.read_f32(0, POS).unwrap_err().to_string(),
        format!("{POS} (accessors[0] > bufferViews[0]): byteStride 8 is smaller than an element (12 bytes)")
    );
}

#[test]
fn interleaved_view_reads_with_its_stride() {
    // Two vertices of position (3 floats) + texcoord (2 floats), 20 bytes apart.
    let bin = f32_bytes(&[1.0, 2.0, 3.0, 0.25, 0.5, 4.0, 5.0, 6.0, 0.75, 1.0]);
    let s = Source::from_bytes(
        &doc(
            r#"{"buffer":0,"byteLength":40,"byteStride":20}"#,
            r#"{"bufferView":0,"count":2,"componentType":5126,"type":"VEC3"},
               {"bufferView":0,"byteOffset":12,"count":2,"componentType":5126,"type":"VEC2"}"#,
            &bin,
        ),
        None,
    )
    .unwrap();
    assert_eq!(
        s.read_f32(0, "").unwrap(),
        (vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 3)
    );
    assert_eq!(s.read_f32(1, "").unwrap(), (vec![0.25, 0.5, 0.75, 1.0], 2));
}

/// Sparse: 4 zero SCALAR floats (no view) with values at the indices in `indices` (u16).
fn sparse_doc(count: u64, indices: &[u16]) -> Vec<u8> {
    let mut bin: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
    let values_at = bin.len();
    bin.extend(f32_bytes(&vec![9.0; indices.len()]));
    doc(
        &format!(
            r#"{{"buffer":0,"byteLength":{values_at}}},
               {{"buffer":0,"byteOffset":{values_at},"byteLength":{}}}"#,
            bin.len() - values_at
        ),
        &format!(
            r#"{{"count":{count},"componentType":5126,"type":"SCALAR","sparse":{{"count":{},
                "indices":{{"bufferView":0,"componentType":5123}},"values":{{"bufferView":1}}}}}}"#,
            indices.len()
        ),
        &bin,
    )
}

#[test]
fn sparse_values_apply_and_out_of_range_index_is_refused() {
    let s = Source::from_bytes(&sparse_doc(4, &[1, 3]), None).unwrap();
    assert_eq!(s.read_f32(0, "").unwrap(), (vec![0.0, 9.0, 0.0, 9.0], 1));
    let s = Source::from_bytes(&sparse_doc(4, &[1, 4]), None).unwrap();
    let e = s
        .read_f32(0, "animations[0].samplers[0].output")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "animations[0].samplers[0].output (accessors[0].sparse.indices > bufferViews[0]): sparse \
         index 4 (entry 1) is not below the accessor's count 4 (at byte 2)"
    );
    let s = Source::from_bytes(&sparse_doc(1, &[0, 0]), None).unwrap();
    assert_eq!(
        s.read_f32(0, "").unwrap_err().to_string(),
        "accessors[0].sparse: sparse count 2 is more than the accessor's count 1"
    );
}

#[test]
fn huge_count_is_an_error_not_an_allocation() {
    let s = Source::from_bytes(
        &doc(
            r#"{"buffer":0,"byteLength":12}"#,
            r#"{"bufferView":0,"count":4000000000,"componentType":5126,"type":"VEC3"},
               {"count":4000000000,"componentType":5126,"type":"VEC3"},
               {"bufferView":0,"count":18446744073709551615,"componentType":5126,"type":"MAT4"}"#,
            &f32_bytes(&[0.0; 3]),
        ),
        None,
    )
    .unwrap();
    assert_eq!(
        s.read_f32(0, POS).unwrap_err().message,
        "4000000000 elements of 12 bytes (stride 12) from byteOffset 0 run past the end of the \
         view (12 bytes)"
    );
    assert_eq!(
        s.read_f32(1, "").unwrap_err().to_string(),
        "accessors[1]: count 4000000000 of 12-byte elements without a bufferView is more than \
         the file's buffers hold (12 bytes)"
    );
    assert_eq!(
        s.read_u32(2, "").unwrap_err().to_string(),
        "accessors[2]: count 18446744073709551615 overflows"
    );
    // A sparse accessor with a huge count and no view is capped the same way.
    let s = Source::from_bytes(&sparse_doc(4_000_000_000, &[1]), None).unwrap();
    assert!(s
        .read_f32(0, "")
        .unwrap_err()
        .message
        .contains("without a bufferView"));
}

#[test]
fn external_uris_other_than_relative_paths_are_refused() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let refused = |uri: &str| Source::from_bytes(&with_uri(uri, 4), Some(&base)).unwrap_err();
    assert_eq!(
        refused("http://example.com/a.bin").to_string(),
        "buffers[0].uri: http: URIs are not read (only data: URIs and relative file paths)"
    );
    assert_eq!(
        refused("file://host/share/a.bin").message,
        "file: URIs are not read (only data: URIs and relative file paths)"
    );
    assert_eq!(
        refused("/etc/passwd").to_string(),
        "buffers[0].uri: absolute path \"/etc/passwd\" refused (only paths relative to the file)"
    );
    assert!(refused("%2Fetc%2Fpasswd")
        .message
        .starts_with("absolute path \"/etc/passwd\""));
    assert!(refused("C:/x.bin")
        .message
        .starts_with("C: URIs are not read"));
    let e = refused("no%20such%20file.bin");
    assert_eq!(e.path, "buffers[0].uri");
    let missing = base.join("no such file.bin");
    assert!(
        e.message
            .starts_with(&format!("cannot read {}: ", missing.display())),
        "{e}"
    );
    // Without a folder, external files are not read at all.
    let e = Source::from_bytes(&with_uri("a.bin", 4), None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "buffers[0].uri: external file a.bin not read (no folder to read it from)"
    );
}

#[test]
fn relative_uris_are_percent_decoded_and_may_go_up() {
    let cameras = common::gltf_samples_dir().join("Cameras");
    if !cameras.is_dir() {
        return;
    }
    let len = std::fs::metadata(cameras.join("simpleSquare.bin"))
        .unwrap()
        .len() as usize;
    let s = Source::from_bytes(
        &with_uri("../Cameras/simple%53quare.bin", len),
        Some(&cameras),
    )
    .unwrap();
    assert_eq!(
        s.buffers[0],
        std::fs::read(cameras.join("simpleSquare.bin")).unwrap()
    );
    let e = Source::from_bytes(&with_uri("simpleSquare.bin", len + 1), Some(&cameras)).unwrap_err();
    assert!(
        e.message
            .ends_with(&format!("has {len} bytes, byteLength says {}", len + 1)),
        "{e}"
    );
}

#[test]
fn data_uris() {
    let e = load_err(&with_uri("data:application/octet-stream;base64,AAA*", 3));
    assert_eq!(
        e.to_string(),
        "buffers[0].uri: invalid base64 character '*' at position 3 of the data"
    );
    let e = load_err(&with_uri("data:application/octet-stream;base64,AA=A", 1));
    assert_eq!(
        e.message,
        "base64 data continues after '=' padding at position 3"
    );
    let s = Source::from_bytes(
        &with_uri("data:application/gltf-buffer;base64,AQID/w==", 4),
        None,
    )
    .unwrap();
    assert_eq!(s.buffers[0], [1, 2, 3, 255]);
    // Not base64: percent-encoded bytes.
    let s = Source::from_bytes(&with_uri("data:,a%00b%FF", 4), None).unwrap();
    assert_eq!(s.buffers[0], [b'a', 0, b'b', 255]);
    let e = load_err(&with_uri("data:,a%GG", 2));
    assert_eq!(e.message, "bad percent escape at position 1");
}

#[test]
fn normalized_integers_convert_per_the_spec() {
    let mut bin = vec![0u8, 128, 255, 0]; // u8 x3 (+1 pad)
    for v in [-32768i16, -32767, 0, 32767] {
        bin.extend(v.to_le_bytes());
    }
    bin.extend([0x80u8, 0x81, 0x7F, 0]); // i8 -128, -127, 127 (+1 pad)
    bin.extend(65535u16.to_le_bytes());
    bin.extend([0, 0]);
    let s = Source::from_bytes(
        &doc(
            r#"{"buffer":0,"byteLength":20}"#,
            r#"{"bufferView":0,"count":3,"componentType":5121,"type":"SCALAR","normalized":true},
               {"bufferView":0,"byteOffset":4,"count":4,"componentType":5122,"type":"SCALAR","normalized":true},
               {"bufferView":0,"byteOffset":12,"count":3,"componentType":5120,"type":"SCALAR","normalized":true},
               {"bufferView":0,"byteOffset":16,"count":1,"componentType":5123,"type":"SCALAR"},
               {"bufferView":0,"count":3,"componentType":5121,"type":"SCALAR"},
               {"bufferView":0,"byteOffset":4,"count":4,"componentType":5122,"type":"SCALAR"}"#,
            &bin,
        ),
        None,
    )
    .unwrap();
    assert_eq!(s.read_f32(0, "").unwrap().0, [0.0, 128.0 / 255.0, 1.0]);
    assert_eq!(s.read_f32(1, "").unwrap().0, [-1.0, -1.0, 0.0, 1.0]);
    assert_eq!(s.read_f32(2, "").unwrap().0, [-1.0, -1.0, 1.0]);
    assert_eq!(s.read_f32(3, "").unwrap().0, [65535.0]);
    assert_eq!(s.read_f32(4, "").unwrap().0, [0.0, 128.0, 255.0]);
    assert_eq!(
        s.read_f32(5, "").unwrap().0,
        [-32768.0, -32767.0, 0.0, 32767.0]
    );
    assert_eq!(s.read_u32(4, "").unwrap(), (vec![0, 128, 255], 1));
    assert_eq!(
        s.read_u32(5, "JOINTS_0").unwrap_err().to_string(),
        "JOINTS_0 (accessors[5]): componentType SHORT cannot be read as unsigned integers \
         (expected UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT)"
    );
}

#[test]
fn read_u32_refuses_floats() {
    let s = Source::from_bytes(
        &doc(
            r#"{"buffer":0,"byteLength":4}"#,
            r#"{"bufferView":0,"count":1,"componentType":5126,"type":"SCALAR"}"#,
            &f32_bytes(&[1.0]),
        ),
        None,
    )
    .unwrap();
    let e = s
        .read_u32(0, "meshes[0].primitives[0].indices")
        .unwrap_err();
    assert_eq!(e.path, "meshes[0].primitives[0].indices (accessors[0])");
    assert!(e
        .message
        .starts_with("componentType FLOAT cannot be read as unsigned integers"));
}

#[test]
fn matrix_columns_are_padded_to_four_bytes() {
    // MAT3 of u8: each 3-byte column padded to 4 (12 bytes); MAT2 of u8: 2 -> 4 (8 bytes);
    // MAT3 of i16: 6 -> 8 (24 bytes); MAT2 of u16 needs no padding (8 bytes).
    let mut bin = vec![1u8, 2, 3, 0xEE, 4, 5, 6, 0xEE, 7, 8, 9, 0xEE];
    bin.extend([1u8, 2, 0xEE, 0xEE, 3, 4, 0xEE, 0xEE]);
    for col in [[1i16, 2, 3], [4, 5, 6], [7, 8, 9]] {
        for v in col {
            bin.extend(v.to_le_bytes());
        }
        bin.extend([0xEE, 0xEE]);
    }
    for v in [1u16, 2, 3, 4] {
        bin.extend(v.to_le_bytes());
    }
    let s = Source::from_bytes(
        &doc(
            r#"{"buffer":0,"byteLength":52}"#,
            r#"{"bufferView":0,"count":1,"componentType":5121,"type":"MAT3"},
               {"bufferView":0,"byteOffset":12,"count":1,"componentType":5121,"type":"MAT2"},
               {"bufferView":0,"byteOffset":20,"count":1,"componentType":5122,"type":"MAT3"},
               {"bufferView":0,"byteOffset":44,"count":1,"componentType":5123,"type":"MAT2"},
               {"bufferView":0,"byteOffset":44,"count":2,"componentType":5121,"type":"MAT3"}"#,
            &bin,
        ),
        None,
    )
    .unwrap();
    let nine: Vec<f32> = (1..=9).map(|v| v as f32).collect();
    assert_eq!(s.read_f32(0, "").unwrap(), (nine.clone(), 9));
    assert_eq!(s.read_u32(1, "").unwrap(), (vec![1, 2, 3, 4], 4));
    assert_eq!(s.read_f32(2, "").unwrap(), (nine, 9));
    assert_eq!(s.read_u32(3, "").unwrap(), (vec![1, 2, 3, 4], 4));
    // Two padded MAT3 elements need 24 bytes; 8 remain after byteOffset 44.
    assert!(s
        .read_f32(4, "")
        .unwrap_err()
        .message
        .contains("2 elements of 12 bytes"));
}

#[test]
fn images_from_views_data_uris_and_files() {
    let png = b"\x89PNG\r\n\x1a\n0000";
    let json = r#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":12}],
        "bufferViews":[{"buffer":0,"byteLength":12}],
        "images":[{"bufferView":0},{"bufferView":0,"mimeType":"image/x-mine"},
                  {"uri":"data:image/jpeg;base64,/9j/"},{"uri":"data:;base64,/9j/"},
                  {"uri":"https://example.com/a.png"},{}]}"#;
    let s = Source::from_bytes(&common::glb(json.as_bytes(), png), None).unwrap();
    assert_eq!(
        s.image(0).unwrap(),
        (png.to_vec(), Some("image/png".into()))
    );
    assert_eq!(s.image(1).unwrap().1.as_deref(), Some("image/x-mine"));
    assert_eq!(
        s.image(2).unwrap(),
        (vec![0xFF, 0xD8, 0xFF], Some("image/jpeg".into()))
    );
    assert_eq!(s.image(3).unwrap().1.as_deref(), Some("image/jpeg"));
    assert_eq!(s.image(4).unwrap_err().path, "images[4].uri");
    assert_eq!(
        s.image(5).unwrap_err().to_string(),
        "images[5]: has neither a uri nor a bufferView"
    );
    assert_eq!(
        s.image(6).unwrap_err().to_string(),
        "images[6]: no such image (the file has 6)"
    );
}

#[test]
fn animation_pointer_channels_are_left_out_with_a_note() {
    let json = br#"{"asset":{"version":"2.0"},"nodes":[{}],"scenes":[{}],
        "animations":[{"samplers":[{"input":0,"output":0}],"channels":[
            {"sampler":0,"target":{"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/x"}}}},
            {"sampler":0,"target":{"node":0,"path":"rotation"}}]}],
        "accessors":[{"count":1,"componentType":5126,"type":"SCALAR"}]}"#;
    let s = Source::from_bytes(json, None).unwrap();
    assert_eq!(s.root.animations[0].channels.len(), 1);
    assert_eq!(s.notes.len(), 1);
    assert_eq!(s.notes[0].path, "animations[0].channels[0]");
    assert!(s.root.scenes[0].nodes.is_empty());
}
