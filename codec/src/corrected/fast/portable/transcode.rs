//! The portable transcoder loops between Corrected UTF-8 and UTF-8, in one pass: each
//! sequence is checked as it is read (a mask compare on the little-endian word at its
//! lead, and for UTF-8 the range of its code point), converted in a register and
//! written as one word through [`Output`]; two 3-byte or two 4-byte sequences in a word
//! (CJK and emoji text) at once. A loop stops before the first sequence that is not
//! valid or has no encoding in the target, and the finishing code (`kernels.rs`) finds
//! out which from there.

use super::encode::{corrected_word, Output};
use super::{four, sequence, three, word_padded, HIGH};
use alloc::vec::Vec;

/// One step of a converter on the word at a non-ASCII lead: the output's bytes (the low
/// ones of a little-endian word), how many, and the input bytes used; `None` to stop
/// before this sequence.
type Step = Option<(u64, usize, usize)>;

/// The loop both converters share: per word at `i`, the ASCII bytes it starts with are
/// written at once, else `step` converts the sequence (or two) there. Returns the input
/// position reached and whether `step` stopped there.
#[inline(always)]
fn convert(
    bytes: &[u8],
    mut i: usize,
    limit: usize,
    out: &mut Vec<u8>,
    step: impl Fn(u64) -> Step,
) -> (usize, bool) {
    let limit = limit.min(bytes.len());
    out.reserve(limit.saturating_sub(i));
    let mut output = Output::new(out);
    while i < limit {
        let w = word_padded(bytes, i);
        let ascii = (w & HIGH).trailing_zeros() as usize / 8;
        let (word, n, used) = if ascii > 0 {
            let n = ascii.min(limit - i);
            (w, n, n)
        } else if let Some(converted) = step(w) {
            converted
        } else {
            return (i, true);
        };
        output.push(word, n);
        i += used;
    }
    (i, false)
}

/// Converts the Corrected UTF-8 sequences of `bytes` that start from `i` to before
/// `limit` (a sequence that starts before `limit` is converted whole), appending their
/// UTF-8 to `out`, and stops before the first that is not valid (an error or a reserved
/// span starts there) or whose code point is above U+10FFFF. Returns the input position
/// reached and whether it stopped there.
pub(in crate::corrected::fast) fn corrected_to_utf8(
    bytes: &[u8],
    i: usize,
    limit: usize,
    out: &mut Vec<u8>,
) -> (usize, bool) {
    convert(bytes, i, limit, out, |w| {
        // Two 3-byte sequences (CJK text), each E0-EF then two continuation bytes.
        if w & 0xC0C0_F0C0_C0F0 == 0x8080_E080_80E0 {
            let ((a, n), (b, m)) = (utf8_word(three(w)), utf8_word(three(w >> 24)));
            return Some((u64::from(a) | u64::from(b) << (8 * n), n + m, 6));
        }
        // Two 4-byte sequences (emoji), both of U+10FFFF or below (4 bytes in UTF-8).
        if w & 0xC0C0_C0F8_C0C0_C0F8 == 0x8080_80F0_8080_80F0 {
            let (a, b) = (four(w), four(w >> 32));
            if a.max(b) <= 0x10_FFFF {
                let ((a, _), (b, _)) = (utf8_word(a), utf8_word(b));
                return Some((u64::from(a) | u64::from(b) << 32, 8, 8));
            }
        }
        let (cp, len) = sequence(w)?;
        if cp > 0x10_FFFF {
            return None;
        }
        let (word, n) = utf8_word(cp);
        Some((u64::from(word), n, len))
    })
}

/// The UTF-8 of `cp` (U+0080 to U+10FFFF, not a surrogate) as the low bytes of a
/// little-endian word, and its length.
#[inline(always)]
fn utf8_word(cp: u32) -> (u32, usize) {
    let cont = |shift: u32| 0x80 | (cp >> shift & 0x3F);
    if cp < 0x800 {
        (0xC0 | cp >> 6 | cont(0) << 8, 2)
    } else if cp < 0x1_0000 {
        (0xE0 | cp >> 12 | cont(6) << 8 | cont(0) << 16, 3)
    } else {
        (
            0xF0 | cp >> 18 | cont(12) << 8 | cont(6) << 16 | cont(0) << 24,
            4,
        )
    }
}

/// The code point of the 3-byte UTF-8 sequence in the low bytes of `w`.
#[inline(always)]
fn utf8_three(w: u64) -> u32 {
    let c = |j: u32| (w >> (8 * j)) as u32 & 0x3F;
    (w as u32 & 0x0F) << 12 | c(1) << 6 | c(2)
}

