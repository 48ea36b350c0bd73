//! x86_64: which instruction sets the CPU runs, the SSE2 instruction set (its byte
//! vector under the shared validator, [`super::simd`], which is its one kernel), and the
//! AVX2 scans of the document checker; AVX2 and AVX-512 each have a directory of their
//! own ([`avx2`], [`avx512`]) with one file per kernel.
//!
//! Every `unsafe` here is one of two things: calling a `#[target_feature]` function,
//! which is sound because the callers of the `unsafe fn`s here (the kernel table, and
//! `fast`'s `quiet_len` and `count_newlines`) have checked the CPU with
//! [`super::InstructionSet::is_available`]; or a SIMD load/store, whose bounds are
//! argued at the block.

// Every unsafe operation in an `unsafe fn` gets its own block and SAFETY argument too.
#![deny(unsafe_op_in_unsafe_fn)]

use super::kernel::Kernels;
use super::portable;
use super::simd;
use core::arch::x86_64::*;

// Before the modules that use it (a `macro_rules!` is in scope after its definition).
/// Implements [`ByteVector`] for a 128- or 256-bit vector type of SSE2 or AVX2, from
/// the width's intrinsics. Soundness (see [`super::simd`]): a value of the type exists
/// only after one of the `unsafe` constructors, whose contract is that the CPU runs the
/// instruction set, so every operation on a value may call its intrinsics.
macro_rules! byte_vector {
    ($name:ident, $isa:literal, $lanes:literal, $m:ty, $loadu:ident, $set1:ident,
     $setzero:ident, $subs:ident, $max:ident, $or:ident, $xor:ident, $and:ident,
     $cmpeq:ident, $cmpgt:ident, $movemask:ident, $full:literal) => {
        #[doc = concat!("A vector of ", $lanes, " bytes on ", $isa, ".")]
        #[derive(Clone, Copy)]
        pub(super) struct $name(pub(super) $m);

        impl $crate::corrected::fast::simd::ByteVector for $name {
            const LANES: usize = $lanes;
            const CONTEXT: usize = 5;
            type Mask = $name;

            #[inline(always)]
            unsafe fn load(p: *const u8) -> Self {
                // SAFETY: the caller's contract: the CPU, and the bytes.
                $name(unsafe { $loadu(p as *const $m) })
            }
            #[inline(always)]
            unsafe fn before(_: *const u8) -> Self {
                // SAFETY: the caller's contract: the CPU. (`back` reloads instead.)
                $name(unsafe { $setzero() })
            }
            #[inline(always)]
            unsafe fn back<const K: usize>(p: *const u8, _: Self, _: Self) -> Self {
                // SAFETY: the caller's contract: p − 5 .. p + LANES is readable, K <= 5.
                unsafe { Self::load(p.sub(K)) }
            }
            #[inline(always)]
            fn above(self, t: u8) -> Self {
                // SAFETY: `self` exists, so the CPU runs the instruction set.
                $name(unsafe { $subs(self.0, $set1(t as i8)) })
            }
            #[inline(always)]
            fn any3(a: Self, b: Self, c: Self) -> Self {
                // SAFETY: `a` exists, so the CPU runs the instruction set.
                $name(unsafe { $or($or(a.0, b.0), c.0) })
            }
            #[inline(always)]
            fn max(self, other: Self) -> Self {
                // SAFETY: `self` exists, so the CPU runs the instruction set.
                $name(unsafe { $max(self.0, other.0) })
            }
            #[inline(always)]
            fn or(self, other: Self) -> Self {
                // SAFETY: `self` exists, so the CPU runs the instruction set.
                $name(unsafe { $or(self.0, other.0) })
            }
            #[inline(always)]
            fn is_ascii(self) -> bool {
                // SAFETY: `self` exists, so the CPU runs the instruction set.
                unsafe { $movemask(self.0) == 0 }
            }
            #[inline(always)]
            fn zero(self) -> Self {
                // SAFETY: `self` exists, so the CPU runs the instruction set.
                $name(unsafe { $cmpeq(self.0, $setzero()) })
            }
            #[inline(always)]
            fn continuation(self) -> Self {
                // 80–BF are the signed bytes below −64.
                // SAFETY: `self` exists, so the CPU runs the instruction set.
                $name(unsafe { $cmpgt($set1(-64), self.0) })
            }
            #[inline(always)]
            fn below(self, t: u8) -> Self {
                // v − (t − 1), saturating, is 0 exactly where v < t (there is no
                // unsigned compare).
                self.above(t - 1).zero()
            }
            #[inline(always)]
            fn mask_xor(a: Self, b: Self) -> Self {
                // SAFETY: `a` exists, so the CPU runs the instruction set.
                $name(unsafe { $xor(a.0, b.0) })
            }
            #[inline(always)]
            fn mask_and(a: Self, b: Self) -> Self {
                // SAFETY: `a` exists, so the CPU runs the instruction set.
                $name(unsafe { $and(a.0, b.0) })
            }
            #[inline(always)]
            fn mask_is_full(m: Self) -> bool {
                // SAFETY: `m` exists, so the CPU runs the instruction set.
                unsafe { $movemask(m.0) == $full }
            }
        }
    };
}

