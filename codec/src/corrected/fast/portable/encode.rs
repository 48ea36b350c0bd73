//! The portable encoder, and [`Output`], which it and the transcoder loops write
//! through.

use crate::corrected;
use crate::error::EncodeError;
use alloc::vec::Vec;

/// Bytes [`Output`] adds to the `Vec` at a time (zero-filled, then written over).
const ROOM: usize = 512;

/// What the portable loops write through, in safe code and without a capacity check per
/// code point: each code point's bytes (the low bytes of a little-endian word) are
/// stored as one 8-byte word straight into the `Vec`, whatever their length, into room
/// it was grown by (zeros, [`ROOM`] bytes at a time, then written over; the room left is
/// cut off when the `Output` is dropped, so an early return keeps exactly the bytes of
/// everything before it). Nothing is read back (a block on the stack copied out would
/// load what the word stores just wrote, which the CPU cannot forward).
pub(in crate::corrected::fast) struct Output<'a> {
    out: &'a mut Vec<u8>,
    /// Bytes written: `out.len()` less the room.
    len: usize,
}

impl<'a> Output<'a> {
    /// Writes after what `out` holds.
    pub(super) fn new(out: &'a mut Vec<u8>) -> Self {
        let len = out.len();
        Output { out, len }
    }

    /// Appends the low `n` bytes (at most 8) of the little-endian `word`.
    #[inline(always)]
    pub(super) fn push(&mut self, word: u64, n: usize) {
        debug_assert!(n <= 8);
        if self.len + 8 > self.out.len() {
            grow(self.out, self.len);
        }
        self.out[self.len..self.len + 8].copy_from_slice(&word.to_le_bytes());
        self.len += n;
    }

    /// Appends the low `n1` bytes (at most 8) of `first` and then the low `n2` (at most 8)
    /// of `second`, with one test for room.
    #[inline(always)]
    pub(super) fn push2(&mut self, first: u64, n1: usize, second: u64, n2: usize) {
        debug_assert!(n1 <= 8 && n2 <= 8);
        if self.len + 16 > self.out.len() {
            grow(self.out, self.len);
        }
        let room = &mut self.out[self.len..self.len + 16];
        room[..8].copy_from_slice(&first.to_le_bytes());
        room[n1..n1 + 8].copy_from_slice(&second.to_le_bytes());
        self.len += n1 + n2;
    }

    /// Appends `ascii` (code points below U+0080), one byte each.
    #[inline]
    pub(super) fn extend_ascii(&mut self, ascii: &[u32]) {
        self.out.truncate(self.len);
        // A loop LLVM vectorizes (the truncation to bytes is exact below U+0080).
        self.out.extend(ascii.iter().map(|&c| c as u8));
        self.len = self.out.len();
    }
}

/// More room in `out`, [`ROOM`] bytes past the `len` written. (Not a method: were the
/// `Output`'s address passed on, every byte stored into the `Vec` might have changed its
/// `len`, which would be read back from memory after each.)
#[cold]
#[inline(never)]
fn grow(out: &mut Vec<u8>, len: usize) {
    out.resize(len + ROOM, 0);
}

impl Drop for Output<'_> {
    fn drop(&mut self) {
        self.out.truncate(self.len);
    }
}

/// The 2-byte form `110xxxxx 10xxxxxx` of an 11-bit raw value, as the low bytes of a
/// little-endian word.
#[inline(always)]
fn two_bytes(raw: u32) -> u32 {
    0x80C0 | raw >> 6 | (raw & 0x3F) << 8
}

/// The 3-byte form `1110xxxx 10xxxxxx 10xxxxxx` of a 16-bit raw value: its 6-bit groups
/// moved into place by shifts (no loop over the bytes).
#[inline(always)]
pub(super) fn three_bytes(raw: u32) -> u32 {
    0x80_80E0 | raw >> 12 | (raw << 2 & 0x3F00) | (raw << 16 & 0x3F_0000)
}

