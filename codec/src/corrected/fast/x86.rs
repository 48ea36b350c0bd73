//! x86_64 SIMD: the SSE2 and AVX2 validators (and AVX2 UTF-8 validation for the
//! transcoder from UTF-8); the AVX2 decoder, encoder and transcoders are in [`avx2`],
//! everything AVX-512 in [`avx512`].
//!
//! Every `unsafe` here is one of two things: calling a `#[target_feature]` function,
//! which is sound because the entry points (`validate`, `decode_avx512`,
//! `encode_avx512`) are `unsafe fn`s whose callers must have checked the CPU
//! with [`super::InstructionSet::is_available`]; or a SIMD load/store, whose bounds are
//! argued at the block.

// Every unsafe operation in an `unsafe fn` gets its own block and SAFETY argument too.
#![deny(unsafe_op_in_unsafe_fn)]

use super::portable;
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

// Validation, 256 bytes per step.
//
// A byte must be a continuation (80–BF) exactly when a lead before it reaches it: the
// byte 1 back is C0–FF, or 2 back E0–FF, 3 back F0–FF, 4 back F8–FF, 5 back FC–FF.
// Rather than shifting bytes across vector lanes, each block loads the input again at
// 1, 2, … 5 bytes back (cheap unaligned loads) and tests each with one saturating
// subtraction: `subs(v1, BF) | subs(v2, DF) | …` is non-zero exactly where a byte is
// covered. Reserved bytes FE/FF are errors of their own.
//
// Text without bytes F8–FF needs only 3 bytes back, so the common step checks 256
// bytes that way and also tests that no F8–FF is among them or the 5 bytes before;
// when one is (or anything fails), the full check runs on the step's 64-byte blocks
// and finds the first block that fails. The loop over the steps is `validate_blocks!`
// (in the parent module, shared with aarch64).

/// Loads 16 bytes at `p − back`.
///
/// # Safety
///
/// The 16 bytes must be readable.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn load_sse2(p: *const u8, back: usize) -> __m128i {
    // SAFETY: the caller's contract.
    unsafe { _mm_loadu_si128(p.sub(back) as *const __m128i) }
}

/// 0xFF in each byte of the 16 at `p` that is right (continuation exactly where
/// covered, not reserved when `FULL`), looking back 5 bytes if `FULL`, else 3; and the
/// bytes themselves.
///
/// # Safety
///
/// `p − 5 .. p + 16` must be readable.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn good_sse2<const FULL: bool>(p: *const u8) -> (__m128i, __m128i) {
    let above = |v: __m128i, t: u8| _mm_subs_epu8(v, _mm_set1_epi8(t as i8));
    // SAFETY: the caller's contract: the bytes from p on are readable.
    let v0 = unsafe { load_sse2(p, 0) };
    // SAFETY: the caller's contract: the bytes from p − 3 on are readable (loads 1-3 back).
    let mut t = unsafe {
        _mm_max_epu8(
            _mm_max_epu8(above(load_sse2(p, 1), 0xBF), above(load_sse2(p, 2), 0xDF)),
            above(load_sse2(p, 3), 0xEF),
        )
    };
    if FULL {
        // SAFETY: the caller's contract: with `FULL`, the bytes from p − 5 on are readable.
        t = unsafe {
            _mm_max_epu8(
                t,
                _mm_max_epu8(above(load_sse2(p, 4), 0xF7), above(load_sse2(p, 5), 0xFB)),
            )
        };
    }
    let zero = _mm_setzero_si128();
    let not_covered = _mm_cmpeq_epi8(t, zero);
    // 80–BF are the signed bytes below −64.
    let cont = _mm_cmplt_epi8(v0, _mm_set1_epi8(-64));
    let mut good = _mm_xor_si128(not_covered, cont);
    if FULL {
        good = _mm_and_si128(good, _mm_cmpeq_epi8(above(v0, 0xFD), zero));
    }
    (good, v0)
}

