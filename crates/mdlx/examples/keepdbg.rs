fn main() {
    let p = std::env::args().nth(1).unwrap();
    let data = std::fs::read(&p).unwrap();
    let m = if p.ends_with(".mdl") {
        mdlx::mdl::from_bytes(&data).unwrap()
    } else {
        mdlx::mdx::from_bytes(&data).unwrap()
    };
    let glb = mdlx::gltf::export(&m, &Default::default()).to_glb();
    let src = mdlx::gltf::Source::from_bytes(&glb, None).unwrap();
    let back = mdlx::gltf::import(&src, &Default::default()).unwrap();
    for n in &back.notes {
        println!("{n}");
    }
    for (gi, (a, b)) in m.geosets.iter().zip(&back.model.geosets).enumerate() {
        if a != b {
            println!(
                "geoset {gi} differs: verts {} {}, normals {:?}..",
                a.vertices.len(),
                b.vertices.len(),
                a.normals.first()
            );
        }
    }
}
