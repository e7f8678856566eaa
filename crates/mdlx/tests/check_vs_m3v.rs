//! `mdlx check` against mdx-m3-viewer's sanity tester (npm `mdx-m3-viewer` 5.12,
//! `dist/cjs/utils/mdlx/sanitytest/`), on the 30 corpus files of [`FILES`].
//!
//! `tools/peer-sanity/sanity.js` runs the tester in node and prints its findings as JSON
//! lines; [`MESSAGES`] names the rule of ours that says the same as each of its messages.
//! Findings are compared at the level (file, rule, record): an m3v finding under a
//! top-level object (`Bone 3 - "Hand Right" > Rotation`) matches any finding of ours of the
//! same rule whose record is that object (`bones[3]`; m3v numbers the objects of each kind
//! as our lists do); one at the model level (the tester puts the attachment path and
//! Origin checks there too) matches a finding of that rule anywhere in the file. Counts
//! are not compared: m3v reports per vertex or per key, we per matrix group or per track.
//!
//! Each file is checked as the kind `mdlx check` finds for it ([`mdlx::check::classify`]
//! with the file name); m3v checks every model as a unit, so the rules that are off for an
//! effect or a portrait are explained by [`KNOWN`] entries that check the kind.
//!
//! Every m3v finding without a match must be explained by an entry of [`KNOWN`], whose
//! `holds` checks the explanation on that very finding (the model, our findings); a
//! file m3v cannot read must be in [`UNREADABLE`]. The test fails on anything else, and
//! on a [`KNOWN`] entry that explains nothing (stale). It prints a table per rule (m3v's
//! findings and records, ours, the ones m3v has that we do not, explained) and, for
//! information, what we report that m3v does not.
//!
//! Needs node and the peers (`scripts/peer-mdl.sh`, run by `scripts/test.sh`, sets
//! `MDLX_PEERS_BIN`; mdx-m3-viewer is in `$MDLX_PEERS_BIN/../node/node_modules`). Without
//! them the test says so and passes, except under CI (`CI` set), where it fails.

mod common;

use common::repo;

use mdlx::check::{Finding, Kind};
use mdlx::model::{Animation, AnyTrack, Model};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The files, and why each was chosen.
#[rustfmt::skip]
const FILES: &[(&str, &str)] = &[
    // --- version 800 units with animations
    ("Gohagga__CrazySummonersWc3__maps__map.w3x__HeroBloodelfRanger.mdx", "800 hero unit, full sequence set, spline tracks"),
    ("Bergi-bear__KodumResistanceOblivion__map.w3x__war3mapImported__HUCatapult.mdx", "800 siege unit; Hermite keys equal in value, not in tangents"),
    ("Bergi-bear__PeonSimulator__map.w3x__legs.mdx", "800 unit with 66 keys at a repeated time"),
    ("dbz-tribute-reforged__dbz-tribute-reforged__maps__Tribute_Reforged.w3x__Momonga.mdx", "800 unit, 85 overlapping sequences (many findings)"),
    ("Bergi-bear__KodumResistanceOblivion__map.w3x__Units__Hero__Vampyrs__DK__DeathKnight_Portrait.mdx", "800 portrait: camera, Portrait sequences"),
    ("Bergi-bear__Admiral__map.w3x__AdmiralAssets__ThunderclapCasterClassic.mdx", "800 caster with a sequence of negative length"),
    ("Bergi-bear__TimberSawWar__map.w3x__war3mapImported__TimberChainHead.mdx", "800, bone object ids not in file order"),
    // --- doodads and buildings
    ("nazarpunk__wc3-map-edemium-legacy__map__war3mapImported__fk_painting03.mdx", "800 doodad without sequences but with bone tracks"),
    ("mashlol__wc3-orpg__map.w3x__war3mapImported__Tent.mdx", "800 doodad, a texture with both a path and a replaceable id"),
    ("Gohagga__TheExiledOnes__assets__Chaos_Barracks__OrcBarracks4.mdx", "800 building with emitters (build/death effects)"),
    ("Forevka__OppositeForcesWC3Map__maps__map.w3x__war3mapImported__GuardianLordaeron.mdx", "800 building; geosets under several geoset animations"),
    ("Retera__ReterasModelStudio__JesusHipsterAttachmentSystem__bases__TunableStackUp.mdx", "800 attachment model whose attachment has a global-sequence track"),
    // --- effects with emitters
    ("AraragiHoozuki__DalbursGate__map.w3x__Effects__FireNova2.mdx", "800 effect without geosets: 6 particle, 4 ribbon emitters, 32 helpers"),
    ("AraragiHoozuki__DalbursGate__map.w3x__Effects__Whirlpool.mdx", "800 effect, an XY-quad emitter without speed"),
    ("WarRaft__mdlvis-rs__test-data__Ember_Forge__Ember_Knight__Ember_Knight__Ember_Knight_opt2.mdx", "800 unit with lights, gravity tracks, duplicate keys"),
    ("dbz-tribute-reforged__dbz-tribute-reforged__maps__Tribute_Reforged.w3x__AuraLightBlue.mdx", "800 aura, bones naming an alpha-0 geoset animation"),
    ("dbz-tribute-reforged__dbz-tribute-reforged__maps__Tribute_Reforged.w3x__AuraDBalls.mdx", "800 effect, an emitter's middle time out of range"),
    ("Bergi-bear__KodumResistanceOblivion__map.w3x__Effect__Elder__MagicShield__MagicShield.mdx", "800 effect, vertices attached to helpers"),
    ("Bergi-bear__BloodOmen__map.w3x__Sweep_Attachments_FX__Sweep_Lightning_Large.mdx", "800 effect, global-sequence tracks missing their opening key"),
    ("Gohagga__CrazySummonersWc3__assets__CastAnimations__SacrificeCastAnim_00.mdx", "800 effect naming a material that does not exist"),
    ("Gohagga__CrazySummonersWc3__maps__map.w3x__SingularityOrange.mdx", "800 effect naming a texture animation that does not exist"),
    ("Bergi-bear__shipwreckers__map.w3x__bluegas6.mdx", "800 effect, pivot count differs from the node count"),
    ("zengfanfan__war3mdlx__test__all.mdx", "synthetic: every block kind, bad references (many findings)"),
    // --- Reforged 1000
    ("Bergi-bear__ARATHIFOREST__map.w3x__war3mapImported__Humanprop_door2.mdx", "1000 HD doodad, skin weights, 251 bones without vertices"),
    ("Bergi-bear__BloodOmen__map.w3x__war3mapImported__pivo.mdx", "1000, skin entries past the bone list (836 m3v findings)"),
    ("Bergi-bear__FridayNightFunkinWC3__OriginalAssets__JainaDansen6.mdx", "1000 HD unit, 2,587 keys in no sequence"),
    ("Bergi-bear__roguelike__map.w3x__PeonAxeHD.mdx", "1000 HD unit (peon), skinned"),
    ("TaylorMouse__warcraft_III_reforged_tools__Documentation__Tutorial__Resources__blob.mdx", "1000 with a light and bind poses of another count"),
    // --- Reforged 1100 (m3v 5.12 cannot read them, see UNREADABLE)
    ("theguywhodoesntcare__TheScourgeSlayer__map.w3x__models__chain.mdx", "1100, small"),
    ("theguywhodoesntcare__TheScourgeSlayer__map.w3x__units__human__rifleman__riflemanSAWING.mdx", "1100 HD unit"),
];

