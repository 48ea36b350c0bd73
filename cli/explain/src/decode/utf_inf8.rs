//! UTF-∞-8 explained (`docs/semantics.md` §4).
//!
//! The codec decides every event; this module only reads the bytes of each one again to
//! say *how* they decode or *why* they fail: the form (a 1–6 byte row of the original
//! UTF-8, `FE`'s 7 bytes, `FF 80–9F`'s 13, or `FF` with length storage), the length
//! fields, the storage digits. Debug builds check that this reading gives the codec's
//! code point.

use super::{group_digits, segments, span_line, Description, Row, Segment};
use crate::codepoint;
use crate::hex;
use corrected_utf8::utf_inf8::{self, FIXED_FORMS};
use corrected_utf8::{BigCodePoint, ErrorKind, Event};

/// The segments of `bytes`, decoded with a code length limit of `limit` bytes.
pub(super) fn explain(bytes: &[u8], limit: u32) -> Vec<Segment> {
    let mut events = utf_inf8::events_with_limit(bytes, limit);
    segments(
        bytes,
        std::iter::from_fn(|| events.next_located()),
        |bytes, offset, length, event| describe(limit, bytes, offset, length, event),
    )
}

/// The code point range of the fixed form of `len` bytes (1–7).
fn fixed_range(len: usize) -> (u128, u128) {
    let form = &FIXED_FORMS[len - 1];
    (form.first, form.last)
}

/// The form the first bytes of a code announce, read as the decoder reads them.
#[derive(Debug, PartialEq, Eq)]
enum Form {
    /// An ASCII byte.
    Ascii,
    /// A lead of `len` bytes: `C0–FD` (2–6, the original UTF-8) or `FE` (7).
    Lead { len: usize },
    /// `FF` and nothing that decides its form.
    Ff,
    /// `FF 80–9F`: 13 bytes, 71 payload bits.
    Ff13,
    /// `FF` and length storage, complete or not.
    Length(Length),
}

/// `FF`'s length storage: `B4` bytes, then length digits (`A0–AF`).
#[derive(Debug, PartialEq, Eq)]
struct Length {
    b4: usize,
    /// The digit values read so far; the length has `b4 + 1` of them.
    digits: Vec<u8>,
}

impl Length {
    fn complete(&self) -> bool {
        self.digits.len() == self.b4 + 1
    }

    /// `FF`, the `B4`s and the digits read so far.
    fn header_len(&self) -> usize {
        1 + self.b4 + self.digits.len()
    }

    /// NME, the digits' value (saturating: that large is over any limit anyway).
    fn nme(&self) -> u64 {
        self.nme_exact().unwrap_or(u64::MAX)
    }

    /// NME, or `None` if it is over 2^64 − 1 (17 digits or more).
    fn nme_exact(&self) -> Option<u64> {
        self.digits
            .iter()
            .try_fold(0u64, |v, &d| v.checked_mul(16)?.checked_add(d.into()))
    }

    /// The length of the shortest code these bytes begin: the missing digits as small
    /// as they may be (a first digit of 1 if none is read yet), or [`OVER_U64`].
    fn min_code_len(&self) -> u64 {
        let missing = (self.b4 + 1 - self.digits.len()) as u32;
        let least_nme = if self.digits.is_empty() {
            16u64.checked_pow(self.b4 as u32)
        } else {
            self.nme_exact()
                .and_then(|nme| nme.checked_mul(16u64.checked_pow(missing)?))
        };
        least_nme.map_or(OVER_U64, |nme| code_len(self.header_len_of_complete(), nme))
    }

    /// `FF`, the `B4`s and all `b4 + 1` digits.
    fn header_len_of_complete(&self) -> u64 {
        (1 + 2 * self.b4 + 1) as u64
    }
}

/// The code length of an NME of 2^64 − 18 or more (a few 16-digit lengths, every longer
/// one), past what a `u64` computes: more than 2/3 × 2^64 bytes, shown as "more than
/// 10^19" rather than as a saturated number.
const OVER_U64: u64 = u64::MAX;

