//! Cameras (CAMS): name, position, field of view, clip planes, target, then KCTR KTTR KCRL.

use crate::format::len;
use crate::mdx::reader::Reader;
use crate::mdx::record::{write_sized, MdxRecord};
use crate::mdx::tracks::{read_tracks, write_tracks};
use crate::mdx::writer::Writer;
use crate::mdx::MdxResult;

use super::{FixedString, Tracks};

/// A camera (used for portraits).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Camera {
    /// Name (80 bytes).
    pub name: FixedString,
    /// Eye position.
    pub position: [f32; 3],
    /// Field of view in radians.
    pub field_of_view: f32,
    /// Far clip distance.
    pub far_clip: f32,
    /// Near clip distance.
    pub near_clip: f32,
    /// Target position.
    pub target_position: [f32; 3],
    /// Translation (KCTR), target translation (KTTR), roll (KCRL) tracks.
    pub tracks: Tracks,
    /// Bytes after the tracks, kept.
    pub tail: Vec<u8>,
}

impl MdxRecord for Camera {
    const NAME: &'static str = "Camera";

    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        let mut c = r.inclusive_region(4)?;
        let mut cam = Camera {
            name: c.fixed_str(len::NAME)?,
            position: c.f32s()?,
            field_of_view: c.f32()?,
            far_clip: c.f32()?,
            near_clip: c.f32()?,
            target_position: c.f32s()?,
            ..Default::default()
        };
        (cam.tracks, cam.tail) = read_tracks(&mut c)?;
        Ok(cam)
    }

    fn write_mdx(&self, w: &mut Writer, _version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            w.fixed_str(&self.name, len::NAME, "camera name")?;
            w.f32s(&self.position);
            w.f32(self.field_of_view);
            w.f32(self.far_clip);
            w.f32(self.near_clip);
            w.f32s(&self.target_position);
            write_tracks(w, &self.tracks, &self.tail)
        })
    }
}
