//! Criterion benchmark of MDX decode and encode over a few corpus files.
fn main() {}