/// The 4-byte form `11110xxx 10xxxxxx 10xxxxxx 10xxxxxx` of a 21-bit raw value.
#[inline(always)]
pub(super) fn four_bytes(raw: u32) -> u32 {
    0x8080_80F0
        | raw >> 18
        | (raw >> 4 & 0x3F00)
        | (raw << 10 & 0x3F_0000)
        | raw << 24 & 0x3F00_0000
}

/// The raw value of a code point of the 3-byte rows (U+08A0 to U+1109F, not a
/// surrogate): its offset is 2,048 more past the surrogates.
#[inline(always)]
fn raw3(cp: u32) -> u32 {
    cp - corrected::TABLE[2].offset
        - u32::from(cp >= 0xE000) * (corrected::TABLE[3].offset - corrected::TABLE[2].offset)
}

/// Whether `cp` is in the 3-byte rows (U+08A0 to U+1109F) and not a surrogate.
#[inline(always)]
fn is_three(cp: u32) -> bool {
    (cp.wrapping_sub(0x8A0) < 0x1_10A0 - 0x8A0) & (cp.wrapping_sub(0xD800) >= 0x800)
}

/// Whether `cp` is in the 4-byte row (U+110A0 to U+21109F).
#[inline(always)]
fn is_four(cp: u32) -> bool {
    cp.wrapping_sub(0x1_10A0) < 0x21_10A0 - 0x1_10A0
}

/// The Corrected UTF-8 of `cp` (U+00A0 to U+2110_9F, not a surrogate) as the low bytes
/// of a little-endian word, and its length; `cp - offset` of its row (see
/// [`corrected::TABLE`]) is the raw value the bytes carry.
#[inline(always)]
pub(super) fn corrected_word(cp: u32) -> (u32, usize) {
    if cp < 0x8A0 {
        (two_bytes(cp - corrected::TABLE[1].offset), 2)
    } else if cp < 0x1_10A0 {
        (three_bytes(raw3(cp)), 3)
    } else {
        (four_bytes(cp - corrected::TABLE[4].offset), 4)
    }
}

/// The offset of each row from 2 bytes on (index: length − 2), the 3-byte rows' first
/// (the second is 2,048 more).
const OFFSET: [u32; 5] = [
    corrected::TABLE[1].offset,
    corrected::TABLE[2].offset,
    corrected::TABLE[4].offset,
    corrected::TABLE[5].offset,
    corrected::TABLE[6].offset,
];

/// The Corrected UTF-8 of a code point as the low bytes of a little-endian word, and
/// its length; `None` if it has none (a C1 control, a surrogate, above U+8421109F).
/// Without a branch on the length, so that text of mixed lengths costs no
/// mispredictions: the row by compares, the 6-byte form of the raw value by shifts,
/// shifted right by whole bytes to the length, and the lead's mark; ASCII chosen at the
/// end (a conditional move).
#[inline(always)]
fn encoded_word(cp: u32) -> Option<(u64, usize)> {
    let at_least = |first: u32| u32::from(cp >= first);
    // Length − 2, 0 to 4 (also 0 for ASCII and a C1 control).
    let row = at_least(0x8A0) + at_least(0x1_10A0) + at_least(0x21_10A0) + at_least(0x421_10A0);
    let bad = (cp.wrapping_sub(0x80) < 0x20)
        | (cp.wrapping_sub(0xD800) < 0x800)
        | (cp > corrected::MAX_CODEPOINT);
    if bad {
        return None;
    }
    let past_surrogates = u32::from(row == 1) & at_least(0xE000);
    // (Wraps for ASCII, whose word is chosen below.)
    let raw = u64::from(
        cp.wrapping_sub(OFFSET[row as usize % 5])
            .wrapping_sub(past_surrogates << 11),
    );
    let six = 0x8080_8080_8080
        | raw >> 30
        | (raw >> 16 & 0x3F00)
        | (raw >> 2 & 0x3F_0000)
        | (raw << 12 & 0x3F00_0000)
        | (raw << 26 & 0x3F_0000_0000)
        | (raw << 40 & 0x3F00_0000_0000);
    let len = row as usize + 2;
    let word = six >> (8 * (6 - len)) | (0xFF00 >> len & 0xFF);
    let ascii = cp < 0x80;
    Some((
        core::hint::select_unpredictable(ascii, u64::from(cp), word),
        core::hint::select_unpredictable(ascii, 1, len),
    ))
}

