//! The direct transcoders between Corrected UTF-8 and UTF-8: [`transcode_to_utf8`] and
//! [`utf8_to_corrected`], validating, with exactly the result of decoding with the
//! reference and encoding the code points with the other encoding's reference encoder.
//!
//! The two encodings put a sequence's bits in the same places and differ only in the
//! offset each row adds to the raw value, so a sequence goes from one to the other
//! without a UTF-32 buffer: its code point is formed in a register (AVX-512: 16 lanes at
//! a time; AVX2: 8, or a fixed layout of 8 three- or four-byte sequences, and 1- and
//! 2-byte text converted in place, byte by byte) and re-encoded there. Text that has an encoding in both is 1 to 4 bytes a code
//! point in each (Corrected UTF-8's 5- and 6-byte rows are all above U+10FFFF).
//!
//! Here: the error type, the entry points, and the portable (scalar, word-at-a-time
//! ASCII) converters that every instruction set finishes with. AVX-512 validates as it
//! converts (`x86/avx512/transcode.rs`); AVX2 validates first (Corrected UTF-8 with its
//! validator, UTF-8 with `x86.rs`'s `utf8_is_valid_avx2`) and converts the valid input
//! (`x86/avx2/transcode.rs`); the others validate, then run the portable converter.

use super::{portable, InstructionSet};
use crate::corrected;
use crate::error::{EncodeError, ErrorKind};
use crate::event::Stop;
use crate::utf8;
use alloc::vec::Vec;
use core::fmt;

/// Why a transcoding stopped: where the input stops a strict decode (its first error
/// span or, Corrected UTF-8 only, reserved span, as its encoding's reference decoder
/// reports it), or else the first code point of valid input that has no encoding in the
/// target (with the kind the target's reference encoder gives:
/// [`ErrorKind::OutOfRange`] above U+10FFFF for UTF-8, [`ErrorKind::C1Control`] for
/// Corrected UTF-8). A stop anywhere wins over a code point without an encoding before
/// it, as decoding the whole input and then encoding it would report.
///
/// The accessors give what both have: [`offset`](Self::offset),
/// [`length`](Self::length), [`valid_up_to`](Self::valid_up_to), and
/// [`kind`](Self::kind) (`None` for a reserved span, which is no error).
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected::{self, fast}, ErrorKind, ReservedSpan, Stop};
/// let big = corrected::encode([0x41, 0x11_0000]).unwrap();
/// let mut out = Vec::new();
/// let err = fast::transcode_to_utf8(&big, &mut out).unwrap_err();
/// assert_eq!((err.kind(), err.offset(), err.length()), (Some(ErrorKind::OutOfRange), 1, 4));
/// assert_eq!((err.codepoint(), err.valid_up_to()), (Some(0x11_0000), 1));
/// assert_eq!(out, b"A");
/// assert_eq!(err.to_string(), "U+110000 at byte 1 (4 bytes) has no encoding: out-of-range");
/// // A reserved span stops it as it stops a strict decode; the code point above
/// // U+10FFFF before it ends the output.
/// let err = fast::transcode_to_utf8(&[&big[..], b"\xFE"].concat(), &mut out).unwrap_err();
/// let span = ReservedSpan { offset: 5, length: 1 };
/// assert_eq!(err, fast::TranscodeError::Decode { stop: Stop::Reserved(span), valid_up_to: 1 });
/// assert_eq!((err.kind(), err.stop().and_then(|s| s.reserved().copied())), (None, Some(span)));
/// assert_eq!(err.to_string(), "reserved sequence of 1 byte at byte 5");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TranscodeError {
    /// The input stops a strict decode: an error span or a reserved span.
    Decode {
        /// The span, as the input encoding's strict reference decoder reports it.
        stop: Stop,
        /// The input before this offset is whole valid sequences whose code points all
        /// have an encoding, and their transcoding is what was appended to the output:
        /// the span's offset, unless a code point without an encoding comes before it.
        valid_up_to: usize,
    },
    /// The input is valid, but a code point has no encoding in the target: the first
    /// one. Everything before its sequence was transcoded.
    Encode {
        /// The code point and why it has no encoding.
        error: EncodeError,
        /// Byte offset of the code point's sequence in the input.
        offset: u64,
        /// Bytes in the code point's sequence.
        length: u64,
    },
}

