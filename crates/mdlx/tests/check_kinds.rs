//! What `mdlx::check::classify` makes of the corpus's MDX and MDL files.
//!
//! Prints the kinds over the corpus (with the decision-table rows that decided) and checks
//! the table two ways, neither of which is the table's own input:
//! - files whose folders say what they are (`Abilities\Spells\...`, `Effects\...`,
//!   `Doodads\...`, `Units\...`, `Fire_Missiles\...`, `InventoryItems\...`; the corpus
//!   name is the repository path with `__` for `/`): the table looks at the file's own
//!   name, never at its folders. Every disagreement must be in [`KNOWN`], with why.
//! - a sample verified by hand from the names and sequence lists ([`VERIFIED`]).
//!
//! Portraits are told by name (row 1), so the folder check cannot judge them; instead every
//! model taken for a portrait must have a camera, which the game frames a portrait with.

mod common;

use mdlx::check::{classify, Kind};
use std::collections::BTreeMap;

/// The kind a file's folders say, if they say one.
fn folder_kind(local_path: &str) -> Option<Kind> {
    let parts: Vec<String> = local_path
        .split_once('/')?
        .1
        .split("__")
        .map(str::to_lowercase)
        .collect();
    // Owner and repository first, the file last.
    let dirs = parts.get(2..parts.len().saturating_sub(1))?;
    for (i, d) in dirs.iter().enumerate() {
        let kind = match d.as_str() {
            "abilities" if dirs.get(i + 1).is_some_and(|n| n == "spells") => Kind::Effect,
            "effect" | "effects" | "sweep_attachments_fx" | "fire_static_fx" | "fire_spells" => {
                Kind::Effect
            }
            d if d.starts_with("effect_pack") => Kind::Effect,
            "doodads" => Kind::Doodad,
            "fire_missiles" => Kind::Missile,
            "inventoryitems" => Kind::Item,
            "units" => Kind::Unit,
            _ => continue,
        };
        return Some(kind);
    }
    None
}

/// Each corpus file's own name (the last part of its path in its repository, MANIFEST.tsv's
/// `path_in_repo`), by corpus path.
fn own_names() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(common::corpus_dir().join("MANIFEST.tsv")).unwrap();
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let own = f.get(6)?.rsplit('/').next()?;
            Some((f.get(7)?.to_string(), own.to_string()))
        })
        .collect()
}

/// Files whose folder says one kind and the table another: (own name, the table's kind,
/// why).
const KNOWN: &[(&str, Kind, &str)] = &[
    ("Firebolt Rough Medium.mdl", Kind::Effect,
     "a missile not named so (Fire_Missiles folder): Birth, Stand, Death and 11 emitters, made as effects are"),
    ("Firebolt Rough Medium_DL_00.mdl", Kind::Effect,
     "the same missile, another version"),
    ("OrbIceX.mdx", Kind::Item,
     "kept among a map's effects, but made as the game's item models: Birth, Death, Portrait, Stand and a camera"),
    ("ThunderLizardEgg.mdx", Kind::Effect,
     "an item not named so and without a Portrait sequence: Birth, Stand, Death, 2 emitters for 1 geoset"),
    ("NorthrendFissure0.mdx", Kind::Effect,
     "a doodad made as effects are: one emitter for its one geoset, Stand only"),
    ("A-Bomb.mdx", Kind::Missile,
     "in an Effect folder, but its model name holds missile and it has Birth only"),
    ("SlashMissile.mdx", Kind::Missile,
     "in an Effect folder, named a missile, with Birth, Stand and Death"),
];

/// Verified by hand from the file name, the model name and the sequence list (not from
/// the table's answer): (own name, kind, the evidence).
const VERIFIED: &[(&str, Kind, &str)] = &[
    (
        "HeroBloodelfRanger.mdx",
        Kind::Unit,
        "a hero: Walk, Attack, Death, Decay",
    ),
    (
        "BritishCitizen2.mdx",
        Kind::Unit,
        "a peasant: Stand Work, but also Walk and Attack",
    ),
    (
        "Halberdier.mdx",
        Kind::Unit,
        "a soldier: Walk, Attack, Decay Flesh",
    ),
    (
        "OrcBarracks4.mdx",
        Kind::Building,
        "a barracks: Birth, Stand Work, Decay, no Walk",
    ),
    (
        "Ember Forge_opt2.mdx",
        Kind::Building,
        "a forge: Stand Work, Birth, no Walk",
    ),
    (
        "VoodooLoungeDarkTrollV1.00.mdx",
        Kind::Building,
        "a shop building: Stand Work, no Walk",
    ),
    (
        "Tent.mdx",
        Kind::Doodad,
        "a tent: one mesh, Birth, Stand, Death",
    ),
    ("HFMRock_CaveA.mdx", Kind::Doodad, "rocks: Stand only"),
    (
        "fk_painting03.mdx",
        Kind::Doodad,
        "a clan banner painting: no sequences",
    ),
    (
        "FireNova2.mdx",
        Kind::Effect,
        "a nova: particle and ribbon emitters, no geoset",
    ),
    (
        "DemonAura.mdx",
        Kind::Effect,
        "an aura (model name UnholyAura): Stand only",
    ),
    (
        "ThunderclapCasterClassic.mdx",
        Kind::Effect,
        "a caster effect: Stand and a sequence named nothing",
    ),
    (
        "Kain_portrait.mdx",
        Kind::Portrait,
        "Portrait and Portrait Talk sequences, a camera",
    ),
    (
        "_U2.mdx",
        Kind::Portrait,
        "model name Proudmoore_Portrait, Portrait sequences only",
    ),
    (
        "KidTrunksSS.mdx",
        Kind::Portrait,
        "sequences portrait and stand only, a camera",
    ),
    (
        "CannonTowerMissile.mdx",
        Kind::Missile,
        "a tower's missile: Birth, Stand, Death",
    ),
    ("Saw Missile.mdx", Kind::Missile, "a thrown saw"),
    ("TornadoMissile.mdx", Kind::Missile, "a missile"),
    ("Item_Potion_Green.mdx", Kind::Item, "a potion item"),
    (
        "CheeseItem.mdx",
        Kind::Item,
        "an item: Birth, Death, Portrait, Stand - 1, Stand - 2",
    ),
    (
        "BigGreenPotion.mdx",
        Kind::Item,
        "Icons to Models pack: Birth, Death, Portrait, Stand and a camera",
    ),
];

