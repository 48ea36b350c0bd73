//! The AVX-512 encode kernel: 64 ASCII code points at a time, 32 below U+10000 at a
//! time in 16-bit lanes, otherwise 16 (or 8) at a time; see [`encode`].

use super::tables::{table, BYTE_INDEX, FOUR_GROUPS};
use crate::corrected;
use alloc::vec::Vec;
use core::arch::x86_64::*;

/// By class (0 ASCII, 1 two bytes, 2 and 3 three bytes below and above the
/// surrogates, 4 four bytes): the offset, how far the 4-byte form shifts right in
/// bits, the lead mark OR'ed into the first byte, and the length in every byte.
static CLASS_OFFSET: [u32; 16] = [
    0, 160, 2_208, 4_256, 69_792, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];
static CLASS_SHIFT: [u32; 16] = [0, 16, 8, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
static CLASS_MARK: [u32; 16] = [0, 0x40, 0x60, 0x60, 0x70, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
static CLASS_LEN_BYTES: [u32; 16] = [
    0x0101_0101,
    0x0202_0202,
    0x0303_0303,
    0x0303_0303,
    0x0404_0404,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
];
/// Per 64-bit lane, by sequence length (1–6): how far the 6-byte form shifts right,
/// in bits, and the lead mark OR'ed into the first byte.
static SHIFT8: [u64; 8] = [0, 0, 32, 24, 16, 8, 0, 0];
static MARK8: [u64; 8] = [0, 0, 0x40, 0x60, 0x70, 0x78, 0x7C, 0];
/// The length in every byte.
static LEN_BYTES8: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut n = 0;
    while n < 8 {
        t[n] = n as u64 * 0x0101_0101_0101_0101;
        n += 1;
    }
    t
};
/// Byte k of each qword is k.
const fn byte_index8() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i % 8) as u8;
        i += 1;
    }
    t
}
static BYTE_INDEX8: [u8; 64] = byte_index8();
/// For `vpmultishiftqb`: byte k of each qword takes the raw value's bits from
/// 30 − 6k on (the 6-bit groups, most significant first).
static SIX_BIT_GROUPS: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        let k = i % 8;
        t[i] = if k < 6 { (30 - 6 * k) as u8 } else { 0 };
        i += 1;
    }
    t
};

/// Encodes 8 encodable code points (in 64-bit lanes): the bytes, packed at the start
/// of the vector, and how many there are.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
#[inline]
fn encode8(v: __m512i) -> (__m512i, usize) {
    let set = |x: u64| _mm512_set1_epi64(x as i64);
    let mut len = set(1);
    let mut offset = _mm512_setzero_si512();
    // (first code point, offset) of each class from 2 bytes on.
    for (first, off) in [
        (0xA0, 160),
        (0x8A0, 2_208),
        (0x1_10A0, 69_792),
        (0x21_10A0, 2_166_944),
        (0x421_10A0, 69_275_808),
    ] {
        let k = _mm512_cmpge_epu64_mask(v, set(first));
        len = _mm512_mask_add_epi64(len, k, len, set(1));
        offset = _mm512_mask_mov_epi64(offset, k, set(off));
    }
    // The 3-byte class's second offset (not a length step).
    let high3 = _mm512_mask_cmpge_epu64_mask(_mm512_cmpeq_epi64_mask(len, set(3)), v, set(0xE000));
    let offset = _mm512_mask_mov_epi64(offset, high3, set(4_256));
    let raw = _mm512_sub_epi64(v, offset);
    // The 6-byte form `FC|c0 80|c1 … 80|c5`, shifted right by whole bytes for shorter
    // sequences, with the lead mark; ASCII lanes are the code point itself.
    let groups = _mm512_multishift_epi64_epi8(table(&SIX_BIT_GROUPS), raw);
    let six =
        _mm512_ternarylogic_epi64::<0xF8>(set(0x8080_8080_8080), groups, set(0x3F3F_3F3F_3F3F));
    let shifted = _mm512_srlv_epi64(six, _mm512_permutexvar_epi64(len, table(&SHIFT8)));
    let encoded = _mm512_or_si512(shifted, _mm512_permutexvar_epi64(len, table(&MARK8)));
    let ascii = _mm512_cmplt_epu64_mask(v, set(0x80));
    let encoded = _mm512_mask_mov_epi64(encoded, ascii, v);
    let len_bytes = _mm512_permutexvar_epi64(len, table(&LEN_BYTES8));
    let keep = _mm512_cmplt_epu8_mask(table(&BYTE_INDEX8), len_bytes);
    (
        _mm512_maskz_compress_epi8(keep, encoded),
        keep.count_ones() as usize,
    )
}