/// The length of a long-form code with a header of `header` bytes and NME `nme`, or
/// [`OVER_U64`].
fn code_len(header: u64, nme: u64) -> u64 {
    nme.checked_add(18)
        .and_then(|nud| (nud.checked_add(2)? / 3).checked_mul(2))
        .and_then(|storage| header.checked_add(storage))
        .unwrap_or(OVER_U64)
}

/// `len` bytes, with thousands grouped, or "more than 10^19" for [`OVER_U64`].
fn byte_count(len: u64) -> String {
    if len == OVER_U64 {
        "more than 10^19".into()
    } else {
        group_digits(len)
    }
}

fn nud(nme: u64) -> u64 {
    nme.saturating_add(18)
}

/// Zero digits before the `nud` digits, to make a multiple of 3.
fn padding(nud: u64) -> usize {
    ((3 - nud % 3) % 3) as usize
}

/// The form of a code that starts with `seq` (its bytes so far, or all of them).
fn form(seq: &[u8]) -> Form {
    match seq {
        [0x00..=0x7F, ..] | [] => Form::Ascii,
        [0xFF, 0x80..=0x9F, ..] => Form::Ff13,
        [0xFF, 0xA0..=0xAF | 0xB4, ..] => {
            let mut length = Length {
                b4: 0,
                digits: Vec::new(),
            };
            for &b in &seq[1..] {
                match b {
                    0xB4 if length.digits.is_empty() => length.b4 += 1,
                    0xA0..=0xAF if !length.complete() => length.digits.push(b & 0x0F),
                    _ => break,
                }
            }
            Form::Length(length)
        }
        [0xFF, ..] => Form::Ff,
        [lead, ..] => Form::Lead {
            len: lead.leading_ones() as usize,
        },
    }
}

/// The hex digits in storage bytes, padding included: 3 per pair of bytes, and the
/// first digit of a pair cut short.
fn storage_digits(bytes: &[u8]) -> Vec<u8> {
    let mut digits = Vec::with_capacity(bytes.len() / 2 * 3 + 1);
    for pair in bytes.chunks(2) {
        let first = pair[0] & 0x3F;
        digits.push(first >> 2);
        if let Some(&second) = pair.get(1) {
            let second = second & 0x3F;
            digits.push(((first & 3) << 2) | (second >> 4));
            digits.push(second & 0x0F);
        }
    }
    digits
}

/// The minimum length of a code that starts with `seq`, and whether it is exact.
fn min_code_len(seq: &[u8]) -> (u64, bool) {
    match form(seq) {
        Form::Ascii => (1, true),
        Form::Lead { len } => (len as u64, true),
        Form::Ff => (13, false),
        Form::Ff13 => (13, true),
        Form::Length(l) if l.complete() => {
            let len = l
                .nme_exact()
                .map_or(OVER_U64, |nme| code_len(l.header_len() as u64, nme));
            (len, true)
        }
        Form::Length(l) => (l.min_code_len(), false),
    }
}

/// The payload bits of a fixed-form code, grouped by byte: the lead's (none in `FE`,
/// `FF`), the 5 of the byte after `FF`, 6 per continuation byte; and their value.
fn payload_bits(seq: &[u8]) -> (Vec<String>, u128) {
    let mut groups = Vec::new();
    let mut value = 0u128;
    for (i, &b) in seq.iter().enumerate() {
        let n = match i {
            0 => 7 - (b.leading_ones() as usize).min(7),
            1 if seq[0] == 0xFF => 5,
            _ => 6,
        };
        if n > 0 {
            let bits = b & ((1u16 << n) - 1) as u8;
            groups.push(format!("{bits:0n$b}"));
            value = (value << n) | u128::from(bits);
        }
    }
    (groups, value)
}

/// `U+80000000` … `U+FFFFFFFFF`.
fn range(first: u128, last: u128) -> String {
    format!("U+{first:04X}..U+{last:04X}")
}

