//! Sequences, global sequences and the keys of every track.

use super::rules::*;
use super::{At, Findings, Kind};
use crate::model::usage::{visit_tracks, Owner, TrackVisitor};
use crate::model::{AnyTrack, Interpolation, Model, Tag, Track, Tracks, KIND_FIELDS};
use crate::spec::track as tk;

/// The first word of a sequence name as the game matches it: lower case, before any `-`,
/// after a leading `Alternate`.
pub(crate) fn sequence_word(name: &str) -> String {
    let lower = name.trim().to_lowercase();
    let head = lower.split('-').next().unwrap_or("");
    let mut words = head.split_whitespace();
    let first = words.next().unwrap_or("");
    if first == "alternate" {
        words.next().unwrap_or("").to_owned()
    } else {
        first.to_owned()
    }
}

/// Sequence first words the game plays by name (mdx-m3-viewer's list, which follows the
/// game's animation names).
pub(crate) const STANDARD: &[&str] = &[
    "attack",
    "birth",
    "cinematic",
    "death",
    "decay",
    "dissipate",
    "morph",
    "portrait",
    "sleep",
    "spell",
    "stand",
    "walk",
    "ready",
];

/// Whether the game plays a sequence of this name by its first word (see [`sequence_word`]).
pub(crate) fn is_standard_sequence(name: &str) -> bool {
    STANDARD.contains(&sequence_word(name).as_str())
}

pub(crate) fn sequences(m: &Model, f: &mut Findings) {
    if m.sequences.is_empty() {
        f.add(
            &NO_SEQUENCES,
            &At::model(),
            "the model has no sequences: add at least Stand",
        );
    }
    let (mut stand, mut death, mut portrait, mut walk) = (false, false, false, false);
    for (i, s) in m.sequences.iter().enumerate() {
        let name = s.name.text();
        let at = At::record("sequences", i, Some(&name));
        let word = sequence_word(&name);
        stand |= word == "stand";
        death |= word == "death";
        portrait |= word == "portrait";
        walk |= word == "walk";
        if !STANDARD.contains(&word.as_str()) {
            let msg = format!(
                "\"{word}\" is not a name the game plays (Stand, Walk, Attack, Spell, Death, Decay, Birth, Portrait, ...): rename it if it should play"
            );
            f.add(&NONSTANDARD_NAME, &at, msg);
        }
        let [start, end] = s.interval;
        if start == end {
            f.add(
                &ZERO_LENGTH,
                &at.sub("interval"),
                format!("starts and ends at {start}: give it a length"),
            );
        } else if end < start {
            let msg = format!("ends at {end}, before it starts at {start}: swap the two");
            f.add(&REVERSED_SEQUENCE, &at.sub("interval"), msg);
        }
        if m.version == 800 {
            for (j, o) in m.sequences[..i].iter().enumerate() {
                let other = o.name.text();
                if start == o.interval[0] {
                    let msg = format!("starts at {start}, as sequence {j} \"{other}\" does: give each its own time range");
                    f.add(&SEQUENCE_OVERLAP, &at.sub("interval"), msg);
                } else if start < o.interval[1] {
                    let msg = format!(
                        "starts at {start}, before sequence {j} \"{other}\" ends at {}: classic Warcraft III wants sequences in time order without overlap",
                        o.interval[1]
                    );
                    f.add(&SEQUENCE_OVERLAP, &at.sub("interval"), msg);
                }
            }
        }
    }
    if !m.sequences.is_empty() {
        if !stand {
            f.add(&MISSING_STAND, &At::model(), no_stand(f.kind));
        }
        if !death {
            f.add(&MISSING_DEATH, &At::model(), no_death(f.kind));
        }
        if !walk {
            f.add(
                &MISSING_WALK,
                &At::model(),
                "no Walk sequence: the unit slides when it moves; add one unless it never moves",
            );
        }
    }
    if !portrait {
        f.add(
            &MISSING_PORTRAIT_SEQUENCE,
            &At::model(),
            "a portrait without a Portrait sequence: the portrait frame has nothing made for it to play; add Portrait (and Portrait Talk)",
        );
    }
    if portrait && m.cameras.is_empty() {
        f.add(
            &MISSING_PORTRAIT_CAMERA,
            &At::model(),
            "Portrait sequences but no camera: add a camera to frame the portrait",
        );
    }
    for (i, &len) in m.global_sequences.iter().enumerate() {
        if len == 0 {
            let at = At::record("global_sequences", i, None);
            f.add(
                &ZERO_GLOBAL_SEQUENCE,
                &at,
                "lasts 0 ms: tracks on it never move; give it a length",
            );
        }
    }
}

