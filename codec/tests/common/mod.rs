//! Tiny constructors and the stream-vs-one-shot harness shared by the tests.
#![allow(dead_code, unused_imports)]

pub mod fast;

use corrected_utf8::{
    corrected, utf8, BigCodePoint, DecodeError, Encoding, ErrorKind, Event, Located, ReservedSpan,
};

pub use ErrorKind::*;

pub fn cp(value: u32) -> Event {
    Event::CodePoint(value)
}

pub fn err(kind: ErrorKind, offset: u64, length: u64) -> Event {
    Event::Error(DecodeError {
        kind,
        offset,
        length,
    })
}

pub fn res(offset: u64, length: u64) -> Event {
    Event::Reserved(ReservedSpan { offset, length })
}

/// Hex with optional spaces, e.g. "C0 AF".
pub fn hex(text: &str) -> Vec<u8> {
    let digits: String = text.split_whitespace().collect();
    assert!(digits.len().is_multiple_of(2), "odd hex: {text}");
    (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).expect("hex"))
        .collect()
}

pub fn one_shot(encoding: Encoding, bytes: &[u8]) -> Vec<Located> {
    match encoding {
        Encoding::CorrectedUtf8 => corrected::events(bytes).located().collect(),
        Encoding::Utf8 => utf8::events(bytes).located().collect(),
        Encoding::UtfInf8 => unreachable!("not decoded by these tests"),
    }
}

pub fn streamed(encoding: Encoding, chunks: &[&[u8]]) -> Vec<Located> {
    // The handle's decoder, back to the `u32` code points of the one-shot events.
    let small = |l: Located<BigCodePoint>| l.map(|cp| cp.to_u32().expect("a 32-bit encoding"));
    let mut decoder = encoding.new_decoder();
    let mut out = Vec::new();
    for chunk in chunks {
        decoder.push(chunk, |e| out.push(small(e)));
        assert!(decoder.pending_len() <= corrected_utf8::MAX_PENDING);
    }
    decoder.finish(|e| out.push(small(e)));
    out
}

/// Checks `bytes` under `encoding` the encoding_rs way: with 0..=31 ASCII bytes in front,
/// split at every point (and in single bytes), the stream gives the one-shot events,
/// shifted by the prefix; the events cover the input exactly.
pub fn check_all_splits(encoding: Encoding, bytes: &[u8]) {
    for prefix_len in 0..32usize {
        let mut input = b"abcdefghijklmnopqrstuvwxyz012345"[..prefix_len].to_vec();
        input.extend_from_slice(bytes);
        let expected = one_shot(encoding, &input);
        check_coverage(&expected, input.len());
        // The prefix decodes to itself and does not change what follows.
        let unprefixed = one_shot(encoding, bytes);
        let shifted: Vec<Located> = expected[prefix_len..]
            .iter()
            .map(|l| shift(l, prefix_len as u64))
            .collect();
        assert_eq!(
            shifted, unprefixed,
            "prefix {prefix_len} changed {bytes:02X?}"
        );
        for split in 0..=input.len() {
            let (a, b) = input.split_at(split);
            assert_eq!(
                streamed(encoding, &[a, &[], b]),
                expected,
                "{encoding} split at {split} of {input:02X?}"
            );
        }
        let singles: Vec<&[u8]> = input.chunks(1).collect();
        assert_eq!(
            streamed(encoding, &singles),
            expected,
            "{encoding} byte by byte {input:02X?}"
        );
    }
}

fn shift(l: &Located, by: u64) -> Located {
    let event = match l.event {
        Event::Error(e) => Event::Error(DecodeError {
            offset: e.offset - by,
            ..e
        }),
        Event::Reserved(r) => Event::Reserved(ReservedSpan {
            offset: r.offset - by,
            ..r
        }),
        other => other,
    };
    Located {
        offset: l.offset - by,
        length: l.length,
        event,
    }
}

/// Events cover `0..len` exactly, in order, each at least one byte, and an error's or a
/// reserved span's span is its event's span.
pub fn check_coverage(events: &[Located], len: usize) {
    let mut next = 0;
    for l in events {
        assert_eq!(l.offset, next, "gap or overlap in {events:?}");
        assert!(l.length >= 1);
        match l.event {
            Event::Error(e) => assert_eq!((e.offset, e.length), (l.offset, l.length)),
            Event::Reserved(r) => assert_eq!((r.offset, r.length), (l.offset, l.length)),
            Event::CodePoint(_) => {}
        }
        next += l.length;
    }
    assert_eq!(next, len as u64);
}

/// `input` (hex) decodes to exactly `expected` under `encoding`, and streams to the same
/// events at every split point with any ASCII prefix.
#[track_caller]
pub fn events_are(encoding: Encoding, input: &str, expected: &[Event]) {
    let bytes = hex(input);
    let events: Vec<Event> = one_shot(encoding, &bytes)
        .into_iter()
        .map(|l| l.event)
        .collect();
    assert_eq!(events, expected, "{encoding} {input}");
    check_all_splits(encoding, &bytes);
}
