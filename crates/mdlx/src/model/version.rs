//! Moving a Warcraft III model to another format version: [`Model::to_version`].

use crate::spec::{track, version as ver};
use crate::Loss;

use super::declare::Retarget;
use super::{Layer, Material, Model, Tag, TextureSlot};

use super::shader_type::{HD_DEFAULT_UNIT as HD_SHADER_TYPE, HD_SHADER};

/// Texture roles of an HD material: diffuse, normal, ORM, emissive, team color,
/// reflections.
const HD_ROLES: usize = 6;

/// Whether `version` is a Warcraft III version [`Model::to_version`] writes: 800, or 900 to
/// 1800 in steps of 100.
pub fn is_known(version: u32) -> bool {
    version == ver::CLASSIC
        || ((ver::REFORGED..=ver::NEWEST).contains(&version) && version % 100 == 0)
}

impl Model {
    /// This model as a model of `version`, with what did not survive. Err for a version not
    /// in [`is_known`], or a model whose own version is not one.
    ///
    /// What each version adds (the `wc3` crate's `versions.rs`, Retera's Model Studio, and the
    /// corpus):
    ///
    /// | version | adds |
    /// |---|---|
    /// | 900 | geoset LOD and LOD name, TANG and SKIN; layer emissive gain (KMTE); material shader name; BPOS, FAFX and CORN chunks |
    /// | 1000 | layer Fresnel color, opacity and team color (KFC3, KFCA, KFTC) |
    /// | 1100 | layer shader type and texture slots; the material shader name goes |
    /// | 1200 | light shadow intensity; camera depth of field (IDUF, ELAF, PTSF) and layout number 3 |
    /// | 1300 | light shadow casting and its range (KLSS, KLSE) |
    /// | 1400 | SKIN values two bytes wide |
    /// | 1600 | light falloff coefficients (KLQF, KLLF, KLDA) |
    ///
    /// A field the target lacks is a [`Loss`] when it holds anything but what the game assumes
    /// without it (the defaults below), and an animation of it is a loss whenever present. A
    /// field the target adds gets that default: layer emissive gain 1, Fresnel color white
    /// with opacity and team color 0 (what every layer of the corpus's 1000 and 1100 files
    /// without Fresnel holds), light falloff 0.0005 / 0 / 0.00001 (the game's stock values, as
    /// the `wc3` crate and Retera's notes give them), 0 for the rest.
    ///
    /// Across 1100, materials change shape, as Blizzard's files show:
    /// - up: a 900/1000 material with the shader `Shader_HD_DefaultUnit` and six layers, the
    ///   first carrying the material's settings and the other five plain texture roles (filter
    ///   mode None, no flags, alpha 1, no animation, Fresnel off; or copies of the first: 104
    ///   of the corpus's 104), becomes one layer
    ///   of shader type 1 with six texture slots numbered 0 to 5 (what all 85 such 1100 layers
    ///   of the corpus hold); any other layer gets one slot, number 0, holding its texture and
    ///   its texture animation (KMTF), and shader type 0.
    /// - down: the reverse; a layer that fits neither shape loses what does not fit.
    ///
    /// Moving up to any version and back to the original loses nothing and gives back the same
    /// bytes whenever no loss was reported (tested over the corpus in `tests/versions.rs`).
    pub fn to_version(&self, version: u32) -> Result<(Model, Vec<Loss>), String> {
        let from = self.version;
        for v in [from, version] {
            if !is_known(v) {
                return Err(format!(
                    "version {v} is not a Warcraft III version this tool converts \
                     (800, or 900 to {} in steps of 100)",
                    ver::NEWEST
                ));
            }
        }
        let mut m = self.clone();
        m.version = version;
        let mut losses = Vec::new();
        if from == version {
            return Ok((m, losses));
        }
        super::for_each_kind!(retarget_rows!(m, from, version, losses));
        if version < ver::REFORGED {
            for (what, n) in [
                ("bind poses (BPOS, 900+)", m.bind_poses.len()),
                ("face effects (FAFX, 900+)", m.face_effects.len()),
                ("popcorn emitters (CORN, 900+)", m.popcorn_emitters.len()),
            ] {
                if n > 0 {
                    losses.push(Loss::new("", format!("{n} {what}")));
                }
            }
            m.bind_poses.clear();
            m.face_effects.clear();
            m.popcorn_emitters.clear();
        }
        if version < ver::CAMERA_LAYOUT {
            for (i, c) in m.cameras.iter_mut().enumerate() {
                for (tag, what) in [
                    (track::IDUF, "focus distance"),
                    (track::ELAF, "focal length"),
                    (track::PTSF, "f-stop"),
                ] {
                    if super::declare::TrackList::remove_tag(&mut c.tracks, tag) {
                        let place = format!("Camera[{i}] {:?}", c.name.text());
                        losses.push(Loss::new(place, format!("{what} animation (since 1200)")));
                    }
                }
            }
        }
        Ok((m, losses))
    }
}