impl TranscodeError {
    /// Where the input stops a strict decode, if it is not valid or holds a reserved
    /// span.
    pub const fn stop(&self) -> Option<Stop> {
        match self {
            TranscodeError::Decode { stop, .. } => Some(*stop),
            TranscodeError::Encode { .. } => None,
        }
    }

    /// The encoding error, if the input is valid but a code point has no encoding.
    pub const fn encode_error(&self) -> Option<EncodeError> {
        match self {
            TranscodeError::Decode { .. } => None,
            TranscodeError::Encode { error, .. } => Some(*error),
        }
    }

    /// The error span's kind or why the code point has no encoding; `None` for a
    /// reserved span, which is not an error.
    pub const fn kind(&self) -> Option<ErrorKind> {
        match self {
            TranscodeError::Decode { stop, .. } => match stop.error() {
                Some(e) => Some(e.kind),
                None => None,
            },
            TranscodeError::Encode { error, .. } => Some(error.kind),
        }
    }

    /// Byte offset of the span, or of the code point's sequence, in the input.
    pub const fn offset(&self) -> u64 {
        match self {
            TranscodeError::Decode { stop, .. } => stop.offset(),
            TranscodeError::Encode { offset, .. } => *offset,
        }
    }

    /// Bytes in the span or in the code point's sequence; at least 1.
    pub const fn length(&self) -> u64 {
        match self {
            TranscodeError::Decode { stop, .. } => stop.length(),
            TranscodeError::Encode { length, .. } => *length,
        }
    }

    /// The code point without an encoding; `None` for a span.
    pub const fn codepoint(&self) -> Option<u32> {
        match self {
            TranscodeError::Decode { .. } => None,
            TranscodeError::Encode { error, .. } => Some(error.codepoint),
        }
    }

    /// The input before this offset is whole valid sequences whose code points all have
    /// an encoding, and their transcoding is what was appended to the output: the first
    /// problem in input order ([`offset`](Self::offset), unless a code point without an
    /// encoding comes before the span).
    pub const fn valid_up_to(&self) -> usize {
        match self {
            TranscodeError::Decode { valid_up_to, .. } => *valid_up_to,
            TranscodeError::Encode { offset, .. } => *offset as usize,
        }
    }

    /// The error of a transcoding of `bytes[done..]`, in `bytes`.
    #[cfg(target_arch = "x86_64")]
    fn after(self, done: usize) -> TranscodeError {
        match self {
            TranscodeError::Decode { stop, valid_up_to } => TranscodeError::Decode {
                stop: stop.shifted(done as u64),
                valid_up_to: valid_up_to + done,
            },
            TranscodeError::Encode {
                error,
                offset,
                length,
            } => TranscodeError::Encode {
                error,
                offset: offset + done as u64,
                length,
            },
        }
    }
}

impl fmt::Display for TranscodeError {
    /// The span's own message (as [`Stop`]'s), or `U+… at byte N (L bytes) has no
    /// encoding: kind`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscodeError::Decode { stop, .. } => stop.fmt(f),
            TranscodeError::Encode {
                error,
                offset,
                length,
            } => write!(
                f,
                "U+{:04X} at byte {offset} ({length} bytes) has no encoding: {}",
                error.codepoint, error.kind
            ),
        }
    }
}

impl core::error::Error for TranscodeError {}

