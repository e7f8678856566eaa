//! The renderer's own checks, on pictures whose answer follows from geometry and from the
//! blend equations the filter modes stand for (OpenGL's, as mdx-m3-viewer sets them:
//! blend `SRC_ALPHA, ONE_MINUS_SRC_ALPHA`; additive and add-alpha `SRC_ALPHA, ONE`;
//! modulate `ZERO, SRC_COLOR`; modulate 2x `DST_COLOR, SRC_COLOR`; transparent an alpha
//! test at 0.75), never from a first run of this code.

use super::*;

/// One quad per entry, in the plane x = `x`, spanning -s..s in y and z, facing +X, with a
/// layer of `filter` mode, `alpha`, extra layer `flags` (MDL words) and a texture: team
/// colour when `team`, else a white TGA file (`white.tga`, made in a folder of its own).
/// `Quad::missing` draws a file that is never found instead.
struct Quad {
    x: f32,
    filter: &'static str,
    alpha: f32,
    flags: &'static str,
    team: bool,
}

/// Texture ids of the test model: the white file, team colour, a file never found.
const WHITE: u8 = 0;
const TEAM: u8 = 1;
const MISSING: u8 = 2;

/// A folder holding `white.tga` (1 x 1, white, opaque), made once per test process.
fn white_dir() -> std::path::PathBuf {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("mdlx-render-white-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let white = RgbaImage {
            width: 1,
            height: 1,
            pixels: vec![255; 4],
        };
        let bytes = crate::texture::write::tga_to_bytes(&white, false).unwrap();
        std::fs::write(d.join("white.tga"), bytes).unwrap();
        d
    })
    .clone()
}

impl Quad {
    fn plain(filter: &'static str, alpha: f32) -> Quad {
        Quad {
            x: 0.0,
            filter,
            alpha,
            flags: "Unshaded,",
            team: false,
        }
    }
}

const S: f32 = 10.0;

fn model(quads: &[Quad]) -> Model {
    model_with(quads, |q| if q.team { TEAM } else { WHITE })
}

/// [`model`] with the texture of each quad chosen by `texture`.
fn model_with(quads: &[Quad], texture: impl Fn(&Quad) -> u8) -> Model {
    let mut mdl = String::from("Version { FormatVersion 800, }\nModel \"t\" { BlendTime 0, }\n");
    mdl += &format!("Textures 3 {{\n Bitmap {{ Image \"white.tga\", }}\n Bitmap {{ Image \"\", ReplaceableId 1, }}\n Bitmap {{ Image \"nowhere.blp\", }}\n}}\nMaterials {} {{\n", quads.len());
    for q in quads {
        mdl += &format!(
            " Material {{ Layer {{ FilterMode {}, static TextureID {}, static Alpha {}, {} }} }}\n",
            q.filter,
            texture(q),
            q.alpha,
            q.flags
        );
    }
    mdl += "}\n";
    for (i, q) in quads.iter().enumerate() {
        let x = q.x;
        mdl += &format!(
            "Geoset {{\n Vertices 4 {{ {{ {x}, -{S}, -{S} }}, {{ {x}, {S}, -{S} }}, {{ {x}, {S}, {S} }}, {{ {x}, -{S}, {S} }}, }}\n \
             Normals 4 {{ {{ 1, 0, 0 }}, {{ 1, 0, 0 }}, {{ 1, 0, 0 }}, {{ 1, 0, 0 }}, }}\n \
             TVertices 4 {{ {{ 0, 1 }}, {{ 1, 1 }}, {{ 1, 0 }}, {{ 0, 0 }}, }}\n \
             VertexGroup {{ 0, 0, 0, 0, }}\n Faces 1 6 {{ Triangles {{ {{ 0, 1, 2, 0, 2, 3 }}, }} }}\n \
             Groups 1 1 {{ Matrices {{ 0 }}, }}\n MaterialID {i},\n SelectionGroup 0,\n}}\n"
        );
    }
    mdl += "Bone \"Root\" { ObjectId 0, GeosetId Multiple, GeosetAnimId None, }\nPivotPoints 1 { { 0, 0, 0 }, }\n";
    crate::mdl::from_bytes(mdl.as_bytes()).expect("the test model reads")
}

