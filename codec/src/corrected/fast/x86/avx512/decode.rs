//! The AVX-512 decode kernel, validating as it goes.
//!
//! Per 64-byte block: the validity check of the validators (at 3 or 5 bytes back),
//! accumulated and tested once at the end. All ASCII is widened directly. Otherwise the
//! positions of the sequence starts are compressed into one vector (`vpcompressb`) and,
//! 16 at a time, each lead and the bytes after it (in this block or the next) are
//! gathered into a 32-bit lane (`vpermt2b`), the continuation bits packed with two
//! multiply-adds, and a shift, mask and offset looked up by the lead's count of leading
//! ones give the code point. Blocks of only 1- and 2-byte sequences go 32 at a time in
//! 16-bit lanes; blocks with a 5- or 6-byte lead gather two more bytes per lane. The
//! transcoders use [`decode16`] too.

use super::tables::{table, DUP, DUP2, IOTA, REV, REV2, REV_TAIL};
use super::vector::{self, bad_avx512};
use crate::corrected::fast::kernel::Decoded;
use crate::corrected::fast::restart_point;
use core::arch::x86_64::*;

/// The decode kernel: decodes `bytes` into `out`, validating as it goes, up to the last
/// 64 to 127 bytes or the room of the last 63 code points; when a block it decoded is
/// not valid, the validate kernel says from where.
///
/// # Safety
///
/// The CPU must have every feature of `has_avx512`.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn decode(bytes: &[u8], out: &mut [u32]) -> Decoded {
    // SAFETY: the caller's contract.
    let Some((block, written)) = (unsafe { decode_blocks(bytes, out) }) else {
        // SAFETY: the caller's contract.
        return Decoded::Invalid(unsafe { vector::validate(bytes) });
    };
    // Everything before `block` is valid and decoded, up to the end of the sequence
    // that runs into it, which the blocks did not check: the portable decoder finishes
    // from its lead, that sequence's code point (the last one written) included.
    let read = restart_point(bytes, block);
    Decoded::Upto {
        read,
        written: written - usize::from(read < block),
    }
}

