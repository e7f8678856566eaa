//! The reader: block lines at the top level, in any order, each kind once; inside a block
//! the lines its count says. Counts are checked against the data lines left before
//! anything is allocated for them, so hostile counts fail fast.

use super::document::{Bone, Comments, Document, IndexedComment, Key, Material, Mesh, Text};
use super::document::{Triangle, Vertex};
use super::error::{Ms3dError, Ms3dErrorKind};
use super::lines::{error, excerpt, is_integer_text, parse_int, Bad, Cursor, Fields, Form, Line};

/// The kinds of block, in the conventional order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Block {
    Frames,
    Frame,
    Meshes,
    Materials,
    Bones,
    GroupComments,
    MaterialComments,
    BoneComments,
    ModelComment,
}

/// Block names, in the order of [`Block`].
pub(super) const BLOCKS: [(&str, Block); 9] = [
    ("Frames", Block::Frames),
    ("Frame", Block::Frame),
    ("Meshes", Block::Meshes),
    ("Materials", Block::Materials),
    ("Bones", Block::Bones),
    ("GroupComments", Block::GroupComments),
    ("MaterialComments", Block::MaterialComments),
    ("BoneComments", Block::BoneComments),
    ("ModelComment", Block::ModelComment),
];

// The form of every kind of line: what it is called and its fields, as errors show them.
const COUNT: &[&str] = &["<count>"];
const RGBA: &[&str] = &["red", "green", "blue", "alpha"];
#[rustfmt::skip]
const TRIANGLE_FIELDS: &[&str] = &["flags", "v1", "v2", "v3", "n1", "n2", "n3", "smoothinggroup"];
static BLOCK: Form = Form::new("a block line such as", &["Meshes:", "<count>"]);

/// The form of each block line, in the order of [`Block`].
static BLOCK_FORMS: [Form; BLOCKS.len()] = [
    Form::new("a block line", &["Frames:", "<total frames>"]),
    Form::new("a block line", &["Frame:", "<current frame>"]),
    Form::new("a block line", &["Meshes:", "<count>"]),
    Form::new("a block line", &["Materials:", "<count>"]),
    Form::new("a block line", &["Bones:", "<count>"]),
    Form::new("a block line", &["GroupComments:", "<count>"]),
    Form::new("a block line", &["MaterialComments:", "<count>"]),
    Form::new("a block line", &["BoneComments:", "<count>"]),
    Form::new("a block line", &["ModelComment:", "<0 or 1>"]),
];

static MESH: Form = Form::new("a mesh line", &["\"name\"", "flags", "material"]);
static VERTEX_COUNT: Form = Form::new("a vertex count", COUNT);
static VERTEX: Form = Form::new("a vertex line", &["flags", "x", "y", "z", "u", "v", "bone"]);
static NORMAL_COUNT: Form = Form::new("a normal count", COUNT);
static NORMAL: Form = Form::new("a normal line", &["x", "y", "z"]);
static TRIANGLE_COUNT: Form = Form::new("a triangle count", COUNT);
static TRIANGLE: Form = Form::new("a triangle line", TRIANGLE_FIELDS);
static MATERIAL_NAME: Form = Form::new("a material name line", &["\"name\""]);
static AMBIENT: Form = Form::new("an ambient color line", RGBA);
static DIFFUSE: Form = Form::new("a diffuse color line", RGBA);
static SPECULAR: Form = Form::new("a specular color line", RGBA);
static EMISSIVE: Form = Form::new("an emissive color line", RGBA);
static SHININESS: Form = Form::new("a shininess line", &["shininess"]);
static TRANSPARENCY: Form = Form::new("a transparency line", &["transparency"]);
static COLOR_MAP: Form = Form::new("a color map line", &["\"path\""]);
static ALPHA_MAP: Form = Form::new("an alpha map line", &["\"path\""]);
static BONE_NAME: Form = Form::new("a bone name line", &["\"name\""]);
static BONE_PARENT: Form = Form::new("a parent name line", &["\"parent\""]);
static BONE: Form = Form::new("a bone line", &["flags", "x", "y", "z", "rx", "ry", "rz"]);
static POSITION_KEY_COUNT: Form = Form::new("a position key count", COUNT);
static POSITION_KEY: Form = Form::new("a position key line", &["time", "x", "y", "z"]);
static ROTATION_KEY_COUNT: Form = Form::new("a rotation key count", COUNT);
static ROTATION_KEY: Form = Form::new("a rotation key line", &["time", "rx", "ry", "rz"]);
static COMMENT_INDEX: Form = Form::new("a comment index line", &["index"]);
static COMMENT_TEXT: Form = Form::new("a comment text line", &["text"]);

