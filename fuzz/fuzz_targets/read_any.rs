//! `mdlx::read` on any bytes, lenient and strict: it never panics or hangs, its errors and
//! warnings render, and whatever it reads (MDX, WoW alpha, Milkshape, glTF or MDL) writes
//! as MDL that reads back, strictly, to the same model, and as MDX that decodes and is
//! again taken for MDX. The one model MDX cannot hold is one with a string longer than its
//! fixed field (an MDL name of 200 bytes, say): the writer refuses that with `Unwritable`,
//! and only that.
#![no_main]
use mdlx::mdx::MdxErrorKind;
use mdlx::{ReadOptions, Source};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    for strict in [false, true] {
        let opts = ReadOptions {
            strict,
            ..Default::default()
        };
        let loaded = match mdlx::read(data, &opts) {
            Ok(l) => l,
            Err(e) => {
                let _ = e.render("fuzz");
                let _ = e.to_string();
                continue;
            }
        };
        for w in &loaded.warnings {
            let _ = w.render("fuzz");
        }
        if strict {
            assert!(loaded.warnings.is_empty(), "a strict read warned");
        }
        let model = &loaded.model;
        let src = loaded.source;

        let mdx = match mdlx::mdx::to_bytes(model) {
            Ok(bytes) => {
                if let Err(e) = mdlx::mdx::from_bytes(&bytes) {
                    panic!("{src} (strict {strict}): the MDX written does not decode: {e}");
                }
                match mdlx::read(&bytes, &opts) {
                    Ok(l) => assert!(
                        matches!(l.source, Source::Mdx { .. }),
                        "the MDX written was read as {}",
                        l.source
                    ),
                    Err(e) => panic!("{src}: the MDX written is refused by read: {e}"),
                }
                Some(bytes)
            }
            Err(e) => {
                assert!(
                    matches!(e.kind, MdxErrorKind::Unwritable(_)),
                    "{src} (strict {strict}): MDX writing failed with {e}"
                );
                None
            }
        };

        let text = mdlx::mdl::to_bytes(model);
        let back = match mdlx::read(
            &text,
            &ReadOptions {
                strict: true,
                ..Default::default()
            },
        ) {
            Ok(l) => l,
            Err(e) => panic!(
                "{src} (strict {strict}): the MDL written does not read back strictly:\n{}",
                e.render("written.mdl")
            ),
        };
        assert!(
            matches!(back.source, Source::Mdl { .. }),
            "the MDL written was read as {}",
            back.source
        );
        if let Some(mdx) = mdx {
            assert_eq!(
                mdlx::mdx::to_bytes(&back.model).ok(),
                Some(mdx),
                "{src} (strict {strict}): model -> MDL -> model changed it"
            );
        }
        assert_eq!(
            mdlx::mdl::to_bytes(&back.model),
            text,
            "{src} (strict {strict}): writing the MDL twice gave different text"
        );
    }
});
