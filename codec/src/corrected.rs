//! Corrected UTF-8 (`corrected-utf8`): encode, decode, validate.
//!
//! Every structurally complete sequence is the unique encoding of one code point: each
//! length class adds an offset to the raw RFC 2044 value, so there are no overlongs, and
//! the C1 controls and surrogates are skipped (`docs/semantics.md` §2).

pub mod fast;
pub(crate) mod table;

use crate::error::{EncodeError, ErrorKind};
use crate::event::{Stop, Validity};
use crate::events::{Events, Step};
use crate::pack::pack;
use crate::stream::Start;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;
pub(crate) use table::{codepoint_of, is_recognized_lead, lead, lead_bits, Lead};
pub use table::{row_of_sequence, Row, MAX_CODEPOINT, MAX_LEN, TABLE};

/// The magic number that marks a Corrected UTF-8 file (U+10E7D U+ED4E U+0000 U+000A).
pub const MAGIC: [u8; 8] = [0xEF, 0xB7, 0x9D, 0xED, 0xB2, 0xAE, 0x00, 0x0A];

/// Decodes the sequence at the start of `bytes` (non-empty): what it is and its length.
pub(crate) fn step(bytes: &[u8]) -> (Step, usize) {
    let first = bytes[0];
    match lead(first) {
        Lead::Len(1) => (Step::CodePoint(first as u32), 1),
        Lead::Continuation => (Step::Error(ErrorKind::UnexpectedContinuation), 1),
        Lead::Reserved => {
            let len = bytes[1..]
                .iter()
                .position(|&b| is_recognized_lead(b))
                .map_or(bytes.len(), |i| i + 1);
            (Step::Reserved, len)
        }
        Lead::Len(len) => {
            let mut raw = lead_bits(first, len);
            for i in 1..len as usize {
                match bytes.get(i) {
                    Some(&b) if b & 0xC0 == 0x80 => raw = (raw << 6) | (b & 0x3F) as u32,
                    _ => return (Step::Error(ErrorKind::Truncated), i),
                }
            }
            (Step::CodePoint(codepoint_of(len, raw)), len as usize)
        }
    }
}

/// The decoding events of `bytes`: code points, error spans and reserved spans,
/// covering it in order.
///
/// Never allocates. [`Events::offset`] tells where the next event starts and
/// [`Events::located`] adds each event's byte range.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected, Event, ReservedSpan};
/// let events: Vec<Event> = corrected::events(b"\xC0\xAF\xFE\xFE\x80A").collect();
/// assert_eq!(events, [
///     Event::CodePoint(0xCF),
///     Event::Reserved(ReservedSpan { offset: 2, length: 3 }),
///     Event::CodePoint(0x41),
/// ]);
/// ```
pub fn events(bytes: &[u8]) -> Events<'_> {
    Events::new(bytes, step)
}

/// Strict decode: every code point, or where and why it stops: at the first error span
/// or reserved span.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected, ErrorKind, ReservedSpan, Stop};
/// assert_eq!(corrected::decode(b"\xEF\xB7\x9D"), Ok(vec![0x10E7D]));
/// let err = *corrected::decode(b"ok\x80").unwrap_err().error().unwrap();
/// assert_eq!((err.kind, err.offset, err.length), (ErrorKind::UnexpectedContinuation, 2, 1));
/// let stop = corrected::decode(b"\xFE").unwrap_err();
/// assert_eq!(stop, Stop::Reserved(ReservedSpan { offset: 0, length: 1 }));
/// assert_eq!(stop.to_string(), "reserved sequence of 1 byte at byte 0");
/// ```
#[cfg(feature = "alloc")]
pub fn decode(bytes: &[u8]) -> Result<Vec<u32>, Stop> {
    events(bytes).strict()
}

/// Lossy decode: every code point, with one U+FFFD in place of each error span and each
/// reserved span.
///
/// # Examples
///
/// ```
/// use corrected_utf8::corrected;
/// assert_eq!(corrected::decode_lossy(b"A"), vec![0x41]);
/// assert_eq!(corrected::decode_lossy(b"\xFF\xFF\x80A\xE0"), vec![0xFFFD, 0x41, 0xFFFD]);
/// ```
#[cfg(feature = "alloc")]
pub fn decode_lossy(bytes: &[u8]) -> Vec<u32> {
    events(bytes).lossy().collect()
}

/// Validates `bytes`: `Ok` when they decode to code points alone, or else the first
/// span, as [`decode`] reports it (a reserved span stops it too; [`validity`] tells
/// whether an error span follows one).
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected, ErrorKind};
/// let kind = |bytes: &[u8]| corrected::validate(bytes).unwrap_err().error().map(|e| e.kind);
/// assert!(corrected::validate(b"\xFD\xBF\xBF\xBF\xBF\xBF").is_ok());
/// assert_eq!(kind(b"\xFD\xBF"), Some(ErrorKind::Truncated));
/// assert_eq!(kind(b"\xFD\xFF"), Some(ErrorKind::Truncated));
/// assert_eq!(kind(b"A\xFF"), None); // a reserved span
/// assert!(corrected::validate(b"A\xFF").unwrap_err().reserved().is_some());
/// ```
pub fn validate(bytes: &[u8]) -> Result<(), Stop> {
    events_after_ascii(bytes)
        .find_map(|e| e.stop())
        .map_or(Ok(()), Err)
}