/// What a missing Stand means for a model of `kind`.
fn no_stand(kind: Kind) -> String {
    let what = match kind {
        Kind::Unit | Kind::Building => "the game has nothing to play when it idles",
        Kind::Missile => "nothing to play in flight",
        Kind::Effect => "nothing to loop after Birth; fine if the effect is meant to play once",
        _ => "nothing to play while it stands",
    };
    format!("no Stand sequence ({kind}): {what}")
}

/// What a missing Death means for a model of `kind`.
fn no_death(kind: Kind) -> String {
    let what = match kind {
        Kind::Unit | Kind::Building => "nothing to play when it dies; add one",
        Kind::Doodad => {
            "fine for a doodad that is never destroyed; a destructible vanishes at once"
        }
        Kind::Missile => "the missile vanishes on impact, with no impact animation",
        _ => "it vanishes at once when destroyed",
    };
    format!("no Death sequence ({kind}): {what}")
}

/// A track's keys with values widened to four floats, whatever its kind.
pub(crate) struct View {
    pub interpolation: Interpolation,
    pub global_sequence_id: i32,
    pub times: Vec<i32>,
    pub values: Vec<[f32; 4]>,
}

trait Widen: Copy {
    fn widen(self) -> [f32; 4];
}
impl Widen for f32 {
    fn widen(self) -> [f32; 4] {
        [self, 0.0, 0.0, 0.0]
    }
}
impl Widen for u32 {
    fn widen(self) -> [f32; 4] {
        [self as f32, 0.0, 0.0, 0.0]
    }
}
impl Widen for [f32; 3] {
    fn widen(self) -> [f32; 4] {
        [self[0], self[1], self[2], 0.0]
    }
}
impl Widen for [f32; 4] {
    fn widen(self) -> [f32; 4] {
        self
    }
}

fn view<T: Widen>(t: &Track<T>) -> View {
    View {
        interpolation: t.interpolation,
        global_sequence_id: t.global_sequence_id,
        times: t.keys.iter().map(|k| k.time).collect(),
        values: t.keys.iter().map(|k| k.value.widen()).collect(),
    }
}

pub(crate) fn any_view(t: &AnyTrack) -> View {
    match t {
        AnyTrack::Float(t) => view(t),
        AnyTrack::Vector3(t) => view(t),
        AnyTrack::Quaternion(t) => view(t),
        AnyTrack::Integer(t) => view(t),
    }
}

/// Where a holder of tracks that [`visit_tracks`] names (`bones[3].node`,
/// `materials[0].layers[1]`) is: its record, with the name of a node or camera.
fn place(m: &Model, path: &str) -> At {
    let record = path.split_once('[').and_then(|(list, rest)| {
        let index: usize = rest.split_once(']')?.0.parse().ok()?;
        let list = *KIND_FIELDS.iter().find(|f| **f == list)?;
        Some((list, index))
    });
    let Some((list, index)) = record else {
        return At::model().sub(path);
    };
    macro_rules! node_name {
        ($($field:ident),*) => {
            match list {
                $(stringify!($field) => m.$field.get(index).map(|x| x.node.name.text().into_owned()),)*
                "cameras" => m.cameras.get(index).map(|c| c.name.text().into_owned()),
                _ => None,
            }
        };
    }
    let name = node_name!(
        bones,
        lights,
        helpers,
        attachments,
        particle_emitters,
        particle_emitters2,
        popcorn_emitters,
        ribbon_emitters,
        event_objects,
        collision_shapes
    );
    let mut at = At::record(list, index, name.as_deref());
    at.path = path.to_owned();
    at
}

