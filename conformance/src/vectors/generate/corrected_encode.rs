//! `corrected-utf8/encode.json`: one code point in, its bytes or an error kind out.

use super::build::{encode_test, spaced, Groups};
use crate::vectors::model::EncodeTest;
use conformance_literal::corrected;

/// The test groups, in file order.
pub(super) fn groups() -> Groups<EncodeTest> {
    let mut g = Groups::new();
    row_ends(&mut g);
    boundaries(&mut g);
    seed_examples(&mut g);
    super::splits::corrected_encode(&mut g, enc);
    g
}

fn enc(comment: String, flags: &[&str], cp: u32) -> EncodeTest {
    encode_test(corrected::encode, comment, flags, cp)
}

fn row_ends(g: &mut Groups<EncodeTest>) {
    g.group("Putting it all together: the first and last code point of every row");
    for (i, row) in corrected::TABLE.iter().enumerate() {
        g.push(enc(
            format!("row {}: first code point, {}", i + 1, spaced(row.first)),
            &["TableRowFirst"],
            row.first_cp,
        ));
        g.push(enc(
            format!("row {}: last code point, {}", i + 1, spaced(row.last)),
            &["TableRowLast"],
            row.last_cp,
        ));
    }
}

fn boundaries(g: &mut Groups<EncodeTest>) {
    g.group("Both sides of every boundary, up to U+FFFFFFFF");
    #[rustfmt::skip]
    let cases: &[(u32, &str, &[&str])] = &[
        (0x7F, "last 1-byte code point, before the C1 gap", &["Boundary"]),
        (0x80, "first C1 control", &["Boundary", "C1Control"]),
        (0x85, "NEL, a C1 control", &["C1Control"]),
        (0x9F, "last C1 control", &["Boundary", "C1Control"]),
        (0xA0, "first 2-byte code point, after the C1 gap", &["Boundary"]),
        (0x89F, "last 2-byte code point", &["Boundary"]),
        (0x8A0, "first 3-byte code point", &["Boundary"]),
        (0xD7FF, "last code point before the surrogates", &["Boundary"]),
        (0xD800, "first surrogate", &["Boundary", "Surrogate"]),
        (0xDBFF, "last high surrogate", &["Surrogate"]),
        (0xDC00, "first low surrogate", &["Surrogate"]),
        (0xDFFF, "last surrogate", &["Boundary", "Surrogate"]),
        (0xE000, "first code point after the surrogates (offset changes)", &["Boundary"]),
        (0xFFFF, "last BMP code point", &["Boundary", "Noncharacter"]),
        (0x10000, "first supplementary code point", &["Boundary"]),
        (0x10FFFF, "last Unicode code point", &["Boundary", "Noncharacter"]),
        (0x110000, "first code point above Unicode", &["Boundary", "BeyondUnicode"]),
        (0x1109F, "last 3-byte code point", &["Boundary"]),
        (0x110A0, "first 4-byte code point", &["Boundary"]),
        (0x21109F, "last 4-byte code point", &["Boundary", "BeyondUnicode"]),
        (0x2110A0, "first 5-byte code point", &["Boundary", "BeyondUnicode"]),
        (0x421109F, "last 5-byte code point", &["Boundary", "BeyondUnicode"]),
        (0x42110A0, "first 6-byte code point", &["Boundary", "BeyondUnicode"]),
        (0x7FFF_FFFF, "the original UTF-8's last code point", &["Boundary", "BeyondUnicode"]),
        (0x8000_0000, "2^31", &["Boundary", "BeyondUnicode"]),
        (0x8421_109F, "last encodable code point", &["Boundary", "BeyondUnicode"]),
        (0x8421_10A0, "first code point past the end", &["Boundary", "OutOfRange"]),
        (0x8421_10A1, "past the end", &["OutOfRange"]),
        (0xFFFF_FFFE, "past the end", &["OutOfRange"]),
        (0xFFFF_FFFF, "largest 32-bit value", &["Boundary", "OutOfRange"]),
    ];
    for &(cp, comment, flags) in cases {
        g.push(enc(comment.into(), flags, cp));
    }
}

fn seed_examples(g: &mut Groups<EncodeTest>) {
    g.group("Source examples and sample characters");
    g.push(enc(
        "Corrected UTF-8: U+00CF is C0 AF".into(),
        &["SeedExample"],
        0xCF,
    ));
    for (cp, comment) in [
        (0x0000, "NUL"),
        (0x000A, "LF"),
        (0x0041, "A"),
        (0x00E9, "é"),
        (0x2028, "LINE SEPARATOR"),
        (0x2029, "PARAGRAPH SEPARATOR"),
        (0x20AC, "€"),
        (0xFEFF, "BOM"),
        (0xFFFD, "REPLACEMENT CHARACTER"),
        (0x1F600, "an emoji"),
    ] {
        g.push(enc(comment.into(), &["Sample"], cp));
    }
    for (cp, comment) in [
        (0x10E7D, "magic number, first code point"),
        (0xED4E, "magic number, second code point"),
    ] {
        g.push(enc(comment.into(), &["MagicNumber"], cp));
    }
    for (cp, comment) in [
        (0xFDD0, "first of U+FDD0..U+FDEF"),
        (0xFDEF, "last of U+FDD0..U+FDEF"),
        (0xFFFE, "U+FFFE"),
        (0x1FFFF, "U+1FFFF"),
    ] {
        g.push(enc(
            format!("noncharacter {comment}"),
            &["Noncharacter"],
            cp,
        ));
    }
}
