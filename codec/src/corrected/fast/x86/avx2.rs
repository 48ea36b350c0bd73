//! AVX2 decoding (of input the validator has accepted) and encoding; the transcoders,
//! which share the decoder's gather table and the encoder's packing table, are in
//! [`transcode`].
//!
//! **Decoding**, per step at a sequence boundary `i`, on the 32 bytes from there:
//! ASCII (32 or 16 bytes) is widened directly; 16 two-byte sequences or 8 three- or
//! four-byte ones (Latin, CJK, emoji runs) have fixed layouts and are decoded with
//! multiply-adds; 16 bytes of 1- and 2-byte sequences are decoded at every byte in 16-bit
//! lanes, then the leads' lanes packed by a `pshufb` from a table. Otherwise the leads
//! among the first 16 bytes are taken 8 at a time, and a table indexed by the 8-bit mask
//! of leads gives the `pshufb` that gathers each sequence's bytes into a 32-bit lane (the
//! lead on top). Two multiply-adds pack the 6-bit groups, and a shift and an offset
//! looked up by the lead's top 4 bits give the code point. When a lead of 5 or 6 bytes
//! is among them, a second `pshufb` gathers the last 2 bytes of each sequence and the
//! length is counted with compares.
//!
//! **Encoding**, 16 code points at a time while they are below U+10000: ASCII is packed
//! directly (and runs of it 32 at a time); 1- and 2-byte code points are encoded in
//! 16-bit lanes and packed by a `pshufb` from a table per 8; 1- to 3-byte ones (CJK) are
//! encoded in 16-bit lanes as in simdutf's UTF-16 → UTF-8 (on the raw value, which the
//! 3-byte rows keep within 16 bits) and packed by a `pshufb` from a table per 4.
//! Otherwise 8 at a time: each code point's class (by compares) gives its row offset,
//! its bytes are built in a 32-bit lane, and a table indexed by the four lengths of each
//! 128-bit half gives the `pshufb` that packs them. Blocks with a code point of 5 or 6
//! bytes are encoded 4 at a time in 64-bit lanes; those with a code point that has no
//! encoding go to the scalar loop, which finds the exact error. The output is written
//! with a cursor of its own into room reserved per chunk of 256 code points.

use super::super::portable;
#[cfg(feature = "alloc")]
use crate::corrected;
#[cfg(feature = "alloc")]
use crate::error::EncodeError;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::arch::x86_64::*;

#[cfg(feature = "alloc")]
mod transcode;
#[cfg(feature = "alloc")]
pub(in crate::corrected::fast) use transcode::{corrected_to_utf8_valid, utf8_to_corrected_valid};

/// `GATHER[m][h]`: for the leads of an 8-byte stretch (bit p of `m`: a lead at byte p),
/// the `pshufb` control that puts leads 4h to 4h + 3 and the 3 bytes after each into
/// 32-bit lanes, the lead in the top byte; lanes past the last lead are zero.
static GATHER: [[[u8; 16]; 2]; 256] = {
    let mut t = [[[0x80u8; 16]; 2]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut k, mut p) = (0, 0);
        while p < 8 {
            if m >> p & 1 != 0 {
                let mut b = 0;
                while b < 4 {
                    t[m][k / 4][4 * (k % 4) + b] = (p + 3 - b) as u8;
                    b += 1;
                }
                k += 1;
            }
            p += 1;
        }
        m += 1;
    }
    t
};

/// By the lead's top 4 bits, sign-extended and capped at 0 (0 for ASCII; 4, 5 for
/// `C0–DF`; 6 for `E0–EF`; 7 for `F0–F7`, in the low 3 bits): how far to shift
/// `w = lead << 18 | c1 << 12 | c2 << 6 | c3` right to drop the bytes after the sequence,
/// and what to add (wrapping) to take the lead's marker bits off and add the row offset.
static DECODE_SHR: [u32; 8] = [18, 0, 0, 0, 12, 12, 6, 0];
static DECODE_ADJUST: [u32; 8] = [
    0,
    0,
    0,
    0,
    160u32.wrapping_sub(0xC0 << 6),
    160u32.wrapping_sub(0xC0 << 6),
    2_208u32.wrapping_sub(0xE0 << 12),
    69_792u32.wrapping_sub(0xF0 << 18),
];

/// Loads a 32-byte table.
#[target_feature(enable = "avx2")]
#[inline]
fn table8(t: &'static [u32; 8]) -> __m256i {
    // SAFETY: `t` is a valid reference to 32 bytes; `loadu` takes any alignment.
    unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
}

/// 3-byte code points from raw `CF60` (U+D800) on skip the surrogates: 2048 more.
/// `cp` holds code points of up to 4 bytes, before that correction.
#[target_feature(enable = "avx2")]
#[inline]
fn skip_surrogates(cp: __m256i) -> __m256i {
    let set = _mm256_set1_epi32;
    // 4-byte code points start at U+110A0, above every 3-byte one.
    let high3 = _mm256_and_si256(
        _mm256_cmpgt_epi32(cp, set(0xD7FF)),
        _mm256_cmpgt_epi32(set(0x1_10A0), cp),
    );
    _mm256_add_epi32(cp, _mm256_and_si256(high3, set(2048)))
}

/// The code points of the sequences of 1 to 4 bytes gathered by [`GATHER`] into
/// 32-bit lanes (the lead in the top byte, then the bytes after it).
#[target_feature(enable = "avx2")]
#[inline]
fn decode_lanes(lanes: __m256i) -> __m256i {
    let set = _mm256_set1_epi32;
    // Keep the lead whole and 6 bits of each byte after it, then pack: pairs of bytes
    // into 12 bits, pairs of those into 24 (the lead's marker bits above bit 21).
    let bits = _mm256_and_si256(lanes, set(0xFF3F_3F3Fu32 as i32));
    let w = _mm256_madd_epi16(
        _mm256_maddubs_epi16(bits, set(0x4001_4001)),
        set(0x1000_0001),
    );
    let class = _mm256_min_epi32(_mm256_srai_epi32::<28>(lanes), _mm256_setzero_si256());
    let shr = _mm256_permutevar8x32_epi32(table8(&DECODE_SHR), class);
    let adjust = _mm256_permutevar8x32_epi32(table8(&DECODE_ADJUST), class);
    skip_surrogates(_mm256_add_epi32(_mm256_srlv_epi32(w, shr), adjust))
}

