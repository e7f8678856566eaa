//! Tests of `mdl::parse` (kept apart so that the module reads as code).

use super::*;

fn shape(src: &str) -> (String, usize) {
    let mut d = Vec::new();
    let t = parse(src.as_bytes(), &mut d);
    fn walk(t: &Tree, i: usize, out: &mut String) {
        let words: Vec<String> = t
            .item_atoms(i)
            .iter()
            .map(|a| String::from_utf8_lossy(t.text(a)).into_owned())
            .collect();
        out.push_str(&words.join(" "));
        if t.items[i].body {
            out.push('{');
            let kids: Vec<usize> = t.children(i).collect();
            for (n, k) in kids.iter().enumerate() {
                if n > 0 {
                    out.push('|');
                }
                walk(t, *k, out);
            }
            out.push('}');
        }
    }
    let mut out = String::new();
    walk(&t, 0, &mut out);
    (out, d.len())
}

#[test]
fn items_end_at_commas_bodies_and_lines() {
    let (s, errs) =
        shape("Model \"a\" {\n BlendTime 150,\n MinimumExtent { -1, 2.5e-05, 3 },\n}\n");
    assert_eq!(errs, 0);
    assert_eq!(s, "{Model a{BlendTime 150|MinimumExtent{-1 2.5e-05 3}}}");
}

#[test]
fn keys_and_allman_braces() {
    let (s, _) =
        shape("Translation 1 {\n Linear,\n 0: { 1, 2, 3 },\n}\nAnim \"x\"\n{\n NonLooping\n}");
    assert_eq!(s, "{Translation 1{Linear|0 :{1 2 3}}|Anim x{NonLooping}}");
}

#[test]
fn comments_bom_and_crlf() {
    let (s, errs) = shape("\u{feff}// c\r\nVersion { /* x */ FormatVersion 800, // y\r\n}\r\n");
    assert_eq!(errs, 0);
    assert_eq!(s, "{Version{FormatVersion 800}}");
}

#[test]
fn structural_errors_are_reported_and_parsing_goes_on() {
    let mut d = Vec::new();
    parse(b"A {\n} }\nB \"open", &mut d);
    let kinds: Vec<_> = d.iter().map(|x| x.kind.clone()).collect();
    assert_eq!(
        kinds,
        vec![
            MdlErrorKind::UnmatchedClose,
            MdlErrorKind::UnterminatedString
        ]
    );
}

#[test]
fn deep_nesting_is_bounded() {
    let src = "{".repeat(10_000) + &"}".repeat(10_000);
    let mut d = Vec::new();
    let t = parse(src.as_bytes(), &mut d);
    assert_eq!(d.len(), 1);
    assert!(matches!(d[0].kind, MdlErrorKind::TooDeep { .. }));
    assert!(t.items.len() <= MAX_DEPTH + 2);
}
