//! Alpha model to Warcraft III model (version 800): the header, sequences, textures,
//! materials and tracks here; geosets in [`geometry`], nodes in [`nodes`].

mod geometry;
mod nodes;

use crate::alpha::{
    AlphaModel, AlphaTrack, AlphaTracks, Chunk, Layer as AlphaLayer, PackedQuaternion,
};
use crate::model::{
    AnyTrack, Interpolation, Key, Layer as WcLayer, Material as WcMaterial, Model,
    ModelInfo as WcInfo, Sequence as WcSequence, TextureAnimation as WcTextureAnimation, Track,
    Tracks,
};
use crate::Loss;

use super::{map, Cx, TrackMap, SHARED_LAYER_FLAGS};

impl Cx {
    /// Converts the tracks the record kind shares (`map`); any other track is a loss.
    fn tracks(&mut self, record: &str, src: &AlphaTracks, map: TrackMap) -> Tracks {
        let mut out = Vec::new();
        for a in &src.0 {
            let Some(to) = map.to_warcraft(a.tag) else {
                self.lose(
                    record,
                    format!("track {} has no Warcraft III counterpart here", a.tag),
                );
                continue;
            };
            match convert_track(&a.track) {
                Some(track) => out.push(crate::model::Animation { tag: to, track }),
                None => self.lose(record, format!("track {} has no Warcraft III form", a.tag)),
            }
        }
        Tracks(out)
    }
}

/// Unpacks and re-types one track; event times have no keyed form.
fn convert_track(a: &AlphaTrack) -> Option<AnyTrack> {
    Some(match a {
        AlphaTrack::Float(t) => AnyTrack::Float(t.clone()),
        AlphaTrack::Vector3(t) => AnyTrack::Vector3(t.clone()),
        AlphaTrack::Quaternion(t) => {
            // Without tangents in the file, the keys' tangents stay at their default (not
            // the unpacked zero bits, which would read as the identity rotation).
            let tangents = t.interpolation.has_tangents();
            let unpack = |q: PackedQuaternion| if tangents { q.unpack() } else { [0.0; 4] };
            AnyTrack::Quaternion(Track {
                interpolation: t.interpolation,
                global_sequence_id: t.global_sequence_id,
                keys: t
                    .keys
                    .iter()
                    .map(|k| Key {
                        time: k.time,
                        value: k.value.unpack(),
                        in_tan: unpack(k.in_tan),
                        out_tan: unpack(k.out_tan),
                    })
                    .collect(),
            })
        }
        // Simple integer tracks step from key to key.
        AlphaTrack::Integer(s) => AnyTrack::Integer(Track {
            interpolation: Interpolation::None,
            global_sequence_id: s.global_sequence_id,
            keys: s
                .keys
                .iter()
                .map(|k| Key {
                    time: k.time as i32,
                    value: k.value,
                    in_tan: 0,
                    out_tan: 0,
                })
                .collect(),
        }),
        AlphaTrack::Event(_) => return None,
    })
}

impl AlphaModel {
    /// Converts to a version-800 Warcraft III model, with the list of what could not be
    /// carried over. The result encodes with [`crate::mdx::to_bytes`].
    pub fn to_model(&self) -> (Model, Vec<Loss>) {
        let mut cx = Cx::default();
        let mut m = Model {
            version: crate::spec::version::CLASSIC,
            ..Model::default()
        };
        self.header(&mut cx, &mut m);
        self.materials_to(&mut cx, &mut m);
        geometry::geosets(self, &mut cx, &mut m);
        nodes::nodes(self, &mut cx, &mut m);
        self.chunk_losses(&mut cx);
        (m, cx.losses)
    }

    fn header(&self, cx: &mut Cx, m: &mut Model) {
        let infos = self.chunks.iter().filter_map(|c| match c {
            Chunk::Model(i) => Some(i),
            _ => None,
        });
        for (i, info) in infos.enumerate() {
            if i > 0 {
                cx.lose("MODL", "a second MODL chunk");
                continue;
            }
            m.info = WcInfo {
                tail: Vec::new(),
                ..info.info.clone()
            };
            if info.flags != 0 {
                cx.lose("MODL", format!("flags byte {:#x}", info.flags));
            }
            cx.tail("MODL", &info.info.tail);
        }
        for (i, s) in self.sequences().enumerate() {
            let rec = format!("Sequence[{i}] {:?}", s.name.text());
            if s.frequency != 0.0 {
                cx.lose(
                    &rec,
                    format!(
                        "frequency {} (Warcraft III's rarity is another measure)",
                        s.frequency
                    ),
                );
            }
            if s.replay != [0, 0] {
                cx.lose(&rec, format!("replay range {:?}", s.replay));
            }
            if s.blend_time != 0 {
                cx.lose(&rec, format!("blend time {}", s.blend_time));
            }
            m.sequences.push(WcSequence {
                name: s.name.clone(),
                interval: s.interval,
                move_speed: s.move_speed,
                flags: s.flags,
                rarity: 0.0,
                sync_point: 0,
                extent: s.bounds,
            });
        }
        m.global_sequences = self.global_sequences().copied().collect();
        m.pivot_points = self.pivots().copied().collect();
    }

