//! IMA ADPCM as Blizzard stores WAV sectors (mask 0x40 mono, 0x80 stereo); lossy, 16-bit
//! samples.
//!
//! The stream: a zero byte, the bit shift (compression level - 1), one initial 16-bit
//! little-endian sample per channel, then one byte per sample, channels alternating.
//! A byte is either a marker (0x80: repeat the channel's predicted sample and lower its
//! step index by one; 0x81: raise the step index by eight and stay on the same channel
//! for the next byte) or a code: bits 0..5 add halvings of the step size to the
//! difference, bit 6 is its sign.

use super::CodecError;

/// How the step index moves after a code (indexed by its low five bits).
const NEXT_STEP: [i8; 32] = [
    -1, 0, -1, 4, -1, 2, -1, 6, -1, 1, -1, 5, -1, 3, -1, 7, -1, 1, -1, 5, -1, 3, -1, 7, -1, 2, -1,
    4, -1, 6, -1, 8,
];

/// The IMA ADPCM step sizes.
const STEP_SIZE: [i32; 89] = [
    7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45, 50, 55, 60, 66,
    73, 80, 88, 97, 107, 118, 130, 143, 157, 173, 190, 209, 230, 253, 279, 307, 337, 371, 408, 449,
    494, 544, 598, 658, 724, 796, 876, 963, 1060, 1166, 1282, 1411, 1552, 1707, 1878, 2066, 2272,
    2499, 2749, 3024, 3327, 3660, 4026, 4428, 4871, 5358, 5894, 6484, 7132, 7845, 8630, 9493,
    10442, 11487, 12635, 13899, 15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794, 32767,
];

/// The step index every channel starts at.
const INITIAL_STEP: usize = 0x2C;
const MAX_STEP: usize = 88;

/// One channel's state.
#[derive(Clone, Copy)]
struct Channel {
    predicted: i32,
    step: usize,
}

/// Mono (mask 0x40).
pub(super) fn decompress_mono(data: &[u8], cap: usize) -> Result<Vec<u8>, CodecError> {
    decompress(data, cap, 1)
}

/// Stereo (mask 0x80).
pub(super) fn decompress_stereo(data: &[u8], cap: usize) -> Result<Vec<u8>, CodecError> {
    decompress(data, cap, 2)
}

/// Decodes until the input ends or `cap` bytes are written (what StormLib does: a short
/// result is the caller's length error).
fn decompress(data: &[u8], cap: usize, channels: usize) -> Result<Vec<u8>, CodecError> {
    let Some(&shift) = data.get(1) else {
        return Err(CodecError::corrupt("adpcm", "no header"));
    };
    let mut out = Vec::with_capacity(cap);
    let mut state = [Channel {
        predicted: 0,
        step: INITIAL_STEP,
    }; 2];
    let mut pos = 2;
    for ch in state.iter_mut().take(channels) {
        let Some(&[lo, hi]) = data.get(pos..pos + 2) else {
            return Ok(out);
        };
        pos += 2;
        ch.predicted = i32::from(i16::from_le_bytes([lo, hi]));
        if !push(&mut out, cap, ch.predicted) {
            return Ok(out);
        }
    }
    let mut index = channels - 1;
    for &code in &data[pos..] {
        index = (index + 1) % channels;
        let ch = &mut state[index];
        match code {
            0x80 => {
                ch.step = ch.step.saturating_sub(1);
                if !push(&mut out, cap, ch.predicted) {
                    break;
                }
            }
            0x81 => {
                ch.step = (ch.step + 8).min(MAX_STEP);
                // The next byte is for this channel again.
                index = (index + 1) % channels;
            }
            _ => {
                let step = STEP_SIZE[ch.step];
                ch.predicted = decode_sample(ch.predicted, code, step, shift);
                if !push(&mut out, cap, ch.predicted) {
                    break;
                }
                let next = ch.step as i32 + i32::from(NEXT_STEP[usize::from(code & 0x1F)]);
                ch.step = next.clamp(0, MAX_STEP as i32) as usize;
            }
        }
    }
    Ok(out)
}

/// The next predicted sample from a code byte.
fn decode_sample(predicted: i32, code: u8, step: i32, shift: u8) -> i32 {
    let mut diff = step.checked_shr(u32::from(shift)).unwrap_or(0);
    for bit in 0..6 {
        if code & (1 << bit) != 0 {
            diff += step >> bit;
        }
    }
    if code & 0x40 != 0 {
        (predicted - diff).max(-32768)
    } else {
        (predicted + diff).min(32767)
    }
}

/// Writes one sample if two bytes fit; false once the output is full.
fn push(out: &mut Vec<u8>, cap: usize, sample: i32) -> bool {
    if cap - out.len() < 2 {
        return false;
    }
    out.extend_from_slice(&(sample as i16).to_le_bytes());
    true
}
