//! AVX2 transcoding between Corrected UTF-8 and UTF-8, a stretch of up to 16 KiB at a
//! time: validated (Corrected UTF-8 with the validator, UTF-8 with [`utf8_is_valid`]) and
//! then converted while it is in the cache, without a UTF-32 buffer; each loop stops
//! exactly before the first code point that has no encoding in the target. The output of
//! 1 KiB of input is reserved at once and written with a cursor.
//!
//! Per step at a sequence boundary, on the 32 bytes from there:
//!
//! - ASCII: copied.
//! - 1- to 3-byte sequences only (Latin and CJK text, and both with ASCII), when no
//!   length changes: converted in place, byte by byte, each byte's role told by its
//!   neighbours. The rows differ by whole 6-bit groups plus carries: 2-byte by
//!   160 = 2 · 64 + 32, so the last byte flips bit 5 and the lead adds (or takes) 2, and
//!   1 more where that flip carries (or borrows); 3-byte by 2208 = 34 · 64 + 32 (4256 =
//!   4096 + 2 · 64 + 32 past the surrogates), so the middle byte adds or takes 34 (or 2)
//!   and the carry, and the lead the carry (and 1).
//! - 8 three-byte sequences (CJK) in 24 bytes, and 8 more in the next 24 when they are
//!   there too, or 8 four-byte ones (emoji) in 32: fixed layouts, each sequence into a
//!   32-bit lane, decoded with multiply-adds, the row offset added or taken off,
//!   re-encoded in the lane and the lanes packed by a fixed `pshufb`, when every code
//!   point keeps its length.
//! - Otherwise the sequences that start in the first 16 bytes, 8 at a time, gathered into
//!   32-bit lanes by the decoder's `pshufb` table, decoded there, re-encoded in the lanes
//!   (the 4-byte form's 6-bit groups shifted right by whole bytes for shorter ones) and
//!   packed by the encoder's table indexed by the lengths.
//! - A step with a code point that has no encoding in the target (or, Corrected UTF-8, a
//!   lead of 5 or 6 bytes) goes to the portable converter for its 16 bytes, which stops
//!   exactly there.

use super::decode::{decode_lanes, DECODE_SHR, GATHER};
use super::encode::{
    four_groups, spread, COMPACT, COMPACT_LEN, ENCODE_MARK, ENCODE_OFFSET, ENCODE_SHR,
};
use super::vector::{self, table8, Avx2};
use crate::corrected::fast::simd::{self, ByteVector};
use crate::corrected::fast::{is_continuation, portable, restart_point};
use crate::utf8;
use alloc::vec::Vec;
use core::arch::x86_64::*;

/// By UTF-8 length − 1: how far the 4-byte form shifts right in bits, and the marker
/// bits of the lead and of the bytes after it.
static UTF8_SHR: [u32; 8] = [24, 16, 8, 0, 0, 0, 0, 0];
static UTF8_MARK: [u32; 8] = [0, 0x80C0, 0x80_80E0, 0x8080_80F0, 0, 0, 0, 0];
/// By the lead's top 4 bits as in the decoder's `DECODE_ADJUST`, for UTF-8: what to add
/// (wrapping) to take the lead's marker bits off.
static UTF8_ADJUST: [u32; 8] = [
    0,
    0,
    0,
    0,
    0u32.wrapping_sub(0xC0 << 6),
    0u32.wrapping_sub(0xC0 << 6),
    0u32.wrapping_sub(0xE0 << 12),
    0u32.wrapping_sub(0xF0 << 18),
];

/// Output bytes a step may write: 2 × 2 stores of 16 bytes, the second of each pair at
/// most 16 bytes on, the second pair at most 32 bytes on (8 sequences of at most 4
/// bytes before it).
const ROOM: usize = 64;

/// Input bytes per chunk of [`convert`], whose output room it reserves at once.
const CHUNK: usize = 1024;

/// The room of a chunk: its steps read at most `CHUNK + 31` bytes, valid input grows by
/// half at most (a 2-byte Corrected UTF-8 sequence of U+0800 to U+089F is 3 bytes of
/// UTF-8; nothing grows from UTF-8), and the last step stores up to [`ROOM`] bytes.
const CHUNK_ROOM: usize = (CHUNK + 32) * 3 / 2 + ROOM;

/// Bytes validated and then converted at a time: small enough that the converter reads
/// them again from the cache (at 1 MiB a whole validation pass first reads the input
/// twice from memory), large enough that a stretch's ends cost little.
const STRETCH: usize = 16384;

