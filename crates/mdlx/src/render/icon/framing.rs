//! Where a camera looks for an icon or a portrait: the head and shoulders of a unit.

use crate::anim::math::{dot, sub, transform_point, Vec3};
use crate::anim::{AnimTime, NodeKind};
use crate::model::{Extent, Model};
use crate::render::draw::points_box as bounds;
use crate::render::{Camera, Scene};

/// What an icon shows of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Framing {
    /// The head and shoulders: around the head bone when the model has one, else the
    /// upper part of what it draws.
    #[default]
    Head,
    /// The upper part of what it draws (its top 45%).
    Upper,
    /// All of what it draws.
    Whole,
    /// The model's own first camera (its portrait camera).
    Camera,
}

/// How the framing was found, for the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FramedBy {
    /// Around the node of this index in the skeleton (a head bone).
    HeadNode(usize),
    /// The upper part of the model.
    Upper,
    /// The whole model.
    Whole,
    /// The model's own camera.
    Camera,
}

/// The node of `scene` that is its head: a bone, helper or attachment whose name holds
/// "head" (not "overhead": that attachment floats above the unit), bones first, then
/// helpers, then attachments (`Head Ref`); its index in the skeleton.
pub fn head_node(scene: &Scene) -> Option<usize> {
    head_nodes(scene).first().copied()
}

/// Every node [`head_node`] could take, best first.
fn head_nodes(scene: &Scene) -> Vec<usize> {
    let rank = |kind: NodeKind| match kind {
        NodeKind::Bone => Some(0),
        NodeKind::Helper => Some(1),
        NodeKind::Attachment => Some(2),
        _ => None,
    };
    let mut found: Vec<((u8, bool, usize), usize)> = (scene.skeleton.nodes.iter().enumerate())
        .filter_map(|(i, n)| {
            let name = n.node.name.text().to_ascii_lowercase();
            let head = name.contains("head") && !name.contains("overhead");
            // A name that is all head ("Bone_Head", "head") before "HeadPiece", "Head_Hair".
            let exact = name
                .trim_start_matches("bone")
                .trim_matches(|c: char| !c.is_ascii_alphanumeric())
                == "head";
            Some(((rank(n.kind)?, !exact, i), i)).filter(|_| head)
        })
        .collect();
    found.sort_unstable();
    found.into_iter().map(|(_, i)| i).collect()
}

/// The head [`framed_box`] and [`portrait_camera`] frame: of the nodes [`head_node`] could
/// take, the best in the upper half of what is drawn (`all`), else the best inside it (a
/// beast's head is low and forward); a node outside what is drawn (a bone left at the
/// origin) is no head.
fn head_at(scene: &Scene, at: AnimTime, all: &Extent) -> Option<(usize, Vec3)> {
    let height = (all.max[2] - all.min[2]).max(1e-3);
    let placed: Vec<(usize, Vec3)> = (head_nodes(scene).into_iter())
        .filter_map(|n| Some((n, node_position(scene, n, at)?)))
        .filter(|(_, p)| inside(all, *p, height * 0.1))
        .collect();
    (placed.iter())
        .find(|(_, p)| p[2] >= all.min[2] + height * 0.5)
        .or(placed.first())
        .copied()
}

/// The name of node `node` of `scene` (its index in the skeleton).
pub fn node_name(scene: &Scene, node: usize) -> String {
    scene
        .skeleton
        .nodes
        .get(node)
        .map_or_else(String::new, |n| n.node.name.text().into_owned())
}

/// The middle of the head's own vertices at `at`: those bound to node `node` (over half
/// their weight, or listing it in their matrix group), or for a node that moves none (an
/// attachment such as `Head Ref`) to its parent, or its parent's parent. `None` when none
/// of them moves eight vertices.
pub fn head_centre(scene: &Scene, at: AnimTime, node: usize) -> Option<Vec3> {
    let skeleton = &scene.skeleton;
    let model = scene.model();
    let clock = skeleton.clock(at);
    let pose = skeleton.pose_at(&clock, None);
    let posed = crate::anim::posed_geosets(model, skeleton, &pose, &clock);
    let mut n = node;
    for _ in 0..3 {
        let id = skeleton.nodes.get(n)?.node.object_id;
        let mut points = Vec::new();
        for g in posed.iter().filter(|g| g.visible) {
            let geoset = &model.geosets[g.index];
            let groups = geoset.matrix_groups();
            let binds = |group: usize| groups.get(group).is_some_and(|ids| ids.contains(&id));
            for (v, p) in g.positions.iter().enumerate() {
                let bound = match &geoset.skin {
                    Some(skin) => skin.get(v * 8..v * 8 + 8).is_some_and(|s| {
                        (0..4).any(|k| s[4 + k] >= 128 && binds(usize::from(s[k])))
                    }),
                    None => (geoset.vertex_groups.get(v)).is_some_and(|&g| binds(usize::from(g))),
                };
                if bound && p.iter().all(|c| c.is_finite()) {
                    points.push(*p);
                }
            }
        }
        if points.len() >= 8 {
            let b = bounds(points.into_iter())?;
            return Some([0, 1, 2].map(|k| (b.min[k] + b.max[k]) * 0.5));
        }
        n = skeleton.nodes[n].parent?;
    }
    None
}

