//! MDL reading and writing of each record kind. Every record implements [`MdlRecord`];
//! its keywords appear only in its own file.

pub(crate) mod declared;
#[cfg(test)]
mod emitter_tests;
pub(crate) mod emitters;
pub(crate) mod fields;
pub(crate) mod geoset;
pub(crate) mod material;
pub(crate) mod model;
pub(crate) mod node;

use super::cx::Cx;
use super::out::Out;

/// The trait methods every node block shares: its node, its flags word, and (for `tracks`
/// or `node_only`) its skeleton with the node's tracks, and the record's own, cut short.
macro_rules! node_parts {
    (@common) => {
        fn node_mut(&mut self) -> Option<&mut crate::model::Node> {
            Some(&mut self.node)
        }

        fn flags_mut(&mut self) -> Option<&mut u32> {
            Some(&mut self.node.flags)
        }
    };
    (node_only) => {
        node_parts!(@common);

        fn skeleton(&self) -> Option<Self> {
            let mut s = self.clone();
            s.node = super::trimmed_node(&self.node)?;
            Some(s)
        }
    };
    (tracks) => {
        node_parts!(@common);

        fn skeleton(&self) -> Option<Self> {
            let mut s = self.clone();
            s.node = super::trimmed_node(&self.node)?;
            s.tracks = super::trimmed_tracks(&self.tracks)?;
            Some(s)
        }
    };
}
pub(crate) use node_parts;

/// A record that reads from an MDL block and writes one.
pub(crate) trait MdlRecord: Sized {
    /// The block keyword (`Bone`, `Geoset`, ...), also the record's name in messages.
    const BLOCK: &'static str;
    /// Reads the block at item `i` of the tree. Problems are pushed to `cx.diags`; what
    /// could be read is returned.
    fn read_mdl(cx: &mut Cx, i: usize) -> Self;
    /// Writes the block (with its header line) at the current indentation.
    fn write_mdl(&self, out: &mut Out, version: u32);
    /// The record's main flags word, for records whose flags can hold bits that MDL words
    /// cannot express (node kind bits, unknown bits). The extension block then keeps just
    /// the number instead of the whole record.
    fn flags_mut(&mut self) -> Option<&mut u32> {
        None
    }
    /// The node part, for node blocks.
    fn node_mut(&mut self) -> Option<&mut crate::model::Node> {
        None
    }
    /// The record's face groups as (type, size) pairs when its MDL text writes them in a
    /// form that reads back as other groups (a geoset's triangle groups written as one
    /// `Triangles` block); the extension block then keeps just the groups. `None` when the
    /// text reads back to the same groups.
    fn face_groups(&self) -> Option<Vec<(u32, u32)>> {
        None
    }
    /// Puts back face groups given by [`MdlRecord::face_groups`]; the caller checks that
    /// their sizes add up to the record's indices.
    fn set_face_groups(&mut self, _groups: &[(u32, u32)]) {}
    /// A copy with the bulk lists (vertex data, keyframes) cut to their first elements, if
    /// every number cut away prints and reads back exactly (MDL writes each list element
    /// by the same code, so checking the copy checks the record); `None` to check all.
    fn skeleton(&self) -> Option<Self> {
        None
    }
}

/// True when a float prints and reads back with the same bits (all but NaN payloads).
pub(crate) fn exact(v: f32) -> bool {
    !v.is_nan() || v.to_bits() == f32::NAN.to_bits()
}

/// The tracks cut to their first two keys, if every cut key holds only exact floats.
pub(crate) fn trimmed_tracks(tracks: &crate::model::Tracks) -> Option<crate::model::Tracks> {
    use crate::model::{Animation, AnyTrack, Key, Track};
    fn cut<T: Copy>(t: &Track<T>, floats: impl Fn(&T) -> bool) -> Option<Track<T>> {
        let rest: &[Key<T>] = t.keys.get(2..).unwrap_or(&[]);
        rest.iter()
            .all(|k| floats(&k.value) && floats(&k.in_tan) && floats(&k.out_tan))
            .then(|| Track {
                interpolation: t.interpolation,
                global_sequence_id: t.global_sequence_id,
                keys: t.keys[..t.keys.len().min(2)].to_vec(),
            })
    }
    let all = |v: &[f32]| v.iter().all(|x| exact(*x));
    let list = tracks.iter().map(|a| {
        let track = match &a.track {
            AnyTrack::Float(t) => AnyTrack::Float(cut(t, |v| exact(*v))?),
            AnyTrack::Vector3(t) => AnyTrack::Vector3(cut(t, |v| all(v))?),
            AnyTrack::Quaternion(t) => AnyTrack::Quaternion(cut(t, |v| all(v))?),
            AnyTrack::Integer(t) => AnyTrack::Integer(cut(t, |_| true)?),
        };
        Some(Animation { tag: a.tag, track })
    });
    list.collect::<Option<Vec<_>>>().map(crate::model::Tracks)
}

/// The node with its tracks cut (see [`trimmed_tracks`]).
pub(crate) fn trimmed_node(n: &crate::model::Node) -> Option<crate::model::Node> {
    Some(crate::model::Node {
        name: n.name.clone(),
        object_id: n.object_id,
        parent_id: n.parent_id,
        flags: n.flags,
        tracks: trimmed_tracks(&n.tracks)?,
        tail: n.tail.clone(),
    })
}

/// True if every element after the first holds only exact floats.
pub(crate) fn exact_after_first<const N: usize>(v: &[[f32; N]]) -> bool {
    v.iter().skip(1).all(|e| e.iter().all(|x| exact(*x)))
}

/// A copy of the first element of a list (or an empty list).
pub(crate) fn first<T: Clone>(v: &[T]) -> Vec<T> {
    v[..v.len().min(1)].to_vec()
}