/// # Safety
///
/// `p − 5 .. p + 64` must be readable.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn full_sse2(p: *const u8) -> bool {
    let mut all = _mm_set1_epi8(-1);
    for k in 0..4 {
        // SAFETY: within p − 5 .. p + 64.
        all = _mm_and_si128(all, unsafe { good_sse2::<true>(p.add(16 * k)) }.0);
    }
    _mm_movemask_epi8(all) == 0xFFFF
}

/// # Safety
///
/// `p − 5 .. p + 256` must be readable.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn full256_sse2(p: *const u8) -> bool {
    let mut all = _mm_set1_epi8(-1);
    for k in 0..16 {
        // SAFETY: within p − 5 .. p + 256.
        all = _mm_and_si128(all, unsafe { good_sse2::<true>(p.add(16 * k)) }.0);
    }
    _mm_movemask_epi8(all) == 0xFFFF
}

/// # Safety
///
/// `p − 5 .. p + 256` must be readable.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn quick_sse2(p: *const u8) -> bool {
    let mut all = _mm_set1_epi8(-1);
    // SAFETY: within p − 5 .. p + 256.
    let mut max = unsafe { load_sse2(p, 5) };
    for k in 0..16 {
        // SAFETY: within p − 5 .. p + 256.
        let (good, v0) = unsafe { good_sse2::<false>(p.add(16 * k)) };
        all = _mm_and_si128(all, good);
        max = _mm_max_epu8(max, v0);
    }
    let rare = _mm_subs_epu8(max, _mm_set1_epi8(0xF7u8 as i8));
    let all = _mm_and_si128(all, _mm_cmpeq_epi8(rare, _mm_setzero_si128()));
    _mm_movemask_epi8(all) == 0xFFFF
}

/// # Safety
///
/// `p` must be readable for 256 bytes.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn ascii256_sse2(p: *const u8) -> bool {
    let mut acc = _mm_setzero_si128();
    for k in 0..16 {
        // SAFETY: k * 16 + 16 <= 256 bytes, readable by the caller's contract.
        acc = _mm_or_si128(acc, unsafe { load_sse2(p.add(16 * k), 0) });
    }
    _mm_movemask_epi8(acc) == 0
}

/// # Safety
///
/// The CPU must have SSE2 (every x86_64 CPU does).
#[target_feature(enable = "sse2")]
unsafe fn validate_sse2(bytes: &[u8]) -> Result<(), usize> {
    validate_blocks!(bytes, 5, quick_sse2, full_sse2, full256_sse2, ascii256_sse2)
}

/// Loads 32 bytes at `p − back`.
///
/// # Safety
///
/// The 32 bytes must be readable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load_avx2(p: *const u8, back: usize) -> __m256i {
    // SAFETY: the caller's contract.
    unsafe { _mm256_loadu_si256(p.sub(back) as *const __m256i) }
}

/// [`good_sse2`] for the 32 bytes at `p`.
///
/// # Safety
///
/// `p − 5 .. p + 32` must be readable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn good_avx2<const FULL: bool>(p: *const u8) -> (__m256i, __m256i) {
    let above = |v: __m256i, t: u8| _mm256_subs_epu8(v, _mm256_set1_epi8(t as i8));
    // SAFETY: the caller's contract: the bytes from p on are readable.
    let v0 = unsafe { load_avx2(p, 0) };
    // SAFETY: the caller's contract: the bytes from p − 3 on are readable (loads 1-3 back).
    let mut t = unsafe {
        _mm256_max_epu8(
            _mm256_max_epu8(above(load_avx2(p, 1), 0xBF), above(load_avx2(p, 2), 0xDF)),
            above(load_avx2(p, 3), 0xEF),
        )
    };
    if FULL {
        // SAFETY: the caller's contract: with `FULL`, the bytes from p − 5 on are readable.
        t = unsafe {
            _mm256_max_epu8(
                t,
                _mm256_max_epu8(above(load_avx2(p, 4), 0xF7), above(load_avx2(p, 5), 0xFB)),
            )
        };
    }
    let zero = _mm256_setzero_si256();
    let not_covered = _mm256_cmpeq_epi8(t, zero);
    // 80–BF are the signed bytes below −64.
    let cont = _mm256_cmpgt_epi8(_mm256_set1_epi8(-64), v0);
    let mut good = _mm256_xor_si256(not_covered, cont);
    if FULL {
        good = _mm256_and_si256(good, _mm256_cmpeq_epi8(above(v0, 0xFD), zero));
    }
    (good, v0)
}

