//! Documents (SPEC §2.6): magic number, errors, warnings, positions, order; and the
//! checker over a stream at every split point.

use crate::common::hex;
use corrected_utf8::{
    check_document, corrected::MAGIC, DocumentChecker, ErrorKind, Finding, FindingKind, Severity,
};
use FindingKind::*;

/// (kind, offset, line, column)
type F = (FindingKind, u64, u64, u64);

fn enc(codepoints: &[u32]) -> Vec<u8> {
    corrected_utf8::corrected::encode(codepoints.iter().copied()).unwrap()
}

fn with_magic(text: &[u8]) -> Vec<u8> {
    [&MAGIC[..], text].concat()
}

#[track_caller]
fn findings_are(file: &[u8], expected: &[F]) {
    let got: Vec<F> = check_document(file)
        .iter()
        .map(|f| (f.kind, f.offset, f.line, f.column))
        .collect();
    assert_eq!(got, expected, "{file:02X?}");
    // Any two-chunk split, and byte by byte, gives the same findings.
    let all = check_document(file);
    for split in 0..=file.len() {
        let (a, b) = file.split_at(split);
        assert_eq!(streamed(&[a, b]), all, "split at {split}");
    }
    let singles: Vec<&[u8]> = file.chunks(1).collect();
    assert_eq!(streamed(&singles), all);
    fast_agrees(file);
}

/// `push_fast` gives `check_document`'s findings in chunks of every size, and split at
/// every point.
#[track_caller]
fn fast_agrees(file: &[u8]) {
    let all = check_document(file);
    let fast = |chunks: &mut dyn Iterator<Item = &[u8]>| {
        let mut checker = DocumentChecker::new();
        let mut out = Vec::new();
        for chunk in chunks {
            checker.push_fast(chunk, |f| out.push(f));
        }
        checker.finish(|f| out.push(f));
        out
    };
    assert_eq!(fast(&mut [file].into_iter()), all, "whole {file:02X?}");
    for size in 1..=file.len() {
        assert_eq!(fast(&mut file.chunks(size)), all, "chunks of {size}");
    }
    for split in 0..=file.len() {
        let (a, b) = file.split_at(split);
        assert_eq!(fast(&mut [a, b].into_iter()), all, "split at {split}");
    }
}

/// Long quiet stretches (past the fast path's 64-byte blocks) around each thing a
/// document check reports or holds back, at every position in a block.
#[test]
fn push_fast_agrees_around_every_finding() {
    let quiet = "Größe 大小 🦀 naïve\n".repeat(5);
    let loud: [&[u8]; 14] = [
        b"\r\n",
        b"\x00",
        b"\t",
        b"\x1F",
        &enc(&[0x2028]),
        &enc(&[0x2029]),
        &enc(&[0x2027, 0x202A, 0x2019]), // their neighbours are quiet
        &MAGIC,
        &MAGIC[..3],
        &MAGIC[..6],
        b"\xE1\x9E",
        b"\xFE\x80\x80",
        b"\x80",
        b"\xF0\x80",
    ];
    for (i, loud) in loud.iter().enumerate() {
        for pad in 0..70 {
            let mut file = MAGIC.to_vec();
            file.extend_from_slice(&quiet.as_bytes()[..pad]);
            file.extend_from_slice(loud);
            file.extend_from_slice(quiet.as_bytes());
            file.extend_from_slice(loud);
            let all = check_document(&file);
            for size in [1, 7, 64, 65, 66, 100, file.len()] {
                let mut checker = DocumentChecker::new();
                let mut got = Vec::new();
                for chunk in file.chunks(size) {
                    checker.push_fast(chunk, |f| got.push(f));
                }
                checker.finish(|f| got.push(f));
                assert_eq!(got, all, "loud {i}, pad {pad}, chunks of {size}");
            }
            if i == 0 && pad < 3 {
                fast_agrees(&file);
            }
        }
    }
}

fn streamed(chunks: &[&[u8]]) -> Vec<Finding> {
    let mut checker = DocumentChecker::new();
    let mut out = Vec::new();
    for chunk in chunks {
        checker.push(chunk, |f| out.push(f));
    }
    checker.finish(|f| out.push(f));
    out
}

