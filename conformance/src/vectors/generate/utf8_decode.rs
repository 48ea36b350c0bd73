//! `utf-8/decode.json`: Unicode Table 3-7, maximal subparts, Markus Kuhn's stress test.

use super::build::{bom_inputs, cp_text, decode_test, spaced, Groups, TERMINATORS};
use super::utf_inf8;
use crate::vectors::model::DecodeTest;
use conformance_literal::{corrected, utf8};

/// The test groups, in file order.
pub(super) fn groups() -> Groups<DecodeTest> {
    let mut g = Groups::new();
    row_ends(&mut g);
    row_boundaries(&mut g);
    seed_examples(&mut g);
    table_3_8(&mut g);
    empty(&mut g);
    kuhn_2(&mut g);
    kuhn_3_1(&mut g);
    kuhn_3_2(&mut g);
    kuhn_3_3_and_3_4(&mut g);
    kuhn_3_5(&mut g);
    kuhn_4(&mut g);
    kuhn_5_1_and_5_2(&mut g);
    kuhn_5_3(&mut g);
    lead_bytes(&mut g);
    magic_number(&mut g);
    mixed(&mut g);
    cross_encoding(&mut g);
    resynchronisation(&mut g);
    bom(&mut g);
    super::splits::utf8_decode(&mut g, dec);
    g
}

fn dec(comment: String, flags: &[&str], input: &[u8]) -> DecodeTest {
    decode_test(utf8::decode, comment, flags, input)
}

/// Whether `b` lies in the inclusive range `r`.
fn in37(r: (u8, u8), b: u8) -> bool {
    r.0 <= b && b <= r.1
}

fn row_ends(g: &mut Groups<DecodeTest>) {
    g.group("Table 3-7: the first and last code point of every row");
    for row in &utf8::TABLE_3_7 {
        for (which, cp, flag) in [
            ("first", row.first_cp, "TableRowFirst"),
            ("last", row.last_cp, "TableRowLast"),
        ] {
            let bytes = utf8::encode(cp).unwrap_or_default();
            g.push(dec(
                format!(
                    "row {}..{}: {which}, {}",
                    cp_text(row.first_cp),
                    cp_text(row.last_cp),
                    spaced(&bytes)
                ),
                &[flag],
                &bytes,
            ));
        }
    }
}

fn row_boundaries(g: &mut Groups<DecodeTest>) {
    g.group("Table 3-7: each byte of a row's lowest and highest sequence at the ends of its range and just outside");
    for row in &utf8::TABLE_3_7 {
        for high in [false, true] {
            let base: Vec<u8> = row
                .bytes
                .iter()
                .map(|r| if high { r.1 } else { r.0 })
                .collect();
            for (j, &(lo, hi)) in row.bytes.iter().enumerate() {
                for (v, what) in [
                    (lo.checked_sub(1), "just below"),
                    (Some(lo), "first of"),
                    (Some(hi), "last of"),
                    (hi.checked_add(1), "just above"),
                ] {
                    let Some(v) = v else { continue };
                    let mut input = base.clone();
                    input[j] = v;
                    g.push(dec(
                        format!(
                            "row {}..{}: byte {} = {v:02X}, {what} {:02X}..{:02X}: {}",
                            cp_text(row.first_cp),
                            cp_text(row.last_cp),
                            j + 1,
                            lo,
                            hi,
                            spaced(&input)
                        ),
                        &["RowBoundary"],
                        &input,
                    ));
                }
            }
        }
    }
}

