//! The AVX2 encode kernel, 16 code points at a time while they are below U+10000: ASCII
//! is packed directly (and runs of it 32 at a time); 1- and 2-byte code points are
//! encoded in 16-bit lanes and packed by a `pshufb` from a table per 8 (Latin text, in
//! a loop of its own while it lasts); 1- to 3-byte ones (CJK) are encoded in 16-bit
//! lanes as in simdutf's UTF-16 → UTF-8 (on the raw value, which the 3-byte rows keep
//! within 16 bits) and packed by a `pshufb` from a table per 4, in a loop of their own
//! while they last. Otherwise 8 at a time: each code point's class (by compares) gives
//! its row offset, its bytes are built in a 32-bit lane, and a table indexed by the
//! four lengths of each 128-bit half gives the `pshufb` that packs them. Blocks with a
//! code point of 5 or 6 bytes are encoded 4 at a time in 64-bit lanes; the kernel stops
//! before a block with a code point that has no encoding (the portable encoder then
//! finds the exact error). The output is written with a cursor of its own into room
//! reserved per chunk of 256 code points; the lengths of the 16-lane steps are counted
//! with `popcnt`, not looked up, as the next store waits on them. The transcoders use
//! the packing table and the lane encoding too.

use super::chunk::Chunk;
use super::vector::table8;
use crate::corrected;
use crate::corrected::fast::x86::CacheAligned;
use alloc::vec::Vec;
use core::arch::x86_64::*;

/// `COMPACT[x]`: for 4 sequences in 32-bit lanes, whose lengths minus 1 are the 2-bit
/// fields of `x` (lane j in bits 2j, 2j + 1), the `pshufb` control that packs their
/// bytes together; `COMPACT_LEN[x]`, how many bytes that is.
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
pub(super) static COMPACT: CacheAligned<[[u8; 16]; 256]> = CacheAligned(compact().0);
pub(super) static COMPACT_LEN: [u8; 256] = compact().1;

/// By class (0 ASCII, 1 two bytes, 2 and 3 three bytes below and above the
/// surrogates, 4 four bytes): the row offset, how far the 4-byte form shifts right in
/// bits, and the marker bits of the lead and of the bytes after it.
pub(super) static ENCODE_OFFSET: [u32; 8] = [0, 160, 2_208, 4_256, 69_792, 0, 0, 0];
pub(super) static ENCODE_SHR: [u32; 8] = [24, 16, 8, 8, 0, 0, 0, 0];
pub(super) static ENCODE_MARK: [u32; 8] = [0, 0x80C0, 0x80_80E0, 0x80_80E0, 0x8080_80F0, 0, 0, 0];

/// The 4-byte form's 6-bit groups c0 c1 c2 c3 of each lane's `raw` (c0 = bits 18 up,
/// …, c3 = bits 0–5) in bytes 0–3, to be shifted right by whole bytes for shorter
/// sequences.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn four_groups(raw: __m256i) -> __m256i {
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
#[inline(always)]
pub(super) fn spread(x: u32) -> u32 {
    let x = (x | x << 4) & 0x0F0F;
    let x = (x | x << 2) & 0x3333;
    (x | x << 1) & 0x5555
}

/// `SHORT_COMPACT[m]`: for 8 sequences of 1 or 2 bytes in 16-bit lanes, the `pshufb`
/// control that packs them (8 bytes plus one for each bit of `m`: the length is counted
/// with `popcnt`, sooner than a table says it). Lane j has 2 bytes if bit 2j (j < 4) or
/// bit 2(j − 4) + 1 (j ≥ 4) of `m` is set: the order in which [`two_byte_lanes`] gathers
/// them from a `movemask`.
const fn short_compact() -> [[u8; 16]; 256] {
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut n, mut j) = (0, 0);
        while j < 8 {
            t[m][n] = 2 * j as u8;
            n += 1;
            let bit = if j < 4 { 2 * j } else { 2 * (j - 4) + 1 };
            if m >> bit & 1 != 0 {
                t[m][n] = 2 * j as u8 + 1;
                n += 1;
            }
            j += 1;
        }
        m += 1;
    }
    t
}
static SHORT_COMPACT: CacheAligned<[[u8; 16]; 256]> = CacheAligned(short_compact());

/// `BMP_COMPACT[m]`: for 4 code points of 1 to 3 bytes encoded in 32-bit lanes as
/// `[ASCII, 10cccccc, 1110aaaa, 110bbbbb or 10bbbbbb]` (see [`encode16`]), where bit
/// 2j of `m` is set if lane j has 1 byte and bit 2j + 1 if it has 1 or 2, the `pshufb`
/// control that packs their bytes: 12 minus the bits set in `m` (each lane's length is
/// 3 minus its two bits; counted with `popcnt`).
const fn bmp_compact() -> [[u8; 16]; 256] {
    let mut t = [[0x80u8; 16]; 256];
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
        m += 1;
    }
    t
}
static BMP_COMPACT: CacheAligned<[[u8; 16]; 256]> = CacheAligned(bmp_compact());

