//! The module against the draft's examples and `docs/semantics.md` §4.

use super::*;

fn cp(hex: &str) -> CodePoint {
    CodePoint::from_hex(hex).unwrap()
}

fn dec(input: &[u8]) -> Vec<Event> {
    decode(input, DEFAULT_LIMIT)
}

fn err(kind: Kind, offset: usize, length: usize) -> Event {
    Event::Error {
        kind,
        offset,
        length,
    }
}

#[test]
fn draft_examples_both_ways() {
    for (hex, bytes, _) in DRAFT_EXAMPLES {
        assert_eq!(encode(&cp(hex)).as_deref(), Ok(bytes), "encode U+{hex}");
        assert_eq!(
            dec(bytes),
            [Event::CodePoint(cp(hex))],
            "decode {bytes:02X?}"
        );
    }
    assert_eq!(DRAFT_EXAMPLES[15].0.len(), 51);
    assert_eq!(DRAFT_EXAMPLES[15].1.len(), 38);
    assert_eq!(DRAFT_EXAMPLES[16].0.len(), 102);
    assert_eq!(DRAFT_EXAMPLES[16].1.len(), 72);
}

#[test]
fn semantics_examples() {
    use Kind::*;
    assert_eq!(
        dec(&[0xFF, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]),
        [err(Overlong, 0, 6), err(UnexpectedContinuation, 6, 1)]
    );
    assert_eq!(
        dec(&[0xFF, 0xB0]),
        [err(InvalidLength, 0, 1), err(UnexpectedContinuation, 1, 1)]
    );
    assert_eq!(
        dec(&[0xFF, 0xB4, 0xA0]),
        [err(Overlong, 0, 2), err(UnexpectedContinuation, 2, 1)]
    );
    assert_eq!(
        dec(&[0xFF, 0xB4, 0xB4, 0xB4, 0xB4, 0xB4, 0x41]),
        [err(LimitExceeded, 0, 6), Event::CodePoint(cp("41"))]
    );
    // One limit-exceeded span: the hostile length field to its end, …
    let mut hostile = vec![0xFF];
    hostile.extend([0xB4; 70_000]);
    assert_eq!(dec(&hostile), [err(LimitExceeded, 0, 70_001)]);
    // … the 6 digits after 5 B4 too, and the code's declared end (inclusive).
    let mut long = vec![0xFF, 0xB4, 0xB4, 0xB4, 0xB4, 0xB4];
    long.extend([0xA1, 0xA0, 0xA0, 0xA0, 0xA0, 0xA0, 0x80, 0x84, 0x41]);
    assert_eq!(
        dec(&long),
        [err(LimitExceeded, 0, 14), Event::CodePoint(cp("41"))]
    );
    assert_eq!(dec(&[0xFF, 0xB4, 0xB4, 0xB4, 0xB4]), [err(Truncated, 0, 5)]);
    assert_eq!(dec(&[0xC0, 0x80])[0], err(Overlong, 0, 1));
    assert_eq!(dec(&[0xED, 0xA0, 0x80])[0], err(Surrogate, 0, 1));
    assert_eq!(dec(&[0xED, 0x9F, 0xBF]), [Event::CodePoint(cp("D7FF"))]);
    assert_eq!(dec(&[0xF8, 0x87, 0xBF])[0], err(Overlong, 0, 1));
    assert_eq!(dec(&[0xFE, 0x81])[0], err(Overlong, 0, 1));
    assert_eq!(
        dec(&[0xFF, 0x41]),
        [err(Truncated, 0, 1), Event::CodePoint(cp("41"))]
    );
    assert_eq!(encode(&cp("D800")), Err(Surrogate));
    assert_eq!(encode(&cp("DFFF")), Err(Surrogate));
}

#[test]
fn limit_from_the_codec_docs() {
    let bytes = [
        0xFF, 0xA0, 0xA0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    ];
    // One span to the code's declared end (docs/semantics.md §4.3).
    assert_eq!(decode(&bytes, 13), [err(Kind::LimitExceeded, 0, 14)]);
    let mut cut = bytes.to_vec();
    cut.truncate(5);
    cut.push(0x41);
    assert_eq!(
        decode(&cut, 13),
        [err(Kind::LimitExceeded, 0, 5), Event::CodePoint(cp("41"))]
    );
    let mut longer = bytes.to_vec();
    longer.push(0x80);
    assert_eq!(
        decode(&longer, 13),
        [
            err(Kind::LimitExceeded, 0, 14),
            err(Kind::UnexpectedContinuation, 14, 1)
        ]
    );
    assert_eq!(
        decode(&bytes, 14),
        [Event::CodePoint(cp("800000000000000000"))]
    );
}

