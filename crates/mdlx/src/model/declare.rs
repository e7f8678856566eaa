//! One declaration per record kind: [`record!`] takes a record's fields once, in MDX byte
//! order, each with its type and its MDL form, and expands to
//! - the struct (documented field by field),
//! - MDX reading and writing ([`MdxRecord`]),
//! - MDL reading and writing ([`MdlRecord`]): one node-block loop and one writer for every
//!   kind, the keyword hint list of unknown-keyword errors, and the cheap skeleton check.
//!
//! The generated MDX code binds every field by name and builds the struct without `..`;
//! the MDL writer destructures the record without `..`; an explicit MDL order must name
//! every field once (a `const` assertion). A field left out of any direction is a compile
//! error, never a silent default.
//!
//! The macro language is small:
//!
//! ```text
//! record! {
//!     /// Doc of the struct.
//!     Light = "Light" in "Light" {           // type = name in errors, MDL block keyword
//!         head node: Node = kind::LIGHT;     // optional: `node: Node = kind bit` or `name: FixedString`
//!         size 4;                            // optional: an inclusive size frames the record
//!         flags PREM_FLAGS;                  // optional: node flag words
//!         tracks(tracks, tail) [tk::KLAV => "Visibility"];  // optional: tracks, and keywords of
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
//! }
//! ```
//! Each field's declaration becomes a private associated constant of the record (same name
//! as the field, of type [`Decl`]), so generated code and hand-written code alike can ask
//! `Light::intensity.mdl.keys`.
//!
//! A kind whose fields the WoW alpha family shares keeps them in a callback macro
//! (`light_fields!`, `particle_emitter_fields!`, `bone_fields!`) that both families' `record!`
//! invocations expand, with their own head ([`MdxHead`]) and track container ([`TrackList`]).
//!
//! What the declaration cannot say stays hand-written, and says why where it lives: the
//! geoset (vertex lists), the material and its layers (version-dependent layer layouts),
//! the collision shape (its numbers depend on its type), the model info, the geoset
//! animation's MDL (its color bit is implied by the color line), and the top-level model.

use crate::mdl::cx::Cx;
use crate::mdl::out::Out;
use crate::mdl::records::fields::Field;
use crate::mdx::reader::Reader;
use crate::mdx::writer::Writer;
use crate::mdx::MdxResult;

use super::{FixedString, Node, Tracks};

