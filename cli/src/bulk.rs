//! Bulk conversion of valid text between Corrected UTF-8 and UTF-8, without a branch
//! that depends on the text: mixed scripts change sequence length every few bytes, and
//! a mispredicted branch per code point costs more than all the arithmetic.
//!
//! Both encodings put a sequence's bits in the same places: the lead's marker (`110`,
//! `1110`, `11110`) then its payload, then 6 payload bits per continuation byte
//! (`10xxxxxx`). They differ in what the payload means: Corrected UTF-8 adds the
//! offset of its row of `corrected::TABLE`; UTF-8 adds nothing. So a sequence of up to
//! 4 bytes, read as a big-endian word, gives its payload by one compaction, and a
//! payload gives its sequence by one spread.
//!
//! ASCII is the same bytes in both, and most of the code points of text even where it
//! is mixed. So the input goes 16 bytes at a time: the positions of the leads of
//! longer sequences come from a few word operations; each such sequence is converted
//! where it starts, and the ASCII between two of them is copied by one 16-byte move
//! (of which only the ASCII part is kept). Nothing waits for the length of the
//! sequence before, and a block of ASCII is one move.

use corrected_utf8::corrected::TABLE;

/// Bytes gathered on the stack before they are appended to the output: one
/// `extend_from_slice` per block rather than per code point.
const BLOCK: usize = 4096;

/// Input bytes looked at together.
const STRIDE: usize = 16;

/// The most a stride writes past its output position: its input grows by half at most
/// (a 2-byte Corrected UTF-8 sequence can need 3 bytes in UTF-8, a 3-byte one 4), and
/// the last move writes 16 bytes whatever it keeps.
const STRIDE_OUT: usize = STRIDE * 3 / 2 + STRIDE;

/// How far a stride reads from its start: a sequence starting in its last byte ends 3
/// bytes past it, and the move of the ASCII after it reads 16 bytes from there.
const READ: usize = STRIDE + 3 + STRIDE;

/// The high bit of each byte of a word.
const HIGH_BITS: u64 = u64::from_ne_bytes([0x80; 8]);

/// Lead markers of 2-, 3- and 4-byte sequences with their continuation markers, as a
/// big-endian word of the sequence's bytes (index: length; the others unused).
const MARKERS: [u32; 8] = [0, 0, 0xC080, 0xE0_8080, 0xF080_8080, 0, 0, 0];

/// Payload bits of a sequence (index: length; the others unused).
const PAYLOAD: [u32; 8] = [0, 0, 0x7FF, 0xFFFF, 0x1F_FFFF, 0, 0, 0];

/// What a converter makes of the sequence (not ASCII) at the top of a big-endian word.
struct Converted {
    /// The target's sequence at the top of a big-endian word.
    word: u32,
    /// Its length.
    len: usize,
    /// The source's length.
    source_len: usize,
    /// The source's sequence has no encoding in the target (or no fast path): stop
    /// before it.
    stop: bool,
}

/// The length (2 to 4) and payload of the sequence (not ASCII) at the top of `w`, and
/// whether it is longer than 4 bytes (then the payload is meaningless).
#[inline(always)]
fn payload(w: u32) -> (usize, u32, bool) {
    let ones = w.leading_ones() as usize;
    let len = ones.clamp(2, 4);
    let v = w >> (32 - 8 * len);
    let compact = (v & 0x3F) | ((v >> 2) & 0xFC0) | ((v >> 4) & 0x3_F000) | ((v >> 6) & 0xFC_0000);
    (len, compact & PAYLOAD[len], ones > 4)
}

/// The `len`-byte sequence (2 to 4) of `payload` at the top of a big-endian word.
#[inline(always)]
fn spread(payload: u32, len: usize) -> u32 {
    let p = payload;
    let spread =
        (p & 0x3F) | ((p << 2) & 0x3F00) | ((p << 4) & 0x3F_0000) | ((p << 6) & 0x3F00_0000);
    (spread | MARKERS[len]) << (32 - 8 * len)
}

