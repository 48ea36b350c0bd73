//! The transcoders' error, [`TranscodeError`] (re-exported as
//! `corrected::fast::TranscodeError`): its own file, so that the kernel table that
//! finishes a transcoding (`kernels.rs`) and the entry points (`transcode.rs`) both
//! take it from here.

use crate::error::{EncodeError, ErrorKind};
use crate::event::Stop;
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
