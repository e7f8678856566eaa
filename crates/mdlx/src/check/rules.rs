//! The rule table: every rule's id, severity, where it comes from and what it checks.
//!
//! Ids are kebab-case words (`missing-death-sequence`), stable across releases: a rule
//! that changes meaning gets a new id, and an id is never reused. Sources:
//! - **m3v**: mdx-m3-viewer's sanity tester (npm `mdx-m3-viewer` 5.12,
//!   `dist/cjs/utils/mdlx/sanitytest/`: `testers.js`, `utils.js`, `tracks.js`); its
//!   function is named. Its `error` and `severe` findings are errors here, `warning`
//!   warnings, `unused` infos, unless the rule says otherwise.
//! - **tuner**: War3 Model Tuner's error checker (Stan0033/War3-Model-Tuner,
//!   `Wa3Tuner/ErrorChecker.cs`, `Inspect`), and **whim**: the larger checker of the same
//!   author's Whim Model Editor (`ErrorChecker.xaml.cs`). Both run on MdxLib; their levels
//!   are Unused, Warning, Severe and Error.
//! - **mdlx**: checks neither tool makes, added here; each says why.
//!
//! A rule's severity is the one it has for a unit; a rule that matters differently for
//! another [`Kind`] says so in its `kinds` list (a severity, or `off`: not reported for
//! that kind). Neither peer knows kinds: both treat every model as a unit.

use super::kind::Kind;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Wasteful: the model works, but carries what nothing uses.
    Info,
    /// Likely wrong: the model loads, but something probably does not look or play as
    /// meant.
    Warning,
    /// The game or the editors misbehave: a crash, an invisible or torn mesh, a broken
    /// animation, a file an editor refuses.
    Error,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One rule.
#[derive(Debug)]
pub struct Rule {
    /// The stable id.
    pub id: &'static str,
    /// Its severity for a unit, and for every kind `kinds` does not name.
    pub severity: Severity,
    /// The kinds for which the severity differs: `None` means the rule is not reported
    /// for that kind (what it asks for is normal there).
    pub kinds: &'static [(Kind, Option<Severity>)],
    /// What it checks, in one line.
    pub summary: &'static str,
    /// Where it comes from (see the module docs).
    pub source: &'static str,
    /// Whether `mdlx check --fix` repairs it.
    pub fixable: bool,
}

impl Rule {
    /// The severity of this rule's findings for a model of `kind`, or `None` when the
    /// rule is not reported for that kind.
    pub fn severity_for(&self, kind: Kind) -> Option<Severity> {
        match self.kinds.iter().find(|(k, _)| *k == kind) {
            Some(&(_, s)) => s,
            None => Some(self.severity),
        }
    }
}

/// A severity of a `kinds` list: `off` or a [`Severity`] variant.
macro_rules! kind_severity {
    (off) => {
        None
    };
    ($s:ident) => {
        Some(Severity::$s)
    };
}

macro_rules! rules {
    ($($name:ident $id:literal $sev:ident $fix:literal
       $({ $($kind:ident: $ks:ident),* $(,)? })?
       $source:literal $summary:literal;)*) => {
        $(
            #[doc = $summary]
            pub static $name: Rule = Rule {
                id: $id,
                severity: Severity::$sev,
                kinds: &[$($((Kind::$kind, kind_severity!($ks))),*)?],
                summary: $summary,
                source: $source,
                fixable: $fix,
            };
        )*
        /// Every rule, in the order of the table.
        pub static RULES: &[&Rule] = &[$(&$name),*];
    };
}