/// [`decode_lanes`] for sequences of 1 to 6 bytes, given also `tail`: the lanes
/// gathered 2 bytes further on (the 5th and 6th byte in the low 2 bytes).
#[target_feature(enable = "avx2")]
#[inline]
fn decode_lanes_long(lanes: __m256i, tail: __m256i) -> __m256i {
    let set = _mm256_set1_epi32;
    let bits = _mm256_and_si256(lanes, set(0xFF3F_3F3Fu32 as i32));
    let w = _mm256_madd_epi16(
        _mm256_maddubs_epi16(bits, set(0x4001_4001)),
        set(0x1000_0001),
    );
    // c4 << 6 | c5.
    let t = _mm256_maddubs_epi16(_mm256_and_si256(tail, set(0x3F3F)), set(0x4001));
    // The length − 1 (0 to 5), counting the leads at or above C0, E0, F0, F8 and FC with
    // signed compares on lanes whose top bit is flipped.
    let flipped = _mm256_xor_si256(lanes, set(i32::MIN));
    let at_least = |lead: u32| _mm256_cmpgt_epi32(flipped, set((lead << 24 ^ 1 << 31) as i32 - 1));
    let minus = _mm256_add_epi32(
        _mm256_add_epi32(at_least(0xC0), at_least(0xE0)),
        _mm256_add_epi32(
            at_least(0xF0),
            _mm256_add_epi32(at_least(0xF8), at_least(0xFC)),
        ),
    );
    let len1 = _mm256_sub_epi32(_mm256_setzero_si256(), minus);
    let look = |t: &'static [u32; 8]| _mm256_permutevar8x32_epi32(table8(t), len1);
    let marked = _mm256_or_si256(
        _mm256_srlv_epi32(_mm256_sllv_epi32(w, look(&LONG_SHL)), look(&LONG_SHR)),
        _mm256_srlv_epi32(t, look(&LONG_TAIL_SHR)),
    );
    skip_surrogates(_mm256_add_epi32(marked, look(&LONG_ADJUST)))
}

/// By length − 1, for [`decode_lanes_long`]: `(w << SHL) >> SHR | t >> TAIL_SHR` is the
/// raw value with the lead's marker bits above it (those of a 6-byte lead are shifted
/// out), and `ADJUST` takes them off and adds the row offset (wrapping).
static LONG_SHL: [u32; 8] = [0, 0, 0, 0, 6, 12, 0, 0];
static LONG_SHR: [u32; 8] = [18, 12, 6, 0, 0, 0, 0, 0];
static LONG_TAIL_SHR: [u32; 8] = [32, 32, 32, 32, 6, 0, 32, 32];
static LONG_ADJUST: [u32; 8] = [
    0,
    160u32.wrapping_sub(0xC0 << 6),
    2_208u32.wrapping_sub(0xE0 << 12),
    69_792u32.wrapping_sub(0xF0 << 18),
    2_166_944u32.wrapping_sub(0xF8 << 24),
    69_275_808,
    0,
    0,
];

/// `SHORT_GATHER[m]`: the `pshufb` control that packs the 16-bit lanes j of 8 where bit
/// j of `m` is set; the others are zero.
static SHORT_GATHER: [[u8; 16]; 256] = {
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut n, mut j) = (0, 0);
        while j < 8 {
            if m >> j & 1 != 0 {
                t[m][2 * n] = 2 * j as u8;
                t[m][2 * n + 1] = 2 * j as u8 + 1;
                n += 1;
            }
            j += 1;
        }
        m += 1;
    }
    t
};

/// Decodes the sequences of 1 or 2 bytes whose leads are in the 16 bytes at `p` (bit k
/// of `leads`: byte k is a lead) into `dst`: the number of code points. Every byte is
/// decoded in a 16-bit lane as if it were a lead, with the byte after it; the lanes of
/// the leads are then packed, 8 lanes at a time.
///
/// # Safety
///
/// `p .. p + 17` must be readable and `dst` writable for 16 lanes.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn decode16_short(p: *const u8, leads: u32, dst: *mut u32) -> usize {
    let set = _mm256_set1_epi16;
    // SAFETY: p .. p + 17 is readable.
    let (this, next) = unsafe {
        (
            _mm256_cvtepu8_epi16(_mm_loadu_si128(p.cast())),
            _mm256_cvtepu8_epi16(_mm_loadu_si128(p.add(1).cast())),
        )
    };
    // (lead & 1F) << 6 | (next & 3F), plus 160.
    let two = _mm256_add_epi16(
        _mm256_or_si256(
            _mm256_slli_epi16::<6>(_mm256_and_si256(this, set(0x1F))),
            _mm256_and_si256(next, set(0x3F)),
        ),
        set(160),
    );
    let cp = _mm256_blendv_epi8(this, two, _mm256_cmpgt_epi16(this, set(0xBF)));
    let (m_lo, m_hi) = ((leads & 0xFF) as usize, (leads >> 8 & 0xFF) as usize);
    // SAFETY: two 16-byte rows of `SHORT_GATHER`.
    let control = unsafe {
        _mm256_loadu2_m128i(
            SHORT_GATHER[m_hi].as_ptr().cast(),
            SHORT_GATHER[m_lo].as_ptr().cast(),
        )
    };
    let packed = _mm256_shuffle_epi8(cp, control);
    let n_lo = m_lo.count_ones() as usize;
    // SAFETY: 8 lanes at `dst` and 8 at dst + n_lo ≤ dst + 8: in the 16 lanes of `dst`.
    unsafe {
        _mm256_storeu_si256(
            dst.cast(),
            _mm256_cvtepu16_epi32(_mm256_castsi256_si128(packed)),
        );
        _mm256_storeu_si256(
            dst.add(n_lo).cast(),
            _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(packed)),
        );
    }
    n_lo + m_hi.count_ones() as usize
}

