//! Who refers to which texture, material, texture animation and global sequence.

use crate::format::track as tk;
use crate::model::Model;

/// Reference counts per index.
pub(crate) struct Usage {
    pub textures: Vec<u32>,
    pub materials: Vec<u32>,
    pub texture_animations: Vec<u32>,
    pub global_sequences: Vec<u32>,
}

fn count(v: &mut [u32], id: i64) {
    if let Some(n) = usize::try_from(id).ok().and_then(|i| v.get_mut(i)) {
        *n += 1;
    }
}

impl Usage {
    pub fn of(m: &Model) -> Usage {
        let mut u = Usage {
            textures: vec![0; m.textures.len()],
            materials: vec![0; m.materials.len()],
            texture_animations: vec![0; m.texture_animations.len()],
            global_sequences: vec![0; m.global_sequences.len()],
        };
        for g in &m.geosets {
            count(&mut u.materials, g.material_id.into());
        }
        for r in &m.ribbon_emitters {
            count(&mut u.materials, r.material_id.into());
        }
        for mat in &m.materials {
            for l in &mat.layers {
                if l.texture_slots.is_empty() {
                    count(&mut u.textures, l.texture_id.into());
                }
                for s in &l.texture_slots {
                    count(&mut u.textures, s.texture_id.into());
                    for k in s.texture_id_track.iter().flat_map(|t| &t.keys) {
                        count(&mut u.textures, k.value.into());
                    }
                }
                for k in l.tracks.integer(tk::KMTF).iter().flat_map(|t| &t.keys) {
                    count(&mut u.textures, k.value.into());
                }
                count(&mut u.texture_animations, l.texture_animation_id.into());
            }
        }
        for e in &m.particle_emitters2 {
            count(&mut u.textures, e.texture_id.into());
        }
        super::anim::each_track(m, &mut |_, _, t| {
            let g = match t {
                crate::model::AnyTrack::Float(t) => t.global_sequence_id,
                crate::model::AnyTrack::Vector3(t) => t.global_sequence_id,
                crate::model::AnyTrack::Quaternion(t) => t.global_sequence_id,
                crate::model::AnyTrack::Integer(t) => t.global_sequence_id,
            };
            count(&mut u.global_sequences, g.into());
        });
        for e in &m.event_objects {
            if let Some(t) = &e.track {
                count(&mut u.global_sequences, t.global_sequence_id.into());
            }
        }
        u
    }
}
