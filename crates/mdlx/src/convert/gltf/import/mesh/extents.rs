//! Extents (model, geosets, sequences) and the skinning error, measured by posing the
//! built model.

use super::*;

pub(super) fn union(a: &Extent, b: &Extent, a_empty: bool) -> Extent {
    if a_empty {
        return *b;
    }
    Extent::around([a.min, a.max, b.min, b.max])
}

/// The most moments a sequence is posed at for its extents and the skinning error.
pub(super) const MAX_SAMPLES: usize = 64;

/// Sets every extent (model and geosets at rest; each sequence and each geoset per
/// sequence over the posed vertices at every key time, up to [`MAX_SAMPLES`] moments a
/// sequence, evenly chosen when there are more) and returns the largest distance between
/// a vertex as the model skins it and as the glTF's weights would, over those moments.
/// `exact` holds, per geoset, the vertices whose skinning differs, with node object ids.
pub(in crate::convert::gltf::import) fn extents_and_error(
    model: &mut Model,
    exact: &[Exact],
) -> f32 {
    for g in &mut model.geosets {
        g.extent = Extent::around(g.vertices.iter().copied());
    }
    let all = Extent::around(
        model
            .geosets
            .iter()
            .flat_map(|g| g.vertices.iter().copied()),
    );
    model.info.extent = all;
    let nseq = model.sequences.len();
    let mut seq_ext: Vec<Extent> = vec![Extent::default(); nseq];
    let mut geo_ext: Vec<Vec<Option<Extent>>> = vec![vec![None; nseq]; model.geosets.len()];
    let mut error = 0.0f32;
    {
        let skeleton = Skeleton::new(model);
        // Key times of every node track.
        let mut times: Vec<i64> = Vec::new();
        for sn in &skeleton.nodes {
            for a in sn.node.tracks.iter() {
                match &a.track {
                    crate::model::AnyTrack::Vector3(t) => {
                        times.extend(t.keys.iter().map(|k| i64::from(k.time)))
                    }
                    crate::model::AnyTrack::Quaternion(t) => {
                        times.extend(t.keys.iter().map(|k| i64::from(k.time)))
                    }
                    _ => {}
                }
            }
        }
        times.sort_unstable();
        times.dedup();
        for (si, seq) in model.sequences.iter().enumerate() {
            let [s, e] = seq.interval.map(i64::from);
            let mut moments: Vec<i64> = times
                .iter()
                .copied()
                .filter(|&t| t >= s && t <= e)
                .collect();
            for f in [0, 1, 2, 3, 4] {
                moments.push(s + (e - s) * f / 4);
            }
            moments.sort_unstable();
            moments.dedup();
            if moments.len() > MAX_SAMPLES {
                let n = moments.len();
                moments = (0..MAX_SAMPLES)
                    .map(|k| moments[k * (n - 1) / (MAX_SAMPLES - 1)])
                    .collect();
            }
            let mut first = true;
            for &t in &moments {
                let clock = Clock::unwrapped(model, si, (t - s) as f64);
                let pose = skeleton.pose_at(&clock, None);
                let posed = posed_geosets(model, &skeleton, &pose, &clock);
                for (gi, pg) in posed.iter().enumerate() {
                    let ext = Extent::around(pg.positions.iter().copied().filter(|p| finite(p)));
                    let slot = &mut geo_ext[gi][si];
                    *slot = Some(match slot {
                        Some(x) => union(x, &ext, false),
                        None => ext,
                    });
                    seq_ext[si] = union(&seq_ext[si], &ext, first);
                    first = false;
                    for (v, pairs) in &exact[gi] {
                        let u = model.geosets[gi].vertices[*v as usize];
                        let mut want = [0.0f32; 3];
                        for &(id, w) in pairs {
                            let m = skeleton
                                .by_object_id(id as u32)
                                .map_or(crate::anim::math::IDENTITY, |i| pose.nodes[i].world);
                            let p = transform_point(&m, u);
                            for k in 0..3 {
                                want[k] += w * p[k];
                            }
                        }
                        let got = pg.positions[*v as usize];
                        let d = (0..3)
                            .map(|k| (want[k] - got[k]).powi(2))
                            .sum::<f32>()
                            .sqrt();
                        if d.is_finite() {
                            error = error.max(d);
                        }
                    }
                }
            }
        }
    }
    for (si, seq) in model.sequences.iter_mut().enumerate() {
        seq.extent = seq_ext[si];
    }
    for (gi, g) in model.geosets.iter_mut().enumerate() {
        g.sequence_extents = geo_ext[gi].iter().map(|e| e.unwrap_or(g.extent)).collect();
    }
    error
}
