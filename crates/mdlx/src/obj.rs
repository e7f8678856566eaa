//! Wavefront OBJ export of a posed model: one object per visible geoset, with positions,
//! texture coordinates and normals, so a frame of an animation opens in any 3D viewer.
//!
//! WC3 models are +Z up; OBJ viewers expect +Y up. Positions and normals are written
//! turned a quarter about X: `(x, y, z)` becomes `(x, z, -y)`. `v` of the texture
//! coordinates is flipped (`1 - v`), since OBJ puts the origin at the bottom left and WC3
//! at the top left. Faces are triangles (triangle lists, strips and fans become triangles;
//! other primitive types are skipped and counted).
//!
//! [`mtl_to_bytes`] gives the material library that goes beside the OBJ file (`mtllib`): one
//! material per model material, named `material_N`, with the texture path of its bottom
//! layer as `map_Kd`. The paths are the model's own (archive paths of BLP or DDS files,
//! with `/` for `\`), so a viewer finds the texture when the files are extracted beside
//! the model, and shows the path otherwise.

use crate::anim::{AnimTime, PosedGeoset, Skeleton};
use crate::model::Model;
use crate::Loss;
use std::fmt::Write;

/// What the export left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjReport {
    /// Geosets written.
    pub geosets_written: usize,
    /// Geosets left out because they are invisible at this moment.
    pub geosets_hidden: usize,
    /// Face groups of primitive types other than triangles, strips and fans.
    pub groups_skipped: usize,
    /// Faces that name a vertex the geoset does not have.
    pub faces_skipped: usize,
}

impl ObjReport {
    /// What the OBJ could not hold: one [`Loss`] for the model counting the face groups of
    /// other primitive types and the faces naming missing vertices, or none. Hidden
    /// geosets are no loss: the OBJ shows one moment.
    ///
    /// ```
    /// let report = mdlx::obj::ObjReport { groups_skipped: 1, ..Default::default() };
    /// let losses = report.losses();
    /// assert_eq!(losses.len(), 1);
    /// assert_eq!(losses[0].place, "");
    /// assert!(losses[0].what.starts_with("1 face group(s) of unsupported primitive types"));
    /// assert!(mdlx::obj::ObjReport::default().losses().is_empty());
    /// ```
    pub fn losses(&self) -> Vec<Loss> {
        if self.groups_skipped + self.faces_skipped == 0 {
            return Vec::new();
        }
        vec![Loss::new(
            "",
            format!(
                "{} face group(s) of unsupported primitive types and {} face(s) naming missing vertices",
                self.groups_skipped, self.faces_skipped
            ),
        )]
    }
}

/// How [`export`] writes OBJ.
#[derive(Clone, Debug, Default)]
pub struct ObjOptions {
    /// The posed geosets to write ([`crate::anim::posed_geosets`]); `None`: the bind pose.
    pub posed: Option<Vec<PosedGeoset>>,
    /// The header comment (what the file shows, e.g. the sequence and time).
    pub title: String,
    /// The file name of the material library to write beside the OBJ (`cube.mtl`), which
    /// the OBJ names; `None`: no library.
    pub mtllib: Option<String>,
}

/// An OBJ file made by [`export`].
#[derive(Clone, Debug, Default)]
pub struct Obj {
    /// The OBJ text.
    pub text: Vec<u8>,
    /// The material library ([`ObjOptions::mtllib`]'s file name, its text), when named.
    pub mtl: Option<(String, Vec<u8>)>,
    /// What was left out.
    pub report: ObjReport,
}

/// `model` posed as `opts` asks as OBJ ([`to_bytes`]), with its material library
/// ([`mtl_to_bytes`]) when [`ObjOptions::mtllib`] names one.
///
/// ```
/// let model = mdlx::mdx::from_bytes(include_bytes!("../../../examples/cube.mdx")).unwrap();
/// let opts = mdlx::obj::ObjOptions { mtllib: Some("cube.mtl".into()), ..Default::default() };
/// let obj = mdlx::obj::export(&model, &opts);
/// assert!(String::from_utf8(obj.text).unwrap().contains("mtllib cube.mtl\n"));
/// assert_eq!(obj.mtl.unwrap().0, "cube.mtl");
/// assert_eq!(obj.report.geosets_written, 1);
/// ```
pub fn export(model: &Model, opts: &ObjOptions) -> Obj {
    let bind;
    let posed = match &opts.posed {
        Some(p) => p,
        None => {
            let skeleton = Skeleton::new(model);
            let at = AnimTime::new(None, 0.0);
            let pose = skeleton.pose(at, None);
            bind = crate::anim::posed_geosets(model, &skeleton, &pose, &skeleton.clock(at));
            &bind
        }
    };
    let mtllib = opts.mtllib.as_deref();
    let (text, report) = to_bytes(model, posed, &opts.title, mtllib);
    let mtl = mtllib.map(|name| (name.to_string(), mtl_to_bytes(model)));
    Obj { text, mtl, report }
}

