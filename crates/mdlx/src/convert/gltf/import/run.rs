//! The import's course: the importer over a source, and what it does in order (scene,
//! nodes, meshes, animations, then the game-ready pass), with the scene's size.

use super::*;

impl<'a> Importer<'a> {
    pub(super) fn new(src: &'a Source, opts: &'a ImportOptions) -> Result<Importer<'a>, GltfError> {
        if !matches!(opts.version, 800 | 900..=1100) {
            return Err(GltfError::new(
                "",
                format!(
                    "cannot build a version {} model (800, or 900 to 1100)",
                    opts.version
                ),
            ));
        }
        match opts.scale {
            ImportScale::Factor(f) if !(f.is_finite() && f > 0.0) => {
                return Err(GltfError::new(
                    "",
                    format!("cannot scale by {f}: give a finite factor above 0"),
                ))
            }
            ImportScale::Height(h) if !(h.is_finite() && h > 0.0) => {
                return Err(GltfError::new(
                    "",
                    format!(
                        "cannot fit the model to a height of {h}: give a finite height above 0"
                    ),
                ))
            }
            _ => {}
        }
        let doc = &src.root;
        let g = graph(doc)?;
        let mdlx: Vec<Option<Value>> = doc.nodes.iter().map(|n| mdlx_extras(&n.extras)).collect();
        // The first node of each (kind, index) this crate's extras name.
        let mut identity = HashMap::new();
        for (i, m) in mdlx.iter().enumerate() {
            let Some(m) = m else { continue };
            if let (Some(kind), Some(index)) = (
                m.get("kind").and_then(Value::as_str),
                m.get("index").and_then(Value::as_u64),
            ) {
                if kind != "copy" {
                    identity.entry((kind.to_string(), index)).or_insert(i);
                }
            }
        }
        Ok(Importer {
            src,
            doc,
            opts,
            in_scene: vec![false; doc.nodes.len()],
            scene_order: Vec::new(),
            mdlx,
            identity,
            g,
            losses: Losses::default(),
            channels: Vec::new(),
            durations: Vec::new(),
            key_times: Vec::new(),
            wnodes: Vec::new(),
            wnode_of: HashMap::new(),
            primary: vec![None; doc.nodes.len()],
            size: 1.0,
            rotation_error: 0.0,
            global_sequences: Vec::new(),
            materials_from_extras: true,
        })
    }

    pub(super) fn kind_of(&self, node: usize) -> Option<&str> {
        self.mdlx[node].as_ref()?.get("kind")?.as_str()
    }

    /// The node a visibility rig's copy `node` copies: the one whose extras name the kind
    /// and index the copy's do (node indices change when an editor writes the file again;
    /// Blender keeps extras), else the node at the index the copy names.
    pub(super) fn original_of(&self, node: usize) -> Option<usize> {
        let m = self.mdlx[node].as_ref()?;
        if let (Some(kind), Some(index)) = (
            m.get("of_kind").and_then(Value::as_str),
            m.get("of_index").and_then(Value::as_u64),
        ) {
            return self.identity.get(&(kind.to_string(), index)).copied();
        }
        m.get("of")
            .and_then(Value::as_u64)
            .map(|o| o as usize)
            .filter(|&o| o < self.doc.nodes.len())
    }

    pub(super) fn run(self) -> Result<Import, GltfError> {
        Ok(self.run_with_sources()?.0)
    }

    /// The import, and which glTF node and material each node and material came from.
    pub(super) fn run_with_sources(mut self) -> Result<(Import, Sources), GltfError> {
        for note in &self.src.notes {
            self.losses
                .add(note.path.clone(), format!("not carried: {}", note.message));
        }
        // Extensions Warcraft III has no place for, once per file.
        for e in &self.doc.extensions_used {
            if e == "KHR_texture_transform" {
                self.losses.add(e.clone(), "texture transforms not carried");
            } else if e.starts_with("KHR_materials_") && e != "KHR_materials_unlit" {
                self.losses.add(e.clone(), "material extension not carried");
            }
        }
        self.scene()?;
        self.global_sequences = (0..self.doc.nodes.len())
            .find(|&i| self.kind_of(i) == Some("root"))
            .and_then(|i| self.mdlx[i].as_ref()?.get("global_sequences").cloned())
            .and_then(|g| serde_json::from_value(g).ok())
            .unwrap_or_default();
        self.read_channels()?;
        let meshes = self.mesh_nodes();
        self.size = self.scene_size(&meshes)?;
        self.build_nodes(&meshes)?;
        let mut model = Model {
            version: self.opts.version,
            global_sequences: self.global_sequences.clone(),
            ..Default::default()
        };
        let mut mats = material::Materials::new(self.src, self.opts);
        mats.from_extras = self.materials_from_extras;
        let built = mesh::build(&mut self, &meshes, &mut mats)?;
        let mut geosets = Vec::new();
        let mut sources = Vec::new();
        let mut exact_weights = Vec::new();
        let mut tints = Vec::new();
        for b in built {
            geosets.push(b.geoset);
            sources.push(b.source);
            exact_weights.push(b.exact);
            tints.push(b.material);
        }
        model.geosets = geosets;
        self.sequences(&mut model);
        self.node_records(&mut model)?;
        let ids: Vec<u32> = self.wnodes.iter().map(|w| w.object_id).collect();
        mesh::remap(&mut model, &ids, &mut exact_weights);
        self.visibility(&mut model, &sources);
        mats.finish(&mut model, &tints, &mut self.losses);
        self.cameras(&mut model);
        model.info.name = fixed(
            &if self.opts.name.is_empty() {
                self.scene_name()
            } else {
                self.opts.name.clone()
            },
            80,
            "model",
            "name",
            &mut self.losses,
        );
        model.info.blend_time = 150;
        let skin_error = mesh::extents_and_error(&mut model, &exact_weights);
        let (scale, height, mut notes) = self.fit(&mut model);
        let skin_error = skin_error * scale;
        if skin_error > 0.0 {
            let what = if self.opts.version >= 900 {
                "skin weights rounded to 255ths, at most four per vertex"
            } else {
                "skin weights made matrix groups (each vertex the equal average of up to four bone entries)"
            };
            self.losses.add(
                "skinning",
                format!(
                    "{what}: vertices move up to {skin_error:.3} ({:.2e} of the model's size) from where the glTF's weights put them",
                    skin_error / self.size
                ),
            );
        }
        if self.rotation_error > 0.0 {
            self.losses.add(
                "rotation tracks",
                format!(
                    "CUBICSPLINE rotations sampled to linear keys (largest error {:.2e} rad)",
                    self.rotation_error
                ),
            );
        }
        let material_sources = mats.sources();
        let mut node_sources = vec![None; model.pivot_points.len()];
        for w in self.wnodes.iter().filter(|w| !w.synthetic) {
            if let Some(slot) = node_sources.get_mut(w.object_id as usize) {
                *slot = Some(w.gnode);
            }
        }
        let textures = mats.into_textures();
        notes.extend(self.finish(&mut model));
        Ok((
            Import {
                model,
                losses: self.losses.into_list(),
                textures,
                geosets: sources,
                skin_error,
                rotation_error: self.rotation_error,
                scale,
                height,
                notes,
            },
            Sources {
                nodes: node_sources,
                materials: material_sources,
            },
        ))
    }

    pub(super) fn scene_name(&self) -> String {
        let s = self.doc.scene.map(|s| s.value()).unwrap_or(0);
        self.doc
            .scenes
            .get(s)
            .and_then(|s| s.name.clone())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "model".into())
    }

    /// Marks the nodes of the default scene.
    pub(super) fn scene(&mut self) -> Result<(), GltfError> {
        let doc = self.doc;
        let roots: Vec<usize> = match doc.scene.map(|s| s.value()).or(if doc.scenes.is_empty() {
            None
        } else {
            Some(0)
        }) {
            Some(s) => {
                let scene = doc
                    .scenes
                    .get(s)
                    .ok_or_else(|| GltfError::new("scene", format!("scene {s} does not exist")))?;
                for (k, other) in doc.scenes.iter().enumerate() {
                    if k != s && !other.nodes.is_empty() {
                        self.losses.add(
                            format!("scenes[{k}]"),
                            "scene other than the default one not imported",
                        );
                    }
                }
                scene.nodes.iter().map(|n| n.value()).collect()
            }
            // No scene at all: every root node.
            None => (0..doc.nodes.len())
                .filter(|&i| self.g.parent[i].is_none())
                .collect(),
        };
        let mut stack: Vec<usize> = roots.into_iter().rev().collect();
        while let Some(i) = stack.pop() {
            if i >= doc.nodes.len() || self.in_scene[i] {
                continue;
            }
            self.in_scene[i] = true;
            self.scene_order.push(i);
            if let Some(c) = &doc.nodes[i].children {
                stack.extend(c.iter().rev().map(|c| c.value()));
            }
        }
        Ok(())
    }

    pub(super) fn animated(&self, node: usize) -> bool {
        self.channels
            .iter()
            .any(|a| (0..3).any(|p| a.contains_key(&(node, p))))
    }

    /// Whether the node or an ancestor is animated.
    pub(super) fn moves(&self, node: usize) -> bool {
        let mut at = Some(node);
        let mut steps = 0;
        while let Some(i) = at {
            if self.animated(i) {
                return true;
            }
            steps += 1;
            if steps > self.g.parent.len() {
                break;
            }
            at = self.g.parent[i];
        }
        false
    }

    /// (node, mesh) of every mesh instance of the scene, in scene order.
    pub(super) fn mesh_nodes(&self) -> Vec<(usize, usize)> {
        self.scene_order
            .iter()
            .filter(|&&i| {
                self.mdlx[i].is_some() || !names::is_collision(self.doc.nodes[i].name.as_deref())
            })
            .filter_map(|&i| self.doc.nodes[i].mesh.map(|m| (i, m.value())))
            .filter(|&(_, m)| m < self.doc.meshes.len())
            .collect()
    }

    /// The diagonal of the box around the scene's rest-pose mesh vertices (1 without any).
    pub(super) fn scene_size(&self, meshes: &[(usize, usize)]) -> Result<f32, GltfError> {
        let mut lo = [f32::MAX; 3];
        let mut hi = [f32::MIN; 3];
        for &(node, mi) in meshes {
            for (pi, p) in self.doc.meshes[mi].primitives.iter().enumerate() {
                let Some(a) = p
                    .attributes
                    .get(&Checked::Valid(gltf_json::mesh::Semantic::Positions))
                else {
                    continue;
                };
                let at = format!("meshes[{mi}].primitives[{pi}].attributes.POSITION");
                let (v, comps) = self.src.read_f32(a.value(), &at)?;
                if comps != 3 {
                    continue;
                }
                let m = if self.doc.nodes[node].skin.is_some() {
                    IDENTITY
                } else {
                    self.g.world[node]
                };
                for c in v.chunks_exact(3) {
                    let p = crate::anim::math::transform_point(&m, [c[0], c[1], c[2]]);
                    if finite(&p) {
                        for k in 0..3 {
                            lo[k] = lo[k].min(p[k]);
                            hi[k] = hi[k].max(p[k]);
                        }
                    }
                }
            }
        }
        let d = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f32>().sqrt();
        Ok(if d.is_finite() && d > 0.0 { d } else { 1.0 })
    }
}
