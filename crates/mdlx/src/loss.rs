//! The one report type of every conversion: what it could not carry.

use std::fmt;

/// Something a conversion could not carry, or carried only approximately. Every
/// conversion reports these: writing strictly standard MDL
/// ([`mdl::to_bytes_with_options`](crate::mdl::to_bytes_with_options)), the WoW alpha
/// family both ways ([`AlphaModel::to_model`](crate::alpha::AlphaModel::to_model),
/// [`AlphaModel::from_model`](crate::alpha::AlphaModel::from_model)), Milkshape both ways
/// ([`convert::ms3d`](crate::convert::ms3d)), glTF export and import
/// ([`gltf::export`](crate::convert::gltf::export), [`gltf::import`](crate::convert::gltf::import())), OBJ
/// ([`ObjReport::losses`](crate::obj::ObjReport::losses)) and [`read`](crate::read()) of a
/// converted format, so a tool lists them all one way.
///
/// ```
/// let loss = mdlx::Loss::new("Light[2]", "shadow intensity");
/// assert_eq!(loss.to_string(), "Light[2]: shadow intensity");
/// assert_eq!(mdlx::Loss::new("", "2 faces").to_string(), "2 faces");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Loss {
    /// Where: a record path (`Light[2]`, `Material[0]`), several of them (`Bone[0],
    /// Bone[3] and 2 more`), a part of the file (`layout`, `unknown chunk MDVI`, `end of
    /// file`); empty for the model as a whole.
    pub place: String,
    /// What was dropped or changed, in a few words.
    pub what: String,
}

impl Loss {
    /// A loss at `place` (empty: the model as a whole).
    pub fn new(place: impl Into<String>, what: impl Into<String>) -> Loss {
        Loss {
            place: place.into(),
            what: what.into(),
        }
    }
}

impl fmt::Display for Loss {
    /// `PLACE: WHAT`, or `WHAT` alone when the place is empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.place.is_empty() {
            f.write_str(&self.what)
        } else {
            write!(f, "{}: {}", self.place, self.what)
        }
    }
}
