//! PKWare Data Compression Library "explode" (mask 0x08, and the whole sector of files
//! stored with the IMPLODE flag).
//!
//! The stream: a literal mode byte (0 binary, 1 ASCII), the dictionary size as a bit
//! count (4, 5, 6: 1, 2, 4 KiB), then bits read from the low end of each byte. A 0 bit
//! is a literal (8 plain bits in binary mode, a fixed prefix code in ASCII mode); a 1 bit
//! is a repetition: a prefix-coded length (with extra bits), then a prefix-coded high
//! part of the distance and its low bits (2 of them for length 2, else as many as the
//! dictionary size says). The length code 519 ends the stream.
//!
//! As in the reference library, the reader always holds the 8 bits after those it has
//! taken: taking bits from the last byte of the input is running out, except for the
//! extra bits of the end mark.

use super::CodecError;

/// Code lengths of the 16 length symbols.
const LEN_BITS: [u8; 16] = [3, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 7, 7];
/// Their codes, as read (low bit first).
const LEN_CODES: [u8; 16] = [
    0x05, 0x03, 0x01, 0x06, 0x0A, 0x02, 0x0C, 0x14, 0x04, 0x18, 0x08, 0x30, 0x10, 0x20, 0x40, 0x00,
];
/// Extra bits after each length symbol.
const LEN_EXTRA: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];
/// The length (minus 2) each symbol starts at.
const LEN_BASE: [u16; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 14, 22, 38, 70, 134, 262];
/// The length value (minus 2) that ends the stream.
const END: u16 = 0x205;

