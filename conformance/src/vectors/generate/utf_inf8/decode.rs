//! `utf-inf-8/decode.json`: bytes in, the complete list of events out.

use super::{
    bytes_of, class_flags, classes, cp, cp_text, cross_comment, cross_inputs, dec, digits,
    long_len, CROSS_GROUP,
};
use crate::vectors::generate::build::{bom_inputs, spaced, Groups};
use crate::vectors::model::DecodeTest;
use conformance_literal::utf_inf8::{self as lit, CodePoint, Event, FORMS};
use conformance_literal::Kind;

/// The test groups, in file order.
pub(in crate::vectors::generate) fn groups() -> Groups<DecodeTest> {
    let mut g = Groups::new();
    draft_examples(&mut g);
    class_ends(&mut g);
    overlong_forms(&mut g);
    surrogates(&mut g);
    malformed_length(&mut g);
    nonzero_padding(&mut g);
    after_long_prefix(&mut g);
    truncation(&mut g);
    length_limit(&mut g);
    cross_encoding(&mut g);
    stray_continuations(&mut g);
    empty(&mut g);
    mixed(&mut g);
    bom(&mut g);
    crate::vectors::generate::splits::utf_inf8_decode(&mut g);
    cut_short_overlong(&mut g);
    limit_edge(&mut g);
    wide_length(&mut g);
    g
}

/// Length fields wider than 64 and 128 bits (vectors 2.6.0): such a code is over any
/// limit, but its padding and first significant digit still end its one span, and they
/// hang on NUD modulo 3, which an implementation that saturates the length at its word
/// size loses (the reference codec did at 64 bits, the spec-literal decoder at 128).
/// NME = d · 16^(n − 1) is d modulo 3: d = 3, 1, 2 give 0, 2 and 1 padding digits.
fn wide_length(g: &mut Groups<DecodeTest>) {
    g.group("Length fields over 64 and 128 bits: the padding and first digit still end the span");
    for n in [16, 17, 33] {
        let bits = match n {
            16 => "just under 2^64",
            17 => "over 2^64",
            _ => "over 2^128",
        };
        for d in [3u8, 1, 2] {
            let mut header = vec![0xFF];
            header.extend(vec![lit::B4; n - 1]);
            header.push(0xA0 + d);
            header.extend(vec![0xA0; n - 1]);
            let pad = [0, 2, 1][usize::from(d % 3)];
            // Storage bytes of 6 bits: `pad` zero digits, then the first significant
            // digit, which must not be 0.
            let (wrong_pad, first_zero, goes_on): (&[u8], &[u8], &[u8]) = match pad {
                0 => (&[], &[0x80], &[0x84, 0xBF]),
                1 => (&[0xBF], &[0x80, 0x80], &[0x83, 0xBF]),
                _ => (&[0xBF], &[0x80, 0x80], &[0x80, 0x8F, 0xBF]),
            };
            let what = format!(
                "FF, {} B4, {} digits A{d} A0…A0 (NME = {d}·16^{}, {bits}; {pad} padding digit{})",
                n - 1,
                n,
                n - 1,
                if pad == 1 { "" } else { "s" }
            );
            let flags = ["LimitExceeded", "LimitSpan", "WideLength"];
            if !wrong_pad.is_empty() {
                g.push(dec(
                    format!("{what}, then BF, whose padding bits are set: the span ends before BF"),
                    &[&flags[..], &["UnexpectedContinuation"]].concat(),
                    &cat(&[&header, wrong_pad, &[0x41]]),
                ));
            }
            g.push(dec(
                format!(
                    "{what}, then {}: the first significant digit 0 (not shortest): the span ends before the byte that makes it 0",
                    spaced(first_zero)
                ),
                &[&flags[..], &["UnexpectedContinuation"]].concat(),
                &cat(&[&header, first_zero, &[0x41]]),
            ));
            g.push(dec(
                format!(
                    "{what}, then {}: padding zero, first digit not 0: one span over all of it",
                    spaced(goes_on)
                ),
                &flags,
                &cat(&[&header, goes_on, &[0x41]]),
            ));
        }
    }
}