/// Reads a whole file.
pub(super) fn read(src: &[u8]) -> Result<Document, Ms3dError> {
    let mut r = Reader {
        cur: Cursor::new(src),
        seen: [None; BLOCKS.len()],
    };
    let mut doc = Document::default();
    while let Some(line) = r.cur.next_content() {
        r.block(line, &mut doc)?;
    }
    if r.seen.iter().all(Option::is_none) {
        let first = Line { no: 1, text: b"" };
        return Err(error(&first, &BLOCK, Ms3dErrorKind::NoBlocks));
    }
    Ok(doc)
}

/// Tells the block of a top-level line from its name, without judging the rest.
pub(super) fn block_of(text: &[u8]) -> Option<Block> {
    let text = text.trim_ascii_start();
    BLOCKS.iter().find_map(|&(name, block)| {
        let rest = text.strip_prefix(name.as_bytes())?;
        rest.starts_with(b":").then_some(block)
    })
}

struct Reader<'a> {
    cur: Cursor<'a>,
    /// The line of each block kind seen so far.
    seen: [Option<usize>; BLOCKS.len()],
}

impl<'a> Reader<'a> {
    /// Reads one block, starting at its block line.
    fn block(&mut self, line: Line<'a>, doc: &mut Document) -> Result<(), Ms3dError> {
        let (block, value) = self.block_line(line)?;
        let form = &BLOCK_FORMS[block as usize];
        match block {
            Block::Frames => doc.frames = Some(block_int(line, value, form)?),
            Block::Frame => doc.frame = Some(block_int(line, value, form)?),
            Block::Meshes => {
                let n = self.count(line, value, form, "meshes")?;
                doc.meshes = self.repeat(n, Self::mesh)?;
            }
            Block::Materials => {
                let n = self.count(line, value, form, "materials")?;
                doc.materials = self.repeat(n, Self::material)?;
            }
            Block::Bones => {
                let n = self.count(line, value, form, "bones")?;
                doc.bones = self.repeat(n, Self::bone)?;
            }
            Block::GroupComments => comments(doc).meshes = self.comments(line, value, form)?,
            Block::MaterialComments => {
                comments(doc).materials = self.comments(line, value, form)?;
            }
            Block::BoneComments => comments(doc).bones = self.comments(line, value, form)?,
            Block::ModelComment => comments(doc).model = self.model_comment(line, value, form)?,
        }
        Ok(())
    }

    /// Splits a block line `Name: value`, checking that the block is known and new.
    fn block_line(&mut self, line: Line<'a>) -> Result<(Block, &'a [u8]), Ms3dError> {
        let text = line.text.trim_ascii();
        let colon = text.iter().position(|&b| b == b':');
        let name = &text[..colon.unwrap_or(0)];
        let looks_like_block = name.first().is_some_and(u8::is_ascii_uppercase)
            && name.iter().all(u8::is_ascii_alphanumeric);
        let Some(colon) = colon.filter(|_| looks_like_block) else {
            return Err(error(&line, &BLOCK, Ms3dErrorKind::NotABlock));
        };
        let Some(&(name, block)) = BLOCKS.iter().find(|(n, _)| n.as_bytes() == name) else {
            let name = excerpt(name);
            return Err(error(&line, &BLOCK, Ms3dErrorKind::UnknownBlock { name }));
        };
        let slot = &mut self.seen[block as usize];
        if let Some(first_line) = *slot {
            let kind = Ms3dErrorKind::DuplicateBlock { name, first_line };
            return Err(error(&line, &BLOCK, kind));
        }
        *slot = Some(line.no);
        let value = text[colon + 1..].trim_ascii();
        if value.is_empty() || value.iter().any(u8::is_ascii_whitespace) {
            let found = value
                .split(u8::is_ascii_whitespace)
                .filter(|t| !t.is_empty());
            let kind = Ms3dErrorKind::FieldCount {
                expected: 2,
                found: 1 + found.count(),
            };
            return Err(error(&line, &BLOCK_FORMS[block as usize], kind));
        }
        Ok((block, value))
    }

