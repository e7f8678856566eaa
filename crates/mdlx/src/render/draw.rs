//! A picture of a scene: the draw list (geoset layers, then effects) and how each is shaded.

use super::raster::{self, State, Target, Vert, NV};
use super::{effects, Blend, Mips, RenderOptions, Scene};
use crate::anim::math::{cross, dot, normalize, qnormalize, scale, sub, transform_point};
use crate::anim::math::{trs_about, Mat4, Vec3, QUAT_IDENTITY};
use crate::anim::{posed_geosets, AnimTime, Clock, PosedGeoset};
use crate::model::{geoset_animation_flags, layer_flags, Extent, Layer, Material, Model};
use crate::spec::track::{KGAC, KMTA, KMTF, KTAR, KTAS, KTAT};
use crate::texture::RgbaImage;
use std::sync::Arc;

/// Light that reaches every surface, and the share of the directional light.
const AMBIENT: f32 = 0.55;
const DIFFUSE: f32 = 0.5;
/// Largest picture side drawn (before supersampling), to bound memory.
pub(crate) const MAX_SIDE: u32 = 8192;
/// The most samples a picture holds (supersampling included): 8192 x 8192.
const MAX_SAMPLES: usize = 8192 * 8192;

pub(super) fn bounds(scene: &Scene, at: AnimTime, lod: u32) -> Option<Extent> {
    points_box(solid_points(scene, at, lod).into_iter())
}

/// The box around `points`, or `None` without any.
pub(super) fn points_box(points: impl Iterator<Item = Vec3>) -> Option<Extent> {
    let (mut min, mut max) = ([f32::MAX; 3], [f32::MIN; 3]);
    let mut any = false;
    for p in points {
        any = true;
        for k in 0..3 {
            min[k] = min[k].min(p[k]);
            max[k] = max[k].max(p[k]);
        }
    }
    any.then(|| Extent {
        radius: dot(sub(max, min), sub(max, min)).sqrt() * 0.5,
        min,
        max,
    })
}

/// The posed vertices (finite, within 1e7 of the origin) of the geosets that show at `at`
/// at level of detail `lod` and draw a surface ([`solid`]); of every geoset that shows when
/// none draws a surface (a model of glows alone is framed by them).
pub(super) fn solid_points(scene: &Scene, at: AnimTime, lod: u32) -> Vec<Vec3> {
    solid_geosets(scene, at, lod)
        .into_iter()
        .flatten()
        .collect()
}

/// [`solid_points`], geoset by geoset.
pub(super) fn solid_geosets(scene: &Scene, at: AnimTime, lod: u32) -> Vec<Vec<Vec3>> {
    let clock = scene.skeleton.clock(at);
    let pose = scene.skeleton.pose_at(&clock, None);
    let posed = posed_geosets(scene.model, &scene.skeleton, &pose, &clock);
    let lod = level_drawn(scene.model, lod);
    let shown: Vec<&PosedGeoset> = posed
        .iter()
        .filter(|g| g.visible && scene.model.geosets[g.index].shows_at_lod(lod))
        .collect();
    let solid: Vec<&PosedGeoset> = shown
        .iter()
        .copied()
        .filter(|g| solid(scene.model, g.index, &clock))
        .collect();
    let framed = if solid.is_empty() { shown } else { solid };
    framed
        .iter()
        .map(|g| {
            (g.positions.iter())
                .filter(|p| p.iter().all(|c| c.is_finite() && c.abs() < 1e7))
                .copied()
                .collect()
        })
        .collect()
}

/// Whether geoset `index` draws a surface at the time of `clock`: a layer (still showing)
/// that covers what is behind it (filter mode none, transparent or blend) with a texture
/// other than the team glow. A hero's glow (an additive plane at its feet, or a blended
/// one of the team glow), light beams and other additive planes are not surfaces: they
/// would frame a unit as a fifth of its picture.
pub(super) fn solid(model: &Model, index: usize, clock: &Clock) -> bool {
    let Some(m) = model
        .geosets
        .get(index)
        .and_then(|g| model.materials.get(g.material_id as usize))
    else {
        return true;
    };
    m.layers.iter().any(|l| {
        let covers = matches!(
            Blend::from_filter_mode(l.filter_mode),
            Blend::Opaque | Blend::AlphaKey | Blend::Blend
        );
        let glow = usize::try_from(layer_texture(l, clock))
            .ok()
            .and_then(|t| model.textures.get(t))
            .is_some_and(|t| {
                let path = t.path.to_string();
                (path.is_empty() && t.replaceable_id == 2)
                    || super::team_file(&path).is_some_and(|(glow, _)| glow)
            });
        covers && !glow && clock.sample(l.tracks.float(KMTA), l.alpha) > 0.0
    })
}