/// Code points per chunk of [`encode`]: it reserves 6 bytes for each,
/// and 128 more for the stores past the encoding, then writes with a cursor of its
/// own. (Not the AVX2 encoder's `Chunk` (`x86/avx2/chunk.rs`): with it,
/// and the same instructions in the ASCII loop, ASCII at 1 MiB ran 7–10 % slower on Zen 4
/// in 9 alternating processes, 8.4–8.9 → 7.4–8.3 GB/s, for a reason not found; at
/// 64 KiB, and in the AVX2 encoder, it made no difference.)
const CHUNK: usize = 512;

/// The encode kernel: appends the encoding of `codepoints` to `out` up to the last 15
/// or the first group of 16 with a code point that has no encoding (the portable
/// encoder then finds the exact error); returns how many it encoded.
///
/// Runs of ASCII go 64 code points at a time, and 32 at a time when they are all below
/// U+10000 ([`encode32`], in 16-bit lanes); otherwise 16 at a time ([`encode16`]), or 8
/// at a time in 64-bit lanes when one has 5 or 6 bytes.
///
/// # Safety
///
/// The CPU must have every feature of `has_avx512`.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn encode(codepoints: &[u32], out: &mut Vec<u8>) -> usize {
    let n = codepoints.len();
    let src = codepoints.as_ptr();
    let mut done = 0;
    out.reserve(n);
    // Whether the last step was 32 ASCII code points: a run of ASCII then goes on in
    // the next chunk 64 at a time, not through [`encode32`] first. (Two of every 16
    // blocks of an ASCII run took [`encode32`]'s branch for ASCII, at the start and
    // the end of each chunk; without it and without that branch, Zen 4, 64 KiB: ASCII
    // 15.0–15.3 → 16.0–18.0 GB/s, Latin 5.5 → 6.4–6.7.)
    let mut ascii = false;
    while done + 16 <= n {
        // A chunk: room for 6 bytes per code point (the longest encoding) and the
        // 128 bytes a step may store from where it starts. Each step encodes k code
        // points into at most 6k bytes and stores within 128 bytes of where it
        // starts, so every store stays in the room reserved here; `set_len` then
        // counts what was written.
        let end = n.min(done + CHUNK);
        out.reserve(6 * (end - done) + 128);
        let base = out.spare_capacity_mut().as_mut_ptr() as *mut u8;
        let mut written = 0;
        let mut stop = false;
        if ascii {
            // SAFETY: `src` is readable up to `end` (≤ n), and `base` has the room
            // reserved above: 6 bytes for each code point to `end` and 128 more, where
            // these take 1 each.
            (done, written) = unsafe { encode_ascii64(src, done, end, base, written) };
        }
        while done + 16 <= end {
            // SAFETY: `written` ≤ 6 × the code points of this chunk so far, so `dst`
            // has the 128 bytes a step stores (see above).
            let dst = unsafe { base.add(written) };
            prefetch(src, done, 32);
            if done + 32 <= end {
                // SAFETY: done + 32 <= n: 2 × 16 code points.
                let (a, b) = unsafe {
                    (
                        _mm512_loadu_si512(src.add(done).cast()),
                        _mm512_loadu_si512(src.add(done + 16).cast()),
                    )
                };
                // SAFETY: `dst` has 128 bytes of room.
                if let Some(w) = unsafe { encode32(a, b, dst) } {
                    written += w;
                    done += 32;
                    ascii = w == 32;
                    if ascii {
                        // ASCII: on 64 at a time while it lasts.
                        // SAFETY: as above, for each step of 64.
                        (done, written) = unsafe { encode_ascii64(src, done, end, base, written) };
                    }
                    continue;
                }
                ascii = false;
                // SAFETY: `dst` has 128 bytes of room.
                let Some(w) = (unsafe { encode16(a, dst) }) else {
                    stop = true;
                    break;
                };
                written += w;
                done += 16;
                // SAFETY: `dst` now has the room of 16 code points less.
                let Some(w) = (unsafe { encode16(b, base.add(written)) }) else {
                    stop = true;
                    break;
                };
                written += w;
                done += 16;
                continue;
            }
            ascii = false;
            // SAFETY: done + 16 <= n.
            let v = unsafe { _mm512_loadu_si512(src.add(done).cast()) };
            // SAFETY: `dst` has 128 bytes of room.
            match unsafe { encode16(v, dst) } {
                Some(w) => written += w,
                None => {
                    stop = true;
                    break;
                }
            }
            done += 16;
        }
        // SAFETY: the first `written` bytes of the spare capacity are the encoding of
        // the code points of this chunk before `done`.
        unsafe { out.set_len(out.len() + written) };
        if stop {
            break;
        }
    }
    done
}

