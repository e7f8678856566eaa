//! Icons (issue 41): the disabled look against the game-style icon pairs the shared maps
//! and textures carry, and the icons of every corpus unit, written as BLP and read back by
//! our decoder and by Pillow.

mod common;

use mdlx::anim::AnimTime;
use mdlx::check::Kind;
use mdlx::render::icon::{self, ArtOptions, Background, IconKind, IconVariant};
use mdlx::render::{Scene, TextureCache};
use mdlx::texture::RgbaImage;
use std::collections::BTreeMap;

/// Pairs whose disabled icon was not made from its enabled one the way the others were,
/// by name (lower case), with what is wrong: the list only shrinks.
const NOT_DERIVED: [(&str, &str); 5] = [
    ("ice1", "the DISBTN is a copy of the BTN"),
    ("ice2", "the DISBTN is a copy of the BTN"),
    ("texturesize1x1", "the DISBTN is a copy of the BTN"),
    ("texturesize3x3", "the DISBTN is a copy of the BTN"),
    ("decreasecos", "the DISBTN is black"),
];

/// An icon's kind and whether it is the disabled one, from its file name's prefix; with
/// the name after it, lower case.
fn parse_icon_name(path: &str) -> Option<(IconKind, bool, String)> {
    let file = path.rsplit(['\\', '/']).next()?;
    let stem = file.rsplit_once('.')?.0.to_ascii_lowercase();
    for (prefix, kind, dis) in [
        ("dispasbtn", IconKind::Passive, true),
        ("dispas", IconKind::Passive, true),
        ("pasbtn", IconKind::Passive, false),
        ("pas", IconKind::Passive, false),
        ("disbtn", IconKind::Button, true),
        ("btn", IconKind::Button, false),
        ("disatc", IconKind::Autocast, true),
        ("atc", IconKind::Autocast, false),
    ] {
        if let Some(rest) = stem.strip_prefix(prefix) {
            return Some((kind, dis, rest.to_string()));
        }
    }
    None
}

/// Every icon of the shared maps and texture corpus: (source, kind, name) -> (enabled,
/// disabled) bytes where found.
type Pairs = BTreeMap<(String, IconKind, String), [Option<Vec<u8>>; 2]>;

fn icon_files() -> Pairs {
    let mut pairs: Pairs = BTreeMap::new();
    let mut add = |source: &str, name: &str, bytes: Vec<u8>| {
        if let Some((kind, dis, rest)) = parse_icon_name(name) {
            let key = (source.to_string(), kind, rest);
            pairs.entry(key).or_default()[usize::from(dis)] = Some(bytes);
        }
    };
    for path in common::archives() {
        let Ok(archive) = mdlx::mpq::Archive::open(&path) else {
            continue;
        };
        for e in archive.entries() {
            let Some(name) = &e.known_name else { continue };
            if parse_icon_name(name).is_some() && name.to_ascii_lowercase().ends_with(".blp") {
                if let Ok(bytes) = archive.read_entry(&e) {
                    add(&common::name(&path), name, bytes);
                }
            }
        }
    }
    let tex = common::corpus_dir().join("textures");
    for entry in std::fs::read_dir(&tex).into_iter().flatten().flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        // Corpus names are `repo__path__with__folders`: the source is the repository.
        let (repo, inner) = file.split_once("__").unwrap_or(("", &file));
        let last = inner.rsplit("__").next().unwrap_or(inner);
        if let Ok(bytes) = std::fs::read(entry.path()) {
            add(repo, last, bytes);
        }
    }
    pairs
}

/// Mean absolute difference over the colour channels, and the largest one.
fn colour_error(a: &RgbaImage, b: &RgbaImage) -> (f64, u8) {
    let (mut sum, mut n, mut worst) = (0u64, 0u64, 0u8);
    for (p, q) in a.pixels.chunks_exact(4).zip(b.pixels.chunks_exact(4)) {
        for k in 0..3 {
            let d = p[k].abs_diff(q[k]);
            sum += u64::from(d);
            worst = worst.max(d);
            n += 1;
        }
    }
    (sum as f64 / n.max(1) as f64, worst)
}

/// The usual quick disabled look (grey, half as bright), to compare with.
fn half_grey(a: &RgbaImage) -> RgbaImage {
    let mut out = a.clone();
    for p in out.pixels.chunks_exact_mut(4) {
        let y = 0.299 * f32::from(p[0]) + 0.587 * f32::from(p[1]) + 0.114 * f32::from(p[2]);
        let v = (y * 0.5).round() as u8;
        p[..3].copy_from_slice(&[v, v, v]);
    }
    out
}

fn percentile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

