//! A portrait model (`X_Portrait.mdx`, what the game shows in the unit's portrait box)
//! made from a unit model, as the game's own portraits are made.
//!
//! What the corpus's 14 portrait models hold (their seven Reforged ones are the game's own
//! templates, retextured): only `Portrait` and `Portrait Talk` sequences (older ones
//! `Portrait - 1`), looping; no walk, attack or death; the unit's mesh and skeleton; and one
//! camera, first in the file, on the face: nearly from the front, a little below the eyes,
//! 39.6 degrees of view. So a portrait made here:
//! - keeps the unit's own `Portrait...` sequences when it has them; otherwise `Portrait`
//!   plays the unit's Stand and `Portrait Talk` its Stand Talk (its Stand again without
//!   one), both looping; every other sequence and the keys only they read are dropped;
//! - keeps the mesh, the nodes and the materials as they are;
//! - has one camera, `Portrait_Camera` ([`portrait_camera`]), on the head as it stands at
//!   the opening of `Portrait`; the unit's own cameras are dropped.

use super::timeline::{relayout, Piece};
use super::Report;
use crate::model::{Model, SEQUENCE_NON_LOOPING};
use crate::render::icon::{place_portrait_camera, PortraitView};

/// Turns `model` into its portrait (see the module docs), with the camera looking as
/// `view` says. On a refusal the model is left as it was.
pub fn portrait(model: &mut Model, view: &PortraitView) -> Report {
    let mut report = Report::default();
    let mut m = model.clone();
    let names: Vec<String> = m
        .sequences
        .iter()
        .map(|s| s.name.text().trim().to_ascii_lowercase())
        .collect();
    let pieces = choose(&names);
    if !m.sequences.is_empty() {
        let layout: Vec<Piece> = pieces.iter().map(|&(i, _)| Piece::same(i)).collect();
        match relayout(&mut m, &layout) {
            Ok(0) => {}
            Ok(n) => report.changed.push(format!(
                "{n} key(s) that only the dropped sequences read left out"
            )),
            Err(why) => {
                report.refused.push(format!("portrait: {why}"));
                return report;
            }
        }
    }
    let mut said = Vec::new();
    for (s, &(i, name)) in m.sequences.iter_mut().zip(&pieces) {
        let old = model.sequences[i].name.text().into_owned();
        match name {
            Some(name) => {
                s.name.set(name);
                s.flags &= !SEQUENCE_NON_LOOPING;
                s.move_speed = 0.0;
                said.push(format!("{name} plays {old:?}"));
            }
            None => said.push(format!("{old:?} kept")),
        }
    }
    let sources: std::collections::BTreeSet<usize> = pieces.iter().map(|p| p.0).collect();
    if !pieces.is_empty() {
        report.changed.push(format!(
            "sequences: {}; {} other(s) dropped",
            said.join(", "),
            names.len() - sources.len()
        ));
    }
    match place_portrait_camera(&mut m, view) {
        Ok(line) => report.changed.push(line),
        Err(why) => {
            report.refused.push(why);
            return report;
        }
    }
    *model = m;
    report
}

/// The sequences of the portrait, by the old ones' (lower-case) names: each old index,
/// and the new name when it is not its own. The unit's own `Portrait...` sequences are
/// kept; a missing Portrait plays the first Stand, a missing Portrait Talk the first
/// Stand Talk (else what Portrait plays); a model without Stand plays its first sequence.
fn choose(names: &[String]) -> Vec<(usize, Option<&'static str>)> {
    let find = |portrait: bool, talk: bool| {
        (0..names.len())
            .filter(|&i| {
                let first = if portrait { "portrait" } else { "stand" };
                names[i].starts_with(first) && names[i].contains("talk") == talk
            })
            .collect::<Vec<usize>>()
    };
    if names.is_empty() {
        return Vec::new();
    }
    let stand = find(false, false).first().copied();
    let stand_talk = find(false, true).first().copied();
    let mut out: Vec<(usize, Option<&'static str>)> =
        find(true, false).into_iter().map(|i| (i, None)).collect();
    let idle = match out.first() {
        Some(&(i, _)) => i,
        None => {
            let i = stand.or(stand_talk).unwrap_or(0);
            out.push((i, Some("Portrait")));
            i
        }
    };
    let talk = find(true, true);
    if talk.is_empty() {
        out.push((stand_talk.unwrap_or(idle), Some("Portrait Talk")));
    } else {
        out.extend(talk.into_iter().map(|i| (i, None)));
    }
    out
}
