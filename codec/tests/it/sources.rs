//! Every example the source texts give, both ways, one case per line.

use crate::common::*;
use corrected_utf8::{corrected, utf8, Encoding};

/// Decodes `input` as Corrected UTF-8 to exactly `[codepoint]`, and encodes it back.
#[track_caller]
fn corrected_pair(input: &str, codepoint: u32) {
    let bytes = hex(input);
    assert_eq!(
        corrected::decode(&bytes),
        Ok(vec![codepoint]),
        "decode {input}"
    );
    assert_eq!(
        corrected::encode([codepoint]),
        Ok(bytes.clone()),
        "encode U+{codepoint:04X}"
    );
    check_all_splits(Encoding::CorrectedUtf8, &bytes);
}

#[test]
fn corrected_table_first_and_last_of_every_row() {
    corrected_pair("00", 0x0000);
    corrected_pair("7F", 0x007F);
    corrected_pair("C0 80", 0x00A0);
    corrected_pair("DF BF", 0x089F);
    corrected_pair("E0 80 80", 0x08A0);
    corrected_pair("EC BD 9F", 0xD7FF);
    corrected_pair("EC BD A0", 0xE000);
    corrected_pair("EF BF BF", 0x1_109F);
    corrected_pair("F0 80 80 80", 0x1_10A0);
    corrected_pair("F7 BF BF BF", 0x21_109F);
    corrected_pair("F8 80 80 80 80", 0x21_10A0);
    corrected_pair("FB BF BF BF BF", 0x421_109F);
    corrected_pair("FC 80 80 80 80 80", 0x421_10A0);
    corrected_pair("FD BF BF BF BF BF", 0x8421_109F);
}

#[test]
fn corrected_prose_examples() {
    // "C0 AF becomes the unique encoding of U+00CF"
    corrected_pair("C0 AF", 0x00CF);
    // The old overlong encodings of '/' are now distinct characters.
    corrected_pair("2F", 0x2F);
    corrected_pair("E0 80 AF", 0x2F + 2208);
    // "FE FE 80 41 is one span of 3, then A" (SPEC §2.4)
    events_are(
        Encoding::CorrectedUtf8,
        "FE FE 80 41",
        &[res(0, 3), cp(0x41)],
    );
}

#[test]
fn magic_number() {
    let magic = hex("EF B7 9D ED B2 AE 00 0A");
    assert_eq!(magic, corrected::MAGIC);
    assert_eq!(
        corrected::decode(&magic),
        Ok(vec![0x1_0E7D, 0xED4E, 0x0000, 0x000A])
    );
    assert_eq!(
        corrected::encode([0x1_0E7D, 0xED4E, 0, 0x0A]),
        Ok(magic.clone())
    );
    // "If interpreted as traditional UTF-8, it instead encodes U+FDDD U+DCAE U+0000
    // U+000A, which is forbidden": U+FDDD is a (valid) noncharacter, ED B2 is a surrogate.
    events_are(
        Encoding::Utf8,
        "EF B7 9D ED B2 AE 00 0A",
        &[
            cp(0xFDDD),
            err(Surrogate, 3, 1),
            err(UnexpectedContinuation, 4, 1),
            err(UnexpectedContinuation, 5, 1),
            cp(0),
            cp(0x0A),
        ],
    );
}

#[test]
fn decoder_demo_examples() {
    events_are(Encoding::Utf8, "41", &[cp(0x41)]);
    events_are(Encoding::Utf8, "ED 9F 80", &[cp(0xD7C0)]);
    events_are(Encoding::Utf8, "F4 80 80 8F", &[cp(0x10_000F)]);
    events_are(Encoding::Utf8, "F2 80 9F A2", &[cp(0x8_07E2)]);
    events_are(
        Encoding::Utf8,
        "ED BF 80",
        &[
            err(Surrogate, 0, 1),
            err(UnexpectedContinuation, 1, 1),
            err(UnexpectedContinuation, 2, 1),
        ],
    );
    events_are(
        Encoding::Utf8,
        "C1 81",
        &[err(Overlong, 0, 1), err(UnexpectedContinuation, 1, 1)],
    );
    events_are(
        Encoding::Utf8,
        "41 42 80",
        &[cp(0x41), cp(0x42), err(UnexpectedContinuation, 2, 1)],
    );
    // "<0xF5 0x80 0x80 0x80> would result in 0x140000 ... a decoding error"
    events_are(
        Encoding::Utf8,
        "F5 80 80 80",
        &[
            err(OutOfRange, 0, 1),
            err(UnexpectedContinuation, 1, 1),
            err(UnexpectedContinuation, 2, 1),
            err(UnexpectedContinuation, 3, 1),
        ],
    );
}

#[test]
fn unicode_table_3_8_maximal_subparts() {
    let bytes = hex("61 F1 80 80 E1 80 C2 62 80 63 80 BF 64");
    let lossy: String = utf8::decode_lossy_to_string(&bytes);
    assert_eq!(
        lossy,
        "a\u{FFFD}\u{FFFD}\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}d"
    );
    assert_eq!(lossy, String::from_utf8_lossy(&bytes));
    events_are(
        Encoding::Utf8,
        "61 F1 80 80 E1 80 C2 62 80 63 80 BF 64",
        &[
            cp(0x61),
            err(Truncated, 1, 3),
            err(Truncated, 4, 2),
            err(Truncated, 6, 1),
            cp(0x62),
            err(UnexpectedContinuation, 8, 1),
            cp(0x63),
            err(UnexpectedContinuation, 10, 1),
            err(UnexpectedContinuation, 11, 1),
            cp(0x64),
        ],
    );
}

#[test]
fn table_3_7_first_and_last_of_every_row() {
    for (input, codepoint) in [
        ("00", 0x0),
        ("7F", 0x7F),
        ("C2 80", 0x80),
        ("DF BF", 0x7FF),
        ("E0 A0 80", 0x800),
        ("E0 BF BF", 0xFFF),
        ("E1 80 80", 0x1000),
        ("EC BF BF", 0xCFFF),
        ("ED 80 80", 0xD000),
        ("ED 9F BF", 0xD7FF),
        ("EE 80 80", 0xE000),
        ("EF BF BF", 0xFFFF),
        ("F0 90 80 80", 0x1_0000),
        ("F0 BF BF BF", 0x3_FFFF),
        ("F1 80 80 80", 0x4_0000),
        ("F3 BF BF BF", 0xF_FFFF),
        ("F4 80 80 80", 0x10_0000),
        ("F4 8F BF BF", 0x10_FFFF),
    ] {
        let bytes = hex(input);
        assert_eq!(utf8::decode(&bytes), Ok(vec![codepoint]), "{input}");
        assert_eq!(
            utf8::encode([codepoint]),
            Ok(bytes.clone()),
            "U+{codepoint:04X}"
        );
        check_all_splits(Encoding::Utf8, &bytes);
    }
}
