//! Conversions between formats that do not hold the same things. Each returns what it
//! could not carry as a list of [`Loss`]es, so a tool can say exactly what was dropped.

pub mod ms3d;

use std::fmt;

/// Something a conversion could not carry, or carried only approximately.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    /// Where: a record path such as `Light[2]` or `Material[0]`, or `model`.
    pub place: String,
    /// What was dropped or changed, in a few words.
    pub what: String,
}

impl Loss {
    /// A loss at `place`.
    pub fn new(place: impl Into<String>, what: impl Into<String>) -> Loss {
        Loss {
            place: place.into(),
            what: what.into(),
        }
    }
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.what)
    }
}
