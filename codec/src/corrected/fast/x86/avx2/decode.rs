//! The AVX2 decode kernel: 64-byte ASCII blocks widened in one pass, everything else a
//! stretch at a time, validated and then decoded per step at a sequence boundary `i`,
//! on the 32 bytes from there.
//!
//! ASCII (32 or 16 bytes) is widened directly; 16 two-byte sequences (Latin runs) have a
//! fixed layout and are decoded with multiply-adds; 8 three-byte sequences, or 7 and one
//! ASCII byte among them (CJK text and its newlines), take one step whose `pshufb` is
//! picked by where the ASCII byte is, two such steps at a time with their lengths from
//! scalar loads (so that neither a branch nor the vector work follows the text); 8
//! four-byte sequences, or 7 or 6 and ASCII bytes among them (emoji and spaces), take one
//! step the same way, as two halves of 4 sequences or of 3 and an ASCII byte, each half
//! with its own row. 16 bytes of 1- and 2-byte sequences are decoded at every byte in
//! 16-bit lanes, then the leads' lanes packed by a `pshufb` from a table. Otherwise the
//! leads among the first 16 bytes are taken 8 at a time, and a table indexed by the 8-bit
//! mask of leads gives the `pshufb` that gathers each sequence's bytes into a 32-bit lane
//! (the lead on top). Two multiply-adds pack the 6-bit groups, and a shift and an offset
//! looked up by the lead's top 4 bits give the code point. When a lead of 5 or 6 bytes is
//! among them, a second `pshufb` gathers the last 2 bytes of each sequence and the length
//! is counted with compares. The transcoders use the gather table and the lane decoding
//! too.

use super::vector::{self, table8};
use crate::corrected::fast::kernel::Decoded;
use crate::corrected::fast::x86::CacheAligned;
use crate::corrected::fast::{is_continuation, portable, restart_point};
use core::arch::x86_64::*;

/// `GATHER[m][h]`: for the leads of an 8-byte stretch (bit p of `m`: a lead at byte p),
/// the `pshufb` control that puts leads 4h to 4h + 3 and the 3 bytes after each into
/// 32-bit lanes, the lead in the top byte; lanes past the last lead are zero.
pub(super) static GATHER: CacheAligned<[[[u8; 16]; 2]; 256]> = CacheAligned({
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
});

/// By the lead's top 4 bits, sign-extended and capped at 0 (0 for ASCII; 4, 5 for
/// `C0–DF`; 6 for `E0–EF`; 7 for `F0–F7`, in the low 3 bits): how far to shift
/// `w = lead << 18 | c1 << 12 | c2 << 6 | c3` right to drop the bytes after the sequence,
/// and what to add (wrapping) to take the lead's marker bits off and add the row offset.
pub(super) static DECODE_SHR: [u32; 8] = [18, 0, 0, 0, 12, 12, 6, 0];
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

/// 3-byte code points from raw `CF60` (U+D800) on skip the surrogates: 2048 more.
/// `cp` holds code points of up to 4 bytes, before that correction.
#[target_feature(enable = "avx2,popcnt")]
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
#[target_feature(enable = "avx2,popcnt")]
#[inline]
pub(super) fn decode_lanes(lanes: __m256i) -> __m256i {
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
#[target_feature(enable = "avx2,popcnt")]
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

/// A row of [`THREE`]: a step of 8 three-byte sequences, or of 7 and an ASCII byte.
/// A step's lead mask `m` (bit k: byte k starts a sequence) matches when `m & mask ==
/// leads`; `control` is the `pshufb` that puts each sequence into a 32-bit lane (lead
/// << 16 | c1 << 8 | c2, an ASCII byte as itself) from bytes 0–15 in the low half and
/// 8–23 in the high half; `offset` is what to add per lane (none for ASCII).
#[repr(C, align(32))]
struct ThreeRow {
    control: [u8; 32],
    offset: [u32; 8],
    mask: u32,
    leads: u32,
}

/// `THREE[p]`, by the position `p` of the first ASCII byte (24 for none in bytes 0–23):
/// for `p` a multiple of 3 up to 21, the step of 7 three-byte sequences with the ASCII
/// byte among them as the `p / 3`-th (22 bytes, the next a lead); for 24, 8 three-byte
/// sequences (24 bytes, the next a lead); for the others, a row no lead mask matches
/// (an ASCII byte there is not between two 3-byte sequences). The step's length is not
/// kept here: [`decode_valid`] takes it from [`all_high`].
static THREE: [ThreeRow; 25] = {
    let mut t = [const {
        ThreeRow {
            control: [0x80; 32],
            offset: [0; 8],
            mask: 0,
            leads: u32::MAX,
        }
    }; 25];
    let mut p = 0;
    while p < 25 {
        if p % 3 == 0 {
            let ascii = if p == 24 { 8 } else { p / 3 };
            let mut row = ThreeRow {
                control: [0x80; 32],
                offset: [2_208; 8],
                mask: if ascii == 8 { 0x1FF_FFFF } else { 0x7F_FFFF },
                leads: 0,
            };
            let (mut j, mut at) = (0, 0);
            while j < 8 {
                // The lane's byte in the window: half j / 4 starts at byte 8.
                let (lane, base) = (4 * (j % 4) + 16 * (j / 4), 8 * (j / 4));
                row.leads |= 1 << at;
                if j == ascii {
                    row.offset[j] = 0;
                    row.control[lane] = (at - base) as u8;
                    at += 1;
                } else {
                    row.control[lane] = (at + 2 - base) as u8;
                    row.control[lane + 1] = (at + 1 - base) as u8;
                    row.control[lane + 2] = (at - base) as u8;
                    at += 3;
                }
                j += 1;
            }
            row.leads |= 1 << at;
            t[p] = row;
        }
        p += 1;
    }
    t
};

/// The row of [`THREE`] for a step whose bytes above 7F are the bits of `high`.
#[inline]
fn three_row(high: u32) -> &'static ThreeRow {
    &THREE[((!high).trailing_zeros() as usize).min(24)]
}