/// Retargets every record of every registry row, naming each loss by record.
macro_rules! retarget_rows {
    (($m:ident, $from:ident, $to:ident, $losses:ident)
        $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident
        $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        $(
            for (i, r) in $m.$field.iter_mut().enumerate() {
                Retarget::retarget(r, $from, $to, &mut |what| {
                    $losses.push(Loss::new(format!("{}[{i}]", $name), what))
                });
            }
        )*
    };
}
use retarget_rows;

macro_rules! unchanged {
    ($($t:ty),*) => {$(
        impl Retarget for $t {
            fn retarget(&mut self, _from: u32, _to: u32, _lost: &mut dyn FnMut(String)) {}
        }
    )*};
}
unchanged!(u32, [f32; 3], [f32; 12], super::CollisionShape);

impl Retarget for super::Geoset {
    fn retarget(&mut self, from: u32, to: u32, lost: &mut dyn FnMut(String)) {
        if (from >= ver::SKIN_WIDE) != (to >= ver::SKIN_WIDE) {
            self.skin_wide = to >= ver::SKIN_WIDE;
            let wide = self
                .skin
                .as_ref()
                .is_some_and(|s| s.iter().any(|&v| v > 255));
            if !self.skin_wide && wide && to >= ver::REFORGED {
                lost("skin weights naming matrix groups past 255 (two-byte SKIN, 1400+)".into());
                self.skin = None;
            }
        }
        if from >= ver::REFORGED && to < ver::REFORGED {
            if self.lod != 0 || !self.lod_name.is_empty() {
                lost("level of detail and its name (900+)".into());
            }
            if self.tangents.take().is_some() {
                lost("tangents (TANG, 900+)".into());
            }
            if self.skin.take().is_some() {
                lost("skin weights (SKIN, 900+; the vertex groups stay)".into());
            }
            self.lod = 0;
            self.lod_name = Default::default();
        }
    }
}

/// A Fresnel color, opacity and team color of a layer without Fresnel (1000+ adds them).
const NO_FRESNEL: ([f32; 3], f32, f32) = ([1.0; 3], 0.0, 0.0);

fn same_f32(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits()
}

/// Removes the layer's tracks of `tags`, each a loss.
fn drop_tracks(l: &mut Layer, tags: &[Tag], what: &str, lost: &mut dyn FnMut(String)) {
    for &tag in tags {
        if super::declare::TrackList::remove_tag(&mut l.tracks, tag) {
            lost(format!("{what} animation {}", tag.text()));
        }
    }
}

