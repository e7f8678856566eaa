//! The trait every MDX record implements, and helpers for the common shapes:
//! records with an inclusive size, and chunks that are plain arrays of records.

use super::error::MdxResult;
use super::reader::{scoped, Reader};
use super::writer::Writer;

/// A record that reads from and writes to MDX bytes for a given format version.
pub trait MdxRecord: Sized {
    /// The record's name in error paths (`Geoset`, `Light`, ...).
    const NAME: &'static str;
    /// Reads one record.
    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self>;
    /// Writes one record.
    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()>;
}

/// Reads records until the window is used up, naming each in error paths by index.
pub fn read_all<T: MdxRecord>(r: &mut Reader, version: u32, out: &mut Vec<T>) -> MdxResult<()> {
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
pub fn read_n<T: MdxRecord>(
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
pub fn write_all<T: MdxRecord>(w: &mut Writer, version: u32, items: &[T]) -> MdxResult<()> {
    for item in items {
        item.write_mdx(w, version)?;
    }
    Ok(())
}

/// Writes a record body framed by an inclusive size.
pub fn write_sized(
    w: &mut Writer,
    body: impl FnOnce(&mut Writer) -> MdxResult<()>,
) -> MdxResult<()> {
    let mark = w.begin_size(true);
    body(w)?;
    w.end_size(mark)
}

/// A value a declared record's field holds, as MDX reads and writes it (see
/// [`crate::model::declare`]). `len` is the byte length of fixed strings (0 otherwise).
pub trait MdxField: Sized {
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

impl MdxField for crate::model::FixedString {
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
        use crate::format::sub::KEVT;
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
            w.tag(crate::format::sub::KEVT);
            w.count(t.times.len())?;
            w.i32(t.global_sequence_id);
            w.vec_u32(&t.times);
        }
        Ok(())
    }
}