/// Whether the `8 * WORDS` bytes at `p` are all above 7F (from scalar loads: their
/// latency is what the next step's address waits on).
///
/// # Safety
///
/// `p .. p + 8 * WORDS` must be readable.
#[inline]
unsafe fn all_high<const WORDS: usize>(p: *const u8) -> bool {
    let mut and = u64::MAX;
    for k in 0..WORDS {
        // SAFETY: p + 8k .. p + 8k + 8 is readable, k < WORDS.
        and &= unsafe { p.add(8 * k).cast::<u64>().read_unaligned() };
    }
    and & 0x8080_8080_8080_8080 == 0x8080_8080_8080_8080
}

/// Decodes the step `row` says is at `p`: 8 sequences of 3 bytes, or 7 and one ASCII
/// byte, into the 8 lanes at `dst`. Each sequence's lane, from the row's `pshufb`, is
/// packed as (lead & 0F) << 12 | (c1 & 3F) << 6 | (c2 & 7F) (a continuation byte's bit
/// 6 is 0, so the mask keeps the 7 bits of an ASCII byte and 6 of any other), plus the
/// row's offset.
///
/// # Safety
///
/// `p .. p + 24` must be readable and `dst` writable for 8 lanes.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn three8(p: *const u8, row: &ThreeRow, dst: *mut u32) {
    // SAFETY: p .. p + 24 is readable; two 32-byte fields of an aligned row.
    let (window, control, offset) = unsafe {
        (
            _mm256_loadu2_m128i(p.add(8).cast(), p.cast()),
            _mm256_load_si256(row.control.as_ptr().cast()),
            _mm256_load_si256(row.offset.as_ptr().cast()),
        )
    };
    let lanes = _mm256_shuffle_epi8(window, control);
    let bits = _mm256_and_si256(lanes, _mm256_set1_epi32(0x000F_3F7F));
    let cp = _mm256_madd_epi16(
        _mm256_maddubs_epi16(bits, _mm256_set1_epi32(0x0001_4001)),
        _mm256_set1_epi32(0x1000_0001),
    );
    // SAFETY: 8 lanes at dst.
    unsafe { _mm256_storeu_si256(dst.cast(), skip_surrogates(_mm256_add_epi32(cp, offset))) };
}

/// A row of [`FOUR_HALF`]: half a step, 4 four-byte sequences or 3 and an ASCII byte,
/// as [`ThreeRow`] is a step of 3-byte ones.
#[repr(C, align(16))]
struct FourHalfRow {
    control: [u8; 16],
    offset: [u32; 4],
    mask: u64,
    leads: u64,
}