/// Decodes `bytes`, which the validator has accepted, into `out`: the number of code
/// points. (On input that is not valid the result is wrong or it panics, but every
/// read and write stays in bounds.)
///
/// # Safety
///
/// The CPU must have AVX2.
///
/// # Panics
///
/// If `out` is shorter than the decoded text.
#[target_feature(enable = "avx2")]
pub(in crate::corrected::fast) unsafe fn decode_valid(bytes: &[u8], out: &mut [u32]) -> usize {
    let len = bytes.len();
    let ptr = bytes.as_ptr();
    let (mut i, mut o) = (0usize, 0usize);
    // Each step reads up to 64 bytes from `i` (the lead mask needs byte 32) and writes
    // up to 32 lanes from `o`; the scalar loop finishes.
    while i + 64 <= len && out.len() - o >= 32 {
        // SAFETY: i + 32 <= len.
        let v = unsafe { _mm256_loadu_si256(ptr.add(i).cast()) };
        let dst = out[o..o + 32].as_mut_ptr();
        let high = _mm256_movemask_epi8(v) as u32;
        if high == 0 {
            let (lo, hi) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            // SAFETY: 4 × 8 lanes, out[o..o + 32].
            unsafe {
                _mm256_storeu_si256(dst.cast(), _mm256_cvtepu8_epi32(lo));
                _mm256_storeu_si256(
                    dst.add(8).cast(),
                    _mm256_cvtepu8_epi32(_mm_srli_si128::<8>(lo)),
                );
                _mm256_storeu_si256(dst.add(16).cast(), _mm256_cvtepu8_epi32(hi));
                _mm256_storeu_si256(
                    dst.add(24).cast(),
                    _mm256_cvtepu8_epi32(_mm_srli_si128::<8>(hi)),
                );
            }
            i += 32;
            o += 32;
            continue;
        }
        if high & 0xFFFF == 0 {
            // SAFETY: 2 × 8 lanes, out[o..o + 16].
            unsafe {
                let lo = _mm256_castsi256_si128(v);
                _mm256_storeu_si256(dst.cast(), _mm256_cvtepu8_epi32(lo));
                _mm256_storeu_si256(
                    dst.add(8).cast(),
                    _mm256_cvtepu8_epi32(_mm_srli_si128::<8>(lo)),
                );
            }
            i += 16;
            o += 16;
            continue;
        }
        // Bit k: byte k is not `80–BF` (signed ≥ −64), i.e. it starts a sequence.
        let leads = _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(-65))) as u32;
        if leads == 0x5555_5555 && !super::super::is_continuation(bytes[i + 32]) {
            // 16 two-byte sequences: (lead & 1F) << 6 | (c1 & 3F), plus 160, per 16 bits.
            let bits = _mm256_and_si256(v, _mm256_set1_epi16(0x3F1F));
            let cp16 = _mm256_add_epi16(
                _mm256_maddubs_epi16(bits, _mm256_set1_epi16(0x0140)),
                _mm256_set1_epi16(160),
            );
            // SAFETY: 2 × 8 lanes, out[o..o + 16].
            unsafe {
                let lo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(cp16));
                let hi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(cp16));
                _mm256_storeu_si256(dst.cast(), lo);
                _mm256_storeu_si256(dst.add(8).cast(), hi);
            }
            i += 32;
            o += 16;
            continue;
        }
        if leads == 0x1111_1111 && !super::super::is_continuation(bytes[i + 32]) {
            // 8 four-byte sequences: each into a lane with the lead on top, then
            // (lead & 07) << 18 | (c1 & 3F) << 12 | (c2 & 3F) << 6 | (c3 & 3F), plus the
            // offset.
            let lanes = _mm256_shuffle_epi8(
                v,
                _mm256_setr_epi8(
                    3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4,
                    11, 10, 9, 8, 15, 14, 13, 12,
                ),
            );
            let bits = _mm256_and_si256(lanes, _mm256_set1_epi32(0x073F_3F3F));
            let cp = _mm256_madd_epi16(
                _mm256_maddubs_epi16(bits, _mm256_set1_epi32(0x4001_4001)),
                _mm256_set1_epi32(0x1000_0001),
            );
            // SAFETY: 8 lanes, out[o..o + 8].
            unsafe {
                _mm256_storeu_si256(dst.cast(), _mm256_add_epi32(cp, _mm256_set1_epi32(69_792)))
            };
            i += 32;
            o += 8;
            continue;
        }
        if leads & 0x1FF_FFFF == 0x124_9249 {
            // 8 three-byte sequences (byte 24 starts the next one): bytes 0–11 and
            // 12–23 in the two halves, each sequence into a lane as lead << 16 | c1 << 8
            // | c2, then (lead & 0F) << 12 | (c1 & 3F) << 6 | (c2 & 3F), plus the offset.
            // SAFETY: i + 28 <= len.
            let halves = unsafe { _mm256_loadu2_m128i(ptr.add(i + 12).cast(), ptr.add(i).cast()) };
            let lanes = _mm256_shuffle_epi8(
                halves,
                _mm256_setr_epi8(
                    2, 1, 0, -128, 5, 4, 3, -128, 8, 7, 6, -128, 11, 10, 9, -128, 2, 1, 0, -128, 5,
                    4, 3, -128, 8, 7, 6, -128, 11, 10, 9, -128,
                ),
            );
            let bits = _mm256_and_si256(lanes, _mm256_set1_epi32(0x000F_3F3F));
            let cp = _mm256_madd_epi16(
                _mm256_maddubs_epi16(bits, _mm256_set1_epi32(0x0001_4001)),
                _mm256_set1_epi32(0x1000_0001),
            );
            let cp = skip_surrogates(_mm256_add_epi32(cp, _mm256_set1_epi32(2_208)));
            // SAFETY: 8 lanes, out[o..o + 8].
            unsafe { _mm256_storeu_si256(dst.cast(), cp) };
            i += 24;
            o += 8;
            continue;
        }
        let not_short = _mm256_subs_epu8(v, _mm256_set1_epi8(0xDFu8 as i8));
        let short = _mm256_movemask_epi8(_mm256_cmpeq_epi8(not_short, _mm256_setzero_si256()));
        if short & 0xFFFF == 0xFFFF {
            // SAFETY: i + 17 <= len; the call writes out[o..o + 16].
            o += unsafe { decode16_short(ptr.add(i), leads & 0xFFFF, dst) };
            i += 16 + (leads >> 16).trailing_zeros() as usize;
            continue;
        }
        // A lead of 5 or 6 bytes (F8–FD) among the first 16 needs 2 more bytes per lane.
        let not_long = _mm256_cmpeq_epi8(
            _mm256_subs_epu8(v, _mm256_set1_epi8(0xF7u8 as i8)),
            _mm256_setzero_si256(),
        );
        let long = (!_mm256_movemask_epi8(not_long) as u32) & 0xFFFF != 0;
        // The sequences that start in bytes 0–7 (gathered from bytes 0–15) and in bytes
        // 8–15 (from bytes 8–23), one stretch per 128-bit half.
        let (m_lo, m_hi) = ((leads & 0xFF) as usize, (leads >> 8 & 0xFF) as usize);
        let (n_lo, n_hi) = (m_lo.count_ones() as usize, m_hi.count_ones() as usize);
        // SAFETY: i + 24 <= len.
        let window = unsafe { _mm256_loadu2_m128i(ptr.add(i + 8).cast(), ptr.add(i).cast()) };
        let gather = |h: usize| {
            // SAFETY: two 16-byte rows of `GATHER`.
            let control = unsafe {
                _mm256_loadu2_m128i(
                    GATHER[m_hi][h].as_ptr().cast(),
                    GATHER[m_lo][h].as_ptr().cast(),
                )
            };
            let lanes = _mm256_shuffle_epi8(window, control);
            if long {
                // 2 bytes further on (unused lanes stay zero: 80 + 2 keeps the top bit).
                let tail =
                    _mm256_shuffle_epi8(window, _mm256_add_epi8(control, _mm256_set1_epi8(2)));
                decode_lanes_long(lanes, tail)
            } else {
                decode_lanes(lanes)
            }
        };
        let first = gather(0);
        // SAFETY: each store is 4 lanes at o + n_lo ≤ o + 8 or below: in out[o..o + 16].
        // The second stretch's lanes are stored after the first's, over its unused ones.
        unsafe {
            if n_lo > 4 || n_hi > 4 {
                let second = gather(1);
                _mm_storeu_si128(dst.cast(), _mm256_castsi256_si128(first));
                _mm_storeu_si128(dst.add(4).cast(), _mm256_castsi256_si128(second));
                _mm_storeu_si128(dst.add(n_lo).cast(), _mm256_extracti128_si256::<1>(first));
                _mm_storeu_si128(
                    dst.add(n_lo + 4).cast(),
                    _mm256_extracti128_si256::<1>(second),
                );
            } else {
                _mm_storeu_si128(dst.cast(), _mm256_castsi256_si128(first));
                _mm_storeu_si128(dst.add(n_lo).cast(), _mm256_extracti128_si256::<1>(first));
            }
        }
        // On to the first lead from byte 16 on (at most 5 bytes further in valid input).
        i += 16 + (leads >> 16).trailing_zeros() as usize;
        o += n_lo + n_hi;
    }
    portable::decode_valid(bytes, out, i, o)
}

