//! A small seeded random number generator (SplitMix64), so that a simulation draws the same
//! numbers on every machine and every run.

/// SplitMix64: a 64-bit counter passed through a mixing function. Fast, no state beyond one
/// word, and good enough for scattering particles.
#[derive(Clone, Debug)]
pub(crate) struct Rng {
    state: u64,
}

impl Rng {
    /// A generator for emitter `index` of kind `kind` (so that two emitters never share a
    /// stream).
    pub(crate) fn new(kind: u64, index: u64) -> Rng {
        Rng {
            state: kind
                .wrapping_mul(0xD1B5_4A32_D192_ED03)
                .wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
                ^ 0x6A09_E667_F3BC_C908,
        }
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f32 {
        // 24 bits: every value is exactly representable as an f32 below 1.
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn streams_repeat_and_differ_by_emitter() {
        let draw = |i| {
            let mut r = Rng::new(2, i);
            (0..8).map(|_| r.next_u64()).collect::<Vec<_>>()
        };
        assert_eq!(draw(0), draw(0));
        assert_ne!(draw(0), draw(1));
    }

    #[test]
    fn units_stay_in_range_and_spread_out() {
        let mut r = Rng::new(1, 7);
        let xs: Vec<f32> = (0..10_000).map(|_| r.unit()).collect();
        assert!(xs.iter().all(|&x| (0.0..1.0).contains(&x)));
        // Mean of a uniform variable is 1/2; 10,000 draws put it within 0.02 of that.
        let mean = xs.iter().sum::<f32>() / xs.len() as f32;
        assert!((mean - 0.5).abs() < 0.02, "mean {mean}");
        // Each tenth of the range gets about a tenth of the draws.
        for d in 0..10 {
            let n = xs.iter().filter(|&&x| (x * 10.0) as i32 == d).count();
            assert!((800..1200).contains(&n), "decile {d}: {n}");
        }
    }
}