/// Hex of a run of bytes, shortened in the middle when long: `FF B4 B4 … A1 A0`.
fn hex_short(bytes: &[u8]) -> String {
    if bytes.len() <= 6 {
        return hex::format(bytes);
    }
    format!(
        "{} … {}",
        hex::format(&bytes[..3]),
        hex::format(&bytes[bytes.len() - 2..])
    )
}

/// Storage digits shown 3 to a group (one group per 2 bytes), 8 groups to a line; at
/// most this many lines, then a count of the rest.
const DIGIT_LINES: usize = 4;
const GROUPS_PER_LINE: usize = 8;

fn describe(
    limit: u32,
    bytes: &[u8],
    offset: usize,
    length: usize,
    event: Event<BigCodePoint>,
) -> Description {
    let seq = &bytes[offset..offset + length];
    match event {
        Event::CodePoint(cp) => {
            let (label, lines) = code_point(seq, &cp);
            Description {
                short: codepoint::show(&cp),
                lines,
                row: Some(Row {
                    label,
                    offset: None,
                    raw: None,
                }),
            }
        }
        Event::Error(e) => {
            // The byte that ended the span, when one did.
            let next = bytes.get(offset + length).copied();
            let mut lines = vec![span_line(&e)];
            match e.kind {
                // The kind says it all; runs of them stay one row per byte.
                ErrorKind::UnexpectedContinuation => {}
                ErrorKind::Truncated => lines.push(truncated(seq)),
                ErrorKind::LimitExceeded => lines.push(limit_exceeded(limit, seq)),
                kind => lines
                    .extend(rejected(kind, seq, next).unwrap_or_else(|| vec![kind.to_string()])),
            }
            Description::error(&e, lines)
        }
        Event::Reserved(r) => unreachable!("UTF-∞-8 has no reserved spans: {r}"),
    }
}

/// `needs at least 699 076 bytes; limit 65 536`.
fn limit_exceeded(limit: u32, seq: &[u8]) -> String {
    let (len, exact) = min_code_len(seq);
    let at_least = if exact || len == OVER_U64 {
        ""
    } else {
        "at least "
    };
    format!(
        "needs {at_least}{} bytes; limit {}",
        byte_count(len),
        group_digits(limit.into())
    )
}

/// What a code point's bytes say: its form (the row's label), and its lines: the form,
/// its fields, its bits or digits.
fn code_point(seq: &[u8], cp: &BigCodePoint) -> (String, Vec<String>) {
    match form(seq) {
        Form::Ascii => {
            let (first, last) = fixed_range(1);
            let label = format!("1-byte row {}", range(first, last));
            let lines = vec![format!("{cp}  {label}")];
            (label, lines)
        }
        Form::Lead { len } => {
            let (groups, value) = payload_bits(seq);
            debug_assert_eq!(Some(value), cp.to_u128(), "{seq:02X?}");
            let (first, last) = fixed_range(len);
            if len < 7 {
                let label = format!("{len}-byte row {}", range(first, last));
                let lines = vec![
                    format!("{cp}  {label}"),
                    format!("bits {}", groups.join(" ")),
                ];
                (label, lines)
            } else {
                let label = "FE 7-byte form".to_string();
                let lines = vec![
                    format!("{cp}  {label}"),
                    format!("range {}", range(first, last)),
                    format!("bits {}", groups.join(" ")),
                ];
                (label, lines)
            }
        }
        Form::Ff13 => {
            let (groups, value) = payload_bits(seq);
            debug_assert_eq!(Some(value), cp.to_u128(), "{seq:02X?}");
            // 71 bits are too wide for one line: 5 + 5 × 6, then 6 × 6.
            let (high, low) = groups.split_at(groups.len().min(6));
            let label = "FF 13-byte form".to_string();
            let lines = vec![
                format!("{cp}  {label}"),
                format!("range {}", range(1 << 36, (1 << 71) - 1)),
                format!("bits {}", high.join(" ")),
                format!("     {}", low.join(" ")),
            ];
            (label, lines)
        }
        Form::Length(l) => ("FF + length storage".into(), length_form(seq, &l, cp)),
        // The decoder never completes a code of `FF` alone.
        Form::Ff => ("FF".into(), vec![cp.to_string()]),
    }
}

