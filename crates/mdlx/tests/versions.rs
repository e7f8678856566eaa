//! Version conversion within Warcraft III ([`Model::to_version`]) over the corpus: every
//! MDX of the Warcraft family goes up to 1800 and back to its own version. Where neither
//! step reports a loss, the result is byte-identical to the file; the 1800 model writes
//! and reads back byte-identical too. Losses are counted by what they are. Every other
//! version above the file's own is a stop on the way up: 800 -> 900 -> 1000 -> ... -> 1800
//! gives the same bytes as 800 -> 1800 directly. The `wc3` crate, which knows 1800, reads
//! every 1800 file made from an original it reads, and writes it back byte-identical
//! whenever it does so with the original.

mod common;

use mdlx::model::Model;
use std::collections::BTreeMap;

fn rewrite(m: &Model) -> Vec<u8> {
    mdlx::mdx::to_bytes(m).unwrap()
}

#[test]
fn corpus_up_to_1800_and_back() {
    let mut by_version: BTreeMap<u32, [usize; 3]> = BTreeMap::new();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut wc3_reads = [0usize; 4];
    let mut wc3_rewrites = Vec::new();
    let mut wc3_refused = Vec::new();
    for row in common::manifest().iter().filter(|r| r.format == "mdx") {
        let data = std::fs::read(common::corpus_dir().join(&row.local_path)).unwrap();
        let Ok(model) = mdlx::mdx::from_bytes(&data) else {
            continue; // the alpha family: not a Warcraft III model
        };
        let from = model.version;
        let (up, mut losses) = model.to_version(1800).unwrap();
        assert_eq!(up.version, 1800);
        let up_bytes = rewrite(&up);
        let up_again = mdlx::mdx::from_bytes(&up_bytes)
            .unwrap_or_else(|e| panic!("{}: the 1800 model does not read: {e}", row.local_path));
        assert!(
            rewrite(&up_again) == up_bytes,
            "{}: the 1800 model does not write back identically",
            row.local_path
        );
        // Step by step gives the same 1800 model.
        let mut step = model.clone();
        for v in (from + 100..=1800)
            .step_by(100)
            .filter(|v| mdlx::model::is_known_version(*v))
        {
            let (next, l) = step.to_version(v).unwrap();
            assert!(
                l.is_empty() || !losses.is_empty(),
                "{}: {v}: {l:?}",
                row.local_path
            );
            step = next;
        }
        assert!(
            rewrite(&step) == up_bytes,
            "{}: stepwise differs",
            row.local_path
        );
        // The wc3 crate, which knows 1800, reads the 1800 file whenever it reads the original.
        if wc3::model::DynamicModel::decode_mdx(&data, 800).is_ok() {
            wc3_reads[0] += 1;
            match wc3::model::DynamicModel::decode_mdx(&up_bytes, 800) {
                Ok(w) if w.version() == 1800 => {
                    wc3_reads[1] += 1;
                    // Where wc3 writes the original back as it was, it does the same with
                    // the 1800 file.
                    let same = |bytes: &[u8]| {
                        wc3::model::DynamicModel::decode_mdx(bytes, 800)
                            .map(|w| w.encode_mdx().ok())
                            .is_ok_and(|b| b.as_deref() == Some(bytes))
                    };
                    if same(&data) {
                        wc3_reads[2] += 1;
                        if same(&up_bytes) {
                            wc3_reads[3] += 1;
                        } else {
                            wc3_rewrites.push(row.local_path.clone());
                        }
                    }
                }
                other => wc3_refused.push(format!("{}: {:?}", row.local_path, other.err())),
            }
        }
        let (down, back_losses) = up_again.to_version(from).unwrap();
        losses.extend(back_losses);
        let entry = by_version.entry(from).or_default();
        entry[0] += 1;
        if losses.is_empty() {
            if rewrite(&down) == data {
                entry[1] += 1;
            } else {
                failures.push(row.local_path.clone());
            }
        } else {
            entry[2] += 1;
            for l in losses.iter().take(3) {
                println!("  {} ({from}): {l}", row.local_path);
            }
            for l in &losses {
                // The kind of loss: its words without the numbers and names in it.
                let what: String = l
                    .what
                    .split(' ')
                    .filter(|w| !w.starts_with('"') && w.parse::<f64>().is_err())
                    .collect::<Vec<_>>()
                    .join(" ");
                *kinds.entry(what).or_default() += 1;
            }
        }
    }
    println!("version  files  identical after 1800 and back  with losses");
    for (v, [n, same, lossy]) in &by_version {
        println!("{v:>7}  {n:>5}  {same:>30}  {lossy:>11}");
    }
    println!("losses by kind:");
    for (k, n) in &kinds {
        println!("  {n:>5}  {k}");
    }
    println!(
        "wc3 reads {} of the 1800 files made from the {} originals it reads; of the {} \
         originals it writes back byte-identical, it writes {} of the 1800 files back so",
        wc3_reads[1], wc3_reads[0], wc3_reads[2], wc3_reads[3]
    );
    assert!(
        wc3_rewrites.is_empty(),
        "wc3 rewrites these 1800 files otherwise: {wc3_rewrites:?}"
    );
    assert!(wc3_refused.is_empty(), "{wc3_refused:?}");
    assert!(
        failures.is_empty(),
        "{} files report no loss but do not come back byte-identical: {failures:?}",
        failures.len()
    );
    let total: usize = by_version.values().map(|e| e[0]).sum();
    assert_eq!(total, 545, "every Warcraft III MDX of the corpus");
}

