//! Attachments (ATCH), event objects (EVTS) and collision shapes (CLID): node-based records.

use crate::format::keywords::{Field, Style};
use crate::format::kind;
use crate::format::{len, track as tk};
use crate::mdx::error::MdxErrorKind;
use crate::mdx::reader::Reader;
use crate::mdx::record::MdxRecord;
use crate::mdx::writer::Writer;
use crate::mdx::MdxResult;

use super::declare::record;
use super::{FixedString, Node};

record! {
    /// An attachment point (weapon, overhead, origin...).
    Attachment = "Attachment" in "Attachment" {
        head node: Node = kind::ATTACHMENT;
        size 4;
        tracks(tracks, tail) [tk::KATV => "Visibility"];
        mdl [attachment_id, path];
    }
    fields {
        /// Model path attached here (260 bytes), usually empty.
        path: FixedString[len::PATH] => Field::new(&["Path"], Style::NonZero),
        /// Attachment id.
        attachment_id: u32 => Field::new(&["AttachmentID"], Style::Plain),
    }
}

/// The times at which an event object fires.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventTrack {
    /// Global sequence id, or -1.
    pub global_sequence_id: i32,
    /// Times in milliseconds.
    pub times: Vec<u32>,
}

record! {
    /// An event object (sound, spawned model, splat...), named by its event code.
    EventObject = "EventObject" in "EventObject" {
        head node: Node = kind::EVENT;
    }
    fields {
        /// The KEVT track, if present.
        track: Option<EventTrack> => Field::new(&["EventTrack"], Style::NonZero),
    }
}

/// The shape of a collision volume with its numbers.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Axis-aligned box from two corners (type 0).
    Box([[f32; 3]; 2]),
    /// Plane given by two corners (type 1).
    Plane([[f32; 3]; 2]),
    /// Sphere: center and radius (type 2).
    Sphere([f32; 3], f32),
    /// Cylinder: two end centers and radius (type 3).
    Cylinder([[f32; 3]; 2], f32),
    /// A known shape type whose numbers are cut off by the end of the chunk (seen in real
    /// files); the bytes that are there are kept.
    Incomplete {
        /// The shape type number (0-3).
        shape_type: u32,
        /// The bytes between the type and the end of the chunk.
        data: Vec<u8>,
    },
}

impl Shape {
    /// Bytes of numbers after the type field, by shape type; `None` for an unknown type.
    fn data_len(shape_type: u32) -> Option<usize> {
        match shape_type {
            0 | 1 => Some(24),
            2 => Some(16),
            3 => Some(28),
            _ => None,
        }
    }
}

impl Default for Shape {
    fn default() -> Self {
        Shape::Sphere([0.0; 3], 0.0)
    }
}

/// A collision shape used for selection and hit tests.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CollisionShape {
    /// The node part.
    pub node: Node,
    /// The shape.
    pub shape: Shape,
}

impl MdxRecord for CollisionShape {
    const NAME: &'static str = "CollisionShape";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let node = Node::read_mdx(r, version)?;
        let at = r.offset();
        let shape_type = r.u32()?;
        let Some(need) = Shape::data_len(shape_type) else {
            return Err(r.error_at(
                MdxErrorKind::UnknownLayout {
                    what: "collision shape type",
                    value: shape_type,
                },
                at,
            ));
        };
        if need > r.remaining() {
            let data = r.rest().to_vec();
            return Ok(CollisionShape {
                node,
                shape: Shape::Incomplete { shape_type, data },
            });
        }
        let shape = match shape_type {
            0 => Shape::Box([r.f32s()?, r.f32s()?]),
            1 => Shape::Plane([r.f32s()?, r.f32s()?]),
            2 => Shape::Sphere(r.f32s()?, r.f32()?),
            _ => Shape::Cylinder([r.f32s()?, r.f32s()?], r.f32()?),
        };
        Ok(CollisionShape { node, shape })
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        self.node.write_mdx(w, version)?;
        match &self.shape {
            Shape::Box(v) => {
                w.u32(0);
                w.f32s(&v[0]);
                w.f32s(&v[1]);
            }
            Shape::Plane(v) => {
                w.u32(1);
                w.f32s(&v[0]);
                w.f32s(&v[1]);
            }
            Shape::Sphere(c, radius) => {
                w.u32(2);
                w.f32s(c);
                w.f32(*radius);
            }
            Shape::Cylinder(v, radius) => {
                w.u32(3);
                w.f32s(&v[0]);
                w.f32s(&v[1]);
                w.f32(*radius);
            }
            Shape::Incomplete { shape_type, data } => {
                w.u32(*shape_type);
                w.bytes(data);
            }
        }
        Ok(())
    }
}

impl super::declare::Opaque for CollisionShape {
    fn opaque_bytes(&self) -> usize {
        0
    }
}
