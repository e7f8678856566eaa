//! The MPQ cipher and name hashes: one table of 1,280 words drives both.
//!
//! Every name is hashed three ways with it (where the hash table lookup starts, and two
//! checks), tables and files are encrypted with it, and a file's key comes from its plain
//! name (the part after the last backslash), adjusted by its place and size when the
//! block says so.

/// The purposes a name is hashed for; each selects 256 words of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HashKind {
    /// Where a name's search in the hash table starts.
    Offset = 0,
    /// The first check of a hash entry.
    NameA = 1,
    /// The second check.
    NameB = 2,
    /// An encryption key.
    Key = 3,
}

const fn make_table() -> [u32; 0x500] {
    let mut table = [0u32; 0x500];
    let mut seed: u32 = 0x0010_0001;
    let mut i = 0;
    while i < 0x100 {
        let mut j = 0;
        while j < 5 {
            seed = (seed * 125 + 3) % 0x002A_AAAB;
            let hi = (seed & 0xFFFF) << 16;
            seed = (seed * 125 + 3) % 0x002A_AAAB;
            let lo = seed & 0xFFFF;
            table[i + j * 0x100] = hi | lo;
            j += 1;
        }
        i += 1;
    }
    table
}

static TABLE: [u32; 0x500] = make_table();

/// Hashes `name` for `kind`. Slashes count as backslashes and letters are upper-cased, as
/// the game does, so `units\human\footman.mdx` and `Units/Human/Footman.mdx` are one name.
pub(crate) fn hash(name: &str, kind: HashKind) -> u32 {
    hash_bytes(name.as_bytes(), kind)
}

/// [`hash`] of raw bytes (names are not always UTF-8 in old archives).
pub(crate) fn hash_bytes(name: &[u8], kind: HashKind) -> u32 {
    let base = (kind as usize) << 8;
    let mut seed1: u32 = 0x7FED_7FED;
    let mut seed2: u32 = 0xEEEE_EEEE;
    for &b in name {
        let c = match b {
            b'/' => b'\\',
            c => c.to_ascii_uppercase(),
        };
        seed1 = TABLE[base + c as usize] ^ seed1.wrapping_add(seed2);
        seed2 = (c as u32)
            .wrapping_add(seed1)
            .wrapping_add(seed2)
            .wrapping_add(seed2 << 5)
            .wrapping_add(3);
    }
    seed1
}

/// Decrypts whole little-endian words in place; trailing bytes (fewer than 4) are stored
/// in the clear and left as they are.
pub(crate) fn decrypt(data: &mut [u8], key: u32) {
    let mut seed1 = key;
    let mut seed2: u32 = 0xEEEE_EEEE;
    for word in data.chunks_exact_mut(4) {
        seed2 = seed2.wrapping_add(TABLE[0x400 + (seed1 & 0xFF) as usize]);
        let c = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        let p = c ^ seed1.wrapping_add(seed2);
        seed1 = ((!seed1) << 0x15).wrapping_add(0x1111_1111) | (seed1 >> 0x0B);
        seed2 = p
            .wrapping_add(seed2)
            .wrapping_add(seed2 << 5)
            .wrapping_add(3);
        word.copy_from_slice(&p.to_le_bytes());
    }
}

/// Encrypts whole words in place (the inverse of [`decrypt`]).
pub(crate) fn encrypt(data: &mut [u8], key: u32) {
    let mut seed1 = key;
    let mut seed2: u32 = 0xEEEE_EEEE;
    for word in data.chunks_exact_mut(4) {
        seed2 = seed2.wrapping_add(TABLE[0x400 + (seed1 & 0xFF) as usize]);
        let p = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        let c = p ^ seed1.wrapping_add(seed2);
        seed1 = ((!seed1) << 0x15).wrapping_add(0x1111_1111) | (seed1 >> 0x0B);
        seed2 = p
            .wrapping_add(seed2)
            .wrapping_add(seed2 << 5)
            .wrapping_add(3);
        word.copy_from_slice(&c.to_le_bytes());
    }
}

/// The key of a file: the hash of its plain name (after the last `\` or `/`), adjusted
/// by its block's offset and size when `fix_key` (block flag 0x00020000) is set.
pub(crate) fn file_key(name: &[u8], offset: u32, size: u32, fix_key: bool) -> u32 {
    let plain = match name.iter().rposition(|&b| b == b'\\' || b == b'/') {
        Some(i) => &name[i + 1..],
        None => name,
    };
    let key = hash_bytes(plain, HashKind::Key);
    if fix_key {
        key.wrapping_add(offset) ^ size
    } else {
        key
    }
}

/// Finds the key of an encrypted file whose name is unknown from its encrypted sector
/// offset table: its first word must decrypt to `first` (the table's own length) and its
/// second to a value in `(first, first + max_sector]`. Returns the key the table was
/// encrypted with (the file key minus one), or `None`.
pub(crate) fn key_from_known_word(
    enc0: u32,
    enc1: u32,
    first: u32,
    max_sector: u32,
) -> Option<u32> {
    for low in 0..=0xFFu32 {
        let seed2 = 0xEEEE_EEEEu32.wrapping_add(TABLE[0x400 + low as usize]);
        let key = (enc0 ^ first).wrapping_sub(seed2);
        if key & 0xFF != low {
            continue;
        }
        let mut buf = [0u8; 8];
        buf[..4].copy_from_slice(&enc0.to_le_bytes());
        buf[4..].copy_from_slice(&enc1.to_le_bytes());
        decrypt(&mut buf, key);
        let w0 = u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]);
        let w1 = u32::from_le_bytes([buf[4], buf[5], buf[6], buf[7]]);
        if w0 == first && w1 > first && w1 - first <= max_sector {
            return Some(key);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys of the two tables, as every MPQ reader knows them: `(hash table)` hashes to
    /// 0xC3AF3770 and `(block table)` to 0xEC83B3A3 (values published in the format's
    /// documentation and used by StormLib).
    #[test]
    fn table_keys() {
        assert_eq!(hash("(hash table)", HashKind::Key), 0xC3AF_3770);
        assert_eq!(hash("(block table)", HashKind::Key), 0xEC83_B3A3);
    }

    #[test]
    fn slashes_and_case_are_one_name() {
        for kind in [HashKind::Offset, HashKind::NameA, HashKind::NameB] {
            assert_eq!(
                hash("units\\human\\footman.mdx", kind),
                hash("Units/Human/Footman.MDX", kind)
            );
        }
    }

    #[test]
    fn encrypt_then_decrypt() {
        let plain: Vec<u8> = (0..103u32).map(|i| (i * 7) as u8).collect();
        let mut data = plain.clone();
        encrypt(&mut data, 0x1234_5678);
        assert_ne!(data[..100], plain[..100]);
        assert_eq!(data[100..], plain[100..], "the last 3 bytes stay plain");
        decrypt(&mut data, 0x1234_5678);
        assert_eq!(data, plain);
    }

    #[test]
    fn key_from_offset_table() {
        let key = file_key(b"war3mapImported\\hero.mdx", 0x400, 0x1000, true);
        let mut table = Vec::new();
        for w in [12u32, 12 + 300, 12 + 700] {
            table.extend_from_slice(&w.to_le_bytes());
        }
        encrypt(&mut table, key.wrapping_sub(1));
        let e0 = u32::from_le_bytes(table[0..4].try_into().unwrap());
        let e1 = u32::from_le_bytes(table[4..8].try_into().unwrap());
        assert_eq!(
            key_from_known_word(e0, e1, 12, 4096),
            Some(key.wrapping_sub(1))
        );
    }
}
