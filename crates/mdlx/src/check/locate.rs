//! Where the records of a model read from a file came from: an MDX byte offset or an MDL
//! line and column.

use super::Finding;
use crate::model::{KINDS, KIND_FIELDS};
use std::fmt;

/// A place in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourcePos {
    /// A byte offset in a binary file (where the record starts).
    Offset(u64),
    /// A line and column in a text file (from 1; where the record's block starts).
    Line {
        /// The line.
        line: u32,
        /// The column, in characters.
        column: u32,
    },
}

impl fmt::Display for SourcePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourcePos::Offset(o) => write!(f, "offset {o:#x}"),
            SourcePos::Line { line, column } => write!(f, "line {line}:{column}"),
        }
    }
}

/// Where each record of a model came from, for [`SourceMap::locate`].
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    rows: Vec<Vec<SourcePos>>,
    header: Option<SourcePos>,
}

impl SourceMap {
    /// The records of an MDX file (any Warcraft III version).
    pub fn mdx(data: &[u8]) -> SourceMap {
        let (rows, header) = crate::mdx::record_offsets(data);
        SourceMap {
            rows: rows
                .into_iter()
                .map(|r| r.into_iter().map(SourcePos::Offset).collect())
                .collect(),
            header: header.map(SourcePos::Offset),
        }
    }

    /// The records of an MDL document.
    pub fn mdl(src: &[u8]) -> SourceMap {
        let (rows, header) = crate::mdl::record_starts(src);
        let lines = crate::mdl::error::LineIndex::new(src);
        let pos = |o: usize| {
            let (line, column, _, _) = lines.locate(src, o);
            SourcePos::Line {
                line: line as u32,
                column: column as u32,
            }
        };
        SourceMap {
            rows: rows
                .into_iter()
                .map(|r| r.into_iter().map(pos).collect())
                .collect(),
            header: header.map(pos),
        }
    }

    /// Where record `index` of list `list` (`"bones"`) came from.
    pub fn get(&self, list: &str, index: usize) -> Option<SourcePos> {
        let row = KIND_FIELDS.iter().position(|f| *f == list)?;
        debug_assert!(row < KINDS);
        self.rows.get(row)?.get(index).copied()
    }

    /// Fills in [`Finding::at`]: the record's place, or the model header's for findings
    /// about the model as a whole.
    pub fn locate(&self, findings: &mut [Finding]) {
        for f in findings {
            f.at = match f.record {
                Some(r) => self.get(r.list, r.index),
                None => self.header,
            };
        }
    }
}
