//! The portable code (safe, word-at-a-time): the validator, the one-pass decoder, the
//! encoder and the transcoder loops, which finish what every instruction set's kernel
//! leaves (see `kernels.rs`) and do everything where there is no kernel; and the scans of
//! the document checker.

use crate::corrected::{codepoint_of, lead_bits, TABLE};

#[cfg(feature = "alloc")]
mod encode;
#[cfg(feature = "alloc")]
mod transcode;
#[cfg(feature = "alloc")]
pub(super) use encode::encode;
#[cfg(all(feature = "alloc", target_arch = "aarch64", target_endian = "little"))]
pub(super) use encode::encode_whole;
#[cfg(feature = "alloc")]
pub(super) use transcode::{corrected_to_utf8, utf8_to_corrected};

/// One flag per byte of a word, in the byte's high bit.
#[derive(Clone, Copy, Default)]
pub(super) struct Masks {
    /// `80–FF`.
    pub hi: u64,
    /// `C0–FF`: a lead followed by at least 1 continuation byte.
    pub m1: u64,
    /// `E0–FF`: at least 2.
    pub m2: u64,
    /// `F0–FF`: at least 3.
    pub m3: u64,
    /// `F8–FF`: at least 4.
    pub m4: u64,
    /// `FC–FF`: 5.
    pub m5: u64,
    /// `FE–FF`: reserved.
    pub r: u64,
}

impl Masks {
    pub const ZERO: Masks = Masks {
        hi: 0,
        m1: 0,
        m2: 0,
        m3: 0,
        m4: 0,
        m5: 0,
        r: 0,
    };
}

/// The high bit of every byte of a word.
pub(super) const HIGH: u64 = 0x8080_8080_8080_8080;

/// The masks of 8 bytes, one flag per byte in that byte's high bit.
#[inline(always)]
fn word_masks(w: u64) -> Masks {
    // Bit 7 of byte j of `w << k` is bit 7−k of byte j (bits from byte j−1 land below
    // bit 7 and are masked off), so ANDing them tests the top bits of each byte.
    let a1 = w & (w << 1);
    let a2 = a1 & (w << 2);
    let a3 = a2 & (w << 3);
    let a4 = a3 & (w << 4);
    let a5 = a4 & (w << 5);
    let a6 = a5 & (w << 6);
    Masks {
        hi: w & HIGH,
        m1: a1 & HIGH,
        m2: a2 & HIGH,
        m3: a3 & HIGH,
        m4: a4 & HIGH,
        m5: a5 & HIGH,
        r: a6 & HIGH,
    }
}

/// The error flags of a word `cur` that follows `prev`: a byte is an error if it is
/// reserved, or if it is a continuation byte exactly when no lead before it within
/// reach (in this word or the previous one) covers it. Zero if the word is valid.
#[inline(always)]
fn word_errors(cur: &Masks, prev: &Masks) -> u64 {
    let covered = (cur.m1 << 8 | prev.m1 >> 56)
        | (cur.m2 << 16 | prev.m2 >> 48)
        | (cur.m3 << 24 | prev.m3 >> 40)
        | (cur.m4 << 32 | prev.m4 >> 32)
        | (cur.m5 << 40 | prev.m5 >> 24);
    (covered ^ (cur.hi & !cur.m1)) | cur.r
}

/// Whether a word's leads expect continuation bytes in the next word.
#[inline(always)]
fn word_pending(m: &Masks) -> bool {
    (m.m1 >> 56) | (m.m2 >> 48) | (m.m3 >> 40) | (m.m4 >> 32) | (m.m5 >> 24) != 0
}

#[inline(always)]
fn word(chunk: &[u8]) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(chunk);
    // Little-endian so that byte j is always bits 8j..8j+8, whatever the target.
    u64::from_le_bytes(w)
}

/// The bytes from `at` as a little-endian word, with `00` past the end.
#[inline(always)]
pub(super) fn word_padded(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..at + 8) {
        Some(chunk) => word(chunk),
        None => {
            let rest = &bytes[at..];
            let mut padded = [0u8; 8];
            padded[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(padded)
        }
    }
}

