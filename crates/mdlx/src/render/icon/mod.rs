//! Icons as the game's command card shows them: the art (a model drawn headless, or any
//! picture) inside the frame of a button, a passive or an autocast icon, and each one's
//! disabled look, at 64 x 64 (classic) or any square size.
//!
//! ```
//! use mdlx::render::icon::{icon, square, IconVariant};
//! use mdlx::texture::RgbaImage;
//! let art = RgbaImage { width: 8, height: 8, pixels: [200, 120, 40, 255].repeat(64) };
//! let art = square(&art, 64);
//! let btn = icon(&art, IconVariant::parse("btn").unwrap(), None);
//! let dis = icon(&art, IconVariant::parse("disbtn").unwrap(), None);
//! assert_eq!((btn.width, btn.height), (64, 64));
//! assert_eq!(&dis.pixels[..4], &[0, 0, 0, 255]); // the disabled frame is black
//! let middle = (32 * 64 + 32) * 4;
//! assert_eq!(dis.pixels[middle], 105); // 0.525 of the art's 200, colour kept
//! ```
//!
//! How the frames and the disabled look were measured: [`frame`] and [`disabled`].

mod border;
mod framing;

pub use border::{disabled, frame, DISABLED_GAIN};
pub use framing::{
    frame_points, framed_box, head_centre, head_node, icon_camera, node_name, node_position,
    place_portrait_camera, portrait_camera, FramedBy, Framing, PortraitView, PORTRAIT_DISTANCE,
    PORTRAIT_FOV, PORTRAIT_RISE,
};

use crate::anim::AnimTime;
use crate::render::{Camera, RenderOptions, Scene, DEFAULT_FOV_Y, TEAM_COLORS};
use crate::texture::RgbaImage;

/// How a model is drawn for its icons.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArtOptions {
    /// Side in pixels (64 classic, 256 Reforged HD).
    pub size: u32,
    /// What is framed.
    pub framing: Framing,
    /// Camera: degrees about the vertical from the model's front (+X).
    pub yaw: f32,
    /// Camera: degrees above the horizon.
    pub pitch: f32,
    /// Vertical field of view, radians.
    pub fov: f32,
    /// Eye to target in model units; `None`: framed to fit.
    pub distance: Option<f32>,
    /// The team colour.
    pub team_color: [u8; 3],
    /// Whether particle emitters 2 and ribbons are drawn.
    pub effects: bool,
    /// The level of detail drawn.
    pub lod: u32,
}

impl Default for ArtOptions {
    /// 64 x 64, the head, a three-quarter view of the face a little from above (30 and 10
    /// degrees), 45 degrees of view, red.
    fn default() -> Self {
        ArtOptions {
            size: 64,
            framing: Framing::Head,
            yaw: 30.0,
            pitch: 10.0,
            fov: DEFAULT_FOV_Y,
            distance: None,
            team_color: TEAM_COLORS[0],
            effects: true,
            lod: 0,
        }
    }
}

/// The model of `scene` drawn at `at` for an icon, on a clear background (sixteen
/// samples a pixel), and how it was framed; `None` when it draws nothing there (or, for
/// [`Framing::Camera`], has no usable camera).
pub fn art(scene: &Scene, at: AnimTime, o: &ArtOptions) -> Option<(RgbaImage, FramedBy)> {
    let (yaw, pitch) = (o.yaw.to_radians(), o.pitch.to_radians());
    let (camera, by) = if o.framing == Framing::Camera {
        (Camera::from_model(scene.model(), 0)?, FramedBy::Camera)
    } else {
        let (b, by) = framed_box(scene, at, o.lod, o.framing)?;
        let c = icon_camera(&b, yaw, pitch, o.fov);
        let c = match o.distance.filter(|d| d.is_finite() && *d > 0.0) {
            Some(d) => Camera {
                near: d * 0.01,
                far: d * 20.0,
                ..Camera::orbit(c.target, d, yaw, pitch, o.fov)
            },
            None => c,
        };
        (c, by)
    };
    let mut r = RenderOptions::new(o.size, o.size, camera);
    r.supersample = 4;
    r.team_color = o.team_color;
    r.effects = o.effects;
    r.lod = o.lod;
    Some((scene.render(at, &r), by))
}

/// The frame an icon carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IconKind {
    /// A command button (`BTN`): a black line, a grey bevel lit from the top left, a dark
    /// line, then a soft shade into the art.
    Button,
    /// A passive ability (`PASBTN`): black, no bevel, a deep shade into the art.
    Passive,
    /// An autocast ability (`ATC`): the button frame in gold.
    Autocast,
}

