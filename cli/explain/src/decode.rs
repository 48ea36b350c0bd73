//! Decoding explained: a byte-by-byte breakdown for each encoding, in the spirit of the
//! interactive decoder of *All you need to know about UTF-8 decoding* (docs/sources.md).
//!
//! Each encoding has an explainer: it cuts the bytes into [`Segment`]s (a sequence, an
//! error span or a reserved span: exactly the codec's events) and describes each in a few
//! short lines, with its row of the encoding's table or its form. [`Decoding`] holds the
//! segments of one encoding and what follows from them: the lossy output, where a strict
//! decode stops, the three-valued result.

mod utf_inf8;

use corrected_utf8::corrected::{self, TABLE};
use corrected_utf8::{
    utf8, BigCodePoint, DecodeError, Encoding, ErrorKind, Event, Located, Validity,
};
use serde::Serialize;
use std::fmt::Write as _;

/// The code length limit of UTF-∞-8 when none is given (the decoder's default).
pub const DEFAULT_MAX_CODE_LEN: u32 = corrected_utf8::utf_inf8::DEFAULT_MAX_CODE_LEN;

/// A sequence, an error span or a reserved span of the input, and what to say about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Segment {
    /// Byte offset of its first byte in the input.
    pub offset: usize,
    /// Its bytes; at least 1.
    pub length: usize,
    /// The codec's event for these bytes.
    #[serde(flatten)]
    pub event: SegmentEvent,
    /// `U+00CF`, `[truncated]` or `[reserved]`: the segment in a summary line.
    pub short: String,
    /// What it says: its code point and how the bytes give it, or its span and why it
    /// fails; a line each, as `cutf8 explain` prints them.
    pub lines: Vec<String>,
    /// For a code point: the row of the encoding's table (or UTF-∞-8's form) it is in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<Row>,
}

/// The event of a segment (its offset and length are the segment's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "class", rename_all = "lowercase")]
pub enum SegmentEvent {
    /// A code point (of any size: UTF-∞-8's are unbounded).
    #[serde(rename = "codepoint")]
    CodePoint {
        /// `U+` and at least 4 uppercase hex digits, in full.
        #[serde(serialize_with = "crate::codepoint::serialize")]
        codepoint: BigCodePoint,
    },
    /// An error span.
    Error {
        /// Its kind.
        #[serde(serialize_with = "serialize_kind")]
        error: ErrorKind,
    },
    /// A Corrected UTF-8 reserved span: not an error.
    Reserved,
}

fn serialize_kind<S: serde::Serializer>(kind: &ErrorKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind.as_str())
}

/// The row of an encoding's table that a sequence is in, or UTF-∞-8's form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    /// `3-byte row (raw ≥ CF60), offset 4 256`, `row U+0800..U+0FFF`, `FE 7-byte form`.
    pub label: String,
    /// Corrected UTF-8: the row's offset, added to the raw value to give the code point.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u32>,
    /// Corrected UTF-8: the raw value, the bits the sequence carries as in RFC 2044.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw: Option<u32>,
}

impl Segment {
    /// Whether this segment is an error span.
    pub fn is_error(&self) -> bool {
        matches!(self.event, SegmentEvent::Error { .. })
    }

    /// Whether this segment is a reserved span.
    pub fn is_reserved(&self) -> bool {
        self.event == SegmentEvent::Reserved
    }
}

/// The segments of `bytes` in `encoding`, covering it in order. `max_code_len` is
/// UTF-∞-8's code length limit (default [`DEFAULT_MAX_CODE_LEN`]); the other encodings
/// ignore it.
pub fn explain(bytes: &[u8], encoding: Encoding, max_code_len: Option<u32>) -> Vec<Segment> {
    match encoding {
        Encoding::CorrectedUtf8 => segments(
            bytes,
            corrected::events(bytes).located(),
            describe_corrected,
        ),
        Encoding::Utf8 => segments(bytes, utf8::events(bytes).located(), describe_utf8),
        Encoding::UtfInf8 => utf_inf8::explain(bytes, max_code_len.unwrap_or(DEFAULT_MAX_CODE_LEN)),
    }
}