#[test]
fn magic_number_and_its_absence() {
    findings_are(&with_magic(b""), &[]);
    findings_are(&with_magic(b"a\n"), &[]);
    findings_are(b"", &[(MissingMagic, 0, 1, 1)]);
    findings_are(b"a\n", &[(MissingMagic, 0, 1, 1)]);
    // A proper prefix of the magic number is text: EF B7 9D is U+10E7D, then no newline.
    findings_are(
        &MAGIC[..3],
        &[(MissingMagic, 0, 1, 1), (MissingFinalNewline, 3, 1, 2)],
    );
    // The first 7 bytes: the 00 is a nul error.
    findings_are(
        &MAGIC[..7],
        &[
            (MissingMagic, 0, 1, 1),
            (Nul, 6, 1, 3),
            (MissingFinalNewline, 7, 1, 4),
        ],
    );
    // Magic number twice: the second one is text, with an inner-magic warning and no nul.
    findings_are(&with_magic(&MAGIC), &[(InnerMagic, 8, 1, 1)]);
    // Almost the magic number: the last byte differs.
    findings_are(
        &hex("EF B7 9D ED B2 AE 00 0B 0A"),
        &[
            (MissingMagic, 0, 1, 1),
            (Nul, 6, 1, 3),
            (C0Control, 7, 1, 4),
        ],
    );
}

#[test]
fn each_rule() {
    findings_are(&with_magic(b"a\x00b\n"), &[(Nul, 9, 1, 2)]);
    findings_are(&with_magic(b"a\r\n"), &[(Cr, 9, 1, 2)]);
    findings_are(
        &with_magic(&enc(&[0x2028, 0x0A])),
        &[(LineSeparator, 8, 1, 1)],
    );
    findings_are(
        &with_magic(&enc(&[0x2029, 0x0A])),
        &[(ParagraphSeparator, 8, 1, 1)],
    );
    findings_are(&with_magic(b"\t\n"), &[(C0Control, 8, 1, 1)]);
    findings_are(
        &with_magic(b"\x01\x1F\x7F\n"),
        &[(C0Control, 8, 1, 1), (C0Control, 9, 1, 2)],
    );
    findings_are(
        &with_magic(b"no newline"),
        &[(MissingFinalNewline, 18, 1, 11)],
    );
    findings_are(
        &with_magic(b"a\n\x80"),
        &[
            (Decode(ErrorKind::UnexpectedContinuation), 10, 2, 1),
            (MissingFinalNewline, 11, 2, 2),
        ],
    );
}

#[test]
fn positions_count_events_and_lines_start_after_magic() {
    let ls = enc(&[0x2028]);
    assert_eq!(ls, hex("E1 9E 88"));
    let mut text = b"ab\n".to_vec();
    text.extend_from_slice(&hex("C0 80 FE FE 80 C0")); // U+00A0, reserved span of 3, truncated C0
    text.extend_from_slice(b"\r\n");
    text.extend_from_slice(&ls);
    text.extend_from_slice(b"\n");
    findings_are(
        &with_magic(&text),
        &[
            (FindingKind::Reserved, 13, 2, 2),
            (Decode(ErrorKind::Truncated), 16, 2, 3),
            (Cr, 17, 2, 4),
            (LineSeparator, 19, 3, 1),
        ],
    );
}

#[test]
fn utf8_separators_are_other_characters_here() {
    // E2 80 A8, UTF-8's U+2028, is a Corrected 3-byte sequence for U+2028 + 2208.
    let file = with_magic(&hex("E2 80 A8 0A"));
    assert_eq!(
        corrected_utf8::corrected::decode(&file[8..11]),
        Ok(vec![0x2028 + 2208])
    );
    findings_are(&file, &[]);
}

#[test]
fn reserved_span_at_end_of_file_then_missing_newline() {
    let mut file = with_magic(b"x\n");
    file.extend(std::iter::repeat_n(0xFF, 100));
    findings_are(
        &file,
        &[
            (FindingKind::Reserved, 10, 2, 1),
            (MissingFinalNewline, 110, 2, 2),
        ],
    );
}

#[test]
fn finding_names_and_display() {
    for name in [
        "nul",
        "missing-magic",
        "cr",
        "line-separator",
        "paragraph-separator",
        "c0-control",
        "missing-final-newline",
        "reserved",
        "inner-magic",
    ] {
        assert_eq!(FindingKind::from_name(name).map(|k| k.as_str()), Some(name));
    }
    let f = check_document(b"\r");
    assert_eq!(f[1].to_string(), "1:1: warning: cr (byte 0)");
    assert_eq!(FindingKind::from_name("reserved"), Some(Reserved));
    assert_eq!(Reserved.severity(), Severity::Warning);
    assert_eq!(InnerMagic.severity(), Severity::Warning);
    assert_eq!(Reserved.to_string(), "reserved");
    assert_eq!(InnerMagic.to_string(), "inner-magic");
}

