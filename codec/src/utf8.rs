//! Standard UTF-8 (`utf-8`, RFC 3629): encode, decode, validate, with named error kinds.
//!
//! Error spans are maximal subparts, so they agree exactly with Rust's
//! [`Utf8Error`](core::str::Utf8Error) and `String::from_utf8_lossy`; each span also gets a
//! kind (`docs/semantics.md` §3).

use crate::error::{DecodeError, EncodeError, ErrorKind};
use crate::event::Validity;
use crate::events::{Events, Step};
use crate::pack::pack;
use crate::stream::Start;
#[cfg(feature = "alloc")]
use alloc::{string::String, vec::Vec};
pub(crate) use table::{is_continuation, lead, Lead};
pub use table::{Row, MAX_LEN, TABLE};

pub(crate) mod table;

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
    events(bytes)
        .map(|e| match e {
            crate::Event::CodePoint(cp) => Ok(cp),
            crate::Event::Error(err) => Err(err),
            // `step` never returns `Step::Reserved`.
            crate::Event::Reserved(_) => unreachable!("UTF-8 has no reserved spans"),
        })
        .collect()
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

/// Whether `bytes` are valid (code points only) or invalid (at least one error span);
/// UTF-8 has no reserved spans. As fast as [`validate`].
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf8, Validity};
/// assert_eq!(utf8::validity("é".as_bytes()), Validity::Valid);
/// assert_eq!(utf8::validity(b"\xFE\x80"), Validity::Invalid);
/// ```
pub fn validity(bytes: &[u8]) -> Validity {
    match validate(bytes) {
        Ok(()) => Validity::Valid,
        Err(_) => Validity::Invalid,
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
    Ok(pack(codepoint, len, buf))
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

/// UTF-8's byte classes (Table 3-7) for the streaming decoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Classes;

impl crate::stream::Table for Classes {
    fn start(byte: u8) -> Start {
        match lead(byte) {
            Lead::Seq { len, .. } => Start::Seq {
                len,
                bits: (byte & (0x7F >> len)) as u32,
            },
            Lead::Never(kind) => Start::Error(kind),
        }
    }

    fn second_byte_range(lead_byte: u8) -> (u8, u8) {
        match lead(lead_byte) {
            Lead::Seq { lo, hi, .. } => (lo, hi),
            Lead::Never(_) => (0x80, 0xBF),
        }
    }

    fn stopped(lead_byte: u8, have: u8, byte: u8) -> ErrorKind {
        match lead(lead_byte) {
            // `E0`/`ED`/`F0`/`F4` followed by a continuation byte outside its range: the
            // lead alone is the span, and its kind says why.
            Lead::Seq { narrow, .. } if have == 1 && is_continuation(byte) => narrow,
            _ => ErrorKind::Truncated,
        }
    }

    fn codepoint(_len: u8, value: u32) -> u32 {
        value
    }

    // UTF-8 has no reserved spans.
    fn ends_reserved(_byte: u8) -> bool {
        true
    }
}

crate::stream::stream_decoder!("utf8", Classes, "UTF-8");

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
