//! Small random sources that give the same numbers on every machine, so that a failure
//! reproduces: no test depends on a crate's generator, whose sequence may change with its
//! version. Each is the generator the tests that use it always had; their seeds and the
//! way they turn bits into numbers are theirs too, so every sequence is as it was.

use glam::Vec3;

/// Knuth's MMIX linear congruential generator: one multiply and add a number.
#[derive(Clone, Debug)]
pub struct Lcg(pub u64);

impl Lcg {
    /// The next state, all 64 bits (the high ones are the random ones).
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0
    }

    /// Uniform in `0..1`, from the top 24 bits of the next state.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Marsaglia's xorshift64 (13, 7, 17; "Xorshift RNGs", 2003). Its state is its output;
/// a zero seed stays zero.
#[derive(Clone, Debug)]
pub struct Xorshift64(pub u64);

impl Xorshift64 {
    /// The next state.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `0..1`, from the top 24 bits of the next state.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `0..1`, from the top 53 bits of the next state (rounded to an `f32`:
    /// 1.0 itself may come of it).
    pub fn unit_fine(&mut self) -> f32 {
        (self.next_u64() >> 11) as f32 / (1u64 << 53) as f32
    }
}

/// Marsaglia's 32-bit xorshift (13, 17, 5). Its state is its output; a zero seed stays
/// zero.
#[derive(Clone, Debug)]
pub struct Xorshift32(pub u32);

impl Xorshift32 {
    /// The next state.
    pub fn next_u32(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
}

/// xorshift64* (Vigna 2016): xorshift64 (12, 25, 27) with its output scrambled by a
/// multiply, for numbers whose low bits are random too.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..1`.
    pub fn f(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `lo..hi`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.f()
    }

    /// Uniform in the cube of half size `s` about the origin.
    pub fn v(&mut self, s: f32) -> Vec3 {
        Vec3::new(
            self.f() * 2.0 - 1.0,
            self.f() * 2.0 - 1.0,
            self.f() * 2.0 - 1.0,
        ) * s
    }
}