/// Findings are in offset order (`missing-magic` first), no two at one offset.
#[track_caller]
fn in_offset_order(findings: &[Finding]) {
    let rest = match findings.first() {
        Some(f) if f.kind == MissingMagic => &findings[1..],
        _ => findings,
    };
    for pair in rest.windows(2) {
        assert!(pair[0].offset < pair[1].offset, "{findings:?}");
    }
}

#[test]
fn inner_magic_number_is_text_with_a_warning() {
    // After a leading magic number and a line: the inner one is at line 2, column 1;
    // its 00 is no nul, its 0A ends line 2.
    let mut file = with_magic(b"a\n");
    file.extend_from_slice(&MAGIC);
    file.extend_from_slice(b"b\n");
    findings_are(&file, &[(InnerMagic, 10, 2, 1)]);
    // Mid-line: at the column of its first code point; what follows is on a new line.
    let mut file = with_magic(b"ab");
    file.extend_from_slice(&MAGIC);
    file.extend_from_slice(b"\t\n");
    findings_are(&file, &[(InnerMagic, 10, 1, 3), (C0Control, 18, 2, 1)]);
    // In a file without a leading magic number, and at its very end.
    let mut file = b"x".to_vec();
    file.extend_from_slice(&MAGIC);
    findings_are(&file, &[(MissingMagic, 0, 1, 1), (InnerMagic, 1, 1, 2)]);
}

#[test]
fn cat_of_two_conforming_files_is_valid_with_one_inner_magic() {
    let one = with_magic(b"first file\n");
    let two = with_magic(b"second\nfile\n");
    let cat = [&one[..], &two[..]].concat();
    assert!(check_document(&one).is_empty() && check_document(&two).is_empty());
    findings_are(&cat, &[(InnerMagic, one.len() as u64, 2, 1)]);
    assert!(check_document(&cat)
        .iter()
        .all(|f| f.severity() == Severity::Warning));
}

#[test]
fn two_magic_numbers_back_to_back_after_the_start() {
    let mut file = with_magic(b"a\n");
    file.extend_from_slice(&MAGIC);
    file.extend_from_slice(&MAGIC);
    findings_are(&file, &[(InnerMagic, 10, 2, 1), (InnerMagic, 18, 3, 1)]);
    // Right after the leading one: the second is inner, at line 1.
    let file = [&MAGIC[..], &MAGIC[..]].concat();
    findings_are(&file, &[(InnerMagic, 8, 1, 1)]);
}

#[test]
fn a_broken_magic_number_has_a_nul() {
    // Each magic number with one byte changed, removed or cut short, after the start:
    // its 00 (if still there) is nul, and there is no inner-magic.
    for cut in 1..MAGIC.len() {
        let mut file = with_magic(b"a\n");
        file.extend_from_slice(&MAGIC[..cut]);
        file.extend_from_slice(b"!\n");
        let findings = check_document(&file);
        assert!(
            findings.iter().all(|f| f.kind != InnerMagic),
            "{findings:?}"
        );
        let nul = findings.iter().any(|f| f.kind == Nul);
        assert_eq!(nul, cut == 7, "cut {cut}: {findings:?}");
        in_offset_order(&findings);
    }
    // The first 3 code points, then a 0D instead of 0A: nul at offset 16.
    let mut file = with_magic(b"a\n");
    file.extend_from_slice(&MAGIC[..7]);
    file.extend_from_slice(b"\r\n");
    findings_are(&file, &[(Nul, 16, 2, 3), (Cr, 17, 2, 4)]);
    // ED4E missing: 10E7D, then 00 0A.
    let mut file = with_magic(b"a\n");
    file.extend_from_slice(&MAGIC[..3]);
    file.extend_from_slice(&MAGIC[6..]);
    findings_are(&file, &[(Nul, 13, 2, 2)]);
    // A lone 00 is nul, and so is one after a magic number's first 3 bytes repeated.
    let mut file = with_magic(b"\x00\n");
    file.extend_from_slice(&MAGIC[..3]);
    file.extend_from_slice(&MAGIC);
    findings_are(&file, &[(Nul, 8, 1, 1), (InnerMagic, 13, 2, 2)]);
    // A decode error inside it breaks it.
    let mut file = with_magic(b"a\n");
    file.extend_from_slice(&MAGIC[..6]);
    file.push(0x80);
    file.extend_from_slice(&MAGIC[6..]);
    findings_are(
        &file,
        &[
            (Decode(ErrorKind::UnexpectedContinuation), 16, 2, 3),
            (Nul, 17, 2, 4),
        ],
    );
}