/// Code lengths of the ASCII-mode literals.
const ASCII_BITS: [u8; 256] = [
    11, 12, 12, 12, 12, 12, 12, 12, 12, 8, 7, 12, 12, 7, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12,
    12, 12, 13, 12, 12, 12, 12, 12, 4, 10, 8, 12, 10, 12, 10, 8, 7, 7, 8, 9, 7, 6, 7, 8, 7, 6, 7,
    7, 7, 7, 8, 7, 7, 8, 8, 12, 11, 7, 9, 11, 12, 6, 7, 6, 6, 5, 7, 8, 8, 6, 11, 9, 6, 7, 6, 6, 7,
    11, 6, 6, 6, 7, 9, 8, 9, 9, 11, 8, 11, 9, 12, 8, 12, 5, 6, 6, 6, 5, 6, 6, 6, 5, 11, 7, 5, 6, 5,
    5, 6, 10, 5, 5, 5, 5, 8, 7, 8, 8, 10, 11, 11, 12, 12, 12, 13, 13, 13, 13, 13, 13, 13, 13, 13,
    13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13,
    13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 12, 12, 12, 12, 12, 12, 12, 12, 12,
    12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12,
    12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 13, 12, 13, 13, 13, 12, 13, 13, 13,
    12, 13, 13, 13, 13, 12, 13, 13, 13, 12, 12, 12, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13,
];
/// Their codes, as read (low bit first).
const ASCII_CODES: [u16; 256] = [
    0x0490, 0x0FE0, 0x07E0, 0x0BE0, 0x03E0, 0x0DE0, 0x05E0, 0x09E0, 0x01E0, 0x00B8, 0x0062, 0x0EE0,
    0x06E0, 0x0022, 0x0AE0, 0x02E0, 0x0CE0, 0x04E0, 0x08E0, 0x00E0, 0x0F60, 0x0760, 0x0B60, 0x0360,
    0x0D60, 0x0560, 0x1240, 0x0960, 0x0160, 0x0E60, 0x0660, 0x0A60, 0x000F, 0x0250, 0x0038, 0x0260,
    0x0050, 0x0C60, 0x0390, 0x00D8, 0x0042, 0x0002, 0x0058, 0x01B0, 0x007C, 0x0029, 0x003C, 0x0098,
    0x005C, 0x0009, 0x001C, 0x006C, 0x002C, 0x004C, 0x0018, 0x000C, 0x0074, 0x00E8, 0x0068, 0x0460,
    0x0090, 0x0034, 0x00B0, 0x0710, 0x0860, 0x0031, 0x0054, 0x0011, 0x0021, 0x0017, 0x0014, 0x00A8,
    0x0028, 0x0001, 0x0310, 0x0130, 0x003E, 0x0064, 0x001E, 0x002E, 0x0024, 0x0510, 0x000E, 0x0036,
    0x0016, 0x0044, 0x0030, 0x00C8, 0x01D0, 0x00D0, 0x0110, 0x0048, 0x0610, 0x0150, 0x0060, 0x0088,
    0x0FA0, 0x0007, 0x0026, 0x0006, 0x003A, 0x001B, 0x001A, 0x002A, 0x000A, 0x000B, 0x0210, 0x0004,
    0x0013, 0x0032, 0x0003, 0x001D, 0x0012, 0x0190, 0x000D, 0x0015, 0x0005, 0x0019, 0x0008, 0x0078,
    0x00F0, 0x0070, 0x0290, 0x0410, 0x0010, 0x07A0, 0x0BA0, 0x03A0, 0x0240, 0x1C40, 0x0C40, 0x1440,
    0x0440, 0x1840, 0x0840, 0x1040, 0x0040, 0x1F80, 0x0F80, 0x1780, 0x0780, 0x1B80, 0x0B80, 0x1380,
    0x0380, 0x1D80, 0x0D80, 0x1580, 0x0580, 0x1980, 0x0980, 0x1180, 0x0180, 0x1E80, 0x0E80, 0x1680,
    0x0680, 0x1A80, 0x0A80, 0x1280, 0x0280, 0x1C80, 0x0C80, 0x1480, 0x0480, 0x1880, 0x0880, 0x1080,
    0x0080, 0x1F00, 0x0F00, 0x1700, 0x0700, 0x1B00, 0x0B00, 0x1300, 0x0DA0, 0x05A0, 0x09A0, 0x01A0,
    0x0EA0, 0x06A0, 0x0AA0, 0x02A0, 0x0CA0, 0x04A0, 0x08A0, 0x00A0, 0x0F20, 0x0720, 0x0B20, 0x0320,
    0x0D20, 0x0520, 0x0920, 0x0120, 0x0E20, 0x0620, 0x0A20, 0x0220, 0x0C20, 0x0420, 0x0820, 0x0020,
    0x0FC0, 0x07C0, 0x0BC0, 0x03C0, 0x0DC0, 0x05C0, 0x09C0, 0x01C0, 0x0EC0, 0x06C0, 0x0AC0, 0x02C0,
    0x0CC0, 0x04C0, 0x08C0, 0x00C0, 0x0F40, 0x0740, 0x0B40, 0x0340, 0x0300, 0x0D40, 0x1D00, 0x0D00,
    0x1500, 0x0540, 0x0500, 0x1900, 0x0900, 0x0940, 0x1100, 0x0100, 0x1E00, 0x0E00, 0x0140, 0x1600,
    0x0600, 0x1A00, 0x0E40, 0x0640, 0x0A40, 0x0A00, 0x1200, 0x0200, 0x1C00, 0x0C00, 0x1400, 0x0400,
    0x1800, 0x0800, 0x1000, 0x0000,
];
/// Code lengths of the 64 high parts of a distance.
const DIST_BITS: [u8; 64] = [
    2, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
];
/// Their codes, as read.
const DIST_CODES: [u8; 64] = [
    0x03, 0x0D, 0x05, 0x19, 0x09, 0x11, 0x01, 0x3E, 0x1E, 0x2E, 0x0E, 0x36, 0x16, 0x26, 0x06, 0x3A,
    0x1A, 0x2A, 0x0A, 0x32, 0x12, 0x22, 0x42, 0x02, 0x7C, 0x3C, 0x5C, 0x1C, 0x6C, 0x2C, 0x4C, 0x0C,
    0x74, 0x34, 0x54, 0x14, 0x64, 0x24, 0x44, 0x04, 0x78, 0x38, 0x58, 0x18, 0x68, 0x28, 0x48, 0x08,
    0xF0, 0x70, 0xB0, 0x30, 0xD0, 0x50, 0x90, 0x10, 0xE0, 0x60, 0xA0, 0x20, 0xC0, 0x40, 0x80, 0x00,
];

/// Decoding table for a prefix code of at most `N`-bit codes: indexed by the next `N`
/// bits, the symbol and its code length.
const fn table<const N: usize>(bits: &[u8], codes: &[u16], width: u32) -> [(u8, u8); N] {
    let mut t = [(0u8, 0u8); N];
    let mut sym = 0;
    while sym < bits.len() {
        let step = 1usize << bits[sym];
        let mut i = codes[sym] as usize;
        while i < (1usize << width) {
            t[i] = (sym as u8, bits[sym]);
            i += step;
        }
        sym += 1;
    }
    t
}

const fn widen<const N: usize>(v: [u8; N]) -> [u16; N] {
    let mut w = [0u16; N];
    let mut i = 0;
    while i < N {
        w[i] = v[i] as u16;
        i += 1;
    }
    w
}

