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
//! Here: the entry points (the error type is `transcode_error.rs`'s). The kernels are each instruction set's
//! (`to_utf8`, `from_utf8` in the kernel table): AVX-512 validates as it converts
//! (`x86/avx512/transcode.rs`); AVX2 validates first (Corrected UTF-8 with its
//! validator, UTF-8 with its own check) and converts the valid input
//! (`x86/avx2/transcode.rs`); the others have none. The portable converters in
//! `portable.rs` finish what a kernel leaves, after the instruction set's validator.

use super::transcode_error::TranscodeError;
use super::{kernels, InstructionSet};
#[cfg(doc)]
use crate::{corrected, utf8, Stop};
use alloc::vec::Vec;

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
pub fn transcode_to_utf8_with(
    instruction_set: InstructionSet,
    bytes: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), TranscodeError> {
    kernels::for_isa(instruction_set).transcode_to_utf8(bytes, out)
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
pub fn utf8_to_corrected_with(
    instruction_set: InstructionSet,
    bytes: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), TranscodeError> {
    kernels::for_isa(instruction_set).utf8_to_corrected(bytes, out)
}