/// The decoding of some bytes in one encoding, explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoding {
    /// The encoding.
    pub encoding: Encoding,
    /// The segments, covering the input in order.
    pub segments: Vec<Segment>,
}

impl Decoding {
    /// Explains `bytes` in `encoding` ([`explain`]).
    pub fn new(bytes: &[u8], encoding: Encoding, max_code_len: Option<u32>) -> Decoding {
        Decoding {
            encoding,
            segments: explain(bytes, encoding, max_code_len),
        }
    }

    /// Valid (code points only), reserved (no error span, a reserved span) or invalid
    /// (an error span): `docs/semantics.md` §1.
    pub fn validity(&self) -> Validity {
        let mut validity = Validity::Valid;
        for segment in &self.segments {
            match segment.event {
                SegmentEvent::CodePoint { .. } => {}
                SegmentEvent::Reserved => validity = Validity::Reserved,
                SegmentEvent::Error { .. } => return Validity::Invalid,
            }
        }
        validity
    }

    /// `"valid"`, `"reserved"` or `"invalid"`, as the vectors write it.
    pub fn result(&self) -> &'static str {
        self.validity().as_str()
    }

    /// The lossy decode: each code point, and one U+FFFD for each span of either class.
    pub fn lossy(&self) -> impl Iterator<Item = BigCodePoint> + '_ {
        self.segments.iter().map(|s| match &s.event {
            SegmentEvent::CodePoint { codepoint } => codepoint.clone(),
            SegmentEvent::Error { .. } | SegmentEvent::Reserved => BigCodePoint::from(0xFFFDu32),
        })
    }

    /// Where a strict decode stops: the first span of either class, if any.
    pub fn strict_stop(&self) -> Option<&Segment> {
        self.segments
            .iter()
            .find(|s| !matches!(s.event, SegmentEvent::CodePoint { .. }))
    }

    /// `valid`, or the errors and (when there are some) the reserved spans, counted
    /// apart since a reserved span is not an error: `1 error, 2 reserved`.
    pub fn verdict(&self) -> String {
        let count = |f: fn(&Segment) -> bool| self.segments.iter().filter(|s| f(s)).count();
        let (errors, reserved) = (count(Segment::is_error), count(Segment::is_reserved));
        match (errors, reserved) {
            (0, 0) => "valid".to_string(),
            (1, 0) => "1 error".to_string(),
            (n, 0) => format!("{n} errors"),
            (1, r) => format!("1 error, {r} reserved"),
            (n, r) => format!("{n} errors, {r} reserved"),
        }
    }
}

/// What a byte is by its value alone in `encoding` (its segment says what it became):
/// `ASCII`, `continuation`, `lead of 3`, and the bytes that begin nothing valid.
pub fn byte_role(encoding: Encoding, byte: u8) -> &'static str {
    const LEADS: [&str; 7] = [
        "",
        "",
        "lead of 2",
        "lead of 3",
        "lead of 4",
        "lead of 5",
        "lead of 6",
    ];
    match (encoding, byte) {
        (_, 0x00..=0x7F) => "ASCII",
        (_, 0x80..=0xBF) => "continuation",
        (Encoding::CorrectedUtf8, 0xFE | 0xFF) => "reserved",
        (Encoding::Utf8, 0xC0 | 0xC1) => "never valid (overlong)",
        (Encoding::Utf8, 0xF5..=0xFD) => "never valid (above U+10FFFF)",
        (Encoding::Utf8, 0xFE | 0xFF) => "never valid",
        (Encoding::UtfInf8, 0xFE) => "lead of 7",
        (Encoding::UtfInf8, 0xFF) => "lead of 13 or more",
        (_, b) => LEADS[b.leading_ones() as usize],
    }
}

/// `0 1000001`, `110 00000`, `10 101111`: the marker bits, then the payload.
pub fn byte_bits(b: u8) -> String {
    let bits = format!("{b:08b}");
    match b.leading_ones() as usize {
        // FE's and FF's marker bits leave no payload.
        7.. => bits,
        n => format!("{} {}", &bits[..=n], &bits[n + 1..]),
    }
}