/// An m3v message (glob: `*` is any text), the top-level object kind it must be under
/// (None: any), and our rule that says the same ("" for none). First match wins.
#[rustfmt::skip]
const MESSAGES: &[(&str, Option<&str>, &str)] = &[
    // testHeader, testExtent
    ("Unknown version: *", None, "unknown-version"),
    ("Version 900 is not supported by Warcrft 3", None, "version-900"),
    ("The animation file should probably be empty*", None, "animation-file-set"),
    ("Negative extents", None, "negative-extent"),
    // testSequences, testSequence, testGlobalSequence
    ("No sequences", None, "no-sequences"),
    ("Missing \"Stand\" sequence", None, "missing-stand-sequence"),
    ("Missing \"Death\" sequence", None, "missing-death-sequence"),
    ("This sequence starts at the same frame as sequence *", None, "sequence-overlap"),
    ("This sequence starts before sequence * ends", None, "sequence-overlap"),
    ("\"*\" is not a standard name", None, "nonstandard-sequence-name"),
    ("Zero length", Some("Sequence"), "sequence-zero-length"),
    ("Negative length: *", Some("Sequence"), "sequence-reversed"),
    ("Zero length", Some("GlobalSequence"), "global-sequence-zero-length"),
    // testTextures, testTexture, testMaterial, testLayer
    ("No textures", None, "no-textures"),
    ("Corrupted path: *", None, "texture-path-extension"),
    ("Unknown replaceable ID: *", None, "unknown-replaceable-id"),
    ("Path * and replaceable ID * used together", None, "replaceable-id-with-path"),
    ("Unknown shader: *", None, "unknown-shader"),
    ("No layers", None, "material-without-layers"),
    ("Invalid texture animation *", None, "invalid-texture-animation-ref"),
    ("Invalid texture *", None, "invalid-texture-ref"),
    ("Invalid filter mode: *", None, "invalid-filter-mode"),
    // testGeoset, testGeosetSkinning, testVertexSkinning
    ("Invalid material *", None, "invalid-material-ref"),
    ("Too many vertices in one geoset: *", None, "too-many-vertices"),
    ("This geoset has both skin/weights and vertex groups", None, "skin-and-vertex-groups"),
    // Skin bone entries are bytes, so this cannot fire; no rule.
    ("Vertex *: References bone * but there can only be 256 bones in an HD model", None, ""),
    ("Vertex *: Attached to \"*\" which is not a bone", None, "vertex-attached-to-non-bone"),
    ("Vertex *: Attached to object * which does not exist", None, "vertex-attached-to-missing-node"),
    ("Vertex *: Not attached to anything", None, "vertex-unattached"),
    ("Vertex *: The weights are not normalized to 1", None, "skin-weights-not-255"),
    ("Vertex *: Attached to vertex group * which does not exist", None, "invalid-vertex-group"),
    ("Referenced by * geoset animations: *", None, "geoset-animated-twice"),
    ("Zero faces", None, "geoset-without-faces"),
    ("Number of sequence extents (*) does not match the number of sequences (*)", None, "sequence-extent-count"),
    // testGeosetAnimation, testBone
    ("Invalid geoset animation *", None, "invalid-geoset-animation-ref"),
    ("Invalid geoset *", None, "invalid-geoset-ref"),
    ("Referencing geoset * and geoset animation * with a 0 alpha, the geoset may be invisible", None, "bone-geoset-invisible"),
    ("There are no vertices attached to this bone", None, "bone-without-vertices"),
    // testLight
    ("Minimum attenuation should probably be bigger than or equal to 80, but is *", None, "light-attenuation"),
    ("Maximum attenuation should probably be smaller than or equal to 200, but is *", None, "light-attenuation"),
    ("The maximum attenuation should be bigger than the minimum, but isn't", None, "light-attenuation"),
    // testAttachments (reported at the model level), testPivotPoints
    ("Invalid path \"*\"", None, "attachment-path"),
    ("Missing the Origin attachment point", None, "missing-origin-attachment"),
    ("Expected * pivot points, got *", None, "pivot-count"),
    // testParticleEmitter, testParticleEmitter2, popcorn, face effects, bind pose
    ("Invalid path", None, "emitter-path"),
    ("Invalid replaceable ID: *", None, "unknown-replaceable-id"),
    ("XY Quad emitters must have a non-zero speed and latitude", None, "xy-quad-without-speed"),
    ("Expected time middle to be between 0 and 1, got *", None, "time-middle-range"),
    ("Using squirt without animating the emission rate", None, "squirt-without-emission-track"),
    ("No animation visibility guide", None, "popcorn-without-visibility-guide"),
    ("Corrupted face effect path: *", None, "face-effect-path"),
    ("Expected * matrices, got *", None, "bind-pose-count"),
    // testObjects, testAnimation
    ("Invalid parent *", None, "invalid-parent"),
    ("Same object and parent", None, "invalid-parent"),
    ("Using a variation animation.", None, "magos-unsupported-track"),
    ("Using a gravity animation.", None, "magos-unsupported-track"),
    ("Interpolation type not set to None", None, "visibility-interpolated"),
    // tracks.js
    ("Zero tracks", None, "empty-track"),
    ("Invalid global sequence *", None, "invalid-global-sequence-ref"),
    ("This animation exists, but the model has no sequences", None, "track-without-sequences"),
    ("Track * has a negative frame *", None, "negative-key-time"),
    ("Track * has the same frame * as track *", None, "duplicate-key"),
    ("Track * at frame * is lower than the track before it at *", None, "unsorted-keys"),
    ("Track * at frame * is not in any sequence", None, "key-outside-sequences"),
    ("Track * at frame * is not in global sequence *", None, "key-outside-sequences"),
    ("Missing opening track for * at frame * where it is needed", None, "missing-opening-key"),
    ("Track * at frame * has exactly the same value as tracks * and *", None, "redundant-key"),
    ("Track * at frame * has roughly the same value as tracks * and *", None, "redundant-key"),
    // Top-level objects nothing references (sanity.js's synthetic "Not used"); sequences,
    // geoset animations, cameras and face effects always count as used.
    ("Not used", Some("Texture"), "unused-texture"),
    ("Not used", Some("Material"), "unused-material"),
    ("Not used", Some("TextureAnimation"), "unused-texture-animation"),
    ("Not used", Some("GlobalSequence"), "unused-global-sequence"),
    ("Not used", Some("Geoset"), "geoset-without-faces"),
];