/// `COMPACT[x]`: for 4 sequences in 32-bit lanes, whose lengths minus 1 are the 2-bit
/// fields of `x` (lane j in bits 2j, 2j + 1), the `pshufb` control that packs their
/// bytes together; `COMPACT_LEN[x]`, how many bytes that is.
#[cfg(feature = "alloc")]
const fn compact() -> ([[u8; 16]; 256], [u8; 256]) {
    let mut t = [[0x80u8; 16]; 256];
    let mut lens = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        let (mut n, mut j) = (0, 0);
        while j < 4 {
            let len = (x >> (2 * j) & 3) + 1;
            let mut b = 0;
            while b < len {
                t[x][n] = (4 * j + b) as u8;
                n += 1;
                b += 1;
            }
            j += 1;
        }
        lens[x] = n as u8;
        x += 1;
    }
    (t, lens)
}
#[cfg(feature = "alloc")]
static COMPACT: [[u8; 16]; 256] = compact().0;
#[cfg(feature = "alloc")]
static COMPACT_LEN: [u8; 256] = compact().1;

/// By class (0 ASCII, 1 two bytes, 2 and 3 three bytes below and above the
/// surrogates, 4 four bytes): the row offset, how far the 4-byte form shifts right in
/// bits, and the marker bits of the lead and of the bytes after it.
#[cfg(feature = "alloc")]
static ENCODE_OFFSET: [u32; 8] = [0, 160, 2_208, 4_256, 69_792, 0, 0, 0];
#[cfg(feature = "alloc")]
static ENCODE_SHR: [u32; 8] = [24, 16, 8, 8, 0, 0, 0, 0];
#[cfg(feature = "alloc")]
static ENCODE_MARK: [u32; 8] = [0, 0x80C0, 0x80_80E0, 0x80_80E0, 0x8080_80F0, 0, 0, 0];

/// The 4-byte form's 6-bit groups c0 c1 c2 c3 of each lane's `raw` (c0 = bits 18 up,
/// …, c3 = bits 0–5) in bytes 0–3, to be shifted right by whole bytes for shorter
/// sequences.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
#[inline]
fn four_groups(raw: __m256i) -> __m256i {
    let set = _mm256_set1_epi32;
    _mm256_or_si256(
        _mm256_or_si256(
            _mm256_and_si256(_mm256_slli_epi32::<24>(raw), set(0x3F00_0000)),
            _mm256_and_si256(_mm256_slli_epi32::<10>(raw), set(0x003F_0000)),
        ),
        _mm256_or_si256(
            _mm256_and_si256(_mm256_srli_epi32::<4>(raw), set(0x3F00)),
            _mm256_srli_epi32::<18>(raw),
        ),
    )
}

/// Bits 0–7 of `x` to the even bits 0–14.
#[cfg(feature = "alloc")]
#[inline(always)]
fn spread(x: u32) -> u32 {
    let x = (x | x << 4) & 0x0F0F;
    let x = (x | x << 2) & 0x3333;
    (x | x << 1) & 0x5555
}

/// `SHORT_COMPACT[m]`: for 8 sequences of 1 or 2 bytes in 16-bit lanes (bit j of `m`:
/// lane j has 2), the `pshufb` control that packs them; `SHORT_COMPACT_LEN[m]`, how many
/// bytes that is.
#[cfg(feature = "alloc")]
const fn short_compact() -> ([[u8; 16]; 256], [u8; 256]) {
    let mut t = [[0x80u8; 16]; 256];
    let mut lens = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        let (mut n, mut j) = (0, 0);
        while j < 8 {
            t[m][n] = 2 * j as u8;
            n += 1;
            if m >> j & 1 != 0 {
                t[m][n] = 2 * j as u8 + 1;
                n += 1;
            }
            j += 1;
        }
        lens[m] = n as u8;
        m += 1;
    }
    (t, lens)
}
#[cfg(feature = "alloc")]
static SHORT_COMPACT: [[u8; 16]; 256] = short_compact().0;
#[cfg(feature = "alloc")]
static SHORT_COMPACT_LEN: [u8; 256] = short_compact().1;

