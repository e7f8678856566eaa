//! Sequences renamed, deleted, duplicated, moved in the list, reversed, stretched in time,
//! set looping or not, given a rarity or a move speed. A sequence is named as
//! [`Model::find_sequence`] finds it (its name in any case, else its index). Edits that
//! move keys lay the time line out anew ([`super::timeline`]): the other sequences keep
//! their places where they can.

use super::timeline::{relayout, Piece};
use super::Report;
use crate::model::{Model, SEQUENCE_NON_LOOPING};
use crate::spec::len;

/// One edit of a model's sequences.
#[derive(Clone, Debug, PartialEq)]
pub enum SequenceEdit {
    /// Give a sequence another name.
    Rename {
        /// The sequence.
        which: String,
        /// Its new name.
        to: String,
    },
    /// Remove a sequence and the keys only it read.
    Delete(String),
    /// Add a copy of a sequence, under a new name, after the last one.
    Duplicate {
        /// The sequence.
        which: String,
        /// The copy's name.
        name: String,
    },
    /// Move a sequence to this place in the list (0 first); later ones move down.
    Move {
        /// The sequence.
        which: String,
        /// Its new index.
        to: usize,
    },
    /// Play a sequence backwards.
    Reverse(String),
    /// Make a sequence `factor` times as long, its keys with it (2: half as fast).
    Stretch {
        /// The sequence.
        which: String,
        /// The factor (above 0).
        factor: f64,
    },
    /// Make a sequence loop, or play once and hold its last frame.
    Looping {
        /// The sequence.
        which: String,
        /// Loop or not.
        looping: bool,
    },
    /// How rarely the game picks this variant of its animation (0: as often as the rest).
    Rarity {
        /// The sequence.
        which: String,
        /// The rarity.
        rarity: f32,
    },
    /// Make every emitter (particles, ribbons, popcorn) invisible on the sequence's last
    /// frame, which a sequence that plays once holds, every earlier moment as it was: a
    /// stepped visibility gets a 0 key there, an interpolated one also a key 1 ms before
    /// holding its value, an emitter without a visibility track one keyed only in this
    /// sequence. Refused where another sequence shares that frame.
    StopEmitters(String),
    /// The speed, in units per second, at which the animation looks right moving.
    MoveSpeed {
        /// The sequence.
        which: String,
        /// The speed.
        speed: f32,
    },
}

impl SequenceEdit {
    fn which(&self) -> &str {
        match self {
            SequenceEdit::Delete(w) | SequenceEdit::Reverse(w) | SequenceEdit::StopEmitters(w) => w,
            SequenceEdit::Rename { which, .. }
            | SequenceEdit::Duplicate { which, .. }
            | SequenceEdit::Move { which, .. }
            | SequenceEdit::Stretch { which, .. }
            | SequenceEdit::Looping { which, .. }
            | SequenceEdit::Rarity { which, .. }
            | SequenceEdit::MoveSpeed { which, .. } => which,
        }
    }
}

fn name_fits(name: &str, report: &mut Report) -> bool {
    let fits = !name.is_empty() && name.len() < len::NAME;
    if !fits {
        report.refused.push(format!(
            "sequence name {name:?}: a name is 1 to {} bytes",
            len::NAME - 1
        ));
    }
    fits
}

/// Lays the time line out as `pieces` say, into `report`.
fn lay_out(model: &mut Model, pieces: &[Piece], report: &mut Report) -> bool {
    match relayout(model, pieces) {
        Ok(0) => true,
        Ok(n) => {
            report
                .changed
                .push(format!("{n} key(s) that no sequence read left out"));
            true
        }
        Err(why) => {
            report.refused.push(why);
            false
        }
    }
}