/// One icon of a set: its frame, and whether it is the disabled one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IconVariant {
    /// The frame.
    pub kind: IconKind,
    /// The disabled look.
    pub disabled: bool,
}

impl IconVariant {
    /// Every variant: BTN, DISBTN, PASBTN, DISPASBTN, ATC, DISATC.
    pub const ALL: [IconVariant; 6] = [
        IconVariant::new(IconKind::Button, false),
        IconVariant::new(IconKind::Button, true),
        IconVariant::new(IconKind::Passive, false),
        IconVariant::new(IconKind::Passive, true),
        IconVariant::new(IconKind::Autocast, false),
        IconVariant::new(IconKind::Autocast, true),
    ];

    const fn new(kind: IconKind, disabled: bool) -> IconVariant {
        IconVariant { kind, disabled }
    }

    /// The prefix of its file name, as the game's own icons are named (`BTN`, `DISBTN`,
    /// `PASBTN`, `DISPASBTN`) and, for autocast icons, which the game does not ship, as
    /// modders name them (`ATC`, `DISATC`).
    pub fn prefix(self) -> &'static str {
        match (self.kind, self.disabled) {
            (IconKind::Button, false) => "BTN",
            (IconKind::Button, true) => "DISBTN",
            (IconKind::Passive, false) => "PASBTN",
            (IconKind::Passive, true) => "DISPASBTN",
            (IconKind::Autocast, false) => "ATC",
            (IconKind::Autocast, true) => "DISATC",
        }
    }

    /// The variant a word names: `btn`, `disbtn`, `pas` (or `pasbtn`), `dispas` (or
    /// `dispasbtn`), `atc`, `disatc`; any case.
    pub fn parse(word: &str) -> Option<IconVariant> {
        let w = word.trim().to_ascii_lowercase();
        let (disabled, rest) = match w.strip_prefix("dis") {
            Some(r) => (true, r),
            None => (false, w.as_str()),
        };
        let kind = match rest {
            "btn" => IconKind::Button,
            "pas" | "pasbtn" => IconKind::Passive,
            "atc" => IconKind::Autocast,
            _ => return None,
        };
        Some(IconVariant::new(kind, disabled))
    }

    /// The folder the game looks in, with backslashes: `ReplaceableTextures\CommandButtons`,
    /// `...\PassiveButtons`, and `...\CommandButtonsDisabled` for every disabled icon.
    pub fn folder(self) -> &'static str {
        match (self.kind, self.disabled) {
            (_, true) => "ReplaceableTextures\\CommandButtonsDisabled",
            (IconKind::Passive, false) => "ReplaceableTextures\\PassiveButtons",
            _ => "ReplaceableTextures\\CommandButtons",
        }
    }

    /// The path the game looks for: folder, prefix, `name`, `.ext`.
    pub fn path(self, name: &str, ext: &str) -> String {
        format!("{}\\{}{name}.{ext}", self.folder(), self.prefix())
    }
}

/// What is behind the art.
#[derive(Clone, Debug, PartialEq)]
pub enum Background {
    /// Nothing (the art's own alpha; the frame is opaque).
    Clear,
    /// One colour.
    Solid([u8; 3]),
    /// From the first colour at the centre to the second at the corners.
    Radial([u8; 3], [u8; 3]),
    /// A picture, made square and sized as the icon.
    Image(RgbaImage),
}

impl Default for Background {
    /// A dark warm glow behind the middle, as many of the game's unit icons are painted.
    fn default() -> Self {
        Background::Radial([92, 80, 64], [18, 16, 14])
    }
}

