//! [`Bitboard`]: the word a position keeps its bitboards in (u64, or u128 past 64 bits).

use std::fmt;

/// The word a [`Connect4`](super::Connect4) position keeps its bitboards in: `u64` for boards with
/// `(height + 1) * width <= 64` (every board up to 7x7, 8x6, 9x5, 10x5, …), `u128` past it
/// (10x6, 9x7, 8x8, 7x9, …, up to 128 bits). The same code serves both (monomorphised: the u64
/// boards pay nothing for the wider ones).
pub trait Bitboard:
    Copy
    + Eq
    + Ord
    + std::hash::Hash
    + Default
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::BitAndAssign
    + std::ops::BitOrAssign
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + sealed::Sealed
{
    /// Bits in the word.
    const BITS: u32;
    /// No bit.
    const ZERO: Self;
    /// Bit 0.
    const ONE: Self;
    /// Every even bit (`0x5555…`).
    const EVEN: Self;
    /// Set bits.
    fn count_ones(self) -> u32;
    /// The lowest set bit's index (`BITS` for none).
    fn trailing_zeros(self) -> u32;
    /// `-x` modulo the word.
    fn wrapping_neg(self) -> Self;
    /// `x + y` modulo the word.
    fn wrapping_add(self, y: Self) -> Self;
    /// `x << s`, or none when `s >= BITS`.
    fn checked_shl(self, s: u32) -> Option<Self>;
    /// `x >> s`, or none when `s >= BITS`.
    fn checked_shr(self, s: u32) -> Option<Self>;
    /// The word folded to 64 bits (the identity on `u64`), for hashing.
    fn fold64(self) -> u64;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u64 {}
    impl Sealed for u128 {}
}

macro_rules! bitboard {
    ($t:ty, $fold:expr) => {
        impl Bitboard for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const EVEN: Self = <$t>::MAX / 3;
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }
            #[inline(always)]
            fn wrapping_add(self, y: Self) -> Self {
                <$t>::wrapping_add(self, y)
            }
            #[inline(always)]
            fn checked_shl(self, s: u32) -> Option<Self> {
                <$t>::checked_shl(self, s)
            }
            #[inline(always)]
            fn checked_shr(self, s: u32) -> Option<Self> {
                <$t>::checked_shr(self, s)
            }
            #[inline(always)]
            fn fold64(self) -> u64 {
                $fold(self)
            }
        }
    };
}
bitboard!(u64, |x: u64| x);
// The high half multiplied by an odd constant (a bijection) before the halves meet, so that
// positions differing only in the high half do not cancel out.
bitboard!(u128, |x: u128| (x as u64)
    ^ ((x >> 64) as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F));
