//! What mdx-m3-viewer (`m3v`) and war3-model (`w3m`) get wrong about MDL and MDX, each with
//! the evidence that the fault is theirs: the reasons that `peer_mdl.rs` (their MDL of an
//! MDX against ours) and `peer_reads_our_mdl.rs` (their MDX from our MDL against their MDX
//! from the original) give for the differences they list as known.

/// PRE2 emitter-area floats. Settled for our mapping: the first MDX float (after
/// EmissionRate) and the KP2N track are `Length`, the second float and KP2W are `Width`.
/// - The first float goes with KP2N, the second with KP2W: `mashlol ArcaneWave.mdx` has
///   both tracks, and its statics equal their first keys (99.3883 = KP2N[0], 366.136 =
///   KP2W[0]); see `evidence_pre2_area_floats`. MdxLib (Magos' later library, v1.04) reads
///   and writes them as one property each (first float + KP2N = Length, second + KP2W =
///   Width), so does the `wc3` crate.
/// - KP2N is `Length`: the tag letters (W for Width; N for leNgth, L being Latitude's
///   KP2L), MdxLib, war3-model, `wc3`, and two MDL/MDX twins: MdlxConv's
///   `tdauth Alliance_Exp.mdl` (first float 0.068777 printed `static Length 0.068777`,
///   second 6.10815 as `Width`; the whole file reads back equal to its MDX) and the
///   war3mdlx fixture pair `zengfanfan all.mdl`/`.mdx` (`static Length 6` is the first
///   float, the `Length` track is KP2N).
/// - Against it: Magos' War3 Model Editor 1.07 prints the first float as `Width`
///   (`Amrf000 HeroBladeMaster.mdl.txt` 5.2/5.244, `PackHorse_magos.mdl` 10/40), as
///   mdx-m3-viewer does; MdxLib, by the same author, uses our mapping.
///   mdx-m3-viewer also calls KP2N `Width` (self-consistent, against the tag letters);
///   war3-model calls the first float `Width` but KP2N `Length`, pairing the first float
///   with KP2W, which ArcaneWave contradicts.
pub(crate) const PRE2_AREA: &str =
    "PRE2 width/length: the tool calls the first MDX area float (m3v: and \
     the KP2N track) `Width`, we call it `Length`; evidence in the doc of PRE2_AREA";

/// `DontInherit { Rotation }` is bit 0x2 and `{ Scaling }` 0x4 (we, MdxLib, war3-model, the
/// `wc3` crate); mdx-m3-viewer has them the other way round. Evidence: the twin
/// `Amrf000 HeroBladeMaster.mdx.txt`/`.mdl.txt` (Magos' War3 Model Editor): helpers `bone
/// temp01/02` carry bit 0x4 and the MDL says `DontInherit { Scaling }` (see
/// `evidence_dont_inherit_bits`); Blizzard's `Chest Ref`/`Weapon Ref` attachments carry
/// 0x4 in `Halberdier.mdx` and are `DontInherit { Scaling }` in Magos' `HeroArchMage.mdl.txt`.
pub(crate) const DONT_INHERIT: &str =
    "m3v has DontInherit Rotation (0x2) and Scaling (0x4) swapped; \
     evidence in the doc of DONT_INHERIT";

pub(crate) const BESIDE_TRACK: &str =
    "the tool keeps one value per animated property: it drops the \
     static value an MDX record holds beside the track (we keep both)";

pub(crate) const NOT_UTF8: &str =
    "m3v decodes MDX strings as UTF-8: names in other encodings (GBK \
     here) come out with U+FFFD; war3-model keeps the bytes";

/// Animated color keys are printed in stored MDX order, static colors reversed. Twins:
/// Magos' War3 Model Editor `Flamestrike_I_00.mdl` reads back to exactly
/// `Flamestrike_I_00.mdx` (4 KGAC tracks, keys such as `1200: { 0.6, 0.6, 1 }`),
/// MdlxConv's `Alliance_Exp.mdl` likewise (2 KGAC tracks); mdx-m3-viewer agrees (see
/// `evidence_color_order`). war3-model (and MdxLib) reverse the keys and tangents too.
pub(crate) const KEY_COLORS: &str =
    "w3m reverses animated color keys and tangents (ours, m3v, Magos' \
     War3 Model Editor and MdlxConv print them in stored order); evidence in the doc of \
     KEY_COLORS";

/// A static Fresnel or popcorn color is printed reversed like every other static color:
/// the Reforged twin `riflemanSAWING.mdl`/`.mdx` prints the MDX Fresnel color [0.2, 0.8, 0]
/// as `{ 0.0, 0.8, 0.2 }` (see `evidence_color_order`); war3-model reverses both too.
/// mdx-m3-viewer reverses the classic static colors (its `writeColor`) but writes these
/// two Reforged fields with `writeVectorAttrib`, unreversed.
pub(crate) const REFORGED_COLORS: &str = "m3v does not reverse the Reforged static colors \
     (FresnelColor, popcorn Color) as it does the others; evidence in the doc of \
     REFORGED_COLORS";

pub(crate) const GEOA_WHITE: &str =
    "the tool writes a geoset animation's static Color only when it is \
     not white, dropping the UseColor flag (0x2) of a white one (no visible change)";

/// Files whose LITE chunk declares only its fixed part while the light's tracks follow
/// it, past the chunk's end (we read them; mdx-m3-viewer refuses the files): war3-model
/// stops the light at the declared end, loses its tracks and everything after the chunk.
pub(crate) const LITE_OVERFLOW: &[&str] = &[
    "AMISD666__War3ModelView__testmodel__nwdg32",
    "Bergi-bear__roguelike__map.w3x__DNCLordaeron",
    "Gohagga__CrazySummonersWc3__maps__map.w3x__LibertyEdited2",
    "Gohagga__CrazySummonersWc3__maps__map.w3x__LibertyMiddleless",
    "dbz-tribute-reforged__dbz-tribute-reforged__maps__Tribute_Reforged.w3x__FountainOfSouls@294411b2",
];

pub(crate) const LITE_LOST: &str =
    "w3m stops at the LITE chunk's declared size; the light's tracks \
     and the chunks after it are lost (see LITE_OVERFLOW)";
