//! AVX-512 transcoding between Corrected UTF-8 and UTF-8, one 64-byte block a step,
//! without a UTF-32 buffer.
//!
//! Per block: the validity check (Corrected UTF-8: the validators' check at 3 bytes back,
//! a block with a byte `F8–FF` leaving the vector path, since every such sequence is
//! above U+10FFFF or not valid; UTF-8: the same structural check, then each sequence's
//! value against its length's range, the surrogates and U+10FFFF), accumulated and
//! tested at the end. An ASCII block is copied. A block of 1- to 3-byte sequences that
//! keep their lengths (Latin and CJK text) is converted in place, byte by byte, by the
//! masks of what precedes each byte, in a loop of its own while the blocks are such text
//! (a call per block costs the spilling of every vector register). Otherwise the
//! positions of the sequence starts are compressed into one vector (`vpcompressb`), and
//! 16 at a time each lead and the bytes after it are gathered into a 32-bit lane
//! (`vpermt2b`) and decoded there (two multiply-adds and a shift and an offset looked up
//! by the lead's count of leading ones), re-encoded in the lane in the other encoding
//! (`vpmultishiftqb` spreads the 6-bit groups, a shift drops the unused bytes, the
//! lead's mark is OR'ed in), and the lanes' bytes packed by one `vpcompressb`.
//!
//! Two versions of the loop: one that checks validity (what the kernels run first; on
//! anything wrong they validate, then run the other), and one for input already known
//! valid, which stops exactly at the first code point that has no encoding in the
//! target.

use super::decode::decode16;
use super::tables::{table, BYTE_INDEX, DUP, FOUR_GROUPS, IOTA, REV};
use super::vector::{self, bad_avx512};
use crate::utf8;
use alloc::vec::Vec;
use core::arch::x86_64::*;

