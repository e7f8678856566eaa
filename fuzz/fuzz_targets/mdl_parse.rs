//! MDL parse never panics, hangs or recurses without bound, whatever the text, read
//! leniently or strictly; errors and warnings render. Strict reading turns every warning
//! into an error, so it succeeds exactly when the lenient read succeeds without warnings,
//! and then both give the same model.
#![no_main]
use mdlx::mdl::{from_bytes_with_options, ReadOptions};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let lenient = from_bytes_with_options(data, &ReadOptions { strict: false });
    let strict = from_bytes_with_options(data, &ReadOptions { strict: true });
    match &lenient {
        Ok((_, warnings)) => {
            for w in warnings {
                let _ = w.render(data, "fuzz.mdl");
                let _ = w.message();
            }
        }
        Err(e) => {
            let _ = e.render(data, "fuzz.mdl");
        }
    }
    if let Err(e) = &strict {
        let _ = e.render(data, "fuzz.mdl");
    }
    match (&lenient, &strict) {
        (Ok((_, w)), Ok(_)) if !w.is_empty() => panic!("strict read took a file with warnings"),
        (Ok((a, _)), Ok((b, w))) => {
            assert!(w.is_empty(), "a strict read returned warnings");
            assert_eq!(
                mdlx::mdl::to_bytes(a),
                mdlx::mdl::to_bytes(b),
                "strict and lenient reads gave different models"
            );
        }
        (Ok((_, w)), Err(_)) => assert!(
            !w.is_empty(),
            "strict refused a file that reads without warnings"
        ),
        (Err(_), Ok(_)) => panic!("strict read took a file the lenient read refuses"),
        (Err(_), Err(_)) => {}
    }
});
