//! The plain types an implementation answers in: encodings, code points, events, kinds,
//! strict-decode stops and document findings (`docs/semantics.md` §1, §2.6, §5).

use std::fmt;

/// The three encodings the vectors cover: the vectors' own enum, re-exported (one name
/// per concept across the vectors, the runner and this kit). `name()`, `from_name`,
/// `ALL` and `Display` are as they were when this crate had its own copy; it also parses
/// (`"utf-8".parse()`) and has serde by name.
pub use corrected_utf8_vectors::Encoding;

/// A code point of any size (UTF-∞-8's are unbounded; the vectors go up to 98 289 hex
/// digits). Equal values are equal however they were made.
///
/// ```
/// use conformance_testkit::CodePoint;
/// assert_eq!(CodePoint::from('A'), CodePoint::from(0x41u32));
/// assert_eq!(CodePoint::from_hex("0041"), Some(CodePoint::from(0x41u64)));
/// let big = CodePoint::from_hex("10000000000000000").unwrap(); // 2^64
/// assert_eq!(big.to_u64(), None);
/// assert_eq!(big.hex(), "10000000000000000");
/// assert!(big > CodePoint::from(u64::MAX));
/// assert_eq!(CodePoint::from(0x10FFFFu32).to_string(), "U+10FFFF");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CodePoint(Repr);

// Normalized, so that the derived equality is equality of values: `Small` for every
// value that fits a `u64`, `Big` (uppercase digits, no leading zero) for the others,
// which all sort after `Small` and compare by length first.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Repr {
    Small(u64),
    Big { digits: usize, hex: Box<str> },
}

impl CodePoint {
    /// U+FFFD, which a lossy decode puts in place of each span.
    pub const REPLACEMENT: CodePoint = CodePoint(Repr::Small(0xFFFD));

    /// The code point with these hex digits (either case, leading zeros allowed), or
    /// `None` for an empty string or a non-hex character.
    pub fn from_hex(digits: &str) -> Option<CodePoint> {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let trimmed = digits.trim_start_matches('0');
        if trimmed.len() <= 16 {
            return Some(CodePoint(Repr::Small(
                u64::from_str_radix(if trimmed.is_empty() { "0" } else { trimmed }, 16).ok()?,
            )));
        }
        Some(CodePoint(Repr::Big {
            digits: trimmed.len(),
            hex: trimmed.to_ascii_uppercase().into_boxed_str(),
        }))
    }

    /// The value, when it fits a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        match self.0 {
            Repr::Small(v) => Some(v),
            Repr::Big { .. } => None,
        }
    }

    /// The value, when it fits a `u32`.
    pub fn to_u32(&self) -> Option<u32> {
        self.to_u64().and_then(|v| u32::try_from(v).ok())
    }

    /// The hex digits: uppercase, no leading zeros, `"0"` for zero.
    pub fn hex(&self) -> String {
        match &self.0 {
            Repr::Small(v) => format!("{v:X}"),
            Repr::Big { hex, .. } => hex.to_string(),
        }
    }

    /// Parses the vectors' form, `U+` and hex digits.
    pub(crate) fn parse(s: &str) -> Option<CodePoint> {
        s.strip_prefix("U+").and_then(CodePoint::from_hex)
    }
}

impl From<u32> for CodePoint {
    fn from(v: u32) -> CodePoint {
        CodePoint(Repr::Small(u64::from(v)))
    }
}

impl From<u64> for CodePoint {
    fn from(v: u64) -> CodePoint {
        CodePoint(Repr::Small(v))
    }
}

impl From<char> for CodePoint {
    fn from(c: char) -> CodePoint {
        CodePoint::from(u32::from(c))
    }
}

impl fmt::Display for CodePoint {
    /// `U+` and at least 4 uppercase digits, as in the vectors.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(v) => write!(f, "U+{v:04X}"),
            // A 98 289-digit code point in a failure message helps nobody.
            Repr::Big { digits, hex } if *digits > 40 => {
                write!(f, "U+{}…({digits} digits)", &hex[..16])
            }
            Repr::Big { hex, .. } => write!(f, "U+{hex}"),
        }
    }
}

impl fmt::Debug for CodePoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// An error kind (`docs/semantics.md` §5): the decode kinds of error spans and the
/// encode kinds. A reserved span has no kind (it is [`Event::Reserved`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `unexpected-continuation`: a continuation byte where a sequence must start.
    UnexpectedContinuation,
    /// `truncated`: a sequence cut short by a non-continuation byte or the end.
    Truncated,
    /// `overlong`: UTF-8 and UTF-∞-8, a non-shortest form.
    Overlong,
    /// `surrogate`: encodes, or would encode, U+D800..U+DFFF.
    Surrogate,
    /// `out-of-range`: above the encoding's last code point.
    OutOfRange,
    /// `invalid-byte`: UTF-8, `FE` or `FF`.
    InvalidByte,
    /// `invalid-length`: UTF-∞-8, a length storage no well-formed code has.
    InvalidLength,
    /// `limit-exceeded`: UTF-∞-8, a code longer than the decoder's limit.
    LimitExceeded,
    /// `c1-control`: Corrected UTF-8 encode of U+0080..U+009F.
    C1Control,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 9] = [
        Kind::UnexpectedContinuation,
        Kind::Truncated,
        Kind::Overlong,
        Kind::Surrogate,
        Kind::OutOfRange,
        Kind::InvalidByte,
        Kind::InvalidLength,
        Kind::LimitExceeded,
        Kind::C1Control,
    ];

    /// The exact string of the vectors.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::UnexpectedContinuation => "unexpected-continuation",
            Kind::Truncated => "truncated",
            Kind::Overlong => "overlong",
            Kind::Surrogate => "surrogate",
            Kind::OutOfRange => "out-of-range",
            Kind::InvalidByte => "invalid-byte",
            Kind::InvalidLength => "invalid-length",
            Kind::LimitExceeded => "limit-exceeded",
            Kind::C1Control => "c1-control",
        }
    }

    /// The kind with this string.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One decoding event. Code points and spans cover the input exactly, in order.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Event {
    /// A decoded code point.
    CodePoint(CodePoint),
    /// An error span: `length` bytes from byte `offset` (a maximal subpart).
    Error {
        /// What is wrong.
        kind: Kind,
        /// Byte offset of the span's first byte in the input.
        offset: usize,
        /// Number of bytes (at least 1).
        length: usize,
    },
    /// Corrected UTF-8 only: a reserved span (`FE`/`FF` up to the next recognized lead
    /// byte), well-formed but reserved for a future version; not an error.
    Reserved {
        /// Byte offset of the span's first byte in the input.
        offset: usize,
        /// Number of bytes (at least 1).
        length: usize,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::CodePoint(cp) => cp.fmt(f),
            Event::Error {
                kind,
                offset,
                length,
            } => write!(f, "{kind}@{offset}+{length}"),
            Event::Reserved { offset, length } => write!(f, "reserved@{offset}+{length}"),
        }
    }
}