/// The error for a code point that [`encoded_word`] rejected.
#[cold]
fn encode_error(cp: u32) -> EncodeError {
    match corrected::encoded_len(cp) {
        Err(e) => e,
        // Unreachable: encoded_word and encoded_len agree (tested exhaustively).
        Ok(_) => EncodeError {
            kind: crate::ErrorKind::OutOfRange,
            codepoint: cp,
        },
    }
}

/// Appends the encoding of `codepoints` to `out`, or fails at the first code point that
/// has none (with the code points before it encoded): 8 at a time while they are ASCII,
/// four or two at a time while they are of the same 3- or 4-byte row or ASCII (CJK and
/// emoji text, with its newlines and spaces), else
/// the next [`MIXED`] one word per code point through [`Output`], without a branch on
/// the length.
pub(in crate::corrected::fast) fn encode(
    codepoints: &[u32],
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    out.reserve(codepoints.len());
    let mut output = Output::new(out);
    let mut i = 0;
    while let Some(&cp) = codepoints.get(i) {
        // By the class of this code point, a run of its class if the next are too (the
        // runs also keep a lone ASCII character), else this one alone.
        let next = |n: usize| codepoints.get(i + 1..i + n);
        if is_short(cp) {
            // (One test of the three, not a branch on each.)
            if next(4).is_some_and(|n| n.iter().fold(true, |all, &c| all & is_short(c))) {
                i = short_run(codepoints, i, &mut output);
            } else {
                let (word, n) = short_word(cp);
                output.push(u64::from(word), n);
                i += 1;
            }
            continue;
        }
        if is_three(cp) && next(2).is_some_and(|n| is_three(n[0])) {
            i = three_run(codepoints, i, &mut output);
            continue;
        }
        if is_four(cp) && next(2).is_some_and(|n| is_four(n[0])) {
            i = four_run(codepoints, i, &mut output);
            continue;
        }
        // None of the runs: text of mixed lengths. The next code points (up to 16) by
        // the encoder without a branch on the length, before looking for runs again.
        let end = codepoints.len().min(i + MIXED);
        for &cp in &codepoints[i..end] {
            let Some((word, n)) = encoded_word(cp) else {
                return Err(encode_error(cp));
            };
            output.push(word, n);
            i += 1;
        }
    }
    Ok(())
}

/// Code points encoded by [`encoded_word`] once no run was found: in text whose
/// lengths change at random every test for a run is a mispredicted branch (about 13
/// cycles on the CPUs measured), and a run found up to this many code points late costs
/// less than that.
const MIXED: usize = 16;

/// Whether `cp` has 1 or 2 bytes (ASCII, or U+00A0 to U+089F).
#[inline(always)]
fn is_short(cp: u32) -> bool {
    (cp < 0x80) | (cp.wrapping_sub(0xA0) < 0x8A0 - 0xA0)
}

/// The 1- or 2-byte encoding of `cp` (see [`is_short`]) and its length, without a branch.
#[inline(always)]
fn short_word(cp: u32) -> (u32, usize) {
    let two = cp >= 0x80;
    // (The hint, or LLVM makes it a branch, mispredicted at every other change of
    // length in Latin text.)
    let word = core::hint::select_unpredictable(
        two,
        two_bytes(cp.wrapping_sub(corrected::TABLE[1].offset)),
        cp,
    );
    (word, 1 + usize::from(two))
}