/// One field's declaration: its MDL form, what an absent MDL line reads as, the first
/// version that has it, and its byte length when it is a fixed string.
pub struct Decl<T> {
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
pub trait Retarget {
    /// Moves the record from version `from` to `to`; `lost` hears what does not survive.
    fn retarget(&mut self, from: u32, to: u32, lost: &mut dyn FnMut(String));
}

/// Bytes a record keeps without understanding them (the tail after its tracks; a node's
/// tail is counted with the nodes).
pub trait Opaque {
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

/// The part a record starts with (a node, a name), as MDX reads and writes it.
pub trait MdxHead: Sized + Clone {
    /// Reads the head from MDX.
    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self>;
    /// Writes the head to MDX.
    fn write_mdx(&self, w: &mut Writer, version: u32, what: &str) -> MdxResult<()>;
}

/// The tracks a record ends with, and the bytes after them: Warcraft III's [`Tracks`],
/// or the alpha family's.
pub trait TrackList: Sized + Clone + Default {
    /// Reads tracks until the window ends or holds no more; returns them and the rest.
    fn read_list(r: &mut Reader) -> MdxResult<(Self, Vec<u8>)>;
    /// Writes the tracks and the bytes after them.
    fn write_list(&self, w: &mut Writer, tail: &[u8]) -> MdxResult<()>;
    /// Removes the tracks of `tag`; true if there were any.
    fn remove_tag(&mut self, tag: crate::model::Tag) -> bool;
}

impl TrackList for Tracks {
    fn read_list(r: &mut Reader) -> MdxResult<(Self, Vec<u8>)> {
        crate::mdx::tracks::read_tracks(r)
    }
    fn write_list(&self, w: &mut Writer, tail: &[u8]) -> MdxResult<()> {
        crate::mdx::tracks::write_tracks(w, self, tail)
    }
    fn remove_tag(&mut self, tag: crate::model::Tag) -> bool {
        let before = self.0.len();
        self.0.retain(|a| a.tag != tag);
        self.0.len() != before
    }
}

/// The head as MDL reads and writes it.
pub trait Head: MdxHead {
    /// Whether this is a node (its tracks are cut in the skeleton check).
    const IS_NODE: bool;
    /// Keywords of the head, for hint lists.
    const WORDS: &'static [&'static str];
    /// The head of block `i` as read before its items (`kind` is the node kind bit).
    fn mdl_new(cx: &Cx, i: usize, kind: u32) -> Self;
    /// Reads item `c` if it belongs to the head.
    fn mdl_item(&mut self, cx: &mut Cx, c: usize, block: &'static str) -> bool;
    /// Opens the block.
    fn mdl_open(&self, out: &mut Out, block: &str);
    /// Writes what the head puts last (a node's transform tracks).
    fn mdl_end(&self, out: &mut Out);
    /// The node flags (0 without a node).
    fn flags(&self) -> u32;
    /// The node, if the head is one.
    fn node_mut(&mut self) -> Option<&mut Node>;
    /// A copy with its bulk cut short for the skeleton check (see `MdlRecord::skeleton`).
    fn trimmed(&self) -> Option<Self>;
}

impl MdxHead for Node {
    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        <Node as crate::mdx::record::MdxRecord>::read_mdx(r, version)
    }
    fn write_mdx(&self, w: &mut Writer, version: u32, _what: &str) -> MdxResult<()> {
        crate::mdx::record::MdxRecord::write_mdx(self, w, version)
    }
}

impl Head for Node {
    const IS_NODE: bool = true;
    const WORDS: &'static [&'static str] = crate::mdl::records::node::NODE_WORDS;
    fn mdl_new(cx: &Cx, i: usize, kind: u32) -> Self {
        let mut node = crate::mdl::records::node::new_node(kind);
        node.name = cx.name_arg(i);
        node
    }
    fn mdl_item(&mut self, cx: &mut Cx, c: usize, block: &'static str) -> bool {
        crate::mdl::records::node::read_node_item(cx, c, self, block)
    }
    fn mdl_open(&self, out: &mut Out, block: &str) {
        crate::mdl::records::node::write_node_head(out, block, self);
    }
    fn mdl_end(&self, out: &mut Out) {
        crate::mdl::records::node::write_node_tracks(out, self);
    }
    fn flags(&self) -> u32 {
        self.flags
    }
    fn node_mut(&mut self) -> Option<&mut Node> {
        Some(self)
    }
    fn trimmed(&self) -> Option<Self> {
        crate::mdl::records::trimmed_node(self)
    }
}

/// A name of 80 bytes: the block's `"name"`.
impl MdxHead for FixedString {
    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        r.fixed_str(crate::format::len::NAME)
    }
    fn write_mdx(&self, w: &mut Writer, _version: u32, what: &str) -> MdxResult<()> {
        w.fixed_str(self, crate::format::len::NAME, what)
    }
}

impl Head for FixedString {
    const IS_NODE: bool = false;
    const WORDS: &'static [&'static str] = &[];
    fn mdl_new(cx: &Cx, i: usize, _kind: u32) -> Self {
        cx.name_arg(i)
    }
    fn mdl_item(&mut self, _cx: &mut Cx, _c: usize, _block: &'static str) -> bool {
        false
    }
    fn mdl_open(&self, out: &mut Out, block: &str) {
        out.open_named(block, self);
    }
    fn mdl_end(&self, _out: &mut Out) {}
    fn flags(&self) -> u32 {
        0
    }
    fn node_mut(&mut self) -> Option<&mut Node> {
        None
    }
    fn trimmed(&self) -> Option<Self> {
        Some(self.clone())
    }
}

