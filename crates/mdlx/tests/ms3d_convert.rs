//! Milkshape <-> model conversions over the corpus, checked with the animation engine on
//! both sides.
//!
//! - Milkshape -> MDX -> Milkshape, every corpus Milkshape file: every triangle corner
//!   keeps its position, UV and normal (1e-5); the joint hierarchy is the same; every
//!   joint is in the same place at every key time (1e-3; key times that fall between whole
//!   milliseconds are compared at the nearest one, where the model keys them), in the
//!   Milkshape documents and in the WC3 model between them.
//! - MDX -> Milkshape -> MDX, every classic and Reforged corpus MDX (its first sequence):
//!   vertex counts and bind-pose positions equal (1e-4), the hierarchy of the written
//!   joints kept, their world positions equal at the sampled times (1e-3) except where the
//!   loss report says Milkshape could not hold the motion (scaling).
//! - Every Milkshape file written keeps to what strict readers need.

mod common;

use mdlx::anim::math::transform_point;
use mdlx::anim::{AnimTime, Skeleton};
use mdlx::convert::ms3d::{
    joint_parents, ms3d_joint_positions, to_model, to_ms3d, FrameRate, ToModelOptions,
    ToMs3dOptions,
};
use mdlx::ms3d::Document;
use mdlx::Model;

fn ms3d_files() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = common::manifest()
        .into_iter()
        .filter(|r| r.format == "ms3d_ascii")
        .map(|r| common::corpus_dir().join(r.local_path))
        .collect();
    v.sort();
    v
}

fn dist(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|k| (a[k] - b[k]).abs()).fold(0.0, f32::max)
}

/// The model with every sequence non-looping: its last moment is its own, not its first.
fn held(m: &Model) -> Model {
    let mut m = m.clone();
    for s in &mut m.sequences {
        s.flags |= mdlx::model::SEQUENCE_NON_LOOPING;
    }
    m
}

/// Through MDX bytes and back to a model.
fn via_mdx(m: &Model) -> Model {
    let bytes = mdlx::mdx::to_bytes(m).expect("the converted model encodes");
    mdlx::mdx::from_bytes(&bytes).expect("and decodes")
}

/// Through Milkshape text and back to a document, checking the text on the way.
fn via_text(doc: &Document, what: &str) -> Document {
    let text = mdlx::ms3d::to_bytes(doc).unwrap_or_else(|e| panic!("{what}: cannot write: {e}"));
    if let Err(e) = strict(&text) {
        panic!("{what}: written file breaks the strict form: {e}");
    }
    mdlx::ms3d::from_bytes(&text).unwrap_or_else(|e| panic!("{what}: {}", e.render(what)))
}

/// What strict readers need: CRLF line ends only, every name quoted, no exponent in any
/// number, the blocks in the conventional order.
fn strict(text: &[u8]) -> Result<(), String> {
    let s = String::from_utf8_lossy(text);
    if text
        .windows(2)
        .enumerate()
        .any(|(i, w)| w[1] == b'\n' && w[0] != b'\r' && i + 1 < text.len())
        || text.first() == Some(&b'\n')
    {
        return Err("a line ends in a bare LF".into());
    }
    let mut order = Vec::new();
    for (n, line) in s.split("\r\n").enumerate() {
        let line = line.trim_end();
        if line.starts_with("//") || line.is_empty() {
            continue;
        }
        if let Some((block, _)) = line.split_once(':') {
            if block.chars().all(|c| c.is_ascii_alphabetic()) {
                order.push(block.to_string());
                continue;
            }
        }
        if order
            .last()
            .is_some_and(|b| b.ends_with("Comments") || b == "ModelComment")
        {
            continue; // comment text is free text
        }
        // Outside quotes, every token is a plain decimal.
        let mut outside = String::new();
        let mut quoted = false;
        for c in line.chars() {
            if c == '"' {
                quoted = !quoted;
                outside.push(' ');
            } else if !quoted {
                outside.push(c);
            }
        }
        if quoted {
            return Err(format!("line {}: unterminated quote", n + 1));
        }
        for tok in outside.split_whitespace() {
            if tok.parse::<f64>().is_err() || tok.contains(['e', 'E']) {
                return Err(format!("line {}: {tok:?} is not a plain decimal", n + 1));
            }
        }
    }
    let want = ["Frames", "Frame", "Meshes", "Materials", "Bones"];
    let got: Vec<&str> = order.iter().map(String::as_str).take(5).collect();
    if got != want {
        return Err(format!("blocks in the order {order:?}"));
    }
    names_quoted(&s)
}