/// The length fields and storage digits of a code point in `FF` + length storage.
fn length_form(seq: &[u8], l: &Length, cp: &BigCodePoint) -> Vec<String> {
    let header = &seq[..l.header_len()];
    let storage = &seq[l.header_len()..];
    let nud = nud(l.nme());
    let pad = padding(nud);
    let digits = storage_digits(storage);
    debug_assert_eq!(
        BigCodePoint::from_digits(&digits[pad.min(digits.len())..]).as_ref(),
        Some(cp),
        "{seq:02X?}"
    );
    let mut lines = vec![
        codepoint::show(cp),
        format!(
            "FF + length storage, {} bytes",
            group_digits(seq.len() as u64)
        ),
        length_line(header, l),
    ];
    let padded = match pad {
        0 => String::new(),
        1 => ", 1 padding digit".into(),
        n => format!(", {n} padding digits"),
    };
    lines.push(format!(
        "{} storage bytes: {} digits{padded}",
        group_digits(storage.len() as u64),
        group_digits(nud)
    ));
    // `(00)1 000 000`: 3 digits per 2 bytes, the padding in parentheses.
    let mut groups: Vec<String> = digits
        .chunks(3)
        .map(|g| g.iter().map(|d| format!("{d:X}")).collect())
        .collect();
    if pad > 0 && !groups.is_empty() {
        let first = &groups[0];
        groups[0] = format!("({}){}", &first[..pad], &first[pad..]);
    }
    let lines_needed = groups.len().div_ceil(GROUPS_PER_LINE);
    let shown = if lines_needed <= DIGIT_LINES {
        groups.len()
    } else {
        (DIGIT_LINES - 1) * GROUPS_PER_LINE
    };
    for line in groups[..shown].chunks(GROUPS_PER_LINE) {
        lines.push(line.join(" "));
    }
    if shown < groups.len() {
        let rest = (groups.len() - shown) * 3;
        lines.push(format!("… {} more digits", group_digits(rest as u64)));
    }
    lines
}

/// `length B4 A1 A0: NME 0x10 = 16, NUD 34`.
fn length_line(header: &[u8], l: &Length) -> String {
    let nme = l.nme();
    let value = if l.digits.len() > 1 {
        format!("0x{nme:X} = {}", group_digits(nme))
    } else {
        nme.to_string()
    };
    format!(
        "length {}: NME {value}, NUD {}",
        hex_short(&header[1..]),
        group_digits(nud(nme))
    )
}

/// `E0 needs 3 bytes, has 2`; `FF B4 needs at least 4 130 bytes, has 2`.
fn truncated(seq: &[u8]) -> String {
    let (len, exact) = min_code_len(seq);
    let what = match form(seq) {
        Form::Ff13 => "FF 80–9F".to_string(),
        Form::Length(l) => hex_short(&seq[..l.header_len()]),
        _ => format!("{:02X}", seq[0]),
    };
    let at_least = if exact || len == OVER_U64 {
        ""
    } else {
        "at least "
    };
    format!(
        "{what} needs {at_least}{} bytes, has {}",
        byte_count(len),
        seq.len()
    )
}