/// The to-UTF-8 kernel: Corrected UTF-8 a stretch at a time, validated (the validate
/// kernel) and then converted to UTF-8, up to the last 63 bytes, the first problem, or
/// the first code point above U+10FFFF; returns how far it got.
///
/// # Safety
///
/// The CPU must have AVX2 and POPCNT (the AVX2 level asks for both).
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn to_utf8(bytes: &[u8], out: &mut Vec<u8>) -> usize {
    // SAFETY: the caller's contract (each time).
    unsafe { by_stretches::<true>(bytes, out, |s| vector::validate(s)) }
}

/// The from-UTF-8 kernel: UTF-8 a stretch at a time, validated ([`utf8_is_valid`], or
/// std's validation where it says no) and then converted to Corrected UTF-8, up to the
/// last 63 bytes, the first problem, or the first C1 control; returns how far it got.
///
/// # Safety
///
/// The CPU must have AVX2 and POPCNT (the AVX2 level asks for both).
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn from_utf8(bytes: &[u8], out: &mut Vec<u8>) -> usize {
    let validate = |s: &[u8]| {
        // SAFETY: the caller's contract.
        if unsafe { utf8_is_valid(s) } {
            s.len()
        } else {
            // Not valid: std's validation, then the first error span by Table 3-7.
            utf8::validate(s).map_or_else(|e| e.offset as usize, |()| s.len())
        }
    };
    // SAFETY: the caller's contract.
    unsafe { by_stretches::<false>(bytes, out, validate) }
}

/// Both kernels: from the start, a stretch of up to [`STRETCH`] bytes that ends at a
/// sequence boundary (if the input is valid; else `validate` finds the problem within
/// it or the next stretch starts there), the prefix `validate` accepts converted by
/// [`convert`]; the next stretch starts where the conversion stopped (the last bytes of
/// a stretch are validated again with the next). Returns where it stopped: before a
/// problem, or the last 63 bytes.
///
/// # Safety
///
/// The CPU must have AVX2 and POPCNT (the AVX2 level asks for both).
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn by_stretches<const TO_UTF8: bool>(
    bytes: &[u8],
    out: &mut Vec<u8>,
    validate: impl Fn(&[u8]) -> usize,
) -> usize {
    let len = bytes.len();
    let mut done = 0;
    loop {
        let end = if len - done <= STRETCH {
            len
        } else {
            restart_point(bytes, done + STRETCH)
        };
        let stretch = &bytes[done..end];
        let valid = validate(stretch);
        // SAFETY: the caller's contract; `stretch[..valid]` is whole valid sequences.
        let reached = unsafe { convert::<TO_UTF8>(&stretch[..valid], out) };
        // Stopped before a problem (a code point without an encoding, or the end of what
        // is valid), or at the end of the input: the finishing code goes on from there.
        if end == len || valid < stretch.len() || reached + 64 <= valid {
            return done + reached;
        }
        done += reached;
    }
}

/// The loop of both directions (`TO_UTF8`: from Corrected UTF-8) on whole valid
/// sequences: converts them up to the last 63 bytes or the first code point without an
/// encoding in the target; returns how far it got.
///
/// # Safety
///
/// The CPU must have AVX2 and POPCNT (the AVX2 level asks for both).
#[target_feature(enable = "avx2,popcnt")]
unsafe fn convert<const TO_UTF8: bool>(valid: &[u8], out: &mut Vec<u8>) -> usize {
    let len = valid.len();
    let ptr = valid.as_ptr();
    let mut i = 0;
    // Each step reads at most 64 bytes from `i` (34 for the in-place step, the byte
    // after the block for the fixed layouts); the portable converter finishes.
    while i + 64 <= len {
        // A chunk: the room of its output reserved at once, written with a cursor.
        let chunk_end = (i + CHUNK).min(len - 63);
        out.reserve(CHUNK_ROOM);
        let base = out.spare_capacity_mut().as_mut_ptr() as *mut u8;
        let mut written = 0;
        let mut stopped = false;
        // While a step's stores (ROOM bytes from where it writes) fit the room. (Valid
        // input grows by half at most, so the chunk's steps always do; the test keeps
        // every store in bounds whatever the input.)
        while i < chunk_end && written <= CHUNK_ROOM - ROOM {
            // SAFETY: written + ROOM <= CHUNK_ROOM: `dst` has ROOM bytes of the spare
            // capacity reserved above.
            let dst = unsafe { base.add(written) };
            // SAFETY: i + 64 <= len (i < chunk_end <= len − 63).
            let (p, v) = unsafe { (ptr.add(i), _mm256_loadu_si256(ptr.add(i).cast())) };
            // SAFETY (for every step below): `p .. p + 64` is in `valid`, and `dst` has
            // ROOM bytes; `set_len` below counts only the bytes the steps report
            // written, all written by then.
            let step = if _mm256_movemask_epi8(v) == 0 {
                // SAFETY: 32 of the ROOM bytes.
                unsafe { _mm256_storeu_si256(dst.cast(), v) };
                Some((32, 32))
            } else {
                // SAFETY: as above; byte i + 32 is in `valid`.
                let cont32 = is_continuation(unsafe { *ptr.add(i + 32) });
                // SAFETY: as above.
                unsafe { vector_step::<TO_UTF8>(v, p, dst, cont32) }
            };
            match step {
                Some((used, w)) => {
                    i += used;
                    written += w;
                }
                None => {
                    stopped = true;
                    break;
                }
            }
        }
        debug_assert!(written <= out.capacity() - out.len());
        // SAFETY: the steps wrote `written` bytes after the length.
        unsafe { out.set_len(out.len() + written) };
        if stopped {
            // A code point without an encoding in the target, or a 5- or 6-byte
            // sequence, among the next 16 bytes: the portable converter, which stops
            // exactly.
            let (j, stopped) = if TO_UTF8 {
                portable::corrected_to_utf8(valid, i, i + 16, out)
            } else {
                portable::utf8_to_corrected(valid, i, i + 16, out)
            };
            if stopped {
                return j;
            }
            i = j;
        }
    }
    i
}

