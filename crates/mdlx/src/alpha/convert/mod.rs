//! Alpha model to Warcraft III model (version 800), where the two share meaning.
//!
//! Kept: model name, bounds and blend time; sequences (name, interval, move speed, the
//! non-looping flag, bounds); global sequences; textures; materials and layers (blend mode,
//! the shading flags both know, texture, texture animation, UV set, alpha, `KMTA`/`KMTF`);
//! texture animations; geosets (see the `geometry` module); geoset animations; every node with its
//! object id, parent, inheritance/billboard flags and `KGTR KGRT KGSC` tracks (packed
//! rotations unpacked); pivots; lights, attachments, both particle emitters, ribbons,
//! cameras and event objects with the fields and tracks Warcraft III has (`KVIS` becomes
//! the record's own visibility track: `KLAV`, `KATV`, `KPEV`, `KP2V`, `KRVS`); hit-test
//! boxes and spheres as collision shapes (same object ids, so pivots still line up).
//!
//! Everything else is reported as a [`Loss`] naming the record: alpha-only fields that are
//! not at their neutral value, tracks Warcraft III has no place for, collision meshes,
//! unknown chunks and kept tails.
//!
//! The other direction, [`AlphaModel::from_model`], is in [`from_model`].

pub mod from_model;
mod geometry;
mod nodes;

use crate::format::track as t;
use crate::model::{
    AnyTrack, Interpolation, Key, Layer as WcLayer, Material as WcMaterial, Model,
    ModelInfo as WcInfo, Sequence as WcSequence, Tag, Texture as WcTexture,
    TextureAnimation as WcTextureAnimation, Track, Tracks,
};

use super::tracks::{tag as at, AlphaTrack, AlphaTracks, PackedQuaternion};
use super::{AlphaModel, Chunk};

/// Something of the alpha model that the Warcraft III model could not hold (the same
/// report type as every conversion's).
use crate::Loss;

/// Collects losses while converting.
#[derive(Default)]
struct Cx {
    losses: Vec<Loss>,
}

impl Cx {
    fn lose(&mut self, record: &str, what: impl Into<String>) {
        self.losses.push(Loss {
            place: record.to_string(),
            what: what.into(),
        });
    }

    /// Reports kept bytes that have no place in the Warcraft III model.
    fn tail(&mut self, record: &str, bytes: &[u8]) {
        if !bytes.is_empty() {
            self.lose(
                record,
                format!("{} unparsed bytes after the known fields", bytes.len()),
            );
        }
    }

    /// Converts tracks by the `(alpha tag, Warcraft III tag)` pairs of the record kind;
    /// any other track is a loss.
    fn tracks(&mut self, record: &str, src: &AlphaTracks, map: &[(Tag, Tag)]) -> Tracks {
        let mut out = Vec::new();
        for a in &src.0 {
            let Some(&(_, to)) = map.iter().find(|(from, _)| *from == a.tag) else {
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

/// Track tag pairs by record kind.
mod map {
    use super::{at, t, Tag};
    pub const NODE: &[(Tag, Tag)] = &[(t::KGTR, t::KGTR), (t::KGRT, t::KGRT), (t::KGSC, t::KGSC)];
    pub const LAYER: &[(Tag, Tag)] = &[(t::KMTA, t::KMTA), (t::KMTF, t::KMTF)];
    pub const TEXTURE_ANIMATION: &[(Tag, Tag)] =
        &[(t::KTAT, t::KTAT), (t::KTAR, t::KTAR), (t::KTAS, t::KTAS)];
    pub const GEOSET_ANIMATION: &[(Tag, Tag)] = &[(t::KGAO, t::KGAO), (t::KGAC, t::KGAC)];
    pub const LIGHT: &[(Tag, Tag)] = &[
        (t::KLAS, t::KLAS),
        (t::KLAE, t::KLAE),
        (t::KLAC, t::KLAC),
        (t::KLAI, t::KLAI),
        (t::KLBC, t::KLBC),
        (t::KLBI, t::KLBI),
        (at::KVIS, t::KLAV),
    ];
    pub const ATTACHMENT: &[(Tag, Tag)] = &[(at::KVIS, t::KATV)];
    pub const PARTICLE_EMITTER: &[(Tag, Tag)] = &[
        (t::KPEE, t::KPEE),
        (t::KPEG, t::KPEG),
        (t::KPLN, t::KPLN),
        (t::KPLT, t::KPLT),
        (t::KPEL, t::KPEL),
        (t::KPES, t::KPES),
        (at::KVIS, t::KPEV),
    ];
    /// `KPLN` (longitude), `KLIF` (life) and `KP2Z` (z source) have no PRE2 track in
    /// Warcraft III.
    pub const PARTICLE_EMITTER2: &[(Tag, Tag)] = &[
        (t::KP2S, t::KP2S),
        (t::KP2R, t::KP2R),
        (t::KP2L, t::KP2L),
        (t::KP2G, t::KP2G),
        (t::KP2E, t::KP2E),
        (t::KP2W, t::KP2W),
        (t::KP2N, t::KP2N),
        (at::KVIS, t::KP2V),
    ];
    pub const RIBBON: &[(Tag, Tag)] = &[
        (t::KRHA, t::KRHA),
        (t::KRHB, t::KRHB),
        (t::KRAL, t::KRAL),
        (t::KRCO, t::KRCO),
        (t::KRTX, t::KRTX),
        (at::KVIS, t::KRVS),
    ];
    /// Warcraft III cameras have no visibility track.
    pub const CAMERA: &[(Tag, Tag)] = &[(t::KCTR, t::KCTR), (t::KTTR, t::KTTR), (t::KCRL, t::KCRL)];
}

impl AlphaModel {
    /// Converts to a version-800 Warcraft III model, with the list of what could not be
    /// carried over. The result encodes with [`crate::mdx::to_bytes`].
    pub fn to_model(&self) -> (Model, Vec<Loss>) {
        let mut cx = Cx::default();
        let mut m = Model {
            version: crate::format::version::CLASSIC,
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
                name: info.name.clone(),
                animation_file: info.animation_file.clone(),
                extent: info.bounds,
                blend_time: info.blend_time,
                tail: Vec::new(),
            };
            if info.flags != 0 {
                cx.lose("MODL", format!("flags byte {:#x}", info.flags));
            }
            cx.tail("MODL", &info.tail);
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
            m.textures.push(WcTexture {
                replaceable_id: tex.replaceable_id,
                path: tex.path.clone(),
                flags: tex.flags,
            });
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

/// Layer flag bits both formats give the same meaning.
const SHARED_LAYER_FLAGS: u32 = 0x1 | 0x2 | 0x10 | 0x20 | 0x40 | 0x80;

fn layer(cx: &mut Cx, rec: &str, l: &super::Layer) -> WcLayer {
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
