//! Standard UTF-8 (`utf-8`, RFC 3629): encode, decode, validate, with named error kinds.
//!
//! Error spans are maximal subparts, so they agree exactly with Rust's
//! [`Utf8Error`](core::str::Utf8Error) and `String::from_utf8_lossy`; each span also gets a
//! kind (`docs/semantics.md` §3).

use crate::error::{DecodeError, EncodeError, ErrorKind};
use crate::events::{Events, Step};
#[cfg(feature = "alloc")]
use alloc::{string::String, vec::Vec};

/// The longest sequence, in bytes.
pub const MAX_LEN: usize = 4;

/// One row of [`TABLE`]: the code points `first..=last`, and for each byte of their
/// encoding the range it lies in.
///
/// # Examples
///
/// ```
/// use corrected_utf8::utf8::TABLE;
/// let row = &TABLE[2]; // U+0800..U+0FFF
/// assert_eq!((row.first, row.last, row.len()), (0x800, 0xFFF, 3));
/// assert_eq!(row.bytes[1], (0xA0, 0xBF)); // E0 80 is overlong
/// assert!(TABLE.iter().all(|r| r.last <= 0x10_FFFF));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The row's first code point.
    pub first: u32,
    /// The row's last code point.
    pub last: u32,
    /// The inclusive range of each byte of the sequence, first byte first.
    pub bytes: &'static [(u8, u8)],
}

impl Row {
    /// The sequence length in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf8::TABLE;
    /// assert_eq!(TABLE[0].len(), 1);
    /// assert_ne!(TABLE[8].len(), 3);
    /// ```
    #[allow(clippy::len_without_is_empty)] // a row is never empty
    pub const fn len(&self) -> usize {
        self.bytes.len()
    }

    /// The row that holds `codepoint`, or `None` for a surrogate or a value above
    /// U+10FFFF.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf8::{Row, TABLE};
    /// assert_eq!(Row::of(0xE000), Some(&TABLE[5]));
    /// assert_eq!(Row::of(0xD800), None);
    /// ```
    pub fn of(codepoint: u32) -> Option<&'static Row> {
        TABLE
            .iter()
            .find(|r| (r.first..=r.last).contains(&codepoint))
    }
}

/// The Unicode Standard, Table 3-7 "Well-Formed UTF-8 Byte Sequences" (Section 3.9,
/// Unicode Encoding Forms): every well-formed sequence, by code point range, with the
/// range of each byte.
#[rustfmt::skip]
pub const TABLE: [Row; 9] = [
    Row { first: 0x0000,    last: 0x007F,    bytes: &[(0x00, 0x7F)] },
    Row { first: 0x0080,    last: 0x07FF,    bytes: &[(0xC2, 0xDF), (0x80, 0xBF)] },
    Row { first: 0x0800,    last: 0x0FFF,    bytes: &[(0xE0, 0xE0), (0xA0, 0xBF), (0x80, 0xBF)] },
    Row { first: 0x1000,    last: 0xCFFF,    bytes: &[(0xE1, 0xEC), (0x80, 0xBF), (0x80, 0xBF)] },
    Row { first: 0xD000,    last: 0xD7FF,    bytes: &[(0xED, 0xED), (0x80, 0x9F), (0x80, 0xBF)] },
    Row { first: 0xE000,    last: 0xFFFF,    bytes: &[(0xEE, 0xEF), (0x80, 0xBF), (0x80, 0xBF)] },
    Row { first: 0x1_0000,  last: 0x3_FFFF,  bytes: &[(0xF0, 0xF0), (0x90, 0xBF), (0x80, 0xBF), (0x80, 0xBF)] },
    Row { first: 0x4_0000,  last: 0xF_FFFF,  bytes: &[(0xF1, 0xF3), (0x80, 0xBF), (0x80, 0xBF), (0x80, 0xBF)] },
    Row { first: 0x10_0000, last: 0x10_FFFF, bytes: &[(0xF4, 0xF4), (0x80, 0x8F), (0x80, 0xBF), (0x80, 0xBF)] },
];

/// What a byte at the start of a sequence begins.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lead {
    /// A sequence of `len` bytes whose second byte must lie in `lo..=hi`; `narrow` is the
    /// kind when a continuation byte outside that range follows (`E0`, `ED`, `F0`, `F4`).
    Seq {
        len: u8,
        lo: u8,
        hi: u8,
        narrow: ErrorKind,
    },
    /// A byte that starts no well-formed sequence: a span of its own.
    Never(ErrorKind),
}

const fn seq(len: u8, lo: u8, hi: u8, narrow: ErrorKind) -> Lead {
    Lead::Seq {
        len,
        lo,
        hi,
        narrow,
    }
}