#[test]
fn disabled_icons_match_the_pairs_found() {
    let pairs = icon_files();
    let (mut ours, mut grey, mut worst_channel) = (Vec::new(), Vec::new(), 0u8);
    let (mut judged, mut not_derived, mut other_sizes) = (0, Vec::new(), 0);
    let mut by_source: BTreeMap<String, usize> = BTreeMap::new();
    for ((source, kind, name), [on, off]) in &pairs {
        let (Some(on), Some(off)) = (on, off) else {
            continue;
        };
        let (Ok(on), Ok(off)) = (mdlx::texture::decode(on), mdlx::texture::decode(off)) else {
            continue;
        };
        if (on.width, on.height) != (off.width, off.height) || on.width != on.height {
            other_sizes += 1;
            continue;
        }
        *by_source.entry(source.clone()).or_default() += 1;
        let made = icon::disabled(&on, *kind);
        let (mae, worst) = colour_error(&made, &off);
        if let Some((_, why)) = NOT_DERIVED.iter().find(|(n, _)| n == name) {
            not_derived.push(format!("{name}: {why} (error {mae:.1})"));
            continue;
        }
        assert!(
            mae < 10.0,
            "{source} {name}: our disabled icon is {mae:.1} from the pair's"
        );
        judged += 1;
        ours.push(mae);
        worst_channel = worst_channel.max(worst);
        grey.push(colour_error(&half_grey(&on), &off).0);
    }
    println!("icon pairs by source: {by_source:?}; {other_sizes} pair(s) of other sizes left out");
    println!(
        "disabled icons: {judged} pairs; mean colour error per pair median {:.2}, 90th percentile {:.2}, worst {:.2} of 255; largest channel difference {worst_channel}",
        percentile(&mut ours, 0.5),
        percentile(&mut ours, 0.9),
        percentile(&mut ours, 1.0)
    );
    println!(
        "  the grey half-bright look: median {:.2}, 90th percentile {:.2}",
        percentile(&mut grey, 0.5),
        percentile(&mut grey, 0.9)
    );
    println!("  not made from their BTN, left out: {not_derived:?}");
    assert!(judged >= 100, "only {judged} pairs found");
    assert!(percentile(&mut ours, 0.5) < 3.5);
    assert!(percentile(&mut ours, 0.5) * 3.0 < percentile(&mut grey, 0.5));
    assert_eq!(not_derived.len(), NOT_DERIVED.len(), "{not_derived:?}");
}

/// The share of the picture's height the box of `points` spans through `camera`.
fn height_share(camera: &mdlx::render::Camera, b: &mdlx::model::Extent) -> f32 {
    let vp = mdlx::anim::math::mul(&camera.projection_matrix(1.0), &camera.view_matrix());
    let (mut lo, mut hi) = (f32::MAX, f32::MIN);
    for k in 0..8 {
        let p = [0, 1, 2].map(|a| if k >> a & 1 == 1 { b.max[a] } else { b.min[a] });
        let c =
            [0, 1, 2, 3].map(|r| vp[r] * p[0] + vp[4 + r] * p[1] + vp[8 + r] * p[2] + vp[12 + r]);
        let y = c[1] / c[3];
        lo = lo.min(y);
        hi = hi.max(y);
    }
    (hi - lo) / 2.0
}

