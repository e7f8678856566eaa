//! Edits modders make to a model, as library functions: each changes the model in place
//! and returns a [`Report`] of what it changed and what it could not do, so a build script
//! (or the command line) can say exactly what happened to each file.

mod emitters;
mod fade;
mod lift;
mod merge;
mod names;
mod normals;
#[cfg(feature = "render")]
mod portrait;
mod retime;
mod sequences;
mod split;
mod team;
mod textures;
mod timeline;
mod transfer;
mod transform;
mod visibility;

pub use fade::{fade, Fade};
pub use merge::{merge, Merge};
pub use normals::recompute_normals;
#[cfg(feature = "render")]
pub use portrait::portrait;
pub use sequences::{sequences, SequenceEdit};
pub use split::split_normals;
pub use team::{hero_glow, team_colour, GLOW_RADIUS};
pub use textures::{texture_paths, PathEdit};
pub use transfer::{transfer, Transfer};
pub use transform::{transform, Axis, Transform};

/// Any one edit, for a list of them applied in order ([`apply`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// See [`texture_paths`].
    Textures(PathEdit),
    /// See [`sequences`].
    Sequence(SequenceEdit),
    /// See [`transform`].
    Transform(Transform),
    /// Every extent recomputed from the poses: see [`crate::anim::extents`].
    Extents,
    /// See [`transfer`].
    Transfer(Box<Transfer>),
    /// See [`team_colour`]: the material's index.
    TeamColour(usize),
    /// See [`hero_glow`].
    HeroGlow,
    /// See [`recompute_normals`]: the angle in degrees.
    Normals(f32),
    /// See [`fade`]: which, and its length in milliseconds.
    Fade(Fade, u32),
    /// See [`merge`].
    Merge(Box<Merge>),
    /// See [`split_normals`]: the angle in degrees (0: flat).
    HardEdges(f32),
}

/// Applies one edit.
pub fn apply(model: &mut crate::model::Model, edit: &Edit) -> Report {
    match edit {
        Edit::Textures(e) => texture_paths(model, e),
        Edit::Sequence(e) => sequences(model, e),
        Edit::Transform(e) => transform(model, e),
        Edit::Extents => extents(model),
        Edit::Transfer(t) => transfer(model, t),
        Edit::TeamColour(m) => team_colour(model, *m),
        Edit::HeroGlow => hero_glow(model),
        Edit::Normals(a) => recompute_normals(model, *a),
        Edit::Fade(f, ms) => fade(model, *f, *ms),
        Edit::Merge(m) => merge(model, m),
        Edit::HardEdges(a) => split_normals(model, *a),
    }
}

/// What an edit did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// What was changed, one line each, for people
    /// (`textures[2]: Textures\A.blp -> war3mapImported\A.blp`).
    pub changed: Vec<String>,
    /// What could not be done, one line each, with why.
    pub refused: Vec<String>,
}

impl Report {
    /// True when the edit changed nothing and refused nothing.
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.refused.is_empty()
    }

    /// Adds another edit's report after this one's.
    pub fn extend(&mut self, other: Report) {
        self.changed.extend(other.changed);
        self.refused.extend(other.refused);
    }
}

/// Something done to each track of a model (through [`EachTrack`]).
pub(super) trait OnTrack {
    /// A track of any value (texture slots' included).
    fn on<T: crate::anim::TrackValue + PartialEq>(&mut self, t: &mut crate::model::Track<T>);
    /// An event object's times.
    fn event(&mut self, _: &mut crate::model::EventTrack) {}
}

/// Shows every track of a model to an [`OnTrack`].
pub(super) struct EachTrack<F>(pub F);

impl<F: OnTrack> crate::model::visit::TrackVisitorMut for EachTrack<F> {
    fn tracks(
        &mut self,
        _: crate::model::visit::Owner,
        _: &dyn Fn() -> String,
        tracks: &mut crate::model::Tracks,
    ) {
        use crate::model::AnyTrack as A;
        tracks.0.iter_mut().for_each(|a| match &mut a.track {
            A::Float(t) => self.0.on(t),
            A::Vector3(t) => self.0.on(t),
            A::Quaternion(t) => self.0.on(t),
            A::Integer(t) => self.0.on(t),
        });
    }
    fn slot(
        &mut self,
        _: crate::model::visit::Owner,
        _: &dyn Fn() -> String,
        t: &mut crate::model::Track<u32>,
    ) {
        self.0.on(t);
    }
    fn event(&mut self, _: &dyn Fn() -> String, t: &mut crate::model::EventTrack) {
        self.0.event(t);
    }
}

/// [`crate::anim::recompute_extents`], reported.
fn extents(model: &mut crate::model::Model) -> Report {
    let mut report = Report::default();
    if crate::anim::recompute_extents(model) {
        let e = model.info.extent;
        report.changed.push(format!(
            "extents recomputed ({} geosets, {} sequences): the model's now {:?} to {:?}",
            model.geosets.len(),
            model.sequences.len(),
            e.min,
            e.max
        ));
    }
    report
}
