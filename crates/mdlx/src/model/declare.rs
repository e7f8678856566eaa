//! One declaration per record kind. A record's fields are listed once, in MDX byte order,
//! each with its type and its MDL form (a [`Field`] of [`crate::spec::keywords`]), in a
//! declaration macro the record's file defines (`light_decl!`, `sequence_decl!`, ...) and
//! that takes the name of a macro to hand the list to:
//! - `record!` (here) makes the struct (documented field by field), each field's
//!   [`Decl`], [`Retarget`] and [`Opaque`];
//! - the MDX codec hands the same list to its `mdx_record!` (reading and writing, see
//!   `crate::mdx::declared`), the MDL codec to its `mdl_record!` (one node-block loop and
//!   one writer for every kind, the keyword hint list of unknown-keyword errors, and the
//!   cheap skeleton check; see `crate::mdl::records::declared`).
//!
//! [`for_each_decl!`](crate::model::for_each_decl) lists the declarations, so each codec
//! generates every kind with one line; the model imports no codec. A field is added in one
//! place, its declaration.
//!
//! The generated MDX code binds every field by name and builds the struct without `..`;
//! the MDL writer destructures the record without `..`; an explicit MDL order must name
//! every field once (a `const` assertion). A field left out of any direction is a compile
//! error, never a silent default.
//!
//! The macro language is small:
//!
//! ```text
//! macro_rules! light_decl { ($mac:ident) => { $mac! {
//!     /// Doc of the struct.
//!     Light = "Light" in "Light" {           // type = name in errors, MDL block keyword
//!         head node: $crate::model::Node = $crate::spec::kind::LIGHT;
//!                                            // optional: `node: Node = kind bit` or `name: FixedString`
//!         size 4;                            // optional: an inclusive size frames the record
//!         flags PREM_FLAGS;                  // optional: node flag words
//!         tracks(tracks, tail) [KLAV => "Visibility"];  // optional: tracks, and keywords of
//!                                            // tracks no field pairs with (`tail: AlphaTracks`
//!                                            // for the alpha family's container)
//!         mdl [a, b, c];                     // optional: MDL line order when not MDX order
//!         custom_mdl "why";                  // optional: MDL reading and writing by hand
//!         custom_mdx "why";                  // optional: MDX reading and writing by hand
//!     }
//!     fields {
//!         /// Doc of the field.
//!         name: Type [fixed string length] = value read when the MDL line is absent;
//!             since first version => MDL form (a [`Field`]),
//!     }
//! } } }
//! ```
//! The header's paths are absolute (`$crate::...`): the codecs expand the declaration in
//! their own modules. Field types, defaults and MDL forms are only expanded here.
//!
//! Each field's declaration becomes an associated constant of the record (same name as the
//! field, of type [`Decl`]), so generated code and hand-written code alike can ask
//! `Light::intensity.mdl.keys`.
//!
//! A kind whose fields the WoW alpha family shares keeps them in a callback macro
//! (`light_fields!`, `particle_emitter_fields!`, `bone_fields!`) that both families'
//! declarations expand, with their own head and track container.
//!
//! What the declaration cannot say stays hand-written in the codecs, and says why where it
//! lives: the geoset (vertex lists), the material and its layers (version-dependent layer
//! layouts), the collision shape (its numbers depend on its type), the model info, the
//! camera's MDX (its layout number), the geoset animation's MDL (its color bit is implied
//! by the color line), and the top-level model.

use crate::spec::keywords::Field;

use super::{EventTrack, Extent, FixedString, Tag, Tracks};

/// One field's declaration: its MDL form, what an absent MDL line reads as, the first
/// version that has it, and its byte length when it is a fixed string.
pub(crate) struct Decl<T> {
    /// The MDL form.
    pub mdl: Field,
    /// The value of an absent MDL line.
    pub absent: fn() -> T,
    /// The first format version with the field (0: all).
    pub since: u32,
    /// Byte length of a fixed string field.
    pub len: usize,
}

/// Moving a record to another format version (see [`crate::model::Model::to_version`]):
/// fields the target version lacks are reported through `lost` when they hold anything
/// but what the game assumes without them, and take that value; fields it adds keep
/// theirs (a record read from a file that lacks them holds the assumed value already).
pub(crate) trait Retarget {
    /// Moves the record from version `from` to `to`; `lost` hears what does not survive.
    fn retarget(&mut self, from: u32, to: u32, lost: &mut dyn FnMut(String));
}

/// Bytes a record keeps without understanding them (the tail after its tracks; a node's
/// tail is counted with the nodes).
pub(crate) trait Opaque {
    /// The number of such bytes.
    fn opaque_bytes(&self) -> usize;
}

impl Opaque for u32 {
    fn opaque_bytes(&self) -> usize {
        0
    }
}

impl<const N: usize> Opaque for [f32; N] {
    fn opaque_bytes(&self) -> usize {
        0
    }
}

/// The tracks a record ends with: Warcraft III's [`Tracks`], or the alpha family's. (How
/// they are read and written is the codecs' business.)
pub(crate) trait TrackList: Sized + Clone + Default {
    /// Removes the tracks of `tag`; true if there were any.
    fn remove_tag(&mut self, tag: Tag) -> bool;
}

impl TrackList for Tracks {
    fn remove_tag(&mut self, tag: Tag) -> bool {
        let before = self.0.len();
        self.0.retain(|a| a.tag != tag);
        self.0.len() != before
    }
}