/// Unicode Table 3-7, "Well-Formed UTF-8 Byte Sequences", by first byte: the sequence
/// length and the range of the second byte. The kinds of the bytes that begin nothing
/// are `docs/semantics.md` §3's.
#[rustfmt::skip]
pub(crate) const fn lead(byte: u8) -> Lead {
    use ErrorKind::*;
    match byte {
        0x00..=0x7F => seq(1, 0, 0, Truncated),
        0x80..=0xBF => Lead::Never(UnexpectedContinuation),
        0xC0..=0xC1 => Lead::Never(Overlong),
        0xC2..=0xDF => seq(2, 0x80, 0xBF, Truncated),
        0xE0        => seq(3, 0xA0, 0xBF, Overlong),
        0xE1..=0xEC => seq(3, 0x80, 0xBF, Truncated),
        0xED        => seq(3, 0x80, 0x9F, Surrogate),
        0xEE..=0xEF => seq(3, 0x80, 0xBF, Truncated),
        0xF0        => seq(4, 0x90, 0xBF, Overlong),
        0xF1..=0xF3 => seq(4, 0x80, 0xBF, Truncated),
        0xF4        => seq(4, 0x80, 0x8F, OutOfRange),
        0xF5..=0xFD => Lead::Never(OutOfRange),
        0xFE..=0xFF => Lead::Never(InvalidByte),
    }
}

#[inline]
pub(crate) const fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// Decodes the sequence at the start of `bytes` (non-empty): what it is and its length.
pub(crate) fn step(bytes: &[u8]) -> (Step, usize) {
    let first = bytes[0];
    let (len, lo, hi, narrow) = match lead(first) {
        Lead::Never(kind) => return (Step::Error(kind), 1),
        Lead::Seq { len: 1, .. } => return (Step::CodePoint(first as u32), 1),
        Lead::Seq {
            len,
            lo,
            hi,
            narrow,
        } => (len as usize, lo, hi, narrow),
    };
    let mut cp = (first & (0x7F >> len)) as u32;
    for i in 1..len {
        let (lo, hi) = if i == 1 { (lo, hi) } else { (0x80, 0xBF) };
        match bytes.get(i) {
            Some(&b) if (lo..=hi).contains(&b) => cp = (cp << 6) | (b & 0x3F) as u32,
            // A continuation byte outside the lead's narrowed range: the lead alone is the
            // maximal subpart, and its kind says why.
            Some(&b) if i == 1 && is_continuation(b) => return (Step::Error(narrow), 1),
            _ => return (Step::Error(ErrorKind::Truncated), i),
        }
    }
    (Step::CodePoint(cp), len)
}

/// The decoding events of `bytes`: code points and maximal-subpart error spans.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf8, DecodeError, ErrorKind, Event};
/// let events: Vec<Event> = utf8::events(b"\xED\xA0\x80!").collect();
/// assert_eq!(events[0], Event::Error(DecodeError { kind: ErrorKind::Surrogate, offset: 0, length: 1 }));
/// assert_eq!(events[3], Event::CodePoint(0x21));
/// ```
pub fn events(bytes: &[u8]) -> Events<'_> {
    Events::new(bytes, step)
}

/// Strict decode: every code point, or the first error span.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf8, ErrorKind};
/// assert_eq!(utf8::decode("é".as_bytes()), Ok(vec![0xE9]));
/// assert_eq!(utf8::decode(b"\xC1\x81").unwrap_err().kind, ErrorKind::Overlong);
/// ```
#[cfg(feature = "alloc")]
pub fn decode(bytes: &[u8]) -> Result<Vec<u32>, DecodeError> {
    events(bytes).strict()
}

/// Lossy decode: every code point, with one U+FFFD in place of each error span.
///
/// # Examples
///
/// ```
/// use corrected_utf8::utf8;
/// assert_eq!(utf8::decode_lossy(b"ok"), vec![0x6F, 0x6B]);
/// assert_eq!(utf8::decode_lossy(b"\xF4\x90\x80\x80"), vec![0xFFFD; 4]);
/// ```
#[cfg(feature = "alloc")]
pub fn decode_lossy(bytes: &[u8]) -> Vec<u32> {
    events(bytes).lossy().collect()
}

/// Lossy decode into a `String`; equal to `String::from_utf8_lossy`.
///
/// # Examples
///
/// ```
/// use corrected_utf8::utf8;
/// assert_eq!(utf8::decode_lossy_to_string(b"caf\xC3\xA9"), "café");
/// assert_eq!(utf8::decode_lossy_to_string(b"caf\xC3"), "caf\u{FFFD}");
/// ```
#[cfg(feature = "alloc")]
pub fn decode_lossy_to_string(bytes: &[u8]) -> String {
    events(bytes)
        .lossy()
        // Every code point the decoder yields is a scalar value.
        .map(|cp| char::from_u32(cp).unwrap_or('\u{FFFD}'))
        .collect()
}

