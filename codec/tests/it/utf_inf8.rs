//! UTF-∞-8: the draft's examples both ways, class boundaries, every error kind, the
//! length limit, and streaming at every split point.

use crate::common::hex;
use corrected_utf8::utf_inf8::{self, StreamDecoder};
use corrected_utf8::{BigCodePoint, DecodeError, ErrorKind, ErrorKind::*, Event, Located};

/// UTF-∞-8 draft §4, all 17 examples (the last one written out: 102 A digits, 72 bytes).
#[rustfmt::skip]
const DRAFT_EXAMPLES: [(&str, &str); 17] = [
    ("U+0041", "41"),
    ("U+10FFFF", "F4 8F BF BF"),
    ("U+110000", "F4 90 80 80"),
    ("U+7FFFFFFF", "FD BF BF BF BF BF"),
    ("U+80000000", "FE 82 80 80 80 80 80"),
    ("U+FFFFFFFFF", "FE BF BF BF BF BF BF"),
    ("U+1000000000", "FF 80 80 80 80 80 81 80 80 80 80 80 80"),
    ("U+7FFFFFFFFFFFFFFF", "FF 80 87 BF BF BF BF BF BF BF BF BF BF"),
    ("U+8000000000000000", "FF 80 88 80 80 80 80 80 80 80 80 80 80"),
    ("U+7FFFFFFFFFFFFFFFFF", "FF 9F BF BF BF BF BF BF BF BF BF BF BF"),
    ("U+800000000000000000", "FF A0 A0 80 80 80 80 80 80 80 80 80 80 80"),
    ("U+FFFFFFFFFFFFFFFFFF", "FF A0 BF BF BF BF BF BF BF BF BF BF BF BF"),
    ("U+1000000000000000000", "FF A1 80 81 80 80 80 80 80 80 80 80 80 80 80 80"),
    ("U+FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "FF AF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF"),
    ("U+1000000000000000000000000000000000", "FF B4 A1 A0 80 81 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80"),
    ("U+AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "FF B4 A2 A1 AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA"),
    ("U+AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "FF B4 A5 A4 AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA"),
];

type E = Event<BigCodePoint>;

fn cp(text: &str) -> E {
    Event::CodePoint(text.parse().unwrap())
}

fn err(kind: ErrorKind, offset: u64, length: u64) -> E {
    Event::Error(DecodeError {
        kind,
        offset,
        length,
    })
}

fn big(text: &str) -> BigCodePoint {
    text.parse().unwrap()
}

fn one_shot(bytes: &[u8]) -> Vec<Located<BigCodePoint>> {
    let mut events = utf_inf8::events(bytes);
    std::iter::from_fn(|| events.next_located()).collect()
}

fn streamed(chunks: &[&[u8]]) -> Vec<Located<BigCodePoint>> {
    let mut decoder = StreamDecoder::new();
    let mut out = Vec::new();
    for chunk in chunks {
        decoder.push(chunk, |e| out.push(e));
    }
    decoder.finish(|e| out.push(e));
    out
}

/// `bytes` decodes to `expected`, the events cover the input, and every split point
/// (and byte-by-byte) streams to the same events.
#[track_caller]
fn events_are(input: &str, expected: &[E]) {
    let bytes = hex(input);
    let located = one_shot(&bytes);
    let events: Vec<E> = located.iter().map(|l| l.event.clone()).collect();
    assert_eq!(events, expected, "{input}");
    let mut next = 0;
    for l in &located {
        assert_eq!(l.offset, next);
        next += l.length;
    }
    assert_eq!(next, bytes.len() as u64);
    for split in 0..=bytes.len() {
        let (a, b) = bytes.split_at(split);
        assert_eq!(streamed(&[a, b]), located, "{input} split at {split}");
    }
    let singles: Vec<&[u8]> = bytes.chunks(1).collect();
    assert_eq!(streamed(&singles), located, "{input} byte by byte");
}

#[track_caller]
fn pair(codepoint: &str, bytes: &str) {
    assert_eq!(
        utf_inf8::encode([&big(codepoint)]),
        Ok(hex(bytes)),
        "encode {codepoint}"
    );
    events_are(bytes, &[cp(codepoint)]);
}

#[test]
fn every_draft_example_both_ways() {
    for (codepoint, bytes) in DRAFT_EXAMPLES {
        pair(codepoint, bytes);
    }
}

#[test]
fn first_and_last_code_of_every_length_class() {
    let classes: &[(&str, &str, usize)] = &[
        ("U+0000", "U+007F", 1),
        ("U+0080", "U+07FF", 2),
        ("U+0800", "U+FFFF", 3),
        ("U+10000", "U+1FFFFF", 4),
        ("U+200000", "U+3FFFFFF", 5),
        ("U+4000000", "U+7FFFFFFF", 6),
        ("U+80000000", "U+FFFFFFFFF", 7),
        ("U+1000000000", "U+7FFFFFFFFFFFFFFFFF", 13),
        ("U+800000000000000000", "U+FFFFFFFFFFFFFFFFFF", 14),
        ("U+1000000000000000000", "U+FFFFFFFFFFFFFFFFFFFFF", 16),
        ("U+1000000000000000000000", "U+FFFFFFFFFFFFFFFFFFFFFFFF", 18),
        (
            &*format!("U+1{}", "0".repeat(32)),
            &*format!("U+{}", "F".repeat(33)),
            24,
        ),
        (
            &*format!("U+1{}", "0".repeat(33)),
            &*format!("U+{}", "F".repeat(36)),
            28,
        ),
    ];
    for &(first, last, len) in classes {
        for codepoint in [first, last] {
            let bytes = utf_inf8::encode([&big(codepoint)]).unwrap();
            assert_eq!(bytes.len(), len, "{codepoint}");
            assert_eq!(
                utf_inf8::decode(&bytes),
                Ok(vec![big(codepoint)]),
                "{codepoint}"
            );
        }
    }
}

#[test]
fn codes_of_hundreds_of_digits_round_trip_in_byte_order() {
    let mut values: Vec<BigCodePoint> = Vec::new();
    for digits in [
        17, 18, 19, 20, 21, 33, 34, 35, 50, 51, 52, 100, 255, 256, 300, 301, 302, 1000, 4113, 4114,
    ] {
        for lead in ["1", "7", "F"] {
            values.push(big(&format!("{lead}{}", "5".repeat(digits - 1))));
        }
    }
    values.sort();
    let encoded: Vec<Vec<u8>> = values
        .iter()
        .map(|v| utf_inf8::encode([v]).unwrap())
        .collect();
    for (v, bytes) in values.iter().zip(&encoded) {
        assert_eq!(
            utf_inf8::decode(bytes).as_ref(),
            Ok(&vec![v.clone()]),
            "{v}"
        );
    }
    for w in encoded.windows(2) {
        assert!(w[0] < w[1], "byte order differs from code point order");
    }
}

#[test]
fn overlong_at_every_class_boundary() {
    // Fixed forms: the lead alone, once the second byte shows the value is too small.
    events_are(
        "C1 BF",
        &[err(Overlong, 0, 1), err(UnexpectedContinuation, 1, 1)],
    );
    events_are(
        "E0 9F BF",
        &[
            err(Overlong, 0, 1),
            err(UnexpectedContinuation, 1, 1),
            err(UnexpectedContinuation, 2, 1),
        ],
    );
    events_are(
        "F0 8F",
        &[err(Overlong, 0, 1), err(UnexpectedContinuation, 1, 1)],
    );
    events_are(
        "F8 87",
        &[err(Overlong, 0, 1), err(UnexpectedContinuation, 1, 1)],
    );
    events_are(
        "FC 83",
        &[err(Overlong, 0, 1), err(UnexpectedContinuation, 1, 1)],
    );
    events_are(
        "FE 81",
        &[err(Overlong, 0, 1), err(UnexpectedContinuation, 1, 1)],
    );
    // The 13-byte form holds 71 bits; below 2^36 shows only at its 7th byte.
    events_are(
        "FF 80 80 80 80 80 80",
        &[err(Overlong, 0, 6), err(UnexpectedContinuation, 6, 1)],
    );
    events_are("FF 80 80 80 80 80 81", &[err(Truncated, 0, 7)]);
    // Storage whose leading digit is zero (17 digits in an 18-digit class).
    events_are(
        "FF A0 83",
        &[err(Overlong, 0, 2), err(UnexpectedContinuation, 2, 1)],
    );
    events_are(
        "FF A0 84",
        &[err(Overlong, 0, 2), err(UnexpectedContinuation, 2, 1)],
    );
    // 18 digits below 8 × 16^17 = 2^71 fit the 13-byte form: the first digit must be ≥ 8.
    events_are(
        "FF A0 9F",
        &[err(Overlong, 0, 2), err(UnexpectedContinuation, 2, 1)],
    );
    events_are("FF A0 A0", &[err(Truncated, 0, 3)]);
    // With 19 digits any nonzero first digit is shortest.
    events_are("FF A1 80 81", &[err(Truncated, 0, 4)]);
    // NUD 19 (2 padding digits): the third digit must not be 0.
    events_are(
        "FF A1 80 80",
        &[err(Overlong, 0, 3), err(UnexpectedContinuation, 3, 1)],
    );
    // NUD 20 (1 padding digit): the second digit must not be 0.
    events_are(
        "FF A2 80 8F",
        &[err(Overlong, 0, 3), err(UnexpectedContinuation, 3, 1)],
    );
    // A length with a leading zero digit, and with more B4 than needed.
    events_are(
        "FF B4 A0 A0",
        &[
            err(Overlong, 0, 2),
            err(UnexpectedContinuation, 2, 1),
            err(UnexpectedContinuation, 3, 1),
        ],
    );
    events_are(
        "FF B4 B4 A0 A1 A0",
        &[
            err(Overlong, 0, 3),
            err(UnexpectedContinuation, 3, 1),
            err(UnexpectedContinuation, 4, 1),
            err(UnexpectedContinuation, 5, 1),
        ],
    );
}

#[test]
fn invalid_length() {
    events_are(
        "FF B0",
        &[err(InvalidLength, 0, 1), err(UnexpectedContinuation, 1, 1)],
    );
    events_are(
        "FF BF",
        &[err(InvalidLength, 0, 1), err(UnexpectedContinuation, 1, 1)],
    );
    events_are(
        "FF B4 80",
        &[err(InvalidLength, 0, 2), err(UnexpectedContinuation, 2, 1)],
    );
    events_are(
        "FF B4 A1 B4",
        &[err(InvalidLength, 0, 3), err(UnexpectedContinuation, 3, 1)],
    );
    // Stored digits that do not fit the stored length: nonzero padding.
    events_are(
        "FF A1 81",
        &[err(InvalidLength, 0, 2), err(UnexpectedContinuation, 2, 1)],
    );
    events_are(
        "FF A1 80 90",
        &[err(InvalidLength, 0, 3), err(UnexpectedContinuation, 3, 1)],
    );
    events_are(
        "FF A2 90",
        &[err(InvalidLength, 0, 2), err(UnexpectedContinuation, 2, 1)],
    );
}

#[test]
fn surrogates() {
    events_are(
        "ED A0 80",
        &[
            err(Surrogate, 0, 1),
            err(UnexpectedContinuation, 1, 1),
            err(UnexpectedContinuation, 2, 1),
        ],
    );
    events_are(
        "ED BF BF",
        &[
            err(Surrogate, 0, 1),
            err(UnexpectedContinuation, 1, 1),
            err(UnexpectedContinuation, 2, 1),
        ],
    );
    events_are("ED 9F BF", &[cp("U+D7FF")]);
    events_are("EE 80 80", &[cp("U+E000")]);
    for s in ["U+D800", "U+DFFF"] {
        assert_eq!(utf_inf8::encode([&big(s)]).unwrap_err().kind, Surrogate);
    }
}

#[test]
fn truncated_inside_every_part() {
    events_are("C2", &[err(Truncated, 0, 1)]);
    events_are("FD BF BF BF BF", &[err(Truncated, 0, 5)]);
    events_are("FE 82 80 80 80 80", &[err(Truncated, 0, 6)]);
    events_are("FF", &[err(Truncated, 0, 1)]);
    events_are("FF 80", &[err(Truncated, 0, 2)]);
    events_are(
        "FF 9F BF BF BF BF BF BF BF BF BF BF",
        &[err(Truncated, 0, 12)],
    );
    events_are("FF B4", &[err(Truncated, 0, 2)]);
    events_are("FF B4 B4 41", &[err(Truncated, 0, 3), cp("U+0041")]);
    events_are("FF B4 A1", &[err(Truncated, 0, 3)]);
    events_are("FF A0", &[err(Truncated, 0, 2)]);
    events_are(
        "FF A0 A0 80 80 80 80 80 80 80 80 80 80",
        &[err(Truncated, 0, 13)],
    );
    events_are("FF A0 A0 FE", &[err(Truncated, 0, 3), err(Truncated, 3, 1)]);
    events_are(
        "80 FF 41",
        &[
            err(UnexpectedContinuation, 0, 1),
            err(Truncated, 1, 1),
            cp("U+0041"),
        ],
    );
}

#[test]
fn same_bytes_across_encodings() {
    // F4 90 80 80: U+110000 here, U+1210A0 in Corrected UTF-8, invalid in UTF-8.
    events_are("F4 90 80 80", &[cp("U+110000")]);
    assert_eq!(
        corrected_utf8::corrected::decode(&hex("F4 90 80 80")),
        Ok(vec![0x12_10A0])
    );
    assert!(corrected_utf8::utf8::decode(&hex("F4 90 80 80")).is_err());
}

#[test]
fn the_limit_bounds_memory_whatever_the_length_field_claims() {
    // A hostile stream: FF then B4 forever. Over the limit after 6 bytes, it is one
    // span skipped in constant memory, reported when the input ends.
    let mut decoder = StreamDecoder::new();
    let chunk = [0xB4u8; 4096];
    decoder.push(&[0xFF], |_| unreachable!());
    for _ in 0..256 {
        decoder.push(&chunk, |_| unreachable!("the span is still open"));
        assert_eq!(decoder.pending_len(), 0);
    }
    let mut got = Vec::new();
    decoder.finish(|e| got.push(e.event));
    assert_eq!(got, [err(LimitExceeded, 0, 1 + 256 * 4096)]);
    // A code exactly at the limit decodes; with the limit one byte less it is one span.
    let digits = format!("1{}", "0".repeat(98_000));
    let bytes = utf_inf8::encode([&big(&digits)]).unwrap();
    let limit = bytes.len() as u32;
    assert!(utf_inf8::events_with_limit(&bytes, limit)
        .next()
        .unwrap()
        .error()
        .is_none());
    let over: Vec<_> = utf_inf8::events_with_limit(&bytes, limit - 1).collect();
    assert_eq!(over, [err(LimitExceeded, 0, bytes.len() as u64)]);
}

/// `input` decodes under `limit` to `expected`, and every split point (and byte by
/// byte) streams to the same events.
#[track_caller]
fn limited_events_are(limit: u32, input: &[u8], expected: &[E]) {
    let located: Vec<_> = utf_inf8::events_with_limit(input, limit)
        .located()
        .collect();
    let events: Vec<E> = located.iter().map(|l| l.event.clone()).collect();
    assert_eq!(events, expected, "limit {limit}: {input:02X?}");
    let stream = |chunks: &[&[u8]]| {
        let mut decoder = StreamDecoder::with_limit(limit);
        let mut out = Vec::new();
        for chunk in chunks {
            decoder.push(chunk, |e| out.push(e));
            assert!(decoder.pending_len() <= u64::from(limit));
        }
        decoder.finish(|e| out.push(e));
        out
    };
    for split in 0..=input.len() {
        let (a, b) = input.split_at(split);
        assert_eq!(stream(&[a, b]), located, "limit {limit} split at {split}");
    }
    let singles: Vec<&[u8]> = input.chunks(1).collect();
    assert_eq!(stream(&singles), located, "limit {limit} byte by byte");
}

/// Over the default limit (64 KiB): `FF`, 5 `B4`, 6 length digits (NME 0x100000, so
/// 1 048 594 digits), the first storage pair (2 padding digits, then 4), then more
/// storage bytes, cut short by the end of the input.
const OVER: [u8; 17] = [
    0xFF, 0xB4, 0xB4, 0xB4, 0xB4, 0xB4, 0xA1, 0xA0, 0xA0, 0xA0, 0xA0, 0xA0, 0x80, 0x84, 0x80, 0x80,
    0x80,
];

#[test]
fn limit_span_runs_to_the_end_of_input() {
    let l = utf_inf8::DEFAULT_MAX_CODE_LEN;
    // Not 5 bytes and 12 unexpected continuations: one span of 17.
    limited_events_are(l, &OVER, &[err(LimitExceeded, 0, 17)]);
    let mut then_a = OVER.to_vec();
    then_a.push(b'A');
    limited_events_are(l, &then_a, &[err(LimitExceeded, 0, 17), cp("U+41")]);
    // FF, then 5 B4 and A: the span of 6 ends before A, which decodes afresh.
    limited_events_are(
        l,
        &hex("FF B4 B4 B4 B4 B4 41"),
        &[err(LimitExceeded, 0, 6), cp("U+41")],
    );
}

#[test]
fn limit_span_runs_to_the_codes_declared_end() {
    // A 14-byte code under a limit of 13: over at `FF A0`, one span of all 14 bytes;
    // a continuation byte after it is a span of its own.
    let code = hex("FF A0 A0 80 80 80 80 80 80 80 80 80 80 80");
    limited_events_are(13, &code, &[err(LimitExceeded, 0, 14)]);
    let mut more = code.clone();
    more.extend_from_slice(&hex("80 41"));
    limited_events_are(
        13,
        &more,
        &[
            err(LimitExceeded, 0, 14),
            err(UnexpectedContinuation, 14, 1),
            cp("U+41"),
        ],
    );
    // A small limit on a 4-byte code: ONE span of 4, not 1 + 3 continuation bytes.
    limited_events_are(3, &hex("F0 90 80 80"), &[err(LimitExceeded, 0, 4)]);
    limited_events_are(
        3,
        &hex("F0 90 80 80 41"),
        &[err(LimitExceeded, 0, 4), cp("U+41")],
    );
    // The whole draft example of 72 bytes under a limit of 40.
    let (_, long) = DRAFT_EXAMPLES[16];
    limited_events_are(40, &hex(long), &[err(LimitExceeded, 0, 72)]);
}

#[test]
fn limit_span_ends_before_a_byte_that_cannot_continue_it() {
    // A non-continuation byte: decoded afresh (here the start of a 2-byte code).
    limited_events_are(
        3,
        &hex("F0 90 80 C2 80"),
        &[err(LimitExceeded, 0, 3), cp("U+80")],
    );
    // A continuation byte that no well-formed code allows there: `FF A0` (18 digits)
    // needs a first digit of at least 8, so `FF A0 80` ends the span before `80`,
    // which is then an unexpected continuation.
    limited_events_are(
        13,
        &hex("FF A0 80 41"),
        &[
            err(LimitExceeded, 0, 2),
            err(UnexpectedContinuation, 2, 1),
            cp("U+41"),
        ],
    );
    // A leading zero length digit after B4: the same.
    let mut bytes = hex("FF B4 B4 B4 B4 B4");
    bytes.extend_from_slice(&hex("A0 41"));
    limited_events_are(
        utf_inf8::DEFAULT_MAX_CODE_LEN,
        &bytes,
        &[
            err(LimitExceeded, 0, 6),
            err(UnexpectedContinuation, 6, 1),
            cp("U+41"),
        ],
    );
}

/// A length field longer than 64 bits (17 length digits, NME 16^16 = 2^64): the
/// padding of the storage follows NUD modulo 3 exactly, not the saturated NME's. NME ≡ 1
/// (mod 3), so NUD ≡ 1 and the first storage byte holds 2 padding digits and the top of
/// the next: it must be `80`, and `BF` cannot continue the code. (A saturated NME,
/// 2^64 − 1, is ≡ 0: no padding, and `BF` would pass as a first digit of 15. Found by the
/// fuzz smoke of `utf_inf8_differential_literal`: the spec-literal decoder, in 128 bits,
/// ended the span there; the reference ran on.)
#[test]
fn a_length_over_64_bits_keeps_its_padding() {
    let mut bytes = vec![0xFF];
    bytes.extend([0xB4; 16]);
    bytes.push(0xA1);
    bytes.extend([0xA0; 16]);
    let header = bytes.len() as u64;
    bytes.extend([0xBF, 0x41]);
    limited_events_are(
        utf_inf8::DEFAULT_MAX_CODE_LEN,
        &bytes,
        &[
            err(LimitExceeded, 0, header),
            err(UnexpectedContinuation, header, 1),
            cp("U+41"),
        ],
    );
    // With `80` (the padding right) the code goes on over the storage bytes.
    let last = bytes.len() - 2;
    bytes[last] = 0x80;
    limited_events_are(
        utf_inf8::DEFAULT_MAX_CODE_LEN,
        &bytes,
        &[err(LimitExceeded, 0, header + 1), cp("U+41")],
    );
}

#[test]
fn a_well_formedness_error_at_the_limit_byte_wins() {
    // Under a limit of 1, `C0` would be over it at its first byte, but it is also
    // overlong there: the error wins.
    limited_events_are(
        1,
        &hex("C0 80"),
        &[err(Overlong, 0, 1), err(UnexpectedContinuation, 1, 1)],
    );
    // Limit 13: over at `FF B4`; the leading zero digit `A0` cannot continue the code,
    // so the span ends before it.
    limited_events_are(
        13,
        &hex("FF B4 A0"),
        &[err(LimitExceeded, 0, 2), err(UnexpectedContinuation, 2, 1)],
    );
    // Under the default limit, `FF B4 A0` is overlong at `A0`: the error, not the limit.
    limited_events_are(
        utf_inf8::DEFAULT_MAX_CODE_LEN,
        &hex("FF B4 A0"),
        &[err(Overlong, 0, 2), err(UnexpectedContinuation, 2, 1)],
    );
    // Limit 1: `FF` is over it at once; `C0` ends the span and is overlong afresh.
    limited_events_are(
        1,
        &hex("FF C0 80"),
        &[
            err(LimitExceeded, 0, 1),
            err(Overlong, 1, 1),
            err(UnexpectedContinuation, 2, 1),
        ],
    );
}

#[test]
fn hostile_lengths_stay_cheap() {
    // 16 MiB of B4 after FF, one-shot: one span, quickly (each byte is O(1)).
    let mut bytes = vec![0xB4u8; 16 << 20];
    bytes[0] = 0xFF;
    let start = std::time::Instant::now();
    let events: Vec<_> = utf_inf8::events(&bytes).collect();
    assert_eq!(events, [err(LimitExceeded, 0, bytes.len() as u64)]);
    // A length that promises 2^64 digits: the counts saturate, the span still ends at
    // the end of input.
    let mut bytes = hex("FF B4 B4 B4 B4 B4 B4 B4 B4 B4 B4 B4 B4 B4 B4 B4 B4");
    bytes.extend_from_slice(&[0xAF; 17]);
    bytes.extend_from_slice(&[0xBF; 4096]);
    let events: Vec<_> = utf_inf8::events(&bytes).collect();
    assert_eq!(events, [err(LimitExceeded, 0, bytes.len() as u64)]);
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}
