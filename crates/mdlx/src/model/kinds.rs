//! The registry of record kinds: [`for_each_kind!`] calls a macro with one row per list of
//! records a model holds, in the conventional MDX chunk order. The chunk codec, the MDL
//! document reader and writer, the MDL extension block, the counts, the node list and the
//! skeleton expand it, so adding a record kind is one row here (plus its declaration).
//!
//! A row is `TAG field [Type] "Name" Shape mdl node`:
//! - `TAG`: the chunk tag (`crate::spec::chunk::TAG`); `field`: the model's list;
//!   `Type`: its element; `"Name"`: the kind's name in MDX error paths and in the MDL
//!   extension block;
//! - `Shape`: how the chunk's payload divides into records (`Fixed(n)`, `Counted(n)`,
//!   `Sized`);
//! - `mdl`: how MDL holds the records: `one` (each record is a top-level block),
//!   `wrapped("Container")` (inside one counted container block), `special("Block")` (a block of
//!   plain values, read and written by hand: global sequences, pivots, bind poses);
//! - `node`: `node(Kind)` for scene nodes (the variant of [`crate::anim::NodeKind`]),
//!   `flags` for records with a flags word but no node, `plain` otherwise.
/// MDL writes the kinds in this order too, except that textures come before materials (as
/// every exporter writes them): [`MDL_ORDER`] maps MDL position to row.
macro_rules! for_each_kind {
    ($mac:ident ! ($($args:tt)*)) => {
        $mac!(($($args)*)
            SEQS sequences [$crate::model::Sequence] "Sequence" Fixed(132) wrapped("Sequences") plain,
            GLBS global_sequences [u32] "GlobalSequence" Fixed(4) special("GlobalSequences") plain,
            MTLS materials [$crate::model::Material] "Material" Sized wrapped("Materials") plain,
            TEXS textures [$crate::model::Texture] "Texture" Fixed(268) wrapped("Textures") plain,
            TXAN texture_animations [$crate::model::TextureAnimation] "TextureAnimation" Sized
                wrapped("TextureAnims") plain,
            GEOS geosets [$crate::model::Geoset] "Geoset" Sized one plain,
            GEOA geoset_animations [$crate::model::GeosetAnimation] "GeosetAnimation" Sized one flags,
            BONE bones [$crate::model::Bone] "Bone" Sized one node(Bone),
            LITE lights [$crate::model::Light] "Light" Sized one node(Light),
            HELP helpers [$crate::model::Helper] "Helper" Sized one node(Helper),
            ATCH attachments [$crate::model::Attachment] "Attachment" Sized one node(Attachment),
            PIVT pivot_points [[f32; 3]] "PivotPoint" Fixed(12) special("PivotPoints") plain,
            PREM particle_emitters [$crate::model::ParticleEmitter] "ParticleEmitter" Sized one
                node(ParticleEmitter),
            PRE2 particle_emitters2 [$crate::model::ParticleEmitter2] "ParticleEmitter2" Sized one
                node(ParticleEmitter2),
            CORN popcorn_emitters [$crate::model::PopcornEmitter] "PopcornEmitter" Sized one node(PopcornEmitter),
            RIBB ribbon_emitters [$crate::model::RibbonEmitter] "RibbonEmitter" Sized one node(RibbonEmitter),
            CAMS cameras [$crate::model::Camera] "Camera" Sized one plain,
            EVTS event_objects [$crate::model::EventObject] "EventObject" Sized one node(EventObject),
            CLID collision_shapes [$crate::model::CollisionShape] "CollisionShape" Sized one node(CollisionShape),
            FAFX face_effects [$crate::model::FaceEffect] "FaceEffect" Fixed(340) one plain,
            BPOS bind_poses [[f32; 12]] "BindPose" Counted(48) special("BindPose") plain,
            DILG gliders [$crate::model::Glider] "Glider" Fixed(4) one plain,
        )
    };
}
pub(crate) use for_each_kind;

/// Hands every declared Warcraft III record (see [`declare`](super::declare)) to `$mac`:
/// the MDX and MDL codecs each generate their part of every kind from this one list.
macro_rules! for_each_decl {
    ($mac:ident) => {
        $crate::model::texture_animation_decl!($mac);
        $crate::model::geoset_animation_decl!($mac);
        $crate::model::attachment_decl!($mac);
        $crate::model::event_object_decl!($mac);
        $crate::model::camera_decl!($mac);
        $crate::model::particle_emitter_decl!($mac);
        $crate::model::particle_emitter2_decl!($mac);
        $crate::model::ribbon_emitter_decl!($mac);
        $crate::model::popcorn_emitter_decl!($mac);
        $crate::model::light_decl!($mac);
        $crate::model::bone_decl!($mac);
        $crate::model::helper_decl!($mac);
        $crate::model::sequence_decl!($mac);
        $crate::model::texture_decl!($mac);
        $crate::model::glider_decl!($mac);
        $crate::model::face_effect_decl!($mac);
    };
}
pub(crate) use for_each_decl;

/// The number of rows of [`for_each_kind!`].
pub(crate) const KINDS: usize = 22;

/// Row indices of [`for_each_kind!`] in MDL block order: the chunk order with textures
/// (row 3) before materials (row 2).
pub(crate) const MDL_ORDER: [usize; KINDS] = {
    let mut order = [0; KINDS];
    let mut i = 0;
    while i < KINDS {
        order[i] = i;
        i += 1;
    }
    order[2] = 3;
    order[3] = 2;
    order
};

/// The rows' chunk tags, in order.
macro_rules! kind_tags {
    (() $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident
        $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        [$(crate::spec::chunk::$t,)*]
    };
}

/// The chunk tag of each row.
pub(crate) const TAGS: [crate::model::Tag; KINDS] = for_each_kind!(kind_tags!());

/// The rows' list names, as [`crate::model::Model`] names its fields.
macro_rules! kind_fields {
    (() $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident
        $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        [$(stringify!($field),)*]
    };
}

/// The list name of each row.
pub(crate) const FIELDS: [&str; KINDS] = for_each_kind!(kind_fields!());

#[cfg(test)]
mod tests {
    #[test]
    fn mdl_order_puts_textures_before_materials() {
        use crate::spec::chunk::{MTLS, TEXS};
        assert_eq!(super::TAGS[super::MDL_ORDER[2]], TEXS);
        assert_eq!(super::TAGS[super::MDL_ORDER[3]], MTLS);
    }
}
