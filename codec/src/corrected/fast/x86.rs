//! x86_64 SIMD: the SSE2 and AVX2 vectors under the shared validator
//! ([`super::simd`]), and AVX2 UTF-8 validation for the transcoder from UTF-8; the AVX2
//! decoder, encoder and transcoders are in [`avx2`], everything AVX-512 in [`avx512`].
//!
//! Every `unsafe` here is one of two things: calling a `#[target_feature]` function,
//! which is sound because the entry points (`validate`, `decode_avx512`,
//! `encode_avx512`) are `unsafe fn`s whose callers must have checked the CPU
//! with [`super::InstructionSet::is_available`]; or a SIMD load/store, whose bounds are
//! argued at the block.

// Every unsafe operation in an `unsafe fn` gets its own block and SAFETY argument too.
#![deny(unsafe_op_in_unsafe_fn)]

use super::portable;
use super::simd::{self, ByteVector};
use super::InstructionSet;
use core::arch::x86_64::*;

mod avx2;
pub(super) use avx2::decode_valid as decode_valid_avx2;
#[cfg(feature = "alloc")]
pub(super) use avx2::encode as encode_avx2;
#[cfg(feature = "alloc")]
pub(super) use avx2::{
    corrected_to_utf8_valid as corrected_to_utf8_valid_avx2,
    utf8_to_corrected_valid as utf8_to_corrected_valid_avx2,
};

mod avx512;
#[cfg(feature = "alloc")]
pub(super) use avx512::encode_avx512;
#[cfg(feature = "alloc")]
pub(super) use avx512::{
    corrected_to_utf8_avx512, corrected_to_utf8_valid_avx512, utf8_to_corrected_avx512,
    utf8_to_corrected_valid_avx512,
};
pub(super) use avx512::{decode_avx512, has_avx512};

/// Whether the CPU runs AVX2 (cached by `std`'s detection).
pub(super) fn has_avx2() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "avx2")
    }
}