/// One step on the block `v` at `p` (not ASCII), whose byte 32 is a continuation if
/// `cont32`: the input bytes used and the output bytes written, or `None` (nothing
/// counted) if a sequence among them has no vector path.
///
/// # Safety
///
/// `p .. p + 64` must be readable and `dst` writable for [`ROOM`] bytes.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn vector_step<const TO_UTF8: bool>(
    v: __m256i,
    p: *const u8,
    dst: *mut u8,
    cont32: bool,
) -> Option<(usize, usize)> {
    // SAFETY: p .. p + 34 readable, 32 bytes at `dst`.
    if let Some(n) = unsafe { in_place::<TO_UTF8>(v, p, dst) } {
        return Some((n, n));
    }
    // Bit k: byte k is not `80–BF` (signed ≥ −64), i.e. it starts a sequence.
    let leads = _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(-65))) as u32;
    if leads & 0x1FF_FFFF == 0x124_9249 {
        // SAFETY: p .. p + 28 readable, 32 bytes at `dst`.
        if unsafe { three8::<TO_UTF8>(p, dst) } {
            // CJK text: 8 more in the next 24 bytes (and byte 48 a lead), converted in
            // the same step.
            // SAFETY: p + 32 .. p + 64 is readable.
            let next = unsafe { _mm256_loadu_si256(p.add(32).cast()) };
            let next_leads =
                _mm256_movemask_epi8(_mm256_cmpgt_epi8(next, _mm256_set1_epi8(-65))) as u32;
            let leads48 = u64::from(leads) | u64::from(next_leads) << 32;
            let more = leads48 & 0x1_FFFF_FFFF_FFFF == 0x1_2492_4924_9249
                // SAFETY: p + 24 .. p + 52 readable, 28 bytes at dst + 24 (of ROOM = 64).
                && unsafe { three8::<TO_UTF8>(p.add(24), dst.add(24)) };
            return Some(if more { (48, 48) } else { (24, 24) });
        }
    } else if leads == 0x1111_1111 && !cont32 {
        // SAFETY: 32 bytes at `dst`.
        if unsafe { four8::<TO_UTF8>(v, dst) } {
            return Some((32, 32));
        }
    }
    if TO_UTF8 {
        // A lead of 5 or 6 bytes (F8–FD) among the first 16: above U+10FFFF.
        let long = _mm256_subs_epu8(v, _mm256_set1_epi8(0xF7u8 as i8));
        if _mm256_movemask_epi8(_mm256_cmpeq_epi8(long, _mm256_setzero_si256())) as u32 & 0xFFFF
            != 0xFFFF
        {
            return None;
        }
    }
    // SAFETY: p .. p + 24 readable, ROOM bytes at `dst`.
    let written = unsafe { general::<TO_UTF8>(p, leads, dst) }?;
    // On to the first lead from byte 16 on (at most 3 bytes further in valid input
    // without 5- and 6-byte sequences).
    Some((16 + (leads >> 16).trailing_zeros() as usize, written))
}