/// The level of detail drawn when `lod` is asked for: `lod` itself when some geoset shows
/// there; otherwise the nearest level the model has, the finer one on a tie (a model made
/// of level-3 geosets alone still shows; mdx-m3-viewer draws nothing of it).
pub(super) fn level_drawn(model: &Model, lod: u32) -> u32 {
    if model.geosets.iter().any(|g| g.shows_at_lod(lod)) {
        return lod;
    }
    model
        .geosets
        .iter()
        .map(|g| g.lod)
        .min_by_key(|&l| (l.abs_diff(lod), l))
        .unwrap_or(lod)
}

/// One layer of one geoset, to draw.
struct Item<'a> {
    geoset: &'a PosedGeoset,
    material: Option<&'a Material>,
    layer: usize,
    blend: Blend,
    priority: i32,
}

/// Everything a draw needs that is the same for the whole picture.
struct Frame<'a> {
    model: &'a Model,
    textures: &'a [Option<Arc<Mips>>],
    team: Arc<Mips>,
    glow: Arc<Mips>,
    stand_ins: StandIns,
    light_dir: Vec3,
    lit: bool,
    /// Supersampling factor: mip levels are chosen for the picture's own pixels, as a
    /// renderer drawing at that size would (which is what thins alpha-keyed foliage
    /// far away).
    ss: f32,
}

/// What a texture that cannot be drawn (not found, a replaceable texture the game supplies,
/// or no texture record) is drawn as, by what it does, so that the shape still reads:
/// surfaces a light grey that the light shades; what adds light a faint grey (a white
/// additive layer would paint the whole model white); what multiplies no change; HD normal
/// maps flat, HD emissive maps black.
struct StandIns {
    /// Diffuse colour: light grey (200 of 255), opaque.
    surface: Arc<Mips>,
    /// Additive layers: a tenth of white, about what an unknown glow or effect texture
    /// (bright marks on black) adds on average; the shape shows as a faint glow, and it
    /// takes many layers over one another to reach white.
    faint: Arc<Mips>,
    /// HD emissive maps: black, which adds nothing (most of an emissive map is black).
    nothing: Arc<Mips>,
    /// Modulate: white (no change).
    white: Arc<Mips>,
    /// Modulate 2x: mid grey (times two: no change).
    half: Arc<Mips>,
    /// HD normal map: the surface's own normal.
    flat_normal: Arc<Mips>,
    /// Particles and ribbons: a soft white disc, which their colour tints (a square of
    /// grey per particle would hide the model behind the cloud).
    particle: Arc<Mips>,
}

impl StandIns {
    fn new() -> StandIns {
        let grey = 200.0 / 255.0;
        StandIns {
            surface: Arc::new(Mips::solid([grey, grey, grey, 1.0])),
            faint: Arc::new(Mips::solid([0.1, 0.1, 0.1, 1.0])),
            nothing: Arc::new(Mips::solid([0.0; 4])),
            white: Arc::new(Mips::solid([1.0; 4])),
            half: Arc::new(Mips::solid([0.5, 0.5, 0.5, 1.0])),
            flat_normal: Arc::new(Mips::solid([0.5, 0.5, 1.0, 1.0])),
            particle: Arc::new(glow([1.0; 3])),
        }
    }

    /// The stand-in of a layer drawn with `blend`.
    fn for_blend(&self, blend: Blend) -> &Arc<Mips> {
        match blend {
            Blend::Opaque | Blend::AlphaKey | Blend::Blend => &self.surface,
            Blend::Additive | Blend::AddAlpha => &self.faint,
            Blend::Modulate => &self.white,
            Blend::Modulate2x => &self.half,
        }
    }
}

