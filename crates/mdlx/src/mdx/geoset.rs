//! MDX reading and writing of geosets (see [`Geoset`]): written by hand, since the vertex
//! lists are tagged, counted sub-chunks and the Reforged ones are optional.

use crate::model::Geoset;
use crate::spec::{len, sub, version as ver};

use super::reader::{scoped, Reader};
use super::record::{write_sized, MdxRecord};
use super::writer::Writer;
use super::{read_extent, write_extent, MdxResult};

pub(crate) fn tagged<T>(
    g: &mut Reader,
    tag: crate::model::Tag,
    f: impl FnOnce(&mut Reader, u32) -> MdxResult<T>,
) -> MdxResult<T> {
    scoped(
        || tag.text(),
        || {
            g.expect_tag(tag)?;
            let n = g.u32()?;
            f(g, n)
        },
    )
}

impl MdxRecord for Geoset {
    const NAME: &'static str = "Geoset";

    fn read_mdx(r: &mut Reader, version: u32) -> MdxResult<Self> {
        let mut g = r.inclusive_region(4)?;
        let g = &mut g;
        let mut geo = Geoset {
            vertices: tagged(g, sub::VRTX, |g, n| g.vec_f32(n))?,
            normals: tagged(g, sub::NRMS, |g, n| g.vec_f32(n))?,
            face_types: tagged(g, sub::PTYP, |g, n| g.vec_u32(n))?,
            face_group_sizes: tagged(g, sub::PCNT, |g, n| g.vec_u32(n))?,
            faces: tagged(g, sub::PVTX, |g, n| g.vec_u16(n))?,
            vertex_groups: tagged(g, sub::GNDX, |g, n| g.vec_u8(n))?,
            matrix_group_sizes: tagged(g, sub::MTGC, |g, n| g.vec_u32(n))?,
            matrix_indices: tagged(g, sub::MATS, |g, n| g.vec_u32(n))?,
            material_id: g.u32()?,
            selection_group: g.u32()?,
            selection_flags: g.u32()?,
            ..Geoset::default()
        };
        if version >= ver::REFORGED {
            geo.lod = g.u32()?;
            geo.lod_name = g.fixed_str(len::NAME)?;
        }
        geo.extent = read_extent(g)?;
        let n = g.u32()?;
        g.check_count(n, 28)?;
        geo.sequence_extents = (0..n).map(|_| read_extent(g)).collect::<MdxResult<_>>()?;
        if version >= ver::REFORGED {
            if g.peek_tag() == Some(sub::TANG) {
                geo.tangents = Some(tagged(g, sub::TANG, |g, n| g.vec_f32(n))?);
            }
            if g.peek_tag() == Some(sub::SKIN) {
                geo.skin_wide = skin_is_wide(g);
                geo.skin = Some(if geo.skin_wide {
                    tagged(g, sub::SKIN, |g, n| g.vec_u16(n))?
                } else {
                    tagged(g, sub::SKIN, |g, n| {
                        let len = g.check_count(n, 1)?;
                        Ok(g.bytes(len)?.iter().map(|&b| u16::from(b)).collect())
                    })?
                });
            }
        }
        geo.uv_sets = tagged(g, sub::UVAS, |g, sets| {
            g.check_count(sets, 8)?;
            (0..sets)
                .map(|i| {
                    scoped(
                        || format!("UVBS[{i}]"),
                        || tagged(g, sub::UVBS, |g, n| g.vec_f32(n)),
                    )
                })
                .collect()
        })?;
        geo.tail = g.rest().to_vec();
        Ok(geo)
    }

