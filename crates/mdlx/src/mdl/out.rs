//! The MDL text sink: tab indentation, blocks, keyword lines, and numbers printed as the
//! shortest text that reads back to the same `f32` (never the 6 significant digits of
//! older tools). `-0` stays `-0`; non-finite values print as `inf`, `-inf`, `nan`.

use crate::model::FixedString;

/// Text being written.
#[derive(Default)]
pub(crate) struct Out {
    /// The bytes so far (MDL is bytes: names need not be UTF-8).
    pub buf: Vec<u8>,
    depth: usize,
}

/// Appends the shortest round-trip text of `v`.
pub(crate) fn push_f32(buf: &mut Vec<u8>, v: f32) {
    if v.is_nan() {
        buf.extend_from_slice(b"nan");
    } else if v.is_infinite() {
        buf.extend_from_slice(if v > 0.0 { b"inf" } else { b"-inf" });
    } else if v.abs() < 1e15 && (v as i64) as f32 == v {
        // Whole numbers: integer text (and `-0`). Below 1e15 the cast truncates exactly,
        // so it tests wholeness as `v.trunc() == v` does, without a libm call.
        if v == 0.0 && v.is_sign_negative() {
            buf.extend_from_slice(b"-0");
        } else {
            push_int(buf, v as i64);
        }
    } else {
        // ryu prints the shortest digits that read back to the same f32; it switches to
        // exponent form (`1.5e-7`) outside [1e-5, 1e16).
        let mut b = ryu::Buffer::new();
        buf.extend_from_slice(b.format_finite(v).as_bytes());
    }
}

/// Appends an integer.
#[inline]
pub(crate) fn push_int(buf: &mut Vec<u8>, v: i64) {
    let mut b = itoa::Buffer::new();
    buf.extend_from_slice(b.format(v).as_bytes());
}

impl Out {
    /// An empty sink with room for `capacity` bytes.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Out {
            buf: Vec::with_capacity(capacity),
            depth: 0,
        }
    }

    /// Starts a line at the current indentation.
    #[inline]
    pub(crate) fn indent(&mut self) {
        for _ in 0..self.depth {
            self.buf.push(b'\t');
        }
    }

    /// Appends raw text.
    #[inline]
    pub(crate) fn raw(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }

    /// Appends a number.
    #[inline]
    pub(crate) fn f32(&mut self, v: f32) {
        push_f32(&mut self.buf, v);
    }

    /// Appends an integer.
    #[inline]
    pub(crate) fn int(&mut self, v: i64) {
        push_int(&mut self.buf, v);
    }

    /// Appends a quoted string (its text bytes, without padding).
    /// MDL strings have no escapes and end at the line: a `"` inside the text is written
    /// as `'` and a line break as a space, so the file stays readable; the record check
    /// then keeps the exact bytes in the extension block.
    pub(crate) fn string(&mut self, s: &FixedString) {
        self.buf.push(b'"');
        for &b in s.text_bytes() {
            self.buf.push(match b {
                b'"' => b'\'',
                b'\n' | b'\r' => b' ',
                b => b,
            });
        }
        self.buf.push(b'"');
    }

    /// `{ a, b, c }`.
    pub(crate) fn floats(&mut self, v: &[f32]) {
        self.buf.extend_from_slice(b"{ ");
        for (n, x) in v.iter().enumerate() {
            if n > 0 {
                self.buf.extend_from_slice(b", ");
            }
            self.f32(*x);
        }
        self.buf.extend_from_slice(b" }");
    }

    /// `{ a, b, c }` of integers.
    pub(crate) fn ints(&mut self, v: impl IntoIterator<Item = i64>) {
        self.buf.extend_from_slice(b"{ ");
        for (n, x) in v.into_iter().enumerate() {
            if n > 0 {
                self.buf.extend_from_slice(b", ");
            }
            self.int(x);
        }
        self.buf.extend_from_slice(b" }");
    }

    /// Opens `head {` and indents.
    pub(crate) fn open(&mut self, head: &str) {
        self.indent();
        self.raw(head);
        self.raw(" {\n");
        self.depth += 1;
    }

    /// Opens `head "name" {`.
    pub(crate) fn open_named(&mut self, head: &str, name: &FixedString) {
        self.indent();
        self.raw(head);
        self.raw(" ");
        self.string(name);
        self.raw(" {\n");
        self.depth += 1;
    }

    /// Opens `head count {`.
    pub(crate) fn open_counted(&mut self, head: &str, count: usize) {
        self.indent();
        self.raw(head);
        self.buf.push(b' ');
        push_int(&mut self.buf, count as i64);
        self.buf.extend_from_slice(b" {\n");
        self.depth += 1;
    }

    /// Closes a block.
    pub(crate) fn close(&mut self) {
        self.depth -= 1;
        self.indent();
        self.raw("}\n");
    }

    /// `Flag,`
    pub(crate) fn flag(&mut self, word: &str) {
        self.indent();
        self.raw(word);
        self.raw(",\n");
    }

    /// `Key value,` with a float.
    pub(crate) fn kv_f32(&mut self, key: &str, v: f32) {
        self.indent();
        self.raw(key);
        self.raw(" ");
        self.f32(v);
        self.raw(",\n");
    }

    /// `Key value,` with an integer.
    pub(crate) fn kv_int(&mut self, key: &str, v: i64) {
        self.indent();
        self.raw(key);
        self.raw(" ");
        self.int(v);
        self.raw(",\n");
    }

    /// `Key word,`
    pub(crate) fn kv_word(&mut self, key: &str, word: &str) {
        self.indent();
        self.raw(key);
        self.raw(" ");
        self.raw(word);
        self.raw(",\n");
    }

    /// `Key "text",`
    pub(crate) fn kv_str(&mut self, key: &str, s: &FixedString) {
        self.indent();
        self.raw(key);
        self.raw(" ");
        self.string(s);
        self.raw(",\n");
    }

    /// `Key { a, b, c },`
    pub(crate) fn kv_floats(&mut self, key: &str, v: &[f32]) {
        self.indent();
        self.raw(key);
        self.raw(" ");
        self.floats(v);
        self.raw(",\n");
    }

    /// `Key { a, b, c },` with integers.
    pub(crate) fn kv_ints(&mut self, key: &str, v: impl IntoIterator<Item = i64>) {
        self.indent();
        self.raw(key);
        self.raw(" ");
        self.ints(v);
        self.raw(",\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: f32) -> String {
        let mut b = Vec::new();
        push_f32(&mut b, v);
        String::from_utf8(b).unwrap()
    }

    #[test]
    fn floats_are_shortest_and_exact() {
        assert_eq!(f(1.0), "1");
        assert_eq!(f(-0.0), "-0");
        assert_eq!(f(0.1), "0.1");
        assert_eq!(f(55.425625), "55.425625");
        assert_eq!(f(1.5e-7), "1.5e-7");
        assert_eq!(f(f32::MAX), "3.4028235e38");
        for bits in [
            0x3f80_0001u32,
            0x0000_0001,
            0x7f7f_ffff,
            0x3eaa_aaab,
            0xc2c8_0000,
            0x4b7f_ffff,
        ] {
            let v = f32::from_bits(bits);
            assert_eq!(f(v).parse::<f32>().unwrap().to_bits(), bits, "{}", f(v));
        }
    }
}