/// Appends the UTF-8 of Corrected UTF-8 `bytes` to `out`, validating: the result of
/// [`corrected::decode`] then [`utf8::encode`], with the first error or reserved span
/// (or, in valid input, the first code point above U+10FFFF) as [`TranscodeError`].
/// On error, `out` holds what it held and the UTF-8 of `bytes[..valid_up_to]`.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected::{self, fast}, ErrorKind};
/// let text = corrected::encode("Größe 大小 🦀".chars().map(u32::from)).unwrap();
/// let mut out = Vec::new();
/// fast::transcode_to_utf8(&text, &mut out).unwrap();
/// assert_eq!(out, "Größe 大小 🦀".as_bytes());
/// let err = fast::transcode_to_utf8(b"ok\xE0\x80", &mut out).unwrap_err();
/// assert_eq!((err.kind(), err.offset(), err.length()), (Some(ErrorKind::Truncated), 2, 2));
/// ```
pub fn transcode_to_utf8(bytes: &[u8], out: &mut Vec<u8>) -> Result<(), TranscodeError> {
    transcode_to_utf8_with(InstructionSet::detect(), bytes, out)
}

/// [`transcode_to_utf8`] with a given instruction set (the portable one if this CPU cannot
/// run it). For tests and benchmarks.
///
/// # Examples
///
/// ```
/// use corrected_utf8::corrected::fast::{self, InstructionSet};
/// for imp in InstructionSet::available() {
///     let mut out = Vec::new();
///     assert!(fast::transcode_to_utf8_with(imp, b"\xC0\x80", &mut out).is_ok());
///     assert_eq!(out, "\u{A0}".as_bytes());
/// }
/// ```
#[doc(hidden)]
// Its `unsafe` block calls into `x86`, argued at the block.
#[allow(unsafe_code)]
pub fn transcode_to_utf8_with(
    instruction_set: InstructionSet,
    bytes: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), TranscodeError> {
    let instruction_set = instruction_set.or_portable();
    #[cfg(target_arch = "x86_64")]
    if instruction_set == InstructionSet::Avx512 {
        let start = out.len();
        // Validates as it goes, up to the last few bytes, which the portable steps
        // finish; anything wrong, and the careful steps below take over.
        // SAFETY: `or_portable` returned AVX-512 only because it `is_available()`.
        match unsafe { super::x86::corrected_to_utf8_avx512(bytes, out) } {
            Some(done) => {
                return transcode_to_utf8_with(InstructionSet::Portable, &bytes[done..], out)
                    .map_err(|e| e.after(done))
            }
            None => out.truncate(start),
        }
    }
    let valid = super::validate_with(instruction_set, bytes);
    let valid_len = valid.map_or_else(|stop| stop.offset() as usize, |()| bytes.len());
    let reached = corrected_to_utf8_valid_with(instruction_set, &bytes[..valid_len], out);
    match valid {
        Err(stop) => Err(TranscodeError::Decode {
            stop,
            valid_up_to: reached,
        }),
        Ok(()) if reached == bytes.len() => Ok(()),
        Ok(()) => {
            // A code point above U+10FFFF.
            let len = usize::from(bytes[reached].leading_ones() as u8);
            let cp = corrected::decode(&bytes[reached..reached + len])
                .ok()
                .and_then(|cps| cps.first().copied())
                .unwrap_or(0);
            let kind = utf8::encoded_len(cp).map_or_else(|e| e.kind, |_| ErrorKind::OutOfRange);
            Err(TranscodeError::Encode {
                error: EncodeError {
                    kind,
                    codepoint: cp,
                },
                offset: reached as u64,
                length: len as u64,
            })
        }
    }
}

/// Converts `valid` (whole valid Corrected UTF-8 sequences) with `instruction_set`:
/// everything, or up to the first code point above U+10FFFF; returns where it stopped.
#[allow(unsafe_code)]
fn corrected_to_utf8_valid_with(
    instruction_set: InstructionSet,
    valid: &[u8],
    out: &mut Vec<u8>,
) -> usize {
    #[cfg(target_arch = "x86_64")]
    if instruction_set == InstructionSet::Avx512 {
        // SAFETY: the caller's `instruction_set` came from `or_portable`, which returned
        // AVX-512 only because it `is_available()`.
        return unsafe { super::x86::corrected_to_utf8_valid_avx512(valid, out) };
    }
    #[cfg(target_arch = "x86_64")]
    if instruction_set == InstructionSet::Avx2 {
        // SAFETY: as above, AVX2 only because it `is_available()`.
        return unsafe { super::x86::corrected_to_utf8_valid_avx2(valid, out) };
    }
    let _ = instruction_set;
    corrected_to_utf8_until(valid, 0, valid.len(), out).0
}