/// The 13-byte form's overlong codes cut short (issue 41): the verdict falls at the 7th
/// byte, where the first 35 payload bits are known to be zero, not at the end of the
/// code; a decoder that decides only once the code is complete calls these `truncated`.
fn cut_short_overlong(g: &mut Groups<DecodeTest>) {
    g.group(
        "The 13-byte form's overlong codes cut short: overlong at the 7th byte, whatever follows",
    );
    let zero = lit::encode_in_form(&FORMS[7], 0);
    let largest = lit::encode_in_form(&FORMS[7], cp(FORMS[6].last).to_u128().unwrap_or(0));
    let mut cases: Vec<(Vec<u8>, String)> = Vec::new();
    for (code, what) in [
        (&zero, "U+0000"),
        (&largest, "U+FFFFFFFFF (the 7-byte form's last)"),
    ] {
        for cut in [7, 8, 10, 12] {
            cases.push((
                code[..cut].to_vec(),
                format!("{what} in the 13-byte form, cut after {cut} bytes"),
            ));
        }
        cases.push((
            cat(&[&code[..9], &[0x41]]),
            format!("{what} in the 13-byte form, cut after 9 bytes by A"),
        ));
    }
    for (bytes, what) in cases {
        g.push(dec(
            format!(
                "{what}: {}: overlong over the first 6 bytes, then each continuation byte alone",
                spaced(&bytes)
            ),
            &["OverlongForm", "CutShortOverlong"],
            &bytes,
        ));
    }
    // The contrast: the 7th byte sets the 35th bit, the value needs the 13-byte form.
    let mut fits = zero[..6].to_vec();
    fits.extend([0x81, 0x80, 0x80]);
    g.push(dec(
        format!(
            "{}: the 35th payload bit set, a 13-byte code cut short: truncated over all 9 bytes",
            spaced(&fits)
        ),
        &["TruncatedFixedForm", "CutShortOverlong"],
        &fits,
    ));
}

/// The limit edge from both sides by two more codes (issue 41): the first code of the
/// 65 536-byte class is valid, the last code of the 65 538-byte class is over the limit.
fn limit_edge(g: &mut Groups<DecodeTest>) {
    g.group("The code length limit from both sides, by other codes");
    let first = cp(&format!("1{}", "0".repeat(98_286)));
    let last_over = cp(&"F".repeat(98_292));
    let (first_bytes, over_bytes) = (bytes_of(&first), bytes_of(&last_over));
    debug_assert_eq!(first_bytes.len(), lit::DEFAULT_LIMIT);
    debug_assert_eq!(over_bytes.len(), lit::DEFAULT_LIMIT + 2);
    g.push(dec(
        format!(
            "{}: the first code of 65 536 bytes, the limit, is valid",
            cp_text(&first)
        ),
        &[
            "AtLimit",
            "LargeInput",
            "LongForm",
            "LengthB4",
            "ManyDigits",
        ],
        &first_bytes,
    ));
    g.push(dec(
        format!(
            "{}: the last code of 65 538 bytes: one limit-exceeded span over all of it",
            cp_text(&last_over)
        ),
        &["LimitExceeded", "LimitSpan", "LargeInput"],
        &over_bytes,
    ));
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// What a cut after `cut` bytes of `code` leaves out, and its flag.
fn cut_part(code: &[u8], cut: usize) -> (String, &'static str) {
    if code.len() <= 13 {
        return (
            format!("{cut} of {} bytes", code.len()),
            "TruncatedFixedForm",
        );
    }
    let b4s = code[1..].iter().take_while(|&&b| b == lit::B4).count();
    let length_end = header_len(code);
    if cut == 1 {
        ("FF only, before the length".into(), "TruncatedLength")
    } else if cut <= 1 + b4s {
        (
            format!("inside the length, after {} B4", cut - 1),
            "TruncatedLength",
        )
    } else if cut < length_end {
        (
            format!(
                "inside the length, after {} of {} digits",
                cut - 1 - b4s,
                b4s + 1
            ),
            "TruncatedLength",
        )
    } else if cut == length_end {
        (
            "after the length, before any USV-storage byte".into(),
            "TruncatedStorage",
        )
    } else {
        (
            format!(
                "inside the USV storage, {} of {} bytes",
                cut - length_end,
                code.len() - length_end
            ),
            "TruncatedStorage",
        )
    }
}

/// The number of bytes before the USV storage of a long-form code: FF, the B4s and one
/// more digit than B4s.
fn header_len(code: &[u8]) -> usize {
    1 + 2 * code[1..].iter().take_while(|&&b| b == lit::B4).count() + 1
}

/// A flag for the first error of `input` (for the byte sweeps).
fn outcome_flag(input: &[u8]) -> &'static str {
    let first = lit::decode(input, lit::DEFAULT_LIMIT)
        .into_iter()
        .find_map(|e| match e {
            Event::Error { kind, .. } => Some(kind),
            Event::CodePoint(_) => None,
        });
    match first {
        Some(Kind::Truncated) => "Truncated",
        Some(Kind::InvalidLength) => "InvalidLength",
        Some(Kind::Overlong) => "OverlongForm",
        Some(Kind::LimitExceeded) => "LimitExceeded",
        _ => "Sample",
    }
}

