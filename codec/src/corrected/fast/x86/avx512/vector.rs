//! The AVX-512 byte vector under the shared validator ([`simd`]), which is the validate
//! kernel, and its check of one block for the decoder and the transcoders.

use crate::corrected::fast::simd::{self, ByteVector};
use core::arch::x86_64::*;

/// A vector of 64 bytes on AVX-512 (F and BW), for the shared validator
/// ([`simd`]); its flags are bit masks. Soundness as there: a value exists only after an
/// `unsafe` constructor whose contract is that the CPU runs AVX-512.
#[derive(Clone, Copy)]
pub(super) struct Avx512(__m512i);

impl ByteVector for Avx512 {
    const LANES: usize = 64;
    const CONTEXT: usize = 5;
    type Mask = u64;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the caller's contract: the CPU, and the bytes.
        Avx512(unsafe { _mm512_loadu_si512(p as *const __m512i) })
    }
    #[inline(always)]
    unsafe fn before(_: *const u8) -> Self {
        // SAFETY: the caller's contract: the CPU. (`back` reloads instead.)
        Avx512(unsafe { _mm512_setzero_si512() })
    }
    #[inline(always)]
    unsafe fn back<const K: usize>(p: *const u8, _: Self, _: Self) -> Self {
        // SAFETY: the caller's contract: p − 5 .. p + 64 is readable, K <= 5.
        unsafe { Self::load(p.sub(K)) }
    }
    #[inline(always)]
    fn above(self, t: u8) -> Self {
        // SAFETY: `self` exists, so the CPU runs AVX-512.
        Avx512(unsafe { _mm512_subs_epu8(self.0, _mm512_set1_epi8(t as i8)) })
    }
    #[inline(always)]
    fn any3(a: Self, b: Self, c: Self) -> Self {
        // One three-way OR (`vpternlogd`).
        // SAFETY: `a` exists, so the CPU runs AVX-512.
        Avx512(unsafe { _mm512_ternarylogic_epi32::<0xFE>(a.0, b.0, c.0) })
    }
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        // SAFETY: `self` exists, so the CPU runs AVX-512.
        Avx512(unsafe { _mm512_max_epu8(self.0, other.0) })
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: `self` exists, so the CPU runs AVX-512.
        Avx512(unsafe { _mm512_or_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn is_ascii(self) -> bool {
        // SAFETY: `self` exists, so the CPU runs AVX-512.
        unsafe { _mm512_movepi8_mask(self.0) == 0 }
    }
    #[inline(always)]
    fn zero(self) -> u64 {
        // SAFETY: `self` exists, so the CPU runs AVX-512.
        unsafe { _mm512_testn_epi8_mask(self.0, self.0) }
    }
    #[inline(always)]
    fn continuation(self) -> u64 {
        // 80–BF are the signed bytes below −64.
        // SAFETY: `self` exists, so the CPU runs AVX-512.
        unsafe { _mm512_cmplt_epi8_mask(self.0, _mm512_set1_epi8(-64)) }
    }
    #[inline(always)]
    fn below(self, t: u8) -> u64 {
        // SAFETY: `self` exists, so the CPU runs AVX-512.
        unsafe { _mm512_cmplt_epu8_mask(self.0, _mm512_set1_epi8(t as i8)) }
    }
    #[inline(always)]
    fn mask_xor(a: u64, b: u64) -> u64 {
        a ^ b
    }
    #[inline(always)]
    fn mask_and(a: u64, b: u64) -> u64 {
        a & b
    }
    #[inline(always)]
    fn mask_is_full(m: u64) -> bool {
        m == !0
    }
}

/// The bits of the 64 bytes at `p` that are wrong (a continuation where not covered or
/// the reverse, or reserved if `FULL`), looking back 5 bytes if `FULL`, else 3: the
/// shared validator's check (its right lanes, inverted), for the decoder and the
/// transcoders.
///
/// # Safety
///
/// The CPU must have AVX-512 F and BW, and `p − 5 .. p + 64` must be readable.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) unsafe fn bad_avx512<const FULL: bool>(p: *const u8) -> u64 {
    // SAFETY: the caller's contract: the CPU, and the bytes from p − 5 on.
    unsafe {
        let cur = Avx512::load(p);
        !simd::right_lanes::<Avx512, FULL>(p, Avx512::before(p), cur)
    }
}

/// The validate kernel: `bytes.len()`, or a sequence boundary before which `bytes` are
/// valid and after which the first error lies.
///
/// # Safety
///
/// The CPU must have AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn validate(bytes: &[u8]) -> usize {
    // SAFETY: the caller's contract.
    unsafe { simd::validate::<Avx512>(bytes) }
}