/// Per lane, indexed by the number of leading one bits of the lead (0 for ASCII, else
/// the sequence length 2–6), for the value `w = b0 << 18 | c1 << 12 | c2 << 6 | c3`
/// of the whole lead byte `b0` and the 6-bit groups `c` of the bytes after it, and
/// `t = c4 << 6 | c5` of the next two:
/// `(w << SHL) >> SHR | t >> TAIL_SHR` is the raw value plus the lead's marker bits
/// (`110`, `1110`, … above it; those of a 6-byte lead are shifted out), and `ADJUST`
/// takes the marker off and adds the class's offset, in one addition (wrapping). The
/// 3-byte class's second offset is added apart.
static SHL: [u32; 16] = [0, 0, 0, 0, 0, 6, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0];
static SHR: [u32; 16] = [18, 0, 12, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
static TAIL_SHR: [u32; 16] = [32, 32, 32, 32, 32, 6, 0, 32, 32, 32, 32, 32, 32, 32, 32, 32];
static ADJUST: [u32; 16] = {
    // (marker bits in place, offset) by length.
    let classes: [(u32, u32); 7] = [
        (0, 0),
        (0, 0),
        (0xC0 << 6, 160),
        (0xE0 << 12, 2_208),
        (0xF0 << 18, 69_792),
        (0xF8 << 24, 2_166_944),
        (0, 69_275_808),
    ];
    let mut t = [0u32; 16];
    let mut n = 0;
    while n < classes.len() {
        t[n] = classes[n].1.wrapping_sub(classes[n].0);
        n += 1;
    }
    t
};

/// The code points of 16 sequences of up to 4 bytes (up to 6 if `LONG`) whose leads are
/// at the block positions in bytes `16g .. 16g + 16` of `positions`.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi")]
#[inline]
pub(super) fn decode16<const LONG: bool>(
    block: __m512i,
    next: __m512i,
    positions: __m512i,
    g: usize,
) -> __m512i {
    let set = _mm512_set1_epi32;
    let spread = _mm512_permutexvar_epi8(table(&DUP[g]), positions);
    // Indices 64–127 are bytes of the next block.
    let lanes = _mm512_permutex2var_epi8(block, _mm512_add_epi8(spread, table(&REV)), next);
    // Keep the lead whole and 6 bits of each byte after it, then pack: pairs of bytes
    // into 12 bits, pairs of those into 24 (the lead's top bits land above bit 21).
    let bits = _mm512_and_si512(lanes, set(0xFF3F_3F3Fu32 as i32));
    let w = _mm512_madd_epi16(
        _mm512_maddubs_epi16(bits, set(0x4001_4001)),
        set(0x1000_0001),
    );
    let ones = _mm512_lzcnt_epi32(_mm512_xor_si512(lanes, set(-1)));
    let look = |t: &'static [u32; 16]| _mm512_permutexvar_epi32(ones, table(t));
    let mut marked = _mm512_srlv_epi32(w, look(&SHR));
    if LONG {
        let tail = _mm512_permutex2var_epi8(block, _mm512_add_epi8(spread, table(&REV_TAIL)), next);
        let tail = _mm512_maddubs_epi16(_mm512_and_si512(tail, set(0x3F3F)), set(0x4001));
        marked = _mm512_or_si512(
            _mm512_srlv_epi32(_mm512_sllv_epi32(w, look(&SHL)), look(&SHR)),
            _mm512_srlv_epi32(tail, look(&TAIL_SHR)),
        );
    }
    let cp = _mm512_add_epi32(marked, look(&ADJUST));
    // 3-byte sequences from raw CF60 (code point D800) on skip the surrogates: 2048 more.
    let high3 =
        _mm512_mask_cmpge_epu32_mask(_mm512_cmpeq_epi32_mask(ones, set(3)), cp, set(0xD800));
    _mm512_mask_add_epi32(cp, high3, cp, set(2048))
}

/// [`decode16`] for the first 8 of the 16: the gathers on whole vectors, the
/// arithmetic on halves, which cost half as much.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vl")]
#[inline]
fn decode8<const LONG: bool>(
    block: __m512i,
    next: __m512i,
    positions: __m512i,
    g: usize,
) -> __m256i {
    let set = _mm256_set1_epi32;
    let spread = _mm512_permutexvar_epi8(table(&DUP[g]), positions);
    let lanes = _mm512_permutex2var_epi8(block, _mm512_add_epi8(spread, table(&REV)), next);
    let lanes = _mm512_castsi512_si256(lanes);
    let bits = _mm256_and_si256(lanes, set(0xFF3F_3F3Fu32 as i32));
    let w = _mm256_madd_epi16(
        _mm256_maddubs_epi16(bits, set(0x4001_4001)),
        set(0x1000_0001),
    );
    let ones = _mm256_lzcnt_epi32(_mm256_xor_si256(lanes, set(-1)));
    // The first 8 entries of each table (`ones` is at most 6 in valid input, and
    // only the low 3 bits are used).
    let look = |t: &'static [u32; 16]| {
        // SAFETY: the table is 64 bytes; this reads its first 32.
        _mm256_permutexvar_epi32(ones, unsafe {
            _mm256_loadu_si256(t.as_ptr() as *const __m256i)
        })
    };
    let mut marked = _mm256_srlv_epi32(w, look(&SHR));
    if LONG {
        let tail = _mm512_permutex2var_epi8(block, _mm512_add_epi8(spread, table(&REV_TAIL)), next);
        let tail = _mm256_and_si256(_mm512_castsi512_si256(tail), set(0x3F3F));
        let tail = _mm256_maddubs_epi16(tail, set(0x4001));
        marked = _mm256_or_si256(
            _mm256_srlv_epi32(_mm256_sllv_epi32(w, look(&SHL)), look(&SHR)),
            _mm256_srlv_epi32(tail, look(&TAIL_SHR)),
        );
    }
    let cp = _mm256_add_epi32(marked, look(&ADJUST));
    let high3 =
        _mm256_mask_cmpge_epu32_mask(_mm256_cmpeq_epi32_mask(ones, set(3)), cp, set(0xD800));
    _mm256_mask_add_epi32(cp, high3, cp, set(2048))
}

