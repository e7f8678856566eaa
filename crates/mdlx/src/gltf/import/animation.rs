//! Animations as sequences and node tracks: reading channels, laying sequences out on
//! the model's timeline, and each Warcraft node's translation, rotation and scaling.

use super::*;

/// The latest key time accepted (seconds): the game's time line is milliseconds in a
/// signed 32-bit number, and the sequences are laid out one after the other on it.
const MAX_SECONDS: f32 = 1_000_000.0;

impl Importer<'_> {
    pub(super) fn read_channels(&mut self) -> Result<(), GltfError> {
        let doc = self.doc;
        for (ai, anim) in doc.animations.iter().enumerate() {
            let mut map = BTreeMap::new();
            let mut duration = 0.0f32;
            let mut lost: BTreeSet<String> = BTreeSet::new();
            for (ci, ch) in anim.channels.iter().enumerate() {
                let at = format!("animations[{ai}].channels[{ci}]");
                let si = ch.sampler.value();
                let sampler = anim.samplers.get(si).ok_or_else(|| {
                    GltfError::new(
                        format!("{at}.sampler"),
                        format!("sampler {si} does not exist"),
                    )
                })?;
                let sat = format!("animations[{ai}].samplers[{si}]");
                let (times, _) = self
                    .src
                    .read_f32(sampler.input.value(), &format!("{sat}.input"))?;
                if let Some(bad) = times.iter().position(|t| !t.is_finite() || *t < 0.0) {
                    return Err(GltfError::new(
                        format!("{sat}.input"),
                        format!("key {bad} has the time {}, not a time", times[bad]),
                    ));
                }
                // The game's clock counts milliseconds in 32 bits.
                if let Some(bad) = times.iter().position(|&t| t > MAX_SECONDS) {
                    return Err(GltfError::new(
                        format!("{sat}.input"),
                        format!(
                            "key {bad} is at {} s, past the {MAX_SECONDS} s a model's time line holds",
                            times[bad]
                        ),
                    ));
                }
                if let Some(k) = times.windows(2).position(|w| w[1] < w[0]) {
                    return Err(GltfError::new(
                        format!("{sat}.input"),
                        format!("key times go back at key {}", k + 1),
                    ));
                }
                if let Some(&last) = times.last() {
                    duration = duration.max(last);
                }
                let property = match ch.target.path {
                    Checked::Valid(p) => p,
                    Checked::Invalid => {
                        lost.insert("animation of a property other than a node transform (KHR_animation_pointer or unknown)".into());
                        continue;
                    }
                };
                if property == Property::MorphTargetWeights {
                    lost.insert("morph target weight animation".into());
                    continue;
                }
                let node = ch.target.node.value();
                if node >= doc.nodes.len() {
                    return Err(GltfError::new(
                        format!("{at}.target.node"),
                        format!("node {node} does not exist"),
                    ));
                }
                let interp = match sampler.interpolation {
                    Checked::Valid(i) => i,
                    Checked::Invalid => GInterp::Linear,
                };
                let (values, comps) = self
                    .src
                    .read_f32(sampler.output.value(), &format!("{sat}.output"))?;
                let want = if property == Property::Rotation { 4 } else { 3 };
                let per = if interp == GInterp::CubicSpline { 3 } else { 1 };
                if comps != want || values.len() != times.len() * want * per {
                    return Err(GltfError::new(
                        format!("{sat}.output"),
                        format!(
                            "{} values of {comps} components for {} keys ({} of {want} expected)",
                            values.len() / comps.max(1),
                            times.len(),
                            times.len() * per
                        ),
                    ));
                }
                if !finite(&values) {
                    return Err(GltfError::new(
                        format!("{sat}.output"),
                        "a value is not a finite number",
                    ));
                }
                if times.is_empty() {
                    continue;
                }
                if !self.in_scene[node] {
                    continue;
                }
                map.insert(
                    (node, prop_code(property)),
                    GChannel {
                        property,
                        interp,
                        times,
                        values,
                    },
                );
            }
            for what in lost {
                self.losses.add(format!("animations[{ai}]"), what);
            }
            self.channels.push(map);
            self.durations.push(duration);
        }
        // Channels that only restate the node's own transform do not animate it.
        for anim in &mut self.channels {
            anim.retain(|&(node, _), c| !restates_rest(c, &self.g.trs[node]));
        }
        Ok(())
    }

    /// The sequences, from the animations (or one `Stand`).
    pub(super) fn sequences(&mut self, model: &mut Model) {
        let doc = self.doc;
        let mut next = 0u32;
        for (ai, anim) in doc.animations.iter().enumerate() {
            let place = format!("animations[{ai}]");
            let extras = extras_value(&anim.extras);
            let m = extras.as_ref().and_then(|e| e.get("mdlx"));
            // A name this crate exported is kept even when empty.
            let name = anim
                .name
                .clone()
                .filter(|n| !n.is_empty() || m.is_some())
                .unwrap_or_else(|| format!("Animation {ai}"));
            let raw_name = m.and_then(|m| unhex(m.get("name_hex")));
            // Up to the whole millisecond at or after the last key, so a key between two
            // milliseconds (keyed on both, see `moments`) plays.
            let len = (f64::from(self.durations[ai]) * 1000.0 - 1e-3)
                .ceil()
                .clamp(0.0, 1e9) as u32;
            let interval = m
                .and_then(|m| m.get("interval"))
                .and_then(|v| serde_json::from_value::<[u32; 2]>(v.clone()).ok())
                .filter(|i| i[1] >= i[0]);
            let interval = interval.unwrap_or_else(|| {
                let start = if ai == 0 {
                    0
                } else {
                    (next.saturating_add(500))
                        .div_ceil(1000)
                        .saturating_mul(1000)
                };
                [start, start.saturating_add(len.max(1))]
            });
            next = next.max(interval[1].saturating_add(1));
            let looping = m
                .and_then(|m| m.get("looping"))
                .or_else(|| extras.as_ref().and_then(|e| e.get("looping")))
                .and_then(Value::as_bool);
            let lower = name.to_lowercase();
            let non_looping = match looping {
                Some(l) => !l,
                None => lower.contains("death") || lower.contains("decay"),
            };
            let num = |k: &str| m.and_then(|m| m.get(k)).and_then(Value::as_f64);
            let flags = match num("flags") {
                Some(f) => f as u32,
                None if non_looping => SEQUENCE_NON_LOOPING,
                None => 0,
            };
            model.sequences.push(Sequence {
                name: match raw_name {
                    Some(b) if b.len() <= 80 => FixedString::from_field(&b),
                    _ => fixed(&name, 80, &place, "name", &mut self.losses),
                },
                interval,
                move_speed: num("move_speed").unwrap_or(0.0) as f32,
                flags,
                rarity: num("rarity").unwrap_or(0.0) as f32,
                sync_point: num("sync_point").unwrap_or(0.0) as u32,
                extent: Extent::default(),
            });
        }
        if model.sequences.is_empty() {
            model.sequences.push(Sequence {
                name: FixedString::from("Stand"),
                interval: [0, 1000],
                ..Default::default()
            });
        }
    }

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
        let pp = translation_of(&p);
        let pv = translation_of(&b);
        let (t0, r0, s0) = self.g.trs[gnode];
        let place = format!("nodes[{gnode}]");
        let eps_t = 1e-6 * self.size;
        let mut out = Vec::new();
        // Translation: t' = pp - pv + Q_P t.
        let map_t = |v: Vec3| -> Vec3 {
            let q = linear(&p, v);
            from_y_up([0, 1, 2].map(|i| pp[i] - pv[i] + q[i]))
        };
        let map_dt = |v: Vec3| -> Vec3 { from_y_up(linear(&p, v)) };
        // Rotation: R' = R_P R R_B⁻¹.
        let rb_inv = qconjugate(fb.rot);
        let map_r = |q: Quat| -> Quat { quat_z_up(qnormalize(qmul(qmul(fp.rot, q), rb_inv))) };
        // Scaling: the scale about the bind frame's axes, times the frames' scale ratio.
        let ratio = fp.scale / fb.scale;
        let aligned = axis_aligned(fb.rot);
        let map_s = |s: Vec3| -> Vec3 {
            let d = rotated_scale_diagonal(fb.rot, s);
            scale_z_up(d.map(|x| x * ratio))
        };
        let mut scale_approx = !fp.exact || !fb.exact;
        if !(fp.exact && fb.exact) {
            self.losses.add(
                place.clone(),
                "bind frame with shear, mirror or unequal scales: rotation and scaling approximated",
            );
        }
        for prop in 0u8..3 {
            let mut keys_v: Vec<Key<Vec3>> = Vec::new();
            let mut keys_q: Vec<Key<Quat>> = Vec::new();
            let mut interp = Interpolation::None;
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
                    let v = map_t(t0);
                    v.iter().all(|x| x.abs() <= eps_t)
                }
                1 => {
                    let q = map_r(r0);
                    qdist(q, [0.0, 0.0, 0.0, 1.0]) <= 1e-6
                }
                _ => {
                    let s = map_s(s0);
                    s.iter().all(|x| (x - 1.0).abs() <= 1e-6)
                }
            };
            if !any && rest_identity {
                continue;
            }
            // The track's interpolation: the richest its channels use.
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
            let mut stepped = false;
            // A track this crate exported from a global sequence: its first cycle, from
            // the first animation, on the global sequence's own clock.
            let global = self.mdlx[gnode]
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
                });
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
                            0 => keys_v.push(Key::at(t, map_t(t0))),
                            1 => keys_q.push(Key::at(t, map_r(r0))),
                            _ => keys_v.push(Key::at(t, map_s(s0))),
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
                let raw = |k: usize, part: usize| -> [f32; 4] {
                    let o = (k * stride + part) * comps;
                    let mut v = [0.0; 4];
                    v[..comps].copy_from_slice(&c.values[o..o + comps]);
                    v
                };
                let value_at = |p: &(i64, Option<usize>)| -> [f32; 4] {
                    match p.1 {
                        Some(k) => raw(k, stride / 2),
                        None => channel_at(c, p.0 as f32 / 1000.0),
                    }
                };
                if prop == 1 {
                    let mut prev: Option<Quat> = None;
                    for (i, p) in pts.iter().enumerate() {
                        let mut q = map_r(qnormalize(value_at(p)));
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
                } else {
                    let v3 = |v: [f32; 4]| [v[0], v[1], v[2]];
                    let map = |v: Vec3| if prop == 0 { map_t(v) } else { map_s(v) };
                    let dmap = |v: Vec3| {
                        if prop == 0 {
                            map_dt(v)
                        } else {
                            scale_z_up(rotated_scale_diagonal(fb.rot, v).map(|x| x * ratio))
                        }
                    };
                    if prop == 2 && !aligned {
                        let uneven = (0..c.times.len()).any(|k| {
                            let s = raw(k, stride / 2);
                            (s[0] - s[1]).abs() > 1e-6 * s[0].abs().max(1.0)
                                || (s[0] - s[2]).abs() > 1e-6 * s[0].abs().max(1.0)
                        });
                        scale_approx |= uneven;
                    }
                    let values: Vec<Vec3> = pts.iter().map(|p| map(v3(value_at(p)))).collect();
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
                                    if kk + 1 < n
                                        && pts.get(i + 1).is_some_and(|q| q.1 == Some(kk + 1))
                                    {
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
            }
            if stepped {
                self.losses.add(
                    place.clone(),
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
            out.push(WcAnimation { tag, track });
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

    /// Geoset animations: the visibility rigs of files this crate exported, and static
    /// colours.
    pub(super) fn visibility(&mut self, model: &mut Model, sources: &[GeosetSource]) {
        let starts: Vec<u32> = model.sequences.iter().map(|s| s.interval[0]).collect();
        for (gi, src) in sources.iter().enumerate() {
            let Some(skin) = self.doc.nodes[src.node].skin.map(|s| s.value()) else {
                continue;
            };
            // The rig's root: an ancestor of the skin's first joint marked "visibility".
            let Some(&j) = self.doc.skins.get(skin).and_then(|s| s.joints.first()) else {
                continue;
            };
            let mut at = Some(j.value());
            let mut rig = None;
            while let Some(i) = at {
                if self.kind_of(i) == Some("visibility") {
                    rig = Some(i);
                    break;
                }
                at = self.g.parent.get(i).copied().flatten();
            }
            let Some(rig) = rig else { continue };
            let rest = self.g.trs[rig].2[0];
            let mut keys = Vec::new();
            for (si, &start) in starts.iter().enumerate() {
                let Some(c) = self.channels.get(si).and_then(|a| a.get(&(rig, 2))) else {
                    if rest == 0.0 {
                        keys.push(Key::at(start as i32, 0.0f32));
                    }
                    continue;
                };
                for (k, &t) in c.times.iter().enumerate() {
                    let stride = if c.interp == GInterp::CubicSpline {
                        3
                    } else {
                        1
                    };
                    let v = c.values[(k * stride + stride / 2) * 3];
                    // A step takes effect on the first whole millisecond at or after
                    // its time.
                    let ms = start as i64 + (f64::from(t) * 1000.0 - 1e-3).ceil().max(0.0) as i64;
                    keys.push(Key::at(
                        ms.min(i32::MAX as i64) as i32,
                        if v == 0.0 { 0.0 } else { 1.0 },
                    ));
                }
            }
            let mut ga = GeosetAnimation {
                alpha: if rest == 0.0 { 0.0 } else { 1.0 },
                flags: 0,
                color: [1.0; 3],
                geoset_id: gi as i32,
                ..Default::default()
            };
            if !keys.is_empty() {
                ga.tracks = Tracks(vec![WcAnimation {
                    tag: KGAO,
                    track: AnyTrack::Float(Track {
                        interpolation: Interpolation::None,
                        global_sequence_id: -1,
                        keys: sorted(keys),
                    }),
                }]);
            }
            model.geoset_animations.push(ga);
        }
    }
}
