//! Sequences copied from another model onto this one, bone by bone.
//!
//! - **Which bones.** Bones, helpers and attachments pair by name: without regard to case,
//!   spaces, `_`, `-` and `.`, with `Left`/`Right` and `L`/`R` taken as one
//!   (`Bip01 L Hand` is `bip01_left_hand`), and by the pairs given (`TARGET=SOURCE`), which
//!   come first. Target bones that pair with nothing, and names given that match nothing,
//!   are said.
//! - **What is copied.** For each sequence taken, each paired target bone gets the source
//!   bone's translation, rotation and scaling keys of that sequence, moved to the new
//!   sequence's place after the target's last sequence (or key). Keys are copied as they
//!   are, so each bone turns about its own pivot and moves by the source's offsets: where
//!   the two skeletons' pivots differ, the bone turns as the source's does, in place (a
//!   longer arm swings the same angles, not to the same points). Where the two tracks'
//!   interpolations differ, both are written in the one that draws more (see
//!   [`super::lift`]). A source track on a global sequence is copied whole, the global
//!   sequence with it, to a target bone that has no track of that kind.
//! - **Everything else holds.** Every other track of the target (unpaired bones, geoset
//!   and layer visibility, emitters, lights) holds, in each new sequence, the value it has
//!   at the start of the target's Stand (or first sequence): the target's own geosets show
//!   as they stand, and nothing the source does not drive moves.
//! - **Geoset visibility** from the source instead, when asked: see [`super::visibility`].
//! - **Append or replace.** The new sequences are added after the target's; replacing, the
//!   target's sequences of the same names (any case) go first.

use super::lift::{common, lift, Lift};
use super::timeline::{relayout, Piece};
use super::{EachTrack, OnTrack, Report};
use crate::anim::sample::{sample_keys, sorted_keys, Clock, TrackValue};
use crate::model::visit::{visit_tracks, visit_tracks_mut, Owner, TrackVisitor};
use crate::model::{AnyTrack, Interpolation, Model, Node, Track, Tracks};
use std::collections::HashMap;

/// Sequences taken from another model (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Transfer {
    /// The model the sequences come from.
    pub source: Model,
    /// The sequences to take, by name or index; empty: all of them.
    pub sequences: Vec<String>,
    /// Remove the target's sequences of the same names first.
    pub replace: bool,
    /// Bones that pair although their names differ: `(target, source)`.
    pub pairs: Vec<(String, String)>,
    /// The target's geosets show as the source's: each pairs with the source geoset that
    /// follows most of the same (paired) bones and takes its alpha keys of each sequence;
    /// otherwise they hold their Stand visibility.
    pub visibility: bool,
}

/// A bone name as names are compared: lower case, no separators, sides as `l`/`r`.
pub(crate) fn name_key(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        let split = !c.is_alphanumeric() || (prev_lower && c.is_uppercase());
        if split && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        }
        prev_lower = c.is_lowercase();
    }
    words.push(word);
    (words.iter())
        .map(|w| match w.as_str() {
            "left" => "l",
            "right" => "r",
            w => w,
        })
        .collect()
}

/// Which of `m`'s nodes (in [`Model::nodes_mut`] order) are bones, helpers or attachments.
fn skeletal(m: &Model) -> Vec<bool> {
    let mut v = vec![true; m.bones.len()];
    v.extend(std::iter::repeat_n(false, m.lights.len()));
    v.extend(std::iter::repeat_n(true, m.helpers.len()));
    v.extend(std::iter::repeat_n(true, m.attachments.len()));
    v.resize(m.node_count(), false);
    v
}

