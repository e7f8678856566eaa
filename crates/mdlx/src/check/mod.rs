//! Checking a model: the sanity test modders run before a release, as a library.
//!
//! [`check`] runs every rule of [`RULES`] over a [`Model`] and returns its [`Finding`]s:
//! the rule (a stable kebab-case id, a [`Severity`], where the rule comes from), where in
//! the model (`geosets[2].vertex_groups[17]`, with the record's name), and a message that
//! says what is wrong and what to do. [`SourceMap`] adds where the record came from in
//! the file (an MDX byte offset or an MDL line) when the model was read from one;
//! [`check_textures`] adds the rules that need the texture files.
//!
//! What the game needs depends on what the model is for: a unit without a Death sequence
//! has nothing to play when it dies, an effect or a portrait never dies. [`check`] decides
//! the model's [`Kind`] with [`classify`] (the decision table is in [`kind`]) and each
//! rule takes its severity for that kind ([`Rule::severity_for`]); [`check_as`] takes the
//! kind from the caller (`mdlx check --kind`).
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
//!
//! # Where we differ from the peers
//!
//! Both peers check every model as if it were a unit. The rules whose severity depends on
//! the kind, rule by rule (`-`: not reported; m3v: mdx-m3-viewer's sanity tester, whose
//! `severe` is our error; tuner: War3 Model Tuner's `Inspect`):
//!
//! | Rule                        | m3v     | tuner   | unit, building | doodad  | effect  | portrait | missile | item    |
//! |-----------------------------|---------|---------|----------------|---------|---------|----------|---------|---------|
//! | `no-sequences`              | warning | warning | warning        | -       | warning | warning  | warning | warning |
//! | `missing-stand-sequence`    | severe  | -       | error          | warning | warning | -        | warning | warning |
//! | `missing-death-sequence`    | severe  | -       | error          | info    | -       | -        | info    | info    |
//! | `missing-walk-sequence`     | -       | -       | warning (unit) | -       | -       | -        | -       | -       |
//! | `missing-portrait-sequence` | -       | -       | -              | -       | -       | warning  | -       | -       |
//! | `missing-origin-attachment` | warning | warning | warning        | -       | -       | -        | -       | -       |
//!
//! Why: a unit or a building plays Stand when idle and Death when it dies, so without
//! them it misbehaves; an effect is destroyed rather than killed and a portrait is never
//! killed, so Death is not asked of them (checked as units, 290 of the corpus's 659
//! readable MDX and MDL files lack it: 173 effects, 89 doodads, 13 portraits, 2 missiles
//! and 13 units; `tests/check_corpus.rs`); a doodad, a missile or an item without Death is a
//! choice (it vanishes at once), said as an info; effects, missiles, doodads and items are
//! what things attach to nothing on, so no Origin Ref is asked of them. `missing-walk-sequence`
//! fires for units only (buildings are `off`), `missing-portrait-sequence` for portraits
//! only. Every other rule has the same severity for every kind.

mod anim;
pub mod fix;
pub mod kind;

pub(crate) mod geometry;
mod locate;
mod objects;
mod refs;
#[cfg(feature = "optimize")]
pub(crate) use refs::list_of;
pub mod rules;
mod textures;

pub(crate) use anim::{is_standard_sequence, sequence_word};
pub use kind::{classify, Classification, Kind};
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
    /// How bad it is: the rule's severity for the kind of model checked
    /// ([`Rule::severity_for`]).
    pub severity: Severity,
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
    /// The severity (the rule's, for the kind of model checked).
    pub fn severity(&self) -> Severity {
        self.severity
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.severity.name(), self.rule.id)?;
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

/// Collects findings while the rules run, at the severity each rule has for `kind`.
pub(crate) struct Findings {
    out: Vec<Finding>,
    /// What the model is checked as.
    pub(crate) kind: Kind,
}

/// Where a finding is: a record (list, index, name) and the path below it.
#[derive(Clone)]
pub(crate) struct At {
    pub(crate) record: Option<RecordRef>,
    pub(crate) name: Option<String>,
    pub(crate) path: String,
}

impl At {
    /// The model as a whole.
    pub(crate) fn model() -> At {
        At {
            record: None,
            name: None,
            path: String::new(),
        }
    }

    /// Record `index` of `list`, with its name when it has a non-empty one.
    pub(crate) fn record(list: &'static str, index: usize, name: Option<&str>) -> At {
        At {
            record: Some(RecordRef { list, index }),
            name: name.filter(|n| !n.is_empty()).map(str::to_owned),
            path: format!("{list}[{index}]"),
        }
    }

    /// A field below this place: `.vertex_groups[17]`, `.tracks.KGRT`.
    pub(crate) fn sub(&self, more: impl fmt::Display) -> At {
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
    /// No findings yet, for a model checked as `kind`.
    pub(crate) fn new(kind: Kind) -> Findings {
        Findings {
            out: Vec::new(),
            kind,
        }
    }

    /// Adds a finding of `rule`, unless the rule is off for the kind checked.
    pub(crate) fn add(&mut self, rule: &'static Rule, at: &At, message: impl Into<String>) {
        let Some(severity) = rule.severity_for(self.kind) else {
            return;
        };
        self.out.push(Finding {
            rule,
            severity,
            path: at.path.clone(),
            record: at.record,
            name: at.name.clone(),
            message: message.into(),
            at: None,
        });
    }
}

/// Runs every rule over `model` (except the texture-file rules, see [`check_textures`]),
/// as the kind [`classify`] finds (without a file name). Findings come grouped by rule
/// family, in model order within each.
pub fn check(model: &Model) -> Vec<Finding> {
    check_as(model, classify(model, None).kind)
}

/// [`check`] for a model of `kind`: each rule at its severity for that kind, and the rules
/// that are off for it not run.
pub fn check_as(model: &Model, kind: Kind) -> Vec<Finding> {
    let mut f = Findings::new(kind);
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
mod kind_tests;
#[cfg(test)]
mod tests;
