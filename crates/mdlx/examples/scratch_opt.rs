fn main() {
    let path = std::env::args().nth(1).unwrap();
    let data = std::fs::read(&path).unwrap();
    let m = mdlx::mdx::from_bytes(&data).unwrap();
    let opts = mdlx::optimize::Options {
        passes: vec![mdlx::optimize::Pass::Keys],
        ..Default::default()
    };
    let o = mdlx::optimize::optimize(&m, &opts).unwrap();
    println!("{:?}", o.report.passes);
}
