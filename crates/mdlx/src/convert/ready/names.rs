//! Sequence names: the table of words the game plays, and naming each sequence by it.

use super::{unused_renames, ReadyOptions, NAME_BYTES};
use crate::check::{is_standard_sequence, sequence_word};
use crate::model::{FixedString, Model};
use crate::Loss;

/// Source words and the game's sequence name they become, in order of precedence: the
/// first row with a word of the name wins. `run` and its kin become `Walk Fast` instead
/// when another sequence is the `Walk`.
pub const NAMES: &[(&[&str], &str)] = &[
    (&["death", "die", "dies", "dying", "dead"], "Death"),
    (&["decay"], "Decay"),
    (&["birth", "spawn"], "Birth"),
    (
        &[
            "attack", "punch", "kick", "slash", "stab", "strike", "swing", "shoot", "bite", "melee",
        ],
        "Attack",
    ),
    (&["spell", "cast", "casting", "magic", "channel"], "Spell"),
    (&["run", "running", "sprint", "jog", "jogging"], RUN),
    (&["walk", "walking", "move", "moving", "locomotion"], "Walk"),
    (&["hit", "hurt", "damage", "flinch", "wound"], "Stand Hit"),
    (&["victory", "cheer", "celebrate", "dance"], "Stand Victory"),
    (&["ready", "alert"], "Stand Ready"),
    (
        &[
            "idle",
            "stand",
            "standing",
            "rest",
            "wait",
            "waiting",
            "breathe",
            "breathing",
            "survey",
            "look",
        ],
        "Stand",
    ),
    (&["sleep", "sleeping"], "Sleep"),
    (&["portrait", "talk", "talking"], "Portrait"),
    (&["morph", "transform"], "Morph"),
    (&["dissipate"], "Dissipate"),
];

/// The placeholder of [`NAMES`] for running: `Walk`, or `Walk Fast` beside a `Walk`.
const RUN: &str = "Walk (run)";

/// The words of a name: split at anything but letters and digits, at lower-to-upper case
/// changes and between letters and digits; lower case.
pub(super) fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    for c in name.chars() {
        let split = match prev {
            _ if !c.is_alphanumeric() => true,
            Some(p) => {
                (p.is_lowercase() && c.is_uppercase())
                    || (p.is_alphabetic() && c.is_numeric())
                    || (p.is_numeric() && c.is_alphabetic())
            }
            None => false,
        };
        if split && !cur.is_empty() {
            out.push(std::mem::take(&mut cur).to_lowercase());
        }
        if c.is_alphanumeric() {
            cur.push(c);
        }
        prev = Some(c);
    }
    if !cur.is_empty() {
        out.push(cur.to_lowercase());
    }
    out
}

/// The game's name for a source name, by [`NAMES`].
pub(super) fn game_name(name: &str) -> Option<&'static str> {
    let w = words(name);
    NAMES
        .iter()
        .find(|(keys, _)| keys.iter().any(|k| w.iter().any(|x| x == k)))
        .map(|(_, to)| *to)
}

/// How a sequence got its name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Why {
    Kept,
    Renamed,
    Table,
    FirstAsStand,
}

pub(super) fn name_sequences(model: &mut Model, opts: &ReadyOptions, notes: &mut Vec<Loss>) {
    let renames = &opts.renames;
    let originals: Vec<String> = model
        .sequences
        .iter()
        .map(|s| s.name.text().into())
        .collect();
    let mut used = vec![false; renames.len()];
    let mut names: Vec<(String, Why)> = originals
        .iter()
        .map(|orig| {
            let key = orig.trim();
            if let Some(r) = renames
                .iter()
                .position(|r| r.from.eq_ignore_ascii_case(key))
            {
                used[r] = true;
                return (renames[r].to.clone(), Why::Renamed);
            }
            if is_standard_sequence(orig) {
                return (orig.clone(), Why::Kept);
            }
            match game_name(orig) {
                Some(to) => (to.to_string(), Why::Table),
                None => (orig.clone(), Why::Kept),
            }
        })
        .collect();
    let walk = names
        .iter()
        .any(|(n, _)| n != RUN && sequence_word(n) == "walk");
    for (n, _) in &mut names {
        if n == RUN {
            *n = if walk { "Walk Fast" } else { "Walk" }.to_string();
        }
    }
    if !opts.chosen && !names.iter().any(|(n, _)| sequence_word(n) == "stand") {
        if let Some(first) = names
            .iter_mut()
            .find(|(n, w)| *w != Why::Renamed && !is_standard_sequence(n))
        {
            *first = ("Stand".to_string(), Why::FirstAsStand);
        }
    }
    // Decorate the names given here that repeat an earlier one.
    for i in 0..names.len() {
        if names[i].1 == Why::Kept {
            continue;
        }
        let base = names[i].0.clone();
        let taken = |n: &str, names: &[(String, Why)]| {
            (0..names.len()).any(|j| j != i && names[j].0.eq_ignore_ascii_case(n))
        };
        if names[..i]
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(&base))
        {
            let mut k = 2;
            while taken(&format!("{base} - {k}"), &names) {
                k += 1;
            }
            names[i].0 = format!("{base} - {k}");
        }
    }
    for (i, ((name, why), orig)) in names.iter().zip(&originals).enumerate() {
        let place = format!("sequences[{i}]");
        if name != orig {
            let how = match why {
                Why::Renamed => "as --rename asks",
                Why::FirstAsStand => {
                    "the model had no Stand: its first sequence with a name the game does not play"
                }
                _ => "a name the game plays (see mdlx::convert::ready::NAMES)",
            };
            notes.push(Loss::new(&place, format!("{orig:?} named {name:?}: {how}")));
            let mut bytes = name.as_bytes();
            if bytes.len() > NAME_BYTES {
                bytes = &bytes[..NAME_BYTES];
            }
            model.sequences[i].name = FixedString::from_field(bytes);
        }
        if !is_standard_sequence(name) {
            notes.push(Loss::new(
                &place,
                format!("{name:?} is not a name the game plays (Stand, Walk, Attack, Spell, Death, ...): it plays only when asked for by name; --rename \"{name}=Stand\" names it"),
            ));
        }
    }
    unused_renames(renames, &used, notes);
}