/// Why the byte `next` ends the code `seq` with `kind` (overlong, surrogate,
/// invalid-length); `None` if these bytes are not a case this module knows.
fn rejected(kind: ErrorKind, seq: &[u8], next: Option<u8>) -> Option<Vec<String>> {
    if kind == ErrorKind::Overlong && matches!(seq, [0xC0 | 0xC1]) {
        return Some(vec!["C0, C1 only begin overlongs".into()]);
    }
    let next = next?;
    let lines = match (kind, form(seq)) {
        (ErrorKind::Overlong, Form::Lead { len }) => {
            let (first, _) = fixed_range(len);
            vec![format!(
                "{:02X} {next:02X} begins an overlong (< U+{first:04X})",
                seq[0]
            )]
        }
        (ErrorKind::Surrogate, Form::Lead { .. }) => {
            vec![format!("{:02X} {next:02X} begins a surrogate", seq[0])]
        }
        (ErrorKind::Overlong, Form::Ff13) => vec![
            format!("{} {next:02X} begins an overlong", hex::format(seq)),
            "(< U+1000000000: fits the FE form)".into(),
        ],
        (ErrorKind::InvalidLength, Form::Ff) => {
            vec![format!("{next:02X} after FF: not 80–9F, A0–AF or B4")]
        }
        (ErrorKind::Overlong, Form::Length(l)) if l.digits.is_empty() => vec![
            format!("{} followed by {next:02X}:", hex_short(seq)),
            "a leading 0 digit: the length needs fewer B4s".into(),
        ],
        (ErrorKind::InvalidLength, Form::Length(l)) if l.digits.is_empty() => {
            vec![format!("{next:02X} after B4: not B4 or a digit A0–AF")]
        }
        (ErrorKind::InvalidLength, Form::Length(l)) if !l.complete() => {
            vec![format!("{next:02X}: not a length digit A0–AF")]
        }
        (ErrorKind::Overlong, Form::Length(l)) => {
            let nud = nud(l.nme());
            let why = if nud == 18 {
                "18 digits below 2^71 fit the 13-byte form".to_string()
            } else {
                format!(
                    "a leading 0: the value has fewer than {} digits",
                    group_digits(nud)
                )
            };
            vec![format!("{} followed by {next:02X}:", hex_short(seq)), why]
        }
        (ErrorKind::InvalidLength, Form::Length(l)) => {
            let nud = nud(l.nme());
            let pad = padding(nud);
            vec![
                format!("{} followed by {next:02X}:", hex_short(seq)),
                format!(
                    "padding not 0: {} digits + {pad} zeros make {}",
                    group_digits(nud),
                    group_digits(nud + pad as u64)
                ),
            ]
        }
        _ => return None,
    };
    Some(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use corrected_utf8::DecodeError;

    /// `error: overlong (bytes 0-1)` and why, for an error span on its own.
    fn explain_error(bytes: &[u8], e: &DecodeError) -> Vec<String> {
        let offset = e.offset as usize;
        let limit = utf_inf8::DEFAULT_MAX_CODE_LEN;
        describe(limit, bytes, offset, e.length as usize, Event::Error(*e)).lines
    }

    fn hex(text: &str) -> Vec<u8> {
        crate::hex::parse(text).unwrap()
    }

    /// The lines of the first segment of `bytes`.
    fn first(bytes: &str) -> Vec<String> {
        explain(&hex(bytes), utf_inf8::DEFAULT_MAX_CODE_LEN)
            .remove(0)
            .lines
    }

    #[test]
    fn forms_are_read_as_the_decoder_reads_them() {
        assert_eq!(form(&hex("41")), Form::Ascii);
        assert_eq!(form(&hex("E0 80")), Form::Lead { len: 3 });
        assert_eq!(form(&hex("FE")), Form::Lead { len: 7 });
        assert_eq!(form(&hex("FF")), Form::Ff);
        assert_eq!(form(&hex("FF B0")), Form::Ff);
        assert_eq!(form(&hex("FF 9F")), Form::Ff13);
        let l = Length {
            b4: 1,
            digits: vec![1, 0],
        };
        assert_eq!(l.nme(), 16);
        assert!(l.complete());
        assert_eq!(form(&hex("FF B4 A1 A0 80 81")), Form::Length(l));
        // A digit after the length is storage, not length.
        let Form::Length(l) = form(&hex("FF A0 A0")) else {
            panic!()
        };
        assert_eq!(
            (l.b4, l.digits.as_slice(), l.header_len()),
            (0, &[0][..], 2)
        );
    }

    #[test]
    fn minimum_lengths_match_the_semantics() {
        // §4.3: after 5 B4s the length has at least 6 digits.
        let (len, exact) = min_code_len(&hex("FF B4 B4 B4 B4 B4"));
        assert!(!exact);
        assert_eq!(len, code_len(1 + 5 + 6, 16u64.pow(5)));
        assert!(len > u64::from(utf_inf8::DEFAULT_MAX_CODE_LEN));
        assert_eq!(min_code_len(&hex("FF A0")), (14, true));
        assert_eq!(min_code_len(&hex("FF")), (13, false));
        assert_eq!(min_code_len(&hex("FE 82")), (7, true));
        assert_eq!(min_code_len(&hex("FF B4 A2 A1")), (38, true));
        // Every well-formed code's length is its form's.
        for cp in ["U+41", "U+7FFFFFFF", "U+80000000", "U+1000000000"] {
            let cp: BigCodePoint = cp.parse().unwrap();
            let bytes = utf_inf8::encode([&cp]).unwrap();
            assert_eq!(min_code_len(&bytes), (bytes.len() as u64, true), "{cp}");
        }
        for digits in [18, 19, 20, 33, 34, 51, 300, 5000] {
            let cp = BigCodePoint::from_digits(&vec![7; digits]).unwrap();
            let bytes = utf_inf8::encode([&cp]).unwrap();
            assert_eq!(min_code_len(&bytes), (bytes.len() as u64, true), "{digits}");
            let cut = &bytes[..bytes.len() - 1];
            assert_eq!(min_code_len(cut), (bytes.len() as u64, true), "{digits}");
        }
    }

    #[test]
    fn code_points_show_their_form() {
        assert_eq!(first("41"), ["U+0041  1-byte row U+0000..U+007F"]);
        assert_eq!(
            first("F4 90 80 80"),
            [
                "U+110000  4-byte row U+10000..U+1FFFFF",
                "bits 100 010000 000000 000000"
            ]
        );
        assert_eq!(
            first("FE 82 80 80 80 80 80"),
            [
                "U+80000000  FE 7-byte form",
                "range U+80000000..U+FFFFFFFFF",
                "bits 000010 000000 000000 000000 000000 000000"
            ]
        );
        assert_eq!(
            first("FF 80 80 80 80 80 81 80 80 80 80 80 80"),
            [
                "U+1000000000  FF 13-byte form",
                "range U+1000000000..U+7FFFFFFFFFFFFFFFFF",
                "bits 00000 000000 000000 000000 000000 000001",
                "     000000 000000 000000 000000 000000 000000"
            ]
        );
        assert_eq!(
            first("FF A0 A0 80 80 80 80 80 80 80 80 80 80 80"),
            [
                "U+800000000000000000",
                "FF + length storage, 14 bytes",
                "length A0: NME 0, NUD 18",
                "12 storage bytes: 18 digits",
                "800 000 000 000 000 000"
            ]
        );
        assert_eq!(
            first("FF A1 80 81 80 80 80 80 80 80 80 80 80 80 80 80"),
            [
                "U+1000000000000000000",
                "FF + length storage, 16 bytes",
                "length A1: NME 1, NUD 19",
                "14 storage bytes: 19 digits, 2 padding digits",
                "(00)1 000 000 000 000 000 000"
            ]
        );
    }

    #[test]
    fn long_storage_is_cut_short() {
        // The draft's last example: 102 digits, 72 bytes.
        let cp = BigCodePoint::from_digits(&[10; 102]).unwrap();
        let bytes = utf_inf8::encode([&cp]).unwrap();
        let lines = explain(&bytes, 100).remove(0).lines;
        assert_eq!(lines[2], "length B4 A5 A4: NME 0x54 = 84, NUD 102");
        assert_eq!(lines.len(), 4 + DIGIT_LINES);
        assert_eq!(lines.last().unwrap(), "… 30 more digits");
    }

    #[test]
    fn errors_say_why() {
        let why = |text: &str| {
            let bytes = hex(text);
            let e = *utf_inf8::events(&bytes).next().unwrap().error().unwrap();
            explain_error(&bytes, &e)
        };
        assert_eq!(
            why("FF B4 A0"),
            [
                "error: overlong (bytes 0-1)",
                "FF B4 followed by A0:",
                "a leading 0 digit: the length needs fewer B4s"
            ]
        );
        assert_eq!(
            why("FF A0 9F"),
            [
                "error: overlong (bytes 0-1)",
                "FF A0 followed by 9F:",
                "18 digits below 2^71 fit the 13-byte form"
            ]
        );
        assert_eq!(
            why("FF A2 80 80"),
            [
                "error: overlong (bytes 0-2)",
                "FF A2 80 followed by 80:",
                "a leading 0: the value has fewer than 20 digits"
            ]
        );
        assert_eq!(
            why("FF A1 81"),
            [
                "error: invalid-length (bytes 0-1)",
                "FF A1 followed by 81:",
                "padding not 0: 19 digits + 2 zeros make 21"
            ]
        );
        assert_eq!(
            why("FF B0"),
            [
                "error: invalid-length (byte 0)",
                "B0 after FF: not 80–9F, A0–AF or B4"
            ]
        );
        assert_eq!(
            why("FF B4 80"),
            [
                "error: invalid-length (bytes 0-1)",
                "80 after B4: not B4 or a digit A0–AF"
            ]
        );
        assert_eq!(
            why("FF B4 B4 A1 80"),
            [
                "error: invalid-length (bytes 0-3)",
                "80: not a length digit A0–AF"
            ]
        );
        assert_eq!(
            why("FE 81"),
            [
                "error: overlong (byte 0)",
                "FE 81 begins an overlong (< U+80000000)"
            ]
        );
        assert_eq!(
            why("FF 80 80 80 80 80 80"),
            [
                "error: overlong (bytes 0-5)",
                "FF 80 80 80 80 80 80 begins an overlong",
                "(< U+1000000000: fits the FE form)"
            ]
        );
        assert_eq!(
            why("ED A0"),
            ["error: surrogate (byte 0)", "ED A0 begins a surrogate"]
        );
        assert_eq!(
            why("C1"),
            ["error: overlong (byte 0)", "C0, C1 only begin overlongs"]
        );
        assert_eq!(
            why("FF A0 A0 80 41"),
            [
                "error: truncated (bytes 0-3)",
                "FF A0 needs 14 bytes, has 4"
            ]
        );
        assert_eq!(
            why("FF"),
            [
                "error: truncated (byte 0)",
                "FF needs at least 13 bytes, has 1"
            ]
        );
        assert_eq!(
            why("FF B4 B4 B4 B4 B4"),
            [
                "error: limit-exceeded (bytes 0-5)",
                "needs at least 699 076 bytes; limit 65 536"
            ]
        );
        // A length of 16 digits still has a number; from 17 on (NME over 2^64 − 1)
        // "more than 10^19", not a saturated number; cut inside the length or whole.
        let long = |digits: usize, more: &str| {
            format!(
                "FF{} A1{}{more}",
                " B4".repeat(digits - 1),
                " A0".repeat(digits - 1)
            )
        };
        assert_eq!(
            why(&long(16, ""))[1],
            "needs 768 614 336 404 564 696 bytes; limit 65 536"
        );
        for cut in ["", " 80"] {
            assert_eq!(
                why(&long(17, cut))[1],
                "needs more than 10^19 bytes; limit 65 536",
                "{cut}"
            );
        }
        let mut cut = long(17, "");
        cut.truncate(cut.len() - 3);
        assert_eq!(why(&cut)[1], "needs more than 10^19 bytes; limit 65 536");
        assert_eq!(
            why("FF B4 B4 B4 B4 B4 B4 B4 B4 B4 B4 B4 B4 B4 B4 B4 B4")[1],
            "needs more than 10^19 bytes; limit 65 536"
        );
    }
}
