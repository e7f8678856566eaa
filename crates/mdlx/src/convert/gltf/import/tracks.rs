//! Each Warcraft node's translation, rotation and scaling tracks, from the channels of
//! its glTF node: mapped into its bind frame and its parent's, laid on the model's timeline
//! (or a global sequence's clock).

use super::*;

/// How a glTF node's local transform maps onto its Warcraft node's tracks: `p` is the bind
/// frame of the Warcraft parent carried down to the glTF parent, `fb` the node's own.
struct TrackMap {
    p: Mat4,
    fp: Frame,
    fb: Frame,
    /// The translations of `p` and of the node's bind frame.
    pp: Vec3,
    pv: Vec3,
    /// The inverse of the node's bind rotation.
    rb_inv: Quat,
    /// The frames' scale ratio.
    ratio: f32,
}

impl TrackMap {
    /// Translation: t' = pp - pv + Q_P t.
    fn t(&self, v: Vec3) -> Vec3 {
        let q = linear(&self.p, v);
        from_y_up([0, 1, 2].map(|i| self.pp[i] - self.pv[i] + q[i]))
    }

    /// A translation's tangent.
    fn dt(&self, v: Vec3) -> Vec3 {
        from_y_up(linear(&self.p, v))
    }

    /// Rotation: R' = R_P R R_B⁻¹.
    fn r(&self, q: Quat) -> Quat {
        quat_z_up(qnormalize(qmul(qmul(self.fp.rot, q), self.rb_inv)))
    }

    /// Scaling: the scale about the bind frame's axes, times the frames' scale ratio (a
    /// scaling's tangents map the same way).
    fn s(&self, s: Vec3) -> Vec3 {
        let d = rotated_scale_diagonal(self.fb.rot, s);
        scale_z_up(d.map(|x| x * self.ratio))
    }
}

/// The values of a glTF channel's keys (each with its in- and out-tangents when cubic).
struct Values<'c> {
    c: &'c GChannel,
    stride: usize,
    comps: usize,
}

impl Values<'_> {
    /// Part `part` of key `k` (the value, or with cubic keys 0 the in-tangent, 1 the
    /// value, 2 the out-tangent).
    fn raw(&self, k: usize, part: usize) -> [f32; 4] {
        let o = (k * self.stride + part) * self.comps;
        let mut v = [0.0; 4];
        v[..self.comps].copy_from_slice(&self.c.values[o..o + self.comps]);
        v
    }

    /// The value at a moment: its key's, or the curve's between keys.
    fn at(&self, p: &(i64, Option<usize>)) -> [f32; 4] {
        match p.1 {
            Some(k) => self.raw(k, self.stride / 2),
            None => channel_at(self.c, p.0 as f32 / 1000.0),
        }
    }
}