/// A camera on the +X axis (or -X) at distance 2S, 90 degrees of view: the quad's edges
/// fall exactly a quarter of the picture in from each side.
fn camera(from_front: bool) -> Camera {
    let d = if from_front { 2.0 * S } else { -2.0 * S };
    Camera {
        eye: [d, 0.0, 0.0],
        target: [0.0; 3],
        up: [0.0, 0.0, 1.0],
        fov_y: std::f32::consts::FRAC_PI_2,
        near: 1.0,
        far: 100.0,
    }
}

const BG: [u8; 4] = [51, 102, 153, 255];

fn draw(quads: &[Quad], from_front: bool, team: [u8; 3]) -> RgbaImage {
    draw_model(&model(quads), from_front, team)
}

fn draw_model(m: &Model, from_front: bool, team: [u8; 3]) -> RgbaImage {
    let cache = TextureCache::new(vec![white_dir()]);
    let scene = Scene::new(m, &cache);
    let mut o = RenderOptions::new(64, 64, camera(from_front));
    o.background = BG;
    o.team_color = team;
    scene.render(AnimTime::new(None, 0.0), &o)
}

fn px(img: &RgbaImage, x: usize, y: usize) -> [u8; 4] {
    let i = (y * img.width as usize + x) * 4;
    [0, 1, 2, 3].map(|k| img.pixels[i + k])
}

fn close(got: [u8; 4], want: [f32; 3]) -> bool {
    (0..3).all(|k| (f32::from(got[k]) - want[k] * 255.0).abs() <= 1.5)
}

#[test]
fn a_quad_covers_what_the_pinhole_projection_says() {
    let img = draw(&[Quad::plain("None", 1.0)], true, [0; 3]);
    // Half-size S at distance 2S with tan(45 deg) = 1: NDC -0.5..0.5, pixels 16..48.
    let covered = (0..64)
        .flat_map(|y| (0..64).map(move |x| (x, y)))
        .filter(|&(x, y)| px(&img, x, y) != BG)
        .collect::<Vec<_>>();
    assert_eq!(covered.len(), 32 * 32, "pixels covered");
    assert!(covered
        .iter()
        .all(|&(x, y)| (16..48).contains(&x) && (16..48).contains(&y)));
    assert_eq!(px(&img, 32, 32), [255, 255, 255, 255]);
}

#[test]
fn each_filter_mode_blends_as_its_equation_says() {
    let bg = BG.map(|c| f32::from(c) / 255.0);
    let white_half = |f| draw(&[Quad::plain(f, 0.5)], true, [0; 3]);
    let c = [0, 1, 2];
    let blend = c.map(|k| bg[k] * 0.5 + 0.5);
    assert!(close(px(&white_half("Blend"), 32, 32), blend));
    let add = c.map(|k| (bg[k] + 0.5).min(1.0));
    assert!(close(px(&white_half("Additive"), 32, 32), add));
    assert!(close(px(&white_half("AddAlpha"), 32, 32), add));
    // Alpha-keyed: drawn at 0.8, not at 0.5.
    assert_eq!(px(&white_half("Transparent"), 32, 32), BG);
    let keyed = draw(&[Quad::plain("Transparent", 0.8)], true, [0; 3]);
    assert_eq!(px(&keyed, 32, 32), [255, 255, 255, 255]);
    // Modulate by a grey team colour (128 / 255).
    let grey = |f| {
        let mut q = Quad::plain(f, 1.0);
        q.team = true;
        draw(&[q], true, [128; 3])
    };
    let g = 128.0 / 255.0;
    assert!(close(px(&grey("Modulate"), 32, 32), c.map(|k| bg[k] * g)));
    assert!(close(
        px(&grey("Modulate2x"), 32, 32),
        c.map(|k| bg[k] * g * 2.0)
    ));
}

