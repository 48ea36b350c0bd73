//! Spec-literal encoders and decoders, written from the source tables as data.
//!
//! Each module holds its source table as a `const` array transcribed cell by cell, and
//! walks it in the most obvious way: slow, allocation-happy and easy to check against
//! the text. They share no code with the reference codec (`corrected-utf8`); the JSON
//! vectors' expected results come from here alone.
//!
//! * [`corrected`]: Corrected UTF-8 from the table of Corrected UTF-8, *Putting it all
//!   together*, and
//!   the document checker of `docs/semantics.md` §2.6.
//! * [`utf8`]: standard UTF-8 from Unicode Table 3-7, with maximal-subpart
//!   error spans and the kinds of `docs/semantics.md` §3.
//! * [`table31b`]: a matcher for Table 3.1b exactly as transcribed (Davis 2000).
//!   The sources and how they are cited: docs/sources.md.
//! * [`utf_inf8`]: UTF-∞-8 from the draft's prose (UTF-∞-8 draft §3.2–3.5) and
//!   `docs/semantics.md` §4, with unbounded code points and a code length limit.
#![deny(missing_docs)]

pub mod corrected;
pub mod table31b;
pub mod utf8;
pub mod utf_inf8;

use std::fmt;

/// An error kind, as named in `docs/semantics.md` §5 (decode and encode kinds).
///
/// The literal decoders define their own kind type on purpose: they must not depend on
/// the reference codec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `unexpected-continuation`: a continuation byte where a sequence must start.
    UnexpectedContinuation,
    /// `truncated`: a sequence cut short by a non-continuation byte or the end.
    Truncated,
    /// `reserved`: not the kind of any error span. Corrected UTF-8's reserved span
    /// (an `FE`/`FF` run up to the next recognized lead, `docs/semantics.md` §2.4a) is an
    /// [`Event::Reserved`]; [`corrected::step`] uses this kind to tag it, distinct from
    /// every error kind.
    Reserved,
    /// `overlong`: UTF-8, a non-shortest form.
    Overlong,
    /// `surrogate`: encodes, or would encode, U+D800..U+DFFF.
    Surrogate,
    /// `out-of-range`: above the encoding's last code point.
    OutOfRange,
    /// `invalid-byte`: UTF-8, `FE` or `FF`.
    InvalidByte,
    /// `c1-control`: Corrected UTF-8 encode of U+0080..U+009F.
    C1Control,
    /// `invalid-length`: UTF-∞-8, a byte after `FF` that begins no length form, or
    /// storage digits that do not fit the stored length.
    InvalidLength,
    /// `limit-exceeded`: UTF-∞-8, a code longer than the decoder's configured limit.
    LimitExceeded,
}

impl Kind {
    /// Every kind, in declaration order.
    pub const ALL: [Kind; 10] = [
        Kind::UnexpectedContinuation,
        Kind::Truncated,
        Kind::Reserved,
        Kind::Overlong,
        Kind::Surrogate,
        Kind::OutOfRange,
        Kind::InvalidByte,
        Kind::C1Control,
        Kind::InvalidLength,
        Kind::LimitExceeded,
    ];

    /// The exact string used in vectors and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::UnexpectedContinuation => "unexpected-continuation",
            Kind::Truncated => "truncated",
            Kind::Reserved => "reserved",
            Kind::Overlong => "overlong",
            Kind::Surrogate => "surrogate",
            Kind::OutOfRange => "out-of-range",
            Kind::InvalidByte => "invalid-byte",
            Kind::C1Control => "c1-control",
            Kind::InvalidLength => "invalid-length",
            Kind::LimitExceeded => "limit-exceeded",
        }
    }

    /// The kind named by `s`, if any.
    pub fn from_name(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One decoding event: a code point, an error span or a reserved span
/// (`docs/semantics.md` §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A decoded code point.
    CodePoint(u32),
    /// An error span: `length` bytes from byte `offset` of the input.
    Error {
        /// What is wrong.
        kind: Kind,
        /// Byte offset of the span's first byte in the input.
        offset: usize,
        /// Number of bytes in the span (at least 1).
        length: usize,
    },
    /// Corrected UTF-8 only: a reserved span (`docs/semantics.md` §2.4a), not an error.
    Reserved {
        /// Byte offset of the span's first byte (`FE` or `FF`) in the input.
        offset: usize,
        /// Number of bytes in the span (at least 1).
        length: usize,
    },
}

impl Event {
    /// Whether this is an error span (a reserved span is not).
    pub fn is_error(&self) -> bool {
        matches!(self, Event::Error { .. })
    }

    /// Whether this is a reserved span.
    pub fn is_reserved(&self) -> bool {
        matches!(self, Event::Reserved { .. })
    }
}

/// The three outcomes of a decode (`docs/semantics.md` §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Validity {
    /// Code points only.
    Valid,
    /// No error span, at least one reserved span.
    Reserved,
    /// At least one error span.
    Invalid,
}

impl Validity {
    /// The validity of a decode's events.
    pub fn of(events: &[Event]) -> Validity {
        if events.iter().any(Event::is_error) {
            Validity::Invalid
        } else if events.iter().any(Event::is_reserved) {
            Validity::Reserved
        } else {
            Validity::Valid
        }
    }

    /// `"valid"`, `"reserved"` or `"invalid"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Validity::Valid => "valid",
            Validity::Reserved => "reserved",
            Validity::Invalid => "invalid",
        }
    }
}

/// The `(offset, length, event)` triples of `input`, one `step` at a time: the loop of
/// the Corrected UTF-8 and UTF-8 decoders, whose steps say how long the sequence at the
/// start of a non-empty slice is and what it decodes to (its code point or why it has
/// none). A `Kind::Reserved` step is a reserved
/// span, never an error (`docs/semantics.md` §2.4a; only Corrected UTF-8 has them).
pub(crate) fn walk(
    input: &[u8],
    step: impl Fn(&[u8]) -> (usize, Result<u32, Kind>),
) -> Vec<(usize, usize, Event)> {
    let mut events = Vec::new();
    let mut i = 0;
    while i < input.len() {
        let (length, value) = step(&input[i..]);
        let event = match value {
            Ok(cp) => Event::CodePoint(cp),
            Err(Kind::Reserved) => Event::Reserved { offset: i, length },
            Err(kind) => Event::Error {
                kind,
                offset: i,
                length,
            },
        };
        events.push((i, length, event));
        i += length;
    }
    events
}

/// Whether `b` lies in the inclusive range `r`.
pub(crate) fn in_range(b: u8, r: (u8, u8)) -> bool {
    r.0 <= b && b <= r.1
}

/// Bytes as lowercase hex, two digits each, `separator` between bytes: `""` gives the
/// vectors' `input` and `bytes` form (`c080`), `" "` the form of messages (`c0 80`).
///
/// The one byte-hex formatter of the conformance crates (this crate has no dependencies,
/// so every other one can use it).
pub fn hex(bytes: &[u8], separator: &str) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * (2 + separator.len()));
    for (i, &b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push_str(separator);
        }
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_lowercase_with_the_separator_between_bytes() {
        assert_eq!(hex(&[], " "), "");
        assert_eq!(hex(&[0xC0, 0x80, 0x0A], " "), "c0 80 0a");
        assert_eq!(hex(&[0xC0, 0x80, 0x0A], ""), "c0800a");
    }
}