impl Importer<'_> {
    /// `P`: the bind frame of node `k`'s Warcraft parent carried down to its glTF
    /// parent (the static nodes between them folded in).
    pub(super) fn parent_frame(&self, k: usize) -> Mat4 {
        let w = &self.wnodes[k];
        let stop = w.parent.map(|q| self.wnodes[q].gnode);
        // The static locals between the Warcraft parent's glTF node and this node's glTF
        // parent (all of them up to the root when there is no Warcraft parent).
        let mut chain = IDENTITY;
        let mut at = self.g.parent[w.gnode];
        let mut steps = 0;
        while let Some(i) = at {
            if Some(i) == stop || steps > self.g.parent.len() {
                break;
            }
            chain = mul(&self.g.local[i], &chain);
            at = self.g.parent[i];
            steps += 1;
        }
        match w.parent {
            Some(q) => mul(&self.wnodes[q].b, &chain),
            None => chain,
        }
    }

    /// The KGTR, KGRT and KGSC tracks of Warcraft node `k`.
    pub(super) fn tracks(&mut self, k: usize, nseq: usize, starts: &[u32]) -> Tracks {
        let gnode = self.wnodes[k].gnode;
        let p = self.parent_frame(k);
        let b = self.wnodes[k].b;
        let fp = frame_of(&p);
        let fb = frame_of(&b);
        let m = TrackMap {
            p,
            fp,
            fb,
            pp: translation_of(&p),
            pv: translation_of(&b),
            rb_inv: qconjugate(fb.rot),
            ratio: fp.scale / fb.scale,
        };
        let place = format!("nodes[{gnode}]");
        let mut out = Vec::new();
        let mut scale_approx = !fp.exact || !fb.exact;
        if !(fp.exact && fb.exact) {
            self.losses.add(
                place.clone(),
                "bind frame with shear, mirror or unequal scales: rotation and scaling approximated",
            );
        }
        for prop in 0u8..3 {
            let node = NodeProp { gnode, prop };
            out.extend(self.track(node, nseq, starts, &m, &place, &mut scale_approx));
        }
        if scale_approx && !(fp.exact && fb.exact) {
            // Already listed above.
        } else if scale_approx {
            self.losses.add(
                place,
                "non-uniform scaling along a rotated bind frame approximated by the game's per-axis scaling",
            );
        }
        Tracks(out)
    }

    /// Property `prop` of glTF node `gnode` as a track; `None` when no animation moves it
    /// and it rests at the identity. Sets `scale_approx` when uneven scales along a
    /// rotated bind frame are approximated.
    fn track(
        &mut self,
        NodeProp { gnode, prop }: NodeProp,
        nseq: usize,
        starts: &[u32],
        m: &TrackMap,
        place: &str,
        scale_approx: &mut bool,
    ) -> Option<WcAnimation> {
        let (t0, r0, s0) = self.g.trs[gnode];
        let eps_t = 1e-6 * self.size;
        let aligned = axis_aligned(m.fb.rot);
        let mut keys_v: Vec<Key<Vec3>> = Vec::new();
        let mut keys_q: Vec<Key<Quat>> = Vec::new();
        let mut any = false;
        let mut per_seq: Vec<Option<(GInterp, usize)>> = Vec::with_capacity(nseq);
        for si in 0..nseq {
            let ch = self.channels.get(si).and_then(|a| a.get(&(gnode, prop)));
            per_seq.push(ch.map(|c| (c.interp, c.times.len())));
            if ch.is_some() {
                any = true;
            }
        }
        // The rest value, mapped.
        let rest_identity = match prop {
            0 => {
                let v = m.t(t0);
                v.iter().all(|x| x.abs() <= eps_t)
            }
            1 => {
                let q = m.r(r0);
                qdist(q, [0.0, 0.0, 0.0, 1.0]) <= 1e-6
            }
            _ => {
                let s = m.s(s0);
                s.iter().all(|x| (x - 1.0).abs() <= 1e-6)
            }
        };
        if !any && rest_identity {
            return None;
        }
        let interp = track_interp(&per_seq, prop, any);
        let mut stepped = false;
        let global = self.global_of(gnode, prop, nseq);
        let jobs: Vec<(usize, i64, Option<i64>)> = match global {
            Some((_, d, first)) => vec![(first, 0, Some(i64::from(d)))],
            None => starts
                .iter()
                .enumerate()
                .take(nseq)
                .map(|(si, &s)| (si, i64::from(s), None))
                .collect(),
        };
        for (si, start, limit) in jobs {
            let ch = self.channels.get(si).and_then(|a| a.get(&(gnode, prop)));
            let Some(c) = ch else {
                // Not animated in this sequence: the rest value, when it is not the
                // identity the game falls back to.
                if !rest_identity {
                    let t = start.min(i64::from(i32::MAX)) as i32;
                    match prop {
                        0 => keys_v.push(Key::at(t, m.t(t0))),
                        1 => keys_q.push(Key::at(t, m.r(r0))),
                        _ => keys_v.push(Key::at(t, m.s(s0))),
                    }
                }
                continue;
            };
            let at = |ms: i64| (start + ms).min(i64::from(i32::MAX)) as i32;
            let cubic = c.interp == GInterp::CubicSpline;
            let mut pts = match limit {
                // The first cycle: the keys before its end, and the first key on it (the
                // next cycle starts with a key of its own there); a cycle of no length
                // holds its first key.
                Some(d) => {
                    let ms = |t: f32| (f64::from(t) * 1000.0).round() as i64;
                    let mut cut = c.times.iter().take_while(|&&t| ms(t) < d).count();
                    if c.times.get(cut).is_some_and(|&t| ms(t) == d) || cut == 0 {
                        cut += 1;
                    }
                    moments(&c.times[..cut.min(c.times.len())], cubic)
                }
                None => moments(&c.times, cubic),
            };
            if prop == 1 && c.interp == GInterp::CubicSpline {
                pts = refine_rotation(c, &pts, &mut self.rotation_error);
            }
            let step_here = c.interp == GInterp::Step && interp != Interpolation::None;
            stepped |= step_here;
            let stride = if c.interp == GInterp::CubicSpline {
                3
            } else {
                1
            };
            let comps = if prop == 1 { 4 } else { 3 };
            let values = Values { c, stride, comps };
            let keys = Moments {
                pts: &pts,
                at: &at,
                step_here,
            };
            if prop == 1 {
                rotation_keys(&values, &keys, m, &mut keys_q);
            } else {
                if prop == 2 && !aligned {
                    let uneven = (0..c.times.len()).any(|k| {
                        let s = values.raw(k, stride / 2);
                        (s[0] - s[1]).abs() > 1e-6 * s[0].abs().max(1.0)
                            || (s[0] - s[2]).abs() > 1e-6 * s[0].abs().max(1.0)
                    });
                    *scale_approx |= uneven;
                }
                vector_keys(&values, &keys, m, prop, interp, &mut keys_v);
            }
        }
        if stepped {
            self.losses.add(
                place.to_string(),
                "STEP keys in a track other animations interpolate: held by a key 1 ms before the next",
            );
        }
        let tag = [KGTR, KGRT, KGSC][prop as usize];
        let gsid = global.map_or(-1, |g| g.0);
        let track = if prop == 1 {
            AnyTrack::Quaternion(Track {
                interpolation: interp,
                global_sequence_id: gsid,
                keys: sorted(keys_q),
            })
        } else {
            AnyTrack::Vector3(Track {
                interpolation: interp,
                global_sequence_id: gsid,
                keys: sorted(keys_v),
            })
        };
        Some(WcAnimation { tag, track })
    }

    /// A track this crate exported from a global sequence: its first cycle, from the first
    /// animation, on the global sequence's own clock. (The global sequence, its length,
    /// and that animation.)
    fn global_of(&self, gnode: usize, prop: u8, nseq: usize) -> Option<(i32, u32, usize)> {
        self.mdlx[gnode]
            .as_ref()
            .and_then(|m| {
                m.get("global")?
                    .get(["translation", "rotation", "scale"][prop as usize])?
                    .as_u64()
            })
            .and_then(|g| Some((g as i32, *self.global_sequences.get(g as usize)?)))
            .and_then(|(g, d)| {
                // An animation that plays the whole first cycle.
                let first = (0..nseq).find(|&si| {
                    self.channels
                        .get(si)
                        .is_some_and(|a| a.contains_key(&(gnode, prop)))
                        && f64::from(self.durations[si]) * 1000.0 >= f64::from(d) - 0.5
                })?;
                Some((g, d, first))
            })
    }
}

