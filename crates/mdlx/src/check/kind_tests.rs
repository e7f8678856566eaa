//! The severity of each kind-dependent rule for each kind, on the clean model of
//! `tests.rs` with one thing taken away, against the table of the module docs (written
//! out again here, so a change to the rule table must be made in both places).

use super::tests::clean;
use super::*;
use crate::model::{Extent, RibbonEmitter, Sequence};

/// The severity `rule` has in `m` checked as `kind`, or None when it does not fire.
fn severity(m: &Model, kind: Kind, rule: &str) -> Option<Severity> {
    let found: Vec<Severity> = check_as(m, kind)
        .iter()
        .filter(|f| f.rule.id == rule)
        .map(|f| f.severity)
        .collect();
    assert!(found.len() <= 1, "{rule} fired {} times", found.len());
    found.first().copied()
}

use Severity::{Error as E, Info as I, Warning as W};

/// Per kind, in the order of [`Kind::ALL`]: unit, building, doodad, effect, portrait,
/// missile, item.
type Row = [Option<Severity>; 7];

fn expect(m: &Model, rule: &str, row: Row) {
    for (kind, want) in Kind::ALL.into_iter().zip(row) {
        assert_eq!(severity(m, kind, rule), want, "{rule} for a {kind}");
    }
}

#[test]
fn a_missing_death_is_an_error_for_units_and_buildings_only() {
    let mut m = clean();
    m.sequences.remove(1);
    m.geosets[0].sequence_extents.pop();
    expect(
        &m,
        "missing-death-sequence",
        [Some(E), Some(E), Some(I), None, None, Some(I), Some(I)],
    );
}

#[test]
fn a_missing_stand_is_an_error_for_units_and_buildings_and_nothing_for_portraits() {
    let mut m = clean();
    m.sequences.remove(0);
    m.geosets[0].sequence_extents.pop();
    expect(
        &m,
        "missing-stand-sequence",
        [Some(E), Some(E), Some(W), Some(W), None, Some(W), Some(W)],
    );
}

#[test]
fn origin_walk_portrait_and_no_sequences_by_kind() {
    let mut m = clean();
    m.attachments[0].node.name = "Chest Ref".into();
    expect(
        &m,
        "missing-origin-attachment",
        [Some(W), Some(W), None, None, None, None, None],
    );
    // The clean model has neither Walk nor Portrait sequences.
    let m = clean();
    expect(
        &m,
        "missing-walk-sequence",
        [Some(W), None, None, None, None, None, None],
    );
    expect(
        &m,
        "missing-portrait-sequence",
        [None, None, None, None, Some(W), None, None],
    );
    let mut m = clean();
    m.sequences.clear();
    m.bones[0].node.tracks.0.clear();
    m.geosets[0].sequence_extents.clear();
    expect(
        &m,
        "no-sequences",
        [Some(W), Some(W), None, Some(W), Some(W), Some(W), Some(W)],
    );
}

#[test]
fn other_rules_keep_their_severity_for_every_kind() {
    for r in RULES {
        let kind_dependent = [
            "no-sequences",
            "missing-stand-sequence",
            "missing-death-sequence",
            "missing-walk-sequence",
            "missing-portrait-sequence",
            "missing-origin-attachment",
        ];
        if kind_dependent.contains(&r.id) {
            assert!(!r.kinds.is_empty(), "{}", r.id);
            continue;
        }
        for k in Kind::ALL {
            assert_eq!(r.severity_for(k), Some(r.severity), "{} for a {k}", r.id);
        }
    }
    // A finding's severity is the rule's for the kind: a vertex without a node is an
    // error whatever the model is.
    let mut m = clean();
    m.geosets[0].vertex_groups[1] = 255;
    for k in Kind::ALL {
        assert_eq!(severity(&m, k, "vertex-unattached"), Some(E), "{k}");
    }
}

#[test]
fn the_clean_model_is_a_doodad_and_kinds_round_trip_by_name() {
    let c = classify(&clean(), None);
    assert_eq!((c.kind, c.row), (Kind::Doodad, 8), "{c:?}");
    for k in Kind::ALL {
        assert_eq!(Kind::from_name(k.name()), Some(k));
        assert_eq!(Kind::from_name(&k.name().to_uppercase()), Some(k));
    }
    assert_eq!(Kind::from_name("tree"), None);
}

/// The clean model with these sequences (one extent each, so nothing else changes).
fn with_sequences(names: &[&str]) -> Model {
    let mut m = clean();
    m.sequences = names
        .iter()
        .enumerate()
        .map(|(i, n)| Sequence {
            name: (*n).into(),
            interval: [i as u32 * 1000, i as u32 * 1000 + 500],
            ..Sequence::default()
        })
        .collect();
    m.geosets[0].sequence_extents = vec![Extent::default(); names.len()];
    m
}

#[test]
fn each_row_of_the_decision_table() {
    let row = |m: &Model, file: Option<&str>| {
        let c = classify(m, file);
        (c.kind, c.row)
    };
    let m = clean();
    assert_eq!(
        row(&m, Some("units\\Footman_Portrait.mdx")),
        (Kind::Portrait, 1)
    );
    let m = with_sequences(&["Portrait", "Portrait Talk", "Stand"]);
    assert_eq!(row(&m, None), (Kind::Portrait, 2));
    let m = with_sequences(&["Birth", "Stand", "Death"]);
    assert_eq!(row(&m, Some("ArrowMissile.mdl")), (Kind::Missile, 3));
    // Without the name the same model is a doodad (a lit mesh, no emitters).
    assert_eq!(row(&m, Some("Arrow.mdl")), (Kind::Doodad, 8));
    let m = with_sequences(&["Stand", "Stand Work", "Birth", "Death", "Decay"]);
    assert_eq!(row(&m, None), (Kind::Building, 4));
    // A worker has Stand Work too, but walks.
    let m = with_sequences(&["Stand", "Stand Work", "Walk", "Death"]);
    assert_eq!(row(&m, None), (Kind::Unit, 5));
    let m = with_sequences(&["Stand", "Attack - 1", "Death"]);
    assert_eq!(row(&m, None), (Kind::Unit, 5));
    let m = with_sequences(&["Stand", "Death"]);
    assert_eq!(row(&m, Some("PowerupTome.mdx")), (Kind::Item, 6));
    let m = with_sequences(&["Birth", "Death", "Portrait", "Stand - 1", "Stand - 2"]);
    assert_eq!(row(&m, None), (Kind::Item, 6));
    // Effects: emitters, glowing layers, no geoset, or the name.
    let mut m = with_sequences(&["Birth", "Stand", "Death"]);
    m.ribbon_emitters.push(RibbonEmitter::default());
    assert_eq!(row(&m, None), (Kind::Effect, 7));
    let mut m = with_sequences(&["Stand"]);
    m.materials[0].layers[0].filter_mode = crate::model::filter_mode::ADDITIVE;
    assert_eq!(row(&m, None), (Kind::Effect, 7));
    let mut m = with_sequences(&["Birth"]);
    m.geosets.clear();
    assert_eq!(row(&m, None), (Kind::Effect, 7));
    let m = with_sequences(&["Stand"]);
    assert_eq!(row(&m, Some("HolyNova.mdx")), (Kind::Effect, 7));
    // A sequence name the game does not play says nothing.
    let m = with_sequences(&["Stand", "Nothing"]);
    assert_eq!(row(&m, None), (Kind::Doodad, 8));
    let m = with_sequences(&["Stand", "Morph"]);
    assert_eq!(row(&m, None), (Kind::Unit, 9));
}