/// The in-place step: if the 32 bytes of `v` are 1- to 3-byte sequences that keep
/// their lengths, writes their conversion at `dst` and returns how many bytes (32, or
/// up to the end of the last sequence whole in the block; the bytes of one cut there
/// are written and rewritten by the next step).
///
/// A sequence keeps its place, so each byte is converted where it is, with its
/// neighbours (the bytes one and two before, loaded or shifted in, and one and two
/// after) telling its role. The rows' offsets, in 6-bit groups (lead, c1, c2):
/// 2-byte 160 = (2, 32), 3-byte 2208 = (0, 34, 32), and from U+E000 on (Corrected UTF-8
/// raw `CF60`; UTF-8 lead `EE`) 4256 = (1, 2, 32). The last byte of every sequence adds
/// or takes 32 (flips bit 5) and carries or borrows into the byte before; the
/// first continuation of a 3-byte one adds or takes 34 or 2 and that carry or borrow,
/// and carries or borrows into the lead.
///
/// # Safety
///
/// `p .. p + 34` must be readable and `dst` writable for 32 bytes.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn in_place<const TO_UTF8: bool>(v: __m256i, p: *const u8, dst: *mut u8) -> Option<usize> {
    let set = |b: u8| _mm256_set1_epi8(b as i8);
    let gt = _mm256_cmpgt_epi8;
    let and = _mm256_and_si256;
    let or = _mm256_or_si256;
    // Bytes 80–FF in signed order as 00–7F: `x > b ^ 80` is "at least b + 1".
    let x = _mm256_xor_si256(v, set(0x80));
    let at_least = |x: __m256i, b: u8| gt(x, set((b ^ 0x80).wrapping_sub(1)));
    // SAFETY: p + 1 .. p + 34 is readable.
    let (n1, n2) = unsafe {
        (
            _mm256_loadu_si256(p.add(1).cast()),
            _mm256_loadu_si256(p.add(2).cast()),
        )
    };
    // The byte one and two before (byte 0 is a lead: what is before it counts as a
    // continuation, `x` = 0).
    let carried = _mm256_permute2x128_si256::<0x08>(x, x);
    let (x1, x2) = (
        _mm256_alignr_epi8::<15>(x, carried),
        _mm256_alignr_epi8::<14>(x, carried),
    );
    let lead = at_least(x, 0xC0);
    let lead3 = at_least(x, 0xE0);
    let lead2 = _mm256_andnot_si256(lead3, lead);
    let first3 = at_least(x1, 0xE0);
    let last = or(
        _mm256_andnot_si256(first3, at_least(x1, 0xC0)),
        at_least(x2, 0xE0),
    );
    // `n` as a continuation, signed: 80 is −128, A0 −96, BF −65.
    let (converted, bad) = if TO_UTF8 {
        // Continuation A0–BF (bit 5 set) carries.
        let carry = |n: __m256i| gt(n, set(0x9F));
        // A lead `lead` with BD A0 or more after it.
        let from_bd_a0 = |x: __m256i, lead: u8, c1: __m256i, c2: __m256i| {
            and(
                _mm256_cmpeq_epi8(x, set(lead ^ 0x80)),
                or(
                    gt(c1, set(0xBD)),
                    and(_mm256_cmpeq_epi8(c1, set(0xBD)), carry(c2)),
                ),
            )
        };
        // UTF-8 has 3 bytes from U+0800 (Corrected UTF-8 DD A0 on) and 4 from U+10000
        // (raw EF60, EE BD A0, on): a lead DD–DF, EE BD A0 on, or a lead from EF on
        // changes length.
        let bad = or(
            or(at_least(x, 0xEF), from_bd_a0(x, 0xEE, n1, n2)),
            _mm256_andnot_si256(lead3, at_least(x, 0xDD)),
        );
        // Raw CF60 on (lead ED on, or EC BD A0 on) skips the surrogates.
        let high = |x: __m256i, c1: __m256i, c2: __m256i| {
            or(at_least(x, 0xED), from_bd_a0(x, 0xEC, c1, c2))
        };
        // 34, or 2 when high (−1).
        let step = |high: __m256i| _mm256_add_epi8(set(34), and(high, set(0xE0)));
        let high_lead = high(x, n1, n2);
        let c1_sum = _mm256_sub_epi8(_mm256_add_epi8(n1, step(high_lead)), carry(n2));
        let c1_carry = gt(c1_sum, set(0xBF));
        let lead_add = or(
            and(lead2, _mm256_sub_epi8(set(2), carry(n1))),
            and(
                lead3,
                _mm256_sub_epi8(_mm256_setzero_si256(), _mm256_add_epi8(high_lead, c1_carry)),
            ),
        );
        let c1 = _mm256_sub_epi8(_mm256_add_epi8(v, step(high(x1, v, n1))), carry(n1));
        let c1 = _mm256_sub_epi8(c1, and(gt(c1, set(0xBF)), set(64)));
        let rest = _mm256_xor_si256(_mm256_add_epi8(v, lead_add), and(last, set(0x20)));
        (_mm256_blendv_epi8(rest, c1, first3), bad)
    } else {
        // Continuation 80–9F (bit 5 clear) borrows (−1).
        let borrow = |n: __m256i| gt(set(0xA0), n);
        // U+0080–U+009F (C2 80–9F, a C1 control) has no Corrected UTF-8, U+0800–U+089F
        // (E0 A0 80 to E0 A2 9F; the step leaves all of E0 A0–A2 to the others) 2
        // bytes, U+10000 on (F0 on) 4 bytes or 3.
        let bad = or(
            at_least(x, 0xF0),
            or(
                and(_mm256_cmpeq_epi8(v, set(0xC2)), borrow(n1)),
                and(_mm256_cmpeq_epi8(v, set(0xE0)), gt(set(0xA3), n1)),
            ),
        );
        // 34, or 2 from U+E000 (lead EE) on (−1).
        let step = |x: __m256i| _mm256_add_epi8(set(34), and(at_least(x, 0xEE), set(0xE0)));
        let high_lead = at_least(x, 0xEE);
        let c1_diff = _mm256_add_epi8(_mm256_sub_epi8(n1, step(x)), borrow(n2));
        // Borrowed below 80: non-negative.
        let c1_borrow = gt(c1_diff, set(0xFF));
        let lead_add = or(
            and(lead2, _mm256_add_epi8(set(0xFE), borrow(n1))),
            and(lead3, _mm256_add_epi8(high_lead, c1_borrow)),
        );
        let c1 = _mm256_add_epi8(_mm256_sub_epi8(v, step(x1)), borrow(n1));
        let c1 = _mm256_add_epi8(c1, and(gt(c1, set(0xFF)), set(64)));
        let rest = _mm256_xor_si256(_mm256_add_epi8(v, lead_add), and(last, set(0x20)));
        (_mm256_blendv_epi8(rest, c1, first3), bad)
    };
    // Bit k: byte k ends a sequence (byte k + 1 is not a continuation).
    let ends = _mm256_movemask_epi8(gt(n1, set(0xBF))) as u32;
    if _mm256_testz_si256(bad, bad) == 0 || ends == 0 {
        return None;
    }
    // SAFETY: 32 bytes at `dst`.
    unsafe { _mm256_storeu_si256(dst.cast(), converted) };
    Some(32 - ends.leading_zeros() as usize)
}