/// A property of a glTF node: its index, and 0 (translation), 1 (rotation) or 2 (scaling).
#[derive(Clone, Copy)]
struct NodeProp {
    gnode: usize,
    prop: u8,
}

/// The track's interpolation: the richest its channels use (linear when none animates
/// it).
fn track_interp(per_seq: &[Option<(GInterp, usize)>], prop: u8, any: bool) -> Interpolation {
    let mut interp = Interpolation::None;
    for c in per_seq.iter().flatten() {
        let i = match c.0 {
            GInterp::Step => Interpolation::None,
            GInterp::Linear => Interpolation::Linear,
            GInterp::CubicSpline if prop == 1 => Interpolation::Linear,
            GInterp::CubicSpline => Interpolation::Hermite,
        };
        if i.to_u32() > interp.to_u32() {
            interp = i;
        }
    }
    if !any {
        interp = Interpolation::Linear;
    }
    interp
}

/// Where one channel's keys go: its moments (see [`moments`]), their times on the model's
/// timeline, and whether its STEP keys are held by an extra key 1 ms before the next.
struct Moments<'a> {
    pts: &'a [(i64, Option<usize>)],
    at: &'a dyn Fn(i64) -> i32,
    step_here: bool,
}

/// A rotation channel's keys, each on the same hemisphere as the one before.
fn rotation_keys(values: &Values, keys: &Moments, m: &TrackMap, keys_q: &mut Vec<Key<Quat>>) {
    let Moments { pts, at, step_here } = *keys;
    let mut prev: Option<Quat> = None;
    for (i, p) in pts.iter().enumerate() {
        let mut q = m.r(qnormalize(values.at(p)));
        if let Some(pq) = prev {
            if crate::anim::math::qdot(pq, q) < 0.0 {
                q = q.map(|x| -x);
            }
            if step_here && i > 0 && p.0 - 1 > pts[i - 1].0 {
                keys_q.push(Key::at(at(p.0 - 1), pq));
            }
        }
        prev = Some(q);
        keys_q.push(Key::at(at(p.0), q));
    }
}