#[test]
fn icons_for_every_corpus_unit() {
    let tex = common::texture_corpus("icons");
    let files = common::corpus_mdx();
    let links = tex.map(|t| common::texture_links(&files, &t, "icons"));
    let dir = common::judges::out_dir("icons");
    let started = std::time::Instant::now();
    let made = common::over_models(|i, row, _, model| {
        let name = common::name(std::path::Path::new(&row.local_path));
        if mdlx::check::classify(&model, Some(&name)).kind != Kind::Unit {
            return None;
        }
        let cache = TextureCache::new(links.iter().cloned().collect());
        let scene = Scene::new(&model, &cache);
        let stand = model
            .sequences
            .iter()
            .position(|s| s.name.text().to_ascii_lowercase().starts_with("stand"));
        // The moment `mdlx icon` draws: half-way into Stand, at most a second in.
        let length = stand.map_or(0.0, |s| f64::from(model.sequences[s].length()));
        let at = AnimTime::new(stand, (length * 0.5).min(1000.0).floor());
        let Some((art, by)) = icon::art(&scene, at, &ArtOptions::default()) else {
            return Some((name, None));
        };
        let cover = icon::coverage(&art);
        let art = icon::over(&art, &Background::default());
        let mut out = Vec::new();
        for v in [IconVariant::ALL[0], IconVariant::ALL[1]] {
            let image = icon::icon(&art, v, None);
            let blp = mdlx::texture::write::encode(&image, mdlx::Format::Blp, &Default::default())
                .unwrap();
            let back = mdlx::texture::decode(&blp).unwrap();
            assert_eq!((back.width, back.height), (64, 64), "{name}");
            let (mae, _) = colour_error(&back, &image);
            assert!(mae < 6.0, "{name}: the BLP reads back {mae:.1} off");
            let file = format!("{i:04}{}", v.prefix());
            std::fs::write(dir.join(format!("{file}.blp")), &blp).unwrap();
            out.push((file, back));
        }
        // Glow left out: the unit's share of a square picture framed as `render` frames it,
        // against a framing of every geoset shown (the glow plane with it).
        let solid = scene.bounds(at, 0);
        let all = all_geosets_box(&model, at);
        let share = match (solid, all) {
            (Some(s), Some(a)) => {
                let cam = |b| mdlx::render::Camera::default_framing(b, 1.0);
                Some((height_share(&cam(&s), &s), height_share(&cam(&a), &s)))
            }
            _ => None,
        };
        Some((name, Some((cover, by, out, share))))
    });
    let seconds = started.elapsed().as_secs_f64();
    let units = made.len();
    let nothing: Vec<&String> = (made.iter())
        .filter(|(_, m)| m.is_none())
        .map(|(n, _)| n)
        .collect();
    println!("  drawing nothing at that moment: {nothing:?}");
    let mut drawn: Vec<_> = made
        .into_iter()
        .filter_map(|(n, m)| Some((n, m?)))
        .collect();
    drawn.sort_by(|a, b| a.0.cmp(&b.0));
    let mut covers: Vec<f64> = drawn.iter().map(|(_, m)| m.0).collect();
    let heads = (drawn.iter())
        .filter(|(_, m)| matches!(m.1, icon::FramedBy::HeadNode(_)))
        .count();
    println!(
        "icons: {units} corpus units, {} drawn ({heads} framed on a head node) in {seconds:.1} s on two threads; the model covers {:.0}% of the icon inside its frame (median; 10th percentile {:.0}%, least {:.0}%)",
        drawn.len(),
        percentile(&mut covers, 0.5) * 100.0,
        percentile(&mut covers, 0.1) * 100.0,
        percentile(&mut covers, 0.0) * 100.0,
    );
    assert!(units >= 100, "only {units} units");
    assert_eq!(drawn.len(), units, "a unit drew nothing");
    let thin: Vec<&String> = (drawn.iter())
        .filter(|(_, m)| m.0 < 0.15)
        .map(|(n, _)| n)
        .collect();
    println!("  covering under 15%: {thin:?}");
    assert!(percentile(&mut covers, 0.5) > 0.3);
    let mut glow: Vec<(f32, f32)> = (drawn.iter())
        .filter_map(|(_, m)| m.3)
        .filter(|(new, old)| new - old > 0.01)
        .collect();
    if !glow.is_empty() {
        let mut new: Vec<f64> = glow.iter().map(|g| f64::from(g.0)).collect();
        let mut old: Vec<f64> = glow.iter().map(|g| f64::from(g.1)).collect();
        println!(
            "  framing what is drawn solid: {} units framed larger; their height share of a picture, median {:.0}% (was {:.0}% framing the glow with them), least {:.0}% (was {:.0}%)",
            glow.len(),
            percentile(&mut new, 0.5) * 100.0,
            percentile(&mut old, 0.5) * 100.0,
            percentile(&mut new, 0.0) * 100.0,
            percentile(&mut old, 0.0) * 100.0,
        );
        glow.clear();
    }
    // Pillow, the reader many tools use for BLP, opens every icon as we read it.
    let Some(python) = common::judges::pillow_python("icons") else {
        return;
    };
    let names: Vec<&str> = (drawn.iter())
        .flat_map(|(_, m)| m.2.iter().map(|(f, _)| f.as_str()))
        .collect();
    let said = common::judges::pillow_to_png(&python, &dir, ".blp", names.iter().copied());
    assert_eq!(said.lines().count(), names.len());
    let mut worst = 0.0f64;
    for (_, m) in &drawn {
        for (file, ours) in &m.2 {
            let theirs = mdlx::texture::png::from_bytes(
                &std::fs::read(dir.join(format!("{file}.png"))).unwrap(),
            )
            .unwrap();
            assert_eq!((theirs.width, theirs.height), (64, 64), "{file}");
            worst = worst.max(colour_error(ours, &theirs).0);
        }
    }
    println!(
        "  Pillow read all {} BLP icons at 64 x 64; largest mean difference from our reading {worst:.2}",
        names.len()
    );
    assert!(worst < 2.0);
}

/// The box around every geoset shown at `at` (surfaces and glows alike).
fn all_geosets_box(model: &mdlx::Model, at: AnimTime) -> Option<mdlx::model::Extent> {
    let skeleton = mdlx::anim::Skeleton::new(model);
    let clock = skeleton.clock(at);
    let pose = skeleton.pose_at(&clock, None);
    let posed = mdlx::anim::posed_geosets(model, &skeleton, &pose, &clock);
    let (mut min, mut max) = ([f32::MAX; 3], [f32::MIN; 3]);
    for p in posed
        .iter()
        .filter(|g| g.visible && model.geosets[g.index].shows_at_lod(0))
    {
        for v in &p.positions {
            for k in 0..3 {
                min[k] = min[k].min(v[k]);
                max[k] = max[k].max(v[k]);
            }
        }
    }
    (min[0] <= max[0]).then_some(mdlx::model::Extent {
        radius: 0.0,
        min,
        max,
    })
}