/// `prefix` filled up with `80` to `len` bytes.
fn filled(prefix: &[u8], len: usize) -> Vec<u8> {
    let mut v = prefix.to_vec();
    v.resize(len.max(prefix.len()), 0x80);
    v
}

fn draft_examples(g: &mut Groups<DecodeTest>) {
    g.group("The draft's 17 examples (UTF-∞-8 draft §4)");
    for (i, (_, bytes, remark)) in lit::DRAFT_EXAMPLES.iter().enumerate() {
        let mut flags = vec!["DraftExample"];
        match i {
            15 => flags.push("DraftByteCount"),
            16 => flags.push("DraftElided"),
            _ => {}
        }
        g.push(dec(format!("draft: {remark}"), &flags, bytes));
    }
}

fn class_ends(g: &mut Groups<DecodeTest>) {
    g.group("The first and last code of every length class");
    for class in classes() {
        for (which, c) in [
            ("LengthClassFirst", &class.first),
            ("LengthClassLast", &class.last),
        ] {
            let bytes = bytes_of(c);
            let word = if which == "LengthClassFirst" {
                "first"
            } else {
                "last"
            };
            g.push(dec(
                format!(
                    "{word} {}-byte code, {}: {}",
                    class.bytes,
                    cp_text(c),
                    spaced(&bytes)
                ),
                &class_flags(c, which),
                &bytes,
            ));
        }
    }
}

fn overlong_forms(g: &mut Groups<DecodeTest>) {
    g.group("Overlong forms at every class boundary: zero, and the largest value of the shorter form, in the longer one");
    overlong_fixed_forms(g);
    overlong_long_forms(g);
    overlong_lengths(g);
}

/// Zero and the shorter form's last value in each fixed form.
fn overlong_fixed_forms(g: &mut Groups<DecodeTest>) {
    for pair in FORMS.windows(2) {
        let (shorter, form) = (&pair[0], &pair[1]);
        for (value, flag, what) in [
            (0u128, "OverlongZero", "U+0000".to_string()),
            (
                cp(shorter.last).to_u128().unwrap_or(0),
                "LargestOverlong",
                cp(shorter.last).to_string(),
            ),
        ] {
            let bytes = lit::encode_in_form(form, value);
            g.push(dec(
                format!("{what} in the {}-byte form: {}", form.len(), spaced(&bytes)),
                &["OverlongForm", flag],
                &bytes,
            ));
        }
    }
}