/// Appends the Corrected UTF-8 of UTF-8 `bytes` to `out`, validating: the result of
/// [`utf8::decode`] then [`corrected::encode`], with the first error span (as
/// [`TranscodeError::Decode`] with a [`Stop::Error`]: UTF-8 has no reserved spans) or,
/// in valid input, the first C1 control as [`TranscodeError`]. On error, `out`
/// holds what it held and the Corrected UTF-8 of `bytes[..valid_up_to]`.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected::{self, fast}, ErrorKind};
/// let mut out = Vec::new();
/// fast::utf8_to_corrected("Größe 大小 🦀".as_bytes(), &mut out).unwrap();
/// assert_eq!(out, corrected::encode("Größe 大小 🦀".chars().map(u32::from)).unwrap());
/// let err = fast::utf8_to_corrected("a\u{85}".as_bytes(), &mut out).unwrap_err();
/// assert_eq!((err.kind(), err.codepoint()), (Some(ErrorKind::C1Control), Some(0x85)));
/// let err = fast::utf8_to_corrected(b"\xED\xA0\x80", &mut out).unwrap_err();
/// assert_eq!((err.kind(), err.offset(), err.length()), (Some(ErrorKind::Surrogate), 0, 1));
/// ```
pub fn utf8_to_corrected(bytes: &[u8], out: &mut Vec<u8>) -> Result<(), TranscodeError> {
    utf8_to_corrected_with(InstructionSet::detect(), bytes, out)
}