impl Frame<'_> {
    /// The texture of model texture `id` (or `stand_in` when it cannot be drawn), and
    /// whether it wraps across (u, v).
    fn texture(&self, id: i32, stand_in: &Arc<Mips>) -> (Arc<Mips>, [bool; 2]) {
        let Some(t) = usize::try_from(id)
            .ok()
            .and_then(|i| self.model.textures.get(i))
        else {
            return (stand_in.clone(), [true; 2]);
        };
        let wrap = [t.flags & 1 != 0, t.flags & 2 != 0];
        let mips = match (t.path.is_empty(), t.replaceable_id) {
            (true, 1) => self.team.clone(),
            (true, 2) => self.glow.clone(),
            _ => self.textures[id as usize]
                .clone()
                .unwrap_or_else(|| stand_in.clone()),
        };
        (mips, wrap)
    }
}

pub(super) fn render(scene: &Scene, at: AnimTime, opts: &RenderOptions) -> RgbaImage {
    let (ow, oh) = (
        opts.width.clamp(1, MAX_SIDE) as usize,
        opts.height.clamp(1, MAX_SIDE) as usize,
    );
    // Fewer samples a pixel for a large picture: never more than MAX_SAMPLES in all (about
    // 1.3 GB of colour and depth at the most).
    let mut ss = opts.supersample.clamp(1, 4) as usize;
    while ss > 1 && ow * oh * ss * ss > MAX_SAMPLES {
        ss -= 1;
    }
    let (w, h) = (ow * ss, oh * ss);
    let bg = opts.background.map(|c| f32::from(c) / 255.0);
    let mut target = Target::new(w, h, [bg[0] * bg[3], bg[1] * bg[3], bg[2] * bg[3], bg[3]]);
    let cam = &opts.camera;
    let vp = crate::anim::math::mul(
        &cam.projection_matrix(w as f32 / h as f32),
        &cam.view_matrix(),
    );
    let clock = scene.skeleton.clock(at);
    let pose = scene.skeleton.pose_at(&clock, Some(cam.forward()));
    let posed = posed_geosets(scene.model, &scene.skeleton, &pose, &clock);
    let (right, up) = cam.axes();
    let light_dir =
        normalize([0, 1, 2].map(|k| -cam.forward()[k] * 0.7 + up[k] * 0.8 - right[k] * 0.4));
    let tc = opts.team_color.map(|c| f32::from(c) / 255.0);
    let frame = Frame {
        model: scene.model,
        textures: &scene.textures,
        team: Arc::new(Mips::solid([tc[0], tc[1], tc[2], 1.0])),
        glow: Arc::new(glow(tc)),
        stand_ins: StandIns::new(),
        light_dir,
        lit: opts.light,
        ss: ss as f32,
    };
    let items = draw_list(
        scene.model,
        &posed,
        &clock,
        level_drawn(scene.model, opts.lod),
    );
    for item in &items {
        draw_layer(&mut target, &frame, &clock, &vp, item);
    }
    if opts.effects {
        let mut batches = effects::simulate(
            scene.model,
            &scene.skeleton,
            at.sequence,
            at.elapsed_ms,
            cam,
        );
        batches.sort_by_key(|b| b.priority_plane);
        for b in &batches {
            draw_effect(&mut target, &frame, &vp, b);
        }
    }
    resolve(&target, ow, oh, ss)
}

/// Every layer to draw, of the geosets shown at level of detail `lod`, in order: those that
/// write depth first, in geoset and layer order; then the others by priority plane (stable,
/// so geoset and layer order within one).
fn draw_list<'a>(
    model: &'a Model,
    posed: &'a [PosedGeoset],
    clock: &Clock,
    lod: u32,
) -> Vec<Item<'a>> {
    let mut items = Vec::new();
    for g in posed {
        let geoset = &model.geosets[g.index];
        if !g.visible || g.alpha <= 0.0 || !geoset.shows_at_lod(lod) {
            continue;
        }
        let material = model.materials.get(geoset.material_id as usize);
        let layers = material.map_or(1, |m| m.layers.len().max(1));
        for layer in 0..layers {
            let l = material.and_then(|m| m.layers.get(layer));
            if let Some(l) = l {
                if clock.sample(l.tracks.float(KMTA), l.alpha) <= 0.0 {
                    continue;
                }
            }
            let blend = l.map_or(Blend::Opaque, |l| Blend::from_filter_mode(l.filter_mode));
            items.push(Item {
                geoset: g,
                material,
                layer,
                blend,
                priority: material.map_or(0, |m| m.priority_plane),
            });
            if material.is_some_and(|m| super::draw::hd_slots(m, model.version).is_some()) {
                break; // an HD material's layers are the slots of one surface
            }
        }
    }
    items.sort_by_key(|i| {
        (
            !i.blend.writes_depth(),
            if i.blend.writes_depth() {
                0
            } else {
                i.priority
            },
        )
    });
    items
}