/// `FOUR_HALF[p]`, by the position `p` of the first ASCII byte (16 for none in bytes
/// 0–15): for `p` a multiple of 4 up to 12, 3 four-byte sequences with the ASCII byte
/// as the `p / 4`-th (13 bytes, the next a lead); for 16, 4 four-byte sequences (16
/// bytes, the next a lead); for the others, a row no lead mask matches.
static FOUR_HALF: [FourHalfRow; 17] = {
    let mut t = [const {
        FourHalfRow {
            control: [0x80; 16],
            offset: [0; 4],
            mask: 0,
            leads: u64::MAX,
        }
    }; 17];
    let mut p = 0;
    while p < 17 {
        if p % 4 == 0 {
            let ascii = p / 4;
            let mut row = FourHalfRow {
                control: [0x80; 16],
                offset: [69_792; 4],
                mask: if ascii == 4 { 0x1_FFFF } else { 0x3FFF },
                leads: 0,
            };
            if ascii < 4 {
                row.offset[ascii] = 0;
            }
            let (mut j, mut at) = (0, 0);
            while j < 4 {
                row.leads |= 1 << at;
                if j == ascii {
                    row.control[4 * j] = at as u8;
                    at += 1;
                } else {
                    let mut b = 0;
                    while b < 4 {
                        row.control[4 * j + b] = (at + 3 - b) as u8;
                        b += 1;
                    }
                    at += 4;
                }
                j += 1;
            }
            row.leads |= 1 << at;
            t[p] = row;
        }
        p += 1;
    }
    t
};

/// `SHORT_GATHER[m]`: the `pshufb` control that packs the 16-bit lanes j of 8 where bit
/// j of `m` is set; the others are zero.
static SHORT_GATHER: CacheAligned<[[u8; 16]; 256]> = CacheAligned({
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
});

/// Decodes the sequences of 1 or 2 bytes whose leads are in the 16 bytes at `p` (bit k
/// of `leads`: byte k is a lead) into `dst`: the number of code points. Every byte is
/// decoded in a 16-bit lane as if it were a lead, with the byte after it; the lanes of
/// the leads are then packed, 8 lanes at a time.
///
/// # Safety
///
/// `p .. p + 17` must be readable and `dst` writable for 16 lanes.
#[target_feature(enable = "avx2,popcnt")]
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

/// Bytes validated and then decoded at a time: small enough that the decoder reads them
/// again from the first-level cache, large enough that a stretch's ends cost little.
const STRETCH: usize = 16384;

/// Input length from which [`decode_valid`] asks for the next stretch's lines while it
/// decodes this one (one prefetch per step, [`STRETCH`] bytes ahead): from the third-level
/// cache the validator otherwise waits for each of them. At 1 MiB (Zen 4, `avx2`) CJK
/// went from 3.2 to 3.4 GB/s, emoji from 2.2 to 2.35; at 64 KiB, whose stretches are
/// mostly in the second-level cache already, the prefetches cost CJK 3 to 20 %, so they
/// are left out below this length. From the same length each step also asks for the
/// output's line [`OUTPUT_AHEAD`] lanes on.
const PREFETCH_FROM: usize = 256 << 10;

/// How far ahead of the stores (in lanes: 1 KiB) [`decode_valid`] prefetches the output
/// from [`PREFETCH_FROM`] on. At 1 MiB (Zen 4, `avx2`, the two builds in turn, 4
/// processes each, quiet): CJK 3.51–3.52 → 3.61–3.62 GB/s, emoji 2.33–2.35 → 2.40–2.41,
/// Latin 2.56 → 2.60–2.61, mixed 1.97–1.98 → 2.03–2.04; 256 bytes to 4 KiB ahead gave
/// about the same. A few percent: what holds this decoder at 1 MiB is the branch
/// predictor on text it has not learned (codec/PERFORMANCE.md), not the memory.
const OUTPUT_AHEAD: usize = 256;