/// m3v's top-level object kinds and the model's lists.
const KINDS: &[(&str, &str)] = &[
    ("Sequence", "sequences"),
    ("GlobalSequence", "global_sequences"),
    ("Texture", "textures"),
    ("Material", "materials"),
    ("TextureAnimation", "texture_animations"),
    ("Geoset", "geosets"),
    ("GeosetAnimation", "geoset_animations"),
    ("Bone", "bones"),
    ("Light", "lights"),
    ("Helper", "helpers"),
    ("Attachment", "attachments"),
    ("ParticleEmitter", "particle_emitters"),
    ("ParticleEmitter2", "particle_emitters2"),
    ("ParticleEmitterPopcorn", "popcorn_emitters"),
    ("RibbonEmitter", "ribbon_emitters"),
    ("EventObject", "event_objects"),
    ("Camera", "cameras"),
    ("CollisionShape", "collision_shapes"),
    ("FaceEffect", "face_effects"),
];

/// m3v's names of the tracks (`animatedTypeNames`), per tag.
const TRACK_NAMES: &[(&str, &str)] = &[
    ("KMTF", "Texture ID"),
    ("KMTA", "Alpha"),
    ("KMTE", "Emissive Gain"),
    ("KFC3", "Fresnel Color"),
    ("KFCA", "Fresnel Opacity"),
    ("KFTC", "Fresnel Team Color"),
    ("KTAT", "Translation"),
    ("KTAR", "Rotation"),
    ("KTAS", "Scaling"),
    ("KGAO", "Alpha"),
    ("KGAC", "Color"),
    ("KGTR", "Translation"),
    ("KGRT", "Rotation"),
    ("KGSC", "Scaling"),
    ("KLAS", "Attenuation Start"),
    ("KLAE", "Attenuation End"),
    ("KLAC", "Color"),
    ("KLAI", "Intensity"),
    ("KLBI", "Ambient Intensity"),
    ("KLBC", "Ambient Color"),
    ("KLAV", "Visibility"),
    ("KATV", "Visibility"),
    ("KPEE", "Emission Rate"),
    ("KPEG", "Gravity"),
    ("KPLN", "Longitude"),
    ("KPLT", "Latitude"),
    ("KPEL", "Lifespan"),
    ("KPES", "Speed"),
    ("KPEV", "Visibility"),
    ("KP2E", "Emission Rate"),
    ("KP2G", "Gravity"),
    ("KP2L", "Latitude"),
    ("KP2R", "Variation"),
    ("KP2N", "Length"),
    ("KP2W", "Width"),
    ("KP2S", "Speed"),
    ("KP2V", "Visibility"),
    ("KPPA", "Alpha"),
    ("KPPC", "Color"),
    ("KPPE", "EmissionRate"),
    ("KPPL", "LifeSpan"),
    ("KPPS", "Speed"),
    ("KPPV", "Visibility"),
    ("KRHA", "Height Above"),
    ("KRHB", "Height Below"),
    ("KRAL", "Alpha"),
    ("KRCO", "Color"),
    ("KRTX", "Texture Slot"),
    ("KRVS", "Visibility"),
    ("KCTR", "Translation"),
    ("KTTR", "Rotation"),
    ("KCRL", "Target Translation"),
];

