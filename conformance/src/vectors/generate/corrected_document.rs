//! `corrected-utf8/document.json`: a whole file in, the document checker's findings out.

use super::build::{document_test, Groups};
use crate::vectors::model::DocumentTest;
use conformance_literal::corrected;

/// The test groups, in file order.
pub(super) fn groups() -> Groups<DocumentTest> {
    let mut g = Groups::new();
    magic_number(&mut g);
    inner_magic(&mut g);
    reserved(&mut g);
    errors(&mut g);
    warnings(&mut g);
    final_newline(&mut g);
    positions(&mut g);
    bom(&mut g);
    g
}

fn doc(comment: &str, flags: &[&str], file: &[u8]) -> DocumentTest {
    document_test(comment.to_string(), flags, file)
}

/// The magic number, then `text`.
fn m(text: &[u8]) -> Vec<u8> {
    let mut v = corrected::MAGIC.to_vec();
    v.extend(text);
    v
}

fn enc(cps: &[u32]) -> Vec<u8> {
    corrected::encode_all(cps).unwrap_or_default()
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

fn magic_number(g: &mut Groups<DocumentTest>) {
    let magic = corrected::MAGIC;
    g.group("The magic number");
    g.push(doc(
        "empty file: only missing-magic",
        &["Empty", "MissingMagic"],
        &[],
    ));
    g.push(doc(
        "the magic number alone: no findings",
        &["MagicNumber"],
        &magic,
    ));
    g.push(doc("magic + A LF", &["MagicNumber"], &m(b"A\n")));
    g.push(doc("magic + LF", &["MagicNumber"], &m(b"\n")));
    g.push(doc(
        "A LF without the magic number",
        &["MissingMagic"],
        b"A\n",
    ));
    for k in 1..magic.len() {
        g.push(doc(
                &format!("a file of the magic number's first {k} byte{}: no magic number, the bytes are text", if k == 1 { "" } else { "s" }),
                &["MagicPrefix", "MissingMagic"],
                &magic[..k],
            ),
        );
    }
    g.push(doc(
        "the magic number twice: the second is text, with the warning inner-magic; its 00 is not nul",
        &["MagicNumber", "InnerMagic"],
        &m(&magic),
    ));
    g.push(doc(
        "the magic number after text: inner-magic on line 2, its 00 not nul",
        &["MagicNumber", "MissingMagic", "InnerMagic"],
        &cat(&[b"A\n", &magic]),
    ));
    g.push(doc(
        "the magic number missing its LF, then text: an incomplete magic number, its 00 is nul",
        &["MagicPrefix", "MissingMagic", "Nul", "MagicNul"],
        &cat(&[&magic[..7], b"A\n"]),
    ));
}

fn inner_magic(g: &mut Groups<DocumentTest>) {
    let magic = corrected::MAGIC;
    g.group("Magic numbers after the start: inner-magic, and the 00 of an incomplete one");
    g.push(doc(
        "two conforming files concatenated (cat a b): inner-magic at the second magic number, line 2 column 1; valid",
        &["MagicNumber", "InnerMagic"],
        &cat(&[&m(b"A\n"), &m(b"B\n")]),
    ));
    g.push(doc(
        "three files concatenated: two inner-magic warnings",
        &["MagicNumber", "InnerMagic"],
        &cat(&[&m(b"A\n"), &m(b"B\n"), &m(b"C\n")]),
    ));
    g.push(doc(
        "a magic number after text on the same line: inner-magic at column 3; its LF ends line 1",
        &["MagicNumber", "InnerMagic", "Position"],
        &m(&cat(&[b"AB", &magic, b"C\n"])),
    ));
    g.push(doc(
        "a 00 right after a complete inner magic number is nul",
        &["MagicNumber", "InnerMagic", "Nul"],
        &m(&cat(&[b"A\n", &magic, b"\0\n"])),
    ));
    g.push(doc(
        "the magic number's first 7 bytes after text, then B: an incomplete magic number, its 00 is nul",
        &["MagicNumber", "MagicNul", "Nul"],
        &m(&cat(&[b"A\n", &magic[..7], b"B\n"])),
    ));
    g.push(doc(
        "a magic number split by a stray continuation byte (EF B7 9D 80 ED B2 AE 00 0A): not complete, its 00 is nul",
        &["MagicNumber", "MagicNul", "Nul", "DecodeError", "UnexpectedContinuation"],
        &m(&cat(&[&magic[..3], b"\x80", &magic[3..]])),
    ));
    g.push(doc(
        "a magic number split by a reserved span (EF B7 9D FE ED B2 AE 00 0A): not complete, its 00 is nul",
        &["MagicNumber", "MagicNul", "Nul", "Reserved"],
        &m(&cat(&[&magic[..3], b"\xFE", &magic[3..]])),
    ));
    g.push(doc(
        "a magic number whose first character is cut (B7 9D ED B2 AE 00 0A): its 00 is nul",
        &[
            "MagicNumber",
            "MagicNul",
            "Nul",
            "DecodeError",
            "UnexpectedContinuation",
        ],
        &m(&cat(&[b"A", &magic[1..]])),
    ));
}

fn reserved(g: &mut Groups<DocumentTest>) {
    g.group("Reserved spans: warnings, not errors");
    g.push(doc(
        "FE 80 80 between letters: a reserved warning at its offset; valid",
        &["Reserved"],
        &m(b"A\xFE\x80\x80B\n"),
    ));
    g.push(doc(
        "FF alone on a line: a reserved warning; valid",
        &["Reserved"],
        &m(b"A\n\xFF\n"),
    ));
    g.push(doc(
        "a reserved span and a nul: the reserved warning and the nul error; invalid",
        &["Reserved", "Nul"],
        &m(b"\xFE\0\n"),
    ));
    g.push(doc(
        "a reserved span and a decoding error: invalid because of the error",
        &["Reserved", "DecodeError", "Truncated"],
        &m(b"\xFE\x80A\xC3\n"),
    ));
    g.push(doc(
        "the sketched 8-byte form FF C0 80: a reserved warning for FF, then U+00A0",
        &["Reserved", "FutureEightByteForm"],
        &m(b"\xFF\xC0\x80\n"),
    ));
}

fn errors(g: &mut Groups<DocumentTest>) {
    g.group("Errors: nul and decoding errors");
    g.push(doc("NUL", &["Nul"], &m(b"\0\n")));
    g.push(doc("NUL between letters", &["Nul"], &m(b"A\0B\n")));
    g.push(doc(
        "stray continuation byte",
        &["DecodeError", "UnexpectedContinuation"],
        &m(b"A\x80B\n"),
    ));
    g.push(doc(
        "truncated sequence before LF",
        &["DecodeError", "Truncated"],
        &m(b"A\xC3\n"),
    ));
    g.push(doc(
        "truncated 3-byte sequence before ASCII",
        &["DecodeError", "Truncated"],
        &m(b"\xE0\x80A\n"),
    ));
    g.push(doc(
        "reserved span ended by LF: a reserved warning, the document is valid",
        &["Reserved"],
        &m(b"\xFE\n"),
    ));
    g.push(doc(
        "reserved span swallowing continuation bytes: a reserved warning",
        &["Reserved"],
        &m(b"A\xFF\x80\x80B\n"),
    ));
    g.push(doc(
        "every error kind on one line, and a reserved span (a warning)",
        &[
            "DecodeError",
            "Nul",
            "UnexpectedContinuation",
            "Truncated",
            "Reserved",
        ],
        &m(b"\0\x80\xC3A\xFE\x80\n"),
    ));
}

fn warnings(g: &mut Groups<DocumentTest>) {
    let ls = enc(&[0x2028]);
    let ps = enc(&[0x2029]);
    g.group("Warnings: characters that SHOULD NOT appear");
    g.push(doc("CR LF", &["Cr"], &m(b"A\r\n")));
    g.push(doc(
        "LINE SEPARATOR",
        &["LineSeparator"],
        &m(&cat(&[b"A", &ls, b"B\n"])),
    ));
    g.push(doc(
        "PARAGRAPH SEPARATOR",
        &["ParagraphSeparator"],
        &m(&cat(&[b"A", &ps, b"B\n"])),
    ));
    for (b, name) in [
        (0x01u8, "U+0001"),
        (
            0x09,
            "TAB (U+0009) is a c0-control, as Corrected UTF-8 says",
        ),
        (0x0B, "VT"),
        (0x0C, "FF (form feed)"),
        (0x1B, "ESC"),
        (0x1F, "U+001F"),
    ] {
        g.push(doc(name, &["C0Control"], &m(&[b'A', b, b'B', b'\n'])));
    }
    g.push(doc(
        "DEL (U+007F) is not a finding",
        &["NotAFinding"],
        &m(b"A\x7FB\n"),
    ));
    g.push(doc(
        "U+00A0, U+FFFD, U+10FFFF and U+8421109F are not findings",
        &["NotAFinding"],
        &m(&cat(&[&enc(&[0xA0, 0xFFFD, 0x10FFFF, 0x8421_109F]), b"\n"])),
    ));
}

fn final_newline(g: &mut Groups<DocumentTest>) {
    g.group("The final newline");
    g.push(doc(
        "text without a final LF",
        &["MissingFinalNewline"],
        &m(b"A"),
    ));
    g.push(doc(
        "text ending in CR",
        &["MissingFinalNewline", "Cr"],
        &m(b"A\r"),
    ));
    g.push(doc(
        "text ending in an error span",
        &["MissingFinalNewline", "DecodeError", "Truncated"],
        &m(b"A\n\xC3"),
    ));
    g.push(doc(
        "text ending in a reserved span",
        &["MissingFinalNewline", "Reserved"],
        &m(b"A\xFE\x80"),
    ));
    g.push(doc(
        "text ending in a 4-byte character",
        &["MissingFinalNewline"],
        &m(&enc(&[0x41, 0x1F600])),
    ));
    g.push(doc(
        "no magic number, a single byte",
        &["MissingFinalNewline", "MissingMagic"],
        b"A",
    ));
    g.push(doc(
        "no magic number, a single LF",
        &["MissingMagic"],
        b"\n",
    ));
    g.push(doc(
        "text ending in two LFs",
        &["NotAFinding"],
        &m(b"A\n\n"),
    ));
}

fn positions(g: &mut Groups<DocumentTest>) {
    let ls = enc(&[0x2028]);
    g.group("Positions: offsets, lines and columns");
    g.push(doc(
        "lines count from after the magic number",
        &["Position", "C0Control"],
        &m(b"A\nB\tC\n"),
    ));
    g.push(doc(
        "without the magic number, lines count from byte 0",
        &["Position", "MissingMagic", "C0Control"],
        b"\n\n\t",
    ));
    g.push(doc(
        "a finding at offset 0 comes after missing-magic",
        &["Position", "MissingMagic", "C0Control"],
        b"\t\n",
    ));
    g.push(doc(
        "CR does not end a line",
        &["Position", "Cr", "C0Control"],
        &m(b"A\rB\t\n"),
    ));
    g.push(doc(
        "LINE SEPARATOR does not end a line",
        &["Position", "LineSeparator", "C0Control"],
        &m(&cat(&[&ls, b"\t\n"])),
    ));
    g.push(doc(
        "a multi-byte character is one column",
        &["Position", "C0Control"],
        &m(&cat(&[&enc(&[0xE9, 0x20AC, 0x1F600, 0x42110A0]), b"\t\n"])),
    ));
    g.push(doc(
        "an error span is one column",
        &[
            "Position",
            "DecodeError",
            "UnexpectedContinuation",
            "Truncated",
            "C0Control",
        ],
        &m(b"A\x80\xE0\x80B\x01\n"),
    ));
    let mut long = m(b"A");
    long.push(0xFE);
    long.extend(std::iter::repeat_n(0x80, 99));
    long.extend(b"\t\n");
    g.push(doc(
        "a reserved span of 100 bytes is one column",
        &["Position", "Reserved", "C0Control"],
        &long,
    ));
    g.push(doc(
        "findings on line 3, offsets in the whole file",
        &["Position", "Nul", "Cr", "C0Control"],
        &m(b"ab\n\ncd\0\r\x1B\n"),
    ));
    g.push(doc(
        "missing-final-newline on the last line, after the last event",
        &["Position", "MissingFinalNewline"],
        &m(b"A\nBC"),
    ));
    // Long clean stretches, which a checker may count in bulk (the codec's `push_fast`
    // skips them a block at a time): every line and code point before a finding counts.
    // Found by mutation testing (docs/mutation.md): no document had a quiet stretch
    // longer than a few bytes, so a bulk count of 0 or 1 newlines passed every vector.
    let line = enc(&[
        0x5A, 0x65, 0x69, 0x6C, 0x65, 0x3A, 0x20, 0xE9, 0x20AC, 0x1F600, 0x2110A0, 0x20, 0x41,
        0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x4B, 0x4C, 0x4D, 0x4E, 0x4F, 0x0A,
    ]);
    let lines: Vec<u8> = line.repeat(8);
    let tail = enc(&[
        0x54, 0x61, 0x69, 0x6C, 0x20, 0xE9, 0x20AC, 0x20, 0x31, 0x32, 0x33,
    ]);
    g.push(doc(
        "a finding after 8 long clean lines and a clean start of line 9",
        &["Position", "C0Control"],
        &m(&cat(&[&lines, &tail, b"\t\n"])),
    ));
    g.push(doc(
        "a finding after one clean line of 300 code points",
        &["Position", "C0Control"],
        &m(&cat(&[
            &enc(&[0xE9; 100]),
            &b"x".repeat(100),
            &enc(&[0x20AC; 100]),
            b"\t\n",
        ])),
    ));
    g.push(doc(
        "a finding at every byte: 100 C0 controls in a row, each reported",
        &["Position", "C0Control"],
        &m(&cat(&[&[0x01; 100], b"\n"])),
    ));
    g.push(doc(
        "without the magic number: a finding after 8 long clean lines",
        &["Position", "MissingMagic", "C0Control"],
        &cat(&[&lines, &tail, b"\x01\n"]),
    ));
    // A finding told by three bytes (U+2028, U+2029, the magic number's first code
    // point) deep in a long clean stretch: a bulk skip that reads a byte's neighbour
    // from the wrong place passed every vector, whose separators sat near a line's start
    // (found by mutation testing, docs/mutation.md).
    let clean = b"The quick brown fox jumps over the lazy dog, again and again. ".repeat(2);
    for (what, cp, flags) in [
        ("U+2028", 0x2028, ["Position", "LineSeparator"]),
        ("U+2029", 0x2029, ["Position", "ParagraphSeparator"]),
    ] {
        g.push(doc(
            &format!("{what} after 12 and after 100 clean bytes of a long line"),
            &flags,
            &m(&cat(&[
                &clean[..12],
                &enc(&[cp]),
                &clean[..100],
                &enc(&[cp]),
                &clean,
                b"\n",
            ])),
        ));
    }
    g.push(doc(
        "an inner magic number after 12 and after 100 clean bytes of a long line",
        &["Position", "MagicNumber", "InnerMagic"],
        &m(&cat(&[
            &clean[..12],
            &corrected::MAGIC,
            &clean[..100],
            &corrected::MAGIC,
            &clean,
            b"\n",
        ])),
    ));
}

/// SPEC §1: U+FEFF at the start of a document is text, with no finding of its own (the
/// signature of a Corrected UTF-8 file is the magic number, §2.6).
fn bom(g: &mut Groups<DocumentTest>) {
    g.group("No byte order mark: U+FEFF at the start of a document is text, with no finding");
    let bom = enc(&[0xFEFF]);
    g.push(doc(
        "U+FEFF (EE B9 9F) then A LF, without the magic number: only missing-magic",
        &["Bom", "MissingMagic"],
        &cat(&[&bom, b"A\n"]),
    ));
    g.push(doc(
        "the magic number, U+FEFF, A LF: no findings",
        &["Bom", "MagicNumber"],
        &m(&cat(&[&bom, b"A\n"])),
    ));
    g.push(doc(
        "EF BB BF (UTF-8's BOM bytes: U+10F9F here) then A LF: only missing-magic",
        &["Bom", "MissingMagic"],
        &cat(&[&[0xEF, 0xBB, 0xBF], b"A\n"]),
    ));
}