/// `BMP_COMPACT[m]`: for 4 code points of 1 to 3 bytes encoded in 32-bit lanes as
/// `[ASCII, 10cccccc, 1110aaaa, 110bbbbb or 10bbbbbb]` (see [`encode16`]), where bit
/// 2j of `m` is set if lane j has 1 byte and bit 2j + 1 if it has 1 or 2, the `pshufb`
/// control that packs their bytes; `BMP_COMPACT_LEN[m]`, how many bytes that is.
#[cfg(feature = "alloc")]
const fn bmp_compact() -> ([[u8; 16]; 256], [u8; 256]) {
    let mut t = [[0x80u8; 16]; 256];
    let mut lens = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        let (mut n, mut j) = (0, 0);
        while j < 4 {
            let order: &[u8] = match m >> (2 * j) & 3 {
                3 => &[0],
                2 => &[3, 1],
                // 0; 1 (1 byte but not 1 or 2) does not occur.
                _ => &[2, 3, 1],
            };
            let mut b = 0;
            while b < order.len() {
                t[m][n] = 4 * j as u8 + order[b];
                n += 1;
                b += 1;
            }
            j += 1;
        }
        lens[m] = n as u8;
        m += 1;
    }
    (t, lens)
}
#[cfg(feature = "alloc")]
static BMP_COMPACT: [[u8; 16]; 256] = bmp_compact().0;
#[cfg(feature = "alloc")]
static BMP_COMPACT_LEN: [u8; 256] = bmp_compact().1;

/// `LONG_COMPACT[(n0 − 1) + 6 (n1 − 1)]`: for 2 sequences of n0 and n1 bytes in 64-bit
/// lanes, the `pshufb` control that packs them; `LONG_COMPACT_LEN`, n0 + n1.
#[cfg(feature = "alloc")]
const fn long_compact() -> ([[u8; 16]; 36], [u8; 36]) {
    let mut t = [[0x80u8; 16]; 36];
    let mut lens = [0u8; 36];
    let mut x = 0;
    while x < 36 {
        let (n0, n1) = (x % 6 + 1, x / 6 + 1);
        let mut b = 0;
        while b < n0 {
            t[x][b] = b as u8;
            b += 1;
        }
        b = 0;
        while b < n1 {
            t[x][n0 + b] = (8 + b) as u8;
            b += 1;
        }
        lens[x] = (n0 + n1) as u8;
        x += 1;
    }
    (t, lens)
}
#[cfg(feature = "alloc")]
static LONG_COMPACT: [[u8; 16]; 36] = long_compact().0;
#[cfg(feature = "alloc")]
static LONG_COMPACT_LEN: [u8; 36] = long_compact().1;

/// Encodes 4 encodable code points in 64-bit lanes: the bytes of the first two packed
/// in the low half, of the last two in the high half, and how many bytes each half
/// holds.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
#[inline]
fn encode_long4(half: __m128i) -> (__m256i, usize, usize) {
    let set = |x: u64| _mm256_set1_epi64x(x as i64);
    let v = _mm256_cvtepu32_epi64(half);
    // Below 2^32: signed 64-bit compares are right. Each mask is −1 where true.
    let ge = |first: u64| _mm256_cmpgt_epi64(v, set(first - 1));
    let (ge2, ge3, ge4, ge5, ge6) = (
        ge(0xA0),
        ge(0x8A0),
        ge(0x1_10A0),
        ge(0x21_10A0),
        ge(0x421_10A0),
    );
    let above_surrogates = ge(0xE000);
    // The row offset: each class's minus the one below it, where the class is reached.
    let step = |m: __m256i, x: u64| _mm256_and_si256(m, set(x));
    let offset = _mm256_add_epi64(
        _mm256_add_epi64(
            _mm256_add_epi64(step(ge2, 160), step(ge3, 2_208 - 160)),
            _mm256_add_epi64(
                step(above_surrogates, 4_256 - 2_208),
                step(ge4, 69_792 - 4_256),
            ),
        ),
        _mm256_add_epi64(
            step(ge5, 2_166_944 - 69_792),
            step(ge6, 69_275_808 - 2_166_944),
        ),
    );
    let raw = _mm256_sub_epi64(v, offset);
    // The 6-byte form's groups (byte k: raw bits 30 − 6k on), each with 80 set.
    let group = |shifted: __m256i, byte: u32| _mm256_and_si256(shifted, set(0x3F << (8 * byte)));
    let six = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_or_si256(
                _mm256_srli_epi64::<30>(raw),
                group(_mm256_srli_epi64::<16>(raw), 1),
            ),
            _mm256_or_si256(
                group(_mm256_srli_epi64::<2>(raw), 2),
                group(_mm256_slli_epi64::<12>(raw), 3),
            ),
        ),
        _mm256_or_si256(
            _mm256_or_si256(
                group(_mm256_slli_epi64::<26>(raw), 4),
                group(_mm256_slli_epi64::<40>(raw), 5),
            ),
            set(0x8080_8080_8080),
        ),
    );
    // Length − 1, then the form shifted right by whole bytes to that length, with the
    // lead's marker bits (their top bit is the 80 already there).
    let len1 = _mm256_sub_epi64(
        _mm256_setzero_si256(),
        _mm256_add_epi64(
            _mm256_add_epi64(ge2, ge3),
            _mm256_add_epi64(ge4, _mm256_add_epi64(ge5, ge6)),
        ),
    );
    let shifted = _mm256_srlv_epi64(six, _mm256_sub_epi64(set(40), _mm256_slli_epi64::<3>(len1)));
    let lead = _mm256_and_si256(_mm256_srlv_epi64(set(0xFF80), len1), set(0xFF));
    let encoded = _mm256_blendv_epi8(v, _mm256_or_si256(shifted, lead), ge2);
    let mut lens = [0u64; 4];
    // SAFETY: `lens` is 32 writable bytes.
    unsafe { _mm256_storeu_si256(lens.as_mut_ptr().cast(), len1) };
    let (x_lo, x_hi) = (
        (lens[0] + 6 * lens[1]) as usize,
        (lens[2] + 6 * lens[3]) as usize,
    );
    // SAFETY: two 16-byte rows of `LONG_COMPACT` (every index is below 36: len − 1 ≤ 5).
    let control = unsafe {
        _mm256_loadu2_m128i(
            LONG_COMPACT[x_hi].as_ptr().cast(),
            LONG_COMPACT[x_lo].as_ptr().cast(),
        )
    };
    (
        _mm256_shuffle_epi8(encoded, control),
        usize::from(LONG_COMPACT_LEN[x_lo]),
        usize::from(LONG_COMPACT_LEN[x_hi]),
    )
}