/// The decode kernel, in one pass where the text is ASCII: a 64-byte ASCII block at a
/// sequence boundary is valid whatever follows, so it is widened as it is checked
/// (simdutf's shape). Anything else goes a stretch of up to [`STRETCH`] bytes at a time,
/// ending at a sequence boundary: the validator checks it, then the vector steps decode
/// it while it is in the cache (the portable decoder its last few bytes), then ASCII
/// blocks again. Stops where fewer than 64 bytes or the room of 64 code points are
/// left.
///
/// # Safety
///
/// The CPU must have AVX2 and POPCNT (the AVX2 level asks for both).
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn decode(bytes: &[u8], out: &mut [u32]) -> Decoded {
    let len = bytes.len();
    let ptr = bytes.as_ptr();
    let (mut i, mut o) = (0, 0);
    while i + 64 <= len && out.len() - o >= 64 {
        // SAFETY: i + 64 <= len.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(ptr.add(i).cast()),
                _mm256_loadu_si256(ptr.add(i + 32).cast()),
            )
        };
        if _mm256_movemask_epi8(_mm256_or_si256(a, b)) == 0 {
            // SAFETY: the 64 bytes at i, and 64 lanes from o: out.len() - o >= 64.
            unsafe { widen64(ptr.add(i), out[o..o + 64].as_mut_ptr()) };
            i += 64;
            o += 64;
            continue;
        }
        // A stretch from `i` (a sequence boundary: everything before is decoded) to a
        // sequence boundary, if the input is valid; if it is not, the validator says so
        // within the stretch, or the stretch ends early and the next one starts there.
        let end = restart_point(bytes, (i + STRETCH).min(len));
        // SAFETY: the caller's contract.
        let valid = unsafe { vector::validate(&bytes[i..end]) };
        if valid < end - i {
            return Decoded::Invalid(i + valid);
        }
        // SAFETY: the caller's contract; bytes[i..end] is valid.
        (i, o) = unsafe { decode_valid(bytes, out, i, o, end) };
        if i < end {
            // Its last bytes, fewer than 32 (or where the room ends: then the finishing
            // code says so).
            match portable::decode(&bytes[i..end], &mut out[o..]) {
                Ok(n) => (i, o) = (end, o + n),
                Err(_) => break,
            }
        }
    }
    Decoded::Upto {
        read: i,
        written: o,
    }
}

/// Widens the 64 ASCII bytes at `p` to the 64 lanes at `dst`: 8 bytes loaded straight
/// into each widening (no shuffle to extract them).
///
/// # Safety
///
/// `p .. p + 64` must be readable and `dst` writable for 64 lanes.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn widen64(p: *const u8, dst: *mut u32) {
    for k in 0..8 {
        // SAFETY: 8 bytes at p + 8k and 8 lanes at dst + 8k, k < 8.
        unsafe {
            let eight = _mm_loadl_epi64(p.add(8 * k).cast());
            _mm256_storeu_si256(dst.add(8 * k).cast(), _mm256_cvtepu8_epi32(eight));
        }
    }
}