/// Asks for the cache lines of the `n` code points `PREFETCH` after `done` in `src`
/// (which may be past its end: a prefetch never faults). The hardware prefetcher
/// alone leaves the encoders waiting for their input (4 bytes a code point) at
/// 1 MiB: with this, CJK and Latin text encode 15–25% faster there.
#[target_feature(enable = "avx512f")]
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
const PREFETCH: usize = 256;

/// Encodes the ASCII from `done` on, 64 code points at a time, while there are 64
/// before `end` and they are ASCII: the new `done` and `written`.
///
/// # Safety
///
/// `src` must be readable up to `end`; `base + written` writable for 6 bytes per
/// code point from `done` to `end` plus 128.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn encode_ascii64(
    src: *const u32,
    mut done: usize,
    end: usize,
    base: *mut u8,
    mut written: usize,
) -> (usize, usize) {
    while done + 64 <= end {
        // No prefetch here: for a run of ASCII the hardware prefetcher keeps up, and
        // asking for the lines 1 KiB ahead as well cost a fifth of the speed at 1 MiB
        // (Zen 4, `avx2`: 4.3 → 5.5 GB/s without).
        // SAFETY: done + 64 <= end: 4 × 16 code points.
        let v: [__m512i; 4] =
            core::array::from_fn(|k| unsafe { _mm512_loadu_si512(src.add(done + 16 * k).cast()) });
        let any = _mm512_or_si512(_mm512_or_si512(v[0], v[1]), _mm512_or_si512(v[2], v[3]));
        if _mm512_test_epi32_mask(any, _mm512_set1_epi32(!0x7F)) != 0 {
            break;
        }
        // Per 128-bit lane k, the packs give code points 4k–4k+3 of v0, v1, v2, v3
        // in turn; one permutation of dwords puts them in order.
        let bytes = _mm512_packus_epi16(
            _mm512_packus_epi32(v[0], v[1]),
            _mm512_packus_epi32(v[2], v[3]),
        );
        let order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
        let bytes = _mm512_permutexvar_epi32(order, bytes);
        // SAFETY: 64 bytes at base + written, within the room of these 64 code points.
        unsafe { _mm512_storeu_si512(base.add(written).cast(), bytes) };
        done += 64;
        written += 64;
    }
    (done, written)
}

/// For [`encode32`]: output byte 4j + k of code point j (of 16) is byte k of
/// `[first.lo, first.hi, last.hi, last.lo]` of its 16-bit lanes (`first` is the
/// first source, `last` the second, at 64 on).
const fn bmp_layout(half: usize) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut j = 0;
    while j < 16 {
        let lane = 2 * (16 * half + j);
        t[4 * j] = lane as u8;
        t[4 * j + 1] = lane as u8 + 1;
        t[4 * j + 2] = 64 + lane as u8 + 1;
        t[4 * j + 3] = 64 + lane as u8;
        j += 1;
    }
    t
}
static BMP_LAYOUT: [[u8; 64]; 2] = [bmp_layout(0), bmp_layout(1)];

