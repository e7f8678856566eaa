//! Tests of `mdx::family` (kept apart so that the module reads as code).

use super::*;

fn file(version: u32, chunks: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    let mut d = b"MDLX".to_vec();
    d.extend_from_slice(b"VERS\x04\0\0\0");
    d.extend_from_slice(&version.to_le_bytes());
    for (tag, p) in chunks {
        d.extend_from_slice(*tag);
        d.extend_from_slice(&(p.len() as u32).to_le_bytes());
        d.extend_from_slice(p);
    }
    d
}

#[test]
fn modl_sizes_and_conflicts() {
    let alpha = file(1300, &[(b"MODL", vec![0; 373])]);
    assert_eq!(classify_family(&alpha), Ok(Family::WowAlpha));
    let wc3 = file(1300, &[(b"MODL", vec![0; 372])]);
    assert_eq!(classify_family(&wc3), Ok(Family::Reforged));
    // No chunk that tells: Reforged.
    assert_eq!(
        classify_family(&file(1400, &[(b"TEXS", vec![0; 268])])),
        Ok(Family::Reforged)
    );
    let e = classify_family(&file(1300, &[(b"MODL", vec![0; 380])])).unwrap_err();
    assert_eq!(e.offset, 0x10);
    assert!(e.to_string().contains("MODL at 0x10 has size 380"), "{e}");

    let mut seqs = vec![0; 264];
    seqs[..5].copy_from_slice(b"Stand");
    seqs[132..136].copy_from_slice(b"Walk");
    let mixed = file(1300, &[(b"MODL", vec![0; 373]), (b"SEQS", seqs.clone())]);
    let e = classify_family(&mixed).unwrap_err();
    let msg = e.to_string();
    assert!(
            msg.contains("MODL at 0x10 has the alpha size 373 but SEQS at 0x18d has Warcraft III 132-byte records"),
            "{msg}"
        );
    assert_eq!(e.offset, 0x18d);
    // Unnamed Warcraft III sequences also read as an alpha count of 0 and a tail: the
    // chunk then tells nothing, and the MODL decides.
    seqs[..5].fill(0);
    let unnamed = file(1300, &[(b"MODL", vec![0; 373]), (b"SEQS", seqs)]);
    assert_eq!(classify_family(&unnamed), Ok(Family::WowAlpha));
    // Other versions are decided by number whatever the chunks.
    assert_eq!(
        classify_family(&file(800, &[(b"MODL", vec![0; 373])])),
        Ok(Family::Classic)
    );
}

#[test]
fn hostile_counts_do_not_panic() {
    for tag in crate::spec::chunk::ALL {
        for p in [
            vec![0xFF; 64],
            vec![0; 3],
            vec![],
            [u32::MAX.to_le_bytes(), 0u32.to_le_bytes()].concat(),
        ] {
            let _ = classify_family(&file(1500, &[(&tag.0, p.clone())]));
            let _ = classify_family(&file(1300, &[(&tag.0, p)]));
        }
    }
}