/// The code points of 32 sequences of 1 or 2 bytes whose leads are at the block
/// positions in bytes `32g .. 32g + 32` of `positions`, as 16-bit lanes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn decode32_short(block: __m512i, next: __m512i, positions: __m512i, g: usize) -> __m512i {
    let set = _mm512_set1_epi16;
    let spread = _mm512_permutexvar_epi8(table(&DUP2[g]), positions);
    let lanes = _mm512_permutex2var_epi8(block, _mm512_add_epi8(spread, table(&REV2)), next);
    let two = _mm512_cmpge_epu16_mask(lanes, set(0xC000u16 as i16));
    let one = _mm512_srli_epi16(lanes, 8);
    let bits = _mm512_and_si512(lanes, set(0x1F3F));
    let two_value = _mm512_add_epi16(_mm512_maddubs_epi16(bits, set(0x4001)), set(160));
    _mm512_mask_blend_epi16(two, one, two_value)
}

/// Decodes the `n` sequences whose leads are at `positions` into `dst`: 16 at a time,
/// and the last 8 or fewer (as in text of 3- and 4-byte sequences) at half cost.
///
/// # Safety
///
/// `dst` must be writable for 64 lanes; `n` ≤ 64.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vl")]
#[inline]
unsafe fn decode_groups<const LONG: bool>(
    block: __m512i,
    next: __m512i,
    positions: __m512i,
    n: usize,
    dst: *mut u32,
) {
    for g in 0..n / 16 {
        let cp = decode16::<LONG>(block, next, positions, g);
        // SAFETY: lanes 16g .. 16g + 16 ≤ 64 of `dst`.
        unsafe { _mm512_storeu_si512(dst.add(16 * g) as *mut __m512i, cp) };
    }
    let (g, rest) = (n / 16, n % 16);
    if rest > 8 {
        let cp = decode16::<LONG>(block, next, positions, g);
        // SAFETY: rest > 0, so g < 4: lanes 16g .. 16g + 16 ≤ 64 of `dst`.
        unsafe { _mm512_storeu_si512(dst.add(16 * g) as *mut __m512i, cp) };
    } else if rest > 0 {
        let cp = decode8::<LONG>(block, next, positions, g);
        // SAFETY: g < 4: lanes 16g .. 16g + 8 < 64 of `dst`.
        unsafe { _mm256_storeu_si256(dst.add(16 * g) as *mut __m256i, cp) };
    }
}

