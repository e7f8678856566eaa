//! The decompressors against known vectors (one from the format's classic description,
//! ASCII-mode ones from an independent encoder) and hostile input. `stormlib.rs` checks
//! them against StormLib.

use super::*;

/// A small deterministic generator (xorshift64*), for test data and hostile input.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub(super) fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// The example stream of the format's classic description (Mark Adler's `blast.c`):
/// binary literals, a 1 KiB dictionary, "AIAIAIAIAIAIA".
#[test]
fn explode_known_vector() {
    let data = [0x00, 0x04, 0x82, 0x24, 0x25, 0x8f, 0x80, 0x7f];
    assert_eq!(explode(&data, 13).unwrap(), b"AIAIAIAIAIAIA");
    // Asked for fewer bytes, it stops there; asked for more, the end mark makes it short.
    assert_eq!(explode::explode(&data, 5).unwrap(), b"AIAIA");
    assert_eq!(
        explode(&data, 20),
        Err(CodecError::Length {
            expected: 20,
            got: 13
        })
    );
}

/// ASCII-mode streams (1 KiB and 4 KiB dictionaries) made by an independent encoder,
/// node-pkware 5.1.0 (`implode --ascii --small|--large`), of [`ascii_plain`]; smpq only
/// writes binary mode.
const ASCII_SMALL: &str = concat!(
    "0104901d8da13934c50b04024fd6e9b6a97ad382607bcbd8ac435281910f6b4588a70904780792c01ff8015f",
    "e003bc8117f0041e7089813b702302aec005380327e0081c803db003b6c00658032b401258020b600ecc80a9",
    "07251c60020a600c72d88404b0c0c697e2c1c495e0606361c2c040870e0d1881041a58200e0cc5a822a18b02",
    "158a00c4c0e423f3b84820ca61b310c1800c3a68200209844105061081bec364d06d1a956281108249367412",
    "c834559121c083070752100401a00774810e20018803628028200208034280202000f0037c002fc00370035c",
    "0027c001b0036c002bc00230034c0023c000d00374002d400350035400254001900364002940021003440021",
    "4000e00378002e80036003580026d0065a4013680075a00654810a50064a4011280079200764810c90065240",
    "124800712006448108100642401008007ec00778010fe0065c8013700076c00658010b60064c801130007a40",
    "0768010d8001a80174000d400554000a800c20014a00114000e001384001c002300034200764801480022001",
    "08001c00034001100018000200010085627bdba0131107fc03",
);
const ASCII_LARGE: &str = concat!(
    "0106901d8da13934c50b04024fd6e9b6a97ad382607bcbd8ac435281910feb6188f71008a80324813ff003be",
    "c00778032fe0093ce0120377e046045c810b70064ec01138007b60076c810db006568024b00416c01c980153",
    "0f4a38c00414c018e4b0090960818d2fc583892bc1c1c6c28481810e1d1a30020934b0401c188a5145421705",
    "2a14018881c947e671914094c3662182011974d040041208830a0c20027d87c9a0db342ac5022104936ce824",
    "9069aa224380070f0ea4200802400fe8021d40021007c40051400410068400414000e007f8005e8007e006b8",
    "004e80036007d80056800560069800468001a007e8005a8006a006a8004a80022007c8005280042006880042",
    "8000c007f0005c0007c006b0004ca00db48026d000ea400da80215a00c9480225000f2400ec80219200da480",
    "249000e2400c880211200c8480201000fc800ff0021ec00db80027e000ec800db00216c00c9800236000f480",
    "0ed0021a00035003e8001a800aa80014001940029400228000c0037080028005600068400ec8002900054002",
    "1000380006800220003000040002000ac5f6b64127220ef807",
);

/// The text the ASCII vectors hold: every byte value once, so the long codes are used.
fn ascii_plain() -> Vec<u8> {
    let mut p = b"Warcraft III models live in maps; ".repeat(8);
    p.extend(0..=255u8);
    p.extend_from_slice(b"the end\r\n");
    p
}