/// Code points per chunk of [`encode`]: it reserves 6 bytes for each, and 64 more for
/// the stores past the encoding, then writes with a cursor of its own.
#[cfg(feature = "alloc")]
const CHUNK: usize = 256;

/// Appends the encoding of `codepoints` to `out`, or fails at the first code point that
/// has none (with the code points before it encoded).
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
pub(in crate::corrected::fast) unsafe fn encode(
    codepoints: &[u32],
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let n = codepoints.len();
    let src = codepoints.as_ptr();
    let mut done = 0;
    out.reserve(n + 32);
    while done + 8 <= n {
        // A chunk: room for 6 bytes per code point (the longest encoding) and the 64
        // bytes a step may store from where it starts. Each step encodes k code points
        // into at most 6k bytes and stores within 64 bytes of where it starts, so every
        // store stays in the room reserved here; `set_len` then counts what was written.
        let end = n.min(done + CHUNK);
        out.reserve(6 * (end - done) + 64);
        let base = out.spare_capacity_mut().as_mut_ptr() as *mut u8;
        let mut written = 0;
        let mut scalar = false;
        while done + 8 <= end {
            // SAFETY: `written` ≤ 6 × the code points of this chunk so far, so `dst` has
            // the 64 bytes a step stores (see above).
            let dst = unsafe { base.add(written) };
            prefetch(src, done, 16);
            if done + 16 <= end {
                // SAFETY: done + 16 <= n: 2 × 8 code points of `codepoints`.
                let (a, b) = unsafe {
                    (
                        _mm256_loadu_si256(src.add(done).cast()),
                        _mm256_loadu_si256(src.add(done + 8).cast()),
                    )
                };
                // SAFETY: `dst` has 64 bytes of room.
                if let Some(w) = unsafe { encode16(a, b, dst) } {
                    written += w;
                    done += 16;
                    if w == 16 {
                        // ASCII (or 16 of 1 byte): on 32 at a time while it lasts.
                        // SAFETY: as above, for each step of 32.
                        (done, written) = unsafe { encode_ascii32(src, done, end, base, written) };
                    }
                    continue;
                }
            }
            // SAFETY: done + 8 <= n.
            let v = unsafe { _mm256_loadu_si256(src.add(done).cast()) };
            // SAFETY: `dst` has 64 bytes of room.
            match unsafe { encode8(v, dst) } {
                Some(w) => written += w,
                None => {
                    scalar = true;
                    break;
                }
            }
            done += 8;
        }
        // SAFETY: the first `written` bytes of the spare capacity are the encoding of
        // the code points of this chunk before `done`.
        unsafe { out.set_len(out.len() + written) };
        if scalar {
            // A code point without an encoding among these 8: the scalar loop finds the
            // exact error.
            portable::encode_scalar(&codepoints[done..done + 8], out)?;
            done += 8;
        }
    }
    portable::encode_scalar(&codepoints[done..], out)
}

/// Asks for the cache lines of the `n` code points `PREFETCH` after `done` in `src`
/// (which may be past its end: a prefetch never faults). The hardware prefetcher alone
/// leaves the encoder waiting for its input (4 bytes a code point) at 1 MiB.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
#[inline]
// `_mm_prefetch` is an unsafe function up to Rust 1.89 (the MSRV) and safe after.
#[allow(unused_unsafe)]
fn prefetch(src: *const u32, done: usize, n: usize) {
    for line in (0..n).step_by(16) {
        let at = src.wrapping_add(done + PREFETCH + line);
        // SAFETY: a prefetch is a hint: it never faults and reads nothing into the
        // program, whatever the address (the CPU is checked by `target_feature`).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(at.cast()) };
    }
}

/// How far ahead [`prefetch`] reads, in code points.
#[cfg(feature = "alloc")]
const PREFETCH: usize = 256;

/// Encodes the ASCII from `done` on, 32 code points at a time, while there are 32 before
/// `end` and they are ASCII: the new `done` and `written`.
///
/// # Safety
///
/// `src` must be readable up to `end`; `base + written` writable for 6 bytes per code
/// point from `done` to `end` plus 64.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn encode_ascii32(
    src: *const u32,
    mut done: usize,
    end: usize,
    base: *mut u8,
    mut written: usize,
) -> (usize, usize) {
    while done + 32 <= end {
        prefetch(src, done, 32);
        // SAFETY: done + 32 <= end: 4 × 8 code points.
        let v: [__m256i; 4] =
            core::array::from_fn(|k| unsafe { _mm256_loadu_si256(src.add(done + 8 * k).cast()) });
        let any = _mm256_or_si256(_mm256_or_si256(v[0], v[1]), _mm256_or_si256(v[2], v[3]));
        if _mm256_testz_si256(any, _mm256_set1_epi32(!0x7F)) == 0 {
            break;
        }
        // [0–3 8–11 | 4–7 12–15] and [16–19 24–27 | 20–23 28–31] in 16 bits, then bytes
        // [0–3 8–11 16–19 24–27 | 4–7 12–15 20–23 28–31]: dwords 0 4 1 5 2 6 3 7.
        let bytes = _mm256_packus_epi16(
            _mm256_packus_epi32(v[0], v[1]),
            _mm256_packus_epi32(v[2], v[3]),
        );
        let bytes = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        // SAFETY: 32 bytes at base + written, within the room of these 32 code points.
        unsafe { _mm256_storeu_si256(base.add(written).cast(), bytes) };
        done += 32;
        written += 32;
    }
    (done, written)
}

