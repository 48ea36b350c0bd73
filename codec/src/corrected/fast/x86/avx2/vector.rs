//! The AVX2 byte vector under the shared validator ([`simd`]), which is the validate
//! kernel, and the loading of a 32-byte table the other kernels look values up in.

use crate::corrected::fast::simd;
use core::arch::x86_64::*;

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

/// The validate kernel: `bytes.len()`, or a sequence boundary before which `bytes` are
/// valid and after which the first error lies.
///
/// # Safety
///
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn validate(bytes: &[u8]) -> usize {
    // SAFETY: the caller's contract.
    unsafe { simd::validate::<Avx2>(bytes) }
}

/// Loads a 32-byte table.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn table8(t: &'static [u32; 8]) -> __m256i {
    // SAFETY: `t` is a valid reference to 32 bytes; `loadu` takes any alignment.
    unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
}