fn seed_examples(g: &mut Groups<DecodeTest>) {
    g.group("All you need to know about UTF-8 decoding: examples");
    // The source's decoder reports a whole bad sequence as one error "near byte N"; these
    // vectors use maximal subparts (docs/semantics.md §3), so its wording is quoted.
    #[rustfmt::skip]
    let examples: [(&[u8], &str, bool); 7] = [
        (&[0x41], "41 is U+0041", false),
        (&[0xED, 0x9F, 0x80], "ED 9F 80 is U+D7C0", false),
        (&[0xF4, 0x80, 0x80, 0x8F], "F4 80 80 8F is U+10000F", false),
        (&[0xED, 0xBF, 0x80], "ED BF 80: the source's decoder reports the whole sequence as one error, \"Decoded surrogate near byte 4\"; with maximal subparts ED alone is a surrogate span, then BF and 80 are unexpected continuation bytes", true),
        (&[0xC1, 0x81], "C1 81: the source's decoder reports the whole sequence as one error, \"Overlong near byte 3\"; with maximal subparts C1 alone is an overlong span, then 81 is an unexpected continuation byte", true),
        (&[0x41, 0x42, 0x80], "41 42 80: the source's decoder says \"Invalid code unit at byte 4\"; here the span is the 80 alone, at offset 2 (0-based)", false),
        (&[0xF2, 0x80, 0x9F, 0xA2], "F2 80 9F A2 is U+807E2", false),
    ];
    for (input, comment, subparts) in examples {
        let flags: &[&str] = if subparts {
            &["SeedExample", "SourceExampleMaximalSubparts"]
        } else {
            &["SeedExample"]
        };
        g.push(dec(comment.into(), flags, input));
    }
}

fn table_3_8(g: &mut Groups<DecodeTest>) {
    g.group("Unicode Table 3-8: U+FFFD for maximal subparts");
    g.push(dec(
        "61 F1 80 80 E1 80 C2 62 80 63 80 BF 64".into(),
        &[
            "UnicodeTable3-8",
            "MissingContinuation",
            "UnexpectedContinuation",
        ],
        &[
            0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64,
        ],
    ));
}

fn empty(g: &mut Groups<DecodeTest>) {
    g.group("Empty input");
    g.push(dec("no bytes, no events".into(), &["Empty"], &[]));
}

fn kuhn_2(g: &mut Groups<DecodeTest>) {
    g.group("Kuhn 2: boundary conditions");
    #[rustfmt::skip]
    let kuhn2: &[(&[u8], &str, &[&str])] = &[
        (&[0x00], "first 1-byte sequence", &["KuhnBoundary"]),
        (&[0xC2, 0x80], "first 2-byte sequence", &["KuhnBoundary"]),
        (&[0xE0, 0xA0, 0x80], "first 3-byte sequence", &["KuhnBoundary"]),
        (&[0xF0, 0x90, 0x80, 0x80], "first 4-byte sequence", &["KuhnBoundary"]),
        (&[0xF8, 0x88, 0x80, 0x80, 0x80], "first 5-byte sequence of the original UTF-8", &["KuhnBoundary", "FiveSixByteForm"]),
        (&[0xFC, 0x84, 0x80, 0x80, 0x80, 0x80], "first 6-byte sequence of the original UTF-8", &["KuhnBoundary", "FiveSixByteForm"]),
        (&[0x7F], "last 1-byte sequence", &["KuhnBoundary"]),
        (&[0xDF, 0xBF], "last 2-byte sequence", &["KuhnBoundary"]),
        (&[0xEF, 0xBF, 0xBF], "last 3-byte sequence", &["KuhnBoundary", "Noncharacter"]),
        (&[0xF7, 0xBF, 0xBF, 0xBF], "last 4-byte sequence of the original UTF-8", &["KuhnBoundary", "OutOfRange"]),
        (&[0xFB, 0xBF, 0xBF, 0xBF, 0xBF], "last 5-byte sequence of the original UTF-8", &["KuhnBoundary", "FiveSixByteForm"]),
        (&[0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF], "last 6-byte sequence of the original UTF-8", &["KuhnBoundary", "FiveSixByteForm"]),
        (&[0xED, 0x9F, 0xBF], "U+D7FF", &["KuhnBoundary"]),
        (&[0xEE, 0x80, 0x80], "U+E000", &["KuhnBoundary"]),
        (&[0xEF, 0xBF, 0xBD], "U+FFFD", &["KuhnBoundary"]),
        (&[0xF4, 0x8F, 0xBF, 0xBF], "U+10FFFF", &["KuhnBoundary", "Noncharacter"]),
        (&[0xF4, 0x90, 0x80, 0x80], "U+110000", &["KuhnBoundary", "OutOfRange"]),
    ];
    for &(input, comment, flags) in kuhn2 {
        g.push(dec(comment.into(), flags, input));
    }
}

