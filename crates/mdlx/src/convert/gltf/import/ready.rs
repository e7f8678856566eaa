//! The import's scale, and the pass that makes it ready for the game.

use super::*;
use crate::convert::{ready, scale};

/// Game units per glTF metre, the default scale.
///
/// The game's units are not metres: its people are drawn larger than life (heads, hands
/// and weapons big enough to read from the game's high camera). Measured on the shared
/// corpus, posed at the start of their `Stand` (`mdlx convert X.mdl x.obj --sequence Stand
/// --time 0`, the height of the OBJ): the orc peon (`units/Orc/Peon/peon1.mdl` of
/// Bergi-bear's OrcWinter) stands 95.8 units tall, the rifleman of TheScourgeSlayer
/// 122.8; issue 25 reports a peon at 97, a hero at 117 and an archer at 135. An adult is
/// 1.6 to 1.8 m tall; 70 units a metre makes one 112 to 126 units tall, among the game's
/// own people, and the 1.46 m CesiumMan sample 102 units. See the import's notes for the scale used and the height it gives; use
/// `--height` to fit a model whose size says nothing (an animal, a building, a prop
/// authored at another scale).
pub const UNITS_PER_METRE: f32 = 70.0;

/// A height a unit of the game has at most, above which the default scale is likely
/// wrong (a model authored in centimetres, say): the note then says to give `--height`.
const TALL: f32 = 1000.0;

impl Importer<'_> {
    /// Whether the file is one this crate exported (its root node says so).
    fn ours(&self) -> bool {
        (0..self.doc.nodes.len()).any(|i| self.kind_of(i) == Some("root"))
    }

    /// Scales the model as the options ask: returns the scale, the height of the first pose
    /// in game units, and the note saying so.
    pub(super) fn fit(&mut self, model: &mut Model) -> (f32, f32, Vec<Loss>) {
        let raw = scale::first_pose_height(model);
        let ours = self.ours();
        let mut notes = Vec::new();
        let (factor, why) = match self.opts.scale {
            ImportScale::Metres if ours => (1.0, "a file mdlx exported, in game units".to_string()),
            ImportScale::Metres => (
                UNITS_PER_METRE,
                format!("{UNITS_PER_METRE} game units a metre (the default; --scale or --height to change it)"),
            ),
            ImportScale::Factor(f) => (f, "as --scale asks".to_string()),
            ImportScale::Height(h) => match raw {
                Some(r) if r > 0.0 && (h / r).is_finite() && h / r > 0.0 => {
                    (h / r, format!("to stand {h} units tall, as --height asks"))
                }
                _ => (
                    UNITS_PER_METRE,
                    format!("{UNITS_PER_METRE} game units a metre: the model has no height to fit to {h} units"),
                ),
            },
        };
        scale::scale_model(model, factor);
        self.size *= factor;
        let height = raw.map_or(0.0, |r| r * factor);
        let mut what = format!("scaled by {factor} ({why}): {height:.1} units tall");
        if self.opts.scale == ImportScale::Metres && !ours && height > TALL {
            what.push_str(", taller than any unit of the game: if the file is not in metres, give --height (a hero is about 120 units tall)");
        }
        notes.push(Loss::new("scale", what));
        (factor, height, notes)
    }

    /// The game-ready pass ([`ready::finish`]), or only the renames for a file this crate
    /// exported.
    pub(super) fn finish(&self, model: &mut Model) -> Vec<Loss> {
        if !self.opts.game_ready {
            return Vec::new();
        }
        let opts = ready::ReadyOptions {
            renames: self.opts.renames.clone(),
            chosen: false,
        };
        if self.ours() {
            return ready::rename_only(model, &opts.renames);
        }
        ready::finish(model, &opts)
    }
}