/// Zero, and the previous digit count's last value, in the long form.
fn overlong_long_forms(g: &mut Groups<DecodeTest>) {
    for nud in [18usize, 19, 20, 21] {
        let bytes = lit::long_form_bytes(&vec![0; nud]);
        g.push(dec(
            format!(
                "U+0000 as {nud} digits in the long form: {}",
                spaced(&bytes)
            ),
            &["OverlongForm", "OverlongZero", "LongForm"],
            &bytes,
        ));
    }
    for nud in (18..=36).chain([273, 274, 4114]) {
        // The previous NUD's last value: for 18, the 13-byte form's last code point.
        let hex = if nud == 18 {
            FORMS[7].last.to_string()
        } else {
            format!("0{}", "F".repeat(nud - 1))
        };
        let mut bytes = lit::long_form_bytes(&digits(&hex));
        let mut flags = vec!["OverlongForm", "LargestOverlong", "LongForm"];
        if bytes.get(1) == Some(&lit::B4) {
            flags.push("LengthB4");
        }
        let mut part = String::new();
        if nud >= 100 {
            // The verdict falls within the first two storage bytes; the rest would only
            // add one unexpected-continuation event per byte.
            flags.push("ManyDigits");
            bytes.truncate(header_len(&bytes) + 4);
            part = " (its first 4 USV-storage bytes)".to_string();
        }
        g.push(dec(
            format!(
                "{} written with {nud} digits ({}){part}: {}",
                cp_text(&cp(&hex)),
                if nud == 18 {
                    "it fits the 13-byte form"
                } else {
                    "a leading zero digit"
                },
                spaced(&bytes)
            ),
            &flags,
            &bytes,
        ));
    }
}

/// Length storage with leading zero digits.
fn overlong_lengths(g: &mut Groups<DecodeTest>) {
    let storage = |hex: &str| lit::usv_storage(&digits(hex));
    #[rustfmt::skip]
    let length_cases: Vec<(Vec<u8>, String, Vec<&str>)> = vec![
        (cat(&[&[0xFF, 0xB4, 0xA0, 0xAF], &storage(&"F".repeat(33))]), "NME 15 written with two digits 0F: FF B4 A0 AF + the storage of U+ and 33 F".into(), vec!["LengthLeadingZero"]),
        (cat(&[&[0xFF, 0xB4, 0xA0, 0xA0], &storage(&format!("8{}", "0".repeat(17)))]), "NME 0 written with two digits 00: FF B4 A0 A0 + the storage of U+800000000000000000".into(), vec!["LengthLeadingZero"]),
        (cat(&[&[0xFF, 0xB4, 0xB4, 0xA0, 0xA1, 0xA0], &storage(&format!("1{}", "0".repeat(33)))]), "NME 16 with an extra B4 (three digits 010): FF B4 B4 A0 A1 A0 + the storage of U+1 and 33 zeros".into(), vec!["LengthLeadingZero", "ExtraB4"]),
        (cat(&[&[0xFF, 0xB4, 0xB4, 0xA0, 0xAF, 0xAF], &storage(&"F".repeat(273))[..4]]), "NME 255 with an extra B4 (three digits 0FF) + the first 4 storage bytes of U+ and 273 F".into(), vec!["LengthLeadingZero", "ExtraB4"]),
        (vec![0xFF, 0xB4, 0xB4, 0xB4, 0xA0, 0xA1, 0xA0, 0xA0], "NME 256 with an extra B4 (four digits 0100), the length alone".into(), vec!["LengthLeadingZero", "ExtraB4"]),
        (vec![0xFF, 0xB4, 0xA0], "FF B4 A0 (docs/semantics.md §4.2): overlong over FF B4, then A0 alone".into(), vec!["LengthLeadingZero"]),
        (vec![0xFF, 0xB4, 0xB4, 0xA0], "FF B4 B4 A0: overlong over FF B4 B4".into(), vec!["LengthLeadingZero", "ExtraB4"]),
    ];
    for (bytes, comment, extra) in length_cases {
        let mut flags = vec!["OverlongForm", "LongForm"];
        flags.extend(extra);
        g.push(dec(comment, &flags, &bytes));
    }
}

