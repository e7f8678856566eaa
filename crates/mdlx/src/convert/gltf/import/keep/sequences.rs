//! The glTF's animations (the fresh model's sequences, one per animation) matched to the
//! embedded model's sequences.

use super::{same_name, Changes};
use crate::model::{Model, Sequence, SEQUENCE_NON_LOOPING};

/// Two animations of these lengths (ms) may be one sequence renamed: Blender ends an
/// animation on its last whole frame (42 ms apart at its default 24 frames a second).
const LENGTH_SLACK: u32 = 50;

/// The result's sequences and where each comes from.
pub(super) struct Seqs {
    /// The result's sequences, in order: the embedded model's that remain, then new ones.
    pub(super) list: Vec<Sequence>,
    /// Per result sequence: the embedded model's sequence it is (`None`: new).
    pub(super) kept: Vec<Option<usize>>,
    /// Per result sequence: the fresh model's sequence (the glTF's animation) that plays it.
    pub(super) fresh: Vec<Option<usize>>,
    /// Whether the list differs from the embedded model's.
    pub(super) changed: bool,
}

impl Seqs {
    /// For result sequence `r`: its interval in the embedded model (if it has it), in the
    /// fresh model (if the glTF plays it), and in the result.
    pub(super) fn windows(
        &self,
        kept: &Model,
        fresh: &Model,
        r: usize,
    ) -> (Option<[u32; 2]>, Option<[u32; 2]>, [u32; 2]) {
        (
            self.kept[r].map(|j| kept.sequences[j].interval),
            self.fresh[r].map(|i| fresh.sequences[i].interval),
            self.list[r].interval,
        )
    }

    /// Sets the result's sequences, with the geosets' per-sequence extents following them
    /// (a new sequence gets the geoset's own extent).
    pub(super) fn apply(&self, out: &mut Model) {
        if !self.changed {
            return;
        }
        let n = out.sequences.len();
        for g in &mut out.geosets {
            if g.sequence_extents.len() != n {
                continue;
            }
            g.sequence_extents = self
                .kept
                .iter()
                .map(|k| k.map_or(g.extent, |j| g.sequence_extents[j]))
                .collect();
        }
        out.sequences = self.list.clone();
    }
}

/// The number Blender puts after a repeated name (`Stand.001` is 1; no number is 0).
fn suffix(name: &str) -> u32 {
    match name.rsplit_once('.') {
        Some((_, n)) if n.len() == 3 && n.bytes().all(|c| c.is_ascii_digit()) => {
            n.parse().unwrap_or(0)
        }
        _ => 0,
    }
}

fn length(s: &Sequence) -> u32 {
    s.interval[1].saturating_sub(s.interval[0])
}

/// Matches the fresh model's sequences (the glTF's animations, which Blender sorts by name)
/// to the embedded model's: see the module documentation of [`super`].
pub(super) fn matched(
    kept: &Model,
    fresh: &Model,
    doc: &gltf_json::Root,
    changes: &mut Changes,
) -> Seqs {
    // A model with no animation at all gets one `Stand` in the fresh import: not an
    // animation of the glTF.
    let nf = if doc.animations.is_empty() {
        0
    } else {
        fresh.sequences.len()
    };
    let mut taken = vec![false; nf];
    let mut of_kept: Vec<Option<usize>> = vec![None; kept.sequences.len()];
    for (j, s) in kept.sequences.iter().enumerate() {
        let name = s.name.to_string();
        let mut cands: Vec<usize> = (0..nf)
            .filter(|&i| !taken[i] && same_name(&name, &fresh.sequences[i].name.to_string()))
            .collect();
        cands.sort_by_key(|&i| suffix(&fresh.sequences[i].name.to_string()));
        if let Some(&i) = cands.first() {
            taken[i] = true;
            of_kept[j] = Some(i);
        }
    }
    // Renamed: an animation no sequence names, of the length of a sequence that lost its
    // animation (the closest such).
    for (j, slot) in of_kept.iter_mut().enumerate() {
        if slot.is_some() {
            continue;
        }
        let len = length(&kept.sequences[j]);
        let best = (0..nf)
            .filter(|&i| !taken[i])
            .map(|i| (length(&fresh.sequences[i]).abs_diff(len), i))
            .filter(|&(d, _)| d <= LENGTH_SLACK)
            .min();
        if let Some((_, i)) = best {
            taken[i] = true;
            *slot = Some(i);
            changes.add(format!(
                "sequence {j} {:?} renamed {:?}",
                kept.sequences[j].name.to_string(),
                fresh.sequences[i].name.to_string()
            ));
        }
    }
    let mut out = Seqs {
        list: Vec::new(),
        kept: Vec::new(),
        fresh: Vec::new(),
        changed: false,
    };
    for (j, s) in kept.sequences.iter().enumerate() {
        let Some(i) = of_kept[j] else {
            out.changed = true;
            changes.add(format!(
                "sequence {j} {:?} removed (the glTF has no animation of it)",
                s.name.to_string()
            ));
            continue;
        };
        let mut s = s.clone();
        let name = fresh.sequences[i].name.to_string();
        if !same_name(&s.name.to_string(), &name) {
            s.name.set(&name);
            out.changed = true;
        }
        out.list.push(s);
        out.kept.push(Some(j));
        out.fresh.push(Some(i));
    }
    // New animations: new sequences after the others, each on a whole second at least
    // half a second after the previous one ends.
    let mut end = out.list.iter().map(|s| s.interval[1]).max().unwrap_or(0);
    for i in (0..nf).filter(|&i| !taken[i]) {
        let f = &fresh.sequences[i];
        let start = end.saturating_add(500).div_ceil(1000).saturating_mul(1000);
        let interval = [start, start.saturating_add(length(f).max(1))];
        end = interval[1];
        let name = f.name.to_string();
        let lower = name.to_lowercase();
        let flags = if lower.contains("death") || lower.contains("decay") {
            SEQUENCE_NON_LOOPING
        } else {
            0
        };
        changes.add(format!("new sequence {name:?} ({} ms)", length(f)));
        out.list.push(Sequence {
            interval,
            flags,
            extent: kept.info.extent,
            ..f.clone()
        });
        out.kept.push(None);
        out.fresh.push(Some(i));
        out.changed = true;
    }
    out
}
