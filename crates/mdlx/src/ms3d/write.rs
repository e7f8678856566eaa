//! The writer: the layout Milkshape's own exporter uses (header comment, `Frames`, `Frame`,
//! `Meshes`, `Materials`, `Bones`, then the comment blocks), with CRLF line endings, quoted
//! names, and floats as the shortest plain decimal that reads back to the same `f32`.

use super::document::{Bone, Comments, Document, IndexedComment, Material, Mesh, Text};
use super::error::{Ms3dWriteError, Ms3dWriteErrorKind};
use std::fmt::Write as _;

/// Writes the whole document.
pub(super) fn write(doc: &Document) -> Result<Vec<u8>, Ms3dWriteError> {
    let mut w = Writer::default();
    w.raw(b"// MilkShape 3D ASCII");
    w.end();
    w.end();
    if let Some(frames) = doc.frames {
        w.block("Frames", frames);
    }
    if let Some(frame) = doc.frame {
        w.block("Frame", frame);
    }
    w.end();
    w.block("Meshes", doc.meshes.len());
    for (m, mesh) in doc.meshes.iter().enumerate() {
        w.mesh(m, mesh)?;
    }
    w.end();
    w.block("Materials", doc.materials.len());
    for (m, material) in doc.materials.iter().enumerate() {
        w.material(m, material)?;
    }
    w.end();
    w.block("Bones", doc.bones.len());
    for (b, bone) in doc.bones.iter().enumerate() {
        w.bone(b, bone)?;
    }
    if let Some(comments) = &doc.comments {
        w.comments(comments)?;
    }
    Ok(w.out)
}

#[derive(Default)]
struct Writer {
    out: Vec<u8>,
    /// Scratch text for one number.
    num: String,
}

impl Writer {
    fn raw(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
    }

    /// Ends the line.
    fn end(&mut self) {
        self.raw(b"\r\n");
    }

    /// A space, then the next field.
    fn space(&mut self) {
        self.out.push(b' ');
    }

    /// `Name: n` and the line end.
    fn block(&mut self, name: &str, n: impl itoa::Integer) {
        self.raw(name.as_bytes());
        self.raw(b": ");
        self.int(n);
        self.end();
    }

    fn int(&mut self, n: impl itoa::Integer) {
        self.raw(itoa::Buffer::new().format(n).as_bytes());
    }

    /// A count on its own line.
    fn count(&mut self, n: usize) {
        self.int(n);
        self.end();
    }

    /// A finite float as plain decimal text. `Display` for `f32` prints the shortest digits
    /// that read back to the same value and never uses an exponent; `.0` is added to whole
    /// numbers so that every float has the `[-]digits.digits` shape the spec recommends.
    fn float(&mut self, v: f32, path: impl FnOnce() -> String) -> Result<(), Ms3dWriteError> {
        if !v.is_finite() {
            let kind = Ms3dWriteErrorKind::NotFinite(v);
            return Err(Ms3dWriteError { path: path(), kind });
        }
        self.num.clear();
        let _ = write!(self.num, "{v}");
        if !self.num.contains('.') {
            self.num.push_str(".0");
        }
        self.out.extend_from_slice(self.num.as_bytes());
        Ok(())
    }

    /// Floats separated by spaces; `path(k)` names float `k`.
    fn floats(&mut self, vs: &[f32], path: impl Fn(usize) -> String) -> Result<(), Ms3dWriteError> {
        for (k, &v) in vs.iter().enumerate() {
            if k > 0 {
                self.space();
            }
            self.float(v, || path(k))?;
        }
        Ok(())
    }

    /// Integers, each after a space.
    fn ints(&mut self, ns: &[i32]) {
        for &n in ns {
            self.space();
            self.int(n);
        }
    }

    /// Text in quotes; it may hold neither `"` nor a line break.
    fn quoted(&mut self, text: &Text, path: impl FnOnce() -> String) -> Result<(), Ms3dWriteError> {
        if text.0.contains(&b'"') {
            let kind = Ms3dWriteErrorKind::Quote;
            return Err(Ms3dWriteError { path: path(), kind });
        }
        self.line_text(text, path)?;
        self.out.push(b'"');
        self.raw(&text.0);
        self.out.push(b'"');
        Ok(())
    }

    /// Checks that text fits on one line.
    fn line_text(
        &mut self,
        text: &Text,
        path: impl FnOnce() -> String,
    ) -> Result<(), Ms3dWriteError> {
        if text.0.iter().any(|&b| b == b'\r' || b == b'\n') {
            let kind = Ms3dWriteErrorKind::LineBreak;
            return Err(Ms3dWriteError { path: path(), kind });
        }
        Ok(())
    }