/// Checks every track [`visit_tracks`] shows (event tracks are checked apart).
struct TrackRules<'a, 'm> {
    m: &'m Model,
    f: &'a mut Findings,
    redundancy: super::fix::Redundancy,
}

impl<'m> TrackVisitor<'m> for TrackRules<'_, 'm> {
    fn tracks(&mut self, _: Owner, at: &dyn Fn() -> String, tracks: &'m Tracks) {
        let base = place(self.m, &at());
        for a in tracks.iter() {
            self.one(
                &base.sub(format!("tracks.{}", a.tag.text())),
                a.tag,
                &a.track,
            );
        }
    }
    fn slot(&mut self, _: Owner, at: &dyn Fn() -> String, track: &'m Track<u32>) {
        let any = AnyTrack::Integer(track.clone());
        self.one(&place(self.m, &at()), tk::KMTF, &any);
    }
}

impl TrackRules<'_, '_> {
    fn one(&mut self, at: &At, tag: Tag, track: &AnyTrack) {
        let v = any_view(track);
        one_track(self.m, self.f, at, tag, &v);
        let gone = self.redundancy.keys(track);
        if !gone.is_empty() {
            let mut keys = KeyList::new();
            for &k in &gone {
                keys.push(|| format!("key {k} at {}", v.times[k]));
            }
            let say = "the keys around it give the same curve: drop it (--fix)";
            keys.report(self.f, &REDUNDANT_KEY, at, say);
        }
    }
}

const VISIBILITY: &[Tag] = &[tk::KLAV, tk::KATV, tk::KPEV, tk::KP2V, tk::KPPV, tk::KRVS];

/// Key indices of one rule in one track, reported as one finding.
struct KeyList {
    keys: Vec<String>,
    n: usize,
}

impl KeyList {
    fn new() -> Self {
        KeyList {
            keys: Vec::new(),
            n: 0,
        }
    }
    fn push(&mut self, what: impl FnOnce() -> String) {
        self.n += 1;
        if self.keys.len() < 6 {
            self.keys.push(what());
        }
    }
    fn report(self, f: &mut Findings, rule: &'static Rule, at: &At, say: &str) {
        if self.n == 0 {
            return;
        }
        let more = if self.n > self.keys.len() {
            format!(" and {} more", self.n - self.keys.len())
        } else {
            String::new()
        };
        let msg = format!("{}{more}: {say}", self.keys.join(", "));
        f.add(rule, at, msg);
    }
}

/// The sequence (or the global sequence's window) a key time lies in, as mdx-m3-viewer
/// finds it: the first listed whose interval holds it, ends included.
fn window_of(m: &Model, global: Option<u32>, time: i32) -> Option<usize> {
    match global {
        Some(len) => (time >= 0 && time as u32 <= len).then_some(0),
        None => m.sequences.iter().position(|s| {
            time >= 0 && (time as u32) >= s.interval[0] && (time as u32) <= s.interval[1]
        }),
    }
}

/// Every track's keys: order, duplicates, keys outside every sequence, opening keys,
/// redundant keys, interpolation of visibility.
pub(crate) fn tracks(m: &Model, f: &mut Findings) {
    let mut rules = TrackRules {
        m,
        f: &mut *f,
        redundancy: super::fix::Redundancy::new(m),
    };
    visit_tracks(m, &mut rules);
    for (i, e) in m.event_objects.iter().enumerate() {
        let at = At::record("event_objects", i, Some(&e.node.name.text()));
        match &e.track {
            None => f.add(&EMPTY_TRACK, &at, "no event track: the event never fires"),
            Some(t) if t.times.is_empty() => f.add(
                &EMPTY_TRACK,
                &at.sub("track"),
                "the event track has no keys: the event never fires",
            ),
            Some(t) => {
                let v = View {
                    interpolation: Interpolation::None,
                    global_sequence_id: t.global_sequence_id,
                    times: t.times.iter().map(|&t| t as i32).collect(),
                    values: Vec::new(),
                };
                one_track(m, f, &at.sub("track"), crate::spec::sub::KEVT, &v);
            }
        }
    }
}

