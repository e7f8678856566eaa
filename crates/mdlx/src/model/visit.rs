//! Every track of a model, shown to a visitor in a fixed order (read or changed): the
//! model's own walk over its animated records, which checking, the conversions and the
//! optimizer all go through.

use super::{EventTrack, Model, Track, Tracks};

/// Whose tracks a visitor is shown: removing a material or a texture animation takes its
/// tracks with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Owner {
    /// A layer of material `.0`.
    Material(usize),
    /// Texture animation `.0`.
    TextureAnimation(usize),
    /// Any other record (nodes, geoset animations, cameras).
    Other,
}

/// Sees every track of a model, in a fixed order (see [`visit_tracks`]).
pub(crate) trait TrackVisitor<'m> {
    /// The tracks of one record; `at` names the record (`lights[4]`, or `lights[4].node` for
    /// its node's); the tracks are named
    /// `{at}.tracks.{TAG}`.
    fn tracks(&mut self, owner: Owner, at: &dyn Fn() -> String, tracks: &'m Tracks);
    /// A texture slot's `KMTF` track; `at` names it in full.
    fn slot(&mut self, owner: Owner, at: &dyn Fn() -> String, track: &'m Track<u32>);
    /// An event object's `KEVT` times; `at` names it in full.
    fn event(&mut self, _at: &dyn Fn() -> String, _track: &'m EventTrack) {}
}

/// Changes every track of a model, in the order of [`TrackVisitor`].
pub(crate) trait TrackVisitorMut {
    /// See [`TrackVisitor::tracks`].
    fn tracks(&mut self, owner: Owner, at: &dyn Fn() -> String, tracks: &mut Tracks);
    /// See [`TrackVisitor::slot`].
    fn slot(&mut self, owner: Owner, at: &dyn Fn() -> String, track: &mut Track<u32>);
    /// See [`TrackVisitor::event`].
    fn event(&mut self, _at: &dyn Fn() -> String, _track: &mut EventTrack) {}
}

/// Every holder of tracks, for `&` and `&mut` alike: `walk_tracks!(model, visitor)` or
/// `walk_tracks!(model, visitor, mut)`.
macro_rules! walk_tracks {
    ($model:expr, $v:expr $(, $m:ident)?) => {{
        let model = $model;
        let v = $v;
        for (i, mat) in (& $($m)? model.materials).into_iter().enumerate() {
            for (j, l) in (& $($m)? mat.layers).into_iter().enumerate() {
                let owner = Owner::Material(i);
                v.tracks(owner, &|| format!("materials[{i}].layers[{j}]"), & $($m)? l.tracks);
                for (k, s) in (& $($m)? l.texture_slots).into_iter().enumerate() {
                    if let Some(t) = & $($m)? s.texture_id_track {
                        let at = || {
                            format!("materials[{i}].layers[{j}].texture_slots[{k}].texture_id_track")
                        };
                        v.slot(owner, &at, t);
                    }
                }
            }
        }
        for (i, ta) in (& $($m)? model.texture_animations).into_iter().enumerate() {
            let at = || format!("texture_animations[{i}]");
            v.tracks(Owner::TextureAnimation(i), &at, & $($m)? ta.tracks);
        }
        for (i, ga) in (& $($m)? model.geoset_animations).into_iter().enumerate() {
            v.tracks(Owner::Other, &|| format!("geoset_animations[{i}]"), & $($m)? ga.tracks);
        }
        walk_tracks!(@nodes model v [$($m)?] bones);
        walk_tracks!(@nodes model v [$($m)?] helpers);
        walk_tracks!(@nodes model v [$($m)?] collision_shapes);
        walk_tracks!(@nodes model v [$($m)?] event_objects);
        walk_tracks!(@with_tracks model v [$($m)?] lights);
        walk_tracks!(@with_tracks model v [$($m)?] attachments);
        walk_tracks!(@with_tracks model v [$($m)?] particle_emitters);
        walk_tracks!(@with_tracks model v [$($m)?] particle_emitters2);
        walk_tracks!(@with_tracks model v [$($m)?] popcorn_emitters);
        walk_tracks!(@with_tracks model v [$($m)?] ribbon_emitters);
        for (i, c) in (& $($m)? model.cameras).into_iter().enumerate() {
            v.tracks(Owner::Other, &|| format!("cameras[{i}]"), & $($m)? c.tracks);
        }
        for (i, e) in (& $($m)? model.event_objects).into_iter().enumerate() {
            if let Some(t) = & $($m)? e.track {
                v.event(&|| format!("event_objects[{i}].track"), t);
            }
        }
    }};
    (@nodes $model:ident $v:ident [$($m:ident)?] $field:ident) => {
        for (i, x) in (& $($m)? $model.$field).into_iter().enumerate() {
            let node = || format!(concat!(stringify!($field), "[{}].node"), i);
            $v.tracks(Owner::Other, &node, & $($m)? x.node.tracks);
        }
    };
    (@with_tracks $model:ident $v:ident [$($m:ident)?] $field:ident) => {
        for (i, x) in (& $($m)? $model.$field).into_iter().enumerate() {
            let node = || format!(concat!(stringify!($field), "[{}].node"), i);
            let at = || format!(concat!(stringify!($field), "[{}]"), i);
            $v.tracks(Owner::Other, &node, & $($m)? x.node.tracks);
            $v.tracks(Owner::Other, &at, & $($m)? x.tracks);
        }
    };
}

/// Shows `v` every track of `model`: layers (then their texture slots) by material,
/// texture animations, geoset animations, bones, helpers, collision shapes, event objects,
/// then the node tracks and own tracks of lights, attachments, the emitters, then cameras,
/// and last the event tracks.
pub(crate) fn visit_tracks<'m>(model: &'m Model, v: &mut impl TrackVisitor<'m>) {
    walk_tracks!(model, v)
}

/// Lets `v` change every track of `model`, in the order of [`visit_tracks`].
pub(crate) fn visit_tracks_mut(model: &mut Model, v: &mut impl TrackVisitorMut) {
    walk_tracks!(model, v, mut)
}
