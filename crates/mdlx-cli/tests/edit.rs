//! `mdlx edit`: operations applied in the order given, over a file, a folder, a map and a
//! model inside a map; what changed said on stderr; bad operations refused with nothing
//! written. (The operations themselves are tested over the corpus in the library's
//! `edit_textures.rs`.)

mod common;
use common::*;
use std::path::Path;

fn paths(model: &Path) -> Vec<String> {
    let data = std::fs::read(model).unwrap();
    let m = mdlx::read(&data, &mdlx::ReadOptions::default())
        .unwrap()
        .model;
    m.textures
        .iter()
        .map(|t| t.path.text().into_owned())
        .collect()
}

const E15: &str = "mdx/AMISD666__War3ModelView__test_model__E15__120_.mdx";

#[test]
fn operations_run_in_the_order_given() {
    let dir = temp_dir("edit-order");
    let input = corpus().join(E15);
    // Strip, then prefix: every texture under the new folder.
    let a = dir.join("a.mdx");
    let r = mdlx(&[
        "edit",
        &s(&input),
        &s(&a),
        "--texture-strip-folders",
        "--texture-prefix",
        "war3mapImported\\E15",
        "--texture-ext",
        "dds",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(
        paths(&a),
        [
            "war3mapImported\\E15\\AZ_Knife_light12.dds",
            "war3mapImported\\E15\\RibbonNE1_blue.dds",
            "war3mapImported\\E15\\Flare.dds"
        ]
    );
    assert!(
        stderr(&r).contains("textures[1]: Textures\\RibbonNE1_blue.blp -> RibbonNE1_blue.blp"),
        "{}",
        stderr(&r)
    );
    // Prefix, then strip: the prefix is stripped again.
    let b = dir.join("b.mdl");
    let r = mdlx(&[
        "edit",
        &s(&input),
        &s(&b),
        "--texture-prefix",
        "war3mapImported\\E15",
        "--texture-strip-folders",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(
        paths(&b),
        ["AZ_Knife_light12.blp", "RibbonNE1_blue.blp", "Flare.blp"]
    );
    assert!(
        text(&std::fs::read(&b).unwrap()).contains("Image \"Flare.blp\""),
        "MDL by extension"
    );
}

#[test]
fn bad_operations_write_nothing() {
    let dir = temp_dir("edit-bad");
    let input = corpus().join(E15);
    let out = dir.join("out.mdx");
    let r = mdlx(&[
        "edit",
        &s(&input),
        &s(&out),
        "--texture-rename",
        "Textures\\Nope.blp=x.blp",
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        stderr(&r).contains("--texture-rename Textures\\Nope.blp: no texture"),
        "{}",
        stderr(&r)
    );
    assert!(!out.exists());
    let r = mdlx(&["edit", &s(&input), &s(&out)]);
    assert_eq!(r.status.code(), Some(2), "no operation is a usage error");
    let r = mdlx(&[
        "edit",
        &s(&input),
        &s(&out),
        "--texture-rename",
        "no-equals",
    ]);
    assert_eq!(r.status.code(), Some(2));
    let long = "x".repeat(255);
    let r = mdlx(&["edit", &s(&input), &s(&out), "--texture-prefix", &long]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        stderr(&r).contains("more than a texture path holds"),
        "{}",
        stderr(&r)
    );
    assert!(!out.exists());
    // Nothing changed: the input's bytes.
    let r = mdlx(&[
        "edit",
        &s(&input),
        &s(&out),
        "--texture-prefix",
        "war3mapImported\\",
    ]);
    assert!(r.status.success());
    let r2 = mdlx(&[
        "edit",
        &s(&out),
        &s(dir.join("same.mdx")),
        "--texture-prefix",
        "WAR3MAPIMPORTED/",
    ]);
    assert!(r2.status.success(), "{}", stderr(&r2));
    assert_eq!(
        std::fs::read(dir.join("same.mdx")).unwrap(),
        std::fs::read(&out).unwrap()
    );
}

#[test]
fn folders_and_maps() {
    let dir = temp_dir("edit-places");
    // A folder: every model, mirrored.
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    std::fs::copy(corpus().join(E15), src.join("sub/E15.mdx")).unwrap();
    std::fs::copy(cube(), src.join("cube.mdx")).unwrap();
    let out = dir.join("out");
    let r = mdlx(&["edit", &s(&src), &s(&out), "--texture-ext", "tga"]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(paths(&out.join("sub/E15.mdx"))
        .iter()
        .all(|p| p.ends_with(".tga")));
    assert!(out.join("cube.mdx").is_file());
    // A map: its models edited, the map written anew; a dry run writes nothing.
    let map = shared().join("archives/inwc3+wc3libs__in.w3x");
    let new = dir.join("new.w3x");
    let r = mdlx(&[
        "edit",
        &s(&map),
        &s(&new),
        "--texture-ext",
        "dds",
        "--dry-run",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(!new.exists());
    assert!(stderr(&r).contains("46 model(s)"), "{}", stderr(&r));
    let r = mdlx(&["edit", &s(&map), &s(&new), "--texture-ext", "dds"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let member = format!("{}:XTex.mdx", s(&new));
    let one = dir.join("xtex.mdx");
    let r = mdlx(&[
        "edit",
        &member,
        &s(&one),
        "--texture-prefix",
        "war3mapImported",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(paths(&one), ["war3mapImported\\Textures\\XTex.dds"]);
    let a = mdlx::mpq::Archive::open(&new).unwrap();
    let before = mdlx::mpq::Archive::open(&map).unwrap();
    // Every file that is no model, byte for byte.
    for e in before.entries() {
        let Some(n) = e.known_name else { continue };
        let lower = n.to_ascii_lowercase();
        if lower.ends_with(".mdx") || lower.ends_with(".mdl") || lower.starts_with('(') {
            continue;
        }
        assert_eq!(a.read(&n).ok(), before.read(&n).ok(), "{n}");
    }
}

fn model(path: &Path) -> mdlx::Model {
    mdlx::read(&std::fs::read(path).unwrap(), &mdlx::ReadOptions::default())
        .unwrap()
        .model
}

#[test]
fn transforms_and_sequences_in_the_order_given() {
    let dir = temp_dir("edit-moves");
    let cube = cube();
    let source = model(Path::new(&cube));
    let v0 = source.geosets[0].vertices[0];
    // Scale then move, and move then scale: the order shows in where a vertex lands.
    let a = dir.join("a.mdx");
    let r = mdlx(&[
        "edit",
        &cube,
        &s(&a),
        "--scale",
        "2",
        "--translate",
        "1,0,-3",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(
        model(&a).geosets[0].vertices[0],
        [v0[0] * 2.0 + 1.0, v0[1] * 2.0, v0[2] * 2.0 - 3.0]
    );
    let b = dir.join("b.mdx");
    let r = mdlx(&[
        "edit",
        &cube,
        &s(&b),
        "--translate",
        "1,0,-3",
        "--scale",
        "2",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(
        model(&b).geosets[0].vertices[0],
        [(v0[0] + 1.0) * 2.0, v0[1] * 2.0, (v0[2] - 3.0) * 2.0]
    );
    // A quarter turn about Z, then sequences: renamed, reversed, copied, stretched.
    let c = dir.join("c.mdl");
    let r = mdlx(&[
        "edit",
        &cube,
        &s(&c),
        "--rotate",
        "90",
        "--seq-rename",
        "stand=Stand Ready",
        "--seq-reverse",
        "Spin",
        "--seq-copy",
        "Spin=Spin Slow",
        "--seq-stretch",
        "Spin Slow=2",
        "--seq-once",
        "Spin Slow",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let m = model(&c);
    assert_eq!(m.geosets[0].vertices[0], [-v0[1], v0[0], v0[2]]);
    let names: Vec<String> = m.sequences.iter().map(|q| q.name.text().into()).collect();
    assert_eq!(names, ["Stand Ready", "Spin", "Spin Slow"]);
    assert_eq!(m.sequences[2].length(), 2 * source.sequences[1].length());
    assert!(!m.sequences[2].is_looping());
    let said = stderr(&r);
    for line in [
        "turned 90 degrees about Z",
        "sequence \"Stand\" renamed \"Stand Ready\"",
        "sequence \"Spin\" reversed",
        "sequence \"Spin Slow\" plays once",
    ] {
        assert!(said.contains(line), "{line}: {said}");
    }
    // The result checks as cleanly as its source.
    let before = mdlx(&["check", "-q", &cube]);
    let after = mdlx(&["check", "-q", &s(&c)]);
    assert_eq!(
        after.status.code(),
        before.status.code(),
        "{}",
        text(&after.stdout)
    );
}

#[test]
fn what_is_not_there_is_named_and_nothing_written() {
    let dir = temp_dir("edit-missing");
    let cube = cube();
    let out = dir.join("out.mdx");
    let r = mdlx(&[
        "edit",
        &cube,
        &s(&out),
        "--scale",
        "2",
        "--seq-reverse",
        "Walk",
    ]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("no sequence \"Walk\"; the model has 0: Stand, 1: Spin"),
        "{}",
        stderr(&r)
    );
    assert!(!out.exists());
    let r = mdlx(&["edit", &cube, &s(&out), "--scale", "0"]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("a scale must be above 0"),
        "{}",
        stderr(&r)
    );
    for bad in [
        ["--mirror", "w"],
        ["--rotate", "x:ninety"],
        ["--translate", "1,2"],
        ["--seq-stretch", "Spin"],
        ["--seq-move", "Spin=first"],
    ] {
        let r = mdlx(&["edit", &cube, &s(&out), bad[0], bad[1]]);
        assert_eq!(r.status.code(), Some(2), "{bad:?}: {}", stderr(&r));
        assert!(stderr(&r).contains(bad[0]), "{bad:?}: {}", stderr(&r));
    }
    assert!(!out.exists());
}

#[test]
fn animations_from_another_model() {
    let dir = temp_dir("edit-transfer");
    let target = corpus().join("mdx/Bergi-bear__KonosubaWC3__map.w3x__KazumaA01.mdx");
    let source = corpus().join(
        "mdx/dbz-tribute-reforged__dbz-tribute-reforged__maps__Tribute_Reforged.w3x__videl.mdx",
    );
    let before = model(&target);
    let out = dir.join("out.mdx");
    let r = mdlx(&[
        "edit",
        &s(&target),
        &s(&out),
        "--anim-from",
        &s(&source),
        "--anim-seq",
        "walk",
        "--anim-seq",
        "Stand Ready",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let m = model(&out);
    let names: Vec<String> = m.sequences.iter().map(|q| q.name.text().into()).collect();
    assert_eq!(names.len(), before.sequences.len() + 2);
    assert_eq!(names[names.len() - 2..], ["Walk", "Stand Ready"]);
    let said = stderr(&r);
    assert!(said.contains("33 of 41 target bones"), "{said}");
    assert!(
        said.contains("unpaired (they hold their Stand pose): bone_new20"),
        "{said}"
    );
    // Geoset visibility from the source.
    let shown = dir.join("shown.mdx");
    let (t, o, src) = (s(&target), s(&shown), s(&source));
    let r = mdlx(&[
        "edit",
        &t,
        &o,
        "--anim-from",
        &src,
        "--anim-seq",
        "walk",
        "--anim-visibility",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("geosets showing as the source's (target<-source): "),
        "{}",
        stderr(&r)
    );
    // Names that match nothing: an error naming them, nothing written.
    let bad = dir.join("bad.mdx");
    for (args, says) in [
        (
            vec!["--anim-seq", "Nope"],
            "the source: no sequence \"Nope\"",
        ),
        (
            vec!["--bone", "Nope=bone_new0"],
            "the target has no node \"Nope\"",
        ),
        (
            vec!["--bone", "bone_new0=Nope"],
            "the source has no node \"Nope\"",
        ),
    ] {
        let (t, b, src) = (s(&target), s(&bad), s(&source));
        let mut all = vec!["edit", &t, &b, "--anim-from", &src];
        all.extend(args);
        let r = mdlx(&all);
        assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
        assert!(stderr(&r).contains(says), "{says}: {}", stderr(&r));
        assert!(!bad.exists());
    }
}

#[test]
fn team_colour_and_glow() {
    let dir = temp_dir("edit-team");
    let cube = cube();
    let out = dir.join("glow.mdx");
    let r = mdlx(&["edit", &cube, &s(&out), "--team-colour", "0", "--hero-glow"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let m = model(&out);
    let ids: Vec<u32> = m.textures.iter().map(|t| t.replaceable_id).collect();
    assert!(ids.contains(&1) && ids.contains(&2), "{ids:?}");
    assert_eq!(m.bones.last().unwrap().node.name.text(), "Hero Glow");
    // No warning the cube lacked: the bounds hold the glow.
    let said = text(&mdlx(&["check", &s(&out)]).stdout);
    assert!(!said.contains("stale-extent"), "{said}");
    // Twice is refused, naming why; nothing written.
    let again = dir.join("again.mdx");
    let r = mdlx(&["edit", &s(&out), &s(&again), "--hero-glow"]);
    assert_eq!(r.status.code(), Some(1));
    assert!(stderr(&r).contains("glows already"), "{}", stderr(&r));
    let r = mdlx(&["edit", &cube, &s(&again), "--team-colour", "7"]);
    assert_eq!(r.status.code(), Some(1));
    assert!(stderr(&r).contains("no material 7"), "{}", stderr(&r));
    assert!(!again.exists());
}

#[test]
fn normals_from_the_faces() {
    let dir = temp_dir("edit-normals");
    let cube = cube();
    let (soft, bad) = (dir.join("soft.mdx"), dir.join("bad.mdx"));
    let r = mdlx(&["edit", &cube, &s(&soft), "--normals", "120"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let third = 1.0 / 3f32.sqrt();
    assert!(model(&soft).geosets[0]
        .normals
        .iter()
        .all(|n| n.iter().all(|x| (x.abs() - third).abs() < 1e-6)));
    let r = mdlx(&["edit", &cube, &s(&bad), "--normals", "270"]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(stderr(&r).contains("0 to 180 degrees"), "{}", stderr(&r));
    assert!(!bad.exists());
}

#[test]
fn death_and_birth_from_the_stand() {
    let dir = temp_dir("edit-fade");
    let cube = cube();
    let out = dir.join("fading.mdx");
    let r = mdlx(&["edit", &cube, &s(&out), "--death", "1500", "--birth", "500"]);
    assert!(r.status.success(), "{}", stderr(&r));
    let m = model(&out);
    let names: Vec<String> = m.sequences.iter().map(|q| q.name.text().into()).collect();
    assert_eq!(names[2..], ["Death", "Birth"]);
    assert_eq!(
        (m.sequences[2].length(), m.sequences[3].length()),
        (1500, 500)
    );
    assert!(!m.sequences[2].is_looping());
    let again = dir.join("again.mdx");
    let r = mdlx(&["edit", &s(&out), &s(&again), "--death", "1000"]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        stderr(&r).contains("Death: the model has one already"),
        "{}",
        stderr(&r)
    );
    let r = mdlx(&["edit", &cube, &s(&again), "--decay", "soon"]);
    assert_eq!(r.status.code(), Some(2));
    assert!(!again.exists());
}

#[test]
fn a_weapon_merged_into_a_hand() {
    let dir = temp_dir("edit-merge");
    let unit = corpus().join("mdx/Bergi-bear__KonosubaWC3__map.w3x__KazumaA01.mdx");
    let sword = corpus()
        .join("mdx/nazarpunk__wc3-map-edemium-legacy__map__war3mapImported__CrusaderSword.mdx");
    let before = model(&unit);
    let out = dir.join("armed.mdx");
    let r = mdlx(&[
        "edit",
        &s(&unit),
        &s(&out),
        "--merge",
        &s(&sword),
        "--merge-under",
        "hand right ref",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let said = stderr(&r);
    assert!(
        said.contains("merged 4 geosets, 1 nodes, 0 cameras under \"hand right ref\""),
        "{said}"
    );
    let m = model(&out);
    assert_eq!(m.geosets.len(), before.geosets.len() + 4);
    assert_eq!(m.bones.len(), before.bones.len() + 1);
    // The sword's bone hangs under the hand, at the hand's pivot.
    let hand = (m.attachments.iter())
        .find(|a| a.node.name.text().eq_ignore_ascii_case("hand right ref"))
        .unwrap();
    let bone = m.bones.last().unwrap();
    assert_eq!(bone.node.parent_id, hand.node.object_id as i32);
    assert_eq!(
        m.pivot_points[bone.node.object_id as usize],
        m.pivot_points[hand.node.object_id as usize]
    );
    // Two merges, each with the options after it: a weapon in each hand.
    let axe = corpus().join("mdx/Bergi-bear__roguelike__map.w3x__Axes.mdx");
    let both = dir.join("both.mdx");
    let (u, o, w, a) = (s(&unit), s(&both), s(&sword), s(&axe));
    let r = mdlx(&[
        "edit",
        &u,
        &o,
        "--merge",
        &w,
        "--merge-under",
        "hand right ref",
        "--merge",
        &a,
        "--merge-under",
        "hand left ref",
    ]);
    assert!(r.status.success(), "{}", stderr(&r));
    let m = model(&both);
    let parent = |bone: &mdlx::model::Bone| {
        let p = bone.node.parent_id as u32;
        let n = m.nodes().find(|n| n.object_id == p).unwrap();
        n.name.text().into_owned()
    };
    let n = m.bones.len();
    assert_eq!(parent(&m.bones[n - 2]), "hand right ref");
    assert_eq!(parent(&m.bones[n - 1]), "hand left ref");
    let r = mdlx(&[
        "edit",
        &u,
        &o,
        "--merge",
        &w,
        "--merge-under",
        "hand right ref",
        "--merge-under",
        "hand left ref",
    ]);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    // One part by name; names that match nothing: an error naming them, nothing written.
    let bad = dir.join("bad.mdx");
    for (args, says) in [
        (
            vec!["--merge-under", "Foot Left Ref"],
            "this model has no node \"Foot Left Ref\" to attach under",
        ),
        (
            vec!["--merge-part", "Scabbard"],
            "the source has no node or camera \"Scabbard\"",
        ),
    ] {
        let (u, b, w) = (s(&unit), s(&bad), s(&sword));
        let mut all = vec!["edit", &u, &b, "--merge", &w];
        all.extend(args);
        let r = mdlx(&all);
        assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
        assert!(stderr(&r).contains(says), "{says}: {}", stderr(&r));
        assert!(!bad.exists());
    }
}

#[test]
fn emitters_stop_at_the_end_of_birth() {
    let dir = temp_dir("edit-emitters");
    let spear = corpus().join("mdx/Bergi-bear__OrcWinter__map.w3x__BurningSpear.mdx");
    let out = dir.join("out.mdx");
    let r = mdlx(&["edit", &s(&spear), &s(&out), "--seq-stop-emitters", "birth"]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("sequence \"Birth\": 3 emitter(s) stopped on its last frame (500)"),
        "{}",
        stderr(&r)
    );
    let m = model(&out);
    let clock = mdlx::anim::Clock::unwrapped(&m, 0, 500.0);
    for e in &m.particle_emitters2 {
        let v = clock.sample(e.tracks.float(mdlx::spec::track::KP2V), 1.0);
        assert!(v <= 0.0, "{}: {v}", e.node.name);
    }
    let bad = dir.join("bad.mdx");
    let r = mdlx(&["edit", &s(&spear), &s(&bad), "--seq-stop-emitters", "Decay"]);
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("no sequence \"Decay\""),
        "{}",
        stderr(&r)
    );
    assert!(!bad.exists());
}