/// # Safety
///
/// `p − 5 .. p + 64` must be readable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn full_avx2(p: *const u8) -> bool {
    // SAFETY: within p − 5 .. p + 64.
    let (a, b) = unsafe { (good_avx2::<true>(p).0, good_avx2::<true>(p.add(32)).0) };
    _mm256_movemask_epi8(_mm256_and_si256(a, b)) == -1
}

/// # Safety
///
/// `p − 5 .. p + 256` must be readable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn full256_avx2(p: *const u8) -> bool {
    let mut all = _mm256_set1_epi8(-1);
    for k in 0..8 {
        // SAFETY: within p − 5 .. p + 256.
        all = _mm256_and_si256(all, unsafe { good_avx2::<true>(p.add(32 * k)) }.0);
    }
    _mm256_movemask_epi8(all) == -1
}

/// # Safety
///
/// `p − 5 .. p + 256` must be readable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn quick_avx2(p: *const u8) -> bool {
    let mut all = _mm256_set1_epi8(-1);
    // SAFETY: within p − 5 .. p + 256.
    let mut max = unsafe { load_avx2(p, 5) };
    for k in 0..8 {
        // SAFETY: within p − 5 .. p + 256.
        let (good, v0) = unsafe { good_avx2::<false>(p.add(32 * k)) };
        all = _mm256_and_si256(all, good);
        max = _mm256_max_epu8(max, v0);
    }
    let rare = _mm256_subs_epu8(max, _mm256_set1_epi8(0xF7u8 as i8));
    let all = _mm256_and_si256(all, _mm256_cmpeq_epi8(rare, _mm256_setzero_si256()));
    _mm256_movemask_epi8(all) == -1
}

/// # Safety
///
/// `p` must be readable for 256 bytes.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn ascii256_avx2(p: *const u8) -> bool {
    let mut acc = _mm256_setzero_si256();
    for k in 0..8 {
        // SAFETY: k * 32 + 32 <= 256 bytes, readable by the caller's contract.
        acc = _mm256_or_si256(acc, unsafe { load_avx2(p.add(32 * k), 0) });
    }
    _mm256_movemask_epi8(acc) == 0
}

/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
unsafe fn validate_avx2(bytes: &[u8]) -> Result<(), usize> {
    validate_blocks!(bytes, 5, quick_avx2, full_avx2, full256_avx2, ascii256_avx2)
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
        match (i - 3..i)
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
    // SAFETY: the caller's contract: p − 5 .. p + 33.
    let ((good, v), next) = unsafe { (good_avx2::<false>(p), _mm256_loadu_si256(p.add(1).cast())) };
    let is = |b: u8| _mm256_cmpeq_epi8(v, set(b));
    // `next` as a continuation, signed: 80 is −128, 90 −112, A0 −96, BF −65.
    let next_below = |b: u8| _mm256_cmpgt_epi8(set(b), next);
    let next_from = |b: u8| _mm256_cmpgt_epi8(next, set(b.wrapping_sub(1)));
    let overlong2 = _mm256_cmpeq_epi8(_mm256_and_si256(v, set(0xFE)), set(0xC0));
    let above = _mm256_cmpeq_epi8(_mm256_max_epu8(v, set(0xF5)), v);
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
        _mm256_or_si256(_mm256_or_si256(overlong2, above), pairs),
    )
}