/// `LONG_COMPACT[(n0 − 1) + 6 (n1 − 1)]`: for 2 sequences of n0 and n1 bytes in 64-bit
/// lanes, the `pshufb` control that packs them; `LONG_COMPACT_LEN`, n0 + n1.
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
static LONG_COMPACT: CacheAligned<[[u8; 16]; 36]> = CacheAligned(long_compact().0);
static LONG_COMPACT_LEN: [u8; 36] = long_compact().1;

/// Encodes 4 encodable code points in 64-bit lanes: the bytes of the first two packed
/// in the low half, of the last two in the high half, and how many bytes each half
/// holds.
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

/// Code points per chunk of [`encode`], and the most a step stores past where it starts
/// (see [`Chunk`]).
const CHUNK: usize = 256;
const SLACK: usize = 64;

/// The encode kernel: appends the encoding of `codepoints` to `out` up to the last 7
/// or the first block of 8 with a code point that has no encoding; returns how many it
/// encoded.
///
/// # Safety
///
/// The CPU must have AVX2 and POPCNT (the AVX2 level asks for both).
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn encode(codepoints: &[u32], out: &mut Vec<u8>) -> usize {
    let mut done = 0;
    out.reserve(codepoints.len() + 32);
    while done + 8 <= codepoints.len() {
        // Every step below encodes k code points into at most 6k bytes and stores within
        // SLACK bytes of `at.dst()`: within the chunk's room.
        let mut at = Chunk::new(codepoints, done, CHUNK, out, SLACK);
        let mut stop = false;
        // No software prefetch of the input: the hardware prefetcher keeps up. One per
        // 16 code points, 1 KiB ahead, cost Latin a tenth at 1 MiB (Zen 4: 4.3 → 3.8
        // GB/s) and CJK 2 %. (The AVX-512 encoder keeps its own: without it, emoji at
        // 1 MiB and ASCII at 64 KiB ran slower.)
        while at.has(8) {
            if at.has(16) {
                // SAFETY: 16 code points are left.
                let (a, b) = unsafe { load16(&at) };
                // SAFETY: `at.dst()` has SLACK bytes of room.
                if let Some(w) = unsafe { encode16(a, b, at.dst()) } {
                    at.step(16, w);
                    if w == 16 {
                        // ASCII (or 16 of 1 byte): on 32 at a time while it lasts.
                        // SAFETY: a chunk made with SLACK.
                        unsafe { encode_ascii32(&mut at) };
                    } else if (18..=32).contains(&w) {
                        // At least two code points of 2 bytes, none of 3 (mostly): Latin
                        // text, on 16 at a time while the next are of 1 and 2 bytes too.
                        // (From 17, one accent in text mostly ASCII entered the loop only
                        // to leave it at the next step.)
                        // SAFETY: a chunk made with SLACK.
                        unsafe { encode_short_run(&mut at) };
                    } else if w > 32 {
                        // Mostly 3-byte code points (CJK): on 16 at a time while the next
                        // have one of 3 bytes too.
                        // SAFETY: a chunk made with SLACK.
                        unsafe { encode_bmp_run(&mut at) };
                    }
                    continue;
                }
            }
            // SAFETY: 8 code points are left.
            let v = unsafe { _mm256_loadu_si256(at.src(0).cast()) };
            // SAFETY: `at.dst()` has SLACK bytes of room.
            match unsafe { encode8(v, at.dst()) } {
                Some(w) => at.step(8, w),
                None => {
                    stop = true;
                    break;
                }
            }
        }
        // SAFETY: `out` is the chunk's, and the first `written` bytes of its room are
        // the encoding of the code points of this chunk before `done`.
        done = unsafe { at.finish(out) };
        if stop {
            // A code point without an encoding among these 8: the portable encoder
            // finds the exact error.
            break;
        }
    }
    done
}

/// The next 16 code points of `at`, 8 in each vector.
///
/// # Safety
///
/// `at` must have 16 code points left.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load16(at: &Chunk) -> (__m256i, __m256i) {
    // SAFETY: done + 16 <= end (the caller's promise): 2 × 8 code points.
    unsafe {
        (
            _mm256_loadu_si256(at.src(0).cast()),
            _mm256_loadu_si256(at.src(8).cast()),
        )
    }
}