fn surrogates(g: &mut Groups<DecodeTest>) {
    g.group("Surrogates");
    #[rustfmt::skip]
    let cases: &[(&[u8], &str, &[&str])] = &[
        (&[0xED, 0x9F, 0xBF], "U+D7FF, the last code point before the surrogates", &["Boundary"]),
        (&[0xED, 0xA0, 0x80], "U+D800 encoded: the lead alone is a surrogate span", &["Surrogate"]),
        (&[0xED, 0xAF, 0xBF], "U+DBFF encoded", &["Surrogate"]),
        (&[0xED, 0xB0, 0x80], "U+DC00 encoded", &["Surrogate"]),
        (&[0xED, 0xBF, 0xBF], "U+DFFF encoded", &["Surrogate"]),
        (&[0xEE, 0x80, 0x80], "U+E000, the first code point after the surrogates", &["Boundary"]),
        (&[0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80], "a surrogate pair, each half encoded (CESU-8 style)", &["Surrogate", "SurrogatePair"]),
        (&[0xED, 0xA0], "ED A0 at the end: a surrogate already", &["Surrogate"]),
        (&[0xED, 0x9F], "ED 9F at the end: truncated", &["Truncated"]),
    ];
    for &(input, comment, flags) in cases {
        g.push(dec(comment, flags, input));
    }
}

fn malformed_length(g: &mut Groups<DecodeTest>) {
    g.group("Malformed length storage");
    #[rustfmt::skip]
    let cases: &[(&[u8], &str)] = &[
        (&[0xFF, 0xB0], "FF B0 (docs/semantics.md §4.2): invalid-length over FF, then B0 alone"),
        (&[0xFF, 0xB3, 0x41], "FF B3, then A"),
        (&[0xFF, 0xB5, 0xA1, 0xA0], "FF B5: not B4"),
        (&[0xFF, 0xBF, 0xBF], "FF BF BF"),
        (&[0xFF, 0xB4, 0x80], "FF B4 80: a continuation byte where a length digit must come"),
        (&[0xFF, 0xB4, 0xB0], "FF B4 B0"),
        (&[0xFF, 0xB4, 0xBF, 0x41], "FF B4 BF, then A"),
        (&[0xFF, 0xB4, 0xA1, 0x80, 0x80], "FF B4 A1 80: the second length digit missing"),
        (&[0xFF, 0xB4, 0xA1, 0xB4], "FF B4 A1 B4: B4 after a digit"),
        (&[0xFF, 0xB4, 0xB4, 0xA1, 0xA0, 0x80], "FF B4 B4 A1 A0 80: the third length digit missing"),
    ];
    for &(input, comment) in cases {
        g.push(dec(
            comment,
            &["MalformedLength", "InvalidLength", "LongForm"],
            input,
        ));
    }
}

fn nonzero_padding(g: &mut Groups<DecodeTest>) {
    g.group("Nonzero padding digits in the USV storage");
    let n19 = long_len(19);
    let n20 = long_len(20);
    let n34 = long_len(34);
    #[rustfmt::skip]
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (filled(&[0xFF, 0xA1, 0x84], n19), "NUD 19 (two padding digits): first padding digit 1 (84)"),
        (filled(&[0xFF, 0xA1, 0x81], n19), "NUD 19: second padding digit 4..7 (81)"),
        (filled(&[0xFF, 0xA1, 0x80, 0x90], n19), "NUD 19: second padding digit 1 (80 90)"),
        (filled(&[0xFF, 0xA1, 0x80, 0xB1], n19), "NUD 19: second padding digit 3 (80 B1)"),
        (filled(&[0xFF, 0xA2, 0x84], n20), "NUD 20 (one padding digit): padding digit 1 (84)"),
        (filled(&[0xFF, 0xA2, 0xBC], n20), "NUD 20: padding digit F (BC)"),
        (filled(&[0xFF, 0xB4, 0xA1, 0xA0, 0x84], n34), "NUD 34 (two padding digits): first padding digit 1"),
    ];
    for (input, comment) in cases {
        g.push(dec(
            comment,
            &["NonzeroPadding", "InvalidLength", "LongForm"],
            &input,
        ));
    }
    #[rustfmt::skip]
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (filled(&[0xFF, 0xA1, 0x80, 0x80], n19), "NUD 19: padding 00 and a first digit 0: overlong, not invalid-length"),
        (filled(&[0xFF, 0xA2, 0x80, 0x80], n20), "NUD 20: padding 0 and a first digit 0: overlong"),
        (filled(&[0xFF, 0xA2, 0x81], n20), "NUD 20: padding 0 and a first digit 4: well-formed"),
        (filled(&[0xFF, 0xA1, 0x80, 0x81], n19), "NUD 19: padding 00 and a first digit 1: well-formed"),
    ];
    for (input, comment) in cases {
        let flag = outcome_flag(&input);
        g.push(dec(comment, &[flag, "LongForm"], &input));
    }
}