/// 8 three-byte sequences in the 24 bytes at `p`: if each keeps 3 bytes in the target,
/// writes their conversion (24 bytes) at `dst` and returns `true`.
///
/// # Safety
///
/// `p .. p + 28` must be readable and `dst` writable for 28 bytes.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn three8<const TO_UTF8: bool>(p: *const u8, dst: *mut u8) -> bool {
    let set = _mm256_set1_epi32;
    // Bytes 0–11 and 12–23 in the two halves, each sequence into a lane as
    // lead << 16 | c1 << 8 | c2.
    // SAFETY: p .. p + 28 is readable.
    let halves = unsafe { _mm256_loadu2_m128i(p.add(12).cast(), p.cast()) };
    let lanes = _mm256_shuffle_epi8(
        halves,
        _mm256_setr_epi8(
            2, 1, 0, -128, 5, 4, 3, -128, 8, 7, 6, -128, 11, 10, 9, -128, 2, 1, 0, -128, 5, 4, 3,
            -128, 8, 7, 6, -128, 11, 10, 9, -128,
        ),
    );
    let bits = _mm256_and_si256(lanes, set(0x000F_3F3F));
    let raw = _mm256_madd_epi16(
        _mm256_maddubs_epi16(bits, set(0x0001_4001)),
        set(0x1000_0001),
    );
    let target = if TO_UTF8 {
        // Offset 2208, 2048 more from U+D800 (raw CF60) on; U+10000 on has 4 bytes.
        let cp = _mm256_add_epi32(
            _mm256_add_epi32(raw, set(2_208)),
            _mm256_and_si256(_mm256_cmpgt_epi32(raw, set(0xCF5F)), set(2048)),
        );
        if _mm256_testz_si256(cp, set(!0xFFFF)) == 0 {
            return false;
        }
        cp
    } else {
        // Below U+08A0 has 2 bytes in Corrected UTF-8.
        let short = _mm256_cmpgt_epi32(set(0x8A0), raw);
        if _mm256_testz_si256(short, short) == 0 {
            return false;
        }
        let offset = _mm256_add_epi32(
            set(2_208),
            _mm256_and_si256(_mm256_cmpgt_epi32(raw, set(0xDFFF)), set(2048)),
        );
        _mm256_sub_epi32(raw, offset)
    };
    // 1110aaaa 10bbbbbb 10cccccc, in memory order.
    let encoded = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_srli_epi32::<12>(target),
            _mm256_and_si256(_mm256_slli_epi32::<2>(target), set(0x3F00)),
        ),
        _mm256_or_si256(
            _mm256_and_si256(_mm256_slli_epi32::<16>(target), set(0x3F_0000)),
            set(0x80_80E0),
        ),
    );
    let packed = _mm256_shuffle_epi8(
        encoded,
        _mm256_setr_epi8(
            0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -128, -128, -128, -128, 0, 1, 2, 4, 5, 6, 8, 9,
            10, 12, 13, 14, -128, -128, -128, -128,
        ),
    );
    // SAFETY: 16 bytes at `dst` and 16 at dst + 12: within the 28.
    unsafe {
        _mm_storeu_si128(dst.cast(), _mm256_castsi256_si128(packed));
        _mm_storeu_si128(dst.add(12).cast(), _mm256_extracti128_si256::<1>(packed));
    }
    true
}