#[test]
fn depth_keeps_the_nearer_quad_whatever_the_order() {
    let near = |x| Quad {
        x,
        filter: "None",
        alpha: 1.0,
        flags: "Unshaded,",
        team: true,
    };
    let far = |x| Quad {
        x,
        ..Quad::plain("None", 1.0)
    };
    let red = [255, 3, 3];
    for quads in [[near(2.0), far(-2.0)], [far(-2.0), near(2.0)]] {
        let img = draw(&quads, true, red);
        assert_eq!(px(&img, 32, 32), [255, 3, 3, 255]);
    }
}

#[test]
fn back_faces_show_only_when_two_sided() {
    let one = draw(&[Quad::plain("None", 1.0)], false, [0; 3]);
    assert_eq!(px(&one, 32, 32), BG, "a quad seen from behind is culled");
    let mut q = Quad::plain("None", 1.0);
    q.flags = "Unshaded, TwoSided,";
    let two = draw(&[q], false, [0; 3]);
    assert_eq!(px(&two, 32, 32), [255, 255, 255, 255]);
}

#[test]
fn the_light_darkens_surfaces_turned_from_it_and_not_unshaded_ones() {
    let mut lit = Quad::plain("None", 1.0);
    lit.flags = "";
    let facing = draw(&[lit], true, [0; 3]);
    let p = px(&facing, 32, 32);
    // Lit from above the viewer's shoulder: darker than the texture, never black.
    assert!(p[0] > 100 && p[0] < 255, "{p:?}");
    let flat = draw(&[Quad::plain("None", 1.0)], true, [0; 3]);
    assert_eq!(px(&flat, 32, 32), [255, 255, 255, 255]);
}

#[test]
fn the_same_input_gives_the_same_picture() {
    let a = draw(
        &[Quad::plain("Blend", 0.3), Quad::plain("None", 1.0)],
        true,
        [9; 3],
    );
    let b = draw(
        &[Quad::plain("Blend", 0.3), Quad::plain("None", 1.0)],
        true,
        [9; 3],
    );
    assert_eq!(a, b);
}

#[test]
fn the_games_team_colour_files_are_recognised_by_path() {
    assert_eq!(
        team_file("ReplaceableTextures\\TeamColor\\TeamColor12.blp"),
        Some((false, 12))
    );
    assert_eq!(
        team_file("replaceabletextures/teamglow/teamglow00.blp"),
        Some((true, 0))
    );
    assert_eq!(
        team_file("ReplaceableTextures\\TeamColor\\TeamColor99.blp"),
        None
    );
    assert_eq!(team_file("Textures\\TeamColor12.blp"), None);
}

#[test]
fn large_texture_levels_are_dropped_and_the_rest_are_box_filtered() {
    // 64x32: left half black, right half white, alpha 255.
    let mut pixels = Vec::new();
    for _y in 0..32 {
        for x in 0..64 {
            let c = if x < 32 { 0 } else { 255 };
            pixels.extend([c, c, c, 255]);
        }
    }
    let image = RgbaImage {
        width: 64,
        height: 32,
        pixels,
    };
    let full = Mips::new(&image);
    assert_eq!(full.size(), (64, 32));
    let small = Mips::with_max_side(&image, 16);
    assert_eq!(small.size(), (16, 8));
    // The halves stay black and white at every kept level; the 1x1 level is their mean.
    let left = small.sample(0, 0.1, 0.5, [false; 2]);
    let right = small.sample(0, 0.9, 0.5, [false; 2]);
    assert_eq!((left[0], right[0]), (0.0, 1.0));
    let last = small.level_for(1.0e9);
    let mean = small.sample(last, 0.5, 0.5, [false; 2]);
    assert!((mean[0] - 0.5).abs() < 1.0 / 255.0 + 1e-6, "{mean:?}");
}

