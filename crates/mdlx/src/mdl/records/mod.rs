//! MDL reading and writing of each record kind. Every record implements [`MdlRecord`];
//! its keywords appear only in its own file.

pub mod emitters;
pub mod geoset;
pub mod material;
pub mod model;
pub mod node;

use super::cx::Cx;
use super::out::Out;

/// A record that reads from an MDL block and writes one.
pub trait MdlRecord: Sized {
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
    /// A copy with the bulk lists (vertex data, keyframes) cut to their first elements, if
    /// every number cut away prints and reads back exactly (MDL writes each list element
    /// by the same code, so checking the copy checks the record); `None` to check all.
    fn skeleton(&self) -> Option<Self> {
        None
    }
}

/// True when a float prints and reads back with the same bits (all but NaN payloads).
pub fn exact(v: f32) -> bool {
    !v.is_nan() || v.to_bits() == f32::NAN.to_bits()
}

/// Cuts every track to its first two keys; false if a cut key holds an inexact float.
pub fn trim_tracks(tracks: &mut crate::model::Tracks) -> bool {
    use crate::model::AnyTrack;
    fn cut<T: Copy>(keys: &mut Vec<crate::model::Key<T>>, floats: impl Fn(&T) -> bool) -> bool {
        let ok = keys
            .iter()
            .skip(2)
            .all(|k| floats(&k.value) && floats(&k.in_tan) && floats(&k.out_tan));
        keys.truncate(2);
        ok
    }
    tracks.0.iter_mut().all(|a| match &mut a.track {
        AnyTrack::Float(t) => cut(&mut t.keys, |v| exact(*v)),
        AnyTrack::Vector3(t) => cut(&mut t.keys, |v| v.iter().all(|x| exact(*x))),
        AnyTrack::Quaternion(t) => cut(&mut t.keys, |v| v.iter().all(|x| exact(*x))),
        AnyTrack::Integer(t) => cut(&mut t.keys, |_| true),
    })
}

/// Cuts a list to one element; false if a cut element holds an inexact float.
pub fn trim_list<const N: usize>(v: &mut Vec<[f32; N]>) -> bool {
    let ok = v.iter().skip(1).all(|e| e.iter().all(|x| exact(*x)));
    v.truncate(1);
    ok
}