/// One finding of m3v's tester, as sanity.js prints it.
#[derive(Debug)]
struct M3v {
    /// The chain of tree nodes (`Bone 3 - "x" > Rotation`).
    object: String,
    /// The top-level object (our list and index), None for the model.
    record: Option<(&'static str, usize)>,
    message: String,
}

impl M3v {
    /// The numbers in the message (`Track 4 at frame 1200 ...` -> 4, 1200, ...).
    fn numbers(&self) -> Vec<i64> {
        self.message
            .split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .filter_map(|s| s.parse().ok())
            .collect()
    }
    /// The last name of the chain: the track's m3v name for a track finding.
    fn leaf(&self) -> &str {
        self.object.rsplit(" > ").next().unwrap_or("")
    }
}

/// What a [`Known::holds`] check sees.
struct Ctx<'a> {
    model: &'a Model,
    /// What we checked the model as (`mdlx check` classifies by model and file name).
    kind: Kind,
    ours: &'a [Finding],
}

impl Ctx<'_> {
    /// Whether `rule` is not reported for the kind the model was checked as.
    fn off(&self, rule: &str) -> bool {
        mdlx::check::rules::find(rule).is_some_and(|r| r.severity_for(self.kind).is_none())
    }
}

/// An explained class of m3v findings we do not have.
struct Known {
    /// The rule the m3v message maps to.
    rule: &'static str,
    /// Why we differ, and the evidence `holds` checks.
    why: &'static str,
    /// Whether the explanation applies to this finding.
    holds: fn(&Ctx, &M3v) -> bool,
}

