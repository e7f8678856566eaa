//! Textures from the game's archives: a game folder made here with StormLib (`smpq`) holding
//! `War3.mpq` and `War3Patch.mpq`, both with `Textures\Cube.blp` (the patch's wins, as in
//! the game); `check` reporting a texture, or a model an emitter spawns, found nowhere once
//! the game's archives are searched, and only then; and the glTF export embedding the texture from the archive.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

/// `ARCHIVE` made by StormLib with one file, `Textures\Cube.blp`, holding `texture`.
fn game_archive(smpq: &Path, archive: &Path, texture: &Path) {
    let dir = archive.parent().unwrap().join(format!(
        "src-{}",
        archive.file_name().unwrap().to_string_lossy()
    ));
    std::fs::create_dir_all(dir.join("Textures")).unwrap();
    std::fs::copy(texture, dir.join("Textures/Cube.blp")).unwrap();
    let out = Command::new(smpq)
        .current_dir(&dir)
        .args(["-c", "-M", "1"])
        .arg(archive)
        .arg("Textures/Cube.blp")
        .output()
        .unwrap();
    assert!(out.status.success(), "smpq -c: {out:?}");
}

#[test]
fn textures_come_from_the_games_archives_in_its_order() {
    let Some(smpq) = smpq() else { return };
    let dir = temp_dir("game");
    let game = dir.join("Warcraft III");
    std::fs::create_dir_all(&game).unwrap();
    let textures = corpus().join("textures");
    // 32 x 32 in the main archive; 113 x 160 (not a power of two) in the patch.
    game_archive(
        &smpq,
        &game.join("War3.mpq"),
        &textures.join("AMISD666__War3ModelView__test_model__war3mapImported__Flare.blp"),
    );
    game_archive(
        &smpq,
        &game.join("War3Patch.mpq"),
        &textures.join("Bergi-bear__OrcWinter__map.w3x__bloknotik.blp"),
    );

    // The patch wins: its texture is the one checked.
    let r = mdlx(&["check", &cube(), "--textures", &s(&game)]);
    let out = text(&r.stdout);
    assert!(
        out.contains("texture-not-power-of-two")
            && out.contains("War3Patch.mpq:Textures\\Cube.blp is 113x160"),
        "{out}"
    );
    // The main archive alone: 32 x 32, nothing to say.
    let r = mdlx(&["check", &cube(), "--textures", &s(game.join("War3.mpq"))]);
    let out = text(&r.stdout);
    assert!(
        !out.contains("texture-not-power-of-two") && !out.contains("texture-not-found"),
        "{out}"
    );

    // A texture found nowhere: reported once the game's archives are searched, not before.
    let mdl = dir.join("missing.mdl");
    let r = mdlx(&["convert", &cube(), &s(&mdl)]);
    assert!(r.status.success(), "{}", stderr(&r));
    let text_mdl = std::fs::read_to_string(&mdl)
        .unwrap()
        .replace("Textures\\Cube.blp", "Textures\\Missing.blp");
    std::fs::write(&mdl, text_mdl).unwrap();
    let r = mdlx(&["check", &s(&mdl), "--textures", &s(&game)]);
    let out = text(&r.stdout);
    assert!(
        out.contains("texture-not-found") && out.contains("Textures\\Missing.blp"),
        "{out}"
    );
    assert_eq!(r.status.code(), Some(1), "an error");
    let r = mdlx(&["check", &s(&mdl)]);
    assert!(!text(&r.stdout).contains("texture-not-found"));

    // A model an emitter spawns, found nowhere: the same (a corpus model whose particle
    // emitters spawn the game's WarMillDeath.mdl and WarMillBirth.mdl).
    let spawner = s(corpus()
        .join("mdx/Bergi-bear__ARATHIFOREST__map.w3x__war3mapImported__orcprops_spike2.mdx"));
    let r = mdlx(&["check", &spawner, "--textures", &s(&game)]);
    let out = text(&r.stdout);
    assert!(
        out.contains("model-not-found") && out.contains("WarMillDeath.mdl"),
        "{out}"
    );
    let r = mdlx(&["check", &spawner]);
    assert!(!text(&r.stdout).contains("model-not-found"));

    // The glTF export embeds the archive's texture.
    let glb = dir.join("cube.glb");
    let r = mdlx(&["convert", &cube(), &s(&glb), "--textures", &s(&game)]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(!stderr(&r).contains("not found"), "{}", stderr(&r));
    let bytes = std::fs::read(&glb).unwrap();
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&bytes[20..20 + len]).unwrap();
    assert_eq!(json["images"].as_array().map(Vec::len), Some(1), "{json}");
}
