//! Bulk conversion of valid text between Corrected UTF-8 and UTF-8, a code point at a
//! time without a branch per sequence length (text that mixes scripts mixes lengths, and
//! mispredicted branches would cost more than the arithmetic).
//!
//! Both encodings put a sequence's bits in the same places: the lead's marker (`0`,
//! `110`, `1110`, `11110`) then its payload, then 6 payload bits per continuation byte
//! (`10xxxxxx`). They differ in what the payload means: Corrected UTF-8 adds the
//! offset of its row of `corrected::TABLE`; UTF-8 adds nothing. So a sequence of up to
//! 4 bytes, read as a big-endian word, gives its payload by one compaction, and a
//! payload gives its sequence by one spread.

use corrected_utf8::corrected::TABLE;

/// Bytes gathered on the stack before they are appended to the output: one
/// `extend_from_slice` per block rather than per code point.
const BLOCK: usize = 4096;

/// Lead markers of 2-, 3- and 4-byte sequences with their continuation markers, as a
/// big-endian word of the sequence's bytes (index: length − 1).
const MARKERS: [u32; 4] = [0, 0xC080, 0xE0_8080, 0xF080_8080];

/// The high bit of each byte of a word: none is set in 8 ASCII bytes.
const HIGH_BITS: u64 = u64::from_ne_bytes([0x80; 8]);

/// Payload bits of a sequence of each length (index: length − 1).
const PAYLOAD: [u32; 4] = [0x7F, 0x7FF, 0xFFFF, 0x1F_FFFF];

/// The 4 bytes at `at` (0 past the end) as a big-endian word.
#[inline(always)]
fn word(bytes: &[u8], at: usize) -> u32 {
    match bytes.get(at..at + 4) {
        Some(w) => u32::from_be_bytes(w.try_into().expect("4 bytes")),
        None => {
            let mut w = [0; 4];
            let rest = &bytes[at..];
            w[..rest.len()].copy_from_slice(rest);
            u32::from_be_bytes(w)
        }
    }
}

/// The payload of the `len`-byte sequence (1 to 4) at the top of `w`.
#[inline(always)]
fn payload(w: u32, len: usize) -> u32 {
    let v = w >> (32 - 8 * len);
    let compact = (v & 0x3F) | ((v >> 2) & 0xFC0) | ((v >> 4) & 0x3_F000) | ((v >> 6) & 0xFC_0000);
    if len == 1 {
        v
    } else {
        compact & PAYLOAD[len - 1]
    }
}

/// Appends the `len`-byte sequence (1 to 4) of `payload` at `block[o..]`; the next
/// position.
#[inline(always)]
fn spread(block: &mut [u8; BLOCK], o: usize, payload: u32, len: usize) -> usize {
    let p = payload;
    let spread =
        (p & 0x3F) | ((p << 2) & 0x3F00) | ((p << 4) & 0x3F_0000) | ((p << 6) & 0x3F00_0000);
    let w = if len == 1 {
        p
    } else {
        spread | MARKERS[len - 1]
    };
    block[o..o + 4].copy_from_slice(&(w << (32 - 8 * len)).to_be_bytes());
    o + len
}

/// Converts a prefix of `valid` (whole valid sequences of the source encoding) with
/// `step`, which reads the sequence at a position and gives its length and the target's
/// sequence (payload and length), or `None` where the fast path stops; appends to `out`
/// and returns the bytes of `valid` converted.
#[inline(always)]
fn convert<S>(valid: &[u8], out: &mut Vec<u8>, step: S) -> usize
where
    S: Fn(u32, usize) -> Option<(u32, usize)>,
{
    let mut block = [0; BLOCK];
    let (mut i, mut o) = (0, 0);
    while i < valid.len() {
        if o > BLOCK - 8 {
            out.extend_from_slice(&block[..o]);
            o = 0;
        }
        // ASCII is the same bytes in both: 8 at a time when they all are.
        if let Some(ascii) = valid.get(i..i + 8) {
            if u64::from_ne_bytes(ascii.try_into().expect("8 bytes")) & HIGH_BITS == 0 {
                block[o..o + 8].copy_from_slice(ascii);
                (i, o) = (i + 8, o + 8);
                continue;
            }
        }
        if valid[i] < 0x80 {
            block[o] = valid[i];
            (i, o) = (i + 1, o + 1);
            continue;
        }
        let len = valid[i].leading_ones() as usize;
        if len > 4 {
            break;
        }
        let Some((p, n)) = step(word(valid, i), len) else {
            break;
        };
        o = spread(&mut block, o, p, n);
        i += len;
    }
    out.extend_from_slice(&block[..o]);
    i
}

