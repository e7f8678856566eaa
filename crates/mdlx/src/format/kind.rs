//! The kind bit each node block implies in the node flags.

/// Helper.
pub const HELPER: u32 = 0;
/// Bone.
pub const BONE: u32 = 0x100;
/// Light.
pub const LIGHT: u32 = 0x200;
/// Event object.
pub const EVENT: u32 = 0x400;
/// Attachment.
pub const ATTACHMENT: u32 = 0x800;
/// Particle emitter (both kinds).
pub const PARTICLE_EMITTER: u32 = 0x1000;
/// Collision shape.
pub const COLLISION_SHAPE: u32 = 0x2000;
/// Ribbon emitter.
pub const RIBBON_EMITTER: u32 = 0x4000;