/// Declares a record kind; see the [module documentation](self).
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
                pub $tracks: record!(@or [$($tty)?] [$crate::model::Tracks]),
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
                const $field: $crate::model::declare::Decl<$ty> = $crate::model::declare::Decl {
                    mdl: $spec,
                    absent: || record!(@or [$($absent)?] [Default::default()]),
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
                        if !$crate::mdl::records::fields::MdlValue::same(&self.$field, &absent) {
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

        record!(@custom [$($mdx_why)?] {
        impl $crate::mdx::record::MdxRecord for $name {
            const NAME: &'static str = $label;

            fn read_mdx(
                r: &mut $crate::mdx::reader::Reader,
                version: u32,
            ) -> $crate::mdx::MdxResult<Self> {
                let _ = version;
                record!(@frame_read r [$($size)?]);
                $(
                    let $hname = <$hty as $crate::model::declare::MdxHead>::read_mdx(r, version)?;
                )?
                $(
                    // A field the version lacks holds what the game assumes for it (what
                    // an absent MDL line reads as).
                    let $field = if version >= Self::$field.since {
                        $crate::mdx::record::MdxField::read_field(r, Self::$field.len)?
                    } else {
                        (Self::$field.absent)()
                    };
                )*
                $(
                    let ($tracks, $tail) = $crate::model::declare::TrackList::read_list(r)?;
                )?
                Ok($name { $($hname,)? $($field,)* $($tracks, $tail)? })
            }

            fn write_mdx(
                &self,
                w: &mut $crate::mdx::writer::Writer,
                version: u32,
            ) -> $crate::mdx::MdxResult<()> {
                let $name { $($hname,)? $($field,)* $($tracks, $tail)? } = self;
                let _ = version;
                record!(@frame_write w [$($size)?] {
                    $(
                        $crate::model::declare::MdxHead::write_mdx(
                            $hname, w, version, concat!($label, " name"),
                        )?;
                    )?
                    $(
                        if version >= Self::$field.since {
                            $crate::mdx::record::MdxField::write_field(
                                $field,
                                w,
                                Self::$field.len,
                                concat!($label, " ", stringify!($field)),
                            )?;
                        }
                    )*
                    $( $crate::model::declare::TrackList::write_list($tracks, w, $tail)?; )?
                    Ok(())
                })
            }
        }
        });

        record!(@custom [$($why)?] {
        #[allow(dead_code)]
        impl $name {
            /// The MDL forms of the fields and the keywords of the other tracks.
            const MDL_SHAPE: $crate::mdl::records::fields::Shape =
                $crate::mdl::records::fields::Shape {
                    fields: &[$(Self::$field.mdl),*],
                    written: record!(@mdl_list [$($($order)*)?] [$($field)*]),
                    extra: &[$($(($ttag, $tkw)),*)?],
                    head: record!(@head_words [$($hty)?]),
                    flags: record!(@or [$($nflags)?] [&[]]),
                };
        }

        impl $crate::mdl::records::MdlRecord for $name {
            const BLOCK: &'static str = $block;

            fn read_mdl(cx: &mut $crate::mdl::cx::Cx, i: usize) -> Self {
                fn item(
                    r: &mut $name,
                    cx: &mut $crate::mdl::cx::Cx,
                    c: usize,
                    group: Option<&'static str>,
                ) {
                    let shape = &$name::MDL_SHAPE;
                    $(
                        if group.is_none()
                            && $crate::model::declare::Head::mdl_item(&mut r.$hname, cx, c, $block)
                        {
                            return;
                        }
                    )?
                    $(
                        if shape.read_track(cx, c, group, &mut r.$tracks) {
                            return;
                        }
                    )?
                    if group.is_none() && !shape.flags.is_empty() {
                        let flags = $crate::mdl::records::MdlRecord::flags_mut(r);
                        if flags.is_some_and(|f| shape.read_flag(cx, c, f)) {
                            return;
                        }
                    }
                    let k = cx.key(c);
                    $(
                        if $name::$field.mdl.group == group && $name::$field.mdl.matches(k) {
                            $name::$field.mdl.read(cx, c, &mut r.$field);
                            return;
                        }
                    )*
                    if group.is_none() {
                        $(
                            if $name::$field.mdl.group.is_some() && $name::$field.mdl.matches(k) {
                                $name::$field.mdl.read(cx, c, &mut r.$field);
                                return;
                            }
                        )*
                        if let Some(g) = shape.group().filter(|g| $crate::mdl::cx::is(k, g)) {
                            for d in cx.children(c) {
                                item(r, cx, d, Some(g));
                            }
                            return;
                        }
                    }
                    let tracks: Option<&mut $crate::model::Tracks> =
                        record!(@tracks_mut r [$($tracks)?]);
                    shape.fallback(cx, c, group.unwrap_or($block), group, tracks);
                }
                // (A kind with a head only has nothing more to take.)
                #[allow(clippy::needless_update)]
                let mut r = $name {
                    $(
                        $hname: <$hty as $crate::model::declare::Head>::mdl_new(
                            cx, i, record!(@or [$($kind)?] [0]),
                        ),
                    )?
                    ..$name::absent_fields()
                };
                for c in cx.children(i) {
                    item(&mut r, cx, c, None);
                }
                r
            }

            #[deny(unused_variables)]
            fn write_mdl(&self, out: &mut $crate::mdl::out::Out, version: u32) {
                let $name { $($hname,)? $($field: _,)* $($tracks, $tail)? } = self;
                $( let _ = $tail; )?
                let _none = $crate::model::Tracks::default();
                let tracks: &$crate::model::Tracks = record!(@or [$($tracks)?] [&_none]);
                record!(@open out $block [$($hname)?]);
                let shape = &Self::MDL_SHAPE;
                shape.write_flags(out, record!(@or [$($crate::model::declare::Head::flags($hname))?] [0]));
                #[allow(unused_mut)]
                let mut body = $crate::mdl::records::fields::Body::new(out, shape, tracks);
                let _ = version;
                record!(@write self body version [$($($order)*)?] [$($field)*]);
                body.finish();
                $( $crate::model::declare::Head::mdl_end($hname, out); )?
                out.close();
            }

            fn node_mut(&mut self) -> Option<&mut $crate::model::Node> {
                record!(@node_mut self [$($hname)?])
            }

            fn flags_mut(&mut self) -> Option<&mut u32> {
                self.node_mut().map(|n| &mut n.flags)
            }

            fn skeleton(&self) -> Option<Self> {
                #[allow(unused_mut)]
                let mut s = self.clone();
                $(
                    if <$hty as $crate::model::declare::Head>::IS_NODE {
                        s.$hname = $crate::model::declare::Head::trimmed(&self.$hname)?;
                    }
                )?
                $( s.$tracks = $crate::mdl::records::trimmed_tracks(&self.$tracks)?; )?
                let cut = false
                    $(|| <$hty as $crate::model::declare::Head>::IS_NODE)?
                    $(|| !stringify!($tracks).is_empty())?;
                cut.then_some(s)
            }
        }
        });

    };

    (@custom [] { $($t:tt)* }) => { $($t)* };
    (@custom [$why:literal] { $($t:tt)* }) => {};
    (@or [] [$($d:tt)*]) => { $($d)* };
    (@or [$($v:tt)+] [$($d:tt)*]) => { $($v)+ };
    (@head_words []) => { &[] };
    (@head_words [$hty:ty]) => { <$hty as $crate::model::declare::Head>::WORDS };
    (@frame_read $r:ident []) => {};
    (@frame_read $r:ident [$size:expr]) => {
        let mut body = $r.inclusive_region($size)?;
        let $r = &mut body;
    };
    (@frame_write $w:ident [] $body:block) => { $body };
    (@frame_write $w:ident [$size:expr] $body:block) => {
        $crate::mdx::record::write_sized($w, |$w| $body)
    };
    (@tracks_mut $r:ident []) => { None };
    (@tracks_mut $r:ident [$t:ident]) => { Some(&mut $r.$t) };
    (@open $out:ident $block:literal []) => { $out.open($block) };
    (@open $out:ident $block:literal [$h:ident]) => {
        $crate::model::declare::Head::mdl_open($h, $out, $block)
    };
    (@node_mut $s:ident []) => { None };
    (@node_mut $s:ident [$h:ident]) => { $crate::model::declare::Head::node_mut(&mut $s.$h) };
    (@mdl_list [] [$($f:ident)*]) => { &[$(Self::$f.mdl),*] };
    (@mdl_list [$($f:ident)+] [$($all:ident)*]) => { &[$(Self::$f.mdl),+] };
    (@write $s:ident $body:ident $version:ident [] [$($f:ident)*]) => {
        $( $body.field(&Self::$f, &$s.$f, $version); )*
    };
    (@write $s:ident $body:ident $version:ident [$($f:ident)+] [$($all:ident)*]) => {
        // Every field once: the order names only fields (or `$s.$f` fails) and as many.
        const _: () = assert!(
            [$(stringify!($f)),+].len() == [$(stringify!($all)),*].len(),
            "the MDL order must name every field once",
        );
        $( $body.field(&Self::$f, &$s.$f, $version); )+
    };
}
pub(crate) use record;