/// Bitwise equality of a field's value (NaN payloads and signed zeros count): whether a
/// field still holds what an absent line reads as.
pub(crate) trait Same {
    /// Whether `self` and `other` hold the same bits.
    fn same(&self, other: &Self) -> bool;
}

/// Values compared by `==` (integers, strings, byte lists).
macro_rules! same_by_eq {
    ($($t:ty),*) => {$(
        impl Same for $t {
            fn same(&self, other: &Self) -> bool {
                self == other
            }
        }
    )*};
}
same_by_eq!(
    u32,
    i32,
    Option<u8>,
    Vec<u8>,
    FixedString,
    Option<EventTrack>
);

impl<const N: usize> Same for [u32; N] {
    fn same(&self, other: &Self) -> bool {
        self == other
    }
}

impl<const N: usize> Same for [u8; N] {
    fn same(&self, other: &Self) -> bool {
        self == other
    }
}

impl Same for f32 {
    fn same(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

impl<const N: usize> Same for [f32; N] {
    fn same(&self, other: &Self) -> bool {
        self.iter()
            .zip(other)
            .all(|(a, b)| a.to_bits() == b.to_bits())
    }
}

impl Same for [[f32; 3]; 3] {
    fn same(&self, other: &Self) -> bool {
        self.iter().zip(other).all(|(a, b)| a.same(b))
    }
}

impl Same for Extent {
    fn same(&self, other: &Self) -> bool {
        self.min.same(&other.min) && self.max.same(&other.max) && self.radius.same(&other.radius)
    }
}

/// Declares a record kind's model side (the struct, its fields' declarations, moving it
/// between versions, its kept bytes); see the [module documentation](self).
macro_rules! record {
    (
        $(#[$meta:meta])*
        $name:ident = $label:literal in $block:literal {
            $(head $hname:ident : $hty:ty $(= $kind:expr)?;)?
            $(size $size:expr;)?
            $(flags $nflags:expr;)?
            $(tracks($tracks:ident, $tail:ident $(: $tty:ty)?) [$($ttag:expr => $tkw:literal),* $(,)?];)?
            $(mdl [$($order:ident),* $(,)?];)?
            $(custom_mdl $why:literal;)?
            $(custom_mdx $mdx_why:literal;)?
        }
        fields {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty $([$len:expr])? $(= $absent:expr)? $(; since $since:expr)?
                    => $spec:expr
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name {
            $(
                #[doc = concat!("The ", $label, "'s ", stringify!($hname), ".")]
                pub $hname: $hty,
            )?
            $(
                $(#[doc = $doc])*
                pub $field: $ty,
            )*
            $(
                #[doc = concat!("The ", $label, "'s tracks, in file order.")]
                pub $tracks: $crate::model::declare::record!(@or [$($tty)?] [$crate::model::Tracks]),
                #[doc = "Bytes after the tracks inside the record's size, kept."]
                pub $tail: Vec<u8>,
            )?
        }

        #[allow(dead_code)]
        impl $name {
            /// Every field what an absent MDL line reads as (what the game assumes when a
            /// file lacks it); the head and tracks empty.
            pub(crate) fn absent_fields() -> Self {
                $name {
                    $($hname: Default::default(),)?
                    $($field: (Self::$field.absent)(),)*
                    $($tracks: Default::default(), $tail: Vec::new(),)?
                }
            }
        }

        #[allow(non_upper_case_globals, dead_code)]
        impl $name {
            $(
                pub(crate) const $field: $crate::model::declare::Decl<$ty> = $crate::model::declare::Decl {
                    mdl: $spec,
                    absent: || $crate::model::declare::record!(@or [$($absent)?] [Default::default()]),
                    since: 0 $(+ $since)?,
                    len: 0 $(+ $len)?,
                };
            )*
        }

        impl $crate::model::declare::Retarget for $name {
            #[allow(unused_variables)]
            fn retarget(&mut self, from: u32, to: u32, lost: &mut dyn FnMut(String)) {
                // The tracks of the fields the target lacks.
                #[allow(unused_mut)]
                let mut gone: Vec<($crate::model::Tag, &str, u32)> = Vec::new();
                $(
                    let since = Self::$field.since;
                    if since > to && since <= from {
                        let absent = (Self::$field.absent)();
                        let what = Self::$field.mdl.key();
                        let what = if what.is_empty() { stringify!($field) } else { what };
                        if !$crate::model::declare::Same::same(&self.$field, &absent) {
                            lost(format!("{what} (since {since})"));
                        }
                        self.$field = absent;
                        if let Some((tag, _)) = Self::$field.mdl.track {
                            gone.push((tag, what, since));
                        }
                    }
                )*
                $(
                    for (tag, what, since) in gone.drain(..) {
                        if $crate::model::declare::TrackList::remove_tag(&mut self.$tracks, tag) {
                            lost(format!("{what} animation (since {since})"));
                        }
                    }
                )?
            }
        }

        impl $crate::model::declare::Opaque for $name {
            fn opaque_bytes(&self) -> usize {
                0 $(+ { let _ = stringify!($tracks); self.$tail.len() })?
            }
        }

    };

    (@or [] [$($d:tt)*]) => { $($d)* };
    (@or [$($v:tt)+] [$($d:tt)*]) => { $($v)+ };
}
pub(crate) use record;