    /// Reads a count: a whole number, no larger than the number of data lines left (every
    /// item takes at least one).
    fn count(
        &self,
        line: Line,
        token: &[u8],
        form: &Form,
        what: &'static str,
    ) -> Result<usize, Ms3dError> {
        let remain = self.cur.content_left();
        match count_value(line, token, form)? {
            Some(n) if n <= remain as u64 => Ok(n as usize),
            _ => {
                let kind = Ms3dErrorKind::CountTooLarge {
                    count: excerpt(token),
                    what,
                    remain,
                };
                Err(error(&line, form, kind))
            }
        }
    }

    /// Reads a count line of the form `form`, then that many items.
    fn list<T>(
        &mut self,
        form: &'static Form,
        what: &'static str,
        item: fn(&mut Self) -> Result<T, Ms3dError>,
    ) -> Result<Vec<T>, Ms3dError> {
        let line = self.cur.expect(form)?;
        let token = Fields::split(line, form)?.text(0);
        let n = self.count(line, token, form, what)?;
        self.repeat(n, item)
    }

    /// Reads `n` items. `n` was checked against the lines left, so the vector grows at
    /// most to the size of the file.
    fn repeat<T>(
        &mut self,
        n: usize,
        item: fn(&mut Self) -> Result<T, Ms3dError>,
    ) -> Result<Vec<T>, Ms3dError> {
        let mut items = Vec::new();
        for _ in 0..n {
            items.push(item(self)?);
        }
        Ok(items)
    }