/// The texture ids of an HD material's diffuse, normal, ORM and emissive slots.
pub(super) fn hd_slots(m: &Material, version: u32) -> Option<[i32; 4]> {
    let first = m.layers.first()?;
    if m.shader.to_string() == crate::model::shader_type::HD_SHADER && m.layers.len() >= 4 {
        return Some([0, 1, 2, 3].map(|k| m.layers[k].texture_id));
    }
    if version >= crate::spec::version::TEXTURE_SLOTS
        && first.shader_type_id == crate::model::shader_type::HD_DEFAULT_UNIT
        && first.texture_slots.len() >= 4
    {
        return Some([0, 1, 2, 3].map(|k| first.texture_slots[k].texture_id));
    }
    None
}

/// A layer's texture id at the time of `clock` (`KMTF`, or the static one; for 1100+, the
/// first slot's).
pub(super) fn layer_texture(l: &Layer, clock: &Clock) -> i32 {
    let fixed = l
        .texture_slots
        .first()
        .map_or(l.texture_id, |s| s.texture_id);
    match l.tracks.integer(KMTF) {
        Some(t) => clock.sample(Some(t), fixed as u32) as i32,
        None => fixed,
    }
}

/// The texture animation matrix of a layer, if it has one.
fn uv_matrix(model: &Model, l: &Layer, clock: &Clock) -> Option<Mat4> {
    let ta = usize::try_from(l.texture_animation_id)
        .ok()
        .and_then(|i| model.texture_animations.get(i))?;
    let t = clock.sample(ta.tracks.vector3(KTAT), [0.0; 3]);
    let r = qnormalize(clock.sample(ta.tracks.quaternion(KTAR), QUAT_IDENTITY));
    let s = clock.sample(ta.tracks.vector3(KTAS), [1.0; 3]);
    Some(trs_about(t, r, s, [0.0; 3]))
}

fn project(vp: &Mat4, p: Vec3) -> [f32; 4] {
    [0, 1, 2, 3].map(|r| vp[r] * p[0] + vp[4 + r] * p[1] + vp[8 + r] * p[2] + vp[12 + r])
}

