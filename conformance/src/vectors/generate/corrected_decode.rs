//! `corrected-utf8/decode.json`: bytes in, the complete list of events out.

use super::build::{bom_inputs, cp_text, decode_test, spaced, Groups, CONTS, TERMINATORS};
use super::table31b::cases as table31b_cases;
use super::utf_inf8;
use crate::vectors::model::DecodeTest;
use conformance_literal::{corrected, table31b, Event};
use std::collections::BTreeSet;

/// The test groups, in file order.
pub(super) fn groups() -> Groups<DecodeTest> {
    let mut g = Groups::new();
    row_ends(&mut g);
    seed_examples(&mut g);
    empty(&mut g);
    lead_bytes(&mut g);
    stray_continuations(&mut g);
    reserved_runs(&mut g);
    magic_number(&mut g);
    mixed(&mut g);
    table31b_inputs(&mut g);
    cross_encoding(&mut g);
    payload_bits(&mut g);
    ascii_blocks(&mut g);
    bom(&mut g);
    super::splits::corrected_decode(&mut g, dec);
    g
}

/// A decode test; a reserved span's outcome gets its own flag: `ReservedOnly` (result
/// reserved) or `ReservedAndError` (result invalid).
fn dec(comment: String, flags: &[&str], input: &[u8]) -> DecodeTest {
    let events = corrected::decode(input);
    let mut flags = flags.to_vec();
    if events.iter().any(Event::is_reserved) {
        flags.push(if events.iter().any(Event::is_error) {
            "ReservedAndError"
        } else {
            "ReservedOnly"
        });
    }
    decode_test(corrected::decode, comment, &flags, input)
}

fn row_ends(g: &mut Groups<DecodeTest>) {
    g.group("Putting it all together: the first and last sequence of every row");
    for (i, row) in corrected::TABLE.iter().enumerate() {
        for (which, seq, cp, flag) in [
            ("first", row.first, row.first_cp, "TableRowFirst"),
            ("last", row.last, row.last_cp, "TableRowLast"),
        ] {
            g.push(dec(
                format!(
                    "row {} (offset {}): {which} sequence {} is {}",
                    i + 1,
                    row.offset,
                    spaced(seq),
                    cp_text(cp)
                ),
                &[flag],
                seq,
            ));
        }
    }
}

fn seed_examples(g: &mut Groups<DecodeTest>) {
    g.group("Source examples and sample characters");
    g.push(dec(
        "Corrected UTF-8: C0 AF, once an overlong '/', is U+00CF".into(),
        &["SeedExample"],
        &[0xC0, 0xAF],
    ));
    for cp in [
        0x41,
        0xE9,
        0x20AC,
        0xFEFF,
        0xFFFD,
        0xFFFE,
        0x1F600,
        0x10FFFF,
        0x110000,
        0x7FFF_FFFF,
    ] {
        if let Ok(bytes) = corrected::encode(cp) {
            let mut flags = vec!["Sample"];
            if cp == 0xFFFE {
                flags.push("Noncharacter");
            }
            if cp > 0x10FFFF {
                flags.push("BeyondUnicode");
            }
            g.push(dec(format!("{} encoded", cp_text(cp)), &flags, &bytes));
        }
    }
}

fn empty(g: &mut Groups<DecodeTest>) {
    g.group("Empty input");
    g.push(dec("no bytes, no events".into(), &["Empty"], &[]));
}

