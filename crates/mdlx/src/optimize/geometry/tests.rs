//! Tests of the geometry pass on small models built here; every expected value is worked
//! out by hand from the model each test builds.

use super::run;
use crate::model::{
    face_type, filter_mode, Bone, Extent, Geoset, GeosetAnimation, Layer, Material, Model, Texture,
};
use crate::optimize::{Ctx, Tolerance, VertexMap};

fn ctx() -> Ctx {
    Ctx {
        tol: Tolerance::default(),
        size: 1.0,
        scale: 1.0,
    }
}

/// A triangle-list geoset on material `material`: a vertex at each position (normal +z,
/// UV the position's x and y), every vertex in matrix group 0, which lists node 0.
fn geoset(material: u32, positions: &[[f32; 3]], faces: &[u16]) -> Geoset {
    let n = positions.len();
    Geoset {
        vertices: positions.to_vec(),
        normals: vec![[0.0, 0.0, 1.0]; n],
        face_types: vec![face_type::TRIANGLES],
        face_group_sizes: vec![faces.len() as u32],
        faces: faces.to_vec(),
        vertex_groups: vec![0; n],
        matrix_group_sizes: vec![1],
        matrix_indices: vec![0],
        material_id: material,
        extent: Extent::around(positions.iter().copied()),
        uv_sets: vec![positions.iter().map(|p| [p[0], p[1]]).collect()],
        ..Geoset::default()
    }
}

fn material(filter: u32) -> Material {
    Material {
        layers: vec![Layer {
            filter_mode: filter,
            texture_animation_id: -1,
            alpha: 1.0,
            ..Layer::default()
        }],
        ..Material::default()
    }
}

/// Two bones (object ids 0 and 1), one texture, an opaque material 0 and an alpha-blended
/// material 1, and `geosets`.
fn model(geosets: Vec<Geoset>) -> Model {
    let bone = |id: u32| {
        let mut b = Bone::default();
        b.node.object_id = id;
        b.node.parent_id = -1;
        b
    };
    Model {
        version: 800,
        textures: vec![Texture::default()],
        materials: vec![material(filter_mode::NONE), material(filter_mode::BLEND)],
        geosets,
        bones: vec![bone(0), bone(1)],
        pivot_points: vec![[0.0; 3]; 2],
        ..Model::default()
    }
}

