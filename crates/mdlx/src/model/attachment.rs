//! Attachments (ATCH), event objects (EVTS) and collision shapes (CLID): node-based records.

use crate::spec::keywords::{Field, Style};
use crate::spec::len;

use super::declare::record;
use super::{FixedString, Node};

/// The declaration of [`Attachment`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! attachment_decl {
    ($mac:ident) => {
        $mac! {
            /// An attachment point (weapon, overhead, origin...).
            Attachment = "Attachment" in "Attachment" {
                head node: $crate::model::Node = $crate::spec::kind::ATTACHMENT;
                size 4;
                tracks(tracks, tail) [$crate::spec::track::KATV => "Visibility"];
                mdl [attachment_id, path];
            }
            fields {
                /// Model path attached here (260 bytes), usually empty.
                path: FixedString[len::PATH] => Field::new(&["Path"], Style::NonZero),
                /// Attachment id.
                attachment_id: u32 => Field::new(&["AttachmentID"], Style::Plain),
            }
        }
    };
}
pub(crate) use attachment_decl;

attachment_decl!(record);

/// The times at which an event object fires.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventTrack {
    /// Global sequence id, or -1.
    pub global_sequence_id: i32,
    /// Times in milliseconds.
    pub times: Vec<u32>,
}

/// The declaration of [`EventObject`]: hands its field list to `$mac` (see [`declare`](super::declare)).
macro_rules! event_object_decl {
    ($mac:ident) => {
        $mac! {
            /// An event object (sound, spawned model, splat...), named by its event code.
            EventObject = "EventObject" in "EventObject" {
                head node: $crate::model::Node = $crate::spec::kind::EVENT;
            }
            fields {
                /// The KEVT track, if present.
                track: Option<EventTrack> => Field::new(&["EventTrack"], Style::NonZero),
            }
        }
    };
}
pub(crate) use event_object_decl;

event_object_decl!(record);

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
    pub(crate) fn data_len(shape_type: u32) -> Option<usize> {
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

impl super::declare::Opaque for CollisionShape {
    fn opaque_bytes(&self) -> usize {
        0
    }
}