    fn materials_to(&self, cx: &mut Cx, m: &mut Model) {
        for (i, tex) in self.textures().enumerate() {
            if tex.replaceable_id != 0 {
                cx.lose(
                    &format!("Texture[{i}]"),
                    format!(
                        "replaceable id {} names an alpha texture component; Warcraft III reads the number with its own meaning",
                        tex.replaceable_id
                    ),
                );
            }
            // The same record in both families.
            m.textures.push(tex.clone());
        }
        for (i, mat) in self.materials().enumerate() {
            let rec = format!("Material[{i}]");
            cx.tail(&rec, &mat.tail);
            let layers = mat
                .layers
                .iter()
                .enumerate()
                .map(|(j, l)| layer(cx, &format!("{rec} > Layer[{j}]"), l))
                .collect();
            m.materials.push(WcMaterial {
                priority_plane: mat.priority_plane,
                layers,
                ..WcMaterial::default()
            });
        }
        for (i, ta) in self.texture_animations().enumerate() {
            let rec = format!("TextureAnimation[{i}]");
            cx.tail(&rec, &ta.tail);
            m.texture_animations.push(WcTextureAnimation {
                tracks: cx.tracks(&rec, &ta.tracks, map::TEXTURE_ANIMATION),
                tail: Vec::new(),
            });
        }
    }

    fn chunk_losses(&self, cx: &mut Cx) {
        for c in &self.chunks {
            let tag = c.tag().text();
            match c {
                Chunk::Unknown(u) => cx.lose(&tag, format!("unknown chunk of {} bytes", u.data.len())),
                Chunk::Collision(col) => cx.lose(
                    &tag,
                    format!(
                        "collision mesh ({} vertices, {} triangle indices): Warcraft III's CLID holds node shapes",
                        col.vertices.len(),
                        col.triangles.len()
                    ),
                ),
                Chunk::Version { tail } => cx.tail(&tag, tail),
                Chunk::Materials { unused, .. } | Chunk::Attachments { unused, .. } if *unused != 0 => {
                    cx.lose(&tag, format!("the unused u32 after the count ({unused})"))
                }
                _ => {}
            }
            if let Some(n) = chunk_tail_len(c) {
                if n > 0 {
                    cx.lose(&tag, format!("{n} bytes after the last record"));
                }
            }
        }
        cx.tail("end of file", &self.trailing);
    }
}

fn chunk_tail_len(c: &Chunk) -> Option<usize> {
    Some(match c {
        Chunk::Sequences(r) => r.tail.len(),
        Chunk::GlobalSequences(r) => r.tail.len(),
        Chunk::Materials { materials: r, .. } => r.tail.len(),
        Chunk::Textures(r) => r.tail.len(),
        Chunk::TextureAnimations(r) => r.tail.len(),
        Chunk::Geosets(r) => r.tail.len(),
        Chunk::BatchedGeosets(r) => r.tail.len(),
        Chunk::GeosetAnimations(r) => r.tail.len(),
        Chunk::Bones(r) => r.tail.len(),
        Chunk::Lights(r) => r.tail.len(),
        Chunk::Helpers(r) => r.tail.len(),
        Chunk::Attachments { attachments: r, .. } => r.tail.len(),
        Chunk::Pivots(r) => r.tail.len(),
        Chunk::ParticleEmitters(r) => r.tail.len(),
        Chunk::Cameras(r) => r.tail.len(),
        Chunk::Events(r) => r.tail.len(),
        Chunk::ParticleEmitters2(r) => r.tail.len(),
        Chunk::HitTestShapes(r) => r.tail.len(),
        Chunk::RibbonEmitters(r) => r.tail.len(),
        Chunk::Collision(c) => c.tail.len(),
        Chunk::Version { .. } | Chunk::Model(_) | Chunk::Unknown(_) => return None,
    })
}

fn layer(cx: &mut Cx, rec: &str, l: &AlphaLayer) -> WcLayer {
    cx.tail(rec, &l.tail);
    let dropped = l.flags & !SHARED_LAYER_FLAGS;
    if dropped != 0 {
        cx.lose(
            rec,
            format!("flag bits {dropped:#x} (wrap width/height, 1500's 0x100)"),
        );
    }
    let coord_id = u32::try_from(l.coord_id).unwrap_or_else(|_| {
        cx.lose(
            rec,
            format!("coord id {} (none); UV set 0 used", l.coord_id),
        );
        0
    });
    WcLayer {
        filter_mode: l.blend_mode,
        flags: l.flags & SHARED_LAYER_FLAGS,
        texture_id: l.texture_id,
        texture_animation_id: l.transform_id,
        coord_id,
        alpha: l.alpha,
        tracks: cx.tracks(rec, &l.tracks, map::LAYER),
        ..WcLayer::default()
    }
}