fn pass(m: &mut Model) -> (Vec<(&'static str, usize)>, VertexMap) {
    let mut map = VertexMap::identity(m);
    let changes = run(m, &ctx(), &mut map);
    (changes, map)
}

const P0: [f32; 3] = [0.0, 0.0, 0.0];
const P1: [f32; 3] = [1.0, 0.0, 0.0];
const P2: [f32; 3] = [0.0, 1.0, 0.0];
const P3: [f32; 3] = [1.0, 1.0, 0.0];

/// A quad stored as two triangles of three vertices each: the two corners they share are
/// stored twice with every attribute equal, and weld; the map keeps the first of each.
#[test]
fn equal_vertices_weld_and_the_map_follows() {
    let mut m = model(vec![geoset(
        0,
        &[P0, P1, P2, P2, P1, P3],
        &[0, 1, 2, 3, 4, 5],
    )]);
    let (changes, map) = pass(&mut m);
    assert_eq!(changes, vec![("vertices welded", 2)]);
    let g = &m.geosets[0];
    assert_eq!(g.vertices, vec![P0, P1, P2, P3]);
    assert_eq!(g.faces, vec![0, 1, 2, 2, 1, 3]);
    assert_eq!(
        g.uv_sets[0],
        vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    );
    assert_eq!(g.vertex_groups, vec![0; 4]);
    assert_eq!(map.0, vec![vec![(0, 0), (0, 1), (0, 2), (0, 5)]]);
}

/// Vertices at one position that differ in one attribute (a UV here, a normal's sign bit
/// there) are different vertices: nothing changes.
#[test]
fn vertices_that_differ_in_any_attribute_stay() {
    let mut g = geoset(0, &[P0, P1, P2, P2, P1, P3], &[0, 1, 2, 3, 4, 5]);
    g.uv_sets[0][3] = [0.5, 1.0];
    g.normals[4] = [-0.0, 0.0, 1.0];
    let mut m = model(vec![g]);
    let before = m.clone();
    let (changes, map) = pass(&mut m);
    assert_eq!(changes, vec![]);
    assert_eq!(m, before);
    assert_eq!(map, VertexMap::identity(&before));
}

/// Of five triangles: a rotation of the first is a repeat and goes, its reverse stays (the
/// back face), one with a repeated corner goes.
#[test]
fn degenerate_and_repeated_triangles_go_reversed_ones_stay() {
    let faces = [0, 1, 2, 1, 2, 0, 2, 1, 0, 0, 0, 3, 0, 2, 3];
    let mut m = model(vec![geoset(0, &[P0, P1, P2, P3], &faces)]);
    let (changes, map) = pass(&mut m);
    assert_eq!(
        changes,
        vec![
            ("degenerate triangles removed", 1),
            ("duplicate triangles removed", 1)
        ]
    );
    assert_eq!(m.geosets[0].faces, vec![0, 1, 2, 2, 1, 0, 0, 2, 3]);
    assert_eq!(m.geosets[0].face_group_sizes, vec![9]);
    assert_eq!(map, VertexMap::identity(&m));
}

/// A vertex no triangle uses goes (the map skips it), unless it is the last vertex that
/// moves with a bone: then it stays, so the bone keeps a vertex.
#[test]
fn unused_vertices_go_unless_a_bone_would_lose_its_last() {
    let mut a = geoset(0, &[P0, P1, P2, P3, [5.0; 3]], &[0, 1, 2]);
    // Vertex 3 is on bone 0 like the rest; vertex 4 alone on bone 1.
    a.matrix_group_sizes = vec![1, 1];
    a.matrix_indices = vec![0, 1];
    a.vertex_groups = vec![0, 0, 0, 0, 1];
    let mut m = model(vec![a]);
    let (changes, map) = pass(&mut m);
    assert_eq!(changes, vec![("unused vertices removed", 1)]);
    let g = &m.geosets[0];
    assert_eq!(g.vertices, vec![P0, P1, P2, [5.0; 3]]);
    assert_eq!(g.vertex_groups, vec![0, 0, 0, 1]);
    assert_eq!(g.faces, vec![0, 1, 2]);
    assert_eq!(map.0, vec![vec![(0, 0), (0, 1), (0, 2), (0, 4)]]);
}

/// Matrix groups [node 0], [node 1], [node 0]: the second is used by no vertex and goes,
/// the third equals the first and is shared; the vertex groups follow.
#[test]
fn unused_matrix_groups_go_and_equal_ones_are_shared() {
    let mut a = geoset(0, &[P0, P1, P2, P3], &[0, 1, 2, 2, 1, 3]);
    a.matrix_group_sizes = vec![1, 1, 1];
    a.matrix_indices = vec![0, 1, 0];
    a.vertex_groups = vec![0, 2, 0, 2];
    let mut m = model(vec![a]);
    let (changes, _) = pass(&mut m);
    assert_eq!(
        changes,
        vec![
            ("unused matrix groups removed", 1),
            ("duplicate matrix groups shared", 1)
        ]
    );
    let g = &m.geosets[0];
    assert_eq!(g.matrix_group_sizes, vec![1]);
    assert_eq!(g.matrix_indices, vec![0]);
    assert_eq!(g.vertex_groups, vec![0; 4]);
}

/// A geoset drawn as a triangle strip is not touched, repeated vertices and all.
#[test]
fn other_primitive_types_are_left_alone() {
    let mut a = geoset(0, &[P0, P1, P2, P2, P1, P3], &[0, 1, 2, 3, 4, 5]);
    a.face_types = vec![face_type::TRIANGLE_STRIP];
    let mut m = model(vec![a]);
    let before = m.clone();
    assert_eq!(pass(&mut m).0, vec![]);
    assert_eq!(m, before);
}

/// Four geosets on the opaque material; the second and fourth are animated. The first
/// and third join (vertices, faces offset by 3, extents united, map concatenated); the
/// fourth becomes the third and its geoset animation follows; a bone naming the third
/// geoset names the joined one.
#[test]
fn opaque_geosets_join_and_geoset_indices_follow() {
    let a = geoset(0, &[P0, P1, P2], &[0, 1, 2]);
    let b = geoset(0, &[P0, P2, P1], &[0, 1, 2]);
    let c = geoset(
        0,
        &[[2.0, 0.0, 0.0], [3.0, 0.0, 0.0], [2.0, 1.0, 0.0]],
        &[0, 1, 2],
    );
    let d = geoset(0, &[P1, P3, P2], &[0, 1, 2]);
    let mut m = model(vec![a.clone(), b.clone(), c, d.clone()]);
    let anim = |g: i32| GeosetAnimation {
        geoset_id: g,
        alpha: 1.0,
        color: [1.0; 3],
        ..GeosetAnimation::default()
    };
    m.geoset_animations = vec![anim(1), anim(3)];
    m.bones[1].geoset_id = 2;
    let (changes, map) = pass(&mut m);
    assert_eq!(changes, vec![("geosets merged", 1)]);
    assert_eq!(m.geosets.len(), 3);
    let g = &m.geosets[0];
    assert_eq!(
        g.vertices,
        vec![
            P0,
            P1,
            P2,
            [2.0, 0.0, 0.0],
            [3.0, 0.0, 0.0],
            [2.0, 1.0, 0.0]
        ]
    );
    assert_eq!(g.faces, vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(g.face_group_sizes, vec![6]);
    assert_eq!(g.extent.min, [0.0, 0.0, 0.0]);
    assert_eq!(g.extent.max, [3.0, 1.0, 0.0]);
    // Half the diagonal of a 3 by 1 box.
    assert_eq!(g.extent.radius, (1.5f32 * 1.5 + 0.5 * 0.5).sqrt());
    assert_eq!(m.geosets[1], b);
    assert_eq!(m.geosets[2], d);
    let ids: Vec<i32> = m.geoset_animations.iter().map(|a| a.geoset_id).collect();
    assert_eq!(ids, vec![1, 2]);
    assert_eq!(m.bones[1].geoset_id, 0);
    assert_eq!(
        map.0,
        vec![
            vec![(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)],
            vec![(1, 0), (1, 1), (1, 2)],
            vec![(3, 0), (3, 1), (3, 2)],
        ]
    );
}

/// On the blended material, geosets join only next to each other: the first and third
/// (a geoset on another material between them) stay apart, the third and fourth join.
#[test]
fn blended_geosets_join_only_when_adjacent() {
    let far = |x: f32| [[x, 0.0, 0.0], [x + 1.0, 0.0, 0.0], [x, 1.0, 0.0]];
    let a = geoset(1, &far(0.0), &[0, 1, 2]);
    let b = geoset(0, &far(2.0), &[0, 1, 2]);
    let c = geoset(1, &far(4.0), &[0, 1, 2]);
    let d = geoset(1, &far(6.0), &[0, 1, 2]);
    let mut m = model(vec![a.clone(), b.clone(), c, d]);
    let (changes, map) = pass(&mut m);
    assert_eq!(changes, vec![("geosets merged", 1)]);
    assert_eq!(m.geosets[..2], [a, b]);
    assert_eq!(m.geosets[2].vertices[3..], far(6.0));
    assert_eq!(
        map.0[2],
        vec![(2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (3, 2)]
    );
}

/// Joined geosets share equal matrix groups: the second geoset's groups [node 1], [node 0]
/// become groups 1 (new) and 0 (the first's).
#[test]
fn joined_geosets_share_their_matrix_groups() {
    let a = geoset(0, &[P0, P1, P2], &[0, 1, 2]);
    let mut c = geoset(
        0,
        &[[2.0, 0.0, 0.0], [3.0, 0.0, 0.0], [2.0, 1.0, 0.0]],
        &[0, 1, 2],
    );
    c.matrix_group_sizes = vec![1, 1];
    c.matrix_indices = vec![1, 0];
    c.vertex_groups = vec![0, 1, 0];
    let mut m = model(vec![a, c]);
    let (changes, _) = pass(&mut m);
    assert_eq!(changes, vec![("geosets merged", 1)]);
    let g = &m.geosets[0];
    assert_eq!(g.matrix_group_sizes, vec![1, 1]);
    assert_eq!(g.matrix_indices, vec![0, 1]);
    assert_eq!(g.vertex_groups, vec![0, 0, 0, 1, 0, 1]);
}

/// Running the pass on its own result changes nothing.
#[test]
fn a_second_run_changes_nothing() {
    let a = geoset(
        0,
        &[P0, P1, P2, P2, P1, P3, P3],
        &[0, 1, 2, 3, 4, 5, 5, 4, 3, 0, 0, 1],
    );
    let b = geoset(0, &[P0, P1, P2], &[0, 1, 2, 2, 1, 0]);
    let mut m = model(vec![a, b]);
    assert!(!pass(&mut m).0.is_empty());
    let once = m.clone();
    let (changes, map) = pass(&mut m);
    assert_eq!(changes, vec![]);
    assert_eq!(m, once);
    assert_eq!(map, VertexMap::identity(&once));
}
