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
        // Face groups: (type, size) pairs over the index list. A geoset without them is
        // one triangle list.
        let groups: Vec<(u32, usize)> = if g.face_types.is_empty() {
            vec![(4, g.faces.len())]
        } else {
            g.face_types
                .iter()
                .zip(&g.face_group_sizes)
                .map(|(&t, &n)| (t, n as usize))
                .collect()
        };
        let mut start = 0usize;
        for (kind, size) in groups {
            let end = start.saturating_add(size).min(g.faces.len());
            let idx = &g.faces[start..end];
            start = end;
            match kind {
                4 => idx
                    .chunks_exact(3)
                    .for_each(|t| face(&mut out, t[0], t[1], t[2])),
                5 => {
                    for (i, w) in idx.windows(3).enumerate() {
                        // Every other triangle of a strip is wound the other way.
                        if i % 2 == 0 {
                            face(&mut out, w[0], w[1], w[2]);
                        } else {
                            face(&mut out, w[1], w[0], w[2]);
                        }
                    }
                }
                6 => {
                    for w in idx.get(1..).unwrap_or(&[]).windows(2) {
                        face(&mut out, idx[0], w[0], w[1]);
                    }
                }
                _ => report.groups_skipped += 1,
            }
        }
        base += count;
    }
    (out, report)
}