/// Per sequence length (1–4) in the target: how far the 4-byte form shifts right, in
/// bits; the lead's mark OR'ed into its first byte (the `80` is already there); and the
/// length in every byte.
static SHIFT_BY_LEN: [u32; 16] = [0, 24, 16, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
static MARK_BY_LEN: [u32; 16] = [0, 0, 0x40, 0x60, 0x70, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
static LEN_BYTES: [u32; 16] = [
    0,
    0x0101_0101,
    0x0202_0202,
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
/// UTF-8, by the lead's count of leading ones (0 for ASCII, else the length): how far
/// `w = b0 << 18 | c1 << 12 | c2 << 6 | c3` shifts right to drop the bytes after the
/// sequence, what to add (wrapping) to take the lead's marker bits off, and the
/// smallest code point of that length (above it is overlong; `u32::MAX` where the lead
/// is not one).
static UTF8_SHR: [u32; 16] = [18, 0, 12, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
static UTF8_ADJUST: [u32; 16] = [
    0,
    0,
    0u32.wrapping_sub(0xC0 << 6),
    0u32.wrapping_sub(0xE0 << 12),
    0u32.wrapping_sub(0xF0 << 18),
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
static UTF8_MIN: [u32; 16] = [
    0,
    u32::MAX,
    0x80,
    0x800,
    0x1_0000,
    u32::MAX,
    u32::MAX,
    u32::MAX,
    u32::MAX,
    u32::MAX,
    u32::MAX,
    u32::MAX,
    u32::MAX,
    u32::MAX,
    u32::MAX,
    u32::MAX,
];

/// The bytes of the sequences of `len` (1 to 4) bytes whose value bits are `value`
/// (ASCII lanes: the byte itself), for the lanes of `lanes`, packed at the start of the
/// vector, and how many there are.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
#[inline]
fn encode_lanes(value: __m512i, len: __m512i, lanes: u16) -> (__m512i, usize) {
    let set = _mm512_set1_epi32;
    let groups = _mm512_multishift_epi64_epi8(table(&FOUR_GROUPS), value);
    // (groups & 3F) | 80: the 4-byte form's continuation bytes, the lead's too.
    let four =
        _mm512_ternarylogic_epi32::<0xEA>(groups, set(0x3F3F_3F3F), set(0x8080_8080u32 as i32));
    let shifted = _mm512_srlv_epi32(four, _mm512_permutexvar_epi32(len, table(&SHIFT_BY_LEN)));
    let encoded = _mm512_or_si512(shifted, _mm512_permutexvar_epi32(len, table(&MARK_BY_LEN)));
    let ascii = _mm512_cmpeq_epi32_mask(len, set(1));
    let encoded = _mm512_mask_mov_epi32(encoded, ascii, value);
    // Lanes past the last sequence keep no byte.
    let len_bytes = _mm512_maskz_permutexvar_epi32(lanes, len, table(&LEN_BYTES));
    let keep = _mm512_cmplt_epu8_mask(table(&BYTE_INDEX), len_bytes);
    (
        _mm512_maskz_compress_epi8(keep, encoded),
        keep.count_ones() as usize,
    )
}

/// Which direction a block loop converts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    CorrectedToUtf8,
    Utf8ToCorrected,
}

/// How a block loop ended.
enum Outcome {
    /// The input before `input` (a sequence boundary) is valid (if checked) and its
    /// conversion is the output's first `output` bytes; the rest (fewer than 200 bytes:
    /// from the first sequence that starts in the last block converted) is the caller's.
    Tail { input: usize, output: usize },
    /// Stopped before the sequence at this position, which has no encoding in the
    /// target (input known valid only).
    Stopped(usize),
    /// Something is not valid, or has no encoding (checking loop only).
    Bad,
}

/// The vectorized part of every transcoder here. `CHECK`: validate as it goes and give
/// up at the first problem; else the input is known valid and the loop stops exactly
/// before the first code point without an encoding.
///
/// # Safety
///
/// The CPU must have the features of `has_avx512`.
#[target_feature(
    enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,avx512vl,bmi1,bmi2,popcnt"
)]
unsafe fn blocks<const CHECK: bool>(
    direction: Direction,
    bytes: &[u8],
    out: &mut Vec<u8>,
) -> Outcome {
    let len = bytes.len();
    let iota = table(&IOTA);
    let set = _mm512_set1_epi32;
    let (mut i, mut bad) = (0usize, 0u64);
    // The start of the last block converted: its first lead and the output length then.
    let (mut safe_in, mut safe_out) = (0, out.len());
    // A block has at most 64 leads and a lane keeps at most 4 bytes, so its 4 stores of
    // 16 lanes keep at most 256 bytes, and each writes 64 from where the bytes kept so
    // far end (at most 192): 256 bytes at most, whatever the input. (Valid input keeps
    // at most 99, its 64 bytes and the 2 after each grown by half at most, but the
    // checking loop converts an invalid block before it reports it: 64 C4 bytes are 64
    // leads. 192 bytes of room let that write past the buffer.)
    const ROOM: usize = 256;
    while i + 128 <= len {
        out.reserve(ROOM);
        let p = bytes.as_ptr().wrapping_add(i);
        // SAFETY: i + 128 <= len: both blocks are in `bytes`.
        let (block, next) = unsafe {
            (
                _mm512_loadu_si512(p as *const __m512i),
                _mm512_loadu_si512(p.add(64) as *const __m512i),
            )
        };
        // The leads to convert: bit k, byte k is not 80–BF (signed < −64).
        let mut leads = !_mm512_cmplt_epi8_mask(block, _mm512_set1_epi8(-64));
        (safe_in, safe_out) = (i + leads.trailing_zeros() as usize, out.len());
        // Where the block has a sequence without an encoding in the target: Corrected
        // UTF-8 leads F8–FF (above U+10FFFF, or not valid), UTF-8 C1 controls (`C2`
        // then `80–9F`). (Corrected UTF-8 4-byte sequences above U+10FFFF are found in
        // their lanes.)
        let mut stop = match direction {
            Direction::CorrectedToUtf8 => {
                _mm512_cmpge_epu8_mask(block, _mm512_set1_epi8(0xF8u8 as i8))
            }
            Direction::Utf8ToCorrected => {
                // SAFETY: i + 65 <= len.
                let after = unsafe { _mm512_loadu_si512(p.add(1) as *const __m512i) };
                _mm512_cmpeq_epi8_mask(block, _mm512_set1_epi8(0xC2u8 as i8))
                    & _mm512_cmplt_epu8_mask(after, _mm512_set1_epi8(0xA0u8 as i8))
            }
        };
        if stop != 0 {
            if CHECK {
                return Outcome::Bad;
            }
            // Only the sequences before it (in valid input they end before it).
            leads &= (1u64 << stop.trailing_zeros()) - 1;
        }
        if CHECK {
            bad |= if i == 0 {
                // The first block, with 3 ASCII bytes of context in front.
                let mut first = [0u8; 5 + 64];
                first[5..].copy_from_slice(&bytes[..64]);
                // SAFETY: the block and its context are the 69 bytes of `first`.
                unsafe { bad_avx512::<false>(first.as_ptr().add(5)) }
            } else {
                // SAFETY: i >= 64 > 3 and i + 64 <= len: p − 3 .. p + 64 is in `bytes`.
                unsafe { bad_avx512::<false>(p) }
            };
        }
        let dst = out.spare_capacity_mut().as_mut_ptr() as *mut u8;
        if _mm512_movepi8_mask(block) == 0 {
            // SAFETY: 64 bytes into the ≥ ROOM bytes of spare capacity reserved above,
            // written before `set_len` counts them.
            unsafe {
                _mm512_storeu_si512(dst as *mut __m512i, block);
                out.set_len(out.len() + 64);
            }
            i += 64;
            continue;
        }
        // Leads that never keep their length (or are not valid): Corrected UTF-8 from EF
        // on (mostly 4 bytes in UTF-8), UTF-8 from F0 on.
        let long = match direction {
            Direction::CorrectedToUtf8 => 0xEF,
            Direction::Utf8ToCorrected => 0xF0,
        };
        if stop == 0 && i >= 64 && _mm512_cmpge_epu8_mask(block, _mm512_set1_epi8(long as i8)) == 0
        {
            // Latin and CJK text: converted in place, in a loop of its own while the
            // blocks are such text (or ASCII).
            let mut safe = (safe_in, safe_out);
            // SAFETY: the caller's contract; i >= 64.
            let reached = unsafe {
                match direction {
                    Direction::CorrectedToUtf8 => {
                        in_place_run::<CHECK, true>(bytes, i, out, &mut bad, &mut safe)
                    }
                    Direction::Utf8ToCorrected => {
                        in_place_run::<CHECK, false>(bytes, i, out, &mut bad, &mut safe)
                    }
                }
            };
            if reached > i {
                (safe_in, safe_out) = safe;
                i = reached;
                continue;
            }
        }
        let n = leads.count_ones() as usize;
        let positions = _mm512_maskz_compress_epi8(leads, iota);
        let mut written = 0;
        let mut stopped_in_lane = false;
        for g in 0..n.div_ceil(16) {
            let mut lanes = (u32::MAX >> (32 - (n - 16 * g).min(16))) as u16;
            let (packed, count) = match direction {
                Direction::CorrectedToUtf8 => {
                    // Sequences of 1 to 4 bytes here (a lead F8–FF stopped above).
                    let cp = decode16::<false>(block, next, positions, g);
                    let big = _mm512_cmpgt_epu32_mask(cp, set(0x10_FFFF)) & lanes;
                    if big != 0 {
                        if CHECK {
                            return Outcome::Bad;
                        }
                        // Stop before that lane's sequence: the (16g + k)-th lead.
                        let k = big.trailing_zeros();
                        lanes &= (1 << k) - 1;
                        let at = _pdep_u64(1 << (16 * g as u32 + k), leads).trailing_zeros();
                        stop = 1 << at;
                        stopped_in_lane = true;
                    }
                    let mut utf8_len = set(1);
                    for first in [0x80, 0x800, 0x1_0000] {
                        let k = _mm512_cmpge_epu32_mask(cp, set(first));
                        utf8_len = _mm512_mask_add_epi32(utf8_len, k, utf8_len, set(1));
                    }
                    encode_lanes(cp, utf8_len, lanes)
                }
                Direction::Utf8ToCorrected => {
                    let (cp, lane_bad) = decode16_utf8(block, next, positions, g);
                    if CHECK {
                        bad |= u64::from(lane_bad & lanes);
                    }
                    // The row: 2 bytes from U+00A0, 3 from U+08A0 (offset 2208) and from
                    // U+E000 (offset 4256), 4 from U+110A0.
                    let ge = |first: i32| _mm512_cmpge_epu32_mask(cp, set(first));
                    let (two, three, high, four) = (ge(0xA0), ge(0x8A0), ge(0xE000), ge(0x1_10A0));
                    let mut offset = _mm512_maskz_mov_epi32(two, set(160));
                    offset = _mm512_mask_mov_epi32(offset, three, set(2_208));
                    offset = _mm512_mask_mov_epi32(offset, high, set(4_256));
                    offset = _mm512_mask_mov_epi32(offset, four, set(69_792));
                    let mut corrected_len = set(1);
                    for k in [two, three, four] {
                        corrected_len =
                            _mm512_mask_add_epi32(corrected_len, k, corrected_len, set(1));
                    }
                    encode_lanes(_mm512_sub_epi32(cp, offset), corrected_len, lanes)
                }
            };
            debug_assert!(written + 64 <= out.capacity() - out.len());
            // SAFETY: 64 bytes at dst + written, where `written` ≤ 64 × g ≤ 192 (the
            // groups before, 16 lanes of at most 4 bytes each): within the ≥ ROOM = 256
            // bytes of spare capacity reserved above. `set_len` below counts
            // only the bytes kept, all written by then.
            unsafe { _mm512_storeu_si512(dst.add(written) as *mut __m512i, packed) };
            written += count;
            if stopped_in_lane {
                break;
            }
        }
        // SAFETY: the `written` bytes after the length were written above.
        unsafe { out.set_len(out.len() + written) };
        if stop != 0 {
            return Outcome::Stopped(i + stop.trailing_zeros() as usize);
        }
        i += 64;
    }
    if bad != 0 {
        return Outcome::Bad;
    }
    Outcome::Tail {
        input: safe_in.min(len),
        output: safe_out,
    }
}

/// From the block at `i` (not the first) on, while each block is ASCII or converts in
/// place ([`short_in_place`], [`in_place`]) and has no sequence without an encoding in
/// the target: converts it, with the checking loop's validity check and record of the
/// last block converted (`bad`, `safe`) as [`blocks`] keeps them. Returns where it
/// stopped: the first block it did not convert, or where fewer than 128 bytes are
/// left.
///
/// # Safety
///
/// The CPU must have the features of `has_avx512`; `i >= 64`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
unsafe fn in_place_run<const CHECK: bool, const TO_UTF8: bool>(
    bytes: &[u8],
    mut i: usize,
    out: &mut Vec<u8>,
    bad: &mut u64,
    safe: &mut (usize, usize),
) -> usize {
    let (direction, len) = if TO_UTF8 {
        (Direction::CorrectedToUtf8, bytes.len())
    } else {
        (Direction::Utf8ToCorrected, bytes.len())
    };
    let byte = |b: u8| _mm512_set1_epi8(b as i8);
    while i + 128 <= len {
        out.reserve(66);
        let p = bytes.as_ptr().wrapping_add(i);
        // SAFETY: i + 128 <= len.
        let block = unsafe { _mm512_loadu_si512(p as *const __m512i) };
        // As in `blocks`: Corrected UTF-8 leads F8–FF, UTF-8 C1 controls.
        let stop = if TO_UTF8 {
            _mm512_cmpge_epu8_mask(block, byte(0xF8))
        } else {
            // SAFETY: i + 65 <= len.
            let after = unsafe { _mm512_loadu_si512(p.add(1) as *const __m512i) };
            _mm512_cmpeq_epi8_mask(block, byte(0xC2)) & _mm512_cmplt_epu8_mask(after, byte(0xA0))
        };
        if stop != 0 {
            break;
        }
        let dst = out.spare_capacity_mut().as_mut_ptr() as *mut u8;
        let written = if _mm512_movepi8_mask(block) == 0 {
            // SAFETY: 64 of the ≥ 66 bytes of spare capacity reserved above.
            unsafe { _mm512_storeu_si512(dst as *mut __m512i, block) };
            64
        } else {
            // SAFETY: i + 66 <= len; 66 bytes at most into the spare capacity.
            let converted = match unsafe { short_in_place(direction, block, p, dst) } {
                Some(written) => Some(written),
                // SAFETY: as above.
                None => unsafe { in_place::<TO_UTF8>(block, p, dst) },
            };
            match converted {
                Some(written) => written,
                None => break,
            }
        };
        if CHECK {
            // SAFETY: i >= 64 > 3 and i + 64 <= len: p − 3 .. p + 64 is in `bytes`.
            *bad |= unsafe { bad_avx512::<false>(p) };
        }
        let leads = !_mm512_cmplt_epi8_mask(block, byte(0xC0));
        *safe = (i + leads.trailing_zeros() as usize, out.len());
        // SAFETY: the `written` bytes after the length were written.
        unsafe { out.set_len(out.len() + written) };
        i += 64;
    }
    i
}

/// Converts the block at `p` in place when it holds only 1- and 2-byte sequences whose
/// length stays the same in the target (Latin text): Corrected UTF-8 leads `C0–DC`
/// (U+00A0 to U+07FF with the row offset 160 added), UTF-8 leads `C2–DF` (U+00A0 and up:
/// the caller excluded C1 controls). The offset 160 is `2 << 6 | 0x20`: every
/// continuation byte flips bit 5, and a lead adds 2 (takes 2 away), one more when the
/// continuation's 6 bits carry (borrow). Writes what the block converts — the sequences
/// whose leads are in it: not the continuation bytes it starts with (the block before
/// wrote them), and byte 64 too when byte 63 is a lead — to `dst` and returns how many
/// bytes; `None` when the block is not such text.
///
/// # Safety
///
/// The CPU must have the features of `has_avx512`; `p .. p + 65` readable; `dst`
/// writable for 65 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
#[inline]
unsafe fn short_in_place(
    direction: Direction,
    block: __m512i,
    p: *const u8,
    dst: *mut u8,
) -> Option<usize> {
    let byte = |b: u8| _mm512_set1_epi8(b as i8);
    let other = match direction {
        // A lead from DD on (or F8–FF) may grow to 3 bytes.
        Direction::CorrectedToUtf8 => _mm512_cmpge_epu8_mask(block, byte(0xDD)),
        // 3- and 4-byte leads, and the overlong C0, C1 (not valid).
        Direction::Utf8ToCorrected => {
            _mm512_cmpge_epu8_mask(block, byte(0xE0))
                | _mm512_cmpeq_epi8_mask(_mm512_and_si512(block, byte(0xFE)), byte(0xC0))
        }
    };
    if other != 0 {
        return None;
    }
    // SAFETY: p + 1 .. p + 65 is readable (the caller's contract).
    let after = unsafe { _mm512_loadu_si512(p.add(1) as *const __m512i) };
    // 80–BF are the signed bytes below −64.
    let continuation = _mm512_cmplt_epi8_mask(block, byte(0xC0));
    let lead = _mm512_cmpge_epu8_mask(block, byte(0xC0));
    let flipped = _mm512_xor_si512(block, _mm512_maskz_mov_epi8(continuation, byte(0x20)));
    let converted = match direction {
        Direction::CorrectedToUtf8 => {
            let carry = lead & _mm512_cmpge_epu8_mask(after, byte(0xA0));
            let add = _mm512_mask_mov_epi8(_mm512_maskz_mov_epi8(lead, byte(2)), carry, byte(3));
            _mm512_add_epi8(flipped, add)
        }
        Direction::Utf8ToCorrected => {
            let borrow = lead & _mm512_cmplt_epu8_mask(after, byte(0xA0));
            let sub = _mm512_mask_mov_epi8(_mm512_maskz_mov_epi8(lead, byte(2)), borrow, byte(3));
            _mm512_sub_epi8(flipped, sub)
        }
    };
    // The continuation bytes the block starts with end a sequence the block before
    // converted (of any length: its lead is not in this block).
    let skip = continuation.trailing_ones();
    let packed = if skip == 0 {
        converted
    } else {
        _mm512_maskz_compress_epi8(u64::MAX.checked_shl(skip).unwrap_or(0), converted)
    };
    let mut written = 64 - skip as usize;
    // SAFETY: 64 bytes at `dst` (the caller's contract).
    unsafe { _mm512_storeu_si512(dst as *mut __m512i, packed) };
    if lead >> 63 != 0 {
        // SAFETY: byte 64, the continuation of the last lead, is readable, and `dst`
        // has room for 65 (the caller's contract).
        unsafe { dst.add(written).write(p.add(64).read() ^ 0x20) };
        written += 1;
    }
    Some(written)
}

/// Converts the block at `p` in place when it holds only 1- to 3-byte sequences whose
/// length stays the same in the target (Latin and CJK text, with ASCII): each byte is
/// converted where it is, its role told by the masks of the bytes before it (a mask
/// shifted left by one is "the byte before is"). The rows' offsets in 6-bit groups
/// (lead, c1, c2): 2-byte 160 = (2, 32), 3-byte 2208 = (0, 34, 32), and from U+E000
/// (Corrected UTF-8 raw `CF60`, UTF-8 lead `EE`) 4256 = (1, 2, 32). The last byte of a
/// sequence flips bit 5 and carries (borrows) into the byte before; a 3-byte sequence's
/// middle byte adds (takes) 34 or 2 and that carry, and carries into the lead. The
/// sequence that goes on past the block is converted by its code point. Writes what
/// the block converts — the sequences whose leads are in it: not the continuation bytes
/// it starts with (the block before wrote them), and bytes 64 and 65 too when the last
/// sequence reaches them — to `dst` and returns how many bytes; `None` when the block is
/// not such text, or (UTF-8) a sequence in it is overlong or a surrogate (the lanes'
/// checks find which).
///
/// # Safety
///
/// The CPU must have the features of `has_avx512`; `p .. p + 66` readable; `dst`
/// writable for 66 bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
#[inline]
unsafe fn in_place<const TO_UTF8: bool>(
    block: __m512i,
    p: *const u8,
    dst: *mut u8,
) -> Option<usize> {
    let byte = |b: u8| _mm512_set1_epi8(b as i8);
    let ge = |b: u8| _mm512_cmpge_epu8_mask(block, byte(b));
    let eq = |b: u8| _mm512_cmpeq_epi8_mask(block, byte(b));
    let lead3 = ge(0xE0);
    // Leads that change length (or, UTF-8, are not valid) whatever follows them:
    // Corrected UTF-8 DD–DF and from EF on (3 and 4 bytes in UTF-8); UTF-8 C0, C1
    // (overlong) and from F0 on (4 bytes, or 3).
    let other = if TO_UTF8 {
        ge(0xEF) | (ge(0xDD) & !lead3)
    } else {
        ge(0xF0) | _mm512_cmpeq_epi8_mask(_mm512_and_si512(block, byte(0xFE)), byte(0xC0))
    };
    if other != 0 {
        return None;
    }
    let lead = ge(0xC0);
    let lead2 = lead & !lead3;
    // 80–BF are the signed bytes below −64.
    let continuation = _mm512_cmplt_epi8_mask(block, byte(0xC0));
    let middle = continuation & lead3 << 1;
    let last = continuation & (lead2 << 1 | lead3 << 2);
    // Bit k: byte k + 1 is A0 or more (bit 63, byte 64, is not known: the sequence that
    // goes on past the block is converted apart).
    let next_a0 = ge(0xA0) >> 1;
    let step = |high: u64| _mm512_mask_mov_epi8(byte(34), high, byte(2));
    let converted = if TO_UTF8 {
        // Middle bytes BD with A0 on after, or BE, BF: raw xF60 on.
        let from_bd_a0 = middle & (ge(0xBE) | eq(0xBD) & next_a0);
        // UTF-8 has 4 bytes from U+10000 (raw EF60: EE BD A0) on.
        if eq(0xEE) << 1 & from_bd_a0 != 0 {
            return None;
        }
        // Raw CF60 on (lead ED on, or EC BD A0 on) skips the surrogates.
        let high = middle & (ge(0xED) << 1 | eq(0xEC) << 1 & from_bd_a0);
        let c1 = _mm512_add_epi8(block, step(high));
        let c1 = _mm512_mask_add_epi8(c1, next_a0, c1, byte(1));
        let carry = middle & _mm512_cmpge_epu8_mask(c1, byte(0xC0));
        let c1 = _mm512_mask_sub_epi8(c1, carry, c1, byte(64));
        let add = _mm512_maskz_mov_epi8(lead2, byte(2));
        let add = _mm512_mask_add_epi8(add, lead2 & next_a0 | lead3 & high >> 1, add, byte(1));
        let add = _mm512_mask_add_epi8(add, lead3 & carry >> 1, add, byte(1));
        _mm512_mask_mov_epi8(_mm512_add_epi8(block, add), middle, c1)
    } else {
        // U+0800–U+089F (E0 A0 80 to E0 A2 9F: all of E0 A0–A2 left to the lanes) has 2
        // bytes in Corrected UTF-8; E0 80–9F is overlong and ED A0–BF a surrogate.
        if middle & (eq(0xE0) << 1 & !ge(0xA3) | eq(0xED) << 1 & ge(0xA0)) != 0 {
            return None;
        }
        let high = middle & ge(0xEE) << 1;
        let c1 = _mm512_sub_epi8(block, step(high));
        let c1 = _mm512_mask_sub_epi8(c1, !next_a0, c1, byte(1));
        let borrow = middle & _mm512_cmplt_epu8_mask(c1, byte(0x80));
        let c1 = _mm512_mask_add_epi8(c1, borrow, c1, byte(64));
        let sub = _mm512_maskz_mov_epi8(lead2, byte(2));
        let sub = _mm512_mask_add_epi8(sub, lead2 & !next_a0 | lead3 & high >> 1, sub, byte(1));
        let sub = _mm512_mask_add_epi8(sub, lead3 & borrow >> 1, sub, byte(1));
        _mm512_mask_mov_epi8(_mm512_sub_epi8(block, sub), middle, c1)
    };
    let converted = _mm512_xor_si512(converted, _mm512_maskz_mov_epi8(last, byte(0x20)));
    // The continuation bytes the block starts with end a sequence the block before
    // converted (of any length: its lead is not in this block).
    let skip = continuation.trailing_ones() as usize;
    let packed = if skip == 0 {
        converted
    } else {
        _mm512_maskz_compress_epi8(u64::MAX.checked_shl(skip as u32).unwrap_or(0), converted)
    };
    // SAFETY: 64 bytes at `dst` (the caller's contract).
    unsafe { _mm512_storeu_si512(dst as *mut __m512i, packed) };
    let mut written = 64 - skip;
    // The last sequence, if it goes on past the block: converted by its code point, over
    // what the vector wrote for it, and its bytes 64 and 65.
    if lead >> 62 != 0 {
        let at = 63 - lead.leading_zeros() as usize;
        let length = if lead3 >> at & 1 == 1 { 3 } else { 2 };
        if at + length > 64 {
            // SAFETY: p + at .. p + at + 3 is within the 66 readable; `dst` has room for
            // the sequence at `at − skip` (the lead is not among the skipped bytes): up
            // to 66 − skip bytes.
            written = unsafe { last_sequence::<TO_UTF8>(p.add(at), length, dst.add(at - skip)) }?
                + at
                - skip;
        }
    }
    Some(written)
}

/// The sequence of `length` bytes at `p` converted by [`converted_sequence`] to `dst`:
/// how many bytes, or `None`.
///
/// # Safety
///
/// `p .. p + 3` readable, `dst` writable for `length` bytes.
#[cold]
#[inline(never)]
unsafe fn last_sequence<const TO_UTF8: bool>(
    p: *const u8,
    length: usize,
    dst: *mut u8,
) -> Option<usize> {
    // SAFETY: the caller's contract.
    let bytes = unsafe { [p.read(), p.add(1).read(), p.add(2).read()] };
    let sequence = converted_sequence::<TO_UTF8>(bytes, length)?;
    // SAFETY: the caller's contract.
    unsafe { core::ptr::copy_nonoverlapping(sequence.as_ptr(), dst, length) };
    Some(length)
}

/// One 2- or 3-byte sequence (`length`; the first `length` bytes of `bytes`, a lead and
/// its continuations) converted by its code point (`TO_UTF8`: from Corrected UTF-8), or
/// `None` if it has no encoding of the same length in the target (or, UTF-8, is
/// overlong or a surrogate).
fn converted_sequence<const TO_UTF8: bool>(bytes: [u8; 3], length: usize) -> Option<[u8; 3]> {
    let [b0, b1, b2] = bytes.map(u32::from);
    let raw = if length == 2 {
        (b0 & 0x1F) << 6 | (b1 & 0x3F)
    } else {
        (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F)
    };
    let value = match (TO_UTF8, length) {
        // (A 2-byte Corrected UTF-8 lead DD–DF never gets here: `in_place` left the block.)
        (true, 2) => raw + 160,
        (true, _) => {
            Some(raw + if raw >= 0xCF60 { 4256 } else { 2208 }).filter(|&cp| cp <= 0xFFFF)?
        }
        (false, 2) => raw.checked_sub(160)?,
        (false, _) => {
            if (0xD800..0xE000).contains(&raw) {
                return None;
            }
            raw.checked_sub(if raw >= 0xE000 { 4256 } else { 2208 })?
        }
    };
    Some(if length == 2 {
        [0xC0 | (value >> 6) as u8, 0x80 | (value & 0x3F) as u8, 0]
    } else {
        [
            0xE0 | (value >> 12) as u8,
            0x80 | (value >> 6 & 0x3F) as u8,
            0x80 | (value & 0x3F) as u8,
        ]
    })
}

/// The code points of 16 UTF-8 sequences whose leads are at the block positions in
/// bytes `16g .. 16g + 16` of `positions`, and the lanes whose sequence is not valid
/// UTF-8 by its value (overlong, surrogate, above U+10FFFF, a lead `F8–FF`); whether
/// the continuation bytes are where they should be is the structural check's.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi")]
#[inline]
fn decode16_utf8(block: __m512i, next: __m512i, positions: __m512i, g: usize) -> (__m512i, u16) {
    let set = _mm512_set1_epi32;
    let spread = _mm512_permutexvar_epi8(table(&DUP[g]), positions);
    let lanes = _mm512_permutex2var_epi8(block, _mm512_add_epi8(spread, table(&REV)), next);
    let bits = _mm512_and_si512(lanes, set(0xFF3F_3F3Fu32 as i32));
    let w = _mm512_madd_epi16(
        _mm512_maddubs_epi16(bits, set(0x4001_4001)),
        set(0x1000_0001),
    );
    let ones = _mm512_lzcnt_epi32(_mm512_xor_si512(lanes, set(-1)));
    let look = |t: &'static [u32; 16]| _mm512_permutexvar_epi32(ones, table(t));
    let cp = _mm512_add_epi32(_mm512_srlv_epi32(w, look(&UTF8_SHR)), look(&UTF8_ADJUST));
    // `ones` above 15 (FF) reads its table at ones & 15: a lead of more than 4 bytes is
    // caught by the `ones >= 5` test, whatever the tables give.
    let bad = _mm512_cmplt_epu32_mask(cp, look(&UTF8_MIN))
        | _mm512_cmpgt_epu32_mask(cp, set(0x10_FFFF))
        | _mm512_cmpeq_epi32_mask(_mm512_and_si512(cp, set(!0x7FF)), set(0xD800))
        | _mm512_cmpge_epu32_mask(ones, set(5));
    (cp, bad)
}

/// The to-UTF-8 kernel: converts Corrected UTF-8 `bytes` to UTF-8, validating as it
/// goes, up to a sequence boundary in the last 200 bytes; when something is not valid or
/// has no UTF-8, validates first (the validate kernel) and converts the valid prefix up
/// to its first code point above U+10FFFF. Returns how far it got.
///
/// # Safety
///
/// The CPU must have every feature of `has_avx512`.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn to_utf8(bytes: &[u8], out: &mut Vec<u8>) -> usize {
    let start = out.len();
    out.reserve(bytes.len() + bytes.len() / 2);
    // SAFETY: the caller's contract.
    match unsafe { blocks::<true>(Direction::CorrectedToUtf8, bytes, out) } {
        Outcome::Tail { input, output } => {
            out.truncate(output);
            input
        }
        _ => {
            out.truncate(start);
            // SAFETY: the caller's contract.
            let valid = unsafe { vector::validate(bytes) };
            // SAFETY: the caller's contract; `bytes[..valid]` is whole valid sequences.
            unsafe { convert_valid(Direction::CorrectedToUtf8, &bytes[..valid], out) }
        }
    }
}

/// The from-UTF-8 kernel: [`to_utf8`] from UTF-8 to Corrected UTF-8 (validating with
/// std's validation where the checking loop finds something wrong; a C1 control has no
/// encoding).
///
/// # Safety
///
/// The CPU must have every feature of `has_avx512`.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn from_utf8(bytes: &[u8], out: &mut Vec<u8>) -> usize {
    let start = out.len();
    out.reserve(bytes.len());
    // SAFETY: the caller's contract.
    match unsafe { blocks::<true>(Direction::Utf8ToCorrected, bytes, out) } {
        Outcome::Tail { input, output } => {
            out.truncate(output);
            input
        }
        _ => {
            out.truncate(start);
            let valid = utf8::validate(bytes).map_or_else(|e| e.offset as usize, |()| bytes.len());
            // SAFETY: the caller's contract; `bytes[..valid]` is whole valid sequences.
            unsafe { convert_valid(Direction::Utf8ToCorrected, &bytes[..valid], out) }
        }
    }
}

/// Converts `valid` (whole valid sequences) up to the first code point without an
/// encoding in the target or a sequence boundary in the last 200 bytes; returns how far
/// it got.
///
/// # Safety
///
/// The CPU must have every feature of `has_avx512`.
unsafe fn convert_valid(direction: Direction, valid: &[u8], out: &mut Vec<u8>) -> usize {
    // SAFETY: the caller's contract.
    match unsafe { blocks::<false>(direction, valid, out) } {
        Outcome::Stopped(at) => at,
        Outcome::Tail { input, output } => {
            out.truncate(output);
            input
        }
        Outcome::Bad => unreachable!("the unchecked loop gives no Bad"),
    }
}
