//! The kind bit each node block implies in the node flags.

/// Helper.
pub(crate) const HELPER: u32 = 0;
/// Bone.
pub(crate) const BONE: u32 = 0x100;
/// Light.
pub(crate) const LIGHT: u32 = 0x200;
/// Event object.
pub(crate) const EVENT: u32 = 0x400;
/// Attachment.
pub(crate) const ATTACHMENT: u32 = 0x800;
/// Particle emitter (both kinds).
pub(crate) const PARTICLE_EMITTER: u32 = 0x1000;
/// Collision shape.
pub(crate) const COLLISION_SHAPE: u32 = 0x2000;
/// Ribbon emitter.
pub(crate) const RIBBON_EMITTER: u32 = 0x4000;