/// Encodes the run of 1- and 2-byte code points from `i` (Latin text, ASCII), four at a
/// time while all four are, each without a branch on its length (in Latin text the
/// lengths alternate at random, and a branch on each would be mispredicted often) and
/// the four written as one word; once 16 ASCII came in a row, the rest of the ASCII run
/// is found 8 at a time and narrowed in bulk straight into the `Vec`. Returns where it
/// stopped.
#[inline(always)]
fn short_run(codepoints: &[u32], mut i: usize, output: &mut Output<'_>) -> usize {
    let mut ascii_fours = 0u32;
    while let Some(&[a, b, c, d]) = codepoints.get(i..i + 4) {
        let not_short = |cp: u32| u32::from(cp >= 0x80) & u32::from(cp.wrapping_sub(0xA0) >= 0x800);
        if not_short(a) | not_short(b) | not_short(c) | not_short(d) != 0 {
            break;
        }
        let [(wa, na), (wb, nb), (wc, nc), (wd, nd)] = [a, b, c, d].map(short_word);
        let word = u64::from(wa)
            | u64::from(wb) << (8 * na)
            | u64::from(wc) << (8 * (na + nb))
            | u64::from(wd) << (8 * (na + nb + nc));
        output.push(word, na + nb + nc + nd);
        i += 4;
        // Fours of ASCII in a row, counted without a branch.
        ascii_fours = (ascii_fours + 1) * u32::from((a | b | c | d) < 0x80);
        if ascii_fours == 4 {
            let ascii = |cps: &[u32]| cps.iter().fold(0, |any, &c| any | c) < 0x80;
            let mut end = i;
            while codepoints.get(end..end + 8).is_some_and(ascii) {
                end += 8;
            }
            output.extend_ascii(&codepoints[i..end]);
            i = end;
            ascii_fours = 0;
        }
    }
    i
}

/// `x` in both 32-bit halves of a word.
const fn both(x: u32) -> u64 {
    x as u64 * 0x1_0000_0001
}

/// Encodes the run of code points of the 3-byte rows (CJK text) from `i` by
/// [`run_with_ascii`]: four of those rows as two SWAR pairs packed to 6 bytes
/// ([`three_pair`]), a four with ASCII among them (a newline now and then) as pairs in
/// 32-bit halves ([`three_lanes`]). Telling the two apart costs one mispredicted branch
/// per line, the old test of each pair for ASCII two or three. Returns where it stopped.
///
/// (Zen 4, the bench's CJK text: 1 MiB 1.61 → 1.86 GB/s; with every four through
/// `with_ascii` it was 1.38, the packing of two 3-byte forms costing more than the
/// branch.)
#[inline(always)]
fn three_run(codepoints: &[u32], i: usize, output: &mut Output<'_>) -> usize {
    run_with_ascii(
        codepoints,
        i,
        output,
        is_three,
        three_lanes,
        3,
        Some(three_pair),
    )
}

/// Encodes the run from `i` of code points of one row (`in_row`: 3 or 4 bytes, `n`) or
/// ASCII (the newlines and spaces of CJK and emoji text), four at a time while each is,
/// then two: each pair's forms in the 32-bit halves of a word from `lanes`, the ASCII
/// chosen per code point without a branch ([`with_ascii`]). With `packed`, four of the
/// row (no ASCII) are written as two words from it, `2n` bytes each. Returns where it
/// stopped.
#[inline(always)]
fn run_with_ascii(
    codepoints: &[u32],
    mut i: usize,
    output: &mut Output<'_>,
    in_row: impl Fn(u32) -> bool,
    lanes: impl Fn(u32, u32) -> u64,
    n: usize,
    packed: Option<fn(u32, u32) -> u64>,
) -> usize {
    let in_run = |c: u32| in_row(c) | (c < 0x80);
    while let Some(&[a, b, c, d]) = codepoints.get(i..i + 4) {
        if let Some(packed) = packed {
            if in_row(a) & in_row(b) & in_row(c) & in_row(d) {
                output.push2(packed(a, b), 2 * n, packed(c, d), 2 * n);
                i += 4;
                continue;
            }
        }
        if !(in_run(a) & in_run(b) & in_run(c) & in_run(d)) {
            break;
        }
        let (first, n1) = with_ascii(a, b, lanes(a, b), n);
        let (second, n2) = with_ascii(c, d, lanes(c, d), n);
        output.push2(first, n1, second, n2);
        i += 4;
    }
    while let Some(&[a, b]) = codepoints.get(i..i + 2) {
        if !(in_run(a) & in_run(b)) {
            break;
        }
        let (word, n) = with_ascii(a, b, lanes(a, b), n);
        output.push(word, n);
        i += 2;
    }
    i
}

