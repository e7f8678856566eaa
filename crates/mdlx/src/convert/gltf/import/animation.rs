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
            let mut times: HashMap<usize, Vec<f32>> = HashMap::new();
            for (&(node, _), c) in &map {
                times
                    .entry(node)
                    .or_default()
                    .extend(c.times.iter().copied());
            }
            for t in times.values_mut() {
                t.sort_by(f32::total_cmp);
                t.dedup();
            }
            self.key_times.push(times);
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