fn lead_bytes(g: &mut Groups<DecodeTest>) {
    g.group("Every lead byte C0..FF, followed by 0..n-1 continuation bytes, then end of input, ASCII, another lead or FE");
    for lead in 0xC0..=0xFFu8 {
        let (n, what) = match corrected::role(lead) {
            corrected::Role::Lead(n) => (n, format!("{n}-byte lead")),
            _ => (7, "reserved byte".to_string()),
        };
        for k in 0..n {
            let mut seq = vec![lead];
            seq.extend(&CONTS[..k]);
            for (tname, tbytes, tflag) in TERMINATORS {
                let mut input = seq.clone();
                input.extend(tbytes);
                let state = if lead >= 0xFE {
                    "Reserved"
                } else if k + 1 == n {
                    "CompleteSequence"
                } else {
                    "Truncated"
                };
                g.push(dec(
                    format!(
                        "{lead:02X} ({what}) + {k} continuation byte{}, then {tname}",
                        if k == 1 { "" } else { "s" }
                    ),
                    &["LeadByte", state, tflag],
                    &input,
                ));
            }
        }
    }
}

fn stray_continuations(g: &mut Groups<DecodeTest>) {
    g.group("Stray continuation bytes");
    for b in [0x80, 0x81, 0x9F, 0xA0, 0xBE, 0xBF] {
        g.push(dec(
            format!("{b:02X} alone"),
            &["UnexpectedContinuation"],
            &[b],
        ));
    }
    let all: Vec<u8> = (0x80..=0xBF).collect();
    for (comment, input) in [
        ("80 BF", vec![0x80, 0xBF]),
        ("80 BF 80", vec![0x80, 0xBF, 0x80]),
        (
            "seven continuation bytes",
            vec![0x80, 0xBF, 0x80, 0xBF, 0x80, 0xBF, 0x80],
        ),
        ("all 64 continuation bytes", all),
        ("between ASCII: 41 80 42", vec![0x41, 0x80, 0x42]),
        (
            "after a complete 2-byte sequence: C3 A9 80",
            vec![0xC3, 0xA9, 0x80],
        ),
        (
            "after a complete 6-byte sequence",
            vec![0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0x80, 0x80],
        ),
        (
            "interleaved with ASCII: 80 41 BF 42",
            vec![0x80, 0x41, 0xBF, 0x42],
        ),
    ] {
        let flags: &[&str] = if input
            .iter()
            .filter(|&&b| (0x80..=0xBF).contains(&b))
            .count()
            > 1
        {
            &["UnexpectedContinuation", "ContinuationRun"]
        } else {
            &["UnexpectedContinuation"]
        };
        g.push(dec(comment.into(), flags, &input));
    }
}