/// For each target node (in [`Model::nodes_mut`] order), the source node it pairs with.
fn pair_nodes(
    target: &Model,
    source: &[&Node],
    t: &Transfer,
    report: &mut Report,
) -> Vec<Option<usize>> {
    let targets: Vec<String> = target.nodes().map(|n| n.name.text().into_owned()).collect();
    // Only the source's bones, helpers and attachments drive bones (not a light or an
    // emitter that happens to share a name).
    let source_skeletal = skeletal(&t.source);
    let mut by_key: HashMap<String, usize> = HashMap::new();
    for (i, n) in source.iter().enumerate().rev() {
        if source_skeletal[i] {
            by_key.insert(name_key(&n.name.text()), i);
        }
    }
    let exact =
        |names: &[String], want: &str| names.iter().position(|n| n.eq_ignore_ascii_case(want));
    let source_names: Vec<String> = source.iter().map(|n| n.name.text().into_owned()).collect();
    let skeletal = skeletal(target);
    let mut out: Vec<Option<usize>> = (targets.iter().zip(&skeletal))
        .map(|(n, &s)| {
            if s {
                by_key.get(&name_key(n)).copied()
            } else {
                None
            }
        })
        .collect();
    for (a, b) in &t.pairs {
        match (exact(&targets, a), exact(&source_names, b)) {
            (Some(i), Some(j)) => out[i] = Some(j),
            (None, _) => report
                .refused
                .push(format!("--bone {a}={b}: the target has no node {a:?}")),
            (_, None) => report
                .refused
                .push(format!("--bone {a}={b}: the source has no node {b:?}")),
        }
    }
    let unpaired: Vec<&str> = (targets.iter().zip(&out).zip(&skeletal))
        .filter(|((_, p), &s)| s && p.is_none())
        .map(|((n, _), _)| n.as_str())
        .collect();
    let paired = out.iter().filter(|p| p.is_some()).count();
    report.changed.push(format!(
        "{paired} of {} target bones, helpers and attachments paired with the source's",
        skeletal.iter().filter(|&&s| s).count()
    ));
    if !unpaired.is_empty() {
        report.changed.push(format!(
            "unpaired (they hold their Stand pose): {}",
            unpaired.join(", ")
        ));
    }
    out
}

/// Where the new sequences start: after every sequence and every key of the target.
pub(super) fn free_time(m: &Model) -> i64 {
    struct Last(i64);
    impl<'m> TrackVisitor<'m> for Last {
        fn tracks(&mut self, _: Owner, _: &dyn Fn() -> String, tracks: &'m Tracks) {
            for a in tracks.iter() {
                let last = match &a.track {
                    AnyTrack::Float(t) => last(t),
                    AnyTrack::Vector3(t) => last(t),
                    AnyTrack::Quaternion(t) => last(t),
                    AnyTrack::Integer(t) => last(t),
                };
                self.0 = self.0.max(last);
            }
        }
        fn slot(&mut self, _: Owner, _: &dyn Fn() -> String, t: &'m Track<u32>) {
            self.0 = self.0.max(last(t));
        }
    }
    fn last<T>(t: &Track<T>) -> i64 {
        if t.global_sequence_id >= 0 {
            return 0;
        }
        t.keys.iter().map(|k| i64::from(k.time)).max().unwrap_or(0)
    }
    let mut l = Last(0);
    visit_tracks(m, &mut l);
    // (An interval that runs backwards reads nothing and takes no room.)
    let ends = (m.sequences.iter())
        .filter(|s| s.interval[1] >= s.interval[0])
        .map(|s| i64::from(s.interval[1]));
    let end = ends.fold(l.0, i64::max);
    (end / 100 + 1) * 100
}

/// Where each taken sequence goes: its source interval and its new start.
struct Placed {
    from: [i64; 2],
    start: i64,
}

/// Adds `keys` (already in their new places) to `t`, in an interpolation both share.
/// Returns whether stepped keys had to be held by extra keys (see [`super::lift`]).
pub(super) fn append<T: Lift + PartialEq>(
    t: &mut Track<T>,
    mut keys: Track<T>,
    rotation: bool,
    integer: bool,
) -> bool {
    if t.keys.is_empty() {
        t.interpolation = keys.interpolation;
    }
    let mut stepped = false;
    if !integer {
        let to = common(t.interpolation, keys.interpolation);
        let steps = |i: Interpolation| matches!(i, Interpolation::None | Interpolation::Other(_));
        stepped = !steps(to) && (steps(t.interpolation) || steps(keys.interpolation));
        lift(t, to, rotation);
        lift(&mut keys, to, rotation);
    }
    t.keys.extend(keys.keys);
    stepped
}

/// The source track's keys of each taken sequence, moved to their places.
fn moved<T: Copy>(src: &Track<T>, placed: &[Placed]) -> Track<T> {
    let sorted = sorted_keys(src);
    let mut keys = Vec::new();
    for p in placed {
        for k in sorted
            .iter()
            .filter(|k| (p.from[0]..=p.from[1]).contains(&i64::from(k.time)))
        {
            let mut k = *k;
            k.time = (i64::from(k.time) - p.from[0] + p.start) as i32;
            keys.push(k);
        }
    }
    Track {
        interpolation: src.interpolation,
        global_sequence_id: -1,
        keys,
    }
}

