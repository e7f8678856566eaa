//! What a model is for: a unit, a building, a doodad, an effect, a portrait, a missile or
//! an item, told from its sequences, its nodes and its name.
//!
//! The game asks different things of each: a unit plays Death when it dies, an effect is
//! destroyed with or without one, a portrait plays Portrait sequences through a camera.
//! [`classify`] decides the kind; the rules of [`super::rules`] then take their severity
//! for that kind ([`super::Rule::severity_for`]).
//!
//! # The decision table
//!
//! The first row that holds decides. "Name" is the model's own name and the file's name
//! without its folder and extension, both in lower case. "Words" are the first words of
//! the sequence names as the game matches them (`Stand Work - 2` is `stand`, `Alternate
//! Walk` is `walk`), counting only the words the game plays by name (a sequence named
//! `Nothing` or `huise` says nothing). Emitters are particle emitters (both kinds), ribbon
//! emitters and popcorn emitters. A glowing layer is additive, add-alpha, modulated,
//! unshaded or unfogged: what effects are drawn with and meshes that take light are not.
//!
//! | # | Kind      | When                                                                                  |
//! |---|-----------|---------------------------------------------------------------------------------------|
//! | 1 | portrait  | the name ends in `portrait` (`Kain_portrait`, `HeroPortrait`)                         |
//! | 2 | portrait  | there are Portrait sequences and every word is `portrait` or `stand`                  |
//! | 3 | missile   | the name holds `missile` and every word is `birth`, `stand` or `death`                |
//! | 4 | building  | a sequence name holds `work`, `upgrade` or `construct`, and no word is `walk`         |
//! |   |           | (`Stand Work`, `Stand Upgrade First`; a worker unit that has them also walks)         |
//! | 5 | unit      | a word is `walk`, `attack`, `decay`, `dissipate` or `sleep`                           |
//! | 6 | item      | the name holds `item` or `powerup`, or the words are exactly Birth, Death, Portrait   |
//! |   |           | and Stand (how the game's item models are made: the camera frames the item's icon)   |
//! | 7 | effect    | every word is `birth`, `stand`, `death` or `spell`, and: there are emitters and no    |
//! |   |           | more geosets than emitters, or at least half the layers glow, or there are sequences  |
//! |   |           | but no geoset, or the name holds an effect word (below)                               |
//! | 8 | doodad    | every word is `stand`, `death` or `birth` (or there are none)                         |
//! | 9 | unit      | anything else (what mdx-m3-viewer and War3 Model Tuner assume of every model)        |
//!
//! Effect words: `effect`, `fx`, `aura`, `buff`, `nova`, `explosion`, `impact`, `caster`,
//! `target`, `spell`, `missile`, `bolt`, `blast`, `slash`, `shield`, `ring`.
//!
//! `tests/check_kinds.rs` measures the table over the corpus and checks it on files whose
//! folder says what they are (`Abilities\Spells\...`, `Doodads\...`, `Units\...`): the
//! table never looks at folders. A missile and an effect are made alike (Birth, Stand,
//! Death, emitters); only the name tells them apart, so a missile not named so is taken
//! for an effect, which asks the same of it but an info for a missing Death.

use super::anim::{sequence_word, STANDARD};
use crate::model::{filter_mode, layer_flags, Model};
use std::fmt;

/// What a model is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A unit: walks, attacks, dies and decays.
    Unit,
    /// A building: constructed (Birth), works, upgrades, is destroyed.
    Building,
    /// A doodad or destructible: stands; a destructible dies.
    Doodad,
    /// A special effect: born, stands, dies, mostly emitters and ribbons.
    Effect,
    /// A portrait: Portrait sequences framed by a camera.
    Portrait,
    /// A missile: born, flies (Stand), dies on impact.
    Missile,
    /// An item lying on the ground.
    Item,
}

impl Kind {
    /// Every kind, in the order of the enum.
    pub const ALL: [Kind; 7] = [
        Kind::Unit,
        Kind::Building,
        Kind::Doodad,
        Kind::Effect,
        Kind::Portrait,
        Kind::Missile,
        Kind::Item,
    ];