/// Encodes 16 code points at `dst` if each is below U+10000 and has an encoding (no C1
/// control, no surrogate), so 1, 2 or 3 bytes: the number of bytes written, or `None`
/// (and nothing written). (U+10000 to U+1109F have 3 bytes too, but are rare: they take
/// the 8-lane path.)
///
/// ASCII is packed directly, and so is a mix of 1- and 2-byte code points (in 16-bit
/// lanes, then a `pshufb` from a table per 8). Otherwise, in 16-bit lanes (simdutf's
/// UTF-16 → UTF-8 layout, on the raw value, which the 3-byte rows keep below 2^16): for
/// raw `aaaabbbbbbcccccc`, one lane holds `[0bcccccc, 10cccccc]` (the ASCII byte, and the
/// last byte of a longer sequence) and another `[1110aaaa, 110bbbbb]`, or `10bbbbbb` for
/// 3 bytes (they differ in one bit; a 2-byte raw value has bit 11 clear). Interleaved
/// into 32-bit lanes, a table indexed by the 2-bit lengths of four lanes gives the
/// `pshufb` that packs them. (A fixed shuffle for 16 code points of 3 bytes was slower on
/// CJK text: a newline every 40 characters makes its branch unpredictable.)
///
/// # Safety
///
/// `dst` must be writable for 64 bytes.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn encode16(a: __m256i, b: __m256i, dst: *mut u8) -> Option<usize> {
    let set = _mm256_set1_epi16;
    let any = _mm256_or_si256(a, b);
    if _mm256_testz_si256(any, _mm256_set1_epi32(!0x7F)) == 1 {
        // Pack to 16 bits ([a0–3 b0–3 | a4–7 b4–7]), put the halves in order, pack to
        // bytes.
        let words = _mm256_permute4x64_epi64::<0xD8>(_mm256_packus_epi32(a, b));
        let ascii = _mm_packus_epi16(
            _mm256_castsi256_si128(words),
            _mm256_extracti128_si256::<1>(words),
        );
        // SAFETY: 16 of the 64 writable bytes.
        unsafe { _mm_storeu_si128(dst.cast(), ascii) };
        return Some(16);
    }
    if _mm256_testz_si256(any, _mm256_set1_epi32(!0xFFFF)) == 0 {
        return None;
    }
    // 16-bit lanes in the order [a0–3 b0–3 | a4–7 b4–7].
    let v = _mm256_packus_epi32(a, b);
    // C1 controls (80–9F) and surrogates (D800–DFFF) have no encoding.
    let c1 = _mm256_sub_epi16(v, set(0x80));
    let c1 = _mm256_cmpeq_epi16(_mm256_min_epu16(c1, set(0x1F)), c1);
    let one_or_two = _mm256_cmpeq_epi16(_mm256_min_epu16(v, set(0x89F)), v);
    let m12 = _mm256_movemask_epi8(one_or_two) as u32;
    if m12 == u32::MAX {
        if _mm256_testz_si256(c1, c1) == 0 {
            return None;
        }
        // 1 and 2 bytes: `110xxxxx 10xxxxxx` in 16-bit lanes (the lead in the low byte),
        // the halves put in order, packed by `pshufb`s from a table per 8.
        let v = _mm256_permute4x64_epi64::<0xD8>(v);
        let two = _mm256_cmpgt_epi16(v, set(0x9F));
        let raw = _mm256_sub_epi16(v, _mm256_and_si256(two, set(160)));
        let encoded = _mm256_or_si256(
            _mm256_or_si256(_mm256_srli_epi16::<6>(raw), set(0xC0)),
            _mm256_slli_epi16::<8>(_mm256_or_si256(_mm256_and_si256(raw, set(0x3F)), set(0x80))),
        );
        let encoded = _mm256_blendv_epi8(v, encoded, two);
        let m = _mm_movemask_epi8(_mm_packs_epi16(
            _mm256_castsi256_si128(two),
            _mm256_extracti128_si256::<1>(two),
        )) as usize;
        let (m_lo, m_hi) = (m & 0xFF, m >> 8);
        // SAFETY: two 16-byte rows of `SHORT_COMPACT`.
        let control = unsafe {
            _mm256_loadu2_m128i(
                SHORT_COMPACT[m_hi].as_ptr().cast(),
                SHORT_COMPACT[m_lo].as_ptr().cast(),
            )
        };
        let packed = _mm256_shuffle_epi8(encoded, control);
        let len_lo = usize::from(SHORT_COMPACT_LEN[m_lo]);
        // SAFETY: 16 bytes at `dst` and 16 at dst + len_lo ≤ dst + 16: within the 64.
        unsafe {
            _mm_storeu_si128(dst.cast(), _mm256_castsi256_si128(packed));
            _mm_storeu_si128(
                dst.add(len_lo).cast(),
                _mm256_extracti128_si256::<1>(packed),
            );
        }
        return Some(len_lo + usize::from(SHORT_COMPACT_LEN[m_hi]));
    }
    let surrogate = _mm256_cmpeq_epi16(
        _mm256_and_si256(v, set(0xF800u16 as i16)),
        set(0xD800u16 as i16),
    );
    let leave = _mm256_or_si256(c1, surrogate);
    if _mm256_testz_si256(leave, leave) == 0 {
        return None;
    }
    let one = _mm256_cmpeq_epi16(
        _mm256_and_si256(v, set(0xFF80u16 as i16)),
        _mm256_setzero_si256(),
    );
    let at_least = |x: u16| _mm256_cmpeq_epi16(_mm256_max_epu16(v, set(x as i16)), v);
    // Offsets 160, 2208, 4256: 160 from 2 bytes on, 2048 more from 3, 2048 more above
    // the surrogates.
    let offset = _mm256_add_epi16(
        _mm256_andnot_si256(one, set(160)),
        _mm256_add_epi16(
            _mm256_andnot_si256(one_or_two, set(2048)),
            _mm256_and_si256(at_least(0xE000), set(2048)),
        ),
    );
    let raw = _mm256_sub_epi16(v, offset);
    // [0bcccccc 10cccccc]: the low byte of each lane twice, masked.
    let dup_even = _mm256_setr_epi8(
        0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14, 0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10,
        12, 12, 14, 14,
    );
    let last = _mm256_or_si256(
        _mm256_and_si256(_mm256_shuffle_epi8(raw, dup_even), set(0x3F7F)),
        set(0x8000u16 as i16),
    );
    // [1110aaaa 11bbbbbb]: raw >> 4 with the 6 bits of b moved up by a multiply-add,
    // then 10bbbbbb for 3 bytes.
    let first = _mm256_or_si256(
        _mm256_maddubs_epi16(
            _mm256_and_si256(_mm256_srli_epi16::<4>(raw), set(0x0FFC)),
            set(0x0140),
        ),
        set(0xC0E0u16 as i16),
    );
    let first = _mm256_xor_si256(first, _mm256_andnot_si256(one_or_two, set(0x4000)));
    // 32-bit lanes [ASCII, 10cccccc, 1110aaaa, 110bbbbb or 10bbbbbb]: `lo` holds code
    // points 0–3 and 4–7 in its halves, `hi` 8–11 and 12–15.
    let lo = _mm256_unpacklo_epi16(last, first);
    let hi = _mm256_unpackhi_epi16(last, first);
    let m = (_mm256_movemask_epi8(one) as u32 & 0x5555_5555) | (m12 & 0xAAAA_AAAA);
    let quarters = [
        _mm256_castsi256_si128(lo),
        _mm256_extracti128_si256::<1>(lo),
        _mm256_castsi256_si128(hi),
        _mm256_extracti128_si256::<1>(hi),
    ];
    // Lanes 0–3 of `v` are code points 0–3, lanes 4–7 code points 8–11 (the pack's
    // order), so `m`'s bytes 0, 2, 1, 3 belong to the quarters in turn.
    let mut written = 0;
    for (k, q) in quarters.into_iter().enumerate() {
        let x = (m >> (8 * [0, 2, 1, 3][k]) & 0xFF) as usize;
        // SAFETY: a 16-byte row of `BMP_COMPACT`.
        let control = unsafe { _mm_loadu_si128(BMP_COMPACT[x].as_ptr().cast()) };
        // SAFETY: 16 bytes at dst + written, written ≤ 36 (at most 12 per quarter before):
        // within the 64 writable bytes.
        unsafe { _mm_storeu_si128(dst.add(written).cast(), _mm_shuffle_epi8(q, control)) };
        written += usize::from(BMP_COMPACT_LEN[x]);
    }
    Some(written)
}

