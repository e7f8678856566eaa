//! Builds `examples/cube.mdx`, the small model that ships with the repository: a textured
//! cube on one bone, with a `Stand` sequence and a `Spin` sequence that turns the bone a
//! full circle about +Z. Written here from scratch, field by field.
//!
//! `cargo run -p war3-mdlx --example make_cube -- examples/cube.mdx`

use mdlx::model::*;

/// The cube model.
pub(crate) fn cube() -> Model {
    let mut geoset = Geoset::default();
    // Six faces: (normal, two in-plane axes); four corners each, so normals stay per face.
    let faces: [([f32; 3], [f32; 3], [f32; 3]); 6] = [
        ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]),
        ([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
        ([0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]),
        ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
        ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
    ];
    let mut uvs = Vec::new();
    for (n, u, v) in faces {
        let base = geoset.vertices.len() as u16;
        for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let p =
                |i: usize| 32.0 * (n[i] + su * u[i] + sv * v[i]) + if i == 2 { 32.0 } else { 0.0 };
            geoset.vertices.push([p(0), p(1), p(2)]);
            geoset.normals.push(n);
            uvs.push([(su + 1.0) / 2.0, (1.0 - sv) / 2.0]);
        }
        geoset
            .faces
            .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    geoset.face_types = vec![face_type::TRIANGLES];
    geoset.face_group_sizes = vec![geoset.faces.len() as u32];
    geoset.vertex_groups = vec![0; geoset.vertices.len()];
    geoset.matrix_group_sizes = vec![1];
    geoset.matrix_indices = vec![0];
    geoset.uv_sets = vec![uvs];
    let extent = Extent {
        radius: 55.425_625,
        min: [-32.0, -32.0, 0.0],
        max: [32.0, 32.0, 64.0],
    };
    geoset.extent = extent;
    geoset.sequence_extents = vec![extent, extent];

    let mut model = Model {
        version: 800,
        ..Model::default()
    };
    model.info.name = FixedString::from("Cube");
    model.info.extent = extent;
    model.info.blend_time = 150;
    model.sequences = vec![
        sequence("Stand", [0, 1000], extent),
        sequence("Spin", [2000, 4000], extent),
    ];
    model.textures = vec![Texture {
        path: FixedString::from("Textures\\Cube.blp"),
        flags: 3,
        ..Default::default()
    }];
    model.materials = vec![Material {
        layers: vec![Layer {
            texture_animation_id: -1,
            alpha: 1.0,
            ..Default::default()
        }],
        ..Default::default()
    }];
    model.geosets = vec![geoset];
    model.bones = vec![Bone {
        node: Node {
            name: FixedString::from("Root"),
            parent_id: -1,
            flags: 0x100, // the bone kind bit
            tracks: Tracks(vec![Animation {
                tag: Tag(*b"KGRT"),
                track: AnyTrack::Quaternion(spin()),
            }]),
            ..Default::default()
        },
        geoset_id: 0,
        geoset_animation_id: -1,
    }];
    model.pivot_points = vec![[0.0, 0.0, 0.0]];
    model
}

fn sequence(name: &str, interval: [u32; 2], extent: Extent) -> Sequence {
    Sequence {
        name: FixedString::from(name),
        interval,
        rarity: 0.0,
        extent,
        ..Default::default()
    }
}

/// A full turn about +Z over the `Spin` interval, in four linear quarter steps.
fn spin() -> Track<[f32; 4]> {
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let quats = [
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, h, h],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, h, -h],
        [0.0, 0.0, 0.0, -1.0],
    ];
    let keys = quats
        .iter()
        .enumerate()
        .map(|(i, &q)| Key {
            time: 2000 + 500 * i as i32,
            value: q,
            in_tan: [0.0; 4],
            out_tan: [0.0; 4],
        })
        .collect();
    Track {
        interpolation: Interpolation::Linear,
        global_sequence_id: -1,
        keys,
    }
}

#[allow(dead_code)]
fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "examples/cube.mdx".into());
    let written = mdlx::write(&cube(), mdlx::Format::Mdx, &Default::default());
    std::fs::write(&out, written.expect("the cube encodes").bytes).expect("write the cube");
    println!("wrote {out}");
}
