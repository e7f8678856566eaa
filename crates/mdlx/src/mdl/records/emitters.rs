//! MDL facts shared by the emitter blocks and the camera: `ParticleEmitter` (PREM),
//! `ParticleEmitter2` (PRE2), `RibbonEmitter` (RIBB), the Reforged `ParticleEmitterPopcorn`
//! (CORN) and `Camera` (CAMS), whose fields are declared in `model::emitters` and
//! `model::camera`; and their tests.
//!
//! Writing follows the Blizzard layout of seed 000 B.2: the node head, flags as bare words,
//! `static Key v` lines, the other fields, then the record's tracks in stored order and the
//! node's transform tracks. A field that is also animated keeps its `static` line only when
//! its value is not bitwise 0 (what the reader assumes when the line is absent), so both the
//! value and the track survive. The two sub-blocks that hold tracks (`Particle { }` of the
//! particle emitter, `Target { }` of the camera) are placed where their tracks fall in the
//! stored order, so that order survives too.
//!
//! Reading accepts the blocks' lines in any order and case, with or without `static`, and
//! the spellings real exporters use (`InitVelocity` or `Speed` in `Particle { }`).
//!
//! Two conventions were settled against the corpus (MDL files with an MDX twin):
//! - static colors are printed in the reverse order of their MDX bytes, animated color keys
//!   in stored order ([`mdl_color`]);
//! - the PRE2 emitter-area floats: see [`PRE2_AREA_KEYWORDS`](crate::spec::keywords::PRE2_AREA_KEYWORDS) (settled, with evidence).

/// A static color as MDL prints it: the reverse of its MDX byte order. Every twin in the
/// corpus agrees (Magos' editor, MdlxConv: PRE2 segment colors, ribbon, light and geoset
/// animation colors), and so does mdx-m3-viewer; animated color keys are printed as stored.
/// The reversal is its own inverse, so reading uses it too.
pub(crate) fn mdl_color(c: [f32; 3]) -> [f32; 3] {
    [c[2], c[1], c[0]]
}