/// Writes `posed` (from [`crate::anim::posed_geosets`]) as OBJ text. `title` goes in the
/// header comment (for example the sequence and time). With `mtllib` (the file name of the
/// [`mtl_to_bytes`] output beside it), each geoset uses its material from that library.
pub fn to_bytes(
    model: &Model,
    posed: &[PosedGeoset],
    title: &str,
    mtllib: Option<&str>,
) -> (Vec<u8>, ObjReport) {
    let mut out = String::new();
    let mut report = ObjReport::default();
    let _ = writeln!(out, "# {title}");
    let _ = writeln!(
        out,
        "# written by mdlx {}; +Y up (WC3's +Z turned to +Y), v flipped",
        env!("CARGO_PKG_VERSION")
    );
    if let Some(lib) = mtllib {
        let _ = writeln!(out, "mtllib {lib}");
    }
    // OBJ indices are 1-based and count across the whole file.
    let mut base = 1usize;
    for p in posed {
        if !p.visible {
            report.geosets_hidden += 1;
            continue;
        }
        let Some(g) = model.geosets.get(p.index) else {
            continue;
        };
        report.geosets_written += 1;
        let _ = writeln!(out, "o geoset_{}", p.index);
        if mtllib.is_some() && (g.material_id as usize) < model.materials.len() {
            let _ = writeln!(out, "usemtl material_{}", g.material_id);
        }
        for v in &p.positions {
            let _ = writeln!(out, "v {} {} {}", v[0], v[2], -v[1]);
        }
        let has_uv = p.uvs.len() == p.positions.len();
        if has_uv {
            for t in &p.uvs {
                let _ = writeln!(out, "vt {} {}", t[0], 1.0 - t[1]);
            }
        }
        for n in &p.normals {
            let _ = writeln!(out, "vn {} {} {}", n[0], n[2], -n[1]);
        }
        let count = p.positions.len();
        let mut face = |out: &mut String, a: u16, b: u16, c: u16| {
            let (a, b, c) = (a as usize, b as usize, c as usize);
            if a >= count || b >= count || c >= count {
                report.faces_skipped += 1;
                return;
            }
            let _ = write!(out, "f");
            for i in [a, b, c] {
                let k = base + i;
                if has_uv {
                    let _ = write!(out, " {k}/{k}/{k}");
                } else {
                    let _ = write!(out, " {k}//{k}");
                }
            }
            out.push('\n');
        };
        let (triangles, skipped) = g.triangles();
        report.groups_skipped += skipped;
        for [a, b, c] in triangles {
            face(&mut out, a, b, c);
        }
        base += count;
    }
    (out.into_bytes(), report)
}

/// The material library of [`to_bytes`]'s output: `newmtl material_N` for every material of
/// the model, with the bottom layer's texture as `map_Kd` (a replaceable texture, such as
/// team colour, is named in a comment, since it has no file).
pub fn mtl_to_bytes(model: &Model) -> Vec<u8> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# written by mdlx {}; texture paths as the model names them",
        env!("CARGO_PKG_VERSION")
    );
    for (i, m) in model.materials.iter().enumerate() {
        let _ = writeln!(out, "\nnewmtl material_{i}");
        let _ = writeln!(out, "Kd 1 1 1");
        let Some(layer) = m.layers.first() else {
            continue;
        };
        let id = match (layer.texture_id, layer.texture_slots.first()) {
            (id, Some(slot)) if id < 0 => slot.texture_id,
            (id, _) => id,
        };
        if layer.alpha < 1.0 {
            let _ = writeln!(out, "d {}", layer.alpha.max(0.0));
        }
        let Some(texture) = usize::try_from(id).ok().and_then(|i| model.textures.get(i)) else {
            continue;
        };
        let path = texture.path.text().replace('\\', "/");
        if !path.is_empty() {
            let _ = writeln!(out, "map_Kd {path}");
        } else if texture.replaceable_id != 0 {
            let r = texture.replaceable_id;
            let _ = writeln!(
                out,
                "# replaceable texture {r} (team colour, glow, trees...)"
            );
        }
    }
    out.into_bytes()
}