    fn write_mdx(&self, w: &mut Writer, version: u32) -> MdxResult<()> {
        write_sized(w, |w| {
            w.tag(sub::VRTX);
            w.count(self.vertices.len())?;
            w.vec_f32(&self.vertices);
            w.tag(sub::NRMS);
            w.count(self.normals.len())?;
            w.vec_f32(&self.normals);
            w.tag(sub::PTYP);
            w.count(self.face_types.len())?;
            w.vec_u32(&self.face_types);
            w.tag(sub::PCNT);
            w.count(self.face_group_sizes.len())?;
            w.vec_u32(&self.face_group_sizes);
            w.tag(sub::PVTX);
            w.count(self.faces.len())?;
            w.vec_u16(&self.faces);
            w.tag(sub::GNDX);
            w.count(self.vertex_groups.len())?;
            w.bytes(&self.vertex_groups);
            w.tag(sub::MTGC);
            w.count(self.matrix_group_sizes.len())?;
            w.vec_u32(&self.matrix_group_sizes);
            w.tag(sub::MATS);
            w.count(self.matrix_indices.len())?;
            w.vec_u32(&self.matrix_indices);
            w.u32(self.material_id);
            w.u32(self.selection_group);
            w.u32(self.selection_flags);
            if version >= ver::REFORGED {
                w.u32(self.lod);
                w.fixed_str(&self.lod_name, len::NAME, "geoset LOD name")?;
            }
            write_extent(w, &self.extent);
            w.count(self.sequence_extents.len())?;
            for e in &self.sequence_extents {
                write_extent(w, e);
            }
            if version >= ver::REFORGED {
                if let Some(t) = &self.tangents {
                    w.tag(sub::TANG);
                    w.count(t.len())?;
                    w.vec_f32(t);
                }
                if let Some(s) = &self.skin {
                    w.tag(sub::SKIN);
                    w.count(s.len())?;
                    if self.skin_wide {
                        w.vec_u16(s);
                    } else {
                        if s.iter().any(|&v| v > 0xff) {
                            return Err(crate::mdx::MdxError::new(
                                crate::mdx::MdxErrorKind::Unwritable(
                                    "a skin value over 255 needs two-byte SKIN values \
                                     (Geoset::skin_wide)"
                                        .into(),
                                ),
                                w.len() as u64,
                            ));
                        }
                        w.vec_u16_as_u8(s);
                    }
                }
            }
            w.tag(sub::UVAS);
            w.count(self.uv_sets.len())?;
            for uv in &self.uv_sets {
                w.tag(sub::UVBS);
                w.count(uv.len())?;
                w.vec_f32(uv);
            }
            w.bytes(&self.tail);
            Ok(())
        })
    }
}

/// Whether the SKIN at `g` holds two-byte values (see [`Geoset::skin_wide`]).
fn skin_is_wide(g: &Reader) -> bool {
    let mut p = g.clone();
    let (Ok(_), Ok(n)) = (p.tag(), p.u32()) else {
        return false;
    };
    let uvas_after = |bytes: usize| {
        let mut q = p.clone();
        q.bytes(bytes).is_ok() && q.peek_tag() == Some(sub::UVAS)
    };
    let n = n as usize;
    !uvas_after(n) && n.checked_mul(2).is_some_and(uvas_after)
}

#[cfg(test)]
mod skin_tests {
    use crate::mdx::record::MdxRecord;
    use crate::mdx::writer::Writer;
    use crate::model::Geoset;

    fn written(g: &Geoset, version: u32) -> Vec<u8> {
        let mut w = Writer::default();
        g.write_mdx(&mut w, version).unwrap();
        w.into_bytes()
    }

    /// Both widths are told from the layout: one-byte values where they end at `UVAS`,
    /// two-byte values where only those do; each reads back as written.
    #[test]
    fn skin_width_is_told_from_the_layout() {
        for (wide, values) in [
            (false, vec![0u16, 1, 0, 0, 255, 0, 0, 0]),
            (true, vec![300, 2, 0, 0, 200, 55, 0, 0]),
        ] {
            let g = Geoset {
                vertices: vec![[0.0; 3]],
                normals: vec![[0.0, 0.0, 1.0]],
                vertex_groups: vec![0],
                skin: Some(values.clone()),
                skin_wide: wide,
                uv_sets: vec![vec![[0.0; 2]]],
                ..Geoset::default()
            };
            let bytes = written(&g, 1800);
            let skin = bytes.windows(4).position(|w| w == b"SKIN").unwrap();
            let uvas = bytes.windows(4).position(|w| w == b"UVAS").unwrap();
            assert_eq!(uvas - skin - 8, if wide { 16 } else { 8 });
            let mut r = crate::mdx::reader::Reader::new(&bytes);
            let back = Geoset::read_mdx(&mut r, 1800).unwrap();
            assert_eq!((back.skin_wide, back.skin), (wide, Some(values)));
        }
        // A value over 255 cannot be written one byte wide.
        let g = Geoset {
            skin: Some(vec![256, 0, 0, 0, 255, 0, 0, 0]),
            ..Geoset::default()
        };
        let mut w = Writer::default();
        let e = g.write_mdx(&mut w, 1100).unwrap_err();
        assert!(e.to_string().contains("two-byte SKIN"), "{e}");
    }
}