/// Copies the source node's transform tracks onto the target node.
fn copy_node(
    dst: &mut Node,
    src: &Node,
    placed: &[Placed],
    globals: &mut Globals,
    report: &mut Report,
) {
    for a in src.tracks.iter() {
        let have = dst.tracks.0.iter().position(|b| b.tag == a.tag);
        let global = usize::try_from(gid(&a.track)).ok();
        let target_global = have.is_some_and(|i| gid(&dst.tracks.0[i].track) >= 0);
        match (global, have) {
            (Some(g), None) => {
                let mut track = a.clone();
                set_global(&mut track.track, globals.id(g));
                dst.tracks.0.push(track);
                continue;
            }
            (Some(_), Some(_)) | (None, Some(_)) if global.is_some() || target_global => {
                report.changed.push(format!(
                    "{}: {} runs on a global sequence in one of the two models: kept the target's (a global sequence plays through every sequence)",
                    dst.name, a.tag
                ));
                continue;
            }
            _ => {}
        }
        let i = have.unwrap_or_else(|| {
            dst.tracks.0.push(crate::model::Animation {
                tag: a.tag,
                track: empty_like(&a.track),
            });
            dst.tracks.0.len() - 1
        });
        let target = &mut dst.tracks.0[i].track;
        let stepped = match (target, &a.track) {
            (AnyTrack::Vector3(d), AnyTrack::Vector3(s)) => {
                append(d, moved(s, placed), false, false)
            }
            (AnyTrack::Quaternion(d), AnyTrack::Quaternion(s)) => {
                append(d, moved(s, placed), true, false)
            }
            (AnyTrack::Float(d), AnyTrack::Float(s)) => append(d, moved(s, placed), false, false),
            (AnyTrack::Integer(d), AnyTrack::Integer(s)) => {
                append(d, moved(s, placed), false, true)
            }
            _ => {
                report.changed.push(format!(
                    "{}: {} holds other values in the two models: not copied",
                    dst.name, a.tag
                ));
                false
            }
        };
        if stepped {
            report.changed.push(format!(
                "{}: {} steps in one model and not the other: each stepped key held by another 1 ms before the next",
                dst.name, a.tag
            ));
        }
    }
}

fn empty_like(t: &AnyTrack) -> AnyTrack {
    fn e<T>(t: &Track<T>) -> Track<T> {
        Track {
            interpolation: t.interpolation,
            global_sequence_id: -1,
            keys: Vec::new(),
        }
    }
    match t {
        AnyTrack::Float(t) => AnyTrack::Float(e(t)),
        AnyTrack::Vector3(t) => AnyTrack::Vector3(e(t)),
        AnyTrack::Quaternion(t) => AnyTrack::Quaternion(e(t)),
        AnyTrack::Integer(t) => AnyTrack::Integer(e(t)),
    }
}

fn gid(t: &AnyTrack) -> i32 {
    match t {
        AnyTrack::Float(t) => t.global_sequence_id,
        AnyTrack::Vector3(t) => t.global_sequence_id,
        AnyTrack::Quaternion(t) => t.global_sequence_id,
        AnyTrack::Integer(t) => t.global_sequence_id,
    }
}

fn set_global(t: &mut AnyTrack, id: i32) {
    match t {
        AnyTrack::Float(t) => t.global_sequence_id = id,
        AnyTrack::Vector3(t) => t.global_sequence_id = id,
        AnyTrack::Quaternion(t) => t.global_sequence_id = id,
        AnyTrack::Integer(t) => t.global_sequence_id = id,
    }
}

/// The source's global sequences as the target numbers them, added on first use.
struct Globals<'a> {
    source: &'a [u32],
    target: Vec<u32>,
    map: HashMap<usize, i32>,
}

impl Globals<'_> {
    fn id(&mut self, g: usize) -> i32 {
        let Some(&len) = self.source.get(g) else {
            return g as i32;
        };
        *self.map.entry(g).or_insert_with(|| {
            self.target.push(len);
            self.target.len() as i32 - 1
        })
    }
}

/// Every other track holds its value at the start of the reference sequence.
struct Hold<'a> {
    clock: Option<Clock<'a>>,
    starts: Vec<i64>,
}

impl OnTrack for Hold<'_> {
    fn on<T: TrackValue + PartialEq>(&mut self, t: &mut Track<T>) {
        let Some(clock) = &self.clock else { return };
        if t.global_sequence_id >= 0 {
            return;
        }
        let Some(w) = clock.window(-1) else { return };
        if let Some(v) = sample_keys(&sorted_keys(t), t.interpolation, w) {
            let mut keys: Vec<_> = self
                .starts
                .iter()
                .map(|&s| crate::model::Key::at(s as i32, v))
                .collect();
            t.keys.append(&mut keys);
        }
    }
}