fn draw_layer(target: &mut Target, f: &Frame, clock: &Clock, vp: &Mat4, item: &Item) {
    let ss = f.ss;
    let model = f.model;
    let g = item.geoset;
    let geoset = &model.geosets[g.index];
    let layer = item.material.and_then(|m| m.layers.get(item.layer));
    let hd = item.material.and_then(|m| hd_slots(m, model.version));
    let flags = layer.map_or(0, |l| l.flags);
    let unshaded = !f.lit || flags & (layer_flags::UNSHADED | layer_flags::UNLIT) != 0;
    let two_sided = flags & layer_flags::TWO_SIDED != 0;
    let layer_alpha = layer.map_or(1.0, |l| clock.sample(l.tracks.float(KMTA), l.alpha));
    let mut rgb = [1.0f32; 3];
    if let Some(ga) = model
        .geoset_animations
        .iter()
        .find(|a| a.geoset_id == g.index as i32)
    {
        // The static color is stored red, green, blue and the keys of its track blue,
        // green, red (MdlxConv prints the static one reversed and the keys as stored, so
        // that MDL shows both in one order; mdx-m3-viewer swaps the same way).
        let track = ga.tracks.vector3(KGAC).is_some();
        if track {
            rgb = [g.color[2], g.color[1], g.color[0]];
        } else if ga.flags & geoset_animation_flags::USE_COLOR != 0 {
            rgb = g.color;
        }
        rgb = rgb.map(|c| c.clamp(0.0, 1.0));
    }
    let tint = [
        rgb[0],
        rgb[1],
        rgb[2],
        (g.alpha * layer_alpha).clamp(0.0, 1.0),
    ];
    let coord = layer.map_or(0, |l| l.coord_id as usize);
    let uvs = geoset
        .uv_sets
        .get(coord)
        .or(geoset.uv_sets.first())
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let uvm = layer.and_then(|l| uv_matrix(model, l, clock));
    let tangents = geoset.tangents.as_deref();
    let vert = |i: usize| -> Option<Vert> {
        let p = *g.positions.get(i)?;
        let n = g.normals.get(i).copied().unwrap_or([0.0; 3]);
        let mut uv = uvs.get(i).copied().unwrap_or([0.0; 2]);
        if let Some(m) = &uvm {
            let q = transform_point(m, [uv[0], uv[1], 0.0]);
            uv = [q[0], q[1]];
        }
        let mut var = [0.0f32; NV];
        var[0] = uv[0];
        var[1] = uv[1];
        var[2] = if unshaded {
            1.0
        } else {
            let d = dot(n, f.light_dir);
            let d = if two_sided { d.abs() } else { d.max(0.0) };
            (AMBIENT + DIFFUSE * d).min(1.0)
        };
        var[3..6].copy_from_slice(&n);
        let t = tangents.and_then(|t| t.get(i)).copied().unwrap_or([0.0; 4]);
        // The bind-pose tangent made perpendicular to the posed normal.
        let tt = normalize(sub(
            [t[0], t[1], t[2]],
            scale(n, dot(n, [t[0], t[1], t[2]])),
        ));
        var[6..9].copy_from_slice(&tt);
        var[9] = if t[3] < 0.0 { -1.0 } else { 1.0 };
        Some(Vert {
            clip: project(vp, p),
            var,
        })
    };
    let mut tris = Vec::with_capacity(geoset.faces.len());
    for t in geoset.faces.chunks_exact(3) {
        let vs: Option<Vec<Vert>> = t.iter().map(|&i| vert(i as usize)).collect();
        if let Some(vs) = vs {
            tris.extend(vs);
        }
    }
    let state = State {
        blend: item.blend,
        depth_test: flags & layer_flags::NO_DEPTH_TEST == 0,
        depth_write: item.blend.writes_depth() && flags & layer_flags::NO_DEPTH_SET == 0,
        cull_back: !two_sided,
    };
    match hd {
        Some(slots) => {
            let si = &f.stand_ins;
            let [d, n, o, e] = [
                f.texture(slots[0], si.for_blend(item.blend)),
                f.texture(slots[1], &si.flat_normal),
                // ORM and emissive: a 1x1 texture is read as none (occlusion 1, no team
                // colour mask, no glow).
                f.texture(slots[2], &si.white),
                f.texture(slots[3], &si.nothing),
            ];
            let light = (!unshaded).then_some(f.light_dir);
            let team = f.team.sample(0, 0.5, 0.5, [false; 2]);
            raster::draw(target, &tris, state, |v, fp| {
                let lv = |m: &Mips| m.level_for(fp * m.size().0.max(m.size().1) as f32 * ss);
                let (u, w) = (v[0], v[1]);
                let base = d.0.sample(lv(&d.0), u, w, d.1);
                let orm = o.0.sample(lv(&o.0), u, w, o.1);
                let glow = e.0.sample(lv(&e.0), u, w, e.1);
                let shade = match light {
                    None => 1.0,
                    Some(l) => {
                        let nm = n.0.sample(lv(&n.0), u, w, n.1);
                        let normal = perturb(v, nm);
                        AMBIENT + DIFFUSE * dot(normal, l).max(0.0)
                    }
                };
                let occlusion = if o.0.size() == (1, 1) { 1.0 } else { orm[0] };
                let mask = if o.0.size() == (1, 1) { 0.0 } else { orm[3] };
                let mut c = [0.0; 4];
                for k in 0..3 {
                    let tinted = base[k] * (1.0 - mask + mask * team[k]);
                    let emissive = if e.0.size() == (1, 1) { 0.0 } else { glow[k] };
                    c[k] = tinted * shade * occlusion * tint[k] + emissive;
                }
                c[3] = base[3] * tint[3];
                Some(c)
            });
        }
        None => {
            let tex_id = layer.map_or(-1, |l| layer_texture(l, clock));
            let (tex, wrap) = f.texture(tex_id, f.stand_ins.for_blend(item.blend));
            let size = tex.size().0.max(tex.size().1) as f32;
            raster::draw(target, &tris, state, |v, fp| {
                let level = tex.level_for(fp * size * ss);
                let t = tex.sample(level, v[0], v[1], wrap);
                let l = v[2];
                Some([
                    t[0] * tint[0] * l,
                    t[1] * tint[1] * l,
                    t[2] * tint[2] * l,
                    t[3] * tint[3],
                ])
            });
        }
    }
}

