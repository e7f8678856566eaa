//! Milkshape 3D ASCII <-> the Warcraft III model, skeleton and animation included.
//!
//! # Conventions
//! - **Axes.** Milkshape is +Y up, Warcraft III +Z up. Milkshape coordinates are turned a
//!   quarter about +X on the way in: `(x, y, z)` becomes `(x, -z, y)`; and back on the way
//!   out. Nothing else is turned: a model facing Milkshape's +Z faces WC3's -Y.
//! - **Time.** Milkshape key times are frame numbers (real files run from 1 to `Frames`);
//!   frame `f` is `(f - 1) * 1000 / fps` milliseconds, with `fps` an option (24 by default,
//!   Milkshape's own default). Milliseconds are rounded to whole numbers, as WC3 keys are.
//! - **Rotations.** Milkshape stores Euler angles in radians, applied X, then Y, then Z
//!   (the matrix is `Rz * Ry * Rx`); WC3 stores quaternions.
//! - **Bones.** A Milkshape joint has a bind position and rotation relative to its parent,
//!   and keys relative to that bind pose. WC3 nodes have no bind rotation: a pivot point,
//!   and tracks that move the node about it. A joint becomes a bone whose pivot is the
//!   joint's bind position in the model, and whose tracks are the keys expressed in model
//!   axes (the key's move turned by the joint's bind rotation; the key's turn conjugated by
//!   it). Both then move every vertex to the same place.
//! - **Sequences.** One per file (the whole frame range), or one per range the caller
//!   names; a model comment written by [`to_ms3d`] (`mdlx sequences: ...`) restores the
//!   original sequences on the way back.

use crate::anim::math::{
    mul, qaxis_angle, qconjugate, qmul, qnormalize, qrotate, transform_point, trs_about, Mat4,
    Quat, Vec3, IDENTITY, QUAT_IDENTITY,
};
use crate::anim::{AnimTime, Skeleton};
use crate::format::track::{KGRT, KGSC, KGTR};
use crate::model::{
    filter_mode, node_flags, Animation, AnyTrack, Bone as WcBone, Extent, FixedString, Geoset,
    Interpolation, Key as WcKey, Layer, Material as WcMaterial, Model, Node, Sequence, Texture,
    Track, Tracks, SEQUENCE_NON_LOOPING,
};
use crate::ms3d::{self, Comments, Document, Key, Mesh, Text, Triangle, Vertex};
use crate::Loss;
use std::collections::HashMap;

/// The node flag WC3 bones carry.
const BONE_FLAG: u32 = 0x100;
/// Where a model comment lists the sequences (written by [`to_ms3d`], read by [`to_model`]).
const SEQUENCES_PREFIX: &str = "mdlx sequences: ";

// ---------------------------------------------------------------------------------------
// Axes, Euler angles, time
// ---------------------------------------------------------------------------------------

/// Milkshape (+Y up) to WC3 (+Z up): a quarter turn about +X.
pub fn point_to_wc3(p: Vec3) -> Vec3 {
    [p[0], -p[2], p[1]]
}

/// WC3 (+Z up) to Milkshape (+Y up).
pub fn point_to_ms3d(p: Vec3) -> Vec3 {
    [p[0], p[2], -p[1]]
}

/// The quarter turn about +X that takes Milkshape axes to WC3 axes, as a quaternion.
fn axes_turn() -> Quat {
    qaxis_angle([1.0, 0.0, 0.0], std::f32::consts::FRAC_PI_2)
}

/// A rotation in Milkshape axes, expressed in WC3 axes.
fn rotation_to_wc3(q: Quat) -> Quat {
    let c = axes_turn();
    qnormalize(qmul(qmul(c, q), qconjugate(c)))
}

/// A rotation in WC3 axes, expressed in Milkshape axes.
fn rotation_to_ms3d(q: Quat) -> Quat {
    let c = axes_turn();
    qnormalize(qmul(qmul(qconjugate(c), q), c))
}

/// Milkshape's Euler angles (radians; X, then Y, then Z) as a quaternion (computed in f64).
pub fn euler_to_quat(e: Vec3) -> Quat {
    let half = |a: f32| (f64::from(a) * 0.5).sin_cos();
    let ((sx, cx), (sy, cy), (sz, cz)) = (half(e[0]), half(e[1]), half(e[2]));
    // qz * qy * qx
    let q = [
        sx * cy * cz - cx * sy * sz,
        cx * sy * cz + sx * cy * sz,
        cx * cy * sz - sx * sy * cz,
        cx * cy * cz + sx * sy * sz,
    ];
    qnormalize(q.map(|v| v as f32))
}

/// A quaternion as Milkshape's Euler angles (X, then Y, then Z; Y within +-90 degrees),
/// computed in f64.
pub fn quat_to_euler(q: Quat) -> Vec3 {
    let [x, y, z, w] = q.map(f64::from);
    // The homogeneous form (divided by the squared length): exact for any length, so the
    // small elements near +-90 degrees of Y do not drown in rounding of `1 - 2(...)`.
    let n2 = x * x + y * y + z * z + w * w;
    if !(n2 > 0.0 && n2.is_finite()) {
        return [0.0; 3];
    }
    let r20 = 2.0 * (x * z - w * y) / n2;
    let r21 = 2.0 * (y * z + w * x) / n2;
    let r22 = (w * w - x * x - y * y + z * z) / n2;
    let r10 = 2.0 * (x * y + w * z) / n2;
    let r00 = (w * w + x * x - y * y - z * z) / n2;
    let sy = (-r20).clamp(-1.0, 1.0);
    // Y from both of its sines' partners, so that it stays exact near +-90 degrees; X and
    // Z from elements scaled by cos(Y), which are exact in f64 until cos(Y) is 0.
    let cy = (r21 * r21 + r22 * r22).sqrt();
    let e = if cy > 1e-12 {
        [r21.atan2(r22), sy.atan2(cy), r10.atan2(r00)]
    } else {
        // Gimbal lock: X and Z turn about the same axis; put it all in Z.
        let r01 = 2.0 * (x * y - w * z) / n2;
        let r11 = (w * w - x * x + y * y - z * z) / n2;
        [0.0, sy.asin(), (-r01).atan2(r11)]
    };
    e.map(|v| v as f32)
}

