//! Documents (SPEC §2.6): magic number, errors, warnings, positions, order; and the
//! checker over a stream at every split point.

mod common;
use common::hex;
use corrected_utf8::{
    check_document, corrected::MAGIC, DocumentChecker, ErrorKind, Finding, FindingKind,
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
    // Magic number twice: the second one is text.
    findings_are(&with_magic(&MAGIC), &[(Nul, 14, 1, 3)]);
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
    ] {
        assert_eq!(FindingKind::from_name(name).map(|k| k.as_str()), Some(name));
    }
    let f = check_document(b"\r");
    assert_eq!(f[1].to_string(), "1:1: warning: cr (byte 0)");
}