/// `art` over `background` (straight alpha).
pub fn over(art: &RgbaImage, background: &Background) -> RgbaImage {
    let (w, h) = (art.width, art.height);
    let image = match background {
        Background::Image(i) => Some(square(i, w.max(h))),
        _ => None,
    };
    let mut out = art.clone();
    for y in 0..h {
        for x in 0..w {
            let i = ((y * w + x) * 4) as usize;
            let back: [f32; 4] = match background {
                Background::Clear => [0.0; 4],
                Background::Solid(c) => [c[0], c[1], c[2], 255].map(f32::from),
                Background::Radial(a, b) => {
                    let dx = (x as f32 + 0.5) / w as f32 - 0.5;
                    let dy = (y as f32 + 0.5) / h as f32 - 0.5;
                    let t = ((dx * dx + dy * dy).sqrt() / 0.5f32.hypot(0.5)).min(1.0);
                    let mix = |k: usize| f32::from(a[k]) * (1.0 - t) + f32::from(b[k]) * t;
                    [mix(0), mix(1), mix(2), 255.0]
                }
                Background::Image(_) => {
                    let img = image.as_ref().map_or(&art.pixels, |m| &m.pixels);
                    let j = ((y * w.max(h) + x) * 4) as usize;
                    [0, 1, 2, 3].map(|k| f32::from(img.get(j + k).copied().unwrap_or(0)))
                }
            };
            let src = &art.pixels[i..i + 4];
            let a = f32::from(src[3]) / 255.0;
            let ba = back[3] / 255.0;
            let out_a = a + ba * (1.0 - a);
            for k in 0..3 {
                let v = if out_a > 0.0 {
                    (f32::from(src[k]) * a + back[k] * ba * (1.0 - a)) / out_a
                } else {
                    0.0
                };
                out.pixels[i + k] = v.round().clamp(0.0, 255.0) as u8;
            }
            out.pixels[i + 3] = (out_a * 255.0).round() as u8;
        }
    }
    out
}

/// `image` cut to a square about its centre and sized `n` x `n`: each pixel the average of
/// the pixels it covers (weighted by alpha), or the nearest one when it grows.
pub fn square(image: &RgbaImage, n: u32) -> RgbaImage {
    let side = image.width.min(image.height).max(1);
    let (x0, y0) = ((image.width - side) / 2, (image.height - side) / 2);
    let n = n.max(1);
    let mut pixels = Vec::with_capacity((n * n * 4) as usize);
    for y in 0..n {
        let (sy0, sy1) = span(y, n, side);
        for x in 0..n {
            let (sx0, sx1) = span(x, n, side);
            let mut sum = [0.0f64; 4];
            for sy in sy0..sy1 {
                for sx in sx0..sx1 {
                    let i = (((y0 + sy) * image.width + x0 + sx) * 4) as usize;
                    let p = image.pixels.get(i..i + 4).unwrap_or(&[0; 4]);
                    let a = f64::from(p[3]);
                    for k in 0..3 {
                        sum[k] += f64::from(p[k]) * a;
                    }
                    sum[3] += a;
                }
            }
            let count = f64::from((sy1 - sy0) * (sx1 - sx0));
            for k in 0..3 {
                let v = if sum[3] > 0.0 { sum[k] / sum[3] } else { 0.0 };
                pixels.push(v.round().clamp(0.0, 255.0) as u8);
            }
            pixels.push((sum[3] / count).round().clamp(0.0, 255.0) as u8);
        }
    }
    RgbaImage {
        width: n,
        height: n,
        pixels,
    }
}

/// The source pixels `[a, b)` that target pixel `t` of `n` covers in a side of `side`.
fn span(t: u32, n: u32, side: u32) -> (u32, u32) {
    let a = (u64::from(t) * u64::from(side) / u64::from(n)) as u32;
    let b = (u64::from(t + 1) * u64::from(side) / u64::from(n)) as u32;
    (a.min(side - 1), b.max(a + 1).min(side))
}

/// The icon `variant` of `art` (square; see [`square`]): its frame drawn over it, or
/// `border` (a picture with alpha, sized as the art: the user's own frame) laid over it;
/// then, for a disabled variant, [`disabled`].
pub fn icon(art: &RgbaImage, variant: IconVariant, border: Option<&RgbaImage>) -> RgbaImage {
    let framed = match border {
        Some(b) => over(&square(b, art.width), &Background::Image(art.clone())),
        None => frame(art, variant.kind),
    };
    if variant.disabled {
        disabled(&framed, variant.kind)
    } else {
        framed
    }
}

/// The share of `image`'s pixels inside its frame (4 pixels in, at 64 x 64) that `art`
/// covers (alpha at least half): how much of an icon the model fills.
pub fn coverage(art: &RgbaImage) -> f64 {
    let n = art.width.min(art.height);
    let inset = (n / 16).min(n / 2);
    let (mut covered, mut all) = (0u64, 0u64);
    for y in inset..n - inset {
        for x in inset..n - inset {
            all += 1;
            let a = art.pixels[((y * art.width + x) * 4 + 3) as usize];
            covered += u64::from(a >= 128);
        }
    }
    covered as f64 / all.max(1) as f64
}
