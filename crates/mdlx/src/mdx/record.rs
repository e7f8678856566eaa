//! The trait every MDX record implements, and helpers for the common shapes:
//! records with an inclusive size, and chunks that are plain arrays of records. Also the
//! generator of the declared records' MDX code, [`mdx_record!`], and the traits it builds on.

use super::error::MdxResult;
use super::reader::{scoped, Reader};
use super::writer::Writer;
use crate::model::{FixedString, Node, Tracks};

/// A record that reads from and writes to MDX bytes for a given format version.
pub(crate) trait MdxRecord: Sized {
    /// The record's name in error paths (`Geoset`, `Light`, ...).
    const NAME: &'static str;
    /// Reads one record.
    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self>;
    /// Writes one record.
    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()>;
}

/// Reads records until the window is used up, naming each in error paths by index.
pub(crate) fn read_all<T: MdxRecord>(
    r: &mut Reader,
    version: u32,
    out: &mut Vec<T>,
) -> MdxResult<()> {
    while !r.is_empty() {
        let i = out.len();
        out.push(scoped(
            || format!("{}[{i}]", T::NAME),
            || T::read_mdx(r, version),
        )?);
    }
    Ok(())
}

/// Reads `count` records (a count-prefixed list), naming each in error paths by index.
pub(crate) fn read_n<T: MdxRecord>(
    r: &mut Reader,
    version: u32,
    count: u32,
    min_size: usize,
) -> MdxResult<Vec<T>> {
    r.check_count(count, min_size)?;
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count {
        out.push(scoped(
            || format!("{}[{i}]", T::NAME),
            || T::read_mdx(r, version),
        )?);
    }
    Ok(out)
}

/// Writes records one after another.
pub(crate) fn write_all<T: MdxRecord>(w: &mut Writer, version: u32, items: &[T]) -> MdxResult<()> {
    for item in items {
        item.write_mdx(w, version)?;
    }
    Ok(())
}

/// Writes a record body framed by an inclusive size.
pub(crate) fn write_sized(
    w: &mut Writer,
    body: impl FnOnce(&mut Writer) -> MdxResult<()>,
) -> MdxResult<()> {
    let mark = w.begin_size(true);
    body(w)?;
    w.end_size(mark)
}

/// A value a declared record's field holds, as MDX reads and writes it (see
/// [`crate::model::declare`]). `len` is the byte length of fixed strings (0 otherwise).
pub(crate) trait MdxField: Sized {
    /// Reads the value.
    fn read_field(r: &mut Reader, len: usize) -> MdxResult<Self>;
    /// Writes the value; `what` names it in errors.
    fn write_field(&self, w: &mut Writer, len: usize, what: &str) -> MdxResult<()>;
}

/// The numbers, read and written by the reader's and writer's method of the same name.
macro_rules! number_field {
    ($($t:ident),*) => {$(
        impl MdxField for $t {
            fn read_field(r: &mut Reader, _len: usize) -> MdxResult<Self> {
                r.$t()
            }
            fn write_field(&self, w: &mut Writer, _len: usize, _what: &str) -> MdxResult<()> {
                w.$t(*self);
                Ok(())
            }
        }
    )*};
}
number_field!(f32, u32, i32, u8);

impl<T: MdxField + Copy + Default, const N: usize> MdxField for [T; N] {
    fn read_field(r: &mut Reader, len: usize) -> MdxResult<Self> {
        let mut out = [T::default(); N];
        for v in &mut out {
            *v = T::read_field(r, len)?;
        }
        Ok(out)
    }
    fn write_field(&self, w: &mut Writer, len: usize, what: &str) -> MdxResult<()> {
        for v in self {
            v.write_field(w, len, what)?;
        }
        Ok(())
    }
}

impl MdxField for FixedString {
    fn read_field(r: &mut Reader, len: usize) -> MdxResult<Self> {
        r.fixed_str(len)
    }
    fn write_field(&self, w: &mut Writer, len: usize, what: &str) -> MdxResult<()> {
        w.fixed_str(self, len, what)
    }
}

impl MdxField for crate::model::Extent {
    fn read_field(r: &mut Reader, _len: usize) -> MdxResult<Self> {
        super::read_extent(r)
    }
    fn write_field(&self, w: &mut Writer, _len: usize, _what: &str) -> MdxResult<()> {
        super::write_extent(w, self);
        Ok(())
    }
}

