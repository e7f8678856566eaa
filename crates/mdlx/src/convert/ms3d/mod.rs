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

mod axes;
mod from_model;
mod from_ms3d;
mod pose;
mod time;

pub use from_model::{to_ms3d, ToMs3dOptions};
pub use from_ms3d::{to_model, ToModelOptions};
pub use pose::{joint_parents, ms3d_joint_positions};
pub use time::{FrameRange, FrameRate};

/// The node flag WC3 bones carry.
const BONE_FLAG: u32 = 0x100;
