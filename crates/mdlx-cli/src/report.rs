//! What a verb has to say about a file beside its result: warnings from reading and what
//! a conversion could not carry. Printed on stderr grouped under one heading per kind
//! (the file named once, not on every line), silenced by `--quiet`, and put whole into
//! `--json` output.

use serde_json::{json, Value};

/// One warning or loss.
#[derive(Clone, Debug)]
pub struct Note {
    /// `warning` (something in the input was odd or repaired) or `loss` (a conversion
    /// could not carry it).
    pub kind: &'static str,
    /// The heading it is listed under: `not carried from the WoW alpha family`.
    pub context: String,
    /// Where in the model, when known: `Light[2]`, `Material[0]`.
    pub place: Option<String>,
    /// What happened, one line.
    pub what: String,
    /// Line and column in the input, for a warning of the MDL reader.
    pub at: Option<(usize, usize)>,
    /// The note as printed when it needs more than one line (an MDL warning with the
    /// source line under it); printed as it is instead of grouped.
    pub rendered: Option<String>,
}

impl Note {
    /// A loss from a conversion, listed under `context`.
    pub fn loss(context: &str, loss: &mdlx::Loss) -> Note {
        Note {
            kind: "loss",
            context: context.to_string(),
            place: (!loss.place.is_empty()).then(|| loss.place.clone()),
            what: loss.what.clone(),
            at: None,
            rendered: None,
        }
    }

    /// A warning of the MDL reader about `file`, printed with the line it points at.
    pub fn mdl_warning(w: &mdlx::read::Located, file: &str) -> Note {
        Note {
            kind: "warning",
            context: "warning".to_string(),
            place: None,
            what: w.kind.to_string(),
            at: Some((w.line, w.column)),
            rendered: Some(w.render(file)),
        }
    }

    /// What a conversion changed to suit the game (a scale, a sequence name), at its
    /// place, listed under `context`: neither a loss nor a warning.
    pub fn fitted(context: &str, note: &mdlx::Loss) -> Note {
        Note {
            kind: "info",
            context: context.to_string(),
            place: (!note.place.is_empty()).then(|| note.place.clone()),
            what: note.what.clone(),
            at: None,
            rendered: None,
        }
    }

    /// A note about the output that is neither a loss nor a warning of the input.
    pub fn info(context: &str, what: String) -> Note {
        Note {
            kind: "info",
            context: context.to_string(),
            place: None,
            what,
            at: None,
            rendered: None,
        }
    }

    /// The note as JSON.
    pub fn to_json(&self) -> Value {
        let mut v = json!({ "kind": self.kind, "context": self.context, "what": self.what });
        if let Some(p) = &self.place {
            v["place"] = json!(p);
        }
        if let Some((line, column)) = self.at {
            v["line"] = json!(line);
            v["column"] = json!(column);
        }
        v
    }

    fn line(&self) -> String {
        match &self.place {
            Some(p) => format!("{p}: {}", self.what),
            None => self.what.clone(),
        }
    }
}

/// Prints `notes` about `file` on stderr: multi-line notes as they are, the others under
/// one heading per context, `mdlx: FILE: N thing(s) CONTEXT:` then one indented line each.
/// `print` receives each finished line (a progress bar prints above itself).
pub(crate) fn print_notes(file: &str, notes: &[Note], print: &mut dyn FnMut(&str)) {
    let mut i = 0;
    while i < notes.len() {
        if let Some(r) = &notes[i].rendered {
            print(r.trim_end());
            i += 1;
            continue;
        }
        let context = &notes[i].context;
        let run = notes[i..]
            .iter()
            .take_while(|n| n.rendered.is_none() && &n.context == context)
            .count();
        if run == 1 && notes[i].place.is_none() {
            print(&format!("mdlx: {file}: {context}: {}", notes[i].what));
        } else {
            let mut text = format!("mdlx: {file}: {run} thing(s) {context}:");
            for n in &notes[i..i + run] {
                text.push_str("\n  ");
                text.push_str(&n.line());
            }
            print(&text);
        }
        i += run;
    }
}

/// An `f32` as JSON with the shortest decimal text that reads back to the same `f32`
/// (`0.1`, not `0.10000000149011612`); `null` for NaN and infinities, which JSON lacks.
pub(crate) fn f32_json(x: f32) -> Value {
    if !x.is_finite() {
        return Value::Null;
    }
    // Rust prints an f32 as the shortest text that reads back to it; that text read as an
    // f64 prints the same way again.
    let shortest: f64 = x.to_string().parse().unwrap_or(f64::from(x));
    json!(shortest)
}

/// Several `f32`s as a JSON array of [`f32_json`] values.
pub(crate) fn f32s_json(xs: &[f32]) -> Value {
    Value::Array(xs.iter().map(|&x| f32_json(x)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_json_prints_the_shortest_text() {
        assert_eq!(f32_json(0.1).to_string(), "0.1");
        assert_eq!(f32_json(-2.5e-7).to_string(), "-2.5e-7");
        assert_eq!(f32_json(1.0).to_string(), "1.0");
        assert_eq!(f32_json(f32::NAN), Value::Null);
        // Every printed value reads back to the same f32.
        for x in [0.1f32, 1.0 / 3.0, 123456.79, f32::MIN_POSITIVE, f32::MAX] {
            let back: f32 = f32_json(x).to_string().parse().unwrap();
            assert_eq!(back, x);
        }
    }

    #[test]
    fn notes_name_the_file_once_per_heading() {
        let notes = vec![
            Note::loss(
                "not carried from the WoW alpha family",
                &mdlx::Loss::new("CLID", "dropped"),
            ),
            Note::loss(
                "not carried from the WoW alpha family",
                &mdlx::Loss::new("Light[0]", "shadow"),
            ),
        ];
        let mut lines = Vec::new();
        print_notes("boar.mdx", &notes, &mut |l| lines.push(l.to_string()));
        assert_eq!(
            lines,
            ["mdlx: boar.mdx: 2 thing(s) not carried from the WoW alpha family:\n  CLID: dropped\n  Light[0]: shadow"]
        );
    }
}