fn after_long_prefix(g: &mut Groups<DecodeTest>) {
    g.group("After a long-form prefix, every continuation byte, then the end of input");
    for (prefix, what) in [
        (&[0xFFu8][..], "FF: 80-9F start the 13-byte form, A0-AF a length, B4 a longer length; the rest is invalid-length"),
        (&[0xFF, 0xB4], "FF B4: only B4 and A1-AF may follow"),
        (&[0xFF, 0xA0], "FF A0 (NUD 18, no padding): the first digit must be 8 or more"),
        (&[0xFF, 0xA1], "FF A1 (NUD 19, two padding digits): only 80 may follow"),
        (&[0xFF, 0xA1, 0x80], "FF A1 80: the second padding digit's low bits, then the first digit, nonzero"),
        (&[0xFF, 0xA2], "FF A2 (NUD 20, one padding digit): 80-83 may follow"),
        (&[0xFF, 0xA2, 0x80], "FF A2 80: the first digit is 0 so far; 90-BF make it nonzero"),
    ] {
        for b in 0x80..=0xBFu8 {
            let input = cat(&[prefix, &[b]]);
            g.push(dec(
                format!("{} — {what}", spaced(&input)),
                &["ByteSweep", outcome_flag(&input)],
                &input,
            ));
        }
    }
}

fn truncation(g: &mut Groups<DecodeTest>) {
    g.group("Truncation inside every part of a code: cut after k bytes, then end of input, ASCII or a new code");
    let terminators: [(&str, &[u8], &str); 3] = [
        ("end of input", &[], "ThenEnd"),
        ("41", &[0x41], "ThenAscii"),
        ("C3 A9", &[0xC3, 0xA9], "ThenLead"),
    ];
    let mut codes: Vec<(CodePoint, bool)> = Vec::new();
    for f in &FORMS[1..] {
        codes.push((cp(f.first), true));
        codes.push((cp(f.last), false));
    }
    for nud in [18usize, 19, 34, 274] {
        let c = classes()
            .into_iter()
            .find(|c| c.bytes == long_len(nud))
            .map(|c| c.first);
        if let Some(c) = c {
            codes.push((c, true));
        }
    }
    for (c, all_terminators) in codes {
        let code = bytes_of(&c);
        let header = if code.len() > 13 {
            header_len(&code)
        } else {
            0
        };
        let cuts: Vec<usize> = (1..code.len())
            .filter(|&k| code.len() <= 13 || k <= header + 3 || k == code.len() - 1)
            .collect();
        for cut in cuts {
            let (part, part_flag) = cut_part(&code, cut);
            for (tname, tbytes, tflag) in terminators {
                if !all_terminators && tflag != "ThenEnd" {
                    continue;
                }
                let input = cat(&[&code[..cut], tbytes]);
                let mut flags = vec!["Truncated", part_flag, tflag];
                if code.len() > 13 {
                    flags.push("LongForm");
                }
                g.push(dec(
                    format!(
                        "{} ({}-byte code) cut {part}, then {tname}",
                        cp_text(&c),
                        code.len()
                    ),
                    &flags,
                    &input,
                ));
            }
        }
    }
}