static LEN_TABLE: [(u8, u8); 256] = table(&LEN_BITS, &widen(LEN_CODES), 8);
static DIST_TABLE: [(u8, u8); 256] = table(&DIST_BITS, &widen(DIST_CODES), 8);
static ASCII_TABLE: [(u8, u8); 8192] = table(&ASCII_BITS, &ASCII_CODES, 13);

/// Bits read low first, with the reference library's rule on the last byte.
struct Bits<'a> {
    data: &'a [u8],
    /// Bits taken so far.
    pos: usize,
    /// Bits that may be taken (all but the last byte's).
    limit: usize,
}

/// Ran out of input.
struct OutOfBits;

impl Bits<'_> {
    /// The next `n` (at most 16) bits, zeros past the end, without taking them.
    fn peek(&self, n: u32) -> usize {
        let byte = self.pos / 8;
        let word = match self.data.get(byte..byte + 4) {
            Some(w) => u32::from_le_bytes([w[0], w[1], w[2], w[3]]),
            None => {
                let mut word = 0u32;
                for k in 0..3 {
                    word |= u32::from(self.data.get(byte + k).copied().unwrap_or(0)) << (8 * k);
                }
                word
            }
        };
        ((word >> (self.pos % 8)) & ((1 << n) - 1)) as usize
    }

    fn take(&mut self, n: u8) -> Result<(), OutOfBits> {
        if self.pos + usize::from(n) > self.limit {
            return Err(OutOfBits);
        }
        self.pos += usize::from(n);
        Ok(())
    }

    /// Peeks and takes `n` bits.
    fn read(&mut self, n: u8) -> Result<usize, OutOfBits> {
        let v = self.peek(u32::from(n));
        self.take(n)?;
        Ok(v)
    }
}

/// One decoded item.
enum Item {
    Literal(u8),
    /// Length (2..=518) and distance back (1..).
    Copy(usize, usize),
    End,
}

/// Decompresses until the end mark or until `cap` bytes are written.
pub(super) fn explode(data: &[u8], cap: usize) -> Result<Vec<u8>, CodecError> {
    let err = |why: String| CodecError::corrupt("pkware", why);
    if data.len() <= 4 {
        return Err(err(format!("{} bytes, too short", data.len())));
    }
    let ascii = match data[0] {
        0 => false,
        1 => true,
        m => return Err(err(format!("literal mode {m}"))),
    };
    let dict_bits = data[1];
    if !(4..=6).contains(&dict_bits) {
        return Err(err(format!("dictionary size of {dict_bits} bits")));
    }
    let body = &data[2..];
    let mut bits = Bits {
        data: body,
        pos: 0,
        limit: (body.len() - 1) * 8,
    };
    let mut out = Vec::with_capacity(cap);
    while out.len() < cap {
        let item = next(&mut bits, ascii, dict_bits).map_err(|OutOfBits| {
            err(format!(
                "stream ends after {} bytes, without its end mark",
                out.len()
            ))
        })?;
        match item {
            Item::End => break,
            Item::Literal(b) => out.push(b),
            Item::Copy(len, dist) => {
                if dist > out.len() {
                    return Err(err(format!(
                        "a copy from {dist} bytes back, after {} bytes",
                        out.len()
                    )));
                }
                let start = out.len() - dist;
                let len = len.min(cap - out.len());
                if dist >= len {
                    out.extend_from_within(start..start + len);
                } else {
                    // The copy overlaps what it writes: byte by byte.
                    for k in 0..len {
                        let b = out[start + k];
                        out.push(b);
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Decodes the next literal, copy or end mark.
fn next(bits: &mut Bits<'_>, ascii: bool, dict_bits: u8) -> Result<Item, OutOfBits> {
    if bits.read(1)? == 0 {
        let byte = if ascii {
            let (sym, n) = ASCII_TABLE[bits.peek(13)];
            bits.take(n)?;
            sym
        } else {
            bits.read(8)? as u8
        };
        return Ok(Item::Literal(byte));
    }
    let (sym, n) = LEN_TABLE[bits.peek(8)];
    bits.take(n)?;
    let sym = usize::from(sym);
    let extra_bits = LEN_EXTRA[sym];
    let extra = bits.peek(u32::from(extra_bits)) as u16;
    let len = LEN_BASE[sym] + extra;
    match bits.take(extra_bits) {
        _ if len == END => return Ok(Item::End),
        Err(e) => return Err(e),
        Ok(()) => {}
    }
    let len = usize::from(len) + 2;
    let (high, n) = DIST_TABLE[bits.peek(8)];
    bits.take(n)?;
    let low_bits = if len == 2 { 2 } else { dict_bits };
    let low = bits.read(low_bits)?;
    Ok(Item::Copy(len, ((usize::from(high) << low_bits) | low) + 1))
}
