//! MDX reading and writing of the records written by hand (the rest are generated from
//! their declarations, see [`crate::model::declare`]): the node part every object starts
//! with, the collision shape (its numbers depend on its type), the camera (its layout
//! number lives in the top byte of its size word) and the model info.

use crate::model::{Camera, CollisionShape, FixedString, ModelInfo, Node, Shape};
use crate::spec::len;

use super::error::MdxErrorKind;
use super::reader::Reader;
use super::record::{write_sized, MdxField, MdxRecord, MdxTrackList};
use super::tracks::{read_tracks, write_tracks};
use super::writer::Writer;
use super::{read_extent, write_extent, MdxResult};

impl MdxRecord for Node {
    const NAME: &'static str = "Node";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        let (mut n, name, object_id, parent_id, flags) = read_object_head(r)?;
        let (tracks, tail) = read_tracks(&mut n)?;
        Ok(Node {
            name,
            object_id,
            parent_id,
            flags,
            tracks,
            tail,
        })
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            let head = (&self.name, self.object_id, self.parent_id, self.flags);
            write_object_head(w, head, "node name")?;
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}

/// A generic object's head, as Warcraft III and the WoW alpha family both lay it out: its
/// inclusive size, name, object id, parent id and flags, and the rest of its region (its
/// tracks) to read on.
pub(crate) fn read_object_head<'a>(
    r: &mut Reader<'a>,
) -> MdxResult<(Reader<'a>, FixedString, u32, i32, u32)> {
    let mut n = r.inclusive_region(96)?;
    let name = n.fixed_str(len::NAME)?;
    let object_id = n.u32()?;
    let parent_id = n.i32()?;
    let flags = n.u32()?;
    Ok((n, name, object_id, parent_id, flags))
}

/// Writes what [`read_object_head`] reads but the size (the caller's [`write_sized`]).
pub(crate) fn write_object_head(
    w: &mut Writer,
    (name, object_id, parent_id, flags): (&FixedString, u32, i32, u32),
    what: &'static str,
) -> MdxResult<()> {
    w.fixed_str(name, len::NAME, what)?;
    w.u32(object_id);
    w.i32(parent_id);
    w.u32(flags);
    Ok(())
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

/// Bytes after the near clip of layouts 1 and 2 (the `wc3` crate's reading).
const LAYOUT_BYTES: usize = 12;

fn layout_bytes(layout: u8) -> usize {
    if matches!(layout, 1 | 2) {
        LAYOUT_BYTES
    } else {
        0
    }
}

impl MdxRecord for Camera {
    const NAME: &'static str = "Camera";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let (mut body, number) = r.inclusive_region_24(4)?;
        let r = &mut body;
        let name = MdxField::read_field(r, crate::spec::len::NAME)?;
        let position = MdxField::read_field(r, 0)?;
        let field_of_view = r.f32()?;
        let far_clip = r.f32()?;
        let near_clip = r.f32()?;
        let layout_bytes = r.bytes(layout_bytes(number))?.to_vec();
        let target_position = MdxField::read_field(r, 0)?;
        let (tracks, tail) = MdxTrackList::read_list(r)?;
        Ok(Camera {
            name,
            layout: (number != Self::usual_layout(version)).then_some(number),
            position,
            field_of_view,
            far_clip,
            near_clip,
            layout_bytes,
            target_position,
            tracks,
            tail,
        })
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        let Camera {
            name,
            layout: _,
            position,
            field_of_view,
            far_clip,
            near_clip,
            layout_bytes: extra,
            target_position,
            tracks,
            tail,
        } = self;
        let number = self.layout_for(version);
        if extra.len() != layout_bytes(number) {
            return Err(crate::mdx::MdxError::new(
                crate::mdx::MdxErrorKind::Unwritable(format!(
                    "camera layout {number} has {} bytes after the near clip, not {}",
                    layout_bytes(number),
                    extra.len()
                )),
                w.len() as u64,
            ));
        }
        let mark = w.begin_size(true);
        name.write_field(w, crate::spec::len::NAME, "Camera name")?;
        position.write_field(w, 0, "Camera position")?;
        w.f32(*field_of_view);
        w.f32(*far_clip);
        w.f32(*near_clip);
        w.bytes(extra);
        target_position.write_field(w, 0, "Camera target")?;
        tracks.write_list(w, tail)?;
        w.end_size_24(mark, number)
    }
}

impl MdxRecord for ModelInfo {
    const NAME: &'static str = "ModelInfo";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        Ok(ModelInfo {
            name: r.fixed_str(len::NAME)?,
            animation_file: r.fixed_str(len::PATH)?,
            extent: read_extent(r)?,
            blend_time: r.u32()?,
            tail: r.rest().to_vec(),
        })
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        w.fixed_str(&self.name, len::NAME, "model name")?;
        w.fixed_str(&self.animation_file, len::PATH, "animation file")?;
        write_extent(w, &self.extent);
        w.u32(self.blend_time);
        w.bytes(&self.tail);
        Ok(())
    }
}
