//! `utf-8/encode.json`: one code point in, its bytes or an error kind out.

use super::build::{cp_text, encode_test, Groups};
use crate::vectors::model::EncodeTest;
use conformance_literal::utf8;

/// The test groups, in file order.
pub(super) fn groups() -> Groups<EncodeTest> {
    let mut g = Groups::new();
    row_ends(&mut g);
    surrogates_and_end(&mut g);
    seed_examples(&mut g);
    super::splits::utf8_encode(&mut g, enc);
    g
}

fn enc(comment: String, flags: &[&str], cp: u32) -> EncodeTest {
    encode_test(utf8::encode, comment, flags, cp)
}

fn row_ends(g: &mut Groups<EncodeTest>) {
    g.group("Table 3-7: the first and last code point of every row");
    for row in &utf8::TABLE_3_7 {
        g.push(enc(
            format!(
                "first of row {}..{}",
                cp_text(row.first_cp),
                cp_text(row.last_cp)
            ),
            &["TableRowFirst"],
            row.first_cp,
        ));
        g.push(enc(
            format!(
                "last of row {}..{}",
                cp_text(row.first_cp),
                cp_text(row.last_cp)
            ),
            &["TableRowLast"],
            row.last_cp,
        ));
    }
}

fn surrogates_and_end(g: &mut Groups<EncodeTest>) {
    g.group("Surrogates and the end of the code space");
    #[rustfmt::skip]
    let cases: &[(u32, &str, &[&str])] = &[
        (0xD7FF, "last code point before the surrogates", &["Boundary"]),
        (0xD800, "first surrogate", &["Boundary", "Surrogate"]),
        (0xDBFF, "last high surrogate", &["Surrogate"]),
        (0xDC00, "first low surrogate", &["Surrogate"]),
        (0xDFFF, "last surrogate", &["Boundary", "Surrogate"]),
        (0xE000, "first code point after the surrogates", &["Boundary"]),
        (0x10FFFF, "last code point", &["Boundary", "Noncharacter"]),
        (0x110000, "first code point past the end", &["Boundary", "OutOfRange"]),
        (0x1FFFFF, "largest 21-bit value", &["OutOfRange"]),
        (0x7FFF_FFFF, "the original UTF-8's last code point", &["OutOfRange"]),
        (0x8421_109F, "Corrected UTF-8's last code point", &["OutOfRange"]),
        (0xFFFF_FFFF, "largest 32-bit value", &["OutOfRange"]),
    ];
    for &(cp, comment, flags) in cases {
        g.push(enc(comment.into(), flags, cp));
    }
}

fn seed_examples(g: &mut Groups<EncodeTest>) {
    g.group("Source examples and sample characters");
    for (cp, comment) in [
        (0x41, "All you need to know about UTF-8 decoding: U+0041"),
        (0xD7C0, "All you need to know about UTF-8 decoding: U+D7C0"),
        (
            0x10000F,
            "All you need to know about UTF-8 decoding: U+10000F",
        ),
        (
            0x807E2,
            "All you need to know about UTF-8 decoding: U+807E2",
        ),
    ] {
        g.push(enc(comment.into(), &["SeedExample"], cp));
    }
    for (cp, comment) in [
        (0x0000, "NUL"),
        (0x00E9, "é"),
        (0x20AC, "€"),
        (0xFEFF, "BOM"),
        (0xFFFD, "REPLACEMENT CHARACTER"),
        (0x1F600, "an emoji"),
    ] {
        g.push(enc(comment.into(), &["Sample"], cp));
    }
    for (cp, comment) in [(0xFDD0, "U+FDD0"), (0xFFFE, "U+FFFE"), (0x1FFFF, "U+1FFFF")] {
        g.push(enc(
            format!("noncharacter {comment}"),
            &["Noncharacter"],
            cp,
        ));
    }
}