/// The layer's own fields of the versions between `from` and `to` (not the slots).
fn retarget_layer(l: &mut Layer, from: u32, to: u32, lost: &mut dyn FnMut(String)) {
    if from >= ver::REFORGED && to < ver::REFORGED {
        if !same_f32(l.emissive_gain, 1.0) {
            lost(format!("emissive gain {} (900+)", l.emissive_gain));
        }
        drop_tracks(l, &[track::KMTE], "emissive gain (900+)", lost);
    }
    if from < ver::REFORGED && to >= ver::REFORGED {
        l.emissive_gain = 1.0;
    }
    if from >= ver::FRESNEL && to < ver::FRESNEL {
        let (c, o, t) = NO_FRESNEL;
        let kept = l.fresnel_color.iter().zip(c).all(|(a, b)| same_f32(*a, b))
            && same_f32(l.fresnel_opacity, o)
            && same_f32(l.fresnel_team_color, t);
        if !kept {
            lost("Fresnel color, opacity and team color (1000+)".into());
        }
        drop_tracks(
            l,
            &[track::KFC3, track::KFCA, track::KFTC],
            "Fresnel (1000+)",
            lost,
        );
    }
    if (from < ver::FRESNEL) != (to < ver::FRESNEL) {
        (l.fresnel_color, l.fresnel_opacity, l.fresnel_team_color) = NO_FRESNEL;
    }
}

/// One of the five plain texture-role layers after the first of an HD material before 1100:
/// filter mode None, no flags, no texture animation, alpha and emissive gain 1, Fresnel
/// off. The corpus's HD materials hold these, except 2 (of one author) that repeat the first
/// layer in every role ([`role_copies`]).
fn role_layer(texture_id: i32) -> Layer {
    Layer {
        texture_id,
        texture_animation_id: -1,
        alpha: 1.0,
        emissive_gain: 1.0,
        fresnel_color: NO_FRESNEL.0,
        ..Layer::default()
    }
}

/// A role layer that repeats the first layer but for the texture.
fn role_copies(texture_id: i32, first: &Layer) -> Layer {
    Layer {
        texture_id,
        ..first.clone()
    }
}

/// Whether the material is one HD material of six layers before 1100 that fits one 1100
/// layer (see the module documentation).
fn hd_before_slots(m: &Material) -> bool {
    m.shader.as_bytes() == HD_SHADER.as_bytes()
        && m.layers.len() == HD_ROLES
        && m.layers[0].tracks.iter().all(|a| a.tag != track::KMTF)
        && m.layers[1..].iter().all(|l| {
            *l == role_layer(l.texture_id) || *l == role_copies(l.texture_id, &m.layers[0])
        })
}

/// A loss of layer `i`.
fn sub(lost: &mut dyn FnMut(String), i: usize, what: String) {
    lost(format!("Layer[{i}] {what}"));
}

/// Whether the material is one HD layer of 1100+ that six layers before 1100 hold.
fn hd_with_slots(m: &Material) -> bool {
    m.layers.len() == 1 && {
        let l = &m.layers[0];
        l.shader_type_id == HD_SHADER_TYPE
            && l.texture_slots.len() == HD_ROLES
            && (l.texture_id == l.texture_slots[0].texture_id || l.texture_id == 0)
            && l.texture_slots
                .iter()
                .enumerate()
                .all(|(i, s)| s.role == i as u32 && s.texture_id_track.is_none())
            && l.tracks.iter().all(|a| a.tag != track::KMTF)
    }
}