const KNOWN: &[Known] = &[
    Known {
        rule: "redundant-key",
        why: "m3v calls a key redundant when its value is within 0.001 of both neighbours', \
              whatever it does to the curve; our redundant-key is what --fix removes, keys \
              whose removal moves the track by at most 1e-6, and of spline tracks only where \
              the curve is flat (checked: a tangent of the key or of its neighbours' sides \
              facing it is not flat within 1e-6, or, with and without the key, the track differs by more than 1e-6 at its time or half way to a neighbour, so \
              dropping it would move the animation)",
        holds: key_shapes_the_curve,
    },
    Known {
        rule: "redundant-key",
        why: "the track's keys are out of order (unsorted-keys, reported on the same record): \
              m3v compares keys in stored order, which are not neighbours in time; we judge \
              redundancy after sorting, as --fix does",
        holds: |c, f| has(c.ours, "unsorted-keys", f.record),
    },
    Known {
        rule: "redundant-key",
        why: "the key shares its time with another key of the track: it is a duplicate \
              (duplicate-key, reported on the same record; the sampler uses the last of equal \
              times, and --fix drops the others as duplicates)",
        holds: |c, f| {
            let n = f.numbers();
            let (k, frame) = (n[0] as usize, n[1] as i32);
            has(c.ours, "duplicate-key", f.record)
                && track_of(c, f).is_some_and(|t| {
                    let times = times_of(t);
                    times.iter().enumerate().any(|(j, &x)| j != k && x == frame)
                })
        },
    },
    Known {
        rule: "key-outside-sequences",
        why: "in a model without sequences m3v reports every key (but those at 0) as in no \
              sequence besides `This animation exists, but the model has no sequences`; we \
              say the latter once per track (track-without-sequences, checked on the same \
              record)",
        holds: |c, f| {
            c.model.sequences.is_empty() && has(c.ours, "track-without-sequences", f.record)
        },
    },
    Known {
        rule: "missing-origin-attachment",
        why: "our rule fires only for models with geosets (objects/nodes in check): a model \
              without a mesh is an effect spawned at a point, not a unit effects attach to \
              (checked: the model has no geosets)",
        holds: |c, _| c.model.geosets.is_empty(),
    },
    Known {
        rule: "missing-death-sequence",
        why: "m3v asks every model for a Death sequence (severe); we ask units and buildings \
              (error) and doodads, missiles and items (info), not effects and portraits, \
              which are destroyed or never die (checked: the model was classified as a kind \
              the rule is off for)",
        holds: |c, _| c.off("missing-death-sequence"),
    },
    Known {
        rule: "no-sequences",
        why: "m3v warns of every model without sequences; a doodad that never moves needs \
              none (checked: the model was classified as a kind the rule is off for)",
        holds: |c, _| c.off("no-sequences"),
    },
    Known {
        rule: "missing-stand-sequence",
        why: "m3v asks every model for a Stand sequence (severe); a portrait plays its Portrait \
              sequences instead (checked: the model was classified as a kind the rule is off \
              for)",
        holds: |c, _| c.off("missing-stand-sequence"),
    },
    Known {
        rule: "missing-origin-attachment",
        why: "m3v asks every model for an Origin Ref attachment; we ask units and buildings, \
              what effects are attached to (checked: the model was classified as a kind the \
              rule is off for)",
        holds: |c, _| c.off("missing-origin-attachment"),
    },
    Known {
        rule: "skin-and-vertex-groups",
        why: "every Reforged exporter writes vertex groups beside the skin, so we flag only \
              geosets whose groups say something (some group not 0 and several matrix \
              groups); m3v flags any version > 800 geoset with skin and groups (checked: the \
              geoset's groups are all 0 or it has at most one matrix group)",
        holds: |c, f| {
            let Some(("geosets", i)) = f.record else {
                return false;
            };
            let g = &c.model.geosets[i];
            g.skin.as_ref().is_some_and(|s| !s.is_empty())
                && (g.vertex_groups.iter().all(|&v| v == 0) || g.matrix_group_sizes.len() <= 1)
        },
    },
    Known {
        rule: "bone-without-vertices",
        why: "the bone's object id is not its place in the node list: m3v resolves a matrix \
              entry by place (data.objects[i]), we by object id, so the used and unused bones \
              trade places; we also report object-id-mismatch (checked on the same record)",
        holds: |c, f| has(c.ours, "object-id-mismatch", f.record),
    },
    Known {
        rule: "unused-global-sequence",
        why: "m3v's tester never visits attachments' tracks (testAttachments checks paths \
              only), so a global sequence only they use counts as unused there (checked: an \
              attachment track runs on it)",
        holds: |c, f| {
            let Some(("global_sequences", i)) = f.record else {
                return false;
            };
            c.model.attachments.iter().any(|a| {
                a.node
                    .tracks
                    .iter()
                    .chain(a.tracks.iter())
                    .any(|t| global_of(&t.track) == i as i32)
            })
        },
    },
];

/// Files m3v cannot read, and why.
const UNREADABLE: &[(u32, &str)] = &[(
    1100,
    "mdx-m3-viewer 5.12 reads a version 1100 layer as a 1000 one (without the texture-slot \
     list) and throws in Layer.readAnimations (`Cannot read properties of undefined`)",
)];

/// Whether `ours` has a finding of `rule` on `record`.
fn has(ours: &[Finding], rule: &str, record: Option<(&str, usize)>) -> bool {
    ours.iter()
        .any(|f| f.rule.id == rule && f.record.map(|r| (r.list, r.index)) == record)
}

fn global_of(t: &AnyTrack) -> i32 {
    match t {
        AnyTrack::Float(t) => t.global_sequence_id,
        AnyTrack::Vector3(t) => t.global_sequence_id,
        AnyTrack::Quaternion(t) => t.global_sequence_id,
        AnyTrack::Integer(t) => t.global_sequence_id,
    }
}

/// Every track of a record.
fn record_tracks<'a>(m: &'a Model, list: &str, i: usize) -> Vec<&'a Animation> {
    let mut v: Vec<&Animation> = Vec::new();
    macro_rules! node {
        ($field:ident $(+ $own:ident)?) => {{
            let x = &m.$field[i];
            v.extend(x.node.tracks.iter());
            $( v.extend(x.$own.iter()); )?
        }};
    }
    match list {
        "materials" => m.materials[i]
            .layers
            .iter()
            .for_each(|l| v.extend(l.tracks.iter())),
        "texture_animations" => v.extend(m.texture_animations[i].tracks.iter()),
        "geoset_animations" => v.extend(m.geoset_animations[i].tracks.iter()),
        "cameras" => v.extend(m.cameras[i].tracks.iter()),
        "bones" => node!(bones),
        "helpers" => node!(helpers),
        "lights" => node!(lights + tracks),
        "attachments" => node!(attachments + tracks),
        "particle_emitters" => node!(particle_emitters + tracks),
        "particle_emitters2" => node!(particle_emitters2 + tracks),
        "popcorn_emitters" => node!(popcorn_emitters + tracks),
        "ribbon_emitters" => node!(ribbon_emitters + tracks),
        "collision_shapes" => node!(collision_shapes),
        _ => {}
    }
    v
}