/// An event object's optional `KEVT` track: `KEVT`, count, global sequence id, times.
impl MdxField for Option<crate::model::EventTrack> {
    fn read_field(r: &mut Reader, _len: usize) -> MdxResult<Self> {
        use crate::spec::sub::KEVT;
        if r.peek_tag() != Some(KEVT) {
            return Ok(None);
        }
        let track = super::reader::scoped(
            || "KEVT".into(),
            || {
                r.tag()?;
                let n = r.u32()?;
                let global_sequence_id = r.i32()?;
                Ok(crate::model::EventTrack {
                    global_sequence_id,
                    times: r.vec_u32(n)?,
                })
            },
        )?;
        Ok(Some(track))
    }
    fn write_field(&self, w: &mut Writer, _len: usize, _what: &str) -> MdxResult<()> {
        if let Some(t) = self {
            w.tag(crate::spec::sub::KEVT);
            w.count(t.times.len())?;
            w.i32(t.global_sequence_id);
            w.vec_u32(&t.times);
        }
        Ok(())
    }
}

/// The part a record starts with (a node, a name), as MDX reads and writes it.
pub(crate) trait MdxHead: Sized + Clone {
    /// Reads the head from MDX.
    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self>;
    /// Writes the head to MDX.
    fn write_mdx(&self, w: &mut Writer, version: u32, what: &str) -> MdxResult<()>;
}

/// The tracks a record ends with, and the bytes after them: Warcraft III's [`Tracks`],
/// or the alpha family's.
pub(crate) trait MdxTrackList: crate::model::declare::TrackList {
    /// Reads tracks until the window ends or holds no more; returns them and the rest.
    fn read_list(r: &mut Reader) -> MdxResult<(Self, Vec<u8>)>;
    /// Writes the tracks and the bytes after them.
    fn write_list(&self, w: &mut Writer, tail: &[u8]) -> MdxResult<()>;
}

impl MdxTrackList for Tracks {
    fn read_list(r: &mut Reader) -> MdxResult<(Self, Vec<u8>)> {
        super::tracks::read_tracks(r)
    }
    fn write_list(&self, w: &mut Writer, tail: &[u8]) -> MdxResult<()> {
        super::tracks::write_tracks(w, self, tail)
    }
}

impl MdxHead for Node {
    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        <Node as MdxRecord>::read_mdx(r, version)
    }
    fn write_mdx(&self, w: &mut Writer, version: u32, _what: &str) -> MdxResult<()> {
        MdxRecord::write_mdx(self, w, version)
    }
}

/// A name of 80 bytes: the block's `"name"`.
impl MdxHead for FixedString {
    fn read_mdx(r: &mut Reader, _version: u32) -> MdxResult<Self> {
        r.fixed_str(crate::spec::len::NAME)
    }
    fn write_mdx(&self, w: &mut Writer, _version: u32, what: &str) -> MdxResult<()> {
        w.fixed_str(self, crate::spec::len::NAME, what)
    }
}

/// MDX reading and writing of a declared record ([`MdxRecord`]), from the declaration the
/// model keeps (see [`crate::model::declare`]): every field read in order into a struct
/// literal without `..`, and written from a destructuring without `..`.
macro_rules! mdx_record {
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
        $crate::mdx::record::mdx_record!(@custom [$($mdx_why)?] {
        impl $crate::mdx::record::MdxRecord for $name {
            const NAME: &'static str = $label;

            fn read_mdx(
                r: &mut $crate::mdx::reader::Reader,
                version: u32,
            ) -> $crate::mdx::MdxResult<Self> {
                let _ = version;
                $crate::mdx::record::mdx_record!(@frame_read r [$($size)?]);
                $(
                    let $hname = <$hty as $crate::mdx::record::MdxHead>::read_mdx(r, version)?;
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
                    let ($tracks, $tail) = $crate::mdx::record::MdxTrackList::read_list(r)?;
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
                $crate::mdx::record::mdx_record!(@frame_write w [$($size)?] {
                    $(
                        $crate::mdx::record::MdxHead::write_mdx(
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
                    $( $crate::mdx::record::MdxTrackList::write_list($tracks, w, $tail)?; )?
                    Ok(())
                })
            }
        }
        });
    };

    (@custom [] { $($t:tt)* }) => { $($t)* };
    (@custom [$why:literal] { $($t:tt)* }) => {};
    (@frame_read $r:ident []) => {};
    (@frame_read $r:ident [$size:expr]) => {
        let mut body = $r.inclusive_region($size)?;
        let $r = &mut body;
    };
    (@frame_write $w:ident [] $body:block) => { $body };
    (@frame_write $w:ident [$size:expr] $body:block) => {
        $crate::mdx::record::write_sized($w, |$w| $body)
    };
}
pub(crate) use mdx_record;

/// A record declared and given its MDX code in one step, for declarations that live in the
/// codec itself (the WoW alpha family's records, which have no MDL): the model's `record!`,
/// then [`mdx_record!`] on the same list.
macro_rules! declared_record {
    ($($t:tt)*) => {
        $crate::model::declare::record! { $($t)* }
        $crate::mdx::record::mdx_record! { $($t)* }
    };
}
pub(crate) use declared_record;
