//! Node names and the sides they name: `Hand Left Ref`, `Bone_Arm_L`, `LeftFoot`.
//!
//! A side is the word `Left` or `Right` (any case, kept as written: `LEFT` becomes
//! `RIGHT`) standing alone or at a change of case (`HandLeft`, `LeftHand`), or the letter
//! `L` or `R` standing alone between separators (`Arm_L`, `L Hand`, `Bip01 R Foot`).

use crate::model::Model;

/// Whether `c` ends a word: not a letter or digit.
fn separator(c: Option<u8>) -> bool {
    c.is_none_or(|c| !c.is_ascii_alphanumeric())
}

/// `to` spelled in the case `from` is written in (all upper, all lower, or capitalised).
fn same_case(from: &[u8], to: &str) -> String {
    if from.iter().all(u8::is_ascii_uppercase) && from.len() > 1 {
        to.to_ascii_uppercase()
    } else if from.first().is_some_and(u8::is_ascii_uppercase) {
        let mut s = to.to_ascii_lowercase();
        s[..1].make_ascii_uppercase();
        s
    } else {
        to.to_ascii_lowercase()
    }
}

/// `name` with its sides swapped, or `None` when it names no side.
pub(crate) fn side_swapped(name: &str) -> Option<String> {
    let b = name.as_bytes();
    let mut out = String::with_capacity(name.len() + 1);
    let mut i = 0;
    let mut any = false;
    while i < b.len() {
        let before = i.checked_sub(1).map(|j| b[j]);
        let starts_word = separator(before)
            || (before.is_some_and(|c| c.is_ascii_lowercase()) && b[i].is_ascii_uppercase());
        let mut done = false;
        if starts_word {
            for (word, other) in [("left", "right"), ("right", "left")] {
                let end = i + word.len();
                let Some(seen) = b.get(i..end) else { continue };
                let after = b.get(end).copied();
                let ends_word = separator(after) || after.is_some_and(|c| c.is_ascii_uppercase());
                if seen.eq_ignore_ascii_case(word.as_bytes()) && ends_word {
                    out.push_str(&same_case(seen, other));
                    i = end;
                    done = true;
                    break;
                }
            }
            if !done && separator(before) && separator(b.get(i + 1).copied()) {
                let swapped = match b[i] {
                    b'L' => Some('R'),
                    b'R' => Some('L'),
                    b'l' => Some('r'),
                    b'r' => Some('l'),
                    _ => None,
                };
                if let Some(c) = swapped {
                    out.push(c);
                    i += 1;
                    done = true;
                }
            }
        }
        if done {
            any = true;
        } else {
            // Copy one character whole (names may hold UTF-8).
            let len = name[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&name[i..i + len]);
            i += len;
        }
    }
    any.then_some(out)
}

/// Every node's sides swapped; one report line per renamed node.
pub(crate) fn swap_sides(model: &mut Model) -> Vec<String> {
    let mut changed = Vec::new();
    for node in model.nodes_mut() {
        let old = node.name.text().into_owned();
        if let Some(new) = side_swapped(&old) {
            if new.len() < crate::spec::len::NAME {
                node.name.set(&new);
                changed.push(format!("node {old:?} renamed {new:?}"));
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::side_swapped;

    #[test]
    fn sides_are_swapped_as_modellers_spell_them() {
        let cases = [
            ("Hand Left Ref", Some("Hand Right Ref")),
            ("Hand Right Ref", Some("Hand Left Ref")),
            ("Bone_Arm_L", Some("Bone_Arm_R")),
            ("Bip01 R Foot", Some("Bip01 L Foot")),
            ("LeftHand", Some("RightHand")),
            ("HandLEFT", Some("HandRIGHT")),
            ("bone_right_leg", Some("bone_left_leg")),
            ("Leftover", None),
            ("Bright", None),
            ("Lance", None),
            ("Chest", None),
            ("Foot.L", Some("Foot.R")),
        ];
        for (name, want) in cases {
            assert_eq!(side_swapped(name).as_deref(), want, "{name}");
        }
    }
}
