//! The texture-file rules of `mdlx check` on real textures of the corpus: a model naming
//! them (by file name, which the texture finder matches in any searched folder) gets the
//! findings each file calls for, and a plain 256x256 JPEG BLP gets none. The corpus's
//! textures were scanned for these properties by reading their headers with a separate
//! script (width, height and the BLP1 JPEG header size at offset 156).

mod common;

use mdlx::model::{Model, Texture};

fn ids_for(dir: &std::path::Path, version: u32, name: &str) -> Vec<&'static str> {
    let model = Model {
        version,
        textures: vec![Texture {
            path: format!("war3mapImported\\{name}").as_str().into(),
            ..Texture::default()
        }],
        ..Model::default()
    };
    let f = mdlx::check::check_textures(&model, vec![dir.to_path_buf()]);
    let mut ids: Vec<_> = f.iter().map(|f| f.rule.id).collect();
    ids.sort_unstable();
    ids
}

#[test]
fn texture_rules_on_real_files() {
    let Some(dir) = common::texture_corpus("texture_rules_on_real_files") else {
        return;
    };
    // 256x256, BLP1 JPEG with a 292-byte header.
    let good = "AMISD666__War3ModelView__test_model__war3mapImported__AZ_Knife_light12.blp";
    assert_eq!(ids_for(&dir, 800, good), Vec::<&str>::new());
    // A 628-byte shared JPEG header.
    let header = "sumneko__All-star-Battle__map__LoadingScreenTR.blp";
    assert!(ids_for(&dir, 800, header).contains(&"blp-jpeg-header-too-large"));
    // 84x88.
    let odd = "mashlol__wc3-orpg__map.w3x__war3mapImported__ui__arrow_down_1_icon.blp";
    assert_eq!(ids_for(&dir, 800, odd), vec!["texture-not-power-of-two"]);
    // 512x768: not a power of two, and over 512 for a classic model only.
    let tall = "Bergi-bear__BloodOmen__map.w3x__SpellTexture.blp";
    assert_eq!(
        ids_for(&dir, 800, tall),
        vec!["texture-not-power-of-two", "texture-over-512"]
    );
    assert_eq!(ids_for(&dir, 1000, tall), vec!["texture-not-power-of-two"]);
    // A texture that is not there is not reported (it may be in the game's archives).
    assert_eq!(
        ids_for(&dir, 800, "Textures\\Nowhere.blp"),
        Vec::<&str>::new()
    );
}
