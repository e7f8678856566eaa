//! glTF 2.0 documents: a `.gltf` or `.glb` read with its buffers and images ([`Source`]),
//! its accessors decoded, and the errors of a document that is not whole ([`GltfError`],
//! each with its JSON path).
//!
//! This is the document layer. What a model becomes in glTF and what a glTF becomes as a
//! model (the mapping both ways) is a conversion beside the others: [`crate::convert::gltf`].

pub mod source;

pub use source::{GltfError, Source};