/// The 8 bytes at `at`, little-endian.
#[inline(always)]
fn word64(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// Bit `k` set when byte `k` of `w` (little-endian) leads a sequence longer than ASCII
/// (`11xxxxxx`).
#[inline(always)]
fn long_leads(w: u64) -> u32 {
    let lead = w & (w << 1) & HIGH_BITS;
    // Each byte's high bit to bit k of the top byte (a movemask without SIMD).
    ((lead >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// Where a conversion is: the input position up to which everything is converted, and
/// the output position in the block.
#[derive(Clone, Copy)]
struct At {
    input: usize,
    output: usize,
}

/// Converts a prefix of `valid` (whole valid sequences of the source encoding) with
/// `step`; appends to `out` and returns the bytes of `valid` converted: all of it, or
/// up to the first sequence `step` stops at.
#[inline(always)]
fn convert<S>(valid: &[u8], out: &mut Vec<u8>, step: S) -> usize
where
    S: Fn(u32) -> Converted,
{
    let mut block = [0; BLOCK + STRIDE];
    let mut at = At {
        input: 0,
        output: 0,
    };
    let mut start = 0;
    while start + READ <= valid.len() {
        if at.output > BLOCK - STRIDE_OUT {
            out.extend_from_slice(&block[..at.output]);
            at.output = 0;
        }
        let stopped;
        (at, stopped) = stride(valid, start, start + STRIDE, at, &mut block, &step);
        if stopped {
            out.extend_from_slice(&block[..at.output]);
            return at.input;
        }
        start += STRIDE;
    }
    // The last bytes (fewer than `READ`) from a zero-padded copy: at most three strides.
    out.extend_from_slice(&block[..at.output]);
    let rest = &valid[start..];
    let mut padded = [0; 2 * READ];
    padded[..rest.len()].copy_from_slice(rest);
    let mut at = At {
        input: at.input - start,
        output: 0,
    };
    for from in (0..rest.len()).step_by(STRIDE) {
        let stopped;
        (at, stopped) = stride(
            &padded,
            from,
            rest.len().min(from + STRIDE),
            at,
            &mut block,
            &step,
        );
        if stopped {
            break;
        }
    }
    out.extend_from_slice(&block[..at.output]);
    start + at.input
}

/// Converts the sequences that start in `bytes[from..end]` (`end` at most a stride
/// further; `bytes` has [`READ`] bytes from `from`), from `at` (everything before
/// `at.input` is converted: a sequence of the stride before may end in this one) into
/// `block`; where it got to, and whether `step` stopped there.
#[inline(always)]
fn stride<S>(
    bytes: &[u8],
    from: usize,
    end: usize,
    mut at: At,
    block: &mut [u8; BLOCK + STRIDE],
    step: &S,
) -> (At, bool)
where
    S: Fn(u32) -> Converted,
{
    let within = (1u32 << (end - from)) - 1;
    let mut leads =
        (long_leads(word64(bytes, from)) | long_leads(word64(bytes, from + 8)) << 8) & within;
    // Moves the ASCII from `at.input` to `to` (at most a stride).
    let ascii = |at: &mut At, block: &mut [u8; BLOCK + STRIDE], to: usize| {
        let n = to.saturating_sub(at.input);
        // The output stays below `BLOCK` (it is flushed before): the mask changes
        // nothing, but with it the compiler drops the bounds checks.
        let o = at.output & (BLOCK - 1);
        block[o..o + STRIDE].copy_from_slice(&bytes[at.input..at.input + STRIDE]);
        at.input += n;
        at.output += n;
    };
    while leads != 0 {
        let p = from + leads.trailing_zeros() as usize;
        leads &= leads - 1;
        // Between the end of the sequence before and this one: ASCII.
        ascii(&mut at, block, p);
        let c = step(u32::from_be_bytes(
            bytes[p..p + 4].try_into().expect("4 bytes"),
        ));
        if c.stop {
            return (at, true);
        }
        let o = at.output & (BLOCK - 1);
        block[o..o + 4].copy_from_slice(&c.word.to_be_bytes());
        at.output += c.len;
        at.input += c.source_len;
    }
    ascii(&mut at, block, end);
    (at, false)
}

/// Appends the UTF-8 of `valid` (whole valid Corrected UTF-8 sequences) up to its first
/// code point above U+10FFFF (which has no UTF-8 encoding) to `out`; returns the bytes
/// of `valid` converted.
pub(crate) fn corrected_to_utf8(valid: &[u8], out: &mut Vec<u8>) -> usize {
    // The offset of each length's row; 3 bytes has two rows, told apart by the payload.
    const OFFSET: [u32; 8] = [
        0,
        0,
        TABLE[1].offset,
        TABLE[2].offset,
        TABLE[4].offset,
        0,
        0,
        0,
    ];
    const ROW3_STEP: u32 = TABLE[3].offset - TABLE[2].offset;
    convert(valid, out, |w| {
        let (len, raw, long) = payload(w);
        let upper = u32::from(len == 3 && raw >= TABLE[3].raw_first);
        let cp = raw + OFFSET[len] + upper * ROW3_STEP;
        // Above ASCII, and decoded Corrected UTF-8 has no surrogates: this is UTF-8.
        let n = 2 + usize::from(cp >= 0x800) + usize::from(cp >= 0x1_0000);
        Converted {
            word: spread(cp, n),
            len: n,
            source_len: len,
            stop: long | (cp > 0x10_FFFF),
        }
    })
}

/// Appends the Corrected UTF-8 of `valid` (whole valid UTF-8 sequences) up to its
/// first C1 control (U+0080..U+009F, which has no Corrected UTF-8 encoding) to `out`;
/// returns the bytes of `valid` converted.
pub(crate) fn utf8_to_corrected(valid: &[u8], out: &mut Vec<u8>) -> usize {
    const LEN: [u8; 8] = [
        0,
        TABLE[1].len,
        TABLE[2].len,
        TABLE[3].len,
        TABLE[4].len,
        0,
        0,
        0,
    ];
    const OFFSET: [u32; 8] = [
        0,
        TABLE[1].offset,
        TABLE[2].offset,
        TABLE[3].offset,
        TABLE[4].offset,
        0,
        0,
        0,
    ];
    convert(valid, out, |w| {
        let (len, cp, _) = payload(w);
        // The row of `TABLE` that encodes it: 2 to 4 bytes above the C1 controls.
        let row = 1
            + usize::from(cp >= TABLE[2].first_codepoint())
            + usize::from(cp >= TABLE[3].first_codepoint())
            + usize::from(cp >= TABLE[4].first_codepoint());
        let n = usize::from(LEN[row]);
        Converted {
            word: spread(cp.wrapping_sub(OFFSET[row]), n),
            len: n,
            source_len: len,
            stop: cp < TABLE[1].first_codepoint(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use corrected_utf8::{corrected, utf8};

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

    /// Every length up to a few strides, so that the last bytes go through each of the
    /// zero-padded strides, whole and cut.
    #[test]
    fn every_short_length_converts_whole() {
        let cps: Vec<u32> = "aö€🦀 大\n"
            .chars()
            .cycle()
            .take(40)
            .map(u32::from)
            .collect();
        for n in 0..cps.len() {
            let text = utf8::encode(cps[..n].iter().copied()).unwrap();
            let encoded = corrected::encode(cps[..n].iter().copied()).unwrap();
            let mut out = Vec::new();
            assert_eq!(utf8_to_corrected(&text, &mut out), text.len());
            assert_eq!(out, encoded);
            let mut out = Vec::new();
            assert_eq!(corrected_to_utf8(&encoded, &mut out), encoded.len());
            assert_eq!(out, text);
        }
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
