//! Cameras (CAMS): see [`Camera`].

use crate::format::keywords::{Field, Style};
use crate::format::track as tk;
use crate::format::version as ver;
use crate::mdx::reader::Reader;
use crate::mdx::record::{MdxField, MdxRecord};
use crate::mdx::writer::Writer;
use crate::mdx::MdxResult;

use super::declare::{record, TrackList};
use super::FixedString;

record! {
    /// A camera (used for portraits). In MDL the target sits in a `Target { }` block with
    /// its own `Position` and `Translation`.
    ///
    /// Cameras (CAMS): name, position, field of view, clip planes, target, then the tracks
    /// KCTR (position), KTTR (target), KCRL (roll) and, from 1200, IDUF (focus distance), ELAF
    /// (focal length), PTSF (f-stop), one f32 a key each.
    ///
    /// The record's inclusive size word keeps its size in the low 24 bits; the top byte is a
    /// layout number (the `wc3` crate's "camera variant"). Every published reader that knows
    /// it agrees that 0 and 3 carry no extra bytes, and that 3 is what 1200+ files hold
    /// (Retera's Model Studio, from the game's own files, sees only 3; the `wc3` crate writes 3
    /// from 1200 and 0 before). Only the `wc3` crate gives 1 and 2 a meaning: twelve more
    /// bytes after the near clip, before the target. We read them so (nothing disagrees, and
    /// the bytes are kept either way). Unknown numbers carry no extra bytes. The first version
    /// with the number 3 and the depth-of-field tracks: 1200 for `wc3`, 1300 for Retera (1600
    /// in its earlier commits). Taken: 1200, `wc3`'s, whose files are the only ones to check
    /// against; the number is read in every version, so a file of either reading loads.
    ///
    /// The number is kept as the field `layout`: `None` when it is the usual one of the
    /// version written (0 before 1200, 3 from 1200), so that converting between versions
    /// moves it with the version and MDL, which has no word for it, loses nothing.
    ///
    /// MDL keywords (the `wc3` crate's, which Retera's and other tools read): the tracks are
    /// `FocusDistanceKeys`, `FocalLengthKeys` and `FStopKeys`; the scalar spellings
    /// `DOFDistance`, `FocalLength` and `FStop` are read as a value held throughout.
    Camera = "Camera" in "Camera" {
        head name: FixedString;
        tracks(tracks, tail) [
            tk::KCRL => "Rotation",
            tk::IDUF => "FocusDistanceKeys",
            tk::IDUF => "DOFDistance",
            tk::ELAF => "FocalLengthKeys",
            tk::ELAF => "FocalLength",
            tk::PTSF => "FStopKeys",
            tk::PTSF => "FStop",
        ];
        custom_mdx "the layout number lives in the top byte of the size word";
    }
    fields {
        /// The layout number in the top byte of the size word, when it is not the usual
        /// one of the version written ([`Camera::usual_layout`]).
        layout: Option<u8> => Field::new(&[], Style::Hidden),
        /// Eye position.
        position: [f32; 3]
            => Field::new(&["Position"], Style::Plain).track(tk::KCTR, &["Translation"]),
        /// Field of view in radians.
        field_of_view: f32 => Field::new(&["FieldOfView"], Style::Plain),
        /// Far clip distance.
        far_clip: f32 => Field::new(&["FarClip"], Style::Plain),
        /// Near clip distance.
        near_clip: f32 => Field::new(&["NearClip"], Style::Plain),
        /// The twelve bytes layouts 1 and 2 hold after the near clip (empty otherwise).
        layout_bytes: Vec<u8> => Field::new(&[], Style::Hidden),
        /// Target position.
        target_position: [f32; 3] => Field::new(&["Position"], Style::Plain)
            .track(tk::KTTR, &["Translation"])
            .group("Target"),
    }
}

impl Camera {
    /// The layout number a camera of `version` usually has: 3 from 1200, 0 before.
    pub fn usual_layout(version: u32) -> u8 {
        if version >= ver::CAMERA_LAYOUT {
            3
        } else {
            0
        }
    }

    /// The layout number written for `version`.
    pub fn layout_for(&self, version: u32) -> u8 {
        self.layout.unwrap_or(Self::usual_layout(version))
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
        let name = MdxField::read_field(r, crate::format::len::NAME)?;
        let position = MdxField::read_field(r, 0)?;
        let field_of_view = r.f32()?;
        let far_clip = r.f32()?;
        let near_clip = r.f32()?;
        let layout_bytes = r.bytes(layout_bytes(number))?.to_vec();
        let target_position = MdxField::read_field(r, 0)?;
        let (tracks, tail) = TrackList::read_list(r)?;
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
        name.write_field(w, crate::format::len::NAME, "Camera name")?;
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