/// Applies `edit` to `model`'s sequences (see the module docs).
pub fn sequences(model: &mut Model, edit: &SequenceEdit) -> Report {
    let mut report = Report::default();
    let i = match model.find_sequence(edit.which()) {
        Ok(i) => i,
        Err(e) => {
            report.refused.push(e.to_string());
            return report;
        }
    };
    let old = model.sequences[i].name.text().into_owned();
    let [start, end] = model.sequences[i].interval;
    let moves_keys = matches!(
        edit,
        SequenceEdit::Duplicate { .. } | SequenceEdit::Reverse(_) | SequenceEdit::Stretch { .. }
    );
    if moves_keys && end < start {
        report.refused.push(format!(
            "sequence {old:?}: its interval runs backwards ({start} to {end}): it plays nothing to move"
        ));
        return report;
    }
    let all = || (0..model.sequences.len()).map(Piece::same);
    match edit {
        SequenceEdit::Rename { to, .. } => {
            if name_fits(to, &mut report) && old != *to {
                model.sequences[i].name.set(to);
                report
                    .changed
                    .push(format!("sequence {old:?} renamed {to:?}"));
            }
        }
        SequenceEdit::Delete(_) => {
            let pieces: Vec<Piece> = all().filter(|p| p.source != i).collect();
            if lay_out(model, &pieces, &mut report) {
                report
                    .changed
                    .insert(0, format!("sequence {old:?} deleted"));
            }
        }
        SequenceEdit::Duplicate { name, .. } => {
            let pieces: Vec<Piece> = all().chain([Piece::same(i)]).collect();
            if name_fits(name, &mut report) && lay_out(model, &pieces, &mut report) {
                let copy = model.sequences.last_mut().expect("just added");
                copy.name.set(name);
                let at = copy.interval;
                report
                    .changed
                    .insert(0, format!("sequence {old:?} copied as {name:?} at {at:?}"));
            }
        }
        SequenceEdit::Move { to, .. } => {
            // Classic models want their sequences in time order: the moved one's keys move
            // with it when it would start before the one now above it ends.
            let to = (*to).min(model.sequences.len() - 1);
            let mut pieces: Vec<Piece> = all().filter(|p| p.source != i).collect();
            pieces.insert(to, Piece::same(i));
            if to != i && lay_out(model, &pieces, &mut report) {
                report
                    .changed
                    .insert(0, format!("sequence {old:?} moved to {to}"));
            }
        }
        SequenceEdit::Reverse(_) | SequenceEdit::Stretch { .. } => {
            let (reverse, stretch) = match edit {
                SequenceEdit::Stretch { factor, .. } => (false, *factor),
                _ => (true, 1.0),
            };
            if !(stretch.is_finite() && stretch > 0.0) {
                report.refused.push(format!(
                    "sequence {old:?}: a time factor is above 0, not {stretch}"
                ));
                return report;
            }
            let pieces: Vec<Piece> = all()
                .map(|p| {
                    if p.source == i {
                        Piece {
                            source: i,
                            reverse,
                            stretch,
                        }
                    } else {
                        p
                    }
                })
                .collect();
            if lay_out(model, &pieces, &mut report) {
                let at = model.sequences[i].interval;
                report.changed.insert(
                    0,
                    if reverse {
                        format!("sequence {old:?} reversed")
                    } else {
                        format!("sequence {old:?} stretched by {stretch} to {at:?}")
                    },
                );
            }
        }
        SequenceEdit::Looping { looping, .. } => {
            let s = &mut model.sequences[i];
            if s.is_looping() != *looping {
                s.flags ^= SEQUENCE_NON_LOOPING;
                let how = if *looping { "loops" } else { "plays once" };
                report.changed.push(format!("sequence {old:?} {how}"));
            }
        }
        SequenceEdit::Rarity { rarity, .. } => {
            if model.sequences[i].rarity != *rarity {
                model.sequences[i].rarity = *rarity;
                report
                    .changed
                    .push(format!("sequence {old:?} rarity {rarity}"));
            }
        }
        SequenceEdit::MoveSpeed { speed, .. } => {
            if model.sequences[i].move_speed != *speed {
                model.sequences[i].move_speed = *speed;
                report
                    .changed
                    .push(format!("sequence {old:?} move speed {speed}"));
            }
        }
        SequenceEdit::StopEmitters(_) => super::emitters::stop_emitters(model, i, &mut report),
    }
    report
}