/// 8 four-byte sequences in the 32 bytes of `v`: if each keeps 4 bytes in the target,
/// writes their conversion (32 bytes) at `dst` and returns `true`.
///
/// # Safety
///
/// `dst` must be writable for 32 bytes.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn four8<const TO_UTF8: bool>(v: __m256i, dst: *mut u8) -> bool {
    let set = _mm256_set1_epi32;
    // Each sequence into a lane with the lead on top, then
    // (lead & 07) << 18 | (c1 & 3F) << 12 | (c2 & 3F) << 6 | (c3 & 3F).
    let lanes = _mm256_shuffle_epi8(
        v,
        _mm256_setr_epi8(
            3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10,
            9, 8, 15, 14, 13, 12,
        ),
    );
    let bits = _mm256_and_si256(lanes, set(0x073F_3F3F));
    let raw = _mm256_madd_epi16(
        _mm256_maddubs_epi16(bits, set(0x4001_4001)),
        set(0x1000_0001),
    );
    // The 4-byte rows: offset 69 792 (U+110A0) in Corrected UTF-8, none in UTF-8.
    let target = if TO_UTF8 {
        let cp = _mm256_add_epi32(raw, set(69_792));
        if _mm256_movemask_epi8(_mm256_cmpgt_epi32(cp, set(0x10_FFFF))) != 0 {
            return false;
        }
        cp
    } else {
        let target = _mm256_sub_epi32(raw, set(69_792));
        // U+10000 to U+1109F have 3 bytes in Corrected UTF-8.
        if _mm256_movemask_ps(_mm256_castsi256_ps(target)) != 0 {
            return false;
        }
        target
    };
    let encoded = _mm256_or_si256(four_groups(target), set(0x8080_80F0u32 as i32));
    // SAFETY: 32 bytes at `dst`.
    unsafe { _mm256_storeu_si256(dst.cast(), encoded) };
    true
}

