//! What a node's name says it is, for models made in Blender (or any editor) from
//! scratch: the conventions modders already use with the community's Warcraft III
//! exporters for Blender and the 3ds Max art tools. A node this crate exported says its
//! kind in `extras` instead, which wins.
//!
//! | a node (not a joint, no mesh) named | becomes |
//! |---|---|
//! | `... Ref` (`Overhead Ref`, `Hand Left Ref`, `Origin_Ref`) | an attachment point of that name |
//! | `SND...`, `SPN...`, `SPL...`, `UBR...`, `FPT...` (`SNDxDHLB`) | an event object, firing at each key of its own animation in a sequence |
//! | `Collision...` (`CollisionBox`, `CollisionSphere`), mesh or not | a collision shape: a mesh's box (a sphere when the name says `Sphere`), or a sphere of the node's scale |
//!
//! Every animation is a sequence (Blender writes each action as one).

/// What a name makes a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Named {
    Attachment,
    EventObject,
    Collision,
}

/// The game's event object kinds: sound, spawned model, splat, ubersplat, footprint.
const EVENT_KINDS: [&str; 5] = ["SND", "SPN", "SPL", "UBR", "FPT"];

/// What `name` makes a node, if anything.
pub(super) fn named(name: &str) -> Option<Named> {
    let n = name.trim();
    let lower = n.to_ascii_lowercase();
    if lower.starts_with("collision") {
        return Some(Named::Collision);
    }
    if n.len() >= 4 && EVENT_KINDS.iter().any(|k| n.starts_with(k)) {
        return Some(Named::EventObject);
    }
    let is_ref = lower == "ref"
        || lower
            .strip_suffix("ref")
            .is_some_and(|head| head.ends_with([' ', '_']));
    is_ref.then_some(Named::Attachment)
}

/// Whether a mesh node's name makes it a collision shape rather than a geoset.
pub(super) fn is_collision(name: Option<&str>) -> bool {
    name.and_then(named) == Some(Named::Collision)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_what_a_node_is() {
        assert_eq!(named("Overhead Ref"), Some(Named::Attachment));
        assert_eq!(named("Hand Left Ref"), Some(Named::Attachment));
        assert_eq!(named("Origin_Ref"), Some(Named::Attachment));
        assert_eq!(
            named("Preference"),
            None,
            "a word that ends in ref is not one"
        );
        assert_eq!(named("SNDxDHLB"), Some(Named::EventObject));
        assert_eq!(named("FPTxSWLF"), Some(Named::EventObject));
        assert_eq!(named("SND"), None, "a kind without an identifier");
        assert_eq!(named("Sound"), None);
        assert_eq!(named("CollisionBox"), Some(Named::Collision));
        assert_eq!(named("collision sphere"), Some(Named::Collision));
        assert_eq!(named("Bone_Head"), None);
    }
}
