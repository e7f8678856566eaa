//! Warcraft III model to alpha model, for the shared parts (the reverse of
//! [`AlphaModel::to_model`]): the header, sequences, textures, materials and tracks here;
//! geosets in [`geometry`], nodes in [`nodes`].

mod geometry;
mod nodes;

use crate::alpha::tracks::{AlphaAnimation, IntKey, SimpleTrack};
use crate::alpha::*;
use crate::model::{AnyTrack, Model, Tracks};

use super::{map, Cx, Loss, TrackMap, SHARED_LAYER_FLAGS};
use geometry::{batched, geoset_animations, layered};
use nodes::nodes;

impl AlphaModel {
    /// Builds an alpha model of `version` (1300, 1400 or 1500) from a Warcraft III model,
    /// with the list of what could not be carried.
    pub fn from_model(m: &Model, version: u32) -> (AlphaModel, Vec<Loss>) {
        let mut cx = Cx::default();
        let mut chunks = vec![
            Chunk::Version { tail: Vec::new() },
            Chunk::Model(info(&mut cx, m)),
        ];
        let mut push = |c: Chunk, empty: bool| {
            if !empty {
                chunks.push(c);
            }
        };
        let seqs: Vec<Sequence> = m
            .sequences
            .iter()
            .enumerate()
            .map(|(i, s)| sequence(&mut cx, i, s))
            .collect();
        push(
            Chunk::Sequences(Records::from(seqs.clone())),
            seqs.is_empty(),
        );
        push(
            Chunk::GlobalSequences(m.global_sequences.clone().into()),
            m.global_sequences.is_empty(),
        );
        let materials = materials(&mut cx, m);
        let no_materials = materials.is_empty();
        push(
            Chunk::Materials {
                unused: 0,
                materials: materials.into(),
            },
            no_materials,
        );
        push(
            Chunk::Textures(textures(&mut cx, m).into()),
            m.textures.is_empty(),
        );
        let txan = m
            .texture_animations
            .iter()
            .enumerate()
            .map(|(i, ta)| TextureAnimation {
                tracks: tracks(
                    &mut cx,
                    &format!("TextureAnimation[{i}]"),
                    &ta.tracks,
                    map::TEXTURE_ANIMATION,
                ),
                tail: Vec::new(),
            });
        push(
            Chunk::TextureAnimations(txan.collect::<Vec<_>>().into()),
            m.texture_animations.is_empty(),
        );
        let bone_ids: Vec<u32> = m.bones.iter().map(|b| b.node.object_id).collect();
        let geosets = m.geosets.iter().enumerate();
        if version >= BATCHED_GEOSETS {
            let g: Vec<_> = geosets
                .map(|(i, g)| batched(&mut cx, i, g, &bone_ids))
                .collect();
            push(Chunk::BatchedGeosets(g.into()), m.geosets.is_empty());
        } else {
            let g: Vec<_> = geosets.map(|(i, g)| layered(&mut cx, i, g)).collect();
            push(Chunk::Geosets(g.into()), m.geosets.is_empty());
        }
        push(
            Chunk::GeosetAnimations(geoset_animations(&mut cx, m).into()),
            m.geoset_animations.is_empty(),
        );
        nodes(&mut cx, m, &mut push);
        for (what, n) in [
            ("face effects", m.face_effects.len()),
            ("bind poses", m.bind_poses.len()),
            ("unknown chunks", m.unknown_chunks.len()),
        ] {
            if n > 0 {
                cx.lose("model", format!("{n} {what}"));
            }
        }
        let model = AlphaModel {
            version,
            chunks,
            trailing: Vec::new(),
        };
        (model, cx.losses)
    }
}

