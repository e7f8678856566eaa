//! Vertex normals recomputed from the faces, smoothed within an angle.
//!
//! Each vertex first takes the sum of the normals of the triangles that use it, each
//! weighted by its area and by its angle at the vertex (so a long thin triangle does not
//! outweigh its neighbours). Vertices at one position (a seam: the modeller split the
//! vertex for its texture coordinates or its bones) then share their sums when those
//! point within `angle` degrees of each other: the surface is smooth across the seam
//! there, and keeps its edge where the faces meet at a sharper angle. At 0 degrees no
//! vertex takes another's: every vertex keeps the normal of its own faces only. The
//! vertices, faces and everything else stay as they are: a hard edge inside one vertex
//! (a cube drawn with eight vertices) stays soft, as only splitting the vertex could
//! change.

use super::Report;
use crate::anim::math::{cross, dot, normalize, sub, Vec3};
use crate::model::Model;
use std::collections::HashMap;

/// The angle of the triangle `a b c` at `a`, in radians.
pub(super) fn corner(a: Vec3, b: Vec3, c: Vec3) -> f32 {
    let (u, v) = (normalize(sub(b, a)), normalize(sub(c, a)));
    dot(u, v).clamp(-1.0, 1.0).acos()
}

/// The cosine of `angle` degrees (a hair under, so faces at exactly the angle count as
/// within it), or refuses an angle outside 0 to 180 for `what`.
pub(super) fn cos_limit(angle: f32, what: &str, report: &mut Report) -> Option<f32> {
    if !(0.0..=180.0).contains(&angle) {
        report.refused.push(format!(
            "{what}: the angle is 0 to 180 degrees, not {angle}"
        ));
        return None;
    }
    Some(angle.to_radians().cos() - 1e-6)
}

/// Tangent `t` turned to lie at right angles to normal `n`, its handedness kept; as it was
/// where that has no direction.
pub(super) fn orthogonal(t: [f32; 4], n: Vec3) -> [f32; 4] {
    let v = [t[0], t[1], t[2]];
    let u = normalize(sub(v, n.map(|x| x * dot(n, v))));
    if u.iter().all(|x| x.is_finite()) && dot(u, u) > 0.5 {
        [u[0], u[1], u[2], t[3]]
    } else {
        t
    }
}

/// One geoset's new normals.
fn geoset_normals(g: &crate::model::Geoset, cos_limit: f32) -> Vec<Vec3> {
    let n = g.vertices.len();
    let mut sums = vec![[0.0f32; 3]; n];
    let (triangles, _) = g.triangles();
    for t in &triangles {
        let [a, b, c] = t.map(usize::from);
        if a >= n || b >= n || c >= n {
            continue;
        }
        let (pa, pb, pc) = (g.vertices[a], g.vertices[b], g.vertices[c]);
        // The cross product's length is twice the area.
        let face = cross(sub(pb, pa), sub(pc, pa));
        if !face.iter().all(|x| x.is_finite()) {
            continue;
        }
        for (v, w) in [
            (a, corner(pa, pb, pc)),
            (b, corner(pb, pc, pa)),
            (c, corner(pc, pa, pb)),
        ] {
            if w.is_finite() {
                for k in 0..3 {
                    sums[v][k] += face[k] * w;
                }
            }
        }
    }
    // Vertices at one position, by their exact coordinates.
    let mut at: HashMap<[u32; 3], Vec<usize>> = HashMap::new();
    for (i, p) in g.vertices.iter().enumerate() {
        at.entry(p.map(f32::to_bits)).or_default().push(i);
    }
    let own: Vec<Vec3> = sums.iter().map(|s| normalize(*s)).collect();
    (0..n)
        .map(|i| {
            let mut total = sums[i];
            for &j in &at[&g.vertices[i].map(f32::to_bits)] {
                if j != i && dot(own[i], own[j]) >= cos_limit {
                    for k in 0..3 {
                        total[k] += sums[j][k];
                    }
                }
            }
            let len = dot(total, total).sqrt();
            if len > 0.0 && len.is_finite() {
                total.map(|x| x / len)
            } else {
                // No face uses it, or its faces have no area: what it had, when that is a
                // direction, else up.
                let had = g.normals.get(i).copied().unwrap_or_default();
                if dot(had, had) > 0.25 && had.iter().all(|x| x.is_finite()) {
                    normalize(had)
                } else {
                    [0.0, 0.0, 1.0]
                }
            }
        })
        .collect()
}

/// Recomputes every geoset's normals, smoothing across seams within `angle` degrees (see
/// the module docs).
pub fn recompute_normals(model: &mut Model, angle: f32) -> Report {
    let mut report = Report::default();
    let Some(cos_limit) = cos_limit(angle, "normals", &mut report) else {
        return report;
    };
    let mut changed = 0;
    for g in &mut model.geosets {
        let new = geoset_normals(g, cos_limit);
        if new != g.normals {
            changed += 1;
            g.normals = new;
            // Tangents (Reforged) stay at right angles to their normals, handedness kept.
            for (t, n) in g.tangents.iter_mut().flatten().zip(&g.normals) {
                *t = orthogonal(*t, *n);
            }
        }
    }
    if changed > 0 {
        report.changed.push(format!(
            "normals of {changed} geoset(s) recomputed, smooth across seams within {angle} degrees"
        ));
    }
    report
}

#[cfg(test)]
mod tests {
    use super::recompute_normals;

    fn cube() -> crate::model::Model {
        crate::mdx::from_bytes(include_bytes!("../../../../examples/cube.mdx")).unwrap()
    }

    #[test]
    fn a_cube_keeps_its_edges_below_90_degrees_and_rounds_its_corners_above() {
        let stored = cube();
        // Its 24 vertices are split at every edge; its stored normals face the sides.
        for angle in [0.0, 45.0, 89.0] {
            let mut m = stored.clone();
            recompute_normals(&mut m, angle);
            for (a, b) in m.geosets[0].normals.iter().zip(&stored.geosets[0].normals) {
                assert!(
                    (0..3).all(|k| (a[k] - b[k]).abs() < 1e-6),
                    "{angle}: {a:?} {b:?}"
                );
            }
        }
        let mut m = stored.clone();
        recompute_normals(&mut m, 91.0);
        let third = 1.0 / 3f32.sqrt();
        for n in &m.geosets[0].normals {
            assert!(n.iter().all(|x| (x.abs() - third).abs() < 1e-6), "{n:?}");
        }
        assert!(!recompute_normals(&mut m, 200.0).refused.is_empty());
    }
}