fn reserved_runs(g: &mut Groups<DecodeTest>) {
    g.group("Reserved FE/FF runs");
    let mut long = vec![0xFE];
    // FE, FF and every continuation byte, cycled: one span of 1000 bytes, then A.
    let cycle: Vec<u8> = [0xFE, 0xFF].into_iter().chain(0x80..=0xBF).collect();
    long.extend(cycle.iter().cycle().take(999));
    let mut long_end = long.clone();
    long.push(0x41);
    long_end.truncate(1000);
    #[rustfmt::skip]
    let cases = [
        ("FE alone", vec![0xFE], None),
        ("FF alone", vec![0xFF], None),
        ("at the end: 41 FE", vec![0x41, 0xFE], None),
        ("at the end: 41 FF", vec![0x41, 0xFF], None),
        ("FE FE: one span", vec![0xFE, 0xFE], None),
        ("FF FE FF FE: one span", vec![0xFF, 0xFE, 0xFF, 0xFE], None),
        ("FE FE 80 41: one span of 3, then A (docs/semantics.md §2.4)", vec![0xFE, 0xFE, 0x80, 0x41], None),
        ("FF + continuations + ASCII", vec![0xFF, 0x80, 0x80, 0x41], None),
        ("FF + continuation + C0 80: ended by a 2-byte lead", vec![0xFF, 0x80, 0xC0, 0x80], None),
        ("FF + continuation + C0 alone: ended by a lead that is then truncated", vec![0xFF, 0x80, 0xC0], None),
        ("FF + continuation + FD and five continuations: ended by a 6-byte lead", vec![0xFF, 0xBF, 0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF], None),
        ("FE 00: ended by NUL", vec![0xFE, 0x00], None),
        ("FE 7F: ended by DEL", vec![0xFE, 0x7F], None),
        ("FF 0A: ended by LF", vec![0xFF, 0x0A], None),
        ("FE + 6 continuation bytes (a UTF-inf-8 7-byte code), then A", vec![0xFE, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80, 0x41], None),
        ("FF + 12 continuation bytes (a UTF-inf-8 13-byte code)", vec![0xFF, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80], None),
        ("a truncated lead, then FE: C3 FE", vec![0xC3, 0xFE], Some("Truncated")),
        ("a truncated 3-byte lead, then FE 80 and A", vec![0xE0, 0x80, 0xFE, 0x80, 0x41], Some("Truncated")),
        ("a stray continuation, then FF", vec![0x80, 0xFF], Some("UnexpectedContinuation")),
        ("a long run: FE and 999 bytes of FE, FF and continuations, then A", long, Some("ReservedLongRun")),
        ("a long run of 1000 bytes at the end of input", long_end, Some("ReservedLongRun")),
        ("FF C0 80: the source's sketched 8-byte form starts FF 110xxxxx, but C0 is a recognized lead: FF is a reserved span of 1, then C0 80 is U+00A0", vec![0xFF, 0xC0, 0x80], Some("FutureEightByteForm")),
        ("FF DF BF 41: FF alone, then U+089F and A", vec![0xFF, 0xDF, 0xBF, 0x41], Some("FutureEightByteForm")),
        ("FF C5 and 6 continuation bytes, a whole sketched 8-byte sequence: FF alone, C5 80 a character, then 5 unexpected continuation bytes", vec![0xFF, 0xC5, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80], Some("FutureEightByteForm")),
        ("FF E0 and 7 continuation bytes, the sketched 9-byte form (FF 1110xxxx): FF alone, E0 80 80 a character, then 5 unexpected continuation bytes", vec![0xFF, 0xE0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80], Some("FutureEightByteForm")),
        ("FE FF FE FF: reserved spans only, one span", vec![0xFE, 0xFF, 0xFE, 0xFF], None),
        ("FE 41 FF 42: two reserved spans between characters, no error", vec![0xFE, 0x41, 0xFF, 0x42], None),
        ("FE 80 and a stray continuation after a character: C3 A9 80 FE 80", vec![0xC3, 0xA9, 0x80, 0xFE, 0x80], Some("UnexpectedContinuation")),
    ];
    for (comment, input, extra) in cases {
        let mut flags = vec!["Reserved"];
        flags.extend(extra);
        g.push(dec(comment.into(), &flags, &input));
    }
}

fn magic_number(g: &mut Groups<DecodeTest>) {
    g.group("The magic number, as ordinary text to a decoder");
    let magic = corrected::MAGIC.to_vec();
    let mut after_text = b"A\n".to_vec();
    after_text.extend(&magic);
    let mut twice = magic.clone();
    twice.extend(&magic);
    for (comment, input) in [
        (
            "the magic number: U+10E7D U+ED4E U+0000 U+000A",
            magic.clone(),
        ),
        ("after text: 41 0A + magic", after_text),
        ("twice", twice),
        ("its first 7 bytes", magic[..7].to_vec()),
        (
            "its first 2 bytes: a truncated 3-byte sequence",
            magic[..2].to_vec(),
        ),
    ] {
        g.push(dec(comment.into(), &["MagicNumber"], &input));
    }
}

