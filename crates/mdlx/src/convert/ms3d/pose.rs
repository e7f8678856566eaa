//! Posing a Milkshape document (to check conversions against): joint parents, keys at a
//! frame, each joint's transform.

use super::axes::{euler_to_quat, point_to_wc3, quat_to_euler};
use crate::anim::math::{mul, slerp, trs_about, Mat4, Vec3, IDENTITY};
use crate::ms3d::{Document, Key};
use std::collections::HashMap;

/// Each joint's parent index (by name; `None` for roots, unknown names and loops), as
/// [`to_model`](super::to_model) reads the hierarchy: public so that a caller can check a
/// round trip (model -> Milkshape -> model) keeps the hierarchy.
pub fn joint_parents(doc: &Document) -> Vec<Option<usize>> {
    let by_name: HashMap<&[u8], usize> = doc
        .bones
        .iter()
        .enumerate()
        .rev() // the first of equal names wins
        .map(|(i, b)| (b.name.as_bytes(), i))
        .collect();
    let mut parents: Vec<Option<usize>> = doc
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| {
            by_name
                .get(b.parent.as_bytes())
                .copied()
                .filter(|&p| p != i && !b.parent.is_empty())
        })
        .collect();
    // Cut loops: walk up from each joint; a chain longer than the joint count loops.
    for i in 0..parents.len() {
        let mut at = parents[i];
        let mut steps = 0;
        while let Some(p) = at {
            steps += 1;
            if steps > parents.len() {
                parents[i] = None;
                break;
            }
            at = parents[p];
        }
    }
    parents
}

/// Joints ordered parents first.
pub(super) fn parents_first(parents: &[Option<usize>]) -> Vec<usize> {
    let mut done = vec![false; parents.len()];
    let mut order = Vec::with_capacity(parents.len());
    for start in 0..parents.len() {
        let mut chain = Vec::new();
        let mut at = Some(start);
        while let Some(i) = at {
            if done[i] || chain.contains(&i) {
                break;
            }
            chain.push(i);
            at = parents[i];
        }
        for &i in chain.iter().rev() {
            done[i] = true;
            order.push(i);
        }
    }
    order
}

/// Linear interpolation of Milkshape keys at `frame`, holding the ends; rotations slerp
/// between the quaternions of the Euler keys. `None` without keys.
pub(super) fn ms3d_key_at(keys: &[Key], frame: f32, rotation: bool) -> Option<Key> {
    let mut sorted: Vec<&Key> = keys.iter().collect();
    sorted.sort_by(|a, b| a.time.total_cmp(&b.time));
    let first = *sorted.first()?;
    let next = sorted.partition_point(|k| k.time <= frame);
    let held = |k: &Key| Key {
        time: frame,
        value: k.value,
    };
    if next == 0 {
        return Some(held(first));
    }
    if next == sorted.len() {
        return Some(held(sorted[next - 1]));
    }
    let (a, b) = (sorted[next - 1], sorted[next]);
    let t = if b.time > a.time {
        (frame - a.time) / (b.time - a.time)
    } else {
        0.0
    };
    let value = if rotation {
        let q = slerp(euler_to_quat(a.value), euler_to_quat(b.value), t);
        quat_to_euler(q)
    } else {
        [0, 1, 2].map(|i| a.value[i] + (b.value[i] - a.value[i]) * t)
    };
    Some(Key { time: frame, value })
}

/// Every joint's transform from its bind space to the model at `frame` (`None`: the bind
/// pose), in Milkshape axes: `global(parent) * T(position) * R(rotation) * T(key) * R(key)`.
pub(crate) fn ms3d_globals(doc: &Document, frame: Option<f32>) -> Vec<Mat4> {
    let parents = joint_parents(doc);
    let mut out = vec![IDENTITY; doc.bones.len()];
    for i in parents_first(&parents) {
        let b = &doc.bones[i];
        let bind = trs_about(b.position, euler_to_quat(b.rotation), [1.0; 3], [0.0; 3]);
        let local = match frame {
            Some(f) => {
                let t = ms3d_key_at(&b.position_keys, f, false).map_or([0.0; 3], |k| k.value);
                let r = ms3d_key_at(&b.rotation_keys, f, true).map_or([0.0; 3], |k| k.value);
                mul(&bind, &trs_about(t, euler_to_quat(r), [1.0; 3], [0.0; 3]))
            }
            None => bind,
        };
        out[i] = match parents[i] {
            Some(p) => mul(&out[p], &local),
            None => local,
        };
    }
    out
}

/// Where each joint is at `frame` (`None`: the bind pose), in WC3 axes, as Milkshape poses
/// the document: public so that a caller can check that a converted model moves its bones
/// where Milkshape moves the joints.
pub fn ms3d_joint_positions(doc: &Document, frame: Option<f32>) -> Vec<Vec3> {
    ms3d_globals(doc, frame)
        .iter()
        .map(|g| point_to_wc3([g[12], g[13], g[14]]))
        .collect()
}
