use super::names::{game_name, words};
use super::*;
use crate::model::{AnyTrack, Interpolation, Key, Sequence, Track, Tracks, SEQUENCE_NON_LOOPING};

#[test]
fn words_split_at_case_digits_and_punctuation() {
    assert_eq!(
        words("mixamo.com|RunCycle2"),
        ["mixamo", "com", "run", "cycle", "2"]
    );
    assert_eq!(words("Armature|Idle"), ["armature", "idle"]);
}

#[test]
fn the_table_names_common_animations() {
    assert_eq!(game_name("Armature|Idle"), Some("Stand"));
    assert_eq!(game_name("Die_Forward"), Some("Death"));
    assert_eq!(game_name("attack_01"), Some("Attack"));
    assert_eq!(game_name("Walking"), Some("Walk"));
    assert_eq!(game_name("Animation 0"), None);
    // "rest" is a whole word only: "Forest" is not Stand.
    assert_eq!(game_name("Forest"), None);
}

fn seq(name: &str, a: u32, b: u32) -> Sequence {
    Sequence {
        name: FixedString::from(name),
        interval: [a, b],
        ..Default::default()
    }
}

fn names(m: &Model) -> Vec<String> {
    m.sequences
        .iter()
        .map(|s| s.name.text().into_owned())
        .collect()
}

#[test]
fn names_map_decorate_and_renames_win() {
    let mut m = Model {
        sequences: vec![
            seq("Idle", 0, 100),
            seq("Breathing", 1000, 1100),
            seq("Run", 2000, 2100),
            seq("Walk", 3000, 3100),
            seq("Survey", 4000, 4100),
            seq("Wave", 5000, 5100),
        ],
        ..Default::default()
    };
    let opts = ReadyOptions {
        renames: parse_renames("survey=Spell Slam").unwrap(),
        chosen: false,
    };
    let mut notes = Vec::new();
    name_sequences(&mut m, &opts, &mut notes);
    assert_eq!(
        names(&m),
        [
            "Stand",
            "Stand - 2",
            "Walk Fast",
            "Walk",
            "Spell Slam",
            "Wave"
        ]
    );
    assert!(notes
        .iter()
        .any(|n| n.what.contains("\"Wave\" is not a name")));
}

#[test]
fn a_standing_model_gets_a_stand_and_no_death() {
    // Only a Stand: check takes it for a doodad, which needs no Death.
    let mut m = Model {
        sequences: vec![seq("Animation 0", 0, 1000)],
        ..Default::default()
    };
    let notes = finish(&mut m, &ReadyOptions::default());
    assert_eq!(names(&m), ["Stand"], "{notes:?}");
    assert!(crate::check::check(&m)
        .iter()
        .all(|f| f.severity() != crate::check::Severity::Error));
}

#[test]
fn a_unit_gets_a_stand_a_death_and_opening_keys() {
    // A walk makes it a unit, which needs a Death.
    let mut m = Model {
        sequences: vec![seq("Animation 0", 0, 1000), seq("walk cycle", 1500, 2500)],
        ..Default::default()
    };
    m.bones.push(crate::model::Bone::default());
    m.bones[0].node.tracks = Tracks(vec![crate::model::Animation {
        tag: crate::spec::track::KGTR,
        track: AnyTrack::Vector3(Track {
            interpolation: Interpolation::Linear,
            global_sequence_id: -1,
            keys: vec![
                Key::at(200, [1.0, 0.0, 0.0]),
                Key::at(500, [2.0, 0.0, 0.0]),
                Key::at(800, [3.0, 0.0, 0.0]),
                Key::at(1000, [4.0, 0.0, 0.0]),
            ],
        }),
    }]);
    let notes = finish(&mut m, &ReadyOptions::default());
    assert_eq!(names(&m), ["Stand", "walk cycle", "Death"], "{notes:?}");
    assert_eq!(m.sequences[2].interval, [3000, 4000]);
    assert_eq!(m.sequences[2].flags, SEQUENCE_NON_LOOPING);
    let AnyTrack::Vector3(t) = &m.bones[0].node.tracks.0[0].track else {
        unreachable!()
    };
    let keys: Vec<(i32, f32)> = t.keys.iter().map(|k| (k.time, k.value[0])).collect();
    // An opening key at 0, the key at 500 on the line from 200 to 800 dropped, the
    // Death holding the Stand's first value.
    assert_eq!(
        keys,
        [(0, 1.0), (200, 1.0), (800, 3.0), (1000, 4.0), (3000, 1.0)]
    );
    assert!(crate::check::check(&m)
        .iter()
        .all(|f| f.rule.id != "missing-opening-key" && f.rule.id != "redundant-key"));
}