/// Encodes the ASCII of `at`, 32 code points at a time, while there are 32 left and they
/// are ASCII.
///
/// # Safety
///
/// `at` must have been made with a slack of at least [`SLACK`].
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn encode_ascii32(at: &mut Chunk) {
    while at.has(32) {
        // SAFETY: 32 code points are left: 4 × 8.
        let v: [__m256i; 4] =
            core::array::from_fn(|k| unsafe { _mm256_loadu_si256(at.src(8 * k).cast()) });
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
        // SAFETY: 32 bytes at `at.dst()`, within the room of these 32 code points.
        unsafe { _mm256_storeu_si256(at.dst().cast(), bytes) };
        at.step(32, 32);
    }
}

/// Encodes the code points of `at` 16 at a time while there are 16 left, each below
/// U+10000 with an encoding and at least one of 3 bytes among them (CJK text). A loop of
/// its own, not steps of the general one: the checks CJK never needs (16 ASCII, room for
/// only 8) and the jumps between them stay out (Zen 4, CJK at 1 MiB: 8.5 → 9.1 GB/s; two
/// steps an iteration were no faster).
///
/// # Safety
///
/// As for [`encode_ascii32`].
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn encode_bmp_run(at: &mut Chunk) {
    while at.has(16) {
        // SAFETY: 16 code points are left.
        let (a, b) = unsafe { load16(at) };
        let Some((v, one_or_two, m12)) = bmp_lanes(a, b) else {
            break;
        };
        if m12 == u32::MAX {
            break;
        }
        // SAFETY: 64 bytes at `at.dst()`, within the room of these 16 code points.
        match unsafe { encode16_bmp(v, one_or_two, m12, at.dst()) } {
            Some(w) => at.step(16, w),
            None => break,
        }
    }
}

/// Encodes the code points of `at` 16 at a time while there are 16 left, each below
/// U+800 with an encoding and at least one of 2 bytes among them (Latin text). A loop of
/// its own, as [`encode_bmp_run`]: the general step checks for 16 ASCII, for code points
/// above U+FFFF and then of 3 bytes before it gets to these (Zen 4, Latin at 64 KiB: 5.3
/// → 6.3 GB/s). It leaves at 16 ASCII, which the general loop goes on with 32 at a time:
/// text mostly ASCII with an accent here and there ran at 0.6 of its speed in this loop.
///
/// # Safety
///
/// As for [`encode_ascii32`].
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn encode_short_run(at: &mut Chunk) {
    while at.has(16) {
        // SAFETY: 16 code points are left.
        let (a, b) = unsafe { load16(at) };
        // `!= 1`, not `== 0` (the same test): a mutant of this compare and one of the
        // `m2 == 0` below then have names of their own (.cargo/mutants-equivalent.txt).
        if _mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi32(!0x7FF)) != 1 {
            break;
        }
        let Some((v, two, m2)) = short_lanes(_mm256_packus_epi32(a, b)) else {
            break;
        };
        if m2 == 0 {
            break;
        }
        // SAFETY: 64 bytes at `at.dst()`, within the room of these 16 code points.
        let w = unsafe { encode16_short(v, two, m2, at.dst()) };
        at.step(16, w);
    }
}

/// The rows of [`SHORT_COMPACT`] for the low and the high 8 of 16 lanes, from the
/// `movemask` of their 2-byte mask (2 bits per lane): the even bits, lanes 4–7 of each
/// 8 placed between those of lanes 0–3 (one shift and one mask fewer than in order).
#[inline(always)]
fn two_byte_lanes(mask: u32) -> (usize, usize) {
    let even = mask & 0x5555_5555;
    let rows = (even | even >> 7) & 0x00FF_00FF;
    ((rows & 0xFF) as usize, (rows >> 16) as usize)
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
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn encode16(a: __m256i, b: __m256i, dst: *mut u8) -> Option<usize> {
    if _mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi32(!0x7F)) == 1 {
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
    let (v, one_or_two, m12) = bmp_lanes(a, b)?;
    if m12 == u32::MAX {
        let (v, two, m2) = short_lanes(v)?;
        // SAFETY: as for this function.
        return Some(unsafe { encode16_short(v, two, m2, dst) });
    }
    // SAFETY: as for this function.
    unsafe { encode16_bmp(v, one_or_two, m12, dst) }
}

/// For 16 code points, 8 in each of `a` and `b`: `None` if one is above U+FFFF; else
/// them in 16-bit lanes in the order [a0–3 b0–3 | a4–7 b4–7], a mask of −1 in the lanes
/// below U+8A0 (1 or 2 bytes, or a C1 control) and its `movemask`.
#[target_feature(enable = "avx2")]
#[inline]
fn bmp_lanes(a: __m256i, b: __m256i) -> Option<(__m256i, __m256i, u32)> {
    if _mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi32(!0xFFFF)) == 0 {
        return None;
    }
    let v = _mm256_packus_epi32(a, b);
    let one_or_two = _mm256_cmpeq_epi16(_mm256_min_epu16(v, _mm256_set1_epi16(0x89F)), v);
    let m12 = _mm256_movemask_epi8(one_or_two) as u32;
    Some((v, one_or_two, m12))
}