fn length_limit(g: &mut Groups<DecodeTest>) {
    g.group("The code length limit: the default, 65 536 bytes");
    let at_limit = cp(&"F".repeat(98_289));
    let at_limit_bytes = bytes_of(&at_limit);
    let over = cp(&format!("1{}", "0".repeat(98_289)));
    let over_bytes = bytes_of(&over);
    let b4 = |n: usize| vec![lit::B4; n];
    let hostile = cat(&[&[0xFF], &b4(1000)]);
    let design = [
        0xFF, 0xB4, 0xB4, 0xB4, 0xA1, 0xA7, 0xAF, 0xAE, 0xA0, 0x80, 0x81, 0x80, 0x80, 0x80, 0x80,
    ];
    let l = ["LimitExceeded", "LimitSpan"];
    #[rustfmt::skip]
    let cases: Vec<(Vec<u8>, String, Vec<&str>)> = vec![
        (cat(&[&[0xFF], &b4(4)]), "FF + 4 B4: NME has 5+ digits, ≥ 16^4, shortest completion 43 714 bytes: truncated".into(), vec!["Truncated"]),
        (cat(&[&[0xFF], &b4(5)]), "FF + 5 B4 (docs/semantics.md §4.3): NME ≥ 16^5, NUD ≥ 16^5 + 18, more than 65 536 bytes: limit-exceeded at the fifth B4, one span of 6 bytes to the end of input".into(), l.to_vec()),
        (cat(&[&[0xFF], &b4(5), &[0x41]]), "FF + 5 B4, then A: the span of 6 ends before A, which cannot continue the code".into(), l.to_vec()),
        (cat(&[&[0xFF], &b4(6)]), "FF + 6 B4: the sixth B4 still continues the length: one span of 7 bytes".into(), l.to_vec()),
        (cat(&[&[0xFF], &b4(5), &[0xA1, 0xA0, 0xA0, 0xA0, 0xA0, 0xA0]]), "a whole 6-digit length: limit-exceeded at the fifth B4, the digits continue the code: one span of 12 bytes".into(), l.to_vec()),
        (cat(&[&[0xFF], &b4(4), &[0xA1]]), "FF + 4 B4 + A1: NME ≥ 0x10000, shortest completion 43 714 bytes: truncated".into(), vec!["Truncated"]),
        (cat(&[&[0xFF], &b4(4), &[0xA2]]), "FF + 4 B4 + A2: NME ≥ 0x20000, NUD ≥ 131 090: limit-exceeded, one span of 6 bytes".into(), l.to_vec()),
        (at_limit_bytes[..10].to_vec(), format!("the length of the largest code at the limit ({}, 65 536 bytes): truncated", cp_text(&at_limit)), vec!["AtLimit", "Truncated"]),
        (at_limit_bytes[..12].to_vec(), "the same with 2 USV-storage bytes: truncated".into(), vec!["AtLimit", "Truncated"]),
        (over_bytes[..10].to_vec(), format!("the length of the smallest code over the limit ({}, 65 538 bytes; no code has 65 537): limit-exceeded at the fourth digit; the fifth continues it: one span of 10 bytes to the end of input", cp_text(&over)), l.to_vec()),
        (over_bytes[..9].to_vec(), "the same length cut after its fourth digit, where the code goes over the limit, by the end of input: one limit-exceeded span of 9 bytes, not truncated (found by mutation testing: a decoder that counts a length field's own bytes short goes over only at its last digit)".into(), l.to_vec()),
        (cat(&[&over_bytes[..9], &[0x41]]), "the same 9 bytes, then A: one limit-exceeded span of 9 bytes, then A".into(), l.to_vec()),
        (over_bytes[..16].to_vec(), "the same with 6 USV-storage bytes: one span of 16 bytes, not one error per storage byte".into(), l.to_vec()),
        (cat(&[&over_bytes[..100], &[0x41]]), "the same code cut after 100 bytes by A: one span of 100 bytes, then A".into(), l.to_vec()),
        (cat(&[&over_bytes[..10], &[0xBF, 0x80]]), "the same length, then BF, whose set padding bits no well-formed code has: the span of 10 ends before BF, which is decoded afresh (unexpected-continuation, as is 80)".into(), vec!["LimitExceeded", "LimitSpan", "UnexpectedContinuation"]),
        (cat(&[&over_bytes, &[0x80]]), format!("all 65 538 bytes of {}, then 80: one span to the code's declared end (inclusive), then 80 alone", cp_text(&over)), vec!["LimitExceeded", "LimitSpan", "LargeInput", "UnexpectedContinuation"]),
        (design.to_vec(), "FF B4 B4 B4 A1 A7 AF AE A0 80 81 80 80 80 80: NME = 0x17FE, a code of 4 116 bytes, under the limit; its first USV-storage byte A0 sets a padding bit: invalid-length over 8 bytes, then each continuation byte alone".into(), vec!["LengthB4", "InvalidLength", "NonzeroPadding", "UnexpectedContinuation", "ContinuationRun"]),
        (hostile.clone(), "a hostile length field, FF and 1000 B4: one limit-exceeded span of 1001 bytes, in constant memory".into(), l.to_vec()),
        (cat(&[&hostile, &[0x41]]), "the same, then A".into(), l.to_vec()),
        (at_limit_bytes.clone(), format!("{}: a code of exactly 65 536 bytes, the limit, is valid", cp_text(&at_limit)), vec!["AtLimit", "LargeInput", "LongForm", "LengthB4", "ManyDigits"]),
    ];
    debug_assert_eq!(at_limit_bytes.len(), lit::DEFAULT_LIMIT);
    for (input, comment, flags) in cases {
        g.push(dec(comment, &flags, &input));
    }
}