/// A table on a cache line of its own start, so that no 16-byte row of it straddles two
/// lines: a split load is a few cycles later, and the AVX2 encoder's next store waits on
/// its rows (with a table at an address 2 modulo 16, CJK encoded about 4 % slower).
#[repr(align(64))]
pub(crate) struct CacheAligned<T>(pub(crate) T);

impl<T> core::ops::Deref for CacheAligned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

pub(super) mod avx2;
pub(super) mod avx512;

pub(super) use avx512::has_avx512;

/// Whether the CPU runs AVX2 and POPCNT (cached by `std`'s detection; every AVX2 CPU
/// has POPCNT, and the AVX2 kernels count lengths with it).
pub(super) fn has_avx2() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(all(target_feature = "avx2", target_feature = "popcnt"))
    }
}

byte_vector!(
    Sse2,
    "SSE2",
    16,
    __m128i,
    _mm_loadu_si128,
    _mm_set1_epi8,
    _mm_setzero_si128,
    _mm_subs_epu8,
    _mm_max_epu8,
    _mm_or_si128,
    _mm_xor_si128,
    _mm_and_si128,
    _mm_cmpeq_epi8,
    _mm_cmpgt_epi8,
    _mm_movemask_epi8,
    0xFFFF
);

/// SSE2: the shared validator; decoding, encoding and transcoding are the portable
/// code's (the one-pass portable decoder is faster than validating with SSE2 and then
/// decoding without vectors).
pub(super) const SSE2: Kernels = Kernels {
    validate,
    ..Kernels::NONE
};

/// The validate kernel.
///
/// # Safety
///
/// The CPU must have SSE2 (every x86_64 CPU does).
#[target_feature(enable = "sse2")]
unsafe fn validate(bytes: &[u8]) -> usize {
    // SAFETY: the caller's contract.
    unsafe { simd::validate::<Sse2>(bytes) }
}

/// [`portable::quiet_len`] compiled for AVX2, which LLVM vectorizes 32 bytes at a time.
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn quiet_len_avx2(bytes: &[u8]) -> usize {
    portable::quiet_len(bytes)
}

/// [`portable::count_newlines`] 32 bytes at a time: one compare, one move-mask and a
/// population count per block.
///
/// # Safety
///
/// The CPU must have AVX2 and POPCNT (the AVX2 level asks for both).
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn count_newlines_avx2(bytes: &[u8]) -> usize {
    let newline = _mm256_set1_epi8(b'\n' as i8);
    let mut blocks = bytes.chunks_exact(32);
    let mut total = 0;
    for block in &mut blocks {
        // SAFETY: `block` has 32 readable bytes; `loadu` takes any alignment.
        let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
        let mask = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, newline)) as u32;
        total += mask.count_ones() as usize;
    }
    total + portable::count_newlines(blocks.remainder())
}