/// How Milkshape frames map to WC3 milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameRate {
    /// Frames per second (24 unless the caller knows better).
    pub fps: f32,
}

impl Default for FrameRate {
    fn default() -> Self {
        FrameRate { fps: 24.0 }
    }
}

impl FrameRate {
    /// Frame `f` (1 is the first) in milliseconds, rounded.
    pub fn ms(self, frame: f32) -> i32 {
        let ms = (f64::from(frame) - 1.0) * 1000.0 / f64::from(self.fps);
        ms.round().clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
    }

    /// Milliseconds as a frame number. A whole frame that rounds to these milliseconds is
    /// preferred, so that whole frames survive a trip through milliseconds.
    pub fn frame(self, ms: f64) -> f32 {
        let f = 1.0 + ms * f64::from(self.fps) / 1000.0;
        let whole = f.round() as f32;
        if f64::from(self.ms(whole)) == ms {
            whole
        } else {
            f as f32
        }
    }
}

// ---------------------------------------------------------------------------------------
// Posing a Milkshape document (to check conversions against)
// ---------------------------------------------------------------------------------------

/// Each joint's parent index (by name; `None` for roots, unknown names and loops).
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
fn parents_first(parents: &[Option<usize>]) -> Vec<usize> {
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
fn ms3d_key_at(keys: &[Key], frame: f32, rotation: bool) -> Option<Key> {
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
        let q = crate::anim::math::slerp(euler_to_quat(a.value), euler_to_quat(b.value), t);
        quat_to_euler(q)
    } else {
        [0, 1, 2].map(|i| a.value[i] + (b.value[i] - a.value[i]) * t)
    };
    Some(Key { time: frame, value })
}

/// Every joint's transform from its bind space to the model at `frame` (`None`: the bind
/// pose), in Milkshape axes: `global(parent) * T(position) * R(rotation) * T(key) * R(key)`.
pub fn ms3d_globals(doc: &Document, frame: Option<f32>) -> Vec<Mat4> {
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

/// Where each joint is at `frame`, in WC3 axes.
pub fn ms3d_joint_positions(doc: &Document, frame: Option<f32>) -> Vec<Vec3> {
    ms3d_globals(doc, frame)
        .iter()
        .map(|g| point_to_wc3([g[12], g[13], g[14]]))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Milkshape -> model
// ---------------------------------------------------------------------------------------

/// A named range of Milkshape frames that becomes one sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameRange {
    /// The sequence name.
    pub name: String,
    /// First frame (1 is the first of the file).
    pub first: f32,
    /// Last frame.
    pub last: f32,
    /// Whether the sequence plays once instead of looping.
    pub non_looping: bool,
}

impl FrameRange {
    /// Parses `Name=first-last` (append `!` for a sequence that does not loop), as the CLI
    /// takes them: `"Stand=1-30,Walk=31-60!"`.
    pub fn parse_list(text: &str) -> Result<Vec<FrameRange>, String> {
        text.split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| {
                let (name, range) = p
                    .rsplit_once('=')
                    .ok_or_else(|| format!("{p:?}: expected Name=first-last"))?;
                let (range, non_looping) = match range.trim().strip_suffix('!') {
                    Some(r) => (r, true),
                    None => (range.trim(), false),
                };
                let (a, b) = range
                    .split_once('-')
                    .ok_or_else(|| format!("{p:?}: expected first-last"))?;
                let first: f32 = a.trim().parse().map_err(|e| format!("{p:?}: {e}"))?;
                let last: f32 = b.trim().parse().map_err(|e| format!("{p:?}: {e}"))?;
                if !(first.is_finite() && last.is_finite() && first <= last) {
                    return Err(format!("{p:?}: the range must run forwards"));
                }
                Ok(FrameRange {
                    name: name.trim().to_string(),
                    first,
                    last,
                    non_looping,
                })
            })
            .collect()
    }
}

/// How to turn a Milkshape document into a model.
#[derive(Clone, Debug, Default)]
pub struct ToModelOptions {
    /// Frames to milliseconds.
    pub rate: FrameRate,
    /// Sequences by frame range; empty: the ranges an mdlx model comment lists, else one
    /// sequence over the whole file.
    pub ranges: Vec<FrameRange>,
    /// The model's name (the file name, say).
    pub name: String,
}

fn fixed(text: &[u8], max: usize, place: &str, field: &str, losses: &mut Vec<Loss>) -> FixedString {
    if text.len() > max {
        losses.push(Loss::new(
            place,
            format!("{field} cut to {max} bytes (was {})", text.len()),
        ));
        FixedString::from_field(&text[..max])
    } else {
        FixedString::from_field(text)
    }
}

/// The sequences a model comment written by [`to_ms3d`] lists.
fn ranges_from_comment(doc: &Document) -> Vec<FrameRange> {
    let Some(text) = doc.comments.as_ref().and_then(|c| c.model.as_ref()) else {
        return Vec::new();
    };
    let text = text.to_string_lossy();
    let Some(list) = text.strip_prefix(SEQUENCES_PREFIX) else {
        return Vec::new();
    };
    list.split(';')
        .filter_map(|item| {
            let mut parts = item.trim().splitn(2, ' ');
            let range = parts.next()?;
            let name = unescape(parts.next().unwrap_or(""));
            let (range, non_looping) = match range.strip_suffix('!') {
                Some(r) => (r, true),
                None => (range, false),
            };
            let (a, b) = range.split_once('-')?;
            Some(FrameRange {
                name,
                first: a.parse().ok()?,
                last: b.parse().ok()?,
                non_looping,
            })
        })
        .collect()
}