#[test]
fn corpus_kinds_agree_with_folders_and_the_hand_checked_sample() {
    let mut per_kind: BTreeMap<Kind, BTreeMap<u8, usize>> = BTreeMap::new();
    let (mut agree, mut problems, mut known_seen) = (0, Vec::new(), vec![0usize; KNOWN.len()]);
    let mut verified_seen = vec![0usize; VERIFIED.len()];
    let mut portraits_without_camera = Vec::new();
    let mut samples: BTreeMap<Kind, Vec<String>> = BTreeMap::new();
    let (mut total, mut read) = (0, 0);
    let own = own_names();
    for row in common::model_rows() {
        total += 1;
        let data = common::read_row(&row);
        let Ok(loaded) = mdlx::read(&data, &mdlx::ReadOptions::default()) else {
            continue; // MDL fragments without a Model block (tests/check_corpus.rs lists them)
        };
        read += 1;
        let name = own[&row.local_path].as_str();
        let c = classify(&loaded.model, Some(name));
        *per_kind
            .entry(c.kind)
            .or_default()
            .entry(c.row)
            .or_default() += 1;
        let s = samples.entry(c.kind).or_default();
        if s.len() < 4 {
            s.push(format!("{name} ({})", c.why));
        }
        if c.kind == Kind::Portrait && loaded.model.cameras.is_empty() {
            portraits_without_camera.push(row.local_path.clone());
        }
        for (i, &(n, kind, _)) in VERIFIED.iter().enumerate() {
            if n == name {
                verified_seen[i] += 1;
                if c.kind != kind {
                    problems.push(format!(
                        "{name}: verified {kind}, found {} ({})",
                        c.kind, c.why
                    ));
                }
            }
        }
        // A portrait is told by its name, which the table reads too: judged by its camera
        // below, not by its folder (portraits sit beside their units).
        let named_portrait = name
            .rsplit_once('.')
            .is_some_and(|(stem, _)| stem.to_lowercase().ends_with("portrait"));
        let Some(folder) = folder_kind(&row.local_path).filter(|_| !named_portrait) else {
            continue;
        };
        if folder == c.kind {
            agree += 1;
            continue;
        }
        match KNOWN.iter().position(|&(n, k, _)| n == name && k == c.kind) {
            Some(i) => known_seen[i] += 1,
            None => problems.push(format!(
                "{}: the folder says {folder}, the table {} (row {}: {})",
                row.local_path, c.kind, c.row, c.why
            )),
        }
    }
    println!("kinds of the corpus's {total} MDX and MDL files ({read} read; the others are MDL fragments):");
    for (kind, rows) in &per_kind {
        let n: usize = rows.values().sum();
        let rows: Vec<String> = rows.iter().map(|(r, n)| format!("row {r}: {n}")).collect();
        println!("  {:<9} {n:>4}  ({})", kind.name(), rows.join(", "));
    }
    println!("first files of each kind:");
    for (kind, s) in &samples {
        println!("  {kind}: {}", s.join("; "));
    }
    let known: usize = known_seen.iter().sum();
    println!(
        "folders: {} files say a kind; the table agrees on {agree}, differs on {known} (known):",
        agree
            + known
            + problems
                .iter()
                .filter(|p| p.contains("the folder says"))
                .count()
    );
    for ((n, k, why), seen) in KNOWN.iter().zip(&known_seen) {
        println!("  {n}: {k} ({seen}x): {why}");
    }
    println!(
        "hand-verified sample: {} names, {} files",
        VERIFIED.len(),
        verified_seen.iter().sum::<usize>()
    );
    for ((n, _, _), seen) in VERIFIED.iter().zip(&verified_seen) {
        if *seen == 0 {
            problems.push(format!("VERIFIED {n}: no such corpus file"));
        }
    }
    for ((n, _, _), seen) in KNOWN.iter().zip(&known_seen) {
        if *seen == 0 {
            problems.push(format!("KNOWN {n}: explains nothing any more"));
        }
    }
    for p in &portraits_without_camera {
        problems.push(format!("{p}: taken for a portrait, but has no camera"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(
        read,
        per_kind.values().flat_map(|r| r.values()).sum::<usize>()
    );
}