/// A translation (`prop` 0) or scaling (2) channel's keys, with Hermite tangents when the
/// track is `interp` Hermite.
fn vector_keys(
    src: &Values,
    keys: &Moments,
    m: &TrackMap,
    prop: u8,
    interp: Interpolation,
    keys_v: &mut Vec<Key<Vec3>>,
) {
    let Moments { pts, at, step_here } = *keys;
    let c = src.c;
    let raw = |k: usize, part: usize| src.raw(k, part);
    let v3 = |v: [f32; 4]| [v[0], v[1], v[2]];
    let map = |v: Vec3| if prop == 0 { m.t(v) } else { m.s(v) };
    let dmap = |v: Vec3| if prop == 0 { m.dt(v) } else { m.s(v) };
    let values: Vec<Vec3> = pts.iter().map(|p| map(v3(src.at(p)))).collect();
    for (i, p) in pts.iter().enumerate() {
        let value = values[i];
        let mut k = Key::at(at(p.0), value);
        if interp == Interpolation::Hermite {
            let prev_v = if i > 0 { values[i - 1] } else { value };
            let next_v = values.get(i + 1).copied().unwrap_or(value);
            // A straight line as a Hermite curve: tangents equal to the step
            // to the neighbour key.
            k.in_tan = [0, 1, 2].map(|j| value[j] - prev_v[j]);
            k.out_tan = [0, 1, 2].map(|j| next_v[j] - value[j]);
            if c.interp == GInterp::Step {
                k.in_tan = [0.0; 3];
                k.out_tan = [0.0; 3];
            }
            if c.interp == GInterp::CubicSpline {
                // glTF's tangents are per second: times the key spacing,
                // exact where both neighbours are the channel's own keys.
                if let Some(kk) = p.1 {
                    let n = c.times.len();
                    if i > 0 && kk > 0 && pts[i - 1].1 == Some(kk - 1) {
                        let dt = c.times[kk] - c.times[kk - 1];
                        k.in_tan = dmap(v3(raw(kk, 0))).map(|x| x * dt);
                    }
                    if kk + 1 < n && pts.get(i + 1).is_some_and(|q| q.1 == Some(kk + 1)) {
                        let dt = c.times[kk + 1] - c.times[kk];
                        k.out_tan = dmap(v3(raw(kk, 2))).map(|x| x * dt);
                    }
                }
            }
        }
        if step_here && i > 0 && p.0 - 1 > pts[i - 1].0 {
            let mut h = Key::at(at(p.0 - 1), values[i - 1]);
            if interp == Interpolation::Hermite {
                h.in_tan = [0.0; 3];
                h.out_tan = [0.0; 3];
            }
            keys_v.push(h);
        }
        keys_v.push(k);
    }
}