    /// `unit`, `building`, `doodad`, `effect`, `portrait`, `missile` or `item`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Unit => "unit",
            Kind::Building => "building",
            Kind::Doodad => "doodad",
            Kind::Effect => "effect",
            Kind::Portrait => "portrait",
            Kind::Missile => "missile",
            Kind::Item => "item",
        }
    }

    /// The kind of this name (any case), if it is one of [`Kind::name`]'s.
    pub fn from_name(name: &str) -> Option<Kind> {
        let lower = name.trim().to_ascii_lowercase();
        Kind::ALL.into_iter().find(|k| k.name() == lower)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind [`classify`] decided, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classification {
    /// The kind.
    pub kind: Kind,
    /// The row of the decision table (module docs) that decided, 1 to 9.
    pub row: u8,
    /// What decided it, in a few words (`Walk and Attack sequences`, `name ends in portrait`).
    pub why: String,
}

/// Words in a name that say "effect" (module docs, row 7).
const EFFECT_WORDS: &[&str] = &[
    "effect",
    "fx",
    "aura",
    "buff",
    "nova",
    "explosion",
    "impact",
    "caster",
    "target",
    "spell",
    "missile",
    "bolt",
    "blast",
    "slash",
    "shield",
    "ring",
];

/// What the table looks at.
struct Facts {
    /// The model's name and the file stem, lower case, joined by a space.
    names: Vec<String>,
    /// The distinct sequence words the game plays by name, in model order.
    words: Vec<String>,
    /// The sequence names, lower case.
    full: Vec<String>,
    emitters: usize,
    geosets: usize,
    /// Layers, and how many of them glow.
    layers: usize,
    glowing: usize,
}

impl Facts {
    fn of(model: &Model, file_name: Option<&str>) -> Facts {
        let mut names = vec![model.info.name.text().trim().to_lowercase()];
        if let Some(f) = file_name {
            names.push(stem(f).trim().to_lowercase());
        }
        names.retain(|n| !n.is_empty());
        let mut words: Vec<String> = Vec::new();
        for s in &model.sequences {
            let w = sequence_word(&s.name.text());
            if STANDARD.contains(&w.as_str()) && !words.contains(&w) {
                words.push(w);
            }
        }
        let layers = model.materials.iter().flat_map(|m| &m.layers);
        let glows = |l: &&crate::model::Layer| {
            l.filter_mode >= filter_mode::ADDITIVE
                || l.flags & (layer_flags::UNSHADED | layer_flags::UNFOGGED) != 0
        };
        Facts {
            names,
            words,
            full: model
                .sequences
                .iter()
                .map(|s| s.name.text().to_lowercase())
                .collect(),
            emitters: model.particle_emitters.len()
                + model.particle_emitters2.len()
                + model.ribbon_emitters.len()
                + model.popcorn_emitters.len(),
            geosets: model.geosets.len(),
            layers: layers.clone().count(),
            glowing: layers.filter(glows).count(),
        }
    }

    fn name_ends(&self, s: &str) -> bool {
        self.names.iter().any(|n| n.ends_with(s))
    }

    fn name_holds(&self, s: &str) -> bool {
        self.names.iter().any(|n| n.contains(s))
    }

    fn has_word(&self, w: &str) -> bool {
        self.words.iter().any(|x| x == w)
    }

    /// Whether every word is one of `allowed` (true without sequences).
    fn only(&self, allowed: &[&str]) -> bool {
        self.words.iter().all(|w| allowed.contains(&w.as_str()))
    }

    /// The words present among `of`, capitalised and joined: `Walk and Attack`.
    fn listed(&self, of: &[&str]) -> String {
        let found: Vec<String> = of
            .iter()
            .filter(|w| self.has_word(w))
            .map(|w| capital(w))
            .collect();
        join_and(&found)
    }

    /// A name word of the effect list, if the name holds one.
    fn effect_word(&self) -> Option<&'static str> {
        EFFECT_WORDS.iter().copied().find(|w| self.name_holds(w))
    }
}