fn one_track(m: &Model, f: &mut Findings, at: &At, tag: Tag, v: &View) {
    let events = tag == crate::spec::sub::KEVT;
    if v.times.is_empty() {
        f.add(
            &EMPTY_TRACK,
            at,
            "the track has no keys: remove it or key it",
        );
        return;
    }
    if VISIBILITY.contains(&tag) && v.interpolation != Interpolation::None {
        f.add(
            &VISIBILITY_INTERPOLATED,
            at,
            "visibility is interpolated; the game steps it: set DontInterp",
        );
    }
    if tag == tk::KP2R || tag == tk::KP2G {
        let what = if tag == tk::KP2R {
            "variation"
        } else {
            "gravity"
        };
        f.add(&MAGOS_TRACK, at, format!("a {what} track, which Magos does not read from MDX: use a static value if the model is to be edited there"));
    }
    let global = match v.global_sequence_id {
        -1 => None,
        g => match usize::try_from(g)
            .ok()
            .and_then(|g| m.global_sequences.get(g))
        {
            Some(&len) => Some(len),
            None => {
                let msg = format!(
                    "global sequence {g} does not exist (the model has {}): use -1 for none",
                    m.global_sequences.len()
                );
                f.add(&BAD_GLOBAL_SEQUENCE, &at.sub("global_sequence_id"), msg);
                return;
            }
        },
    };
    if global.is_none() && m.sequences.is_empty() {
        f.add(
            &TRACK_WITHOUT_SEQUENCES,
            at,
            "keys, but no sequence plays them",
        );
        return;
    }
    let windows = if global.is_some() {
        1
    } else {
        m.sequences.len()
    };
    let mut in_window: Vec<Vec<usize>> = vec![Vec::new(); windows];
    let (mut negative, mut duplicate, mut unsorted, mut outside) = (
        KeyList::new(),
        KeyList::new(),
        KeyList::new(),
        KeyList::new(),
    );
    let mut last = None;
    for (i, &t) in v.times.iter().enumerate() {
        if t < 0 {
            negative.push(|| format!("key {i} at {t}"));
        }
        if let Some(p) = last {
            if t == p {
                duplicate.push(|| format!("key {i} at {t}"));
            } else if t < p {
                unsorted.push(|| format!("key {i} at {t} after {p}"));
            }
        }
        match window_of(m, global, t) {
            Some(w) => in_window[w].push(i),
            // Frame 0 holds a track's default for many exporters (m3v spares it too).
            None if t != 0 && v.times.len() > 1 => outside.push(|| format!("key {i} at {t}")),
            None => {}
        }
        last = Some(t);
    }
    negative.report(f, &NEGATIVE_KEY, at, "key times start at 0");
    let say = if events {
        "the event fires twice at once: drop one unless that is meant (--fix leaves events alone)"
    } else {
        "each time needs one key: drop the extra (--fix)"
    };
    duplicate.report(f, &DUPLICATE_KEY, at, say);
    unsorted.report(
        f,
        &UNSORTED_KEYS,
        at,
        "keys must rise in time: sort them (--fix)",
    );
    let where_ = if global.is_some() {
        "past its global sequence"
    } else {
        "in no sequence"
    };
    outside.report(
        f,
        &KEY_OUTSIDE,
        at,
        &format!("{where_}: nothing plays these keys"),
    );
    if events {
        return;
    }
    let mut opening = KeyList::new();
    for (w, idx) in in_window.iter().enumerate() {
        if idx.len() < 2 {
            continue;
        }
        let start = match global {
            Some(_) => 0,
            None => m.sequences[w].interval[0] as i32,
        };
        let (first, last) = (idx[0], idx[idx.len() - 1]);
        if v.interpolation != Interpolation::None
            && v.times[first] != start
            && v.values[first] != v.values[last]
        {
            opening.push(|| match global {
                Some(_) => "the global sequence at 0".to_string(),
                None => format!("sequence {w} \"{}\" at {start}", m.sequences[w].name.text()),
            });
        }
    }
    opening.report(
        f,
        &MISSING_OPENING_KEY,
        at,
        "no key at the start where the first and last values differ: the value warps in from elsewhere; key the start",
    );
}
