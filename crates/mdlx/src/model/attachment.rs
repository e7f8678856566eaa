//! Attachments (ATCH), event objects (EVTS) and collision shapes (CLID): node-based records.

use crate::format::{len, sub};
use crate::mdx::error::MdxErrorKind;
use crate::mdx::reader::{scoped, Reader};
use crate::mdx::record::{write_sized, MdxRecord};
use crate::mdx::tracks::{read_tracks, write_tracks};
use crate::mdx::writer::Writer;
use crate::mdx::MdxResult;

use super::{FixedString, Node, Tracks};

/// An attachment point (weapon, overhead, origin...).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Attachment {
    /// The node part.
    pub node: Node,
    /// Model path attached here (260 bytes), usually empty.
    pub path: FixedString,
    /// Attachment id.
    pub attachment_id: u32,
    /// Visibility (KATV) track.
    pub tracks: Tracks,
    /// Bytes after the tracks inside the record's size, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for Attachment {
    const NAME: &'static str = "Attachment";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut a = r.inclusive_region(4)?;
        let node = Node::read_mdx(&mut a, version)?;
        let path = a.fixed_str(len::PATH)?;
        let attachment_id = a.u32()?;
        let (tracks, tail) = read_tracks(&mut a)?;
        Ok(Attachment {
            node,
            path,
            attachment_id,
            tracks,
            tail,
        })
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            self.node.write_mdx(w, version)?;
            w.fixed_str(&self.path, len::PATH, "attachment path")?;
            w.u32(self.attachment_id);
            write_tracks(w, &self.tracks, &self.tail)
        })
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

/// An event object (sound, spawned model, splat...), named by its event code.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventObject {
    /// The node part; the name encodes the event.
    pub node: Node,
    /// The KEVT track, if present.
    pub track: Option<EventTrack>,
}

impl MdxRecord for EventObject {
    const NAME: &'static str = "EventObject";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let node = Node::read_mdx(r, version)?;
        let track = if r.peek_tag() == Some(sub::KEVT) {
            Some(scoped(
                || "KEVT".into(),
                || {
                    r.tag()?;
                    let n = r.u32()?;
                    let global_sequence_id = r.i32()?;
                    Ok(EventTrack {
                        global_sequence_id,
                        times: r.vec_u32(n)?,
                    })
                },
            )?)
        } else {
            None
        };
        Ok(EventObject { node, track })
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        self.node.write_mdx(w, version)?;
        if let Some(t) = &self.track {
            w.tag(sub::KEVT);
            w.count(t.times.len())?;
            w.i32(t.global_sequence_id);
            w.vec_u32(&t.times);
        }
        Ok(())
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
