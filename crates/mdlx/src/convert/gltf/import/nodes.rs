//! The Warcraft nodes a scene becomes: which glTF nodes, their bind frames, parents,
//! kinds and records; lights and cameras.

use super::*;

impl Importer<'_> {
    /// The Warcraft node for glTF node `g` bound in frame `b` (made if new).
    pub(super) fn wnode(&mut self, g: usize, b: Mat4, kind: Kind) -> usize {
        let key = (g, b.map(f32::to_bits));
        if let Some(&w) = self.wnode_of.get(&key) {
            return w;
        }
        let b = if invert_affine(&b).is_some() {
            b
        } else {
            self.losses.add(
                format!("nodes[{g}]"),
                "bind frame cannot be inverted (a scale of 0): taken as the identity",
            );
            IDENTITY
        };
        let w = self.wnodes.len();
        self.wnodes.push(WNode {
            gnode: g,
            b,
            parent: None,
            kind,
            bound: false,
            synthetic: false,
            object_id: 0,
        });
        self.wnode_of.insert(key, w);
        if self.primary[g].is_none() {
            self.primary[g] = Some(w);
        }
        w
    }

    /// The joints of skin `s` as Warcraft nodes (a `copy` node of a visibility rig this
    /// crate exported stands for the node it copies).
    pub(super) fn skin_nodes(&mut self, s: usize) -> Result<Vec<usize>, GltfError> {
        let skin = &self.doc.skins[s];
        let n = skin.joints.len();
        let ibm: Vec<f32> = match skin.inverse_bind_matrices {
            Some(a) => {
                let at = format!("skins[{s}].inverseBindMatrices");
                let (v, comps) = self.src.read_f32(a.value(), &at)?;
                if comps != 16 || v.len() < n * 16 {
                    return Err(GltfError::new(
                        at,
                        format!("{} matrices for {n} joints", v.len() / 16),
                    ));
                }
                if !finite(&v) {
                    return Err(GltfError::new(at, "a value is not a finite number"));
                }
                v
            }
            None => IDENTITY.repeat(n),
        };
        let mut out = Vec::with_capacity(n);
        let index: HashMap<usize, usize> = skin
            .joints
            .iter()
            .enumerate()
            .map(|(k, j)| (j.value(), k))
            .collect();
        for (k, j) in skin.joints.iter().enumerate() {
            let mut j = j.value();
            if j >= self.doc.nodes.len() {
                return Err(GltfError::new(
                    format!("skins[{s}].joints[{k}]"),
                    format!("node {j} does not exist"),
                ));
            }
            let mut bind = k;
            if self.kind_of(j) == Some("copy") {
                if let Some(of) = self.original_of(j) {
                    j = of;
                    // Bound as the original is where it is a joint of this skin too (an
                    // editor that writes one skin over every bone, as Blender does, may
                    // give the copy a bind frame of its own: Blender 3.4 turns bones).
                    bind = index.get(&of).copied().unwrap_or(k);
                }
            }
            let m: Mat4 = ibm[bind * 16..bind * 16 + 16]
                .try_into()
                .expect("16 floats");
            let b = invert_affine(&m).unwrap_or(self.g.safe[j]);
            let w = self.wnode(j, b, Kind::Bone);
            out.push(w);
        }
        Ok(out)
    }

    pub(super) fn build_nodes(&mut self, meshes: &[(usize, usize)]) -> Result<(), GltfError> {
        // Joints of the skins the scene's meshes use, then of the other skins whose
        // joints are all in the scene (a skeleton without a mesh is still a skeleton).
        let mut skins: Vec<usize> = meshes
            .iter()
            .filter_map(|&(n, _)| self.doc.nodes[n].skin.map(|s| s.value()))
            .filter(|&s| s < self.doc.skins.len())
            .collect();
        skins.sort_unstable();
        skins.dedup();
        for (s, skin) in self.doc.skins.iter().enumerate() {
            let in_scene = !skin.joints.is_empty()
                && skin
                    .joints
                    .iter()
                    .all(|j| self.in_scene.get(j.value()).copied().unwrap_or(false));
            if in_scene && !skins.contains(&s) {
                skins.push(s);
            }
        }
        for s in skins {
            self.skin_nodes(s)?;
        }
        let skip = |imp: &Self, i: usize| {
            matches!(
                imp.kind_of(i),
                Some("root" | "copy" | "visibility" | "geoset" | "Camera")
            )
        };
        // Animated nodes, lights and mdlx-kinded nodes.
        for &i in &self.scene_order.clone() {
            if skip(self, i) {
                continue;
            }
            let light = self.doc.nodes[i]
                .extensions
                .as_ref()
                .and_then(|e| e.khr_lights_punctual.as_ref())
                .is_some();
            let kinded = matches!(
                self.kind_of(i),
                Some("Bone" | "Helper" | "Attachment" | "EventObject" | "Light")
            ) || self.named(i).is_some();
            if self.primary[i].is_none() && (self.animated(i) || light || kinded) {
                let kind = if light { Kind::Light } else { Kind::Helper };
                let w = self.g.safe[i];
                self.wnode(i, w, kind);
            }
        }
        // Rigid meshes that move.
        for &(n, _) in meshes {
            if self.doc.nodes[n].skin.is_none() && self.moves(n) {
                let w = self.g.safe[n];
                let k = self.wnode(n, w, Kind::Bone);
                self.wnodes[k].bound = true;
            }
        }
        // Ancestors.
        let mut k = 0;
        while k < self.wnodes.len() {
            let mut at = self.g.parent[self.wnodes[k].gnode];
            while let Some(p) = at {
                if self.primary[p].is_some() || skip(self, p) {
                    break;
                }
                let w = self.g.safe[p];
                self.wnode(p, w, Kind::Helper);
                at = self.g.parent[p];
            }
            k += 1;
        }
        // Parents: the first Warcraft node of the nearest glTF ancestor that has one.
        for k in 0..self.wnodes.len() {
            let mut at = self.g.parent[self.wnodes[k].gnode];
            let mut parent = None;
            while let Some(p) = at {
                if let Some(w) = self.primary[p] {
                    parent = Some(w);
                    break;
                }
                at = self.g.parent[p];
            }
            self.wnodes[k].parent = parent;
        }
        Ok(())
    }

    /// A still bone for static meshes (made on first use).
    pub(super) fn root_bone(&mut self) -> usize {
        if let Some(k) = self.wnodes.iter().position(|w| w.synthetic) {
            return k;
        }
        self.wnodes.push(WNode {
            gnode: usize::MAX,
            b: IDENTITY,
            parent: None,
            kind: Kind::Bone,
            bound: true,
            synthetic: true,
            object_id: 0,
        });
        self.wnodes.len() - 1
    }

    /// The node records, with their tracks.
    pub(super) fn node_records(&mut self, model: &mut Model) -> Result<(), GltfError> {
        self.settle_kinds();
        // Object ids in the game's kind order.
        let order = [
            Kind::Bone,
            Kind::Light,
            Kind::Helper,
            Kind::Attachment,
            Kind::EventObject,
            Kind::CollisionShape,
        ];
        let mut id = 0u32;
        for kind in order {
            for w in self.wnodes.iter_mut().filter(|w| w.kind == kind) {
                w.object_id = id;
                id += 1;
            }
        }
        model.pivot_points = vec![[0.0; 3]; id as usize];
        let nseq = model.sequences.len();
        let starts: Vec<u32> = model.sequences.iter().map(|s| s.interval[0]).collect();
        for kind in order {
            for k in 0..self.wnodes.len() {
                if self.wnodes[k].kind == kind {
                    self.node_record(model, k, nseq, &starts);
                }
            }
        }
        Ok(())
    }

    /// Each node's kind: what this crate's extras say first, then what the node does.
    fn settle_kinds(&mut self) {
        for k in 0..self.wnodes.len() {
            let w = &self.wnodes[k];
            if w.synthetic {
                continue;
            }
            let said = match self.kind_of(w.gnode) {
                Some("Bone") => Some(Kind::Bone),
                Some("Helper") => Some(Kind::Helper),
                Some("Attachment") => Some(Kind::Attachment),
                Some("EventObject") => Some(Kind::EventObject),
                Some(_) => None,
                None => self.named(w.gnode).map(|n| match n {
                    names::Named::Attachment => Kind::Attachment,
                    names::Named::EventObject => Kind::EventObject,
                    names::Named::Collision => Kind::CollisionShape,
                }),
            };
            let kind = if w.bound || w.kind == Kind::Bone {
                Kind::Bone
            } else {
                said.unwrap_or(w.kind)
            };
            // A node the model said was a helper but that vertices follow stays a bone.
            let kind = match said {
                Some(s) if w.kind == Kind::Bone && !w.bound && s != Kind::Bone => s,
                _ => kind,
            };
            self.wnodes[k].kind = kind;
        }
    }

    /// Warcraft node `k` as a record of its kind, with its pivot point and tracks.
    fn node_record(&mut self, model: &mut Model, k: usize, nseq: usize, starts: &[u32]) {
        let kind = self.wnodes[k].kind;
        let w = &self.wnodes[k];
        let place = if w.synthetic {
            "Root".to_string()
        } else {
            format!("nodes[{}]", w.gnode)
        };
        let name = if w.synthetic {
            "Root".to_string()
        } else {
            let ours = self.mdlx[w.gnode].is_some();
            self.doc.nodes[w.gnode]
                .name
                .clone()
                .filter(|n| !n.is_empty() || ours)
                .unwrap_or_else(|| format!("Node {}", w.gnode))
        };
        let tracks = if w.synthetic {
            Tracks::default()
        } else {
            self.tracks(k, nseq, starts)
        };
        let w = &self.wnodes[k];
        let pivot = from_y_up(translation_of(&w.b));
        model.pivot_points[w.object_id as usize] = pivot;
        let m = if w.synthetic {
            None
        } else {
            self.mdlx[w.gnode].clone()
        };
        let said_flags = m
            .as_ref()
            .and_then(|m| m.get("flags"))
            .and_then(Value::as_u64)
            .map(|f| f as u32 & 0xff & !node_flags::DONT_INHERIT)
            .unwrap_or(0);
        let kind_bits = match kind {
            Kind::Helper => 0,
            Kind::Bone => 0x100,
            Kind::Light => 0x200,
            Kind::EventObject => 0x400,
            Kind::Attachment => 0x800,
            Kind::CollisionShape => 0x2000,
        };
        let raw_name = m.as_ref().and_then(|m| unhex(m.get("name_hex")));
        let node = Node {
            name: match raw_name {
                Some(b) if b.len() <= 80 => FixedString::from_field(&b),
                _ => fixed(&name, 80, &place, "name", &mut self.losses),
            },
            object_id: w.object_id,
            parent_id: w.parent.map_or(-1, |p| self.wnodes[p].object_id as i32),
            flags: kind_bits | said_flags,
            tracks,
            tail: Vec::new(),
        };
        let gnode = w.gnode;
        self.push_record(model, kind, node, m, &place, gnode);
    }

    /// `node` as a record of kind `kind` (glTF node `gnode`, with this crate's extras `m`).
    fn push_record(
        &mut self,
        model: &mut Model,
        kind: Kind,
        node: Node,
        m: Option<Value>,
        place: &str,
        gnode: usize,
    ) {
        match kind {
            Kind::Bone => model.bones.push(Bone {
                node,
                geoset_id: -1,
                geoset_animation_id: -1,
            }),
            Kind::Helper => model.helpers.push(Helper { node }),
            Kind::Light => {
                let light = self.light(gnode, place);
                model.lights.push(Light { node, ..light });
            }
            Kind::Attachment => {
                let m = m.unwrap_or(Value::Null);
                let path = m.get("path").and_then(Value::as_str).unwrap_or("");
                model.attachments.push(Attachment {
                    node,
                    path: fixed(path, 260, place, "path", &mut self.losses),
                    attachment_id: m
                        .get("attachment_id")
                        .and_then(Value::as_u64)
                        .unwrap_or(model.attachments.len() as u64)
                        as u32,
                    tracks: Tracks::default(),
                    tail: Vec::new(),
                });
            }
            Kind::CollisionShape => model.collision_shapes.push(crate::model::CollisionShape {
                node,
                shape: self.collision_shape(gnode),
            }),
            Kind::EventObject => {
                let m = m.unwrap_or(Value::Null);
                let times: Option<Vec<u32>> = m
                    .get("times")
                    .and_then(|t| serde_json::from_value(t.clone()).ok())
                    .or_else(|| self.event_times(model, gnode));
                let global_sequence_id = m
                    .get("global_sequence_id")
                    .and_then(Value::as_i64)
                    .unwrap_or(-1) as i32;
                model.event_objects.push(EventObject {
                    node,
                    track: times.map(|times| EventTrack {
                        // A global sequence the model has again, else none.
                        global_sequence_id: if (0..model.global_sequences.len() as i64)
                            .contains(&i64::from(global_sequence_id))
                        {
                            global_sequence_id
                        } else {
                            -1
                        },
                        times,
                    }),
                });
            }
        }
    }

    /// What the node's name makes it ([`names`]), for a node this crate did not export
    /// that is no joint.
    pub(super) fn named(&self, node: usize) -> Option<names::Named> {
        if self.mdlx[node].is_some() {
            return None;
        }
        let n = &self.doc.nodes[node];
        let named = names::named(n.name.as_deref()?)?;
        (named == names::Named::Collision || n.mesh.is_none()).then_some(named)
    }

    /// An event object's times: each key of its node's own animation, in each sequence
    /// (every animation is one, in order), on the model's timeline.
    fn event_times(&self, model: &Model, gnode: usize) -> Option<Vec<u32>> {
        let mut out = Vec::new();
        for (a, times) in self.key_times.iter().enumerate() {
            let (Some(t), Some(s)) = (times.get(&gnode), model.sequences.get(a)) else {
                continue;
            };
            for &k in t {
                let ms = (f64::from(k) * 1000.0).round() as u32;
                out.push(s.interval[0].saturating_add(ms).min(s.interval[1]));
            }
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    /// A collision shape from a node named so: its mesh's box in model space (a sphere
    /// around it when the name says sphere), or without a mesh a sphere at the node of the
    /// radius of its largest scale.
    fn collision_shape(&self, gnode: usize) -> crate::model::Shape {
        use crate::model::Shape;
        let node = &self.doc.nodes[gnode];
        let world = self.g.world[gnode];
        let sphere = node
            .name
            .as_deref()
            .is_some_and(|n| n.to_ascii_lowercase().contains("sphere"));
        let mut lo = [f32::MAX; 3];
        let mut hi = [f32::MIN; 3];
        let mesh = node.mesh.and_then(|m| self.doc.meshes.get(m.value()));
        for p in mesh.iter().flat_map(|m| &m.primitives) {
            let Some(a) = p
                .attributes
                .get(&Checked::Valid(gltf_json::mesh::Semantic::Positions))
            else {
                continue;
            };
            let Ok((v, 3)) = self.src.read_f32(a.value(), "collision mesh") else {
                continue;
            };
            for c in v.chunks_exact(3) {
                let q = from_y_up(crate::anim::math::transform_point(
                    &world,
                    [c[0], c[1], c[2]],
                ));
                if finite(&q) {
                    for k in 0..3 {
                        lo[k] = lo[k].min(q[k]);
                        hi[k] = hi[k].max(q[k]);
                    }
                }
            }
        }
        if lo[0] > hi[0] {
            let centre = from_y_up(translation_of(&world));
            let radius = (0..3)
                .map(|c| linear(&world, [0, 1, 2].map(|k| f32::from(u8::from(k == c)))))
                .map(|v| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt())
                .fold(0.0f32, f32::max);
            return Shape::Sphere(centre, radius);
        }
        if sphere {
            let centre = [0, 1, 2].map(|k| (lo[k] + hi[k]) / 2.0);
            let radius = (0..3).map(|k| (hi[k] - lo[k]) / 2.0).fold(0.0f32, f32::max);
            Shape::Sphere(centre, radius)
        } else {
            Shape::Box([lo, hi])
        }
    }

    pub(super) fn light(&mut self, gnode: usize, place: &str) -> Light {
        use gltf_json::extensions::scene::khr_lights_punctual as klp;
        let index = self.doc.nodes[gnode]
            .extensions
            .as_ref()
            .and_then(|e| e.khr_lights_punctual.as_ref())
            .map(|l| l.light.value());
        let list = self
            .doc
            .extensions
            .as_ref()
            .and_then(|e| e.khr_lights_punctual.as_ref())
            .map(|l| &l.lights[..])
            .unwrap_or(&[]);
        let mut out = Light {
            light_type: light_type::OMNIDIRECTIONAL,
            attenuation_start: 80.0,
            attenuation_end: 200.0,
            color: [1.0; 3],
            intensity: 1.0,
            ambient_color: [1.0; 3],
            ambient_intensity: 0.0,
            ..Light::new()
        };
        let Some(l) = index.and_then(|i| list.get(i)) else {
            return out;
        };
        out.color = [l.color[2], l.color[1], l.color[0]];
        out.intensity = l.intensity;
        if let Some(r) = l.range.filter(|r| r.is_finite() && *r > 0.0) {
            (out.attenuation_start, out.attenuation_end) = (0.0, r);
        }
        match l.type_ {
            Checked::Valid(klp::Type::Directional) => out.light_type = light_type::DIRECTIONAL,
            Checked::Valid(klp::Type::Point) => {}
            _ => self.losses.add(
                place.to_string(),
                "spot light made an omni light (the game has no spot lights)",
            ),
        }
        out
    }

    /// Cameras: a perspective camera looking down its -Z.
    pub(super) fn cameras(&mut self, model: &mut Model) {
        for &i in &self.scene_order {
            let Some(ci) = self.doc.nodes[i].camera.map(|c| c.value()) else {
                continue;
            };
            let Some(cam) = self.doc.cameras.get(ci) else {
                continue;
            };
            let place = format!("cameras[{ci}]");
            let Some(p) = &cam.perspective else {
                self.losses.add(
                    place,
                    "orthographic camera not carried (the game's cameras are perspective)",
                );
                continue;
            };
            if self.animated(i) || self.moves(i) {
                self.losses
                    .add(place.clone(), "camera animation not carried");
            }
            let w = self.g.world[i];
            let eye = translation_of(&w);
            let m = self.mdlx[i].clone();
            let target = m
                .as_ref()
                .and_then(|m| m.get("target"))
                .and_then(|t| serde_json::from_value::<[f32; 3]>(t.clone()).ok());
            let target = target.unwrap_or_else(|| {
                let fwd = crate::anim::math::normalize(linear(&w, [0.0, 0.0, -1.0]));
                let d = self.size.max(1.0);
                from_y_up([0, 1, 2].map(|k| eye[k] + fwd[k] * d))
            });
            let name = self.doc.nodes[i]
                .name
                .clone()
                .or_else(|| cam.name.clone())
                .unwrap_or_else(|| format!("Camera {ci}"));
            model.cameras.push(Camera {
                name: fixed(&name, 80, &place, "name", &mut self.losses),
                position: from_y_up(eye),
                field_of_view: p.yfov,
                far_clip: p.zfar.unwrap_or(10000.0),
                near_clip: p.znear,
                target_position: target,
                tracks: Tracks::default(),
                tail: Vec::new(),
                ..Camera::default()
            });
        }
        let lights_unused = self
            .doc
            .extensions
            .as_ref()
            .and_then(|e| e.khr_lights_punctual.as_ref())
            .is_some_and(|l| !l.lights.is_empty())
            && model.lights.is_empty();
        if lights_unused {
            self.losses.add(
                "KHR_lights_punctual",
                "lights no scene node uses not carried",
            );
        }
    }
}