/// Encodes 32 code points at `dst` if each is below U+10000 and has an encoding (no
/// C1 control, no surrogate), so 1, 2 or 3 bytes: the number of bytes written, or
/// `None` (and nothing written). (U+10000 to U+1109F have 3 bytes too, but are
/// rare: they take the 16-lane path.)
///
/// In 16-bit lanes. If every code point has 1 or 2 bytes, each lane becomes
/// `110xxxxx 10xxxxxx` (or the ASCII byte alone), and one `vpcompressb` keeps the
/// low byte of every lane and the high byte of the 2-byte ones. Otherwise, as in
/// simdutf's UTF-16 → UTF-8 (on the raw value, which the 3-byte rows keep within 16
/// bits), for raw `aaaabbbbbbcccccc` `last` holds `[0bcccccc, 10cccccc]` and `first`
/// `[1110aaaa, 110bbbbb]`, or `10bbbbbb` for 3 bytes; a `vpermt2b` per 16 code
/// points lays out `[1110aaaa, 110bbbbb or 10bbbbbb, 10cccccc, ASCII]` in a 32-bit
/// lane, and a `vpcompressb` keeps bytes 0–2, 1–2 or 3 of it.
///
/// # Safety
///
/// `dst` must be writable for 128 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
#[inline]
unsafe fn encode32(a: __m512i, b: __m512i, dst: *mut u8) -> Option<usize> {
    let set = _mm512_set1_epi16;
    if _mm512_test_epi32_mask(_mm512_or_si512(a, b), _mm512_set1_epi32(!0xFFFF)) != 0 {
        return None;
    }
    // 16-bit lanes: per 128-bit lane k, code points 4k–4k+3 of a, then of b; a
    // permutation of qwords puts them in order.
    let v = _mm512_permutexvar_epi64(
        _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7),
        _mm512_packus_epi32(a, b),
    );
    // C1 controls (80–9F) and surrogates (D800–DFFF) have no encoding.
    let c1 = _mm512_cmplt_epu16_mask(_mm512_sub_epi16(v, set(0x80)), set(0x20));
    let surrogate = _mm512_cmpeq_epi16_mask(
        _mm512_and_si512(v, set(0xF800u16 as i16)),
        set(0xD800u16 as i16),
    );
    if c1 | surrogate != 0 {
        return None;
    }
    let one = _mm512_cmplt_epu16_mask(v, set(0x80));
    let one_or_two = _mm512_cmple_epu16_mask(v, set(0x89F));
    if one_or_two == u32::MAX {
        // 32 ASCII code points too: a branch of their own (packed by `vpmovwb`) is
        // one that Latin text mispredicts, and runs of ASCII go 64 at a time anyway.
        let raw = _mm512_mask_sub_epi16(v, !one, v, set(160));
        // `110xxxxx 10xxxxxx`: raw >> 6 in the low byte, the low 6 bits in the high
        // one.
        let encoded = _mm512_or_si512(
            _mm512_ternarylogic_epi32::<0xF8>(
                _mm512_srli_epi16::<6>(raw),
                _mm512_slli_epi16::<8>(raw),
                set(0x3F00),
            ),
            set(0x80C0u16 as i16),
        );
        let encoded = _mm512_mask_mov_epi16(v, !one, encoded);
        // Every low byte, and the high byte where it is not zero (only 2-byte
        // lanes).
        let keep = 0x5555_5555_5555_5555 | _mm512_test_epi8_mask(encoded, set(0xFF00u16 as i16));
        let packed = _mm512_maskz_compress_epi8(keep, encoded);
        // SAFETY: 64 of the 128 writable bytes; the first `keep.count_ones()` are the
        // encoding.
        unsafe { _mm512_storeu_si512(dst.cast(), packed) };
        return Some(keep.count_ones() as usize);
    }
    // Offsets 160, 2208, 4256: 160 from 2 bytes on, 2048 more from 3, 2048 more
    // above the surrogates.
    let raw = _mm512_mask_sub_epi16(v, !one, v, set(160));
    let raw = _mm512_mask_sub_epi16(raw, !one_or_two, raw, set(2048));
    let above = _mm512_cmpge_epu16_mask(v, set(0xE000u16 as i16));
    let raw = _mm512_mask_sub_epi16(raw, above, raw, set(2048));
    // [0bcccccc 10cccccc]: the low byte of each lane twice, masked.
    let dup_even = _mm512_set4_epi32(0x0E0E_0C0C, 0x0A0A_0808, 0x0606_0404, 0x0202_0000);
    let last = _mm512_ternarylogic_epi32::<0xEA>(
        _mm512_shuffle_epi8(raw, dup_even),
        set(0x3F7F),
        set(0x8000u16 as i16),
    );
    // [1110aaaa 110bbbbb], or 10bbbbbb for 3 bytes: raw >> 4 with the 6 bits of b
    // moved up by a multiply-add, and the marks (a 2-byte raw value has bit 11
    // clear).
    let marks = _mm512_mask_mov_epi16(set(0xC0E0u16 as i16), !one_or_two, set(0x80E0u16 as i16));
    let first = _mm512_or_si512(
        _mm512_maddubs_epi16(
            _mm512_and_si512(_mm512_srli_epi16::<4>(raw), set(0x0FFC)),
            set(0x0140),
        ),
        marks,
    );
    let mut written = 0;
    for (half, layout) in BMP_LAYOUT.iter().enumerate() {
        let lanes = _mm512_permutex2var_epi8(first, table(layout), last);
        // Bytes 0–2 for 3 bytes, 1–2 for 2, 3 for 1.
        let (one, one_or_two) = (
            (one >> (16 * half)) as u16,
            (one_or_two >> (16 * half)) as u16,
        );
        let pattern = _mm512_mask_mov_epi32(
            _mm512_set1_epi32(0x00FF_FFFF),
            one_or_two,
            _mm512_set1_epi32(0x00FF_FF00),
        );
        let pattern = _mm512_mask_mov_epi32(pattern, one, _mm512_set1_epi32(0xFF00_0000u32 as i32));
        let keep = _mm512_movepi8_mask(pattern);
        let packed = _mm512_maskz_compress_epi8(keep, lanes);
        // SAFETY: 64 bytes at dst + written, written ≤ 48 (16 code points of at most
        // 3 bytes before): within the 128 writable bytes.
        unsafe { _mm512_storeu_si512(dst.add(written).cast(), packed) };
        written += keep.count_ones() as usize;
    }
    Some(written)
}

