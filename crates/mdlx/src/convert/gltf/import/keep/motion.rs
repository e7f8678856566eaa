//! Node motion compared in the glTF itself: the glTF's animations played at the times the
//! glTF keys them, against the embedded model's own export played at those times.
//!
//! An editor that samples an animation (Blender keys every frame) holds the curve's exact
//! values at its keys and straight lines between them; the imported model, keyed on whole
//! milliseconds, holds the glTF's lines there instead. So the comparison is made where both
//! files are exact: at the editor's key times, each file evaluated as glTF evaluates it.

use super::super::{graph, keys::channel_at, prop_code, ImportOptions, Importer};
use crate::anim::math::{invert_affine, mul, trs_about, Mat4};
use crate::gltf::source::{GltfError, Source};

/// A glTF scene ready to play: its graph, channels and each node's bind frame.
pub(super) struct Player<'a> {
    imp: Importer<'a>,
    /// Per node: the inverse of its bind frame (its inverse bind matrix as a joint, else
    /// the inverse of its rest world transform).
    unbind: Vec<Mat4>,
    /// Nodes, parents before children.
    order: Vec<usize>,
}

impl<'a> Player<'a> {
    pub(super) fn new(src: &'a Source, opts: &'a ImportOptions) -> Result<Player<'a>, GltfError> {
        let mut imp = Importer::new(src, opts)?;
        imp.scene()?;
        imp.read_channels()?;
        let doc = &src.root;
        let n = doc.nodes.len();
        let mut unbind: Vec<Option<Mat4>> = vec![None; n];
        for (s, skin) in doc.skins.iter().enumerate() {
            let Some(a) = skin.inverse_bind_matrices else {
                continue;
            };
            let (v, comps) = src.read_f32(a.value(), &format!("skins[{s}].inverseBindMatrices"))?;
            if comps != 16 {
                continue;
            }
            for (k, j) in skin.joints.iter().enumerate() {
                let j = j.value();
                if let (Some(slot), Some(m)) = (unbind.get_mut(j), v.get(k * 16..k * 16 + 16)) {
                    if slot.is_none() {
                        *slot = m.try_into().ok();
                    }
                }
            }
        }
        let unbind = unbind
            .into_iter()
            .enumerate()
            .map(|(i, m)| {
                m.unwrap_or_else(|| invert_affine(&imp.g.safe[i]).unwrap_or(imp.g.safe[i]))
            })
            .collect();
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<usize> = (0..n).filter(|&i| imp.g.parent[i].is_none()).collect();
        let mut kids: Vec<Vec<usize>> = vec![Vec::new(); n];
        for i in 0..n {
            if let Some(p) = imp.g.parent[i] {
                kids[p].push(i);
            }
        }
        while let Some(i) = stack.pop() {
            order.push(i);
            stack.extend(kids[i].iter().copied());
        }
        Ok(Player { imp, unbind, order })
    }

    /// Every node's game transform (its world transform times its inverse bind frame:
    /// identity at rest), `t` seconds into animation `a`.
    pub(super) fn game(&self, a: usize, t: f32) -> Vec<Mat4> {
        let g = &self.imp.g;
        let chans = self.imp.channels.get(a);
        let mut world = vec![crate::anim::math::IDENTITY; g.parent.len()];
        for &i in &self.order {
            let (mut tr, mut rot, mut sc) = g.trs[i];
            if let Some(c) = chans {
                use gltf_json::animation::Property as P;
                if let Some(ch) = c.get(&(i, prop_code(P::Translation))) {
                    let v = channel_at(ch, t);
                    tr = [v[0], v[1], v[2]];
                }
                if let Some(ch) = c.get(&(i, prop_code(P::Rotation))) {
                    rot = channel_at(ch, t);
                }
                if let Some(ch) = c.get(&(i, prop_code(P::Scale))) {
                    let v = channel_at(ch, t);
                    sc = [v[0], v[1], v[2]];
                }
            }
            let local = trs_about(tr, rot, sc, [0.0; 3]);
            world[i] = match g.parent[i] {
                Some(p) => mul(&world[p], &local),
                None => local,
            };
        }
        world
            .iter()
            .zip(&self.unbind)
            .map(|(w, u)| mul(w, u))
            .collect()
    }

    /// The times (seconds) animation `a` keys anything at.
    pub(super) fn times(&self, a: usize) -> Vec<f32> {
        let mut t: Vec<f32> = self
            .imp
            .channels
            .get(a)
            .into_iter()
            .flat_map(|c| c.values())
            .flat_map(|ch| ch.times.iter().copied())
            .collect();
        t.sort_by(f32::total_cmp);
        t.dedup();
        t
    }

    /// How long animation `a` is (seconds).
    pub(super) fn duration(&self, a: usize) -> f32 {
        self.imp.durations.get(a).copied().unwrap_or(0.0)
    }
}

/// The transform of node `i` relative to node `parent`'s (both game transforms), or its
/// own without a parent.
pub(super) fn relative(game: &[Mat4], i: usize, parent: Option<usize>) -> Mat4 {
    match parent.and_then(|p| invert_affine(&game[p])) {
        Some(inv) => mul(&inv, &game[i]),
        None => game[i],
    }
}

#[allow(unused_imports)]
use graph as _;
