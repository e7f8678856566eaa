//! Animation tracks: keyframes of one value kind, an interpolation, an optional global
//! sequence. A record keeps its tracks in [`Tracks`], in file order, each under its tag
//! (`KGTR`, `KMTA`, ...); the tag decides the value kind (see [`crate::spec::track_kind`]).

use super::Tag;

/// How values between two keys are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// Hold the previous key's value (step).
    None,
    /// Straight line (spherical for rotations).
    Linear,
    /// Hermite spline with in/out tangents.
    Hermite,
    /// Bezier spline with in/out tangents.
    Bezier,
    /// A value no known tool writes; kept as is. Keys carry tangents when it is above 1.
    Other(u32),
}

impl Interpolation {
    /// From the stored number.
    pub fn from_u32(v: u32) -> Self {
        match v {
            0 => Interpolation::None,
            1 => Interpolation::Linear,
            2 => Interpolation::Hermite,
            3 => Interpolation::Bezier,
            n => Interpolation::Other(n),
        }
    }

    /// The stored number.
    pub fn to_u32(self) -> u32 {
        match self {
            Interpolation::None => 0,
            Interpolation::Linear => 1,
            Interpolation::Hermite => 2,
            Interpolation::Bezier => 3,
            Interpolation::Other(n) => n,
        }
    }

    /// Whether keys store in and out tangents (every value above linear).
    pub fn has_tangents(self) -> bool {
        self.to_u32() > 1
    }
}

/// One keyframe. Tangents are meaningful only when the track's interpolation has them;
/// otherwise they are left at their default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key<T> {
    /// Time in milliseconds.
    pub time: i32,
    /// The value at `time`.
    pub value: T,
    /// Incoming tangent (Hermite/Bezier).
    pub in_tan: T,
    /// Outgoing tangent (Hermite/Bezier).
    pub out_tan: T,
}

impl<T: Copy> Key<T> {
    /// A key at `time` with `value`, its tangents the value too (as readers fill keys of
    /// tracks without tangents).
    pub fn at(time: i32, value: T) -> Key<T> {
        Key {
            time,
            value,
            in_tan: value,
            out_tan: value,
        }
    }
}

/// A keyframed value.
#[derive(Clone, Debug, PartialEq)]
pub struct Track<T> {
    /// How to interpolate between keys.
    pub interpolation: Interpolation,
    /// Index into the model's global sequences, or -1 for none.
    pub global_sequence_id: i32,
    /// The keys, in file order.
    pub keys: Vec<Key<T>>,
}

impl<T> Track<T> {
    /// The global sequence this track runs on, if any.
    pub fn global_sequence(&self) -> Option<usize> {
        usize::try_from(self.global_sequence_id).ok()
    }
}

/// A track of any value kind.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyTrack {
    /// One float per key (alpha, visibility, intensity, ...).
    Float(Track<f32>),
    /// Three floats per key (translation, scaling, color).
    Vector3(Track<[f32; 3]>),
    /// A quaternion per key (x, y, z, w).
    Quaternion(Track<[f32; 4]>),
    /// An integer per key (texture id, texture slot); these always step.
    Integer(Track<u32>),
}

impl AnyTrack {
    /// Number of keys.
    pub fn len(&self) -> usize {
        match self {
            AnyTrack::Float(t) => t.keys.len(),
            AnyTrack::Vector3(t) => t.keys.len(),
            AnyTrack::Quaternion(t) => t.keys.len(),
            AnyTrack::Integer(t) => t.keys.len(),
        }
    }

    /// True when the track has no keys.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One animated property of a record: its tag and track.
#[derive(Clone, Debug, PartialEq)]
pub struct Animation {
    /// The track tag (`KGTR`, `KMTA`, ...).
    pub tag: Tag,
    /// The keys.
    pub track: AnyTrack,
}

/// The animated properties of a record, in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tracks(pub Vec<Animation>);

macro_rules! typed_getter {
    ($name:ident, $variant:ident, $t:ty) => {
        /// The track under `tag`, if present and of this value kind.
        pub fn $name(&self, tag: Tag) -> Option<&Track<$t>> {
            self.0.iter().find_map(|a| match &a.track {
                AnyTrack::$variant(t) if a.tag == tag => Some(t),
                _ => None,
            })
        }
    };
}

impl Tracks {
    typed_getter!(float, Float, f32);
    typed_getter!(vector3, Vector3, [f32; 3]);
    typed_getter!(quaternion, Quaternion, [f32; 4]);
    typed_getter!(integer, Integer, u32);

    /// Number of tracks.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are no tracks.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Iterates over the tracks in file order.
    pub fn iter(&self) -> std::slice::Iter<'_, Animation> {
        self.0.iter()
    }
}