/// The content lines of Milkshape text (no comments, no blank lines), numbered from 1.
type Lines<'a> = dyn Iterator<Item = (usize, &'a str)> + 'a;

/// Every name stands where the layout puts one, quoted: a mesh's line starts with its
/// name; a material's name and its two maps, a bone's name and its parent's name are quoted
/// lines. Walks the Meshes, Materials and Bones blocks by their counts.
fn names_quoted(s: &str) -> Result<(), String> {
    let mut lines = s
        .split("\r\n")
        .enumerate()
        .map(|(n, l)| (n + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with("//"));
    let lines: &mut Lines = &mut lines;
    while let Some((n, line)) = lines.next() {
        let Some((block, value)) = line.split_once(':') else {
            continue;
        };
        let items: usize = value
            .trim()
            .parse()
            .map_err(|_| format!("line {n}: {line:?} has no count"))?;
        match block {
            "Meshes" => {
                for _ in 0..items {
                    quoted(lines, "a mesh's name")?;
                    // Vertices, normals, triangles: a count, then that many lines.
                    for what in ["vertices", "normals", "triangles"] {
                        let k = count(lines, what)?;
                        skip(lines, k, what)?;
                    }
                }
            }
            "Materials" => {
                for _ in 0..items {
                    quoted(lines, "a material's name")?;
                    // Ambient, diffuse, specular, emissive, shininess, transparency.
                    skip(lines, 6, "a material's colors")?;
                    quoted(lines, "a material's color map")?;
                    quoted(lines, "a material's alpha map")?;
                }
            }
            "Bones" => {
                for _ in 0..items {
                    quoted(lines, "a bone's name")?;
                    quoted(lines, "a bone's parent")?;
                    skip(lines, 1, "a bone's rest pose")?;
                    for what in ["position keys", "rotation keys"] {
                        let k = count(lines, what)?;
                        skip(lines, k, what)?;
                    }
                }
                // The comment blocks after the bones hold free text.
                return Ok(());
            }
            _ => {}
        }
    }
    Ok(())
}

/// The next line, which must start with a quoted name.
fn quoted(lines: &mut Lines, what: &str) -> Result<(), String> {
    match lines.next() {
        Some((_, l)) if l.starts_with('"') => Ok(()),
        Some((n, l)) => Err(format!("line {n}: {what} is not quoted: {l:?}")),
        None => Err(format!("the text ends before {what}")),
    }
}

/// The next line, which must be a count.
fn count(lines: &mut Lines, what: &str) -> Result<usize, String> {
    match lines.next() {
        Some((n, l)) => l
            .parse()
            .map_err(|_| format!("line {n}: {l:?} is not the count of {what}")),
        None => Err(format!("the text ends before the count of {what}")),
    }
}

/// Passes over `k` lines of `what`.
fn skip(lines: &mut Lines, k: usize, what: &str) -> Result<(), String> {
    for _ in 0..k {
        lines
            .next()
            .ok_or_else(|| format!("the text ends inside {what}"))?;
    }
    Ok(())
}

#[test]
fn milkshape_to_mdx_and_back_keeps_geometry_hierarchy_and_motion() {
    let rate = FrameRate::default();
    let (mut files, mut corners, mut joints, mut samples) = (0, 0usize, 0usize, 0usize);
    let (mut worst_ms, mut worst_wc3) = (0.0f32, 0.0f32);
    for path in ms3d_files() {
        let name = common::name(&path);
        let doc = mdlx::ms3d::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        let opts = ToModelOptions {
            name: name.clone(),
            ..Default::default()
        };
        let (model, losses) = to_model(&doc, &opts);
        let model = via_mdx(&model);
        let (back, _) = to_ms3d(&model, &ToMs3dOptions::default());
        let back = via_text(&back, &name);
        files += 1;

        // Every triangle corner: position, UV, normal. A mesh without vertices has no
        // geoset (the game refuses an empty one), so it does not come back.
        let kept: Vec<&mdlx::ms3d::Mesh> = doc
            .meshes
            .iter()
            .filter(|m| !m.vertices.is_empty())
            .collect();
        assert_eq!(back.meshes.len(), kept.len(), "{name}");
        for (m, (a, b)) in kept.into_iter().zip(&back.meshes).enumerate() {
            assert_eq!(
                a.triangles.len(),
                b.triangles.len(),
                "{name} mesh {m}: {losses:?}"
            );
            for (ta, tb) in a.triangles.iter().zip(&b.triangles) {
                for c in 0..3 {
                    let va = &a.vertices[ta.vertices[c] as usize];
                    let vb = &b.vertices[tb.vertices[c] as usize];
                    let na = a.normals[ta.normals[c] as usize];
                    let nb = b.normals[tb.normals[c] as usize];
                    assert!(
                        dist(va.position, vb.position) <= 1e-5
                            && (va.uv[0] - vb.uv[0]).abs() <= 1e-5
                            && (va.uv[1] - vb.uv[1]).abs() <= 1e-5
                            && dist(na, nb) <= 1e-5,
                        "{name} mesh {m}: corner {va:?} {na:?} came back as {vb:?} {nb:?}"
                    );
                    corners += 1;
                }
            }
        }

        // The hierarchy: the same joints (by name) with the same parents.
        let pa = joint_parents(&doc);
        let pb = joint_parents(&back);
        for (i, j) in doc.bones.iter().enumerate() {
            let k = back
                .bones
                .iter()
                .position(|b| b.name == j.name)
                .unwrap_or_else(|| panic!("{name}: joint {:?} missing", j.name));
            let parent_a = pa[i].map(|p| &doc.bones[p].name);
            let parent_b = pb[k].map(|p| &back.bones[p].name);
            assert_eq!(parent_a, parent_b, "{name}: parent of {:?}", j.name);
            joints += 1;
        }

        // Motion: every key time of the file, in both documents and in the model.
        let mut times: Vec<f32> = doc
            .bones
            .iter()
            .flat_map(|b| b.position_keys.iter().chain(&b.rotation_keys))
            .map(|k| k.time)
            .collect();
        // Inside the one sequence (frame 1 to `Frames`), and its two ends: keys outside it
        // play in no sequence (the loss report says so).
        let last = doc
            .frames
            .map_or_else(|| times.iter().copied().fold(1.0, f32::max), |f| f as f32);
        times.retain(|&t| (1.0..=last).contains(&t));
        times.extend([1.0, last]);
        times.sort_by(f32::total_cmp);
        times.dedup();
        // Posed as if the sequence did not loop, so its last frame is its own.
        let held = held(&model);
        let skeleton = Skeleton::new(&held);
        for &f in &times {
            // The converted model keys the nearest whole millisecond: compare there.
            let ms = rate.ms(f);
            let f = rate.frame(f64::from(ms));
            let original = ms3d_joint_positions(&doc, Some(f));
            let again = ms3d_joint_positions(&back, Some(f));
            // The model between them, at the same moment (its one sequence starts at frame 1).
            let pose = skeleton.pose(AnimTime::new(Some(0), f64::from(ms)), None);
            for (i, j) in doc.bones.iter().enumerate() {
                let k = back.bones.iter().position(|b| b.name == j.name).unwrap();
                let d = dist(original[i], again[k]);
                let n = &skeleton.nodes[i];
                let wc3 = transform_point(&pose.nodes[i].world, n.pivot);
                let dw = dist(original[i], wc3);
                worst_ms = worst_ms.max(d);
                worst_wc3 = worst_wc3.max(dw);
                assert!(
                    d <= 1e-3 && dw <= 1e-3,
                    "{name}: joint {:?} at frame {f}: {:?} vs {:?} after the trip, {wc3:?} in the model",
                    j.name,
                    original[i],
                    again[k]
                );
                samples += 1;
            }
        }
    }
    println!(
        "Milkshape -> MDX -> Milkshape: {files} files, {corners} triangle corners equal, {joints} joints with the same parents, {samples} joint positions at key times within 1e-3 (worst {worst_ms:e} after the trip, {worst_wc3:e} in the WC3 model)"
    );
    assert_eq!(files, 45);
}

#[test]
fn mdx_to_milkshape_and_back_keeps_vertices_hierarchy_and_motion() {
    let (mut files, mut vertices, mut joints, mut samples) = (0, 0usize, 0usize, 0usize);
    let mut scaled_files = Vec::new();
    let mut loss_kinds: std::collections::BTreeMap<String, usize> = Default::default();
    let mut worst = 0.0f32;
    let mut relative = 0usize;
    let mut scaled_samples = 0usize;
    for path in common::corpus_mdx() {
        let name = common::name(&path);
        let Ok(model) = mdlx::mdx::from_bytes(&std::fs::read(&path).unwrap()) else {
            continue; // the WoW alpha boar
        };
        let opts = ToMs3dOptions {
            sequence: (!model.sequences.is_empty()).then_some(0),
            ..Default::default()
        };
        let (doc, losses) = to_ms3d(&model, &opts);
        for l in &losses {
            *loss_kinds
                .entry(l.place.split('[').next().unwrap().to_string())
                .or_default() += 1;
        }
        let doc = via_text(&doc, &name);
        let (back, _) = to_model(&doc, &ToModelOptions::default());
        let back = via_mdx(&back);
        files += 1;

        // Vertices: same count, same bind positions.
        assert_eq!(back.geosets.len(), model.geosets.len(), "{name}");
        for (g, (a, b)) in model.geosets.iter().zip(&back.geosets).enumerate() {
            assert_eq!(a.vertices.len(), b.vertices.len(), "{name} geoset {g}");
            for (p, q) in a.vertices.iter().zip(&b.vertices) {
                assert!(
                    dist(*p, *q) <= 1e-4 || !dist(*p, *q).is_finite(),
                    "{name} geoset {g}"
                );
                vertices += 1;
            }
        }

        // The written joints: the same parents, in order.
        let sa = Skeleton::new(&model);
        let sb = Skeleton::new(&back);
        let kept: Vec<usize> = (0..sa.nodes.len())
            .filter(|&i| {
                // bones, helpers and their ancestors
                let is_joint = |k: usize| {
                    matches!(
                        sa.nodes[k].kind,
                        mdlx::anim::NodeKind::Bone | mdlx::anim::NodeKind::Helper
                    )
                };
                is_joint(i)
                    || (0..sa.nodes.len()).any(|k| {
                        is_joint(k) && {
                            let mut at = sa.nodes[k].parent;
                            let mut hit = false;
                            while let Some(p) = at {
                                if p == i {
                                    hit = true;
                                    break;
                                }
                                at = sa.nodes[p].parent;
                            }
                            hit
                        }
                    })
            })
            .collect();
        for (j, &i) in kept.iter().enumerate() {
            let want = sa.nodes[i]
                .parent
                .map(|p| kept.iter().position(|&k| k == p).unwrap());
            assert_eq!(sb.nodes[j].parent, want, "{name}: parent of joint {j}");
            joints += 1;
        }

        // Motion in the first sequence, at its key times and ends.
        let Some(seq) = model.sequences.first() else {
            continue;
        };
        if losses.iter().any(|l| l.what.contains("scaling")) {
            scaled_files.push(name.clone());
        }
        // The sampled times: the frames the written document keys, back in milliseconds.
        let rate = FrameRate::default();
        let lo = seq.interval[0] as i64;
        let mut times: Vec<i64> = doc
            .bones
            .iter()
            .flat_map(|b| b.position_keys.iter().chain(&b.rotation_keys))
            .map(|k| i64::from(rate.ms(k.time)))
            .collect();
        times.sort_unstable();
        times.dedup();
        let (ha, hb) = (held(&model), held(&back));
        let (sa, sb) = (Skeleton::new(&ha), Skeleton::new(&hb));
        for t in times {
            let at = AnimTime::new(Some(0), (t - lo) as f64);
            let pa = sa.pose(at, None);
            let pb = sb.pose(at, None);
            // Joints scaled at this moment, or below one that is: Milkshape joints do not
            // scale, so these cannot be carried (the loss report says so).
            let scaled_now = |i: usize| {
                let (_, lens) = mdlx::anim::math::decompose(&pa.nodes[i].world);
                lens.iter().any(|l| (l - 1.0).abs() > 1e-4)
            };
            let under_scale = |i: usize| {
                let mut at = Some(i);
                while let Some(k) = at {
                    if scaled_now(k) {
                        return true;
                    }
                    at = sa.nodes[k].parent;
                }
                false
            };
            for (j, &i) in kept.iter().enumerate() {
                if under_scale(i) {
                    scaled_samples += 1;
                    continue;
                }
                let a = transform_point(&pa.nodes[i].world, sa.nodes[i].pivot);
                let b = transform_point(&pb.nodes[j].world, sb.nodes[j].pivot);
                let d = dist(a, b);
                if d.is_finite() {
                    worst = worst.max(d);
                }
                // 1e-3, or 1e-6 of the coordinates' size where that is larger: at 2,400
                // units one f32 step is 2.4e-4, and the trip goes through several products.
                let size = a.iter().fold(0.0f32, |m, x| m.max(x.abs()));
                let tol = 1e-3f32.max(size * 1e-6);
                relative += usize::from(d > 1e-3 && d <= tol);
                assert!(
                    d <= tol || !d.is_finite(),
                    "{name}: joint {j} ({:?}) at {t} ms: {a:?} vs {b:?}",
                    sa.nodes[i].node.name.text()
                );
                samples += 1;
            }
        }
    }
    println!(
        "MDX -> Milkshape -> MDX: {files} models, {vertices} vertices in place, {joints} joints with the same parents, {samples} joint positions within 1e-3 ({relative} of them, far from the origin, within 1e-6 of their size instead; worst {worst:e}); {scaled_samples} joint positions not compared because the joint is scaled at that moment (Milkshape joints cannot scale; {} models, each with a `scaling` loss)",
        scaled_files.len()
    );
    println!("loss report entries by place: {loss_kinds:?}");
    assert!(files >= 545);
}

/// A material's diffuse color becomes the tint of the geosets using it (the geoset
/// animation's static color, stored blue, green, red); a white one adds nothing.
#[test]
fn diffuse_colors_tint_their_geosets() {
    use mdlx::ms3d::{Material, Mesh};
    let material = |diffuse: [f32; 4]| Material {
        diffuse,
        transparency: 1.0,
        ..Default::default()
    };
    let doc = Document {
        frames: Some(1),
        frame: Some(1),
        meshes: vec![
            Mesh {
                material: 0,
                vertices: vec![Default::default()],
                ..Default::default()
            },
            Mesh {
                material: 1,
                vertices: vec![Default::default()],
                ..Default::default()
            },
        ],
        materials: vec![material([0.5, 0.25, 1.0, 1.0]), material([1.0; 4])],
        ..Default::default()
    };
    let (model, _) = to_model(&doc, &ToModelOptions::default());
    assert_eq!(model.geoset_animations.len(), 1);
    let a = &model.geoset_animations[0];
    assert_eq!((a.geoset_id, a.color), (0, [1.0, 0.25, 0.5]));
    assert_eq!(a.flags, mdlx::model::geoset_animation_flags::USE_COLOR);
    // And the tint shows when the model is posed.
    let s = Skeleton::new(&model);
    let at = AnimTime::new(Some(0), 0.0);
    let g = mdlx::anim::posed_geosets(&model, &s, &s.pose(at, None), &s.clock(at));
    assert_eq!(g[0].color, [1.0, 0.25, 0.5]);
    assert_eq!(g[1].color, [1.0; 3]);
}

#[test]
fn the_strict_form_refuses_a_name_written_without_quotes() {
    let sdk = ms3d_files()
        .into_iter()
        .find(|p| common::name(p).contains("ms3dsdk"))
        .expect("the Milkshape SDK sample is in the corpus");
    let doc = mdlx::ms3d::from_bytes(&std::fs::read(&sdk).unwrap()).unwrap();
    let text = String::from_utf8(mdlx::ms3d::to_bytes(&doc).unwrap()).unwrap();
    assert_eq!(strict(text.as_bytes()), Ok(()));
    // A bone called `7` written bare: every token is a plain decimal, but a name belongs
    // there.
    let bare = text.replacen("\r\n\"joint1\"\r\n", "\r\n7\r\n", 1);
    assert_ne!(bare, text, "the sample has a bone named joint1");
    let e = strict(bare.as_bytes()).unwrap_err();
    assert!(e.contains("a bone's name is not quoted"), "{e}");
}