    /// The next data line, split by `form`.
    fn fields(&mut self, form: &'static Form) -> Result<Fields<'a>, Ms3dError> {
        let line = self.cur.expect(form)?;
        Fields::split(line, form)
    }

    fn mesh(&mut self) -> Result<Mesh, Ms3dError> {
        let f = self.fields(&MESH)?;
        Ok(Mesh {
            name: f.name(),
            flags: f.int(1)?,
            material: f.int(2)?,
            vertices: self.list(&VERTEX_COUNT, "vertices", Self::vertex)?,
            normals: self.list(&NORMAL_COUNT, "normals", |r| r.fields(&NORMAL)?.floats(0))?,
            triangles: self.list(&TRIANGLE_COUNT, "triangles", Self::triangle)?,
        })
    }

    fn vertex(&mut self) -> Result<Vertex, Ms3dError> {
        let f = self.fields(&VERTEX)?;
        Ok(Vertex {
            flags: f.int(0)?,
            position: f.floats(1)?,
            uv: f.floats(4)?,
            bone: f.int(6)?,
        })
    }

    fn triangle(&mut self) -> Result<Triangle, Ms3dError> {
        let f = self.fields(&TRIANGLE)?;
        Ok(Triangle {
            flags: f.int(0)?,
            vertices: f.ints(1)?,
            normals: f.ints(4)?,
            smoothing_group: f.int(7)?,
        })
    }

    fn material(&mut self) -> Result<Material, Ms3dError> {
        Ok(Material {
            name: self.fields(&MATERIAL_NAME)?.name(),
            ambient: self.fields(&AMBIENT)?.floats(0)?,
            diffuse: self.fields(&DIFFUSE)?.floats(0)?,
            specular: self.fields(&SPECULAR)?.floats(0)?,
            emissive: self.fields(&EMISSIVE)?.floats(0)?,
            shininess: self.fields(&SHININESS)?.float(0)?,
            transparency: self.fields(&TRANSPARENCY)?.float(0)?,
            color_map: self.fields(&COLOR_MAP)?.name(),
            alpha_map: self.fields(&ALPHA_MAP)?.name(),
        })
    }

    fn bone(&mut self) -> Result<Bone, Ms3dError> {
        let name = self.fields(&BONE_NAME)?.name();
        let parent = self.fields(&BONE_PARENT)?.name();
        let f = self.fields(&BONE)?;
        Ok(Bone {
            name,
            parent,
            flags: f.int(0)?,
            position: f.floats(1)?,
            rotation: f.floats(4)?,
            position_keys: self.list(&POSITION_KEY_COUNT, "position keys", |r| {
                r.key(&POSITION_KEY)
            })?,
            rotation_keys: self.list(&ROTATION_KEY_COUNT, "rotation keys", |r| {
                r.key(&ROTATION_KEY)
            })?,
        })
    }

    fn key(&mut self, form: &'static Form) -> Result<Key, Ms3dError> {
        let f = self.fields(form)?;
        Ok(Key {
            time: f.float(0)?,
            value: f.floats(1)?,
        })
    }

    /// A comment block: per comment, an index line and then the next line, whatever it
    /// holds, as the text (as Milkshape's own importer reads it).
    fn comments(
        &mut self,
        line: Line,
        value: &[u8],
        form: &Form,
    ) -> Result<Vec<IndexedComment>, Ms3dError> {
        let n = self.count(line, value, form, "comments")?;
        self.repeat(n, |r| {
            let index = r.fields(&COMMENT_INDEX)?.int(0)?;
            let text = r.comment_text()?;
            Ok(IndexedComment { index, text })
        })
    }

    /// `ModelComment: 0`, or `ModelComment: 1` and a line of text.
    fn model_comment(
        &mut self,
        line: Line,
        value: &[u8],
        form: &Form,
    ) -> Result<Option<Text>, Ms3dError> {
        // The text line may be blank or start with `//`: it is not counted as data.
        match count_value(line, value, form)? {
            Some(0) => Ok(None),
            Some(1) => self.comment_text().map(Some),
            _ => Err(error(&line, form, Ms3dErrorKind::ModelCommentCount)),
        }
    }

    fn comment_text(&mut self) -> Result<Text, Ms3dError> {
        match self.cur.next_raw() {
            Some(line) => Ok(Text(line.text.to_vec())),
            None => Err(self.cur.end(&COMMENT_TEXT)),
        }
    }
}

/// A count's value: `None` when it overflows `u64` (no file holds that many lines).
/// Errors for text that is not a whole number, and for a negative count.
fn count_value(line: Line, token: &[u8], form: &Form) -> Result<Option<u64>, Ms3dError> {
    if !is_integer_text(token) {
        let field = form.fields[form.fields.len() - 1];
        let kind = Bad::NotANumber.kind(field, token, true);
        return Err(error(&line, form, kind));
    }
    if token.starts_with(b"-") && token[1..].iter().any(|&b| b != b'0') {
        return Err(error(&line, form, Ms3dErrorKind::NegativeCount));
    }
    let digits = token.strip_prefix(b"-").or(token.strip_prefix(b"+"));
    let digits = digits.unwrap_or(token);
    // Only ASCII digits are left: a parse failure is an overflow.
    Ok(std::str::from_utf8(digits)
        .ok()
        .and_then(|s| s.parse().ok()))
}

/// The value of `Frames:` or `Frame:`: any `i32`.
fn block_int(line: Line, value: &[u8], form: &Form) -> Result<i32, Ms3dError> {
    let field = form.fields[1];
    parse_int(value).map_err(|bad| error(&line, form, bad.kind(field, value, true)))
}

/// The document's comments, created when the first comment block is read.
fn comments(doc: &mut Document) -> &mut Comments {
    doc.comments.get_or_insert_with(Comments::default)
}
