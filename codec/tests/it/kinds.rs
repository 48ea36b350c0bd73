//! Every error kind of SPEC §2.3, §2.4 and §3, for decoding and encoding.

use crate::common::*;
use corrected_utf8::{corrected, utf8, Encoding, ErrorKind};

#[test]
fn corrected_unexpected_continuation() {
    events_are(
        Encoding::CorrectedUtf8,
        "80",
        &[err(UnexpectedContinuation, 0, 1)],
    );
    events_are(
        Encoding::CorrectedUtf8,
        "BF BF",
        &[
            err(UnexpectedContinuation, 0, 1),
            err(UnexpectedContinuation, 1, 1),
        ],
    );
    events_are(
        Encoding::CorrectedUtf8,
        "C0 80 80",
        &[cp(0xA0), err(UnexpectedContinuation, 2, 1)],
    );
}

#[test]
fn corrected_truncated() {
    events_are(Encoding::CorrectedUtf8, "C0", &[err(Truncated, 0, 1)]);
    events_are(
        Encoding::CorrectedUtf8,
        "C0 41",
        &[err(Truncated, 0, 1), cp(0x41)],
    );
    events_are(Encoding::CorrectedUtf8, "E0 80", &[err(Truncated, 0, 2)]);
    events_are(
        Encoding::CorrectedUtf8,
        "F0 80 80 C0 80",
        &[err(Truncated, 0, 3), cp(0xA0)],
    );
    events_are(
        Encoding::CorrectedUtf8,
        "FD BF BF BF BF",
        &[err(Truncated, 0, 5)],
    );
    events_are(
        Encoding::CorrectedUtf8,
        "FD BF BF BF BF 00",
        &[err(Truncated, 0, 5), cp(0)],
    );
    // The byte that ends a truncated sequence may itself begin a reserved span.
    events_are(
        Encoding::CorrectedUtf8,
        "F8 80 FE 80",
        &[err(Truncated, 0, 2), res(2, 2)],
    );
}

#[test]
fn corrected_reserved() {
    events_are(Encoding::CorrectedUtf8, "FE", &[res(0, 1)]);
    events_are(Encoding::CorrectedUtf8, "FF", &[res(0, 1)]);
    events_are(Encoding::CorrectedUtf8, "FE FF", &[res(0, 2)]);
    events_are(
        Encoding::CorrectedUtf8,
        "FF 80 BF 41",
        &[res(0, 3), cp(0x41)],
    );
    events_are(
        Encoding::CorrectedUtf8,
        "FF 80 C0 80",
        &[res(0, 2), cp(0xA0)],
    );
    events_are(
        Encoding::CorrectedUtf8,
        "FE FD BF BF BF BF BF",
        &[res(0, 1), cp(0x8421_109F)],
    );
    events_are(Encoding::CorrectedUtf8, "41 FE", &[cp(0x41), res(1, 1)]);
    let long: Vec<u8> = [0xFE]
        .into_iter()
        .chain([0x80u8, 0xFF].into_iter().cycle().take(4096))
        .collect();
    assert_eq!(corrected::events(&long).collect::<Vec<_>>(), [res(0, 4097)]);
}

#[test]
fn corrected_encode_errors() {
    for (codepoint, kind) in [
        (0x80, ErrorKind::C1Control),
        (0x9F, ErrorKind::C1Control),
        (0xD800, ErrorKind::Surrogate),
        (0xDFFF, ErrorKind::Surrogate),
        (0x8421_10A0, ErrorKind::OutOfRange),
        (u32::MAX, ErrorKind::OutOfRange),
    ] {
        let e = corrected::encode([codepoint]).unwrap_err();
        assert_eq!((e.kind, e.codepoint), (kind, codepoint));
    }
    for ok in [0x7F, 0xA0, 0xD7FF, 0xE000, 0x8421_109F] {
        assert!(corrected::encode([ok]).is_ok(), "U+{ok:04X}");
    }
}

#[test]
fn utf8_every_kind() {
    events_are(Encoding::Utf8, "80", &[err(UnexpectedContinuation, 0, 1)]);
    events_are(
        Encoding::Utf8,
        "C0 AF",
        &[err(Overlong, 0, 1), err(UnexpectedContinuation, 1, 1)],
    );
    events_are(Encoding::Utf8, "C1", &[err(Overlong, 0, 1)]);
    events_are(
        Encoding::Utf8,
        "E0 9F BF",
        &[
            err(Overlong, 0, 1),
            err(UnexpectedContinuation, 1, 1),
            err(UnexpectedContinuation, 2, 1),
        ],
    );
    events_are(
        Encoding::Utf8,
        "F0 8F BF BF",
        &[
            err(Overlong, 0, 1),
            err(UnexpectedContinuation, 1, 1),
            err(UnexpectedContinuation, 2, 1),
            err(UnexpectedContinuation, 3, 1),
        ],
    );
    events_are(
        Encoding::Utf8,
        "ED A0 80",
        &[
            err(Surrogate, 0, 1),
            err(UnexpectedContinuation, 1, 1),
            err(UnexpectedContinuation, 2, 1),
        ],
    );
    events_are(
        Encoding::Utf8,
        "F4 90 80 80",
        &[
            err(OutOfRange, 0, 1),
            err(UnexpectedContinuation, 1, 1),
            err(UnexpectedContinuation, 2, 1),
            err(UnexpectedContinuation, 3, 1),
        ],
    );
    events_are(Encoding::Utf8, "F5", &[err(OutOfRange, 0, 1)]);
    events_are(
        Encoding::Utf8,
        "FD 80",
        &[err(OutOfRange, 0, 1), err(UnexpectedContinuation, 1, 1)],
    );
    events_are(Encoding::Utf8, "FE", &[err(InvalidByte, 0, 1)]);
    events_are(Encoding::Utf8, "FF 41", &[err(InvalidByte, 0, 1), cp(0x41)]);
    events_are(Encoding::Utf8, "C2", &[err(Truncated, 0, 1)]);
    events_are(Encoding::Utf8, "E0 A0", &[err(Truncated, 0, 2)]);
    events_are(Encoding::Utf8, "E0 41", &[err(Truncated, 0, 1), cp(0x41)]);
    events_are(
        Encoding::Utf8,
        "F0 90 80 41",
        &[err(Truncated, 0, 3), cp(0x41)],
    );
    events_are(Encoding::Utf8, "F4 8F BF", &[err(Truncated, 0, 3)]);
    events_are(
        Encoding::Utf8,
        "ED 9F C0",
        &[err(Truncated, 0, 2), err(Overlong, 2, 1)],
    );
}

#[test]
fn utf8_encode_errors() {
    for (codepoint, kind) in [
        (0xD800, ErrorKind::Surrogate),
        (0xDFFF, ErrorKind::Surrogate),
        (0x11_0000, ErrorKind::OutOfRange),
        (u32::MAX, ErrorKind::OutOfRange),
    ] {
        let e = utf8::encode([codepoint]).unwrap_err();
        assert_eq!((e.kind, e.codepoint), (kind, codepoint));
    }
}

#[test]
fn kind_names_round_trip() {
    for kind in ErrorKind::ALL {
        assert_eq!(ErrorKind::from_name(kind.as_str()), Some(kind));
    }
    // A reserved span is no error: no kind is named for it.
    assert_eq!(ErrorKind::from_name("reserved"), None);
    let names: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "unexpected-continuation",
            "truncated",
            "overlong",
            "surrogate",
            "out-of-range",
            "invalid-byte",
            "invalid-length",
            "limit-exceeded",
            "c1-control"
        ]
    );
}