/// Two code points of the 3-byte rows (see [`is_three`]) encoded together: their forms
/// ([`three_lanes`]) put together, 6 bytes.
#[inline(always)]
fn three_pair(a: u32, b: u32) -> u64 {
    let w = three_lanes(a, b);
    (w & 0xFF_FFFF) | ((w >> 8) & 0xFFFF_FF00_0000)
}

/// The 3-byte forms of `a` and `b` (of the 3-byte rows, or ASCII: then a form of no
/// meaning, see [`with_ascii`]) in the two 32-bit halves of a word (SWAR): the row offset
/// taken off (2,048 more past the surrogates: where bit 16 of `cp + 0x2000` is set), the
/// 6-bit groups moved into place.
#[inline(always)]
fn three_lanes(a: u32, b: u32) -> u64 {
    // (`max`: an ASCII code point would borrow from the other half.)
    let first = corrected::TABLE[2].offset;
    let x = u64::from(a.max(first)) | u64::from(b.max(first)) << 32;
    let past_surrogates = ((x + both(0x2000)) >> 16) & both(1);
    let raw = x - both(first) - (past_surrogates << 11);
    both(0x80_80E0)
        | ((raw >> 12) & both(0xF))
        | ((raw << 2) & both(0x3F00))
        | ((raw << 16) & both(0x3F_0000))
}

/// Encodes the run of code points of the 4-byte row (emoji) from `i` by
/// [`run_with_ascii`], each pair in 32-bit halves ([`four_pair`]), a space now and then
/// among them. Returns where it stopped.
#[inline(always)]
fn four_run(codepoints: &[u32], i: usize, output: &mut Output<'_>) -> usize {
    run_with_ascii(codepoints, i, output, is_four, four_pair, 4, None)
}

/// The 4-byte forms of `a` and `b` (of the 4-byte row, or ASCII: then a form of no
/// meaning, see [`with_ascii`]) in the two 32-bit halves of a word (SWAR).
#[inline(always)]
fn four_pair(a: u32, b: u32) -> u64 {
    // (`max`: an ASCII code point would borrow from the other half.)
    let first = corrected::TABLE[4].offset;
    let x = u64::from(a.max(first)) | u64::from(b.max(first)) << 32;
    let raw = x - both(first);
    both(0x8080_80F0)
        | ((raw >> 18) & both(0x7))
        | ((raw >> 4) & both(0x3F00))
        | ((raw << 10) & both(0x3F_0000))
        | ((raw << 24) & both(0x3F00_0000))
}

/// The bytes of `a` then `b` and how many, from their `n`-byte forms in the halves of
/// `pair`, or the code point itself where it is ASCII, chosen without a branch (in CJK
/// and emoji text a newline or space comes at random).
#[inline(always)]
fn with_ascii(a: u32, b: u32, pair: u64, n: usize) -> (u64, usize) {
    let one = |c: u32, form: u32| {
        let ascii = c < 0x80;
        (
            u64::from(core::hint::select_unpredictable(ascii, c, form)),
            core::hint::select_unpredictable(ascii, 1, n),
        )
    };
    let (wa, na) = one(a, pair as u32);
    let (wb, nb) = one(b, (pair >> 32) as u32);
    (wa | wb << (8 * na), na + nb)
}

/// Appends the encoding of `codepoints` to `out` if every one has an encoding, and
/// returns `true`; else appends nothing and returns `false`. (NEON's encoder takes a
/// group of code points of mixed lengths so.)
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
pub(in crate::corrected::fast) fn encode_whole(codepoints: &[u32], out: &mut Vec<u8>) -> bool {
    let before = out.len();
    let whole = encode(codepoints, out).is_ok();
    if !whole {
        out.truncate(before);
    }
    whole
}