/// The code point of the 4-byte UTF-8 sequence in the low bytes of `w`.
#[inline(always)]
fn utf8_four(w: u64) -> u32 {
    let c = |j: u32| (w >> (8 * j)) as u32 & 0x3F;
    (w as u32 & 0x07) << 18 | c(1) << 12 | c(2) << 6 | c(3)
}

/// Whether `cp`, from a 3-byte UTF-8 sequence, is one (U+0800 on, not a surrogate).
#[inline(always)]
fn three_ok(cp: u32) -> bool {
    (cp >= 0x800) & (cp.wrapping_sub(0xD800) >= 0x800)
}

/// Whether `cp`, from a 4-byte UTF-8 sequence, is one (U+10000 to U+10FFFF).
#[inline(always)]
fn four_ok(cp: u32) -> bool {
    cp.wrapping_sub(0x1_0000) < 0x10_0000
}

/// The code point and length of the valid UTF-8 sequence whose bytes are the low bytes
/// of the little-endian word `w` (a lead `80–FF` in the lowest), or `None` if it is not
/// one (a continuation byte or `C0`, `C1`, `F5–FF` as the lead, a continuation byte
/// missing, an overlong form, a surrogate, above U+10FFFF): Table 3-7 of the Unicode
/// Standard.
#[inline(always)]
fn utf8_sequence(w: u64) -> Option<(u32, usize)> {
    let lead = w as u32 & 0xFF;
    if lead < 0xC2 {
        None
    } else if lead < 0xE0 {
        (w & 0xC000 == 0x8000).then_some(((lead & 0x1F) << 6 | (w >> 8) as u32 & 0x3F, 2))
    } else if lead < 0xF0 {
        let cp = utf8_three(w);
        (w & 0xC0_C000 == 0x80_8000 && three_ok(cp)).then_some((cp, 3))
    } else {
        let cp = utf8_four(w);
        (lead < 0xF5 && w & 0xC0C0_C000 == 0x8080_8000 && four_ok(cp)).then_some((cp, 4))
    }
}

/// Converts the UTF-8 sequences of `bytes` that start from `i` to before `limit`,
/// appending their Corrected UTF-8 to `out`, and stops before the first that is not
/// valid UTF-8 or is a C1 control (which has no Corrected UTF-8). Returns the input
/// position reached and whether it stopped there.
pub(in crate::corrected::fast) fn utf8_to_corrected(
    bytes: &[u8],
    i: usize,
    limit: usize,
    out: &mut Vec<u8>,
) -> (usize, bool) {
    // Two sequences' Corrected UTF-8 as one output word.
    let two = |a: u32, b: u32, used: usize| {
        let ((a, n), (b, m)) = (corrected_word(a), corrected_word(b));
        Some((u64::from(a) | u64::from(b) << (8 * n), n + m, used))
    };
    convert(bytes, i, limit, out, |w| {
        // Two 3-byte sequences (CJK text: U+0800 to U+FFFF) or two 4-byte ones (emoji:
        // above U+FFFF) in the word; never C1.
        if w & 0xC0C0_F0C0_C0F0 == 0x8080_E080_80E0 {
            let (a, b) = (utf8_three(w), utf8_three(w >> 24));
            if three_ok(a) & three_ok(b) {
                return two(a, b, 6);
            }
        }
        if w & 0xC0C0_C0F8_C0C0_C0F8 == 0x8080_80F0_8080_80F0 {
            let (a, b) = (utf8_four(w), utf8_four(w >> 32));
            if four_ok(a) & four_ok(b) {
                return two(a, b, 8);
            }
        }
        let (cp, len) = utf8_sequence(w)?;
        if cp < 0xA0 {
            return None; // a C1 control
        }
        let (word, n) = corrected_word(cp);
        Some((u64::from(word), n, len))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass check is Table 3-7: every sequence of 1 to 4 bytes (the second byte
    /// every value, the others a continuation or not) is accepted exactly when std
    /// accepts it, with std's code point.
    #[test]
    fn utf8_sequence_accepts_exactly_what_std_does() {
        for lead in 0x80..=0xFFu64 {
            for second in 0..=0xFFu64 {
                for rest in [0x8080, 0x80BF, 0xBF80, 0x0080, 0x8000, 0x41_41] {
                    let w = lead | second << 8 | rest << 16;
                    let bytes = w.to_le_bytes();
                    let want = (2..=4).find_map(|len| {
                        let s = core::str::from_utf8(&bytes[..len]).ok()?;
                        Some((u32::from(s.chars().next()?), len))
                    });
                    assert_eq!(utf8_sequence(w), want, "{bytes:02X?}");
                }
            }
        }
    }
}