/// The last component of a path without its extension (and a `.txt` after it):
/// `a\b\Kain_portrait.mdx` and `HeroArchMage.mdl.txt` give `Kain_portrait`, `HeroArchMage`.
fn stem(path: &str) -> &str {
    let last = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let lower = last.to_ascii_lowercase();
    let last = match lower.strip_suffix(".txt") {
        Some(s) => &last[..s.len()],
        None => last,
    };
    last.rsplit_once('.').map_or(last, |(s, _)| s)
}

fn capital(w: &str) -> String {
    let mut c = w.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn join_and(v: &[String]) -> String {
    match v {
        [] => String::new(),
        [a] => a.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Decides what `model` is for (module docs: the decision table). `file_name` is the
/// file's name or path, if any: only its last component, without extension, is looked at.
pub fn classify(model: &Model, file_name: Option<&str>) -> Classification {
    let f = Facts::of(model, file_name);
    let done = |kind, row, why: String| Classification { kind, row, why };
    if f.name_ends("portrait") {
        return done(Kind::Portrait, 1, "the name ends in portrait".into());
    }
    if f.has_word("portrait") && f.only(&["portrait", "stand"]) {
        return done(
            Kind::Portrait,
            2,
            "only Portrait (and Stand) sequences".into(),
        );
    }
    if f.name_holds("missile") && f.only(&["birth", "stand", "death"]) {
        let seqs = f.listed(&["birth", "stand", "death"]);
        let why = if seqs.is_empty() {
            "the name says missile; no sequences".into()
        } else {
            format!("the name says missile; {seqs} sequences only")
        };
        return done(Kind::Missile, 3, why);
    }
    let building_word = ["work", "upgrade", "construct"]
        .into_iter()
        .find(|w| f.full.iter().any(|n| n.contains(w)));
    if let Some(w) = building_word.filter(|_| !f.has_word("walk")) {
        let why = format!("a sequence named with \"{w}\" and none that walks");
        return done(Kind::Building, 4, why);
    }
    let unit = ["walk", "attack", "decay", "dissipate", "sleep"];
    if unit.iter().any(|w| f.has_word(w)) {
        return done(Kind::Unit, 5, format!("{} sequences", f.listed(&unit)));
    }
    if let Some(w) = ["item", "powerup"].into_iter().find(|w| f.name_holds(w)) {
        return done(Kind::Item, 6, format!("the name says {w}"));
    }
    let item = ["birth", "death", "portrait", "stand"];
    if item.iter().all(|w| f.has_word(w)) && f.only(&item) {
        return done(
            Kind::Item,
            6,
            "Birth, Death, Portrait and Stand sequences, as the game's items have".into(),
        );
    }
    if f.only(&["birth", "stand", "death", "spell"]) {
        let what = if f.emitters > 0 && f.emitters >= f.geosets {
            Some(format!("{} emitters, {} geosets", f.emitters, f.geosets))
        } else if f.geosets > 0 && f.layers > 0 && f.glowing * 2 >= f.layers {
            Some(format!("{} of {} layers glow", f.glowing, f.layers))
        } else if f.geosets == 0 && !f.words.is_empty() {
            Some("no geosets".to_owned())
        } else {
            f.effect_word().map(|w| format!("the name says {w}"))
        };
        if let Some(what) = what {
            let seqs = f.listed(&["birth", "stand", "death", "spell"]);
            let why = if seqs.is_empty() {
                format!("{what}, no sequences")
            } else {
                format!("{what}, {seqs} sequences only")
            };
            return done(Kind::Effect, 7, why);
        }
    }
    if f.only(&["stand", "death", "birth"]) {
        let why = if f.words.is_empty() {
            "a mesh without sequences".to_owned()
        } else {
            format!(
                "a mesh with {} sequences only",
                f.listed(&["birth", "stand", "death"])
            )
        };
        return done(Kind::Doodad, 8, why);
    }
    done(
        Kind::Unit,
        9,
        "nothing says otherwise (the default, as other checkers assume)".into(),
    )
}