#[test]
fn only_the_geosets_of_the_level_of_detail_drawn_show() {
    // A white quad at level 0 behind a team-coloured one at level 1.
    let front = Quad {
        x: 5.0,
        team: true,
        ..Quad::plain("None", 1.0)
    };
    let mut m = model(&[Quad::plain("None", 1.0), front]);
    m.geosets[1].lod = 1;
    let cache = TextureCache::new(vec![white_dir()]);
    let at = AnimTime::new(None, 0.0);
    let centre = |m: &Model, lod: u32| {
        let mut o = RenderOptions::new(64, 64, camera(true));
        o.background = BG;
        o.team_color = [255, 0, 0];
        o.lod = lod;
        px(&Scene::new(m, &cache).render(at, &o), 32, 32)
    };
    const OPAQUE_WHITE: [u8; 4] = [255, 255, 255, 255];
    const RED: [u8; 4] = [255, 0, 0, 255];
    assert_eq!(centre(&m, 0), OPAQUE_WHITE, "level 0 only");
    assert_eq!(centre(&m, 1), RED, "level 1 only, in front");
    m.geosets[1].lod = 2;
    assert_eq!(
        centre(&m, 1),
        OPAQUE_WHITE,
        "levels 0 and 2, 1 asked: 0, the finer"
    );
    m.geosets[1].lod = crate::model::Geoset::EVERY_LOD;
    assert_eq!(centre(&m, 0), RED, "every level, drawn at 0");
    assert_eq!(centre(&m, 3), RED, "every level, drawn at 3");
    m.geosets[0].lod = 3;
    assert_eq!(centre(&m, 0), RED, "the level-3 quad is not drawn at 0");
}

#[test]
fn a_model_without_the_level_asked_for_draws_its_nearest() {
    let mut m = model(&[Quad::plain("None", 1.0), Quad::plain("None", 1.0)]);
    m.geosets[0].lod = 3;
    m.geosets[1].lod = 2;
    assert_eq!(draw::level_drawn(&m, 0), 2);
    assert_eq!(draw::level_drawn(&m, 3), 3);
    m.geosets[1].lod = 1;
    assert_eq!(draw::level_drawn(&m, 2), 1, "the finer on a tie");
    m.geosets[1].lod = crate::model::Geoset::EVERY_LOD;
    assert_eq!(
        draw::level_drawn(&m, 0),
        0,
        "a geoset for every level shows at 0"
    );
}

/// A texture that cannot be found is drawn by what its layer does, so that the shape
/// still reads: a surface light grey (200 of 255; the quads are unshaded, so exactly
/// that), an additive layer a tenth of white added to the background, a modulating layer
/// no change; the picture lists it as missing either way.
#[test]
fn a_missing_texture_is_drawn_by_what_its_layer_does() {
    let missing = |f: &'static str, alpha: f32| {
        let m = model_with(&[Quad::plain(f, alpha)], |_| MISSING);
        let cache = TextureCache::new(vec![white_dir()]);
        assert_eq!(Scene::new(&m, &cache).missing().len(), 1, "listed");
        px(&draw_model(&m, true, [0; 3]), 32, 32)
    };
    assert_eq!(missing("None", 1.0), [200, 200, 200, 255]);
    assert_eq!(missing("Transparent", 1.0), [200, 200, 200, 255]);
    for f in ["Additive", "AddAlpha"] {
        let got = missing(f, 1.0);
        let want = BG.map(|c| f32::from(c) / 255.0 + 0.1);
        assert!(close(got, [want[0], want[1], want[2]]), "{f}: {got:?}");
    }
    for f in ["Modulate", "Modulate2x"] {
        let got = missing(f, 1.0);
        assert!((0..3).all(|k| got[k].abs_diff(BG[k]) <= 1), "{f}: {got:?}");
    }
}
