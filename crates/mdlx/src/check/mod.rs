//! Checking a model: the sanity test modders run before a release, as a library.
//!
//! [`check`] runs every rule of [`RULES`] over a [`Model`] and returns its [`Finding`]s:
//! the rule (a stable kebab-case id, a [`Severity`], where the rule comes from), where in
//! the model (`geosets[2].vertex_groups[17]`, with the record's name), and a message that
//! says what is wrong and what to do. [`SourceMap`] adds where the record came from in
//! the file (an MDX byte offset or an MDL line) when the model was read from one;
//! [`check_textures`] adds the rules that need the texture files.
//!
//! ```
//! let model = mdlx::mdx::from_bytes(include_bytes!("../../../../examples/cube.mdx")).unwrap();
//! let findings = mdlx::check::check(&model);
//! assert!(findings.iter().all(|f| f.rule.id != "invalid-material-ref"));
//! ```
//!
//! The rules come from mdx-m3-viewer's sanity tester (what the model sites use for
//! moderation), from what could be established of War3 Model Tuner's error checker, and
//! from this crate; [`rules`] says which for each.

mod anim;
pub mod fix;

mod geometry;
mod locate;
mod objects;
mod refs;
pub mod rules;
mod textures;
pub(crate) mod usage;

pub(crate) use anim::{is_standard_sequence, sequence_word};
pub use locate::{SourceMap, SourcePos};
pub use rules::{Rule, Severity, RULES};
pub use textures::check_textures;

use crate::model::Model;
use std::fmt;

/// Which record of the model a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordRef {
    /// The model's list (`geosets`, `bones`, `sequences`, ...), as [`Model`] names it.
    pub list: &'static str,
    /// The index in that list.
    pub index: usize,
}

/// One problem found.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The rule.
    pub rule: &'static Rule,
    /// Where in the model: the record and the field below it,
    /// `geosets[2].vertex_groups[17]`, `bones[4].tracks.KGRT.keys[3]`; empty for the model
    /// as a whole.
    pub path: String,
    /// The record the path starts at, if any.
    pub record: Option<RecordRef>,
    /// The record's name, if it has one.
    pub name: Option<String>,
    /// What is wrong and what to do, in one line.
    pub message: String,
    /// Where the record came from in the file, once [`SourceMap::locate`] has run.
    pub at: Option<SourcePos>,
}

impl Finding {
    /// The severity (the rule's).
    pub fn severity(&self) -> Severity {
        self.rule.severity
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.rule.severity.name(), self.rule.id)?;
        if !self.path.is_empty() {
            write!(f, " {}", self.path)?;
        }
        if let Some(n) = &self.name {
            write!(f, " {n:?}")?;
        }
        if let Some(at) = &self.at {
            write!(f, " ({at})")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Collects findings while the rules run.
pub(crate) struct Findings {
    out: Vec<Finding>,
}

/// Where a finding is: a record (list, index, name) and the path below it.
#[derive(Clone)]
pub(crate) struct At {
    pub record: Option<RecordRef>,
    pub name: Option<String>,
    pub path: String,
}

impl At {
    /// The model as a whole.
    pub fn model() -> At {
        At {
            record: None,
            name: None,
            path: String::new(),
        }
    }

    /// Record `index` of `list`, with its name when it has a non-empty one.
    pub fn record(list: &'static str, index: usize, name: Option<&str>) -> At {
        At {
            record: Some(RecordRef { list, index }),
            name: name.filter(|n| !n.is_empty()).map(str::to_owned),
            path: format!("{list}[{index}]"),
        }
    }

    /// A field below this place: `.vertex_groups[17]`, `.tracks.KGRT`.
    pub fn sub(&self, more: impl fmt::Display) -> At {
        let mut a = self.clone();
        let more = more.to_string();
        if !more.starts_with('[') && !a.path.is_empty() {
            a.path.push('.');
        }
        a.path.push_str(&more);
        a
    }
}

impl Findings {
    pub fn new() -> Findings {
        Findings { out: Vec::new() }
    }

    pub fn add(&mut self, rule: &'static Rule, at: &At, message: impl Into<String>) {
        self.out.push(Finding {
            rule,
            path: at.path.clone(),
            record: at.record,
            name: at.name.clone(),
            message: message.into(),
            at: None,
        });
    }
}

/// Runs every rule over `model` (except the texture-file rules, see [`check_textures`]).
/// Findings come grouped by rule family, in model order within each.
pub fn check(model: &Model) -> Vec<Finding> {
    let mut f = Findings::new();
    objects::header(model, &mut f);
    anim::sequences(model, &mut f);
    refs::references(model, &mut f);
    refs::skinning(model, &mut f);
    geometry::geosets(model, &mut f);
    anim::tracks(model, &mut f);
    objects::materials(model, &mut f);
    objects::nodes(model, &mut f);
    objects::unused(model, &mut f);
    f.out
}

/// Counts per severity: (errors, warnings, infos).
pub fn tally(findings: &[Finding]) -> (usize, usize, usize) {
    findings
        .iter()
        .fold((0, 0, 0), |(e, w, i), f| match f.severity() {
            Severity::Error => (e + 1, w, i),
            Severity::Warning => (e, w + 1, i),
            Severity::Info => (e, w, i + 1),
        })
}

#[cfg(test)]
mod tests;