/// The blocks of [`decode`]: the block it stopped at and the output position, or `None`
/// if some block it decoded is not valid.
///
/// Per 64-byte block: the validity check of the validators (at 3 or 5 bytes back),
/// accumulated and tested once at the end. All ASCII is widened directly. Otherwise
/// the positions of the sequence starts are compressed into one vector
/// (`vpcompressb`) and, 16 at a time, each lead and the bytes after it (in this block
/// or the next) are gathered into a 32-bit lane (`vpermt2b`), the continuation bits
/// packed with two multiply-adds, and a shift, mask and offset looked up by the lead's
/// count of leading ones give the code point. Blocks of only 1- and 2-byte sequences
/// go 32 at a time in 16-bit lanes; blocks with a 5- or 6-byte lead gather two more
/// bytes per lane. Blocks are at fixed offsets, so no block waits for the one before.
///
/// # Safety
///
/// The CPU must have the features of `has_avx512`.
#[target_feature(
    enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,avx512vl,bmi1,bmi2,popcnt"
)]
unsafe fn decode_blocks(bytes: &[u8], out: &mut [u32]) -> Option<(usize, usize)> {
    let len = bytes.len();
    let (mut i, mut o) = (0usize, 0usize);
    let iota = table(&IOTA);
    // Wrong bytes found so far, and whether the previous block had a byte F8–FF (then
    // this block needs the check at 5 bytes back).
    let mut bad = 0u64;
    let mut previous_rare = false;
    // Whether the block before was ASCII (or there is none): then nothing is pending, and
    // an ASCII block is valid whatever follows.
    let mut previous_ascii = true;
    // Every block writes at most 64 lanes, and reads the next block (but an ASCII block
    // after an ASCII one); the portable decoder finishes.
    while i + 64 <= len && out.len() - o >= 64 {
        let p = bytes.as_ptr().wrapping_add(i);
        // SAFETY: i + 64 <= len.
        let block = unsafe { _mm512_loadu_si512(p as *const __m512i) };
        let ascii = _mm512_movepi8_mask(block) == 0;
        if ascii && previous_ascii {
            // Valid, and widened at once, 16 bytes loaded straight into each widening
            // (simdutf's one pass).
            let dst = out[o..o + 64].as_mut_ptr();
            for k in 0..4 {
                // SAFETY: the 16 bytes at p + 16k are in the block; the 16 lanes written
                // are out[o + 16k .. o + 16k + 16], inside out[o..o + 64].
                unsafe {
                    let sixteen = _mm_loadu_si128(p.add(16 * k) as *const __m128i);
                    _mm512_storeu_si512(
                        dst.add(16 * k) as *mut __m512i,
                        _mm512_cvtepu8_epi32(sixteen),
                    );
                }
            }
            (i, o) = (i + 64, o + 64);
            previous_rare = false;
            continue;
        }
        previous_ascii = ascii;
        if i + 128 > len {
            break;
        }
        // SAFETY: i + 128 <= len.
        let next = unsafe { _mm512_loadu_si512(p.add(64) as *const __m512i) };
        let at_least = |t: u8| _mm512_cmpge_epu8_mask(block, _mm512_set1_epi8(t as i8));
        let rare = at_least(0xF8) != 0;
        bad |= if i == 0 {
            // The first block, with 5 ASCII bytes of context in front.
            let mut first = [0u8; 5 + 64];
            first[5..].copy_from_slice(&bytes[..64]);
            // SAFETY: the block and its context are the 69 bytes of `first`.
            unsafe { bad_avx512::<true>(first.as_ptr().add(5)) }
        } else if rare || previous_rare {
            // SAFETY: i >= 64 > 5 and i + 64 <= len: p − 5 .. p + 64 is in `bytes`.
            unsafe { bad_avx512::<true>(p) }
        } else {
            // SAFETY: as above.
            unsafe { bad_avx512::<false>(p) }
        };
        previous_rare = rare;
        let dst = out[o..o + 64].as_mut_ptr();
        i += 64;
        if ascii {
            for k in 0..4 {
                // SAFETY: the 16 lanes written are out[o + 16k .. o + 16k + 16], inside
                // out[o..o + 64].
                unsafe {
                    let ascii = match k {
                        0 => _mm512_castsi512_si128(block),
                        1 => _mm512_extracti32x4_epi32::<1>(block),
                        2 => _mm512_extracti32x4_epi32::<2>(block),
                        _ => _mm512_extracti32x4_epi32::<3>(block),
                    };
                    _mm512_storeu_si512(
                        dst.add(16 * k) as *mut __m512i,
                        _mm512_cvtepu8_epi32(ascii),
                    );
                }
            }
            o += 64;
            continue;
        }
        // Not 80–BF (signed < −64): where a sequence starts. (In invalid input the
        // lanes may hold anything; every index stays within the two blocks and every
        // store within out[o..o + 64].)
        let leads = !_mm512_cmplt_epi8_mask(block, _mm512_set1_epi8(-64));
        let n = leads.count_ones() as usize;
        let positions = _mm512_maskz_compress_epi8(leads, iota);
        if at_least(0xE0) == 0 {
            // Only 1- and 2-byte sequences: 32 at a time.
            for g in 0..n.div_ceil(32) {
                let short = decode32_short(block, next, positions, g);
                // SAFETY: lanes o + 32g .. o + 32g + 32 are inside out[o..o + 64] (g < 2).
                unsafe {
                    let lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(short));
                    let hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(short));
                    _mm512_storeu_si512(dst.add(32 * g) as *mut __m512i, lo);
                    _mm512_storeu_si512(dst.add(32 * g + 16) as *mut __m512i, hi);
                }
            }
        } else if !rare {
            // SAFETY: `dst` is out[o..o + 64]; n ≤ 64.
            unsafe { decode_groups::<false>(block, next, positions, n, dst) };
        } else {
            // SAFETY: as above.
            unsafe { decode_groups::<true>(block, next, positions, n, dst) };
        }
        o += n;
    }
    (bad == 0).then_some((i, o))
}
