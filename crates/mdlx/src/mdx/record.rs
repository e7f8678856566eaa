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