fn unhex(h: &str) -> Vec<u8> {
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn explode_ascii_vectors() {
    let plain = ascii_plain();
    for (stream, dict) in [(ASCII_SMALL, 4), (ASCII_LARGE, 6)] {
        let data = unhex(stream);
        assert_eq!((data[0], data[1]), (1, dict), "ASCII mode, dictionary bits");
        assert_eq!(explode(&data, plain.len()).unwrap(), plain);
    }
}

#[test]
fn sparse_by_hand() {
    // 10 bytes: 2 literals, 5 zeros, then a literal run cut at the declared size.
    let data = [0, 0, 0, 10, 0x81, 7, 8, 0x02, 0xFF, 1, 2, 3];
    assert_eq!(
        sparse::decompress(&data, 10).unwrap(),
        [7, 8, 0, 0, 0, 0, 0, 1, 2, 3]
    );
    assert!(sparse::decompress(&data, 9).is_err(), "size over the cap");
    assert!(
        sparse::decompress(&data[..10], 10).is_err(),
        "literal run cut"
    );
}

#[test]
fn mask_rules() {
    assert_eq!(
        decompress(&[0x04, 1, 2], 10),
        Err(CodecError::Unsupported(0x04))
    );
    assert_eq!(
        decompress(&[0x00, 1, 2], 10),
        Err(CodecError::Unsupported(0))
    );
    assert_eq!(
        decompress(&[9, 9, 9], 3).unwrap(),
        [9, 9, 9],
        "stored as is"
    );
    assert!(
        decompress(&[0x02, 1, 2, 3], 2).is_err(),
        "longer than the output"
    );
    let z = compress_zlib(&[5u8; 1000]).unwrap();
    assert_eq!(decompress(&z, 1000).unwrap(), vec![5u8; 1000]);
    // A stream that gives more than the file's size implies is an error.
    assert_eq!(
        decompress(&z, 999),
        Err(CodecError::Length {
            expected: 999,
            got: 1000
        })
    );
    assert_eq!(
        decompress(&z, 1001),
        Err(CodecError::Length {
            expected: 1001,
            got: 1000
        })
    );
}

/// Streams cut short (as in the shared truncated map) are errors, never short output.
#[test]
fn cut_streams_are_errors() {
    let mut rng = Rng(7);
    let plain: Vec<u8> = (0..20_000)
        .map(|_| b"abcdefgh"[(rng.next() % 8) as usize])
        .collect();
    let z = compress_zlib(&plain).unwrap();
    for cut in [z.len() / 2, z.len() - 5, 3] {
        assert!(
            decompress(&z[..cut], plain.len()).is_err(),
            "zlib cut at {cut}"
        );
    }
    let pk = unhex(ASCII_LARGE);
    for cut in [pk.len() / 2, pk.len() - 2, 5] {
        assert!(
            explode(&pk[..cut], ascii_plain().len()).is_err(),
            "explode cut at {cut}"
        );
    }
}

/// Random bytes through every method and mask: errors or output of the asked length, no
/// panic, no hang, nothing longer than asked.
#[test]
fn random_input_never_panics() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let masks = [
        0x01, 0x02, 0x08, 0x10, 0x12, 0x20, 0x40, 0x80, 0x41, 0x81, 0x22, 0x28, 0x30, 0x0A, 0x18,
        0xFF, 0x03,
    ];
    for round in 0..3000 {
        let len = (rng.next() % 300) as usize + 3;
        let mut data = rng.bytes(len);
        let out_len = len + (rng.next() % 5000) as usize;
        data[0] = masks[round % masks.len()];
        if let Ok(out) = decompress(&data, out_len) {
            assert_eq!(out.len(), out_len);
        }
        if round % 3 == 0 {
            // Plausible headers, so the decoders get past their first checks.
            data[1] = (rng.next() % 2) as u8;
            if len > 2 {
                data[2] = 4 + (rng.next() % 3) as u8;
            }
        }
        if let Ok(out) = explode(&data[1..], out_len) {
            assert_eq!(out.len(), out_len);
        }
        for (_, stage) in STAGES {
            if let Ok(out) = stage(&data[1..], out_len) {
                assert!(out.len() <= out_len);
            }
        }
        // Huffman with each weight table.
        data[0] = (round % 9) as u8;
        if let Ok(out) = huffman::decompress(&data, out_len) {
            assert!(out.len() <= out_len);
        }
    }
}

/// Valid streams of each method with bytes flipped: the decoders get deep into them
/// (random bytes mostly stop at a header check). No panic, nothing past the size asked.
#[test]
fn mutated_streams_never_panic() {
    use std::io::Write;
    let mut rng = Rng(0xC0FF_EE00);
    let plain: Vec<u8> = (0..6000)
        .map(|i| {
            if i % 7 == 0 {
                (rng.next() % 256) as u8
            } else {
                b"mdx "[i % 4]
            }
        })
        .collect();
    let mut bz = bzip2::write::BzEncoder::new(vec![0x10], bzip2::Compression::best());
    bz.write_all(&plain).unwrap();
    let mut lz = vec![0x12, 0];
    lzma_rs::lzma_compress(&mut &plain[..], &mut lz).unwrap();
    let mut streams = [
        compress_zlib(&plain).unwrap(),
        bz.finish().unwrap(),
        lz,
        [&[0x08][..], &unhex(ASCII_LARGE)].concat(),
        [&[0x01, 0x00][..], &rng.bytes(3000)].concat(),
        [&[0x41, 0x07][..], &rng.bytes(3000)].concat(),
    ];
    // Each clean stream first decodes to the plain bytes where that is known.
    for s in &streams[..3] {
        assert_eq!(
            decompress(s, plain.len()).unwrap(),
            plain,
            "mask {:02x}",
            s[0]
        );
    }
    for round in 0..4000 {
        let k = round % streams.len();
        let mut s = streams[k].clone();
        for _ in 0..1 + rng.next() % 4 {
            let at = 1 + (rng.next() as usize) % (s.len() - 1);
            s[at] ^= 1 << (rng.next() % 8);
        }
        let out_len = plain.len() - 50 + (rng.next() % 100) as usize;
        if let Ok(out) = decompress(&s, out_len) {
            assert_eq!(out.len(), out_len);
        }
        if round % 500 == 0 {
            streams[k] = s;
        }
    }
}