/// [`utf8_to_corrected`] with a given instruction set (the portable one if this CPU
/// cannot run it). For tests and benchmarks.
///
/// # Examples
///
/// ```
/// use corrected_utf8::corrected::fast::{self, InstructionSet};
/// for imp in InstructionSet::available() {
///     let mut out = Vec::new();
///     assert!(fast::utf8_to_corrected_with(imp, "\u{A0}".as_bytes(), &mut out).is_ok());
///     assert_eq!(out, b"\xC0\x80");
/// }
/// ```
#[doc(hidden)]
// Its `unsafe` blocks call into `x86`, argued at each block.
#[allow(unsafe_code)]
pub fn utf8_to_corrected_with(
    instruction_set: InstructionSet,
    bytes: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), TranscodeError> {
    let instruction_set = instruction_set.or_portable();
    #[cfg(target_arch = "x86_64")]
    if instruction_set == InstructionSet::Avx512 {
        let start = out.len();
        // SAFETY: `or_portable` returned AVX-512 only because it `is_available()`.
        match unsafe { super::x86::utf8_to_corrected_avx512(bytes, out) } {
            Some(done) => {
                return utf8_to_corrected_with(InstructionSet::Portable, &bytes[done..], out)
                    .map_err(|e| e.after(done))
            }
            None => out.truncate(start),
        }
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `or_portable` returned AVX2 only because it `is_available()`.
    let valid = if instruction_set == InstructionSet::Avx2
        && unsafe { super::x86::utf8_is_valid_avx2(bytes) }
    {
        Ok(())
    } else {
        // Not valid (or not checked with AVX2): std's validation, then the first error
        // span by Table 3-7.
        utf8::validate(bytes)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let valid = utf8::validate(bytes);
    let valid_len = valid.map_or_else(|e| e.offset as usize, |()| bytes.len());
    let valid_bytes = &bytes[..valid_len];
    #[cfg(target_arch = "x86_64")]
    let reached = if instruction_set == InstructionSet::Avx512 {
        // SAFETY: as above.
        unsafe { super::x86::utf8_to_corrected_valid_avx512(valid_bytes, out) }
    } else if instruction_set == InstructionSet::Avx2 {
        // SAFETY: as above, AVX2 only because it `is_available()`.
        unsafe { super::x86::utf8_to_corrected_valid_avx2(valid_bytes, out) }
    } else {
        utf8_to_corrected_until(valid_bytes, 0, valid_len, out).0
    };
    #[cfg(not(target_arch = "x86_64"))]
    let reached = {
        // Only x86_64 has vector paths from UTF-8.
        let _ = instruction_set;
        utf8_to_corrected_until(valid_bytes, 0, valid_len, out).0
    };
    match valid {
        Err(e) => Err(TranscodeError::Decode {
            stop: Stop::Error(e),
            valid_up_to: reached,
        }),
        Ok(()) if reached == bytes.len() => Ok(()),
        Ok(()) => {
            // A C1 control: `C2 80` to `C2 9F`.
            let cp = u32::from(bytes[reached + 1] & 0x3F) | 0x80;
            let kind = corrected::encoded_len(cp).map_or_else(|e| e.kind, |_| ErrorKind::C1Control);
            Err(TranscodeError::Encode {
                error: EncodeError {
                    kind,
                    codepoint: cp,
                },
                offset: reached as u64,
                length: 2,
            })
        }
    }
}

/// The high bit of every byte of a word.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The 8 bytes at `at`, if there are 8, as a word whose high bits say which are not
/// ASCII.
#[inline(always)]
fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    let chunk: [u8; 8] = bytes.get(at..at + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(chunk))
}

/// Output bytes per block of the converters below: they write each step's bytes into a
/// block on the stack (8 bytes stored whatever its length) and append the block to the
/// `Vec` whole, one append per block instead of one per code point.
const BLOCK: usize = 64;

/// One step of a converter on the word at a non-ASCII lead and the bytes left before
/// the limit: the output's bytes (the low ones of a little-endian word), how many, and
/// the input bytes used; `None` to stop before this sequence.
type Step = Option<(u64, usize, usize)>;

/// The loop both converters share: ASCII runs go straight to `out` 8 bytes at a time;
/// otherwise a block is filled with the ASCII bytes a word starts with (copied at once)
/// and `step`'s output for each sequence, then appended. Returns the input position
/// reached and whether `step` stopped there.
#[inline(always)]
fn convert_until(
    valid: &[u8],
    mut i: usize,
    limit: usize,
    out: &mut Vec<u8>,
    step: impl Fn(u64, usize) -> Step,
) -> (usize, bool) {
    let limit = limit.min(valid.len());
    let mut block = [0u8; BLOCK + 8];
    while i < limit {
        if let Some(w) = word_at(valid, i) {
            if w & HIGH == 0 {
                out.extend_from_slice(&valid[i..i + 8]);
                i += 8;
                continue;
            }
        }
        let mut k = 0;
        let mut stopped = false;
        while i < limit && k < BLOCK {
            let w = portable::word_padded(valid, i);
            let ascii = (w & HIGH).trailing_zeros() as usize / 8;
            let (bytes, n, used) = if ascii > 0 {
                let n = ascii.min(limit - i);
                (w, n, n)
            } else if let Some(converted) = step(w, limit - i) {
                converted
            } else {
                stopped = true;
                break;
            };
            block[k..k + 8].copy_from_slice(&bytes.to_le_bytes());
            (i, k) = (i + used, k + n);
        }
        out.extend_from_slice(&block[..k]);
        if stopped {
            return (i, true);
        }
    }
    (i, false)
}

/// Converts the valid Corrected UTF-8 sequences of `valid` that start from `i` to before
/// `limit` (a sequence that starts before `limit` is converted whole), appending their
/// UTF-8 to `out`; stops before a code point above U+10FFFF. Returns the input position
/// reached and whether it stopped there.
///
/// # Panics
///
/// If `valid` is not whole valid sequences (the callers validate first).
#[inline]
pub(super) fn corrected_to_utf8_until(
    valid: &[u8],
    i: usize,
    limit: usize,
    out: &mut Vec<u8>,
) -> (usize, bool) {
    convert_until(valid, i, limit, out, |w, _| {
        // The lead of a sequence of 2 to 6 bytes.
        let (cp, len) = match w as u8 {
            0xC0..=0xDF => (portable::two(w), 2),
            0xE0..=0xEF => (portable::three(w), 3),
            0xF0..=0xF7 => (portable::four(w), 4),
            // 5 and 6 bytes: always above U+10FFFF.
            _ => return None,
        };
        if cp > 0x10_FFFF {
            return None;
        }
        let (bytes, n) = utf8_word(cp);
        Some((u64::from(bytes), n, len))
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

/// The Corrected UTF-8 of `cp` (U+00A0 to U+10FFFF, not a surrogate) as the low bytes
/// of a little-endian word, and its length; `cp - offset` of its row (see
/// [`corrected::TABLE`]) is the raw value the bytes carry.
#[inline(always)]
fn corrected_word(cp: u32) -> (u32, usize) {
    let cont = |raw: u32, shift: u32| 0x80 | (raw >> shift & 0x3F);
    if cp < 0x8A0 {
        let raw = cp - corrected::TABLE[1].offset;
        (0xC0 | raw >> 6 | cont(raw, 0) << 8, 2)
    } else if cp < 0x1_10A0 {
        let raw = cp
            - if cp < 0xE000 {
                corrected::TABLE[2].offset
            } else {
                corrected::TABLE[3].offset
            };
        (0xE0 | raw >> 12 | cont(raw, 6) << 8 | cont(raw, 0) << 16, 3)
    } else {
        let raw = cp - corrected::TABLE[4].offset;
        (
            0xF0 | raw >> 18 | cont(raw, 12) << 8 | cont(raw, 6) << 16 | cont(raw, 0) << 24,
            4,
        )
    }
}

/// Converts the valid UTF-8 sequences of `valid` that start from `i` to before `limit`,
/// appending their Corrected UTF-8 to `out`; stops before a C1 control (which has no
/// Corrected UTF-8 encoding). Returns the input position reached and whether it stopped
/// there.
///
/// # Panics
///
/// If `valid` is not whole valid sequences (the callers validate first).
#[inline]
pub(super) fn utf8_to_corrected_until(
    valid: &[u8],
    i: usize,
    limit: usize,
    out: &mut Vec<u8>,
) -> (usize, bool) {
    // Two sequences' Corrected UTF-8 as one output word.
    let two = |a: u32, b: u32, used: usize| {
        let ((a, n), (b, m)) = (corrected_word(a), corrected_word(b));
        Some((u64::from(a) | u64::from(b) << (8 * n), n + m, used))
    };
    convert_until(valid, i, limit, out, |w, left| {
        // Two 3-byte sequences (CJK text: U+0800 to U+FFFF) or two 4-byte ones (emoji:
        // above U+FFFF) in the word; never C1.
        if w & 0xC0C0_F0C0_C0F0 == 0x8080_E080_80E0 && left >= 6 {
            return two(utf8_three(w), utf8_three(w >> 24), 6);
        }
        if w & 0xC0C0_C0F8_C0C0_C0F8 == 0x8080_80F0_8080_80F0 && left >= 8 {
            return two(utf8_four(w), utf8_four(w >> 32), 8);
        }
        // The lead of a sequence of 2 to 4 bytes.
        let b = w as u32 & 0xFF;
        let (cp, len) = if b < 0xE0 {
            ((b & 0x1F) << 6 | (w >> 8) as u32 & 0x3F, 2)
        } else if b < 0xF0 {
            (utf8_three(w), 3)
        } else {
            (utf8_four(w), 4)
        };
        if cp < 0xA0 {
            return None; // a C1 control
        }
        let (bytes, n) = corrected_word(cp);
        Some((u64::from(bytes), n, len))
    })
}
