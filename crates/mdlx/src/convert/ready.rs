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

use crate::check::fix;
use crate::check::usage::{visit_tracks_mut, Owner, TrackVisitorMut};
use crate::check::{is_standard_sequence, sequence_word};
use crate::model::{
    AnyTrack, FixedString, Interpolation, Key, Model, Sequence, Track, Tracks, SEQUENCE_NON_LOOPING,
};
use crate::Loss;

/// The longest sequence name a model holds (bytes).
const NAME_BYTES: usize = 80;

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

/// The words of a name: split at anything but letters and digits, at lower-to-upper case
/// changes and between letters and digits; lower case.
fn words(name: &str) -> Vec<String> {
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
fn game_name(name: &str) -> Option<&'static str> {
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

fn name_sequences(model: &mut Model, opts: &ReadyOptions, notes: &mut Vec<Loss>) {
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

/// A tangent that keeps a spline flat at a key of value `v`: 0 for a Hermite float or
/// vector (a slope), the value itself otherwise (a control point, or unused).
trait Flat: Copy {
    fn flat(v: Self, i: Interpolation) -> Self;
}
impl Flat for f32 {
    fn flat(v: f32, i: Interpolation) -> f32 {
        if i == Interpolation::Hermite {
            0.0
        } else {
            v
        }
    }
}
impl Flat for [f32; 3] {
    fn flat(v: [f32; 3], i: Interpolation) -> [f32; 3] {
        v.map(|x| f32::flat(x, i))
    }
}
impl Flat for [f32; 4] {
    fn flat(v: [f32; 4], _: Interpolation) -> [f32; 4] {
        v
    }
}
impl Flat for u32 {
    fn flat(v: u32, _: Interpolation) -> u32 {
        v
    }
}

fn held<T: Flat>(time: i32, value: T, i: Interpolation) -> Key<T> {
    Key {
        time,
        value,
        in_tan: T::flat(value, i),
        out_tan: T::flat(value, i),
    }
}

/// Runs `f` on every track of the model (texture slots included, events not).
struct EachTrack<F>(F);

trait OnTrack {
    fn on<T: Flat>(&mut self, t: &mut Track<T>);
}

impl<F: OnTrack> TrackVisitorMut for EachTrack<F> {
    fn tracks(&mut self, _: Owner, _: &dyn Fn() -> String, tracks: &mut Tracks) {
        for a in &mut tracks.0 {
            match &mut a.track {
                AnyTrack::Float(t) => self.0.on(t),
                AnyTrack::Vector3(t) => self.0.on(t),
                AnyTrack::Quaternion(t) => self.0.on(t),
                AnyTrack::Integer(t) => self.0.on(t),
            }
        }
    }
    fn slot(&mut self, _: Owner, _: &dyn Fn() -> String, track: &mut Track<u32>) {
        self.0.on(track);
    }
}

/// Adds the opening keys; counts them.
struct Opening {
    sequences: Vec<[u32; 2]>,
    globals: Vec<u32>,
    added: usize,
}

impl OnTrack for Opening {
    fn on<T: Flat>(&mut self, t: &mut Track<T>) {
        if t.keys.is_empty() || t.keys.windows(2).any(|w| w[0].time > w[1].time) {
            return;
        }
        let windows: Vec<(i64, i64)> = match t.global_sequence_id {
            -1 => self
                .sequences
                .iter()
                .filter(|s| s[0] <= s[1])
                .map(|s| (i64::from(s[0]), i64::from(s[1])))
                .collect(),
            g => match usize::try_from(g).ok().and_then(|g| self.globals.get(g)) {
                Some(&len) => vec![(0, i64::from(len))],
                None => return,
            },
        };
        let mut add = Vec::new();
        for (lo, hi) in windows {
            let Ok(start) = i32::try_from(lo) else {
                continue;
            };
            let first = t
                .keys
                .iter()
                .find(|k| i64::from(k.time) >= lo && i64::from(k.time) <= hi);
            if let Some(k) = first {
                if k.time != start && !add.iter().any(|a: &Key<T>| a.time == start) {
                    add.push(held(start, k.value, t.interpolation));
                }
            }
        }
        self.added += add.len();
        insert(t, add);
    }
}

/// Inserts `keys` into `t` in time order (after a key of the same time).
fn insert<T: Copy>(t: &mut Track<T>, keys: Vec<Key<T>>) {
    for k in keys {
        let at = t.keys.partition_point(|x| x.time <= k.time);
        t.keys.insert(at, k);
    }
}

fn opening_keys(model: &mut Model) -> usize {
    let mut v = EachTrack(Opening {
        sequences: model.sequences.iter().map(|s| s.interval).collect(),
        globals: model.global_sequences.clone(),
        added: 0,
    });
    visit_tracks_mut(model, &mut v);
    v.0.added
}

/// Copies the keys at `from` to `to` (tracks off the global clock).
struct CopyPose {
    from: i32,
    to: i32,
}

impl OnTrack for CopyPose {
    fn on<T: Flat>(&mut self, t: &mut Track<T>) {
        if t.global_sequence_id != -1 {
            return;
        }
        let at = t.keys.iter().rposition(|k| k.time == self.from);
        if let Some(k) = at.map(|i| t.keys[i]) {
            insert(t, vec![held(self.to, k.value, t.interpolation)]);
        }
    }
}

/// Adds a one-second sequence after the others holding the first pose of sequence
/// `source` (nothing, without one).
fn add_sequence(model: &mut Model, name: &str, source: Option<usize>, flags: u32) {
    let end = model.sequences.iter().map(|s| s.interval[1]).max();
    let start = end.map_or(0, |e| {
        e.saturating_add(500).div_ceil(1000).saturating_mul(1000)
    });
    let extent = source.map_or(model.info.extent, |s| model.sequences[s].extent);
    let n = model.sequences.len();
    model.sequences.push(Sequence {
        name: FixedString::from(name),
        interval: [start, start.saturating_add(1000)],
        flags,
        extent,
        ..Default::default()
    });
    for g in &mut model.geosets {
        if g.sequence_extents.len() == n {
            let e = source
                .and_then(|s| g.sequence_extents.get(s).copied())
                .unwrap_or(g.extent);
            g.sequence_extents.push(e);
        }
    }
    if let Some(s) = source {
        let (Ok(from), Ok(to)) = (
            i32::try_from(model.sequences[s].interval[0]),
            i32::try_from(start),
        ) else {
            return;
        };
        visit_tracks_mut(model, &mut EachTrack(CopyPose { from, to }));
    }
}

fn stand_and_death(model: &mut Model, notes: &mut Vec<Loss>) {
    let find = |m: &Model, w: &str| {
        m.sequences
            .iter()
            .position(|s| sequence_word(&s.name.text()) == w)
    };
    if find(model, "stand").is_none() {
        let source = (!model.sequences.is_empty()).then_some(0);
        add_sequence(model, "Stand", source, 0);
        let what = match source {
            Some(_) => "no sequence could be the Stand: added, one second holding the first pose of the first sequence",
            None => "the model had no sequence: a one-second Stand added",
        };
        let place = format!("sequences[{}]", model.sequences.len() - 1);
        notes.push(Loss::new(place, what));
    }
    // A Death only where `check` calls its absence an error: a unit or a building (a
    // doodad, an effect or a portrait stands without one; see `check::kind`).
    let kind = crate::check::classify(model, None).kind;
    let death_needed = crate::check::rules::MISSING_DEATH.severity_for(kind)
        == Some(crate::check::Severity::Error);
    if death_needed && find(model, "death").is_none() {
        let stand = find(model, "stand");
        add_sequence(model, "Death", stand, SEQUENCE_NON_LOOPING);
        let place = format!("sequences[{}]", model.sequences.len() - 1);
        notes.push(Loss::new(
            place,
            "no death animation: a one-second Death holding the Stand's first pose added (the game plays Death when a unit dies); --rename one to Death to use it instead",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_at_case_digits_and_punctuation() {
        assert_eq!(
            words("mixamo.com|RunCycle2"),
            ["mixamo", "com", "run", "cycle", "2"]
        );
        assert_eq!(words("Armature|Idle"), ["armature", "idle"]);
    }

    #[test]
    fn the_table_names_common_animations() {
        assert_eq!(game_name("Armature|Idle"), Some("Stand"));
        assert_eq!(game_name("Die_Forward"), Some("Death"));
        assert_eq!(game_name("attack_01"), Some("Attack"));
        assert_eq!(game_name("Walking"), Some("Walk"));
        assert_eq!(game_name("Animation 0"), None);
        // "rest" is a whole word only: "Forest" is not Stand.
        assert_eq!(game_name("Forest"), None);
    }

    fn seq(name: &str, a: u32, b: u32) -> Sequence {
        Sequence {
            name: FixedString::from(name),
            interval: [a, b],
            ..Default::default()
        }
    }

    fn names(m: &Model) -> Vec<String> {
        m.sequences
            .iter()
            .map(|s| s.name.text().into_owned())
            .collect()
    }

    #[test]
    fn names_map_decorate_and_renames_win() {
        let mut m = Model {
            sequences: vec![
                seq("Idle", 0, 100),
                seq("Breathing", 1000, 1100),
                seq("Run", 2000, 2100),
                seq("Walk", 3000, 3100),
                seq("Survey", 4000, 4100),
                seq("Wave", 5000, 5100),
            ],
            ..Default::default()
        };
        let opts = ReadyOptions {
            renames: parse_renames("survey=Spell Slam").unwrap(),
            chosen: false,
        };
        let mut notes = Vec::new();
        name_sequences(&mut m, &opts, &mut notes);
        assert_eq!(
            names(&m),
            [
                "Stand",
                "Stand - 2",
                "Walk Fast",
                "Walk",
                "Spell Slam",
                "Wave"
            ]
        );
        assert!(notes
            .iter()
            .any(|n| n.what.contains("\"Wave\" is not a name")));
    }

    #[test]
    fn a_standing_model_gets_a_stand_and_no_death() {
        // Only a Stand: check takes it for a doodad, which needs no Death.
        let mut m = Model {
            sequences: vec![seq("Animation 0", 0, 1000)],
            ..Default::default()
        };
        let notes = finish(&mut m, &ReadyOptions::default());
        assert_eq!(names(&m), ["Stand"], "{notes:?}");
        assert!(crate::check::check(&m)
            .iter()
            .all(|f| f.severity() != crate::check::Severity::Error));
    }

    #[test]
    fn a_unit_gets_a_stand_a_death_and_opening_keys() {
        // A walk makes it a unit, which needs a Death.
        let mut m = Model {
            sequences: vec![seq("Animation 0", 0, 1000), seq("walk cycle", 1500, 2500)],
            ..Default::default()
        };
        m.bones.push(crate::model::Bone::default());
        m.bones[0].node.tracks = Tracks(vec![crate::model::Animation {
            tag: crate::format::track::KGTR,
            track: AnyTrack::Vector3(Track {
                interpolation: Interpolation::Linear,
                global_sequence_id: -1,
                keys: vec![
                    Key::at(200, [1.0, 0.0, 0.0]),
                    Key::at(500, [2.0, 0.0, 0.0]),
                    Key::at(800, [3.0, 0.0, 0.0]),
                    Key::at(1000, [4.0, 0.0, 0.0]),
                ],
            }),
        }]);
        let notes = finish(&mut m, &ReadyOptions::default());
        assert_eq!(names(&m), ["Stand", "walk cycle", "Death"], "{notes:?}");
        assert_eq!(m.sequences[2].interval, [3000, 4000]);
        assert_eq!(m.sequences[2].flags, SEQUENCE_NON_LOOPING);
        let AnyTrack::Vector3(t) = &m.bones[0].node.tracks.0[0].track else {
            unreachable!()
        };
        let keys: Vec<(i32, f32)> = t.keys.iter().map(|k| (k.time, k.value[0])).collect();
        // An opening key at 0, the key at 500 on the line from 200 to 800 dropped, the
        // Death holding the Stand's first value.
        assert_eq!(
            keys,
            [(0, 1.0), (200, 1.0), (800, 3.0), (1000, 4.0), (3000, 1.0)]
        );
        assert!(crate::check::check(&m)
            .iter()
            .all(|f| f.rule.id != "missing-opening-key" && f.rule.id != "redundant-key"));
    }
}
