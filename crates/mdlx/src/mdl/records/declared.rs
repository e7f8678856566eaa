//! MDL reading and writing of the declared records (see [`crate::model::declare`]): the
//! generator [`mdl_record!`], the head trait it builds on, and its expansion for every
//! Warcraft III record the model declares.

use crate::mdl::cx::Cx;
use crate::mdl::out::Out;
#[allow(unused_imports)]
use crate::model::*;

/// The head as MDL reads and writes it.
pub(crate) trait Head: Sized + Clone {
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

impl Head for Node {
    const IS_NODE: bool = true;
    const WORDS: &'static [&'static str] = super::node::NODE_WORDS;
    fn mdl_new(cx: &Cx, i: usize, kind: u32) -> Self {
        let mut node = super::node::new_node(kind);
        node.name = cx.name_arg(i);
        node
    }
    fn mdl_item(&mut self, cx: &mut Cx, c: usize, block: &'static str) -> bool {
        super::node::read_node_item(cx, c, self, block)
    }
    fn mdl_open(&self, out: &mut Out, block: &str) {
        super::node::write_node_head(out, block, self);
    }
    fn mdl_end(&self, out: &mut Out) {
        super::node::write_node_tracks(out, self);
    }
    fn flags(&self) -> u32 {
        self.flags
    }
    fn node_mut(&mut self) -> Option<&mut Node> {
        Some(self)
    }
    fn trimmed(&self) -> Option<Self> {
        super::trimmed_node(self)
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

/// MDL reading and writing of a declared record ([`MdlRecord`]), from the declaration the
/// model keeps (see [`crate::model::declare`]): the record's MDL shape (its fields' forms,
/// in MDX and in MDL order), one block loop, one writer, and the skeleton check.
macro_rules! mdl_record {
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
        $crate::mdl::records::declared::mdl_record!(@custom [$($why)?] {
        #[allow(dead_code)]
        impl $name {
            /// The MDL forms of the fields and the keywords of the other tracks.
            const MDL_SHAPE: $crate::mdl::records::fields::Shape =
                $crate::mdl::records::fields::Shape {
                    fields: &[$(Self::$field.mdl),*],
                    written: $crate::mdl::records::declared::mdl_record!(@mdl_list [$($($order)*)?] [$($field)*]),
                    extra: &[$($(($ttag, $tkw)),*)?],
                    head: $crate::mdl::records::declared::mdl_record!(@head_words [$($hty)?]),
                    flags: $crate::mdl::records::declared::mdl_record!(@or [$($nflags)?] [&[]]),
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
                            && $crate::mdl::records::declared::Head::mdl_item(&mut r.$hname, cx, c, $block)
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
                        $crate::mdl::records::declared::mdl_record!(@tracks_mut r [$($tracks)?]);
                    shape.fallback(cx, c, group.unwrap_or($block), group, tracks);
                }
                // (A kind with a head only has nothing more to take.)
                #[allow(clippy::needless_update)]
                let mut r = $name {
                    $(
                        $hname: <$hty as $crate::mdl::records::declared::Head>::mdl_new(
                            cx, i, $crate::mdl::records::declared::mdl_record!(@or [$($kind)?] [0]),
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
                let tracks: &$crate::model::Tracks = $crate::mdl::records::declared::mdl_record!(@or [$($tracks)?] [&_none]);
                $crate::mdl::records::declared::mdl_record!(@open out $block [$($hname)?]);
                let shape = &Self::MDL_SHAPE;
                shape.write_flags(out, $crate::mdl::records::declared::mdl_record!(@or [$($crate::mdl::records::declared::Head::flags($hname))?] [0]));
                #[allow(unused_mut)]
                let mut body = $crate::mdl::records::fields::Body::new(out, shape, tracks);
                let _ = version;
                $crate::mdl::records::declared::mdl_record!(@write self body version [$($($order)*)?] [$($field)*]);
                body.finish();
                $( $crate::mdl::records::declared::Head::mdl_end($hname, out); )?
                out.close();
            }

            fn node_mut(&mut self) -> Option<&mut $crate::model::Node> {
                $crate::mdl::records::declared::mdl_record!(@node_mut self [$($hname)?])
            }

            fn flags_mut(&mut self) -> Option<&mut u32> {
                self.node_mut().map(|n| &mut n.flags)
            }

            fn skeleton(&self) -> Option<Self> {
                #[allow(unused_mut)]
                let mut s = self.clone();
                $(
                    if <$hty as $crate::mdl::records::declared::Head>::IS_NODE {
                        s.$hname = $crate::mdl::records::declared::Head::trimmed(&self.$hname)?;
                    }
                )?
                $( s.$tracks = $crate::mdl::records::trimmed_tracks(&self.$tracks)?; )?
                let cut = false
                    $(|| <$hty as $crate::mdl::records::declared::Head>::IS_NODE)?
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
    (@head_words [$hty:ty]) => { <$hty as $crate::mdl::records::declared::Head>::WORDS };
    (@tracks_mut $r:ident []) => { None };
    (@tracks_mut $r:ident [$t:ident]) => { Some(&mut $r.$t) };
    (@open $out:ident $block:literal []) => { $out.open($block) };
    (@open $out:ident $block:literal [$h:ident]) => {
        $crate::mdl::records::declared::Head::mdl_open($h, $out, $block)
    };
    (@node_mut $s:ident []) => { None };
    (@node_mut $s:ident [$h:ident]) => { $crate::mdl::records::declared::Head::node_mut(&mut $s.$h) };
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
pub(crate) use mdl_record;

crate::model::for_each_decl!(mdl_record);