/// Where node `node` of `scene` is at `at` (its pivot, posed).
pub fn node_position(scene: &Scene, node: usize, at: AnimTime) -> Option<Vec3> {
    let pose = scene.skeleton.pose(at, None);
    let n = scene.skeleton.nodes.get(node)?;
    Some(transform_point(&pose.nodes.get(node)?.world, n.pivot))
}

/// What a picture of `scene` at `at` frames: the posed vertices of what it draws solid
/// ([`Scene::bounds`]), but for flat squares (geosets of four vertices or fewer: the
/// backdrop of a portrait, a shadow card) when anything else is drawn; for a model of
/// particles alone (an elemental of emitters), where its nodes are.
pub fn frame_points(scene: &Scene, at: AnimTime, lod: u32) -> Vec<Vec3> {
    let geosets = crate::render::draw::solid_geosets(scene, at, lod);
    let bodies: Vec<Vec3> = (geosets.iter())
        .filter(|g| g.len() > 4)
        .flatten()
        .copied()
        .collect();
    if !bodies.is_empty() {
        return bodies;
    }
    let cards: Vec<Vec3> = geosets.into_iter().flatten().collect();
    if !cards.is_empty() {
        return cards;
    }
    let pose = scene.skeleton.pose(at, None);
    (scene.skeleton.nodes.iter().zip(&pose.nodes))
        .map(|(n, p)| transform_point(&p.world, n.pivot))
        .filter(|p| p.iter().all(|c| c.is_finite() && c.abs() < 1e7))
        .collect()
}

/// The box an icon frames at `at`, and how it was found; `None` when the model draws
/// nothing.
///
/// - [`Framing::Head`] with a head node: what the model draws within a ball about the
///   head (about the middle of its vertices, [`head_centre`], else its pivot; radius a
///   quarter of the model's height; what lies more than three quarters of the radius below
///   the head is cut, so the shoulders show, not the legs), and the head itself.
/// - [`Framing::Upper`], or no head node: what lies in the top 45% of the model's height.
/// - [`Framing::Whole`]: all of it.
///
/// The points framed are [`frame_points`].
pub fn framed_box(
    scene: &Scene,
    at: AnimTime,
    lod: u32,
    framing: Framing,
) -> Option<(Extent, FramedBy)> {
    let points = frame_points(scene, at, lod);
    let all = bounds(points.iter().copied())?;
    let height = (all.max[2] - all.min[2]).max(1e-3);
    let head = match framing {
        Framing::Head => head_at(scene, at, &all),
        _ => None,
    };
    if let Some((node, pivot)) = head {
        let h = head_centre(scene, at, node).unwrap_or(pivot);
        let r = height / 4.0;
        let near = points
            .iter()
            .copied()
            .filter(|p| {
                let d = sub(*p, h);
                dot(d, d) <= r * r && p[2] >= h[2] - r * 0.75
            })
            .chain(std::iter::once(h));
        return Some((bounds(near)?, FramedBy::HeadNode(node)));
    }
    if framing == Framing::Whole {
        return Some((all, FramedBy::Whole));
    }
    let cut = all.max[2] - height * 0.45;
    let upper = bounds(points.iter().copied().filter(|p| p[2] >= cut))?;
    Some((upper, FramedBy::Upper))
}

/// A camera from `yaw` and `pitch` (radians) that fills a square picture with `extent`,
/// closer than [`Camera::framing`] (an icon has no room to spare).
pub fn icon_camera(extent: &Extent, yaw: f32, pitch: f32, fov_y: f32) -> Camera {
    let c = Camera::framing(extent, yaw, pitch, fov_y, 1.0);
    let d = sub(c.eye, c.target);
    let distance = dot(d, d).sqrt() / 1.08 * 0.96;
    let mut out = Camera::orbit(c.target, distance, yaw, pitch, fov_y);
    out.near = c.near;
    out.far = c.far;
    out
}

fn inside(b: &Extent, p: Vec3, slack: f32) -> bool {
    (0..3).all(|k| p[k] >= b.min[k] - slack && p[k] <= b.max[k] + slack)
}

/// How a portrait camera looks at the head, in the game's terms: degrees about the
/// vertical from the model's front (+X), degrees above the horizon, distance from the
/// target in model units (`None`: from the model's height), vertical field of view in
/// radians.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PortraitView {
    /// Degrees about +Z from the model's front.
    pub yaw: f32,
    /// Degrees above the horizon.
    pub pitch: f32,
    /// Eye to target; `None`: [`PORTRAIT_DISTANCE`] of the model's height.
    pub distance: Option<f32>,
    /// Vertical field of view, radians.
    pub fov: f32,
}