/// `3-byte row (raw ≥ CF60), offset 4 256`: a row of Corrected UTF-8, *Putting it all
/// together*, named as there; the 3-byte class has two rows, told apart by where the raw values split.
fn row_label(row: &corrected::Row) -> String {
    let split = TABLE.iter().filter(|r| r.len == row.len).count() > 1;
    let class = match (split, row.raw_first) {
        (false, _) => String::new(),
        (true, 0) => format!(" (raw < {:X})", row.raw_last + 1),
        (true, first) => format!(" (raw ≥ {first:X})"),
    };
    format!(
        "{}-byte row{class}, offset {}",
        row.len,
        group_digits(row.offset.into())
    )
}

/// The row of a complete sequence of `len` bytes with raw value `raw`.
fn row(len: usize, raw: u32) -> &'static corrected::Row {
    u8::try_from(len)
        .ok()
        .and_then(|len| corrected::row_of_sequence(len, raw))
        .expect("every complete sequence of 1 to 6 bytes has a row")
}

/// The bits a sequence carries as in RFC 2044, grouped by byte (`00000 101111`), and
/// their value.
fn raw_bits(seq: &[u8]) -> (String, u32) {
    let n = seq.len();
    let lead_bits = 7 - n; // `110xxxxx` carries 5
    let mut text = format!("{:0w$b}", seq[0] & (0x7F >> n), w = lead_bits);
    let mut raw = (seq[0] & (0x7F >> n)) as u32;
    for &b in &seq[1..] {
        let _ = write!(text, " {:06b}", b & 0x3F);
        raw = (raw << 6) | (b & 0x3F) as u32;
    }
    (text, raw)
}

/// `1-byte`… `6-byte` leads, in either encoding's lead-byte layout; 0 for the rest.
fn lead_len(byte: u8) -> usize {
    match byte.leading_ones() {
        0 => 1,
        n @ 2..=6 => n as usize,
        _ => 0,
    }
}

/// `error: truncated (bytes 3-4)`.
fn span_line(e: &DecodeError) -> String {
    let last = e.offset + e.length - 1;
    if e.length == 1 {
        format!("error: {} (byte {})", e.kind, e.offset)
    } else {
        format!("error: {} (bytes {}-{last})", e.kind, e.offset)
    }
}

/// `E0 needs 3 bytes, has 2`.
fn truncated_line(bytes: &[u8], e: &DecodeError) -> String {
    let lead = bytes[e.offset as usize];
    format!(
        "{lead:02X} needs {} bytes, has {}",
        lead_len(lead),
        e.length
    )
}

/// What one segment says: its summary text, its lines and its row.
struct Description {
    short: String,
    lines: Vec<String>,
    row: Option<Row>,
}

impl Description {
    /// An error span and why.
    fn error(e: &DecodeError, lines: Vec<String>) -> Description {
        Description {
            short: format!("[{}]", e.kind),
            lines,
            row: None,
        }
    }
}

/// The codec's events as segments, each described by `describe(bytes, offset, length,
/// event)`.
fn segments<C: Into<BigCodePoint> + Clone>(
    bytes: &[u8],
    events: impl Iterator<Item = Located<C>>,
    describe: impl Fn(&[u8], usize, usize, Event<C>) -> Description,
) -> Vec<Segment> {
    events
        .map(|l| {
            // Offsets fit in `usize`: the events are of a slice.
            let (offset, length) = (l.offset as usize, l.length as usize);
            let event = match &l.event {
                Event::CodePoint(cp) => SegmentEvent::CodePoint {
                    codepoint: cp.clone().into(),
                },
                Event::Error(e) => SegmentEvent::Error { error: e.kind },
                Event::Reserved(_) => SegmentEvent::Reserved,
            };
            let Description { short, lines, row } = describe(bytes, offset, length, l.event);
            Segment {
                offset,
                length,
                event,
                short,
                lines,
                row,
            }
        })
        .collect()
}