/// Whether `bytes` are valid (code points only), reserved (no error span, at least one
/// reserved span) or invalid (at least one error span) (`docs/semantics.md` §1).
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected, Validity};
/// assert_eq!(corrected::validity(b"\xC0\xAF"), Validity::Valid);
/// assert_eq!(corrected::validity(b"A\xFE\x80B"), Validity::Reserved);
/// assert_eq!(corrected::validity(b"\xFE\x80\x80\xC0"), Validity::Invalid); // truncated C0
/// ```
pub fn validity(bytes: &[u8]) -> Validity {
    events_after_ascii(bytes).validity()
}

/// The events of `bytes` from the end of their leading run of ASCII, which needs no
/// decoding and cannot change a validation's outcome.
fn events_after_ascii(bytes: &[u8]) -> Events<'_> {
    let start = bytes.iter().position(|&b| b >= 0x80).unwrap_or(bytes.len());
    let mut events = events(bytes);
    events.skip_to(start);
    events
}

/// The length of `codepoint`'s encoding, or why it has none.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected, ErrorKind};
/// assert_eq!(corrected::encoded_len(0x8421109F), Ok(6));
/// assert_eq!(corrected::encoded_len(0xD800).unwrap_err().kind, ErrorKind::Surrogate);
/// ```
pub const fn encoded_len(codepoint: u32) -> Result<usize, EncodeError> {
    match row_of(codepoint) {
        Ok(row) => Ok(TABLE[row].len as usize),
        Err(kind) => Err(EncodeError { kind, codepoint }),
    }
}

/// The index in [`TABLE`] of the row that encodes `codepoint`, or why none does.
const fn row_of(codepoint: u32) -> Result<usize, ErrorKind> {
    match codepoint {
        0x80..=0x9F => Err(ErrorKind::C1Control),
        0xD800..=0xDFFF => Err(ErrorKind::Surrogate),
        0x8421_10A0.. => Err(ErrorKind::OutOfRange),
        _ => {
            let mut i = 0;
            while i < TABLE.len() {
                let row = &TABLE[i];
                if codepoint >= row.raw_first + row.offset && codepoint <= row.raw_last + row.offset
                {
                    return Ok(i);
                }
                i += 1;
            }
            // Unreachable: the rows cover every value not rejected above (tested).
            Err(ErrorKind::OutOfRange)
        }
    }
}

/// Encodes one code point into `buf` without allocating; returns the bytes written.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected, ErrorKind};
/// let mut buf = [0; corrected::MAX_LEN];
/// assert_eq!(corrected::encode_into(0xCF, &mut buf), Ok(&[0xC0, 0xAF][..]));
/// assert_eq!(corrected::encode_into(0x8421_10A0, &mut buf).unwrap_err().kind, ErrorKind::OutOfRange);
/// ```
pub fn encode_into(codepoint: u32, buf: &mut [u8; MAX_LEN]) -> Result<&[u8], EncodeError> {
    let row = match row_of(codepoint) {
        Ok(row) => &TABLE[row],
        Err(kind) => return Err(EncodeError { kind, codepoint }),
    };
    let len = row.len as usize;
    if len == 1 {
        buf[0] = codepoint as u8;
        return Ok(&buf[..1]);
    }
    Ok(pack(codepoint - row.offset, len, buf))
}

/// Encodes code points into a new `Vec`; fails at the first one that has no encoding.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected, ErrorKind};
/// assert_eq!(corrected::encode([0x10E7D, 0xED4E, 0, 0x0A]), Ok(corrected::MAGIC.to_vec()));
/// let err = corrected::encode([0x41, 0x9F]).unwrap_err();
/// assert_eq!((err.kind, err.codepoint), (ErrorKind::C1Control, 0x9F));
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

/// Corrected UTF-8's byte classes for the streaming decoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Classes;

impl crate::stream::Table for Classes {
    fn start(byte: u8) -> Start {
        match lead(byte) {
            Lead::Len(len) => Start::Seq {
                len,
                bits: lead_bits(byte, len),
            },
            Lead::Continuation => Start::Error(ErrorKind::UnexpectedContinuation),
            Lead::Reserved => Start::Reserved,
        }
    }

    // Every continuation byte continues every sequence.
    fn second_byte_range(_lead: u8) -> (u8, u8) {
        (0x80, 0xBF)
    }

    fn stopped(_lead: u8, _have: u8, _byte: u8) -> ErrorKind {
        ErrorKind::Truncated
    }

    fn codepoint(len: u8, value: u32) -> u32 {
        codepoint_of(len, value)
    }

    fn ends_reserved(byte: u8) -> bool {
        is_recognized_lead(byte)
    }
}

crate::stream::stream_decoder!("corrected", Classes, "Corrected UTF-8");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_cover_every_code_point_but_the_two_gaps() {
        let mut expected_first = 0u32;
        for row in &TABLE {
            // The C1 controls and the surrogates are the only values skipped.
            expected_first = match expected_first {
                0x80 => 0xA0,
                0xD800 => 0xE000,
                v => v,
            };
            assert_eq!(
                row.raw_first + row.offset,
                expected_first,
                "row of {} bytes",
                row.len
            );
            expected_first = row.raw_last + row.offset + 1;
        }
        assert_eq!(expected_first - 1, MAX_CODEPOINT);
    }

    #[test]
    fn every_row_spans_exactly_its_raw_bits() {
        for row in &TABLE {
            let bits = if row.len == 1 {
                7
            } else {
                (7 - row.len as u32) + 6 * (row.len as u32 - 1)
            };
            let split = row.len == 3;
            if !split {
                assert_eq!(row.raw_last, (1u32 << bits) - 1, "row of {} bytes", row.len);
            }
        }
        assert_eq!(TABLE[3].raw_last, 0xFFFF);
    }
}