/// The field of view of the game's Reforged portrait cameras (every one of the seven in the
/// corpus): 0.6911 radians, 39.6 degrees.
pub const PORTRAIT_FOV: f32 = 0.6911;
/// Eye to target, as a share of the unit's height (the median over those portraits).
pub const PORTRAIT_DISTANCE: f32 = 0.42;
/// The target above a head bone's pivot, as a share of the unit's height (the middle of
/// the face rather than the neck joint).
pub const PORTRAIT_RISE: f32 = 0.04;

impl Default for PortraitView {
    /// Nearly from the front and a little below the eyes, as the game's portraits look
    /// (median yaw -7 and pitch -1.6 degrees over the corpus's Reforged portraits).
    fn default() -> Self {
        PortraitView {
            yaw: -8.0,
            pitch: -2.0,
            distance: None,
            fov: PORTRAIT_FOV,
        }
    }
}

/// A portrait camera for `scene` at `at` (the moment the portrait opens on): the model's
/// head seen as `view` says, and how the head was found; `None` when the model draws
/// nothing. The head is as [`framed_box`] finds it; without one, the target is where a head
/// stands: 12% of the height below the top.
pub fn portrait_camera(
    scene: &Scene,
    at: AnimTime,
    view: &PortraitView,
) -> Option<(crate::model::Camera, FramedBy)> {
    let points = frame_points(scene, at, 0);
    let all = bounds(points.iter().copied())?;
    let height = (all.max[2] - all.min[2]).max(1e-3);
    let head = head_at(scene, at, &all);
    let (target, by) = match head {
        Some((n, p)) => {
            // A head bone's pivot is its neck joint, which the game's portraits aim a little
            // above; an attachment (`Head Ref`) or helper sits anywhere on the head, so the
            // middle of the head's vertices is aimed at.
            let bone = scene.skeleton.nodes[n].kind == NodeKind::Bone;
            let above = [p[0], p[1], p[2] + height * PORTRAIT_RISE];
            let target = match bone {
                true => above,
                false => head_centre(scene, at, n).unwrap_or(above),
            };
            (target, FramedBy::HeadNode(n))
        }
        None => {
            let top = all.max[2] - height * 0.12;
            let near_top: Vec<Vec3> = points.iter().copied().filter(|p| p[2] >= top).collect();
            let b = bounds(near_top.into_iter()).unwrap_or(all);
            let mid = [0, 1].map(|k| (b.min[k] + b.max[k]) * 0.5);
            ([mid[0], mid[1], top], FramedBy::Upper)
        }
    };
    let distance = view
        .distance
        .filter(|d| d.is_finite() && *d > 0.0)
        .unwrap_or(height * PORTRAIT_DISTANCE);
    let eye = Camera::orbit(
        target,
        distance,
        view.yaw.to_radians(),
        view.pitch.to_radians(),
        view.fov,
    )
    .eye;
    let camera = crate::model::Camera {
        name: "Portrait_Camera".into(),
        position: eye,
        target_position: target,
        field_of_view: view.fov,
        near_clip: (distance / 10.0).min(8.0),
        far_clip: (distance * 20.0).max(1000.0),
        ..Default::default()
    };
    Some((camera, by))
}

/// Gives `model` one camera, its portrait camera, framed on the head at the opening of its
/// first `Portrait` sequence (its first Stand, or the bind pose, without one); its other
/// cameras are dropped, and its bind poses (Reforged) follow. Returns what was done, or why nothing
/// could be (the model draws nothing).
pub fn place_portrait_camera(model: &mut Model, view: &PortraitView) -> Result<String, String> {
    let opening = model.find_sequence("Portrait").ok().or_else(|| {
        model.sequences.iter().position(|s| {
            let n = s.name.text().trim().to_ascii_lowercase();
            n.starts_with("portrait") || n.starts_with("stand")
        })
    });
    let textures = crate::render::TextureCache::new(Vec::new());
    let scene = Scene::new(model, &textures);
    let Some((camera, by)) = portrait_camera(&scene, AnimTime::new(opening, 0.0), view) else {
        return Err("portrait: the model draws nothing to frame".into());
    };
    let on = match by {
        FramedBy::HeadNode(n) => format!("the head ({:?})", node_name(&scene, n)),
        _ => "the top of the model (it has no head bone)".into(),
    };
    let dropped = model.cameras.len();
    let nodes = model.node_count();
    if !model.bind_poses.is_empty() {
        let p = camera.position;
        model.bind_poses.truncate(nodes);
        model.bind_poses.push([
            1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, p[0], p[1], p[2],
        ]);
    }
    let line = format!(
        "camera Portrait_Camera on {on}: eye {:?}, target {:?}, field of view {:.4}{}",
        camera.position.map(round),
        camera.target_position.map(round),
        camera.field_of_view,
        if dropped > 0 {
            format!("; {dropped} camera(s) replaced")
        } else {
            String::new()
        }
    );
    model.cameras = vec![camera];
    Ok(line)
}

fn round(v: f32) -> f32 {
    (v * 100.0).round() / 100.0
}
