//! debug
fn main() {
    let p = std::env::args().nth(1).unwrap();
    let m = mdlx::mdx::from_bytes(&std::fs::read(&p).unwrap()).unwrap();
    let o = mdlx::gltf::ExportOptions {
        source: false,
        ..Default::default()
    };
    let glb = mdlx::gltf::export(&m, &o).to_glb();
    let src = mdlx::gltf::Source::from_bytes(&glb, None).unwrap();
    let opts = mdlx::gltf::ImportOptions {
        version: 1000,
        game_ready: false,
        ..Default::default()
    };
    let f = mdlx::gltf::import(&src, &opts).unwrap().model;
    let j = f
        .sequences
        .iter()
        .position(|s| s.name.to_string() == "Jump")
        .unwrap();
    println!("F Jump {:?}", f.sequences[j].interval);
    let b = f
        .bones
        .iter()
        .find(|b| b.node.name.to_string() == "feet2l")
        .unwrap();
    let r = b.node.tracks.quaternion(mdlx::format::track::KGRT).unwrap();
    for k in r.keys.iter().filter(|k| (3500..3800).contains(&k.time)) {
        println!("{} {:?}", k.time, k.value);
    }
    let b = m
        .bones
        .iter()
        .find(|b| b.node.name.to_string() == "feet2l")
        .unwrap();
    let r = b.node.tracks.quaternion(mdlx::format::track::KGRT).unwrap();
    println!("S interp {:?}", r.interpolation);
}