#[test]
fn unknown_versions_are_refused() {
    let m = Model {
        version: 800,
        ..Model::default()
    };
    for v in [700, 850, 1250, 1900, 1300 + 1] {
        let e = m.to_version(v).unwrap_err();
        assert!(e.contains(&format!("version {v} ")), "{e}");
    }
    for v in [
        800, 900, 1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800,
    ] {
        assert_eq!(m.to_version(v).unwrap().0.version, v);
    }
}

/// A light of 1800 with every field set: 1600 keeps it all; 1100 loses each 1200+ field,
/// named, and its animations; coming back up, the fields hold the game's defaults.
#[test]
fn light_fields_the_target_lacks_are_losses() {
    use mdlx::model::{Animation, AnyTrack, Interpolation, Key, Light, Track};
    let track = |tag: &[u8; 4]| Animation {
        tag: mdlx::model::Tag(*tag),
        track: AnyTrack::Float(Track {
            interpolation: Interpolation::Linear,
            global_sequence_id: -1,
            keys: vec![Key {
                time: 0,
                value: 1.0,
                in_tan: 0.0,
                out_tan: 0.0,
            }],
        }),
    };
    let mut light = Light {
        shadow_intensity: 0.5,
        shadow_casting: 1,
        shadow_start: 2.0,
        shadow_end: 3.0,
        quadratic_falloff: 0.25,
        linear_falloff: 0.125,
        damping: 0.0625,
        ..Light::default()
    };
    light.tracks.0 = vec![track(b"KLAI"), track(b"KLSS"), track(b"KLDA")];
    let m = Model {
        version: 1800,
        lights: vec![light],
        pivot_points: vec![[0.0; 3]],
        ..Model::default()
    };
    let (same, l) = m.to_version(1600).unwrap();
    assert!(l.is_empty(), "{l:?}");
    assert_eq!(same.lights, m.lights);
    let (old, l) = m.to_version(1100).unwrap();
    let l: Vec<String> = l.iter().map(|l| l.to_string()).collect();
    assert_eq!(
        l,
        [
            "Light[0]: ShadowCasting (since 1300)",
            "Light[0]: ShadowIntensity (since 1200)",
            "Light[0]: ShadowCastingStart (since 1300)",
            "Light[0]: ShadowCastingEnd (since 1300)",
            "Light[0]: QuadraticFalloff (since 1600)",
            "Light[0]: LinearFalloff (since 1600)",
            "Light[0]: Damping (since 1600)",
            "Light[0]: ShadowCastingStart animation (since 1300)",
            "Light[0]: Damping animation (since 1600)",
        ]
    );
    let o = &old.lights[0];
    assert_eq!(o.tracks.0.len(), 1, "KLAI stays");
    assert_eq!(
        (
            o.shadow_intensity,
            o.shadow_casting,
            o.quadratic_falloff,
            o.damping
        ),
        (
            0.0,
            0,
            Light::DEFAULT_QUADRATIC_FALLOFF,
            Light::DEFAULT_DAMPING
        )
    );
    let (up, l) = old.to_version(1800).unwrap();
    assert!(l.is_empty());
    assert_eq!(
        up.lights[0].quadratic_falloff,
        Light::DEFAULT_QUADRATIC_FALLOFF
    );
    // What the 1100 file holds of it reads back the same.
    let bytes = mdlx::mdx::to_bytes(&old).unwrap();
    assert_eq!(mdlx::mdx::from_bytes(&bytes).unwrap().lights, old.lights);
}