/// Validates word by word: `Ok`, or `Err` with a sequence boundary before which all is
/// valid and after which the first error lies.
pub(super) fn validate(bytes: &[u8]) -> Result<(), usize> {
    const CHUNK: usize = 32;
    let mut prev = Masks::ZERO;
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + CHUNK) {
        let words = [
            word(&chunk[0..8]),
            word(&chunk[8..16]),
            word(&chunk[16..24]),
            word(&chunk[24..32]),
        ];
        // All ASCII with nothing pending: nothing to check; and ASCII tends to go on,
        // so skip it 64 bytes a step (LLVM vectorizes the OR) until a block is not.
        if (words[0] | words[1] | words[2] | words[3]) & HIGH == 0 && !word_pending(&prev) {
            prev = Masks::ZERO;
            at += CHUNK;
            while let Some(block) = bytes.get(at..at + 64) {
                if block.chunks_exact(8).fold(0, |any, w| any | word(w)) & HIGH != 0 {
                    break;
                }
                at += 64;
            }
            continue;
        }
        for (k, &w) in words.iter().enumerate() {
            let cur = word_masks(w);
            if word_errors(&cur, &prev) != 0 {
                return Err(super::restart_point(bytes, at + 8 * k));
            }
            prev = cur;
        }
        at += CHUNK;
    }
    // The tail, padded with `00`: a sequence cut short by the end of the input expects a
    // continuation byte where the padding is, which is an error there.
    let rest = &bytes[at..];
    let mut padded = [0u8; CHUNK + 8];
    padded[..rest.len()].copy_from_slice(rest);
    for k in 0..rest.len().div_ceil(8) + 1 {
        let cur = word_masks(word(&padded[8 * k..8 * k + 8]));
        if word_errors(&cur, &prev) != 0 {
            return Err(super::restart_point(bytes, at + 8 * k));
        }
        prev = cur;
    }
    Ok(())
}

/// Bytes per block of [`quiet_len`]: two AVX2 registers.
const QUIET_BLOCK: usize = 64;

/// Whether the byte `x`, followed by `y` and `z` (`00` past the end), starts something a
/// document check reports or holds back: a C0 control other than U+000A (U+0000
/// included), U+2028 or U+2029 (`E1 9E 88`, `E1 9E 89`), or U+10E7D (`EF B7 9D`, the
/// magic number's first code point). Non-short-circuiting, so that blocks vectorize.
#[inline(always)]
fn loud(x: u8, y: u8, z: u8) -> bool {
    let control = (x < 0x20) & (x != b'\n');
    let separator = (x == 0xE1) & (y == 0x9E) & ((z | 1) == 0x89);
    let magic = (x == 0xEF) & (y == 0xB7) & (z == 0x9D);
    control | separator | magic
}

/// The number of bytes before the first one that is [`loud`]: whole blocks of
/// [`QUIET_BLOCK`] bytes are tested at once (LLVM vectorizes the loop), the block with
/// the first loud byte and the tail byte by byte. Inlined into each instruction set's
/// copy.
#[inline(always)]
pub(super) fn quiet_len(bytes: &[u8]) -> usize {
    let mut at = 0;
    while let Some(block) = bytes.get(at..at + QUIET_BLOCK + 2) {
        let mut any = false;
        for i in 0..QUIET_BLOCK {
            any |= loud(block[i], block[i + 1], block[i + 2]);
        }
        if any {
            break;
        }
        at += QUIET_BLOCK;
    }
    let byte = |i: usize| bytes.get(i).copied().unwrap_or(0);
    while at < bytes.len() && !loud(bytes[at], byte(at + 1), byte(at + 2)) {
        at += 1;
    }
    at
}