/// The m3v finding `Track K at frame F has ... the same value as tracks K-1 and K+1` is on
/// a key that the keys around it do not give back: the track sampled from keys K-1, K, K+1
/// and from K-1 and K+1 alone (with the track's interpolation and tangents; the sampler is
/// the one cross-checked against the `wc3` crate in tests/anim_vs_wc3.rs) differs by more
/// than 1e-6 (rotations compared as rotations) somewhere between K-1 and K+1, so
/// dropping K would move the animation.
/// How far a dropped key must move the track to count as moved: the fixer's bound is 1e-6,
/// measured for rotations as an angle (about twice the largest quaternion component
/// difference used here) and after float32 rounding, so a tenth of it is taken.
const MOVED: f32 = 1e-7;

fn key_shapes_the_curve(c: &Ctx, f: &M3v) -> bool {
    use mdlx::anim::{sample::sample_keys, Window};
    use mdlx::model::Track;
    fn moved<T: mdlx::anim::TrackValue>(
        t: &Track<T>,
        k: usize,
        frame: i32,
        diff: impl Fn(T, T) -> f32,
    ) -> bool {
        if k == 0 || k + 1 >= t.keys.len() || t.keys[k].time != frame {
            return false;
        }
        let three = [t.keys[k - 1], t.keys[k], t.keys[k + 1]];
        let ends = [t.keys[k - 1], t.keys[k + 1]];
        let (a, b, c) = (
            f64::from(three[0].time),
            f64::from(frame),
            f64::from(three[2].time),
        );
        // Every millisecond from K-1 to K+1 (at most 4000 moments, evenly spread).
        let step = ((c - a) / 4000.0).max(1.0);
        let moments = (0..)
            .map(|n| a + f64::from(n) * step)
            .take_while(|&t| t <= c);
        let _ = b;
        moments.into_iter().any(|at| {
            let w = Window {
                frame: at,
                lo: i64::MIN,
                hi: i64::MAX,
            };
            match (
                sample_keys(&three, t.interpolation, w),
                sample_keys(&ends, t.interpolation, w),
            ) {
                (Some(x), Some(y)) => diff(x, y) > MOVED,
                _ => false,
            }
        })
    }
    let Some((list, i)) = f.record else {
        return false;
    };
    let n = f.numbers();
    let (k, frame) = (n[0] as usize, n[1] as i32);
    let rel = |a: f32, b: f32| (a - b).abs() / a.abs().max(b.abs()).max(1.0);
    // A spline key is only dropped where the curve is flat: Hermite slopes of 0 for
    // scalars and vectors, tangents equal to the value for rotations and Bezier controls.
    fn curved<T: mdlx::anim::TrackValue + Copy>(
        t: &Track<T>,
        k: usize,
        flat: impl Fn(T, T) -> bool,
    ) -> bool {
        t.interpolation.has_tangents()
            && k > 0
            && k + 1 < t.keys.len()
            && !(flat(t.keys[k - 1].value, t.keys[k - 1].out_tan)
                && flat(t.keys[k].value, t.keys[k].in_tan)
                && flat(t.keys[k].value, t.keys[k].out_tan)
                && flat(t.keys[k + 1].value, t.keys[k + 1].in_tan))
    }
    let hermite = |t: mdlx::model::Interpolation| t == mdlx::model::Interpolation::Hermite;
    record_tracks(c.model, list, i).iter().any(|a| {
        let tag = a.tag.text();
        if !TRACK_NAMES
            .iter()
            .any(|&(t, name)| t == tag && name == f.leaf())
        {
            return false;
        }
        let tol = 1e-6;
        let spline_bends = match &a.track {
            AnyTrack::Float(t) => curved(t, k, |v, g| {
                if hermite(t.interpolation) {
                    g.abs() <= tol
                } else {
                    rel(v, g) <= tol
                }
            }),
            AnyTrack::Vector3(t) => curved(t, k, |v, g| {
                (0..3).all(|j| {
                    if hermite(t.interpolation) {
                        g[j].abs() <= tol
                    } else {
                        rel(v[j], g[j]) <= tol
                    }
                })
            }),
            AnyTrack::Quaternion(t) => curved(t, k, |v, g| (0..4).all(|j| rel(v[j], g[j]) <= tol)),
            AnyTrack::Integer(_) => false,
        };
        spline_bends
            || match &a.track {
                AnyTrack::Float(t) => moved(t, k, frame, rel),
                AnyTrack::Vector3(t) => moved(t, k, frame, |a, b| {
                    (0..3).map(|j| rel(a[j], b[j])).fold(0.0, f32::max)
                }),
                AnyTrack::Quaternion(t) => moved(t, k, frame, |a, b| {
                    // As rotations: unit length, and q the same as -q.
                    let unit = |q: [f32; 4]| {
                        let n = (q.iter().map(|x| x * x).sum::<f32>()).sqrt().max(1e-12);
                        q.map(|x| x / n)
                    };
                    let (a, b) = (unit(a), unit(b));
                    let sign = if (0..4).map(|j| a[j] * b[j]).sum::<f32>() < 0.0 {
                        -1.0
                    } else {
                        1.0
                    };
                    (0..4)
                        .map(|j| (a[j] - sign * b[j]).abs())
                        .fold(0.0, f32::max)
                }),
                AnyTrack::Integer(t) => moved(t, k, frame, |a, b| if a == b { 0.0 } else { 1.0 }),
            }
    })
}