    fn mesh(&mut self, m: usize, mesh: &Mesh) -> Result<(), Ms3dWriteError> {
        let at = |rest: &str| format!("meshes[{m}].{rest}");
        self.quoted(&mesh.name, || at("name"))?;
        self.ints(&[mesh.flags, mesh.material]);
        self.end();
        self.count(mesh.vertices.len());
        for (i, v) in mesh.vertices.iter().enumerate() {
            self.int(v.flags);
            self.space();
            self.floats(&v.position, |k| at(&format!("vertices[{i}].position[{k}]")))?;
            self.space();
            self.floats(&v.uv, |k| at(&format!("vertices[{i}].uv[{k}]")))?;
            self.ints(&[v.bone]);
            self.end();
        }
        self.count(mesh.normals.len());
        for (i, n) in mesh.normals.iter().enumerate() {
            self.floats(n, |k| at(&format!("normals[{i}][{k}]")))?;
            self.end();
        }
        self.count(mesh.triangles.len());
        for t in &mesh.triangles {
            self.int(t.flags);
            self.ints(&t.vertices);
            self.ints(&t.normals);
            self.ints(&[t.smoothing_group]);
            self.end();
        }
        Ok(())
    }

    fn material(&mut self, m: usize, material: &Material) -> Result<(), Ms3dWriteError> {
        let at = |rest: &str| format!("materials[{m}].{rest}");
        self.quoted(&material.name, || at("name"))?;
        self.end();
        let colors = [
            ("ambient", &material.ambient),
            ("diffuse", &material.diffuse),
            ("specular", &material.specular),
            ("emissive", &material.emissive),
        ];
        for (name, color) in colors {
            self.floats(color, |k| at(&format!("{name}[{k}]")))?;
            self.end();
        }
        self.float(material.shininess, || at("shininess"))?;
        self.end();
        self.float(material.transparency, || at("transparency"))?;
        self.end();
        self.quoted(&material.color_map, || at("color_map"))?;
        self.end();
        self.quoted(&material.alpha_map, || at("alpha_map"))?;
        self.end();
        Ok(())
    }

    fn bone(&mut self, b: usize, bone: &Bone) -> Result<(), Ms3dWriteError> {
        let at = |rest: &str| format!("bones[{b}].{rest}");
        self.quoted(&bone.name, || at("name"))?;
        self.end();
        self.quoted(&bone.parent, || at("parent"))?;
        self.end();
        self.int(bone.flags);
        self.space();
        self.floats(&bone.position, |k| at(&format!("position[{k}]")))?;
        self.space();
        self.floats(&bone.rotation, |k| at(&format!("rotation[{k}]")))?;
        self.end();
        let keys = [
            ("position_keys", &bone.position_keys),
            ("rotation_keys", &bone.rotation_keys),
        ];
        for (name, keys) in keys {
            self.count(keys.len());
            for (i, key) in keys.iter().enumerate() {
                self.float(key.time, || at(&format!("{name}[{i}].time")))?;
                self.space();
                self.floats(&key.value, |k| at(&format!("{name}[{i}].value[{k}]")))?;
                self.end();
            }
        }
        Ok(())
    }

    fn comments(&mut self, comments: &Comments) -> Result<(), Ms3dWriteError> {
        let lists = [
            ("GroupComments", "meshes", &comments.meshes),
            ("MaterialComments", "materials", &comments.materials),
            ("BoneComments", "bones", &comments.bones),
        ];
        for (block, field, list) in lists {
            self.block(block, list.len());
            for (i, c) in list.iter().enumerate() {
                self.indexed_comment(c, || format!("comments.{field}[{i}].text"))?;
            }
        }
        self.block("ModelComment", usize::from(comments.model.is_some()));
        if let Some(text) = &comments.model {
            self.line_text(text, || "comments.model".to_string())?;
            self.raw(&text.0);
            self.end();
        }
        Ok(())
    }

    /// The index line, then the text line exactly as it is.
    fn indexed_comment(
        &mut self,
        c: &IndexedComment,
        path: impl FnOnce() -> String,
    ) -> Result<(), Ms3dWriteError> {
        self.line_text(&c.text, path)?;
        self.int(c.index);
        self.end();
        self.raw(&c.text.0);
        self.end();
        Ok(())
    }
}