/// Validates with `instruction_set`: `Ok`, or a sequence boundary to restart the careful
/// decoder from.
///
/// # Safety
///
/// The CPU must run `instruction_set`: the caller has checked
/// [`InstructionSet::is_available`] for it.
pub(super) unsafe fn validate(instruction_set: InstructionSet, bytes: &[u8]) -> Result<(), usize> {
    debug_assert!(instruction_set.is_available());
    match instruction_set {
        // SAFETY: every x86_64 CPU has SSE2.
        InstructionSet::Sse2 => unsafe { validate_sse2(bytes) },
        // SAFETY: the caller checked `is_available`, i.e. that the CPU has AVX2.
        InstructionSet::Avx2 => unsafe { validate_avx2(bytes) },
        // SAFETY: the caller checked `is_available`, i.e. every feature of `has_avx512`.
        InstructionSet::Avx512 => unsafe { avx512::validate(bytes) },
        // Portable; another architecture's is never available here.
        _ => portable::validate(bytes),
    }
}

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
        pub(super) struct $name($m);

        impl ByteVector for $name {
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
byte_vector!(
    Avx2,
    "AVX2",
    32,
    __m256i,
    _mm256_loadu_si256,
    _mm256_set1_epi8,
    _mm256_setzero_si256,
    _mm256_subs_epu8,
    _mm256_max_epu8,
    _mm256_or_si256,
    _mm256_xor_si256,
    _mm256_and_si256,
    _mm256_cmpeq_epi8,
    _mm256_cmpgt_epi8,
    _mm256_movemask_epi8,
    -1
);

/// # Safety
///
/// The CPU must have SSE2 (every x86_64 CPU does).
#[target_feature(enable = "sse2")]
unsafe fn validate_sse2(bytes: &[u8]) -> Result<(), usize> {
    // SAFETY: the caller's contract.
    unsafe { simd::validate::<Sse2>(bytes) }
}

/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
unsafe fn validate_avx2(bytes: &[u8]) -> Result<(), usize> {
    // SAFETY: the caller's contract.
    unsafe { simd::validate::<Avx2>(bytes) }
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
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
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

/// Whether `bytes` are valid UTF-8, 32 bytes a step: the validators' structural check
/// (3 bytes back: a continuation exactly where a lead covers it), then the values by
/// each lead and the byte after it (Table 3-7 of the Unicode Standard: no lead `C0`,
/// `C1`, `F5–FF`; after `E0` at least `A0`, after `ED` at most `9F` (no surrogates),
/// after `F0` at least `90`, after `F4` at most `8F`). The last 64 bytes or fewer, from
/// the last sequence start before them, are `core::str::from_utf8`'s.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn utf8_is_valid_avx2(bytes: &[u8]) -> bool {
    let len = bytes.len();
    let mut i = 0;
    let mut bad = _mm256_setzero_si256();
    if len >= 64 {
        // The first block, with 5 bytes of context in front.
        let mut first = [0u8; 5 + 33];
        first[5..].copy_from_slice(&bytes[..33]);
        // SAFETY: first + 5 − 5 .. first + 5 + 33 is the array.
        bad = unsafe { utf8_bad_avx2(first.as_ptr().add(5)) };
        i = 32;
        while i + 64 <= len {
            // SAFETY: i ≥ 32 > 5 and i + 33 <= len: p − 5 .. p + 33 is in `bytes`.
            bad = _mm256_or_si256(bad, unsafe { utf8_bad_avx2(bytes.as_ptr().add(i)) });
            i += 32;
        }
    }
    if _mm256_testz_si256(bad, bad) == 0 {
        return false;
    }
    // From the start of the sequence that holds byte i − 1: the blocks checked that every
    // byte before `i` is a continuation exactly where a lead covers it, not that the
    // sequences they start are whole.
    let start = if i == 0 {
        0
    } else {
        // A sequence is at most 4 bytes: its lead is at most 3 before its last byte.
        match (i - 4..i)
            .rev()
            .find(|&p| !super::is_continuation(bytes[p]))
        {
            Some(p) => p,
            None => return false,
        }
    };
    core::str::from_utf8(&bytes[start..]).is_ok()
}

/// Non-zero in each byte of the 32 at `p` that breaks UTF-8 as [`utf8_is_valid_avx2`]
/// says.
///
/// # Safety
///
/// `p − 5 .. p + 33` must be readable.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn utf8_bad_avx2(p: *const u8) -> __m256i {
    let set = |b: u8| _mm256_set1_epi8(b as i8);
    // SAFETY: p − 5 .. p + 33 is readable by the caller's contract, and so are the 32
    // bytes at p and at p + 1.
    let (v, next) = unsafe { (Avx2::load(p), _mm256_loadu_si256(p.add(1).cast())) };
    // The shared validator's check, 3 bytes back (a lead F8–FF is not valid UTF-8,
    // found below): good where covered exactly at continuations.
    // SAFETY: as above; the CPU has AVX2 (this function's contract).
    let good = unsafe { simd::right_lanes::<Avx2, false>(p, Avx2::before(p), v) }.0;
    let v = v.0;
    let is = |b: u8| _mm256_cmpeq_epi8(v, set(b));
    // `next` as a continuation, signed: 80 is −128, 90 −112, A0 −96, BF −65.
    let next_below = |b: u8| _mm256_cmpgt_epi8(set(b), next);
    let next_from = |b: u8| _mm256_cmpgt_epi8(next, set(b.wrapping_sub(1)));
    let overlong2 = _mm256_cmpeq_epi8(_mm256_and_si256(v, set(0xFE)), set(0xC0));
    let too_big = _mm256_cmpeq_epi8(_mm256_max_epu8(v, set(0xF5)), v);
    let pairs = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_and_si256(is(0xE0), next_below(0xA0)),
            _mm256_and_si256(is(0xED), next_from(0xA0)),
        ),
        _mm256_or_si256(
            _mm256_and_si256(is(0xF0), next_below(0x90)),
            _mm256_and_si256(is(0xF4), next_from(0x90)),
        ),
    );
    _mm256_or_si256(
        _mm256_andnot_si256(good, set(0xFF)),
        _mm256_or_si256(_mm256_or_si256(overlong2, too_big), pairs),
    )
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;

    /// Valid text is valid for the vector check whatever sequence its last checked block
    /// ends in: otherwise every such input is validated twice (the caller falls back to
    /// std on `false`), a hidden slowdown no result shows.
    #[test]
    fn the_avx2_utf8_check_accepts_valid_text_at_every_block_boundary() {
        if !has_avx2() {
            return;
        }
        for text in ["é", "大", "🦀", "a🦀大é"] {
            for prefix in 0..4 {
                let mut bytes = "x".repeat(prefix).into_bytes();
                while bytes.len() < 300 {
                    bytes.extend_from_slice(text.as_bytes());
                    // SAFETY: the CPU has AVX2 (checked above).
                    let valid = unsafe { utf8_is_valid_avx2(&bytes) };
                    assert!(valid, "{text:?} × {} after {prefix} ASCII", bytes.len());
                }
            }
        }
    }
}