fn describe_corrected(bytes: &[u8], offset: usize, length: usize, event: Event) -> Description {
    let seq = &bytes[offset..offset + length];
    match event {
        Event::CodePoint(cp) if length == 1 => Description {
            short: format!("U+{cp:04X}"),
            lines: vec![format!("U+{cp:04X}  {}", row_label(&TABLE[0]))],
            row: Some(Row {
                label: row_label(&TABLE[0]),
                offset: Some(0),
                raw: Some(cp),
            }),
        },
        Event::CodePoint(cp) => {
            let (bits, raw) = raw_bits(seq);
            let row = row(length, raw);
            // The table here must say what the codec decodes (tested at every row's
            // edges and over every 2- and 3-byte sequence).
            debug_assert_eq!(raw + row.offset, cp, "row of {seq:02X?}");
            let lines = vec![
                format!(
                    "U+{cp:04X} = raw 0x{raw:X} + {}",
                    group_digits(row.offset.into())
                ),
                row_label(row),
                format!("raw bits {bits}"),
            ];
            Description {
                short: format!("U+{cp:04X}"),
                lines,
                row: Some(Row {
                    label: row_label(row),
                    offset: Some(row.offset),
                    raw: Some(raw),
                }),
            }
        }
        Event::Error(e) => {
            let why = match e.kind {
                // The kind says it all; runs of them stay one row per byte.
                ErrorKind::UnexpectedContinuation => {
                    return Description::error(&e, vec![span_line(&e)])
                }
                ErrorKind::Truncated => truncated_line(bytes, &e),
                other => other.as_str().into(),
            };
            Description::error(&e, vec![span_line(&e), why])
        }
        Event::Reserved(r) => {
            // Not an error: say so, and where the span stops.
            let end = match bytes.get(offset + length) {
                None => "to the end of the input".into(),
                Some(next) => format!("up to the next lead byte, {next:02X}"),
            };
            let last = r.offset + r.length - 1;
            let span = if r.length == 1 {
                format!("reserved (byte {})", r.offset)
            } else {
                format!("reserved (bytes {}-{last})", r.offset)
            };
            let why = "not an error: reserved for future use".into();
            Description {
                short: "[reserved]".into(),
                lines: vec![span, why, end],
                row: None,
            }
        }
    }
}

fn describe_utf8(bytes: &[u8], offset: usize, length: usize, event: Event) -> Description {
    let seq = &bytes[offset..offset + length];
    match event {
        Event::CodePoint(cp) => {
            let utf8::Row {
                first: lo,
                last: hi,
                ..
            } = utf8::Row::of(cp).expect("a decoded code point is in Table 3-7");
            let label = format!("row U+{lo:04X}..U+{hi:04X}");
            let mut lines = vec![format!("U+{cp:04X}  {label}")];
            if length > 1 {
                lines.push(format!("bits {}", raw_bits(seq).0));
            }
            Description {
                short: format!("U+{cp:04X}"),
                lines,
                row: Some(Row {
                    label,
                    offset: None,
                    raw: None,
                }),
            }
        }
        Event::Error(e) => {
            let next = bytes.get(offset + 1).copied().unwrap_or(0);
            let why = match (e.kind, seq[0]) {
                (ErrorKind::UnexpectedContinuation, _) => {
                    return Description::error(&e, vec![span_line(&e)])
                }
                (ErrorKind::Truncated, _) => truncated_line(bytes, &e),
                (ErrorKind::Overlong, 0xC0 | 0xC1) => "C0, C1 only begin overlongs".into(),
                (ErrorKind::Overlong, lead) => {
                    format!("{lead:02X} {next:02X} begins an overlong")
                }
                (ErrorKind::Surrogate, lead) => {
                    format!("{lead:02X} {next:02X} begins a surrogate")
                }
                (ErrorKind::OutOfRange, 0xF4) => {
                    format!("F4 {next:02X} begins > U+10FFFF")
                }
                (ErrorKind::OutOfRange, _) => "F5..FD begin > U+10FFFF".into(),
                (ErrorKind::InvalidByte, _) => "FE, FF never occur".into(),
                (other, _) => other.as_str().into(),
            };
            Description::error(&e, vec![span_line(&e), why])
        }
        Event::Reserved(r) => unreachable!("UTF-8 has no reserved spans: {r}"),
    }
}

/// `69 275 808`: digits in groups of three, as Corrected UTF-8, *Putting it all together*,
/// writes offsets.
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests;