fn cross_encoding(g: &mut Groups<DecodeTest>) {
    g.group(CROSS_GROUP);
    for input in cross_inputs() {
        g.push(dec(cross_comment(&input), &["CrossEncoding"], &input));
    }
}

fn stray_continuations(g: &mut Groups<DecodeTest>) {
    g.group("Stray continuation bytes");
    let all: Vec<u8> = (0x80..=0xBF).collect();
    let after7 = cat(&[&bytes_of(&cp("80000000")), &[0x80]]);
    for (comment, input, run) in [
        ("80 alone", vec![0x80], false),
        ("BF alone", vec![0xBF], false),
        (
            "B4 alone (a length byte, but only after FF)",
            vec![0xB4],
            false,
        ),
        ("A0 alone", vec![0xA0], false),
        ("80 BF 80", vec![0x80, 0xBF, 0x80], true),
        ("all 64 continuation bytes", all, true),
        ("after a complete 7-byte code", after7, false),
    ] {
        let flags: &[&str] = if run {
            &["UnexpectedContinuation", "ContinuationRun"]
        } else {
            &["UnexpectedContinuation"]
        };
        g.push(dec(comment, flags, &input));
    }
}

fn empty(g: &mut Groups<DecodeTest>) {
    g.group("Empty input");
    g.push(dec("no bytes, no events", &["Empty"], &[]));
}

fn mixed(g: &mut Groups<DecodeTest>) {
    g.group("Mixed text");
    let mut mixed = Vec::new();
    for hex in [
        "48",
        "E9",
        "20AC",
        "1F600",
        "200000",
        "4000000",
        "80000000",
        "1000000000",
        "800000000000000000",
        "1000000000000000000000000000000000",
        "A",
    ] {
        mixed.extend(bytes_of(&cp(hex)));
    }
    g.push(dec(
        "one code of each form (1-7, 13, 14 and 28 bytes), then LF",
        &["Mixed"],
        &mixed,
    ));
    let errors = cat(&[
        &[
            0x41, 0x80, 0xC3, 0x42, 0xFF, 0xB0, 0x43, 0xED, 0xA0, 0x80, 0x44,
        ],
        &[0xFF, 0xB4, 0xA0, 0x45, 0xC0, 0x80, 0xFE, 0x81, 0x46],
    ]);
    g.push(dec(
        format!("errors between characters: {}", spaced(&errors)),
        &[
            "Mixed",
            "UnexpectedContinuation",
            "Truncated",
            "InvalidLength",
            "Surrogate",
            "OverlongForm",
        ],
        &errors,
    ));
}

/// SPEC §1: there is no byte order mark; EF BB BF (the original UTF-8 form of U+FEFF) is
/// U+FEFF wherever it stands.
fn bom(g: &mut Groups<DecodeTest>) {
    g.group("No byte order mark: EF BB BF is U+FEFF wherever it stands, never stripped");
    for (comment, input) in bom_inputs(&bytes_of(&cp("FEFF"))) {
        g.push(dec(comment, &["Bom"], &input));
    }
}