fn mixed(g: &mut Groups<DecodeTest>) {
    g.group("Mixed text");
    let mut mixed = Vec::new();
    for cp in [0x48, 0xE9, 0x20AC, 0x1F600, 0x2110A0, 0x42110A0, 0x0A] {
        mixed.extend(corrected::encode(cp).unwrap_or_default());
    }
    g.push(dec(
        "one character of each length 1-6 bytes, then LF".into(),
        &["Mixed"],
        &mixed,
    ));
    // Block decoders tell 2-byte leads C0-CF and D0-DF apart by their top 4 bits (each
    // gets its own adjustment); the line above has only a C lead (found by mutation
    // testing, docs/mutation.md).
    let mut every_class = Vec::new();
    for cp in [
        0x48, 0xE9, 0x5D0, 0x20AC, 0x627, 0x1F600, 0x7FF, 0x2110A0, 0x42110A0, 0x0A,
    ] {
        every_class.extend(corrected::encode(cp).unwrap_or_default());
    }
    g.push(dec(
        "a character of every lead class, 2-byte leads C0-CF and D0-DF both, then LF".into(),
        &["Mixed"],
        &every_class,
    ));
    g.push(dec(
        "errors between characters: 41 80 C3 42 FE 80 43 E0 80".into(),
        &["Mixed", "UnexpectedContinuation", "Truncated", "Reserved"],
        &[0x41, 0x80, 0xC3, 0x42, 0xFE, 0x80, 0x43, 0xE0, 0x80],
    ));
}

