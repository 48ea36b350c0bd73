//! Events, error kinds and errors shared by every encoding.

use core::fmt;

/// The kind of an error span or of an encoding failure.
///
/// [`ErrorKind::as_str`] gives the exact identifier used in the vectors, reports and the
/// adapter protocol (`docs/semantics.md` §5). A Corrected UTF-8 reserved span is no
/// error and has no kind: a strict decode stops at one with
/// [`Stop::Reserved`](crate::Stop::Reserved), an event is
/// [`Event::Reserved`](crate::Event::Reserved).
///
/// # Examples
///
/// ```
/// use corrected_utf8::ErrorKind;
/// assert_eq!(ErrorKind::Truncated.as_str(), "truncated");
/// assert_eq!(ErrorKind::from_name("reserved"), None);
/// assert_eq!(ErrorKind::from_name("bogus"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A continuation byte (`80–BF`) where a sequence must start.
    UnexpectedContinuation,
    /// A lead byte followed by too few continuation bytes.
    Truncated,
    /// UTF-8 / UTF-∞-8: a non-shortest form.
    Overlong,
    /// A surrogate code point (U+D800..U+DFFF).
    Surrogate,
    /// Above the encoding's last code point.
    OutOfRange,
    /// UTF-8: the bytes `FE` and `FF`.
    InvalidByte,
    /// UTF-∞-8: a byte after `FF` that begins no length form.
    InvalidLength,
    /// UTF-∞-8: a code longer than the decoder's configured limit.
    LimitExceeded,
    /// Corrected UTF-8 encoding: a C1 control (U+0080..U+009F) has no encoding.
    C1Control,
}

impl ErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: [ErrorKind; 9] = [
        ErrorKind::UnexpectedContinuation,
        ErrorKind::Truncated,
        ErrorKind::Overlong,
        ErrorKind::Surrogate,
        ErrorKind::OutOfRange,
        ErrorKind::InvalidByte,
        ErrorKind::InvalidLength,
        ErrorKind::LimitExceeded,
        ErrorKind::C1Control,
    ];

    /// The identifier used in vectors, reports and the adapter protocol.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::ErrorKind;
    /// assert_eq!(ErrorKind::UnexpectedContinuation.as_str(), "unexpected-continuation");
    /// assert_ne!(ErrorKind::InvalidByte.as_str(), "invalid_byte");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::UnexpectedContinuation => "unexpected-continuation",
            ErrorKind::Truncated => "truncated",
            ErrorKind::Overlong => "overlong",
            ErrorKind::Surrogate => "surrogate",
            ErrorKind::OutOfRange => "out-of-range",
            ErrorKind::InvalidByte => "invalid-byte",
            ErrorKind::InvalidLength => "invalid-length",
            ErrorKind::LimitExceeded => "limit-exceeded",
            ErrorKind::C1Control => "c1-control",
        }
    }

    /// The kind named by an identifier, or `None` for an unknown one.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::ErrorKind;
    /// assert_eq!(ErrorKind::from_name("c1-control"), Some(ErrorKind::C1Control));
    /// assert_eq!(ErrorKind::from_name("C1-Control"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error span: `length` bytes starting at byte `offset` that decode to no code point.
///
/// Offsets are `u64` so that a stream longer than `usize::MAX` bytes on a 32-bit target
/// still reports exact positions.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf8, DecodeError, ErrorKind};
/// let err = utf8::validate(b"ab\xE0\xA0").unwrap_err();
/// assert_eq!(err, DecodeError { kind: ErrorKind::Truncated, offset: 2, length: 2 });
/// assert_eq!(err.to_string(), "invalid sequence of 2 bytes at byte 2: truncated");
/// assert!(utf8::validate(b"ab").is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecodeError {
    /// What is wrong with the span.
    pub kind: ErrorKind,
    /// Byte offset of the span's first byte in the input (or the whole stream).
    pub offset: u64,
    /// Number of bytes in the span; always at least 1.
    pub length: u64,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = if self.length == 1 { "byte" } else { "bytes" };
        write!(
            f,
            "invalid sequence of {} {unit} at byte {}: {}",
            self.length, self.offset, self.kind
        )
    }
}

impl core::error::Error for DecodeError {}

/// A code point that the encoding cannot represent.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected, ErrorKind};
/// let err = corrected::encode_into(0x85, &mut [0; 6]).unwrap_err();
/// assert_eq!(err.kind, ErrorKind::C1Control);
/// assert_eq!(err.to_string(), "cannot encode U+0085: c1-control");
/// assert!(corrected::encode_into(0xA0, &mut [0; 6]).is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EncodeError {
    /// Why it cannot be encoded.
    pub kind: ErrorKind,
    /// The code point.
    pub codepoint: u32,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot encode U+{:04X}: {}", self.codepoint, self.kind)
    }
}

impl core::error::Error for EncodeError {}