/// For 16 code points below U+8A0 in 16-bit lanes in the order [a0–3 b0–3 | a4–7
/// b4–7] (a `packus` of two vectors): the lanes in order, −1 in those of 2 bytes and its
/// `movemask`; `None` if one is a C1 control (neither ASCII nor of 2 bytes). Every lane
/// is below U+8A0, so signed compares are right.
#[target_feature(enable = "avx2")]
#[inline]
fn short_lanes(v: __m256i) -> Option<(__m256i, __m256i, u32)> {
    let set = _mm256_set1_epi16;
    let v = _mm256_permute4x64_epi64::<0xD8>(v);
    let two = _mm256_cmpgt_epi16(v, set(0x9F));
    let ascii = _mm256_cmpgt_epi16(set(0x80), v);
    let m2 = _mm256_movemask_epi8(two) as u32;
    if m2 | _mm256_movemask_epi8(ascii) as u32 != u32::MAX {
        return None;
    }
    Some((v, two, m2))
}

/// Encodes 16 code points of 1 or 2 bytes at `dst`: the number of bytes written. `v`
/// holds them in 16-bit lanes in order, `two` is −1 in the lanes of 2 bytes and `m2` its
/// `movemask`; every lane of `v` is ASCII or of 2 bytes (no C1 control).
///
/// # Safety
///
/// `dst` must be writable for 64 bytes.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn encode16_short(v: __m256i, two: __m256i, m2: u32, dst: *mut u8) -> usize {
    let set = _mm256_set1_epi16;
    // `110xxxxx 10xxxxxx` in 16-bit lanes (the lead in the low byte), packed by `pshufb`s
    // from a table per 8. The row offset (160) is taken from every lane: the ASCII ones
    // are blended back from `v`.
    let raw = _mm256_sub_epi16(v, set(160));
    let encoded = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_srli_epi16::<6>(raw),
            _mm256_and_si256(_mm256_slli_epi16::<8>(raw), set(0x3F00)),
        ),
        set(0x80C0u16 as i16),
    );
    let encoded = _mm256_blendv_epi8(v, encoded, two);
    let (m_lo, m_hi) = two_byte_lanes(m2);
    // SAFETY: two 16-byte rows of `SHORT_COMPACT`.
    let control = unsafe {
        _mm256_loadu2_m128i(
            SHORT_COMPACT[m_hi].as_ptr().cast(),
            SHORT_COMPACT[m_lo].as_ptr().cast(),
        )
    };
    let packed = _mm256_shuffle_epi8(encoded, control);
    // 8 bytes and one more per 2-byte lane, counted (see the 3-byte step below).
    let len_lo = 8 + m_lo.count_ones() as usize;
    // SAFETY: 16 bytes at `dst` and 16 at dst + len_lo ≤ dst + 16: within the 64.
    unsafe {
        _mm_storeu_si128(dst.cast(), _mm256_castsi256_si128(packed));
        _mm_storeu_si128(
            dst.add(len_lo).cast(),
            _mm256_extracti128_si256::<1>(packed),
        );
    }
    len_lo + 8 + m_hi.count_ones() as usize
}

/// Encodes 16 code points below U+10000 at `dst`, at least one of them of 3 bytes, if
/// each has an encoding: the number of bytes written, or `None` (nothing written). `v`
/// holds them in 16-bit lanes in the order [a0–3 b0–3 | a4–7 b4–7], `one_or_two` is
/// −1 in the lanes below U+8A0 and `m12` its `movemask` (see [`encode16`]).
///
/// # Safety
///
/// `dst` must be writable for 64 bytes.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn encode16_bmp(v: __m256i, one_or_two: __m256i, m12: u32, dst: *mut u8) -> Option<usize> {
    let set = _mm256_set1_epi16;
    // C1 controls (80–9F) and surrogates (D800–DFFF) have no encoding.
    let c1 = _mm256_cmpeq_epi16(_mm256_and_si256(v, set(0xFFE0u16 as i16)), set(0x80));
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
        // Counted, not looked up: the next store waits on this length, and `popcnt` has
        // it several cycles before a table load would (Zen 4, CJK at 64 KiB: from
        // 0.94-0.99x of simdutf to a median of 1.07x; codec/PERFORMANCE.md).
        written += 12 - x.count_ones() as usize;
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