/// The sequences that start in the 16 bytes at `p` (bit k of `leads`: byte k starts
/// one), converted at `dst`: the bytes written, or `None` (nothing counted) if one of
/// them has no encoding in the target. Sequences of 1 to 4 bytes only.
///
/// # Safety
///
/// `p .. p + 24` must be readable and `dst` writable for [`ROOM`] bytes.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn general<const TO_UTF8: bool>(p: *const u8, leads: u32, dst: *mut u8) -> Option<usize> {
    let (m_lo, m_hi) = ((leads & 0xFF) as usize, (leads >> 8 & 0xFF) as usize);
    let (n_lo, n_hi) = (m_lo.count_ones() as usize, m_hi.count_ones() as usize);
    // The sequences that start in bytes 0–7 (gathered from bytes 0–15) and in bytes
    // 8–15 (from bytes 8–23), one stretch per 128-bit half, 4 at a time.
    // SAFETY: p .. p + 24 is readable.
    let window = unsafe { _mm256_loadu2_m128i(p.add(8).cast(), p.cast()) };
    let gather = |h: usize| {
        // SAFETY: two 16-byte rows of `GATHER`.
        let control = unsafe {
            _mm256_loadu2_m128i(
                GATHER[m_hi][h].as_ptr().cast(),
                GATHER[m_lo][h].as_ptr().cast(),
            )
        };
        _mm256_shuffle_epi8(window, control)
    };
    if n_lo <= 4 && n_hi <= 4 {
        let (encoded, x_lo, x_hi) = encode_lanes::<TO_UTF8>(decode::<TO_UTF8>(gather(0))?);
        // SAFETY: 32 bytes at `dst`.
        return Some(unsafe { store_lanes(encoded, (x_lo, n_lo), (x_hi, n_hi), dst) });
    }
    let (first, second) = (gather(0), gather(1));
    // Those from bytes 0–7 in `a`, from bytes 8–15 in `b`, in order.
    let a = decode::<TO_UTF8>(_mm256_permute2x128_si256::<0x20>(first, second))?;
    let b = decode::<TO_UTF8>(_mm256_permute2x128_si256::<0x31>(first, second))?;
    let ((ea, xa_lo, xa_hi), (eb, xb_lo, xb_hi)) =
        (encode_lanes::<TO_UTF8>(a), encode_lanes::<TO_UTF8>(b));
    let halves = |n: usize| (n.min(4), n.saturating_sub(4));
    let ((a_lo, a_hi), (b_lo, b_hi)) = (halves(n_lo), halves(n_hi));
    // SAFETY: 32 bytes at `dst`, then 32 at dst + written, written ≤ 32 (8 sequences of
    // at most 4 bytes): within the ROOM = 64.
    unsafe {
        let written = store_lanes(ea, (xa_lo, a_lo), (xa_hi, a_hi), dst);
        Some(written + store_lanes(eb, (xb_lo, b_lo), (xb_hi, b_hi), dst.add(written)))
    }
}

/// The code points of the sequences gathered into 32-bit lanes (the lead on top),
/// `None` if one has no encoding in the target (above U+10FFFF; a C1 control). Unused
/// lanes are zero, and give 0.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn decode<const TO_UTF8: bool>(lanes: __m256i) -> Option<__m256i> {
    let set = _mm256_set1_epi32;
    if TO_UTF8 {
        let cp = decode_lanes(lanes);
        let big = _mm256_cmpgt_epi32(cp, set(0x10_FFFF));
        return (_mm256_testz_si256(big, big) == 1).then_some(cp);
    }
    let bits = _mm256_and_si256(lanes, set(0xFF3F_3F3Fu32 as i32));
    let w = _mm256_madd_epi16(
        _mm256_maddubs_epi16(bits, set(0x4001_4001)),
        set(0x1000_0001),
    );
    let class = _mm256_min_epi32(_mm256_srai_epi32::<28>(lanes), _mm256_setzero_si256());
    let shr = _mm256_permutevar8x32_epi32(table8(&DECODE_SHR), class);
    let adjust = _mm256_permutevar8x32_epi32(table8(&UTF8_ADJUST), class);
    let cp = _mm256_add_epi32(_mm256_srlv_epi32(w, shr), adjust);
    // U+0080 to U+009F: 4 once shifted right by 5.
    let c1 = _mm256_cmpeq_epi32(_mm256_srli_epi32::<5>(cp), set(4));
    (_mm256_testz_si256(c1, c1) == 1).then_some(cp)
}

/// The target's encoding of 8 code points that have one, in 32-bit lanes (bytes in
/// memory order), and for each 128-bit half the index of its lengths in [`COMPACT`].
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn encode_lanes<const TO_UTF8: bool>(cp: __m256i) -> (__m256i, usize, usize) {
    let set = _mm256_set1_epi32;
    let mask = |m: __m256i| _mm256_movemask_ps(_mm256_castsi256_ps(m)) as u32;
    // Each mask is −1 where true; every lane is below 2^31.
    let ge = |first: i32| _mm256_cmpgt_epi32(cp, set(first - 1));
    let (encoded, ge2, m2, m3, m4) = if TO_UTF8 {
        let (ge2, ge3, ge4) = (ge(0x80), ge(0x800), ge(0x1_0000));
        let class = _mm256_sub_epi32(
            _mm256_setzero_si256(),
            _mm256_add_epi32(_mm256_add_epi32(ge2, ge3), ge4),
        );
        let look = |t: &'static [u32; 8]| _mm256_permutevar8x32_epi32(table8(t), class);
        let encoded = _mm256_or_si256(
            _mm256_srlv_epi32(four_groups(cp), look(&UTF8_SHR)),
            look(&UTF8_MARK),
        );
        (encoded, ge2, mask(ge2), mask(ge3), mask(ge4))
    } else {
        let (ge2, ge3, high, ge4) = (ge(0xA0), ge(0x8A0), ge(0xE000), ge(0x1_10A0));
        let class = _mm256_sub_epi32(
            _mm256_setzero_si256(),
            _mm256_add_epi32(_mm256_add_epi32(ge2, ge3), _mm256_add_epi32(high, ge4)),
        );
        let look = |t: &'static [u32; 8]| _mm256_permutevar8x32_epi32(table8(t), class);
        let raw = _mm256_sub_epi32(cp, look(&ENCODE_OFFSET));
        let encoded = _mm256_or_si256(
            _mm256_srlv_epi32(four_groups(raw), look(&ENCODE_SHR)),
            look(&ENCODE_MARK),
        );
        (encoded, ge2, mask(ge2), mask(ge3), mask(ge4))
    };
    let encoded = _mm256_blendv_epi8(cp, encoded, ge2);
    // Length − 1 per lane in 2 bits: bit 1 is "3 or 4 bytes", bit 0 "2 or 4 bytes".
    let x = spread(m2 ^ m3 ^ m4) | spread(m3) << 1;
    (encoded, (x & 0xFF) as usize, (x >> 8) as usize)
}

