//! The example fields read and write in MDX and MDL at 1800 and are absent before.

use crate::mdl::records::MdlRecord;
use crate::mdx::record::MdxRecord;
use crate::model::{Light, ParticleEmitter2};

fn mdx<T: MdxRecord>(r: &T, version: u32) -> Vec<u8> {
    let mut w = crate::mdx::writer::Writer::default();
    r.write_mdx(&mut w, version).unwrap();
    w.into_bytes()
}

fn back<T: MdxRecord>(bytes: &[u8], version: u32) -> T {
    T::read_mdx(&mut crate::mdx::reader::Reader::new(bytes), version).unwrap()
}

fn mdl<T: MdlRecord>(r: &T, version: u32) -> String {
    let mut out = crate::mdl::out::Out::default();
    r.write_mdl(&mut out, version);
    String::from_utf8(out.buf).unwrap()
}

#[test]
fn example_fields_round_trip() {
    let l = Light {
        example_range: 7.5,
        ..Default::default()
    };
    let p = ParticleEmitter2 {
        example_spin: 2.25,
        ..Default::default()
    };
    assert_eq!(mdx(&l, 1800).len(), mdx(&l, 1600).len() + 4);
    assert_eq!(back::<Light>(&mdx(&l, 1800), 1800).example_range, 7.5);
    assert_eq!(back::<Light>(&mdx(&l, 1600), 1600).example_range, 0.0);
    assert_eq!(
        back::<ParticleEmitter2>(&mdx(&p, 1800), 1800).example_spin,
        2.25
    );
    assert!(
        mdl(&l, 1800).contains("ExampleRange 7.5,"),
        "{}",
        mdl(&l, 1800)
    );
    assert!(!mdl(&l, 1600).contains("ExampleRange"));
    assert!(
        mdl(&p, 1800).contains("ExampleSpin 2.25,"),
        "{}",
        mdl(&p, 1800)
    );
}
