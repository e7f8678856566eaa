//! Measures of a posed model, made here with `mdlx::anim` (not taken from what a conversion
//! says about itself). Shared with the command-line tests, which include this file by path.

/// How tall the model stands in its first pose (the start of its first sequence): the
/// extent of its posed vertices along Z; 0 without vertices.
pub(crate) fn height(m: &mdlx::model::Model) -> f32 {
    use mdlx::anim::{posed_geosets, Clock, Skeleton};
    let skeleton = Skeleton::new(m);
    let clock = Clock::unwrapped(m, 0, 0.0);
    let pose = skeleton.pose_at(&clock, None);
    let (mut lo, mut hi) = (f32::MAX, f32::MIN);
    for g in posed_geosets(m, &skeleton, &pose, &clock) {
        for p in g.positions {
            lo = lo.min(p[2]);
            hi = hi.max(p[2]);
        }
    }
    // No vertex: no height.
    (hi - lo).max(0.0)
}
