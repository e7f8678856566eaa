//! The model that ships in `examples/cube.mdx` is exactly what `examples/make_cube.rs`
//! builds, and it reads back to the same model.

#[path = "../examples/make_cube.rs"]
mod make_cube;

#[test]
fn shipped_cube_matches_its_builder() {
    let shipped = include_bytes!("../../../examples/cube.mdx");
    let built = mdlx::mdx::to_bytes(&make_cube::cube()).unwrap();
    assert_eq!(
        &built[..],
        &shipped[..],
        "run `cargo run -p war3-mdlx --example make_cube` to rebuild"
    );
    let mut read = mdlx::mdx::from_bytes(shipped).unwrap();
    // The layout is what reading adds; the content equals the builder's.
    read.layout = Default::default();
    assert_eq!(read, make_cube::cube());
}

#[test]
fn cube_has_the_expected_shape() {
    let m = make_cube::cube();
    let g = &m.geosets[0];
    assert_eq!((g.vertices.len(), g.faces.len() / 3), (24, 12));
    // Every triangle winds counter-clockwise seen from outside: its normal points away.
    for t in g.faces.chunks(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| g.vertices[i as usize]);
        let (u, v) = (
            [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
            [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
        );
        let n = [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ];
        let stored = g.normals[t[0] as usize];
        assert!(n.iter().zip(stored).map(|(x, y)| x * y).sum::<f32>() > 0.0);
    }
}