/// Packs the bytes of the first `n` lanes of each 128-bit half of `encoded` (lengths by
/// the [`COMPACT`] index `x`; the lanes after them are unused, zero, 1 byte each and
/// dropped) at `dst`: the number of bytes.
///
/// # Safety
///
/// `dst` must be writable for 32 bytes.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn store_lanes(
    encoded: __m256i,
    (x_lo, n_lo): (usize, usize),
    (x_hi, n_hi): (usize, usize),
    dst: *mut u8,
) -> usize {
    // SAFETY: two 16-byte rows of `COMPACT`.
    let control = unsafe {
        _mm256_loadu2_m128i(COMPACT[x_hi].as_ptr().cast(), COMPACT[x_lo].as_ptr().cast())
    };
    let packed = _mm256_shuffle_epi8(encoded, control);
    let len_lo = usize::from(COMPACT_LEN[x_lo]) - (4 - n_lo);
    // SAFETY: 16 bytes at `dst` and 16 at dst + len_lo ≤ dst + 16: within the 32.
    unsafe {
        _mm_storeu_si128(dst.cast(), _mm256_castsi256_si128(packed));
        _mm_storeu_si128(
            dst.add(len_lo).cast(),
            _mm256_extracti128_si256::<1>(packed),
        );
    }
    len_lo + usize::from(COMPACT_LEN[x_hi]) - (4 - n_hi)
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
/// The CPU must have AVX2 and POPCNT (the AVX2 level asks for both).
#[target_feature(enable = "avx2,popcnt")]
unsafe fn utf8_is_valid(bytes: &[u8]) -> bool {
    let len = bytes.len();
    let mut i = 0;
    let mut bad = _mm256_setzero_si256();
    if len >= 64 {
        // The first block, with 5 bytes of context in front.
        let mut first = [0u8; 5 + 33];
        first[5..].copy_from_slice(&bytes[..33]);
        // SAFETY: first + 5 − 5 .. first + 5 + 33 is the array.
        bad = unsafe { utf8_bad(first.as_ptr().add(5)) };
        i = 32;
        while i + 64 <= len {
            // SAFETY: i ≥ 32 > 5 and i + 33 <= len: p − 5 .. p + 33 is in `bytes`.
            bad = _mm256_or_si256(bad, unsafe { utf8_bad(bytes.as_ptr().add(i)) });
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
        match (i - 4..i).rev().find(|&p| !is_continuation(bytes[p])) {
            Some(p) => p,
            None => return false,
        }
    };
    core::str::from_utf8(&bytes[start..]).is_ok()
}

/// Non-zero in each byte of the 32 at `p` that breaks UTF-8 as [`utf8_is_valid`]
/// says.
///
/// # Safety
///
/// `p − 5 .. p + 33` must be readable.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn utf8_bad(p: *const u8) -> __m256i {
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
        if !crate::corrected::fast::InstructionSet::Avx2.is_available() {
            return;
        }
        for text in ["é", "大", "🦀", "a🦀大é"] {
            for prefix in 0..4 {
                let mut bytes = "x".repeat(prefix).into_bytes();
                while bytes.len() < 300 {
                    bytes.extend_from_slice(text.as_bytes());
                    // SAFETY: the CPU has AVX2 (checked above).
                    let valid = unsafe { utf8_is_valid(&bytes) };
                    assert!(valid, "{text:?} × {} after {prefix} ASCII", bytes.len());
                }
            }
        }
    }
}
