//! `utf-inf-8/encode.json`: one code point (unbounded) in, its bytes or an error kind
//! out.

use super::{class_flags, classes, cp, cp_text, enc, lit};
use crate::vectors::generate::build::Groups;
use crate::vectors::model::EncodeTest;

/// The test groups, in file order.
pub(in crate::vectors::generate) fn groups() -> Groups<EncodeTest> {
    let mut g = Groups::new();
    draft_examples(&mut g);
    class_ends(&mut g);
    surrogates(&mut g);
    samples(&mut g);
    crate::vectors::generate::splits::utf_inf8_encode(&mut g);
    g
}

fn draft_examples(g: &mut Groups<EncodeTest>) {
    g.group("The draft's 17 examples (UTF-∞-8 draft §4)");
    for (i, (hex, _, remark)) in lit::DRAFT_EXAMPLES.iter().enumerate() {
        let mut flags = vec!["DraftExample"];
        match i {
            15 => flags.push("DraftByteCount"),
            16 => flags.push("DraftElided"),
            _ => {}
        }
        g.push(enc(format!("draft: {remark}"), &flags, &cp(hex)));
    }
}

fn class_ends(g: &mut Groups<EncodeTest>) {
    g.group("The first and last code point of every length class");
    for class in classes() {
        for (which, c) in [
            ("LengthClassFirst", &class.first),
            ("LengthClassLast", &class.last),
        ] {
            let word = if which == "LengthClassFirst" {
                "first"
            } else {
                "last"
            };
            g.push(enc(
                format!("{word} {}-byte code: {}", class.bytes, cp_text(c)),
                &class_flags(c, which),
                c,
            ));
        }
    }
}

fn surrogates(g: &mut Groups<EncodeTest>) {
    g.group("Surrogates and their neighbours");
    #[rustfmt::skip]
    let cases: &[(&str, &str, &[&str])] = &[
        ("D7FF", "last code point before the surrogates", &["Boundary"]),
        ("D800", "first surrogate", &["Boundary", "Surrogate"]),
        ("DBFF", "last high surrogate", &["Surrogate"]),
        ("DC00", "first low surrogate", &["Surrogate"]),
        ("DFFF", "last surrogate", &["Boundary", "Surrogate"]),
        ("E000", "first code point after the surrogates", &["Boundary"]),
    ];
    for &(hex, comment, flags) in cases {
        g.push(enc(comment, flags, &cp(hex)));
    }
}

fn samples(g: &mut Groups<EncodeTest>) {
    g.group("Samples: the C1 controls (which Corrected UTF-8 refuses), the ends of Unicode and of Corrected UTF-8, powers of two");
    #[rustfmt::skip]
    let cases: &[(&str, &str, &[&str])] = &[
        ("0", "NUL", &["Sample"]),
        ("80", "first C1 control: encodable here, as in UTF-8", &["Sample"]),
        ("9F", "last C1 control", &["Sample"]),
        ("E9", "é", &["Sample"]),
        ("FFFD", "REPLACEMENT CHARACTER", &["Sample"]),
        ("1F600", "an emoji", &["Sample"]),
        ("10FFFF", "last Unicode code point", &["Sample", "Noncharacter"]),
        ("1210A0", "the Corrected UTF-8 reading of F4 90 80 80", &["Sample", "BeyondUnicode"]),
        ("8421109F", "Corrected UTF-8's last code point", &["Sample", "BeyondUnicode"]),
        ("FFFFFFFF", "2^32 - 1", &["Sample", "BeyondUnicode"]),
        ("100000000", "2^32", &["Sample", "BeyondUnicode"]),
        ("10000000000000000", "2^64", &["Sample", "BeyondUnicode"]),
        ("100000000000000000000000000000000", "2^128", &["Sample", "BeyondUnicode", "LongForm"]),
        ("10000000000000000000000000000000000000000000000000000000000000000", "2^256", &["Sample", "BeyondUnicode", "LongForm", "LengthB4"]),
    ];
    for &(hex, comment, flags) in cases {
        g.push(enc(comment, flags, &cp(hex)));
    }
}