/// `%XX` for every byte that could end a list item or a name.
fn escape(name: &[u8]) -> String {
    name.iter()
        .map(|&b| {
            if b.is_ascii_alphanumeric() || b" _-.()".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 3 <= bytes.len() {
            if let Some(b) = std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Converts a Milkshape document to a version-800 model. Returns the model and everything
/// the model could not hold.
pub fn to_model(doc: &Document, opts: &ToModelOptions) -> (Model, Vec<Loss>) {
    let mut losses = Vec::new();
    let rate = opts.rate;
    let parents = joint_parents(doc);
    for (i, b) in doc.bones.iter().enumerate() {
        if !b.parent.is_empty() && parents[i].is_none() {
            losses.push(Loss::new(
                format!("Bone[{i}]"),
                format!("parent {:?} not found (or a loop); made a root", b.parent),
            ));
        }
    }
    let globals = ms3d_globals(doc, None);
    // Each joint's bind rotation in the model, as a quaternion.
    let mut bind_rot = vec![QUAT_IDENTITY; doc.bones.len()];
    for i in parents_first(&parents) {
        let own = euler_to_quat(doc.bones[i].rotation);
        bind_rot[i] = match parents[i] {
            Some(p) => qnormalize(qmul(bind_rot[p], own)),
            None => own,
        };
    }

    // Sequences.
    let mut ranges = opts.ranges.clone();
    if ranges.is_empty() {
        ranges = ranges_from_comment(doc);
    }
    if ranges.is_empty() {
        let last_key = doc
            .bones
            .iter()
            .flat_map(|b| b.position_keys.iter().chain(&b.rotation_keys))
            .map(|k| k.time)
            .fold(1.0f32, f32::max);
        let last = doc.frames.map_or(last_key, |f| f as f32).max(1.0);
        ranges.push(FrameRange {
            name: "Anim".into(),
            first: 1.0,
            last,
            non_looping: false,
        });
    }
    // Keys before or after every range play in no sequence; a key at each range's ends
    // (Milkshape's own value there) keeps what they do inside the ranges.
    let lo = ranges.iter().map(|r| r.first).fold(f32::INFINITY, f32::min);
    let hi = ranges
        .iter()
        .map(|r| r.last)
        .fold(f32::NEG_INFINITY, f32::max);
    let outside = doc
        .bones
        .iter()
        .flat_map(|b| b.position_keys.iter().chain(&b.rotation_keys))
        .filter(|k| k.time < lo || k.time > hi)
        .count();
    if outside > 0 {
        losses.push(Loss::new(
            "keys",
            format!("{outside} key(s) outside every sequence's frames (their effect inside is kept by keys at the sequence ends)"),
        ));
    }
    // Every animated joint is keyed at every moment any joint has a key, and at each
    // sequence's ends, in whole milliseconds; each key holds Milkshape's own value at that
    // millisecond. So a key that falls between two milliseconds does not drag the others.
    let mut moments: Vec<i32> = doc
        .bones
        .iter()
        .flat_map(|b| b.position_keys.iter().chain(&b.rotation_keys))
        .filter(|k| k.time >= lo && k.time <= hi)
        .map(|k| rate.ms(k.time))
        .chain(
            ranges
                .iter()
                .flat_map(|r| [rate.ms(r.first), rate.ms(r.last)]),
        )
        .collect();
    moments.sort_unstable();
    moments.dedup();
    let rounded = doc
        .bones
        .iter()
        .flat_map(|b| b.position_keys.iter().chain(&b.rotation_keys))
        .filter(|k| f64::from(rate.frame(f64::from(rate.ms(k.time)))) != f64::from(k.time))
        .count();
    if rounded > 0 {
        losses.push(Loss::new(
            "keys",
            format!(
                "{rounded} key time(s) fall between whole milliseconds at {} fps: keyed at the nearest millisecond with Milkshape's value there",
                rate.fps
            ),
        ));
    }
    let resample = |keys: &[Key], rotation: bool| -> Vec<Key> {
        if keys.is_empty() {
            return Vec::new();
        }
        moments
            .iter()
            .filter_map(|&ms| ms3d_key_at(keys, rate.frame(f64::from(ms)), rotation))
            .collect()
    };
    let mut model = Model {
        version: 800,
        ..Default::default()
    };
    // Bones.
    for (i, b) in doc.bones.iter().enumerate() {
        let place = format!("Bone[{i}]");
        let rb = bind_rot[i];
        let mut tracks = Vec::new();
        if !b.position_keys.is_empty() {
            let mut keys: Vec<WcKey<Vec3>> = resample(&b.position_keys, false)
                .iter()
                .map(|k| WcKey::at(rate.ms(k.time), point_to_wc3(qrotate(rb, k.value))))
                .collect();
            keys.sort_by_key(|k| k.time);
            tracks.push(Animation {
                tag: KGTR,
                track: AnyTrack::Vector3(linear(keys)),
            });
        }
        if !b.rotation_keys.is_empty() {
            let mut keys: Vec<WcKey<Quat>> = resample(&b.rotation_keys, true)
                .iter()
                .map(|k| {
                    let q = qmul(qmul(rb, euler_to_quat(k.value)), qconjugate(rb));
                    WcKey::at(rate.ms(k.time), rotation_to_wc3(q))
                })
                .collect();
            keys.sort_by_key(|k| k.time);
            tracks.push(Animation {
                tag: KGRT,
                track: AnyTrack::Quaternion(linear(keys)),
            });
        }
        model.bones.push(WcBone {
            node: Node {
                name: fixed(b.name.as_bytes(), 80, &place, "name", &mut losses),
                object_id: i as u32,
                parent_id: parents[i].map_or(-1, |p| p as i32),
                flags: BONE_FLAG,
                tracks: Tracks(tracks),
                tail: Vec::new(),
            },
            geoset_id: -1,
            geoset_animation_id: -1,
        });
        let g = &globals[i];
        model.pivot_points.push(point_to_wc3([g[12], g[13], g[14]]));
    }
    let flagged = doc.bones.iter().filter(|b| b.flags != 0).count();
    if flagged > 0 {
        losses.push(Loss::new(
            "joints",
            format!("flags of {flagged} joint(s) (editor state)"),
        ));
    }
    // Vertices bound to no joint follow a still bone made for them.
    let unbound = doc.meshes.iter().any(|m| {
        m.vertices
            .iter()
            .any(|v| usize::try_from(v.bone).map_or(true, |b| b >= doc.bones.len()))
    });
    let still_bone = unbound.then(|| {
        let id = model.bones.len();
        model.bones.push(WcBone {
            node: Node {
                name: FixedString::from("mdlx_unbound"),
                object_id: id as u32,
                parent_id: -1,
                flags: BONE_FLAG,
                ..Default::default()
            },
            geoset_id: -1,
            geoset_animation_id: -1,
        });
        model.pivot_points.push([0.0; 3]);
        id as u32
    });

    // Materials and textures.
    let white = |model: &mut Model| -> i32 {
        if let Some(i) = model
            .textures
            .iter()
            .position(|t| t.path.as_bytes() == b"Textures\\white.blp")
        {
            return i as i32;
        }
        model.textures.push(Texture {
            path: FixedString::from("Textures\\white.blp"),
            ..Default::default()
        });
        model.textures.len() as i32 - 1
    };
    for (i, m) in doc.materials.iter().enumerate() {
        let place = format!("Material[{i}]");
        let texture_id = if m.color_map.is_empty() {
            losses.push(Loss::new(&place, "no color map: uses Textures\\white.blp"));
            white(&mut model)
        } else {
            let map = game_texture_path(m.color_map.as_bytes());
            if map != m.color_map.as_bytes() {
                let shown = String::from_utf8_lossy(&map);
                losses.push(Loss::new(
                    &place,
                    format!(
                        "color map {:?} named {shown:?}: the game loads BLP, TGA, DDS and TIF textures, not this kind (convert the image to BLP beside the model)",
                        m.color_map
                    ),
                ));
            }
            let path = fixed(&map, 260, &place, "color map path", &mut losses);
            match model.textures.iter().position(|t| t.path == path) {
                Some(t) => t as i32,
                None => {
                    model.textures.push(Texture {
                        path,
                        ..Default::default()
                    });
                    model.textures.len() as i32 - 1
                }
            }
        };
        if !m.alpha_map.is_empty() {
            losses.push(Loss::new(
                &place,
                format!(
                    "alpha map {:?} (WC3 takes alpha from the texture)",
                    m.alpha_map
                ),
            ));
        }
        losses.push(Loss::new(
            &place,
            format!(
                "name {:?}, ambient, specular and emissive colors and shininess (no place in a WC3 material; the diffuse color tints its geosets)",
                m.name
            ),
        ));
        let alpha = m.transparency.clamp(0.0, 1.0);
        model.materials.push(WcMaterial {
            layers: vec![Layer {
                filter_mode: if alpha < 1.0 || !m.alpha_map.is_empty() {
                    filter_mode::BLEND
                } else {
                    filter_mode::NONE
                },
                texture_id,
                texture_animation_id: -1,
                alpha,
                ..Default::default()
            }],
            ..Default::default()
        });
    }
    let mut default_material = None;

    // Geosets: one per mesh that has vertices.
    let mut geoset_of_mesh = Vec::with_capacity(doc.meshes.len());
    for (mi, mesh) in doc.meshes.iter().enumerate() {
        let place = format!("Mesh[{mi}]");
        if mesh.vertices.is_empty() {
            losses.push(Loss::new(
                &place,
                "empty mesh (no vertices): no geoset (the game refuses an empty one)",
            ));
            geoset_of_mesh.push(None);
            continue;
        }
        geoset_of_mesh.push(Some(model.geosets.len()));
        let material_id = match usize::try_from(mesh.material)
            .ok()
            .filter(|&m| m < doc.materials.len())
        {
            Some(m) => m as u32,
            None => *default_material.get_or_insert_with(|| {
                let texture_id = white(&mut model);
                model.materials.push(WcMaterial {
                    layers: vec![Layer {
                        texture_id,
                        texture_animation_id: -1,
                        alpha: 1.0,
                        ..Default::default()
                    }],
                    ..Default::default()
                });
                model.materials.len() as u32 - 1
            }),
        };
        let geoset = mesh_to_geoset(
            mesh,
            material_id,
            still_bone,
            doc.bones.len(),
            &place,
            &mut losses,
        );
        model.geosets.push(geoset);
    }
    // A material's diffuse color tints the geosets that use it: the geoset animation's
    // static color (stored blue, green, red), which the game multiplies the texture by.
    for (mesh, gi) in doc.meshes.iter().zip(&geoset_of_mesh) {
        let Some(gi) = *gi else { continue };
        let Some(m) = usize::try_from(mesh.material)
            .ok()
            .and_then(|m| doc.materials.get(m))
        else {
            continue;
        };
        let [r, g, b, _] = m.diffuse;
        if [r, g, b].iter().all(|c| (c - 1.0).abs() < 1e-6) {
            continue;
        }
        model.geoset_animations.push(crate::model::GeosetAnimation {
            alpha: 1.0,
            flags: crate::model::geoset_animation_flags::USE_COLOR,
            color: [b, g, r],
            geoset_id: gi as i32,
            ..Default::default()
        });
    }
    if doc.meshes.iter().any(|m| !m.name.is_empty()) {
        losses.push(Loss::new("meshes", "names (WC3 geosets have none)"));
    }
    if doc.meshes.iter().any(|m| {
        m.flags != 0
            || m.vertices.iter().any(|v| v.flags != 0)
            || m.triangles.iter().any(|t| t.flags != 0)
    }) {
        losses.push(Loss::new(
            "meshes",
            "mesh, vertex and triangle flags (editor state)",
        ));
    }
    if doc
        .meshes
        .iter()
        .any(|m| m.triangles.iter().any(|t| t.smoothing_group != 0))
    {
        losses.push(Loss::new(
            "meshes",
            "smoothing groups (the normals they produced are kept)",
        ));
    }

    let extent = Extent::around(
        model
            .geosets
            .iter()
            .flat_map(|g| g.vertices.iter().copied()),
    );
    for (i, r) in ranges.iter().enumerate() {
        let place = format!("Sequence[{i}]");
        let (start, end) = (rate.ms(r.first), rate.ms(r.last));
        if start < 0 {
            losses.push(Loss::new(
                &place,
                format!("starts before frame 1 ({} ms): starts at 0", start),
            ));
        }
        model.sequences.push(Sequence {
            name: fixed(r.name.as_bytes(), 80, &place, "name", &mut losses),
            interval: [start.max(0) as u32, end.max(0) as u32],
            flags: if r.non_looping {
                SEQUENCE_NON_LOOPING
            } else {
                0
            },
            extent,
            ..Default::default()
        });
    }
    for g in &mut model.geosets {
        g.sequence_extents = vec![g.extent; model.sequences.len()];
    }
    model.info.name = fixed(opts.name.as_bytes(), 80, "model", "name", &mut losses);
    model.info.extent = extent;
    model.info.blend_time = 150;
    if let Some(c) = &doc.comments {
        let ours = c
            .model
            .as_ref()
            .is_some_and(|t| t.as_bytes().starts_with(SEQUENCES_PREFIX.as_bytes()));
        if !c.meshes.is_empty()
            || !c.materials.is_empty()
            || !c.bones.is_empty()
            || (c.model.is_some() && !ours)
        {
            losses.push(Loss::new(
                "comments",
                "mesh, material, joint and model comments",
            ));
        }
    }
    (model, losses)
}

fn linear<T>(keys: Vec<WcKey<T>>) -> Track<T> {
    Track {
        interpolation: Interpolation::Linear,
        global_sequence_id: -1,
        keys,
    }
}

/// One mesh as a geoset: vertices keep their order; a vertex used with different normals
/// is split into copies; each joint a vertex names becomes a matrix group.
/// A texture path the game loads: `path` when it names a BLP, TGA, DDS or TIF file (what
/// the `texture-path-extension` rule of [`crate::check`] accepts), else the same path
/// with the extension `.blp` (Milkshape models name `.bmp`, `.jpg` and `.png` images).
fn game_texture_path(path: &[u8]) -> Vec<u8> {
    let ext_at = path
        .iter()
        .rposition(|&b| b == b'.')
        .filter(|&i| !path[i..].iter().any(|&b| b == b'\\' || b == b'/'));
    let ext = ext_at.map(|i| path[i + 1..].to_ascii_lowercase());
    let known: [&[u8]; 4] = [b"blp", b"tga", b"dds", b"tif"];
    if ext.as_deref().is_some_and(|e| known.contains(&e)) {
        return path.to_vec();
    }
    let mut out = path[..ext_at.unwrap_or(path.len())].to_vec();
    out.extend_from_slice(b".blp");
    out
}

fn mesh_to_geoset(
    mesh: &Mesh,
    material_id: u32,
    still_bone: Option<u32>,
    joints: usize,
    place: &str,
    losses: &mut Vec<Loss>,
) -> Geoset {
    let mut vertices: Vec<Vec3> = mesh
        .vertices
        .iter()
        .map(|v| point_to_wc3(v.position))
        .collect();
    let mut uvs: Vec<[f32; 2]> = mesh.vertices.iter().map(|v| v.uv).collect();
    let mut bones: Vec<i32> = mesh.vertices.iter().map(|v| v.bone).collect();
    let mut normals: Vec<Option<Vec3>> = vec![None; vertices.len()];
    let mut copies: HashMap<(usize, [u32; 3]), usize> = HashMap::new();
    let mut faces: Vec<u16> = Vec::with_capacity(mesh.triangles.len() * 3);
    let mut bad = 0usize;
    for t in &mesh.triangles {
        let mut corners = [0usize; 3];
        let mut ok = true;
        for (c, (&vi, &ni)) in t.vertices.iter().zip(&t.normals).enumerate() {
            let Some(v) = usize::try_from(vi)
                .ok()
                .filter(|&v| v < mesh.vertices.len())
            else {
                ok = false;
                break;
            };
            let n = usize::try_from(ni)
                .ok()
                .and_then(|n| mesh.normals.get(n))
                .map_or([0.0; 3], |&n| point_to_wc3(n));
            let bits = n.map(f32::to_bits);
            corners[c] = match normals[v] {
                None => {
                    normals[v] = Some(n);
                    v
                }
                Some(have) if have.map(f32::to_bits) == bits => v,
                Some(_) => *copies.entry((v, bits)).or_insert_with(|| {
                    vertices.push(vertices[v]);
                    uvs.push(uvs[v]);
                    bones.push(bones[v]);
                    normals.push(Some(n));
                    vertices.len() - 1
                }),
            };
        }
        if !ok {
            bad += 1;
            continue;
        }
        if corners.iter().any(|&c| c > u16::MAX as usize) {
            bad += 1;
            continue;
        }
        faces.extend(corners.map(|c| c as u16));
    }
    if bad > 0 {
        losses.push(Loss::new(
            place,
            format!("{bad} triangle(s) naming missing vertices or past 65,535 vertices dropped"),
        ));
    }
    // One matrix group per joint used, in order of first use.
    let mut group_of: HashMap<u32, u8> = HashMap::new();
    let mut matrix_indices = Vec::new();
    let mut vertex_groups = Vec::with_capacity(vertices.len());
    let mut too_many = false;
    for &b in &bones {
        let node = match usize::try_from(b).ok().filter(|&b| b < joints) {
            Some(b) => b as u32,
            None => still_bone.unwrap_or(0),
        };
        let next = group_of.len();
        let g = *group_of.entry(node).or_insert_with(|| {
            if next > u8::MAX as usize {
                too_many = true;
            }
            matrix_indices.push(node);
            next.min(u8::MAX as usize) as u8
        });
        vertex_groups.push(g);
    }
    if too_many {
        losses.push(Loss::new(
            place,
            "more than 256 joints in one mesh: the rest follow joint 256",
        ));
    }
    let extent = Extent::around(vertices.iter().copied());
    Geoset {
        normals: normals
            .into_iter()
            .map(|n| n.unwrap_or([0.0, 0.0, 1.0]))
            .collect(),
        vertices,
        face_types: vec![4],
        face_group_sizes: vec![faces.len() as u32],
        faces,
        vertex_groups,
        matrix_group_sizes: vec![1; matrix_indices.len()],
        matrix_indices,
        material_id,
        extent,
        uv_sets: vec![uvs],
        ..Default::default()
    }
}

// ---------------------------------------------------------------------------------------
// Model -> Milkshape
// ---------------------------------------------------------------------------------------

/// How to turn a model into a Milkshape document.
#[derive(Clone, Debug, Default)]
pub struct ToMs3dOptions {
    /// Milliseconds to frames.
    pub rate: FrameRate,
    /// The one sequence to write (an index into [`Model::sequences`]); `None`: all of them.
    pub sequence: Option<usize>,
}

/// Counts a kind of record Milkshape has no place for.
fn dropped(losses: &mut Vec<Loss>, what: &str, count: usize) {
    if count > 0 {
        losses.push(Loss::new(
            what,
            format!("{count} dropped (Milkshape has no place for them)"),
        ));
    }
}

/// Converts a model to a Milkshape document: geosets become meshes, bones and helpers (and
/// any node they hang from) become joints, and each written sequence becomes keys at the
/// model's own key times, sampled with the animation engine. Returns the document and the
/// list of everything Milkshape cannot hold.
pub fn to_ms3d(model: &Model, opts: &ToMs3dOptions) -> (Document, Vec<Loss>) {
    let mut losses = Vec::new();
    let rate = opts.rate;
    // Sampled as if no sequence looped, so that a sequence's last moment is its own and not
    // its first again.
    let held = {
        let mut m = model.clone();
        for s in &mut m.sequences {
            s.flags |= SEQUENCE_NON_LOOPING;
        }
        m
    };
    let skeleton = Skeleton::new(&held);
    let nodes = &skeleton.nodes;

    // Which nodes become joints: bones, helpers, and everything they hang from.
    use crate::anim::NodeKind;
    let mut keep = vec![false; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        if matches!(n.kind, NodeKind::Bone | NodeKind::Helper) {
            let mut at = Some(i);
            while let Some(k) = at {
                if keep[k] {
                    break;
                }
                keep[k] = true;
                at = nodes[k].parent;
            }
        }
    }
    let joint_of: Vec<Option<usize>> = {
        let mut next = 0;
        keep.iter()
            .map(|&k| {
                k.then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect()
    };
    for (kind, name) in [
        (NodeKind::Light, "Light"),
        (NodeKind::Attachment, "Attachment"),
        (NodeKind::ParticleEmitter, "ParticleEmitter"),
        (NodeKind::ParticleEmitter2, "ParticleEmitter2"),
        (NodeKind::PopcornEmitter, "PopcornEmitter"),
        (NodeKind::RibbonEmitter, "RibbonEmitter"),
        (NodeKind::EventObject, "EventObject"),
        (NodeKind::CollisionShape, "CollisionShape"),
    ] {
        let all = nodes.iter().filter(|n| n.kind == kind).count();
        let kept = nodes
            .iter()
            .zip(&keep)
            .filter(|(n, &k)| n.kind == kind && k)
            .count();
        dropped(&mut losses, name, all - kept);
        if kept > 0 {
            losses.push(Loss::new(
                name,
                format!("{kept} kept only as plain joints (bones hang from them)"),
            ));
        }
    }
    dropped(&mut losses, "Camera", model.cameras.len());
    dropped(
        &mut losses,
        "GeosetAnimation",
        model.geoset_animations.len(),
    );
    dropped(
        &mut losses,
        "TextureAnimation",
        model.texture_animations.len(),
    );
    dropped(&mut losses, "GlobalSequence", model.global_sequences.len());
    dropped(&mut losses, "FaceEffect", model.face_effects.len());
    dropped(&mut losses, "BindPose", model.bind_poses.len().min(1));
    dropped(&mut losses, "unknown chunk", model.unknown_chunks.len());

    // Joint names must be unique: Milkshape finds parents by name.
    let mut names: Vec<Vec<u8>> = Vec::new();
    let mut seen: HashMap<Vec<u8>, usize> = HashMap::new();
    for (i, n) in nodes.iter().enumerate() {
        if !keep[i] {
            continue;
        }
        let mut name = n.node.name.text_bytes().to_vec();
        if name.is_empty() || name.contains(&b'"') || seen.contains_key(&name) {
            let fresh = format!(
                "{}_{}",
                String::from_utf8_lossy(&name).replace('"', "'"),
                n.node.object_id
            )
            .into_bytes();
            losses.push(Loss::new(
                format!("{}[{}]", n.kind.name(), n.index),
                format!(
                    "renamed {:?} to {:?} (joint names must be unique and quotable)",
                    String::from_utf8_lossy(&name),
                    String::from_utf8_lossy(&fresh)
                ),
            ));
            name = fresh;
        }
        seen.insert(name.clone(), i);
        names.push(name);
    }

    // Which moments to write.
    let sequences: Vec<usize> = match opts.sequence {
        Some(s) if s < model.sequences.len() => vec![s],
        Some(_) => Vec::new(),
        None => (0..model.sequences.len()).collect(),
    };
    if opts.sequence.is_some() && model.sequences.len() > 1 {
        dropped(
            &mut losses,
            "Sequence (not chosen)",
            model.sequences.len() - 1,
        );
    }
    // A node's key times inside [lo, hi]. Keys on a global sequence repeat every length of
    // it, on the clock that starts with the sequence.
    let node_key_times = |i: usize, lo: i64, hi: i64, out: &mut Vec<i64>| {
        for a in nodes[i].node.tracks.iter() {
            if ![KGTR, KGRT, KGSC].contains(&a.tag) {
                continue;
            }
            let (times, gid): (Vec<i64>, i32) = match &a.track {
                AnyTrack::Vector3(t) => (
                    t.keys.iter().map(|k| i64::from(k.time)).collect(),
                    t.global_sequence_id,
                ),
                AnyTrack::Quaternion(t) => (
                    t.keys.iter().map(|k| i64::from(k.time)).collect(),
                    t.global_sequence_id,
                ),
                _ => (Vec::new(), -1),
            };
            let global = usize::try_from(gid)
                .ok()
                .and_then(|g| model.global_sequences.get(g))
                .map(|&len| i64::from(len));
            match global {
                Some(len) if len > 0 => {
                    for t in times.into_iter().filter(|t| (0..=len).contains(t)) {
                        let mut at = lo + t;
                        let mut n = 0;
                        while at <= hi && n < 10_000 {
                            out.push(at);
                            at += len;
                            n += 1;
                        }
                    }
                }
                Some(_) => {}
                None => out.extend(times.into_iter().filter(|t| (lo..=hi).contains(t))),
            }
        }
    };
    let animated = |i: usize| {
        nodes[i]
            .node
            .tracks
            .iter()
            .any(|a| [KGTR, KGRT, KGSC].contains(&a.tag))
    };
    // Per joint: the times to key (own key times; an ancestor's too when the node does not
    // inherit everything, since then its own pose depends on them), per sequence.
    let mut joint_keys: Vec<(Vec<Key>, Vec<Key>)> = vec![(Vec::new(), Vec::new()); names.len()];
    let mut scaled = 0usize;
    let mut last_frame = 1.0f32;
    let mut overlaps = 0usize;
    let dont_inherit = node_flags::DONT_INHERIT;
    let billboard = node_flags::BILLBOARD;
    for (i, n) in nodes.iter().enumerate() {
        if keep[i] && n.node.flags & billboard != 0 {
            losses.push(Loss::new(
                format!("{}[{}]", n.kind.name(), n.index),
                "billboarding (Milkshape has no camera-facing joints)",
            ));
        }
    }
    for &s in &sequences {
        let seq = &model.sequences[s];
        let (lo, hi) = (i64::from(seq.interval[0]), i64::from(seq.interval[1]));
        last_frame = last_frame.max(rate.frame(hi as f64));
        // Every animated joint is keyed at every key time of any joint (full key frames):
        // a joint's place at a parent's key time then depends on no interpolation.
        let mut times = vec![lo, hi];
        let mut who = Vec::new();
        for i in 0..nodes.len() {
            if joint_of[i].is_none() {
                continue;
            }
            node_key_times(i, lo, hi, &mut times);
            if animated(i) || nodes[i].node.flags & dont_inherit != 0 {
                who.push(i);
            }
        }
        times.sort_unstable();
        times.dedup();
        let wanted: Vec<(i64, Vec<usize>)> = if who.is_empty() {
            Vec::new()
        } else {
            times.into_iter().map(|t| (t, who.clone())).collect()
        };
        for (t, who) in wanted {
            let pose = skeleton.pose(AnimTime::new(Some(s), (t - lo) as f64), None);
            let frame = rate.frame(t as f64);
            for i in who {
                let Some(j) = joint_of[i] else { continue };
                // The node's transform relative to its parent joint, from the posed world
                // matrices (so don't-inherit flags are baked in).
                let world = pose.nodes[i].world;
                let parent_world = nodes[i].parent.map_or(IDENTITY, |p| pose.nodes[p].world);
                let Some(inv) = crate::anim::math::invert_affine(&parent_world) else {
                    continue;
                };
                let local = mul(&inv, &world);
                let (r, lens) = crate::anim::math::decompose(&local);
                if lens.iter().any(|l| (l - 1.0).abs() > 1e-4) {
                    scaled += 1;
                }
                let pivot = nodes[i].pivot;
                let moved = transform_point(&local, pivot);
                let tr = [
                    moved[0] - pivot[0],
                    moved[1] - pivot[1],
                    moved[2] - pivot[2],
                ];
                let (pk, rk) = &mut joint_keys[j];
                if pk.last().is_some_and(|k: &Key| k.time >= frame) {
                    overlaps += 1;
                    continue;
                }
                pk.push(Key {
                    time: frame,
                    value: point_to_ms3d(tr),
                });
                rk.push(Key {
                    time: frame,
                    value: quat_to_euler(rotation_to_ms3d(r)),
                });
            }
        }
    }
    if scaled > 0 {
        losses.push(Loss::new(
            "joints",
            format!("scaling at {scaled} key(s) (Milkshape joints cannot scale)"),
        ));
    }
    if overlaps > 0 {
        losses.push(Loss::new(
            "sequences",
            format!(
                "{overlaps} key(s) where one sequence ends as the next starts (the first kept)"
            ),
        ));
    }
    if !model.global_sequences.is_empty() {
        losses.push(Loss::new(
            "tracks",
            "global-sequence tracks become keys on the written sequences' clock (from each sequence's start)",
        ));
    }

    // Joints.
    let mut doc = Document {
        frames: Some(last_frame.ceil() as i32),
        frame: Some(1),
        ..Default::default()
    };
    for (i, n) in nodes.iter().enumerate() {
        let Some(j) = joint_of[i] else { continue };
        let parent = n.parent.filter(|&p| keep[p]);
        let parent_pivot = parent.map_or([0.0; 3], |p| nodes[p].pivot);
        let (position_keys, rotation_keys) = std::mem::take(&mut joint_keys[j]);
        doc.bones.push(ms3d::Bone {
            name: Text(names[j].clone()),
            parent: parent.map_or(Text::default(), |p| {
                Text(names[joint_of[p].unwrap_or(0)].clone())
            }),
            flags: 0,
            position: point_to_ms3d([
                n.pivot[0] - parent_pivot[0],
                n.pivot[1] - parent_pivot[1],
                n.pivot[2] - parent_pivot[2],
            ]),
            rotation: [0.0; 3],
            position_keys,
            rotation_keys,
        });
    }

    // Materials: the first layer's texture and alpha.
    for (i, m) in model.materials.iter().enumerate() {
        let place = format!("Material[{i}]");
        let layer = m.layers.first();
        let texture = layer
            .and_then(|l| usize::try_from(l.texture_id).ok())
            .and_then(|t| model.textures.get(t));
        let color_map = match texture {
            Some(t) if t.replaceable_id != 0 => {
                losses.push(Loss::new(
                    &place,
                    format!(
                        "replaceable texture {} (team color, ...) has no file",
                        t.replaceable_id
                    ),
                ));
                Text::default()
            }
            Some(t) => Text(t.path.text_bytes().to_vec()),
            None => Text::default(),
        };
        if m.layers.len() > 1 {
            losses.push(Loss::new(
                &place,
                format!("{} layer(s) after the first", m.layers.len() - 1),
            ));
        }
        if layer.is_some_and(|l| !l.tracks.is_empty()) {
            losses.push(Loss::new(&place, "layer animation (alpha, texture id...)"));
        }
        if layer.is_some_and(|l| l.filter_mode > filter_mode::BLEND) {
            losses.push(Loss::new(&place, "filter mode (additive, modulate...)"));
        }
        doc.materials.push(ms3d::Material {
            name: Text(format!("material_{i}").into_bytes()),
            ambient: [0.2, 0.2, 0.2, 1.0],
            diffuse: [0.8, 0.8, 0.8, 1.0],
            specular: [0.0, 0.0, 0.0, 1.0],
            emissive: [0.0, 0.0, 0.0, 1.0],
            shininess: 0.0,
            transparency: layer.map_or(1.0, |l| l.alpha),
            color_map,
            alpha_map: Text::default(),
        });
    }

    // Meshes.
    let joint_of_object = |id: u32| skeleton.by_object_id(id).and_then(|n| joint_of[n]);
    let mut multi = 0usize;
    for (gi, g) in model.geosets.iter().enumerate() {
        let place = format!("Geoset[{gi}]");
        if g.uv_sets.len() > 1 {
            losses.push(Loss::new(
                &place,
                format!("{} UV set(s) after the first", g.uv_sets.len() - 1),
            ));
        }
        if g.tangents.is_some() {
            losses.push(Loss::new(&place, "tangents"));
        }
        if g.lod != 0 || !g.lod_name.text_bytes().is_empty() {
            losses.push(Loss::new(&place, "level of detail"));
        }
        // Group boundaries.
        let groups = g.matrix_groups();
        let skin = g
            .skin
            .as_deref()
            .filter(|s| s.len() == g.vertices.len() * 8);
        let uvs = g.uv_sets.first();
        let mut vertices = Vec::with_capacity(g.vertices.len());
        for (v, p) in g.vertices.iter().enumerate() {
            let bone = match skin {
                Some(s) => {
                    let b = &s[v * 8..v * 8 + 8];
                    let influences = (0..4).filter(|&k| b[4 + k] > 0).count();
                    multi += usize::from(influences > 1);
                    (0..4)
                        .filter(|&k| b[4 + k] > 0)
                        .max_by_key(|&k| (b[4 + k], std::cmp::Reverse(k)))
                        .and_then(|k| g.matrix_indices.get(b[k] as usize).copied())
                }
                None => {
                    let group = g
                        .vertex_groups
                        .get(v)
                        .and_then(|&gr| groups.get(gr as usize));
                    multi += usize::from(group.is_some_and(|gr| gr.len() > 1));
                    group.and_then(|gr| gr.first().copied())
                }
            };
            vertices.push(Vertex {
                flags: 0,
                position: point_to_ms3d(*p),
                uv: uvs.and_then(|u| u.get(v)).copied().unwrap_or([0.0; 2]),
                bone: bone.and_then(joint_of_object).map_or(-1, |j| j as i32),
            });
        }
        let normals = (0..g.vertices.len())
            .map(|v| point_to_ms3d(g.normals.get(v).copied().unwrap_or([0.0, 0.0, 1.0])))
            .collect();
        let (faces, skipped) = g.triangles();
        let triangles = faces
            .into_iter()
            .map(|t| {
                let v = t.map(i32::from);
                Triangle {
                    flags: 0,
                    vertices: v,
                    normals: v,
                    smoothing_group: 1,
                }
            })
            .collect();
        if skipped > 0 {
            losses.push(Loss::new(
                &place,
                format!("{skipped} face group(s) of other primitive types"),
            ));
        }
        doc.meshes.push(Mesh {
            name: Text(format!("geoset_{gi}").into_bytes()),
            flags: 0,
            material: g.material_id as i32,
            vertices,
            normals,
            triangles,
        });
    }
    if multi > 0 {
        losses.push(Loss::new(
            "vertices",
            format!("{multi} vertex(es) bound to several bones now follow the strongest (the first of a group)"),
        ));
    }

    // The sequences, so that converting back restores them.
    let list: Vec<String> = sequences
        .iter()
        .map(|&s| {
            let q = &model.sequences[s];
            format!(
                "{}-{}{} {}",
                rate.frame(f64::from(q.interval[0])),
                rate.frame(f64::from(q.interval[1])),
                if q.is_looping() { "" } else { "!" },
                escape(q.name.text_bytes())
            )
        })
        .collect();
    if !list.is_empty() {
        doc.comments = Some(Comments {
            model: Some(Text(
                format!("{SEQUENCES_PREFIX}{}", list.join("; ")).into_bytes(),
            )),
            ..Default::default()
        });
    }
    (doc, losses)
}