/// The track an m3v track finding is under (by its record and m3v's track name).
fn track_of<'a>(c: &Ctx<'a>, f: &M3v) -> Option<&'a AnyTrack> {
    let (list, i) = f.record?;
    record_tracks(c.model, list, i).into_iter().find_map(|a| {
        let tag = a.tag.text();
        TRACK_NAMES
            .iter()
            .any(|&(t, name)| t == tag && name == f.leaf())
            .then_some(&a.track)
    })
}

fn times_of(t: &AnyTrack) -> Vec<i32> {
    match t {
        AnyTrack::Float(t) => t.keys.iter().map(|k| k.time).collect(),
        AnyTrack::Vector3(t) => t.keys.iter().map(|k| k.time).collect(),
        AnyTrack::Quaternion(t) => t.keys.iter().map(|k| k.time).collect(),
        AnyTrack::Integer(t) => t.keys.iter().map(|k| k.time).collect(),
    }
}

/// `*` matches any text.
fn glob(pat: &str, s: &str) -> bool {
    match pat.split_once('*') {
        None => pat == s,
        Some((head, rest)) => {
            let Some(s) = s.strip_prefix(head) else {
                return false;
            };
            (0..=s.len())
                .filter(|&j| s.is_char_boundary(j))
                .any(|j| glob(rest, &s[j..]))
        }
    }
}

/// Our rule for an m3v finding: Ok(rule) ("" for none), Err when the message is not in
/// [`MESSAGES`].
fn rule_of(kind: Option<&str>, message: &str) -> Result<&'static str, ()> {
    MESSAGES
        .iter()
        .find(|(pat, k, _)| k.is_none_or(|k| Some(k) == kind) && glob(pat, message))
        .map(|&(_, _, r)| r)
        .ok_or(())
}

/// Where mdx-m3-viewer is installed, or None (after saying why) to skip.
fn peer_node_dir() -> Option<PathBuf> {
    let ci = std::env::var_os("CI").is_some();
    let Some(bin) = std::env::var_os("MDLX_PEERS_BIN").filter(|v| !v.is_empty()) else {
        assert!(
            !ci,
            "MDLX_PEERS_BIN is not set under CI: run scripts/peer-mdl.sh first"
        );
        println!("check vs m3v skipped: MDLX_PEERS_BIN not set (scripts/test.sh sets it)");
        return None;
    };
    let dir = Path::new(&bin).join("../node");
    assert!(
        dir.join("node_modules/mdx-m3-viewer/package.json")
            .is_file(),
        "no mdx-m3-viewer in {} (MDLX_PEERS_BIN={}): run scripts/peer-mdl.sh",
        dir.display(),
        Path::new(&bin).display()
    );
    Some(dir)
}

/// A (file, rule, record) key; the record is None for the model.
type Key = (String, &'static str, Option<(&'static str, usize)>);

#[derive(Default)]
struct Row {
    m3v: usize,
    m3v_keys: BTreeSet<Key>,
    ours: usize,
    ours_keys: BTreeSet<Key>,
    missing: BTreeSet<Key>,
    extra: BTreeSet<Key>,
}