impl fmt::Debug for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The three outcomes of a decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Validity {
    /// Code points only.
    Valid,
    /// No error span, at least one reserved span (Corrected UTF-8 only).
    Reserved,
    /// At least one error span.
    Invalid,
}

impl Validity {
    /// The outcome of these events.
    pub fn of(events: &[Event]) -> Validity {
        if events.iter().any(|e| matches!(e, Event::Error { .. })) {
            Validity::Invalid
        } else if events.iter().any(|e| matches!(e, Event::Reserved { .. })) {
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

/// Where and why a strict decode stops: the first span of either class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// An error span. `kind` is `None` for an implementation that only knows where the
    /// error is (Rust's `Utf8Error`, say): then only `offset` and `length` are compared.
    Error {
        /// The kind, if the implementation names it.
        kind: Option<Kind>,
        /// Byte offset of the span.
        offset: usize,
        /// Number of bytes in the span.
        length: usize,
    },
    /// A reserved span (Corrected UTF-8), a reason distinct from every error kind.
    Reserved {
        /// Byte offset of the span.
        offset: usize,
        /// Number of bytes in the span.
        length: usize,
    },
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Error {
                kind: Some(kind),
                offset,
                length,
            } => write!(f, "{kind}@{offset}+{length}"),
            Stop::Error {
                kind: None,
                offset,
                length,
            } => write!(f, "error@{offset}+{length}"),
            Stop::Reserved { offset, length } => write!(f, "reserved@{offset}+{length}"),
        }
    }
}

/// What a document finding is about (`docs/semantics.md` §2.6; Corrected UTF-8 only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// `nul` (error): a U+0000 that is not part of a complete magic number.
    Nul,
    /// An error span of the text, under its own kind (error).
    Decode(Kind),
    /// `reserved` (warning): a reserved span.
    Reserved,
    /// `inner-magic` (warning): a complete magic number after the start.
    InnerMagic,
    /// `missing-magic` (warning): the file does not start with the magic number.
    MissingMagic,
    /// `cr` (warning): U+000D.
    Cr,
    /// `line-separator` (warning): U+2028.
    LineSeparator,
    /// `paragraph-separator` (warning): U+2029.
    ParagraphSeparator,
    /// `c0-control` (warning): U+0001..U+001F other than U+000A and U+000D.
    C0Control,
    /// `missing-final-newline` (warning): non-empty text not ending in U+000A.
    MissingFinalNewline,
}

impl FindingKind {
    const NAMED: [FindingKind; 9] = [
        FindingKind::Nul,
        FindingKind::Reserved,
        FindingKind::InnerMagic,
        FindingKind::MissingMagic,
        FindingKind::Cr,
        FindingKind::LineSeparator,
        FindingKind::ParagraphSeparator,
        FindingKind::C0Control,
        FindingKind::MissingFinalNewline,
    ];

    /// The exact string of the vectors.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::Nul => "nul",
            FindingKind::Decode(kind) => kind.as_str(),
            FindingKind::Reserved => "reserved",
            FindingKind::InnerMagic => "inner-magic",
            FindingKind::MissingMagic => "missing-magic",
            FindingKind::Cr => "cr",
            FindingKind::LineSeparator => "line-separator",
            FindingKind::ParagraphSeparator => "paragraph-separator",
            FindingKind::C0Control => "c0-control",
            FindingKind::MissingFinalNewline => "missing-final-newline",
        }
    }

    /// The finding kind with this string.
    pub fn from_name(name: &str) -> Option<FindingKind> {
        FindingKind::NAMED
            .into_iter()
            .find(|k| k.as_str() == name)
            .or_else(|| Kind::from_name(name).map(FindingKind::Decode))
    }

    /// Whether it is an error (a MUST rule), not a warning.
    pub fn is_error(self) -> bool {
        matches!(self, FindingKind::Nul | FindingKind::Decode(_))
    }
}

/// One document finding.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Finding {
    /// What it is about.
    pub kind: FindingKind,
    /// Byte offset in the whole file (the magic number included).
    pub offset: usize,
    /// 1-based line, counted from the first byte after a leading magic number.
    pub line: usize,
    /// 1-based column: one more than the events before it on its line.
    pub column: usize,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}@{} {}:{}",
            self.kind.as_str(),
            self.offset,
            self.line,
            self.column
        )
    }
}

impl fmt::Debug for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