#[test]
fn inner_magic_split_across_chunks_at_every_point() {
    // `findings_are` splits in two at every point and byte by byte; here also in three.
    let mut file = with_magic(b"x\n");
    file.extend_from_slice(&MAGIC);
    file.extend_from_slice(b"\x00\n");
    let all = check_document(&file);
    assert_eq!(
        all.iter().map(|f| (f.kind, f.offset)).collect::<Vec<_>>(),
        [(InnerMagic, 10), (Nul, 18)]
    );
    for i in 0..=file.len() {
        for j in i..=file.len() {
            let chunks = [&file[..i], &file[i..j], &file[j..]];
            assert_eq!(streamed(&chunks), all, "chunks at {i}, {j}");
        }
    }
    findings_are(&file, &[(InnerMagic, 10, 2, 1), (Nul, 18, 3, 1)]);
}

#[test]
fn a_reserved_span_is_a_warning_and_the_document_stays_valid() {
    let mut file = with_magic(b"ab\n\tc");
    file.extend_from_slice(&[0xFE, 0x80, 0xFF]);
    file.extend_from_slice(b"d\n");
    findings_are(&file, &[(C0Control, 11, 2, 1), (Reserved, 13, 2, 3)]);
    let findings = check_document(&file);
    assert!(findings.iter().all(|f| f.severity() == Severity::Warning));
    in_offset_order(&findings);
    // A reserved span next to an error: one warning, one error, in order.
    let file = with_magic(b"\xFE\xC0\n");
    findings_are(
        &file,
        &[(Reserved, 8, 1, 1), (Decode(ErrorKind::Truncated), 9, 1, 2)],
    );
}

#[test]
fn findings_stay_in_offset_order() {
    let mut file = b"\x00\xFE\x80".to_vec();
    file.extend_from_slice(&MAGIC[..7]);
    file.extend_from_slice(&MAGIC);
    file.extend_from_slice(b"\r\xE1\x9E\x88\xC0");
    let findings = check_document(&file);
    in_offset_order(&findings);
    assert_eq!(findings.iter().filter(|f| f.kind == InnerMagic).count(), 1);
    assert_eq!(findings.iter().filter(|f| f.kind == Nul).count(), 2);
}

/// A finding's `length` is the bytes of the event it is about, as `corrected::events`
/// locates it (the span, or the code point's sequence); 8 for an inner magic number; 0
/// for what is absent. The same at every chunking (`findings_are` compares whole
/// findings).
#[test]
fn finding_lengths_are_the_events_lengths() {
    let mut text = enc(&[0x41, 0x00, 0x0D, 0x0A, 0x01, 0x2028, 0x2029]);
    text.extend_from_slice(b"\xFE\x80\x80A\xE0\x80\x80\xFF");
    text.extend_from_slice(&MAGIC);
    text.extend_from_slice(b"\xC0");
    for file in [text.clone(), with_magic(&text)] {
        let located: Vec<_> = corrected_utf8::corrected::events(&file).located().collect();
        let findings = check_document(&file);
        let missing_magic = usize::from(!file.starts_with(&MAGIC));
        assert_eq!(findings.len(), 10 + missing_magic, "{findings:?}");
        for f in &findings {
            let expected = match f.kind {
                MissingMagic | MissingFinalNewline => 0,
                InnerMagic => MAGIC.len() as u64,
                _ => {
                    located
                        .iter()
                        .find(|l| l.offset == f.offset)
                        .unwrap()
                        .length
                }
            };
            assert_eq!(f.length, expected, "{f:?}");
        }
        let reserved: Vec<_> = findings
            .iter()
            .filter(|f| f.kind == Reserved)
            .map(|f| f.length)
            .collect();
        assert_eq!(reserved, [3, 1]);
        let kinds: Vec<_> = findings
            .iter()
            .map(|f| (f.kind, f.offset, f.line, f.column))
            .collect();
        findings_are(&file, &kinds);
    }
}
