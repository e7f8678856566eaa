//! Wavefront OBJ export of a posed model: one object per visible geoset, with positions,
//! texture coordinates and normals, so a frame of an animation opens in any 3D viewer.
//!
//! WC3 models are +Z up; OBJ viewers expect +Y up. Positions and normals are written
//! turned a quarter about X: `(x, y, z)` becomes `(x, z, -y)`. `v` of the texture
//! coordinates is flipped (`1 - v`), since OBJ puts the origin at the bottom left and WC3
//! at the top left. Faces are triangles (triangle lists, strips and fans become triangles;
//! other primitive types are skipped and counted). No material library is written: the
//! textures are BLP files, which few viewers read.

use crate::anim::PosedGeoset;
use crate::model::Model;
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

/// Writes `posed` (from [`crate::anim::posed_geosets`]) as OBJ text. `title` goes in the
/// header comment (for example the sequence and time).
pub fn write(model: &Model, posed: &[PosedGeoset], title: &str) -> (String, ObjReport) {
    let mut out = String::new();
    let mut report = ObjReport::default();
    let _ = writeln!(out, "# {title}");
    let _ = writeln!(
        out,
        "# written by mdlx {}; +Y up (WC3's +Z turned to +Y), v flipped",
        env!("CARGO_PKG_VERSION")
    );
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
    (out, report)
}