fn kuhn_3_1(g: &mut Groups<DecodeTest>) {
    g.group("Kuhn 3.1: unexpected continuation bytes");
    for b in [0x80, 0xBF] {
        g.push(dec(
            format!("{b:02X} alone"),
            &["UnexpectedContinuation"],
            &[b],
        ));
    }
    for k in 2..=7 {
        let input: Vec<u8> = (0..k)
            .map(|i| if i % 2 == 0 { 0x80 } else { 0xBF })
            .collect();
        g.push(dec(
            format!("{k} continuation bytes"),
            &["UnexpectedContinuation", "ContinuationRun"],
            &input,
        ));
    }
    let all: Vec<u8> = (0x80..=0xBF).collect();
    g.push(dec(
        "all 64 continuation bytes".into(),
        &["UnexpectedContinuation", "ContinuationRun"],
        &all,
    ));
}

fn kuhn_3_2(g: &mut Groups<DecodeTest>) {
    g.group("Kuhn 3.2: lonely start bytes, each followed by a space");
    for lead in 0xC0..=0xFDu8 {
        let mut flags = vec!["LonelyStartByte"];
        if lead <= 0xC1 {
            flags.push("Overlong");
        } else if lead >= 0xF8 {
            flags.push("FiveSixByteForm");
        } else if lead >= 0xF5 {
            flags.push("OutOfRange");
        }
        g.push(dec(format!("{lead:02X} 20"), &flags, &[lead, 0x20]));
    }
}

fn kuhn_3_3_and_3_4(g: &mut Groups<DecodeTest>) {
    g.group("Kuhn 3.3 and 3.4: sequences with the last continuation byte missing");
    #[rustfmt::skip]
    let missing: [&[u8]; 10] = [
        &[0xC0], &[0xE0, 0x80], &[0xF0, 0x80, 0x80], &[0xF8, 0x80, 0x80, 0x80], &[0xFC, 0x80, 0x80, 0x80, 0x80],
        &[0xDF], &[0xEF, 0xBF], &[0xF7, 0xBF, 0xBF], &[0xFB, 0xBF, 0xBF, 0xBF], &[0xFD, 0xBF, 0xBF, 0xBF, 0xBF],
    ];
    for input in missing {
        g.push(dec(spaced(input), &["MissingContinuation"], input));
    }
    g.push(dec(
        "all ten concatenated".into(),
        &["MissingContinuation"],
        &missing.concat(),
    ));
}

fn kuhn_3_5(g: &mut Groups<DecodeTest>) {
    g.group("Kuhn 3.5: impossible bytes");
    for (input, comment) in [
        (&[0xFE][..], "FE"),
        (&[0xFF], "FF"),
        (&[0xFE, 0xFE, 0xFF, 0xFF], "FE FE FF FF"),
    ] {
        g.push(dec(comment.into(), &["InvalidByte"], input));
    }
}