/// Encodes 16 code points at `dst`: the number of bytes written, or `None` (nothing
/// written) if one of them has no encoding.
///
/// Each lane becomes the 4-byte form `F0|c0 80|c1 80|c2 80|c3` of its raw value,
/// shifted right by whole bytes for shorter sequences, with its lead mark; one
/// `vpcompressb` then packs the bytes of all 16 lanes together. With a code point
/// of 5 or 6 bytes among them, 8 at a time in 64-bit lanes ([`encode8`]).
///
/// # Safety
///
/// `dst` must be writable for 128 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt")]
#[inline]
unsafe fn encode16(v: __m512i, dst: *mut u8) -> Option<usize> {
    let set = _mm512_set1_epi32;
    // C1 controls, surrogates, and anything of 5 bytes or more (U+2110A0 on; this
    // includes everything out of range) leave the vector path.
    let c1 = _mm512_cmplt_epu32_mask(_mm512_sub_epi32(v, set(0x80)), set(0x20));
    let surrogate = _mm512_cmplt_epu32_mask(_mm512_sub_epi32(v, set(0xD800)), set(0x800));
    let long = _mm512_cmpge_epu32_mask(v, set(0x21_10A0));
    let out_of_range = _mm512_cmpgt_epu32_mask(v, set(corrected::MAX_CODEPOINT as i32));
    if c1 | surrogate | out_of_range != 0 {
        return None;
    }
    if long != 0 {
        // 5- and 6-byte sequences: 8 code points at a time in 64-bit lanes.
        let mut written = 0;
        for half in [_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v)] {
            let (packed, len) = encode8(_mm512_cvtepu32_epi64(half));
            // SAFETY: 64 bytes at dst + written, written ≤ 48 (the first half's
            // encoding): within the 128 writable bytes.
            unsafe { _mm512_storeu_si512(dst.add(written).cast(), packed) };
            written += len;
        }
        return Some(written);
    }
    // The class of each lane: 0 ASCII, 1 two bytes, 2 and 3 three bytes (below
    // and above the surrogates), 4 four bytes.
    let mut class = _mm512_setzero_si512();
    for first in [0xA0, 0x8A0, 0xE000, 0x1_10A0] {
        let k = _mm512_cmpge_epu32_mask(v, set(first));
        class = _mm512_mask_add_epi32(class, k, class, set(1));
    }
    let look = |t: &'static [u32; 16]| _mm512_permutexvar_epi32(class, table(t));
    let raw = _mm512_sub_epi32(v, look(&CLASS_OFFSET));
    // The 4-byte form `F0|c0 80|c1 80|c2 80|c3` (c0 = raw bits 18–20, …, c3 = bits
    // 0–5): one `vpmultishiftqb` takes each 6-bit group into its byte.
    let groups = _mm512_multishift_epi64_epi8(table(&FOUR_GROUPS), raw);
    let four_form =
        _mm512_ternarylogic_epi32::<0xEA>(groups, set(0x3F3F_3F3F), set(0x8080_8080u32 as i32));
    let shifted = _mm512_srlv_epi32(four_form, look(&CLASS_SHIFT));
    let encoded = _mm512_or_si512(shifted, look(&CLASS_MARK));
    let ascii = _mm512_cmplt_epu32_mask(v, set(0x80));
    let encoded = _mm512_mask_mov_epi32(encoded, ascii, v);
    // Byte k of lane j is kept if k < len_j (len in every byte of its lane).
    let keep = _mm512_cmplt_epu8_mask(table(&BYTE_INDEX), look(&CLASS_LEN_BYTES));
    let packed = _mm512_maskz_compress_epi8(keep, encoded);
    // SAFETY: 64 of the 128 writable bytes; the first `keep.count_ones()` (≤ 64)
    // are the encoding.
    unsafe { _mm512_storeu_si512(dst.cast(), packed) };
    Some(keep.count_ones() as usize)
}