/// Appends the UTF-8 of `valid` (whole valid Corrected UTF-8 sequences) up to its first
/// code point above U+10FFFF (which has no UTF-8 encoding) to `out`; returns the bytes
/// of `valid` converted.
pub(crate) fn corrected_to_utf8(valid: &[u8], out: &mut Vec<u8>) -> usize {
    convert(valid, out, |w, len| {
        let raw = payload(w, len);
        let offset = match len {
            1 => 0,
            2 => TABLE[1].offset,
            3 if raw < TABLE[3].raw_first => TABLE[2].offset,
            3 => TABLE[3].offset,
            _ => TABLE[4].offset,
        };
        let cp = raw + offset;
        if cp > 0x10_FFFF {
            return None;
        }
        // Decoded Corrected UTF-8 has no surrogates, so this is UTF-8.
        let n =
            1 + usize::from(cp >= 0x80) + usize::from(cp >= 0x800) + usize::from(cp >= 0x1_0000);
        Some((cp, n))
    })
}

/// Appends the Corrected UTF-8 of `valid` (whole valid UTF-8 sequences) up to its
/// first C1 control (U+0080..U+009F, which has no Corrected UTF-8 encoding) to `out`;
/// returns the bytes of `valid` converted.
pub(crate) fn utf8_to_corrected(valid: &[u8], out: &mut Vec<u8>) -> usize {
    convert(valid, out, |w, len| {
        let cp = payload(w, len);
        if (0x80..0xA0).contains(&cp) {
            return None;
        }
        // The row of `TABLE` that encodes it: 1 to 4 bytes for a scalar value.
        let row = usize::from(cp >= TABLE[1].first_codepoint())
            + usize::from(cp >= TABLE[2].first_codepoint())
            + usize::from(cp >= TABLE[3].first_codepoint())
            + usize::from(cp >= TABLE[4].first_codepoint());
        let n = usize::from(TABLE[row].len);
        Some((cp - TABLE[row].offset, n))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use corrected_utf8::corrected;

    /// Every scalar value but C1 controls, sampled densely around each row's ends.
    fn sample() -> Vec<u32> {
        let mut cps: Vec<u32> = (0..0x11_0000).step_by(61).collect();
        for row in &TABLE[..5] {
            for edge in [row.first_codepoint(), row.last_codepoint().min(0x10_FFFF)] {
                cps.extend(edge.saturating_sub(3)..=edge.saturating_add(3));
            }
        }
        cps.extend([
            0x7F, 0x80, 0x9F, 0xA0, 0x7FF, 0x800, 0xFFFF, 0x1_0000, 0x10_FFFF,
        ]);
        cps.retain(|&c| char::from_u32(c).is_some() && !(0x80..0xA0).contains(&c));
        cps
    }

    #[test]
    fn both_ways_agree_with_the_codec() {
        let cps = sample();
        let text: String = cps.iter().map(|&c| char::from_u32(c).unwrap()).collect();
        let encoded = corrected::encode(cps.iter().copied()).unwrap();
        let mut out = Vec::new();
        assert_eq!(utf8_to_corrected(text.as_bytes(), &mut out), text.len());
        assert_eq!(out, encoded);
        let mut out = Vec::new();
        assert_eq!(corrected_to_utf8(&encoded, &mut out), encoded.len());
        assert_eq!(out, text.as_bytes());
    }

    #[test]
    fn each_stops_where_the_target_has_no_encoding() {
        let mut out = Vec::new();
        assert_eq!(utf8_to_corrected("ab\u{85}c".as_bytes(), &mut out), 2);
        assert_eq!(out, b"ab");
        let input = corrected::encode([0x41, 0x10_FFFF, 0x11_0000, 0x41]).unwrap();
        let mut out = Vec::new();
        assert_eq!(corrected_to_utf8(&input, &mut out), input.len() - 5);
        assert_eq!(out, "A\u{10FFFF}".as_bytes());
        // 5 and 6 bytes: always above U+10FFFF.
        let input = corrected::encode([0x41, 0x8421_109F]).unwrap();
        let mut out = Vec::new();
        assert_eq!(corrected_to_utf8(&input, &mut out), 1);
    }
}