impl Retarget for Material {
    fn retarget(&mut self, from: u32, to: u32, lost: &mut dyn FnMut(String)) {
        let shader_from = (ver::REFORGED..ver::TEXTURE_SLOTS).contains(&from);
        let shader_to = (ver::REFORGED..ver::TEXTURE_SLOTS).contains(&to);
        let slots_from = from >= ver::TEXTURE_SLOTS;
        let slots_to = to >= ver::TEXTURE_SLOTS;
        if !slots_from && slots_to {
            if shader_from && hd_before_slots(self) {
                if self.layers[1..]
                    .iter()
                    .any(|l| *l != role_layer(l.texture_id))
                {
                    lost(
                        "the texture-role layers' copies of the first layer's settings \
                         (1100 has one layer; they come back as plain roles)"
                            .into(),
                    );
                }
                let textures: Vec<i32> = self.layers.iter().map(|l| l.texture_id).collect();
                self.layers.truncate(1);
                let l = &mut self.layers[0];
                l.shader_type_id = HD_SHADER_TYPE;
                l.texture_slots = textures
                    .into_iter()
                    .enumerate()
                    .map(|(i, texture_id)| TextureSlot {
                        texture_id,
                        role: i as u32,
                        texture_id_track: None,
                    })
                    .collect();
            } else {
                if shader_from && !self.shader.is_empty() {
                    lost(format!(
                        "shader {:?} (900 and 1000 only; not an HD material of six texture roles)",
                        self.shader.text()
                    ));
                }
                for (i, l) in self.layers.iter_mut().enumerate() {
                    let kmtf = l.tracks.iter().position(|a| a.tag == track::KMTF);
                    if kmtf.is_some_and(|p| p + 1 != l.tracks.len()) {
                        sub(
                            lost,
                            i,
                            "texture animation order (KMTF moves into slot 0 and comes back last)"
                                .into(),
                        );
                    }
                    let texture_id_track = kmtf.map(|p| match l.tracks.0.remove(p).track {
                        super::AnyTrack::Integer(t) => t,
                        _ => unreachable!("KMTF holds integers"),
                    });
                    l.shader_type_id = 0;
                    l.texture_slots = vec![TextureSlot {
                        texture_id: l.texture_id,
                        role: 0,
                        texture_id_track,
                    }];
                }
            }
            self.shader = Default::default();
        } else if slots_from && !slots_to {
            if hd_with_slots(self) {
                let l = self.layers[0].clone();
                if l.texture_id != l.texture_slots[0].texture_id {
                    lost(format!(
                        "Layer[0] texture id {} of the layer itself (unused from 1100: its slot 0 holds {}, which stays)",
                        l.texture_id, l.texture_slots[0].texture_id
                    ));
                }
                if !shader_to {
                    lost(format!(
                        "HD shading (shader type 1; only 900 and 1000 name the {HD_SHADER} shader)"
                    ));
                } else {
                    self.shader = super::FixedString::from_field(HD_SHADER.as_bytes());
                }
                let mut first = l.clone();
                first.texture_id = l.texture_slots[0].texture_id;
                first.shader_type_id = 0;
                first.texture_slots.clear();
                self.layers = std::iter::once(first)
                    .chain(
                        l.texture_slots[1..]
                            .iter()
                            .map(|s| role_layer(s.texture_id)),
                    )
                    .collect();
            } else {
                for (i, l) in self.layers.iter_mut().enumerate() {
                    if l.shader_type_id != 0 {
                        sub(lost, i, format!("shader type {} (1100+)", l.shader_type_id));
                    }
                    let mut slots = std::mem::take(&mut l.texture_slots).into_iter();
                    if let Some(s) = slots.next() {
                        if s.role != 0 {
                            sub(lost, i, format!("texture slot 0 role {} (1100+)", s.role));
                        }
                        if l.texture_id != s.texture_id {
                            sub(lost, i, format!(
                                "texture id {} of the layer itself (its slot 0 holds {}, which stays)",
                                l.texture_id, s.texture_id
                            ));
                            l.texture_id = s.texture_id;
                        }
                        if let Some(t) = s.texture_id_track {
                            l.tracks.0.push(super::Animation {
                                tag: track::KMTF,
                                track: super::AnyTrack::Integer(t),
                            });
                        }
                    }
                    let rest = slots.count();
                    if rest > 0 {
                        sub(
                            lost,
                            i,
                            format!("{rest} texture slots after the first (1100+)"),
                        );
                    }
                    l.shader_type_id = 0;
                }
            }
        } else if shader_from && !shader_to && !self.shader.is_empty() {
            lost(format!(
                "shader {:?} (900 and 1000 only)",
                self.shader.text()
            ));
            self.shader = Default::default();
        }
        for (i, l) in self.layers.iter_mut().enumerate() {
            retarget_layer(l, from, to, &mut |what| sub(lost, i, what));
        }
    }
}