rules! {
    // --- The header -------------------------------------------------------------------
    UNKNOWN_VERSION "unknown-version" Warning false
        "m3v testHeader (800/900/1000 only); here every version this crate knows"
        "the format version is none the game writes (800, 900 to 1800 in steps of 100)";
    VERSION_900 "version-900" Error false "m3v testHeader"
        "version 900 models do not load in Warcraft III (the 1.32 beta format)";
    ANIMATION_FILE "animation-file-set" Warning false "m3v testHeader"
        "the model names an animation file; the game ignores it and it should be empty";
    NEGATIVE_EXTENT "negative-extent" Warning false "m3v testExtent"
        "an extent's minimum is above its maximum on some axis";
    STALE_EXTENT "stale-extent" Warning true
        "mdlx: the game culls and selects a model by its extents; neither tool looks"
        "an extent does not hold the vertices it bounds (a geoset's at rest, or every geoset's for the model's): the model vanishes at the screen's edge or cannot be clicked";
    NOT_FINITE "not-finite" Error false
        "mdlx: NaN or infinite numbers make the game drop the mesh or the node; neither tool looks"
        "a number is NaN or infinite (vertices, normals, pivots, extents, keys)";

    // --- Sequences ---------------------------------------------------------------------
    NO_SEQUENCES "no-sequences" Warning false { Doodad: off }
        "m3v testSequences; tuner Inspect; here not for doodads (a prop that never moves needs none)"
        "the model has no sequences";
    MISSING_STAND "missing-stand-sequence" Error false
        { Doodad: Warning, Effect: Warning, Missile: Warning, Item: Warning, Portrait: off }
        "m3v testSequences (severe, every model); here an error for units and buildings, which idle in Stand, a warning for what may mean to play once, and not for portraits (missing-portrait-sequence)"
        "no sequence is named Stand (or Alternate Stand)";
    MISSING_DEATH "missing-death-sequence" Error false
        { Doodad: Info, Missile: Info, Item: Info, Effect: off, Portrait: off }
        "m3v testSequences (severe, every model); here an error only for units and buildings, which play Death when they die: an effect or a portrait is never killed, and a doodad, a missile or an item without Death is a choice (a destructible or a missile that vanishes at once)"
        "no sequence is named Death (or Alternate Death)";
    MISSING_WALK "missing-walk-sequence" Warning false
        { Building: off, Doodad: off, Effect: off, Portrait: off, Missile: off, Item: off }
        "mdlx: the issue's list (a unit needs Stand, Walk, ...); units only, a warning since some never move (wards, towers made units)"
        "a unit has no Walk sequence: it slides when it moves";
    MISSING_PORTRAIT_SEQUENCE "missing-portrait-sequence" Warning false
        { Unit: off, Building: off, Doodad: off, Effect: off, Missile: off, Item: off }
        "mdlx: the issue's list; portraits only (a portrait file's sequences are what the portrait frame plays)"
        "a portrait has no Portrait sequence";
    NONSTANDARD_NAME "nonstandard-sequence-name" Warning false "m3v testSequence"
        "a sequence's first word is none the game plays by name (Stand, Walk, Attack, ...)";
    ZERO_LENGTH "sequence-zero-length" Warning false "m3v testSequence"
        "a sequence starts and ends at the same time";
    REVERSED_SEQUENCE "sequence-reversed" Warning false "m3v testSequence (negative length)"
        "a sequence ends before it starts";
    SEQUENCE_OVERLAP "sequence-overlap" Error false "m3v testSequence (severe, version 800 only)"
        "a version 800 sequence starts at or before the end of an earlier one";
    MISSING_PORTRAIT_CAMERA "missing-portrait-camera" Warning false
        "mdlx: the issue's list; a model with Portrait sequences is a portrait, and the game frames it with the model's first camera"
        "the model has Portrait sequences but no camera to frame them";
    ZERO_GLOBAL_SEQUENCE "global-sequence-zero-length" Warning false "m3v testGlobalSequence"
        "a global sequence lasts 0 ms";

    // --- References ---------------------------------------------------------------------
    BAD_MATERIAL "invalid-material-ref" Error false "m3v testGeoset, testRibbonEmitter"
        "a geoset or ribbon emitter names a material that does not exist";
    BAD_TEXTURE "invalid-texture-ref" Error false "m3v testLayer, testParticleEmitter2"
        "a layer, texture slot, texture-id track or particle emitter names a texture that does not exist";
    BAD_TEXTURE_ANIMATION "invalid-texture-animation-ref" Error false "m3v testLayer"
        "a layer names a texture animation that does not exist";
    BAD_GEOSET "invalid-geoset-ref" Error false
        "m3v testGeosetAnimation, testBone; mdlx adds gliders"
        "a geoset animation, bone or glider names a geoset that does not exist";
    BAD_GEOSET_ANIMATION "invalid-geoset-animation-ref" Error false "m3v testBone"
        "a bone names a geoset animation that does not exist";
    BAD_PARENT "invalid-parent" Error false "m3v testObjects"
        "a node's parent is no node's object id, or the node itself";
    PARENT_CYCLE "parent-cycle" Error false
        "mdlx: a loop of parents hangs or crashes tools that walk the hierarchy; m3v only sees a node that is its own parent"
        "nodes are each other's ancestors";
    OBJECT_ID "object-id-mismatch" Error false
        "mdlx: a node's object id is what parents, matrix groups and pivots name; tools that take a node's place in the file instead (mdx-m3-viewer's sanity test) then see another skeleton"
        "a node's object id is not its place in the model-wide node numbering";
    BAD_GLOBAL_SEQUENCE "invalid-global-sequence-ref" Error false "m3v tracks.js testTracks"
        "a track names a global sequence that does not exist";
    DUPLICATE_GEOSET_ANIMATION "geoset-animated-twice" Warning false "m3v testGeoset"
        "a geoset is the target of several geoset animations (only one applies)";
    INVISIBLE_GEOSET "bone-geoset-invisible" Error false "m3v testBone (severe)"
        "a bone's geoset animation has alpha below 0.1 and no alpha track: the geoset may never show";

    // --- Skinning -------------------------------------------------------------------------
    VERTEX_GROUP_MISSING "invalid-vertex-group" Error false "m3v testGeosetSkinning (severe)"
        "a vertex names a matrix group that does not exist";
    VERTEX_UNATTACHED "vertex-unattached" Error false "m3v testGeosetSkinning (severe)"
        "a vertex is attached to no node (group 255 or all skin weights 0): it stays at the origin";
    VERTEX_BAD_NODE "vertex-attached-to-missing-node" Error false "m3v testVertexSkinning"
        "a matrix group or skin entry names a node that does not exist";
    VERTEX_NOT_BONE "vertex-attached-to-non-bone" Error false "m3v testVertexSkinning (severe)"
        "a vertex is attached to a node that is not a bone (a helper, an attachment, ...)";
    SKIN_WEIGHTS "skin-weights-not-255" Error false "m3v testGeosetSkinning (severe)"
        "a vertex's four skin weights do not add up to 255";
    SKIN_AND_GROUPS "skin-and-vertex-groups" Warning false "m3v testGeosetSkinning; here only when the groups say something (a non-zero group and more than one matrix group): every Reforged exporter writes an all-zero group list beside the weights"
        "a Reforged geoset has both skin weights and vertex groups";
    TOO_MANY_GROUPS "too-many-matrix-groups" Error false
        "mdlx: vertex groups are one byte, so a geoset can address 255 matrix groups (255 itself means none, as m3v reads it)"
        "a geoset has more than 255 matrix groups";
    TOO_MANY_VERTICES "too-many-vertices" Error false "m3v testGeoset (severe: 7433 vertices bugged, 7394 good)"
        "an SD geoset has 7,433 vertices or more: the game renders it torn";
    BONE_NO_VERTICES "bone-without-vertices" Warning false "m3v testBone"
        "no vertex is attached to a bone (a helper does the job of a bone that moves nothing)";

    // --- Geometry ---------------------------------------------------------------------------
    NO_FACES "geoset-without-faces" Warning false "m3v testGeoset (Magos crashes); tuner Inspect"
        "a geoset has no faces";
    NO_VERTICES "geoset-without-vertices" Error false "whim (error: crashes the map); tuner Inspect (warning)"
        "a geoset has no vertices";
    NO_MATRIX_GROUPS "geoset-without-matrix-groups" Error false "tuner Inspect (severe)"
        "a geoset of a model with bones has neither matrix groups nor skin weights";
    TOO_MANY_TRIANGLES "too-many-triangles" Warning false "tuner Inspect (20,000 triangles)"
        "a geoset has 20,000 triangles or more";
    SEQUENCE_EXTENTS "sequence-extent-count" Warning true "m3v testGeoset (Magos fails to parse, version 800)"
        "a version 800 geoset's sequence extents are not one per sequence";
    BAD_FACE_INDEX "face-index-out-of-range" Error false
        "mdlx: the game reads past the vertex list; neither tool looks"
        "a face names a vertex that does not exist";
    ZERO_AREA "zero-area-triangle" Info false
        "mdlx (the issue's list): such a triangle draws nothing"
        "a triangle's corners are the same vertex or lie on one line";
    DUPLICATE_TRIANGLE "duplicate-triangle" Warning false
        "tuner Inspect (same three vertices in any order); here only the same winding, since a reversed copy is how SD models make a face two-sided"
        "a triangle repeats another with the same corners and winding";
    COUNT_MISMATCH "geoset-count-mismatch" Error false
        "mdlx: the game reads per-vertex lists by the vertex count; a shorter list is read past its end"
        "a geoset's normals, UVs, vertex groups, tangents or skin do not have one entry per vertex";
    PIVOT_COUNT "pivot-count" Warning false "m3v testPivotPoints"
        "the number of pivot points differs from the number of nodes";
    BIND_POSE_COUNT "bind-pose-count" Warning false "m3v testBindPose"
        "a Reforged model's bind poses are not one per node plus one";

    // --- Animation tracks -----------------------------------------------------------------
    EMPTY_TRACK "empty-track" Warning false "m3v tracks.js testTracks (an event object without keys is an error)"
        "a track has no keys";
    TRACK_WITHOUT_SEQUENCES "track-without-sequences" Warning false "m3v tracks.js testTracks"
        "a track exists but the model has no sequences to play it in";
    UNSORTED_KEYS "unsorted-keys" Error true "m3v tracks.js (severe); tuner CheckInsonsistentKeyframes (severe)"
        "a key's time is lower than the key before it";
    DUPLICATE_KEY "duplicate-key" Warning true "m3v tracks.js"
        "two keys of a track have the same time";
    NEGATIVE_KEY "negative-key-time" Warning false "m3v tracks.js"
        "a key's time is negative";
    KEY_OUTSIDE "key-outside-sequences" Info false "m3v tracks.js (unused)"
        "a key lies in no sequence (or past its global sequence): nothing plays it";
    MISSING_OPENING_KEY "missing-opening-key" Error false "m3v tracks.js testSequenceTracks (severe)"
        "an interpolated track has keys in a sequence but none at its start, and its first and last values there differ: the value warps in from the previous sequence";
    REDUNDANT_KEY "redundant-key" Info true
        "m3v tracks.js testSequenceTracks (unused: three keys within 0.001); here the keys --fix removes: those whose removal moves the track by at most 1e-6 at their times and half way between (a key within 0.001 of its neighbours may still shape the curve; a key on the line between its neighbours is as redundant as a repeated one)"
        "a key the keys around it give back: dropping it changes nothing";
    VISIBILITY_INTERPOLATED "visibility-interpolated" Warning false "m3v testAnimation"
        "a visibility track is interpolated; the game steps visibility, so set it to DontInterp";
    MAGOS_TRACK "magos-unsupported-track" Warning false "m3v testAnimation"
        "a particle emitter 2 variation or gravity track, which Magos does not read from MDX";

    // --- Materials and textures ---------------------------------------------------------
    NO_TEXTURES "no-textures" Warning false "m3v testTextures; tuner Inspect"
        "the model has no textures";
    NO_MATERIALS "no-materials" Warning false "tuner Inspect"
        "the model has geosets but no materials";
    TEXTURE_EXTENSION "texture-path-extension" Error false "m3v testTexture (corrupted path)"
        "a texture path does not end in .blp, .tga, .tif or .dds";
    UNKNOWN_REPLACEABLE "unknown-replaceable-id" Error false "m3v testTexture, testParticleEmitter2"
        "a replaceable id is none the game knows (1, 2, 11, 21, 31 to 37)";
    REPLACEABLE_WITH_PATH "replaceable-id-with-path" Warning false "m3v testTexture"
        "a texture has both a path and a replaceable id (the id wins; the path is dead)";
    UNKNOWN_SHADER "unknown-shader" Warning false "m3v testMaterial; mdlx adds the 1100+ shader type numbers"
        "a Reforged material or layer names a shader the game does not have";
    NO_LAYERS "material-without-layers" Warning false "m3v testMaterial"
        "a material has no layers";
    FILTER_MODE "invalid-filter-mode" Warning false "m3v testLayer, testParticleEmitter2"
        "a layer's filter mode is not 0 to 6, or a particle emitter's not 0 to 4";
    UNUSED_TEXTURE "unused-texture" Info true "m3v (unused objects)"
        "no layer, slot, track or emitter uses this texture";
    UNUSED_MATERIAL "unused-material" Info true "m3v (unused objects)"
        "no geoset or ribbon emitter uses this material";
    UNUSED_TEXTURE_ANIMATION "unused-texture-animation" Info true "m3v (unused objects)"
        "no layer uses this texture animation";
    UNUSED_GLOBAL_SEQUENCE "unused-global-sequence" Info true "m3v (unused objects)"
        "no track runs on this global sequence";
    TEXTURE_NOT_POW2 "texture-not-power-of-two" Warning false
        "m3v utils/blp/sanitytest"
        "a texture beside the model is not a power of two on each side";
    TEXTURE_NOT_FOUND "texture-not-found" Error false
        "War3 Model Tuner (missing texture files)"
        "a texture is in none of the folders and archives searched, the game's among them (checked with --textures naming the game's folder or archives)";
    MODEL_NOT_FOUND "model-not-found" Error false
        "War3 Model Tuner (missing model files)"
        "a model an emitter spawns or an attachment shows is in none of the folders and archives searched, the game's among them";
    TEXTURE_TOO_LARGE "texture-over-512" Warning false
        "m3v utils/blp/sanitytest (here for version 800 models only: Reforged's textures are larger)"
        "a texture beside a version 800 model is over 512 pixels on a side";
    BLP_JPEG_HEADER "blp-jpeg-header-too-large" Warning false
        "m3v utils/blp/sanitytest"
        "a JPEG BLP beside the model has a shared header over 624 bytes: the game shows it black";

    // --- Nodes ------------------------------------------------------------------------------
    LIGHT_ATTENUATION "light-attenuation" Warning false "m3v testLight"
        "a light's attenuation is not within 80..200 with the end after the start";
    ATTACHMENT_PATH "attachment-path" Error false "m3v testAttachments"
        "an attachment's path does not end in .mdl or .mdx";
    HELPER_CHILDLESS "helper-without-children" Info false "whim (unused)"
        "a helper has no child nodes and no animation: it moves nothing";
    MISSING_ORIGIN "missing-origin-attachment" Warning false
        { Doodad: off, Effect: off, Portrait: off, Missile: off, Item: off }
        "m3v testAttachments; tuner Inspect; both for every model; here only for units and buildings with geosets (what effects attach to; a model without a mesh is not one)"
        "no attachment point is named Origin Ref (effects on the unit have nowhere to go)";
    EMITTER_PATH "emitter-path" Error false "m3v testParticleEmitter"
        "a particle emitter's model path does not end in .mdl or .mdx";
    XY_QUAD_SPEED "xy-quad-without-speed" Error false "m3v testParticleEmitter2 (severe)"
        "an XY-quad particle emitter has zero speed or latitude";
    TIME_MIDDLE "time-middle-range" Error false "m3v testParticleEmitter2 (severe)"
        "a particle emitter's middle time is not between 0 and 1";
    SQUIRT "squirt-without-emission-track" Error false "m3v testParticleEmitter2 (severe)"
        "a squirting particle emitter has no emission rate track";
    POPCORN_GUIDE "popcorn-without-visibility-guide" Error false "m3v testParticleEmitterPopcorn (severe)"
        "a popcorn emitter has no animation visibility guide";
    FACE_EFFECT_PATH "face-effect-path" Error false "m3v testFaceEffect"
        "a face effect's path does not end in .facefx or .facefx_ingame";
}

/// The rule with this id.
pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().copied().find(|r| r.id == id)
}