/// Decodes the sequences of `bytes`, which the validator has accepted from `i` to `end`
/// (a sequence boundary), into `out` from `o` while a step's 32 bytes are before `end`,
/// 64 bytes are left and the room of 32 code points: the input and output positions
/// reached (a sequence boundary). (On input that is not valid the result is wrong, but
/// every read and write stays in bounds.)
///
/// # Safety
///
/// The CPU must have AVX2 and POPCNT (the AVX2 level asks for both).
#[target_feature(enable = "avx2,popcnt")]
unsafe fn decode_valid(
    bytes: &[u8],
    out: &mut [u32],
    mut i: usize,
    mut o: usize,
    end: usize,
) -> (usize, usize) {
    let len = bytes.len();
    let far = len >= PREFETCH_FROM;
    let ptr = bytes.as_ptr();
    // Each step reads up to 64 bytes from `i` (the lead mask needs byte 32) and writes
    // up to 32 lanes from `o`; it decodes the sequences that start in its first 32
    // bytes, which are before `end`, so they were validated (a stretch is whole
    // sequences).
    // The last step starts at most 32 bytes before `end` and 64 before the input's end.
    let Some(last) = end.checked_sub(32).map(|e| e.min(len.saturating_sub(64))) else {
        return (i, o);
    };
    while i <= last && out.len() - o >= 32 {
        // SAFETY: i + 32 <= len.
        let v = unsafe { _mm256_loadu_si256(ptr.add(i).cast()) };
        if far {
            // `_mm_prefetch` is an unsafe function up to Rust 1.89 (the MSRV) and safe after.
            #[allow(unused_unsafe)]
            // SAFETY: a prefetch is a hint: it never faults and reads nothing into the
            // program, whatever the address (the CPU is checked by `target_feature`).
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(ptr.wrapping_add(i + STRETCH).cast());
                _mm_prefetch::<_MM_HINT_T0>(out.as_ptr().wrapping_add(o + OUTPUT_AHEAD).cast());
            }
        }
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
        if leads == 0x5555_5555 && !is_continuation(bytes[i + 32]) {
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
        // 8 three-byte sequences, or 7 and one ASCII byte among them (a newline in
        // CJK text): one step for both, so that the branch does not follow the text.
        // The first ASCII byte (at most 24 bytes in) picks the row.
        let row = three_row(high);
        if leads & row.mask == row.leads {
            // SAFETY: i + 24 <= len; out[o..o + 8].
            unsafe { three8(ptr.add(i), row, dst) };
            o += 8;
            // The step's length (24 bytes, or 22 with an ASCII byte), and the next one's
            // if it is such a step too, from the bytes at both places it can start: the
            // position two steps on waits on one chain of scalar loads and selects, not
            // on the vector work nor on a branch that would follow the text. (CJK, 64 KiB,
            // Zen 4: the length from the row 3.3 GB/s, from the step's `movemask` 3.95,
            // from scalar loads a step at a time 4.7, two at a time 5.9; see
            // codec/PERFORMANCE.md.)
            // SAFETY: i + 48 <= len.
            let (h0, h22, h24) = unsafe {
                (
                    all_high::<3>(ptr.add(i)),
                    all_high::<3>(ptr.add(i + 22)),
                    all_high::<3>(ptr.add(i + 24)),
                )
            };
            let j = if h0 { i + 24 } else { i + 22 };
            let hj = if h0 { h24 } else { h22 };
            if j <= last && out.len() - o >= 32 {
                // SAFETY: j + 32 <= len.
                let v = unsafe { _mm256_loadu_si256(ptr.add(j).cast()) };
                let high = _mm256_movemask_epi8(v) as u32;
                let leads =
                    _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(-65))) as u32;
                let row = three_row(high);
                if leads & row.mask == row.leads {
                    // SAFETY: j + 24 <= len; out[o..o + 8].
                    unsafe { three8(ptr.add(j), row, out[o..o + 8].as_mut_ptr()) };
                    o += 8;
                    i = if hj { j + 24 } else { j + 22 };
                    continue;
                }
            }
            i = j;
            continue;
        }
        // 8 four-byte sequences, or 7 or 6 with ASCII bytes among them (emoji and
        // spaces), as two halves of 4 sequences or 3 and one ASCII byte: one branch
        // for a step, whose halves' rows and lengths follow the text without one.
        // After the 3-byte step, so that CJK does not pay for this one's lookups
        // (Latin and the mixed text pay for both).
        // SAFETY: i + 33 <= len.
        let leads64 =
            u64::from(leads) | u64::from(!is_continuation(unsafe { *ptr.add(i + 32) })) << 32;
        let first = &FOUR_HALF[((!high).trailing_zeros() as usize).min(16)];
        let at = if high & 0xFFFF == 0xFFFF { 16 } else { 13 };
        let second = &FOUR_HALF[(((!high) >> at).trailing_zeros() as usize).min(16)];
        if leads64 & first.mask == first.leads && (leads64 >> at) & second.mask == second.leads {
            // SAFETY: i + at + 16 <= i + 32: the bytes of both halves; the rows' fields.
            unsafe {
                let window = _mm256_loadu2_m128i(ptr.add(at).add(i).cast(), ptr.add(i).cast());
                let control = _mm256_loadu2_m128i(
                    second.control.as_ptr().cast(),
                    first.control.as_ptr().cast(),
                );
                let offset = _mm256_loadu2_m128i(
                    second.offset.as_ptr().cast(),
                    first.offset.as_ptr().cast(),
                );
                let lanes = _mm256_shuffle_epi8(window, control);
                let bits = _mm256_and_si256(lanes, _mm256_set1_epi32(0x073F_3F7F));
                let cp = _mm256_madd_epi16(
                    _mm256_maddubs_epi16(bits, _mm256_set1_epi32(0x4001_4001)),
                    _mm256_set1_epi32(0x1000_0001),
                );
                _mm256_storeu_si256(dst.cast(), _mm256_add_epi32(cp, offset));
            }
            // The halves' lengths (16 bytes, or 13 with an ASCII byte) from scalar loads,
            // the second's picked from the bytes at both places it can start, as for
            // the 3-byte step above: emoji at 1 MiB 2.37 → 2.9 GB/s (Zen 4).
            // SAFETY: i + 32 <= len.
            let (h0, h13, h16) = unsafe {
                (
                    all_high::<2>(ptr.add(i)),
                    all_high::<2>(ptr.add(i + 13)),
                    all_high::<2>(ptr.add(i + 16)),
                )
            };
            let j = if h0 { i + 16 } else { i + 13 };
            let hj = if h0 { h16 } else { h13 };
            i = if hj { j + 16 } else { j + 13 };
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
    (i, o)
}