/// The number of `0A` bytes in `bytes`.
pub(super) fn count_newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// Decodes Corrected UTF-8 `bytes` into `out` in one pass, checking each sequence as
/// it goes: `Ok` with the number of code points, or `Err` with a sequence boundary
/// before which everything is valid and decoded into `out`, where the first error
/// starts or `out` has no more room (the caller tells which by validating from there:
/// an invalid input must report its error whatever the room).
///
/// In Corrected UTF-8 every lead followed by its continuation bytes is a code point (no
/// overlongs, no range to check), so a sequence is valid exactly when its lead is not a
/// continuation byte or `FE`/`FF` and the next `len - 1` bytes are continuation bytes:
/// one mask compare on a little-endian word. ASCII goes 16 bytes at a time. The
/// separate validator is faster than this loop, but a second pass over the input costs
/// more than the checks do here (simdutf's `fallback` decodes in one pass as well).
///
#[inline]
pub(super) fn decode(bytes: &[u8], out: &mut [u32]) -> Result<usize, usize> {
    let n = bytes.len();
    let (mut i, mut o) = (0, 0);
    while i < n {
        // Sixteen bytes widened at a time (LLVM vectorizes the copy), kept up to the
        // first non-ASCII one: what is past it is overwritten by what follows.
        if let (Some(chunk), Some(dst)) = (bytes.get(i..i + 16), out.get_mut(o..o + 16)) {
            for (d, &b) in dst.iter_mut().zip(chunk) {
                *d = u32::from(b);
            }
            let (lo, hi) = (word(&chunk[..8]) & HIGH, word(&chunk[8..]) & HIGH);
            let ascii = if lo != 0 {
                lo.trailing_zeros() as usize / 8
            } else if hi != 0 {
                8 + hi.trailing_zeros() as usize / 8
            } else {
                16
            };
            i += ascii;
            o += ascii;
            if ascii == 16 {
                continue;
            }
        } else if bytes[i] < 0x80 {
            *out.get_mut(o).ok_or(i)? = u32::from(bytes[i]);
            i += 1;
            o += 1;
            continue;
        }
        // A run of multi-byte sequences, each read as the word at its lead, without
        // the ASCII probe between them (it would fail on every one); a lone ASCII byte
        // between two of them (a space, a newline) stays in the run.
        while let Some(chunk) = bytes.get(i..i + 8) {
            let w = word(chunk);
            // Two 3-byte sequences (bytes 0-2, 3-5: E0-EF 80-BF 80-BF each) or two 4-byte
            // ones (F0-F7 and three 80-BF each) in the word: CJK and emoji text.
            if w & 0xC0C0_F0C0_C0F0 == 0x8080_E080_80E0 {
                let pair = out.get_mut(o..o + 2).ok_or(i)?;
                pair[0] = three(w);
                pair[1] = three(w >> 24);
                i += 6;
                o += 2;
                continue;
            }
            if w & 0xC0C0_C0F8_C0C0_C0F8 == 0x8080_80F0_8080_80F0 {
                let pair = out.get_mut(o..o + 2).ok_or(i)?;
                pair[0] = four(w);
                pair[1] = four(w >> 32);
                i += 8;
                o += 2;
                continue;
            }
            if w as u8 >= 0x80 {
                let (cp, len) = sequence(w).ok_or(i)?;
                *out.get_mut(o).ok_or(i)? = cp;
                i += len;
            } else if w & 0x8000 != 0 {
                *out.get_mut(o).ok_or(i)? = w as u32 & 0x7F;
                i += 1;
            } else {
                break;
            }
            o += 1;
        }
        // The last 7 bytes: the same on a word padded with `00` (a sequence cut short
        // by the end then lacks a continuation byte).
        if i + 8 > n && i < n && bytes[i] >= 0x80 {
            let (cp, len) = sequence(word_padded(bytes, i)).ok_or(i)?;
            *out.get_mut(o).ok_or(i)? = cp;
            i += len;
            o += 1;
        }
    }
    Ok(o)
}

