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
}