/// The normal from a normal map texel (x and y in red and green; z rebuilt), in the space
/// of the interpolated normal and tangent.
fn perturb(v: &[f32; NV], texel: [f32; 4]) -> Vec3 {
    let n = normalize([v[3], v[4], v[5]]);
    let t = [v[6], v[7], v[8]];
    if dot(t, t) < 1e-8 {
        return n;
    }
    let t = normalize(t);
    let b = scale(cross(n, t), v[9]);
    let x = texel[0] * 2.0 - 1.0;
    let y = texel[1] * 2.0 - 1.0;
    let z = (1.0 - x * x - y * y).max(0.0).sqrt();
    normalize([0, 1, 2].map(|k| t[k] * x + b[k] * y + n[k] * z))
}

fn draw_effect(target: &mut Target, f: &Frame, vp: &Mat4, b: &effects::EffectBatch) {
    let ss = f.ss;
    // A triangle whose corners are all transparent changes nothing under the blends where
    // alpha scales the colour added (blend, additive, add-alpha): faded particles are most
    // of a long-lived emitter's, and filling them is most of the time spent.
    let scaled_by_alpha = matches!(b.blend, Blend::Blend | Blend::Additive | Blend::AddAlpha);
    let invisible = |t: &[effects::EffectVertex]| {
        scaled_by_alpha && t.iter().all(|v| v.color[3] < 1.0 / 1024.0)
    };
    let tris: Vec<Vert> = b
        .vertices
        .chunks_exact(3)
        .filter(|t| !invisible(t))
        .flatten()
        .map(|v| {
            let mut var = [0.0f32; NV];
            var[0] = v.uv[0];
            var[1] = v.uv[1];
            var[2..6].copy_from_slice(&v.color);
            Vert {
                clip: project(vp, v.position),
                var,
            }
        })
        .collect();
    // No texture (a ribbon without a material): white, which its colour tints.
    let stand_in = if b.texture_id < 0 {
        &f.stand_ins.white
    } else {
        &f.stand_ins.particle
    };
    let (tex, wrap) = f.texture(b.texture_id, stand_in);
    let size = tex.size().0.max(tex.size().1) as f32;
    let state = State {
        blend: b.blend,
        depth_test: b.depth_test,
        depth_write: false,
        cull_back: false,
    };
    raster::draw(target, &tris, state, |v, fp| {
        let t = tex.sample(tex.level_for(fp * size * ss), v[0], v[1], wrap);
        Some([t[0] * v[2], t[1] * v[3], t[2] * v[4], t[3] * v[5]])
    });
}

/// A soft round glow of `rgb`: the team glow replaceable texture.
pub(super) fn glow(rgb: [f32; 3]) -> Mips {
    const N: u32 = 32;
    let mut pixels = Vec::with_capacity((N * N * 4) as usize);
    for y in 0..N {
        for x in 0..N {
            let dx = (x as f32 + 0.5) / N as f32 * 2.0 - 1.0;
            let dy = (y as f32 + 0.5) / N as f32 * 2.0 - 1.0;
            let r = (dx * dx + dy * dy).sqrt();
            let a = (1.0 - r).clamp(0.0, 1.0).powf(1.5);
            pixels.extend(rgb.map(|c| (c * 255.0).round() as u8));
            pixels.push((a * 255.0).round() as u8);
        }
    }
    Mips::new(&RgbaImage {
        width: N,
        height: N,
        pixels,
    })
}

/// The supersampled target averaged down to `w` x `h` 8-bit straight RGBA.
fn resolve(t: &Target, w: usize, h: usize, ss: usize) -> RgbaImage {
    let mut pixels = Vec::with_capacity(w * h * 4);
    let n = (ss * ss) as f32;
    for y in 0..h {
        for x in 0..w {
            let mut s = [0.0f32; 4];
            for sy in 0..ss {
                let row = (y * ss + sy) * t.w;
                for sx in 0..ss {
                    let c = t.color[row + x * ss + sx];
                    for k in 0..4 {
                        s[k] += c[k].clamp(0.0, 1.0);
                    }
                }
            }
            let a = s[3] / n;
            let un = |c: f32| {
                if a > 0.0 {
                    (c / n / a).clamp(0.0, 1.0)
                } else {
                    0.0
                }
            };
            pixels.extend([un(s[0]), un(s[1]), un(s[2]), a].map(|c| (c * 255.0 + 0.5) as u8));
        }
    }
    RgbaImage {
        width: w as u32,
        height: h as u32,
        pixels,
    }
}