/// Converts the tracks the record kind shares (`map`); any other track is a loss.
fn tracks(cx: &mut Cx, rec: &str, src: &Tracks, map: TrackMap) -> AlphaTracks {
    let mut out = Vec::new();
    for a in src.iter() {
        let Some(to) = map.to_alpha(a.tag) else {
            cx.lose(
                rec,
                format!("track {} has no alpha counterpart here", a.tag),
            );
            continue;
        };
        let track = match &a.track {
            AnyTrack::Float(t) => AlphaTrack::Float(t.clone()),
            AnyTrack::Vector3(t) => AlphaTrack::Vector3(t.clone()),
            AnyTrack::Quaternion(t) => AlphaTrack::Quaternion(crate::model::Track {
                interpolation: t.interpolation,
                global_sequence_id: t.global_sequence_id,
                keys: t
                    .keys
                    .iter()
                    .map(|k| crate::model::Key {
                        time: k.time,
                        value: PackedQuaternion::pack(k.value),
                        in_tan: pack_tangent(t.interpolation, k.in_tan),
                        out_tan: pack_tangent(t.interpolation, k.out_tan),
                    })
                    .collect(),
            }),
            AnyTrack::Integer(t) => {
                if t.interpolation != crate::model::Interpolation::None
                    || t.keys.iter().any(|k| k.time < 0)
                {
                    cx.lose(
                        rec,
                        format!(
                            "track {}: interpolation or negative times (simple tracks step)",
                            a.tag
                        ),
                    );
                }
                AlphaTrack::Integer(SimpleTrack {
                    global_sequence_id: t.global_sequence_id,
                    keys: t
                        .keys
                        .iter()
                        .map(|k| IntKey {
                            time: k.time as u32,
                            value: k.value,
                        })
                        .collect(),
                })
            }
        };
        out.push(AlphaAnimation { tag: to, track });
    }
    AlphaTracks(out)
}

fn pack_tangent(i: crate::model::Interpolation, q: [f32; 4]) -> PackedQuaternion {
    if i.has_tangents() {
        PackedQuaternion::pack(q)
    } else {
        PackedQuaternion::default()
    }
}

fn info(cx: &mut Cx, m: &Model) -> ModelInfo {
    cx.tail("MODL", &m.info.tail);
    ModelInfo {
        info: crate::model::ModelInfo {
            tail: Vec::new(),
            ..m.info.clone()
        },
        flags: 0,
    }
}

fn sequence(cx: &mut Cx, i: usize, s: &crate::model::Sequence) -> Sequence {
    let rec = format!("Sequence[{i}] {:?}", s.name.text());
    if s.rarity != 0.0 || s.sync_point != 0 {
        cx.lose(
            &rec,
            format!("rarity {} and sync point {}", s.rarity, s.sync_point),
        );
    }
    Sequence {
        name: s.name.clone(),
        interval: s.interval,
        move_speed: s.move_speed,
        flags: s.flags,
        bounds: s.extent,
        ..Sequence::default()
    }
}

fn textures(cx: &mut Cx, m: &Model) -> Vec<Texture> {
    let mut out = Vec::new();
    for (i, tex) in m.textures.iter().enumerate() {
        if tex.replaceable_id != 0 {
            cx.lose(
                &format!("Texture[{i}]"),
                format!("replaceable id {} changes meaning", tex.replaceable_id),
            );
        }
        // The same record in both families.
        out.push(tex.clone());
    }
    out
}

fn materials(cx: &mut Cx, m: &Model) -> Vec<Material> {
    let mut out = Vec::new();
    for (i, mat) in m.materials.iter().enumerate() {
        let rec = format!("Material[{i}]");
        cx.tail(&rec, &mat.tail);
        if mat.flags != 0 {
            cx.lose(&rec, format!("flags {:#x}", mat.flags));
        }
        if !mat.shader.is_empty() {
            cx.lose(&rec, format!("shader name {:?}", mat.shader.text()));
        }
        let mut layers = Vec::new();
        for (j, l) in mat.layers.iter().enumerate() {
            let rec = format!("{rec} > Layer[{j}]");
            cx.tail(&rec, &l.tail);
            if l.flags & !SHARED_LAYER_FLAGS != 0 || !l.texture_slots.is_empty() {
                cx.lose(
                    &rec,
                    format!(
                        "flag bits {:#x} or texture slots",
                        l.flags & !SHARED_LAYER_FLAGS
                    ),
                );
            }
            let reforged =
                l.emissive_gain != 0.0 || l.fresnel_color != [0.0; 3] || l.fresnel_opacity != 0.0;
            if reforged || l.fresnel_team_color != 0.0 || l.shader_type_id != 0 {
                cx.lose(&rec, "Reforged shading fields");
            }
            layers.push(Layer {
                blend_mode: l.filter_mode,
                flags: l.flags & SHARED_LAYER_FLAGS,
                texture_id: l.texture_id,
                transform_id: l.texture_animation_id,
                coord_id: l.coord_id as i32,
                alpha: l.alpha,
                tracks: tracks(cx, &rec, &l.tracks, map::LAYER),
                tail: Vec::new(),
            });
        }
        out.push(Material {
            priority_plane: mat.priority_plane,
            layers,
            tail: Vec::new(),
        });
    }
    out
}