fn kuhn_4(g: &mut Groups<DecodeTest>) {
    g.group("Kuhn 4: overlong sequences");
    #[rustfmt::skip]
    let overlong: &[(&[u8], &str)] = &[
        (&[0xC0, 0xAF], "OverlongSolidus"), (&[0xE0, 0x80, 0xAF], "OverlongSolidus"), (&[0xF0, 0x80, 0x80, 0xAF], "OverlongSolidus"),
        (&[0xF8, 0x80, 0x80, 0x80, 0xAF], "OverlongSolidus"), (&[0xFC, 0x80, 0x80, 0x80, 0x80, 0xAF], "OverlongSolidus"),
        (&[0xC1, 0xBF], "MaximalOverlong"), (&[0xE0, 0x9F, 0xBF], "MaximalOverlong"), (&[0xF0, 0x8F, 0xBF, 0xBF], "MaximalOverlong"),
        (&[0xF8, 0x87, 0xBF, 0xBF, 0xBF], "MaximalOverlong"), (&[0xFC, 0x83, 0xBF, 0xBF, 0xBF, 0xBF], "MaximalOverlong"),
        (&[0xC0, 0x80], "OverlongNul"), (&[0xE0, 0x80, 0x80], "OverlongNul"), (&[0xF0, 0x80, 0x80, 0x80], "OverlongNul"),
        (&[0xF8, 0x80, 0x80, 0x80, 0x80], "OverlongNul"), (&[0xFC, 0x80, 0x80, 0x80, 0x80, 0x80], "OverlongNul"),
    ];
    for &(input, flag) in overlong {
        let extra = if input.len() > 4 {
            "FiveSixByteForm"
        } else {
            "Overlong"
        };
        g.push(dec(spaced(input), &[flag, extra], input));
    }
}

fn kuhn_5_1_and_5_2(g: &mut Groups<DecodeTest>) {
    g.group("Kuhn 5.1 and 5.2: surrogates, single and paired");
    let singles: [[u8; 3]; 7] = [
        [0xED, 0xA0, 0x80],
        [0xED, 0xAD, 0xBF],
        [0xED, 0xAE, 0x80],
        [0xED, 0xAF, 0xBF],
        [0xED, 0xB0, 0x80],
        [0xED, 0xBE, 0x80],
        [0xED, 0xBF, 0xBF],
    ];
    for s in &singles {
        g.push(dec(spaced(s), &["Surrogate"], s));
    }
    for hi in &singles[..4] {
        for lo in [&singles[4], &singles[6]] {
            let input = [&hi[..], &lo[..]].concat();
            g.push(dec(spaced(&input), &["Surrogate", "SurrogatePair"], &input));
        }
    }
}

fn kuhn_5_3(g: &mut Groups<DecodeTest>) {
    g.group("Kuhn 5.3: noncharacters are valid");
    let nonchars = (0xFDD0..=0xFDEFu32)
        .chain((0..=0x10u32).flat_map(|p| [p << 16 | 0xFFFE, p << 16 | 0xFFFF]));
    for cp in nonchars {
        let bytes = utf8::encode(cp).unwrap_or_default();
        g.push(dec(
            format!("{} noncharacter", cp_text(cp)),
            &["Noncharacter"],
            &bytes,
        ));
    }
}

fn lead_bytes(g: &mut Groups<DecodeTest>) {
    g.group("Every lead byte C0..FF, followed by 0..n-1 continuation bytes, then end of input, ASCII, another lead or FE");
    for lead in 0xC0..=0xFFu8 {
        let row = utf8::TABLE_3_7.iter().find(|r| in37(r.bytes[0], lead));
        let n = row.map_or(if lead <= 0xC1 { 2 } else { 4 }, |r| r.bytes.len());
        for k in 0..n {
            // Continuation bytes valid for the lead's row: alternate ends of each range.
            let seq: Vec<u8> = std::iter::once(lead)
                .chain((1..=k).map(|j| match row {
                    Some(r) => {
                        if j % 2 == 1 {
                            r.bytes[j].0
                        } else {
                            r.bytes[j].1
                        }
                    }
                    None => 0x80,
                }))
                .collect();
            let state = match (row, lead) {
                (Some(_), _) if k + 1 == n => "CompleteSequence",
                (Some(_), _) => "Truncated",
                (None, 0xC0..=0xC1) => "Overlong",
                (None, 0xFE..=0xFF) => "InvalidByte",
                (None, 0xF8..=0xFD) => "FiveSixByteForm",
                (None, _) => "OutOfRange",
            };
            for (tname, tbytes, tflag) in TERMINATORS {
                let input = [&seq[..], tbytes].concat();
                g.push(dec(
                    format!(
                        "{} + {k} continuation byte{}, then {tname}",
                        format_args!("{lead:02X}"),
                        if k == 1 { "" } else { "s" }
                    ),
                    &["LeadByte", state, tflag],
                    &input,
                ));
            }
        }
    }
}