#[allow(
    clippy::too_many_lines,
    reason = "test code: the shape gate holds the sources only"
)]
#[test]
fn m3v_findings_are_ours_or_explained() {
    let Some(node_dir) = peer_node_dir() else {
        return;
    };
    // Every rule named exists.
    for &(pat, _, rule) in MESSAGES {
        assert!(
            rule.is_empty() || mdlx::check::rules::find(rule).is_some(),
            "MESSAGES: `{pat}` names no rule {rule}"
        );
    }
    let kind_list: BTreeMap<&str, &'static str> = KINDS.iter().copied().collect();
    let paths: Vec<PathBuf> = FILES
        .iter()
        .map(|(n, _)| common::corpus_dir().join("mdx").join(n))
        .collect();
    assert_eq!(paths.len(), 30);
    let out = Command::new("node")
        .arg(repo().join("tools/peer-sanity/sanity.js"))
        .arg(&node_dir)
        .args(&paths)
        .output()
        .expect("node runs (the peers are installed, so node should be on PATH)");
    assert!(
        out.status.success(),
        "sanity.js failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    // m3v's findings per file, and the files it could not read.
    let mut m3v: BTreeMap<String, Vec<M3v>> = BTreeMap::new();
    let mut done = BTreeSet::new();
    let mut unreadable: BTreeMap<String, String> = BTreeMap::new();
    let mut problems = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let file = common::name(Path::new(v["file"].as_str().unwrap()));
        if let Some(e) = v.get("error") {
            unreadable.insert(file, e.as_str().unwrap().to_owned());
        } else if v.get("done").is_some() {
            done.insert(file);
        } else {
            let kind = v["kind"].as_str();
            let record = kind.and_then(|k| {
                let list = kind_list
                    .get(k)
                    .unwrap_or_else(|| panic!("unknown m3v kind {k}"));
                Some((*list, v["index"].as_u64()? as usize))
            });
            m3v.entry(file).or_default().push(M3v {
                object: v["object"].as_str().unwrap().to_owned(),
                record,
                message: v["message"].as_str().unwrap().to_owned(),
            });
        }
    }

    let mut rows: BTreeMap<&'static str, Row> = BTreeMap::new();
    let mut known_used = vec![0usize; KNOWN.len()];
    let mut not_compared = Vec::new();
    let mut kinds: BTreeMap<Kind, usize> = BTreeMap::new();
    for path in &paths {
        let file = common::name(path);
        let model = mdlx::mdx::from_bytes(&std::fs::read(path).unwrap())
            .unwrap_or_else(|e| panic!("{file}: we cannot read it: {e}"));
        if let Some(e) = unreadable.get(&file) {
            match UNREADABLE.iter().find(|(v, _)| *v == model.version) {
                Some((_, why)) => not_compared.push(format!("{file}: {why}")),
                None => problems.push(format!("{file}: m3v cannot read it ({e}), unexplained")),
            }
            continue;
        }
        assert!(done.contains(&file), "sanity.js said nothing of {file}");
        // The corpus name is the repository path with `__` for `/`: its last part is the
        // file's own name, what `mdlx check` sees of a file in a map.
        let own_name = file.rsplit("__").next().unwrap_or(&file);
        let kind = mdlx::check::classify(&model, Some(own_name)).kind;
        *kinds.entry(kind).or_default() += 1;
        let ours = mdlx::check::check_as(&model, kind);
        let ctx = Ctx {
            model: &model,
            kind,
            ours: &ours,
        };
        for f in &ours {
            let key = (file.clone(), f.rule.id, f.record.map(|r| (r.list, r.index)));
            let row = rows.entry(f.rule.id).or_default();
            row.ours += 1;
            row.ours_keys.insert(key);
        }
        for f in m3v.get(&file).map(Vec::as_slice).unwrap_or_default() {
            let kind = f.object.split(' ').next().filter(|_| f.record.is_some());
            let Ok(rule) = rule_of(kind, &f.message) else {
                problems.push(format!(
                    "{file}: m3v message not in MESSAGES: {} | {}",
                    f.object, f.message
                ));
                continue;
            };
            let label = if rule.is_empty() { "(no rule)" } else { rule };
            let key = (file.clone(), label, f.record);
            let row = rows.entry(label).or_default();
            row.m3v += 1;
            row.m3v_keys.insert(key.clone());
            let matched = ours.iter().any(|o| {
                o.rule.id == rule
                    && (f.record.is_none() || o.record.map(|r| (r.list, r.index)) == f.record)
            });
            if matched {
                continue;
            }
            match KNOWN
                .iter()
                .position(|k| k.rule == rule && (k.holds)(&ctx, f))
            {
                Some(k) => {
                    known_used[k] += 1;
                    row.missing.insert(key);
                }
                None => problems.push(format!(
                    "{file}: m3v reports `{}` under `{}` ({label}), we do not, unexplained",
                    f.message, f.object
                )),
            }
        }
    }
    // What we have that m3v does not, per rule: a key of ours with no m3v finding of the
    // rule on that record (or at the model level in that file).
    for row in rows.values_mut() {
        let m3v_keys = &row.m3v_keys;
        row.extra = row
            .ours_keys
            .iter()
            .filter(|(file, rule, rec)| {
                !m3v_keys.contains(&(file.clone(), *rule, *rec))
                    && !m3v_keys.contains(&(file.clone(), *rule, None))
            })
            .cloned()
            .collect();
    }

    println!(
        "check vs m3v sanity tester, {} files; ours checked as {kinds:?}",
        paths.len()
    );
    println!("(findings; records = distinct (file, rule, record); m3v-only = m3v records we lack, all explained by KNOWN)");
    println!(
        "{:<34} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "rule", "m3v", "m3v rec", "ours", "ours rec", "m3v-only", "ours-only"
    );
    for (rule, r) in &rows {
        println!(
            "{:<34} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
            rule,
            r.m3v,
            r.m3v_keys.len(),
            r.ours,
            r.ours_keys.len(),
            r.missing.len(),
            r.extra.len()
        );
    }
    println!("\nexplained m3v findings we do not have:");
    for (k, n) in KNOWN.iter().zip(&known_used) {
        println!("  {:<26} {n:>5}  {}", k.rule, k.why);
    }
    println!("\nnot compared (m3v cannot read them):");
    for s in &not_compared {
        println!("  {s}");
    }
    println!("\nwhat we report that m3v does not (records, first three per rule):");
    for (rule, r) in &rows {
        if r.extra.is_empty() {
            continue;
        }
        let source = mdlx::check::rules::find(rule).map_or("", |r| r.source);
        println!("  {rule} ({}; source: {source})", r.extra.len());
        for (file, _, rec) in r.extra.iter().take(3) {
            let at = rec.map_or("model".to_owned(), |(l, i)| format!("{l}[{i}]"));
            println!("      {at}  {file}");
        }
    }

    for (k, n) in KNOWN.iter().zip(&known_used) {
        if *n == 0 {
            problems.push(format!(
                "KNOWN entry for {} explains nothing any more: remove it ({})",
                k.rule, k.why
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
