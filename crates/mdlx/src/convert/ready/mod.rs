//! Making a converted model (glTF, Milkshape, the WoW alpha family) ready for the game: the
//! sequence names it plays, a `Stand` and a `Death`, a key at the start of every sequence
//! a track animates, and no key the keys around it give back.
//!
//! # Sequence names
//! The game plays a sequence by the first word of its name (`Stand`, `Walk`, `Attack`,
//! ...; see the `nonstandard-sequence-name` rule of [`crate::check`]). Each sequence is
//! named, in this order of precedence:
//! 1. by [`ReadyOptions::renames`] (`Survey=Stand`), matched against the source's name
//!    without case;
//! 2. kept, when its first word is already one the game plays;
//! 3. by the first row of [`NAMES`] one of whose words is a word of the source's name
//!    (words split at anything but letters and digits and at lower-to-upper case changes,
//!    compared without case): `Armature|Idle` is `Stand`, `RunCycle` is `Walk` (`Walk
//!    Fast` when another sequence is the `Walk`), `mixamo.com|Death` is `Death`;
//! 4. else kept, and listed as a note: the game plays it only when asked for by name.
//!
//! A model without a `Stand` then names its first sequence that is still non-standard
//! `Stand` (the one animation of a file is usually its loop). A name given twice gets the
//! game's decoration from the second on: `Stand`, `Stand - 2`, `Stand - 3` (the game
//! reads the word before ` - `, so both play as `Stand`, picked at random).
//!
//! # Stand and Death
//! The game shows an idle model with its `Stand` and plays a unit's `Death` when the unit
//! dies (`mdlx check` counts a missing Stand as an error, and a missing Death on a unit or
//! a building: [`crate::check::classify`] tells the model's kind). When no sequence can be
//! named so, one is added after the others (starting on a whole second at least half a
//! second after the last one ends, one second long) that holds the first pose of the
//! `Stand` (of the first sequence, for a missing `Stand`); the `Death` does not loop, and
//! is added only to a model that `check` takes for a unit or a building (a doodad, an
//! effect or a portrait needs none). Each addition is listed, so that it can be replaced
//! by a real animation.
//!
//! # Keys
//! - **Opening keys.** A track with keys in a sequence but none at its start makes the game
//!   carry the previous sequence's last value into it (the `missing-opening-key` rule).
//!   Every such sequence gets a key at its start holding the track's first value in it,
//!   which is what the sources (glTF, Milkshape) do before a track's first key; spline
//!   tracks get flat tangents there. Global sequences likewise at 0.
//! - **Redundant keys.** Then every key that `mdlx check --fix` would drop as redundant
//!   ([`crate::check::fix`]: the track moves by at most 1e-6 of `max(1, |value|)` without
//!   it, at its time and half way to its neighbours) is dropped, until none is left.

mod keys;
mod names;
#[cfg(test)]
mod tests;

use crate::check::fix;
use crate::model::{FixedString, Model};
use crate::Loss;
pub(crate) use keys::Flat;
use keys::{opening_keys, stand_and_death};
use names::name_sequences;
pub use names::NAMES;

/// The longest sequence name a model holds (bytes).
const NAME_BYTES: usize = 80;

/// A sequence to name: `from` the source's name (matched without case), `to` the name
/// the model gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rename {
    /// The source's sequence name.
    pub from: String,
    /// The name to give it.
    pub to: String,
}

/// Parses `Survey=Stand,Run=Walk Fast` (as `mdlx convert --rename` takes it): pairs
/// separated by commas, each `FROM=TO`; spaces around either side are dropped.
///
/// ```
/// let r = mdlx::convert::ready::parse_renames("Survey=Stand, Run = Walk Fast").unwrap();
/// assert_eq!((r[1].from.as_str(), r[1].to.as_str()), ("Run", "Walk Fast"));
/// assert!(mdlx::convert::ready::parse_renames("Survey").is_err());
/// ```
pub fn parse_renames(text: &str) -> Result<Vec<Rename>, String> {
    let mut out = Vec::new();
    for part in text.split(',') {
        if part.trim().is_empty() {
            continue;
        }
        let (from, to) = part
            .split_once('=')
            .ok_or_else(|| format!("{:?}: expected FROM=TO", part.trim()))?;
        let (from, to) = (from.trim(), to.trim());
        if from.is_empty() || to.is_empty() {
            return Err(format!("{:?}: both names must be given", part.trim()));
        }
        if to.len() > NAME_BYTES {
            return Err(format!(
                "{to:?}: a sequence name holds at most {NAME_BYTES} bytes"
            ));
        }
        out.push(Rename {
            from: from.to_string(),
            to: to.to_string(),
        });
    }
    if out.is_empty() {
        return Err("no FROM=TO pair given".into());
    }
    Ok(out)
}

/// What [`finish`] does beyond its fixed steps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadyOptions {
    /// Sequence names to set, before the table of [`NAMES`] is consulted.
    pub renames: Vec<Rename>,
    /// The sequence names were chosen by the user (Milkshape `--frames`): none of them is
    /// made the `Stand`; one is added when missing.
    pub chosen: bool,
}

/// Makes `model` ready for the game (see the module docs) and returns what it changed and
/// what is still not standard, as notes (a place and what).
pub fn finish(model: &mut Model, opts: &ReadyOptions) -> Vec<Loss> {
    let mut notes = Vec::new();
    name_sequences(model, opts, &mut notes);
    let opened = opening_keys(model);
    if opened > 0 {
        notes.push(Loss::new(
            "tracks",
            format!(
                "{opened} key(s) added at the start of the sequences they animate, holding the first value there (the game would carry the previous sequence's last value in)"
            ),
        ));
    }
    stand_and_death(model, &mut notes);
    let dropped = fix::thin(model);
    if dropped > 0 {
        notes.push(Loss::new(
            "tracks",
            format!("{dropped} redundant key(s) dropped (the keys around them give the same curve within 1e-6)"),
        ));
    }
    notes
}

/// Only `renames` (no table, no decoration, no keys): for a model that is a Warcraft III
/// model already (a glTF file this crate exported). Returns what it did as notes.
pub fn rename_only(model: &mut Model, renames: &[Rename]) -> Vec<Loss> {
    let mut notes = Vec::new();
    let mut used = vec![false; renames.len()];
    for (i, s) in model.sequences.iter_mut().enumerate() {
        let orig = s.name.text().into_owned();
        if let Some(r) = renames
            .iter()
            .position(|r| r.from.eq_ignore_ascii_case(orig.trim()))
        {
            used[r] = true;
            s.name = FixedString::from(renames[r].to.as_str());
            let what = format!("{orig:?} named {:?}: as --rename asks", renames[r].to);
            notes.push(Loss::new(format!("sequences[{i}]"), what));
        }
    }
    unused_renames(renames, &used, &mut notes);
    notes
}

/// Notes the renames no sequence matched.
fn unused_renames(renames: &[Rename], used: &[bool], notes: &mut Vec<Loss>) {
    for (r, _) in renames.iter().zip(used).filter(|(_, u)| !**u) {
        notes.push(Loss::new(
            "sequences",
            format!(
                "--rename {}={}: no sequence is named {:?}",
                r.from, r.to, r.from
            ),
        ));
    }
}