/// Validates `bytes`: `Ok` or the first error span.
///
/// Uses `core::str::from_utf8` to find the first error fast, then decodes that one
/// span to name its kind.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf8, ErrorKind};
/// assert!(utf8::validate("𝄞".as_bytes()).is_ok());
/// let err = utf8::validate(b"ab\xF5").unwrap_err();
/// assert_eq!((err.kind, err.offset, err.length), (ErrorKind::OutOfRange, 2, 1));
/// ```
pub fn validate(bytes: &[u8]) -> Result<(), DecodeError> {
    match core::str::from_utf8(bytes) {
        Ok(_) => Ok(()),
        Err(e) => {
            let mut events = events(bytes);
            events.skip_to(e.valid_up_to());
            match events.next() {
                Some(crate::Event::Error(err)) => Err(err),
                // std and Table 3-7 disagree: impossible by construction (tested).
                _ => unreachable!("std found an error where Table 3-7 found none"),
            }
        }
    }
}

/// The length of `codepoint`'s encoding, or why it has none.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf8, ErrorKind};
/// assert_eq!(utf8::encoded_len(0x10FFFF), Ok(4));
/// assert_eq!(utf8::encoded_len(0x110000).unwrap_err().kind, ErrorKind::OutOfRange);
/// ```
pub const fn encoded_len(codepoint: u32) -> Result<usize, EncodeError> {
    match codepoint {
        0..=0x7F => Ok(1),
        0x80..=0x7FF => Ok(2),
        0xD800..=0xDFFF => Err(EncodeError {
            kind: ErrorKind::Surrogate,
            codepoint,
        }),
        0x800..=0xFFFF => Ok(3),
        0x1_0000..=0x10_FFFF => Ok(4),
        _ => Err(EncodeError {
            kind: ErrorKind::OutOfRange,
            codepoint,
        }),
    }
}

/// Encodes one code point into `buf` without allocating; returns the bytes written.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf8, ErrorKind};
/// let mut buf = [0; utf8::MAX_LEN];
/// assert_eq!(utf8::encode_into(0x20AC, &mut buf), Ok(&[0xE2, 0x82, 0xAC][..]));
/// assert_eq!(utf8::encode_into(0xDC00, &mut buf).unwrap_err().kind, ErrorKind::Surrogate);
/// ```
pub fn encode_into(codepoint: u32, buf: &mut [u8; MAX_LEN]) -> Result<&[u8], EncodeError> {
    let len = encoded_len(codepoint)?;
    if len == 1 {
        buf[0] = codepoint as u8;
        return Ok(&buf[..1]);
    }
    Ok(crate::pack(codepoint, len, buf))
}

/// Encodes code points into a new `Vec`; fails at the first one that has no encoding.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf8, ErrorKind};
/// assert_eq!(utf8::encode([0x41, 0xE9]), Ok(b"A\xC3\xA9".to_vec()));
/// assert_eq!(utf8::encode([0x41, 0x11_0000]).unwrap_err().kind, ErrorKind::OutOfRange);
/// ```
#[cfg(feature = "alloc")]
pub fn encode<I: IntoIterator<Item = u32>>(codepoints: I) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    let mut buf = [0; MAX_LEN];
    for cp in codepoints {
        out.extend_from_slice(encode_into(cp, &mut buf)?);
    }
    Ok(out)
}

crate::stream::stream_decoder!("utf8", crate::Encoding::Utf8, "UTF-8");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leads_agree_with_table_3_7() {
        for byte in 0..=0xFFu8 {
            let row = TABLE
                .iter()
                .find(|r| (r.bytes[0].0..=r.bytes[0].1).contains(&byte));
            match (lead(byte), row) {
                (Lead::Seq { len: 1, .. }, Some(row)) => assert_eq!(row.len(), 1),
                (Lead::Seq { len, lo, hi, .. }, Some(row)) => {
                    assert_eq!(
                        (row.len(), row.bytes[1]),
                        (len as usize, (lo, hi)),
                        "{byte:02X}"
                    )
                }
                (Lead::Never(_), None) => {}
                _ => panic!("{byte:02X}: lead() and Table 3-7 disagree"),
            }
        }
    }

    #[test]
    fn rows_are_the_scalar_values_in_order() {
        let mut next = 0;
        for row in &TABLE {
            next = if next == 0xD800 { 0xE000 } else { next };
            assert_eq!(row.first, next);
            assert_eq!(encoded_len(row.first), Ok(row.len()));
            assert_eq!(encoded_len(row.last), Ok(row.len()));
            next = row.last + 1;
        }
        assert_eq!(next, 0x11_0000);
    }
}