/// The code point and length of the sequence whose bytes are the low bytes of the
/// little-endian word `w` (the lead, `80–FF`, in the lowest), or `None` if the lead is
/// not one (`80–BF`, or reserved `FE`/`FF`) or a continuation byte is missing.
#[inline(always)]
pub(super) fn sequence(w: u64) -> Option<(u32, usize)> {
    let lead = w as u8;
    // One branch per length, most common first, each with its continuation bytes
    // checked by one fixed mask (`10xxxxxx` in bytes 1..len).
    if lead < 0xC0 {
        None // `80–BF`: a continuation byte where a sequence must start
    } else if lead < 0xE0 {
        (w & 0xC000 == 0x8000).then(|| (two(w), 2))
    } else if lead < 0xF0 {
        (w & 0xC0_C000 == 0x80_8000).then(|| (three(w), 3))
    } else if lead < 0xF8 {
        (w & 0xC0C0_C000 == 0x8080_8000).then(|| (four(w), 4))
    } else {
        // 5 and 6 bytes (rare), or reserved `FE`/`FF`.
        let len = lead.leading_ones() as usize;
        if len > 6 {
            return None;
        }
        let tail = (1u64 << (8 * len)) - 256;
        if w & tail & 0xC0C0_C0C0_C0C0_C0C0 != tail & HIGH {
            return None;
        }
        let mut raw = lead_bits(lead, len as u8);
        for j in 1..len {
            raw = (raw << 6) | payload(w, j);
        }
        Some((codepoint_of(len as u8, raw), len))
    }
}

/// The low 6 bits of byte `j` of `w`.
#[inline(always)]
fn payload(w: u64, j: usize) -> u32 {
    (w >> (8 * j)) as u32 & 0x3F
}

/// The code point of the 2-byte sequence in the low bytes of `w` (checked by the caller).
#[inline(always)]
pub(super) fn two(w: u64) -> u32 {
    codepoint_of(2, ((w as u32 & 0x1F) << 6) | payload(w, 1))
}

/// The code point of the 3-byte sequence in the low bytes of `w`.
#[inline(always)]
pub(super) fn three(w: u64) -> u32 {
    let raw = ((w as u32 & 0x0F) << 12) | (payload(w, 1) << 6) | payload(w, 2);
    // Without a branch: past the surrogates the offset is 2,048 more.
    let skip = u32::from(raw >= TABLE[3].raw_first) * (TABLE[3].offset - TABLE[2].offset);
    raw + TABLE[2].offset + skip
}

/// The code point of the 4-byte sequence in the low bytes of `w`.
#[inline(always)]
pub(super) fn four(w: u64) -> u32 {
    let raw =
        ((w as u32 & 0x07) << 18) | (payload(w, 1) << 12) | (payload(w, 2) << 6) | payload(w, 3);
    codepoint_of(4, raw)
}

/// Decodes valid Corrected UTF-8 `bytes[i..]` into `out[o..]` until the input position
/// reaches `limit` or beyond (a sequence that starts before `limit` is decoded whole);
/// returns both positions. (NEON's decoder takes one sequence so where no vector path
/// fits.)
///
/// # Panics
///
/// If `out` is too short, or, if `bytes` is not valid, for a sequence cut by the end of
/// the input (the caller validates first).
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
#[inline]
pub(super) fn decode_valid_until(
    bytes: &[u8],
    out: &mut [u32],
    mut i: usize,
    mut o: usize,
    limit: usize,
) -> (usize, usize) {
    let limit = limit.min(bytes.len());
    while i < limit {
        let b = bytes[i];
        if b < 0x80 {
            // Eight ASCII bytes at a time when there are eight.
            if let (Some(chunk), Some(dst)) = (bytes.get(i..i + 8), out.get_mut(o..o + 8)) {
                if word(chunk) & HIGH == 0 {
                    for (d, &s) in dst.iter_mut().zip(chunk) {
                        *d = u32::from(s);
                    }
                    i += 8;
                    o += 8;
                    continue;
                }
            }
            out[o] = u32::from(b);
            i += 1;
            o += 1;
            continue;
        }
        // Valid input: `b` is a lead of 2 to 6 bytes and its continuations follow.
        let len = b.leading_ones() as u8;
        let mut raw = lead_bits(b, len);
        for &c in &bytes[i + 1..i + usize::from(len)] {
            raw = (raw << 6) | u32::from(c & 0x3F);
        }
        out[o] = codepoint_of(len, raw);
        i += usize::from(len);
        o += 1;
    }
    (i, o)
}