fn table31b_inputs(g: &mut Groups<DecodeTest>) {
    g.group("Table 3.1b inputs (vectors/utf-8/table-3.1b.json) decoded as Corrected UTF-8");
    for (group, cases) in table31b_cases() {
        for (input, comment) in cases {
            let flags: Vec<String> = table31b::matches(&input)
                .iter()
                .map(|m| m.row)
                .collect::<BTreeSet<_>>()
                .into_iter()
                .map(|r| format!("Table3.1b-row{r}"))
                .collect();
            let mut flags: Vec<&str> = flags.iter().map(String::as_str).collect();
            if flags.is_empty() {
                // The audit's examples where no row matches.
                flags.push("Table3.1b-misses-ill-formed");
            }
            let comment = if group.starts_with("Table 3.1b against") {
                format!("audit example: {comment}")
            } else {
                comment
            };
            g.push(dec(comment, &flags, &input));
        }
    }
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

/// Found by mutation testing (`docs/mutation.md`): the portable fast validator reads a
/// byte's class from bits shifted in from its neighbours, and six of its mask mutants
/// passed an input that ends a sequence early or adds a continuation byte, as long as the
/// payload bits were varied (as `CONTS` varies them). All clear or all set, they do not.
fn payload_bits(g: &mut Groups<DecodeTest>) {
    g.group("Continuation payloads all clear (80) or all set (BF): each length's lowest and highest lead complete then a stray continuation, cut short by ASCII, cut short by the end; FE and FF followed by 1 to 6 of them");
    for lead in [0xC0u8, 0xDF, 0xE0, 0xEF, 0xF0, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD] {
        let corrected::Role::Lead(n) = corrected::role(lead) else {
            unreachable!("C0..FD are leads")
        };
        for cont in [0x80u8, 0xBF] {
            let mut complete = vec![lead];
            complete.extend(std::iter::repeat_n(cont, n - 1));
            let mut stray = complete.clone();
            stray.push(cont);
            let mut cut_ascii = complete[..n - 1].to_vec();
            cut_ascii.push(b'A');
            let cut_end = complete[..n - 1].to_vec();
            for (what, flags, input) in [
                (
                    "then a stray continuation byte",
                    ["CompleteSequence", "UnexpectedContinuation"],
                    stray,
                ),
                ("cut short by 41", ["Truncated", "ThenAscii"], cut_ascii),
                ("cut short by the end", ["Truncated", "ThenEnd"], cut_end),
            ] {
                g.push(dec(
                    format!(
                        "{lead:02X} ({n}-byte lead) with {cont:02X} payloads, {what}: {}",
                        spaced(&input)
                    ),
                    &["PayloadBits", "LeadByte", flags[0], flags[1]],
                    &input,
                ));
            }
        }
    }
    for lead in [0xFEu8, 0xFF] {
        for cont in [0x80u8, 0xBF] {
            for k in 1..=6 {
                let mut input = vec![lead];
                input.extend(std::iter::repeat_n(cont, k));
                g.push(dec(
                    format!("{lead:02X} and {k} × {cont:02X}"),
                    &["PayloadBits", "Reserved"],
                    &input,
                ));
            }
        }
    }
}

/// Found by mutation testing (`docs/mutation.md`): block validators pass over a block
/// that is all ASCII, unless a sequence of the block before still waits for continuation
/// bytes. An "all ASCII" test that ORs a block's words wrongly (AND, XOR), or a "still
/// waiting" test that says no, skips the error; none of the inputs above had a whole
/// block of ASCII after an error. `--ascii-prefixes` moves each across every block
/// boundary.
fn ascii_blocks(g: &mut Groups<DecodeTest>) {
    g.group("Errors next to a block of ASCII: a lead of each length alone or one byte short, then 64 × 41; stray continuation bytes in one or two 8-byte words of 32 bytes, the rest 41 or 00");
    const ASCII_RUN: usize = 64;
    for lead in [0xC3u8, 0xE3, 0xF3, 0xF9, 0xFD] {
        let corrected::Role::Lead(n) = corrected::role(lead) else {
            unreachable!("C3..FD are leads")
        };
        // A 2-byte lead one byte short is the lead alone: one case, not two.
        for have in BTreeSet::from([0, n - 2]) {
            let mut input = vec![lead];
            input.extend(&CONTS[..have]);
            input.extend([b'A'; ASCII_RUN]);
            g.push(dec(
                format!(
                    "{lead:02X} ({n}-byte lead) with {have} of its {} continuation bytes, then {ASCII_RUN} × 41",
                    n - 1
                ),
                &["AsciiBlock", "LeadByte", "Truncated", "ThenAscii"],
                &input,
            ));
        }
    }
    // One 8-byte word each: S stray continuation bytes, A ASCII, Z 00.
    let word = |w: u8| match w {
        b'S' => ([0x80; 8], "8 × 80"),
        b'A' => ([b'A'; 8], "8 × 41"),
        _ => ([0; 8], "8 × 00"),
    };
    for words in ["SZZZ", "SAAA", "ASAA", "AAAS", "SSAA", "SASA"] {
        let input: Vec<u8> = words.bytes().flat_map(|w| word(w).0).collect();
        let what: Vec<&str> = words.bytes().map(|w| word(w).1).collect();
        let what = what.join(", ");
        g.push(dec(
            format!("stray continuation bytes in a block of 32: {what}"),
            &["AsciiBlock", "UnexpectedContinuation", "ContinuationRun"],
            &input,
        ));
    }
}

/// SPEC §1: there is no byte order mark. U+FEFF's Corrected UTF-8 encoding decodes to
/// U+FEFF wherever it stands; UTF-8's BOM bytes EF BB BF are another code point here.
fn bom(g: &mut Groups<DecodeTest>) {
    g.group("No byte order mark: the encoding of U+FEFF is U+FEFF wherever it stands, never stripped; EF BB BF is not U+FEFF here");
    let bom = corrected::encode(0xFEFF).unwrap_or_default();
    for (comment, input) in bom_inputs(&bom) {
        g.push(dec(comment, &["Bom"], &input));
    }
    let utf8_bom = [0xEF, 0xBB, 0xBF];
    let reading = match corrected::decode(&utf8_bom)[..] {
        [Event::CodePoint(cp)] => cp_text(cp),
        _ => "not one code point".to_string(),
    };
    for (comment, input) in [
        (
            format!("EF BB BF 41: UTF-8's BOM bytes at the start are {reading} in Corrected UTF-8, a 3-byte sequence like any other, kept"),
            [&utf8_bom[..], b"A"].concat(),
        ),
        (
            "EF BB: UTF-8's BOM cut short after 2 bytes: truncated".to_string(),
            utf8_bom[..2].to_vec(),
        ),
        (
            "EF: UTF-8's BOM cut short after 1 byte: truncated".to_string(),
            utf8_bom[..1].to_vec(),
        ),
    ] {
        g.push(dec(comment, &["Bom"], &input));
    }
}