#[test]
fn round_trips_and_order() {
    let mut cps: Vec<CodePoint> = Vec::new();
    for nud in 1..=120usize {
        for lead in ["1", "7", "8", "F"] {
            cps.push(cp(&format!("{lead}{}", "0".repeat(nud - 1))));
            cps.push(cp(&format!("{lead}{}", "F".repeat(nud - 1))));
        }
    }
    cps.sort();
    cps.dedup();
    let mut last: Option<Vec<u8>> = None;
    for c in &cps {
        let Ok(bytes) = encode(c) else { continue };
        assert_eq!(dec(&bytes), [Event::CodePoint(c.clone())], "{c}");
        // Encodings sort byte-wise in code point order.
        if let Some(prev) = &last {
            assert!(*prev < bytes, "{c}");
        }
        last = Some(bytes);
    }
}

#[test]
fn code_points_print_and_parse() {
    assert_eq!(cp("41").to_string(), "U+0041");
    assert_eq!(cp("0041").to_string(), "U+0041");
    assert_eq!(cp("0").to_string(), "U+0000");
    assert_eq!("U+1F600".parse::<CodePoint>().unwrap(), cp("1f600"));
    assert!("1F600".parse::<CodePoint>().is_err());
    assert!(cp("FFFF") < cp("10000"));
}

#[test]
fn strings_encode_to_the_concatenation_or_the_first_failure() {
    assert_eq!(encode_string(&[]), Ok(vec![]));
    let big = cp(&"F".repeat(40));
    let cps = [cp("41"), big.clone(), cp("DFFF"), cp("D800")];
    let mut want = vec![0x41];
    want.extend(encode(&big).unwrap());
    assert_eq!(encode_string(&cps[..2]), Ok(want));
    assert_eq!(encode_string(&cps), Err((2, Kind::Surrogate)));
    // A mutant whose surrogates end one early encodes U+DFFF.
    let mut mutant = SPEC;
    mutant.surrogates.1 = "DFFE";
    assert_eq!(mutant.encode_string(&cps[2..3]), Ok(vec![0xED, 0xBF, 0xBF]));
}

/// A long-form code whose length field is over 128 bits (33 or more length digits) is
/// over any limit, but its padding and first significant digit still end its span
/// (`docs/semantics.md` §4.3: "to the first byte that cannot continue it"): NUD modulo 3
/// comes from the digits, not from the saturated value. With 17 digits (over 64 bits)
/// and with 33 (over 128).
#[test]
fn a_length_over_128_bits_keeps_its_padding_and_first_digit() {
    for digits in [17, 33, 40] {
        // NME = 16^(digits − 1): 1 modulo 3, so NUD is 1 modulo 3 and 2 digits (8 bits)
        // of padding: the first storage byte must be `80`.
        let mut bytes = vec![0xFF];
        bytes.extend(vec![0xB4; digits - 1]);
        bytes.push(0xA1);
        bytes.extend(vec![0xA0; digits - 1]);
        let header = bytes.len();
        let mut padding_wrong = bytes.clone();
        padding_wrong.extend([0xBF, 0x41]);
        assert_eq!(
            dec(&padding_wrong),
            [
                err(Kind::LimitExceeded, 0, header),
                err(Kind::UnexpectedContinuation, header, 1),
                Event::CodePoint(cp("41")),
            ],
            "{digits} digits, padding bits set"
        );
        // `80 80`: padding right, then the first significant digit 0 (not shortest): the
        // second storage byte cannot continue the code.
        let mut first_zero = bytes.clone();
        first_zero.extend([0x80, 0x80, 0x41]);
        assert_eq!(
            dec(&first_zero),
            [
                err(Kind::LimitExceeded, 0, header + 1),
                err(Kind::UnexpectedContinuation, header + 1, 1),
                Event::CodePoint(cp("41")),
            ],
            "{digits} digits, first digit 0"
        );
        // `80 8F`: padding right, the first significant digit F: the code goes on.
        let mut goes_on = bytes.clone();
        goes_on.extend([0x80, 0x8F, 0xBF, 0x41]);
        assert_eq!(
            dec(&goes_on),
            [
                err(Kind::LimitExceeded, 0, header + 3),
                Event::CodePoint(cp("41")),
            ],
            "{digits} digits, the code goes on"
        );
    }
}