/// Encodes 8 code points at `dst`: the number of bytes written, or `None` (nothing
/// written) if one of them has no encoding. Those of 5 and 6 bytes (U+2110A0 on) are
/// encoded 4 at a time in 64-bit lanes.
///
/// # Safety
///
/// `dst` must be writable for 64 bytes.
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn encode8(v: __m256i, dst: *mut u8) -> Option<usize> {
    let set = _mm256_set1_epi32;
    // C1 controls, surrogates and code points out of range.
    let below =
        |x: __m256i, limit: u32| _mm256_cmpeq_epi32(_mm256_min_epu32(x, set(limit as i32)), x);
    let c1 = below(_mm256_sub_epi32(v, set(0x80)), 0x1F);
    let surrogate = below(_mm256_sub_epi32(v, set(0xD800)), 0x7FF);
    let in_range = below(v, corrected::MAX_CODEPOINT);
    let leave = _mm256_or_si256(
        _mm256_or_si256(c1, surrogate),
        _mm256_xor_si256(in_range, set(-1)),
    );
    if _mm256_testz_si256(leave, leave) == 0 {
        return None;
    }
    let long = _mm256_cmpeq_epi32(_mm256_max_epu32(v, set(0x21_10A0)), v);
    if _mm256_testz_si256(long, long) == 0 {
        let mut written = 0;
        for half in [_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)] {
            let (packed, len_lo, len_hi) = encode_long4(half);
            // SAFETY: 16 bytes at dst + written and 16 at dst + written + len_lo
            // (written ≤ 24 after the first half, len_lo ≤ 12): within the 64.
            unsafe {
                _mm_storeu_si128(dst.add(written).cast(), _mm256_castsi256_si128(packed));
                _mm_storeu_si128(
                    dst.add(written + len_lo).cast(),
                    _mm256_extracti128_si256::<1>(packed),
                );
            }
            written += len_lo + len_hi;
        }
        return Some(written);
    }
    // Every lane is now below U+2110A0: signed compares are right.
    let ge2 = _mm256_cmpgt_epi32(v, set(0x9F));
    let ge3 = _mm256_cmpgt_epi32(v, set(0x89F));
    let above_surrogates = _mm256_cmpgt_epi32(v, set(0xDFFF));
    let ge4 = _mm256_cmpgt_epi32(v, set(0x1_109F));
    // Each mask is −1 where true.
    let class = _mm256_sub_epi32(
        _mm256_setzero_si256(),
        _mm256_add_epi32(
            _mm256_add_epi32(ge2, ge3),
            _mm256_add_epi32(above_surrogates, ge4),
        ),
    );
    let look = |t: &'static [u32; 8]| _mm256_permutevar8x32_epi32(table8(t), class);
    let raw = _mm256_sub_epi32(v, look(&ENCODE_OFFSET));
    let encoded = _mm256_or_si256(
        _mm256_srlv_epi32(four_groups(raw), look(&ENCODE_SHR)),
        look(&ENCODE_MARK),
    );
    let encoded = _mm256_blendv_epi8(v, encoded, ge2);
    // Length − 1 per lane in 2 bits: bit 1 is "3 or 4 bytes", bit 0 "2 or 4 bytes".
    let mask = |m: __m256i| _mm256_movemask_ps(_mm256_castsi256_ps(m)) as u32;
    let (m2, m3, m4) = (mask(ge2), mask(ge3), mask(ge4));
    let x = spread(m2 ^ m3 ^ m4) | spread(m3) << 1;
    let (x_lo, x_hi) = ((x & 0xFF) as usize, (x >> 8) as usize);
    // SAFETY: two 16-byte rows of `COMPACT`.
    let control = unsafe {
        _mm256_loadu2_m128i(COMPACT[x_hi].as_ptr().cast(), COMPACT[x_lo].as_ptr().cast())
    };
    let packed = _mm256_shuffle_epi8(encoded, control);
    let (len_lo, len_hi) = (
        usize::from(COMPACT_LEN[x_lo]),
        usize::from(COMPACT_LEN[x_hi]),
    );
    // SAFETY: 16 bytes at `dst` and 16 at dst + len_lo ≤ dst + 16: within the 64.
    unsafe {
        _mm_storeu_si128(dst.cast(), _mm256_castsi256_si128(packed));
        _mm_storeu_si128(
            dst.add(len_lo).cast(),
            _mm256_extracti128_si256::<1>(packed),
        );
    }
    Some(len_lo + len_hi)
}