fn magic_number(g: &mut Groups<DecodeTest>) {
    g.group("The Corrected UTF-8 magic number read as UTF-8");
    g.push(dec(
        "EF B7 9D is U+FDDD (a noncharacter), then ED B2 AE is a surrogate (Corrected UTF-8, magic number)".into(),
        &["MagicNumber", "Surrogate", "Noncharacter"],
        &corrected::MAGIC,
    ));
}

fn mixed(g: &mut Groups<DecodeTest>) {
    g.group("Mixed text");
    let mut mixed = Vec::new();
    for cp in [0x48, 0xE9, 0x20AC, 0x1F600, 0x0A] {
        mixed.extend(utf8::encode(cp).unwrap_or_default());
    }
    g.push(dec(
        "one character of each length, then LF".into(),
        &["Mixed"],
        &mixed,
    ));
    g.push(dec(
        "errors between characters: 41 80 C3 42 FE 43 E0 80 F4 90 C0".into(),
        &[
            "Mixed",
            "UnexpectedContinuation",
            "Truncated",
            "InvalidByte",
            "OutOfRange",
            "Overlong",
        ],
        &[
            0x41, 0x80, 0xC3, 0x42, 0xFE, 0x43, 0xE0, 0x80, 0xF4, 0x90, 0xC0,
        ],
    ));
}

fn cross_encoding(g: &mut Groups<DecodeTest>) {
    g.group(utf_inf8::CROSS_GROUP);
    for input in utf_inf8::cross_inputs() {
        g.push(dec(
            utf_inf8::cross_comment(&input),
            &["CrossEncoding"],
            &input,
        ));
    }
}

/// Found by the decoder matrix (`docs/matrix.md`): inputs on which real decoders swallow a
/// well-formed character into the error before it.
fn resynchronisation(g: &mut Groups<DecodeTest>) {
    g.group("Resynchronisation: a character right after an error is decoded");
    #[rustfmt::skip]
    let cases: [(&[u8], &str, &[&str]); 6] = [
        (&[0x80, 0xE2, 0x82, 0xAC], "80 E2 82 AC: a stray continuation byte, then U+20AC: two events, the euro sign kept", &["UnexpectedContinuation"]),
        (&[0x80, 0xC3, 0xA9, 0xBF], "80 C3 A9 BF: stray continuation bytes around U+00E9: three events", &["UnexpectedContinuation"]),
        (&[0xBF, 0xF0, 0x9F, 0x98, 0x80], "BF F0 9F 98 80: a stray continuation byte, then U+1F600", &["UnexpectedContinuation"]),
        (&[0xED, 0xA0, 0x41], "ED A0 41: ED (surrogate) and A0 are two spans of one byte each, then A", &["Surrogate", "UnexpectedContinuation", "ThenAscii"]),
        (&[0xF0, 0x9F, 0xC3, 0xA9], "F0 9F C3 A9: a truncated 4-byte sequence, then U+00E9 starting where the 4-byte one would have gone on", &["Truncated", "ThenLead"]),
        (&[0xE2, 0x82, 0xE2, 0x82, 0xAC], "E2 82 E2 82 AC: a truncated 3-byte sequence, then U+20AC", &["Truncated"]),
    ];
    for (input, comment, flags) in cases {
        let mut flags = flags.to_vec();
        flags.push("Resynchronisation");
        g.push(dec(comment.into(), &flags, input));
    }
}

/// SPEC §1: there is no byte order mark; EF BB BF is U+FEFF wherever it stands.
fn bom(g: &mut Groups<DecodeTest>) {
    g.group("No byte order mark: EF BB BF is U+FEFF wherever it stands, never stripped");
    let bom = utf8::encode(0xFEFF).unwrap_or_default();
    for (comment, input) in bom_inputs(&bom) {
        g.push(dec(comment, &["Bom"], &input));
    }
}