/// Every track that follows the sequences gets, at each of `starts` (after all its keys), a
/// key holding its value at the start of the model's Stand (or first sequence).
pub(super) fn hold(model: &mut Model, starts: &[i64]) {
    let frozen = model.clone();
    let hold = Hold {
        clock: reference(&frozen).map(|r| Clock::unwrapped(&frozen, r, 0.0)),
        starts: starts.to_vec(),
    };
    visit_tracks_mut(model, &mut EachTrack(hold));
}

/// The target's sequence whose start everything else holds: its Stand, else its first.
fn reference(m: &Model) -> Option<usize> {
    (m.sequences.iter())
        .position(|s| s.name.text().to_ascii_lowercase().starts_with("stand"))
        .or((!m.sequences.is_empty()).then_some(0))
}

/// Copies sequences from `t.source` onto `model` (see the module docs).
pub fn transfer(model: &mut Model, t: &Transfer) -> Report {
    let mut report = Report::default();
    let taken: Vec<usize> = if t.sequences.is_empty() {
        (0..t.source.sequences.len()).collect()
    } else {
        let found: Result<Vec<usize>, _> = t
            .sequences
            .iter()
            .map(|s| t.source.find_sequence(s))
            .collect();
        match found {
            Ok(v) => v,
            Err(e) => {
                report.refused.push(format!("the source: {e}"));
                return report;
            }
        }
    };
    let taken: Vec<usize> = taken
        .into_iter()
        .filter(|&i| {
            let [a, b] = t.source.sequences[i].interval;
            b >= a
        })
        .collect();
    let source_nodes: Vec<&Node> = t.source.nodes().collect();
    let pairs = pair_nodes(model, &source_nodes, t, &mut report);
    if !report.refused.is_empty() {
        return report;
    }
    if t.replace {
        let names: Vec<String> = taken
            .iter()
            .map(|&i| t.source.sequences[i].name.text().to_ascii_lowercase())
            .collect();
        let keep: Vec<Piece> = (0..model.sequences.len())
            .filter(|&i| !names.contains(&model.sequences[i].name.text().to_ascii_lowercase()))
            .map(Piece::same)
            .collect();
        let gone = model.sequences.len() - keep.len();
        if gone > 0 {
            if let Err(why) = relayout(model, &keep) {
                report.refused.push(why);
                return report;
            }
            report
                .changed
                .push(format!("{gone} sequence(s) of the same names replaced"));
        }
    }
    let mut start = free_time(model);
    let placed: Vec<Placed> = taken
        .iter()
        .map(|&i| {
            let [a, b] = t.source.sequences[i].interval.map(i64::from);
            let p = Placed {
                from: [a, b],
                start,
            };
            start = ((start + b - a) / 100 + 1) * 100;
            p
        })
        .collect();
    if start > i64::from(i32::MAX) {
        report
            .refused
            .push("the sequences would run past 2^31 ms".into());
        return report;
    }
    // Everything but the paired bones holds its Stand opening in the new sequences.
    let mut kept: Vec<Tracks> = Vec::new();
    for (n, p) in model.nodes_mut().into_iter().zip(&pairs) {
        kept.push(if p.is_some() {
            std::mem::take(&mut n.tracks)
        } else {
            Tracks::default()
        });
    }
    hold(model, &placed.iter().map(|p| p.start).collect::<Vec<_>>());
    let mut globals = Globals {
        source: &t.source.global_sequences,
        target: std::mem::take(&mut model.global_sequences),
        map: HashMap::new(),
    };
    for ((n, p), tracks) in model.nodes_mut().into_iter().zip(&pairs).zip(kept) {
        if let Some(j) = p {
            n.tracks = tracks;
            copy_node(n, source_nodes[*j], &placed, &mut globals, &mut report);
        }
    }
    model.global_sequences = globals.target;
    if t.visibility {
        let at: Vec<([i64; 2], i64)> = placed.iter().map(|p| (p.from, p.start)).collect();
        super::visibility::take_visibility(model, &t.source, &pairs, &at, &mut report);
    }
    let old = model.sequences.len();
    for (&i, p) in taken.iter().zip(&placed) {
        let mut s = t.source.sequences[i].clone();
        s.interval = [p.start as u32, (p.start + p.from[1] - p.from[0]) as u32];
        s.extent = model.info.extent;
        report.changed.push(format!(
            "sequence {:?} transferred at {:?}",
            s.name.text(),
            s.interval
        ));
        model.sequences.push(s);
    }
    for g in &mut model.geosets {
        if g.sequence_extents.len() == old {
            g.sequence_extents
                .extend(std::iter::repeat_n(g.extent, taken.len()));
        }
    }
    report
}
